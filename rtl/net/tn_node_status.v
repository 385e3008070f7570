`default_nettype none
// SPDX-License-Identifier: MIT
// tn_node_status: a node's error flags, error counters and collision latch
// (address region 4).
module tn_node_status #(
    parameter LANES = 6, // inject and eject lanes
    parameter RW    = 4, // round index bits
    parameter CW    = 32, // counter bits (board builds: fewer; they wrap)
    parameter STAT_PIPE = 0 // 1: events registered before they are counted (boards)
) (
    input  wire             clk_i,
    input  wire             rst_i,
    input  wire             clr_i,       // clear everything (CTRL bit 2)
    input  wire [RW-1:0]    around_i,    // round of the active settings
    // events this cycle
    input  wire [LANES-1:0] overrun_i,
    input  wire [LANES-1:0] short_i,
    input  wire [LANES-1:0] ebounds_i,
    input  wire [LANES-1:0] ibounds_i,
    input  wire [LANES-1:0] stray_i,
    input  wire [3:0]       ncoll_i,
    input  wire [3:0]       nunrt_i,
    input  wire [3:0]       ndrop_i,
    input  wire             coll_i,
    input  wire [3:0]       coll_port_i,
    input  wire [2:0]       coll_tgt_i,
    // bus: write (offset 0: 1s clear flags; 1..7: clear the counter), one
    // write enable per offset, and the read select of offset 0..8, one-hot
    // (both decoded with the request from the offset's bits 4:0)
    input  wire [7:0]       we_i,
    input  wire [8:0]       rsel_i,
    /* verilator lint_off UNUSEDSIGNAL */ // seven flag bits
    input  wire [31:0]      wdata_i,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  [31:0]      rdata_o,
    output wire             err_o        // some flag is set
);
    // The events as counted: this cycle's (STAT_PIPE = 0), or last cycle's
    // (board builds: the inject -> router -> counter path is cut by a
    // register; counters and flags then show an event one cycle later).
    wire [RW-1:0]    around_e;
    wire [LANES-1:0] overrun_e, short_e, ebounds_e, ibounds_e, stray_e;
    wire [3:0]       ncoll_e, nunrt_e, ndrop_e, coll_port_e;
    wire             coll_e;
    wire [2:0]       coll_tgt_e;
    generate
        if (STAT_PIPE != 0) begin : gen_pipe
            reg [RW-1:0]    around_q;
            reg [LANES-1:0] overrun_q, short_q, ebounds_q, ibounds_q, stray_q;
            reg [3:0]       ncoll_q, nunrt_q, ndrop_q, coll_port_q;
            reg             coll_q;
            reg [2:0]       coll_tgt_q;
            always @(posedge clk_i) begin
                around_q    <= around_i;
                overrun_q   <= overrun_i;
                short_q     <= short_i;
                ebounds_q   <= ebounds_i;
                ibounds_q   <= ibounds_i;
                stray_q     <= stray_i;
                ncoll_q     <= ncoll_i;
                nunrt_q     <= nunrt_i;
                ndrop_q     <= ndrop_i;
                coll_q      <= coll_i;
                coll_port_q <= coll_port_i;
                coll_tgt_q  <= coll_tgt_i;
                if (rst_i) begin
                    overrun_q <= {LANES{1'b0}};
                    short_q   <= {LANES{1'b0}};
                    ebounds_q <= {LANES{1'b0}};
                    ibounds_q <= {LANES{1'b0}};
                    stray_q   <= {LANES{1'b0}};
                    ncoll_q   <= 4'd0;
                    nunrt_q   <= 4'd0;
                    ndrop_q   <= 4'd0;
                    coll_q    <= 1'b0;
                end
            end
            assign {around_e, overrun_e, short_e, ebounds_e, ibounds_e, stray_e} =
                   {around_q, overrun_q, short_q, ebounds_q, ibounds_q, stray_q};
            assign {ncoll_e, nunrt_e, ndrop_e, coll_e, coll_port_e, coll_tgt_e} =
                   {ncoll_q, nunrt_q, ndrop_q, coll_q, coll_port_q, coll_tgt_q};
        end else begin : gen_nopipe
            assign {around_e, overrun_e, short_e, ebounds_e, ibounds_e, stray_e} =
                   {around_i, overrun_i, short_i, ebounds_i, ibounds_i, stray_i};
            assign {ncoll_e, nunrt_e, ndrop_e, coll_e, coll_port_e, coll_tgt_e} =
                   {ncoll_i, nunrt_i, ndrop_i, coll_i, coll_port_i, coll_tgt_i};
        end
    endgenerate

    localparam [31:0] CM = (CW >= 32) ? 32'hFFFFFFFF : ((32'd1 << CW) - 32'd1);
    reg [6:0]  flags_q, flags_d;
    reg [31:0] novr_q, novr_d, nshort_q, nshort_d, nbounds_q, nbounds_d;
    reg [31:0] ncoll_q, ncoll_d, nunrt_q, nunrt_d, ndrop_q, ndrop_d;
    reg [31:0] latch_q, latch_d;
    reg [4:0]  c_ovr, c_short, c_bounds, c_drop;
    integer    l;

    assign err_o = |flags_q;

    always @*
        rdata_o = ({32{rsel_i[0]}} & {25'd0, flags_q})
                | ({32{rsel_i[1]}} & novr_q)
                | ({32{rsel_i[2]}} & nshort_q)
                | ({32{rsel_i[3]}} & nbounds_q)
                | ({32{rsel_i[4]}} & ncoll_q)
                | ({32{rsel_i[5]}} & latch_q)
                | ({32{rsel_i[6]}} & nunrt_q)
                | ({32{rsel_i[7]}} & ndrop_q)
                | ({32{rsel_i[8]}} & {{(32-RW){1'b0}}, around_i});

    always @* begin
        c_ovr = 5'd0;
        c_short = 5'd0;
        c_bounds = 5'd0;
        c_drop = {1'b0, ndrop_e};
        for (l = 0; l < LANES; l = l + 1) begin
            c_ovr    = c_ovr + {4'd0, overrun_e[l]};
            c_short  = c_short + {4'd0, short_e[l]};
            c_bounds = c_bounds + {4'd0, ebounds_e[l]} + {4'd0, ibounds_e[l]};
            c_drop   = c_drop + {4'd0, stray_e[l]};
        end
        flags_d   = flags_q | {c_drop != 5'd0, nunrt_e != 4'd0, ncoll_e != 4'd0,
                               |ibounds_e, |ebounds_e, c_short != 5'd0, c_ovr != 5'd0};
        novr_d    = (novr_q + {27'd0, c_ovr}) & CM;
        nshort_d  = (nshort_q + {27'd0, c_short}) & CM;
        nbounds_d = (nbounds_q + {27'd0, c_bounds}) & CM;
        ncoll_d   = (ncoll_q + {28'd0, ncoll_e}) & CM;
        nunrt_d   = (nunrt_q + {28'd0, nunrt_e}) & CM;
        ndrop_d   = (ndrop_q + {27'd0, c_drop}) & CM;
        latch_d   = latch_q;
        if (coll_e && !latch_q[31])
            latch_d = {1'b1, 7'd0, {(8-RW){1'b0}}, around_e, 4'd0, coll_port_e, 5'd0, coll_tgt_e};
        if (we_i[0])
            flags_d = flags_q & ~wdata_i[6:0];
        if (we_i[1])
            novr_d = 32'd0;
        if (we_i[2])
            nshort_d = 32'd0;
        if (we_i[3])
            nbounds_d = 32'd0;
        if (we_i[4])
            ncoll_d = 32'd0;
        if (we_i[5])
            latch_d = 32'd0;
        if (we_i[6])
            nunrt_d = 32'd0;
        if (we_i[7])
            ndrop_d = 32'd0;
        if (clr_i) begin
            flags_d = 7'd0;
            novr_d = 32'd0;
            nshort_d = 32'd0;
            nbounds_d = 32'd0;
            ncoll_d = 32'd0;
            latch_d = 32'd0;
            nunrt_d = 32'd0;
            ndrop_d = 32'd0;
        end
    end

    always @(posedge clk_i) begin
        flags_q   <= flags_d;
        novr_q    <= novr_d;
        nshort_q  <= nshort_d;
        nbounds_q <= nbounds_d;
        ncoll_q   <= ncoll_d;
        latch_q   <= latch_d;
        nunrt_q   <= nunrt_d;
        ndrop_q   <= ndrop_d;
        if (rst_i) begin
            flags_q   <= 7'd0;
            novr_q    <= 32'd0;
            nshort_q  <= 32'd0;
            nbounds_q <= 32'd0;
            ncoll_q   <= 32'd0;
            latch_q   <= 32'd0;
            nunrt_q   <= 32'd0;
            ndrop_q   <= 32'd0;
        end
    end
endmodule
