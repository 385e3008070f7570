// SPDX-License-Identifier: MIT
// tn_slip_dec: SLIP decoder (END 0xC0, ESC 0xDB, ESC_END 0xDC, ESC_ESC 0xDD)
// from a byte stream to a stream of data bytes and frame markers, with an
// idle timeout that drops a half-received frame and hunts for the next END.
`default_nettype none

module tn_slip_dec #(
    // Cycles without an input byte inside a frame before the frame is
    // dropped (a "drop" marker) and the decoder hunts for the next END.
    parameter IDLE_TIMEOUT = 4800000
) (
    input  wire       clk_i,
    input  wire       rst_i,
    // encoded bytes in
    input  wire       in_valid_i,
    input  wire [7:0] in_data_i,
    output wire       in_ready_o,
    // decoded stream out: kind 0 data byte, 1 end of frame, 2 frame dropped
    output wire       out_valid_o,
    output wire [7:0] out_data_o,
    output wire [1:0] out_kind_o,
    output wire       out_esc_err_o,  // with kind 1: the frame had a bad escape
    input  wire       out_ready_i
);
    localparam [7:0] END = 8'hC0;      // frame delimiter
    localparam [7:0] ESC = 8'hDB;      // escape
    localparam [7:0] ESC_END = 8'hDC;  // escaped END
    localparam [7:0] ESC_ESC = 8'hDD;  // escaped ESC

    localparam [1:0] K_DATA = 2'd0;    // marker kinds
    localparam [1:0] K_END  = 2'd1;
    localparam [1:0] K_DROP = 2'd2;

    localparam [1:0] S_IDLE  = 2'd0;   // between frames, nothing received
    localparam [1:0] S_FRAME = 2'd1;   // inside a frame
    localparam [1:0] S_ESC   = 2'd2;   // inside a frame, after ESC
    localparam [1:0] S_HUNT  = 2'd3;   // after a timeout: discard until END

    // Width of the idle timer (holds IDLE_TIMEOUT).
    localparam TMR_W = $clog2(IDLE_TIMEOUT + 1);

    reg [1:0]       state_q, state_d;
    reg             esc_err_q, esc_err_d;
    reg [TMR_W-1:0] tmr_q, tmr_d;
    reg             ovalid_q, ovalid_d;
    reg [7:0]       odata_q, odata_d;
    reg [1:0]       okind_q, okind_d;
    reg             oerr_q, oerr_d;

    wire free = !ovalid_q || out_ready_i;   // output register can take one
    wire take = in_valid_i && free;
    wire in_frame = (state_q == S_FRAME) || (state_q == S_ESC);

    assign in_ready_o    = free;
    assign out_valid_o   = ovalid_q;
    assign out_data_o    = odata_q;
    assign out_kind_o    = okind_q;
    assign out_esc_err_o = oerr_q;

    always @* begin
        state_d   = state_q;
        esc_err_d = esc_err_q;
        tmr_d     = tmr_q;
        ovalid_d  = ovalid_q && !out_ready_i;
        odata_d   = odata_q;
        okind_d   = okind_q;
        oerr_d    = oerr_q;

        // idle timer: counts cycles without input inside a frame
        if (!in_frame || in_valid_i)
            tmr_d = {TMR_W{1'b0}};
        else if (tmr_q != IDLE_TIMEOUT[TMR_W-1:0])
            tmr_d = tmr_q + 1'b1;

        if (take) begin
            case (state_q)
            S_IDLE, S_FRAME: begin
                if (in_data_i == END) begin
                    if (state_q == S_FRAME) begin
                        ovalid_d = 1'b1;
                        okind_d  = K_END;
                        oerr_d   = esc_err_q;
                    end
                    state_d   = S_IDLE;
                    esc_err_d = 1'b0;
                end else if (in_data_i == ESC) begin
                    state_d = S_ESC;
                end else begin
                    ovalid_d = 1'b1;
                    okind_d  = K_DATA;
                    odata_d  = in_data_i;
                    state_d  = S_FRAME;
                end
            end
            S_ESC: begin
                if (in_data_i == END) begin
                    // END always ends a frame; ESC END is a bad escape
                    ovalid_d  = 1'b1;
                    okind_d   = K_END;
                    oerr_d    = 1'b1;
                    state_d   = S_IDLE;
                    esc_err_d = 1'b0;
                end else if (in_data_i == ESC_END || in_data_i == ESC_ESC) begin
                    ovalid_d = 1'b1;
                    okind_d  = K_DATA;
                    odata_d  = (in_data_i == ESC_END) ? END : ESC;
                    state_d  = S_FRAME;
                end else begin
                    esc_err_d = 1'b1;  // byte dropped, frame marked bad
                    state_d   = S_FRAME;
                end
            end
            default: begin  // S_HUNT
                if (in_data_i == END)
                    state_d = S_IDLE;
            end
            endcase
        end else if (free && in_frame && tmr_q == IDLE_TIMEOUT[TMR_W-1:0]) begin
            ovalid_d  = 1'b1;
            okind_d   = K_DROP;
            oerr_d    = 1'b0;
            state_d   = S_HUNT;
            esc_err_d = 1'b0;
            tmr_d     = {TMR_W{1'b0}};
        end
    end

    always @(posedge clk_i) begin
        if (rst_i) begin
            state_q   <= S_IDLE;
            esc_err_q <= 1'b0;
            tmr_q     <= {TMR_W{1'b0}};
            ovalid_q  <= 1'b0;
        end else begin
            state_q   <= state_d;
            esc_err_q <= esc_err_d;
            tmr_q     <= tmr_d;
            ovalid_q  <= ovalid_d;
        end
        odata_q <= odata_d;
        okind_q <= okind_d;
        oerr_q  <= oerr_d;
    end

`ifdef FORMAL
    // make formal-bridge (yosys-smtbmc): the output handshake
    `include "tn_formal_stream.vh"
    always @(posedge clk_i)
        if (f_past && !$past(rst_i) && !rst_i && $past(out_valid_o) && !$past(out_ready_i))
            assert(out_kind_o == $past(out_kind_o));
`endif
endmodule

`default_nettype wire
