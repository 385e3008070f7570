# tn_node_gate.awk: patch a Verilated model (tn_sim_top) so that the
# network's edges run the code of the nodes with work only: every call of
# a node's scheduled ("nba") function from the root's evaluation becomes
#     if (<node k's bit of neval_i>) <the call>
# where neval_i is the top input the C wrapper sets to tn_torus's nbusy_o
# before each edge (sim/tn_sim.cpp). tn_torus defines nbusy_o so that a node
# without work keeps every register and output at that edge: skipping its
# code simulates the same design (docs/NOTES.md, "Simulation cost").
# Node k = x + DIM_X * (y + DIM_Y * z) from the instance's generate indices.
# Usage: awk -v DX=.. -v DY=.. -v N=.. -f tn_node_gate.awk FILE > OUT
# Prints "gate: CALLS" to stderr: the calls it patched.

# the index of generate block g in an instance name (-1: none)
function idx(name, g) {
    if (!match(name, g "__BRA__[0-9]+__KET__"))
        return -1
    return substr(name, RSTART + length(g) + 7, RLENGTH - length(g) - 14) + 0
}
/^[A-Za-z].*\(Vtn_sim_top___024root\* vlSelf\) *\{$/ { root = 1 }
/^[A-Za-z].*\(Vtn_sim_top_[a-z_]*__pi[0-9]*\* vlSelf\) *\{$/ { root = 0 }
# (a file patched before, when Verilator skipped an unchanged model)
root && /^ *if \(\(vlSelf->neval_i/ { calls++; print; next }
root && /^ *Vtn_sim_top_tn_node__pi[0-9]*___nba_[A-Za-z0-9_]*\(\(&vlSymsp->[A-Za-z0-9_]*\)\);$/ {
    arg = $0
    sub(/^.*\(&vlSymsp->/, "", arg)
    if (idx(arg, "gen_z") >= 0 && idx(arg, "gen_y") >= 0 && idx(arg, "gen_x") >= 0) {
        k = idx(arg, "gen_x") + DX * (idx(arg, "gen_y") + DY * idx(arg, "gen_z"))
        ind = $0
        sub(/[^ ].*$/, "", ind)
        sub(/^ */, "")
        if (N > 64)
            t = sprintf("(vlSelf->neval_i.at(%dU) >> %dU) & 1U", int(k / 32), k % 32)
        else
            t = sprintf("(vlSelf->neval_i >> %dU) & 1U", k)
        print ind "if (" t ") " $0
        calls++
        next
    }
}
{ print }
END { printf "gate: %d\n", calls > "/dev/stderr" }
