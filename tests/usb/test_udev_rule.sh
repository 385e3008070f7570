#!/usr/bin/env bash
# scripts/60-torus.rules: every rule is well-formed udev syntax, the usb and
# tty rules grant 0403:6010 to the seat user (uaccess) and to plugdev with
# mode 0660, and `make install-udev DESTDIR=...` installs it where udev
# reads rules (udevadm itself may be absent, so the syntax is checked here).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
rules=$root/scripts/60-torus.rules
n=0 failed=0
check() { # check COND-EXIT-STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}

# One key per comma-separated token: KEY or KEY{attr}, an operator, a quoted value.
bad=0
while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    IFS=',' read -ra toks <<<"$line"
    for t in "${toks[@]}"; do
        t=${t#"${t%%[![:space:]]*}"}; t=${t%"${t##*[![:space:]]}"}
        [[ "$t" =~ ^[A-Z_]+(\{[^}]+\})?(==|!=|=|\+=|-=|:=)\"[^\"]*\"$ ]] || { echo "# bad token: $t"; bad=1; }
    done
done <"$rules"
check $bad "every rule token is KEY[{attr}] OP \"value\""

usb=$(grep -E '^SUBSYSTEM=="usb"' "$rules")
tty=$(grep -E '^SUBSYSTEM=="tty"' "$rules")
has_all() { # has_all LINE: vendor, product, mode, group, uaccess all present
    grep -q 'idVendor}=="0403"' <<<"$1" && grep -q 'idProduct}=="6010"' <<<"$1" &&
        grep -q 'MODE="0660"' <<<"$1" && grep -q 'GROUP="plugdev"' <<<"$1" &&
        grep -q 'TAG+="uaccess"' <<<"$1"
}
has_all "$usb"; check $? "the usb rule gives 0403:6010 to uaccess and plugdev, mode 0660"
has_all "$tty"; check $? "the tty rule gives 0403:6010's ttys to uaccess and plugdev, mode 0660"
grep -q 'ENV{DEVTYPE}=="usb_device"' <<<"$usb"; check $? "the usb rule matches the device node, not its interfaces"

# uaccess ACLs are applied by 73-seat-late.rules: ours must sort before it.
name=$(basename "$rules")
[[ "$name" < "73-seat-late.rules" ]]; check $? "$name sorts before 73-seat-late.rules (uaccess applies)"

dest=$(mktemp -d)
make -s -C "$root" install-udev DESTDIR="$dest" >/dev/null 2>&1
installed=$dest/etc/udev/rules.d/60-torus.rules
cmp -s "$rules" "$installed" && [ "$(stat -c %a "$installed")" = 644 ]
check $? "make install-udev DESTDIR=... installs the rule as etc/udev/rules.d/60-torus.rules, mode 0644"
rm -rf "$dest"

echo "1..$n"
[ "$failed" -eq 0 ]
