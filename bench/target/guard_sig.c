/* guard_sig.c — the guard's signature check: libblkid (util-linux's own
 * probe, the one wipefs, mkfs and udev use) finds every partition table and
 * superblock it knows, wherever it lives (swap's magic at the end of a 4, 16
 * or 64 KiB page, md 0.90 at the end of the device, minix, bfs...). The hand
 * list in guard.c is only the fallback for when libblkid cannot probe. */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench/bench.h"
#include "bench/target/guard_int.h"

/* Appends NAME to the ", "-separated list in what unless it is there. */
static void add_name(char *what, size_t len, const char *name) {
  size_t used = strlen(what);
  for (const char *p = what; (p = strstr(p, name)); p++) {
    size_t n = strlen(name);
    if ((p == what || (p - what >= 2 && p[-2] == ',')) && (p[n] == 0 || p[n] == ',')) return;
  }
  snprintf(what + used, len - used, "%s%s", used ? ", " : "", name);
}

/* blkid's names are terse (dos, linux_raid_member, crypto_LUKS): say what
 * each is, keeping the blkid name where it is the common one. */
static void describe(char *out, size_t len, const char *type, const char *usage, const char *version,
                     int is_table) {
  static const struct {
    const char *type, *name;
  } names[] = {
      {"dos", "MBR partition table"},
      {"gpt", "GPT partition table"},
      {"PMBR", "GPT protective MBR"},
      {"swap", "swap"},
      {"linux_raid_member", "md RAID member"},
      {"LVM2_member", "LVM2 physical volume"},
      {"LVM1_member", "LVM1 physical volume"},
      {"crypto_LUKS", "LUKS encrypted volume"},
      {"bcache", "bcache member"},
      {"zfs_member", "ZFS pool member"},
      {"ceph", "Ceph OSD"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(type, names[i].type)) {
      if (!strcmp(type, "linux_raid_member") && version)
        snprintf(out, len, "%s (metadata %s)", names[i].name, version);
      else
        snprintf(out, len, "%s", names[i].name);
      return;
    }
  if (is_table)
    snprintf(out, len, "%s partition table", type);
  else if (usage && !strcmp(usage, "filesystem"))
    snprintf(out, len, "%s filesystem", type);
  else if (usage && !strcmp(usage, "raid"))
    snprintf(out, len, "%s RAID member", type);
  else if (usage && !strcmp(usage, "crypto"))
    snprintf(out, len, "%s encrypted volume", type);
  else
    snprintf(out, len, "%s", type);
}

/* Every signature libblkid finds: blkid_do_probe in a loop (as wipefs
 * does) reports each prober's hit in turn, so a device carrying two of them
 * is not an "ambiguous" non-answer as with blkid_do_safeprobe. Returns the
 * count, or a negative errno when libblkid cannot probe PATH. */
static int probe_blkid(const char *path, char *what, size_t len, char *raw, size_t raw_len) {
  blkid_probe pr = blkid_new_probe_from_filename(path);
  if (!pr) return errno ? -errno : -EIO;
  int rc = blkid_probe_enable_superblocks(pr, 1);
  if (!rc)
    rc = blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_VERSION);
  if (!rc) rc = blkid_probe_enable_partitions(pr, 1);
  if (!rc) rc = blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
  int n = 0;
  while (!rc && (rc = blkid_do_probe(pr)) == 0) {
    const char *type = NULL, *usage = NULL, *version = NULL;
    char name[128];
    int table = 0;
    if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL)) {
      if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) continue;
      table = 1;
    }
    blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
    blkid_probe_lookup_value(pr, "VERSION", &version, NULL);
    describe(name, sizeof name, type, usage, version, table);
    add_name(what, len, name);
    if (raw) {
      size_t used = strlen(raw);
      snprintf(raw + used, raw_len - used, "%s%s=%s", used ? " " : "blkid ", table ? "PTTYPE" : "TYPE", type);
    }
    n++;
  }
  blkid_free_probe(pr);
  return rc < 0 ? -EIO : n; /* 1: no more probers */
}

static int read_at(int fd, unsigned char *b, size_t len, uint64_t off) {
  size_t got = 0;
  while (got < len) {
    ssize_t r = pread(fd, b + got, len - got, (off_t)(off + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -errno;
    if (r == 0) break;
    got += (size_t)r;
  }
  return (int)got;
}

static int probe_hand(const char *path, char *what, size_t len, struct ssdrev_err *err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ssdrev_fail(err, -errno, "cannot open '%s' to check signatures: %s", path, strerror(errno));
  struct stat st;
  uint64_t size = 0;
  if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode)) {
    if (ioctl(fd, BLKGETSIZE64, &size)) size = 0;
  } else if (S_ISREG(st.st_mode)) {
    size = (uint64_t)st.st_size;
  }
  unsigned char *b = calloc(1, GUARD_HEAD_BYTES + GUARD_TAIL_BYTES);
  if (!b) {
    close(fd);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  int n = 0;
  int got = read_at(fd, b, GUARD_HEAD_BYTES, 0);
  if (got < 0) {
    n = ssdrev_fail(err, got, "cannot read '%s' to check signatures: %s", path, strerror(-got));
  } else {
    const char *w = bench_guard_hand_head(b, (size_t)got);
    if (w) add_name(what, len, w), n++;
    size_t tail = size < GUARD_TAIL_BYTES ? (size_t)size : GUARD_TAIL_BYTES;
    unsigned char *t = b + GUARD_HEAD_BYTES;
    got = tail ? read_at(fd, t, tail, size - tail) : 0;
    w = got == (int)tail && tail ? bench_guard_hand_tail(t, tail, size) : NULL;
    if (w) add_name(what, len, w), n++;
  }
  free(b);
  close(fd);
  return n;
}

int bench_guard_find_signatures(const char *path, enum guard_probe how, char *what, size_t what_len, char *raw,
                          size_t raw_len, struct ssdrev_err *err) {
  what[0] = 0;
  if (raw) raw[0] = 0;
  if (how != GUARD_PROBE_HAND) {
    int n = probe_blkid(path, what, what_len, raw, raw_len);
    if (n >= 0) return n;
    if (how == GUARD_PROBE_BLKID)
      return ssdrev_fail(err, n, "cannot probe '%s' for signatures with libblkid: %s", path, strerror(-n));
    what[0] = 0;
  }
  if (raw) snprintf(raw, raw_len, "%s", how == GUARD_PROBE_HAND ? "hand list" : "hand list: libblkid could not probe it");
  return probe_hand(path, what, what_len, err);
}
