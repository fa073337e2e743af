#!/bin/sh
# report_ko: a Korean template makes a Korean review. Short reviews of the
# two demo drives are rendered with templates/review.ko.md and
# templates/single.ko.md: table headers, flag findings and severities,
# chart captions and not-measured notes are Korean (render/msg.c), a value
# is the one of its state even when the 75% rows come first, and the PDF
# never splits a Korean word across lines.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "report_ko: $*" >&2; exit 1; }
R=${SSDREV_ROOT:-.}
for m in pm981-256:"PM981 256GB" pm981a-256:"PM981a 256GB"; do
  "$SSDREV" review "sim:$R/samples/models/${m%%:*}.model" --short --quiet --out "$T/${m%%:*}" --label "${m#*:}" \
    >"$T/log" 2>&1 || fail "short review of ${m%%:*} failed: $(cat "$T/log")"
done
"$SSDREV" report -t "$R/templates/review.ko.md" -o "$T/two" --format md,pdf --dpi 60 "$T/pm981-256" "$T/pm981a-256" \
  >"$T/log" 2>&1 || fail "review.ko.md: $(cat "$T/log")"
"$SSDREV" report -t "$R/templates/single.ko.md" -o "$T/one" --format md,pdf --dpi 60 "$T/pm981-256" \
  >"$T/log" 2>&1 || fail "single.ko.md: $(cat "$T/log")"

# Markdown: the generated parts are Korean, none of their English forms is left
for f in two one; do
  md="$T/$f/review.md"
  for want in "| 테스트 | 읽기 [MB/s] | 쓰기 [MB/s] | 읽기 [IOPS] |" "| 드라이브 | SLC캐시 (빈 드라이브) |" \
              "| 드라이브 | 수준 | 내용 |" "| 경고 |" "병목현상입니다" "**시뮬레이션 결과:**"; do
    grep -qF -- "$want" "$md" || fail "$f: review.md lacks '$want'"
  done
  for bad in "| Test |" "| warn |" "| Drive |" "Not measured" "few dies" "Simulated results" "Short review:"; do
    ! grep -qF -- "$bad" "$md" || fail "$f: review.md still has the English '$bad'"
  done
done
# single.ko.md's headings and captions are Korean: no English section title
# (issue 27; the reference post review.ko.md keeps its own headings)
grep -n '^##* .*\(Appearance\|Internal\|Datasheet\|Report\|Summary\|Benchmarking\|Fill Drive\|Low QD\|Tail Latency\|Temperature\|Closing\)' \
  "$T/one/review.md" && fail "one: English section headings on a Korean page"
grep -qF "## 꼬리 지연 시간" "$T/one/review.md" || fail "one: no Korean tail-latency heading"
grep -qF "(analysis " "$T/one/review.md" && fail "one: an English '(analysis PATH)' in a Korean note"
# a cache the short run cannot measure (its fill cannot reach the SLC cliff) is
# no sentence with a hole but the finding that says why, in Korean (issue 27)
grep -qF "(측정되지 않음)" "$T/one/review.md" && fail "one: a sentence holds '(측정되지 않음)'"
grep -qF "짧은 실행은 2.0GiB(이 드라이브 용량 256GB의 0.8%)만 기록했습니다" "$T/one/review.md" || fail "one: no Korean finding for the short fill: $(grep -n 'SLC' "$T/one/review.md")"
grep -qF "*CrystalDiskMark 방식 결과 — PM981 256GB, 75% 채움*" "$T/one/review.md" || fail "one: the 75% table is not labelled"
# single.ko.md has single.en.md's structure: the same directives in the same
# order (each table under its chart), only the prose and captions translated
for t in single; do
  for l in en ko; do
    grep -o '{{[a-z_]*\( [a-z_]*\)\{0,1\}' "$R/templates/$t.$l.md" | grep -v '{{lang' >"$T/dirs.$t.$l"
  done
  cmp -s "$T/dirs.$t.en" "$T/dirs.$t.ko" || fail "$t.ko.md's directives differ from $t.en.md's: $(diff "$T/dirs.$t.en" "$T/dirs.$t.ko")"
