#!/bin/sh
# --dut-json (issue 29 item 5): `import` takes it (the tools' JSON parsed as
# `review` parses it, overrides.json over it, the serial left out, --model
# over both, what the source names filling only the gaps), refuses a missing
# or bad one naming it and leaves no run; `review --dut-json DIR` with only an
# overrides.json overrides the named fields of the drive's own DUT instead of
# replacing it (model, link, temperatures, power states and the drive's
# capacity stay).
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
D=$R/samples/dut
"$SSDREV" import kdm "$R/samples/kdm/nvme-kdm3.2-target.txt" --dut-json "$D/pm981-256" --out "$T/files" >/dev/null 2>"$T/e" \
  || fail "import --dut-json PFX: $(cat "$T/e")"
mkdir "$T/ov"
printf '{"model": "Lab PM981", "controller": "Samsung Phoenix"}\n' >"$T/ov/overrides.json"
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --dut-json "$T/ov" --out "$T/ovonly" >/dev/null 2>"$T/e" \
  || fail "import --dut-json overrides only: $(cat "$T/e")"
"$SSDREV" import kdm "$R/samples/kdm/nvme-kdm3.2-target.txt" --dut-json "$D/pm981-256" --model "CLI model" --out "$T/cli" >/dev/null 2>"$T/e" \
  || fail "import --dut-json --model: $(cat "$T/e")"
/usr/bin/python3 - "$T" "$D" <<'PY' || exit 1
import json, sys
T, D = sys.argv[1], sys.argv[2]
def dut(n): return json.load(open("%s/%s/manifest.json" % (T, n)))["dut"]
ic = json.load(open(D + "/pm981-256.id-ctrl.json"))
d = dut("files")
# the id-ctrl's own text, not the KDiskMark Target line's model
if d.get("model") != ic["mn"].strip() or d.get("firmware") != ic["fr"].strip(): sys.exit("files: %s" % d)
if "serial" in d or ic["sn"].strip() in json.dumps(d): sys.exit("files: serial kept")
if not d.get("power_states"): sys.exit("files: no power states %s" % d)
d = dut("ovonly")
if d.get("model") != "Lab PM981" or d.get("controller") != "Samsung Phoenix": sys.exit("ovonly: %s" % d)
if not d.get("capacity_bytes"): sys.exit("ovonly: CDM capacity lost %s" % d)
if dut("cli").get("model") != "CLI model" or dut("cli").get("firmware") != ic["fr"].strip(): sys.exit("cli: %s" % dut("cli"))
PY
# refusals: nothing there, a bad override; exit 1, no run
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --dut-json "$T/none" --out "$T/r1" 2>"$T/e"
[ $? -eq 1 ] && grep -q "no DUT JSON at '$T/none'" "$T/e" || fail "missing --dut-json: $(cat "$T/e")"
mkdir "$T/bad"
printf '{"capacity_bytes": "big"}\n' >"$T/bad/overrides.json"
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --dut-json "$T/bad" --out "$T/r2" 2>"$T/e"
[ $? -eq 1 ] && grep -q "overrides.json of --dut-json $T/bad" "$T/e" && grep -q "capacity_bytes" "$T/e" || fail "bad override: $(cat "$T/e")"
[ ! -e "$T/r1" ] && [ ! -e "$T/r2" ] || fail "a refused --dut-json left a run"
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --dut-json 2>"$T/e"
[ $? -eq 2 ] || fail "--dut-json without a value: $(cat "$T/e")"
# review: overrides only, on a simulated drive
M=$R/samples/models/pm981-256.model
"$SSDREV" review "sim:$M" --profile cdm-real --short --passes 1 --out "$T/plain" --quiet >/dev/null 2>"$T/e" || fail "review: $(cat "$T/e")"
printf '{"model": "Lab name", "media": "Samsung V4 TLC"}\n' >"$T/ov2.overrides.json"
"$SSDREV" review "sim:$M" --profile cdm-real --short --passes 1 --out "$T/over" --dut-json "$T/ov2" --quiet >/dev/null 2>"$T/e" \
  || fail "review --dut-json overrides: $(cat "$T/e")"
/usr/bin/python3 - "$T" <<'PY' || exit 1
import json, sys
T = sys.argv[1]
a = json.load(open(T + "/plain/manifest.json"))["dut"]
b = json.load(open(T + "/over/manifest.json"))["dut"]
if b.get("model") != "Lab name" or b.get("media") != "Samsung V4 TLC": sys.exit("overrides not applied: %s" % b)
for k in a:
    if k not in ("model", "media") and b.get(k) != a[k]: sys.exit("review: %s %r became %r" % (k, a[k], b.get(k)))
for k in ("firmware", "link", "power_states", "capacity_bytes", "warn_temp_c"):
    if k not in b: sys.exit("review: %s lost: %s" % (k, b))
PY
echo ok
