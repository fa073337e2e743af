#!/bin/sh
# Regressions for bugs found by the hardening work (see docs/hardening.md):
#  1. `ssdrev compare EMPTY_DIR` passed NULL to qsort (render/compare/compare.c,
#     UBSan "null pointer passed as argument 1"); it must say there are no
#     run archives and exit 1.
#  2. `ssdrev dut ... --json` and `ssdrev model show` exited 0 when stdout
#     could not be written (/dev/full): a lost output must be an error.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "harden_regress: FAIL: $*" >&2; exit 1; }

mkdir "$T/empty"
"$SSDREV" compare "$T/empty" --out "$T/o" >/dev/null 2>"$T/err"
rc=$?
grep -q 'runtime error\|AddressSanitizer' "$T/err" && fail "compare of an empty directory: sanitizer report: $(head -n 3 "$T/err")"
[ $rc -eq 1 ] || fail "compare of an empty directory: exit $rc, expected 1"
grep -q "no run archives" "$T/err" || fail "compare of an empty directory: $(cat "$T/err")"

"$SSDREV" dut --id-ctrl "$ROOT/samples/dut/pm981-256.id-ctrl.json" --json >/dev/full 2>"$T/err" \
  && fail "dut --json to a full stdout exited 0"
grep -q "^ssdrev dut: error:" "$T/err" || fail "dut --json to a full stdout: no error message"
"$SSDREV" model show "$ROOT/samples/models/pm981-256.model" >/dev/full 2>"$T/err" \
  && fail "model show to a full stdout exited 0"
grep -q "^ssdrev model: error:" "$T/err" || fail "model show to a full stdout: no error message"
exit 0
