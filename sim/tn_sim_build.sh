#!/usr/bin/env bash
# Build one Verilated torus model as a shared object.
# Usage: sim/tn_sim_build.sh <X>x<Y>x<Z>[_l<LANES>][_t<THREADS>] <out.so> <rtl sources...>
# Environment: VERILATOR, CXX, VJOBS (parallel C++ jobs), SIM_OPT (C++ -O level),
# SIM_TRACE (1: FST tracing compiled in; 0, the default: not; the trace code
# is most of a model's C++: docs/NOTES.md, "Measurements", gives the build
# times), VFLAGS (more Verilator options), W, MEM_DEPTH, ROUNDS, RELAY.
# The model is flat (one Verilated model of the whole top): the nodes share
# one copy of the node's code (rtl/net/tn_node.v), the planes one of the
# plane's (docs/NOTES.md, "Simulation cost"). The generated code of a
# one-thread model is patched so that at each edge it runs the code of the
# planes and nodes with work only (sim/tn_gate.awk; tn_torus's pbusy_o,
# tbusy_o, nball_o, nbreq_o, ntab_o). The C++
# is compiled as four units, and Verilator's runtime once for all the
# models of a directory (sim/tn_sim_units.mk).
set -eu
stem=$1 out=$2
shift 2
lanes=6 threads=1
IFS=_ read -r -a parts <<<"$stem"
dims=${parts[0]}
for p in "${parts[@]:1}"; do
    case $p in
        l*) lanes=${p#l} ;;
        t*) threads=${p#t} ;;
        *) echo "tn_sim_build: bad model name $stem: use XxYxZ[_lN][_tN]" >&2; exit 1 ;;
    esac
done
IFS=x read -r X Y Z <<<"$dims"
[ -n "${Z:-}" ] || { echo "tn_sim_build: bad dims $dims: use XxYxZ" >&2; exit 1; }
W=${W:-16} MEM_DEPTH=${MEM_DEPTH:-4096} ROUNDS=${ROUNDS:-1024} RELAY=${RELAY:-1}
VERILATOR=${VERILATOR:-verilator} CXX=${CXX:-c++} VJOBS=${VJOBS:-2}
SIM_OPT=${SIM_OPT:--O2} SIM_TRACE=${SIM_TRACE:-0} VFLAGS=${VFLAGS:-}
# The model's sources by the path as invoked (relative from the top of the
# tree under make): Verilator writes their names into the generated C++, so
# an absolute path would make clones at other paths miss ccache. The C++
# file, compiled by Verilator's makefile in the object directory, absolute.
here=$(dirname "$0")
cpp=$(cd "$here" && pwd)/tn_sim.cpp
mdir=$(dirname "$out")/obj_$stem
mkdir -p "$mdir"
case $SIM_TRACE in
    0|1) ;;
    *) echo "tn_sim_build: SIM_TRACE=$SIM_TRACE: use 0 or 1" >&2; exit 1 ;;
esac
trace=()
[ "$SIM_TRACE" = 1 ] && trace=(--trace-fst)
defs="-fPIC -DTN_DIM_X=$X -DTN_DIM_Y=$Y -DTN_DIM_Z=$Z -DTN_W=$W -DTN_LANES=$lanes"
defs="$defs -DTN_MEM_DEPTH=$MEM_DEPTH -DTN_ROUNDS=$ROUNDS -DTN_RELAY=$RELAY"
# Loops of at most 8 iterations unrolled (Verilator's default: 64). Verilator
# works on each node's own copy of the node's code until it merges the
# copies at the end, so every statement an unrolled loop adds is paid once a
# node in every pass: the router's loops over its 6 + LANES sources, left
# rolled, make Verilator's run on the 7x7x7 113-120 s -> 66-70 s
# (docs/NOTES.md, "Simulation cost"). A cycle with traffic costs the same,
# a relay cycle, which runs those loops, more (the 7x7x7 scatter's whole
# command 10 %).
unroll=(--unroll-count 8)
start=$(date +%s)
"$VERILATOR" --cc --top-module tn_sim_top --prefix Vtn_sim_top -Mdir "$mdir" \
    -Wno-fatal --x-assign fast --x-initial fast "${unroll[@]}" $VFLAGS "${trace[@]}" --threads "$threads" \
    -GDIM_X="$X" -GDIM_Y="$Y" -GDIM_Z="$Z" -GW="$W" -GLANES="$lanes" \
    -GMEM_DEPTH="$MEM_DEPTH" -GROUNDS="$ROUNDS" -GRELAY="$RELAY" \
    -CFLAGS "$defs" "$here/tn_sim.vlt" "$here/tn_sim_top.v" "$@" "$cpp"
# The node object at an odd number of 64-byte lines (sim/tn_node_size.sh
# says why: loads and readbacks of a 7x7x7 take 12-14 % less wall time):
# if even, a padding member of one line, the class's first, in the
# generated header.
read -r _ lines hdr <<<"$("$here/tn_node_size.sh" "$mdir")" || true
if [ -n "$lines" ] && [ $((lines % 2)) = 0 ]; then
    sed -i '0,/^  public:$/s//  public:\n    char tn_sim_pad[64];  \/\/ tn_sim_build.sh: an odd number of 64-byte lines/' "$hdr"
    lines=$("$here/tn_node_size.sh" "$mdir" | awk '{ print $2 }')
fi
if [ -z "$lines" ] || [ $((lines % 2)) = 0 ]; then
    echo "tn_sim_build: the node object is not an odd number of 64-byte lines (${lines:-not measured}):" \
        "loads and readbacks run slower" >&2
