/* test_engine.c — the engine registry and each real engine driven directly
 * through its ops struct, as the runner does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"
#include "testlib.h"

TEST("Engines are found by name and unknown names give NULL") {
  const struct bench_engine_ops *u = bench_engine_find("io_uring"), *p = bench_engine_find("psync");
  REQUIRE(u && p);
  CHECK_STR(u->name, "io_uring");
  CHECK_STR(p->name, "psync");
  CHECK(u->setup && u->submit && u->reap && u->cleanup && u->now_ns);
  CHECK(bench_engine_find("spdk") == NULL);
  CHECK(bench_engine_find(NULL) == NULL);
}

TEST("Every engine states its version and what it can do as flags") {
  const struct bench_engine_ops *u = bench_engine_find("io_uring"), *p = bench_engine_find("psync"),
                                *s = bench_engine_find("sim");
  REQUIRE(u && p && s);
  CHECK(u->version == BENCH_ENGINE_OPS_VERSION && p->version == BENCH_ENGINE_OPS_VERSION &&
        s->version == BENCH_ENGINE_OPS_VERSION);
  CHECK(u->flags == (BENCH_ENGINE_CAN_POLL | BENCH_ENGINE_CAN_IOPOLL | BENCH_ENGINE_CAN_BATCH));
  CHECK(p->flags == BENCH_ENGINE_ONE_IN_FLIGHT);
  CHECK(s->flags == (BENCH_ENGINE_VIRTUAL_CLOCK | BENCH_ENGINE_NO_DATA));
}

TEST("SSDREV_DISABLE_IO_URING makes psync the default, as when io_uring_setup fails") {
  struct bench_target_opts o = {.create_bytes = 1 << 20, .write_intent = 1};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_target_open(&t, test_path("default.img"), &o, &err) == 0);
  setenv("SSDREV_DISABLE_IO_URING", "1", 1);
  const struct bench_engine_ops *d = bench_engine_default(t);
  unsetenv("SSDREV_DISABLE_IO_URING");
  CHECK(d && !strcmp(d->name, "psync"));
  CHECK(bench_engine_default(NULL) == NULL);
  bench_target_close(t);
}

TEST("The default engine of a simulated drive is the sim engine, which no file target accepts") {
  char spec[4200];
  snprintf(spec, sizeof spec, "sim:%s/samples/models/pm981-256.model", getenv("SSDREV_ROOT") ? getenv("SSDREV_ROOT") : ".");
  struct bench_target_opts o = {.write_intent = 1, .seed = 1};
  struct bench_target *t = NULL, *f = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_target_open(&t, spec, &o, &err) == 0);
  const struct bench_engine_ops *d = bench_engine_default(t);
  CHECK(d && !strcmp(d->name, "sim"));
  CHECK(!bench_engine_find("io_uring")->accepts(t) && !bench_engine_find("psync")->accepts(t));
  struct bench_target_opts fo = {.create_bytes = 1 << 20, .write_intent = 1};
  REQUIRE(bench_target_open(&f, test_path("notsim.img"), &fo, &err) == 0);
  CHECK(!bench_engine_find("sim")->accepts(f));
  bench_target_close(f);
  bench_target_close(t);
}

/* Writes 8 blocks with distinct bytes, reads them back, through one engine. */
static void roundtrip(const char *engine, int *testlib_failed) {
  char name[64];
  snprintf(name, sizeof name, "%s.img", engine);
  struct bench_target_opts o = {.create_bytes = 1 << 20, .write_intent = 1};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_target_open(&t, test_path(name), &o, &err) == 0);
  const struct bench_engine_ops *ops = bench_engine_find(engine);
  REQUIRE(ops);
  enum { N = 8, BS = 4096 };
  void *bufs[N];
  for (int i = 0; i < N; i++) REQUIRE(posix_memalign(&bufs[i], 4096, BS) == 0);
  struct bench_engine e = {ops, NULL};
  REQUIRE(ops->setup(&e, t, N, bufs, N, BS, &err) == 0);
  struct bench_io ios[N], *ptr[N], *done[N];
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < N; i++) {
      memset(&ios[i], 0, sizeof ios[i]);
      ios[i].offset_bytes = (uint64_t)(N - 1 - i) * BS;
      ios[i].len_bytes = BS;
      ios[i].op = pass ? SSDLOG_OP_READ : SSDLOG_OP_WRITE;
      ios[i].buf = bufs[i];
      ios[i].buf_index = (unsigned)i;
      ios[i].submit_ns = ops->now_ns(&e);
      memset(bufs[i], pass ? 0 : 'a' + i, BS);
      ptr[i] = &ios[i];
    }
    int sub = 0, got = 0;
    while (sub < N) {
      int r = ops->submit(&e, ptr + sub, (unsigned)(N - sub));
      REQUIRE(r > 0);
      sub += r;
    }
    while (got < N) {
      int r = ops->reap(&e, done + got, 1, (unsigned)(N - got));
      REQUIRE(r > 0);
      got += r;
    }
    int ok = 1;
    for (int i = 0; i < N; i++) ok &= ios[i].status == 0 && ios[i].done_ns >= ios[i].submit_ns;
    CHECK(ok);
  }
  int data_ok = 1;
  for (int i = 0; i < N; i++) data_ok &= ((unsigned char *)bufs[i])[0] == 'a' + i && ((unsigned char *)bufs[i])[BS - 1] == 'a' + i;
  CHECK(data_ok);
  ops->cleanup(&e);
  for (int i = 0; i < N; i++) free(bufs[i]);
  bench_target_close(t);
}

TEST("io_uring writes blocks and reads the same bytes back through registered buffers") {
  roundtrip("io_uring", testlib_failed);
}

TEST("psync writes blocks and reads the same bytes back") {
  roundtrip("psync", testlib_failed);
}

TEST("A job run with the psync engine reports psync and moves every byte") {
  struct bench_target_opts o = {.create_bytes = 1 << 20, .write_intent = 1};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_target_open(&t, test_path("pj.img"), &o, &err) == 0);
  struct bench_job j;
  bench_job_defaults(&j);
  j.pattern = BENCH_SEQ, j.read_pct = 50, j.measure_ns = 0, j.threads = 2, j.qd = 4;
  snprintf(j.engine, sizeof j.engine, "psync");
  struct bench_job_result res;
  CHECK(bench_job_run(t, &j, NULL, NULL, NULL, &res, &err) == 0);
  CHECK_STR(res.engine, "psync");
  CHECK_EQ_U64(res.bytes, 1 << 20);
  bench_target_close(t);
}
