#!/bin/sh
# measured_at (issue 29 item 4): an import records the date its source names
# (CrystalDiskMark's and KDiskMark's Date, as ISO 8601 local time), never the
# import time; a file without a date has none; compare's date column, its
# --where 'date<=...' filter and --group-by date use it, and a run made before
# measured_at existed falls back to its creation date.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
mkdir "$T/runs"
"$SSDREV" import cdm "$R/samples/cdm/sata-cdm3.txt" --out "$T/runs/a-cdm3" >/dev/null 2>"$T/e" || fail "cdm3: $(cat "$T/e")"
"$SSDREV" import kdm "$R/samples/kdm/nvme-kdm3.2-target.txt" --out "$T/runs/b-kdm" >/dev/null 2>"$T/e" || fail "kdm: $(cat "$T/e")"
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --out "$T/runs/c-cdm8" >/dev/null 2>"$T/e" || fail "cdm8: $(cat "$T/e")"
# a file without a Date line: no measurement date, not the import's
grep -v 'Date:' "$R/samples/cdm/pm981-fob-cdm8.txt" >"$T/nodate.txt"
"$SSDREV" import cdm "$T/nodate.txt" --out "$T/nodate" >/dev/null 2>"$T/e" || fail "nodate: $(cat "$T/e")"
/usr/bin/python3 - "$T" "$R" <<'PY' || exit 1
import json, re, sys
T, R = sys.argv[1], sys.argv[2]
def man(n): return json.load(open("%s/%s/manifest.json" % (T, n)))
want = {"runs/a-cdm3": "2013-02-17T21:08:55", "runs/b-kdm": "2025-06-21T07:03:44"}
d = re.search(r"Date: (\d+)/(\d+)/(\d+) (\d+):(\d+):(\d+)", open(R + "/samples/cdm/pm981-fob-cdm8.txt").read()).groups()
want["runs/c-cdm8"] = "%s-%s-%sT%s:%s:%s" % d
for n, w in want.items():
    if man(n).get("measured_at") != w: sys.exit("%s: measured_at %r, want %r" % (n, man(n).get("measured_at"), w))
if "measured_at" in man("nodate"): sys.exit("nodate: measured_at %r" % man("nodate")["measured_at"])
PY
# compare: only the 2013 run is measured on or before 2025-01-01 (all three were imported today)
"$SSDREV" compare "$T/runs" --out "$T/cmp1" --format csv --where 'date<=2025-01-01' >/dev/null 2>"$T/e" || fail "compare <=: $(cat "$T/e")"
grep -q 'a-cdm3' "$T/cmp1/runs.csv" || fail "2013 run not kept: $(cat "$T/cmp1/runs.csv")"
grep -q '2013-02-17' "$T/cmp1/runs.csv" || fail "runs.csv date is not the measurement date: $(cat "$T/cmp1/runs.csv")"
! grep -q 'b-kdm' "$T/cmp1/runs.csv" || fail "2025 run kept by date<=2025-01-01"
"$SSDREV" compare "$T/runs" --out "$T/cmp2" --format csv --where 'date>=2025-06-21' >/dev/null 2>"$T/e" || fail "compare >=: $(cat "$T/e")"
grep -q 'b-kdm' "$T/cmp2/runs.csv" && ! grep -q 'a-cdm3' "$T/cmp2/runs.csv" || fail "date>=: $(cat "$T/cmp2/runs.csv")"
# an archive from before measured_at: its creation date still serves
mkdir "$T/old"
cp -r "$T/runs/b-kdm" "$T/old/b-kdm"
/usr/bin/python3 - "$T/old/b-kdm/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); del m["measured_at"]; m["created"] = "2019-05-05T10:00:00Z"
json.dump(m, open(sys.argv[1], "w"))
PY
"$SSDREV" compare "$T/old" --out "$T/cmp3" --format csv --where 'date=2019-05-05' >/dev/null 2>"$T/e" || fail "compare old: $(cat "$T/e")"
grep -q 'b-kdm' "$T/cmp3/runs.csv" || fail "created fallback: $(cat "$T/cmp3/runs.csv")"
echo ok
