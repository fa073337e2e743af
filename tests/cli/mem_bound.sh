#!/bin/sh
# Memory is bounded by the machine (issue 26): a method at its documented
# maximums (QD 1024 x 16 MiB blocks in qd_scaling, thermal, cache_recovery)
# runs on a simulated drive within a small RSS (the sim engine takes one
# buffer per job, not QD x block); on a file the same kind of plan beyond
# 1/2 of MemAvailable is refused before the target is created or any I/O,
# naming the step and the numbers; `ssdrev run` refuses such a job alike.
set -u
fail() { echo "mem_bound: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=$(cd "${SSDREV_ROOT:-.}" && pwd)
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT INT TERM
cat > "$D/max.json" <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "max",
 "steps": [{"id": "qds", "kind": "qd_scaling", "block": "16MiB", "qds": [512, 1024], "workloads": ["write"]},
           {"id": "th", "kind": "thermal", "block": "16MiB", "qd": 1024, "duration_s": 1, "cool_s": 0},
           {"id": "rec", "kind": "cache_recovery", "block": "16MiB", "qd": 1024, "idles_s": [5]}]}
JSON
# 1 TiB of buffers (QD 1024 x 64 threads x 16 MiB): more than any machine's memory
cat > "$D/huge.json" <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "huge",
 "steps": [{"id": "p", "kind": "purge"},
           {"id": "ss", "kind": "steady_state", "block": "16MiB", "qd": 1024, "threads": 64, "rounds_max": 2, "window": 2}]}
JSON
M="sim:$R/samples/models/hot-512.model"
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "%M" -o "$D/rss" "$S" review "$M" --profile "$D/max.json" --out "$D/run" --short --quiet \
    >/dev/null 2>"$D/err" || fail "review of the maximal method failed: $(cat "$D/err")"
  rss=$(tail -1 "$D/rss")
  # 16 GiB of buffers before; a sanitizer build itself takes a few hundred MiB
  [ "$rss" -lt 1048576 ] || fail "the maximal method took $rss KiB of RSS"
else
  "$S" review "$M" --profile "$D/max.json" --out "$D/run" --short --quiet >/dev/null 2>"$D/err" \
    || fail "review of the maximal method failed: $(cat "$D/err")"
  echo "skip: /usr/bin/time not installed, RSS not measured"
fi
grep -q '"th": "complete"' "$D/run/manifest.json" || grep -q '"th":"complete"' "$D/run/manifest.json" \
  || fail "the thermal step did not complete: $(grep -o '"steps": {[^}]*}' "$D/run/manifest.json")"

# a file: refused before it is created and before any I/O
"$S" review "$D/f.img" --create-size 64M --profile "$D/huge.json" --out "$D/run2" --short --quiet >/dev/null 2>"$D/err"; rc=$?
[ $rc -eq 1 ] || fail "a plan over the machine's memory exited $rc: $(cat "$D/err")"
grep -q "step 'ss' needs 1024.0 GiB of I/O buffers" "$D/err" || fail "the refusal does not name the step and size: $(cat "$D/err")"
grep -q "available" "$D/err" || fail "the refusal does not name the memory available: $(cat "$D/err")"
[ -e "$D/f.img" ] && fail "the target was created for a refused plan"
[ -e "$D/run2" ] && fail "a run archive was made for a refused plan"
# --plan shows such a method and says the review would refuse it (writing nothing)
"$S" review "$D/f.img" --create-size 64M --profile "$D/huge.json" --plan >"$D/plan" 2>"$D/err" \
  || fail "--plan of a plan over the memory failed: $(cat "$D/err")"
grep -q "the review would refuse to start: .*step 'ss' needs 1024.0 GiB" "$D/plan" || fail "--plan: $(cat "$D/plan")"
[ -e "$D/f.img" ] && fail "--plan created the target"

# ssdrev run: the same rule for one job
"$S" run "$D/g.img" --create-size 64M --out "$D/run3" --rw randwrite --bs 16M --iodepth 4096 --threads 256 \
  --runtime 1 --buffered --quiet >/dev/null 2>"$D/err"; rc=$?
[ $rc -eq 1 ] || fail "run: a job over the machine's memory exited $rc: $(cat "$D/err")"
grep -q "job '.*' needs 16384.0 GiB of I/O buffers" "$D/err" || fail "run: refusal: $(cat "$D/err")"
exit 0
