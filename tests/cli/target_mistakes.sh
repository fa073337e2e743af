#!/bin/sh
# Targets given by mistake (issue 26): a simulated drive's model file given
# without "sim:" is refused with --force too and stays intact, with "did
# you mean sim:FILE?"; a file with content ssdrev did not create is refused
# saying what would be lost, never advising --force (--force still writes
# it, as documented, and a file ssdrev created is reused without it); bare
# model names resolve in the data directory; a mistyped model gets the
# close names.
set -u
fail() { echo "target_mistakes: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=$(cd "${SSDREV_ROOT:-.}" && pwd)
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
cd "$D" || fail "cd"
export SSDREV_ROOT="$R"

# the model file given without sim:, with and without --force
cp "$R/samples/models/hot-512.model" hot-512.model
sum=$(cksum < hot-512.model)
for f in "" --force; do
  "$S" review hot-512.model --out R --short --quiet $f 2>err; rc=$?
  [ $rc -eq 1 ] || fail "review of a model file ${f:-without --force} exited $rc"
  grep -q "did you mean sim:hot-512.model?" err || fail "no sim: hint ${f}: $(cat err)"
  grep -q "use --force" err && fail "the refusal advises --force: $(cat err)"
  [ "$(cksum < hot-512.model)" = "$sum" ] || fail "the model file changed (${f:-no --force})"
  [ -e R ] && fail "a run directory was made for a refused target"
  "$S" run hot-512.model --out R2 --rw write --runtime 0.01 --quiet $f 2>err && fail "run on a model file ${f} accepted"
  grep -q "did you mean sim:hot-512.model?" err || fail "run: no sim: hint: $(cat err)"
  [ "$(cksum < hot-512.model)" = "$sum" ] || fail "run changed the model file"
done

# a file with content ssdrev did not create: what would be lost, no --force advice
head -c 8192 /dev/urandom > data.bin
sum=$(cksum < data.bin)
"$S" run data.bin --out R3 --rw write --runtime 0.01 --buffered --quiet >/dev/null 2>err; rc=$?
[ $rc -eq 1 ] || fail "run on a foreign file exited $rc"
grep -q "not empty (8192 bytes, 8.0 KiB) and not an ssdrev target file" err || fail "no size/what is lost: $(cat err)"
grep -q "force" err && fail "the refusal advises --force: $(cat err)"
[ "$(cksum < data.bin)" = "$sum" ] || fail "the refused file changed"
# an empty file: nothing to lose, --force may be named
: > empty.img
"$S" run empty.img --out R4 --rw write --runtime 0.01 --buffered --quiet >/dev/null 2>err && fail "empty foreign file accepted"
grep -q "it is empty" err || fail "empty file message: $(cat err)"
# --force writes a foreign file, as documented
"$S" run data.bin --out R5 --rw write --runtime 0.01 --buffered --force --quiet >/dev/null 2>err || fail "--force refused: $(cat err)"
# a file ssdrev created is reused without --force
"$S" run mine.img --create-size 4M --out R6 --rw write --runtime 0.01 --buffered --quiet >/dev/null 2>err || fail "create: $(cat err)"
"$S" run mine.img --out R7 --rw write --runtime 0.01 --buffered --quiet >/dev/null 2>err || fail "reuse of its own file refused: $(cat err)"

# bare model names resolve in the data directory, from any directory
"$S" review sim:hot-512 --plan --short >plan 2>err || fail "sim:hot-512 not resolved: $(cat err)"
grep -q "samples/models/hot-512.model" plan || fail "sim:hot-512 resolved elsewhere: $(head -2 plan)"
"$S" review sim:pm981-256.model --plan --short >/dev/null 2>err || fail "sim:pm981-256.model not resolved: $(cat err)"
# a mistyped name or path: "no such model; did you mean ..."
"$S" review sim:samples/models/pm981-265.model --plan 2>err; rc=$?
[ $rc -eq 1 ] || fail "mistyped model path exited $rc"
grep -q "no such model; did you mean sim:samples/models/pm981-256.model" err || fail "no close names: $(cat err)"
"$S" review sim:hot-521 --plan 2>err && fail "sim:hot-521 accepted"
grep -q "did you mean sim:hot-512?" err || fail "bare mistyped name: $(cat err)"
"$S" run sim:zzzzzzzzzzzzzzzz --out R8 2>err && fail "sim:zzz accepted"
grep -q "no such model file here nor under samples/models in '$R'" err || fail "far name: $(cat err)"
grep -q "models there: sim:" err || fail "far name lists no models: $(cat err)"
exit 0
