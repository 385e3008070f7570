`default_nettype none
// SPDX-License-Identifier: MIT
// tn_eject: one eject lane. Its descriptors are a RAM indexed by round
// (written on the bus clock, read ahead on the network clock): the next
// round's is in the RAM's output register and is loaded at the switch.
// While a descriptor is active the lane counts every flit from its source
// (an input port, or relay packets), stores the first n at a, a+1, ...,
// timestamps the first and the last (round-relative), keeps their CRC-32,
// and at the round's end files the record in its record RAM (written on
// the network clock, read on the bus clock) under the round, one cycle
// later from registers. Overrun flits after a run's end file it again.
module tn_eject #(
    parameter W  = 16,        // flit data width
    parameter AW = 12,        // flit memory address bits
    parameter RW = 10,        // round bits
    parameter DW = 14,        // timestamp bits
    parameter FW = W + 3      // flit: {valid, head, tail, data}
) (
    // bus clock: descriptor writes (bus words {word 1, word 0} of round
    // lw_idx_i, already packed by tn_torus: {valid, relay, port, len, addr}),
    // record reads
    input  wire            bclk_i,
    input  wire            lw_i,
    input  wire [RW-1:0]   lw_idx_i,
    input  wire [2*AW+5:0] lw_row_i,
    input  wire            rr_i,      // read the record of round rr_idx_i: in rec_o next cycle
    input  wire [RW-1:0]   rr_idx_i,
    output wire [4+3+AW+1+2*DW+31:0] rec_o, // {epoch, errors, count, last, first, CRC}
    // network clock
    input  wire            nclk_i,
    input  wire            nrst_i,
    input  wire            run_i,     // the sequencer runs
    input  wire            sw_i,      // a switch cycle
    input  wire            fin_i,     // a round ended with the last cycle
    input  wire            prep_i,    // the cycle before a run's first switch
    input  wire [RW-1:0]   round_i,
    input  wire [DW-1:0]   ts_i,      // this cycle relative to the active descriptors' round
    input  wire [3:0]      epoch_i,   // runs started, mod 16
    // bus read of round lr_idx_i's descriptor (in desc_o from the next
    // cycle on); desc_o is the next round's descriptor in a switch cycle
    input  wire            lr_i,
    input  wire [RW-1:0]   lr_idx_i,
    output wire [2*AW+5:0] desc_o,    // {valid, relay, port, length, address}
    input  wire [FW-1:0]   flit_i,    // from the router
    // flit memory write port
    output wire            mwr_o,
    output wire [AW-1:0]   mwaddr_o,
    output wire [W+1:0]    mwdata_o,  // {head, tail, data}
    // events of the last cycle
    output reg             overrun_o,
    output reg             short_o,
    output reg             bounds_o
);
    // A descriptor: {valid, relay, port, length, address}.
    localparam EW = 2 + 3 + 2 * AW + 1;
    // A record: {epoch, error bits, count, last, first, CRC}.
    localparam RCW = 4 + 3 + AW + 1 + 2 * DW + 32;
    localparam NN = 2 * ((W + 7) / 8);  // CRC nibbles per flit, zero padded

    wire [EW-1:0] nx;              // the next round's descriptor
    assign desc_o = nx;

    reg          act_q;            // a descriptor is active
    reg [AW:0]   adr_q;            // the next word (bit AW: beyond the memory)
    reg [AW:0]   rem_q;            // flits still expected
    reg [AW:0]   cnt_q;            // flits counted
    reg [DW-1:0] first_q, last_q;
    reg [31:0]   crc_q;
    reg [2:0]    err_q;
    reg [RW-1:0] idx_q;            // the active descriptor's round
    reg          file_q;           // write the record rec_q at rnd_q now
    reg [RW-1:0] rnd_q;
    reg [RCW-1:0] rec_q;

    // This cycle's flit, counted by the active descriptor; stored unless it
    // is an overrun (a switch cycle, after the run, beyond n) or out of
    // the memory.
    wire fv   = flit_i[W+2] && act_q;
    wire late = !run_i || sw_i || rem_q == 0;
    assign mwr_o    = fv && !late && !adr_q[AW];
    assign mwaddr_o = adr_q[AW-1:0];
    assign mwdata_o = flit_i[W+1:0];

    // The flit's effect on the record, computed only for a flit (the _d
    // and the CRC step's are temporaries of this block: blocking assignments
    // in a clocked block, so that the simulator does this work only when a
    // flit arrives; docs/NOTES.md, "Simulation cost").
    reg [AW:0]     cnt_d;
    reg [DW-1:0]   first_d;
    reg [31:0]     crc_d;
    reg [3:0]      x;
    reg [2:0]      err_d;
    reg [4*NN-1:0] d;
    integer        k;
    /* verilator lint_off BLKSEQ */
    always @(posedge nclk_i) begin
        overrun_o <= 1'b0;
        bounds_o  <= 1'b0;
        short_o   <= 1'b0;
        file_q    <= 1'b0;
        if (fv || fin_i || sw_i) begin
            cnt_d   = cnt_q;
            first_d = first_q;
            crc_d   = crc_q;
            err_d   = err_q;
            if (fv) begin
                // CRC-32 (reflected 0xEDB88320), a nibble per step: the
                // table entry of a nibble is the XOR of its bits' entries
                d = {4*NN{1'b0}};
                d[W-1:0] = flit_i[W-1:0];
                for (k = 0; k < NN; k = k + 1) begin
                    x = crc_d[3:0] ^ d[4*k +: 4];
                    crc_d = (crc_d >> 4) ^ ({32{x[0]}} & 32'h1DB71064) ^ ({32{x[1]}} & 32'h3B6E20C8) ^
                            ({32{x[2]}} & 32'h76DC4190) ^ ({32{x[3]}} & 32'hEDB88320);
                end
                if (cnt_q == 0)
                    first_d = ts_i;
                cnt_d = cnt_q + 1'b1;
                if (late) begin
                    err_d[0] = 1'b1;
                    overrun_o <= 1'b1;
                end else if (adr_q[AW]) begin
                    err_d[2] = 1'b1;
                    bounds_o <= 1'b1;
                end
                if (!late)
                    rem_q <= rem_q - 1'b1;
                adr_q   <= adr_q + 1'b1;
                cnt_q   <= cnt_d;
                first_q <= first_d;
                last_q  <= ts_i;
                crc_q   <= crc_d;
            end
            // (a flit in a round's end cycle is late: rem_q is final)
            if (fin_i && act_q && rem_q != 0) begin
                err_d[1] = 1'b1;
                short_o <= 1'b1;
            end
            err_q <= err_d;
            // file at a round's end, and for an overrun flit after the run
            if (act_q && (fin_i || (fv && !run_i && !sw_i))) begin
                file_q <= 1'b1;
                rnd_q  <= idx_q;
                rec_q  <= {epoch_i, err_d, cnt_d, fv ? ts_i : last_q, first_d, ~crc_d};
            end
            if (sw_i) begin          // the new round's descriptor
                act_q   <= nx[EW-1];
                idx_q   <= round_i;
                adr_q   <= {1'b0, nx[0 +: AW]};
                rem_q   <= nx[AW +: AW + 1];
                cnt_q   <= {(AW + 1){1'b0}};
                first_q <= {DW{1'b0}};
                last_q  <= {DW{1'b0}};
                crc_q   <= 32'hFFFFFFFF;
                err_q   <= 3'd0;
            end
        end
        if (nrst_i)
            act_q <= 1'b0;
    end
    /* verilator lint_on BLKSEQ */

    tn_ram #(.DW(EW), .AW(RW)) u_desc (
        .wclk_i(bclk_i), .we_i(lw_i), .waddr_i(lw_idx_i), .wdata_i(lw_row_i),
        .rclk_i(nclk_i), .re_i(lr_i | prep_i | sw_i),
        .raddr_i(lr_i ? lr_idx_i : prep_i ? {RW{1'b0}} : round_i + 1'b1), .rdata_o(nx));

    tn_ram #(.DW(RCW), .AW(RW)) u_rec (
        .wclk_i(nclk_i), .we_i(file_q), .waddr_i(rnd_q), .wdata_i(rec_q),
        .rclk_i(bclk_i), .re_i(rr_i), .raddr_i(rr_idx_i), .rdata_o(rec_o));
endmodule
