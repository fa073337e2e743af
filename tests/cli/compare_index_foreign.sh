#!/bin/sh
# The compare index is ssdrev's own SQLite file (issue 26 item 21): a new
# index carries PRAGMA application_id 0x53734472; a database of another
# program at FOLDER/ssdrev-index.sqlite (another schema at user_version 1,
# or another application_id) is refused with a warning naming it and left
# byte for byte as it was; an index made before application_id existed
# (id 0, exactly ssdrev's schema) is accepted and stamped; one of an older
# ssdrev from before the id (id 0, user_version 1, its own older tables) is
# rebuilt with a note; a text file at that path is refused naming it.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
F=$T/f
IX=$F/ssdrev-index.sqlite
"$SSDREV" import cdm "$R/samples/cdm/pm981-fob-cdm8.txt" --out "$F/a1" --model PM981 >/dev/null 2>"$T/e" \
  || fail "import: $(cat "$T/e")"
sq() { /usr/bin/python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); r = None
for s in sys.argv[2:]: r = c.execute(s).fetchall()
c.commit(); print(r[0][0] if r else "")' "$IX" "$@"; }
cmpv() { "$SSDREV" compare "$F" --out "$T/o" --format csv --verbose >"$T/out" 2>"$T/e"; }

# a new index: ssdrev's application_id
cmpv || fail "compare: $(cat "$T/e")"
[ "$(sq 'PRAGMA application_id')" = 1400063090 ] || fail "application_id of a new index: $(sq 'PRAGMA application_id')"
[ "$(sq 'PRAGMA user_version')" = 5 ] || fail "user_version: $(sq 'PRAGMA user_version')"

# an index of an older ssdrev (user_version 1, without pass_values): a
# cache, rebuilt in the new schema without a word, then used (issue 25)
sq 'DROP TABLE pass_values' 'PRAGMA user_version=1' >/dev/null
cmpv || fail "compare over a version 1 index: $(cat "$T/e")"
[ -s "$T/e" ] && fail "version 1 index: unexpected message $(cat "$T/e")"
grep -q 'runs: 0 from the index' "$T/out" || fail "version 1 index used as it was: $(cat "$T/out")"
[ "$(sq 'PRAGMA user_version')" = 5 ] || fail "version 1 index not rebuilt: $(sq 'PRAGMA user_version')"
cmpv && grep -q 'runs: 1 from the index' "$T/out" || fail "rebuilt index not used: $(cat "$T/out" "$T/e")"

# an index made before the application_id: accepted and stamped, and used
sq 'PRAGMA application_id=0' >/dev/null
cmpv || fail "compare over an old index: $(cat "$T/e")"
[ -s "$T/e" ] && fail "old index: unexpected message $(cat "$T/e")"
grep -q 'runs: 1 from the index' "$T/out" || fail "old index not used: $(cat "$T/out")"
[ "$(sq 'PRAGMA application_id')" = 1400063090 ] || fail "old index not stamped"
# one made before the application_id at user_version 4 (before the time
# series' figures): stamped and rebuilt, its runs read again once
sq 'PRAGMA application_id=0' 'PRAGMA user_version=4' >/dev/null
cmpv || fail "compare over a version 4 index without id: $(cat "$T/e")"
[ -s "$T/e" ] && fail "version 4 index without id: unexpected message $(cat "$T/e")"
grep -q 'runs: 0 from the index' "$T/out" || fail "version 4 index without id used as it was: $(cat "$T/out")"
[ "$(sq 'PRAGMA user_version')" = 5 ] && [ "$(sq 'PRAGMA application_id')" = 1400063090 ] \
  || fail "version 4 index without id: not rebuilt and stamped"

# on a read-only mount an index (stamped or from before) is still read, not stamped
if unshare -m true 2>/dev/null; then
  printf 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"\n' >"$T/ro.sh"
  sq 'PRAGMA application_id=0' >/dev/null
  unshare -m sh "$T/ro.sh" "$F" "$SSDREV" compare "$F" --out "$T/o" --format csv --verbose >"$T/out" 2>"$T/e" \
    || fail "read-only index: $(cat "$T/e")"
  grep -q 'runs: 1 from the index' "$T/out" || fail "read-only old index not read: $(cat "$T/out" "$T/e")"
  [ "$(sq 'PRAGMA application_id')" = 0 ] || fail "a read-only index was stamped"
  sq 'PRAGMA application_id=1400063090' >/dev/null
else
  echo "skip: no unshare -m here (the read-only index case)"
fi

