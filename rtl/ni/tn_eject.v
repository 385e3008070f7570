`default_nettype none
// SPDX-License-Identifier: MIT
// tn_eject: one eject lane. Its descriptors are a RAM indexed by round
// (written on the bus clock, read ahead on the network clock): the next
// round's is in the RAM's output register and is loaded at the switch.
// While a descriptor is active the lane counts every flit from its source
// (an input port, or relay packets), stores the first n at a, a+1, ...,
// timestamps the first and the last (round-relative), keeps their CRC-32,
// and at the round's end files the record in its record RAM (written on
// the network clock, read on the bus clock) under the round, one cycle
// later from registers. Overrun flits after a run's end file it again.
module tn_eject #(
    parameter W  = 16,        // flit data width
    parameter AW = 12,        // flit memory address bits
    parameter RW = 10,        // round bits
    parameter DW = 14,        // timestamp bits
    parameter FW = W + 3      // flit: {valid, head, tail, data}
) (
    // bus clock: descriptor writes (bus words {word 1, word 0} of round
    // lw_idx_i, already packed by tn_torus: {valid, relay, port, len, addr}),
    // record reads
    input  wire            bclk_i,
    input  wire            lsel_i,    // a table write for the node (tn_ram's wsel_i)
    input  wire            lw_i,      // ... for this lane's descriptors (with lsel_i)
    input  wire [RW-1:0]   lw_idx_i,
    input  wire [2*AW+5:0] lw_row_i,
    input  wire            rr_i,      // read the record of round rr_idx_i: in rec_o next cycle
    input  wire [RW-1:0]   rr_idx_i,
    output wire [4+3+AW+1+2*DW+31:0] rec_o, // {epoch, errors, count, last, first, CRC}
    // network clock
    input  wire            nclk_i,
    input  wire            nrst_i,
    input  wire            run_i,     // the sequencer runs
    input  wire            sw_i,      // a switch cycle
    input  wire            fin_i,     // a round ended with the last cycle
    input  wire            prep_i,    // the cycle before a run's first switch
    input  wire [RW-1:0]   round_i,
    input  wire [DW-1:0]   ts_i,      // this cycle relative to the active descriptors' round
    input  wire [3:0]      epoch_i,   // runs started, mod 16
    // bus read of round lr_idx_i's descriptor (in desc_o from the next
    // cycle on); desc_o is the next round's descriptor in a switch cycle
    input  wire            lr_i,
    input  wire [RW-1:0]   lr_idx_i,
    output wire [2*AW+5:0] desc_o,    // {valid, relay, port, length, address}
    input  wire [FW-1:0]   flit_i,    // from the router
    // flit memory write port
    output wire            mwr_o,
    output wire [AW-1:0]   mwaddr_o,
    output wire [W+1:0]    mwdata_o,  // {head, tail, data}
    // events of the last cycle
    output reg             overrun_o,
    output reg             short_o,
    output reg             bounds_o
);
    // A descriptor: {valid, relay, port, length, address}.
    localparam EW = 2 + 3 + 2 * AW + 1;
    // A record: {epoch, error bits, count, last, first, CRC}.
    localparam RCW = 4 + 3 + AW + 1 + 2 * DW + 32;
    localparam NN = 2 * ((W + 7) / 8);  // CRC nibbles per flit, zero padded

    wire [EW-1:0] nx;              // the next round's descriptor
    assign desc_o = nx;

    reg          act_q;            // a descriptor is active
    reg [AW:0]   adr_q;            // the next word (bit AW: beyond the memory)
    reg [AW:0]   rem_q;            // flits still expected
    reg [AW:0]   cnt_q;            // flits counted
    reg [DW-1:0] first_q, last_q;
    reg [31:0]   crc_q;
    reg [2:0]    err_q;
    reg [RW-1:0] idx_q;            // the active descriptor's round
    reg          file_q;           // write the record rec_q at rnd_q now
    reg [RW-1:0] rnd_q;
    reg [RCW-1:0] rec_q;

    // This cycle's flit, counted by the active descriptor; stored unless it
    // is an overrun (a switch cycle, after the run, beyond n) or out of
    // the memory.
    wire fv   = flit_i[W+2] && act_q;
    wire late = !run_i || sw_i || rem_q == 0;
    assign mwr_o    = fv && !late && !adr_q[AW];
    assign mwaddr_o = adr_q[AW-1:0];
    assign mwdata_o = flit_i[W+1:0];

    // The flit's effect on the record, computed only for a flit (the _d
    // and the CRC step's are temporaries of this block: blocking assignments
    // in a clocked block, so that the simulator does this work only when a
    // flit arrives; docs/NOTES.md, "Simulation cost").
    reg [AW:0]     cnt_d;
    reg [DW-1:0]   first_d;
    reg [31:0]     crc_d;
    reg [3:0]      x;
    reg [2:0]      err_d;
    reg [4*NN-1:0] d;
    integer        k;
    /* verilator lint_off BLKSEQ */
    always @(posedge nclk_i) begin
        overrun_o <= 1'b0;
        bounds_o  <= 1'b0;
        short_o   <= 1'b0;
        file_q    <= 1'b0;
        if (fv || fin_i || sw_i) begin
            cnt_d   = cnt_q;
            first_d = first_q;
            crc_d   = crc_q;
            err_d   = err_q;
            if (fv) begin
                // CRC-32 (reflected 0xEDB88320), a nibble per step: the
                // table entry of a nibble is the XOR of its bits' entries
                d = {4*NN{1'b0}};
                d[W-1:0] = flit_i[W-1:0];
                for (k = 0; k < NN; k = k + 1) begin
                    x = crc_d[3:0] ^ d[4*k +: 4];
                    crc_d = (crc_d >> 4) ^ ({32{x[0]}} & 32'h1DB71064) ^ ({32{x[1]}} & 32'h3B6E20C8) ^
                            ({32{x[2]}} & 32'h76DC4190) ^ ({32{x[3]}} & 32'hEDB88320);
                end
                if (cnt_q == 0)
                    first_d = ts_i;
                cnt_d = cnt_q + 1'b1;
                if (late) begin
                    err_d[0] = 1'b1;
                    overrun_o <= 1'b1;
                end else if (adr_q[AW]) begin
                    err_d[2] = 1'b1;
                    bounds_o <= 1'b1;
                end
                if (!late)
                    rem_q <= rem_q - 1'b1;
                adr_q   <= adr_q + 1'b1;
                cnt_q   <= cnt_d;
                first_q <= first_d;
                last_q  <= ts_i;
                crc_q   <= crc_d;
            end
            // (a flit in a round's end cycle is late: rem_q is final)
            if (fin_i && act_q && rem_q != 0) begin
                err_d[1] = 1'b1;
                short_o <= 1'b1;
            end
            err_q <= err_d;
            // file at a round's end, and for an overrun flit after the run
            if (act_q && (fin_i || (fv && !run_i && !sw_i))) begin
                file_q <= 1'b1;
                rnd_q  <= idx_q;
                rec_q  <= {epoch_i, err_d, cnt_d, fv ? ts_i : last_q, first_d, ~crc_d};
            end
            if (sw_i) begin          // the new round's descriptor
                act_q   <= nx[EW-1];
                idx_q   <= round_i;
                adr_q   <= {1'b0, nx[0 +: AW]};
                rem_q   <= nx[AW +: AW + 1];
                cnt_q   <= {(AW + 1){1'b0}};
                first_q <= {DW{1'b0}};
                last_q  <= {DW{1'b0}};
                crc_q   <= 32'hFFFFFFFF;
                err_q   <= 3'd0;
            end
        end
        if (nrst_i)
            act_q <= 1'b0;
    end
    /* verilator lint_on BLKSEQ */

    tn_ram #(.DW(EW), .AW(RW)) u_desc (
        .wclk_i(bclk_i), .wsel_i(lsel_i), .we_i(lw_i), .waddr_i(lw_idx_i), .wdata_i(lw_row_i),
        .rclk_i(nclk_i), .re_i(lr_i | prep_i | sw_i),
        .raddr_i(lr_i ? lr_idx_i : prep_i ? {RW{1'b0}} : round_i + 1'b1), .rdata_o(nx));

    tn_ram #(.DW(RCW), .AW(RW)) u_rec (
        .wclk_i(nclk_i), .wsel_i(1'b1), .we_i(file_q), .waddr_i(rnd_q), .wdata_i(rec_q),
        .rclk_i(bclk_i), .re_i(rr_i), .raddr_i(rr_idx_i), .rdata_o(rec_o));
`ifdef FORMAL
    // ---- Properties (make formal-eject; docs/hardware.md, "Proved
    // properties" and "Eject"). Flits, descriptors (RAM contents from bus
    // writes) and the sequencer's fin_i are free inputs. Assumed of the
    // environment (tn_seq): reset in the first cycle; a run starts with a
    // switch (run_i rises only with sw_i) and a switch is part of a run, as
    // tn_seq makes both from its prep cycle.
    wire f_clk = nclk_i, f_rst = nrst_i;
    `include "tn_formal_reset.vh"
    reg f_run_q;
    always @(posedge nclk_i)
        f_run_q <= run_i;
    always @* begin
        if (f_past && !f_run_q && run_i)
            assume(sw_i);
        if (sw_i)
            assume(run_i);
    end

    // CRC-32 of one flit, a bit at a time (the reference form of the
    // nibble-table step above): its data as ceil(W/8) bytes, LSB first.
    function [31:0] f_crc_flit(input [31:0] c, input [W-1:0] data);
        reg [8*((W+7)/8)-1:0] b;
        integer fj;
        begin
            b = {(8*((W+7)/8)){1'b0}};
            b[W-1:0] = data;
            f_crc_flit = c;
            for (fj = 0; fj < 8*((W+7)/8); fj = fj + 1)
                f_crc_flit = (f_crc_flit >> 1) ^ (32'hEDB88320 & {32{f_crc_flit[0] ^ b[fj]}});
        end
    endfunction

    // The active descriptor (address a, length n), the flits counted for
    // it, the ones accepted (in the round, while fewer than n), their CRC.
    reg [AW-1:0] f_a;
    reg [AW:0]   f_n, f_cnt, f_acc;
    reg [31:0]   f_crc;
    wire         f_late = !run_i || sw_i || f_acc == f_n;
    wire [AW:0]  f_at   = {1'b0, f_a} + f_acc;   // the next accepted flit's word
    always @(posedge nclk_i) begin
        if (fv) begin
            f_cnt <= f_cnt + 1'b1;
            f_crc <= f_crc_flit(f_crc, flit_i[W-1:0]);
            if (!f_late)
                f_acc <= f_acc + 1'b1;
        end
        if (sw_i) begin
            f_a   <= nx[0 +: AW];
            f_n   <= nx[AW +: AW + 1];
            f_cnt <= {(AW + 1){1'b0}};
            f_acc <= {(AW + 1){1'b0}};
            f_crc <= 32'hFFFFFFFF;
        end
    end

    always @* if (f_live) begin
        // a flit is written only while a descriptor is active, in its
        // round, to the words a .. a+n-1 in order, never beyond the memory
        if (mwr_o)
            assert(fv && run_i && !sw_i && f_acc < f_n && !f_at[AW] && mwaddr_o == f_at[AW-1:0] &&
                   mwdata_o == flit_i[W+1:0]);
        if (fv && !f_late && !f_at[AW])
            assert(mwr_o);
        // count and CRC follow the counted flits (invariants: address and
        // flits left follow the accepted ones; after a late flit none is
        // accepted until the next switch)
        if (act_q)
            assert(cnt_q == f_cnt && crc_q == f_crc && f_acc <= f_n && rem_q == f_n - f_acc &&
                   adr_q == {1'b0, f_a} + f_cnt && (f_cnt == f_acc || f_acc == f_n || !run_i || sw_i));
    end
    always @(posedge nclk_i)
        if (f_live && !$past(nrst_i)) begin
            // overrun: a flit beyond n, in a switch cycle or after the run;
            // short: fewer than n at the round's end; bounds: an accepted
            // flit at or beyond MEM_DEPTH
            assert(overrun_o == $past(fv && f_late));
            assert(short_o == $past(fin_i && act_q && f_acc < f_n));
            assert(bounds_o == $past(fv && !f_late && f_at[AW]));
            // the record filed holds the count and the CRC of the flits
            if (file_q)
                assert(rec_q[32 + 2*DW +: AW + 1] == ($past(fv) ? $past(f_cnt) + 1'b1 : $past(f_cnt)) &&
                       rec_q[31:0] == ~($past(fv) ? f_crc_flit($past(f_crc), $past(flit_i[W-1:0]))
                                                  : $past(f_crc)));
        end

    // Each property is reachable.
    always @(posedge nclk_i)
        if (f_live && !$past(nrst_i)) begin
            cover(mwr_o && f_acc == 2 && f_n == 3);    // the last of three flits stored
            cover(overrun_o && $past(run_i && !sw_i)); // a flit beyond n
            cover(short_o && f_acc == 1);              // one flit of more
            cover(bounds_o);                           // an accepted flit beyond the memory
            cover(file_q && f_cnt == 2 && !$past(sw_i)); // a record of two flits filed
        end
`endif
endmodule
