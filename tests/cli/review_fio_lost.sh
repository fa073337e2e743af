#!/bin/sh
# test: serial
# A load host whose fio server goes away while its client runs a job: the
# server's listener is killed (kill -9) and what it forked for the
# connection hangs (SIGSTOP), as a host that crashed or lost its network
# leaves the client's connection open. `fio --client` prints nothing while
# it waits, and ssdrev waited out the job's time limit (3 s x 1.5 + the
# 120 s margin); now it probes the server's port each second and fails
# that host once the port has not answered for 3 s (bench/fio/server.c):
# in seconds, with a message naming the host, while the other host's run
# completes.
set -u
fail() { echo "review_fio_lost: $*" >&2; fio_server_logs "$D"/s?.log >&2; exit 1; }
. "$(dirname "$0")/lib/fio_servers.sh"
S=${SSDREV:?SSDREV must point at the ssdrev binary}
command -v fio >/dev/null 2>&1 || { echo "skip: fio not installed"; exit 77; }
command -v setsid >/dev/null 2>&1 || { echo "skip: setsid not installed"; exit 77; }
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
S1=; S2=
cleanup() {
  # each server leads a process group of its own (setsid): the group goes,
  # stopped members too
  for p in $S1 $S2; do kill -9 "-$p" 2>/dev/null; done
  fio_kill_in "$D" # fio's job processes leave their server's group
  wait 2>/dev/null
  rm -rf "$D"
}
trap cleanup EXIT INT TERM
cd "$D" || exit 1
cat > m.json <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "fio-lost",
 "settings": {"passes": 1, "measure_s": 3, "interval_s": 0, "region_bytes": "4MiB"},
 "steps": [{"id": "cdm", "kind": "cdm", "cells": ["RND4K Q1T1"], "ops": ["read"]}]}
JSON
P=$(fio_port_base)
fio_server_start 127.0.0.1 $P s1.log; r=$?; S1=$FIO_PID; [ $r = 0 ] || fail "server 1"
fio_server_start 127.0.0.2 $((P + 1)) s2.log; r=$?; S2=$FIO_PID; [ $r = 0 ] || fail "server 2"
printf '127.0.0.1:%s %s/t1.img\n127.0.0.2:%s %s/t2.img\n' "$P" "$D" "$((P + 1))" "$D" > hosts.txt
"$S" review --engine fio --hosts hosts.txt --out camp --profile m.json --create-size 16M > out.txt 2> err.txt &
R=$!
# once the second host's measuring job runs (its .out beside the prepare's)
i=0
while [ $i -lt 600 ]; do
  ls camp/127.0.0.2_*/fio/cdm/cdm.RND4K_Q1T1.read.p0.out >/dev/null 2>&1 && break
  sleep 0.05; i=$((i + 1))
done
[ $i -lt 600 ] || fail "the second host's job never started: $(cat out.txt err.txt)"
sleep 0.5
kill -9 "$S2"
kill -STOP "-$S2" || fail "cannot stop the server's processes"
t0=$(date +%s)
wait $R; rc=$?
took=$(( $(date +%s) - t0 ))
[ $rc = 1 ] || fail "campaign exit $rc, want 1 (a host failed): $(cat out.txt err.txt)"
echo "review_fio_lost: the campaign ended ${took} s after the server went"
# the backlog of the dead listener takes a few probes, then 3 s of no answer
[ $took -le 30 ] || fail "the lost server took ${took} s to notice (the job's limit is 124.5 s)"
grep -q '1 complete, 1 failed' out.txt || fail "summary line: $(cat out.txt)"
/usr/bin/python3 - "$D" "$((P + 1))" <<'PY' || exit 1
import json, sys
d, port = sys.argv[1], sys.argv[2]
c = json.load(open(d + "/camp/campaign.json"))
st = {h["address"]: h for h in c["hosts"]}
if st["127.0.0.1"]["status"] != "complete": sys.exit("the healthy host: %s" % st["127.0.0.1"])
k = st["127.0.0.2"]
want = "test 'cdm.RND4K_Q1T1.read.p0': the fio server of load host 127.0.0.2:%s is gone" % port
if k["status"] != "failed" or want not in k.get("error", ""): sys.exit("lost host: %s" % k)
m = json.load(open(d + "/camp/" + k["run"] + "/manifest.json"))
if m["campaign"]["status"] != "failed" or m["steps"].get("cdm") == "complete": sys.exit("lost host manifest %s" % m["steps"])
t = [x for x in m["tests"] if x["name"] == "cdm.RND4K_Q1T1.read.p0"]
if not t or t[0].get("status") != "failed" or "is gone" not in t[0].get("error", ""):
    sys.exit("lost host's test %s" % t)
PY
exit 0
