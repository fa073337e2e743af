#!/bin/sh
# ssdrev import cdm: every CrystalDiskMark "Save text" layout in samples/cdm
# (CDM 6 rows named by operation with its comment after OS; CDM 7 long names;
# CDM 8 NVMe SSD set + Mix without a Comment and with unrun 0.000 cells;
# Peak, Real World and Demo profiles) imports with the right cells, profile,
# block sizes and values; CDM 3 to 5 map to the nearest cells.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$R/samples/cdm
for f in sata-cdm6 nvme-cdm7 nvme-cdm8-nvme-mix-nocomment nvme-cdm8-peak nvme-cdm9-real nvme-cdm8-demo; do
  grep -q "$(printf '\r')$" "$C/$f.txt" || fail "$f.txt must have CRLF line ends"
  "$SSDREV" import cdm "$C/$f.txt" --out "$T/$f" >"$T/$f.out" 2>"$T/$f.err" || fail "import $f: $(cat "$T/$f.err")"
done
grep -q "cell RND4K Q1T1 write is 0 MB/s (not run); skipped" "$T/nvme-cdm8-nvme-mix-nocomment.err" \
  || fail "unrun cells not reported: $(cat "$T/nvme-cdm8-nvme-mix-nocomment.err")"
/usr/bin/python3 - "$T" <<'PY' || exit 1
import json, sys
def load(name):
    m = json.load(open("%s/%s/manifest.json" % (sys.argv[1], name)))
    return m, {t["name"]: t for t in m["tests"]}
def check(name, ntests, profile, label, state, cells):
    m, t = load(name)
    if len(t) != ntests: sys.exit("%s: %d tests: %s" % (name, len(t), sorted(t)))
    if m.get("label") != label or m.get("state") != state: sys.exit("%s: label %r state %r" % (name, m.get("label"), m.get("state")))
    for n, (bs, qd, th, rp, mb, iops, lat) in cells.items():
        x = t.get(n)
        if x is None: sys.exit("%s: no %s in %s" % (name, n, sorted(t)))
        p, s = x["params"], x["summary"]
        if x["profile"] != profile: sys.exit("%s %s: profile %s" % (name, n, x["profile"]))
        if (p["block_bytes"], p["qd"], p["threads"], p["read_pct"]) != (bs, qd, th, rp): sys.exit("%s %s: %s" % (name, n, p))
        if abs(s["mb_s"] - mb) > 1e-9 or (iops is None) != ("iops" not in s) or (lat is None) != ("lat_us" not in s):
            sys.exit("%s %s: %s" % (name, n, s))
        if iops is not None and abs(s["iops"] - iops) > 1e-9: sys.exit("%s %s: iops %s" % (name, n, s))
        if lat is not None and abs(s["lat_us"] - lat) > 1e-9: sys.exit("%s %s: lat %s" % (name, n, s))
    return m
m = check("sata-cdm6", 8, "default", "SATA SSD FOB", "FOB", {
    "cdm.SEQ128K_Q32T1.read": (131072, 32, 1, 100, 562.114, None, None),
    "cdm.RND4K_Q8T8.write": (4096, 8, 8, 0, 355.208, 86720.7, None),
    "cdm.RND4K_Q1T1.read": (4096, 1, 1, 100, 41.35, 10095.2, None)})
if m["source"]["version"] != "6.0.2 x64" or m["source"]["date"] != "2019/03/11 9:05:41": sys.exit("cdm6 source %s" % m["source"])
m = check("nvme-cdm7", 8, "default", "NVMe 50% full", "50%", {
    "cdm.SEQ1M_Q1T1.write": (1048576, 1, 1, 0, 2102.304, 2004.9, 498.33),
    "cdm.RND4K_Q32T16.read": (4096, 32, 16, 100, 1604.118, 391630.4, 1306.11)})
