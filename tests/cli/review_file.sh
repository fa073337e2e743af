#!/bin/sh
# `ssdrev review --short` on a temporary file created with --create-size,
# with the PM981 nvme-cli / smartctl JSON given by --dut-json: completes,
# keeps the raw JSON under dut/, leaves the serial out.
set -u
fail() { echo "review_file: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
printf '{"controller": "Samsung Phoenix", "media": "Samsung V4 TLC"}\n' > "$D/overrides.json"
cp "$R/samples/dut/pm981-256.id-ctrl.json" "$D/id-ctrl.json"
cp "$R/samples/dut/pm981-256.smartctl.json" "$D/smartctl.json"
"$S" review "$D/disk.img" --create-size 80M --profile cdm-real --out "$D/run" --short --passes 2 \
     --dut-json "$D" --quiet || fail "review on a file failed"
M="$D/run/manifest.json"
grep -q '"cdm": "complete"' "$M" || fail "cdm step not complete"
grep -q '"passes": 2' "$M" || fail "--passes not recorded"
grep -q '"name": "cdm.RND4K_Q1T1.write.p2"' "$M" || fail "second measured pass missing"
grep -q '"media": "Samsung V4 TLC"' "$M" || fail "overrides not applied"
grep -q '"firmware": "1L2QEXD7"' "$M" || fail "DUT JSON not parsed"
grep -q "S4DPNX0M000001" "$M" && fail "serial number leaked into the manifest"
[ -s "$D/run/dut/id-ctrl.json" ] || fail "raw id-ctrl JSON not kept"
[ -s "$D/run/dut/smartctl.json" ] || fail "raw smartctl JSON not kept"
[ -e "$D/run/dut/smart-log.json" ] && fail "a smart-log was invented"
# the archive holds what the analysis needs: CDM rows from the measured passes only
"$S" analyze "$D/run" > "$D/an.txt" 2>"$D/an.err" || fail "analyze of the file run failed: $(cat "$D/an.err")"
A="$D/run/analysis.json"
[ -s "$A" ] || fail "no analysis.json"
grep -q '"cell": "SEQ1M Q1T1"' "$A" || fail "no SEQ1M Q1T1 CDM row"
grep -q '"cell": "RND4K Q1T1"' "$A" || fail "no RND4K Q1T1 CDM row"
grep -q '"passes": 2' "$A" || fail "CDM row not built from the 2 measured passes"
grep -q '"passes": 3' "$A" && fail "the preparing pass was counted as a measured one"
grep -q "FOB    real     RND4K Q1T1" "$D/an.txt" || fail "no CDM panel in analyze output: $(cat "$D/an.txt")"
# a file ssdrev did not create is refused without --force
: > "$D/foreign.img"; truncate -s 64M "$D/foreign.img"
"$S" review "$D/foreign.img" --out "$D/run2" --short --quiet 2>"$D/err"; rc=$?
[ $rc -eq 1 ] || fail "foreign file not refused (exit $rc)"
# it says what would be lost, and does not advise --force (issue 26)
grep -q "not empty (67108864 bytes, 64.0 MiB) and not an ssdrev target file" "$D/err" \
  || fail "refusal does not say what would be lost: $(cat "$D/err")"
grep -q "force" "$D/err" && fail "refusal of a file with content advises --force: $(cat "$D/err")"
exit 0
