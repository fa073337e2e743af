#!/bin/sh
# test: serial
# The destructive-write guard against every way a block device can be in
# use or carry data, on loop devices over temp files this test creates only.
# Each case: `ssdrev run DEV --destructive [--force] --rw write` is refused
# (exit 1) with the right reason, and the device's bytes are unchanged
# (cksum before and after). Cases:
#   stacked loop (B over A), unmounted; B mounted ext4 (A refused naming the
#   chain, B refused as mounted); a loop over a mounted device; two loops
#   over one file, the other mounted or attached; a partition mounted
#   (losetup -P); mounted
#   in another mount namespace only (unshare -m); the home of a file that
#   backs a loop device after a lazy umount; active swap; read-only
#   (losetup -r); swap signatures with 4, 16 and 64 KiB pages (mkswap -p);
#   md 0.90 and 1.2 superblocks; minix; bfs; LVM (pvcreate); LUKS
#   (cryptsetup); a live md array and dm holders when the kernel has them;
#   a blank device accepted with --destructive.
# Every case that cannot run here prints "skip: CASE: why". Exits 0 when not
# root or without losetup.
set -u
S=${SSDREV:?SSDREV must point at the ssdrev binary}
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null 2>&1; then echo "skip: guard matrix: needs root and losetup"; exit 0; fi
D=$(mktemp -d /tmp/ssdrev-cli.XXXXXX)
# attach runs in a command substitution (a subshell), so the loop devices it
# makes are listed in a file, not a variable: cleanup detaches them all
LOOPLIST=$(mktemp /tmp/ssdrev-loops.XXXXXX)
LOOPS="" MOUNTS="" SWAPS="" NSPID="" MDDEV="" DMN=""
cleanup() {
  [ -n "$NSPID" ] && kill "$NSPID" 2>/dev/null && wait "$NSPID" 2>/dev/null
  [ -n "$MDDEV" ] && mdadm --stop "$MDDEV" >/dev/null 2>&1
  [ -n "$DMN" ] && dmsetup remove "$DMN" >/dev/null 2>&1
  for s in $SWAPS; do swapoff "$s" 2>/dev/null; done
  # io_uring may hold a file briefly after the process exits: retry umount
  for m in $MOUNTS; do
    for i in 1 2 3 4 5 6 7 8 9 10; do umount "$m" 2>/dev/null && break; sleep 0.3; done
  done
  # newest first; only a device still backed by our files or our loops (a
  # number detached earlier may since belong to someone else)
  for l in $LOOPS $(tac "$LOOPLIST" 2>/dev/null); do
    bf=$(losetup -n -O BACK-FILE "$l" 2>/dev/null)
    case "$bf" in
      "$D"/*) losetup -d "$l" 2>/dev/null ;;
      /dev/loop*) grep -qx "$bf" "$LOOPLIST" && losetup -d "$l" 2>/dev/null ;;
    esac
  done
  rm -f "$LOOPLIST"
  rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "guard_matrix: FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*"; }
n=0

# attach FILE [losetup options]: a loop device over FILE, detached on exit.
attach() {
  f=$1; shift
  l=$(losetup -f --show "$@" "$f") || return 1
  LOOPS="$l $LOOPS"
  echo "$l" >>"$LOOPLIST"
  echo "$l"
}
detach() {
  losetup -d "$1" || fail "losetup -d $1"
  LOOPS=$(echo " $LOOPS " | sed "s| $1 | |")
}
img() { truncate -s "${2:-32M}" "$D/$1.img" && echo "$D/$1.img"; }
# DEV DIR [OPTS]: read-only unless told otherwise, so that the filesystem's
# own writeback (journal commits, superblock updates) cannot change the bytes
# the cases compare; the guard refuses a read-only mount all the same.
do_mount() { mount -o "${3:-ro}" "$1" "$2" && MOUNTS="$2 $MOUNTS"; }
do_umount() {
  for i in 1 2 3 4 5 6 7 8 9 10; do umount "$1" 2>/dev/null && break; sleep 0.3; done
  MOUNTS=$(echo " $MOUNTS " | sed "s| $1 | |")
}
sum() { cksum <"$1"; }

# refused CASE DEV PATTERN [--force]: a write run is refused with PATTERN in
# the message, and DEV's bytes do not change. GUARD_MATRIX_KEEP_GOING=1
# reports every failing case instead of stopping at the first (to measure an
# older build); the script still exits 1.
nbad=0
bad() {
  [ -n "${GUARD_MATRIX_KEEP_GOING:-}" ] || fail "$*"
  echo "guard_matrix: FAIL: $*" >&2; nbad=$((nbad+1))
}
refused() {
  c=$1 dev=$2 pat=$3; shift 3
  n=$((n+1))
  sync
  before=$(sum "$dev")
  err=$("$S" run "$dev" --out "$D/run$n" --rw write --runtime 100ms --destructive "$@" --quiet 2>&1 >/dev/null); rc=$?
  if [ $rc -ne 1 ]; then bad "$c: not refused (exit $rc): $err"
  elif ! echo "$err" | grep -q -- "$pat"; then bad "$c: message does not say '$pat': $err"
  elif echo "$err" | grep -q 'runtime error\|AddressSanitizer'; then bad "$c: sanitizer report: $err"
  elif [ "$(sum "$dev")" != "$before" ]; then bad "$c: the bytes of $dev changed"
  else echo "ok: $c"; fi
  [ "$(sum "$dev")" = "$before" ] || echo "guard_matrix: $c: the bytes of $dev changed" >&2
}

# ---- a blank device: accepted with --destructive (the control)
A=$(attach "$(img blank)") || { skip "guard matrix: losetup failed"; exit 0; }
"$S" run "$A" --out "$D/blank" --rw write --runtime 100ms --destructive --quiet >/dev/null \
  || fail "blank device refused with --destructive"
echo "ok: blank device accepted"
detach "$A"

# ---- stacked loop: B over A; A backs B (unmounted, attached), then B mounted
A=$(attach "$(img stackA)") || fail "losetup A"
B=$(attach "$A") || fail "losetup B over $A"
refused "stacked loop, upper unmounted" "$A" "refusing to write '$A': it backs $B" --force
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$B" >/dev/null 2>&1 || fail "mkfs.ext4 on $B"
mkdir "$D/mB"
if do_mount "$B" "$D/mB"; then
  refused "stacked loop, upper mounted" "$A" "it backs $B, which is mounted at $D/mB" --force
  refused "mounted upper device" "$B" "it is mounted at $D/mB" --force
  do_umount "$D/mB"
else
  skip "stacked loop, upper mounted: mount failed"
fi
detach "$B"
detach "$A"

# ---- below a loop device: a backing device mounted; a backing file that
# also backs another loop device (mounted, then only attached)
A=$(attach "$(img lowerA)") || fail "losetup"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$A" >/dev/null 2>&1 || fail "mkfs.ext4"
mkdir "$D/mL"
do_mount "$A" "$D/mL" || fail "mount"
B=$(attach "$A") || fail "losetup over $A"
refused "loop over a mounted device" "$B" "refusing to write '$B': it is backed by $A, which is mounted at $D/mL" --force
detach "$B"
do_umount "$D/mL"
detach "$A"
I=$(img shared)
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$I" >/dev/null 2>&1 || fail "mkfs.ext4"
A=$(attach "$I") || fail "losetup"
B=$(attach "$I") || fail "second losetup of the same file"
do_mount "$B" "$D/mL" || fail "mount"
refused "backing file shared with a mounted loop" "$A" "it is backed by $I, which also backs $B, which is mounted at $D/mL" --force
do_umount "$D/mL"
refused "backing file shared with an attached loop" "$A" "which also backs $B" --force
detach "$B"
detach "$A"

# ---- a partition mounted: the whole device is refused, naming it
if command -v sfdisk >/dev/null 2>&1; then
  P=$(img parts 48M)
  printf 'label: gpt\n,16M\n,\n' | sfdisk -q "$P" >/dev/null 2>&1 || fail "sfdisk"
  A=$(attach "$P" -P) || fail "losetup -P"
  # the kernel lists the partition in sysfs; without udev there may be no node
  P1=/sys/class/block/$(basename "$A")p1
  i=0; while [ ! -e "$P1/dev" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done
  N1="${A}p1"
  if [ -e "$P1/dev" ] && [ ! -b "$N1" ]; then
    N1="$D/p1"; mknod "$N1" b "$(cut -d: -f1 "$P1/dev")" "$(cut -d: -f2 "$P1/dev")" || fail "mknod"
  fi
  if [ ! -e "$P1/dev" ]; then
    skip "partition mounted: this kernel made no partitions for losetup -P (no partition table support?)"
  elif mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$N1" >/dev/null 2>&1 \
      && mkdir "$D/mP" && do_mount "$N1" "$D/mP"; then
    refused "partition mounted (whole device)" "$A" "its partition $(basename "$A")p1 is mounted at $D/mP" --force
    refused "partition mounted (the partition)" "$N1" "it is mounted at $D/mP" --force
    do_umount "$D/mP"
  else
    fail "partition mounted: mkfs or mount of the partition failed"
  fi
  detach "$A"
else
  skip "partition mounted: no sfdisk"
fi

# ---- mounted in another mount namespace only
A=$(attach "$(img ns)") || fail "losetup"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$A" >/dev/null 2>&1 || fail "mkfs.ext4"
mkdir "$D/mNS"
if command -v unshare >/dev/null 2>&1; then
  unshare -m --propagation private sh -c "mount -o ro,noatime '$A' '$D/mNS' && touch '$D/ns.ready' && exec sleep 120" &
  NSPID=$!
  i=0; while [ ! -f "$D/ns.ready" ] && kill -0 "$NSPID" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  if [ -f "$D/ns.ready" ]; then
    grep -q " $D/mNS " /proc/self/mountinfo && fail "the namespace's mount leaked into ours"
    refused "mounted in another mount namespace" "$A" "mounted at $D/mNS in another mount namespace" --force
  else
    skip "mounted in another mount namespace: unshare -m failed"
  fi
  kill "$NSPID" 2>/dev/null; wait "$NSPID" 2>/dev/null; NSPID=""
else
  skip "mounted in another mount namespace: no unshare"
fi
detach "$A"

# ---- the home of a file backing a loop device, lazily unmounted: the
# filesystem lives on (the loop holds the file) but is in no mountinfo.
A=$(attach "$(img home)") || fail "losetup"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$A" >/dev/null 2>&1 || fail "mkfs.ext4"
mkdir "$D/mH"
do_mount "$A" "$D/mH" rw,noatime || fail "mount"
truncate -s 4M "$D/mH/inner.img"
C=$(attach "$D/mH/inner.img") || fail "losetup over a file on $A"
refused "file on it backs a loop, mounted" "$A" "it is mounted at $D/mH" --force
umount -l "$D/mH" || fail "umount -l"
MOUNTS=$(echo " $MOUNTS " | sed "s| $D/mH | |")
refused "file on it backs a loop, lazily unmounted" "$A" "it holds the file .*inner.img, which backs $C" --force
detach "$C"
detach "$A"

# ---- active swap, even with --force
A=$(attach "$(img swap)") || fail "losetup"
mkswap "$A" >/dev/null 2>&1 || fail "mkswap"
if swapon "$A" 2>/dev/null; then
  SWAPS="$A"
  refused "active swap" "$A" "it is active swap" --force
  swapoff "$A" || fail "swapoff"
  SWAPS=""
else
  skip "active swap: swapon failed here"
fi
detach "$A"

# ---- read-only (losetup -r), even with --force
A=$(attach "$(img ro)" -r) || fail "losetup -r"
refused "read-only device" "$A" "refusing to write '$A': the device is read-only" --force
detach "$A"

# ---- swap signatures with 4, 16 and 64 KiB pages
for ps in 4096 16384 65536; do
  A=$(attach "$(img "swap$ps")") || fail "losetup"
  mkswap -p "$ps" "$A" >/dev/null 2>&1 || fail "mkswap -p $ps"
  refused "swap signature, $ps-byte pages" "$A" "refusing to write '$A': swap signature found (blkid TYPE=swap; use --force"
  detach "$A"
done

# ---- md superblocks, written as mdadm writes them (0.90: in the last
# 64 KiB-aligned 64 KiB of the device; 1.2: 4 KiB from the start)
mdsb() { # IMG VERSION
  python3 - "$1" "$2" <<'PY'
import os, struct, sys
img, ver = sys.argv[1], sys.argv[2]
size = os.path.getsize(img)
with open(img, 'r+b') as f:
    if ver == '0.90':
        off = (size & ~0xffff) - 0x10000
        sb = bytearray(4096)
        # magic, major, minor, patch, gvalid_words, set_uuid0, ctime, level, size (KiB), nr_disks, raid_disks
        struct.pack_into('<11I', sb, 0, 0xa92b4efc, 0, 90, 0, 0, 0x12345678, 1700000000, 1, off // 1024, 2, 2)
        struct.pack_into('<3I', sb, 13 * 4, 0x9abcdef0, 0x11111111, 0x22222222)  # set_uuid1..3
        struct.pack_into('<I', sb, 38 * 4, sum(struct.unpack('<1024I', bytes(sb))) & 0xffffffff)  # sb_csum
    else:
        off = 4096
        sb = bytearray(1024)
        struct.pack_into('<4I', sb, 0, 0xa92b4efc, 1, 0, 0)                # magic, major_version, feature_map, pad
        sb[16:32] = bytes(range(1, 17))                                     # set_uuid
        sb[32:36] = b'test'                                                 # set_name
        struct.pack_into('<QiI', sb, 64, 1700000000, 1, 0)                  # ctime, level, layout
        struct.pack_into('<QII', sb, 80, (size - 8192) // 512, 0, 2)        # size, chunksize, raid_disks
        struct.pack_into('<QQQQ', sb, 128, 16, (size - 8192) // 512, off // 512, 0)  # data_offset, data_size, super_offset, recovery
        struct.pack_into('<I', sb, 220, 2)                                  # max_dev
        struct.pack_into('<2H', sb, 256, 0, 1)                              # dev_roles
        c = sum(struct.unpack('<%dI' % ((256 + 4) // 4), bytes(sb[:260])))
        struct.pack_into('<I', sb, 216, ((c & 0xffffffff) + (c >> 32)) & 0xffffffff)  # sb_csum
    f.seek(off)
    f.write(sb)
PY
}
for v in 0.90 1.2; do
  I=$(img "md$v" 33M)
  mdsb "$I" "$v" || fail "writing an md $v superblock"
  A=$(attach "$I") || fail "losetup"
  refused "md $v superblock" "$A" "md RAID member (metadata $v[.0]*) signature found"
  detach "$A"
done

# ---- minix and bfs (util-linux)
for fs in minix bfs; do
  if command -v "mkfs.$fs" >/dev/null 2>&1; then
    A=$(attach "$(img "$fs")") || fail "losetup"
    "mkfs.$fs" "$A" >/dev/null 2>&1 || fail "mkfs.$fs"
    refused "$fs filesystem" "$A" "$fs filesystem signature found"
    detach "$A"
  else
    skip "$fs filesystem: no mkfs.$fs"
  fi
done

# ---- LVM physical volume (only this device is visible to pvcreate)
if command -v pvcreate >/dev/null 2>&1; then
  A=$(attach "$(img lvm)") || fail "losetup"
  if LVM_SUPPRESS_FD_WARNINGS=1 pvcreate -q --devices "$A" "$A" >/dev/null 2>&1; then
    refused "LVM physical volume" "$A" "LVM2 physical volume signature found"
  else
    skip "LVM physical volume: pvcreate failed here"
  fi
  detach "$A"
else
  skip "LVM physical volume: no pvcreate (apt-get install lvm2)"
fi

# ---- LUKS (a keyfile; pbkdf2 with few iterations keeps it fast)
if command -v cryptsetup >/dev/null 2>&1; then
  A=$(attach "$(img luks)") || fail "losetup"
  head -c 64 /dev/urandom >"$D/key"
  if cryptsetup luksFormat -q --batch-mode --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
      --key-file "$D/key" "$A" >/dev/null 2>&1; then
    refused "LUKS volume" "$A" "LUKS encrypted volume signature found"
  else
    skip "LUKS volume: cryptsetup luksFormat failed here"
  fi
  detach "$A"
else
  skip "LUKS volume: no cryptsetup (apt-get install cryptsetup-bin)"
fi

# ---- a live md array (holders): needs the md driver
command -v modprobe >/dev/null 2>&1 && modprobe md_mod >/dev/null 2>&1
if ! command -v mdadm >/dev/null 2>&1; then
  skip "md live array: no mdadm (apt-get install mdadm)"
elif [ ! -e /proc/mdstat ]; then
  skip "md live array: no md driver in this kernel (/proc/mdstat missing, modprobe md_mod failed)"
else
  A=$(attach "$(img mdA)") || fail "losetup"
  B=$(attach "$(img mdB)") || fail "losetup"
  MDDEV=/dev/md/ssdrev-guard-$$
  if mdadm --build "$MDDEV" --level=linear --raid-devices=2 "$A" "$B" >/dev/null 2>&1; then
    refused "md live array member" "$A" "it is held by /dev/md" --force
    mdadm --stop "$MDDEV" >/dev/null 2>&1
  else
    skip "md live array: mdadm --build failed here"
  fi
  MDDEV=""
  detach "$B"
  detach "$A"
fi

# ---- device-mapper holders: needs dm in the kernel
if ! command -v dmsetup >/dev/null 2>&1; then
  skip "dm holder: no dmsetup (apt-get install dmsetup)"
elif ! dmsetup version >/dev/null 2>&1; then
  skip "dm holder: no device-mapper in this kernel (dmsetup cannot reach /dev/mapper/control)"
else
  A=$(attach "$(img dm)") || fail "losetup"
  DMN=ssdrev-guard-$$
  if dmsetup create "$DMN" --table "0 $(blockdev --getsz "$A") linear $A 0" >/dev/null 2>&1; then
    refused "dm holder" "$A" "it is held by /dev/dm-[0-9]* (device-mapper $DMN)" --force
    dmsetup remove "$DMN" >/dev/null 2>&1
  else
    skip "dm holder: dmsetup create failed here"
  fi
  DMN=""
  detach "$A"
fi
[ $nbad -eq 0 ] || { echo "guard_matrix: $nbad cases failed" >&2; exit 1; }
exit 0
