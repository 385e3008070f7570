// SPDX-License-Identifier: MIT
// tn_bridge_ram: the bridge's frame buffer, simple dual-port RAM of 32-bit
// words with a registered read (block RAM).
`default_nettype none

module tn_bridge_ram #(
    parameter AW = 8              // log2 of the depth in words
) (
    input  wire          clk_i,
    input  wire          we_i,
    input  wire [AW-1:0] waddr_i,
    input  wire [31:0]   wdata_i,
    input  wire [AW-1:0] raddr_i,
    output reg  [31:0]   rdata_o  // mem[raddr_i] of the previous cycle
);
    localparam DEPTH = 1 << AW;   // words

    // A read of the word written at the same edge is not defined
    // (no_rw_check; without it synthesis adds flip-flops and a bypass that
    // return the old word): the receiver writes only the bank it fills and
    // the engine reads only the bank it executes, other than while it is
    // idle, when it ignores the word read.
    (* no_rw_check *) reg [31:0] mem [0:DEPTH-1];

    always @(posedge clk_i) begin
        if (we_i)
            mem[waddr_i] <= wdata_i;
        rdata_o <= mem[raddr_i];
    end
endmodule

`default_nettype wire
