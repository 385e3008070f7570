#!/usr/bin/env bash
# Table of the 7x7x7 estimates from scripts/board_estimate.sh's raw lines:
# 343 x node + sequencer per architecture and W, the flit memory in 18-kbit
# block RAMs, and which parts it fits. Capacities from the vendors' data
# sheets (LUT4 for ECP5, LUT6 for the Xilinx parts; 18-kbit blocks).
# Usage: scripts/board_estimate_table.sh RAW [MEM_DEPTH] [LANES]
set -eu
raw=$1 depth=${2:-4096} lanes=${3:-6}
echo "| arch | W | LUT / node | FF / node | 7x7x7 LUT | 7x7x7 FF | 18-kbit blocks, 1 copy | 18-kbit blocks, banked layout | fits (logic: LUT and FF; memory: banked layout) |"
echo "|---|---|---|---|---|---|---|---|---|"
awk -v depth="$depth" -v lanes="$lanes" '
function val(s, k,   a, i, n, kv) {
    n = split(s, a, " ")
    for (i = 1; i <= n; i++) { split(a[i], kv, "="); if (kv[1] == k) return kv[2] }
    return 0
}
{
    arch = $1
    if ($2 == "node") { w = substr($3, 3); node[arch, w] = $0; ws[w] = 1; archs[arch] = 1 }
    else seq[arch] = $0
}
END {
    N = 343
    # parts: name, arch, LUTs, FFs, 18-kbit blocks
    np = 0
    p[++np] = "ECP5-85F";  pa[np] = "ecp5";   pl[np] = 83640;   pf[np] = 83640;   pb[np] = 208
    p[++np] = "Artix-7 200T"; pa[np] = "xilinx"; pl[np] = 134600;  pf[np] = 269200;  pb[np] = 730
    p[++np] = "Kintex-7 325T"; pa[np] = "xilinx"; pl[np] = 203800;  pf[np] = 407600;  pb[np] = 890
    p[++np] = "VU9P";      pa[np] = "xilinx"; pl[np] = 1182240; pf[np] = 2364480; pb[np] = 4320
    for (w in ws) for (a in archs) {
        s = node[a, w]; q = seq[a]
        if (s == "") continue
        nl = val(s, "lut"); nf = val(s, "ff")
        tl = N * nl + val(q, "lut"); tf = N * nf + val(q, "ff")
        mw = w + 2
        # one copy: depth x (W+2) bits in 1024 x 18 blocks (x2 across for W=32)
        per = int((mw + 17) / 18) * int((depth + 1023) / 1024)
        one = N * per
        # FPGA layout: a bank per eject lane, each replicated per inject lane
        bank = int((int((depth + lanes - 1) / lanes) + 1023) / 1024) * int((mw + 17) / 18)
        rep = N * lanes * lanes * bank
        fit = ""
        for (i = 1; i <= np; i++) if (pa[i] == a) {
            ok = (tl <= pl[i] && tf <= pf[i]) ? "logic fits" : "logic does not fit"
            okb = (rep <= pb[i]) ? "memory fits" : "memory does not fit"
            m = int(pl[i] / nl); if (int(pf[i] / nf) < m) m = int(pf[i] / nf)
            fit = fit sprintf("%s%s: %s (%d%%), %s; logic for %d nodes", fit == "" ? "" : "; ", p[i], ok, 100 * tl / pl[i], okb, m)
        }
        printf "| %s | %d | %d | %d | %d | %d | %d | %d | %s |\n", a, w, nl, nf, tl, tf, one, rep, fit
    }
}' "$raw" | sort -t'|' -k2,2 -k3,3n
