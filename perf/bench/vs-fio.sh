#!/bin/sh
# vs-fio.sh — ssdrev's io_uring engine side by side with fio on the same jobs,
# on two targets, in an order that rotates every round; prints each run, the
# medians and the ratios, one table row per target and cell:
#   loop  a loop device over a file in /dev/shm: RAM-backed, the host CPU (the
#         loop worker's and the tools') is the limit;
#   disk  a regular file on the root filesystem (O_DIRECT, DISK_GB GiB, made
#         and deleted here; the disk device itself is never opened): the disk
#         behind it is the limit. Its busy share and request sizes are read
#         from /proc/diskstats of the device under the root filesystem.
# Needs root (losetup); installs fio from Debian when missing.
#
# usage: perf/bench/vs-fio.sh [SSDREV_BINARY] [ROUNDS] [SECONDS]
#   env: TARGETS="loop disk"  which targets (default both)
#        CASES="rr32 qd1 cdm nvme rss"  which groups (default all; cdm = the
#        CrystalDiskMark Default cells, nvme = the NVMe profile's others)
#        FIO_OPTS=...     extra fio options (default none: fio as people run it)
#        FIO_LOG=1        fio writes its per-I/O latency log (write_lat_log,
#                         log_avg_msec=0), as ssdrev always keeps one (default 1)
#        SSDREV_OPTS=...  extra ssdrev run options (e.g. "--submit batch")
#        PIN=1            CPU the single-thread jobs of both tools are pinned to
#                         (taskset; PIN= for none)
#        DISK_DIR=/var/tmp  where the disk target's file goes (must not be tmpfs)
#        DISK_GB=4
#        FIO_HUGE=1       fio's buffers in 2 MiB huge pages (--iomem=mmaphuge on
#                         a hugetlbfs mounted here; vm.nr_hugepages raised by 64
#                         for the run and restored): ssdrev's buffers are in
#                         transparent huge pages, fio's otherwise in 4 KiB pages,
#                         which a disk with max_segments 254 splits at 1 MiB
# Per cell: medians of fio IOPS, ssdrev IOPS (with log, without), the median
# and min..max of the per-round ratio ssdrev+log / fio, mean-latency ratio,
# CPU time (user+sys) per I/O of each tool, the device's busy share (disk:
# io_ticks; loop: the CPU not pinned, which runs the loop worker) and KiB per
# request reaching the device (disk only), plus the load average.
set -eu
SSDREV=${1:-build/ssdrev}
ROUNDS=${2:-5}
SECS=${3:-5}
TARGETS=${TARGETS:-"loop disk"}
CASES=${CASES:-"rr32 qd1 cdm nvme rss"}
PIN=${PIN-1}
FIO_OPTS=${FIO_OPTS:-}
FIO_LOG=${FIO_LOG:-1}
SSDREV_OPTS=${SSDREV_OPTS:-}
DISK_DIR=${DISK_DIR:-/var/tmp}
DISK_GB=${DISK_GB:-4}
pin() { if [ -n "$PIN" ] && [ "$1" = 1 ]; then echo "taskset -c $PIN"; fi; }
[ -x "$SSDREV" ] || { echo "vs-fio: no ssdrev binary at $SSDREV (make first)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "vs-fio: needs root for losetup" >&2; exit 1; }
if ! command -v fio >/dev/null 2>&1; then
  # a fresh machine has no package lists yet
  { apt-get update -q >/dev/null && apt-get install -y -q fio >/dev/null; } || { echo "vs-fio: cannot install fio" >&2; exit 1; }
fi
# Logs and results in RAM, so neither tool's log writes land on the disk target.
W=$(mktemp -d /dev/shm/vs-fio.XXXXXX)
IMG=/dev/shm/ssdrev-vs-fio.$$.img
FILE=""
LOOP=""
HUGE_OLD=""
cleanup() {
  [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
  if [ -n "$HUGE_OLD" ]; then umount "$W/huge" 2>/dev/null; echo "$HUGE_OLD" >/proc/sys/vm/nr_hugepages; fi
  [ -n "$FILE" ] && rm -f "$FILE"
  rm -f "$IMG"; rm -rf "$W"
}
trap cleanup EXIT INT TERM
if [ "${FIO_HUGE:-0}" = 1 ]; then
  HUGE_OLD=$(cat /proc/sys/vm/nr_hugepages)
  echo $((HUGE_OLD + 64)) >/proc/sys/vm/nr_hugepages
  mkdir -p "$W/huge" && mount -t hugetlbfs none "$W/huge" || { echo "vs-fio: cannot mount hugetlbfs" >&2; exit 1; }
  FIO_OPTS="$FIO_OPTS --iomem=mmaphuge:$W/huge/fio.buf"
fi
echo "vs-fio: FIO_OPTS='$FIO_OPTS' FIO_LOG=$FIO_LOG SSDREV_OPTS='$SSDREV_OPTS' rounds=$ROUNDS seconds=$SECS PIN='$PIN'"
echo "vs-fio: $(date -u +%FT%TZ) $(uname -r) $(nproc) cores, $("$SSDREV" --version), $(fio --version)"

OTHER_CPU=$([ "${PIN:-}" = 0 ] && echo 1 || echo 0)
cpu_ticks() { awk -v c="cpu$1" '$1 == c {t = 0; for (i = 2; i <= NF; i++) t += $i; print $5 + $6, t}' /proc/stat; }
# The disk under a path: the whole-disk name in /proc/diskstats (vda for vda1).
disk_of() {
  _mm=$(stat -c '%d' "$1"); _maj=$((_mm >> 8)); _min=$((_mm & 255))
  _n=$(awk -v a="$_maj" -v b="$_min" '$1 == a && $2 == b {print $3}' /proc/diskstats)
  [ -e "/sys/class/block/$_n/partition" ] && _n=$(basename "$(dirname "$(readlink -f "/sys/class/block/$_n")")")
  echo "$_n"
}
# "ios sectors io_ticks_ms" (reads + writes) of disk $DEV, read-only.
disk_stats() { awk -v d="$DEV" '$3 == d {print $4 + $8, $6 + $10, $13}' /proc/diskstats; }
now_ms() { date +%s%3N; }
# in_steady BUSYFILE REQFILE FUNC ARGS...: runs FUNC in the background and
# appends to BUSYFILE the device's busy % over the steady middle of the run
# (1 s in to 0.5 s before the end) and to REQFILE the KiB per request there.
in_steady() {
  _bf=$1; _rf=$2; shift 2
  "$@" >"$W/job.out" &
  _pid=$!
  sleep 1
  if [ "$KIND" = disk ]; then _a="$(disk_stats) $(now_ms)"; else _a=$(cpu_ticks "$OTHER_CPU"); fi
  sleep "$(echo "$SECS" | awk '{print ($1 > 2 ? $1 - 1.5 : 0.5)}')"
  if [ "$KIND" = disk ]; then _b="$(disk_stats) $(now_ms)"; else _b=$(cpu_ticks "$OTHER_CPU"); fi
  wait "$_pid"
  if [ "$KIND" = disk ]; then
    echo "$_a $_b" | awk '{t = $8 - $4; printf "%.1f\n", (t > 0 ? 100 * ($7 - $3) / t : 0)}' >>"$_bf"
    echo "$_a $_b" | awk '{n = $5 - $1; printf "%.1f\n", (n > 0 ? ($6 - $2) / 2 / n : 0)}' >>"$_rf"
  else
    echo "$_a $_b" | awk '{d = $4 - $2; printf "%.1f\n", (d > 0 ? 100 * (1 - ($3 - $1) / d) : 0)}' >>"$_bf"
    echo 0 >>"$_rf"
  fi
  cat "$W/job.out"
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
minmax() { sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.3f..%.3f", lo, hi}'; }

# fio_job NAME RW BS QD THREADS -> prints "IOPS MEANLAT_NS CPU_NS_PER_IO"
fio_job() {
  _thr=""; _log=""
  # Several jobs as threads of one process, as ssdrev's --threads (and
  # CrystalDiskMark's DiskSpd -t16) run them; fio's default forks one
  # process each, which on 2 CPUs halves its T16 IOPS.
  [ "$5" -gt 1 ] && _thr="--thread"
  rm -f "$W"/fl_*.log
  [ "$FIO_LOG" = 1 ] && _log="--write_lat_log=$W/fl --log_avg_msec=0"
  /usr/bin/time -f '%U %S' -o "$W/fio.cpu" $(pin "$5") fio --name="$1" --filename="$TGT" --rw="$2" --bs="$3" \
      --iodepth="$4" --numjobs="$5" $_thr --ioengine=io_uring --direct=1 $FIO_OPTS $_log --size=$SIZE --time_based \
      --runtime="$SECS" --group_reporting --output-format=json --output="$W/fio.json" >/dev/null
  python3 -c '
import json,sys
j=json.load(open(sys.argv[1]))["jobs"][0]
io=j["read"]["total_ios"]+j["write"]["total_ios"]
iops=j["read"]["iops"]+j["write"]["iops"]
lat=(j["read"]["lat_ns"]["mean"]*j["read"]["total_ios"]+j["write"]["lat_ns"]["mean"]*j["write"]["total_ios"])/max(io,1)
u,s=map(float,open(sys.argv[2]).read().split()[-2:])
print("%.0f %.0f %.0f" % (iops, lat, (u+s)*1e9/max(io,1)))' "$W/fio.json" "$W/fio.cpu"
}

# ssd_job NAME RW BS QD THREADS [--no-log] -> prints "IOPS MEANLAT_NS CPU_NS_PER_IO"
ssd_job() {
  rm -rf "$W/run"
  /usr/bin/time -f '%U %S' -o "$W/ssd.cpu" $(pin "$5") "$SSDREV" run "$TGT" --out "$W/run" --rw "$2" --bs "$3" \
      --iodepth "$4" --threads "$5" --size $SIZE --runtime "${SECS}s" --engine io_uring --destructive --force \
      --quiet $SSDREV_OPTS ${6:-} >"$W/ssd.txt"
  python3 -c '
import json,sys
m=json.load(open(sys.argv[1]))["tests"][-1]["result"]
u,s=map(float,open(sys.argv[2]).read().split()[-2:])
# all I/Os the process made: measured ones over the run time
print("%.0f %.0f %.0f" % (m["iops"], m["mean_lat_ns"], (u+s)*1e9/max(m["ios"],1)))' "$W/run/manifest.json" "$W/ssd.cpu"
}

# compare LABEL RW BS QD THREADS: fio, ssdrev (log), ssdrev (no log), rotating
compare() {
  for f in f s n fl sl fc sc fb sb fr sr ratio; do : >"$W/$f"; done
  _load=$(cut -d' ' -f1-3 /proc/loadavg)
  i=0
  while [ $i -lt "$ROUNDS" ]; do
    # The order rotates every round, so neither tool always runs right after
    # the other (the machine drifts, and a run leaves the device and caches
    # in a state the next one starts from).
    for k in 0 1 2; do
      case $(( (i + k) % 3 )) in
      0) r=$(in_steady "$W/fb" "$W/fr" fio_job "$@")
         echo "$r" | cut -d' ' -f1 >>"$W/f"; echo "$r" | cut -d' ' -f2 >>"$W/fl"; echo "$r" | cut -d' ' -f3 >>"$W/fc"
         fr_last=$(echo "$r" | cut -d' ' -f1) ;;
      1) r=$(in_steady "$W/sb" "$W/sr" ssd_job "$@")
         echo "$r" | cut -d' ' -f1 >>"$W/s"; echo "$r" | cut -d' ' -f2 >>"$W/sl"; echo "$r" | cut -d' ' -f3 >>"$W/sc"
         sr_last=$(echo "$r" | cut -d' ' -f1) ;;
      2) r=$(ssd_job "$@" --no-log); echo "$r" | cut -d' ' -f1 >>"$W/n" ;;
      esac
    done
    echo "$sr_last $fr_last" | awk '{print $1 / $2}' >>"$W/ratio"
    i=$((i+1))
  done
  _load2=$(cut -d' ' -f1-3 /proc/loadavg)
  f=$(median <"$W/f"); s=$(median <"$W/s"); n=$(median <"$W/n"); fl=$(median <"$W/fl"); sl=$(median <"$W/sl")
  fc=$(median <"$W/fc"); sc=$(median <"$W/sc")
  printf '%-5s %-18s fio %8.0f IOPS %9.2f us | ssdrev+log %8.0f IOPS %9.2f us | nolog %8.0f | ratio %.3f (%s) lat %.3f | CPU/IO ns fio %.0f ssdrev %.0f (%.3f) | busy fio %s%% ssdrev %s%% | KiB/req fio %s ssdrev %s | load %s -> %s\n' \
    "$KIND" "$1" "$f" "$(echo "$fl" | awk '{print $1/1000}')" "$s" "$(echo "$sl" | awk '{print $1/1000}')" "$n" \
    "$(median <"$W/ratio")" "$(minmax <"$W/ratio")" "$(echo "$sl $fl" | awk '{print $1/$2}')" \
    "$fc" "$sc" "$(echo "$sc $fc" | awk '{print $1/$2}')" "$(median <"$W/fb")" "$(median <"$W/sb")" \
    "$(median <"$W/fr")" "$(median <"$W/sr")" "$_load" "$_load2"
  echo "  runs fio: $(tr '\n' ' ' <"$W/f")| ssdrev+log: $(tr '\n' ' ' <"$W/s")| nolog: $(tr '\n' ' ' <"$W/n")"
}

cells() {
  for c in $CASES; do
    case $c in
    rr32) compare "RND4K Q32T1 read" randread 4k 32 1 ;;
    qd1) compare "RND4K Q1T1 read" randread 4k 1 1 ;;
    cdm)
      compare "SEQ1M Q8T1 read" read 1M 8 1
      compare "SEQ1M Q8T1 write" write 1M 8 1
      compare "SEQ1M Q1T1 read" read 1M 1 1
      compare "SEQ1M Q1T1 write" write 1M 1 1
      compare "RND4K Q32T1 write" randwrite 4k 32 1
      compare "RND4K Q1T1 write" randwrite 4k 1 1
      ;;
    nvme)
      compare "SEQ128K Q32T1 read" read 128k 32 1
      compare "SEQ128K Q32T1 write" write 128k 32 1
      compare "RND4K Q32T16 read" randread 4k 32 16
      compare "RND4K Q32T16 write" randwrite 4k 32 16
      ;;
    rss)
      # Peak RSS of a 5 s and a 50 s run, and the high-water mark 1 s into the
      # 50 s run: when the two peaks differ, this tells startup noise from growth.
      [ "$KIND" = loop ] || continue
      for t in 5 50; do
        rm -rf "$W/run"
        /usr/bin/time -f '%M' -o "$W/rss" "$SSDREV" run "$TGT" --out "$W/run" --rw randread --bs 4k \
            --iodepth 32 --size 1G --runtime "${t}s" --engine io_uring --destructive --force --quiet >/dev/null &
        sleep 1
        hwm1=$(pgrep -n -x ssdrev | xargs -I{} awk '/VmHWM/ {print $2}' /proc/{}/status 2>/dev/null || true)
        wait
        echo "peak RSS, ${t}s RND4K Q32T1 read with log: $(cat "$W/rss") KiB (high-water mark after 1 s: ${hwm1:-?} KiB), log $(du -k "$W/run/logs" | tail -1 | cut -f1) KiB"
      done
      ;;
    esac
  done
}

