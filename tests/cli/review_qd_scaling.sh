#!/bin/sh
# Queue-depth scaling (step kind qd_scaling) on a filled small PM981-like sim
# drive: --plan estimates the step, the analysis' deepest-QD random-read
# IOPS agrees with the die-bound truth of the model (docs/method.md,
# "Queue-depth scaling": -15% .. +5%), the plateau lies between the die count
# and 8x it, the qd_plateau flag fires, and the chart and table kinds render
# in English and Korean.
set -u
fail() { echo "review_qd_scaling: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

# 4 GiB so that filling it is cheap; SLC small so nearly every read is of TLC.
sed -e 's/^capacity_bytes = .*/capacity_bytes = 4294967296/' -e 's/^slc_max_gib = .*/slc_max_gib = 0.25/' \
    -e 's/^slc_min_gib = .*/slc_min_gib = 0.0625/' -e 's/^name = .*/name = qd-small/' \
    "$R/samples/models/pm981-256.model" >"$D/small.model" || fail "cannot write the model"
cat >"$D/m.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "qd-test",
 "settings": {"passes": 1, "measure_s": 0.1, "interval_s": 0, "region_bytes": "64MiB"},
 "plan": {"write_mb_s": 1000, "read_mb_s": 2000, "qd1_iops": 15000},
 "steps": [
  {"id": "purge", "kind": "purge"},
  {"id": "fill", "kind": "prefill", "fill_pct": 100, "block": "128KiB", "qd": 32},
  {"id": "qds", "kind": "qd_scaling", "measure_s": 0.05, "ramp_s": 0.01}
 ]}
J
plan=$("$S" review "sim:$D/small.model" --profile "$D/m.json" --out "$D/run" --plan) || fail "plan failed"
# 2 workloads x 8 QDs x 0.06 s
echo "$plan" | grep -q "qds  *1.0s  QD scaling: 4 KiB random read and write, QD 1,2,4,8,16,32,64,128" ||
  fail "plan does not estimate the step: $plan"
"$S" review "sim:$D/small.model" --profile "$D/m.json" --out "$D/run" --quiet --seed 3 2>"$D/err" ||
  fail "review failed: $(cat "$D/err")"
"$S" analyze "$D/run" --quiet 2>"$D/err" || fail "analyze failed: $(cat "$D/err")"
# The simulator's own figure for the die bound (sim_model_derive).
"$S" model show "$D/small.model" >"$D/show" || fail "model show failed"
python3 - "$D/run/analysis.json" "$D/show" <<'P' || fail "analysis disagrees with the simulator's truth"
import json, re, sys
a = json.load(open(sys.argv[1]))
show = open(sys.argv[2]).read()
dies = int(re.search(r'= (\d+) dies', show).group(1))
truth = float(re.search(r'die-parallel 4K read ceiling\s+(\d+) IOPS', show).group(1))
g = {x['workload']: x for x in a['qd_scaling']}
r = g['read']
qds = [p['qd'] for p in r['points']]
assert qds == [1, 2, 4, 8, 16, 32, 64, 128], qds
ratio = r['max_iops'] / truth
print('read: max %.0f IOPS, truth %.0f (%.3f), plateau QD%s' % (r['max_iops'], truth, ratio, r.get('plateau_qd')))
assert 0.85 <= ratio <= 1.05, ratio
assert dies <= r['plateau_qd'] <= 8 * dies, r['plateau_qd']
assert all(p['p99_us'] >= p['lat_mean_us'] > 0 for p in r['points'])
assert len(g['write']['points']) == 8 and all(p['iops'] > 0 for p in g['write']['points'])
f = [x for x in a['flags'] if x['id'] == 'qd_plateau' and x['numbers']['workload'] == 'read']
assert f and f[0]['numbers']['qd'] == r['plateau_qd'], a['flags']
P
for lang in en ko; do
  printf '# QD\n\n{{chart qd_scaling}}\n\n{{chart qd_latency}}\n\n{{table qd_scaling lang=%s}}\n' "$lang" >"$D/t.$lang.md"
  "$S" report --template "$D/t.$lang.md" --out "$D/rep.$lang" --format md --dpi 40 --strict "$D/run" 2>"$D/err" ||
    fail "report ($lang) failed: $(cat "$D/err")"
  ls "$D/rep.$lang/charts/"*.png >/dev/null 2>&1 || fail "no chart PNG ($lang)"
  [ "$(ls "$D/rep.$lang/charts/"*.png | wc -l)" -ge 2 ] || fail "fewer than two charts ($lang)"
done
grep -q "| QD | Read IOPS | Read mean \[µs\] | Read p99 \[µs\] | Write IOPS" "$D/rep.en/review.md" ||
  fail "English table header missing: $(cat "$D/rep.en/review.md")"
grep -q "| QD | 읽기 IOPS | 읽기 평균 \[µs\]" "$D/rep.ko/review.md" || fail "Korean table header missing"
grep -q "| \*\*[0-9,]*\*\* |" "$D/rep.en/review.md" || fail "plateau not marked in the table"

# The shipped full method on a shipped model, short, rendered by its templates.
"$S" review "sim:$R/samples/models/pm981-256.model" --profile "$R/profiles/review-full.json" --out "$D/full" \
  --short --quiet --label "PM981 256GB" 2>"$D/err" || fail "review-full failed: $(cat "$D/err")"
grep -q '"qd_scaling": "complete"' "$D/full/manifest.json" || fail "review-full: qd_scaling step not complete"
grep -q '"extends"' "$D/full/manifest.json" && fail "review-full: the manifest's method is not the merged one"
for lang in en ko; do
  "$S" report --template "$R/templates/full.$lang.md" --out "$D/full.$lang" --format md --dpi 30 "$D/full" \
    >/dev/null 2>"$D/err" || fail "full.$lang.md failed: $(cat "$D/err")"
  [ -s "$D/full.$lang/charts/qd_scaling.png" ] || fail "full.$lang.md: no qd_scaling chart"
  grep -q "not measured" "$D/err" && grep "not measured" "$D/err" | grep -q "qd_scaling" && fail "full.$lang.md: QD scaling not measured"
done
grep -q "^## Queue-Depth Scaling" "$D/full.en/review.md" || fail "no English QD section"
grep -q "^## 큐 깊이 확장성" "$D/full.ko/review.md" || fail "no Korean QD section"
grep -q "Random reads stop scaling at QD[0-9]" "$D/full.en/review.md" || fail "plateau value not filled in"
echo "review_qd_scaling: ok"
