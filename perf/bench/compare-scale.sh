#!/bin/sh
# Batch compare at scale: memory and time for N archives (docs/perf/compare.md).
# Usage: sh perf/bench/compare-scale.sh BUILD_DIR ["N1 N2 ..."] [REPEATS] [FORMATS]
#   defaults: BUILD_DIR=build, N="1000 10000", REPEATS=3, FORMATS=md,csv,xlsx
# Makes one short simulated review and analyzes it, then a fleet of N copies
# of its manifest.json and analysis.json (no logs: the analyses are fresh, so
# a compare never reads them) with varied labels, 40 models and 3 firmwares.
# Per N, median of REPEATS wall times and the largest peak RSS
# (/usr/bin/time -v) of:
#   noindex  `compare --no-index`: every analysis.json parsed
#   build    the first compare: parses every analysis and writes the index
#   reuse    the same compare again: every run from the index
# Needs about 450 KB of disk per archive under $TMPDIR (4.4 GB for 10,000).
set -eu
B=${1:-build}
NS=${2:-"1000 10000"}
REP=${3:-3}
FMT=${4:-md,csv,xlsx}
S="$(cd "$B" && pwd)/ssdrev"
R=$(pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/ssdrev-perf.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$S" review "sim:$R/samples/models/pm981-256.model" --out "$T/base" --short --seed 5 --label "PM981 256GB" \
  --quiet >/dev/null 2>&1
"$S" analyze "$T/base" >/dev/null 2>&1
echo "base archive: manifest $(stat -c %s "$T/base/manifest.json") B, analysis $(stat -c %s "$T/base/analysis.json") B"

# one copy per run: label, model and firmware replaced in the raw text (a
# JSON parse per copy would take longer than the compare)
mkfleet() {
  /usr/bin/python3 - "$T/base" "$1" "$2" <<'PY'
import os, sys
base, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
man = open(base + "/manifest.json", "rb").read()
ana = open(base + "/analysis.json", "rb").read()
model, fw, label = b"SAMSUNG MZVLB256HAHQ-000L7", b"1L2QEXD7", b'"PM981 256GB"'
os.makedirs(out)
for i in range(n):
    d = "%s/r%05d" % (out, i)
    os.mkdir(d)
    sub = lambda s: (s.replace(model, b"LAB-MODEL-%02d" % (i % 40)).replace(fw, b"FW%d" % (i % 3))
                     .replace(label, b'"lab run %d"' % i))
    # manifest first: analysis.json must not be older than it. The manifest
    # stays byte for byte the base's: an analysis is fresh only for the
    # manifest whose CRC it records (analyze_is_fresh), and compare takes
    # label, model and firmware from the analysis first
    open(d + "/manifest.json", "wb").write(man)
    open(d + "/analysis.json", "wb").write(sub(ana))
PY
}

# prints "WALL_S RSS_KB" of one compare
one() {
  /usr/bin/time -v "$S" compare "$@" >/dev/null 2>"$T/tv" || { cat "$T/tv" >&2; exit 1; }
  w=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$T/tv" | awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
  m=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$T/tv")
  echo "$w $m"
}
# median wall and max RSS of REP lines "WALL RSS" on stdin
summ() { sort -n | awk '{ w[NR] = $1; if ($2 > m) m = $2 } END { printf "median %.2f s, peak RSS %.1f MB (%d runs)\n", w[int((NR + 1) / 2)], m / 1024, NR }'; }

for n in $NS; do
  F="$T/fleet$n"
  t0=$(date +%s.%N)
  mkfleet "$F" "$n"
  echo "N=$n: fleet made in $(echo "$(date +%s.%N) - $t0" | bc) s, $(du -sm "$F" | cut -f1) MB"
  k=0
  while [ $k -lt "$REP" ]; do one "$F" --out "$T/out" --format "$FMT" --no-index; k=$((k + 1)); done | summ | sed "s/^/N=$n noindex: /"
  k=0
  while [ $k -lt "$REP" ]; do
    rm -f "$F/ssdrev-index.sqlite"
    one "$F" --out "$T/out" --format "$FMT"
    k=$((k + 1))
  done | summ | sed "s/^/N=$n build:   /"
  echo "N=$n index: $(du -k "$F/ssdrev-index.sqlite" | cut -f1) KB"
  k=0
  while [ $k -lt "$REP" ]; do one "$F" --out "$T/out" --format "$FMT"; k=$((k + 1)); done | summ | sed "s/^/N=$n reuse:   /"
  k=0
  while [ $k -lt "$REP" ]; do one "$F" --out "$T/out" --format csv; k=$((k + 1)); done | summ | sed "s/^/N=$n reuse csv only: /"
  rm -rf "$F"
done
