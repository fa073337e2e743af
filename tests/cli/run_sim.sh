#!/bin/sh
# ssdrev run on a simulated drive: the sim engine by default, a manifest
# that says simulated with the model's DUT, and the same result for the
# same seed (virtual clock: deterministic and fast).
set -u
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
fail() { echo "run_sim: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
M=${SSDREV_ROOT:-.}/samples/models/pm981-256.model
[ -f "$M" ] || { echo "skip: no $M"; exit 77; }
for r in a b; do
  "$S" run "sim:$M" --out "$D/$r" --rw randread --iodepth 32 --threads 2 --runtime 200ms --ramp 50ms --seed 7 --quiet >"$D/$r.txt" \
    || fail "sim run $r failed: $(cat "$D/$r.txt")"
done
grep -q 'engine=sim' "$D/a.txt" || fail "sim engine not chosen: $(cat "$D/a.txt")"
python3 - "$D/a/manifest.json" "$D/b/manifest.json" <<'PY' || fail "manifest check failed"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["simulated"] is True and a["target"]["kind"] == "sim", a["target"]
assert a.get("dut") and a.get("label"), "no dut/label"
ra, rb = a["tests"][0]["result"], b["tests"][0]["result"]
assert ra["ios"] > 0 and ra == rb, (ra, rb)
# measure time is virtual: the measured window is the measure time, plus the drain
assert 0.2e9 <= ra["elapsed_ns"] < 0.21e9, ra["elapsed_ns"]
PY
cmp -s "$D/a/logs/job.ssdlog" "$D/b/logs/job.ssdlog" || fail "the same seed gave logs that are not byte-identical"
exit 0
