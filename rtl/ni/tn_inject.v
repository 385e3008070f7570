`default_nettype none
// SPDX-License-Identifier: MIT
// tn_inject: one inject lane. Its descriptor list is a RAM (written on the
// bus clock, read on the network clock); the entry at the lane's position
// is always in the RAM's output register. That entry starts when the node
// is in its round and the round-relative cycle equals its start offset s:
// word k is read from the flit memory in T_r + s + k and the flit is on the
// lane in T_r + 1 + s + k (docs/timing.md). A start reads the next entry,
// so a chain of entries (each starting in the cycle after the previous
// one's last read) sends one gap-free stream. The next round's switch, or
// the lane's next start, cuts a stream.
module tn_inject #(
    parameter W  = 16,        // flit data width
    parameter AW = 12,        // flit memory address bits
    parameter RW = 10,        // list index and round bits
    parameter DW = 14,        // start offset bits
    parameter FW = W + 3,     // flit: {valid, head, tail, data}
    parameter EW = 2 + RW + DW + 2 * AW + 1 // an entry {valid, relay, round, start, length, address}
) (
    // list writes (bus clock): entry lw_idx_i, packed by tn_torus
    input  wire          bclk_i,
    input  wire          lsel_i,    // a table write for the node (tn_ram's wsel_i)
    input  wire          lw_i,      // ... for this lane's list (with lsel_i)
    input  wire [RW-1:0] lw_idx_i,
    input  wire [EW-1:0] lw_row_i,
    // network clock
    input  wire          nclk_i,
    input  wire          nrst_i,
    input  wire          run_i,     // the sequencer runs
    input  wire          sw_i,      // a switch cycle
    input  wire          prep_i,    // the cycle before a run's first switch
    input  wire [RW-1:0] round_i,
    input  wire [DW-1:0] rcyc_i,    // round-relative cycle
    // bus read of an entry: in entry_o from the next cycle on
    input  wire          lr_i,
    input  wire [RW-1:0] lr_idx_i,
    output wire [EW-1:0] entry_o,
    // flit memory: read word maddr_o now, the word and its grant next cycle
    output wire          mrd_o,
    output wire [AW-1:0] maddr_o,
    input  wire [W+1:0]  mdata_i,   // {head, tail, data}
    input  wire          mok_i,
    output wire [FW-1:0] flit_o,
    output reg           relay_o,   // the lane's stream is head-routed
    output reg           bounds_o   // a word beyond the memory was skipped (last cycle)
);
    wire [EW-1:0] nx;              // the entry at the lane's position
    wire          nx_v   = nx[EW-1];
    wire          nx_rel = nx[EW-2];
    wire [RW-1:0] nx_rnd = nx[EW-3 -: RW];
    wire [DW-1:0] nx_st  = nx[2*AW+1 +: DW];
    wire [AW:0]   nx_len = nx[AW +: AW + 1];
    wire [AW-1:0] nx_adr = nx[0 +: AW];
    assign entry_o = nx;

    reg          act_q;            // words left to read
    reg [AW:0]   adr_q;            // the next word (bit AW: beyond the memory)
    reg [AW:0]   rem_q;            // words left
    reg [RW-1:0] ptr_q;            // list position
    reg          v_q;              // a word was read last cycle

    // The entry nx starts now: its first word is read in this cycle. A
    // stream goes on (one word per cycle) until its last word, the next
    // switch, or the end of the run, whichever comes first.
    // (computed under run_i: the simulator skips it between runs)
    reg start, more;
    reg mrd;
    assign mrd_o   = mrd;
    assign maddr_o = start ? nx_adr : adr_q[AW-1:0];
    always @* begin
        start = 1'b0;
        more  = 1'b0;
        mrd   = 1'b0;
        if (run_i) begin
            start = nx_v && nx_rnd == round_i && nx_st == rcyc_i;
            more  = act_q && !sw_i;
            mrd   = start ? nx_len != 0 : more && !adr_q[AW];
        end
    end

    tn_ram #(.DW(EW), .AW(RW)) u_list (
        .wclk_i(bclk_i), .wsel_i(lsel_i), .we_i(lw_i), .waddr_i(lw_idx_i), .wdata_i(lw_row_i),
        .rclk_i(nclk_i), .re_i(lr_i | prep_i | start),
        .raddr_i(lr_i ? lr_idx_i : prep_i ? {RW{1'b0}} : ptr_q + 1'b1), .rdata_o(nx));

    // The word read last cycle leaves now, unless this is a switch cycle or
    // the run has ended.
    assign flit_o = {v_q && mok_i && run_i && !sw_i, mdata_i};

    always @(posedge nclk_i) begin
        v_q <= mrd_o;
        bounds_o <= !start && more && adr_q[AW];
        if (start) begin
            act_q   <= nx_len > 1;
            adr_q   <= {1'b0, nx_adr} + 1'b1;
            rem_q   <= nx_len - 1'b1;
            relay_o <= nx_rel;
            ptr_q   <= ptr_q + 1'b1;
        end else if (more) begin
            act_q <= rem_q != 1;
            adr_q <= adr_q + 1'b1;
            rem_q <= rem_q - 1'b1;
        end else begin
            act_q   <= 1'b0;
            relay_o <= 1'b0;
        end
        if (prep_i)
            ptr_q <= {RW{1'b0}};
        if (nrst_i) begin
            act_q   <= 1'b0;
            v_q     <= 1'b0;
            relay_o <= 1'b0;
        end
    end
`ifdef FORMAL
    // ---- Properties (make formal-inject; docs/hardware.md, "Proved
    // properties"). The list RAM's contents (bus writes) and the flit
    // memory's answers are free inputs: any descriptors. Assumed of the
    // environment (tn_seq, tn_node): reset in the first cycle.
    wire f_clk = nclk_i, f_rst = nrst_i;
    `include "tn_formal_reset.vh"

    // The started entry (address, length) and the words read for it.
    reg [AW-1:0] f_a;
    reg [AW:0]   f_n, f_k;
    wire [AW:0]  f_at = {1'b0, f_a} + f_k;   // the next word
    always @(posedge nclk_i)
        if (start) begin
            f_a <= nx_adr;
            f_n <= nx_len;
            f_k <= 1'b1;
        end else if (more) begin
            f_k <= f_k + 1'b1;
        end

    always @* if (f_live) begin
        // words are read only while running, outside a switch cycle
        if (mrd_o)
            assert(run_i && (start || (act_q && !sw_i)));
        // a stream reads its entry's words a, a+1, ..., a+n-1 in order:
        // never beyond them, never beyond the memory
        if (mrd_o && !start)
            assert(f_k < f_n && !f_at[AW] && maddr_o == f_at[AW-1:0]);
        // (invariants: the registers follow the started entry)
        if (act_q)
            assert(f_k < f_n && adr_q == f_at && rem_q == f_n - f_k);
    end
    always @(posedge nclk_i)
        if (f_live && !$past(nrst_i)) begin
            // a flit is on the lane only for a word read in the last cycle
            if (flit_o[FW-1])
                assert($past(mrd_o) && run_i && !sw_i && flit_o[W+1:0] == mdata_i);
            // a word beyond the memory is skipped and flagged
            assert(bounds_o == $past(!start && more && f_at[AW]));
        end

    // Each property is reachable.
    always @(posedge nclk_i)
        if (f_live && !$past(nrst_i)) begin
            // a three-word stream read to its end
            cover($past(more && f_k == 2 && f_n == 3) && !act_q && flit_o[FW-1]);
            // a word beyond the memory skipped
            cover(bounds_o);
            // a chain: the next entry starts while a stream is reading
            cover(start && act_q);
        end
`endif
endmodule
