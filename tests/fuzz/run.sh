#!/bin/sh
# Builds every libFuzzer target tests/fuzz/fuzz_*.c with clang
# (-fsanitize=fuzzer,address,undefined) against the library sources and runs
# each for SECONDS. Called by `make fuzz` as: sh tests/fuzz/run.sh BUILD SECONDS
#
#   make fuzz                     60 s per target (the quick check)
#   make fuzz FUZZ_SECONDS=600    the long run (>= 10 min per target)
#
# Environment: FUZZ_TARGETS="manifest log" limits the targets; FUZZ_JOBS=2
# runs that many targets at once (default 1); FUZZ_NICE (default 19) is the
# nice level; FUZZ_CC (default clang); FUZZ_NO_REGRESS=1 leaves the known
# findings out (to fuzz on past a bug not fixed yet); FUZZ_FLAGS adds
# libFuzzer flags (e.g. "-fork=2 -ignore_crashes=1" to collect many findings);
# FUZZ_CFLAGS adds compiler flags (e.g. "-fno-sanitize=float-cast-overflow
# -DFUZZ_CDM_SKIP_RANGE" to fuzz the CDM parser past a range finding).
# Seed corpora are tests/fuzz/corpus/T/ (read only); past findings
# tests/fuzz/regress/T/ are replayed first. New
# corpus entries go to BUILD/fuzz/corpus/T/, crashes, leaks and hangs to
# BUILD/fuzz/artifacts/T/, logs to BUILD/fuzz/logs/T.log, and a summary to
# BUILD/fuzz/summary.txt. Exits 1 if any target fails to build or finds
# anything.
set -u
B=${1:-build}
SECS=${2:-}
[ -n "$SECS" ] || SECS=60
CC=${FUZZ_CC:-clang}
NICE=${FUZZ_NICE:-19}
JOBS=${FUZZ_JOBS:-1}
FZ=$B/fuzz
mkdir -p "$FZ/obj" "$FZ/bin" "$FZ/logs" "$FZ/corpus" "$FZ/artifacts" || exit 1
command -v "$CC" >/dev/null 2>&1 || { echo "fuzz: $CC not found (apt-get install clang)" >&2; exit 1; }

PKG_CFLAGS=$(pkg-config --cflags liburing cairo jansson libcmark-gfm blkid 2>/dev/null)
PKG_LIBS=$(pkg-config --libs liburing cairo jansson libcmark-gfm blkid 2>/dev/null)
LIBS="$PKG_LIBS -lcmark-gfm-extensions -lcsv -lhpdf -lm -lpthread"
# The Makefile's flags minus -Werror: a warning only clang emits in code still
# being written must not stop the fuzzing of everything else.
CFLAGS="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers -O1 -g -I. \
 $PKG_CFLAGS -DSSDREV_VERSION=\"0.1.0\" -fno-omit-frame-pointer \
 -fsanitize=address,undefined -fno-sanitize-recover=undefined ${FUZZ_CFLAGS:-}"

