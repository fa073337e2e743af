#!/bin/sh
# `ssdrev dut` on the shipped samples prints the review's DUT summary
# (PM981: NVMe 1.2, 81/82 °C, PS0 7.02W, PS4 0.0050W 2000/8000 µs; PM981a:
# NVMe 1.3, 84/85 °C, PS0 8.00W) and --json the archive's dut object.
set -u
fail() { echo "dut_samples: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
P="$R/samples/dut/pm981-256"
out=$("$S" dut --id-ctrl "$P.id-ctrl.json" --smart-log "$P.smart-log.json" --smartctl "$P.smartctl.json" --label "PM981 256GB") || fail "dut failed"
echo "$out" | head -1 | grep -q "SAMSUNG MZVLB256HAHQ-000L7 \[PM981 256GB\]" || fail "title: $out"
echo "$out" | grep -q "NVMe Version *NVMe 1.2" || fail "NVMe version: $out"
echo "$out" | grep -q "Warning Temp *81 °C" || fail "warning temp"
echo "$out" | grep -q "Critical Temp *82 °C" || fail "critical temp"
echo "$out" | grep -q "PS0 *7.02W *0µs *0µs" || fail "PS0"
echo "$out" | grep -q "PS3 *0.0760W *210µs *1200µs" || fail "PS3"
echo "$out" | grep -q "PS4 *0.0050W *2000µs *8000µs" || fail "PS4"
echo "$out" | grep -q "S4DPNX" && fail "serial shown without --include-serial"
P="$R/samples/dut/pm981a-256"
out=$("$S" dut --id-ctrl "$P.id-ctrl.json" --smartctl "$P.smartctl.json" --json) || fail "dut --json failed"
echo "$out" | grep -q '"nvme_version": "1.3"' || fail "PM981a NVMe version: $out"
echo "$out" | grep -q '"warn_temp_c": 84' || fail "PM981a warning temp"
echo "$out" | grep -q '"max_power_w": 8.0' || fail "PM981a PS0"
# JSON reals as the decimal they stand for (7.02 W, not 7.0200000000000005)
out=$("$S" dut --id-ctrl "$R/samples/dut/pm981-256.id-ctrl.json" --json) || fail "PM981 dut --json failed"
echo "$out" | grep -q '"max_power_w": 7.02,' || fail "PM981 PS0 power not 7.02: $(echo "$out" | grep max_power_w | head -1)"
echo "$out" | grep -q '"max_power_w": 0.076,' || fail "PM981 PS3 power not 0.076"
"$S" dut --help | grep -q "usage: ssdrev dut" || fail "--help"
"$S" dut >/dev/null 2>&1; [ $? -eq 2 ] || fail "no input not exit 2"
"$S" dut --id-ctrl /nonexistent.json 2>/dev/null; [ $? -eq 1 ] || fail "missing file not exit 1"
exit 0
