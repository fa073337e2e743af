#!/bin/sh
# With io_uring unavailable (simulated by SSDREV_DISABLE_IO_URING=1, as when
# io_uring_setup fails with ENOSYS/EPERM), ssdrev run falls back to psync.
set -u
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
fail() { echo "run_psync: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
out=$(SSDREV_DISABLE_IO_URING=1 "$S" run "$D/t.img" --create-size 4M --out "$D/run" --rw randread --runtime 100ms --threads 2 --quiet) \
  || fail "run failed"
echo "$out" | grep -q 'engine=psync' || fail "did not fall back to psync: $out"
grep -q '"engine": "psync"' "$D/run/manifest.json" || fail "manifest does not record psync"
err=$(SSDREV_DISABLE_IO_URING=1 "$S" run "$D/t.img" --out "$D/run" --engine io_uring --runtime 100ms --quiet 2>&1); rc=$?
[ $rc -eq 1 ] || fail "forcing io_uring when disabled exited $rc, not 1"
echo "$err" | grep -q "io_uring" || fail "error does not name io_uring: $err"
grep -q '"status": "failed"' "$D/run/manifest.json" || fail "failed test not marked failed"
exit 0
