#!/bin/sh
# Short runs read as trial runs, never as findings (issue 27): a `review
# --short` of the full method on a drive with an 11 GiB SLC cache (pm981-256)
# whose 2 GiB fill sees none. Its CLI summary says it is short and shows the
# figures of analysis.json by the review's rule; its Korean and English
# reviews carry the banner in the page's language, the SLC cell "no cache
# seen within the 2.0 GiB the short fill wrote" (never "no cache
# detected"), a † note under each of its tables and a tag on its charts; the
# QD chart's axis is the QDs (1 ... 128) with separators and its legend in
# the page's language; a Korean review has no English machine words outside
# an allowlist (units, cell names, product names, the reference's own
# English terms). A full run (the fixture) has none of the marks.
# Re-rendering into the same -o removes the charts ssdrev wrote before and
# did not write again, and nothing else. `-o` is --out for review too.
set -u
fail() { echo "review_short_honest: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

"$S" review "sim:$R/samples/models/pm981-256.model" --profile "$R/profiles/review-full.json" -o "$D/run" --short \
  >"$D/sum" 2>"$D/err" || fail "review -o --short failed: $(tail -5 "$D/err")"
grep -q "^short review (--short): a trial run in a 2.0 GiB region" "$D/sum" || fail "summary does not say short: $(cat "$D/sum")"

# the summary's figures are analysis.json's, one decimal of IOPS as the review's tables
# (the review analyzed in memory: the archive as it left it)
[ -e "$D/run/analysis.json" ] && fail "the review's summary wrote analysis.json"
"$S" analyze "$D/run" --quiet 2>/dev/null || fail "analyze failed"
python3 - "$D/sum" "$D/run/analysis.json" <<'P' || fail "summary disagrees with analysis.json"
import json, re, sys
rows = re.findall(r'^  (FOB|75%)\s+(\S+ \S+)\s+(read|write)\s+([\d.]+) MB/s\s+([\d.]+) IOPS$', open(sys.argv[1]).read(), re.M)
a = json.load(open(sys.argv[2]))
assert len(rows) == 16, rows
for st, cell, op, mb, iops in rows:
    c = [x for x in a['cdm'] if x['state'] == st and x['cell'] == cell][0][op]
    assert mb == '%.2f' % c['mb_s'] and iops == '%.1f' % c['iops'], (st, cell, op, mb, iops, c)
P

for lang in ko en; do
  "$S" report -t "$R/templates/full.$lang.md" -o "$D/$lang" --dpi 40 "$D/run" >/dev/null 2>"$D/err.$lang" ||
    fail "report ($lang) failed: $(cat "$D/err.$lang")"
done
K="$D/ko/review.md" E="$D/en/review.md"
grep -q "짧은 리뷰:" "$K" || fail "no Korean short banner"
grep -q "Short review" "$K" && fail "English short banner on a Korean page"
# the recovery prose gives this run's own idles, not the review's 5 s .. 10 min
grep -q "This run idled for 0.05 s, 0.3 s, 1.2 s and 6 s." "$E" || fail "English recovery idles: $(grep -A8 '^## Cache Recovery' "$E")"
grep -q "이 실행은 0.05초, 0.3초, 1.2초, 6초 동안 쉬었습니다." "$K" || fail "Korean recovery idles"
grep -q "hundredfold" "$E" || fail "no short note on the idles"
grep -q "5 s, 30 s, 2 min\|5초, 30초, 2분" "$E" "$K" && fail "a short run's page names the review's idles"
grep -q "Short review:" "$E" || fail "no English short banner"
grep -q "| PM981 256GB † | no cache seen within the 2.0 GiB the short fill wrote † |" "$E" ||
  fail "English SLC cell: $(grep -A3 'SLC cache (empty' "$E")"
grep -q "짧은 채우기가 쓴 2.0GiB 안에서는 캐시가 보이지 않음 †" "$K" || fail "Korean SLC cell"
grep -q "no cache detected" "$E" && fail "a short fill reads as 'no cache detected'"
grep -q "캐시 감지 안 됨" "$K" && fail "a short fill reads as '캐시 감지 안 됨'"
# every table of the run carries the note (steady state and consistency too)
for h in "| Round |" "| Steady region |"; do
  awk -v h="$h" 'index($0, h) == 1 {t = 1} t && /^\*† PM981 256GB: a short run/ {ok = 1; exit} END {exit !ok}' "$E" ||
    fail "no † note under the table '$h'"
done
# the short region's exhausting write stays in this drive's 2 GiB near-full
# cache: no recovery table, the one line saying why
grep -q "^\*Not measured: run 'PM981 256GB': its cache-recovery writes stayed in the SLC cache" "$E" ||
  fail "no line on the unmeasured recovery: $(grep -n -A3 'Cache Recovery' "$E")"
grep -q "| Idle |" "$E" && fail "a recovery table where nothing was measured"
[ "$(grep -c '^\*† PM981 256GB: 2.0GiB 영역에서 측정한 짧은 실행' "$K")" -ge 7 ] || fail "Korean † notes missing"
# the charts: a tag on each, the QD axis on the QDs, separators, legends in the page's language
grep -q '>† 짧은 실행<' "$D/ko/charts/fill.svg" || fail "no short tag on the Korean fill chart"
grep -q '>† short run<' "$D/en/charts/qd_scaling.svg" || fail "no short tag on the English QD chart"
for q in 1 2 4 8 16 32 64 128; do
  grep -q ">$q</text>" "$D/en/charts/qd_scaling.svg" || fail "QD tick $q missing"
done
grep -q ">5</text>" "$D/en/charts/qd_scaling.svg" && fail "QD chart ticks at 1-2-5, not at the QDs"
grep -q ">100,000</text>" "$D/en/charts/qd_scaling.svg" || fail "QD chart y ticks without separators"
grep -q ">읽기</text>" "$D/ko/charts/qd_scaling.svg" && grep -q ">쓰기</text>" "$D/ko/charts/qd_scaling.svg" ||
  fail "Korean QD legend not Korean"
grep -q ">read</text>" "$D/ko/charts/qd_scaling.svg" && fail "English QD legend on a Korean chart"
# English machine words in the Korean reviews (text and chart SVGs), also
# one of the reference method whose full-method sections are not measured
# (their notes were English: "run 'X' has no cache recovery")
"$S" review "sim:$R/samples/models/pm981-256.model" -o "$D/ref" --short --quiet 2>/dev/null || fail "reference review failed"
"$S" report -t "$R/templates/full.ko.md" -o "$D/ko2" --dpi 30 "$D/ref" >/dev/null 2>&1 || fail "report ko2 failed"
for k in "$D/ko" "$D/ko2"; do
python3 - "$k" <<'P' || fail "English words in the Korean review $k"
import glob, re, sys
allow = set('''IOPS GiB KiB MiB MB GB TB FOB SEQ RND SLC TLC QLC NAND DRAM PMIC DUT NVMe PCIe LBA SMART SNIA PTS
CrystalDiskMark KDiskMark AnandTech Samsung SAMSUNG Phoenix ssdrev cSSD Die TMT
Default'''.split())  # CrystalDiskMark's profile name; DUT fields, "Fill Drive", "Tail Latency" are Korean
bad = {}
d = sys.argv[1]
t = open(d + '/review.md').read()
t = re.sub(r'`[^`]*`', '', t)                          # code spans: commands, files
t = re.sub(r'\]\([^)]*\)', ']', t)                     # link targets
assert '(analysis ' not in t, 'an English "(analysis PATH)" in a Korean note'
t = re.sub(r'\(분석 항목 [a-z_.\\]+\)', '', t)          # a JSON path named in a note
t = re.sub(r'\(docs/[^)]*\)', '', t)                   # a reference to a doc's section
t = re.sub(r'docs/[a-z.-]+|templates/[a-z.-]+|profiles/[a-z.-]+', '', t)
for w in re.findall(r'\b[A-Za-z][A-Za-z_]{2,}\b', t):
    if w not in allow and not re.match(r'^(PM|MZ)', w): bad.setdefault(w, 'review.md')
for f in glob.glob(d + '/charts/*.svg'):
    for s in re.findall(r'<text[^>]*>([^<]*)</text>', open(f).read()):
        for w in re.findall(r'\b[A-Za-z][A-Za-z_]{2,}\b', s):
            if w not in allow: bad.setdefault(w, f.split('/')[-1])
if bad: sys.exit('English words: %s' % bad)
P
done

# side by side, the cells in CrystalDiskMark's order, not the first run's
# (a cdm-real run of SEQ1M Q1T1 and RND4K Q1T1 first put SEQ1M Q8T1 third)
"$S" review "sim:$R/samples/models/pm981-256.model" --profile cdm-real -o "$D/real" --short --quiet 2>/dev/null ||
  fail "cdm-real review failed"
"$S" chart bars "$D/real" "$D/ref" --out "$D/bars.svg" >/dev/null 2>&1 || fail "bars chart failed"
python3 - "$D/bars.svg" <<'P' || fail "bars not in CrystalDiskMark's order"
import re, sys
cells = [t for t in re.findall(r'<text[^>]*>([^<]*)</text>', open(sys.argv[1]).read()) if re.match(r'^(SEQ|RND)\S+ Q\d+T\d+$', t)]
assert cells == ['SEQ1M Q8T1', 'SEQ1M Q1T1', 'RND4K Q32T1', 'RND4K Q1T1'], cells
P

# a full run (the fixture): no short marks
printf '# T\n\n{{table slc}}\n\n{{table cdm}}\n\n{{chart fill}}\n' >"$D/t.md"
"$S" report -t "$D/t.md" -o "$D/full" -f md --dpi 30 "$R/tests/data/analysis/pm981" >/dev/null 2>&1 || fail "fixture report failed"
grep -q "†" "$D/full/review.md" && fail "a full run is marked short"
grep -q "short run" "$D/full/charts/fill.svg" && fail "a full run's chart is tagged short"

# re-rendering into the same -o: the charts not drawn again go, a file of the user's stays
: >"$D/en/charts/mine.png"
mkdir "$D/en/charts/keepdir.png"
printf '# T\n\n{{chart fill}}\n' >"$D/t2.md"
"$S" report -t "$D/t2.md" -o "$D/en" -f md --dpi 30 "$D/run" >/dev/null 2>&1 || fail "re-render failed"
[ -e "$D/en/charts/qd_scaling.png" ] && fail "the old QD chart stayed beside the new ones"
[ -e "$D/en/charts/qd_scaling.svg" ] && fail "the old QD SVG stayed"
[ -s "$D/en/charts/fill.png" ] || fail "the chart drawn again is gone"
[ -e "$D/en/charts/mine.png" ] && [ -d "$D/en/charts/keepdir.png" ] || fail "a file ssdrev did not write was removed"
# a list someone wrote (hostile input): only plain chart names inside charts/,
# regular files, are ever removed -- not a path out, a link, a hidden file
: >"$D/en/outside.png"; : >"$D/target.png"; : >"$D/en/charts/.hidden.png"
ln -s "$D/target.png" "$D/en/charts/link.png"
printf '../outside.png
%s
link.png
.hidden.png
keepdir.png

../../x.svg
' "$D/target.png" >"$D/en/charts/.ssdrev-charts"
"$S" report -t "$D/t2.md" -o "$D/en" -f md --dpi 30 "$D/run" >/dev/null 2>&1 || fail "re-render over a hostile list failed"
[ -e "$D/en/outside.png" ] && [ -e "$D/target.png" ] && [ -L "$D/en/charts/link.png" ] && [ -e "$D/en/charts/.hidden.png" ] &&
  [ -d "$D/en/charts/keepdir.png" ] || fail "a hostile chart list removed a file that is no chart of ssdrev's"
[ "$(cat "$D/en/charts/.ssdrev-charts")" = "$(printf 'fill.png\nfill.svg')" ] || fail "list: $(cat "$D/en/charts/.ssdrev-charts")"
echo "review_short_honest: ok"
