#!/bin/sh
# CrystalDiskMark: one drive's FOB and 75% files (with Mix) into one run by
# FILE:STATE; values kept exactly as the files wrote them (IOPS not recomputed),
# the tables printing them by the one rule (MB/s to 2 decimals);
# the Test line's capacity makes the capacity-based flag fire; the Date is the
# tests' time; the Mix section is shown (panel column and table, {{table cdm
# op=mix}}); an unusable directive argument is an error; fixtures of CDM 6-9
# and the Default, NVMe, Peak and Real profiles import with their own states;
# the bars chart says "not measured" for a state a run lacks.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
F=$R/tests/data/cdm
S=$R/samples/cdm
"$SSDREV" import cdm "$F/fixture-cdm8-default-fob-mix.txt:FOB" "$F/fixture-cdm8-default-75-mix.txt:75%" \
  --out "$T/fx" --label "Fixture 1TB" >"$T/fx.out" 2>&1 || fail "import two files: $(cat "$T/fx.out")"
grep -q "imported 24 tests from 2 files" "$T/fx.out" || fail "count: $(cat "$T/fx.out")"
"$SSDREV" import cdm "$S/pm981-fob-cdm8.txt:FOB" "$S/pm981-75pct-cdm8-mix.txt:75%" --out "$T/pm" --label PM981 \
  >"$T/pm.out" 2>&1 || fail "import pm981: $(cat "$T/pm.out")"
# a state per file and --state for all exclude each other
"$SSDREV" import cdm "$F/fixture-cdm8-default-fob-mix.txt:FOB" --state 75% --out "$T/bad" >/dev/null 2>&1
[ $? -eq 2 ] || fail "FILE:STATE with --state accepted"
"$SSDREV" analyze "$T/fx" >"$T/fx.an" 2>&1 || fail "analyze: $(cat "$T/fx.an")"
"$SSDREV" analyze "$T/pm" >"$T/pm.an" 2>&1 || fail "analyze pm: $(cat "$T/pm.an")"
/usr/bin/python3 - "$T" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
m = json.load(open(d + "/fx/manifest.json"))
if m["dut"]["capacity_bytes"] != 931 * 2**30: sys.exit("capacity %s" % m.get("dut"))
t = {x["name"]: x for x in m["tests"]}
q1 = t["fixture-cdm8-default-fob-mix.cdm.RND4K_Q1T1.read"]
if q1["state"] != "FOB" or q1["start"] != "2024-05-01T10:00:00Z" or q1["time_source"] != "imported": sys.exit("fob test %s" % q1)
if t["fixture-cdm8-default-75-mix.cdm.SEQ1M_Q8T1.mix"]["state"] != "75%": sys.exit("75% state")
a = json.load(open(d + "/fx/analysis.json"))
rows = {(r["state"], r["cell"]): r for r in a["cdm"]}
r = rows[("FOB", "RND4K Q1T1")]
# the file's 26633.4, not 109.091e6 / 4096 = 26633.5
if r["read"]["iops"] != 26633.4 or r["read"]["text"]["mb_s"] != "109.091": sys.exit("not as the file: %s" % r["read"])
if rows[("75%", "SEQ1M Q8T1")]["mix"]["text"]["mb_s"] != "3002.118": sys.exit("mix %s" % rows[("75%", "SEQ1M Q8T1")])
pm = json.load(open(d + "/pm/analysis.json"))
if "rnd_read_plateau" not in [f["id"] for f in pm["flags"]]: sys.exit("capacity flag did not fire: %s" % pm["flags"])
PY
# reports: the shipped single template, and both drives side by side
for t in single.en single.ko; do
  [ -f "$R/templates/$t.md" ] || continue
  "$SSDREV" report -t "$R/templates/$t.md" -o "$T/$t" "$T/fx" >"$T/$t.log" 2>&1 || fail "report $t: $(cat "$T/$t.log")"
  md=$T/$t/review.md
  grep -q '| RND4K Q1T1 | 109.09 | 301.46 | 26633.4 | 73597.4 | 37.52 | 13.55 |' "$md" || fail "$t: FOB values not the file's (MB/s to 2 decimals): $(grep 'RND4K Q1T1' "$md")"
  grep -q '| RND4K Q1T1 | 98.77 |' "$md" || fail "$t: 75% table missing"
  # the Mix table's header in the page's language
  case $t in *.ko) mix='| 테스트 | 혼합 \[MB/s\]' ;; *) mix='| Test | Mix \[MB/s\]' ;; esac
  grep -q "$mix" "$md" || fail "$t: no Mix table"
  grep -q '| SEQ1M Q8T1 | 5566.78 | 5308.9 | 1505.64 |' "$md" || fail "$t: Mix values: $(grep -A3 "$mix" "$md")"
