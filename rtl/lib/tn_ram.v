`default_nettype none
// SPDX-License-Identifier: MIT
// tn_ram: simple dual-port RAM: one write port and one registered read port,
// each on its own clock (they may be the same clock). This is the form Yosys
// maps to block RAM on iCE40 (EBR), ECP5 (DP16KD) and Xilinx (RAMB18/36)
// and Verilator keeps as a plain array. The array is not reset. A read of
// the word written at the same edge is not defined on every family
// (no_rw_check): callers never do it. The write is a blocking assignment:
// with no such read, it means the same as a non-blocking one, and the
// simulator then keeps no shadow copy of each write (docs/NOTES.md,
// "Simulation cost"). Each port takes two enables, tested one inside the
// other: a group's (wsel_i, rsel_i: shared by RAMs used together, e.g. a
// node's tables, or a node's lanes' lists while it runs) and this RAM's own
// (we_i, re_i). Verilator merges the group's outer tests into one, so an
// idle group costs one branch per cycle, not one per RAM; synthesis sees
// one enable, the AND of the two.
module tn_ram #(
    parameter DW = 16, // word width
    parameter AW = 8   // address bits: 2**AW words
) (
    input  wire          wclk_i,
    input  wire          wsel_i,  // the RAM's group is written (1: a RAM of its own)
    input  wire          we_i,    // this RAM is written (with wsel_i)
    input  wire [AW-1:0] waddr_i,
    input  wire [DW-1:0] wdata_i,
    input  wire          rclk_i,
    input  wire          rsel_i,  // the RAM's group is read (1: a RAM of its own)
    input  wire          re_i,    // this RAM is read (with rsel_i); else rdata_o keeps its word
    input  wire [AW-1:0] raddr_i,
    output reg  [DW-1:0] rdata_o  // mem[raddr_i] of the last edge with rsel_i && re_i
);
    (* no_rw_check *) reg [DW-1:0] mem [0:(1 << AW) - 1];

    /* verilator lint_off BLKSEQ */
    always @(posedge wclk_i)
        if (wsel_i)
            if (we_i)
                mem[waddr_i] = wdata_i;
    /* verilator lint_on BLKSEQ */

    always @(posedge rclk_i)
        if (rsel_i)
            if (re_i)
                rdata_o <= mem[raddr_i];
endmodule
