#!/bin/sh
# ssdrev run on a regular file: archive, manifest, log, appended tests,
# summary, usage errors and the file-overwrite rule.
set -u
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
fail() { echo "run_basic: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}

"$S" run --help | grep -q -- '--rwmixread' || fail "--help does not list --rwmixread"

out=$("$S" run "$D/t.img" --create-size 8M --out "$D/run" --rw randrw --rwmixread 70 --runtime 200ms --iodepth 4 --quiet) \
  || fail "first run failed"
echo "$out" | grep -q 'IOPS=' || fail "no IOPS in the summary: $out"
echo "$out" | grep -q 'MiB/s' || fail "no MiB/s in the summary: $out"
[ -s "$D/run/logs/job.ssdlog" ] || fail "no log written"
python3 - "$D/run/manifest.json" <<'PY' || fail "manifest check failed"
import json, sys
m = json.load(open(sys.argv[1]))
t = m["tests"][0]
assert m["target"]["kind"] == "file" and m["target"]["size_bytes"] == 8 << 20, m["target"]
assert m["simulated"] is False
assert t["name"] == "job" and t["status"] == "complete" and t["kind"] == "job", t
assert t["log"] == "logs/job.ssdlog"
p = t["params"]
assert p["pattern"] == "rand" and p["read_pct"] == 70 and p["qd"] == 4 and p["measure_ns"] == 200000000, p
assert p["engine"] in ("io_uring", "psync")
r = t["result"]
assert r["ios"] > 0 and r["errors"] == 0 and r["iops"] > 0 and r["mb_s"] > 0, r
assert abs(r["bytes"] - r["ios"] * 4096) == 0
PY

# A second run appends job.2; a size-based sequential fill moves exactly the span.
"$S" run "$D/t.img" --out "$D/run" --rw write --bs 64k --runtime 0 --quiet --no-log >/dev/null || fail "second run failed"
python3 - "$D/run/manifest.json" <<'PY' || fail "appended test check failed"
import json, sys
t = json.load(open(sys.argv[1]))["tests"]
assert [x["name"] for x in t] == ["job", "job.2"], t
assert "log" not in t[1]
assert t[1]["result"]["bytes"] == 8 << 20, t[1]["result"]
PY
[ ! -e "$D/run/logs/job.2.ssdlog" ] || fail "--no-log wrote a log"
"$S" run "$D/t.img" --out "$D/run" --name job --quiet >/dev/null 2>&1 && fail "a duplicate --name was accepted"

# Usage errors exit 2 and name the option.
for bad in "--bs 0" "--bs 4q" "--rw sideways" "--iodepth 0" "--rwmixread 101" "--runtime fast" "--engine spdk" "--wait spin" "--bogus"; do
  # shellcheck disable=SC2086
  err=$("$S" run "$D/t.img" --out "$D/x" $bad 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || fail "'$bad' exited $rc, not 2"
  opt=${bad%% *}
  echo "$err" | grep -q -- "$opt" || fail "'$bad': error does not name $opt: $err"
done
"$S" run "$D/t.img" 2>/dev/null; [ $? -eq 2 ] || fail "missing --out did not exit 2"

# A file ssdrev did not create is not written without --force.
printf 'keep me' >"$D/mine.img"
truncate -s 1M "$D/mine.img"
err=$("$S" run "$D/mine.img" --out "$D/run2" --rw write --runtime 0 --quiet 2>&1); rc=$?
[ $rc -eq 1 ] || fail "writing a foreign file exited $rc, not 1"
echo "$err" | grep -q "did not create" || fail "no reason given: $err"
head -c 7 "$D/mine.img" | grep -q 'keep me' || fail "the foreign file was modified"

# --number-ios alone runs exactly N I/Os, even more than one pass over the
# region (300 x 4 KiB over 1 MiB) and without the default 5 s time limit.
"$S" run "$D/n.img" --create-size 1M --out "$D/n" --number-ios 300 --iodepth 4 --quiet >/dev/null || fail "--number-ios run failed"
python3 - "$D/n/manifest.json" <<'PY' || fail "--number-ios did not run exactly 300 I/Os"
import json, sys
r = json.load(open(sys.argv[1]))["tests"][0]["result"]
assert r["ios"] == 300 and r["bytes"] == 300 * 4096, r
PY
"$S" run "$D/mine.img" --out "$D/run2" --rw write --runtime 0 --quiet --force >/dev/null || fail "--force did not allow the write"

# --wait is recorded with the job; every mode runs (auto is the default).
for w in poll sleep; do
  "$S" run "$D/w.img" --create-size 1M --out "$D/w-$w" --number-ios 500 --iodepth 8 --wait $w --quiet >/dev/null \
    || fail "--wait $w failed"
  python3 - "$D/w-$w/manifest.json" "$w" <<'PY' || fail "--wait $w not recorded"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
r = t["result"]
assert t["params"]["wait"] == sys.argv[2] and r["ios"] == 500, t
# the result says how the threads really waited: psync (no io_uring) cannot poll
assert r["wait"] == (sys.argv[2] if r["engine"] == "io_uring" else "sleep"), r
PY
done
python3 - "$D/n/manifest.json" <<'PY' || fail "the default wait mode is not auto, or auto does not sleep"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
assert t["params"]["wait"] == "auto" and t["params"]["submit"] == "each", t
# auto sleeps, as fio does (polling is asked for with --wait poll)
assert t["result"]["wait"] == "sleep", t["result"]
if t["result"]["engine"] == "io_uring":
    assert t["result"]["submit"] == "each", t["result"]
PY
# --submit batch is recorded and runs; a bad mode and iopoll without O_DIRECT are refused.
"$S" run "$D/w.img" --out "$D/sb" --number-ios 500 --iodepth 8 --submit batch --quiet >/dev/null || fail "--submit batch failed"
python3 - "$D/sb/manifest.json" <<'PY' || fail "--submit batch not recorded"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
assert t["params"]["submit"] == "batch" and t["result"]["ios"] == 500, t
assert t["result"].get("submit", "") == ("batch" if t["result"]["engine"] == "io_uring" else ""), t["result"]
PY
"$S" run "$D/w.img" --out "$D/sx" --number-ios 10 --submit later --quiet >/dev/null 2>&1; rc=$?
[ $rc = 2 ] || fail "--submit later: exit $rc, want 2"
err=$("$S" run "$D/w.img" --out "$D/ip" --number-ios 10 --wait iopoll --buffered --quiet 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] || fail "--wait iopoll --buffered: exit $rc, want 1"
echo "$err" | grep -q "O_DIRECT" || fail "--wait iopoll --buffered: no reason given: $err"

exit 0
