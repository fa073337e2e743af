#!/bin/sh
# test: serial
# harden_fio_run: `review --engine fio` against a fake fio (a shell script
# first on PATH; issue 26, item 9). A fio that prints 78 MB leaves
# ssdrev's memory bounded (VmHWM read by the fake from /proc/PPID/status)
# and its RUN/fio/STEP/TEST.out capped at 64 MiB with a note and its end;
# a job that never ends is killed past its time limit (the margin shortened
# to 1 s by $SSDREV_FIO_MARGIN_S, as docs/interop.md says) and fails naming
# the test and the limit, its children gone with it (a size-bound job only
# once no I/O moves, or at 50 times its estimate when fio prints no status
# line; one that moves is not cut); a `fio --version` that
# hangs or prints forever is killed and named. No real fio is needed.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
cd "$T" || exit 1
fail() { echo "harden_fio_run: FAIL: $* ${KEEP:+(kept $T)}" >&2; exit 1; }
mkdir bin
# FAKE (a file) picks what the fake does: flood, hang, vhang, vflood
cat > bin/fio <<EOF2
#!/bin/sh
mode=\$(cat "$T/FAKE")
if [ "\$1" = --version ]; then
  case \$mode in
  vhang) echo fio-3.33; sleep 600 ;;
  vflood) yes fio-3.33 ;;
  *) echo fio-3.33 ;;
  esac
  exit 0
fi
case \$mode in
flood)
  echo "Jobs: 1 (f=1): [W(1)][50.0%][w=10MiB/s][w=2560 IOPS][eta 00m:01s]"
  yes 'fio: a line of output, again and again' | head -c 78000000
  echo "fio: the last line of a flood"
  sleep 0.3
  grep VmHWM /proc/\$PPID/status > "$T/hwm"
  exit 1 ;;
hang)
  echo "Jobs: 1 (f=1): [W(1)][-.-%][w=0KiB/s][w=0 IOPS][eta 00m:00s]"
  sleep 600 & echo \$! > "$T/child.pid"
  wait ;;
silent)
  exec sleep 600 ;;
slow)
  i=0
  while [ \$i -lt 15 ]; do
    echo "Jobs: 1 (f=1): [W(1)][-.-%][w=1MiB/s][w=256 IOPS][eta 00m:00s]"
    sleep 0.2; i=\$((i + 1))
  done
  echo "fio: slow but moving"
  exit 1 ;;
esac
EOF2
chmod +x bin/fio
cat > m.json <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "fake-fio",
 "settings": {"passes": 1, "measure_s": 0.1, "interval_s": 0, "region_bytes": "4MiB"},
 "steps": [{"id": "cdm", "kind": "cdm", "cells": ["RND4K Q1T1"], "ops": ["write"]}]}
JSON
# review OUT: the fio review of a new file into OUT, 60 s at most (margin $M, 1 s)
review() {
  PATH="$T/bin:$PATH" SSDREV_FIO_MARGIN_S=${M:-1} timeout 60 "$SSDREV" review "$T/$1.img" --create-size 8M \
    --profile m.json --engine fio --out "$1" --quiet >"$1.o" 2>"$1.e"
}

