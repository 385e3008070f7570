`default_nettype none
// SPDX-License-Identifier: MIT
// tn_ni_inject: one inject lane. Holds its per-round descriptors; at the
// round switch loads round r's, then presents flit k of the stream in cycle
// T_r + ALPHA + offset + k (ALPHA = 1: the switch cycle itself). Flit k is
// read from address + k + floor(k / run) * skip (run = 0: contiguous), so a
// stream may gather equally spaced runs of words without gaps in time.
module tn_ni_inject #(
    parameter W      = 16,   // flit data width
    parameter AW     = 12,   // memory address bits
    parameter DEPTH  = 4096, // memory words
    parameter ROUNDS = 16,   // round-table depth
    parameter RW     = 4,    // round index bits
    parameter CW     = 32,   // bits kept of addresses, lengths, offsets (board builds: fewer)
    parameter GATHER = 1,    // 0: no gather field (reads 0, streams contiguous)
    parameter SWHIT  = 0,    // 1: hsw_o (block-RAM flit memory, boards); else 0
    parameter FW     = W + 3 // flit width
) (
    input  wire          clk_i,
    input  wire          rst_i,
    input  wire          run_i,     // the sequencer is running
    input  wire          sw_i,      // switch cycle of round round_i
    input  wire          go_i,      // run_i && !sw_i (from a register)
    input  wire [RW-1:0] round_i,
    // descriptor table port: field 0 {valid, relay, offset}, 1 address,
    // 2 length, 3 gather {skip[31:16], run[15:0]}
    input  wire          cfg_we_i,
    input  wire [RW-1:0] cfg_round_i,
    input  wire [1:0]    cfg_field_i,
    input  wire [31:0]   cfg_wdata_i,
    /* verilator lint_off UNUSEDSIGNAL */ // [3]: eject lanes only
    input  wire [4:0]    cfg_wf_i,     // compares of cfg_wdata_i (tn_torus wflags)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [3:0]    cfg_rsel_i,   // read: field k (one-hot), 0: cfg_rdata_o is 0
    output reg  [31:0]   cfg_rdata_o,
    // memory read port: maddr_o for an asynchronous read in this cycle;
    // maddr_n_o (the next cycle's word, while fetch_o) for a registered read
    output wire [AW-1:0] maddr_o,
    output wire [AW-1:0] maddr_n_o,
    output wire          fetch_o,
    // the block-RAM memory's bypass (SWHIT): a switch in this cycle fetches
    // word hwa_i (the eject lane's write address)
    /* verilator lint_off UNUSEDSIGNAL */ // SWHIT only
    input  wire [AW-1:0] hwa_i,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire          hsw_o,
    input  wire [W+1:0]  mdata_i,
    output reg  [FW-1:0] flit_o,
    output wire          relay_o,   // this round's stream is head-routed
    output reg           bounds_o   // a flit fell outside the memory
);
    // Board builds (CW < 32) keep only the low CW bits of counts, lengths,
    // addresses, offsets and durations: the other bits are constant 0.
    localparam [31:0] CM = (CW >= 32) ? 32'hFFFFFFFF : ((32'd1 << CW) - 32'd1);
    localparam [31:0] CTLM = 32'hC0000000 | (CM & 32'h00FFFFFF);
    localparam [31:0] GATM = GATHER ? ((CM << 16) | (CM & 32'h0000FFFF)) : 32'd0;
    reg [31:0] ctl_m [0:ROUNDS-1];
    reg [31:0] adr_m [0:ROUNDS-1];
    reg [31:0] len_m [0:ROUNDS-1];
    reg [31:0] gat_m [0:ROUNDS-1];
    // compares of the descriptor, made when it is written (tn_torus
    // compares the write data; used at the switch, so the lane's flags
    // load from a table entry, not a compare):
    // {offset == 0} of field 0, {length != 0, length == 1} of field 2,
    // {address < DEPTH} of field 1
    reg        wz_m  [0:ROUNDS-1];
    reg [1:0]  lenf_m [0:ROUNDS-1];
    reg        inb_m [0:ROUNDS-1];

    reg        act_q, act_d;
    reg        relay_q, relay_d;
    reg [23:0] wait_q, wait_d;
    reg [31:0] rem_q, rem_d;
    reg [31:0] addr_q, addr_d;
    reg [15:0] run_q, run_d;       // flits per run (0: contiguous)
    reg [15:0] skip_q, skip_d;     // words skipped after each run
    reg [15:0] runc_q, runc_d;     // flits left in the current run
    // Flags kept as registers, computed for the next state from registers,
    // so "a flit leaves in this cycle" and the next address are a few LUTs
    // after the flip-flops: live = act && rem != 0, wz = wait == 0,
    // r1 = rem == 1, inb = addr < DEPTH. Without gather (board builds)
    // the next address is addr + 1, and its in-bounds flag is taken from
    // inb and compares of addr with constants (no adder before it).
    reg        live_q, live_d;
    reg        wz_q, wz_d;
    reg        r1_q, r1_d;
    reg        inb_q, inb_d;
    wire       emit = go_i && live_q && wz_q;    // flit of this cycle
    wire       cnt  = go_i && act_q && !wz_q;    // waiting: count down
    wire [31:0] ainc = (addr_q + 32'd1) & CM;
    localparam  FAST_INB = GATHER == 0 && DEPTH == (1 << AW) && CM >= DEPTH;
    wire        inb_inc = inb_q ? addr_q[AW-1:0] != {AW{1'b1}}  // addr + 1 < DEPTH
                                : (addr_q & CM) == CM;           // wraps to 0
    wire [31:0] anxt = (run_q != 16'd0 && runc_q == 16'd1) ? (addr_q + 32'd1 + {16'd0, skip_q}) & CM
                                                           : ainc;
    wire [31:0] sw_len  = len_m[round_i] & CM;
    wire [31:0] sw_adr  = adr_m[round_i] & CM;
    /* verilator lint_off UNUSEDSIGNAL */ // bits 29:24 are not kept
    wire [31:0] sw_ctl  = ctl_m[round_i];
    /* verilator lint_on UNUSEDSIGNAL */

    assign maddr_o   = addr_q[AW-1:0];
    assign maddr_n_o = addr_d[AW-1:0];
    // (per round from the table's registers, then the round's: not after
    // the switch address's select, which the next address shares)
    generate
        if (SWHIT != 0) begin : gen_hit
            (* keep *) wire [ROUNDS-1:0] hr;
            genvar gr;
            for (gr = 0; gr < ROUNDS; gr = gr + 1) begin : gen_hr
                assign hr[gr] = adr_m[gr][AW-1:0] == hwa_i;
            end
            assign hsw_o = hr[round_i];
        end else begin : gen_nohit
            assign hsw_o = 1'b0;
        end
    endgenerate
    // act_d, written from the registers and the switch (no emit decode before it)
    (* keep *) wire last;  // the last flit leaves (unless a switch)
    assign last = run_i & live_q & wz_q & r1_q;
    assign fetch_o   = sw_i ? sw_ctl[31] : act_q & ~last;
    assign relay_o = relay_q;

    always @(posedge clk_i)
        if (cfg_we_i)
            case (cfg_field_i)
                2'd0: begin
                    ctl_m[cfg_round_i] <= cfg_wdata_i & CTLM;
                    wz_m[cfg_round_i]  <= cfg_wf_i[4];
                end
                2'd1: begin
                    adr_m[cfg_round_i] <= cfg_wdata_i & CM;
                    inb_m[cfg_round_i] <= ~cfg_wf_i[2];
                end
                2'd2: begin
                    len_m[cfg_round_i]  <= cfg_wdata_i & CM;
                    lenf_m[cfg_round_i] <= {~cfg_wf_i[0], cfg_wf_i[1]};
                end
                default: gat_m[cfg_round_i] <= cfg_wdata_i & GATM;
            endcase

    always @*
        cfg_rdata_o = ({32{cfg_rsel_i[0]}} & ctl_m[cfg_round_i] & CTLM)
                    | ({32{cfg_rsel_i[1]}} & adr_m[cfg_round_i] & CM)
                    | ({32{cfg_rsel_i[2]}} & len_m[cfg_round_i] & CM)
                    | ({32{cfg_rsel_i[3]}} & gat_m[cfg_round_i] & GATM);

    always @* begin
        act_d    = act_q;
        relay_d  = relay_q;
        wait_d   = wait_q;
        rem_d    = rem_q;
        addr_d   = addr_q;
        run_d    = run_q;
        skip_d   = skip_q;
        runc_d   = runc_q;
        live_d   = live_q;
        wz_d     = wz_q;
        r1_d     = r1_q;
        inb_d    = inb_q;
        flit_o   = {FW{1'b0}};
        bounds_o = 1'b0;
        if (sw_i) begin
            act_d   = sw_ctl[31];
            relay_d = sw_ctl[31] & sw_ctl[30];
            wait_d  = sw_ctl[23:0];
            rem_d   = sw_len;
            addr_d  = sw_adr;
            run_d   = gat_m[round_i][15:0];
            skip_d  = gat_m[round_i][31:16];
            runc_d  = gat_m[round_i][15:0];
            live_d  = sw_ctl[31] && lenf_m[round_i][1];
            wz_d    = wz_m[round_i];
            r1_d    = lenf_m[round_i][0];
            inb_d   = inb_m[round_i];
        end
        if (cnt) begin
            wait_d = (wait_q - 24'd1) & CM[23:0];
            wz_d   = wait_q == 24'd1;
        end
        if (emit) begin
            if (inb_q)
                flit_o = {1'b1, mdata_i};
            else
                bounds_o = 1'b1;
            if (run_q != 16'd0 && runc_q == 16'd1)
                runc_d = run_q;
            else
                runc_d = runc_q - 16'd1;
            addr_d = anxt;
            inb_d  = FAST_INB ? inb_inc : anxt < DEPTH;
            rem_d  = (rem_q - 32'd1) & CM;
            r1_d   = rem_q == 32'd2;
            if (r1_q) begin
                act_d  = 1'b0;
                live_d = 1'b0;
            end
        end
        // Board builds: only the kept bits exist (the others are constant 0).
        wait_d = wait_d & CM[23:0];
        rem_d  = rem_d & CM;
        addr_d = addr_d & CM;
        run_d  = run_d & GATM[15:0];
        skip_d = skip_d & GATM[31:16];
        runc_d = runc_d & GATM[15:0];
    end

    always @(posedge clk_i) begin
        act_q   <= act_d;
        relay_q <= relay_d;
        wait_q  <= wait_d;
        rem_q   <= rem_d;
        addr_q  <= addr_d;
        run_q   <= run_d;
        skip_q  <= skip_d;
        runc_q  <= runc_d;
        live_q  <= live_d;
        wz_q    <= wz_d;
        r1_q    <= r1_d;
        inb_q   <= inb_d;
        if (rst_i) begin
            act_q   <= 1'b0;
            relay_q <= 1'b0;
            live_q  <= 1'b0;
        end
    end
endmodule
