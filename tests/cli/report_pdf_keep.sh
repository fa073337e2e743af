#!/bin/sh
# The PDF keeps a heading on the page of the chart under it: for every
# amount of prose above (one line more each time, so some run puts the
# heading within a chart's height of the page's foot), the heading and the
# chart's caption are on one page. A 260 pt guess at a chart's height left
# "Fill drive" alone at the foot of a page, its 1950 x 1020 chart needing
# 279 pt with the caption (docs/templates.md "PDF").
set -u
fail() { echo "report_pdf_keep: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v pdftotext >/dev/null 2>&1 || { echo "skip: pdftotext not installed"; exit 77; }
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
"$S" review "sim:$R/samples/models/ftl-8g.model" --short --out "$T/run" --quiet || fail "review --short"
i=0
while [ $i -le 36 ]; do   # a page of paragraphs, one more each run
  {
    echo "# Keep"
    echo
    j=0
    while [ $j -lt $((40 + i)) ]; do
      echo "Line $j of prose above the section."
      echo
      j=$((j + 1))
    done
    echo "## Fill section"
    echo
    echo "{{chart fill}}"
  } > "$T/t.md"
  rm -rf "$T/out"
  "$S" report -t "$T/t.md" -o "$T/out" -f pdf --dpi 72 "$T/run" > /dev/null 2> "$T/err" || fail "report ($i): $(cat "$T/err")"
  pdftotext "$T/out/review.pdf" "$T/out.txt" 2>/dev/null || fail "pdftotext ($i)"
  # pages are separated by form feeds: the heading's and the caption's
  hp=$(awk 'BEGIN { RS = "\f" } /Fill section/ { print NR; exit }' "$T/out.txt")
  cp=$(awk 'BEGIN { RS = "\f" } /Fill drive: sequential write/ { n = NR } END { print n }' "$T/out.txt")
  [ -n "$hp" ] && [ -n "$cp" ] || fail "run $i: heading page '$hp', caption page '$cp'"
  [ "$hp" = "$cp" ] || fail "run $i ($((40 + i)) lines above): the heading is on page $hp, its chart's caption on page $cp"
  i=$((i + 1))
done
exit 0
