// tb_crc.vh: the reference CRC-32 step (IEEE 802.3, reflected) over one
// W-bit flit as ceil(W/8) bytes little-endian (docs/hardware.md, "Eject
// record"), included inside a testbench module that defines W.
    function [31:0] crc_step(input [31:0] c, input [W-1:0] d);
        integer b, k;
        reg [31:0] x;
        begin
            x = c;
            for (b = 0; b < (W + 7) / 8; b = b + 1) begin
                x = x ^ ((d >> (8 * b)) & 8'hFF);
                for (k = 0; k < 8; k = k + 1)
                    x = x[0] ? (x >> 1) ^ 32'hEDB88320 : x >> 1;
            end
            crc_step = x;
        end
    endfunction
