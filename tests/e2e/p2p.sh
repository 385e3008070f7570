#!/usr/bin/env bash
# End to end: point-to-point transfers in each switching technique on the
# simulated 3x3x3 torus (docs/switching.md). For every technique, distance
# 1..3, message 1 and 8 flits, and packets of 2 flits (sf, relay): exit 0,
# every CRC matches, measured = model = the device's closed form, which is
# recomputed here (cs alpha + delta + mu; sf (delta + k - 1)(alpha + 1 + P);
# relay alpha + delta + k + mu), and the lecture's formula is reported with
# its difference. TAP output.
# Usage: tests/e2e/p2p.sh TORUSCTL
set -u
T=${1:?usage: p2p.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
"$T" info --dims 3x3x3 --json >"$tmp/info.json" 2>/dev/null
alpha=$(field .alpha "$tmp/info.json")

closed_form() { # SWITCHING DELTA MU P
    local sw=$1 d=$2 mu=$3 P=$4 k
    k=$(( (mu + P - 1) / P ))
    case $sw in
    cs) echo $((alpha + d + mu)) ;;
    sf) echo $(( (d + k - 1) * (alpha + 1 + P) )) ;;
    relay) echo $((alpha + d + k + mu)) ;;
    esac
}

point() { # SWITCHING DELTA MU [P]
    local sw=$1 d=$2 mu=$3 P=${4:-$3} f="$tmp/p.json" rc m want
    "$T" run p2p --dims 3x3x3 --switching "$sw" --distance "$d" --msg-flits "$mu" \
        ${4:+--packet-flits $4} --json >"$f" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 0 ] || sed 's/^/# /' "$tmp/err" | head -5
    m=$(field .cycles_measured "$f" 2>/dev/null)
    want=$(closed_form "$sw" "$d" "$mu" "$P")
    check "$sw delta $d mu $mu P $P: exit 0, CRC ok, measured = model = closed form $want" \
        "$([ "$rc" = 0 ] && [ "$(field .data_ok "$f")" = true ] && [ "$m" = "$want" ] &&
           [ "$(field .cycles_model "$f")" = "$want" ] && [ "$(field .cycles_formula "$f")" = "$want" ]
           echo $?)"
    check "$sw delta $d mu $mu P $P: the lecture's formula and its difference reported" \
        "$([ "$(field .p2p.measured_minus_lecture "$f")" = \
             $((m - $(field .p2p.cycles_lecture "$f"))) ] && [ "$(field .p2p.distance "$f")" = "$d" ]
           echo $?)"
}

for sw in cs sf relay; do
    for d in 1 2 3; do
        for mu in 1 8; do
            point "$sw" "$d" "$mu"
        done
    done
done
for sw in sf relay; do
    for d in 1 3; do
        point "$sw" "$d" 8 2
    done
done
"$T" run p2p --dims 3x3x3 --switching cs --distance 2 --msg-flits 8 --packet-flits 2 \
    >/dev/null 2>"$tmp/err"
check "cs with packets is refused (exit 1)" "$([ $? = 1 ] && grep -q 'cannot build the p2p' "$tmp/err"; echo $?)"
"$T" run p2p --dims 3x3x3 --distance 4 >/dev/null 2>"$tmp/err"
check "distance above the diameter is refused (exit 1)" "$([ $? = 1 ]; echo $?)"
"$T" run p2p --dims 3x3x3 --root 27 >/dev/null 2>"$tmp/err"
check "a root outside the torus: exit 1 naming the root" \
    "$([ $? = 1 ] && grep -q -- '--root 27 is not a node' "$tmp/err"; echo $?)"
"$T" run p2p --dims 3x3x3 --switching wormhole >/dev/null 2>"$tmp/err"
check "unknown --switching: exit 1 naming the choices" \
    "$([ $? = 1 ] && grep -q 'use cs, sf or relay' "$tmp/err"; echo $?)"
# abbreviated options (--swe, --js, --dist=) must not reach a point: a point
# given --sweep would start a sweep of its own, and so on without end
timeout 300 "$T" run p2p --dims 3x3x3 --msg-flits 8 --swe --js --dist=2 --svg "$tmp/sweep.svg" \
    >"$tmp/sweep.json" 2>"$tmp/err"
check "sweep 3x3x3 mu 8 (options abbreviated): exit 0 without recursing, 5 techniques x 3 distances, every point measured = model = formula" \
    "$([ $? = 0 ] && [ "$(jq '.points | length' "$tmp/sweep.json")" = 15 ] &&
       [ "$(jq '[.points[] | select(.data_ok and .cycles_ok and
                 .cycles_measured == .cycles_model and .cycles_model == .cycles_formula)] | length' \
            "$tmp/sweep.json")" = 15 ]; echo $?)"
