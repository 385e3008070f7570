// SPDX-License-Identifier: MIT
// Top of the tb_uart testbench: three lanes at 48 MHz: 12 Mbaud (4 clocks per
// bit), 6.857 Mbaud (7, an odd ratio) and 921600 baud (52.08, not an
// integer). Per-lane signals are packed: lane k uses bits [k*w +: w].
`default_nettype none

module tb_uart_top (
    input  wire        clk_i,
    input  wire        rst_i,
    input  wire [2:0]  tx_valid_i,
    input  wire [23:0] tx_data_i,
    output wire [2:0]  tx_ready_o,
    output wire [2:0]  tx_line_o,
    input  wire [2:0]  loop_i,
    input  wire [2:0]  line_i,
    output wire [2:0]  rx_valid_o,
    output wire [23:0] rx_data_o,
    output wire [2:0]  rx_err_o,
    input  wire [2:0]  br_line_i,
    output wire [2:0]  br_line_o,
    output wire [2:0]  br_overflow_o,
    output wire [95:0] bus_addr_o,
    output wire [95:0] bus_wdata_o,
    output wire [2:0]  bus_we_o,
    output wire [2:0]  bus_re_o,
    input  wire [95:0] bus_rdata_i,
    input  wire [2:0]  bus_ready_i,
    output wire [2:0]  rst_o
);
    genvar k;
    generate
        for (k = 0; k < 3; k = k + 1) begin : gen_lane
            tb_uart_lane #(
                .CLK_HZ(48000000),
                .BAUD(k == 0 ? 12000000 : k == 1 ? 6857143 : 921600)
            ) u_lane (
                .clk_i(clk_i), .rst_i(rst_i),
                .tx_valid_i(tx_valid_i[k]), .tx_data_i(tx_data_i[k*8 +: 8]),
                .tx_ready_o(tx_ready_o[k]), .tx_line_o(tx_line_o[k]),
                .loop_i(loop_i[k]), .line_i(line_i[k]),
                .rx_valid_o(rx_valid_o[k]), .rx_data_o(rx_data_o[k*8 +: 8]),
                .rx_err_o(rx_err_o[k]),
                .br_line_i(br_line_i[k]), .br_line_o(br_line_o[k]),
                .br_overflow_o(br_overflow_o[k]),
                .bus_addr_o(bus_addr_o[k*32 +: 32]), .bus_wdata_o(bus_wdata_o[k*32 +: 32]),
                .bus_we_o(bus_we_o[k]), .bus_re_o(bus_re_o[k]),
                .bus_rdata_i(bus_rdata_i[k*32 +: 32]), .bus_ready_i(bus_ready_i[k]),
                .rst_o(rst_o[k])
            );
        end
    endgenerate
endmodule

`default_nettype wire
