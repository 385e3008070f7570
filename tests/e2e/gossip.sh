#!/usr/bin/env bash
# End to end on the simulated torus: `torusctl run` computes, verifies,
# compiles and loads each collective through the host bridge of the
# Verilator model, runs it and checks every eject descriptor against the
# reference model. This script checks what the issue asks of that path:
# measured cycles equal the model's, the 7x7x7 paper gossip equals the
# closed form 4 alpha + 12 + 400 L (its long-message variant 5 alpha + 13 +
# 155 L), every CRC matches, and deliberate
# corruption is caught with node, round and lane named. TAP output.
# Usage: tests/e2e/gossip.sh TORUSCTL [FT_EMU_RUN]
set -u
T=${1:?usage: gossip.sh TORUSCTL [FT_EMU_RUN]}
EMU=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# The device's alpha, as INFO reports it, and its PARAMS (docs/hardware.md:
# BANKS = 2^ceil(log2 LANES), DW = log2(MEM_DEPTH) + 2, relay hardware).
"$T" info --dims 3x3x3 --json >"$tmp/info.json" 2>"$tmp/info.err"
check "info on the 3x3x3 model answers with its geometry" \
    "$([ "$(jq -c .dims "$tmp/info.json" 2>/dev/null)" = "[3,3,3]" ]; echo $?)"
check "info on the 3x3x3 model: ROUNDS 1024, 8 banks, DW 14 (MEM_DEPTH 4096), relay" \
    "$([ "$(jq -c '[.rounds, .banks, .dw, .relay, .mem_depth]' "$tmp/info.json" 2>/dev/null)" = \
         "[1024,8,14,true,4096]" ]; echo $?)"
"$T" info --dims 3x3x3 --lanes 1 --json >"$tmp/info1.json" 2>/dev/null
check "info on the 3x3x3 LANES=1 model: 1 bank" \
    "$([ "$(jq -c '[.lanes, .banks]' "$tmp/info1.json" 2>/dev/null)" = "[1,1]" ]; echo $?)"
alpha=$(field .alpha "$tmp/info.json")

# run NAME ARGS...: runs torusctl run --json, keeps rc, output and stderr.
run() {
    local name=$1; shift
    "$T" run "$@" --json >"$tmp/$name.json" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}
rc() { cat "$tmp/$1.rc"; }

for dims in 3x3x3 7x7x7; do
    for L in 1 8; do
        # 3x3x3: the default (cheapest) algorithm; 7x7x7: the paper's.
        algo=auto
        [ "$dims" = 7x7x7 ] && algo=dp
        {
            name="g-$dims-$L-$algo"
            run "$name" gossip --dims "$dims" --msg-flits "$L" --algo "$algo"
            f="$tmp/$name.json"
            check "gossip $dims L=$L algo=$algo: exit 0, every CRC matches" \
                "$([ "$(rc "$name")" = 0 ] && [ "$(field .data_ok "$f")" = true ]; echo $?)"
            check "gossip $dims L=$L algo=$algo: measured cycles equal the reference model" \
                "$([ "$(field .cycles_measured "$f")" = "$(field .cycles_model "$f")" ] &&
                   [ "$(field .cycles_measured "$f")" -gt 0 ]; echo $?)"
            if [ "$algo" = dp ]; then
                want=$((4 * alpha + 12 + 400 * L))
                check "gossip 7x7x7 dp L=$L: measured cycles equal 4 alpha + 12 + 400 L = $want" \
                    "$([ "$(field .cycles_measured "$f")" = "$want" ]; echo $?)"
            fi
            [ "$(rc "$name")" = 0 ] || sed 's/^/# /' "$tmp/$name.err" | head -20
        }
    done
done

# The long-message variant: colour pieces leave through inject chains.
name=g-long
run "$name" gossip --dims 7x7x7 --msg-flits 3 --algo dp-long
f="$tmp/$name.json"
want=$((5 * alpha + 13 + 155 * 3))
check "gossip 7x7x7 dp-long L=3: exit 0, every CRC matches, measured = model = 5 alpha + 13 + 155 L = $want" \
    "$([ "$(rc "$name")" = 0 ] && [ "$(field .data_ok "$f")" = true ] &&
       [ "$(field .cycles_measured "$f")" = "$(field .cycles_model "$f")" ] &&
       [ "$(field .cycles_measured "$f")" = "$want" ]; echo $?)"
