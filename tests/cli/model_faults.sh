#!/bin/sh
# Fault injection end to end: a model with a bad LBA range makes `ssdrev run`
# on sim:MODEL log I/O errors (status -EIO) for reads of that range only,
# and the run reports them; --max-errors stops the job.
set -u
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
fail() { echo "model_faults: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
M=${SSDREV_ROOT:-.}/samples/models/pm981-256.model
# LBAs 2048..4095 (1..2 MiB) are unreadable
sed -e 's/^bad_lba_start = .*/bad_lba_start = 2048/' -e 's/^bad_lba_count = .*/bad_lba_count = 2048/' "$M" >"$D/bad.model"
"$S" run "sim:$D/bad.model" --out "$D/r" --rw randread --bs 4k --iodepth 4 --span 4M --runtime 20ms --seed 3 \
  --quiet >"$D/out.txt" 2>&1 || fail "run failed: $(cat "$D/out.txt")"
"$S" log dump "$D/r/logs/job.ssdlog" --csv >"$D/dump.csv" 2>"$D/dump.err" || fail "log dump failed: $(cat "$D/dump.err")"
python3 - "$D/r/manifest.json" "$D/dump.csv" <<'PY' || fail "errors not reported as expected"
import csv, json, sys
m = json.load(open(sys.argv[1]))
r = m["tests"][0]["result"]
assert m["simulated"] is True
assert r["ios"] > 100 and 0 < r["errors"] < r["ios"], r
rows = list(csv.DictReader(open(sys.argv[2])))
bad = [x for x in rows if int(x["status"]) != 0]
assert bad, "no failed record in the log"
for x in rows:
    inside = 1 << 20 <= int(x["offset_bytes"]) < 2 << 20
    # exactly the reads of the bad range fail, with -EIO (-5)
    assert (int(x["status"]) == -5) == inside, x
PY
"$S" run "sim:$D/bad.model" --out "$D/r2" --rw randread --bs 4k --iodepth 1 --span 4M --runtime 1s --seed 3 \
  --max-errors 5 --quiet >"$D/out2.txt" 2>&1
python3 - "$D/r2/manifest.json" <<'PY' || fail "--max-errors did not stop the job"
import json, sys
r = json.load(open(sys.argv[1]))["tests"][0]["result"]
assert 5 <= r["errors"] <= 6, r
PY
exit 0
