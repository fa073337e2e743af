/* guard.c — the destructive-write guard for block devices. Everything here
 * is read-only. A device that is in use (guard_use.c: mounted in any mount
 * namespace, active swap, held, backing a loop device...) or read-only is
 * always refused; one that carries a partition table or a filesystem, RAID,
 * LVM, LUKS or swap signature (guard_sig.c: libblkid, and the hand list
 * below when libblkid cannot probe) is refused unless force. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "bench/bench.h"
#include "bench/target/guard_int.h"

/* ------------------------------------------------ signatures: the hand list */

struct guard_sig {
  const char *what;
  uint32_t offset;
  const char *magic;
  size_t len;
  /* Optional: refines the name (ext2/3/4) or rejects a false match. */
  const char *(*classify)(const unsigned char *b, size_t n, const char *what);
};

static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static const char *classify_ext(const unsigned char *b, size_t n, const char *what) {
  (void)what, (void)n;
  uint32_t compat = le32(b + 1024 + 0x5c), incompat = le32(b + 1024 + 0x60);
  /* extents, 64bit, flex_bg are ext4-only; a journal alone means ext3 */
  if (incompat & (0x40u | 0x80u | 0x200u)) return "ext4 filesystem";
  if (compat & 0x4u) return "ext3 filesystem";
  return "ext2 filesystem";
}

/* An MBR: 0x55AA plus at least one non-empty partition entry. */
static const char *classify_mbr(const unsigned char *b, size_t n, const char *what) {
  (void)n;
  for (int i = 0; i < 4; i++)
    if (b[446 + 16 * i + 4] != 0) return what;
  return NULL;
}

static const struct guard_sig sigs[] = {
    {"GPT partition table", 512, "EFI PART", 8, NULL},
    {"GPT partition table", 4096, "EFI PART", 8, NULL},
    {"ext2/3/4 filesystem", 1080, "\x53\xef", 2, classify_ext},
    {"XFS filesystem", 0, "XFSB", 4, NULL},
    {"btrfs filesystem", 65536 + 64, "_BHRfS_M", 8, NULL},
    {"LUKS encrypted volume", 0, "LUKS\xba\xbe", 6, NULL},
    {"LVM2 physical volume", 512 + 24, "LVM2 001", 8, NULL},
    {"LVM2 physical volume", 512, "LABELONE", 8, NULL},
    /* swap's magic ends its first page: pages of 4, 8, 16, 32 and 64 KiB
     * (mkswap -p; arm64 and ppc64 kernels use 16 and 64 KiB) */
    {"swap", 4096 - 10, "SWAPSPACE2", 10, NULL},
    {"swap", 4096 - 10, "SWAP-SPACE", 10, NULL},
    {"swap", 8192 - 10, "SWAPSPACE2", 10, NULL},
    {"swap", 16384 - 10, "SWAPSPACE2", 10, NULL},
    {"swap", 32768 - 10, "SWAPSPACE2", 10, NULL},
    {"swap", 65536 - 10, "SWAPSPACE2", 10, NULL},
    {"NTFS filesystem", 3, "NTFS    ", 8, NULL},
    {"exFAT filesystem", 3, "EXFAT   ", 8, NULL},
    {"FAT filesystem", 54, "FAT1", 4, NULL},
    {"FAT filesystem", 82, "FAT32   ", 8, NULL},
    {"md RAID member (metadata 1.2)", 4096, "\xfc\x4e\x2b\xa9", 4, NULL},
    {"md RAID member (metadata 1.1)", 0, "\xfc\x4e\x2b\xa9", 4, NULL},
    {"minix filesystem", 1024 + 16, "\x7f\x13", 2, NULL}, /* v1, 14-char names */
    {"minix filesystem", 1024 + 16, "\x8f\x13", 2, NULL}, /* v1, 30-char names */
    {"minix filesystem", 1024 + 16, "\x68\x24", 2, NULL}, /* v2 */
    {"minix filesystem", 1024 + 16, "\x78\x24", 2, NULL}, /* v2, 30-char names */
    {"minix filesystem", 1024 + 24, "\x5a\x4d", 2, NULL}, /* v3 */
    {"bfs filesystem", 0, "\xce\xfa\xad\x1b", 4, NULL},
    {"ISO 9660 filesystem", 32769, "CD001", 5, NULL},
    {"F2FS filesystem", 1024, "\x10\x20\xf5\xf2", 4, NULL},
    {"bcache member", 4096 + 24, "\xc6\x85\x73\xf6\x4e\x1a\x45\xca", 8, NULL},
    {"MBR partition table", 510, "\x55\xaa", 2, classify_mbr}, /* last: FAT also has 0x55AA */
};

