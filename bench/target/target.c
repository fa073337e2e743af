/* target.c — what a job runs on: a regular file, a block device or a
 * simulated drive ("sim:MODEL_FILE"). Owns the fd engines submit to and
 * applies the safety rules before anything is opened for writing. */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "sim/sim.h"
#include "bench/bench.h"
#include "bench/target/target_int.h"
#include "bench/target/nvme_int.h"

/* The mark that says "ssdrev created this file, it may overwrite it": an
 * extended attribute, or a sidecar file where xattrs are unsupported. */
#define TARGET_XATTR "user.ssdrev.created"
#define TARGET_SIDECAR_SUFFIX ".ssdrev-created"

struct bench_target {
  enum bench_target_kind kind;
  char spec[4096];
  int fd;               /* -1 for sim */
  int direct, writable;
  uint64_t size_bytes;
  uint32_t lba_bytes;
  struct sim *sim;
  uint64_t seed;
  int nvme;             /* an NVMe namespace: admin commands go to the controller */
  const char *purge_method; /* what the last purge did, or NULL */
};

int bench_target_fd(const struct bench_target *t) { return t->fd; }
int bench_target_is_direct(const struct bench_target *t) { return t->direct; }
/* A simulated drive takes writes whatever the open said: nothing real is written. */
int bench_target_writable(const struct bench_target *t) { return t->writable || t->kind == BENCH_TARGET_SIM; }
uint32_t bench_target_io_align(const struct bench_target *t, const char **why) {
  const char *because = NULL;
  /* A block device takes whole logical blocks; O_DIRECT on a file needs its
   * filesystem's direct-I/O alignment (the target's lba_bytes for files). */
  if (t->kind == BENCH_TARGET_SIM) because = "a simulated drive reads and writes whole blocks";
  else if (t->direct) because = "O_DIRECT needs aligned I/O; try --buffered for a file";
  else if (t->kind == BENCH_TARGET_BLOCK) because = "the device reads and writes whole blocks";
  if (why) *why = because;
  return because ? (t->lba_bytes ? t->lba_bytes : 512) : 0;
}
enum bench_target_kind bench_target_get_kind(const struct bench_target *t) { return t->kind; }
uint64_t bench_target_size_bytes(const struct bench_target *t) { return t->size_bytes; }
uint32_t bench_target_lba_bytes(const struct bench_target *t) { return t->lba_bytes; }
const char *bench_target_spec(const struct bench_target *t) { return t->spec; }
struct sim *bench_target_sim(struct bench_target *t) { return t ? t->sim : NULL; }

