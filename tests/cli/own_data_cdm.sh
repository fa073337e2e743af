#!/bin/sh
# A reviewer's own CrystalDiskMark results make a complete review: FOB and
# 75% files of one drive (CDM 8 NVMe with Mix, CDM 7 NVMe, CDM 6 SATA) are
# imported into one run each, and the shipped templates (single and
# two-drive, English and Korean) fill every section CrystalDiskMark data
# supports: both states' panels and tables (Mix where the file has it), the
# DUT table with what the file gives (the capacity of its Test line, the
# OS) and one note naming the fields it does not give. "Not measured" is
# said only of what CrystalDiskMark does not measure (fill, RW sweep, tail,
# temperature), in the page's language; the CLI's warnings follow
# SSDREV_LANG.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL own_data_cdm: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
S=$R/samples/cdm
F=$R/tests/data/cdm
# 75% files of the CDM 6 SATA and CDM 7 drives: their FOB files with the
# Test line's fill and a few values changed (CDM 7 writes no capacity)
sed -e 's#38.2% (88.9/232.8 GiB)#75.0% (174.6/232.8 GiB)#' -e 's#SATA SSD FOB#SATA SSD 75%#' \
  -e 's#  41.350 MB/s \[  10095.2 IOPS\]#  38.120 MB/s [   9306.6 IOPS]#' "$S/sata-cdm6.txt" >"$T/sata-75.txt"
sed -e 's#Fixture 1TB cdm7#Fixture 1TB cdm7 75%#' -e 's#301.455 MB/s#288.004 MB/s#' "$F/fixture-cdm7-fob.txt" >"$T/cdm7-75.txt"
"$SSDREV" import cdm "$S/pm981-fob-cdm8.txt:FOB" "$S/pm981-75pct-cdm8-mix.txt:75%" --out "$T/cdm8" --label "PM981 CDM8" \
  >"$T/i.out" 2>&1 || fail "import cdm8: $(cat "$T/i.out")"
"$SSDREV" import cdm "$S/sata-cdm6.txt:FOB" "$T/sata-75.txt:75%" --out "$T/cdm6" --label "SATA CDM6" \
  >"$T/i.out" 2>&1 || fail "import cdm6: $(cat "$T/i.out")"
"$SSDREV" import cdm "$F/fixture-cdm7-fob.txt:FOB" "$T/cdm7-75.txt:75%" --out "$T/cdm7" --label "NVMe CDM7" \
  >"$T/i.out" 2>&1 || fail "import cdm7: $(cat "$T/i.out")"

