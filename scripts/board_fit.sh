#!/usr/bin/env bash
# Search for the largest torus an iCE40 holds: synth_ice40 of tn_torus alone
# with the board reductions (SLIM, as mk/board.mk's BOARD_SLIM) for each
# candidate (smallest parameters first; every larger W, LANES, MEM_DEPTH or
# ROUNDS only adds), printing LUT, FF and EBR counts. Logic cells after
# place and route are higher (a flip-flop or carry without its LUT takes a
# cell); `make bitstream` is the real test (docs/boards.md).
# One yosys job at a time. Usage: scripts/board_fit.sh [OUTDIR] [CANDIDATE...]
# A candidate is "X Y Z W LANES MEM_DEPTH ROUNDS".
set -eu
out=${1:-build/board/fit}; shift || true
YOSYS=${YOSYS:-yosys}
net="rtl/net/tn_torus.v rtl/net/tn_seq.v rtl/net/tn_node.v rtl/net/tn_node_cfg.v rtl/net/tn_node_status.v"
net="$net rtl/net/tn_router.v rtl/net/tn_route.v rtl/ni/tn_ni_mem.v rtl/ni/tn_ni_bram.v rtl/ni/tn_ni_inject.v rtl/ni/tn_ni_eject.v rtl/ni/tn_crc32.v"
SLIM=${SLIM:-"-set RELAY 0 -set MEM_BRAM 1 -set CW 12 -set TW 31 -set GATHER 0 -set REC_BRAM 1 -set INREG 0 -set STAT_PIPE 1 -set EPIPE 1"}
if [ $# -eq 0 ]; then
    set -- "2 1 1 8 1 256 2" "3 1 1 8 1 256 2" "2 2 1 8 1 256 2" "2 2 2 8 1 256 4"
fi
mkdir -p "$out"
printf '%-22s %7s %7s %5s\n' "X Y Z W LANES MEM RND" LUT FF EBR
for c in "$@"; do
    set -- $c
    tag=$(echo "$c" | tr ' ' _)
    log=$out/$tag.log
    $YOSYS -q -l "$log" -p "read_verilog -defer $net; chparam -set DIM_X $1 -set DIM_Y $2 -set DIM_Z $3 \
        -set W $4 -set LANES $5 -set MEM_DEPTH $6 -set ROUNDS $7 $SLIM tn_torus; synth_ice40 -top tn_torus; stat" >/dev/null
    lut=$(awk '$1 == "SB_LUT4" { n = $2 } END { print n + 0 }' "$log")
    ff=$(awk '$1 ~ /^SB_DFF/ { n[$1] = $2 } END { for (k in n) s += n[k]; print s + 0 }' "$log")
    ebr=$(awk '$1 == "SB_RAM40_4K" { n = $2 } END { print n + 0 }' "$log")
    printf '%-22s %7d %7d %5d\n' "$c" "$lut" "$ff" "$ebr"
done
