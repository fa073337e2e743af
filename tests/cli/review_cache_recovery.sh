#!/bin/sh
# Cache recovery after idle (step kind cache_recovery) on two simulated
# drives after a whole-drive fill (fill_drive without its rewrite): one that
# folds fast (fam-small: its 1 GiB near-full cache is back after 30 s) and a
# QLC one folding at 10 MB/s (fam-fold: 5.6 of its 8 GiB after 10 min). --plan counts the idles; every write stops a margin past its
# cliff; the recovered cache agrees with the model's folding (for fam-fold,
# whose fill leaves its cache full: min(slc_min, fold_mb_s x idle)) within
# max(5%, 1/16 GiB) (docs/method.md); slow_cache_recovery fires for the slow
# drive only; chart, table and flag render in English and Korean.
set -u
fail() { echo "review_cache_recovery: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

cat >"$D/m.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "rec-test",
 "plan": {"write_mb_s": 1000, "read_mb_s": 2000, "qd1_iops": 15000},
 "steps": [
  {"id": "fill", "kind": "fill_drive"},
  {"id": "rec", "kind": "cache_recovery"}
 ]}
J
plan=$("$S" review "sim:$R/tests/data/models/fam-fold.model" --profile "$D/m.json" --out "$D/never" --plan) ||
  fail "plan failed"
# the idles are real time on a real drive: 755 s of them, plus at most 16 GiB per write (5 writes of 17.2 s at 1000 MB/s)
echo "$plan" | grep -q "rec  *14m01s  cache recovery: write until the cliff (exhausts the cache), then idle 5s, 30s, 2m00s, 10m00s" ||
  fail "plan does not count the idles: $plan"
[ -e "$D/never" ] && fail "the plan made the run directory"

for m in fam-small fam-fold; do
  "$S" review "sim:$R/tests/data/models/$m.model" --profile "$D/m.json" --out "$D/$m" --quiet --label "$m" 2>"$D/err" ||
    fail "review $m failed: $(cat "$D/err")"
  "$S" analyze "$D/$m" --quiet 2>"$D/err" || fail "analyze $m failed: $(cat "$D/err")"
done
python3 - "$D" "$R/tests/data/models/fam-fold.model" <<'P' || fail "analysis disagrees with the simulator's folding"
import json, re, sys
d = sys.argv[1]
model = dict(re.findall(r'^(\w+) = (\S+)', open(sys.argv[2]).read(), re.M))
fold, smin = float(model['fold_mb_s']), float(model['slc_min_gib'])
for m in ('fam-small', 'fam-fold'):
    a = json.load(open('%s/%s/analysis.json' % (d, m)))
    r = a['cache_recovery']
    pts = r['points']
    assert [p['idle_s'] for p in pts] == [5, 30, 120, 600], pts
    man = json.load(open('%s/%s/manifest.json' % (d, m)))
    tests = {t['name']: t for t in man['tests']}
    for p in pts:
        t = tests[p['test']]
        assert t['kind'] == 'cache_recovery' and t['phase'] == 'recovery' and t['idle_s'] == p['idle_s'], t
        # a cliff, or (less than the write buffer's 1/16 GiB came back) none
        assert p['stopped'] == 'cliff' or (p['stopped'] == 'none' and p['recovered_gib'] == 0), p
        # a margin (1 GiB) past the cliff, far below the bound (a quarter of the drive)
        assert p['written_gib'] < p['recovered_gib'] + 1.2 < t['bound_bytes'] / 2**30, (p, t['bound_bytes'])
    flags = [f for f in a['flags'] if f['id'] == 'slow_cache_recovery']
    print(m, [(p['idle_s'], p['recovered_gib'], p['cache_mb_s']) for p in pts], 'flag' if flags else 'no flag')
    if m == 'fam-small':
        assert all(abs(p['recovered_gib'] - 1) <= 1 / 16 for p in pts[1:]), pts
        assert r['full_after_s'] == 30 and not flags, (r, flags)
    else:
        for p in pts:
            want = min(smin, fold * 1e6 * p['idle_s'] / 2**30)
            assert abs(p['recovered_gib'] - want) <= max(0.05 * want, 1 / 16), (p, want)
        assert flags and flags[0]['numbers']['idle_s'] == 120 and flags[0]['numbers']['pct'] < 50, flags
P
for lang in en ko; do
  printf '# R\n\n{{chart cache_recovery}}\n\n{{table cache_recovery lang=%s}}\n\n{{flags lang=%s}}\n' "$lang" "$lang" >"$D/t.$lang.md"
  "$S" report --template "$D/t.$lang.md" --out "$D/rep.$lang" --format md --dpi 40 --strict "$D/fam-small" "$D/fam-fold" \
    2>"$D/err" || fail "report ($lang) failed: $(cat "$D/err")"
  [ -s "$D/rep.$lang/charts/cache_recovery.png" ] || fail "no chart PNG ($lang): $(ls "$D/rep.$lang/charts")"
done
grep -q "| Idle | fam-small: Recovered cache | fam-small: In cache | fam-fold: Recovered cache | fam-fold: In cache |" "$D/rep.en/review.md" ||
  fail "English table header missing: $(cat "$D/rep.en/review.md")"
grep -q "| 10 min | 1.0[0-9]* GiB (100%) | [0-9]* MB/s | 5.[56][0-9]* GiB (100%) |" "$D/rep.en/review.md" ||
  fail "English table row missing: $(cat "$D/rep.en/review.md")"
grep -q "cache recovers slowly: 1.1[0-9] GiB of 5.[56][0-9] GiB" "$D/rep.en/review.md" || fail "English flag missing"
grep -q "| 유휴 시간 | fam-small: 회복된 캐시 |" "$D/rep.ko/review.md" || fail "Korean table header missing"
grep -q "SLC캐시 회복이 느립니다: 120초 유휴 후" "$D/rep.ko/review.md" || fail "Korean flag missing"

