#!/bin/sh
# Full disk for output: every writer of an output file fails with exit 1 and
# a message naming the file and "No space left on device", and leaves no
# half-written file: no temporary file, no partial output, and an existing
# output (analysis.json) untouched. Uses a 64 KiB tmpfs filled to the brim
# (needs root: those cases print a "skip:" line otherwise), plus /dev/full as
# stdout.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
T=$(mktemp -d) || exit 1
M="$T/mnt"
trap 'mountpoint -q "$M" 2>/dev/null && umount "$M"; rm -rf "$T"' EXIT
fail() { echo "harden_fullfs: FAIL: $*" >&2; exit 1; }
CDM="$ROOT/samples/cdm/pm981-fob-cdm8.txt"

# An analyzed archive on a normal filesystem, to read from.
"$SSDREV" import cdm "$CDM" --out "$T/run" >/dev/null 2>"$T/err" || fail "import: $(cat "$T/err")"
"$SSDREV" analyze "$T/run" --quiet 2>"$T/err" || fail "analyze: $(cat "$T/err")"
printf '# Review\n\nA template without directives.\n' >"$T/mini.md"

# ---- stdout on /dev/full: a failed write is an error, not a silent success
"$SSDREV" log synth "$T/s.ssdlog" --records 2000 >/dev/null 2>&1 || fail "log synth"
"$SSDREV" log dump "$T/s.ssdlog" --csv >/dev/full 2>"$T/err" && fail "log dump to /dev/full exited 0"
grep -q "^ssdrev log: error: .*stdout" "$T/err" || fail "log dump to /dev/full: $(cat "$T/err")"
"$SSDREV" analyze "$T/run" >/dev/full 2>"$T/err" && fail "analyze to /dev/full exited 0"
grep -q "^ssdrev analyze: error:" "$T/err" || fail "analyze to /dev/full: $(cat "$T/err")"

# the /dev/full cases above ran: a missing tmpfs is a partial skip (exit 0)
if [ "$(id -u)" != 0 ]; then echo "skip: not root: tmpfs cases not checked"; exit 0; fi
mkdir "$M"
if ! mount -t tmpfs -o size=64k tmpfs "$M" 2>/dev/null; then
  echo "skip: cannot mount a tmpfs here: tmpfs cases not checked"; exit 0
fi
cp -r "$T/run" "$M/run" || fail "copying the archive"
dd if=/dev/zero of="$M/fill" bs=4k 2>/dev/null # fill to the last block
[ "$(df -P "$M" | awk 'NR==2 {print $4}')" = 0 ] || fail "tmpfs not full"

# full CMD FILE ARGS...: exit 1, "ssdrev CMD: error:" naming FILE and ENOSPC.
full() {
  cmd=$1 file=$2; shift 2
  "$SSDREV" "$@" >/dev/null 2>"$T/err"
  rc=$?
  [ $rc -eq 1 ] || fail "ssdrev $* on a full disk: exit $rc, expected 1 ($(cat "$T/err"))"
  grep -q "^ssdrev $cmd: error: .*$file" "$T/err" || fail "ssdrev $*: message does not name $file: $(cat "$T/err")"
  grep -Eq "No space left on device|error while writing" "$T/err" || fail "ssdrev $*: message does not say the disk is full: $(cat "$T/err")"
  grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$T/err" && fail "ssdrev $*: sanitizer report"
  left=$(find "$M" -name '*.tmp.*')
  [ -z "$left" ] || fail "ssdrev $*: temporary files left: $left"
}

cp "$M/run/analysis.json" "$T/analysis.before"
full analyze analysis.json analyze "$M/run" --quiet
cmp -s "$M/run/analysis.json" "$T/analysis.before" || fail "a failed analyze changed the existing analysis.json"

full import manifest.json import cdm "$CDM" --out "$M/imp"
[ -e "$M/imp/manifest.json" ] && fail "import left a manifest on a full disk"

full chart c.png chart cdm "$T/run" --out "$M/c.png"
[ -e "$M/c.png" ] && fail "chart left a partial c.png"
full chart c.svg chart cdm "$T/run" --out "$M/c.svg"
[ -e "$M/c.svg" ] && fail "chart left a partial c.svg"

full report review report -t "$T/mini.md" --format md,html --out "$M/rep" "$T/run"
[ -e "$M/rep/review.md" ] || [ -e "$M/rep/review.html" ] && fail "report left a partial review"

full log s.ssdlog log synth "$M/s.ssdlog" --records 100000
[ -e "$M/s.ssdlog" ] && fail "log synth left a partial log"

full run manifest.json run "sim:$ROOT/samples/models/pm981-256.model" --out "$M/r" --runtime 1s --quiet
[ -e "$M/r/manifest.json" ] && fail "run left a manifest on a full disk"
exit 0
