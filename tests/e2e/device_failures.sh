#!/usr/bin/env bash
# A board that fails in the middle of `torusctl run` (issue 17, device
# failures), through the usb backend and an emulated FT2232H whose channel
# B is the 3x3x3 model (ft_emu_run -f): unplugged, silent or sending noise
# from the load's 20th WRITE, the run's START or the readback's first
# READ on, or answering slowly. Each failure exits 2 with one line on
# stderr naming what happened and writes no report; a board slower than
# the timeout but within the retries still gives the right answer. TAP.
# Usage: tests/e2e/device_failures.sh TORUSCTL FT_EMU_RUN
set -u
T=${1:?usage: device_failures.sh TORUSCTL FT_EMU_RUN}
EMU=${2:?usage: device_failures.sh TORUSCTL FT_EMU_RUN}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# board FAILURE: the 3x3x3 gossip over usb with the board failing so;
# keeps rc, the JSON report, stderr and the wall time in ms.
board() {
    local t0=$(date +%s%N)
    timeout -s KILL 120 "$EMU" -m sim:3x3x3 -f "$1" -- "$T" run gossip --dims 3x3x3 \
        --backend usb --timeout 300 --json >"$tmp/out.json" 2>"$tmp/err"
    echo $? >"$tmp/rc"
    echo $(( ($(date +%s%N) - t0) / 1000000 )) >"$tmp/ms"
}
one_line() { [ "$(grep -c . "$tmp/err")" = 1 ] && grep -Eq "^torusctl run: device error: $1" "$tmp/err"; }

for phase in load:20 run readback; do
    what=${phase%%:*}
    board "unplug@$phase"
    check "board unplugged during the $what: exit 2, one line saying so, no report" \
        "$([ "$(cat "$tmp/rc")" = 2 ] && one_line '.*the board was unplugged; replug it' &&
           [ ! -s "$tmp/out.json" ]; echo $?)"
    [ "$(cat "$tmp/rc")" = 2 ] || sed 's/^/# /' "$tmp/err" | head -3
    board "quiet@$phase"
    check "board silent from the $what on: exit 2, one line (no reply after the retries)" \
        "$([ "$(cat "$tmp/rc")" = 2 ] && one_line 'device stopped answering: no reply to .* after 4 attempts' &&
           [ ! -s "$tmp/out.json" ]; echo $?)"
    board "garbage@$phase"
    check "board sending noise from the $what on: exit 2, one line (garbled replies)" \
        "$([ "$(cat "$tmp/rc")" = 2 ] && one_line '.* failed after 4 attempts: garbled reply' &&
           [ ! -s "$tmp/out.json" ]; echo $?)"
done

# The readback's first 8 deliveries 200 ms late, timeout 300 ms: in time
# (every one late would take 34 s: the readback is some 170 of them).
board "slow:200:8@readback"
check "board answering 200 ms late with a 300 ms timeout: exit 0, data ok, 1.6-10 s" \
    "$([ "$(cat "$tmp/rc")" = 0 ] && [ "$(jq -r .data_ok "$tmp/out.json")" = true ] &&
       [ "$(cat "$tmp/ms")" -ge 1600 ] && [ "$(cat "$tmp/ms")" -lt 10000 ]; echo $?)"
# 1.5 s late: beyond 4 attempts of 300 ms.
board "slow:1500@readback"
check "board answering 1.5 s late (beyond 4 attempts of 300 ms): exit 2, one line" \
    "$([ "$(cat "$tmp/rc")" = 2 ] && one_line 'device stopped answering' &&
       [ ! -s "$tmp/out.json" ]; echo $?)"

done_tap
