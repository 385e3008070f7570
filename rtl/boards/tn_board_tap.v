`default_nettype none
// SPDX-License-Identifier: MIT
// tn_board_tap: sits on the configuration bus between the host bridge
// (master) and tn_torus (slave) and, every 2**POLL_LOG2 cycles (of the bus
// clock if ASYNC) while the bridge is idle, reads STATUS (0xFFF00012) itself
// so the board can show it on LEDs. tn_torus has no status outputs; this is
// the bus-only way to see them. It is also the bus's register stage on the boards: the request
// to the torus and the response to the bridge both come from flip-flops, so
// the bridge's command engine and the torus's address decode are not one
// combinational path. Requests only get wait cycles, which the bus contract
// allows (docs/hardware.md).
//
// ASYNC = 0: one clock (clk_i). A request takes two cycles more than on the
// bare torus, and a bridge request that arrives while the tap's own read is
// in flight waits. mclk_i is not used; net_rst_o = rst_i || srst_i.
//
// ASYNC = 1: the bridge runs on its own clock (mclk_i, the bus domain) and
// the torus on clk_i (the network domain); the two are unrelated. The tap
// is the clock-domain crossing, a toggle handshake:
//   bus side      takes a bridge request, or its own STATUS poll (every
//                 2**POLL_LOG2 bus cycles), into flip-flops (s_addr_o,
//                 s_wdata_o, write) and flips req; they stay unchanged
//                 until the answer has come back.
//   network side  sees req flip through a two-flip-flop synchroniser,
//                 registers write-or-read and presents the request to the
//                 torus (s_we_o/s_re_o from network flip-flops); at ready it
//                 registers the read data (n_rdata_q, held until the next
//                 request completes) and a cycle later flips ack.
//   bus side      sees ack flip through a two-flip-flop synchroniser and
//                 gives the bridge one cycle of m_ready_o (or, for its own
//                 poll, registers STATUS into status_o).
// The held request (s_addr_o, s_wdata_o: bus-domain flip-flops) goes to
// the torus and the held read data (n_rdata_q = m_rdata_o) to the bridge
// without a second register in the tap: each is stable from at least two
// clocks of the receiving domain before the synchronised toggle that lets
// it be used until after that use, and the receiver registers it before
// use: tn_torus's bus input stage (baddr_q, bwdata_q and the address
// decodes) loads only on an accepted request (s_we_o/s_re_o, network
// flip-flops), and the bridge's command engine registers the read data
// (word_q, pre_q) only under m_ready_o. Registering them again in the tap
// would cost about 100 more logic cells, which the UP5K does not have.
// Only req, ack and the reset requests (into synchronisers) and these held
// registers cross; no combinational path crosses. status_o (the LEDs) is
// in the bus domain.
// Resets: rst_i is the board reset, in the bus domain. The bus side is
// reset by it, and the network side's handshake by it carried through a
// synchroniser (each side drops the request in flight and takes the other
// side's toggle as seen; the toggles themselves are not reset; the bus side
// makes no request until it has seen, through a synchroniser, the network
// side's reset begin and end); the rest of the network side and the torus
// (net_rst_o) by it or the bridge's RESET pulse (srst_i, RESET_CYCLES = 16
// bus cycles long), registered in the bus domain and carried through a
// synchroniser: every network clock faster than 1/16 of the bus clock
// samples it (here the network clock is the faster one). These flip-flops
// hold "run" (active-low reset), so they power up in reset. The bridge
// issues RESET only with no request in flight, so the handshake is never
// cut in half by it; a request that arrives while net_rst_o is high waits.
module tn_board_tap #(
    parameter POLL_LOG2 = 16,  // log2 of the poll period in cycles
    parameter ASYNC     = 0    // 1: bridge side on mclk_i (see above)
) (
    input  wire        clk_i,     // network clock
    input  wire        mclk_i,    // bus clock (ASYNC only)
    input  wire        rst_i,     // board reset (bus domain if ASYNC)
    input  wire        srst_i,    // the bridge's soft reset (bus domain if ASYNC)
    output wire        net_rst_o, // network domain: reset for tn_torus
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

    wire done = req_q && s_ready_i;

    generate if (ASYNC == 0) begin : g_sync
        /* verilator lint_off UNUSEDSIGNAL */
        wire unused = mclk_i;
        /* verilator lint_on UNUSEDSIGNAL */
        wire nrst = rst_i || srst_i;
        assign net_rst_o = nrst;
        // A new request is taken when none is presented and the bridge is
        // not seeing the ready of its last one (it still holds that request
        // then).
        wire free = !req_q && !m_ready_o;
        wire take = free && (m_we_i || m_re_i);
        wire poll = free && !take && pend_q;

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
            if (nrst) begin
                tick_q    <= {POLL_LOG2{1'b0}};
                pend_q    <= 1'b0;
                req_q     <= 1'b0;
                m_ready_o <= 1'b0;
                status_o  <= 4'd0;
            end
        end
    end else begin : g_async
        // ---- resets ----
        // "run" (active-low reset) everywhere: configuration's 0 is reset
        reg       b_run_q = 1'b0, b_hrun_q = 1'b0;   // bus domain
        (* async_reg = "true" *) reg [1:0] n_run_s = 2'b00;    // network domain
        (* async_reg = "true" *) reg [1:0] n_hrun_s = 2'b00;
        always @(posedge mclk_i) begin
            b_run_q  <= !(rst_i || srst_i);
            b_hrun_q <= !rst_i;
        end
        reg       nrst = 1'b0;    // board reset or RESET
        reg       hrst = 1'b0;    // board reset: the handshake
        always @(posedge clk_i) begin
            n_run_s  <= {n_run_s[0], b_run_q};
            n_hrun_s <= {n_hrun_s[0], b_hrun_q};
            nrst     <= !n_run_s[1];
            hrst     <= !n_hrun_s[1];
        end
        assign net_rst_o = nrst;

        // ---- bus side (mclk_i) ----
        // The toggles and their "last seen" copies are never reset (iCE40
        // flip-flops are 0 after configuration): a reset of one side would
        // look like a toggle to the other. A board reset instead makes each
        // side drop what is in flight and accept the other's toggle as seen.
        reg        b_busy_q;          // a request is in flight
        reg        b_req_q = 1'b0;    // request toggle
        reg        b_we_q;            // held request: write (else read)
        (* async_reg = "true" *) reg [1:0] b_ack_s = 2'b00;   // ack synchroniser
        reg        b_ack_q = 1'b0;    // last ack seen
        reg        n_ack_q = 1'b0;    // network side: ack toggle
        reg [31:0] n_rdata_q;         // network side: held read data

        reg        b_stale_q;         // RESET came during our poll: drop it
        // After a board reset the bus side waits until it has seen the
        // network side's handshake reset (hrst) begin and end: requests
        // before the end would be dropped, answers before the beginning
        // are stale.
        (* async_reg = "true" *) reg [1:0] b_hrst_s = 2'b00;  // hrst synchroniser
        reg        b_wait_q;          // hrst not seen yet since rst_i
        wire b_ack  = b_ack_s[1] ^ b_ack_q;   // the answer is back
        // as in the one-clock tap: not while the bridge sees the ready of
        // its last request (it still holds that request then)
        wire b_free = !b_busy_q && !m_ready_o && !rst_i && !b_wait_q && !b_hrst_s[1];
        wire b_take = b_free && (m_we_i || m_re_i);
        wire b_poll = b_free && !b_take && pend_q;

        // read data: n_rdata_q, held from the answer until the next request
        // completes, which is after the bridge has taken it
        always @* m_rdata_o = n_rdata_q;

        always @(posedge mclk_i) begin
            b_ack_s   <= {b_ack_s[0], n_ack_q};
            b_ack_q   <= b_ack_s[1];
            b_hrst_s  <= {b_hrst_s[0], hrst};
            if (b_hrst_s[1])
                b_wait_q <= 1'b0;
            tick_q    <= tick_q + 1'b1;
            m_ready_o <= b_ack && b_busy_q && !own_q;
            if (b_ack && b_busy_q) begin
                b_busy_q <= 1'b0;
                if (own_q && !b_stale_q)
                    status_o <= n_rdata_q[3:0];
            end
            if (&tick_q)
                pend_q <= 1'b1;
            if (b_take || b_poll) begin
                b_busy_q <= 1'b1;
                b_req_q  <= !b_req_q;
                b_we_q   <= b_take && m_we_i;
                own_q    <= b_poll;
                b_stale_q <= 1'b0;
            end
            if (b_take) begin
                s_addr_o  <= m_addr_i;
                s_wdata_o <= m_wdata_i;
            end else if (b_poll) begin
                pend_q   <= 1'b0;
                s_addr_o <= STATUS_ADDR;
            end
            if (rst_i || srst_i) begin
                tick_q    <= {POLL_LOG2{1'b0}};
                pend_q    <= 1'b0;
                status_o  <= 4'd0;
                b_stale_q <= 1'b1;
            end
            if (rst_i) begin
                b_busy_q  <= 1'b0;
                b_wait_q  <= 1'b1;
                m_ready_o <= 1'b0;
            end
        end

        // ---- network side (clk_i) ----
        (* async_reg = "true" *) reg [1:0] n_req_s = 2'b00;   // req synchroniser
        reg        n_req_q = 1'b0;    // last req taken

        // The torus's ready arrives late in the cycle (docs/hardware.md: it
        // may depend on the request itself), so only one logic level
        // follows it: req_q drops at ready, the read data is taken at ready,
        // and the answer (ack) is flipped one cycle later from fin_q.
        wire go   = !hrst && !nrst;                     // registers only
        wire pend = n_req_s[1] ^ n_req_q;               // a request waits
        wire take = go && !req_q && pend;
        initial req_q = 1'b0;   // as after configuration (iCE40)
        reg  fin_q = 1'b0;  // the request ended last cycle: ready, or a reset
                            // of the torus (then the data is stale; only a
                            // poll can be in flight then, and the bus side
                            // drops its result)

        always @(posedge clk_i) begin
            n_req_s <= {n_req_s[0], b_req_q};
            req_q   <= take || (go && req_q && !s_ready_i);
            fin_q   <= req_q && (s_ready_i || nrst) && !hrst;
            if (fin_q)
                n_ack_q <= !n_ack_q;
            if (done)
                n_rdata_q <= s_rdata_i;   // no reset: a plain enable flip-flop
            if (take) begin
                n_req_q <= n_req_s[1];
                we_q    <= b_we_q;
            end
            if (hrst)
                n_req_q <= n_req_s[1];
        end
    end endgenerate
endmodule
