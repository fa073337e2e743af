/* test_archive.c — run archive, atomic files and JSON loading (archive/archive.c, base/common.c). */
#include <errno.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

TEST("A new run archive has a manifest with format, tool, host and no tests") {
  struct ssdrev_err err = {{0}};
  struct archive *run;
  REQUIRE(archive_create(&run, test_path("run1"), "sim:x.model", &err) == 0);
  archive_free(run);
  REQUIRE(archive_open(&run, test_path("run1"), &err) == 0);
  CHECK_STR(json_string_value(json_object_get(run->manifest, "format")), "ssdrev-run");
  CHECK(json_is_true(json_object_get(run->manifest, "simulated")));
  CHECK(json_array_size(json_object_get(run->manifest, "tests")) == 0);
  CHECK(json_is_string(json_object_get(json_object_get(run->manifest, "host"), "hostname")));
  struct stat st;
  CHECK(stat(test_path("run1/logs"), &st) == 0 && S_ISDIR(st.st_mode));
  archive_free(run);
}

TEST("A run ssdrev measures is dated measured_at, its start, next to created") {
  struct ssdrev_err err = {{0}};
  struct archive *run;
  REQUIRE(archive_create(&run, test_path("run-dated"), "sim:x.model", &err) == 0);
  const char *c = json_string_value(json_object_get(run->manifest, "created"));
  const char *m = json_string_value(json_object_get(run->manifest, "measured_at"));
  REQUIRE(c != NULL && m != NULL);
  CHECK_STR(m, c);
  CHECK(strlen(m) == 20 && m[10] == 'T' && m[19] == 'Z');
  archive_free(run);
}

TEST("Tests added to a run survive a save and reopen with their status and end time") {
  struct ssdrev_err err = {{0}};
  struct archive *run;
  REQUIRE(archive_create(&run, test_path("run2"), "/tmp/f", &err) == 0);
  json_t *t = archive_add_test(run, "job1", NULL, "logs/job1.ssdlog");
  archive_end_test(t, "interrupted");
  REQUIRE(archive_save(run, &err) == 0);
  archive_free(run);
  REQUIRE(archive_open(&run, test_path("run2"), &err) == 0);
  json_t *u = archive_find_test(run, "job1");
  REQUIRE(u != NULL);
  CHECK_STR(json_string_value(json_object_get(u, "status")), "interrupted");
  CHECK(json_is_string(json_object_get(u, "end")));
  CHECK(archive_find_test(run, "nope") == NULL);
  CHECK(!json_is_true(json_object_get(run->manifest, "simulated")));
  archive_free(run);
}

TEST("Of two tests of one name the lookup finds the newer, the one a writer has just added") {
  /* the review's note on a test (bench_review_note_test) and the thermal
   * step looked the newest up by hand, `ssdrev run` through
   * archive_find_test the oldest: one lookup now, the newest */
  struct ssdrev_err err = {{0}};
  struct archive *run;
  REQUIRE(archive_create(&run, test_path("run_dup"), "/tmp/f", &err) == 0);
  json_t *a = archive_add_test(run, "job", NULL, "logs/a.ssdlog");
  archive_add_test(run, "other", NULL, NULL);
  json_t *b = archive_add_test(run, "job", NULL, "logs/b.ssdlog");
  CHECK(a != b);
  CHECK(archive_find_test(run, "job") == b);
  CHECK_STR(json_string_value(json_object_get(archive_find_test(run, "job"), "log")), "logs/b.ssdlog");
  archive_free(run);
}

TEST("Creating a run over a non-empty directory is refused") {
  struct ssdrev_err err = {{0}};
  struct archive *run;
  REQUIRE(archive_create(&run, test_path("run3"), "x", &err) == 0);
  archive_free(run);
  CHECK(archive_create(&run, test_path("run3"), "x", &err) == -EEXIST);
  CHECK_CONTAINS(err.msg, "not empty");
}

