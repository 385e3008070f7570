#!/usr/bin/env bash
# Resource estimate of the 7x7x7 torus on larger parts: yosys synth_ecp5 and
# synth_xilinx of ONE tn_node (7x7x7 coordinates, LANES 6, ROUNDS 16, the
# flit memory cut to 16 words) and of tn_seq for N = 343, then
# 343 x node + seq. A full 343-node synthesis takes far longer than the
# 5 minutes allowed here; nodes share nothing but the bus and the sequencer
# outputs, so the sum is a close estimate (cross-node optimisation is nil).
# The flit memory is added as block RAM in the FPGA layout docs/boards.md
# describes (the RTL's 7-write/7-read asynchronous memory maps to no block
# RAM). yosys' SAT-based resource sharing (`share`) is left out of the
# coarse step: on this node it runs for many minutes and only merges
# operators, so the counts are a slight overestimate. synth_ecp5 stops
# before its final check (autoname renames 14 million objects here).
# Writes OUT/raw.txt (one line per synthesis) and prints the table.
# Usage: scripts/board_estimate.sh OUTDIR [W ...]   (default W: 16 32)
set -eu
out=$1; shift
widths=${*:-16 32}
YOSYS=${YOSYS:-yosys}
mkdir -p "$out"
net="rtl/net/tn_node.v rtl/net/tn_node_cfg.v rtl/net/tn_node_status.v rtl/net/tn_router.v rtl/net/tn_route.v"
net="$net rtl/ni/tn_ni_mem.v rtl/ni/tn_ni_bram.v rtl/ni/tn_ni_inject.v rtl/ni/tn_ni_eject.v rtl/ni/tn_crc32.v rtl/net/tn_seq.v"
raw=$out/raw.txt
: >"$raw"
# Sum the cells of a yosys stat listing into LUT, FF, BRAM, LUTRAM, carry.
count() { # arch log
    awk -v arch="$1" '
        # the last cell listing: the flat module, or the hierarchy total
        /Number of cells/ { tot = 1; lut = ff = bram = lutram = carry = mux = dsp = 0 }
        tot && NF == 2 && $2 ~ /^[0-9]+$/ {
            c = $1; n = $2
            if (arch == "ecp5") {
                if (c == "LUT4") lut += n
                else if (c == "CCU2C") { lut += 2 * n; carry += n }
                else if (c ~ /^TRELLIS_FF/) ff += n
                else if (c ~ /^TRELLIS_DPR16X4/) { lutram += n; lut += 4 * n }
                else if (c ~ /^DP16KD/ || c ~ /^PDPW16KD/) bram += n
                else if (c == "PFUMX" || c == "L6MUX21") mux += n
                else if (c ~ /^MULT18X18D/) dsp += n
            } else {
                if (c ~ /^LUT[1-6]$/) lut += n
                else if (c ~ /^FD[CPRS]E$/) ff += n
                else if (c ~ /^RAM(32|64)M/) { lutram += n; lut += 4 * n }
                else if (c ~ /^RAM(32|64|128|256)/) { lutram += n; lut += 2 * n }
                else if (c ~ /^DSP48/) dsp += n
                else if (c ~ /^RAMB(18|36)/) bram += (c ~ /36/ ? 1 : 0.5) * n
                else if (c ~ /^CARRY/) carry += n
                else if (c ~ /^MUXF/) mux += n
            }
        }
        END { printf "lut=%d ff=%d bram=%g lutram=%d carry=%d dsp=%d\n", lut, ff, bram, lutram, carry, dsp }
    ' "$2"
}
# synth_<arch> with its coarse step replaced by the same commands minus share.
synth() { # arch top
    if [ "$1" = ecp5 ]; then
        echo "synth_ecp5 -top $2 -run begin:coarse; proc; flatten; tribuf -logic; deminout; \
            opt_expr; opt_clean; check; opt -nodffe -nosdff; fsm; opt; wreduce; peepopt; \
            opt_clean; techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean; \
            alumacc; opt; memory -nomap; opt_clean; synth_ecp5 -top $2 -run map_ram:check"
    else
        echo "synth_xilinx -top $2 -run begin:coarse; \
            techmap -map +/cmp2lut.v -map +/cmp2lcu.v -D LUT_WIDTH=6; alumacc; opt; \
            memory -nomap; opt_clean; synth_xilinx -top $2 -run map_memory:"
    fi
}
for arch in ecp5 xilinx; do
    for w in $widths; do
        log=$out/node_${arch}_w$w.log
        if [ ! -s "$log.done" ]; then
            $YOSYS -q -l "$log" -p "read_verilog -defer $net; \
                chparam -set DIM_X 7 -set DIM_Y 7 -set DIM_Z 7 -set W $w -set LANES 6 \
                    -set MEM_DEPTH 16 -set AW 4 -set ROUNDS 16 -set RW 4 tn_node; \
                $(synth $arch tn_node); stat" >/dev/null
            count $arch "$log" >"$log.done"
        fi
        echo "$arch node W=$w $(cat "$log.done")" >>"$raw"
    done
    log=$out/seq_$arch.log
    if [ ! -s "$log.done" ]; then
        $YOSYS -q -l "$log" -p "read_verilog -defer $net; \
            chparam -set DIM_X 7 -set DIM_Y 7 -set DIM_Z 7 -set W 16 -set LANES 6 \
                -set MEM_DEPTH 4096 -set ROUNDS 16 -set RW 4 -set N 343 tn_seq; \
            $(synth $arch tn_seq); stat" >/dev/null
        count $arch "$log" >"$log.done"
    fi
    echo "$arch seq N=343 $(cat "$log.done")" >>"$raw"
done
scripts/board_estimate_table.sh "$raw"
