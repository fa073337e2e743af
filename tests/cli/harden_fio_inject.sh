#!/bin/sh
# Injection into fio job files and generated shell (issue 26 items 1-3):
# a method name, a CDM cell name, a step's state, --filename, --ioengine and
# a campaign target that fio or sh would read as more options, sections,
# files or commands. Each is refused (naming it) or written so that fio and
# sh read exactly the one value: PWNED and Z are never created, no job file
# line is an exec_* option, run.sh parses and quotes its final command.
set -u
fail() { echo "FAIL harden_fio_inject: $*"; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
command -v fio >/dev/null 2>&1 || { echo "skip: fio not installed"; exit 77; }
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX); trap 'rm -rf "$D"' EXIT
cd "$D" || exit 1

# a method whose name and cell name carry job-file lines (the old writers
# put both raw into the .fio files: fio ran exec_prerun)
python3 - "$D" <<'PY' || fail "cannot write the method"
import json, sys
d = sys.argv[1]
m = {"format": "ssdrev-method", "format_version": 1,
     "name": "x\n[global]\nexec_prerun=touch %s/PWNED\n#" % d,
     "settings": {"passes": 1, "measure_s": 0.05, "interval_s": 0, "region_bytes": "4MiB"},
     "steps": [{"id": "cdm", "kind": "cdm", "ops": ["read"],
                "cells": [{"name": "]\n[g]\nexec_prerun=touch P2\n#", "pattern": "rand",
                           "block": "4KiB", "qd": 1, "threads": 1}]}]}
json.dump(m, open(d + "/m.json", "w"))
# the review's method also has a cell whose name differs from that one only
# in a byte the token replaces ('#' and ';' are both '_'): one stem for two
# tests, whose .fio, .json and .out the later test once overwrote
m2 = json.loads(json.dumps(m))
c2 = dict(m2["steps"][0]["cells"][0]); c2["name"] = c2["name"][:-1] + ";"
m2["steps"][0]["cells"].append(c2)
json.dump(m2, open(d + "/m2.json", "w"))
# the same for the export, with a state that closes run.sh's quotes
m["steps"][0]["state"] = "';touch Z;'"
m["name"] = "y\ntouch Z\n"
json.dump(m, open(d + "/e.json", "w"))
m["steps"][0]["state"] = "a\ntouch Z"
json.dump(m, open(d + "/e2.json", "w"))
PY

# ---- item 2: review --engine fio
"$S" review "$D/t.img" --create-size 16M --profile m2.json --out r --engine fio --quiet 2>r.err \
  || fail "the fio review failed: $(cat r.err)"
