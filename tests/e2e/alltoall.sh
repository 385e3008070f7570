#!/usr/bin/env bash
# End to end: the personalised all-to-all on the simulated 3x3x3 torus (a
# step is a round; the models' 1024-round table holds every schedule here,
# 26 steps at most). Oracles are the
# theory, not earlier runs: Lambda of the DOR traffic from the ring-crossing
# count ((k^2-1)/8 pairs cross a + arc of an odd k-ring, times k^2 rows:
# all-port; n - 1 single-port), a liquid schedule has exactly Lambda steps,
# measured cycles equal the reference model and the closed form (sum over
# steps of alpha + longest Lee distance + L, computed from the traffic),
# which lies between Lambda (alpha + 1 + L) and steps (alpha + diameter + L);
# every CRC matches. TAP output.
# Usage: tests/e2e/alltoall.sh TORUSCTL
set -u
T=${1:?usage: alltoall.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
run() {
    local name=$1; shift
    "$T" run alltoall "$@" --json >"$tmp/$name.json" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
    [ "$(cat "$tmp/$name.rc")" = 0 ] || sed 's/^/# /' "$tmp/$name.err" | head -10
}

k=3 nodes=27 diam=3
lambda_all=$(( (k * k - 1) / 8 * k * k ))   # 9
lambda_single=$((nodes - 1))                 # 26
"$T" info --dims 3x3x3 --json >"$tmp/info.json" 2>"$tmp/info.err"
check "the 3x3x3 model reports ROUNDS 1024 (a round table deep enough for every step)" \
    "$([ "$(field .rounds "$tmp/info.json" 2>/dev/null)" = 1024 ]; echo $?)"
alpha=$(field .alpha "$tmp/info.json")

for case in "liquid 6 1 " "liquid 6 4 " "round-robin 6 2 " "liquid 1 2 " \
            "liquid 1 3 --lanes 1" "round-robin 1 1 --lanes 1"; do
    set -- $case
    sch=$1 ports=$2 L=$3; shift 3
    name="a-$sch-$ports-$L-${1:-}"
    run "$name" --dims 3x3x3 --schedule "$sch" --ports "$ports" --msg-flits "$L" "$@"
    f="$tmp/$name.json"
    what="alltoall $sch ports=$ports L=$L${1:+ (LANES=1 model)}"
    steps=$(field .alltoall.steps "$f" 2>/dev/null)
    meas=$(field .cycles_measured "$f" 2>/dev/null)
    lam=$lambda_all
    [ "$ports" = 1 ] && lam=$lambda_single
    check "$what: exit 0, every CRC matches" \
        "$([ "$(cat "$tmp/$name.rc")" = 0 ] && [ "$(field .data_ok "$f")" = true ]; echo $?)"
    check "$what: measured = model = closed form" \
        "$([ -n "$meas" ] && [ "$meas" = "$(field .cycles_model "$f")" ] &&
           [ "$meas" = "$(field .cycles_formula "$f")" ]; echo $?)"
    check "$what: Lambda = $lam (ring-crossing count) and 702 transfers" \
        "$([ "$(field .alltoall.lambda "$f")" = "$lam" ] &&
           [ "$(field .alltoall.transfers "$f")" = $((nodes * (nodes - 1))) ]; echo $?)"
    check "$what: Lambda (alpha+1+L) <= cycles <= steps (alpha+diameter+L)" \
        "$([ -n "$meas" ] && [ "$meas" -ge $((lam * (alpha + 1 + L))) ] &&
           [ "$meas" -le $((steps * (alpha + diam + L))) ]; echo $?)"
    if [ "$sch" = liquid ]; then
        check "$what: the schedule is liquid (steps = Lambda)" \
            "$([ "$steps" = "$lam" ] && [ "$(field .alltoall.liquid "$f")" = true ]; echo $?)"
    else
        check "$what: round-robin has n - 1 = 26 steps on 3x3x3 (no step congests)" \
            "$([ "$steps" = $((nodes - 1)) ]; echo $?)"
    fi
