#!/bin/sh
# harden_lock: one writer per archive (RUN/.lock, docs/archive.md).
#  1. 20 concurrent `ssdrev run ... --out SAME`: each exits 0 or 1; every
#     failure says "archive 'SAME' is in use by process PID"; the manifest
#     holds exactly one complete test per run that exited 0, none left
#     "running", and no two tests share a name.
#  2. While a run holds the archive, a second run and `analyze` (it writes
#     analysis.json) fail at once with exit 1 naming the holder's PID;
#     after it ends, the next run appends.
#  3. A reader needs no lock: `report` over an analyzed archive whose lock
#     another process holds succeeds.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
fail() { echo "harden_lock: FAIL: $*" >&2; exit 1; }
MODEL="sim:$ROOT/tests/fuzz/tiny.model"
runq() { o=$1; shift; "$SSDREV" run "$MODEL" --out "$o" --rw randread --bs 4k --iodepth 2 --number-ios 2000 --quiet "$@"; }

# tests STATUS: how many tests of $1/manifest.json have that status
count() {
  python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["tests"]; print(sum(1 for x in t if x["status"]==sys.argv[2]))' "$1/manifest.json" "$2"
}

# ---- 1. 20 concurrent writers
M="$T/many"
i=0
pids=""
while [ $i -lt 20 ]; do
  runq "$M" >"$T/o.$i" 2>"$T/e.$i" &
  pids="$pids $!"
  i=$((i + 1))
done
i=0
ok=0
for p in $pids; do
  wait "$p"
  rc=$?
  grep -q 'runtime error\|AddressSanitizer' "$T/e.$i" && fail "run $i: sanitizer report: $(head -n 3 "$T/e.$i")"
  if [ $rc -eq 0 ]; then
    ok=$((ok + 1))
  else
    [ $rc -eq 1 ] || fail "run $i: exit $rc: $(cat "$T/e.$i")"
    grep -q "archive '$M' is in use by process [0-9][0-9]*" "$T/e.$i" || fail "run $i: $(cat "$T/e.$i")"
  fi
  i=$((i + 1))
done
[ $ok -ge 1 ] || fail "no concurrent run succeeded"
[ "$(count "$M" complete)" -eq $ok ] || fail "$ok runs succeeded, $(count "$M" complete) tests complete"
[ "$(count "$M" running)" -eq 0 ] || fail "$(count "$M" running) tests left running"
python3 -c 'import json,sys; t=[x["name"] for x in json.load(open(sys.argv[1]))["tests"]]; sys.exit(len(t)!=len(set(t)) or len(t)!=int(sys.argv[2]))' \
  "$M/manifest.json" $ok || fail "tests lost or doubled: $(cat "$M/manifest.json")"

# ---- 2. a second writer while one holds the lock
H="$T/held"
"$SSDREV" run "$T/t.img" --create-size 16M --out "$H" --rw randread --bs 4k --runtime 60s --buffered --quiet \
  >/dev/null 2>"$T/held.err" &
PID=$!
i=0
while [ $i -lt 400 ] && ! grep -q '"running"' "$H/manifest.json" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
grep -q '"running"' "$H/manifest.json" || fail "the holding run did not start: $(cat "$T/held.err")"
runq "$H" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "second writer: exit $rc, want 1"
grep -q "archive '$H' is in use by process $PID\$" "$T/err" || fail "second writer: $(cat "$T/err") (holder $PID)"
"$SSDREV" analyze "$H" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "analyze while held: exit $rc, want 1"
grep -q "archive '$H' is in use by process $PID" "$T/err" || fail "analyze while held: $(cat "$T/err")"
[ -e "$H/analysis.json" ] && fail "analyze wrote analysis.json while the archive was held"
kill -INT "$PID"
wait "$PID"
rc=$?
PID=""
[ $rc -eq 130 ] || fail "the holding run: exit $rc after SIGINT, want 130"
# (the holder ran on a file, this job on the sim: another target, --append)
runq "$H" --append >/dev/null 2>"$T/err" || fail "run after the holder ended: $(cat "$T/err")"
[ "$(count "$H" complete)" -eq 1 ] && [ "$(count "$H" interrupted)" -eq 1 ] || fail "after release: $(cat "$H/manifest.json")"

# ---- 3. a reader while the lock is held
"$SSDREV" analyze "$H" --quiet >/dev/null 2>"$T/err" || fail "analyze: $(cat "$T/err")"
flock "$H/.lock" sleep 30 &
PID=$!
i=0
while [ $i -lt 100 ] && flock -n "$H/.lock" true; do sleep 0.05; i=$((i + 1)); done
"$SSDREV" report -t "$ROOT/templates/single.en.md" -o "$T/rep" -f md --dpi 30 "$H" >/dev/null 2>"$T/err" \
  || fail "report of a held archive: $(cat "$T/err")"
[ -s "$T/rep/review.md" ] || fail "report wrote no review.md"
kill "$PID"
wait "$PID" 2>/dev/null
PID=""
exit 0
