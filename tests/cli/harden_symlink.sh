#!/bin/sh
# harden_symlink: a symbolic link planted where an output goes — every file
# of a run archive (logs/NAME.ssdlog, manifest.json, analysis.json,
# sim-state.bin, .lock), the archive directory and its logs/ directory,
# report outputs (review.md/.html/.pdf, charts/NAME.png, charts/), compare
# outputs (compare.md/.csv/.pdf, runs.csv), analyze --csv and
# --export-lat32, chart --out,
# log synth, import --out — is refused: the command exits non-zero with
# "refusing to write 'PATH': it is a symbolic link" (or "its directory")
# naming the path, and the file the link points at keeps its bytes (a
# linked-to directory stays empty).
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "harden_symlink: FAIL: $*" >&2; exit 1; }
MODEL="sim:$ROOT/tests/fuzz/tiny.model"
D="$ROOT/tests/data/analysis"

printf 'sentinel: must never change\n' >"$T/sentinel"
SUM=$(cksum <"$T/sentinel")
mkdir "$T/elsewhere"
n=0

# refused WHAT PATH RC: the last command (stderr in $T/err) exited RC
refused() {
  n=$((n + 1))
  grep -q 'runtime error\|AddressSanitizer' "$T/err" && fail "$1: sanitizer report: $(head -n 3 "$T/err")"
  [ "$3" -ne 0 ] || fail "$1: exit 0 with a link at '$2'"
  grep -F "refusing to write" "$T/err" | grep -qF "'$2'" \
    || fail "$1: the refusal does not name '$2': $(cat "$T/err")"
  [ "$(cksum <"$T/sentinel")" = "$SUM" ] || fail "$1: the link's target was written"
  [ -z "$(ls -A "$T/elsewhere")" ] || fail "$1: files written into the linked directory: $(ls -A "$T/elsewhere")"
  [ -L "$2" ] || fail "$1: the link at '$2' was replaced"
}

runq() { # OUT [NAME]: a tiny simulated run
  "$SSDREV" run "$MODEL" --out "$1" --rw randread --bs 4k --iodepth 2 --number-ios 500 --quiet ${2:+--name "$2"}
}

R="$T/run"
runq "$R" a >/dev/null 2>"$T/err" || fail "first run: $(cat "$T/err")"

# ---- inside a run archive
ln -s "$T/sentinel" "$R/logs/b.ssdlog"
runq "$R" b >/dev/null 2>"$T/err"; refused "run: log" "$R/logs/b.ssdlog" $?
rm "$R/logs/b.ssdlog"

ln -s "$T/sentinel" "$R/analysis.json"
"$SSDREV" analyze "$R" >/dev/null 2>"$T/err"; refused "analyze: analysis.json" "$R/analysis.json" $?
rm "$R/analysis.json"

# the manifest: a valid copy outside is the sentinel (it is read through
# the link, never written)
cp "$R/manifest.json" "$T/sentinel.m"
mv "$T/sentinel" "$T/sentinel.s" && cp "$T/sentinel.m" "$T/sentinel" && SUM0=$SUM && SUM=$(cksum <"$T/sentinel")
mv "$R/manifest.json" "$T/manifest.orig" && ln -s "$T/sentinel" "$R/manifest.json"
runq "$R" c >/dev/null 2>"$T/err"; refused "run: manifest.json" "$R/manifest.json" $?
rm "$R/manifest.json" && mv "$T/manifest.orig" "$R/manifest.json"
mv "$T/sentinel.s" "$T/sentinel" && SUM=$SUM0

ln -s "$T/sentinel" "$R/.lock.new" && mv "$R/.lock.new" "$R/.lock"
runq "$R" d >/dev/null 2>"$T/err"; refused "run: .lock" "$R/.lock" $?
rm "$R/.lock"

mv "$R/logs" "$T/logs.orig" && ln -s "$T/elsewhere" "$R/logs"
runq "$R" e >/dev/null 2>"$T/err"; refused "run: logs/ directory" "$R/logs" $?
rm "$R/logs" && mv "$T/logs.orig" "$R/logs"

ln -s "$T/elsewhere" "$T/linkrun"
runq "$T/linkrun" >/dev/null 2>"$T/err"; refused "run: the archive directory" "$T/linkrun" $?
"$SSDREV" import cdm "$ROOT/samples/cdm/pm981-fob-cdm8.txt" --out "$T/linkrun" >/dev/null 2>"$T/err"
refused "import: the archive directory" "$T/linkrun" $?

