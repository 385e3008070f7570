#!/usr/bin/env bash
# Resource estimate of the 7x7x7 torus on larger parts: Yosys synthesises
# ONE tn_node (7x7x7 coordinates) per architecture and configuration and the
# sequencer for N = 343; the torus is 343 x node + sequencer (nodes share
# nothing but the buses, whose decoding in tn_plane/tn_torus is a few
# hundred cells, so cross-node optimisation is nil). Block RAMs are inferred
# from the RTL (tn_ram.v): tables, records and flit memory banks.
# Yosys' SAT-based resource sharing (`share`) is left out of the coarse step:
# on this node it runs for many minutes and only merges operators, so the
# counts are a slight overestimate.
# Configurations (name: architecture W LANES RELAY ROUNDS MEM_DEPTH):
#   xil6:  xilinx (UltraScale+) 16 6 1 512 4096  the product's simulator node
#   xil1:  xilinx               16 1 1 512 4096  one lane (smaller parts)
#   ecp5:  ecp5                 16 6 1 512 4096
#   ice40: ice40                 8 1 0  16  256  the boards' node
# Writes OUT/raw.txt (one line per synthesis, cached in OUT/*.done) and
# prints the table (scripts/board_estimate_table.sh).
# Usage: scripts/board_estimate.sh OUTDIR
set -eu
out=$1
YOSYS=${YOSYS:-yosys}
mkdir -p "$out"
eval "$(make -s --no-print-directory -f - <<'MK'
include rtl/sources.mk
all: ; @echo 'net="$(RTL_NET_SRC)"'
MK
)"
raw=$out/raw.txt
: >"$raw"

# Sum the cells of the last yosys stat listing into lut, ff, bram (18-kbit
# blocks for xilinx, DP16KD for ecp5, 4-kbit EBR for ice40), lutram.
count() { # arch log
    awk -v arch="$1" '
        /Number of cells/ { lut = ff = bram = lutram = 0 }
        NF == 2 && $2 ~ /^[0-9]+$/ {
            c = $1; n = $2
            if (arch == "ice40") {
                if (c == "SB_LUT4") lut += n
                else if (c ~ /^SB_DFF/) ff += n
                else if (c ~ /^SB_RAM40/) bram += n
            } else if (arch == "ecp5") {
                if (c == "LUT4") lut += n
                else if (c == "CCU2C") lut += 2 * n
                else if (c ~ /^TRELLIS_FF/) ff += n
                else if (c ~ /^TRELLIS_DPR16X4/) { lutram += n; lut += 4 * n }
                else if (c ~ /^DP16KD/ || c ~ /^PDPW16KD/) bram += n
            } else {
                if (c ~ /^LUT[1-6]$/) lut += n
                else if (c ~ /^FD[CPRS]E$/) ff += n
                else if (c ~ /^RAM(32|64)M/) { lutram += n; lut += 4 * n }
                else if (c ~ /^RAM(32|64|128|256)X/) { lutram += n; lut += 2 * n }
                else if (c ~ /^RAMB18/) bram += n
                else if (c ~ /^RAMB36/) bram += 2 * n
            }
        }
        END { printf "lut=%d ff=%d bram=%d lutram=%d\n", lut, ff, bram, lutram }
    ' "$2"
}

# synth_<arch> of top with the coarse step's commands minus share.
synth() { # arch top
    case $1 in
    xilinx) echo "synth_xilinx -family xcup -flatten -top $2 -run :coarse; \
            techmap -map +/cmp2lut.v -map +/cmp2lcu.v -D LUT_WIDTH=6; alumacc; opt; \
            memory -nomap; opt_clean; synth_xilinx -family xcup -flatten -top $2 -run map_memory:" ;;
    ecp5) echo "synth_ecp5 -top $2 -run :coarse; proc; flatten; tribuf -logic; deminout; \
            opt_expr; opt_clean; check; opt -nodffe -nosdff; fsm; opt; wreduce; peepopt; \
            opt_clean; techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean; \
            alumacc; opt; memory -nomap; opt_clean; synth_ecp5 -top $2 -run map_ram:" ;;
    ice40) echo "synth_ice40 -top $2" ;;
    esac
}

log2() { awk -v v="$1" 'BEGIN { n = 0; while (2 ^ n < v) n++; print n }'; } # ceil
# the node's derived widths (tn_plane.v): AW, RW, DW, BB
node_params() { # W LANES RELAY ROUNDS MEM_DEPTH
    local aw rw bb
    aw=$(log2 "$5") rw=$(log2 "$4") bb=$(log2 "$2")
    echo "-set DIM_X 7 -set DIM_Y 7 -set DIM_Z 7 -set W $1 -set LANES $2 -set RELAY $3 \
        -set AW $aw -set RW $rw -set DW $(( aw + 2 < 16 ? aw + 2 : 16 )) -set BB $bb"
}

one() { # name arch top chparams
    local log=$out/$1.log
    if [ ! -s "$log.done" ]; then
        echo "estimate: synthesising $1 ($2, $3)..." >&2
        $YOSYS -q -l "$log" -p "read_verilog -defer $net; chparam $4 $3; $(synth "$2" "$3"); stat" \
            >/dev/null 2>&1 || { tail -20 "$log" >&2; exit 1; }
        count "$2" "$log" >"$log.done"
    fi
    echo "$1 $2 $3 $(cat "$log.done")" >>"$raw"
}

one xil6 xilinx tn_node "$(node_params 16 6 1 512 4096)"
one xil1 xilinx tn_node "$(node_params 16 1 1 512 4096)"
one ecp5 ecp5 tn_node "$(node_params 16 6 1 512 4096)"
one ice40 ice40 tn_node "$(node_params 8 1 0 16 256)"
for arch in xilinx ecp5; do
    one "seq_$arch" "$arch" tn_seq "-set N 343 -set ROUNDS 512 -set RW 9 -set DW 14"
done
scripts/board_estimate_table.sh "$raw"
