#!/bin/sh
# `ssdrev review --short` on the PM981 sim: the plan with an estimate comes
# first, every step completes, the archive holds the DUT of the model, the
# exact method, logs of every kind and the CDM-style summary; a step marked
# interrupted in the manifest is the only one a rerun runs (resume). The
# simulated drive's state is kept while a step is left to run, and removed
# once the review is complete; `--plan --create-size` creates no file.
set -u
fail() { echo "review_sim_short: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

out=$("$S" review "sim:$R/samples/models/pm981-256.model" --profile "$R/profiles/review.json" \
      --out "$D/run" --short --label "PM981 256GB" --seed 5 2>"$D/err") || fail "review failed: $(cat "$D/err")"
echo "$out" | head -1 | grep -q "^method 'review'" || fail "plan not printed first: $out"
echo "$out" | grep -q "estimated total" || fail "no estimated total in the plan"
echo "$out" | grep -q "FOB  RND4K Q32T1    read" || fail "no CDM summary: $out"
grep -q "\[7/7\] tail done" "$D/err" || fail "no per-step progress lines: $(cat "$D/err")"
grep -q "warning: tail.read: p99.999" "$D/err" || fail "short tail run not warned about p99.999"
M="$D/run/manifest.json"
for s in purge cdm_fob fill75 cdm_75 fill_drive rw_sweep tail; do
  grep -q "\"$s\": \"complete\"" "$M" || fail "step $s not complete"
done
grep -q '"simulated": true' "$M" || fail "sim run not marked simulated"
grep -q '"model": "SAMSUNG MZVLB256HAHQ-000L7"' "$M" || fail "sim model DUT missing"
grep -q '"format": "ssdrev-method"' "$M" || fail "method file not recorded"
for k in cdm prefill fill_drive rw_sweep tail temperature; do
  grep -q "\"kind\": \"$k\"" "$M" || fail "no test of kind $k"
done
[ -s "$D/run/logs/cdm_fob.SEQ1M_Q8T1.read.p1.ssdlog" ] || fail "CDM pass log missing"
[ -s "$D/run/logs/fill_drive.empty.ssdlog" ] || fail "fill log missing"
[ -e "$D/run/sim-state.bin" ] && fail "a finished review kept its simulated drive state"
"$S" review "sim:$R/samples/models/pm981-256.model" --out "$D/part" --short --step purge --quiet >/dev/null 2>"$D/err" \
  || fail "review --step purge failed: $(cat "$D/err")"
[ -s "$D/part/sim-state.bin" ] || fail "an unfinished review has no sim state to resume from"
out=$("$S" review "$D/file.img" --create-size 64M --short --plan 2>"$D/err") || fail "--plan --create-size failed: $(cat "$D/err")"
echo "$out" | grep -q "0.1 GB" || fail "the plan is not sized by --create-size: $out"
[ -e "$D/file.img" ] && fail "review --plan --create-size created the file"

# a short review looks like a trial: it works in a 2 GiB region as if that
# were the drive (75% is 75% of it) and every output says it is short
out=$("$S" review "sim:$R/samples/models/pm981-256.model" --short --plan 2>"$D/err") || fail "--plan failed: $(cat "$D/err")"
echo "$out" | grep -q "short mode works in the first 2.1 GB" || fail "plan does not say the region: $out"
/usr/bin/python3 - "$M" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))
if m["short"]["region_bytes"] != 2 << 30: sys.exit("manifest short: %s" % m.get("short"))
t = {x["name"]: x for x in m["tests"]}
span = t["fill75.fill"]["params"]["span_bytes"]
if abs(span / m["short"]["region_bytes"] - 0.75) > 0.001: sys.exit("the 75%% fill is %.4f of the region" % (span / m["short"]["region_bytes"]))
if t["tail.read"]["params"]["span_bytes"] > m["short"]["region_bytes"]: sys.exit("tail reads beyond the written region")
PY
"$S" analyze "$D/run" >"$D/an" 2>&1 || fail "analyze: $(cat "$D/an")"
sed -n 2p "$D/an" | grep -q "^SHORT REVIEW (--short)" || fail "analyze does not say short: $(head -3 "$D/an")"
"$S" report -t "$R/templates/single.en.md" -o "$D/rep" --dpi 50 "$D/run" >"$D/rep.log" 2>&1 || fail "report: $(cat "$D/rep.log")"
grep -q "Short review:.*--short. trial run" "$D/rep/review.md" || fail "report does not say short"
grep -q '(.*µs)³' "$D/rep/review.md" || fail "tail percentiles beyond 5,000 I/Os not marked"
pdftotext "$D/rep/review.pdf" - | grep -c "Short review (--short)" >"$D/n"
pages=$(pdfinfo "$D/rep/review.pdf" | sed -n 's/^Pages: *//p')
[ "$(cat "$D/n")" = "$pages" ] || fail "$(cat "$D/n") of $pages PDF pages say short"

# resume: pretend the tail step was interrupted; only it reruns (with the
# options the run was made with: others are refused, review_rerun_options.sh)
sed 's/"tail": "complete"/"tail": "interrupted"/' "$M" > "$M.x" && mv "$M.x" "$M"
"$S" review "sim:$R/samples/models/pm981-256.model" --out "$D/run" --short --seed 5 >/dev/null 2>"$D/err2" \
  || fail "resume failed: $(cat "$D/err2")"
grep -q '"tail": "complete"' "$M" || fail "tail not complete after resume"
# the resumed step keeps its number in the method, not [1/1]
grep -q "^\[7/7\] tail done" "$D/err2" || fail "resumed step renumbered: $(cat "$D/err2")"
n=$(grep -c '"log": "logs/tail.read.ssdlog"' "$M")
[ "$n" = 1 ] || fail "resume duplicated tail.read ($n entries)"
out=$("$S" review "sim:$R/samples/models/pm981-256.model" --out "$D/run" --short --seed 5 --plan) || fail "plan of a finished run failed"
echo "$out" | grep -q "(complete)" || fail "plan does not mark complete steps: $out"
exit 0