done
for t in review.en review.ko; do
  "$SSDREV" report -t "$R/templates/$t.md" -o "$T/$t" "$T/fx" "$T/pm" >"$T/$t.log" 2>&1 || fail "report $t: $(cat "$T/$t.log")"
  grep -q 'RND4K Q32T1' "$T/$t/review.md" || fail "$t: no CDM table"
done
# a directive of our own: op=mix works, an unknown op or an unused argument fails
printf '# x\n\n{{table cdm op=mix state=75%%}}\n' >"$T/mix.md"
"$SSDREV" report -t "$T/mix.md" -o "$T/mix" "$T/fx" >"$T/mix.log" 2>&1 || fail "op=mix: $(cat "$T/mix.log")"
grep -q '| SEQ1M Q8T1 | 3002.12 | 2863.0 | 2792.63 |' "$T/mix/review.md" || fail "op=mix table: $(cat "$T/mix/review.md")"
grep -q 'Read \[MB/s\]' "$T/mix/review.md" && fail "op=mix printed the read/write table too"
printf '# x\n\n{{table cdm op=bogus}}\n' >"$T/bad.md"
"$SSDREV" report -t "$T/bad.md" -o "$T/bad" "$T/fx" >"$T/bad.log" 2>&1 && fail "op=bogus accepted"
grep -q "bad.md:3: .*op must be one of read write mix" "$T/bad.log" || fail "op=bogus message: $(cat "$T/bad.log")"
printf '# x\n\n{{table tail state=75%%}}\n' >"$T/bad2.md"
"$SSDREV" report -t "$T/bad2.md" -o "$T/bad2" "$T/fx" >"$T/bad2.log" 2>&1 && fail "table tail state= accepted"
grep -q "does not use state=" "$T/bad2.log" || fail "unused argument message: $(cat "$T/bad2.log")"
printf '# x\n\n{{chart cdm drive=1 op=write}}\n' >"$T/bad3.md"
"$SSDREV" report -t "$T/bad3.md" -o "$T/bad3" "$T/fx" >"$T/bad3.log" 2>&1 && fail "chart cdm op= accepted"
grep -q "bad3.md:3: chart cdm does not use op=" "$T/bad3.log" || fail "chart argument message: $(cat "$T/bad3.log")"
# bars: drawn when the first run lacks the 75% state (its bars say "not
# measured"; this used to refuse the chart, and a second such run drew empty bars)
"$SSDREV" import cdm "$F/fixture-cdm9-nvme-fob.txt" --out "$T/nv" >/dev/null 2>&1 || fail "import nvme"
"$SSDREV" chart bars "$T/nv" "$T/fx" --state 75% --out "$T/bars.png" >"$T/bars.log" 2>&1 || fail "bars: $(cat "$T/bars.log")"
[ -s "$T/bars.png" ] || fail "bars: no chart"
# every version and profile of the fixtures
for f in fixture-cdm6-75 fixture-cdm7-fob fixture-cdm9-nvme-fob fixture-cdm9-peak-75 fixture-cdm9-real-fob; do
  "$SSDREV" import cdm "$F/$f.txt" --out "$T/$f" >"$T/$f.out" 2>&1 || fail "import $f: $(cat "$T/$f.out")"
done
/usr/bin/python3 - "$T" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
want = {"fixture-cdm6-75": ("default", "75%", 8), "fixture-cdm7-fob": ("default", None, 6),
        "fixture-cdm9-nvme-fob": ("nvme", "FOB", 8), "fixture-cdm9-peak-75": ("peak", None, 4),
        "fixture-cdm9-real-fob": ("real", None, 4)}
for n, (prof, state, ntests) in want.items():
    m = json.load(open("%s/%s/manifest.json" % (d, n)))
    ts = m["tests"]
    if len(ts) != ntests or {t["profile"] for t in ts} != {prof} or m.get("state") != state:
        sys.exit("%s: %d tests, profiles %s, state %r" % (n, len(ts), {t["profile"] for t in ts}, m.get("state")))
m = json.load(open(d + "/fixture-cdm6-75/manifest.json"))
if abs(m["dut"]["capacity_bytes"] - 931.0 * 2**30) > 1: sys.exit("cdm6 capacity %s" % m["dut"])
PY
exit 0
