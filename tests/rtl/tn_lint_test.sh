#!/bin/sh
# make test's lint: each lint target of the tree (Verilator -Wall on every
# RTL file and parameter set, Icarus -g2005, Yosys synthesis without a
# warning), one TAP line each, with the tool's complaint in the log.
# Usage: tn_lint_test.sh [MAKE]
make=${1:-make}
n=0
for t in lint-rtl lint-board lint-bridge; do
    n=$((n + 1))
    if out=$($make -s --no-print-directory "$t" 2>&1); then
        echo "ok $n - $t: clean"
    else
        echo "not ok $n - $t"
        echo "$out" | tail -40 | sed 's/^/# /'
    fi
done
