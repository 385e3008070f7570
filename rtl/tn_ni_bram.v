`default_nettype none
// SPDX-License-Identifier: MIT
// tn_ni_bram: a node's flit memory as one block RAM (board builds,
// MEM_BRAM = 1): words {head, tail, data}, one write port with separate
// enables for the data bits and the two flag bits (a bus write of MEM data
// keeps the flags and vice versa, without a read), one read port with a
// registered address. The read is transparent: a word written in the cycle
// its address is presented reads back new, as the asynchronous tn_ni_mem.
module tn_ni_bram #(
    parameter W     = 16,    // data bits
    parameter MW    = W + 2, // word width: data + head + tail
    parameter DEPTH = 4096,  // words
    parameter AW    = 12     // address bits, 2**AW == DEPTH
) (
    input  wire          clk_i,
    input  wire          wdat_i,  // write the data bits of waddr_i
    input  wire          wflg_i,  // write the flag bits
    input  wire [AW-1:0] waddr_i,
    input  wire [MW-1:0] wdata_i,
    input  wire [AW-1:0] raddr_i, // word read in the next cycle
    output wire [MW-1:0] rdata_o
);
    reg [MW-1:0] mem [0:DEPTH-1];
    reg [AW-1:0] raddr_q;

    always @(posedge clk_i) begin
        if (wdat_i)
            mem[waddr_i][W-1:0] <= wdata_i[W-1:0];
        if (wflg_i)
            mem[waddr_i][MW-1:W] <= wdata_i[MW-1:W];
        raddr_q <= raddr_i;
    end

    assign rdata_o = mem[raddr_q];
endmodule
