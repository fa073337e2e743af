/* lowqd.c — low queue depth steps: the RW-ratio sweep (4 KiB random
 * at QD 1, 2, 4 with the read share from 0 to 100%) and the tail-latency runs
 * (4 KiB random QD1 read, 70/30 mix and write, a million I/Os each). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "bench/method/review_int.h"
#include "archive/archive.h"

/* The random jobs' span: the step's test region (region_bytes at
 * region_offset_pct, the whole target without them), in whole blocks. A
 * region is of data the fill wrote, as a test file would be: on a full drive
 * its rewrites leave the rest of the drive's blocks valid, so GC finds its
 * victims in the region's stale blocks (docs/method.md, "Test regions"). */
static int lowqd_span(const struct review_ctx *c, const struct review_step *s, struct bench_job *job,
                      struct ssdrev_err *err) {
  uint64_t off, len;
  bench_review_region(c->cap_bytes, s->region_offset_pct, s->region_bytes, &off, &len);
  if (!s->region_bytes && !s->region_offset_pct) off = 0, len = c->cap_bytes; /* not rounded to 1 MiB */
  job->offset_bytes = off;
  job->span_bytes = bench_review_align_down(len, s->block_bytes);
  if (job->span_bytes < s->block_bytes)
    return ssdrev_fail(err, -ENOSPC, "step '%s': the target (%" PRIu64 " bytes) is too small for its test region",
                       s->id, c->cap_bytes);
  return 0;
}

/* " over a 1024 MiB region at 0%" for describe(), "" over the whole target */
static void lowqd_region_text(const struct review_step *s, uint64_t cap, char *buf, size_t len) {
  uint64_t off, rlen;
  bench_review_region(cap, s->region_offset_pct, s->region_bytes, &off, &rlen);
  if (!s->region_bytes && !s->region_offset_pct) buf[0] = 0;
  else snprintf(buf, len, ", %" PRIu64 " MiB region at %g%%", rlen >> 20, s->region_offset_pct);
}

/* ---------------------------------------------------------------- rw_sweep */

static const char *const sweep_keys[] = {"block", "qds", "read_pct_step", "measure_s", "ramp_s",
                                         "region_bytes", "region_offset_pct", NULL};

static int sweep_parse(struct review_step *s, const json_t *obj, const struct review_profile *p,
                       const char *where, struct ssdrev_err *err) {
  (void)p;
  s->read_pct_step = 10;
  s->measure_s = 5;
  s->ramp_s = 1;
  s->qds[0] = 1, s->qds[1] = 2, s->qds[2] = 4;
  s->nqds = 3;
  s->block_bytes = 4096;
  int rc = bench_review_json_block(obj, s, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "read_pct_step", 1, 100, &s->read_pct_step, where, err);
  if (!rc) rc = bench_review_json_num(obj, "measure_s", 0.001, 86400, &s->measure_s, where, err);
  if (!rc) rc = bench_review_json_num(obj, "ramp_s", 0, 86400, &s->ramp_s, where, err);
  if (!rc) rc = bench_review_json_region(obj, s, 1, where, err);
  if (rc) return rc;
  if (100 % s->read_pct_step)
    return ssdrev_fail(err, -EINVAL, "%s: 'read_pct_step' must divide 100", where);
  const json_t *qds = json_object_get(obj, "qds");
  if (!qds) return 0;
  if (!json_is_array(qds) || json_array_size(qds) == 0 || json_array_size(qds) > REVIEW_MAX_QDS)
    return ssdrev_fail(err, -EINVAL, "%s: 'qds' must be an array of 1 to %d queue depths", where,
                       REVIEW_MAX_QDS);
  for (size_t i = 0; i < json_array_size(qds); i++) {
    const json_t *q = json_array_get(qds, i);
    if (!json_is_integer(q) || json_integer_value(q) < 1 || json_integer_value(q) > 1024)
      return ssdrev_fail(err, -EINVAL, "%s: qds[%zu] must be an integer in [1, 1024]", where, i);
    s->qds[i] = (unsigned)json_integer_value(q);
  }
  s->nqds = (unsigned)json_array_size(qds);
  return 0;
}

static void sweep_times(const struct review_profile *p, const struct review_step *s,
                        double *measure_s, double *ramp_s) {
  *measure_s = p->set.sweep_measure_s >= 0 ? p->set.sweep_measure_s : s->measure_s;
  *ramp_s = p->set.sweep_ramp_s >= 0 ? p->set.sweep_ramp_s : s->ramp_s;
}

