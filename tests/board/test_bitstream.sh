#!/usr/bin/env bash
# CI check of one board build (make builds the bitstream first; a place-and-
# route error or a timing miss already fails that step): the bitstream has
# the device's size, the nextpnr report shows the network clock at or above
# FREQ_MHZ and every other clock (the iCEBreaker's bus clock) at or above its
# own constraint, the design fits the device, and synthesis added no logic
# to emulate a block RAM's behaviour when a row is read at the edge that
# writes it (every RAM is marked no_rw_check: such logic cost the HX8K's
# 2x2x1 562 logic cells; docs/boards.md, "Flip-flops alone").
# Usage: tests/board/test_bitstream.sh BOARD DIR FREQ_MHZ
set -u
board=$1 dir=$2 freq=$3
n=0 fail=0
tap() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
bin=$dir/$board.bin
case $board in
    icebreaker) want=104090 ;;   # iCE40UP5K configuration image (icepack)
    hx8k)       want=135100 ;;   # iCE40HX8K configuration image (icepack)
    *)          want=0 ;;
esac
size=$(stat -c %s "$bin" 2>/dev/null || echo 0)
[ "$size" -eq "$want" ]; tap $? "$board: bitstream $bin has the device's size ($size of $want bytes)"
scripts/board_report.sh "$board" "$dir" "$freq" >"$dir/report.txt" 2>&1; rc=$?
sed 's/^/# /' "$dir/report.txt"
. "$dir/summary.txt" 2>/dev/null || true
tap $rc "$board: place-and-route report present, the network clock meets $freq MHz${bus_freq:+ and the bus clock its $bus_freq MHz}"
[ "${lc:-0}" -gt 0 ] && [ "${lc:-0}" -le "${lc_max:-0}" ]; tap $? "$board: logic cells within the device (${lc:-?} of ${lc_max:-?})"
emul=$(grep -c 'emulate_read_first\|emulate_transparency' "$dir/yosys.log" 2>/dev/null)
[ -f "$dir/yosys.log" ] && [ "${emul:-1}" -eq 0 ]; tap $? "$board: no block RAM read emulated by extra logic (yosys.log: ${emul:-no log} mentions)"
echo "1..$n"
exit $fail
