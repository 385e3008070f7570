`timescale 1ps / 1ps
`default_nettype none
// SPDX-License-Identifier: MIT
// tb_netlist: drives a board's tn_torus through its configuration bus on
// the board's two clocks (docs/hardware.md) and checks the eject records
// against the timing model (docs/timing.md, alpha = 1) and against a
// memory model and a CRC-32 computed here, bit by bit, independently of the
// RTL. The same bench runs on the RTL and on the yosys synth_ice40 netlist
// (-DNETLIST, with the iCE40 cell models); every record is also printed
// ("# rec ...") so that the wrapper (test_netlist.sh) can check that both
// gave the same. Prints TAP lines.
//
// The torus: DIM_X x DIM_Y x DIM_Z (DIM_X 2..3, the others 1..3), W 8,
// LANES 1, RELAY 0, MEM_DEPTH >= 32, ROUNDS >= the gossip's rounds.
// Clocks: -DBCLK_HALF and -DNCLK_HALF (half periods in ps), or -DONE_CLOCK
// (one clock on both ports). Runs:
//   gossip: a ring all-gather dimension by dimension: in each of the
//   DIM - 1 rounds of a dimension every node sends the block it received
//   in the round before (at first all it holds) to its + neighbour, which
//   stores it after its own; afterwards every node holds every node's
//   L-flit message (a 3-D torus: 3 rounds on 2x2x2).
//   broadcast: node 0 sends 6 flits at start offset 2 down a spanning tree
//   (X from node 0, then Y from the X line, then Z from the XY plane); every
//   other node ejects the stream and forwards it from its input in the same
//   round (eject and forward; first flit at 1 + 2 + hops).
//   forward: a flit ejected in a round's last cycle is sent on at offset 0
//   of the next round (written and read back-to-back in the flit memory).
//   errors: node 0 -> node 1: 6 flits into 4 expected at MEM_DEPTH - 2
//   (2 stored, 2 out of bounds, 2 overrun); node 1 -> node 0: a 3-flit
//   stream from MEM_DEPTH - 1 (2 flits out of bounds, not sent) into 5
//   expected (short); error bits, FLAGS, ERRMAP, STATUS, status_o, FLAGS
//   write-1-to-clear, CTRL clear.
// Also: INFO, tables read back, record epochs, net_busy_o going idle.
module tb_netlist;
`ifndef DIM_X
    `define DIM_X 2
`endif
`ifndef DIM_Y
    `define DIM_Y 1
`endif
`ifndef DIM_Z
    `define DIM_Z 1
`endif
`ifndef MEM_DEPTH
    `define MEM_DEPTH 256
`endif
`ifndef ROUNDS
    `define ROUNDS 16
`endif
`ifndef NCLK_HALF
    `define NCLK_HALF 10417
`endif
`ifndef BCLK_HALF
    `define BCLK_HALF 41667
`endif
    localparam DX    = `DIM_X;
    localparam DY    = `DIM_Y;
    localparam DZ    = `DIM_Z;
    localparam N     = DX * DY * DZ;
    localparam MD    = `MEM_DEPTH;
    localparam RN    = `ROUNDS;
    localparam RW    = $clog2(RN);
    localparam AW    = $clog2(MD);
    localparam DW    = (AW + 2 < 16) ? AW + 2 : 16;   // timestamp bits
    localparam W     = 8;       // flit width of the board builds
    localparam ALPHA = 1;       // round switch cost (checked against INFO)
    // the gossip's message length: the gathered messages fill at most half
    // the memory (the other half holds the other runs' streams)
    localparam L     = (4 * N <= MD / 2) ? 4 : (2 * N <= MD / 2) ? 2 : 1;
    localparam BA    = MD / 2;         // node 0's broadcast message (6 words)
    localparam RXA   = MD / 2 + 8;     // where the broadcast is stored (6 words)
    localparam FA    = MD / 2 + 14;    // the forward's two words
    localparam EA    = RXA;            // node 0's short stream (node 0 receives no broadcast)

    // ---- clocks, reset, bus ----
    reg nclk = 1'b0;
    always #(`NCLK_HALF) nclk = !nclk;
`ifdef ONE_CLOCK
    wire bclk = nclk;
`else
    reg bclk = 1'b0;
    always #(`BCLK_HALF) bclk = !bclk;
