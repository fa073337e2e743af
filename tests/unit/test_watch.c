/* test_watch.c — a job's watch off the I/O hot path (struct bench_job.watch):
 * the cliff watch's batch calls only bin completions and say when a
 * judgment is due; the estimate runs in the judgment call (n = 0), which a
 * real-clock job makes outside the batch path and whose stop ends the job. */
#include <errno.h>
#include "bench/bench.h"
#include "log/ssdlog.h"
#include "testlib.h"

/* Records of `n` completed 1 MiB writes, one per ms, from *at. */
static void writes(struct ssdlog_rec *r, size_t n, uint64_t *at) {
  for (size_t i = 0; i < n; i++, *at += 1000000) {
    memset(&r[i], 0, sizeof r[i]);
    r[i].submit_ns = *at;
    r[i].lat_ns = 1000000;
    r[i].len_bytes = 1 << 20;
    r[i].op = SSDLOG_OP_WRITE;
  }
}

TEST("The cliff watch's batch calls only bin and flag a due judgment; the estimate runs in the judgment call") {
  struct bench_cliff_watch w;
  bench_cliff_watch_init(&w, 0, 0, 0);
  static struct ssdlog_rec r[256];
  uint64_t at = 0;
  int due = 0;
  for (int k = 0; k < 8 && !due; k++) { /* 16 steps of 4 MiB: 64 MiB until the first check */
    writes(r, 16, &at);
    int v = bench_cliff_watch_fn(&w, r, 16);
    CHECK(v == 0 || v == BENCH_JOB_WATCH_DUE);
    due = v == BENCH_JOB_WATCH_DUE;
  }
  CHECK(due);
  CHECK(!w.have_est); /* no estimate on the batch path */
  CHECK(bench_cliff_watch_fn(&w, NULL, 0) == 0); /* a flat trace: no cliff, no stop */
  CHECK(w.have_est);
  CHECK(bench_cliff_watch_finish(&w) == 0);
  bench_cliff_watch_free(&w);
}

/* Asks for its judgment after `after` completions; the judgment stops. */
struct judged {
  uint64_t seen, after, judgments, batches_after_due;
  int due;
};
static int watch_judged(void *arg, const struct ssdlog_rec *r, size_t n) {
  struct judged *w = arg;
  (void)r;
  if (!n) {
    w->judgments++;
    return 1;
  }
  w->seen += n;
  if (w->due) w->batches_after_due++;
  if (w->seen < w->after || w->due) return 0;
  w->due = 1;
  return BENCH_JOB_WATCH_DUE;
}

TEST("A real-clock job makes a due watch's judgment call once, off the batch call, and its stop ends the job") {
  struct bench_target_opts o = {.create_bytes = 64 << 20, .write_intent = 1};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_target_open(&t, test_path("watch.img"), &o, &err) == 0);
  struct bench_job j;
  bench_job_defaults(&j);
  j.pattern = BENCH_SEQ, j.read_pct = 0, j.block_bytes = 128 << 10, j.qd = 8, j.threads = 1;
  j.measure_ns = 0, j.size_bytes = 64 << 20; /* 512 I/Os if nothing stops it */
  struct judged w = {.after = 100};
  j.watch = watch_judged, j.watch_arg = &w;
  struct bench_job_result res;
  CHECK(bench_job_run(t, &j, NULL, NULL, NULL, &res, &err) == 0);
  CHECK_EQ_U64(w.judgments, 1);
  CHECK(res.ios >= 100 && res.ios < 100 + 2 * 8); /* stopped at once, not at 512 */
  CHECK_EQ_U64(w.seen, res.ios);
  bench_target_close(t);
}
