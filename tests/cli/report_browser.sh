#!/bin/sh
# report_browser: a real browser (Debian's chromium, headless) prints
# review.html to PDF. The self-contained page, copied alone, shows every
# chart (their titles and axis names are text in the printed PDF), the
# figure captions and table values; the --html-linked page loads each chart
# PNG from charts/ (pdfimages counts them) and, copied alone, loads none.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
if ! command -v chromium >/dev/null 2>&1; then
  echo "skip: chromium is not installed (scripts/deps.sh test installs it)"
  exit 77
fi
command -v pdfimages >/dev/null 2>&1 || { echo "skip: pdfimages (poppler-utils) is not installed"; exit 77; }
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "report_browser: $*" >&2; exit 1; }
D=tests/data/analysis
# HOME and the profile in $T: the browser writes nothing outside it
browse() { # FILE.html OUT.pdf
  HOME="$T" XDG_CONFIG_HOME="$T/cfg" XDG_CACHE_HOME="$T/cache" timeout 120 chromium --headless --no-sandbox \
    --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update \
    --disable-sync --user-data-dir="$(mktemp -d "$T/profile.XXXXXX")" --no-pdf-header-footer \
    --print-to-pdf="$2" "file://$1" >"$T/chromium.log" 2>&1
  [ -s "$2" ] || fail "chromium printed no $2: $(tail -3 "$T/chromium.log")"
}
"$SSDREV" report -t templates/review.ko.md -o "$T/out" -f md,html --dpi 60 "$D/pm981" "$D/pm981a" >/dev/null 2>"$T/err" \
  || fail "report: $(cat "$T/err")"
nch=$(grep -c '^!\[' "$T/out/review.md")
[ "$nch" -ge 12 ] || fail "only $nch charts in review.md"
mkdir "$T/alone" && cp "$T/out/review.html" "$T/alone/" || fail "copy"
browse "$T/alone/review.html" "$T/alone.pdf"
pdftotext "$T/alone.pdf" "$T/alone.txt" 2>/dev/null || fail "pdftotext"
# the charts' own text: every chart drew in the browser, from the page alone
# (the template is Korean, so is the charts' text: render/msg.c)
n=$(grep -c "^CrystalDiskMark 방식, 프로필 Default" "$T/alone.txt")
[ "$n" -eq 4 ] || fail "$n of 4 CrystalDiskMark panels in the printed page"
for s in "PM981 256GB — FOB" "PM981a 256GB — 75%" "CrystalDiskMark 읽기 비교, FOB" \
         "드라이브 채우기: 순차 쓰기, 128 KiB" "드라이브 채우기: 기록량에 따른 평균 지연시간" \
         "읽기 비율에 따른 저QD 성능 — PM981 256GB" "꼬리 지연시간" "백분위 [%]" \
         "리뷰 중 온도와 쓰기 속도 — PM981a 256GB" "쓰기 속도 [MB/s]" "SLC 11.20 GiB: 1450 → 780 MB/s"; do
  grep -qF -- "$s" "$T/alone.txt" || fail "the printed page lacks chart text '$s'"
done
# captions, table values, the DUT's SMART health
for s in "PM981 — 75% 채움" "Tail Latency: 백분위별 QD1 지연시간" "CrystalDiskMark 방식 결과 — PM981a 256GB, 75% 채움" \
         "3412.57" "2285.65 µs" "0.0760W" "1,873 h" "13.51 TB" "수명 사용률" "11.2 GiB" "시뮬레이션 결과"; do
  grep -qF -- "$s" "$T/alone.txt" || fail "the printed page lacks '$s'"
done
pdfimages -list "$T/alone.pdf" 2>/dev/null | awk 'NR > 2' | grep -q . && fail "the inline charts printed as raster images"
# chart images of the full width (6.5 in at 60 dpi: 390 px); a broken one
# prints as the browser's 14x16 icon
charts_printed() { pdfimages -list "$1" 2>/dev/null | awk 'NR > 2 && $3 == "image" && $4 == 390' | wc -l; }
# --html-linked: the chart files load from charts/, one image each
"$SSDREV" report -t templates/review.ko.md -o "$T/linked" -f html --html-linked --dpi 60 "$D/pm981" "$D/pm981a" \
  >/dev/null 2>"$T/err" || fail "report --html-linked: $(cat "$T/err")"
grep -q '<img src="charts/fill.png"' "$T/linked/review.html" || fail "--html-linked does not link the charts"
browse "$T/linked/review.html" "$T/linked.pdf"
ni=$(charts_printed "$T/linked.pdf")
[ "$ni" -eq "$nch" ] || fail "$ni of $nch linked chart images loaded"
# the same page without its charts/ loads none: the count above can fail
mkdir "$T/bare" && cp "$T/linked/review.html" "$T/bare/" || fail "copy"
browse "$T/bare/review.html" "$T/bare.pdf"
ni=$(charts_printed "$T/bare.pdf")
[ "$ni" -eq 0 ] || fail "$ni chart images printed with charts/ missing"
exit 0
