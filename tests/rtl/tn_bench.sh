#!/usr/bin/env bash
# The lean-node benchmark (make bench): each figure of the node's size and
# the simulator's cost beside its goal. Goals are not test thresholds.
#   simulator cost: callgrind instruction counts of tests/rtl/tn_bench_speed
#     on the 3x3x3 model, the run of CYCLES minus the run of 0 (the same
#     set-up), divided by the cycles the probe really simulated (it prints
#     them) and by the 27 nodes; loading also on the 7x7x7 and the 8x8x8
#     (343 and 512 nodes: a word clocks one plane and runs one node's
#     code, so the cost per node falls with the node count),
#     and per flit memory word written (the bus cycles a word takes count);
#   7x7x7 speed: wall time of 30,000 traffic cycles (about 3 s) minus that
#     of 0 (one thread; wall time here varies +-40 %);
#   gossip: wall time of the whole `torusctl run gossip --algo dp` on the
#     simulated 7x7x7 (model load, image load, run, readback, checks);
#   area: scripts/board_estimate.sh's raw lines (make board-estimates).
# Usage: tn_bench.sh BUILD_DIR ESTIMATE_RAW
set -u
B=$1 RAW=$2
SIM=$B/sim PROBE=$B/tests/rtl/tn_bench_speed TORUSCTL=$B/torusctl

# instructions of one probe run: MODEL CYCLES MODE ->
# "instr net_cycles bus_cycles words node planes", node and planes: the
# instructions of the node's and the planes' own functions (the model's
# classes of tn_node and tn_plane), the rest being the top's (tn_torus,
# the bridge, Verilator's evaluation loop) and the probe's
instr() {
    local f g out np
    f=$(mktemp) g=$(mktemp)
    out=$(valgrind --tool=callgrind --callgrind-out-file="$g" "$PROBE" "$1" "$2" "$3" 2>"$f")
    np=$(callgrind_annotate --auto=no --threshold=100 "$g" 2>/dev/null | awk '
        /^ *[0-9][0-9,]* / { n = $1; gsub(",", "", n)
            if ($0 ~ /_tn_node__/) node += n; else if ($0 ~ /_tn_plane__/) plane += n }
        END { printf "%.0f %.0f", node, plane }')
    awk -v o="$out" -v np="$np" '/Collected :/ { i = $NF } END {
        split(o, a, " "); print i, a[3], a[5], a[7], np }' "$f"
    grep -q "check ok" <<<"$out" || echo "bench: probe $3 failed: $out" >&2
    rm -f "$f" "$g"
}
# (instructions of N - instructions of 0) / (network cycles of N - of 0) / nodes:
# "all node planes rest"
per_cycle() { # MODEL MODE N NODES
    local a b
    a=$(instr "$1" "$3" "$2") b=$(instr "$1" 0 "$2")
    awk -v a="$a" -v b="$b" -v n="$4" 'BEGIN { split(a, x, " "); split(b, y, " ");
        d = (x[2] - y[2]) * n; t = (x[1] - y[1]) / d; k = (x[5] - y[5]) / d; p = (x[6] - y[6]) / d
        printf "%.0f %.0f %.0f %.0f", t, k, p, t - k - p }'
}
# per_cycle's split: "node / planes / rest"
parts() { awk '{ printf "%s / %s / %s", $2, $3, $4 }' <<<"$1"; }
# a load of 2,000 bus cycles: "per node and bus cycle / per word written"
load_cost() { # MODEL NODES
    local a b
    a=$(instr "$1" 2000 load) b=$(instr "$1" 0 load)
    awk -v a="$a" -v b="$b" -v n="$2" 'BEGIN { split(a, x, " "); split(b, y, " ");
        printf "%.0f / %.0f", (x[1] - y[1]) / (x[3] - y[3]) / n, (x[1] - y[1]) / (x[4] - y[4]) }'
}
wall() { # command... -> seconds
    local t0 t1
    t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
row() { printf '%-58s %-38s %s\n' "$1" "$2" "$3"; }
# the estimate's figures (scripts/board_estimate_table.sh --values):
# est node CONFIG KEY, est part "CONFIG PART" KEY
VALS=""
[ -s "$RAW" ] && VALS=$(scripts/board_estimate_table.sh "$RAW" --values)
est() {
    awk -v kind="$1" -v who="$2" -v k="$3" '$1 == kind && index($0, kind " " who " ") == 1 {
        for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] } }' <<<"$VALS"
}
# the parts the configuration fits (or "none")
fits() {
    awk -v c="$1" '$1 == "part" && $2 == c && /fits=yes/ {
        sub(/^part [^ ]+ /, ""); sub(/ lut=.*/, ""); s = s (s == "" ? "" : ", ") $0 }
        END { print (s == "" ? "none" : s) }' <<<"$VALS"
}

