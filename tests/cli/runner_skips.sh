#!/bin/sh
# tests/run.sh's skip protocol, on a scratch tree of fake tests: a CLI script
# exiting 77 counts as skipped and is listed with the reasons of its "skip:"
# lines; a script exiting 0 with "skip:" lines passes and has them echoed
# under its ok line; a failing script fails; a unit test calling TEST_SKIP
# (testlib.h) counts as skipped. The closing line is exactly
# "N passed, N failed, N skipped" and the last line of the output.
set -u
fail() { echo "runner_skips: $*" >&2; exit 1; }
R=$(cd "${SSDREV_ROOT:-.}" && pwd)
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
mkdir -p "$D/tests/cli" "$D/tests/unit" "$D/b/test" || fail "mkdir"
# run.sh exports SSDREV as B/ssdrev-san; the fake tests do not use it
: >"$D/b/ssdrev-san"
printf '#!/bin/sh\necho "skip: needs root"\necho "skip: no losetup"\nexit 77\n' >"$D/tests/cli/a_whole.sh"
printf '#!/bin/sh\necho "some output"\necho "skip: no mkfs.ext4: ext4 case not checked"\nexit 0\n' >"$D/tests/cli/b_partial.sh"
printf '#!/bin/sh\nexit 0\n' >"$D/tests/cli/c_plain.sh"
# a serial script runs alone, after the parallel ones: it sees their marks
printf '#!/bin/sh\ntouch "%s/par.done"; exit 0\n' "$D" >"$D/tests/cli/b_mark.sh"
printf '#!/bin/sh\n# test: serial\n[ -e "%s/par.done" ] || { echo "serial ran early"; exit 1; }\nexit 0\n' "$D" >"$D/tests/cli/a_serial.sh"
printf '#!/bin/sh\nexit 77\n' >"$D/tests/cli/d_noreason.sh"
cat >"$D/tests/unit/test_fake.c" <<'EOF'
#include "tests/unit/testlib.h"
TEST("A test that runs passes") { CHECK(1); }
TEST("A test that cannot run here is skipped") { TEST_SKIP("no widget here"); CHECK(0); }
TEST("Another test that runs passes") { CHECK(2 > 1); }
EOF
cc -std=c11 -I"$R" -o "$D/b/test/test_fake" "$D/tests/unit/test_fake.c" 2>"$D/cc.err" || fail "cc: $(cat "$D/cc.err")"
"$D/b/test/test_fake" >"$D/unit.out" 2>&1 || fail "the fake unit test failed: $(cat "$D/unit.out")"
grep -qx "skip A test that cannot run here is skipped: no widget here" "$D/unit.out" || fail "no unit skip line: $(cat "$D/unit.out")"
[ "$(tail -n 1 "$D/unit.out")" = "2 passed, 0 failed, 1 skipped" ] || fail "unit closing line: $(tail -n 1 "$D/unit.out")"

(cd "$D" && sh "$R/tests/run.sh" b) >"$D/out" 2>&1 || fail "run.sh failed on passing and skipped tests: $(cat "$D/out")"
o="$D/out"
grep -qx "ok   test_fake (2 tests, 1 skipped)" "$o" || fail "unit ok line: $(cat "$o")"
grep -qx "     skip A test that cannot run here is skipped: no widget here" "$o" || fail "unit skip not echoed: $(cat "$o")"
grep -qx "skip cli/a_whole: needs root; no losetup" "$o" || fail "whole skip not listed with reasons: $(cat "$o")"
grep -qx "skip cli/d_noreason: no reason given" "$o" || fail "skip without a reason: $(cat "$o")"
grep -qx "ok   cli/b_partial" "$o" || fail "partial skip not ok: $(cat "$o")"
grep -A1 -x "ok   cli/b_partial" "$o" | grep -qx "     skip: no mkfs.ext4: ext4 case not checked" || fail "partial skip line not under its ok line: $(cat "$o")"
grep -q "some output" "$o" && fail "a passing script's other output was echoed: $(cat "$o")"
grep -qx "ok   cli/c_plain" "$o" || fail "plain ok: $(cat "$o")"
grep -qx "ok   cli/a_serial" "$o" || fail "a serial script did not run after the others: $(cat "$o")"
# results print in name order whatever order the tests ran in
[ "$(grep '^ok   cli/' "$o" | head -n 1)" = "ok   cli/a_serial" ] || fail "not in name order: $(cat "$o")"
[ -s "$D/b/test-times.txt" ] || fail "no test-times.txt"
[ "$(tail -n 1 "$o")" = "6 passed, 0 failed, 3 skipped" ] || fail "closing line: $(tail -n 1 "$o")"

# a failing script: run.sh fails, names it, and still closes with the counts
printf '#!/bin/sh\necho "boom"\nexit 1\n' >"$D/tests/cli/e_bad.sh"
(cd "$D" && sh "$R/tests/run.sh" b) >"$o" 2>&1 && fail "run.sh exited 0 with a failing script"
grep -qx "FAIL cli/e_bad" "$o" || fail "failing script not named: $(cat "$o")"
grep -qx "failed: cli/e_bad" "$o" || fail "failed list: $(cat "$o")"
[ "$(tail -n 1 "$o")" = "6 passed, 1 failed, 3 skipped" ] || fail "closing line with a failure: $(tail -n 1 "$o")"
# one at a time gives the same counts; a TEST_JOBS that is no number is refused
(cd "$D" && TEST_JOBS=1 sh "$R/tests/run.sh" b) >"$o" 2>&1
[ "$(tail -n 1 "$o")" = "6 passed, 1 failed, 3 skipped" ] || fail "TEST_JOBS=1: $(tail -n 1 "$o")"
(cd "$D" && TEST_JOBS=x sh "$R/tests/run.sh" b) >"$o" 2>&1
[ $? = 2 ] && grep -q "TEST_JOBS must be a positive number" "$o" || fail "TEST_JOBS=x: $(cat "$o")"
exit 0
