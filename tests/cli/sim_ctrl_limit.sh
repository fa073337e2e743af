#!/bin/sh
# sim_ctrl_limit: issue 28 item 3 on the shipped models. A model with a
# controller limit (generic-1tb: 4 cores x 7 us) saturates 4 KiB QD32 random
# writes at ctrl_cores / ctrl_cmd_us (571 K IOPS), below the link's 854 K;
# the PM981, which sets none, stays at its SLC program rate (375 K IOPS, the
# review's 1535 MB/s); QD1 costs the core time once (no queue at the cores).
set -u
: "${SSDREV:?set SSDREV to the ssdrev binary}"
: "${SSDREV_ROOT:=.}"
T=$(mktemp -d /tmp/ssdrev-cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "sim_ctrl_limit: $*" >&2; exit 1; }
iops() { # model qd -> IOPS of a 0.3 s 4 KiB random write over 1 GiB
  rm -rf "$T/r"
  "$SSDREV" run "sim:$SSDREV_ROOT/samples/models/$1.model" --out "$T/r" --rw randwrite --bs 4k --iodepth "$2" \
    --runtime 0.3s --size 1g --quiet >/dev/null 2>"$T/err" || fail "run $1 QD$2: $(cat "$T/err")"
  "$SSDREV" analyze "$T/r" 2>/dev/null | awk '/^  all/ { for (i = 1; i < NF; i++) if ($(i + 1) == "IOPS") { print $i; exit } }'
}
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
g=$(iops generic-1tb 32); within "$g" 565000 575000 || fail "generic-1tb QD32: $g IOPS, want ~571 K (4 cores x 7 us)"
p=$(iops pm981-256 32); within "$p" 360000 395000 || fail "pm981-256 QD32: $p IOPS, want ~375 K (SLC programs)"
q=$(iops generic-1tb 1); within "$q" 45000 60000 || fail "generic-1tb QD1: $q IOPS"
echo "generic-1tb QD32 $g, pm981-256 QD32 $p, generic-1tb QD1 $q IOPS"
exit 0