# another program's database with user_version 1: refused, unchanged
for kind in schema appid; do
  rm -f "$IX"
  if [ $kind = schema ]; then
    sq 'CREATE TABLE contacts(name TEXT, phone TEXT)' "INSERT INTO contacts VALUES('x','1')" 'PRAGMA user_version=1' >/dev/null
  else
    # ssdrev's own schema under another program's application_id
    sq 'CREATE TABLE runs(id INTEGER PRIMARY KEY)' 'PRAGMA application_id=305419896' 'PRAGMA user_version=1' >/dev/null
  fi
  sum=$(sha256sum "$IX")
  cmpv || fail "$kind: compare failed: $(cat "$T/e")"
  grep -q "not using the index '$IX': it is not an ssdrev index" "$T/e" || fail "$kind: message: $(cat "$T/e")"
  [ $kind = appid ] && { grep -q 'application_id 0x12345678' "$T/e" || fail "appid: message: $(cat "$T/e")"; }
  [ "$(sha256sum "$IX")" = "$sum" ] || fail "$kind: the foreign database was changed"
  [ "$(sq "SELECT count(*) FROM sqlite_master WHERE name IN ('figures','figure_values','tidy')")" = 0 ] \
    || fail "$kind: ssdrev's tables were added"
  grep -q 'compared 1 run' "$T/out" || fail "$kind: compare without the index: $(cat "$T/out")"
done

# an index of the first ssdrev (user_version 1, no application_id, its own
# older schema): derived from the archives, so rebuilt with a note (it was
# refused as another program's, the user left to delete it)
rm -f "$IX"
sq 'CREATE TABLE runs(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, label TEXT, model TEXT, firmware TEXT,
      state TEXT, source TEXT, created TEXT, simulated INTEGER NOT NULL DEFAULT 0, warning TEXT,
      manifest_mtime_ns INTEGER, manifest_size INTEGER, analysis_mtime_ns INTEGER, analysis_size INTEGER)' \
   'CREATE TABLE figures(id INTEGER PRIMARY KEY, family TEXT NOT NULL, test TEXT NOT NULL, metric TEXT NOT NULL,
      unit TEXT NOT NULL, headline INTEGER NOT NULL, higher_better INTEGER NOT NULL, ord INTEGER NOT NULL DEFAULT 0,
      UNIQUE(family, test, metric))' \
   'CREATE TABLE figure_values(run INTEGER NOT NULL REFERENCES runs(id), figure INTEGER NOT NULL REFERENCES
      figures(id), value REAL NOT NULL, PRIMARY KEY(run, figure)) WITHOUT ROWID' \
   'CREATE VIEW tidy AS SELECT r.name AS run, f.family, v.value FROM figure_values v JOIN runs r ON r.id = v.run
      JOIN figures f ON f.id = v.figure' \
   "INSERT INTO runs(name) VALUES('a1')" 'PRAGMA user_version=1' >/dev/null
[ "$(sq 'PRAGMA application_id')" = 0 ] || fail "the old index's application_id"
cmpv || fail "compare over the first ssdrev's index: $(cat "$T/e")"
grep -q "note: rebuilt the index '$IX': it was an older ssdrev's (schema version 1, no application_id)" "$T/e" \
  || fail "old unstamped index: message $(cat "$T/e")"
grep -q warning "$T/e" && fail "old unstamped index: a warning $(cat "$T/e")"
grep -q 'runs: 0 from the index' "$T/out" || fail "old unstamped index used as it was: $(cat "$T/out")"
[ "$(sq 'PRAGMA application_id')" = 1400063090 ] && [ "$(sq 'PRAGMA user_version')" = 5 ] \
  || fail "old unstamped index not rebuilt: $(sq 'PRAGMA application_id') $(sq 'PRAGMA user_version')"
cmpv && grep -q 'runs: 1 from the index' "$T/out" || fail "rebuilt old index not used: $(cat "$T/out" "$T/e")"
[ -s "$T/e" ] && fail "rebuilt old index: a message again $(cat "$T/e")"
# ...but a database of another program with a table called runs (and ssdrev's
# three names, other columns) is still refused, unchanged
rm -f "$IX"
sq 'CREATE TABLE runs(id INTEGER PRIMARY KEY, name TEXT, km REAL)' 'CREATE TABLE figures(id INTEGER, family TEXT)' \
   'CREATE TABLE figure_values(run INTEGER, figure INTEGER, value REAL)' 'PRAGMA user_version=1' >/dev/null
sum=$(sha256sum "$IX")
cmpv || fail "foreign runs table: compare failed: $(cat "$T/e")"
grep -q "warning: not using the index '$IX': it is not an ssdrev index" "$T/e" || fail "foreign runs: $(cat "$T/e")"
[ "$(sha256sum "$IX")" = "$sum" ] || fail "a foreign database with a runs table was changed"

# not an SQLite file at all: a warning naming it, left alone
rm -f "$IX"
printf 'my notes\n' >"$IX"
cmpv || fail "text file: compare failed: $(cat "$T/e")"
grep -q "warning: not using the index '$IX': it is not an SQLite database" "$T/e" || fail "text file: message: $(cat "$T/e")"
[ "$(cat "$IX")" = "my notes" ] || fail "text file changed"
exit 0
