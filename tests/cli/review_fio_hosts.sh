#!/bin/sh
# test: serial
# `ssdrev review --engine fio --hosts HOSTS --out CAMPAIGN`: real fio servers
# on loopback addresses only (127.0.0.1, .2, .3, .4; each its own port and
# temporary file). One server is killed mid-campaign: that host ends failed
# (campaign.json and its manifest say so), the others complete; a host whose
# target the guard refuses fails without fio writing it; every I/O fio
# counted is in each test's log (a test of one I/O too); `ssdrev compare`
# takes the campaign directory as it is; --step reruns one step on every
# host. Bad hosts files name file:line, and
# a host that is not a loopback address is refused before anything starts.
set -u
fail() { echo "review_fio_hosts: $*" >&2; fio_server_logs "$D"/s?.log >&2; exit 1; }
. "$(dirname "$0")/lib/fio_servers.sh"
S=${SSDREV:?SSDREV must point at the ssdrev binary}
command -v fio >/dev/null 2>&1 || { echo "skip: fio not installed"; exit 77; }
command -v setsid >/dev/null 2>&1 || { echo "skip: setsid not installed"; exit 77; }
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
S1=; S2=; S3=; S4=; K3=
cleanup() {
  # each server leads a process group of its own (setsid): the group goes,
  # with what the listener forked for a client (a plain kill of the
  # listener left those serving, and hung ones listening, after the test)
  for p in $S1 $S2 $S3 $S4 $K3; do kill -9 "-$p" "$p" 2>/dev/null; done
  fio_kill_in "$D" # fio's job processes leave their server's group
  wait 2>/dev/null
  rm -rf "$D"
}
trap cleanup EXIT INT TERM
cd "$D" || exit 1
cat > m.json <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "fio-hosts",
 "settings": {"passes": 1, "measure_s": 0.1, "interval_s": 0, "region_bytes": "4MiB"},
 "steps": [{"id": "purge", "kind": "purge"},
           {"id": "cdm", "kind": "cdm", "cells": ["RND4K Q1T1"], "ops": ["read"]},
           {"id": "one", "kind": "tail", "ios": 1, "workloads": ["write"]},
           {"id": "tail", "kind": "tail", "ios": 500, "workloads": ["read", "write"]}]}
JSON

# bad hosts files: the message names file and line; nothing starts
printf '# hosts\n127.0.0.1:8765 %s/a.img\n127.0.0.2:notaport %s/b.img\n' "$D" "$D" > bad1.txt
"$S" review --engine fio --hosts bad1.txt --out c0 --profile m.json --quiet 2>e1 && fail "a bad port was taken"
grep -q 'bad1.txt:3: port' e1 || fail "bad port message: $(cat e1)"
printf '127.0.0.1 relative.img\n' > bad2.txt
"$S" review --engine fio --hosts bad2.txt --out c0 --profile m.json --quiet 2>e2 && fail "a relative target was taken"
grep -q 'bad2.txt:1: target' e2 || fail "relative target message: $(cat e2)"
printf '127.0.0.1\n' > bad3.txt
"$S" review --engine fio --hosts bad3.txt --out c0 --profile m.json --quiet 2>e3 && fail "a line without target"
grep -q 'bad3.txt:1: expected' e3 || fail "missing field message: $(cat e3)"
"$S" review --hosts bad3.txt --out c0 --profile m.json --quiet 2>e4 && fail "--hosts without --engine fio"
grep -q 'needs --engine fio' e4 || fail "engine message: $(cat e4)"
# not a loopback address: refused before any connection (the name is never resolved)
printf '127.0.0.1 %s/a.img\nloadhost.invalid:8765 /dev/loadhost-disk\n' "$D" > remote.txt
"$S" review --engine fio --hosts remote.txt --out c0 --profile m.json --create-size 8M --quiet 2>e5 \
  && fail "a remote host was run"
grep -q 'remote.txt:2: host .loadhost.invalid. is not a loopback address' e5 || fail "remote message: $(cat e5)"
[ -e c0 ] && fail "a refused campaign made its directory"
[ -e a.img ] && fail "a refused campaign created a target"

# four servers, each on its own loopback address and port
P=$(fio_port_base)
fio_server_start 127.0.0.1 $P s1.log; r=$?; S1=$FIO_PID; [ $r = 0 ] || fail "server 1"
fio_server_start 127.0.0.2 $((P + 1)) s2.log; r=$?; S2=$FIO_PID; [ $r = 0 ] || fail "server 2"
fio_server_start 127.0.0.3 $((P + 2)) s3.log; r=$?; S3=$FIO_PID; [ $r = 0 ] || fail "server 3"
fio_server_start 127.0.0.4 $((P + 3)) s4.log; r=$?; S4=$FIO_PID; [ $r = 0 ] || fail "server 4"
head -c 1048576 /dev/urandom > mine.img   # not ssdrev's: the guard refuses it
sum=$(cksum < mine.img)
cat > hosts.txt <<EOF
# load hosts of the test: loopback only
127.0.0.1:$P $D/t1.img
127.0.0.2:$((P + 1)) $D/t2.img   # second

