#!/bin/sh
# report_pngq: chart PNGs are encoded and committed on a worker thread; a
# failure there (here: rename onto a directory) still fails the report with
# exit 1 and a message naming the chart file, and leaves no temporary file.
# Two runs give byte-identical outputs (the worker must not change bytes),
# and a chart linked twice is embedded twice from this run's pixels.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "report_pngq: $*" >&2; exit 1; }
D=tests/data/analysis
"$SSDREV" report -t templates/review.en.md -o "$T/a" --dpi 40 -f md,pdf "$D/pm981" "$D/pm981a" >/dev/null 2>"$T/err" || fail "report a: $(cat "$T/err")"
"$SSDREV" report -t templates/review.en.md -o "$T/b" --dpi 40 -f md,pdf "$D/pm981" "$D/pm981a" >/dev/null 2>"$T/err" || fail "report b: $(cat "$T/err")"
n=$(ls "$T/a/charts" | grep -c '\.png$')
[ "$n" -ge 4 ] || fail "expected at least 4 chart PNGs, got $n"
diff -r "$T/a" "$T/b" >/dev/null || fail "two runs differ: $(diff -rq "$T/a" "$T/b")"
# the first chart's PNG cannot be renamed into place: a directory is there
mkdir -p "$T/c/charts/fill.png"
"$SSDREV" report -t templates/review.en.md -o "$T/c" --dpi 40 -f md,pdf "$D/pm981" "$D/pm981a" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] || fail "blocked chart: exit $rc, want 1"
grep -q "fill.png" "$T/err" || fail "error does not name fill.png: $(cat "$T/err")"
left=$(find "$T/c" -name '*.tmp.*')
[ -z "$left" ] || fail "temporary files left: $left"
# a second link to a chart's PNG is embedded from the file, which must be
# the one this report wrote, not a stale one (the worker may still hold it)
mkdir -p "$T/d/charts"
"$SSDREV" chart tail "$D/pm981" "$D/pm981a" -o "$T/d/charts/tail.png" --dpi 30 >/dev/null 2>"$T/err" || fail "stale chart"
printf '# T\n\n{{chart tail}}\n\nAgain:\n\n![again](charts/tail.png)\n' >"$T/twice.md"
"$SSDREV" report -t "$T/twice.md" -o "$T/d" --dpi 40 -f pdf "$D/pm981" "$D/pm981a" >/dev/null 2>"$T/err" \
  || fail "report with a chart linked twice: $(cat "$T/err")"
pdfimages -list "$T/d/review.pdf" >"$T/list" 2>/dev/null || fail "pdfimages cannot read the PDF"
n=$(awk 'NR > 2 && $3 == "image" && $4 == 260' "$T/list" | wc -l)
[ "$n" -eq 2 ] || fail "want the 40-dpi tail chart (260 px wide) twice: $(cat "$T/list")"
exit 0
