#!/bin/sh
# ssdrev analyze's exact percentiles equal numpy.percentile(..., method=
# 'inverted_cdf') to the nanosecond, on synthetic logs from 1 to 200000
# records (ties included; ramp records excluded). Skips without numpy (exit 77).
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
PY=/usr/bin/python3
if ! $PY -c 'import numpy' 2>/dev/null; then echo "skip: numpy not available"; exit 77; fi
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
P=0.001,1,25,50,90,99,99.9,99.99,99.999,100
fail=0
for spec in 1:1 2:2 3:3 7:4 10:5 21:6 100:7 1000:8 12345:9 200000:10; do
  n=${spec%:*}; seed=${spec#*:}
  "$SSDREV" log synth "$T/l.ssdlog" --records "$n" --seed "$seed" --force >/dev/null || { echo "synth $n failed"; exit 1; }
  "$SSDREV" log dump "$T/l.ssdlog" --csv > "$T/l.csv" || { echo "dump $n failed"; exit 1; }
  "$SSDREV" analyze --log "$T/l.ssdlog" --pct-only --json --percentiles "$P" > "$T/fast.json" || { echo "analyze --pct-only $n failed"; exit 1; }
  "$SSDREV" analyze --log "$T/l.ssdlog" --json --percentiles "$P" > "$T/full.json" || { echo "analyze --log $n failed"; exit 1; }
  $PY - "$T/l.csv" "$T/fast.json" "$T/full.json" "$P" <<'PYEOF' || fail=1
import csv, json, sys
import numpy as np
rows = list(csv.DictReader(open(sys.argv[1])))
lat = np.array([int(r["lat_ns"]) for r in rows if r["ramp"] == "0" and int(r["status"]) == 0], dtype=np.uint64)
ps = [float(x) for x in sys.argv[4].split(",")]
fast = json.load(open(sys.argv[2]))
full = json.load(open(sys.argv[3]))
assert fast["samples"] == len(lat), ("sample count", fast["samples"], len(lat))
if len(lat) == 0:
    sys.exit(0)
want = np.percentile(lat, ps, method="inverted_cdf")
got_fast = [e["lat_ns"] for e in fast["pct"]]
test = list(full["tests"].values())[0]
got_full = [e["lat_ns"] for e in test["ops"]["all"]["pct"]]
for p, w, a, b, e in zip(ps, want, got_fast, got_full, fast["pct"]):
    ge = int((lat >= w).sum())
    if int(w) != a or int(w) != b or e["at_or_beyond"] != ge:
        print("n=%d p%g: numpy %d (>= %d), pct-only %d (>= %d), analyze %d" % (len(lat), p, w, ge, a, e["at_or_beyond"], b))
        sys.exit(1)
PYEOF
done
[ $fail -eq 0 ] || { echo "percentiles differ from numpy"; exit 1; }
exit 0
