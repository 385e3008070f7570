`default_nettype none
// SPDX-License-Identifier: MIT
// tn_node_cfg: a node's per-round router settings (output selects, eject
// lane selects, relay mode) and relay routing tables; at the round switch
// loads round r's settings into the active registers the router uses.
module tn_node_cfg #(
    parameter LANES  = 6,  // inject and eject lanes
    parameter ROUNDS = 16, // round-table depth
    parameter RW     = 4,  // round index bits
    parameter RELAY  = 1,  // 0: no relay hardware, so no routing tables (read 0)
    parameter SWR    = 0   // 1: the switch masks of every round, then the round's (boards)
) (
    input  wire               clk_i,
    input  wire               rst_i,
    input  wire               sw_i,       // switch cycle of round round_i
    input  wire [RW-1:0]      round_i,
    // region 2 fields 0..15 and region 5 (routing)
    // region 2 write: one-hot field select (osel 0..5, mode, esel 0..LANES-1)
    input  wire [6+LANES:0]   we2_i,
    input  wire               we5_i,
    input  wire [RW-1:0]      cfg_round_i,
    input  wire [5:0]         cfg_field_i,
    /* verilator lint_off UNUSEDSIGNAL */ // selects and labels use the low bits
    input  wire [31:0]        cfg_wdata_i,
    /* verilator lint_on UNUSEDSIGNAL */
    // region 2 read: one-hot field select (osel 0..5, mode, esel 0..LANES-1),
    // zero when not read; rdata2_o is 0 unless one is set
    input  wire [6+LANES:0]   rsel2_i,
    output reg  [31:0]        rdata2_o,
    output reg  [31:0]        rdata5_o,
    // active settings
    output reg  [23:0]        osel_o,
    output reg  [4*LANES-1:0] esel_o,
    output reg  [6*LANES-1:0] eoh_o,      // esel_o == 8 + p, one-hot per lane (input p)
    output reg                dor_o,
    output reg  [5:0]         rin_o,      // link input p used by no circuit
    output reg  [LANES-1:0]   iused_o,    // inject lane l used by a circuit output
    output reg                ron_o,      // some output or eject lane is relay
    output reg  [RW-1:0]      around_o,   // round of the active settings
    // routing tables
    output reg  [95:0]        lo_o,
    output reg  [95:0]        hi_o,
    output reg  [5:0]         ien_o,
    output reg  [15:0]        label_o
);
    reg [23:0]        osel_m [0:ROUNDS-1];
    reg [4*LANES-1:0] esel_m [0:ROUNDS-1];
    reg               mode_m [0:ROUNDS-1];

    reg [23:0]        osel_d;
    reg [4*LANES-1:0] esel_d;
    reg               dor_d;
    reg [RW-1:0]      around_d;
    reg [23:0]        rsel2;
    reg [4*LANES-1:0] resel2;
    integer           o, l, wo, wl;

    always @(posedge clk_i) begin
        // Constant part-selects (one write enable per field, decoded with
        // the request like the read selects), not a shift.
        for (wo = 0; wo < 6; wo = wo + 1)
            if (we2_i[wo])
                osel_m[cfg_round_i][4*wo +: 4] <= cfg_wdata_i[3:0];
        if (we2_i[6])
            mode_m[cfg_round_i] <= cfg_wdata_i[0];
        for (wl = 0; wl < LANES; wl = wl + 1)
            if (we2_i[7 + wl])
                esel_m[cfg_round_i][4*wl +: 4] <= cfg_wdata_i[3:0];
        if (RELAY == 0) begin
            lo_o    <= 96'd0;
            hi_o    <= 96'd0;
            ien_o   <= 6'd0;
            label_o <= 16'd0;
        end else if (we5_i) begin
            if (cfg_field_i < 6'd6)
                lo_o[16*cfg_field_i[2:0] +: 16] <= cfg_wdata_i[15:0];
            else if (cfg_field_i >= 6'd8 && cfg_field_i < 6'd14)
                hi_o[16*cfg_field_i[2:0] +: 16] <= cfg_wdata_i[15:0];
            else if (cfg_field_i == 6'd16)
                ien_o <= cfg_wdata_i[5:0];
            else if (cfg_field_i == 6'd17)
                label_o <= cfg_wdata_i[15:0];
        end
    end

    always @* begin
        rdata2_o = 32'd0;
        rsel2    = osel_m[cfg_round_i];
        resel2   = esel_m[cfg_round_i];
        for (o = 0; o < 6; o = o + 1)
            rdata2_o[3:0] = rdata2_o[3:0] | ({4{rsel2_i[o]}} & rsel2[4*o +: 4]);
        rdata2_o[0] = rdata2_o[0] | (rsel2_i[6] & mode_m[cfg_round_i]);
        for (l = 0; l < LANES; l = l + 1)
            rdata2_o[3:0] = rdata2_o[3:0] | ({4{rsel2_i[7+l]}} & resel2[4*l +: 4]);
        rdata5_o = 32'd0;
        if (cfg_field_i < 6'd6)
            rdata5_o[15:0] = lo_o[16*cfg_field_i[2:0] +: 16];
        else if (cfg_field_i >= 6'd8 && cfg_field_i < 6'd14)
            rdata5_o[15:0] = hi_o[16*cfg_field_i[2:0] +: 16];
        else if (cfg_field_i == 6'd16)
            rdata5_o[5:0] = ien_o;
        else if (cfg_field_i == 6'd17)
            rdata5_o[15:0] = label_o;
    end

    // At the switch: the round's selects and what they imply for the router,
    // as flat ORs of equality decodes of the table entries (no priority
    // chain, no select in series with the decode).
    reg [23:0]        osw;
    reg [4*LANES-1:0] esw;
    // masks of one round's table entry
    function [6+LANES:0] swmask(input [23:0] os, input [4*LANES-1:0] es);
        integer   fo, fso, fsl;
        reg [3:0] fs;
        reg [5:0] frin;
        reg [LANES-1:0] fiu;
        reg       fron;
        begin
            frin = 6'h3F;
            fiu  = {LANES{1'b0}};
            fron = 1'b0;
            for (fo = 0; fo < 6 + LANES; fo = fo + 1) begin
                fs = (fo < 6) ? os[4*fo +: 4] : es[4*(fo-6) +: 4];
                for (fso = 0; fso < 6; fso = fso + 1)
                    frin[fso] = frin[fso] & ({28'd0, fs} != 8 + fso);      // 8..13 -> 0..5
                if (fo < 6)
                    for (fsl = 0; fsl < LANES; fsl = fsl + 1)
                        fiu[fsl] = fiu[fsl] | ({28'd0, fs} == 1 + fsl);
                fron = fron | (fs == 4'd15);
            end
            swmask = {fron, fiu, frin};
        end
    endfunction
    reg [6+LANES:0] swm;
    integer         el, eo;
    // boards: every round's masks in registers, computed from the table
    // in the cycle after it is written (a run's first switch comes at
    // least three cycles after the last bus write: the START write and
    // the sequencer's pipeline), so the switch only selects the round's;
    // otherwise the round's masks only, computed in the register's block
    // at a switch (no work per cycle in the simulator)
    wire [6+LANES:0] swr_m;   // the masks of round round_i (SWR)
    generate
        if (SWR != 0) begin : gen_msk
            reg [6+LANES:0] msk_q [0:ROUNDS-1];
            integer         rr;
            always @(posedge clk_i)
                for (rr = 0; rr < ROUNDS; rr = rr + 1)
                    msk_q[rr] <= swmask(osel_m[rr], esel_m[rr]);
            assign swr_m = msk_q[round_i];
        end else begin : gen_nomsk
            assign swr_m = {(7+LANES){1'b0}};
        end
    endgenerate
    always @* begin
        osw = osel_m[round_i];
        esw = esel_m[round_i];
        swm = swr_m;
        osel_d   = sw_i ? osw : osel_o;
        esel_d   = sw_i ? esw : esel_o;
        dor_d    = sw_i ? mode_m[round_i] : dor_o;
        around_d = sw_i ? round_i : around_o;
    end

    always @(posedge clk_i) begin
        osel_o   <= osel_d;
        esel_o   <= esel_d;
        // (only the boards' router reads it: RELAY = 0; else constant 0,
        // no work per cycle in the simulator's models)
        for (el = 0; el < LANES; el = el + 1)
            for (eo = 0; eo < 6; eo = eo + 1)
                eoh_o[6*el + eo] <= RELAY == 0 && {28'd0, esel_d[4*el +: 4]} == 8 + eo;
        dor_o    <= dor_d;
        if (sw_i)
            {ron_o, iused_o, rin_o} <= (SWR != 0) ? swm : swmask(osw, esw);
        around_o <= around_d;
        if (rst_i) begin
            osel_o  <= 24'd0;
            esel_o  <= {4*LANES{1'b0}};
            eoh_o   <= {6*LANES{1'b0}};
            rin_o   <= 6'h3F;
            iused_o <= {LANES{1'b0}};
            ron_o   <= 1'b0;
        end
    end
endmodule
