#!/bin/sh
# ssdrev import fio: real client/server output from two fio servers on
# loopback addresses becomes one test per host, each with its host's log.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
S1=; S2=
# each server leads a process group of its own (setsid): the group goes,
# with what the listener forked for a client
cleanup() { for p in $S1 $S2; do kill -9 "-$p" "$p" 2>/dev/null; done; fio_kill_in "$T"; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; fio_server_logs "$T"/s?.log; exit 1; }
. "$(dirname "$0")/lib/fio_servers.sh"
cd "$T" || exit 1
P=$(fio_port_base)
fio_server_start 127.0.0.1 $P s1.log; r=$?; S1=$FIO_PID; [ $r = 0 ] || fail "server 1"
fio_server_start 127.0.0.2 $((P + 1)) s2.log; r=$?; S2=$FIO_PID; [ $r = 0 ] || fail "server 2"
cat > cs.fio <<JOB
[global]
filename=$T/fio.dat
size=16M
runtime=1
time_based
ioengine=psync
bs=4k
log_avg_msec=0
write_lat_log=cs
log_offset=1

[rr]
rw=randread
JOB
timeout 60 fio --output-format=json+ --output=c.json --client=ip:127.0.0.1,$P cs.fio \
  --client=ip:127.0.0.2,$((P + 1)) cs.fio >cl.log 2>&1 || fail "fio client failed: $(cat cl.log s1.log)"
[ -s cs_lat.1.log.127.0.0.1 ] && [ -s cs_lat.1.log.127.0.0.2 ] || fail "fio wrote no per-host logs: $(ls)"
"$SSDREV" import fio c.json --out run >imp.out 2>imp.err || fail "import failed: $(cat imp.err)"
grep -q "imported 2 tests" imp.out || fail "unexpected import output: $(cat imp.out)"
/usr/bin/python3 - <<'PY' || exit 1
import json, sys
m = json.load(open("run/manifest.json"))
src = m["source"]
if not src["client_server"] or sorted(src["hosts"]) != ["127.0.0.1", "127.0.0.2"]: sys.exit("source: %s" % src)
names = sorted(t["name"] for t in m["tests"])
if names != ["fio.127.0.0.1.rr.1", "fio.127.0.0.2.rr.1"]: sys.exit("tests: %s" % names)
for t in m["tests"]:
    host = t["fio"]["hostname"]
    lines = sum(1 for _ in open("cs_lat.1.log." + host))
    if t["log_source"]["records"] != lines: sys.exit("%s: %d records, log has %d" % (t["name"], t["log_source"]["records"], lines))
    if not t["log_source"]["file"].endswith(".log." + host): sys.exit("wrong log for %s" % host)
PY
echo ok