[ -e PWNED ] && fail "a method name ran a command through fio's exec_prerun"
find "$D" -name P2 | grep -q . && fail "a cell name ran a command through fio's exec_prerun"
for f in r/fio/cdm/*.fio; do
  grep -q '^[[:space:]]*exec_' "$f" && fail "$f holds an exec_ option: $(cat "$f")"
  [ "$(grep -c '^\[global\]' "$f")" = 1 ] || fail "$f has another [global] section: $(cat "$f")"
  fio --parse-only "$f" >/dev/null 2>&1 || fail "fio does not parse $f"
done
# the job is the cell's, under its token name
ls r/fio/cdm/ | grep -q '^cdm.___g__exec_prerun_touch_P2__.read.p1.fio$' || fail "no job file for the cell: $(ls r/fio/cdm)"
# the second cell's token is the first's: its files are numbered, each
# test keeps its own job file, JSON and output
stem=cdm.___g__exec_prerun_touch_P2__.read.p1
for x in fio json out; do
  [ -f "r/fio/cdm/$stem.$x" ] && [ -f "r/fio/cdm/$stem-2.$x" ] || fail "not one $x per test: $(ls r/fio/cdm)"
done
grep -q '^# test cdm.]?\[g\]?exec_prerun=touch_P2?#.read.p1 of step' "r/fio/cdm/$stem.fio" \
  || fail "the first cell's job file: $(head -1 "r/fio/cdm/$stem.fio")"
grep -q '^# test cdm.]?\[g\]?exec_prerun=touch_P2?;.read.p1 of step' "r/fio/cdm/$stem-2.fio" \
  || fail "the second cell's job file: $(head -1 "r/fio/cdm/$stem-2.fio")"
grep -q "\"write_lat_log\" *: *\"$stem-2\"" "r/fio/cdm/$stem-2.json" || fail "the second job's logs are not its own"
python3 - r/manifest.json <<'PY' || fail "the two tests in the manifest"
import json, sys
t = [x for x in json.load(open(sys.argv[1]))["tests"] if x["name"].endswith(".read.p1")]
assert len(t) == 2 and all(x["status"] == "complete" for x in t), t
assert [x["name"][-9:-8] for x in t] == ["#", ";"], [x["name"] for x in t]
assert t[0]["log"] != t[1]["log"], t
PY

# ---- item 3: method export --fio
mkdir bin
cat > bin/fio <<'SH'
#!/bin/sh
# records its argv, one word a line, between markers
{ echo '<<'; for a in "$@"; do printf '%s\n' "$a"; done; echo '>>'; } >> "${FIO_CALLS:?}"
SH
chmod +x bin/fio
"$S" method export --fio x --profile e.json --size 16M >x.out 2>x.err || fail "export refused a quotable state: $(cat x.err)"
sh -n x/run.sh || fail "run.sh does not parse"
for f in x/*.fio; do
  grep -q '^[[:space:]]*exec_' "$f" && fail "$f holds an exec_ option"
  SSDREV_TARGET="$D/p.img" fio --parse-only "$f" >/dev/null 2>&1 || fail "fio does not parse $f"
done
grep -q '^touch Z' x/run.sh && fail "the method name became a command in run.sh"
(cd x && SSDREV_TARGET="$D/t2.img" FIO_CALLS="$D/calls" PATH="$D/bin:$PATH" sh ./run.sh) >run.out 2>&1 \
  || fail "run.sh failed: $(cat run.out)"
find "$D" -name Z -o -name P2 | grep -q . && fail "run.sh ran the state's 'touch Z'"
[ "$(grep -c '^<<$' calls)" = 1 ] && grep -qx -- '--output=01-cdm.json' calls && grep -qx '01-cdm.fio' calls \
  || fail "fio's argv: $(cat calls)"
# the printed import command, pasted into a shell, gives the state as one word
cmd=$(sed -n 's/^  //p' run.out)
[ -n "$cmd" ] || fail "no import command printed: $(cat run.out)"
eval "set -- $cmd"
[ "$4" = "01-cdm.json:';touch Z;'" ] || fail "the import command's argument is '$4': $cmd"
[ "$8" = "MY SSD" ] || fail "the label is '$8'"
find "$D" -name Z | grep -q . && fail "the import command ran the state's 'touch Z'"
grep -qF "01-cdm.json:'\\'';touch Z;'\\''" x.out || fail "the summary's command is not quoted: $(cat x.out)"
# a state no shell line can hold: refused naming it, nothing written
"$S" method export --fio x2 --profile e2.json >x2.out 2>x2.err && fail "a state with a newline was exported"
grep -q "step 'cdm': 'state'" x2.err || fail "the state refusal: $(cat x2.err)"
[ -e x2 ] && fail "a refused export wrote its directory"
# --filename and --ioengine: a value fio would read as more is refused (a
# usage error, exit 2)
for v in "$D/t.img;x" "$D/t#x" "$D/\${HOME}" "$D/t
exec_prerun=touch $D/PWNED"; do
  "$S" method export --fio x3 --profile m.json --filename "$v" >/dev/null 2>x3.err; rc=$?
  [ "$rc" = 2 ] || fail "--filename '$v': exit $rc, not 2"
  grep -q "\-\-filename '.*' has a character fio's job files cannot hold" x3.err || fail "--filename message: $(cat x3.err)"
done
for v in "$D/evil.so" "external:$D/evil.so" exec "libaio
exec_prerun=touch $D/PWNED"; do
  "$S" method export --fio x3 --profile m.json --ioengine "$v" >/dev/null 2>x3.err; rc=$?
  [ "$rc" = 2 ] || fail "--ioengine '$v': exit $rc, not 2"
  grep -q "\-\-ioengine '.*' is not a fio engine name" x3.err || fail "--ioengine message: $(cat x3.err)"
done
[ -e x3 ] && fail "a refused export wrote its directory"
# a ':' in --filename is fio's file list: escaped, so fio opens the one file
"$S" method export --fio x4 --profile m.json --filename "$D/a:b.img" >/dev/null 2>&1 || fail "--filename with ':'"
grep -qxF "filename=$D/a\\:b.img" x4/01-cdm.fio || fail "':' not escaped: $(grep filename x4/01-cdm.fio)"
# run.sh refuses a $SSDREV_TARGET fio would read as other files
(cd x && SSDREV_TARGET="$D/t.img;x" FIO_CALLS="$D/calls2" PATH="$D/bin:$PATH" sh ./run.sh) >r2.out 2>&1 \
  && fail "run.sh took SSDREV_TARGET with ';'"
grep -q "has a character fio's filename= reads as syntax" r2.out || fail "run.sh's message: $(cat r2.out)"
[ -e calls2 ] && fail "run.sh started fio on a refused SSDREV_TARGET"

# ---- item 1: a campaign target with ';' or '#' is refused before any host
head -c 1048576 /dev/urandom > victim.img
sum=$(cksum < victim.img)
printf '127.0.0.2:8931 %s/victim.img;x\n' "$D" > hosts1.txt
"$S" review --engine fio --hosts hosts1.txt --out c1 --profile m.json --create-size 8M --quiet 2>c1.err \
  && fail "a target with ';' was run"
grep -q "hosts1.txt:1: target '.*victim.img;x' has a character fio's job files cannot hold" c1.err \
  || fail "';' target message: $(cat c1.err)"
[ -e c1 ] && fail "a refused campaign made its directory"
[ -e "victim.img;x" ] && fail "a refused campaign created its target"
[ "$(cksum < victim.img)" = "$sum" ] || fail "victim.img changed"
exit 0
