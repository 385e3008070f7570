#!/usr/bin/env bash
# The size of a Verilated model's node object (the C++ class of tn_node in
# the object directory of sim/tn_sim_build.sh): prints "bytes lines header"
# (64-byte lines; the class's header, which tn_sim_build.sh pads), or
# nothing when the headers or the compiler are missing. A
# plane's edges touch the same few fields of each of its nodes, which lie
# one object apart: with an even number of lines a node, those fields share
# a fraction of the L1 data cache's sets (docs/NOTES.md, "What surprised
# us"), so sim/tn_sim_build.sh pads the object to an odd number.
# Usage: sim/tn_node_size.sh OBJ_DIR   (environment: CXX, VERILATOR)
set -u
dir=$1
h=$(ls "$dir"/Vtn_sim_top_tn_node__pi*.h 2>/dev/null | grep -v '__Syms\|DepSet' | head -1)
root=$(${VERILATOR:-verilator} --getenv VERILATOR_ROOT 2>/dev/null)
[ -n "$h" ] && [ -n "$root" ] || exit 0
cls=$(basename "$h" .h) t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
printf '#include "Vtn_sim_top.h"\n#include "%s.h"\n#include <cstdio>\nint main() { printf("%%zu", sizeof(%s)); }\n' \
    "$cls" "$cls" >"$t/size.cpp"
if ${CXX:-c++} -std=c++17 -I"$dir" -I"$root/include" -I"$root/include/vltstd" -o "$t/size" \
    "$t/size.cpp" 2>/dev/null; then
    n=$("$t/size")
    echo "$n $((n / 64)) $h"
fi
