#!/bin/sh
# compare --baseline GROUP --gate PCT (issue 25 item 3): exit 3 when a
# headline figure of a group is worse than the baseline's by more than PCT
# and beyond the noise (Welch, p < 0.05), with verdict.json and the report
# naming it; exit 0 on a set compared with itself, a group of one run
# however different named as not tested (never tested at n = 1); exit 4 and
# verdict "untested" when nothing at all could be tested; bad usage exits 2.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$R/samples/cdm/pm981-fob-cdm8.txt
F="$T/lab"
mkdir -p "$F"
imp() { "$SSDREV" import "$@" >/dev/null 2>"$T/e" || fail "import $*: $(cat "$T/e")"; }
# units of one model with real spread in SEQ1M Q8T1 read (3531.284 in the
# sample) and RND4K Q1T1 read (47.617); FW200 reads sequentially ~4% slower
unit() { # NAME FIRMWARE SEQ RND
  sed "s/3531.284 MB\/s/$3 MB\/s/; s/47.617 MB\/s/$4 MB\/s/" "$C" >"$T/$1.txt"
  imp cdm "$T/$1.txt" --out "$F/$1" --model PM981 --firmware "$2"
}
unit a1 FW100 3531.284 47.617
unit a2 FW100 3520.110 47.402
unit a3 FW100 3544.905 47.880
unit b1 FW200 3390.402 47.551
unit b2 FW200 3402.771 47.790
unit b3 FW200 3371.950 47.302
# the same figures as FW100's under another firmware name: the set against itself
unit c1 FW101 3531.284 47.617
unit c2 FW101 3520.110 47.402
unit c3 FW101 3544.905 47.880
# one run, far slower: n = 1 is never beyond the noise
unit d1 FW300 2000.000 30.000
B="PM981 · FW100 · FOB"
"$SSDREV" compare "$F" --out "$T/o1" --format md,csv --baseline "$B" --gate 2 >"$T/o" 2>"$T/e"
rc=$?
[ $rc -eq 3 ] || fail "regression: exit $rc, want 3: $(cat "$T/e")"
grep -q "gate failed: 1 figure worse than the baseline by more than 2%" "$T/e" || fail "gate message: $(cat "$T/e")"
[ -s "$T/o1/compare.md" ] && [ -s "$T/o1/groups.csv" ] || fail "a failed gate still writes the outputs"
grep -q "^## Gate" "$T/o1/compare.md" && grep -q "Failed: figures worse than the baseline.s by more than 2% and beyond the noise: 1\." "$T/o1/compare.md" || fail "no gate section"
grep -q "^| PM981 · FW200 · FOB | SEQ1M Q8T1 read, FOB (default) \[MB/s\] | 3 | −4.1% | \[−5.0, −3.2\]% | 0.0003 |" "$T/o1/compare.md" \
  || fail "gate table: $(grep -A4 '^## Gate' "$T/o1/compare.md")"
/usr/bin/python3 - "$T/o1/verdict.json" <<'PY' || exit 1
import json, sys
v = json.load(open(sys.argv[1]))
assert v["format"] == "ssdrev-compare-verdict" and v["verdict"] == "fail" and v["gate_pct"] == 2, v
assert v["baseline"] == "PM981 · FW100 · FOB", v
r = v["regressions"]
assert len(r) == 1, r
r = r[0]
assert r["group"] == "PM981 · FW200 · FOB" and r["test"] == "FOB default SEQ1M Q8T1" and r["metric"] == "read_mb_s", r
# (3388.374 - 3532.100) / 3532.100
assert abs(r["diff_pct"] - (-4.069190)) < 1e-3 and r["p_welch"] < 0.05 and r["n"] == 3 and r["baseline_n"] == 3, r
assert r["diff_ci95_lo_pct"] < r["diff_pct"] < r["diff_ci95_hi_pct"] < -2, r
PY
# a tolerance wider than the regression passes
"$SSDREV" compare "$F" --out "$T/o2" --format csv --baseline "$B" --gate 5 >"$T/o" 2>"$T/e"
rc=$?
[ $rc -eq 0 ] || fail "gate 5%: exit $rc: $(cat "$T/e")"
grep -q "gate passed" "$T/o" || fail "pass message: $(cat "$T/o")"
grep -q '"verdict": "pass"' "$T/o2/verdict.json" && grep -q '"regressions": \[\]' "$T/o2/verdict.json" \
  || fail "pass verdict: $(cat "$T/o2/verdict.json")"
