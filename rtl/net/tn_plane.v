`default_nettype none
// SPDX-License-Identifier: MIT
// tn_plane: the DIM_X x DIM_Y nodes of one z plane of the torus and the
// registers between them: every input of the plane is registered once
// here (the sequencer's state, the buses, the Z links that arrive), and
// so are the X and Y links (at the sender); the Z links leave unregistered
// and are registered by the plane they reach. So every hop has exactly one
// register, and the nodes work from registers only. Every plane is the
// same module (its z is an input): the simulator has one copy of its code
// for all planes (sim/tn_sim_build.sh), and no node logic depends on a
// plane input directly. It also packs table writes for its
// nodes' RAMs and returns the addressed node's read data and record word.
module tn_plane #(
    parameter DIM_X     = 3,    // torus size in X
    parameter DIM_Y     = 3,    // torus size in Y
    parameter DIM_Z     = 3,    // torus size in Z
    parameter W         = 16,   // flit data width
    parameter LANES     = 6,    // inject and eject lanes per node
    parameter MEM_DEPTH = 4096, // flit memory words per node
    parameter ROUNDS    = 1024, // round-table and list depth
    parameter RELAY     = 1,    // 1: relay hardware
    parameter FAULT     = 0,    // 1: link fault injection (region 7)
    parameter ZB = DIM_X * DIM_Y * ((W + 3 <= 32) ? 32 : 64)  // a plane's Z links in one direction
) (
    input  wire                      nclk_i,
    input  wire                      nrst_i,
    input  wire [3:0]                z_i,       // this plane's z
    // sequencer: the values its registers take at the next edge
    input  wire                      run_n_i,
    input  wire                      sw_n_i,
    input  wire                      fin_n_i,
    input  wire                      prep_n_i,
    input  wire                      clr_n_i,
    /* verilator lint_off UNUSEDSIGNAL */ // the low log2(ROUNDS), DW bits
    input  wire [10:0]               round_n_i,
    input  wire [15:0]               rcyc_n_i,
    /* verilator lint_on UNUSEDSIGNAL */
    // Z links, node k = x + DIM_X*y in slot k (32 bits, 64 if W > 29; the
    // flit in the low W+3): up, its port 4 (travelling Z+), and down, its
    // port 5 (Z-). A node's input 4 is the up output of the node below,
    // its input 5 the down output of the node above: tn_torus connects
    // whole vectors, so a simulator passes them on without a copy.
    /* verilator lint_off UNUSEDSIGNAL */ // the slots' padding
    input  wire [ZB-1:0]             zup_i,     // the plane below's zup_o
    input  wire [ZB-1:0]             zdn_i,     // the plane above's zdn_o
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [ZB-1:0]             zup_o,
    output wire [ZB-1:0]             zdn_o,
    // network-clock bus: a one-cycle request for the nodes in nb_hit_i; the
    // addressed node's read data in nb_rdata_o four cycles later (0 if the
    // node is not in this plane)
    input  wire                      nb_we_i,
    input  wire                      nb_re_i,
    input  wire [DIM_X*DIM_Y-1:0]    nb_hit_i,
    input  wire [19:0]               nb_addr_i, // region and offset
    input  wire [31:0]               nb_wdata_i,
    output reg  [31:0]               nb_rdata_o,
    // bus-clock table writes and record reads, as accepted in this cycle
    // (the table clock runs in it): a table write for node sel_i of the
    // plane (every node with all_i), or a record read of node sel_i;
    // the record word in rr_data_o from two cycles later on, until the
    // next record read of the plane
    input  wire                      bclk_i,
    input  wire                      tw_i,
    input  wire                      rr_i,
    input  wire                      all_i,
    input  wire [7:0]                sel_i,
    input  wire [19:0]               addr_i,    // region and offset
    input  wire [31:0]               wdata_i,   // this write (a list entry's word 1)
    input  wire [31:0]               w0_i,      // word 0 of the entry: held until the node writes
    output wire [31:0]               rr_data_o,
    output wire [DIM_X*DIM_Y-1:0]    err_o,     // node k has a status flag set
    output wire                      act_o      // a flit is on some link of the plane
);
    // widths derived from the parameters (as in tn_torus)
    localparam P   = DIM_X * DIM_Y;                 // nodes in the plane
    localparam AW  = $clog2(MEM_DEPTH);              // flit memory address bits
    localparam RW  = $clog2(ROUNDS);                 // round and list index bits
    localparam DW  = (AW + 2 < 16) ? AW + 2 : 16;   // round-relative cycle bits
    localparam BB  = $clog2(LANES);                  // log2 of the flit memory banks
    localparam FW  = W + 3;                         // flit width

    // ---- input registers: the sequencer's state as every node sees it ----
    reg          run_q, sw_q, fin_q, prep_q, clr_q;
    reg [RW-1:0] round_q;
    reg [DW-1:0] rcyc_q;               // round-relative cycle: 0 in a switch cycle
    reg [DW-1:0] rold_q;               // ... of the round before, in a switch cycle
    reg [3:0]    epoch_q;              // runs started, mod 16
    always @(posedge nclk_i) begin
        run_q   <= run_n_i;
        sw_q    <= sw_n_i;
        fin_q   <= fin_n_i;
        prep_q  <= prep_n_i;
        clr_q   <= clr_n_i;
        round_q <= round_n_i[RW-1:0];
        rcyc_q  <= rcyc_n_i[DW-1:0];
        if (sw_n_i)                    // (read in a switch cycle only; so it
            rold_q <= rcyc_q + 1'b1;   //  holds in a quiet cycle, as rcyc_q)
        if (prep_n_i && !prep_q)       // (a run's first prep cycle)
            epoch_q <= epoch_q + 1'b1;
        if (nrst_i) begin
            run_q   <= 1'b0;
            sw_q    <= 1'b0;
            fin_q   <= 1'b0;
            prep_q  <= 1'b0;
            clr_q   <= 1'b0;
            epoch_q <= 4'd0;
        end
    end
    // a cycle relative to the active eject descriptors' round
    wire [DW-1:0] ts = sw_q ? rold_q : rcyc_q;

    // ---- input registers: the buses ----
    reg         nbw_q, nbr_q;
    reg [P-1:0] nbh_q;
    reg [19:0]  nba_q;
    reg [31:0]  nbd_q;
    always @(posedge nclk_i) begin
        nbw_q <= nb_we_i;
        nbr_q <= nb_re_i;
        if (nb_we_i || nb_re_i) begin
            nbh_q <= nb_hit_i;
            nba_q <= nb_addr_i;
            nbd_q <= nb_wdata_i;
        end
        if (nrst_i) begin
            nbw_q <= 1'b0;
            nbr_q <= 1'b0;
        end
    end
    reg [P-1:0]   twh_q, rrh_q;         // a one-cycle pulse for these nodes
    reg [19:0]    twa_q;
    reg [31:0]    twd_q;
    reg [15:0]    rro_q;
    reg [7:0]     rrs_q;                // the node of the last record read
    // (the one-hot node from sel_i here, on the plane's table clock: a
    // simulator computes it only at the plane's table edges)
    localparam [P-1:0] ONE = 1;
    always @(posedge bclk_i) begin
        twh_q <= !tw_i ? {P{1'b0}} : all_i ? {P{1'b1}} : ONE << sel_i;
        rrh_q <= rr_i ? ONE << sel_i : {P{1'b0}};
        if (tw_i) begin
            twa_q <= addr_i;
            twd_q <= wdata_i;
        end
        if (rr_i) begin
            rro_q <= addr_i[15:0];
            rrs_q <= sel_i;
        end
    end

    // ---- table writes: the request's fields for the nodes ----
    wire [3:0]  tw_rg  = twa_q[19:16];
    /* verilator lint_off UNUSEDSIGNAL */ // the lane and index bits are used
    wire [15:0] tw_off = twa_q[15:0];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [2:0]  tw_kind = {tw_rg == 4'd3, tw_rg == 4'd2, tw_rg == 4'd1};
    wire [RW-1:0] tw_idx = (tw_rg == 4'd1) ? tw_off[RW-1:0] : tw_off[RW:1];
    // the node's request fields, packed (tn_node: tw_ctl_i)
    wire [22+RW-1:0] tw_ctl = {rro_q, tw_off[RW+3:RW+1], tw_kind, tw_idx};

    // ---- the nodes and their links ----
    // Link registers: a node's X and Y outputs at the sender, the Z links
    // where they arrive (so that the plane's inputs only feed registers);
    // a flit per slot (tn_router). They change only while flits pass.
    localparam FS = (FW <= 32) ? 32 : 64;  // a flit's slot
    wire [6*FS-1:0] lout [0:P-1];       // each node's outputs (unregistered)
    wire [P-1:0]    nany;               // ... carry a flit
    (* mem2reg *) reg [4*FS-1:0] xy_q [0:P-1];       // its X and Y output links
    (* mem2reg *) reg [2*FS-1:0] z_q  [0:P-1];       // the Z links that arrive at it
    reg  [P-1:0]    xyv_q, zv_q;        // they may hold a flit
    wire [31:0]     nrd  [0:P-1];
    wire [32*P-1:0] nrr;                // each node's record word
    // Each node's id and coordinates come from registers set in reset (the
    // plane's z is an input).
    (* mem2reg *) reg [11:0] nid_q [0:P-1];
    (* mem2reg *) reg [11:0] nco_q [0:P-1];
    function [FS-1:0] slot(input [FW-1:0] f);  // a flit in its slot
        begin
            slot = {FS{1'b0}};
            slot[FW-1:0] = f;
        end
    endfunction

    // ---- link fault injection (FAULT = 1; docs/hardware.md "Link
    // faults"): region 7 of the node that sends. Word 0 {rcyc, round},
    // word 1 the XOR mask of {head, tail, data}, word 2 {valid mask, port,
    // enable}; writing word 2 of a node arms its fault and disarms any
    // other (every plane sees the write, the others with no node hit). In
    // the cycle of the round and round cycle named, the flit the port
    // sends is XORed with the mask (its valid bit too: a drop, or a flit
    // from nothing). fk is the faulty node in this cycle, registered from
    // the sequencer's next-edge values, so that it costs nothing per node.
    wire [P-1:0]    fk;                // node k's output is faulty in this cycle
    /* verilator lint_off UNUSEDSIGNAL */ // the Z slots' padding
    wire [6*FS-1:0] lflt;              // the mask in the faulty port's slot
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (FAULT != 0) begin : gen_fault
            wire           fw = nbw_q && nba_q[19:16] == 4'd7;
            reg [P-1:0]    fsel_q, fk_q;
            reg [RW-1:0]   fround_q;
            reg [DW-1:0]   frcyc_q;
            reg [W+1:0]    fmask_q;
            reg [6*FS-1:0] lflt_q;
            always @(posedge nclk_i) begin
                if (fw && nba_q[1:0] == 2'd0) begin
                    fround_q <= nbd_q[RW-1:0];
                    frcyc_q  <= nbd_q[16 +: DW];
                end
                if (fw && nba_q[1:0] == 2'd1)
                    fmask_q <= nbd_q[W+1:0];
                if (fw && nba_q[1:0] == 2'd2) begin
                    fsel_q <= nbd_q[0] ? nbh_q : {P{1'b0}};
                    lflt_q <= {6*FS{1'b0}};
                    lflt_q[nbd_q[3:1]*FS +: FW] <= {nbd_q[4], fmask_q};
                end
                fk_q <= (run_n_i && round_n_i[RW-1:0] == fround_q && rcyc_n_i[DW-1:0] == frcyc_q)
                        ? fsel_q : {P{1'b0}};
                if (nrst_i)
                    fsel_q <= {P{1'b0}};
            end
            assign fk   = fk_q;
            assign lflt = lflt_q;
        end else begin : gen_nofault
            assign fk   = {P{1'b0}};
            assign lflt = {6*FS{1'b0}};
        end
    endgenerate

    genvar gx, gy;
    generate
        for (gy = 0; gy < DIM_Y; gy = gy + 1) begin : gen_y
            for (gx = 0; gx < DIM_X; gx = gx + 1) begin : gen_x
                localparam K = gx + DIM_X * gy;
                // input p comes from the node one step against direction p
                localparam XM = (gx + DIM_X - 1) % DIM_X, XP = (gx + 1) % DIM_X;
                localparam YM = (gy + DIM_Y - 1) % DIM_Y, YP = (gy + 1) % DIM_Y;
                localparam XMI = XM + DIM_X * gy, XPI = XP + DIM_X * gy;
                localparam YMI = gx + DIM_X * YM, YPI = gx + DIM_X * YP;
                always @(posedge nclk_i) begin
                    if (nany[K] || xyv_q[K] || fk[K]) begin
                        xy_q[K]  <= fk[K] ? lout[K][0 +: 4*FS] ^ lflt[0 +: 4*FS]
                                            : lout[K][0 +: 4*FS];
                        xyv_q[K] <= nany[K] || fk[K];
                    end
                    if (zup_i[K*FS+W+2] || zdn_i[K*FS+W+2] || zv_q[K]) begin
                        z_q[K]  <= {slot(zdn_i[K*FS +: FW]), slot(zup_i[K*FS +: FW])};
                        zv_q[K] <= zup_i[K*FS+W+2] || zdn_i[K*FS+W+2];
                    end
                    if (nrst_i) begin
                        nid_q[K] <= z_i * P[11:0] + K[11:0];
                        nco_q[K] <= {z_i, gy[3:0], gx[3:0]};
                        xy_q[K]  <= {4*FS{1'b0}};
                        z_q[K]   <= {2*FS{1'b0}};
                        xyv_q[K] <= 1'b0;
                        zv_q[K]  <= 1'b0;
                    end
                end
                // its link inputs (none along a dimension of size 1): the X
                // and Y links' registers at their senders, the Z links' here
                wire [2*FS-1:0] lx = (DIM_X > 1) ? {xy_q[XPI][1*FS +: FS], xy_q[XMI][0*FS +: FS]} : {2*FS{1'b0}};
                wire [2*FS-1:0] ly = (DIM_Y > 1) ? {xy_q[YPI][3*FS +: FS], xy_q[YMI][2*FS +: FS]} : {2*FS{1'b0}};
                assign zup_o[K*FS +: FS] = slot(fk[K] ? lout[K][4*FS +: FW] ^ lflt[4*FS +: FW]
                                                      : lout[K][4*FS +: FW]);
                assign zdn_o[K*FS +: FS] = slot(fk[K] ? lout[K][5*FS +: FW] ^ lflt[5*FS +: FW]
                                                      : lout[K][5*FS +: FW]);
                tn_node #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
                          .RELAY(RELAY), .AW(AW), .RW(RW), .DW(DW), .BB(BB)) u_node (
                    .nclk_i(nclk_i), .nrst_i(nrst_i), .id_i(nid_q[K]), .coord_i(nco_q[K]),
                    .run_i(run_q), .sw_i(sw_q), .fin_i(fin_q), .prep_i(prep_q), .clr_i(clr_q),
                    .round_i(round_q), .rcyc_i(rcyc_q), .ts_i(ts), .epoch_i(epoch_q),
                    .lin_i({z_q[K], ly, lx}), .lout_o(lout[K]), .lany_o(nany[K]),
                    .nb_w_i(nbw_q && nbh_q[K]), .nb_r_i(nbr_q && nbh_q[K]),
                    .nb_rg_i(nba_q[19:16]), .nb_off_i(nba_q[15:0]), .nb_wdata_i(nbd_q),
                    .nb_rdata_o(nrd[K]),
                    .bclk_i(bclk_i), .tw_i(twh_q[K]), .rr_i(rrh_q[K]),
                    .tw_ctl_i(tw_ctl), .tw_data_i({twd_q, w0_i}),
                    .rr_data_o(nrr[32*K +: 32]), .err_o(err_o[K]));
            end
        end
    endgenerate
    assign act_o = |xyv_q || |zv_q;

    // ---- the addressed node's read data (network clock), one register
    // stage; its record word (bus clock), from the node's record RAM ----
    reg [1:0]   nbp_q;                // a read reached the nodes 1, 2 cycles ago
    reg [P-1:0] nbs_q;                // its node
    integer     nk;
    always @(posedge nclk_i) begin
        nbp_q <= {nbp_q[0], nbr_q};
        if (nbr_q)
            nbs_q <= nbh_q;
        if (nbp_q[1]) begin
            nb_rdata_o <= 32'd0;
            for (nk = 0; nk < P; nk = nk + 1)
                if (nbs_q[nk])
                    nb_rdata_o <= nrd[nk];
        end
    end
    assign rr_data_o = nrr[32*rrs_q +: 32];
endmodule
