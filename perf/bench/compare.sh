#!/bin/sh
# Batch compare and fio-log import timing (docs/perf/compare.md).
# Usage: sh perf/bench/compare.sh BUILD_DIR [RUNS]
# Builds a fleet of RUNS archives (CrystalDiskMark imports plus fio imports with
# per-I/O logs), then times `ssdrev compare` with --jobs 1 and --jobs 2 (each
# with --reanalyze so every run is analyzed), median of 3; and times
# `ssdrev import fio` of one large latency log.
set -eu
B=${1:-build}
N=${2:-200}
S="$(cd "$B" && pwd)/ssdrev"
R=$(pwd)
T=$(mktemp -d /tmp/ssdrev-perf.XXXXXX)
trap 'rm -rf "$T"' EXIT
med3() { sort -n | sed -n 2p; }
now() { date +%s.%N; }
cd "$T"
fio --name=j --filename=f.dat --size=64M --ioengine=psync --rw=randread --bs=4k --number_ios=16384 \
  --output-format=json+ --output=small.json --write_lat_log=small --log_avg_msec=0 --log_offset=1 >/dev/null 2>&1
i=0
while [ $i -lt "$N" ]; do
  if [ $((i % 2)) -eq 0 ]; then
    "$S" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --out fleet/r$i --model M$((i % 5)) --firmware F1 >/dev/null
  else
    "$S" import fio small.json --out fleet/r$i --model M$((i % 5)) --firmware F1 --state FOB >/dev/null 2>&1
  fi
  i=$((i + 1))
done
for j in 1 2; do
  for k in 1 2 3; do
    t0=$(now); "$S" compare fleet --out out$j --jobs $j --reanalyze --format md,csv >/dev/null; t1=$(now)
    echo "$t1 - $t0" | bc
  done | med3 | sed "s/^/compare_jobs${j}_s=/" >>res.txt
done
fio --name=big --filename=f.dat --size=64M --ioengine=psync --rw=randread --bs=4k --io_size=8g \
  --output-format=json+ --output=big.json --write_lat_log=big --log_avg_msec=0 --log_offset=1 >/dev/null 2>&1
for k in 1 2 3; do
  rm -rf bigrun; t0=$(now); "$S" import fio big.json --out bigrun >/dev/null; t1=$(now); echo "$t1 - $t0" | bc
done | med3 | sed 's/^/import_2097152_lines_s=/' >>res.txt
echo "runs=$N"; cat res.txt
