#!/usr/bin/env bash
# Benchmark: scatter and gather on the simulated 7x7x7 and 4x4x4 tori (one
# relay round of head-routed packets on the DOR tree or, for the all-port
# scatter, along the six arc-disjoint trees), measured cycles next to the
# model, the optimum (single-port FDF, Theorem 1) or the bounds (all-port
# lower bound; gather max(b, M) and Theorem 3) and the ratio to the lower
# bound; the gather runs its phases as two rounds (tokens and
# certificates; orders and data), the first's cycles apart. Lengths:
# L (uniform), Lr (random 0..L) or skew (32 flits for every 17th node, 1
# for the others).
# Usage: tests/e2e/bench_sg.sh TORUSCTL
set -u
T=${1:?usage: bench_sg.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-7s %-6s %-5s %-4s %-12s %6s %9s %9s %9s %9s %9s %9s %9s %6s %7s %7s %7s %-7s %s\n' \
    what dims ports tree lengths flits measured model formula optimum total lower bound ratio sync \
    sched_s wall_s verdict goal
# scatter: total = measured; optimum (1 port, Theorem 1); lower = alpha +
# Proposition 1 or the all-port bound; bound = the six-tree schedule (6tr).
# gather: total = measured (both rounds), sync = its first round (tokens
# and certificates), lower max(b, M), bound Theorem 3; shoulder-tap (tree
# "path": the root and the nodes after it in X+): one round, optimum
# alpha + T (Theorem 2).
skew() { # dims -> a lengths file
    local n v
    n=$(awk -Fx '{ print $1 * $2 * $3 }' <<<"$1")
    for v in $(seq 0 $((n - 1))); do
        if [ $((v % 17)) = 5 ]; then echo 32; else echo 1; fi
    done >"$tmp/skew-$1.txt"
}
row() { # coll dims ports tree lengths [gather algorithm]
    local coll=$1 dims=$2 ports=$3 tree=$4 lens=$5 algo=${6:-} f=$tmp/$1-$2-$3-$4-$5-${6:-}.json t0 args
    case $lens in
        skew) skew "$dims"; args=(--lengths "$tmp/skew-$dims.txt") ;;
        *r) args=(--msg-flits "${lens%r}" --random-lengths --seed 5) ;;
        *) args=(--msg-flits "$lens") ;;
    esac
    [ "$tree" != - ] && args+=(--tree "$tree")
    [ "$coll" = scatter ] && args+=(--ports "$ports")
    [ -n "$algo" ] && args+=(--algo "$algo")
    t0=$(date +%s%N)
    "$T" run "$coll" --dims "$dims" "${args[@]}" --json >"$f" 2>"$tmp/err"
    local rc=$? wall=$(( ($(date +%s%N) - t0) / 1000000 ))
    if [ ! -s "$f" ]; then
        printf '%-7s %-6s %-5s %-4s %-12s failed (exit %s): %s\n' "$coll" "$dims" "$ports" "$tree" \
            "$lens" "$rc" "$(head -1 "$tmp/err")"
        return
    fi
    jq -r --arg c "$coll" --arg d "$dims" --arg p "$ports" --arg l "$lens" --arg w "$wall" '
        (if $c == "scatter" then .scatter else .gather end) as $g |
        [$c, $d, $p, (if $c == "scatter" and $p == "6" then $g.tree
                      elif $c == "gather" and $g.shoulder_tap then "path" else "dor" end),
         (if ($l | endswith("r")) then "0.." + ($l | rtrimstr("r")) + " rand" else $l end),
         $g.flits, .cycles_measured, .cycles_model, .cycles_formula,
         (if ($c == "scatter" and $p == "1") or $g.shoulder_tap then .alpha + $g.optimum
          else "-" end),
         .cycles_measured,
         (if $c == "gather" then $g.lower else .alpha + $g.lower end),
         (if $c == "gather" and ($g.shoulder_tap | not) then $g.bound else "-" end),
         (if $c == "gather" and ($g.shoulder_tap | not) then .per_round[0].measured else "-" end),
         .wall_s.schedule, $w,
         (if .data_ok and .cycles_ok then "ok" else "MISMATCH" end),
         (if ($c == "scatter" and $p == "1") or $g.shoulder_tap then "= optimum"
          elif $c == "scatter" and $g.tree == "six" then "ratio <= 1.02 (issue 18)"
          elif $c == "gather" then "lower <= total <= bound + 2 alpha + 1"
          else "- (comparison)" end)] | @tsv' "$f" |
        awk -F'\t' '{ lo = $12; r = lo > 0 ? sprintf("%.3f", $11 / lo) : "-"
                     printf "%-7s %-6s %-5s %-4s %-12s %6s %9s %9s %9s %9s %9s %9s %9s %6s %7s %7.3f %7.1f %-7s %s\n",
                     $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,r,$14,$15,$16/1000,$17,$18}'
}
row scatter 7x7x7 1 - 1
row scatter 7x7x7 1 - 8r
row scatter 7x7x7 6 dor 8r
for dims in 7x7x7 4x4x4; do
    for lens in 1 8 8r skew; do
        row scatter "$dims" 6 six "$lens"
    done
done
row gather 7x7x7 1 - 1
row gather 7x7x7 1 - 8r
row gather 7x7x7 1 - 8 shoulder-tap
echo "root 0, alpha from the device; ratio = total / lower; sched_s = building the schedule,"
echo "wall_s = the whole command. gather: measured = both rounds; sync = the first round"
echo "(tokens, a head alone, and certificates, a head and a value word);"
echo "the ratio counts both. six = the six arc-disjoint trees, heads routed along them (--tree six)."
