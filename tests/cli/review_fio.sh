#!/bin/sh
# `ssdrev review --engine fio`: the method's jobs run as real fio jobs on a
# temporary file and come back as the archive ssdrev's own engine writes
# (the same tests, kinds and keys as an --engine uring run of the same
# method; per-I/O logs with offsets inside the test's region; the ramp
# flagged; CDM idle recorded), the job files and fio's JSON kept under
# RUN/fio/STEP/, a resume reruns only the incomplete step, and the cases
# fio cannot do fail first, naming why: fio missing or too old, a sim
# target, a target the guard refuses (fio is then never started).
set -u
fail() { echo "review_fio: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
command -v fio >/dev/null 2>&1 || { echo "skip: fio not installed"; exit 77; }
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
FIO=$(command -v fio)
# a small method with every kind of job: CDM (idle between tests), a fill,
# a sweep with a ramp, a tail
cat > "$D/m.json" <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "fio-mini",
 "settings": {"passes": 1, "measure_s": 0.1, "interval_s": 0.2, "region_bytes": "8MiB"},
 "steps": [
  {"id": "purge", "kind": "purge"},
  {"id": "cdm", "kind": "cdm", "cells": ["SEQ1M Q8T1", "RND4K Q1T1"]},
  {"id": "fill", "kind": "prefill", "fill_pct": 50},
  {"id": "sweep", "kind": "rw_sweep", "qds": [2], "read_pct_step": 50, "measure_s": 0.2, "ramp_s": 0.1},
  {"id": "tail", "kind": "tail", "ios": 2000, "workloads": ["read", "write"]}
 ]}
JSON
# a fio wrapper that records every start of fio
mkdir "$D/bin"
printf '#!/bin/sh\necho "$*" >> "%s/fio-calls"\nexec "%s" "$@"\n' "$D" "$FIO" > "$D/bin/fio"
chmod +x "$D/bin/fio"

PATH="$D/bin:$PATH" "$S" review "$D/t.img" --create-size 32M --profile "$D/m.json" --out "$D/fio" --engine fio \
  --quiet 2>"$D/fio.err" || fail "fio review failed: $(cat "$D/fio.err")"
"$S" review "$D/u.img" --create-size 32M --profile "$D/m.json" --out "$D/uring" --engine uring --quiet \
  2>"$D/u.err" || fail "uring review failed: $(cat "$D/u.err")"
for step in cdm fill sweep tail; do
  ls "$D/fio/fio/$step/"*.fio >/dev/null 2>&1 || fail "no job files kept for step $step"
  ls "$D/fio/fio/$step/"*.json >/dev/null 2>&1 || fail "no fio JSON kept for step $step"
done
grep -q '^ioengine=io_uring' "$D/fio/fio/cdm/cdm.RND4K_Q1T1.read.p1.fio" || fail "job file not io_uring"
grep -q '^log_offset=1' "$D/fio/fio/cdm/cdm.RND4K_Q1T1.read.p1.fio" || fail "job file logs no offsets"
grep -q -- '--output-format=json+' "$D/fio-calls" || fail "fio not run with json+: $(cat "$D/fio-calls")"
/usr/bin/python3 - "$D" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
f = json.load(open(d + "/fio/manifest.json")); u = json.load(open(d + "/uring/manifest.json"))
def shape(m):
    keys = ("name", "step", "kind", "state", "cell", "op", "pass", "phase", "qd", "read_pct", "workload", "fill_pct", "purpose")
    return sorted(tuple((k, str(t.get(k))) for k in keys) for t in m["tests"])
