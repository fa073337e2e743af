/* thermal.c — the thermal step: after an idle pause (the drive cools), one
 * sustained sequential write over the whole capacity for duration_s (or
 * until max_bytes), with the controller's temperatures sampled on the log's
 * own time axis (the job's engine clock), so throughput and temperature can
 * be read side by side. The analysis (analyze/thermal.c) finds the
 * throttling points in the two series. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "bench/method/review_int.h"

static const char *const thermal_keys[] = {"block", "qd", "duration_s", "max_bytes", "cool_s", "sample_s", NULL};

/* Short mode: long enough to see a fast drive heat up, short enough to try out. */
#define THERMAL_SHORT_MAX_S 30.0

static int thermal_parse(struct review_step *s, const json_t *obj, const struct review_profile *p,
                         const char *where, struct ssdrev_err *err) {
  s->block_bytes = 128 * 1024;
  s->qds[0] = 32;
  s->nqds = 1;
  /* 10 minutes: past where a drive without a heatsink throttles (typically
   * 1-5 minutes of sustained writing), short of wearing it much */
  s->duration_s = 600;
  s->max_bytes = 0;
  s->cool_s = 120; /* a drive's thermal time constant is tens of seconds */
  s->sample_s = p->set.temp_interval_s > 0 ? p->set.temp_interval_s : 1;
  uint64_t block = s->block_bytes;
  int rc = bench_review_json_size(obj, "block", &block, where, err);
  if (!rc && (block < 4096 || block > (16u << 20) || block % 4096))
    rc = ssdrev_fail(err, -EINVAL, "%s: 'block' must be a multiple of 4 KiB up to 16 MiB", where);
  if (!rc) rc = bench_review_json_uint(obj, "qd", 1, 1024, &s->qds[0], where, err);
  if (!rc) rc = bench_review_json_num(obj, "duration_s", 1, 86400, &s->duration_s, where, err);
  if (!rc) rc = bench_review_json_size(obj, "max_bytes", &s->max_bytes, where, err);
  if (!rc) rc = bench_review_json_num(obj, "cool_s", 0, 86400, &s->cool_s, where, err);
  if (!rc) rc = bench_review_json_num(obj, "sample_s", 0.1, 60, &s->sample_s, where, err);
  if (rc) return rc;
  s->block_bytes = (uint32_t)block;
  return 0;
}

static void thermal_times(const struct review_profile *p, const struct review_step *s, double *run_s,
                          double *cool_s) {
  *run_s = s->duration_s;
  *cool_s = s->cool_s;
  if (p->short_mode) {
    if (*run_s > THERMAL_SHORT_MAX_S) *run_s = THERMAL_SHORT_MAX_S;
    *cool_s = 0;
  }
  /* a byte limit ends the write earlier at the plan's write speed */
  if (s->max_bytes) {
    double by = (double)s->max_bytes / (p->set.plan_write_mb_s * 1e6);
    if (by < *run_s) *run_s = by;
  }
}

static double thermal_estimate(const struct review_profile *p, const struct review_step *s, uint64_t cap,
                               enum review_basis basis) {
  (void)cap;
  double r, c;
  thermal_times(p, s, &r, &c);
  struct review_load l = {.pattern = BENCH_SEQ, .read_pct = 0, .block_bytes = s->block_bytes, .depth = s->qds[0],
                          .busy_s = r, .idle_s = c};
  return bench_review_cost(p, basis, &l);
}

static void thermal_describe(const struct review_profile *p, const struct review_step *s, uint64_t cap, char *buf,
                             size_t len) {
  (void)cap;
  double r, c;
  thermal_times(p, s, &r, &c);
  char lim[64] = "";
  if (s->max_bytes) snprintf(lim, sizeof lim, " or %.1f GiB", (double)s->max_bytes / 1073741824.0);
  snprintf(buf, len, "thermal: %.0fs idle, then sequential %u KiB QD%u write for %.0fs%s, temperature every %gs",
           c, s->block_bytes / 1024, s->qds[0], p->short_mode ? r : s->duration_s, lim, s->sample_s);
}

/* The samples being collected for the running job. */
struct thermal_samples {
  const struct review_step *step;
  json_t *samples;        /* [[t_s, composite_c], ...] */
  json_t *sensor_samples; /* [[t_s, sensor 1 °C or null, ...], ...] when any sensor is present */
  double last_s;
  unsigned sensor_mask;   /* sensors seen present */
};