if "<DefaultAffinity=DISABLED>" not in m["source"]["test"]: sys.exit("cdm7 test line")
m = check("nvme-cdm8-nvme-mix-nocomment", 8, "nvme", None, None, {
    "cdm.SEQ128K_Q32T1.read": (131072, 32, 1, 100, 3560.119, 27161.7, 1177.5),
    "cdm.RND4K_Q32T16.mix": (4096, 32, 16, 70, 611.9, 149389.6, 3409.71)})
if any(n.endswith(".write") for n in load("nvme-cdm8-nvme-mix-nocomment")[1]): sys.exit("0 MB/s cells imported")
check("nvme-cdm8-peak", 4, "peak", "FOB peak", "FOB", {
    "cdm.RND4K_Q32T16.write": (4096, 32, 16, 0, 1502.871, 366911.9, 1393.7)})
check("nvme-cdm9-real", 4, "real", "75% full real-world", "75%", {
    "cdm.SEQ1M_Q1T1.read": (1048576, 1, 1, 100, 2299.37, 2192.8, 455.62)})
check("nvme-cdm8-demo", 2, "demo", "demo", None, {
    "cdm.SEQ1M_Q8T1.write": (1048576, 8, 1, 0, 2466.12, 2351.9, 3397.48)})
PY
# CrystalDiskMark 3 ("Sequential Read :", "Random Read 4KB (QD=32)") and 4/5
# ("Sequential Read (T= 1)") map to the nearest cells (docs/interop.md), with
# the file's digits, comment, state and date (issue 29 item 3)
for f in sata-cdm3 old-cdm5; do
  "$SSDREV" import cdm "$C/$f.txt" --out "$T/$f" >/dev/null 2>"$T/e" || fail "import $f: $(cat "$T/e")"
done
/usr/bin/python3 - "$T" <<'PY' || exit 1
import json, sys
def check(name, version, label, state, date, measured, cells):
    m = json.load(open("%s/%s/manifest.json" % (sys.argv[1], name)))
    t = {x["name"]: x for x in m["tests"]}
    if len(t) != len(cells): sys.exit("%s: %d tests %s" % (name, len(t), sorted(t)))
    if (m["source"]["version"], m.get("label"), m.get("state"), m["source"]["date"], m.get("measured_at")) != \
       (version, label, state, date, measured):
        sys.exit("%s: %s %s %s %s" % (name, m["source"], m.get("label"), m.get("state"), m.get("measured_at")))
    for n, (bs, qd, th, text) in cells.items():
        x = t.get(n)
        if x is None: sys.exit("%s: no %s in %s" % (name, n, sorted(t)))
        p = x["params"]
        if (p["block_bytes"], p["qd"], p["threads"]) != (bs, qd, th): sys.exit("%s %s: %s" % (name, n, p))
        if x["summary"]["text"] != text: sys.exit("%s %s: %s" % (name, n, x["summary"]))
        if x["start"] != measured + "Z": sys.exit("%s %s: start %s" % (name, n, x["start"]))
check("sata-cdm3", "3.0.3 x64", "Samsung 840 Pro 128GB FOB", "FOB", "2013/02/17 21:08:55", "2013-02-17T21:08:55", {
    "cdm.SEQ1M_Q1T1.read": (1048576, 1, 1, {"mb_s": "505.825"}),
    "cdm.SEQ1M_Q1T1.write": (1048576, 1, 1, {"mb_s": "472.316"}),
    "cdm.RND512K_Q1T1.read": (524288, 1, 1, {"mb_s": "418.663"}),
    "cdm.RND512K_Q1T1.write": (524288, 1, 1, {"mb_s": "441.507"}),
    "cdm.RND4K_Q1T1.read": (4096, 1, 1, {"mb_s": "28.114", "iops": "6863.8"}),
    "cdm.RND4K_Q1T1.write": (4096, 1, 1, {"mb_s": "79.402", "iops": "19385.3"}),
    "cdm.RND4K_Q32T1.read": (4096, 32, 1, {"mb_s": "351.968", "iops": "85929.8"}),
    "cdm.RND4K_Q32T1.write": (4096, 32, 1, {"mb_s": "297.611", "iops": "72658.1"})})
