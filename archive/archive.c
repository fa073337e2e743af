/* archive.c — the run archive: a directory with manifest.json (docs/archive.md),
 * logs/ and later analysis.json. Every manifest save is atomic. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "archive/archive.h"

static void iso8601_now(char *buf, size_t len) {
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int is_atomic_temp(const char *name);

/* 1 when dir holds nothing but (maybe) the lock file and temporary files
 * of a writer that has not written the manifest yet, or failed to. */
static int dir_is_empty(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  struct dirent *e;
  int empty = 1;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, ARCHIVE_LOCK) &&
        !is_atomic_temp(e->d_name)) {
      empty = 0;
      break;
    }
  }
  closedir(d);
  return empty;
}

/* Refuses a link at dir or at dir/logs (where the logs go): the archive
 * is written only through real directories. */
static int check_no_links(const char *dir, struct ssdrev_err *err) {
  struct stat st;
  char logs[4200];
  if (!lstat(dir, &st) && S_ISLNK(st.st_mode))
    return ssdrev_fail(err, -ELOOP, "refusing to write '%s': it is a symbolic link", dir);
  snprintf(logs, sizeof logs, "%s/logs", dir);
  if (!lstat(logs, &st) && S_ISLNK(st.st_mode))
    return ssdrev_fail(err, -ELOOP, "refusing to write '%s': it is a symbolic link", logs);
  return 0;
}

static json_t *host_info(void) {
  struct utsname u;
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  json_t *h = json_object();
  json_object_set_new(h, "hostname", json_string(host));
  if (!uname(&u)) {
    json_object_set_new(h, "kernel", json_string(u.release));
    json_object_set_new(h, "machine", json_string(u.machine));
  }
  return h;
}

/* Creates the manifest of a new run in dir, which the caller has locked
 * (lock_fd, owned by the run from here on) and found empty. */