# The fill_drive step's near-full rewrite writes until its cliff too: on
# fam-small (1 GiB near full after the 60 s idle) it stops 1 GiB past it,
# far below its 8 GiB bound, and the smallest cache is 1 GiB.
cat >"$D/f.json" <<'J'
{"format": "ssdrev-method", "format_version": 1, "name": "nf-test",
 "steps": [{"id": "fill", "kind": "fill_drive", "near_full_bytes": "8GiB"}]}
J
"$S" review "sim:$R/tests/data/models/fam-small.model" --profile "$D/f.json" --out "$D/nf" --quiet 2>"$D/err" ||
  fail "review near-full failed: $(cat "$D/err")"
"$S" analyze "$D/nf" --quiet 2>"$D/err" || fail "analyze near-full failed: $(cat "$D/err")"
python3 - "$D/nf" <<'P' || fail "the near-full rewrite did not stop at its cliff"
import json, sys
m = json.load(open(sys.argv[1] + '/manifest.json'))
a = json.load(open(sys.argv[1] + '/analysis.json'))
t = [x for x in m['tests'] if x.get('phase') == 'near_full'][0]
e = [x for x in m['tests'] if x.get('phase') == 'empty'][0]
s = a['fill']['slc']
print('near full: %s, %.3f GiB written of a %.0f GiB bound, smallest cache %.3f GiB; fill post-cache %.0f MB/s' % (
    t['stopped'], t['result']['bytes'] / 2**30, t['bound_bytes'] / 2**30, s['min_gib'], e['post_cache_mb_s_seen']))
assert t['stopped'] == 'cliff' and t['bound_bytes'] == 8 * 2**30 and t['idle_s'] == 60, t
assert abs(s['min_gib'] - 1) <= 1 / 16, s
assert t['result']['bytes'] / 2**30 < s['min_gib'] + 1.2, t['result']
assert abs(e['post_cache_mb_s_seen'] - s['post_first_mb_s']) <= 0.05 * s['post_first_mb_s'], (e, s)
P

# The shipped full method (cache recovery is its last step) on two shipped
# models, short, rendered by both of its templates.
for m in pm981-256 generic-1tb; do
  "$S" review "sim:$R/samples/models/$m.model" --profile "$R/profiles/review-full.json" --out "$D/full-$m" --short \
    --quiet 2>"$D/err" || fail "review-full $m failed: $(cat "$D/err")"
  grep -q '"cache_recovery": "complete"' "$D/full-$m/manifest.json" || fail "review-full $m: cache_recovery not complete"
  for lang in en ko; do
    "$S" report --template "$R/templates/full.$lang.md" --out "$D/full-$m.$lang" --format md --dpi 30 "$D/full-$m" \
      >/dev/null 2>"$D/err" || fail "full.$lang.md on $m failed: $(cat "$D/err")"
    grep -q "has no cache recovery" "$D/err" && fail "full.$lang.md on $m: $(cat "$D/err")"
    # a series whose exhausting write stayed in the cache (a short run on a
    # drive of a large cache) measured nothing: one note, no empty chart
    # over a table of n/a (issue 27)
    if python3 -c "import json,sys; a=json.load(open(sys.argv[1])); sys.exit(0 if a['cache_recovery']['exhaust']['found'] else 1)" "$D/full-$m/analysis.json"; then
      [ -s "$D/full-$m.$lang/charts/cache_recovery.png" ] || fail "full.$lang.md on $m: no cache_recovery chart"
      [ "$lang" = en ] && { grep -q "^| 0.05 s | " "$D/full-$m.en/review.md" || fail "$m: no recovery row (short idles are 1/100: 0.05 s)"; }
    else
      [ -e "$D/full-$m.$lang/charts/cache_recovery.png" ] && fail "full.$lang.md on $m: an empty cache_recovery chart"
      grep -q "stayed in the SLC cache\|SLC캐시 안에 머물러" "$D/full-$m.$lang/review.md" || fail "full.$lang.md on $m: no note that nothing was measured"
    fi
  done
  grep -q "^## Cache Recovery After Idle" "$D/full-$m.en/review.md" || fail "$m: no English section"
  grep -q "^## 유휴 후 캐시 회복" "$D/full-$m.ko/review.md" || fail "$m: no Korean section"
done
# the templates' prose names the idles this run used (issue 27: it said
# "5 s, 30 s, 2 min, 10 min" whatever the method's idles_s were)
cat >"$D/idles.json" <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "idles",
 "steps": [{"id": "purge", "kind": "purge"}, {"id": "rec", "kind": "cache_recovery", "idles_s": [1, 2, 60, 90], "bound_bytes": "4GiB"}]}
JSON
"$S" review "sim:$R/samples/models/hot-512.model" --profile "$D/idles.json" --out "$D/idles" --quiet >/dev/null 2>&1 ||
  fail "idles review failed"
for lang in en ko; do
  "$S" report --template "$R/templates/full.$lang.md" --out "$D/idles.$lang" --format md --dpi 30 "$D/idles" >/dev/null 2>&1 ||
    fail "idles report ($lang) failed"
done
grep -q "^This run idled for 1 s, 2 s, 60 s and 90 s.$" "$D/idles.en/review.md" || fail "English prose lacks the run's idles"
grep -q "^이 실행은 1초, 2초, 60초, 90초 동안 쉬었습니다.$" "$D/idles.ko/review.md" || fail "Korean prose lacks the run's idles"
grep -q "hundredfold\|5 s, 30 s" "$D/idles.en/review.md" && fail "a full run's prose names a short run's or other idles"
echo "review_cache_recovery: ok"