`endif
    reg         rst = 1'b1;
    reg  [31:0] addr = 32'd0, wdata = 32'd0;
    reg         we = 1'b0, re = 1'b0;
    wire [31:0] rdata;
    wire        ready, busy;
    wire [DZ-1:0] tbusy, pbusy;
    wire nball;
    wire [DX*DY*DZ-1:0] nbreq;
    wire [27:0] ntab;
    wire [3:0]  status;

`ifdef NETLIST
    tn_torus dut (
`else
    tn_torus #(.DIM_X(DX), .DIM_Y(DY), .DIM_Z(DZ), .W(W), .LANES(1), .MEM_DEPTH(MD),
               .ROUNDS(RN), .RELAY(0)) dut (
`endif
        .bclk_i(bclk), .tbusy_o(tbusy), .rst_i(rst), .bus_addr_i(addr), .bus_wdata_i(wdata),
        .bus_we_i(we), .bus_re_i(re), .bus_rdata_o(rdata), .bus_ready_o(ready),
        .nclk_i(nclk), .net_busy_o(busy), .pbusy_o(pbusy),
        .nball_o(nball), .nbreq_o(nbreq), .ntab_o(ntab), .status_o(status));

    integer tap_n = 0, tap_fail = 0;
    task check(input cond, input [8*80-1:0] what);
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
    task check_eq(input [63:0] got, input [63:0] want, input [8*80-1:0] what);
        begin
            check(got === want, what);
            if (got !== want)
                $display("#   got %0d (0x%0h), want %0d (0x%0h)", got, got, want, want);
        end
    endtask

    // One bus transaction (docs/hardware.md, bus clock): the request is
    // presented after a falling edge and held; ready is sampled mid-cycle,
    // the request completes at the following rising edge and is dropped
    // after it.
    integer guard;
    reg [31:0] rd;
    reg        bus_hung = 1'b0;
    task bus(input wr, input [31:0] a, input [31:0] d);
        begin
            @(negedge bclk);
            addr = a; wdata = d; we = wr; re = !wr;
            guard = 0;
            #1;
            while (ready !== 1'b1 && guard < 200) begin
                @(negedge bclk);
                #1;
                guard = guard + 1;
            end
            if (guard >= 200)
                bus_hung = 1'b1;
            rd = rdata;
            @(negedge bclk);
            we = 1'b0; re = 1'b0;
        end
    endtask
    task bus_write(input [31:0] a, input [31:0] d);
        bus(1'b1, a, d);
    endtask
    task bus_read(input [31:0] a);
        bus(1'b0, a, 32'd0);
    endtask

    // ---- the address map (docs/hardware.md; lane 0 only) ----
    localparam [31:0] G = 32'hFFF00000;
    function [31:0] na(input integer node, input integer rg, input integer off);
        na = (node << 20) | (rg << 16) | off;
    endfunction
    task cfg(input integer node, input integer rnd, input [23:0] sel);  // sel[4o+:4]: output o
        bus_write(na(node, 1, rnd), {8'd0, sel});
    endtask
    task inj(input integer node, input integer idx, input valid, input integer rnd,
             input integer s, input integer n, input integer a);
        begin   // word 0 immediately before word 1
            bus_write(na(node, 2, idx << 1), {valid, 1'b0, rnd[13:0], s[15:0]});
            bus_write(na(node, 2, (idx << 1) | 1), {n[15:0], a[15:0]});
        end
    endtask
    task ej(input integer node, input integer rnd, input valid, input integer port,
            input integer n, input integer a);
        begin
            bus_write(na(node, 3, rnd << 1), {valid, 28'd0, port[2:0]});
            bus_write(na(node, 3, (rnd << 1) | 1), {n[15:0], a[15:0]});
        end
    endtask
    task dur(input integer rnd, input integer d);
        bus_write(G | 32'h8000 | rnd, d);
    endtask

    // ---- the bench's own model: messages, memories, CRC ----
    reg [7:0] mm [0:N*MD-1];          // every node's flit memory (data bytes)
    function [7:0] msg(input integer node, input integer k);   // message byte k of node
        msg = 8'h3C + 8'd17 * k[7:0] + 8'd101 * node[7:0];
    endfunction
    function [7:0] bmsg(input integer k);                       // the broadcast's
        bmsg = 8'h11 * k[7:0] + 8'h07;
    endfunction
    // CRC-32/IEEE, one byte per flit (W = 8), reflected, init/xorout ~0
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
    // the CRC of model words a .. a+n-1 of a node
    function [31:0] crc_mem(input integer node, input integer a, input integer n);
        integer i;
        reg [31:0] c;
        begin
            c = 32'hFFFFFFFF;
            for (i = 0; i < n; i = i + 1)
                c = crc_step(c, mm[node * MD + a + i]);
            crc_mem = ~c;
        end
    endfunction

    // coordinates and neighbours (node id = x + X*(y + Y*z))
    function integer cx(input integer n); cx = n % DX; endfunction
    function integer cy(input integer n); cy = (n / DX) % DY; endfunction
    function integer cz(input integer n); cz = n / (DX * DY); endfunction
    function integer nid(input integer x, input integer y, input integer z);
        nid = ((x + DX) % DX) + DX * (((y + DY) % DY) + DY * ((z + DZ) % DZ));
    endfunction
    function integer dsize(input integer d);
        dsize = (d == 0) ? DX : (d == 1) ? DY : DZ;
    endfunction
    // the - neighbour in dimension d (the sender of + traffic)
    function integer minus(input integer n, input integer d);
        minus = nid(cx(n) - (d == 0), cy(n) - (d == 1), cz(n) - (d == 2));
    endfunction

    // ---- expected records ----
    reg [15:0] x_cnt   [0:N*RN-1];
    reg [31:0] x_crc   [0:N*RN-1];
    reg [15:0] x_first [0:N*RN-1];    // round-relative
    reg [2:0]  x_err   [0:N*RN-1];
    reg        x_on    [0:N*RN-1];
    integer    runs = 0;
    reg [47:0] t0, tend;
    integer    nr, sumd, i, k, n, d, t, b, r, f, h, a, s;

    task expect_clear;
        for (i = 0; i < N * RN; i = i + 1)
            x_on[i] = 1'b0;
    endtask
    task expect_rec(input integer node, input integer rnd, input integer first,
                    input integer cnt, input [31:0] crc, input [2:0] err);
        begin
            x_on[node * RN + rnd]    = 1'b1;
            x_first[node * RN + rnd] = first;
            x_cnt[node * RN + rnd]   = cnt;
            x_crc[node * RN + rnd]   = crc;
            x_err[node * RN + rnd]   = err;
        end
    endtask

    // Start a run of nrounds rounds (durations summing to sumd), wait for
    // it, check STATUS, status_o and END - START, then every expected
    // record (first and last flit, count, CRC, error bits, epoch).
    task run(input [8*12-1:0] name, input integer nrounds, input integer total, input err);
        reg [31:0] w0, w1, w2;
        reg [47:0] first;
        begin
            bus_write(G | 32'h011, nrounds);    // NROUNDS
            bus_write(G | 32'h010, 4);          // clear node status and errors
            bus_write(G | 32'h010, 1);          // start
            runs = runs + 1;
            f = 0;
            rd = 0;
            while (f < 300 && rd[1] !== 1'b1) begin
                bus_read(G | 32'h012);
                f = f + 1;
            end
            check(rd[1] === 1'b1 && rd[2] === err && rd[3] === 1'b0 && rd[0] === 1'b0,
                  {name, ": STATUS done, error bit as expected, not aborted"});
            check_eq(status, rd[3:0], {name, ": status_o (the LEDs) equals STATUS"});
            bus_read(G | 32'h016); t0[31:0] = rd;
            bus_read(G | 32'h017); t0[47:32] = rd[15:0];
            bus_read(G | 32'h018); tend[31:0] = rd;
            bus_read(G | 32'h019); tend[47:32] = rd[15:0];
            check_eq(tend - t0, total, {name, ": END_CYCLE - START_CYCLE = sum of D_r"});
            bus_read(G | 32'h01A);
            check_eq(rd, runs, {name, ": RUNS counts the starts"});
            $display("# rec %0s start %0d end %0d", name, t0, tend);
            f = 0;
            for (n = 0; n < N; n = n + 1)
                for (r = 0; r < nrounds; r = r + 1)
                    if (x_on[n * RN + r]) begin
                        bus_read(na(n, 4, 3 * r));     w0 = rd;   // word w of round r at 3 r + w
                        bus_read(na(n, 4, 3 * r + 1)); w1 = rd;
                        bus_read(na(n, 4, 3 * r + 2)); w2 = rd;
                        first = x_first[n * RN + r];
                        if (w0 !== {runs[3:0], 9'd0, x_err[n * RN + r], x_cnt[n * RN + r]} ||
                            w1[15:0] !== first[15:0] ||
                            w1[31:16] !== first[15:0] + x_cnt[n * RN + r] - 16'd1 ||
                            w2 !== x_crc[n * RN + r]) begin
                            f = f + 1;
                            $display("#   node %0d round %0d: got epoch %0d err %b count %0d first %0d last %0d crc %08x",
                                     n, r, w0[31:28], w0[18:16], w0[15:0], w1[15:0], w1[31:16], w2);
                            $display("#   %0s want epoch %0d err %b count %0d first %0d last %0d crc %08x",
                                     "          ", runs[3:0], x_err[n * RN + r], x_cnt[n * RN + r],
                                     first[15:0], first[15:0] + x_cnt[n * RN + r] - 16'd1,
                                     x_crc[n * RN + r]);
                        end
                        $display("# rec %0s node %0d round %0d %08x %08x %08x", name, n, r, w0, w1, w2);
                    end
            check_eq(f, 0, {name, ": every record: epoch, first = 1 + s + d, last = first + n - 1, count, CRC, errors"});
        end
    endtask

    // the device's words a .. a+n-1 of a node against the model
    task check_mem(input integer node, input integer a0, input integer n0);
        for (i = 0; i < n0; i = i + 1) begin
            bus_read(na(node, 0, a0 + i));
            if (rd !== {24'd0, mm[node * MD + a0 + i]}) begin
                if (f < 8)
                    $display("#   node %0d word %0d: got 0x%0h, want 0x%0h", node, a0 + i, rd,
                             mm[node * MD + a0 + i]);
                f = f + 1;
            end
        end
    endtask
    task write_mem(input integer node, input integer a0, input [7:0] v);
        begin
            bus_write(na(node, 0, a0), {24'd0, v});
            mm[node * MD + a0] = v;
        end
    endtask

    reg [23:0] sel;
    integer    blk, ports;
    initial begin
        for (i = 0; i < N * MD; i = i + 1)
            mm[i] = 8'd0;
        repeat (4) @(posedge bclk);
        rst = 1'b0;
        repeat (2) @(posedge bclk);

        // ---- INFO ----
        bus_read(G | 32'h000);
        check_eq(rd, 32'h00040000, "INFO VERSION");
        bus_read(G | 32'h001);
        check_eq(rd, DX | (DY << 8) | (DZ << 16), "INFO DIMS");
        bus_read(G | 32'h002);
        check_eq(rd, W, "INFO W");
        bus_read(G | 32'h003);
        check_eq(rd, 1, "INFO LANES");
        bus_read(G | 32'h004);
        check_eq(rd, MD, "INFO MEM_DEPTH");
        bus_read(G | 32'h005);
        check_eq(rd, RN, "INFO ROUNDS");
        bus_read(G | 32'h006);
        check_eq(rd, ALPHA, "INFO ALPHA is the alpha of the model");
        bus_read(G | 32'h007);
        check_eq(rd, DW << 8, "INFO PARAMS: one bank, DW, no relay");

        // ---- gossip ----
        // memory: each node's message at 0..L-1, the rest of the area 0
        for (n = 0; n < N; n = n + 1)
            for (k = 0; k < N * L; k = k + 1)
                write_mem(n, k, (k < L) ? msg(n, k) : 8'd0);
        expect_clear;
        r = 0;
        blk = L;                      // flits per block
        sumd = 0;
        for (d = 0; d < 3; d = d + 1) begin
            for (t = 1; t < dsize(d); t = t + 1) begin
                // round r: send block t-1 (words (t-1)*blk ..) on output 2d;
                // eject input 2d to block t
                for (n = 0; n < N; n = n + 1) begin
                    cfg(n, r, 24'd1 << (8 * d));
                    inj(n, r, 1'b1, r, 0, blk, (t - 1) * blk);
                    ej(n, r, 1'b1, 2 * d, blk, t * blk);
                    expect_rec(n, r, ALPHA + 0 + 1, blk, crc_mem(minus(n, d), (t - 1) * blk, blk), 3'd0);
                end
                // the model after the round (read and written blocks are disjoint)
                for (n = 0; n < N; n = n + 1)
                    for (k = 0; k < blk; k = k + 1)
                        mm[n * MD + t * blk + k] = mm[minus(n, d) * MD + (t - 1) * blk + k];
                dur(r, ALPHA + 0 + 1 + blk);
                sumd = sumd + ALPHA + 0 + 1 + blk;
                r = r + 1;
            end
            blk = blk * dsize(d);
        end
        nr = r;
        for (n = 0; n < N; n = n + 1)
            inj(n, nr, 1'b0, 0, 0, 0, 0);   // the end of the list
        // tables read back through the bus (node N-1; crossing reads)
        bus_read(na(N - 1, 1, 0));
        check_eq(rd, 32'd1, "CFG read back");
        bus_read(na(N - 1, 2, 0));
        check_eq(rd, 32'h80000000, "INJ entry 0 word 0 read back");
        bus_read(na(N - 1, 2, 1));
        check_eq(rd, L << 16, "INJ entry 0 word 1 read back");
        bus_read(na(N - 1, 3, 1));
        check_eq(rd, (L << 16) | L, "EJ round 0 word 1 read back");
        bus_read(G | 32'h8000);
        check_eq(rd, ALPHA + 1 + L, "DURATION[0] read back");
        // the closed form: slot j = tx + X*(ty + Y*tz) of node n holds the
        // message of node (x - tx, y - ty, z - tz)
        f = 0;
        for (n = 0; n < N; n = n + 1)
            for (k = 0; k < N * L; k = k + 1)
                if (mm[n * MD + k] !== msg(nid(cx(n) - cx(k / L), cy(n) - cy(k / L), cz(n) - cz(k / L)), k % L))
                    f = f + 1;
        check_eq(f, 0, "gossip: the bench's model holds every message in every node");
        run("gossip", nr, sumd, 1'b0);
        f = 0;
        for (n = 0; n < N; n = n + 1)
            check_mem(n, 0, N * L);
        check_eq(f, 0, "gossip: every message stored in every memory");
        // INFO again, after record reads (the answers of the two kinds of
        // bus-clock reads must not mix)
        bus_read(G | 32'h001);
        check_eq(rd, DX | (DY << 8) | (DZ << 16), "INFO DIMS after record reads");
        bus_read(G | 32'h004);
        check_eq(rd, MD, "INFO MEM_DEPTH after record reads");

        // ---- broadcast from node 0 down the X, Y, Z tree ----
        for (k = 0; k < 6; k = k + 1)
            write_mem(0, BA + k, bmsg(k));
        expect_clear;
        h = 0;
        for (n = 0; n < N; n = n + 1) begin
            // the arrival input (the node's first nonzero coordinate from
            // the top: Z, else Y, else X; + travel from coordinate 1, -
            // travel from coordinate 2) and the hops from node 0
            a = (cz(n) != 0) ? 4 + (cz(n) == 2) : (cy(n) != 0) ? 2 + (cy(n) == 2) : 0 + (cx(n) == 2);
            s = (n == 0) ? 1 : 8 + a;          // the source of the tree outputs
            sel = 24'd0;
            for (d = 0; d < 3; d = d + 1) begin
                // dimension d is sent on by nodes whose coordinates of d and
                // above are 0 (d = 0: node 0 only)
                ports = (d == 0) ? (n == 0) : (d == 1) ? (cy(n) == 0 && cz(n) == 0) : (cz(n) == 0);
                if (ports && dsize(d) > 1)
                    sel = sel | (s << (8 * d));             // + output
                if (ports && dsize(d) > 2)
                    sel = sel | (s << (8 * d + 4));         // - output
            end
            cfg(n, 0, sel);
            inj(n, 0, n == 0, 0, 2, 6, BA);
            inj(n, 1, 1'b0, 0, 0, 0, 0);
            ej(n, 0, n != 0, a, 6, RXA);
            t = (cx(n) != 0) + (cy(n) != 0) + (cz(n) != 0);
            if (t > h)
                h = t;
            if (n != 0) begin
                expect_rec(n, 0, ALPHA + 2 + t, 6, crc_mem(0, BA, 6), 3'd0);
                for (k = 0; k < 6; k = k + 1)
                    mm[n * MD + RXA + k] = bmsg(k);
            end
        end
        dur(0, ALPHA + 2 + h + 6);
        run("broadcast", 1, ALPHA + 2 + h + 6, 1'b0);
        f = 0;
        for (n = 1; n < N; n = n + 1)
            check_mem(n, RXA, 6);
        check_eq(f, 0, "broadcast: message stored in every other memory");
        f = 0;
        for (n = 0; n < N; n = n + 1) begin
            bus_read(na(n, 5, 0));
            if (rd !== 0)
                f = f + 1;
        end
        check_eq(f, 0, "gossip and broadcast: no node status flag set");
        if (nr > 1) begin
            // round 1 did not run: its record is the gossip's (epoch 1)
            bus_read(na(N - 1, 4, 3));
            check_eq(rd[31:28], runs - 1, "a record of a round the last run did not have keeps its epoch");
        end

        // ---- forward: received in round 0's last cycle, sent at offset 0
        // of round 1 (node 0 -> node 1 -> its X+ neighbour) ----
        write_mem(0, FA, 8'h5D);
        t = nid(2, 0, 0);             // node 1's X+ neighbour
        expect_clear;
        for (n = 0; n < N; n = n + 1) begin
            cfg(n, 0, (n == 0) ? 24'h1 : 24'h0);
            cfg(n, 1, (n == 1) ? 24'h1 : 24'h0);
            inj(n, 0, n == 0 || n == 1, (n == 1) ? 1 : 0, 0, 1, FA);
            inj(n, 1, 1'b0, 0, 0, 0, 0);
            ej(n, 0, n == 1, 0, 1, FA);
            ej(n, 1, n == t, 0, 1, FA + 1);
        end
        expect_rec(1, 0, ALPHA + 1, 1, crc_mem(0, FA, 1), 3'd0);
        mm[1 * MD + FA] = mm[FA];
        expect_rec(t, 1, ALPHA + 1, 1, crc_mem(1, FA, 1), 3'd0);
        mm[t * MD + FA + 1] = mm[FA];
        dur(0, ALPHA + 0 + 1 + 1);    // the flit arrives in the round's last cycle
        dur(1, ALPHA + 0 + 1 + 1);
        run("forward", 2, 2 * (ALPHA + 2), 1'b0);
        f = 0;
        check_mem(t, FA + 1, 1);
        check_eq(f, 0, "forward: the flit stored by the second hop");

        // ---- errors: overrun, eject and inject bounds, short stream ----
        write_mem(1, MD - 1, 8'hB7);
        expect_clear;
        for (n = 0; n < N; n = n + 1) begin
            cfg(n, 0, (n == 0) ? 24'h000001 : (n == 1) ? 24'h000010 : 24'h0);
            inj(n, 0, n < 2, 0, 0, (n == 0) ? 6 : 3, (n == 0) ? BA : MD - 1);
            inj(n, 1, 1'b0, 0, 0, 0, 0);
            ej(n, 0, n < 2, (n == 0) ? 1 : 0, (n == 0) ? 5 : 4, (n == 0) ? EA : MD - 2);
        end
        expect_rec(1, 0, ALPHA + 1, 6, crc_mem(0, BA, 6), 3'b101);    // overrun and bounds
        expect_rec(0, 0, ALPHA + 1, 1, crc_mem(1, MD - 1, 1), 3'b010); // short
        mm[MD + MD - 2] = mm[BA];
        mm[MD + MD - 1] = mm[BA + 1];
        mm[EA] = 8'hB7;               // node 1's word MD-1 as it was sent
        dur(0, ALPHA + 0 + 1 + 6);
        run("errors", 1, ALPHA + 0 + 1 + 6, 1'b1);
        f = 0;
        check_mem(1, MD - 2, 2);
        check_mem(0, EA, 1);
        check_eq(f, 0, "errors: the in-bounds flits stored, the short stream's one flit too");
        bus_read(na(1, 5, 0));
        check_eq(rd, 32'h0D, "node 1 FLAGS: overrun, eject bounds, inject bounds");
        bus_read(na(0, 5, 0));
        check_eq(rd, 32'h02, "node 0 FLAGS: short stream");
        bus_read(G | 32'h800);
        check_eq(rd, 3, "ERRMAP: nodes 0 and 1");
        bus_write(na(1, 5, 0), 32'h1);
        bus_read(na(1, 5, 0));
        check_eq(rd, 32'h0C, "node 1 FLAGS: writing bit 0 clears overrun only");
        bus_write(G | 32'h010, 4);
        bus_read(na(1, 5, 0)); f = rd;
        bus_read(na(0, 5, 0)); f = f | rd;
        bus_read(G | 32'h800); f = f | rd;
        bus_read(G | 32'h012);
        check(f == 0 && rd[2] === 1'b0 && status[2] === 1'b0, "CTRL clear: FLAGS, ERRMAP, STATUS error bit and status_o clear");

        // ---- idle ----
        repeat (64) @(posedge nclk);
        check_eq(busy, 1'b0, "net_busy_o low when idle");
        check(!bus_hung, "every bus request completed");
        $display("1..%0d", tap_n);
        $finish;
    end

    initial begin
        #(64'd40000000000);
        $display("not ok - timeout");
        $display("1..%0d", tap_n + 1);
        $finish;
    end
endmodule
