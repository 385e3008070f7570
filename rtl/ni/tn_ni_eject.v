`default_nettype none
// SPDX-License-Identifier: MIT
// tn_ni_eject: one eject lane. Loads round r's descriptor at the switch,
// stores arriving flits at consecutive addresses, timestamps the first and
// last, counts them, keeps their CRC-32, flags overrun / short / bounds, and
// files the record under the round when the round finishes.
module tn_ni_eject #(
    parameter W      = 16,   // flit data width
    parameter AW     = 12,   // memory address bits
    parameter DEPTH  = 4096, // memory words
    parameter ROUNDS = 16,   // round-table depth
    parameter RW     = 4,    // round index bits
    parameter CW     = 32,   // bits kept of addresses, lengths, counts (board builds: fewer)
    parameter TW     = 48,   // timestamp bits kept (board builds: 16..31, see below)
    parameter REC_BRAM = 0,  // 1: records in block RAM (needs TW < 48, CW <= 16; boards)
    parameter FW     = W + 3 // flit width
) (
    input  wire          clk_i,
    input  wire          rst_i,
    input  wire          nrs_i,     // the sequencer is not running, or a switch: a flit is late
    input  wire          sw_i,      // switch cycle of round round_i
    input  wire          fin_i,     // the active round ended in the previous cycle
    input  wire          clr_i,     // clear all records
    input  wire [RW-1:0] round_i,
    input  wire [47:0]   cycle_i,   // global cycle counter
    input  wire [FW-1:0] flit_i,    // from the router's eject lane
    // descriptor table port: field 0 {valid}, 1 address, 2 expected length
    input  wire          cfg_we_i,
    input  wire [RW-1:0] cfg_round_i,
    /* verilator lint_off UNUSEDSIGNAL */ // used by the block-RAM records only
    input  wire [RW-1:0] st_round_n_i, // statistics round of the next cycle's read (REC_BRAM)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [2:0]    cfg_field_i, // descriptor field 0..2, statistics field 0..7
    input  wire [31:0]   cfg_wdata_i,
    /* verilator lint_off UNUSEDSIGNAL */ // [4]: inject lanes only
    input  wire [4:0]    cfg_wf_i,     // compares of cfg_wdata_i (tn_torus wflags)
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  [31:0]   cfg_rdata_o, // descriptor field
    output reg  [31:0]   st_rdata_o,  // statistics field
    // memory write port
    output reg           mwe_o,
    output wire [AW-1:0] maddr_o,
    output wire [W+1:0]  mdata_o,
    // error events this cycle
    output reg           overrun_o,
    output reg           short_o,
    output reg           bounds_o,
    output reg           stray_o    // a flit arrived with no valid descriptor
);
    // Board builds (CW < 32) keep only the low CW bits of counts, lengths,
    // addresses, offsets and durations: the other bits are constant 0.
    localparam [31:0] CM = (CW >= 32) ? 32'hFFFFFFFF : ((32'd1 << CW) - 32'd1);
    localparam [31:0] CTLM = (CW >= 32) ? 32'hFFFFFFFF : 32'h80000000;
    // TW < 48 (board builds): timestamps keep their low TW bits and bit 47
    // says "a flit was counted"; a read of field 0..3 returns {that bit,
    // low 31 bits}, and tn_torus rebuilds the 48-bit value from the cycle
    // counter (exact while the record is less than 2**TW cycles old).
    localparam        SLIM_T = TW < 48;
    localparam [47:0] SEEN = SLIM_T ? 48'h800000000000 : 48'd0;
    localparam [47:0] TM   = SLIM_T ? (SEEN | ((48'd1 << TW) - 48'd1)) : 48'hFFFFFFFFFFFF;
    reg [31:0] ctl_m [0:ROUNDS-1];
    reg [31:0] adr_m [0:ROUNDS-1];
    reg [31:0] len_m [0:ROUNDS-1];
    // compares of the descriptor, kept when it is written (tn_torus compares
    // the write data; used at the switch)
    reg [1:0]  adrf_m [0:ROUNDS-1];  // {address == EDGE, address out of bounds}
    reg [1:0]  lenf_m [0:ROUNDS-1];  // {length == 1, length != 0}
    // the record of round cfg_round_i (filed records, below)
    wire [47:0] r_first, r_last;
    wire [31:0] r_cnt, r_crc;
    wire [2:0]  r_err;
    wire        r_ok;    // the record is not cleared (else every field reads 0)

    reg          act_q, act_d;
    reg [RW-1:0] rnd_q, rnd_d;
    reg [31:0]   cnt_q, cnt_d;
    reg [47:0]   first_q, first_d;
    reg [47:0]   last_q, last_d;
    reg [2:0]    err_q, err_d;
    reg          file_d;              // write the record this cycle
    reg [AW-1:0] waddr;
    // the record as filed this cycle (before a switch reloads the lane)
    /* verilator lint_off UNUSEDSIGNAL */ // block-RAM records keep the low bits only
    reg [47:0]   rec_first, rec_last;
    reg [31:0]   rec_cnt;
    reg [2:0]    rec_err;
    integer      k;                   // flip-flop records only
    /* verilator lint_on UNUSEDSIGNAL */

    wire         fv   = flit_i[W+2];
    wire         step = fv & act_q;   // a flit counted by the active lane
    // Every decision on a flit starts from registers: the flit's valid bit
    // (late: it comes through the router's eject select) only selects
    // between values computed from registers. The lane keeps, besides the
    // count and the write address, flags for the compares it needs, each
    // kept one cycle ahead for every next state (the lane reloads, a flit
    // is counted, nothing) with equality compares against constants only:
    //   lt_q   cnt < expected length       rem_q  (expected - cnt) mod 2**CW
    //   r1_q   rem_q == 1                  ez_q   expected length != 0
    //   cm_q   cnt == 2**CW - 1 (wraps)    c0_q   active and cnt == 0
    //   wbad_q the write address wa_q is out of bounds (>= DEPTH, or below
    //          the base after wrapping): the bad addresses follow the good
    //          ones in counting order, so it turns on when wa_q passes
    //          EDGE (we_q: wa_q == EDGE) and is reloaded when cnt wraps
    //   bb_q   the base address is out of bounds
    //   wok_q  act_q && lt_q && !wbad_q: a flit arriving while the
    //          sequencer runs (not a switch) is written to the memory
    localparam [31:0] EDGE = ((DEPTH - 1) < CM) ? (DEPTH - 1) : CM;  // last in-bounds address
    localparam [31:0] EDGE_M1 = (EDGE - 32'd1) & CM;
    localparam [31:0] R2 = 32'd2 & CM;
    reg          lt_q, lt_d;
    reg          r1_q, r1_d;
    reg          ez_q, ez_d;
    reg          cm_q, cm_d;
    reg          c0_q, c0_d;
    reg          wbad_q, wbad_d;
    reg          we_q, we_d;
    reg          bb_q, bb_d;
    reg          wok_q, wok_d;                 // act_q && lt_q && !wbad_q
    reg  [31:0]  wa_q, wa_d;                   // (base + cnt_q) mod 2**CW
    reg  [31:0]  rem_q, rem_d;
    wire [31:0]  cnt_inc = (cnt_q + 32'd1) & CM;
    wire [31:0]  wa_inc  = (wa_q + 32'd1) & CM;
    wire         lt_inc  = cm_q ? ez_q : (lt_q & ~r1_q);     // cnt_inc < expected
    wire         bad_inc = cm_q ? bb_q : (wbad_q | we_q);    // wa_inc out of bounds
    wire [31:0]  sw_len  = len_m[round_i] & CM;
    wire [31:0]  sw_adr  = adr_m[round_i] & CM;
    wire [1:0]   sw_lenf = lenf_m[round_i];
    wire [1:0]   sw_adrf = adrf_m[round_i];

    // CRC, kept one flit behind: c_q is the CRC before the flit of the
    // previous cycle, dq_q that flit and pv_q "it was counted", so the CRC
    // update starts from registers. crc_h is the CRC including the previous
    // cycle's flit, of the stream that flit belonged to; crc_g the lane's
    // CRC now (nw_q: a switch in the previous cycle started a new stream,
    // CRC 0xFFFFFFFF; c_q still holds the finished stream's). The record's
    // CRC is crc_h a cycle after the record is filed.
    reg  [31:0]  c_q;
    reg  [W-1:0] dq_q;
    reg          pv_q, nw_q;
    wire [31:0]  crc_h;
    /* verilator lint_off UNUSEDSIGNAL */ // flip-flop records only
    wire [31:0]  crc_g = nw_q ? 32'hFFFFFFFF : crc_h;
    /* verilator lint_on UNUSEDSIGNAL */

    // a flit counted now is late (overrun): the record is amended
    // (kept as a net: synthesis otherwise builds file_d after step)
    (* keep *) wire late;
    assign late = act_q & (nrs_i | ~lt_q);

    // Block-RAM records (boards): c_q takes the update with pv_q as its
    // enable (no mux after the XORs); else crc_u is crc_h.
    wire [31:0]  crc_u;
    tn_crc32 #(.W(W), .FLAT(REC_BRAM)) u_crc (.en_i((REC_BRAM != 0) | pv_q), .crc_i(c_q), .data_i(dq_q),
                             .crc_o(crc_u));
    assign crc_h = (REC_BRAM != 0 && !pv_q) ? c_q : crc_u;

    assign maddr_o = waddr;
    assign mdata_o = flit_i[W+1:0];

    always @(posedge clk_i)
        if (cfg_we_i)
            case (cfg_field_i)
                3'd0:    ctl_m[cfg_round_i] <= cfg_wdata_i & CTLM;
                3'd1: begin
                    adr_m[cfg_round_i]  <= cfg_wdata_i & CM;
                    adrf_m[cfg_round_i] <= {cfg_wf_i[3], cfg_wf_i[2]};
                end
                3'd2: begin
                    len_m[cfg_round_i]  <= cfg_wdata_i & CM;
                    lenf_m[cfg_round_i] <= {cfg_wf_i[1], ~cfg_wf_i[0]};
                end
                default: ;
            endcase

    always @* begin
        case (cfg_field_i)
            3'd0:    cfg_rdata_o = ctl_m[cfg_round_i] & CTLM;
            3'd1:    cfg_rdata_o = adr_m[cfg_round_i] & CM;
            3'd2:    cfg_rdata_o = len_m[cfg_round_i] & CM;
            default: cfg_rdata_o = 32'd0;
        endcase
        case (cfg_field_i)
            3'd0, 3'd1: st_rdata_o = SLIM_T ? {r_first[47], r_first[30:0]}
                                    : (cfg_field_i[0] ? {16'd0, r_first[47:32]} : r_first[31:0]);
            3'd2, 3'd3: st_rdata_o = SLIM_T ? {r_last[47], r_last[30:0]}
                                    : (cfg_field_i[0] ? {16'd0, r_last[47:32]} : r_last[31:0]);
            3'd4:    st_rdata_o = r_cnt;
            3'd5:    st_rdata_o = ~r_crc;
            3'd6:    st_rdata_o = {29'd0, r_err};
            default: st_rdata_o = 32'd0;
        endcase
        if (!r_ok)
            st_rdata_o = 32'd0;
    end

    always @* begin
        act_d   = act_q;
        rnd_d   = rnd_q;
        cnt_d   = cnt_q;
        first_d = first_q;
        last_d  = last_q;
        err_d   = err_q;
        lt_d    = lt_q;
        r1_d    = r1_q;
        ez_d    = ez_q;
        cm_d    = cm_q;
        c0_d    = c0_q;
        wbad_d  = wbad_q;
        we_d    = we_q;
        bb_d    = bb_q;
        wa_d    = wa_q;
        rem_d   = rem_q;
        file_d  = 1'b0;
        mwe_o   = (REC_BRAM != 0) ? fv & wok_q & ~nrs_i : 1'b0;  // boards
        waddr   = wa_q[AW-1:0];
        overrun_o = 1'b0;
        short_o   = 1'b0;
        bounds_o  = 1'b0;
        stray_o   = 1'b0;
        if (fv && !act_q)
            stray_o = 1'b1;
        if (fv && c0_q)             // the first flit (c0_q: active)
            first_d = (cycle_i & TM) | SEEN;
        if (step) begin
            cnt_d  = cnt_inc;
            lt_d   = lt_inc;
            r1_d   = rem_q == R2;
            cm_d   = cnt_q == ((CM - 32'd1) & CM);
            c0_d   = cm_q;
            wbad_d = bad_inc;
            we_d   = wa_q == EDGE_M1;
            wa_d   = wa_inc;
            rem_d  = (rem_q - 32'd1) & CM;
            last_d = (cycle_i & TM) | SEEN;
            if (nrs_i || !lt_q) begin
                overrun_o = 1'b1;
                err_d[0] = 1'b1;
                file_d = !fin_i;    // late flit: amend the filed record
            end else if (wbad_q) begin
                bounds_o = 1'b1;
                err_d[2] = 1'b1;
            end else if (REC_BRAM == 0) begin
                mwe_o = 1'b1;
            end
        end
        if (fin_i) begin
            file_d = 1'b1;
            if (act_q && (fv ? lt_inc : lt_q)) begin   // cnt_d < expected
                short_o = 1'b1;
                err_d[1] = 1'b1;
            end
        end
        rec_first = first_d;
        rec_last  = last_d;
        rec_cnt   = cnt_d;
        rec_err   = err_d;
        if (sw_i) begin
            act_d   = ctl_m[round_i][31];
            rnd_d   = round_i;
            cnt_d   = 32'd0;
            lt_d    = sw_lenf[0];
            ez_d    = sw_lenf[0];
            r1_d    = sw_lenf[1];
            cm_d    = 1'b0;             // CM != 0
            c0_d    = ctl_m[round_i][31];
            wbad_d  = sw_adrf[0];
            bb_d    = sw_adrf[0];
            we_d    = sw_adrf[1];
            wa_d    = sw_adr;
            rem_d   = sw_len;
            first_d = 48'd0;
            last_d  = 48'd0;
            err_d   = 3'd0;
        end
        // Block-RAM records: the same file_d, written as the flit's valid bit
        // gating a flag of registers (the record's write enable starts there).
        if (REC_BRAM != 0)
            file_d = fin_i | (fv & late);
        // Board builds: only the kept bits exist (the others are constant 0).
        cnt_d   = cnt_d & CM;
        // wok_d = act_d && lt_d && !wbad_d, from registers but the flit's
        // valid bit (block-RAM builds only: constant 0 in the others)
        if (REC_BRAM == 0)
            wok_d = 1'b0;
        else if (sw_i)
            wok_d = ctl_m[round_i][31] & sw_lenf[0] & ~sw_adrf[0];
        else if (step)
            wok_d = lt_inc & ~bad_inc;
        else
            wok_d = wok_q;
        first_d = first_d & TM;
        last_d  = last_d & TM;
    end

    // ---- records filed per round ----
    generate
        if (REC_BRAM != 0) begin : gen_rec_bram
            // One record per round in block RAM, {err, cnt, last, first}
            // with the timestamps as {counted, low TW bits}, and its CRC in
            // a second block RAM; written when filed (the CRC a cycle later,
            // when crc_h has folded in the last flit), read with the address
            // of the next cycle's bus read. The read returns the word before
            // a write in the same cycle (no bypass logic): a record read in
            // the cycle its round files, or its CRC in the cycle after,
            // reads the previous record (records are read after a run).
            // CTRL bit 2 clears a valid bit per round instead of the words:
            // a round without it reads as cleared (all fields 0).
            localparam TB = TW + 1, RECW = 3 + CW + 2 * TB;
            (* ram_style = "block", no_rw_check *) reg [RECW-1:0] rec_m [0:ROUNDS-1];
            (* ram_style = "block", no_rw_check *) reg [31:0]     crc_m [0:ROUNDS-1];
            reg [RW-1:0]     rra_q;
            reg [ROUNDS-1:0] rv_q;
            reg [RECW-1:0]   rw;
            reg [31:0]       rc;
            reg              file_q;      // the record was filed last cycle
            reg [RW-1:0]     frnd_q;      // under this round
            assign r_ok = rv_q[rra_q];
            always @(posedge clk_i) begin
                if (file_d)
                    rec_m[rnd_q] <= {rec_err, rec_cnt[CW-1:0],
                                     rec_last[47], rec_last[TW-1:0], rec_first[47], rec_first[TW-1:0]};
                if (file_q)
                    crc_m[frnd_q] <= crc_h;
                rw    <= rec_m[st_round_n_i];
                rc    <= crc_m[st_round_n_i];
                rra_q <= st_round_n_i;
                file_q <= file_d;
                frnd_q <= rnd_q;
                if (file_d)
                    rv_q[rnd_q] <= 1'b1;
                if (clr_i)
                    rv_q <= {ROUNDS{1'b0}};
            end
            assign r_first = {rw[TB-1], {(48-TB){1'b0}}, rw[TW-1:0]};
            assign r_last  = {rw[2*TB-1], {(48-TB){1'b0}}, rw[TB +: TW]};
            assign r_cnt   = {{(32-CW){1'b0}}, rw[2*TB +: CW]};
            assign r_crc   = rc;
            assign r_err   = rw[RECW-1 -: 3];
        end else begin : gen_rec_ff
            reg [47:0] first_m [0:ROUNDS-1];
            reg [47:0] last_m  [0:ROUNDS-1];
            reg [31:0] cnt_m   [0:ROUNDS-1];
            reg [31:0] crc_m   [0:ROUNDS-1];
            reg [2:0]  err_m   [0:ROUNDS-1];
            wire [31:0] rec_crc;    // the CRC as filed this cycle
            tn_crc32 #(.W(W)) u_crc_rec (.en_i(step), .crc_i(crc_g), .data_i(flit_i[W-1:0]),
                                         .crc_o(rec_crc));
            always @(posedge clk_i) begin
                if (file_d) begin
                    first_m[rnd_q] <= rec_first;
                    last_m[rnd_q]  <= rec_last;
                    cnt_m[rnd_q]   <= rec_cnt;
                    crc_m[rnd_q]   <= rec_crc;
                    err_m[rnd_q]   <= rec_err;
                end
                if (clr_i) begin
                    for (k = 0; k < ROUNDS; k = k + 1) begin
                        first_m[k] <= 48'd0;
                        last_m[k]  <= 48'd0;
                        cnt_m[k]   <= 32'd0;
                        crc_m[k]   <= 32'hFFFFFFFF;
                        err_m[k]   <= 3'd0;
                    end
                end
            end
            assign r_first = first_m[cfg_round_i];
            assign r_last  = last_m[cfg_round_i];
            assign r_cnt   = cnt_m[cfg_round_i];
            assign r_crc   = crc_m[cfg_round_i];
            assign r_err   = err_m[cfg_round_i];
            assign r_ok    = 1'b1;
        end
    endgenerate

    always @(posedge clk_i) begin
        act_q   <= act_d;
        rnd_q   <= rnd_d;
        cnt_q   <= cnt_d;
        lt_q    <= lt_d;
        r1_q    <= r1_d;
        ez_q    <= ez_d;
        cm_q    <= cm_d;
        c0_q    <= c0_d;
        wbad_q  <= wbad_d;
        we_q    <= we_d;
        bb_q    <= bb_d;
        wok_q   <= wok_d;
        wa_q    <= wa_d;
        rem_q   <= rem_d;
        first_q <= first_d;
        last_q  <= last_d;
        err_q   <= err_d;
        if (nw_q)
            c_q <= 32'hFFFFFFFF;
        else if (pv_q || REC_BRAM == 0)
            c_q <= crc_u;
        dq_q    <= flit_i[W-1:0];
        pv_q    <= step;
        nw_q    <= sw_i;
        if (rst_i) begin
            act_q <= 1'b0;
            c0_q  <= 1'b0;
            wok_q <= 1'b0;
        end
    end
endmodule