if shape(f) != shape(u): sys.exit("fio tests differ from uring tests:\n%s\n%s" % (shape(f), shape(u)))
if f["method"]["engine"] != "fio" or not f["method"]["fio_version"].startswith("fio-"): sys.exit("engine not recorded")
if u["method"]["engine"] != "io_uring": sys.exit("uring engine not recorded: %s" % u["method"])
if any(t["status"] != "complete" for t in f["tests"]): sys.exit("incomplete tests")
if not all(t.get("log") for t in f["tests"]): sys.exit("a test without a log")
byname = {t["name"]: t for t in f["tests"]}
# CrystalDiskMark's interval: the second test's preparing pass idled first
w = byname["cdm.RND4K_Q1T1.read.p0"]["params"]
if w["idle_ns"] != 200000000: sys.exit("interval not recorded: %s" % w)
if not byname["cdm.RND4K_Q1T1.read.p1"]["params"]["engine"].startswith("fio"): sys.exit("engine of the test")
PY
# offsets: every I/O of the tail read lies in the test's span; the sweep's ramp is flagged
"$S" log dump "$D/fio/logs/tail.read.ssdlog" --csv > "$D/tail.csv" || fail "log dump"
"$S" log dump "$D/fio/logs/sweep.QD2.R50.ssdlog" --csv > "$D/sweep.csv" || fail "log dump"
/usr/bin/python3 - "$D" <<'PY' || exit 1
import csv, json, sys
d = sys.argv[1]
m = json.load(open(d + "/fio/manifest.json"))
t = [x for x in m["tests"] if x["name"] == "tail.read"][0]["params"]
rows = list(csv.DictReader(open(d + "/tail.csv")))
if len(rows) != 2000: sys.exit("tail read: %d I/Os, want 2000" % len(rows))
offs = {int(r["offset_bytes"]) for r in rows}
if len(offs) < 1000: sys.exit("offsets not logged (%d distinct)" % len(offs))
if max(offs) + 4096 > t["offset_bytes"] + t["span_bytes"] or min(offs) < t["offset_bytes"]: sys.exit("offset outside the span")
rows = list(csv.DictReader(open(d + "/sweep.csv")))
ramp = [r for r in rows if r["ramp"] == "1"]
if not ramp or len(ramp) == len(rows): sys.exit("sweep ramp not flagged: %d of %d" % (len(ramp), len(rows)))
if max(int(r["submit_ns"]) for r in ramp) >= 100000000: sys.exit("a ramp record after the ramp")
PY
# result is the measured I/Os (the log's non-ramp records) for both engines;
# fio's own total (ramp included) stays in test.fio
"$S" log dump "$D/uring/logs/sweep.QD2.R50.ssdlog" --csv > "$D/usweep.csv" || fail "log dump"
/usr/bin/python3 - "$D" <<'PY' || exit 1
import csv, json, sys
d = sys.argv[1]
for eng, csvf in (("fio", "sweep.csv"), ("uring", "usweep.csv")):
    m = json.load(open("%s/%s/manifest.json" % (d, eng)))
    t = [x for x in m["tests"] if x["name"] == "sweep.QD2.R50"][0]
    rows = list(csv.DictReader(open(d + "/" + csvf)))
    measured = [r for r in rows if r["ramp"] == "0" and int(r["status"]) >= 0]
    if len(measured) == len(rows): sys.exit("%s: no ramp records in the sweep log" % eng)
    if t["result"]["ios"] != len(measured):
        sys.exit("%s: result.ios %d, the log has %d measured I/Os (%d with the ramp)" % (eng, t["result"]["ios"], len(measured), len(rows)))
    if t["result"]["bytes"] != sum(int(r["len_bytes"]) for r in measured): sys.exit("%s: result.bytes" % eng)
    if eng == "fio":
        total = sum(o["ios"] for o in t["fio"]["ops"].values())
        if total != len(rows) or total == t["result"]["ios"]:
            sys.exit("fio: its total %d vs log %d and result %d" % (total, len(rows), t["result"]["ios"]))
PY
"$S" analyze "$D/fio" > "$D/an.out" 2>&1 || fail "analyze: $(cat "$D/an.out")"
/usr/bin/python3 - "$D/fio/analysis.json" <<'PY' || exit 1
import json, sys
a = json.load(open(sys.argv[1]))
if len(a["cdm"]) != 2 or not all(r["read"]["passes"] == 1 and r["write"]["mb_s"] > 0 for r in a["cdm"]): sys.exit("cdm %s" % a["cdm"])
if len(a["rw_sweep"][0]["points"]) != 3: sys.exit("sweep %s" % a["rw_sweep"])
if sorted(a["tail"]) != ["read", "write"]: sys.exit("tail %s" % sorted(a["tail"]))
PY

# resume: an incomplete step reruns alone, the others stay
/usr/bin/python3 - "$D/fio/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["steps"]["sweep"] = "running"; m["steps"]["tail"] = "interrupted"
json.dump(m, open(sys.argv[1], "w"))
PY
: > "$D/fio-calls"
PATH="$D/bin:$PATH" "$S" review "$D/t.img" --profile "$D/m.json" --out "$D/fio" --engine fio --quiet 2>"$D/r.err" \
  || fail "resume: $(cat "$D/r.err")"
grep -q 'cdm\.' "$D/fio-calls" && fail "a resume reran a complete step: $(cat "$D/fio-calls")"
grep -q 'sweep\.QD2\.R0' "$D/fio-calls" || fail "the resume did not rerun the sweep"
grep -q '"tail": "complete"' "$D/fio/manifest.json" || fail "tail not complete after the resume"
/usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); n=[t["name"] for t in m["tests"]]; sys.exit(len(n)!=len(set(n)))' \
  "$D/fio/manifest.json" || fail "the rerun step's tests are duplicated"
"$S" review "$D/t.img" --out "$D/fio" --engine uring --quiet 2>"$D/r2.err" && fail "a fio run resumed with --engine uring"
grep -q 'made with --engine fio' "$D/r2.err" || fail "engine mismatch message: $(cat "$D/r2.err")"

# SIGINT during a fio job: fio is stopped, the test and step are
# "interrupted", exit 130; the same command resumes and completes
cat > "$D/long.json" <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "fio-int",
 "settings": {"passes": 1, "measure_s": 1.5, "interval_s": 0, "region_bytes": "8MiB"},
 "steps": [{"id": "purge", "kind": "purge"}, {"id": "cdm", "kind": "cdm", "cells": ["RND4K Q1T1"], "ops": ["read"]}]}
