#!/bin/sh
# perf/render/bench.sh — times `ssdrev report` (all three formats, 14 charts
# as PNG+SVG) and `ssdrev chart fill` over the fixture runs; prints the median
# wall, user and system seconds of N runs. Usage: perf/render/bench.sh BUILD [N]
B=${1:-build}; N=${2:-5}
S="$B/ssdrev"; D=tests/data/analysis
T=$(mktemp -d /tmp/ssdrev-perf.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run() { # label, command...
  label=$1; shift
  : >"$T/w"; : >"$T/u"; : >"$T/s"
  i=0
  while [ $i -lt "$N" ]; do
    /usr/bin/time -f "%e %U %S" -o "$T/t" "$@" >/dev/null 2>&1 || { echo "$label failed"; return 1; }
    read -r w u s <"$T/t"; echo "$w" >>"$T/w"; echo "$u" >>"$T/u"; echo "$s" >>"$T/s"
    i=$((i+1))
  done
  printf '%-28s wall %5ss  user %5ss  sys %5ss  (median of %d)\n' "$label" \
    "$(median <"$T/w")" "$(median <"$T/u")" "$(median <"$T/s")" "$N"
}
run "report md,html,pdf (en)" "$S" report -t templates/review.en.md -o "$T/en" "$D/pm981" "$D/pm981a"
run "report md only (en)" "$S" report -t templates/review.en.md -o "$T/md" -f md "$D/pm981" "$D/pm981a"
run "report md,html,pdf (ko)" "$S" report -t templates/review.ko.md -o "$T/ko" "$D/pm981" "$D/pm981a"
run "chart fill png 300 dpi" "$S" chart fill "$D/pm981" "$D/pm981a" --out "$T/f.png"
run "chart fill svg" "$S" chart fill "$D/pm981" "$D/pm981a" --out "$T/f.svg"
