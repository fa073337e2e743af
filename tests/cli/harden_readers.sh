#!/bin/sh
# test: serial
# harden_readers: hostile archives and inputs (docs/hardening.md, "Reading
# archives and templates"). A manifest whose log paths leave the run ("..",
# absolute, a symbolic link out) is refused by analyze, chart and report even
# when analysis.json looks fresh; a FIFO (or /dev/zero, a directory) given as
# any input fails at once with "not a regular file"; an unparseable manifest
# fails report and chart as it fails analyze (exit 1, manifest, line, column).
# Every command runs under `timeout 10`, so a reader that blocks fails the
# test instead of hanging it.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
MODEL="$ROOT/samples/models/generic-1tb.model"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
fail() { echo "harden_readers: FAIL: $*" >&2; exit 1; }
n=0

# crc32c FILE: the CRC32C of FILE as analysis.json records it (8 hex digits)
cat >crc.py <<'PY'
import sys
t = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    t.append(c)
c = 0xFFFFFFFF
for b in open(sys.argv[1], 'rb').read():
    c = t[(c ^ b) & 0xFF] ^ (c >> 8)
print('%08x' % (c ^ 0xFFFFFFFF))
PY
# forge RUN: makes RUN/analysis.json "fresh" for the manifest as it is now,
# as an attacker who ships both files would
forge() {
  crc=$(python3 crc.py "$1/manifest.json") || fail "crc32c"
  sed "s/\"manifest_crc32c\": \"[0-9a-f]*\"/\"manifest_crc32c\": \"$crc\"/" "$1/analysis.json" >"$1/a.tmp" &&
    mv "$1/a.tmp" "$1/analysis.json" || fail "forge $1"
}
# expect RC REGEX ARGS...: ssdrev ARGS under timeout 10 exits RC with REGEX in stderr
expect() {
  rc_want=$1 re=$2; shift 2
  timeout 10 "$SSDREV" "$@" >out.txt 2>err.txt
  rc=$?
  [ $rc -ne 124 ] || fail "ssdrev $*: hung (killed by timeout)"
  [ $rc -eq "$rc_want" ] || fail "ssdrev $*: exit $rc, expected $rc_want; stderr: $(cat err.txt)"
  [ -z "$re" ] || grep -Eq -- "$re" err.txt || fail "ssdrev $*: stderr lacks /$re/: $(cat err.txt)"
  grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' err.txt && fail "ssdrev $*: sanitizer report: $(cat err.txt)"
  n=$((n+1))
}

"$SSDREV" run "sim:$MODEL" --out base --rw randread --iodepth 1 --number-ios 2000 --quiet >/dev/null 2>&1 ||
  fail "cannot make the base run"
"$SSDREV" analyze base --quiet || fail "analyze base"
grep -q '"hist"' base/analysis.json || fail "analysis.json has no latency histogram"
printf '{{chart hist test=job}}\n' >hist.md
expect 0 "" chart hist base --test job --out ok.png
mkdir outside
cp base/logs/job.ssdlog outside/secret.ssdlog

# ---- log paths from the manifest that leave the run, analysis.json fresh
for bad in "../outside/secret.ssdlog" "$T/outside/secret.ssdlog" "logs/../../outside/secret.ssdlog"; do
  rm -rf r && cp -r base r
  sed "s#\"logs/job.ssdlog\"#\"$bad\"#" base/manifest.json >r/manifest.json
  grep -q "secret" r/manifest.json || fail "the manifest edit did not take"
  forge r
  expect 1 "r/manifest.json.*not a relative path inside the run" analyze r
  expect 1 "r/manifest.json.*not a relative path inside the run" chart hist r --test job --out r.png
  expect 1 "r/manifest.json.*not a relative path inside the run" report --template hist.md --out rep r
  [ ! -e r.png ] && [ ! -e rep ] || fail "'$bad': a refused archive left output"
done

# ---- a symbolic link out of the run (the manifest itself is clean)
rm -rf r && cp -r base r
rm r/logs/job.ssdlog && ln -s "$T/outside/secret.ssdlog" r/logs/job.ssdlog
expect 0 "" analyze r --quiet
grep -q "outside the run" r/analysis.json || fail "symlinked log: analysis.json has no 'outside the run' error"
grep -q '"ios": 2000' r/analysis.json && fail "symlinked log: the outside file was analyzed"
expect 1 "outside the run" report --strict --template hist.md --out rep r
rm -rf r && cp -r base r
rm -r r/logs && ln -s "$T/outside" r/logs && mv outside/secret.ssdlog outside/job.ssdlog
# a writer of the archive (analyze writes analysis.json) refuses a linked logs/ outright
rm -f r/analysis.json
expect 1 "refusing to write 'r/logs': it is a symbolic link" analyze r --quiet
[ -e r/analysis.json ] && fail "symlinked logs/: an analysis was written"
mv outside/job.ssdlog outside/secret.ssdlog