# what CrystalDiskMark does not measure, in each language: the only notes
absent_en="fill-drive trace|fill series over time|SLC cache estimate|fill latency|RW-ratio sweep|tail-latency results|temperature samples"
absent_ko="드라이브 채우기|SLC캐시 추정값|RW 비율별 결과|꼬리 지연시간 결과|온도 기록"
check() { # check TEMPLATE OUTDIR LABEL... : one page's sections
  t=$1 o=$2; shift 2
  md=$o/review.md
  grep -q '{{' "$md" && fail "$t: a directive was left unexpanded"
  case $t in *.ko) nm='^\*측정되지 않음: ' absent=$absent_ko cap75="75% 채움" capfob="FOB" dutnote="원본 데이터에 없는 항목:" fw="펌웨어" ;;
             *) nm='^\*Not measured: ' absent=$absent_en cap75="75% filled" capfob="FOB" dutnote="Not in the source data:" fw="Firmware" ;; esac
  grep "$nm" "$md" | grep -Ev "$absent" >"$T/nm" && fail "$t: a section CrystalDiskMark data fills says not measured: $(cat "$T/nm")"
  grep -q "$nm" "$md" || fail "$t: no note for the fill/sweep/tail sections CrystalDiskMark does not measure"
  for l in "$@"; do
    for st in "$capfob" "$cap75"; do
      grep -q "^\*CrystalDiskMark.* — $l, ${st}[* ]" "$md" || fail "$t: no CrystalDiskMark table of $l at $st"
    done
    # the DUT table: what the file gives, and one note for the rest
    grep -q "\[$l\] |" "$md" || fail "$t: no DUT table of $l"
  done
  grep -q "^\*$dutnote .*$fw" "$md" || fail "$t: the DUT fields not in the file are not named: $(grep -A4 'DUT' "$md")"
  grep -q '| n/a |\|| 없음 |' "$md" && fail "$t: a cell says n/a: $(grep '| n/a |\|| 없음 |' "$md")"
  case $t in *.ko) grep -q "Not measured\|not measured\|Not in the source\|' has no " "$md" && fail "$t: English notes in a Korean page" ;; esac
  pdftotext "$o/review.pdf" "$T/p.txt" 2>/dev/null || fail "$t: PDF unreadable"
  [ -s "$o/review.html" ] || fail "$t: no HTML"
}
for run in cdm8 cdm6 cdm7; do
  label=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['label'])" "$T/$run/manifest.json")
  for t in single.en single.ko; do
    "$SSDREV" report -t "$R/templates/$t.md" -o "$T/$run-$t" --dpi 40 "$T/$run" >"$T/r.log" 2>&1 || fail "report $t $run: $(cat "$T/r.log")"
    check "$t" "$T/$run-$t" "$label"
  done
done
# the capacity and OS the files give, the Mix table of the CDM 8 file
grep -q '| Capacity | 254 GB | Test OS | Windows 10 Professional' "$T/cdm8-single.en/review.md" \
  || fail "cdm8: capacity / OS: $(grep 'Capacity' "$T/cdm8-single.en/review.md")"
grep -q '| 용량 | 250 GB |' "$T/cdm6-single.ko/review.md" || fail "cdm6: capacity: $(grep '250 GB' "$T/cdm6-single.ko/review.md")"
grep -q '^| 테스트 | 혼합 \[MB/s\] | 혼합 \[IOPS\] |' "$T/cdm8-single.ko/review.md" || fail "cdm8: no Korean Mix table"
# CDM 6 writes no latency: no latency columns, a line says why
grep -q '^| SEQ128K Q32T1 | 562.11 | 521.93 | 4288.6 | 3982.0 |$' "$T/cdm6-single.en/review.md" \
  || fail "cdm6: the CDM 6 rows: $(grep SEQ "$T/cdm6-single.en/review.md")"
grep -q 'FOB (The file gives no latencies' "$T/cdm6-single.en/review.md" || fail "cdm6: no line on the absent latencies"
grep -q '| RND4K Q1T1 | 38.12 |' "$T/cdm6-single.en/review.md" || fail "cdm6: the 75% file's values"
# the panel by the tables' rule: CDM 6's "562.114 MB/s" is 562.11 there too,
# as a measured run's figure would be
"$SSDREV" chart cdm "$T/cdm6" --out "$T/cdm6.svg" >/dev/null 2>&1 || fail "cdm6: no panel"
grep -q '>562.11<' "$T/cdm6.svg" || fail "cdm6 panel: $(grep -o '>[0-9.]*<' "$T/cdm6.svg" | head -4)"
grep -q '>562.114<' "$T/cdm6.svg" && fail "cdm6 panel: the file's three decimals"
# two drives side by side, each CDM version
for t in review.en review.ko; do
  "$SSDREV" report -t "$R/templates/$t.md" -o "$T/two-$t" --dpi 40 "$T/cdm8" "$T/cdm6" >"$T/r.log" 2>&1 || fail "report $t: $(cat "$T/r.log")"
  check "$t" "$T/two-$t" "PM981 CDM8" "SATA CDM6"
