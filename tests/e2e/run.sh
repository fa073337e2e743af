#!/bin/sh
# tests/e2e/run.sh BUILD_DIR — `make e2e`: ssdrev on NVMe controllers, end to
# end, in a QEMU guest (software emulation, -accel tcg). The guest boots
# Debian's cloud kernel with an initramfs holding busybox, ssdrev, nvme-cli
# and smartctl (with the libraries ldd names) and runs tests/e2e/guest.sh on
# five NVMe controllers, each over its own raw temp file made here:
#   DUT   blank 256 MiB: dut collection, purge, a short review, io_uring
#         (sleeping and IOPOLL on the guest's poll queues)
#   MNT   an MBR partition with ext4, mounted in the guest (guard: refused)
#   FS    ext4 on the whole namespace, unmounted (refused without --force)
#   SWAP  active swap in the guest (refused)
#   OUT   ext4: the guest writes its archives here; the host reads them back
#         with debugfs, checks them and renders the review with the DUT.
# qemu is killed on any exit, the guest has a hard time limit, the console is
# printed on failure, and every file made here is deleted.
set -u
B=${1:-build}
LIMIT_S=${E2E_TIMEOUT_S:-600}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S="$ROOT/$B/ssdrev"
fail() { echo "e2e: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (mke2fs on its own image files, debugfs)"
[ -x "$S" ] || fail "no ssdrev binary at $S (make first)"
KERNEL=$(ls /boot/vmlinuz-*-cloud-amd64 2>/dev/null | sort -V | tail -1)
[ -n "$KERNEL" ] || fail "no Debian cloud kernel in /boot (scripts/deps.sh e2e installs linux-image-cloud-amd64)"
for c in qemu-system-x86_64 nvme smartctl mke2fs debugfs sfdisk cpio gzip python3; do
  command -v $c >/dev/null 2>&1 || fail "missing $c (scripts/deps.sh e2e)"
done
# The guest has no libc of its own besides the copied libraries: busybox must be static.
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 || fail "no static /bin/busybox (busybox-static)"

W=$(mktemp -d /tmp/ssdrev-e2e.XXXXXX)
QPID=""
cleanup() {
  if [ -n "$QPID" ]; then kill "$QPID" 2>/dev/null; wait "$QPID" 2>/dev/null; fi
  rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
console() { echo "---- guest console (last 150 lines) ----" >&2; tail -n 150 "$W/console.log" >&2; echo "----" >&2; }

# ---------------------------------------------------------------- initramfs
R="$W/root"
mkdir -p "$R/bin" "$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/mnt" "$R/out" "$R/e2e" "$R/ssdrev"
cp /bin/busybox "$R/bin/busybox"
# A binary and every library ldd names, at the same paths.
add_bin() {
  cp -L "$1" "$R/bin/$(basename "$1")"
  ldd "$1" | awk '/=> \// {print $3} /^\t\/lib/ {print $1}' | while read -r lib; do
    mkdir -p "$R$(dirname "$lib")"
    [ -e "$R$lib" ] || cp -L "$lib" "$R$lib"
  done
}
add_bin "$S"
add_bin "$(command -v nvme)"
add_bin "$(command -v smartctl)"
cp -r "$ROOT/profiles" "$R/ssdrev/profiles"
cp "$ROOT/tests/e2e/guest.sh" "$R/e2e/guest.sh"
cat >"$R/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
sh /e2e/guest.sh
echo "E2E-GUEST-EXIT $?"
sync
poweroff -f
EOF
chmod 755 "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) >"$W/initrd.gz" || fail "cannot build the initramfs"

# ---------------------------------------------------------------- disks
truncate -s 256M "$W/dut.raw"
truncate -s 64M "$W/mnt.raw" "$W/fs.raw" "$W/swap.raw"
truncate -s 192M "$W/out.raw"
# MNT: one MBR partition from 1 MiB, ext4 in it (made here, on the file).
echo 'start=2048, type=83' | sfdisk -q "$W/mnt.raw" >/dev/null || fail "sfdisk on the MNT image failed"
mke2fs -q -F -t ext4 -E offset=1048576 "$W/mnt.raw" 60M || fail "mke2fs on the MNT image failed"
mke2fs -q -F -t ext4 "$W/fs.raw" || fail "mke2fs on the FS image failed"
mke2fs -q -F -t ext4 -L ssdrev-out "$W/out.raw" || fail "mke2fs on the OUT image failed"

# ---------------------------------------------------------------- boot
drive() { echo "-drive file=$W/$1.raw,format=raw,if=none,id=$1,cache=unsafe -device nvme,serial=SSDREV-E2E-$1,drive=$1"; }
# multipath off: each namespace is the controller's own block device, whose
# sysfs device is the controller (serial); two poll queues for IOPOLL.
# shellcheck disable=SC2046
qemu-system-x86_64 -accel tcg -m 1024 -smp 2 -display none -no-reboot \
  -serial "file:$W/console.log" -monitor none \
  -kernel "$KERNEL" -initrd "$W/initrd.gz" \
  -append "console=ttyS0 panic=-1 nvme_core.multipath=N nvme.poll_queues=2 quiet" \
  $(drive dut) $(drive mnt) $(drive fs) $(drive swap) $(drive out) &
QPID=$!
t=0
while kill -0 "$QPID" 2>/dev/null; do
  if [ $t -ge "$LIMIT_S" ]; then
    console
    fail "the guest did not finish within ${LIMIT_S} s (killed)"
  fi
  sleep 1; t=$((t + 1))
done
wait "$QPID"; qrc=$?; QPID=""
echo "e2e: guest ran ${t} s (qemu exit $qrc)"
grep -q "E2E-GUEST-EXIT 0" "$W/console.log" || { console; fail "the guest's checks failed (see FAIL lines above)"; }

# ---------------------------------------------------------------- host side
O="$W/out"
mkdir -p "$O"
debugfs -R "rdump /e2e $O" "$W/out.raw" >/dev/null 2>&1 || { console; fail "cannot read the OUT image back"; }
[ -f "$O/e2e/dut.json" ] || { console; fail "no dut.json came back"; }
grep "^E2E " "$W/console.log" | sed 's/\r$//'
python3 "$ROOT/tests/e2e/check.py" "$O/e2e" || { console; fail "the archives that came back do not hold what the controller reported"; }
"$S" report -t "$ROOT/templates/single.en.md" -o "$W/report" "$O/e2e/review" >"$W/report.txt" 2>&1 \
  || { cat "$W/report.txt" >&2; fail "ssdrev report failed on the guest's review"; }
grep -q "QEMU NVMe Ctrl" "$W/report/review.md" || fail "the rendered review has no DUT model (QEMU NVMe Ctrl)"
grep -q "thermal_near_warn" "$W/report/review.md" "$O/e2e/review/analysis.json" 2>/dev/null \
  || { python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); print("flags:", [f["id"] for f in a.get("flags", [])]); print("temperature:", a.get("temperature")); print("dut warn/thresh:", a.get("dut", {}).get("warn_temp_c"), a.get("dut", {}).get("temp_thresh_c"))' "$O/e2e/review/analysis.json" >&2; fail "thermal_near_warn did not fire with the threshold set 1 °C above the controller's temperature"; }
echo "e2e: passed (report rendered with the controller's DUT summary)"