check("old-cdm5", "5.2.1 x64", "SATA SSD 75%", "75%", "2017/04/10 9:21:47", "2017-04-10T09:21:47", {
    "cdm.SEQ128K_Q32T1.read": (131072, 32, 1, {"mb_s": "555.904"}),
    "cdm.SEQ128K_Q32T1.write": (131072, 32, 1, {"mb_s": "515.834"}),
    "cdm.RND4K_Q32T1.read": (4096, 32, 1, {"mb_s": "386.573", "iops": "94378.2"}),
    "cdm.RND4K_Q32T1.write": (4096, 32, 1, {"mb_s": "338.104", "iops": "82545.9"}),
    "cdm.SEQ1M_Q1T1.read": (1048576, 1, 1, {"mb_s": "498.338"}),
    "cdm.SEQ1M_Q1T1.write": (1048576, 1, 1, {"mb_s": "499.290"}),
    "cdm.RND4K_Q1T1.read": (4096, 1, 1, {"mb_s": "33.180", "iops": "8100.6"}),
    "cdm.RND4K_Q1T1.write": (4096, 1, 1, {"mb_s": "89.563", "iops": "21866.1"})})
PY
# an old row with parameters no CrystalDiskMark wrote, or a cut one, is refused naming the line
sed 's/Random Read 4KB (QD=32)/Random Read 4KB (XY=32)/' "$C/sata-cdm3.txt" >"$T/bad3.txt"
"$SSDREV" import cdm "$T/bad3.txt" --out "$T/bad3" 2>"$T/e"
[ $? -eq 1 ] && grep -q "bad3.txt' line 13: unknown test parameters" "$T/e" || fail "bad CDM 3 row: $(cat "$T/e")"
sed 's/^\(   Random Read 4KB (QD=32) :\).*$/\1/' "$C/sata-cdm3.txt" >"$T/cut3.txt"
"$SSDREV" import cdm "$T/cut3.txt" --out "$T/cut3" 2>"$T/e"
[ $? -eq 1 ] && grep -q "cut3.txt' line 13: MB/s value" "$T/e" || fail "cut CDM 3 row: $(cat "$T/e")"
[ ! -e "$T/bad3" ] && [ ! -e "$T/cut3" ] || fail "a refused CDM 3 file left a run"
# every cell not run: nothing to import
sed 's/[0-9][0-9.]* MB\/s \[ *[0-9.]* IOPS\]/0.000 MB\/s [      0.0 IOPS]/' "$C/nvme-cdm8-peak.txt" >"$T/zero.txt"
"$SSDREV" import cdm "$T/zero.txt" --out "$T/zero" 2>"$T/e"
[ $? -eq 1 ] && grep -q "every cell is 0 MB/s" "$T/e" || fail "all-zero file: $(cat "$T/e")"
# a malformed row in CDM 6 layout names the line
sed 's/Random Read 4KiB (Q= 32,T= 1)/Random Read 4KiB (Q= 0,T= 1)/' "$C/sata-cdm6.txt" >"$T/bad6.txt"
"$SSDREV" import cdm "$T/bad6.txt" --out "$T/bad6" 2>"$T/e"
[ $? -eq 1 ] && grep -q "bad6.txt' line 12: queue depth" "$T/e" || fail "bad CDM 6 row: $(cat "$T/e")"
# a row cut after its MB/s (issue 26 item 23): CDM 7 to 9 write MB/s, IOPS
# and latency on every row, so a row without them is refused, naming the
# file and line, and nothing is imported; CDM 6 rows have no latency (and
# sequential ones no IOPS) and still import
for v in nvme-cdm7 pm981-fob-cdm8 pm981a-fob-cdm9-nvme; do
  for cut in 's/ MB\/s \[.*$//' 's/ \[ *[0-9.]* IOPS\] <.*$//' 's/ <.*$//' 's/ us>.*$//'; do
    awk -v cut="$cut" 'done == 0 && /\(Q= *[0-9]+, T= *[0-9]+\):/ { n = NR; done = 1 } { print } END { print n > "/dev/stderr" }' \
      "$C/$v.txt" >/dev/null 2>"$T/n"
    n=$(cat "$T/n")
    sed "${n}$cut" "$C/$v.txt" >"$T/cut.txt"
    cmp -s "$T/cut.txt" "$C/$v.txt" && fail "$v: '$cut' cut nothing"
    rm -rf "$T/cut"
    "$SSDREV" import cdm "$T/cut.txt" --out "$T/cut" >/dev/null 2>"$T/e"
    rc=$?
    [ $rc -eq 1 ] && grep -q "cut.txt' line $n: .*(a cut row?)" "$T/e" || fail "$v cut by '$cut' (line $n): exit $rc: $(cat "$T/e")"
    [ ! -e "$T/cut" ] || fail "$v: a refused file left a run"
  done
