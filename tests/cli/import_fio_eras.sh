#!/bin/sh
# ssdrev import fio: the JSON of every fio era imports with the source's
# values (tests/data/fio: fio-2.1/2.19/3.1 written from fio's stat.c by
# old_eras.py, the rest by Debian's fio 3.33; README there):
# - 2.x: latencies in usec (clat/lat/slat), io_bytes in KiB, bw in KiB/s, no
#   total_ios (2.1), json+ bins by bucket index (2.19); 3.1: bw in KiB/s;
# - measured_at is fio's timestamp (UTC), absent without one (2.1);
# - a file of two documents with shell text between imports both;
# - a bare time_based (left out of fio's JSON) is still a timed job: a SEQ1M
#   Q8 write stays a CrystalDiskMark cell, not a prefill, as time_based=1;
# - an error job (error 25) and a job that never started are failed tests,
#   an interrupted run's tests are interrupted, each with a warning.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
D=$SSDREV_ROOT/tests/data/fio
command -v python3 >/dev/null || { echo "skip: python3 not installed"; exit 77; }
imp() { "$SSDREV" import fio "$@" >"$T/imp.out" 2>"$T/imp.err" || fail "import $*: $(cat "$T/imp.err")"; }

# 1. every era: each archive value equals the source's, in the source's unit
cat >"$T/eq.py" <<'PY'
import json, sys, time
src, run = sys.argv[1], sys.argv[2]
docs, dec, text, i = [], json.JSONDecoder(), open(src).read(), 0
while True:
    i = text.find("\n{", i - 1 if i else 0) + 1 if not text.startswith("{", i) else i
    if i <= 0 and not text.startswith("{"): break
    d, n = dec.raw_decode(text, i)
    docs.append(d); i = n
    if text.find("\n{", i) < 0: break
m = json.load(open(run + "/manifest.json"))
tests = [t for t in m["tests"] if "clones" not in t]
# numjobs clones without group_reporting: their sum, as group_reporting's
by = {t["name"]: t for t in m["tests"]}
for a in (t for t in m["tests"] if "clones" in t):
    cl = [by[c] for c in a["clones"]]
    if any(c["clone_of"] != a["name"] for c in cl): sys.exit(a["name"] + ": clone_of")
    if a["params"]["threads"] != len(cl): sys.exit(a["name"] + ": threads")
    for dd, o in a["fio"]["ops"].items():
        co = [c["fio"]["ops"][dd] for c in cl if dd in c["fio"]["ops"]]
        for k in ("ios", "bytes", "iops", "mb_s"):
            if not abs(o[k] - sum(c[k] for c in co)) <= 1e-9 * max(1, o[k]): sys.exit("%s %s.%s not the clones' sum" % (a["name"], dd, k))
        if o["clat_min_ns"] != min(c["clat_min_ns"] for c in co) or o["clat_max_ns"] != max(c["clat_max_ns"] for c in co):
            sys.exit(a["name"] + ": min/max")
        mean = sum(c["clat_mean_ns"] * c["ios"] for c in co) / sum(c["ios"] for c in co)
        if abs(o["clat_mean_ns"] - mean) > 1e-6 * mean: sys.exit(a["name"] + ": mean")
        if "clat_pct" in o and not o["clat_pct_source"].startswith("approximate"): sys.exit(a["name"] + ": pct not marked")
jobs = [j for d in docs for j in d["jobs"]]
if len(tests) != len(jobs): sys.exit("%d tests for %d jobs" % (len(tests), len(jobs)))
def near(a, b): return abs(a - b) <= 1e-9 * max(1, abs(b))
for t, j in zip(tests, jobs):
    for dd in ("read", "write", "trim"):
        s = j[dd]
        us = "clat_ns" not in s
        kib = "io_kbytes" not in s
        n = s.get("total_ios", s["io_bytes"] * 1024 // 4096 if kib else None)
        o = t["fio"]["ops"].get(dd)
        if not n:
            if o: sys.exit("%s %s: no I/O in the source, ops in the archive" % (t["name"], dd))
            continue
        if not o: sys.exit("%s %s: %d I/Os in the source, none in the archive" % (t["name"], dd, n))
        want = {"ios": n, "bytes": s["io_bytes"] * (1024 if kib else 1),
                "mb_s": (s["bw_bytes"] if "bw_bytes" in s else s["bw"] * 1024) / 1e6, "iops": s["iops"],
                "clat_mean_ns": s["clat" if us else "clat_ns"]["mean"] * (1000 if us else 1),
                "clat_min_ns": s["clat" if us else "clat_ns"]["min"] * (1000 if us else 1),
                "clat_max_ns": s["clat" if us else "clat_ns"]["max"] * (1000 if us else 1),
                "lat_mean_ns": s["lat" if us else "lat_ns"]["mean"] * (1000 if us else 1)}
        for k, v in want.items():
            if not near(o[k], v): sys.exit("%s %s.%s = %r, the source says %r" % (t["name"], dd, k, o[k], v))
        c = s["clat" if us else "clat_ns"]
        if "bins" not in c:
            pl = {float(p): v * (1000 if us else 1) for p, v in c.get("percentile", {}).items() if float(p) > 0}
            got = {e["p"]: e["lat_ns"] for e in o.get("clat_pct", [])}
            if pl != got: sys.exit("%s %s: percentiles %r, the source's %r" % (t["name"], dd, got, pl))
    if t["result"]["ios"] != sum(o["ios"] for o in t["fio"]["ops"].values()): sys.exit(t["name"] + ": result.ios")
want = [time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(d["timestamp"])) for d in docs if "timestamp" in d]
if m.get("measured_at") != (min(want) if want else None):
    sys.exit("measured_at %r, fio's timestamp says %r" % (m.get("measured_at"), want))
