/* guard_use.c — is a block device in use? Every way the kernel lets
 * something else depend on a device's bytes, read without writing anything:
 *   - mounts, in every mount namespace (/proc/PID/mountinfo, one process per
 *     namespace, told apart by the inode of /proc/PID/ns/mnt);
 *   - active swap (/proc/swaps);
 *   - holders (dm, md, LVM, bcache: /sys/class/block/NAME/holders), and the
 *     same seen from the other side (/sys/class/block/X/slaves/NAME, md's
 *     /sys/class/block/X/md/dev-NAME, zram's backing_dev);
 *   - loop devices: backed by the device itself (LOOP_GET_STATUS64
 *     lo_rdevice, or sysfs backing_file), or by a file on a filesystem on it
 *     (lo_device) — which a lazy umount leaves alive but out of mountinfo;
 *     O_EXCL does not see a loop's backing device, so this is the only check;
 *   - btrfs filesystems (/sys/fs/btrfs/UUID/devices/NAME) and bcache;
 *   - for a loop device, what lies below it: a backing device in use by
 *     anything else, a backing file that also backs another loop device or
 *     is active swap.
 * The device, each of its partitions and (for a partition) its whole disk
 * are checked; a user that is itself in use is followed, so the message
 * names the chain. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "bench/bench.h"
#include "bench/target/guard_int.h"

#define USE_MAX_DEPTH 8   /* stacked users followed (loop over loop over dm...) */
#define USE_MAX_PARTS 128 /* partitions of one device checked */

struct use_mount {
  dev_t dev;       /* st_dev of the filesystem (mountinfo MAJ:MIN); 0 if anonymous */
  dev_t src_rdev;  /* the source's device number when dev is anonymous (btrfs); 0 if none */
  char *point;     /* the mount point, as that namespace sees it */
  int pid;         /* 0: our own mount namespace; else a process in the other one */
};

struct use_loop {
  char name[64];      /* loopN */
  dev_t backing_rdev; /* the backing block device; 0 when the backing is a file */
  dev_t backing_fs;   /* st_dev of the backing file's filesystem; 0 if unknown */
  ino_t backing_ino;  /* the backing file's inode (with backing_fs: the file) */
  char file[512];     /* sysfs backing_file */
};

struct use_swap {
  dev_t rdev;          /* 0 for a swap file, or when the path cannot be resolved here */
  dev_t file_dev;      /* a swap file: its st_dev and inode; 0 otherwise */
  ino_t file_ino;
  char path[512];
};

struct use_scan {
  struct use_mount *m;
  size_t nm, capm;
  struct use_loop *l;
  size_t nl, capl;
  struct use_swap *s;
  size_t ns, caps;
  char self[64]; /* the device asked about: never its own user */
};

/* Grows *v (of *cap elements of size elem) so that one more fits. */
static int grow(void **v, size_t *cap, size_t n, size_t elem) {
  if (n < *cap) return 0;
  size_t nc = *cap ? *cap * 2 : 16;
  void *p = realloc(*v, nc * elem);
  if (!p) return -ENOMEM;
  *v = p;
  *cap = nc;
  return 0;
}

static int read_line(const char *path, char *buf, size_t len) {
  FILE *f = fopen(path, "re");
  if (!f) return -errno;
  int ok = fgets(buf, (int)len, f) != NULL;
  fclose(f);
  if (!ok) return -EIO;
  buf[strcspn(buf, "\n")] = 0;
  return 0;
}

static int parse_devnum(const char *s, dev_t *out) {
  char *end;
  unsigned long ma = strtoul(s, &end, 10);
  if (end == s || *end != ':') return -EINVAL;
  const char *mi_s = end + 1;
  unsigned long mi = strtoul(mi_s, &end, 10);
  if (end == mi_s) return -EINVAL;
  *out = makedev(ma, mi);
  return 0;
}

/* The device number of the sysfs block device NAME. */
static int sysfs_dev(const char *name, dev_t *out) {
  char path[128], buf[64];
  snprintf(path, sizeof path, "/sys/class/block/%.63s/dev", name);
  int rc = read_line(path, buf, sizeof buf);
  return rc ? rc : parse_devnum(buf, out);
}

/* The sysfs name of DEV ("loop3", "sda1"). */
static int sysfs_name(dev_t dev, char *name, size_t len) {
  char path[128], link[512];
  snprintf(path, sizeof path, "/sys/dev/block/%u:%u", major(dev), minor(dev));
  ssize_t r = readlink(path, link, sizeof link - 1);
  if (r < 0) return -errno;
  link[r] = 0;
  const char *base = strrchr(link, '/');
  snprintf(name, len, "%.63s", base ? base + 1 : link);
  return 0;
}

