#!/usr/bin/env bash
# Search for the largest torus an iCE40 holds: yosys synth_ice40 of
# tn_torus alone (product parameters only) for each candidate, printing
# LUT4, FF, carry and EBR counts and the same per node. The sources are
# RTL_NET_SRC of rtl/sources.mk (the list every make fragment uses). Logic
# cells after place and route are higher (a flip-flop or carry without its
# LUT takes a cell of its own) and the board adds the bridge and the UART:
# `make bitstream` is the real test (docs/boards.md).
# One yosys job at a time.
# Usage: scripts/board_fit.sh [OUTDIR] [CANDIDATE...]
# A candidate is "X Y Z W LANES MEM_DEPTH ROUNDS RELAY".
set -eu
out=${1:-build/board/fit}; [ $# -gt 0 ] && shift
YOSYS=${YOSYS:-yosys}
MAKE=${MAKE:-make}
# the network's sources, from rtl/sources.mk alone (no tool checks of the
# top Makefile)
net=$(printf 'p:\n\t@echo $(RTL_NET_SRC)\n' | $MAKE -s --no-print-directory -f rtl/sources.mk -f - p)
[ -n "$net" ] || { echo "board_fit: RTL_NET_SRC is empty (rtl/sources.mk)" >&2; exit 1; }
if [ $# -eq 0 ]; then
    set -- "2 1 1 8 1 256 16 0" "2 2 1 8 1 256 16 0" "2 2 2 8 1 256 16 0"
fi
mkdir -p "$out"
printf '%-24s %6s %6s %6s %4s | per node %6s %6s %5s\n' "X Y Z W LANES MEM RND RLY" LUT4 FF CARRY EBR LUT4 FF EBR
for c in "$@"; do
    set -- $c
    [ $# -eq 8 ] || { echo "board_fit: candidate \"$c\": want X Y Z W LANES MEM_DEPTH ROUNDS RELAY" >&2; exit 1; }
    tag=$(echo "$c" | tr ' ' _)
    log=$out/$tag.log
    $YOSYS -q -l "$log" -p "read_verilog -defer $net; chparam -set DIM_X $1 -set DIM_Y $2 -set DIM_Z $3 \
        -set W $4 -set LANES $5 -set MEM_DEPTH $6 -set ROUNDS $7 -set RELAY $8 tn_torus; \
        synth_ice40 -top tn_torus; stat" >/dev/null 2>"$out/$tag.err" || {
        echo "board_fit: yosys failed for \"$c\" (log $log):" >&2; tail -5 "$out/$tag.err" >&2; exit 1; }
    n=$(($1 * $2 * $3))
    cnt() { awk -v pat="$1" '$1 ~ pat && NF == 2 { v[$1] = $2 } END { for (k in v) s += v[k]; print s + 0 }' "$log"; }
    lut=$(cnt '^SB_LUT4$') ff=$(cnt '^SB_DFF') carry=$(cnt '^SB_CARRY$') ebr=$(cnt '^SB_RAM40_4K$')
    printf '%-24s %6d %6d %6d %4d | per node %6d %6d %5.1f\n' "$c" "$lut" "$ff" "$carry" "$ebr" \
        $((lut / n)) $((ff / n)) "$(awk -v e="$ebr" -v n="$n" 'BEGIN { print e / n }')"
done
