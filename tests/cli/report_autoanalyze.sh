#!/bin/sh
# `ssdrev report` analyzes a run that was never analyzed, and again one whose
# manifest changed since its analysis.json, so charts always come from the logs.
set -u
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "report_autoanalyze: $*" >&2; exit 1; }
R=${SSDREV_ROOT:-.}
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --out "$d/cdm" >/dev/null || fail "import failed"
# the shipped template compares two drives
"$SSDREV" import cdm "$R/samples/cdm/pm981a-fob-cdm9-nvme.txt" --out "$d/cdm2" >/dev/null || fail "import 2 failed"
[ ! -e "$d/cdm/analysis.json" ] || fail "import already wrote analysis.json"
"$SSDREV" report -t "$R/templates/review.en.md" -o "$d/out" -f md "$d/cdm" "$d/cdm2" >"$d/log" 2>&1 || fail "report failed: $(cat "$d/log")"
[ -f "$d/cdm/analysis.json" ] || fail "report did not analyze the run"
grep -q '3531' "$d/out/review.md" || fail "the CDM figure is not in the review"
# a manifest changed after the analysis (here: its label) makes the report
# analyze again; its mtime alone (a copy, a checkout) does not
sed 's/"label": "[^"]*"/"label": "Relabelled SSD"/' "$d/cdm/manifest.json" > "$d/m" && mv "$d/m" "$d/cdm/manifest.json"
grep -q 'Relabelled SSD' "$d/cdm/manifest.json" || fail "test setup: label not changed"
"$SSDREV" report -t "$R/templates/review.en.md" -o "$d/out2" -f md "$d/cdm" "$d/cdm2" >/dev/null 2>&1 || fail "second report failed"
grep -q 'Relabelled SSD' "$d/out2/review.md" || fail "a stale analysis.json was not refreshed"
grep -q 'Relabelled SSD' "$d/cdm/analysis.json" || fail "the refreshed analysis was not saved"
before=$(stat -c %y "$d/cdm/analysis.json")
sleep 1.1
touch "$d/cdm/manifest.json"
"$SSDREV" report -t "$R/templates/review.en.md" -o "$d/out3" -f md "$d/cdm" "$d/cdm2" >/dev/null 2>&1 || fail "third report failed"
[ "$(stat -c %y "$d/cdm/analysis.json")" = "$before" ] || fail "an up-to-date analysis.json was rewritten"
exit 0
