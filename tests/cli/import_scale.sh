#!/bin/sh
# import_scale (issue 26 item 12): importing and analyzing grow linearly
# with the number of jobs and tests. Each step below was quadratic before
# (a scan of the manifest's tests per fio job; a scan of the CDM rows,
# RW-sweep and QD-scaling groups per test, a steady-state judgment and
# matrix per round, FOB x filled-state CDM rows in the flags): under the
# sanitizers the 20,000-job import took 168 s and the 40,000-test analysis
# about two minutes; now a few seconds each. No timing is asserted: the
# results are, and a quadratic step shows as a test run of minutes.
#  1. a fio JSON of 20,000 jobs imports (--no-logs): 20,000 tests;
#  2. a manifest of 40,000 tests (CDM cells in FOB and a filled state,
#     QD-scaling points, RW-sweep groups, steady-state rounds) analyzes,
#     with every row, group, point, round and flag that the data makes.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not installed"; exit 77; }
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "import_scale: FAIL: $*" >&2; exit 1; }
cd "$T" || exit 1

python3 - <<'PY' || fail "cannot write the inputs"
import json, os
lat = {"min": 1000, "max": 1000, "mean": 1000.0}
jobs = [{"jobname": "j%d" % i, "groupid": 0, "error": 0, "job options": {"rw": "randread", "bs": "4k"},
         "read": {"total_ios": 1, "io_bytes": 4096, "bw_bytes": 4096, "iops": 1.0, "runtime": 1,
                  "clat_ns": lat, "lat_ns": lat}, "job_runtime": 1} for i in range(20000)]
json.dump({"fio version": "fio-3.33", "timestamp": 1700000000, "jobs": jobs}, open("many.json", "w"))
tests = []
for i in range(40000):
    k = ("cdm", "qd_scaling", "rw_sweep", "steady_state")[i % 4]
    # CDM: cell i // 8 in FOB (1000 MB/s) and Full (100 MB/s: a fob_vs_full flag each)
    full = k == "cdm" and i // 4 % 2 == 1
    t = {"name": "t%d" % i, "kind": k, "status": "complete", "params": {"pattern": "rand", "read_pct": 0},
         "summary_ops": {"all": {"ios": 1, "mb_s": 100.0 if full else 1000.0, "iops": 1.0 + i, "lat_mean_us": 1.0}}}
    if k == "cdm": t.update(state="Full" if full else "FOB", cell="RND4K Q%dT1" % (i // 8), op="write")
    if k == "qd_scaling": t.update(workload="write", qd=i)
    if k == "rw_sweep": t.update(qd=i, read_pct=50)
    if k == "steady_state": t.update(tracking=True, round=i // 4 + 1)
    tests.append(t)
os.mkdir("big")
json.dump({"format": "ssdrev-run", "format_version": 1, "target": {"spec": "x"}, "steps": {}, "tests": tests},
          open("big/manifest.json", "w"))
PY

# ---- 1. 20,000 fio jobs
"$SSDREV" import fio many.json --out run --no-logs >out 2>err || fail "import: $(cat err)"
grep -q "imported 20000 tests" out || fail "import: $(cat out)"
python3 - <<'PY' || exit 1
import json, sys
m = json.load(open("run/manifest.json"))
names = [t["name"] for t in m["tests"]]
if len(names) != 20000 or len(set(names)) != 20000 or names[-1] != "fio.j19999.20000":
    sys.exit("import_scale: FAIL: %d tests, %d names, last %s" % (len(names), len(set(names)), names[-1:]))
PY

# ---- 2. 40,000 tests
"$SSDREV" analyze big --quiet >out 2>err || fail "analyze: $(cat err)"
python3 - <<'PY' || exit 1
import json, sys
a = json.load(open("big/analysis.json"))
def bad(msg): sys.exit("import_scale: FAIL: " + msg)
if len(a["tests"]) != 40000: bad("%d test entries" % len(a["tests"]))
cdm = a["cdm"]
if len(cdm) != 10000 or {r["state"] for r in cdm} != {"FOB", "Full"}: bad("%d CDM rows" % len(cdm))
if any(r["write"]["passes"] != 1 for r in cdm): bad("a CDM row folded two cells")
fvf = [f for f in a["flags"] if f["id"] == "fob_vs_full"]
if len(fvf) != 5000 or fvf[0]["numbers"]["cell"] != "RND4K Q0T1": bad("%d fob_vs_full flags" % len(fvf))
qd = a["qd_scaling"]
if len(qd) != 1 or len(qd[0]["points"]) != 10000: bad("QD scaling %s" % [len(g["points"]) for g in qd])
# IOPS rises with QD by less than 10% from the 10th point on: the plateau
# is the first point whose higher QDs all gain under 10%
pts = qd[0]["points"]
above = [0] * len(pts)
for k in range(len(pts) - 2, -1, -1): above[k] = max(above[k + 1], pts[k + 1]["iops"])
want = next(p["qd"] for k, p in enumerate(pts) if above[k] < 1.1 * p["iops"])
if qd[0].get("plateau_qd") != want: bad("plateau QD %s, want %s" % (qd[0].get("plateau_qd"), want))
if len(a["rw_sweep"]) != 10000 or any(len(g["points"]) != 1 for g in a["rw_sweep"]): bad("%d sweep groups" % len(a["rw_sweep"]))
ss = a["steady_state"]
if len(ss["rounds"]) != 10000 or "steady" not in ss: bad("steady state: %d rounds, keys %s" % (len(ss["rounds"]), sorted(ss)))
PY
exit 0
