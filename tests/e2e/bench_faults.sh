#!/usr/bin/env bash
# Benchmark of link fault detection (issue 17): `torusctl run
# --fault-campaign K` on the simulated 3x3x3 and 7x7x7 tori, one random
# fault (a data bit or a drop on a flit the schedule sends) per run; the
# table gives injected, detected and located faults (masked: on a relay
# packet a collision drops anyway, no change predicted or seen) and the
# false alarms of the fault-free runs between them, beside the goal
# (100 % detected and located or masked, 0 false alarms). Circuit
# schedules (gossip) and relay rounds (scatter, a permutation with
# collisions).
# K per torus: FAULTS_3 (default 10000) and FAULTS_7 (default 1000).
# Usage: tests/e2e/bench_faults.sh TORUSCTL
set -u
T=${1:?usage: bench_faults.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-24s %6s %9s %9s %9s %6s %6s %7s %8s  %s\n' schedule faults injected detected located \
    masked clean false wall goal
row() {
    local what=$1 k=$2 f=$tmp/run.json t0 rc
    shift 2
    t0=$(date +%s.%N)
    "$T" run "$@" --fault-campaign "$k" --json >"$f" 2>"$tmp/err"
    rc=$?
    if [ ! -s "$f" ]; then
        printf '%-24s failed (exit %s): %s\n' "$what" "$rc" "$(grep -v '^fault runs' "$tmp/err" | head -1)"
        return
    fi
    jq -r --arg w "$what" --arg s "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" --arg k "$k" '
        [$w, $k, ([.faults[].injected] | add), (.faults | map("\(.kind) \(.injected)") | join(", ")),
         ([.faults[].detected] | add), ([.faults[].located] | add),
         ([.faults[].masked] | add), .fault_free_runs, .false_alarms, $s] | @tsv' "$f" |
        awk -F'\t' '{printf "%-24s %6s %9s %9s %9s %6s %6s %7s %7.0fs  all detected and located or masked, 0 false\n",
                     $1, $2, $3, $5, $6, $7, $8, $9, $10; print "  (" $4 ")"}'
}
row "3x3x3 gossip (ring)" "${FAULTS_3:-10000}" gossip --dims 3x3x3 --algo ring
row "7x7x7 gossip dp" "${FAULTS_7:-1000}" gossip --dims 7x7x7 --algo dp
row "3x3x3 scatter (relay)" "${FAULTS_3:-10000}" scatter --dims 3x3x3 --msg-flits 4
row "3x3x3 perm relay (coll.)" "${FAULTS_3:-10000}" perm --switching relay --dims 3x3x3 --msg-flits 4
row "7x7x7 scatter (relay)" "${FAULTS_7:-1000}" scatter --dims 7x7x7 --msg-flits 2
