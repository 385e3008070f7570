`default_nettype none
// SPDX-License-Identifier: MIT
// tb_torus: the whole torus (rtl/net/tn_torus.v) in Icarus, a 4-state
// simulator: after the documented reset (rst_i for a few bus cycles) every
// control register must be known, so that the bus answers requests that
// cross into the network domain and a run works as in Verilator. Small
// build, bus and network on one clock. One stream from node 0 to its X+
// neighbour: its record (count, round-relative first and last, CRC) and the
// stored words. Prints TAP lines; tests/rtl/tn_tb_run.sh numbers them.
// Parameters: DIM_X, W, LANES, MEM_DEPTH, ROUNDS, RELAY.
module tb_torus;
    parameter DIM_X     = 2;
    parameter W         = 8;
    parameter LANES     = 1;
    parameter MEM_DEPTH = 16;
    parameter ROUNDS    = 2;
    parameter RELAY     = 0;
    localparam RW = $clog2(ROUNDS);

    reg clk = 0, rst = 1, we = 0, re = 0;
    reg [31:0] addr = 0, wdata = 0;
    wire [31:0] rdata;
    wire ready, busy, tbusy, pbusy;
    wire nball;
    wire [DIM_X-1:0] nbreq;
    wire [27:0] ntab;
    wire [3:0] status;
    always #5 clk = !clk;

    tn_torus #(.DIM_X(DIM_X), .DIM_Y(1), .DIM_Z(1), .W(W), .LANES(LANES), .MEM_DEPTH(MEM_DEPTH),
               .ROUNDS(ROUNDS), .RELAY(RELAY)) dut (
        .bclk_i(clk), .tbusy_o(tbusy), .rst_i(rst), .bus_addr_i(addr), .bus_wdata_i(wdata),
        .bus_we_i(we), .bus_re_i(re), .bus_rdata_o(rdata), .bus_ready_o(ready),
        .nclk_i(clk), .net_busy_o(busy), .pbusy_o(pbusy),
        .nball_o(nball), .nbreq_o(nbreq), .ntab_o(ntab), .status_o(status));

    integer hung = 0;
    `include "tb_tap.vh"
    `include "tb_crc.vh"

    // one request, held until bus_ready_o is 1 before an edge (at most 100 cycles)
    task req(input w, input [31:0] a, input [31:0] d, output [31:0] q);
        integer n;
        begin
            @(negedge clk);
            addr = a; wdata = d; we = w; re = !w;
            #1 n = 0;                    // (bus_ready_o settles)
            while (ready !== 1'b1 && n < 100) begin
                @(negedge clk);
                n = n + 1;
            end
            if (n == 100) hung = hung + 1;
            q = rdata;
            @(posedge clk);
            #1 we = 0; re = 0;
        end
    endtask
    reg [31:0] q;
    task wr(input [31:0] a, input [31:0] d);
        req(1, a, d, q);
    endtask


    integer k;
    reg [31:0] c, st, w0, w1, w2;
    initial begin
        $display("# tb_torus DIM_X=%0d W=%0d LANES=%0d MEM_DEPTH=%0d ROUNDS=%0d RELAY=%0d", DIM_X, W, LANES,
                 MEM_DEPTH, ROUNDS, RELAY);
        repeat (4) @(posedge clk);
        #1 rst = 0;
        repeat (20) @(posedge clk);
        req(0, 32'hFFF00000, 0, q);
        ok(q === 32'h00040000, "VERSION reads 0x00040000 (answered in the bus domain)");
        req(0, 32'hFFF00012, 0, q);
        ok(hung == 0 && q === 32'd0, "STATUS (a read that crosses into the network domain) reads 0 after reset");
        wr(32'h00000003, 32'h5A);
        req(0, 32'h00000003, 0, q);
        ok(hung == 0 && q === 32'h5A, "a flit memory word written and read back through the crossing");
        // one stream: node 0 lane 0, round 0, s = 1, 3 words from 4; node 1 ejects them at 8
        for (k = 0; k < 3; k = k + 1)
            wr(32'h00000004 + k, 8'h31 + 16 * k);
        wr(32'h00010000, 32'h1);                                    // CFG round 0: output 0 = lane 0
        wr(32'h00020000, 32'h80000001);                             // INJ lane 0 entry 0: round 0, s 1
        wr(32'h00020001, 32'h00030004);                             //   3 words from 4
        wr(32'h00020002, 0);                                        // entry 1: the end
        wr(32'h00020003, 0);
        wr(32'h00130000, 32'h80000000);                             // node 1 EJ lane 0 round 0: port 0
        wr(32'h00130001, 32'h00030008);                             //   3 flits at 8
        wr(32'hFFF08000, 7);                                        // D_0 = 7
        wr(32'hFFF00011, 1);
        wr(32'hFFF00010, 1);
        repeat (30) @(posedge clk);
        req(0, 32'hFFF00012, 0, st);
        ok(hung == 0 && st === 32'h2, "the run is done without error");
        req(0, 32'h00140000, 0, w0);
        req(0, 32'h00140001, 0, w1);
        req(0, 32'h00140002, 0, w2);
        c = 32'hFFFFFFFF;
        for (k = 0; k < 3; k = k + 1)
            c = crc_step(c, 8'h31 + 16 * k);
        ok(w0 === 32'h10000003 && w1 === {16'd5, 16'd3} && w2 === ~c,
           "the record: epoch 1, 3 flits, first 3 and last 5 (1 + s + 1 hop), CRC-32");
        req(0, 32'h00100009, 0, q);
        ok(q === 8'h31 + 16 * 1, "the stream's words stored at the descriptor's address");
        ok(hung == 0, "every request answered");
        $display("# done tb_torus, %0d failed", nfail);
        $finish;
    end
endmodule
