/* test_outputs.c — the output-file contract (base/common.c: ssdrev_atomic_*,
 * ssdrev_open_new, ssdrev_mkdirs) and the archive's writer lock
 * (archive/lock.c, archive/archive.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

/* Writes "sentinel" to a fresh file NAME; its path goes to out (512 bytes). */
static int sentinel(char *out, const char *name) {
  snprintf(out, 512, "%s", test_path(name));
  return ssdrev_write_file_atomic(out, "sentinel", 8, NULL);
}

static int holds_sentinel(const char *path) {
  char *buf;
  size_t n;
  if (ssdrev_read_file(path, &buf, &n, 0, NULL)) return 0;
  int ok = n == 8 && !memcmp(buf, "sentinel", 8);
  free(buf);
  return ok;
}

TEST("An atomic output refuses a symbolic link at its path and leaves the target alone") {
  struct ssdrev_err err = {{0}};
  char s[512];
  REQUIRE(sentinel(s, "s1") == 0);
  char link[4096];
  snprintf(link, sizeof link, "%s", test_path("l1.json"));
  REQUIRE(symlink(s, link) == 0);
  CHECK(ssdrev_write_file_atomic(link, "new", 3, &err) == -ELOOP);
  CHECK_CONTAINS(err.msg, "refusing to write");
  CHECK_CONTAINS(err.msg, "l1.json': it is a symbolic link");
  CHECK(holds_sentinel(s));
  struct stat st;
  CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
}

TEST("An atomic output refuses a directory that is a symbolic link") {
  struct ssdrev_err err = {{0}};
  REQUIRE(ssdrev_mkdirs(test_path("realdir"), &err) == 0);
  char link[4096], out[4200];
  snprintf(link, sizeof link, "%s", test_path("linkdir"));
  REQUIRE(symlink(test_path("realdir"), link) == 0);
  snprintf(out, sizeof out, "%s/x.csv", link);
  CHECK(ssdrev_write_file_atomic(out, "x", 1, &err) == -ELOOP);
  CHECK_CONTAINS(err.msg, "its directory");
  CHECK_CONTAINS(err.msg, "linkdir");
  CHECK(access(test_path("realdir/x.csv"), F_OK) != 0);
  CHECK(ssdrev_mkdirs(link, &err) == -ELOOP);
  CHECK_CONTAINS(err.msg, "linkdir");
}

TEST("A link planted while an atomic output is written is refused at commit") {
  struct ssdrev_err err = {{0}};
  char s[512];
  REQUIRE(sentinel(s, "s2") == 0);
  char out[4096];
  snprintf(out, sizeof out, "%s", test_path("late.txt"));
  struct ssdrev_atomic a;
  REQUIRE(ssdrev_atomic_open(&a, out, &err) == 0);
  fputs("new", a.f);
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", a.tmp);
  REQUIRE(symlink(s, out) == 0);
  CHECK(ssdrev_atomic_commit(&a, &err) == -ELOOP);
  CHECK(holds_sentinel(s));
  CHECK(access(tmp, F_OK) != 0);
}

TEST("An atomic output replaces a regular file by rename: a hard link keeps the old bytes") {
  struct ssdrev_err err = {{0}};
  char s[512];
  REQUIRE(sentinel(s, "s3") == 0);
  char hard[4096];
  snprintf(hard, sizeof hard, "%s", test_path("s3.hard"));
  REQUIRE(link(s, hard) == 0);
  REQUIRE(ssdrev_write_file_atomic(hard, "replaced", 8, &err) == 0);
  CHECK(holds_sentinel(s));
  char *buf;
  size_t n;
  REQUIRE(ssdrev_read_file(hard, &buf, &n, 0, &err) == 0);
  CHECK(n == 8 && !memcmp(buf, "replaced", 8));
  free(buf);
}

TEST("A streamed new file is created exclusively and replaces an old one only by rename") {
  struct ssdrev_err err = {{0}};
  char s[512];
  REQUIRE(sentinel(s, "s4") == 0);
  char hard[4096], link_[4096];
  snprintf(hard, sizeof hard, "%s", test_path("s4.hard"));
  snprintf(link_, sizeof link_, "%s", test_path("s4.link"));
  REQUIRE(link(s, hard) == 0);
  REQUIRE(symlink(s, link_) == 0);
  CHECK(ssdrev_open_new(hard, 0, &err) == -EEXIST);
  int fd = ssdrev_open_new(hard, 1, &err);
  REQUIRE(fd >= 0);
  CHECK(write(fd, "x", 1) == 1);
  close(fd);
  CHECK(holds_sentinel(s));
  struct stat st;
  CHECK(stat(hard, &st) == 0 && st.st_size == 1 && st.st_nlink == 1);
  CHECK(ssdrev_open_new(link_, 0, &err) == -ELOOP);
  CHECK(ssdrev_open_new(link_, 1, &err) == -ELOOP);
  CHECK_CONTAINS(err.msg, "s4.link': it is a symbolic link");
  CHECK(holds_sentinel(s));
  fd = ssdrev_open_new(test_path("fresh.bin"), 0, &err);
  CHECK(fd >= 0);
  if (fd >= 0) close(fd);
}

