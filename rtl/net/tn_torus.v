`default_nettype none
// SPDX-License-Identifier: MIT
// tn_torus: DIM_X x DIM_Y x DIM_Z torus of tn_node (in DIM_Z planes,
// tn_plane) with wraparound links, the sequencer, and the configuration
// bus port (docs/hardware.md). Two
// clock domains: the bus clock (the port, table writes, record reads,
// INFO) and the network clock (everything that moves flits). Requests for
// network-domain registers and the flit memory cross through one toggle
// handshake; table writes and record reads do not cross (dual-clock RAMs).
// A simulator stops the network clock while net_busy_o is low, and skips
// plane z at a network edge while pbusy_o[z] is low (no run, no flit, no
// request for the plane) and at a bus edge while tbusy_o[z] is low (no
// table write or record read for the plane in flight): an edge would
// change nothing there.
module tn_torus #(
    parameter DIM_X     = 3,    // torus size in X (1..15; 1 = no X links)
    parameter DIM_Y     = 3,    // torus size in Y
    parameter DIM_Z     = 3,    // torus size in Z
    parameter W         = 16,   // flit data width (8..30)
    parameter LANES     = 6,    // inject / eject lanes per node (1..6)
    parameter MEM_DEPTH = 4096, // flit memory words per node (power of two)
    parameter ROUNDS    = 1024, // round-table and list depth (power of two, 2..2048)
    parameter RELAY     = 1,    // 1: relay (head-routed) hardware; 0: circuits only
    parameter FAULT     = 0     // 1: link fault injection, region 7 (simulation models)
) (
    input  wire        bclk_i,      // bus clock
    output wire [DIM_Z-1:0] tbusy_o, // plane z's table ports have work (the simulator evaluates them only then)
    input  wire        rst_i,       // synchronous reset, bus clock domain
    input  wire [31:0] bus_addr_i,
    input  wire [31:0] bus_wdata_i,
    input  wire        bus_we_i,
    input  wire        bus_re_i,
    output reg  [31:0] bus_rdata_o,
    output reg         bus_ready_o,
    input  wire        nclk_i,      // network clock
    output wire        net_busy_o,  // the network has work (the simulator clocks it only then)
    output wire [DIM_Z-1:0] pbusy_o, // plane z has work (the simulator evaluates it only then)
    // the nodes with work (the simulator evaluates only them; see nball_o below)
    output wire        nball_o,     // every node
    output wire [DIM_X*DIM_Y*DIM_Z-1:0] nbreq_o, // the nodes of a network-clock request
    output wire [27:0] ntab_o,      // the table stages' nodes: 2 x {valid, all, node}
    output wire [3:0]  status_o     // STATUS bits 3:0, network domain (board LEDs)
);
    localparam N   = DIM_X * DIM_Y * DIM_Z;      // nodes
    localparam AW  = $clog2(MEM_DEPTH);           // memory address bits
    localparam RW  = $clog2(ROUNDS);              // round and list index bits
    localparam DW  = (AW + 2 < 16) ? AW + 2 : 16; // durations, offsets, timestamps
    localparam BB  = $clog2(LANES);               // log2 of the memory banks
    localparam [11:0] NN = N[11:0];
    localparam [15:0] NL = LANES[15:0];
    localparam FW  = W + 3;                      // flit width
    localparam P   = DIM_X * DIM_Y;              // nodes per plane
    localparam ZB  = P * ((FW <= 32) ? 32 : 64); // a plane's Z links, one direction (a slot a node)

    // ---- parameter checks: an unsupported value fails elaboration with
    // the name of the missing module saying why ----
    generate
        if (MEM_DEPTH != (1 << AW) || MEM_DEPTH < (16 << BB) || MEM_DEPTH > 32768) begin : gen_chk_mem
            tn_error_MEM_DEPTH_must_be_a_power_of_two_from_16_banks_to_32768 u_err ();
        end
        if (ROUNDS != (1 << RW) || ROUNDS < 2 || ROUNDS > 2048) begin : gen_chk_rounds
            tn_error_ROUNDS_must_be_a_power_of_two_2_to_2048 u_err ();
        end
        if (W < 8 || W > 30) begin : gen_chk_w
            tn_error_W_must_be_8_to_30 u_err ();
        end
        if (LANES < 1 || LANES > 6) begin : gen_chk_lanes
            tn_error_LANES_must_be_1_to_6 u_err ();
        end
        if (DIM_X < 1 || DIM_X > 15 || DIM_Y < 1 || DIM_Y > 15 || DIM_Z < 1 || DIM_Z > 15) begin : gen_chk_dims
            tn_error_each_DIM_must_be_1_to_15 u_err ();
        end
    endgenerate

    // ==== bus clock domain ====
    wire [11:0] a_tgt = bus_addr_i[31:20];
    wire [3:0]  a_rg  = bus_addr_i[19:16];
    wire [15:0] a_off = bus_addr_i[15:0];
    wire a_glob = a_tgt == 12'hFFF;
    wire a_node = a_tgt < NN;
    wire a_all  = a_tgt == 12'hFFE;
    wire a_lane = (a_off >> (a_rg == 4'd4 ? RW + 2 : RW + 1)) < NL;
    wire a_info = a_glob && bus_addr_i[19:3] == 17'd0;
    wire a_dur  = a_glob && bus_addr_i[19:15] == 5'b00001 && (a_off[14:0] >> RW) == 15'd0;
    wire a_cfg  = (a_node || a_all) && a_rg == 4'd1 && (a_off >> RW) == 16'd0;
    wire a_list = (a_node || a_all) && (a_rg == 4'd2 || a_rg == 4'd3) && a_lane;
    wire a_rec  = a_node && a_rg == 4'd4 && a_lane;
    // what crosses to the network clock
    wire a_nreg = (a_glob && !a_info && !a_dur) ||
                  ((a_node || a_all) && (a_rg == 4'd0 || a_rg == 4'd5 || a_rg == 4'd6)) ||
                  (FAULT != 0 && a_node && a_rg == 4'd7);
    wire a_xw   = a_nreg;
    wire a_xr   = a_nreg || a_dur || ((a_cfg || a_list) && a_node);

    localparam [1:0] S_IDLE = 2'd0, S_RWAIT = 2'd1, S_XWAIT = 2'd2;
    reg [1:0]  st_q;
    reg [1:0]  rcnt_q;
    // the last word 0 of a list entry written, held until the next one:
    // the planes' nodes take it when word 1 writes the entry
    /* verilator lint_off UNUSEDSIGNAL */ // the fields of word 0 that are kept
    reg [31:0] wlat_q;
    /* verilator lint_on UNUSEDSIGNAL */
    reg        ctog_q, cwe_q;          // crossing: request toggle, write
    reg [31:0] caddr_q, cwdata_q;      // crossing: held request
    reg        as1_q, as2_q;           // the network side's ack toggle, synchronised
    wire       natog;                  // (network clock) ack toggle
    wire [31:0] nrd;                   // (network clock) read data, held

    // table writes and record reads: registered by the addressed plane on
    // its table clock in the cycle of acceptance (gen_z); a duration is
    // written into the sequencer's RAM at that edge
    wire [DIM_Z-1:0] rrz;             // the plane of the last record read (its answer's; gen_z)
    reg          info_q;
    reg [2:0]    info_a_q;
    wire [31:0]  prr [0:DIM_Z-1];     // each plane's record word (the addressed one's: rrz)
    integer      k, kz;

    localparam [31:0] PARAMS = {14'd0, FAULT != 0, RELAY != 0, 3'd0, DW[4:0], 4'd0, BB[3:0]};
    function [31:0] info(input [2:0] a);
        case (a)
            3'd0: info = 32'h00040000;
            3'd1: info = DIM_X | (DIM_Y << 8) | (DIM_Z << 16);
            3'd2: info = W;
            3'd3: info = LANES;
            3'd4: info = MEM_DEPTH;
            3'd5: info = ROUNDS;
            3'd6: info = 32'd1;          // ALPHA
            default: info = PARAMS;
        endcase
    endfunction

    // A crossing write is accepted (ready) when it is issued and is in
    // flight until its ack toggle comes back; no request is accepted while
    // one is in flight, so requests take effect in the order issued.
    wire fly  = ctog_q != as2_q;
    wire idle = st_q == S_IDLE && !fly;
    wire acc  = idle && (bus_we_i || bus_re_i);
    wire xreq = bus_we_i ? a_xw : a_xr;     // the request crosses
    reg  nr1_q, nr2_q;                     // the network's reset, synchronised
    wire xok  = !rlvl_q && !nr2_q;         // the network is out of reset
    always @* begin
        bus_ready_o = 1'b0;
        bus_rdata_o = 32'd0;
        kz = 0;
        case (st_q)
            S_IDLE:  bus_ready_o = idle && bus_we_i && (!a_xw || xok);
            S_RWAIT:
                if (rcnt_q == 2'd0) begin
                    bus_ready_o = 1'b1;
                    if (info_q)
                        bus_rdata_o = info(info_a_q);
                    else
                        for (kz = 0; kz < DIM_Z; kz = kz + 1)
                            if (rrz[kz])    // (the others hold their last word)
                                bus_rdata_o = bus_rdata_o | prr[kz];
                end
            S_XWAIT: begin
                bus_ready_o = as2_q == ctog_q;
                bus_rdata_o = nrd;
            end
            default: ;
        endcase
    end

    // reset of the network domain: the bus reset, stretched
    reg [2:0] rcnt8_q;
    reg       rlvl_q;
    always @(posedge bclk_i) begin
        rcnt8_q <= rst_i ? 3'd7 : (rcnt8_q != 3'd0) ? rcnt8_q - 1'b1 : 3'd0;
        rlvl_q  <= rst_i || rcnt8_q != 3'd0;
    end

    always @(posedge bclk_i) begin
        as1_q <= natog;
        as2_q <= as1_q;
        nr1_q <= nrst;
        nr2_q <= nr1_q;
        if (acc && bus_we_i && a_list && !a_off[0])
            wlat_q <= bus_wdata_i;
        if (acc && !bus_we_i) begin
            info_q    <= a_info;
            info_a_q  <= bus_addr_i[2:0];
        end
        case (st_q)
            S_IDLE:
                if (acc && xreq) begin
                    if (xok) begin  // (else the request waits)
                        if (!bus_we_i)
                            st_q <= S_XWAIT;
                        caddr_q  <= bus_addr_i;
                        cwdata_q <= bus_wdata_i;
                        cwe_q    <= bus_we_i;
                        ctog_q   <= !ctog_q;
                    end
                end else if (acc && !bus_we_i) begin
                    // INFO or a record word: the plane takes the request,
                    // the node reads its RAM, then registers the lane's
                    // word, which the plane selects
                    st_q   <= S_RWAIT;
                    rcnt_q <= 2'd2;
                end
            S_RWAIT: begin
                rcnt_q <= rcnt_q - 1'b1;
                if (rcnt_q == 2'd0)
                    st_q <= S_IDLE;
            end
            S_XWAIT:
                if (as2_q == ctog_q)
                    st_q <= S_IDLE;
            default: st_q <= S_IDLE;
        endcase
        if (rst_i) begin
            st_q     <= S_IDLE;
            ctog_q   <= 1'b0;
        end
    end

    // a table entry is written by its last word (word 1 of a list entry)
    wire tw_now = acc && bus_we_i && (a_cfg || (a_list && a_off[0]));
    wire rr_now = acc && !bus_we_i && a_rec;

    // ==== network clock domain ====
    // reset: the stretched bus reset through a synchroniser, then held for
    // four more cycles
    reg       rs1_q, rs2_q;
    reg [1:0] nhold_q;
    wire      nrst = rs2_q || nhold_q != 2'd0;
    always @(posedge nclk_i) begin
        rs1_q   <= rlvl_q;
        rs2_q   <= rs1_q;
        nhold_q <= rs2_q ? 2'd3 : (nhold_q != 2'd0) ? nhold_q - 1'b1 : 2'd0;
    end

    // the crossing: a request toggle seen through a synchroniser becomes a
    // one-cycle request on the network bus. A write is acknowledged (the
    // ack toggle) at the edge that registers it: the bus side may then
    // change its held request, and the network takes its requests in
    // order, so any later one sees the write. A read's answer, two cycles
    // after the planes, is held (nrd) and then acknowledged.
    reg        t1_q, t2_q, t3_q, ntog_q, natog_q;
    reg        nb_we_q, nb_re_q, p1_q, p2_q, p3_q, p4_q;
    reg [3:0]  rp_q;                     // a read in stage 1..4 (its answer held at 4)
    reg [N-1:0] nb_hit_q;                // the nodes the request is for
    reg [DIM_Z-1:0] psel_q;              // ... and the planes (tn_plane's nb_we_i, nb_re_i)
    reg        nall_q;                   // ... and every node (a global or link fault write)
    reg [31:0] nrd_q;
    wire       nreq = t2_q != t3_q && !nrst;
    // (nrd_or and nhit: blocking temporaries, assigned only for a read and
    // a request: a simulator computes them only then, not every bus cycle)
    /* verilator lint_off BLKSEQ */
    wire [11:0] nb_tgt = caddr_q[31:20];  // held by the bus side while the request is in flight
    reg  [N-1:0] nhit;                    // the request's nodes
    // every plane takes a global write (its START or CLEAR reaches the
    // nodes through the sequencer) and a link fault write (it disarms the
    // fault of every other node)
    wire        nall = cwe_q && (nb_tgt == 12'hFFF || caddr_q[19:16] == 4'd7);
    wire [31:0] srd;                      // sequencer read data
    wire [31:0] pnrd [0:DIM_Z-1];         // each plane's read data (the addressed one's: psel_q)
    reg  [31:0] nrd_or;
    // the request as the sequencer and the planes see it, registered here
    // (so that nothing on the bus clock feeds them)
    reg  [19:0] nb_addr_q;
    reg  [31:0] nb_wdata_q;
    reg         nb_glob_q;
    assign natog = natog_q;
    assign nrd   = nrd_q;
    always @(posedge nclk_i) begin
        t1_q    <= ctog_q;
        t2_q    <= t1_q;
        t3_q    <= t2_q;
        nb_we_q <= nreq && cwe_q;
        nb_re_q <= nreq && !cwe_q;
        if (nreq) begin
            nhit = (nb_tgt == 12'hFFE && cwe_q) ? {N{1'b1}}
                 : (nb_tgt < NN) ? {{(N - 1){1'b0}}, 1'b1} << nb_tgt : {N{1'b0}};
            nb_hit_q   <= nhit;
            nb_addr_q  <= caddr_q[19:0];
            nb_wdata_q <= cwdata_q;
            nb_glob_q  <= nb_tgt == 12'hFFF;
            nall_q     <= nall;
            for (k = 0; k < DIM_Z; k = k + 1)
                psel_q[k] <= nall || nhit[k*P +: P] != {P{1'b0}};
        end
        p1_q    <= nb_we_q || nb_re_q;
        p2_q    <= p1_q;
        p3_q    <= p2_q;
        p4_q    <= p3_q;
        rp_q    <= {rp_q[2:0], nb_re_q};
        if (nreq)
            ntog_q <= t2_q;
        if (nreq && cwe_q)
            natog_q <= t2_q;
        if (rp_q[3]) begin
            nrd_or = 32'd0;
            for (k = 0; k < DIM_Z; k = k + 1)
                if (psel_q[k])          // (the others hold their last answer)
                    nrd_or = nrd_or | pnrd[k];
            nrd_q   <= (nb_tgt == 12'hFFF) ? srd : nrd_or;
            natog_q <= ntog_q;
        end
        if (nrst) begin
            t3_q    <= t2_q;
            natog_q <= t2_q;
            nb_we_q <= 1'b0;
            nb_re_q <= 1'b0;
            p1_q    <= 1'b0;
            p2_q    <= 1'b0;
            p3_q    <= 1'b0;
            p4_q    <= 1'b0;
            rp_q    <= 4'd0;
        end
    end
    /* verilator lint_on BLKSEQ */

    // ---- sequencer ----
    wire         run_n, sw_n, fin_n, prep_n, clr_n, running;
    wire [RW-1:0] round_n;
    wire [DW-1:0] rcyc_n;
    wire [10:0]  round11 = {{(11 - RW){1'b0}}, round_n};
    wire [15:0]  rcyc16 = {{(16 - DW){1'b0}}, rcyc_n};
    wire [N-1:0] nerr;
    wire [DIM_Z-1:0] pact;               // a flit is on a link of plane z
    reg  [4:0]   drain_q;                // cycles since the last flit, down from 16
    always @(posedge nclk_i)
        drain_q <= (running || |pact) ? 5'd16 : (drain_q != 5'd0) ? drain_q - 1'b1 : 5'd0;
    tn_seq #(.ROUNDS(ROUNDS), .RW(RW), .DW(DW), .N(N)) u_seq (
        .nclk_i(nclk_i), .nrst_i(nrst),
        .nb_we_i(nb_we_q), .nb_re_i(nb_re_q), .nb_glob_i(nb_glob_q),
        .nb_off_i(nb_addr_q), .nb_wdata_i(nb_wdata_q), .nb_rdata_o(srd),
        .bclk_i(bclk_i), .dw_i(acc && bus_we_i && a_dur), .dw_idx_i(bus_addr_i[RW-1:0]),
        .dw_data_i(bus_wdata_i[DW-1:0]),
        .nerr_i(nerr),
        .run_n_o(run_n), .sw_n_o(sw_n), .fin_n_o(fin_n), .prep_n_o(prep_n), .clr_n_o(clr_n),
        .round_n_o(round_n), .rcyc_n_o(rcyc_n),
        .live_i(drain_q != 5'd0), .running_o(running), .status_o(status_o));

    // the network has work: reset, a crossing in flight, a run, or a flit
    // anywhere in the last 16 cycles (drain_q)
    wire   nwork = rlvl_q || rs1_q || rs2_q || nrst || running || drain_q != 5'd0;
    assign net_busy_o = nwork || ctog_q != natog_q || nb_we_q || nb_re_q || p1_q || p2_q || p3_q || p4_q;
    // plane z has work: the network's (reset, a run, flits), or a request
    // for it from the cycle it reaches the plane's inputs until the last
    // cycle in which it changes one of the plane's registers (a write: the
    // next, when the node writes; a read: three cycles later, when the
    // plane takes the node's answer). Outside these cycles every register
    // of the plane holds its value: its sequencer inputs are constant
    // (rcyc holds, tn_seq), no flit moves, and its bus inputs are masked
    // (psel_q).
    // (a read's stages from rp_q: the bus side may hold the next request,
    // of either kind, while a write's stages run)
    wire   preq = nb_we_q || nb_re_q || p1_q || rp_q[1] || rp_q[2];
    assign pbusy_o = {DIM_Z{nwork}} | ({DIM_Z{preq}} & psel_q);
    // Node k has work at the next edge of its plane's network or table
    // clock: every node in the stretched reset and while the network has
    // work, and in the cycles its plane has one, a global or link fault
    // write (CLEAR reaches the nodes through the sequencer) or a request
    // for it (nball_o, nbreq_o: network-clock registers only, so a
    // simulator evaluates them on network edges, not every bus cycle), or
    // table work for it: a table write or record read in the cycle of its
    // acceptance and in the next (the node writes its table or reads its
    // record RAM), each stage as {valid, every node, node} (ntab_o, from
    // the bus side's registers and the request presented).
    // A node that is not addressed only sees the plane's shared request
    // registers change, which none of its registers and outputs follow
    // without its own request bit: a simulator that skips a node's
    // evaluation at any other edge simulates the same design
    // (docs/hardware.md, "Clocks and reset").
    assign nball_o = rlvl_q || nwork || (preq && nall_q);
    assign nbreq_o = preq ? nb_hit_q : {N{1'b0}};
    wire [13:0] tb0 = {tw_now || rr_now, a_all, a_tgt};
    reg  [13:0] tb1_q;
    always @(posedge bclk_i)
        tb1_q <= tb0;
    assign ntab_o = {tb1_q, tb0};

    // ---- planes and their Z links ----
    /* verilator lint_off UNUSEDSIGNAL */ // unconnected when DIM_Z = 1
    wire [ZB-1:0] zup [0:DIM_Z-1];       // each plane's up (Z+) and down (Z-) outputs
    wire [ZB-1:0] zdn [0:DIM_Z-1];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [P-1:0]  perr [0:DIM_Z-1];
    genvar gz, gk;
    generate
        for (gz = 0; gz < DIM_Z; gz = gz + 1) begin : gen_z
            // Z links: a node's input 4 (from Z+ travel) is the output 4 of
            // the node below it, its input 5 the output 5 of the node above
            localparam ZM = (gz + DIM_Z - 1) % DIM_Z, ZP = (gz + 1) % DIM_Z;
            wire [ZB-1:0] zup_in, zdn_in;
            if (DIM_Z > 1) begin : gen_zl
                assign zup_in = zup[ZM];
                assign zdn_in = zdn[ZP];
            end else begin : gen_zn
                assign zup_in = {ZB{1'b0}};
                assign zdn_in = {ZB{1'b0}};
            end
            // The plane's table writes and record reads: the request as
            // presented in the cycle it is accepted (the addressed node, the
            // address and data), which the plane registers on its table
            // clock; a list entry's word 0 from wlat_q, which holds it. That clock runs in the cycle of acceptance (tbusy_o
            // depends on the request presented), in the next (the node
            // writes its table or reads its record RAM), and in the
            // stretched reset. Nothing but those registers depends on
            // these plane inputs: a simulator evaluates what a plane input
            // feeds on every edge of the clock of the logic that drives it,
            // here the bus clock, so only the plane's copies of its inputs
            // run every bus cycle, not its nodes' copies of the registers.
            // (Nothing here may depend on a top-level input such as rst_i:
            // a simulator would evaluate it, and all that depends on it,
            // on every change of the host's byte input.)
            localparam ZFIRST = gz * P;                  // the plane's first node
            localparam [11:0] Z_LO = ZFIRST[11:0], PP = P[11:0];
            wire [11:0]   a_rel = a_tgt - Z_LO;
            wire          in_z = a_node && a_rel < PP;  // the addressed node is in the plane
            wire          tw_sel = tw_now && (a_all || in_z);
            wire          rr_sel = rr_now && in_z;
            reg           tw_zq, rr_zq;            // the cycle after acceptance
            always @(posedge bclk_i) begin
                tw_zq <= tw_sel;
                rr_zq <= rr_sel;
            end
            assign tbusy_o[gz] = rlvl_q || tw_sel || rr_sel || tw_zq || rr_zq;
            reg           rrz_q;
            always @(posedge bclk_i)
                if (acc && !bus_we_i)
                    rrz_q <= rr_sel;
            assign rrz[gz] = rrz_q;
            for (gk = 0; gk < P; gk = gk + 1) begin : gen_k
                assign nerr[gz*P + gk] = perr[gz][gk];
            end
            tn_plane #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
                       .MEM_DEPTH(MEM_DEPTH), .ROUNDS(ROUNDS), .RELAY(RELAY),
                       .FAULT(FAULT)) u_plane (
                .nclk_i(nclk_i), .nrst_i(nrst), .z_i(gz[3:0]),
                .run_n_i(run_n), .sw_n_i(sw_n), .fin_n_i(fin_n), .prep_n_i(prep_n), .clr_n_i(clr_n),
                .round_n_i(round11), .rcyc_n_i(rcyc16),
                .zup_i(zup_in), .zdn_i(zdn_in), .zup_o(zup[gz]), .zdn_o(zdn[gz]),
                .nb_we_i(nb_we_q && psel_q[gz]), .nb_re_i(nb_re_q && psel_q[gz]),
                .nb_hit_i(nb_hit_q[gz*P +: P]),
                .nb_addr_i(nb_addr_q), .nb_wdata_i(nb_wdata_q), .nb_rdata_o(pnrd[gz]),
                .bclk_i(bclk_i), .tw_i(tw_sel), .rr_i(rr_sel),
                .all_i(a_all), .sel_i(a_rel[7:0]),
                .addr_i(bus_addr_i[19:0]), .wdata_i(bus_wdata_i), .w0_i(wlat_q), .rr_data_o(prr[gz]),
                .err_o(perr[gz]), .act_o(pact[gz]));
        end
    endgenerate
endmodule
