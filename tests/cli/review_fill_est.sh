#!/bin/sh
# Issue 24, item 2: the fill_drive step on a drive whose GC bursts slow the
# cache writes themselves once it is full (tests/data/est/est-gc05.model:
# 6 GiB, a 1.5 GiB cache empty, 0.5 GiB full). The near-full rewrite's
# watch and the analysis of its log build one fill trace
# (base/filltrace.c): the watch stops "cliff" a margin past the 0.5 GiB
# cache, the analysis finds it there (within max(5%, 1/16 GiB)), the empty
# fill shows two levels (GC slowing its end is no further level), and the
# fill's test records what the full drive writes (full_mb_s_seen, the
# reference of "nothing came back"), below the post-cache level of the
# empty drive.
set -u
fail() { echo "review_fill_est: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

cat >"$D/m.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "fill-est",
 "steps": [{"id": "fill", "kind": "fill_drive", "near_full_bytes": "2GiB"}]}
J
"$S" review "sim:$R/tests/data/est/est-gc05.model" --profile "$D/m.json" --out "$D/run" --quiet 2>"$D/err" ||
  fail "review failed: $(cat "$D/err")"
"$S" analyze "$D/run" --quiet 2>"$D/err" || fail "analyze failed: $(cat "$D/err")"
python3 - "$D/run" <<'P' || fail "the fill's estimates disagree with the model"
import json, sys
d = sys.argv[1]
a = json.load(open(d + '/analysis.json'))['fill']
man = json.load(open(d + '/manifest.json'))
tests = {t.get('phase'): t for t in man['tests'] if t.get('kind') == 'fill_drive'}
s, nf = a['slc'], a['near_full']['slc']
e, n = tests['empty'], tests['near_full']
print('empty: %.3f GiB, levels %d, post %.0f, full %.0f; near full: %s %.3f GiB, stopped %s after %.3f GiB' %
      (s['max_gib'], len(s['levels']), e['post_cache_mb_s_seen'], e['full_mb_s_seen'], nf['found'], nf['cache_gib'],
       n['stopped'], n['result']['bytes'] / 2**30))
assert s['found'] and abs(s['max_gib'] - 1.5) <= 1 / 16 and len(s['levels']) == 2, s
assert 0 < e['full_mb_s_seen'] < e['post_cache_mb_s_seen'], e
assert nf['found'] and abs(nf['cache_gib'] - 0.5) <= 1 / 16, nf
assert n['stopped'] == 'cliff' and n['result']['bytes'] < 2 * 2**30, n
assert abs(s['min_gib'] - nf['cache_gib']) < 1e-9, s
P
echo "review_fill_est: ok"
