#!/usr/bin/env bash
# Benchmark of the device path: `torusctl run gossip --algo dp` on the
# simulated 7x7x7 torus through the sim backend and through the usb backend
# (unmodified libftdi1/libusb to an emulated FT2232H whose channel B is the
# same model), split into schedule, compile, load, run and readback wall
# time. The simulator only runs while the host waits, so wall times measure
# the model's speed as much as the host's.
# Usage: tests/e2e/bench_run.sh TORUSCTL FT_EMU_RUN
set -u
T=${1:?usage: bench_run.sh TORUSCTL FT_EMU_RUN}
EMU=${2:?usage: bench_run.sh TORUSCTL FT_EMU_RUN}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-8s %-6s %3s %10s %7s %9s %9s %9s %9s %9s %10s %s\n' backend dims L image_words \
    bursts schedule compile load run readback cycles verdict
row() {
    local backend=$1 dims=$2 L=$3 f=$tmp/$1-$2-$3.json
    if [ "$backend" = usb ]; then
        "$EMU" -m "sim:$dims" -- "$T" run gossip --algo dp --dims "$dims" --msg-flits "$L" \
            --backend usb --json >"$f" 2>"$tmp/err"
    else
        "$T" run gossip --algo dp --dims "$dims" --msg-flits "$L" --json >"$f" 2>"$tmp/err"
    fi
    local rc=$?
    if [ ! -s "$f" ]; then
        printf '%-8s %-6s %3s failed (exit %s): %s\n' "$backend" "$dims" "$L" "$rc" "$(head -1 "$tmp/err")"
        return
    fi
    jq -r --arg b "$backend" '[$b, (.dims | map(tostring) | join("x")), .msg_flits, .image_words, .image_bursts, .wall_s.schedule,
        .wall_s.compile, .wall_s.load, .wall_s.run, .wall_s.readback, .cycles_measured,
        (if .data_ok and .cycles_ok then "ok" else "MISMATCH" end)] | @tsv' "$f" |
        awk -F'\t' '{printf "%-8s %-6s %3s %10s %7s %8.3fs %8.3fs %8.3fs %8.3fs %8.3fs %10s %s\n",
                     $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12}'
}
row sim 7x7x7 1
row sim 7x7x7 8
row usb 7x7x7 1