static int create_locked(struct archive **out, const char *dir, const char *target_spec, int lock_fd,
                         struct ssdrev_err *err) {
  struct archive *run = calloc(1, sizeof *run);
  if (!run) {
    close(lock_fd);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  run->lock_fd = lock_fd;
  snprintf(run->dir, sizeof run->dir, "%s", dir);
  char now[32];
  iso8601_now(now, sizeof now);
  json_t *m = json_object();
  json_object_set_new(m, "format", json_string("ssdrev-run"));
  json_object_set_new(m, "format_version", json_integer(1));
  json_t *tool = json_object();
  json_object_set_new(tool, "name", json_string("ssdrev"));
  json_object_set_new(tool, "version", json_string(SSDREV_VERSION));
  json_object_set_new(m, "tool", tool);
  json_object_set_new(m, "host", host_info());
  json_object_set_new(m, "created", json_string(now));
  /* when the drive was measured: a run ssdrev measures starts now (an
   * importer replaces it with the source's own date, or removes it) */
  json_object_set_new(m, "measured_at", json_string(now));
  json_object_set_new(m, "simulated", json_boolean(target_spec && !strncmp(target_spec, "sim:", 4)));
  json_t *target = json_object();
  json_object_set_new(target, "spec", json_string(target_spec ? target_spec : ""));
  json_object_set_new(m, "target", target);
  json_t *source = json_object();
  json_object_set_new(source, "kind", json_string("ssdrev"));
  json_object_set_new(m, "source", source);
  json_object_set_new(m, "steps", json_object());
  json_object_set_new(m, "tests", json_array());
  run->manifest = m;
  /* the manifest first: a concurrent writer that looks now finds an
   * archive (and its lock), not a directory that is "not empty" */
  int rc = archive_save(run, err);
  if (!rc) rc = ssdrev_mkdirs(archive_path(run, ARCHIVE_LOGS), err);
  if (rc) {
    archive_free(run);
    return rc;
  }
  *out = run;
  return 0;
}

/* Opens (create = 0: an existing run, for writing) or creates (create = 1:
 * a new one; create = 2: whichever dir holds) a run under its lock. */
static int open_locked(struct archive **out, const char *dir, const char *target_spec, int create,
                       const struct archive_lock_wait *w,
                       struct ssdrev_err *err) {
  *out = NULL;
  if (strlen(dir) >= sizeof((*out)->dir)) return ssdrev_fail(err, -ENAMETOOLONG, "run path too long: '%s'", dir);
  int rc = check_no_links(dir, err);
  if (rc) return rc;
  char mpath[4200];
  snprintf(mpath, sizeof mpath, "%s/" ARCHIVE_MANIFEST, dir);
  struct stat st;
  if (create) {
    if (!stat(dir, &st)) {
      if (!S_ISDIR(st.st_mode)) return ssdrev_fail(err, -ENOTDIR, "cannot create run '%s': not a directory", dir);
      /* checked before the lock too: a foreign directory gets no .lock */
      if (!dir_is_empty(dir) && (create == 1 || access(mpath, F_OK)))
        return ssdrev_fail(err, -EEXIST, "cannot create run '%s': directory exists and is not empty", dir);
    } else if ((rc = ssdrev_mkdirs(dir, err))) {
      return rc;
    }
  }
  int fd = archive_lock_wait(dir, w, err);
  if (fd < 0) return fd;
  if (create == 1 || (create == 2 && access(mpath, F_OK))) {
    if (!dir_is_empty(dir)) {
      close(fd);
      return ssdrev_fail(err, -EEXIST, "cannot create run '%s': directory exists and is not empty", dir);
    }
    return create_locked(out, dir, target_spec, fd, err);
  }
  rc = archive_open(out, dir, err);
  if (rc) {
    close(fd);
    return rc;
  }
  (*out)->lock_fd = fd;
  return 0;
}

int archive_create(struct archive **out, const char *dir, const char *target_spec,
                     struct ssdrev_err *err) {
  return open_locked(out, dir, target_spec, 1, NULL, err);
}

int archive_open_write(struct archive **out, const char *dir, struct ssdrev_err *err) {
  return open_locked(out, dir, NULL, 0, NULL, err);
}

int archive_open_write_wait(struct archive **out, const char *dir, const struct archive_lock_wait *w,
                            struct ssdrev_err *err) {
  return open_locked(out, dir, NULL, 0, w, err);
}

int archive_open_or_create(struct archive **out, const char *dir, const char *target_spec,
                             struct ssdrev_err *err) {
  return open_locked(out, dir, target_spec, 2, NULL, err);
}

/* 1 when rel names a file inside the run: relative, and no ".." component.
 * Checked by component, not by substring: "logs/a..b.ssdlog" is inside (an
 * imported fio job name may hold dots), "logs/../x" and "/x" are not. */
static int rel_path_inside(const char *rel) {
  if (!rel[0] || rel[0] == '/') return 0;
  for (const char *c = rel; *c;) {
    size_t n = strcspn(c, "/");
    if (n == 2 && c[0] == '.' && c[1] == '.') return 0;
    c += n;
    if (*c == '/') c++;
  }
  return 1;
}

int archive_open(struct archive **out, const char *dir, struct ssdrev_err *err) {
  *out = NULL;
  struct stat st;
  if (stat(dir, &st)) {
    int e = errno;
    return ssdrev_fail(err, -e, "cannot open run '%s': %s", dir, strerror(e));
  }
  if (!S_ISDIR(st.st_mode)) return ssdrev_fail(err, -ENOTDIR, "cannot open run '%s': not a directory", dir);
  struct archive *run = calloc(1, sizeof *run);
  if (!run) return ssdrev_fail(err, -ENOMEM, "out of memory");
  run->lock_fd = -1;
  snprintf(run->dir, sizeof run->dir, "%s", dir);
  char path[4200];
  snprintf(path, sizeof path, "%s/" ARCHIVE_MANIFEST, dir);
  run->manifest = ssdrev_load_json_crc(path, &run->manifest_crc32c, err);
  if (!run->manifest) {
    free(run);
    return -EINVAL;
  }
  json_t *m = run->manifest;
  const char *fmt = json_string_value(json_object_get(m, "format"));
  const char *why = NULL;
  if (!json_is_object(m)) why = "not a JSON object";
  else if (!fmt || strcmp(fmt, "ssdrev-run")) why = "\"format\" is not \"ssdrev-run\"";
  else if (json_integer_value(json_object_get(m, "format_version")) != 1) why = "unsupported \"format_version\" (expected 1)";
  else if (!json_is_array(json_object_get(m, "tests"))) why = "\"tests\" is not an array";
  if (!why) {
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(m, "tests"), i, t) {
      if (!json_is_object(t) || !json_is_string(json_object_get(t, "name"))) {
        why = "a test entry lacks a \"name\" string";
        break;
      }
      json_t *log = json_object_get(t, "log");
      if (log && (!json_is_string(log) || !rel_path_inside(json_string_value(log)))) {
        why = "a test's \"log\" is not a relative path inside the run";
        break;
      }
    }
  }
  if (why) {
    int rc = ssdrev_fail(err, -EINVAL, "invalid manifest '%s': %s", path, why);
    archive_free(run);
    return rc;
  }
  if (!json_is_object(json_object_get(m, "steps"))) json_object_set_new(m, "steps", json_object());
  *out = run;
  return 0;
}

int archive_save(struct archive *run, struct ssdrev_err *err) {
  return ssdrev_write_json_atomic(archive_path(run, ARCHIVE_MANIFEST), run->manifest, err);
}

void archive_free(struct archive *run) {
  if (!run) return;
  if (run->lock_fd >= 0) close(run->lock_fd); /* releases the lock */
  json_decref(run->manifest);
  free(run);
}

