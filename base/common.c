/* common.c — errors, atomic output files, whole-file reads, JSON loading,
 * mkdir -p and the monotonic clock: the plumbing every stage shares. */
#include <errno.h>
#include <ctype.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/ssdrev.h"

int ssdrev_fail(struct ssdrev_err *err, int code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return code;
}

uint64_t ssdrev_clock_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---------------------------------------------------------- output files
 * Every file ssdrev writes goes through ssdrev_atomic_open or
 * ssdrev_open_new (contract in bench.h). Both open PATH's directory once,
 * with O_NOFOLLOW, and then work relative to that descriptor, so a
 * symbolic link planted at the directory or at PATH is seen and refused,
 * and swapping one in afterwards cannot redirect the write. */

/* Splits path into its directory (copied to dir) and returns the final
 * name inside path, or NULL when there is none ("", "x/", "x/.."). */
static const char *split_path(const char *path, char *dir, size_t len) {
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) return NULL;
  size_t n = slash ? (size_t)(slash - path) : 0;
  /* "a//b": drop trailing slashes, which would make open() follow a link */
  while (n > 1 && path[n - 1] == '/') n--;
  if (!slash) snprintf(dir, len, ".");
  else if (n == 0) snprintf(dir, len, "/");
  else if (n >= len) return NULL;
  else memcpy(dir, path, n), dir[n] = 0;
  return name;
}

static int refuse_link(const char *path, const char *what, struct ssdrev_err *err) {
  if (what) return ssdrev_fail(err, -ELOOP, "refusing to write '%s': its directory '%s' is a symbolic link", path, what);
  return ssdrev_fail(err, -ELOOP, "refusing to write '%s': it is a symbolic link", path);
}

/* Opens PATH's directory (no link) and checks that PATH is not a link;
 * returns the directory descriptor and sets *name, or a negative errno.
 * *exists tells whether PATH exists (as anything but a link). */
static int open_parent(const char *path, const char **name, int *exists, struct ssdrev_err *err) {
  char dir[4096];
  *name = split_path(path, dir, sizeof dir);
  if (!*name) return ssdrev_fail(err, -EISDIR, "cannot create '%s': not a file name", path);
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0) {
    int e = errno;
    struct stat st;
    if ((e == ELOOP || e == ENOTDIR) && !lstat(dir, &st) && S_ISLNK(st.st_mode)) return refuse_link(path, dir, err);
    return ssdrev_fail(err, -e, "cannot create '%s': %s", path, strerror(e));
  }
  struct stat st;
  *exists = fstatat(dfd, *name, &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (*exists && S_ISLNK(st.st_mode)) {
    close(dfd);
    return refuse_link(path, NULL, err);
  }
  return dfd;
}

/* Creates "NAME.tmp.XXXXXX" in dfd with O_EXCL|O_NOFOLLOW (what mkstemp
 * does, but relative to the checked directory and with the umask applied
 * as for any document); the full path goes to tmp. Returns the fd. */
static int create_temp(int dfd, const char *path, const char *name, char *tmp, size_t len,
                       struct ssdrev_err *err) {
  static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  if (strlen(path) + 12 >= len) return ssdrev_fail(err, -ENAMETOOLONG, "output path too long: '%s'", path);
  for (int attempt = 0; attempt < 100; attempt++) {
    unsigned char r[6];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
      /* no entropy source: the clock and pid still make a fresh name */
      uint64_t x = ssdrev_clock_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)attempt;
      for (int i = 0; i < 6; i++) r[i] = (unsigned char)(x >> (8 * i));
    }
    snprintf(tmp, len, "%s.tmp.%c%c%c%c%c%c", path, alnum[r[0] % 62], alnum[r[1] % 62], alnum[r[2] % 62],
             alnum[r[3] % 62], alnum[r[4] % 62], alnum[r[5] % 62]);
    int fd = openat(dfd, tmp + (name - path), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) {
      int e = errno;
      tmp[0] = 0;
      return ssdrev_fail(err, -e, "cannot create '%s': %s", path, strerror(e));
    }
  }
  tmp[0] = 0;
  return ssdrev_fail(err, -EEXIST, "cannot create '%s': no free temporary name", path);
}