static int sidecar_path(char *buf, size_t len, const char *path) {
  int n = snprintf(buf, len, "%s%s", path, TARGET_SIDECAR_SUFFIX);
  return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

static int file_is_ours(int fd, const char *path) {
  char v[16], side[4200];
  if (fgetxattr(fd, TARGET_XATTR, v, sizeof v) > 0) return 1;
  return sidecar_path(side, sizeof side, path) == 0 && access(side, F_OK) == 0;
}

static int mark_ours(int fd, const char *path, struct ssdrev_err *err) {
  if (fsetxattr(fd, TARGET_XATTR, "1", 1, 0) == 0) return 0;
  char side[4200];
  if (sidecar_path(side, sizeof side, path)) return ssdrev_fail(err, -ENAMETOOLONG, "path too long: '%s'", path);
  int sfd = open(side, O_CREAT | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0644); /* no write: a marker */
  if (sfd < 0) return ssdrev_fail(err, -errno, "cannot create '%s': %s", side, strerror(errno));
  close(sfd);
  return 0;
}

/* Preallocates [0, bytes): real blocks where the filesystem allows it, so
 * the first writes do not measure block allocation. */
static int preallocate(int fd, uint64_t bytes) {
  int rc = posix_fallocate(fd, 0, (off_t)bytes);
  if (rc == EOPNOTSUPP || rc == ENOSYS || rc == EINVAL) rc = ftruncate(fd, (off_t)bytes) ? errno : 0;
  return -rc;
}

static int open_fd(struct bench_target *t, const char *path, int extra, struct ssdrev_err *err) {
  int flags = (t->writable ? O_RDWR : O_RDONLY) | O_CLOEXEC | extra;
  if (t->direct) flags |= O_DIRECT;
  t->fd = open(path, flags, 0644);
  if (t->fd >= 0) return 0;
  int e = errno;
  if (e == EINVAL && t->direct)
    return ssdrev_fail(err, -e, "cannot open '%s' with O_DIRECT: the filesystem does not support it (use --buffered)", path);
  if (e == EBUSY)
    return ssdrev_fail(err, -e, "cannot open '%s' exclusively: it is in use (mounted or held)", path);
  /* A write job on something that takes no writes must stop here, not run
   * with every I/O failing. */
  if (e == EROFS && t->writable)
    return ssdrev_fail(err, -e, "cannot open '%s' for writing: it is read-only (%s)", path, strerror(e));
  if (e == EACCES && t->writable)
    return ssdrev_fail(err, -e, "cannot open '%s' for writing: %s", path, strerror(e));
  return ssdrev_fail(err, -e, "cannot open '%s': %s", path, strerror(e));
}

/* A file's "logical block" is the alignment its filesystem needs for direct
 * I/O (statx STATX_DIOALIGN, Linux 6.1+); 512 when the kernel cannot say. */
static int file_dio_align(struct bench_target *t, const char *path, struct ssdrev_err *err) {
  t->lba_bytes = 512;
#ifdef STATX_DIOALIGN
  struct statx sx;
  if (statx(t->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) || !(sx.stx_mask & STATX_DIOALIGN)) return 0;
  if (!sx.stx_dio_offset_align) {
    if (t->direct)
      return ssdrev_fail(err, -EINVAL, "cannot use '%s' with O_DIRECT: its filesystem does not support direct I/O (use --buffered)", path);
    return 0;
  }
  t->lba_bytes = sx.stx_dio_offset_align;
#else
  (void)path, (void)err;
#endif
  return 0;
}

/* "2.1 KiB", "3.0 GiB": a size for a message. */
static void size_text(uint64_t b, char *buf, size_t len) {
  static const char *const u[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = (double)b;
  size_t i = 0;
  while (v >= 1024 && i + 1 < sizeof u / sizeof u[0]) v /= 1024, i++;
  if (i) snprintf(buf, len, "%.1f %s", v, u[i]);
  else snprintf(buf, len, "%llu bytes", (unsigned long long)b);
}

/* A model file is at most this large (sim_model_load reads up to 1 MiB). */
#define TARGET_MODEL_MAX_BYTES (1u << 20)

/* An existing regular file that ssdrev did not create. A simulated drive's
 * model file given without "sim:" (`review hot-512.model`) is a mistake
 * whatever the options: refused, even with --force, naming the sim: target
 * meant. Any other such file is written only with --force; the refusal
 * says what would be lost, and does not advise --force for a file with
 * content (that advice once zeroed a model file). */
static int foreign_file(struct bench_target *t, const char *path, const struct bench_target_opts *o,
                        struct ssdrev_err *err) {
  if (t->size_bytes && t->size_bytes <= TARGET_MODEL_MAX_BYTES) {
    struct sim_model *m = calloc(1, sizeof *m);
    struct ssdrev_err ignored = {{0}};
    int model = m && sim_model_load(m, path, &ignored) == 0;
    free(m);
    if (model)
      return ssdrev_fail(err, -EINVAL,
                         "refusing to use '%s': it is a simulated drive's model file, not a drive; did you mean "
                         "sim:%s? (a model file is never a target, with --force neither)", path, path);
  }
  if (!t->writable || o->force) return 0;
  if (!t->size_bytes)
    return ssdrev_fail(err, -EEXIST,
                       "refusing to write '%s': ssdrev did not create this file (it is empty; --force uses it, "
                       "--create-size SIZE gives it a size)", path);
  char sz[32];
  size_text(t->size_bytes, sz, sizeof sz);
  return ssdrev_fail(err, -EEXIST,
                     "refusing to write '%s': it is not empty (%llu bytes, %s) and not an ssdrev target file (ssdrev "
                     "did not create it); the test would overwrite its contents. Give a new path with --create-size "
                     "SIZE for a test file", path, (unsigned long long)t->size_bytes, sz);
}

static int open_file(struct bench_target *t, const char *path, const struct stat *st, int exists,
                     const struct bench_target_opts *o, struct ssdrev_err *err) {
  if (!exists) {
    /* Under /dev a missing name is a device that is not there (a typo, a
     * drive not attached): offering to create a file there would be wrong. */
    if (!o->create_bytes && !strncmp(path, "/dev/", 5))
      return ssdrev_fail(err, -ENOENT, "cannot open '%s': no such device (check the name with lsblk)", path);
    if (!o->create_bytes)
      return ssdrev_fail(err, -ENOENT, "cannot open '%s': no such file (--create-size SIZE creates it)", path);
    if (!strncmp(path, "/dev/", 5))
      return ssdrev_fail(err, -ENOENT, "cannot open '%s': no such device (a file is never created under /dev)", path);
    int fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0644);
    if (fd < 0) return ssdrev_fail(err, -errno, "cannot create '%s': %s", path, strerror(errno));
    int rc = preallocate(fd, o->create_bytes);
    if (rc) {
      close(fd);
      unlink(path);
      return ssdrev_fail(err, rc, "cannot preallocate %llu bytes for '%s': %s",
                         (unsigned long long)o->create_bytes, path, strerror(-rc));
    }
    rc = mark_ours(fd, path, err);
    close(fd);
    if (rc) {
      unlink(path);
      return rc;
    }
    t->size_bytes = o->create_bytes;
  } else {
    t->size_bytes = (uint64_t)st->st_size;
  }
  int rc = open_fd(t, path, 0, err);
  if (rc) return rc;
  if (exists && !file_is_ours(t->fd, path)) {
    rc = foreign_file(t, path, o, err);
    if (rc) return rc;
  }
  if (t->writable && o->create_bytes > t->size_bytes) {
    rc = preallocate(t->fd, o->create_bytes);
    if (rc) return ssdrev_fail(err, rc, "cannot grow '%s' to %llu bytes: %s", path,
                               (unsigned long long)o->create_bytes, strerror(-rc));
    t->size_bytes = o->create_bytes;
  }
  rc = file_dio_align(t, path, err);
  if (rc) return rc;
  if (!t->size_bytes) return ssdrev_fail(err, -EINVAL, "'%s' is empty: nothing to test", path);
  return 0;
}

static int open_block(struct bench_target *t, const char *path, const struct bench_target_opts *o,
                      struct ssdrev_err *err) {
  if (t->writable) {
    if (!o->destructive)
      return ssdrev_fail(err, -EPERM, "refusing to write block device '%s' without --destructive (all data on it would be lost)", path);
    int rc = bench_guard_check(path, o->force, err);
    if (rc) return rc;
  }
  /* O_EXCL on a block device is an exclusive open: the kernel itself refuses
   * it while a filesystem or a holder has the device. */
  int rc = open_fd(t, path, t->writable ? O_EXCL : 0, err);
  if (rc) return rc;
  uint64_t size = 0;
  int lba = 0;
  if (ioctl(t->fd, BLKGETSIZE64, &size) || ioctl(t->fd, BLKSSZGET, &lba))
    return ssdrev_fail(err, -errno, "cannot read the size of '%s': %s", path, strerror(errno));
  t->size_bytes = size;
  t->lba_bytes = (uint32_t)lba;
  if (!size) return ssdrev_fail(err, -EINVAL, "'%s' has size 0: nothing to test", path);
  /* The guard read sysfs "ro"; the kernel's own answer, on this very fd, is
   * BLKROGET (an O_RDWR open of a read-only disk succeeds, its writes fail). */
  int ro = 0;
  if (t->writable && ioctl(t->fd, BLKROGET, &ro) == 0 && ro)
    return ssdrev_fail(err, -EROFS, "refusing to write '%s': the device is read-only", path);
  t->nvme = bench_nvme_is_namespace(t->fd);
  return 0;
}

static int open_sim(struct bench_target *t, const char *model_path, struct ssdrev_err *err) {
  struct sim_model *m = calloc(1, sizeof *m);
  if (!m) return ssdrev_fail(err, -ENOMEM, "out of memory");
  int rc = sim_model_load(m, model_path, err);
  if (!rc) rc = sim_new(&t->sim, m, t->seed, err); /* copies the model */
  if (!rc) {
    t->size_bytes = m->capacity_bytes;
    t->lba_bytes = m->lba_bytes;
  }
  free(m);
  return rc;
}

int bench_target_open(struct bench_target **out, const char *spec, const struct bench_target_opts *opts,
                      struct ssdrev_err *err) {
  static const struct bench_target_opts no_opts;
  const struct bench_target_opts *o = opts ? opts : &no_opts;
  *out = NULL;
  if (!spec || !*spec) return ssdrev_fail(err, -EINVAL, "no target given");
  struct bench_target *t = calloc(1, sizeof *t);
  if (!t) return ssdrev_fail(err, -ENOMEM, "out of memory");
  snprintf(t->spec, sizeof t->spec, "%s", spec);
  t->fd = -1;
  t->seed = o->seed;
  t->writable = o->write_intent != 0;
  t->direct = !o->buffered;
  int rc;
  if (!strncmp(spec, "sim:", 4)) {
    t->kind = BENCH_TARGET_SIM;
    t->direct = 0;
    rc = open_sim(t, spec + 4, err);
  } else {
    struct stat st;
    int exists = stat(spec, &st) == 0;
    if (!exists && errno != ENOENT) {
      rc = ssdrev_fail(err, -errno, "cannot open '%s': %s", spec, strerror(errno));
    } else if (exists && S_ISBLK(st.st_mode)) {
      t->kind = BENCH_TARGET_BLOCK;
      rc = open_block(t, spec, o, err);
    } else if (exists && !S_ISREG(st.st_mode)) {
      rc = ssdrev_fail(err, -EINVAL, "cannot use '%s': not a regular file or block device", spec);
    } else {
      t->kind = BENCH_TARGET_FILE;
      rc = open_file(t, spec, &st, exists, o, err);
    }
  }
  if (rc) {
    bench_target_close(t);
    return rc;
  }
  *out = t;
  return 0;
}

void bench_target_close(struct bench_target *t) {
  if (!t) return;
  if (t->fd >= 0) close(t->fd);
  sim_free(t->sim);
  free(t);
}

const char *bench_target_purge_method(const struct bench_target *t) { return t->purge_method; }

int bench_target_purge(struct bench_target *t, struct ssdrev_err *err) {
  return bench_target_purge_as(t, BENCH_PURGE_AUTO, err);
}

int bench_target_purge_as(struct bench_target *t, enum bench_purge how, struct ssdrev_err *err) {
  t->purge_method = NULL;
  if (t->kind == BENCH_TARGET_SIM) {
    sim_reset(t->sim); /* unmaps everything; the virtual clock runs on */
    t->purge_method = "reset";
    return 0;
  }
  if (!t->writable) return ssdrev_fail(err, -EPERM, "cannot purge '%s': it was opened read-only", t->spec);
  if (t->kind == BENCH_TARGET_BLOCK && how == BENCH_PURGE_FORMAT) {
    if (!t->nvme) return ssdrev_fail(err, -EOPNOTSUPP, "cannot format '%s': not an NVMe namespace (purge with a discard)", t->spec);
    int rc = bench_nvme_format(t->fd, err);
    if (rc) return rc;
    t->purge_method = "format";
    return 0;
  }
  if (t->kind == BENCH_TARGET_BLOCK) {
    uint64_t range[2] = {0, t->size_bytes};
    if (ioctl(t->fd, BLKDISCARD, range) == 0) {
      t->purge_method = "discard";
      return 0;
    }
    int e = errno;
    /* An NVMe namespace without Dataset Management still deallocates every
     * block on a Format NVM. */
    if (e == EOPNOTSUPP && t->nvme && how == BENCH_PURGE_AUTO) {
      int rc = bench_nvme_format(t->fd, err);
      if (rc) return rc;
      t->purge_method = "format";
      return 0;
    }
    return ssdrev_fail(err, -e, "cannot discard '%s': %s", t->spec, strerror(e));
  }
  /* A file: drop every block, then preallocate again ("recreate"). */
  if (fallocate(t->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)t->size_bytes) &&
      (ftruncate(t->fd, 0) || ftruncate(t->fd, (off_t)t->size_bytes)))
    return ssdrev_fail(err, -errno, "cannot purge '%s': %s", t->spec, strerror(errno));
  int rc = preallocate(t->fd, t->size_bytes);
  if (rc) return ssdrev_fail(err, rc, "cannot preallocate '%s' after purge: %s", t->spec, strerror(-rc));
  t->purge_method = "recreate";
  return 0;
}

