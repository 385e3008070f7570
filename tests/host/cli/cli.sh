#!/usr/bin/env bash
# torusctl behaviour and golden tests (TAP). Usage: cli.sh path/to/torusctl
# Each case: expected exit code, optional golden stdout (tests/host/cli/golden),
# optional text the stderr must contain.
set -u
T=$1
here=tests/host/cli
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

# t DESC RC GOLDEN|- STDERR-SUBSTRING|- -- COMMAND...
t() {
    local desc=$1 want=$2 golden=$3 errsub=$4
    shift 5
    n=$((n + 1))
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? why=""
    [ "$rc" -eq "$want" ] || why="exit $rc, want $want"
    if [ -z "$why" ] && [ "$golden" != - ] && ! cmp -s "$tmp/out" "$here/golden/$golden"; then
        why="stdout differs from golden/$golden"
        diff "$here/golden/$golden" "$tmp/out" | head -10 | sed 's/^/# /'
    fi
    if [ -z "$why" ] && [ "$errsub" != - ] && ! grep -qF -- "$errsub" "$tmp/err"; then
        why="stderr lacks '$errsub'"
    fi
    if [ -z "$why" ]; then
        echo "ok $n - $desc"
    else
        echo "not ok $n - $desc ($why)"
        sed 's/^/# stderr: /' "$tmp/err" | head -5
        failed=$((failed + 1))
    fi
}

cond() { local d=$1; shift; n=$((n + 1)); if "$@" >/dev/null; then echo "ok $n - $d"; else failed=$((failed + 1)); echo "not ok $n - $d"; fi; }

# help and usage
t "torusctl --help lists the commands" 0 - - -- "$T" --help
t "no command is a usage error" 1 - "usage: torusctl" -- "$T"
"$T" --version >"$tmp/ver" 2>&1
if [ $? = 0 ] && grep -qE '^torusctl [0-9a-z.-]+ \(loads design version [0-9]+' "$tmp/ver"; then
    n=$((n + 1)); echo "ok $n - --version names the build and the design version it loads"
else
    n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - --version names the build and the design version"
fi
t "unknown command is a usage error" 1 - "unknown command 'frobnicate'" -- "$T" frobnicate
for c in schedule verify; do
    t "$c --help exits 0" 0 - - -- "$T" "$c" --help
done
t "schedule: unknown option" 1 - "unknown or incomplete option '--bogus'" -- "$T" schedule gossip --bogus
t "schedule: bad dims" 1 - "bad --dims '7x0'" -- "$T" schedule gossip --dims 7x0
t "schedule: bad msg-flits" 1 - "bad --msg-flits '0'" -- "$T" schedule gossip --msg-flits 0
t "schedule: unknown collective" 1 - "unknown collective 'reduce'" -- "$T" schedule reduce
t "schedule: dp on 5x5x5 is refused with the alternatives" 1 - "choose from: ring" -- \
    "$T" schedule gossip --dims 5x5x5 --algo dp
t "schedule: root outside the torus" 1 - "--root 27 is not a node of the 3x3x3 torus" -- \
    "$T" schedule broadcast --dims 3x3x3 --root 27

# golden outputs (cost figures checked against the closed forms in docs/host.md)
t "schedule gossip dp 7x7x7: 4 rounds, 4 alpha + 12 + 400 L" 0 schedule-gossip-dp-7x7x7.out - -- \
    "$T" schedule gossip --dims 7x7x7 --algo dp
t "schedule gossip dp 7x7x7 L=4 alpha=3: 4*3 + 12 + 1600" 0 schedule-gossip-dp-L4-a3.out - -- \
    "$T" schedule gossip --algo dp --msg-flits 4 --alpha 3
t "schedule gossip dp-long 7x7x7 L=2: 5 rounds, 5 alpha + 13 + 155 L" 0 schedule-gossip-dp-long-L2.out - -- \
    "$T" schedule gossip --algo dp-long --msg-flits 2
t "schedule gossip default on 4x4x4 at L=2 (class-ring)" 0 schedule-gossip-4x4x4.out - -- \
    "$T" schedule gossip --dims 4x4x4 --msg-flits 2
t "schedule broadcast dp 7x7x7 from node 100" 0 schedule-broadcast-dp.out - -- \
    "$T" schedule broadcast --algo dp --root 100
