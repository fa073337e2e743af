#!/bin/sh
# compare's statistics (issue 25 item 2) against scipy, computed here from
# compare.csv's per-run values: per group n, median, mean, stddev, CV and the
# 95% t interval; per group and figure the mean difference to the baseline
# with Welch's 95% interval, Welch's p and "beyond the noise" (p < 0.05, never
# at n = 1); the relative score in the report (geometric mean of median
# ratios, latency inverted); a review's CDM passes as the samples, the same
# when read back from the folder's index. Skipped without numpy and scipy.
set -u
/usr/bin/python3 -c 'import numpy, scipy.stats' >/dev/null 2>&1 || { echo "skip: python3 numpy/scipy not installed"; exit 77; }
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$R/samples/cdm/pm981-fob-cdm8.txt
F="$T/lab"
mkdir -p "$F"
imp() { "$SSDREV" import "$@" >/dev/null 2>"$T/e" || fail "import $*: $(cat "$T/e")"; }
unit() { # NAME MODEL FIRMWARE SEQ1M-Q8 RND4K-Q1 RND4K-Q1-latency
  sed "s/3531.284 MB\/s/$4 MB\/s/; s/47.617 MB\/s/$5 MB\/s/; s/<    85.82 us>/<    $6 us>/" "$C" >"$T/$1.txt"
  imp cdm "$T/$1.txt" --out "$F/$1" --model "$2" --firmware "$3"
}
unit a1 PM981 FW100 3531.284 47.617 85.82
unit a2 PM981 FW100 3520.110 47.402 86.20
unit a3 PM981 FW100 3544.905 47.880 85.10
unit a4 PM981 FW100 3528.000 47.700 85.55
unit b1 PM981 FW200 3390.402 47.551 88.90
unit b2 PM981 FW200 3402.771 47.790 87.95
unit b3 PM981 FW200 3371.950 47.302 89.40
unit d1 PM981a FW300 3610.000 50.100 80.00
"$SSDREV" compare "$F" --out "$T/o" --format md,csv --baseline "PM981 · FW100 · FOB" >"$T/out" 2>"$T/e" \
  || fail "compare: $(cat "$T/e")"
/usr/bin/python3 - "$T/o" <<'PY' || exit 1
import csv, math, sys
import warnings
warnings.simplefilter("ignore", RuntimeWarning)  # scipy on constant columns
import numpy as np
from scipy import stats
d = sys.argv[1]
vals = {}
for r in csv.DictReader(open(d + "/compare.csv")):
    vals.setdefault((r["group"], r["family"], r["test"], r["metric"]), []).append(float(r["value"]))
rows = list(csv.DictReader(open(d + "/groups.csv")))
base = "PM981 · FW100 · FOB"
def close(got, want, what):
    if want is None or (isinstance(want, float) and math.isnan(want)):
        assert got == "", "%s: want empty, got %r" % (what, got)
        return
    g = float(got)
    # groups.csv keeps 6 decimals
    assert abs(g - want) <= 2e-6 + 1e-9 * abs(want), "%s: got %s, want %.9g" % (what, got, want)
checked = tested = beyond = 0
for r in rows:
    k = (r["group"], r["family"], r["test"], r["metric"])
    x = np.array(vals[k])
    n = len(x)
    assert int(r["n"]) == n, (k, r["n"], n)
    close(r["median"], float(np.median(x)), "median %s" % (k,))
    close(r["mean"], float(x.mean()), "mean %s" % (k,))
    if n >= 2:
        sd = float(x.std(ddof=1))
        close(r["stddev"], sd, "sd %s" % (k,))
        close(r["cv"], sd / abs(x.mean()), "cv %s" % (k,))
        lo, hi = stats.t.interval(0.95, n - 1, loc=x.mean(), scale=stats.sem(x)) if sd > 0 else (x.mean(), x.mean())
        close(r["ci95_lo"], float(lo), "ci lo %s" % (k,))
        close(r["ci95_hi"], float(hi), "ci hi %s" % (k,))
    else:
        assert r["stddev"] == r["ci95_lo"] == r["ci95_hi"] == r["cv"] == "", r
    if r["group"] == base:
        assert r["diff_pct"] == r["p_welch"] == r["beyond_noise"] == "", r
        continue
    b = np.array(vals[(base,) + k[1:]])
    close(r["diff_pct"], float((x.mean() - b.mean()) / abs(b.mean()) * 100), "diff %s" % (k,))
    if n < 2 or len(b) < 2:
        assert r["p_welch"] == "" and r["diff_ci95_lo_pct"] == "" and r["beyond_noise"] == "no", r
        continue
    vb, vx = b.var(ddof=1) / len(b), x.var(ddof=1) / n
    if vb + vx == 0:
        assert r["beyond_noise"] == ("yes" if x.mean() != b.mean() else "no"), r
        continue
    t = stats.ttest_ind(x, b, equal_var=False)
    df = (vb + vx) ** 2 / (vb ** 2 / (len(b) - 1) + vx ** 2 / (n - 1))
    h = stats.t.ppf(0.975, df) * math.sqrt(vb + vx)
    dm = x.mean() - b.mean()
    close(r["p_welch"], float(t.pvalue), "p %s" % (k,))
    close(r["diff_ci95_lo_pct"], float((dm - h) / abs(b.mean()) * 100), "diff lo %s" % (k,))
    close(r["diff_ci95_hi_pct"], float((dm + h) / abs(b.mean()) * 100), "diff hi %s" % (k,))
    assert r["beyond_noise"] == ("yes" if t.pvalue < 0.05 else "no"), (r, t.pvalue)
    tested += 1
    beyond += r["beyond_noise"] == "yes"
    checked += 1
