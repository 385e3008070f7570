#!/usr/bin/env bash
# Benchmark: scatter and gather on the simulated 7x7x7 torus (one relay
# round of head-routed packets on the DOR tree), measured cycles next to
# the model, the optimum (single-port FDF, Theorem 1) or the bounds
# (all-port lower bound; gather max(b, M) and Theorem 3), with the gather's
# modelled synchronisation phases apart. A 7x7x7 run takes 40-80 s of
# wall time (model load and readback through the simulated bridge).
# Usage: tests/e2e/bench_sg.sh TORUSCTL
set -u
T=${1:?usage: bench_sg.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-7s %-5s %-12s %6s %9s %9s %9s %9s %9s %9s %7s %7s %s\n' what ports lengths flits measured \
    model optimum total lower bound sync wall_s verdict
# scatter: total = measured; optimum (1 port, Theorem 1); lower = alpha +
# Proposition 1 or the all-port bound; bound = the six-tree schedule (6tr).
# gather: total = modelled sync and orders + measured data phase, lower
# max(b, M), bound Theorem 3.
row() {
    local coll=$1 ports=$2 lens=$3 f=$tmp/$1-$2-$3.json t0 args
    args=(--msg-flits "${lens%r}")
    [ "${lens%r}" != "$lens" ] && args+=(--random-lengths --seed 5)
    t0=$(date +%s%N)
    "$T" run "$coll" --ports "$ports" "${args[@]}" --json >"$f" 2>"$tmp/err"
    local rc=$? wall=$(( ($(date +%s%N) - t0) / 1000000 ))
    if [ ! -s "$f" ]; then
        printf '%-7s %-5s %-12s failed (exit %s): %s\n' "$coll" "$ports" "$lens" "$rc" "$(head -1 "$tmp/err")"
        return
    fi
    jq -r --arg c "$coll" --arg p "$ports" --arg l "$lens" --arg w "$wall" '
        (if $c == "scatter" then .scatter else .gather end) as $g |
        [$c, $p, (if ($l | endswith("r")) then "0.." + ($l | rtrimstr("r")) + " rand" else $l end),
         $g.flits, .cycles_measured, .cycles_model,
         (if $c == "scatter" and $p == "1" then .alpha + $g.optimum else "-" end),
         (if $c == "gather" then $g.dispatch0 + .cycles_measured - .alpha else .cycles_measured end),
         (if $c == "gather" then $g.lower else .alpha + $g.lower end),
         (if $c == "gather" then $g.bound elif $p == "6" then "6tr:" + (.alpha + $g.sixtree | tostring) else "-" end),
         (if $c == "gather" then $g.t_sync else "-" end), $w,
         (if .data_ok and .cycles_ok then "ok" else "MISMATCH" end)] | @tsv' "$f" |
        awk -F'\t' '{printf "%-7s %-5s %-12s %6s %9s %9s %9s %9s %9s %9s %7s %7.1f %s\n",
                     $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12/1000,$13}'
}
row scatter 1 1
row scatter 1 8r
row scatter 6 8r
row gather 1 1
row gather 1 8r
echo "7x7x7, root 0, alpha from the device. gather: measured = its data phase from the first"
echo "dispatch; total = sync (token and certificates, modelled, not run) + orders + data."
echo "6tr = the paper's six arc-disjoint trees (model only: a relay head follows its DOR route)"
