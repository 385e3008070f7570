`default_nettype none
// SPDX-License-Identifier: MIT
// tn_seq: sequencer and global registers: 48-bit cycle counter, round table,
// start / abort / clear, status, INFO constants, per-node error map.
module tn_seq #(
    parameter DIM_X     = 3,     // torus size in X
    parameter DIM_Y     = 3,     // torus size in Y
    parameter DIM_Z     = 3,     // torus size in Z
    parameter W         = 16,    // flit data width
    parameter LANES     = 6,     // lanes per node
    parameter MEM_DEPTH = 4096,  // flit memory words per node
    parameter ROUNDS    = 16,    // round-table depth
    parameter RW        = 4,     // log2(ROUNDS)
    parameter N         = 27,    // nodes
    parameter VERSION   = 32'h00010000, // design version 1.0.0
    parameter ALPHA     = 1,     // round switch cost of this design (cycles)
    parameter CW        = 32,    // bits kept of durations (board builds: fewer)
    parameter [31:0] LIMITS = 32'd0 // INFO 0x007: board reductions (tn_torus, docs/hardware.md)
) (
    input  wire          clk_i,
    input  wire          rst_i,
    // configuration bus (registered request, one cycle pulse)
    input  wire          bwe_i,
    input  wire          bre_i,
    input  wire [31:0]   baddr_i,
    input  wire [31:0]   bwdata_i,
    // baddr_i decoded when the request was registered: CTRL, NROUNDS, DURATION
    input  wire          bctl_i,
    input  wire          bnr_i,
    input  wire          bdur_i,
    output reg  [31:0]   brdata_o,   // read data from the cycle after bre_i on
    input  wire [N-1:0]  nerr_i,     // node n has an error flag set
    // to every node, as the values for the next cycle (each node registers
    // them, so that in a cycle every node sees the sequencer's state):
    output reg           run_n_o,    // running
    output reg           sw_n_o,     // first (switch) cycle of round round_n_o
    output reg           fin_n_o,    // the previous cycle was a round's last
    output reg           clr_n_o,    // clear statistics and errors
    output reg  [RW-1:0] round_n_o,  // current round
    output reg  [47:0]   cycle_n_o   // global cycle counter
);
    reg          run_o;              // the registered state
    reg [RW-1:0] round_o;
    reg [47:0]   cycle_o;
    localparam [31:0] CM = (CW >= 32) ? 32'hFFFFFFFF : ((32'd1 << CW) - 32'd1);
    reg [31:0] dur_m [0:ROUNDS-1];

    // cycle within the round, kept as ((cycle + 1) mod 2**CW) + 1, the
    // value compared with DURATION one cycle ahead (33 bits for CW = 32)
    reg [32:0] rcyc2_q, rcyc2_d;
    reg [8:0]  nrounds_q, nrounds_d;
    reg        done_q, done_d, abrt_q, abrt_d;
    reg [47:0] start_q, start_d, end_q, end_d;
    reg [15:0] hi_q, hi_d;            // CYCLE high half latched by reading the low half
    reg [31:0] rdata_d;

    wire        gsel = baddr_i[31:20] == 12'hFFF;
    wire [19:0] goff = baddr_i[19:0];
    // "The current cycle is the last of its round" is rcyc + 1 >=
    // DURATION[round_o]; the compare is made one cycle ahead on the next
    // state (with a DURATION write of this cycle already applied), so the
    // sequencer's outputs start from a register.
    reg         endc_q, endc_d;
    reg  [31:0] dur_n;
    wire        wdur = bwe_i && bdur_i;
    wire        last = run_o && endc_q;
    wire        wctl = bwe_i && bctl_i;
    wire        start = wctl && bwdata_i[0] && !run_o;
    wire        abort = wctl && bwdata_i[1] && run_o;
    integer     k;

    always @(posedge clk_i)
        if (wdur)
            dur_m[goff[RW-1:0]] <= bwdata_i & CM;

    // Three candidates in parallel, selected late: the round continues
    // (rcyc + 2 >= D[round]), the next round begins (1 >= D[round + 1]), a
    // run starts (1 >= D[0]). After the last round the value is unused
    // (not running) until a start sets it again. Each compare is made twice,
    // against the table and against a DURATION write of this cycle, and the
    // write's round picks one: no mux sits in front of a carry chain.
    wire [31:0] wd = bwdata_i & CM;
    function le1(input [31:0] d);         // d <= 1, without a comparator
        le1 = ~|(d >> 1);
    endfunction
    function wr_hit(input [RW-1:0] r);
        wr_hit = wdur && goff[RW-1:0] == r;
    endfunction
    // AND-OR selects (not ?:) so that synthesis keeps both comparators
    wire        h_cur  = wr_hit(round_o);
    wire        ge_w   = rcyc2_q >= {1'b0, wd};
    wire        ge_m   = rcyc2_q >= {1'b0, dur_m[round_o] & CM};
    wire        c_cont = (h_cur & ge_w) | (!h_cur & ge_m);
    wire        h_0    = wr_hit({RW{1'b0}});
    wire        c_0    = (h_0 & le1(wd)) | (!h_0 & le1(dur_m[{RW{1'b0}}] & CM));
    wire        h_nx   = wr_hit(round_o + 1'b1);
    always @* begin
        dur_n  = dur_m[round_o + 1'b1] & CM;
        endc_d = c_cont;
        if (start)
            endc_d = c_0;
        else if (last && !abort)
            endc_d = (h_nx & le1(wd)) | (!h_nx & le1(dur_n));
        if (rst_i)
            endc_d = 1'b0;
    end

    always @* begin
        cycle_n_o   = cycle_o + 48'd1;
        run_n_o     = run_o;
        sw_n_o      = 1'b0;
        fin_n_o     = 1'b0;
        clr_n_o     = wctl && bwdata_i[2];
        round_n_o   = round_o;
        rcyc2_d   = {1'b0, rcyc2_q[31:0] & CM} + 33'd1;
        nrounds_d = nrounds_q;
        done_d    = done_q;
        abrt_d    = abrt_q;
        start_d   = start_q;
        end_d     = end_q;
        if (bwe_i && bnr_i)
        begin
            nrounds_d = bwdata_i[8:0];
            if (bwdata_i == 32'd0)
                nrounds_d = 9'd1;
            else if (bwdata_i > ROUNDS)
                nrounds_d = ROUNDS[8:0];
        end
        if (abort) begin
            run_n_o  = 1'b0;
            fin_n_o  = 1'b1;
            abrt_d = 1'b1;
            end_d  = cycle_o + 48'd1;
        end else if (last) begin
            fin_n_o  = 1'b1;
            rcyc2_d = 33'd2;
            if ({{(9-RW){1'b0}}, round_o} + 9'd1 >= nrounds_q) begin
                run_n_o  = 1'b0;
                done_d = 1'b1;
                end_d  = cycle_o + 48'd1;
            end else begin
                round_n_o = round_o + 1'b1;
                sw_n_o    = 1'b1;
            end
        end
        if (start) begin
            run_n_o   = 1'b1;
            sw_n_o    = 1'b1;
            round_n_o = {RW{1'b0}};
            rcyc2_d = 33'd2;
            done_d  = 1'b0;
            abrt_d  = 1'b0;
            start_d = cycle_o + 48'd1;
        end
        if (rst_i) begin
            cycle_n_o = 48'd0;
            run_n_o   = 1'b0;
            sw_n_o    = 1'b0;
            fin_n_o   = 1'b0;
            clr_n_o   = 1'b0;
            round_n_o = {RW{1'b0}};
        end
    end

    // Global register reads.
    always @* begin
        rdata_d = brdata_o;
        hi_d = hi_q;
        if (bre_i)
            rdata_d = 32'd0;
        if (bre_i && gsel) begin
            case (goff)
                20'h000: rdata_d = VERSION;
                20'h001: rdata_d = DIM_X | (DIM_Y << 8) | (DIM_Z << 16);
                20'h002: rdata_d = W;
                20'h003: rdata_d = LANES;
                20'h004: rdata_d = MEM_DEPTH;
                20'h005: rdata_d = ROUNDS;
                20'h006: rdata_d = ALPHA;
                20'h007: rdata_d = LIMITS;
                20'h011: rdata_d = {23'd0, nrounds_q};
                20'h012: rdata_d = {28'd0, abrt_q, |nerr_i, done_q, run_o};
                20'h013: rdata_d = {{(32-RW){1'b0}}, round_o};
                20'h014: begin
                    rdata_d = cycle_o[31:0];
                    hi_d = cycle_o[47:32];
                end
                20'h015: rdata_d = {16'd0, hi_q};
                20'h016: rdata_d = start_q[31:0];
                20'h017: rdata_d = {16'd0, start_q[47:32]};
                20'h018: rdata_d = end_q[31:0];
                20'h019: rdata_d = {16'd0, end_q[47:32]};
                default: begin
                    if ((goff >> RW) == (20'h100 >> RW))   // 0x100 .. 0x100 + ROUNDS - 1
                        rdata_d = dur_m[goff[RW-1:0]] & CM;
                    for (k = 0; k < N; k = k + 1)
                        if ({12'd0, goff} == 32'h800 + k / 32)
                            rdata_d[k % 32] = nerr_i[k];
                end
            endcase
        end
    end

    always @(posedge clk_i) begin
        cycle_o   <= cycle_n_o;
        run_o     <= run_n_o;
        round_o   <= round_n_o;
        rcyc2_q   <= rcyc2_d;
        endc_q    <= endc_d;
        nrounds_q <= nrounds_d;
        done_q    <= done_d;
        abrt_q    <= abrt_d;
        start_q   <= start_d;
        end_q     <= end_d;
        hi_q      <= hi_d;
        brdata_o  <= rdata_d;
        if (rst_i) begin
            cycle_o   <= 48'd0;
            run_o     <= 1'b0;
            round_o   <= {RW{1'b0}};
            rcyc2_q   <= 33'd2;
            endc_q    <= 1'b0;
            nrounds_q <= 9'd1;
            done_q    <= 1'b0;
            abrt_q    <= 1'b0;
            start_q   <= 48'd0;
            end_q     <= 48'd0;
            hi_q      <= 16'd0;
        end
    end
endmodule
