#!/usr/bin/env bash
# End to end: scatter and gather as relay rounds of head-routed packets
# on the simulated 3x3x3 torus (the routers route heads by DOR or along
# the six arc-disjoint trees, hold the path until the tail). Oracles: the
# single-port FDF scatter equals its closed form max_k (S_k + d_k) +
# alpha, which is the optimum (Theorem 1) and is recomputed here from the
# lengths and Lee distances; the all-port scatter (DOR tree or six trees,
# also on 7x7x7) is at least the all-port lower bound; the gather runs its
# phases as two relay rounds of real packets (tokens and certificates;
# orders and data), each equal to the certificate algorithm's timing, and
# the whole gather lies between max(b, M) and Theorem 3's bound;
# shoulder-tap on the path along X from the root (6x1x1, 7x7x7) runs its
# calls and data in one round, alpha + T; measured = model everywhere and
# every CRC matches. TAP output.
# Usage: tests/e2e/scatter_gather.sh TORUSCTL
set -u
T=${1:?usage: scatter_gather.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
run() {
    local name=$1; shift
    "$T" run "$@" --json >"$tmp/$name.json" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
    [ "$(cat "$tmp/$name.rc")" = 0 ] || sed 's/^/# /' "$tmp/$name.err" | head -10
}
same3() { # measured = model = formula
    local f=$1 m
    m=$(field .cycles_measured "$f" 2>/dev/null)
    [ -n "$m" ] && [ "$m" = "$(field .cycles_model "$f")" ] && [ "$m" = "$(field .cycles_formula "$f")" ]
}
"$T" info --dims 3x3x3 --json >"$tmp/info.json" 2>/dev/null
alpha=$(field .alpha "$tmp/info.json")

# Lee distance on 3x3x3 between node ids a and b.
lee() {
    local a=$1 b=$2 d=0 k
    for k in 0 1 2; do
        local x=$(( a % 3 )) y=$(( b % 3 )) f
        a=$(( a / 3 )); b=$(( b / 3 ))
        f=$(( (y - x + 3) % 3 ))
        [ $f -gt 0 ] && d=$((d + 1))
    done
    echo $d
}
# FDF closed form from a lengths file: back to back by decreasing distance.
fdf() {
    local file=$1 root=$2 S=0 T=0 d v
    local -a len
    read -r -a len < <(tr '\n' ' ' <"$file")
    for d in 3 2 1; do
        for v in $(seq 0 26); do
            [ "$v" = "$root" ] && continue
            [ "${len[$v]}" -gt 0 ] || continue
            [ "$(lee "$root" "$v")" = "$d" ] || continue
            S=$((S + len[v] + 1))
            [ $((S + d)) -gt $T ] && T=$((S + d))
        done
    done
    echo $((T + alpha))
}

# Lengths with null messages, from a file.
for v in $(seq 0 26); do echo $(( (v * 7 + 3) % 6 )); done >"$tmp/len.txt"
for root in 0 13; do
    name="sc1-$root"
    run "$name" scatter --dims 3x3x3 --ports 1 --root "$root" --lengths "$tmp/len.txt"
    f="$tmp/$name.json"
    check "scatter 1-port root $root, lengths file with nulls: exit 0, every CRC matches" \
        "$([ "$(cat "$tmp/$name.rc")" = 0 ] && [ "$(field .data_ok "$f")" = true ]; echo $?)"
    check "scatter 1-port root $root: measured = model = alpha + FDF time" "$(same3 "$f"; echo $?)"
    want=$(fdf "$tmp/len.txt" "$root")
    check "scatter 1-port root $root: = the optimum recomputed here, $want (Theorem 1)" \
        "$([ "$(field .cycles_measured "$f")" = "$want" ] &&
           [ "$(field .scatter.optimum "$f")" = $((want - alpha)) ]; echo $?)"
done
run sc1-l1 scatter --dims 3x3x3 --lanes 1 --msg-flits 3
check "scatter on the LANES=1 model (single-port root by construction): exit 0, measured = model = formula" \
    "$([ "$(cat "$tmp/sc1-l1.rc")" = 0 ] && same3 "$tmp/sc1-l1.json"; echo $?)"
