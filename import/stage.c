/* stage.c — an import is built in a temporary directory next to its
 * archive (OUT.tmp.XXXXXX) and renamed into place only when it is complete,
 * so a failed or killed import never leaves a half-made OUT that would
 * block the retry. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "import/import_int.h"
#include "archive/archive.h"
#include "import/import.h"

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st, (void)ftw;
  return type == FTW_DP ? rmdir(path) : unlink(path);
}

void import_stage_remove(const char *dir) {
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int dir_empty(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  struct dirent *e;
  int empty = 1;
  while (empty && (e = readdir(d))) empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
  closedir(d);
  return empty;
}

int import_stage_create(char *stage, size_t len, const char *out_dir, struct ssdrev_err *err) {
  char out[4096];
  if (snprintf(out, sizeof out, "%s", out_dir) >= (int)sizeof out || strlen(out) + 12 >= len)
    return ssdrev_fail(err, -ENAMETOOLONG, "run path too long: '%s'", out_dir);
  for (size_t n = strlen(out); n > 1 && out[n - 1] == '/';) out[--n] = 0;
  struct stat st;
  if (!lstat(out, &st)) {
    if (S_ISLNK(st.st_mode)) return ssdrev_fail(err, -ELOOP, "refusing to write '%s': it is a symbolic link", out);
    if (!S_ISDIR(st.st_mode)) return ssdrev_fail(err, -ENOTDIR, "cannot create run '%s': not a directory", out);
    if (!dir_empty(out))
      return ssdrev_fail(err, -EEXIST, "cannot create run '%s': directory exists and is not empty", out);
  }
  /* OUT's parent must exist for the stage (it may be made, as for any run) */
  char parent[4096];
  snprintf(parent, sizeof parent, "%s", out);
  char *slash = strrchr(parent, '/');
  if (slash && slash != parent) {
    *slash = 0;
    int rc = ssdrev_mkdirs(parent, err);
    if (rc) return rc;
  }
  snprintf(stage, len, "%s.tmp.XXXXXX", out);
  if (!mkdtemp(stage)) {
    int e = errno;
    return ssdrev_fail(err, -e, "cannot create run '%s': %s", out, strerror(e));
  }
  /* mkdtemp makes 0700; an archive is an ordinary directory */
  mode_t um = umask(0);
  umask(um);
  chmod(stage, 0777 & ~um);
  return 0;
}

int import_stage_finish(struct archive *run, const struct import_opts *o, int rc,
                        struct ssdrev_err *err) {
  char stage[4096], out[4096];
  snprintf(stage, sizeof stage, "%s", run->dir);
  snprintf(out, sizeof out, "%s", o->out_dir);
  for (size_t n = strlen(out); n > 1 && out[n - 1] == '/';) out[--n] = 0;
  if (!rc) rc = archive_save(run, err);
  /* rename(2) takes an empty directory's place, never a file's or a
   * non-empty directory's: whatever appeared at OUT meanwhile is kept */
  if (!rc && rename(stage, out)) {
    int e = errno;
    rc = e == ENOTEMPTY || e == EEXIST
             ? ssdrev_fail(err, -EEXIST, "cannot create run '%s': directory exists and is not empty", out)
             : ssdrev_fail(err, -e, "cannot create run '%s': %s", out, strerror(e));
  }
  archive_free(run); /* releases the lock, which moved with the directory */
  if (rc) import_stage_remove(stage);
  return rc;
}
