// SPDX-License-Identifier: MIT
// tn_bridge: the host bridge. Byte stream in -> FIFO -> SLIP decoder ->
// frame receiver (CRC, lengths) -> command engine -> configuration bus
// master (the tn_torus slave port of docs/hardware.md) and rst_o; responses
// -> register slice -> CRC -> register slice -> SLIP encoder -> byte stream
// out. Protocol: docs/protocol.md.
`default_nettype none

module tn_bridge #(
    parameter MAX_WORDS    = 256,      // payload bound: 4*MAX_WORDS bytes (power of two, 16..8192)
    parameter IDLE_TIMEOUT = 4800000,  // cycles of silence inside a frame before it is dropped (100 ms at 48 MHz; >= 2)
    parameter RESET_CYCLES = 16,       // cycles rst_o is held high by RESET (>= 1)
    parameter FIFO_AW      = 9         // log2 of the input FIFO depth in bytes (1..16)
) (
    input  wire        clk_i,
    input  wire        rst_i,
    // byte stream from the host (UART RX or the simulation FIFO)
    input  wire        in_valid_i,
    input  wire [7:0]  in_data_i,
    output wire        in_ready_o,
    // byte stream to the host
    output wire        out_valid_o,
    output wire [7:0]  out_data_o,
    input  wire        out_ready_i,
    // configuration bus master (to the tn_torus bus port)
    output wire [31:0] bus_addr_o,
    output wire [31:0] bus_wdata_o,
    output wire        bus_we_o,
    output wire        bus_re_o,
    input  wire [31:0] bus_rdata_i,
    input  wire        bus_ready_i,
    // soft reset pulse for the torus (RESET command); OR it with the board
    // reset for tn_torus. The bridge itself is reset by rst_i only.
    output wire        rst_o
);
    localparam AW = $clog2(MAX_WORDS);   // frame buffer address width
    localparam [7:0] VERSION = 8'd1;     // protocol version

    wire       f_valid, f_ready;
    wire [7:0] f_data;
    tn_bridge_fifo #(.AW(FIFO_AW)) u_fifo (
        .clk_i(clk_i), .rst_i(rst_i),
        .in_valid_i(in_valid_i), .in_data_i(in_data_i), .in_ready_o(in_ready_o),
        .out_valid_o(f_valid), .out_data_o(f_data), .out_ready_i(f_ready)
    );

    wire       d_valid, d_ready, d_esc_err;
    wire [7:0] d_data;
    wire [1:0] d_kind;
    tn_slip_dec #(.IDLE_TIMEOUT(IDLE_TIMEOUT)) u_dec (
        .clk_i(clk_i), .rst_i(rst_i),
        .in_valid_i(f_valid), .in_data_i(f_data), .in_ready_o(f_ready),
        .out_valid_o(d_valid), .out_data_o(d_data), .out_kind_o(d_kind),
        .out_esc_err_o(d_esc_err), .out_ready_i(d_ready)
    );

    wire          m_we;
    wire [AW:0]   m_waddr, m_raddr;
    wire [31:0]   m_wdata, m_rdata;
    wire          fr_valid, fr_bank, fr_take;
    wire [7:0]    fr_status, fr_type, fr_seq;
    wire [15:0]   fr_len;
    tn_bridge_rx #(.MAX_WORDS(MAX_WORDS), .VERSION(VERSION)) u_rx (
        .clk_i(clk_i), .rst_i(rst_i),
        .d_valid_i(d_valid), .d_data_i(d_data), .d_kind_i(d_kind),
        .d_esc_err_i(d_esc_err), .d_ready_o(d_ready),
        .mem_we_o(m_we), .mem_waddr_o(m_waddr), .mem_wdata_o(m_wdata),
        .frame_valid_o(fr_valid), .frame_bank_o(fr_bank), .frame_status_o(fr_status),
        .frame_type_o(fr_type), .frame_seq_o(fr_seq), .frame_len_o(fr_len),
        .frame_take_i(fr_take)
    );

    // two banks of MAX_WORDS words: one being received, one being executed
    tn_bridge_ram #(.AW(AW + 1)) u_ram (
        .clk_i(clk_i), .we_i(m_we), .waddr_i(m_waddr), .wdata_i(m_wdata),
        .raddr_i(m_raddr), .rdata_o(m_rdata)
    );

    wire       t_valid, t_last, t_ready;
    wire [7:0] t_data;
    tn_bridge_engine #(.MAX_WORDS(MAX_WORDS), .RESET_CYCLES(RESET_CYCLES),
                       .VERSION(VERSION)) u_engine (
        .clk_i(clk_i), .rst_i(rst_i),
        .frame_valid_i(fr_valid), .frame_bank_i(fr_bank), .frame_status_i(fr_status),
        .frame_type_i(fr_type), .frame_seq_i(fr_seq), .frame_len_i(fr_len),
        .frame_take_o(fr_take),
        .mem_raddr_o(m_raddr), .mem_rdata_i(m_rdata),
        .bus_addr_o(bus_addr_o), .bus_wdata_o(bus_wdata_o),
        .bus_we_o(bus_we_o), .bus_re_o(bus_re_o),
        .bus_rdata_i(bus_rdata_i), .bus_ready_i(bus_ready_i),
        .rst_o(rst_o),
        .tx_valid_o(t_valid), .tx_data_o(t_data), .tx_last_o(t_last),
        .tx_ready_i(t_ready)
    );

    // a register slice between the engine and the CRC stage: the SLIP
    // encoder's ready depends on the byte (escapes), so without it the
    // engine's byte mux and its handshake form one long loop (board timing)
    wire       s_valid, s_last, s_ready;
    wire [7:0] s_data;
    tn_skid #(.DW(9)) u_skid (
        .clk_i(clk_i), .rst_i(rst_i),
        .in_valid_i(t_valid), .in_data_i({t_last, t_data}), .in_ready_o(t_ready),
        .out_valid_o(s_valid), .out_data_o({s_last, s_data}), .out_ready_i(s_ready)
    );

    wire       c_valid, c_last, c_ready;
    wire [7:0] c_data;
    tn_bridge_tx u_tx (
        .clk_i(clk_i), .rst_i(rst_i),
        .in_valid_i(s_valid), .in_data_i(s_data), .in_last_i(s_last),
        .in_ready_o(s_ready),
        .out_valid_o(c_valid), .out_data_o(c_data), .out_last_o(c_last),
        .out_ready_i(c_ready)
    );

    // and one between the CRC stage and the encoder (its escape check)
    wire       e_valid, e_last, e_ready;
    wire [7:0] e_data;
    tn_skid #(.DW(9)) u_skid_enc (
        .clk_i(clk_i), .rst_i(rst_i),
        .in_valid_i(c_valid), .in_data_i({c_last, c_data}), .in_ready_o(c_ready),
        .out_valid_o(e_valid), .out_data_o({e_last, e_data}), .out_ready_i(e_ready)
    );

    tn_slip_enc u_enc (
        .clk_i(clk_i), .rst_i(rst_i),
        .in_valid_i(e_valid), .in_data_i(e_data), .in_last_i(e_last),
        .in_ready_o(e_ready),
        .out_valid_o(out_valid_o), .out_data_o(out_data_o), .out_ready_i(out_ready_i)
    );
endmodule

`default_nettype wire
