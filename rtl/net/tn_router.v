`default_nettype none
// SPDX-License-Identifier: MIT
// tn_router: six-link router. Every output and every eject lane takes its
// flit from one source (an input link, an inject lane, or nothing) named by
// an index set at the round switch (circuits), or allocated by a head flit
// and held until its tail (relay). Link inputs come from registers (every
// link has one register, tn_plane), so a flit crosses one router per
// cycle: delta = 1. Flits travel in 32-bit slots (64-bit if the flit is
// wider) with the bits above the flit 0: the simulator copies words
// instead of shifting bit fields, and synthesis removes the constant bits
// (docs/NOTES.md, "Simulation cost"). The relay logic (routing decision,
// allocation) runs only in rounds that use it.
module tn_router #(
    parameter DIM_X = 3,        // torus size in X
    parameter DIM_Y = 3,        // torus size in Y
    parameter DIM_Z = 3,        // torus size in Z
    parameter W     = 16,       // flit data width
    parameter LANES = 6,        // inject and eject lanes
    parameter RELAY = 1,        // 1: relay (head-routed) hardware; 0: circuits only
    parameter SIW   = 4,        // source index bits: 2**SIW >= 7 + LANES
    parameter FW    = W + 3,    // flit: {valid, head, tail, data}
    parameter FS    = (FW <= 32) ? 32 : 64, // a flit's slot
    parameter NIN   = 6 + LANES // sources: links 0..5, then inject lanes; NIN means none
) (
    input  wire                clk_i,
    input  wire                rst_i,
    input  wire                sw_i,        // round switch cycle: relay paths released
    /* verilator lint_off UNUSEDSIGNAL */ // the slots' unused bits
    input  wire [6*FS-1:0]     lin_i,       // link inputs, port p in slot p
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  [6*FS-1:0]     lout_o,      // link outputs (registered by tn_plane)
    output reg                 lany_o,      // some link output carries a flit
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [LANES*FS-1:0] inj_i,       // inject lanes, lane l in slot l
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [LANES-1:0]    inj_relay_i, // inject lane l is head-routed
    input  wire [3*LANES-1:0]  inj_hop_i,   // ... and its heads' output: 0..5, 6 here, 7 none
    output reg  [LANES*FS-1:0] ej_o,        // eject lanes (this cycle's flits)
    output reg                 ejany_o,     // some eject lane has a flit
    input  wire [6*SIW-1:0]    osrc_i,      // output o's circuit source (NIN: none)
    input  wire [5:0]          orel_i,      // output o is relay
    input  wire [LANES*SIW-1:0] esrc_i,     // eject lane l's circuit source
    input  wire [LANES-1:0]    erel_i,      // eject lane l is relay
    input  wire [5:0]          rin_i,       // link input p not used by a circuit
    input  wire [LANES-1:0]    iused_i,     // inject lane l selected by a circuit output
    input  wire                ron_i,       // some output or eject lane is relay
    input  wire [11:0]         coord_i,     // {z, y, x}
    output reg  [3:0]          ncoll_o,     // heads dropped on a busy output this cycle
    output reg  [3:0]          nunrt_o,     // heads dropped for lack of a route
    output reg  [3:0]          ndrop_o,     // other flits that went nowhere
    output reg                 coll_o,      // a collision this cycle (first one below)
    output reg  [3:0]          coll_port_o, // its input: 0..5 link, 8+l inject lane
    output reg  [2:0]          coll_tgt_o   // its wanted output: 0..5, 6 eject
);
    localparam [4:0] DX = DIM_X[4:0], DY = DIM_Y[4:0], DZ = DIM_Z[4:0];

    // The sources by index: links, inject lanes, then nothing. Without
    // relay hardware the head and tail flags have no use in the network and
    // do not travel: the crossbar passes them as 0.
    localparam [FW-1:0] FMASK = RELAY != 0 ? {FW{1'b1}} : {1'b1, 2'b00, {W{1'b1}}};
    wire [FW-1:0]  src [0:(1 << SIW) - 1];
    wire [NIN-1:0] srcv;                // each source's valid bit
    genvar gs;
    generate
        for (gs = 0; gs < (1 << SIW); gs = gs + 1) begin : gen_src
            if (gs < 6) begin : gen_link
                assign src[gs] = lin_i[gs*FS +: FW] & FMASK;
            end else if (gs < NIN) begin : gen_lane
                assign src[gs] = inj_i[(gs-6)*FS +: FW] & FMASK;
            end else begin : gen_none
                assign src[gs] = {FW{1'b0}};
            end
            if (gs < NIN) begin : gen_v
                assign srcv[gs] = src[gs][W+2];
            end
        end
    endgenerate
    wire any = |srcv;                   // a flit on some source

    wire [LANES-1:0] irel = RELAY != 0 ? inj_relay_i : {LANES{1'b0}};
    wire [NIN-1:0]   isrel = {irel, rin_i};
    wire             ron = RELAY != 0 && (ron_i || |irel);
    wire [3*NIN-1:0] hop = {inj_hop_i, 18'd0};   // the inject lanes' heads' routes

    // Relay paths: output o (eject lane l) is held for source own (eown).
    // (owners are indices, not states: no FSM extraction in Yosys)
    reg [5:0]         busy_q, busy_d;
    (* fsm_encoding = "none" *) reg [6*SIW-1:0]   own_q;
    reg [6*SIW-1:0]   own_d;
    reg [LANES-1:0]   ebusy_q, ebusy_d;
    (* fsm_encoding = "none" *) reg [LANES*SIW-1:0] eown_q;
    reg [LANES*SIW-1:0] eown_d;

    // Routing (docs/hardware.md, "Route"): a head from an inject lane takes
    // the output its lane's entry names (the host routes the first hop);
    // a head from a link is routed here, per dimension k (0 x, 1 y, 2 z,
    // coordinates {z, y, x} of 4 bits): DOR goes + to the coordinates at
    // most n / 2 steps ahead on a ring of size n (a tie on an even ring goes
    // +): from c they are c + 1 .. h1 (h1 = c + n / 2) and, when h1 wraps
    // (w), also 0 .. h2 (h2 = h1 - n), so each source compares instead of
    // subtracting; a six-tree hop compares the destination with this node's
    // and its neighbours' (one step + or -) coordinates. These per-node
    // values are computed once per cycle of a relay round, not per source
    // and not in other rounds. The block is written without Verilog
    // functions: a simulator inlines a function with temporaries named per
    // instance, and then no longer shares one copy of the node's code
    // among the nodes (docs/NOTES.md, "Simulation cost").
    localparam [14:0] DIMS = {DZ, DY, DX};  // the ring sizes, 5 bits each
    reg [NIN-1:0] claimed;
    reg [FW-1:0]  f;
    /* verilator lint_off UNUSEDSIGNAL */ // the head's bits above 15
    reg [31:0]    dd;                  // a head's data, zero above W
    /* verilator lint_on UNUSEDSIGNAL */
    reg [2:0]     t, tix, eq, nxeq, diff;
    reg [1:0]     fd, db, dc;          // a tree's dimensions in order
    reg [3:0]     c, v;
    reg [4:0]     n, h1;
    reg           vok;
    reg [11:0]    cup, cdn;            // the neighbours' coordinates, + and -
    reg [29:0]    chw;                 // per dimension {w, h2, h1}
    reg [3*NIN-1:0] tgt;               // each new head's route: 0..5 an output, 6 here, 7 none
    reg [NIN-1:0] rqo, rqe, unr;       // new heads for a relay output, an eject lane, unroutable
    reg [NIN-1:0] hit, low, win, lost; // heads for one output, its lowest; heads that got a path; the others
    reg [SIW-1:0] idx;                 // the index of a one-hot source vector
    integer       o, l, i, k;

    // The allocation of this cycle's relay heads (relay rounds only): each
    // relay output goes to the lowest source with a new head for it, if
    // not held; the relay eject lanes that are free go, lowest first, to the
    // new heads for this node, lowest source first. A new head that gets
    // nothing is a collision; the first of them (lowest source) is reported.
    always @* begin
        busy_d  = busy_q;
        own_d   = own_q;
        ebusy_d = ebusy_q;
        eown_d  = eown_q;
        ncoll_o = 4'd0;
        nunrt_o = 4'd0;
        coll_o  = 1'b0;
        coll_port_o = 4'd0;
        coll_tgt_o  = 3'd0;
        claimed = {NIN{1'b0}};
        f       = {FW{1'b0}};
        dd      = 32'd0;
        t       = 3'd0;
        tix     = 3'd0;
        eq      = 3'd0;
        nxeq    = 3'd0;
        diff    = 3'd0;
        fd      = 2'd0;
        db      = 2'd0;
        dc      = 2'd0;
        c       = 4'd0;
        v       = 4'd0;
        n       = 5'd0;
        h1      = 5'd0;
        vok     = 1'b0;
        cup     = 12'd0;
        cdn     = 12'd0;
        chw     = 30'd0;
        tgt     = {3*NIN{1'b0}};
        rqo     = {NIN{1'b0}};
        rqe     = {NIN{1'b0}};
        unr     = {NIN{1'b0}};
        hit     = {NIN{1'b0}};
        low     = {NIN{1'b0}};
        win     = {NIN{1'b0}};
        lost    = {NIN{1'b0}};
        idx     = {SIW{1'b0}};
        o       = 0;
        l       = 0;
        i       = 0;
        k       = 0;
        if (ron) begin
            for (k = 0; k < 3; k = k + 1) begin
                n  = DIMS[5*k +: 5];
                c  = coord_i[4*k +: 4];
                cup[4*k +: 4] = ({1'b0, c} + 5'd1 == n) ? 4'd0 : c + 4'd1;
                cdn[4*k +: 4] = (c == 4'd0) ? n[3:0] - 4'd1 : c - 4'd1;
                h1 = {1'b0, c} + {1'b0, n[4:1]};
                chw[10*k +: 10] = {h1 >= n, h1[3:0] - n[3:0], h1};
            end
            // Sources already carried by a held path.
            for (o = 0; o < 6; o = o + 1)
                if (busy_q[o])
                    claimed = claimed | ({{(NIN-1){1'b0}}, 1'b1} << own_q[o*SIW +: SIW]);
            for (l = 0; l < LANES; l = l + 1)
                if (ebusy_q[l])
                    claimed = claimed | ({{(NIN-1){1'b0}}, 1'b1} << eown_q[l*SIW +: SIW]);
            // New heads and their routes: an inject lane's from its entry;
            // a link's along six tree dd[14:12] - 1 (7: none), or by DOR
            // with dd[14:12] = 0; 7 for coordinates beyond the torus.
            for (i = 0; i < NIN; i = i + 1) begin
                f = src[i];
                if (isrel[i] && f[W+2] && f[W+1] && !claimed[i]) begin
                    if (i >= 6) begin
                        t = hop[3*i +: 3];
                    end else begin
                        dd = 32'd0;
                        dd[W-1:0] = f[W-1:0];
                        vok = {1'b0, dd[3:0]} < DX && {1'b0, dd[7:4]} < DY && {1'b0, dd[11:8]} < DZ;
                        t = 3'd7;
                        if (vok && dd[14:12] != 3'd0) begin
                            // The hop along tree tix (first dimension fd, +
                            // for even tix): the dimensions in the cyclic
                            // order fd, db, dc, each until it matches the
                            // target; the target is the destination, but with
                            // the detour flag and until the other two match,
                            // one step short in fd, where this node is there
                            // when its next coordinate in the tree's direction
                            // is the destination's (host: tn_tree_hop).
                            if (dd[14:12] != 3'd7) begin
                                tix = dd[14:12] - 3'd1;
                                fd = tix[2:1];
                                db = (fd == 2'd2) ? 2'd0 : fd + 2'd1;
                                dc = (db == 2'd2) ? 2'd0 : db + 2'd1;
                                for (k = 0; k < 3; k = k + 1) begin
                                    eq[k]   = coord_i[4*k +: 4] == dd[4*k +: 4];
                                    nxeq[k] = (tix[0] ? cdn[4*k +: 4] : cup[4*k +: 4]) == dd[4*k +: 4];
                                end
                                diff = ~eq;
                                if (dd[15] && !(eq[db] && eq[dc]))
                                    diff[fd] = !nxeq[fd];
                                t = 3'd6;
                                if (diff[dc])
                                    t = {dc, tix[0]};
                                if (diff[db])
                                    t = {db, tix[0]};
                                if (diff[fd])
                                    t = {fd, tix[0]};
                            end
                        end else if (vok) begin
                            // X, then Y, then Z: the first dimension that differs
                            t = 3'd6;
                            for (k = 0; k < 3; k = k + 1) begin
                                v = dd[4*k +: 4];
                                c = coord_i[4*k +: 4];
                                if (t == 3'd6 && v != c)
                                    t = {k[1:0], !((v > c) ? ({1'b0, v} <= chw[10*k +: 5])
                                                           : (chw[10*k+9] && v <= chw[10*k+5 +: 4]))};
                            end
                        end
                    end
                    tgt[3*i +: 3] = t;
                    if (t < 3'd6 && orel_i[t])
                        rqo[i] = 1'b1;
                    else if (t == 3'd6 && |erel_i)
                        rqe[i] = 1'b1;
                    else
                        unr[i] = 1'b1;
                end
            end
            if (|rqo || |rqe) begin
                for (o = 0; o < 6; o = o + 1) begin
                    for (i = 0; i < NIN; i = i + 1)
                        hit[i] = rqo[i] && tgt[3*i +: 3] == o[2:0];
                    low = hit & (~hit + {{(NIN-1){1'b0}}, 1'b1});
                    idx = {SIW{1'b0}};
                    for (i = 0; i < NIN; i = i + 1)  // (one-hot: an OR, not a priority chain)
                        if (low[i])
                            idx = idx | i[SIW-1:0];
                    if (!busy_q[o] && |hit) begin
                        busy_d[o] = 1'b1;
                        own_d[o*SIW +: SIW] = idx;
                        win = win | low;
                    end
                end
                hit = rqe;
                for (l = 0; l < LANES; l = l + 1) begin
                    low = hit & (~hit + {{(NIN-1){1'b0}}, 1'b1});
                    idx = {SIW{1'b0}};
                    for (i = 0; i < NIN; i = i + 1)
                        if (low[i])
                            idx = idx | i[SIW-1:0];
                    if (erel_i[l] && !ebusy_q[l] && |hit) begin
                        ebusy_d[l] = 1'b1;
                        eown_d[l*SIW +: SIW] = idx;
                        win = win | low;
                        hit = hit & ~low;
                    end
                end
                lost = (rqo | rqe) & ~win;
                for (i = 0; i < NIN; i = i + 1)
                    ncoll_o = ncoll_o + {3'd0, lost[i]};
                if (|lost) begin
                    coll_o = 1'b1;
                    low = lost & (~lost + {{(NIN-1){1'b0}}, 1'b1});
                    idx = {SIW{1'b0}};
                    for (i = 0; i < NIN; i = i + 1)
                        if (low[i])
                            idx = idx | i[SIW-1:0];
                    coll_port_o = idx + (({1'b0, idx} < 6) ? 4'd0 : 4'd2);
                    coll_tgt_o = tgt[3*idx +: 3];
                end
            end
            for (i = 0; i < NIN; i = i + 1)
                nunrt_o = nunrt_o + {3'd0, unr[i]};
        end
    end

    // The crossbar: each output and eject lane from its source, a held
    // relay path's source in place of the circuit's (only while a flit is
    // on some source). Flits that go nowhere.
    reg [FS-1:0]  g;
    reg [SIW-1:0] sx;                   // the source of an output
    reg           held;                 // a held path's source may stand in
    integer       xo, xl, xi;
    always @* begin
        lout_o  = {6*FS{1'b0}};
        ej_o    = {LANES*FS{1'b0}};
        lany_o  = 1'b0;
        ejany_o = 1'b0;
        ndrop_o = 4'd0;
        g = {FS{1'b0}};
        sx = {SIW{1'b0}};
        // (only in a relay round or while a path is held: else busy_d and
        // ebusy_d are 0, and without relay hardware always, so a
        // simulator skips them and a synthesis keeps no multiplexer)
        held = RELAY != 0 && (ron || |busy_q || |ebusy_q);
        xo = 0;
        xl = 0;
        xi = 0;
        if (any) begin
            for (xo = 0; xo < 6; xo = xo + 1) begin
                sx = osrc_i[xo*SIW +: SIW];
                if (held)
                    if (busy_d[xo])
                        sx = own_d[xo*SIW +: SIW];
                g = {FS{1'b0}};
                g[FW-1:0] = src[sx];
                lout_o[xo*FS +: FS] = g;
                lany_o = lany_o | g[W+2];
            end
            for (xl = 0; xl < LANES; xl = xl + 1) begin
                sx = esrc_i[xl*SIW +: SIW];
                if (held)
                    if (ebusy_d[xl])
                        sx = eown_d[xl*SIW +: SIW];
                g = {FS{1'b0}};
                g[FW-1:0] = src[sx];
                ej_o[xl*FS +: FS] = g;
                ejany_o = ejany_o | g[W+2];
            end
            if (ron) begin
                // a body flit on a relay source that no held path carries
                for (xi = 0; xi < NIN; xi = xi + 1)
                    if (isrel[xi] && srcv[xi] && !src[xi][W+1] && !claimed[xi])
                        ndrop_o = ndrop_o + 4'd1;
            end else if (|(rin_i & srcv[5:0])) begin
                // no relay: a flit on a link input no circuit uses goes nowhere
                for (xi = 0; xi < 6; xi = xi + 1)
                    if (rin_i[xi] && srcv[xi])
                        ndrop_o = ndrop_o + 4'd1;
            end
            // an injected flit that no circuit output takes and no relay routes
            if (|(~iused_i & ~irel & srcv[NIN-1:6]))
                for (xl = 0; xl < LANES; xl = xl + 1)
                    if (!iused_i[xl] && !irel[xl] && srcv[6 + xl])
                        ndrop_o = ndrop_o + 4'd1;
        end
    end

    // Relay path state is control state (reset): taken by heads, released
    // by tails (the cycle after they pass) and at every switch.
    integer ro;
    always @(posedge clk_i) begin
        if (ron || sw_i) begin
            busy_q  <= busy_d;
            own_q   <= own_d;
            ebusy_q <= ebusy_d;
            eown_q  <= eown_d;
            for (ro = 0; ro < 6; ro = ro + 1)
                if (lout_o[ro*FS+W+2] && lout_o[ro*FS+W] && busy_d[ro])
                    busy_q[ro] <= 1'b0;
            for (ro = 0; ro < LANES; ro = ro + 1)
                if (ej_o[ro*FS+W+2] && ej_o[ro*FS+W] && ebusy_d[ro])
                    ebusy_q[ro] <= 1'b0;
            if (sw_i) begin
                busy_q  <= 6'd0;
                ebusy_q <= {LANES{1'b0}};
            end
        end
        if (rst_i) begin
            busy_q  <= 6'd0;
            ebusy_q <= {LANES{1'b0}};
        end
    end

`ifdef FORMAL
    // ---- Properties (make formal-router; docs/hardware.md, "Proved
    // properties"), for one source fs and one output fo chosen freely by
    // the solver (so for all of them). Links, inject lanes and routing
    // tables are free inputs: any traffic, any tables. Assumed of the
    // environment (tn_node): reset in the first cycle; the relay selects
    // (orel_i, erel_i) change only at the edge that ends a switch cycle,
    // where tn_node loads the round's settings, and ron_i is their OR, as
    // tn_node computes it.
    wire f_clk = clk_i, f_rst = rst_i;
    `include "tn_formal_reset.vh"
    (* anyconst *) reg [SIW-1:0] fs;
    (* anyconst *) reg [2:0]     fo;
    always @* begin
        assume(ron_i == (|orel_i || |erel_i));
        assume(fs < NIN && fo < 6);
    end
    reg [5:0]       f_orel_q;
    reg [LANES-1:0] f_erel_q;
    reg             f_sw_q;
    always @(posedge clk_i) begin
        f_orel_q <= orel_i;
        f_erel_q <= erel_i;
        f_sw_q   <= sw_i;
    end
    always @*
        if (f_past && !f_sw_q)
            assume(orel_i == f_orel_q && erel_i == f_erel_q);

    // Paths held (q: since last cycle, d: after this cycle's heads) by source si.
    function [3:0] f_paths(input [SIW-1:0] si, input [5:0] busy, input [6*SIW-1:0] own,
                           input [LANES-1:0] ebusy, input [LANES*SIW-1:0] eown);
        integer fk;
        begin
            f_paths = 4'd0;
            for (fk = 0; fk < 6; fk = fk + 1)
                if (busy[fk] && own[fk*SIW +: SIW] == si)
                    f_paths = f_paths + 4'd1;
            for (fk = 0; fk < LANES; fk = fk + 1)
                if (ebusy[fk] && eown[fk*SIW +: SIW] == si)
                    f_paths = f_paths + 4'd1;
        end
    endfunction
    wire [3:0] f_held = f_paths(fs, busy_q, own_q, ebusy_q, eown_q);
    wire [3:0] f_next = f_paths(fs, busy_d, own_d, ebusy_d, eown_d);

    // The counters, exactly: every new head (a relay source with a head
    // and no held path) with a route that gets no path this cycle is one
    // collision, every new head without a route one unroutable head.
    reg [3:0]     f_ncoll, f_nunrt;
    reg [FW-1:0]  f_x;
    reg [2:0]     f_xt;
    reg           f_xnew, f_xrt;
    integer       fi;
    always @* begin
        f_ncoll = 4'd0;
        f_nunrt = 4'd0;
        f_x = {FW{1'b0}};
        f_xt = 3'd0;
        f_xnew = 1'b0;
        f_xrt = 1'b0;
        for (fi = 0; fi < NIN; fi = fi + 1) begin
            f_x    = src[fi];
            f_xt   = tgt[3*fi +: 3];        // (the route of a new head)
            f_xnew = ron && isrel[fi] && f_x[W+2] && f_x[W+1] &&
                     f_paths(fi[SIW-1:0], busy_q, own_q, ebusy_q, eown_q) == 4'd0;
            f_xrt  = (f_xt < 3'd6 && orel_i[f_xt]) || (f_xt == 3'd6 && |erel_i);
            if (f_xnew && f_xrt && f_paths(fi[SIW-1:0], busy_d, own_d, ebusy_d, eown_d) == 4'd0)
                f_ncoll = f_ncoll + 4'd1;
            if (f_xnew && !f_xrt)
                f_nunrt = f_nunrt + 4'd1;
        end
    end

    wire [FW-1:0]  f_src = src[fs];
    wire [FS-1:0]  f_out = lout_o[fo*FS +: FS];
    wire [SIW-1:0] f_own = own_q[fo*SIW +: SIW];
    // fs has a new head: a relay source without a held path, a relay round
    wire           f_new = ron && isrel[fs] && f_src[W+2] && f_src[W+1] && f_held == 4'd0;
    wire [2:0]     f_t   = tgt[3*fs +: 3];  // its route (computed for a new head)
    // its route exists: a relay output of this round, or a relay eject lane
    wire           f_rt  = (f_t < 3'd6 && orel_i[f_t]) || (f_t == 3'd6 && |erel_i);
    // an output carries the flit of its one selected source: the owner of
    // a held path, else the round's circuit select; with no flit on any
    // source, every output is empty
    function f_from_sel(input [FS-1:0] out, input held, input [SIW-1:0] owner,
                        input [SIW-1:0] circuit);
        f_from_sel = out == (any ? {{(FS-FW){1'b0}}, src[held ? owner : circuit]} : {FS{1'b0}});
    endfunction

    integer fl;
    always @* if (f_live) begin
        assert(f_from_sel(f_out, busy_d[fo], own_d[fo*SIW +: SIW], osrc_i[fo*SIW +: SIW]));
        for (fl = 0; fl < LANES; fl = fl + 1) begin
            assert(f_from_sel(ej_o[fl*FS +: FS], ebusy_d[fl], eown_d[fl*SIW +: SIW], esrc_i[fl*SIW +: SIW]));
            if (ebusy_q[fl])
                assert(erel_i[fl] && eown_q[fl*SIW +: SIW] < NIN);
        end
        // a held output belongs to a relay output of this round and to a source
        if (busy_q[fo])
            assert(orel_i[fo] && f_own < NIN);
        // a relay stream is never duplicated: at most one held path per source
        assert(f_held <= 4'd1 && f_next <= 4'd1);
        // held paths only grow by this cycle's heads
        assert((busy_q & ~busy_d) == 6'd0 && (ebusy_q & ~ebusy_d) == {LANES{1'b0}});
        // a new head with a route takes its output (or an eject lane), or
        // it is counted as a collision and goes nowhere; one on an output
        // held since last cycle (or with every relay eject lane held) is a
        // collision; one without a route is counted as unroutable
        if (f_new && f_rt) begin
            if (f_next == 4'd0)
                assert(ncoll_o != 4'd0 && coll_o);
            else if (f_t < 3'd6)
                assert(busy_d[f_t] && own_d[f_t*SIW +: SIW] == fs);
            if ((f_t < 3'd6 && busy_q[f_t]) || (f_t == 3'd6 && (erel_i & ~ebusy_q) == {LANES{1'b0}}))
                assert(f_next == 4'd0);
        end
        if (f_new && !f_rt)
            assert(nunrt_o != 4'd0 && f_next == 4'd0);
        // nothing is counted without a new head
        if (!ron)
            assert(ncoll_o == 4'd0 && nunrt_o == 4'd0 && !coll_o);
        assert(ncoll_o == f_ncoll && nunrt_o == f_nunrt);
        assert(coll_o == (f_ncoll != 4'd0));
    end

    // A held output stays with its source until a tail has left on it (then
    // it is free in the next cycle); every path is released at a switch.
    always @(posedge clk_i)
        if (f_live && !$past(rst_i)) begin
            if ($past(sw_i) || !$past(busy_d[fo]))
                assert(!busy_q[fo]);
            else if ($past(f_out[W+2] && f_out[W]))
                assert(!busy_q[fo]);
            else
                assert(busy_q[fo] && f_own == $past(own_d[fo*SIW +: SIW]));
        end

    // Each property is reachable.
    always @(posedge clk_i)
        if (f_live && !$past(rst_i)) begin
            // a held output carries a body flit; its tail leaves, it is free
            cover(busy_q[fo] && f_out[W+2] && !f_out[W+1] && !f_out[W]);
            cover($past(busy_q[fo] && f_out[W+2] && f_out[W]) && !busy_q[fo] && !$past(sw_i));
            // a head on an output held by another source: a collision
            cover(f_new && f_rt && f_t < 3'd6 && busy_q[f_t] && ncoll_o == 4'd1);
            // two heads for the only relay eject lane: one takes it, one collides
            cover(ncoll_o == 4'd1 && coll_tgt_o == 3'd6 && |ebusy_d && !(|ebusy_q));
            // three heads for one output in one cycle: two collisions
            cover(ncoll_o == 4'd2);
            // an inject lane's head unroutable; a multicast circuit
            cover(f_new && !f_rt && fs >= 6);
            cover(lout_o[W+2] && lout_o[FS+W+2] && osrc_i[0 +: SIW] == osrc_i[SIW +: SIW] && !busy_d[1:0]);
        end
`endif
endmodule
