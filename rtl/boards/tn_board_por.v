`default_nettype none
// SPDX-License-Identifier: MIT
// tn_board_por: board reset. Holds rst_o high from configuration until the
// PLL has locked and then for 2**CW more cycles; a lock loss or the button
// restarts it. iCE40 flip-flops come up 0 after configuration, which the
// initial value states for simulation.
module tn_board_por #(
    parameter CW = 4   // log2 of the cycles held after lock
) (
    input  wire clk_i,
    input  wire lock_i,   // PLL locked (tie high without a PLL)
    input  wire btn_i,    // reset request, active high (synchronised here)
    output wire rst_o
);
    reg [CW:0] cnt_q = {(CW+1){1'b0}};
    reg [CW:0] cnt_d;
    reg [1:0]  btn_q = 2'b00;     // synchroniser

    assign rst_o = !cnt_q[CW];

    always @* begin
        cnt_d = cnt_q;
        if (!lock_i || btn_q[1])
            cnt_d = {(CW+1){1'b0}};
        else if (!cnt_q[CW])
            cnt_d = cnt_q + 1'b1;
    end

    always @(posedge clk_i) begin
        btn_q <= {btn_q[0], btn_i};
        cnt_q <= cnt_d;
    end
endmodule