# ---------------------------------------------------------------- the library
# Rebuilt when the source or any header is newer than the object, and all
# of it when the flags changed (FUZZ_CFLAGS).
PARTS="base log archive sim import bench analyze render"
# shellcheck disable=SC2086
newest_h=$(ls -t $(find $PARTS -name '*.h') tests/fuzz/*.h 2>/dev/null | head -n 1)
if [ "$(cat "$FZ/obj/flags" 2>/dev/null)" != "$CFLAGS" ]; then
  rm -f "$FZ"/obj/*.o
  printf '%s' "$CFLAGS" >"$FZ/obj/flags"
fi
build_fail=0
objs=""
# shellcheck disable=SC2086
for src in $(find $PARTS -name '*.c' | sort); do
  [ -f "$src" ] || continue
  obj="$FZ/obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_h" -nt "$obj" ]; then
    if ! $CC $CFLAGS -fsanitize=fuzzer-no-link -c -o "$obj" "$src" 2>"$FZ/logs/build.err"; then
      cat "$FZ/logs/build.err" >&2
      echo "fuzz: cannot compile $src" >&2
      build_fail=1; rm -f "$obj"; continue
    fi
  fi
  objs="$objs $obj"
done
rm -f "$FZ/libssdrev-fuzz.a"
# shellcheck disable=SC2086
ar rcs "$FZ/libssdrev-fuzz.a" $objs || exit 1

# ---------------------------------------------------------------- the targets
targets=""
for f in tests/fuzz/fuzz_*.c; do
  t=$(basename "$f" .c); t=${t#fuzz_}
  if [ -n "${FUZZ_TARGETS:-}" ]; then
    case " $FUZZ_TARGETS " in *" $t "*) ;; *) continue ;; esac
  fi
  # shellcheck disable=SC2086
  if ! $CC $CFLAGS -fsanitize=fuzzer -o "$FZ/bin/fuzz_$t" "$f" "$FZ/libssdrev-fuzz.a" $LIBS \
      2>"$FZ/logs/build-$t.err"; then
    cat "$FZ/logs/build-$t.err" >&2
    echo "fuzz: cannot build target $t" >&2
    build_fail=1; continue
  fi
  targets="$targets $t"
done

export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:abort_on_error=0"
export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
TMPROOT=$(mktemp -d "${TMPDIR:-/tmp}/ssdrev-fuzzrun.XXXXXX") || exit 1
[ -d /dev/shm ] && { rm -rf "$TMPROOT"; TMPROOT=$(mktemp -d /dev/shm/ssdrev-fuzzrun.XXXXXX) || exit 1; }
trap 'rm -rf "$TMPROOT"' EXIT INT TERM

run_one() {
  t=$1
  # artifacts are per run: an old crash stays in the old log and in regress/
  rm -rf "$FZ/artifacts/$t"
  mkdir -p "$FZ/corpus/$t" "$FZ/artifacts/$t" "$TMPROOT/$t"
  set -- "$FZ/corpus/$t"
  [ -d "tests/fuzz/corpus/$t" ] && set -- "$@" "tests/fuzz/corpus/$t"
  [ -d "tests/fuzz/regress/$t" ] && [ -z "${FUZZ_NO_REGRESS:-}" ] && set -- "$@" "tests/fuzz/regress/$t"
  dict=""
  [ -f "tests/fuzz/dict/$t.dict" ] && dict="-dict=tests/fuzz/dict/$t.dict"
  start=$(date +%s)
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: 2 GiB is a leak
  # or a blow-up; -max_len 64k keeps the inputs file-sized but fast.
  # shellcheck disable=SC2086
  FUZZ_TMPDIR="$TMPROOT/$t" nice -n "$NICE" "$FZ/bin/fuzz_$t" -max_total_time="$SECS" \
    -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$FZ/artifacts/$t/" $dict ${FUZZ_FLAGS:-} "$@" >"$FZ/logs/$t.log" 2>&1
  rc=$?
  end=$(date +%s)
  runs=$(sed -n "s/^Done \([0-9]*\) runs.*/\1/p" "$FZ/logs/$t.log" | tail -n 1)
  # stopped early or -fork mode: the last status line "#N ..." or "#N: ..."
  [ -n "$runs" ] || runs=$(sed -n "s/^#\([0-9]*\)[: \t].*/\1/p" "$FZ/logs/$t.log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$FZ/logs/$t.log" | tail -n 1 | sed 's/cov: //')
  ncorp=$(ls "$FZ/corpus/$t" | wc -l)
  found=$(ls "$FZ/artifacts/$t" | wc -l)
  if [ $rc -eq 0 ] && [ "$found" -eq 0 ]; then res=ok; else res="FAIL (exit $rc, $found artifacts)"; fi
  echo "$t: $res, $((end-start)) s, ${runs:-?} runs, cov ${cov:-?}, corpus $ncorp" >"$FZ/logs/$t.result"
}

echo "fuzz: $SECS s per target:$targets (logs in $FZ/logs)"
: >"$FZ/summary.txt"
running=0
for t in $targets; do
  run_one "$t" &
  running=$((running+1))
  if [ "$running" -ge "$JOBS" ]; then wait; running=0; fi
done
wait
fail=$build_fail
for t in $targets; do
  r=$(cat "$FZ/logs/$t.result" 2>/dev/null || echo "$t: FAIL (no result)")
  echo "$r" | tee -a "$FZ/summary.txt"
  case "$r" in *FAIL*) fail=1; grep -E 'ERROR|SUMMARY|Test unit written' "$FZ/logs/$t.log" | head -n 5 ;; esac
done
[ $build_fail -eq 0 ] || echo "fuzz: some sources or targets did not build (see above)" | tee -a "$FZ/summary.txt"
exit $fail
