`default_nettype none
// SPDX-License-Identifier: MIT
// tn_crc32: CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) register
// update by one flit, taken as ceil(W/8) bytes little-endian, bit 0 first.
// The register starts at 0xFFFFFFFF; the reported CRC is its complement.
// FLAT = 1 (board builds) writes each result bit as one flat XOR of the
// register and data bits it depends on (masks computed at elaboration), so
// synthesis builds a balanced XOR tree per bit instead of a chain of NB
// one-bit steps; the default keeps the one-bit steps (with the flat masks
// the simulator's elaboration of large tori takes minutes).
module tn_crc32 #(
    parameter W    = 16, // flit data width
    parameter FLAT = 0   // 1: flat XOR per result bit (boards)
) (
    input  wire         en_i,   // 0: crc_o is crc_i (no work done)
    input  wire [31:0]  crc_i,
    input  wire [W-1:0] data_i,
    output reg  [31:0]  crc_o
);
    localparam NB = 8 * ((W + 7) / 8);  // bits fed per flit, zero padded
    localparam MW = 32 + NB;            // {data, crc} dependency mask width

    // The bits of {data, crc_i} that result bit ob depends on
    // (DEP[ob*MW +: MW]): the one-bit steps run on dependency masks.
    function [32*MW-1:0] deps(input integer nb);
        reg [32*MW-1:0] s;
        reg [MW-1:0]    fb;
        integer         dep_b, dep_k;
        begin
            s = {(32*MW){1'b0}};
            for (dep_b = 0; dep_b < 32; dep_b = dep_b + 1)
                s[dep_b*MW + dep_b] = 1'b1;
            for (dep_k = 0; dep_k < nb; dep_k = dep_k + 1) begin
                fb = s[0 +: MW];
                fb[32 + dep_k] = ~fb[32 + dep_k];
                s = s >> MW;
                for (dep_b = 0; dep_b < 32; dep_b = dep_b + 1)
                    if (((32'hEDB88320 >> dep_b) & 32'd1) != 32'd0)
                        s[dep_b*MW +: MW] = s[dep_b*MW +: MW] ^ fb;
            end
            deps = s;
        end
    endfunction

    generate
        if (FLAT != 0) begin : gen_flat
            localparam [32*MW-1:0] DEP = deps(NB);
            reg [MW-1:0] v;
            integer o;
            always @* begin
                v = {MW{1'b0}};
                v[31:0] = crc_i;
                v[32 +: W] = data_i;
                for (o = 0; o < 32; o = o + 1)
                    crc_o[o] = en_i ? ^(v & DEP[o*MW +: MW]) : crc_i[o];
            end
        end else begin : gen_steps
            reg [NB-1:0] d;
            integer k;
            always @* begin
                crc_o = crc_i;
                d = {NB{1'b0}};
                d[W-1:0] = data_i;
                if (en_i)
                    for (k = 0; k < NB; k = k + 1)
                        crc_o = (crc_o >> 1) ^ ((crc_o[0] ^ d[k]) ? 32'hEDB88320 : 32'd0);
            end
        end
    endgenerate
endmodule