PY
for f in fio-2.1.json fio-2.19.json fio-3.1.json nj.json njg.json mix.json tb_bare.json tb_one.json two_docs.txt; do
  rm -rf "$T/r"
  imp "$D/$f" --out "$T/r"
  python3 "$T/eq.py" "$D/$f" "$T/r" || fail "$f: the archive differs from the source"
done

# 1b. numjobs=4 without group_reporting: 4 clones and their sum, the sum
# mapped; with a bare group_reporting (left out of fio's JSON) one test of 4
rm -rf "$T/r"; imp "$D/nj.json" --out "$T/r"
grep -q "imported 5 tests" "$T/imp.out" || fail "numjobs clones: $(cat "$T/imp.out")"
grep -q '"clones": \[' "$T/r/manifest.json" || fail "numjobs clones: no sum"
"$SSDREV" analyze "$T/r" >/dev/null 2>&1 || fail "numjobs clones: analyze"
python3 -c "
import json,sys; a=json.load(open('$T/r/analysis.json'))
sys.exit(0 if [j['test'] for j in a['jobs']] == ['fio.nj.1-4'] and 'fio.nj.2' in a['tests'] else repr(a['jobs']))" \
  || fail "numjobs clones: the jobs table should hold their sum only"
rm -rf "$T/r"; imp "$D/njg.json" --out "$T/r"
python3 -c "
import json,sys; t=json.load(open('$T/r/manifest.json'))['tests']
sys.exit(0 if len(t) == 1 and t[0]['params']['threads'] == 4 else repr(t[0]['params']))" || fail "bare group_reporting"

# 2. fio 2.19's json+ bins (bucket index, usec): percentiles from them, in ns
rm -rf "$T/r"; imp "$D/fio-2.19.json" --out "$T/r"
python3 - "$T/r" <<'PY' || fail "fio 2.19 bins"
import json, sys
t = json.load(open(sys.argv[1] + "/manifest.json"))["tests"][0]
o = t["fio"]["ops"]["read"]
if o["clat_pct_source"] != "json+ bins": sys.exit("percentiles from %s" % o["clat_pct_source"])
p = {e["p"]: e["lat_ns"] for e in o["clat_pct"]}
# fio's own list in the same file: 50% 80 us, 90% 96 us, 99% 112 us, 99.9% 2064 us
if (p[50.0], p[90.0], p[99.0], p[99.9]) != (80000, 96000, 112000, 2064000): sys.exit(repr(p))
if t["fio"]["converted"]["latency"] != "us" or t["fio"]["converted"]["io_bytes"] != "KiB": sys.exit("converted")
PY

# 2b. no job options (fio before 2.5): the read share from the I/Os, the
# block size from bytes / total_ios (2.2-2.4 count them; an edited 2.1 file
# of 625 I/Os of 64 KiB)
python3 - "$D/fio-2.1.json" "$T/f22.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["fio version"] = "fio-2.2.8"
for dd in ("read", "write", "trim"): d["jobs"][0][dd]["total_ios"] = 0
d["jobs"][0]["read"]["total_ios"] = 625
json.dump(d, open(sys.argv[2], "w"))
PY
rm -rf "$T/r"; imp "$T/f22.json" --out "$T/r"
python3 -c "
import json,sys; p=json.load(open('$T/r/manifest.json'))['tests'][0]['params']
sys.exit(0 if (p['block_bytes'], p['read_pct']) == (65536, 100) else repr(p))" || fail "no options: params"

