`default_nettype none
// SPDX-License-Identifier: MIT
// tb_netlist: drives tn_torus through its configuration bus (docs/hardware.md)
// and checks the eject statistics against the timing model (docs/timing.md)
// and a CRC-32 computed here, bit by bit, independently of rtl/ni/tn_crc32.v.
// The same bench runs on the RTL and on the yosys synth_ice40 netlist
// (-DNETLIST, with the iCE40 cell models), so both must give the same
// timestamps, counts and CRCs. Prints TAP lines.
//
// The torus is a board's: 2x1x1, 3x1x1 or 2x2x1, W 8, LANES 1, with
// the board reductions (RELAY 0, MEM_BRAM 1, CW, TW, GATHER 0, REC_BRAM, INREG 0;
// docs/hardware.md). Two runs:
//   gossip (NROUNDS = 1 or 2): round 0 every node sends its 4-flit message
//   to its X+ neighbour; round 1 (3x1x1) every node passes the message it
//   received on over X+, or (2x2x1) sends the 8 words it now holds to its
//   Y neighbour over Y+. Afterwards every node holds every message (the
//   single-port ring gossip of the host).
//   broadcast (NROUNDS = 1): node 0 sends 6 flits at start offset 2 over X-
//   (3x1x1: and X+; 2x2x1: and Y-); node 1 ejects and, for 2x2x1, forwards
//   over Y- to node 3 (2 hops); node 2 ejects.
//   errors (NROUNDS = 1): an overrun with eject bounds errors and a short
//   stream between nodes 0 and 1: error bits, status flags and counters,
//   ERRMAP, status writes.
module tb_netlist;
`ifndef DIM_X
    `define DIM_X 2
`endif
`ifndef DIM_Y
    `define DIM_Y 1
`endif
`ifndef MEM_DEPTH
    `define MEM_DEPTH 256
`endif
`ifndef ROUNDS
    `define ROUNDS 2
`endif
`ifndef REC_BRAM
    `define REC_BRAM 0
`endif
`ifndef CW
    `define CW 16
