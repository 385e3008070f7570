#!/usr/bin/env python3
"""List every register of a synthesized iCE40 netlist whose input logic is
too deep for a clock period, grouped by RTL signal.

nextpnr reports one critical path per clock; cutting it only shows the next.
This walks the yosys netlist (synth_ice40 -json) once and estimates, for each
flip-flop and block-RAM input, the arrival time of its slowest path with a
fixed delay per logic level (LUT plus one routing hop, carry steps, clock to
output), so the whole work list for a target clock is visible before place and
route. The delays are averages read from nextpnr's path reports (docs/
boards.md); the ranking is reliable, the absolute numbers are estimates.

With several clocks, --clock NET=MHz gives a clock net (a name in the
netlist, e.g. the top's clock wire) its own budget; registers on other
clocks get --mhz.

Usage: scripts/board_paths.py SYNTH_JSON TOP [--mhz 48] [--clock NET=MHz]...
                              [--device up5k|hx8k] [--paths N] [--match REGEX]
"""
import argparse
import collections
import json
import re
import sys

# Average delays in ns (nextpnr-ice40 path reports of this design).
DEVICES = {
    #        LUT  route carry(CI) carry(in) clk->Q  RAM clk->out setup
    "up5k": (1.1, 2.4, 0.3, 0.7, 1.4, 2.5, 1.2),
    "hx8k": (0.45, 1.2, 0.1, 0.3, 0.55, 1.9, 0.5),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json")
    ap.add_argument("top")
    ap.add_argument("--mhz", type=float, default=48.0, help="target clock (default 48)")
    ap.add_argument("--clock", action="append", default=[], metavar="NET=MHz",
                    help="budget of the registers clocked by net NET (repeatable)")
    ap.add_argument("--device", choices=sorted(DEVICES), default="up5k")
    ap.add_argument("--paths", type=int, default=0, help="also print the N slowest paths cell by cell")
    ap.add_argument("--match", default="", help="only endpoints whose cell name matches REGEX")
    a = ap.parse_args()
    lut, route, ci, cin, cq, ramq, setup = DEVICES[a.device]
    budget = 1000.0 / a.mhz

    with open(a.json) as f:
        mods = json.load(f)["modules"]
    if a.top not in mods:
        sys.exit(f"board_paths: no module {a.top} in {a.json}")
    cells = mods[a.top]["cells"]
    clock_mhz = {}   # clock net bit -> MHz
    netnames = mods[a.top]["netnames"]
    for spec in a.clock:
        net, _, mhz = spec.partition("=")
        if net not in netnames or not mhz:
            sys.exit(f"board_paths: --clock {spec}: no net {net} in {a.top} (or no MHz)")
        for b in netnames[net]["bits"]:
            clock_mhz[b] = float(mhz)
    driver = {}
    for name, c in cells.items():
        for port, bits in c["connections"].items():
            if c["port_directions"][port] == "output":
                for b in bits:
                    if not isinstance(b, str):
                        driver[b] = (name, port)

    sys.setrecursionlimit(1 << 20)
    memo = {}

    def arrival(bit):
        """(ns, previous bit) of the slowest path to a net."""
        if bit in memo:
            return memo[bit]
        res = (0.0, None)
        if bit in driver:
            name, _ = driver[bit]
            c = cells[name]
            t = c["type"]
            if t == "SB_LUT4" or t == "SB_CARRY":
                best = (0.0, None)
                for port in ("I0", "I1", "I2", "I3", "CI"):
                    for b in c["connections"].get(port, []):
                        if isinstance(b, str):
                            continue
                        src = driver.get(b)
                        from_carry = src is not None and cells[src[0]]["type"] == "SB_CARRY"
                        if t == "SB_CARRY":
                            d = ci if port == "CI" else route + cin
                        else:
                            d = cin if (from_carry and port == "I3") else route
                        v = arrival(b)[0] + d
                        if v > best[0]:
                            best = (v, b)
                res = (best[0] + (lut if t == "SB_LUT4" else 0.0), best[1])
            elif t.startswith("SB_RAM"):
                res = (ramq, None)
            elif t.startswith("SB_DFF"):
                res = (cq, None)
        memo[bit] = res
        return res

    def budget_of(c):
        clk = c["connections"].get("C") or c["connections"].get("RCLK") or [None]
        return 1000.0 / clock_mhz.get(clk[0], a.mhz)

    ends = []
    pat = re.compile(a.match) if a.match else None
    for name, c in cells.items():
        t = c["type"]
        if not (t.startswith("SB_DFF") or t.startswith("SB_RAM")):
            continue
        if pat and not pat.search(name):
            continue
        lim = budget_of(c)
        for port, bits in c["connections"].items():
            if c["port_directions"][port] != "input" or port in ("C", "RCLK", "WCLK"):
                continue
            for b in bits:
                if not isinstance(b, str):
                    ends.append((arrival(b)[0] + route + setup, name, port, b, lim))
    ends.sort(key=lambda e: -e[0])
    over = [e[:4] for e in ends if e[0] > e[4]]

    def stem(name):
        return re.sub(r"(_SB_|\$).*", "", name)

    worst = {}
    count = collections.Counter()
    for t, name, _, _ in over:
        s = stem(name)
        count[s] += 1
        worst[s] = max(worst.get(s, 0.0), t)
    clocks = "".join(f", {c}" for c in a.clock)
    print(f"{a.device} at {a.mhz:g} MHz ({budget:.1f} ns){clocks}: {len(over)} of {len(ends)} register inputs "
          f"over budget in {len(count)} groups (estimated ns, inputs, register)")
    for s in sorted(count, key=lambda k: -worst[k]):
        print(f"  {worst[s]:5.1f} {count[s]:4d}  {s}")
    for t, name, port, b in over[:a.paths]:
        print(f"path {t:.1f} ns to {name}.{port}")
        x = b
        while x is not None and x in driver:
            n = driver[x][0]
            print(f"  {arrival(x)[0]:5.1f}  {cells[n]['type']:<10} {n}")
            x = arrival(x)[1]


if __name__ == "__main__":
    main()
