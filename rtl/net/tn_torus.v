`default_nettype none
// SPDX-License-Identifier: MIT
// tn_torus: DIM_X x DIM_Y x DIM_Z torus of tn_node with wraparound links,
// the sequencer, and the configuration bus port (docs/hardware.md).
module tn_torus #(
    parameter DIM_X     = 3,    // torus size in X (1..15; 1 = no X links)
    parameter DIM_Y     = 3,    // torus size in Y
    parameter DIM_Z     = 3,    // torus size in Z
    parameter W         = 16,   // flit data width (8..32)
    parameter LANES     = 6,    // inject / eject lanes per node (1..6)
    parameter MEM_DEPTH = 4096, // flit memory words per node (power of two)
    parameter ROUNDS    = 16,   // round-table depth (power of two, 2..256)
    // Board-build reductions (docs/hardware.md, "Board builds"); the
    // defaults are the full design the simulator and the host model.
    parameter RELAY     = 1,    // 1: relay (head-routed) hardware; 0: none
    parameter MEM_BRAM  = 0,    // 1: block-RAM flit memory (needs LANES = 1)
    parameter CW        = 32,   // bits kept of counts, lengths, addresses, durations (16..32)
    parameter TW        = 48,   // timestamp bits kept in eject records (16..31 or 48)
    parameter GATHER    = 1,    // 0: no inject gather field (round field 58+l)
    parameter REC_BRAM  = 0,    // 1: eject records in block RAM (needs TW < 48, CW <= 16)
    parameter INREG     = 1,    // 0: one shared input register stage for all nodes
    parameter STAT_PIPE = 0,    // 1: node status events counted one cycle later
    parameter EPIPE     = 0     // 1: eject lanes one cycle behind the links
) (
    input  wire        clk_i,
    input  wire        rst_i,
    input  wire [31:0] bus_addr_i,
    input  wire [31:0] bus_wdata_i,
    input  wire        bus_we_i,
    input  wire        bus_re_i,
    output reg  [31:0] bus_rdata_o,
    output wire        bus_ready_o
);
    function integer clog2(input integer v);
        integer r;
        begin
            r = 0;
            while ((1 << r) < v)
                r = r + 1;
            clog2 = r;
        end
    endfunction

    localparam N   = DIM_X * DIM_Y * DIM_Z;  // nodes
    localparam AW  = clog2(MEM_DEPTH);       // memory address bits
    localparam RW  = clog2(ROUNDS);          // round index bits
    localparam FW  = W + 3;                  // flit width
    localparam LW  = 6 * FW;                 // one node's six links
    localparam ALPHA = 1;                    // round switch cost (cycles)

    // ---- bus: writes complete at once, reads after three wait cycles ----
    // (request register here, then the node's input register, then its
    // read-data register)
    // TW < 48 (board builds): two more wait cycles, in which the 48-bit
    // timestamps of eject records are rebuilt (below).
    localparam SLIM_T = TW < 48;
    reg        bwe_q, bre_q, rd1_q, rd2_q, rd3_q, rd4_q, rd5_q;
    reg [31:0] baddr_q, bwdata_q;
    // compares of the write data the lanes' descriptor tables keep (made
    // once here, as the data is accepted, and carried with it): [0] value
    // == 0, [1] == 1, [2] >= MEM_DEPTH, [3] == the last in-bounds address,
    // [4] bits 23:0 == 0 (an inject offset of 0); the value is the low CW
    // bits, as the tables keep it
    localparam [31:0] CM   = (CW >= 32) ? 32'hFFFFFFFF : ((32'd1 << CW) - 32'd1);
    localparam [31:0] EDGE = ((MEM_DEPTH - 1) < CM) ? (MEM_DEPTH - 1) : CM;
    reg [4:0]  bwf_q;
    function [4:0] wflags(input [31:0] x);
        begin
            wflags[0] = (x & CM) == 32'd0;
            wflags[1] = (x & CM) == 32'd1;
            // (MEM_DEPTH a power of two: a high bit set, an OR)
            wflags[2] = |((x & CM) >> AW);
            wflags[3] = (x & CM) == EDGE;
            wflags[4] = (x[23:0] & CM[23:0]) == 24'd0;
        end
    endfunction
    reg        bglob_q;                 // a global register
    /* verilator lint_off UNUSEDSIGNAL */ // TW < 48 only
    reg        bts_q;                   // an eject record timestamp (below)
    /* verilator lint_on UNUSEDSIGNAL */
    // no read in flight: INREG = 0 (board builds) keeps it in a register
    // of its own (busy_q: the same value, one LUT less in front of the
    // acceptance, the sequencer's decode and the tap's handshake), else the
    // OR of the read stages. busy_q is 0 after configuration, as rd1..rd5.
    reg        busy_q;
    wire       idle = (INREG == 0) ? !busy_q : !rd1_q && !rd2_q && !rd3_q && !rd4_q && !rd5_q;
    wire       wacc = bus_we_i && idle;
    wire       racc = bus_re_i && !bus_we_i && idle;

    assign bus_ready_o = wacc || (SLIM_T ? rd5_q : rd3_q);

    always @(posedge clk_i) begin
        bwe_q <= wacc;
        bre_q <= racc;
        rd1_q <= racc;
        rd2_q <= rd1_q;
        rd3_q <= rd2_q;
        rd4_q <= rd3_q && SLIM_T;
        rd5_q <= rd4_q;
        // = rd1..rd5 of the next cycle, ORed (keep in step with them)
        busy_q <= racc || rd1_q || rd2_q || (rd3_q && SLIM_T) || rd4_q;
        if (wacc || racc) begin
            bglob_q  <= bus_addr_i[31:20] == 12'hFFF;
            bts_q    <= bus_addr_i[31:20] != 12'hFFF && bus_addr_i[31:20] != 12'hFFE &&
                        bus_addr_i[19:16] == 4'd3 && !bus_addr_i[2];
            baddr_q  <= bus_addr_i;
            bwdata_q <= bus_wdata_i;
            bwf_q    <= wflags(bus_wdata_i);
        end
        if (rst_i) begin
            bwe_q <= 1'b0;
            bre_q <= 1'b0;
            rd1_q <= 1'b0;
            rd2_q <= 1'b0;
            rd3_q <= 1'b0;
            rd4_q <= 1'b0;
            rd5_q <= 1'b0;
            busy_q <= 1'b0;
        end
    end

    // ---- parameter checks: an unsupported combination fails elaboration
    // with the name of the missing module saying why ----
    generate
        if (MEM_BRAM != 0 && LANES != 1) begin : gen_chk_bram
            tn_error_MEM_BRAM_needs_LANES_1 u_err ();
        end
        if (REC_BRAM != 0 && (TW >= 48 || CW > 16)) begin : gen_chk_rec
            tn_error_REC_BRAM_needs_TW_below_48_and_CW_at_most_16 u_err ();
        end
        if (MEM_DEPTH != (1 << AW)) begin : gen_chk_depth
            tn_error_MEM_DEPTH_must_be_a_power_of_two u_err ();
        end
    endgenerate

    // ---- sequencer ----
    // Its bus inputs: the request in the cycle it is accepted (*_n) and
    // registered (the cycle after). Board builds (INREG = 0) give it the
    // request one cycle later (from the registers below, gen_nreg), so its
    // decode starts at flip-flops: every global write takes effect, and
    // every global read samples, one cycle later than at INREG = 1 (the
    // read data is still in time for rd3_q).
    wire          s_bwe_n, s_bwe, s_bre;
    wire [31:0]   s_baddr_n, s_bwdata_n, s_baddr, s_bwdata;
    wire          run_n, sw_n, fin_n, clr_n;
    wire [RW-1:0] round_n;
    /* verilator lint_off UNUSEDSIGNAL */ // one of the two unused, by INREG and TW
    wire [47:0]   cycle_n;            // the counter's next value
    wire [47:0]   cycle_q;            // the counter's register (cycle_n one cycle later)
    /* verilator lint_on UNUSEDSIGNAL */
    wire [N-1:0]  nerr;
    wire [31:0]   seq_rdata;

    tn_seq #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
             .MEM_DEPTH(MEM_DEPTH), .ROUNDS(ROUNDS), .RW(RW), .N(N), .ALPHA(ALPHA),
             .CW(CW), .PRE(INREG == 0), .LIMITS({(CW < 32) ? CW[7:0] : 8'd0, SLIM_T ? TW[7:0] : 8'd0, 10'd0, EPIPE != 0, STAT_PIPE != 0, REC_BRAM != 0,
                               GATHER == 0, MEM_BRAM != 0, RELAY == 0})) u_seq (
        .clk_i(clk_i), .rst_i(rst_i),
        .bwe_n_i(s_bwe_n), .baddr_n_i(s_baddr_n), .baddr_a_i(bus_addr_i), .bwdata_n_i(s_bwdata_n),
        .bwdata_a_i(bus_wdata_i),
        .bwe_i(s_bwe), .bre_i(s_bre), .baddr_i(s_baddr), .bwdata_i(s_bwdata),
        .brdata_o(seq_rdata), .nerr_i(nerr),
        .run_n_o(run_n), .sw_n_o(sw_n), .fin_n_o(fin_n), .clr_n_o(clr_n),
        .round_n_o(round_n), .cycle_n_o(cycle_n), .cycle_o(cycle_q));

    // ---- node inputs: registered in each node (INREG = 1) or here, once ----
    wire          n_run, n_sw, n_fin, n_clr, n_bwe, n_bre;
    wire          n_go;               // running and not a switch (run && !sw)
    wire [RW-1:0] n_round;
    wire [47:0]   n_cycle;
    wire [31:0]   n_baddr, n_bwdata;
    wire [4:0]    n_bwf;
    generate
        if (INREG != 0) begin : gen_nin
            assign {n_run, n_sw, n_fin, n_clr, n_bwe, n_bre} = {run_n, sw_n, fin_n, clr_n, bwe_q, bre_q};
            assign n_go = run_n && !sw_n;
            assign n_round  = round_n;
            assign n_cycle  = cycle_n;
            assign n_baddr  = baddr_q;
            assign n_bwdata = bwdata_q;
            assign n_bwf    = bwf_q;
            assign {s_bwe_n, s_baddr_n, s_bwdata_n} = {wacc, bus_addr_i, bus_wdata_i};
            assign {s_bwe, s_bre, s_baddr, s_bwdata} = {bwe_q, bre_q, baddr_q, bwdata_q};
        end else begin : gen_nreg
            reg          run_r, sw_r, fin_r, clr_r, bwe_r, bre_r, go_r;
            reg [RW-1:0] round_r;
            reg [31:0]   baddr_r, bwdata_r;
            reg [4:0]    bwf_r;
            always @(posedge clk_i) begin
                run_r    <= run_n;
                go_r     <= run_n && !sw_n;
                sw_r     <= sw_n;
                fin_r    <= fin_n;
                clr_r    <= clr_n;
                round_r  <= round_n;
                bwe_r    <= bwe_q;
                bre_r    <= bre_q;
                baddr_r  <= baddr_q;
                bwdata_r <= bwdata_q;
                bwf_r    <= bwf_q;
                if (rst_i) begin
                    run_r <= 1'b0;
                    go_r  <= 1'b0;
                    sw_r  <= 1'b0;
                    fin_r <= 1'b0;
                    clr_r <= 1'b0;
                    bwe_r <= 1'b0;
                    bre_r <= 1'b0;
                end
            end
            assign {n_run, n_sw, n_fin, n_clr, n_bwe, n_bre} = {run_r, sw_r, fin_r, clr_r, bwe_r, bre_r};
            assign n_go = go_r;
            assign n_round  = round_r;
            assign n_cycle  = cycle_q;     // = cycle_n registered
            assign n_baddr  = baddr_r;
            assign n_bwdata = bwdata_r;
            assign n_bwf    = bwf_r;
            assign {s_bwe_n, s_baddr_n, s_bwdata_n} = {bwe_q, baddr_q, bwdata_q};
            assign {s_bwe, s_bre, s_baddr, s_bwdata} = {bwe_r, bre_r, baddr_r, bwdata_r};
        end
    endgenerate

    // ---- nodes and links ----
    // Per-node arrays, not N-wide flat vectors (those cost O(N) per access
    // in simulation). Read data of the nodes is an OR chain: only the
    // addressed node drives non-zero data.
    /* verilator lint_off UNUSEDSIGNAL */ // outputs of size-1 dimensions are unconnected
    wire [LW-1:0] lout [0:N-1];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [LW-1:0] lin [0:N-1];
    wire [31:0]   rdata [0:N-1];   // node read data
    wire [31:0]   rchain [0:N-1] /* verilator split_var */;  // OR of read data 0..n
    /* verilator lint_off UNUSEDSIGNAL */ // TW < 48 only
    wire [31:0]   rrec [0:N-1];    // node read data of eject record reads
    wire [31:0]   rrchain [0:N-1] /* verilator split_var */;
    /* verilator lint_on UNUSEDSIGNAL */

    genvar gx, gy, gz;
    generate
        for (gz = 0; gz < DIM_Z; gz = gz + 1) begin : gen_z
            for (gy = 0; gy < DIM_Y; gy = gy + 1) begin : gen_y
                for (gx = 0; gx < DIM_X; gx = gx + 1) begin : gen_x
                    localparam ID = gx + DIM_X * (gy + DIM_Y * gz);
                    // input p comes from the node one step against direction p
                    localparam XM = (gx + DIM_X - 1) % DIM_X, XP = (gx + 1) % DIM_X;
                    localparam YM = (gy + DIM_Y - 1) % DIM_Y, YP = (gy + 1) % DIM_Y;
                    localparam ZM = (gz + DIM_Z - 1) % DIM_Z, ZP = (gz + 1) % DIM_Z;
                    localparam XMI = XM + DIM_X * (gy + DIM_Y * gz), XPI = XP + DIM_X * (gy + DIM_Y * gz);
                    localparam YMI = gx + DIM_X * (YM + DIM_Y * gz), YPI = gx + DIM_X * (YP + DIM_Y * gz);
                    localparam ZMI = gx + DIM_X * (gy + DIM_Y * ZM), ZPI = gx + DIM_X * (gy + DIM_Y * ZP);
                    if (DIM_X > 1) begin : gen_xl
                        assign lin[ID][0*FW +: FW] = lout[XMI][0*FW +: FW];
                        assign lin[ID][1*FW +: FW] = lout[XPI][1*FW +: FW];
                    end else begin : gen_xn
                        assign lin[ID][0*FW +: 2*FW] = {2*FW{1'b0}};
                    end
                    if (DIM_Y > 1) begin : gen_yl
                        assign lin[ID][2*FW +: FW] = lout[YMI][2*FW +: FW];
                        assign lin[ID][3*FW +: FW] = lout[YPI][3*FW +: FW];
                    end else begin : gen_yn
                        assign lin[ID][2*FW +: 2*FW] = {2*FW{1'b0}};
                    end
                    if (DIM_Z > 1) begin : gen_zl
                        assign lin[ID][4*FW +: FW] = lout[ZMI][4*FW +: FW];
                        assign lin[ID][5*FW +: FW] = lout[ZPI][5*FW +: FW];
                    end else begin : gen_zn
                        assign lin[ID][4*FW +: 2*FW] = {2*FW{1'b0}};
                    end
                    if (ID > 0) begin : gen_rc
                        assign rchain[ID]  = rdata[ID] | rchain[ID-1];
                        assign rrchain[ID] = rrec[ID] | rrchain[ID-1];
                    end else begin : gen_r0
                        assign rchain[ID]  = rdata[ID];
                        assign rrchain[ID] = rrec[ID];
                    end
                    tn_node #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
                              .MEM_DEPTH(MEM_DEPTH), .AW(AW), .ROUNDS(ROUNDS), .RW(RW),
                              .RELAY(RELAY), .MEM_BRAM(MEM_BRAM), .CW(CW), .TW(TW),
                              .GATHER(GATHER), .REC_BRAM(REC_BRAM), .INREG(INREG),
                              .STAT_PIPE(STAT_PIPE), .EPIPE(EPIPE)) u_node (
                        .clk_i(clk_i), .rst_i(rst_i),
                        .id_i(ID[11:0]), .coord_i({gz[3:0], gy[3:0], gx[3:0]}),
                        .run_n_i(n_run), .go_n_i(n_go), .sw_n_i(n_sw), .fin_n_i(n_fin), .clr_n_i(n_clr),
                        .round_n_i(n_round), .cycle_n_i(n_cycle),
                        .lin_i(lin[ID]), .lout_o(lout[ID]),
                        .bwe_i(n_bwe), .bre_i(n_bre), .baddr_i(n_baddr), .bwdata_i(n_bwdata), .bwf_i(n_bwf),
                        .baddr_e_i(baddr_q), .baddr_a_i(bus_addr_i), .bacc_i(wacc || racc),
                        .brdata_o(rdata[ID]), .brrec_o(rrec[ID]), .err_o(nerr[ID]));
                end
            end
        end
    endgenerate

    // ---- read data: the addressed node, or the global registers ----
    wire [31:0] node_rdata = rchain[N-1];
    /* verilator lint_off UNUSEDSIGNAL */ // TW < 48 only
    wire [31:0] node_rrec  = rrchain[N-1];  // = node_rdata in a record read (bts_q)
    /* verilator lint_on UNUSEDSIGNAL */
    reg  [31:0] rdata3;
    always @* begin
        rdata3 = 32'd0;
        if (rd3_q)
            rdata3 = bglob_q ? seq_rdata : node_rdata;
    end

    generate
        if (SLIM_T) begin : gen_ts
            // Eject record fields 0..3 carry {counted, low 31 bits} of a
            // TW-bit timestamp t: the full value is the latest cycle c <= now
            // with c = t mod 2**TW, i.e. {now_hi - (t > now_lo), t} (0 when no
            // flit was counted). Two register stages: compare, then the
            // high part, so no long carry chain sits in one cycle. now is
            // the sequencer's cycle register.
            reg            gt_q, sx_q, slo_q, shi_q;
            reg  [31:0]    x_q;
            reg  [47-TW:0] hi_q;
            reg  [31:0]    rfix_q;
            // now_hi - gt, as now_hi + (gt ? all ones : 0): no inverter in
            // front of the carry chain
            wire [47:0]    full = {hi_q + {(48-TW){gt_q}}, x_q[TW-1:0]};
            // t > now_lo: the borrow of now_lo - t (one carry chain)
            /* verilator lint_off UNUSEDSIGNAL */
            // (node_rrec: fewer terms than node_rdata in board builds)
            wire [TW:0]    tdif = {1'b0, cycle_q[TW-1:0]} - {1'b0, node_rrec[TW-1:0]};
            /* verilator lint_on UNUSEDSIGNAL */
            always @(posedge clk_i) begin
                // rd3: the node's word, compared with the counter (gt_q is
                // used for timestamps only, which are node reads)
                sx_q   <= !bts_q;
                slo_q  <= bts_q && node_rrec[31] && !baddr_q[0];
                shi_q  <= bts_q && node_rrec[31] && baddr_q[0];
                x_q    <= rdata3;
                gt_q   <= tdif[TW];
                hi_q   <= cycle_q[47:TW];
                // rd4: the full value
                rfix_q <= ({32{sx_q}} & x_q) | ({32{slo_q}} & full[31:0]) |
                          ({32{shi_q}} & {16'd0, full[47:32]});
            end
            always @* begin
                bus_rdata_o = 32'd0;
                if (rd5_q)
                    bus_rdata_o = rfix_q;
            end
        end else begin : gen_nots
            always @*
                bus_rdata_o = rdata3;
        end
    endgenerate
endmodule
