#!/bin/sh
# import_fio_lines (issue 26 items 17 and 18): fio logs are read line by
# line as the file has them, and a record is refused at import by the rule
# the analysis applies.
#  1. an averaged bandwidth log whose line is over 511 bytes (padded, with a
#     second record's text after the padding) is refused naming that line;
#     it was cut at 511 bytes and its tail read as another window
#     (99,999,999 KiB/s accepted);
#  2. a valid line of 600 bytes (trailing blanks) is read whole, and a bad
#     line after it is named by its own number (was one too many);
#  3. a line over 4,095 bytes, or holding a NUL byte, is refused naming it;
#  4. a per-I/O latency log with blank lines (LF and CR LF) names a bad
#     line by the file's own number (blank lines were not counted);
#  5. a latency-log record of 2^63-1 ns in a time-based job is refused by
#     `import fio` naming the file and line (it imported, and `analyze`
#     then refused the log: "completes far beyond the test's duration");
#     a failed import leaves no run.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
export ROOT
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not installed"; exit 77; }
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "import_fio_lines: FAIL: $*" >&2; exit 1; }
cd "$T" || exit 1

python3 - <<'PY' || fail "cannot write the fixtures"
import copy, json, os
base = json.load(open(os.path.join(os.environ["ROOT"], "samples/fio/small.json")))
# an averaged bandwidth log of a sequential write (log_avg_msec=500)
j = copy.deepcopy(base)
j["global options"] = {"size": "1g", "bs": "128k", "ioengine": "libaio", "filename": "/tmp/x",
                       "write_bw_log": "bw", "log_avg_msec": "500"}
j["jobs"] = j["jobs"][:1]
job = j["jobs"][0]
job["job options"] = {"rw": "write"}
job["write"].update({"io_bytes": 1 << 30, "total_ios": 8192, "bw_bytes": 500000000, "runtime": 2000})
job["read"].update({"io_bytes": 0, "total_ios": 0})
json.dump(j, open("bw.json", "w"))
good = ["%d, %d, 1, 131072, 0" % (500 * (i + 1), 480000) for i in range(4)]
def bwlog(name, lines):
    with open(name, "wb") as f: f.write(b"".join(l.encode() + b"\n" for l in lines))
# 1. line 2 padded past 511 bytes, another record's text after the padding
bwlog("long", [good[0], good[1] + " " * 520 + "1500, 99999999, 1, 131072, 0", good[2]])
# 2. line 2 valid with 600 trailing blanks; line 4 bad
bwlog("pad", [good[0], good[1] + " " * 600, good[2], "2000, fast, 1, 131072, 0"])
# 3. line 3 of 5,000 bytes; line 2 with a NUL byte
bwlog("huge", [good[0], good[1], good[2] + " " * 5000])
bwlog("nul", [good[0], good[1][:3] + "\0" + good[1][3:], good[2]])
# 4/5. the per-I/O latency logs of small.json: blank lines, then a bad line
lat = open(os.path.join(os.environ["ROOT"], "samples/fio/small_lat.1.log")).read().split("\n")
for name, nl in (("lf", "\n"), ("crlf", "\r\n")):
    os.makedirs(name)
    l = lat[:2] + [""] + lat[2:3] + ["", ""] + lat[3:6] + ["5, abc, 0, 4096, 0, 0"] + lat[6:]  # bad: line 10
    open(name + "/small_lat.1.log", "w", newline="").write(nl.join(l))
    json.dump(base, open(name + "/small.json", "w"))
    open(name + "/small_lat.2.log", "w").write(open(os.path.join(os.environ["ROOT"], "samples/fio/small_lat.2.log")).read())
# 5. a time-based job (measure 1 s) whose log holds a 2^63-1 ns record at line 7
os.makedirs("big")
j = copy.deepcopy(base)
j["global options"].update({"time_based": "1", "runtime": "1"})
json.dump(j, open("big/small.json", "w"))
l = lat[:6] + ["5, 9223372036854775807, 0, 4096, 0, 0"] + lat[6:]
open("big/small_lat.1.log", "w").write("\n".join(l))
open("big/small_lat.2.log", "w").write(open(os.path.join(os.environ["ROOT"], "samples/fio/small_lat.2.log")).read())
PY

bwcase() { # NAME WANT...: the import of bw.json with NAME as its log fails with messages WANT
  name=$1; shift
  rm -rf run && mkdir -p "d-$name" && cp bw.json "d-$name/" && cp "$name" "d-$name/bw_bw.1.log"
  "$SSDREV" import fio "d-$name/bw.json" --out run >out 2>err
  rc=$?
  [ $rc -eq 1 ] || fail "$name: exit $rc, want 1 ($(cat out err))"
  for w in "$@"; do grep -q -- "$w" err || fail "$name: message lacks '$w': $(cat err)"; done
  [ ! -e run ] || fail "$name: a failed import left the run"
}
# ---- 1. the long line is one line, and bad
bwcase long "bw_bw.1.log' line 2: expected 'time_ms, KiB/s, ddir, bs'"
# ---- 2. a long valid line is read whole; the bad one is line 4
bwcase pad "bw_bw.1.log' line 4:"
# ---- 3. overlong, NUL
bwcase huge "bw_bw.1.log' line 3: longer than 4095 bytes"
bwcase nul "bw_bw.1.log' line 2: a NUL byte"
# the good lines alone import: 3 windows, none of 99,999,999 KiB/s
mkdir ok && cp bw.json ok/ && head -n 3 pad | sed 's/ *$//' >ok/bw_bw.1.log
"$SSDREV" import fio ok/bw.json --out okrun >out 2>err || fail "good bandwidth log: $(cat err)"
python3 - <<'PY' || exit 1
import json, sys
t = json.load(open("okrun/manifest.json"))["tests"][0]["bw_trace"]
if len(t["mb_s"]) != 3 or max(t["mb_s"]) > 500: sys.exit("import_fio_lines: FAIL: trace %s" % t["mb_s"])
PY

# ---- 4. blank lines count, LF or CR LF
for k in lf crlf; do
  "$SSDREV" import fio "$k/small.json" --out "run-$k" >out 2>err
  rc=$?
  [ $rc -eq 1 ] || fail "$k: exit $rc, want 1 ($(cat out err))"
  grep -q "small_lat.1.log' line 10: column 2" err || fail "$k: wrong line: $(cat err)"
done

# ---- 5. a record the analysis refuses is refused at import
"$SSDREV" import fio big/small.json --out bigrun >out 2>err
rc=$?
[ $rc -eq 1 ] || fail "2^63-1 ns record: exit $rc, want 1 ($(cat out err))"
grep -q "small_lat.1.log' line 7: it completes at .* far beyond the test's duration" err \
  || fail "2^63-1 ns record: $(cat err)"
[ ! -e bigrun ] || fail "2^63-1 ns record: a failed import left the run"
# without that line the same job imports and analyzes
sed -i '7d' big/small_lat.1.log
"$SSDREV" import fio big/small.json --out bigrun >out 2>err || fail "time-based job: $(cat err)"
"$SSDREV" analyze bigrun --quiet >out 2>err || fail "analyze of the time-based job: $(cat err)"
exit 0
