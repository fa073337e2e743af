#!/bin/sh
# `ssdrev review --short` on a loop device over a temp file (root only):
# refused without --destructive, complete with it. Detaches what it attaches.
# Skips (exit 77) when not root or without losetup.
set -u
fail() { echo "review_loop: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null 2>&1; then echo "skip: needs root and losetup"; exit 77; fi
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
L=""
cleanup() { [ -n "$L" ] && losetup -d "$L" 2>/dev/null; rm -rf "$D"; }
trap cleanup EXIT INT TERM
truncate -s 96M "$D/loop.img"
L=$(losetup -f --show "$D/loop.img") || { echo "skip: losetup failed"; exit 77; }
"$S" review "$L" --out "$D/r0" --short --quiet 2>"$D/err"; rc=$?
[ $rc -eq 1 ] || fail "write to a block device without --destructive exited $rc"
grep -q -- "--destructive" "$D/err" || fail "refusal does not name --destructive"
"$S" review "$L" --out "$D/r1" --short --destructive --quiet --label "loop" 2>"$D/err" || fail "review on loop failed: $(cat "$D/err")"
M="$D/r1/manifest.json"
for s in purge cdm_fob fill75 cdm_75 fill_drive rw_sweep tail; do
  grep -q "\"$s\": \"complete\"" "$M" || fail "step $s not complete"
done
grep -q '"kind": "block"' "$M" || fail "target kind not block"
grep -q '"simulated": false' "$M" || fail "loop run marked simulated"
# Every job records how it was asked to wait (the method's default, auto)
# and how its threads waited: auto sleeps, as fio does.
python3 - "$M" <<'PY' || fail "params.wait / result.wait not recorded as expected"
import json, sys
tests = [t for t in json.load(open(sys.argv[1]))["tests"] if "params" in t and "result" in t]
assert tests
for t in tests:
    p, r = t["params"], t["result"]
    assert p.get("wait") == "auto", (t["name"], p)
    assert r.get("wait") == "sleep", (t["name"], r)
PY
exit 0