json_t *archive_add_test(struct archive *run, const char *name, json_t *params, const char *log_rel) {
  char now[32];
  iso8601_now(now, sizeof now);
  json_t *t = json_object();
  json_object_set_new(t, "name", json_string(name));
  json_object_set_new(t, "params", params ? params : json_object());
  json_object_set_new(t, "start", json_string(now));
  json_object_set_new(t, "status", json_string("running"));
  if (log_rel) json_object_set_new(t, "log", json_string(log_rel));
  json_array_append_new(json_object_get(run->manifest, "tests"), t);
  return t;
}

json_t *archive_find_test(struct archive *run, const char *name) {
  json_t *tests = json_object_get(run->manifest, "tests");
  /* newest first: the entry a writer has just added is the one it means */
  for (size_t i = json_array_size(tests); i-- > 0;) {
    json_t *t = json_array_get(tests, i);
    const char *n = json_string_value(json_object_get(t, "name"));
    if (n && !strcmp(n, name)) return t;
  }
  return NULL;
}

void archive_end_test(json_t *test, const char *status) {
  char now[32];
  iso8601_now(now, sizeof now);
  json_object_set_new(test, "status", json_string(status));
  json_object_set_new(test, "end", json_string(now));
}

const char *archive_path(const struct archive *run, const char *rel) {
  static _Thread_local char bufs[4][8400];
  static _Thread_local unsigned i;
  char *b = bufs[i++ & 3];
  snprintf(b, sizeof bufs[0], "%s/%s", run->dir, rel);
  return b;
}

int archive_file(const char *run_dir, const char *rel, char *out, size_t len, struct ssdrev_err *err) {
  if (!rel || !rel_path_inside(rel))
    return ssdrev_fail(err, -EINVAL, "refusing '%s' in run '%s': not a relative path inside the run", rel ? rel : "",
                       run_dir);
  char root[PATH_MAX], joined[PATH_MAX + 4200], real[PATH_MAX];
  if (!realpath(run_dir, root)) {
    int e = errno;
    return ssdrev_fail(err, -e, "cannot open run '%s': %s", run_dir, strerror(e));
  }
  if (snprintf(joined, sizeof joined, "%s/%s", root, rel) >= (int)sizeof joined)
    return ssdrev_fail(err, -ENAMETOOLONG, "path too long: '%s/%s'", run_dir, rel);
  if (!realpath(joined, real)) {
    int e = errno;
    return ssdrev_fail(err, -e, "cannot open '%s/%s': %s", run_dir, rel, strerror(e));
  }
  /* after resolving every symbolic link the file must still be in the run:
   * logs/x -> /etc/shadow or logs -> / is refused */
  size_t rl = strlen(root);
  if (strncmp(real, root, rl) || (rl > 1 && real[rl] != '/') || !real[rl])
    return ssdrev_fail(err, -EACCES, "refusing '%s' in run '%s': it resolves to '%s', outside the run", rel, run_dir,
                       real);
  int fd = ssdrev_open_read(real, NULL, err); /* a regular file, checked without blocking */
  if (fd < 0) return fd;
  close(fd);
  if (snprintf(out, len, "%s", real) >= (int)len) return ssdrev_fail(err, -ENAMETOOLONG, "path too long: '%s'", real);
  return 0;
}

/* 1 when name is a temporary file of ssdrev_atomic_open: "X.tmp.XXXXXX",
 * where mkstemp filled the six X with letters and digits. */
static int is_atomic_temp(const char *name) {
  size_t n = strlen(name);
  if (n < 12 || memcmp(name + n - 11, ".tmp.", 5)) return 0;
  for (size_t i = n - 6; i < n; i++) {
    char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return 0;
  }
  return 1;
}

/* Removes temporaries under dir, descending `depth` more levels; returns the
 * number removed or a negative errno. Symbolic links are never followed. */
static int remove_temps(const char *dir, int depth, struct ssdrev_err *err) {
  DIR *d = opendir(dir);
  if (!d) {
    int e = errno;
    return ssdrev_fail(err, -e, "cannot list '%s': %s", dir, strerror(e));
  }
  int removed = 0, rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char path[8400];
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
    struct stat st;
    if (lstat(path, &st)) continue;
    if (S_ISDIR(st.st_mode) && depth > 0) {
      int n = remove_temps(path, depth - 1, err);
      if (n < 0) rc = n;
      else removed += n;
    } else if (S_ISREG(st.st_mode) && is_atomic_temp(e->d_name)) {
      if (unlink(path) && errno != ENOENT) {
        int en = errno;
        rc = ssdrev_fail(err, -en, "cannot remove stale temporary '%s': %s", path, strerror(en));
      } else {
        removed++;
      }
    }
  }
  closedir(d);
  return rc ? rc : removed;
}

int archive_remove_temps(struct archive *run, struct ssdrev_err *err) {
  /* the archive is flat: manifest and outputs at the top, logs/ and charts
   * one level down; two levels cover it without walking arbitrary trees */
  return remove_temps(run->dir, 2, err);
}

int archive_log_rel(char *buf, size_t len, const char *test_name) {
  int n = snprintf(buf, len, ARCHIVE_LOGS "/%s" ARCHIVE_LOG_SUFFIX, test_name);
  return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
