`default_nettype none
// SPDX-License-Identifier: MIT
// tb_tap: tn_board_tap between a bus master with random request gaps and the
// RTL tn_torus (1x1x1). Proves that the tap's own STATUS polls (every 16
// cycles here) neither corrupt nor reorder the master's writes and reads
// (every word read back equals the word written, every request completes),
// that the master sees wait cycles only, and that status_o follows STATUS
// (done after a run, cleared by RESET). Prints TAP lines.
// tb_tap_async (below) tests the tap's two-clock mode.
`timescale 1ns / 1ps
module tb_tap;
    reg         clk = 1'b0;
    always #5 clk = !clk;
    wire        nclk = clk, bclk = clk;
    localparam  TAP_ASYNC = 0;
    `include "tb_tap_dut.vh"

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
        $display("# STATUS %h status_o %h", rd, status);
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

// tb_tap_async: tn_board_tap with ASYNC = 1 between a bus master on a bus
// clock (12.2 MHz; +bhalf=<ns> sets its half period) and the RTL tn_torus
// (1x1x1) on an unrelated network clock (48 MHz): the ratio is 3.94, so the
// phase of the two clocks drifts by a quarter of a network cycle every bus
// cycle and every phase occurs.
// The master behaves like tn_bridge: it holds a request until it sees
// m_ready_o at a bus clock edge and may present the next one in the cycle
// after. Random writes and reads (and the tap's own STATUS polls, every 16
// bus cycles) must each reach the torus exactly once and in order, every
// read must return the last word written, the bridge's RESET pulse (16
// bus cycles of srst_i) must reset the torus (and clear status_o) while
// polls are in flight, and the handshake must survive it. Prints TAP
// lines.
module tb_tap_async;
    reg         nclk = 1'b0, bclk = 1'b0;
    // half periods in ns; +bhalf=<ns> changes the bus clock's
    real nhalf = 10.417;           // 48.0 MHz
    real bhalf = 41.0;             // 12.2 MHz
    initial if ($value$plusargs("bhalf=%f", bhalf)) ;
    always #(nhalf) nclk = !nclk;
    always #(bhalf) bclk = !bclk;
    localparam  TAP_ASYNC = 1;
    `include "tb_tap_dut.vh"

    localparam [31:0] STATUS_ADDR = 32'hFFF00012;

    // Every request the torus completes, in order (the master never reads
    // STATUS in the random phase; those are the tap's polls).
    reg  [64:0] seen [0:4095];
    integer n_seen = 0, polls = 0;
    always @(posedge nclk)
        if ((s_we || s_re) && s_ready && !net_rst) begin
            if (s_re && s_addr == STATUS_ADDR) begin
                polls = polls + 1;
            end else begin
                seen[n_seen] = {s_we, s_addr, s_we ? s_wdata : 32'd0};
                n_seen = n_seen + 1;
            end
        end
    // what the master issued
    reg  [64:0] sent [0:4095];
    integer n_sent = 0;
    // network cycles in reset: pulses, the shortest after the board's first
    integer rst_len = 0, rst_min = 1000000, rst_pulses = 0;
    always @(posedge nclk)
        if (net_rst) begin
            rst_len = rst_len + 1;
        end else if (rst_len != 0) begin
            if (rst_pulses != 0 && rst_len < rst_min)   // RESET pulses, not the first
                rst_min = rst_len;
            rst_pulses = rst_pulses + 1;
            rst_len = 0;
        end

    integer guard, hung = 0, readies = 0;
    reg [31:0] rd;
    // One request, like tn_bridge: presented just after a bus clock edge,
    // held until m_ready_o is seen at an edge; returns just after that
    // edge with the request still presented (the caller presents the next
    // one or drops it).
    task bus(input wr, input [31:0] a, input [31:0] d);
        begin
            m_addr = a; m_wdata = d; m_we = wr; m_re = !wr;
            if (!(wr === 1'b0 && a == STATUS_ADDR)) begin
                sent[n_sent] = {wr, a, wr ? d : 32'd0};
                n_sent = n_sent + 1;
            end
            guard = 0;
            @(posedge bclk); #1;
            while (m_ready !== 1'b1 && guard < 200) begin
                @(posedge bclk); #1;
                guard = guard + 1;
            end
            if (guard >= 200) hung = hung + 1;
            rd = m_rdata;
            @(posedge bclk); #1;
            if (m_ready !== 1'b0) readies = readies + 1;   // one cycle of ready
        end
    endtask
    task idle(input integer n);
        begin
            m_we = 1'b0; m_re = 1'b0;
            m_addr = 32'hxxxxxxxx; m_wdata = 32'hxxxxxxxx;
            repeat (n) @(posedge bclk);
            #1;
        end
    endtask

    integer k, j, r, g, bad = 0, seed = 11, dup = 0, st_bad = 0, w;
    reg [7:0] val [0:15];
    initial begin
        repeat (6) @(posedge bclk);
        #1 rst = 1'b0;
        repeat (4) @(posedge bclk);
        #1;
        for (k = 0; k < 16; k = k + 1) begin
            val[k] = $random(seed);
            bus(1'b1, k, {24'd0, val[k]});
        end
        for (k = 0; k < 1500; k = k + 1) begin
            r = $random(seed);
            g = r & 32'h7;
            if (g >= 4)                         // half back to back
                idle(g - 4);
            j = (r >> 4) & 32'hF;
            if (r[8]) begin
                w = $random(seed);
                val[j] = w;
                bus(1'b1, j, w);
            end else begin
                bus(1'b0, j, 0);
                if (rd[7:0] !== val[j]) bad = bad + 1;
            end
            // the bridge's RESET now and then, with polls in flight
            if ((k % 300) == 150) begin
                idle($random(seed) & 32'h3);
                srst = 1'b1;
                repeat (16) @(posedge bclk);
                #1 srst = 1'b0;
                idle(($random(seed) & 32'hf) + 10);
                if (status !== 4'd0) st_bad = st_bad + 1;
            end
        end
        idle(4);
        check(hung == 0, "every master request completes");
        check(readies == 0, "m_ready_o is one bus cycle long");
        check(bad == 0, "random reads interleaved with writes, polls and resets return what was written");
        for (k = 0; k < n_sent && k < n_seen; k = k + 1)
            if (sent[k] !== seen[k]) dup = dup + 1;
        check(n_sent == n_seen && dup == 0,
              "each request reaches the torus exactly once, in order, with its address and data");
        $display("# %0d requests, %0d polls, %0d resets of the torus (shortest RESET %0d network cycles)",
                 n_sent, polls, rst_pulses, rst_min);
        check(polls > 100, "the tap polled STATUS between the master's requests");
        check(n_sent > 1500, "the master made its requests");
        check(rst_pulses == 6 && rst_min >= $rtoi(16.0 * bhalf / nhalf) - 2,
              "each RESET pulse (16 bus cycles) reset the torus for as long, within 2 network cycles");
        check(st_bad == 0, "status_o reads 0 after RESET");
        // a one-round run of 3 cycles: STATUS done, and the LEDs follow
        bus(1'b1, 32'hFFF00100, 3);
        bus(1'b1, 32'hFFF00011, 1);
        bus(1'b1, 32'hFFF00010, 1);
        idle(40);
        bus(1'b0, STATUS_ADDR, 0);
        idle(40);
        $display("# STATUS %h status_o %h", rd, status);
        check(rd[1] === 1'b1 && status == rd[3:0], "status_o follows STATUS after a run (done)");
        // RESET: the torus forgets the run
        srst = 1'b1;
        repeat (16) @(posedge bclk);
        #1 srst = 1'b0;
        idle(40);
        bus(1'b0, STATUS_ADDR, 0);
        idle(2);
        check(rd[3:0] === 4'd0 && status == 4'd0, "RESET reaches the torus: STATUS and status_o clear");
        // the board reset in the middle of polls and of the master's
        // requests (which it abandons, as the reset bridge does), then
        // requests again
        for (k = 0; k < 40; k = k + 1) begin
            r = $random(seed);
            m_addr = r & 32'hF; m_wdata = r; m_we = r[4]; m_re = !r[4];
            repeat (r[7:5]) @(posedge bclk);
            #(r[10:8] * 10 + 1) rst = 1'b1;
            m_we = 1'b0; m_re = 1'b0;
            repeat (5 + r[11]) @(posedge bclk);
            #1 rst = 1'b0;
            idle(r[14:12]);
            w = $random(seed);
            bus(1'b1, 5, w);
            bus(1'b0, 5, 0);
            if (rd[7:0] !== w[7:0]) bad = bad + 1;
        end
        check(hung == 0 && bad == 0, "requests work after board resets during requests and polls");
        $display("1..%0d", tap_n);
        $finish;
    end
endmodule
