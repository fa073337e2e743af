#!/bin/sh
# Runs every unit-test binary and every CLI test script, then prints the
# closing line "N passed, N failed, N skipped" (the CI reads it: it stays the
# last line, alone). Usage: tests/run.sh BUILD_DIR
#
# Tests run TEST_JOBS at a time (default: the number of CPUs); each writes
# its output to a scratch file and the results are printed afterwards in a
# fixed order (unit binaries, then CLI scripts, by name). A CLI script with a
# line "# test: serial" near its top (one that measures time or holds loop
# devices and mounts) runs alone, after the others. The slowest of the last
# run go first (BUILD_DIR/test-times.txt) so that the long ones overlap.
#
# Skips (tests/README.md): a CLI script that cannot run at all here prints
# "skip: REASON" lines and exits 77 (automake's convention); it counts as
# skipped and is listed as "skip cli/NAME: REASON". A script that ran but
# left some cases out prints "skip: ..." lines and exits 0; it counts as
# passed and its skip lines are echoed under its ok line. A unit test that
# called TEST_SKIP counts as skipped; testlib's closing line
# "N passed, N failed, N skipped" is added up here.
if [ "${1:-}" = "--one" ]; then
  # worker: tests/run.sh --one SCRATCH KIND:PATH -> SCRATCH/KEY.{out,rc,s}
  w=$2; kind=${3%%:*}; p=${3#*:}; key=$(echo "$p" | tr '/' '_')
  s=$(date +%s.%N)
  if [ "$kind" = u ]; then "$p" >"$w/$key.out" 2>&1; else sh "$p" >"$w/$key.out" 2>&1; fi
  echo $? >"$w/$key.rc"
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" -v p="$p" 'BEGIN { printf "%.1f %s\n", e - s, p }' >"$w/$key.s"
  exit 0
fi
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
J=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
case $J in ''|*[!0-9]*|0) echo "run.sh: TEST_JOBS must be a positive number, not '$J'" >&2; exit 2 ;; esac
self="$(pwd)/tests/run.sh"
[ -f "$self" ] || self=$0
W=$(mktemp -d "${TMPDIR:-/tmp}/ssdrev-run.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
pass=0; fail=0; skip=0; failed_names=""
# SKIP_RE matches a skip line of a CLI script; its reason is what follows.
SKIP_RE='^skip: '
: >"$W/par"; : >"$W/ser"
for src in tests/unit/test_*.c; do
  [ -e "$src" ] || continue
  t="$B/test/$(basename "$src" .c)"
  [ -x "$t" ] && echo "u:$t" >>"$W/par"
done
for t in tests/cli/*.sh; do
  [ -f "$t" ] || continue
  if head -n 15 "$t" | grep -qx '# test: serial'; then echo "c:$t" >>"$W/ser"; else echo "c:$t" >>"$W/par"; fi
done
# slowest first by the last run's times; those never timed (new ones) first
times="$B/test-times.txt"
if [ -f "$times" ]; then
  awk 'NR == FNR { t[$2] = $1; next } { p = substr($0, 3); print ((p in t) ? t[p] : 1e9), $0 }' "$times" "$W/par" |
    sort -k1,1gr | cut -d' ' -f2- >"$W/par.sorted" && mv "$W/par.sorted" "$W/par"
fi
xargs -P "$J" -n 1 sh "$self" --one "$W" <"$W/par"
xargs -P 1 -n 1 sh "$self" --one "$W" <"$W/ser"
cat "$W"/*.s 2>/dev/null | sort -k1,1gr >"$times.new" 2>/dev/null && mv "$times.new" "$times" 2>/dev/null
result() { key=$(echo "$1" | tr '/' '_'); out=$(cat "$W/$key.out" 2>/dev/null); rc=$(cat "$W/$key.rc" 2>/dev/null || echo 125); }
for src in tests/unit/test_*.c; do
  [ -e "$src" ] || continue
  t="$B/test/$(basename "$src" .c)"
  name=$(basename "$t")
  if [ ! -x "$t" ]; then
    echo "FAIL $name: did not build"; fail=$((fail+1)); failed_names="$failed_names $name"; continue
  fi
  result "$t"
  last=$(printf '%s\n' "$out" | tail -n 1)
  counts=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
  p=0; f=0; s=0
  # shellcheck disable=SC2086
  [ -n "$counts" ] && set -- $counts && p=$1 f=$2 s=$3
  if [ -z "$counts" ] || { [ "$rc" -ne 0 ] && [ "$f" = 0 ]; }; then
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
  result "$t"
  if [ "$rc" -eq 0 ]; then
    pass=$((pass+1)); echo "ok   cli/$name"
    printf '%s\n' "$out" | grep "$SKIP_RE" | sed 's/^/     /'
  elif [ "$rc" -eq 77 ]; then
    skip=$((skip+1))
    reason=$(printf '%s\n' "$out" | sed -n "s/$SKIP_RE//p" | awk '{ printf "%s%s", (NR > 1 ? "; " : ""), $0 }')
    echo "skip cli/$name: ${reason:-no reason given}"
  else
    fail=$((fail+1)); failed_names="$failed_names cli/$name"; printf '%s\n' "$out" | tail -n 30; echo "FAIL cli/$name"
  fi
done
[ -f "$times" ] && echo "slowest: $(head -n 5 "$times" | awk '{ printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1 }')"
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
