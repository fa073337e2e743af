#!/bin/sh
# ssdrev import fio: a job that is none of the method's tests goes to the
# analysis' jobs and {{table jobs}}; a QD1 4 KiB random read becomes the tail
# read workload, from its log or, without one, from fio's summary; which
# latency the figures are (lat or clat) is recorded and labelled in the
# tables, never mixed in one; the tests keep fio's own time.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v fio >/dev/null 2>&1 || { echo "skip: fio not installed"; exit 77; }
cd "$T" || exit 1
cat >j.fio <<'JOB'
[global]
filename=fio.dat
size=8M
ioengine=psync
log_avg_msec=0
write_lat_log=lg
[odd]
rw=randread
bs=8k
iodepth=3
number_ios=600
[t]
stonewall
rw=randread
bs=4k
number_ios=800
JOB
fio j.fio --output-format=json+ --output=j.json >fio.out 2>&1 || fail "fio: $(cat fio.out)"
"$SSDREV" import fio j.json --out clat --latency clat >imp.out 2>&1 || fail "import clat: $(cat imp.out)"
"$SSDREV" import fio j.json --out lat >imp2.out 2>&1 || fail "import lat: $(cat imp2.out)"
"$SSDREV" import fio j.json --out nolog --no-logs >imp3.out 2>&1 || fail "import no logs: $(cat imp3.out)"
"$SSDREV" import cdm j.json --out x --latency clat >imp4.out 2>&1 && fail "--latency accepted for cdm"
grep -q "applies to fio imports only" imp4.out || fail "cdm --latency message: $(cat imp4.out)"
for r in clat lat nolog; do "$SSDREV" analyze "$r" --quiet >/dev/null 2>&1 || fail "analyze $r"; done
/usr/bin/python3 - <<'PY' || exit 1
import json, sys, time
for run, kind in (("clat", "clat"), ("lat", "lat"), ("nolog", "clat")):
    m = json.load(open(run + "/manifest.json"))
    t = {x["name"]: x for x in m["tests"]}
    if t["fio.odd.1"]["kind"] != "job" or t["fio.t.2"]["kind"] != "tail" or t["fio.t.2"]["workload"] != "read":
        sys.exit("%s: kinds %s" % (run, [(x["name"], x["kind"]) for x in m["tests"]]))
    if any(x["latency"] != kind for x in m["tests"]): sys.exit("%s: latency %s" % (run, [x["latency"] for x in m["tests"]]))
    if any(x.get("time_source") != "imported" for x in m["tests"]): sys.exit("%s: not fio's time" % run)
    a = json.load(open(run + "/analysis.json"))
    if [j["test"] for j in a["jobs"]] != ["fio.odd.1"]: sys.exit("%s: jobs %s" % (run, a["jobs"]))
    if a["jobs"][0]["latency"] != kind or a["jobs"][0]["block_bytes"] != 8192: sys.exit("%s: job row %s" % (run, a["jobs"][0]))
    tr = a["tail"]["read"]
    if tr.get("latency") != kind or not tr.get("p99_us"): sys.exit("%s: tail %s" % (run, tr))
    if tr["ios"] != 800: sys.exit("%s: tail ios %s" % (run, tr["ios"]))
PY
printf '# j\n\n{{table tail}}\n\n{{table jobs}}\n' >t.md
for r in clat lat; do
  "$SSDREV" report -t t.md -o "rep-$r" --format md "$r" >rep.log 2>&1 || fail "report $r: $(cat rep.log)"
  grep -q "other workloads" "rep-$r/review.md" || fail "$r: no jobs table"
  grep -q "| fio.odd.1 | random read, 8 KiB, QD3 T1 |" "rep-$r/review.md" || fail "$r: job row: $(cat "rep-$r/review.md")"
done
n=$(grep -c "completion latency (clat)" rep-clat/review.md)
[ "$n" = 2 ] || fail "clat tables not labelled ($n notes): $(cat rep-clat/review.md)"
grep -q "completion latency" rep-lat/review.md && fail "lat tables labelled as clat"
# in Korean the jobs table and its notes are Korean, no English word left
printf '{{lang ko}}\n# j\n\n{{table jobs}}\n' >t.ko.md
"$SSDREV" report -t t.ko.md -o rep-ko --format md clat >rep.log 2>&1 || fail "report ko: $(cat rep.log)"
grep -q "그 밖의 작업" rep-ko/review.md || fail "ko: no Korean jobs caption: $(cat rep-ko/review.md)"
grep -q "| fio.odd.1 | 랜덤 읽기, 8 KiB, QD3 T1 |" rep-ko/review.md || fail "ko: job row: $(cat rep-ko/review.md)"
grep -Eqw "random|sequential|read|write|mix|Workload|Mean|Latency|workloads|n/a" rep-ko/review.md &&
  fail "ko: English words in the jobs table: $(cat rep-ko/review.md)"
# a run with no other workloads: the table is nothing, not a note
"$SSDREV" report -t t.md -o rep-none --format md "$SSDREV_ROOT/tests/data/analysis/pm981" >rep.log 2>&1 || fail "report pm981: $(cat rep.log)"
grep -q "other workloads\|Not measured" rep-none/review.md && fail "an empty jobs table printed: $(cat rep-none/review.md)"
exit 0
