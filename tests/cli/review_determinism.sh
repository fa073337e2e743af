#!/bin/sh
# A whole short review on a sim model is deterministic: the same --seed
# gives byte-identical logs for every test of every step; another seed gives
# different logs. (A finished review keeps no sim state to compare.)
set -u
fail() { echo "review_determinism: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
M="sim:$R/samples/models/pm981a-256.model"
for r in a b; do
  "$S" review "$M" --out "$D/$r" --short --seed 11 --quiet 2>"$D/err" || fail "review $r failed: $(cat "$D/err")"
done
"$S" review "$M" --out "$D/c" --short --seed 12 --quiet 2>"$D/err" || fail "review c failed: $(cat "$D/err")"
n=0
for f in "$D"/a/logs/*.ssdlog; do
  b=$(basename "$f")
  [ -f "$D/b/logs/$b" ] || fail "second run has no $b"
  cmp -s "$f" "$D/b/logs/$b" || fail "$b differs between two runs with the same seed"
  n=$((n + 1))
done
[ "$n" -gt 60 ] || fail "only $n logs in a short review"
[ "$(ls "$D/a/logs" | wc -l)" = "$(ls "$D/b/logs" | wc -l)" ] || fail "the runs hold different log sets"
cmp -s "$D/a/logs/tail.mix70.ssdlog" "$D/c/logs/tail.mix70.ssdlog" && fail "another seed gave the same tail log"
exit 0