static void thermal_sample(struct review_ctx *c, struct thermal_samples *ts, double t_s, int force) {
  if (!force && json_array_size(ts->samples) && t_s - ts->last_s < ts->step->sample_s) return;
  struct bench_temps tp;
  if (bench_target_temps(c->t, &tp) || tp.composite_c < 0) return;
  ts->last_s = t_s;
  double t = round(t_s * 1000) / 1000;
  json_array_append_new(ts->samples, json_pack("[f, f]", t, round(tp.composite_c * 100) / 100));
  json_t *row = json_pack("[f]", t);
  int any = 0;
  for (int i = 0; i < BENCH_TEMP_SENSORS; i++) {
    any |= tp.sensor_c[i] >= 0;
    if (tp.sensor_c[i] >= 0) ts->sensor_mask |= 1u << i;
    json_array_append_new(row, tp.sensor_c[i] >= 0 ? json_real(tp.sensor_c[i]) : json_null());
  }
  if (any) json_array_append_new(ts->sensor_samples, row);
  else json_decref(row);
}

static void thermal_hook(struct review_ctx *c, const struct bench_progress *p) {
  thermal_sample(c, c->hook_arg, p->elapsed_s, 0);
}

static int thermal_run(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  double run_s, cool_s;
  thermal_times(c->prof, s, &run_s, &cool_s);
  char name[160];
  snprintf(name, sizeof name, "%s.write", s->id);
  struct bench_job job;
  struct bench_job_result res;
  bench_review_job_init(c, &job, name);
  job.pattern = BENCH_SEQ;
  job.read_pct = 0;
  job.block_bytes = s->block_bytes;
  job.qd = s->qds[0];
  job.offset_bytes = 0;
  job.span_bytes = bench_review_align_down(c->cap_bytes, s->block_bytes); /* wraps at the end */
  double dur_s = c->prof->short_mode && s->duration_s > THERMAL_SHORT_MAX_S ? THERMAL_SHORT_MAX_S : s->duration_s;
  job.measure_ns = (uint64_t)(dur_s * 1e9);
  if (s->max_bytes) job.max_ios = s->max_bytes / s->block_bytes ? s->max_bytes / s->block_bytes : 1;
  job.idle_ns = (uint64_t)(cool_s * 1e9);
  struct thermal_samples ts = {.step = s, .samples = json_array(), .sensor_samples = json_array()};
  json_t *before = bench_review_tmt_json(c);
  /* the samples are the test's: attached before the run (the test entry
   * keeps this reference) and filled as the job reports progress */
  json_t *extra = json_pack("{s:O, s:f, s:f}", "samples", ts.samples, "duration_s", run_s, "cool_s", cool_s);
  /* time 0 is the first I/O, after the idle: sampled by the first report */
  c->job_hook = thermal_hook;
  c->hook_arg = &ts;
  int rc = bench_review_run_job(c, name, "thermal", extra, &job, run_s, &res, err);
  c->job_hook = NULL;
  c->hook_arg = NULL;
  json_t *test = archive_find_test(c->run, name);
  if (test && !rc) {
    /* one last sample at the job's end, on the same axis */
    thermal_sample(c, &ts, (double)res.elapsed_ns / 1e9, 1);
    if (json_array_size(ts.sensor_samples)) {
      json_object_set(test, "sensor_samples", ts.sensor_samples);
      json_t *present = json_array();
      for (int i = 0; i < BENCH_TEMP_SENSORS; i++)
        if (ts.sensor_mask & (1u << i)) json_array_append_new(present, json_integer(i + 1));
      json_object_set_new(test, "sensors", present);
    }
    json_t *after = bench_review_tmt_json(c);
    if (before && after) json_object_set_new(test, "smart_thermal", json_pack("{s:O, s:O}", "before", before, "after", after));
    json_decref(after);
    rc = archive_save(c->run, err);
  }
  json_decref(before);
  json_decref(ts.samples);
  json_decref(ts.sensor_samples);
  return rc;
}

const struct review_kind bench_review_kind_thermal = {
    .name = "thermal", .keys = thermal_keys, .parse = thermal_parse, .estimate = thermal_estimate,
    .describe = thermal_describe, .run = thermal_run,
    .fio = bench_review_fio_thermal,
};
