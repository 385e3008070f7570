`default_nettype none
// SPDX-License-Identifier: MIT
// tb_router: testbench of one router (rtl/net/tn_router.v) alone, Icarus.
// Random rounds (a switch every few dozen cycles) give the router random
// settings as tn_node derives them from a CFG word and the eject
// descriptors (circuit sources, relay outputs and eject lanes; heads
// from links routed by DOR, and along the six trees when W >= 16; heads
// from inject lanes to the hop of their lane, random) and random
// traffic: random flits on
// circuit sources, well-formed packets (head .. tail) with routable and
// unroutable destinations on relay sources. Every cycle, every output, eject
// lane and event count is compared with the bench's own model of
// docs/hardware.md ("Relay mode"): circuit selects; a head takes its routed
// relay output or the lowest free relay eject lane, lowest input first,
// holds it until its tail passes (released in that cycle) and at every
// switch; a head finding its output held is a collision (the first of the
// cycle reported with its input and wanted output), its body flits drops;
// heads without a relay route are unroutable; flits on unused inputs and
// injected flits no output takes are drops. Coverage of each event is
// checked, so the bench fails if its stimulus stops reaching one.
// Parameters: DIM_X, DIM_Y, DIM_Z, W, LANES, RELAY, CYCLES, SEED.
module tb_router;
    parameter DIM_X  = 3;      // torus size per dimension (DOR decisions)
    parameter DIM_Y  = 3;
    parameter DIM_Z  = 3;
    parameter W      = 16;     // flit data width
    parameter LANES  = 6;      // inject and eject lanes
    parameter RELAY  = 1;      // relay hardware
    parameter CYCLES = 10000;  // cycles of random traffic
    parameter SEED   = 1;
    localparam N    = DIM_X * DIM_Y * DIM_Z;
    localparam SIW  = (LANES > 1) ? 4 : 3;
    localparam FW   = W + 3;
    localparam NIN  = 6 + LANES;
    localparam [SIW-1:0] NONE = 6 + LANES;
    localparam FS   = (FW <= 32) ? 32 : 64;   // the router's flit slot

    reg clk = 0, rst = 1, sw = 0;
    always #5 clk = !clk;

    reg  [6*FW-1:0]      lin = 0;
    reg  [LANES*FW-1:0]  inj = 0;
    reg  [LANES-1:0]     irel = 0;
    reg  [3*LANES-1:0]   ihop = 0;
    wire [6*FW-1:0]      lout;
    wire [LANES*FW-1:0]  ej;
    reg  [6*SIW-1:0]     osrc = {6{NONE}};
    reg  [5:0]           orel = 0;
    reg  [LANES*SIW-1:0] esrc = {LANES{NONE}};
    reg  [LANES-1:0]     erel = 0;
    reg                  ron = 0;
    reg  [5:0]           rin = 6'h3F;
    reg  [LANES-1:0]     iused = 0;
    reg  [11:0]          coord = 0;
    wire [3:0]           ncoll, nunrt, ndrop, cport;
    wire [2:0]           ctgt;
    wire                 coll;
    wire                 lany;

    // The router's buses carry each flit in an FS-bit slot, the bits above
    // the flit 0 (checked every cycle below).
    wire [6*FS-1:0]      lin_s, lout_s;
    wire [LANES*FS-1:0]  inj_s, ej_s;
    genvar gp;
    generate
        for (gp = 0; gp < 6 + LANES; gp = gp + 1) begin : gen_slot
            if (gp < 6) begin : gen_link
                assign lin_s[gp*FS +: FS] = {{(FS - FW){1'b0}}, lin[gp*FW +: FW]};
                assign lout[gp*FW +: FW] = lout_s[gp*FS +: FW];
            end else begin : gen_lane
                assign inj_s[(gp-6)*FS +: FS] = {{(FS - FW){1'b0}}, inj[(gp-6)*FW +: FW]};
                assign ej[(gp-6)*FW +: FW] = ej_s[(gp-6)*FS +: FW];
            end
        end
    endgenerate
    reg xlany;                // some modelled link output is valid
    reg slot_pad_ok = 1'b1;   // every slot's bits above the flit stayed 0
    integer sp;
    always @(negedge clk)
        for (sp = 0; sp < 6 + LANES; sp = sp + 1)
            if ((sp < 6 ? lout_s[sp*FS +: FS] >> FW : ej_s[(sp-6)*FS +: FS] >> FW) != 0)
                slot_pad_ok = 1'b0;

    tn_router #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES), .RELAY(RELAY),
                .SIW(SIW)) dut (
        .clk_i(clk), .rst_i(rst), .sw_i(sw),
        .lin_i(lin_s), .lout_o(lout_s), .lany_o(lany), .inj_i(inj_s), .inj_relay_i(irel), .inj_hop_i(ihop),
        .ej_o(ej_s),
        .osrc_i(osrc), .orel_i(orel), .esrc_i(esrc), .erel_i(erel), .rin_i(rin),
        .iused_i(iused), .ron_i(ron), .coord_i(coord), .ncoll_o(ncoll), .nunrt_o(nunrt), .ndrop_o(ndrop),
        .coll_o(coll), .coll_port_o(cport), .coll_tgt_o(ctgt));

    `include "tb_tap.vh"

    // ---- the model ----
    // source i's flit (without relay hardware its head and tail flags
    // read 0: they do not travel)
    function [FW-1:0] srcf(input integer i);
        begin
            srcf = (i < 6) ? lin[i*FW +: FW] : (i < NIN) ? inj[(i-6)*FW +: FW] : {FW{1'b0}};
            if (RELAY == 0)
                srcf[W+1:W] = 2'b00;
        end
    endfunction
    function [3:0] fdist(input integer a, input integer b, input integer k); // (b - a) mod k
        fdist = (b - a + k) % k;
    endfunction
    // component k (0 x, 1 y, 2 z) of three, and the ring size in k
    function integer pick(input integer k, input integer a, input integer b, input integer c);
        pick = (k == 0) ? a : (k == 1) ? b : c;
    endfunction
    // the hop of a head along six tree tix to (x, y, z), as docs/hardware.md
    // says it: dimensions in the cyclic order from the tree's first, each
    // in the tree's direction until it matches the target; the target is
    // the destination, one step short of it in the first dimension (detour
    // flag set, the other two not yet matched)
    function [2:0] mtree(input integer tix, input integer detour, input integer x, input integer y,
                         input integer z);
        integer d, minus, i, k, own, tgt, n;
        reg     found;
        begin
            d = tix / 2;
            minus = tix % 2;
            mtree = 6;
            found = 0;
            for (i = 0; i < 3; i = i + 1) begin
                k = (d + i) % 3;
                own = pick(k, coord[3:0], coord[7:4], coord[11:8]);
                tgt = pick(k, x, y, z);
                n = pick(k, DIM_X, DIM_Y, DIM_Z);
                if (k == d && detour &&
                    !(pick((d + 1) % 3, coord[3:0], coord[7:4], coord[11:8]) == pick((d + 1) % 3, x, y, z) &&
                      pick((d + 2) % 3, coord[3:0], coord[7:4], coord[11:8]) == pick((d + 2) % 3, x, y, z)))
                    tgt = minus ? (tgt + 1) % n : (tgt + n - 1) % n;
                if (!found && own != tgt) begin
                    mtree = 2 * k + minus;
                    found = 1;
                end
            end
        end
    endfunction
    // the routed output of a head: 0..5, 6 this node, 7 none
    function [2:0] mroute(input [W-1:0] d);
        reg [31:0] dd;
        integer    x, y, z, f;
        begin
            dd = 0;
            dd[W-1:0] = d;
            mroute = 7;
            x = dd[3:0]; y = dd[7:4]; z = dd[11:8];
            // a head along a six tree: 1 + its tree in bits 12-14 (W >= 16)
            if (x < DIM_X && y < DIM_Y && z < DIM_Z && dd[14:12] != 0) begin
                if (dd[14:12] != 7)
                    mroute = mtree(dd[14:12] - 1, dd[15], x, y, z);
            end else if (x < DIM_X && y < DIM_Y && z < DIM_Z) begin
                if (x != coord[3:0]) begin
                    f = fdist(coord[3:0], x, DIM_X);
                    mroute = (2 * f <= DIM_X) ? 0 : 1;
                end else if (y != coord[7:4]) begin
                    f = fdist(coord[7:4], y, DIM_Y);
                    mroute = (2 * f <= DIM_Y) ? 2 : 3;
                end else if (z != coord[11:8]) begin
                    f = fdist(coord[11:8], z, DIM_Z);
                    mroute = (2 * f <= DIM_Z) ? 4 : 5;
                end else
                    mroute = 6;
            end
        end
    endfunction

    // model state: held relay paths
    reg [5:0]       mbusy = 0;
    reg [LANES-1:0] mebusy = 0;
    integer         mown [0:5];
    integer         meown [0:LANES-1];
    // this cycle's expectation
    reg [6*FW-1:0]     xlout;
    reg [LANES*FW-1:0] xej;
    integer            xcoll, xunrt, xdrop, xcport, xctgt;
    reg                xc1;
    reg [5:0]          nbusy;
    reg [LANES-1:0]    nebusy;
    integer            nown [0:5];
    integer            neown [0:LANES-1];
    reg [NIN-1:0]      claimed, isrel;
    reg                mron;
    // coverage
    integer cov_coll = 0, cov_tie = 0, cov_ecoll = 0, cov_unrt = 0, cov_reuse = 0, cov_eject = 0,
            cov_drop = 0, cov_alloc = 0, cov_sw_held = 0, cov_tree = 0, cov_hop = 0;
    reg [NIN:0] cov_sel [0:5];
    reg [5:0]   freed_q = 0;     // outputs released by a tail last cycle

    integer i, o, l, t;
    reg     anyv;
    reg [FW-1:0] f;
    reg          got;
    task model;
        begin
            nbusy = mbusy;
            nebusy = mebusy;
            for (o = 0; o < 6; o = o + 1) nown[o] = mown[o];
            for (l = 0; l < LANES; l = l + 1) neown[l] = meown[l];
            xcoll = 0; xunrt = 0; xdrop = 0; xc1 = 0; xcport = 0; xctgt = 0;
            mron = RELAY != 0 && (ron || (irel != 0));
            for (i = 0; i < NIN; i = i + 1)
                isrel[i] = (i < 6) ? rin[i] : (RELAY != 0 && irel[i-6]);
            claimed = 0;
            for (o = 0; o < 6; o = o + 1) if (mbusy[o]) claimed[mown[o]] = 1;
            for (l = 0; l < LANES; l = l + 1) if (mebusy[l]) claimed[meown[l]] = 1;
            if (mron)
                for (i = 0; i < NIN; i = i + 1) begin
                    f = srcf(i);
                    if (isrel[i] && f[W+2] && f[W+1] && !claimed[i]) begin
                        // an inject lane's head: its lane's hop, whatever its data
                        t = (i < 6) ? mroute(f[W-1:0]) : ihop[3*(i-6) +: 3];
                        if (i >= 6 && t < 6 && orel[t] && !nbusy[t] && t != mroute(f[W-1:0]))
                            cov_hop = cov_hop + 1;
                        if (t < 6 && !orel[t])
                            xunrt = xunrt + 1;
                        else if (t < 6 && nbusy[t]) begin
                            xcoll = xcoll + 1;
                            cov_coll = cov_coll + 1;
                            if (!mbusy[t]) cov_tie = cov_tie + 1;
                            if (!xc1) begin xc1 = 1; xcport = (i < 6) ? i : i + 2; xctgt = t; end
                        end else if (t < 6) begin
                            nbusy[t] = 1; nown[t] = i;
                            cov_alloc = cov_alloc + 1;
                            if (W >= 16 && f[14:12] != 0) cov_tree = cov_tree + 1;
                            if (freed_q[t]) cov_reuse = cov_reuse + 1;
                        end else if (t == 6 && erel == 0)
                            xunrt = xunrt + 1;
                        else if (t == 6) begin
                            got = 0;
                            for (l = 0; l < LANES; l = l + 1)
                                if (!got && erel[l] && !nebusy[l]) begin
                                    got = 1; nebusy[l] = 1; neown[l] = i;
                                end
                            if (got)
                                cov_eject = cov_eject + 1;
                            else begin
                                xcoll = xcoll + 1;
                                cov_ecoll = cov_ecoll + 1;
                                if (!xc1) begin xc1 = 1; xcport = (i < 6) ? i : i + 2; xctgt = 6; end
                            end
                        end else
                            xunrt = xunrt + 1;
                    end
                end
            if (xunrt) cov_unrt = cov_unrt + 1;
            for (o = 0; o < 6; o = o + 1)
                xlout[o*FW +: FW] = nbusy[o] ? srcf(nown[o]) : srcf(osrc[o*SIW +: SIW]);
            for (l = 0; l < LANES; l = l + 1)
                xej[l*FW +: FW] = nebusy[l] ? srcf(neown[l]) : srcf(esrc[l*SIW +: SIW]);
            // a cycle without any valid source flit: every output is all 0
            // (docs/hardware.md, "Link")
            anyv = 1'b0;
            for (i = 0; i < NIN; i = i + 1)
                anyv = anyv | srcf(i) >> (W + 2);
            if (!anyv) begin
                xlout = {6*FW{1'b0}};
                xej = {LANES*FW{1'b0}};
            end
            if (mron) begin
                for (i = 0; i < NIN; i = i + 1) begin
                    f = srcf(i);
                    if (isrel[i] && f[W+2] && !f[W+1] && !claimed[i]) xdrop = xdrop + 1;
                end
            end else
                for (i = 0; i < 6; i = i + 1)
                    if (rin[i] && lin[i*FW+W+2]) xdrop = xdrop + 1;
            for (l = 0; l < LANES; l = l + 1)
                if (!iused[l] && !(RELAY != 0 && irel[l]) && inj[l*FW+W+2]) xdrop = xdrop + 1;
            if (xdrop) cov_drop = cov_drop + 1;
        end
    endtask
    // state update at the edge: tails release, a switch releases all
    task model_edge;
        begin
            for (o = 0; o < 6; o = o + 1) begin
                freed_q[o] = 0;
                if (nbusy[o] && xlout[o*FW+W+2] && xlout[o*FW+W]) begin
                    nbusy[o] = 0;
                    freed_q[o] = 1;
                end
            end
            for (l = 0; l < LANES; l = l + 1)
                if (nebusy[l] && xej[l*FW+W+2] && xej[l*FW+W])
                    nebusy[l] = 0;
            if (sw) begin
                if (nbusy != 0 || nebusy != 0) cov_sw_held = cov_sw_held + 1;
                nbusy = 0;
                nebusy = 0;
            end
            if (mron || sw) begin
                mbusy = nbusy;
                mebusy = nebusy;
                for (o = 0; o < 6; o = o + 1) mown[o] = nown[o];
                for (l = 0; l < LANES; l = l + 1) meown[l] = neown[l];
            end
        end
    endtask

    // ---- stimulus ----
    integer seed = SEED;
    function integer rnd(input integer k);
        rnd = (k > 0) ? ({$random(seed)} % k) : 0;
    endfunction
    // per relay source: flits left of the current packet (0: idle)
    integer left [0:NIN-1];
    reg [W-1:0] rdata;
    // a head's destination: another node's coordinates, this node, or
    // something unroutable
    function [W-1:0] dest;
        input integer dummy;
        integer x, y, z, c;
        begin
            c = rnd(10);
            dest = 0;
            x = rnd(DIM_X); y = rnd(DIM_Y); z = rnd(DIM_Z);
            if (c == 0) x = DIM_X + rnd(16 - DIM_X);     // beyond the torus
            if (c == 1) begin x = coord[3:0]; y = coord[7:4]; z = coord[11:8]; end
            // bits 12-15: DOR (0), along a six tree (1..6, bit 15 the
            // detour flag) or unroutable (7); bits above are not looked at
            dest = x | (y << 4) | (z << 8) | ($random(seed) << 12);
        end
    endfunction
    task new_flits;
        integer p, n;
        reg [FW-1:0] g;
        begin
            for (i = 0; i < NIN; i = i + 1) begin
                g = 0;
                rdata = $random(seed);
                if (isrel_now(i)) begin
                    if (left[i] == 0 && rnd(3) == 0) begin
                        // an inject lane's hop: an output, this node or none
                        if (i >= 6) begin
                            p = rnd(10);
                            ihop[3*(i-6) +: 3] = (p < 7) ? rnd(6) : (p < 9) ? 6 : 7;
                        end
                        n = 1 + rnd(5);
                        left[i] = n;
                        g = {1'b1, 1'b1, n == 1, dest(0)};
                        left[i] = n - 1;
                    end else if (left[i] > 0) begin
                        g = {1'b1, 1'b0, left[i] == 1, rdata};
                        left[i] = left[i] - 1;
                    end
                end else
                    g = {rnd(2) == 0, rnd(2) == 0, rnd(2) == 0, rdata};
                if (i < 6)
                    lin[i*FW +: FW] = g;
                else
                    inj[(i-6)*FW +: FW] = g;
            end
        end
    endtask
    function isrel_now(input integer i);
        isrel_now = (i < 6) ? rin[i] : irel[i-6];
    endfunction

    // A new round's settings, as tn_node derives them from random selects.
    reg [3:0] sel [0:5+LANES];
    integer   s, ko, sj, nround = 0;
    task new_round;
        begin
            for (o = 0; o < 6 + LANES; o = o + 1) begin
                s = rnd(10);
                // off, an inject lane, an input port, relay (outputs: 15; lanes: relay bit)
                sel[o] = (s == 0) ? 0 : (s < 3) ? 1 + rnd(LANES) : (s < 6) ? 8 + rnd(6) : (RELAY ? 15 : 0);
                if (o >= 6 && sel[o] >= 1 && sel[o] <= 7) sel[o] = 8 + rnd(6);  // lanes listen to ports
            end
            if (rnd(4) == 0)        // a circuit-only round
                for (o = 0; o < 6 + LANES; o = o + 1) if (sel[o] == 15) sel[o] = 8 + rnd(6);
            // one output per round sweeps the sources: every output selects
            // every input link and inject lane within 6 (6 + LANES) rounds
            sj = (nround / 6) % NIN;
            sel[nround % 6] = (sj < 6) ? 8 + sj : 1 + sj - 6;
            nround = nround + 1;
            for (o = 0; o < 6; o = o + 1) begin
                osrc[o*SIW +: SIW] = (sel[o] >= 8 && sel[o] <= 13) ? sel[o] - 8 :
                                     (sel[o] >= 1 && sel[o] <= LANES) ? sel[o] + 5 : NONE;
                orel[o] = sel[o] == 15;
                cov_sel[o][osrc[o*SIW +: SIW]] = 1;
            end
            for (l = 0; l < LANES; l = l + 1) begin
                esrc[l*SIW +: SIW] = (sel[6+l] >= 8 && sel[6+l] <= 13) ? sel[6+l] - 8 : NONE;
                erel[l] = sel[6+l] == 15;
            end
            for (ko = 0; ko < 6; ko = ko + 1) begin
                rin[ko] = 1;
                for (o = 0; o < 6 + LANES; o = o + 1) if (sel[o] == 8 + ko) rin[ko] = 0;
            end
            for (ko = 0; ko < LANES; ko = ko + 1) begin
                iused[ko] = 0;
                for (o = 0; o < 6; o = o + 1) if (sel[o] == 1 + ko) iused[ko] = 1;
            end
            ron = (orel != 0) || (erel != 0);
            coord = rnd(DIM_X) | (rnd(DIM_Y) << 4) | (rnd(DIM_Z) << 8);
            for (l = 0; l < LANES; l = l + 1)
                irel[l] = RELAY && !iused[l] && rnd(2);
        end
    endtask

    // ---- the run ----
    integer cyc, bad = 0, bad_out = 0, bad_cnt = 0, bad_coll = 0, rlen = 0;
    initial begin
        $display("# tb_router DIM %0dx%0dx%0d W=%0d LANES=%0d RELAY=%0d SEED=%0d", DIM_X, DIM_Y, DIM_Z, W,
                 LANES, RELAY, SEED);
        for (o = 0; o < 6; o = o + 1) begin mown[o] = 0; cov_sel[o] = 0; end
        for (l = 0; l < LANES; l = l + 1) meown[l] = 0;
        for (i = 0; i < NIN; i = i + 1) left[i] = 0;
        repeat (2) @(posedge clk);
        #1 rst = 0;
        new_round;
        for (cyc = 0; cyc < CYCLES; cyc = cyc + 1) begin
            // inputs for this cycle, a switch every 8..71 cycles
            sw = rlen > 8 && rnd(64) == 0;
            new_flits;
            #3;
            model;
            xlany = 1'b0;
            for (o = 0; o < 6; o = o + 1)
                xlany = xlany | xlout[o*FW+W+2];
            if (lout !== xlout || ej !== xej || lany !== xlany) begin
                bad_out = bad_out + 1;
                if (bad_out < 6)
                    $display("# cycle %0d: outputs %h ej %h, model %h ej %h", cyc, lout, ej, xlout, xej);
            end
            if (ncoll != xcoll || nunrt != xunrt || ndrop != xdrop) begin
                bad_cnt = bad_cnt + 1;
                if (bad_cnt < 6)
                    $display("# cycle %0d: coll/unrt/drop %0d %0d %0d, model %0d %0d %0d", cyc, ncoll, nunrt,
                             ndrop, xcoll, xunrt, xdrop);
            end
            if (coll != xc1 || (xc1 && (cport != xcport || ctgt != xctgt))) begin
                bad_coll = bad_coll + 1;
                if (bad_coll < 6)
                    $display("# cycle %0d: collision %0d port %0d output %0d, model %0d %0d %0d", cyc, coll,
                             cport, ctgt, xc1, xcport, xctgt);
            end
            @(posedge clk);
            model_edge;
            #1;
            rlen = rlen + 1;
            if (sw) begin
                new_round;
                rlen = 0;
            end
        end
        $sformat(msg, "%0d cycles: every output and eject lane carries the modelled flit, lany_o their valid bits' OR", CYCLES);
        ok(bad_out == 0, msg);
        ok(slot_pad_ok, "every output and eject slot's bits above the flit stay 0");
        ok(bad_cnt == 0, "collision, unroutable and drop counts as modelled every cycle");
        ok(bad_coll == 0, "the first collision of a cycle reported with its input and wanted output");
        bad = 0;
        for (o = 0; o < 6; o = o + 1)
            for (i = 0; i < NIN; i = i + 1)
                if (!cov_sel[o][i]) bad = bad + 1;
        ok(bad == 0, "coverage: every output selected every input link and inject lane");
        if (RELAY) begin
            $sformat(msg, "coverage: %0d relay allocations (%0d by heads along a six tree), %0d to eject lanes, %0d outputs taken the cycle after a tail",
                     cov_alloc, cov_tree, cov_eject, cov_reuse);
            ok(cov_alloc > 0 && cov_eject > 0 && cov_reuse > 0 && (W < 16 || cov_tree > 0), msg);
            $sformat(msg, "coverage: %0d inject heads took their lane's hop where their data would route elsewhere", cov_hop);
            ok(cov_hop > 0, msg);
            $sformat(msg, "coverage: %0d collisions (%0d same-cycle ties, %0d on eject lanes), %0d cycles with unroutable heads",
                     cov_coll, cov_tie, cov_ecoll, cov_unrt);
            ok(cov_coll > 0 && cov_tie > 0 && cov_ecoll > 0 && cov_unrt > 0, msg);
            $sformat(msg, "coverage: %0d switches released held paths", cov_sw_held);
            ok(cov_sw_held > 0, msg);
        end
        $sformat(msg, "coverage: %0d cycles with drops", cov_drop);
        ok(cov_drop > 0, msg);
        $display("# done tb_router, %0d failed", nfail);
        $finish;
    end
endmodule
