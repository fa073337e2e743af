#!/bin/sh
# The method as fio job files, end to end: `ssdrev method export --fio` at a
# reduced size, real fio runs every file on a regular file (buffered), the
# results import into one run whose tests are the method's (CDM cells at FOB
# and 75%, fills, the RW sweep, the tail), and the shipped templates (single
# and two-drive, English and Korean) render every section from it, the fill's
# speed over GiB and over time included: the only "Not measured" notes are the
# DUT summary and the temperature, which fio does not record. Then the fio
# drive beside a CrystalDiskMark drive (FOB + 75% files): what is missing is
# only what CrystalDiskMark does not measure, and only for that drive.
set -u
d=$(mktemp -d /tmp/ssdrev-cli.XXXXXX); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL method_fio: $*"; exit 1; }
R=${SSDREV_ROOT:-.}
command -v fio >/dev/null 2>&1 || { echo "skip: fio not installed"; exit 77; }
"$SSDREV" method export --fio "$d/jobs" --profile "$R/profiles/review.json" --size 64M --runtime 100ms \
  --ios 3000 --passes 2 --buffered --ioengine psync >"$d/exp.out" 2>&1 || fail "export: $(cat "$d/exp.out")"
for f in 02-cdm_fob 03-fill75 04-cdm_75 05-fill_drive 06-rw_sweep 07-tail; do
  [ -s "$d/jobs/$f.fio" ] || fail "no $f.fio"
done
grep -q 'filesize=64m' "$d/jobs/02-cdm_fob.fio" || fail "--size not applied"
grep -q 'direct=0' "$d/jobs/02-cdm_fob.fio" || fail "--buffered not applied"
grep -q '^\[RND4K_Q32T1.write.p2\]' "$d/jobs/04-cdm_75.fio" || fail "CDM cells or passes missing"
grep -q '^offset=75%' "$d/jobs/04-cdm_75.fio" || fail "the 75% region is not at 75%"
grep -q '^size=75%' "$d/jobs/03-fill75.fio" || fail "the prefill is not 75%"
grep -q '^number_ios=3000' "$d/jobs/07-tail.fio" || fail "--ios not applied"
grep -q '04-cdm_75.json:75%' "$d/exp.out" || fail "the import command lacks the 75% state: $(cat "$d/exp.out")"
# the export is the method file's: change the method, the files change
sed 's/"qds": \[1, 2, 4\]/"qds": [1, 8]/' "$R/profiles/review.json" >"$d/m2.json"
"$SSDREV" method export --fio "$d/jobs2" --profile "$d/m2.json" --size 64M >/dev/null 2>&1 || fail "export of an edited method"
grep -q '^\[QD8.R50\]' "$d/jobs2/06-rw_sweep.fio" || fail "an edited method's QDs are not exported"
grep -q '^\[QD2' "$d/jobs2/06-rw_sweep.fio" && fail "a QD the method no longer has is exported"
# the steps beyond the reference review (review-full.json): each has its
# jobs, fio parses every file, and what fio cannot do is said on stderr
"$SSDREV" method export --fio "$d/full" --profile "$R/profiles/review-full.json" --size 64M --runtime 20ms \
  >"$d/full.out" 2>"$d/full.err" || fail "export of review-full: $(cat "$d/full.err")"
for f in "$d/full/"*.fio; do
  SSDREV_TARGET="$d/parse.img" fio --parse-only "$f" >"$d/parse.out" 2>&1 || fail "fio rejects $f: $(cat "$d/parse.out")"
done
q=$(ls "$d/full/"*-qd_scaling.fio) && s=$(ls "$d/full/"*-steady_state.fio) && c=$(ls "$d/full/"*-consistency.fio) \
  && th=$(ls "$d/full/"*-thermal.fio) && cr=$(ls "$d/full/"*-cache_recovery.fio) || fail "a step's job file is missing"
