// SPDX-License-Identifier: MIT
// tn_skid: a register slice for a valid/ready stream. Both directions are
// registered (out_valid/out_data come from flip-flops, in_ready is a
// flip-flop), so no combinational path crosses it; it still passes one
// word per cycle. A word that arrives while the output stalls waits in the
// second ("skid") register.
`default_nettype none

module tn_skid #(
    parameter DW = 8              // payload bits
) (
    input  wire          clk_i,
    input  wire          rst_i,
    input  wire          in_valid_i,
    input  wire [DW-1:0] in_data_i,
    output wire          in_ready_o,
    output wire          out_valid_o,
    output wire [DW-1:0] out_data_o,
    input  wire          out_ready_i
);
    reg          ovalid_q;         // out_data_q holds a word
    reg [DW-1:0] odata_q;
    reg          svalid_q;         // skid_q holds a word (in_ready is low)
    reg [DW-1:0] sdata_q;

    assign in_ready_o  = !svalid_q;
    assign out_valid_o = ovalid_q;
    assign out_data_o  = odata_q;

    wire take = in_valid_i && !svalid_q;       // accept an input word
    wire move = !ovalid_q || out_ready_i;      // the output register is free

    always @(posedge clk_i) begin
        if (move) begin
            // refill from the skid register first, then from the input
            if (svalid_q)
                odata_q <= sdata_q;
            else if (take)
                odata_q <= in_data_i;
        end else if (take) begin
            sdata_q <= in_data_i;
        end
        if (rst_i) begin
            ovalid_q <= 1'b0;
            svalid_q <= 1'b0;
        end else if (move) begin
            ovalid_q <= svalid_q || take;
            svalid_q <= 1'b0;
        end else if (take) begin
            svalid_q <= 1'b1;
        end
    end

`ifdef FORMAL
    // make formal-bridge (yosys-smtbmc): the output handshake
    `include "tn_formal_stream.vh"
    // no word lost or repeated: words taken minus words given = words held
    reg [3:0] f_in, f_out;
    always @(posedge clk_i)
        if (rst_i) begin
            f_in  <= 4'd0;
            f_out <= 4'd0;
        end else begin
            if (in_valid_i && in_ready_o)
                f_in <= f_in + 4'd1;
            if (out_valid_o && out_ready_i)
                f_out <= f_out + 4'd1;
        end
    always @*
        if (f_past && !rst_i) begin
            assert(f_in - f_out == {3'd0, ovalid_q} + {3'd0, svalid_q});
            assert(!svalid_q || ovalid_q);
        end
`endif
endmodule

`default_nettype wire
