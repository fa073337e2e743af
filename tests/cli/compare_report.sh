#!/bin/sh
# ssdrev compare as a lab reads it: groups named by model / firmware / state,
# runs by label and no machine paths; the documented baseline rule and
# --baseline; --where and --group-by; review-style numbers (never
# e-notation); tidy CSV; the xlsx workbook's sheets; Korean; and the archive
# root's index: a second compare over unchanged runs opens none of them.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$R/samples/cdm
F="$T/fleet"
mkdir -p "$F"
imp() { "$SSDREV" import "$@" >/dev/null 2>"$T/e" || fail "import $*: $(cat "$T/e")"; }
imp cdm "$C/pm981-fob-cdm8.txt" --out "$F/a1" --model PM981 --firmware 1L2QEXD7 --label "lab PM981 #1"
imp cdm "$C/pm981-fob-cdm8.txt" --out "$F/a2" --model PM981 --firmware 1L2QEXD7 --label "lab PM981 #2"
sed 's/3531.284 MB\/s/3884.412 MB\/s/' "$C/pm981-fob-cdm8.txt" >"$T/faster.txt"
imp cdm "$T/faster.txt" --out "$F/a3" --model PM981 --firmware 1L2QEXD7 --label "lab PM981 #3"
imp cdm "$C/pm981a-fob-cdm9-nvme.txt" --out "$F/b1" --model PM981a --firmware EXH7201Q --label "lab PM981a"
# two imports without --model: two groups named by their labels, not one "unknown model"
imp cdm "$C/sata-cdm6.txt" --out "$F/u1" --label "bench SATA one"
imp cdm "$C/sata-cdm6.txt" --out "$F/u2" --label "bench SATA two"
# two analyzed simulated reviews (fixtures): every metric family
for d in pm981 pm981a; do
  mkdir "$F/sim-$d" && cp "$R/tests/data/analysis/$d/manifest.json" "$F/sim-$d/" \
    && cp "$R/tests/data/analysis/$d/analysis.json" "$F/sim-$d/" && touch "$F/sim-$d/analysis.json" \
    || fail "fixture $d"
done
cmp_() { "$SSDREV" compare "$F" "$@" >"$T/o" 2>"$T/e" || fail "compare $*: $(cat "$T/e")"; }

cmp_ --out "$T/o1" --format md,csv,pdf,xlsx --verbose
grep -q "compared 8 runs in 6 groups" "$T/o" || fail "summary: $(cat "$T/o")"
grep -q "runs: 0 from the index, 8 read from their archives" "$T/o" || fail "first compare: $(cat "$T/o")"
[ -s "$F/ssdrev-index.sqlite" ] || fail "no index in the archive root"
md=$T/o1/compare.md
grep -q '| PM981 · 1L2QEXD7 · FOB | PM981 | 1L2QEXD7 | FOB | 3 |' "$md" || fail "group row: $(grep PM981 "$md" | head -3)"
grep -q 'bench SATA one (model unknown)' "$md" && grep -q 'bench SATA two (model unknown)' "$md" \
  || fail "unknown-model runs merged: $(grep -i unknown "$md")"
grep -q '^| lab PM981 #2 | PM981 · 1L2QEXD7 · FOB |' "$md" || fail "runs by label: $(grep 'lab PM981' "$md")"
if grep -q "$T" "$md"; then fail "machine path in the report: $(grep "$T" "$md" | head -2)"; fi
# numbers as in the reviews
grep -q '| 3 | 3,531.28 | 3,531.28 | 3,884.41 |' "$md" || fail "spread row: $(grep '3,531' "$md" | head -3)"
if grep -Eq '[0-9]e[+-]?[0-9]' "$md" "$T/o1/compare.csv" "$T/o1/groups.csv"; then
  fail "e-notation: $(grep -Eh '[0-9]e[+-]?[0-9]' "$md" "$T/o1/compare.csv" | head -3)"
fi
# default baseline: a known model with the most headline figures (a review has
# every family; the two fixtures tie, so the first by name)
grep -q 'baseline group \*\*SAMSUNG MZVLB256HAHQ-000L7 · 1L2QEXD7 · FOB+75% (sim) (baseline)\*\*' "$md" \
  || fail "baseline rule: $(grep -i baseline "$md" | head -2)"
for fam in "## CrystalDiskMark" "## SLC cache" "## Read/write ratio sweep" "## Tail latency"; do
  grep -q "^$fam" "$md" || fail "no section '$fam'"
done
ls "$T/o1/charts/"*slc-slc-post-cache* "$T/o1/charts/"*tail-read-p99-us* "$T/o1/charts/"*rw-sweep-qd1-read70* \
  >/dev/null 2>&1 || fail "headline charts missing: $(ls "$T/o1/charts" | head)"
