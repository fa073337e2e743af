#!/bin/sh
# make demo: the main job. Runs the reference review's whole method on the
# simulated PM981 and PM981a (256 GB), analyzes both runs and renders the
# comparison review in Korean and English as Markdown, HTML and PDF.
set -e
SSDREV=${1:-build/ssdrev}
OUT=${DEMO_OUT:-demo-out}
rm -rf "$OUT/runs"
mkdir -p "$OUT/runs"
for m in pm981-256:"PM981 256GB" pm981a-256:"PM981a 256GB"; do
  model=${m%%:*}; label=${m#*:}
  echo "== review: simulated $label (samples/models/$model.model)"
  "$SSDREV" review "sim:samples/models/$model.model" --out "$OUT/runs/$model" --label "$label" --quiet
  "$SSDREV" analyze "$OUT/runs/$model" --quiet
done
for lang in ko en; do
  echo "== report ($lang)"
  "$SSDREV" report --template "templates/review.$lang.md" --out "$OUT/review-$lang" \
    "$OUT/runs/pm981-256" "$OUT/runs/pm981a-256"
done
echo
echo "Review (Korean):  $OUT/review-ko/review.pdf  $OUT/review-ko/review.md  $OUT/review-ko/review.html"
echo "Review (English): $OUT/review-en/review.pdf  $OUT/review-en/review.md  $OUT/review-en/review.html"
echo "Run archives:     $OUT/runs/pm981-256  $OUT/runs/pm981a-256  (raw per-I/O logs in logs/)"
