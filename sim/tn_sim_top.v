`default_nettype none
// SPDX-License-Identifier: MIT
// tn_sim_top: the Verilated top of a simulation model: the torus and its
// configuration bus port (the host bridge's byte FIFO is added here later).
module tn_sim_top #(
    parameter DIM_X     = 3,    // torus size in X
    parameter DIM_Y     = 3,    // torus size in Y
    parameter DIM_Z     = 3,    // torus size in Z
    parameter W         = 16,   // flit data width
    parameter LANES     = 6,    // lanes per node
    parameter MEM_DEPTH = 4096, // flit memory words per node
    parameter ROUNDS    = 16    // round-table depth
) (
    input  wire        clk_i,
    input  wire        rst_i,
    input  wire [31:0] bus_addr_i,
    input  wire [31:0] bus_wdata_i,
    input  wire        bus_we_i,
    input  wire        bus_re_i,
    output wire [31:0] bus_rdata_o,
    output wire        bus_ready_o
);
    tn_torus #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
               .MEM_DEPTH(MEM_DEPTH), .ROUNDS(ROUNDS)) u_torus (
        .clk_i(clk_i), .rst_i(rst_i),
        .bus_addr_i(bus_addr_i), .bus_wdata_i(bus_wdata_i),
        .bus_we_i(bus_we_i), .bus_re_i(bus_re_i),
        .bus_rdata_o(bus_rdata_o), .bus_ready_o(bus_ready_o));
endmodule
