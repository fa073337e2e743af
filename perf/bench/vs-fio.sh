#!/bin/sh
# vs-fio.sh — ssdrev's engines side by side with fio on the same jobs, on a
# loop device over a file in /dev/shm (RAM-backed: the host CPU, the loop
# worker's and the tools', is the limit, not flash). Runs the tools in an
# order that rotates every round, prints each run and the medians and ratios. Needs root (losetup); installs fio from
# Debian when missing.
#
# usage: perf/bench/vs-fio.sh [SSDREV_BINARY] [ROUNDS] [SECONDS]
#   env: CASES="rr32 qd1 cdm rss"   which groups to run (default: all)
#        FIO_OPTS="--fixedbufs --registerfiles"  extra fio options (default none:
#        fio as people run it; ssdrev always registers its buffers and file)
#        SSDREV_OPTS="--wait sleep"  extra ssdrev run options (default none)
#        PIN=1   CPU that both tools' single-thread jobs are pinned to (taskset;
#                PIN= for none). Unpinned, QD1 results on an idle 2-core VM
#                depend on where the scheduler wakes the waiting thread: fio,
#                which keeps a second (helper) thread busy, migrates less
#                and gets ~2x the QD1 IOPS of a single-threaded tool; pinned,
#                both tools see the same wakeup path.
set -eu
SSDREV=${1:-build/ssdrev}
ROUNDS=${2:-5}
SECS=${3:-5}
CASES=${CASES:-"rr32 qd1 cdm rss"}
PIN=${PIN-1}
# pin PREFIX for a job with $1 threads: the same CPU for both tools
pin() { if [ -n "$PIN" ] && [ "$1" = 1 ]; then echo "taskset -c $PIN"; fi; }
FIO_OPTS=${FIO_OPTS:-}
SSDREV_OPTS=${SSDREV_OPTS:-}
[ -x "$SSDREV" ] || { echo "vs-fio: no ssdrev binary at $SSDREV (make first)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "vs-fio: needs root for losetup" >&2; exit 1; }
if ! command -v fio >/dev/null 2>&1; then
  # a fresh machine has no package lists yet
  { apt-get update -q >/dev/null && apt-get install -y -q fio >/dev/null; } || { echo "vs-fio: cannot install fio" >&2; exit 1; }
fi
W=$(mktemp -d /tmp/vs-fio.XXXXXX)
IMG=/dev/shm/ssdrev-vs-fio.$$.img
LOOP=""
cleanup() {
  [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null || true
  rm -f "$IMG"; rm -rf "$W"
}
trap cleanup EXIT INT TERM
truncate -s 2G "$IMG"
# Fill the backing file so reads hit real pages, not holes.
dd if=/dev/urandom of="$IMG" bs=1M count=2048 conv=notrunc status=none
LOOP=$(losetup -f --show "$IMG")
echo "vs-fio: FIO_OPTS='$FIO_OPTS' SSDREV_OPTS='$SSDREV_OPTS' rounds=$ROUNDS seconds=$SECS"
echo "vs-fio: PIN='$PIN' (single-thread jobs of both tools on that CPU)"
echo "vs-fio: $(date -u +%FT%TZ) $(uname -r) $(nproc) cores, $("$SSDREV" --version), $(fio --version), loop $LOOP over $IMG"

# The CPU that is not pinned does the loop device's work (its kworker and the
# block completion softirq). busy% of it over a run shows whether the device
# path, not the tool, was the limit. cpu_ticks CPU -> "idle total" jiffies.
OTHER_CPU=$([ "${PIN:-}" = 0 ] && echo 1 || echo 0)
cpu_ticks() { awk -v c="cpu$1" '$1 == c {t = 0; for (i = 2; i <= NF; i++) t += $i; print $5 + $6, t}' /proc/stat; }
# in_steady BUSYFILE FUNC ARGS...: runs FUNC in the background, appends the
# busy % of OTHER_CPU over the middle of the run (from 1 s in to 0.5 s before
# the end: no tool start-up or exit in it) to BUSYFILE, prints FUNC's output.
in_steady() {
  _bf=$1; shift
  "$@" >"$W/job.out" &
  _pid=$!
  sleep 1; _a=$(cpu_ticks "$OTHER_CPU")
  sleep "$(echo "$SECS" | awk '{print ($1 > 2 ? $1 - 1.5 : 0.5)}')"; _b=$(cpu_ticks "$OTHER_CPU")
  wait "$_pid"
  echo "$_a $_b" | awk '{d = $4 - $2; printf "%.1f\n", (d > 0 ? 100 * (1 - ($3 - $1) / d) : 0)}' >>"$_bf"
  cat "$W/job.out"
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# fio_job NAME RW BS QD THREADS [MIX] -> prints "IOPS MEANLAT_NS"
fio_job() {
  _rw=$2; _mix=""; _thr=""
  [ -n "${6:-}" ] && _mix="--rwmixread=$6"
  # Several jobs as threads of one process, as ssdrev's --threads (and
  # CrystalDiskMark's DiskSpd -t16) run them; fio's default forks one
  # process each, which on 2 CPUs halves its T16 IOPS.
  [ "$5" -gt 1 ] && _thr="--thread"
  $(pin "$5") fio --name="$1" --filename="$LOOP" --rw="$_rw" $_mix --bs="$3" --iodepth="$4" --numjobs="$5" $_thr \
      --ioengine=io_uring --direct=1 $FIO_OPTS --size=1G --time_based --runtime="$SECS" --group_reporting \
      --output-format=json --output="$W/fio.json" >/dev/null
  python3 -c '
import json,sys
j=json.load(open(sys.argv[1]))["jobs"][0]
io=j["read"]["total_ios"]+j["write"]["total_ios"]
iops=j["read"]["iops"]+j["write"]["iops"]
lat=(j["read"]["lat_ns"]["mean"]*j["read"]["total_ios"]+j["write"]["lat_ns"]["mean"]*j["write"]["total_ios"])/max(io,1)
print("%.0f %.0f" % (iops, lat))' "$W/fio.json"
}

# ssd_job NAME RW BS QD THREADS [MIX] [--no-log] -> prints "IOPS MEANLAT_NS"
ssd_job() {
  _mix=""
  [ -n "${6:-}" ] && _mix="--rwmixread $6"
  rm -rf "$W/run"
  $(pin "$5") "$SSDREV" run "$LOOP" --out "$W/run" --rw "$2" $_mix --bs "$3" --iodepth "$4" --threads "$5" \
      --size 1G --runtime "${SECS}s" --engine io_uring --destructive --force --quiet $SSDREV_OPTS ${7:-} >"$W/ssd.txt"
  python3 -c '
import json,sys
t=json.load(open(sys.argv[1]))["tests"][-1]["result"]
print("%.0f %.0f" % (t["iops"], t["mean_lat_ns"]))' "$W/run/manifest.json"
}

# compare LABEL RW BS QD THREADS [MIX]: alternates fio, ssdrev (log), ssdrev (no log)
compare() {
  : >"$W/f"; : >"$W/s"; : >"$W/n"; : >"$W/fl"; : >"$W/sl"; : >"$W/fb"; : >"$W/sb"
  i=0
  while [ $i -lt "$ROUNDS" ]; do
    set -- "$@"
    # The order rotates every round, so neither tool always runs right after
    # the other (the machine drifts, and a run leaves the device and caches
    # in a state the next one starts from).
    for k in 0 1 2; do
      case $(( (i + k) % 3 )) in
      0) r=$(in_steady "$W/fb" fio_job "$@")
         echo "$r" | cut -d' ' -f1 >>"$W/f"; echo "$r" | cut -d' ' -f2 >>"$W/fl" ;;
      1) r=$(in_steady "$W/sb" ssd_job "$@")
         echo "$r" | cut -d' ' -f1 >>"$W/s"; echo "$r" | cut -d' ' -f2 >>"$W/sl" ;;
      2) r=$(ssd_job "$2" "$2" "$3" "$4" "$5" "${6:-}" --no-log); echo "$r" | cut -d' ' -f1 >>"$W/n" ;;
      esac
    done
    i=$((i+1))
  done
  f=$(median <"$W/f"); s=$(median <"$W/s"); n=$(median <"$W/n"); fl=$(median <"$W/fl"); sl=$(median <"$W/sl")
  printf '%-22s fio %9.0f IOPS %8.2f us | ssdrev+log %9.0f IOPS %8.2f us | ssdrev nolog %9.0f | ssdrev/fio %.3f  lat %.3f  log cost %+.1f%%\n' \
    "$1" "$f" "$(echo "$fl" | awk '{print $1/1000}')" "$s" "$(echo "$sl" | awk '{print $1/1000}')" "$n" \
    "$(echo "$s $f" | awk '{print $1/$2}')" "$(echo "$sl $fl" | awk '{print $1/$2}')" \
    "$(echo "$s $n" | awk '{print ($1/$2-1)*100}')"
  echo "  CPU $OTHER_CPU busy % (loop worker + completions), median: fio $(median <"$W/fb"), ssdrev+log $(median <"$W/sb")"
  echo "  runs fio: $(tr '\n' ' ' <"$W/f")"
  echo "  runs ssdrev+log: $(tr '\n' ' ' <"$W/s")"
  echo "  runs ssdrev nolog: $(tr '\n' ' ' <"$W/n")"
}

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
    compare "RND4K Q32T16 read" randread 4k 32 16
    ;;
  rss)
    # Peak RSS of a 5 s and a 50 s run, and the high-water mark 1 s into the
    # 50 s run: when the two peaks differ, this tells startup noise (the
    # mark is already there after 1 s) from growth with run length.
    for t in 5 50; do
      rm -rf "$W/run"
      /usr/bin/time -f '%M' -o "$W/rss" "$SSDREV" run "$LOOP" --out "$W/run" --rw randread --bs 4k \
          --iodepth 32 --size 1G --runtime "${t}s" --engine io_uring --destructive --force --quiet >/dev/null &
      sleep 1
      hwm1=$(pgrep -n -x ssdrev | xargs -I{} awk '/VmHWM/ {print $2}' /proc/{}/status 2>/dev/null || true)
      wait
      echo "peak RSS, ${t}s RND4K Q32T1 read with log: $(cat "$W/rss") KiB (high-water mark after 1 s: ${hwm1:-?} KiB), log $(du -k "$W/run/logs" | tail -1 | cut -f1) KiB"
    done
    ;;
  esac
done
