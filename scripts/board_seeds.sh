#!/usr/bin/env bash
# Place and route one synthesized board build with each placement seed and
# print one line per seed: logic cells, block RAMs and the Fmax of every
# clock (nextpnr's report). Fmax moves by several per cent from seed to
# seed, so a build's margin is judged over seeds 1-5 (docs/boards.md).
# The bitstream build (mk/board.mk) keeps the first seed that meets the
# clock; this only measures. One nextpnr at a time.
# Usage: scripts/board_seeds.sh DIR "NEXTPNR ARGS" SEED...
#   DIR holds synth.json (and gets seeds/<seed>.json and .log); NEXTPNR ARGS
#   are the device, --pcf and the clock constraints of the board's build.
set -eu
dir=$1 args=$2; shift 2
NEXTPNR=${NEXTPNR:-nextpnr-ice40}
mkdir -p "$dir/seeds"
printf '%-5s %6s %5s  %s\n' seed LC EBR "Fmax MHz (clock: achieved / constraint)"
for s in "$@"; do
    rep=$dir/seeds/$s.json log=$dir/seeds/$s.log
    # shellcheck disable=SC2086 # args is a list of options
    if ! $NEXTPNR $args --json "$dir/synth.json" --seed "$s" --timing-allow-fail \
            --report "$rep" -l "$log" -q >/dev/null 2>&1; then
        printf '%-5s place and route failed: %s\n' "$s" "$(grep -m1 ERROR "$log" || echo "see $log")"
        continue
    fi
    lc=$(jq -r '.utilization.ICESTORM_LC | "\(.used)/\(.available)"' "$rep")
    ebr=$(jq -r '.utilization.ICESTORM_RAM | "\(.used)/\(.available)"' "$rep")
    clk=$(jq -r '.fmax | to_entries | sort_by(.key != "clk") | map("\(.key): \(.value.achieved * 100 | round / 100) / \(.value.constraint * 100 | round / 100)") | join(", ")' "$rep")
    printf '%-5s %6s %5s  %s\n' "$s" "$lc" "$ebr" "$clk"
done
