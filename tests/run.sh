#!/usr/bin/env bash
# Run test programs that print TAP lines ("ok N - what", "not ok N - what"),
# keep each log under $TN_TEST_LOGS, and end with "N passed, N failed".
# A program that exits non-zero without a "not ok" line counts as one failure.
#
# Usage: tests/run.sh [-j JOBS] [-a TEST]... TEST...
#   -j JOBS  run up to JOBS tests at once (default 1); a line is printed
#            as each test ends, so with JOBS > 1 they come in ending order.
#   -a TEST  TEST times wall-clock answers (timeouts, retries, signals):
#            it runs after the others, one at a time, with nothing beside
#            it. It is run only if it is also among the TESTs.
set -u
logs=${TN_TEST_LOGS:-build/test-logs}
BUILD_PREFIX=${BUILD_PREFIX:-build/}
jobs=1
declare -A alone=()
while getopts "j:a:" opt; do
    case $opt in
        j) jobs=$OPTARG ;;
        a) alone[$OPTARG]=1 ;;
        *) echo "usage: tests/run.sh [-j JOBS] [-a TEST]... TEST..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
case $jobs in ''|*[!0-9]*|0) echo "tests/run.sh: -j needs a positive count, not '$jobs'" >&2; exit 2 ;; esac
mkdir -p "$logs"
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# run_one TEST: runs it, prints its line (one write, so parallel tests'
# lines do not mix) and leaves "passed failed" in $results.
run_one() {
    local t=$1 name log start rc p f secs line
    name=${t#$BUILD_PREFIX}
    name=${name//\//_}
    log="$logs/$name.log"
    start=$(date +%s)
    "$t" >"$log" 2>&1
    rc=$?
    p=$(grep -c '^ok ' "$log")
    f=$(grep -c '^not ok ' "$log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        echo "not ok - $name exited with status $rc" >>"$log"
    fi
    secs=$(( $(date +%s) - start ))
    if [ "$f" -eq 0 ]; then
        line=$(printf '%-40s %5d ok   (%ds)' "$name" "$p" "$secs")
    else
        line=$(printf '%-40s %5d ok %3d FAILED (%ds), log: %s\n%s' "$name" "$p" "$f" "$secs" "$log" \
                      "$(grep '^not ok' "$log" | head -20 | sed 's/^/    /')")
    fi
    printf '%s\n' "$line"
    echo "$p $f" >"$results/$name"
}

shared=() timed=()
for t in "$@"; do
    if [ -n "${alone[$t]:-}" ]; then timed+=("$t"); else shared+=("$t"); fi
done
running=0
for t in "${shared[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    run_one "$t" &
    running=$((running + 1))
done
wait
for t in "${timed[@]}"; do
    run_one "$t"
done

pass=0 fail=0
for t in "$@"; do
    name=${t#$BUILD_PREFIX}
    name=${name//\//_}
    if [ -s "$results/$name" ]; then
        read -r p f <"$results/$name"
    else
        p=0 f=1
        printf '%-40s did not report (the runner lost it)\n' "$name"
    fi
    pass=$((pass + p)) fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
