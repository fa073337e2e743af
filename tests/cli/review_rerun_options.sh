#!/bin/sh
# A rerun into an existing review archive with other options (issue 26
# item 22a): without --short over a complete --short run, another method
# (or the same method file changed since), --seed, --passes, --label,
# --include-serial, --engine, another target: refused with exit 2 naming
# each option, for the plan too, and nothing in the archive changes (it
# printed every step "(complete)" and exited 0, as if the other review had
# run). The same options resume and rerun a step (--step) as before.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "review_rerun_options: FAIL: $*" >&2; exit 1; }
cat >"$T/m.json" <<'M'
{"format": "ssdrev-method", "format_version": 1, "name": "rerun-options",
 "settings": {"passes": 2, "measure_s": 0.2, "interval_s": 0, "region_bytes": "16MiB"},
 "short": {"measure_s": 0.1},
 "steps": [
  {"id": "purge", "kind": "purge"},
  {"id": "cdm_a", "kind": "cdm", "cells": ["RND4K Q1T1"]}
 ]}
M
sed 's/"rerun-options"/"other-method"/' "$T/m.json" >"$T/other.json"
M=sim:$ROOT/tests/fuzz/tiny.model
R=$T/rev
"$SSDREV" review "$M" --profile "$T/m.json" --out "$R" --short --label "Lab A" --quiet 2>"$T/e" \
  || fail "first review: $(cat "$T/e")"
sum() { find "$R" -type f ! -name .lock -exec sha256sum {} + | sort; }
sum >"$T/before"
# refused RERUN-OPTIONS WANT: exit 2, WANT in the message, the archive unchanged
refused() {
  want=$1; shift
  for plan in "" --plan; do
    "$SSDREV" review "$@" --out "$R" $plan --quiet >"$T/o" 2>"$T/e"
    rc=$?
    [ $rc = 2 ] || fail "'$* $plan': exit $rc, want 2 ($(cat "$T/e" "$T/o"))"
    grep -qF -- "$want" "$T/e" || fail "'$* $plan': message lacks '$want': $(cat "$T/e")"
    grep -q "was made with other options\|was made on\|was made with --engine" "$T/e" || fail "'$*': message: $(cat "$T/e")"
    grep -q '(complete)' "$T/o" && fail "'$* $plan' printed the steps complete"
    sum | cmp -s - "$T/before" || fail "'$* $plan' changed the archive"
  done
}
refused "no --short (the run was made with it)" "$M" --profile "$T/m.json" --label "Lab A"
refused "--profile '$T/other.json' (method 'other-method'; the run's is 'rerun-options'" "$M" --profile "$T/other.json" --short
refused "--seed 7 (the run's: 1)" "$M" --profile "$T/m.json" --short --seed 7
refused "--passes 3 (the run's: 1)" "$M" --profile "$T/m.json" --short --passes 3
refused "--label 'Lab B' (the run's: 'Lab A')" "$M" --profile "$T/m.json" --short --label "Lab B"
refused "--include-serial (the run was made without it)" "$M" --profile "$T/m.json" --short --include-serial
refused "--engine psync" "$M" --profile "$T/m.json" --short --engine psync
refused "was made on '$M', not 'sim:$ROOT/samples/models/hot-512.model'" "sim:$ROOT/samples/models/hot-512.model" \
  --profile "$T/m.json" --short
# every difference at once, each named
refused "no --short (the run was made with it); --seed 2 (the run's: 1)" "$M" --profile "$T/m.json" --seed 2
# the method file changed since the run began
cp "$T/m.json" "$T/m.orig"
sed 's/"RND4K Q1T1"/"SEQ1M Q8T1"/' "$T/m.orig" >"$T/m.json"
refused ", changed since)" "$M" --profile "$T/m.json" --short
cp "$T/m.orig" "$T/m.json"

# the same options: nothing to do (every step complete), --label may be left out
"$SSDREV" review "$M" --profile "$T/m.json" --out "$R" --short >"$T/o" 2>"$T/e" || fail "same options: $(cat "$T/e")"
grep -q 'cdm_a .*(complete)' "$T/o" || fail "same options: plan $(cat "$T/o")"
sum | cmp -s - "$T/before" || fail "a rerun with the same options changed the archive"
# --step with the same options reruns that step: the simulated drive gives
# the same logs again, so the step's start time (whole seconds) is what
# changes; a second's wait makes it differ
sleep 1
"$SSDREV" review "$M" --profile "$T/m.json" --out "$R" --short --label "Lab A" --step cdm_a >"$T/o" 2>"$T/e" \
  || fail "--step with the same options: $(cat "$T/e")"
grep -q 'cdm_a done' "$T/o" "$T/e" || fail "--step cdm_a: no 'cdm_a done' in $(cat "$T/o" "$T/e")"
sum | cmp -s - "$T/before" && fail "--step cdm_a did not rerun the step"
exit 0
