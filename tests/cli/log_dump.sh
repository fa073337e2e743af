#!/bin/sh
# `ssdrev log dump`: text and CSV (libcsv) output agree with each other and
# with `log info`; --limit; a truncated tail warns and exits 0.
set -u
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
"$SSDREV" log synth s.ssdlog --records 10000 --seed 3 || fail "synth"
"$SSDREV" log dump s.ssdlog --csv > all.csv || fail "dump --csv exit $?"
head -n 1 all.csv | grep -qx '"submit_ns","lat_ns","offset_bytes","len_bytes","op","status","queue_id","ramp"' \
  || fail "csv header: $(head -n 1 all.csv)"
[ "$(wc -l < all.csv | tr -d ' ')" = 10001 ] || fail "csv rows"
/usr/bin/python3 <<'PY' || fail "csv content"
import csv
rows = list(csv.DictReader(open("all.csv")))
assert len(rows) == 10000
assert all(r["op"] == "read" and r["len_bytes"] == "4096" and r["status"] == "0" for r in rows)
assert sum(r["ramp"] == "1" for r in rows) == 500
assert all(int(r["offset_bytes"]) % 4096 == 0 and int(r["offset_bytes"]) < 1 << 30 for r in rows)
lat = [int(r["lat_ns"]) for r in rows]
assert min(lat) >= 50000 and max(lat) < 6000000, (min(lat), max(lat))
PY
"$SSDREV" log dump s.ssdlog --limit 5 > five.txt || fail "dump text"
[ "$(wc -l < five.txt | tr -d ' ')" = 6 ] || fail "--limit 5 gave $(wc -l < five.txt) lines"
head -n 1 five.txt | grep -q "submit_ns *lat_ns *offset_bytes" || fail "text header"
# the same records in both forms
sed -n 2,6p all.csv | awk -F, '{ print $1, $2, $3 }' > a.txt
sed -n 2,6p five.txt | awk '{ print $1, $2, $3 }' > b.txt
cmp -s a.txt b.txt || fail "text and CSV dumps differ"
# a crash: cut the file in the middle of its last chunk
size=$(wc -c < s.ssdlog | tr -d ' ')
head -c $((size - 100)) s.ssdlog > cut.ssdlog
"$SSDREV" log dump cut.ssdlog --csv > cut.csv 2> err.txt; rc=$?
[ $rc = 0 ] || fail "truncated dump exit $rc"
grep -q "warning: 'cut.ssdlog' ends inside a chunk at byte [0-9]*.*; 8192 records recovered" err.txt \
  || fail "truncation warning: $(cat err.txt)"
[ "$(wc -l < cut.csv | tr -d ' ')" = 8193 ] || fail "truncated dump rows"
"$SSDREV" log info cut.ssdlog 2>/dev/null | grep -q "status           truncated at byte" || fail "info truncated"
"$SSDREV" log dump s.ssdlog --limit x 2> err.txt; [ $? = 2 ] || fail "bad --limit should exit 2"
grep -q -- "--limit" err.txt || fail "bad --limit message"
exit 0