for KIND in $TARGETS; do
  case $KIND in
  loop)
    truncate -s 2G "$IMG"
    # Fill the backing file so reads hit real pages, not holes.
    dd if=/dev/urandom of="$IMG" bs=1M count=2048 conv=notrunc status=none
    LOOP=$(losetup -f --show "$IMG")
    TGT=$LOOP; SIZE=1G
    echo "vs-fio: target loop: $LOOP over $IMG (2 GiB in /dev/shm), jobs over 1 GiB"
    cells
    losetup -d "$LOOP"; LOOP=""; rm -f "$IMG"
    ;;
  disk)
    [ "$(stat -f -c %T "$DISK_DIR")" != tmpfs ] || { echo "vs-fio: DISK_DIR=$DISK_DIR is tmpfs, not a disk" >&2; exit 1; }
    FILE=$(mktemp "$DISK_DIR/ssdrev-vs-fio.XXXXXX")
    DEV=$(disk_of "$FILE")
    # Written through (O_DIRECT) from /dev/urandom: reads hit the disk, not
    # holes or the page cache.
    dd if=/dev/urandom of="$FILE" bs=1M count=$((DISK_GB * 1024)) oflag=direct status=none
    TGT=$FILE; SIZE=${DISK_GB}G
    echo "vs-fio: target disk: $FILE (${DISK_GB} GiB) on /dev/$DEV (max_sectors_kb $(cat /sys/block/$DEV/queue/max_sectors_kb), max_segments $(cat /sys/block/$DEV/queue/max_segments), scheduler $(cat /sys/block/$DEV/queue/scheduler))"
    cells
    rm -f "$FILE"; FILE=""
    ;;
  esac
done