done
# Liquid beats round-robin on the all-port torus at the same L.
run lq --dims 3x3x3 --msg-flits 2
check "all-port L=2: liquid measures fewer cycles than round-robin" \
    "$([ "$(field .cycles_measured "$tmp/lq.json")" -lt \
         "$(field .cycles_measured "$tmp/a-round-robin-6-2-.json")" ]; echo $?)"

# --algo names the schedule kind as --schedule does.
"$T" run alltoall --dims 3x3x3 --algo round-robin --json >"$tmp/algo-rr.json" 2>/dev/null
check "run alltoall --algo round-robin: the round-robin schedule (26 steps), data and cycles ok" \
    "$([ "$(field .rounds "$tmp/algo-rr.json")" = 26 ] && [ "$(field .data_ok "$tmp/algo-rr.json")" = true ] &&
       [ "$(field .cycles_ok "$tmp/algo-rr.json")" = true ]; echo $?)"

# The space-time diagram: well-formed SVG, one band per (transfer, link):
# the sum of Lee distances over all ordered pairs, 27 x (6x1 + 12x2 + 8x3).
"$T" run alltoall --dims 3x3x3 --svg "$tmp/a.svg" >/dev/null 2>&1
check "run alltoall --svg writes well-formed SVG (xmllint)" \
    "$(xmllint --noout "$tmp/a.svg" 2>/dev/null; echo $?)"
check "the diagram has 27 x 54 = 1458 bands (one per transfer and link)" \
    "$([ "$(grep -c 'class="band"' "$tmp/a.svg")" = 1458 ]; echo $?)"
"$T" schedule alltoall --dims 3x3x3 --svg "$tmp/nodir/a.svg" >/dev/null 2>"$tmp/svgerr"
check "an unwritable --svg path exits 1 and leaves nothing" \
    "$([ $? = 1 ] && [ ! -e "$tmp/nodir" ]; echo $?)"

# Export, verify (with the model) and run the JSON schedule.
"$T" schedule alltoall --dims 3x3x3 --msg-flits 2 --json "$tmp/s.json" >"$tmp/s.out" 2>&1
check "schedule alltoall --json exits 0 with no violation" \
    "$([ $? = 0 ] && grep -q 'violations 0' "$tmp/s.out"; echo $?)"
"$T" verify "$tmp/s.json" --model >"$tmp/v.out" 2>&1
check "verify --model accepts the exported all-to-all" "$([ $? = 0 ]; echo $?)"
"$T" run --schedule "$tmp/s.json" --json >"$tmp/fs.json" 2>"$tmp/fs.err"
check "the exported schedule runs on the device and passes" \
    "$([ $? = 0 ] && [ "$(field .collective "$tmp/fs.json")" = alltoall ]; echo $?)"
jq 'del(.rounds[0].circuits[0])' "$tmp/s.json" >"$tmp/bad.json"
"$T" verify "$tmp/bad.json" >"$tmp/bad.out" 2>&1
check "a schedule missing one transfer fails verification (exit 3, missing-delivery)" \
    "$([ $? = 3 ] && grep -q 'missing-delivery' "$tmp/bad.out"; echo $?)"

"$T" run alltoall --dims 3x3x3 --schedule fastest >/dev/null 2>"$tmp/u.err"
check "an unknown --schedule exits 1 with a message" "$([ $? = 1 ] && [ -s "$tmp/u.err" ]; echo $?)"
"$T" run alltoall --dims 3x3x3 --ports 6 --lanes 1 >"$tmp/p6.out" 2>&1
check "all-port traffic on the LANES=1 model exits 3 naming the lanes" \
    "$([ $? = 3 ] && grep -q 'streams with 1 lane' "$tmp/p6.out"; echo $?)"

done_tap
