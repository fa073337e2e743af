#!/bin/sh
# Golden CLI outputs (as zstd's tests/cli-tests): runs every case of
# tests/golden/cases.txt (`ssdrev ARGS...` from the source root, in order,
# with $T a scratch directory they share) and compares its stdout with
# tests/golden/NAME.out, printing a unified diff on a mismatch. A case must
# exit 0, and every NAME.out must belong to a case.
#
# GOLDEN_OUT=DIR writes the normalized outputs to DIR/NAME.out instead of
# comparing; tests/golden/update.sh (`make golden-update`) uses it.
set -u
fail() { echo "golden: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
G=$ROOT/tests/golden
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
OUT=${GOLDEN_OUT:-}
[ -z "$OUT" ] || OUT=$(cd "$OUT" && pwd) || fail "no directory $GOLDEN_OUT"
cd "$ROOT" || fail "cannot cd to $ROOT"

# Normalization: only what differs from one machine or run to the next. The
# scratch directory (mktemp) becomes @TMP@ and the source root (a checkout
# anywhere) @ROOT@. Nothing else is replaced: the simulated drive's clock is
# virtual (its logs start at 1970-01-01T00:00:00Z, and every latency and rate
# follows from the seed), and these commands print no host name, wall-clock
# date or tool version; if one ever does, its golden file shows it and the
# case fails on the next machine, which is the point.
sed_escape() { printf '%s\n' "$1" | sed 's/[][\\.*^$]/\\&/g'; }
T_RE=$(sed_escape "$T"); ROOT_RE=$(sed_escape "$ROOT")
normalize() { sed -e "s|$T_RE|@TMP@|g" -e "s|$ROOT_RE|@ROOT@|g"; }

n=0; bad=0; names=" "
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in ''|'#'*) continue ;; esac
  name=${line%%[ 	]*}
  args=${line#"$name"}
  args=${args#"${args%%[! 	]*}"}
  case "$name" in *[!A-Za-z0-9._-]*) fail "cases.txt: bad case name '$name'" ;; esac
  case "$names" in *" $name "*) fail "cases.txt: case '$name' listed twice" ;; esac
  names="$names$name "
  # the arguments are sh words of a trusted file: eval expands $T and quotes
  eval "set -- $args"
  "$S" "$@" >"$T/$name.raw" 2>"$T/$name.err" </dev/null; rc=$?
  normalize <"$T/$name.raw" >"$T/$name.out"
  n=$((n+1))
  if [ $rc -ne 0 ]; then
    echo "golden: case $name: ssdrev $args exited $rc:"; cat "$T/$name.err"; bad=$((bad+1)); continue
  fi
  if [ -n "$OUT" ]; then cp "$T/$name.out" "$OUT/$name.out" || fail "cannot write $OUT/$name.out"; continue; fi
  if [ ! -f "$G/$name.out" ]; then
    echo "golden: case $name: no expected output $G/$name.out (make golden-update writes it)"; bad=$((bad+1)); continue
  fi
  if ! cmp -s "$G/$name.out" "$T/$name.out"; then
    echo "golden: case $name: stdout of ssdrev $args differs from tests/golden/$name.out:"
    diff -u -L "tests/golden/$name.out" -L actual "$G/$name.out" "$T/$name.out"
    bad=$((bad+1))
  fi
done <"$G/cases.txt"
[ $n -gt 0 ] || fail "no cases in $G/cases.txt"

# every expected file belongs to a case (a renamed case leaves none behind)
for f in "$G"/*.out; do
  [ -f "$f" ] || continue
  b=$(basename "$f" .out)
  case "$names" in *" $b "*) continue ;; esac
  [ -z "$OUT" ] && { echo "golden: tests/golden/$b.out belongs to no case in cases.txt"; bad=$((bad+1)); }
done
[ $bad -eq 0 ] || fail "$bad of $n cases failed"
exit 0
