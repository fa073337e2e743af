#!/bin/sh
# The thermal step (step kind thermal) on two shipped sim models, from a cool
# fresh drive: --plan estimates the step; on the throttling hot-512 the
# analysis' time to throttle and throttled speed agree with the simulator's
# truth (`ssdrev model show`: the same write on a scratch drive of the model,
# docs/method.md "Thermal": within 1.5 s and 3%), the SLC cliff before it is
# found and not called throttling, and thermal_step_throttle fires; on the
# PM981 (no throttle) the cliff is found, nothing is called throttling and no
# thermal flag fires; a variant that cycles in and out of its throttle still
# matches the truth. The chart and table render in English and Korean, and
# review-full --short renders its thermal section in both languages.
set -u
fail() { echo "review_thermal: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

cat >"$D/m.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "thermal-test",
 "steps": [
  {"id": "purge", "kind": "purge"},
  {"id": "heat", "kind": "thermal", "duration_s": 80, "cool_s": 2}
 ]}
J
plan=$("$S" review "sim:$R/samples/models/hot-512.model" --profile "$D/m.json" --out "$D/hot" --plan) ||
  fail "plan failed"
echo "$plan" | grep -q "heat  *1m22s  thermal: 2s idle, then sequential 128 KiB QD32 write for 80s, temperature every 1s" ||
  fail "plan does not estimate the step: $plan"
for m in hot-512 pm981-256; do
  "$S" review "sim:$R/samples/models/$m.model" --profile "$D/m.json" --out "$D/$m" --quiet 2>"$D/err" ||
    fail "review on $m failed: $(cat "$D/err")"
  "$S" analyze "$D/$m" --quiet 2>"$D/err" || fail "analyze on $m failed: $(cat "$D/err")"
done
"$S" model show "$R/samples/models/hot-512.model" >"$D/show" || fail "model show failed"
python3 - "$D/hot-512/analysis.json" "$D/show" "$D/pm981-256/analysis.json" <<'P' || fail "analysis disagrees with the simulator's truth"
import json, re, sys
a = json.load(open(sys.argv[1]))
show = open(sys.argv[2]).read()
m = re.search(r'throttles after ([\d.]+) s at ([\d.]+) °C, (\d+) MB/s before, (\d+) MB/s throttled', show)
t_truth, mb_truth = float(m.group(1)), float(m.group(4))
th = a['thermal'][0]
print('hot-512: throttle after %.2f s (truth %.2f), %.1f MB/s (truth %.0f), peak %.1f °C' %
      (th['time_to_throttle_s'], t_truth, th['throttled_mb_s'], mb_truth, th['peak_temp_c']))
assert th['throttled'] is True
assert abs(th['time_to_throttle_s'] - t_truth) <= 1.5, th['time_to_throttle_s']
assert abs(th['throttled_mb_s'] / mb_truth - 1) <= 0.03, th['throttled_mb_s']
assert len(th['temp_c']) >= 75 and th['temp_t_s'][-1] >= 79, len(th['temp_c'])
pts = th['points']
assert len(pts) == 2 and pts[0]['thermal'] is False and pts[1]['thermal'] is True, pts
assert pts[0]['t_s'] < 12, pts[0]  # the SLC cliff: 22 GiB at ~3.3 GB/s
f = [x for x in a['flags'] if x['id'] == 'thermal_step_throttle']
assert len(f) == 1 and abs(f[0]['numbers']['time_s'] - th['time_to_throttle_s']) < 1e-6, a['flags']
assert th['smart_thermal']['after']['tmt1_count'] == 1, th['smart_thermal']
# issue 24: the drive's counters are the evidence when recorded
assert th['throttle_evidence'] == 'smart' and pts[1]['evidence'] == 'SMART throttle counters', (th['throttle_evidence'], pts)
assert th['smart_throttle_transitions'] == 1 and abs(th['smart_throttle_s'] - (80 - t_truth)) <= 2, th
b = json.load(open(sys.argv[3]))
tb = b['thermal'][0]
print('pm981-256: throttled %s, drops %s' % (tb['throttled'], [(p['t_s'], p['evidence']) for p in tb['points']]))
assert tb['throttled'] is False
assert len(tb['points']) >= 1 and not any(p['thermal'] for p in tb['points']), tb['points']
assert 6 < tb['points'][0]['t_s'] < 10, tb['points']  # 11 GiB at ~1.5 GB/s
assert not [x for x in b['flags'] if x['id'].startswith('thermal')], b['flags']
assert 'smart_thermal' not in tb  # a model without throttle keys has no counters
P
# A drive that cycles in and out of its throttle (the cap cools it below
# the exit): the first throttle and the mean throttled speed still match.
sed -e 's/^throttle_light_mb_s = .*/throttle_light_mb_s = 500/' -e 's/^name = .*/name = hot-saw/' \
  "$R/samples/models/hot-512.model" >"$D/saw.model" || fail "cannot write the model"
