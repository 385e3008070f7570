`default_nettype none
// SPDX-License-Identifier: MIT
// tn_board_tap: sits on the configuration bus between the host bridge
// (master) and tn_torus (slave) and, every 2**POLL_LOG2 cycles while the
// bridge is idle, reads STATUS (0xFFF00012) itself so the board can show it
// on LEDs. tn_torus has no status outputs; this is the bus-only way to see
// them. While its own read is in flight the bridge's request waits (ready
// low), which the bus contract allows (docs/hardware.md: zero or more wait
// cycles).
module tn_board_tap #(
    parameter POLL_LOG2 = 16   // log2 of the poll period in cycles
) (
    input  wire        clk_i,
    input  wire        rst_i,
    // from the bridge (bus master)
    input  wire [31:0] m_addr_i,
    input  wire [31:0] m_wdata_i,
    input  wire        m_we_i,
    input  wire        m_re_i,
    output wire [31:0] m_rdata_o,
    output wire        m_ready_o,
    // to tn_torus (bus slave)
    output wire [31:0] s_addr_o,
    output wire [31:0] s_wdata_o,
    output wire        s_we_o,
    output wire        s_re_o,
    input  wire [31:0] s_rdata_i,
    input  wire        s_ready_i,
    // STATUS bits 3:0 as last read: running, done, error, aborted
    output reg  [3:0]  status_o
);
    localparam [31:0] STATUS_ADDR = 32'hFFF00012; // global STATUS register

    reg [POLL_LOG2-1:0] tick_q, tick_d;
    reg                 pend_q, pend_d;   // a poll is due
    reg                 own_q, own_d;     // our read is in flight
    reg [3:0]           status_d;

    // Our read starts only in a cycle where the bridge presents nothing, so
    // it never cuts into a bridge request the torus has already taken.
    wire own_start = pend_q && !own_q && !m_we_i && !m_re_i;
    wire own       = own_q || own_start;

    assign s_addr_o  = own ? STATUS_ADDR : m_addr_i;
    assign s_wdata_o = m_wdata_i;
    assign s_we_o    = own ? 1'b0 : m_we_i;
    assign s_re_o    = own ? 1'b1 : m_re_i;
    assign m_rdata_o = s_rdata_i;
    assign m_ready_o = own ? 1'b0 : s_ready_i;

    always @* begin
        tick_d   = tick_q + 1'b1;
        pend_d   = pend_q;
        own_d    = own;
        status_d = status_o;
        if (&tick_q)
            pend_d = 1'b1;
        if (own_start)
            pend_d = 1'b0;
        if (own && s_ready_i) begin
            own_d    = 1'b0;
            status_d = s_rdata_i[3:0];
        end
    end

    always @(posedge clk_i) begin
        tick_q   <= tick_d;
        pend_q   <= pend_d;
        own_q    <= own_d;
        status_o <= status_d;
        if (rst_i) begin
            tick_q   <= {POLL_LOG2{1'b0}};
            pend_q   <= 1'b0;
            own_q    <= 1'b0;
            status_o <= 4'd0;
        end
    end
endmodule
