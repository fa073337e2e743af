#!/bin/sh
# test: serial
# compare and the archive lock (issue 26 item 16): a run that another
# process writes (its .lock held) is waited for, with a note, and compared
# once free; one still held after --lock-wait fails the compare (exit 1,
# naming the run, nothing written) instead of comparing the rest as if it
# were the set; two concurrent `compare --reanalyze` over one folder both
# compare every run.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
HOLDER=
trap '[ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v flock >/dev/null 2>&1 || { echo "skip: no flock(1)"; exit 77; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
F=$T/f
for i in 1 2 3 4; do
  "$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --out "$F/r$i" --model PM981 --label "r$i" >/dev/null \
    2>"$T/e" || fail "import: $(cat "$T/e")"
done
# holds RUN's lock (as a writer of it would: its PID in the file) for S s
hold() {
  flock "$1/.lock" sh -c 'echo $$ > "$1/.lock"; touch "$1/.held"; exec sleep "$2"' sh "$1" "$2" &
  HOLDER=$!
  n=0
  while [ ! -e "$1/.held" ]; do n=$((n + 1)); [ $n -gt 100 ] && fail "holder did not start"; sleep 0.05; done
  rm -f "$1/.held"
}

# held for 2 s: waited for, then all four compared
hold "$F/r3" 2
"$SSDREV" compare "$F" --out "$T/o1" --format csv --reanalyze >"$T/out" 2>"$T/e" || fail "compare while held: $(cat "$T/e")"
grep -q "note: archive '$F/r3' is in use by process [0-9]*: waiting up to 30 s for it" "$T/e" \
  || fail "no waiting note: $(cat "$T/e")"
grep -q "compared 4 runs" "$T/out" || fail "partial set: $(cat "$T/out")"
wait "$HOLDER"; HOLDER=

# held past --lock-wait: exit 1, the run named, nothing written
hold "$F/r2" 5
"$SSDREV" compare "$F" --out "$T/o2" --format csv --reanalyze --lock-wait 1 >"$T/out" 2>"$T/e"
rc=$?
[ $rc = 1 ] || fail "held past the wait: exit $rc, want 1 ($(cat "$T/out" "$T/e"))"
grep -q "1 of 4 runs could not be analyzed: archive '$F/r2' is still in use by process [0-9]* after waiting 1 s" "$T/e" \
  || fail "message: $(cat "$T/e")"
[ -e "$T/o2" ] && fail "outputs written for a partial set: $(ls "$T/o2")"
# --lock-wait 0: fails at once
"$SSDREV" compare "$F" --out "$T/o3" --format csv --reanalyze --lock-wait 0 >/dev/null 2>"$T/e" && fail "--lock-wait 0 passed"
grep -q "archive '$F/r2' is in use by process" "$T/e" || fail "--lock-wait 0: $(cat "$T/e")"
kill "$HOLDER" 2>/dev/null; wait "$HOLDER" 2>/dev/null; HOLDER=
"$SSDREV" compare "$F" --out "$T/o3" --lock-wait x >/dev/null 2>"$T/e"
[ $? = 2 ] && grep -q -- "--lock-wait: expected 0..3600 seconds, got 'x'" "$T/e" || fail "bad --lock-wait: $(cat "$T/e")"

# two concurrent compares that re-analyze every run: both see all four
for k in 1 2 3; do
  "$SSDREV" compare "$F" --out "$T/c$k.a" --format csv --reanalyze --no-index --jobs 2 >"$T/a.out" 2>"$T/a.err" &
  A=$!
  "$SSDREV" compare "$F" --out "$T/c$k.b" --format csv --reanalyze --no-index --jobs 2 >"$T/b.out" 2>"$T/b.err"
  rb=$?
  wait $A; ra=$?
  [ $ra = 0 ] && [ $rb = 0 ] || fail "concurrent compares: exit $ra/$rb: $(cat "$T/a.err" "$T/b.err")"
  grep -q "compared 4 runs" "$T/a.out" && grep -q "compared 4 runs" "$T/b.out" \
    || fail "concurrent compares: $(cat "$T/a.out" "$T/b.out" "$T/a.err" "$T/b.err")"
  grep -q skipping "$T/a.err" "$T/b.err" && fail "a run skipped: $(cat "$T/a.err" "$T/b.err")"
done
exit 0