done
# the tail table's header and the DUT fields are Korean on a Korean page
# (the reference writes them in English: render/msg.c)
grep -qF "| 백분위 | 랜덤 읽기 | 랜덤 읽기 70% | 랜덤 쓰기 |" "$T/one/review.md" || fail "tail table header: $(grep -n '백분위\|Percentile' "$T/one/review.md")"
grep -qF "| 링크 | PCIe 3.0 x4 | NVMe 버전 | NVMe 1.2 |" "$T/one/review.md" || fail "DUT fields: $(grep -n 'PCIe' "$T/one/review.md")"
grep -n "| Percentile |\|| Link |\|Warning Temp\|Fill Drive\|Tail Latency" "$T/one/review.md" && fail "one: English table fields or chart titles"
# the reference post (review.ko.md) writes its DUT fields and tail header in
# English ({{dut labels=en}}, {{table tail labels=en}}), as the post does
grep -qF "| Link | PCIe 3.0 x4 | NVMe Version | NVMe 1.2 |" "$T/two/review.md" || fail "two: DUT fields not the reference's: $(grep -n 'PCIe' "$T/two/review.md")"
grep -qF "| Percentile | RND Read | RND Read 70% | RND Write |" "$T/two/review.md" || fail "two: tail header not the reference's: $(grep -n '백분위\|Percentile' "$T/two/review.md")"
printf '{{lang ko}}\n{{table cdm labels=en}}\n' >"$T/lab.md"
"$SSDREV" report -t "$T/lab.md" -o "$T/lab" -f md "$T/pm981-256" >/dev/null 2>"$T/lab.err" && fail "labels= on a cdm table accepted"
grep -qF "lab.md:2: labels= is for {{dut}} and {{table tail}}, not {{table cdm}}" "$T/lab.err" || fail "labels= error: $(cat "$T/lab.err")"
printf '{{lang ko}}\n{{dut labels=fr}}\n' >"$T/lab.md"
"$SSDREV" report -t "$T/lab.md" -o "$T/lab" -f md "$T/pm981-256" >/dev/null 2>"$T/lab.err" && fail "labels=fr accepted"
grep -qF "labels=fr: give en or ko" "$T/lab.err" || fail "labels=fr error: $(cat "$T/lab.err")"

# chart titles (a chart's default caption is its title) and a missing
# section's note, in a template that is Korean by its {{lang}} directive
printf '# t\n\n{{lang ko}}\n\n{{chart fill}}\n\n{{chart rw_ratio drive=1}}\n\n{{chart tail}}\n\n{{chart bars}}\n\n{{chart latency drive=1 test=nope}}\n' \
  >"$T/t.md"
"$SSDREV" report -t "$T/t.md" -o "$T/t" --format md --dpi 30 "$T/pm981-256" >"$T/log" 2>&1 || fail "t.md: $(cat "$T/log")"
for want in "![드라이브 채우기: 순차 쓰기, 128 KiB](" "![읽기 비율에 따른 저QD 성능 — PM981 256GB](" \
            "![꼬리 지연시간](" "![CrystalDiskMark 읽기 비교, FOB](" \
            "*측정되지 않음: 'PM981 256GB'에 nope 테스트가 없습니다.*"; do
  grep -qF -- "$want" "$T/t/review.md" || fail "t.md: lacks '$want': $(cat "$T/t/review.md")"
done
# the CLI's own warning stays English
grep -q "not measured: run 'PM981 256GB' has no test nope" "$T/log" || fail "warning: $(cat "$T/log")"

