/* qdscale.c — queue-depth scaling: 4 KiB random read and write over the
 * whole drive at QD 1, 2, 4 ... 128, one measured job per workload and QD.
 * The analysis (analyze/archive.c) finds the QD where IOPS stops growing. */
#include <errno.h>
#include <string.h>
#include "bench/method/review_int.h"

static const char *const qds_keys[] = {"block", "qds", "workloads", "measure_s", "ramp_s", NULL};

static const struct review_workload qds_workloads[] = {
    {REVIEW_OP_READ, "read", 100}, {REVIEW_OP_WRITE, "write", 0}};
#define NQDS_WORKLOADS (sizeof qds_workloads / sizeof qds_workloads[0])

static int qds_parse(struct review_step *s, const json_t *obj, const struct review_profile *p,
                     const char *where, struct ssdrev_err *err) {
  (void)p;
  static const unsigned def[] = {1, 2, 4, 8, 16, 32, 64, 128};
  memcpy(s->qds, def, sizeof def);
  s->nqds = sizeof def / sizeof def[0];
  s->block_bytes = 4096;
  s->measure_s = 5;
  s->ramp_s = 1;
  s->workloads = REVIEW_OP_READ | REVIEW_OP_WRITE;
  int rc = bench_review_json_block(obj, s, where, err);
  if (!rc) rc = bench_review_json_num(obj, "measure_s", 0.001, 86400, &s->measure_s, where, err);
  if (!rc) rc = bench_review_json_num(obj, "ramp_s", 0, 86400, &s->ramp_s, where, err);
  if (rc) return rc;
  const json_t *qds = json_object_get(obj, "qds");
  if (qds) {
    if (!json_is_array(qds) || json_array_size(qds) < 2 || json_array_size(qds) > REVIEW_MAX_QDS)
      return ssdrev_fail(err, -EINVAL, "%s: 'qds' must be an array of 2 to %d rising queue depths", where,
                         REVIEW_MAX_QDS);
    for (size_t i = 0; i < json_array_size(qds); i++) {
      const json_t *q = json_array_get(qds, i);
      if (!json_is_integer(q) || json_integer_value(q) < 1 || json_integer_value(q) > 1024 ||
          (i && json_integer_value(q) <= (json_int_t)s->qds[i - 1]))
        return ssdrev_fail(err, -EINVAL, "%s: qds[%zu] must be an integer in [1, 1024] above the one before", where, i);
      s->qds[i] = (unsigned)json_integer_value(q);
    }
    s->nqds = (unsigned)json_array_size(qds);
  }
  return bench_review_json_workloads(obj, qds_workloads, NQDS_WORKLOADS, &s->workloads, where, err);
}

/* Short mode's sweep times apply here too: both are low-cost points of a curve. */
static void qds_times(const struct review_profile *p, const struct review_step *s, double *measure_s,
                      double *ramp_s) {
  *measure_s = p->set.sweep_measure_s >= 0 ? p->set.sweep_measure_s : s->measure_s;
  *ramp_s = p->set.sweep_ramp_s >= 0 ? p->set.sweep_ramp_s : s->ramp_s;
}


static double qds_estimate(const struct review_profile *p, const struct review_step *s, uint64_t cap,
                           enum review_basis basis) {
  (void)cap;
  double m, r, t = 0;
  qds_times(p, s, &m, &r);
  for (size_t k = 0; k < NQDS_WORKLOADS; k++) {
    if (!(s->workloads & qds_workloads[k].mask)) continue;
    for (unsigned qi = 0; qi < s->nqds; qi++) {
      struct review_load l = {.pattern = BENCH_RAND, .read_pct = qds_workloads[k].read_pct,
                              .block_bytes = s->block_bytes, .depth = s->qds[qi], .busy_s = m + r};
      t += bench_review_cost(p, basis, &l);
    }
  }
  return t;
}

static void qds_describe(const struct review_profile *p, const struct review_step *s, uint64_t cap, char *buf,
                         size_t len) {
  (void)cap;
  double m, r;
  qds_times(p, s, &m, &r);
  char q[64] = "";
  size_t n = 0;
  for (unsigned i = 0; i < s->nqds && n < sizeof q; i++)
    n += (size_t)snprintf(q + n, sizeof q - n, "%s%u", i ? "," : "", s->qds[i]);
  snprintf(buf, len, "QD scaling: %u KiB random %s, QD %s, %gs each", s->block_bytes / 1024,
           s->workloads == (REVIEW_OP_READ | REVIEW_OP_WRITE) ? "read and write"
           : s->workloads & REVIEW_OP_READ                    ? "read"
                                                              : "write",
           q, m);
}

static int qds_run(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  double m, r;
  qds_times(c->prof, s, &m, &r);
  for (size_t k = 0; k < NQDS_WORKLOADS; k++) {
    if (!(s->workloads & qds_workloads[k].mask)) continue;
    for (unsigned qi = 0; qi < s->nqds; qi++) {
      char name[160];
      snprintf(name, sizeof name, "%s.%s.QD%u", s->id, qds_workloads[k].name, s->qds[qi]);
      struct bench_job job;
      struct bench_job_result res;
      bench_review_job_init(c, &job, name);
      job.pattern = BENCH_RAND;
      job.read_pct = qds_workloads[k].read_pct;
      job.block_bytes = s->block_bytes;
      job.qd = s->qds[qi];
      job.span_bytes = bench_review_align_down(c->cap_bytes, s->block_bytes);
      job.ramp_ns = (uint64_t)(r * 1e9);
      job.measure_ns = (uint64_t)(m * 1e9);
      json_t *extra = json_pack("{s:i, s:s}", "qd", (int)s->qds[qi], "workload", qds_workloads[k].name);
      int rc = bench_review_run_job(c, name, "qd_scaling", extra, &job, m + r, &res, err);
      if (rc) return rc;
    }
  }
  return 0;
}

const struct review_kind bench_review_kind_qd_scaling = {
    .name = "qd_scaling", .keys = qds_keys, .parse = qds_parse, .estimate = qds_estimate,
    .describe = qds_describe, .run = qds_run,
    .fio = bench_review_fio_qd_scaling,
};
