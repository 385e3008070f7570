`default_nettype none
// SPDX-License-Identifier: MIT
// tb_lanes: testbench of a node's network interface alone (rtl/ni/tn_ni.v),
// Icarus: LANES inject lanes and LANES eject lanes around one banked flit
// memory, with the lanes' tables and records. Eject lane l
// listens, through a delay line of 1..3 cycles (the hops), to inject lane
// l - 1 or l - 2 (mod LANES). The bench drives the sequencer's signals for runs
// of random schedules (durations 0..12, run as the sequencer runs them: at
// least 3 cycles) and compares the
// lanes with its own model of docs/hardware.md, cycle by cycle:
// - inject: flit k of entry (round r, start s, n, a) on the lane in
//   T_r + 1 + s + k (word a + k, read in T_r + s + k); lists worked in
//   order from entry 0 at each start; chains (a start cuts the running
//   entry) and the round switch cut a stream (nothing is sent in a switch
//   cycle, nothing of a cut stream after it); an entry never reached stops
//   the lane; words beyond the memory are gaps (bounds events); the
//   entry's relay flag and hop while its stream runs;
// - flit memory: word a in bank a mod BANKS; per bank and cycle one read
//   and one write, the lowest lane first; losers send a gap / store
//   nothing; every loss counted;
// - eject: the round's descriptor loaded at its switch; every flit
//   counted, the first n stored from a, round-relative first/last
//   timestamps (a flit in the next switch cycle has timestamp D_r), CRC-32
//   of all counted flits; overrun (beyond n, in a switch cycle, after the
//   run), short (fewer than n at the round's end), bounds (a word beyond
//   the memory); the record filed at the round's end under its round with
//   the run's epoch, filed again by overrun flits after the run; rounds
//   without a descriptor keep their old record.
// At the end of each run every record filed so far and every memory word
// are compared. Prints TAP lines; tests/rtl/tn_tb_run.sh numbers them.
// Parameters: LANES, W, AW (MEM_DEPTH = 2^AW), RUNS, SEED.
module tb_lanes;
    parameter LANES = 2;       // inject and eject lanes
    parameter W     = 16;      // flit data width
    parameter AW    = 8;       // flit memory address bits
    parameter RUNS  = 60;      // random runs
    parameter SEED  = 1;
    localparam RW    = 4;                              // 16 rounds, 16 list entries
    localparam ROUNDS = 1 << RW;
    localparam DEPTH = 1 << AW;
    localparam DW    = (AW + 2 < 16) ? AW + 2 : 16;
    localparam BB    = $clog2(LANES);
    localparam NBK   = 1 << BB;
    localparam FW    = W + 3;
    localparam MW    = W + 2;
    localparam FS    = (FW <= 32) ? 32 : 64;               // a flit's slot on the lanes' outputs
    localparam IEW   = 5 + RW + DW + 2 * AW + 1;       // inject entry
    localparam EEW   = 2 + 3 + 2 * AW + 1;             // eject descriptor
    localparam RCW   = 4 + 3 + AW + 1 + 2 * DW + 32;   // record

    reg clk = 0, rst = 1;
    always #5 clk = !clk;

    // ---- the sequencer's signals, as a node registers them ----
    reg          run = 0, sw = 0, fin = 0, prep = 0;
    reg [RW-1:0] round = 0;
    reg [DW-1:0] rcyc = 0, ts = 0;
    reg [3:0]    epoch = 0;

    // ---- DUT ----
    localparam SIW = (LANES > 1) ? 4 : 3;
    reg  [LANES-1:0]     ilw = 0, elw = 0;
    reg                  rr = 0;
    reg  [2:0]           rr_lane = 0;
    reg  [RW-1:0]        lw_idx = 0;
    reg  [RW+1:0]        rr_row = 0;
    reg  [IEW-1:0]       irow = 0;
    reg  [EEW-1:0]       erow = 0;
    wire [LANES-1:0]     irelay, erel;
    wire [3*LANES-1:0]   ihop;
    wire [LANES*FW-1:0]  iflit;
    reg  [LANES*FW-1:0]  eflit;
    wire [LANES*FS-1:0]  iflit_s;
    reg  [LANES*FS-1:0]  eflit_s;
    wire [31:0]          rr_data, tr_data;
    reg                  bre = 0, bwe = 0;
    reg  [AW-1:0]        baddr = 0;
    reg  [MW-1:0]        bwdata = 0;
    wire [MW-1:0]        brdata;
    wire [3:0]           nconf, evs;
    /* the eject lanes' sources and the table read port are not under test here */
    wire [LANES*SIW-1:0] esrc;
    wire [5:0]           euse;
    tn_ni #(.W(W), .LANES(LANES), .AW(AW), .RW(RW), .DW(DW), .BB(BB), .SIW(SIW)) u_ni (
        .bclk_i(clk), .tw_i(|ilw || |elw), .iw_i(ilw), .ew_i(elw), .tw_idx_i(lw_idx),
        .tw_inj_i(irow), .tw_ej_i(erow), .cw_i(1'b0), .tw_cfg_i(24'd0),
        .rr_i(rr), .rr_lane_i(rr_lane), .rr_row_i(rr_row), .rr_data_o(rr_data),
        .nclk_i(clk), .nrst_i(rst), .run_i(run), .sw_i(sw), .fin_i(fin), .prep_i(prep),
        .round_i(round), .rcyc_i(rcyc), .ts_i(ts), .epoch_i(epoch), .cfg_o(),
        .tr_i(1'b0), .tr_ej_i(1'b0), .cr_i(1'b0), .tr_lane_i(3'd0), .tr_idx_i({RW{1'b0}}), .tr_word_i(1'b0),
        .tr_data_o(tr_data),
        .mre_i(bre), .mwe_i(bwe), .maddr_i(baddr), .mwdata_i(bwdata), .mrdata_o(brdata),
        .inj_o(iflit_s), .irel_o(irelay), .ihop_o(ihop), .ej_i(eflit_s), .ejany_i(|eflit_s),
        .esrc_o(esrc), .erel_o(erel), .euse_o(euse), .ev_o(evs), .nconf_o(nconf));
    // flits in their slots of the NI's buses
    genvar g;
    generate
        for (g = 0; g < LANES; g = g + 1) begin : gen_slot
            assign iflit[g*FW +: FW] = iflit_s[g*FS +: FW];
            always @* begin
                eflit_s[g*FS +: FS] = {FS{1'b0}};
                eflit_s[g*FS +: FW] = eflit[g*FW +: FW];
            end
        end
    endgenerate

    `include "tb_tap.vh"
    `include "tb_crc.vh"

    integer seed = SEED;
    function integer rnd(input integer k);
        rnd = (k > 0) ? ({$random(seed)} % k) : 0;
    endfunction

    // ---- the schedule of a run ----
    integer nr;                          // rounds
    integer dur [0:ROUNDS-1];            // as written (fewer than 3 count as 3, as tn_seq runs them)
    integer tr  [0:ROUNDS];              // T_r relative to T_0; tr[nr] = the end
    // inject lists: entry i of lane l
    reg          ev  [0:LANES-1][0:ROUNDS-1];
    reg          erl [0:LANES-1][0:ROUNDS-1];
    reg [2:0]    eih [0:LANES-1][0:ROUNDS-1];   // its relay heads' hop
    integer      ern [0:LANES-1][0:ROUNDS-1];
    integer      es  [0:LANES-1][0:ROUNDS-1];
    integer      en  [0:LANES-1][0:ROUNDS-1];
    integer      ea  [0:LANES-1][0:ROUNDS-1];
    // eject descriptors: lane l, round r
    reg          dv  [0:LANES-1][0:ROUNDS-1];
    integer      dn  [0:LANES-1][0:ROUNDS-1];
    integer      da  [0:LANES-1][0:ROUNDS-1];
    integer      hop [0:LANES-1];        // eject lane l's delay
    integer      prm [0:LANES-1];        // ... from inject lane prm[l]

    // ---- the model ----
    reg [MW-1:0] mem [0:DEPTH-1];        // the flit memory
    // inject lanes
    integer      iptr [0:LANES-1], iadr [0:LANES-1], irem [0:LANES-1];
    reg          iact [0:LANES-1], irdq [0:LANES-1], irel [0:LANES-1], ibusy [0:LANES-1];
    reg [2:0]    ihp [0:LANES-1];        // the running entry's hop
    reg [MW-1:0] iword [0:LANES-1];      // the word read last cycle
    // eject lanes
    reg          xact [0:LANES-1];
    integer      xadr [0:LANES-1], xrem [0:LANES-1], xcnt [0:LANES-1], xidx [0:LANES-1];
    integer      xfirst [0:LANES-1], xlast [0:LANES-1];
    reg [31:0]   xcrc [0:LANES-1];
    reg [2:0]    xerr [0:LANES-1];
    // filed records, [lane][round]
    reg [RCW-1:0] mrec [0:LANES-1][0:ROUNDS-1];
    reg           mfiled [0:LANES-1][0:ROUNDS-1];
    integer       n_ib = 0, n_eo = 0, n_es = 0, n_eb = 0, n_conf = 0;
    // coverage
    integer cov_chain = 0, cov_cut_sw = 0, cov_cut_next = 0, cov_ib = 0, cov_eb = 0, cov_eo = 0,
            cov_es = 0, cov_conf_r = 0, cov_conf_w = 0, cov_late = 0, cov_swflit = 0, cov_stop = 0,
            cov_d1 = 0, cov_refile = 0, cov_w1 = 0;
    // lane l filed a record in the last cycle, a switch: the lane writes
    // its word 1 {last, first} now, from registers a flit changes
    reg [LANES-1:0] filed_sw = 0;


    // this cycle's expectations and next state
    reg [LANES*FW-1:0] x_iflit;
    reg [LANES-1:0]    x_irel;
    reg [3*LANES-1:0]  x_ihop;
    integer            x_conf;
    reg [3:0]          x_ev;             // this cycle's events {inject bounds, eject bounds, short, overrun}
    reg [NBK-1:0]      rbank, wbank;
    integer            l, k, b;
    reg                st, busy_was;
    reg [FW-1:0]       f;
    reg                late;
    // next-state shadows
    reg [MW-1:0]       nword [0:LANES-1];
    reg                nrdq [0:LANES-1];
    reg                wdo [0:LANES-1];
    integer            wad [0:LANES-1];
    reg [MW-1:0]       wdat [0:LANES-1];

    task model_cycle;
        begin
            x_conf = 0;
            x_ev = 0;
            rbank = 0;
            wbank = 0;
            // inject lanes: the flit now, the read now
            for (l = 0; l < LANES; l = l + 1) begin
                x_iflit[l*FW +: FW] = {irdq[l] && !sw, iword[l]};
                x_irel[l] = irel[l];
                x_ihop[3*l +: 3] = ihp[l];
                nrdq[l] = 0;
                nword[l] = iword[l];
                st = run && iptr[l] < ROUNDS && ev[l][iptr[l]] && ern[l][iptr[l]] == round &&
                     es[l][iptr[l]] == rcyc;
                k = -1;                    // the word read now
                busy_was = ibusy[l];
                ibusy[l] = 0;              // the lane sends a word of a stream now
                if (st) begin
                    if (iact[l]) cov_cut_next = cov_cut_next + 1;
                    if (!iact[l] && busy_was) cov_chain = cov_chain + 1;
                    ibusy[l] = en[l][iptr[l]] > 0;
                    if (en[l][iptr[l]] > 0) k = ea[l][iptr[l]];
                    iadr[l] = ea[l][iptr[l]] + 1;
                    irem[l] = en[l][iptr[l]] - 1;
                    iact[l] = en[l][iptr[l]] > 1;
                    irel[l] = erl[l][iptr[l]];
                    ihp[l] = eih[l][iptr[l]];
                    iptr[l] = iptr[l] + 1;
                end else if (sw) begin
                    if (iact[l]) cov_cut_sw = cov_cut_sw + 1;
                    iact[l] = 0;
                    irel[l] = 0;
                end else if (iact[l]) begin
                    ibusy[l] = 1;
                    if (iadr[l] < DEPTH)
                        k = iadr[l];
                    else begin
                        n_ib = n_ib + 1;
                        cov_ib = cov_ib + 1;
                        x_ev[3] = 1;
                    end
                    iadr[l] = iadr[l] + 1;
                    irem[l] = irem[l] - 1;
                    iact[l] = irem[l] != 0;
                end
                if (k >= 0) begin
                    b = k % NBK;
                    if (rbank[b]) begin
                        x_conf = x_conf + 1;
                        cov_conf_r = cov_conf_r + 1;
                    end else begin
                        rbank[b] = 1;
                        nrdq[l] = 1;
                        nword[l] = mem[k];
                    end
                end
            end
            // eject lanes: the flit on the input now
            for (l = 0; l < LANES; l = l + 1) begin
                wdo[l] = 0;
                f = eflit[l*FW +: FW];
                late = !run || sw || xrem[l] == 0;
                if (f[W+2] && xact[l]) begin
                    xcrc[l] = crc_step(xcrc[l], f[W-1:0]);
                    if (xcnt[l] == 0) xfirst[l] = ts;
                    xlast[l] = ts;
                    xcnt[l] = xcnt[l] + 1;
                    if (sw) cov_swflit = cov_swflit + 1;
                    if (filed_sw[l]) cov_w1 = cov_w1 + 1;
                    if (!run) cov_late = cov_late + 1;
                    if (late) begin
                        xerr[l][0] = 1;
                        n_eo = n_eo + 1;
                        cov_eo = cov_eo + 1;
                        x_ev[0] = 1;
                    end else begin
                        xrem[l] = xrem[l] - 1;
                        if (xadr[l] >= DEPTH) begin
                            xerr[l][2] = 1;
                            n_eb = n_eb + 1;
                            cov_eb = cov_eb + 1;
                            x_ev[2] = 1;
                        end else begin
                            b = xadr[l] % NBK;
                            if (wbank[b]) begin
                                x_conf = x_conf + 1;
                                cov_conf_w = cov_conf_w + 1;
                            end else begin
                                wbank[b] = 1;
                                wdo[l] = 1;
                                wad[l] = xadr[l];
                                wdat[l] = f[W+1:0];
                            end
                        end
                    end
                    xadr[l] = xadr[l] + 1;
                end
                if (fin && xact[l] && xrem[l] != 0) begin
                    xerr[l][1] = 1;
                    n_es = n_es + 1;
                    cov_es = cov_es + 1;
                    x_ev[1] = 1;
                end
                filed_sw[l] = xact[l] && fin && sw;
                if (xact[l] && (fin || (f[W+2] && !run && !sw))) begin
                    if (!fin) cov_refile = cov_refile + 1;
                    mrec[l][xidx[l]] = {epoch, xerr[l], xcnt[l][AW:0], xlast[l][DW-1:0], xfirst[l][DW-1:0],
                                        ~xcrc[l]};
                    mfiled[l][xidx[l]] = 1;
                end
                if (sw) begin
                    xact[l] = dv[l][round];
                    xidx[l] = round;
                    xadr[l] = da[l][round];
                    xrem[l] = dn[l][round];
                    xcnt[l] = 0;
                    xfirst[l] = 0;
                    xlast[l] = 0;
                    xcrc[l] = 32'hFFFFFFFF;
                    xerr[l] = 0;
                end
            end
            if (prep)
                for (l = 0; l < LANES; l = l + 1)
                    iptr[l] = 0;
        end
    endtask
    // at the edge: the memory takes this cycle's writes, the read words move on
    task model_edge;
        begin
            for (l = 0; l < LANES; l = l + 1) begin
                if (wdo[l]) mem[wad[l]] = wdat[l];
                irdq[l] = nrdq[l];
                iword[l] = nword[l];
            end
        end
    endtask

    // ---- the bench's node: delay lines, sequencer signals ----
    // (each always block has its own loop variables)
    reg [FW-1:0] dl [0:LANES-1][0:3];
    integer      dla, dlp, dlb;
    always @(posedge clk)
        for (dla = 0; dla < LANES; dla = dla + 1) begin
            for (dlp = 3; dlp > 0; dlp = dlp - 1)
                dl[dla][dlp] <= dl[dla][dlp-1];
            dl[dla][0] <= iflit[prm[dla]*FW +: FW];
        end
    always @* for (dlb = 0; dlb < LANES; dlb = dlb + 1) eflit[dlb*FW +: FW] = dl[dlb][hop[dlb] - 1];

    integer bad_i = 0, bad_c = 0, bad_rel = 0, bad_ev = 0;
    integer cyc = 0;

    // One cycle: this cycle's sequencer signals, the model, the comparison.
    task cycle(input r_run, input r_sw, input r_fin, input r_prep, input integer r_round,
               input integer r_rcyc, input integer r_ts);
        begin
            if (r_prep && !prep) epoch = epoch + 1;   // (a run's first prep cycle)
            run = r_run; sw = r_sw; fin = r_fin; prep = r_prep;
            round = r_round; rcyc = r_rcyc; ts = r_ts;
            #2;
            model_cycle;
            m = 0;
            for (l = 0; l < LANES; l = l + 1)
                if (iflit[l*FW+W+2] !== x_iflit[l*FW+W+2] ||
                    (x_iflit[l*FW+W+2] && iflit[l*FW +: FW] !== x_iflit[l*FW +: FW]))
                    m = 1;
            if (m) begin
                bad_i = bad_i + 1;
                if (bad_i < 8)
                    $display("# cycle %0d (round %0d rcyc %0d sw %0d): inject flits %h, model %h", cyc, round,
                             rcyc, sw, iflit, x_iflit);
            end
            if (nconf != x_conf) begin
                bad_c = bad_c + 1;
                if (bad_c < 8) $display("# cycle %0d: conflicts %0d, model %0d", cyc, nconf, x_conf);
            end
            if (evs !== x_ev) begin
                bad_ev = bad_ev + 1;
                if (bad_ev < 8) $display("# cycle %0d: events %b, model %b", cyc, evs, x_ev);
            end
            for (l = 0; l < LANES; l = l + 1)
                if (iflit[l*FW+W+2] && (irelay[l] != x_irel[l] ||
                                        (x_irel[l] && ihop[3*l +: 3] != x_ihop[3*l +: 3])))
                    bad_rel = bad_rel + 1;
            @(posedge clk);
            model_edge;
            cyc = cyc + 1;
            #1;
        end
    endtask

    // ---- loading ----
    task load_tables;
        integer r, i;
        begin
            for (l = 0; l < LANES; l = l + 1) begin
                for (i = 0; i < ROUNDS; i = i + 1) begin
                    @(negedge clk);
                    lw_idx = i;
                    irow = {ev[l][i], erl[l][i], eih[l][i], ern[l][i][RW-1:0], es[l][i][DW-1:0], en[l][i][AW:0],
                            ea[l][i][AW-1:0]};
                    ilw = 0;
                    ilw[l] = 1;
                    @(posedge clk);
                    #1 ilw = 0;
                end
                for (r = 0; r < ROUNDS; r = r + 1) begin
                    @(negedge clk);
                    lw_idx = r;
                    erow = {dv[l][r], 1'b0, 3'd0, dn[l][r][AW:0], da[l][r][AW-1:0]};
                    elw = 0;
                    elw[l] = 1;
                    @(posedge clk);
                    #1 elw = 0;
                end
            end
        end
    endtask
    task mem_write(input integer a, input [MW-1:0] d);
        begin
            @(negedge clk);
            bwe = 1; baddr = a; bwdata = d;
            @(posedge clk);
            #1 bwe = 0;
            mem[a] = d;
        end
    endtask

    // A random schedule: 2..8 rounds; per lane random entries (chains, cuts,
    // starts beyond the round, words beyond the memory), random eject
    // descriptors; the inject words in the lower half of the memory, the
    // eject areas in the upper half (bounds: at the very top).
    task new_schedule(input integer bounds_kind);
        integer r, i, s, t;
        begin
            nr = 2 + rnd(7);
            tr[0] = 0;
            for (r = 0; r < nr; r = r + 1) begin
                t = rnd(8);
                dur[r] = (t == 0) ? 1 : (t == 1) ? 0 : (t == 2) ? 2 : 3 + rnd(10);
                if (dur[r] < 3) cov_d1 = cov_d1 + 1;
                tr[r + 1] = tr[r] + ((dur[r] < 3) ? 3 : dur[r]);
            end
            for (l = 0; l < LANES; l = l + 1) begin
                hop[l] = 1 + rnd(3);
                prm[l] = (l + LANES - 1 - rnd(2)) % LANES;
                i = 0;
                for (r = 0; r < nr && i < ROUNDS - 1; r = r + 1) begin
                    s = rnd(3);
                    while (rnd(3) != 0 && i < ROUNDS - 1 && s < ((dur[r] < 3) ? 3 : dur[r]) + 1) begin
                        ev[l][i] = 1;
                        erl[l][i] = rnd(2);
                        eih[l][i] = rnd(8);
                        ern[l][i] = r;
                        es[l][i] = s;
                        en[l][i] = rnd(7);
                        // the last round's streams end in it (no stream runs past the run)
                        if (r == nr - 1 && s + en[l][i] > ((dur[r] < 3) ? 3 : dur[r]) - 1)
                            en[l][i] = (s < ((dur[r] < 3) ? 3 : dur[r]) - 1) ? ((dur[r] < 3) ? 3 : dur[r]) - 1 - s : 0;
                        ea[l][i] = (bounds_kind == 1 && rnd(6) == 0) ? DEPTH - 1 - rnd(3) : rnd(DEPTH / 2);
                        // next: back to back (a chain), later, or earlier than the end (a cut)
                        t = rnd(3);
                        s = s + ((t == 0) ? en[l][i] : (t == 1) ? en[l][i] + 1 + rnd(3) : 1 + rnd(en[l][i] + 1));
                        i = i + 1;
                    end
                end
                for (i = i; i < ROUNDS; i = i + 1) begin
                    ev[l][i] = 0; erl[l][i] = 0; eih[l][i] = 0; ern[l][i] = 0; es[l][i] = 0; en[l][i] = 0; ea[l][i] = 0;
                end
                for (r = 0; r < ROUNDS; r = r + 1) begin
                    dv[l][r] = r < nr && rnd(5) != 0;
                    dn[l][r] = rnd(9);
                    da[l][r] = (bounds_kind == 2 && rnd(4) != 0) ? DEPTH - 1 - rnd(4)
                                                                 : DEPTH / 2 + rnd(DEPTH / 2 - 16);
                end
            end
        end
    endtask

    // Clock a run: prep, rounds, then quiet cycles.
    task do_run;
        integer t, r, rc;
        begin
            // before the start: quiet (the relative cycle keeps counting)
            cycle(0, 0, 0, 0, round, rcyc + 1, rcyc + 1);
            cycle(0, 0, 0, 1, round, rcyc + 1, rcyc + 1);      // prep, two cycles
            cycle(0, 0, 0, 1, round, rcyc + 1, rcyc + 1);
            r = 0;
            for (t = 0; t < tr[nr] + 12; t = t + 1) begin
                while (r + 1 < nr && t >= tr[r + 1]) r = r + 1;
                rc = t - tr[r];
                cycle(t < tr[nr],
                      t == tr[r] && t < tr[nr],
                      (t > 0 && t == tr[r] && t < tr[nr]) || t == tr[nr],
                      0, r, rc, (t == tr[r] && t > 0 && t < tr[nr]) ? t - tr[r - 1] : rc);
            end
        end
    endtask

    // Compare every record filed so far and the whole memory.
    integer bad_rec, bad_mem, r2;
    reg [31:0]    rec_w [0:2], x_w [0:2];
    reg [RCW-1:0] x_rec;
    reg [31:0]    rec_word;
    // read row `row` of lane `lane`'s records through the bus port into rec_word
    task rec_read(input integer lane, input integer row);
        begin
            @(negedge clk);
            rr = 1;
            rr_lane = lane;
            rr_row = row;
            @(posedge clk);
            #1 rr = 0;
            @(posedge clk);
            #1 rec_word = rr_data;
        end
    endtask
    task compare;
        begin
            bad_rec = 0;
            for (l = 0; l < LANES; l = l + 1)
                for (r2 = 0; r2 < ROUNDS; r2 = r2 + 1)
                    if (mfiled[l][r2]) begin
                        for (k = 0; k < 3; k = k + 1) begin
                            rec_read(l, 3 * r2 + k);
                            rec_w[k] = rec_word;
                        end
                        x_rec = mrec[l][r2];
                        x_w[0] = {x_rec[RCW-1 -: 4], 9'd0, x_rec[RCW-5 -: 3], {(15 - AW){1'b0}},
                                  x_rec[2*DW+32 +: AW + 1]};
                        x_w[1] = {{(16 - DW){1'b0}}, x_rec[DW+32 +: DW], {(16 - DW){1'b0}}, x_rec[32 +: DW]};
                        x_w[2] = x_rec[31:0];
                        if (rec_w[0] !== x_w[0] || rec_w[1] !== x_w[1] || rec_w[2] !== x_w[2]) begin
                            bad_rec = bad_rec + 1;
                            if (bad_rec < 6)
                                $display("# lane %0d round %0d: record %h %h %h, model %h %h %h", l, r2,
                                         rec_w[0], rec_w[1], rec_w[2], x_w[0], x_w[1], x_w[2]);
                        end
                    end
            bad_mem = 0;
            for (k = 0; k < DEPTH; k = k + 1) begin
                @(negedge clk);
                bre = 1;
                baddr = k;
                @(posedge clk);
                #1 bre = 0;
                if (brdata !== mem[k]) begin
                    bad_mem = bad_mem + 1;
                    if (bad_mem < 6) $display("# word %0d: %h, model %h", k, brdata, mem[k]);
                end
            end
        end
    endtask

    integer run_i, bad_r = 0, bad_m = 0, bad_beyond = 0, m;
    initial begin
        $display("# tb_lanes LANES=%0d W=%0d MEM_DEPTH=%0d BANKS=%0d ROUNDS=%0d SEED=%0d", LANES, W, DEPTH, NBK,
                 ROUNDS, SEED);
        for (l = 0; l < LANES; l = l + 1) begin
            iptr[l] = 0; iadr[l] = 0; irem[l] = 0; iact[l] = 0; irdq[l] = 0; irel[l] = 0; ihp[l] = 0; iword[l] = 0;
            ibusy[l] = 0;
            xact[l] = 0; xadr[l] = 0; xrem[l] = 0; xcnt[l] = 0; xidx[l] = 0; xfirst[l] = 0; xlast[l] = 0;
            xcrc[l] = 0; xerr[l] = 0; hop[l] = 1; prm[l] = l;
            for (m = 0; m < ROUNDS; m = m + 1) mfiled[l][m] = 0;
            for (m = 0; m < 4; m = m + 1) dl[l][m] = 0;
        end
        repeat (3) @(posedge clk);
        #1 rst = 0;
        for (k = 0; k < DEPTH; k = k + 1)
            mem_write(k, {$random(seed)} & {MW{1'b1}});
        for (run_i = 0; run_i < RUNS; run_i = run_i + 1) begin
            new_schedule(run_i % 3);
            load_tables;
            do_run;
            compare;
            bad_r = bad_r + bad_rec;
            bad_m = bad_m + bad_mem;
            // fresh data in the inject half for the next run
            for (k = 0; k < 8; k = k + 1)
                mem_write(rnd(DEPTH / 2), {$random(seed)} & {MW{1'b1}});
        end
        // the rows beyond the records (3 ROUNDS .. 4 ROUNDS - 1) read 0
        // (the RAM holds 3 ROUNDS rows: a read beyond it is X here, and
        // another row of the block RAM on a board)
        for (l = 0; l < LANES; l = l + 1)
            for (k = 0; k < 2; k = k + 1) begin
                rec_read(l, (k == 0) ? 3 * ROUNDS : 4 * ROUNDS - 1);
                if (rec_word !== 32'd0) bad_beyond = bad_beyond + 1;
            end
        $sformat(msg, "%0d runs, %0d cycles: every inject lane's flit in every cycle as modelled", RUNS, cyc);
        ok(bad_i == 0, msg);
        ok(bad_rel == 0, "inject lanes: the relay flag and hop of the running entry with every flit");
        ok(bad_c == 0, "flit memory: bank conflicts (lowest lane first) counted every cycle as modelled");
        ok(bad_r == 0, "eject records (epoch, errors, count, first, last, CRC) filed as modelled");
        ok(bad_m == 0, "flit memory contents as modelled after every run (stores, no stores past n or on conflicts)");
        ok(bad_beyond == 0, "record rows 3 ROUNDS and 4 ROUNDS - 1 of every lane read 0");
        $sformat(msg, "events (inject bounds %0d, overrun %0d, short %0d, eject bounds %0d) in their cycles as modelled",
                 n_ib, n_eo, n_es, n_eb);
        ok(bad_ev == 0, msg);
        $sformat(msg, "coverage: chains %0d, cuts by a start %0d, by a switch %0d, rounds of duration 0 to 2 (run as 3) %0d",
                 cov_chain, cov_cut_next, cov_cut_sw, cov_d1);
        ok(cov_chain > 0 && cov_cut_next > 0 && cov_cut_sw > 0 && cov_d1 > 0, msg);
        $sformat(msg, "coverage: overruns %0d (in a switch cycle %0d, after a run %0d, refiled %0d), shorts %0d, bounds %0d/%0d",
                 cov_eo, cov_swflit, cov_late, cov_refile, cov_es, cov_ib, cov_eb);
        ok(cov_eo > 0 && cov_swflit > 0 && cov_late > 0 && cov_refile > 0 && cov_es > 0 && cov_ib > 0 && cov_eb > 0,
           msg);
        $sformat(msg, "coverage: flits counted while the lane writes the last round's {last, first} %0d", cov_w1);
        ok(cov_w1 > 0, msg);
        if (LANES > 1) begin
            $sformat(msg, "coverage: lost reads %0d, lost writes %0d", cov_conf_r, cov_conf_w);
            ok(cov_conf_r > 0 && cov_conf_w > 0, msg);
        end
        $display("# done tb_lanes, %0d failed", nfail);
        $finish;
    end
endmodule