pdftotext "$T/o1/compare.pdf" - 2>/dev/null | grep -q "3,884.41" || fail "the PDF lacks the spread"
# a figure's title once: its heading; neither a caption under its bar
# chart nor a title drawn in it (the chart's height is its rows' and the
# line saying which way is better: 30 + 18 pt a group + 28 pt, at 300 dpi)
pdftotext "$T/o1/compare.pdf" "$T/o1.txt" 2>/dev/null || fail "pdftotext"
n=$(grep -c "SEQ1M Q8T1 read, FOB (default)" "$T/o1.txt")
[ "$n" = 1 ] || fail "the PDF says a chart's title $n times: $(grep -n "SEQ1M Q8T1 read, FOB (default)" "$T/o1.txt")"
grep -q '^!\[\](charts/02-cdm-fob-default-seq1m-q8t1-read-mb-s.png)$' "$md" || fail "a bar chart with a caption: $(grep 'charts/02' "$md")"
/usr/bin/python3 - "$T/o1/charts/02-cdm-fob-default-seq1m-q8t1-read-mb-s.png" "$md" <<'PY' || fail "the bar chart keeps room for a title"
import struct, sys
h = struct.unpack('>I', open(sys.argv[1], 'rb').read()[20:24])[0]
md = open(sys.argv[2]).read().split('### SEQ1M Q8T1 read, FOB (default) [MB/s]')[1].split('###')[0]
rows = sum(1 for l in md.splitlines() if l.startswith('| ') and l[2:3].isdigit())
want = int((30 + 18 * rows + 28) / 72 * 300)
assert abs(h - want) <= 1, (h, want, rows)
PY

# tidy CSV: one row per run and figure, with units
/usr/bin/python3 - "$T/o1" <<'PY' || exit 1
import csv, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/compare.csv")))
hdr = "run,label,group,model,firmware,state,source,simulated,date,family,test,metric,unit,value".split(",")
assert list(rows[0].keys()) == hdr, list(rows[0].keys())
runs = list(csv.DictReader(open(d + "/runs.csv")))
assert len(rows) == sum(int(r["figures"]) for r in runs), (len(rows), [r["figures"] for r in runs])
seen = set()
for r in rows:
    float(r["value"])
    assert r["unit"] in ("MB/s", "IOPS", "us", "GiB"), r
    k = (r["run"], r["family"], r["test"], r["metric"])
    assert k not in seen, k
    seen.add(k)
x = [r for r in rows if r["label"] == "lab PM981 #3" and r["test"] == "FOB default SEQ1M Q8T1" and r["metric"] == "read_mb_s"]
assert len(x) == 1 and float(x[0]["value"]) == 3884.41 and x[0]["run"] == "a3", x
assert {r["family"] for r in rows} == {"cdm", "slc", "rw_sweep", "tail"}, {r["family"] for r in rows}
PY

# the workbook: Runs, Groups, one sheet per family, with the values
/usr/bin/python3 - "$T/o1/compare.xlsx" <<'PY' || exit 1
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
wb = z.read("xl/workbook.xml").decode()
names = re.findall(r'<sheet name="([^"]+)"', wb)
assert names == ["Runs", "Groups", "CrystalDiskMark", "SLC cache", "RW sweep", "Tail latency"], names
runs = z.read("xl/worksheets/sheet1.xml").decode()
assert "lab PM981 #3" in runs and "bench SATA two" in runs, runs[:500]
cdm = z.read("xl/worksheets/sheet3.xml").decode()
assert "<v>3884.41</v>" in cdm and "FOB default SEQ1M Q8T1 read_mb_s [MB/s]" in cdm, cdm[:800]
PY

# the index: unchanged runs are not opened again
cmp_ --out "$T/o2" --format csv --verbose
grep -q "runs: 8 from the index, 0 read from their archives" "$T/o" || fail "second compare: $(cat "$T/o")"
cmp "$T/o1/groups.csv" "$T/o2/groups.csv" >/dev/null || fail "the index changed the figures"
sleep 1
touch "$F/a2/manifest.json" "$F/a2/analysis.json"
cmp_ --out "$T/o3" --format csv --verbose
grep -q "runs: 7 from the index, 1 read from their archives" "$T/o" || fail "one changed run: $(cat "$T/o")"
# openat counted with strace (LeakSanitizer cannot run under ptrace: leaks are checked above)
if command -v strace >/dev/null 2>&1; then
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -e trace=openat -o "$T/trace" "$SSDREV" compare "$F" --out "$T/o4" --format csv >/dev/null 2>&1 \
    || fail "compare under strace"
  n=$(grep -c "$F/[^/]*/\(manifest\|analysis\)\.json" "$T/trace")
  [ "$n" -eq 0 ] || fail "an unchanged set opened $n archive files: $(grep "$F/" "$T/trace" | head -3)"
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -e trace=openat -o "$T/trace" "$SSDREV" compare "$F" --out "$T/o5" --format csv --no-index >/dev/null 2>&1
  n=$(grep -c "$F/[^/]*/analysis\.json" "$T/trace")
  [ "$n" -eq 8 ] || fail "--no-index read $n analyses, not 8"
