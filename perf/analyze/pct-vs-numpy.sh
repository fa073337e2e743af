#!/bin/sh
# Exact latency percentiles of a 100-million-record log: `ssdrev analyze
# --log --pct-only` (reading and decoding the log included, wall time of the
# whole process) against numpy.percentile(..., method='inverted_cdf') on the
# same latencies already in memory (uint32, loading not timed). Checks that
# both give identical values, prints medians and the ratio.
#
# usage: perf/analyze/pct-vs-numpy.sh [SSDREV] [RECORDS] [RUNS]
#   SSDREV   optimized build of ssdrev (default build/ssdrev)
#   RECORDS  log records (default 100000000; the synthetic log flags the first
#            5% as ramp, so 95% are measured samples)
#   RUNS     timed runs of each side; the median is reported (default 5)
# Needs ~1 GB in $TMPDIR and /usr/bin/python3 with numpy.
set -eu
SSDREV=${1:-build/ssdrev}
N=${2:-100000000}
RUNS=${3:-5}
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/ssdrev-perf.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
PCTS=50,90,99,99.9,99.99,99.999

echo "generating a $N-record log (ssdrev log synth)..."
"$SSDREV" log synth "$T/big.ssdlog" --records "$N" --seed 1 --force >/dev/null
"$SSDREV" analyze --log "$T/big.ssdlog" --export-lat32 "$T/lat.u32"
ls -l "$T/big.ssdlog" "$T/lat.u32" | awk '{print "  " $5 " bytes  " $NF}'

$PY - "$SSDREV" "$T/big.ssdlog" "$T/lat.u32" "$PCTS" "$RUNS" <<'PYEOF'
import json, resource, statistics, subprocess, sys, time
import numpy as np
ssdrev, log, lat, pcts, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
ps = [float(p) for p in pcts.split(",")]
a = np.fromfile(lat, dtype=np.uint32)
cmd = [ssdrev, "analyze", "--log", log, "--pct-only", "--json", "--percentiles", pcts]
subprocess.run(cmd, check=True, capture_output=True)  # warm the page cache
def child_cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime
ts, tn, cs, cn, out = [], [], [], [], None
for _ in range(runs):
    c = child_cpu()
    t = time.perf_counter()
    r = subprocess.run(cmd, check=True, capture_output=True)
    ts.append(time.perf_counter() - t)
    cs.append(child_cpu() - c)
    out = json.loads(r.stdout)
    c = time.process_time()
    t = time.perf_counter()
    want = np.percentile(a, ps, method="inverted_cdf")
    tn.append(time.perf_counter() - t)
    cn.append(time.process_time() - c)
got = [e["lat_ns"] for e in out["pct"]]
assert out["samples"] == len(a), (out["samples"], len(a))
assert [int(x) for x in want] == got, (list(want), got)
ms, mn = statistics.median(ts), statistics.median(tn)
print("samples            %d (uint32 in numpy)" % len(a))
print("percentiles        %s -> %s ns (identical)" % (pcts, got))
print("ssdrev  runs (s)   %s" % " ".join("%.3f" % x for x in ts))
print("numpy   runs (s)   %s" % " ".join("%.3f" % x for x in tn))
print("median  ssdrev %.3f s, numpy %.3f s, ratio numpy/ssdrev %.2fx (wall time)" % (ms, mn, mn / ms))
print("ratio per run      %s" % " ".join("%.2f" % (b / a) for a, b in zip(ts, tn)))
mcs, mcn = statistics.median(cs), statistics.median(cn)
print("CPU time (median)  ssdrev %.3f s (all threads), numpy %.3f s, ratio %.2fx" % (mcs, mcn, mcn / mcs))
print("load average       %s" % open("/proc/loadavg").read().split()[0])

# Memory: peak anonymous RSS (the log itself is a shared file mapping whose
# page-cache pages do not count), sampled every 2 ms from /proc.
def peak_anon(c):
    p = subprocess.Popen(c, stdout=subprocess.DEVNULL)
    peak = 0
    while p.poll() is None:
        try:
            for line in open("/proc/%d/status" % p.pid):
                if line.startswith("RssAnon:"):
                    peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.002)
    return peak
print("peak anonymous RSS of ssdrev: %d KiB" % peak_anon(cmd))
PYEOF
