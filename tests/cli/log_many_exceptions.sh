#!/bin/sh
# Regression: a QD1 70/30 mix on the simulated PM981 makes chunks in which most
# submit-time deltas are PFOR exceptions; the encoder once overflowed its
# scratch buffer there (heap-buffer-overflow in log_col_encode).
set -e
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
"$SSDREV" run sim:"$SSDREV_ROOT"/samples/models/pm981-256.model --out "$d/run" --rw randrw \
  --rwmixread 70 --iodepth 1 --runtime 60s --span 1g --seed 1 --quiet > "$d/out.txt"
ios=$(sed -n 's/.*ios=\([0-9]*\).*/\1/p' "$d/out.txt")
recs=$("$SSDREV" log info "$d/run/logs/job.ssdlog" | sed -n 's/^records *//p')
[ -n "$ios" ] && [ "$ios" -gt 1000000 ] || { echo "expected over a million I/Os, got '$ios'"; exit 1; }
[ "$recs" = "$ios" ] || { echo "log holds $recs records, run made $ios I/Os"; exit 1; }
"$SSDREV" log dump "$d/run/logs/job.ssdlog" --csv --limit 3 | grep -q '^"submit_ns"' || { echo "dump failed"; exit 1; }
