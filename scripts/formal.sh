#!/usr/bin/env bash
# One step of a formal proof (mk/formal.mk): the `ifdef FORMAL properties of
# a module, with yosys-smtbmc and the z3 solver.
# Usage: scripts/formal.sh smt2 OUT.smt2 TOP "P=V ..." SOURCE...
#            elaborate TOP (its parameters set) to an SMT-LIB 2 model;
#            FORMAL_GATES=1 lowers it to AND gates first (for wide mux
#            trees that z3 handles slowly as words: the router);
#            FORMAL_MEMMAP=1 maps its memories to registers first (a
#            table read several times in a row, as the NI's CRC nibble
#            table, is otherwise one cell in a loop with itself)
#        scripts/formal.sh bmc|prove|cover OUT.smt2 DEPTH
#            bmc:   no assertion fails in the first DEPTH cycles after reset
#            prove: temporal induction of DEPTH steps (with bmc: for ever)
#            cover: every cover statement is reached within DEPTH cycles
# The solver's log is OUT.<mode>.log; a failure prints its end and exits 1.
set -euo pipefail
mode=${1:-}
smt=${2:-}
if [ -z "$mode" ] || [ -z "$smt" ]; then
    echo "usage: scripts/formal.sh smt2|bmc|prove|cover OUT.smt2 ..." >&2
    exit 1
fi
command -v "${SMTBMC:-yosys-smtbmc}" >/dev/null && command -v z3 >/dev/null || {
    echo "formal: needs yosys-smtbmc and z3: apt-get install yosys z3" >&2
    exit 1
}
name=$(basename "$smt" .smt2)

if [ "$mode" = smt2 ]; then
    top=$3 sets=$4
    shift 4
    ch=""
    for s in $sets; do
        ch="$ch chparam -set ${s%%=*} ${s#*=} $top;"
    done
    gates=""
    if [ "${FORMAL_MEMMAP:-0}" = 1 ]; then
        gates="memory_map; opt -fast;"
    fi
    if [ "${FORMAL_GATES:-0}" = 1 ]; then
        gates="$gates techmap; opt -fast; abc -g AND; opt_clean;"
    fi
    mkdir -p "$(dirname "$smt")"
    "${YOSYS:-yosys}" -q -l "${smt%.smt2}.yosys.log" -p "read_verilog -formal -DFORMAL -I$(dirname "$1") -Irtl/lib $*;$ch
        prep -top $top; async2sync; $gates dffunmap; write_smt2 -wires $smt.tmp" >/dev/null
    mv "$smt.tmp" "$smt"
    exit 0
fi

depth=${3:?depth}
case $mode in
    bmc)   flags="" ;;
    prove) flags="-i" ;;
    cover) flags="-c" ;;
    *) echo "formal: unknown mode $mode (bmc, prove, cover)" >&2; exit 1 ;;
esac
log=${smt%.smt2}.$mode.log
start=$(date +%s)
# shellcheck disable=SC2086 # flags is one option or none
if ! "${SMTBMC:-yosys-smtbmc}" -s z3 $flags -t "$depth" "$smt" >"$log" 2>&1 \
   || ! grep -q 'Status: PASSED' "$log"; then
    echo "formal: $name $mode failed (log: $log):" >&2
    grep -E 'failed|Unreached|Assert|error|ERROR' "$log" | head -20 >&2 || tail -20 "$log" >&2
    exit 1
fi
what="depth $depth"
if [ "$mode" = cover ]; then
    what="$what, $(grep -c 'Reached cover statement' "$log" || true) covers reached"
fi
echo "formal: $name $mode passed, $what ($(( $(date +%s) - start )) s)"
