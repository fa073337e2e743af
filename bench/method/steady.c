/* steady.c — the SNIA PTS steady-state step: rounds of 4 KiB random write
 * over the whole drive (or, with "matrix", the PTS IOPS matrix of block
 * sizes x read/write mixes each round, the 4 KiB 100% write point being the
 * tracking variable) until the last `window` rounds satisfy the PTS rule
 * (bench/method/pts.c) or the round limit is reached. The analysis
 * (analyze/steady.c) judges the logs by the same rule. */
#include <errno.h>
#include <string.h>
#include "bench/method/review_int.h"

#define SS_ROUNDS_MAX 100

static const char *const ss_keys[] = {"block", "qd", "threads", "round_s", "rounds_max", "window", "matrix",
                                      "prepare", "short", NULL};

/* The PTS IOPS matrix: read shares outer, block sizes inner (largest first). */
static const unsigned ss_mix_read[] = {100, 95, 65, 50, 35, 5, 0};
static const uint32_t ss_mix_block[] = {1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512};
#define SS_NMIX (sizeof ss_mix_read / sizeof ss_mix_read[0])
#define SS_NBLOCK (sizeof ss_mix_block / sizeof ss_mix_block[0])

static const char *const ss_short_keys[] = {"round_s", "rounds_max", NULL};

static int ss_times(const json_t *obj, struct review_step *s, const char *where, struct ssdrev_err *err) {
  int rc = bench_review_json_num(obj, "round_s", 0.001, 86400, &s->round_s, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "rounds_max", 2, SS_ROUNDS_MAX, &s->rounds_max, where, err);
  return rc;
}

static int ss_parse(struct review_step *s, const json_t *obj, const struct review_profile *p, const char *where,
                    struct ssdrev_err *err) {
  s->block_bytes = 4096;
  s->qd = 32;
  s->threads = 1;
  s->round_s = 60; /* the PTS round: one minute per test point */
  s->rounds_max = 25;
  s->window = 5;
  s->prepare = REVIEW_PREP_NONE;
  int rc = bench_review_json_block(obj, s, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "qd", 1, 1024, &s->qd, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "threads", 1, 64, &s->threads, where, err);
  if (!rc) rc = ss_times(obj, s, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "window", 2, 25, &s->window, where, err);
  if (!rc) rc = bench_review_json_prepare(obj, s, where, err);
  const json_t *m = json_object_get(obj, "matrix");
  if (!rc && m && !json_is_boolean(m)) rc = ssdrev_fail(err, -EINVAL, "%s: 'matrix' must be true or false", where);
  s->matrix = json_is_true(m);
  const json_t *sh = json_object_get(obj, "short");
  if (!rc && sh && !json_is_object(sh)) rc = ssdrev_fail(err, -EINVAL, "%s: 'short' must be an object", where);
  if (rc) return rc;
  if (s->window > s->rounds_max)
    return ssdrev_fail(err, -EINVAL, "%s: 'window' (%u) must not exceed 'rounds_max' (%u)", where, s->window,
                       s->rounds_max);
  /* short mode: the step's "short" times, else rounds of at most 0.5 s;
   * the block is checked in either mode (into a copy without --short) */
  struct review_step cp = *s;
  if (cp.round_s > 0.5) cp.round_s = 0.5;
  char w2[700];
  snprintf(w2, sizeof w2, "%s: short", where);
  if (sh && (rc = bench_review_json_keys(sh, ss_short_keys, NULL, w2, err))) return rc;
  if (sh && (rc = ss_times(sh, &cp, w2, err))) return rc;
  if (cp.window > cp.rounds_max)
    return ssdrev_fail(err, -EINVAL, "%s: 'rounds_max' (%u) must not be below the step's 'window' (%u)", w2,
                       cp.rounds_max, cp.window);
  if (p->short_mode) *s = cp;
  return 0;
}

