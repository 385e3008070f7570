// SPDX-License-Identifier: MIT
// tn_formal_reset.vh: included by a module under `ifdef FORMAL (make
// formal, mk/formal.mk) after it declares f_clk and f_rst (its clock and
// reset). Assumes a reset in the first cycle, as every top holds one after
// power-up, and declares f_past (1 from the second cycle on) and f_live (1
// once that reset has taken effect: the properties hold from then on).
reg f_past = 1'b0;
reg f_live = 1'b0;
always @(posedge f_clk) begin
    f_past <= 1'b1;
    if (f_rst)
        f_live <= 1'b1;
end
always @* if (!f_past) assume(f_rst);