sed -e 's/"duration_s": 80/"duration_s": 96/' "$D/m.json" >"$D/saw.json"
"$S" review "sim:$D/saw.model" --profile "$D/saw.json" --out "$D/saw" --quiet 2>"$D/err" || fail "review on saw failed: $(cat "$D/err")"
"$S" analyze "$D/saw" --quiet 2>"$D/err" || fail "analyze on saw failed: $(cat "$D/err")"
"$S" model show "$D/saw.model" >"$D/show.saw" || fail "model show failed"
python3 - "$D/saw/analysis.json" "$D/show.saw" <<'P' || fail "cycling throttle disagrees with the simulator's truth"
import json, re, sys
th = json.load(open(sys.argv[1]))['thermal'][0]
m = re.search(r'throttles after ([\d.]+) s at ([\d.]+) °C, (\d+) MB/s before, (\d+) MB/s throttled', open(sys.argv[2]).read())
t_truth, mb_truth = float(m.group(1)), float(m.group(4))
print('hot-saw: throttle after %.2f s (truth %.2f), mean after %.1f MB/s (truth %.0f), %.1f MB/s while throttled' %
      (th['time_to_throttle_s'], t_truth, th['after_throttle_mb_s'], mb_truth, th['throttled_mb_s']))
assert th['throttled'] is True and mb_truth < 740  # it does cycle: the mean is above the 500 MB/s cap
assert abs(th['time_to_throttle_s'] - t_truth) <= 1.5, th['time_to_throttle_s']
assert abs(th['after_throttle_mb_s'] / mb_truth - 1) <= 0.03, th['after_throttle_mb_s']
# issue 27: the speed while throttled is the cap's, not the mean of the cycles
assert abs(th['throttled_mb_s'] / 500 - 1) <= 0.05 and th['throttled_mb_s'] < th['after_throttle_mb_s'], th
assert 0 < th['throttled_share_pct'] < 100, th['throttled_share_pct']
assert th['throttle_evidence'] == 'smart' and th['smart_throttle_transitions'] > 1, th
P
# issue 24: a drive whose counters are there but never move (thresholds
# above what it reaches, 40 + 50 °C at full load): no drop is a throttle,
# by the counters' evidence.
sed -e 's/^throttle_light_c = .*/throttle_light_c = 95/' -e 's/^throttle_heavy_c = .*/throttle_heavy_c = 99/' \
  -e 's/^name = .*/name = hot-never/' "$R/samples/models/hot-512.model" >"$D/never.model" || fail "cannot write the model"
"$S" review "sim:$D/never.model" --profile "$D/m.json" --out "$D/never" --quiet 2>"$D/err" ||
  fail "review on never failed: $(cat "$D/err")"
"$S" analyze "$D/never" --quiet 2>"$D/err" || fail "analyze on never failed: $(cat "$D/err")"
python3 - "$D/never/analysis.json" <<'P' || fail "a throttle was called where the drive's counters say none"
import json, sys
a = json.load(open(sys.argv[1]))
th = a['thermal'][0]
print('hot-never: throttled %s (%s), drops %s' % (th['throttled'], th['throttle_evidence'],
                                                  [(p['t_s'], p['evidence']) for p in th['points']]))
assert th['throttled'] is False and th['throttle_evidence'] == 'smart' and th['smart_throttle_s'] == 0, th
assert th['points'] and all(p['evidence'] == 'SMART counters: no throttle' for p in th['points']), th['points']
assert not [x for x in a['flags'] if x['id'] == 'thermal_step_throttle'], a['flags']
P
for lang in en ko; do
  printf '# T\n\n{{chart thermal}}\n\n{{table thermal lang=%s}}\n\n{{flags lang=%s}}\n' "$lang" "$lang" >"$D/t.$lang.md"
  "$S" report --template "$D/t.$lang.md" --out "$D/rep.$lang" --format md --dpi 40 --strict "$D/hot-512" "$D/pm981-256" \
    2>"$D/err" >/dev/null || fail "report ($lang) failed: $(cat "$D/err")"
  [ "$(ls "$D/rep.$lang/charts/"*.png | wc -l)" -ge 2 ] || fail "not a thermal chart per drive ($lang)"
done
# the drive that did not throttle has nothing to give in the throttle's rows
grep -q "| Time to throttle | \*\*[0-9.]* s\*\* | — |" "$D/rep.en/review.md" ||
  fail "English table: $(cat "$D/rep.en/review.md")"
grep -q "| Throttled speed | \*\*[0-9]* MB/s\*\* | — |" "$D/rep.en/review.md" || fail "throttled speed row: —"
grep -q "| 스로틀링까지 시간 | \*\*[0-9.]* s\*\* |" "$D/rep.ko/review.md" || fail "Korean table: $(cat "$D/rep.ko/review.md")"
grep -q "발열 테스트: 지속 쓰기 [0-9.]*초 후" "$D/rep.ko/review.md" || fail "Korean flag text missing"