/* Counts entries of DIR whose names contain ".tmp." */
static int count_tmp(const char *dir) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "find '%s' -name '*.tmp.*' | wc -l", dir);
  FILE *p = popen(cmd, "r");
  int n = -1;
  if (p && fscanf(p, "%d", &n) != 1) n = -1;
  if (p) pclose(p);
  return n;
}

TEST("A failed group of outputs puts back the files it replaced and removes the files and directories it made") {
  struct ssdrev_err err = {{0}};
  char s[512], dir[600], sub[700], fresh[800];
  REQUIRE(sentinel(s, "g_old") == 0);
  snprintf(dir, sizeof dir, "%s", test_path("g_dir"));
  snprintf(sub, sizeof sub, "%s/a/b", dir);
  snprintf(fresh, sizeof fresh, "%s/new.txt", sub);
  struct ssdrev_outputs *g = ssdrev_outputs_begin(&err);
  REQUIRE(g != NULL);
  CHECK(ssdrev_outputs_current() == g);
  CHECK(ssdrev_write_file_atomic(s, "replaced", 8, &err) == 0);
  CHECK(ssdrev_write_file_atomic(s, "again!!!", 8, &err) == 0); /* twice: undone newest first */
  CHECK(ssdrev_mkdirs(sub, &err) == 0);
  CHECK(ssdrev_write_file_atomic(fresh, "x", 1, &err) == 0);
  CHECK(access(fresh, F_OK) == 0); /* readable at its name while the group is open */
  ssdrev_outputs_end(g, 0);
  CHECK(ssdrev_outputs_current() == NULL);
  CHECK(holds_sentinel(s));
  CHECK(access(dir, F_OK) != 0); /* the directories it made, all three levels */
  CHECK(count_tmp(test_path("")) == 0);
}

TEST("A kept group of outputs leaves the new files and no kept copy of the old ones") {
  struct ssdrev_err err = {{0}};
  char s[512];
  REQUIRE(sentinel(s, "k_old") == 0);
  struct ssdrev_outputs *g = ssdrev_outputs_begin(&err);
  REQUIRE(g != NULL);
  CHECK(ssdrev_write_file_atomic(s, "replaced", 8, &err) == 0);
  ssdrev_outputs_end(g, 1);
  CHECK(!holds_sentinel(s));
  CHECK(count_tmp(test_path("")) == 0);
}

TEST("A write that fails keeps its errno for the message naming the file") {
  struct ssdrev_err err = {{0}};
  struct ssdrev_atomic a;
  REQUIRE(ssdrev_atomic_open(&a, test_path("w.bin"), &err) == 0);
  fclose(a.f); /* a stream that can no longer write */
  a.f = fopen("/dev/full", "w");
  REQUIRE(a.f != NULL);
  setvbuf(a.f, NULL, _IONBF, 0);
  CHECK(ssdrev_atomic_write(&a, "abc", 3) == -ENOSPC);
  CHECK(ssdrev_atomic_fail(&a, &err) == -ENOSPC);
  CHECK_CONTAINS(err.msg, "w.bin': No space left on device");
  CHECK(access(test_path("w.bin"), F_OK) != 0);
  CHECK(count_tmp(test_path("")) == 0);
}

/* A stream whose every write fails without setting errno (as a stream
 * whose error flag is set, or a library's own sink, may): it writes
 * nothing (glibc's fwrite reports a -1 from here as a full write, only its
 * error flag set). */
static ssize_t write_fails(void *cookie, const char *buf, size_t n) {
  (void)cookie, (void)buf, (void)n;
  return 0;
}

