#!/bin/sh
# report_errors: a bad directive fails with file:line, exit 1 and leaves no
# output behind; usage errors exit 2 naming the option; --help exits 0.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "report_errors: $*" >&2; exit 1; }
D=tests/data/analysis
printf '# Title\n\n{{chart fill}}\nText {{tabel tail}} more.\n' >"$T/bad.md"
"$SSDREV" report -t "$T/bad.md" -o "$T/out" "$D/pm981" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] || fail "bad directive: exit $rc, want 1"
grep -q "bad.md:4:" "$T/err" || fail "error does not name bad.md:4: $(cat "$T/err")"
grep -q "tabel" "$T/err" || fail "error does not name the directive"
[ ! -e "$T/out" ] || fail "output left behind: $(ls -R "$T/out")"
# several mistakes: every one is reported in one run (up to 20)
printf '# T\n{{chart nosuch}}\n\n{{tabel x}}\n\nand {{value\n' >"$T/three.md"
"$SSDREV" report -t "$T/three.md" -o "$T/out" "$D/pm981" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] || fail "three errors: exit $rc, want 1"
grep -q "3 errors in template" "$T/err" || fail "the errors are not counted: $(cat "$T/err")"
for l in 2 4 6; do grep -q "three.md:$l:" "$T/err" || fail "error at line $l not reported: $(cat "$T/err")"; done
awk 'BEGIN { for (i = 0; i < 30; i++) print "{{nosuch" i "}}" }' >"$T/many.md"
"$SSDREV" report -t "$T/many.md" -o "$T/out" "$D/pm981" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "20 or more errors in template" "$T/err" || fail "many errors: exit $rc: $(head -3 "$T/err")"
grep -q "many.md:21:" "$T/err" && fail "errors past the limit were reported"
# each directive's own usage, never another's (issue 26: {{lang}} was told
# to give "a kind or a path")
usage() {
  printf '%s\n' "$1" >"$T/u.md"
  "$SSDREV" report -t "$T/u.md" -o "$T/out" "$D/pm981" 2>"$T/err"; rc=$?
  [ $rc -eq 1 ] && grep -qF "u.md:1: $2" "$T/err" || fail "$1: exit $rc, want 1 and '$2': $(cat "$T/err")"
  grep -q "a kind or a path" "$T/err" && fail "$1: the old shared message: $(cat "$T/err")"
  [ ! -e "$T/out" ] || fail "$1: output left behind"
}
usage '{{lang}}' '{{lang}} needs a language: give {{lang ko}} or {{lang en}}'
usage '{{lang ko en}}' "unexpected argument 'en' to lang (give {{lang ko}} or {{lang en}})"
usage '{{chart}}' '{{chart}} needs a chart kind: give {{chart KIND'
usage '{{table}}' '{{table}} needs a table kind: give {{table KIND'
usage '{{value}}' '{{value}} needs a path in analysis.json: give {{value PATH'
usage '{{version 2}}' "unexpected argument '2' to version (give {{version}})"
usage '{{label x}}' "unexpected argument 'x' to label (give {{label [drive=]}})"
usage '{{lang ko x=1}}' 'lang does not take x= (give {{lang ko}} or {{lang en}})'
usage '{{version lang=ko}}' 'version does not take lang= (give {{version}})'
usage '{{table dut bogus=1}}' 'table does not take bogus= (give {{table KIND [drive=] [state=] [op=] [lang=] [labels=]}})'
printf '{{value fill.slc.max_gib fmt=%%n}}\n' >"$T/fmt.md"
"$SSDREV" report -t "$T/fmt.md" -o "$T/out" "$D/pm981" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "fmt.md:1:" "$T/err" || fail "bad fmt not rejected (exit $rc)"
"$SSDREV" report -t "$T/fmt.md" "$D/pm981" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "ssdrev report: error: --out" "$T/err" || fail "missing --out: exit $rc"
"$SSDREV" report -t "$T/fmt.md" -o "$T/o" --format md,docx "$D/pm981" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "docx" "$T/err" || fail "bad --format: exit $rc"
"$SSDREV" report -t templates/review.en.md -o "$T/o" "$T/nonexistent" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "analysis.json" "$T/err" || fail "missing run: exit $rc"
"$SSDREV" report --help >"$T/help" || fail "--help exit $?"
grep -q "usage: ssdrev report" "$T/help" || fail "--help text"
# a good English report, Markdown only: no HTML/PDF written
"$SSDREV" report -t templates/review.en.md -o "$T/en" -f md --dpi 60 "$D/pm981" "$D/pm981a" >/dev/null 2>"$T/err" \
  || fail "en report: $(cat "$T/err")"
[ -s "$T/en/review.md" ] && [ ! -e "$T/en/review.pdf" ] && [ ! -e "$T/en/review.html" ] || fail "--format md wrote other files"
grep -q "^> \*\*Simulated results:\*\*" "$T/en/review.md" || fail "no simulated notice"
grep -q "largest and smallest SLC caches are about 11 GiB and" "$T/en/review.md" || fail "value directive in prose"
exit 0
