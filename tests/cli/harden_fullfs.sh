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

# ---- the disk fills part way (issue 26): report (Markdown, HTML, PDF,
# PNG and SVG charts) and compare (CSV, xlsx, PDF, charts, the SQLite
# index) fail naming the file and "No space left on device", and leave no
# output of the failed command: not a file, not a directory, no temporary
# file; a complete earlier report at the same place is left byte-identical.
umount "$M" || fail "umount"
mount -t tmpfs -o size=4m tmpfs "$M" || fail "mounting a 4 MiB tmpfs"
A="$ROOT/tests/data/analysis"
# fill_to KIB: leaves about KIB KiB free (page granularity)
fill_to() {
  rm -f "$M/fill"
  avail=$(df -Pk "$M" | awk 'NR==2 {print $4}')
  [ "$avail" -gt "$1" ] && dd if=/dev/zero of="$M/fill" bs=1k count=$((avail - $1)) 2>/dev/null
  return 0
}
# part CMD WHERE ARGS...: exit 1, the message names a file under WHERE and
# the full disk, nothing of the command is left under WHERE
part() {
  cmd=$1 where=$2; shift 2
  "$SSDREV" "$@" >/dev/null 2>"$T/err"; rc=$?
  [ $rc -eq 1 ] || fail "ssdrev $* with ${free}k free: exit $rc, expected 1 ($(cat "$T/err"))"
  grep -q "^ssdrev $cmd: error: .*cannot write '$where/[^']*': No space left on device" "$T/err" \
    || fail "ssdrev $* with ${free}k free: message does not name the file and the full disk: $(cat "$T/err")"
  grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$T/err" && fail "ssdrev $* with ${free}k free: $(cat "$T/err")"
  # libxlsxwriter prints its own "[ERROR] ... ZIP_ERRNO" lines; ours must not
  grep "^ssdrev $cmd: error:" "$T/err" | grep -q 'libharu\|ZIP_ERRNO\|output stream' \
    && fail "ssdrev $* with ${free}k free: a library's words: $(cat "$T/err")"
  left=$(find "$M" -name '*.tmp.*')
  [ -z "$left" ] || fail "ssdrev $* with ${free}k free: temporary files left: $left"
  # a chart's failure names the line of that chart's directive (the PNG
  # worker's failure used to carry the line of the chart drawn next)
  at=$(sed -n "s|^ssdrev report: error: [^ ]*\.md:\([0-9]*\): cannot write '.*/charts/\([a-z_]*\)[-.].*|\1 \2|p" "$T/err")
  if [ -n "$at" ]; then
    tl=$(sed -n "s|^ssdrev report: error: \([^ ]*\.md\):[0-9]*:.*|\1|p" "$T/err")
    sed -n "${at% *}p" "$tl" | grep -q "{{chart ${at#* }[ }]" \
      || fail "ssdrev $* with ${free}k free: the line is not the failed chart's: $(cat "$T/err")"
  fi
}
# a report of two runs, all three documents and 26 charts: about 1.2 MB at 60 dpi
for free in 0 16 100 300 600 1000; do
  rm -rf "$M/rep"; fill_to $free
  part report "$M/rep" report -t "$ROOT/templates/review.en.md" --dpi 60 --out "$M/rep" "$A/pm981" "$A/pm981a"
  [ ! -e "$M/rep" ] || fail "report with ${free}k free left: $(find "$M/rep" | head -5)"
done
# each document alone, and a PNG chart alone
for f in md html pdf; do
  free=0; rm -rf "$M/rep"; fill_to 0
  part report "$M/rep" report -t "$T/mini.md" -f $f --out "$M/rep" "$A/pm981"
  grep -q "review.$f'" "$T/err" || fail "report -f $f: $(cat "$T/err")"
  [ ! -e "$M/rep" ] || fail "report -f $f left: $(find "$M/rep" | head -5)"
done
printf '# C\n\n{{chart cdm}}\n' >"$T/chart.md"
free=8; rm -rf "$M/rep"; fill_to 8
part report "$M/rep" report -t "$T/chart.md" -f md --out "$M/rep" "$A/pm981"
[ ! -e "$M/rep" ] || fail "report of a chart left: $(find "$M/rep" | head -5)"
# over a complete report: what was there stays as it was
rm -rf "$M/rep"; rm -f "$M/fill"
"$SSDREV" report -t "$ROOT/templates/review.en.md" --dpi 30 --out "$M/rep" "$A/pm981" "$A/pm981a" >/dev/null 2>"$T/err" \
  || fail "report on a free disk: $(cat "$T/err")"
(cd "$M/rep" && find . -type f | sort | xargs md5sum) >"$T/rep.before"
for free in 0 60 400; do
  fill_to $free
  part report "$M/rep" report -t "$ROOT/templates/review.en.md" --dpi 60 --out "$M/rep" "$A/pm981" "$A/pm981a"
  (cd "$M/rep" && find . -type f | sort | xargs md5sum) | cmp -s - "$T/rep.before" \
    || fail "a failed report with ${free}k free changed the earlier one"
done
rm -rf "$M/rep"
# compare: the charts and PDF first, then the CSVs; the workbook alone
for free in 0 100 2500; do
  rm -rf "$M/cmp"; fill_to $free
  part compare "$M/cmp" compare "$A/pm981" "$A/pm981a" --out "$M/cmp" --format md,csv,pdf,charts,xlsx
  [ ! -e "$M/cmp" ] || fail "compare with ${free}k free left: $(find "$M/cmp" | head -5)"
done
for spec in csv:30 csv:100 xlsx:0; do
  fmt=${spec%:*} free=${spec#*:}
  rm -rf "$M/cmp"; fill_to $free
  part compare "$M/cmp" compare "$A/pm981" "$A/pm981a" --out "$M/cmp" --format $fmt
  [ ! -e "$M/cmp" ] || fail "compare --format $fmt with ${free}k free left: $(find "$M/cmp" | head -5)"
done
# analyze of a run never analyzed: no analysis.json at all
for free in 0 4; do
  rm -rf "$M/arun" "$M/cmp"; rm -f "$M/fill"
  cp -r "$T/run" "$M/arun" && rm -f "$M/arun/analysis.json" || fail "copying the run"
  fill_to $free
  part analyze "$M/arun" analyze "$M/arun" --quiet
  [ -e "$M/arun/analysis.json" ] && fail "analyze with ${free}k free left an analysis.json"
done
rm -rf "$M/arun"
# the index of a folder on the full disk: a warning naming it and the full
# disk, not SQLite's "no transaction is active"; the comparison stands
rm -rf "$M/cmp" "$M/runs"; rm -f "$M/fill"
mkdir "$M/runs" && cp -r "$A/pm981" "$A/pm981a" "$M/runs/" || fail "copying runs"
for free in 0 40; do
  rm -f "$M/runs/ssdrev-index.sqlite"*; fill_to $free
  "$SSDREV" compare "$M/runs" --out "$T/cmp$free" --format csv >/dev/null 2>"$T/err" \
    || fail "compare with its index on a full disk: exit $?: $(cat "$T/err")"
  grep -q "index.*No space left on device" "$T/err" || fail "index with ${free}k free: $(cat "$T/err")"
  grep -q "no transaction\|disk is full" "$T/err" && fail "index with ${free}k free: SQLite's words: $(cat "$T/err")"
done
exit 0
