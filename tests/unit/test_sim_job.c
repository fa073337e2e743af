/* test_sim_job.c — the simulated drive through the real job runner and log
 * writer: a sim target's logs are identical for the same seed, and its
 * virtual clock is what the log records. */
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"
#include "testlib.h"

static const char *model(void) {
  static char b[1024];
  const char *root = getenv("SSDREV_ROOT");
  snprintf(b, sizeof b, "sim:%s/samples/models/pm981-256.model", root ? root : ".");
  return b;
}

/* Runs a 70/30 random job (QD8, 50 ms virtual) on a fresh sim into log. */
static int run_job(const char *log, uint64_t seed, struct bench_job_result *res) {
  struct bench_target_opts o = {0};
  o.write_intent = 1;
  o.seed = seed;
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  int rc = bench_target_open(&t, model(), &o, &err);
  if (rc) {
    fprintf(stderr, "    %s\n", err.msg);
    return rc;
  }
  struct bench_job j;
  bench_job_defaults(&j);
  snprintf(j.name, sizeof j.name, "mix");
  j.pattern = BENCH_RAND;
  j.read_pct = 70;
  j.block_bytes = 4096;
  j.qd = 8;
  j.threads = 1;
  j.span_bytes = 1ull << 30;
  j.measure_ns = 50000000;
  j.seed = seed;
  rc = bench_job_run(t, &j, log, NULL, NULL, res, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  bench_target_close(t);
  return rc;
}

/* FNV-1a over every decoded record of a log; counts records. */
static uint64_t log_digest(const char *path, uint64_t *n) {
  struct ssdlog_reader *r = NULL;
  struct ssdrev_err err = {{0}};
  if (ssdlog_open(&r, path, 0, &err)) return 0;
  uint64_t h = 1469598103934665603ull;
  struct ssdlog_rec rec;
  *n = 0;
  while (ssdlog_next(r, &rec, &err) == 1) {
    const uint64_t v[7] = {rec.submit_ns, rec.lat_ns, rec.offset_bytes, rec.len_bytes,
                           (uint64_t)(int64_t)rec.status, rec.op, rec.flags};
    for (int i = 0; i < 7; i++) h = (h ^ v[i]) * 1099511628211ull;
    (*n)++;
  }
  ssdlog_close(r);
  return h;
}

TEST("The same seed gives identical I/O records through the job runner on a sim target") {
  struct bench_job_result a, b, c;
  REQUIRE(run_job(test_path("a.ssdlog"), 7, &a) == 0);
  REQUIRE(run_job(test_path("b.ssdlog"), 7, &b) == 0);
  REQUIRE(run_job(test_path("c.ssdlog"), 8, &c) == 0);
  uint64_t na, nb, nc;
  uint64_t ha = log_digest(test_path("a.ssdlog"), &na), hb = log_digest(test_path("b.ssdlog"), &nb),
           hc = log_digest(test_path("c.ssdlog"), &nc);
  CHECK(na > 1000);
  CHECK_EQ_U64(na, nb);
  CHECK_EQ_U64(ha, hb);
  CHECK(ha != hc);
  CHECK_EQ_U64(a.ios, b.ios);
  CHECK_STR(a.engine, "sim");
}

TEST("A sim job's log records the virtual clock and mechanistic latencies") {
  struct bench_job_result a;
  REQUIRE(run_job(test_path("v.ssdlog"), 3, &a) == 0);
  struct ssdlog_reader *r = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(ssdlog_open(&r, test_path("v.ssdlog"), 0, &err) == 0);
  CHECK_EQ_U64(ssdlog_get_header(r)->clock_source, SSDLOG_CLOCK_VIRTUAL);
  struct ssdlog_rec rec;
  uint64_t wr = 0, rd = 0, max_submit = 0, bad = 0;
  while (ssdlog_next(r, &rec, &err) == 1) {
    if (rec.status) bad++;
    if (rec.op == SSDLOG_OP_WRITE) wr++;
    else rd++;
    if (rec.submit_ns > max_submit) max_submit = rec.submit_ns;
    if (rec.lat_ns < 5000 || rec.lat_ns > 50000000) bad++; /* > controller overhead, < any stall */
  }
  ssdlog_close(r);
  CHECK_EQ_U64(bad, 0);
  CHECK(rd > 2 * wr && wr > 0);
  CHECK(max_submit >= 40000000 && max_submit < 60000000); /* 50 ms of virtual time, not wall time */
}
