`default_nettype none
// SPDX-License-Identifier: MIT
// tb_tap: tn_board_tap between a bus master with random request gaps and the
// RTL tn_torus (1x1x1). Proves that the tap's own STATUS polls (every 16
// cycles here) neither corrupt nor reorder the master's writes and reads
// (every word read back equals the word written, every request completes),
// that the master sees wait cycles only, and that status_o follows STATUS
// (done after a run, cleared by RESET). Prints TAP lines.
module tb_tap;
    reg         clk = 1'b0;
    reg         rst = 1'b1;
    reg  [31:0] m_addr = 32'd0, m_wdata = 32'd0;
    reg         m_we = 1'b0, m_re = 1'b0;
    wire [31:0] m_rdata, s_addr, s_wdata, s_rdata;
    wire        m_ready, s_we, s_re, s_ready;
    wire [3:0]  status;

    always #5 clk = !clk;

    tn_board_tap #(.POLL_LOG2(4)) u_tap (
        .clk_i(clk), .rst_i(rst),
        .m_addr_i(m_addr), .m_wdata_i(m_wdata), .m_we_i(m_we), .m_re_i(m_re),
        .m_rdata_o(m_rdata), .m_ready_o(m_ready),
        .s_addr_o(s_addr), .s_wdata_o(s_wdata), .s_we_o(s_we), .s_re_o(s_re),
        .s_rdata_i(s_rdata), .s_ready_i(s_ready), .status_o(status));
    tn_torus #(.DIM_X(1), .DIM_Y(1), .DIM_Z(1), .W(8), .LANES(1), .MEM_DEPTH(16),
               .ROUNDS(2)) u_torus (
        .clk_i(clk), .rst_i(rst), .bus_addr_i(s_addr), .bus_wdata_i(s_wdata),
        .bus_we_i(s_we), .bus_re_i(s_re), .bus_rdata_o(s_rdata), .bus_ready_o(s_ready));

    integer tap_n = 0;
    task check(input cond, input [8*72-1:0] what);
        begin
            tap_n = tap_n + 1;
            if (cond)
                $display("ok %0d - %0s", tap_n, what);
            else
                $display("not ok %0d - %0s", tap_n, what);
        end
    endtask

    // Count the tap's own STATUS reads that reached the torus.
    integer polls = 0;
    always @(posedge clk)
        if (s_re && s_ready && s_addr == 32'hFFF00012 && u_tap.own_q)
            polls = polls + 1;

    integer guard, hung = 0;
    reg [31:0] rd;
    // One request: presented at a falling edge, ready sampled mid-cycle; the
    // request completes at the next rising edge and is dropped after it.
    task bus(input wr, input [31:0] a, input [31:0] d);
        begin
            @(negedge clk);
            m_addr = a; m_wdata = d; m_we = wr; m_re = !wr;
            guard = 0;
            #1;
            while (m_ready !== 1'b1 && guard < 50) begin
                @(negedge clk);
                #1;
                guard = guard + 1;
            end
            if (guard >= 50) hung = hung + 1;
            rd = m_rdata;
            @(negedge clk);
            m_we = 1'b0; m_re = 1'b0;
        end
    endtask

    integer k, g, bad = 0, seed = 7;
    reg [7:0] val [0:15];
    initial begin
        repeat (3) @(posedge clk);
        rst = 1'b0;
        for (k = 0; k < 400; k = k + 1) begin
            g = $random(seed) & 32'h7;
            repeat (g) @(posedge clk);      // gaps of 0..7 cycles
            if (k < 16) begin
                val[k] = $random(seed);
                bus(1'b1, k, val[k]);
            end else begin
                bus(1'b0, (k % 16), 0);
                if (rd[7:0] !== val[k % 16]) bad = bad + 1;
            end
        end
        check(hung == 0, "every master request completes (the tap only adds wait cycles)");
        check(bad == 0, "384 reads interleaved with the tap's polls return what was written");
        check(polls > 10, "the tap polled STATUS between the master's requests");
        // a one-round run of 3 cycles: STATUS done, and the LEDs follow
        bus(1'b1, 32'hFFF00100, 3);
        bus(1'b1, 32'hFFF00011, 1);
        bus(1'b1, 32'hFFF00010, 1);
        repeat (60) @(posedge clk);
        bus(1'b0, 32'hFFF00012, 0);
        check(rd[1] === 1'b1 && status == rd[3:0], "status_o follows STATUS after a run (done)");
        @(negedge clk);
        rst = 1'b1;
        repeat (2) @(negedge clk);
        rst = 1'b0;
        repeat (40) @(posedge clk);
        check(status == 4'd0, "status_o clears after reset");
        $display("1..%0d", tap_n);
        $finish;
    end
endmodule
