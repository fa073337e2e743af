#!/bin/sh
# ssdrev import fio: a real fio json+ run (two jobs, per-job lat logs with and
# without log_offset) imports every I/O, and the analysis's percentiles equal
# numpy's exact ones over fio's own log.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
cat > job.fio <<'JOB'
[global]
filename=fio.dat
size=16M
runtime=1
time_based
ioengine=psync
bs=4k
log_avg_msec=0
write_lat_log=lg

[mix]
rw=randrw
rwmixread=70
numjobs=2
log_offset=1

[seqw]
rw=write
bs=64k
JOB
fio job.fio --output-format=json+ --output=out.json >fio.log 2>&1 || fail "fio failed: $(cat fio.log)"
"$SSDREV" import fio out.json --out run --model "TEST MODEL" --firmware FW1 --state FOB >imp.out 2>imp.err \
  || fail "import failed: $(cat imp.err)"
grep -q "imported 4 tests" imp.out || fail "unexpected import output: $(cat imp.out)"
[ -s run/logs/fio.mix.1.ssdlog ] && [ -s run/logs/fio.seqw.3.ssdlog ] || fail "missing logs: $(ls run/logs)"
"$SSDREV" analyze run >an.out 2>&1 || fail "analyze failed: $(cat an.out)"
/usr/bin/python3 - <<'PY' || exit 1
import json, numpy as np, sys
fio = json.load(open("out.json"))
m = json.load(open("run/manifest.json"))
a = json.load(open("run/analysis.json"))
assert m["source"]["kind"] == "fio", m["source"]
tests = {t["name"]: t for t in m["tests"]}
for i, job in enumerate(fio["jobs"]):
    name = "fio.%s.%d" % (job["jobname"], i + 1)
    t = tests.get(name)
    if t is None: sys.exit("no test %s in %s" % (name, list(tests)))
    total = sum(job[d]["total_ios"] for d in ("read", "write", "trim"))
    if t["log_source"]["records"] != total:
        sys.exit("%s: %d records, fio total_ios %d" % (name, t["log_source"]["records"], total))
    st = a["tests"][name]["ops"]["all"]
    if st["ios"] != total: sys.exit("%s: analysis ios %d != %d" % (name, st["ios"], total))
    lat = np.loadtxt("lg_lat.%d.log" % (i + 1), delimiter=",", usecols=1, dtype=np.int64)
    for p in st["pct"]:
        want = int(np.percentile(lat, p["p"], method="inverted_cdf"))
        if p["lat_ns"] != want: sys.exit("%s p%s: %d != numpy %d" % (name, p["p"], p["lat_ns"], want))
    for op in t["fio"]["ops"].values():
        assert all(x["bucketed"] for x in op["clat_pct"]), "fio percentiles must be marked bucketed"
# numjobs=2 without group_reporting: the clones' sum, from both clones' logs
s = tests["fio.mix.1-2"]
assert s["clones"] == ["fio.mix.1", "fio.mix.2"] and s["params"]["threads"] == 2, s.get("clones")
total = sum(fio["jobs"][k][d]["total_ios"] for k in (0, 1) for d in ("read", "write", "trim"))
if s["log_source"]["records"] != total: sys.exit("fio.mix.1-2: %d records, clones %d" % (s["log_source"]["records"], total))
lat = np.concatenate([np.loadtxt("lg_lat.%d.log" % k, delimiter=",", usecols=1, dtype=np.int64) for k in (1, 2)])
for p in a["tests"]["fio.mix.1-2"]["ops"]["all"]["pct"]:
    want = int(np.percentile(lat, p["p"], method="inverted_cdf"))
    if p["lat_ns"] != want: sys.exit("fio.mix.1-2 p%s: %d != numpy %d" % (p["p"], p["lat_ns"], want))
assert tests["fio.mix.1"]["clone_of"] == "fio.mix.1-2" and tests["fio.mix.1"]["kind"] == "job"
assert tests["fio.mix.1"]["params"]["read_pct"] == 70
assert tests["fio.seqw.3"]["params"]["block_bytes"] == 65536
assert m["dut"]["model"] == "TEST MODEL"
PY
echo ok
