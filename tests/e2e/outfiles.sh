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
# --json[=FILE] in every command: FILE gets the JSON, stdout the text
nowall='if type == "object" then del(.wall_s) else . end'  # run's wall times differ
sched --json >"$tmp/bare.json" 2>/dev/null
check "schedule --json (no FILE): the schedule on standard output" \
    "$(jq -e '.collective == "gossip"' "$tmp/bare.json" >/dev/null; echo $?)"
sched --json "$tmp/word.json" >/dev/null 2>&1
check "schedule --json FILE (the word after it): the schedule in FILE" \
    "$(jq -e '.collective == "gossip"' "$tmp/word.json" >/dev/null; echo $?)"
for c in "info --dims 3x3x3" "dump --dims 3x3x3 --node 2 --mem 0:4" "routing --dims 3x3x3" \
         "cdg --dims 3x3x3" "run gossip --dims 3x3x3" "list"; do
    name=${c%% *}
    rm -f "$tmp/$name.json"
    # shellcheck disable=SC2086
    "$T" $c --json="$tmp/$name.json" >"$tmp/$name.txt" 2>/dev/null
    rc=$?
    check "$name --json=FILE: exit $rc, valid JSON in FILE and the text report on stdout" \
        "$([ $rc = 0 ] && jq -e . "$tmp/$name.json" >/dev/null &&
           { [ "$name" = list ] || [ -s "$tmp/$name.txt" ]; } &&
           ! jq -e . "$tmp/$name.txt" >/dev/null 2>&1; echo $?)"
    # shellcheck disable=SC2086
    "$T" $c --json >"$tmp/$name.out" 2>/dev/null
    check "$name --json: the same JSON object on standard output, nothing else" \
        "$(jq -e . "$tmp/$name.out" >/dev/null &&
           [ "$(jq -S "$nowall" "$tmp/$name.out")" = "$(jq -S "$nowall" "$tmp/$name.json")" ]; echo $?)"
done
check "dump --json: node, status words, lanes with their eject records" \
    "$(jq -e '.node == 2 and (.status | has("error_flags")) and (.lanes | length == 6) and (.mem | length == 4)' \
        "$tmp/dump.json" >/dev/null; echo $?)"
"$T" run gossip --dims 3x3x3 --json="$tmp/no/such/dir/r.json" >/dev/null 2>"$tmp/err"
check "run --json=FILE into a missing folder: exit 1 naming the file, nothing created" \
    "$([ $? = 1 ] && grep -q 'r.json' "$tmp/err" && [ ! -e "$tmp/no" ]; echo $?)"

# -q and -v before the command
"$T" -v run gossip --dims 3x3x3 >/dev/null 2>"$tmp/verbose"
check "-v run: each stage on stderr (device, schedule, image, loaded, ran)" \
    "$(for w in 'device: sim backend' 'schedule: gossip' 'image: ' 'loaded (' 'ran '; do
           grep -q "^torusctl run: $w" "$tmp/verbose" || exit 1; done; echo 0)"
"$T" -q schedule gossip --msg-flits 64 >/dev/null 2>"$tmp/quiet"
"$T" schedule gossip --msg-flits 64 >/dev/null 2>"$tmp/normal"
check "-q schedule: the memory note of a large L is gone (it prints without -q)" \
    "$(grep -q 'note:' "$tmp/normal" && [ ! -s "$tmp/quiet" ]; echo $?)"
"$T" -q run gossip --dims 3x3x3 --fault-campaign 2 >/dev/null 2>"$tmp/qcamp"
check "-q run --fault-campaign: nothing on stderr (no progress line)" \
    "$([ $? = 0 ] && [ ! -s "$tmp/qcamp" ]; echo $?)"
"$T" run gossip --dims 3x3x3 --svg-rows dim:W --svg "$tmp/w.svg" >"$tmp/rows.out" 2>"$tmp/rows.err"
check "run --svg-rows dim:W: refused before the run (exit 1, no report, no file)" \
    "$([ $? = 1 ] && grep -q "bad --svg-rows 'dim:W'" "$tmp/rows.err" && [ ! -s "$tmp/rows.out" ] &&
       [ ! -e "$tmp/w.svg" ]; echo $?)"
done_tap
