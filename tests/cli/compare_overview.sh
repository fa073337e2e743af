#!/bin/sh
# compare's overview is one page (issue 25 item 1): its chosen rows (CDM read
# and write MB/s per cell at FOB, the fill's post-cache speed, QD1 read
# p99.99) and at most 6 groups' columns; more groups are said so and listed
# under "Other groups" after it; the PDF's first page holds the whole overview
# table (its last row, the rank) and the second page does not go on with it.
set -u
command -v pdftotext >/dev/null 2>&1 || { echo "skip: pdftotext not installed"; exit 77; }
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$R/samples/cdm/pm981-fob-cdm8.txt
imp() { "$SSDREV" import "$@" >/dev/null 2>"$T/e" || fail "import $*: $(cat "$T/e")"; }
sim() { # DIR: the two analyzed simulated reviews (every family)
  for d in pm981 pm981a; do
    mkdir -p "$1/sim-$d" && cp "$R/tests/data/analysis/$d/manifest.json" "$R/tests/data/analysis/$d/analysis.json" \
      "$1/sim-$d/" || fail "fixture $d"
  done
}
# page N of the PDF as text
page() { pdftotext -layout -f "$2" -l "$2" "$1" - 2>/dev/null; }
check_page1() { # PDF WHAT
  page "$1" 1 >"$T/p1" && page "$1" 2 >"$T/p2" || fail "$2: pdftotext"
  grep -q "Overview" "$T/p1" || fail "$2: no overview on page 1"
  grep -q "Relative score" "$T/p1" || fail "$2: the overview's score row is not on page 1: $(tail -5 "$T/p1")"
  # the last row: "#" and the ranks
  grep -Eq '^ *# +[0-9]' "$T/p1" || fail "$2: the overview's last row (rank) is not on page 1: $(tail -5 "$T/p1")"
  # page 2 does not continue the overview table (its rows name CDM cells)
  head -5 "$T/p2" | grep -Eq "SEQ1M|RND4K|Relative score|^ *# +[0-9]" && fail "$2: the overview goes on on page 2: $(head -5 "$T/p2")"
  return 0
}

# two groups: the full method's fixtures
sim "$T/two"
"$SSDREV" compare "$T/two" --out "$T/o2" --format md,pdf >/dev/null 2>"$T/e" || fail "compare 2: $(cat "$T/e")"
md=$T/o2/compare.md
ov=$(sed -n '/^## Overview/,/^## /p' "$md" | sed 's/\xc2\xa0/ /g')
rows=$(printf '%s\n' "$ov" | grep -c '^| ' )
# header, 8 CDM rows, post-cache, p99.99, score, rank (the separator starts "| ---")
[ "$rows" -eq 14 ] || fail "2 groups: $rows overview table lines, want 14: $ov"
for r in "SEQ1M Q8T1" "SEQ1M Q1T1" "RND4K Q32T1" "RND4K Q1T1"; do
  n=$(printf '%s\n' "$ov" | grep -c "^| $r [a-z]* \[MB/s\]")
  [ "$n" -eq 2 ] || fail "2 groups: $n rows for $r, want read and write: $ov"
done
printf '%s\n' "$ov" | grep -q "75%" && fail "2 groups: a 75% CDM row in the overview: $ov"
printf '%s\n' "$ov" | grep -q "p99.99" || fail "2 groups: no p99.99 row: $ov"
printf '%s\n' "$ov" | grep -q "^| Write speed after the SLC cache" || fail "2 groups: no post-cache row: $ov"
printf '%s\n' "$ov" | grep -q "Other groups" && fail "2 groups: an 'Other groups' list"
check_page1 "$T/o2/compare.pdf" "2 groups"

# eight groups: the fixtures and six firmware of imported CDM runs
sim "$T/eight"
for fw in FW1 FW2 FW3 FW4 FW5 FW6; do
  v=$(printf '%s' "$fw" | tr -dc 0-9)
  sed "s/3531.284 MB\/s/35$v.284 MB\/s/" "$C" >"$T/$fw.txt"
  imp cdm "$T/$fw.txt" --out "$T/eight/$fw" --model PM981 --firmware "$fw"
done
"$SSDREV" compare "$T/eight" --out "$T/o8" --format md,pdf >/dev/null 2>"$T/e" || fail "compare 8: $(cat "$T/e")"
md=$T/o8/compare.md
hdr=$(sed -n '/^## Overview/,/^## /p' "$md" | grep -m1 '^| ')
cols=$(printf '%s\n' "$hdr" | awk -F'|' '{print NF - 3}')
[ "$cols" -eq 6 ] || fail "8 groups: $cols overview columns, want 6: $hdr"
grep -q "The overview shows 6 of 8 groups" "$md" || fail "8 groups: the overview does not say it shows 6 of 8"
rest=$(sed -n '/^### Other groups/,/^## /p' "$md" | grep -c '^| [^-]')
# header and the two groups without a column
[ "$rest" -eq 3 ] || fail "8 groups: $rest 'Other groups' lines, want 3: $(sed -n '/^### Other groups/,/^## /p' "$md")"
check_page1 "$T/o8/compare.pdf" "8 groups"
"$SSDREV" compare "$T/eight" --out "$T/o8k" --format pdf --lang ko >/dev/null 2>"$T/e" || fail "compare ko: $(cat "$T/e")"
page "$T/o8k/compare.pdf" 1 | grep -q "상대 점수" || fail "ko: the overview's score row is not on page 1"
page "$T/o8k/compare.pdf" 1 | grep -Eq '^ *# +[0-9]' || fail "ko: the overview's rank row is not on page 1"
# a baseline without a row's figure (an import has no tail latency): its
# cell "-", the others their value and no difference at all (no "· -")
"$SSDREV" compare "$T/eight" --out "$T/o8b" --format md --max-charts 1 --baseline "PM981 · FW1 · FOB" >/dev/null 2>"$T/e" \
  || fail "compare, import baseline: $(cat "$T/e")"
row=$(sed -n '/^## Overview/,/^## /p' "$T/o8b/compare.md" | grep 'p99.99')
printf '%s\n' "$row" | grep -Eq '^\| [^|]*p99\.99[^|]* \| - \| [0-9][0-9.,]* \|' || fail "import baseline: p99.99 row: $row"
printf '%s\n' "$row" | grep -qF '· -' && fail "import baseline: a difference to nothing: $row"
echo "ok compare_overview"