for tree in dor six; do
    what=$([ $tree = dor ] && echo "the DOR tree" || echo "the six trees")
    run "sc6-$tree" scatter --dims 3x3x3 --ports 6 --tree $tree --msg-flits 4 --random-lengths --seed 3
    f=$tmp/sc6-$tree.json
    check "scatter all-port on $what, random lengths: exit 0, measured = model = formula" \
        "$([ "$(cat "$tmp/sc6-$tree.rc")" = 0 ] && same3 "$f" &&
           [ "$(field .scatter.tree "$f")" = $tree ]; echo $?)"
    check "scatter all-port on $what: >= alpha + the all-port lower bound, < M (any single-port scatter needs > M)" \
        "$([ "$(field .cycles_measured "$f")" -ge $((alpha + $(field .scatter.lower "$f"))) ] &&
           [ "$(field .cycles_measured "$f")" -lt "$(field .scatter.flits "$f")" ]; echo $?)"
done
check "the six trees beat the DOR tree here (the default picks them)" \
    "$([ "$(field .cycles_measured "$tmp/sc6-six.json")" -lt "$(field .cycles_measured "$tmp/sc6-dor.json")" ]; echo $?)"
# The issue's case: 7x7x7, lengths 0..8, packets routed along the six trees.
run sc6-777 scatter --dims 7x7x7 --ports 6 --msg-flits 8 --random-lengths
f=$tmp/sc6-777.json
check "scatter 7x7x7 on the six trees, lengths 0..8: exit 0, measured = model = formula, >= the bound" \
    "$([ "$(cat "$tmp/sc6-777.rc")" = 0 ] && same3 "$f" && [ "$(field .scatter.tree "$f")" = six ] &&
       [ "$(field .cycles_measured "$f")" -ge $((alpha + $(field .scatter.lower "$f"))) ]; echo $?)"
"$T" schedule scatter --dims 3x3x3 --ports 6 --tree six --msg-flits 2 --json "$tmp/six.json" >/dev/null 2>&1
check "a six-tree scatter's JSON names each packet's tree and runs from the file" \
    "$(jq -e '[.rounds[0].relays[].tree] | all(. == "X+" or . == "X-" or . == "Y+" or . == "Y-" or . == "Z+" or . == "Z-")' \
          "$tmp/six.json" >/dev/null &&
       "$T" run --schedule "$tmp/six.json" >/dev/null 2>&1; echo $?)"
jq '.rounds[0].relays[0].tree = "W+"' "$tmp/six.json" >"$tmp/badtree.json"
"$T" verify "$tmp/badtree.json" >/dev/null 2>"$tmp/bt.err"
check "a relay with an unknown tree is refused, naming the six" \
    "$([ $? = 1 ] && grep -q 'X+, X-, Y+, Y-, Z+ or Z-' "$tmp/bt.err"; echo $?)"
"$T" run scatter --dims 3x3x3 --ports 1 --tree six >/dev/null 2>"$tmp/s1.err"
check "--tree six with one port exits 1 saying the six trees are all-port" \
    "$([ $? = 1 ] && grep -q 'all-port scatter' "$tmp/s1.err"; echo $?)"

for root in 0 22; do
    name="ga-$root"
    run "$name" gather --dims 3x3x3 --root "$root" --msg-flits 5 --random-lengths --seed 11
    f="$tmp/$name.json"
    check "gather root $root, random lengths: exit 0, every CRC matches" \
        "$([ "$(cat "$tmp/$name.rc")" = 0 ] && [ "$(field .data_ok "$f")" = true ]; echo $?)"
    check "gather root $root: measured = model = certificate timing, the whole gather" \
        "$(same3 "$f"; echo $?)"
    check "gather root $root: tokens and certificates (round 1), orders and data (round 2): each measured = model = the algorithm's round" \
        "$([ "$(field '.rounds' "$f")" = 2 ] &&
           [ "$(field '.per_round[0].measured' "$f")" = "$(field .gather.sync_round "$f")" ] &&
           [ "$(field '.per_round[0].model' "$f")" = "$(field .gather.sync_round "$f")" ] &&
           [ "$(field '.per_round[1].measured' "$f")" = "$(field .gather.data_round "$f")" ] &&
           [ "$(field '.per_round[1].model' "$f")" = "$(field .gather.data_round "$f")" ]; echo $?)"
    total=$(field .cycles_measured "$f")
    check "gather root $root: max(b, M) <= measured whole gather $total <= Theorem 3 bound + 2 alpha + 1" \
        "$([ "$(field .gather.lower "$f")" -le "$total" ] &&
           [ "$total" -le $(( $(field .gather.bound "$f") + 2 * alpha + 1 )) ]; echo $?)"
