/* test_target.c — regular-file targets and the rules for writing them. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"
#include "testlib.h"

TEST("A missing file is created and preallocated at the requested size") {
  struct bench_target_opts o = {.create_bytes = 3 << 20, .write_intent = 1};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_target_open(&t, test_path("new.img"), &o, &err) == 0);
  CHECK(bench_target_get_kind(t) == BENCH_TARGET_FILE);
  CHECK_EQ_U64(bench_target_size_bytes(t), 3 << 20);
  CHECK(bench_target_lba_bytes(t) > 0);
  CHECK_STR(bench_target_spec(t), test_path("new.img"));
  CHECK(bench_target_sim(t) == NULL);
  CHECK(bench_target_temp_c(t) < 0);
  struct stat st;
  CHECK(stat(test_path("new.img"), &st) == 0 && st.st_size == 3 << 20);
  CHECK(st.st_blocks * 512 >= 3 << 20); /* real blocks, not a hole */
  bench_target_close(t);
  /* ssdrev made it, so writing it again needs no --force */
  REQUIRE(bench_target_open(&t, test_path("new.img"), &o, &err) == 0);
  bench_target_close(t);
}

TEST("A missing file without a size to create is an error naming the file") {
  struct bench_target_opts o = {.write_intent = 1};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  CHECK(bench_target_open(&t, test_path("absent.img"), &o, &err) == -ENOENT);
  CHECK(t == NULL);
  CHECK_CONTAINS(err.msg, "absent.img");
}

TEST("A file ssdrev did not create is read freely but written only with force") {
  int fd = open(test_path("foreign.img"), O_CREAT | O_WRONLY, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(ftruncate(fd, 1 << 20) == 0);
  REQUIRE(pwrite(fd, "precious", 8, 0) == 8);
  close(fd);
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  struct bench_target_opts ro = {0};
  CHECK(bench_target_open(&t, test_path("foreign.img"), &ro, &err) == 0);
  bench_target_close(t);
  t = NULL;
  struct bench_target_opts wr = {.write_intent = 1, .create_bytes = 2 << 20};
  CHECK(bench_target_open(&t, test_path("foreign.img"), &wr, &err) == -EEXIST);
  CHECK(t == NULL);
  CHECK_CONTAINS(err.msg, "did not create");
  struct stat st;
  CHECK(stat(test_path("foreign.img"), &st) == 0 && st.st_size == 1 << 20); /* not grown either */
  wr.force = 1;
  CHECK(bench_target_open(&t, test_path("foreign.img"), &wr, &err) == 0);
  bench_target_close(t);
}

TEST("Purging a file target drops its data and keeps its size") {
  struct bench_target_opts o = {.create_bytes = 1 << 20, .write_intent = 1, .buffered = 1};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_target_open(&t, test_path("purge.img"), &o, &err) == 0);
  int fd = open(test_path("purge.img"), O_WRONLY);
  REQUIRE(fd >= 0);
  REQUIRE(pwrite(fd, "data", 4, 4096) == 4);
  close(fd);
  CHECK(bench_target_purge_method(t) == NULL);
  CHECK(bench_target_purge(t, &err) == 0);
  CHECK_STR(bench_target_purge_method(t), "recreate");
  char b[4] = {1, 1, 1, 1};
  fd = open(test_path("purge.img"), O_RDONLY);
  CHECK(pread(fd, b, 4, 4096) == 4 && !b[0] && !b[1] && !b[2] && !b[3]);
  close(fd);
  CHECK_EQ_U64(bench_target_size_bytes(t), 1 << 20);
  bench_target_close(t);
}

TEST("A read-only target refuses to purge") {
  struct bench_target_opts o = {.create_bytes = 1 << 20};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_target_open(&t, test_path("ro.img"), &o, &err) == 0);
  CHECK(bench_target_purge(t, &err) == -EPERM);
  bench_target_close(t);
}

TEST("A directory is not a target") {
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  CHECK(bench_target_open(&t, test_tmpdir(), NULL, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "not a regular file or block device");
}

TEST("The guard rejects a path that is not a block device") {
  struct ssdrev_err err = {{0}};
  CHECK(bench_guard_check(test_tmpdir(), 0, &err) == -ENOTBLK);
  CHECK(bench_guard_check(test_path("nope"), 0, &err) == -ENOENT);
}

static const char *model_spec(void) {
  static char spec[600];
  const char *root = getenv("SSDREV_ROOT");
  snprintf(spec, sizeof spec, "sim:%s/samples/models/pm981-256.model", root ? root : ".");
  return spec;
}

TEST("A sim target takes its size from the model, and purge empties the drive") {
  struct bench_target_opts o = {.write_intent = 1, .seed = 3};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  int rc = bench_target_open(&t, model_spec(), &o, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  CHECK(bench_target_get_kind(t) == BENCH_TARGET_SIM);
  REQUIRE(bench_target_sim(t) != NULL);
  CHECK_EQ_U64(bench_target_size_bytes(t), sim_get_model(bench_target_sim(t))->capacity_bytes);
  CHECK_STR(bench_engine_default(t)->name, "sim");
  struct bench_job j;
  bench_job_defaults(&j);
  j.pattern = BENCH_SEQ, j.read_pct = 0, j.measure_ns = 0, j.size_bytes = 64 << 20, j.block_bytes = 128 << 10;
  j.threads = 2, j.qd = 4;
  struct bench_job_result res;
  REQUIRE(bench_job_run(t, &j, NULL, NULL, NULL, &res, &err) == 0);
  CHECK_STR(res.engine, "sim");
  CHECK_EQ_U64(res.bytes, 64 << 20);
  struct sim_truth tr;
  sim_get_truth(bench_target_sim(t), &tr);
  CHECK(tr.mapped_bytes >= 64 << 20);
  CHECK(bench_target_purge(t, &err) == 0);
  CHECK_STR(bench_target_purge_method(t), "reset");
  sim_get_truth(bench_target_sim(t), &tr);
  CHECK_EQ_U64(tr.mapped_bytes, 0);
  bench_target_close(t);
}

TEST("A sim spec naming a missing model fails with the model's name") {
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  CHECK(bench_target_open(&t, "sim:/nonexistent/x.model", NULL, &err) < 0);
  CHECK(t == NULL);
  CHECK_CONTAINS(err.msg, "x.model");
}
