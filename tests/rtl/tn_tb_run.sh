#!/usr/bin/env bash
# Run Icarus testbenches compiled for several parameter sets and print one
# TAP stream: each bench's "ok - what" lines numbered in order, prefixed
# with its parameter set; a bench that does not reach its "# done" line
# (a hang, $fatal, a crash) is one failure.
# Usage: tn_tb_run.sh <label>=<file.vvp>...
set -u
VVP=${VVP:-vvp}
n=0 fail=0
for arg in "$@"; do
    label=${arg%%=*} vvp=${arg#*=}
    out=$(timeout 120 "$VVP" -n "$vvp" 2>&1)
    rc=$?
    while IFS= read -r line; do
        case $line in
            "ok - "*) n=$((n + 1)); echo "ok $n - [$label] ${line#ok - }" ;;
            "not ok - "*) n=$((n + 1)) fail=$((fail + 1)); echo "not ok $n - [$label] ${line#not ok - }" ;;
            *) echo "# $line" ;;
        esac
    done <<<"$out"
    if [ "$rc" -ne 0 ] || ! grep -q '^# done' <<<"$out"; then
        n=$((n + 1)) fail=$((fail + 1))
        echo "not ok $n - [$label] the bench ran to its end (exit status $rc)"
    fi
done
echo "1..$n"
[ "$fail" -eq 0 ]
