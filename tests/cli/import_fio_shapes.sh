#!/bin/sh
# ssdrev import fio: real fio 3.x outputs of several shapes import exactly.
# - plain json, numjobs=3 with group_reporting=1, log_prio=1 + log_offset=1:
#   one test whose log merges the three threads' logs (queue_id = thread);
# - group_reporting over several report entries: summaries only, a warning;
# - json+ randrw 30/70 with log_prio=1 and no offset column (5 columns): every
#   record equals fio's log line; percentiles from the bins equal fio's own;
# - per_job_logs=0: the shared PREFIX_lat.log is found;
# - an edited copy of a real output in the shape of newer fio (3.36+: job_start,
#   per-priority stats, unknown keys, a 7th log column) still imports;
# - numjobs=3 without group_reporting: the clones and their sum (merged bins);
# - trim (randtrim, trimwrite) on a loop device over a temp file, when root.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
LOOP=
cleanup() { [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
truncate -s 8M fio.dat
runfio() { fio "$@" >fio.out 2>&1 || fail "fio $*: $(cat fio.out)"; }
imp() { "$SSDREV" import fio "$@" >imp.out 2>imp.err || fail "import $*: $(cat imp.err)"; }
# exact: every record of the run's logs equals the fio log line(s) it came from
cat >exact.py <<'PY'
import csv, io, json, os, subprocess, sys
run = sys.argv[1]
m = json.load(open(run + "/manifest.json"))
ops = {"0": "read", "1": "write", "2": "trim"}
for t in m["tests"]:
    ls = t.get("log_source")
    if not ls: continue
    out = subprocess.run([os.environ["SSDREV"], "log", "dump", run + "/" + t["log"], "--csv"],
                         capture_output=True, text=True, check=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    want = []
    for q, f in enumerate(ls.get("files", [ls["file"]])):
        for l in open(f):
            if l.strip(): want.append((q, [x.strip() for x in l.split(",")]))
    if len(rows) != len(want) or ls["records"] != len(want):
        sys.exit("%s: %d records, fio logs have %d" % (t["name"], len(rows), len(want)))
    got = sorted((int(r["queue_id"]), int(r["submit_ns"]), int(r["lat_ns"]), r["op"], int(r["len_bytes"]), int(r["offset_bytes"])) for r in rows)
    off = t["fio"]["options"].get("log_offset", "0") != "0"
    exp = sorted((q, max(0, int(l[0]) * 1000000 - int(l[1])), int(l[1]), ops[l[2]], int(l[3]), int(l[4]) if off else 0) for q, l in want)
    if got != exp: sys.exit("%s: records differ from fio's log" % t["name"])
    total = sum(o["ios"] for o in t["fio"]["ops"].values())
    if total != len(want): sys.exit("%s: fio total %d, log %d" % (t["name"], total, len(want)))
PY

# 1. plain json, numjobs=3, group_reporting=1, log_prio=1, log_offset=1
cat >g.fio <<'JOB'
[global]
filename=fio.dat
size=2M
ioengine=psync
bs=4k
log_avg_msec=0
write_lat_log=g
log_offset=1
log_prio=1
group_reporting=1

[rr]
rw=randread
numjobs=3
JOB
runfio g.fio --output-format=json --output=g.json
grep -q '0x0000$' g_lat.2.log || fail "log_prio=1 should write hex priorities: $(head -2 g_lat.2.log)"
imp g.json --out g.run
grep -q "imported 1 test " imp.out || fail "group: $(cat imp.out)"
SSDREV="$SSDREV" /usr/bin/python3 exact.py g.run || exit 1
/usr/bin/python3 - <<'PY' || exit 1
import json, sys
t = json.load(open("g.run/manifest.json"))["tests"][0]
if t["params"]["threads"] != 3 or len(t["log_source"]["files"]) != 3: sys.exit("group: %s" % t["log_source"])
if t["fio"]["ops"]["read"]["clat_pct_source"] != "fio percentile list": sys.exit("plain json percentiles")
PY

# 2. group_reporting with two report entries of numjobs=3 and 2: fio numbers
# the clones of a job one after another (threads 1-3, then 4-5), so each
# entry owns its numjobs logs
printf '\n[sw]\nnew_group\nrw=write\nnumjobs=2\n' >>g.fio
rm -f g_*.log
runfio g.fio --output-format=json --output=g2.json
imp g2.json --out g2.run
grep -q "imported 2 tests .*2 with per-I/O logs" imp.out || fail "group x2: $(cat imp.out)"
grep -q "fio counted" imp.err && fail "group x2: logs matched to the wrong entries: $(cat imp.err)"
SSDREV="$SSDREV" /usr/bin/python3 exact.py g2.run || exit 1
/usr/bin/python3 - <<'PY' || exit 1
import json, sys
ts = json.load(open("g2.run/manifest.json"))["tests"]
got = [(t["params"]["threads"], [f.rsplit(".", 2)[-2] for f in t["log_source"].get("files", [t["log_source"]["file"]])]) for t in ts]
if got != [(3, ["1", "2", "3"]), (2, ["4", "5"])]: sys.exit("group x2: threads and logs %s" % got)
PY

# 2b. one group_reporting entry for several jobs (no numjobs): unmatched
cat >h.fio <<'JOB'
[global]
filename=fio.dat
size=4M
ioengine=psync
log_avg_msec=0
write_lat_log=h
group_reporting=1
[a]
rw=randread
number_ios=200
[b]
new_group
rw=randread
number_ios=200
JOB
runfio h.fio --output-format=json --output=h.json
imp h.json --out h.run
grep -q "group_reporting merges" imp.err || fail "no group_reporting warning: $(cat imp.err)"
grep -q '"mb_s"' h.run/manifest.json || fail "summaries missing"

# 3. json+, randrw 30% read, log_prio=1 without offsets (5 columns)
cat >m.fio <<'JOB'
[mix]
filename=fio.dat
size=4M
ioengine=psync
bs=4k
rw=randrw
rwmixread=30
log_avg_msec=0
write_lat_log=m
log_prio=1
JOB
runfio m.fio --output-format=json+ --output=m.json
imp m.json --out m.run
SSDREV="$SSDREV" /usr/bin/python3 exact.py m.run || exit 1
/usr/bin/python3 - <<'PY' || exit 1
import json, sys
fio = json.load(open("m.json"))["jobs"][0]
t = json.load(open("m.run/manifest.json"))["tests"][0]
if t["log_source"]["columns"] != 5 or t["params"]["read_pct"] != 30: sys.exit("mix: %s %s" % (t["log_source"], t["params"]))
n = 0
for d, o in t["fio"]["ops"].items():
    if o["clat_pct_source"] != "json+ bins": sys.exit("json+ bins not used")
    own = {float(k): v for k, v in fio[d]["clat_ns"]["percentile"].items()}
    for p in o["clat_pct"]:
        if not p["bucketed"]: sys.exit("not marked bucketed")
        if p["p"] in own:
            n += 1
            if own[p["p"]] != p["lat_ns"]: sys.exit("%s p%s: %d, fio says %d" % (d, p["p"], p["lat_ns"], own[p["p"]]))
if n < 8: sys.exit("only %d percentiles compared" % n)
PY

# the clat log on request: issue-to-completion latencies, exact too
imp m.json --out mc.run --latency clat
grep -q '"kind": "clat"' mc.run/manifest.json || fail "--latency clat did not take the clat log"
SSDREV="$SSDREV" /usr/bin/python3 exact.py mc.run || exit 1

# --output-format=normal,json+: the text report before and after the JSON
runfio m.fio --output-format=normal,json+ --output=nj.json
[ "$(grep -n '^}' nj.json | cut -d: -f1)" -lt "$(grep -n 'Run status group' nj.json | cut -d: -f1)" ] \
  || fail "fio's normal report should follow the JSON"
imp nj.json --out nj.run --no-logs
grep -q "imported 1 test " imp.out || fail "normal,json+: $(cat imp.out)"

# 4. per_job_logs=0
runfio --name=pj --filename=fio.dat --size=1M --bs=4k --rw=randwrite --write_lat_log=pj --log_avg_msec=0 \
  --per_job_logs=0 --output-format=json --output=pj.json
[ -s pj_lat.log ] || fail "fio wrote no shared log: $(ls)"
imp pj.json --out pj.run
SSDREV="$SSDREV" /usr/bin/python3 exact.py pj.run || exit 1
grep -q "pj_lat.log" pj.run/manifest.json || fail "shared log not used"

# 5. newer fio's shape (edited copy of the real output of step 3)
/usr/bin/python3 - <<'PY' || exit 1
import json
j = json.load(open("m.json"))
j["fio version"] = "fio-3.38"
j["some_future_key"] = {"x": [1, 2]}
job = j["jobs"][0]
job["job_start"] = j["timestamp_ms"] - 5000
job["job options"]["log_issue_time"] = "1"
job["job options"]["log_offset"] = "1"
for d in ("read", "write"):
    job[d]["prios"] = [{"prioclass": 0, "prio": 0, "clat_ns": dict(job[d]["clat_ns"])}]
    job[d]["new_stat"] = 1.5
# fio 3.36's log_issue_time adds a 7th column (issue time, ns)
with open("new_lat.1.log", "w") as f:
    for i, l in enumerate(open("m_lat.1.log")):
        c = [x.strip() for x in l.split(",")]
        f.write("%s, %s, %s, %s, %d, %s, %d\n" % (c[0], c[1], c[2], c[3], 4096 * i, c[4], 1000 * i))
job["job options"]["write_lat_log"] = "new"
with open("new.json", "w") as out:
    out.write("note: a warning line fio prints first\n")
    json.dump(j, out, indent=2)
PY
imp new.json --out new.run
/usr/bin/python3 - <<'PY' || exit 1
import json, subprocess, os, sys
m = json.load(open("new.run/manifest.json"))
t = m["tests"][0]
if m["source"]["fio_version"] != "fio-3.38" or t["log_source"]["columns"] != 7: sys.exit("new: %s" % t["log_source"])
j = json.loads(open("new.json").read().split("\n", 1)[1])
info = subprocess.run([os.environ["SSDREV"], "log", "info", "new.run/" + t["log"]], capture_output=True, text=True).stdout
start = int(info.split("(")[1].split(" ns")[0])
if start != j["jobs"][0]["job_start"] * 1000000: sys.exit("job_start not used: %d" % start)
out = subprocess.run([os.environ["SSDREV"], "log", "dump", "new.run/" + t["log"], "--csv"], capture_output=True, text=True).stdout.split("\n")
if out[3].split(",")[2] != str(4096 * 2): sys.exit("offset column: %s" % out[3])
PY

# 5b. numjobs=3 json+ without group_reporting, summaries only: three clones
# and their sum, whose IOPS/MB/s are the clones' sums and whose percentiles
# are the nearest rank over the clones' bins added up (fio's own merge)
runfio --filename=fio.dat --size=2M --bs=4k --ioengine=psync --rw=randread --numjobs=3 --number_ios=400 \
  --output-format=json+ --output=clones.json --name=nj
imp clones.json --out clones.run --no-logs
/usr/bin/python3 - <<'PY' || exit 1
import json, math, sys
src = json.load(open("clones.json"))["jobs"]
t = {x["name"]: x for x in json.load(open("clones.run/manifest.json"))["tests"]}
s = t.get("fio.nj.1-3")
if not s or s["clones"] != ["fio.nj.1", "fio.nj.2", "fio.nj.3"]: sys.exit("no sum of the clones: %s" % list(t))
if any(t["fio.nj.%d" % k]["clone_of"] != "fio.nj.1-3" for k in (1, 2, 3)): sys.exit("clone_of")
r = s["fio"]["ops"]["read"]
if r["ios"] != sum(j["read"]["total_ios"] for j in src): sys.exit("ios")
if abs(r["iops"] - sum(j["read"]["iops"] for j in src)) > 1e-9 * r["iops"]: sys.exit("iops")
if abs(r["mb_s"] - sum(j["read"]["bw_bytes"] for j in src) / 1e6) > 1e-9 * r["mb_s"]: sys.exit("mb_s")
bins = {}
for j in src:
    for k, v in j["read"]["clat_ns"]["bins"].items(): bins[int(k)] = bins.get(int(k), 0) + v
total = sum(bins.values())
for p in r["clat_pct"]:
    rank, cum = max(1, math.ceil(p["p"] / 100 * total - 1e-9 * p["p"] / 100 * total)), 0
    for k in sorted(bins):
        cum += bins[k]
        if cum >= rank: break
    if p["lat_ns"] != k: sys.exit("p%s: %d, the merged bins say %d" % (p["p"], p["lat_ns"], k))
if r["clat_pct_source"] != "json+ bins": sys.exit(r["clat_pct_source"])
PY

# 6. trim on a loop device over a temp file (needs root)
if [ "$(id -u)" = 0 ] && LOOP=$(losetup -f --show fio.dat 2>/dev/null); then
  runfio --filename="$LOOP" --size=4M --bs=4k --ioengine=psync --direct=1 --write_lat_log=tr --log_avg_msec=0 \
    --log_offset=1 --output-format=json+ --output=tr.json --name=tr --rw=randtrim --name=tw --rw=trimwrite
  losetup -d "$LOOP"; LOOP=
  imp tr.json --out tr.run
  SSDREV="$SSDREV" /usr/bin/python3 exact.py tr.run || exit 1
  /usr/bin/python3 - <<'PY' || exit 1
import json, sys
t = {x["name"]: x for x in json.load(open("tr.run/manifest.json"))["tests"]}
if set(t["fio.tr.1"]["fio"]["ops"]) != {"trim"} or set(t["fio.tw.2"]["fio"]["ops"]) != {"trim", "write"}: sys.exit("trim ops")
PY
else
  echo "skip: not root or no loop device: trim case not run"
fi
echo ok