/* ------------------------------------------------------------------ mounts */

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

/* mountinfo: "36 35 98:0 / /mnt rw,... [optional...] - ext4 /dev/loop0 rw".
 * Field 3 is the st_dev of the filesystem; the source after " - fstype "
 * catches btrfs, whose st_dev is an anonymous (major 0) number. */
static int load_mountinfo(struct use_scan *s, const char *path, int pid) {
  FILE *f = fopen(path, "re");
  if (!f) return 0; /* the process is gone, or not ours to read */
  char *line = NULL;
  size_t cap = 0;
  int rc = 0;
  while (!rc && getline(&line, &cap, f) > 0) {
    char *cur = line, *fields[5], *tok = NULL, *src = NULL;
    int nf = 0;
    while (nf < 5 && (tok = next_field(&cur))) fields[nf++] = tok;
    if (nf < 5) continue;
    while ((tok = next_field(&cur)) && strcmp(tok, "-")) {
    }
    if (tok && next_field(&cur)) src = next_field(&cur); /* skips the fs type */
    struct use_mount m = {0};
    if (parse_devnum(fields[2], &m.dev)) continue;
    if (major(m.dev) == 0) {
      m.dev = 0;
      struct stat st;
      char other[1100];
      if (!src || src[0] != '/') continue;
      /* A path in another namespace: resolve it there first. */
      snprintf(other, sizeof other, "/proc/%d/root%s", pid, src);
      if ((pid && stat(other, &st) == 0 && S_ISBLK(st.st_mode)) || (stat(src, &st) == 0 && S_ISBLK(st.st_mode)))
        m.src_rdev = st.st_rdev;
      else
        continue;
    }
    m.pid = pid;
    m.point = strdup(fields[4]);
    if (!m.point || grow((void **)&s->m, &s->capm, s->nm, sizeof *s->m)) {
      free(m.point);
      rc = -ENOMEM;
      break;
    }
    s->m[s->nm++] = m;
  }
  free(line);
  fclose(f);
  return rc;
}

/* Our namespace first (its mount points are the ones the user sees), then
 * one process of every other mount namespace. */
static int load_mounts(struct use_scan *s) {
  ino_t *seen = NULL;
  size_t nseen = 0, capseen = 0;
  struct stat st;
  int rc = load_mountinfo(s, "/proc/self/mountinfo", 0);
  if (!rc && stat("/proc/self/ns/mnt", &st) == 0) {
    rc = grow((void **)&seen, &capseen, nseen, sizeof *seen);
    if (!rc) seen[nseen++] = st.st_ino;
  }
  DIR *d = rc ? NULL : opendir("/proc");
  struct dirent *de;
  while (d && !rc && (de = readdir(d))) {
    char *end;
    long pid = strtol(de->d_name, &end, 10);
    if (*end || pid <= 0 || pid > 0x3fffffff) continue;
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/ns/mnt", pid);
    if (stat(path, &st)) continue; /* gone, a kernel thread, or not permitted */
    int dup = 0;
    for (size_t i = 0; i < nseen && !dup; i++) dup = seen[i] == st.st_ino;
    if (dup) continue;
    rc = grow((void **)&seen, &capseen, nseen, sizeof *seen);
    if (rc) break;
    seen[nseen++] = st.st_ino;
    snprintf(path, sizeof path, "/proc/%ld/mountinfo", pid);
    rc = load_mountinfo(s, path, (int)pid);
  }
  if (d) closedir(d);
  free(seen);
  return rc;
}

/* ---------------------------------------------------------- swap and loops */

static int load_swaps(struct use_scan *s) {
  FILE *f = fopen("/proc/swaps", "re");
  if (!f) return 0;
  char line[1024];
  int rc = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    if (line[0] != '/') continue; /* the header */
    line[strcspn(line, " \t\n")] = 0;
    rc = grow((void **)&s->s, &s->caps, s->ns, sizeof *s->s);
    if (rc) break;
    struct use_swap *w = &s->s[s->ns++];
    memset(w, 0, sizeof *w);
    snprintf(w->path, sizeof w->path, "%.511s", line);
    struct stat st;
    if (stat(line, &st) == 0 && S_ISBLK(st.st_mode)) w->rdev = st.st_rdev;
    if (stat(line, &st) == 0 && S_ISREG(st.st_mode)) w->file_dev = st.st_dev, w->file_ino = st.st_ino;
  }
  fclose(f);
  return rc;
}

