`default_nettype none
// SPDX-License-Identifier: MIT
// tn_board_system: what every board runs, independent of its pins and PLL:
// UART RX -> host bridge -> status tap -> tn_torus, bridge -> UART TX.
// The torus is reset by the board reset or the bridge's RESET pulse.
//
// ASYNC = 0: everything runs on clk_i (bclk_i is not used); rst_i is in
// that domain.
// ASYNC = 1: two unrelated clocks. The network domain (clk_i, CLK_HZ) holds
// tn_torus and the network side of the tap; the bus domain (bclk_i, BUS_HZ)
// holds the UART, the bridge and the bus side of the tap, which is the
// clock-domain crossing (tn_board_tap). rst_i is in the bus domain; the
// tap carries it and the bridge's RESET pulse into the network domain.
module tn_board_system #(
    parameter DIM_X        = 2,        // torus size in X
    parameter DIM_Y        = 1,        // torus size in Y
    parameter DIM_Z        = 1,        // torus size in Z
    parameter W            = 8,        // flit data width
    parameter LANES        = 1,        // lanes per node
    parameter MEM_DEPTH    = 256,      // flit memory words per node
    parameter ROUNDS       = 2,        // round-table depth
    parameter RELAY        = 0,        // board reductions of tn_torus (docs/hardware.md)
    parameter MEM_BRAM     = 1,
    parameter CW           = 16,
    parameter TW           = 31,
    parameter GATHER       = 0,
    parameter REC_BRAM     = 1,
    parameter INREG        = 0,
    parameter STAT_PIPE    = 1,
    parameter EPIPE        = 1,
    parameter CLK_HZ       = 48000000, // network clock in Hz
    parameter ASYNC        = 0,        // 1: bridge and UART on bclk_i (see above)
    parameter BUS_HZ       = CLK_HZ,   // bus clock in Hz (ASYNC = 1)
    parameter BAUD         = 12000000, // UART bit rate (FT2232H maximum)
    parameter MAX_WORDS    = 256,      // bridge payload bound in words
    parameter FIFO_AW      = 9,        // log2 of the bridge input FIFO bytes
    parameter IDLE_TIMEOUT = ((ASYNC != 0) ? BUS_HZ : CLK_HZ) / 10, // derived: 100 ms of silence drops a partial frame
    parameter POLL_LOG2    = 16        // status LED refresh: every 2**POLL_LOG2 network cycles
) (
    input  wire       clk_i,       // network clock
    input  wire       bclk_i,      // bus clock (ASYNC = 1)
    input  wire       rst_i,       // board reset (bus domain if ASYNC = 1)
    input  wire       uart_rx_i,
    output wire       uart_tx_o,
    output wire [3:0] status_o     // STATUS bits: running, done, error, aborted
);
    localparam M_HZ = (ASYNC != 0) ? BUS_HZ : CLK_HZ; // the bridge's and UART's clock
    wire       mclk = (ASYNC != 0) ? bclk_i : clk_i;   // ... itself

    wire       rx_valid;
    wire [7:0] rx_data;
    /* verilator lint_off UNUSEDSIGNAL */ // no flow control on the UART
    wire       rx_err, in_ready;
    /* verilator lint_on UNUSEDSIGNAL */
    wire       tx_valid, tx_ready;
    wire [7:0] tx_data;

    tn_uart_rx #(.CLK_HZ(M_HZ), .BAUD(BAUD)) u_rx (
        .clk_i(mclk), .rst_i(rst_i), .rx_i(uart_rx_i),
        .out_valid_o(rx_valid), .out_data_o(rx_data), .err_o(rx_err));

    wire [31:0] m_addr, m_wdata, m_rdata, s_addr, s_wdata, s_rdata;
    wire        m_we, m_re, m_ready, s_we, s_re, s_ready, soft_rst;

    tn_bridge #(.MAX_WORDS(MAX_WORDS), .IDLE_TIMEOUT(IDLE_TIMEOUT), .FIFO_AW(FIFO_AW)) u_bridge (
        .clk_i(mclk), .rst_i(rst_i),
        .in_valid_i(rx_valid), .in_data_i(rx_data), .in_ready_o(in_ready),
        .out_valid_o(tx_valid), .out_data_o(tx_data), .out_ready_i(tx_ready),
        .bus_addr_o(m_addr), .bus_wdata_o(m_wdata), .bus_we_o(m_we), .bus_re_o(m_re),
        .bus_rdata_i(m_rdata), .bus_ready_i(m_ready), .rst_o(soft_rst));

    tn_uart_tx #(.CLK_HZ(M_HZ), .BAUD(BAUD)) u_tx (
        .clk_i(mclk), .rst_i(rst_i),
        .in_valid_i(tx_valid), .in_data_i(tx_data), .in_ready_o(tx_ready), .tx_o(uart_tx_o));

    wire net_rst;   // network domain: board reset or RESET

    tn_board_tap #(.POLL_LOG2(POLL_LOG2), .ASYNC(ASYNC)) u_tap (
        .clk_i(clk_i), .mclk_i(mclk), .rst_i(rst_i), .srst_i(soft_rst), .net_rst_o(net_rst),
        .m_addr_i(m_addr), .m_wdata_i(m_wdata), .m_we_i(m_we), .m_re_i(m_re),
        .m_rdata_o(m_rdata), .m_ready_o(m_ready),
        .s_addr_o(s_addr), .s_wdata_o(s_wdata), .s_we_o(s_we), .s_re_o(s_re),
        .s_rdata_i(s_rdata), .s_ready_i(s_ready), .status_o(status_o));

    tn_torus #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
               .MEM_DEPTH(MEM_DEPTH), .ROUNDS(ROUNDS), .RELAY(RELAY), .MEM_BRAM(MEM_BRAM),
               .CW(CW), .TW(TW), .GATHER(GATHER), .REC_BRAM(REC_BRAM), .INREG(INREG), .STAT_PIPE(STAT_PIPE),
               .EPIPE(EPIPE)) u_torus (
        .clk_i(clk_i), .rst_i(net_rst),
        .bus_addr_i(s_addr), .bus_wdata_i(s_wdata), .bus_we_i(s_we), .bus_re_i(s_re),
        .bus_rdata_o(s_rdata), .bus_ready_o(s_ready));
endmodule
