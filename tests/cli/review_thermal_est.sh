#!/bin/sh
# Issue 24, item 3 without counters: the thermal step on issue 24's models
# (tests/data/est/est-thr-*.model), its analysis run twice, with the drive's
# SMART TMT counters and with them taken out of the manifest (a drive that
# reports none), both judged against the simulator's truth (`ssdrev model
# show`, the same write on a scratch drive): a throttle inside the cache
# before the cliff (the drive heats on after the cliff, under the cap, to a
# peak far above the throttle), two levels (the light one a 14.5% drop), and
# no throttle with GC. Time to throttle within max(5%, 1 s), the throttled
# mean within 5%, the SLC cliff and GC onset never called throttling.
set -u
fail() { echo "review_thermal_est: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

# durations: the truth's write runs 60 s past the first throttle (its mean after it)
for mt in est-thr-before:67 est-thr-two:86 est-thr-gc:20; do
  m=${mt%%:*} t=${mt#*:}
  cat >"$D/$m.json" <<J
{"format": "ssdrev-method", "format_version": 1, "name": "thermal-est",
 "steps": [{"id": "purge", "kind": "purge"}, {"id": "heat", "kind": "thermal", "duration_s": $t, "cool_s": 1}]}
J
  "$S" review "sim:$R/tests/data/est/$m.model" --profile "$D/$m.json" --out "$D/$m" --quiet 2>"$D/err" ||
    fail "review on $m failed: $(cat "$D/err")"
  "$S" analyze "$D/$m" --quiet 2>"$D/err" || fail "analyze on $m failed: $(cat "$D/err")"
  cp "$D/$m/analysis.json" "$D/$m.smart.json"
  python3 - "$D/$m/manifest.json" <<'P' || fail "cannot take the counters out on $m"
import json, sys
man = json.load(open(sys.argv[1]))
for t in man['tests']:
    t.pop('smart_thermal', None)
json.dump(man, open(sys.argv[1], 'w'))
P
  "$S" analyze "$D/$m" --quiet 2>"$D/err" || fail "analyze without counters on $m failed: $(cat "$D/err")"
  "$S" model show "$R/tests/data/est/$m.model" >"$D/$m.show" || fail "model show $m failed"
done
python3 - "$D" <<'P' || fail "the thermal judgment disagrees with the simulator's truth"
import json, re, sys
d = sys.argv[1]
def truth(m):
    x = re.search(r'throttles after ([\d.]+) s at ([\d.]+) °C, (\d+) MB/s before, (\d+) MB/s throttled',
                  open('%s/%s.show' % (d, m)).read())
    return (float(x.group(1)), float(x.group(4))) if x else None
for m in ('est-thr-before', 'est-thr-two', 'est-thr-gc'):
    tr = truth(m)
    for tag, f in (('smart', '%s/%s.smart.json' % (d, m)), ('series', '%s/%s/analysis.json' % (d, m))):
        th = json.load(open(f))['thermal'][0]
        pts = [(p['t_s'], p['thermal'], p['evidence']) for p in th['points']]
        print('%s %s: throttled %s at %s s (truth %s), after %s MB/s; drops %s' %
              (m, tag, th['throttled'], th.get('time_to_throttle_s'), tr, th.get('after_throttle_mb_s'), pts))
        # a model without throttle keys reports no counters
        assert th['throttle_evidence'] == (tag if tr else 'series'), th['throttle_evidence']
        if tr is None:
            # no throttle keys: nothing is throttling (GC onset slows the
            # writes and the heat rise)
            assert th['throttled'] is False and pts and not any(p[1] for p in pts), pts
            continue
        t0, mb = tr
        assert th['throttled'] is True
        assert abs(th['time_to_throttle_s'] - t0) <= max(0.05 * t0, 1.0), (th['time_to_throttle_s'], t0)
        assert abs(th['after_throttle_mb_s'] / mb - 1) <= 0.05, (th['after_throttle_mb_s'], mb)
        first = [p for p in pts if p[1]][0]
        assert abs(first[0] - t0) <= max(0.05 * t0, 1.0), pts
    if m == 'est-thr-before':
        # the cliff after the throttle, the drive heating on: not thermal
        late = [p for p in pts if p[0] > t0 + 3]
        assert late and not any(p[1] for p in late) and late[0][2] == 'temperature kept rising', pts
P
echo "review_thermal_est: ok"
