`default_nettype none
// SPDX-License-Identifier: MIT
// tn_seq: the sequencer and the network-domain global registers: 48-bit
// cycle counter, the round durations (a RAM written on the bus clock, read
// ahead on the network clock), start / abort / clear, status, the per-node
// error map. Its outputs are the values its registers take at the next
// edge; every node registers them, so in every cycle all nodes see the
// sequencer's state of that cycle.
module tn_seq #(
    parameter ROUNDS = 16,   // round-table depth
    parameter RW     = 4,    // log2(ROUNDS)
    parameter DW     = 14,   // duration bits
    parameter N      = 27    // nodes
) (
    input  wire          nclk_i,
    input  wire          nrst_i,
    // network-clock bus, global registers (nb_glob_i: target 0xFFF)
    input  wire          nb_we_i,
    input  wire          nb_re_i,
    input  wire          nb_glob_i,
    input  wire [19:0]   nb_off_i,
    input  wire [31:0]   nb_wdata_i,
    output reg  [31:0]   nb_rdata_o,  // two cycles after the request
    // DURATION writes (bus clock)
    input  wire          bclk_i,
    input  wire          dw_i,
    input  wire [RW-1:0] dw_idx_i,
    input  wire [DW-1:0] dw_data_i,
    input  wire [N-1:0]  nerr_i,      // node n has an error flag set
    input  wire          live_i,      // a flit may be on its way (tn_torus's drain): rcyc counts
    // to every node: next-edge values
    output reg           run_n_o,     // running
    output reg           sw_n_o,      // a switch cycle (the first of a round)
    output reg           fin_n_o,     // the previous cycle was a round's last
    output reg           prep_n_o,    // the two cycles before a run's first switch
    output reg           clr_n_o,     // clear node status
    output wire [RW-1:0] round_n_o,   // the round
    output wire [DW-1:0] rcyc_n_o,    // the round-relative cycle (0 in a switch cycle)
    output wire          running_o,   // a run is under way (or starting)
    output wire [3:0]    status_o     // STATUS bits 3:0
);
    localparam NE = (N + 31) / 32;    // ERRMAP words

    reg          run_q, sw_q, prep_q;
    reg          pp_q;                // the second prep cycle
    reg [RW-1:0] round_q;
    reg [DW-1:0] rcyc_q;              // round-relative cycle
    reg [DW-1:0] dlast_q;             // the current round's last rcyc
    reg [RW:0]   nrounds_q;           // 1 .. ROUNDS
    reg          done_q, abrt_q;
    reg          ended_q;             // the last cycle was a run's last
    reg [47:0]   cycle_q, start_q, end_q;
    reg [15:0]   hi_q;                // CYCLE high half latched by reading the low half
    reg [15:0]   runs_q;
    assign running_o = run_q || prep_q;
    assign status_o  = {abrt_q, |nerr_i, done_q, run_q};

    wire wr = nb_we_i && nb_glob_i, rd = nb_re_i && nb_glob_i;
    // (durations are read only between runs: during one, the RAM's read
    // port belongs to the read-ahead and such a read returns 0)
    wire rdur = rd && nb_off_i[19:15] == 5'b00001 && (nb_off_i[14:0] >> RW) == 15'd0 &&
                !run_q && !prep_q;

    // The durations: the next round's (or round 0's after prep) in dur_nx.
    wire [DW-1:0] dur_nx;
    tn_ram #(.DW(DW), .AW(RW)) u_dur (
        .wclk_i(bclk_i), .wsel_i(1'b1), .we_i(dw_i), .waddr_i(dw_idx_i), .wdata_i(dw_data_i),
        .rclk_i(nclk_i), .rsel_i(1'b1), .re_i(rdur || prep_q || sw_q),
        .raddr_i(rdur ? nb_off_i[RW-1:0] : prep_q ? {RW{1'b0}} : round_q + 1'b1),
        .rdata_o(dur_nx));
    // A round lasts at least 3 cycles (D < 3 counts as 3): an eject lane
    // writes a record over 3 cycles (tn_ni).
    localparam [DW-1:0] LAST3 = 2;
    wire [DW-1:0] dl_nx = (dur_nx < 3) ? LAST3 : dur_nx - 1'b1;

    wire          wctl  = wr && nb_off_i == 20'h00010;
    wire          start = wctl && nb_wdata_i[0] && !run_q && !prep_q;
    wire          abort = wctl && nb_wdata_i[1] && run_q;
    // this cycle is the current round's last (a switch cycle is its own
    // round's first: its duration is the one read ahead)
    wire          last  = run_q && rcyc_q == (sw_q ? dl_nx : dlast_q);
    wire          lastr = {1'b0, round_q} + 1'b1 >= nrounds_q;

    // A start gives two prep cycles, then the switch into round 0: a node
    // reads round 0's table rows in them (tn_ni reads two rows a round).
    reg pp_n;
    always @* begin
        prep_n_o = start || (prep_q && !pp_q);
        pp_n     = prep_q && !pp_q;
        sw_n_o   = pp_q || (last && !lastr && !abort);
        fin_n_o  = last || abort;
        run_n_o  = pp_q || (run_q && !abort && !(last && lastr));
        clr_n_o  = wctl && nb_wdata_i[2];
        if (nrst_i) begin
            prep_n_o = 1'b0;
            pp_n     = 1'b0;
            sw_n_o   = 1'b0;
            fin_n_o  = 1'b0;
            run_n_o  = 1'b0;
            clr_n_o  = 1'b0;
        end
    end

    // The round-relative cycle counts in a run and while flits may still
    // arrive after it (their overrun records carry it); on a quiet network
    // it holds, so that no register of an idle plane changes (tn_torus
    // stops an idle plane's clock in the simulator).
    assign rcyc_n_o  = sw_n_o ? {DW{1'b0}} : (run_q || live_i) ? rcyc_q + 1'b1 : rcyc_q;
    assign round_n_o = !sw_n_o ? round_q : prep_q ? {RW{1'b0}} : round_q + 1'b1;
    always @(posedge nclk_i) begin
        cycle_q <= cycle_q + 1'b1;
        run_q   <= run_n_o;
        sw_q    <= sw_n_o;
        prep_q  <= prep_n_o;
        pp_q    <= pp_n;
        rcyc_q  <= rcyc_n_o;
        round_q <= round_n_o;
        if (sw_q)
            dlast_q <= dl_nx;
        if (prep_q) begin
            done_q  <= 1'b0;
            abrt_q  <= 1'b0;
        end
        // START and END take the cycle counter in T_0 and in the cycle
        // after the run, not its next value a cycle before: on an iCE40 an
        // adder output that also feeds other registers leaves the
        // counter's flip-flops a logic cell each
        if (sw_q && round_q == {RW{1'b0}})
            start_q <= cycle_q;
        ended_q <= abort || (last && lastr);
        if (start)
            runs_q <= runs_q + 1'b1;
        if (last && lastr && !abort)
            done_q <= 1'b1;
        if (abort)
            abrt_q <= 1'b1;
        if (ended_q)
            end_q <= cycle_q;
        if (wr && nb_off_i == 20'h00011)
            nrounds_q <= (nb_wdata_i == 32'd0) ? {{RW{1'b0}}, 1'b1}
                       : (nb_wdata_i > ROUNDS) ? ROUNDS[RW:0] : nb_wdata_i[RW:0];
        if (nrst_i) begin
            cycle_q   <= 48'd0;
            round_q   <= {RW{1'b0}};
            nrounds_q <= {{RW{1'b0}}, 1'b1};
            done_q    <= 1'b0;
            abrt_q    <= 1'b0;
            ended_q   <= 1'b0;
            start_q   <= 48'd0;
            end_q     <= 48'd0;
            runs_q    <= 16'd0;
        end
    end

    // Reads: the request's register in c (decoded from the offset into a
    // select, so that a read holds 4 bits, not the 20-bit offset, and the
    // offset's compares stay off the data's path), the data registered in
    // c+1.
    localparam [3:0] R_NONE = 4'd0, R_NROUNDS = 4'd1, R_STATUS = 4'd2, R_ROUND = 4'd3,
                     R_CYCLE = 4'd4, R_CYCLE_HI = 4'd5, R_START = 4'd6, R_START_HI = 4'd7,
                     R_END = 4'd8, R_END_HI = 4'd9, R_RUNS = 4'd10, R_ERRMAP = 4'd11,
                     R_DUR = 4'd12;
    localparam EB = (NE > 1) ? $clog2(NE) : 1;      // ERRMAP word index bits
    wire        rerr = nb_off_i[19:11] == 9'd1 && {21'd0, nb_off_i[10:0]} < NE;  // 0x800 + k, k < NE
    reg  [3:0]  rsel;
    always @*
        case (nb_off_i)
            20'h00011: rsel = R_NROUNDS;
            20'h00012: rsel = R_STATUS;
            20'h00013: rsel = R_ROUND;
            20'h00014: rsel = R_CYCLE;
            20'h00015: rsel = R_CYCLE_HI;
            20'h00016: rsel = R_START;
            20'h00017: rsel = R_START_HI;
            20'h00018: rsel = R_END;
            20'h00019: rsel = R_END_HI;
            20'h0001A: rsel = R_RUNS;
            default:   rsel = rdur ? R_DUR : rerr ? R_ERRMAP : R_NONE;
        endcase
    reg          rd_q;
    reg [3:0]    rsel_q;
    reg [EB-1:0] rk_q;
    wire [32*NE-1:0] nerr_w = {{(32 * NE - N){1'b0}}, nerr_i};   // ERRMAP's words
    always @(posedge nclk_i) begin
        rd_q <= rd;
        if (rd) begin
            rsel_q <= rsel;
            rk_q   <= nb_off_i[EB-1:0];
        end
        if (rd_q) begin
            case (rsel_q)
                R_NROUNDS:  nb_rdata_o <= {{(31 - RW){1'b0}}, nrounds_q};
                R_STATUS:   nb_rdata_o <= {28'd0, status_o};
                R_ROUND:    nb_rdata_o <= {{(32 - RW){1'b0}}, round_q};
                R_CYCLE:    nb_rdata_o <= cycle_q[31:0];
                R_CYCLE_HI: nb_rdata_o <= {16'd0, hi_q};
                R_START:    nb_rdata_o <= start_q[31:0];
                R_START_HI: nb_rdata_o <= {16'd0, start_q[47:32]};
                R_END:      nb_rdata_o <= end_q[31:0];
                R_END_HI:   nb_rdata_o <= {16'd0, end_q[47:32]};
                R_RUNS:     nb_rdata_o <= {16'd0, runs_q};
                R_ERRMAP:   nb_rdata_o <= nerr_w[32*rk_q +: 32];
                R_DUR:      nb_rdata_o <= {{(32 - DW){1'b0}}, dur_nx};
                default:    nb_rdata_o <= 32'd0;
            endcase
            if (rsel_q == R_CYCLE)
                hi_q <= cycle_q[47:32];
        end
        if (nrst_i)
            hi_q <= 16'd0;
    end
`ifdef FORMAL
    // ---- Properties (make formal-seq; docs/hardware.md, "Timing of a run"
    // and "Proved properties"). Bus writes and reads are free inputs.
    // Assumed of the environment: reset in the first cycle; the host writes
    // DURATION and NROUNDS only between runs (docs/hardware.md), so here the
    // durations are any constants f_dur (no dw_i write) and the duration
    // RAM returns the word of the address it read last.
    wire f_clk = nclk_i, f_rst = nrst_i;
    `include "tn_formal_reset.vh"
    (* anyconst *) reg [ROUNDS*DW-1:0] f_dur;
    reg [RW-1:0] f_ra;                // the duration RAM's last read address
    always @(posedge nclk_i)
        if (rdur || prep_q || sw_q)
            f_ra <= rdur ? nb_off_i[RW-1:0] : prep_q ? {RW{1'b0}} : round_q + 1'b1;
    always @* begin
        assume(!dw_i);
        assume(dur_nx == f_dur[f_ra*DW +: DW]);
        if (running_o)
            assume(!(wr && nb_off_i == 20'h00011));
    end

    // Round r's last round-relative cycle: D_r - 1 (D_r < 3 counts as 3).
    function [DW-1:0] f_last(input [RW-1:0] r);
        f_last = (f_dur[r*DW +: DW] < 3) ? LAST3 : f_dur[r*DW +: DW] - 1'b1;
    endfunction
    wire f_end   = run_q && rcyc_q == f_last(round_q);       // a round's last cycle
    wire f_final = {1'b0, round_q} + 1'b1 >= nrounds_q;      // the run's last round
    wire f_abort = wctl && nb_wdata_i[1] && run_q;

    always @* if (f_live && !nrst_i) begin
        // a start is taken only between runs; a round's end and an abort
        // are announced (fin) in the cycle after
        assert(prep_n_o == ((wctl && nb_wdata_i[0] && !run_q && !prep_q) || (prep_q && !pp_q)));
        if (pp_q)
            assert(prep_q);
        assert(fin_n_o == (f_end || f_abort));
        // (invariants: a run is in one of its rounds, inside its duration,
        // with the next round's duration read ahead)
        if (run_q)
            assert(round_q < nrounds_q && rcyc_q <= f_last(round_q) &&
                   f_ra == round_q + (sw_q ? 1'b0 : 1'b1) && (sw_q || dlast_q == f_last(round_q)));
        if (sw_q)
            assert(run_q && rcyc_q == 0);
        if (prep_q)
            assert(!run_q && !sw_q);
        if (run_q)
            assert(!prep_q && !done_q && !abrt_q);
        assert(!(done_q && abrt_q));
        assert(nrounds_q >= 1 && nrounds_q <= ROUNDS);
    end
    always @(posedge nclk_i)
        if (f_live && !$past(nrst_i) && !nrst_i) begin
            // prep lasts two cycles; the cycle after is the switch into round 0
            if ($past(prep_q && !pp_q))
                assert(prep_q && pp_q && !run_q);
            if ($past(pp_q))
                assert(sw_q && run_q && round_q == 0 && rcyc_q == 0);
            // START_CYCLE is T_0, END_CYCLE the cycle after the run's last
            // (each written at the end of that cycle)
            if ($past(sw_q && round_q == 0))
                assert(start_q == $past(cycle_q));
            if ($past(ended_q))
                assert(end_q == $past(cycle_q));
            // inside a round: the next cycle of the same round
            if ($past(run_q && !f_end && !f_abort))
                assert(run_q && !sw_q && round_q == $past(round_q) && rcyc_q == $past(rcyc_q) + 1'b1);
            // after its last cycle (D cycles after its switch): the switch
            // into the next round, or the run's end, done
            if ($past(f_end && !f_abort && !f_final))
                assert(sw_q && run_q && round_q == $past(round_q) + 1'b1);
            if ($past(f_end && !f_abort && f_final))
                assert(!run_q && done_q && !abrt_q && ended_q);
            // an abort ends the run at once
            if ($past(f_abort))
                assert(!run_q && abrt_q && !done_q && ended_q);
            if (ended_q)
                assert($past(run_q) && !run_q);
            // switches come 3 or more cycles apart (tn_ni writes a
            // record's last two words in the two cycles after its switch)
            if (sw_q)
                assert(!$past(sw_q) && ($past(nrst_i, 2) || !$past(sw_q, 2)));
            // the cycle counter counts every cycle; the round cycle holds
            // between runs once no flit is on its way
            assert(cycle_q == $past(cycle_q) + 1'b1);
            if ($past(!run_q && !prep_q && !live_i))
                assert(rcyc_q == $past(rcyc_q));
        end

    // Each property is reachable.
    always @(posedge nclk_i)
        if (f_live && !$past(nrst_i) && !nrst_i) begin
            // a three-round run of durations 2 (as 3), 0 (as 3) and 3, done
            cover(done_q && nrounds_q == 3 && f_dur[0 +: 3*DW] == {3'd3, 3'd0, 3'd2} && start_q != 0);
            cover(abrt_q && $past(round_q) == 1);    // aborted in round 1
            cover(prep_q && runs_q == 2);            // a second run starts
        end
`endif
endmodule
