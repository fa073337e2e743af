#!/bin/sh
# The review's progress line on a terminal (a pty from script(1)): the step
# numbered as in the method ([2/2], also when it runs alone or resumed), its
# MB/s and IOPS, "idle" during the idle gap between tests, and the whole
# review's share and ETA. Without a terminal only the "done" lines are
# written, with the same step numbers.
set -u
fail() { echo "review_progress: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
command -v script >/dev/null 2>&1 || { echo "skip: script(1) not installed (no pty to draw the progress line on)"; exit 77; }
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
cat >"$D/m.json" <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "progress-test",
 "settings": {"passes": 1, "measure_s": 1, "interval_s": 2, "region_bytes": "64MiB"},
 "cdm_profiles": {"one": ["RND4K Q1T1"]},
 "steps": [{"id": "purge", "kind": "purge"}, {"id": "cdm", "kind": "cdm", "state": "FOB", "profile": "one"}]}
JSON
M="sim:$R/samples/models/pm981-256.model"
# (a wide pty: the line is cut to the terminal's width)
script -qec "stty cols 250 2>/dev/null; \"$S\" review \"$M\" --profile \"$D/m.json\" --out \"$D/run\" >/dev/null" /dev/null >"$D/tty" 2>&1 \
  || fail "review on a pty failed: $(tail -c 600 "$D/tty")"
ESC=$(printf '\033')
tr '\r' '\n' <"$D/tty" | sed "s/$ESC\[K//g" >"$D/lines"
grep -q '^\[2/2\] review  *[0-9]*% ETA .*| cdm.RND4K_Q1T1.read.p1 .* MB/s .* IOPS' "$D/lines" \
  || fail "no progress line with MB/s, IOPS and the review's ETA: $(grep cdm "$D/lines" | head -3)"
grep -q '^\[2/2\] review .*| cdm.* ETA .* idle$' "$D/lines" || fail "the idle gap is not shown as idle"
# issue 27: a test shows its measured rate, never "0.0 MB/s 0 IOPS" (a test
# that just began has none yet: "--")
grep -q ' 0\.0 MB/s  *0 IOPS' "$D/lines" && fail "a progress line shows 0.0 MB/s: $(grep ' 0\.0 MB/s' "$D/lines" | head -2)"
grep -q '| cdm.RND4K_Q1T1.read.p1 .* [1-9][0-9.]* MB/s  *[1-9][0-9]* IOPS' "$D/lines" ||
  fail "the test's rate is not shown: $(grep RND4K_Q1T1.read.p1 "$D/lines" | head -3)"
grep -q '| cdm.RND4K_Q1T1.read.p1 .*  -- MB/s  *-- IOPS' "$D/lines" || fail "no '--' before the test measured"
# a narrow terminal gets a line that fits, the review's ETA first
script -qec "stty cols 80 2>/dev/null; \"$S\" review \"$M\" --profile \"$D/m.json\" --out \"$D/run80\" >/dev/null" /dev/null >"$D/tty80" 2>&1 \
  || fail "review on an 80-column pty failed"
w=$(tr '\r' '\n' <"$D/tty80" | sed "s/$ESC\[K//g" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
[ "$w" -lt 80 ] || fail "a progress line of $w columns on an 80-column terminal"
tr '\r' '\n' <"$D/tty80" | sed "s/$ESC\[K//g" | grep -q '^\[2/2\]  *[0-9]*% [0-9]*s *| cdm.RND4K_Q1T1.read.p1 .* MB/s' \
  || fail "narrow line: $(tr '\r' '\n' <"$D/tty80" | grep RND4K | head -2)"
grep -q '^\[1/2\] purge done' "$D/lines" && grep -q '\[2/2\] cdm done' "$D/lines" || fail "done lines: $(grep done "$D/lines")"
# the step alone keeps its number in the method
"$S" review "$M" --profile "$D/m.json" --out "$D/run" --step cdm >/dev/null 2>"$D/err" || fail "--step cdm failed: $(cat "$D/err")"
grep -q '^\[2/2\] cdm done' "$D/err" || fail "a step run alone is renumbered: $(cat "$D/err")"
exit 0
