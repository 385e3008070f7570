// SPDX-License-Identifier: MIT
// tn_formal_stream.vh: included inside a stream module under `ifdef FORMAL
// (make formal-bridge, yosys-smtbmc). Reset in the first cycle, and the
// output handshake: a word offered (out_valid_o) and not taken
// (out_ready_i) is offered again, unchanged, in the next cycle. Declares
// f_past (1 from the second cycle on) for the module's own properties.
reg f_past = 1'b0;
always @(posedge clk_i)
    f_past <= 1'b1;
always @* if (!f_past) assume(rst_i);
always @(posedge clk_i)
    if (f_past && !$past(rst_i) && !rst_i && $past(out_valid_o) && !$past(out_ready_i)) begin
        assert(out_valid_o);
        assert(out_data_o == $past(out_data_o));
    end
