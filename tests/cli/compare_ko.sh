#!/bin/sh
# compare --lang ko (issue 25 item 6): Korean in the figure titles (the CDM
# profile "(default)" is "(기본)"), the overview, statistics and method
# table, and in the xlsx workbook's sheet names (valid: no '/'), headers
# and yes/no; English stays the machine names (compare.csv's).
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
F="$T/lab"
mkdir -p "$F"
for s in 1 2; do
  SSDREV_DATA=$R "$SSDREV" review sim:pm981-256 --short --seed $s --out "$F/r$s" >/dev/null 2>"$T/e" || fail "review: $(cat "$T/e")"
done
# a file without its Date: line, so its import date is all there is ("(가져온 날짜)")
grep -v 'Date:' "$R/samples/cdm/pm981-fob-cdm8.txt" >"$T/undated.txt"
"$SSDREV" import cdm "$T/undated.txt" --out "$F/i1" --model PM981 >/dev/null 2>"$T/e" || fail "import"
"$SSDREV" compare "$F" --out "$T/ko" --format md,xlsx --lang ko >/dev/null 2>"$T/e" || fail "compare: $(cat "$T/e")"
M="$T/ko/compare.md"
grep -q "(default)" "$M" && fail "English profile in Korean titles: $(grep -m2 '(default)' "$M")"
# the overview's row titles hold no-break spaces (pairs of words in one piece in the PDF)
# (the overview's CDM rows are all FOB, default profile: the note says so once)
sed 's/\xc2\xa0/ /g' "$M" | grep -q "^| SEQ1M Q8T1 읽기 \[MB/s\] |" || fail "overview row: $(grep -m2 'SEQ1M Q8T1' "$M")"
grep -q "^### SEQ1M Q8T1 읽기, FOB (기본) \[MB/s\]" "$M" || fail "section title: $(grep -m2 '### SEQ1M Q8T1' "$M")"
for h in "## 요약" "## 방법과 시스템" "상대 점수" "통계: " "| 그룹 | 방법 | 엔진 | ssdrev 버전 | 커널 / OS | 측정일 |" "(가져온 날짜)"; do
  grep -qF "$h" "$M" || fail "Korean report lacks '$h'"
done
/usr/bin/python3 - "$T/ko/compare.xlsx" <<'PY' || exit 1
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = re.findall(r'<sheet name="([^"]+)"', z.read("xl/workbook.xml").decode())
assert names[:2] == ["실행", "그룹"] and "읽기-쓰기 비율 스윕" in names, names
shared = z.read("xl/sharedStrings.xml").decode() if "xl/sharedStrings.xml" in z.namelist() else ""
text = shared + "".join(z.read(n).decode() for n in z.namelist() if n.startswith("xl/worksheets/"))
for want in ("실행 디렉터리", "펌웨어", "중앙값", "표준편차", "잡음 이상", "SEQ1M Q8T1 읽기, FOB (기본) [MB/s]"):
    assert want in text, want
for eng in (">run<", ">label<", ">median<", ">simulated<", ">yes<", ">no<", "(default)"):
    assert eng not in text, eng
PY
echo ok
