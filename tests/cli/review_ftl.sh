#!/bin/sh
# The simulator's page-mapped FTL (op_pct, docs/sim-model.md) through the
# CLI: on samples/models/ftl-8g.model, 4 KiB random writes after a purge and
# a sequential fill start fast and settle into a PTS steady state at least
# 1.5x slower, with write amplification > 1 from the drive's counters in the
# test records, the DUT and `ssdrev analyze` (text and JSON); a model
# without the FTL shows no write amplification at all.
set -u
fail() { echo "review_ftl: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

cat >"$D/m.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "ftl-test",
 "steps": [
  {"id": "ss", "kind": "steady_state", "block": "4KiB", "qd": 32, "round_s": 10, "rounds_max": 12, "window": 5, "prepare": "fill"}
 ]}
J
"$S" review "sim:$R/samples/models/ftl-8g.model" --profile "$D/m.json" --out "$D/run" --quiet 2>"$D/err" ||
  fail "review failed: $(cat "$D/err")"
"$S" analyze "$D/run" >"$D/sum" 2>"$D/err" || fail "analyze failed: $(cat "$D/err")"
grep -q "^Steady state (SNIA PTS): reached at round" "$D/sum" || fail "no steady state: $(cat "$D/sum")"
grep -q "^write amplification (NAND / host bytes written" "$D/sum" || fail "no write amplification: $(cat "$D/sum")"
grep -q "^  ss.prepare1: 1.00 " "$D/sum" || fail "the sequential fill's WA is not 1.00: $(cat "$D/sum")"
"$S" analyze "$D/run" --json >"$D/a.json" 2>"$D/err" || fail "analyze --json failed: $(cat "$D/err")"
"$S" model show "$R/samples/models/ftl-8g.model" >"$D/show" || fail "model show failed"
grep -q "^FTL        page-mapped, 4 KiB units, 7.0% spare: 365 blocks of 6144 units (23 spare)" "$D/show" ||
  fail "model show has no FTL line: $(cat "$D/show")"
"$S" model show "$R/samples/models/ftl-8g.model" --json >"$D/show.json" || fail "model show --json failed"
python3 - "$D/a.json" "$D/run/manifest.json" "$D/show.json" <<'P' || fail "the analysis does not show the FTL's steady state"
import json, sys
a = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2])); f = json.load(open(sys.argv[3]))["ftl"]
ss = a["steady_state"] if isinstance(a["steady_state"], dict) else a["steady_state"][0]
r = [x["iops"] for x in ss["rounds"]]
w = ss["window"]["mean_iops"]
assert ss["steady"], ss
assert r[0] >= 1.5 * w, (r, w)                    # fresh-out-of-box faster than steady
assert abs(w - f["steady_4k_iops"]) <= 0.10 * f["steady_4k_iops"], (w, f)  # the formula of docs/sim-model.md
wa = [a["tests"]["ss.r%02d" % (i + 1)]["write_amplification"] for i in range(len(r))]
assert all(x > 1 for x in wa) and wa[-1] > 5, wa  # greedy GC at 7% spare: ~8.9
assert abs(wa[-1] - f["wa_random"]) <= 0.10 * f["wa_random"], (wa, f)
assert abs(a["tests"]["ss.prepare1"]["write_amplification"] - 1) < 0.01
t = [x for x in m["tests"] if x["name"] == "ss.r02"][0]["drive_counters"]
assert t["nand_write_bytes"] > t["host_write_bytes"] > 0, t
assert m["dut"]["nand_write_bytes"] == [x for x in m["tests"] if x["name"].startswith("ss.r")][-1]["drive_counters"]["nand_write_total"]
P
# no FTL keys: no counters, no write amplification anywhere
sed -e '/^op_pct/d' -e '/^map_unit_bytes/d' "$R/samples/models/ftl-8g.model" >"$D/plain.model"
"$S" review "sim:$D/plain.model" --profile "$D/m.json" --out "$D/plain" --quiet 2>"$D/err" ||
  fail "review of the plain model failed: $(cat "$D/err")"
"$S" analyze "$D/plain" >"$D/psum" 2>"$D/err" || fail "analyze failed: $(cat "$D/err")"
"$S" analyze "$D/plain" --json >"$D/p.json" 2>"$D/err" || fail "analyze --json failed: $(cat "$D/err")"
! grep -qi "amplification" "$D/psum" "$D/p.json" || fail "write amplification without the drive's counters"
! grep -q "drive_counters\|nand_write" "$D/plain/manifest.json" || fail "counters recorded for a model without them"
exit 0