[ "$(grep -c '^\[\(read\|write\)\.QD[0-9]*\]' "$q")" = 16 ] || fail "qd_scaling: not 2 workloads x 8 QDs"
grep -A12 '^\[write\.QD128\]' "$q" | grep -q '^iodepth=128' || fail "qd_scaling: QD128 job's iodepth"
grep -A12 '^\[read\.QD4\]' "$q" | grep -q '^rw=randread' || fail "qd_scaling: the read job"
[ "$(grep -c '^\[r[0-9][0-9]\]' "$s")" = 25 ] || fail "steady_state: not rounds_max (25) rounds"
grep -A12 '^\[r25\]' "$s" | grep -q '^runtime=20ms' || fail "steady_state: a round is not time-based"
grep -q '^\[prepare1\]' "$c" && grep -A12 '^\[write\]' "$c" | grep -q '^time_based=1' || fail "consistency: prepare + write"
grep -q 'consistency.fio' "$d/full/run.sh" && grep -B1 'consistency.fio' "$d/full/run.sh" | grep -q blkdiscard \
  || fail "consistency's purge is not in run.sh"
grep -q '^\[prepare2\]' "$s" && grep -B1 'steady_state.fio' "$d/full/run.sh" | grep -q blkdiscard \
  || fail "steady_state: the PTS preparation (purge, two passes)"
grep -A12 '^\[write\]' "$th" | grep -q '^startdelay=120' || fail "thermal: the idle before the write"
grep -q 'no temperature' "$th" || fail "thermal: the missing temperature not said"
[ "$(grep -c '^startdelay=' "$cr")" = 5 ] && grep -q '^startdelay=600' "$cr" || fail "cache_recovery: the writes after idles"
grep -q 'approximated' "$cr" || fail "cache_recovery: the approximation not said in the file"
for st in cache_recovery steady_state thermal; do
  grep -q "note: step '$st'" "$d/full.err" || fail "no note on stderr for $st: $(cat "$d/full.err")"
done
# they come back: QD-scaling points as qd_scaling, the rest (idles cut to 0
# here) as plain jobs, none of them a fill
for f in "$q" "$s" "$c" "$th" "$cr"; do
  sed 's/^startdelay=.*/startdelay=0/' "$f" >"$f.0" && mv "$f.0" "$f"
  (cd "$d/full" && SSDREV_TARGET="$d/full.img" fio --output-format=json+ --output="$(basename "$f" .fio).json" "$f") \
    >"$d/full-fio.out" 2>&1 || fail "fio $f: $(tail -3 "$d/full-fio.out")"
