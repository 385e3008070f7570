#!/usr/bin/env bash
# A bounded libFuzzer campaign per target: make fuzz FUZZ_S=N runs
#   tests/fuzz/campaign.sh N BUILD_DIR TARGET...
# Each target runs N seconds (nice -n 10) from its seed corpus
# (tests/fuzz/corpus/T, read only) and regression inputs, with its
# dictionary; new inputs go to BUILD_DIR/work/T, anything that fails to
# BUILD_DIR/artifacts/T/ (add a reduced copy to tests/fuzz/regress/T once
# fixed). Inputs are at most 4096 bytes (the longer regression inputs are
# replayed whole by make test). Prints one line per target and exits 1 if
# any found something.
set -u
secs=${1:?usage: campaign.sh SECONDS BUILD_DIR TARGET...}
dir=${2:?usage: campaign.sh SECONDS BUILD_DIR TARGET...}
shift 2
fail=0
printf '%-8s %12s %8s %7s %6s %9s %6s %s\n' target executions exec/s crashes leaks timeouts ooms log
for t in "$@"; do
    work=$dir/work/$t art=$dir/artifacts/$t/ log=$dir/fuzz-$t.log
    mkdir -p "$work" "$art"
    seeds=(tests/fuzz/corpus/"$t")
    [ -d tests/fuzz/regress/"$t" ] && seeds+=(tests/fuzz/regress/"$t")
    # -close_fd_mask=3: the parsers' error messages would cost most of the time
    nice -n 10 "$dir/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -dict=tests/fuzz/dict/"$t".dict -artifact_prefix="$art" -print_final_stats=1 \
        -close_fd_mask=3 "$work" "${seeds[@]}" >"$log" 2>&1
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    leaks=$(grep -c 'ERROR: LeakSanitizer' "$log")
    timeouts=$(grep -c 'ERROR: libFuzzer: timeout' "$log")
    ooms=$(grep -c 'ERROR: libFuzzer: out-of-memory' "$log")
    crashes=$(grep -Ec 'ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer: deadly signal)|runtime error:|property broken' "$log")
    printf '%-8s %12s %8s %7d %6d %9d %6d %s\n' "$t" "${execs:-?}" "${rate:-?}" \
        "$crashes" "$leaks" "$timeouts" "$ooms" "$log"
    [ $((crashes + leaks + timeouts + ooms)) -eq 0 ] && [ -n "$execs" ] || fail=1
done
exit $fail
