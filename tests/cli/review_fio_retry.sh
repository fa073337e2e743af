#!/bin/sh
# test: serial
# A load host's job that fio stalls at its start (fio before 3.42: the
# log-compression worker's start-up race, commit 736c2015, leaves the job in
# workqueue_init for good; load-host jobs carry log_compression) is killed at
# its time limit and run once more: the campaign completes, the test's
# parameters say it was run again, and its log holds every I/O fio counted.
# The stall is made by a `fio` ahead of the real one in PATH that sleeps
# instead of running the first tail.read job. With a fio that has the fix
# (the wrapper says fio-3.42), the same stall fails the host after its
# limit, as any hung job does.
set -u
fail() { echo "review_fio_retry: $*" >&2; fio_server_logs "$D"/s?.log >&2; exit 1; }
. "$(dirname "$0")/lib/fio_servers.sh"
S=${SSDREV:?SSDREV must point at the ssdrev binary}
command -v fio >/dev/null 2>&1 || { echo "skip: fio not installed"; exit 77; }
command -v setsid >/dev/null 2>&1 || { echo "skip: setsid not installed"; exit 77; }
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
S1=
cleanup() {
  for p in $S1; do kill -9 "-$p" "$p" 2>/dev/null; done
  fio_kill_in "$D" # a stalled job left the server's group
  wait 2>/dev/null
  rm -rf "$D"
}
trap cleanup EXIT INT TERM
cd "$D" || exit 1
REAL=$(command -v fio)
mkdir bin
cat > bin/fio <<EOF
#!/bin/sh
# fio, but the first tail.read job of this test stalls as fio's race does
if [ "\${1:-}" = --version ] && [ -n "\${FAKE_VERSION:-}" ]; then echo "\$FAKE_VERSION"; exit 0; fi
for a in "\$@"; do
  if [ "\$a" = tail.read.fio ] && [ ! -e "$D/stalled.\${FAKE_VERSION:-old}" ]; then
    : > "$D/stalled.\${FAKE_VERSION:-old}"
    exec sleep 600
  fi
done
exec "$REAL" "\$@"
EOF
chmod +x bin/fio
cat > m.json <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "fio-retry",
 "settings": {"passes": 1, "measure_s": 0.1, "interval_s": 0, "region_bytes": "4MiB"},
 "steps": [{"id": "tail", "kind": "tail", "ios": 300, "workloads": ["read", "write"]}]}
JSON
P=$(fio_port_base)
fio_server_start 127.0.0.1 "$P" s1.log; r=$?; S1=$FIO_PID; [ $r = 0 ] || fail "server 1"
printf '127.0.0.1:%s %s/t1.img\n' "$P" "$D" > hosts.txt

# fio 3.33's race: run again once, the campaign completes
t0=$(date +%s)
PATH="$D/bin:$PATH" SSDREV_FIO_MARGIN_S=2 "$S" review --engine fio --hosts hosts.txt --out camp --profile m.json \
  --create-size 16M > out.txt 2> err.txt || fail "campaign with a stalled job: $(cat out.txt err.txt)"
[ -e stalled.old ] || fail "the wrapper never stalled a job (the test tests nothing)"
grep -q '1 complete, 0 failed' out.txt || fail "summary: $(cat out.txt)"
echo "review_fio_retry: the campaign took $(( $(date +%s) - t0 )) s with one stalled job"
/usr/bin/python3 - "$D" <<'PY' || exit 1
import json, sys, glob
d = sys.argv[1]
m = json.load(open(glob.glob(d + "/camp/127.0.0.1_*/manifest.json")[0]))
t = {x["name"]: x for x in m["tests"]}
r = t.get("tail.read")
if not r or r.get("status") != "complete": sys.exit("tail.read: %s" % r)
why = r.get("params", {}).get("fio_retry", "")
if "run again once" not in why or "3.42" not in why: sys.exit("tail.read retry note: %r" % why)
if "fio_retry" in t["tail.write"].get("params", {}): sys.exit("tail.write was run again too")
ios = sum(v.get("ios", 0) for v in r.get("fio", {}).get("ops", {}).values())
if r.get("log_source", {}).get("records") != ios or ios < 300: sys.exit("tail.read logged %s of %d I/Os" % (r.get("log_source"), ios))
PY

# a fio with the fix: no second run, the host fails at the job's limit
PATH="$D/bin:$PATH" SSDREV_FIO_MARGIN_S=2 FAKE_VERSION=fio-3.42 "$S" review --engine fio --hosts hosts.txt --out camp2 \
  --profile m.json --create-size 16M > out2.txt 2> err2.txt && fail "a stalled job on fio 3.42 passed: $(cat out2.txt)"
[ -e stalled.fio-3.42 ] || fail "the wrapper never stalled the fio-3.42 job"
grep -q '0 complete, 1 failed' out2.txt || fail "fio-3.42 summary: $(cat out2.txt err2.txt)"
/usr/bin/python3 - "$D" <<'PY' || exit 1
import json, sys
c = json.load(open(sys.argv[1] + "/camp2/campaign.json"))
h = c["hosts"][0]
if h["status"] != "failed" or "time limit" not in h.get("error", ""): sys.exit("fio-3.42 host: %s" % h)
PY
exit 0