assert tested >= 3 and beyond >= 2, (tested, beyond)
# the relative score: geometric mean over the headline figures (the CDM MB/s
# cells) of median ratios to the baseline, latency inverted
md = open(d + "/compare.md").read()
score_line = [l for l in md.splitlines() if l.startswith("| **Relative score** |")]
assert len(score_line) == 1, score_line
head = [l for l in md.splitlines() if l.startswith("| Test |")][0]
cols = [c.strip() for c in head.strip("|").split("|")][1:]
got = [float(c.strip().strip("*")) for c in score_line[0].strip("|").split("|")[1:]]
# the columns are the short names: the part every group shares (FOB) is said once
assert "Every group shares: FOB." in md, md[:600]
names = {r["group"] for r in rows}
for name, s in zip(cols, got):
    short = name.replace(" (baseline)", "")
    g = [x for x in names if x == short + " · FOB"]
    assert len(g) == 1, (short, names)
    g = g[0]
    logs = []
    for r in rows:
        if r["group"] != g or r["family"] != "cdm" or not r["metric"].endswith("_mb_s"):
            continue
        bm = [x for x in rows if x["group"] == base and x["test"] == r["test"] and x["metric"] == r["metric"]]
        logs.append(math.log(float(r["median"]) / float(bm[0]["median"])))
    want = math.exp(sum(logs) / len(logs))
    assert abs(s - want) < 0.0006, (name, s, want)
print("checked", checked, "differences;", beyond, "beyond the noise")
PY
# two short reviews of 3 passes each: a CDM cell's 6 passes are its samples
P="$T/passes"
mkdir -p "$P"
for s in 1 2; do
  SSDREV_DATA=$R "$SSDREV" review sim:pm981-256 --short --passes 3 --seed $s --out "$P/r$s" >/dev/null 2>"$T/e" \
    || fail "review: $(cat "$T/e")"
done
"$SSDREV" compare "$P" --out "$T/p1" --format csv >/dev/null 2>"$T/e" || fail "compare passes: $(cat "$T/e")"
"$SSDREV" compare "$P" --out "$T/p2" --format csv --verbose >"$T/out" 2>"$T/e" || fail "compare again: $(cat "$T/e")"
grep -q "runs: 2 from the index" "$T/out" || fail "second compare not from the index: $(cat "$T/out")"
cmp -s "$T/p1/groups.csv" "$T/p2/groups.csv" || fail "the index changes the statistics: $(diff "$T/p1/groups.csv" "$T/p2/groups.csv" | head -5)"
/usr/bin/python3 - "$P" "$T/p1/groups.csv" <<'PY' || exit 1
import csv, json, sys
import numpy as np
x = []
for r in ("r1", "r2"):
    t = json.load(open("%s/%s/analysis.json" % (sys.argv[1], r)))["tests"]
    x += [v["ops"]["all"]["mb_s"] for k, v in t.items() if k.startswith("cdm_fob.SEQ1M_Q8T1.read.p") and v.get("pass", 0) >= 1]
x = np.array(x)
assert len(x) == 6, x
g = [r for r in csv.DictReader(open(sys.argv[2])) if r["test"] == "FOB default SEQ1M Q8T1" and r["metric"] == "read_mb_s"]
assert len(g) == 1 and g[0]["n"] == "6", g
for col, want in (("median", np.median(x)), ("mean", x.mean()), ("stddev", x.std(ddof=1))):
    assert abs(float(g[0][col]) - want) < 2e-6, (col, g[0][col], want)
PY
echo ok