[ "$(rc "$name")" = 0 ] || sed 's/^/# /' "$tmp/$name.err" | head -20

# The split ring (a part of every message per dimension, all ports busy):
# 7x7x7 at L = 9, the largest L its 4096-word memory holds (3 parts of 3,
# 3087 words a node): 9 alpha + 9 + 171 P; 3x3x3 at L = 64 (3 parts of 22,
# 2 flits padding): 3 alpha + 3 + 13 P.
for c in "7x7x7 9 9 9 171 3" "3x3x3 64 3 3 13 22"; do
    set -- $c
    name="split-$1"
    run "$name" gossip --dims "$1" --msg-flits "$2" --algo split-ring
    f="$tmp/$name.json"
    want=$(($3 * alpha + $4 + $5 * $6))
    check "gossip $1 split-ring L=$2: every CRC matches, measured = model = $3 alpha + $4 + $5 P = $want" \
        "$([ "$(rc "$name")" = 0 ] && [ "$(field .data_ok "$f")" = true ] &&
           [ "$(field .cycles_measured "$f")" = "$(field .cycles_model "$f")" ] &&
           [ "$(field .cycles_measured "$f")" = "$want" ] &&
           [ "$(field .part_flits "$f")" = "$6" ]; echo $?)"
    [ "$(rc "$name")" = 0 ] || sed 's/^/# /' "$tmp/$name.err" | head -20
done
# A schedule the device's memory cannot hold: exit 1, one line, the longest L that fits.
"$T" run gossip --msg-flits 64 >"$tmp/big.out" 2>&1
r=$?
check "run gossip --msg-flits 64 on 7x7x7 (4096 words a node): exit 1, one line naming 22638 words and L = 9" \
    "$([ $r = 1 ] && [ "$(wc -l <"$tmp/big.out")" = 1 ] &&
       grep -q 'needs 22638 flit memory words a node, the device has 4096 (MEM_DEPTH): with --algo split-ring the longest --msg-flits that fits is 9' "$tmp/big.out"; echo $?)"
"$T" schedule gossip >"$tmp/cross.out" 2>&1
check "schedule gossip on 7x7x7 names where the cheapest algorithm changes with L" \
    "$(grep -qx 'cheapest at alpha 1 by message length (L <= 4096): class-ring L 1-2, 4-5, 7-8, 10, 13, 16; split-ring L 3, 6, 9, 11-12, 14-15, 17+' "$tmp/cross.out"; echo $?)"

# run --dump: after the report, the node's tables and records as the
# hardware filed them; its records (round, lane, flits, CRC) are the
# reference model's predicted statistics for that node.
"$T" run gossip --dims 3x3x3 --algo ring --dump 13 >"$tmp/dump.out" 2>&1
r=$?
awk '/^eject lane/ { lane = $3 + 0 }
     /^    round [0-9]+, / { round = $2 + 0 }
     /^        record:/ { crc = $10; sub(",", "", crc); print round "," lane "," $2 ",0x" crc }' \
    "$tmp/dump.out" | sort >"$tmp/dump.rec"
"$T" schedule gossip --dims 3x3x3 --algo ring --json "$tmp/r3.json" >/dev/null 2>&1
"$T" verify --model --stats "$tmp/r3s.csv" "$tmp/r3.json" >/dev/null 2>&1
awk -F, '$2 == 13 { print $1 "," $3 "," $6 "," $7 }' "$tmp/r3s.csv" | sort >"$tmp/model.rec"
check "run --dump 13: exit 0, node 13's $(wc -l <"$tmp/dump.rec") records (round, lane, flits, CRC) are the model's, all filed by the run" \
    "$([ $r = 0 ] && [ -s "$tmp/dump.rec" ] && cmp -s "$tmp/dump.rec" "$tmp/model.rec" &&
       ! grep -q 'not filed' "$tmp/dump.out"; echo $?)"