int ssdrev_atomic_open(struct ssdrev_atomic *a, const char *path, struct ssdrev_err *err) {
  memset(a, 0, sizeof *a);
  a->dir_fd = -1;
  if (strlen(path) + 16 >= sizeof a->tmp)
    return ssdrev_fail(err, -ENAMETOOLONG, "output path too long: '%s'", path);
  snprintf(a->path, sizeof a->path, "%s", path);
  const char *name;
  int exists;
  int dfd = open_parent(a->path, &name, &exists, err);
  if (dfd < 0) return dfd;
  int fd = create_temp(dfd, a->path, name, a->tmp, sizeof a->tmp, err);
  if (fd < 0) {
    close(dfd);
    return fd;
  }
  a->f = fdopen(fd, "w");
  if (!a->f) {
    int e = errno;
    close(fd);
    unlinkat(dfd, a->tmp + (name - a->path), 0);
    close(dfd);
    a->tmp[0] = 0;
    return ssdrev_fail(err, -e, "cannot open '%s': %s", path, strerror(e));
  }
  a->dir_fd = dfd;
  return 0;
}

/* The temporary's and the final name relative to a->dir_fd. */
static const char *atomic_name(const struct ssdrev_atomic *a) {
  const char *s = strrchr(a->path, '/');
  return s ? s + 1 : a->path;
}
static const char *atomic_tmp_name(const struct ssdrev_atomic *a) {
  return a->tmp + (atomic_name(a) - a->path);
}

static void atomic_release(struct ssdrev_atomic *a, int remove_tmp) {
  if (remove_tmp && a->tmp[0]) unlinkat(a->dir_fd, atomic_tmp_name(a), 0);
  if (a->tmp[0] && a->dir_fd >= 0) close(a->dir_fd);
  a->dir_fd = -1;
  a->tmp[0] = 0;
}

static _Thread_local int defer_sync;

void ssdrev_atomic_defer_sync(int on) { defer_sync = on; }

/* ------------------------------------------------------ output groups */

struct outputs_dir {
  int fd;       /* a directory entries were committed in (owned) */
  dev_t dev;
  ino_t ino;
};
struct outputs_entry {
  size_t dir;   /* index in dirs */
  char *name;   /* committed name in it */
  char *kept;   /* the file it replaced, under a temporary name; NULL: none was there */
};
struct ssdrev_outputs {
  pthread_mutex_t lock;  /* the PNG worker commits beside the main thread */
  struct outputs_dir *dirs;
  size_t ndirs;
  struct outputs_entry *v;
  size_t n, cap;
  char **made;           /* directories ssdrev_mkdirs created, in order */
  size_t nmade;
};

static _Thread_local struct ssdrev_outputs *cur_outputs;

struct ssdrev_outputs *ssdrev_outputs_begin(struct ssdrev_err *err) {
  struct ssdrev_outputs *g = calloc(1, sizeof *g);
  if (!g || pthread_mutex_init(&g->lock, NULL)) {
    free(g);
    ssdrev_fail(err, -ENOMEM, "out of memory");
    return NULL;
  }
  cur_outputs = g;
  return g;
}

struct ssdrev_outputs *ssdrev_outputs_current(void) { return cur_outputs; }

void ssdrev_outputs_join(struct ssdrev_outputs *g) { cur_outputs = g; }

/* Makes room for one more entry (before the rename, so a commit that
 * happened is always recorded). */
static int outputs_reserve(struct ssdrev_outputs *g) {
  if (g->n < g->cap) return 0;
  size_t cap = g->cap ? 2 * g->cap : 64;
  struct outputs_entry *v = realloc(g->v, cap * sizeof *v);
  if (!v) return -ENOMEM;
  g->v = v;
  g->cap = cap;
  return 0;
}

