`default_nettype none
// SPDX-License-Identifier: MIT
// tn_ni_bram: a node's flit memory in block RAM (board builds,
// MEM_BRAM = 1): words {head, tail, data}, one write port with separate
// enables for the data bits and the two flag bits (a bus write of MEM data
// keeps the flags and vice versa, without a read), one read port with a
// registered address. The read is transparent where the caller says so
// (hit_d_i, hit_f_i): a word written in the cycle its address is presented
// then reads back new, as from the asynchronous tn_ni_mem.
//
// The data bits and the flag bits are two memories (two block RAMs), each
// with one write enable: one memory with two enables maps to the block
// RAM's bit mask and a write-clock enable made from it, a longer path from
// the eject lane's late flit-valid bit. The block RAMs read the old word on
// a write to the address read (no_rw_check); the new word comes from
// registers of the write: its data, and the caller's "this edge's read
// address is this edge's data (flag) write address", computed from the
// sources of both addresses (tn_node) and registered, so the selection
// after the read is one LUT from registers.
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
    input  wire          hit_d_i, // this edge's read sees this edge's data write (tn_node)
    input  wire          hit_f_i, // ... its flag write
    output wire [MW-1:0] rdata_o
);
    (* no_rw_check *) reg [W-1:0]    mem_d [0:DEPTH-1];
    (* no_rw_check *) reg [MW-W-1:0] mem_f [0:DEPTH-1];
    reg [W-1:0]    rd_q;
    reg [MW-W-1:0] rf_q;
    reg            hd_q, hf_q;     // the read hits this edge's data / flag write
    reg [MW-1:0]   wdata_q;

    always @(posedge clk_i) begin
        if (wdat_i)
            mem_d[waddr_i] <= wdata_i[W-1:0];
        if (wflg_i)
            mem_f[waddr_i] <= wdata_i[MW-1:W];
        rd_q    <= mem_d[raddr_i];
        rf_q    <= mem_f[raddr_i];
        hd_q    <= hit_d_i;
        hf_q    <= hit_f_i;
        wdata_q <= wdata_i;
    end

    assign rdata_o = {hf_q ? wdata_q[MW-1:W] : rf_q,
                      hd_q ? wdata_q[W-1:0]  : rd_q};
endmodule
