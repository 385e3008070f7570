`default_nettype none
// SPDX-License-Identifier: MIT
// tn_top_hx8k: iCE40-HX8K breakout (iCE40HX8K-CT256) top. 12 MHz oscillator
// (pin J3, a global-buffer pin but not a PLL pad) -> SB_PLL40_CORE -> one
// clock (CLK_HZ) for everything: the UART, the host bridge and tn_torus's
// bus port (its bus clock) and the network (its network clock; tn_torus's
// crossing works with one clock on both sides). UART on the FT2232H
// interface B (RX B10, TX B12); LEDs D2..D4: running, done, error (active
// high); D5 blinks while the clock runs. No user button: the bridge's
// RESET command resets the torus. constraints/hx8k-breakout.pcf.
module tn_top_hx8k #(
    parameter DIM_X     = 3,    // the torus fitted to the HX8K (docs/boards.md;
    parameter DIM_Y     = 1,    //   mk/board.mk sets it): product parameters
    parameter DIM_Z     = 1,    //   of tn_torus
    parameter W         = 8,
    parameter LANES     = 1,
    parameter MEM_DEPTH = 256,
    parameter ROUNDS    = 16,
    parameter RELAY     = 0,
    parameter CLK_HZ    = 48000000, // the clock: 12 MHz * (DIVF+1) / 2**DIVQ
    parameter [6:0] DIVF = 7'd63,   // PLL feedback divider (icepll -i 12 -o MHz)
    parameter [2:0] DIVQ = 3'd4,    // PLL output divider
    parameter BAUD      = 12000000, // UART rate, CLK_HZ / BAUD >= 4 clocks per bit
    parameter MAX_WORDS = 128,      // bridge payload bound in words
    parameter FIFO_AW   = 9         // log2 of the bridge input FIFO bytes
) (
    input  wire       CLK,    // 12 MHz
    input  wire       RX,     // from FT2232H BDBUS0 (host TXD)
    output wire       TX,     // to FT2232H BDBUS1 (host RXD)
    output wire [3:0] LED     // D2 running, D3 done, D4 error, D5 heartbeat
);
    wire clk, lock;
    // icepll -i 12 -o 48: DIVR 0, DIVF 63, DIVQ 4, FILTER_RANGE 1 (VCO 768 MHz);
    // the VCO stays in 533..1066 MHz for every DIVQ the make table uses.
    SB_PLL40_CORE #(
        .FEEDBACK_PATH("SIMPLE"),
        .DIVR(4'b0000),
        .DIVF(DIVF),
        .DIVQ(DIVQ),
        .FILTER_RANGE(3'b001)
    ) u_pll (
        .REFERENCECLK(CLK), .PLLOUTGLOBAL(clk), .LOCK(lock),
        .RESETB(1'b1), .BYPASS(1'b0), .EXTFEEDBACK(1'b0), .DYNAMICDELAY(8'd0),
        .LATCHINPUTVALUE(1'b0), .SDI(1'b0), .SCLK(1'b0));

    wire rst;
    tn_board_por u_por (.clk_i(clk), .lock_i(lock), .btn_i(1'b0), .rst_o(rst));

    wire [3:0] status;
    tn_board_system #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
                      .MEM_DEPTH(MEM_DEPTH), .ROUNDS(ROUNDS), .RELAY(RELAY),
                      .BUS_HZ(CLK_HZ), .BAUD(BAUD), .MAX_WORDS(MAX_WORDS), .FIFO_AW(FIFO_AW)) u_sys (
        .bclk_i(clk), .rst_i(rst), .nclk_i(clk),
        .uart_rx_i(RX), .uart_tx_o(TX), .status_o(status));

    reg [24:0] beat_q = 25'd0;    // CLK_HZ / 2**25: about 1.4 Hz at 48 MHz
    always @(posedge clk)
        beat_q <= beat_q + 1'b1;

    assign LED = {beat_q[24], status[2] || status[3], status[1], status[0]};
endmodule
