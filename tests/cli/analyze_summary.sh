#!/bin/sh
# `ssdrev analyze` of a short review prints its summary first (CDM, the
# RW-ratio sweep table, SLC cache, tail latency, flags), not one block per
# test; the sample-count warnings are one counted line, and --verbose lists
# each of them (as many as the line counted) with every test's statistics.
set -u
fail() { echo "analyze_summary: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
"$S" review "sim:$R/samples/models/pm981-256.model" --out "$D/run" --short --quiet >/dev/null 2>"$D/err" \
  || fail "review failed: $(cat "$D/err")"
"$S" analyze "$D/run" >"$D/out" 2>"$D/err" || fail "analyze failed: $(cat "$D/err")"
# the label, the short-review banner and a blank line come before it
sed -n 4p "$D/out" | grep -q "^CDM " || fail "the CDM summary is not first: $(head -5 "$D/out")"
sed -n 2p "$D/out" | grep -q "^SHORT REVIEW" || fail "a short review does not say so: $(head -3 "$D/out")"
grep -q "^RW-ratio sweep" "$D/out" || fail "no RW-ratio sweep table"
grep -A2 "^RW-ratio sweep" "$D/out" | grep -q "QD1 MB/s.*QD1 IOPS.*QD4 IOPS" || fail "sweep table header: $(grep -A1 "^RW-ratio" "$D/out")"
for p in 0 50 100; do grep -q "^ *$p  *[0-9.]*  *[0-9]*  *[0-9.]" "$D/out" || fail "sweep table has no row for $p% reads"; done
grep -q "^QD1 tail latency" "$D/out" && grep -q "^flags:" "$D/out" || fail "tail or flags missing"
grep -q "rests on" "$D/out" && fail "sample-count warnings listed without --verbose"
grep -q "\[cdm\]" "$D/out" && fail "per-test blocks printed without --verbose"
n=$(sed -n 's/^\([0-9][0-9]*\) percentiles* in [0-9]* tests* rests* on fewer than 10 samples.*/\1/p' "$D/out")
[ -n "$n" ] && [ "$n" -gt 0 ] || fail "no counted warning line: $(tail -3 "$D/out")"
lines=$(wc -l <"$D/out")
"$S" analyze "$D/run" --verbose >"$D/verbose" 2>"$D/err" || fail "analyze --verbose failed"
v=$(grep -c "warning: .* rests on " "$D/verbose")
[ "$v" = "$n" ] || fail "--verbose lists $v sample-count warnings, the count line said $n"
grep -q "^cdm_fob.SEQ1M_Q8T1.read.p1 \[cdm\]" "$D/verbose" || fail "--verbose lacks the per-test statistics"
[ "$(wc -l <"$D/verbose")" -gt "$lines" ] || fail "--verbose is not longer than the summary"
exit 0