done
# the CLI's warnings: English by default, Korean with SSDREV_LANG=ko or a Korean locale
SSDREV_LANG="" LC_ALL="" LC_MESSAGES="" LANG=C "$SSDREV" report -t "$R/templates/single.en.md" -o "$T/w1" --format md "$T/cdm8" \
  >"$T/w1.log" 2>&1 || fail "report: $(cat "$T/w1.log")"
grep -q "^ssdrev report: warning: .*single.en.md:[0-9]*: not measured: run 'PM981 CDM8' has no tail-latency results" "$T/w1.log" \
  || fail "English warning: $(cat "$T/w1.log")"
SSDREV_LANG=ko "$SSDREV" report -t "$R/templates/single.en.md" -o "$T/w2" --format md "$T/cdm8" >"$T/w2.log" 2>&1 \
  || fail "report: $(cat "$T/w2.log")"
grep -q "^ssdrev report: 경고: .*single.en.md:[0-9]*: 측정되지 않음: 'PM981 CDM8'에 꼬리 지연시간 결과가 없습니다" "$T/w2.log" \
  || fail "Korean warning: $(cat "$T/w2.log")"
sed 's#    47.617 MB/s \[  11625.2 IOPS\] <    85.82 us>#     0.000 MB/s [      0.0 IOPS] <     0.00 us>#' \
  "$S/pm981-fob-cdm8.txt" >"$T/zero.txt"
SSDREV_LANG="" LC_ALL="" LC_MESSAGES="" LANG=ko_KR.UTF-8 "$SSDREV" import cdm "$T/zero.txt" --out "$T/zero" >"$T/w3.log" 2>&1 \
  || fail "import: $(cat "$T/w3.log")"
grep -q "^ssdrev import: 경고: '.*zero.txt': RND4K Q1T1 read 셀이 0 MB/s(실행되지 않음)여서 건너뜁니다" "$T/w3.log" \
  || fail "Korean import warning: $(cat "$T/w3.log")"
# analyze: its flag findings and notes follow the language too, the table stays as it is
SSDREV_LANG=ko "$SSDREV" analyze "$T/cdm8" >"$T/a-ko.out" 2>&1 || fail "analyze: $(cat "$T/a-ko.out")"
grep -q '^  \[경고\] rnd_read_plateau: RND4K Q32T1 읽기가 542MB/s로' "$T/a-ko.out" || fail "analyze in Korean: $(cat "$T/a-ko.out")"
grep -q '^CDM (max MB/s' "$T/a-ko.out" || fail "analyze's table changed in Korean"
SSDREV_LANG=en "$SSDREV" analyze "$T/cdm8" >"$T/a-en.out" 2>&1 || fail "analyze: $(cat "$T/a-en.out")"
grep -q '^  \[warn\] rnd_read_plateau: RND4K Q32T1 read 542 MB/s' "$T/a-en.out" || fail "analyze in English: $(cat "$T/a-en.out")"
# an error naming a file stays English
SSDREV_LANG=ko "$SSDREV" import cdm "$T/nope.txt" --out "$T/nope" >"$T/w4.log" 2>&1 && fail "missing file imported"
grep -q "error: .*nope.txt" "$T/w4.log" || fail "error: $(cat "$T/w4.log")"
# compare writes its documents in the CLI's language without --lang
SSDREV_LANG=ko "$SSDREV" compare "$T/cdm8" "$T/cdm6" --out "$T/cmp" --format md >"$T/c.log" 2>&1 || fail "compare: $(cat "$T/c.log")"
grep -q '^# 일괄 비교' "$T/cmp/compare.md" || fail "compare in Korean: $(head -3 "$T/cmp/compare.md")"
"$SSDREV" compare "$T/cdm8" "$T/cdm6" --out "$T/cmp2" --format md --lang en >"$T/c.log" 2>&1 || fail "compare: $(cat "$T/c.log")"
grep -q '^# Batch comparison' "$T/cmp2/compare.md" || fail "compare --lang en"
exit 0
