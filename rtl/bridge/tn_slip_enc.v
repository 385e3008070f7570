// SPDX-License-Identifier: MIT
// tn_slip_enc: SLIP encoder: END before and after every frame, ESC
// sequences for END and ESC inside it. Input bytes carry a last flag.
`default_nettype none

module tn_slip_enc (
    input  wire       clk_i,
    input  wire       rst_i,
    // frame bytes in; last marks the final byte of a frame
    input  wire       in_valid_i,
    input  wire [7:0] in_data_i,
    input  wire       in_last_i,
    output wire       in_ready_o,
    // encoded bytes out (registered)
    output wire       out_valid_o,
    output wire [7:0] out_data_o,
    input  wire       out_ready_i
);
    localparam [7:0] END = 8'hC0;      // frame delimiter
    localparam [7:0] ESC = 8'hDB;      // escape
    localparam [7:0] ESC_END = 8'hDC;  // escaped END
    localparam [7:0] ESC_ESC = 8'hDD;  // escaped ESC

    localparam [1:0] S_START = 2'd0;   // next frame starts with an END
    localparam [1:0] S_BYTE  = 2'd1;   // send the input byte (or its ESC)
    localparam [1:0] S_ESC2  = 2'd2;   // send the second byte of an escape
    localparam [1:0] S_END   = 2'd3;   // close the frame with an END

    reg [1:0] state_q, state_d;
    reg       ovalid_q, ovalid_d;
    reg [7:0] odata_q, odata_d;
    reg       in_ready;

    wire free = !ovalid_q || out_ready_i;
    wire special = (in_data_i == END) || (in_data_i == ESC);

    assign in_ready_o  = in_ready;
    assign out_valid_o = ovalid_q;
    assign out_data_o  = odata_q;

    always @* begin
        state_d  = state_q;
        ovalid_d = ovalid_q && !out_ready_i;
        odata_d  = odata_q;
        in_ready = 1'b0;
        if (free) begin
            case (state_q)
            S_START: begin
                if (in_valid_i) begin
                    ovalid_d = 1'b1;
                    odata_d  = END;
                    state_d  = S_BYTE;
                end
            end
            S_BYTE: begin
                if (in_valid_i) begin
                    ovalid_d = 1'b1;
                    if (special) begin
                        odata_d = ESC;
                        state_d = S_ESC2;
                    end else begin
                        odata_d  = in_data_i;
                        in_ready = 1'b1;
                        state_d  = in_last_i ? S_END : S_BYTE;
                    end
                end
            end
            S_ESC2: begin
                ovalid_d = 1'b1;
                odata_d  = (in_data_i == END) ? ESC_END : ESC_ESC;
                in_ready = 1'b1;
                state_d  = in_last_i ? S_END : S_BYTE;
            end
            default: begin  // S_END
                ovalid_d = 1'b1;
                odata_d  = END;
                state_d  = S_START;
            end
            endcase
        end
    end

    always @(posedge clk_i) begin
        if (rst_i) begin
            state_q  <= S_START;
            ovalid_q <= 1'b0;
        end else begin
            state_q  <= state_d;
            ovalid_q <= ovalid_d;
        end
        odata_q <= odata_d;
    end

`ifdef FORMAL
    // make formal-bridge (yosys-smtbmc): the output handshake
    `include "tn_formal_stream.vh"
`endif
endmodule

`default_nettype wire
