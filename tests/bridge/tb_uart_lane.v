// SPDX-License-Identifier: MIT
// Test harness lane for tb_uart: a tn_uart_tx -> tn_uart_rx pair (the rx
// line either looped back from the tx or driven by the testbench), and a
// whole tn_bridge behind its own UART RX/TX, at one CLK_HZ/BAUD ratio.
`default_nettype none

module tb_uart_lane #(
    parameter CLK_HZ = 48000000,   // clock frequency of the lane
    parameter BAUD   = 12000000    // bit rate of the lane
) (
    input  wire        clk_i,
    input  wire        rst_i,
    // uart pair
    input  wire        tx_valid_i,
    input  wire [7:0]  tx_data_i,
    output wire        tx_ready_o,
    output wire        tx_line_o,
    input  wire        loop_i,      // 1: rx line = tx line, 0: rx line = line_i
    input  wire        line_i,
    output wire        rx_valid_o,
    output wire [7:0]  rx_data_o,
    output wire        rx_err_o,
    // bridge over uart
    input  wire        br_line_i,
    output wire        br_line_o,
    output wire        br_overflow_o,  // a received byte found the FIFO full
    output wire [31:0] bus_addr_o,
    output wire [31:0] bus_wdata_o,
    output wire        bus_we_o,
    output wire        bus_re_o,
    input  wire [31:0] bus_rdata_i,
    input  wire        bus_ready_i,
    output wire        rst_o
);
    tn_uart_tx #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_tx (
        .clk_i(clk_i), .rst_i(rst_i), .in_valid_i(tx_valid_i), .in_data_i(tx_data_i),
        .in_ready_o(tx_ready_o), .tx_o(tx_line_o)
    );
    tn_uart_rx #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_rx (
        .clk_i(clk_i), .rst_i(rst_i), .rx_i(loop_i ? tx_line_o : line_i),
        .out_valid_o(rx_valid_o), .out_data_o(rx_data_o), .err_o(rx_err_o)
    );

    wire       b_rx_valid, b_in_ready, b_out_valid, b_tx_ready;
    wire [7:0] b_rx_data, b_out_data;
    /* verilator lint_off PINCONNECTEMPTY */
    tn_uart_rx #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_brx (
        .clk_i(clk_i), .rst_i(rst_i), .rx_i(br_line_i),
        .out_valid_o(b_rx_valid), .out_data_o(b_rx_data), .err_o()
    );
    /* verilator lint_on PINCONNECTEMPTY */
    assign br_overflow_o = b_rx_valid && !b_in_ready;
    tn_bridge #(.MAX_WORDS(64), .IDLE_TIMEOUT(200000)) u_bridge (
        .clk_i(clk_i), .rst_i(rst_i),
        .in_valid_i(b_rx_valid), .in_data_i(b_rx_data), .in_ready_o(b_in_ready),
        .out_valid_o(b_out_valid), .out_data_o(b_out_data), .out_ready_i(b_tx_ready),
        .bus_addr_o(bus_addr_o), .bus_wdata_o(bus_wdata_o), .bus_we_o(bus_we_o),
        .bus_re_o(bus_re_o), .bus_rdata_i(bus_rdata_i), .bus_ready_i(bus_ready_i),
        .rst_o(rst_o)
    );
    tn_uart_tx #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_btx (
        .clk_i(clk_i), .rst_i(rst_i), .in_valid_i(b_out_valid), .in_data_i(b_out_data),
        .in_ready_o(b_tx_ready), .tx_o(br_line_o)
    );
endmodule

`default_nettype wire
