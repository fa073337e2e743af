#!/bin/sh
# log-size.sh — measures the binary I/O log: bytes per I/O (synthetic and a
# real `ssdrev run` 4 KiB random read QD32 over 1 GiB on a /dev/shm file, and
# on a loop device over a /dev/shm file when run as root), and decode speed
# (records/s) over a 100-million-record synthetic log.
# Usage: sh perf/bench/log-size.sh [BUILD_DIR] [RECORDS]   (default build, 100000000)
# Writes only under a mktemp -d directory in /dev/shm; detaches what it attaches.
set -eu
B=${1:-build}
N=${2:-100000000}
S="$B/ssdrev"
[ -x "$S" ] || { echo "build $S first (make BUILD=$B)" >&2; exit 1; }
T=$(mktemp -d /dev/shm/ssdrev-logperf.XXXXXX)
LOOP=""
cleanup() {
  [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
  rm -rf "$T"
}
trap cleanup EXIT INT TERM

bpr() { "$S" log info "$1" --json | sed -n 's/.*"bytes_per_record": \([0-9.]*\).*/\1/p'; }
batch() {  # records per reap batch: records / distinct completion stamps
  "$S" log dump "$1" --csv | awk -F, 'NR > 1 { d = $1 + $2; if (d != p) b++; p = d; n++ } END { printf "%.2f", n / b }'
}

echo "== machine: $(nproc) cores, $(uname -r), $(date -u +%Y-%m-%d), load $(cut -d" " -f1-3 /proc/loadavg)"
echo "== synthetic 4K random read QD32 over 1 GiB (300000 records), by engine loop time"
for loop in 1000 3000 10000 20000 50000; do
  "$S" log synth "$T/syn.ssdlog" --records 300000 --seed 1 --loop-ns $loop --force
  echo "loop_ns=$loop records/reap=$(batch "$T/syn.ssdlog") bytes/io=$(bpr "$T/syn.ssdlog")"
done

echo "== real: ssdrev run randread 4k QD32, 1 GiB file in /dev/shm, 5 s"
"$S" run "$T/target.bin" --create-size 1g --out "$T/run" --rw randread --bs 4k --iodepth 32 \
  --runtime 5s --name rr >/dev/null
echo "records/reap=$(batch "$T/run/logs/rr.ssdlog") bytes/io=$(bpr "$T/run/logs/rr.ssdlog")"
"$S" log info "$T/run/logs/rr.ssdlog" | sed -n '/records  /p;/column bytes/,/chunk headers/p'

if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1; then
  echo "== real: the same on a loop device (direct I/O) over a /dev/shm file"
  truncate -s 1G "$T/loop.img"
  if LOOP=$(losetup --direct-io=on -f --show "$T/loop.img" 2>/dev/null); then
    "$S" run "$LOOP" --out "$T/runl" --rw randread --bs 4k --iodepth 32 --size 1g \
      --runtime 5s --name rr >/dev/null
    echo "records/reap=$(batch "$T/runl/logs/rr.ssdlog") bytes/io=$(bpr "$T/runl/logs/rr.ssdlog")"
    losetup -d "$LOOP"; LOOP=""
  else
    echo "(no loop device available)"
  fi
fi

echo "== in-cache decode of one 8192-value lat column, and CRC32C"
cc -std=c11 -D_GNU_SOURCE -O2 -I. $(pkg-config --cflags jansson) -o "$T/decbench" \
  perf/bench/log_decode_bench.c "$B/libssdrev.a" $(pkg-config --libs jansson) -lm -lpthread
"$T/decbench"

echo "== decode speed: $N synthetic records, median of 5 passes in one process"
"$S" log synth "$T/big.ssdlog" --records "$N" --seed 1 --force
ls -l "$T/big.ssdlog" | awk '{ print "file bytes " $5 }'
for cols in none lat lat,status,flags,op submit all; do
  echo "cols=$cols $("$S" log scan "$T/big.ssdlog" --cols $cols --passes 5)"
done
