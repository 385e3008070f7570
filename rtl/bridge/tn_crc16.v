// SPDX-License-Identifier: MIT
// tn_crc16: one byte of CRC-16/CCITT-FALSE (poly 0x1021, MSB first, no
// reflection, no final xor; init 0xFFFF is the caller's). Combinational.
// The byte's eight shift-and-XOR steps in closed form: with
// x = crc[15:8] ^ data and y = x ^ (x >> 4), the new CRC is
// (crc << 8) ^ (y << 12) ^ (y << 5) ^ y (16 bits). A simulator computes
// it in a few operations instead of eight dependent steps (the bridge
// evaluates it at every bus cycle); `make formal-crc16` proves it equal
// to the bitwise definition for every CRC and byte.
`default_nettype none

module tn_crc16 (
    input  wire [15:0] crc_i,   // CRC so far
    input  wire [7:0]  data_i,  // next byte, most significant bit first
    output wire [15:0] crc_o    // CRC including data_i
);
    wire [7:0] x = crc_i[15:8] ^ data_i;
    wire [7:0] y = x ^ {4'h0, x[7:4]};
    assign crc_o = {crc_i[7:0], 8'h00} ^ {y[3:0], 12'h000} ^ {3'b000, y, 5'b00000} ^ {8'h00, y};

`ifdef FORMAL
    // the definition: eight steps of shift left, XOR the polynomial when
    // the bit shifted out is 1
    reg [15:0] bitwise;
    integer i;
    always @* begin
        bitwise = crc_i ^ {data_i, 8'h00};
        for (i = 0; i < 8; i = i + 1)
            bitwise = {bitwise[14:0], 1'b0} ^ (bitwise[15] ? 16'h1021 : 16'h0000);
        assert (crc_o == bitwise);
    end
`endif
endmodule

`default_nettype wire
