#!/bin/sh
# The full method's figures in compare (issue 25 item 4, scalars): QD
# scaling (IOPS per workload and QD), the steady state's window, each
# consistency test's steady part, each thermal test and the SLC cache
# recovered after each idle are figures of their own families (ftl-8g: its
# 0.25 GiB near-full cache runs out in a short run, so recovery is measured), with
# charts, tables, xlsx sheets and Korean titles; QD scaling and tail
# latency are also drawn as curves across groups (overlays).
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
F="$T/lab"
mkdir -p "$F"
for s in 1 2; do
  SSDREV_DATA=$R "$SSDREV" review sim:ftl-8g --profile review-full --short --seed $s --out "$F/r$s" >/dev/null 2>"$T/e" \
    || fail "review: $(cat "$T/e")"
done
"$SSDREV" compare "$F" --out "$T/o" --format md,csv,xlsx >/dev/null 2>"$T/e" || fail "compare: $(cat "$T/e")"
M="$T/o/compare.md"
for h in "## QD scaling" "### read QD32 [IOPS]" "## Steady state" "### Steady state: mean IOPS [IOPS]" \
         "## Consistency" "### Consistency: 1st-percentile IOPS (consistency.write) [IOPS]" "## Thermal" \
         "### Thermal: mean write speed (thermal.write) [MB/s]" "## Cache recovery" "### Cache recovered after 0.3s idle [GiB]"; do
  grep -qF -- "$h" "$M" || fail "compare.md lacks '$h'"
done
# overlays across groups, drawn from the groups' medians
for f in ov-fill-trace ov-qd-read ov-qd-write ov-steady-rounds ov-tail-read ov-tail-write; do
  [ -s "$T/o/charts/$f.png" ] || fail "no overlay $f"
done
grep -q '^!\[QD scaling, read\](charts/ov-qd-read.png)$' "$M" || fail "overlay not in the report: $(grep -A3 '^## Curves' "$M")"
/usr/bin/python3 - "$T/o" <<'PY' || exit 1
import csv, json, re, sys, zipfile
d = sys.argv[1]
rows = {(r["family"], r["test"], r["metric"]): r for r in csv.DictReader(open(d + "/groups.csv"))}
a = [json.load(open("%s/../lab/r%d/analysis.json" % (d, i))) for i in (1, 2)]
def vals(f):
    return sorted(f(x) for x in a)
for key, f in (
    (("qd", "read", "qd32_iops"), lambda x: [p for g in x["qd_scaling"] if g["workload"] == "read" for p in g["points"] if p["qd"] == 32][0]["iops"]),
    (("steady", "window", "mean_iops"), lambda x: x["steady_state"]["window"]["mean_iops"]),
    (("consistency", "consistency.write", "p1_iops"), lambda x: x["consistency"][0]["steady"]["p1_iops"]),
    (("thermal", "thermal.write", "peak_temp_c"), lambda x: x["thermal"][0]["peak_temp_c"]),
):
    v = vals(f)
    r = rows[key]
    assert r["n"] == "2" and abs(float(r["median"]) - (v[0] + v[1]) / 2) < 1e-3, (key, r, v)
assert any(k[0] == "recovery" for k in rows), "no cache recovery figure"
names = re.findall(r'<sheet name="([^"]+)"', zipfile.ZipFile(d + "/compare.xlsx").read("xl/workbook.xml").decode())
for s in ("QD scaling", "Steady state", "Consistency", "Thermal", "Cache recovery"):
    assert s in names, names
PY
"$SSDREV" compare "$F" --out "$T/ko" --format md --lang ko --max-charts 1 >/dev/null 2>"$T/e" || fail "compare ko: $(cat "$T/e")"
for h in "## 그룹별 곡선" "## QD 스케일링" "### 읽기 QD32 [IOPS]" "## 정상 상태" "### 일관성: 하위 1% IOPS (consistency.write) [IOPS]" "## 발열" "## 캐시 회복"; do
  grep -qF -- "$h" "$T/ko/compare.md" || fail "Korean compare.md lacks '$h'"
done
echo ok