# 3. two documents: both imported, the second's names marked
rm -rf "$T/r"; imp "$D/two_docs.txt" --out "$T/r"
grep -q "imported 7 tests" "$T/imp.out" || fail "two documents: $(cat "$T/imp.out")"
python3 -c "
import json,sys; n=[t['name'] for t in json.load(open('$T/r/manifest.json'))['tests']]
sys.exit(0 if 'doc2.fio.seq1m-q8-write.1' in n and 'fio.nj.1' in n else repr(n))" || fail "two documents: names"

# 4. bare time_based == time_based=1: the same kinds and keys
for f in tb_bare tb_one; do
  rm -rf "$T/$f"; imp "$D/$f.json" --out "$T/$f"
  python3 -c "
import json; m=json.load(open('$T/$f/manifest.json'))
print([(t['kind'], t.get('cell'), t.get('op'), t['params'].get('measure_ns')) for t in m['tests']])" >"$T/$f.kinds"
done
cmp -s "$T/tb_bare.kinds" "$T/tb_one.kinds" || fail "bare time_based: $(cat "$T/tb_bare.kinds") vs $(cat "$T/tb_one.kinds")"
grep -q "'cdm', 'SEQ1M Q8T1', 'write', 1000000000" "$T/tb_bare.kinds" || fail "SEQ1M Q8 write: $(cat "$T/tb_bare.kinds")"
grep -q "'cdm', 'RND4K Q1T1', 'read', 1000000000" "$T/tb_bare.kinds" || fail "RND4K Q1 read: $(cat "$T/tb_bare.kinds")"

