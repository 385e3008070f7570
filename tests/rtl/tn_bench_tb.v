`default_nettype none
// SPDX-License-Identifier: MIT
// Icarus speed reference: the same traffic as tn_bench_speed.c on a small
// torus (every output streams, every input is ejected), CYCLES cycles.
module tn_bench_tb;
    parameter DX = 3, DY = 3, DZ = 3, CYCLES = 2000;
    reg clk = 0, rst = 1, we = 0, re = 0;
    reg [31:0] addr = 0, wdata = 0;
    wire [31:0] rdata;
    wire ready;
    integer r, o, l, k;
    localparam LEN = 300;

    tn_torus #(.DIM_X(DX), .DIM_Y(DY), .DIM_Z(DZ)) dut (
        .clk_i(clk), .rst_i(rst), .bus_addr_i(addr), .bus_wdata_i(wdata),
        .bus_we_i(we), .bus_re_i(re), .bus_rdata_o(rdata), .bus_ready_o(ready));

    always #1 clk = ~clk;

    task wr(input [31:0] a, input [31:0] d);
        begin
            addr = a; wdata = d; we = 1;
            @(posedge clk); #0.1;
            we = 0;
        end
    endtask

    initial begin
        repeat (4) @(posedge clk);
        #0.1 rst = 0;
        for (k = 0; k < 6 * LEN; k = k + 1)
            wr({12'hFFE, 4'd0, 16'd0} + k, k * 7);
        for (r = 0; r < 16; r = r + 1) begin
            for (o = 0; o < 6; o = o + 1)
                wr({12'hFFE, 4'd2, 16'd0} + r * 64 + o, 1 + o);
            for (l = 0; l < 6; l = l + 1) begin
                wr({12'hFFE, 4'd2, 16'd0} + r * 64 + 8 + l, 8 + l);
                wr({12'hFFE, 4'd2, 16'd0} + r * 64 + 16 + 3 * l, 32'h80000000);
                wr({12'hFFE, 4'd2, 16'd0} + r * 64 + 17 + 3 * l, l * LEN);
                wr({12'hFFE, 4'd2, 16'd0} + r * 64 + 18 + 3 * l, LEN);
                wr({12'hFFE, 4'd2, 16'd0} + r * 64 + 40 + 3 * l, 32'h80000000);
                wr({12'hFFE, 4'd2, 16'd0} + r * 64 + 41 + 3 * l, 2048 + l * LEN);
                wr({12'hFFE, 4'd2, 16'd0} + r * 64 + 42 + 3 * l, LEN);
            end
            wr({12'hFFF, 20'h100} + r, 2 + LEN);
        end
        wr({12'hFFF, 20'h011}, 16);
        wr({12'hFFF, 20'h010}, 1);
        $display("start");
        repeat (CYCLES) @(posedge clk);
        $display("done");
        $finish;
    end
endmodule
