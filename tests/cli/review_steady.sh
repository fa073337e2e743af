#!/bin/sh
# Steady state (step kind steady_state) and performance consistency (kind
# consistency) from the CLI on a small PM981-like sim drive: --plan
# estimates both steps, a round limit too low for the PTS rule gives
# not_steady, the consistency analysis has per-second and 100 ms series with
# p99.9, its steady IOPS agrees with a longer steady-state run's window
# (both the GC-bound rate of the full drive; docs/method.md), bad keys are
# refused naming the step, and the charts and tables render in English and
# Korean. The truth against the simulator's own timing is
# tests/unit/test_steady.c.
set -u
fail() { echo "review_steady: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

# (without the PM981's page-mapped FTL: 7.3% of 1 GiB is three 24 MiB
# blocks, fewer than the FTL needs; the FTL's steady state is review_ftl.sh)
sed -e 's/^capacity_bytes = .*/capacity_bytes = 1073741824/' -e 's/^slc_max_gib = .*/slc_max_gib = 0.25/' \
    -e 's/^slc_min_gib = .*/slc_min_gib = 0.0625/' -e 's/^name = .*/name = ss-small/' \
    -e '/^op_pct = /d' -e '/^map_unit_bytes = /d' \
    "$R/samples/models/pm981-256.model" >"$D/small.model" || fail "cannot write the model"
cat >"$D/m.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "ss-test",
 "settings": {"passes": 1, "measure_s": 0.1, "interval_s": 0, "region_bytes": "64MiB"},
 "plan": {"write_mb_s": 1000, "read_mb_s": 2000, "qd1_iops": 15000},
 "steps": [
  {"id": "ss", "kind": "steady_state", "round_s": 0.5, "rounds_max": 5, "prepare": "purge"},
  {"id": "cons", "kind": "consistency", "duration_s": 20, "prepare": "fill"}
 ]}
J
plan=$("$S" review "sim:$D/small.model" --profile "$D/m.json" --out "$D/run" --plan) || fail "plan failed"
echo "$plan" | grep -q "ss  *5s  steady state (SNIA PTS): purge, up to 5 rounds of 0.5s 4 KiB random write, QD32 T1" ||
  fail "plan does not estimate the steady-state step: $plan"
echo "$plan" | grep -q "cons  *23s  performance consistency: purge + 1x sequential fill, 20s 4 KiB random write" ||
  fail "plan does not estimate the consistency step: $plan"
"$S" review "sim:$D/small.model" --profile "$D/m.json" --out "$D/run" --quiet --seed 3 2>"$D/err" ||
  fail "review failed: $(cat "$D/err")"
"$S" analyze "$D/run" >"$D/sum" 2>"$D/err" || fail "analyze failed: $(cat "$D/err")"
grep -q "^Steady state (SNIA PTS): not reached in 5 rounds (last window [0-9]* IOPS" "$D/sum" || fail "no steady-state summary: $(cat "$D/sum")"
grep -q "^Consistency (cons.write): [0-9]* IOPS from [0-9]* s, 1% low [0-9]*" "$D/sum" || fail "no consistency summary"
grep -q "of 7 tests are summarized above" "$D/sum" || fail "the steps' tests are not summarized: $(cat "$D/sum")"
python3 - "$D/run/analysis.json" <<'P' || fail "analysis wrong"
import json, sys
a = json.load(open(sys.argv[1]))
ss = a['steady_state']
# five 0.5 s rounds from a purged drive: still converging (the fresh-drive burst is in round 1)
assert len(ss['rounds']) == 5 and ss['steady'] is False, ss
ids = [f['id'] for f in a['flags']]
assert 'not_steady' in ids, ids
c = a['consistency'][0]
n = len(c['per_s']['iops'])
assert 18 <= n <= 20 and len(c['per_s']['p99_9_us']) == n, n
assert 9 * n <= len(c['per_fine']['iops']) <= 10 * n + 10
t = a['tests']['cons.write']
assert len(t['series_fine']['p99_9_us']) == len(t['series_fine']['iops'])
st = c['steady']
assert st['min_iops'] <= st['mean_iops'] and st['cov_pct'] < 10, st
print('consistency: %.0f IOPS steady, cov %.2f%%' % (st['mean_iops'], st['cov_pct']))
P
# a longer steady-state run reaches steady state; its window agrees with the consistency level
cat >"$D/m2.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "ss-test2",
 "steps": [{"id": "ss", "kind": "steady_state", "round_s": 1, "rounds_max": 25, "prepare": "purge"}]}
J
"$S" review "sim:$D/small.model" --profile "$D/m2.json" --out "$D/run2" --quiet --seed 3 2>"$D/err" ||
  fail "review 2 failed: $(cat "$D/err")"
"$S" analyze "$D/run2" --quiet 2>"$D/err" || fail "analyze 2 failed: $(cat "$D/err")"
python3 - "$D/run2/analysis.json" "$D/run/analysis.json" <<'P' || fail "steady state disagrees with the consistency level"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ss = a['steady_state']
assert ss['steady'] is True and ss['steady_round'] == len(ss['rounds']), ss
level = b['consistency'][0]['steady']['mean_iops']
r = ss['window']['mean_iops'] / level
print('steady state at round %d: %.0f IOPS, consistency %.0f (%.3f)' % (ss['steady_round'], ss['window']['mean_iops'], level, r))
assert 0.95 <= r <= 1.15, r
assert 'not_steady' not in [f['id'] for f in a['flags']]
P
# the PTS IOPS matrix: 7 mixes x 8 blocks per round, the 4 KiB write point tracked
cat >"$D/m3.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "ss-matrix",
 "steps": [{"id": "mx", "kind": "steady_state", "round_s": 0.02, "rounds_max": 2, "window": 2, "matrix": true}]}
