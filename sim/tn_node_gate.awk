# tn_node_gate.awk: patch a Verilated model (tn_sim_top, one thread) so
# that a clocked plane runs the code of its nodes with work only: every call
# of a node's scheduled ("nba") function from the root's evaluation becomes
#     if (<node k's bit of neval_i>) <the call>
# (docs/hardware.md, "Clocks and reset": neval_i, why it is exact).
# Node k = x + DIM_X * (y + DIM_Y * z) from the instance's generate indices.
# Usage: awk -v DX=.. -v DY=.. -v N=.. -f tn_node_gate.awk FILE...
# writes each FILE patched to FILE.tmp and prints to stderr
#     gate: CALLS GATED MIN MAX
# CALLS the node calls found, GATED those patched, MIN and MAX the fewest
# and most patched calls of one node: the build takes the patch only if
# GATED = CALLS and MIN = MAX >= 1 (every node gated alike).

# the index of generate block g in an instance name (-1: none)
function idx(name, g) {
    if (!match(name, g "__BRA__[0-9]+__KET__"))
        return -1
    return substr(name, RSTART + length(g) + 7, RLENGTH - length(g) - 14) + 0
}
FNR == 1 { root = 0 }
/^[A-Za-z].*\(Vtn_sim_top___024root\* vlSelf\) *\{$/ { root = 1 }
/^[A-Za-z].*\(Vtn_sim_top_[a-z_]*__pi[0-9]*\* vlSelf\) *\{$/ { root = 0 }
/Vtn_sim_top_tn_node__pi[0-9]*___nba_[A-Za-z0-9_]*\(\(&vlSymsp->/ { calls++ }
# (a line patched before, should Verilator leave a file as it was, stays)
root && /^ *(if \(\(vlSelf->neval_i[^ ]* >> [0-9]+U\) & 1U\) )?Vtn_sim_top_tn_node__pi[0-9]*___nba_[A-Za-z0-9_]*\(\(&vlSymsp->[A-Za-z0-9_]*\)\);$/ {
    arg = $0
    sub(/^.*\(&vlSymsp->/, "", arg)
    if (idx(arg, "gen_z") >= 0 && idx(arg, "gen_y") >= 0 && idx(arg, "gen_x") >= 0) {
        k = idx(arg, "gen_x") + DX * (idx(arg, "gen_y") + DY * idx(arg, "gen_z"))
        if ($0 !~ /^ *if /) {
            ind = $0
            sub(/[^ ].*$/, "", ind)
            sub(/^ */, "")
            if (N > 64)
                t = sprintf("(vlSelf->neval_i.at(%dU) >> %dU) & 1U", int(k / 32), k % 32)
            else
                t = sprintf("(vlSelf->neval_i >> %dU) & 1U", k)
            $0 = ind "if (" t ") " $0
        }
        print > (FILENAME ".tmp")
        gated++
        per[k]++
        next
    }
}
{ print > (FILENAME ".tmp") }
END {
    lo = hi = per[0] + 0
    for (k = 1; k < N; k++) {
        if (per[k] + 0 < lo) lo = per[k] + 0
        if (per[k] + 0 > hi) hi = per[k] + 0
    }
    printf "gate: %d %d %d %d\n", calls, gated, lo, hi > "/dev/stderr"
}