# a flood of output: bounded memory, a capped file that ends as fio did
echo flood > FAKE
M=30 review flood; rc=$?
[ $rc = 1 ] || fail "flood: exit $rc, want 1: $(head -c 600 flood.e)"
grep -q "fio exited with status 1: .*fio: the last line of a flood" flood.e || fail "flood message: $(head -c 600 flood.e)"
hwm=$(awk '{ print $2 }' hwm)
[ -n "$hwm" ] && [ "$hwm" -lt 60000 ] || fail "flood: ssdrev's peak memory $hwm kB (the 78 MB output kept in memory?)"
out=$(ls flood/fio/cdm/*.out)
size=$(wc -c < "$out")
[ "$size" -gt 67108864 ] && [ "$size" -lt 67200000 ] || fail "flood: $out is $size bytes, want 64 MiB and its end"
grep -q "bytes of fio's output past its first 64 MiB are not kept here" "$out" || fail "flood: no note in $out"
[ "$(tail -n 1 "$out")" = "fio: the last line of a flood" ] || fail "flood: $out does not end as fio's output did"

# a job that never ends: killed past its limit, named, its child gone. A
# time-based job (the sweep's: runtime 0.3 s) at its limit; a size-bound one
# (CDM's prepare: the plan's estimate) at its limit with no I/O moving
cat > sweep.json <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "fake-fio-sweep",
 "settings": {"passes": 1, "measure_s": 0.1, "interval_s": 0, "region_bytes": "4MiB"},
 "steps": [{"id": "sweep", "kind": "rw_sweep", "qds": [2], "read_pct_step": 50, "measure_s": 0.2, "ramp_s": 0.1}]}
JSON
echo hang > FAKE
for m in m.json sweep.json; do
  rm -f child.pid
  start=$(date +%s)
  PATH="$T/bin:$PATH" SSDREV_FIO_MARGIN_S=1 timeout 60 "$SSDREV" review "$T/h-$m.img" --create-size 8M \
    --profile $m --engine fio --out "hang-$m" --quiet >hang.o 2>hang.e
  rc=$?
  took=$(($(date +%s) - start))
  [ $rc = 124 ] && fail "hang ($m): ssdrev waited for a fio that never ends"
  [ $rc = 1 ] || fail "hang ($m): exit $rc, want 1: $(head -c 600 hang.e)"
  [ $took -lt 20 ] || fail "hang ($m): took $took s"
  case $m in
  m.json) want="test 'cdm.prepare': fio ran past its time limit of 1.* s (estimate .* s + 50% + 1 s margin, then no I/O for the margin) and was killed" ;;
  *) want="test 'sweep.QD2.R0': fio ran past its time limit of 1.45 s (runtime 0.3 s + 50% + 1 s margin) and was killed" ;;
  esac
  grep -q "$want" hang.e || fail "hang ($m) message: $(head -c 600 hang.e)"
  # (a zombie waiting for init counts as gone)
  [ -s child.pid ] || fail "hang ($m): the fake did not start its child"
  sleep 0.2
  st=$(ps -o stat= -p "$(cat child.pid)" 2>/dev/null)
  case $st in ""|Z*) ;; *) kill "$(cat child.pid)"; fail "hang ($m): fio's child outlived it ($st)" ;; esac
done
# a size-bound job whose fio prints nothing (as fio --client does) shows no
# I/O moving: killed at 50 times its estimate plus the margin
echo silent > FAKE
review silent; rc=$?
[ $rc = 1 ] || fail "silent: exit $rc, want 1: $(head -c 600 silent.e)"
grep -q "test 'cdm.prepare': fio ran past its time limit of 1.* s (estimate .* s x 50 + 1 s margin; fio showed no status line) and was killed (exit status 143)" silent.e ||
  fail "silent message: $(head -c 600 silent.e)"
# a size-bound job past its estimate but with I/O moving is not cut
echo slow > FAKE
review slow; rc=$?
[ $rc = 1 ] || fail "slow: exit $rc, want 1: $(head -c 600 slow.e)"
grep -q "fio exited with status 1: .*fio: slow but moving" slow.e || fail "slow: cut while moving: $(head -c 600 slow.e)"

# `fio --version` that hangs, or prints forever
for m in vhang vflood; do
  echo $m > FAKE
  review $m; rc=$?
  [ $rc = 124 ] && fail "$m: ssdrev waited for 'fio --version' forever"
  [ $rc = 1 ] || [ $rc = 2 ] || fail "$m: exit $rc: $(head -c 600 $m.e)"
  grep -q "'fio --version' did not end within 1 s (killed)" $m.e || fail "$m message: $(head -c 600 $m.e)"
done
exit 0