static double sweep_estimate(const struct review_profile *p, const struct review_step *s,
                             uint64_t cap, enum review_basis basis) {
  (void)cap;
  double m, r, t = 0;
  sweep_times(p, s, &m, &r);
  for (unsigned qi = 0; qi < s->nqds; qi++)
    for (unsigned rp = 0; rp <= 100; rp += s->read_pct_step) {
      struct review_load l = {.pattern = BENCH_RAND, .read_pct = rp, .block_bytes = s->block_bytes,
                              .depth = s->qds[qi], .busy_s = m + r};
      t += bench_review_cost(p, basis, &l);
    }
  return t;
}

static void sweep_describe(const struct review_profile *p, const struct review_step *s,
                           uint64_t cap, char *buf, size_t len) {
  double m, r;
  sweep_times(p, s, &m, &r);
  char q[64] = "", reg[80];
  lowqd_region_text(s, cap, reg, sizeof reg);
  size_t n = 0;
  for (unsigned i = 0; i < s->nqds && n < sizeof q; i++)
    n += (size_t)snprintf(q + n, sizeof q - n, "%s%u", i ? "," : "", s->qds[i]);
  snprintf(buf, len, "RW-ratio sweep: %u KiB random, QD %s, read 0..100%% step %u%%, %gs each%s",
           s->block_bytes / 1024, q, s->read_pct_step, m, reg);
}

static int sweep_run(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  double m, r;
  sweep_times(c->prof, s, &m, &r);
  for (unsigned qi = 0; qi < s->nqds; qi++) {
    for (unsigned rp = 0; rp <= 100; rp += s->read_pct_step) {
      char name[160];
      snprintf(name, sizeof name, "%s.QD%u.R%u", s->id, s->qds[qi], rp);
      struct bench_job job;
      struct bench_job_result res;
      bench_review_job_init(c, &job, name);
      job.pattern = BENCH_RAND;
      job.read_pct = rp;
      job.block_bytes = s->block_bytes;
      job.qd = s->qds[qi];
      int rc = lowqd_span(c, s, &job, err);
      if (rc) return rc;
      job.ramp_ns = (uint64_t)(r * 1e9);
      job.measure_ns = (uint64_t)(m * 1e9);
      json_t *extra = json_pack("{s:i, s:i}", "qd", (int)s->qds[qi], "read_pct", (int)rp);
      rc = bench_review_run_job(c, name, "rw_sweep", extra, &job, m + r, &res, err);
      if (rc) return rc;
    }
  }
  return 0;
}

const struct review_kind bench_review_kind_rw_sweep = {
    .name = "rw_sweep", .keys = sweep_keys, .parse = sweep_parse, .estimate = sweep_estimate,
    .describe = sweep_describe, .run = sweep_run, .fio = bench_review_fio_sweep,
};

/* -------------------------------------------------------------------- tail */

static const char *const tail_keys[] = {"block", "qd", "ios", "workloads", "region_bytes", "region_offset_pct",
                                        NULL};

static const struct review_workload workloads[] = {
    {REVIEW_OP_READ, "read", 100}, {REVIEW_OP_MIX, "mix70", 70}, {REVIEW_OP_WRITE, "write", 0}};

static int tail_parse(struct review_step *s, const json_t *obj, const struct review_profile *p,
                      const char *where, struct ssdrev_err *err) {
  (void)p;
  s->qds[0] = 1;
  s->nqds = 1;
  s->ios = 1000000;
  s->workloads = REVIEW_OP_READ | REVIEW_OP_MIX | REVIEW_OP_WRITE;
  s->block_bytes = 4096;
  int rc = bench_review_json_block(obj, s, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "qd", 1, 1024, &s->qds[0], where, err);
  if (!rc) rc = bench_review_json_size(obj, "ios", &s->ios, where, err);
  if (!rc) rc = bench_review_json_region(obj, s, 1, where, err);
  if (rc) return rc;
  if (s->ios == 0) return ssdrev_fail(err, -EINVAL, "%s: 'ios' must be at least 1", where);
  return bench_review_json_workloads(obj, workloads, sizeof workloads / sizeof workloads[0], &s->workloads, where,
                                     err);
}

