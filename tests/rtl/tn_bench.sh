#!/usr/bin/env bash
# RTL benchmark table: Verilator speed (1 and 2 threads), Icarus ratio, Yosys
# router cost, 7x7x7 model build time. Each row is bounded to seconds.
# Usage: tn_bench.sh <build dir>
set -u
B=${1:-build}
SIM=$B/sim
T=$B/tests/rtl
RTL="rtl/net/tn_torus.v rtl/net/tn_seq.v rtl/net/tn_node.v rtl/net/tn_node_cfg.v rtl/net/tn_node_status.v
     rtl/net/tn_router.v rtl/net/tn_route.v rtl/ni/tn_ni_mem.v rtl/ni/tn_ni_inject.v rtl/ni/tn_ni_eject.v rtl/ni/tn_crc32.v"
IVERILOG=${IVERILOG:-iverilog} VVP=${VVP:-vvp} YOSYS=${YOSYS:-yosys}

printf '%-44s %14s %18s %s\n' "Verilator, traffic on every link" "cycles/s" "router-cycles/s" "check"
v3=""
for m in 3x3x3 3x3x3_t2 7x7x7 7x7x7_t2; do
    so=$SIM/libtnsim_$m.so
    [ -f "$so" ] || { printf '%-44s %14s\n' "  $m" "(not built)"; continue; }
    cyc=20000
    case $m in 7x7x7*) cyc=3000 ;; esac
    read -r n cps rcps chk < <("$T/tn_bench_speed" "$so" $cyc)
    printf '%-44s %14.0f %18.0f %s\n' "  $m ($n cycles)" "$cps" "$rcps" "$chk"
    [ "$m" = 3x3x3 ] && v3=$cps
done

# Icarus on the same RTL and traffic, 3x3x3: wall time of N cycles minus setup.
tmp=$(mktemp -d)
"$IVERILOG" -g2005 -o "$tmp/tb0.vvp" -P tn_bench_tb.CYCLES=1 -s tn_bench_tb tests/rtl/tn_bench_tb.v $RTL
"$IVERILOG" -g2005 -o "$tmp/tb1.vvp" -P tn_bench_tb.CYCLES=1001 -s tn_bench_tb tests/rtl/tn_bench_tb.v $RTL
t0=$( { /usr/bin/time -f %e "$VVP" -n "$tmp/tb0.vvp" >/dev/null; } 2>&1 | tail -1)
t1=$( { /usr/bin/time -f %e "$VVP" -n "$tmp/tb1.vvp" >/dev/null; } 2>&1 | tail -1)
icps=$(awk -v a="$t0" -v b="$t1" 'BEGIN { d = b - a; if (d <= 0) d = 0.01; printf "%.0f", 1000 / d }')
printf '%-44s %14s %18s\n' "  Icarus 3x3x3 (1000 cycles)" "$icps" "$(( icps * 27 ))"
[ -n "$v3" ] && awk -v v="$v3" -v i="$icps" 'BEGIN { printf "%-44s %14.1fx\n", "  Verilator / Icarus (3x3x3, 1 thread)", v / i }'
rm -rf "$tmp"

echo
printf '%-44s %8s %8s %8s %8s\n' "Yosys, one router (tn_router, LANES=6)" "LUT4" "DFF" "LUT6" "FF"
for w in 16 32; do
    ice=$("$YOSYS" -q -p "read_verilog rtl/net/tn_router.v rtl/net/tn_route.v; chparam -set W $w tn_router; synth_ice40 -top tn_router; tee -o /dev/stdout stat" 2>/dev/null)
    xil=$("$YOSYS" -q -p "read_verilog rtl/net/tn_router.v rtl/net/tn_route.v; chparam -set W $w tn_router; synth_xilinx -top tn_router; tee -o /dev/stdout stat" 2>/dev/null)
    lut4=$(grep -E '^ +SB_LUT4 ' <<<"$ice" | awk '{print $2}' | tail -1)
    dff=$(grep -E '^ +SB_DFF' <<<"$ice" | awk '{s+=$2} END {print s+0}')
    lut6=$(grep -E '^ +LUT[1-6] ' <<<"$xil" | awk '{s+=$2} END {print s+0}')
    ff=$(grep -E '^ +FD[A-Z]* ' <<<"$xil" | awk '{s+=$2} END {print s+0}')
    printf '%-44s %8s %8s %8s %8s\n' "  W=$w" "${lut4:-?}" "$dff" "$lut6" "$ff"
done
echo "  (LUT6 counts all LUT1..LUT6 cells; the crossbar, relay allocation and"
echo "   12 route units, without the NI, lanes or tables)"

echo
for m in 7x7x7 3x3x3; do
    [ -f "$SIM/libtnsim_$m.so.buildtime" ] &&
        printf '%-44s %s\n' "Build time of the $m model" "$(cat "$SIM/libtnsim_$m.so.buildtime")"
done
echo "  (as last built by make; 'rm -rf $SIM/obj_7x7x7 && CCACHE_DISABLE=1 make $SIM/libtnsim_7x7x7.so' for a cold build)"
