#!/bin/sh
# ssdrev model list / show: shipped models listed, derived figures printed
# (text and JSON), and model-file errors reported with file:line, exit 1;
# bad usage exits 2.
set -u
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
fail() { echo "model_show: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
M=$R/samples/models/pm981-256.model

"$S" model --help >"$D/help.txt" || fail "--help did not exit 0"
grep -q 'usage: ssdrev model' "$D/help.txt" || fail "--help has no usage line"

"$S" model list "$R/samples/models" >"$D/list.txt" || fail "list failed"
for m in pm981-256 pm981a-256 generic-1tb static-512; do
  grep -q "^$m " "$D/list.txt" || fail "list lacks $m: $(cat "$D/list.txt")"
done

"$S" model show "$M" >"$D/show.txt" || fail "show failed"
grep -q 'raw die-parallel 4K read ceiling' "$D/show.txt" || fail "show lacks the read ceiling"
grep -q 'SLC cache max / min  *11.0 / 2.0 GiB' "$D/show.txt" || fail "show lacks SLC 11/2 GiB: $(cat "$D/show.txt")"

"$S" model show "$M" --json >"$D/show.json" || fail "show --json failed"
python3 - "$D/show.json" <<'PY' || fail "show --json content wrong"
import json, sys
o = json.load(open(sys.argv[1]))
d = o["derived"]
assert o["simulated"] is True and o["name"] == "pm981-256", o["name"]
assert o["nand"]["dies"] == 8 and o["nand"]["channel_mt_s"] == 800
assert 300 < d["raw_read_mb_s"] < 600, d["raw_read_mb_s"]
assert d["slc_max_bytes"] == 11 * 2**30 and d["slc_min_bytes"] == 2 * 2**30
assert 300 < d["post_cache_mb_s"] < 900, d["post_cache_mb_s"]
assert o["dut"]["firmware"] == "1L2QEXD7" and len(o["dut"]["power_states"]) == 5
PY

# a model-file error names file and line, exit 1
sed 's/^fold_mb_s = .*/fold_mb_z = 450/' "$M" >"$D/broken.model"
line=$(grep -n '^fold_mb_z' "$D/broken.model" | cut -d: -f1)
"$S" model show "$D/broken.model" >/dev/null 2>"$D/err.txt"; rc=$?
[ $rc -eq 1 ] || fail "broken model: exit $rc, want 1"
grep -q "unknown key 'fold_mb_z' at broken.model:$line" "$D/err.txt" || fail "error lacks file:line: $(cat "$D/err.txt")"

"$S" model show "$M" --bogus >/dev/null 2>"$D/err2.txt"; rc=$?
[ $rc -eq 2 ] || fail "bad option: exit $rc, want 2"
grep -q "ssdrev model: error: unknown option '--bogus'" "$D/err2.txt" || fail "bad option message: $(cat "$D/err2.txt")"
"$S" model >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "no subcommand: exit $rc, want 2"
exit 0