`endif
`ifndef TW
    `define TW 31
`endif
    localparam DX    = `DIM_X;  // 2 or 3
    localparam DY    = `DIM_Y;  // 1 or 2 (with DX = 2)
    localparam N     = DX * DY;
    localparam W     = 8;       // flit width of the board builds
    localparam ALPHA = 1;       // round switch cost (checked against INFO)

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
    tn_torus #(.DIM_X(DX), .DIM_Y(DY), .DIM_Z(1), .W(W), .LANES(1), .MEM_DEPTH(`MEM_DEPTH),
               .ROUNDS(`ROUNDS), .RELAY(0), .MEM_BRAM(1), .CW(`CW), .TW(`TW), .GATHER(0),
               .REC_BRAM(`REC_BRAM), .INREG(0), .STAT_PIPE(1), .EPIPE(1)) dut (
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

    // The messages: byte k of message m at [8k+:8]; 0..3 the nodes', 4 the broadcast.
    reg [8*16-1:0] msg [0:4];
    reg [8*16-1:0] yin;               // what a node receives in the Y round
    integer k, n, f, xn, yn;
    reg [47:0] t0, tend;
    reg [31:0] dur0, dur1, n_rec;

    // Program every field of round rnd of a node that LANES = 1 has.
    // osel: output o's select at [4o+:4].
    task round_cfg(input integer node, input integer rnd, input [23:0] osel,
                   input [3:0] esel, input [31:0] idesc, input [31:0] iaddr, input [31:0] ilen,
                   input [31:0] edesc, input [31:0] eaddr, input [31:0] elen);
        integer o;
        begin
            for (o = 0; o < 6; o = o + 1)
                bus_write(na(node, 2, rnd*64 + o), osel[4*o +: 4]);
            bus_write(na(node, 2, rnd*64 + 6), 0);
            bus_write(na(node, 2, rnd*64 + 8), esel);
            bus_write(na(node, 2, rnd*64 + 16), idesc);
            bus_write(na(node, 2, rnd*64 + 17), iaddr);
            bus_write(na(node, 2, rnd*64 + 18), ilen);
            bus_write(na(node, 2, rnd*64 + 40), edesc);
            bus_write(na(node, 2, rnd*64 + 41), eaddr);
            bus_write(na(node, 2, rnd*64 + 42), elen);
        end
    endtask

    // Read one eject record and check it against the model (err: the
    // record's error field, 0 for a clean stream).
    task check_rec(input integer node, input integer rnd, input [47:0] first,
                   input integer cnt, input [31:0] crc, input [8*24-1:0] name);
        check_rec_e(node, rnd, first, cnt, crc, 0, name);
    endtask
    task check_rec_e(input integer node, input integer rnd, input [47:0] first,
                     input integer cnt, input [31:0] crc, input [2:0] err, input [8*24-1:0] name);
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
            check_eq(rd, err, {name, ": eject error bits (overrun 1, short 2, bounds 4)"});
            bus_read(na(node, 3, rnd*64 + 4)); n_rec = rd;
            bus_read(na(node, 3, rnd*64 + 5));
            // raw record relative to START_CYCLE: the wrapper compares RTL and netlist
            $display("# rec node %0d round %0d first %0d last %0d count %0d crc %08x",
                     node, rnd, got_first - t0, got_last - t0, n_rec, rd);
        end
    endtask

    // Start a run of nr rounds and wait for it; t0 and tend its start and end.
    task run(input integer nr);
        run_e(nr, 1'b0);
    endtask
    task run_e(input integer nr, input err);   // err: STATUS error bit expected
        begin
            bus_write(G | 32'h011, nr);         // NROUNDS
            bus_write(G | 32'h010, 4);          // clear statistics and errors
            bus_write(G | 32'h010, 1);          // start
            f = 0;
            rd = 0;
            while (f < 200 && rd[1] !== 1'b1) begin
                bus_read(G | 32'h012);
                f = f + 1;
            end
            check(rd[1] === 1'b1 && rd[2] === err && rd[3] === 1'b0, "STATUS: done, error bit as expected, not aborted");
            bus_read(G | 32'h016); t0[31:0] = rd;
            bus_read(G | 32'h017); t0[47:32] = rd[15:0];
            bus_read(G | 32'h018); tend[31:0] = rd;
            bus_read(G | 32'h019); tend[47:32] = rd[15:0];
        end
    endtask

    // node ids: x + DX*y; X- neighbour (the sender of X+ traffic), Y neighbour
    function integer xnb(input integer node);
        xnb = (node % DX + DX - 1) % DX + DX * (node / DX);
    endfunction
    function integer ynb(input integer node);
        ynb = (DY == 2) ? node ^ 2 : node;
    endfunction

    initial begin
        for (k = 0; k < 16; k = k + 1) begin
            msg[0][8*k +: 8] = 8'h3C + 8'd17 * k[7:0];
            msg[1][8*k +: 8] = 8'hA5 ^ (8'd29 * k[7:0]);
            msg[2][8*k +: 8] = 8'h5A + 8'd41 * k[7:0];
            msg[3][8*k +: 8] = 8'hC3 ^ (8'd13 * k[7:0]);
            msg[4][8*k +: 8] = 8'h11 * k[7:0] + 8'h07;
        end
        repeat (4) @(posedge clk);
        rst = 1'b0;
        repeat (2) @(posedge clk);

        bus_read(G | 32'h001);
        check_eq(rd, DX | (DY << 8) | (1 << 16), "INFO DIMS");
        bus_read(G | 32'h002);
        check_eq(rd, W, "INFO W");
        bus_read(G | 32'h006);
        check_eq(rd, ALPHA, "INFO ALPHA is the alpha of the model");
        bus_read(G | 32'h007);
        check_eq(rd[5:0], 6'b111111, "INFO LIMITS: no relay, BRAM mem/records, no gather, STAT_PIPE, EPIPE");

        // memory: node n's message at 0..3, node 0's broadcast at 16..21, flags 0
        for (n = 0; n < N; n = n + 1)
            for (k = 0; k < 32; k = k + 1) begin
                bus_write(na(n, 0, k), (k < 4) ? msg[n][8*k +: 8] :
                                       (n == 0 && k >= 16 && k < 22) ? msg[4][8*(k-16) +: 8] : 0);
                bus_write(na(n, 1, k), 0);
            end

        // ---- gossip ----
        // round 0: inject lane -> X+ (output 0 select 1); eject input 0 to 4..7
        for (n = 0; n < N; n = n + 1)
            round_cfg(n, 0, 24'h000001, 4'd8, 32'h80000000, 0, 4, 32'h80000000, 4, 4);
        // round 1 (3x1x1): words 4..7 -> X+; eject input 0 to 8..11
        if (DX == 3)
            for (n = 0; n < N; n = n + 1)
                round_cfg(n, 1, 24'h000001, 4'd8, 32'h80000000, 4, 4, 32'h80000000, 8, 4);
        // round 1 (2x2x1): words 0..7 -> Y+ (output 2 select 1); eject input 2 to 8..15
        if (DY == 2)
            for (n = 0; n < N; n = n + 1)
                round_cfg(n, 1, 24'h000100, 4'd10, 32'h80000000, 0, 8, 32'h80000000, 8, 8);
        dur0 = ALPHA + 0 + 1 + 4;   // alpha + s + d + n
        dur1 = ALPHA + 0 + 1 + ((DY == 2) ? 8 : 4);
        bus_write(G | 32'h100, dur0);
        bus_write(G | 32'h101, dur1);
        run((DY == 2 || DX == 3) ? 2 : 1);
        check_eq(tend - t0, (DY == 2 || DX == 3) ? dur0 + dur1 : dur0, "gossip: END_CYCLE - START_CYCLE = sum D_r");
        for (n = 0; n < N; n = n + 1) begin
            xn = xnb(n);
            check_rec(n, 0, t0 + ALPHA + 1, 4, crc_of(msg[xn], 4), "gossip X round");
            if (DX == 3)
                check_rec(n, 1, t0 + dur0 + ALPHA + 1, 4, crc_of(msg[xnb(xn)], 4), "gossip X round 2");
            if (DY == 2) begin
                yn = ynb(n);
                yin = {64'd0, msg[xnb(yn)][31:0], msg[yn][31:0]};
                check_rec(n, 1, t0 + dur0 + ALPHA + 1, 8, crc_of(yin, 8), "gossip Y round");
            end
        end
        // every node holds every message
        f = 0;
        for (n = 0; n < N; n = n + 1)
            for (k = 0; k < 4; k = k + 1) begin
                bus_read(na(n, 0, 4 + k)); if (rd !== msg[xnb(n)][8*k +: 8]) f = f + 1;
                if (DX == 3) begin
                    bus_read(na(n, 0, 8 + k)); if (rd !== msg[xnb(xnb(n))][8*k +: 8]) f = f + 1;
                end
                if (DY == 2) begin
                    bus_read(na(n, 0, 8 + k)); if (rd !== msg[ynb(n)][8*k +: 8]) f = f + 1;
                    bus_read(na(n, 0, 12 + k)); if (rd !== msg[xnb(ynb(n))][8*k +: 8]) f = f + 1;
                end
            end
        check_eq(f, 0, "gossip: every message stored in every memory");

        // ---- broadcast from node 0 (round 0 reprogrammed) ----
        // node 0: inject -> X- (output 1), and Y- (output 3) or X+ (output 0), offset 2
        round_cfg(0, 0, (DY == 2) ? 24'h001010 : (DX == 3) ? 24'h000011 : 24'h000010, 4'd0,
                  32'h80000002, 16, 6, 32'h0, 0, 0);
        // node 1: eject input 1 (X- travel; 3x1x1: input 0, X+ travel) to 24..29;
        // 2x2x1: forward it over Y- (select 9)
        round_cfg(1, 0, (DY == 2) ? 24'h009000 : 24'h000000, (DX == 3) ? 4'd8 : 4'd9,
                  32'h0, 0, 0, 32'h80000000, 24, 6);
        if (DX == 3)    // node 2 = X- neighbour of node 0: eject input 1
            round_cfg(2, 0, 24'h000000, 4'd9, 32'h0, 0, 0, 32'h80000000, 24, 6);
        if (DY == 2) begin
            // nodes 2 and 3: eject input 3 (Y- travel)
            round_cfg(2, 0, 24'h000000, 4'd11, 32'h0, 0, 0, 32'h80000000, 24, 6);
            round_cfg(3, 0, 24'h000000, 4'd11, 32'h0, 0, 0, 32'h80000000, 24, 6);
        end
        dur0 = ALPHA + 2 + DY + 6;  // alpha + s + longest path + n
        bus_write(G | 32'h100, dur0);
        run(1);
        check_eq(tend - t0, dur0, "broadcast: END_CYCLE - START_CYCLE = D_0");
        check_rec(1, 0, t0 + ALPHA + 2 + 1, 6, crc_of(msg[4], 6), "broadcast node 0->1");
        if (DX == 3)
            check_rec(2, 0, t0 + ALPHA + 2 + 1, 6, crc_of(msg[4], 6), "broadcast node 0->2");
        if (DY == 2) begin
            check_rec(2, 0, t0 + ALPHA + 2 + 1, 6, crc_of(msg[4], 6), "broadcast node 0->2");
            check_rec(3, 0, t0 + ALPHA + 2 + 2, 6, crc_of(msg[4], 6), "broadcast node 0->1->3");
        end
        f = 0;
        for (n = 1; n < N; n = n + 1)
            for (k = 0; k < 6; k = k + 1) begin
                bus_read(na(n, 0, 24 + k)); if (rd !== msg[4][8*k +: 8]) f = f + 1;
            end
        check_eq(f, 0, "broadcast: message stored in every other memory");
        for (n = 0; n < N; n = n + 1) begin
            bus_read(na(n, 4, 0));
            check_eq(rd, 0, "node status flags clear (no collision, drop, overrun)");
        end

        // ---- forward: a flit received in a round's last cycle leaves in
        // the next round's first (EPIPE: the eject lane writes it in the
        // very cycle the inject lane fetches it; the flit memory's bypass) ----
        // round 0: node 0 sends word 16 (1 flit) over X+, node 1 ejects it
        // (input 0) to word 48; round 1: node 1 sends word 48 over X+ at
        // offset 0, its X+ neighbour ejects it to word 49.
        xn = (1 + 1) % DX;
        for (n = 0; n < N; n = n + 1) begin
            round_cfg(n, 0, (n == 0) ? 24'h000001 : 24'h0, (n == 1) ? 4'd8 : 4'd0,
                      (n == 0) ? 32'h80000000 : 32'h0, 16, 1,
                      (n == 1) ? 32'h80000000 : 32'h0, 48, 1);
            round_cfg(n, 1, (n == 1) ? 24'h000001 : 24'h0, (n == xn) ? 4'd8 : 4'd0,
                      (n == 1) ? 32'h80000000 : 32'h0, 48, 1,
                      (n == xn) ? 32'h80000000 : 32'h0, 49, 1);
        end
        dur0 = ALPHA + 0 + 1 + 1;   // the flit arrives in the round's last cycle
        bus_write(G | 32'h100, dur0);
        bus_write(G | 32'h101, dur0);
        run(2);
        check_eq(tend - t0, 2 * dur0, "forward: END_CYCLE - START_CYCLE = D_0 + D_1");
        check_rec(1, 0, t0 + ALPHA + 1, 1, crc_of(msg[4], 1), "forward node 0->1");
        check_rec(xn, 1, t0 + dur0 + ALPHA + 1, 1, crc_of(msg[4], 1), "forward node 1->X+");
        bus_read(na(xn, 0, 49));
        check_eq(rd, msg[4][7:0], "forward: the flit stored by the second hop");
        bus_read(na(xn, 4, 0));
        check_eq(rd, 0, "forward: node status flags clear");

        // ---- errors: overrun, eject bounds, short stream ----
        // node 0 -> node 1 over X+: 6 flits; node 1 expects 4 at MEM_DEPTH - 2,
        // so flits 0-1 are stored, 2-3 are out of bounds, 4-5 overrun.
        // node 1 -> node 0 over X-: 2 flits; node 0 expects 5: short.
        round_cfg(0, 0, 24'h000001, 4'd9, 32'h80000000, 16, 6, 32'h80000000, 40, 5);
        round_cfg(1, 0, 24'h000010, 4'd8, 32'h80000000, 0, 2, 32'h80000000, `MEM_DEPTH - 2, 4);
        for (n = 2; n < N; n = n + 1)
            round_cfg(n, 0, 24'h000000, 4'd0, 32'h0, 0, 0, 32'h0, 0, 0);
        dur0 = ALPHA + 0 + 1 + 6;
        bus_write(G | 32'h100, dur0);
        run_e(1, 1'b1);
        check_eq(tend - t0, dur0, "errors: END_CYCLE - START_CYCLE = D_0");
        check_rec_e(1, 0, t0 + ALPHA + 1, 6, crc_of(msg[4], 6), 3'b101, "overrun and bounds");
        check_rec_e(0, 0, t0 + ALPHA + 1, 2, crc_of(msg[1], 2), 3'b010, "short stream");
        bus_read(na(1, 0, `MEM_DEPTH - 2));
        check_eq(rd, msg[4][7:0], "bounds: flit 0 stored at MEM_DEPTH - 2");
        bus_read(na(1, 0, `MEM_DEPTH - 1));
        check_eq(rd, msg[4][15:8], "bounds: flit 1 stored at MEM_DEPTH - 1");
        bus_read(na(1, 4, 0));
        check_eq(rd, 5, "node 1 flags: overrun and eject bounds");
        bus_read(na(1, 4, 1));
        check_eq(rd, 2, "node 1 counts 2 overrun flits");
        bus_read(na(1, 4, 3));
        check_eq(rd, 2, "node 1 counts 2 bounds errors");
        bus_read(na(0, 4, 0));
        check_eq(rd, 2, "node 0 flags: short stream");
        bus_read(na(0, 4, 2));
        check_eq(rd, 1, "node 0 counts 1 short stream");
        bus_read(G | 32'h800);
        check_eq(rd, 3, "ERRMAP: nodes 0 and 1");
        // status writes: 1s clear flags, a write clears a counter
        bus_write(na(1, 4, 0), 32'h1);
        bus_read(na(1, 4, 0));
        check_eq(rd, 4, "node 1 flags: writing bit 0 clears overrun only");
        bus_write(na(1, 4, 1), 0);
        bus_read(na(1, 4, 1));
        check_eq(rd, 0, "node 1 overrun counter cleared by a write");
        bus_read(na(1, 4, 3));
        check_eq(rd, 2, "node 1 bounds counter untouched");
        $display("1..%0d", tap_n);
        $finish;
    end

    initial begin
        #20000000;
        $display("not ok - timeout");
        $finish;
    end
endmodule