/* The index of DFD's directory in g->dirs (one descriptor per directory,
 * however many files go there), or -1 on failure. */
static long outputs_dir(struct ssdrev_outputs *g, int dfd) {
  struct stat st;
  if (fstat(dfd, &st)) return -1;
  for (size_t i = 0; i < g->ndirs; i++)
    if (g->dirs[i].dev == st.st_dev && g->dirs[i].ino == st.st_ino) return (long)i;
  struct outputs_dir *d = realloc(g->dirs, (g->ndirs + 1) * sizeof *d);
  if (!d) return -1;
  g->dirs = d;
  int fd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return -1;
  d[g->ndirs] = (struct outputs_dir){.fd = fd, .dev = st.st_dev, .ino = st.st_ino};
  return (long)g->ndirs++;
}

void ssdrev_outputs_end(struct ssdrev_outputs *g, int keep) {
  if (!g) return;
  if (cur_outputs == g) cur_outputs = NULL;
  for (size_t i = g->n; i-- > 0;) {
    struct outputs_entry *e = &g->v[i];
    int fd = g->dirs[e->dir].fd;
    if (keep) {
      if (e->kept) unlinkat(fd, e->kept, 0);
    } else if (e->kept) {
      renameat(fd, e->kept, fd, e->name);
    } else {
      unlinkat(fd, e->name, 0);
    }
    free(e->name);
    free(e->kept);
  }
  /* newest first: a directory's subdirectories go before it; one that
   * holds anything else stays (rmdir removes only empty ones) */
  for (size_t i = g->nmade; i-- > 0;) {
    if (!keep) rmdir(g->made[i]);
    free(g->made[i]);
  }
  for (size_t i = 0; i < g->ndirs; i++) close(g->dirs[i].fd);
  pthread_mutex_destroy(&g->lock);
  free(g->made);
  free(g->dirs);
  free(g->v);
  free(g);
}

/* Notes a directory ssdrev_mkdirs created (best effort: one not noted is
 * only left behind, empty, after a failure). */
static void outputs_made_dir(const char *path) {
  struct ssdrev_outputs *g = cur_outputs;
  if (!g) return;
  pthread_mutex_lock(&g->lock);
  char **v = realloc(g->made, (g->nmade + 1) * sizeof *v);
  if (v) {
    g->made = v;
    if ((v[g->nmade] = strdup(path))) g->nmade++;
  }
  pthread_mutex_unlock(&g->lock);
}

/* ------------------------------------------------------------ commit */

/* The errno of a stdio call that failed, errno cleared before it: EIO when
 * it set none (a stream failing in a layer below, a cookie's write) rather
 * than whatever an earlier, unrelated call left there. */
static int stdio_errno(void) { return errno ? errno : EIO; }

/* Why a stream written around ssdrev_atomic_write (fprintf straight to
 * a->f) failed: stdio keeps only its error flag, and errno by now is any
 * later call's. One byte written to its file (the temporary, removed next)
 * tells again (ENOSPC on a full disk); EIO when that works or the stream
 * has no file. */
static int stream_errno(FILE *f) {
  int fd = fileno(f);
  errno = 0;
  if (fd >= 0 && write(fd, "", 1) < 0) return stdio_errno();
  return EIO;
}

int ssdrev_atomic_write(struct ssdrev_atomic *a, const void *data, size_t n) {
  if (!n) return 0;
  int e = EBADF; /* not open (a failed open, or after commit or abort) */
  if (a->f) {
    errno = 0;
    /* the error flag too: glibc's fwrite counts a failed write of the
     * layer below as done, setting only the flag */
    if (fwrite(data, 1, n, a->f) == n && !ferror(a->f)) return 0;
    e = stdio_errno();
  }
  if (!a->write_errno) a->write_errno = e;
  return -e;
}

