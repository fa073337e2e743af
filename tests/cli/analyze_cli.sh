#!/bin/sh
# ssdrev analyze on a run archive made by `ssdrev run` on the simulated
# drive: writes analysis.json, prints tables, JSON and CSV; usage errors
# exit 2 naming the option; failures exit 1.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=${SSDREV_ROOT:-.}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
die() { echo "FAIL: $*"; exit 1; }

"$SSDREV" analyze --help | grep -q "usage: ssdrev analyze RUN_DIR" || die "--help"
"$SSDREV" analyze 2>"$T/err"; [ $? -eq 2 ] || die "no RUN_DIR should exit 2"
grep -q "ssdrev analyze: error: missing RUN_DIR" "$T/err" || die "missing RUN_DIR message: $(cat "$T/err")"
"$SSDREV" analyze "$T" --bogus 2>"$T/err"; [ $? -eq 2 ] || die "unknown option should exit 2"
grep -q "'--bogus'" "$T/err" || die "unknown option not named: $(cat "$T/err")"
"$SSDREV" analyze "$T" --percentiles 50,101 2>"$T/err"; [ $? -eq 2 ] || die "bad percentile should exit 2"
grep -q -- "--percentiles" "$T/err" || die "bad percentile not named"
"$SSDREV" analyze "$T/nope" 2>"$T/err"; [ $? -eq 1 ] || die "missing run should exit 1"
grep -q "nope" "$T/err" || die "missing run not named"

M="sim:$ROOT/samples/models/pm981-256.model"
"$SSDREV" run "$M" --out "$T/run" --name rr --rw randrw --rwmixread 70 --bs 4k --iodepth 1 \
  --number-ios 20000 --runtime 0 --span 1G --quiet >/dev/null || die "ssdrev run"
"$SSDREV" run "$M" --out "$T/run" --name seqw --rw write --bs 128k --iodepth 8 --span 4G --runtime 0 \
  --quiet >/dev/null || die "ssdrev run seqw"

"$SSDREV" analyze "$T/run" --percentiles 50,99,99.99 --interval 250ms >"$T/table" || die "analyze table"
[ -s "$T/run/analysis.json" ] || die "no analysis.json"
grep -q "^rr \[job\]" "$T/table" || die "table lacks test rr: $(head -5 "$T/table")"
grep -q "p99.99=" "$T/table" || die "table lacks p99.99"
grep -q "^  read " "$T/table" && grep -q "^  write " "$T/table" || die "mix not split into read and write"

"$SSDREV" analyze "$T/run" --json --quiet >"$T/quiet" || die "analyze --quiet"
[ ! -s "$T/quiet" ] || die "--quiet printed something"

"$SSDREV" analyze "$T/run" --json >"$T/a.json" || die "analyze --json"
/usr/bin/python3 - "$T/a.json" "$T/run/analysis.json" <<'PYEOF' || die "analysis JSON content"
import json, sys
a = json.load(open(sys.argv[1])); f = json.load(open(sys.argv[2]))
assert a["format"] == "ssdrev-analysis" and a == f
rr = a["tests"]["rr"]["ops"]
assert rr["all"]["ios"] == 20000, rr["all"]["ios"]
assert rr["read"]["ios"] + rr["write"]["ios"] == 20000
assert abs(rr["read"]["ios"] / 20000 - 0.7) < 0.03
assert [e["p"] for e in rr["all"]["pct"]] == [50, 90, 99, 99.9, 99.99, 99.999]
s = a["tests"]["seqw"]["series"]
assert len(s["t_s"]) == len(s["mb_s"]) >= 1
assert a["tests"]["seqw"]["ops"]["write"]["bytes"] == 4 << 30
PYEOF

"$SSDREV" analyze "$T/run" --csv "$T/a.csv" --quiet || die "analyze --csv"
head -1 "$T/a.csv" | grep -q '^"test","kind","op","ios",' || die "CSV header: $(head -1 "$T/a.csv")"
grep -q '^"rr","job","read",[0-9]' "$T/a.csv" || die "CSV lacks rr read row"
[ "$(wc -l < "$T/a.csv")" -eq 6 ] || die "CSV should have 1 + 5 rows (rr all/read/write, seqw all/write)"

"$SSDREV" analyze --log "$T/run/logs/rr.ssdlog" --percentiles 50 >"$T/log" || die "analyze --log"
grep -q "p50=" "$T/log" || die "--log table"
"$SSDREV" analyze --log "$T/run/logs/rr.ssdlog" --pct-only >"$T/pct" || die "--pct-only"
grep -q "^20000 samples" "$T/pct" || die "--pct-only sample count: $(head -1 "$T/pct")"
"$SSDREV" analyze "$T/run" --log x 2>/dev/null; [ $? -eq 2 ] || die "RUN_DIR with --log should exit 2"

# a flipped byte: refused naming the file and offset, accepted with --salvage
"$SSDREV" log synth "$T/c.ssdlog" --records 100000 --force >/dev/null || die "synth"
/usr/bin/python3 -c "
import sys
f = open(sys.argv[1], 'r+b'); f.seek(200000); b = f.read(1); f.seek(200000); f.write(bytes([b[0] ^ 0xff]))" "$T/c.ssdlog"
"$SSDREV" analyze --log "$T/c.ssdlog" 2>"$T/err" >/dev/null; [ $? -eq 1 ] || die "corrupt log should exit 1"
grep -q "c.ssdlog' at byte" "$T/err" || die "corrupt log error: $(cat "$T/err")"
"$SSDREV" analyze --log "$T/c.ssdlog" --salvage >"$T/salv" || die "--salvage should succeed"
grep -q "1 corrupt chunks (8192 records) skipped" "$T/salv" || die "--salvage warning missing"
exit 0
