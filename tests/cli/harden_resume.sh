#!/bin/sh
# Crash safety of `ssdrev review`: SIGKILL after a step completed, then the
# same command resumes: complete steps are not rerun, the rest run, every
# test ends "complete", the archive analyzes, and no temporary file of the
# killed process (*.tmp.*) is left in the archive afterwards.
# A small method on tests/fuzz/tiny.model keeps it to a few seconds.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
T=$(mktemp -d) || exit 1
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "harden_resume: FAIL: $*" >&2; exit 1; }
cat >"$T/m.json" <<'M'
{"format": "ssdrev-method", "format_version": 1, "name": "harden-resume",
 "settings": {"passes": 3, "measure_s": 3, "interval_s": 0.1, "region_bytes": "16MiB"},
 "steps": [
  {"id": "purge", "kind": "purge"},
  {"id": "cdm_a", "kind": "cdm", "cells": ["SEQ1M Q8T1", "RND4K Q32T1"]},
  {"id": "cdm_b", "kind": "cdm", "cells": ["SEQ1M Q8T1", "RND4K Q32T1"]},
  {"id": "sweep", "kind": "rw_sweep", "qds": [1, 2], "read_pct_step": 50, "measure_s": 0.2, "ramp_s": 0}
 ]}
M
R="$T/rev"
set -- review "sim:$ROOT/tests/fuzz/tiny.model" --profile "$T/m.json" --out "$R" --quiet
"$SSDREV" "$@" >"$T/1.out" 2>"$T/1.err" &
PID=$!
i=0
until grep -q '"cdm_a": "complete"' "$R/manifest.json" 2>/dev/null; do
  kill -0 "$PID" 2>/dev/null || fail "review ended before cdm_a completed: $(cat "$T/1.err")"
  i=$((i+1)); [ $i -gt 3000 ] && fail "cdm_a did not complete in 60 s"
  sleep 0.02
done
kill -9 "$PID"; wait "$PID" 2>/dev/null; PID=""
grep -q '"sweep": "complete"' "$R/manifest.json" && fail "the review finished before the kill: cannot test resume"
ntests_a=$(grep -c '"step": "cdm_a"' "$R/manifest.json")
[ "$ntests_a" -gt 0 ] || fail "no cdm_a tests in the killed archive"

"$SSDREV" "$@" >"$T/2.out" 2>"$T/2.err" || fail "resume failed: $(cat "$T/2.err")"
for s in purge cdm_a cdm_b sweep; do
  grep -q "\"$s\": \"complete\"" "$R/manifest.json" || fail "step $s not complete after resume"
done
[ "$(grep -c '"step": "cdm_a"' "$R/manifest.json")" -eq "$ntests_a" ] || fail "the complete step cdm_a was rerun"
grep -q '"status": "running"\|"status": "interrupted"' "$R/manifest.json" && fail "a test is still running/interrupted after resume"
"$SSDREV" analyze "$R" --quiet 2>"$T/a.err" || fail "the resumed archive does not analyze: $(cat "$T/a.err")"
left=$(find "$R" -name '*.tmp.*')
[ -z "$left" ] || fail "temporary files of the killed run left in the archive after resume: $left"
exit 0
