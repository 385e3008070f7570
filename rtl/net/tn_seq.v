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
    parameter PRE       = 0,     // 1: address ranges decoded a cycle ahead, from baddr_a_i
    parameter [31:0] LIMITS = 32'd0 // INFO 0x007: board reductions (tn_torus, docs/hardware.md)
) (
    input  wire          clk_i,
    input  wire          rst_i,
    // configuration bus: the request as presented (the cycle it is
    // accepted, *_n_i), and registered (one cycle pulse, the cycle after);
    // board builds (tn_torus INREG = 0) give both one cycle later, from
    // tn_torus's request registers
    input  wire          bwe_n_i,    // a write is accepted in this cycle
    input  wire [31:0]   baddr_n_i,
    input  wire [31:0]   baddr_a_i,  // PRE = 1: baddr_n_i of the next cycle
    input  wire [31:0]   bwdata_n_i,
    /* verilator lint_off UNUSEDSIGNAL */ // PRE = 0
    input  wire [31:0]   bwdata_a_i, // PRE = 1: bwdata_n_i of the next cycle
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire          bwe_i,
    input  wire          bre_i,
    /* verilator lint_off UNUSEDSIGNAL */ // decoded from baddr_n_i / bwdata_n_i
    input  wire [31:0]   baddr_i,
    input  wire [31:0]   bwdata_i,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  [31:0]   brdata_o,   // read data from the cycle after bre_i on
    input  wire [N-1:0]  nerr_i,     // node n has an error flag set
    // to every node, as the values for the next cycle (each node registers
    // them, so that in a cycle every node sees the sequencer's state):
    output reg           run_n_o,    // running
    output reg           sw_n_o,     // first (switch) cycle of round round_n_o
    output reg           fin_n_o,    // the previous cycle was a round's last
    output reg           clr_n_o,    // clear statistics and errors
    output reg  [RW-1:0] round_n_o,  // current round
    output reg  [47:0]   cycle_n_o,  // global cycle counter
    output reg  [47:0]   cycle_o     // the counter's register (cycle_n_o of the last cycle)
);
    reg          run_o;              // the registered state
    reg [RW-1:0] round_o;
    localparam [31:0] CM = (CW >= 32) ? 32'hFFFFFFFF : ((32'd1 << CW) - 32'd1);
    localparam NE = (N + 31) / 32;   // ERRMAP words
    reg [31:0] dur_m [0:ROUNDS-1];   // DURATION (low CW bits)
    reg        le1_m [0:ROUNDS-1];   // DURATION[r] <= 1

    // cycle within the round, kept as ((cycle + 1) mod 2**CW) + 1, the
    // value compared with DURATION one cycle ahead (33 bits for CW = 32)
    reg [32:0] rcyc2_q, rcyc2_d;
    reg [RW:0] nrounds_q, nrounds_d;  // 1 .. ROUNDS
    reg        done_q, done_d, abrt_q, abrt_d;
    reg [47:0] start_q, end_q;
    reg [15:0] hi_q;                  // CYCLE high half latched by reading the low half
    reg        cy_q;                  // cycle_o[23:0] is all ones: the high half counts
    reg [31:0] rdata_d;
    integer    k;

    // ---- the request, decoded in the cycle it is accepted (from
    // baddr_n_i / bwdata_n_i) and registered: every flag below is used only
    // together with bwe_i / bre_i, so it needs no enable ----
    // The address is decoded in pieces of at most 4 bits, each kept, so
    // that synthesis builds a shallow tree and shares no deep logic with
    // other decoders: FFF0xxxx, then the offset's ranges. PRE = 1 (board
    // builds, where baddr_n_i is tn_torus's request register) decodes the
    // ranges (g0_n, gd_n, ge_n) one cycle ahead from baddr_a_i, the
    // request as accepted, into free-running flip-flops: in the cycle after
    // the acceptance (the only one they are used in, with bwe_n_i or to
    // register the read selects) they hold the ranges of baddr_n_i, and the
    // flags below are one or two LUTs deep.
    wire [31:0] ad = (PRE != 0) ? baddr_a_i : baddr_n_i;
    (* keep *) wire [3:0] nh_n;      // address bits 31:16 = FFF0, by nibble
    (* keep *) wire z15_n, z11_n, o11_n, e11_n, z75_n, zr_n;
    (* keep *) wire dg_n;            // global, offset < 0x10000
    (* keep *) wire d0_n;            // 0x000 .. 0x01F
    (* keep *) wire dd_n;            // 0x100 .. 0x100 + ROUNDS - 1 (DURATION)
    (* keep *) wire de_n;            // 0x800 .. 0x87F (ERRMAP)
    assign nh_n  = {ad[31:28] == 4'hF, ad[27:24] == 4'hF,
                    ad[23:20] == 4'hF, ad[19:16] == 4'h0};
    assign z15_n = ad[15:12] == 4'h0;
    assign z11_n = ad[11:8] == 4'h0;
    assign o11_n = ad[11:8] == 4'h1;
    assign e11_n = ad[11:8] == 4'h8;
    assign z75_n = ad[7:5] == 3'd0;
    assign zr_n  = (ad[7:0] >> RW) == 8'd0;
    assign dg_n  = &nh_n;
    assign d0_n  = z15_n && z11_n && z75_n;
    assign dd_n  = z15_n && o11_n && zr_n;
    assign de_n  = z15_n && e11_n && !ad[7];
    wire [4:0]  lo_n = baddr_n_i[4:0];
    // the NROUNDS clamps of the write data (all 32 bits): write data == 0,
    // > ROUNDS; with PRE = 1 a cycle ahead too (so that bwdata_n_i needs
    // only its low bits)
    wire [31:0] wda  = (PRE != 0) ? bwdata_a_i : bwdata_n_i;
    wire        wz_a = wda == 32'd0;
    wire        wb_a = |(wda >> (RW + 1)) || (wda[RW] && |wda[RW-1:0]);
    wire        g0_n, gd_n, ge_n;    // 0xFFF00000 .. 0xFFF0001F, DURATION, ERRMAP
    wire        wz_n, wb_n;
    generate
        if (PRE != 0) begin : gen_pre
            reg g0_q, gd_q, ge_q, wz_q, wb_q;
            always @(posedge clk_i) begin
                g0_q <= dg_n && d0_n;
                gd_q <= dg_n && dd_n;
                ge_q <= dg_n && de_n;
                wz_q <= wz_a;
                wb_q <= wb_a;
            end
            assign {g0_n, gd_n, ge_n, wz_n, wb_n} = {g0_q, gd_q, ge_q, wz_q, wb_q};
        end else begin : gen_nopre
            assign {g0_n, gd_n, ge_n, wz_n, wb_n} =
                {dg_n && d0_n, dg_n && dd_n, dg_n && de_n, wz_a, wb_a};
        end
    endgenerate
    wire        wc_n = bwe_n_i && !rst_i && g0_n && lo_n == 5'h10;   // a CTRL write
    reg         bst_q, bab_q, bcl_q; // CTRL written with bit 0 (start), 1 (abort), 2 (clear)
    reg         bwz_q, bwbig_q;      // write data == 0, > ROUNDS (NROUNDS clamps)
    reg         rs_c_q, rs_nr_q, rs_st_q, rs_rd_q, rs_cyc_q, rs_hi_q;  // read (NROUNDS: and write) selects
    reg         rs_s0_q, rs_s1_q, rs_e0_q, rs_e1_q, rs_dur_q;
    reg [NE-1:0] rs_err_q;
    always @(posedge clk_i) begin
        // (pulses: with bwe_n_i, as bwe_i is)
        bst_q    <= wc_n && bwdata_n_i[0];
        bab_q    <= wc_n && bwdata_n_i[1];
        bcl_q    <= wc_n && bwdata_n_i[2];
        bwz_q    <= wz_n;
        bwbig_q  <= wb_n;
        rs_c_q   <= g0_n && lo_n[4:3] == 2'd0;         // INFO 0x000 .. 0x007
        rs_nr_q  <= g0_n && lo_n == 5'h11;
        rs_st_q  <= g0_n && lo_n == 5'h12;
        rs_rd_q  <= g0_n && lo_n == 5'h13;
        rs_cyc_q <= g0_n && lo_n == 5'h14;
        rs_hi_q  <= g0_n && lo_n == 5'h15;
        rs_s0_q  <= g0_n && lo_n == 5'h16;
        rs_s1_q  <= g0_n && lo_n == 5'h17;
        rs_e0_q  <= g0_n && lo_n == 5'h18;
        rs_e1_q  <= g0_n && lo_n == 5'h19;
        rs_dur_q <= gd_n;
        for (k = 0; k < NE; k = k + 1)
            rs_err_q[k] <= ge_n && {25'd0, baddr_n_i[6:0]} == k;
    end

    // A DURATION write goes into the table at the end of the cycle it is
    // accepted, one cycle before the registered request (bwe_i) reaches
    // the sequencer. Nothing reads the table in between (the bus takes no
    // read before the write, and the sequencer's compare of that cycle is
    // for the cycle before the write counts): so in the cycle of bwe_i the
    // table already holds the write, as if the compare looked at it.
    wire        wdur_n = bwe_n_i && !rst_i && gd_n;
    wire [31:0] wd_n   = bwdata_n_i & CM;
    always @(posedge clk_i)
        if (wdur_n) begin
            dur_m[baddr_n_i[RW-1:0]] <= wd_n;
            le1_m[baddr_n_i[RW-1:0]] <= ~|(wd_n >> 1);
        end

    // "The current cycle is the last of its round" is rcyc + 1 >=
    // DURATION[round_o]; the compare is made one cycle ahead on the next
    // state, so the sequencer's outputs start from a register. Three
    // candidates: the round continues (rcyc + 2 >= D[round]), the next
    // round begins (1 >= D[round + 1]), a run starts (1 >= D[0]). After the
    // last round the value is unused (not running) until a start sets it.
    reg         endc_q, endc_d;
    wire        start = bst_q && !run_o;
    wire        abort = bab_q && run_o;
    wire        last  = run_o && endc_q;
    // the current round is the last of the run
    wire        lastr = {1'b0, round_o} + 1'b1 >= nrounds_q;
    // rcyc2 >= D as the borrow of a subtraction (one carry chain)
    /* verilator lint_off UNUSEDSIGNAL */
    wire [33:0] gdif  = {1'b0, rcyc2_q} - {2'b0, dur_m[round_o] & CM};
    /* verilator lint_on UNUSEDSIGNAL */
    wire        ge    = !gdif[33];
    // kept pieces: the select logic stays two gates deep and the compare
    // (a carry chain) enters last, in one gate
    (* keep *) wire st_k, lna_k, nx_k, kval_k, kont_k;
    assign st_k   = start && !rst_i;
    assign lna_k  = last && !abort && !rst_i;
    assign nx_k   = le1_m[round_o + 1'b1];
    assign kval_k = (st_k && le1_m[{RW{1'b0}}]) || (lna_k && nx_k);
    assign kont_k = !rst_i && !start && !(last && !abort);
    always @*
        endc_d = kval_k || (kont_k && ge);

    always @* begin
        cycle_n_o   = {cycle_o[47:24] + {23'd0, cy_q}, cycle_o[23:0] + 24'd1};
        run_n_o     = run_o;
        sw_n_o      = 1'b0;
        fin_n_o     = 1'b0;
        clr_n_o     = bcl_q;
        round_n_o   = round_o;
        rcyc2_d   = {1'b0, rcyc2_q[31:0] & CM} + 33'd1;
        nrounds_d = nrounds_q;
        done_d    = done_q;
        abrt_d    = abrt_q;
        if (bwe_i && rs_nr_q)
            nrounds_d = bwz_q ? {{RW{1'b0}}, 1'b1} : bwbig_q ? ROUNDS[RW:0] : bwdata_i[RW:0];
        if (abort) begin
            run_n_o  = 1'b0;
            fin_n_o  = 1'b1;
            abrt_d = 1'b1;
        end else if (last) begin
            fin_n_o  = 1'b1;
            rcyc2_d = 33'd2;
            if (lastr) begin
                run_n_o  = 1'b0;
                done_d = 1'b1;
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

    // Global register reads: an AND-OR of the sources under the select
    // flags decoded a cycle ahead.
    always @* begin
        rdata_d = 32'd0;
        if (rs_c_q)
            case (baddr_i[2:0])
                3'd0: rdata_d = VERSION;
                3'd1: rdata_d = DIM_X | (DIM_Y << 8) | (DIM_Z << 16);
                3'd2: rdata_d = W;
                3'd3: rdata_d = LANES;
                3'd4: rdata_d = MEM_DEPTH;
                3'd5: rdata_d = ROUNDS;
                3'd6: rdata_d = ALPHA;
                default: rdata_d = LIMITS;
            endcase
        rdata_d = rdata_d
            | ({32{rs_nr_q}}  & {{(31-RW){1'b0}}, nrounds_q})
            | ({32{rs_st_q}}  & {28'd0, abrt_q, |nerr_i, done_q, run_o})
            | ({32{rs_rd_q}}  & {{(32-RW){1'b0}}, round_o})
            | ({32{rs_cyc_q}} & cycle_o[31:0])
            | ({32{rs_hi_q}}  & {16'd0, hi_q})
            | ({32{rs_s0_q}}  & start_q[31:0])
            | ({32{rs_s1_q}}  & {16'd0, start_q[47:32]})
            | ({32{rs_e0_q}}  & end_q[31:0])
            | ({32{rs_e1_q}}  & {16'd0, end_q[47:32]})
            | ({32{rs_dur_q}} & dur_m[baddr_i[RW-1:0]] & CM);
        for (k = 0; k < N; k = k + 1)
            rdata_d[k % 32] = rdata_d[k % 32] | (rs_err_q[k / 32] & nerr_i[k]);
    end

    always @(posedge clk_i) begin
        cycle_o   <= cycle_n_o;
        cy_q      <= cycle_o[23:0] == 24'hFFFFFE;
        run_o     <= run_n_o;
        round_o   <= round_n_o;
        rcyc2_q   <= rcyc2_d;
        endc_q    <= endc_d;
        nrounds_q <= nrounds_d;
        done_q    <= done_d;
        abrt_q    <= abrt_d;
        if (start)
            start_q <= cycle_n_o;
        if (abort || (last && lastr))
            end_q   <= cycle_n_o;
        if (bre_i && rs_cyc_q)
            hi_q    <= cycle_o[47:32];
        if (bre_i)
            brdata_o <= rdata_d;
        if (rst_i) begin
            cycle_o   <= 48'd0;
            cy_q      <= 1'b0;
            run_o     <= 1'b0;
            round_o   <= {RW{1'b0}};
            rcyc2_q   <= 33'd2;
            endc_q    <= 1'b0;
            nrounds_q <= {{RW{1'b0}}, 1'b1};
            done_q    <= 1'b0;
            abrt_q    <= 1'b0;
            start_q   <= 48'd0;
            end_q     <= 48'd0;
            hi_q      <= 16'd0;
        end
    end
endmodule
