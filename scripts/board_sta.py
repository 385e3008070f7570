#!/usr/bin/env python3
"""Every failing register input of a placed and routed iCE40 design, with
nextpnr's own delays.

nextpnr reports one critical path per clock. This reads the delays nextpnr
annotated after routing (--sdf: every cell's input-to-output and clock-to-
output delay, every routed connection, every setup time) and the clock net
of every cell (--write: the routed netlist), runs a static timing analysis
of one clock's register-to-register paths, and lists every endpoint that
misses the period, worst first, grouped by register (the cell name up to
yosys' "_SB_" suffixes), with the worst path of each group cell by cell.
Paths between clocks are not analysed (tn_torus crosses between the bus
and the network clock with a toggle handshake, docs/hardware.md). Its
worst slack equals nextpnr's critical path to within rounding (the tool
checks this when given nextpnr's log).

Usage: scripts/board_sta.py DIR [--clock clk] [--mhz 48] [--paths N]
           [--match REGEX] [--all]
DIR holds nextpnr.sdf and post.json of a build (make bitstream writes them
to build/board/<board>/).
"""
import argparse
import collections
import json
import os
import re
import sys


def unescape(name):
    return name.replace("\\", "")


def split_pin(tok):
    """'cell/port' -> (cell, port); cell names may contain escaped slashes"""
    tok = unescape(tok)
    i = tok.rfind("/")
    return tok[:i], tok[i + 1:]


def first_delay(s):
    """'(662:662:662)' -> 662 (max of min:typ:max, ps)"""
    m = re.match(r"\((-?\d+)(?::(-?\d+))?(?::(-?\d+))?\)", s)
    if not m:
        return 0
    return max(int(v) for v in m.groups() if v is not None)


def parse_sdf(path):
    wires = []                                   # (from, to, ps)
    paths = collections.defaultdict(dict)        # cell -> {(in, out): ps}; in 'CLK>' for clocked
    setup = collections.defaultdict(dict)        # cell -> {port: ps}
    cell = None
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith("(INSTANCE"):
                inst = s[len("(INSTANCE"):].rstrip(")").strip()
                cell = unescape(inst)
            elif s.startswith("(INTERCONNECT"):
                parts = s[len("(INTERCONNECT"):].split()
                a, b = split_pin(parts[0]), split_pin(parts[1])
                wires.append((a, b, first_delay(parts[2])))
            elif s.startswith("(IOPATH"):
                parts = s[len("(IOPATH"):].split()
                if parts[0] == "(posedge" or parts[0] == "(negedge":
                    src = parts[1].rstrip(")") + ">"
                    dst, d = parts[2], parts[3]
                else:
                    src, dst, d = parts[0], parts[1], parts[2]
                    if src in ("CLK", "RCLK", "WCLK"):
                        src += ">"
                paths[cell][(src, dst)] = first_delay(d)
            elif s.startswith("(SETUPHOLD") or s.startswith("(SETUP "):
                m = re.match(r"\((?:SETUPHOLD|SETUP) \((?:posedge|negedge) ([A-Za-z_0-9]+)\) "
                             r"\((?:posedge|negedge) ([A-Za-z_0-9]+)\) (\([^)]*\))", s)
                if m:
                    port, clkp, d = m.group(1), m.group(2), first_delay(m.group(3))
                    key = (port, clkp)
                    setup[cell][key] = max(setup[cell].get(key, 0), d)
    return wires, paths, setup


def clock_nets(path):
    with open(path) as f:
        top = json.load(f)["modules"]["top"]
    name = {}
    for n, v in top["netnames"].items():
        for b in v["bits"]:
            # a bit's name: the first, or a user name over a generated ($) one
            if isinstance(b, int) and (b not in name or (name[b].startswith("$") and not n.startswith("$"))):
                name[b] = n
    clk = {}
    bel = {}
    for cn, c in top["cells"].items():
        for p in ("CLK", "RCLK", "WCLK"):
            v = c["connections"].get(p)
            if v and isinstance(v[0], int):
                clk[(cn, p)] = name.get(v[0], "?")
        bel[cn] = c.get("attributes", {}).get("NEXTPNR_BEL", "")
    return clk, bel