# the simulated drive's state of a resumed review: read through the link
# (a valid copy is the sentinel), never written
"$SSDREV" review "$MODEL" --out "$T/rev" --short --step purge --quiet >/dev/null 2>"$T/err" \
  || fail "review --step purge: $(cat "$T/err")"
mv "$T/sentinel" "$T/sentinel.s" && cp "$T/rev/sim-state.bin" "$T/sentinel" && SUM0=$SUM && SUM=$(cksum <"$T/sentinel")
rm "$T/rev/sim-state.bin" && ln -s "$T/sentinel" "$T/rev/sim-state.bin"
"$SSDREV" review "$MODEL" --out "$T/rev" --short --step purge --quiet >/dev/null 2>"$T/err"
refused "review: sim-state.bin" "$T/rev/sim-state.bin" $?
mv "$T/sentinel.s" "$T/sentinel" && SUM=$SUM0

# ---- files the user names
ln -s "$T/sentinel" "$T/out.csv"
"$SSDREV" analyze "$R" --csv "$T/out.csv" >/dev/null 2>"$T/err"; refused "analyze --csv" "$T/out.csv" $?
ln -s "$T/sentinel" "$T/lat.bin"
"$SSDREV" analyze --log "$R/logs/a.ssdlog" --export-lat32 "$T/lat.bin" >/dev/null 2>"$T/err"
refused "analyze --export-lat32" "$T/lat.bin" $?
ln -s "$T/sentinel" "$T/fill.svg"
"$SSDREV" chart fill "$D/pm981" --out "$T/fill.svg" >/dev/null 2>"$T/err"; refused "chart --out" "$T/fill.svg" $?
ln -s "$T/sentinel" "$T/synth.ssdlog"
"$SSDREV" log synth "$T/synth.ssdlog" --records 100 >/dev/null 2>"$T/err"; refused "log synth" "$T/synth.ssdlog" $?
"$SSDREV" log synth "$T/synth.ssdlog" --records 100 --force >/dev/null 2>"$T/err"
refused "log synth --force" "$T/synth.ssdlog" $?

# ---- report outputs
for f in md html pdf; do
  mkdir -p "$T/rep-$f"
  ln -s "$T/sentinel" "$T/rep-$f/review.$f"
  "$SSDREV" report -t templates/review.en.md -o "$T/rep-$f" --dpi 30 -f "$f" "$D/pm981" "$D/pm981a" \
    >/dev/null 2>"$T/err"
  refused "report: review.$f" "$T/rep-$f/review.$f" $?
done
mkdir -p "$T/rep-c/charts" && ln -s "$T/sentinel" "$T/rep-c/charts/fill.png"
"$SSDREV" report -t templates/review.en.md -o "$T/rep-c" --dpi 30 -f md "$D/pm981" "$D/pm981a" >/dev/null 2>"$T/err"
refused "report: charts/fill.png" "$T/rep-c/charts/fill.png" $?
mkdir -p "$T/rep-d" && ln -s "$T/elsewhere" "$T/rep-d/charts"
"$SSDREV" report -t templates/review.en.md -o "$T/rep-d" --dpi 30 -f md "$D/pm981" "$D/pm981a" >/dev/null 2>"$T/err"
refused "report: charts/ directory" "$T/rep-d/charts" $?
ln -s "$T/elsewhere" "$T/rep-e"
"$SSDREV" report -t templates/review.en.md -o "$T/rep-e" --dpi 30 -f md "$D/pm981" "$D/pm981a" >/dev/null 2>"$T/err"
refused "report: the output directory" "$T/rep-e" $?

# ---- compare outputs
for spec in compare.md:md compare.csv:csv runs.csv:csv compare.pdf:pdf; do
  f=${spec%%:*} fmt=${spec#*:}
  mkdir -p "$T/cmp-$f"
  ln -s "$T/sentinel" "$T/cmp-$f/$f"
  "$SSDREV" compare "$D/pm981" "$D/pm981a" --out "$T/cmp-$f" --format "$fmt" >/dev/null 2>"$T/err"
  refused "compare: $f" "$T/cmp-$f/$f" $?
done

[ "$n" -eq 23 ] || fail "ran $n of 23 cases"
exit 0
