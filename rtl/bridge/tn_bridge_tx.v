// SPDX-License-Identifier: MIT
// tn_bridge_tx: passes a response frame's bytes through and appends its
// CRC-16/CCITT-FALSE, high byte first, after the byte marked last.
`default_nettype none

module tn_bridge_tx (
    input  wire       clk_i,
    input  wire       rst_i,
    input  wire       in_valid_i,
    input  wire [7:0] in_data_i,
    input  wire       in_last_i,
    output wire       in_ready_o,
    output reg        out_valid_o,
    output reg  [7:0] out_data_o,
    output reg        out_last_o,
    input  wire       out_ready_i
);
    localparam [1:0] S_PASS  = 2'd0;  // header and payload bytes
    localparam [1:0] S_CRCHI = 2'd1;  // CRC high byte
    localparam [1:0] S_CRCLO = 2'd2;  // CRC low byte, last of the frame

    reg [1:0]  state_q, state_d;
    reg [15:0] crc_q, crc_d;

    wire [15:0] crc_next;
    tn_crc16 u_crc (.crc_i(crc_q), .data_i(in_data_i), .crc_o(crc_next));

    assign in_ready_o = (state_q == S_PASS) && out_ready_i;

    always @* begin
        state_d     = state_q;
        crc_d       = crc_q;
        out_valid_o = 1'b1;
        out_data_o  = in_data_i;
        out_last_o  = 1'b0;
        case (state_q)
        S_PASS: begin
            out_valid_o = in_valid_i;
            if (in_valid_i && out_ready_i) begin
                crc_d = crc_next;
                if (in_last_i)
                    state_d = S_CRCHI;
            end
        end
        S_CRCHI: begin
            out_data_o = crc_q[15:8];
            if (out_ready_i)
                state_d = S_CRCLO;
        end
        default: begin  // S_CRCLO
            out_data_o = crc_q[7:0];
            out_last_o = 1'b1;
            if (out_ready_i) begin
                state_d = S_PASS;
                crc_d   = 16'hFFFF;
            end
        end
        endcase
    end

    always @(posedge clk_i) begin
        if (rst_i) begin
            state_q <= S_PASS;
            crc_q   <= 16'hFFFF;
        end else begin
            state_q <= state_d;
            crc_q   <= crc_d;
        end
    end
endmodule

`default_nettype wire
