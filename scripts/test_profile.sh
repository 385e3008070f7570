#!/usr/bin/env bash
# Where `make test`'s CPU goes on a new machine: clones HEAD into a fresh
# directory, runs `make test` there with nothing from ccache, every recipe
# line and every test under GNU time, and prints the CPU seconds by kind
# of step and the most expensive lines. docs/NOTES.md ("Issue 14, last
# row") has what it found. Takes as long as make test itself (8-9 min).
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
exec /usr/bin/time -a -o $prof/recipes.txt -f "@@ %e %U %S ::: \${2//\$'\\n'/ }" /bin/bash "\$@"
EOF
chmod +x "$prof/sh"
# each test under GNU time too (tests/run.sh runs it as "$t" >"$log")
sed -i "s|^    \"\$t\" >\"\$log\" 2>&1\$|    /usr/bin/time -a -o $prof/tests.txt -f \"\$name %e %U %S\" \"\$t\" >\"\$log\" 2>\&1|" \
    "$dir/tests/run.sh"
grep -q "$prof/tests.txt" "$dir/tests/run.sh" || { echo "test_profile: tests/run.sh changed: adapt the sed" >&2; exit 1; }
echo "test_profile: make test in $dir (logs in $prof)" >&2
rc=0
(cd "$dir" && CCACHE_DISABLE=1 /usr/bin/time -o "$prof/total.txt" -f "%e %U %S" \
    make test SHELL="$prof/sh" >"$prof/make.log" 2>&1) || rc=$?
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
echo "-- the 15 most expensive tests (CPU s, wall s):"
awk '{ printf "%7.1f %7.1f %s\n", $3 + $4, $2, $1 }' "$prof/tests.txt" | sort -rn | head -15
exit "$rc"
