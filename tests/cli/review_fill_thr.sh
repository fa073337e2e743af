#!/bin/sh
# Issue 24, item 3's last part: a fill on a drive that throttles while still
# writing into its SLC cache (tests/data/est/est-thr-before.model: 30 GiB of
# cache, the 52 °C throttle to 1500 MB/s after about 21 GiB). The fill's test
# records its start on the step's temperature clock (temp_t0_s) and the
# thermal counters around it; the analysis takes the in-cache speed from the
# unthrottled writing only (analyze/fillthr.c) and the throttle is no cliff:
# both within 5% of the simulator's truth (`ssdrev model show`), with the
# counters and, with them taken out of the manifest, by the thermal step's
# throttle temperature. The review's SLC sentence says so in both languages.
set -u
fail() { echo "review_fill_thr: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

# the thermal step after the fill, cooled first (its judgment needs a cool start)
cat >"$D/m.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "fill-thr",
 "steps": [{"id": "fill", "kind": "fill_drive", "near_full_bytes": "1GiB", "temperature": true},
           {"id": "purge", "kind": "purge"}, {"id": "heat", "kind": "thermal", "duration_s": 20, "cool_s": 120}]}
J
M=$R/tests/data/est/est-thr-before.model
"$S" review "sim:$M" --profile "$D/m.json" --out "$D/run" --quiet 2>"$D/err" || fail "review failed: $(cat "$D/err")"
"$S" analyze "$D/run" --quiet 2>"$D/err" || fail "analyze failed: $(cat "$D/err")"
cp "$D/run/analysis.json" "$D/smart.json"
"$S" report "$D/run" --lang en --format md --out "$D/en" >/dev/null 2>"$D/err" || fail "report failed: $(cat "$D/err")"
"$S" report "$D/run" --lang ko --format md --out "$D/ko" >/dev/null 2>"$D/err" || fail "report ko failed: $(cat "$D/err")"
"$S" model show "$M" >"$D/show" || fail "model show failed"
python3 - "$D/run/manifest.json" <<'P' || fail "cannot take the counters out"
import json, sys
man = json.load(open(sys.argv[1]))
for t in man['tests']:
    t.pop('smart_thermal', None)
json.dump(man, open(sys.argv[1], 'w'))
P
"$S" analyze "$D/run" --quiet 2>"$D/err" || fail "analyze without counters failed: $(cat "$D/err")"
python3 - "$D" <<'P' || fail "the fill's in-cache speed disagrees with the simulator's truth"
import json, re, sys
d = sys.argv[1]
show = open(d + '/show').read()
v_slc = float(re.search(r'sequential write into SLC\s+(\d+) MB/s', show).group(1))
gib = float(re.search(r'cliff of an empty-drive fill\s+([\d.]+) GiB', show).group(1))
man = json.load(open(d + '/run/manifest.json'))
e = [t for t in man['tests'] if t.get('kind') == 'fill_drive' and t.get('phase') == 'empty'][0]
assert isinstance(e.get('temp_t0_s'), (int, float)) and e['temp_t0_s'] >= 0, e.get('temp_t0_s')
for tag, f, ev in (('smart', d + '/smart.json', 'smart, temperature'),
                   ('series', d + '/run/analysis.json', "thermal step's throttle temperature")):
    s = json.load(open(f))['fill']['slc']
    th = s['throttle']
    print('%s: cache %.3f GiB (truth %.3f) at %.0f MB/s (truth %.0f; with the throttled part %.0f), excluded %.1f%% after %.2f GiB, %s' %
          (tag, s['max_gib'], gib, s['cache_mb_s'], v_slc, th['cache_mb_s_mixed'], th['excluded_pct'], th['onset_gib'], th['evidence']))
    assert th['throttled'] is True and th['evidence'] == ev, th
    assert abs(s['cache_mb_s'] / v_slc - 1) <= 0.05, (s['cache_mb_s'], v_slc)
    assert th['cache_mb_s_mixed'] < 0.95 * v_slc, th  # what the mixed speed was: lower
    assert abs(s['max_gib'] - gib) <= max(0.05 * gib, 1 / 16), (s['max_gib'], gib)
    assert 0 < th['excluded_pct'] < 100 and th['onset_gib'] < s['max_gib'], th
    assert len(s['levels']) == 2 and s['levels'][0]['name'] == 'cache', s['levels']
en = open(d + '/en/review.md').read()
ko = open(d + '/ko/review.md').read()
assert 'The in-cache speed is from unthrottled writing only' in en, 'no English sentence'
assert '캐시 안 속도는 스로틀링되지 않은 기록만으로 계산했습니다' in ko, 'no Korean sentence'
P
echo "review_fill_thr: ok"