else
  echo "skip: strace not installed, openat count not checked"
fi
rm -rf "$F/u2"
cmp_ --out "$T/o6" --format csv
[ "$(sqlite3 "$F/ssdrev-index.sqlite" 'SELECT count(*) FROM runs' 2>/dev/null || \
     /usr/bin/python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from runs").fetchone()[0])' "$F/ssdrev-index.sqlite")" = 7 ] \
  || fail "a removed run stays in the index"

# --baseline by model; --group-by; --where
cmp_ --out "$T/b" --format csv --baseline PM981a
grep -q '^"PM981a · EXH7201Q · FOB","PM981a","EXH7201Q","FOB","yes"' "$T/b/groups.csv" || fail "--baseline PM981a"
cmp_ --out "$T/g" --format csv --group-by model
grep -q "in 5 groups" "$T/o" || fail "--group-by model: $(cat "$T/o")"
cmp_ --out "$T/w1" --format csv --where 'model=pm981*'
grep -q "compared 4 runs.*; 3 filtered out" "$T/o" || fail "--where model: $(cat "$T/o")"
cmp_ --out "$T/w2" --format csv --where simulated=yes
grep -q "compared 2 runs" "$T/o" || fail "--where simulated: $(cat "$T/o")"
cmp_ --out "$T/w3" --format csv --where 'label!=lab*' --where simulated=no
grep -q "compared 1 run " "$T/o" || fail "--where label!=: $(cat "$T/o")"
cmp_ --out "$T/w4" --format csv --where 'date=2026-11-01..2026-11-30'
grep -q "compared 2 runs" "$T/o" || fail "--where date range (the fixtures are of 2026-11-29): $(cat "$T/o")"
"$SSDREV" compare "$F" --out "$T/w5" --where 'date>=2999-01-01' >/dev/null 2>"$T/e"
[ $? -eq 1 ] && grep -q "no run matches the --where filters" "$T/e" || fail "nothing matches: $(cat "$T/e")"
"$SSDREV" compare "$F" --out "$T/w6" --where 'colour=red' >/dev/null 2>"$T/e"
[ $? -eq 2 ] && grep -q "unknown field 'colour'" "$T/e" || fail "bad --where: $(cat "$T/e")"
"$SSDREV" compare "$F" --out "$T/w7" --group-by 'model,size' >/dev/null 2>"$T/e"
[ $? -eq 2 ] || fail "bad --group-by must exit 2"
"$SSDREV" compare "$F" --out "$T/w8" --lang fr >/dev/null 2>"$T/e"
[ $? -eq 2 ] || fail "bad --lang must exit 2"

# runs given one by one: no index is written anywhere
cmp_one() { "$SSDREV" compare "$F/a1" "$F/sim-pm981" --out "$T/one" --format csv >/dev/null 2>"$T/e" || fail "compare runs: $(cat "$T/e")"; }
cmp_one
ls "$F/a1/ssdrev-index.sqlite" "$F/sim-pm981/ssdrev-index.sqlite" >/dev/null 2>&1 && fail "an index inside a run archive"

# an index that is a symbolic link is not followed: a warning, the compare goes on
mkdir "$T/f2" && cp -r "$F/a1" "$T/f2/" && ln -s "$T/elsewhere.sqlite" "$T/f2/ssdrev-index.sqlite"
"$SSDREV" compare "$T/f2" --out "$T/f2o" --format csv >/dev/null 2>"$T/e" || fail "compare with a linked index: $(cat "$T/e")"
grep -q "not using the index '$T/f2/ssdrev-index.sqlite': it is a symbolic link" "$T/e" || fail "linked index: $(cat "$T/e")"
[ -e "$T/elsewhere.sqlite" ] && fail "the index was written through a symbolic link"

# the new outputs are never written through a symbolic link
for spec in groups.csv:csv compare.xlsx:xlsx; do
  f=${spec%%:*}
  mkdir "$T/l-$f" && echo sentinel >"$T/sentinel-$f" && ln -s "$T/sentinel-$f" "$T/l-$f/$f"
  "$SSDREV" compare "$F" --out "$T/l-$f" --format "${spec#*:}" >/dev/null 2>"$T/e"
  [ $? -eq 1 ] && grep -q "symbolic link" "$T/e" || fail "$f through a link: $(cat "$T/e")"
  [ "$(cat "$T/sentinel-$f")" = sentinel ] || fail "$f overwrote the link's target"
done

# Korean
cmp_ --out "$T/ko" --format md --lang ko
grep -q '^# 일괄 비교' "$T/ko/compare.md" && grep -q '기준 그룹' "$T/ko/compare.md" \
  && grep -q 'bench SATA one (모델 미상)' "$T/ko/compare.md" || fail "Korean report: $(head -5 "$T/ko/compare.md")"
echo ok