done
(cd "$d/full" && "$SSDREV" import fio ./*-qd_scaling.json ./*-steady_state.json ./*-consistency.json ./*-thermal.json \
  ./*-cache_recovery.json --out "$d/fullrun") >"$d/fimp.out" 2>&1 || fail "import of the new steps: $(cat "$d/fimp.out")"
/usr/bin/python3 - "$d/fullrun" <<'PY' || exit 1
import json, sys, collections
m = json.load(open(sys.argv[1] + "/manifest.json"))
k = collections.Counter(t["kind"] for t in m["tests"])
# prepare1 of consistency and the steady state's prepare1 and prepare2 (the
# PTS preconditioning) are whole-target sequential writes: fills
want = {"qd_scaling": 16, "job": 25 + 1 + 1 + 5, "fill_drive": 3}
if dict(k) != want: sys.exit("kinds %s, want %s" % (dict(k), want))
pts = sorted((t["workload"], t["qd"]) for t in m["tests"] if t["kind"] == "qd_scaling")
if pts[0] != ("read", 1) or pts[-1] != ("write", 128): sys.exit("qd points %s" % pts)
PY
SSDREV_TARGET="$d/target.img" sh "$d/jobs/run.sh" >"$d/fio.out" 2>&1 || fail "run.sh: $(tail -5 "$d/fio.out")"
cd "$d/jobs" || exit 1
"$SSDREV" import fio 02-cdm_fob.json:FOB 03-fill75.json 04-cdm_75.json:75% 05-fill_drive.json 06-rw_sweep.json \
  07-tail.json --out "$d/run" --label "fio drive" >"$d/imp.out" 2>"$d/imp.err" || fail "import: $(cat "$d/imp.err")"
# fio names no drive; --model / --firmware give the DUT table its model and
# firmware, and one note names the fields still missing
"$SSDREV" import fio 07-tail.json --out "$d/named" --model "TEST MODEL 64M" --firmware FW1 >/dev/null 2>&1 \
  || fail "import with --model"
cd "$d" || exit 1
printf '# x\n\n{{dut}}\n' >"$d/dut.md"
"$SSDREV" report -t "$d/dut.md" -o "$d/dut" --format md "$d/named" >/dev/null 2>&1 || fail "dut report"
for want in '^| TEST MODEL 64M \[named\] |' '^| Firmware | FW1 |' '^\*Not in the source data: Link, NVMe Version, LBA Size'; do
  grep -q "$want" "$d/dut/review.md" || fail "the DUT table of a named fio import: $(cat "$d/dut/review.md")"
done
/usr/bin/python3 - "$d/run" <<'PY' || exit 1
import json, sys, collections
m = json.load(open(sys.argv[1] + "/manifest.json"))
k = collections.Counter(t["kind"] for t in m["tests"])
want = {"cdm": 32, "rw_sweep": 33, "tail": 3, "prefill": 3, "fill_drive": 2}
if dict(k) != want: sys.exit("kinds %s, want %s" % (dict(k), want))
cells = {(t["state"], t["cell"], t["op"]) for t in m["tests"] if t["kind"] == "cdm"}
if len(cells) != 16 or ("75%", "RND4K Q32T1", "write") not in cells: sys.exit("cells %s" % sorted(cells))
if sorted(t["workload"] for t in m["tests"] if t["kind"] == "tail") != ["mix70", "read", "write"]: sys.exit("tail")
if sorted(t["phase"] for t in m["tests"] if t["kind"] == "fill_drive") != ["empty", "near_full"]: sys.exit("fill")
# the source's own clock: fio's JSON timestamp, not the import's
for t in m["tests"]:
    if t.get("time_source") != "imported" or t["start"] > t["end"]: sys.exit("times of %s" % t["name"])
if not all(t.get("latency") == "lat" for t in m["tests"]): sys.exit("latency kind not recorded")
PY
"$SSDREV" analyze "$d/run" >"$d/an.out" 2>&1 || fail "analyze: $(cat "$d/an.out")"
/usr/bin/python3 - "$d/run" <<'PY' || exit 1
import json, sys
a = json.load(open(sys.argv[1] + "/analysis.json"))
if {r["state"] for r in a["cdm"]} != {"FOB", "75%"} or len(a["cdm"]) != 8: sys.exit("cdm %s" % a["cdm"])
if not all(r["read"]["passes"] == 2 for r in a["cdm"]): sys.exit("passes not folded")
if [g["qd"] for g in a["rw_sweep"]] != [1, 2, 4] or len(a["rw_sweep"][0]["points"]) != 11: sys.exit("sweep")
if sorted(a["tail"]) != ["mix70", "read", "write"]: sys.exit("tail %s" % sorted(a["tail"]))
# a 64 MiB fill: 16 per-GiB points of 4 MiB (size=100% is the whole file,
# not 100 bytes), its speed over time at 1 ms (it lasts milliseconds)
f = a["fill"]
if len(f["per_gib"]["gib"]) != 16 or len(f["trace"]["gib"]) != 16: sys.exit("fill trace %s" % f["per_gib"])
if len(f["per_sec"]["t_s"]) < 2 or f["per_sec"]["mb_s"][1] <= 0: sys.exit("fill per_sec %s" % f["per_sec"])
if a["jobs"]: sys.exit("jobs left unmapped: %s" % [j["test"] for j in a["jobs"]])
PY
for t in single.en review.en single.ko review.ko; do
  [ -f "$R/templates/$t.md" ] || continue
  case $t in review*) runs="$d/run $d/run" ;; *) runs="$d/run" ;; esac
  # shellcheck disable=SC2086
  "$SSDREV" report -t "$R/templates/$t.md" -o "$d/$t" $runs >"$d/$t.log" 2>&1 || fail "report $t: $(cat "$d/$t.log")"
  grep -q '{{' "$d/$t/review.md" && fail "$t: a directive was left unexpanded"
  # notes (a line of their own); an inline value of a figure the data has not
  # (a 64 MiB fio fill shows no SLC cache) reads "n/a" / "(측정되지 않음)"
  n=$(grep -c '^\*\(Not measured\|측정하지 않\|측정되지 않\)' "$d/$t/review.md")
  # absent from fio's results, and only these: the DUT (fio's output names
  # no drive: no model, firmware or link; --model / --dut-json give them)
  # and the drive's temperature (fio samples none). The fill's speed over
  # time is there: a 64 MiB fill lasts milliseconds, its series is at 1 ms.
  dut=$(grep -c '^\*Not measured.*\(DUT summary\|temperature samples\)\|측정되지 않.*\(DUT 정보\|온도 기록\)' "$d/$t/review.md")
  [ "$n" = "$dut" ] || fail "$t: sections not filled: $(grep 'Not measured\|측정하지 않' "$d/$t/review.md")"
  grep -q 'RND4K Q32T1' "$d/$t/review.md" || fail "$t: no CDM table"
  grep -q '99.99' "$d/$t/review.md" || fail "$t: no tail table"
  for c in fill fill_time fill_latency tail; do
    [ -s "$d/$t/charts/$c.png" ] || fail "$t: no $c chart"
  done
  for c in "$d/$t/charts/cdm-75"*.png "$d/$t/charts/rw_ratio"*.png; do
    [ -s "$c" ] || fail "$t: no 75% CrystalDiskMark panel or RW-ratio chart ($c)"
  done
  case $t in *.ko) grep -q "Not measured\|not measured\|| n/a |\|' has no " "$d/$t/review.md" && fail "$t: English notes in a Korean page" ;; esac
  pdftotext "$d/$t/review.pdf" - >/dev/null 2>&1 || fail "$t: PDF unreadable"
done
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt:FOB" "$R/samples/cdm/pm981-75pct-cdm8-mix.txt:75%" \
  --out "$d/cdm" --label "CDM drive" >"$d/cdm.out" 2>&1 || fail "cdm import: $(cat "$d/cdm.out")"
for t in review.en review.ko; do
  "$SSDREV" report -t "$R/templates/$t.md" -o "$d/mix-$t" "$d/run" "$d/cdm" >"$d/mix-$t.log" 2>&1 \
    || fail "report $t, fio + cdm: $(cat "$d/mix-$t.log")"
  md=$d/mix-$t/review.md
  grep -q '{{' "$md" && fail "mix $t: a directive was left unexpanded"
  grep 'Not measured\|측정하지 않\|측정되지 않음:' "$md" | grep -v "CDM drive\|DUT summary\|DUT 정보\|temperature samples\|온도 기록" >"$d/nm" && \
    fail "mix $t: the fio drive's sections not filled: $(cat "$d/nm")"
  grep -q "run 'CDM drive' has no .*fill\|run 'CDM drive' has no .*tail\|'CDM drive'에 \(드라이브 채우기\|꼬리 지연시간\)" "$md" \
    || fail "mix $t: the CDM drive's missing data not noted"
  # the fio drive keeps its fill chart, SLC row and tail table beside a drive without them
  for c in fill fill_time fill_latency; do
    [ -s "$d/mix-$t/charts/$c.png" ] || fail "mix $t: the fio drive's $c chart dropped"
  done
  case $t in *.ko) grep -q "Not measured\|not measured\|| n/a |\|' has no " "$md" && fail "mix $t: English notes in a Korean page" ;; esac
  grep -q '^| 99.99% | (\{0,1\}[0-9]' "$md" || fail "mix $t: the fio drive's tail table dropped"
  grep -q '^| fio drive | ' "$md" || fail "mix $t: the fio drive's SLC row dropped"
  # the CDM drive's FOB table: its file's values, MB/s to 2 decimals as every table
  grep -q '| RND4K Q1T1 | 47.62 | 166.02 | 11625.2 | 40532.5 | 85.82 | 24.55 |' "$md" \
    || fail "mix $t: CDM drive's table: $(grep 'RND4K Q1T1' "$md")"
done
exit 0
