#!/bin/sh
# ssdrev import cdm: the CrystalDiskMark samples import with one cdm test per
# cell; bad usage exits 2, a bad file exits 1 naming it.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
"$SSDREV" import --help | grep -q "ssdrev import cdm" || fail "--help"
"$SSDREV" import cdm "$R/samples/cdm/pm981-75pct-cdm8-mix.txt" --out "$T/r1" >"$T/o" 2>"$T/e" || fail "import: $(cat "$T/e")"
grep -q "imported 12 tests" "$T/o" || fail "output: $(cat "$T/o")"
/usr/bin/python3 - "$T/r1/manifest.json" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in m["tests"]}
c = t["cdm.RND4K_Q32T1.mix"]
assert c["kind"] == "cdm" and c["state"] == "75%" and c["op"] == "mix" and "log" not in c, c
assert abs(c["summary"]["mb_s"] - 402.777) < 1e-9 and abs(c["summary"]["lat_us"] - 325.31) < 1e-9, c
assert c["params"]["read_pct"] == 70 and c["params"]["qd"] == 32
assert m["source"]["kind"] == "cdm" and m["source"]["version"] == "8.0.4 x64", m["source"]
assert m["source"]["date"] == "2021/06/05 21:12:44" and m["label"] == "PM981 75%"
PY
"$SSDREV" import cdm "$R/samples/cdm/pm981a-fob-cdm9-nvme.txt" --out "$T/r2" --state FOB >/dev/null || fail "cdm9"
grep -q '"profile": "nvme"' "$T/r2/manifest.json" || fail "CDM 9 NVMe profile not recognised"
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --out "$T/r3" --logs x >/dev/null 2>&1
[ $? -eq 2 ] || fail "--logs on a cdm import must be a usage error"
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" >/dev/null 2>&1
[ $? -eq 2 ] || fail "missing --out must exit 2"
"$SSDREV" import nope x --out "$T/r4" 2>"$T/e"
[ $? -eq 2 ] && grep -q "unknown importer 'nope'" "$T/e" || fail "unknown importer"
printf 'just text\r\n' >"$T/bad.txt"
"$SSDREV" import cdm "$T/bad.txt" --out "$T/r5" 2>"$T/e"
[ $? -eq 1 ] && grep -q "bad.txt" "$T/e" || fail "bad file: $(cat "$T/e")"
"$SSDREV" import fio "$T/bad.txt" --out "$T/r6" 2>"$T/e"
[ $? -eq 1 ] && grep -q "no fio JSON" "$T/e" || fail "bad fio file: $(cat "$T/e")"
echo ok
