/* guard.c — the destructive-write guard for block devices. Everything here
 * is read-only: sysfs (holders, partitions), /proc/self/mountinfo,
 * /proc/swaps and on-disk signatures read with plain pread. A device that is
 * mounted, active swap or held (LVM, md, dm) is always refused; one that only
 * carries a partition table or filesystem signature is refused unless force. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "bench/bench.h"

#define GUARD_MAX_DEVS 128

/* The device and its partitions, by sysfs name and dev_t. */
struct guard_devs {
  unsigned n;
  char name[GUARD_MAX_DEVS][64];
  dev_t dev[GUARD_MAX_DEVS];
};

static int read_small(const char *path, char *buf, size_t len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  ssize_t r = read(fd, buf, len - 1);
  int e = errno;
  close(fd);
  if (r < 0) return -e;
  buf[r] = 0;
  return 0;
}

static int parse_devnum(const char *s, dev_t *out) {
  char *end;
  unsigned long ma = strtoul(s, &end, 10);
  if (*end != ':') return -EINVAL;
  unsigned long mi = strtoul(end + 1, &end, 10);
  *out = makedev(ma, mi);
  return 0;
}

/* Finds the sysfs name of DEV and the names of its partitions. */
static int collect_devs(dev_t dev, struct guard_devs *d, struct ssdrev_err *err) {
  char path[512], link[512];
  snprintf(path, sizeof path, "/sys/dev/block/%u:%u", major(dev), minor(dev));
  ssize_t r = readlink(path, link, sizeof link - 1);
  if (r < 0) return ssdrev_fail(err, -errno, "cannot resolve %s: %s", path, strerror(errno));
  link[r] = 0;
  const char *base = strrchr(link, '/');
  base = base ? base + 1 : link;
  d->n = 1;
  snprintf(d->name[0], sizeof d->name[0], "%.63s", base);
  d->dev[0] = dev;
  snprintf(path, sizeof path, "/sys/class/block/%.63s", base);
  DIR *dir = opendir(path);
  if (!dir) return 0;
  struct dirent *de;
  while ((de = readdir(dir)) && d->n < GUARD_MAX_DEVS) {
    char p2[800], buf[64];
    if (de->d_name[0] == '.') continue;
    snprintf(p2, sizeof p2, "%s/%s/partition", path, de->d_name);
    if (access(p2, F_OK)) continue;
    snprintf(p2, sizeof p2, "%s/%s/dev", path, de->d_name);
    if (read_small(p2, buf, sizeof buf) || parse_devnum(buf, &d->dev[d->n])) continue;
    snprintf(d->name[d->n], sizeof d->name[0], "%.63s", de->d_name);
    d->n++;
  }
  closedir(dir);
  return 0;
}

static int check_holders(const struct guard_devs *d, struct ssdrev_err *err) {
  for (unsigned i = 0; i < d->n; i++) {
    char path[512];
    snprintf(path, sizeof path, "/sys/class/block/%s/holders", d->name[i]);
    DIR *dir = opendir(path);
    if (!dir) continue;
    struct dirent *de;
    char holder[256] = "";
    while ((de = readdir(dir)))
      if (de->d_name[0] != '.') {
        snprintf(holder, sizeof holder, "%s", de->d_name);
        break;
      }
    closedir(dir);
    if (holder[0])
      return ssdrev_fail(err, -EBUSY, "refusing to write '%s': %s is held by %s (LVM, md or dm)",
                         d->name[0], d->name[i], holder);
  }
  return 0;
}

/* Cuts the next space-separated field out of *cur (NUL-terminating it). */
static char *next_field(char **cur) {
  char *p = *cur;
  while (*p == ' ' || *p == '\n') p++;
  if (!*p) return NULL;
  char *start = p;
  while (*p && *p != ' ' && *p != '\n') p++;
  if (*p) *p++ = 0;
  *cur = p;
  return start;
}

/* mountinfo: "36 35 98:0 / /mnt rw,... - ext4 /dev/loop0 rw". Field 3 is the
 * st_dev of the filesystem; the source after " - fstype " catches btrfs,
 * whose st_dev is an anonymous number. */