# ---- FIFOs, /dev/zero and directories as inputs
mkfifo fifo || fail "mkfifo"
expect 1 "cannot read 'fifo': not a regular file \(fifo\)" log info fifo
expect 1 "not a regular file \(fifo\)" log dump fifo
expect 1 "not a regular file \(fifo\)" analyze --log fifo
expect 1 "not a regular file \(character device\)" log info /dev/zero
expect 1 "not a regular file \(fifo\)" model show fifo
expect 1 "not a regular file \(fifo\)" run sim:fifo --out runf --rw randread --number-ios 10 --quiet
expect 1 "not a regular file \(fifo\)" import cdm fifo --out o1
expect 1 "not a regular file \(fifo\)" import fio fifo --out o2
expect 1 "not a regular file \(character device\)" import cdm /dev/zero --out o3
expect 1 "not a regular file \(fifo\)" dut --id-ctrl fifo
expect 1 "not a regular file \(fifo\)" report --template fifo --out rep base
rm -rf r && cp -r base r && rm r/manifest.json && mkfifo r/manifest.json
expect 1 "r/manifest.json.*not a regular file \(fifo\)" analyze r
expect 1 "r/manifest.json.*not a regular file \(fifo\)" report --template hist.md --out rep r
expect 1 "r/manifest.json.*not a regular file \(fifo\)" chart hist r --test job --out x.png
rm -rf r && cp -r base r && rm r/logs/job.ssdlog && mkfifo r/logs/job.ssdlog
expect 0 "" analyze r --quiet
grep -q "not a regular file (fifo)" r/analysis.json || fail "FIFO log: no 'not a regular file (fifo)' in the entry"
rm -rf r && cp -r base r && rm r/analysis.json && mkfifo r/analysis.json
expect 0 "" report --format md --template hist.md --out rep r
[ -f r/analysis.json ] || fail "FIFO analysis.json was not replaced by a fresh analysis"
rm -rf rep
mkdir tdir && cp hist.md tdir/t.md && printf '![photo](img.png)\n' >>tdir/t.md && mkfifo tdir/img.png
expect 1 "t.md:2: image 'img.png' is not a regular file" report --template tdir/t.md --out rep base
[ ! -e rep ] || fail "a refused template image left output"

# ---- an unparseable manifest with a fresh analysis.json
rm -rf r && cp -r base r
printf '{"format": "ssdrev-run",\n  "tests": [ }\n' >r/manifest.json
forge r
expect 1 "invalid JSON in 'r/manifest.json' at line 2, column" analyze r
expect 1 "invalid JSON in 'r/manifest.json' at line 2, column" report --template hist.md --out rep r
expect 1 "invalid JSON in 'r/manifest.json' at line 2, column" chart hist r --test job --out x.png
[ ! -e rep ] && [ ! -e x.png ] || fail "an unparseable manifest left output"

# ---- one staleness rule (analyze_is_fresh) for report, chart and compare
ino() { stat -c %i "$1"; }
rm -rf r && cp -r base r
sleep 1.1 && touch r/manifest.json # newer than analysis.json, the same bytes
i0=$(ino r/analysis.json)
expect 0 "" compare r --out cmp --format csv
expect 0 "" chart hist r --test job --out h1.png
[ "$(ino r/analysis.json)" = "$i0" ] || fail "a manifest touched (mtime only) was re-analyzed"
python3 - r/manifest.json <<'PY' || fail "cannot relabel"
import json, sys
m = json.load(open(sys.argv[1]))
m["label"] = "Relabelled SSD"
json.dump(m, open(sys.argv[1], "w"))
PY
sleep 1.1 && touch r/analysis.json # newer than the changed manifest: mtimes say fresh
rm -rf cmp
expect 0 "" compare r --out cmp --format csv
grep -q "Relabelled SSD" cmp/runs.csv || fail "compare used an analysis.json made from another manifest"
grep -q "Relabelled SSD" r/analysis.json || fail "compare did not re-analyze the changed run"
python3 - r/manifest.json <<'PY' || fail "cannot relabel"
import json, sys
m = json.load(open(sys.argv[1]))
m["label"] = "Again relabelled"
json.dump(m, open(sys.argv[1], "w"))
PY
sleep 1.1 && touch r/analysis.json
expect 0 "note: analyzed 'r' first" report --format md --template hist.md --out rep r
grep -q "Again relabelled" r/analysis.json || fail "report did not re-analyze the changed run"
rm -rf rep

# ---- the histogram comes from analysis.json: no log is read to draw it
rm -rf r && cp -r base r && rm r/logs/job.ssdlog
expect 0 "" chart hist r --test job --out h2.png
cmp -s ok.png h2.png || fail "chart hist without its log differs from the one drawn with it"

echo "harden_readers: $n cases ok"
