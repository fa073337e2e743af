#!/bin/sh
# test: serial
# SIGINT during ssdrev run: in-flight I/O drained, log finalized, test
# marked interrupted, exit 130.
set -u
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
fail() { echo "run_signal: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
"$S" run "$D/t.img" --create-size 8M --out "$D/run" --rw randread --runtime 60s --quiet >"$D/out" 2>"$D/err" &
pid=$!
# Wait until the test is running (manifest written), then interrupt.
i=0
while [ $i -lt 100 ] && ! grep -q '"running"' "$D/run/manifest.json" 2>/dev/null; do sleep 0.05; i=$((i+1)); done
sleep 0.3
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "exit $rc, not 130: $(cat "$D/err")"
python3 - "$D/run/manifest.json" <<'PY' || fail "manifest check failed"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
assert t["status"] == "interrupted", t["status"]
assert t["result"]["ios"] > 0 and t["result"]["elapsed_ns"] < 30e9, t["result"]
PY
[ -s "$D/run/logs/job.ssdlog" ] || fail "log missing"
grep -q interrupted "$D/out" || fail "summary does not say interrupted"
exit 0
