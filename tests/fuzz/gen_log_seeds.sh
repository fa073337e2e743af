#!/bin/sh
# Regenerates tests/fuzz/corpus/log/ from the real log writer, plus damaged
# variants (truncated inside a chunk, one flipped payload byte, a cut header),
# and tests/fuzz/corpus/simstate/ (valid states of tests/fuzz/tiny.model);
# tests/fuzz/regress/logstats/ (hostile values) and corpus/logstats/ (a copy
# of corpus/log/).
# Usage: sh tests/fuzz/gen_log_seeds.sh BUILD   (needs BUILD/fuzz/libssdrev-fuzz.a
# from tests/fuzz/run.sh)
set -eu
B=${1:-build}
D=tests/fuzz/corpus/log
mkdir -p "$D" tests/fuzz/corpus/simstate
clang -std=c11 -D_GNU_SOURCE -I. $(pkg-config --cflags jansson) -fsanitize=fuzzer-no-link,address,undefined \
  -o "$B/fuzz/gen_log_seeds" tests/fuzz/gen_log_seeds.c "$B/fuzz/libssdrev-fuzz.a" \
  $(pkg-config --libs liburing cairo jansson libcmark-gfm blkid) -lcmark-gfm-extensions -lcsv -lhpdf -lm -lpthread
mkdir -p tests/fuzz/regress/logstats tests/fuzz/corpus/logstats
"$B/fuzz/gen_log_seeds" "$D" tests/fuzz/corpus/simstate "sim:$(pwd)/tests/fuzz/tiny.model" tests/fuzz/regress/logstats
s=$(wc -c <"$D/three-chunks.ssdlog")
head -c $((s - 37)) "$D/three-chunks.ssdlog" >"$D/truncated.ssdlog"
head -c 30 "$D/small.ssdlog" >"$D/cut-header.ssdlog"
cp "$D/three-chunks.ssdlog" "$D/bitflip.ssdlog"
# flip one byte well inside the second chunk's payload
printf '\377' | dd of="$D/bitflip.ssdlog" bs=1 seek=$((s / 2)) conv=notrunc 2>/dev/null
# the analysis target starts from the same valid and damaged logs
cp "$D"/*.ssdlog tests/fuzz/corpus/logstats/
ls -l "$D" tests/fuzz/corpus/simstate tests/fuzz/corpus/logstats tests/fuzz/regress/logstats
