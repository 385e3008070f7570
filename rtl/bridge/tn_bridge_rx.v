// SPDX-License-Identifier: MIT
// tn_bridge_rx: frame receiver. Takes decoded SLIP bytes, keeps the header,
// stores the payload as little-endian 32-bit words in one bank of the
// two-bank frame buffer, checks the CRC-16 (residue 0 over header, payload
// and the big-endian CRC) and the lengths, and offers the frame with its
// verdict to the command engine. When the engine takes it (and latches the
// header), the next frame goes into the other bank while the engine
// executes this one; a second complete frame waits until it is taken.
`default_nettype none

module tn_bridge_rx #(
    parameter MAX_WORDS = 256,           // payload bound in 32-bit words (power of two)
    parameter [7:0] VERSION = 8'd1,      // protocol version accepted
    parameter AW = $clog2(MAX_WORDS)     // derived: buffer address width (do not set)
) (
    input  wire        clk_i,
    input  wire        rst_i,
    // decoded stream from tn_slip_dec
    input  wire        d_valid_i,
    input  wire [7:0]  d_data_i,
    input  wire [1:0]  d_kind_i,         // 0 data, 1 end, 2 drop
    input  wire        d_esc_err_i,
    output wire        d_ready_o,
    // frame buffer write port (bank, word)
    output reg         mem_we_o,
    output reg  [AW:0] mem_waddr_o,
    output reg  [31:0] mem_wdata_o,
    // frame to the engine, held until frame_take_i
    output wire        frame_valid_o,
    output wire        frame_bank_o,     // buffer bank holding its payload
    output wire [7:0]  frame_status_o,   // 0 ok, else the NAK code
    output wire [7:0]  frame_type_o,
    output wire [7:0]  frame_seq_o,
    output wire [15:0] frame_len_o,
    input  wire        frame_take_i      // the engine latched the frame
);
    localparam MAX_BYTES = 4 * MAX_WORDS;        // payload bound in bytes
    localparam CNT_MAX = MAX_BYTES + 8;          // byte counter saturates here (oversize)
    localparam CNT_W = $clog2(CNT_MAX + 1);      // byte counter width

    localparam [1:0] K_DATA = 2'd0;              // decoder marker kinds
    localparam [1:0] K_END  = 2'd1;

    localparam [7:0] NAK_CRC      = 8'h01;       // NAK codes (docs/protocol.md)
    localparam [7:0] NAK_LENGTH   = 8'h02;
    localparam [7:0] NAK_OVERSIZE = 8'h03;
    localparam [7:0] NAK_VERSION  = 8'h05;
    localparam [7:0] NAK_ESCAPE   = 8'h06;

    reg [CNT_W-1:0] cnt_q, cnt_d;    // bytes received in this frame
    reg [15:0]      crc_q, crc_d;
    reg [7:0]       ver_q, ver_d;
    reg [7:0]       type_q, type_d;
    reg [7:0]       seq_q, seq_d;
    reg [15:0]      len_q, len_d;
    reg [23:0]      asm_q, asm_d;    // payload bytes of the current word so far
    reg             fv_q, fv_d;
    reg [7:0]       status_q, status_d;
    reg             bank_q, bank_d;  // bank being written / holding the offered frame

    wire [15:0] crc_next;
    tn_crc16 u_crc (.crc_i(crc_q), .data_i(d_data_i), .crc_o(crc_next));

    wire              take = d_valid_i && !fv_q;
    wire [CNT_W-1:0]  pidx = cnt_q - 5;          // payload byte index

    assign d_ready_o      = !fv_q;
    assign frame_valid_o  = fv_q;
    assign frame_bank_o   = bank_q;
    assign frame_status_o = status_q;
    assign frame_type_o   = type_q;
    assign frame_seq_o    = seq_q;
    assign frame_len_o    = len_q;

    always @* begin
        cnt_d       = cnt_q;
        crc_d       = crc_q;
        ver_d       = ver_q;
        type_d      = type_q;
        seq_d       = seq_q;
        len_d       = len_q;
        asm_d       = asm_q;
        fv_d        = fv_q && !frame_take_i;
        bank_d      = (fv_q && frame_take_i) ? !bank_q : bank_q;
        status_d    = status_q;
        mem_we_o    = 1'b0;
        mem_waddr_o = {bank_q, pidx[AW+1:2]};
        mem_wdata_o = {d_data_i, asm_q};

        if (take) begin
            if (d_kind_i == K_DATA) begin
                crc_d = crc_next;
                if (cnt_q != CNT_MAX[CNT_W-1:0])
                    cnt_d = cnt_q + 1'b1;
                case (cnt_q)
                0: ver_d = d_data_i;
                1: type_d = d_data_i;
                2: seq_d = d_data_i;
                3: len_d[7:0] = d_data_i;
                4: len_d[15:8] = d_data_i;
                default: begin
                    asm_d = {d_data_i, asm_q[23:8]};
                    if (pidx[1:0] == 2'd3 && pidx < MAX_BYTES[CNT_W-1:0])
                        mem_we_o = 1'b1;
                end
                endcase
            end else begin
                // end of frame or drop: next frame starts afresh
                cnt_d = {CNT_W{1'b0}};
                crc_d = 16'hFFFF;
                if (d_kind_i == K_END && (cnt_q != 0 || d_esc_err_i)) begin
                    fv_d = 1'b1;
                    if (d_esc_err_i)
                        status_d = NAK_ESCAPE;
                    else if (cnt_q < 7)
                        status_d = NAK_LENGTH;
                    else if (cnt_q == CNT_MAX[CNT_W-1:0])
                        status_d = NAK_OVERSIZE;
                    else if (crc_q != 16'h0000)
                        status_d = NAK_CRC;
                    else if (ver_q != VERSION)
                        status_d = NAK_VERSION;
                    else if ({16'd0, len_q} > MAX_BYTES)
                        status_d = NAK_OVERSIZE;
                    else if ({{(32-CNT_W){1'b0}}, cnt_q} != {16'd0, len_q} + 32'd7)
                        status_d = NAK_LENGTH;
                    else
                        status_d = 8'h00;
                    if (cnt_q < 3)
                        seq_d = 8'h00;    // not received: answer with seq 0
                    if (cnt_q < 2)
                        type_d = 8'h00;
                end
            end
        end
    end

    always @(posedge clk_i) begin
        if (rst_i) begin
            cnt_q <= {CNT_W{1'b0}};
            crc_q  <= 16'hFFFF;
            fv_q   <= 1'b0;
            bank_q <= 1'b0;
        end else begin
            cnt_q  <= cnt_d;
            crc_q  <= crc_d;
            fv_q   <= fv_d;
            bank_q <= bank_d;
        end
        ver_q    <= ver_d;
        type_q   <= type_d;
        seq_q    <= seq_d;
        len_q    <= len_d;
        asm_q    <= asm_d;
        status_q <= status_d;
    end
endmodule

`default_nettype wire