grows_by() { # TECHNIQUE CYCLES: every hop of the sweep adds CYCLES
    jq -e --arg t "$1" --argjson c "$2" '[.points[] | select(.switching == $t) | .cycles_measured] |
        . as $m | length == 3 and ([range(1; 3) | $m[.] - $m[. - 1] == $c] | all)' \
        "$tmp/sweep.json" >/dev/null
}
check "sweep: sf grows with distance by alpha + 1 + mu a hop, sf/P by alpha + 1 + P, cs, relay and relay/P by 1 (lecture: SF is distance-sensitive)" \
    "$(grows_by sf $((alpha + 9)) && grows_by sf/P $((alpha + 3)) && grows_by cs 1 &&
       grows_by relay 1 && grows_by relay/P 1; echo $?)"
check "sweep --svg: a line per technique and the lecture's dashed" \
    "$([ "$(grep -c '<polyline' "$tmp/sweep.svg")" = 10 ]; echo $?)"

# over message lengths: 1, 2, 4, .. and the largest the memory holds
depth=$(field .mem_depth "$tmp/info.json")
timeout 300 "$T" run p2p --dims 3x3x3 --sweep=msg-flits --distance 2 --json --svg "$tmp/msg.svg" \
    >"$tmp/msg.json" 2>"$tmp/err"
check "sweep=msg-flits 3x3x3 delta 2: exit 0, every point measured = model = formula" \
    "$([ $? = 0 ] && [ "$(jq '[.points[] | select(.distance == 2 and .data_ok and .cycles_ok and
                 .cycles_measured == .cycles_model and .cycles_model == .cycles_formula)] | length' \
            "$tmp/msg.json")" = "$(jq '.points | length' "$tmp/msg.json")" ]; echo $?)"
last_mu() { jq --arg t "$1" '[.points[] | select(.switching == $t) | .msg_flits] | max' "$tmp/msg.json"; }
check "sweep=msg-flits: cs and sf reach MEM_DEPTH = $depth flits, relay $depth - 1 (its head flit), each technique from mu 1 in powers of 2" \
    "$([ "$(last_mu cs)" = "$depth" ] && [ "$(last_mu sf)" = "$depth" ] &&
       [ "$(last_mu relay)" = $((depth - 1)) ] &&
       jq -e '[.points[] | select(.switching == "cs") | .msg_flits] | .[0:4] == [1, 2, 4, 8]' \
          "$tmp/msg.json" >/dev/null; echo $?)"
"$T" run p2p --dims 3x3x3 --switching relay --distance 2 --msg-flits $((depth)) >/dev/null 2>"$tmp/err"
check "one flit more than the sweep's relay maximum is refused (exit 1, memory named)" \
    "$([ $? = 1 ] && grep -q 'memory words' "$tmp/err"; echo $?)"
per_flit() { # TECHNIQUE CYCLES: each payload flit adds CYCLES (whole-message techniques)
    jq -e --arg t "$1" --argjson c "$2" '[.points[] | select(.switching == $t)] | . as $p |
        [range(1; length) | ($p[.].cycles_measured - $p[. - 1].cycles_measured) ==
         $c * ($p[.].msg_flits - $p[. - 1].msg_flits)] | all' "$tmp/msg.json" >/dev/null
}
check "sweep=msg-flits: cs and relay grow by 1 cycle a flit, sf by delta = 2 (it carries the message delta times)" \
    "$(per_flit cs 1 && per_flit relay 1 && per_flit sf 2; echo $?)"
check "sweep=msg-flits --svg: a line per technique and the lecture's dashed" \
    "$([ "$(grep -c '<polyline' "$tmp/msg.svg")" = 10 ]; echo $?)"
"$T" run p2p --dims 3x3x3 --sweep=msg-flits --distance 4 >/dev/null 2>"$tmp/err"
check "--sweep=msg-flits beyond the diameter: exit 1 naming the range" \
    "$([ $? = 1 ] && grep -q 'use 1..3' "$tmp/err"; echo $?)"
"$T" run p2p --dims 3x3x3 --sweep=latency >/dev/null 2>"$tmp/err"
check "--sweep=latency: exit 1 naming the choices" "$([ $? = 1 ] && grep -q 'msg-flits' "$tmp/err"; echo $?)"
done_tap
