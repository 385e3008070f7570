// SPDX-License-Identifier: MIT
// tn_bridge_engine: command engine of the host bridge. Takes one checked
// frame (latching its header, so that the receiver can fill the other
// buffer bank meanwhile), executes it from the frame buffer on the
// configuration bus (master side of the tn_torus bus port,
// docs/hardware.md) and emits the response frame's header and payload
// bytes (tn_bridge_tx appends the CRC).
`default_nettype none

module tn_bridge_engine #(
    parameter MAX_WORDS = 256,          // payload bound in 32-bit words (power of two)
    parameter RESET_CYCLES = 16,        // length of the rst_o pulse of RESET
    parameter [7:0] VERSION = 8'd1,     // protocol version sent in responses
    parameter AW = $clog2(MAX_WORDS)    // derived: buffer address width (do not set)
) (
    input  wire          clk_i,
    input  wire          rst_i,
    // checked frame from tn_bridge_rx
    input  wire          frame_valid_i,
    input  wire          frame_bank_i,
    input  wire [7:0]    frame_status_i,
    input  wire [7:0]    frame_type_i,
    input  wire [7:0]    frame_seq_i,
    input  wire [15:0]   frame_len_i,
    output reg           frame_take_o,
    // frame buffer read port (bank, word): rdata_i is the word at the
    // address of the previous cycle
    output reg  [AW:0]   mem_raddr_o,
    input  wire [31:0]   mem_rdata_i,
    // configuration bus master
    output reg  [31:0]   bus_addr_o,
    output reg  [31:0]   bus_wdata_o,
    output reg           bus_we_o,
    output reg           bus_re_o,
    input  wire [31:0]   bus_rdata_i,
    input  wire          bus_ready_i,
    // soft reset of the torus
    output wire          rst_o,
    // response bytes (header + payload), last on the final one
    output reg           tx_valid_o,
    output reg  [7:0]    tx_data_o,
    output reg           tx_last_o,
    input  wire          tx_ready_i
);
    localparam [7:0] T_INFO   = 8'h01;  // request types
    localparam [7:0] T_WRITE  = 8'h02;
    localparam [7:0] T_READ   = 8'h03;
    localparam [7:0] T_START  = 8'h04;
    localparam [7:0] T_STATUS = 8'h05;
    localparam [7:0] T_ABORT  = 8'h06;
    localparam [7:0] T_RESET  = 8'h07;
    localparam [7:0] T_ACK    = 8'h80;  // response types
    localparam [7:0] T_DATA   = 8'h81;
    localparam [7:0] T_NAK    = 8'h82;

    localparam [7:0] NAK_TYPE = 8'h04;  // NAK codes raised here
    localparam [7:0] NAK_ARG  = 8'h07;

    localparam [31:0] GLOBAL  = 32'hFFF0_0000;  // global register block
    localparam [31:0] A_CTRL  = GLOBAL + 32'h010;
    localparam [31:0] A_STAT  = GLOBAL + 32'h012;  // STATUS .. END_CYCLE high
    localparam [31:0] CTRL_START = 32'h1;
    localparam [31:0] CTRL_ABORT = 32'h2;
    // INFO word 7: bridge constants (max payload bytes, protocol version)
    localparam [31:0] BRIDGE_INFO = {8'h00, VERSION, 16'd0} | (4 * MAX_WORDS);

    localparam RST_W = $clog2(RESET_CYCLES + 1);   // reset pulse counter width

    localparam [3:0] E_IDLE   = 4'd0;   // wait for a frame
    localparam [3:0] E_DISP   = 4'd1;   // decode it (buffer word 0 readable)
    localparam [3:0] E_RDARG  = 4'd2;   // READ: word 1 is the count (checked in E_RDCHK)
    localparam [3:0] E_WR     = 4'd3;   // WRITE burst on the bus
    localparam [3:0] E_CTRL   = 4'd4;   // write CTRL (START, ABORT)
    localparam [3:0] E_RST    = 4'd5;   // rst_o pulse
    localparam [3:0] E_HDR    = 4'd6;   // response header bytes
    localparam [3:0] E_NAK    = 4'd7;   // NAK payload bytes
    localparam [3:0] E_RDBUS  = 4'd8;   // read one word on the bus
    localparam [3:0] E_RDSEND = 4'd9;   // send its four bytes, read the next meanwhile
    localparam [3:0] E_RDCHK  = 4'd10;  // READ: word 1 readable, its check registered

    localparam [1:0] N_DONE = 2'd0;     // what follows the header
    localparam [1:0] N_NAK  = 2'd1;
    localparam [1:0] N_DATA = 2'd2;

    reg [3:0]       state_q, state_d;
    reg [AW-1:0]    ptr_q, ptr_d;        // frame buffer word being used
    reg [31:0]      addr_q, addr_d;      // bus address
    reg [AW:0]      cnt_q, cnt_d;        // words left
    reg [31:0]      word_q, word_d;      // word being sent
    reg [2:0]       idx_q, idx_d;        // byte index in header or word
    reg [7:0]       rtype_q, rtype_d;    // response type
    reg [15:0]      rlen_q, rlen_d;      // response payload length
    reg [1:0]       next_q, next_d;      // what follows the header
    reg [7:0]       nak_q, nak_d;        // NAK code
    reg [AW:0]      rdl_q, rdl_d;        // bus reads left (INFO: 7 of 8 words)
    reg             rdz_q;               // rdl_q == 0 (a register: board timing)
    reg             have_q, have_d;      // pre_q holds the next word
    reg [31:0]      pre_q, pre_d;        // prefetched word
    reg             got;                 // the prefetch completes in this cycle
    reg [31:0]      ctrl_q, ctrl_d;      // CTRL value to write
    reg             sv_q, sv_d;          // a START was executed with seq start_seq_q
    reg [7:0]       sseq_q, sseq_d;
    reg [RST_W-1:0] rcnt_q, rcnt_d;      // reset pulse cycles left
    reg             bank_q, bank_d;      // the frame being executed: buffer bank,
    reg [7:0]       ftype_q, ftype_d;    // type,
    reg [7:0]       fseq_q, fseq_d;      // seq,
    reg [15:0]      flen_q, flen_d;      // payload length,
    reg             flz_q, flz_d;        // and its checks, made when the frame
    reg             fl8_q, fl8_d;        // is taken (not in the decode cycle):
    reg             flw_q, flw_d;        // 0, 8, a bad WRITE length

    // READ count (word 1) outside 1..MAX_WORDS, without a 32-bit compare
    // (MAX_WORDS is a power of two): the buffer's read data is a late signal
    wire count_hi  = |mem_rdata_i[31:AW+1];
    wire count_top = mem_rdata_i[AW];
    wire count_lo  = |mem_rdata_i[AW-1:0];
    wire count_bad = count_hi || (count_top && count_lo) || (!count_top && !count_lo);
    reg  cbad_q;                         // count_bad of the previous cycle's word
    always @(posedge clk_i)
        cbad_q <= count_bad;

    assign rst_o = (state_q == E_RST);

    // Response header then the payload state given by nxt.
    task respond;
        input [7:0]  rtype;
        input [15:0] rlen;
        input [1:0]  nxt;
        begin
            rtype_d = rtype;
            rlen_d  = rlen;
            next_d  = nxt;
            idx_d   = 3'd0;
            state_d = E_HDR;
        end
    endtask

    task nak;
        input [7:0] code;
        begin
            nak_d = code;
            respond(T_NAK, 16'd2, N_NAK);
        end
    endtask

    always @* begin
        state_d = state_q;
        ptr_d   = ptr_q;
        addr_d  = addr_q;
        cnt_d   = cnt_q;
        word_d  = word_q;
        idx_d   = idx_q;
        rtype_d = rtype_q;
        rlen_d  = rlen_q;
        next_d  = next_q;
        nak_d   = nak_q;
        rdl_d   = rdl_q;
        have_d  = have_q;
        pre_d   = pre_q;
        got     = 1'b0;
        ctrl_d  = ctrl_q;
        sv_d    = sv_q;
        sseq_d  = sseq_q;
        rcnt_d  = rcnt_q;
        bank_d  = bank_q;
        ftype_d = ftype_q;
        fseq_d  = fseq_q;
        flen_d  = flen_q;
        flz_d   = flz_q;
        fl8_d   = fl8_q;
        flw_d   = flw_q;

        frame_take_o = 1'b0;
        bus_addr_o   = addr_q;
        bus_wdata_o  = mem_rdata_i;
        bus_we_o     = 1'b0;
        bus_re_o     = 1'b0;
        tx_valid_o   = 1'b0;
        tx_data_o    = 8'h00;
        tx_last_o    = 1'b0;

        case (state_q)
        E_IDLE: begin
            ptr_d  = {AW{1'b0}};
            bank_d = frame_bank_i;
            if (frame_valid_i) begin
                frame_take_o = 1'b1;
                ftype_d      = frame_type_i;
                fseq_d       = frame_seq_i;
                flen_d       = frame_len_i;
                flz_d        = frame_len_i == 16'd0;
                fl8_d        = frame_len_i == 16'd8;
                flw_d        = frame_len_i < 16'd8 || frame_len_i[1:0] != 2'd0;
                if (frame_status_i != 8'h00)
                    nak(frame_status_i);
                else
                    state_d = E_DISP;
            end
        end
        E_DISP: begin
            if (ftype_q != T_START)
                sv_d = 1'b0;          // only a repeat of the last frame is deduplicated
            case (ftype_q)
            T_INFO, T_STATUS: begin
                if (!flz_q) begin
                    nak(NAK_ARG);
                end else begin
                    addr_d  = (ftype_q == T_INFO) ? GLOBAL : A_STAT;
                    cnt_d   = 8;
                    rdl_d   = (ftype_q == T_INFO) ? 7 : 8;
                    have_d  = 1'b0;
                    respond(T_DATA, 16'd32, N_DATA);
                end
            end
            T_READ: begin
                if (!fl8_q) begin
                    nak(NAK_ARG);
                end else begin
                    addr_d  = mem_rdata_i;
                    ptr_d   = 1;
                    state_d = E_RDCHK;
                end
            end
            T_WRITE: begin
                if (flw_q) begin
                    nak(NAK_ARG);
                end else begin
                    addr_d  = mem_rdata_i;
                    ptr_d   = 1;
                    cnt_d   = flen_q[AW+2:2] - 1'b1;
                    state_d = E_WR;
                end
            end
            T_START: begin
                if (!flz_q) begin
                    nak(NAK_ARG);
                end else if (sv_q && sseq_q == fseq_q) begin
                    respond(T_ACK, 16'd0, N_DONE);   // repeated START: no write
                end else begin
                    ctrl_d  = CTRL_START;
                    state_d = E_CTRL;
                end
            end
            T_ABORT: begin
                if (!flz_q) begin
                    nak(NAK_ARG);
                end else begin
                    ctrl_d  = CTRL_ABORT;
                    state_d = E_CTRL;
                end
            end
            T_RESET: begin
                if (!flz_q) begin
                    nak(NAK_ARG);
                end else begin
                    rcnt_d  = RESET_CYCLES[RST_W-1:0];
                    state_d = E_RST;
                end
            end
            default: nak(NAK_TYPE);
            endcase
        end
        E_RDCHK:
            state_d = E_RDARG;    // the count's check is registered (board timing)
        E_RDARG: begin
            if (cbad_q) begin
                nak(NAK_ARG);
            end else begin
                cnt_d   = mem_rdata_i[AW:0];
                rdl_d   = mem_rdata_i[AW:0];
                have_d  = 1'b0;
                respond(T_DATA, {mem_rdata_i[13:0], 2'b00}, N_DATA);
            end
        end
        E_WR: begin
            bus_we_o = 1'b1;
            if (bus_ready_i) begin
                addr_d = addr_q + 1'b1;
                ptr_d  = ptr_q + 1'b1;
                cnt_d  = cnt_q - 1'b1;
                if (cnt_q == 1)
                    respond(T_ACK, 16'd0, N_DONE);
            end
        end
        E_CTRL: begin
            bus_we_o    = 1'b1;
            bus_addr_o  = A_CTRL;
            bus_wdata_o = ctrl_q;
            if (bus_ready_i) begin
                if (ctrl_q == CTRL_START) begin
                    sv_d   = 1'b1;
                    sseq_d = fseq_q;
                end
                respond(T_ACK, 16'd0, N_DONE);
            end
        end
        E_RST: begin
            sv_d   = 1'b0;
            rcnt_d = rcnt_q - 1'b1;
            if (rcnt_q == 1)
                respond(T_ACK, 16'd0, N_DONE);
        end
        E_HDR: begin
            tx_valid_o = 1'b1;
            case (idx_q)
            3'd0: tx_data_o = VERSION;
            3'd1: tx_data_o = rtype_q;
            3'd2: tx_data_o = fseq_q;
            3'd3: tx_data_o = rlen_q[7:0];
            default: tx_data_o = rlen_q[15:8];
            endcase
            tx_last_o = (idx_q == 3'd4) && (next_q == N_DONE);
            if (tx_ready_i) begin
                idx_d = idx_q + 1'b1;
                if (idx_q == 3'd4) begin
                    idx_d = 3'd0;
                    case (next_q)
                    N_NAK:  state_d = E_NAK;
                    N_DATA: state_d = E_RDBUS;
                    default: state_d = E_IDLE;
                    endcase
                end
            end
        end
        E_NAK: begin
            tx_valid_o = 1'b1;
            tx_data_o  = (idx_q == 3'd0) ? nak_q : ftype_q;
            tx_last_o  = (idx_q != 3'd0);
            if (tx_ready_i) begin
                idx_d = idx_q + 1'b1;
                if (idx_q != 3'd0)
                    state_d = E_IDLE;
            end
        end
        E_RDBUS: begin
            idx_d = 3'd0;
            if (rdz_q) begin
                word_d  = BRIDGE_INFO;    // INFO's last word is the bridge's own
                state_d = E_RDSEND;
            end else begin
                bus_re_o = 1'b1;
                if (bus_ready_i) begin
                    word_d  = bus_rdata_i;
                    addr_d  = addr_q + 1'b1;
                    rdl_d   = rdl_q - 1'b1;
                    state_d = E_RDSEND;
                end
            end
        end
        default: begin  // E_RDSEND
            tx_valid_o = 1'b1;
            tx_data_o  = word_q[7:0];
            tx_last_o  = (cnt_q == 1) && (idx_q == 3'd3);
            // read the next word while this one goes out (rdl_q != 0
            // implies that more words follow this one)
            if (!have_q && !rdz_q) begin
                bus_re_o = 1'b1;
                if (bus_ready_i) begin
                    got    = 1'b1;
                    pre_d  = bus_rdata_i;
                    have_d = 1'b1;
                    addr_d = addr_q + 1'b1;
                    rdl_d  = rdl_q - 1'b1;
                end
            end
            if (tx_ready_i) begin
                word_d = {8'h00, word_q[31:8]};
                idx_d  = idx_q + 1'b1;
                if (idx_q == 3'd3) begin
                    idx_d = 3'd0;
                    cnt_d = cnt_q - 1'b1;
                    if (cnt_q == 1) begin
                        state_d = E_IDLE;
                    end else if (have_q) begin
                        word_d = pre_q;
                        have_d = 1'b0;
                    end else if (got) begin
                        word_d = bus_rdata_i;
                        have_d = 1'b0;
                    end else if (rdz_q) begin
                        word_d = BRIDGE_INFO;
                    end else begin
                        state_d = E_RDBUS;
                    end
                end
            end
        end
        endcase

        mem_raddr_o = {bank_d, ptr_d};
    end

    always @(posedge clk_i) begin
        if (rst_i) begin
            state_q <= E_IDLE;
            ptr_q   <= {AW{1'b0}};
            sv_q    <= 1'b0;
            have_q  <= 1'b0;
        end else begin
            state_q <= state_d;
            ptr_q   <= ptr_d;
            sv_q    <= sv_d;
            have_q  <= have_d;
        end
        addr_q  <= addr_d;
        cnt_q   <= cnt_d;
        word_q  <= word_d;
        idx_q   <= idx_d;
        rtype_q <= rtype_d;
        rlen_q  <= rlen_d;
        next_q  <= next_d;
        nak_q   <= nak_d;
        rdl_q   <= rdl_d;
        rdz_q   <= rdl_d == {(AW+1){1'b0}};
        pre_q   <= pre_d;
        ctrl_q  <= ctrl_d;
        sseq_q  <= sseq_d;
        rcnt_q  <= rcnt_d;
        bank_q  <= bank_d;
        ftype_q <= ftype_d;
        fseq_q  <= fseq_d;
        flen_q  <= flen_d;
        flz_q   <= flz_d;
        fl8_q   <= fl8_d;
        flw_q   <= flw_d;
    end
`ifdef FORMAL
    // ---- Properties (make formal-engine; docs/protocol.md and
    // docs/hardware.md, "Proved properties"). Frames, the frame buffer's
    // words, bus and transmitter handshakes are free inputs. Assumed of the
    // environment: reset in the first cycle (tn_bridge holds one after
    // power-up).
    wire f_clk = clk_i, f_rst = rst_i;
    `include "tn_formal_reset.vh"

    // A frame whose length does not suit its type (or of no known type).
    function f_len_bad(input [7:0] ftype, input [15:0] len);
        case (ftype)
            T_READ:  f_len_bad = len != 16'd8;
            T_WRITE: f_len_bad = len < 16'd8 || len[1:0] != 2'd0;
            T_INFO, T_STATUS, T_START, T_ABORT, T_RESET: f_len_bad = len != 16'd0;
            default: f_len_bad = 1'b1;
        endcase
    endfunction

    // The frame under way: bad (the receiver's status: CRC, length, size;
    // or its length), or a START repeating the last executed START's seq.
    // The last START frame executed (its CTRL write done) and its seq: forgotten
    // at a reset, a RESET, and a good frame of another type.
    reg       f_bad, f_dup, f_sv;
    reg [7:0] f_sseq;
    wire      f_ctrl_start = ftype_q == T_START && bus_we_o && bus_ready_i && bus_addr_o == A_CTRL &&
                             bus_wdata_o == CTRL_START;
    always @(posedge clk_i) begin
        if (frame_take_o) begin
            f_bad <= frame_status_i != 8'h00 || f_len_bad(frame_type_i, frame_len_i);
            f_dup <= frame_status_i == 8'h00 && frame_type_i == T_START && frame_len_i == 16'd0 &&
                     f_sv && frame_seq_i == f_sseq;
            if (frame_status_i == 8'h00 && frame_type_i != T_START)
                f_sv <= 1'b0;
        end
        if (f_ctrl_start) begin
            f_sv   <= 1'b1;
            f_sseq <= fseq_q;
        end
        if (rst_i || rst_o)
            f_sv <= 1'b0;
    end

    always @* if (f_live && !rst_i) begin
        // a bad frame writes nothing (no bus write, no reset, no CTRL) and
        // is answered with a NAK
        if (f_bad && state_q != E_IDLE) begin
            assert(!bus_we_o && !rst_o);
            assert(state_q == E_DISP || state_q == E_HDR || state_q == E_NAK);
            if (state_q != E_DISP)
                assert(rtype_q == T_NAK && next_q == N_NAK);
        end
        // a repeated START writes nothing: it is only acknowledged
        if (f_dup && state_q != E_IDLE)
            assert(!bus_we_o && state_q != E_CTRL && !rst_o);
        // (invariants: the latched frame, its checks, the START memory)
        if (state_q != E_IDLE) begin
            assert(flz_q == (flen_q == 16'd0) && fl8_q == (flen_q == 16'd8) &&
                   flw_q == (flen_q < 16'd8 || flen_q[1:0] != 2'd0));
            if (!f_bad)
                assert(!f_len_bad(ftype_q, flen_q));
            if (f_dup)
                assert(ftype_q == T_START && fseq_q == f_sseq && f_sv && !f_bad);
            if (state_q == E_CTRL)
                assert(ftype_q == (ctrl_q == CTRL_START ? T_START : T_ABORT) &&
                       (ctrl_q == CTRL_START || ctrl_q == CTRL_ABORT));
            if (state_q == E_WR)
                assert(ftype_q == T_WRITE && !f_bad);
            if (state_q == E_RST)
                assert(ftype_q == T_RESET && !f_bad && rcnt_q != 0);
            if (f_bad && state_q == E_DISP)
                assert(frame_status_ok_q);
        end
        if (state_q != E_DISP || ftype_q == T_START)
            assert(sv_q == f_sv && (!f_sv || sseq_q == f_sseq));
    end
    // (the frame taken had a good status: only then is it decoded)
    reg frame_status_ok_q;
    always @(posedge clk_i)
        if (frame_take_o)
            frame_status_ok_q <= frame_status_i == 8'h00;

    // Each property is reachable.
    always @(posedge clk_i)
        if (f_live && !rst_i) begin
            cover(f_bad && state_q == E_NAK && tx_ready_i && frame_status_ok_q);  // a bad length NAKed
            cover(f_bad && state_q == E_NAK && tx_ready_i && !frame_status_ok_q); // a bad CRC NAKed
            cover(f_dup && state_q == E_HDR && rtype_q == T_ACK);          // a repeated START acked
            cover(state_q == E_WR && bus_ready_i && cnt_q == 1);                  // a WRITE's last word
        end
`endif
endmodule

`default_nettype wire
