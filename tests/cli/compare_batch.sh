#!/bin/sh
# ssdrev compare over a folder: runs are analyzed in parallel, grouped by
# model / firmware / fill state with medians and ratios to the baseline;
# bad archives are reported and skipped; no usable archive is an error.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$R/samples/cdm
F="$T/fleet"
mkdir -p "$F"
imp() { "$SSDREV" import "$@" >/dev/null 2>"$T/e" || fail "import $*: $(cat "$T/e")"; }
imp cdm "$C/pm981-fob-cdm8.txt" --out "$F/01-pm981-fob" --model PM981 --firmware 1L2QEXD7
imp cdm "$C/pm981-fob-cdm8.txt" --out "$F/02-pm981-fob-again" --model PM981 --firmware 1L2QEXD7
imp cdm "$C/pm981-75pct-cdm8-mix.txt" --out "$F/03-pm981-75" --model PM981 --firmware 1L2QEXD7
imp cdm "$C/pm981a-fob-cdm9-nvme.txt" --out "$F/04-pm981a" --model PM981a --firmware EXH7201Q
imp fio "$R/samples/fio/small.json" --out "$F/05-fio" --model PM981a --firmware EXH7201Q --state FOB
# a second PM981 FOB run, 10% faster in SEQ1M Q8T1 read: the group median moves
sed 's/3531.284 MB\/s/3884.412 MB\/s/' "$C/pm981-fob-cdm8.txt" >"$T/faster.txt"
imp cdm "$T/faster.txt" --out "$F/06-pm981-fob-fast" --model PM981 --firmware 1L2QEXD7
mkdir "$F/07-broken" && printf '{"format": "ssdrev-run", "format_version": 1, "tests": [' >"$F/07-broken/manifest.json"
mkdir "$F/08-not-a-run"
# an archive whose every log is gone has no figures: skipped, not averaged
cp -r "$F/05-fio" "$F/09-logs-gone" && rm -f "$F/09-logs-gone"/logs/*.ssdlog "$F/09-logs-gone/analysis.json"
# one of two logs gone: compared without it, with a warning
cp -r "$F/05-fio" "$F/10-one-log-gone" && rm -f "$F/10-one-log-gone/logs/$(ls "$F/05-fio/logs" | head -1)"
"$SSDREV" compare "$F" --out "$T/out" --jobs 2 --format md,csv,pdf >"$T/o" 2>"$T/e"
rc=$?
[ $rc -eq 0 ] || fail "compare exit $rc: $(cat "$T/e")"
grep -q "skipping '$F/07-broken'" "$T/e" || fail "broken archive not reported: $(cat "$T/e")"
grep -q "skipping '$F/08-not-a-run'" "$T/e" || fail "non-run not reported: $(cat "$T/e")"
grep -q "skipping '$F/09-logs-gone': no readable test" "$T/e" || fail "run without logs not skipped: $(cat "$T/e")"
grep -q "warning: '$F/10-one-log-gone': 1 of 2 tests unreadable" "$T/e" || fail "partly broken run: $(cat "$T/e")"
grep -q "compared 7 runs in 3 groups.*; 3 skipped" "$T/o" || fail "summary: $(cat "$T/o")"
[ -s "$T/out/compare.md" ] && [ -s "$T/out/compare.csv" ] && [ -s "$T/out/runs.csv" ] || fail "outputs missing"
ls "$T/out/charts/"*.png >/dev/null 2>&1 || fail "no charts"
[ -s "$F/05-fio/analysis.json" ] || fail "the fio run was not analyzed"
grep -q "(baseline)" "$T/out/compare.md" || fail "no baseline in the Markdown"
pdftotext "$T/out/compare.pdf" - 2>/dev/null | grep -q "Batch comparison" || fail "the PDF lacks the title"
/usr/bin/python3 - "$T/out" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/groups.csv")))
def get(test, metric, model, state):
    r = [x for x in rows if x["test"] == test and x["metric"] == metric and x["model"] == model and x["state"] == state]
    if len(r) != 1: sys.exit("want one row for %s %s %s %s, got %s" % (test, metric, model, state, r))
    return r[0]
g = get("FOB default SEQ1M Q8T1", "read_mb_s", "PM981", "FOB")
# three FOB runs: 3531.284, 3531.284, 3884.412 -> median 3531.284
assert g["n"] == "3" and abs(float(g["median"]) - 3531.284) < 0.01 and abs(float(g["max"]) - 3884.412) < 0.01, g
assert g["group"] == "PM981 · 1L2QEXD7 · FOB" and g["unit"] == "MB/s", g
a = get("FOB nvme SEQ1M Q8T1", "read_mb_s", "PM981a", "FOB")
assert abs(float(a["median"]) - 3562.818) < 0.01, a
runs = list(csv.DictReader(open(sys.argv[1] + "/runs.csv")))
assert len(runs) == 7 and len({r["group"] for r in runs}) == 3, runs
PY
# CDM 6 saves no latency: no lat_us value (the analysis's -1 is not a figure)
imp cdm "$C/sata-cdm6.txt" --out "$T/cdm6/r1" --model SATA
"$SSDREV" compare "$T/cdm6" --out "$T/out6" --format csv >/dev/null 2>"$T/e" || fail "cdm6 compare: $(cat "$T/e")"
grep -q '"r1",.*"cdm","FOB default SEQ128K Q32T1","read_mb_s","MB/s",562.11$' "$T/out6/compare.csv" \
  || fail "cdm6 mb_s row: $(grep SEQ128K "$T/out6/compare.csv")"
if grep -q 'lat_us' "$T/out6/compare.csv"; then fail "cdm6 has no latency: $(grep lat_us "$T/out6/compare.csv")"; fi
# an unknown baseline is an error; a named one becomes the ratio base
"$SSDREV" compare "$F" --out "$T/out2" --baseline nope >/dev/null 2>"$T/e"
[ $? -eq 1 ] && grep -q "baseline 'nope'" "$T/e" || fail "bad baseline: $(cat "$T/e")"
"$SSDREV" compare "$F" --out "$T/out3" --format csv --baseline 06-pm981-fob-fast >/dev/null 2>"$T/e" || fail "baseline by name"
grep -q '"PM981 · 1L2QEXD7 · FOB","PM981","1L2QEXD7","FOB","yes"' "$T/out3/groups.csv" || fail "baseline by run name: $(head -3 "$T/out3/groups.csv")"
# nothing usable: exit 1 with a clear error
"$SSDREV" compare "$F/07-broken" "$F/08-not-a-run" --out "$T/out4" >/dev/null 2>"$T/e"
[ $? -eq 1 ] && grep -q "no usable run archive" "$T/e" || fail "no usable archive: $(cat "$T/e")"
"$SSDREV" compare "$F" >/dev/null 2>&1
[ $? -eq 2 ] || fail "missing --out must exit 2"
"$SSDREV" compare "$F" --out "$T/o5" --format xls >/dev/null 2>&1
[ $? -eq 2 ] || fail "bad --format must exit 2"
echo ok
