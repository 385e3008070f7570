`default_nettype none
// SPDX-License-Identifier: MIT
// tn_router: six-link router. Per output a circuit source select (off, an
// inject lane, an input link) or relay allocation by head flits, held until
// the tail; LANES eject lanes taken from the inputs (ejection in the arrival
// cycle). Link inputs come from registers (tn_node registers every incoming
// link), so a flit crosses one router per cycle: delta = 1.
module tn_router #(
    parameter DIM_X = 3,        // torus size in X
    parameter DIM_Y = 3,        // torus size in Y
    parameter DIM_Z = 3,        // torus size in Z
    parameter W     = 16,       // flit data width
    parameter LANES = 6,        // inject and eject lanes
    parameter RELAY = 1,        // 1: relay (head-routed) hardware; 0: circuits only
    parameter FW    = W + 3,    // flit: {valid, head, tail, data}
    parameter NIN   = 6 + LANES // relay inputs: links 0..5, then inject lanes
) (
    input  wire               clk_i,
    input  wire               rst_i,
    input  wire               sw_i,        // round switch cycle: relay paths released
    input  wire [6*FW-1:0]    lin_i,       // link inputs, port p at [p*FW+:FW]
    output reg  [6*FW-1:0]    lout_o,      // link outputs (registered by the receiver)
    input  wire [LANES*FW-1:0] inj_i,      // inject lanes
    input  wire [LANES-1:0]   inj_relay_i, // inject lane l is head-routed
    output reg  [LANES*FW-1:0] ej_o,       // eject lanes
    input  wire [23:0]        osel_i,      // output o select at [4o+:4]
    input  wire [4*LANES-1:0] esel_i,      // eject lane l select at [4l+:4]
    /* verilator lint_off UNUSEDSIGNAL */ // RELAY = 0 only
    input  wire [6*LANES-1:0] eoh_i,       // esel_i == 8 + p, one-hot (registered with it)
    /* verilator lint_on UNUSEDSIGNAL */
    /* verilator lint_off UNUSEDSIGNAL */ // relay routing only (unused when RELAY = 0)
    input  wire               dor_i,       // relay routing by DOR
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [5:0]         rin_i,       // link input p not used by a circuit
    input  wire [LANES-1:0]   iused_i,     // inject lane l selected by a circuit output
    input  wire               ron_i,       // some output or eject lane is relay
    /* verilator lint_off UNUSEDSIGNAL */ // relay routing only (unused when RELAY = 0)
    input  wire [95:0]        lo_i,        // interval tables (tn_route)
    input  wire [95:0]        hi_i,
    input  wire [5:0]         ien_i,
    input  wire [15:0]        label_i,
    input  wire [11:0]        coord_i,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  [3:0]         ncoll_o,     // heads dropped on a busy output this cycle
    output reg  [3:0]         nunrt_o,     // heads dropped for lack of a route
    output reg  [3:0]         ndrop_o,     // other flits that went nowhere
    output reg                coll_o,      // a collision this cycle (first one below)
    output reg  [3:0]         coll_port_o, // its input: 0..5 link, 8+l inject lane
    output reg  [2:0]         coll_tgt_o   // its wanted output: 0..5, 6 eject
);
    localparam [3:0] SEL_RELAY = 4'd15;

    // All relay inputs side by side: links, then inject lanes.
    wire [NIN*FW-1:0] rf = {inj_i, lin_i};
    // RELAY = 0: no relay input, no relay output; relay selects mean off and
    // head-routed injections are counted as dropped (docs/hardware.md).
    wire [LANES-1:0]  irel = RELAY ? inj_relay_i : {LANES{1'b0}};
    wire [NIN-1:0]    isrel = {irel, rin_i};
    wire              ron = RELAY != 0 && (ron_i | (|irel));

    wire [3*NIN-1:0]  tgt;
    genvar gi;
    generate
        if (RELAY != 0) begin : gen_relay
            for (gi = 0; gi < NIN; gi = gi + 1) begin : gen_route
                tn_route #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W)) u_route (
                    .en_i(ron && isrel[gi] && rf[gi*FW+W+2] && rf[gi*FW+W+1]),
                    .data_i(rf[gi*FW +: W]), .dor_i(dor_i),
                    .lo_i(lo_i), .hi_i(hi_i), .ien_i(ien_i),
                    .label_i(label_i), .coord_i(coord_i),
                    .tgt_o(tgt[3*gi +: 3]));
            end
        end else begin : gen_norelay
            assign tgt = {3*NIN{1'b1}};
        end
    endgenerate

    reg [5:0]         busy_q, busy_d;        // relay output held
    reg [23:0]        own_q, own_d;          // its owning relay input (4 bits each)
    reg [LANES-1:0]   ebusy_q, ebusy_d;      // relay eject lane held
    reg [4*LANES-1:0] eown_q, eown_d;

    reg [NIN-1:0]     claimed;
    reg [FW-1:0]      f;
    reg [2:0]         t;
    reg               found, anyrel;
    integer           o, l, i, p, si, ti;


    always @* begin
        lout_o   = {6*FW{1'b0}};
        ej_o    = {LANES*FW{1'b0}};
        busy_d  = busy_q;
        own_d   = own_q;
        ebusy_d = ebusy_q;
        eown_d  = eown_q;
        ncoll_o = 4'd0;
        nunrt_o = 4'd0;
        ndrop_o = 4'd0;
        coll_o  = 1'b0;
        coll_port_o = 4'd0;
        coll_tgt_o  = 3'd0;
        claimed = {NIN{1'b0}};
        f = {FW{1'b0}};
        si = 0;
        ti = 0;
        t = 3'd0;
        found = 1'b0;
        anyrel = 1'b0;

        // Circuit selects: AND-OR multiplexers over the sources (select
        // 1+l inject lane l, 8+p input p, anything else off).
        for (o = 0; o < 6; o = o + 1) begin
            for (l = 0; l < LANES; l = l + 1)
                if ({28'd0, osel_i[4*o +: 4]} == l + 1)
                    lout_o[o*FW +: FW] = lout_o[o*FW +: FW] | inj_i[l*FW +: FW];
            for (p = 0; p < 6; p = p + 1)
                if ({28'd0, osel_i[4*o +: 4]} == p + 8)
                    lout_o[o*FW +: FW] = lout_o[o*FW +: FW] | lin_i[p*FW +: FW];
        end
        // (RELAY = 0: from the one-hot copy, so a flit's valid bit is one
        // AND-OR after the link register)
        for (l = 0; l < LANES; l = l + 1)
            for (p = 0; p < 6; p = p + 1)
                if (RELAY == 0 ? eoh_i[6*l + p] : {28'd0, esel_i[4*l +: 4]} == p + 8)
                    ej_o[l*FW +: FW] = ej_o[l*FW +: FW] | lin_i[p*FW +: FW];

        if (ron) begin
            // Inputs already carried by a held path.
            for (o = 0; o < 6; o = o + 1)
                if (busy_q[o]) begin
                    si = {28'd0, own_q[4*o +: 4]};
                    claimed[si] = 1'b1;
                end
            for (l = 0; l < LANES; l = l + 1)
                if (ebusy_q[l]) begin
                    si = {28'd0, eown_q[4*l +: 4]};
                    claimed[si] = 1'b1;
                end
            // New heads, lowest input first.
            for (i = 0; i < NIN; i = i + 1) begin
                f = rf[i*FW +: FW];
                if (isrel[i] && f[W+2] && !claimed[i]) begin
                    if (!f[W+1]) begin
                        ndrop_o = ndrop_o + 4'd1;
                    end else begin
                        t = tgt[3*i +: 3];
                        ti = {29'd0, t};
                        if (t < 3'd6) begin
                            if (osel_i[4*ti +: 4] != SEL_RELAY) begin
                                nunrt_o = nunrt_o + 4'd1;
                            end else if (busy_d[ti]) begin
                                ncoll_o = ncoll_o + 4'd1;
                                if (!coll_o) begin
                                    coll_o = 1'b1;
                                    coll_port_o = (i < 6) ? i[3:0] : i[3:0] + 4'd2;
                                    coll_tgt_o = t;
                                end
                            end else begin
                                busy_d[ti] = 1'b1;
                                own_d[4*ti +: 4] = i[3:0];
                            end
                        end else if (t == 3'd6) begin
                            found = 1'b0;
                            anyrel = 1'b0;
                            for (l = 0; l < LANES; l = l + 1) begin
                                if (esel_i[4*l +: 4] == SEL_RELAY) begin
                                    anyrel = 1'b1;
                                    if (!ebusy_d[l] && !found) begin
                                        found = 1'b1;
                                        ebusy_d[l] = 1'b1;
                                        eown_d[4*l +: 4] = i[3:0];
                                    end
                                end
                            end
                            if (!anyrel) begin
                                nunrt_o = nunrt_o + 4'd1;
                            end else if (!found) begin
                                ncoll_o = ncoll_o + 4'd1;
                                if (!coll_o) begin
                                    coll_o = 1'b1;
                                    coll_port_o = (i < 6) ? i[3:0] : i[3:0] + 4'd2;
                                    coll_tgt_o = 3'd6;
                                end
                            end
                        end else begin
                            nunrt_o = nunrt_o + 4'd1;
                        end
                    end
                end
            end
            // Forward along held (or just granted) paths; release on the tail.
            for (o = 0; o < 6; o = o + 1) begin
                if (busy_d[o]) begin
                    si = {28'd0, own_d[4*o +: 4]};
                    f = rf[si*FW +: FW];
                    lout_o[o*FW +: FW] = f;
                    if (f[W+2] && f[W])
                        busy_d[o] = 1'b0;
                end
            end
            for (l = 0; l < LANES; l = l + 1) begin
                if (ebusy_d[l]) begin
                    si = {28'd0, eown_d[4*l +: 4]};
                    f = rf[si*FW +: FW];
                    ej_o[l*FW +: FW] = f;
                    if (f[W+2] && f[W])
                        ebusy_d[l] = 1'b0;
                end
            end
        end else begin
            // No relay: a flit on a link input no circuit uses goes nowhere.
            for (p = 0; p < 6; p = p + 1)
                if (rin_i[p] && lin_i[p*FW+W+2])
                    ndrop_o = ndrop_o + 4'd1;
        end
        // An injected flit that no circuit output takes and no relay routes.
        for (l = 0; l < LANES; l = l + 1)
            if (!iused_i[l] && !irel[l] && inj_i[l*FW+W+2])
                ndrop_o = ndrop_o + 4'd1;
        if (sw_i) begin
            busy_d  = 6'd0;
            ebusy_d = {LANES{1'b0}};
        end
    end

    // Relay path state is control state (reset).
    always @(posedge clk_i) begin
        own_q   <= own_d;
        eown_q  <= eown_d;
        busy_q  <= busy_d;
        ebusy_q <= ebusy_d;
        if (rst_i) begin
            busy_q  <= 6'd0;
            ebusy_q <= {LANES{1'b0}};
        end
    end
endmodule
