// SPDX-License-Identifier: MIT
// tn_bridge_fifo: byte FIFO in front of the bridge (absorbs UART bytes while
// the command engine works). One byte per cycle in and out; the memory has
// a registered read port so that it maps to block RAM.
`default_nettype none

module tn_bridge_fifo #(
    parameter AW = 9              // log2 of the depth in bytes
) (
    input  wire       clk_i,
    input  wire       rst_i,
    input  wire       in_valid_i,
    input  wire [7:0] in_data_i,
    output wire       in_ready_o,
    output wire       out_valid_o,
    output wire [7:0] out_data_o,
    input  wire       out_ready_i
);
    localparam DEPTH = 1 << AW;   // bytes held by the memory

    reg [7:0]  mem [0:DEPTH-1];
    reg [7:0]  rdata_q;           // memory output register = FIFO head
    reg [AW:0] wptr_q, wptr_d;    // one extra bit tells full from empty
    reg [AW:0] rptr_q, rptr_d;
    reg        ovalid_q, ovalid_d;

    wire full  = (wptr_q[AW-1:0] == rptr_q[AW-1:0]) && (wptr_q[AW] != rptr_q[AW]);
    wire empty = (wptr_q == rptr_q);
    wire push  = in_valid_i && !full;
    wire pop   = !empty && (!ovalid_q || out_ready_i);  // refill the head

    assign in_ready_o  = !full;
    assign out_valid_o = ovalid_q;
    assign out_data_o  = rdata_q;

    always @* begin
        wptr_d   = push ? wptr_q + 1'b1 : wptr_q;
        rptr_d   = pop ? rptr_q + 1'b1 : rptr_q;
        ovalid_d = pop || (ovalid_q && !out_ready_i);
    end

    always @(posedge clk_i) begin
        if (rst_i) begin
            wptr_q   <= {(AW+1){1'b0}};
            rptr_q   <= {(AW+1){1'b0}};
            ovalid_q <= 1'b0;
        end else begin
            wptr_q   <= wptr_d;
            rptr_q   <= rptr_d;
            ovalid_q <= ovalid_d;
        end
    end

    // datapath: memory and its read register (not reset)
    always @(posedge clk_i) begin
        if (push)
            mem[wptr_q[AW-1:0]] <= in_data_i;
        if (pop)
            rdata_q <= mem[rptr_q[AW-1:0]];
    end

`ifdef FORMAL
    // make formal-bridge (yosys-smtbmc): bounds and the output handshake
    `include "tn_formal_stream.vh"
    wire [AW:0] f_count = wptr_q - rptr_q;
    always @* if (!rst_i) assert(f_count <= DEPTH);
    always @* if (!rst_i && f_count == DEPTH) assert(!in_ready_o);
`endif
endmodule

`default_nettype wire
