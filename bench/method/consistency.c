/* consistency.c — performance consistency as AnandTech measured it: a
 * sustained 4 KiB random write at QD32 over the whole drive for N minutes
 * (by default after a purge and a sequential fill), one test whose
 * analysis (analyze/consistency.c) has IOPS per second and per 100 ms and
 * the exact p99.9 latency per second. */
#include <errno.h>
#include "bench/method/review_int.h"

static const char *const cs_keys[] = {"block", "qd", "threads", "duration_s", "prepare", "short", NULL};

static const char *const cs_short_keys[] = {"duration_s", NULL};

static int cs_parse(struct review_step *s, const json_t *obj, const struct review_profile *p, const char *where,
                    struct ssdrev_err *err) {
  s->block_bytes = 4096;
  s->qd = 32;
  s->threads = 1;
  s->duration_s = 1800; /* AnandTech ran "just over half an hour" */
  s->prepare = REVIEW_PREP_FILL;
  int rc = bench_review_json_block(obj, s, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "qd", 1, 1024, &s->qd, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "threads", 1, 64, &s->threads, where, err);
  if (!rc) rc = bench_review_json_num(obj, "duration_s", 1, 7 * 86400, &s->duration_s, where, err);
  if (!rc) rc = bench_review_json_prepare(obj, s, where, err);
  const json_t *sh = json_object_get(obj, "short");
  if (!rc && sh && !json_is_object(sh)) rc = ssdrev_fail(err, -EINVAL, "%s: 'short' must be an object", where);
  if (rc) return rc;
  /* short mode: the step's "short" duration, else at most 10 s; the block
   * is checked in either mode (into a copy without --short) */
  double d = s->duration_s > 10 ? 10 : s->duration_s;
  char w2[700];
  snprintf(w2, sizeof w2, "%s: short", where);
  if (sh && (rc = bench_review_json_keys(sh, cs_short_keys, NULL, w2, err))) return rc;
  if (sh && (rc = bench_review_json_num(sh, "duration_s", 1, 7 * 86400, &d, w2, err))) return rc;
  if (p->short_mode) s->duration_s = d;
  return 0;
}

static double cs_estimate(const struct review_profile *p, const struct review_step *s, uint64_t cap,
                          enum review_basis basis) {
  struct review_load l = {.pattern = BENCH_RAND, .read_pct = 0, .block_bytes = s->block_bytes,
                          .depth = s->qd * s->threads, .busy_s = s->duration_s};
  return bench_review_prepare_estimate(p, s, cap, basis) + bench_review_cost(p, basis, &l);
}

static void cs_describe(const struct review_profile *p, const struct review_step *s, uint64_t cap, char *buf,
                        size_t len) {
  (void)p, (void)cap;
  snprintf(buf, len, "performance consistency: %s%gs %u KiB random write, QD%u T%u", bench_review_prepare_text(s->prepare),
           s->duration_s, s->block_bytes / 1024, s->qd, s->threads);
}

static int cs_run(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  int rc = bench_review_prepare(c, s, err);
  if (rc) return rc;
  char name[160];
  snprintf(name, sizeof name, "%s.write", s->id);
  struct bench_job job;
  struct bench_job_result res;
  bench_review_job_init(c, &job, name);
  job.pattern = BENCH_RAND;
  job.read_pct = 0;
  job.block_bytes = s->block_bytes;
  job.qd = s->qd;
  job.threads = s->threads;
  job.span_bytes = bench_review_align_down(c->cap_bytes, s->block_bytes);
  job.measure_ns = (uint64_t)(s->duration_s * 1e9);
  return bench_review_run_job(c, name, "consistency", NULL, &job, s->duration_s, &res, err);
}

const struct review_kind bench_review_kind_consistency = {
    .name = "consistency", .keys = cs_keys, .parse = cs_parse, .estimate = cs_estimate,
    .describe = cs_describe, .run = cs_run,
    .fio = bench_review_fio_consistency, .fio_pre_sh_of = bench_review_fio_pre_sh,
};
