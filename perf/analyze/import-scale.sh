#!/bin/sh
# Import and analysis at scale (issue 26 item 12): wall time of
#   import   `ssdrev import fio J.json --no-logs` of a fio JSON of N jobs
#            (each job the first of samples/fio/small.json, renamed), and
#   analyze  `ssdrev analyze RUN --quiet` of a manifest of N tests, a
#            quarter each CDM cells (FOB and Full), QD-scaling points,
#            RW-sweep groups and steady-state rounds (summaries, no logs),
# median of REPEATS per N (wall and CPU seconds). Both were quadratic before issue 26.
# Usage: sh perf/analyze/import-scale.sh SSDREV ["JOBS..."] ["TESTS..."] [REPEATS]
#   defaults: "20000 40000", "100000 200000", 3 (an empty list: none). Needs python3; about 1.3 GB
#   of memory and 700 MB of disk under $TMPDIR at 40,000 jobs.
set -eu
S=$(command -v "${1:?usage: import-scale.sh SSDREV [JOBS] [TESTS] [REPEATS]}")
JOBS=${2-"20000 40000"}
TESTS=${3-"100000 200000"}
REP=${4:-3}
R=$(pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/ssdrev-perf.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM # the EXIT trap cleans up after a signal too
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# "WALL CPU" seconds of "$@" (CPU: user + system; the machine is shared, so
# CPU time is the steadier figure)
timed() {
  /usr/bin/time -f "%e %U %S" -o "$T/time" "$@" >/dev/null 2>"$T/err" || { echo "failed: $* ($(cat "$T/err"))" >&2; exit 1; }
  awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$T/time"
}
# prints "LABEL: median wall W s, median CPU C s" from lines "WALL CPU"
report() {
  cat >"$T/rows"
  echo "$1: median wall $(cut -d' ' -f1 "$T/rows" | median) s, median CPU $(cut -d' ' -f2 "$T/rows" | median) s"
}
for n in $JOBS; do
  python3 - "$R/samples/fio/small.json" "$T/j.json" "$n" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
base = d["jobs"][0]
d["jobs"] = [dict(copy.deepcopy(base), jobname="j%d" % i) for i in range(int(sys.argv[3]))]
json.dump(d, open(sys.argv[2], "w"))
PY
  for r in $(seq "$REP"); do
    rm -rf "$T/run"
    timed "$S" import fio "$T/j.json" --out "$T/run" --no-logs
  done | report "import $n jobs"
  rm -rf "$T/run" "$T/j.json"
done
for n in $TESTS; do
  python3 - "$T/big" "$n" <<'PY'
import json, os, sys
tests = []
for i in range(int(sys.argv[2])):
    k = ("cdm", "qd_scaling", "rw_sweep", "steady_state")[i % 4]
    full = k == "cdm" and i // 4 % 2 == 1
    t = {"name": "t%d" % i, "kind": k, "status": "complete", "params": {"pattern": "rand", "read_pct": 0},
         "summary_ops": {"all": {"ios": 1, "mb_s": 100.0 if full else 1000.0, "iops": 1.0 + i, "lat_mean_us": 1.0}}}
    if k == "cdm": t.update(state="Full" if full else "FOB", cell="RND4K Q%dT1" % (i // 8), op="write")
    if k == "qd_scaling": t.update(workload="write", qd=i)
    if k == "rw_sweep": t.update(qd=i, read_pct=50)
    if k == "steady_state": t.update(tracking=True, round=i // 4 + 1)
    tests.append(t)
os.makedirs(sys.argv[1], exist_ok=True)
json.dump({"format": "ssdrev-run", "format_version": 1, "target": {"spec": "x"}, "steps": {}, "tests": tests},
          open(sys.argv[1] + "/manifest.json", "w"))
PY
  for r in $(seq "$REP"); do timed "$S" analyze "$T/big" --quiet; done | report "analyze $n tests"
  rm -rf "$T/big"
done