fi
# The model's state in huge pages: the symbol table, which holds every
# node's registers, tables and flit memory (9 MB in a 3x3x3, 120 MB in a
# 7x7x7), allocated by tn_sim_state_alloc (sim/tn_sim.cpp says why).
syms=$mdir/Vtn_sim_top__Syms.h
sed -i -e 's|^// SYMS CLASS (contains all model state)$|void *tn_sim_state_alloc(size_t size);  // tn_sim_build.sh: sim/tn_sim.cpp\nvoid tn_sim_state_free(void *p, size_t size);\n&|' \
    -e '/^class Vtn_sim_top__Syms final : public VerilatedSyms {$/,/^  public:$/s|^  public:$|&\n    static void *operator new(size_t size) { return tn_sim_state_alloc(size); }\n    static void operator delete(void *p, size_t size) { tn_sim_state_free(p, size); }|' \
    "$syms"
if [ "$(grep -c 'tn_sim_state_' "$syms")" != 4 ]; then
    echo "tn_sim_build: the model's state is not in huge pages (no symbol table class in $syms):" \
        "runs start slower" >&2
fi
# At each clock's edge, the code of the planes and nodes with work for
# that clock only (tn_gate.awk): every call of a plane's or node's code
# from the root's evaluation patched, the same number for every node and
# every plane. It needs the model's two nba triggers, the bus clock's and
# the network clock's (every plane on those two: sim/tn_sim_top.v). With
# more threads the model keeps Verilator's own schedule (every plane and
# node evaluated).
if [ "$threads" = 1 ]; then
    trig() { # CLOCK -> its nba trigger index
        sed -n "s/.*'nba' region trigger index \([0-9]*\) is active: @(posedge $1).*/\1/p" \
            "$mdir"/Vtn_sim_top___024root__*Slow.cpp | head -1
    }
    ntrig=$(grep -ho "'nba' region trigger index [0-9]* is active" "$mdir"/Vtn_sim_top___024root__*Slow.cpp | sort -u | wc -l)
    tb=$(trig bclk_i) tn=$(trig nclk_i)
    # (the Slow files' calls are the initial settle's: every plane and node)
    files=$(grep -lE 'Vtn_sim_top_tn_(node|plane)__[A-Za-z0-9_]*___nba_' "$mdir"/Vtn_sim_top___024root__DepSet_*.cpp |
        grep -v '__Slow\.cpp$' || true)
    read -r _ calls gated lo hi pcalls pgated plo phi < <(awk -v DX="$X" -v DY="$Y" -v N=$((X * Y * Z)) \
        -v Z="$Z" -v TB="${tb:--2}" -v TN="${tn:--2}" -f "$here/tn_gate.awk" $files 2>&1 >/dev/null)
    if [ "$ntrig" != 2 ] || [ -z "$tb" ] || [ -z "$tn" ] || [ -z "$files" ] ||
        [ "$gated" != "$calls" ] || [ "$lo" != "$hi" ] || [ "$lo" -lt 1 ] ||
        [ "$pgated" != "$pcalls" ] || [ "$plo" != "$phi" ] || [ "$plo" -lt 1 ]; then
        echo "tn_sim_build: $ntrig clock triggers (bus ${tb:-none}, network ${tn:-none});" \
            "${gated:-0} of ${calls:-0} node calls gated, ${lo:-0} to ${hi:-0} a node;" \
            "${pgated:-0} of ${pcalls:-0} plane calls gated, ${plo:-0} to ${phi:-0} a plane:" \
            "see sim/tn_gate.awk" >&2
        for f in $files; do rm -f "$f.tmp"; done
        exit 1
    fi
    for f in $files; do mv "$f.tmp" "$f"; done
fi
objcache=$(command -v ccache || true)
mk=(make -s -C "$mdir" -f Vtn_sim_top.mk -f "$(cd "$here" && pwd)/tn_sim_units.mk" -j"$VJOBS"
    OBJCACHE="$objcache" OPT_FAST="$SIM_OPT" OPT_SLOW=-O1 OPT_GLOBAL=-O1)
# The model's C++ as four units, Verilator's runtime once for all the
# models of the directory (sim/tn_sim_units.mk): in a directory named by
# the versions of Verilator and the compiler, built by the first model
# that needs it while the others wait.
rt=$(cd "$(dirname "$out")" && pwd)/runtime_$({ "$VERILATOR" --version; "$CXX" --version | head -1; } | cksum | cut -d' ' -f1)
mkdir -p "$rt"
(
    flock 9
    "${mk[@]}" TN_RT="$rt" "$rt/libverilated.a" >/dev/null
) 9>"$rt/.lock"
"${mk[@]}" tn_units >/dev/null
"$CXX" -shared -o "$out.tmp" "$mdir"/tn_unit_fast.o "$mdir"/tn_unit_trace.o "$mdir"/tn_unit_slow.o "$mdir"/tn_unit_cold.o \
    "$mdir/tn_sim.o" "$rt/libverilated.a" -lz -pthread
mv "$out.tmp" "$out"
secs=$(( $(date +%s) - start ))
ccache_note=""
[ -n "$objcache" ] && ccache_note=" (ccache on)"
echo "$secs s${ccache_note}, trace $SIM_TRACE, node ${lines:-?} lines, $(date -u +%FT%TZ)" >"$out.buildtime"
echo "tn_sim_build: $out built in $secs s" >&2
