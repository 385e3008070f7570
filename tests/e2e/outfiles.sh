#!/usr/bin/env bash
# Output files (--svg, --json, --stats; host/core/outfile.h): "-" is standard
# output; a symlink, FIFO or device is written through and never replaced
# (so --svg /dev/stdout works and a symlink stays a symlink); a regular
# file is replaced only by a complete new one (a temporary file renamed,
# none left behind); a file that cannot be written is an error (exit 1)
# that leaves nothing. TAP output.
# Usage: tests/e2e/outfiles.sh TORUSCTL
set -u
T=${1:?usage: outfiles.sh TORUSCTL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
sched() { "$T" schedule gossip --dims 3x3x3 "$@"; }

sched --svg /dev/stdout >"$tmp/out.svg" 2>"$tmp/err"
check "--svg /dev/stdout: exit 0, the diagram on standard output" \
    "$([ $? = 0 ] && grep -q '<svg' "$tmp/out.svg" && grep -q '</svg>' "$tmp/out.svg"; echo $?)"
sched --json - >"$tmp/out.json" 2>/dev/null
check "--json -: the schedule on standard output, valid JSON" \
    "$(jq -e '.collective == "gossip"' "$tmp/out.json" >/dev/null; echo $?)"

echo old >"$tmp/target.svg"
ln -s target.svg "$tmp/link.svg"
sched --svg "$tmp/link.svg" >/dev/null 2>&1
check "--svg to a symlink: written through, the symlink stays a symlink to the same file" \
    "$([ -L "$tmp/link.svg" ] && [ "$(readlink "$tmp/link.svg")" = target.svg ] &&
       grep -q '^<svg' "$tmp/target.svg"; echo $?)"

mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/from_fifo" &
sched --json "$tmp/fifo" >/dev/null 2>&1
rc=$?
wait
check "--json to a FIFO: written into it (a reader gets the schedule), the FIFO stays a FIFO" \
    "$([ $rc = 0 ] && [ -p "$tmp/fifo" ] && jq -e '.rounds | length > 0' "$tmp/from_fifo" >/dev/null; echo $?)"

echo old >"$tmp/plain.svg"
chmod 640 "$tmp/plain.svg"
sched --svg "$tmp/plain.svg" >/dev/null 2>&1
check "--svg over a regular file: replaced by the complete diagram, no temporary file left" \
    "$(grep -q '</svg>' "$tmp/plain.svg" && [ -z "$(find "$tmp" -name 'plain.svg.*')" ]; echo $?)"
check "... the new file has the permissions of a new file (umask $(umask)), not 0600" \
    "$([ "$(stat -c %a "$tmp/plain.svg")" = "$(printf '%o' $((0666 & ~$(umask))))" ]; echo $?)"

sched --svg "$tmp/no/such/dir/x.svg" >/dev/null 2>"$tmp/err"
check "--svg into a folder that does not exist: exit 1 naming the file, nothing created" \
    "$([ $? = 1 ] && grep -q 'x.svg' "$tmp/err" && [ ! -e "$tmp/no" ]; echo $?)"

"$T" verify --model --stats "$tmp/stats.csv" <(sched --json - 2>/dev/null) >/dev/null 2>&1
check "verify --model --stats FILE: the CSV with a header line and a line per eject descriptor" \
    "$(head -1 "$tmp/stats.csv" | grep -q '^round,node,lane' && [ "$(wc -l <"$tmp/stats.csv")" -gt 1 ]; echo $?)"
done_tap
