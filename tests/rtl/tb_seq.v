`default_nettype none
// SPDX-License-Identifier: MIT
// tb_seq: testbench of the sequencer (rtl/net/tn_seq.v) alone, Icarus.
// The bench registers the sequencer's next-edge outputs as a node does and
// checks them, cycle by cycle, against its own model of docs/hardware.md
// ("Timing of a run"): a start written in cycle c gives prep in c + 1 and
// c + 2 and round 0's switch in T_0 = c + 3; round r switches in T_r, lasts D_r
// cycles (fewer than 3 count as 3), fin marks T_{r+1} (the cycle after a round's
// last) and END_CYCLE = T_0 + sum D_r; run is high in T_0 .. END - 1. Also
// START/END/CYCLE/RUNS/ROUND/STATUS/NROUNDS/DURATION/ERRMAP reads, abort
// (ends the run at once; ignored before the first switch), a start while
// running (ignored), CTRL clear, durations 1..4, 0 and 2^DW - 1, NROUNDS
// = ROUNDS. Prints TAP lines; tests/rtl/tn_tb_run.sh numbers them.
// Parameters: ROUNDS, DW, N (nodes: ERRMAP words).
module tb_seq;
    parameter ROUNDS = 16;   // round-table depth
    parameter DW     = 6;    // duration bits
    parameter N      = 27;   // nodes
    localparam RW = $clog2(ROUNDS);
    localparam NE = (N + 31) / 32;

    reg clk = 0, rst = 1;
    always #5 clk = !clk;

    reg          nb_we = 0, nb_re = 0, nb_glob = 0;
    reg [19:0]   nb_off = 0;
    reg [31:0]   nb_wdata = 0;
    wire [31:0]  nb_rdata;
    reg          dw = 0;
    reg [RW-1:0] dw_idx = 0;
    reg [DW-1:0] dw_data = 0;
    reg [N-1:0]  nerr = 0;
    wire         run_n, sw_n, fin_n, prep_n, clr_n, running;
    wire [3:0]   status;

    tn_seq #(.ROUNDS(ROUNDS), .RW(RW), .DW(DW), .N(N)) dut (
        .nclk_i(clk), .nrst_i(rst),
        .nb_we_i(nb_we), .nb_re_i(nb_re), .nb_glob_i(nb_glob), .nb_off_i(nb_off),
        .nb_wdata_i(nb_wdata), .nb_rdata_o(nb_rdata),
        .bclk_i(clk), .dw_i(dw), .dw_idx_i(dw_idx), .dw_data_i(dw_data),
        .nerr_i(nerr),
        .run_n_o(run_n), .sw_n_o(sw_n), .fin_n_o(fin_n), .prep_n_o(prep_n), .clr_n_o(clr_n),
        .running_o(running), .status_o(status));

    // ---- the node's view: the next-edge values, registered ----
    reg        run_q = 0, sw_q = 0, fin_q = 0, prep_q = 0, clr_q = 0;
    reg [47:0] cyc = 0;           // cycles since reset (the sequencer's counter)
    always @(posedge clk) begin
        run_q  <= run_n;
        sw_q   <= sw_n;
        fin_q  <= fin_n;
        prep_q <= prep_n;
        clr_q  <= clr_n;
        cyc    <= rst ? 48'd0 : cyc + 1'b1;
    end

    // ---- event log of the registered signals, by cycle ----
    localparam LOGN = (1 << DW) + 4096;
    reg [LOGN-1:0] lsw, lfin, lprep, lrun, lclr;
    reg            logging = 0;
    reg [47:0]     log0 = 0;       // cycle of log entry 0
    always @(posedge clk)
        if (logging && cyc - log0 < LOGN) begin
            lsw[cyc - log0]   <= sw_n;   // the registered value of the next cycle
            lfin[cyc - log0]  <= fin_n;
            lprep[cyc - log0] <= prep_n;
            lrun[cyc - log0]  <= run_n;
            lclr[cyc - log0]  <= clr_n;
        end
    // (entry k: the value the registers hold in cycle log0 + k + 1)

    `include "tb_tap.vh"
    task is(input [63:0] got, input [63:0] want, input [8*120-1:0] what);
        begin
            ok(got == want, what);
            if (got != want)
                $display("#   got %0d, want %0d", got, want);
        end
    endtask

    // one-cycle requests on the network bus, as tn_torus issues them; each
    // is presented from a falling edge: req_cyc is the cycle it is seen in
    reg [47:0] req_cyc;
    task gwr(input [19:0] off, input [31:0] data);
        begin
            @(negedge clk);
            req_cyc = cyc;
            nb_we = 1; nb_glob = 1; nb_off = off; nb_wdata = data;
            @(posedge clk);
            #1 nb_we = 0; nb_glob = 0;
        end
    endtask
    task grd(input [19:0] off, output [31:0] data);
        begin
            @(negedge clk);
            req_cyc = cyc;
            nb_re = 1; nb_glob = 1; nb_off = off;
            @(posedge clk);
            #1 nb_re = 0; nb_glob = 0;
            @(posedge clk);
            #1 data = nb_rdata;     // registered in the cycle after the request
        end
    endtask
    task dwr(input integer idx, input integer d);
        begin
            @(negedge clk);
            dw = 1; dw_idx = idx; dw_data = d;
            @(posedge clk);
            #1 dw = 0;
        end
    endtask

    // ---- one run against the model ----
    reg [DW-1:0] dur [0:ROUNDS-1];
    reg [31:0]   rd;
    reg [47:0]   t0, tend, tr, c0, swc;
    integer      r, k, nr, bad, runs, lastrun;

    // Start a run of nrounds (durations dur[]) and check every registered
    // event against the model; abort_at > 0: abort that many cycles after T_0.
    task run_check(input integer nrounds, input integer abort_at, input [8*40-1:0] name);
        integer total, tabort;
        begin
            for (r = 0; r < ROUNDS; r = r + 1)
                dwr(r, dur[r]);
            gwr(20'h011, nrounds);
            total = 0;
            for (r = 0; r < nrounds; r = r + 1)
                total = total + ((dur[r] < 3) ? 3 : dur[r]);
            tabort = (abort_at > 0 && abort_at < total) ? abort_at : 0;
            @(negedge clk);
            lsw = 0; lfin = 0; lprep = 0; lrun = 0; lclr = 0;
            logging = 1;
            log0 = cyc;
            gwr(20'h010, 1);          // the start, seen in cycle c0
            c0 = req_cyc;
            t0 = c0 + 3;
            if (tabort) begin
                repeat (tabort + 2) @(posedge clk);
                gwr(20'h010, 2);      // seen in T_0 + tabort
                if (req_cyc != t0 + tabort)
                    $display("# bench: abort in %0d, not %0d", req_cyc, t0 + tabort);
            end
            repeat (total + 8) @(posedge clk);
            logging = 0;
            tend = tabort ? t0 + tabort + 1 : t0 + total;
            // the model, cycle by cycle from c0 + 1 (log entry 0)
            bad = 0;
            tr = t0;
            for (k = 0; k < LOGN && log0 + 1 + k < tend + 6; k = k + 1) begin
                swc = log0 + 1 + k;
                // prep in c0 + 1 and c0 + 2 only
                if (lprep[k] != (swc == c0 + 1 || swc == c0 + 2)) bad = bad + 1;
                // run in t0 .. tend - 1
                if (lrun[k] != (swc >= t0 && swc < tend)) bad = bad + 1;
            end
            // switches and fins
            tr = t0;
            nr = 0;
            for (r = 0; r < nrounds; r = r + 1) begin
                if (tr < tend) begin
                    if (!lsw[tr - log0 - 1]) bad = bad + 1;
                    nr = nr + 1;
                end
                tr = tr + ((dur[r] < 3) ? 3 : dur[r]);
                if (tr <= tend && !lfin[tr - log0 - 1]) bad = bad + 1;
            end
            if (tabort && !lfin[tend - log0 - 1]) bad = bad + 1;
            // nothing else switches or fins
            k = 0;
            for (swc = c0 + 1; swc < tend + 6 && swc - log0 - 1 < LOGN; swc = swc + 1) begin
                if (lsw[swc - log0 - 1]) k = k + 1;
                if (lfin[swc - log0 - 1]) k = k + 1;
            end
            if (k != nr + (tabort ? nr : nrounds)) bad = bad + 1;
            $sformat(msg, "%0s: prep, switch, fin and run pulses in the modelled cycles (%0d rounds, %0d cycles)",
                                   name, nrounds, tabort ? tabort + 1 : total);
            ok(bad == 0, msg);
            grd(20'h016, rd);
            $sformat(msg, "%0s: START_CYCLE = start write + 2", name);
            is(rd, t0[31:0], msg);
            grd(20'h018, rd);
            $sformat(msg, "%0s: END_CYCLE = START_CYCLE + sum of the durations", name);
            is(rd, tend[31:0], msg);
            grd(20'h012, rd);
            $sformat(msg, "%0s: STATUS %0s", name, tabort ? "aborted" : "done");
            is(rd[3:0], tabort ? 4'b1000 : 4'b0010, msg);
            grd(20'h013, rd);
            $sformat(msg, "%0s: ROUND is the last round run", name);
            is(rd, nr - 1, msg);
            runs = runs + 1;
            grd(20'h01A, rd);
            $sformat(msg, "%0s: RUNS counts the start", name);
            is(rd, runs, msg);
        end
    endtask

    reg [31:0] a, b;
    integer    j;
    initial begin
        $display("# tb_seq ROUNDS=%0d DW=%0d N=%0d", ROUNDS, DW, N);
        runs = 0;
        repeat (3) @(posedge clk);
        rst <= 0;
        repeat (2) @(posedge clk);
        ok(!running && !run_n && !sw_n && status == 0, "idle after reset");

        // durations 1..4 mixed, then 0 and 1 back to back, at most ROUNDS rounds
        for (r = 0; r < ROUNDS; r = r + 1)
            dur[r] = 1 + (r * 7 + r / 3) % 4;
        run_check(ROUNDS < 12 ? ROUNDS : 12, 0, "durations 1..4");
        for (r = 0; r < ROUNDS; r = r + 1)
            dur[r] = (r % 3 == 0) ? 0 : 1;
        run_check(ROUNDS, 0, "durations 0 and 1, NROUNDS = ROUNDS");
        for (r = 0; r < ROUNDS; r = r + 1)
            dur[r] = (r == 1) ? (1 << DW) - 1 : 2;
        run_check(2, 0, "the longest duration 2^DW - 1");
        run_check(1, 0, "one round");
        // DURATION reads back
        for (r = 0; r < ROUNDS; r = r + 1)
            dur[r] = (r * 5 + 3) % (1 << DW);
        for (r = 0; r < ROUNDS; r = r + 1)
            dwr(r, dur[r]);
        bad = 0;
        for (r = 0; r < ROUNDS; r = r + 1) begin
            grd(20'h08000 + r, rd);
            if (rd != dur[r]) bad = bad + 1;
        end
        is(bad, 0, "DURATION reads back for every round");
        // abort in the middle of a run
        for (r = 0; r < ROUNDS; r = r + 1)
            dur[r] = 3;
        run_check(ROUNDS < 8 ? ROUNDS : 8, 4, "abort");
        // a start while running is ignored; an abort before the first switch is too
        for (r = 0; r < ROUNDS; r = r + 1)
            dur[r] = 4;
        for (r = 0; r < ROUNDS; r = r + 1)
            dwr(r, dur[r]);
        gwr(20'h011, 2);
        gwr(20'h010, 1);          // the start, seen in cycle a
        a = req_cyc;
        gwr(20'h010, 2);          // abort in the first prep cycle a + 1: ignored
        gwr(20'h010, 1);          // start in the second, a + 2: ignored
        gwr(20'h010, 1);          // start in T_0 = a + 3, while running: ignored
        ok(req_cyc == a + 3, "bench: the four writes in consecutive cycles");
        repeat (12) @(posedge clk);
        runs = runs + 1;
        grd(20'h01A, rd);
        is(rd, runs, "a start while running is not counted");
        grd(20'h016, rd);
        is(rd, a + 3, "a start while preparing or running does not move START_CYCLE");
        grd(20'h012, rd);
        is(rd[3:0], 4'b0010, "an abort in the prep cycle is ignored (the run completes)");
        grd(20'h018, rd);
        is(rd, a + 3 + 8, "END_CYCLE of the run that ignored them");
        // NROUNDS reads back
        gwr(20'h011, ROUNDS);
        grd(20'h011, rd);
        is(rd, ROUNDS, "NROUNDS reads back ROUNDS");
        gwr(20'h011, 1);
        grd(20'h011, rd);
        is(rd, 1, "NROUNDS reads back 1");
        // CYCLE: the counter of the request's next cycle; reading low latches high
        grd(20'h014, rd);
        is(rd, req_cyc + 1, "CYCLE low is the counter one cycle after the request");
        grd(20'h015, rd);
        is(rd, 0, "CYCLE high (latched)");
        // CTRL clear: a one-cycle clear pulse
        @(negedge clk);
        lclr = 0;
        logging = 1;
        log0 = cyc;
        gwr(20'h010, 4);
        repeat (4) @(posedge clk);
        logging = 0;
        ok(lclr == (1 << (req_cyc - log0)), "CTRL bit 2: one clear pulse, in the cycle after the write");
        // ERRMAP and STATUS bit 2
        bad = 0;
        for (j = 0; j < N; j = j + 3) begin
            nerr = 0;
            nerr[j] = 1'b1;
            @(posedge clk);
            for (k = 0; k < NE; k = k + 1) begin
                grd(20'h00800 + k, rd);
                if (rd != ((j / 32 == k) ? (32'd1 << (j % 32)) : 32'd0)) bad = bad + 1;
            end
            grd(20'h012, rd);
            if (!rd[2]) bad = bad + 1;
        end
        is(bad, 0, "ERRMAP word k bit j is node 32k + j's error; STATUS bit 2 their OR");
        nerr = 0;
        @(posedge clk);
        grd(20'h012, rd);
        is(rd[2], 0, "STATUS bit 2 clear without node errors");
        grd(20'h00800 + NE, rd);
        is(rd, 0, "ERRMAP beyond the nodes reads 0");
        $display("# done tb_seq, %0d failed", nfail);
        $finish;
    end
endmodule
