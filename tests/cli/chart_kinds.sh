#!/bin/sh
# chart_kinds: `ssdrev chart` draws every kind as PNG (300 dpi = 1950 px
# wide) and SVG; bad usage exits 2 naming the option; missing data exits 1.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "chart_kinds: $*" >&2; exit 1; }
D=tests/data/analysis
"$SSDREV" chart fill "$D/pm981" "$D/pm981a" --out "$T/fill.png" >/dev/null || fail "fill png"
# PNG IHDR width at offset 16 (big-endian): 1950 = 0x0000079e
w=$(od -An -tx1 -j16 -N4 "$T/fill.png" | tr -d ' \n')
[ "$w" = "0000079e" ] || fail "fill.png width is 0x$w, want 1950 px"
for k in cdm fill_latency rw_ratio tail latency bars temperature; do
  "$SSDREV" chart "$k" "$D/pm981" "$D/pm981a" --drive 2 --dpi 72 --out "$T/$k.png" >/dev/null || fail "$k png"
  "$SSDREV" chart "$k" "$D/pm981" "$D/pm981a" --drive 2 --out "$T/$k.svg" >/dev/null || fail "$k svg"
  head -c 200 "$T/$k.svg" | grep -q "<svg" || fail "$k.svg is not SVG"
done
"$SSDREV" chart cdm "$D/pm981" --state 75% --out "$T/c75.svg" >/dev/null || fail "cdm 75%"
# no fill-chart mark label is cut by a mark's vertical line (another drive's
# cliff at 11 GiB used to cross the near-full labels at 2 GiB): a label runs
# from its x for ~4.3 px per character at 7.5 pt
"$SSDREV" chart fill "$D/pm981" "$D/pm981a" --out "$T/fill.svg" >/dev/null || fail "fill svg"
awk 'BEGIN { nl = 0; nt = 0 }
  /stroke-dasharray:(3,2|1,2);/ && match($0, /d="M [0-9.]+ /) { lx[nl++] = substr($0, RSTART + 5, RLENGTH - 6) + 0 }
  /<text/ && (/>SLC [0-9]/ || />near full /) {
    match($0, / x="[0-9.]+"/); x = substr($0, RSTART + 4, RLENGTH - 5) + 0
    t = $0; sub(/.*">/, "", t); sub(/<\/text>.*/, "", t)
    tx[nt] = x; tw[nt++] = 4.3 * length(t)
  }
  END {
    if (nl < 4 || nt < 4) { print "marks " nl ", labels " nt; exit 1 }
    for (i = 0; i < nt; i++) for (j = 0; j < nl; j++)
      if (lx[j] > tx[i] && lx[j] < tx[i] + tw[i]) { print "label " i " at " tx[i] " crossed by the line at " lx[j]; exit 1 }
  }' "$T/fill.svg" >"$T/err" || fail "fill mark labels: $(cat "$T/err")"
# the chart's text is SVG text; the temperature chart's in Korean with --lang ko
grep -q '>Temperature and write speed during the review — PM981a 256GB</text>' "$T/temperature.svg" \
  || fail "temperature.svg lacks its title as text"
"$SSDREV" chart temperature "$D/pm981" --lang ko --out "$T/tk.svg" >/dev/null || fail "temperature --lang ko"
grep -q '>온도 \[°C\]</text>' "$T/tk.svg" || fail "--lang ko: no Korean axis"
"$SSDREV" chart temperature "$D/pm981" --lang fr --out "$T/x.png" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--lang" "$T/err" || fail "bad lang: exit $rc"
"$SSDREV" chart nosuch "$D/pm981" --out "$T/x.png" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "nosuch" "$T/err" || fail "unknown kind: exit $rc"
"$SSDREV" chart fill "$D/pm981" --out "$T/x.jpg" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--out" "$T/err" || fail "bad extension: exit $rc"
"$SSDREV" chart fill "$D/pm981" --out "$T/x.png" --dpi 5 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--dpi" "$T/err" || fail "bad dpi: exit $rc"
"$SSDREV" chart cdm "$D/pm981" "$D/pm981a" --out "$T/x.png" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "draws one drive" "$T/err" || fail "cdm over two drives: exit $rc"
"$SSDREV" chart hist "$D/pm981" --out "$T/h.png" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "histogram" "$T/err" || fail "hist without a log: exit $rc"
[ ! -e "$T/x.png" ] && [ ! -e "$T/h.png" ] || fail "a failed chart left a file"
"$SSDREV" chart --help | grep -q "rw_ratio" || fail "--help lists no kinds"
exit 0
