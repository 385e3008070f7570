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

    // The sources by index: links, inject lanes, then nothing.
    wire [FW-1:0]  src [0:(1 << SIW) - 1];
    wire [NIN-1:0] srcv;                // each source's valid bit
    genvar gs;
    generate
        for (gs = 0; gs < (1 << SIW); gs = gs + 1) begin : gen_src
            if (gs < 6) begin : gen_link
                assign src[gs] = lin_i[gs*FS +: FW];
            end else if (gs < NIN) begin : gen_lane
                assign src[gs] = inj_i[(gs-6)*FS +: FW];
            end else begin : gen_none
                assign src[gs] = {FW{1'b0}};
            end
            if (gs < NIN) begin : gen_v
                assign srcv[gs] = src[gs][W+2];
            end
        end
    endgenerate
    wire any = |srcv;                   // a flit on some source

    // DOR's direction on a ring of size n from coordinate c: + to the
    // coordinates at most n / 2 steps ahead (a tie on an even ring goes +).
    // They are c + 1 .. t1 (t1 = c + n / 2) and, when t1 wraps (w), also
    // 0 .. t2 (t2 = t1 - n). halfway(c, n) = {w, t2, t1} is a node's
    // constant, taken once per cycle of a relay round (as nbr below), so
    // that each source compares instead of subtracting.
    function [9:0] halfway(input [3:0] c, input [4:0] n);
        reg [4:0] t1;
        begin
            t1 = {1'b0, c} + {1'b0, n[4:1]};
            halfway = {t1 >= n, t1[3:0] - n[3:0], t1};
        end
    endfunction
    function goes_plus(input [3:0] v, input [3:0] c, input [9:0] hw);
        goes_plus = (v > c) ? ({1'b0, v} <= hw[4:0]) : (hw[9] && v <= hw[8:5]);
    endfunction
    // halfway of the three dimensions of c ({z, y, x})
    function [29:0] halfways(input [11:0] c);
        halfways = {halfway(c[11:8], DZ), halfway(c[7:4], DY), halfway(c[3:0], DX)};
    endfunction

    // A coordinate one step on along a ring of size n (+, or - with minus).
    function [3:0] step(input [3:0] c, input [4:0] n, input minus);
        step = minus ? ((c == 4'd0) ? n[3:0] - 4'd1 : c - 4'd1)
                     : (({1'b0, c} + 5'd1 == n) ? 4'd0 : c + 4'd1);
    endfunction
    // The neighbours' coordinates of c ({z, y, x}), + (minus 0) or - in
    // every dimension (for the tree routes: taken once per cycle of a relay
    // round, not per source, and not at all outside relay rounds: a wire
    // would cost the simulator its computation in every cycle).
    function [11:0] nbr(input [11:0] c, input minus);
        nbr = {step(c[11:8], DZ, minus), step(c[7:4], DY, minus), step(c[3:0], DX, minus)};
    endfunction
    // Per dimension ({z, y, x}): two {z, y, x} words agree.
    function [2:0] same(input [11:0] a, input [11:0] b);
        same = {a[11:8] == b[11:8], a[7:4] == b[7:4], a[3:0] == b[3:0]};
    endfunction

    // The hop of a head along six tree tix (0..5: first dimension tix >> 1,
    // direction + for even tix, - for odd) towards dst from here (coord;
    // up, dn: its neighbours' coordinates): the dimensions in the cyclic
    // order from the first, each until it matches the target; the target
    // is dst, but with the detour flag and until the other two dimensions
    // match, one step short in the first, where this node is there when
    // its next coordinate in the tree's direction is dst's (host:
    // tn_tree_hop).
    function [2:0] tree_route(input [11:0] dst, input [2:0] tix, input detour, input [11:0] coord,
                              input [11:0] up, input [11:0] dn);
        reg [2:0] eq, nxeq, diff;
        reg [1:0] fd, db, dc;
        begin
            fd = tix[2:1];
            db = (fd == 2'd2) ? 2'd0 : fd + 2'd1;
            dc = (db == 2'd2) ? 2'd0 : db + 2'd1;
            eq = same(coord, dst);
            nxeq = same(tix[0] ? dn : up, dst);
            diff = ~eq;
            if (detour && !(eq[db] && eq[dc]))
                diff[fd] = !nxeq[fd];
            tree_route = 3'd6;
            if (diff[dc])
                tree_route = {dc, tix[0]};
            if (diff[db])
                tree_route = {db, tix[0]};
            if (diff[fd])
                tree_route = {fd, tix[0]};
        end
    endfunction

    // The routing decision for a head with data d: 0..5 an output, 6 this
    // node, 7 no route (docs/hardware.md, "Route"): along six tree
    // d[14:12] - 1 (7: none), or by DOR with d[14:12] = 0 (hw: halfways).
    function [2:0] route(input [W-1:0] d, input [11:0] coord, input [11:0] up, input [11:0] dn,
                         input [29:0] hw);
        /* verilator lint_off UNUSEDSIGNAL */ // the head's data above W is 0
        reg [31:0]    dd;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            route = 3'd7;
            dd = 32'd0;
            dd[W-1:0] = d;
            if ({1'b0, dd[3:0]} < DX && {1'b0, dd[7:4]} < DY && {1'b0, dd[11:8]} < DZ &&
                dd[14:12] != 3'd0) begin
                if (dd[14:12] != 3'd7)
                    route = tree_route(dd[11:0], dd[14:12] - 3'd1, dd[15], coord, up, dn);
            end else if ({1'b0, dd[3:0]} < DX && {1'b0, dd[7:4]} < DY && {1'b0, dd[11:8]} < DZ) begin
                // X, then Y, then Z: the first dimension that differs.
                if (dd[3:0] != coord[3:0])
                    route = goes_plus(dd[3:0], coord[3:0], hw[9:0]) ? 3'd0 : 3'd1;
                else if (dd[7:4] != coord[7:4])
                    route = goes_plus(dd[7:4], coord[7:4], hw[19:10]) ? 3'd2 : 3'd3;
                else if (dd[11:8] != coord[11:8])
                    route = goes_plus(dd[11:8], coord[11:8], hw[29:20]) ? 3'd4 : 3'd5;
                else
                    route = 3'd6;
            end
        end
    endfunction

    wire [LANES-1:0] irel = RELAY != 0 ? inj_relay_i : {LANES{1'b0}};
    wire [NIN-1:0]   isrel = {irel, rin_i};
    wire             ron = RELAY != 0 && (ron_i || |irel);

    // Relay paths: output o (eject lane l) is held for source own (eown).
    // (owners are indices, not states: no FSM extraction in Yosys)
    reg [5:0]         busy_q, busy_d;
    (* fsm_encoding = "none" *) reg [6*SIW-1:0]   own_q;
    reg [6*SIW-1:0]   own_d;
    reg [LANES-1:0]   ebusy_q, ebusy_d;
    (* fsm_encoding = "none" *) reg [LANES*SIW-1:0] eown_q;
    reg [LANES*SIW-1:0] eown_d;

    reg [NIN-1:0] claimed;
    reg [FW-1:0]  f;
    reg [2:0]     t;
    reg [11:0]    cup, cdn;            // the neighbours' coordinates (nbr)
    reg [29:0]    chw;                 // halfways(coord_i)
    reg [3*NIN-1:0] tgt;               // each new head's route
    reg [NIN-1:0] rqo, rqe, unr;       // new heads for a relay output, an eject lane, unroutable
    reg [NIN-1:0] hit, win, lost;      // heads for one output; heads that got a path; the others
    reg [SIW-1:0] lost1;               // the first of the others
    integer       o, l, i;

    // The lowest set bit of a source vector, and the index of a one-hot one.
    function [NIN-1:0] lowest(input [NIN-1:0] v);
        lowest = v & (~v + {{(NIN-1){1'b0}}, 1'b1});
    endfunction
    function [SIW-1:0] index_of(input [NIN-1:0] onehot);
        integer k;
        begin
            index_of = {SIW{1'b0}};
            for (k = 0; k < NIN; k = k + 1)
                if (onehot[k])
                    index_of = index_of | k[SIW-1:0];
        end
    endfunction
    function [3:0] count(input [NIN-1:0] v);
        integer k;
        begin
            count = 4'd0;
            for (k = 0; k < NIN; k = k + 1)
                count = count + {3'd0, v[k]};
        end
    endfunction

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
        t       = 3'd0;
        cup     = 12'd0;
        cdn     = 12'd0;
        chw     = 30'd0;
        tgt     = {3*NIN{1'b0}};
        rqo     = {NIN{1'b0}};
        rqe     = {NIN{1'b0}};
        unr     = {NIN{1'b0}};
        hit     = {NIN{1'b0}};
        win     = {NIN{1'b0}};
        lost    = {NIN{1'b0}};
        lost1   = {SIW{1'b0}};
        o       = 0;
        l       = 0;
        i       = 0;
        if (ron) begin
            cup = nbr(coord_i, 1'b0);
            cdn = nbr(coord_i, 1'b1);
            chw = halfways(coord_i);
            // Sources already carried by a held path.
            for (o = 0; o < 6; o = o + 1)
                if (busy_q[o])
                    claimed = claimed | ({{(NIN-1){1'b0}}, 1'b1} << own_q[o*SIW +: SIW]);
            for (l = 0; l < LANES; l = l + 1)
                if (ebusy_q[l])
                    claimed = claimed | ({{(NIN-1){1'b0}}, 1'b1} << eown_q[l*SIW +: SIW]);
            // New heads and their routes.
            for (i = 0; i < NIN; i = i + 1) begin
                f = src[i];
                if (isrel[i] && f[W+2] && f[W+1] && !claimed[i]) begin
                    t = route(f[W-1:0], coord_i, cup, cdn, chw);
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
                    if (!busy_q[o] && |hit) begin
                        busy_d[o] = 1'b1;
                        own_d[o*SIW +: SIW] = index_of(lowest(hit));
                        win = win | lowest(hit);
                    end
                end
                hit = rqe;
                for (l = 0; l < LANES; l = l + 1)
                    if (erel_i[l] && !ebusy_q[l] && |hit) begin
                        ebusy_d[l] = 1'b1;
                        eown_d[l*SIW +: SIW] = index_of(lowest(hit));
                        win = win | lowest(hit);
                        hit = hit & ~lowest(hit);
                    end
                lost = (rqo | rqe) & ~win;
                ncoll_o = count(lost);
                if (|lost) begin
                    coll_o = 1'b1;
                    lost1 = index_of(lowest(lost));
                    coll_port_o = lost1 + (({1'b0, lost1} < 6) ? 4'd0 : 4'd2);
                    coll_tgt_o = tgt[3*lost1 +: 3];
                end
            end
            nunrt_o = count(unr);
        end
    end

    // The crossbar: each output and eject lane from its source, a held
    // relay path's source in place of the circuit's (only while a flit is
    // on some source). Flits that go nowhere.
    reg [FS-1:0] g;
    integer      xo, xl, xi;
    always @* begin
        lout_o  = {6*FS{1'b0}};
        ej_o    = {LANES*FS{1'b0}};
        lany_o  = 1'b0;
        ejany_o = 1'b0;
        ndrop_o = 4'd0;
        g = {FS{1'b0}};
        xo = 0;
        xl = 0;
        xi = 0;
        if (any) begin
            for (xo = 0; xo < 6; xo = xo + 1) begin
                g[FW-1:0] = src[busy_d[xo] ? own_d[xo*SIW +: SIW] : osrc_i[xo*SIW +: SIW]];
                lout_o[xo*FS +: FS] = g;
                lany_o = lany_o | g[W+2];
            end
            for (xl = 0; xl < LANES; xl = xl + 1) begin
                g[FW-1:0] = src[ebusy_d[xl] ? eown_d[xl*SIW +: SIW] : esrc_i[xl*SIW +: SIW]];
                ej_o[xl*FS +: FS] = g;
                ejany_o = ejany_o | g[W+2];
            end
            if (ron) begin
                // a body flit on a relay source that no held path carries
                for (xi = 0; xi < NIN; xi = xi + 1)
                    if (isrel[xi] && srcv[xi] && !src[xi][W+1] && !claimed[xi])
                        ndrop_o = ndrop_o + 4'd1;
            end else begin
                // no relay: a flit on a link input no circuit uses goes nowhere
                for (xi = 0; xi < 6; xi = xi + 1)
                    if (rin_i[xi] && srcv[xi])
                        ndrop_o = ndrop_o + 4'd1;
            end
            // an injected flit that no circuit output takes and no relay routes
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
            f_xt   = route(f_x[W-1:0], coord_i, nbr(coord_i, 1'b0), nbr(coord_i, 1'b1),
                           halfways(coord_i));
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
    wire [2:0]     f_t   = route(f_src[W-1:0], coord_i, nbr(coord_i, 1'b0), nbr(coord_i, 1'b1),
                                 halfways(coord_i));
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