def group_of(cell):
    """RTL register a cell stands for: cut yosys' and nextpnr's suffixes"""
    g = re.sub(r"(_SB_|\$).*$", "", cell)
    g = re.sub(r"\.(\d+)\.(\d+)_RAM$", "", g)
    return g or cell


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--clock", default="clk", help="clock net to analyse (default clk)")
    ap.add_argument("--mhz", type=float, default=48.0, help="required frequency (default 48)")
    ap.add_argument("--paths", type=int, default=10, help="print the worst path of the N worst groups")
    ap.add_argument("--match", default="", help="only endpoints whose cell matches REGEX")
    ap.add_argument("--all", action="store_true", help="list passing groups too (worst 60)")
    a = ap.parse_args()
    sdf, post = os.path.join(a.dir, "nextpnr.sdf"), os.path.join(a.dir, "post.json")
    for p in (sdf, post):
        if not os.path.exists(p):
            sys.exit(f"board_sta: {p} missing: build with make bitstream (it writes both)")
    wires, paths, setup = parse_sdf(sdf)
    clk, bel = clock_nets(post)
    period = 1e6 / a.mhz  # ps

    # graph: pin -> [(pin, ps)]
    succ = collections.defaultdict(list)
    indeg = collections.Counter()
    pins = set()
    for (fa, fb, d) in wires:
        succ[fa].append((fb, d))
        indeg[fb] += 1
        pins.update((fa, fb))
    start = {}
    for cell, pp in paths.items():
        for (src, dst), d in pp.items():
            if src.endswith(">"):
                cp = src[:-1]
                if clk.get((cell, cp)) == a.clock:
                    start[(cell, dst)] = d
            else:
                succ[(cell, src)].append(((cell, dst), d))
                indeg[(cell, dst)] += 1
                pins.update(((cell, src), (cell, dst)))
    # longest arrival from any start (Kahn order over all pins)
    arr = {}
    pred = {}
    for p, d in start.items():
        arr[p] = d
    order = [p for p in pins if indeg[p] == 0]
    seen = 0
    deg = dict(indeg)
    while order:
        p = order.pop()
        seen += 1
        ap_ = arr.get(p)
        for q, d in succ.get(p, ()):
            if ap_ is not None and (q not in arr or ap_ + d > arr[q]):
                if q not in start:
                    arr[q] = ap_ + d
                    pred[q] = p
            deg[q] -= 1
            if deg[q] == 0:
                order.append(q)
    ends = []
    for cell, ss in setup.items():
        for (port, cp), su in ss.items():
            if clk.get((cell, cp)) != a.clock:
                continue
            p = (cell, port)
            if p in arr and (not a.match or re.search(a.match, cell)):
                ends.append((period - su - arr[p], p, su))
    if not ends:
        sys.exit("board_sta: no endpoint on clock " + a.clock)
    ends.sort()
    worst = ends[0][0]
    groups = collections.OrderedDict()
    for slack, p, su in ends:
        g = group_of(p[0])
        groups.setdefault(g, []).append((slack, p, su))
    failing = [(g, v) for g, v in groups.items() if v[0][0] < 0]
    nfail = sum(1 for e in ends if e[0] < 0)
    fmax = 1e6 / (period - worst)
    print(f"{a.clock} at {a.mhz:g} MHz ({period / 1000:.2f} ns): worst slack {worst / 1000:.2f} ns "
          f"(Fmax {fmax:.2f} MHz); {nfail} of {len(ends)} register inputs fail, in {len(failing)} groups")
    print(" slack ns  inputs  levels  register (worst input)")
    shown = groups.items() if a.all else failing
    for i, (g, v) in enumerate(shown):
        if a.all and i >= 60:
            break
        slack, p, su = v[0]
        lv = levels(p, pred)
        print(f"{slack / 1000:9.2f}  {len(v):6d}  {lv:6d}  {g} ({p[1]})")
    for i, (g, v) in enumerate(list(shown)[:a.paths]):
        slack, p, su = v[0]
        print(f"\n-- {g} ({p[1]}), slack {slack / 1000:.2f} ns")
        chain = []
        q = p
        while q is not None:
            chain.append(q)
            q = pred.get(q)
        chain.reverse()
        for q in chain:
            print(f"   {arr[q] / 1000:6.2f}  {q[0]}/{q[1]}  {bel.get(q[0], '')}")
        print(f"   {(arr[p] + su) / 1000:6.2f}  setup {su / 1000:.2f}")


def levels(p, pred):
    """LUT outputs on the path into p"""
    n = 0
    q = pred.get(p)
    while q is not None:
        if q[1] == "O":
            n += 1
        q = pred.get(q)
    return max(n - 1, 0)


if __name__ == "__main__":
    main()