/* What backs loop device NAME (dev_t dev): LOOP_GET_STATUS64 gives the
 * backing file's st_rdev and st_dev whatever its path; sysfs backing_file
 * (a path, possibly " (deleted)" or in another namespace) is the fallback. */
static void loop_backing(struct use_loop *l, dev_t dev) {
  char node[96];
  snprintf(node, sizeof node, "/dev/block/%u:%u", major(dev), minor(dev));
  int fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    snprintf(node, sizeof node, "/dev/%s", l->name);
    fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  }
  struct loop_info64 info;
  if (fd >= 0 && ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
    /* huge_encode_dev: glibc's makedev encoding for 32-bit numbers */
    l->backing_rdev = (dev_t)info.lo_rdevice;
    l->backing_fs = (dev_t)info.lo_device;
    l->backing_ino = (ino_t)info.lo_inode;
  } else {
    struct stat st;
    if (stat(l->file, &st) == 0) {
      if (S_ISBLK(st.st_mode)) l->backing_rdev = st.st_rdev;
      l->backing_fs = st.st_dev;
      l->backing_ino = st.st_ino;
    }
  }
  if (fd >= 0) close(fd);
}

static int load_loops(struct use_scan *s) {
  DIR *d = opendir("/sys/block");
  if (!d) return 0;
  struct dirent *de;
  int rc = 0;
  while (!rc && (de = readdir(d))) {
    if (strncmp(de->d_name, "loop", 4)) continue;
    char path[300];
    struct use_loop l = {{0}};
    snprintf(l.name, sizeof l.name, "%.63s", de->d_name);
    snprintf(path, sizeof path, "/sys/block/%s/loop/backing_file", l.name);
    if (read_line(path, l.file, sizeof l.file)) continue; /* not bound */
    dev_t dev;
    if (sysfs_dev(l.name, &dev)) continue;
    loop_backing(&l, dev);
    rc = grow((void **)&s->l, &s->capl, s->nl, sizeof *s->l);
    if (!rc) s->l[s->nl++] = l;
  }
  closedir(d);
  return rc;
}

static void scan_free(struct use_scan *s) {
  for (size_t i = 0; i < s->nm; i++) free(s->m[i].point);
  free(s->m);
  free(s->l);
  free(s->s);
}

/* --------------------------------------------------------- the questions */

static int dev_in_use(const struct use_scan *s, dev_t dev, const char *name, int depth, char *why, size_t len);

/* "HOLDER" described: dm devices by their dm name too. */
static void holder_label(const char *holder, char *out, size_t len) {
  char path[300], dm[128];
  snprintf(path, sizeof path, "/sys/class/block/%s/dm/name", holder);
  if (read_line(path, dm, sizeof dm) == 0 && dm[0])
    snprintf(out, len, "/dev/%.63s (device-mapper %.127s)", holder, dm);
  else
    snprintf(out, len, "/dev/%.63s", holder);
}

/* SUBJ VERB USER[, which ...]: follows USER (a holder or a loop device) one
 * level down, so that a stacked chain is named in full. */
static void say_user(const struct use_scan *s, const char *subj, const char *verb, const char *user_name,
                     const char *user_label, int depth, char *why, size_t len) {
  char sub[700] = "";
  dev_t udev;
  if (depth < USE_MAX_DEPTH && sysfs_dev(user_name, &udev) == 0)
    dev_in_use(s, udev, user_name, depth + 1, sub, sizeof sub);
  snprintf(why, len, "%s %s %s%s%s", subj, verb, user_label, sub[0] ? ", " : "", sub);
}

/* The first device X that lists NAME among its slaves or md members, or
 * whose zram backing device it is. */
static int find_reverse_holder(const char *name, dev_t dev, char *holder, size_t len) {
  DIR *d = opendir("/sys/class/block");
  if (!d) return 0;
  struct dirent *de;
  int found = 0;
  while (!found && (de = readdir(d))) {
    if (de->d_name[0] == '.' || !strcmp(de->d_name, name)) continue;
    char path[600], bd[512];
    snprintf(path, sizeof path, "/sys/class/block/%s/slaves/%s", de->d_name, name);
    found = access(path, F_OK) == 0;
    if (!found) {
      snprintf(path, sizeof path, "/sys/class/block/%s/md/dev-%s", de->d_name, name);
      found = access(path, F_OK) == 0;
    }
    if (!found) {
      snprintf(path, sizeof path, "/sys/class/block/%s/backing_dev", de->d_name);
      struct stat st;
      found = read_line(path, bd, sizeof bd) == 0 && bd[0] == '/' && stat(bd, &st) == 0 &&
              S_ISBLK(st.st_mode) && st.st_rdev == dev;
    }
    if (found) snprintf(holder, len, "%s", de->d_name);
  }
  closedir(d);
  return found;
}

