`default_nettype none
// SPDX-License-Identifier: MIT
// tb_netlist: drives tn_torus through its configuration bus (docs/hardware.md)
// and checks the eject statistics against the timing model (docs/timing.md)
// and a CRC-32 computed here, bit by bit, independently of rtl/tn_crc32.v.
// The same bench runs on the RTL and on the yosys synth_ice40 netlist
// (-DNETLIST, with the iCE40 cell models), so both must give the same
// timestamps, counts and CRCs. Prints TAP lines.
//
// DIM_X = 2 (2x1x1, W 8, LANES 1): round 0 a gossip (both nodes send their
// 4-flit message to the other over X+), round 1 a broadcast from node 0 over
// X- (6 flits, start offset 2).
// DIM_X = 1 (the board torus 1x1x1): no links exist, so both rounds deliver
// head-routed (relay, DOR) streams from the node's inject lane to its own
// eject lane: 0 hops.
module tb_netlist;
`ifndef DIM_X
    `define DIM_X 2
`endif
    localparam DX    = `DIM_X;  // nodes (1x1x1 or 2x1x1)
    localparam W     = 8;       // flit width of the board builds
    localparam ALPHA = 1;       // round switch cost (checked against INFO)
    // MEM flags (region 1, docs/hardware.md): bit 0 head, bit 1 tail
    localparam [31:0] FLAG_HEAD = 32'd1, FLAG_TAIL = 32'd2;

    reg         clk = 1'b0;
    reg         rst = 1'b1;
    reg  [31:0] addr = 32'd0, wdata = 32'd0;
    reg         we = 1'b0, re = 1'b0;
    wire [31:0] rdata;
    wire        ready;

    always #5 clk = !clk;

`ifdef NETLIST
    tn_torus dut (
`else
    tn_torus #(.DIM_X(DX), .DIM_Y(1), .DIM_Z(1), .W(W), .LANES(1), .MEM_DEPTH(16),
               .ROUNDS(2)) dut (
`endif
        .clk_i(clk), .rst_i(rst), .bus_addr_i(addr), .bus_wdata_i(wdata),
        .bus_we_i(we), .bus_re_i(re), .bus_rdata_o(rdata), .bus_ready_o(ready));

    integer tap_n = 0, tap_fail = 0;
    task check(input cond, input [8*72-1:0] what);
        begin
            tap_n = tap_n + 1;
            if (cond)
                $display("ok %0d - %0s", tap_n, what);
            else begin
                $display("not ok %0d - %0s", tap_n, what);
                tap_fail = tap_fail + 1;
            end
        end
    endtask
    task check_eq(input [63:0] got, input [63:0] want, input [8*72-1:0] what);
        begin
            check(got === want, what);
            if (got !== want)
                $display("#   got %0d (0x%0h), want %0d (0x%0h)", got, got, want, want);
        end
    endtask

    // One bus transaction: hold the request until ready (zero or more waits).
    // One bus transaction (docs/hardware.md): the request is presented at a
    // falling edge and held; ready is sampled mid-cycle, the request completes
    // at the following rising edge and is dropped after it.
    integer guard;
    reg [31:0] rd;
    task bus(input wr, input [31:0] a, input [31:0] d);
        begin
            @(negedge clk);
            addr = a; wdata = d; we = wr; re = !wr;
            guard = 0;
            #1;
            while (ready !== 1'b1 && guard < 100) begin
                @(negedge clk);
                #1;
                guard = guard + 1;
            end
            rd = rdata;
            @(negedge clk);
            we = 1'b0; re = 1'b0;
        end
    endtask
    task bus_write(input [31:0] a, input [31:0] d);
        bus(1'b1, a, d);
    endtask
    task bus_read(input [31:0] a);
        bus(1'b0, a, 32'd0);
    endtask

    function [31:0] na(input integer node, input integer region, input integer off);
        na = (node << 20) | (region << 16) | off;
    endfunction
    localparam [31:0] G = 32'hFFF00000;

    // CRC-32/IEEE over one byte per flit (W = 8), reflected, init/xorout ~0.
    function [31:0] crc_step(input [31:0] c, input [7:0] b);
        integer i;
        reg [31:0] x;
        begin
            x = c;
            for (i = 0; i < 8; i = i + 1)
                x = (x[0] ^ b[i]) ? ((x >> 1) ^ 32'hEDB88320) : (x >> 1);
            crc_step = x;
        end
    endfunction
    function [31:0] crc_of(input [8*16-1:0] bytes, input integer n);
        integer i;
        reg [31:0] c;
        begin
            c = 32'hFFFFFFFF;
            for (i = 0; i < n; i = i + 1)
                c = crc_step(c, bytes[8*i +: 8]);
            crc_of = ~c;
        end
    endfunction

    // The messages: byte k of message m at [8k+:8].
    reg [8*16-1:0] msg [0:2];
    integer k, r, n, f;
    reg [47:0] t0, tend, t1;
    reg [31:0] dur0, dur1, n_rec;

    // Program every field of round r of node n that LANES = 1 has.
    task round_cfg(input integer node, input integer rnd, input [3:0] osel_xp,
                   input [3:0] osel_xm, input mode, input [3:0] esel,
                   input [31:0] idesc, input [31:0] iaddr, input [31:0] ilen,
                   input [31:0] edesc, input [31:0] eaddr, input [31:0] elen);
        integer o;
        begin
            for (o = 0; o < 6; o = o + 1)
                bus_write(na(node, 2, rnd*64 + o), o == 0 ? osel_xp : o == 1 ? osel_xm : 0);
            bus_write(na(node, 2, rnd*64 + 6), mode);
            bus_write(na(node, 2, rnd*64 + 8), esel);
            bus_write(na(node, 2, rnd*64 + 16), idesc);
            bus_write(na(node, 2, rnd*64 + 17), iaddr);
            bus_write(na(node, 2, rnd*64 + 18), ilen);
            bus_write(na(node, 2, rnd*64 + 40), edesc);
            bus_write(na(node, 2, rnd*64 + 41), eaddr);
            bus_write(na(node, 2, rnd*64 + 42), elen);
        end
    endtask

    // Read one eject record and check it against the model.
    task check_rec(input integer node, input integer rnd, input [47:0] first,
                   input integer cnt, input [31:0] crc, input [8*24-1:0] name);
        reg [47:0] got_first, got_last;
        begin
            bus_read(na(node, 3, rnd*64 + 0)); got_first[31:0] = rd;
            bus_read(na(node, 3, rnd*64 + 1)); got_first[47:32] = rd[15:0];
            bus_read(na(node, 3, rnd*64 + 2)); got_last[31:0] = rd;
            bus_read(na(node, 3, rnd*64 + 3)); got_last[47:32] = rd[15:0];
            check_eq(got_first, first, {name, ": first-flit cycle = T_r+alpha+s+d"});
            check_eq(got_last, first + cnt - 1, {name, ": last-flit cycle = first+n-1"});
            bus_read(na(node, 3, rnd*64 + 4));
            check_eq(rd, cnt, {name, ": flit count"});
            bus_read(na(node, 3, rnd*64 + 5));
            check_eq(rd, crc, {name, ": CRC-32 of the stream"});
            bus_read(na(node, 3, rnd*64 + 6));
            check_eq(rd, 0, {name, ": no eject error"});
            bus_read(na(node, 3, rnd*64 + 4)); n_rec = rd;
            bus_read(na(node, 3, rnd*64 + 5));
            // raw record relative to START_CYCLE: the wrapper compares RTL and netlist
            $display("# rec node %0d round %0d first %0d last %0d count %0d crc %08x",
                     node, rnd, got_first - t0, got_last - t0, n_rec, rd);
        end
    endtask

    initial begin
        for (k = 0; k < 16; k = k + 1) begin
            msg[0][8*k +: 8] = 8'h3C + 8'd17 * k[7:0];
            msg[1][8*k +: 8] = 8'hA5 ^ (8'd29 * k[7:0]);
            msg[2][8*k +: 8] = 8'h11 * k[7:0] + 8'h07;
        end
        if (DX == 1) begin
            msg[0][7:0] = 8'h00;    // relay heads carry the destination {y, x} = (0, 0)
            msg[1][7:0] = 8'h00;
        end
        repeat (4) @(posedge clk);
        rst = 1'b0;
        repeat (2) @(posedge clk);

        bus_read(G | 32'h001);
        check_eq(rd, DX | (1 << 8) | (1 << 16), "INFO DIMS");
        bus_read(G | 32'h002);
        check_eq(rd, W, "INFO W");
        bus_read(G | 32'h006);
        check_eq(rd, ALPHA, "INFO ALPHA is the alpha of the model");

        if (DX == 2) begin
            // memory: node n's own message at 0..3 (msg[n]); node 0's broadcast at 8..13
            for (n = 0; n < 2; n = n + 1)
                for (k = 0; k < 16; k = k + 1) begin
                    bus_write(na(n, 0, k), (k < 4) ? msg[n][8*k +: 8] : (n == 0 && k >= 8 && k < 14) ? msg[2][8*(k-8) +: 8] : 0);
                    bus_write(na(n, 1, k), 0);
                end
            // round 0, gossip: inject lane -> X+ (select 1); eject from input 0 (X+ travel)
            for (n = 0; n < 2; n = n + 1)
                round_cfg(n, 0, 4'd1, 4'd0, 1'b0, 4'd8, 32'h80000000, 0, 4, 32'h80000000, 4, 4);
            // round 1, broadcast from node 0 over X- at offset 2; node 1 ejects input 1
            round_cfg(0, 1, 4'd0, 4'd1, 1'b0, 4'd0, 32'h80000002, 8, 6, 32'h0, 0, 0);
            round_cfg(1, 1, 4'd0, 4'd0, 1'b0, 4'd9, 32'h0, 0, 0, 32'h80000000, 8, 6);
            dur0 = ALPHA + 0 + 1 + 4;   // alpha + s + d + n
            dur1 = ALPHA + 2 + 1 + 6;
        end else begin
            // memory: stream 0 at 0..3 (head on 0, tail on 3), stream 1 at 4..6
            for (k = 0; k < 16; k = k + 1) begin
                bus_write(na(0, 0, k), (k < 4) ? msg[0][8*k +: 8] : (k < 7) ? msg[1][8*(k-4) +: 8] : 0);
                bus_write(na(0, 1, k), (k == 0 || k == 4) ? FLAG_HEAD : (k == 3 || k == 6) ? FLAG_TAIL : 0);
            end
            // relay by DOR (mode 1), inject descriptor valid + relay, eject lane relay (15)
            round_cfg(0, 0, 4'd0, 4'd0, 1'b1, 4'd15, 32'hC0000000, 0, 4, 32'h80000000, 8, 4);
            round_cfg(0, 1, 4'd0, 4'd0, 1'b1, 4'd15, 32'hC0000001, 4, 3, 32'h80000000, 12, 3);
            dur0 = ALPHA + 0 + 0 + 4;
            dur1 = ALPHA + 1 + 0 + 3;
        end
        bus_write(G | 32'h100, dur0);
        bus_write(G | 32'h101, dur1);
        bus_write(G | 32'h011, 2);          // NROUNDS
        bus_write(G | 32'h010, 4);          // clear statistics and errors
        bus_write(G | 32'h010, 1);          // start
        f = 0;
        rd = 0;
        while (f < 200 && rd[1] !== 1'b1) begin
            bus_read(G | 32'h012);
            f = f + 1;
        end
        check(rd[1] === 1'b1 && rd[2] === 1'b0 && rd[3] === 1'b0, "STATUS: done, no error, not aborted");
        bus_read(G | 32'h016); t0[31:0] = rd;
        bus_read(G | 32'h017); t0[47:32] = rd[15:0];
        bus_read(G | 32'h018); tend[31:0] = rd;
        bus_read(G | 32'h019); tend[47:32] = rd[15:0];
        check_eq(tend - t0, dur0 + dur1, "END_CYCLE - START_CYCLE = D_0 + D_1");
        t1 = t0 + dur0;

        if (DX == 2) begin
            check_rec(1, 0, t0 + ALPHA + 1, 4, crc_of(msg[0], 4), "gossip node 0->1");
            check_rec(0, 0, t0 + ALPHA + 1, 4, crc_of(msg[1], 4), "gossip node 1->0");
            check_rec(1, 1, t1 + ALPHA + 2 + 1, 6, crc_of(msg[2], 6), "broadcast node 0->1");
            f = 0;
            for (k = 0; k < 4; k = k + 1) begin
                bus_read(na(1, 0, 4 + k)); if (rd !== msg[0][8*k +: 8]) f = f + 1;
                bus_read(na(0, 0, 4 + k)); if (rd !== msg[1][8*k +: 8]) f = f + 1;
            end
            for (k = 0; k < 6; k = k + 1) begin
                bus_read(na(1, 0, 8 + k)); if (rd !== msg[2][8*k +: 8]) f = f + 1;
            end
            check_eq(f, 0, "received messages stored in the destination memories");
        end else begin
            check_rec(0, 0, t0 + ALPHA + 0, 4, crc_of(msg[0], 4), "relay to self, round 0");
            check_rec(0, 1, t1 + ALPHA + 1, 3, crc_of(msg[1], 3), "relay to self, round 1");
            f = 0;
            for (k = 0; k < 4; k = k + 1) begin
                bus_read(na(0, 0, 8 + k)); if (rd !== msg[0][8*k +: 8]) f = f + 1;
            end
            for (k = 0; k < 3; k = k + 1) begin
                bus_read(na(0, 0, 12 + k)); if (rd !== msg[1][8*k +: 8]) f = f + 1;
            end
            check_eq(f, 0, "delivered streams stored in the eject memory");
        end
        for (n = 0; n < DX; n = n + 1) begin
            bus_read(na(n, 4, 0));
            check_eq(rd, 0, "node status flags clear (no collision, drop, overrun)");
        end
        $display("1..%0d", tap_n);
        $finish;
    end

    initial begin
        #2000000;
        $display("not ok - timeout");
        $finish;
    end
endmodule
