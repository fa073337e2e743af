#!/bin/sh
# `ssdrev log info` on a synthetic log: text and JSON golden values, --help,
# usage errors (exit 2) naming the option.
set -u
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
"$SSDREV" log synth s.ssdlog --records 20000 --seed 7 || fail "synth"
"$SSDREV" log info s.ssdlog > info.txt || fail "info exit $?"
for want in "version          1" "clock source     virtual" "chunks           3" \
    "records          20000" "ops              read 20000, write 0, trim 0, flush 0" \
    "ramp records     1000" "error records    0" "status           ok" \
    "start            2026-01-01T00:00:00Z (1767225600000000007 ns)"; do
  grep -qF "$want" info.txt || fail "info lacks '$want'"; done
size=$(wc -c < s.ssdlog | tr -d ' ')
grep -qF "bytes            $size" info.txt || fail "info bytes != file size $size"
"$SSDREV" log info s.ssdlog --json > info.json || fail "info --json"
/usr/bin/python3 - "$size" <<'PY' || fail "json check"
import json, sys
j = json.load(open("info.json"))
size = int(sys.argv[1])
assert j["records"] == 20000 and j["chunks"] == 3 and j["file_bytes"] == size, j
assert j["params"]["qd"] == 32 and j["clock_source"] == "virtual", j["params"]
assert j["ops"] == {"read": 20000, "write": 0, "trim": 0, "flush": 0}, j["ops"]
cols = j["column_bytes"]
assert set(cols) == {"submit_ns", "lat_ns", "offset_bytes", "len_bytes", "status", "queue_id", "op", "flags"}
# every byte is accounted for: file header + chunk headers + columns
assert sum(cols.values()) + j["chunk_header_bytes"] < size
assert abs(j["bytes_per_record"] - size / 20000) < 1e-3
assert j["bytes_per_record"] <= 6.0, j["bytes_per_record"]
assert j["truncated"] is False and j["skipped_chunks"] == 0
PY
"$SSDREV" log --help | grep -q "ssdrev log info FILE" || fail "--help"
"$SSDREV" log info s.ssdlog --frobnicate 2> err.txt; rc=$?
[ $rc = 2 ] || fail "bad option exit $rc"
grep -q "ssdrev log: error: .*--frobnicate" err.txt || fail "bad option message: $(cat err.txt)"
"$SSDREV" log 2>/dev/null; [ $? = 2 ] || fail "no subcommand should exit 2"
"$SSDREV" log info missing.ssdlog 2> err.txt; rc=$?
[ $rc = 1 ] || fail "missing file exit $rc"
grep -q "cannot open I/O log 'missing.ssdlog'" err.txt || fail "missing file message: $(cat err.txt)"
echo "not a log at all, just some text here" > junk.txt
"$SSDREV" log info junk.txt 2> err.txt; [ $? = 1 ] || fail "junk should exit 1"
grep -q "not an ssdrev I/O log" err.txt || fail "junk message: $(cat err.txt)"
exit 0
