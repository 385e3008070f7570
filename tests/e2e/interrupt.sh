#!/usr/bin/env bash
# Ctrl-C during a run (issue 17, device failures): `torusctl run` stops at
# the next reply it waits for, closes the device as usual and exits 130
# with one line; the simulator's FST waveform is complete (its block chain
# ends at the end of the file and holds the hierarchy; no stray .hier
# file), and no output file is left half-written. TAP output.
# Usage: tests/e2e/interrupt.sh TORUSCTL
set -u
T=${1:?usage: interrupt.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# fst_blocks FILE: the block types of an FST file, one per line; fails
# unless the chain of {type, 64-bit big-endian length} blocks ends exactly
# at the end of the file.
fst_blocks() {
    local f=$1 size off=0 len
    size=$(stat -c %s "$f")
    while [ "$off" -lt "$size" ]; do
        od -An -tu1 -j "$off" -N1 "$f" | tr -d ' '
        len=$(od -An -tx1 -j $((off + 1)) -N8 "$f" | tr -d ' \n')
        [ ${#len} = 16 ] || return 1
        off=$((off + 1 + 16#$len))
    done
    [ "$off" = "$size" ]
}

# The 3x3x3 ring gossip at L = 128 with the waveform on (the 7x7x7 model
# has none) takes about a second, most of it loading and reading back:
# SIGINT goes 0.1 s after the waveform file appears, i.e. once the device is
# open. (job control on: a script's background job would ignore SIGINT;
# env puts SIGINT back to its default when this test itself started with it
# ignored, as under nohup or in a background job: torusctl keeps a signal
# ignored that was ignored when it started)
set -m
env --default-signal=INT "$T" run gossip --dims 3x3x3 --algo ring --msg-flits 128 \
    --trace "$tmp/w.fst" --json >"$tmp/out.json" 2>"$tmp/err" &
pid=$!
set +m
for _ in $(seq 500); do [ -e "$tmp/w.fst" ] && break; sleep 0.01; done
sleep 0.1
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT during the run: exit 130" "$([ "$rc" = 130 ]; echo $?)"
check "... one line on stderr saying it was interrupted and the device closed" \
    "$([ "$(grep -vc '^loading words' "$tmp/err")" = 1 ] &&
       grep -q 'interrupted: the run stopped and the device is closed' "$tmp/err"; echo $?)"
check "... no report written (stdout empty)" "$([ ! -s "$tmp/out.json" ]; echo $?)"
blocks=$(fst_blocks "$tmp/w.fst" 2>/dev/null | tr '\n' ' ')
check "... the FST waveform is complete: its blocks end at the end of the file ($blocks)" \
    "$(fst_blocks "$tmp/w.fst" >/dev/null 2>&1; echo $?)"
check "... it starts with the header and holds the hierarchy (block 4, 6 or 7)" \
    "$(case " $blocks" in " 0 "*) ;; *) exit 1 ;; esac; echo "$blocks" | grep -Eq '(^| )(4|6|7)( |$)'; echo $?)"
check "... no stray .hier file beside it" "$([ ! -e "$tmp/w.fst.hier" ]; echo $?)"

done_tap