J
"$S" review "sim:$D/small.model" --profile "$D/m3.json" --out "$D/run3" --plan | grep -q "up to 2 rounds of the IOPS matrix (7 mixes x 8 blocks, 0.02s each)" ||
  fail "matrix plan wrong"
"$S" review "sim:$D/small.model" --profile "$D/m3.json" --out "$D/run3" --quiet --seed 3 2>"$D/err" ||
  fail "matrix review failed: $(cat "$D/err")"
"$S" analyze "$D/run3" --quiet 2>"$D/err" || fail "analyze 3 failed: $(cat "$D/err")"
python3 - "$D/run3/analysis.json" <<'P' || fail "matrix analysis wrong"
import json, sys
a = json.load(open(sys.argv[1]))
ss = a['steady_state']
assert len(ss['rounds']) == 2 and all(r['test'].endswith('.R0.4K') for r in ss['rounds']), ss['rounds']
m = ss['matrix']
assert len(m) == 56, len(m)
cells = {(c['read_pct'], c['block_bytes']) for c in m}
assert (65, 512) in cells and (0, 1048576) in cells
w4 = [c for c in m if c['read_pct'] == 0 and c['block_bytes'] == 4096][0]
assert abs(w4['iops'] - ss['window']['mean_iops']) <= 0.1 + 1e-6 * w4['iops'], (w4, ss['window'])
P
printf '{{table steady_state lang=ko}}\n' >"$D/tm.md"
"$S" report --template "$D/tm.md" --out "$D/repm" --format md --strict "$D/run3" >/dev/null 2>"$D/err" || fail "matrix table: $(cat "$D/err")"
grep -q "IOPS 매트릭스 (측정 구간 평균)" "$D/repm/review.md" && grep -q "| 4 KiB | [0-9]" "$D/repm/review.md" ||
  fail "no matrix table: $(cat "$D/repm/review.md")"
# bad keys name the step
printf '%s' '{"format": "ssdrev-method", "format_version": 1, "name": "x", "steps": [{"id": "s", "kind": "steady_state", "window": 9, "rounds_max": 5}]}' >"$D/bad.json"
"$S" review "sim:$D/small.model" --profile "$D/bad.json" --out "$D/bad" --plan >/dev/null 2>"$D/err" && fail "window > rounds_max accepted"
grep -q "step 's': 'window' (9) must not exceed 'rounds_max' (5)" "$D/err" || fail "wrong message: $(cat "$D/err")"
printf '%s' '{"format": "ssdrev-method", "format_version": 1, "name": "x", "steps": [{"id": "c", "kind": "consistency", "prepare": "wipe"}]}' >"$D/bad2.json"
"$S" review "sim:$D/small.model" --profile "$D/bad2.json" --out "$D/bad" --plan >/dev/null 2>"$D/err" && fail "bad prepare accepted"
grep -q "step 'c': 'prepare' must be" "$D/err" || fail "wrong message: $(cat "$D/err")"
for lang in en ko; do
  printf '# S\n\n{{chart steady_state}}\n\n{{table steady_state lang=%s}}\n\n{{chart consistency}}\n\n{{chart consistency_log}}\n\n{{chart consistency_latency}}\n\n{{table consistency lang=%s}}\n\n{{flags}}\n' \
    "$lang" "$lang" >"$D/t.$lang.md"
  "$S" report --template "$D/t.$lang.md" --out "$D/rep.$lang" --format md --dpi 40 --strict "$D/run" 2>"$D/err" ||
    fail "report ($lang) failed: $(cat "$D/err")"
  [ "$(ls "$D/rep.$lang/charts/"*.png | wc -l)" -eq 4 ] || fail "not four charts ($lang)"
done
grep -q "| Round | 4 KiB random write IOPS | In window |" "$D/rep.en/review.md" || fail "English table header missing"
grep -q "Steady state not reached in 5 rounds" "$D/rep.en/review.md" || fail "English verdict missing"
grep -q "| 라운드 | 4 KiB 랜덤 쓰기 IOPS | 측정 구간 |" "$D/rep.ko/review.md" || fail "Korean table header missing"
grep -q "5라운드 안에 정상 상태에 도달하지 못했습니다" "$D/rep.ko/review.md" || fail "Korean verdict missing"
grep -q "| 평균 IOPS | [0-9]" "$D/rep.ko/review.md" || fail "Korean consistency table missing"
# the tables group digits as the sentences do ("11,035"), and a value they lack is "–", never "n/a"
python3 - "$D/rep.en/review.md" "$D/rep.ko/review.md" "$D/repm/review.md" <<'P' || fail "a table's IOPS without thousands separators, or an n/a cell"
import re, sys
for f in sys.argv[1:]:
    md = open(f).read()
    rows = [l for l in md.splitlines() if l.startswith('|')]
    bare = [l for l in rows if re.search(r'\| \**\d{4,}\**\s*\|', l)]
    assert not bare, (f, bare)
    assert '| n/a |' not in md, f
assert re.search(r'\| 1 \| \d{1,3}(,\d{3})+ \|', open(sys.argv[1]).read()), 'no grouped round IOPS'
P
"$S" chart steady_state "$D/run" --out "$D/x.png" >/dev/null 2>&1 || fail "ssdrev chart steady_state failed"
"$S" chart consistency "$D/run2" --out "$D/y.png" >/dev/null 2>"$D/err" && fail "consistency chart without the data drawn"
grep -q "no performance-consistency series" "$D/err" || fail "wrong message: $(cat "$D/err")"
echo "review_steady: ok"
