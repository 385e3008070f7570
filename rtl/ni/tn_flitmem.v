`default_nettype none
// SPDX-License-Identifier: MIT
// tn_flitmem: a node's flit memory, words {head, tail, data}, in 2**BB
// block-RAM banks: word a is in bank a mod 2**BB, row a / 2**BB. Each bank
// serves one read and one write per cycle: the bus first, then the lowest
// lane that asks. A lane that asks for a bank already taken loses that
// access (an inject lane gets no word, an eject lane's flit is not stored)
// and the loss is counted (nconf_o); the host places words so that this
// does not happen (docs/hardware.md, "Flit memory banks"). A lane's
// address and word are each in a 32-bit slot of their bus (docs/NOTES.md,
// "Simulation cost").
module tn_flitmem #(
    parameter W     = 16,        // flit data width
    parameter LANES = 6,         // inject and eject lanes
    parameter AW    = 12,        // address bits: 2**AW words
    parameter BB    = 3,         // log2 of the number of banks
    parameter MW    = W + 2      // word: {head, tail, data} (W <= 30: fits a slot)
) (
    input  wire                clk_i,
    // inject lanes: read raddr_i now, the word and the grant next cycle
    input  wire [LANES-1:0]    rd_i,
    /* verilator lint_off UNUSEDSIGNAL */ // the slots' unused bits
    input  wire [LANES*32-1:0] raddr_i,
    output wire [LANES*32-1:0] rdata_o,
    output reg  [LANES-1:0]    rok_o,
    // eject lanes: write now
    input  wire [LANES-1:0]    wr_i,
    input  wire [LANES*32-1:0] waddr_i,
    input  wire [LANES*32-1:0] wdata_i,
    /* verilator lint_on UNUSEDSIGNAL */
    // the bus: read (word next cycle) or write one word
    input  wire                bre_i,
    input  wire                bwe_i,
    input  wire [AW-1:0]       baddr_i,
    input  wire [MW-1:0]       bwdata_i,
    output wire [MW-1:0]       brdata_o,
    output reg  [3:0]          nconf_o     // lane accesses lost this cycle
);
    localparam NBK = 1 << BB;           // banks
    localparam RA  = AW - BB;           // row bits
    localparam BW  = (BB > 0) ? BB : 1; // a bank index's width
    localparam [BW-1:0] BMASK = NBK - 1;

    // per bank: the port requests of this cycle (arrays, one entry per
    // bank: the simulator stores an entry instead of shifting a field into
    // a wide vector; docs/NOTES.md, "Simulation cost")
    reg [NBK-1:0]   bre, bwe;
    (* mem2reg *) reg [RA-1:0]    bra [0:NBK-1];
    (* mem2reg *) reg [RA-1:0]    bwa [0:NBK-1];
    (* mem2reg *) reg [MW-1:0]    bwd [0:NBK-1];
    reg [LANES-1:0] rok;
    reg [BW-1:0]    b;
    integer         l, k, rl;

    function [BW-1:0] bank_of(input [BW-1:0] a);   // the address's low bits
        bank_of = a & BMASK;
    endfunction

    // Lane by lane (cheap to simulate): each takes its bank if still free.
    always @* begin
        b = {BW{1'b0}};
        bre = {NBK{1'b0}};
        bwe = {NBK{1'b0}};
        for (k = 0; k < NBK; k = k + 1) begin
            bra[k] = {RA{1'b0}};
            bwa[k] = {RA{1'b0}};
            bwd[k] = {MW{1'b0}};
        end
        rok = {LANES{1'b0}};
        nconf_o = 4'd0;
        l = 0;
        if (bre_i || |rd_i) begin
            if (bre_i) begin
                b = bank_of(baddr_i[BW-1:0]);
                bre[b] = 1'b1;
                bra[b] = baddr_i[AW-1:BB];
            end
            for (l = 0; l < LANES; l = l + 1)
                if (rd_i[l]) begin
                    b = bank_of(raddr_i[l*32 +: BW]);
                    if (bre[b]) begin
                        nconf_o = nconf_o + 4'd1;
                    end else begin
                        bre[b] = 1'b1;
                        bra[b] = raddr_i[l*32+BB +: RA];
                        rok[l] = 1'b1;
                    end
                end
        end
        if (bwe_i || |wr_i) begin
            if (bwe_i) begin
                b = bank_of(baddr_i[BW-1:0]);
                bwe[b] = 1'b1;
                bwa[b] = baddr_i[AW-1:BB];
                bwd[b] = bwdata_i;
            end
            for (l = 0; l < LANES; l = l + 1)
                if (wr_i[l]) begin
                    b = bank_of(waddr_i[l*32 +: BW]);
                    if (bwe[b]) begin
                        nconf_o = nconf_o + 4'd1;
                    end else begin
                        bwe[b] = 1'b1;
                        bwa[b] = waddr_i[l*32+BB +: RA];
                        bwd[b] = wdata_i[l*32 +: MW];
                    end
                end
        end
    end

    wire [MW-1:0] brd [0:NBK-1];   // each bank's word read last cycle
    genvar gb;
    generate
        for (gb = 0; gb < NBK; gb = gb + 1) begin : gen_bank
            tn_ram #(.DW(MW), .AW(RA)) u_bank (
                .wclk_i(clk_i), .wsel_i(1'b1), .we_i(bwe[gb]), .waddr_i(bwa[gb]), .wdata_i(bwd[gb]),
                .rclk_i(clk_i), .re_i(bre[gb]), .raddr_i(bra[gb]), .rdata_o(brd[gb]));
        end
    endgenerate

    // Which bank each lane and the bus read last cycle.
    reg [LANES*BW-1:0] rb_q;
    reg [BW-1:0]       bb_q;
    always @(posedge clk_i) begin
        rok_o <= rok;
        if (bre_i)
            bb_q <= bank_of(baddr_i[BW-1:0]);
        for (rl = 0; rl < LANES; rl = rl + 1)
            if (rd_i[rl])
                rb_q[rl*BW +: BW] <= bank_of(raddr_i[rl*32 +: BW]);
    end

    genvar gl;
    generate
        for (gl = 0; gl < LANES; gl = gl + 1) begin : gen_rd
            assign rdata_o[gl*32 +: MW] = brd[rb_q[gl*BW +: BW]];
            if (MW < 32) begin : gen_pad
                assign rdata_o[gl*32+MW +: 32-MW] = {(32 - MW){1'b0}};
            end
        end
    endgenerate
    assign brdata_o = brd[bb_q];
endmodule
