#!/bin/sh
# `ssdrev review` usage: --help exits 0, bad options and arguments exit 2
# naming the option, an unknown step or method file exits non-zero naming it.
set -u
fail() { echo "review_usage: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-.}
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
"$S" review --help | grep -q "usage: ssdrev review" || fail "--help"
err=$("$S" review sim:x --out "$D/r" --passes 0 2>&1); [ $? -eq 2 ] || fail "--passes 0 not exit 2"
echo "$err" | grep -q -- "--passes" || fail "error does not name --passes: $err"
err=$("$S" review sim:x --out "$D/r" --frobnicate 2>&1); [ $? -eq 2 ] || fail "unknown option not exit 2"
echo "$err" | grep -q -- "--frobnicate" || fail "error does not name the option"
err=$("$S" review sim:x 2>&1); [ $? -eq 2 ] || fail "missing --out not exit 2"
err=$("$S" review "sim:$R/samples/models/pm981-256.model" --profile nosuch --out "$D/r" 2>&1); [ $? -eq 2 ] || fail "unknown profile name not exit 2"
echo "$err" | grep -q "nosuch" || fail "error does not name the profile"
err=$("$S" review "sim:$R/samples/models/pm981-256.model" --profile "$R/profiles/review.json" --step nope --out "$D/r" 2>&1); [ $? -eq 1 ] || fail "unknown step not exit 1"
echo "$err" | grep -q "no step 'nope'" || fail "error does not name the step: $err"
printf '{"format": "ssdrev-method", "format_version": 1, "steps": [{"id": "t", "kind": "tail", "ioz": 3}]}\n' > "$D/bad.json"
err=$("$S" review "sim:$R/samples/models/pm981-256.model" --profile "$D/bad.json" --out "$D/r" 2>&1); [ $? -eq 1 ] || fail "bad method not exit 1"
echo "$err" | grep -q "unknown key 'ioz'" || fail "error does not name the key: $err"
[ -e "$D/r" ] && fail "a failed start left a run directory"
printf '{"mn": ' > "$D/id-ctrl.json"
err=$("$S" review "sim:$R/samples/models/pm981-256.model" --out "$D/r" --short --dut-json "$D" 2>&1); [ $? -eq 1 ] || fail "broken id-ctrl JSON not exit 1"
echo "$err" | grep -q "nvme id-ctrl" || fail "error does not name the id-ctrl input: $err"
[ -e "$D/r" ] && fail "bad --dut-json left a run directory"
# every block of a method is checked whatever the mode, and no string may
# hold a NUL byte (issue 26): refused with and without --short, before any run
M="sim:$R/samples/models/pm981-256.model"
printf '%s' '{"format":"ssdrev-method","format_version":1,"short":{"measure_s":-5,"bogus":1},"steps":[{"id":"p","kind":"purge"}]}' >"$D/short.json"
printf '%s' '{"format":"ssdrev-method","format_version":1,"steps":[{"id":"ss","kind":"steady_state","short":{"round_s":0.1,"bogus":1}}]}' >"$D/sshort.json"
printf '%s' '{"format":"ssdrev-method","format_version":1,"extends":"review\u0000x","steps":[]}' >"$D/nul.json"
cp "$R/profiles/review.json" "$D/review.json"
for f in "" --short; do
  err=$("$S" review "$M" --profile "$D/short.json" --out "$D/r1" $f 2>&1); [ $? -eq 1 ] || fail "bad short block accepted ($f)"
  echo "$err" | grep -q "short.json': short: unknown key 'bogus'" || fail "short block error ($f): $err"
  err=$("$S" review "$M" --profile "$D/sshort.json" --out "$D/r1" $f 2>&1); [ $? -eq 1 ] || fail "bad step short accepted ($f)"
  echo "$err" | grep -q "step 'ss': short: unknown key 'bogus'" || fail "step short error ($f): $err"
  err=$("$S" review "$M" --profile "$D/nul.json" --out "$D/r1" $f 2>&1); [ $? -eq 1 ] || fail "extends with a NUL accepted ($f)"
  echo "$err" | grep -q "NUL byte" || fail "extends NUL error ($f): $err"
done
[ -e "$D/r1" ] && fail "a refused method left a run directory"
exit 0
