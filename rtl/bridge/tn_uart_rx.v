// SPDX-License-Identifier: MIT
// tn_uart_rx: UART receiver, 8N1, LSB first. Two-flop synchroniser; the
// start bit is checked again at its middle (a shorter low pulse is a false
// start and ignored); data and stop bits are sampled mid-bit, every
// round(CLK_HZ / BAUD) clocks. A byte whose stop bit is low is dropped
// (err_o pulses) and the receiver waits for the line to go idle.
`default_nettype none

module tn_uart_rx #(
    parameter CLK_HZ = 48000000,           // clock frequency in Hz
    parameter BAUD   = 12000000,           // bit rate
    parameter DIV    = (CLK_HZ + BAUD / 2) / BAUD  // derived: clocks per bit (>= 4)
) (
    input  wire       clk_i,
    input  wire       rst_i,
    input  wire       rx_i,                // serial line, idle high
    output reg        out_valid_o,         // one-cycle pulse per received byte
    output reg  [7:0] out_data_o,
    output reg        err_o                // one-cycle pulse: framing error
);
    localparam CW = $clog2(DIV);           // bit-time counter width
    localparam HALF = DIV / 2;             // clocks from the start edge to mid start bit

    localparam [2:0] S_IDLE  = 3'd0;       // wait for a falling edge
    localparam [2:0] S_START = 3'd1;       // confirm the start bit at its middle
    localparam [2:0] S_DATA  = 3'd2;       // sample 8 data bits
    localparam [2:0] S_STOP  = 3'd3;       // sample the stop bit
    localparam [2:0] S_BREAK = 3'd4;       // framing error: wait for idle line

    reg [1:0]    sync_q;                   // synchroniser, sync_q[1] is used
    reg [2:0]    state_q, state_d;
    reg [CW-1:0] cnt_q, cnt_d;
    reg [2:0]    bitn_q, bitn_d;
    reg [7:0]    sh_q, sh_d;
    reg          valid_d, err_d;

    wire rxd = sync_q[1];

    always @* begin
        state_d = state_q;
        cnt_d   = cnt_q + 1'b1;
        bitn_d  = bitn_q;
        sh_d    = sh_q;
        valid_d = 1'b0;
        err_d   = 1'b0;
        case (state_q)
        S_IDLE: begin
            cnt_d = {CW{1'b0}};
            if (!rxd)
                state_d = S_START;
        end
        S_START: begin
            if (cnt_q == HALF[CW-1:0] - 1'b1) begin
                cnt_d   = {CW{1'b0}};
                bitn_d  = 3'd0;
                state_d = rxd ? S_IDLE : S_DATA;   // high again: false start
            end
        end
        S_DATA: begin
            if (cnt_q == DIV[CW-1:0] - 1'b1) begin
                cnt_d  = {CW{1'b0}};
                sh_d   = {rxd, sh_q[7:1]};
                bitn_d = bitn_q + 1'b1;
                if (bitn_q == 3'd7)
                    state_d = S_STOP;
            end
        end
        S_STOP: begin
            if (cnt_q == DIV[CW-1:0] - 1'b1) begin
                cnt_d = {CW{1'b0}};
                if (rxd) begin
                    valid_d = 1'b1;
                    state_d = S_IDLE;
                end else begin
                    err_d   = 1'b1;
                    state_d = S_BREAK;
                end
            end
        end
        default: begin  // S_BREAK
            cnt_d = {CW{1'b0}};
            if (rxd)
                state_d = S_IDLE;
        end
        endcase
    end

    always @(posedge clk_i) begin
        if (rst_i) begin
            sync_q      <= 2'b11;
            state_q     <= S_IDLE;
            out_valid_o <= 1'b0;
            err_o       <= 1'b0;
        end else begin
            sync_q      <= {sync_q[0], rx_i};
            state_q     <= state_d;
            out_valid_o <= valid_d;
            err_o       <= err_d;
        end
        cnt_q      <= cnt_d;
        bitn_q     <= bitn_d;
        sh_q       <= sh_d;
        out_data_o <= sh_d;
    end
endmodule

`default_nettype wire
