#!/usr/bin/env bash
# Benchmark: point-to-point transfers on the simulated 7x7x7 torus in every
# switching technique (cs, sf, relay, and sf and relay in packets) over
# distances 1..9 for several message lengths, and over message lengths
# 1, 2, 4, .. up to the memory at distance 9: measured cycles beside the
# model, the device's closed form and the lecture's formula at the
# hardware's constants (docs/switching.md). Every point is a full device
# run (torusctl run p2p --sweep runs one per point).
# Usage: tests/e2e/bench_p2p.sh TORUSCTL
set -u
T=${1:?usage: bench_p2p.sh TORUSCTL}
status=0
for mu in ${TN_P2P_MU:-1 16 64}; do
    t0=$(date +%s)
    "$T" run p2p --dims 7x7x7 --msg-flits "$mu" --sweep || status=1
    echo "(mu $mu: $(( $(date +%s) - t0 )) s of wall time)"
    echo
done
t0=$(date +%s)
"$T" run p2p --dims 7x7x7 --sweep=msg-flits || status=1
echo "(message lengths 1..memory at delta 9: $(( $(date +%s) - t0 )) s of wall time)"
exit $status
