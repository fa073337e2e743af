#!/bin/sh
# Runs the unit tests and the CLI tests, built WITHOUT sanitizers, under
# valgrind (memcheck, --leak-check=full). Called by `make valgrind` as
#   sh tests/valgrind.sh BUILD
# after the Makefile has built BUILD/ssdrev and BUILD/libssdrev.a. Unit-test
# binaries are built into BUILD/vg/ with the Makefile's flags (no -fsanitize).
# The CLI tests run with SSDREV set to BUILD/vg/ssdrev, a wrapper that runs
# BUILD/ssdrev under valgrind and logs to BUILD/vg/logs/cli.PID.log.
# VG_ONLY="archive cli/harden_" runs only the names containing one of those
# words. Exits 1 if a test fails or valgrind reports any error or leak.
# Skips follow tests/run.sh: a CLI script exiting 77 is skipped (with the
# reasons of its "skip:" lines), and skip lines of scripts and unit tests
# that ran are echoed under their ok line. Closing line:
# "valgrind: N passed, N failed, N skipped".
set -u
B=${1:-build}
VG=$B/vg
command -v valgrind >/dev/null 2>&1 || { echo "valgrind: not installed (apt-get install valgrind)" >&2; exit 1; }
[ -f "$B/libssdrev.a" ] && [ -x "$B/ssdrev" ] || { echo "valgrind: build $B/ssdrev first (make valgrind does)" >&2; exit 1; }
rm -rf "$VG/logs"; mkdir -p "$VG/logs" || exit 1
# world-writable (sticky), so the tests that run ssdrev as nobody can log too
chmod 1777 "$VG/logs"
VG_ABS=$(cd "$VG" && pwd)
BIN_ABS=$(cd "$B" && pwd)/ssdrev
SUPP=""
[ -f tests/valgrind.supp ] && SUPP="--suppressions=$(pwd)/tests/valgrind.supp"
# Leaks of kinds definite and indirect are errors; "possible" ones inside
# third-party caches (fontconfig, cairo) are not ours to fix.
VGOPTS="-q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
 --show-leak-kinds=definite,indirect --track-fds=no --num-callers=30 $SUPP"

PKG_CFLAGS=$(pkg-config --cflags liburing cairo jansson libcmark-gfm blkid 2>/dev/null)
PKG_LIBS=$(pkg-config --libs liburing cairo jansson libcmark-gfm blkid 2>/dev/null)
LIBS="$PKG_LIBS -lcmark-gfm-extensions -lcsv -lhpdf -lm -lpthread"
CFLAGS="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers \
 -O1 -g -I. $PKG_CFLAGS -DSSDREV_VERSION=\"0.1.0\""

selected() {
  [ -z "${VG_ONLY:-}" ] && return 0
  for w in $VG_ONLY; do case "$1" in *"$w"*) return 0 ;; esac; done
  return 1
}

cat >"$VG/ssdrev" <<WRAP
#!/bin/sh
exec valgrind $VGOPTS --log-file="$VG_ABS/logs/cli.%p.log" "$BIN_ABS" "\$@"
WRAP
chmod +x "$VG/ssdrev"

export SSDREV="$VG_ABS/ssdrev"
export SSDREV_ROOT="$(pwd)"
# Valgrind is ~20-50x slower: tests that scale their work may read this.
export SSDREV_VALGRIND=1
pass=0; fail=0; skip=0; failed=""
for src in tests/unit/test_*.c; do
  name=$(basename "$src" .c)
  selected "$name" || continue
  # shellcheck disable=SC2086
  if ! cc $CFLAGS -o "$VG/$name" "$src" "$B/libssdrev.a" $LIBS 2>"$VG/logs/$name.build"; then
    cat "$VG/logs/$name.build"; echo "FAIL $name: did not build"
    fail=$((fail+1)); failed="$failed $name"; continue
  fi
  # shellcheck disable=SC2086
  valgrind $VGOPTS --log-file="$VG/logs/$name.log" "$VG/$name" >"$VG/logs/$name.out" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && [ ! -s "$VG/logs/$name.log" ]; then
    echo "ok   $name ($(tail -n 1 "$VG/logs/$name.out"))"; pass=$((pass+1))
    grep '^skip ' "$VG/logs/$name.out" | sed 's/^/     /'
  else
    grep -v '^ok  ' "$VG/logs/$name.out" | tail -n 20; head -n 60 "$VG/logs/$name.log"
    echo "FAIL $name (exit $rc)"; fail=$((fail+1)); failed="$failed $name"
  fi
done
for t in tests/cli/*.sh; do
  [ -f "$t" ] || continue
  name=cli/$(basename "$t" .sh)
  selected "$name" || continue
  before=$(ls "$VG/logs" | grep -c '^cli\.')
  out=$(sh "$t" 2>&1); rc=$?
  # Any non-empty valgrind log of this script's ssdrev runs is an error report.
  bad=$(find "$VG/logs" -name 'cli.*.log' -newer "$VG/ssdrev" -size +0c -exec grep -l 'ERROR SUMMARY: [1-9]\|definitely lost\|indirectly lost\|Invalid \|uninitialised' {} + 2>/dev/null)
  if [ $rc -eq 0 ] && [ -z "$bad" ]; then
    echo "ok   $name"; pass=$((pass+1))
    printf '%s\n' "$out" | grep '^skip: ' | sed 's/^/     /'
  elif [ $rc -eq 77 ] && [ -z "$bad" ]; then
    reason=$(printf '%s\n' "$out" | sed -n 's/^skip: //p' | awk '{ printf "%s%s", (NR > 1 ? "; " : ""), $0 }')
    echo "skip $name: ${reason:-no reason given}"; skip=$((skip+1))
  else
    printf '%s\n' "$out" | tail -n 20
    for f in $bad; do head -n 60 "$f"; mv "$f" "$f.reported"; done
    echo "FAIL $name (exit $rc)"; fail=$((fail+1)); failed="$failed $name"
  fi
  : "$before"
done
[ -n "$failed" ] && echo "failed:$failed"
echo "valgrind: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
