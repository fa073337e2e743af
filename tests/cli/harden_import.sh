#!/bin/sh
# harden_import: an import is built in RUN.tmp.XXXXXX and renamed to RUN
# only when complete, so a failed or killed import leaves no RUN and the
# retry succeeds:
#  1. a fio JSON whose second job's log is corrupt: exit 1 naming the log
#     line, no RUN, no staging directory; fixed, the same command imports;
#  2. a CrystalDiskMark file with no measured cell (fails after the archive
#     was begun): the same; then a good file imports into that RUN;
#  3. SIGKILL while the second log is being converted: no RUN; the retry
#     imports (the killed staging directory is left, never used again);
#  4. an existing non-empty RUN is still refused, and left as it was.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
fail() { echo "harden_import: FAIL: $*" >&2; exit 1; }
nostage() { [ -z "$(ls -d "$1".tmp.* 2>/dev/null)" ] || fail "$2: staging directory left: $(ls -d "$1".tmp.*)"; }

# ---- 1. fio: the second job's log is corrupt
mkdir "$T/f" && cp "$ROOT"/samples/fio/small* "$T/f/"
printf '0, abc, 0, 4096, 1, 0\n' >>"$T/f/small_lat.2.log"
"$SSDREV" import fio "$T/f/small.json" --out "$T/f/run" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "corrupt fio log: exit $rc, want 1"
grep -q "small_lat.2.log' line 301" "$T/err" || fail "corrupt fio log: $(cat "$T/err")"
[ ! -e "$T/f/run" ] || fail "a failed fio import left '$T/f/run': $(ls -A "$T/f/run")"
nostage "$T/f/run" "failed fio import"
cp "$ROOT/samples/fio/small_lat.2.log" "$T/f/"
"$SSDREV" import fio "$T/f/small.json" --out "$T/f/run" >/dev/null 2>"$T/err" || fail "fio retry: $(cat "$T/err")"
"$SSDREV" analyze "$T/f/run" --quiet >/dev/null 2>"$T/err" || fail "analyze after the retry: $(cat "$T/err")"
nostage "$T/f/run" "fio retry"

# ---- 2. CDM: nothing measured
mkdir "$T/c"
sed 's/[0-9][0-9.]* MB\/s \[ *[0-9.]* IOPS\]/0.000 MB\/s [      0.0 IOPS]/' "$ROOT/samples/cdm/pm981-fob-cdm8.txt" >"$T/c/zero.txt"
"$SSDREV" import cdm "$T/c/zero.txt" --out "$T/c/run" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "unmeasured CDM: exit $rc, want 1 ($(cat "$T/err"))"
grep -q "no measured CrystalDiskMark results" "$T/err" || fail "unmeasured CDM: $(cat "$T/err")"
[ ! -e "$T/c/run" ] || fail "a failed CDM import left '$T/c/run'"
nostage "$T/c/run" "failed CDM import"
"$SSDREV" import cdm "$ROOT/samples/cdm/pm981-fob-cdm8.txt" --out "$T/c/run" >/dev/null 2>"$T/err" \
  || fail "CDM retry: $(cat "$T/err")"
[ -s "$T/c/run/manifest.json" ] || fail "CDM retry made no manifest"

# ---- 3. SIGKILL midway (a 3-million-line second log takes a while)
mkdir "$T/k" && cp "$ROOT"/samples/fio/small* "$T/k/"
yes '0, 10000, 0, 4096, 0, 0' | head -n 3000000 >"$T/k/small_lat.2.log"
"$SSDREV" import fio "$T/k/small.json" --out "$T/k/run" >/dev/null 2>&1 &
PID=$!
i=0
while [ $i -lt 2000 ] && [ -z "$(ls -d "$T/k"/run.tmp.* 2>/dev/null)" ] && kill -0 "$PID" 2>/dev/null; do
  sleep 0.01
  i=$((i + 1))
done
kill -9 "$PID" 2>/dev/null
wait "$PID"
rc=$?
PID=""
[ $rc -eq 137 ] || fail "the import was not killed midway (exit $rc): the test needs a longer log"
[ ! -e "$T/k/run" ] || fail "a killed import left '$T/k/run'"
"$SSDREV" import fio "$T/k/small.json" --out "$T/k/run" >/dev/null 2>"$T/err" || fail "retry after SIGKILL: $(cat "$T/err")"
[ -s "$T/k/run/logs/fio.randrw70.2.ssdlog" ] || fail "retry after SIGKILL: no log"

# ---- 4. a non-empty RUN is refused and kept
mkdir "$T/n" && echo keep >"$T/n/mine.txt"
"$SSDREV" import cdm "$ROOT/samples/cdm/pm981-fob-cdm8.txt" --out "$T/n" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "non-empty RUN: exit $rc, want 1"
grep -q "directory exists and is not empty" "$T/err" || fail "non-empty RUN: $(cat "$T/err")"
[ "$(ls -A "$T/n")" = "mine.txt" ] && [ "$(cat "$T/n/mine.txt")" = keep ] || fail "non-empty RUN was changed"
nostage "$T/n" "non-empty RUN"
exit 0
