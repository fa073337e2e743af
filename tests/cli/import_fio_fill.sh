#!/bin/sh
# import_fio_fill: fio fills become fill traces (issue 15).
# - a fio bandwidth log averaged over windows (write_bw_log, log_avg_msec=500)
#   of a sequential 12 GiB fill: the trace and the SLC cliff at 2 GiB;
# - the same fill as a per-I/O latency log without log_offset: offsets are
#   rebuilt from the sequential pattern and the cliff is found;
# - a random write job is no fill: no trace, no cache.
# The fio outputs are written here in fio 3.x's shape (no device is touched).
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "import_fio_fill: $*" >&2; exit 1; }
ROOT=$(pwd); export ROOT
cd "$T" || exit 1
python3 - <<'PY' || fail "cannot write the fixtures"
import json, copy
import os
base = json.load(open(os.path.join(os.environ["ROOT"], "samples/fio/small.json")))
GIB = 2**30
def out(name, opts, write_bytes, rw="write"):
    j = copy.deepcopy(base)
    j["global options"] = opts
    job = j["jobs"][0]
    job["job options"] = {"rw": rw}
    ios = write_bytes // 131072
    job["write"].update({"io_bytes": write_bytes, "total_ios": ios, "bw_bytes": 700000000, "runtime": 18000})
    job["read"].update({"io_bytes": 0, "total_ios": 0})
    json.dump(j, open(name + ".json", "w"))
    return ios
# 2 GiB at 2000 MB/s, then 10 GiB at 500 MB/s
def speed(b): return 2000e6 if b < 2 * GIB else 500e6
total = 12 * GIB
# 1. averaged bandwidth log: 500 ms windows, value KiB/s
opts = {"size": "12g", "bs": "128k", "ioengine": "libaio", "iodepth": "1", "filename": "/tmp/x",
        "write_bw_log": "bwfill", "log_avg_msec": "500"}
out("bw", opts, total)
with open("bwfill_bw.1.log", "w") as f:
    b, t = 0.0, 0.0
    while b < total:
        w, dt = 0.0, 0.0
        while dt < 0.5 and b < total:
            step = 4 << 20
            dt += step / speed(b); b += step; w += step
        t += dt
        f.write("%d, %d, 1, 131072, 0\n" % (round(t * 1000), round(w / dt / 1024)))
# 2. per-I/O latency log without log_offset, sequential
opts2 = {"size": "12g", "bs": "128k", "ioengine": "libaio", "iodepth": "1", "filename": "/tmp/x",
         "write_lat_log": "latfill", "log_avg_msec": "0"}
ios = out("lat", opts2, total)
with open("latfill_lat.1.log", "w") as f:
    b, t = 0, 0.0
    for i in range(ios):
        lat = 131072 / speed(b)
        t += lat; b += 131072
        f.write("%d, %d, 1, 131072, 0\n" % (int(t * 1000), round(lat * 1e9)))
# 3. a random job's log without offsets
opts3 = {"size": "12g", "bs": "128k", "ioengine": "libaio", "iodepth": "1", "filename": "/tmp/x",
         "write_lat_log": "rnd", "log_avg_msec": "0"}
ios = out("rnd", opts3, total, rw="randwrite")
with open("rnd_lat.1.log", "w") as f:
    for i in range(ios): f.write("%d, %d, 1, 131072, 0\n" % (i // 10, 200000))
PY
for k in bw lat rnd; do
  "$SSDREV" import fio "$k.json" --out "run-$k" >"$k.out" 2>"$k.err" || fail "import $k: $(cat "$k.err")"
  "$SSDREV" analyze "run-$k" >"$k.txt" 2>"$k.aerr" || fail "analyze $k: $(cat "$k.aerr")"
done
python3 - <<'PY' || fail "analysis check failed"
import json, sys
def slc(k):
    a = json.load(open("run-%s/analysis.json" % k))
    return a, a.get("fill", {}).get("slc", {})
for k in ("bw", "lat"):
    a, s = slc(k)
    if not s.get("found"): sys.exit("%s: no cliff found: %s" % (k, s))
    if abs(s["max_gib"] - 2) > 1 / 16: sys.exit("%s: cliff at %s GiB, want 2" % (k, s["max_gib"]))
    for key, want in (("cache_mb_s", 2000), ("post_cache_mb_s", 500)):
        if abs(s[key] - want) > 0.05 * want: sys.exit("%s: %s %s, want %s" % (k, key, s[key], want))
m = json.load(open("run-lat/manifest.json"))
if "rebuilt" not in m["tests"][0]["log_source"].get("offsets", ""): sys.exit("lat: offsets not said to be rebuilt")
a = json.load(open("run-rnd/analysis.json"))
if a.get("fill"): sys.exit("rnd: a random job analyzed as a fill")
PY
grep -q "SLC cache: [0-9.]* GiB at" bw.txt || fail "bw: table lacks the cache: $(grep SLC bw.txt)"
exit 0
