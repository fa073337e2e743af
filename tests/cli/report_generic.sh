#!/bin/sh
# ssdrev report without -t: the generic template fits any runs (one drive,
# two, three; simulated --short reviews, CrystalDiskMark and fio imports,
# mixes) in English and Korean (issue 27). Checks: no sentence with a
# missing-value marker, no section of data no run has, no drive or claim
# of the reference post (PM981) in a review of other drives, Korean pages
# free of English words outside an allowlist (units, cell and product
# names), and template init:
# an editable template whose slots render nothing.
set -u
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=${SSDREV_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$R" || fail "cd $R"
q() { "$SSDREV" "$@" >"$T/o" 2>"$T/e" || fail "$*: $(cat "$T/e")"; }
q review sim:samples/models/hot-512.model --short --out "$T/hot" --label "Hot 512G" --quiet
q review sim:samples/models/static-512.model --short --out "$T/static" --label "Static 512" --quiet
q import cdm samples/cdm/sata-cdm6.txt --out "$T/sata" --label "SATA six"
q import cdm samples/cdm/nvme-cdm8-demo.txt --out "$T/cdm8" --label "NVMe eight"
q import fio samples/fio/small.json --out "$T/fio" --label "fio small"
for r in hot static sata cdm8 fio; do q analyze "$T/$r" --quiet; done

# English words allowed in a Korean review: units, CrystalDiskMark cells and
# terms, the labels above (the DUT fields, "Fill Drive", "Tail Latency" and the
# tail table's header are Korean on a Korean page: issue 27)
ALLOW='^(MB|GB|GiB|MiB|KiB|IOPS|QD|Q[0-9]+T[0-9]+|SEQ[0-9]+[MK]|RND[0-9]+K|FOB|SLC|DRAM|NAND|TLC|QLC|PCIe|NVMe|SATA|SNIA|PTS|CrystalDiskMark|ssdrev|Hot|Static|six|eight|fio|small|RND|cSSD|LBA|PS[0-9]|OS|short|svg|png|charts|clat|lat|max|mean|p[0-9.]+|TMT[12]|SAMSUNG|Samsung|Phoenix|SSDREV|SIM|sim|Windows|Professional|Build|x64|Health|Hours|Data|Written|Spare|Used|Percentage|Available|Cycles|Unsafe|Shutdowns|Errors|Hours|On|Power-On|RW|QD[0-9]+|x[0-9]+|[A-Z]|s|Gb)$'

check() { # check NAME LANG RUN...
  name=$1 lang=$2
  shift 2
  set --
  for r in $RUNS; do set -- "$@" "$T/$r"; done
  "$SSDREV" report -o "$T/$name" -f md --lang "$lang" "$@" >"$T/o" 2>"$T/e" || fail "$name: report: $(cat "$T/e")"
  md="$T/$name/review.md"
  [ -s "$md" ] || fail "$name: no review.md"
  # a sentence never holds a missing value
  # (table cells are not sentences: a cell a run lacks may read n/a)
  grep -v '^|' "$md" | grep -n 'n/a\|(측정되지 않음)\|없음)\|NaN\|nan MB\|inf MB\|{{' && fail "$name: a missing-value marker or a directive in the review"
  # the reference post's drives and claims belong to the reference template only
  grep -in 'PM981\|Phoenix\|Samsung\|970 PRO\|few dies\|Die 수' "$md" && fail "$name: names a drive or claim not from these runs"
  # an unwritten slot renders nothing
  grep -n 'slot' "$md" && fail "$name: a slot left text"
  if [ "$lang" = ko ]; then
    # English words: code spans, chart paths and the analysis.json path a
    # not-measured note names ("(분석 항목 rw_sweep)") are machine text
    grep -n '(analysis ' "$md" && fail "$name: an English '(analysis PATH)' on a Korean page"
    sed -e 's/`[^`]*`//g' -e 's/](charts\/[^)]*)//g' -e 's/(분석 항목 [^)]*)//g' "$md" | grep -o '[A-Za-z][A-Za-z0-9.-]*' | sort -u |
      grep -Ev "$ALLOW" >"$T/words"
    # and the DUT strings of the runs themselves (model, controller, media: product names)
    for r in $RUNS; do
      grep -o '"\(model\|controller\|media\|firmware\)": *"[^"]*"' "$T/$r/analysis.json" | sed 's/^[^:]*: *"//; s/"$//'
    done | grep -o '[A-Za-z][A-Za-z0-9.-]*' | sort -u >"$T/dutwords"
    grep -vxF -f "$T/dutwords" "$T/words" | sed 's/\.$//' | grep -vxF -f "$T/dutwords" | grep -Ev "$ALLOW" >"$T/words2" || true
    mv "$T/words2" "$T/words"
    [ -s "$T/words" ] && fail "$name: English words in the Korean review: $(tr '\n' ' ' <"$T/words")"
  fi
  return 0
}
RUNS="hot" check one-sim ko
RUNS="hot" check one-sim-en en
RUNS="sata" check one-cdm ko
RUNS="fio" check one-fio ko
RUNS="fio" check one-fio-en en
RUNS="hot static" check two-sim ko
# the particle after a drive label follows its last sound (Hot 512G 지, Static 512 이: 가), never "이(가)"
grep -q '이(가)\|은(는)\|을(를)' "$T/two-sim/review.md" && fail "two-sim: a particle left as 이(가)"
grep -q '\(Hot 512G\|Static 512\)가 [0-9]' "$T/two-sim/review.md" || fail "two-sim: no lead sentence with 가: $(grep -n 'MB/s로' "$T/two-sim/review.md" | head -3)"
RUNS="hot sata cdm8" check three-mix ko
RUNS="static fio sata" check three-mix-en en

# sections of data no run has are left out, not a "Not measured" note
grep -q '^## Fill drive' "$T/one-fio-en/review.md" && fail "one-fio-en: a fill section without a fill"
grep -q 'Not measured' "$T/one-fio-en/review.md" && fail "one-fio-en: a not-measured note for a section no run has"
grep -q '^## Fill Drive' "$T/one-cdm/review.md" && fail "one-cdm: a fill section for a CrystalDiskMark import"
grep -q '측정되지 않음' "$T/one-cdm/review.md" && fail "one-cdm: a not-measured note in a one-drive review"
# findings from the data: a lead per cell with its margin, the short fill's honest sentence
grep -q 'leads with [0-9]* MB/s, [0-9]*% ahead of' "$T/three-mix-en/review.md" || fail "three-mix-en: no CrystalDiskMark lead"
grep -q 'The short run wrote only 2.0 GiB (0.4% of this drive.s 512 GB): an SLC cache larger than that cannot show' "$T/one-sim-en/review.md" || fail "one-sim-en: no short-fill finding"
grep -q 'Weak evidence: a `--short` trial run' "$T/one-sim-en/review.md" || fail "one-sim-en: short findings not marked weak"
grep -q "짧은 실행은 2.0GiB(이 드라이브 용량 512GB의 0.4%)만 기록했습니다" "$T/one-sim/review.md" || fail "one-sim: no Korean short-fill finding"
# the Korean generic template by the locale, the English by --lang
SSDREV_LANG=ko "$SSDREV" report -o "$T/loc" -f md "$T/sata" >/dev/null 2>&1 || fail "report by locale"
grep -q '분석 결과' "$T/loc/review.md" || fail "SSDREV_LANG=ko did not pick generic.ko"
"$SSDREV" report -o "$T/x" -f md --lang fr "$T/sata" >/dev/null 2>"$T/e"; [ $? -eq 2 ] || fail "--lang fr not a usage error"
"$SSDREV" report -o "$T/x" -f md --lang ko -t templates/review.en.md "$T/sata" >/dev/null 2>"$T/e"; [ $? -eq 2 ] || fail "--lang with -t not a usage error"

# template init: blocks decided for the runs, drive= tied, slots in place
q template init -o "$T/mine.md" "$T/hot" "$T/sata"
grep -q '{{slot "' "$T/mine.md" || fail "init: no slots"
grep -q '{{label drive=2}}' "$T/mine.md" || fail "init: each block not written per run"
grep -q '{{if\|{{each\|{{end}}' "$T/mine.md" && fail "init: blocks left in the starting template"
grep -q 'Steady state' "$T/mine.md" && fail "init: a section no run has"
"$SSDREV" template init -o "$T/mine.md" "$T/hot" >/dev/null 2>"$T/e" && fail "init overwrote an existing file"
grep -q 'exists' "$T/e" || fail "init: no 'exists' message"
q template init -o "$T/mine.md" --force --lang ko "$T/hot" "$T/sata"
grep -q '{{lang ko}}' "$T/mine.md" || fail "init --force --lang ko"
sed 's/{{slot "[^"]*"}}/My own words./' "$T/mine.md" >"$T/mine2.md"
q report -t "$T/mine2.md" -o "$T/mine" -f md "$T/hot" "$T/sata"
grep -q 'My own words.' "$T/mine/review.md" || fail "init: the author's prose is not in the review"
echo "ok report_generic"
