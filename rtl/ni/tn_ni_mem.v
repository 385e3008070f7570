`default_nettype none
// SPDX-License-Identifier: MIT
// tn_ni_mem: a node's flit memory, words {head, tail, data}. Multi-ported
// for simulation (WP write ports, RP asynchronous read ports, the highest
// write port wins); an FPGA build replaces this module with a banked or
// time-multiplexed block-RAM variant with the same ports.
module tn_ni_mem #(
    parameter MW    = 18,   // word width: W data bits + head + tail
    parameter DEPTH = 4096, // words
    parameter AW    = 12,   // address bits, 2**AW == DEPTH
    parameter WP    = 7,    // write ports
    parameter RP    = 7     // read ports
) (
    input  wire            clk_i,
    input  wire [WP-1:0]   we_i,
    input  wire [WP*AW-1:0] waddr_i,
    input  wire [WP*MW-1:0] wdata_i,
    input  wire [RP*AW-1:0] raddr_i,
    output wire [RP*MW-1:0] rdata_o
);
    reg [MW-1:0] mem [0:DEPTH-1];
    integer k;

    always @(posedge clk_i)
        for (k = 0; k < WP; k = k + 1)
            if (we_i[k])
                mem[waddr_i[k*AW +: AW]] <= wdata_i[k*MW +: MW];

    genvar g;
    generate
        for (g = 0; g < RP; g = g + 1) begin : gen_rd
            assign rdata_o[g*MW +: MW] = mem[raddr_i[g*AW +: AW]];
        end
    endgenerate
endmodule