"$T" run gossip --dims 3x3x3 --msg-flits 8 --svg-rounds "$tmp/rounds.svg" --json >"$tmp/sr.json" 2>&1
check "run --svg-rounds: a bar per round measured and one modelled, their heights the run's figures" \
    "$(xmllint --noout "$tmp/rounds.svg" 2>/dev/null &&
       [ "$(grep -c 'class="bar"' "$tmp/rounds.svg")" = $((2 * $(field .rounds "$tmp/sr.json"))) ] &&
       [ "$(grep -o 'round 1 measured: [0-9]* cycles' "$tmp/rounds.svg" | grep -o '[0-9]* cycles')" = \
         "$(field '.per_round[0].measured' "$tmp/sr.json") cycles" ]; echo $?)"
"$T" run gossip --dims 3x3x3 --dump 27 >/dev/null 2>"$tmp/dump.err"
r=$?
check "run --dump 27 on 3x3x3: exit 1 before loading, naming the node range" \
    "$([ $r = 1 ] && grep -q 'not a node of 3x3x3 (0..26)' "$tmp/dump.err"; echo $?)"

for dims in 3x3x3 7x7x7; do
    name="b-$dims"
    run "$name" broadcast --dims "$dims" --msg-flits 4
    f="$tmp/$name.json"
    check "broadcast $dims: exit 0, data and cycles as modelled and as the closed form" \
        "$([ "$(rc "$name")" = 0 ] && [ "$(field .data_ok "$f")" = true ] &&
           [ "$(field .cycles_measured "$f")" = "$(field .cycles_model "$f")" ] &&
           [ "$(field .cycles_measured "$f")" = "$(field .cycles_formula "$f")" ]; echo $?)"
done

# Single-port: the LANES=1 model runs the single-port schedule.
run l1 gossip --dims 3x3x3 --lanes 1 --msg-flits 2
check "LANES=1 model: single-port gossip on 3x3x3 passes" \
    "$([ "$(rc l1)" = 0 ] && [ "$(field .lanes "$tmp/l1.json")" = 1 ] &&
       [ "$(field .data_ok "$tmp/l1.json")" = true ]; echo $?)"

# The JSON report: dims as [X, Y, Z]; a corrupted payload is an error object.
"$T" run gossip --dims 3x3x3 --fault payload:4 --json >"$tmp/fpj.json" 2>/dev/null
check "run --json: dims [3,3,3]; the corrupted payload an error {kind data, round, node, lane, message}" \
    "$(jq -e '.dims == [3,3,3] and (.errors[0] | .kind == "data" and (.round | type) == "number" and
               (.node | type) == "number" and (.lane | type) == "number" and (.message | startswith("data:")))' \
          "$tmp/fpj.json" >/dev/null; echo $?)"

# A flipped payload bit at node 4 is caught where the message lands.
"$T" run gossip --dims 3x3x3 --fault payload:4 >"$tmp/fp.out" 2>&1
r=$?
check "a corrupted payload exits 3" "$([ $r = 3 ]; echo $?)"
check "a corrupted payload is reported with round, node and lane" \
    "$(grep -Eq '^MISMATCH round [0-9]+ node [0-9]+ lane [0-9]+: data' "$tmp/fp.out"; echo $?)"

# A round loaded one cycle short: its last flits arrive after the round.
"$T" run gossip --dims 3x3x3 --msg-flits 4 --fault duration:1 >"$tmp/fd.out" 2>&1
r=$?
check "a round table one cycle short exits 3 with node, round and lane named" \
    "$([ $r = 3 ] && grep -Eq '^MISMATCH round 1 node [0-9]+ lane [0-9]+' "$tmp/fd.out"; echo $?)"

# One cycle short of a 3-cycle round (the device's shortest, which the
# default gossip's rounds at L = 1 are) would change nothing: refused
# before anything is loaded, the round named.
"$T" run gossip --dims 3x3x3 --fault duration:1 >"$tmp/fd3.out" 2>&1
r=$?
check "a duration fault on a 3-cycle round exits 1, naming the round and why" \
    "$([ $r = 1 ] && grep -q 'duration:1: round 1 lasts 3 cycles' "$tmp/fd3.out"; echo $?)"

# Only the first round run (NROUNDS 1): the later rounds' records keep the
# epoch of an earlier run and are reported as not filed.
"$T" run gossip --dims 3x3x3 --fault rounds:1 >"$tmp/fr.out" 2>&1
r=$?
check "a run cut short exits 3 and reports round 2's records as not filed, node and lane named" \
    "$([ $r = 3 ] && grep -Eq '^MISMATCH round 2 node [0-9]+ lane [0-9]+: not filed' "$tmp/fr.out"; echo $?)"

