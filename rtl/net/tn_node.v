`default_nettype none
// SPDX-License-Identifier: MIT
// tn_node: one torus node: router, network interface (flit memory, LANES
// inject and eject lanes), per-round settings, status, and its slice of the
// configuration bus (regions 0..5 of its node id; 0xFFE broadcast writes).
// Every input is registered here (links, bus, the sequencer's next-cycle
// signals), so all of the node's logic runs from its own registers: the link
// register of each hop is the receiver's lin_q.
module tn_node #(
    parameter DIM_X     = 3,    // torus size in X
    parameter DIM_Y     = 3,    // torus size in Y
    parameter DIM_Z     = 3,    // torus size in Z
    parameter W         = 16,   // flit data width
    parameter LANES     = 6,    // inject and eject lanes
    parameter MEM_DEPTH = 4096, // flit memory words
    parameter AW        = 12,   // log2(MEM_DEPTH)
    parameter ROUNDS    = 16,   // round-table depth
    parameter RW        = 4,    // log2(ROUNDS)
    parameter RELAY     = 1,    // 1: relay hardware; 0: circuits only (boards)
    parameter MEM_BRAM  = 0,    // 1: block-RAM flit memory (LANES = 1, boards)
    parameter CW        = 32,   // bits kept of counts, lengths, addresses (boards: fewer)
    parameter TW        = 48,   // timestamp bits kept in eject records (boards: fewer)
    parameter GATHER    = 1,    // 0: no inject gather field (boards)
    parameter REC_BRAM  = 0,    // 1: eject records in block RAM (boards)
    parameter INREG     = 1,    // 0: sequencer/bus inputs arrive registered (tn_torus, boards)
    parameter STAT_PIPE = 0,    // 1: status events counted one cycle later (boards)
    parameter EPIPE     = 0,    // 1: eject lanes one cycle behind the links (boards)
    parameter FW        = W + 3 // flit width on links
) (
    input  wire            clk_i,
    input  wire            rst_i,
    input  wire [11:0]     id_i,    // node id x + X*(y + Y*z)
    input  wire [11:0]     coord_i, // {z, y, x}, 4 bits each
    // sequencer: the values its registers take at the next clock edge
    input  wire            run_n_i,
    input  wire            go_n_i,  // run_n_i && !sw_n_i
    input  wire            sw_n_i,
    input  wire            fin_n_i,
    input  wire            clr_n_i,
    input  wire [RW-1:0]   round_n_i,
    input  wire [47:0]     cycle_n_i,
    // links: lout_o is registered by the neighbour's lin_q
    input  wire [6*FW-1:0] lin_i,
    output wire [6*FW-1:0] lout_o,
    // configuration bus (one cycle pulse per request)
    input  wire            bwe_i,
    input  wire            bre_i,
    input  wire [31:0]     baddr_i,
    input  wire [31:0]     bwdata_i,
    input  wire [4:0]      bwf_i,     // compares of bwdata_i (tn_torus wflags)
    /* verilator lint_off UNUSEDSIGNAL */ // block-RAM reads only
    input  wire [31:0]     baddr_e_i, // the request one cycle before baddr_q
    input  wire [31:0]     baddr_a_i, // the request as accepted (bacc_i), before baddr_e_i
    input  wire            bacc_i,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [31:0]     brdata_o,  // read data, two cycles after bre_i
    // brdata_o in an eject record read (region 3), 0 or a part of it otherwise
    output wire [31:0]     brrec_o,
    output wire            err_o      // a status flag is set
);
    // Built once by Verilator and instantiated N times (keeps build time low).
    /* verilator hier_block */
    localparam MW = W + 2;

    // ---- input registers ----
    reg            run_q, go_q, sw_q, fin_q, clr_q;
    reg [RW-1:0]   round_q;
    reg [47:0]     cycle_q;
    reg [6*FW-1:0] lin_q;
    reg            bwe_q, bre_q;
    /* verilator lint_off UNUSEDSIGNAL */ // bits 19:16 only feed the decode (INREG = 1)
    reg [31:0]     baddr_q;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [31:0]     bwdata_q;
    reg [4:0]      bwf_q;
    reg [11:0]     id_q, coord_q;     // constants, registered like every input
    integer        p;

    // The link registers are always here (one register per hop). The
    // sequencer and bus inputs are registered here too (INREG = 1), or, in
    // board builds (INREG = 0), once in tn_torus for all nodes: the same
    // pipeline stage, so the same cycle behaviour, without a copy per node.
    always @(posedge clk_i) begin
        lin_q <= lin_i;
        if (rst_i)
            for (p = 0; p < 6; p = p + 1)
                lin_q[p*FW+W+2] <= 1'b0;
    end

    generate
        if (INREG != 0) begin : gen_inreg
            always @(posedge clk_i) begin
                run_q    <= run_n_i;
                go_q     <= go_n_i;
                sw_q     <= sw_n_i;
                fin_q    <= fin_n_i;
                clr_q    <= clr_n_i;
                round_q  <= round_n_i;
                cycle_q  <= cycle_n_i;
                bwe_q    <= bwe_i;
                bre_q    <= bre_i;
                baddr_q  <= baddr_i;
                bwdata_q <= bwdata_i;
                bwf_q    <= bwf_i;
                id_q     <= id_i;
                coord_q  <= coord_i;
                if (rst_i) begin
                    run_q <= 1'b0;
                    go_q  <= 1'b0;
                    sw_q  <= 1'b0;
                    fin_q <= 1'b0;
                    clr_q <= 1'b0;
                    bwe_q <= 1'b0;
                    bre_q <= 1'b0;
                end
            end
        end else begin : gen_inwire
            always @* begin
                run_q    = run_n_i;
                go_q     = go_n_i;
                sw_q     = sw_n_i;
                fin_q    = fin_n_i;
                clr_q    = clr_n_i;
                round_q  = round_n_i;
                cycle_q  = cycle_n_i;
                bwe_q    = bwe_i;
                bre_q    = bre_i;
                baddr_q  = baddr_i;
                bwdata_q = bwdata_i;
                bwf_q    = bwf_i;
                id_q     = id_i;
                coord_q  = coord_i;
            end
        end
    endgenerate

    // ---- bus decode ----
    // The address compares of a request, bit by bit: write hit (this node
    // or 0xFFE), read hit, region 0..5 (one-hot), round index in range,
    // memory word in range, off < 32, off < 64, field < 16, field 18, field
    // 19, lane (off[5:3]) < LANES, then per lane l a field of inject lane l
    // (16+3l..18+3l, 58+l) and a field of eject lane l (40+3l..42+3l).
    // Board builds (INREG = 0) register them ahead of baddr_q, in two
    // steps (the whole-address compares when the request is accepted,
    // from baddr_a_i; the rest a cycle later from those and baddr_e_i), so
    // the decode is not in series with the writes it enables and the read
    // data it selects.
    // Read selects (one-hot, each qualified by the region and its range
    // checks; "read hit" gates the read-data register), so the read data is an AND-OR of the
    // sources with selects from registers: memory data, memory flags,
    // coordinates, id, routing field, status, then per lane l the
    // statistics of lane l, an eject descriptor field of lane l, inject
    // descriptor field k of lane l (4 bits), and the round-config fields
    // (osel 0..5, mode, esel 0..LANES-1), then the descriptor field of
    // the addressed lane (2 bits) and the eject lane field (3 bits).
    localparam RSB  = 16 + 2 * LANES;          // first read-select bit
    localparam RSL  = RSB + 6;                 // per-lane read selects
    localparam RSC  = RSL + 6 * LANES;         // round-config field selects
    localparam RSF  = RSC + 7 + LANES;         // dfield, ej_field
    localparam DECW = RSF + 6 + 9;          // + a memory write target (region 0/1, word in range),
                                            // status register k (a[4:0] == k, 0..8, one-hot)
    // In steps: bpre, the compares of the whole address (bits 0..11 of the
    // decode), bfld, the decodes of the field bits a[5:0], then bdec2,
    // everything else from those (board builds register bpre and bfld at
    // the request's acceptance and bdec2 a cycle later, so neither is deep).
    function [11:0] bpre(input [31:0] a, input [11:0] id);
        integer r;
        begin
            bpre[0] = a[31:20] == id || a[31:20] == 12'hFFE;
            bpre[1] = a[31:20] == id;
            for (r = 0; r < 6; r = r + 1)
                bpre[2 + r] = a[19:16] == r[3:0];
            bpre[8]  = (a[15:6] >> RW) == 10'd0;
            bpre[9]  = (a[15:0] >> AW) == 16'd0;
            bpre[10] = a[15:0] < 16'd32;
            bpre[11] = a[15:0] < 16'd64;
        end
    endfunction
    // bfld: [0] field < 16, [1] 18, [2] 19, [3] a[5:3] < LANES, [4+l] a
    // field of inject lane l, [4+L+l] of eject lane l, [4+2L +: 2] the
    // descriptor field of the addressed lane (df), [6+2L+l] a[5:3] == l,
    // [6+3L+r] the round-config field r (osel 0..5, mode, esel 0..L-1),
    // [13+4L+k] a[4:0] == k (the status registers 0..8)
    localparam FLW = 6 + 3 * LANES + 7 + LANES + 9;
    function [FLW-1:0] bfld(input [5:0] a);
        integer r, k;
        reg [1:0] df;
        begin
            bfld = {FLW{1'b0}};
            bfld[0] = a < 6'd16;
            bfld[1] = a == 6'd18;
            bfld[2] = a == 6'd19;
            bfld[3] = {29'd0, a[5:3]} < LANES;
            df = 2'd0;
            for (r = 0; r < LANES; r = r + 1) begin
                bfld[4 + r] = {26'd0, a} == 16 + 3*r || {26'd0, a} == 17 + 3*r ||
                              {26'd0, a} == 18 + 3*r || {26'd0, a} == 58 + r;
                bfld[4 + LANES + r] = {26'd0, a} == 40 + 3*r || {26'd0, a} == 41 + 3*r ||
                                      {26'd0, a} == 42 + 3*r;
                for (k = 0; k < 3; k = k + 1) begin
                    if ({26'd0, a} == 16 + 3*r + k)
                        df = k[1:0];
                    if ({26'd0, a} == 40 + 3*r + k)
                        df = k[1:0];
                end
                if ({26'd0, a} == 58 + r)
                    df = 2'd3;
                bfld[6 + 2*LANES + r] = {29'd0, a[5:3]} == r;
            end
            bfld[4 + 2*LANES +: 2] = df;
            for (r = 0; r < 7 + LANES; r = r + 1)
                bfld[6 + 3*LANES + r] = {26'd0, a} == ((r < 7) ? r : r + 1);
            for (r = 0; r < 9; r = r + 1)
                bfld[13 + 4*LANES + r] = {27'd0, a[4:0]} == r;
        end
    endfunction
    function [DECW-1:0] bdec2(input [11:0] pr, input [FLW-1:0] fl, input [2:0] a);
        integer r, k;
        reg [1:0] df;
        reg       rg2ok;
        begin
            bdec2 = {DECW{1'b0}};
            bdec2[11:0] = pr;
            bdec2[15:12] = fl[3:0];
            bdec2[16 +: 2*LANES] = fl[4 +: 2*LANES];
            df = fl[4 + 2*LANES +: 2];
            // read selects
            rg2ok = bdec2[4] && bdec2[8];
            bdec2[RSB + 0] = bdec2[2] && bdec2[9];
            bdec2[RSB + 1] = bdec2[3] && bdec2[9];
            bdec2[RSB + 2] = bdec2[7] && bdec2[13];
            bdec2[RSB + 3] = bdec2[7] && bdec2[14];
            bdec2[RSB + 4] = bdec2[7] && !bdec2[13] && !bdec2[14] && bdec2[11];
            bdec2[RSB + 5] = bdec2[6] && bdec2[10];
            for (r = 0; r < LANES; r = r + 1) begin
                bdec2[RSL + 6*r + 0] = bdec2[5] && bdec2[8] && fl[6 + 2*LANES + r];
                bdec2[RSL + 6*r + 1] = rg2ok && bdec2[16 + LANES + r];
                for (k = 0; k < 4; k = k + 1)
                    bdec2[RSL + 6*r + 2 + k] = rg2ok && bdec2[16 + r] && df == k[1:0];
            end
            for (r = 0; r < 7 + LANES; r = r + 1)
                bdec2[RSC + r] = rg2ok && bdec2[12] && fl[6 + 3*LANES + r];
            bdec2[RSF +: 2] = df;
            bdec2[RSF + 2 +: 3] = pr[5] ? a : {1'b0, df};   // region 3
            bdec2[RSF + 5] = bdec2[0] && bdec2[9] && (bdec2[2] || bdec2[3]);
            bdec2[RSF + 6 +: 9] = fl[13 + 4*LANES +: 9];
        end
    endfunction
    function [DECW-1:0] bdec(input [31:0] a, input [11:0] id);
        bdec = bdec2(bpre(a, id), bfld(a[5:0]), a[2:0]);
    endfunction
    /* verilator lint_off UNUSEDSIGNAL */ // some decodes only feed the read selects
    wire [DECW-1:0] dec;
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (INREG != 0) begin : gen_dec
            assign dec = bdec(baddr_q, id_q);
        end else begin : gen_dec_reg
            reg [11:0]     pre_q;
            reg [FLW-1:0]  fld_q;
            reg [DECW-1:0] dec_r;
            always @(posedge clk_i) begin
                if (bacc_i) begin
                    pre_q <= bpre(baddr_a_i, id_i);
                    fld_q <= bfld(baddr_a_i[5:0]);
                end
                dec_r <= bdec2(pre_q, fld_q, baddr_e_i[2:0]);
            end
            assign dec = dec_r;
        end
    endgenerate
    /* verilator lint_off UNUSEDSIGNAL */ // region 3 is read only (read selects)
    wire [5:0]  rg     = dec[7:2];                    // region == 0..5
    /* verilator lint_on UNUSEDSIGNAL */
    /* verilator lint_off UNUSEDSIGNAL */ // the high bits are decoded in dec
    wire [15:0] off    = baddr_q[15:0];
    wire [11:0] tgt    = baddr_q[31:20];
    /* verilator lint_on UNUSEDSIGNAL */
    wire        wsel   = bwe_q && dec[0];
    wire [5:0]  field  = off[5:0];
    wire        rok    = dec[8];                      // round index in range
    wire        olt64  = dec[11];
    wire [LANES-1:0] fin_l = dec[16 +: LANES];        // a field of inject lane l
    wire [LANES-1:0] fej_l = dec[16 + LANES +: LANES]; // a field of eject lane l
    wire [RW-1:0] rnd  = off[6 +: RW];

    reg [LANES-1:0] iwe, ewe;
    wire [1:0]      dfield   = dec[RSF +: 2];     // descriptor field of the addressed lane
    wire [2:0]      ej_field = dec[RSF + 2 +: 3];
    integer         l;
    always @* begin
        for (l = 0; l < LANES; l = l + 1) begin
            iwe[l] = wsel && rg[2] && rok && fin_l[l];
            ewe[l] = wsel && rg[2] && rok && fej_l[l];
        end
    end

    // ---- settings ----
    wire [23:0]        osel;
    wire [4*LANES-1:0] esel;
    wire [6*LANES-1:0] eoh;
    wire               dor, ron;
    wire [5:0]         rin;
    wire [LANES-1:0]   iused;
    wire [RW-1:0]      around;
    wire [95:0]        lo, hi;
    wire [5:0]         ien;
    wire [15:0]        label;
    wire [31:0]        rd2, rd5;

    tn_node_cfg #(.LANES(LANES), .ROUNDS(ROUNDS), .RW(RW), .RELAY(RELAY), .SWR(INREG == 0)) u_cfg (
        .clk_i(clk_i), .rst_i(rst_i), .sw_i(sw_q), .round_i(round_q),
        .we2_i({(7+LANES){wsel}} & dec[RSC +: 7 + LANES]),
        .we5_i(wsel && rg[5] && olt64),
        .cfg_round_i(rnd), .cfg_field_i(field), .cfg_wdata_i(bwdata_q),
        .rsel2_i(dec[RSC +: 7 + LANES]), .rdata2_o(rd2), .rdata5_o(rd5),
        .osel_o(osel), .esel_o(esel), .eoh_o(eoh), .dor_o(dor), .rin_o(rin), .iused_o(iused),
        .ron_o(ron), .around_o(around),
        .lo_o(lo), .hi_o(hi), .ien_o(ien), .label_o(label));

    // ---- memory: ports 0..LANES-1 lanes, port LANES the bus ----
    /* verilator lint_off UNUSEDSIGNAL */ // the block-RAM variant uses lane 0 and its own bus path
    wire [(LANES+1)*AW-1:0] mraddr, mwaddr;
    wire [(LANES+1)*MW-1:0] mrdata, mwdata;
    wire [LANES:0]          mwe;
    wire [LANES*AW-1:0]     mraddr_n;   // inject lanes: next cycle's word
    wire [LANES-1:0]        mhsw;       // inject lanes: a switch now fetches the eject write's word
    wire [LANES-1:0]        mfetch;     // inject lanes: fetch it
    /* verilator lint_on UNUSEDSIGNAL */
    wire [MW-1:0]           bus_old = mrdata[LANES*MW +: MW];
    wire                    bus_mwe = bwe_q && dec[RSF + 5];

    assign mraddr[LANES*AW +: AW] = off[AW-1:0];
    assign mwaddr[LANES*AW +: AW] = off[AW-1:0];
    assign mwe[LANES] = bus_mwe;
    assign mwdata[LANES*MW +: MW] = rg[0] ? {bus_old[W+1:W], bwdata_q[W-1:0]}
                                                     : {bwdata_q[0], bwdata_q[1], bus_old[W-1:0]};

    generate
        if (MEM_BRAM != 0) begin : gen_bram
            // One block RAM, registered read (LANES = 1): the inject lane
            // fetches its next word one cycle ahead; the bus reads with the
            // address of its request one cycle before the node registers it
            // (baddr_i), so the data is there when an asynchronous read would
            // be. The lane has the read port while it is active. One write
            // port: a bus write wins over an eject write in the same cycle.
            wire          bus_w  = bus_mwe;
            wire [AW-1:0] waddr  = bus_w ? off[AW-1:0] : mwaddr[0 +: AW];
            wire [MW-1:0] wdata  = bus_w ? {bwdata_q[0], bwdata_q[1], bwdata_q[W-1:0]}
                                         : mwdata[0 +: MW];
            wire          wdat   = bus_w ? rg[0] : mwe[0];
            wire          wflg   = bus_w ? rg[1] : mwe[0];
            wire [AW-1:0] raddr  = mfetch[0] ? mraddr_n[0 +: AW] : baddr_e_i[AW-1:0];
            // The read sees a write of the same edge to its word (the
            // memory is transparent) for the bus (a read right after a
            // write) and for a round's first fetch (a word ejected in the
            // last cycle of the round before, written a cycle later at
            // EPIPE = 1, leaves in this round's first cycle). The compares
            // use the address sources (registers and the round's table
            // entry), not raddr/waddr, so the hit is a few LUTs from
            // registers and its select after the read one LUT: a fetch
            // inside a round (a forward through memory within one round,
            // which no schedule makes) reads the old word.
            (* keep *) wire eqbo, eqbw, eqsw;
            assign eqbo = baddr_e_i[AW-1:0] == off[AW-1:0];       // bus read, bus write
            assign eqbw = baddr_e_i[AW-1:0] == mwaddr[0 +: AW];   // bus read, eject write
            assign eqsw = mhsw[0];                                // switch fetch, eject write
            wire          hej    = !bus_w && mwe[0];
            wire          hit_d  = (bus_w && rg[0] && eqbo) ||
                                   (hej && (mfetch[0] ? sw_q && eqsw : eqbw));
            wire          hit_f  = (bus_w && rg[1] && eqbo) ||
                                   (hej && (mfetch[0] ? sw_q && eqsw : eqbw));
            wire [MW-1:0] rdata;
            tn_ni_bram #(.W(W), .MW(MW), .DEPTH(MEM_DEPTH), .AW(AW)) u_mem (
                .clk_i(clk_i), .wdat_i(wdat), .wflg_i(wflg), .waddr_i(waddr), .wdata_i(wdata),
                .raddr_i(raddr), .hit_d_i(hit_d), .hit_f_i(hit_f), .rdata_o(rdata));
            assign mrdata = {rdata, rdata};
        end else begin : gen_ffmem
            tn_ni_mem #(.MW(MW), .DEPTH(MEM_DEPTH), .AW(AW), .WP(LANES+1), .RP(LANES+1)) u_mem (
                .clk_i(clk_i), .we_i(mwe), .waddr_i(mwaddr), .wdata_i(mwdata),
                .raddr_i(mraddr), .rdata_o(mrdata));
        end
    endgenerate

    // ---- lanes ----
    wire [LANES*FW-1:0] inj, ej;
    // The eject lanes' inputs: the router's eject lanes and the sequencer's
    // signals as the node sees them (EPIPE = 0), or both one cycle later
    // (EPIPE = 1, board builds): the lanes then work one cycle behind the
    // links on the same sequence of inputs, so a flit's record (timestamps
    // from the delayed counter), CRC and memory word are the same, and only
    // its memory write, the record's filing and the lane's status events
    // happen one cycle later. The lane's first decision on a flit starts at
    // a register instead of after the router's eject select.
    wire [LANES*FW-1:0] ej_l;
    wire                e_nrs, e_sw, e_fin, e_clr;
    wire [RW-1:0]       e_round;
    wire [47:0]         e_cycle;
    generate
        if (EPIPE != 0) begin : gen_epipe
            reg [LANES*FW-1:0] ej_q;
            reg                nrs_e, sw_e, fin_e, clr_e;
            reg [RW-1:0]       round_e;
            reg [47:0]         cycle_e;
            integer            el;
            always @(posedge clk_i) begin
                ej_q    <= ej;
                nrs_e   <= !go_q;
                sw_e    <= sw_q;
                fin_e   <= fin_q;
                clr_e   <= clr_q;
                round_e <= round_q;
                cycle_e <= cycle_q;
                if (rst_i) begin
                    for (el = 0; el < LANES; el = el + 1)
                        ej_q[el*FW+W+2] <= 1'b0;
                    nrs_e <= 1'b1;
                    sw_e  <= 1'b0;
                    fin_e <= 1'b0;
                    clr_e <= 1'b0;
                end
            end
            assign ej_l = ej_q;
            assign {e_nrs, e_sw, e_fin, e_clr, e_round, e_cycle} =
                   {nrs_e, sw_e, fin_e, clr_e, round_e, cycle_e};
        end else begin : gen_enopipe
            assign ej_l = ej;
            assign {e_nrs, e_sw, e_fin, e_clr, e_round, e_cycle} =
                   {!go_q, sw_q, fin_q, clr_q, round_q, cycle_q};
        end
    endgenerate
    wire [LANES-1:0]    irelay, ibounds, eovr, eshort, ebounds, estray;
    wire [LANES*32-1:0] ird, erd, esrd;

    genvar g;
    generate
        for (g = 0; g < LANES; g = g + 1) begin : gen_lane
            tn_ni_inject #(.W(W), .AW(AW), .DEPTH(MEM_DEPTH), .ROUNDS(ROUNDS), .RW(RW), .CW(CW),
                           .GATHER(GATHER), .SWHIT(MEM_BRAM)) u_inj (
                .clk_i(clk_i), .rst_i(rst_i), .run_i(run_q), .go_i(go_q), .sw_i(sw_q), .round_i(round_q),
                .cfg_we_i(iwe[g]), .cfg_round_i(rnd), .cfg_field_i(dfield),
                .cfg_wdata_i(bwdata_q), .cfg_wf_i(bwf_q), .cfg_rsel_i(dec[RSL + 6*g + 2 +: 4]),
                .cfg_rdata_o(ird[32*g +: 32]),
                .maddr_o(mraddr[g*AW +: AW]), .maddr_n_o(mraddr_n[g*AW +: AW]),
                .fetch_o(mfetch[g]), .hwa_i(mwaddr[g*AW +: AW]), .hsw_o(mhsw[g]), .mdata_i(mrdata[g*MW +: MW]),
                .flit_o(inj[g*FW +: FW]), .relay_o(irelay[g]), .bounds_o(ibounds[g]));
            tn_ni_eject #(.W(W), .AW(AW), .DEPTH(MEM_DEPTH), .ROUNDS(ROUNDS), .RW(RW), .CW(CW),
                          .TW(TW), .REC_BRAM(REC_BRAM)) u_ej (
                .clk_i(clk_i), .rst_i(rst_i), .nrs_i(e_nrs), .sw_i(e_sw), .fin_i(e_fin),
                .clr_i(e_clr), .round_i(e_round), .cycle_i(e_cycle), .flit_i(ej_l[g*FW +: FW]),
                .cfg_we_i(ewe[g]), .cfg_round_i(rnd), .st_round_n_i(baddr_e_i[6 +: RW]), .cfg_field_i(ej_field),
                .cfg_wdata_i(bwdata_q), .cfg_wf_i(bwf_q), .cfg_rdata_o(erd[32*g +: 32]), .st_rdata_o(esrd[32*g +: 32]),
                .mwe_o(mwe[g]), .maddr_o(mwaddr[g*AW +: AW]), .mdata_o(mwdata[g*MW +: MW]),
                .overrun_o(eovr[g]), .short_o(eshort[g]), .bounds_o(ebounds[g]), .stray_o(estray[g]));
        end
    endgenerate

    // ---- router ----
    wire [3:0] ncoll, nunrt, ndrop, coll_port;
    wire [2:0] coll_tgt;
    wire       coll;

    tn_router #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
                .RELAY(RELAY)) u_router (
        .clk_i(clk_i), .rst_i(rst_i), .sw_i(sw_q),
        .lin_i(lin_q), .lout_o(lout_o), .inj_i(inj), .inj_relay_i(irelay), .ej_o(ej),
        .osel_i(osel), .esel_i(esel), .eoh_i(eoh), .dor_i(dor), .rin_i(rin), .iused_i(iused), .ron_i(ron),
        .lo_i(lo), .hi_i(hi), .ien_i(ien), .label_i(label), .coord_i(coord_q),
        .ncoll_o(ncoll), .nunrt_o(nunrt), .ndrop_o(ndrop),
        .coll_o(coll), .coll_port_o(coll_port), .coll_tgt_o(coll_tgt));

    // ---- status ----
    wire [31:0] rd4;
    tn_node_status #(.LANES(LANES), .RW(RW), .CW(CW), .STAT_PIPE(STAT_PIPE)) u_status (
        .clk_i(clk_i), .rst_i(rst_i), .clr_i(clr_q), .around_i(around),
        .overrun_i(eovr), .short_i(eshort), .ebounds_i(ebounds), .ibounds_i(ibounds),
        .stray_i(estray), .ncoll_i(ncoll), .nunrt_i(nunrt), .ndrop_i(ndrop),
        .coll_i(coll), .coll_port_i(coll_port), .coll_tgt_i(coll_tgt),
        .we_i({8{wsel && rg[4]}} & dec[RSF + 6 +: 8]), .rsel_i(dec[RSF + 6 +: 9]), .wdata_i(bwdata_q),
        .rdata_o(rd4), .err_o(err_o));

    // ---- read data (computed only when this node is addressed) ----
    // An AND-OR of the sources with the one-hot read selects (registers in
    // board builds): no address decode in series with the data.
    wire [RSL-RSB-1:0]  rs   = dec[RSB +: RSL - RSB];
    wire [6*LANES-1:0]  rsl  = dec[RSL +: 6 * LANES];
    // The AND-OR in four parts (the flit memory's data and the round
    // configuration; constants and the inject lanes; the eject records;
    // the eject descriptors), each a 32-bit slice; the status (rd4) is the
    // fifth. Everything it reads is an argument (Icarus re-evaluates a
    // function in an always @* only when its arguments change).
    function [127:0] rdparts(input [4:0] fs, input [6*LANES-1:0] fsl,
                             input [MW-1:0] fm, input [11:0] fc, input [11:0] fid,
                             input [31:0] f2, input [31:0] f5,
                             input [LANES*32-1:0] fi, input [LANES*32-1:0] fes,
                             input [LANES*32-1:0] fe);
        integer fl;
        reg [31:0] pm, pa, ps, pe;
        begin
            pm = ({32{fs[0]}} & {{(32-W){1'b0}}, fm[W-1:0]})
               | ({32{fs[1]}} & {30'd0, fm[W], fm[W+1]})      // bit 0 head, 1 tail
               | f2;                                          // selected in u_cfg
            pa = ({32{fs[2]}} & {8'd0, 4'd0, fc[11:8], 4'd0, fc[7:4], 4'd0, fc[3:0]})
               | ({32{fs[3]}} & {20'd0, fid})
               | ({32{fs[4]}} & f5);
            ps = 32'd0;
            pe = 32'd0;
            for (fl = 0; fl < LANES; fl = fl + 1) begin
                pa = pa | fi[32*fl +: 32];                    // selected in u_inj
                ps = ps | ({32{fsl[6*fl]}} & fes[32*fl +: 32]);
                pe = pe | ({32{fsl[6*fl+1]}} & fe[32*fl +: 32]);
            end
            rdparts = {pe, ps, pa, pm};
        end
    endfunction
    // Default builds: computed in the register's block, only on a read of
    // this node (no work per cycle in the simulator). Board builds
    // (INREG = 0): each part in a register of its own (the read-hit gate is
    // their synchronous reset), ORed after the registers: the same value in
    // the same cycle, with at most about four logic levels in front of
    // each register.
    wire rhit = bre_q && dec[1];
    generate
        if (INREG != 0) begin : gen_rd
            function [31:0] or4(input [127:0] fp);
                or4 = fp[0 +: 32] | fp[32 +: 32] | fp[64 +: 32] | fp[96 +: 32];
            endfunction
            reg [31:0] rd_q;
            always @(posedge clk_i)
                if (rhit)
                    rd_q <= or4(rdparts(rs[4:0], rsl, bus_old, coord_q, id_q, rd2, rd5, ird, esrd, erd))
                          | ({32{rs[5]}} & rd4);
                else
                    rd_q <= 32'd0;
            assign brdata_o = rd_q;
            assign brrec_o  = rd_q;
        end else begin : gen_rd_split
            wire [127:0] rp = rdparts(rs[4:0], rsl, bus_old, coord_q, id_q, rd2, rd5, ird, esrd, erd);
            reg [31:0]   rdm_q, rda_q, rdt_q, rds_q, rde_q;
            always @(posedge clk_i) begin
                rdm_q <= rhit ? rp[0 +: 32] : 32'd0;
                rda_q <= rhit ? rp[32 +: 32] : 32'd0;
                rdt_q <= (rhit && rs[5]) ? rd4 : 32'd0;
                rds_q <= rhit ? rp[64 +: 32] : 32'd0;
                rde_q <= rhit ? rp[96 +: 32] : 32'd0;
            end
            assign brdata_o = rdm_q | rda_q | rdt_q | rds_q | rde_q;
            // a record read (region 3) selects the records only
            assign brrec_o  = rds_q;
        end
    endgenerate
endmodule
