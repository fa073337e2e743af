#!/bin/sh
# A flipped bit: `log info`/`log dump` fail naming the file and byte offset
# (exit 1); with --salvage they skip that chunk, warn, and exit 0.
set -u
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cd "$T" || exit 1
"$SSDREV" log synth s.ssdlog --records 20000 --seed 5 || fail "synth"
# the second chunk's offset, from a dump of chunk offsets via info of a 1-chunk prefix
off=$(/usr/bin/python3 - <<'PY'
import struct
d = open("s.ssdlog", "rb").read()
plen = struct.unpack_from("<I", d, 24)[0]
o = 28 + plen + 4
o += 116 + struct.unpack_from("<I", d, o + 4)[0]   # skip chunk 0
assert d[o:o + 4] == b"SRCK"
b = bytearray(d); b[o + 116 + 5000] ^= 0x10       # a payload bit of chunk 1
open("bad.ssdlog", "wb").write(b)
print(o)
PY
) || fail "python"
"$SSDREV" log info bad.ssdlog > /dev/null 2> err.txt; rc=$?
[ $rc = 1 ] || fail "corrupt info exit $rc"
grep -q "corrupt chunk in 'bad.ssdlog' at byte $off: .*CRC32C mismatch" err.txt || fail "message: $(cat err.txt)"
"$SSDREV" log dump bad.ssdlog --csv > /dev/null 2> err.txt; [ $? = 1 ] || fail "corrupt dump should exit 1"
grep -q "at byte $off" err.txt || fail "dump message: $(cat err.txt)"
"$SSDREV" log info bad.ssdlog --salvage --json > s.json 2> err.txt || fail "salvage exit $?"
grep -q "skipped 1 corrupt chunk(s) in 'bad.ssdlog' (8192 records)" err.txt || fail "salvage warning: $(cat err.txt)"
/usr/bin/python3 -c '
import json; j = json.load(open("s.json"))
assert j["records"] == 20000 - 8192 and j["skipped_chunks"] == 1 and j["skipped_records"] == 8192, j' \
  || fail "salvage counts"
"$SSDREV" log dump bad.ssdlog --salvage --csv 2>/dev/null | wc -l | grep -qx " *11809" || fail "salvage dump rows"
exit 0
