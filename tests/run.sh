#!/bin/sh
# Runs every unit-test binary and every CLI test script, then prints the
# closing line "N passed, N failed, N skipped" (the CI reads it: it stays the
# last line, alone). Usage: tests/run.sh BUILD_DIR
#
# Skips (tests/README.md): a CLI script that cannot run at all here prints
# "skip: REASON" lines and exits 77 (automake's convention); it counts as
# skipped and is listed as "skip cli/NAME: REASON". A script that ran but
# left some cases out prints "skip: ..." lines and exits 0; it counts as
# passed and its skip lines are echoed under its ok line. A unit test that
# called TEST_SKIP counts as skipped; testlib's closing line
# "N passed, N failed, N skipped" is added up here.
B=${1:-build}
export SSDREV="$(cd "$(dirname "$B/ssdrev-san")" && pwd)/ssdrev-san"
export SSDREV_ROOT="$(pwd)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
# fontconfig's parser keeps memory until FcFini: not ours (tests/lsan.supp)
export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1
# the CLI's messages are English whatever the machine's locale (README,
# "Languages of messages"); a test of Korean messages sets SSDREV_LANG=ko
export SSDREV_LANG=en
pass=0; fail=0; skip=0; failed_names=""
# SKIP_RE matches a skip line of a CLI script; its reason is what follows.
SKIP_RE='^skip: '
for src in tests/unit/test_*.c; do
  t="$B/test/$(basename "$src" .c)"
  name=$(basename "$t")
  if [ ! -x "$t" ]; then
    echo "FAIL $name: did not build"; fail=$((fail+1)); failed_names="$failed_names $name"; continue
  fi
  out=$("$t" 2>&1); rc=$?
  last=$(printf '%s\n' "$out" | tail -n 1)
  counts=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
  p=0; f=0; s=0
  # shellcheck disable=SC2086
  [ -n "$counts" ] && set -- $counts && p=$1 f=$2 s=$3
  if [ -z "$counts" ] || { [ $rc -ne 0 ] && [ "$f" = 0 ]; }; then
    # crashed or sanitizer abort: count the binary as one failure
    printf '%s\n' "$out" | tail -n 30
    echo "FAIL $name: exit $rc"; fail=$((fail+1)); pass=$((pass+p)); skip=$((skip+s)); failed_names="$failed_names $name"; continue
  fi
  pass=$((pass+p)); fail=$((fail+f)); skip=$((skip+s))
  if [ "$f" != 0 ]; then printf '%s\n' "$out" | grep -v '^ok  '; failed_names="$failed_names $name"
  elif [ "$p" = 0 ] && [ "$s" != 0 ]; then
    echo "skip $name ($s tests skipped)"; printf '%s\n' "$out" | grep '^skip ' | sed 's/^/     /'
  else
    if [ "$s" = 0 ]; then echo "ok   $name ($p tests)"; else echo "ok   $name ($p tests, $s skipped)"; fi
    printf '%s\n' "$out" | grep '^skip ' | sed 's/^/     /'
  fi
done
for t in tests/cli/*.sh; do
  [ -f "$t" ] || continue
  name=$(basename "$t" .sh)
  out=$(sh "$t" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then
    pass=$((pass+1)); echo "ok   cli/$name"
    printf '%s\n' "$out" | grep "$SKIP_RE" | sed 's/^/     /'
  elif [ $rc -eq 77 ]; then
    skip=$((skip+1))
    reason=$(printf '%s\n' "$out" | sed -n "s/$SKIP_RE//p" | awk '{ printf "%s%s", (NR > 1 ? "; " : ""), $0 }')
    echo "skip cli/$name: ${reason:-no reason given}"
  else
    fail=$((fail+1)); failed_names="$failed_names cli/$name"; printf '%s\n' "$out" | tail -n 30; echo "FAIL cli/$name"
  fi
done
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
