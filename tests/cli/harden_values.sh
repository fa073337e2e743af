#!/bin/sh
# Hostile values (docs/hardening.md, "Hostile values"), through the CLI:
#  1. a log record whose submit + latency passes 2^63 ns: `analyze --log`
#     exits 1 naming file and record; in an archive the test carries the
#     error and `compare` skips the run (it used to loop ~10^10 times and
#     abort); a record near 2^63 ns that does not wrap analyzes cheaply.
#  2. `analyze --interval 1ns` on a small archive: at most 1,000,000 bins
#     per series (6.4 GB RSS before).
#  3. a 20,000-row CrystalDiskMark file imports (the import was quadratic:
#     30 s; timings are in docs/hardening.md, not checked here); 1e308 MB/s
#     is refused naming file and line.
#  5. `dut` refuses 100,000 power states, a smart-log without SMART keys and
#     a wrongly typed override, naming file and key.
#  6. a template with 100 chart directives writes 100 distinct chart files.
#  7. a chart whose log axis gets zeros, negatives and denormals: no UBSan
#     report (signed overflow in render/chart/canvas.c before).
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "harden_values: FAIL: $*" >&2; exit 1; }
nosan() { grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$1" && fail "$2: sanitizer report: $(head -n 3 "$1")"; return 0; }
R="$ROOT/tests/fuzz/regress/logstats"

# ---------------------------------------------------------------- 1. logs
"$SSDREV" run "sim:$ROOT/samples/models/pm981-256.model" --out "$T/a" --rw randread --bs 4k --iodepth 4 \
  --number-ios 2000 --quiet >/dev/null 2>"$T/err" || fail "sim run: $(cat "$T/err")"
log=$(ls "$T/a/logs/"*.ssdlog | head -n 1)
"$SSDREV" analyze --log "$R/submit-lat-wraps.ssdlog" >/dev/null 2>"$T/err"; rc=$?
nosan "$T/err" "analyze --log of a wrapping record"
[ $rc -eq 1 ] || fail "analyze --log of a wrapping record: exit $rc, expected 1"
grep -q "impossible record 40 in '.*submit-lat-wraps.ssdlog'.*beyond 2^63" "$T/err" \
  || fail "analyze --log message: $(cat "$T/err")"
"$SSDREV" analyze --log "$R/offset-beyond-2p63.ssdlog" --fill >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "offset_bytes 18446744073709551515" "$T/err" || fail "--fill offset: exit $rc: $(cat "$T/err")"
cp -r "$T/a" "$T/b"
cp "$R/submit-lat-wraps.ssdlog" "$T/b/logs/$(basename "$log")"
"$SSDREV" analyze "$T/b" >/dev/null 2>"$T/err"
nosan "$T/err" "analyze of the hostile archive"
grep -q "impossible record 40" "$T/b/analysis.json" || fail "the hostile archive's test carries no error"
"$SSDREV" compare "$T/a" "$T/b" --out "$T/cmp" >/dev/null 2>"$T/err"; rc=$?
nosan "$T/err" "compare with the hostile archive"
[ $rc -le 1 ] || fail "compare with the hostile archive: exit $rc (abort?)"
grep -q "skipping '$T/b'" "$T/err" || fail "compare does not say it skipped the hostile run: $(cat "$T/err")"
cp -r "$T/a" "$T/n"
cp "$R/submit-near-2p63.ssdlog" "$T/n/logs/$(basename "$log")"
"$SSDREV" analyze "$T/n" >/dev/null 2>"$T/err" || fail "analyze of a record near 2^63 ns: $(cat "$T/err")"
nosan "$T/err" "analyze of a record near 2^63 ns"

# ---------------------------------------------------------------- 2. --interval 1ns
"$SSDREV" analyze "$T/a" --interval 1ns >/dev/null 2>"$T/err" || fail "--interval 1ns: $(cat "$T/err")"
nosan "$T/err" "--interval 1ns"
python3 - "$T/a/analysis.json" <<'EOF' || fail "--interval 1ns: a series over 1,000,000 points"
import json, sys
a = json.load(open(sys.argv[1]))
for t in a["tests"].values():
    s = t.get("series")
    if s is not None and not 0 < len(s["t_s"]) <= 1000000:
        sys.exit(1)
EOF

# ---------------------------------------------------------------- 3. CDM
{
  printf 'CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo\n\n[Read]\n'
  awk 'BEGIN { for (i = 1; i <= 20000; i++)
    printf "  RND    4KiB (Q=%5d, T= 1):  %d.5 MB/s [ 100.0 IOPS] <  50.00 us>\n", i, i % 5000 + 1 }'
  printf '\nProfile: Default\n   Test: 1 GiB (x5)\n'
} >"$T/big.txt"
"$SSDREV" import cdm "$T/big.txt" --out "$T/cdm" >/dev/null 2>"$T/err" || fail "20,000-row CDM import: $(cat "$T/err")"
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["tests"]))' "$T/cdm/manifest.json")
[ "$n" = 20000 ] || fail "20,000-row CDM import: $n tests"
printf '[Read]\n  SEQ    1MiB (Q=  8, T= 1):  1e308 MB/s [ 1.0 IOPS] <  5.00 us>\n' >"$T/e308.txt"
"$SSDREV" import cdm "$T/e308.txt" --out "$T/e308" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "e308.txt' line 2: MB/s value '1e308'" "$T/err" || fail "1e308 MB/s: exit $rc: $(cat "$T/err")"
[ ! -e "$T/e308" ] || fail "a refused CDM file left an archive"

