#!/usr/bin/env bash
# Post-synthesis simulation test: runs tests/board/tb_netlist.v on the RTL
# and on the synth_ice40 netlist of the same torus (both built for the
# board's clocks, mk/board.mk), passes their TAP lines on (each checks the
# eject records against the timing model, its own memory model and an
# independent CRC), and checks that both printed the same records and run
# cycles ("# rec" lines).
# Usage: tests/board/test_netlist.sh VVP NAME RTL.vvp NETLIST.vvp
set -u
vvp=$1 name=$2 rtl=$3 nl=$4
n=0 fail=0
tap() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }
out_rtl=$("$vvp" -n "$rtl" 2>&1); rc_rtl=$?
out_nl=$("$vvp" -n "$nl" 2>&1); rc_nl=$?
for which in rtl netlist; do
    if [ $which = rtl ]; then out=$out_rtl rc=$rc_rtl; else out=$out_nl rc=$rc_nl; fi
    plan=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
    [ -n "$plan" ] && [ "$rc" -eq 0 ]; tap $? "$name $which: bench ran to its end (plan ${plan:-missing})"
    while IFS= read -r line; do
        case $line in
            "ok "*) tap 0 "$name $which: ${line#ok * - }" ;;
            "not ok "*) tap 1 "$name $which: ${line#not ok * - }" ;;
            "#"*) echo "$line" ;;
        esac
    done <<<"$out"
done
rec_rtl=$(printf '%s\n' "$out_rtl" | grep '^# rec')
rec_nl=$(printf '%s\n' "$out_nl" | grep '^# rec')
[ -n "$rec_rtl" ] && [ "$rec_rtl" = "$rec_nl" ]; tap $? "$name: netlist records (timestamps, counts, CRCs) equal the RTL's"
echo "1..$n"
exit $fail
