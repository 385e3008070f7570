#!/usr/bin/env python3
"""Count the logic cells a synthesized iCE40 netlist will take, and list the
flip-flops that take a cell of their own, grouped by RTL register.

An iCE40 logic cell holds one LUT4, one flip-flop and one carry. nextpnr
packs a flip-flop into its LUT's cell only when that LUT's output drives
nothing but the flip-flop's D input; a flip-flop fed by another flip-flop,
by a block RAM, by a shared signal, or by a LUT whose output also goes
elsewhere takes a cell alone (nextpnr's "LCs used as DFF only"). Those are
what this lists: on the boards they were a fifth of the cells (docs/
boards.md, "What limits each board"). Carries without their LUT and the
carry chains' legalisation add a few more cells, which only nextpnr counts.

Usage: scripts/board_cells.py SYNTH_JSON [--top N]
Nodes of a torus are merged: gen_x[..], gen_y[..], gen_z[..] print as *.
"""
import argparse
import collections
import json
import re
import signal
import sys


def top_module(netlist):
    """The module yosys marked as the top (its attribute is a binary string)."""
    mods = netlist["modules"].values()
    tops = [m for m in mods if int(m.get("attributes", {}).get("top", "0"), 2)]
    return tops[0] if tops else max(mods, key=lambda m: len(m["cells"]))


def net_names(mod):
    """The shortest visible name of each net bit."""
    names = {}
    for name, net in mod["netnames"].items():
        hidden = net.get("hide_name", 0)
        for bit in net["bits"]:
            if isinstance(bit, str):
                continue
            old = names.get(bit)
            if old is None or (old[1], len(old[0])) > (hidden, len(name)):
                names[bit] = (name, hidden)
    return {bit: name for bit, (name, _) in names.items()}


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # quiet under `| head`
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json")
    ap.add_argument("--top", type=int, default=40, help="registers to list (default 40)")
    args = ap.parse_args()
    try:
        with open(args.json) as f:
            mod = top_module(json.load(f))
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"board_cells: cannot read {args.json}: {e}")

    driver, sinks = {}, collections.Counter()
    for cell in mod["cells"].values():
        for port, bits in cell["connections"].items():
            out = cell["port_directions"][port] == "output"
            for bit in bits:
                if isinstance(bit, str):
                    continue
                if out:
                    driver[bit] = cell["type"]
                else:
                    sinks[bit] += 1
    for port in mod["ports"].values():
        if port["direction"] == "output":
            for bit in port["bits"]:
                if not isinstance(bit, str):
                    sinks[bit] += 1

    names = net_names(mod)
    kinds = collections.Counter(cell["type"] for cell in mod["cells"].values())
    alone, why = collections.Counter(), collections.Counter()
    for cell in mod["cells"].values():
        if not cell["type"].startswith("SB_DFF"):
            continue
        d = cell["connections"]["D"][0]
        src = driver.get(d, "constant or input")
        if src == "SB_LUT4" and sinks[d] == 1:
            continue                        # packed with its LUT
        reg = re.sub(r"\[\d+\]$", "", names.get(cell["connections"]["Q"][0], "?"))
        reg = re.sub(r"gen_[xyz]\[\d+\]", "*", reg)
        alone[reg] += 1
        why["a LUT that also drives other logic" if src == "SB_LUT4" else src] += 1

    luts = kinds["SB_LUT4"]
    ffs = sum(n for t, n in kinds.items() if t.startswith("SB_DFF"))
    lone = sum(alone.values())
    print(f"LUT4 {luts}, flip-flops {ffs} ({lone} alone), carries {kinds['SB_CARRY']}, "
          f"EBR {kinds['SB_RAM40_4K']}: at least {luts + lone} logic cells")
    print("flip-flops alone, fed by: " + ", ".join(f"{k} {n}" for k, n in why.most_common()))
    for reg, n in alone.most_common(args.top):
        print(f"{n:6d}  {reg}")


if __name__ == "__main__":
    main()