JSON
"$S" review "$D/i.img" --create-size 16M --profile "$D/long.json" --out "$D/int" --engine fio --quiet 2>"$D/int.err" &
R=$!
i=0
while [ $i -lt 200 ] && ! ls "$D/int/fio/cdm/"*.p0.fio >/dev/null 2>&1; do sleep 0.05; i=$((i + 1)); done
sleep 0.3
kill -INT $R
wait $R; rc=$?
[ $rc = 130 ] || fail "interrupted fio review: exit $rc, want 130: $(cat "$D/int.err")"
grep -q '"cdm": "interrupted"' "$D/int/manifest.json" || fail "step not marked interrupted"
PATH="$D/bin:$PATH" "$S" review "$D/i.img" --profile "$D/long.json" --out "$D/int" --engine fio --quiet 2>"$D/int2.err" \
  || fail "resume after the interrupt: $(cat "$D/int2.err")"
grep -q '"cdm": "complete"' "$D/int/manifest.json" || fail "the interrupted step did not complete on resume"

# what fio cannot do fails first, naming why
mkdir "$D/nofio"
ln -s "$(command -v sh)" "$D/nofio/sh"
PATH="$D/nofio" "$S" review "$D/n.img" --create-size 16M --profile "$D/m.json" --out "$D/n1" --engine fio --quiet \
  2>"$D/n1.err" && fail "ran without fio"
grep -q 'fio is not installed' "$D/n1.err" || fail "missing fio: $(cat "$D/n1.err")"
[ -e "$D/n1" ] && fail "an archive was made without fio"
mkdir "$D/old"
printf '#!/bin/sh\necho fio-2.1\n' > "$D/old/fio"; chmod +x "$D/old/fio"
PATH="$D/old:$PATH" "$S" review "$D/n.img" --profile "$D/m.json" --out "$D/n2" --engine fio --quiet 2>"$D/n2.err" \
  && fail "ran with fio 2.1"
grep -q "fio 'fio-2.1' is too old" "$D/n2.err" || fail "old fio: $(cat "$D/n2.err")"
"$S" review sim:"${SSDREV_ROOT:-.}/samples/models/pm981-256.model" --profile "$D/m.json" --out "$D/n3" --engine fio \
  --quiet 2>"$D/n3.err" && fail "fio on a sim target"
grep -q 'simulated drive' "$D/n3.err" || fail "sim: $(cat "$D/n3.err")"
"$S" review "$D/n.img" --profile "$D/m.json" --out "$D/n4" --engine nosuch --quiet 2>"$D/n4.err" && fail "unknown engine"
grep -q "engine 'nosuch'" "$D/n4.err" || fail "unknown engine: $(cat "$D/n4.err")"
# the guard: a file ssdrev did not create is refused before fio starts
head -c 1048576 /dev/urandom > "$D/mine.img"
sum=$(cksum < "$D/mine.img")
: > "$D/fio-calls"
PATH="$D/bin:$PATH" "$S" review "$D/mine.img" --profile "$D/m.json" --out "$D/n5" --engine fio --quiet 2>"$D/n5.err" \
  && fail "the guard let fio write a file ssdrev did not create"
grep -q 'refusing' "$D/n5.err" || fail "guard message: $(cat "$D/n5.err")"
[ -s "$D/fio-calls" ] && fail "fio was started on a refused target: $(cat "$D/fio-calls")"
[ "$(cksum < "$D/mine.img")" = "$sum" ] || fail "the refused file changed"
# a ':' in the target is a file list to fio: fio must write the file the
# guard checked (opened through /proc/PID/fd), never "$D/v" that ssdrev did
# not create (before: filename=$D/v:w.img wrote $D/v)
head -c 1048576 /dev/urandom > "$D/v"
vsum=$(cksum < "$D/v")
cat > "$D/m2.json" <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "fio-colon",
 "settings": {"passes": 1, "measure_s": 0.1, "interval_s": 0, "region_bytes": "8MiB"},
 "steps": [{"id": "cdm", "kind": "cdm", "cells": ["SEQ1M Q8T1"]}]}
JSON
"$S" review "$D/v:w.img" --create-size 16M --profile "$D/m2.json" --out "$D/colon" --engine fio --quiet \
  2>"$D/colon.err" || fail "a target with ':' failed: $(cat "$D/colon.err")"
[ "$(cksum < "$D/v")" = "$vsum" ] || fail "fio wrote $D/v, a file ssdrev did not create"
grep -q '^filename=/proc/[0-9]*/fd/[0-9]*$' "$D/colon/fio/cdm/"*.fio || fail "job file does not name the checked open file"
# a character fio's job files cannot hold is refused, naming it
"$S" review "$D/x\$y.img" --create-size 16M --profile "$D/m2.json" --out "$D/dollar" --engine fio --quiet \
  2>"$D/dollar.err" && fail "a target with '\$' was accepted"
grep -q "character fio" "$D/dollar.err" || fail "'\$' refusal: $(cat "$D/dollar.err")"
exit 0
