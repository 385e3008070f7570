#!/bin/sh
# make test's formal proofs (mk/formal.mk): for each proof and each of its
# modes (bmc, prove, cover), one TAP line; a failure shows the solver's
# complaint. Usage: tn_formal_test.sh MAKE DIR NAME:MODE+MODE...
# (DIR: where the proofs' summaries are, NAME.MODE.ok)
make=${1:?usage: tn_formal_test.sh MAKE DIR NAME:MODE+MODE...}
dir=${2:?usage: tn_formal_test.sh MAKE DIR NAME:MODE+MODE...}
shift 2
# every proof first, two at a time (the machine's cores; the router's
# three modes share its gate-level model and then run side by side); a
# mode that fails is run again below for its message
jobs=
for job in "$@"; do
    for mode in $(echo "${job#*:}" | tr + ' '); do
        jobs="$jobs formal-${job%%:*}-$mode"
    done
done
# shellcheck disable=SC2086
$make -s -k -j2 --no-print-directory $jobs >/dev/null 2>&1
n=0
for job in "$@"; do
    name=${job%%:*}
    for mode in $(echo "${job#*:}" | tr + ' '); do
        n=$((n + 1))
        if out=$($make -s --no-print-directory "formal-$name-$mode" 2>&1); then
            sum=$(cat "$dir/$name.$mode.ok")
            echo "ok $n - formal $name $mode: ${sum##*passed, }"
        else
            echo "not ok $n - formal $name $mode"
            echo "$out" | tail -30 | sed 's/^/# /'
        fi
    done
done
