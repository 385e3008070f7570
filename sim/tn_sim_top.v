`default_nettype none
// SPDX-License-Identifier: MIT
// tn_sim_top: the Verilated top of a simulation model: the host bridge
// (byte stream in and out, as a board's UART delivers it) in front of the
// torus, plus a direct configuration-bus port for the RTL testbenches. A
// direct request has priority; the bridge's master waits while one is held
// (use one port at a time: a request the torus has taken from one is not
// withdrawn when the other starts).
// The direct port is registered (a request reaches the torus one bus cycle
// after it is set), so that no logic depends on a top input
// combinationally: Verilator evaluates such logic, here the bridge engine
// and the torus's bus decode, on every eval(), twice a bus cycle.
// The bridge and the bus run on bclk_i, the network on nclk_i, which the C
// wrapper clocks only while net_busy_o says the network has work (on every
// step with tn_sim_free_run). Every plane's network clock is nclk_i and its
// table clock bclk_i (two clocks in all: Verilator's evaluation loop tests
// every clock's trigger at every eval(), so a clock per plane cost each
// bus cycle more than the planes it spared), and a one-thread model
// evaluates only the planes and nodes with work: before each rising edge
// the C wrapper sets pnet_i (pbusy_o: the planes whose network clock would
// run), ptab_i (tbusy_o: their table ports), neval_i (the nodes with
// network work: nball_o, nbreq_o) and nteval_i (with table work: ntab_o),
// every bit with tn_sim_eval_all and in reset, and the generated code,
// patched by sim/tn_sim_build.sh (sim/tn_gate.awk), calls a plane's or
// node's functions of a clock only when its bit for that clock is set.
module tn_sim_top #(
    parameter DIM_X     = 3,    // torus size in X
    parameter DIM_Y     = 3,    // torus size in Y
    parameter DIM_Z     = 3,    // torus size in Z
    parameter W         = 16,   // flit data width
    parameter LANES     = 6,    // lanes per node
    parameter MEM_DEPTH = 4096, // flit memory words per node
    parameter ROUNDS    = 1024, // round-table and list depth
    parameter RELAY     = 1     // relay hardware
) (
    input  wire        bclk_i,
    input  wire        nclk_i,
    input  wire        rst_i,
    // direct bus (testbenches)
    input  wire [31:0] bus_addr_i,
    input  wire [31:0] bus_wdata_i,
    input  wire        bus_we_i,
    input  wire        bus_re_i,
    output wire [31:0] bus_rdata_o,
    output wire        bus_ready_o,
    // host bridge byte stream (the host transport)
    input  wire        byte_in_valid_i,
    input  wire [7:0]  byte_in_data_i,
    output wire        byte_in_ready_o,
    output wire        byte_out_valid_o,
    output wire [7:0]  byte_out_data_o,   // taken at once: the host never holds it back
    output wire        net_busy_o,
    output wire [DIM_Z-1:0] pbusy_o,
    output wire [DIM_Z-1:0] tbusy_o,
    output wire        nball_o,     // the nodes with work (tn_torus)
    output wire [DIM_X*DIM_Y*DIM_Z-1:0] nbreq_o,
    output wire [27:0] ntab_o,
    /* verilator lint_off UNUSEDSIGNAL */ // read by the patched generated code only
    input  wire [DIM_Z-1:0] pnet_i,  // the planes evaluated at the next nclk_i edge
    input  wire [DIM_Z-1:0] ptab_i,  // ... at the next bclk_i edge
    input  wire [DIM_X*DIM_Y*DIM_Z-1:0] neval_i,  // the nodes evaluated at the next nclk_i edge
    input  wire [DIM_X*DIM_Y*DIM_Z-1:0] nteval_i  // ... at the next bclk_i edge
    /* verilator lint_on UNUSEDSIGNAL */
);
    wire [31:0] br_addr, br_wdata, t_rdata;
    wire        br_we, br_re, br_rst, t_ready;
    // The direct request as the torus sees it: taken at an edge, dropped at
    // the edge that completes it (the testbench holds its request until it
    // sees bus_ready_o, and drops it after that edge).
    reg  [31:0] d_addr_q, d_wdata_q;
    reg         d_we_q, d_re_q;
    wire        direct = d_we_q | d_re_q;
    always @(posedge bclk_i) begin
        d_we_q    <= bus_we_i && !(direct && t_ready);
        d_re_q    <= bus_re_i && !(direct && t_ready);
        d_addr_q  <= bus_addr_i;
        d_wdata_q <= bus_wdata_i;
        if (rst_i) begin
            d_we_q <= 1'b0;
            d_re_q <= 1'b0;
        end
    end
    /* verilator lint_off UNUSEDSIGNAL */ // the LEDs of a board
    wire [3:0]  status;
    /* verilator lint_on UNUSEDSIGNAL */

    tn_bridge u_bridge (
        .clk_i(bclk_i), .rst_i(rst_i),
        .in_valid_i(byte_in_valid_i), .in_data_i(byte_in_data_i),
        .in_ready_o(byte_in_ready_o),
        .out_valid_o(byte_out_valid_o), .out_data_o(byte_out_data_o),
        .out_ready_i(1'b1),
        .bus_addr_o(br_addr), .bus_wdata_o(br_wdata), .bus_we_o(br_we), .bus_re_o(br_re),
        .bus_rdata_i(t_rdata), .bus_ready_i(t_ready & ~direct),
        .rst_o(br_rst));

    tn_torus #(.DIM_X(DIM_X), .DIM_Y(DIM_Y), .DIM_Z(DIM_Z), .W(W), .LANES(LANES),
               .MEM_DEPTH(MEM_DEPTH), .ROUNDS(ROUNDS), .RELAY(RELAY), .FAULT(1)) u_torus (
        .bclk_i(bclk_i), .tbusy_o(tbusy_o), .rst_i(rst_i | br_rst),
        .bus_addr_i(direct ? d_addr_q : br_addr),
        .bus_wdata_i(direct ? d_wdata_q : br_wdata),
        .bus_we_i(direct ? d_we_q : br_we),
        .bus_re_i(direct ? d_re_q : br_re),
        .bus_rdata_o(t_rdata), .bus_ready_o(t_ready),
        .nclk_i(nclk_i), .net_busy_o(net_busy_o), .pbusy_o(pbusy_o),
        .nball_o(nball_o), .nbreq_o(nbreq_o), .ntab_o(ntab_o), .status_o(status));

    assign bus_rdata_o = t_rdata;
    assign bus_ready_o = t_ready & direct;
endmodule