TEST("Opening a run whose manifest is not a ssdrev run names the file and the problem") {
  struct ssdrev_err err = {{0}};
  struct archive *run;
  mkdir(test_path("bad"), 0777);
  REQUIRE(ssdrev_write_file_atomic(test_path("bad/manifest.json"), "{\"format\":\"x\"}", 14, &err) == 0);
  CHECK(archive_open(&run, test_path("bad"), &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "bad/manifest.json");
  CHECK_CONTAINS(err.msg, "format");
  REQUIRE(ssdrev_write_file_atomic(test_path("bad/manifest.json"), "{\"format\":", 10, &err) == 0);
  CHECK(archive_open(&run, test_path("bad"), &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "line 1");
  CHECK(archive_open(&run, test_path("missing"), &err) == -ENOENT);
  CHECK_CONTAINS(err.msg, "missing");
}

TEST("A manifest whose log path escapes the run directory is rejected") {
  struct ssdrev_err err = {{0}};
  struct archive *run;
  mkdir(test_path("esc"), 0777);
  const char *m = "{\"format\":\"ssdrev-run\",\"format_version\":1,\"tests\":[{\"name\":\"a\",\"log\":\"../../etc/passwd\"}]}";
  REQUIRE(ssdrev_write_file_atomic(test_path("esc/manifest.json"), m, strlen(m), &err) == 0);
  CHECK(archive_open(&run, test_path("esc"), &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "relative path");
}

TEST("An aborted atomic output leaves neither the file nor a temporary behind") {
  struct ssdrev_err err = {{0}};
  struct ssdrev_atomic a;
  REQUIRE(ssdrev_atomic_open(&a, test_path("out.txt"), &err) == 0);
  fputs("half", a.f);
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", a.tmp);
  CHECK(access(tmp, F_OK) == 0);
  ssdrev_atomic_abort(&a);
  CHECK(access(tmp, F_OK) != 0);
  CHECK(access(test_path("out.txt"), F_OK) != 0);
}

TEST("A committed atomic output replaces the old file whole") {
  struct ssdrev_err err = {{0}};
  REQUIRE(ssdrev_write_file_atomic(test_path("o2.txt"), "old", 3, &err) == 0);
  REQUIRE(ssdrev_write_file_atomic(test_path("o2.txt"), "newer", 5, &err) == 0);
  char *buf;
  size_t n;
  REQUIRE(ssdrev_read_file(test_path("o2.txt"), &buf, &n, 0, &err) == 0);
  CHECK(n == 5 && !strcmp(buf, "newer"));
  free(buf);
}

TEST("Writing to a full device fails with a message and leaves no file") {
  struct ssdrev_err err = {{0}};
  if (access("/dev/full", W_OK)) TEST_SKIP("no writable /dev/full");
  /* /dev/full is a character device: rename over it is not possible, so
   * exercise the write path through a temporary opened on it instead. */
  struct ssdrev_atomic a;
  REQUIRE(ssdrev_atomic_open(&a, test_path("full.txt"), &err) == 0);
  FILE *full = fopen("/dev/full", "w");
  REQUIRE(full != NULL);
  fclose(a.f);
  unlink(a.tmp);
  a.f = full;
  char big[8192];
  memset(big, 'x', sizeof big);
  fwrite(big, 1, sizeof big, a.f);
  CHECK(ssdrev_atomic_commit(&a, &err) < 0);
  CHECK_CONTAINS(err.msg, "full.txt");
  CHECK(access(test_path("full.txt"), F_OK) != 0);
}

TEST("Reading a directory or a missing file fails naming it") {
  struct ssdrev_err err = {{0}};
  char *buf;
  CHECK(ssdrev_read_file(test_tmpdir(), &buf, NULL, 0, &err) == -EISDIR);
  CHECK_CONTAINS(err.msg, "directory");
  CHECK(ssdrev_read_file(test_path("nope.json"), &buf, NULL, 0, &err) == -ENOENT);
  CHECK_CONTAINS(err.msg, "nope.json");
}

TEST("mkdirs creates nested directories and refuses a file in the way") {
  struct ssdrev_err err = {{0}};
  CHECK(ssdrev_mkdirs(test_path("a/b/c"), &err) == 0);
  CHECK(ssdrev_mkdirs(test_path("a/b/c"), &err) == 0);
  REQUIRE(ssdrev_write_file_atomic(test_path("file"), "x", 1, &err) == 0);
  CHECK(ssdrev_mkdirs(test_path("file/sub"), &err) < 0);
}