127.0.0.3:$((P + 2)) $D/t3.img
127.0.0.4:$((P + 3)) $D/mine.img
EOF
"$S" review --engine fio --hosts hosts.txt --out camp --profile m.json --create-size 16M > out.txt 2> err.txt &
R=$!
# kill the third host's server once its review is under way (its first fio JSON)
i=0
while [ $i -lt 600 ]; do
  ls camp/127.0.0.3_*/fio/*/*.json >/dev/null 2>&1 && break
  sleep 0.05; i=$((i + 1))
done
kill -9 "$S3"; K3=$S3; S3=  # its group (what it forked) goes at the cleanup
wait $R; rc=$?
[ $rc = 1 ] || fail "campaign exit $rc, want 1 (a host failed): $(cat out.txt err.txt)"
grep -q '2 complete, 2 failed' out.txt || fail "summary line: $(cat out.txt)"
/usr/bin/python3 - "$D" "$sum" <<'PY' || exit 1
import json, sys, os
d = sys.argv[1]
c = json.load(open(d + "/camp/campaign.json"))
st = {h["address"]: h for h in c["hosts"]}
if [h["line"] for h in c["hosts"]] != [2, 3, 5, 6]: sys.exit("lines %s" % c["hosts"])
for a in ("127.0.0.1", "127.0.0.2"):
    if st[a]["status"] != "complete": sys.exit("%s: %s" % (a, st[a]))
    m = json.load(open(d + "/camp/" + st[a]["run"] + "/manifest.json"))
    if m["campaign"]["status"] != "complete" or m["method"]["fio_client"] != "ip:%s,%d" % (a, st[a]["port"]): sys.exit("%s manifest" % a)
    if not all(s == "complete" for s in m["steps"].values()): sys.exit("%s steps %s" % (a, m["steps"]))
    if not [t for t in m["tests"] if t["name"] == "tail.write" and t.get("log")]: sys.exit("%s: no tail.write log" % a)
    # every I/O fio counted is in the test's log: fio's client wrote only
    # 4/5 of the samples of a log with offsets (none of a 1-I/O test's)
    for t in m["tests"]:
        ios = sum(v.get("ios", 0) for v in t.get("fio", {}).get("ops", {}).values())
        got = t.get("log_source", {}).get("records")
        if not t.get("log") or got != ios: sys.exit("%s: test %s logged %s of fio's %d I/Os" % (a, t["name"], got, ios))
    if not [t for t in m["tests"] if t["name"] == "one.write" and t["log_source"]["records"] == 1]: sys.exit("%s: one.write" % a)
k = st["127.0.0.3"]
# the next job's client is refused, or (the kill inside a job) the probe
# finds the port dead (review_fio_lost.sh)
if k["status"] != "failed" or not ("fio exited with status" in k.get("error", "") or "is gone" in k.get("error", "")):
    sys.exit("killed host (the message says what fio did): %s" % k)
m = json.load(open(d + "/camp/" + k["run"] + "/manifest.json"))
if m["campaign"]["status"] != "failed" or "complete" == m["steps"].get("tail"): sys.exit("killed host manifest %s" % m["steps"])
g = st["127.0.0.4"]
if g["status"] != "failed" or "refusing" not in g.get("error", ""): sys.exit("guarded host: %s" % g)
if os.path.exists(d + "/camp/" + g["run"] + "/fio"): sys.exit("fio ran for the refused target")
PY
[ "$(cksum < mine.img)" = "$sum" ] || fail "the refused target changed"
# --remote-unchecked: a host given by name ("localhost", never taken for
# loopback: names are not resolved) runs with its target unchecked and
# sized from the hosts file; the purge is fio's trim on the host
head -c 2097152 /dev/urandom > r.img; truncate -s 16M r.img
printf 'localhost:%s %s/r.img 16M\n' "$P" "$D" > remote2.txt
"$S" review --engine fio --hosts remote2.txt --out rc --profile m.json --quiet 2>e6 && fail "an unchecked host ran without --remote-unchecked"
grep -q "remote2.txt:1: host 'localhost' is not a loopback address" e6 || fail "name message: $(cat e6)"
printf 'localhost:%s %s/r.img\n' "$P" "$D" > remote3.txt
"$S" review --engine fio --hosts remote3.txt --out rc --profile m.json --quiet --remote-unchecked 2>e7 && fail "a remote host without size"
grep -q "remote3.txt:1: .*give its target's size" e7 || fail "size message: $(cat e7)"
"$S" review --engine fio --hosts remote2.txt --out rc --profile m.json --quiet --remote-unchecked > o8 2>e8 \
  || fail "--remote-unchecked campaign: $(cat o8 e8)"
/usr/bin/python3 - "$D" <<'PY' || exit 1
import json, sys, glob
d = sys.argv[1]
m = json.load(open(glob.glob(d + "/rc/localhost_*/manifest.json")[0]))
t = m["target"]
if t["kind"] != "remote" or "unchecked" not in t["guard"] or t["size_bytes"] != 16 << 20: sys.exit("target %s" % t)
if not t.get("purge", "").startswith("punch"): sys.exit("purge %s" % t)
if not all(s == "complete" for s in m["steps"].values()): sys.exit("steps %s" % m["steps"])
PY
# a load host's run goes on on that host only: the same path here is
# another drive, so a plain review of it into that run is refused
rrun=$(ls -d rc/localhost_*)
"$S" review "$D/r.img" --out "$rrun" --profile m.json --quiet --force 2>e9 && fail "a load host's run resumed here"
grep -q "resume it where it ran" e9 || fail "resume message: $(cat e9)"

