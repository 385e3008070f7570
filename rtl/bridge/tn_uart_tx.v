// SPDX-License-Identifier: MIT
// tn_uart_tx: UART transmitter, 8N1, LSB first. Each bit lasts
// round(CLK_HZ / BAUD) clocks; back-to-back bytes have no idle gap.
`default_nettype none

module tn_uart_tx #(
    parameter CLK_HZ = 48000000,           // clock frequency in Hz
    parameter BAUD   = 12000000,           // bit rate
    parameter DIV    = (CLK_HZ + BAUD / 2) / BAUD  // derived: clocks per bit (>= 2)
) (
    input  wire       clk_i,
    input  wire       rst_i,
    input  wire       in_valid_i,
    input  wire [7:0] in_data_i,
    output wire       in_ready_o,
    output wire       tx_o                 // serial line, idle high
);
    localparam CW = $clog2(DIV);           // bit-time counter width

    reg          busy_q, busy_d;
    reg [CW-1:0] cnt_q, cnt_d;             // clocks into the current bit
    reg [3:0]    bitn_q, bitn_d;           // bit on the line: 0 start .. 9 stop
    reg [8:0]    sh_q, sh_d;               // bits still to send (data, stop)
    reg          txd_q, txd_d;

    wire bit_end = (cnt_q == DIV[CW-1:0] - 1'b1);
    wire ready   = !busy_q || (bit_end && bitn_q == 4'd9);

    assign in_ready_o = ready;
    assign tx_o       = txd_q;

    always @* begin
        busy_d = busy_q;
        cnt_d  = cnt_q;
        bitn_d = bitn_q;
        sh_d   = sh_q;
        txd_d  = txd_q;
        if (busy_q) begin
            cnt_d = bit_end ? {CW{1'b0}} : cnt_q + 1'b1;
            if (bit_end) begin
                if (bitn_q == 4'd9) begin
                    busy_d = 1'b0;
                    txd_d  = 1'b1;
                end else begin
                    txd_d  = sh_q[0];
                    sh_d   = {1'b1, sh_q[8:1]};
                    bitn_d = bitn_q + 1'b1;
                end
            end
        end
        if (in_valid_i && ready) begin
            busy_d = 1'b1;
            cnt_d  = {CW{1'b0}};
            bitn_d = 4'd0;
            sh_d   = {1'b1, in_data_i};
            txd_d  = 1'b0;                 // start bit
        end
    end

    always @(posedge clk_i) begin
        if (rst_i) begin
            busy_q <= 1'b0;
            cnt_q  <= {CW{1'b0}};
            bitn_q <= 4'd0;
            txd_q  <= 1'b1;
        end else begin
            busy_q <= busy_d;
            cnt_q  <= cnt_d;
            bitn_q <= bitn_d;
            txd_q  <= txd_d;
        end
        sh_q <= sh_d;
    end
endmodule

`default_nettype wire
