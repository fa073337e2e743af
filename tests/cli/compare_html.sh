#!/bin/sh
# compare --format html (issue 25 item 6): compare.html is one
# self-contained file (every chart a PNG data: URI, nothing linked), in the
# report's language (<html lang="ko">), and a real browser (chromium,
# headless) prints it with its overview, gate and method table and every
# chart as an image, from a folder holding only that file.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$R/samples/cdm/pm981-fob-cdm8.txt
F="$T/lab"
mkdir -p "$F"
unit() { # NAME FIRMWARE SEQ
  sed "s/3531.284 MB\/s/$3 MB\/s/" "$C" >"$T/$1.txt"
  "$SSDREV" import cdm "$T/$1.txt" --out "$F/$1" --model PM981 --firmware "$2" >/dev/null 2>"$T/e" || fail "import: $(cat "$T/e")"
}
unit a1 FW100 3531.284
unit a2 FW100 3520.110
unit b1 FW200 3390.402
unit b2 FW200 3402.771
"$SSDREV" compare "$F" --out "$T/o" --format html --lang ko --baseline "PM981 · FW100 · FOB" --gate 2 --max-charts 3 \
  >/dev/null 2>"$T/e"
[ $? -eq 3 ] || fail "compare: $(cat "$T/e")"
H="$T/o/compare.html"
[ -s "$H" ] || fail "no compare.html"
grep -q '<html lang="ko">' "$H" || fail "no lang"
[ "$(grep -o 'src="data:image/png;base64,' "$H" | wc -l)" -eq 3 ] || fail "charts not inline: $(grep -o 'src="[^"]\{0,40\}' "$H")"
grep -q 'src="charts/' "$H" && fail "a chart is linked, not inline"
grep -q 'href="http\|src="http\|<link ' "$H" && fail "an external reference"
# a table wider than the text (the overview of 6 groups) scrolls in its box on screen
grep -qF '@media screen{table{display:block;overflow-x:auto;max-width:100%}}' "$H" || fail "wide tables run past the page"
grep -qF 'html:lang(ko) th,html:lang(ko) td{overflow-wrap:break-word}' "$H" || fail "Korean table cells break words anywhere"
for s in "<h2>요약</h2>" "<h2>게이트</h2>" "<h2>방법과 시스템</h2>" "상대 점수"; do
  grep -qF "$s" "$H" || fail "compare.html lacks '$s'"
done
if ! command -v chromium >/dev/null 2>&1; then
  echo "skip: chromium is not installed (scripts/deps.sh test installs it)"
  exit 77
fi
command -v pdfimages >/dev/null 2>&1 || { echo "skip: pdfimages (poppler-utils) is not installed"; exit 77; }
mkdir "$T/alone" && cp "$H" "$T/alone/" || fail copy
HOME="$T" XDG_CONFIG_HOME="$T/cfg" XDG_CACHE_HOME="$T/cache" timeout 120 chromium --headless --no-sandbox \
  --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update \
  --disable-sync --user-data-dir="$T/profile" --no-pdf-header-footer \
  --print-to-pdf="$T/alone.pdf" "file://$T/alone/compare.html" >"$T/chromium.log" 2>&1
[ -s "$T/alone.pdf" ] || fail "chromium printed nothing: $(tail -3 "$T/chromium.log")"
pdftotext "$T/alone.pdf" "$T/alone.txt" 2>/dev/null || fail pdftotext
for s in "일괄 비교" "요약" "상대 점수" "게이트" "방법과 시스템" "PM981 · FW200 · FOB" "−3.7% ±1.0"; do
  grep -qF -- "$s" "$T/alone.txt" || fail "the printed page lacks '$s'"
done
n=$(pdfimages -list "$T/alone.pdf" 2>/dev/null | awk 'NR > 2 && $3 == "image"' | wc -l)
[ "$n" -ge 3 ] || fail "$n of 3 charts printed"
echo ok