TEST("A failed write reports its own errno or EIO, never one left over from an earlier call") {
  struct ssdrev_err err = {{0}};
  struct ssdrev_atomic a;
  REQUIRE(ssdrev_atomic_open(&a, test_path("st.bin"), &err) == 0);
  fclose(a.f);
  a.f = fopencookie(NULL, "w", (cookie_io_functions_t){.write = write_fails});
  REQUIRE(a.f != NULL);
  setvbuf(a.f, NULL, _IONBF, 0);
  errno = ENOENT; /* an earlier, unrelated failure */
  CHECK(ssdrev_atomic_write(&a, "abc", 3) == -EIO);
  CHECK(ssdrev_atomic_fail(&a, &err) == -EIO);
  CHECK_CONTAINS(err.msg, "st.bin': Input/output error");
  CHECK(count_tmp(test_path("")) == 0);
  /* a stream written around ssdrev_atomic_write (its error flag set, no
   * errno kept): commit says EIO too */
  REQUIRE(ssdrev_atomic_open(&a, test_path("st2.bin"), &err) == 0);
  fclose(a.f);
  a.f = fopencookie(NULL, "w", (cookie_io_functions_t){.write = write_fails});
  REQUIRE(a.f != NULL);
  setvbuf(a.f, NULL, _IONBF, 0);
  CHECK(fwrite("abc", 1, 3, a.f) != 3);
  errno = EACCES;
  CHECK(ssdrev_atomic_commit(&a, &err) == -EIO);
  CHECK_CONTAINS(err.msg, "st2.bin': Input/output error");
  CHECK(access(test_path("st2.bin"), F_OK) != 0);
  CHECK(count_tmp(test_path("")) == 0);
  /* written around it to a full disk: commit hears ENOSPC again from the
   * file, not the errno of whatever ran since */
  if (!access("/dev/full", W_OK)) {
    REQUIRE(ssdrev_atomic_open(&a, test_path("st3.bin"), &err) == 0);
    fclose(a.f);
    a.f = fopen("/dev/full", "w");
    REQUIRE(a.f != NULL);
    setvbuf(a.f, NULL, _IONBF, 0);
    fputs("abc", a.f);
    CHECK(ferror(a.f));
    errno = EACCES;
    CHECK(ssdrev_atomic_commit(&a, &err) == -ENOSPC);
    CHECK_CONTAINS(err.msg, "st3.bin': No space left on device");
    CHECK(count_tmp(test_path("")) == 0);
  }
  /* not open: EBADF, whatever errno held */
  struct ssdrev_atomic closed = {.f = NULL};
  errno = ENOENT;
  CHECK(ssdrev_atomic_write(&closed, "x", 1) == -EBADF);
  CHECK(closed.write_errno == EBADF);
}

TEST("A second writer of an archive fails at once naming the holder's PID") {
  struct ssdrev_err err = {{0}};
  struct archive *run, *other;
  REQUIRE(archive_create(&run, test_path("locked"), "x", &err) == 0);
  CHECK(archive_open_write(&other, test_path("locked"), &err) == -EBUSY);
  char want[64];
  snprintf(want, sizeof want, "is in use by process %ld", (long)getpid());
  CHECK_CONTAINS(err.msg, want);
  CHECK_CONTAINS(err.msg, "locked");
  /* a reader needs no lock */
  CHECK(archive_open(&other, test_path("locked"), &err) == 0);
  archive_free(other);
  archive_free(run);
  REQUIRE(archive_open_write(&run, test_path("locked"), &err) == 0);
  archive_free(run);
}

TEST("Opening or creating an archive under its lock appends to the one that is there") {
  struct ssdrev_err err = {{0}};
  struct archive *run;
  REQUIRE(archive_open_or_create(&run, test_path("oc"), "x", &err) == 0);
  archive_add_test(run, "t1", NULL, NULL);
  REQUIRE(archive_save(run, &err) == 0);
  archive_free(run);
  REQUIRE(archive_open_or_create(&run, test_path("oc"), "x", &err) == 0);
  CHECK(archive_find_test(run, "t1") != NULL);
  archive_free(run);
  /* a foreign directory gets no lock file */
  REQUIRE(ssdrev_mkdirs(test_path("foreign"), &err) == 0);
  REQUIRE(ssdrev_write_file_atomic(test_path("foreign/mine.txt"), "x", 1, &err) == 0);
  CHECK(archive_open_or_create(&run, test_path("foreign"), "x", &err) == -EEXIST);
  CHECK(access(test_path("foreign/.lock"), F_OK) != 0);
}