echo "Lean node: today's figure beside the goal"
row "figure" "today" "goal"
if command -v valgrind >/dev/null && [ -f "$SIM/libtnsim_3x3x3.so" ]; then
    m=$SIM/libtnsim_3x3x3.so
    t=$(per_cycle "$m" traffic 2000 27) i=$(per_cycle "$m" idle 2000 27)
    a=$(per_cycle "$m" idle_all 2000 27) l=$(load_cost "$m" 27)
    row "host instructions per node-cycle, 3x3x3, traffic / idle" "${t%% *} / ${i%% *}" "<= 1,000 / <= 300"
    row "  of which node / planes / the rest: traffic" "$(parts "$t")" "(context)"
    row "  of which node / planes / the rest: idle" "$(parts "$i")" "(context)"
    row "  idle, every plane and node evaluated (as in a run)" "${a%% *} = $(parts "$a")" "(context)"
    row "load: per node and bus cycle / per word written, 3x3x3" "$l" "(context)"
else
    row "host instructions per node-cycle (callgrind)" "(valgrind or model missing)" "<= 1,000 / <= 300"
fi
if [ -f "$SIM/libtnsim_7x7x7.so" ]; then
    m=$SIM/libtnsim_7x7x7.so
    if command -v valgrind >/dev/null; then
        row "  the same, 7x7x7" "$(load_cost "$m" 343)" "(context)"
        # the largest cube the tests' schedules use (the all-to-all's
        # 640 rounds): a cost that grows with the planes shows here first
        [ -f "$SIM/libtnsim_8x8x8.so" ] &&
            row "  the same, 8x8x8" "$(load_cost "$SIM/libtnsim_8x8x8.so" 512)" "(context)"
    fi
    a=$(wall "$PROBE" "$m" 30000 traffic) b=$(wall "$PROBE" "$m" 0 traffic)
    n=$("$PROBE" "$m" 30000 traffic | awk '{ print $3 }')
    row "7x7x7 simulated cycles/s, one thread, traffic" \
        "$(awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { d = a - b; if (d <= 0) d = 0.001; printf "%.0f", n / d }')" ">= 25,000"
    row "  its run of 0 cycles (the model opened and set up)" "$b s" "(context)"
    row "torusctl run gossip --algo dp, simulated 7x7x7, whole" \
        "$(TN_SIM_DIR=$SIM wall "$TORUSCTL" run gossip --algo dp) s" "<= 2 s"
    sz=$(sim/tn_node_size.sh "$SIM/obj_7x7x7")
    row "node's C++ object in the 7x7x7 model: bytes, 64-byte lines" \
        "$(awk -v s="$sz" 'BEGIN { if (split(s, a, " ") < 2) print "(not measured)";
            else printf "%d, %d (%s)", a[1], a[2], a[2] % 2 ? "odd" : "even: loads and readbacks slow" }')" \
        "odd (context)"
else
    row "7x7x7 figures" "(model not built)" ""
