#!/usr/bin/env bash
# The 7x7x7 estimate table from scripts/board_estimate.sh's raw lines: per
# node, the torus (343 x node + sequencer) and its share of each part.
# "fits" means logic (LUT and FF) <= 60 % and block RAM <= 80 % of the part,
# room for placement and routing. Capacities from the vendors' data sheets
# (LUT6 and 18-kbit blocks for the Xilinx parts, LUT4 and DP16KD for ECP5);
# the Xilinx node is synthesised for UltraScale+, whose LUT6 and RAMB18 the
# 7-series parts share.
# Usage: scripts/board_estimate_table.sh RAW [--values]
#   --values: the same figures as lines for scripts ("node CONFIG lut=N ff=N
#   bram=N" and "part CONFIG PART lut=% ff=% ram=% fits=yes|no").
set -eu
values=0
[ "${2:-}" = --values ] && values=1
awk -v values="$values" '
function val(s, k,   a, i, n, kv) {
    n = split(s, a, " ")
    for (i = 1; i <= n; i++) { split(a[i], kv, "="); if (kv[1] == k) return kv[2] }
    return 0
}
{ line[$1] = $0 }
END {
    N = 343
    desc["xil6"] = "xilinx, W=16 LANES=6 RELAY=1 ROUNDS=512 MEM_DEPTH=4096"
    desc["xil1"] = "xilinx, W=16 LANES=1 RELAY=1 ROUNDS=512 MEM_DEPTH=4096"
    desc["ecp5"] = "ecp5,   W=16 LANES=6 RELAY=1 ROUNDS=512 MEM_DEPTH=4096"
    desc["ice40"] = "ice40,  W=8  LANES=1 RELAY=0 ROUNDS=16 MEM_DEPTH=256"
    unit["xil6"] = unit["xil1"] = "RAMB18"; unit["ecp5"] = "DP16KD"; unit["ice40"] = "EBR"
    if (!values) {
        printf "Per node (one tn_node, 7x7x7 coordinates)\n"
        printf "  %-58s %8s %8s %10s\n", "configuration", "LUT", "FF", "block RAM"
    }
    split("xil6 xil1 ecp5 ice40", cfg, " ")
    for (i = 1; i <= 4; i++) {
        c = cfg[i]
        if (!(c in line)) continue
        if (values)
            printf "node %s lut=%d ff=%d bram=%d\n", c, val(line[c], "lut"), val(line[c], "ff"),
                   val(line[c], "bram")
        else
            printf "  %-58s %8d %8d %6d %s\n", desc[c], val(line[c], "lut"), val(line[c], "ff"),
                   val(line[c], "bram"), unit[c]
    }
    np = 0
    p[++np] = "Artix-7 200T";  pa[np] = "xilinx"; pl[np] = 134600;  pf[np] = 269200;  pb[np] = 730
    p[++np] = "Kintex-7 410T"; pa[np] = "xilinx"; pl[np] = 254200;  pf[np] = 508400;  pb[np] = 1590
    p[++np] = "KU15P";         pa[np] = "xilinx"; pl[np] = 522720;  pf[np] = 1045440; pb[np] = 1968
    p[++np] = "VU9P";          pa[np] = "xilinx"; pl[np] = 1182240; pf[np] = 2364480; pb[np] = 4320
    p[++np] = "ECP5-85F";      pa[np] = "ecp5";   pl[np] = 83640;   pf[np] = 83640;   pb[np] = 208
    if (!values) {
        printf "\n7x7x7 torus (343 x node + sequencer): share of each part\n"
        printf "  %-6s %10s %10s %8s  %s\n", "config", "LUT", "FF", "RAM", "part: LUT % / FF % / RAM %"
    }
    split("xil6 xil1 ecp5", tc, " ")
    for (i = 1; i <= 3; i++) {
        c = tc[i]
        if (!(c in line)) continue
        arch = (c == "ecp5") ? "ecp5" : "xilinx"
        s = line["seq_" arch]
        tl = N * val(line[c], "lut") + val(s, "lut")
        tf = N * val(line[c], "ff") + val(s, "ff")
        tb = N * val(line[c], "bram") + val(s, "bram")
        out = ""
        for (k = 1; k <= np; k++) if (pa[k] == arch) {
            ul = 100 * tl / pl[k]; uf = 100 * tf / pf[k]; ub = 100 * tb / pb[k]
            fit = (ul <= 60 && uf <= 60 && ub <= 80) ? "fits" : "no"
            out = out sprintf("%s%s %.0f/%.0f/%.0f %s", out == "" ? "" : "; ", p[k], ul, uf, ub, fit)
            if (values)
                printf "part %s %s lut=%.0f ff=%.0f ram=%.0f fits=%s\n", c, p[k], ul, uf, ub,
                       fit == "fits" ? "yes" : "no"
        }
        if (!values)
            printf "  %-6s %10d %10d %8d  %s\n", c, tl, tf, tb, out
    }
}' "$1"
