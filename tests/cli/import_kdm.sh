#!/bin/sh
# ssdrev import kdm: KDiskMark text reports of every layout (1.4: no version
# line, "yyyy/MM/dd", Q width 2; 2.0: version and fio lines, Peak + Mix;
# 3.1: "yyyy-MM-dd", Measure in the Test line, widths 3; 3.2: Target line
# with the model) import with CrystalDiskMark's cells, values exactly as
# written, profile, Mix ratio, state and measured_at; a CrystalDiskMark file
# given to `import kdm`, and a cut row, are refused naming the file.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
K=$R/samples/kdm
for f in sata-kdm1.4 nvme-kdm2.0-peak-mix nvme-kdm3.1-75pct nvme-kdm3.2-target; do
  st=; [ "$f" = nvme-kdm3.1-75pct ] && st="--state 75%"
  # shellcheck disable=SC2086
  "$SSDREV" import kdm "$K/$f.txt" --out "$T/$f" $st >"$T/$f.out" 2>"$T/$f.err" || fail "import $f: $(cat "$T/$f.err")"
done
/usr/bin/python3 - "$T" "$K" <<'PY' || exit 1
import json, re, sys
T, K = sys.argv[1], sys.argv[2]
row = re.compile(r"^\s*(Sequential|Random)\s+(\d+) (MiB|KiB) \(Q=\s*(\d+), T=\s*(\d+)\):\s+(\S+) MB/s \[\s*(\S+) IOPS\] <\s*(\S+) us>$")
def check(name, profile, version, date, measured, ntests, mix_pct=None, state=None, model=None, fio=None):
    m = json.load(open("%s/%s/manifest.json" % (T, name)))
    t = {x["name"]: x for x in m["tests"]}
    src = m["source"]
    if src["kind"] != "kdm" or src.get("tool") != "KDiskMark": sys.exit("%s: source %s" % (name, src))
    if src.get("version") != version or src.get("date") != date or src.get("fio_version") != fio:
        sys.exit("%s: version/date/fio %s" % (name, src))
    if m.get("measured_at") != measured: sys.exit("%s: measured_at %r" % (name, m.get("measured_at")))
    if m.get("state") != state: sys.exit("%s: state %r" % (name, m.get("state")))
    if (m.get("dut") or {}).get("model") != model: sys.exit("%s: dut %r" % (name, m.get("dut")))
    if len(t) != ntests: sys.exit("%s: %d tests %s" % (name, len(t), sorted(t)))
    # every row of the file is a test with exactly the file's digits
    sec, seen = None, 0
    for line in open("%s/%s.txt" % (K, name)).read().split("\n"):
        if line.startswith("["): sec = line[1:line.index("]")].lower(); continue
        r = row.match(line)
        if not r: continue
        pat, sz, unit, q, th, mb, iops, lat = r.groups()
        cell = "%s%s%s Q%sT%s" % ("SEQ" if pat == "Sequential" else "RND", sz, unit[0], q, th)
        x = t.get("cdm.%s.%s" % (cell.replace(" ", "_"), sec))
        if x is None: sys.exit("%s: no test for %s %s" % (name, cell, sec))
        s, p = x["summary"], x["params"]
        if s["text"] != {"mb_s": mb, "iops": iops, "lat_us": lat}: sys.exit("%s %s: text %s" % (name, cell, s["text"]))
        if (s["mb_s"], s["iops"], s["lat_us"]) != (float(mb), float(iops), float(lat)): sys.exit("%s %s: %s" % (name, cell, s))
        bs = int(sz) * (1048576 if unit == "MiB" else 1024)
        rp = {"read": 100, "write": 0, "mix": mix_pct}[sec]
        if (p["block_bytes"], p["qd"], p["threads"], p["read_pct"], p["engine"]) != (bs, int(q), int(th), rp, "kdiskmark"):
            sys.exit("%s %s: params %s" % (name, cell, p))
        if x["profile"] != profile or x["kind"] != "cdm" or x["cell"] != cell: sys.exit("%s %s: %s" % (name, cell, x))
        if x.get("state") != state: sys.exit("%s %s: state %r" % (name, cell, x.get("state")))
        seen += 1
    if seen != ntests: sys.exit("%s: %d rows, %d tests" % (name, seen, ntests))
    return m, t
check("sata-kdm1.4", "default", None, "2020/07/14 19:02:33", "2020-07-14T19:02:33", 8)
check("nvme-kdm2.0-peak-mix", "peak", "2.0.0", "2020/11/02 08:41:17", "2020-11-02T08:41:17", 6, mix_pct=70, fio="fio-3.21")
m, t = check("nvme-kdm3.1-75pct", "default", "3.1.4", "2024-03-09 22:15:08", "2024-03-09T22:15:08", 8,
             state="75%", fio="fio-3.33")
if t["cdm.SEQ1M_Q8T1.read"]["params"]["measure_ns"] != 5 * 10**9: sys.exit("3.1: measure %s" % t["cdm.SEQ1M_Q8T1.read"]["params"])
m, t = check("nvme-kdm3.2-target", "nvme", "3.2.0", "2025-06-21 07:03:44", "2025-06-21T07:03:44", 8,
             model="Samsung SSD 990 PRO 1TB", fio="fio-3.37")
if t["cdm.SEQ1M_Q8T1.read"]["params"]["measure_ns"] != 60 * 10**9: sys.exit("3.2: measure")
if m["source"]["target"] != "/home 41% (380.21/931.51 GiB) [Samsung SSD 990 PRO 1TB]": sys.exit("3.2: target %s" % m["source"])
PY
# the model given on the command line wins over the Target line
"$SSDREV" import kdm "$K/nvme-kdm3.2-target.txt" --model "Lab 990" --out "$T/own" >/dev/null 2>"$T/e" || fail "--model: $(cat "$T/e")"
grep -q '"model": "Lab 990"' "$T/own/manifest.json" || fail "--model not kept"
# a CrystalDiskMark file is not a KDiskMark report
"$SSDREV" import kdm "$R/samples/cdm/pm981-fob-cdm8.txt" --out "$T/cdm" 2>"$T/e"
[ $? -eq 1 ] && grep -q "pm981-fob-cdm8.txt' is not a KDiskMark report" "$T/e" || fail "cdm as kdm: $(cat "$T/e")"
[ ! -e "$T/cdm" ] || fail "a refused file left a run"
# a row cut after MB/s is refused, naming the file and line (KDiskMark writes all three values on every row)
sed '8s/ MB\/s \[.*$//' "$K/nvme-kdm3.2-target.txt" >"$T/cut.txt"
"$SSDREV" import kdm "$T/cut.txt" --out "$T/cut" 2>"$T/e"
[ $? -eq 1 ] && grep -q "cut.txt' line 8: .*(a cut row?)" "$T/e" || fail "cut row: $(cat "$T/e")"
[ ! -e "$T/cut" ] || fail "a cut file left a run"
# the old report of the issue: refused before, imported now
printf '[Read]\nSequential 1 MiB (Q= 8, T= 1): 528.053 MB/s [ 503.6 IOPS] < 15867.98 us>\n' >"$T/issue.txt"
printf '                        KDiskMark (3.1.2): https://github.com/JonMagon/KDiskMark\n' | cat - "$T/issue.txt" >"$T/issue2.txt"
"$SSDREV" import kdm "$T/issue2.txt" --out "$T/issue" >/dev/null 2>"$T/e" || fail "issue row: $(cat "$T/e")"
grep -q '"mb_s": "528.053"' "$T/issue/manifest.json" || fail "issue row value"
echo ok