# the set compared with itself (FW101 holds FW100's figures) and the n = 1 group: pass at 0%,
# the n = 1 group named as not tested
"$SSDREV" compare "$F" --out "$T/o3" --format md,csv --baseline "$B" --gate 0 --where 'firmware!=FW200' >"$T/o" 2>"$T/e"
rc=$?
[ $rc -eq 0 ] || fail "self compare: exit $rc: $(cat "$T/e") $(cat "$T/o3/verdict.json")"
grep -q "^Passed: .* Not tested (fewer than 2 samples of any figure shared with the baseline): PM981 · FW300 · FOB\.$" \
  "$T/o3/compare.md" || fail "self compare: gate section: $(grep -A3 '^## Gate' "$T/o3/compare.md")"
/usr/bin/python3 - "$T/o3/verdict.json" <<'PY' || exit 1
import json, sys
v = json.load(open(sys.argv[1]))
# FW101: 2 headline figures x ... every CDM cell of both groups of 3 runs
assert v["verdict"] == "pass" and v["tested"] > 0 and v["untested_groups"] == ["PM981 · FW300 · FOB"], v
PY
# nothing testable (issue 25 round 2 item 3): groups of one run each, and
# the baseline alone: "not tested", verdict "untested", exit 4 -- never a pass
mkdir -p "$T/one"
cp -r "$F/a1" "$F/d1" "$T/one/"
for set in one alone; do
  [ $set = one ] && w=model=PM981 || w=firmware=FW100
  "$SSDREV" compare "$T/one" --out "$T/u$set" --format md --baseline "$B" --gate 2 --where "$w" >"$T/o" 2>"$T/e"
  rc=$?
  [ $rc -eq 4 ] || fail "$set: untested gate: exit $rc, want 4: $(cat "$T/e")"
  grep -q "gate not tested: no headline figure has 2 or more samples" "$T/e" || fail "$set: message: $(cat "$T/e")"
  grep -q "gate passed" "$T/o" && fail "$set: an untested gate said passed"
  grep -q "^Not tested: no headline figure could be tested against the baseline" "$T/u$set/compare.md" \
    || fail "$set: gate section: $(grep -A3 '^## Gate' "$T/u$set/compare.md")"
  grep -q "^Passed" "$T/u$set/compare.md" && fail "$set: report says Passed"
  /usr/bin/python3 - "$T/u$set/verdict.json" $set <<'PY' || exit 1
import json, sys
v = json.load(open(sys.argv[1]))
want = ["PM981 · FW300 · FOB"] if sys.argv[2] == "one" else []
assert v["format_version"] == 2 and v["verdict"] == "untested" and v["tested"] == 0 and v["regressions"] == [] and v["untested_groups"] == want, v
PY
done
"$SSDREV" compare "$T/one" --out "$T/uko" --format md --lang ko --baseline "$B" --gate 2 >/dev/null 2>&1
[ $? -eq 4 ] && grep -q "^검정하지 못함: " "$T/uko/compare.md" || fail "Korean untested gate: $(grep -A3 '^## 게이트' "$T/uko/compare.md")"
# without the gate the regression is reported but the exit stays 0
"$SSDREV" compare "$F" --out "$T/o4" --format csv --baseline "$B" >/dev/null 2>&1 || fail "no gate: not 0"
[ ! -e "$T/o4/verdict.json" ] || fail "verdict.json without --gate"
# bad usage
"$SSDREV" compare "$F" --out "$T/o5" --gate 2 >/dev/null 2>"$T/e"
[ $? -eq 2 ] && grep -q "needs --baseline" "$T/e" || fail "gate without baseline: $(cat "$T/e")"
for bad in abc -1 1001 ''; do
  "$SSDREV" compare "$F" --out "$T/o5" --baseline "$B" --gate "$bad" >/dev/null 2>"$T/e"
  [ $? -eq 2 ] && grep -q -- "--gate: expected a percentage" "$T/e" || fail "--gate '$bad': $(cat "$T/e")"
done
echo ok
