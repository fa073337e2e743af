#!/bin/sh
# report_pdf: `ssdrev report` renders the Korean template over the two
# fixture runs into Markdown, HTML and PDF; the PDF opens, holds every tail
# and CDM value, has one outline entry per section and every page converts.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "report_pdf: $*" >&2; exit 1; }
D=tests/data/analysis
"$SSDREV" report --template templates/review.ko.md --out "$T/out" --dpi 100 "$D/pm981" "$D/pm981a" >"$T/stdout" 2>"$T/stderr" \
  || { cat "$T/stderr" >&2; fail "report exited $?"; }
for f in review.md review.html review.pdf charts/fill.png charts/fill.svg charts/tail.png charts/cdm-fob-d1.png; do
  [ -s "$T/out/$f" ] || fail "missing $f"
done
grep -q "review.pdf" "$T/stdout" || fail "stdout does not say where the PDF is"
pdfinfo "$T/out/review.pdf" >"$T/info" 2>/dev/null || fail "pdfinfo cannot open the PDF"
pages=$(sed -n 's/^Pages: *//p' "$T/info")
[ "${pages:-0}" -ge 4 ] || fail "only ${pages:-0} pages"
grep -q "^Title: *삼성의 불사조" "$T/info" || fail "no document title: $(cat "$T/info")"
pdftotext -layout "$T/out/review.pdf" "$T/text.txt" 2>"$T/pdferr" || fail "pdftotext failed"
# libharu 2.3.0's broken ToUnicode CMaps are rewritten (render/doc/pdf.c)
! grep -q "ToUnicode" "$T/pdferr" || fail "poppler complains: $(sort -u "$T/pdferr")"
# every value of both tail tables and of the DUT and CDM tables
for v in 93.50 92.81 13.90 98.47 107.02 16.71 99.88 281.94 24.43 148.68 2285.65 25.86 174.15 3095.47 28.21 \
         90.51 89.96 13.77 95.41 101.49 16.49 98.95 242.49 24.19 159.01 2481.42 25.61 186.64 3329.26 51.92 \
         3412.57 1455.21 548.22 44.71 3541.08 1612.44 583.61 131.25 "0.0760W" "8000µs" "81 °C" "85 °C" \
         "MZVLB256HBHQ-00000" "EXH7201Q" "11.2 GiB" "시뮬레이션" "병목현상"; do
  grep -q -- "$v" "$T/text.txt" || fail "PDF text lacks '$v'"
done
grep -q "| 90% | 93.50 µs | 92.81 µs | 13.90 µs |" "$T/out/review.md" || fail "markdown tail table row"
grep -q "](charts/fill.png)" "$T/out/review.md" || fail "markdown image link"
grep -q "<table>" "$T/out/review.html" || fail "HTML has no table"
grep -q '<svg role="img" aria-label="Tail Latency: 백분위별 QD1 지연시간"' "$T/out/review.html" || fail "HTML has no inline tail chart"
grep -q '<html lang="ko">' "$T/out/review.html" || fail "HTML does not say it is Korean"
# the outline: one bookmark per section, in Korean too
for s in "Appearance" "DUT Summary" "Tail Latency" "Closing"; do
  grep -q "$s" "$T/text.txt" || fail "section $s missing"
done
pdftoppm -r 20 -png "$T/out/review.pdf" "$T/pg" 2>/dev/null || fail "pdftoppm failed"
n=$(ls "$T"/pg-*.png 2>/dev/null | wc -l)
[ "$n" -eq "$pages" ] || fail "$n of $pages pages converted"
# a table column is as wide as its widest unbreakable cell: that cell stays
# on one line (the column's width minus its padding once rounded below the
# cell's width and broke its last glyph onto a second line: "pm981-25" / "6")
printf '%s\n' '{{lang ko}}' '# t' '' '| 드라이브 | 수준 | 내용 |' '| --- | --- | --- |' \
  '| pm981-256 | 경고 | RND4K Q32T1 읽기가 403MB/s로 600MB/s를 넘지 못합니다 (256GB, FOB): 저용량 SKU라 Die 수가 적어 QD를 높여도 성능이 늘지 않는 병목현상입니다 |' \
  '| pm981-256 | 경고 | RND4K Q32T1 읽기가 408MB/s로 600MB/s를 넘지 못합니다 (256GB, 75%): 저용량 SKU라 Die 수가 적어 QD를 높여도 성능이 늘지 않는 병목현상입니다 |' \
  '| pm981-256 | 정보 | QD 스케일링 읽기: QD32에서 IOPS 증가가 멈춥니다 (99339 IOPS; QD128까지 최대 106405, +10% 미만) |' \
  '| pm981-256 | 정보 | QD 스케일링 쓰기: QD8에서 IOPS 증가가 멈춥니다 (415741 IOPS; QD128까지 최대 415741, +10% 미만) |' \
  >"$T/widest.ko.md"
"$SSDREV" report --template "$T/widest.ko.md" --out "$T/widest" "$D/pm981" >/dev/null 2>"$T/stderr" || { cat "$T/stderr" >&2; fail "widest-cell report"; }
pdftotext -layout "$T/widest/review.pdf" "$T/widest.txt" || fail "pdftotext (widest cell)"
grep -q "pm981-256" "$T/widest.txt" || fail "the widest cell was broken: $(grep -n "pm981" "$T/widest.txt")"
exit 0