done

# Shoulder-tap (Theorem 2) on the path along X from the root: calls and data in one round.
for dims in 6x1x1 7x7x7; do
    run "st-$dims" gather --algo shoulder-tap --dims "$dims" --msg-flits 4 --random-lengths --seed 3
    f="$tmp/st-$dims.json"
    check "shoulder-tap on $dims: exit 0, one round, measured = model = alpha + T, every CRC, lower <= T" \
        "$([ "$(cat "$tmp/st-$dims.rc")" = 0 ] && same3 "$f" && [ "$(field .rounds "$f")" = 1 ] &&
           [ "$(field .data_ok "$f")" = true ] &&
           [ "$(field .cycles_formula "$f")" = $((alpha + $(field .gather.time "$f"))) ] &&
           [ "$(field .gather.lower "$f")" -le "$(field .gather.time "$f")" ]; echo $?)"
done
# (seed 3: both path nodes of 6x1x1 and all three of 7x7x7 have non-null messages)
check "shoulder-tap on 6x1x1 gathers the path's 2 messages, 7x7x7's 3 (the other nodes' are left out)" \
    "$([ "$(field .gather.messages "$tmp/st-6x1x1.json")" = 2 ] &&
       [ "$(field .gather.path_nodes "$tmp/st-6x1x1.json")" = 2 ] &&
       [ "$(field .gather.messages "$tmp/st-7x7x7.json")" = 3 ] &&
       [ "$(field .gather.path_nodes "$tmp/st-7x7x7.json")" = 3 ]; echo $?)"
"$T" schedule gather --algo shoulder-tap --dims 2x3x2 >/dev/null 2>"$tmp/st2.err"
check "shoulder-tap with DIM_X < 3 exits 1 saying it needs DIM_X >= 3" \
    "$([ $? = 1 ] && grep -q 'DIM_X >= 3' "$tmp/st2.err"; echo $?)"
"$T" schedule gather --algo fastest --dims 3x3x3 >/dev/null 2>"$tmp/sta.err"
check "gather --algo other than certificates or shoulder-tap exits 1 naming both" \
    "$([ $? = 1 ] && grep -q 'use certificates .* or shoulder-tap' "$tmp/sta.err"; echo $?)"

# The gather's schedule file: control packets as words, run from the file.
"$T" schedule gather --dims 3x3x3 --msg-flits 2 --json "$tmp/gs.json" >/dev/null 2>&1
run gs-file --schedule "$tmp/gs.json"
check "a gather's JSON holds its control packets as words (26 tokens of none, 52 certificates and orders of one) and runs from the file: measured = model" \
    "$([ "$(jq '[.rounds[].relays[] | select(has("words")) | .words | length] | (map(select(. == 0)) | length), (map(select(. == 1)) | length)' "$tmp/gs.json" | tr '\n' ' ')" = "26 52 " ] &&
       [ "$(cat "$tmp/gs-file.rc")" = 0 ] && [ "$(field .data_ok "$tmp/gs-file.json")" = true ] &&
       [ "$(field .cycles_measured "$tmp/gs-file.json")" = "$(field .cycles_model "$tmp/gs-file.json")" ]; echo $?)"

run ga-l1 gather --dims 3x3x3 --lanes 1 --msg-flits 3 --random-lengths --seed 2
check "gather on the LANES=1 model: exit 0, measured = model = certificate timing" \
    "$([ "$(cat "$tmp/ga-l1.rc")" = 0 ] && same3 "$tmp/ga-l1.json"; echo $?)"