t "schedule gossip ring 3x1x1 as JSON" 0 schedule-gossip-3.json - -- \
    "$T" schedule gossip --dims 3 --json -

# export -> verify, and verify of a file written by hand
t "schedule writes a JSON file" 0 - - -- "$T" schedule gossip --algo dp --json "$tmp/dp.json"
t "verify accepts the exported dp schedule" 0 - - -- "$T" verify "$tmp/dp.json"
t "verify --model runs the reference model on it" 0 - - -- "$T" verify --model "$tmp/dp.json"
t "verify --model --stats writes the predicted statistics" 0 - - -- \
    "$T" verify --model --stats "$tmp/stats.csv" --seed 7 "$tmp/dp.json"
n=$((n + 1))
# 294 + 294*6... : one line per eject descriptor: 6*49 + 6*49 + 6*49 + 6*49 = 1176
if [ "$(wc -l <"$tmp/stats.csv")" -eq 1177 ] &&
   grep -q '^4,1,0,[0-9]*,[0-9]*,343,0x[0-9a-f]*,0$' "$tmp/stats.csv"; then
    echo "ok $n - stats CSV: 1176 eject streams, round 4 (the last) delivers 343 flits to node 1"
else
    echo "not ok $n - stats CSV content"; failed=$((failed + 1))
fi
t "verify --lanes 1 rejects the all-port schedule (exit 3)" 3 - "violation" -- \
    "$T" verify --lanes 1 "$tmp/dp.json"
t "verify --mem-depth 256 rejects 344 words (exit 3)" 3 - - -- \
    "$T" verify --mem-depth 256 "$tmp/dp.json"
t "verify reports a seeded arc conflict (exit 3, golden)" 3 verify-conflict.out - -- \
    "$T" verify "$here/bad/conflict.json"
t "verify --json=FILE of the seeded conflict: exit 3" 3 - - -- \
    "$T" verify --json="$tmp/vc.json" "$here/bad/conflict.json"
cond "... the JSON: ok false, the arc-conflict as an object with its round (from 1), circuit, arc, node" \
    jq -e '.ok == false and .violation_count == 1 and (.violations[0] | .kind == "arc-conflict" and
           .round == 1 and .circuit == 6 and .arc == 0 and .node == 1)' "$tmp/vc.json"
t "verify --json of the dp schedule: the report on stdout" 0 - - -- \
    "$T" verify --json --model "$tmp/dp.json"
cond "... ok, cost 4 alpha + 12 + 400 = 416 cycles, lower bound 69, plan and model 416 cycles" \
    jq -e '.ok and .cost.cycles == 416 and .lower_bound.cycles == 69 and .plan.cycles == 416 and
           .model.cycles == 416 and .dims == [7,7,7]' "$tmp/out"
t "verify reports a missing delivery (exit 3)" 3 - "1 violation" -- \
    "$T" verify "$here/bad/missing.json"

# malformed files: exit 1 with the position and the reason
t "missing file" 1 - "cannot open /nonexistent.json" -- "$T" verify /nonexistent.json
t "truncated file" 1 - "truncated.json: line 7" -- "$T" verify "$here/bad/truncated.json"
t "wrong type" 1 - "line 6, column 12: rounds[0].circuits[0].src: node must be an integer" -- \
    "$T" verify "$here/bad/wrongtype.json"
t "unknown direction" 1 - "line 6, column 25: rounds[0].circuits[0].arcs[0][1]: unknown direction \"X*\"" -- \
    "$T" verify "$here/bad/direction.json"
t "out-of-range node" 1 - "line 7, column 51: rounds[0].circuits[1].eject[0]: node 3 out of range (0..2)" -- \
    "$T" verify "$here/bad/range.json"

# issue 5: all-to-all, scatter, gather schedules (no device)
t "schedule alltoall: bad --schedule" 1 - "bad --schedule 'fastest': use liquid or round-robin" -- \
    "$T" schedule alltoall --dims 3x3x3 --schedule fastest
t "schedule gossip --schedule is refused (alltoall only)" 1 - "--schedule does not apply to gossip" -- \
    "$T" schedule gossip --dims 3x3x3 --schedule liquid
