`default_nettype none
// SPDX-License-Identifier: MIT
// tn_crc32: CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) register
// update by one flit, taken as ceil(W/8) bytes little-endian, bit 0 first.
// The register starts at 0xFFFFFFFF; the reported CRC is its complement.
module tn_crc32 #(
    parameter W = 16  // flit data width
) (
    input  wire         en_i,   // 0: crc_o is crc_i (no work done)
    input  wire [31:0]  crc_i,
    input  wire [W-1:0] data_i,
    output reg  [31:0]  crc_o
);
    localparam NB = 8 * ((W + 7) / 8);  // bits fed per flit, zero padded

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
endmodule
