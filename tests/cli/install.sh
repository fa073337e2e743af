#!/bin/sh
# `make install` makes an ssdrev that works from any directory: installed
# into a scratch PREFIX (built with that PREFIX, so the data directory
# compiled in is the scratch one), it runs a short simulated review, its
# analysis and a report from another directory with no SSDREV_* variable
# set; $SSDREV_DATA overrides the data directory; ssdrev(1) formats with
# `man -l` and has a section for every command; `make uninstall` removes
# every file install made; with DESTDIR the files go under it while the
# binary looks in PREFIX. PREFIX and DESTDIR may hold spaces, ';', '$' and
# quotes; uninstall removes only what install's manifest names, never a
# file the user put there nor one outside DESTDIR (issue 26).
set -u
fail() { echo "install: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=$(cd "${SSDREV_ROOT:-.}" && pwd)
B=$(dirname "$S")
[ -f "$B/libssdrev.a" ] && [ -d "$B/obj" ] || { echo "skip: no optimized build in $B (make test builds one)"; exit 77; }
command -v make >/dev/null 2>&1 || { echo "skip: make not installed"; exit 77; }
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
# An install that fails before its manifest leaves nothing the manifest does
# not name (it once left the binary and the data files, and no manifest
# for uninstall to go by): a data file that is not there fails it after
# the binary, a data file and their directories were made.
F="$T/failed"
( cd "$R" && sh scripts/install.sh install "" "$F" "$F/share/ssdrev" "$F/share/man" "$S" profiles/review.json \
  no/such.json ) >"$T/fi.out" 2>"$T/fi.err" && fail "an install of a missing data file succeeded"
grep -q "the install failed; .*install-manifest.txt names what it made" "$T/fi.err" || fail "failed install: $(cat "$T/fi.err")"
for l in "f $F/bin/ssdrev" "f $F/share/ssdrev/profiles/review.json" "d $F/share/ssdrev/no" "d $F"; do
  grep -qxF "$l" "$F/share/ssdrev/install-manifest.txt" || fail "the failed install's manifest lacks '$l'"
done
sh "$R/scripts/install.sh" uninstall "" "$F" "$F/share/ssdrev" "$F/share/man" >/dev/null 2>"$T/fi.err" \
  || fail "uninstall after a failed install: $(cat "$T/fi.err")"
[ -e "$F" ] && fail "uninstall after a failed install left: $(find "$F" | head -5)"
# where not even the manifest can be written (mktemp fails), the install
# removes what it made itself
mkdir "$T/nomk" && printf '#!/bin/sh\nexit 1\n' >"$T/nomk/mktemp" && chmod +x "$T/nomk/mktemp"
( cd "$R" && PATH="$T/nomk:$PATH" sh scripts/install.sh install "" "$F" "$F/share/ssdrev" "$F/share/man" "$S" \
  profiles/review.json ) >"$T/fi.out" 2>"$T/fi.err" && fail "an install without its manifest succeeded"
grep -q "no manifest could be written: removed what it made" "$T/fi.err" || fail "no-manifest install: $(cat "$T/fi.err")"
[ -e "$F" ] && fail "an install without its manifest left: $(find "$F" | head -5)"
# A copy of the build tree (timestamps kept): only cli/util.c, which holds
# the data directory, is compiled again for the scratch PREFIX.
mkdir -p "$T/build" && cp -pR "$B/obj" "$B/libssdrev.a" "$T/build/" || fail "cannot copy the build tree"
[ -f "$B/datadir.stamp" ] && cp -p "$B/datadir.stamp" "$T/build/"
P="$T/prefix"
# not the make running this test: no jobserver, no -k
unset MAKEFLAGS MFLAGS MAKELEVEL
make -C "$R" --no-print-directory install PREFIX="$P" BUILD="$T/build" >"$T/make.log" 2>&1 \
  || fail "make install failed: $(tail -5 "$T/make.log")"
X="$P/bin/ssdrev"
[ -x "$X" ] || fail "no $X"
for f in profiles/review.json profiles/cdm-nvme.json templates/review.en.md templates/single.en.md \
         samples/models/pm981-256.model samples/dut/pm981-256.id-ctrl.json; do
  [ -f "$P/share/ssdrev/$f" ] || fail "share/ssdrev/$f not installed"
done
[ -f "$P/share/man/man1/ssdrev.1" ] || fail "ssdrev(1) not installed"

# From another directory, with no variable pointing at the source tree.
mkdir "$T/elsewhere" && cd "$T/elsewhere" || fail "cd"
run() { env -u SSDREV_ROOT -u SSDREV_DATA "$X" "$@"; }
run model list >"$T/models" 2>"$T/err" || fail "model list failed: $(cat "$T/err")"
grep -q "pm981-256.model" "$T/models" || fail "model list does not list the installed models: $(cat "$T/models")"
run review sim:samples/models/pm981-256.model --profile cdm-nvme --plan >/dev/null 2>"$T/err" \
  || fail "review --plan --profile cdm-nvme failed: $(cat "$T/err")"
run review sim:samples/models/pm981-256.model --out run --short --quiet --label "PM981 256GB" >/dev/null 2>"$T/err" \
  || fail "short review failed: $(cat "$T/err")"
run analyze run >"$T/analyze" 2>"$T/err" || fail "analyze failed: $(cat "$T/err")"
grep -q "RND4K Q32T1" "$T/analyze" || fail "analyze printed no CDM table"
run report -t single.en -o out run >/dev/null 2>"$T/err" || fail "report -t single.en failed: $(cat "$T/err")"
grep -q "^# PM981 256GB review" out/review.md || fail "report lacks the title: $(head -3 out/review.md)"
[ -s out/review.pdf ] || fail "no review.pdf"
run report -t templates/single.en.md -o out2 -f md run >/dev/null 2>"$T/err" \
  || fail "report -t templates/single.en.md failed: $(cat "$T/err")"
# a name found nowhere is still an error naming where it looked
run review sim:samples/models/pm981-256.model --profile nosuch --plan >/dev/null 2>"$T/err" && fail "--profile nosuch accepted"
grep -q "share/ssdrev" "$T/err" || fail "the error does not name the data directory: $(cat "$T/err")"

# $SSDREV_DATA wins over the compiled-in directory.
mkdir -p "$T/alt/samples/models" && cp "$R/samples/models/static-512.model" "$T/alt/samples/models/only-alt.model"
env -u SSDREV_ROOT SSDREV_DATA="$T/alt" "$X" model list >"$T/models2" 2>"$T/err" || fail "model list with SSDREV_DATA failed"
grep -q "only-alt.model" "$T/models2" || fail "SSDREV_DATA not used: $(cat "$T/models2")"
grep -q "pm981-256.model" "$T/models2" && fail "SSDREV_DATA listed the installed models too"

# ssdrev(1): formats without warnings, names every command of `ssdrev --help`.
if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man -l "$P/share/man/man1/ssdrev.1" >"$T/man.txt" 2>"$T/man.err" || fail "man -l failed: $(cat "$T/man.err")"
  [ -s "$T/man.err" ] && fail "man -l warned: $(cat "$T/man.err")"
  for c in $(run --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
    grep -q "^       $c " "$T/man.txt" || fail "ssdrev(1) has no entry for '$c'"
  done
  grep -q "SSDREV_DATA" "$T/man.txt" || fail "ssdrev(1) does not name SSDREV_DATA"
else
  echo "skip: man (man-db) not installed, ssdrev(1) not formatted"
fi

# DESTDIR (packaging): files go under it, the binary looks in PREFIX
mkdir "$T/dest"
make -C "$R" --no-print-directory install DESTDIR="$T/dest" PREFIX=/opt/ssdrev-test BUILD="$T/build" >"$T/make.log" 2>&1 \
  || fail "make install DESTDIR=... failed: $(tail -5 "$T/make.log")"
[ -f "$T/dest/opt/ssdrev-test/share/ssdrev/profiles/review.json" ] && [ -x "$T/dest/opt/ssdrev-test/bin/ssdrev" ] \
  || fail "DESTDIR install misplaced: $(find "$T/dest" -maxdepth 4 | head)"
env -u SSDREV_ROOT -u SSDREV_DATA "$T/dest/opt/ssdrev-test/bin/ssdrev" review sim:nosuch.model --profile nosuch --plan 2>"$T/err"
grep -q "'/opt/ssdrev-test/share/ssdrev'" "$T/err" || fail "the DESTDIR build does not look in PREFIX: $(cat "$T/err")"
make -C "$R" --no-print-directory uninstall DESTDIR="$T/dest" PREFIX=/opt/ssdrev-test BUILD="$T/build" >"$T/make.log" 2>&1 \
  || fail "make uninstall DESTDIR=... failed"
[ -z "$(find "$T/dest" -type f | head -3)" ] || fail "DESTDIR uninstall left: $(find "$T/dest" -type f | head -3)"

# Odd paths (issue 26). `make uninstall PREFIX="/d/pfx x"` once ran
# `rm -f /d/pfx x/bin/ssdrev`: with DESTDIR in the scratch dir and a second
# word that is an absolute path, canaries stand where that deleted.
mkdir -p "$T/d" "$T/canary/bin"
echo keep > "$T/d/pfx"; echo keep > "$T/canary/bin/ssdrev"
mi() { make -C "$R" --no-print-directory "$@" BUILD="$T/build" >"$T/make.log" 2>&1; }
mi install DESTDIR="$T/d" PREFIX="/pfx $T/canary" || fail "make install PREFIX='/pfx ...' failed: $(tail -5 "$T/make.log")"
[ -x "$T/d/pfx $T/canary/bin/ssdrev" ] || fail "PREFIX with a space misplaced: $(find "$T/d" -maxdepth 3 | head)"
[ -f "$T/d/pfx $T/canary/share/ssdrev/install-manifest.txt" ] || fail "no install manifest"
mi uninstall DESTDIR="$T/d" PREFIX="/pfx $T/canary" || fail "make uninstall PREFIX='/pfx ...' failed: $(tail -5 "$T/make.log")"
[ "$(cat "$T/d/pfx" 2>/dev/null)" = keep ] || fail "uninstall removed '$T/d/pfx', outside what install made"
[ "$(cat "$T/canary/bin/ssdrev" 2>/dev/null)" = keep ] || fail "uninstall removed '$T/canary/bin/ssdrev'"
[ -e "$T/d/pfx $T" ] && fail "uninstall left directories: $(find "$T/d" | head -5)"
# PREFIX with ";", "$", quotes, a backslash (make reads "$$" as "$"); the binary finds
# its data directory by that name (the C string is escaped too)
P2="$T/p x;\$\$y'q\"z\\b" P2real="$T/p x;\$y'q\"z\\b"
mi install PREFIX="$P2" || fail "make install PREFIX with ; \$ quotes failed: $(tail -5 "$T/make.log")"
[ -x "$P2real/bin/ssdrev" ] || fail "odd PREFIX misplaced: $(find "$T" -maxdepth 1 | head)"
(cd "$T/elsewhere" && env -u SSDREV_ROOT -u SSDREV_DATA "$P2real/bin/ssdrev" model list) >"$T/models3" 2>"$T/err" \
  || fail "model list from the odd PREFIX failed: $(cat "$T/err")"
grep -q "pm981-256.model" "$T/models3" || fail "the odd PREFIX's binary does not find its data: $(cat "$T/models3")"
# a file the user put in the data directory survives uninstall, and so does its directory
echo '{}' > "$P2real/share/ssdrev/profiles/mine.json"
mi uninstall PREFIX="$P2" || fail "make uninstall PREFIX with ; \$ quotes failed: $(tail -5 "$T/make.log")"
[ -f "$P2real/share/ssdrev/profiles/mine.json" ] || fail "uninstall removed a file the user put in the data directory"
left=$(find "$P2real" -type f ! -name mine.json | head -3)
[ -z "$left" ] || fail "uninstall with an odd PREFIX left: $left"
[ -e "$P2real/bin" ] && fail "uninstall left $P2real/bin"
# DESTDIR with the same characters
W="$T/w d;\$\$v'q\"z" Wreal="$T/w d;\$v'q\"z"
mi install DESTDIR="$W" PREFIX=/opt/ssdrev-test || fail "make install with an odd DESTDIR failed: $(tail -5 "$T/make.log")"
[ -x "$Wreal/opt/ssdrev-test/bin/ssdrev" ] || fail "odd DESTDIR misplaced"
# a manifest naming a file outside the install directories: nothing is removed
echo keep > "$T/outside"
printf 'f %s\n' "$T/outside" >> "$Wreal/opt/ssdrev-test/share/ssdrev/install-manifest.txt"
mi uninstall DESTDIR="$W" PREFIX=/opt/ssdrev-test && fail "uninstall accepted a manifest line outside PREFIX"
grep -q "not under PREFIX" "$T/make.log" || fail "no reason for the refused manifest: $(tail -3 "$T/make.log")"
[ -f "$T/outside" ] && [ -x "$Wreal/opt/ssdrev-test/bin/ssdrev" ] || fail "a refused uninstall removed files"
grep -v "^f $T/outside\$" "$Wreal/opt/ssdrev-test/share/ssdrev/install-manifest.txt" > "$T/m" \
  && cat "$T/m" > "$Wreal/opt/ssdrev-test/share/ssdrev/install-manifest.txt"
mi uninstall DESTDIR="$W" PREFIX=/opt/ssdrev-test || fail "make uninstall with an odd DESTDIR failed: $(tail -5 "$T/make.log")"
[ -z "$(find "$Wreal" -type f | head -3)" ] || fail "odd DESTDIR uninstall left: $(find "$Wreal" -type f | head -3)"
[ -d "$Wreal" ] || fail "uninstall removed DESTDIR itself"
# no manifest: nothing removed, and said so
mi uninstall PREFIX="$T/never" && fail "uninstall without a manifest succeeded"
grep -q "no install manifest" "$T/make.log" || fail "no-manifest message: $(tail -3 "$T/make.log")"

cd "$R" || fail "cd"
make -C "$R" --no-print-directory uninstall PREFIX="$P" BUILD="$T/build" >"$T/make.log" 2>&1 || fail "make uninstall failed"
left=$(find "$P" -type f 2>/dev/null | head -5)
[ -z "$left" ] || fail "uninstall left: $left"
[ -d "$P/share/ssdrev" ] && fail "uninstall left the data directory"
exit 0
