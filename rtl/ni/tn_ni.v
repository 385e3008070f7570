`default_nettype none
// SPDX-License-Identifier: MIT
// tn_ni: a node's network interface: LANES inject lanes, LANES eject lanes,
// the flit memory between them (2**BB block-RAM banks) and the lanes'
// tables (inject lists, eject descriptors and the node's round settings:
// written on the bus clock, read on the network clock) and eject records
// (written on the network clock, read on the bus clock). docs/hardware.md
// describes what each part does; docs/timing.md when.
// - Inject lane: the entry at its list position is in its RAM's output
//   register; it starts when the node is in its round and the round-
//   relative cycle equals its start s: word k is read in T_r + s + k, its
//   flit is on the lane in T_r + 1 + s + k. A start reads the next entry
//   (a chain of entries sends one gap-free stream); the next switch, the
//   lane's next start or the end of the run cuts a stream.
// - Eject lane: the next round's descriptor is in its RAM's output register
//   and becomes active at the switch (lane 0's RAM also holds the round
//   settings, a row before each descriptor: read a cycle earlier and kept
//   in cfg_o); the lane counts every flit from its
//   source, stores the first n at a, a+1, ..., timestamps the first and
//   the last (round-relative), keeps their CRC-32, and at the round's end
//   files the record under the round (again for overrun flits after the
//   run).
// - Flit memory: word a in bank a mod 2**BB, row a / 2**BB; per bank and
//   cycle one read and one write: the bus first, then the lowest lane that
//   asks; a lane that finds its bank taken loses that access (counted).
// The lanes are arrays in one module: their work is loops under a test of
// their activity, so a simulator does little for an idle lane and copies
// no lane's output into a port vector of a lane instance (docs/NOTES.md,
// "Simulation cost").
module tn_ni #(
    parameter W     = 16,      // flit data width
    parameter LANES = 6,       // inject and eject lanes
    parameter RELAY = 1,       // 1: relay hardware (eject lanes may take relay packets)
    parameter AW    = 12,      // flit memory address bits
    parameter RW    = 10,      // round and list index bits
    parameter DW    = 14,      // round-relative cycle bits
    parameter BB    = 3,       // log2 of the flit memory banks
    parameter SIW   = 4,       // the router's source index bits
    parameter CFW   = 24,      // round settings (tn_node)
    parameter FW    = W + 3,   // flit: {valid, head, tail, data}
    parameter FS    = (FW <= 32) ? 32 : 64,      // a flit's slot on the router's buses
    parameter IEW   = 5 + RW + DW + 2 * AW + 1,  // inject entry {valid, relay, hop, round, start, length, address}
    parameter EEW   = 2 + 3 + 2 * AW + 1         // eject descriptor {valid, relay, port, length, address}
) (
    // ---- bus clock: table writes (tn_plane packs them), record reads ----
    input  wire                bclk_i,
    input  wire                tw_i,       // a table write for the node
    input  wire [LANES-1:0]    iw_i,       // ... of lane l's inject list
    input  wire [LANES-1:0]    ew_i,       // ... of lane l's eject descriptors
    input  wire [RW-1:0]       tw_idx_i,   // list index, or round
    input  wire [IEW-1:0]      tw_inj_i,
    input  wire [EEW-1:0]      tw_ej_i,
    input  wire                cw_i,       // ... of the round settings
    input  wire [CFW-1:0]      tw_cfg_i,
    input  wire                rr_i,       // read row rr_row_i (word w of round r: 3 r + w) of lane rr_lane_i's records
    input  wire [2:0]          rr_lane_i,
    input  wire [RW+1:0]       rr_row_i,
    output wire [31:0]         rr_data_o,  // ... from the bus cycle after rr_i on
    // ---- network clock ----
    input  wire                nclk_i,
    input  wire                nrst_i,
    input  wire                run_i,      // the sequencer runs
    input  wire                sw_i,       // a switch cycle
    input  wire                fin_i,      // the previous cycle was a round's last
    input  wire                prep_i,     // the cycle before a run's first switch
    input  wire [RW-1:0]       round_i,
    input  wire [DW-1:0]       rcyc_i,     // round-relative cycle
    input  wire [DW-1:0]       ts_i,       // this cycle relative to the active eject descriptors' round
    input  wire [3:0]          epoch_i,    // runs started, mod 16
    output wire [RW-1:0]       around_o,   // the round of the active eject descriptors (from its switch on)
    output reg  [CFW-1:0]      cfg_o,      // the next round's settings (from the cycle after its switch on)
    // network-clock bus: a table entry word (between runs only; the next
    // cycle), a flit memory word (read: the next cycle)
    input  wire                tr_i,       // read word tr_word_i of ...
    input  wire                tr_ej_i,    // ... lane tr_lane_i's eject descriptor (1) or list entry (0) tr_idx_i
    input  wire                cr_i,       // read round tr_idx_i's settings
    input  wire [2:0]          tr_lane_i,
    input  wire [RW-1:0]       tr_idx_i,
    input  wire                tr_word_i,
    output reg  [31:0]         tr_data_o,
    input  wire                mre_i,
    input  wire                mwe_i,
    input  wire [AW-1:0]       maddr_i,
    input  wire [W+1:0]        mwdata_i,   // {head, tail, data}
    output reg  [W+1:0]        mrdata_o,
    // ---- the router ----
    output wire [LANES*FS-1:0] inj_o,      // inject lane l's flit in slot l
    output wire [LANES-1:0]    irel_o,     // inject lane l's stream is head-routed
    output wire [3*LANES-1:0]  ihop_o,     // ... and its heads' output (its entry's hop)
    /* verilator lint_off UNUSEDSIGNAL */ // the slots' unused bits
    input  wire [LANES*FS-1:0] ej_i,       // eject lane l's flit in slot l
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                ejany_i,    // some eject lane has a flit
    // the eject lanes' sources from each switch on: an input port or
    // none (index NONE), relay; the input ports their circuits use
    output reg  [LANES*SIW-1:0] esrc_o,
    output reg  [LANES-1:0]    erel_o,
    output reg  [5:0]          euse_o,
    // ---- events (tn_status): this cycle's ----
    output reg  [3:0]          ev_o,       // some lane: {inject bounds, eject bounds, short, overrun}
    output reg  [3:0]          nconf_o     // lane accesses lost to bank conflicts
);
    localparam MW  = W + 2;                  // memory word {head, tail, data}
    localparam NBK = 1 << BB;                // banks
    localparam RA  = AW - BB;                // row bits
    localparam BW  = (BB > 0) ? BB : 1;      // a bank index's width
    localparam [BW-1:0] BMASK = NBK - 1;
    // A record is three words in its RAM: {epoch, errors, count},
    // {last, first}, CRC (word w of round r in row 3 r + w).
    localparam R0W = 4 + 3 + AW + 1;         // word 0's bits
    localparam ROUNDS = 1 << RW;
    // fields of an inject entry and of an eject descriptor
    // An inject entry as the lists keep it: without the relay flag and the
    // hop when RELAY is 0 (on an iCE40 at ROUNDS 16, 32 bits: 2 block
    // RAMs, not 3). I_REL and I_HOP name bits of the round there (read
    // only under RELAY != 0).
    localparam IMW = (RELAY != 0) ? IEW : IEW - 4;
    localparam I_V = IMW - 1, I_REL = IMW - 2, I_HOP = IMW - 5;
    localparam I_RND = 2 * AW + 1 + DW, I_ST = 2 * AW + 1;
    localparam E_V = EEW - 1, E_REL = EEW - 2, E_PORT = 2 * AW + 1;
    localparam [3:0] NONE4 = 4'd6 + LANES[3:0];
    localparam [SIW-1:0] NONE = NONE4[SIW-1:0];     // the router's "no source"
    localparam NN = 2 * ((W + 7) / 8);       // CRC nibbles per flit, zero padded
    localparam XW = (EEW > CFW) ? EEW : CFW; // a row of lane 0's descriptor RAM

    // CRC-32 (reflected 0xEDB88320) of one nibble x: the table a nibble at
    // a time reads (the XOR of the polynomial's shifts for x's bits)
    (* rom_style = "logic" *) reg [31:0] crc_t [0:15];
    initial begin
        crc_t[0]  = 32'h00000000; crc_t[1]  = 32'h1DB71064; crc_t[2]  = 32'h3B6E20C8; crc_t[3]  = 32'h26D930AC;
        crc_t[4]  = 32'h76DC4190; crc_t[5]  = 32'h6B6B51F4; crc_t[6]  = 32'h4DB26158; crc_t[7]  = 32'h5005713C;
        crc_t[8]  = 32'hEDB88320; crc_t[9]  = 32'hF00F9344; crc_t[10] = 32'hD6D6A3E8; crc_t[11] = 32'hCB61B38C;
        crc_t[12] = 32'h9B64C2B0; crc_t[13] = 32'h86D3D2D4; crc_t[14] = 32'hA00AE278; crc_t[15] = 32'hBDBDF21C;
    end

    // ==== state ====
    // inject lanes
    (* mem2reg *) reg [AW:0]   iadr_q [0:LANES-1];  // the next word (bit AW: beyond the memory)
    (* mem2reg *) reg [AW:0]   irem_q [0:LANES-1];  // words left
    reg [LANES-1:0] iact_q;                  // words left to read
    reg [LANES-1:0] iok_q;                   // a word was read (and granted) last cycle
    reg [LANES-1:0] irel_q;                  // the stream is head-routed
    reg [3*LANES-1:0] ihop_q;                // its heads' output (lane l in bits 3l+2:3l)
    (* mem2reg *) reg [IMW-1:0] inx [0:LANES-1];   // the entry at each lane's position
    // eject lanes
    (* mem2reg *) reg [AW:0]   eadr_q [0:LANES-1];  // the next word (bit AW: beyond the memory)
    (* mem2reg *) reg [AW:0]   erem_q [0:LANES-1];  // flits still expected
    reg [LANES-1:0] eact_q;                  // a descriptor is active
    (* mem2reg *) reg [XW-1:0] enx [0:LANES-1];    // the next round's descriptor (lane 0: or settings)
    // the memory banks' read words
    (* mem2reg *) reg [MW-1:0] brd [0:NBK-1];

    // ==== the inject lanes' flits (from registers only) ====
    // The word read last cycle leaves now, unless this is a switch cycle or
    // the run has ended. It is in the bank of the address before the
    // lane's next (every read, granted or not, moves the address on).
    // (a slot per lane, each assigned whole: a simulator then keeps no
    // bound-checked temporary per lane)
    wire  iv = run_i && !sw_i;
    genvar ga;
    generate
        for (ga = 0; ga < LANES; ga = ga + 1) begin : gen_inj
            assign inj_o[ga*FS +: FW] = iok_q[ga] ? {iv, brd[(iadr_q[ga][BW-1:0] - 1'b1) & BMASK]} : {FW{1'b0}};
            if (FS > FW) begin : gen_pad
                assign inj_o[ga*FS+FW +: FS-FW] = {(FS - FW){1'b0}};
            end
        end
    endgenerate
    assign irel_o = irel_q;
    assign ihop_o = ihop_q;

    // ==== this cycle's lane work, memory requests and bank grants ====
    wire [BW-1:0]   mbank = maddr_i[BW-1:0] & BMASK;   // the bus's bank
    reg [LANES-1:0] start, more, iok;        // inject: a start, a stream going on, a read granted
    reg [LANES-1:0] efv, elate;              // eject: a flit counted, one not stored (late)
    reg [LANES-1:0] eshort, ebnd;            // ... errors: short stream, memory bounds (overrun: efv & elate)
    reg [LANES-1:0] eerr;                    // ... some error
    reg [LANES-1:0] t_start, t_more, t_ird, t_iok, t_fv, t_late, t_short, t_bnd;
    reg [NBK-1:0]   bre, bwe;                // bank b read, written
    (* mem2reg *) reg [RA-1:0] bra [0:NBK-1];
    (* mem2reg *) reg [RA-1:0] bwa [0:NBK-1];
    (* mem2reg *) reg [MW-1:0] bwd [0:NBK-1];
    reg [NBK-1:0]   t_bre, t_bwe;
    reg [BW-1:0]    b;
    reg [IMW-1:0]   e;
    reg [AW-1:0]    ra;
    reg [FW-1:0]    f;
    reg [3:0]       t_nconf;
    reg             t_ibnd;                  // an inject word beyond the memory skipped
    // a lane's terms as scalars (a lane's bits are set as constant masks:
    // a simulator then keeps no bound-checked temporary per bit)
    reg             st, mo, ah, rd, fv, lt, lt0;
    localparam [LANES-1:0] L1 = 1;
    integer         l, k;
    always @* begin
        st = 1'b0;
        mo = 1'b0;
        ah = 1'b0;
        rd = 1'b0;
        fv = 1'b0;
        lt = 1'b0;
        lt0 = !run_i || sw_i;
        t_start = {LANES{1'b0}};
        t_more  = {LANES{1'b0}};
        t_ird   = {LANES{1'b0}};
        t_iok   = {LANES{1'b0}};
        t_fv    = {LANES{1'b0}};
        t_late  = {LANES{1'b0}};
        t_short = {LANES{1'b0}};
        t_bnd   = {LANES{1'b0}};
        t_bre   = {NBK{1'b0}};
        t_bwe   = {NBK{1'b0}};
        t_nconf = 4'd0;
        t_ibnd  = 1'b0;
        b = {BW{1'b0}};
        e = {IMW{1'b0}};
        ra = {AW{1'b0}};
        f = {FW{1'b0}};
        for (k = 0; k < NBK; k = k + 1) begin
            bra[k] = {RA{1'b0}};
            bwa[k] = {RA{1'b0}};
            bwd[k] = {MW{1'b0}};
        end
        // reads: the bus first, then the inject lanes that read a word
        if (mre_i) begin
            b = mbank;
            t_bre[b] = 1'b1;
            bra[b] = maddr_i[AW-1:BB];
        end
        if (run_i) begin
            t_more = sw_i ? {LANES{1'b0}} : iact_q;
            for (l = 0; l < LANES; l = l + 1) begin
                e  = inx[l];
                st = 1'b0;
                if (e[I_ST +: DW] == rcyc_i)
                    st = e[I_V] && e[I_RND +: RW] == round_i;
                mo = t_more[l];
                ah = iadr_q[l][AW];
                rd = st ? e[AW +: AW + 1] != 0 : mo && !ah;
                if (st)
                    t_start = t_start | (L1 << l);
                if (ah)
                    if (!st && mo)
                        t_ibnd = 1'b1;
                if (rd) begin
                    t_ird = t_ird | (L1 << l);
                    ra = st ? e[0 +: AW] : iadr_q[l][AW-1:0];
                    b = ra[BW-1:0] & BMASK;
                    if (t_bre[b]) begin
                        t_nconf = t_nconf + 4'd1;
                    end else begin
                        t_bre[b] = 1'b1;
                        bra[b] = ra[AW-1:BB];
                        t_iok = t_iok | (L1 << l);
                    end
                end
            end
        end
        // writes: the bus first, then the eject lanes that store a flit
        if (mwe_i) begin
            b = mbank;
            t_bwe[b] = 1'b1;
            bwa[b] = maddr_i[AW-1:BB];
            bwd[b] = mwdata_i;
        end
        if (ejany_i || fin_i)
            for (l = 0; l < LANES; l = l + 1) begin
                f  = ej_i[l*FS +: FW];
                fv = f[W+2] && eact_q[l];
                lt = lt0 || erem_q[l] == 0;
                if (fv)
                    t_fv = t_fv | (L1 << l);
                if (lt)
                    t_late = t_late | (L1 << l);
                // (a flit in a round's end cycle is late: fin_i comes in a
                // switch cycle or after the run, so the flits still
                // expected are final)
                if (fin_i)
                    if (eact_q[l] && erem_q[l] != 0)
                        t_short = t_short | (L1 << l);
                if (fv && !lt) begin
                    if (eadr_q[l][AW]) begin
                        t_bnd = t_bnd | (L1 << l);
                    end else begin
                        b = eadr_q[l][BW-1:0] & BMASK;
                        if (t_bwe[b]) begin
                            t_nconf = t_nconf + 4'd1;
                        end else begin
                            t_bwe[b] = 1'b1;
                            bwa[b] = eadr_q[l][AW-1:BB];
                            bwd[b] = f[W+1:0];
                        end
                    end
                end
            end
        start   = t_start;
        more    = t_more;
        iok     = t_iok;
        efv     = t_fv;
        elate   = t_late;
        eshort  = t_short;
        ebnd    = t_bnd;
        eerr    = t_bnd | t_short | (t_fv & t_late);
        bre     = t_bre;
        bwe     = t_bwe;
        nconf_o = t_nconf;
        ev_o    = {t_ibnd, |t_bnd, |t_short, |(t_fv & t_late)};
    end

    // ==== the flit memory banks ====
    // Each bank an array of its own in a generate block (no RAM module: a
    // simulator then copies no RAM port per cycle), one write and one
    // registered read per cycle, tested under one select for all banks;
    // the form synthesis maps to block RAM (docs/hardware.md).
    wire mact = mre_i || mwe_i || run_i;     // the banks are used (lanes store only in a run)
    genvar gb;
    generate
        for (gb = 0; gb < NBK; gb = gb + 1) begin : gen_bank
            (* no_rw_check *) reg [MW-1:0] mem [0:(1 << RA) - 1];
            /* verilator lint_off BLKSEQ */
            always @(posedge nclk_i)
                if (mact) begin
                    if (bwe[gb])
                        mem[bwa[gb]] = bwd[gb];
                end
            // (the read word with a blocking assignment too: only
            // combinational logic reads it, and a simulator then keeps no
            // delayed copy of it)
            always @(posedge nclk_i)
                if (mact)
                    if (bre[gb])
                        brd[gb] = mem[bra[gb]];
            /* verilator lint_on BLKSEQ */
        end
    endgenerate
    // the bus's word: the bank it read last cycle
    reg          mrp_q;
    reg [BW-1:0] mrb_q;
    always @(posedge nclk_i) begin
        mrp_q <= mre_i;
        if (mre_i)
            mrb_q <= mbank;
    end
    always @* begin
        mrdata_o = {MW{1'b0}};
        if (mrp_q)
            mrdata_o = brd[mrb_q];
    end

    // ==== inject lanes: lists and state ====
    // A lane reads entry 0 in the prep cycle, its next entry at a start,
    // and any entry for the bus (between runs).
    wire ilr  = tr_i && !tr_ej_i;
    wire ilrs = ilr || prep_i || run_i;       // the lists' read ports are used
    genvar g;
    // Lane state changes only in a run and in the cycle after one (every
    // lane stops). Each lane's block reads its entry (inx), then fetches
    // the next one into it; the lane's array elements, its entry and its
    // bits of iact_q and irel_q are written with blocking assignments: no
    // other clocked block reads them (the other readers are combinational;
    // the formal properties aside), and a simulator then keeps no delayed
    // copy of them.
    reg iwrun_q;                             // the last cycle was part of a run (the lanes stop)
    always @(posedge nclk_i)
        if (run_i || iwrun_q || nrst_i) begin
            iwrun_q <= run_i && !nrst_i;
            iok_q   <= nrst_i ? {LANES{1'b0}} : iok;
        end
    generate
        for (g = 0; g < LANES; g = g + 1) begin : gen_ilist
            // (no_rw_check, as every table RAM: a read of the entry written
            // at the same edge is not defined; the bus serialises a write
            // and a read, and a write during a run is not seen in time:
            // docs/hardware.md, "Table RAMs". Without it, synthesis adds
            // flip-flops and a bypass to return the old word on one clock.)
            (* no_rw_check *) reg [IMW-1:0] mem [0:ROUNDS-1];
            reg [RW-1:0]  ptr_q;               // the entry to fetch next
            reg           lr;                  // a bus read of this lane's list (a temporary)
            reg [AW:0]    adr_d, rem_d;
            /* verilator lint_off BLKSEQ */
            always @(posedge bclk_i)
                if (tw_i)
                    if (iw_i[g])
                        mem[tw_idx_i] = {tw_inj_i[IEW-1], tw_inj_i[IMW-2:0]};  // (RELAY 0: no relay flag, no hop)
            always @(posedge nclk_i) begin
                adr_d = {(AW + 1){1'b0}};
                rem_d = {(AW + 1){1'b0}};
                lr    = 1'b0;
                if (run_i || iwrun_q || nrst_i) begin
                    adr_d = iadr_q[g];
                    rem_d = irem_q[g];
                    if (start[g]) begin
                        iact_q[g] = inx[g][AW +: AW + 1] > 1;
                        adr_d     = {1'b0, inx[g][0 +: AW]} + 1'b1;
                        rem_d     = inx[g][AW +: AW + 1] - 1'b1;
                        irel_q[g] = RELAY != 0 && inx[g][I_REL];
                        ihop_q[3*g +: 3] = RELAY != 0 ? inx[g][I_HOP +: 3] : 3'd0;
                    end else if (more[g]) begin
                        iact_q[g] = rem_d != 1;
                        adr_d     = adr_d + 1'b1;
                        rem_d     = rem_d - 1'b1;
                    end else begin
                        iact_q[g] = 1'b0;
                        irel_q[g] = 1'b0;
                    end
                    iadr_q[g] = adr_d;
                    irem_q[g] = rem_d;
                    if (nrst_i) begin
                        iact_q[g] = 1'b0;
                        irel_q[g] = 1'b0;
                    end
                end
                if (ilrs) begin
                    if (ilr)
                        lr = tr_lane_i == g;
                    if (lr || prep_i || start[g]) begin
                        inx[g] = mem[lr ? tr_idx_i : prep_i ? {RW{1'b0}} : ptr_q];
                        ptr_q <= prep_i ? {{(RW - 1){1'b0}}, 1'b1} : ptr_q + 1'b1;
                    end
                end
            end
            /* verilator lint_on BLKSEQ */
        end
    endgenerate

    // ==== eject lanes: descriptors, state, records ====
    // The read-ahead of the next round's table rows (round 0's in prep)
    // takes two cycles: the two prep cycles, or the two after a switch
    // (ahd1, then ahd2; rounds last 3 cycles or more, so the rows are
    // there for the next switch). A lane reads its descriptor in ahd2;
    // lane 0's RAM, which holds round r's settings in row 2 r and its
    // descriptor in row 2 r + 1, reads the settings in ahd1, which ahd2
    // moves to cfg_o as it reads the descriptor: so a node keeps its
    // settings and lane 0's descriptors in one block RAM (on an iCE40,
    // whose EBR is at most 16 bits wide, 2 instead of 4). Any entry is
    // read for the bus between runs. No edge both reads enx (the switch's)
    // and writes it: the write is a blocking assignment, so a simulator
    // keeps no delayed copy of each lane's element (docs/NOTES.md,
    // "Simulation cost").
    reg  sw1_q;                              // the last cycle was a switch cycle
    reg  ahd_q;                              // the last cycle was ahd1
    wire ahd1 = (prep_i && !ahd_q) || sw1_q, ahd2 = ahd_q;
    always @(posedge nclk_i) begin
        sw1_q <= sw_i && !nrst_i;
        ahd_q <= ahd1 && !nrst_i;
    end
    wire [RW-1:0] anx = prep_i ? {RW{1'b0}} : round_i + 1'b1;   // the round read ahead
    // The round of the active descriptors, shared by the lanes, and the
    // row of word 2 of its record (a register's sum: a lane's filing
    // decision, late in the cycle, only selects it; docs/boards.md).
    reg [RW-1:0] eidx_q;
    always @(posedge nclk_i)
        if (sw_i)
            eidx_q <= round_i;
    assign around_o = eidx_q;
    wire [RW+1:0] erow2 = {1'b0, eidx_q, 1'b0} + {2'b00, eidx_q} + {{RW{1'b0}}, 2'd2};
    wire elr  = tr_i && tr_ej_i;
    wire elrs = elr || cr_i || ahd1 || ahd2; // the descriptors' read ports are used
    // the record words read for the bus (bus clock)
    (* mem2reg *) reg [31:0] rec [0:LANES-1];
    generate
        for (g = 0; g < LANES; g = g + 1) begin : gen_ej
            reg  lr;                         // a bus read of this lane's descriptors (a temporary)
            if (g == 0) begin : gen_xmem
                // settings (row 2 r) and descriptors (row 2 r + 1); one
                // table write a bus cycle
                (* no_rw_check *) reg [XW-1:0] dmem [0:2*ROUNDS-1];
                /* verilator lint_off BLKSEQ */
                always @(posedge bclk_i)
                    if (tw_i)
                        if (ew_i[0] || cw_i)
                            dmem[{tw_idx_i, ew_i[0]}] = ew_i[0] ? {{(XW - EEW){1'b0}}, tw_ej_i}
                                                                : {{(XW - CFW){1'b0}}, tw_cfg_i};
                // (the settings read in ahd1 go to cfg_o before ahd2's read)
                always @(posedge nclk_i) begin
                    lr = 1'b0;
                    if (elrs) begin
                        lr = elr && tr_lane_i == g;
                        if (ahd2)
                            cfg_o <= enx[0][CFW-1:0];
                        if (lr || cr_i || ahd1 || ahd2)
                            enx[0] = dmem[(lr || cr_i) ? {tr_idx_i, lr} : {anx, ahd2}];
                    end
                end
                /* verilator lint_on BLKSEQ */
            end else begin : gen_dmem
                (* no_rw_check *) reg [EEW-1:0] dmem [0:ROUNDS-1];
                /* verilator lint_off BLKSEQ */
                always @(posedge bclk_i)
                    if (tw_i)
                        if (ew_i[g])
                            dmem[tw_idx_i] = tw_ej_i;
                always @(posedge nclk_i) begin
                    lr = 1'b0;
                    if (elrs) begin
                        lr = elr && tr_lane_i == g;
                        if (lr || ahd2)
                            enx[g] = {{(XW - EEW){1'b0}}, dmem[lr ? tr_idx_i : anx]};
                    end
                end
                /* verilator lint_on BLKSEQ */
            end

            // The lane's counters (read only here and in the record). The
            // first and last flits' cycles are not cleared at a switch:
            // seen_q says whether they are this round's.
            reg [AW:0]     cnt_q;             // flits counted (wraps)
            reg            seen_q;            // a flit was counted
            reg [DW-1:0]   first_q, last_q;
            reg [31:0]     crc_q;
            reg [2:0]      err_q;
            // The records: a word a cycle, so that the RAM is 32 bits wide
            // (on an iCE40, 2 block RAMs instead of 5): the CRC (word 2) in
            // the cycle the record is filed, {last, first} (word 1) in the
            // next from first_q and last_q (a flit changes them only at the
            // end of that cycle), {epoch, errors, count} (word 0, kept in
            // recp_q) in the one after. The sequencer's rounds last 3 cycles
            // or more, so a record is complete before the lane files the
            // next, and at most one switch comes while its words are
            // written; a record filed again for the same round (an overrun
            // flit after the run) starts over; one for another round while
            // words are pending (an abort in the first cycles of a round) is
            // not filed: its round keeps its old record (docs/hardware.md,
            // "Eject records").
            // Row 3 r + w holds word w of round r's record as the bus reads
            // it, so that a lane's records are contiguous in region 4.
            (* no_rw_check *) reg [31:0] rec_m [0:3*ROUNDS-1];
            reg [R0W:0]     recp_q;           // {seen, epoch, errors, count} of the words still to write
            reg             recc_q;           // ... of the active round (1) or the one before (0)
            reg [1:0]       recw_q;           // ... from word 2 - recw_q (0: none)
            reg [RW+1:0]    recrow_q;         // ... the next one's row
            reg             file;
            // This cycle's flit's effect on the record (blocking
            // temporaries), computed only for a flit, a round's end, a
            // switch or a pending record word; the record is filed at a
            // round's end, and for an overrun flit after the run. The
            // lane's array elements and its bit of eact_q are written with
            // blocking assignments (as the inject lanes'): no other
            // clocked block reads them.
            reg [AW:0]     cnt_d, adr_d, rem_d;
            reg [DW-1:0]   first_d;
            reg [31:0]     crc_d;
            reg [2:0]      err_d;
            reg [4*NN-1:0] d;
            reg [RW+1:0]   row;              // the row of the record word written
            integer        n;
            /* verilator lint_off BLKSEQ */
            always @(posedge nclk_i) begin
                cnt_d   = {(AW + 1){1'b0}};
                first_d = {DW{1'b0}};
                crc_d   = 32'd0;
                err_d   = 3'd0;
                adr_d   = {(AW + 1){1'b0}};
                rem_d   = {(AW + 1){1'b0}};
                d       = {4*NN{1'b0}};
                row     = {(RW + 2){1'b0}};
                file    = 1'b0;
                if (efv[g] || fin_i || sw_i || nrst_i || recw_q != 2'd0) begin
                    cnt_d   = cnt_q;
                    first_d = first_q;
                    crc_d   = crc_q;
                    err_d   = err_q;
                    adr_d   = eadr_q[g];
                    rem_d   = erem_q[g];
                    d       = {4*NN{1'b0}};
                    if (efv[g]) begin
                        d[W-1:0] = ej_i[g*FS +: W];
                        for (n = 0; n < NN; n = n + 1)
                            crc_d = (crc_d >> 4) ^ crc_t[crc_d[3:0] ^ d[4*n +: 4]];
                        if (!seen_q)
                            first_d = ts_i;
                        cnt_d = cnt_q + 1'b1;
                        if (!elate[g])
                            rem_d = rem_d - 1'b1;
                        adr_d = adr_d + 1'b1;
                    end
                    if (eerr[g])
                        err_d = err_d | {ebnd[g], eshort[g], efv[g] && elate[g]};
                    // (a record is filed at a round's end, or after the run)
                    file = 1'b0;
                    if (fin_i || !run_i)
                        file = eact_q[g] && (fin_i || (efv[g] && !sw_i)) && (recw_q == 2'd0 || recc_q);
                    // (the pending registers, first_q and last_q are read
                    // here, before any write to them in this block: a
                    // simulator then keeps no delayed copy of them;
                    // docs/NOTES.md, "Simulation cost")
                    if (file || recw_q != 2'd0) begin
                        row = file ? erow2 : recrow_q;
                        rec_m[row] = file ? ~crc_d
                            : (recw_q == 2'd1)
                            ? (recp_q[R0W] ? {{(16 - DW){1'b0}}, last_q, {(16 - DW){1'b0}}, first_q} : 32'd0)
                            : {recp_q[R0W-1 -: 4], 9'd0, recp_q[AW+1 +: 3], {(15 - AW){1'b0}}, recp_q[0 +: AW + 1]};
                        recrow_q <= row - 1'b1;
                        recw_q   <= file ? 2'd1 : (recw_q == 2'd1) ? 2'd2 : 2'd0;
                    end
                    if (file) begin
                        recp_q <= {seen_q || efv[g], epoch_i, err_d, cnt_d};
                        recc_q <= !sw_i;
                    end else if (sw_i) begin
                        recc_q <= 1'b0;       // (the active round becomes the one before)
                    end
                    if (efv[g]) begin
                        seen_q  <= 1'b1;
                        cnt_q   <= cnt_d;
                        first_q <= first_d;
                        last_q  <= ts_i;
                        crc_q   <= crc_d;
                    end
                    err_q <= err_d;
                    if (sw_i) begin           // the new round's descriptor
                        eact_q[g] = enx[g][E_V];
                        adr_d     = {1'b0, enx[g][0 +: AW]};
                        rem_d     = enx[g][AW +: AW + 1];
                        cnt_q     <= {(AW + 1){1'b0}};
                        seen_q    <= 1'b0;
                        crc_q     <= 32'hFFFFFFFF;
                        err_q     <= 3'd0;
                    end
                    eadr_q[g] = adr_d;
                    erem_q[g] = rem_d;
                    if (nrst_i) begin
                        eact_q[g] = 1'b0;
                        recw_q    <= 2'd0;
                    end
                end
            end
            /* verilator lint_on BLKSEQ */
            always @(posedge bclk_i)
                if (rr_i)
                    rec[g] <= rec_m[rr_row_i];
`ifdef FORMAL
            // ---- the eject lane's properties (make formal-ni; below) ----
            // The active descriptor (address a, length n), the flits
            // counted for it, the ones accepted (in the round, while fewer
            // than n), their CRC (a bit at a time: the reference form of
            // the nibble table).
            reg [AW-1:0] f_a;
            reg [AW:0]   f_n, f_cnt, f_acc;
            reg [31:0]   f_crc;
            reg          f_seen;              // a flit was counted: f_first is its cycle
            reg [DW-1:0] f_first, f_last;     // ... and f_last the last one's
            wire         f_fv   = efv[g];
            wire         f_late = !run_i || sw_i || f_acc == f_n;
            wire [AW:0]  f_at   = {1'b0, f_a} + f_acc;   // the next accepted flit's word
            wire [W-1:0] f_d    = ej_i[g*FS +: W];
            always @(posedge nclk_i) begin
                if (f_fv) begin
                    f_cnt <= f_cnt + 1'b1;
                    f_crc <= f_crc_flit(f_crc, f_d);
                    f_seen <= 1'b1;
                    if (!f_seen)
                        f_first <= ts_i;
                    f_last <= ts_i;
                    if (!f_late)
                        f_acc <= f_acc + 1'b1;
                end
                if (sw_i) begin
                    f_a   <= enx[g][0 +: AW];
                    f_n   <= enx[g][AW +: AW + 1];
                    f_cnt <= {(AW + 1){1'b0}};
                    f_acc <= {(AW + 1){1'b0}};
                    f_crc <= 32'hFFFFFFFF;
                    f_seen  <= 1'b0;
                    f_first <= {DW{1'b0}};
                    f_last  <= {DW{1'b0}};
                end
            end
            // the record this cycle files (unless words of another
            // round's are pending), and where
            wire          f_file = eact_q[g] && (fin_i || (f_fv && !run_i && !sw_i)) &&
                                   (recw_q == 2'd0 || recc_q);
            wire [RW-1:0] f_recr = recc_q ? eidx_q : f_eprv;   // the round of the words to write
            wire [RW+1:0] f_row  = {1'b0, f_recr, 1'b0} + {2'b00, f_recr};   // ... its word 0's row
            wire [31:0]   f_w2   = rec_m[f_row + 2'd2];     // the CRC word
            reg  [RW+1:0] f_prow;                          // f_row a cycle ago
            always @(posedge nclk_i)
                f_prow <= f_row;
            // the record's {last, first} filed (0 without a flit)
            reg  [DW-1:0] f_rfirst, f_rlast;
            always @(posedge nclk_i)
                if (f_file) begin
                    f_rfirst <= (f_seen || !f_fv) ? f_first : ts_i;
                    f_rlast  <= f_fv ? ts_i : f_last;
                end
            always @* if (f_live) begin
                // a flit is counted only with an active descriptor; it is
                // not stored when late (beyond n, in a switch cycle, after
                // the run) or beyond the memory
                if (f_fv)
                    assert(eact_q[g] && elate[g] == f_late);
                // count and CRC follow the counted flits (invariants: address
                // and flits still expected follow the accepted ones; after a
                // late flit none is accepted until the next switch)
                // (the first flit's cycle is kept when the count wraps)
                if (eact_q[g])
                    assert(seen_q == f_seen && (!seen_q || (first_q == f_first && last_q == f_last)));
                // (invariants of the words still to write: {last, first}
                // in first_q and last_q, untouched since the filing; a
                // record filed at a switch, or followed by one, has its
                // round in f_eprv, and no other switch comes before its
                // words are written; recrow_q is the next word's row)
                if (eact_q[g] && !f_seen)
                    assert(f_first == {DW{1'b0}} && f_last == {DW{1'b0}});
                if (recw_q == 2'd1)
                    assert(recp_q[R0W] ? (first_q == f_rfirst && last_q == f_rlast)
                                       : (f_rfirst == {DW{1'b0}} && f_rlast == {DW{1'b0}}));
                if (recw_q != 2'd0 && !recc_q)
                    assert(f_sw_q != 2'd0);
                if (recw_q == 2'd1 && !recc_q)
                    assert(f_sw_q[0]);
                if (recw_q != 2'd0)
                    assert(recrow_q == f_row + 2'd2 - recw_q);
                if (eact_q[g])
                    assert(cnt_q == f_cnt && crc_q == f_crc && f_acc <= f_n && erem_q[g] == f_n - f_acc &&
                           eadr_q[g] == {1'b0, f_a} + f_cnt &&
                           (f_cnt == f_acc || f_acc == f_n || !run_i || sw_i));
            end
            always @(posedge nclk_i)
                if (f_live && !$past(nrst_i)) begin
                    // the record filed holds the count and the CRC of the
                    // flits, under the descriptor's round: the CRC in the
                    // RAM, the count pending
                    if ($past(f_file))
                        assert(recw_q == 2'd1 && f_recr == $past(eidx_q));
                    if ($past(f_file) && !$past(sw_i))
                        assert(recp_q[0 +: AW + 1] == f_cnt && f_w2 == ~f_crc);
                    if ($past(f_file) && $past(sw_i))
                        assert(recp_q[0 +: AW + 1] == ($past(f_fv) ? $past(f_cnt) + 1'b1 : $past(f_cnt)) &&
                               f_w2 == ~($past(f_fv) ? f_crc_flit($past(f_crc), $past(f_d)) : $past(f_crc)));
                    // the other words follow, one a cycle, under the same
                    // round (a switch between them or not), unless the
                    // round's record is filed again: {last, first} of the
                    // flits, then the pending word
                    if ($past(!f_file && recw_q != 2'd0))
                        assert(f_recr == $past(f_recr));
                    if ($past(!f_file && recw_q == 2'd1))
                        assert(recw_q == 2'd2 && rec_m[f_row + 2'd1] == {{(16 - DW){1'b0}}, $past(f_rlast),
                               {(16 - DW){1'b0}}, $past(f_rfirst)});
                    if ($past(!f_file && recw_q == 2'd2))
                        assert(recw_q == 2'd0 && rec_m[f_prow] == {$past(recp_q[R0W-1 -: 4]), 9'd0,
                               $past(recp_q[AW+1 +: 3]), {(15 - AW){1'b0}}, $past(recp_q[0 +: AW + 1])});
                    assert(recw_q != 2'd3);
                end
            always @(posedge nclk_i)
                if (f_live && !$past(nrst_i)) begin
                    cover(f_file && f_cnt == 2 && !sw_i);       // a record of two flits filed
                    cover($past(f_file, 3) && recw_q == 2'd0 && !f_file); // ... and its three words written
                    cover(f_fv && f_late && run_i && !sw_i);    // a flit beyond n
                end
`endif
        end
    endgenerate

    // The eject lanes' sources, loaded at a switch from the new round's
    // descriptors: the input port of a circuit lane, the relay flag of a
    // relay lane (docs/hardware.md, "Relay ejection"), none of an idle one.
    reg [LANES*SIW-1:0] t_esrc;
    reg [LANES-1:0]     t_erel;
    reg [5:0]           t_euse;
    reg [2:0]           p;
    reg                 circ;
    integer             sl, sp;
    /* verilator lint_off BLKSEQ */
    always @(posedge nclk_i) begin
        if (sw_i || nrst_i) begin
            t_esrc = {LANES{NONE}};
            t_erel = {LANES{1'b0}};
            t_euse = 6'd0;
            for (sl = 0; sl < LANES; sl = sl + 1) begin
                // a port beyond 5 (out of the documented range) hears nothing
                p    = enx[sl][E_PORT +: 3];
                circ = enx[sl][E_V] && !enx[sl][E_REL] && p < 3'd6;
                if (circ)
                    t_esrc[sl*SIW +: SIW] = {{(SIW - 3){1'b0}}, p};
                t_erel[sl] = RELAY != 0 && enx[sl][E_V] && enx[sl][E_REL];
                for (sp = 0; sp < 6; sp = sp + 1)
                    if (circ && p == sp[2:0])
                        t_euse[sp] = 1'b1;
            end
            if (nrst_i) begin
                t_esrc = {LANES{NONE}};
                t_erel = {LANES{1'b0}};
                t_euse = 6'd0;
            end
            esrc_o <= t_esrc;
            erel_o <= t_erel;
            euse_o <= t_euse;
        end
    end
    /* verilator lint_on BLKSEQ */

    // ==== the network-clock bus's table words: lane l's entry or
    // descriptor read in the cycle before, as written ({valid, relay, hop,
    // round, start}, {length, address}; {valid, relay, port}, {length,
    // address}) ====
    reg       trp_q, tre_q, trw_q, trc_q;
    reg [2:0] trl_q;
    always @(posedge nclk_i) begin
        trp_q <= tr_i;
        trc_q <= cr_i;
        if (tr_i) begin
            tre_q <= tr_ej_i;
            trl_q <= tr_lane_i;
            trw_q <= tr_word_i;
        end
    end
    reg [IMW-1:0] te;
    reg [EEW-1:0] td;
    integer       tl;
    always @* begin
        tr_data_o = 32'd0;
        te = {IMW{1'b0}};
        td = {EEW{1'b0}};
        if (trc_q)
            tr_data_o = {{(32 - CFW){1'b0}}, enx[0][CFW-1:0]};
        if (trp_q) begin
            for (tl = 0; tl < LANES; tl = tl + 1)
                if (trl_q == tl[2:0]) begin
                    te = inx[tl];
                    td = enx[tl][EEW-1:0];
                end
            if (!tre_q)
                tr_data_o = trw_q ? {{(15 - AW){1'b0}}, te[AW +: AW + 1], {(16 - AW){1'b0}}, te[0 +: AW]}
                                  : {te[I_V], RELAY != 0 && te[I_REL], RELAY != 0 ? te[I_HOP +: 3] : 3'd0,
                                     {(11 - RW){1'b0}}, te[I_RND +: RW],
                                     {(16 - DW){1'b0}}, te[I_ST +: DW]};
            else
                tr_data_o = trw_q ? {{(15 - AW){1'b0}}, td[AW +: AW + 1], {(16 - AW){1'b0}}, td[0 +: AW]}
                                  : {td[E_V], td[E_REL], 27'd0, td[E_PORT +: 3]};
        end
    end

    // ==== record words for the bus (bus clock): the row asked for of the
    // lane asked for, from the lane's RAM output, which keeps it until the
    // node's next record read; a row beyond the records (3 ROUNDS and up)
    // reads 0, as a lane beyond LANES. The lane and the checks are
    // registered with the read, so that the word follows only this node's
    // requests (a simulator evaluates a node at those only: tn_torus,
    // ntab_o), and the word is an index into the lanes' words (a simulator
    // that evaluates every node at every bus edge, tn_sim_eval_all, then
    // does not run a loop over the lanes each time). No word register: on
    // an iCE40 a flip-flop fed by a block RAM takes a logic cell. ====
    localparam LB = (LANES > 1) ? $clog2(LANES) : 1;   // lane index bits
    reg [LB-1:0] rrl_q;               // the lane read
    reg          rrok_q;              // ... is a lane, and its row a record's
    always @(posedge bclk_i)
        if (rr_i) begin
            rrl_q  <= rr_lane_i[LB-1:0];
            rrok_q <= {2'b00, rr_row_i} < 3 * ROUNDS && {29'd0, rr_lane_i} < LANES;
        end
    assign rr_data_o = rrok_q ? rec[rrl_q] : 32'd0;
`ifdef FORMAL
    // ---- Properties (make formal-ni; docs/hardware.md, "Proved
    // properties"), of lane 0 (proved with LANES = 1: the lanes are copies
    // of one another; tests/rtl/tb_lanes.v checks several against a model,
    // bank conflicts included). The tables' contents (bus writes), flits and
    // the sequencer's signals are free inputs. Assumed of the environment
    // (tn_seq, tn_node, the host): reset in the first cycle; a run starts
    // with a switch, a switch is part of a run, prep comes between runs;
    // tables are read and the flit memory is accessed through the bus only
    // between runs; ejany_i says that an eject lane has a flit.
    wire f_clk = nclk_i, f_rst = nrst_i;
    `include "tn_formal_reset.vh"
    reg       f_run_q;
    reg [1:0] f_sw_q;                         // switches 1 and 2 cycles ago
    reg [RW-1:0] f_eprv;                      // the round before eidx_q's
    always @(posedge nclk_i) begin
        f_run_q <= run_i;
        f_sw_q  <= {f_sw_q[0], sw_i};
        if (sw_i)
            f_eprv <= eidx_q;
    end
    always @* begin
        if (f_past && !f_run_q && run_i)
            assume(sw_i);
        // rounds last 3 cycles or more (tn_seq's LAST3, proved there)
        if (f_past && sw_i)
            assume(f_sw_q == 2'd0);
        if (sw_i)
            assume(run_i);
        if (prep_i)
            assume(!run_i);
        if (fin_i)
            assume(sw_i || !run_i);
        if (run_i || prep_i)
            assume(!tr_i && !cr_i && !mre_i && !mwe_i);
        assume(ejany_i == ej_i[W+2]);
    end

    // CRC-32 of one flit, a bit at a time: its data as ceil(W/8) bytes,
    // LSB first.
    function [31:0] f_crc_flit(input [31:0] c, input [W-1:0] data);
        reg [8*((W+7)/8)-1:0] fb;
        integer fj;
        begin
            fb = {(8*((W+7)/8)){1'b0}};
            fb[W-1:0] = data;
            f_crc_flit = c;
            for (fj = 0; fj < 8*((W+7)/8); fj = fj + 1)
                f_crc_flit = (f_crc_flit >> 1) ^ (32'hEDB88320 & {32{f_crc_flit[0] ^ fb[fj]}});
        end
    endfunction

    // Inject lane 0: the started entry (address, length), the words read
    // for it, the address it reads now.
    reg [AW-1:0] f_ia;
    reg [AW:0]   f_in, f_ik;
    wire [AW:0]  f_iat = {1'b0, f_ia} + f_ik;   // the next word
    wire [AW-1:0] f_ira = start[0] ? inx[0][0 +: AW] : iadr_q[0][AW-1:0];
    always @(posedge nclk_i)
        if (start[0]) begin
            f_ia <= inx[0][0 +: AW];
            f_in <= inx[0][AW +: AW + 1];
            f_ik <= 1'b1;
        end else if (more[0]) begin
            f_ik <= f_ik + 1'b1;
        end
    // Eject lane 0: its store this cycle (one bank, LANES = 1)
    wire          f_ewr  = bwe[0] && !mwe_i;
    wire [W+2:0]  f_ef   = ej_i[0 +: W + 3];

    always @* if (f_live) begin
        // words are read only while running; in a switch cycle only by a start
        if (t_ird[0])
            assert(run_i && (start[0] || (iact_q[0] && !sw_i)));
        // a stream reads its entry's words a, a+1, ..., a+n-1 in order:
        // never beyond them, never beyond the memory
        if (t_ird[0] && !start[0])
            assert(f_ik < f_in && !f_iat[AW] && f_ira == f_iat[AW-1:0]);
        // (invariants: the registers follow the started entry)
        if (iact_q[0])
            assert(f_ik < f_in && iadr_q[0] == f_iat && irem_q[0] == f_in - f_ik);
        // the inject bounds event: a word beyond the memory skipped
        assert(ev_o[3] == (!start[0] && more[0] && f_iat[AW]));
        // a flit is stored only while a descriptor is active and the run
        // in its round, to a + index for the first n accepted flits, never
        // beyond the memory; every such flit is stored
        if (f_ewr)
            assert(efv[0] && run_i && !sw_i && !gen_ej[0].f_late && !gen_ej[0].f_at[AW] &&
                   bwa[0] == gen_ej[0].f_at[AW-1:0] && bwd[0] == f_ef[W+1:0]);
        if (efv[0] && !gen_ej[0].f_late && !gen_ej[0].f_at[AW])
            assert(f_ewr);
        // overrun: a flit beyond n, in a switch cycle or after the run;
        // short: fewer than n at the round's end; bounds: an accepted flit
        // at or beyond the memory (2**AW words)
        assert(ev_o[0] == (efv[0] && gen_ej[0].f_late));
        assert(ev_o[1] == (fin_i && eact_q[0] && gen_ej[0].f_acc < gen_ej[0].f_n));
        assert(ev_o[2] == (efv[0] && !gen_ej[0].f_late && gen_ej[0].f_at[AW]));
    end
    always @(posedge nclk_i)
        if (f_live && !$past(nrst_i)) begin
            // a flit is on the lane only for a word read in the last cycle
            // (granted), while running and not in a switch cycle
            if (inj_o[W+2])
                assert($past(t_ird[0] && iok[0]) && run_i && !sw_i);
            // at a switch the eject lane takes the new round's descriptor:
            // a circuit lane listens to its port (0..5; 6 and 7 hear
            // nothing), a relay lane takes relay packets
            if ($past(sw_i && !nrst_i)) begin
                assert(erel_o[0] == (RELAY != 0 && $past(enx[0][E_V] && enx[0][E_REL])));
                if ($past(enx[0][E_V] && !enx[0][E_REL] && enx[0][E_PORT +: 3] < 3'd6))
                    assert(esrc_o[0 +: SIW] == {{(SIW - 3){1'b0}}, $past(enx[0][E_PORT +: 3])} &&
                           euse_o == 6'd1 << $past(enx[0][E_PORT +: 3]));
                else
                    assert(esrc_o[0 +: SIW] == NONE && euse_o == 6'd0);
            end
            // the entry at a run's start is entry 0, at each start the next
            if ($past(prep_i))
                assert(gen_ilist[0].ptr_q == 1);
            if ($past(start[0]))
                assert(gen_ilist[0].ptr_q == $past(gen_ilist[0].ptr_q) + 1'b1);
        end

    // Each property is reachable.
    always @(posedge nclk_i)
        if (f_live && !$past(nrst_i)) begin
            // a three-word stream read to its end
            cover($past(more[0] && f_ik == 2 && f_in == 3) && !iact_q[0] && inj_o[W+2]);
            // a word beyond the memory skipped; a chain (a start while a stream reads)
            cover(ev_o[3]);
            cover(start[0] && iact_q[0]);
            // the last of three flits stored; one flit of more; an accepted flit beyond the memory
            cover(f_ewr && gen_ej[0].f_acc == 2 && gen_ej[0].f_n == 3);
            cover(ev_o[1] && gen_ej[0].f_acc == 1);
            cover(ev_o[2]);
        end
`endif
endmodule
