#!/bin/sh
# templates/single.en.md renders a one-drive review from a short review of a
# model other than the reference drives: every section is there, nothing is
# left as a raw directive, and no figure is reported missing but the SLC
# cache a 2 GiB short-mode fill cannot reach on a 1 TB drive.
set -u
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "report_single: $*" >&2; exit 1; }
R=${SSDREV_ROOT:-.}
"$SSDREV" review "sim:$R/samples/models/generic-1tb.model" --out "$d/run" --short --quiet --label "Generic 1TB" \
  || fail "short review failed"
"$SSDREV" report -t "$R/templates/single.en.md" -o "$d/out" "$d/run" >"$d/log" 2>&1 || fail "report failed: $(cat "$d/log")"
for s in Appearance "Internal Components" Datasheet "SW Report" "DUT Summary" "cSSD Benchmarking" \
         "Fill Drive" "Low QD Performance by RW Ratio" "Tail Latency" Closing; do
  grep -q "^## $s\$" "$d/out/review.md" || fail "section '$s' missing"
done
grep -q '{{' "$d/out/review.md" && fail "a directive was left unexpanded"
grep -q '^# Generic 1TB review' "$d/out/review.md" || fail "title lacks the drive label"
grep -q 'Simulated results' "$d/out/review.md" || fail "no simulated notice"
grep -q 'RND4K Q32T1 read at FOB: [0-9][0-9]* MB/s' "$d/out/review.md" || fail "CDM value missing"
pdftotext "$d/out/review.pdf" - | grep -q 'Tail Latency' || fail "PDF lacks the text"
exit 0
