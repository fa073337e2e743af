#!/bin/sh
# A read-only archive that was never analyzed (issue 26 item 22b): `analyze`,
# `report` and `compare` analyze it in memory, say so, and write nothing into it
# (they failed on the lock file). Read-only two ways: a read-only bind
# mount (EROFS; needs `unshare -m`, else that part is skipped) and a
# directory the user may not write (EACCES; as root the tests drop to
# nobody with setpriv, since chmod does not stop root) — once with the lock
# file left by the writer (not writable either) and once with a writable
# one (the lock is taken, analysis.json cannot be made).
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'umount "$T/ro" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
chmod 755 "$T"
mk() {
  "$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --out "$T/$1" --model PM981 --label "RO $1" >/dev/null \
    2>"$T/e" || fail "import: $(cat "$T/e")"
  [ -e "$T/$1/analysis.json" ] && fail "import wrote analysis.json"
  snap "$1" >"$T/$1.before"
}
# the run's files but its lock (a writable one gets the PID of its last holder)
snap() { ls -la --time-style=full-iso "$T/$1" | sed 1d | grep -Ev ' (\.|\.\.|\.lock)$' | sort; }
unchanged() { snap "$1" | cmp -s - "$T/$1.before" || fail "$2: the archive changed: $(ls -la "$T/$1")"; }
# check NAME CMD...: analyze and report of $T/NAME, run as CMD
check() {
  name=$1; shift
  "$@" "$SSDREV" analyze "$T/$name" >"$T/out" 2>"$T/e" || fail "$name: analyze failed: $(cat "$T/e")"
  grep -q "note: '$T/$name' is read-only (.*): analyzed in memory, analysis.json not written" "$T/e" \
    || fail "$name: analyze note: $(cat "$T/e")"
  grep -q "CDM" "$T/out" || fail "$name: no tables: $(cat "$T/out")"
  "$@" "$SSDREV" analyze "$T/$name" --csv - --quiet >"$T/csv" 2>"$T/e" || fail "$name: analyze --csv: $(cat "$T/e")"
  head -1 "$T/csv" | grep -q '^"test","kind","op",' || fail "$name: csv: $(head -3 "$T/csv")"
  mkdir -p "$T/rep" && chmod 777 "$T/rep"
  "$@" "$SSDREV" report -t "$R/templates/single.en.md" -o "$T/rep/$name" --format md "$T/$name" >/dev/null 2>"$T/e" \
    || fail "$name: report failed: $(cat "$T/e")"
  grep -q "note: analyzed '$T/$name' in memory" "$T/e" || fail "$name: report note: $(cat "$T/e")"
  grep -q "RO $name" "$T/rep/$name/review.md" || fail "$name: report lacks the run"
  "$@" "$SSDREV" compare "$T/$name" --out "$T/rep/c-$name" --format csv >"$T/out" 2>"$T/e" \
    || fail "$name: compare failed: $(cat "$T/e")"
  grep -q "compared 1 run" "$T/out" || fail "$name: compare: $(cat "$T/out" "$T/e")"
  unchanged "$name" "$name"
}

ran=0
# 1. a read-only mount (EROFS), as root in a private mount namespace
mk ro
if command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
  cat >"$T/ro.sh" <<'SH'
set -e
mount --bind "$1" "$1"
mount -o remount,bind,ro "$1"
shift
exec "$@"
SH
  inro() { unshare -m sh "$T/ro.sh" "$T/ro" "$@"; }
  if inro touch "$T/ro/x" 2>/dev/null; then
    echo "skip: the bind mount is not read-only here"
  elif inro true 2>/dev/null; then
    check ro inro
    ran=1
  else
    echo "skip: no read-only bind mount here (mount refused)"
  fi
else
  echo "skip: no unshare -m here (a read-only mount needs a mount namespace)"
fi

# 2. a directory this user may not write (EACCES), as nobody
if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null 2>&1 || { [ $ran = 1 ] && exit 0; echo "skip: no setpriv to drop root"; exit 77; }
  AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
  [ -r "$SSDREV" ] && $AS test -x "$SSDREV" || { [ $ran = 1 ] && exit 0; echo "skip: nobody cannot run $SSDREV"; exit 77; }
else
  AS=
fi
mk noperm
chmod 555 "$T/noperm" "$T/noperm/logs"
mk lockok
chmod 666 "$T/lockok/.lock"
chmod 555 "$T/lockok" "$T/lockok/logs"
snap noperm >"$T/noperm.before"
snap lockok >"$T/lockok.before"
check noperm $AS
check lockok $AS
exit 0
