#!/bin/sh
# Simulated-drive speed: I/Os per CPU-second through the sim engine's ops
# (perf/bench/sim-speed.c), and the whole review method on a 256 GB model via
# the CLI when `ssdrev review` is available. Results go to docs/perf/sim.md by
# hand. Usage: perf/bench/sim-speed.sh [BUILD_DIR] [IOS]
set -eu
B=${1:-build}
N=${2:-5000000}
cd "$(dirname "$0")/../.."
make -s BUILD="$B" "$B/libssdrev.a" "$B/ssdrev"
cc -O2 -std=c11 -D_GNU_SOURCE -DNDEBUG -I. -o "$B/sim-speed" perf/bench/sim-speed.c "$B/libssdrev.a" \
  $(pkg-config --libs jansson liburing cairo libcmark-gfm blkid) -lcmark-gfm-extensions -lcsv -lhpdf -lm -lpthread
for model in pm981-256 generic-1tb ftl-8g; do
  echo "== $model ($(nproc) cores, $(date -u +%Y-%m-%d))"
  for rep in 1 2 3; do "$B/sim-speed" "samples/models/$model.model" "$N"; done
done
if "$B/ssdrev" review --help >/dev/null 2>&1; then
  D=$(mktemp -d /tmp/ssdrev-perf.XXXXXX)
  trap 'rm -rf "$D"' EXIT INT TERM
  echo "== ssdrev review on sim:pm981-256 (full method)"
  /usr/bin/time -f '%e s wall, %U s user, %M KiB max RSS' \
    "$B/ssdrev" review "sim:samples/models/pm981-256.model" --out "$D/run" --quiet || echo "review failed"
fi
