# tn_gate.awk: patch a Verilated model (tn_sim_top, one thread) so that at
# each clock edge it runs the code of the planes and nodes with work for
# that clock only: every call of a plane's or node's scheduled ("nba")
# function from the root's evaluation becomes
#     if (<its bit of the mask for the clock>) <the call>
# the masks being top inputs: at the network clock's edge (nba trigger TN)
# pnet_i for planes and neval_i for nodes, at the bus clock's (TB) ptab_i
# and nteval_i (sim/tn_sim_top.v; docs/hardware.md, "Clocks and reset":
# why it is exact). Plane z and node k = x + DIM_X * (y + DIM_Y * z) from
# the instance's generate indices.
# Usage: awk -v DX=.. -v DY=.. -v N=.. -v Z=.. -v TB=.. -v TN=.. -f tn_gate.awk FILE...
# writes each FILE patched to FILE.tmp and prints to stderr
#     gate: CALLS GATED MIN MAX PCALLS PGATED PMIN PMAX
# CALLS the node calls found, GATED those patched, MIN and MAX the fewest
# and most patched calls of one node; the P fields the same for planes.
# A call under a trigger other than TB or TN alone is not patched. The
# build takes the patch only if GATED = CALLS and MIN = MAX >= 1, and the
# same for planes (every node and every plane gated alike).

# the index of generate block g in an instance name (-1: none)
function idx(name, g) {
    if (!match(name, g "__BRA__[0-9]+__KET__"))
        return -1
    return substr(name, RSTART + length(g) + 7, RLENGTH - length(g) - 14) + 0
}
# the test of bit b of top input v (wide: more than 64 bits)
function bit(v, b, wide) {
    if (wide)
        return sprintf("(vlSelf->%s.at(%dU) >> %dU) & 1U", v, int(b / 32), b % 32)
    return sprintf("(vlSelf->%s >> %dU) & 1U", v, b)
}
# line $0 with the test t in front (unless patched before, should
# Verilator leave a file as it was)
function gate(t,    ind) {
    if ($0 ~ /^ *if /)
        return $0
    ind = $0
    sub(/[^ ].*$/, "", ind)
    sub(/^ */, "")
    return ind "if (" t ") " $0
}
FNR == 1 { root = 0; trig = -1 }
/^[A-Za-z].*\(Vtn_sim_top___024root\* vlSelf\) *\{$/ { root = 1; trig = -1 }
/^[A-Za-z].*\(Vtn_sim_top_tn_[a-z_]*__[A-Za-z0-9_]*\* vlSelf\) *\{$/ { root = 0 }
# the trigger of the block a call is in: one index, or -1 (none, several)
root && /^    if \(vlSelf->__VnbaTriggered\.at\(/ {
    trig = $0
    sub(/^    if \(vlSelf->__VnbaTriggered\.at\(/, "", trig)
    if (trig ~ /^[0-9]+U\)\) \{$/) trig = trig + 0
    else trig = -1
}
root && /^    if \(\(/ { trig = -1 }
root && /^    }$/ { trig = -1 }
/Vtn_sim_top_tn_node__[A-Za-z0-9_]*___nba_[A-Za-z0-9_]*\(\(&vlSymsp->/ { calls++ }
/Vtn_sim_top_tn_plane__[A-Za-z0-9_]*___nba_[A-Za-z0-9_]*\(\(&vlSymsp->/ { pcalls++ }
# a run of node calls of one plane goes in a block under the plane's bit,
# so that a plane without work costs one test, not one a node
function close_run() {
    if (run >= 0)
        print "        }" > (FILENAME ".tmp")
    run = -1
}
FNR == 1 { run = -1 }
root && (trig == TB || trig == TN) &&
/^ *(if \([^;]*\) )?Vtn_sim_top_tn_node__[A-Za-z0-9_]*___nba_[A-Za-z0-9_]*\(\(&vlSymsp->[A-Za-z0-9_]*\)\);$/ {
    arg = $0
    sub(/^.*\(&vlSymsp->/, "", arg)
    if (idx(arg, "gen_z") >= 0 && idx(arg, "gen_y") >= 0 && idx(arg, "gen_x") >= 0) {
        z = idx(arg, "gen_z")
        k = idx(arg, "gen_x") + DX * (idx(arg, "gen_y") + DY * z)
        if (run != z + Z * trig) {
            close_run()
            print "        if (" bit(trig == TN ? "pnet_i" : "ptab_i", z, 0) ") {" > (FILENAME ".tmp")
            run = z + Z * trig
        }
        $0 = gate(bit(trig == TN ? "neval_i" : "nteval_i", k, N > 64))
        print "    " $0 > (FILENAME ".tmp")
        gated++
        per[k]++
        next
    }
}
{ close_run() }
root && (trig == TB || trig == TN) &&
/^ *(if \([^;]*\) )?Vtn_sim_top_tn_plane__[A-Za-z0-9_]*___nba_[A-Za-z0-9_]*\(\(&vlSymsp->[A-Za-z0-9_]*\)\);$/ {
    arg = $0
    sub(/^.*\(&vlSymsp->/, "", arg)
    z = idx(arg, "gen_z")
    if (z >= 0) {
        $0 = gate(bit(trig == TN ? "pnet_i" : "ptab_i", z, 0))
        print > (FILENAME ".tmp")
        pgated++
        pper[z]++
        next
    }
}
{ print > (FILENAME ".tmp") }
function range(a, n,    i, lo, hi) {
    lo = hi = a[0] + 0
    for (i = 1; i < n; i++) {
        if (a[i] + 0 < lo) lo = a[i] + 0
        if (a[i] + 0 > hi) hi = a[i] + 0
    }
    return lo " " hi
}
END {
    printf "gate: %d %d %s %d %d %s\n", calls, gated, range(per, N), pcalls, pgated, range(pper, Z) > "/dev/stderr"
}
