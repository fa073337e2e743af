#!/bin/sh
# Wall time of `ssdrev review` on the sim models: the whole reference method
# (profiles/review.json, 5 passes) and the short mode, 3 runs each; prints
# the median. Usage: perf/bench/review.sh [BUILD_DIR]   (default: build)
set -eu
B=${1:-build}
S="$B/ssdrev"
[ -x "$S" ] || { echo "build $S first (make BUILD=$B)"; exit 1; }
D=$(mktemp -d /tmp/ssdrev-perf.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run() { # label, args...
  label=$1; shift
  for i in 1 2 3; do
    rm -rf "$D/run"
    t0=$(date +%s.%N)
    "$S" review "$@" --out "$D/run" --quiet
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc
  done | median | sed "s/^/$label: median wall s = /"
  du -sb "$D/run" | awk '{printf "  archive %.0f MB\n", $1 / 1e6}'
}
for m in pm981-256 pm981a-256; do
  run "$m short" "sim:samples/models/$m.model" --short
  run "$m full" "sim:samples/models/$m.model"
done