TEST("A symbolic link as the archive, its logs directory or its lock file is refused") {
  struct ssdrev_err err = {{0}};
  struct archive *run;
  REQUIRE(ssdrev_mkdirs(test_path("target-dir"), &err) == 0);
  REQUIRE(symlink(test_path("target-dir"), test_path("run-link")) == 0);
  CHECK(archive_create(&run, test_path("run-link"), "x", &err) == -ELOOP);
  CHECK(access(test_path("target-dir/.lock"), F_OK) != 0);
  CHECK(access(test_path("target-dir/logs"), F_OK) != 0);
  REQUIRE(archive_create(&run, test_path("r-logs"), "x", &err) == 0);
  archive_free(run);
  char logs[4200];
  snprintf(logs, sizeof logs, "%s/logs", test_path("r-logs"));
  REQUIRE(rmdir(logs) == 0);
  REQUIRE(symlink(test_path("target-dir"), logs) == 0);
  CHECK(archive_open_write(&run, test_path("r-logs"), &err) == -ELOOP);
  CHECK_CONTAINS(err.msg, "logs': it is a symbolic link");
  REQUIRE(archive_create(&run, test_path("r-lock"), "x", &err) == 0);
  archive_free(run);
  char s[512];
  REQUIRE(sentinel(s, "s5") == 0);
  char lock[4200];
  snprintf(lock, sizeof lock, "%s/.lock", test_path("r-lock"));
  REQUIRE(unlink(lock) == 0 && symlink(s, lock) == 0);
  CHECK(archive_open_write(&run, test_path("r-lock"), &err) == -ELOOP);
  CHECK(holds_sentinel(s));
}

static void count_wait(const char *dir, const char *msg, void *arg) {
  (void)dir;
  if (strstr(msg, "waiting up to 1 s")) (*(int *)arg)++;
}

TEST("A writer asked to wait for a held lock says so once and fails after the wait naming the holder") {
  struct ssdrev_err err = {{0}};
  struct archive *run, *other;
  REQUIRE(archive_create(&run, test_path("waited"), "x", &err) == 0);
  int calls = 0;
  struct archive_lock_wait w = {.wait_ms = 1000, .on_wait = count_wait, .arg = &calls};
  uint64_t t0 = ssdrev_clock_ns();
  CHECK(archive_open_write_wait(&other, test_path("waited"), &w, &err) == -EBUSY);
  uint64_t took = ssdrev_clock_ns() - t0;
  CHECK(took >= 1000000000ull && took < 5000000000ull);
  CHECK(calls == 1);
  char want[96];
  snprintf(want, sizeof want, "is still in use by process %ld after waiting 1 s", (long)getpid());
  CHECK_CONTAINS(err.msg, want);
  archive_free(run);
  /* free now: taken at once, no note */
  REQUIRE(archive_open_write_wait(&run, test_path("waited"), &w, &err) == 0);
  CHECK(calls == 1);
  archive_free(run);
}

/* The CSV cells of `fn` as one string (open_memstream). */
static char *csv_of(void (*fn)(FILE *, const char *, int), const char *cell, int last) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  fn(f, cell, last);
  fclose(f);
  return buf;
}

TEST("A CSV text cell starting with a formula character gets a leading quote mark inside its quotes") {
  static const char *const in[] = {"=HYPERLINK(\"http://x\",\"y\")", "+cmd|' /C calc'!A0", "@SUM(A1:A9)", "-2+3",
                                   "\tx", "\rx", "-3.5"};
  static const char *const out[] = {"\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",", "\"'+cmd|' /C calc'!A0\",",
                                    "\"'@SUM(A1:A9)\",", "\"'-2+3\",", "\"'\tx\",", "\"'\rx\",", "\"'-3.5\"\n"};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    char *s = csv_of(ssdrev_csv_text, in[i], i + 1 == sizeof in / sizeof in[0]);
    REQUIRE(s);
    CHECK_STR(s, out[i]);
    free(s);
  }
}

TEST("A CSV text cell is always quoted as RFC 4180 says, an inner quote doubled") {
  char *s = csv_of(ssdrev_csv_text, "lab \"PM981\", #1\nx", 1);
  REQUIRE(s);
  CHECK_STR(s, "\"lab \"\"PM981\"\", #1\nx\"\n");
  free(s);
  s = csv_of(ssdrev_csv_text, NULL, 0);
  REQUIRE(s);
  CHECK_STR(s, "\"\",");
  free(s);
}

TEST("A CSV number cell stays a bare number, negative ones included; anything else becomes a text cell") {
  static const char *const in[] = {"-3.5", "562.11", "0", "1e+20", "", "=1+2", "-1+2", "inf", "1 ", "--1"};
  static const char *const out[] = {"-3.5,", "562.11,", "0,", "1e+20,", ",", "\"'=1+2\",", "\"'-1+2\",",
                                    "\"inf\",", "\"1 \",", "\"'--1\","};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    char *s = csv_of(ssdrev_csv_number, in[i], 0);
    REQUIRE(s);
    CHECK_STR(s, out[i]);
    free(s);
  }
}
