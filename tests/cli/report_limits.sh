#!/bin/sh
# report_limits: templates at the edges of docs/templates.md "Limits".
# Markdown nested past 64 levels (100,000 '>', 50,000 nested '- ', deep
# emphasis and images) fails with TEMPLATE:LINE, exit 1, no crash and no
# output (the PDF writer's recursion overflowed its stack: issue 26);
# 64 levels still render. A template of 200,000 directive lines expands
# in one linear pass (it was quadratic: a strstr over the rest of the text
# per line) and every line comes out; one that expands past 32 MiB is
# refused. No timing is asserted.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "report_limits: $*" >&2; exit 1; }
D=tests/data/analysis

# too_deep NAME LINE: the report of $T/NAME.md fails naming NAME.md:LINE
too_deep() {
  "$SSDREV" report -t "$T/$1.md" -o "$T/out" "$D/pm981" >/dev/null 2>"$T/err"; rc=$?
  [ $rc -eq 1 ] || fail "$1: exit $rc, want 1: $(head -c 400 "$T/err")"
  grep -q "^ssdrev report: error: .*$1.md:$2: Markdown nested more than 64 levels deep" "$T/err" \
    || fail "$1: message does not name $1.md:$2 and the limit: $(head -c 400 "$T/err")"
  grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$T/err" && fail "$1: sanitizer report"
  [ ! -e "$T/out" ] || fail "$1: output left behind: $(ls -R "$T/out" | head)"
}
awk 'BEGIN { s = ""; for (i = 0; i < 100000; i++) s = s ">"; print s " x" }' >"$T/quotes.md"
too_deep quotes 1
awk 'BEGIN { s = ""; for (i = 0; i < 50000; i++) s = s "- "; print s "x" }' >"$T/lists.md"
too_deep lists 1
awk 'BEGIN { s = ""; for (i = 0; i < 50000; i++) s = s "*"; print s "x" s }' >"$T/emph.md"
too_deep emph 1
awk 'BEGIN { a = ""; b = ""; for (i = 0; i < 20000; i++) { a = a "!["; b = b "](p.png)" } print a "x" b }' >"$T/imgs.md"
too_deep imgs 1
# the line is the deep block's, after prose and shallow nesting
{ printf '# T\n\nText.\n\n> a\n>\n> - b\n\n'; awk 'BEGIN { s = ""; for (i = 0; i < 40; i++) s = s "> "; for (i = 0; i < 30; i++) s = s "- "; print s "x" }'; } >"$T/late.md"
too_deep late 9
# 64 levels: every format renders
awk 'BEGIN { s = ""; for (i = 0; i < 64; i++) s = s "> "; print "# T\n\n" s "deep" }' >"$T/ok.md"
"$SSDREV" report -t "$T/ok.md" -o "$T/ok" --dpi 60 "$D/pm981" >/dev/null 2>"$T/err" || fail "64 levels: $(head -c 400 "$T/err")"
[ -s "$T/ok/review.pdf" ] && [ -s "$T/ok/review.html" ] && grep -q deep "$T/ok/review.md" || fail "64 levels: outputs missing"

# 200,000 directives, one a line: all expanded, in order
awk 'BEGIN { for (i = 0; i < 200000; i++) print "{{version}}" }' >"$T/many.md"
"$SSDREV" report -t "$T/many.md" -o "$T/many" -f md "$D/pm981" >/dev/null 2>"$T/err" || fail "200,000 lines: $(head -c 400 "$T/err")"
v=$(head -1 "$T/many/review.md")
[ -n "$v" ] && [ "$v" != "{{version}}" ] || fail "200,000 lines: first line '$v'"
n=$(grep -cxF "$v" "$T/many/review.md")
[ "$n" = 200000 ] || fail "200,000 lines: $n lines read '$v'"
# {{lang ko}} on the last of them is still found (the search is per line now)
echo '{{lang ko}}' >>"$T/many.md"
"$SSDREV" report -t "$T/many.md" -o "$T/many2" -f html "$D/pm981" >/dev/null 2>"$T/err" || fail "lang at the end: $(head -c 400 "$T/err")"
grep -q '<html lang="ko"' "$T/many2/review.html" || fail "{{lang ko}} on the last line was not taken"
# a template that expands past 32 MiB (each {{table dut}} is ~800 bytes):
# refused at the line where it passes, nothing left (cmark's tree of the
# whole review would take ~40 bytes a byte)
awk 'BEGIN { for (i = 0; i < 45000; i++) print "{{table dut}}" }' >"$T/big.md"
"$SSDREV" report -t "$T/big.md" -o "$T/big" "$D/pm981" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] || fail "45,000 tables: exit $rc, want 1: $(head -c 400 "$T/err")"
grep -q "big.md:[0-9]*: the expanded review passes 32 MiB" "$T/err" || fail "45,000 tables: $(head -c 400 "$T/err")"
[ ! -e "$T/big" ] || fail "45,000 tables: output left behind: $(ls -R "$T/big" | head)"
exit 0