int ssdrev_atomic_fail(struct ssdrev_atomic *a, struct ssdrev_err *err) {
  int e = a->write_errno ? a->write_errno : EIO;
  ssdrev_atomic_abort(a);
  return ssdrev_fail(err, -e, "cannot write '%s': %s", a->path, strerror(e));
}

/* The rename of a commit inside group G: the file at the name, if any, is
 * kept under NAME.tmp.XXXXXX.old first and the commit recorded. */
static int grouped_rename(struct ssdrev_outputs *g, struct ssdrev_atomic *a) {
  pthread_mutex_lock(&g->lock);
  int e = 0;
  char *kept = NULL, *name = strdup(atomic_name(a));
  long dir = outputs_dir(g, a->dir_fd);
  if (!name || dir < 0 || outputs_reserve(g)) e = ENOMEM;
  struct stat st;
  /* only a regular file is kept: a rename onto anything else fails as
   * without a group (a directory there is never moved aside) */
  if (!e && !fstatat(a->dir_fd, atomic_name(a), &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode)) {
    size_t kl = strlen(atomic_tmp_name(a)) + 5;
    if (!(kept = malloc(kl))) e = ENOMEM;
    else {
      snprintf(kept, kl, "%s.old", atomic_tmp_name(a));
      /* a file system without hard links (FAT): moved aside instead, the
       * name missing for a moment */
      if (linkat(a->dir_fd, atomic_name(a), a->dir_fd, kept, 0) &&
          renameat(a->dir_fd, atomic_name(a), a->dir_fd, kept))
        e = errno;
    }
  }
  if (!e && renameat(a->dir_fd, atomic_tmp_name(a), a->dir_fd, atomic_name(a))) {
    e = errno;
    /* puts back a file moved aside; a rename between two links of one
     * file does nothing, so the link made is then removed */
    if (kept && !renameat(a->dir_fd, kept, a->dir_fd, atomic_name(a))) unlinkat(a->dir_fd, kept, 0);
  }
  if (e) {
    free(name);
    free(kept);
  } else {
    g->v[g->n++] = (struct outputs_entry){.dir = (size_t)dir, .name = name, .kept = kept};
  }
  pthread_mutex_unlock(&g->lock);
  return e;
}

int ssdrev_atomic_commit(struct ssdrev_atomic *a, struct ssdrev_err *err) {
  if (!a->f) return ssdrev_fail(err, -EINVAL, "output '%s' is not open", a->path);
  int e = 0;
  if (ferror(a->f)) e = a->write_errno ? a->write_errno : stream_errno(a->f);
  errno = 0;
  if (!e && fflush(a->f)) e = stdio_errno();
  if (!e && !defer_sync && fsync(fileno(a->f))) e = errno;
  errno = 0;
  if (fclose(a->f) && !e) e = stdio_errno();
  a->f = NULL;
  if (e) {
    atomic_release(a, 1);
    return ssdrev_fail(err, -e, "cannot write '%s': %s", a->path, strerror(e));
  }
  /* checked again at the last moment: a link planted while we wrote is
   * refused too (rename would replace the link, never its target) */
  struct stat st;
  if (!fstatat(a->dir_fd, atomic_name(a), &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode)) {
    atomic_release(a, 1);
    return refuse_link(a->path, NULL, err);
  }
  if (cur_outputs) e = grouped_rename(cur_outputs, a);
  else if (renameat(a->dir_fd, atomic_tmp_name(a), a->dir_fd, atomic_name(a))) e = errno;
  if (e) {
    atomic_release(a, 1);
    return ssdrev_fail(err, -e, "cannot write '%s': %s", a->path, strerror(e));
  }
  atomic_release(a, 0);
  return 0;
}

void ssdrev_atomic_abort(struct ssdrev_atomic *a) {
  if (a->f) fclose(a->f);
  a->f = NULL;
  atomic_release(a, 1);
}

