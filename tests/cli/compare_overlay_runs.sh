#!/bin/sh
# The fill overlay draws, under each group's median line, one thin pale line
# per run where the group holds several runs (issue 25 item 4): a group of
# two runs whose fills differ (the second at 70% speed) shows both runs'
# curves in the baseline's pale colour; the same set with one run per group
# shows next to none of it (only the median line's antialiased edge).
set -u
/usr/bin/python3 -c 'import PIL.Image' >/dev/null 2>&1 || { echo "skip: python3 PIL not installed"; exit 77; }
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
A=$R/tests/data/analysis
put() { # DIR FIXTURE SCALE: the fixture, its fill's per-GiB speeds scaled
  mkdir -p "$1" && cp "$A/$2/manifest.json" "$1/" || fail "fixture $2"
  /usr/bin/python3 - "$A/$2/analysis.json" "$1/analysis.json" "$3" <<'PY' || fail "scale $2"
import json, sys
a = json.load(open(sys.argv[1]))
pg = a["fill"]["per_gib"]
pg["mb_s"] = [v * float(sys.argv[3]) for v in pg["mb_s"]]
json.dump(a, open(sys.argv[2], "w"))
PY
}
pale() { # PNG: pixels of the baseline's pale run colour
  /usr/bin/python3 - "$1" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
# out.c: pal[0] = (0.13, 0.35, 0.62), pale = 0.45 * pal + 0.55
want = [round((0.45 * c + 0.55) * 255) for c in (0.13, 0.35, 0.62)]
print(sum(1 for p in im.getdata() if all(abs(p[i] - want[i]) <= 4 for i in range(3))))
PY
}
# two runs of one model (one group) and the other fixture
put "$T/two/a1" pm981 1
put "$T/two/a2" pm981 0.7
put "$T/two/b" pm981a 1
"$SSDREV" compare "$T/two" --out "$T/o" --format md --baseline "SAMSUNG MZVLB256HAHQ-000L7 · 1L2QEXD7 · FOB+75%" \
  >/dev/null 2>"$T/e" || fail "compare: $(cat "$T/e")"
png=$T/o/charts/ov-fill-trace.png
[ -s "$png" ] || fail "no fill overlay: $(ls "$T/o/charts" | grep ov-)"
n2=$(pale "$png") || fail "reading $png"
# one run per group: no run lines
put "$T/one/a1" pm981 0.85
put "$T/one/b" pm981a 1
"$SSDREV" compare "$T/one" --out "$T/o1" --format md >/dev/null 2>"$T/e" || fail "compare one: $(cat "$T/e")"
n1=$(pale "$T/o1/charts/ov-fill-trace.png") || fail "reading the one-run overlay"
[ "$n2" -ge 1500 ] && [ "$n2" -ge $((n1 * 4)) ] \
  || fail "run lines: $n2 pale pixels with a group of two runs, $n1 with one run per group"
echo "ok compare_overlay_runs ($n2 vs $n1 pale pixels)"
