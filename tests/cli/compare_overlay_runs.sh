#!/bin/sh
# Every overlay across groups draws, under each group's median line, one
# thin pale line per run where the group holds several runs (issue 25 item
# 4 and round 2 items 1-2): the fill, QD scaling, the steady state's rounds,
# tail latency on the nines axis, and the consistency and thermal time
# series (IOPS, write speed, temperature over time). A group of two runs
# whose curves differ (the second at 70%) shows both runs' curves in the
# baseline's pale colour; the same set with one run per group shows next to
# none of it (only the median line's antialiased edge). The time-series
# overlays are in compare.md (both languages), compare.html and the PDF.
set -u
/usr/bin/python3 -c 'import PIL.Image' >/dev/null 2>&1 || { echo "skip: python3 PIL not installed"; exit 77; }
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
A=$R/tests/data/analysis
put() { # DIR FIXTURE SCALE: the fixture with the full method's curves, all scaled
  mkdir -p "$1" && cp "$A/$2/manifest.json" "$1/" || fail "fixture $2"
  /usr/bin/python3 - "$A/$2/analysis.json" "$1/analysis.json" "$3" <<'PY' || fail "scale $2"
import json, sys
a = json.load(open(sys.argv[1]))
k = float(sys.argv[3])
pg = a["fill"]["per_gib"]
pg["mb_s"] = [v * k for v in pg["mb_s"]]
for w in a["tail"].values():
    for m in w:
        w[m] /= k  # slower: longer latencies
a["qd_scaling"] = [{"workload": w, "points": [{"qd": q, "iops": k * 9000 * q ** 0.7, "p99_us": 90.0 * q}
                                              for q in (1, 2, 4, 8, 16, 32)]} for w in ("read", "write")]
a["steady_state"] = {"rounds": [{"round": r, "iops": k * (90000 - 8000 * r if r < 5 else 50000)} for r in range(1, 9)],
                     "window": {"mean_iops": k * 50000, "range_pct": 3.0}}
a["consistency"] = [{"test": "consistency.write", "steady": {"mean_iops": k * 50000, "p1_iops": k * 30000},
                     "per_s": {"t_s": list(range(60)), "iops": [k * (200000 if t < 20 else 50000) for t in range(60)]}}]
a["thermal"] = [{"test": "thermal.write", "mean_mb_s": k * 1500, "peak_temp_c": 80 * k,
                 "t_s": list(range(0, 120, 2)), "mb_s": [k * (2000 if t < 60 else 900) for t in range(0, 120, 2)],
                 "temp_t_s": list(range(0, 120, 5)), "temp_c": [k * (40 + t / 3) for t in range(0, 120, 5)]}]
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
# getcolors counts in C: a pixel loop in Python takes seconds per chart
print(sum(n for n, p in im.getcolors(1 << 24) if all(abs(p[i] - want[i]) <= 4 for i in range(3))))
PY
}
# two runs of one model (one group) and the other fixture
put "$T/two/a1" pm981 1
put "$T/two/a2" pm981 0.7
put "$T/two/b" pm981a 1
"$SSDREV" compare "$T/two" --out "$T/o" --format md,csv,html,pdf --max-charts 1 --baseline "SAMSUNG MZVLB256HAHQ-000L7 · 1L2QEXD7 · FOB+75%" \
  >/dev/null 2>"$T/e" || fail "compare: $(cat "$T/e")"
# one run per group: no run lines
put "$T/one/a1" pm981 0.85
put "$T/one/b" pm981a 1
"$SSDREV" compare "$T/one" --out "$T/o1" --format md --max-charts 1 >/dev/null 2>"$T/e" || fail "compare one: $(cat "$T/e")"
res=""
for ov in fill-trace qd-read qd-write steady-rounds tail-read tail-write cons-consistency-write \
          thermal-thermal-write temp-thermal-write; do
  png=$T/o/charts/ov-$ov.png
  [ -s "$png" ] || fail "no overlay $ov: $(ls "$T/o/charts" | grep ov-)"
  n2=$(pale "$png") || fail "reading $png"
  n1=$(pale "$T/o1/charts/ov-$ov.png") || fail "reading the one-run overlay $ov"
  [ "$n2" -ge 1000 ] && [ "$n2" -ge $((n1 * 4)) ] \
    || fail "$ov: run lines: $n2 pale pixels with a group of two runs, $n1 with one run per group"
  res="$res $ov $n2/$n1"
done
M=$T/o/compare.md
for t in "QD1 70/30 mix latency by percentile](charts/ov-tail-mix70.png)" \
         "Consistency: IOPS over time (consistency.write)](charts/ov-cons-consistency-write.png)" \
         "Thermal: write speed over time (thermal.write)](charts/ov-thermal-thermal-write.png)" \
         "Thermal: temperature over time (thermal.write)](charts/ov-temp-thermal-write.png)"; do
  grep -qF "![$t" "$M" || fail "compare.md lacks '$t': $(grep -F 'ov-' "$M")"
done
# the time steps are figures of their own, in groups.csv (a2's IOPS at 70%)
grep -q '^"SAMSUNG MZVLB256HAHQ-000L7 · 1L2QEXD7 · FOB+75%",.*,"consistency","consistency.write","t2_iops","IOPS",2,140000,170000,200000,' \
  "$T/o/groups.csv" || fail "groups.csv: $(grep t2_iops "$T/o/groups.csv")"
# HTML: the overlays inside; PDF: its pages hold them (images)
/usr/bin/python3 - "$T/o/compare.html" <<'PY' || fail "compare.html lacks a time-series overlay"
import re, sys
h = open(sys.argv[1]).read()
imgs = re.findall(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]+" alt="([^"]*)"', h)
for t in ("Consistency: IOPS over time (consistency.write)", "Thermal: write speed over time (thermal.write)",
          "Thermal: temperature over time (thermal.write)"):
    assert imgs.count(t) == 1, (t, imgs)
PY
[ -s "$T/o/compare.pdf" ] || fail "no compare.pdf"
"$SSDREV" compare "$T/two" --out "$T/ko" --format md --lang ko --max-charts 1 >/dev/null 2>"$T/e" || fail "compare ko: $(cat "$T/e")"
for t in "일관성: 시간별 IOPS (consistency.write)" "발열: 시간별 쓰기 속도 (thermal.write)" "발열: 시간별 온도 (thermal.write)"; do
  grep -qF "![$t](" "$T/ko/compare.md" || fail "Korean compare.md lacks '$t'"
done
echo "ok compare_overlay_runs (pale pixels, two runs/one run:$res)"
