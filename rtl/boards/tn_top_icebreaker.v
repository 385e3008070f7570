`default_nettype none
// SPDX-License-Identifier: MIT
// tn_top_icebreaker: iCEBreaker (iCE40UP5K-SG48) top. The 12 MHz oscillator
// (pin 35, the PLL input pad) drives SB_PLL40_2_PAD: port A passes the
// oscillator itself to a global buffer, the bus clock of the UART, the host
// bridge and tn_torus's bus port (BUS_HZ); port B is the PLL's network
// clock (CLK_HZ). tn_torus crosses between the two. The board reset runs in
// the bus domain (the oscillator runs before the PLL locks).
// UART on the FT2232H interface B (RX pin 6, TX pin 9), 3 Mbaud; user
// button resets; LEDs: on-board green = done, red = error (active low),
// PMOD2 snap-off LED1 running, LED2 done, LED3 error (active high).
// constraints/icebreaker.pcf.
module tn_top_icebreaker #(
    parameter DIM_X     = 2,    // the torus fitted to the UP5K (docs/boards.md;
    parameter DIM_Y     = 1,    //   mk/board.mk sets it): product parameters
    parameter DIM_Z     = 1,    //   of tn_torus
    parameter W         = 8,
    parameter LANES     = 1,
    parameter MEM_DEPTH = 256,
    parameter ROUNDS    = 16,
    parameter RELAY     = 0,
    parameter CLK_HZ    = 48000000, // network clock: 12 MHz * (DIVF+1) / 2**DIVQ
    parameter [6:0] DIVF = 7'd63,   // PLL feedback divider (icepll -i 12 -o MHz)
    parameter [2:0] DIVQ = 3'd4,    // PLL output divider
    parameter BUS_HZ    = 12000000, // the oscillator: the bus clock
    parameter BAUD      = 3000000,  // UART rate, BUS_HZ / BAUD >= 4 clocks per bit
    parameter MAX_WORDS = 128,      // bridge payload bound in words
    parameter FIFO_AW   = 9         // log2 of the bridge input FIFO bytes
) (
    input  wire CLK,      // 12 MHz
    input  wire BTN_N,    // user button, low when pressed
    input  wire RX,       // from FT2232H BDBUS0 (host TXD)
    output wire TX,       // to FT2232H BDBUS1 (host RXD)
    output wire LEDR_N,   // red: error
    output wire LEDG_N,   // green: done
    output wire LED1,     // PMOD2: running
    output wire LED2,     // PMOD2: done
    output wire LED3      // PMOD2: error
);
    wire clk, bclk, lock, rst;
    // icepll -i 12 -o 48: DIVR 0, DIVF 63, DIVQ 4, FILTER_RANGE 1 (VCO 768 MHz);
    // the VCO stays in 533..1066 MHz for every DIVQ the make table uses.
    SB_PLL40_2_PAD #(
        .FEEDBACK_PATH("SIMPLE"),
        .DIVR(4'b0000),
        .DIVF(DIVF),
        .DIVQ(DIVQ),
        .FILTER_RANGE(3'b001)
    ) u_pll (
        .PACKAGEPIN(CLK), .PLLOUTGLOBALA(bclk), .PLLOUTGLOBALB(clk), .LOCK(lock),
        .RESETB(1'b1), .BYPASS(1'b0), .EXTFEEDBACK(1'b0), .DYNAMICDELAY(8'd0),
        .LATCHINPUTVALUE(1'b0), .SDI(1'b0), .SCLK(1'b0));
    tn_board_por u_por (.clk_i(bclk), .lock_i(lock), .btn_i(!BTN_N), .rst_o(rst));

    wire [3:0] status;
    tn_board_system #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
                      .MEM_DEPTH(MEM_DEPTH), .ROUNDS(ROUNDS), .RELAY(RELAY),
                      .BUS_HZ(BUS_HZ), .BAUD(BAUD), .MAX_WORDS(MAX_WORDS), .FIFO_AW(FIFO_AW)) u_sys (
        .bclk_i(bclk), .rst_i(rst), .nclk_i(clk),
        .uart_rx_i(RX), .uart_tx_o(TX), .status_o(status));

    wire err = status[2] || status[3];
    assign LED1   = status[0];
    assign LED2   = status[1];
    assign LED3   = err;
    assign LEDG_N = !status[1];
    assign LEDR_N = !err;
endmodule
