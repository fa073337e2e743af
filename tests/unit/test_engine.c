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

/* The sim engine's queue against a reference: every reap returns the
 * earliest completions in flight, (done_ns, submission order), whatever the
 * batch sizes and reap bounds; zero-length commands (done at now + the
 * controller time) make ties. The queue is a bottom-up heap: a wrong pop
 * would reorder completions without failing any timing test. */
TEST("The sim engine completes commands earliest first, ties in submission order, as a sorted reference does") {
  char path[512];
  snprintf(path, sizeof path, "%s/samples/models/ftl-8g.model", getenv("SSDREV_ROOT") ? getenv("SSDREV_ROOT") : ".");
  struct sim_model m;
  struct sim *s = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(sim_model_load(&m, path, &err) == 0);
  REQUIRE(sim_new(&s, &m, 7, &err) == 0);
  enum { QD = 37, N = 20000 };
  struct bench_engine e = {&bench_engine_sim_ops, NULL};
  REQUIRE(bench_engine_sim_attach(&e, s, 8, &err) == 0); /* fewer than QD: the queue grows */
  struct bench_io *ios = calloc(QD, sizeof *ios), *fl[QD], *b[QD], *d[QD];
  uint64_t *seq = calloc(QD, sizeof *seq), next = 0, x = 12345, sub = 0, fin = 0;
  int inflight[QD] = {0}, ok = 1, ties = 0;
  unsigned nf = 0;
  for (unsigned i = 0; i < QD; i++) fl[nf++] = &ios[i];
  while (fin < N && ok) {
    unsigned k = 0, want = 1 + (unsigned)(x % QD);
    while (nf && k < want && sub < N) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      struct bench_io *io = fl[--nf];
      io->op = x % 3 ? SSDLOG_OP_WRITE : SSDLOG_OP_READ;
      io->len_bytes = x % 5 == 0 ? 0 : 4096;
      io->offset_bytes = (x >> 8) % (m.capacity_bytes / 4096) * 4096;
      seq[io - ios] = next++;
      inflight[io - ios] = 1;
      b[k++] = io;
      sub++;
    }
    if (k) REQUIRE(e.ops->submit(&e, b, k) == (int)k);
    unsigned lo = 1 + (unsigned)(x >> 20) % 3, hi = lo + (unsigned)(x >> 24) % QD;
    int r = e.ops->reap(&e, d, lo, hi);
    for (int i = 0; i < r && ok; i++) {
      /* the reference: the earliest (done_ns, seq) among those in flight */
      int best = -1;
      for (int j = 0; j < QD; j++)
        if (inflight[j] && (best < 0 || ios[j].done_ns < ios[best].done_ns ||
                            (ios[j].done_ns == ios[best].done_ns && seq[j] < seq[best])))
          best = j;
      ok &= d[i] == &ios[best];
      for (int j = 0; j < QD; j++) ties += inflight[j] && j != best && ios[j].done_ns == ios[best].done_ns;
      inflight[best] = 0;
      fl[nf++] = d[i];
    }
    fin += (uint64_t)r;
  }
  CHECK(ok);
  CHECK(fin == N);
  CHECK(ties > 100); /* the test met ties, so their order was checked */
  e.ops->cleanup(&e);
  sim_free(s);
  free(ios), free(seq);
}
