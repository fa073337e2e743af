#!/bin/sh
# Every CLI error path of the input side: a missing file, a directory given
# as a file, a file of the wrong type (a PNG), an unreadable file (run as
# nobody when we are root, since root reads mode-000 files), and bad option
# values. Each case asserts the exit code (1 failure, 2 bad usage), that the
# message starts "ssdrev CMD: error:" and names the file or option, and that
# no output (or temporary file) was left behind.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
MODEL="$ROOT/samples/models/pm981-256.model"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
chmod 755 "$T"
fail() { echo "harden_errors: FAIL: $*" >&2; exit 1; }
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\000\001' >x.png
mkdir adir
n=0

# expect RC CMD REGEX ARGS...: runs ssdrev ARGS, checks the exit code, the
# "ssdrev CMD: error:" prefix and REGEX (grep -E) in stderr, and that no
# out*/tmp file appeared.
expect() {
  rc_want=$1 cmd=$2 re=$3; shift 3
  "$SSDREV" "$@" >out.txt 2>err.txt
  rc=$?
  [ $rc -eq "$rc_want" ] || fail "ssdrev $*: exit $rc, expected $rc_want; stderr: $(cat err.txt)"
  grep -q "^ssdrev $cmd: error: " err.txt || fail "ssdrev $*: no 'ssdrev $cmd: error:' line: $(cat err.txt)"
  grep -Eq -- "$re" err.txt || fail "ssdrev $*: message lacks /$re/: $(cat err.txt)"
  grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' err.txt && fail "ssdrev $*: sanitizer report: $(cat err.txt)"
  left=$(ls -d o_* *.tmp.* 2>/dev/null)
  [ -z "$left" ] || fail "ssdrev $*: left output behind: $left"
  n=$((n+1))
}

# ---- missing files
expect 1 log "cannot open.*'nope.ssdlog'.*No such file" log info nope.ssdlog
expect 1 log "nope.ssdlog" log dump nope.ssdlog --csv
expect 1 import "cannot open 'nope.txt'" import cdm nope.txt --out o_1
expect 1 import "nope.json" import fio nope.json --out o_2
expect 1 model "cannot open 'nope.model'" model show nope.model
expect 1 dut "cannot open 'nope.json'" dut --id-ctrl nope.json
expect 1 analyze "'nope'.*No such file" analyze nope
expect 1 analyze "nope.ssdlog" analyze --log nope.ssdlog
expect 1 run "target 'sim:nope.model': no such model" run sim:nope.model --out o_3
expect 1 chart "o_none.*analysis.json" chart cdm o_none --out o_4.png
expect 1 report "o_none.*analysis.json" report -t "$ROOT/templates/review.en.md" --out o_5 o_none

# ---- a directory where a file is expected
expect 1 log "'adir'.*not a regular file" log info adir
expect 1 import "'adir'.*directory" import cdm adir --out o_6
expect 1 import "adir" import fio adir --out o_7
expect 1 model "'adir'.*directory" model show adir
expect 1 dut "adir" dut --smartctl adir
expect 1 analyze "adir" analyze adir
expect 1 analyze "adir" analyze --log adir
expect 1 run "adir" run sim:adir --out o_8

# ---- the wrong type of file (a PNG)
expect 1 log "'x.png' is not an ssdrev I/O log" log info x.png
expect 1 log "'x.png' is not an ssdrev I/O log" log dump x.png
expect 1 import "x.png" import cdm x.png --out o_9
expect 1 import "x.png" import fio x.png --out o_10
expect 1 model "x.png:1" model show x.png
expect 1 dut "JSON" dut --id-ctrl x.png
expect 1 analyze "x.png" analyze --log x.png
expect 1 run "x.png" run sim:x.png --out o_11
cp "$MODEL" m.model
expect 1 log "not an ssdrev I/O log" log info m.model

# ---- unreadable files: root reads mode 000, so drop to nobody for this
echo 'x' >locked.txt
chmod 000 locked.txt
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  AS_NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
  for c in "log info locked.txt" "model show locked.txt" "import cdm locked.txt --out $T/o_12"; do
    # shellcheck disable=SC2086
    $AS_NOBODY "$SSDREV" $c >out.txt 2>err.txt
    rc=$?
    [ $rc -eq 1 ] || fail "ssdrev $c on an unreadable file: exit $rc, expected 1 ($(cat err.txt))"
    grep -q "locked.txt.*Permission denied" err.txt || fail "ssdrev $c: no 'Permission denied' naming the file: $(cat err.txt)"
    [ -e "$T/o_12" ] && fail "ssdrev $c: left $T/o_12"
    n=$((n+1))
  done
elif [ "$(id -u)" != 0 ]; then
  expect 1 log "locked.txt.*Permission denied" log info locked.txt
  expect 1 model "locked.txt.*Permission denied" model show locked.txt
  expect 1 import "locked.txt.*Permission denied" import cdm locked.txt --out o_12
else
  echo "skip: root without setpriv: unreadable-file cases not checked"
  unreadable_skipped=3
fi

# ---- bad option values: exit 2, the message names the option
expect 2 run "--bs 'abc'" run "sim:$MODEL" --out o_13 --bs abc
expect 2 run "--iodepth '0'" run "sim:$MODEL" --out o_13 --iodepth 0
expect 2 run "--rwmixread '101'" run "sim:$MODEL" --out o_13 --rwmixread 101
expect 2 run "--runtime 'xyz'" run "sim:$MODEL" --out o_13 --runtime xyz
expect 2 run "--rw 'foo'" run "sim:$MODEL" --out o_13 --rw foo
expect 2 run "--threads '-1'" run "sim:$MODEL" --out o_13 --threads -1
expect 2 run "--engine 'warp'" run "sim:$MODEL" --out o_13 --engine warp
expect 2 run "unknown option '--nope'" run "sim:$MODEL" --out o_13 --nope
expect 2 run "--out" run "sim:$MODEL"
expect 2 log "--limit" log dump x.png --limit -1
expect 2 log "frob" log frob x.png
expect 2 analyze "--percentiles.*101" analyze --percentiles 101 adir
expect 2 analyze "--interval" analyze --interval 0 adir
expect 2 analyze "--threads" analyze --threads 0 adir
expect 2 chart "nokind" chart nokind adir --out o_14.png
expect 2 chart "--out.*o_14.bmp" chart cdm adir --out o_14.bmp
expect 2 chart "--dpi" chart cdm adir --out o_14.png --dpi 0
expect 2 report "--format.*docx" report --format docx -t x.md --out o_15 adir
expect 2 report "--out" report -t x.md adir
expect 2 import "nokind" import nokind x.png --out o_16
expect 2 import "--out" import fio x.png
expect 2 import "--latency.*foo" import fio x.png --out o_16 --latency foo
expect 2 import "--log-offset.*2" import fio x.png --out o_16 --log-offset 2
expect 2 compare "--jobs.*0" compare adir --out o_17 --jobs 0
expect 2 review "--passes '0'" review "sim:$MODEL" --out o_18 --passes 0
expect 2 review "--seed 'x'" review "sim:$MODEL" --out o_18 --seed x
expect 2 dut "--nope" dut --nope
expect 2 model "MODEL_FILE" model show
# 59 cases, less the unreadable-file ones if they were skipped
[ $n -ge $((59 - ${unreadable_skipped:-0})) ] || fail "only $n cases ran"
exit 0
