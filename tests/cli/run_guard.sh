#!/bin/sh
# The destructive-write guard, on loop devices over temp files only:
# refused without --destructive; ext4 signature refused (named) unless
# --force; mounted device refused (naming the mount) even with --force;
# a clean device allowed with --destructive. Skips when not root or
# without losetup.
set -u
fail() { echo "run_guard: $*" >&2; exit 1; }
S=${SSDREV:?SSDREV must point at the ssdrev binary}
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null 2>&1; then echo "skip: needs root and losetup"; exit 0; fi
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
L1=""; L2=""; MNT=""
cleanup() {
  [ -n "$MNT" ] && umount "$MNT" 2>/dev/null
  [ -n "$L1" ] && losetup -d "$L1" 2>/dev/null
  [ -n "$L2" ] && losetup -d "$L2" 2>/dev/null
  rm -rf "$D"
}
trap cleanup EXIT INT TERM
truncate -s 64M "$D/clean.img" "$D/ext4.img"
L1=$(losetup -f --show "$D/clean.img") || { echo "skip: losetup failed"; exit 0; }
L2=$(losetup -f --show "$D/ext4.img") || fail "second losetup failed"

# Reading needs nothing special.
"$S" run "$L1" --out "$D/r0" --rw randread --runtime 100ms --quiet >/dev/null || fail "read of a clean loop device failed"

# Writing without --destructive is refused.
err=$("$S" run "$L1" --out "$D/r1" --rw randwrite --runtime 100ms --quiet 2>&1); rc=$?
[ $rc -eq 1 ] || fail "write without --destructive exited $rc"
echo "$err" | grep -q -- "--destructive" || fail "refusal does not name --destructive: $err"

# A clean device may be written with --destructive.
"$S" run "$L1" --out "$D/r2" --rw randwrite --runtime 100ms --destructive --quiet >/dev/null || fail "clean loop refused with --destructive"

# An ext4 signature is refused, named, and --force overrides it.
command -v mkfs.ext4 >/dev/null 2>&1 || { echo "skip: no mkfs.ext4"; exit 0; }
mkfs.ext4 -q -F "$L2" >/dev/null 2>&1 || fail "mkfs.ext4 failed"
err=$("$S" run "$L2" --out "$D/r3" --rw randwrite --runtime 100ms --destructive --quiet 2>&1); rc=$?
[ $rc -eq 1 ] || fail "ext4 device not refused (exit $rc)"
echo "$err" | grep -q "ext4 filesystem signature" || fail "refusal does not name the ext4 signature: $err"

# Mounted: refused naming the mount, even with --force.
MNT="$D/mnt"; mkdir "$MNT"
if mount "$L2" "$MNT" 2>/dev/null; then
  err=$("$S" run "$L2" --out "$D/r4" --rw randwrite --runtime 100ms --destructive --force --quiet 2>&1); rc=$?
  [ $rc -eq 1 ] || fail "mounted device not refused (exit $rc)"
  echo "$err" | grep -q "mounted at $MNT" || fail "refusal does not name the mount: $err"
  umount "$MNT" || fail "umount failed"
else
  echo "note: mount unavailable here, mounted case not checked"
fi
MNT=""

"$S" run "$L2" --out "$D/r5" --rw randwrite --runtime 100ms --destructive --force --quiet >/dev/null || fail "--force did not override the signature"
exit 0
