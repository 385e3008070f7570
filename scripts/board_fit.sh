#!/usr/bin/env bash
# Search for the largest torus an iCE40 holds: synth_ice40 of tn_torus alone
# for each candidate (smallest parameters first; every larger W, LANES,
# MEM_DEPTH or ROUNDS only adds), printing LUT and FF counts against the
# logic cells left after the bridge and UART (about 1,100 LCs, docs/boards.md).
# One yosys job at a time. Usage: scripts/board_fit.sh [OUTDIR] [CANDIDATE...]
# A candidate is "X Y Z W LANES MEM_DEPTH ROUNDS".
set -eu
out=${1:-build/board/fit}; shift || true
YOSYS=${YOSYS:-yosys}
net="rtl/tn_torus.v rtl/tn_seq.v rtl/tn_node.v rtl/tn_node_cfg.v rtl/tn_node_status.v"
net="$net rtl/tn_router.v rtl/tn_route.v rtl/tn_ni_mem.v rtl/tn_ni_bram.v rtl/tn_ni_inject.v rtl/tn_ni_eject.v rtl/tn_crc32.v"
if [ $# -eq 0 ]; then
    set -- "1 1 1 8 1 16 2" "2 1 1 8 1 16 2" "2 2 1 8 1 16 2" "1 1 1 16 1 16 2" "1 1 1 8 6 16 2"
fi
mkdir -p "$out"
printf '%-22s %7s %7s   %s\n' "X Y Z W LANES MEM RND" LUT FF "fits (HX8K 7680 LC, UP5K 5280 LC, minus ~1100 for the bridge)"
for c in "$@"; do
    set -- $c
    tag=$(echo "$c" | tr ' ' _)
    log=$out/$tag.log
    $YOSYS -q -l "$log" -p "read_verilog -defer $net; chparam -set DIM_X $1 -set DIM_Y $2 -set DIM_Z $3 \
        -set W $4 -set LANES $5 -set MEM_DEPTH $6 -set ROUNDS $7 tn_torus; synth_ice40 -top tn_torus; stat" >/dev/null
    lut=$(awk '$1 == "SB_LUT4" { n = $2 } END { print n + 0 }' "$log")
    ff=$(awk '$1 ~ /^SB_DFF/ { n[$1] = $2 } END { for (k in n) s += n[k]; print s + 0 }' "$log")
    fit=""
    [ "$lut" -le $((7680 - 1100)) ] && fit="HX8K" || fit="-"
    [ "$lut" -le $((5280 - 1100)) ] && fit="$fit UP5K"
    printf '%-22s %7d %7d   %s\n' "$c" "$lut" "$ff" "$fit"
done