t "schedule scatter --algo is refused (an option that does not apply)" 1 - \
    "--algo does not apply to scatter" -- "$T" schedule scatter --dims 3x3x3 --algo foo
t "schedule gather --ports is refused" 1 - "--ports does not apply to gather" -- \
    "$T" schedule gather --dims 3x3x3 --ports 6
t "schedule gossip --random-lengths is refused" 1 - "--random-lengths does not apply to gossip" -- \
    "$T" schedule gossip --dims 3x3x3 --random-lengths
t "schedule alltoall --algo round-robin picks round-robin" 0 - - -- \
    "$T" schedule alltoall --dims 3x3x3 --algo round-robin
cond "... its closed form is round-robin's 26 steps" grep -q '^cycles formula      120  (26 alpha' "$tmp/out"
t "schedule alltoall --algo dp: exit 1, the two names" 1 - "use liquid or round-robin" -- \
    "$T" schedule alltoall --dims 3x3x3 --algo dp
t "schedule alltoall: bad --time" 1 - "bad --time '-1'" -- "$T" schedule alltoall --time -1
t "schedule alltoall 3x3x3: liquid, 9 steps = Lambda" 0 - - -- "$T" schedule alltoall --dims 3x3x3
cond "alltoall 3x3x3: of two liquid schedules the one with shorter paths (the quotient search's, 39 cycles; the classes' 42)" \
    grep -q "^schedule            9 steps via quotient (gap to Lambda 0.00%, liquid)" "$tmp/out"
cond "... predicted 39 cycles at alpha 1" grep -q "^predicted cycles 39 at alpha 1" "$tmp/out"
t "schedule alltoall 5x5x5: liquid, 75 steps = Lambda" 0 - - -- "$T" schedule alltoall --dims 5x5x5
cond "alltoall 5x5x5 output names 75 steps via the step classes" grep -q "^schedule            75 steps via classes (gap to Lambda 0.00%, liquid)" "$tmp/out"
t "schedule scatter: dims above 15 refused (4-bit head coordinates)" 1 - "dims up to 15" -- \
    "$T" schedule scatter --dims 16x1x1
t "schedule gather 3x3x3 verifies" 0 - - -- "$T" schedule gather --dims 3x3x3 --msg-flits 2
cond "... and reports its 26 messages and Theorem 3's bounds" \
    sh -c 'grep -q "^messages            26 non-null" "$1" && grep -q "^bounds              lower max(b, M)" "$1"' _ "$tmp/out"
t "run scatter: bad --tree" 1 - "bad --tree 'bfs'" -- "$T" run scatter --tree bfs
t "run: --rounds is gone and says why (every model has 1024 rounds)" 1 - \
    "--rounds is gone: every simulator model has a 1024-round table" -- "$T" run alltoall --rounds 32
t "run: bad --fault lists the kinds" 1 - \
    "use payload:NODE, duration:ROUND, rounds:N or link:NODE:DIR:CYCLE:BIT|drop" -- \
    "$T" run gossip --fault rounds