static uint64_t tail_ios(const struct review_profile *p, const struct review_step *s) {
  return p->set.tail_ios && p->set.tail_ios < s->ios ? p->set.tail_ios : s->ios;
}

static unsigned nworkloads(unsigned m) {
  return !!(m & REVIEW_OP_READ) + !!(m & REVIEW_OP_MIX) + !!(m & REVIEW_OP_WRITE);
}

/* the plan's time of one workload's `ios` I/Os */
static double tail_busy_s(const struct review_profile *p, const struct review_step *s) {
  return (double)tail_ios(p, s) / (p->set.plan_qd1_iops * s->qds[0]);
}

static double tail_estimate(const struct review_profile *p, const struct review_step *s,
                            uint64_t cap, enum review_basis basis) {
  (void)cap;
  double t = 0;
  for (size_t k = 0; k < sizeof workloads / sizeof workloads[0]; k++) {
    if (!(s->workloads & workloads[k].mask)) continue;
    struct review_load l = {.pattern = BENCH_RAND, .read_pct = workloads[k].read_pct, .block_bytes = s->block_bytes,
                            .depth = s->qds[0], .busy_s = tail_busy_s(p, s)};
    t += bench_review_cost(p, basis, &l);
  }
  return t;
}

static void tail_describe(const struct review_profile *p, const struct review_step *s,
                          uint64_t cap, char *buf, size_t len) {
  char reg[80];
  lowqd_region_text(s, cap, reg, sizeof reg);
  snprintf(buf, len, "tail latency: %u KiB random QD%u, %u workloads x %" PRIu64 " I/Os%s",
           s->block_bytes / 1024, s->qds[0], nworkloads(s->workloads), tail_ios(p, s), reg);
}

/* Adds a warning per reported percentile that fewer than
 * REVIEW_TAIL_MIN_BEYOND I/Os back (nearest rank: those at or beyond it). */
static void tail_warnings(json_t *test, uint64_t ios) {
  static const double pcts[] = {50, 90, 99, 99.9, 99.99, 99.999};
  json_t *w = json_array();
  for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++) {
    double beyond = floor((double)ios * (100.0 - pcts[i]) / 100.0 + 1e-9);
    if (beyond >= REVIEW_TAIL_MIN_BEYOND) continue;
    double need = ceil(REVIEW_TAIL_MIN_BEYOND * 100.0 / (100.0 - pcts[i]) - 1e-6);
    char msg[200];
    snprintf(msg, sizeof msg, "p%g rests on %.0f I/Os at or beyond it (< %d): needs at least %.0f I/Os",
             pcts[i], beyond, REVIEW_TAIL_MIN_BEYOND, need);
    json_array_append_new(w, json_string(msg));
  }
  if (json_array_size(w)) json_object_set_new(test, "warnings", w);
  else json_decref(w);
}

static int tail_run(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  uint64_t ios = tail_ios(c->prof, s);
  for (size_t k = 0; k < sizeof workloads / sizeof workloads[0]; k++) {
    if (!(s->workloads & workloads[k].mask)) continue;
    char name[160];
    snprintf(name, sizeof name, "%s.%s", s->id, workloads[k].name);
    struct bench_job job;
    struct bench_job_result res;
    bench_review_job_init(c, &job, name);
    job.pattern = BENCH_RAND;
    job.read_pct = workloads[k].read_pct;
    job.block_bytes = s->block_bytes;
    job.qd = s->qds[0];
    int rc = lowqd_span(c, s, &job, err);
    if (rc) return rc;
    job.measure_ns = 0;
    job.size_bytes = ios * s->block_bytes; /* size-based: exactly `ios` I/Os */
    job.max_ios = ios;
    json_t *extra = json_pack("{s:s}", "workload", workloads[k].name);
    rc = bench_review_run_job(c, name, "tail", extra, &job, tail_busy_s(c->prof, s), &res, err);
    if (rc) return rc;
    json_t *test = archive_find_test(c->run, name);
    if (test) {
      tail_warnings(test, res.ios);
      if ((rc = archive_save(c->run, err))) return rc;
    }
  }
  return 0;
}

const struct review_kind bench_review_kind_tail = {
    .name = "tail", .keys = tail_keys, .parse = tail_parse, .estimate = tail_estimate,
    .describe = tail_describe, .run = tail_run, .fio = bench_review_fio_tail,
};