static int check_mounts(const char *dev_path, const struct guard_devs *d, struct ssdrev_err *err) {
  FILE *f = fopen("/proc/self/mountinfo", "re");
  if (!f) return 0;
  char line[4096];
  int rc = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    char *cur = line, *fields[5], *tok = NULL, *src = NULL;
    int nf = 0;
    while (nf < 5 && (tok = next_field(&cur))) fields[nf++] = tok;
    if (nf < 5) continue;
    while ((tok = next_field(&cur)) && strcmp(tok, "-")) {
    }
    if (tok && next_field(&cur)) src = next_field(&cur); /* skip the fs type */
    dev_t md;
    int have = parse_devnum(fields[2], &md) == 0;
    for (unsigned i = 0; i < d->n; i++) {
      int hit = have && md == d->dev[i];
      if (!hit && src && src[0] == '/') {
        struct stat st;
        hit = stat(src, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == d->dev[i];
      }
      if (hit) {
        rc = ssdrev_fail(err, -EBUSY, "refusing to write '%s': %s is mounted at %s", dev_path,
                         d->name[i], fields[4]);
        break;
      }
    }
  }
  fclose(f);
  return rc;
}

static int check_swaps(const char *dev_path, const struct guard_devs *d, struct ssdrev_err *err) {
  FILE *f = fopen("/proc/swaps", "re");
  if (!f) return 0;
  char line[4096];
  int rc = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    char *sp = strpbrk(line, " \t");
    if (!sp || line[0] != '/') continue;
    *sp = 0;
    struct stat st;
    if (stat(line, &st) || !S_ISBLK(st.st_mode)) continue;
    for (unsigned i = 0; i < d->n; i++)
      if (st.st_rdev == d->dev[i]) {
        rc = ssdrev_fail(err, -EBUSY, "refusing to write '%s': %s is active swap", dev_path, d->name[i]);
        break;
      }
  }
  fclose(f);
  return rc;
}

/* ------------------------------------------------------------- signatures */

#define GUARD_PROBE_BYTES (68u * 1024u) /* covers btrfs at 64 KiB + 64 */

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
    {"swap space", 4096 - 10, "SWAPSPACE2", 10, NULL},
    {"swap space", 4096 - 10, "SWAP-SPACE", 10, NULL},
    {"NTFS filesystem", 3, "NTFS    ", 8, NULL},
    {"exFAT filesystem", 3, "EXFAT   ", 8, NULL},
    {"FAT filesystem", 54, "FAT1", 4, NULL},
    {"FAT filesystem", 82, "FAT32   ", 8, NULL},
    {"md RAID member", 4096, "\xfc\x4e\x2b\xa9", 4, NULL},
    {"ISO 9660 filesystem", 32769, "CD001", 5, NULL},
    {"F2FS filesystem", 1024, "\x10\x20\xf5\xf2", 4, NULL},
    {"bcache member", 4096 + 24, "\xc6\x85\x73\xf6\x4e\x1a\x45\xca", 8, NULL},
    {"MBR partition table", 510, "\x55\xaa", 2, classify_mbr}, /* last: FAT also has 0x55AA */
};

/* Names the first signature found in the first bytes of a device, or NULL. */
static const char *find_signature(const unsigned char *b, size_t n) {
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    const struct guard_sig *s = &sigs[i];
    if ((size_t)s->offset + s->len > n || memcmp(b + s->offset, s->magic, s->len)) continue;
    const char *what = s->classify ? s->classify(b, n, s->what) : s->what;
    if (what) return what;
  }
  return NULL;
}

static int check_signature(const char *dev_path, struct ssdrev_err *err) {
  int fd = open(dev_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ssdrev_fail(err, -errno, "cannot open '%s' to check signatures: %s", dev_path, strerror(errno));
  unsigned char *b = calloc(1, GUARD_PROBE_BYTES);
  if (!b) {
    close(fd);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  size_t got = 0;
  while (got < GUARD_PROBE_BYTES) {
    ssize_t r = pread(fd, b + got, GUARD_PROBE_BYTES - got, (off_t)got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
  }
  close(fd);
  const char *what = find_signature(b, got);
  free(b);
  if (what)
    return ssdrev_fail(err, -EEXIST, "refusing to write '%s': %s signature found (use --force to overwrite it)",
                       dev_path, what);
  return 0;
}

int bench_guard_check(const char *dev_path, int force, struct ssdrev_err *err) {
  struct stat st;
  if (stat(dev_path, &st)) return ssdrev_fail(err, -errno, "cannot stat '%s': %s", dev_path, strerror(errno));
  if (!S_ISBLK(st.st_mode)) return ssdrev_fail(err, -ENOTBLK, "'%s' is not a block device", dev_path);
  struct guard_devs *d = calloc(1, sizeof *d);
  if (!d) return ssdrev_fail(err, -ENOMEM, "out of memory");
  int rc = collect_devs(st.st_rdev, d, err);
  if (!rc) rc = check_mounts(dev_path, d, err);
  if (!rc) rc = check_swaps(dev_path, d, err);
  if (!rc) rc = check_holders(d, err);
  free(d);
  if (!rc && !force) rc = check_signature(dev_path, err);
  return rc;
}
