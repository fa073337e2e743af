#!/bin/sh
# `ssdrev run` adds a test to an archive of the same target, refuses one of
# another target (naming both) unless --append, and a missing option value
# is reported as such, not as an unknown option.
set -u
fail() { echo "run_append: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
A="sim:$R/samples/models/pm981-256.model"
B="sim:$R/samples/models/pm981a-256.model"
one() { t=$1; shift; "$S" run "$t" --out "$D/run" --rw randread --number-ios 200 --runtime 0 --quiet "$@"; }
one "$A" >/dev/null 2>"$D/err" || fail "first run failed: $(cat "$D/err")"
one "$A" >/dev/null 2>"$D/err" || fail "a second job of the same target failed: $(cat "$D/err")"
one "$B" >/dev/null 2>"$D/err"; rc=$?
[ $rc -eq 1 ] || fail "a job of another target was not refused (exit $rc)"
grep -q "pm981-256.model" "$D/err" && grep -q "pm981a-256.model" "$D/err" && grep -q -- "--append" "$D/err" \
  || fail "the refusal does not name both targets and --append: $(cat "$D/err")"
n=$(grep -c '"kind": "job"' "$D/run/manifest.json")
[ "$n" = 2 ] || fail "the refused job left a test entry ($n jobs)"
one "$B" --append >/dev/null 2>"$D/err" || fail "--append refused: $(cat "$D/err")"
n=$(grep -c '"kind": "job"' "$D/run/manifest.json")
[ "$n" = 3 ] || fail "--append did not add the test ($n jobs)"
err=$("$S" run "$A" --out 2>&1); [ $? -eq 2 ] || fail "missing --out value not exit 2"
echo "$err" | grep -q "option '--out' needs a value" || fail "missing value reported as: $err"
err=$("$S" run /dev/ssdrev-no-such-device --out "$D/x" --rw randread 2>&1); [ $? -ne 0 ] || fail "a missing device was accepted"
echo "$err" | grep -q "no such device" || fail "missing device message: $err"
echo "$err" | grep -q "create" && fail "the hint for a missing device suggests creating a file: $err"
exit 0
