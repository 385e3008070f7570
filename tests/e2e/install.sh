#!/usr/bin/env bash
# make install into a temporary PREFIX: every file where docs/host.md says,
# the shared library's soname, pkg-config, the example program built
# against the installed tree (shared and static libtorus) and run on the
# installed 3x3x3 model, the installed torusctl finding its models, the
# man page and the bash completion. TAP output.
# Usage: tests/e2e/install.sh MAKE
set -u
MAKE=${1:?usage: install.sh MAKE}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
P=$tmp/prefix

# a make of its own (not the caller's jobserver)
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "$MAKE" --no-print-directory -s install PREFIX="$P" \
    >"$tmp/make.out" 2>&1
r=$?
check "make install PREFIX=tmp exits 0" "$([ $r = 0 ]; echo $?)"
[ $r = 0 ] || sed 's/^/# /' "$tmp/make.out" | tail -20

missing=""
for f in bin/torusctl lib/libtorus.a lib/libtorus.so lib/libtorus.so.0 lib/pkgconfig/torus.pc \
         include/torus/torus.h include/torus/sched.h include/torus/proto.h \
         lib/torus/sim/libtnsim_3x3x3.so share/man/man1/torusctl.1 \
         share/bash-completion/completions/torusctl lib/udev/rules.d/60-torus.rules \
         share/doc/torus/examples/gossip_sim.c; do
    [ -e "$P/$f" ] || missing="$missing $f"
done
check "the install tree holds torusctl, libtorus (a, so), headers, torus.pc, models, man page, completion, udev rule, example${missing:+ (missing:$missing)}" \
    "$([ -z "$missing" ]; echo $?)"
check "no private header is installed (plani.h, cmd.h)" \
    "$([ ! -e "$P/include/torus/plani.h" ] && [ ! -e "$P/include/torus/cmd.h" ]; echo $?)"
check "libtorus.so's soname is libtorus.so.0" \
    "$(readelf -d "$P/lib/libtorus.so" 2>/dev/null | grep -q 'SONAME.*\[libtorus\.so\.0\]'; echo $?)"

export PKG_CONFIG_PATH=$P/lib/pkgconfig
flags=$(pkg-config --cflags --libs torus 2>"$tmp/pc.err")
check "pkg-config --cflags --libs torus: -I$P/include, -ltorus" \
    "$([[ $flags == *"-I$P/include"* && $flags == *-ltorus* ]]; echo $?)"

# shellcheck disable=SC2086
${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$tmp/gossip_sim" "$P/share/doc/torus/examples/gossip_sim.c" \
    $flags >"$tmp/cc.out" 2>&1
r=$?
check "the example compiles against <torus/torus.h> and links the shared libtorus" "$([ $r = 0 ]; echo $?)"
[ $r = 0 ] || sed 's/^/# /' "$tmp/cc.out" | head -10
LD_LIBRARY_PATH=$P/lib "$tmp/gossip_sim" "$P/lib/torus/sim" >"$tmp/ex.out" 2>&1
r=$?
check "the example runs a gossip on the installed 3x3x3 model: every record and the cycles = model ($(head -1 "$tmp/ex.out"))" \
    "$([ $r = 0 ] && grep -q 'cycles measured.*every CRC as modelled' "$tmp/ex.out"; echo $?)"
check "it ran against the installed libtorus.so.0" \
    "$(LD_LIBRARY_PATH=$P/lib ldd "$tmp/gossip_sim" | grep -q "$P/lib/libtorus.so.0"; echo $?)"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -o "$tmp/gossip_static" "$P/share/doc/torus/examples/gossip_sim.c" \
    -I"$P/include" "$P/lib/libtorus.a" $(pkg-config --libs jansson zlib libftdi1 libusb-1.0) -ldl \
    >"$tmp/cc2.out" 2>&1 && "$tmp/gossip_static" "$P/lib/torus/sim" >/dev/null 2>&1
check "the example links the static libtorus.a too and passes" "$([ $? = 0 ]; echo $?)"

"$P/bin/torusctl" run gossip --dims 3x3x3 >"$tmp/run.out" 2>&1
check "the installed torusctl finds its models in PREFIX/lib/torus/sim and passes" \
    "$([ $? = 0 ] && grep -q 'data ok' "$tmp/run.out"; echo $?)"

groff -man -Tutf8 -ww -z "$P/share/man/man1/torusctl.1" >"$tmp/man.err" 2>&1
check "the man page renders without warnings" "$([ $? = 0 ] && [ ! -s "$tmp/man.err" ]; echo $?)"
sed 's/^/# /' "$tmp/man.err" | head -5
missing=""
for c in schedule verify run info list dump cdg routing; do
    man -l "$P/share/man/man1/torusctl.1" 2>/dev/null | grep -q "^       $c" || missing="$missing $c"
done
check "the man page names every command of torusctl --help${missing:+ (missing:$missing)}" \
    "$([ -z "$missing" ] &&
       [ "$("$P/bin/torusctl" --help | sed -n 's/^  \([a-z]*\) .*/\1/p' | tr '\n' ' ')" = \
         "schedule verify run info list dump cdg routing " ]; echo $?)"

complete_words() {  # complete_words WORD... : the completions of the last word
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _torusctl
             printf "%s\n" "${COMPREPLY[@]}"' _ "$P/share/bash-completion/completions/torusctl" "$@"
}
check "completion: 'torusctl r' offers run and routing" \
    "$([ "$(complete_words "$P/bin/torusctl" r | sort | tr '\n' ' ')" = "routing run " ]; echo $?)"
check "completion: 'torusctl run --du' offers --dump (read from run --help)" \
    "$([ "$(complete_words "$P/bin/torusctl" run --du)" = --dump ]; echo $?)"
check "completion: 'torusctl run gossip --algo cl' offers class-ring" \
    "$([ "$(complete_words "$P/bin/torusctl" run gossip --algo cl)" = class-ring ]; echo $?)"
check "completion: 'torusctl run gather --algo sh' offers shoulder-tap" \
    "$([ "$(complete_words "$P/bin/torusctl" run gather --algo sh)" = shoulder-tap ]; echo $?)"
done_tap
