#!/bin/sh
# compare's facts (issue 25 item 5): a group names every value it mixes (a
# model group of FW100 and FW200 runs lists both); the overview's labels
# drop what every group shares (said once) and keep what tells groups
# apart; the measured date is a review's start, an import's measured_at,
# else its import date, marked; the method and system table names method,
# engine, ssdrev version and kernel / OS; runs.csv carries them. A date in
# a table never wraps inside (a date and its time, a range: no-break
# spaces; a span that does not wrap in HTML): the PDF's narrow Measured
# column has the range on one line, the "(import date)" mark under it.
set -u
NB=$(printf '\302\240') # U+00A0
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$R/samples/cdm/pm981-fob-cdm8.txt
F="$T/lab"
mkdir -p "$F"
imp() { "$SSDREV" import "$@" >/dev/null 2>"$T/e" || fail "import $*: $(cat "$T/e")"; }
# i1: a file without its Date: line, so its import date is all there is
grep -v 'Date:' "$C" > "$T/undated.txt"
imp cdm "$T/undated.txt" --out "$F/i1" --model "SAMSUNG MZVLB256HAHQ-000L7" --firmware FW100 --label i1
imp cdm "$C" --out "$F/i2" --model "SAMSUNG MZVLB256HAHQ-000L7" --firmware FW200 --label i2
# an import whose manifest records when it was measured
imp cdm "$C" --out "$F/i3" --model "SAMSUNG MZVLB256HAHQ-000L7" --firmware FW200 --label i3
/usr/bin/python3 - "$F/i3/manifest.json" <<'PY' || fail "manifest edit"
import json, sys
m = json.load(open(sys.argv[1])); m["measured_at"] = "2021-06-05T20:00:18Z"
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
SSDREV_DATA=$R "$SSDREV" review sim:pm981-256 --short --out "$F/r1" --label r1 >/dev/null 2>"$T/e" || fail "review: $(cat "$T/e")"
"$SSDREV" compare "$F" --out "$T/o1" --format md,csv,pdf,html --group-by model >/dev/null 2>"$T/e" || fail "compare: $(cat "$T/e")"
M="$T/o1/compare.md"
grep -q "^| SAMSUNG MZVLB256HAHQ-000L7 (short) (baseline) | SAMSUNG MZVLB256HAHQ-000L7 | FW100, FW200, 1L2QEXD7 | FOB, FOB+75% | 4 |" "$M" \
  || fail "mixed firmware: $(grep -A4 '^## Groups' "$M")"
grep -q "^| SAMSUNG MZVLB256HAHQ-000L7 (short) (baseline) | import (cdm), short | cdm, native | 0.1.0 | Windows 10 Professional \\\\\[10.0 Build 19043\\\\\] (x64), $(uname -r) | 2021-06-05$NB..$NB$(date -u +%Y-%m-%d) (import date) |" "$M" \
  || fail "method table: $(grep -A4 '^## Method' "$M")"
grep -q "^| i1 | .* | import (cdm) | $(date -u +%Y-%m-%d) (import date) |" "$M" || fail "import date: $(grep '^| i1 ' "$M")"
grep -q "^| i3 | .* | import (cdm) | 2021-06-05${NB}20:00:18 |" "$M" || fail "measured_at: $(grep '^| i3 ' "$M")"
grep -q "^| r1 | .* | short | $(date -u +%Y-%m-%d)$NB[0-9:]* |" "$M" || fail "review start: $(grep '^| r1 ' "$M")"
grep -q '"FW100, FW200, 1L2QEXD7"' "$T/o1/groups.csv" || fail "groups.csv firmware list"
# the range on one line of the PDF's method table, its mark on the next
# (it wrapped "2021-06-05 .." / "2026-12-03 (import" / "date)")
today=$(date -u +%Y-%m-%d)
pdftotext "$T/o1/compare.pdf" "$T/o1.txt" 2>/dev/null || fail "pdftotext"
grep -q "^2021-06-05 \.\. $today\$" "$T/o1.txt" || grep -q "^2021-06-05$NB\.\.$NB$today\$" "$T/o1.txt" ||
  fail "the PDF breaks the date range: $(grep -n -A1 '2021-06-05' "$T/o1.txt" | head -4)"
grep -q "2021-06-05 [0-9:]*\|2021-06-05$NB[0-9:]*" "$T/o1.txt" || fail "the PDF breaks a date from its time"
grep -qF "<td><span class=\"nw\">2021-06-05$NB..$NB$today</span> (import date)</td>" "$T/o1/compare.html" ||
  fail "the HTML's range may wrap: $(grep -F '2021-06-05' "$T/o1/compare.html" | head -3)"