static double ss_estimate(const struct review_profile *p, const struct review_step *s, uint64_t cap,
                          enum review_basis basis) {
  /* the round limit: a drive that converges earlier takes less */
  struct review_load l = {.pattern = BENCH_RAND, .read_pct = 0, .block_bytes = s->block_bytes,
                          .depth = s->qd * s->threads, .busy_s = s->round_s};
  double round = 0;
  if (!s->matrix) round = bench_review_cost(p, basis, &l);
  for (size_t m = 0; s->matrix && m < SS_NMIX; m++)
    for (size_t b = 0; b < SS_NBLOCK; b++) {
      l.read_pct = ss_mix_read[m];
      l.block_bytes = ss_mix_block[b];
      round += bench_review_cost(p, basis, &l);
    }
  return bench_review_prepare_estimate(p, s, cap, basis) + s->rounds_max * round;
}

static void ss_describe(const struct review_profile *p, const struct review_step *s, uint64_t cap, char *buf,
                        size_t len) {
  (void)p, (void)cap;
  if (s->matrix)
    snprintf(buf, len, "steady state (SNIA PTS): %sup to %u rounds of the IOPS matrix (7 mixes x 8 blocks, %gs each), QD%u T%u",
             bench_review_prepare_text(s->prepare), s->rounds_max, s->round_s, s->qd, s->threads);
  else
    snprintf(buf, len, "steady state (SNIA PTS): %sup to %u rounds of %gs %u KiB random write, QD%u T%u",
             bench_review_prepare_text(s->prepare), s->rounds_max, s->round_s, s->block_bytes / 1024, s->qd,
             s->threads);
}

static int ss_job(struct review_ctx *c, const struct review_step *s, unsigned round, unsigned read_pct, uint32_t block,
                  int tracking, double *iops, struct ssdrev_err *err) {
  char name[160];
  char bs[16];
  if (block % 1024) snprintf(bs, sizeof bs, "%uB", block);
  else snprintf(bs, sizeof bs, "%uK", block / 1024);
  if (s->matrix) snprintf(name, sizeof name, "%s.r%02u.R%u.%s", s->id, round, read_pct, bs);
  else snprintf(name, sizeof name, "%s.r%02u", s->id, round);
  struct bench_job job;
  struct bench_job_result res;
  bench_review_job_init(c, &job, name);
  job.pattern = BENCH_RAND;
  job.read_pct = read_pct;
  job.block_bytes = block;
  job.qd = s->qd;
  job.threads = s->threads;
  job.span_bytes = bench_review_align_down(c->cap_bytes, block);
  job.measure_ns = (uint64_t)(s->round_s * 1e9);
  /* the window goes with each round: the analysis judges by the step's rule */
  json_t *extra = json_pack("{s:i, s:i, s:b, s:i}", "round", (int)round, "read_pct", (int)read_pct, "tracking", tracking,
                            "window", (int)s->window);
  int rc = bench_review_run_job(c, name, "steady_state", extra, &job, s->round_s, &res, err);
  if (!rc && iops) *iops = res.iops;
  return rc;
}

static int ss_run(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  int rc = bench_review_prepare(c, s, err);
  double y[SS_ROUNDS_MAX];
  for (unsigned r = 1; !rc && r <= s->rounds_max; r++) {
    if (!s->matrix) {
      rc = ss_job(c, s, r, 0, s->block_bytes, 1, &y[r - 1], err);
    } else {
      for (size_t m = 0; !rc && m < SS_NMIX; m++)
        for (size_t b = 0; !rc && b < SS_NBLOCK; b++) {
          if (ss_mix_block[b] < c->lba_bytes) continue; /* 512 B on a 4 KiB-sector drive */
          int tr = ss_mix_read[m] == 0 && ss_mix_block[b] == 4096;
          rc = ss_job(c, s, r, ss_mix_read[m], ss_mix_block[b], tr, tr ? &y[r - 1] : NULL, err);
        }
    }
    struct bench_pts_window w;
    if (!rc && r >= s->window && !bench_pts_judge(y, r - 1, s->window, &w) && w.steady) break;
  }
  return rc;
}

const struct review_kind bench_review_kind_steady_state = {
    .name = "steady_state", .keys = ss_keys, .parse = ss_parse, .estimate = ss_estimate,
    .describe = ss_describe, .run = ss_run,
    .fio = bench_review_fio_steady, .fio_pre_sh_of = bench_review_fio_pre_sh,
};