/* NVMe drives expose their composite temperature through hwmon. */
static double block_temp_c(int fd) {
  struct stat st;
  if (fstat(fd, &st) || !S_ISBLK(st.st_mode)) return -1;
  char pattern[256];
  static const char *const layouts[] = {
      "/sys/dev/block/%u:%u/device/hwmon*/temp1_input",
      "/sys/dev/block/%u:%u/device/device/hwmon*/temp1_input",
      "/sys/dev/block/%u:%u/../device/hwmon*/temp1_input", /* a partition */
  };
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
    snprintf(pattern, sizeof pattern, layouts[i], major(st.st_rdev), minor(st.st_rdev));
    glob_t g;
    if (glob(pattern, 0, NULL, &g) || !g.gl_pathc) {
      globfree(&g);
      continue;
    }
    FILE *f = fopen(g.gl_pathv[0], "re");
    globfree(&g);
    if (!f) continue;
    long milli = 0;
    int ok = fscanf(f, "%ld", &milli) == 1;
    fclose(f);
    if (ok) return (double)milli / 1000.0;
  }
  return -1;
}

double bench_target_temp_c(struct bench_target *t) {
  if (!t) return -1;
  if (t->kind == BENCH_TARGET_SIM) {
    struct sim_truth tr;
    sim_get_truth(t->sim, &tr);
    return tr.temp_c;
  }
  if (t->kind != BENCH_TARGET_BLOCK) return -1;
  /* Straight from the controller's SMART log: kernels without NVMe hwmon
   * (CONFIG_HWMON off, as Debian's cloud kernel) have no temp1_input. */
  double c;
  if (t->nvme && bench_nvme_smart_temp_c(t->fd, &c) == 0) return c;
  return block_temp_c(t->fd);
}

