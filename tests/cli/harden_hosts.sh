#!/bin/sh
# harden_hosts: hostile campaign hosts files (issue 26, items 6, 15, 20),
# read with --plan so no fio is needed: a line past 4,400 bytes is read
# whole (its third field not lost), a NUL byte or a control character is
# refused naming the line (a host after it is not silently dropped), one
# file not made yet under two spellings (D/a.img, D/./a.img, through a
# symlinked directory, a dangling symlink) is one target, a 309-character
# address and an IPv6 address get messages saying so. Each is a usage error
# (exit 2) naming FILE:LINE, and nothing is made.
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
fail() { echo "harden_hosts: FAIL: $*" >&2; exit 1; }
cat > m.json <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "hosts",
 "settings": {"passes": 1, "measure_s": 0.1, "interval_s": 0, "region_bytes": "4MiB"},
 "steps": [{"id": "cdm", "kind": "cdm", "cells": ["RND4K Q1T1"], "ops": ["read"]}]}
JSON
# refused FILE WANT: the plan of hosts file FILE is a usage error saying WANT
refused() {
  "$SSDREV" review --engine fio --hosts "$1" --out c --profile m.json --create-size 8M --plan >o.txt 2>e.txt
  rc=$?
  [ $rc = 2 ] || fail "$1: exit $rc, want 2: $(cat o.txt e.txt | head -c 600)"
  grep -q -- "$2" e.txt || fail "$1: message '$(head -c 600 e.txt)', want '$2'"
}
mkdir d
ln -s "$T/d" ln
ln -s a.img d/dl
# 15: a long line (fields padded with blanks) keeps its third field
awk 'BEGIN { printf "127.0.0.1:9 %s/d/a.img", ARGV[1]; for (i = 0; i < 4500; i++) printf " "; print "8G"; ARGV[1] = "" }' "$T" > long.txt
refused long.txt "long.txt:1: a size is only for a host that is not a loopback address"
awk 'BEGIN { printf "127.0.0.1:9 %s/d/a.img", ARGV[1]; for (i = 0; i < 4500; i++) printf " "; print "8G extra"; ARGV[1] = "" }' "$T" > long4.txt
refused long4.txt "long4.txt:1: expected .* got more than three fields"
# 15: a NUL byte ends no line early, and a host after it is not dropped
printf '127.0.0.1:9 %s/d/a.img\000 127.0.0.2:9 %s/d/b.img\n' "$T" "$T" > nul.txt
refused nul.txt "nul.txt:1: a NUL byte"
printf '127.0.0.1:9 %s/d/a.img\n127.0.0.2:9 %s/d/b\033[8m.img\n' "$T" "$T" > esc.txt
refused esc.txt "esc.txt:2: a control character"
# 6: one file not made yet, two spellings
for two in "$T/d/./a.img" "$T/ln/a.img" "$T/d/dl" "$T/d/sub/../a.img"; do
  printf '127.0.0.1:9 %s/d/a.img\n127.0.0.2:9 %s\n' "$T" "$two" > same.txt
  refused same.txt "same.txt:2: target '$two' of this machine is on line 1"
done
# 20: the address's length, IPv6
addr=$(awk 'BEGIN { for (i = 0; i < 309; i++) printf "a" }')
printf '%s:8911 %s/d/a.img\n' "$addr" "$T" > longaddr.txt
refused longaddr.txt "longaddr.txt:1: host address of 309 characters is longer than the limit of 255"
printf '127.0.0.1:9 %s/d/a.img\n[::1]:8911 %s/d/b.img\n' "$T" "$T" > v6.txt
refused v6.txt "v6.txt:2: IPv6 addresses are not supported"
printf '::1 %s/d/b.img\n' "$T" > v6b.txt
refused v6b.txt "v6b.txt:1: IPv6 addresses are not supported"
[ -e c ] && fail "a refused hosts file made the campaign directory"
[ -e d/a.img ] && fail "a refused hosts file made a target"
# what stays accepted: a CRLF file, tabs, other files in one directory
printf '127.0.0.1:9\t%s/d/a.img\r\n127.0.0.2:9 %s/ln/b.img\r\n' "$T" "$T" > ok.txt
"$SSDREV" review --engine fio --hosts ok.txt --out c --profile m.json --create-size 8M --plan >o.txt 2>e.txt ||
  fail "a good hosts file: $(cat e.txt)"
grep -q "host 127.0.0.2:9 (ok.txt:2)" o.txt || fail "good plan: $(cat o.txt)"
exit 0
