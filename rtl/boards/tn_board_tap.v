`default_nettype none
// SPDX-License-Identifier: MIT
// tn_board_tap: sits on the configuration bus between the host bridge
// (master) and tn_torus (slave) and, every 2**POLL_LOG2 cycles while the
// bridge is idle, reads STATUS (0xFFF00012) itself so the board can show it
// on LEDs. tn_torus has no status outputs; this is the bus-only way to see
// them. It is also the bus's register stage on the boards: the request to
// the torus and the response to the bridge both come from flip-flops, so
// the bridge's command engine and the torus's address decode are not one
// combinational path. A request therefore takes two cycles more than on the
// bare torus, and a bridge request that arrives while the tap's own read is
// in flight waits; both are wait cycles, which the bus contract allows
// (docs/hardware.md).
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
    output reg  [31:0] m_rdata_o,
    output reg         m_ready_o,
    // to tn_torus (bus slave)
    output reg  [31:0] s_addr_o,
    output reg  [31:0] s_wdata_o,
    output wire        s_we_o,
    output wire        s_re_o,
    input  wire [31:0] s_rdata_i,
    input  wire        s_ready_i,
    // STATUS bits 3:0 as last read: running, done, error, aborted
    output reg  [3:0]  status_o
);
    localparam [31:0] STATUS_ADDR = 32'hFFF00012; // global STATUS register

    reg [POLL_LOG2-1:0] tick_q;
    reg                 pend_q;   // a poll is due
    reg                 req_q;    // a request is presented to the torus
    reg                 we_q;     // ... a write (else a read)
    reg                 own_q;    // ... our STATUS read

    assign s_we_o = req_q && we_q;
    assign s_re_o = req_q && !we_q;

    // A new request is taken when none is presented and the bridge is not
    // seeing the ready of its last one (it still holds that request then).
    wire free = !req_q && !m_ready_o;
    wire take = free && (m_we_i || m_re_i);
    wire poll = free && !take && pend_q;
    wire done = req_q && s_ready_i;

    always @(posedge clk_i) begin
        tick_q    <= tick_q + 1'b1;
        m_ready_o <= done && !own_q;
        if (done) begin
            req_q <= 1'b0;
            if (own_q)
                status_o <= s_rdata_i[3:0];
            else
                m_rdata_o <= s_rdata_i;
        end
        if (&tick_q)
            pend_q <= 1'b1;
        if (take) begin
            req_q     <= 1'b1;
            we_q      <= m_we_i;
            own_q     <= 1'b0;
            s_addr_o  <= m_addr_i;
            s_wdata_o <= m_wdata_i;
        end else if (poll) begin
            req_q    <= 1'b1;
            we_q     <= 1'b0;
            own_q    <= 1'b1;
            pend_q   <= 1'b0;
            s_addr_o <= STATUS_ADDR;
        end
        if (rst_i) begin
            tick_q    <= {POLL_LOG2{1'b0}};
            pend_q    <= 1'b0;
            req_q     <= 1'b0;
            m_ready_o <= 1'b0;
            status_o  <= 4'd0;
        end
    end
endmodule
