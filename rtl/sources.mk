# The RTL source lists, in one place: every make fragment (simulator models,
# lint, tests, boards, estimates) takes its files from here.

# The network: torus top, sequencer, nodes (router, lanes, flit memory).
RTL_NET_SRC := rtl/net/tn_torus.v rtl/net/tn_seq.v rtl/net/tn_plane.v rtl/net/tn_node.v rtl/net/tn_router.v \
	rtl/net/tn_status.v rtl/ni/tn_ni.v \
	rtl/lib/tn_ram.v
# The host bridge (SLIP frames over a byte stream) and the UART.
RTL_BRIDGE_SRC := $(addprefix rtl/bridge/,tn_crc16.v tn_slip_dec.v tn_slip_enc.v \
	tn_bridge_fifo.v tn_bridge_ram.v tn_bridge_rx.v tn_bridge_tx.v \
	tn_skid.v tn_bridge_engine.v tn_bridge.v)
RTL_UART_SRC := rtl/bridge/tn_uart_rx.v rtl/bridge/tn_uart_tx.v
# What every board runs around the torus (tops: rtl/boards/tn_top_<board>.v).
RTL_BOARD_SRC := rtl/boards/tn_board_system.v rtl/boards/tn_board_por.v
