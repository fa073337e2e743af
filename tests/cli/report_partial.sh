#!/bin/sh
# report_partial: a review over runs that lack parts (an imported
# CrystalDiskMark run: no DUT, fill, sweep or tail) renders each missing
# chart/table/value as a visible "Not measured" note and warns naming
# template:line; --strict makes it an error that writes nothing; argument
# errors (an unknown drive) fail either way.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "report_partial: $*" >&2; exit 1; }
D=tests/data/analysis
"$SSDREV" import cdm samples/cdm/pm981-fob-cdm8.txt --out "$T/cdm" >/dev/null 2>&1 || fail "import cdm"
"$SSDREV" analyze "$T/cdm" --quiet >/dev/null 2>&1 || fail "analyze the CDM import"
"$SSDREV" report -t templates/review.en.md -o "$T/out" --dpi 60 "$D/pm981" "$T/cdm" >"$T/stdout" 2>"$T/err" \
  || fail "lenient report exited $?: $(cat "$T/err")"
grep -q "warning: templates/review.en.md:[0-9]*: not measured: run '[^']*' has no fill-drive trace" "$T/err" \
  || fail "no warning naming template:line for the fill chart: $(cat "$T/err")"
n=$(grep -c "review.en.md:79: not measured" "$T/err")
[ "$n" -eq 1 ] || fail "the SLC table warning appears $n times, want once"
# the drive with a fill keeps its chart and its SLC row; the other is noted
grep -q "](charts/fill.png)" "$T/out/review.md" && [ -s "$T/out/charts/fill.png" ] \
  || fail "run 1's fill chart dropped because run 2 has no fill"
grep -q '^| pm981 .* GiB |' "$T/out/review.md" || grep -q '^| PM981[^|]* | [0-9.]* GiB |' "$T/out/review.md" \
  || fail "run 1's SLC row missing: $(grep -A4 'SLC cache, empty' "$T/out/review.md")"
grep -q '| not measured | | | | |' "$T/out/review.md" || fail "no not-measured SLC row for run 2"
grep -q "^\*Not measured: run '[^']*' has no tail-latency results (analysis tail).\*$" "$T/out/review.md" \
  || fail "no note for run 2's tail table"
grep -q '^| 99.99% | [0-9]' "$T/out/review.md" || fail "run 1's tail table dropped because run 2 has none"
# the SLC sentence needs both drives' values: without run 2's it is left out
# (issue 27: never "n/a" in a sentence) and the finding of run 1's cache stands in
grep -q "caches are about" "$T/out/review.md" && fail "the two-drive SLC sentence is written with run 2's values missing"
grep -q "^- \*\*[^*]*:\*\* The SLC cache ends after about 11.2 GiB written" "$T/out/review.md" \
  || fail "run 1's cache finding not rendered: $(grep -n 'SLC' "$T/out/review.md")"
grep -v '^|' "$T/out/review.md" | grep -n 'n/a' && fail "a sentence holds n/a"
# an author's unguarded {{value}} the run lacks still reads n/a, its unit dropped
printf '# t\n\nabout {{value fill.slc.max_gib drive=2 fmt=%%.0f}} GiB.\n' >"$T/v.md"
"$SSDREV" report -t "$T/v.md" -o "$T/v" -f md "$D/pm981" "$T/cdm" >/dev/null 2>&1 || fail "v.md"
grep -q "^about n/a\.$" "$T/v/review.md" || fail "a missing value is not n/a (without its unit): $(cat "$T/v/review.md")"
grep -q "](charts/cdm-fob-d1.png)" "$T/out/review.md" && [ -s "$T/out/charts/cdm-fob-d1.png" ] \
  || fail "run 1's CDM chart missing"
pdftotext "$T/out/review.pdf" "$T/text" 2>/dev/null || fail "pdftotext"
grep -q "Not measured: run" "$T/text" || fail "PDF lacks the note"
# --strict: the same data gaps are errors with template:line; nothing written
"$SSDREV" report --strict -t templates/review.en.md -o "$T/strict" "$D/pm981" "$T/cdm" 2>"$T/err"; rc=$?
# (every gap is listed, one template:line each, under "N errors in template")
[ $rc -eq 1 ] && grep -q "errors in template templates/review.en.md:" "$T/err" \
  && grep -q "^  templates/review.en.md:[0-9]*: run '[^']*' has no" "$T/err" \
  || fail "--strict: exit $rc: $(cat "$T/err")"
[ ! -e "$T/strict" ] || fail "--strict left output behind"
# an unknown drive is a template error even when lenient
"$SSDREV" report -t templates/review.en.md -o "$T/one" "$T/cdm" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "review.en.md:[0-9]*: drive=2: no run" "$T/err" || fail "drive=2 of one run: exit $rc"
"$SSDREV" report --help | grep -q -- "--strict" || fail "--help does not document --strict"
exit 0
