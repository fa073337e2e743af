#!/bin/sh
# A test none of whose I/Os completed is "failed", never "complete":
#  1. a simulated drive that fails every command (error_rate = 1): exit 1,
#     a message with the error count and the first errno, status "failed"
#     in the manifest (and a drive failing some commands still completes);
#  2. as root: a write job on a regular file on a read-only filesystem (a
#     tmpfs this test mounts, remounted ro) fails at open, naming the file
#     and "read-only", and leaves the file unchanged.
set -u
fail() { echo "run_allfail: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
MNT=""
cleanup() {
  # io_uring drops its file references shortly after the process exits: retry
  if [ -n "$MNT" ]; then
    for i in 1 2 3 4 5 6 7 8 9 10; do umount "$MNT" 2>/dev/null && break; sleep 0.3; done
  fi
  rm -rf "$D"
}
trap cleanup EXIT INT TERM
status_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tests"][-1]["status"])' "$1"; }

# ---- 1. every I/O fails
grep -v '^error_rate\|^bad_lba' "$ROOT/samples/models/pm981-256.model" >"$D/dead.model"
echo 'error_rate = 1' >>"$D/dead.model"
err=$("$S" run "sim:$D/dead.model" --out "$D/dead" --rw randwrite --number-ios 300 --quiet 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "a drive failing every I/O: exit $rc, expected 1 ($err)"
echo "$err" | grep -q "no I/O completed: 300 I/O errors (first error: Input/output error)" \
  || fail "message lacks the count or the first errno: $err"
[ "$(status_of "$D/dead/manifest.json")" = failed ] || fail "test not marked failed: $(status_of "$D/dead/manifest.json")"
grep -q '"error": ".*no I/O completed' "$D/dead/manifest.json" || fail "manifest has no error message"

# the control: some I/Os fail, the rest complete: still "complete", exit 0
grep -v '^error_rate\|^bad_lba' "$ROOT/samples/models/pm981-256.model" >"$D/flaky.model"
echo 'error_rate = 0.5' >>"$D/flaky.model"
"$S" run "sim:$D/flaky.model" --out "$D/flaky" --rw randwrite --number-ios 300 --quiet >/dev/null 2>&1 \
  || fail "a drive failing half its I/Os did not complete"
[ "$(status_of "$D/flaky/manifest.json")" = complete ] || fail "flaky drive: status $(status_of "$D/flaky/manifest.json")"

# ---- 2. a file on a read-only filesystem
if [ "$(id -u)" != 0 ]; then echo "skip: read-only filesystem: needs root to mount"; exit 0; fi
MNT="$D/mnt"; mkdir "$MNT"
if ! mount -t tmpfs -o size=16m tmpfs "$MNT" 2>/dev/null; then
  MNT=""; echo "skip: read-only filesystem: cannot mount a tmpfs here"; exit 0
fi
# psync: an io_uring ring may hold the file open for a moment after exit,
# and a remount ro fails while a file is open for writing (retried anyway)
"$S" run "$MNT/t.img" --create-size 4M --out "$D/rw" --rw write --runtime 100ms --buffered --engine psync --quiet \
  >/dev/null || fail "the writable file run failed"
sum=$(cksum <"$MNT/t.img")
i=0; until mount -o remount,ro "$MNT" 2>/dev/null; do
  i=$((i+1)); [ $i -gt 20 ] && fail "remount ro failed"; sleep 0.3
done
err=$("$S" run "$MNT/t.img" --out "$D/ro" --rw write --runtime 100ms --buffered --quiet 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "a write to a file on a read-only filesystem: exit $rc ($err)"
echo "$err" | grep -q "cannot open '$MNT/t.img' for writing: it is read-only" || fail "message: $err"
err=$("$S" run "$MNT/new.img" --create-size 4M --out "$D/ro2" --rw write --runtime 100ms --buffered --quiet 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || fail "creating a file on a read-only filesystem: exit $rc ($err)"
echo "$err" | grep -q "new.img" || fail "create message does not name the file: $err"
[ "$(cksum <"$MNT/t.img")" = "$sum" ] || fail "the file changed"
# reading it is still fine
"$S" run "$MNT/t.img" --out "$D/rd" --rw read --runtime 100ms --buffered --quiet >/dev/null || fail "read of the ro file failed"
exit 0
