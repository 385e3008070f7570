`default_nettype none
// SPDX-License-Identifier: MIT
// tn_status: a node's error flags, the counters of the errors that no
// eject record shows (collisions, unroutable heads, dropped flits, bank
// conflicts) and the collision latch (node region 5). Events are
// registered, then counted: flags and counters show an event one cycle
// after it reaches this module. Counters are 16 bits and stop at 0xFFFF.
module tn_status #(
    parameter RW    = 4   // round index bits
) (
    input  wire             clk_i,
    input  wire             rst_i,
    input  wire             clr_i,       // clear everything (CTRL bit 2)
    input  wire [RW-1:0]    around_i,    // round of the active settings
    // events: some lane's {inject bounds, eject bounds, short, overrun}
    input  wire [3:0]       ev_i,
    input  wire [3:0]       ncoll_i,
    input  wire [3:0]       nunrt_i,
    input  wire [3:0]       ndrop_i,
    input  wire [3:0]       nconf_i,
    input  wire             coll_i,
    input  wire [3:0]       coll_port_i,
    input  wire [2:0]       coll_tgt_i,
    // bus: write offset addr_i (0: 1s clear flags; 4, 5, 6, 7, 9: clear),
    // read offset addr_i into rdata_o (the cycle after re_i)
    input  wire             we_i,
    input  wire             re_i,
    input  wire [3:0]       addr_i,
    input  wire [7:0]       wdata_i,
    output wire [31:0]      rdata_o,
    output wire             err_o        // some flag is set
);
    reg [7:0]  flags_q;
    // The collision latch {valid, round, port, target} and the word read
    // {bit 31, bits RW+15..0}: the bits that can be set (the others read
    // 0; as registers of their own, synthesis would keep them, since their
    // power-up value is unknown).
    reg [RW+7:0]  latch_q;
    reg [RW+16:0] rd_q;
    /* verilator lint_off UNUSEDSIGNAL */ // the bits that read 0
    reg [31:0]    rd;                     // (a temporary)
    /* verilator lint_on UNUSEDSIGNAL */
    assign rdata_o = {rd_q[RW+16], {(15 - RW){1'b0}}, rd_q[RW+15:0]};
    // counters, each with a sticky bit 16 "stopped at 0xFFFF"
    reg [16:0] coll_q, unrt_q, drop_q, conf_q;
    // the last cycle's events
    reg        ev_q;
    reg [3:0]  ncoll_q, nunrt_q, ndrop_q, nconf_q, cport_q;
    reg        c1_q;
    reg [2:0]  ctgt_q;
    reg [RW-1:0] cround_q;
    wire ev = |{ev_i, ncoll_i, nunrt_i, ndrop_i, nconf_i};

    assign err_o = |flags_q;

    // (each counter stops at its sticky bit 16 and then reads 0xFFFF;
    // written out, not as functions: docs/NOTES.md, "Simulation cost")

    // (every register is read before this block writes it: a simulator
    // then keeps no delayed copy of it; docs/NOTES.md, "Simulation cost")
    reg [7:0] fclr;
    /* verilator lint_off BLKSEQ */
    always @(posedge clk_i) begin
        if (re_i) begin
            case (addr_i)
                4'd0:    rd = {24'd0, flags_q};
                4'd4:    rd = {16'd0, coll_q[16] ? 16'hFFFF : coll_q[15:0]};
                4'd5:    rd = {latch_q[RW+7], 4'd0, {(11 - RW){1'b0}}, latch_q[RW+6:7], 4'd0, latch_q[6:3],
                               5'd0, latch_q[2:0]};
                4'd6:    rd = {16'd0, unrt_q[16] ? 16'hFFFF : unrt_q[15:0]};
                4'd7:    rd = {16'd0, drop_q[16] ? 16'hFFFF : drop_q[15:0]};
                4'd8:    rd = {{(32 - RW){1'b0}}, around_i};
                4'd9:    rd = {16'd0, conf_q[16] ? 16'hFFFF : conf_q[15:0]};
                default: rd = 32'd0;
            endcase
            rd_q <= {rd[31], rd[RW+15:0]};
        end
        fclr = flags_q & ~wdata_i;    // (a temporary)
        ev_q <= ev;
        if (ev) begin
            flags_q  <= flags_q | {nconf_i != 0, ndrop_i != 0, nunrt_i != 0, ncoll_i != 0, ev_i};
            ncoll_q  <= ncoll_i;
            nunrt_q  <= nunrt_i;
            ndrop_q  <= ndrop_i;
            nconf_q  <= nconf_i;
            c1_q     <= coll_i;
            cport_q  <= coll_port_i;
            ctgt_q   <= coll_tgt_i;
            cround_q <= around_i;
        end
        if (ev_q) begin
            coll_q <= coll_q[16] ? coll_q : coll_q + {13'd0, ncoll_q};
            unrt_q <= unrt_q[16] ? unrt_q : unrt_q + {13'd0, nunrt_q};
            drop_q <= drop_q[16] ? drop_q : drop_q + {13'd0, ndrop_q};
            conf_q <= conf_q[16] ? conf_q : conf_q + {13'd0, nconf_q};
            if (c1_q && !latch_q[RW+7])
                latch_q <= {1'b1, cround_q, cport_q, ctgt_q};
        end
        if (we_i)
            case (addr_i)
                4'd0:    flags_q <= fclr;
                4'd4:    coll_q  <= 17'd0;
                4'd5:    latch_q <= {(RW + 8){1'b0}};
                4'd6:    unrt_q  <= 17'd0;
                4'd7:    drop_q  <= 17'd0;
                4'd9:    conf_q  <= 17'd0;
                default: ;
            endcase
        if (clr_i || rst_i) begin
            ev_q    <= 1'b0;
            flags_q <= 8'd0;
            latch_q <= {(RW + 8){1'b0}};
            coll_q  <= 17'd0;
            unrt_q  <= 17'd0;
            drop_q  <= 17'd0;
            conf_q  <= 17'd0;
        end
    end
    /* verilator lint_on BLKSEQ */
endmodule