# A corrupted schedule file (round 1's second circuit reuses the first's
# arcs) is refused by the verifier before anything is loaded.
"$T" schedule gossip --dims 3x3x3 --json "$tmp/s.json" >/dev/null 2>&1
jq '.rounds[0].circuits[1].arcs = .rounds[0].circuits[0].arcs' "$tmp/s.json" >"$tmp/bad.json"
"$T" run --schedule "$tmp/bad.json" >"$tmp/bs.out" 2>&1
r=$?
check "a corrupted schedule file exits 3 naming the round" \
    "$([ $r = 3 ] && grep -q 'round' "$tmp/bs.out"; echo $?)"
"$T" run --schedule "$tmp/s.json" >"$tmp/gs.out" 2>&1
check "the same schedule file, uncorrupted, runs and passes" "$([ $? = 0 ]; echo $?)"
"$T" run gossip --schedule "$tmp/s.json" >"$tmp/gs2.out" 2>&1
check "run gossip --schedule FILE (the collective named) runs it" "$([ $? = 0 ]; echo $?)"
"$T" run broadcast --schedule "$tmp/s.json" >/dev/null 2>"$tmp/gs3.err"
check "run broadcast --schedule FILE of a gossip: exit 1, the file's collective named" \
    "$([ $? = 1 ] && grep -q 'holds a gossip schedule, not broadcast' "$tmp/gs3.err"; echo $?)"

# A missing model says how to build it (exit 2).
"$T" run gossip --dims 5x5x5 --sim-dir "$tmp/none" >"$tmp/nm.out" 2>&1
r=$?
check "a missing simulator model exits 2 and says how to build it" \
    "$([ $r = 2 ] && grep -q 'make sim-model DIMS=5x5x5' "$tmp/nm.out"; echo $?)"

# A model without waveform support (the 7x7x7, as built by default: only the
# 3x3x3 has it) refuses --trace before anything runs, saying how to
# rebuild it, and leaves no waveform file.
if grep -q 'trace 0' "$(dirname "$T")/sim/libtnsim_7x7x7.so.buildtime" 2>/dev/null; then
    "$T" run gossip --algo dp --trace "$tmp/w.fst" >"$tmp/nt.out" 2>"$tmp/nt.err"
    r=$?
    check "--trace on the 7x7x7 model (no waveform support) exits 2, names the rebuild, no file" \
        "$([ $r = 2 ] && grep -q "make sim-model DIMS=7x7x7 SIM_TRACE=1" "$tmp/nt.err" &&
           [ ! -e "$tmp/w.fst" ] && [ ! -s "$tmp/nt.out" ]; echo $?)"
fi

# Usage errors exit 1 with a message; --help exits 0.
"$T" run gossip --msg-flits 0 >/dev/null 2>"$tmp/u.err"
check "a bad option value exits 1 with a message" \
    "$([ $? = 1 ] && [ -s "$tmp/u.err" ]; echo $?)"
"$T" run --help >"$tmp/h.out" 2>&1
check "run --help exits 0 and documents the exit codes" \
    "$([ $? = 0 ] && grep -q 'exit codes' "$tmp/h.out"; echo $?)"

# The unmodified CLI over the usb backend, through libftdi1/libusb to an
# emulated FT2232H whose channel B is the 3x3x3 model.
if [ -n "$EMU" ]; then
    "$EMU" -m sim:3x3x3 -- "$T" run gossip --dims 3x3x3 --backend usb --json \
        >"$tmp/usb.json" 2>"$tmp/usb.err"
    r=$?
    check "gossip 3x3x3 over the usb backend (emulated FT2232H) passes" \
        "$([ $r = 0 ] && [ "$(field .data_ok "$tmp/usb.json")" = true ] &&
           [ "$(field .cycles_measured "$tmp/usb.json")" = "$(field .cycles_model "$tmp/usb.json")" ]; echo $?)"
    [ $r = 0 ] || sed 's/^/# /' "$tmp/usb.err" | head -20
fi

done_tap