int ssdrev_open_new(const char *path, int replace, struct ssdrev_err *err) {
  const char *name;
  int exists;
  int dfd = open_parent(path, &name, &exists, err);
  if (dfd < 0) return dfd;
  int fd;
  if (!exists || !replace) {
    fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
      int e = errno;
      close(dfd);
      if (e == ELOOP) return refuse_link(path, NULL, err);
      return ssdrev_fail(err, -e, "cannot create '%s': %s", path, strerror(e));
    }
  } else {
    /* never truncate what is there: a new file takes its name */
    char tmp[4200];
    fd = create_temp(dfd, path, name, tmp, sizeof tmp, err);
    if (fd >= 0 && renameat(dfd, tmp + (name - path), dfd, name)) {
      int e = errno;
      unlinkat(dfd, tmp + (name - path), 0);
      close(fd);
      fd = ssdrev_fail(err, -e, "cannot replace '%s': %s", path, strerror(e));
    }
  }
  close(dfd);
  return fd;
}

int ssdrev_write_file_atomic(const char *path, const void *data, size_t len, struct ssdrev_err *err) {
  struct ssdrev_atomic a;
  int rc = ssdrev_atomic_open(&a, path, err);
  if (rc) return rc;
  if (ssdrev_atomic_write(&a, data, len)) return ssdrev_atomic_fail(&a, err);
  return ssdrev_atomic_commit(&a, err);
}

int ssdrev_write_json_atomic(const char *path, const json_t *v, struct ssdrev_err *err) {
  char *text = json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
  if (!text) return ssdrev_fail(err, -ENOMEM, "cannot serialize JSON for '%s'", path);
  size_t n = strlen(text);
  text[n] = '\n'; /* the buffer holds n+1 bytes: trade the NUL for a newline */
  int rc = ssdrev_write_file_atomic(path, text, n + 1, err);
  free(text);
  return rc;
}

/* The file type of a stat, for "not a regular file (fifo)" messages. */
static const char *file_kind(mode_t m) {
  if (S_ISDIR(m)) return "directory";
  if (S_ISFIFO(m)) return "fifo";
  if (S_ISCHR(m)) return "character device";
  if (S_ISBLK(m)) return "block device";
  if (S_ISSOCK(m)) return "socket";
  if (S_ISLNK(m)) return "symbolic link";
  return "special file";
}

int ssdrev_open_read(const char *path, struct stat *st_out, struct ssdrev_err *err) {
  /* O_NONBLOCK: open() of a FIFO without a writer would block forever; the
   * flag is cleared again once fstat says the file is regular */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    int e = errno;
    return ssdrev_fail(err, -e, "cannot open '%s': %s", path, strerror(e));
  }
  struct stat st;
  if (fstat(fd, &st)) {
    int e = errno;
    close(fd);
    return ssdrev_fail(err, -e, "cannot stat '%s': %s", path, strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    int code = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
    return ssdrev_fail(err, code, "cannot read '%s': not a regular file (%s)", path, file_kind(st.st_mode));
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
    int e = errno;
    close(fd);
    return ssdrev_fail(err, -e, "cannot open '%s': %s", path, strerror(e));
  }
  if (st_out) *st_out = st;
  return fd;
}