# ---------------------------------------------------------------- 5. DUT
python3 -c 'import json; print(json.dumps({"mn": "X", "psds": [{"max_power": 100}] * 100000}))' >"$T/idc.json"
"$SSDREV" dut --id-ctrl "$T/idc.json" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "idc.json'.*at most 32 power state" "$T/err" || fail "100,000 power states: exit $rc: $(cat "$T/err")"
printf '{"mn": "X", "psds": [{"max_power": -702}]}\n' >"$T/neg.json"
"$SSDREV" dut --id-ctrl "$T/neg.json" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "'psds\[0\].max_power' = -702" "$T/err" || fail "negative power: exit $rc: $(cat "$T/err")"
printf '{"foo": 1}\n' >"$T/sl.json"
"$SSDREV" dut --smart-log "$T/sl.json" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "sl.json': no key 'critical_warning'" "$T/err" || fail "smart-log {foo}: exit $rc: $(cat "$T/err")"
printf '{"model": 5}\n' >"$T/ov.json"
"$SSDREV" dut --id-ctrl "$ROOT/samples/dut/pm981-256.id-ctrl.json" --overrides "$T/ov.json" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "ov.json': key 'model' = 5 must be a string" "$T/err" || fail "override model=5: exit $rc: $(cat "$T/err")"

# ---------------------------------------------------------------- 6. 100 charts
i=0
: >"$T/t100.md"
while [ $i -lt 100 ]; do echo '{{chart tail}}' >>"$T/t100.md"; i=$((i+1)); done
"$SSDREV" report --template "$T/t100.md" --out "$T/rep" --format md --dpi 40 "$ROOT/tests/data/analysis/pm981" \
  >/dev/null 2>"$T/err" || fail "100-chart template: $(cat "$T/err")"
nosan "$T/err" "100-chart template"
n=$(ls "$T/rep/charts/"*.png | wc -l)
[ "$n" -eq 100 ] || fail "100 chart directives wrote $n PNG files"
links=$(grep -o 'charts/[^)]*\.png' "$T/rep/review.md" | sort -u | wc -l)
[ "$links" -eq 100 ] || fail "100 chart directives link $links distinct files"

# ---------------------------------------------------------------- 7. log axis
cp -r "$ROOT/tests/data/analysis/pm981" "$T/z"
python3 - "$T/z/analysis.json" <<'EOF' || fail "cannot edit analysis.json"
import json, sys
p = sys.argv[1]
a = json.load(open(p))
for t in a["tests"].values():
    s = t.get("series")
    if s and "p50_us" in s:  # 5e-324 us rounds the axis' lower bound to 0
        s["p50_us"] = [(5e-324, 0, -5)[i % 3] for i in range(len(s["p50_us"]))]
        s["p99_us"] = [150] * len(s["p99_us"])
for w in a["tail"].values():
    for k in w:
        w[k] = 5e-324
f = a["fill"]["per_gib"]
f["lat_mean_us"] = [(5e-324, -1, 0)[i % 3] for i in range(len(f["gib"]))]
json.dump(a, open(p, "w"))
EOF
for k in latency tail fill_latency; do
  "$SSDREV" chart "$k" "$T/z" --out "$T/z-$k.svg" >/dev/null 2>"$T/err" || fail "chart $k of zeros: $(cat "$T/err")"
  nosan "$T/err" "chart $k with zeros/negatives on a log axis"
done
exit 0