t "info --help names the PARAMS constants" 0 - - -- "$T" info --help
grep -q "MEM_DEPTH and its banks, ROUNDS, DW, relay and fault injection hardware" "$tmp/out" ||
    { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - info --help lists banks, DW, relay, fault"; }
t "dump without --node is a usage error" 1 - "--node N is required" -- "$T" dump
t "run alltoall --schedule FILE reads the file (here missing: exit 1 naming it)" 1 - "x.json" -- \
    "$T" run alltoall --schedule x.json
t "run alltoall --algo dp: exit 1, the two names" 1 - "bad --algo 'dp' for alltoall: use liquid or round-robin" -- \
    "$T" run alltoall --dims 3x3x3 --algo dp
t "run alltoall --schedule liquid --algo round-robin: exit 1, they disagree" 1 - "disagree" -- \
    "$T" run alltoall --dims 3x3x3 --schedule liquid --algo round-robin
t "svg to an unwritable path: exit 1" 1 - "cannot write /nonexistent/a.svg" -- \
    "$T" schedule gather --dims 3x3x3 --svg /nonexistent/a.svg

# issue 16: deadlock analysis (torusctl cdg, docs/deadlock.md)
t "cdg --help exits 0" 0 - - -- "$T" cdg --help
t "cdg 4x4 mesh XY: acyclic, exit 0" 0 cdg-mesh-4x4.out - -- "$T" cdg --dims 4x4 --mesh
t "cdg ring of 5: the cycle channel by channel, exit 3" 3 cdg-ring-5.out - -- "$T" cdg --dims 5
t "cdg 4x4x4 torus dor: cyclic, exit 3" 3 - - -- "$T" cdg --dims 4x4x4
t "cdg 4x4x4 torus dor-dateline: acyclic, JSON" 0 cdg-dateline-4x4x4.json - -- \
    "$T" cdg --dims 4x4x4 --routing dor-dateline --json
t "cdg 3x3x3 dor: acyclic (a 3-ring never takes two hops in one dimension)" 0 - - -- \
    "$T" cdg --dims 3x3x3
t "cdg 7x7x7 interval: acyclic (tree routing)" 0 - - -- "$T" cdg --dims 7x7x7 --routing interval
t "cdg 16x16x16 updown (4,096 nodes, above the old pairwise limit): acyclic, every pair routed" 0 \
    cdg-updown-16x16x16.out - -- \
    "$T" cdg --dims 16x16x16 --routing updown
t "cdg updown on fig1-fig7.net: acyclic" 0 - - -- \
    "$T" cdg --network data/fig1-fig7.net --routing updown
t "cdg: dor on a network file is refused" 1 - "routing dor needs coordinates" -- \
    "$T" cdg --network data/fig1-fig7.net
t "cdg: neither --dims nor --network" 1 - "give either --dims" -- "$T" cdg
t "cdg: both --dims and --network" 1 - "give either --dims" -- \
    "$T" cdg --dims 3 --network data/fig1-fig7.net
t "cdg: bad --routing" 1 - "bad --routing 'xy'" -- "$T" cdg --dims 3 --routing xy
t "cdg: bad --dims" 1 - "bad --dims '0x3'" -- "$T" cdg --dims 0x3
t "cdg: a mesh has no dateline" 1 - "no dateline" -- "$T" cdg --dims 4x4 --mesh --routing dor-dateline
t "cdg: interval above 8192 nodes is refused" 1 - "at most 8192 nodes" -- \
    "$T" cdg --dims 21x21x21 --routing interval
t "cdg: updown on 256x256x256 is refused before building its network" 1 - "at most 8192 nodes" -- \
    "$T" cdg --dims 256x256x256 --routing updown
t "routing: above 8192 nodes is refused" 1 - "at most 8192 nodes" -- "$T" routing --dims 21x21x21
printf 'node a b c\nlink ab a b\nlink ba b a\nlink bc b c\nlink cb c b\nlink ca c a\nlink ac a c\n' \
    >"$tmp/links-only.net"
t "cdg --network: a file with nodes and links only (no transfers) is read" 0 - - -- \
    "$T" cdg --network "$tmp/links-only.net" --routing updown
printf 'node a<b&c d\nlink x a<b&c d\nlink y d a<b&c\n' >"$tmp/names.net"
t "cdg --svg: node names escaped as XML" 0 - - -- \
    "$T" cdg --network "$tmp/names.net" --routing updown --svg "$tmp/names.svg"
grep -q '>a&lt;b&amp;c</text>' "$tmp/names.svg" && ! grep -q 'a<b' "$tmp/names.svg" ||
    { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - cdg --svg escapes the name a<b&c"; }
t "cdg: missing network file" 1 - "cannot open /nonexistent.net" -- "$T" cdg --network /nonexistent.net --routing updown
t "cdg --svg: the cycle drawn in red" 3 - - -- "$T" cdg --dims 5 --svg "$tmp/cdg.svg"
grep -q 'stroke="#d62728"' "$tmp/cdg.svg" ||
    { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - cdg --svg draws the cycle in red"; }
t "cdg --svg to an unwritable path: exit 1" 1 - "cannot write /nonexistent/a.svg" -- \
    "$T" cdg --dims 5 --svg /nonexistent/a.svg
t "routing 3x3x3: DFS-tree stretch and minimal cyclic ring tables" 0 routing-3x3x3.out - -- \
    "$T" routing --dims 3x3x3
t "routing: bad --dims" 1 - "bad --dims '7x'" -- "$T" routing --dims 7x
t "routing --permutation tornado 4x4x4: no relay loss, one circuit round" 0 - - -- \
    "$T" routing --dims 4x4x4 --permutation tornado --json
grep -q '"relay_lost": 0' "$tmp/out" && grep -q '"circuit_rounds": 1' "$tmp/out" ||
    { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - tornado 4x4x4 JSON: 0 lost, 1 round"; }
t "routing: bad --permutation" 1 - "use random, tornado, bit-reversal or transpose" -- \
    "$T" routing --permutation shuffle
t "routing: bit-reversal on 27 nodes is refused" 1 - "not applicable" -- \
    "$T" routing --dims 3x3x3 --permutation bit-reversal
t "routing: a dimension above 15 is refused with the relay lowering's reason" 1 - \
    "relay heads carry 4-bit coordinates: dimension 0 has 16 nodes" -- \
    "$T" routing --dims 16x4x4 --permutation random --time 60
t "schedule p2p points to run p2p" 1 - "use torusctl run p2p" -- "$T" schedule p2p
t "schedule gossip on 255x255x255 is refused before building, memory named" 1 - "would need about" -- "$T" schedule gossip --dims 255x255x255
t "schedule alltoall on 40x40x40 is refused before building" 1 - "would need about" -- "$T" schedule alltoall --dims 40x40x40
t "verify --stats without --model is a usage error" 1 - "add --model" -- "$T" verify --stats x.csv x.json
t "run --sweep does not apply to gossip" 1 - "--sweep does not apply to gossip" -- "$T" run gossip --sweep
t "schedule scatter 4x4x4 (relay, DOR tree) to JSON" 0 - - -- \
    "$T" schedule scatter --dims 4x4x4 --tree dor --json "$tmp/scatter.json"
t "verify reports the relay tables' CDG as information (exit 0)" 0 - - -- "$T" verify "$tmp/scatter.json"
grep -q "relay routing tables (dor): CDG of 384 channels cyclic (information" "$tmp/out" ||
    { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - verify names the relay CDG cycle"; }

# the paper's Fig. 7 in one command: a network file's traffic scheduled
# (Lambda 6 on the inter-switch links, a liquid schedule of 6 steps
# against round-robin's 7), as JSON and as an SVG chart
# cond DESC COMMAND...: one TAP line, ok when COMMAND succeeds
t "schedule alltoall --network fig1-fig7.net: Lambda 6, a liquid schedule of 6 steps" 0 - - -- \
    "$T" schedule alltoall --network data/fig1-fig7.net --json "$tmp/f7.json" --svg "$tmp/f7.svg"
cond "its report names Lambda 6, bottlenecks l11 l12, 6 liquid steps, round-robin 7" \
    bash -c "grep -qx 'Lambda 6 (bottlenecks l11 l12); liquid throughput 25/6 = 4.17 links' '$tmp/out' &&
             grep -q '^liquid schedule: 6 steps (= Lambda: liquid, .*round-robin 7 steps' '$tmp/out'"
cond "its JSON: 6 steps holding each of the 25 transfers once, no link twice in a step" \
    bash -c "jq -e '.nsteps == 6 and .liquid and .round_robin_steps == 7 and .lambda == 6 and
        ([.steps[][] | .src + \">\" + .dst] | length == 25 and (unique | length) == 25) and
        all(.steps[]; ([.[].links[]] | length) == ([.[].links[]] | unique | length))' \
        '$tmp/f7.json' >/dev/null"
cond "its SVG is well-formed and renders (rsvg-convert), 12 link rows, 6 step columns" \
    bash -c "xmllint --noout '$tmp/f7.svg' && rsvg-convert '$tmp/f7.svg' -o '$tmp/f7.png' &&
             [ -s '$tmp/f7.png' ] && [ \$(grep -c '>step [0-9]*</text>' '$tmp/f7.svg') = 6 ] &&
             [ \$(grep -c 'text-anchor=\"end\"' '$tmp/f7.svg') = 12 ]"
t "schedule alltoall --network --schedule round-robin: 7 steps" 0 - - -- \
    "$T" schedule alltoall --network data/fig1-fig7.net --schedule round-robin
cond "round-robin's report says 7 steps" grep -q '^round-robin schedule: 7 steps' "$tmp/out"
t "--network is for alltoall" 1 - "--network is for alltoall" -- \
    "$T" schedule gossip --network data/fig1-fig7.net
t "--dims does not apply to --network" 1 - "--dims does not apply to --network" -- \
    "$T" schedule alltoall --network data/fig1-fig7.net --dims 3x3x3
t "--network of a missing file: exit 1" 1 - "/nonexistent.net" -- \
    "$T" schedule alltoall --network /nonexistent.net

t "schedule warns when the simulator models' memory cannot hold the schedule" 0 - \
    "22638 flit memory words a node, more than the simulator models' 4096 (MEM_DEPTH): torusctl run refuses it there (the longest --msg-flits that fits with --algo split-ring: 9)" -- \
    "$T" schedule gossip --msg-flits 64

# Space-time diagrams: a label on every row, round numbers, an axis with
# ticks, a legend of the messages, a title the width holds; --svg-rows
# selects links; the PNG rendering (rsvg-convert) is what a reader sees.
t "schedule gossip ring 3x3x3 --svg" 0 - - -- \
    "$T" schedule gossip --dims 3x3x3 --algo ring --svg "$tmp/g3.svg"
cond "the diagram: 162 link rows, each labelled; rounds 1-3 numbered; 27 messages in the legend" \
    bash -c "xmllint --noout '$tmp/g3.svg' && [ \$(grep -c 'class=\"row\"' '$tmp/g3.svg') = 162 ] &&
             [ \$(grep -c 'class=\"round\"' '$tmp/g3.svg') = 3 ] &&
             [ \$(grep -c 'class=\"key\"' '$tmp/g3.svg') = 27 ] && grep -q 'class=\"tick\"' '$tmp/g3.svg'"
cond "it renders to PNG, at least as wide as its title (7.4 px a character)" \
    bash -c "rsvg-convert '$tmp/g3.svg' -o '$tmp/g3.png' && [ -s '$tmp/g3.png' ] &&
             w=\$(sed -n 's/.*<svg [^>]*width=\"\([0-9]*\)\".*/\\1/p' '$tmp/g3.svg') &&
             l=\$(sed -n 's/.*<title>\(.*\)<\/title>$/\\1/p' '$tmp/g3.svg' | head -1 | wc -c) &&
             [ \$w -ge \$((l * 74 / 10)) ]"
t "--svg-rows node:13: the links out of and into node 13" 0 - - -- \
    "$T" schedule gossip --dims 3x3x3 --algo ring --svg "$tmp/g13.svg" --svg-rows node:13
cond "node:13 draws 12 rows: its 6 outputs and the 6 links into it" \
    bash -c "[ \$(grep -c 'class=\"row\"' '$tmp/g13.svg') = 12 ] && grep -q '>13 X+</text>' '$tmp/g13.svg' &&
             grep -q '>12 X+</text>' '$tmp/g13.svg' && grep -q 'links out of and into node 13' '$tmp/g13.svg'"
t "--svg-rows dim:Y: only Y links" 0 - - -- \
    "$T" schedule gossip --dims 3x3x3 --algo ring --svg "$tmp/gy.svg" --svg-rows dim:Y
cond "dim:Y draws the 54 Y links" \
    bash -c "[ \$(grep -c 'class=\"row\"' '$tmp/gy.svg') = 54 ] && ! grep -q ' X+</text>' '$tmp/gy.svg'"
t "--svg-rows node:27 on 3x3x3: exit 1" 1 - "bad --svg-rows 'node:27': use all, node:N (0..26)" -- \
    "$T" schedule gossip --dims 3x3x3 --svg "$tmp/x.svg" --svg-rows node:27
"$T" schedule gossip --dims 8x8 --json "$tmp/g88.json" >/dev/null 2>&1
t "verify --svg-rows dim:Z of an 8x8 schedule: exit 1 (Z has size 1)" 1 - "bad --svg-rows 'dim:Z'" -- \
    "$T" verify --svg "$tmp/x.svg" --svg-rows dim:Z "$tmp/g88.json"

echo "1..$n"
[ "$failed" -eq 0 ]