int ssdrev_read_file(const char *path, char **out, size_t *len, size_t max_bytes, struct ssdrev_err *err) {
  if (!max_bytes) max_bytes = 256u << 20;
  *out = NULL;
  if (len) *len = 0;
  struct stat st;
  int fd = ssdrev_open_read(path, &st, err);
  if (fd < 0) return fd;
  if ((uint64_t)st.st_size > max_bytes) {
    close(fd);
    return ssdrev_fail(err, -EFBIG, "cannot read '%s': larger than %zu bytes", path, max_bytes);
  }
  size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
  if (cap > max_bytes + 1) cap = max_bytes + 1;
  char *buf = malloc(cap);
  size_t n = 0;
  for (;;) {
    if (!buf) {
      close(fd);
      return ssdrev_fail(err, -ENOMEM, "cannot read '%s': out of memory", path);
    }
    if (n + 1 >= cap) {
      if (cap > max_bytes) {
        free(buf);
        close(fd);
        return ssdrev_fail(err, -EFBIG, "cannot read '%s': larger than %zu bytes", path, max_bytes);
      }
      char *nb = realloc(buf, cap * 2);
      if (!nb) free(buf);
      buf = nb;
      cap *= 2;
      continue;
    }
    ssize_t r = read(fd, buf + n, cap - 1 - n);
    if (r < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      free(buf);
      close(fd);
      return ssdrev_fail(err, -e, "cannot read '%s': %s", path, strerror(e));
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  close(fd);
  buf[n] = 0;
  *out = buf;
  if (len) *len = n;
  return 0;
}

json_t *ssdrev_load_json_crc(const char *path, uint32_t *crc, struct ssdrev_err *err) {
  char *text;
  size_t len;
  if (ssdrev_read_file(path, &text, &len, 0, err)) return NULL;
  if (crc) *crc = ssdrev_crc32c(0, text, len);
  json_error_t je;
  json_t *v = json_loadb(text, len, JSON_ALLOW_NUL, &je);
  free(text);
  if (!v) ssdrev_fail(err, -EINVAL, "invalid JSON in '%s' at line %d, column %d: %s", path, je.line, je.column, je.text);
  return v;
}

json_t *ssdrev_load_json(const char *path, struct ssdrev_err *err) {
  return ssdrev_load_json_crc(path, NULL, err);
}

int ssdrev_mkdirs(const char *path, struct ssdrev_err *err) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
    return ssdrev_fail(err, -ENAMETOOLONG, "path too long: '%s'", path);
  /* "dir/" would make lstat follow a link at dir */
  for (size_t n = strlen(buf); n > 1 && buf[n - 1] == '/';) buf[--n] = 0;
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || *p == 0) {
      char c = *p;
      *p = 0;
      if (mkdir(buf, 0777) == 0) {
        outputs_made_dir(buf); /* removed again if the group fails */
      } else if (errno != EEXIST) {
        int e = errno;
        return ssdrev_fail(err, -e, "cannot create directory '%s': %s", buf, strerror(e));
      }
      struct stat st;
      /* the directory asked for must be a real one (outputs go there);
       * its ancestors may be links (a home directory often is) */
      if (!c && !lstat(buf, &st) && S_ISLNK(st.st_mode))
        return ssdrev_fail(err, -ELOOP, "refusing to write into '%s': it is a symbolic link", buf);
      if (stat(buf, &st) || !S_ISDIR(st.st_mode))
        return ssdrev_fail(err, -ENOTDIR, "cannot create directory '%s': not a directory", buf);
      *p = c;
      if (!c) break;
    }
  }
  return 0;
}

int ssdrev_parse_size(const char *s, uint64_t *out) {
  if (!s || !(isdigit((unsigned char)*s) || *s == '.')) return -EINVAL;
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (errno || end == s || v < 0) return -EINVAL;
  while (*end == ' ') end++;
  static const struct { const char *suffix; double mult; } units[] = {
      {"", 1}, {"b", 1}, {"k", 1024.0}, {"kib", 1024.0}, {"kb", 1e3},
      {"m", 1048576.0}, {"mib", 1048576.0}, {"mb", 1e6},
      {"g", 1073741824.0}, {"gib", 1073741824.0}, {"gb", 1e9},
      {"t", 1099511627776.0}, {"tib", 1099511627776.0}, {"tb", 1e12},
  };
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strcasecmp(end, units[i].suffix)) continue;
    double b = v * units[i].mult;
    if (!(b < 1.8e19)) return -ERANGE; /* also NaN */
    *out = (uint64_t)(b + 0.5);
    return 0;
  }
  return -EINVAL;
}
