#!/bin/sh
# make perf: runs every benchmark script in turn (they are side by side with
# their named peer: fio, numpy) and keeps each one's output in perf-out/.
# The numbers quoted in docs/performance.md come from these scripts.
# Usage: sh perf/bench/run-all.sh BUILD_DIR
B=${1:-build}
OUT=${PERF_OUT:-perf-out}
mkdir -p "$OUT"
run() {
  name=$1; shift
  echo "== $name: $*"
  "$@" > "$OUT/$name.txt" 2>&1
  rc=$?
  tail -n 25 "$OUT/$name.txt"
  [ $rc -eq 0 ] || echo "($name exited $rc; full output in $OUT/$name.txt)"
}
run log-size sh perf/bench/log-size.sh "$B"
run sim-speed sh perf/bench/sim-speed.sh "$B"
run vs-fio sh perf/bench/vs-fio.sh "$B/ssdrev" 5 5
run engine-fio sh perf/bench/engine-fio.sh "$B/ssdrev" 5 5
run pct-vs-numpy sh perf/analyze/pct-vs-numpy.sh "$B/ssdrev"
run import-scale sh perf/analyze/import-scale.sh "$B/ssdrev"
run render sh perf/render/bench.sh "$B" 5
run review sh perf/bench/review.sh "$B"
run compare sh perf/bench/compare.sh "$B"
# memory and the index at 10,000 archives (4.4 GB of disk, about 25 minutes)
run compare-scale sh perf/bench/compare-scale.sh "$B" "1000 10000" 3
