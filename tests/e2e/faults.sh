#!/usr/bin/env bash
# Link faults on the simulated torus (docs/host.md "Link faults"): a bit
# flipped or a flit dropped on one link in one cycle of a run must show in
# the eject records (CRC, count, timestamps), at the descriptors the link
# feeds in that round (the receiving node named), and nowhere before; a
# fault on a link the schedule leaves idle in that cycle must change
# nothing; a campaign of random faults on the flits a schedule sends finds
# every one and raises no false alarm. In relay rounds a fault is located
# when the device's records of its round are exactly those the reference
# model predicts with the fault (a relay flit goes where its head says);
# a fault on a packet that a collision drops anyway changes nothing
# (masked). TAP output.
# Usage: tests/e2e/faults.sh TORUSCTL
set -u
T=${1:?usage: faults.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# one NAME FAULT [ARGS...]: the 3x3x3 ring gossip (3 rounds, 19 cycles)
# with one link fault; keeps rc, stdout and stderr.
one() {
    local name=$1 fault=$2; shift 2
    "$T" run gossip --dims 3x3x3 --algo ring --fault "link:$fault" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}
rc() { cat "$tmp/$1.rc"; }
has() { grep -q -- "$2" "$tmp/$1.out"; }

# Node 13 = (1,1,1) sends on Z- to node 4 = (1,1,0) in round 3 (cycles
# 8..18); its cycle 10 carries a flit (the model's probe says so).
one flip 13:Z-:10:3
check "a data bit flipped on node 13's Z- link: exit 3 (data wrong)" "$([ "$(rc flip)" = 3 ]; echo $?)"
check "... the record that differs is node 4's (the link's receiver), round 3" \
    "$(grep -q '^MISMATCH round 3 node 4 lane [0-5]: data:' "$tmp/flip.out"; echo $?)"
check "... no record of rounds 1 and 2 differs" \
    "$(! grep -q '^MISMATCH round [12] ' "$tmp/flip.out"; echo $?)"
check "... reported as a flit that passed, detected and located" \
    "$(has flip 'a flit passes; detected' && has flip ': located$'; echo $?)"

one drop 13:Z-:10:drop
# got and expected flit counts of node 4's round-3 record
counts=$(sed -nE 's/^MISMATCH round 3 node 4 lane [0-5]: data: ([0-9]+) flits .*expected ([0-9]+) flits.*/\1 \2/p' \
             "$tmp/drop.out")
check "the same flit dropped: exit 3, node 4's round-3 record is one flit short, located" \
    "$([ "$(rc drop)" = 3 ] && [ -n "$counts" ] && [ $((${counts#* } - ${counts% *})) = 1 ] &&
       has drop ': located$'; echo $?)"

# Round 1 (cycles 0..2) sends one flit per link in its cycle 2: cycle 1 is idle.
one idle 13:Z-:1:3
check "a bit flipped on a link while it is idle changes nothing: exit 0, data ok" \
    "$([ "$(rc idle)" = 0 ] && has idle 'no flit passes' && has idle 'NOT detected'; echo $?)"

one late 13:Z-:19:3
check "a fault after the run's last cycle is refused: exit 1, the run's length named" \
    "$([ "$(rc late)" = 1 ] && grep -q 'the run is shorter (27 nodes, 19 cycles' "$tmp/late.err"; echo $?)"
one badbit 13:Z-:10:19
check "bit 19 of a W 16 flit (W+1 is the head) is refused: exit 1" \
    "$([ "$(rc badbit)" = 1 ] && grep -q 'bits 0..W-1 data' "$tmp/badbit.err"; echo $?)"
for bad in 13:Q+:10:3 13:Z-:x:3 13:Z-:10 :Z-:10:3 13:Z-:10:3:4; do
    "$T" run gossip --dims 3x3x3 --fault "link:$bad" >/dev/null 2>"$tmp/bad.err"
    check "--fault link:$bad is a usage error (exit 1) naming the format" \
        "$([ $? = 1 ] && grep -q 'link:NODE:DIR:CYCLE:BIT|drop' "$tmp/bad.err"; echo $?)"
