#!/bin/sh
# report_ab.sh: interleaved A/B timing of `ssdrev report` for two binaries
# (before/after a change) over the same runs, so machine load hits both alike.
# usage: sh perf/render/report_ab.sh OLD_BIN NEW_BIN RUN_DIR... [env N=5 TPL=templates/review.en.md]
# Prints each binary's wall/user/sys median of N (/usr/bin/time), then
# `perf stat -e task-clock -r N` for each (if perf is installed), and checks
# that both write byte-identical output directories.
set -u
[ $# -ge 3 ] || { echo "usage: $0 OLD_BIN NEW_BIN RUN_DIR..." >&2; exit 2; }
A=$1 B=$2; shift 2
N=${N:-5}; TPL=${TPL:-templates/review.en.md}
T=$(mktemp -d /tmp/ssdrev-ab.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
i=0
while [ $i -lt "$N" ]; do
  for k in a b; do
    if [ $k = a ]; then bin=$A; else bin=$B; fi
    rm -rf "$T/out-$k"
    /usr/bin/time -f "%e %U %S" -a -o "$T/time-$k" "$bin" report -t "$TPL" -o "$T/out-$k" "$@" >/dev/null 2>"$T/err" \
      || { cat "$T/err" >&2; exit 1; }
  done
  i=$((i + 1))
done
med() { sort -n -k"$2" "$1" | awk -v c="$2" -v n="$N" 'NR == int((n + 1) / 2) { print $c }'; }
for k in a b; do
  if [ $k = a ]; then bin=$A; else bin=$B; fi
  echo "$k ($bin): wall $(med "$T/time-$k" 1) s, user $(med "$T/time-$k" 2) s, sys $(med "$T/time-$k" 3) s (medians of $N)"
done
if command -v perf >/dev/null 2>&1; then
  for k in a b; do
    if [ $k = a ]; then bin=$A; else bin=$B; fi
    perf stat -e task-clock -r "$N" "$bin" report -t "$TPL" -o "$T/p-$k" "$@" 2>&1 >/dev/null |
      awk -v k="$k" '/task-clock/ { print k ": task-clock " $1 " ms" } /elapsed/ { print k ": elapsed " $1 " s (mean)" }'
  done
fi
diff -r "$T/out-a" "$T/out-b" >/dev/null && echo "outputs: byte-identical" || echo "outputs: DIFFER"
echo "load: $(cat /proc/loadavg)"
