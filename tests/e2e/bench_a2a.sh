#!/usr/bin/env bash
# Benchmark: personalised all-to-all on the simulated torus, liquid schedule
# against round-robin, measured cycles (every step one circuit round) next
# to the model, the closed form, Lambda and the throughputs, on the 3x3x3,
# 4x4x4, 5x5x5, 7x7x7 and 8x8x8 models (1024-round tables; single-port
# traffic runs on the LANES=6 model: a single-port schedule uses one lane
# per node). 7x7x7 all-port: the step classes' 294 = Lambda steps at L = 1
# and at L = 5, the longest that fits 4096 words a node; 8x8x8: 640 =
# Lambda steps at L = 1 (about 2 min, most of it reading back 261,632
# records); their round-robins (1644, 3158 rounds) do not fit the round
# table.
# Usage: tests/e2e/bench_a2a.sh TORUSCTL
set -u
T=${1:?usage: bench_a2a.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %-5s %-11s %2s %9s %6s %6s %9s %9s %9s %9s %6s %10s %10s %8s %8s %-7s %s\n' dims \
    ports schedule L transfers Lambda steps measured model formula lower ratio 'thr meas' \
    'thr liquid' 'sched s' 'wall s' verdict goal
row() {
    local dims=$1 ports=$2 sch=$3 L=$4 f=$tmp/$1-$2-$3-$4.json
    local t0
    t0=$(date +%s%N)
    "$T" run alltoall --dims "$dims" --ports "$ports" --schedule "$sch" \
        --msg-flits "$L" --json >"$f" 2>"$tmp/err"
    local rc=$? wall
    wall=$(( ($(date +%s%N) - t0) / 1000000 ))
    if [ ! -s "$f" ]; then
        printf '%-6s %-5s %-11s %2s failed (exit %s): %s\n' "$dims" "$ports" "$sch" "$L" "$rc" \
            "$(head -1 "$tmp/err")"
        return
    fi
    jq -r --arg w "$wall" '[(.dims | map(tostring) | join("x")), "", .algorithm, .msg_flits,
        .alltoall.transfers, .alltoall.lambda, .alltoall.steps, .cycles_measured,
        .cycles_model, .cycles_formula, .alltoall.step_bound, .alltoall.throughput_measured,
        .alltoall.throughput_liquid, .wall_s.schedule, $w,
        (if .data_ok and .cycles_ok then "ok" else "MISMATCH" end),
        (if .alltoall.kind == "round-robin" or .algorithm == "round-robin" then "- (baseline)"
         else "steps <= 1.01 Lambda (issue 18)" end)] | @tsv' "$f" |
        awk -F'\t' -v p="$ports" '{ r = $11 > 0 ? sprintf("%.3f", $8 / $11) : "-"
                     printf "%-6s %-5s %-11s %2s %9s %6s %6s %9s %9s %9s %9s %6s %10.3f %10.3f %8.2f %8.1f %-7s %s\n",
                     $1,p,$3,$4,$5,$6,$7,$8,$9,$10,$11,r,$12,$13,$14,$15/1000,$16,$17}'
}
for ports in 6 1; do
    for sch in liquid round-robin; do
        row 3x3x3 "$ports" "$sch" 1
        row 3x3x3 "$ports" "$sch" 8
    done
done
for ports in 6 1; do
    for sch in liquid round-robin; do
        row 4x4x4 "$ports" "$sch" 1
    done
done
for sch in liquid round-robin; do
    row 5x5x5 6 "$sch" 1
done
row 7x7x7 6 liquid 1
row 7x7x7 6 liquid 5
row 8x8x8 6 liquid 1
echo "lower = Lambda (alpha + 1 + L), the bound for one step per round; ratio = measured / lower;"
echo "sched s = building the schedule (the liquid search), wall s = the whole command"
echo "thr = flits delivered per cycle; liquid = #(X)/Lambda(X) transfers per step"
echo "(= flits/cycle when a step costs L cycles with no switch or path latency)"
