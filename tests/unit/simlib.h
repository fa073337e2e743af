/* simlib.h — the set-up of the unit tests that hold the analysis against
 * the simulator's truth (test_analyze_sim, test_analyze_family,
 * test_analyze_est, test_recovery): a model's target opened for writing,
 * a sequential write job, the tolerances of docs/flags.md. Header-only
 * like testlib.h (each test is one source file, Makefile), its functions
 * inline so a test may use some of them; include it after testlib.h. */
#ifndef SSDREV_SIMLIB_H
#define SSDREV_SIMLIB_H
#include <math.h>
#include "bench/bench.h"
#include "sim/sim.h"

#define GIB 1073741824.0

/* "$SSDREV_ROOT/DIR" (DIR: samples/models, tests/data/models,
 * tests/data/est), in a static buffer. */
static inline const char *simlib_dir(const char *dir) {
  static char d[4200];
  const char *root = getenv("SSDREV_ROOT");
  snprintf(d, sizeof d, "%s/%s", root ? root : ".", dir);
  return d;
}

/* "sim:$SSDREV_ROOT/DIR/FILE", in a static buffer. */
static inline const char *simlib_spec(const char *dir, const char *file) {
  static char d[4400];
  snprintf(d, sizeof d, "sim:%s/%s", simlib_dir(dir), file);
  return d;
}

/* Opens model FILE of DIR for writing with SEED (the simulator's noise);
 * 0, or the error printed and non-zero. */
static inline int simlib_open(struct bench_target **t, const char *dir, const char *file, uint64_t seed) {
  struct bench_target_opts to = {0};
  to.write_intent = 1;
  to.seed = seed;
  struct ssdrev_err e = {{0}};
  int rc = bench_target_open(t, simlib_spec(dir, file), &to, &e);
  if (rc) fprintf(stderr, "    %s\n", e.msg);
  return rc;
}

/* A sequential write: BYTES from OFF in BLOCK-byte I/Os at QD, after
 * IDLE_NS of idle, watched by WATCH (NULL: none). */
struct simlib_write {
  uint64_t off, bytes, idle_ns;
  uint32_t block;
  int qd;
  struct bench_cliff_watch *watch;
};

/* Runs W on T into LOG (NULL: no log); RES (may be NULL) gets the result.
 * 0, or the error printed and non-zero. */
static inline int simlib_seq_write(struct bench_target *t, const struct simlib_write *w, const char *log,
                            struct bench_job_result *res) {
  struct bench_job job;
  struct bench_job_result r;
  struct ssdrev_err e = {{0}};
  bench_job_defaults(&job);
  snprintf(job.name, sizeof job.name, "fill");
  job.pattern = BENCH_SEQ;
  job.read_pct = 0;
  job.block_bytes = w->block;
  job.qd = w->qd;
  job.threads = 1;
  job.offset_bytes = w->off;
  job.span_bytes = w->bytes;
  job.size_bytes = w->bytes;
  job.measure_ns = 0;
  job.idle_ns = w->idle_ns;
  if (w->watch) job.watch = bench_cliff_watch_fn, job.watch_arg = w->watch;
  int rc = bench_job_run(t, &job, log, NULL, NULL, res ? res : &r, &e);
  if (rc) fprintf(stderr, "    %s\n", e.msg);
  return rc;
}

/* O[K] as a number, NAN when it is none. */
static inline double simlib_num(const json_t *o, const char *k) {
  const json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A size's tolerance (docs/flags.md "SLC estimate"): max(5%, 1/16 GiB). */
static inline double simlib_size_tol(double gib) { return fmax(0.05 * gib, 1.0 / 16); }

#endif
