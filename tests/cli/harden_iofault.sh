#!/bin/sh
# I/O faults are reported per I/O and counted, never a crash or a hang:
#  1. the simulated drive's injected errors (error_rate, a bad LBA range):
#     each failed I/O is in the log with its -errno, and the manifest's
#     result.errors equals the log's error records; --max-errors stops the
#     job with exit 1, a message, status "failed" and a readable log;
#  2. a loop device (over a file this test creates) that starts failing
#     mid-run: the backing file is cut to 0 bytes and the loop capacity
#     reloaded, so every further I/O ends in EIO; then it is detached while
#     still open. The run must end by itself at --max-errors. (dm-error would
#     be the classic tool; this kernel has no device-mapper, and the loop
#     trick needs only losetup.) Skipped, with a "skip:" line (exit 0, as
#     case 1 ran), when not root or when loop devices are unavailable.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
T=$(mktemp -d) || exit 1
LOOP="" PID=""
cleanup() {
  [ -n "$PID" ] && kill -9 "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "harden_iofault: FAIL: $*" >&2; exit 1; }
info_field() { sed -n "s/^$2  *//p" "$1" | head -n 1; }
result_errors() { tr -d ' \n' <"$1" | sed -n 's/.*"result":{[^}]*"errors":\([0-9]*\).*/\1/p'; }

# ---- 1. injected errors on the simulated drive
grep -v '^error_rate\|^bad_lba' "$ROOT/samples/models/pm981-256.model" >"$T/err.model"
printf 'error_rate = 0.01\nbad_lba_start = 0\nbad_lba_count = 4096\n' >>"$T/err.model"
"$SSDREV" run "sim:$T/err.model" --out "$T/s" --name job --rw randread --runtime 100ms --quiet \
  >"$T/s.out" 2>"$T/s.err" || fail "a run with injected errors failed: $(cat "$T/s.err")"
"$SSDREV" log info "$T/s/logs/job.ssdlog" >"$T/s.info" 2>&1 || fail "log info: $(cat "$T/s.info")"
nerr=$(info_field "$T/s.info" 'error records')
[ "${nerr:-0}" -gt 0 ] || fail "no error records in the log of a drive with error_rate 0.01"
[ "$(result_errors "$T/s/manifest.json")" = "$nerr" ] || fail "manifest counts $(result_errors "$T/s/manifest.json") errors, log $nerr"
"$SSDREV" log dump "$T/s/logs/job.ssdlog" --csv >"$T/s.csv" || fail "log dump"
n5=$(awk -F, 'NR > 1 && $6 == -5' "$T/s.csv" | wc -l)
[ "$n5" -eq "$nerr" ] || fail "$n5 records with status -5 (EIO) in the dump, $nerr error records"

"$SSDREV" run "sim:$T/err.model" --out "$T/m" --name job --rw randwrite --runtime 1s --max-errors 10 --quiet \
  >"$T/m.out" 2>"$T/m.err"
rc=$?
[ $rc -eq 1 ] || fail "--max-errors 10: exit $rc, expected 1"
grep -q "^ssdrev run: error: .*10 I/O errors" "$T/m.err" || fail "--max-errors: message: $(cat "$T/m.err")"
grep -q '"status": "failed"' "$T/m/manifest.json" || fail "--max-errors: test not marked failed"
"$SSDREV" log info "$T/m/logs/job.ssdlog" >"$T/m.info" 2>&1 || fail "--max-errors: log does not read"
[ "$(info_field "$T/m.info" 'error records')" -eq 10 ] || fail "--max-errors: $(info_field "$T/m.info" 'error records') error records, expected 10"

# ---- 2. a loop device that fails mid-run, then is detached
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null 2>&1; then
  echo "skip: not root or no losetup: loop-device case not checked"; exit 0
fi
truncate -s 64M "$T/back.img" || fail "truncate"
LOOP=$(losetup --find --show "$T/back.img" 2>/dev/null) || LOOP=""
if [ -z "$LOOP" ]; then echo "skip: no loop device available: loop-device case not checked"; exit 0; fi
for engine in io_uring psync; do
  d="$T/loop-$engine"
  # reads only: no --destructive needed, the guard is not involved
  "$SSDREV" run "$LOOP" --out "$d" --name job --rw randread --bs 4k --engine "$engine" \
    --runtime 1h --max-errors 2000 --quiet >"$d.out" 2>"$d.err" &
  PID=$!
  i=0
  until [ "$(stat -c %s "$d/logs/job.ssdlog" 2>/dev/null || echo 0)" -gt 20000 ]; do
    kill -0 "$PID" 2>/dev/null || fail "$engine: run ended early: $(cat "$d.err")"
    i=$((i+1)); [ $i -gt 600 ] && fail "$engine: log did not grow in 60 s"
    sleep 0.1
  done
  truncate -s 0 "$T/back.img"
  losetup -c "$LOOP" || fail "losetup -c"
  # the run must end by itself (max errors), not hang: allow 120 s
  i=0
  while kill -0 "$PID" 2>/dev/null; do
    i=$((i+1)); [ $i -gt 1200 ] && fail "$engine: run still going 120 s after the device failed (hang?)"
    sleep 0.1
  done
  wait "$PID"; rc=$?; PID=""
  [ $rc -eq 1 ] || fail "$engine: exit $rc after the device failed, expected 1 ($(cat "$d.err"))"
  grep -q "^ssdrev run: error: .*I/O errors" "$d.err" || fail "$engine: message: $(cat "$d.err")"
  grep -q 'runtime error\|AddressSanitizer' "$d.err" && fail "$engine: sanitizer report"
  "$SSDREV" log info "$d/logs/job.ssdlog" >"$d.info" 2>&1 || fail "$engine: log does not read: $(cat "$d.info")"
  e=$(info_field "$d.info" 'error records')
  [ "${e:-0}" -ge 2000 ] || fail "$engine: $e error records, expected at least 2000"
  [ "$(info_field "$d.info" records)" -gt "$e" ] || fail "$engine: no successful reads before the failure"
  [ "$(result_errors "$d/manifest.json")" -ge 2000 ] || fail "$engine: manifest errors $(result_errors "$d/manifest.json")"
  grep -q '"status": "failed"' "$d/manifest.json" || fail "$engine: test not marked failed"
  truncate -s 64M "$T/back.img"
  losetup -c "$LOOP" || fail "losetup -c"
done

# detached while open: the kernel keeps it usable until closed (autoclear);
# the run must carry on and finish cleanly on SIGINT
d="$T/detach"
"$SSDREV" run "$LOOP" --out "$d" --name job --rw randread --bs 4k --runtime 1h --quiet >"$d.out" 2>"$d.err" &
PID=$!
i=0
until [ "$(stat -c %s "$d/logs/job.ssdlog" 2>/dev/null || echo 0)" -gt 20000 ]; do
  kill -0 "$PID" 2>/dev/null || fail "detach: run ended early: $(cat "$d.err")"
  i=$((i+1)); [ $i -gt 600 ] && fail "detach: log did not grow in 60 s"
  sleep 0.1
done
losetup -d "$LOOP" || fail "losetup -d"
L2=$LOOP; LOOP=""
sleep 0.3
kill -0 "$PID" 2>/dev/null || fail "detach: the run died when the loop device was detached: $(cat "$d.err")"
kill -s INT "$PID"; wait "$PID"; rc=$?; PID=""
[ $rc -eq 130 ] || fail "detach: exit $rc after SIGINT, expected 130 ($(cat "$d.err"))"
"$SSDREV" log info "$d/logs/job.ssdlog" >"$d.info" 2>&1 || fail "detach: log does not read"
# once closed, autoclear frees the device
i=0
while losetup "$L2" >/dev/null 2>&1; do
  i=$((i+1)); [ $i -gt 50 ] && { losetup -d "$L2" 2>/dev/null; fail "detach: $L2 still attached after the run closed it"; }
  sleep 0.1
done
exit 0
