#!/usr/bin/env bash
# Where `make test`'s CPU goes on a new machine: clones HEAD into a fresh
# directory, runs `make test` there with nothing from ccache, every recipe
# line and every test under GNU time, and prints the CPU seconds by kind
# of step, the most expensive lines and the core-seconds a core idled
# (sampled). docs/NOTES.md ("Issue 14, last row") has what it found.
# Takes as long as make test itself (8-9 min).
#
# Usage: scripts/test_profile.sh [DIR]   (DIR: the clone, default a new
#        temporary directory; the logs stay in DIR/profile/)
# Recipe lines of sub-makes (boards-ahead, lint-ahead, the models' C++)
# are counted inside their parent's line and again on their own: the
# kinds below count each command once, by what it runs.
set -eu
top=$(git rev-parse --show-toplevel)
dir=${1:-$(mktemp -d /tmp/torus-profile.XXXXXX)}
[ ! -e "$dir/.git" ] || { echo "test_profile: $dir already holds a clone" >&2; exit 1; }
git clone -q "$top" "$dir"
prof=$dir/profile
mkdir -p "$prof"
cat >"$prof/sh" <<EOF
#!/bin/bash
exec /usr/bin/time -a -o $prof/recipes.txt -f "@@ %e %U %S \$(date +%s.%N) ::: \${2//\$'\\n'/ }" /bin/bash "\$@"
EOF
chmod +x "$prof/sh"
# each test under GNU time too (tests/run.sh runs it as "$t" >"$log")
sed -i "s|^    \"\$t\" >\"\$log\" 2>&1\$|    /usr/bin/time -a -o $prof/tests.txt -f \"\$name %e %U %S\" \"\$t\" >\"\$log\" 2>\&1|" \
    "$dir/tests/run.sh"
grep -q "$prof/tests.txt" "$dir/tests/run.sh" || { echo "test_profile: tests/run.sh changed: adapt the sed" >&2; exit 1; }
echo "test_profile: make test in $dir (logs in $prof)" >&2
# Every half second: the cores busy since the last sample (from
# /proc/stat) and the running processes' names, to see where a core idles.
sample() {
    local prev=() cur=() busy total
    read -r -a prev < <(head -1 /proc/stat)
    while sleep 0.5; do
        read -r -a cur < <(head -1 /proc/stat)
        total=0 busy=0
        for i in 1 2 3 4 5 6 7 8; do total=$((total + cur[i] - prev[i])); done
        busy=$((total - (cur[4] - prev[4]) - (cur[5] - prev[5])))
        prev=("${cur[@]}")
        printf '%s %s %s\n' "$(date +%s.%N)" "$(awk -v b="$busy" -v t="$total" -v n="$(nproc)" \
            'BEGIN { printf "%.2f", t ? n * b / t : 0 }')" \
            "$(ps -eo stat=,comm= | awk '$1 ~ /^R/ && $2 != "ps" { printf "%s,", $2 }')"
    done >"$prof/samples.txt"
}
sample &
sampler=$!
rc=0
(cd "$dir" && CCACHE_DISABLE=1 /usr/bin/time -o "$prof/total.txt" -f "%e %U %S" \
    make test SHELL="$prof/sh" >"$prof/make.log" 2>&1) || rc=$?
kill "$sampler"
tail -1 "$prof/make.log"
awk -v rc="$rc" '{ printf "make test: %.0f s wall, %.0f s CPU (%.0f user + %.0f system), exit %d\n",
    $1, $2 + $3, $2, $3, rc }' "$prof/total.txt"
awk '
    /^@@ / {
        cpu = $3 + $4; cmd = substr($0, index($0, ":::") + 4)
        k = ""
        if (cmd ~ /tests\/run\.sh/) k = "tests (all, tests/run.sh)"
        else if (cmd ~ /^make |\$\(MAKE\)|^-?@?make /) next
        else if (cmd ~ /tn_sim_build\.sh/) k = "simulator models (Verilator and C++)"
        else if (cmd ~ /nextpnr/) k = "nextpnr"
        else if (cmd ~ /^yosys|YOSYS/) k = "yosys"
        else if (cmd ~ /formal\.sh/) k = "formal"
        else if (cmd ~ /--lint-only/) k = "Verilator lint"
        else if (cmd ~ /verilator --cc/) k = "Verilator benches (bridge, UART)"
        else if (cmd ~ /g\+\+/) next
        else if (cmd ~ /(^| )(cc|clang)( |$)/) k = (cmd ~ / -c /) ? "host C compiles" : "host C links"
        else k = "other"
        sum[k] += cpu; n[k]++
    }
    END { for (k in sum) printf "%8.1f s  %4d  %s\n", sum[k], n[k], k }
' "$prof/recipes.txt" | sort -rn
echo "-- the 15 most expensive lines (CPU s, wall s):"
awk '/^@@ / { printf "%7.1f %7.1f %s\n", $3 + $4, $2, substr($0, index($0, ":::") + 4, 110) }' \
    "$prof/recipes.txt" | sort -rn | head -15
echo "-- a core idle: seconds with fewer than $(nproc) cores busy, and what ran then (samples):"
awk -v n="$(nproc)" '
    { dt = (NR > 1) ? $1 - t0 : 0; t0 = $1
      if ($2 < n - 0.5) { idle += dt * (n - $2); m = split($3, p, ","); for (i = 1; i < m; i++) seen[p[i]] += dt } }
    END { printf "%7.1f core-seconds idle\n", idle
          for (c in seen) printf "%7.1f s %s\n", seen[c], c }' "$prof/samples.txt" | sort -rn | head -12
echo "-- the 15 most expensive tests (CPU s, wall s):"
awk '{ printf "%7.1f %7.1f %s\n", $3 + $4, $2, $1 }' "$prof/tests.txt" | sort -rn | head -15
exit "$rc"