# ssdrev chart --lang: a Korean chart is drawn with other text than the English one
for l in en ko; do
  "$SSDREV" chart fill "$T/pm981-256" --lang $l --out "$T/fill-$l.svg" >"$T/log" 2>&1 || fail "chart --lang $l: $(cat "$T/log")"
done
! cmp -s "$T/fill-en.svg" "$T/fill-ko.svg" || fail "chart --lang ko draws the English chart"
"$SSDREV" chart fill "$T/pm981-256" --lang fr --out "$T/fill-fr.svg" >"$T/log" 2>&1
[ $? -eq 2 ] && grep -q "lang" "$T/log" || fail "chart --lang fr is not a usage error naming --lang"

# values by state: the 75% rows put first must not change what FOB shows
/usr/bin/python3 - "$T/pm981-256/analysis.json" "$T/want" <<'PYEOF' || fail "reordering the CDM rows"
import json, sys
p, out = sys.argv[1], sys.argv[2]
a = json.load(open(p))
v = {(c["state"], c["cell"]): c["read"]["mb_s"] for c in a["cdm"]}
a["cdm"] = [c for c in a["cdm"] if c["state"] != "FOB"] + [c for c in a["cdm"] if c["state"] == "FOB"]
json.dump(a, open(p, "w"))
open(out, "w").write("%.0f %.0f\n" % (v[("FOB", "RND4K Q32T1")], v[("75%", "RND4K Q32T1")]))
PYEOF
read -r fob full <"$T/want"
for t in single.ko.md single.en.md; do
  "$SSDREV" report -t "$R/templates/$t" -o "$T/v-$t" --format md --dpi 30 "$T/pm981-256" >"$T/log" 2>&1 \
    || fail "$t: $(cat "$T/log")"
done
grep -q "FOB상태에서 ${fob}MB/s" "$T/v-single.ko.md/review.md" || fail "ko: FOB value is not $fob"
grep -q "채워진 상태에서 ${full}MB/s" "$T/v-single.ko.md/review.md" || fail "ko: 75% value is not $full"
grep -q "read at FOB: ${fob} MB/s" "$T/v-single.en.md/review.md" || fail "en: FOB value is not $fob"
grep -q "75% filled: ${full} MB/s" "$T/v-single.en.md/review.md" || fail "en: 75% value is not $full"

# PDF: Korean text, and every Hangul word on a line is a whole word of the
# Markdown (a word cut at a line end leaves two pieces that are not)
for f in two one; do
  pdftotext -layout "$T/$f/review.pdf" "$T/$f.txt" 2>/dev/null || fail "$f: pdftotext failed"
  for want in "테스트" "읽기 [MB/s]" "경고" "병목현상입니다" "SLC캐시"; do
    grep -qF -- "$want" "$T/$f.txt" || fail "$f: PDF text lacks '$want'"
  done
  /usr/bin/python3 - "$T/$f/review.md" "$T/$f.txt" <<'PYEOF' || fail "$f: a Korean word is split across lines in the PDF"
import re, sys
strip = "*_|()[]{}.,:;!?`'\"<>#"
def words(text):
    return {w.strip(strip) for w in text.split()}
# the PDF shows a link's text and code without its Markdown
md = open(sys.argv[1], encoding="utf-8").read().replace("`", "")
md = re.sub(r"\]\([^)]*\)", " ", md)
# the page header of a short review (render/msg.c MSG_SHORT_PAGE_NOTE) is the PDF's own text
md += "\n짧은 리뷰(--short): 실제 측정이 아닌 시험 실행\n"
known = words(md)
bad = []
for line in open(sys.argv[2], encoding="utf-8"):
    for w in line.split():
        w = w.strip(strip)
        if re.search("[\uac00-\ud7a3]", w) and w not in known and not any(w in k for k in known if len(k) > 40):
            bad.append(w)
if bad:
    print("pieces not in the Markdown:", bad[:10], file=sys.stderr)
    sys.exit(1)
PYEOF
done
exit 0
