#!/bin/sh
# engine-fio.sh — the same method with `ssdrev review --engine uring` and
# `--engine fio` on the same device-limited target (a regular file on the
# root filesystem, made here and removed after), compared per CrystalDiskMark
# cell: ROUNDS rounds, the two engines' order alternating every round, each
# a fresh review archive analyzed by `ssdrev analyze` (max MB/s over the
# passes, as CrystalDiskMark). Prints every round's MB/s, then per cell the
# medians and the median (min..max) of the per-round ratio fio / uring, and
# the load average. The disk device itself is never opened.
#
# usage: perf/bench/engine-fio.sh [SSDREV_BINARY] [ROUNDS] [MEASURE_S]
#   env: DISK_DIR=/var/tmp  where the target file goes (must not be tmpfs)
#        FILE_GB=2          its size
#        PASSES=2           measured CDM passes per cell
#        REGION=512MiB      the CDM test region
#        HUGE=1             reserve 64 more huge pages for the run (vm.nr_hugepages,
#                           restored after; root): the fio engine then puts fio's
#                           buffers in huge pages (iomem=mmaphuge) as ssdrev's
#                           own are, so 1 MiB requests are not split by a disk of
#                           254 segments; HUGE=0 compares fio in 4 KiB pages
set -eu
SSDREV=${1:-build/ssdrev}
ROUNDS=${2:-3}
MEASURE=${3:-2}
DISK_DIR=${DISK_DIR:-/var/tmp}
FILE_GB=${FILE_GB:-2}
PASSES=${PASSES:-2}
REGION=${REGION:-512MiB}
HUGE=${HUGE:-1}
command -v fio >/dev/null 2>&1 || { echo "engine-fio: fio is not installed (apt-get install fio)" >&2; exit 1; }
W=$(mktemp -d /tmp/ssdrev-engine-fio.XXXXXX)
TD=$(mktemp -d -p "$DISK_DIR" ssdrev-engine-fio.XXXXXX) || exit 1 # made here: the cleanup removes only it
T="$TD/target.img"
HUGE_OLD=
cleanup() {
  rm -rf "$W" "$TD"
  if [ -n "$HUGE_OLD" ]; then echo "$HUGE_OLD" > /proc/sys/vm/nr_hugepages; fi
}
trap cleanup EXIT INT TERM
if [ "$HUGE" = 1 ]; then
  HUGE_OLD=$(cat /proc/sys/vm/nr_hugepages)
  echo $((HUGE_OLD + 64)) > /proc/sys/vm/nr_hugepages
fi
cat > "$W/m.json" <<JSON
{"format": "ssdrev-method", "format_version": 1, "name": "engine-fio",
 "description": "CrystalDiskMark Default cells, reads and writes, for the engine cross-check",
 "settings": {"passes": $PASSES, "measure_s": $MEASURE, "interval_s": 1, "region_bytes": "$REGION"},
 "steps": [{"id": "purge", "kind": "purge"},
           {"id": "cdm", "kind": "cdm", "cells": ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]}]}
JSON
echo "engine-fio: $ROUNDS rounds, $PASSES passes of ${MEASURE}s per cell, region $REGION, target $T (${FILE_GB} GiB)"
echo "fio: $(fio --version); huge pages free: $(awk '/HugePages_Free/ {print $2}' /proc/meminfo) (HUGE=$HUGE); load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
r=1
while [ "$r" -le "$ROUNDS" ]; do
  if [ $((r % 2)) = 1 ]; then order="uring fio"; else order="fio uring"; fi
  for e in $order; do
    out="$W/r$r-$e"
    "$SSDREV" review "$T" --create-size "${FILE_GB}G" --profile "$W/m.json" --out "$out" --engine "$e" --quiet
    "$SSDREV" analyze "$out" > /dev/null
    echo "round $r $e done (load $(cut -d' ' -f1 /proc/loadavg))"
  done
  r=$((r + 1))
done
/usr/bin/python3 - "$W" "$ROUNDS" <<'PY'
import json, statistics, sys
w, rounds = sys.argv[1], int(sys.argv[2])
vals = {}
for r in range(1, rounds + 1):
    for e in ("uring", "fio"):
        a = json.load(open("%s/r%d-%s/analysis.json" % (w, r, e)))
        for row in a["cdm"]:
            for op in ("read", "write"):
                vals.setdefault((row["cell"], op), {}).setdefault(e, []).append(row[op]["mb_s"])
print("\n%-12s %-5s %s" % ("cell", "op", "  ".join("r%d uring/fio MB/s" % r for r in range(1, rounds + 1))))
for (cell, op), v in vals.items():
    print("%-12s %-5s %s" % (cell, op, "  ".join("%8.1f/%8.1f" % (u, f) for u, f in zip(v["uring"], v["fio"]))))
print("\n| cell | op | uring MB/s (median) | fio MB/s (median) | fio / uring: median (min..max) |")
print("| --- | --- | ---: | ---: | --- |")
for (cell, op), v in vals.items():
    ratios = [f / u for u, f in zip(v["uring"], v["fio"]) if u > 0]
    print("| %s | %s | %.1f | %.1f | %.3f (%.3f..%.3f) |" % (cell, op, statistics.median(v["uring"]),
          statistics.median(v["fio"]), statistics.median(ratios), min(ratios), max(ratios)))
PY
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
