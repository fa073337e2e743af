#!/bin/sh
# Regenerates every expected output tests/golden/NAME.out from the cases of
# tests/golden/cases.txt, with BUILD/ssdrev (`make golden-update` builds it
# and calls this). Usage, from the source root: sh tests/golden/update.sh BUILD
#
# All cases run twice first; if the two runs differ anywhere, nothing is
# written (a golden file must not capture output that varies). Then review
# the result with `git diff tests/golden/` before committing it.
set -u
B=${1:-build}
[ -x "$B/ssdrev" ] || { echo "golden-update: no $B/ssdrev (make golden-update builds it)" >&2; exit 1; }
SSDREV="$(cd "$B" && pwd)/ssdrev"; export SSDREV
SSDREV_ROOT=$(pwd); export SSDREV_ROOT
[ -f tests/golden/cases.txt ] || { echo "golden-update: run from the source root" >&2; exit 1; }
W=$(mktemp -d /tmp/ssdrev-golden.XXXXXX) || exit 1
trap 'rm -rf "$W"' EXIT INT TERM
mkdir "$W/1" "$W/2" || exit 1
GOLDEN_OUT="$W/1" sh tests/cli/golden.sh || exit 1
GOLDEN_OUT="$W/2" sh tests/cli/golden.sh || exit 1
if ! diff -ru "$W/1" "$W/2"; then
  echo "golden-update: two runs of the cases differ (above): nothing written" >&2; exit 1
fi
# an expected file of a case no longer listed would fail the test: remove it
for f in tests/golden/*.out; do
  [ -f "$f" ] && [ ! -f "$W/2/$(basename "$f")" ] && { rm -f "$f"; echo "golden-update: removed $f (no such case)"; }
done
cp "$W"/2/*.out tests/golden/ || exit 1
n=$(ls "$W"/2/*.out | wc -l)
echo "golden-update: wrote $n files in tests/golden/ (review them: git diff tests/golden/)"
