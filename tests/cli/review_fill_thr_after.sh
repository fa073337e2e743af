#!/bin/sh
# A fill on a drive that throttles after its SLC cache (samples/models/
# hot-512.model: 22 GiB of cache, then ~1050 MB/s into TLC until the 75 °C
# throttle holds it at 750 MB/s). The analysis keeps the throttle out of the
# post-cache speed (analyze/fillthr.c: the drive's thermal counters place
# it at the fill's second drop), which is then the TLC speed within 5% of
# the simulator's truth (`ssdrev model show`), not the mean over the
# throttled rest (~760 MB/s, which read as a QLC-like slow_post_cache); the
# review's SLC sentence says where the drive throttled, in both languages.
set -u
fail() { echo "review_fill_thr_after: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

cat >"$D/m.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "fill-thr-after",
 "steps": [{"id": "fill", "kind": "fill_drive", "near_full_bytes": "1GiB", "temperature": true}]}
J
M=$R/samples/models/hot-512.model
"$S" review "sim:$M" --profile "$D/m.json" --out "$D/run" --quiet 2>"$D/err" || fail "review failed: $(cat "$D/err")"
"$S" analyze "$D/run" --quiet 2>"$D/err" || fail "analyze failed: $(cat "$D/err")"
"$S" model show "$M" >"$D/show" || fail "model show failed"
for l in en ko; do
  "$S" report "$D/run" --lang $l --format md --out "$D/$l" >/dev/null 2>"$D/err" || fail "report $l failed: $(cat "$D/err")"
done
python3 - "$D" <<'P' || fail "the fill's post-cache speed disagrees with the simulator's truth"
import json, re, sys
d = sys.argv[1]
show = open(d + '/show').read()
v_tlc = float(re.search(r'post-cache write \(direct to TLC\)\s+(\d+) MB/s', show).group(1))
a = json.load(open(d + '/run/analysis.json'))
s = a['fill']['slc']
th = s['throttle']
print('    post-cache %.0f MB/s (truth %.0f; with the throttled part %.0f), throttled after %.1f GiB at %.0f MB/s (%s)' %
      (s['post_cache_mb_s'], v_tlc, th['post_cache_mb_s_mixed'], th['onset_gib'], th['throttled_mb_s'], th['evidence']))
assert th['throttled'] is True and th['after_cache'] is True and th['evidence'].startswith('smart'), th
assert abs(s['post_cache_mb_s'] / v_tlc - 1) <= 0.05, (s['post_cache_mb_s'], v_tlc)
assert th['throttled_mb_s'] < 0.85 * v_tlc and th['post_cache_mb_s_mixed'] < 0.85 * v_tlc, th
assert th['onset_gib'] > s['max_gib'], th
ids = [f['id'] for f in a['flags']]
assert 'slow_post_cache' not in ids, ids
en = open(d + '/en/review.md').read()
ko = open(d + '/ko/review.md').read()
assert re.search(r'The drive throttled after \d+\.\d GiB \(by its SMART thermal-management counters\): \d+ MB/s from there on', en), en
assert re.search(r'드라이브가 \d+\.\dGiB 기록 후 스로틀링되었습니다\(SMART 온도 관리 카운터 기준\)', ko), ko
P
