#!/bin/sh
# A drive without an SLC cache (issue 24): the PM981 model with its cache
# keys removed (no dynamic part, no static part), 119 GiB and no GC, so its
# fill is TLC writing at one speed after the 16 MiB DRAM write buffer's head
# at link speed. The fill reports no cache (the head is never one), one
# level at the TLC speed; docs/flags.md "SLC estimate", rule 4.
set -u
fail() { echo "review_nocache: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM

sed -e 's/^capacity_bytes = .*/capacity_bytes = 128035676160/' -e '/^slc_max_gib/d' \
    -e 's/^slc_min_gib = .*/slc_min_gib = 0\nslc_static_only = 1/' -e 's/^write_buffer_bytes = .*/write_buffer_bytes = 16MiB/' \
    -e 's/^gc_steps_per_gib = .*/gc_steps_per_gib = 0/' "$R/samples/models/pm981-256.model" >"$D/nocache.model"
grep -q '^slc_static_only = 1' "$D/nocache.model" && grep -q '^gc_steps_per_gib = 0' "$D/nocache.model" ||
  fail "the cacheless model was not made from pm981-256.model"
"$S" review "sim:$D/nocache.model" --out "$D/run" --step fill_drive --quiet >/dev/null 2>"$D/err" ||
  fail "review failed: $(cat "$D/err")"
"$S" analyze "$D/run" --quiet 2>"$D/err" || fail "analyze failed: $(cat "$D/err")"
python3 - "$D/run/analysis.json" <<'P' || fail "a cache was reported on a drive without one"
import json, sys
s = json.load(open(sys.argv[1]))['fill']['slc']
print('found %s, levels %s' % (s['found'], [(l['from_gib'], l['to_gib'], l['mb_s']) for l in s['levels']]))
assert s['found'] is False and not s['drops'], s
assert len(s['levels']) == 1 and s['levels'][0]['from_gib'] == 0, s
# the speed the simulator writes this TLC at (454 MB/s), not the buffer's
assert abs(s['levels'][0]['mb_s'] - 454) <= 0.05 * 454, s
P
