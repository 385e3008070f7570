#!/usr/bin/env bash
# Run test programs that print TAP lines ("ok N - what", "not ok N - what"),
# keep each log under $TN_TEST_LOGS, and end with "N passed, N failed".
# A program that exits non-zero without a "not ok" line counts as one failure.
set -u
logs=${TN_TEST_LOGS:-build/test-logs}
BUILD_PREFIX=${BUILD_PREFIX:-build/}
mkdir -p "$logs"
pass=0 fail=0
for t in "$@"; do
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
    pass=$((pass + p)) fail=$((fail + f))
    secs=$(( $(date +%s) - start ))
    if [ "$f" -eq 0 ]; then
        printf '%-40s %5d ok   (%ds)\n' "$name" "$p" "$secs"
    else
        printf '%-40s %5d ok %3d FAILED (%ds), log: %s\n' "$name" "$p" "$f" "$secs" "$log"
        grep '^not ok' "$log" | head -20 | sed 's/^/    /'
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