const char *bench_guard_hand_head(const unsigned char *b, size_t n) {
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    const struct guard_sig *s = &sigs[i];
    if ((size_t)s->offset + s->len > n || memcmp(b + s->offset, s->magic, s->len)) continue;
    const char *what = s->classify ? s->classify(b, n, s->what) : s->what;
    if (what) return what;
  }
  return NULL;
}

/* md 0.90 keeps its superblock in the last 64 KiB-aligned 64 KiB block, md
 * 1.0 8 KiB from the end (4 KiB-aligned), GPT a backup header in the last
 * 512-byte LBA (or the last 4 KiB one on 4Kn drives). */
const char *bench_guard_hand_tail(const unsigned char *tail, size_t n, uint64_t dev_bytes) {
  if (n > dev_bytes) return NULL;
  uint64_t base = dev_bytes - n; /* device offset of tail[0] */
  struct {
    const char *what;
    uint64_t at; /* device offset, or UINT64_MAX when the device is too small */
    const char *magic;
    size_t len;
  } c[] = {
      {"md RAID member (metadata 0.90)",
       dev_bytes >= 0x20000 ? (dev_bytes & ~(uint64_t)0xffff) - 0x10000 : UINT64_MAX, "\xfc\x4e\x2b\xa9", 4},
      {"md RAID member (metadata 1.0)", dev_bytes >= 0x3000 ? ((dev_bytes - 8192) & ~(uint64_t)4095) : UINT64_MAX,
       "\xfc\x4e\x2b\xa9", 4},
      {"GPT partition table (backup header)", dev_bytes >= 1024 ? dev_bytes - 512 : UINT64_MAX, "EFI PART", 8},
      {"GPT partition table (backup header)", dev_bytes >= 8192 ? dev_bytes - 4096 : UINT64_MAX, "EFI PART", 8},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    if (c[i].at == UINT64_MAX || c[i].at < base || c[i].at + c[i].len > dev_bytes) continue;
    if (!memcmp(tail + (c[i].at - base), c[i].magic, c[i].len)) return c[i].what;
  }
  return NULL;
}

/* A read-only device (BLKROSET, losetup -r, a write-protected card) takes
 * no writes: every I/O of a write job would fail. sysfs says so without an
 * open; target.c asks BLKROGET too once it has the fd. */
static int check_read_only(const char *dev_path, dev_t dev, struct ssdrev_err *err) {
  char path[128], v[8] = "";
  snprintf(path, sizeof path, "/sys/dev/block/%u:%u/ro", major(dev), minor(dev));
  FILE *f = fopen(path, "re");
  if (!f) return 0;
  int ro = fgets(v, sizeof v, f) && v[0] == '1';
  fclose(f);
  if (ro) return ssdrev_fail(err, -EROFS, "refusing to write '%s': the device is read-only", dev_path);
  return 0;
}

int bench_guard_check(const char *dev_path, int force, struct ssdrev_err *err) {
  struct stat st;
  if (stat(dev_path, &st)) return ssdrev_fail(err, -errno, "cannot stat '%s': %s", dev_path, strerror(errno));
  if (!S_ISBLK(st.st_mode)) return ssdrev_fail(err, -ENOTBLK, "'%s' is not a block device", dev_path);
  /* In use and read-only are never overridable: --force is about data, and
   * these would corrupt something live or fail every write. */
  int rc = bench_guard_check_in_use(dev_path, st.st_rdev, err);
  if (!rc) rc = check_read_only(dev_path, st.st_rdev, err);
  if (rc || force) return rc;
  char what[400], raw[200];
  int n = bench_guard_find_signatures(dev_path, GUARD_PROBE_AUTO, what, sizeof what, raw, sizeof raw, err);
  if (n < 0) return n;
  if (n == 1)
    return ssdrev_fail(err, -EEXIST, "refusing to write '%s': %s signature found (%s; use --force to overwrite it)",
                       dev_path, what, raw);
  if (n > 1)
    return ssdrev_fail(err, -EEXIST,
                       "refusing to write '%s': %s signatures found (%s; use --force to overwrite them)", dev_path,
                       what, raw);
  return 0;
}
