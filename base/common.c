/* common.c — errors, atomic output files, whole-file reads, JSON loading,
 * mkdir -p and the monotonic clock: the plumbing every stage shares. */
#include <errno.h>
#include <ctype.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

int ssdrev_atomic_open(struct ssdrev_atomic *a, const char *path, struct ssdrev_err *err) {
  memset(a, 0, sizeof *a);
  if (strlen(path) + 16 >= sizeof a->tmp)
    return ssdrev_fail(err, -ENAMETOOLONG, "output path too long: '%s'", path);
  snprintf(a->path, sizeof a->path, "%s", path);
  snprintf(a->tmp, sizeof a->tmp, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(a->tmp);
  if (fd < 0) {
    int e = errno;
    a->tmp[0] = 0;
    return ssdrev_fail(err, -e, "cannot create '%s': %s", path, strerror(e));
  }
  /* mkstemp makes 0600 files; outputs are ordinary documents. */
  mode_t um = umask(0);
  umask(um);
  fchmod(fd, 0666 & ~um);
  a->f = fdopen(fd, "w");
  if (!a->f) {
    int e = errno;
    close(fd);
    unlink(a->tmp);
    a->tmp[0] = 0;
    return ssdrev_fail(err, -e, "cannot open '%s': %s", path, strerror(e));
  }
  return 0;
}

static _Thread_local int defer_sync;

void ssdrev_atomic_defer_sync(int on) { defer_sync = on; }

int ssdrev_atomic_commit(struct ssdrev_atomic *a, struct ssdrev_err *err) {
  if (!a->f) return ssdrev_fail(err, -EINVAL, "output '%s' is not open", a->path);
  int e = 0;
  if (ferror(a->f)) e = errno ? errno : EIO;
  if (!e && fflush(a->f)) e = errno;
  if (!e && !defer_sync && fsync(fileno(a->f))) e = errno;
  if (fclose(a->f) && !e) e = errno;
  a->f = NULL;
  if (!e && rename(a->tmp, a->path)) e = errno;
  if (e) {
    unlink(a->tmp);
    a->tmp[0] = 0;
    return ssdrev_fail(err, -e, "cannot write '%s': %s", a->path, strerror(e));
  }
  a->tmp[0] = 0;
  return 0;
}

void ssdrev_atomic_abort(struct ssdrev_atomic *a) {
  if (a->f) fclose(a->f);
  a->f = NULL;
  if (a->tmp[0]) unlink(a->tmp);
  a->tmp[0] = 0;
}

int ssdrev_write_file_atomic(const char *path, const void *data, size_t len, struct ssdrev_err *err) {
  struct ssdrev_atomic a;
  int rc = ssdrev_atomic_open(&a, path, err);
  if (rc) return rc;
  if (len && fwrite(data, 1, len, a.f) != len) {
    int e = errno ? errno : EIO;
    ssdrev_atomic_abort(&a);
    return ssdrev_fail(err, -e, "cannot write '%s': %s", path, strerror(e));
  }
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

int ssdrev_read_file(const char *path, char **out, size_t *len, size_t max_bytes, struct ssdrev_err *err) {
  if (!max_bytes) max_bytes = 256u << 20;
  *out = NULL;
  if (len) *len = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
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
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    return ssdrev_fail(err, -EISDIR, "cannot read '%s': is a directory", path);
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
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || *p == 0) {
      char c = *p;
      *p = 0;
      if (mkdir(buf, 0777) && errno != EEXIST) {
        int e = errno;
        return ssdrev_fail(err, -e, "cannot create directory '%s': %s", buf, strerror(e));
      }
      struct stat st;
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
