#!/bin/sh
# Live behaviour of ssdrev run on a regular file: the progress line on a TTY
# (phase, %, MB/s, IOPS, ETA) and none with --quiet or without a TTY; SIGTERM
# drains, finalizes and marks the test interrupted (exit 130); a SIGKILLed run
# stays "running" and `log info` / `analyze` call it incomplete; buffered vs
# O_DIRECT is recorded in the manifest and the log header; an unaligned --bs
# under O_DIRECT is refused naming --bs; psync at --iodepth 4 really keeps
# several I/Os in flight (one thread per slot) and splits a sequential pass
# without gaps or overlaps.
set -u
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$D"' EXIT INT TERM
fail() { echo "run_live: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
T="$D/t.img"

wait_running() { # RUN_DIR: until the manifest says the test runs
  i=0
  while [ $i -lt 200 ] && ! grep -q '"running"' "$1/manifest.json" 2>/dev/null; do sleep 0.05; i=$((i+1)); done
  grep -q '"running"' "$1/manifest.json" || fail "test never started in $1"
}

# ---- progress: on a TTY (script gives the command a pty), not with --quiet,
# not when stderr is not a TTY.
"$S" run "$T" --create-size 16M --out "$D/r" --runtime 100ms --quiet >/dev/null || fail "first run failed"
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
  script -qec "'$S' run '$T' --out '$D/r' --runtime 900ms" /dev/null >"$D/tty.out" 2>&1 </dev/null || fail "run on a pty failed: $(cat "$D/tty.out")"
  grep -q 'measure .*%.*MB/s.*IOPS.*ETA' "$D/tty.out" || fail "no progress line on a TTY: $(cat -v "$D/tty.out")"
  script -qec "'$S' run '$T' --out '$D/r' --runtime 500ms --quiet" /dev/null >"$D/q.out" 2>&1 </dev/null || fail "--quiet run on a pty failed"
  grep -q 'ETA' "$D/q.out" && fail "--quiet still printed progress: $(cat -v "$D/q.out")"
  grep -q 'IOPS=' "$D/q.out" || fail "--quiet run printed no summary"
  # size-based jobs show the "run" phase with a percentage of the bytes
  script -qec "'$S' run '$T' --out '$D/r' --rw read --bs 4k --iodepth 1 --engine psync --runtime 0" /dev/null >"$D/s.out" 2>&1 </dev/null \
    || fail "size-based run on a pty failed"
  grep -q 'IOPS=' "$D/s.out" || fail "size-based run printed no summary"
else
  echo "skip: script(1) unavailable, TTY progress not checked"
fi
"$S" run "$T" --out "$D/r" --runtime 600ms >"$D/notty.out" 2>"$D/notty.err" || fail "run without a TTY failed"
[ -s "$D/notty.err" ] && fail "progress written although stderr is not a TTY: $(cat -v "$D/notty.err")"

# ---- SIGTERM: drained, finalized, interrupted, exit 130
"$S" run "$T" --out "$D/term" --runtime 60s --quiet >"$D/term.out" 2>"$D/term.err" &
PID=$!
wait_running "$D/term"; sleep 0.3
kill -TERM "$PID"; wait "$PID"; rc=$?; PID=""
[ $rc -eq 130 ] || fail "SIGTERM: exit $rc, not 130: $(cat "$D/term.err")"
grep -q '"status": "interrupted"' "$D/term/manifest.json" || fail "SIGTERM: test not marked interrupted"
"$S" log info "$D/term/logs/job.ssdlog" >"$D/term.info" 2>"$D/term.ierr" || fail "SIGTERM: log does not read"
grep -q '^status *ok' "$D/term.info" || fail "SIGTERM: log not finalized"
grep -q '^test status *interrupted' "$D/term.info" || fail "log info does not show the test status: $(cat "$D/term.info")"
"$S" analyze "$D/term" >"$D/term.an" 2>&1 || fail "analyze of an interrupted run failed: $(cat "$D/term.an")"
grep -q 'warning: interrupted' "$D/term.an" || fail "analyze does not say the test was interrupted: $(cat "$D/term.an")"

# ---- SIGKILL: the manifest keeps "running"; log info and analyze say incomplete
"$S" run "$T" --out "$D/kill" --runtime 60s --quiet >/dev/null 2>&1 &
PID=$!
wait_running "$D/kill"; sleep 1.3 # past the first chunk flush (about a second)
kill -9 "$PID"; wait "$PID" 2>/dev/null; PID=""
"$S" log info "$D/kill/logs/job.ssdlog" >"$D/kill.info" 2>"$D/kill.ierr" || fail "log info failed on a killed run: $(cat "$D/kill.ierr")"
grep -q '^test status *running (incomplete' "$D/kill.info" || fail "log info does not call the killed run incomplete: $(cat "$D/kill.info")"
grep -q 'is incomplete' "$D/kill.ierr" || fail "log info does not warn about the killed run: $(cat "$D/kill.ierr")"
"$S" log info "$D/kill/logs/job.ssdlog" --json 2>/dev/null | grep -q '"test_status": "running"' || fail "log info --json lacks test_status"
"$S" analyze "$D/kill" >"$D/kill.an" 2>&1 || fail "analyze of a killed run failed: $(cat "$D/kill.an")"
grep -q 'warning: incomplete: the test never finished' "$D/kill.an" || fail "analyze does not call the killed test incomplete: $(cat "$D/kill.an")"
python3 - "$D/kill/analysis.json" <<'PY' || fail "analysis.json does not mark the killed test incomplete"
import json, sys
a = json.load(open(sys.argv[1]))
assert a["tests"]["job"]["incomplete"] is True, a["tests"]["job"]
PY
# A log copied out of its archive has no test status (and no warning).
cp "$D/term/logs/job.ssdlog" "$D/copy.ssdlog"
"$S" log info "$D/copy.ssdlog" 2>"$D/copy.err" | grep -q '^test status' && fail "a lone log shows a test status"
[ -s "$D/copy.err" ] && fail "a lone finalized log warns: $(cat "$D/copy.err")"

# ---- buffered vs O_DIRECT recorded; O_DIRECT alignment refused naming --bs
"$S" run "$T" --out "$D/io" --name direct --runtime 100ms --quiet >/dev/null || fail "O_DIRECT run failed"
"$S" run "$T" --out "$D/io" --name buf --bs 1000 --buffered --runtime 100ms --quiet >/dev/null || fail "buffered 1000-byte run failed"
err=$("$S" run "$T" --out "$D/io" --name bad --bs 1000 --runtime 100ms --quiet 2>&1); rc=$?
[ $rc -eq 1 ] || fail "--bs 1000 with O_DIRECT exited $rc, not 1"
echo "$err" | grep -q -- "--bs.*1000 is not a multiple of the .*-byte logical block" || fail "unaligned --bs error unclear: $err"
echo "$err" | grep -q -- "--buffered" || fail "unaligned --bs error does not suggest --buffered: $err"
python3 - "$D/io/manifest.json" <<'PY' || fail "manifest does not record buffered/O_DIRECT"
import json, sys
t = {x["name"]: x for x in json.load(open(sys.argv[1]))["tests"]}
assert t["direct"]["params"]["direct"] is True, t["direct"]["params"]
assert t["buf"]["params"]["direct"] is False and t["buf"]["status"] == "complete", t["buf"]
assert t["buf"]["result"]["bytes"] == t["buf"]["result"]["ios"] * 1000
PY
"$S" log info "$D/io/logs/direct.ssdlog" | grep -q '"direct":true' || fail "O_DIRECT log header lacks direct:true"
"$S" log info "$D/io/logs/buf.ssdlog" | grep -q '"direct":false' || fail "buffered log header lacks direct:false"

# ---- psync at QD4: one thread per slot, so I/Os overlap in time; a
# sequential one-pass read with 2 threads covers every block exactly once,
# each thread (queue id) in its own half.
"$S" run "$T" --out "$D/ps" --name rand --engine psync --iodepth 4 --runtime 300ms --quiet >/dev/null || fail "psync QD4 failed"
"$S" run "$T" --out "$D/ps" --name seq --engine psync --rw read --bs 64k --iodepth 4 --threads 2 --runtime 0 --quiet >/dev/null \
  || fail "psync sequential pass failed"
"$S" log dump "$D/ps/logs/rand.ssdlog" --csv >"$D/rand.csv" || fail "dump failed"
"$S" log dump "$D/ps/logs/seq.ssdlog" --csv >"$D/seq.csv" || fail "dump failed"
python3 - "$D/rand.csv" "$D/seq.csv" <<'PY' || fail "psync QD4 is not concurrent or the sequential pass is wrong"
import csv, sys
ev = []
for r in csv.DictReader(open(sys.argv[1])):
    s = int(r["submit_ns"]); ev += [(s, 1), (s + int(r["lat_ns"]), -1)]
ev.sort(key=lambda e: (e[0], e[1]))
cur = peak = 0
for _, d in ev:
    cur += d; peak = max(peak, cur)
assert 2 <= peak <= 4, "peak in flight %d" % peak
rows = list(csv.DictReader(open(sys.argv[2])))
offs = sorted(int(r["offset_bytes"]) for r in rows)
assert offs == [i * 65536 for i in range(256)], (len(offs), offs[:4])
for r in rows:
    assert int(r["queue_id"]) == int(r["offset_bytes"]) // (8 << 20), r
PY
err=$("$S" run "$T" --out "$D/ps" --engine psync --iodepth 600 --threads 2 --runtime 100ms --quiet 2>&1); rc=$?
[ $rc -eq 1 ] || fail "psync with 1200 threads exited $rc"
echo "$err" | grep -q "one thread per queue slot" || fail "psync thread limit error unclear: $err"
exit 0