# Space-time diagram of a gather: well-formed, one band per (packet, link).
run gsvg gather --dims 3x3x3 --msg-flits 2 --svg "$tmp/g.svg"
# 26 data packets over 54 links; 78 control packets (a token, a certificate and an
# order per tree edge) over one link each, a head and, but for the tokens, a value word.
check "run gather --svg writes well-formed SVG: per packet and link (132) a grey head flit, then the data packets' messages (54) and the certificates' and orders' words (52)" \
    "$(xmllint --noout "$tmp/g.svg" 2>/dev/null && [ "$(grep -c 'class="band"' "$tmp/g.svg")" = 238 ] &&
       [ "$(grep -c 'class="band".*fill="#999"' "$tmp/g.svg")" = 132 ] &&
       [ "$(grep -c 'class="band".*fill="#444"' "$tmp/g.svg")" = 52 ]; echo $?)"

# JSON export of a scatter with msg_lengths, verified with the model, run.
"$T" schedule scatter --dims 3x3x3 --ports 1 --msg-flits 3 --random-lengths --json "$tmp/s.json" \
    >"$tmp/s.out" 2>&1
check "schedule scatter --json: exit 0, no violation, msg_lengths written" \
    "$([ $? = 0 ] && grep -q 'violations 0' "$tmp/s.out" && jq -e '.msg_lengths | length == 27' "$tmp/s.json" >/dev/null; echo $?)"
"$T" run --schedule "$tmp/s.json" --json >"$tmp/fs.json" 2>"$tmp/fs.err"
check "the exported scatter runs on the device and passes" \
    "$([ $? = 0 ] && [ "$(field .collective "$tmp/fs.json")" = scatter ]; echo $?)"
# Two packets made to collide: refused by the verifier before loading.
jq '.rounds[0].relays[1].start = .rounds[0].relays[0].start' "$tmp/s.json" >"$tmp/bad.json"
"$T" run --schedule "$tmp/bad.json" >"$tmp/bad.out" 2>&1
check "a colliding relay schedule exits 3 (relay-collision or lanes) before anything is loaded" \
    "$([ $? = 3 ] && grep -Eq 'meet on arc|lane' "$tmp/bad.out"; echo $?)"

# Bad input.
echo "1 2 x" >"$tmp/badlen.txt"
"$T" run scatter --dims 3x3x3 --lengths "$tmp/badlen.txt" >/dev/null 2>"$tmp/bl.err"
check "a bad lengths file exits 1 naming the line" "$([ $? = 1 ] && grep -q 'line 1' "$tmp/bl.err"; echo $?)"
seq 1 5 >"$tmp/short.txt"
"$T" run scatter --dims 3x3x3 --lengths "$tmp/short.txt" >/dev/null 2>"$tmp/sl.err"
check "a lengths file with 5 of 27 lengths exits 1" "$([ $? = 1 ] && grep -q '5 lengths' "$tmp/sl.err"; echo $?)"
"$T" run gather --dims 3x3x3 --root 27 >/dev/null 2>"$tmp/r.err"
check "a root outside the torus exits 1" "$([ $? = 1 ] && [ -s "$tmp/r.err" ]; echo $?)"
"$T" run scatter --dims 3x3x3 --tree bfs >/dev/null 2>"$tmp/t.err"
check "--tree other than dor, six or auto exits 1 naming them" \
    "$([ $? = 1 ] && grep -q 'use dor, six or auto' "$tmp/t.err"; echo $?)"

for i in $(seq 27); do echo 0; done >"$tmp/zeros.txt"
for k in scatter gather; do
    "$T" run $k --dims 3x3x3 --lengths "$tmp/zeros.txt" >"$tmp/z.out" 2>&1
    check "$k with every message null: exit 0, said so, no bound line (no unsigned wrap)" \
        "$([ $? = 0 ] && grep -q 'every message is null' "$tmp/z.out" &&
           ! grep -qE 'bounds |optimum |18446744' "$tmp/z.out"; echo $?)"
done
check "gather with every message null: the root still polls every node (tokens and certificates, round 1, measured = model)" \
    "$(grep -qE 'phases 1-2 +round 1 \(tokens, certificates\): measured ([0-9]+), model \1,' "$tmp/z.out"; echo $?)"
"$T" run scatter --dims 3x3x3 --ports 1 >"$tmp/s1.out" 2>&1
check "scatter prints scatter lines only (its optimum, no gather phases)" \
    "$(grep -q '^optimum' "$tmp/s1.out" && ! grep -qE 'synchronisation|gather total' "$tmp/s1.out"; echo $?)"

done_tap
