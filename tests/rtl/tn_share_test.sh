#!/usr/bin/env bash
# One copy of the node's code for all the nodes (rtl/net/tn_node.v,
# docs/NOTES.md "Simulation cost"): in a Verilated model, every function of
# the node class is defined once, not once per node. A Verilog function in
# the node's logic or an input port that loses its public_flat_rd mark gives
# nodes copies of their own again (and the 7x7x7 model several times fewer
# cycles a second, or a build too large to finish): this test fails then.
# Usage: tn_share_test.sh OBJDIR   (the model's build directory, sim/tn_sim_build.sh)
set -u
obj=${1:?usage: tn_share_test.sh OBJDIR}
. "$(dirname "$0")/../e2e/tap.sh"

# the node's source files of the model as built (the model's class list;
# files of earlier builds may lie beside them)
cls=$(ls "$obj"/Vtn_sim_top_classes.mk 2>/dev/null)
files=$(awk '/^VM_CLASSES_FAST/ { on = 1; next } on && /\\$/ { if ($1 ~ /tn_node/) print $1 } on && !/\\$/ { on = 0 }' "$cls" 2>/dev/null)
defs=$(for f in $files; do grep -h '^VL_INLINE_OPT void [A-Za-z0-9_]*tn_node' "$(dirname "$cls")/$f.cpp"; done |
    sed 's/(.*//; s/.*_\(_[a-z]*_[a-z]*__TOP__\).*\(__[0-9]*\)$/\1\2/')
ndef=$(grep -c . <<<"$defs")
dup=$(sort <<<"$defs" | uniq -d | tr '\n' ' ')
[ -n "$cls" ] && [ "$ndef" -gt 0 ]
check "the model's node code found ($ndef function definitions in $(wc -w <<<"$files") files of ${cls##*/})" $?
[ -n "$cls" ] && [ "$ndef" -gt 0 ] && [ -z "$dup" ]
check "every node function defined once for all nodes${dup:+ (more than once: $dup)}" $?
done_tap