int bench_target_temps(struct bench_target *t, struct bench_temps *out) {
  memset(out, 0, sizeof *out);
  out->composite_c = -1;
  for (int i = 0; i < BENCH_TEMP_SENSORS; i++) out->sensor_c[i] = -1;
  if (!t) return -ENODATA;
  if (t->kind == BENCH_TARGET_SIM) {
    /* the model's temperature and its throttle counters, as a SMART log has them */
    struct sim_truth tr;
    sim_get_truth(t->sim, &tr);
    out->composite_c = tr.temp_c;
    if (sim_get_model(t->sim)->throttle_light_c > 0) {
      out->have_tmt = 1;
      for (int i = 0; i < 2; i++) {
        out->tmt_count[i] = (uint32_t)tr.tmt_count[i];
        out->tmt_s[i] = (uint32_t)(tr.tmt_ns[i] / 1000000000ull);
      }
    }
    return 0;
  }
  if (t->kind == BENCH_TARGET_BLOCK && t->nvme && bench_nvme_smart_temps(t->fd, out) == 0) return 0;
  out->composite_c = bench_target_temp_c(t);
  return out->composite_c < 0 ? -ENODATA : 0;
}

int bench_target_write_counters(struct bench_target *t, uint64_t *host_bytes, uint64_t *nand_bytes) {
  *host_bytes = *nand_bytes = 0;
  if (!t || t->kind != BENCH_TARGET_SIM) return -ENODATA;
  struct sim_truth tr;
  sim_get_truth(t->sim, &tr);
  if (!tr.ftl) return -ENODATA; /* a model without the FTL keeps its records as they were */
  *host_bytes = tr.host_write_bytes;
  *nand_bytes = tr.nand_write_bytes;
  return 0;
}
