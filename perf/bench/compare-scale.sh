#!/bin/sh
# Batch compare at scale: memory and time for N archives (docs/perf/compare.md).
# Usage: sh perf/bench/compare-scale.sh BUILD_DIR ["N1 N2 ..."] [REPEATS] [FORMATS]
#   defaults: BUILD_DIR=build, N="1000 10000", REPEATS=3, FORMATS=md,csv,xlsx
#   PROFILE=review-full (environment): the base archive from the full
#   method (its QD scaling, steady state, consistency and thermal figures
#   and time series too); default review, the reference method
# Makes one short simulated review and analyzes it, then a fleet of N runs
# that share KINDS=240 distinct analyses: 40 models x 3 firmwares x 2
# variants, each variant's measured values scaled by its own factor
# (0.97 .. 1.03: groups with a spread). A run is a directory of hard links
# to the base's manifest.json and to its variant's analysis.json (no logs:
# the analyses are fresh, so a compare never reads them): 10,000 runs take
# seconds and a few tens of MB instead of 4.4 GB of copies. The analyses
# are read through the page cache (240 files), so the `--no-index` times
# are the parse, not the disk.
# Per N, median of REPEATS wall times and the largest peak RSS
# (/usr/bin/time -v) of:
#   noindex  `compare --no-index`: every analysis.json parsed
#   build    the first compare: parses every analysis and writes the index
#   reuse    the same compare again: every run from the index
set -eu
B=${1:-build}
NS=${2:-"1000 10000"}
REP=${3:-3}
FMT=${4:-md,csv,xlsx}
S="$(cd "$B" && pwd)/ssdrev"
R=$(pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/ssdrev-perf.XXXXXX")
trap 'rm -rf "$T"' EXIT
PROFILE=${PROFILE:-review}
"$S" review "sim:$R/samples/models/pm981-256.model" --profile "$PROFILE" --out "$T/base" --short --seed 5 \
  --label "PM981 256GB" --quiet >/dev/null 2>&1
"$S" analyze "$T/base" >/dev/null 2>&1
echo "base archive ($PROFILE): manifest $(stat -c %s "$T/base/manifest.json") B, analysis $(stat -c %s "$T/base/analysis.json") B"

# KINDS variants of the analysis (label, model and firmware replaced in the
# text, measured values scaled), then N runs of hard links to them
mkfleet() {
  /usr/bin/python3 - "$T/base" "$1" "$2" <<'PY'
import json, os, sys
base, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
kinds = 240
ana = json.load(open(base + "/analysis.json"))
model, fw = "SAMSUNG MZVLB256HAHQ-000L7", "1L2QEXD7"
# what is not a measured value: positions on an axis, counts, identities
keep = {"t_s", "temp_t_s", "gib", "qd", "read_pct", "round", "idle_s", "interval_s", "format_version",
        "content_version", "manifest_crc32c", "passes", "pass", "from_s", "to_s", "bs", "threads", "percentiles"}
def scale(o, k):
    if isinstance(o, dict):
        return {key: (v if key in keep else scale(v, k)) for key, v in o.items()}
    if isinstance(o, list):
        return [scale(v, k) for v in o]
    if isinstance(o, float):
        return o * k
    return o
kd = out + ".kinds"  # beside the fleet: a compare of it must not see it
os.makedirs(kd)
os.makedirs(out)
for v in range(kinds):
    txt = json.dumps(scale(ana, 0.97 + 0.06 * (v // 120)))  # two variants a model and firmware
    txt = txt.replace(model, "LAB-MODEL-%02d" % (v % 40)).replace(fw, "FW%d" % ((v // 40) % 3))
    txt = txt.replace('"label": "PM981 256GB"', '"label": "lab kind %d"' % v)
    open("%s/a%03d.json" % (kd, v), "w").write(txt)
# The manifest stays byte for byte the base's: an analysis is fresh only
# for the manifest whose CRC it records (analyze_is_fresh), and compare
# takes label, model and firmware from the analysis first. Linked after
# the analyses are written: analysis.json must not be older than it.
os.link(base + "/manifest.json", kd + "/manifest.json")
for i in range(n):
    d = "%s/r%05d" % (out, i)
    os.mkdir(d)
    os.link(kd + "/manifest.json", d + "/manifest.json")
    os.link("%s/a%03d.json" % (kd, i % kinds), d + "/analysis.json")
PY
}

# prints "WALL_S RSS_KB CPU_S" of one compare (CPU: user + system, which a
# loaded machine changes less than the wall time)
one() {
  /usr/bin/time -v "$S" compare "$@" >"$T/so" 2>"$T/tv" || { cat "$T/tv" >&2; exit 1; }
  grep -q "^compared $n runs" "$T/so" || { echo "not every run compared: $(cat "$T/so")" >&2; exit 1; }
  w=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$T/tv" | awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
  m=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$T/tv")
  c=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$T/tv")
  echo "$w $m $c"
}
# median wall, max RSS and median CPU of REP lines "WALL RSS CPU" on stdin
summ() { sort -n | awk '{ w[NR] = $1; c[NR] = $3; if ($2 > m) m = $2 } END { printf "median %.2f s (CPU %.2f s), peak RSS %.1f MB (%d runs)\n", w[int((NR + 1) / 2)], c[int((NR + 1) / 2)], m / 1024, NR }'; }
# CASES (environment): which of "noindex build reuse csv" to run (default all)
CASES=${CASES:-noindex build reuse csv}
has() { case " $CASES " in *" $1 "*) return 0 ;; esac; return 1; }

for n in $NS; do
  F="$T/fleet$n"
  t0=$(date +%s.%N)
  mkfleet "$F" "$n"
  echo "N=$n: fleet made in $(echo "$(date +%s.%N) - $t0" | bc) s, $(du -sm "$F" | cut -f1) MB"
  k=0
  has noindex && while [ $k -lt "$REP" ]; do one "$F" --out "$T/out" --format "$FMT" --no-index; k=$((k + 1)); done | summ | sed "s/^/N=$n noindex: /"
  k=0
  # reuse and csv need the index: built once even when build is not timed
  has build || REPB=1
  while [ $k -lt "${REPB:-$REP}" ]; do
    rm -f "$F/ssdrev-index.sqlite"
    one "$F" --out "$T/out" --format "$FMT"
    k=$((k + 1))
  done | summ | sed "s/^/N=$n build:   /" | { has build && cat || cat >/dev/null; }
  echo "N=$n index: $(du -k "$F/ssdrev-index.sqlite" | cut -f1) KB"
  k=0
  has reuse && while [ $k -lt "$REP" ]; do one "$F" --out "$T/out" --format "$FMT"; k=$((k + 1)); done | summ | sed "s/^/N=$n reuse:   /"
  k=0
  has csv && while [ $k -lt "$REP" ]; do one "$F" --out "$T/out" --format csv; k=$((k + 1)); done | summ | sed "s/^/N=$n reuse csv only: /"
  rm -rf "$F" "$F.kinds"
done
