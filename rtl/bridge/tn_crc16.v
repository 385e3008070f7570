// SPDX-License-Identifier: MIT
// tn_crc16: one byte of CRC-16/CCITT-FALSE (poly 0x1021, MSB first, no
// reflection, no final xor; init 0xFFFF is the caller's). Combinational.
`default_nettype none

module tn_crc16 (
    input  wire [15:0] crc_i,   // CRC so far
    input  wire [7:0]  data_i,  // next byte, most significant bit first
    output reg  [15:0] crc_o    // CRC including data_i
);
    integer i;
    always @* begin
        crc_o = crc_i ^ {data_i, 8'h00};
        for (i = 0; i < 8; i = i + 1) begin
            if (crc_o[15])
                crc_o = {crc_o[14:0], 1'b0} ^ 16'h1021;
            else
                crc_o = {crc_o[14:0], 1'b0};
        end
    end
endmodule

`default_nettype wire
