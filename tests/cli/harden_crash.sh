#!/bin/sh
# Crash safety of `ssdrev run`: SIGKILL mid-run leaves a log that reads back
# up to its last full chunk and a manifest that marks the test incomplete
# ("running"); a torn last write is reported as a truncated tail, never as an
# error; SIGINT and SIGTERM drain, finalize the log and mark the test
# "interrupted" (exit 130). Targets: the simulated drive and a regular file.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=${SSDREV_ROOT:-.}
MODEL="$ROOT/samples/models/pm981-256.model"
T=$(mktemp -d) || exit 1
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "harden_crash: FAIL: $*" >&2; exit 1; }

# Starts `ssdrev run` in the background (PID) and waits until its log holds
# at least MIN bytes (a few chunks), so the signal lands mid-run.
start_run() { # DIR MIN TARGET ARGS...
  dir=$1 min=$2; shift 2
  "$SSDREV" run "$@" --out "$dir" --name job --runtime 1h --quiet >"$dir.out" 2>"$dir.err" &
  PID=$!
  i=0
  while :; do
    sz=$(stat -c %s "$dir/logs/job.ssdlog" 2>/dev/null || echo 0)
    [ "$sz" -ge "$min" ] && break
    kill -0 "$PID" 2>/dev/null || { cat "$dir.err" >&2; fail "run exited before its log grew: $*"; }
    i=$((i+1)); [ $i -gt 1200 ] && fail "log did not grow in 120 s: $*"
    sleep 0.1
  done
}
# Value of a "key  value" line of `ssdrev log info`.
info_field() { sed -n "s/^$2  *//p" "$1" | head -n 1; }
test_status() { # DIR: the status of test "job" in the manifest
  tr -d ' \n' <"$1/manifest.json" | sed -n 's/.*"name":"job".*"status":"\([a-z]*\)".*/\1/p'
}

# ---- SIGKILL on the simulated drive
start_run "$T/k" 200000 "sim:$MODEL" --rw randwrite --bs 4k
kill -9 "$PID"; wait "$PID" 2>/dev/null; PID=""
"$SSDREV" log info "$T/k/logs/job.ssdlog" >"$T/k.info" 2>"$T/k.ierr" || fail "log info failed on a killed run's log: $(cat "$T/k.ierr")"
[ "$(info_field "$T/k.info" records)" -gt 0 ] || fail "no records read back after SIGKILL"
[ "$(test_status "$T/k")" = running ] || fail "manifest of a killed run does not mark the test incomplete: $(test_status "$T/k")"
grep -q '"end"' "$T/k/manifest.json" && fail "a killed test has an end time"
ls "$T/k"/manifest.json.tmp.* >/dev/null 2>&1 && fail "a temporary manifest was left behind"

# ---- SIGINT and SIGTERM finalize cleanly
for sig in INT TERM; do
  d="$T/$sig"
  start_run "$d" 200000 "sim:$MODEL" --rw randread --bs 4k
  kill -s "$sig" "$PID"; wait "$PID"; rc=$?; PID=""
  [ $rc -eq 130 ] || fail "SIG$sig: exit $rc, expected 130 ($(cat "$d.err"))"
  [ "$(test_status "$d")" = interrupted ] || fail "SIG$sig: test status '$(test_status "$d")', expected interrupted"
  grep -q '"end"' "$d/manifest.json" || fail "SIG$sig: interrupted test has no end time"
  "$SSDREV" log info "$d/logs/job.ssdlog" >"$d.info" 2>"$d.ierr" || fail "SIG$sig: log does not read"
  grep -q '^status *ok' "$d.info" || fail "SIG$sig: log not finalized: $(grep '^status' "$d.info")"
  [ -s "$d.ierr" ] && fail "SIG$sig: log info warns about a cleanly finalized log: $(cat "$d.ierr")"
  [ "$(info_field "$d.info" records)" -gt 0 ] || fail "SIG$sig: no records"
done

# ---- a torn last write: cut a finalized log (status ok) inside its last chunk,
# as a crash in the middle of a chunk write leaves it
sz=$(wc -c <"$T/INT/logs/job.ssdlog")
head -c $((sz - 100)) "$T/INT/logs/job.ssdlog" >"$T/torn.ssdlog"
recs=$(info_field "$T/INT.info" records); chunks=$(info_field "$T/INT.info" chunks)
"$SSDREV" log info "$T/torn.ssdlog" >"$T/torn.info" 2>"$T/torn.err" || fail "a torn tail is an error, not a truncation"
grep -q 'truncated' "$T/torn.err" || fail "no truncation warning: $(cat "$T/torn.err")"
grep -q "^status *truncated at byte" "$T/torn.info" || fail "log info does not report the truncated tail"
trecs=$(info_field "$T/torn.info" records); tchunks=$(info_field "$T/torn.info" chunks)
[ "$tchunks" -eq $((chunks - 1)) ] || fail "torn log: $tchunks chunks, expected $((chunks - 1)) (all but the torn one)"
[ "$trecs" -gt 0 ] && [ "$trecs" -lt "$recs" ] || fail "torn log: $trecs records of $recs"
"$SSDREV" log dump "$T/torn.ssdlog" --csv 2>/dev/null | tail -n +2 | wc -l >"$T/torn.n"
[ "$(cat "$T/torn.n")" -eq "$trecs" ] || fail "dump of the torn log gives $(cat "$T/torn.n") records, info $trecs"

# ---- SIGKILL on a regular file target (psync, buffered: works on any fs)
start_run "$T/f" 50000 "$T/target.img" --create-size 64M --engine psync --buffered --rw randwrite --bs 4k
kill -9 "$PID"; wait "$PID" 2>/dev/null; PID=""
"$SSDREV" log info "$T/f/logs/job.ssdlog" >"$T/f.info" 2>"$T/f.ierr" || fail "file target: killed log does not read: $(cat "$T/f.ierr")"
[ "$(info_field "$T/f.info" records)" -gt 0 ] || fail "file target: no records after SIGKILL"
[ "$(test_status "$T/f")" = running ] || fail "file target: killed test not marked incomplete"
exit 0