done

# campaign NAME K ARGS...: --fault-campaign K --json
campaign() {
    local name=$1 k=$2; shift 2
    "$T" run "$@" --fault-campaign "$k" --json >"$tmp/$name.json" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}
sum() { jq "[.faults[].$2] | add" "$tmp/$1.json"; }
for c in "ring gossip 3x3x3;gossip --dims 3x3x3 --algo ring;300" \
         "liquid all-to-all 3x3x3 L=2;alltoall --dims 3x3x3 --msg-flits 2;200" \
         "ring gossip 3x3x3 LANES=1;gossip --dims 3x3x3 --lanes 1;100" \
         "relay scatter 3x3x3 L=4;scatter --dims 3x3x3 --msg-flits 4;300" \
         "relay gather 3x3x3 L=3;gather --dims 3x3x3 --msg-flits 3;300"; do
    IFS=';' read -r what args k <<<"$c"
    name=$(echo "$what" | tr -c 'a-z0-9\n' '_')
    # shellcheck disable=SC2086
    campaign "$name" "$k" $args
    check "campaign, $what: $k faults, every one detected and located (relay: the device = the model with the fault), exit 0" \
        "$([ "$(rc "$name")" = 0 ] && [ "$(sum "$name" injected)" = "$k" ] &&
           [ "$(sum "$name" detected)" = "$k" ] && [ "$(sum "$name" located)" = "$k" ] &&
           [ "$(sum "$name" masked)" = 0 ]; echo $?)"
    check "campaign, $what: data-bit flips and drops both injected, no false alarm" \
        "$([ "$(jq '.faults[0].injected > 0 and .faults[1].injected > 0 and .false_alarms == 0
                    and .fault_free_runs >= 2' "$tmp/$name.json")" = true ]; echo $?)"
    [ "$(rc "$name")" = 0 ] || sed 's/^/# /' "$tmp/$name.err" | head -5
done

campaign perm 400 perm --switching relay --dims 3x3x3 --msg-flits 4 --seed 1
check "campaign, relay permutation with collisions: every fault detected and located or masked (its packet lost anyway), some masked, exit 0" \
    "$([ "$(rc perm)" = 0 ] && [ "$(jq '([.faults[].detected] | add) + ([.faults[].masked] | add)' "$tmp/perm.json")" = 400 ] &&
       [ "$(sum perm located)" = "$(sum perm detected)" ] && [ "$(sum perm masked)" -gt 0 ]; echo $?)"
# scatter from node 0: its X+ link carries a packet's head in cycle 1 and
# body flits after it
relay_one() { # NAME FAULT
    "$T" run scatter --dims 3x3x3 --msg-flits 4 --fault "link:$2" >"$tmp/$1.out" 2>"$tmp/$1.err"
    echo $? >"$tmp/$1.rc"
}
relay_one rhead 0:X+:1:0
check "relay: a coordinate bit of a head flipped: exit 3, detected, located" \
    "$([ "$(rc rhead)" = 3 ] && has rhead 'relay round 1' && has rhead 'detected' &&
       has rhead ': located$'; echo $?)"
relay_one rtail 0:X+:5:16
check "relay: the tail flag of the last flit flipped (the path is not released): exit 3, two records differ, located" \
    "$([ "$(rc rtail)" = 3 ] && has rtail '2 descriptor records differ' && has rtail ': located$'; echo $?)"
relay_one rflag 0:X+:2:17
check "relay: a head flag on a body flit of a held path is forwarded as data: nothing changes (exit 0), as the model says" \
    "$([ "$(rc rflag)" = 0 ] && has rflag 'NOT detected' && has rflag ': located$'; echo $?)"
"$T" run gossip --dims 3x3x3 --fault-campaign 5 --fault link:13:Z-:10:3 >/dev/null 2>"$tmp/both.err"
check "--fault-campaign with --fault is a usage error" \
    "$([ $? = 1 ] && grep -q 'leave out --fault' "$tmp/both.err"; echo $?)"

done_tap
