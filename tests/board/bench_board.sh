#!/usr/bin/env bash
# Board benchmark (make bench): per board the resources and Fmax of its
# build, the routers (nodes) fitted, the predicted cycles of a gossip on the
# fitted torus and on the 3x3x3 reference (host timing model, torusctl
# schedule, docs/timing.md), and the wall time at the achieved Fmax and at
# the board's clock. Usage: tests/board/bench_board.sh TORUSCTL BOARDDIR BOARD...
set -u
torusctl=$1 dir=$2; shift 2
cycles() { # dims ports flits
    "$torusctl" schedule gossip --dims "$1" --ports "$2" --msg-flits "$3" 2>/dev/null |
        sed -n 's/^predicted cycles \([0-9]*\).*/\1/p'
}
rounds() { # dims ports flits: rounds of that gossip (must be <= ROUNDS of the build)
    "$torusctl" schedule gossip --dims "$1" --ports "$2" --msg-flits "$3" 2>/dev/null |
        sed -n 's/^rounds \([0-9]*\).*/\1/p'
}
us() { awk -v c="$1" -v f="$2" 'BEGIN { if (f > 0 && c != "") printf "%.3f", c / f; else printf "-" }'; }
printf '%-10s %6s %6s %5s %5s %8s %6s %-8s %7s %6s %9s %9s %9s %-10s %7s %9s\n' \
    board LUT FF LC% BRAM Fmax clock torus routers rounds gossipcy us@Fmax us@clock ref cycles us@Fmax
for b in "$@"; do
    fit=$dir/$b/fit.txt
    if [ ! -s "$fit" ]; then
        printf '%-10s (no measurement: %s missing)\n' "$b" "$fit"
        continue
    fi
    unset lut ff lc lc_max ebr fmax freq torus fits need
    . "$fit"
    eval "$torus"                      # DIM_X=.. W=.. LANES=.. MEM_DEPTH=..
    n=$((DIM_X * DIM_Y * DIM_Z))
    ports=$([ "$LANES" -ge 6 ] && echo 6 || echo 1)
    # message length: the largest the flit memory holds after a gossip (N x L words)
    len=$((MEM_DEPTH / n)); [ "$len" -gt 8 ] && len=8
    ref=$(cycles 3x3x3 6 "$len")
    if [ "$fits" = yes ]; then
        c=$(cycles "${DIM_X}x${DIM_Y}x${DIM_Z}" "$ports" "$len")
        r=$(rounds "${DIM_X}x${DIM_Y}x${DIM_Z}" "$ports" "$len")
        printf '%-10s %6d %6d %5d %5d %8.2f %6s %-8s %7d %6s %9s %9s %9s %-10s %7s %9s\n' "$b" "$lut" "$ff" \
            $((100 * lc / lc_max)) "$ebr" "$fmax" "$freq" "${DIM_X}x${DIM_Y}x${DIM_Z}" "$n" "$r/$ROUNDS" "$c" \
            "$(us "$c" "$fmax")" "$(us "$c" "$freq")" "3x3x3/L$len" "$ref" "$(us "$ref" "$fmax")"
    else
        printf '%-10s %6d %6d %5s %5d %8s %6s %-8s %7d %6s %9s %9s %9s %-10s %7s %9s\n' "$b" "$lut" "$ff" \
            ">100" "$ebr" "-" "$freq" "none" 0 "-" "-" "-" "-" "3x3x3/L$len" "$ref" "-"
        echo "  $b: $need"
    fi
done
echo "(gossip cycles: torusctl schedule gossip --msg-flits L on the fitted torus, single-port when LANES < 6;"
echo " rounds: that schedule's rounds / the build's ROUNDS;"
echo " 3x3x3 reference all-port, same L: what the same board would take if the torus fitted)"
