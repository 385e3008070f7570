`default_nettype none
// SPDX-License-Identifier: MIT
// Icarus speed reference: the same traffic as tn_bench_speed.c on a small
// torus (every output streams from inject lane o mod LANES, every input
// lane ejects), 16 rounds, CYCLES network cycles after the start. One
// clock drives the bus and the network (a board's free-running clocks).
module tn_bench_tb;
    parameter DX = 3, DY = 3, DZ = 3, CYCLES = 2000;
    localparam LANES = 6, RW = 10, LEN = 255, R = 16;
    reg clk = 0, rst = 1, we = 0, re = 0;
    reg [31:0] addr = 0, wdata = 0;
    wire [31:0] rdata;
    wire ready, busy;
    wire [3:0] status;
    integer r, o, l, k;

    tn_torus #(.DIM_X(DX), .DIM_Y(DY), .DIM_Z(DZ), .LANES(LANES)) dut (
        .bclk_i(clk), .rst_i(rst), .bus_addr_i(addr), .bus_wdata_i(wdata),
        .bus_we_i(we), .bus_re_i(re), .bus_rdata_o(rdata), .bus_ready_o(ready),
        .nclk_i(clk), .net_busy_o(busy), .status_o(status));

    always #5 clk = ~clk;

    // one bus write, held until ready
    task wr(input [31:0] a, input [31:0] d);
        begin
            @(negedge clk);
            addr = a; wdata = d; we = 1;
            #1;                          // (bus_ready_o settles)
            while (ready !== 1'b1) @(negedge clk);
            @(posedge clk);
            #1 we = 0;
        end
    endtask
    function [31:0] bc(input [3:0] region, input [15:0] off);  // every node
        bc = {12'hFFE, region, off};
    endfunction

    initial begin
        repeat (4) @(posedge clk);
        #1 rst = 0;
        repeat (16) @(posedge clk);
        for (k = 0; k < 6 * LEN; k = k + 1)
            wr(bc(0, k), (k * 7) & 16'hFFFF);
        for (r = 0; r < R; r = r + 1) begin
            wr(bc(1, r), (1 + 0 % LANES) | (1 + 1 % LANES) << 4 | (1 + 2 % LANES) << 8 |
                         (1 + 3 % LANES) << 12 | (1 + 4 % LANES) << 16 | (1 + 5 % LANES) << 20);
            for (l = 0; l < LANES; l = l + 1) begin
                wr(bc(2, l << (RW + 1) | r << 1), 32'h80000000 | r << 16);
                wr(bc(2, l << (RW + 1) | r << 1 | 1), LEN << 16 | l * LEN);
                wr(bc(3, l << (RW + 1) | r << 1), 32'h80000000 | l);
                wr(bc(3, l << (RW + 1) | r << 1 | 1), LEN << 16 | (2048 + l * LEN));
            end
            wr({12'hFFF, 20'h08000} + r, 2 + LEN);
        end
        for (l = 0; l < LANES; l = l + 1) begin
            wr(bc(2, l << (RW + 1) | R << 1), 0);
            wr(bc(2, l << (RW + 1) | R << 1 | 1), 0);
        end
        wr({12'hFFF, 20'h011}, R);
        wr({12'hFFF, 20'h010}, 1);
        $display("start");
        repeat (CYCLES) @(posedge clk);
        $display("done, status %b", status);
        $finish;
    end
endmodule
