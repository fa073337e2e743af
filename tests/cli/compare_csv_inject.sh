#!/bin/sh
# CSV injection (issue 26 item 4): labels, models, firmware and group names
# that a spreadsheet would evaluate as formulas (=HYPERLINK, +cmd|, @SUM,
# -2+3, a leading TAB) reach compare.csv, groups.csv and runs.csv as text
# cells with a leading ' inside RFC 4180 quotes; the figures ssdrev writes
# stay bare numbers. analyze --csv goes through the same cell writer.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$R/samples/cdm/pm981-fob-cdm8.txt
imp() { "$SSDREV" import cdm "$C" "$@" >/dev/null 2>"$T/e" || fail "import $*: $(cat "$T/e")"; }
imp --out "$T/f/a1" --model "+cmd|' /C calc'!A0" --firmware '@SUM(A1:A9)' --label '=HYPERLINK("http://x","y")'
imp --out "$T/f/a2" --model "$(printf '\tTAB')" --firmware '-2+3' --label '-3.5'
"$SSDREV" compare "$T/f" --out "$T/o" --format csv >/dev/null 2>"$T/e" || fail "compare: $(cat "$T/e")"
/usr/bin/python3 - "$T/o" <<'PY' || exit 1
import csv, sys
d = sys.argv[1]
bad = "=+-@\t\r"
numeric = {"value", "n", "min", "median", "max", "ratio", "rank", "figures"}
seen = 0
for name in ("compare.csv", "groups.csv", "runs.csv"):
    raw = open(d + "/" + name, newline="").read()
    for k in ("=HYPERLINK", "+cmd", "@SUM", "-2+3", "-3.5", "\tTAB"):
        if ('"' + k) in raw:
            sys.exit(f"FAIL: {name}: a cell starts with {k!r}")
    rows = list(csv.reader(raw.splitlines(keepends=True)))
    head = rows[0]
    for line, row in zip(raw.splitlines(), rows[1:]):
        if len(row) != len(head):
            sys.exit(f"FAIL: {name}: {len(row)} cells, header has {len(head)}")
        for h, v in zip(head, row):
            if h in numeric:
                if v:
                    float(v)  # a number, written bare (not in quotes)
                    if '"' + v + '"' in line:
                        sys.exit(f"FAIL: {name}: number {h}={v} quoted")
            elif v and v[0] in bad:
                sys.exit(f"FAIL: {name}: {h} cell {v!r} starts with a formula character")
            elif v.startswith("'"):
                seen += 1
runs = list(csv.DictReader(open(d + "/runs.csv", newline="")))
labels = sorted(r["label"] for r in runs)
if labels != ["'-3.5", "'=HYPERLINK(\"http://x\",\"y\")"]:
    sys.exit(f"FAIL: labels {labels}")
fw = sorted(r["firmware"] for r in runs)
if fw != ["'-2+3", "'@SUM(A1:A9)"]:
    sys.exit(f"FAIL: firmware {fw}")
if not seen:
    sys.exit("FAIL: no neutralized cell seen")
PY
# analyze --csv: the same writer (text quoted, numbers bare)
"$SSDREV" analyze "$T/f/a1" --csv "$T/a.csv" --quiet 2>"$T/e" || fail "analyze --csv: $(cat "$T/e")"
head -1 "$T/a.csv" | grep -q '^"test","kind","op","ios",' || fail "analyze CSV header: $(head -1 "$T/a.csv")"
exit 0
