#!/bin/sh
# tests/e2e/guest.sh — runs inside the QEMU guest of tests/e2e/run.sh (busybox
# sh, as /init's child). Every device named here is one of the guest's own
# virtual NVMe controllers, found by the serial run.sh gave it. Prints one
# "E2E ok NAME" or "E2E FAIL NAME: why" line per check; exits 1 if any failed.
# Archives and raw tool output go to the OUT disk, under /out/e2e, for the
# host's checks (tests/e2e/check.py).
export PATH=/bin
cd /ssdrev || exit 1
failed=0
ok() { echo "E2E ok $1"; }
bad() { echo "E2E FAIL $1: $2"; failed=1; }
# dev SUFFIX -> the namespace block device of controller SSDREV-E2E-SUFFIX
dev() {
  for b in /sys/block/nvme*n1; do
    [ "$(cat "$b/device/serial" 2>/dev/null | tr -d ' ')" = "SSDREV-E2E-$1" ] && { echo "/dev/${b##*/}"; return 0; }
  done
  return 1
}
# The controller's char device (nvme-cli's admin commands) of a namespace.
ctrl() { n=${1#/dev/}; echo "/dev/${n%n1}"; }

DUT=$(dev dut) || { echo "E2E FAIL setup: no DUT controller"; exit 1; }
MNT=$(dev mnt) && FS=$(dev fs) && SWAP=$(dev swap) && OUTD=$(dev out) || { echo "E2E FAIL setup: a controller is missing"; exit 1; }
echo "E2E devices dut=$DUT mnt=$MNT fs=$FS swap=$SWAP out=$OUTD; $(uname -r); poll queues: $(cat /sys/module/nvme/parameters/poll_queues 2>/dev/null)"
mount -t ext4 "$OUTD" /out || { echo "E2E FAIL setup: cannot mount the OUT disk"; exit 1; }
O=/out/e2e
mkdir -p "$O"

# ---- the controller as nvme-cli reports it, for the host to compare with
nvme id-ctrl -o json "$DUT" >"$O/id-ctrl.json" 2>"$O/id-ctrl.err" || bad nvme-cli "nvme id-ctrl failed: $(cat "$O/id-ctrl.err")"
nvme id-ns -o json "$DUT" >"$O/id-ns.json" 2>/dev/null
# ---- the warning threshold one degree above the controller's temperature,
# so the short review's temperature series comes within 2 °C of it
temp_k=$(nvme smart-log -o json "$DUT" | sed -n 's/.*"temperature" *: *\([0-9]*\).*/\1/p' | head -1)
if [ -n "$temp_k" ] && nvme set-feature "$(ctrl "$DUT")" --feature-id=4 --value=$((temp_k + 1)) >/dev/null 2>&1; then
  ok "threshold set to $((temp_k + 1)) K (temperature $temp_k K)"
else
  bad threshold "cannot set the over-temperature threshold (temperature '$temp_k')"
fi

# ---- ssdrev dut on the real controller
if ssdrev dut "$DUT" --json >"$O/dut.json" 2>"$O/dut.err" && grep -q "QEMU NVMe Ctrl" "$O/dut.json"; then
  ok dut
else
  bad dut "ssdrev dut: $(cat "$O/dut.err") $(head -c 300 "$O/dut.json")"
fi

# ---- the guard: each case on its own controller
refused() { # NAME WANT ARGS...: ssdrev run ARGS must fail, naming WANT
  name=$1 want=$2; shift 2
  if ssdrev run "$@" --out /tmp/g-$name --rw write --number-ios 8 --quiet >/tmp/g.out 2>&1; then
    bad "guard-$name" "accepted"
  elif grep -q "$want" /tmp/g.out; then
    ok "guard-$name ($(head -1 /tmp/g.out))"
  else
    bad "guard-$name" "refused for the wrong reason: $(cat /tmp/g.out)"
  fi
}
mount -t ext4 "${MNT}p1" /mnt || bad guard-mounted "cannot mount ${MNT}p1"
refused mounted "is mounted at" "$MNT" --destructive --force
umount /mnt
refused fs-signature "signature found" "$FS" --destructive
if ssdrev run "$FS" --out /tmp/g-fs-force --rw write --number-ios 8 --destructive --force --quiet >/tmp/g.out 2>&1; then
  ok "guard-fs-force (an unmounted filesystem is overwritten with --force)"
else
  bad guard-fs-force "$(cat /tmp/g.out)"
fi
mkswap "$SWAP" >/dev/null 2>&1 && swapon "$SWAP" || bad guard-swap "cannot enable swap on $SWAP"
refused swap "is active swap" "$SWAP" --destructive --force
swapoff "$SWAP" 2>/dev/null
refused no-destructive "without --destructive" "$DUT"
if ssdrev run "$DUT" --out "$O/blank" --rw write --bs 128k --iodepth 4 --number-ios 64 --destructive --quiet >/tmp/g.out 2>&1; then
  ok "guard-blank (a blank namespace is accepted with --destructive)"
else
  bad guard-blank "$(cat /tmp/g.out)"
fi

# ---- io_uring on the nvme driver: sleeping, and polled (IOPOLL) completions
# on the poll queues the guest booted with
# on the poll queues the guest booted with. Polled completions raise no
# interrupt: the controller's I/O queue interrupts (nvme0q1.. in
# /proc/interrupts) must grow by far less than the I/O count under iopoll,
# and by about one per I/O when the thread sleeps.
echo "E2E io_poll=$(cat /sys/block/${DUT#/dev/}/queue/io_poll 2>/dev/null)"
c=$(ctrl "$DUT"); c=${c#/dev/}
irqs() { awk -v q="${c}q" '{for (i = 1; i <= NF; i++) if (index($i, q) == 1 && $i != q "0") {s = 0; for (j = 2; j < i; j++) if ($j ~ /^[0-9]+$/) s += $j; t += s}} END {print t + 0}' /proc/interrupts; }
for w in sleep iopoll; do
  i0=$(irqs)
  if ssdrev run "$DUT" --out "$O/uring-$w" --rw randread --iodepth 8 --number-ios 4000 --wait $w --engine io_uring --quiet >/tmp/u.out 2>&1; then
    d=$(( $(irqs) - i0 ))
    if [ $w = iopoll ] && [ $d -ge 400 ]; then bad "io_uring-iopoll" "$d I/O queue interrupts for 4000 polled I/Os"
    elif [ $w = sleep ] && [ $d -lt 400 ]; then bad "io_uring-sleep" "only $d I/O queue interrupts for 4000 I/Os: interrupts not counted"
    else ok "io_uring --wait $w ($(grep -o 'IOPS=[0-9.k]*' /tmp/u.out), $d I/O queue interrupts)"; fi
  else
    bad "io_uring-$w" "$(cat /tmp/u.out)"
  fi
done

# ---- a short review on the DUT: purge (discard), CDM cells, fills, sweep,
# tail, with the temperature polled from the controller's SMART log
if ssdrev review "$DUT" --out "$O/review" --short --destructive --label "QEMU NVMe" --quiet >/tmp/r.out 2>&1; then
  ok review
else
  bad review "$(tail -5 /tmp/r.out)"
fi

# ---- purge by Format NVM (the method's purge "method": "format"): the
# review left data on the namespace; after the format its first MiB reads
# back as zeros, and the manifest says "format"
cat >/tmp/purge-format.json <<'JSON'
{"format": "ssdrev-method", "format_version": 1, "name": "purge-format",
 "steps": [{"id": "purge", "kind": "purge", "method": "format"}]}
JSON
nonzero() { dd if="$DUT" bs=1M count=1 iflag=direct 2>/dev/null | od -An -v -tx1 | tr -s ' ' '\n' | grep -v '^00$' | grep -c .; }
before=$(nonzero)
if ssdrev review "$DUT" --out "$O/format" --profile /tmp/purge-format.json --destructive --quiet >/tmp/f.out 2>&1; then
  after=$(nonzero)
  if grep -q '"purge": "format"' "$O/format/manifest.json" && [ "$before" -gt 0 ] && [ "$after" = 0 ]; then
    ok "purge-format ($before non-zero bytes in the first MiB before, $after after)"
  else
    bad purge-format "manifest: $(grep -o '"purge": "[a-z]*"' "$O/format/manifest.json"); non-zero bytes before $before, after $after"
  fi
else
  bad purge-format "$(tail -3 /tmp/f.out)"
fi

sync
umount /out || bad out "cannot unmount the OUT disk"
exit $failed
