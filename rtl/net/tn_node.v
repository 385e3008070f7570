`default_nettype none
// SPDX-License-Identifier: MIT
// tn_node: one torus node: router, network interface (banked flit memory,
// LANES inject and eject lanes with their descriptor tables and records),
// round settings, status, and its slices of the two buses: table writes
// and record reads on the bus clock, everything else on the network clock
// (docs/hardware.md). The round settings of the next round are read ahead
// from their RAM; at a switch they become the active registers.
// For the simulator, every data input is marked public_flat_rd (a comment
// that only the Verilator tool reads): it then keeps the input as the
// node's own variable instead of substituting the plane's wire for that
// node, so that all nodes share one copy of the node's code
// (the clocks stay shared, and the node has no Verilog functions, whose
// temporaries are named per instance): on a 7x7x7, 5x the cycles per
// second of a copy per node (instruction cache, branch prediction), and a
// fraction of the build time (docs/NOTES.md, "Simulation cost").
module tn_node #(
    parameter DIM_X = 3,      // torus size in X
    parameter DIM_Y = 3,      // torus size in Y
    parameter DIM_Z = 3,      // torus size in Z
    parameter W     = 16,     // flit data width
    parameter LANES = 6,      // inject and eject lanes
    parameter RELAY = 1,      // 1: relay hardware
    parameter AW    = 12,     // flit memory address bits
    parameter RW    = 10,     // round and list index bits
    parameter DW    = 14,     // round-relative cycle bits
    parameter BB    = 3,      // log2 of the flit memory banks
    parameter FW    = W + 3,  // flit width on links
    parameter FS    = (FW <= 32) ? 32 : 64,    // a flit's slot on the link buses (tn_router)
    parameter CFW   = 24,                      // round settings: the outputs' selects
    parameter IEW   = 5 + RW + DW + 2 * AW + 1, // inject entry
    parameter EEW   = 2 + 3 + 2 * AW + 1       // eject descriptor
) (
    input  wire            nclk_i,
    input  wire            nrst_i /*verilator public_flat_rd*/,
    input  wire [11:0]     id_i /*verilator public_flat_rd*/,      // node id x + X*(y + Y*z)
    input  wire [11:0]     coord_i /*verilator public_flat_rd*/,   // {z, y, x}, 4 bits each
    // the sequencer's state (registers of tn_plane)
    input  wire            run_i /*verilator public_flat_rd*/,     // running
    input  wire            sw_i /*verilator public_flat_rd*/,      // a switch cycle (a round's first)
    input  wire            fin_i /*verilator public_flat_rd*/,     // the previous cycle was a round's last
    input  wire            prep_i /*verilator public_flat_rd*/,    // the cycle before a run's first switch
    input  wire            clr_i /*verilator public_flat_rd*/,     // clear status
    input  wire [RW-1:0]   round_i /*verilator public_flat_rd*/,   // the round (from its switch cycle on)
    input  wire [DW-1:0]   rcyc_i /*verilator public_flat_rd*/,    // round-relative cycle: 0 in the switch cycle
    input  wire [DW-1:0]   ts_i /*verilator public_flat_rd*/,      // this cycle relative to the active eject descriptors' round
    input  wire [3:0]      epoch_i /*verilator public_flat_rd*/,   // runs started, mod 16
    // links, a flit per slot: lin_i from the link registers (tn_plane),
    // lout_o to them
    input  wire [6*FS-1:0] lin_i /*verilator public_flat_rd*/,
    output wire [6*FS-1:0] lout_o,
    output wire            lany_o,    // some output carries a flit
    // network-clock bus (a one-cycle request for this node; read data two
    // cycles later)
    input  wire            nb_w_i /*verilator public_flat_rd*/,
    input  wire            nb_r_i /*verilator public_flat_rd*/,
    input  wire [3:0]      nb_rg_i /*verilator public_flat_rd*/,   // region
    input  wire [15:0]     nb_off_i /*verilator public_flat_rd*/,  // offset
    /* verilator lint_off UNUSEDSIGNAL */ // fields of the written registers only
    input  wire [31:0]     nb_wdata_i /*verilator public_flat_rd*/,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  [31:0]     nb_rdata_o,
    // bus-clock table writes and record reads (registered by tn_plane): a
    // table write of the words in tw_data_i, {word 1, word 0}; a record
    // read in cycle c, the record word in rr_data_o from c+1 on. The
    // request's fields, decoded once in the plane, come packed in tw_ctl_i
    // {record read offset (region 4, held), table lane, table kind
    // (one-hot: round settings, inject list, eject table), round or list
    // index}: a simulator copies every node's inputs at each of the
    // plane's table edges, and two words cost less than seven fields.
    input  wire            bclk_i,
    input  wire            tw_i /*verilator public_flat_rd*/,      // a table write for this node
    input  wire            rr_i /*verilator public_flat_rd*/,      // a record read of this node
    /* verilator lint_off UNUSEDSIGNAL */ // the fields' unused bits
    input  wire [22+RW-1:0] tw_ctl_i /*verilator public_flat_rd*/,
    input  wire [63:0]     tw_data_i /*verilator public_flat_rd*/,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [31:0]     rr_data_o, // (from the network interface's record RAM)
    output wire            err_o      // a status flag is set
);
    localparam MW  = W + 2;           // memory word {head, tail, data}
    localparam SIW = (LANES > 1) ? 4 : 3;          // router source index bits
    localparam [3:0] NONE4 = 4'd6 + LANES[3:0];
    localparam [SIW-1:0] NONE = NONE4[SIW-1:0];    // the router's "no source"
    localparam [3:0] NL4 = LANES[3:0];

    wire [RW-1:0]  aro;               // round whose settings are active (tn_ni)

    // the table request's fields (tw_ctl_i) and entries (tw_data_i)
    wire [RW-1:0]  tw_idx  = tw_ctl_i[RW-1:0];
    wire [2:0]     tw_kind = tw_ctl_i[RW +: 3];
    wire [2:0]     tw_lane = tw_ctl_i[RW+3 +: 3];
    wire [RW+4:0]  rr_off  = tw_ctl_i[RW+6 +: RW+5];  // {lane, row}
    /* verilator lint_off UNUSEDSIGNAL */ // the entries' unused bits
    wire [31:0]    tw_w0 = tw_data_i[31:0], tw_w1 = tw_data_i[63:32];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [CFW-1:0] tw_cfg = tw_w1[CFW-1:0];
    wire [IEW-1:0] tw_inj = {tw_w0[31:27], tw_w0[16 +: RW], tw_w0[0 +: DW], tw_w1[16 +: AW + 1], tw_w1[0 +: AW]};
    wire [EEW-1:0] tw_ej  = {tw_w0[31:30], tw_w0[2:0], tw_w1[16 +: AW + 1], tw_w1[0 +: AW]};

    // ---- network-clock bus decode ----
    // (decoded only in a request's cycle, 0 otherwise: every use is under
    // the request; a simulator then decodes nothing in the other cycles)
    wire [2:0] nb_lane = nb_off_i[RW+3:RW+1];
    reg        nb_mem, nb_cfg, nb_lst;   // the request's target: flit memory, settings, a lane's table
    reg        nb_tr, nb_cr, nb_mre, nb_mwe;
    reg [RW-1:0] nb_idx;                 // ... its round or list index
    always @* begin
        nb_mem = 1'b0;
        nb_cfg = 1'b0;
        nb_lst = 1'b0;
        nb_tr  = 1'b0;
        nb_cr  = 1'b0;
        nb_mre = 1'b0;
        nb_mwe = 1'b0;
        nb_idx = {RW{1'b0}};
        if (nb_r_i || nb_w_i) begin
            nb_mem = nb_rg_i == 4'd0 && (nb_off_i >> AW) == 16'd0;
            // tables are read only between runs (during one, their read
            // ports belong to the read-ahead; such a read returns 0)
            nb_cfg = nb_rg_i == 4'd1 && (nb_off_i >> RW) == 16'd0 && !run_i && !prep_i;
            nb_lst = (nb_rg_i == 4'd2 || nb_rg_i == 4'd3) && (nb_off_i >> (RW + 1)) < {12'd0, NL4} &&
                     !run_i && !prep_i;
            nb_tr  = nb_r_i && nb_lst;
            nb_cr  = nb_r_i && nb_cfg;
            nb_mre = nb_r_i && nb_mem;
            nb_mwe = nb_w_i && nb_mem;
            nb_idx = nb_cfg ? nb_off_i[RW-1:0] : nb_off_i[RW:1];
        end
    end

    // ---- round settings ----
    // (kept in lane 0's descriptor RAM, read ahead with its descriptors:
    // tn_ni)
    wire [CFW-1:0] cfg_nx;            // the next round's settings

    // The active settings of the outputs, as the router takes them: per
    // output a source index (0..5 input link, 6 + l inject lane l, NONE) and
    // a relay flag, and what they imply; loaded at a switch from the round's
    // selects (0 off, 1 + l inject lane l, 8 + p input p, 15 relay). The
    // eject lanes' are the network interface's (from their descriptors).
    reg [6*SIW-1:0]     osrc_q;
    reg [5:0]           orel_q;
    reg [5:0]           ouse_q;       // link inputs a circuit output uses
    reg [LANES-1:0]     iused_q;      // inject lanes a circuit output uses
    reg [3:0]           s;
    /* verilator lint_off UNUSEDSIGNAL */ // 6 + l < 2**SIW
    reg [3:0]           t;
    /* verilator lint_on UNUSEDSIGNAL */
    integer             o, ko;
    // (s and t are temporaries of this block: blocking assignments in a
    // clocked block, so that the simulator maps the selects only at a
    // switch; docs/NOTES.md, "Simulation cost")
    /* verilator lint_off BLKSEQ */
    always @(posedge nclk_i) begin
        if (sw_i) begin
            ouse_q  <= 6'd0;
            iused_q <= {LANES{1'b0}};
            for (o = 0; o < 6; o = o + 1) begin
                s = cfg_nx[4*o +: 4];
                t = s + 4'd5;         // 1 + l -> 6 + l
                osrc_q[o*SIW +: SIW] <= (s >= 4'd8 && s <= 4'd13) ? {{(SIW - 3){1'b0}}, s[2:0]}
                                      : (s >= 4'd1 && s <= NL4) ? t[SIW-1:0] : NONE;
                orel_q[o] <= RELAY != 0 && s == 4'd15;
                for (ko = 0; ko < LANES; ko = ko + 1)
                    if (s == ko[3:0] + 4'd1)
                        iused_q[ko] <= 1'b1;
                for (ko = 0; ko < 6; ko = ko + 1)
                    if (s == ko[3:0] + 4'd8)
                        ouse_q[ko] <= 1'b1;
            end
        end
        if (nrst_i) begin
            osrc_q  <= {6{NONE}};
            orel_q  <= 6'd0;
            ouse_q  <= 6'd0;
            iused_q <= {LANES{1'b0}};
        end
    end
    /* verilator lint_on BLKSEQ */

    // ---- network interface: lanes, flit memory, lane tables, records ----
    wire [LANES*FS-1:0]  inj;
    wire [LANES-1:0]     irelay, erel;
    wire [3*LANES-1:0]   ihop;
    /* verilator lint_off UNUSEDSIGNAL */ // the slots' unused bits
    wire [LANES*FS-1:0]  ej;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [LANES*SIW-1:0] esrc;
    wire [5:0]           euse;
    wire [3:0]           nev, nconf;
    wire [31:0]          tr_data;
    wire [MW-1:0]        mbrd;
    wire                 ejany;
    tn_ni #(.W(W), .LANES(LANES), .RELAY(RELAY), .AW(AW), .RW(RW), .DW(DW), .BB(BB), .SIW(SIW),
            .CFW(CFW), .FS(FS)) u_ni (
        .bclk_i(bclk_i), .tw_i(tw_i),
        .iw_i(tw_kind[1] ? {{(LANES-1){1'b0}}, 1'b1} << tw_lane : {LANES{1'b0}}),
        .ew_i(tw_kind[2] ? {{(LANES-1){1'b0}}, 1'b1} << tw_lane : {LANES{1'b0}}),
        .tw_idx_i(tw_idx), .tw_inj_i(tw_inj), .tw_ej_i(tw_ej), .cw_i(tw_kind[0]), .tw_cfg_i(tw_cfg),
        .rr_i(rr_i), .rr_lane_i(rr_off[RW+4:RW+2]), .rr_row_i(rr_off[RW+1:0]),
        .rr_data_o(rr_data_o),
        .nclk_i(nclk_i), .nrst_i(nrst_i), .run_i(run_i), .sw_i(sw_i), .fin_i(fin_i), .prep_i(prep_i),
        .round_i(round_i), .rcyc_i(rcyc_i), .ts_i(ts_i), .epoch_i(epoch_i), .around_o(aro),
        .cfg_o(cfg_nx),
        .tr_i(nb_tr), .tr_ej_i(nb_rg_i == 4'd3), .cr_i(nb_cr), .tr_lane_i(nb_lane),
        .tr_idx_i(nb_idx), .tr_word_i(nb_off_i[0]), .tr_data_o(tr_data),
        .mre_i(nb_mre), .mwe_i(nb_mwe), .maddr_i(nb_off_i[AW-1:0]),
        .mwdata_i({nb_wdata_i[30], nb_wdata_i[31], nb_wdata_i[W-1:0]}), .mrdata_o(mbrd),
        .inj_o(inj), .irel_o(irelay), .ihop_o(ihop), .ej_i(ej), .ejany_i(ejany),
        .esrc_o(esrc), .erel_o(erel), .euse_o(euse), .ev_o(nev), .nconf_o(nconf));
    wire ron = |orel_q || |erel;      // a relay round

    // ---- router ----
    wire [3:0] ncoll, nunrt, ndrop, coll_port;
    wire [2:0] coll_tgt;
    wire       coll;
    tn_router #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
                .RELAY(RELAY), .SIW(SIW), .FS(FS)) u_router (
        .clk_i(nclk_i), .rst_i(nrst_i), .sw_i(sw_i),
        .lin_i(lin_i), .lout_o(lout_o), .lany_o(lany_o), .inj_i(inj), .inj_relay_i(irelay),
        .inj_hop_i(ihop), .ej_o(ej), .ejany_o(ejany), .osrc_i(osrc_q), .orel_i(orel_q),
        .esrc_i(esrc), .erel_i(erel), .rin_i(~(ouse_q | euse)), .iused_i(iused_q), .ron_i(ron),
        .coord_i(coord_i), .ncoll_o(ncoll), .nunrt_o(nunrt), .ndrop_o(ndrop),
        .coll_o(coll), .coll_port_o(coll_port), .coll_tgt_o(coll_tgt));

    // ---- status ----
    wire [31:0] st_rd;
    tn_status #(.RW(RW)) u_status (
        .clk_i(nclk_i), .rst_i(nrst_i), .clr_i(clr_i), .around_i(aro),
        .ev_i(nev),
        .ncoll_i(ncoll), .nunrt_i(nunrt), .ndrop_i(ndrop), .nconf_i(nconf),
        .coll_i(coll), .coll_port_i(coll_port), .coll_tgt_i(coll_tgt),
        .we_i(nb_w_i && nb_rg_i == 4'd5), .re_i(nb_r_i && nb_rg_i == 4'd5), .addr_i(nb_off_i[3:0]),
        .wdata_i(nb_wdata_i[7:0]), .rdata_o(st_rd), .err_o(err_o));

    // ---- network-clock read data: a request in cycle c is answered from
    // the RAM outputs and registers in c+1 into nb_rdata_o (seen in c+2) ----
    reg       rd_q;                   // a read of this node was requested last cycle
    reg [3:0] rg_q;
    reg [4:0] roff_q;                 // offset bits that pick a register
    reg       rok_q;                  // the offset is mapped
    always @(posedge nclk_i) begin
        rd_q <= nb_r_i;
        if (nb_r_i) begin
            rg_q    <= nb_rg_i;
            roff_q  <= nb_off_i[4:0];
            rok_q   <= nb_mem || nb_cfg || nb_lst || nb_rg_i == 4'd5 ||
                       (nb_rg_i == 4'd6 && nb_off_i < 16'd32);
        end
        if (rd_q) begin
            nb_rdata_o <= 32'd0;
            if (rok_q)
                case (rg_q)
                    4'd0:       nb_rdata_o <= {mbrd[W], mbrd[W+1], {(30 - W){1'b0}}, mbrd[W-1:0]};
                    // settings; entry words as written: {valid, relay,
                    // round, start}, {length, address}; descriptors
                    // {valid, relay, port}
                    4'd1, 4'd2, 4'd3: nb_rdata_o <= tr_data;
                    4'd5:       nb_rdata_o <= st_rd;
                    4'd6: begin
                        if (roff_q == 5'd18)
                            nb_rdata_o <= {12'd0, coord_i[11:8], 4'd0, coord_i[7:4], 4'd0, coord_i[3:0]};
                        if (roff_q == 5'd19)
                            nb_rdata_o <= {20'd0, id_i};
                    end
                    default: ;
                endcase
        end
    end
endmodule