static int first_entry(const char *dir_path, char *out, size_t len) {
  DIR *d = opendir(dir_path);
  if (!d) return 0;
  struct dirent *de;
  int found = 0;
  while (!found && (de = readdir(d)))
    if (de->d_name[0] != '.') {
      snprintf(out, len, "%s", de->d_name);
      found = 1;
    }
  closedir(d);
  return found;
}

/* The btrfs filesystem (by UUID) that has NAME among its devices. */
static int find_btrfs(const char *name, char *uuid, size_t len) {
  DIR *d = opendir("/sys/fs/btrfs");
  if (!d) return 0;
  struct dirent *de;
  int found = 0;
  while (!found && (de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    char path[600];
    snprintf(path, sizeof path, "/sys/fs/btrfs/%s/devices/%s", de->d_name, name);
    if (access(path, F_OK) == 0) {
      snprintf(uuid, len, "%s", de->d_name);
      found = 1;
    }
  }
  closedir(d);
  return found;
}

/* Is the single device MDEV (sysfs MNAME) in use? subj is how the message
 * names it ("it", "its partition loop3p1", "which"). */
static int member_in_use(const struct use_scan *s, dev_t mdev, const char *mname, const char *subj, int depth,
                         char *why, size_t len) {
  for (size_t i = 0; i < s->nm; i++) {
    const struct use_mount *m = &s->m[i];
    if (m->dev != mdev && m->src_rdev != mdev) continue;
    if (m->pid)
      snprintf(why, len, "%s is mounted at %s in another mount namespace (that of process %d)", subj, m->point,
               m->pid);
    else
      snprintf(why, len, "%s is mounted at %s", subj, m->point);
    return 1;
  }
  for (size_t i = 0; i < s->ns; i++) {
    /* a /dev path that does not resolve here (another root): by name */
    const struct use_swap *w = &s->s[i];
    int by_name = !w->rdev && !w->file_dev && !strncmp(w->path, "/dev/", 5) &&
                  !strcmp(strrchr(w->path, '/') + 1, mname);
    if (w->rdev == mdev || by_name) {
      snprintf(why, len, "%s is active swap", subj);
      return 1;
    }
  }
  char path[300], holder[256], label[400];
  snprintf(path, sizeof path, "/sys/class/block/%s/holders", mname);
  if (first_entry(path, holder, sizeof holder) || find_reverse_holder(mname, mdev, holder, sizeof holder)) {
    holder_label(holder, label, sizeof label);
    say_user(s, subj, "is held by", holder, label, depth, why, len);
    return 1;
  }
  for (size_t i = 0; i < s->nl; i++) {
    const struct use_loop *l = &s->l[i];
    if (!strcmp(l->name, s->self)) continue;
    if (l->backing_rdev == mdev) {
      snprintf(label, sizeof label, "/dev/%s", l->name);
      say_user(s, subj, "backs", l->name, label, depth, why, len);
      return 1;
    }
    if (l->backing_fs == mdev) {
      snprintf(label, sizeof label, "%.200s, which backs /dev/%s", l->file, l->name);
      say_user(s, subj, "holds the file", l->name, label, depth, why, len);
      return 1;
    }
  }
  if (find_btrfs(mname, holder, sizeof holder)) {
    snprintf(why, len, "%s is a device of the btrfs filesystem %s", subj, holder);
    return 1;
  }
  snprintf(path, sizeof path, "/sys/class/block/%s/bcache", mname);
  if (access(path, F_OK) == 0) {
    snprintf(why, len, "%s is registered with bcache", subj);
    return 1;
  }
  return 0;
}

/* DEV itself, then each of its partitions; depth 0 (the device asked
 * about) also checks the whole disk a partition belongs to, whose users see
 * the partition's bytes. */
static int dev_in_use(const struct use_scan *s, dev_t dev, const char *name, int depth, char *why, size_t len) {
  char subj[160];
  snprintf(subj, sizeof subj, "%s", depth ? "which" : "it");
  if (member_in_use(s, dev, name, subj, depth, why, len)) return 1;
  char dir[300];
  snprintf(dir, sizeof dir, "/sys/class/block/%s", name);
  DIR *d = opendir(dir);
  struct dirent *de;
  int found = 0, nparts = 0;
  while (d && !found && nparts < USE_MAX_PARTS && (de = readdir(d))) {
    char p[600];
    dev_t pdev;
    if (de->d_name[0] == '.') continue;
    snprintf(p, sizeof p, "%s/%s/partition", dir, de->d_name);
    if (access(p, F_OK) || sysfs_dev(de->d_name, &pdev)) continue;
    nparts++;
    snprintf(subj, sizeof subj, "%s partition %.100s", depth ? "whose" : "its", de->d_name);
    found = member_in_use(s, pdev, de->d_name, subj, depth, why, len);
  }
  if (d) closedir(d);
  if (found || depth) return found;
  char p[400], link[512];
  snprintf(p, sizeof p, "%s/partition", dir);
  if (access(p, F_OK)) return 0;
  /* /sys/class/block/sda1 -> ../../devices/.../block/sda/sda1 */
  ssize_t r = readlink(dir, link, sizeof link - 1);
  if (r <= 0) return 0;
  link[r] = 0;
  char *slash = strrchr(link, '/');
  if (!slash) return 0;
  *slash = 0;
  const char *disk = strrchr(link, '/');
  disk = disk ? disk + 1 : link;
  dev_t ddev;
  if (sysfs_dev(disk, &ddev)) return 0;
  snprintf(subj, sizeof subj, "its whole disk %.100s", disk);
  return member_in_use(s, ddev, disk, subj, depth, why, len);
}

static const struct use_loop *find_loop(const struct use_scan *s, const char *name) {
  for (size_t i = 0; i < s->nl; i++)
    if (!strcmp(s->l[i].name, name)) return &s->l[i];
  return NULL;
}

/* A loop device's bytes are its backing device's or file's: writing it
 * writes them. Refused when that device is in use (other than by this
 * loop), when the backing file also backs another loop device or is active
 * swap, and the same one level further down for a loop over a loop. subj:
 * "it" or "which". */
static int lower_in_use(const struct use_scan *s, const char *name, const char *subj, int depth, char *why,
                        size_t len) {
  const struct use_loop *me = find_loop(s, name);
  if (!me || depth >= USE_MAX_DEPTH) return 0;
  char sub[700] = "", label[600];
  if (me->backing_rdev) {
    char bname[64];
    if (sysfs_name(me->backing_rdev, bname, sizeof bname)) return 0;
    if (dev_in_use(s, me->backing_rdev, bname, depth + 1, sub, sizeof sub) ||
        lower_in_use(s, bname, "which", depth + 1, sub, sizeof sub)) {
      snprintf(why, len, "%s is backed by /dev/%s, %s", subj, bname, sub);
      return 1;
    }
    return 0;
  }
  if (!me->backing_fs || !me->backing_ino) return 0;
  for (size_t i = 0; i < s->ns; i++)
    if (s->s[i].file_dev == me->backing_fs && s->s[i].file_ino == me->backing_ino) {
      snprintf(why, len, "%s is backed by %.300s, which is active swap", subj, me->file);
      return 1;
    }
  for (size_t i = 0; i < s->nl; i++) {
    const struct use_loop *l = &s->l[i];
    if (l == me || l->backing_rdev || l->backing_fs != me->backing_fs || l->backing_ino != me->backing_ino) continue;
    snprintf(label, sizeof label, "/dev/%s", l->name);
    char verb[400];
    snprintf(verb, sizeof verb, "is backed by %.300s, which also backs", me->file);
    say_user(s, subj, verb, l->name, label, depth, why, len);
    return 1;
  }
  return 0;
}

int bench_guard_check_in_use(const char *dev_path, dev_t dev, struct ssdrev_err *err) {
  char name[128];
  int rc = sysfs_name(dev, name, sizeof name);
  if (rc) return ssdrev_fail(err, rc, "cannot find '%s' in /sys/dev/block: %s", dev_path, strerror(-rc));
  struct use_scan s = {0};
  rc = load_mounts(&s);
  if (!rc) rc = load_swaps(&s);
  if (!rc) rc = load_loops(&s);
  if (rc) {
    scan_free(&s);
    return ssdrev_fail(err, rc, "cannot check whether '%s' is in use: %s", dev_path, strerror(-rc));
  }
  snprintf(s.self, sizeof s.self, "%.63s", name);
  char why[900];
  if (dev_in_use(&s, dev, name, 0, why, sizeof why) || lower_in_use(&s, name, "it", 0, why, sizeof why))
    rc = ssdrev_fail(err, -EBUSY, "refusing to write '%s': %s", dev_path, why);
  scan_free(&s);
  return rc;
}