# The shipped full method on the throttling model, short, rendered by its templates.
"$S" review "sim:$R/samples/models/hot-512.model" --profile "$R/profiles/review-full.json" --out "$D/full" \
  --short --quiet 2>"$D/err" || fail "review-full failed: $(cat "$D/err")"
grep -q '"thermal": "complete"' "$D/full/manifest.json" || fail "review-full: thermal step not complete"
for lang in en ko; do
  "$S" report --template "$R/templates/full.$lang.md" --out "$D/full.$lang" --format md --dpi 30 "$D/full" \
    >/dev/null 2>"$D/err" || fail "full.$lang.md failed: $(cat "$D/err")"
  [ -s "$D/full.$lang/charts/thermal.png" ] || fail "full.$lang.md: no thermal chart"
  grep "not measured" "$D/err" | grep -q "(analysis thermal)" && fail "full.$lang.md: thermal not measured"
done
grep -q "^## Thermal" "$D/full.en/review.md" || fail "no English thermal section"
grep -q "^## 발열" "$D/full.ko/review.md" || fail "no Korean thermal section"
grep -q "| Peak temperature | [0-9.]* °C |" "$D/full.en/review.md" || fail "no thermal table in review-full"
# one drive that never throttles: its table has no throttle rows (each would
# be empty), nor a counter row when the drive reports no counters
"$S" report --template "$D/t.en.md" --out "$D/rep.one" --format md --dpi 40 "$D/pm981-256" >/dev/null 2>"$D/err" ||
  fail "report of one drive: $(cat "$D/err")"
grep -q "| Thermal throttling | no |" "$D/rep.one/review.md" || fail "one drive: no throttling row"
# the other drops: the three largest at most, then how many smaller
for f in "$D/rep.en/review.md" "$D/rep.ko/review.md" "$D/rep.one/review.md"; do
  row=$(grep "^| \(Other drops\|그 밖의 속도 저하\)" "$f")
  [ -z "$row" ] && continue
  [ "$(printf '%s' "$row" | grep -o ' MB/s' | wc -l)" -le 3 ] || fail "more than three other drops listed: $row"
done
grep -E -q "Time to throttle|Throttled speed|n/a" "$D/rep.one/review.md" &&
  fail "one drive that never throttled: empty rows $(cat "$D/rep.one/review.md")"
# issue 27: this short write throttles for a few seconds and runs at full
# speed after; the throttled speed is the one while throttled (the chart's
# ~750 MB/s), the mean after it a row of its own
grep -q "| Throttled speed | \*\*7[0-9][0-9] MB/s\*\* |" "$D/full.en/review.md" ||
  fail "throttled speed is not the speed while throttled: $(grep -i 'speed' "$D/full.en/review.md")"
grep -q "| Mean speed after the throttle | [0-9]* MB/s |" "$D/full.en/review.md" || fail "no mean after the throttle"
# issue 27: a title longer than the chart (this label on the consistency
# log chart) is set smaller to fit, never cut at the edge nor under the tag
python3 - "$D/full.en/charts/consistency_log.svg" <<'P' || fail "consistency log title does not fit"
import re, sys
t = open(sys.argv[1]).read()
w = float(re.search(r'<svg[^>]*width="([\d.]+)(pt)?"', t).group(1))
m = re.search(r'<text[^>]*x="([\d.]+)"[^>]*font-size="([\d.]+)"[^>]*>Performance consistency: 4 KiB random write \(log scale\) — Generic 512GB hot<', t)
assert m, 'no title'
x, size = float(m.group(1)), float(m.group(2))
# centred, or (this short run's "† short run" tag in the top right corner)
# centred in the room left of the tag
assert size < 11 and (abs(x - w / 2) < 1 or x < w / 2), (x, size, w)
P
# the legend lies below the plot, under the time axis's name, clear of
# every line and mark (in a corner it hid the end of the write line, and
# before that the throttle mark's label, issue 27), inside the canvas
python3 - "$D/full.en/charts/thermal.svg" <<'P' || fail "thermal legend not below the plot"
import re, sys
t = open(sys.argv[1]).read()
h = float(re.search(r'<svg[^>]*height="([\d.]+)(pt)?"', t).group(1))
def y_of(text):
    return float(re.search(r'<text[^>]*y="([\d.]+)"[^>]*>' + re.escape(text) + '<', t).group(1))
axis, mark = y_of('Time [s]'), y_of('throttle')
legs = [y_of('Write MB/s (left axis)'), y_of('Temperature (°C, right axis)')]
assert mark < axis and all(axis + 8 < y < h - 6 for y in legs), (mark, axis, legs, h)
P
echo "review_thermal: ok"
