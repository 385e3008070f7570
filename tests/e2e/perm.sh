#!/usr/bin/env bash
# End to end: permutation traffic on the simulated device (torusctl run perm,
# docs/switching.md "Permutations"). Relay: every packet leaves at once and
# what collides is dropped; the device must lose exactly the packets the
# reference model loses, with every node's collision, unroutable-head and
# dropped-flit counters equal to the model's, in the closed form's cycles
# (alpha + longest distance + 1 + L). Circuits: the liquid rounds deliver
# everything (every CRC), rounds >= Lambda, cycles = the sum of alpha +
# longest distance + L per round. Store and forward: rounds of one-hop
# circuits, rounds x (alpha + 1 + L). TAP output.
# Also: options given to run for a collective they do not apply to.
# Usage: tests/e2e/perm.sh TORUSCTL
set -u
T=${1:?usage: perm.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

run() { # NAME DIMS ARGS...: run perm --json into $tmp/NAME.json, exit code in $tmp/NAME.rc
    local name=$1 dims=$2
    shift 2
    "$T" run perm --dims "$dims" --json "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
    [ "$(cat "$tmp/$name.rc")" = 0 ] || sed 's/^/# /' "$tmp/$name.err" | head -3
}

same_as_model() { # NAME: exit 0, records and counters = model, cycles = model = formula
    local f=$tmp/$1.json
    [ "$(cat "$tmp/$1.rc")" = 0 ] && [ "$(field .data_ok "$f")" = true ] &&
        [ "$(field .cycles_ok "$f")" = true ] &&
        [ "$(field .cycles_measured "$f")" = "$(field .cycles_model "$f")" ] &&
        [ "$(field .cycles_model "$f")" = "$(field .cycles_formula "$f")" ]
}

relay_point() { # NAME DIMS ARGS...: relay run, device = model, losses asserted by the caller
    local name=$1
    run "$@" --switching relay
    local f=$tmp/$name.json
    check "$name: exit 0, device = model in cycles ($(field .cycles_measured "$f")), records and router counters" \
        "$(same_as_model "$name"; echo $?)"
    check "$name: $(field .perm.lost "$f") of $(field .perm.transfers "$f") packets lost, as the model says; collisions $(field .perm.collisions "$f") = model, dropped flits $(field .perm.dropped_flits "$f") = model" \
        "$([ "$(field .perm.lost "$f")" = "$(field .perm.lost_model "$f")" ] &&
           [ "$(field .perm.collisions "$f")" = "$(field .perm.collisions_model "$f")" ] &&
           [ "$(field .perm.dropped_flits "$f")" = "$(field .perm.dropped_flits_model "$f")" ]
           echo $?)"
}

# random permutations on 3x3x3: some lose packets, some do not
lossy=0
for seed in 1 2 3 4 5 6; do
    relay_point "relay-random-$seed" 3x3x3 --permutation random --seed "$seed" --msg-flits 4
    [ "$(field .perm.lost "$tmp/relay-random-$seed.json")" -gt 0 ] && lossy=$((lossy + 1))
done
check "3x3x3 random relay: $lossy of 6 seeds lose packets (collisions happen and are matched)" \
    "$([ "$lossy" -gt 0 ]; echo $?)"
relay_point relay-tornado-3 3x3x3 --permutation tornado --msg-flits 2
check "tornado on 3x3x3 (shift 1 per dimension: a packet turns at every hop, off the arcs its neighbours hold): nothing lost" \
    "$([ "$(field .perm.lost "$tmp/relay-tornado-3.json")" = 0 ]; echo $?)"
relay_point relay-random-7 7x7x7 --permutation random --msg-flits 2
relay_point relay-tornado-7 7x7x7 --permutation tornado --msg-flits 2
check "tornado on 7x7x7 (shift 3): every head meets its neighbour's packet on X+ at the first hop: all 343 lost, 343 collisions" \
    "$([ "$(field .perm.lost "$tmp/relay-tornado-7.json")" = 343 ] &&
       [ "$(field .perm.collisions "$tmp/relay-tornado-7.json")" = 343 ]; echo $?)"

for p in random tornado transpose; do
    run "cs-$p" 3x3x3 --permutation "$p" --switching cs --msg-flits 4 --time 2
    f=$tmp/cs-$p.json
    check "cs $p on 3x3x3: exit 0, every CRC, measured = model = formula, $(field .perm.rounds "$f") rounds >= Lambda $(field .perm.lambda "$f") = rounds run" \
        "$(same_as_model "cs-$p" && [ "$(field .perm.rounds "$f")" -ge "$(field .perm.lambda "$f")" ] &&
           [ "$(field .rounds "$f")" = "$(field .perm.rounds "$f")" ]; echo $?)"
done

for p in random tornado; do
    run "sf-$p" 3x3x3 --permutation "$p" --switching sf --msg-flits 4
    f=$tmp/sf-$p.json
    check "sf $p on 3x3x3: exit 0, every CRC, measured = model = $(field .perm.rounds "$f") rounds x (alpha + 1 + L)" \
        "$(same_as_model "sf-$p" && [ "$(field .cycles_formula "$f")" = $(( $(field .perm.rounds "$f") * ($(field .alpha "$f") + 1 + 4) )) ]; echo $?)"
done
"$T" run perm --dims 3x3x3 --permutation bit-reversal >/dev/null 2>"$tmp/err"
check "bit-reversal on 27 nodes: exit 1 with the reason" \
    "$([ $? = 1 ] && grep -q 'power of 2' "$tmp/err"; echo $?)"
"$T" run perm --dims 3x3x3 --permutation shuffle >/dev/null 2>"$tmp/err"
check "unknown --permutation: exit 1 naming the choices" \
    "$([ $? = 1 ] && grep -q 'tornado' "$tmp/err"; echo $?)"
"$T" run gossip --dims 3x3x3 --permutation tornado >/dev/null 2>"$tmp/err"
check "--permutation with another collective: exit 1 naming the option and the collective" \
    "$([ $? = 1 ] && grep -q -- '--permutation does not apply to gossip' "$tmp/err"; echo $?)"
for bad in "gather --ports 6" "gossip --lengths x" "scatter --algo dp" "alltoall --root 3" \
           "broadcast --switching cs" "p2p --time 3"; do
    # shellcheck disable=SC2086
    "$T" run $bad --dims 3x3x3 >/dev/null 2>"$tmp/err"
    check "run $bad: an option that does not apply is exit 1 naming it" \
        "$([ $? = 1 ] && grep -q -- "--$(echo "$bad" | sed 's/.*--\([a-z-]*\).*/\1/') does not apply" "$tmp/err"; echo $?)"
done
"$T" schedule gossip --dims 3x3x3 --json "$tmp/g.json" >/dev/null 2>&1
"$T" run --schedule "$tmp/g.json" --msg-flits 4 >/dev/null 2>"$tmp/err"
check "run --schedule FILE --msg-flits 4: the file holds the collective, exit 1" \
    "$([ $? = 1 ] && grep -q -- '--msg-flits does not apply to a schedule file' "$tmp/err"; echo $?)"
done_tap
