#!/bin/sh
# harden_strings: strings from an archive (label, DUT model / firmware /
# controller, log header params) holding newlines, Markdown, an image link
# to a local file, <script>, '|' and terminal escape sequences. Through
# `report` they stay text (one heading, no image but the chart, no raw HTML
# in review.md / .html, the PDF embeds only the chart); through `log info`,
# `analyze` and `compare` no ESC byte reaches the output, piped or on a
# terminal (script(1)). Template images: only files under the template's
# directory, copied next to the review; an absolute path, "..", a URL, a
# symbolic link out or charts/ is an error naming the template and line.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
ROOT=$(cd "${SSDREV_ROOT:-.}" && pwd)
MODEL="$ROOT/samples/models/generic-1tb.model"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
fail() { echo "harden_strings: FAIL: $*" >&2; exit 1; }
ESC=$(printf '\033')
no_esc() { ! grep -q "$ESC" "$1" || fail "$2: an ESC byte reached the output"; }

"$SSDREV" run "sim:$MODEL" --out r --rw randread --iodepth 1 --number-ios 2000 --quiet >/dev/null 2>&1 ||
  fail "cannot make the run"
mkdir outside
"$SSDREV" chart latency r --test job --out outside/p.png >/dev/null 2>chart.err || fail "cannot draw outside/p.png: $(cat chart.err)"
# the hostile string, into the label and the DUT fields
H="$T/h.txt"
printf 'Evil\n# Owned\n![p](%s/outside/p.png) <script>alert(1)</script> | cell \033]0;pwn\007 \033[31mred\nend' "$T" >"$H"
# (the label's second image would stand alone in a paragraph: a figure the PDF embeds)
python3 - "$H" r/manifest.json "$T" <<'PY' || fail "cannot edit the manifest"
import json, sys
h = open(sys.argv[1]).read()
m = json.load(open(sys.argv[2]))
fig = "x\n\n![p](%s/outside/p.png)\n\ny" % sys.argv[3]
m["label"] = fig + h  # (labels are cut at 127 bytes: the figure first)
m["dut"] = {"model": h, "firmware": h, "controller": fig, "serial": h, "link": "PCIe 3.0 x4"}
json.dump(m, open(sys.argv[2], "w"))
PY
cat >t.md <<'EOF'
# Review

Drive: {{label}}

{{drives}}

{{dut}}

{{chart latency test=job}}
EOF

# ---- analyze and log info print no escape sequence
"$SSDREV" analyze r >an.txt 2>&1 || fail "analyze: $(cat an.txt)"
no_esc an.txt "analyze (piped)"
grep -q "Evil" an.txt || fail "analyze does not print the label"
if command -v script >/dev/null 2>&1; then
  script -qec "'$SSDREV' analyze r" /dev/null >an_tty.txt 2>&1 </dev/null
  grep -q "Evil" an_tty.txt || fail "analyze on a terminal: no label in $(head -c 300 an_tty.txt)"
  no_esc an_tty.txt "analyze (terminal)"
fi
# a log whose header params hold raw ESC bytes (same length as "sim", header CRC redone)
python3 - r/logs/job.ssdlog bad.ssdlog <<'PY' || fail "cannot forge the log"
import sys
def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    return c ^ 0xFFFFFFFF
d = bytearray(open(sys.argv[1], "rb").read())
plen = int.from_bytes(d[24:28], "little")
hdr = bytes(d[28:28 + plen])
assert b'"engine":"sim"' in hdr
hdr = hdr.replace(b'"engine":"sim"', b'"engine":"\x1b[H"')
d[28:28 + plen] = hdr
d[28 + plen:32 + plen] = crc32c(bytes(d[:28 + plen])).to_bytes(4, "little")
open(sys.argv[2], "wb").write(d)
PY
"$SSDREV" log info bad.ssdlog >li.txt 2>&1 || fail "log info on the forged log: $(cat li.txt)"
grep -q '"engine":"?\[H"' li.txt || fail "log info does not show the params (replaced): $(grep params li.txt)"
no_esc li.txt "log info (piped)"
if command -v script >/dev/null 2>&1; then
  script -qec "'$SSDREV' log info bad.ssdlog" /dev/null >li_tty.txt 2>&1 </dev/null
  grep -q "params" li_tty.txt || fail "log info on a terminal printed no params"
  no_esc li_tty.txt "log info (terminal)"
