#!/usr/bin/env bash
# Summarise one board build: LUT/FF/EBR/SPRAM use (yosys stat and nextpnr
# utilisation) and the achieved Fmax of every clock (nextpnr report).
# Writes DIR/summary.txt (key=value) and prints one line per clock. The
# network clock (net clk; the only one on a one-clock board) is checked
# against FREQ_MHZ, every other clock (the iCEBreaker's
# bus clock) against its own constraint in the report (mk/board.mk,
# BOARD_BUS_FREQ_<board>). Exits 1 if a clock misses its target or a
# report is missing (place and route failed). With GOAL_MHZ, also says
# whether the network clock would meet that.
# Usage: scripts/board_report.sh BOARD DIR FREQ_MHZ [GOAL_MHZ]
set -eu
board=$1 dir=$2 freq=$3 goal=${4:-}
rep=$dir/report.json stat=$dir/stat.txt
for f in "$rep" "$stat"; do
    [ -s "$f" ] || { echo "board_report: $f missing: synthesis or place and route of $board failed (see $dir/*.log)" >&2; exit 1; }
done
count() { awk -v pat="$1" '$1 ~ pat { n += $2 } END { print n + 0 }' "$stat"; }
lut=$(count '^SB_LUT4$')
ff=$(count '^SB_DFF')
carry=$(count '^SB_CARRY$')
ebr=$(count '^SB_RAM40_4K')
spram=$(count '^SB_SPRAM256KA$')
used() { jq -r --arg k "$1" '.utilization[$k].used // 0' "$rep"; }
avail() { jq -r --arg k "$1" '.utilization[$k].available // 0' "$rep"; }
lc=$(used ICESTORM_LC) lc_max=$(avail ICESTORM_LC)
ram=$(used ICESTORM_RAM) ram_max=$(avail ICESTORM_RAM)
spr=$(used ICESTORM_SPRAM) spr_max=$(avail ICESTORM_SPRAM)
# Clocks, the network clock first (the net clk of the board tops, which
# mk/board.mk's clocks.py constrains; else the most constrained), then the
# others: name achieved constraint
clocks=$(jq -r '.fmax | to_entries | sort_by([(.key != "clk"), -.value.constraint]) | .[] | "\(.key) \(.value.achieved) \(.value.constraint)"' "$rep")
[ -n "$clocks" ] || clocks="none 0 0"
read -r net_name fmax _ <<<"$(head -1 <<<"$clocks")"
seed=$(cat "$dir/seed.txt" 2>/dev/null || echo 1)   # nextpnr placement seed (mk/board.mk)
miss=
# the other clocks: the slowest against its own target
bus_name= bus_fmax= bus_freq=
while read -r name ach con; do
    t=$(awk -v c="$con" 'BEGIN { printf "%.2f", int(c * 100 + 0.5) / 100 }')
    if [ -z "$bus_name" ] || awk -v a="$ach" -v t="$t" -v b="$bus_fmax" -v u="$bus_freq" 'BEGIN { exit !(a - t < b - u) }'; then
        bus_name=$name bus_fmax=$ach bus_freq=$t
    fi
    if awk -v f="$ach" -v t="$t" 'BEGIN { exit !(f + 0 < t + 0) }'; then
        miss="$miss clock $name: Fmax $ach MHz < $t MHz;"
    fi
done < <(tail -n +2 <<<"$clocks")
if awk -v f="$fmax" -v t="$freq" 'BEGIN { exit !(f + 0 < t + 0) }'; then
    miss="$miss network clock $net_name: Fmax $fmax MHz < $freq MHz;"
fi
{
    echo "board=$board"
    echo "lut=$lut"
    echo "ff=$ff"
    echo "carry=$carry"
    echo "ebr=$ebr"
    echo "spram=$spram"
    echo "lc=$lc"
    echo "lc_max=$lc_max"
    echo "ram_max=$ram_max"
    echo "spram_max=$spr_max"
    echo "fmax=$fmax"
    echo "freq=$freq"
    if [ -n "$bus_name" ]; then
        echo "bus_fmax=$bus_fmax"
        echo "bus_freq=$bus_freq"
    fi
    echo "seed=$seed"
} >"$dir/summary.txt"
printf '%-10s LUT %5d  FF %5d  LC %5d/%-5d  EBR %2d/%-2d  SPRAM %d/%d  Fmax %6.2f MHz (target %s, seed %s)\n' \
    "$board" "$lut" "$ff" "$lc" "$lc_max" "$ram" "$ram_max" "$spr" "$spr_max" "$fmax" "$freq" "$seed"
if [ -n "$bus_name" ]; then
    printf '%-10s bus clock %s: Fmax %6.2f MHz (target %s)\n' "$board" "$bus_name" "$bus_fmax" "$bus_freq"
fi
if [ -n "$goal" ]; then
    if awk -v f="$fmax" -v t="$goal" 'BEGIN { exit !(f + 0 < t + 0) }'; then
        printf '%s: the goal of %s MHz is not met (network clock Fmax %.2f MHz): docs/boards.md says what fails\n' "$board" "$goal" "$fmax"
    else
        echo "$board: the network clock meets the goal of $goal MHz"
    fi
fi
if [ -n "$miss" ]; then
    echo "board_report: $board misses timing:$miss lower BOARD_FREQ_$board in mk/board.mk or choose a smaller torus (docs/boards.md)" >&2
    exit 1
fi
