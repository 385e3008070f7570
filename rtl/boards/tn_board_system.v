`default_nettype none
// SPDX-License-Identifier: MIT
// tn_board_system: what every board runs, independent of its pins and PLL:
// UART RX -> host bridge -> tn_torus, bridge -> UART TX. The UART and the
// bridge run on the bus clock (bclk_i), which is also tn_torus's bus clock;
// the network runs on nclk_i (the two may be one clock). The crossing
// between them is inside tn_torus. The torus is reset by the board reset or
// the bridge's RESET pulse, both in the bus domain.
module tn_board_system #(
    parameter DIM_X        = 2,        // torus size in X (product parameters of tn_torus,
    parameter DIM_Y        = 1,        //   docs/hardware.md)
    parameter DIM_Z        = 1,        // torus size in Z
    parameter W            = 8,        // flit data width
    parameter LANES        = 1,        // lanes per node
    parameter MEM_DEPTH    = 256,      // flit memory words per node
    parameter ROUNDS       = 16,       // round-table and list depth
    parameter RELAY        = 0,        // relay hardware
    parameter BUS_HZ       = 12000000, // bus clock (UART and bridge) in Hz
    parameter BAUD         = 3000000,  // UART bit rate, BUS_HZ / BAUD >= 4
    parameter MAX_WORDS    = 128,      // bridge payload bound in words
    parameter FIFO_AW      = 9,        // log2 of the bridge input FIFO bytes
    parameter IDLE_TIMEOUT = BUS_HZ / 10 // derived: 100 ms of silence drops a partial frame
) (
    input  wire       bclk_i,      // bus clock
    input  wire       rst_i,       // board reset, synchronous, bus domain
    input  wire       nclk_i,      // network clock
    input  wire       uart_rx_i,
    output wire       uart_tx_o,
    output wire [3:0] status_o     // STATUS bits running, done, error, aborted (network domain)
);
    wire       rx_valid;
    wire [7:0] rx_data;
    /* verilator lint_off UNUSEDSIGNAL */ // no flow control on the UART
    wire       rx_err, in_ready;
    /* verilator lint_on UNUSEDSIGNAL */
    wire       tx_valid, tx_ready;
    wire [7:0] tx_data;

    tn_uart_rx #(.CLK_HZ(BUS_HZ), .BAUD(BAUD)) u_rx (
        .clk_i(bclk_i), .rst_i(rst_i), .rx_i(uart_rx_i),
        .out_valid_o(rx_valid), .out_data_o(rx_data), .err_o(rx_err));

    wire [31:0] addr, wdata, rdata;
    wire        we, re, ready, soft_rst;

    tn_bridge #(.MAX_WORDS(MAX_WORDS), .IDLE_TIMEOUT(IDLE_TIMEOUT), .FIFO_AW(FIFO_AW)) u_bridge (
        .clk_i(bclk_i), .rst_i(rst_i),
        .in_valid_i(rx_valid), .in_data_i(rx_data), .in_ready_o(in_ready),
        .out_valid_o(tx_valid), .out_data_o(tx_data), .out_ready_i(tx_ready),
        .bus_addr_o(addr), .bus_wdata_o(wdata), .bus_we_o(we), .bus_re_o(re),
        .bus_rdata_i(rdata), .bus_ready_i(ready), .rst_o(soft_rst));

    tn_uart_tx #(.CLK_HZ(BUS_HZ), .BAUD(BAUD)) u_tx (
        .clk_i(bclk_i), .rst_i(rst_i),
        .in_valid_i(tx_valid), .in_data_i(tx_data), .in_ready_o(tx_ready), .tx_o(uart_tx_o));

    /* verilator lint_off UNUSEDSIGNAL */ // for the simulator only
    wire net_busy;
    wire [DIM_Z-1:0] tbusy, pbusy;
    wire nball;
    wire [DIM_X*DIM_Y*DIM_Z-1:0] nbreq;
    wire [27:0] ntab;
    /* verilator lint_on UNUSEDSIGNAL */
    tn_torus #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
               .MEM_DEPTH(MEM_DEPTH), .ROUNDS(ROUNDS), .RELAY(RELAY)) u_torus (
        .bclk_i(bclk_i), .tbusy_o(tbusy), .rst_i(rst_i || soft_rst),
        .bus_addr_i(addr), .bus_wdata_i(wdata), .bus_we_i(we), .bus_re_i(re),
        .bus_rdata_o(rdata), .bus_ready_o(ready),
        .nclk_i(nclk_i), .net_busy_o(net_busy), .pbusy_o(pbusy),
        .nball_o(nball), .nbreq_o(nbreq), .ntab_o(ntab), .status_o(status_o));
endmodule