# 4b. analyze prints fio's own min and deviation of a summary-only test, and
# n/a (not 0.00) for what was never measured (the write job's read cells)
"$SSDREV" analyze "$T/tb_bare" --verbose >"$T/an.out" 2>&1 || fail "analyze: $(cat "$T/an.out")"
want=$(python3 -c "
import json; w=json.load(open('$D/tb_bare.json'))['jobs'][0]['write']['clat_ns']
print('min %.2f mean %.2f sd %.2f max %.2f' % (w['min']/1e3, w['mean']/1e3, w['stddev']/1e3, w['max']/1e3))")
grep -q "write .*lat µs: $want" "$T/an.out" || fail "analyze: no '$want' in $(cat "$T/an.out")"
grep -q "SEQ1M Q8T1 *n/a" "$T/an.out" || fail "analyze: an unmeasured cell is not n/a: $(cat "$T/an.out")"

# 4c. ramp_time at iodepth 8 (ramp.fio, real): fio logs the 7 I/Os in flight
# when the ramp ends and does not count them: recorded, not warned about; a
# difference beyond iodepth still warns
rm -rf "$T/r"; imp "$D/ramp.json" --out "$T/r"
[ ! -s "$T/imp.err" ] || fail "ramp: $(cat "$T/imp.err")"
python3 -c "
import json,sys; l=json.load(open('$T/r/manifest.json'))['tests'][0]['log_source']
sys.exit(0 if (l['records'], l['fio_total_ios']) == (2209, 2202) else repr(l))" || fail "ramp: counts"
mkdir "$T/far" && cp "$D/ramp_lat.1.log" "$T/far/"
sed 's/"total_ios" : 2202/"total_ios" : 2190/' "$D/ramp.json" >"$T/far/ramp.json"
rm -rf "$T/r"; imp "$T/far/ramp.json" --out "$T/r"
grep -q "holds 2209 I/Os, fio counted 2190" "$T/imp.err" || fail "ramp beyond iodepth: no warning"

# 4d. averaged logs (avg.fio, log_avg_msec=100: bs 0, one mean per window):
# the latency log a time series, the bandwidth log the fill trace; given as
# per-I/O logs (an edited JSON saying log_avg_msec=0) refused by name
rm -rf "$T/r"; imp "$D/avg.json" --out "$T/r"
grep -q "kept as a latency-over-time series" "$T/imp.err" || fail "averaged: $(cat "$T/imp.err")"
python3 - "$T/r" "$D/avg_lat.1.log" <<'PY' || fail "averaged: lat_trace"
import json, sys
t = json.load(open(sys.argv[1] + "/manifest.json"))["tests"][0]
tr = t["lat_trace"]
rows = [[int(x) for x in l.split(",")] for l in open(sys.argv[2]) if l.strip()]
if tr["t_s"] != [r[0] / 1e3 for r in rows] or tr["lat_us"] != [r[1] / 1e3 for r in rows]: sys.exit(repr(tr))
if tr["interval_ms"] != 100 or "log" in t: sys.exit("interval or a per-I/O log")
PY
mkdir "$T/avg0" && cp "$D/avg_lat.1.log" "$T/avg0/"
sed 's/"log_avg_msec" : "100"/"log_avg_msec" : "0"/' "$D/avg.json" >"$T/avg0/avg.json"
rm -rf "$T/r"
"$SSDREV" import fio "$T/avg0/avg.json" --out "$T/r" >/dev/null 2>"$T/imp.err" && fail "averaged log as per-I/O: accepted"
grep -q "avg_lat.1.log' line 1 has bs 0: it is an averaged log" "$T/imp.err" || fail "averaged log: $(cat "$T/imp.err")"
[ ! -e "$T/r" ] || fail "averaged log: a run was left"

# 5. error, never started, interrupted
st() { python3 -c "import json; print(*[t['status'] for t in json.load(open('$1/manifest.json'))['tests']])"; }
rm -rf "$T/r"; imp "$D/err25.json" --out "$T/r"
[ "$(st "$T/r")" = failed ] || fail "error 25: status $(st "$T/r")"
grep -q "\"kind\": \"job\"" "$T/r/manifest.json" || fail "error 25: mapped to a method step"
grep -q "fio reported error 25" "$T/imp.err" || fail "error 25: no warning"
grep -q '"error": "fio reported error 25' "$T/r/manifest.json" || fail "error 25: no test error"
rm -rf "$T/r"; imp "$D/nostart.json" --out "$T/r"
[ "$(st "$T/r")" = failed ] || fail "no start: status $(st "$T/r")"
rm -rf "$T/r"; imp "$D/interrupted.json" --out "$T/r"
[ "$(st "$T/r")" = interrupted ] || fail "interrupted: status $(st "$T/r")"
grep -q "terminated on signal 2" "$T/imp.err" || fail "interrupted: no warning"
"$SSDREV" analyze "$T/r" >"$T/an.out" 2>&1 || fail "analyze interrupted: $(cat "$T/an.out")"
# 6. hostile old-era values: refused naming the value, nothing written
python3 - "$D" "$T" <<'PY'
import json, sys
D, T = sys.argv[1], sys.argv[2]
def edit(src, dst, f):
    d = json.load(open(D + "/" + src)); f(d); json.dump(d, open(T + "/" + dst, "w"))
edit("fio-2.1.json", "huge.json", lambda d: d["jobs"][0]["read"]["clat"].__setitem__("max", 10**17))
edit("fio-2.1.json", "neg.json", lambda d: d["jobs"][0]["read"].__setitem__("io_bytes", -5))
edit("fio-2.19.json", "bits.json", lambda d: d["jobs"][0]["read"]["clat"]["bins"].__setitem__("FIO_IO_U_PLAT_BITS", 99))
edit("fio-2.19.json", "idx.json", lambda d: d["jobs"][0]["read"]["clat"]["bins"].__setitem__("5000", 3))
PY
for c in "huge:clat_ns.max is not a latency" "neg:io_bytes = -5 is negative" "bits:bins key 'FIO_IO_U_PLAT_BITS'" \
         "idx:bins key 'FIO_IO_U_PLAT_BITS'"; do
  f=${c%%:*}; msg=${c#*:}
  rm -rf "$T/r"
  "$SSDREV" import fio "$T/$f.json" --out "$T/r" >/dev/null 2>"$T/imp.err" && fail "$f: accepted"
  grep -q "$msg" "$T/imp.err" || fail "$f: $(cat "$T/imp.err")"
  [ ! -e "$T/r" ] || fail "$f: a run was left"
done
# a JSON as Windows writes it: with a UTF-8 BOM (Notepad), as UTF-16LE with a
# BOM (`fio ... > out.json` in Windows PowerShell 5): the same tests as the
# file itself
if command -v iconv >/dev/null 2>&1; then
  src=$D/fio-3.1.json
  "$SSDREV" import fio "$src" --out "$T/plain" >/dev/null 2>&1 || fail "fio-3.1.json: $(cat "$T/imp.err")"
  { printf '\357\273\277'; cat "$src"; } > "$T/bom.json"
  { printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$src"; } > "$T/ps5.json"
  for v in bom ps5; do
    "$SSDREV" import fio "$T/$v.json" --out "$T/$v" >/dev/null 2>"$T/imp.err" || fail "$v.json: $(cat "$T/imp.err")"
    /usr/bin/python3 - "$T/plain/manifest.json" "$T/$v/manifest.json" <<'PY' || fail "$v.json imports otherwise than its UTF-8 form"
import json, sys
a, b = (json.load(open(x)) for x in sys.argv[1:3])
key = lambda m: [(t["name"], t.get("params"), t.get("result"), t.get("fio")) for t in m["tests"]]
if not a["tests"] or key(a) != key(b): sys.exit(1)
PY
  done
fi
echo ok