# --step in a campaign: the step reruns on every host's run, the others stay
h1="127.0.0.1_$P-t1.img"; h2="127.0.0.2_$((P + 1))-t2.img"
printf '127.0.0.1:%s %s/t1.img\n127.0.0.2:%s %s/t2.img\n' "$P" "$D" "$((P + 1))" "$D" > hosts2.txt
cp "camp/$h1/manifest.json" before1.json; cp "camp/$h2/manifest.json" before2.json
sleep 1.1   # the rerun's start times differ from the first run's (seconds)
# a failure names each host's status and error and the end of its fio output
# (two of many runs saw one host's job never finish: the evidence for next time)
camp_why() {
  /usr/bin/python3 -c 'import json,sys; [print(h.get("address"), h.get("status"), h.get("error", "")) for h in json.load(open(sys.argv[1]))["hosts"]]' camp/campaign.json 2>&1
  for f in $(ls -t camp/*/fio/tail/*.out 2>/dev/null | head -n 4); do echo "--- $f"; tail -n 5 "$f"; done
}
"$S" review --engine fio --hosts hosts2.txt --out camp --profile m.json --step tail --quiet > o9 2> e9 || fail "--step campaign: $(cat o9 e9; camp_why)"
grep -q '2 complete, 0 failed' o9 || fail "--step campaign summary: $(cat o9)"
/usr/bin/python3 - "$D" "$h1" "$h2" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
for i, h in ((1, sys.argv[2]), (2, sys.argv[3])):
    b = {t["name"]: t for t in json.load(open("%s/before%d.json" % (d, i)))["tests"]}
    m = json.load(open("%s/camp/%s/manifest.json" % (d, h)))
    a = {t["name"]: t for t in m["tests"]}
    if sorted(a) != sorted(b): sys.exit("%s: tests %s, were %s" % (h, sorted(a), sorted(b)))
    for n in a:
        rerun = a[n]["start"] != b[n]["start"]
        if rerun != n.startswith("tail."): sys.exit("%s: %s %s" % (h, n, "rerun" if rerun else "not rerun"))
    if not all(s == "complete" for s in m["steps"].values()) or m["campaign"]["status"] != "complete":
        sys.exit("%s: %s %s" % (h, m["steps"], m["campaign"]))
PY
cp "camp/$h1/manifest.json" after1.json
"$S" review --engine fio --hosts hosts2.txt --out camp --profile m.json --step nosuch --quiet 2> e10 && fail "--step of no step ran"
grep -q "hosts2.txt:1: --step: .* has no step 'nosuch'" e10 || fail "--step nosuch message: $(cat e10)"
cmp -s "camp/$h1/manifest.json" "$D/after1.json" || fail "a refused --step touched a host's run"

# compare takes the campaign directory as it is
"$S" compare camp --out cmp --format md,csv > cmp.out 2>&1 || fail "compare: $(cat cmp.out)"
for h in "127.0.0.1_$P-t1.img" "127.0.0.2_$((P + 1))-t2.img"; do
  grep -q "^\"$h\"" cmp/runs.csv || fail "compare lacks the run of $h: $(cat cmp/runs.csv)"
done
# what fio's start-up stall cost (fio before 3.42; review_fio_retry.sh): the
# jobs run again, for the record of a slow run
/usr/bin/python3 - "$D" <<'PY'
import json, sys, glob
for m in sorted(glob.glob(sys.argv[1] + "/camp/*/manifest.json")):
    for t in json.load(open(m))["tests"]:
        if "fio_retry" in t.get("params", {}):
            print("review_fio_hosts: %s: %s run again: %s" % (m.split("/")[-2], t["name"], t["params"]["fio_retry"]))
PY
exit 0