fi

# ---- report: the values stay text
"$SSDREV" report --template t.md --out rep r >rep.txt 2>&1 || fail "report: $(cat rep.txt)"
no_esc rep.txt "report messages"
for f in rep/review.md rep/review.html; do
  no_esc "$f" "$f"
  grep -q "Owned" "$f" || fail "$f lost the label text"
done
[ "$(grep -c '^#' rep/review.md)" -eq 1 ] || fail "review.md has headings from a value: $(grep '^#' rep/review.md)"
[ "$(grep -c '<h[1-6]' rep/review.html)" -eq 1 ] || fail "review.html has headings from a value"
grep -q '<script' rep/review.html && fail "review.html carries <script>"
grep -q '&lt;script&gt;' rep/review.html || fail "review.html does not show <script> as text"
# the chart is inline (SVG); no <img> may come from a value
imgs=$(grep -o '<img src="[^"]*"' rep/review.html | grep -v '^<img src="data:image/png;base64,')
[ -z "$imgs" ] || fail "review.html images: $imgs"
grep -q '<svg' rep/review.html || fail "review.html lacks its inline chart"
[ "$(pdfimages -list rep/review.pdf | tail -n +3 | wc -l)" -eq 1 ] || fail "review.pdf embeds more than the chart"
pdftotext rep/review.pdf - | grep -q "Owned" || fail "review.pdf lost the label text"
pdftotext rep/review.pdf - | grep -q "outside/p.png" || fail "review.pdf does not show the image link as text"
# the DUT table keeps its four columns: the '|' in the model stays in its cell
grep '^| Evil' rep/review.md | grep -q '\\|' || fail "review.md: '|' in the DUT model is not escaped"

# ---- compare: the same values in compare.md
"$SSDREV" compare r --out cmp --format md >cmp.txt 2>&1 || fail "compare: $(cat cmp.txt)"
no_esc cmp.txt "compare messages"
no_esc cmp/compare.md "compare.md"
grep -q '^# Owned' cmp/compare.md && fail "compare.md has a heading from a label"
grep -Eq '[^\\]\]\(/' cmp/compare.md && fail "compare.md links an absolute image"

# ---- template images
mkdir -p tdir/img
cp outside/p.png tdir/img/ok.png
printf '# T\n\n![ok](img/ok.png)\n\n{{chart latency test=job}}\n' >tdir/good.md
"$SSDREV" report --template tdir/good.md --out rep2 r >/dev/null 2>rep2.txt || fail "template image: $(cat rep2.txt)"
cmp -s tdir/img/ok.png rep2/img/ok.png || fail "the template image was not copied next to the review"
grep -q '<img src="img/ok.png"' rep2/review.html || fail "review.html does not show the template image"
[ "$(pdfimages -list rep2/review.pdf | tail -n +3 | wc -l)" -eq 2 ] || fail "review.pdf: want the template image and the chart"
ln -s "$T/outside/p.png" tdir/link.png
n=0
for case in "/$T/outside/p.png|an absolute path" "../outside/p.png|a path with a \"\\.\\.\" component" \
            "http://example.com/x.png|a URL" "file:///etc/passwd|a URL" "link.png|outside the template's directory" \
            "charts/latency.png|not a chart this template draws" "img/%2e%2e/ok.png|a path with '%'" "missing.png|a file that does not exist"; do
  url=${case%%|*} why=${case#*|}
  printf '# T\n\nText.\n![x](%s)\n' "$url" >tdir/bad.md
  timeout 10 "$SSDREV" report --template tdir/bad.md --out rep3 r >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 1 ] || fail "template image '$url': exit $rc: $(cat err.txt)"
  grep -Eq "tdir/bad.md:4: image '.*' is $why" err.txt || fail "template image '$url': $(cat err.txt)"
  [ ! -e rep3 ] || fail "template image '$url': output left behind"
  n=$((n+1))
done
echo "harden_strings: ok ($n template image cases)"