grep -qF "<span class=\"nw\">2021-06-05${NB}20:00:18</span>" "$T/o1/compare.html" || fail "the HTML's date and time may wrap"
grep -qF '.nw{white-space:nowrap}' "$T/o1/compare.html" || fail "no nowrap rule in the HTML"
/usr/bin/python3 - "$T/o1/runs.csv" <<'PY' || exit 1
import csv, sys
r = {x["label"]: x for x in csv.DictReader(open(sys.argv[1]))}
assert r["i3"]["measured"] == "2021-06-05 20:00:18" and r["i3"]["date_kind"] == "measured_at", r["i3"]
assert r["i1"]["date_kind"] == "import" and r["i1"]["method"] == "import (cdm)", r["i1"]
assert r["r1"]["date_kind"] == "run" and r["r1"]["method"] == "short" and r["r1"]["engine"] == "native", r["r1"]
assert r["r1"]["ssdrev_version"] and r["r1"]["kernel"] not in ("", "-"), r["r1"]
PY
# by model and firmware: the overview's columns drop the shared model and
# state and keep the firmware
rm -rf "$F/r1"
"$SSDREV" compare "$F" --out "$T/o2" --format md >/dev/null 2>"$T/e" || fail "compare 2: $(cat "$T/e")"
grep -q "Every group shares: SAMSUNG MZVLB256HAHQ-000L7 · FOB\." "$T/o2/compare.md" || fail "common parts: $(sed -n 3p "$T/o2/compare.md")"
grep -q "^| Test | FW200 (baseline) | FW100 |$" "$T/o2/compare.md" || fail "overview labels: $(grep '^| Test' "$T/o2/compare.md")"
# the index gives the same facts without opening the runs
"$SSDREV" compare "$F" --out "$T/o3" --format md --verbose >"$T/out" 2>"$T/e" || fail "compare 3: $(cat "$T/e")"
grep -q "runs: 3 from the index" "$T/out" || fail "not from the index: $(cat "$T/out")"
cmp -s "$T/o2/compare.md" "$T/o3/compare.md" || fail "the index changes the report: $(diff "$T/o2/compare.md" "$T/o3/compare.md" | head)"
# hostile facts from a manifest: a measured_at that is no ISO 8601 date is
# no date; an OS string reaches the report escaped, the CSV as text (a
# leading ' against formulas), the HTML as text
H="$T/hostile"
imp cdm "$C" --out "$H/h1" --model M --label h1
imp cdm "$C" --out "$H/h2" --model M --label h2
/usr/bin/python3 - "$H/h1/manifest.json" "$H/h2/manifest.json" <<'PY' || fail "manifest edit"
import json, sys
m = json.load(open(sys.argv[1]))
m["measured_at"] = "<img src=x onerror=alert(1)>"
m["source"]["os"] = '=HYPERLINK("http://x")|<b>bold</b>'
json.dump(m, open(sys.argv[1], "w"))
m = json.load(open(sys.argv[2]))
m["measured_at"] = "2021-06-05T20:00:18Z<script>alert(1)</script>"
json.dump(m, open(sys.argv[2], "w"))
PY
"$SSDREV" compare "$H" --out "$T/o4" --format md,csv,html >/dev/null 2>"$T/e" || fail "hostile compare: $(cat "$T/e")"
grep -q "^| h1 | .* | import (cdm) | $(date -u +%Y-%m-%d) (import date) |" "$T/o4/compare.md" || fail "bad measured_at: $(grep '^| h1 ' "$T/o4/compare.md")"
grep -q "^| h2 | .* | import (cdm) | 2021-06-05${NB}20:00:18 |" "$T/o4/compare.md" || fail "measured_at cut: $(grep '^| h2 ' "$T/o4/compare.md")"
grep -qF '\=HYPERLINK("http\://x")\|\<b\>bold\</b\>' "$T/o4/compare.md" || fail "OS in the report: $(grep -F HYPERLINK "$T/o4/compare.md")"
grep -qF "\"'=HYPERLINK(\"\"http://x\"\")|<b>bold</b>\"" "$T/o4/runs.csv" || fail "OS in runs.csv: $(grep -F HYPERLINK "$T/o4/runs.csv")"
grep -q '<b>bold\|<script>\|<img src=x' "$T/o4/compare.html" && fail "markup from a manifest in compare.html"
grep -qF '&lt;b&gt;bold' "$T/o4/compare.html" || fail "the OS is not in compare.html as text"
echo ok