done
# CrystalDiskMark 7 and before saved the text file as UTF-16LE with a BOM
# (`_wfopen_s(..., L"wb,ccs=UNICODE")`, FF FE written ahead: CDM 8 writes
# UTF-8), as Notepad's "Unicode" does: such files import as their UTF-8
# form does, with a doubled BOM and as big-endian without a BOM too; a cut
# or broken one is refused naming the file
command -v iconv >/dev/null 2>&1 || { echo "ok (no iconv: UTF-16 inputs not checked)"; exit 0; }
for f in sata-cdm6 nvme-cdm7; do
  { printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$C/$f.txt"; } > "$T/$f-u16.txt"
  { printf '\377\376\377\376'; iconv -f UTF-8 -t UTF-16LE "$C/$f.txt"; } > "$T/$f-u16bom2.txt"
  iconv -f UTF-8 -t UTF-16BE "$C/$f.txt" > "$T/$f-u16be.txt"
  for v in u16 u16bom2 u16be; do
    rm -rf "$T/$f-$v"
    "$SSDREV" import cdm "$T/$f-$v.txt" --out "$T/$f-$v" >/dev/null 2>"$T/e" || fail "$f as $v: $(cat "$T/e")"
    /usr/bin/python3 - "$T/$f/manifest.json" "$T/$f-$v/manifest.json" <<'PY' || fail "$f as $v differs from its UTF-8 import"
import json, sys
a, b = (json.load(open(x)) for x in sys.argv[1:3])
key = lambda m: [(t["name"], t.get("params"), t.get("result")) for t in m["tests"]]
if key(a) != key(b) or a.get("label") != b.get("label") or a.get("state") != b.get("state"): sys.exit(1)
PY
  done
done
head -c 101 "$T/nvme-cdm7-u16.txt" > "$T/odd.txt"
"$SSDREV" import cdm "$T/odd.txt" --out "$T/odd" 2>"$T/e" && fail "a cut UTF-16 file imported"
grep -q "odd.txt' is UTF-16 text of an odd length (101 bytes)" "$T/e" || fail "odd UTF-16 message: $(cat "$T/e")"
printf '\377\376S\000E\000Q\000\000\330A\000' > "$T/lone.txt" # a lone high surrogate
"$SSDREV" import cdm "$T/lone.txt" --out "$T/lone" 2>"$T/e" && fail "broken UTF-16 imported"
grep -q "lone.txt' is UTF-16LE text with an invalid sequence at byte 8" "$T/e" || fail "broken UTF-16 message: $(cat "$T/e")"
[ ! -e "$T/odd" ] && [ ! -e "$T/lone" ] || fail "a refused file left a run"
echo ok