fi
if [ -n "$VALS" ]; then
    row "per node, xilinx W=16 LANES=6 RELAY=1 ROUNDS=512" \
        "$(est node xil6 lut) LUT6, $(est node xil6 ff) FF," "<= 2,000 LUT6, <= 1,500 FF,"
    row "  MEM_DEPTH=4096 (synth_xilinx, UltraScale+)" "$(est node xil6 bram) RAMB18" "<= 12 RAMB18"
    row "7x7x7 on a VU9P, LANES=6: logic / block RAM" \
        "$(est part "xil6 VU9P" lut) % / $(est part "xil6 VU9P" ram) %" "<= 60 % / <= 80 %"
    row "7x7x7 on a VU9P, LANES=1: logic / block RAM" \
        "$(est part "xil1 VU9P" lut) % / $(est part "xil1 VU9P" ram) %" "<= 60 % / <= 80 %"
    row "parts that fit 7x7x7 with LANES=1" "$(fits xil1)" "name them"
    row "per node, ice40 W=8 LANES=1 circuits only (ROUNDS 16)" \
        "$(est node ice40 lut) LUT4, $(est node ice40 ff) FF, $(est node ice40 bram) EBR" "<= 700 LC"
    echo
    scripts/board_estimate_table.sh "$RAW"
else
    row "area per node and 7x7x7 fit" "(make board-estimates)" ""
fi
# boards: the last build (make bitstream) and its seeds (make board-seeds)
for b in hx8k icebreaker; do
    d=$B/board/$b
    goal="HX8K 2x2x2"; [ "$b" = icebreaker ] && goal="iCEBreaker 2x2x1"
    if [ ! -s "$d/summary.txt" ]; then
        row "board $b" "(make bitstream BOARD=$b)" "$goal, >= 16 rounds, >= 48 MHz"
        continue
    fi
    torus=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(DIM_[XYZ]|ROUNDS)=/) { split($i, kv, "="); v[kv[1]] = kv[2] } }
        END { printf "%sx%sx%s, %s rounds", v["DIM_X"], v["DIM_Y"], v["DIM_Z"], v["ROUNDS"] }' "$d/config.txt")
    clk=$(awk -F= '$1 == "freq" { f = $2 } $1 == "fmax" { m = $2 }
        END { printf "%s MHz (Fmax %.2f)", f, m }' "$d/summary.txt")
    seeds="(make board-seeds BOARD=$b)"
    # (seeds of an older synthesis than the bitstream's are not this build's)
    [ -s "$d/seeds.txt" ] && [ "$d/seeds.txt" -ot "$d/synth.json" ] &&
        seeds="(older than the build: make board-seeds BOARD=$b)"
    [ -s "$d/seeds.txt" ] && [ ! "$d/seeds.txt" -ot "$d/synth.json" ] && seeds=$(awk '/clk:/ { for (i = 1; i <= NF; i++) if ($i == "clk:") v = $(i + 1) + 0
        if (n == 0 || v < lo) lo = v; if (v > hi) hi = v; n++ }
        END { if (n) printf "%.2f to %.2f MHz over %d seeds", lo, hi, n }' "$d/seeds.txt")
    row "board $b: torus, network clock (seed 1)" "$torus, $clk" "$goal, >= 16 rounds,"
    row "  network Fmax, seeds 1-5" "$seeds" ">= 48 MHz on every seed"
done
# The README's test from a fresh clone of HEAD (committed work only), as a
# top-level make (not under make bench's flags), as on a new machine:
# nothing in ccache (CCACHE_DISABLE, every object compiled; CI runs on the
# session's own machine, whose ccache holds what the session built);
# BENCH_FRESH=0 skips it.
if [ "${BENCH_FRESH:-1}" != 0 ] && git rev-parse -q --verify HEAD >/dev/null; then
    fd=$(mktemp -d)
    t0=$(date +%s)
    git clone -q . "$fd/fresh" &&
        env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL CCACHE_DISABLE=1 make -C "$fd/fresh" test \
            >"$fd/log" 2>&1
    secs=$(( $(date +%s) - t0 ))
    res=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$fd/log" | tail -1)
    row "make test from a fresh clone of HEAD, 2 cores, no ccache" \
        "$((secs / 60)) min $((secs % 60)) s, ${res:-no result line}" "<= 8 min"
    rm -rf "$fd"
else
    row "make test from a fresh clone of HEAD" "(skipped: BENCH_FRESH=0 or no git)" "<= 8 min"
fi
