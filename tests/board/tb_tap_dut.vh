// tb_tap_dut.vh: what both benches of tb_tap.v share: the bus master's
// signals, tn_board_tap (ASYNC = TAP_ASYNC) in front of the RTL tn_torus
// (1x1x1) and the TAP check task. The including module declares the
// network clock nclk, the bus clock bclk (the same clock when TAP_ASYNC is
// 0) and localparam TAP_ASYNC first.
    reg         rst = 1'b1, srst = 1'b0;
    reg  [31:0] m_addr = 32'd0, m_wdata = 32'd0;
    reg         m_we = 1'b0, m_re = 1'b0;
    wire [31:0] m_rdata, s_addr, s_wdata, s_rdata;
    wire        m_ready, s_we, s_re, s_ready, net_rst;
    wire [3:0]  status;

    tn_board_tap #(.POLL_LOG2(4), .ASYNC(TAP_ASYNC)) u_tap (
        .clk_i(nclk), .mclk_i(bclk), .rst_i(rst), .srst_i(srst), .net_rst_o(net_rst),
        .m_addr_i(m_addr), .m_wdata_i(m_wdata), .m_we_i(m_we), .m_re_i(m_re),
        .m_rdata_o(m_rdata), .m_ready_o(m_ready),
        .s_addr_o(s_addr), .s_wdata_o(s_wdata), .s_we_o(s_we), .s_re_o(s_re),
        .s_rdata_i(s_rdata), .s_ready_i(s_ready), .status_o(status));
    // -DTAP_BOARD: the torus with the boards' reductions (mk/board.mk
    // BOARD_SLIM), whose sequencer takes the request a cycle later (INREG 0)
`ifdef TAP_BOARD
    localparam TB_SLIM = 1;
`else
    localparam TB_SLIM = 0;
`endif
    tn_torus #(.DIM_X(1), .DIM_Y(1), .DIM_Z(1), .W(8), .LANES(1), .MEM_DEPTH(16),
               .ROUNDS(2), .RELAY(1 - TB_SLIM), .MEM_BRAM(TB_SLIM), .CW(TB_SLIM ? 12 : 32),
               .TW(TB_SLIM ? 24 : 48), .GATHER(1 - TB_SLIM), .REC_BRAM(TB_SLIM),
               .INREG(1 - TB_SLIM), .STAT_PIPE(TB_SLIM), .EPIPE(TB_SLIM)) u_torus (
        .clk_i(nclk), .rst_i(net_rst), .bus_addr_i(s_addr), .bus_wdata_i(s_wdata),
        .bus_we_i(s_we), .bus_re_i(s_re), .bus_rdata_o(s_rdata), .bus_ready_o(s_ready));

    integer tap_n = 0;
    task check(input cond, input [8*80-1:0] what);
        begin
            tap_n = tap_n + 1;
            if (cond)
                $display("ok %0d - %0s", tap_n, what);
            else
                $display("not ok %0d - %0s", tap_n, what);
        end
    endtask
