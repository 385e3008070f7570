`default_nettype none
// SPDX-License-Identifier: MIT
// tn_route: relay routing decision for one head flit: 1-interval routing on
// a destination label or dimension-order routing on destination coordinates.
module tn_route #(
    parameter DIM_X = 3,  // torus size in X (1 = no X links)
    parameter DIM_Y = 3,  // torus size in Y
    parameter DIM_Z = 3,  // torus size in Z
    parameter W     = 16  // flit data width
) (
    input  wire         en_i,     // a relay head flit is present
    input  wire [W-1:0] data_i,   // head flit data: label or coordinates
    input  wire         dor_i,    // 1: DOR on coordinates, 0: interval tables
    input  wire [95:0]  lo_i,     // interval low label of output o at [16o+:16]
    input  wire [95:0]  hi_i,     // interval high label of output o
    input  wire [5:0]   ien_i,    // interval of output o enabled
    input  wire [15:0]  label_i,  // own label
    input  wire [11:0]  coord_i,  // own coordinates {z, y, x}, 4 bits each
    output reg  [2:0]   tgt_o     // 0..5 output port, 6 this node, 7 no route
);
    localparam [4:0] DX = DIM_X[4:0], DY = DIM_Y[4:0], DZ = DIM_Z[4:0];

    /* verilator lint_off UNUSEDSIGNAL */ // data zero-extended; labels use 16 bits
    reg [31:0] d;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [15:0] lab, lo, hi;
    reg [4:0]  hops;
    reg        hit, done;
    integer    o, k;

    // Distance in the + direction from own coordinate a to b on a ring of size n.
    function [4:0] fwd(input [3:0] a, input [3:0] b, input [4:0] n);
        fwd = ({1'b0, b} >= {1'b0, a}) ? ({1'b0, b} - {1'b0, a}) : ({1'b0, b} + n - {1'b0, a});
    endfunction

    always @* begin
        tgt_o = 3'd7;
        d     = 32'd0;
        d[W-1:0] = data_i;
        lab   = d[15:0];
        lo    = 16'd0;
        hi    = 16'd0;
        hops  = 5'd0;
        hit   = 1'b0;
        done  = 1'b0;
        if (en_i) begin
            if (!dor_i) begin
                if (lab == label_i) begin
                    tgt_o = 3'd6;
                end else begin
                    for (o = 0; o < 6; o = o + 1) begin
                        lo = lo_i[16*o +: 16];
                        hi = hi_i[16*o +: 16];
                        hit = ien_i[o] && ((lo <= hi) ? (lab >= lo && lab <= hi)
                                                      : (lab >= lo || lab <= hi));
                        if (hit && !done) begin
                            tgt_o = o[2:0];
                            done  = 1'b1;
                        end
                    end
                end
            end else if ({1'b0, d[3:0]} < DX && {1'b0, d[7:4]} < DY && {1'b0, d[11:8]} < DZ) begin
                tgt_o = 3'd6;
                for (k = 2; k >= 0; k = k - 1) begin
                    // Visit Z, Y, X; the last nonzero dimension visited (lowest) wins.
                    case (k)
                        0:       hops = fwd(coord_i[3:0], d[3:0], DX);
                        1:       hops = fwd(coord_i[7:4], d[7:4], DY);
                        default: hops = fwd(coord_i[11:8], d[11:8], DZ);
                    endcase
                    if (hops != 5'd0) begin
                        // + when the forward distance is at most half the ring.
                        case (k)
                            0:       tgt_o = ({hops, 1'b0} <= {1'b0, DX}) ? 3'd0 : 3'd1;
                            1:       tgt_o = ({hops, 1'b0} <= {1'b0, DY}) ? 3'd2 : 3'd3;
                            default: tgt_o = ({hops, 1'b0} <= {1'b0, DZ}) ? 3'd4 : 3'd5;
                        endcase
                    end
                end
            end
        end
    end
endmodule
