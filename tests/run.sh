#!/bin/sh
# Runs every unit-test binary and every CLI test script, then prints the
# closing line "N passed, N failed". Usage: tests/run.sh BUILD_DIR
B=${1:-build}
export SSDREV="$(cd "$(dirname "$B/ssdrev-san")" && pwd)/ssdrev-san"
export SSDREV_ROOT="$(pwd)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
# fontconfig's parser keeps memory until FcFini: not ours (tests/lsan.supp)
export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1
pass=0; fail=0; failed_names=""
for src in tests/unit/test_*.c; do
  t="$B/test/$(basename "$src" .c)"
  name=$(basename "$t")
  if [ ! -x "$t" ]; then
    echo "FAIL $name: did not build"; fail=$((fail+1)); failed_names="$failed_names $name"; continue
  fi
  out=$("$t" 2>&1); rc=$?
  last=$(printf '%s\n' "$out" | tail -n 1)
  p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
  f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
  if [ -z "$p" ] || [ $rc -ne 0 ] && [ "${f:-0}" = 0 ]; then
    # crashed or sanitizer abort: count the binary as one failure
    printf '%s\n' "$out" | tail -n 30
    echo "FAIL $name: exit $rc"; fail=$((fail+1)); p=${p:-0}; pass=$((pass+p)); failed_names="$failed_names $name"; continue
  fi
  pass=$((pass+p)); fail=$((fail+f))
  if [ "$f" != 0 ]; then printf '%s\n' "$out" | grep -v '^ok  '; failed_names="$failed_names $name"
  else echo "ok   $name ($p tests)"; fi
done
for t in tests/cli/*.sh; do
  [ -f "$t" ] || continue
  name=$(basename "$t" .sh)
  out=$(sh "$t" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then pass=$((pass+1)); echo "ok   cli/$name"
  else fail=$((fail+1)); failed_names="$failed_names cli/$name"; printf '%s\n' "$out" | tail -n 30; echo "FAIL cli/$name"; fi
done
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
