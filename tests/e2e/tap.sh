# TAP helpers for the end-to-end scripts (sourced): ok/nok/check print one
# numbered test line each, field reads a JSON value; done_tap prints the plan
# and sets the exit status.
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
# check DESCRIPTION STATUS: ok when STATUS is 0
check() { if [ "$2" = 0 ]; then ok "$1"; else nok "$1"; fi; }
field() { jq -r "$1" "$2"; }
done_tap() {
    echo "1..$n"
    [ "$failed" = 0 ]
}
