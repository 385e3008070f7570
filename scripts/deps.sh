#!/usr/bin/env bash
# Install the Debian packages torus needs, only those missing.
# Usage: scripts/deps.sh [--check]   (--check: list what is missing, exit 1 if any)
set -eu
pkgs=(
    build-essential pkg-config ccache perl jq libxml2-utils valgrind
    verilator iverilog yosys z3 nextpnr-ice40 fpga-icestorm openfpgaloader
    libusb-1.0-0-dev libftdi1-dev libjansson-dev zlib1g-dev
    umockdev libumockdev-dev groff-base librsvg2-bin
    clang
)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "${1:-}" = "--check" ]; then
    echo "missing packages: ${missing[*]}" >&2
    exit 1
fi
echo "deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "deps: not root and no sudo; install as root: apt-get install ${missing[*]}" >&2; exit 1; }
    sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
