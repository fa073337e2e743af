#!/bin/sh
# --short runs beside full ones (issue 27, issue 25 item 6): a group of
# --short runs is marked "(short)" wherever it is named, shown but left out
# of the ranks and scores (rank "-", groups.csv's rank empty), never the
# automatic baseline; --rank-short ranks it. A set of short runs only is
# ranked as it is.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
F="$T/lab"
mkdir -p "$F"
# imports stand for full runs (their method is the source's, not short)
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --out "$F/full" --model PM981 --firmware FW1 >/dev/null 2>&1 || fail import
SSDREV_DATA=$R "$SSDREV" review sim:pm981-256 --short --out "$F/short" >/dev/null 2>"$T/e" || fail "review: $(cat "$T/e")"
"$SSDREV" compare "$F" --out "$T/o1" --format md,csv >/dev/null 2>"$T/e" || fail "compare: $(cat "$T/e")"
M="$T/o1/compare.md"
grep -q "Groups marked (short) hold --short runs" "$M" || fail "no short note"
grep -q "^| Test | PM981 · FW1 · FOB (baseline) | SAMSUNG MZVLB256HAHQ-000L7 · 1L2QEXD7 · FOB+75% (sim) (short) |$" "$M" \
  || fail "overview columns: $(grep '^| Test' "$M")"
grep -q "^| \*\*#\*\* | \*\*1\*\* | - |$" "$M" || fail "score rank: $(grep '^| \*\*#' "$M")"
grep -q "^| - | SAMSUNG MZVLB256HAHQ-000L7 · 1L2QEXD7 · FOB+75% (sim) (short) |" "$M" || fail "figure table rank: $(grep -m3 '(short) |' "$M")"
grep -q '"SAMSUNG MZVLB256HAHQ-000L7 · 1L2QEXD7 · FOB+75%",.*,"FOB default SEQ1M Q8T1","read_mb_s","MB/s",1,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,,' "$T/o1/groups.csv" \
  || fail "groups.csv rank of the short group: $(grep 'SEQ1M Q8T1","read_mb_s' "$T/o1/groups.csv")"
"$SSDREV" compare "$F" --out "$T/o2" --format md --rank-short >/dev/null 2>"$T/e" || fail "compare --rank-short: $(cat "$T/e")"
grep -q "Groups marked (short) hold" "$T/o2/compare.md" && fail "--rank-short still says unranked"
grep -q "^| \*\*#\*\* | \*\*[12]\*\* | \*\*[12]\*\* |$" "$T/o2/compare.md" || fail "--rank-short ranks: $(grep '^| \*\*#' "$T/o2/compare.md")"
# short runs only: ranked as they are
rm -rf "$F/full"
"$SSDREV" compare "$F" --out "$T/o3" --format md >/dev/null 2>"$T/e" || fail "short only: $(cat "$T/e")"
grep -q "Groups marked (short) hold" "$T/o3/compare.md" && fail "short only: said unranked"
grep -q "^| 1 | SAMSUNG MZVLB256HAHQ-000L7 · 1L2QEXD7 · FOB+75% (sim) (short) (baseline) |" "$T/o3/compare.md" || fail "short only: not ranked"
echo ok
