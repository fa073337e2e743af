/* review.c — runs a method (docs/method.md) on a target into one run
 * archive: creates or resumes the archive, records the method and the DUT,
 * runs each step through its kind and marks it complete, so an interrupted
 * review resumes at the first step not complete. Also the plan (ETA). */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench/method/review_int.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"


/* ---------------------------------------------------------------- progress */

/* A predicted time left: once a little has run, the observed rate is the
 * better predictor (and the only sane one for a sim, whose virtual time runs
 * faster than the wall); before, the estimate of device time. FRAC counts
 * c->basis' costs (bench/method/cost.c): device time on a real target, the
 * I/Os' work on a virtual clock, whose wall time follows the I/Os and not
 * the simulated seconds (issue 27: counted in device time, a CrystalDiskMark
 * step's ETA grew from 1m11s to 1m53s as RND4K Q32T1 came after SEQ1M). */
static double eta_of(const struct review_ctx *c, double frac, double wall_s, double est, double done) {
  if (frac > 0.02) return wall_s / frac * (1 - frac);
  return c->basis == REVIEW_BASIS_WORK ? -1 : est - done;
}

static void report_ex(struct review_ctx *c, double job_frac, double mb_s, double iops, int idle) {
  if (!c->progress) return;
  double done = c->step_done + job_frac * c->job_cost;
  double frac = c->step_est > 0 ? done / c->step_est : 0;
  if (frac > 0.999) frac = 0.999; /* 1.0 is sent once, when the step ends */
  if (frac < 0) frac = 0;
  uint64_t now = ssdrev_clock_ns();
  double wall_s = (double)(now - c->step_wall0_ns) / 1e9;
  /* the whole run: finished steps' estimates plus this step's share of its own */
  double tdone = c->review_done + frac * c->step_est;
  double tfrac = c->review_est > 0 ? tdone / c->review_est : 0;
  if (tfrac > 0.999) tfrac = 0.999;
  struct bench_progress p = {.phase = c->phase, .fraction = frac, .mb_s = mb_s, .iops = iops,
                             .eta_s = eta_of(c, frac, wall_s, c->step_est, done),
                             .total_fraction = tfrac,
                             .total_eta_s = eta_of(c, tfrac, (double)(now - c->review_wall0_ns) / 1e9,
                                                   c->review_est, tdone),
                             .idle = idle};
  c->progress(&p, c->progress_arg);
}

static void report(struct review_ctx *c, double job_frac, double mb_s, double iops) {
  report_ex(c, job_frac, mb_s, iops, 0);
}

static void sample_temp(struct review_ctx *c, int force) {
  if (!c->temp_samples) return;
  double t = c->is_sim ? c->temp_engine_s + c->temp_job_s
                       : (double)(ssdrev_clock_ns() - c->temp_wall0_ns) / 1e9;
  if (!force && json_array_size(c->temp_samples) &&
      t - c->temp_last_s < c->prof->set.temp_interval_s)
    return;
  double temp = bench_target_temp_c(c->t);
  if (temp < 0) return;
  c->temp_last_s = t;
  json_array_append_new(c->temp_samples, json_pack("[f, f]", round(t * 1000) / 1000, temp));
}

/* The device's own thermal management counters (SMART TMT1/TMT2), or NULL. */
json_t *bench_review_tmt_json(struct review_ctx *c) {
  struct bench_temps tp;
  if (bench_target_temps(c->t, &tp) || !tp.have_tmt) return NULL;
  return json_pack("{s:I, s:I, s:I, s:I}", "tmt1_count", (json_int_t)tp.tmt_count[0], "tmt2_count",
                   (json_int_t)tp.tmt_count[1], "tmt1_s", (json_int_t)tp.tmt_s[0], "tmt2_s",
                   (json_int_t)tp.tmt_s[1]);
}

static void job_progress(const struct bench_progress *p, void *arg) {
  struct review_ctx *c = arg;
  if (p->idle) {
    report_ex(c, 0, 0, 0, 1);
    return;
  }
  c->temp_job_s += 0.25; /* the runner reports about every 250 ms of engine time */
  sample_temp(c, 0);
  if (c->job_hook) c->job_hook(c, p);
  report(c, p->fraction >= 0 ? p->fraction : 0, p->mb_s, p->iops);
}

/* ------------------------------------------------------------ step helpers */

void bench_review_job_init(struct review_ctx *c, struct bench_job *job, const char *name) {
  bench_job_defaults(job);
  snprintf(job->name, sizeof job->name, "%s", name);
  job->threads = 1;
  job->qd = 1;
  job->ramp_ns = 0;
  job->measure_ns = 0;
  job->size_bytes = 0;
  job->max_ios = 0;
  job->zero_buffers = c->prof->set.zero_buffers;
  job->wait = c->prof->set.wait;
  /* FNV-1a of the test name: every test gets its own offsets, yet a rerun
   * with the same --seed repeats them exactly. */
  uint64_t h = 1469598103934665603ull;
  for (const char *s = name; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  /* 63 bits: the manifest stores the seed as a JSON (signed) integer */
  job->seed = (c->o->seed ^ h) & (uint64_t)INT64_MAX;
}

int bench_review_run_job(struct review_ctx *c, const char *test_name, const char *kind, json_t *extra,
                   const struct bench_job *job, double est_s, struct bench_job_result *res,
                   struct ssdrev_err *err) {
  if (!extra) extra = json_object();
  json_object_set_new(extra, "step", json_string(c->step->id));
  c->job_est_s = est_s;
  struct review_load load = {.pattern = job->pattern, .read_pct = job->read_pct, .block_bytes = job->block_bytes,
                             .depth = job->qd * (job->threads ? job->threads : 1), .busy_s = est_s,
                             .idle_s = (double)job->idle_ns / 1e9};
  c->job_cost = bench_review_cost(c->prof, c->basis, &load);
  c->temp_job_s = 0;
  snprintf(c->phase, sizeof c->phase, "[%u/%u] %s", c->step_no, c->nsteps_run, test_name);
  sample_temp(c, 0);
  json_t *tmt0 = NULL;
  if (c->temp_samples) {
    /* Where the test's log starts on the step's temperature clock (issue
     * 24): the log's time 0 is the first I/O after the job's idle; the
     * sim's clock skips the idle while the job runs (job_progress), a
     * real one does not. With the drive's thermal counters around the
     * test, the analysis can tell throttled writing from unthrottled. */
    double t0 = c->is_sim ? c->temp_engine_s
                          : (double)(ssdrev_clock_ns() - c->temp_wall0_ns) / 1e9 + (double)job->idle_ns / 1e9;
    json_object_set_new(extra, "temp_t0_s", json_real(round(t0 * 1000) / 1000));
    tmt0 = bench_review_tmt_json(c);
  }
  /* no rate yet: unknown, not 0 MB/s (issue 27: a CrystalDiskMark cell
   * shorter than the runner's 250 ms report showed "0.0 MB/s 0 IOPS") */
  report(c, 0, -1, -1);
  /* No save before the job (save_first = 0): the step is already marked
   * "running", so after a crash the whole step reruns and this entry is not
   * needed; one fsync per test instead of two. */
  struct bench_record_opts ro = {.kind = kind, .extra = extra, .progress = job_progress, .progress_arg = c};
  struct bench_job named = *job;
  snprintf(named.name, sizeof named.name, "%s", test_name);
  int rc = c->runner->run_job(c, &named, &ro, res, err);
  if (tmt0 && rc >= 0) {
    json_t *test = archive_find_test(c->run, test_name), *tmt1 = bench_review_tmt_json(c);
    if (test && tmt1) json_object_set_new(test, "smart_thermal", json_pack("{s:O, s:O}", "before", tmt0, "after", tmt1));
    json_decref(tmt1);
  }
  json_decref(tmt0);
  if (rc < 0) return rc;
  if (res->interrupted) return ssdrev_fail(err, -EINTR, "interrupted during test '%s'", test_name);
  /* the test's own measured rate, shown once it ended, however short it was */
  report(c, 1, res->mb_s, res->iops);
  c->step_done += c->job_cost;
  c->temp_engine_s += (double)(res->elapsed_ns + job->ramp_ns + job->idle_ns) / 1e9;
  c->temp_job_s = 0;
  return 0;
}

/* a discard of a whole NVMe drive takes about a second or two; no I/O */
const struct review_load bench_review_purge_load = {.busy_s = 2};

int bench_review_purge(struct review_ctx *c, enum bench_purge how, struct ssdrev_err *err) {
  snprintf(c->phase, sizeof c->phase, "[%u/%u] %s: purge", c->step_no, c->nsteps_run, c->step->id);
  report(c, 0, -1, -1); /* no rate: unknown, not 0 MB/s */
  const char *used = NULL;
  int rc = c->t ? bench_target_purge_as(c->t, how, err)
         : c->runner->purge_remote ? c->runner->purge_remote(c, how, &used, err)
         : ssdrev_fail(err, -ENOTSUP, "step '%s': --engine %s cannot purge a target on another host", c->step->id,
                       c->runner->name);
  if (rc) return rc;
  /* Say which purge ran: a discard and a format leave a drive in different
   * states (docs/archive.md target.purge). */
  if (c->t) used = bench_target_purge_method(c->t);
  json_t *target = json_object_get(c->run->manifest, "target");
  if (used && json_is_object(target)) json_object_set_new(target, "purge", json_string(used));
  snprintf(c->phase, sizeof c->phase, "[%u/%u] %s: purge (%s)", c->step_no, c->nsteps_run, c->step->id, used ? used : "?");
  report(c, 0, -1, -1); /* no rate: unknown, not 0 MB/s */
  c->step_done += bench_review_cost(c->prof, c->basis, &bench_review_purge_load);
  return 0;
}

/* Drops a step's earlier test entries (and their logs): a rerun or a resumed
 * step starts clean instead of appending duplicates. */
static void drop_step_tests(struct archive *run, const char *step_id) {
  json_t *tests = json_object_get(run->manifest, "tests");
  for (size_t i = json_array_size(tests); i-- > 0;) {
    json_t *t = json_array_get(tests, i);
    const char *s = json_string_value(json_object_get(t, "step"));
    if (!s || strcmp(s, step_id)) continue;
    const char *log = json_string_value(json_object_get(t, "log"));
    char lp[PATH_MAX];
    if (log && !archive_file(run->dir, log, lp, sizeof lp, NULL)) unlink(lp); /* never outside the run */
    json_array_remove(tests, i);
  }
}

static int run_step(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  json_t *steps = json_object_get(c->run->manifest, "steps");
  drop_step_tests(c->run, s->id);
  if (c->runner->drop_step) c->runner->drop_step(c, s->id);
  json_object_set_new(steps, s->id, json_string("running"));
  int rc = archive_save(c->run, err);
  if (rc) return rc;
  c->step = s;
  c->step_est = s->kind->estimate(c->prof, s, c->cap_bytes, c->basis);
  c->step_done = 0;
  c->step_wall0_ns = ssdrev_clock_ns();
  c->temp_samples = NULL;
  if (s->temperature && c->t && bench_target_temp_c(c->t) >= 0) {
    c->temp_samples = json_array();
    c->temp_wall0_ns = ssdrev_clock_ns();
    c->temp_engine_s = c->temp_job_s = c->temp_last_s = 0;
  }
  snprintf(c->phase, sizeof c->phase, "[%u/%u] %s", c->step_no, c->nsteps_run, s->id);
  report(c, 0, -1, -1); /* no rate: unknown, not 0 MB/s */
  rc = s->kind->run(c, s, err);
  if (c->temp_samples) {
    sample_temp(c, 1);
    char name[REVIEW_ID_MAX + 16];
    snprintf(name, sizeof name, "%s.temperature", s->id);
    json_t *t = archive_add_test(c->run, name, json_object(), NULL);
    json_object_set_new(t, "step", json_string(s->id));
    json_object_set_new(t, "kind", json_string("temperature"));
    json_object_set_new(t, "clock", json_string(c->is_sim ? "virtual" : "monotonic"));
    json_object_set_new(t, "samples", c->temp_samples);
    archive_end_test(t, "complete");
    c->temp_samples = NULL;
  }
  json_object_set_new(steps, s->id,
                      json_string(rc == 0 ? "complete" : rc == -EINTR ? "interrupted" : "failed"));
  struct ssdrev_err serr;
  int src = archive_save(c->run, &serr);
  if (rc) return rc;
  if (src) {
    *err = serr;
    return src;
  }
  if (c->is_sim) {
    /* The drive's state goes with the archive: a resumed review continues
     * on the same (simulated) drive. */
    rc = sim_save(bench_target_sim(c->t), archive_path(c->run, ARCHIVE_SIM_STATE), err);
    if (rc) return rc;
  }
  if (c->progress) {
    char d[32];
    bench_review_format_duration((double)(ssdrev_clock_ns() - c->step_wall0_ns) / 1e9, d, sizeof d);
    snprintf(c->phase, sizeof c->phase, "[%u/%u] %s done in %s", c->step_no, c->nsteps_run,
             s->id, d);
    c->review_done += c->step_est;
    struct bench_progress p = {.phase = c->phase, .fraction = 1.0, .eta_s = 0,
                               .total_fraction = c->review_est > 0 ? c->review_done / c->review_est : 1,
                               .total_eta_s = -1};
    c->progress(&p, c->progress_arg);
  }
  return 0;
}

/* ---------------------------------------------------------------- archive */

static int run_exists(const char *dir) {
  char path[4200];
  snprintf(path, sizeof path, "%s/" ARCHIVE_MANIFEST, dir);
  struct stat st;
  return stat(path, &st) == 0;
}

static const char *passes_as(unsigned passes) {
  return passes == 5 ? "CrystalDiskMark 8" : passes == 3 ? "CrystalDiskMark 9" : "custom";
}

/* The capacity the method works in. A short review works in a region of
 * fill_max_bytes at the start of the target, as if that were the drive:
 * its "75%" state is 75% of the region, and the sweep and tail read what
 * the fill wrote, not never-written blocks a drive answers without NAND. */
static uint64_t method_cap(const struct review_profile *p, uint64_t target_bytes) {
  if (!p->short_mode || !p->set.fill_max_bytes || target_bytes <= p->set.fill_max_bytes) return target_bytes;
  return bench_review_align_down(p->set.fill_max_bytes, 1048576);
}

static json_t *method_json(const struct review_ctx *c) {
  const struct review_settings *s = &c->prof->set;
  json_t *m = json_pack("{s:s, s:s, s:b, s:i, s:s, s:I, s:f, s:f, s:I, s:b}", "name", c->prof->name,
                   "profile_path", c->o->profile_path ? c->o->profile_path : "", "short",
                   c->prof->short_mode, "passes", (int)s->passes, "passes_as",
                   passes_as(s->passes), "seed", (json_int_t)c->o->seed, "measure_s", s->measure_s,
                   "interval_s", s->interval_s, "region_bytes", (json_int_t)s->region_bytes,
                   "include_serial", c->o->include_serial);
  /* how the jobs ran: a resume runs the rest the same way */
  json_object_set_new(m, "engine", json_string(c->bench_engine[0] ? c->bench_engine : c->runner->name));
  if (c->fio_version[0]) json_object_set_new(m, "fio_version", json_string(c->fio_version));
  if (c->o->fio_client) json_object_set_new(m, "fio_client", json_string(c->o->fio_client));
  return m;
}

static int open_target(const struct bench_review_opts *o, int write, struct bench_target **t,
                       struct ssdrev_err *err) {
  struct bench_target_opts to = {0};
  to.create_bytes = o->create_bytes;
  to.write_intent = write;
  to.destructive = o->destructive;
  to.force = o->force;
  to.seed = o->seed;
  return bench_target_open(t, o->target_spec, &to, err);
}

/* The name a run records for --engine NAME: the runner's, or the native
 * runner's engine ("uring" is "io_uring"). */
static int engine_canon(const char *name, char *out, size_t len, struct ssdrev_err *err) {
  char eng[32];
  const struct review_runner *r = bench_review_runner_find(name, eng, sizeof eng, err);
  if (!r) return -EINVAL;
  snprintf(out, len, "%s", eng[0] ? eng : r->name);
  return 0;
}

/* Appends "; " and one difference to buf. */
static void differ(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void differ(char *buf, size_t len, const char *fmt, ...) {
  size_t used = strlen(buf);
  if (used && used + 2 < len) {
    memcpy(buf + used, "; ", 3);
    used += 2;
  }
  va_list ap;
  va_start(ap, fmt);
  if (used < len) vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}

/* A resume must be asked with the options the run was made with: else the
 * archive's would win silently (a complete --short run "resumed" without
 * --short printed every step "(complete)" and exited 0, as if the full
 * review had run). Compares the method (its content, as the manifest
 * records it), --short, --passes, --seed and --include-serial by their
 * effective values, and --label when given; the target, --engine and the
 * load host are checked by resume_profile. */
static int check_same_options(const struct review_ctx *c, const json_t *method, const json_t *prof,
                              struct ssdrev_err *err) {
  const struct bench_review_opts *o = c->o;
  char d[1400] = "";
  const char *had_name = json_string_value(json_object_get(method, "name"));
  const char *had_path = json_string_value(json_object_get(method, "profile_path"));
  int had_short = json_is_true(json_object_get(method, "short"));
  if (had_short != !!o->short_mode)
    differ(d, sizeof d, "%s (the run was made %s it)", had_short ? "no --short" : "--short",
           had_short ? "with" : "without");
  json_int_t had_seed = json_integer_value(json_object_get(method, "seed"));
  if ((uint64_t)had_seed != o->seed)
    differ(d, sizeof d, "--seed %llu (the run's: %lld)", (unsigned long long)o->seed, (long long)had_seed);
  int had_serial = json_is_true(json_object_get(method, "include_serial"));
  if (had_serial != !!o->include_serial)
    differ(d, sizeof d, "%s (the run was made %s it)", had_serial ? "no --include-serial" : "--include-serial",
           had_serial ? "with" : "without");
  const char *had_label = json_string_value(json_object_get(c->run->manifest, "label"));
  if (o->label && (!had_label || strcmp(had_label, o->label)))
    differ(d, sizeof d, "--label '%.200s' (the run's: %s%.200s%s)", o->label, had_label ? "'" : "",
           had_label ? had_label : "none", had_label ? "'" : "");
  if (o->profile_path) {
    struct review_profile now;
    struct ssdrev_err perr = {{0}};
    if (bench_review_profile_load(&now, o->profile_path, o->short_mode, o->passes, &perr)) {
      /* the run's own method file, gone or broken since: the manifest has
       * the method (a resume needs no file, docs/method.md); another path
       * that does not load is not this run's method */
      if (!had_path || strcmp(had_path, o->profile_path))
        differ(d, sizeof d, "--profile '%.300s' (%.300s)", o->profile_path, perr.msg);
    } else {
      int same_method = json_equal(now.json, prof);
      if (!same_method)
        differ(d, sizeof d, "--profile '%.300s' (method '%.64s'; the run's is '%.64s' from '%.300s'%s)",
               o->profile_path, now.name, had_name ? had_name : "?", had_path ? had_path : "?",
               had_name && !strcmp(had_name, now.name) ? ", changed since" : "");
      /* the effective count; without --passes it follows from the method
       * and --short, so only a difference of its own is named */
      unsigned had_passes = (unsigned)json_integer_value(json_object_get(method, "passes"));
      if (now.set.passes != had_passes && o->passes)
        differ(d, sizeof d, "--passes %u (the run's: %u)", now.set.passes, had_passes);
      else if (now.set.passes != had_passes && same_method && had_short == !!o->short_mode)
        differ(d, sizeof d, "no --passes (the run was made with --passes %u)", had_passes);
    }
    bench_review_profile_free(&now);
  }
  if (!d[0]) return 0;
  return ssdrev_fail(err, BENCH_REVIEW_OPTIONS_DIFFER,
                     "run '%s' was made with other options than this command's: %s. A review's steps all run "
                     "with the options it was made with: rerun it with those (its manifest.json \"method\" has "
                     "them), or give another --out for a new review",
                     o->run_dir, d);
}

/* Resuming: the archive's own method and options win over the command line,
 * so the remaining steps run exactly as the first ones did; a command that
 * asks for other ones is refused (check_same_options). */
static int resume_profile(struct review_ctx *c, struct bench_review_opts *eff,
                          struct ssdrev_err *err) {
  json_t *m = c->run->manifest;
  const char *spec = json_string_value(json_object_get(json_object_get(m, "target"), "spec"));
  if (spec && strcmp(spec, c->o->target_spec) && !c->o->force)
    return ssdrev_fail(err, BENCH_REVIEW_OPTIONS_DIFFER,
                       "run '%s' was made on '%s', not '%s': resume it on its own target, or give another "
                       "--out for a new review (only if '%s' is that same drive under another name, --force "
                       "continues on it, and overwrites what it holds)",
                       c->o->run_dir, spec, c->o->target_spec, c->o->target_spec);
  json_t *method = json_object_get(m, "method");
  json_t *prof = json_object_get(m, "profile");
  if (!json_is_object(prof) || !json_is_object(method))
    return ssdrev_fail(err, -EINVAL, "run '%s' holds no review method (not made by `ssdrev review`)",
                       c->o->run_dir);
  /* the engine the run began with (archives before --engine: the native one) */
  const char *eng = json_string_value(json_object_get(method, "engine"));
  if (!eng) eng = "native";
  char want[32], had[32];
  if (c->o->engine && (engine_canon(c->o->engine, want, sizeof want, err) ||
                       engine_canon(eng, had, sizeof had, err) || strcmp(want, had)))
    return ssdrev_fail(err, BENCH_REVIEW_OPTIONS_DIFFER,
                       "run '%s' was made with --engine %s, not --engine %s (resume it with its own)",
                       c->o->run_dir, eng, c->o->engine);
  eff->engine = json_string_value(json_object_get(method, "engine"));
  /* a run on a load host goes on on that host only: the same name here is
   * another drive (and one the guard may never have checked) */
  const char *client = json_string_value(json_object_get(method, "fio_client"));
  const char *now = c->o->fio_client;
  if ((client || now) && (!client || !now || strcmp(client, now)))
    return ssdrev_fail(err, BENCH_REVIEW_OPTIONS_DIFFER, "run '%s' was made %s%s, not %s%s (resume it where it ran)",
                       c->o->run_dir,
                       client ? "through fio on load host " : "on this machine", client ? client : "",
                       now ? "through fio on load host " : "on this machine", now ? now : "");
  /* before eff (which may be c->o) takes the run's values */
  int rc = check_same_options(c, method, prof, err);
  if (rc) return rc;
  eff->short_mode = json_is_true(json_object_get(method, "short"));
  eff->passes = (unsigned)json_integer_value(json_object_get(method, "passes"));
  eff->seed = (uint64_t)json_integer_value(json_object_get(method, "seed"));
  char src[600];
  snprintf(src, sizeof src, "%s/manifest.json: profile", c->o->run_dir);
  return bench_review_profile_from_json(c->prof, prof, src, eff->short_mode, eff->passes, err);
}

static int fill_new_manifest(struct review_ctx *c, struct ssdrev_err *err) {
  json_t *m = c->run->manifest;
  json_t *dut = bench_review_build_dut(c, err);
  if (!dut) return -EINVAL;
  if (c->t) {
    bench_record_target(c->run, c->t, dut, c->o->label);
  } else {
    /* a load host's target, never opened here: what is known of it, and that
     * the guard did not check it */
    json_t *tg = json_object_get(m, "target");
    json_object_set_new(tg, "kind", json_string("remote"));
    json_object_set_new(tg, "size_bytes", json_integer((json_int_t)c->o->remote_bytes));
    json_object_set_new(tg, "lba_bytes", json_integer(c->lba_bytes));
    json_object_set_new(tg, "host", json_string(c->o->fio_client));
    json_object_set_new(tg, "guard", json_string("unchecked (--remote-unchecked)"));
    json_object_set_new(m, "simulated", json_false());
    if (c->o->label && *c->o->label) json_object_set_new(m, "label", json_string(c->o->label));
    json_object_set_new(m, "dut", dut);
  }
  json_object_set(m, "profile", c->prof->json);
  json_object_set_new(m, "method", method_json(c));
  if (c->prof->short_mode) {
    /* said in the manifest, so every later output can say it too */
    json_object_set_new(m, "short", json_pack("{s:I, s:I}", "region_bytes", (json_int_t)c->cap_bytes,
                                              "target_bytes", (json_int_t)(c->t ? bench_target_size_bytes(c->t)
                                                                                        : c->o->remote_bytes)));
  }
  return archive_save(c->run, err);
}

/* Bad --dut-json input fails before the archive exists, so a corrected
 * command can use the same --out. */
static int check_dut_json(const struct bench_review_opts *o, struct ssdrev_err *err) {
  char *t[3];
  json_t *ov = NULL;
  int rc = bench_dut_read_files(o->dut_json_dir, &t[0], &t[1], &t[2], &ov, err);
  if (rc) return rc;
  if (t[0] || t[1] || t[2]) {
    json_t *d = import_dut_parse(t[0], t[1], t[2], 0, err);
    if (!d) rc = -EINVAL;
    json_decref(d);
  }
  for (int i = 0; i < 3; i++) free(t[i]);
  json_decref(ov);
  return rc;
}

static int all_complete(const struct review_profile *prof, const json_t *steps) {
  for (unsigned i = 0; i < prof->nsteps; i++) {
    const char *st = json_string_value(json_object_get(steps, prof->steps[i].id));
    if (!st || strcmp(st, "complete")) return 0;
  }
  return 1;
}

int bench_review_run(const struct bench_review_opts *o, bench_progress_fn progress, void *arg,
                     struct ssdrev_err *err) {
  if (!o || !o->target_spec || !o->run_dir)
    return ssdrev_fail(err, -EINVAL, "review: a target and a run directory are required");
  struct bench_review_opts eff = *o;
  struct review_profile prof;
  memset(&prof, 0, sizeof prof);
  struct review_ctx c = {.o = &eff, .prof = &prof, .progress = progress, .progress_arg = arg};
  int resume = run_exists(o->run_dir);
  int rc;
  if (resume) {
    if ((rc = archive_open_write(&c.run, o->run_dir, err))) return rc;
    /* a killed review leaves its temporary files behind; this process is
     * the archive's only writer now (readers must never remove them) */
    if ((rc = archive_remove_temps(c.run, err)) < 0) goto out;
    if ((rc = resume_profile(&c, &eff, err))) goto out;
  } else {
    if (!o->profile_path) return ssdrev_fail(err, -EINVAL, "review: no method file given");
    if ((rc = bench_review_profile_load(&prof, o->profile_path, o->short_mode, o->passes, err)))
      return rc;
  }
  const struct review_step *only = NULL;
  if (o->only_step && !(only = bench_review_profile_step(&prof, o->only_step))) {
    rc = ssdrev_fail(err, -EINVAL, "--step: method '%s' has no step '%s'", prof.source, o->only_step);
    goto out;
  }
  if (!(c.runner = bench_review_runner_find(eff.engine, c.bench_engine, sizeof c.bench_engine, err))) {
    rc = -EINVAL;
    goto out;
  }
  if (eff.fio_client && !(c.runner->flags & REVIEW_RUNNER_CLIENT)) {
    rc = ssdrev_fail(err, -EINVAL, "--engine %s cannot run on a load host ('%s'): only --engine fio can",
                     c.runner->name, eff.fio_client);
    goto out;
  }
  /* every step's buffers must fit this machine's memory, before the target
   * is opened (or created) and the first step (a sim takes one buffer per
   * job; a load host's memory is its own) */
  if (!eff.fio_client && eff.target_spec && strncmp(eff.target_spec, "sim:", 4) &&
      (rc = bench_review_check_memory(&prof, err)))
    goto out;
  /* the guard first: a refused target is refused whatever the engine, and
   * no engine (fio neither) is started on it */
  if (eff.remote_bytes) {
    /* --remote-unchecked: the target is on the load host; nothing here
     * opens it, so the guard cannot check it (the caller asked for that) */
    if (!eff.fio_client) {
      rc = ssdrev_fail(err, -EINVAL, "review: a target of a given size (unchecked) needs a load host");
      goto out;
    }
    c.cap_bytes = method_cap(&prof, eff.remote_bytes);
    c.lba_bytes = 4096; /* unknown there: every offset is a multiple of 4 KiB */
  } else {
    if ((rc = open_target(&eff, 1, &c.t, err))) goto out;
    c.cap_bytes = method_cap(&prof, bench_target_size_bytes(c.t));
    c.lba_bytes = bench_target_lba_bytes(c.t);
    c.is_sim = bench_target_get_kind(c.t) == BENCH_TARGET_SIM;
  }
  if (c.is_sim && !(c.runner->flags & REVIEW_RUNNER_SIM)) {
    rc = ssdrev_fail(err, -ENOTSUP, "--engine %s cannot drive '%s': a simulated drive runs on ssdrev's own engine only",
                     c.runner->name, o->target_spec);
    goto out;
  }
  /* a simulated drive runs on a virtual clock: its wall time is the work */
  c.basis = c.is_sim ? REVIEW_BASIS_WORK : REVIEW_BASIS_DEVICE;
  if ((rc = c.runner->check(&c, err))) goto out;
  if (!resume) {
    if (o->dut_json_dir && (rc = check_dut_json(o, err))) goto out;
    if ((rc = archive_create(&c.run, o->run_dir, o->target_spec, err))) goto out;
    if ((rc = fill_new_manifest(&c, err))) goto out;
  } else if (c.is_sim && access(archive_path(c.run, ARCHIVE_SIM_STATE), F_OK) == 0) {
    rc = sim_load_state(bench_target_sim(c.t), archive_path(c.run, ARCHIVE_SIM_STATE), err);
    if (rc) goto out;
  }
  json_t *steps = json_object_get(c.run->manifest, "steps");
  const struct review_step *todo[REVIEW_MAX_STEPS];
  unsigned n = 0;
  for (unsigned i = 0; i < prof.nsteps; i++) {
    const struct review_step *s = &prof.steps[i];
    const char *st = json_string_value(json_object_get(steps, s->id));
    if (only ? s == only : !(st && !strcmp(st, "complete"))) todo[n++] = s;
  }
  /* Steps are numbered in the method ([5/7] is the fifth of seven), so a
   * resumed review shows the numbers the plan and the first run showed. */
  c.nsteps_run = prof.nsteps;
  for (unsigned i = 0; i < n; i++) c.review_est += todo[i]->kind->estimate(&prof, todo[i], c.cap_bytes, c.basis);
  c.review_wall0_ns = ssdrev_clock_ns();
  for (unsigned i = 0; i < n && !rc; i++) {
    if (bench_stop_requested) {
      rc = ssdrev_fail(err, -EINTR, "interrupted before step '%s'", todo[i]->id);
      break;
    }
    c.step_no = (unsigned)(todo[i] - prof.steps) + 1;
    rc = run_step(&c, todo[i], err);
  }
  if (!rc && c.is_sim && all_complete(&prof, steps)) {
    /* The simulated drive's state (15-60 MB: its mapping table) exists only
     * for a resume; a finished review needs none, so it is not kept. */
    if (unlink(archive_path(c.run, "sim-state.bin")) && errno != ENOENT)
      rc = ssdrev_fail(err, -errno, "cannot remove '%s': %s", archive_path(c.run, "sim-state.bin"), strerror(errno));
  }
out:
  if (c.t) bench_target_close(c.t);
  archive_free(c.run);
  bench_review_profile_free(&prof);
  return rc;
}

/* -------------------------------------------------------------------- plan */

int bench_review_plan(const struct bench_review_opts *o, char *buf, size_t len,
                      struct ssdrev_err *err) {
  if (!o || !o->target_spec || !buf || !len)
    return ssdrev_fail(err, -EINVAL, "plan: a target is required");
  struct review_profile prof;
  memset(&prof, 0, sizeof prof);
  struct bench_review_opts eff = *o;
  struct archive *run = NULL;
  int rc;
  if (o->run_dir && run_exists(o->run_dir)) {
    if ((rc = archive_open(&run, o->run_dir, err))) return rc;
    struct review_ctx c = {.o = o, .prof = &prof, .run = run};
    if ((rc = resume_profile(&c, &eff, err))) goto out;
  } else {
    if (!o->profile_path) return ssdrev_fail(err, -EINVAL, "plan: no method file given");
    if ((rc = bench_review_profile_load(&prof, o->profile_path, o->short_mode, o->passes, err))) return rc;
  }
  if (o->only_step && !bench_review_profile_step(&prof, o->only_step)) {
    rc = ssdrev_fail(err, -EINVAL, "--step: method '%s' has no step '%s'", prof.source, o->only_step);
    goto out;
  }
  /* The plan never writes: the target is opened read-only, or not at all
   * when it is a file still to be created. */
  uint64_t cap = o->create_bytes;
  int is_sim = !strncmp(o->target_spec, "sim:", 4);
  struct bench_target *t = NULL;
  struct ssdrev_err terr;
  /* --create-size names the size of a file still to be made: never make it
   * here, only size the plan by it */
  eff.create_bytes = 0;
  if (o->remote_bytes) {
    cap = o->remote_bytes; /* on the load host: not opened here */
  } else if (open_target(&eff, 0, &t, &terr) == 0) {
    cap = bench_target_size_bytes(t);
    bench_target_close(t);
  } else if (!cap) {
    *err = terr;
    rc = -ENOENT;
    goto out;
  }
  uint64_t target_cap = cap;
  cap = method_cap(&prof, cap);
  json_t *steps = run ? json_object_get(run->manifest, "steps") : NULL;
  size_t used = 0;
#define OUT(...) \
  do { \
    int w_ = snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__); \
    if (w_ > 0) used += (size_t)w_; \
  } while (0)
  OUT("method '%s' (%s) on %s, %.1f GB; CDM passes %u (%s)%s\n", prof.name, prof.source,
      o->target_spec, (double)target_cap / 1e9, prof.set.passes, passes_as(prof.set.passes),
      prof.short_mode ? "; short mode" : "");
  if (o->engine)
    OUT("engine: %s%s\n", o->engine, o->remote_bytes ? " on a load host, target UNCHECKED (--remote-unchecked)"
                                      : o->fio_client ? " on a load host" : "");
  if (cap != target_cap)
    OUT("short mode works in the first %.1f GB as if it were the drive: fill states are shares of it\n",
        (double)cap / 1e9);
  int idw = 12; /* the id column: as wide as the longest id, so the lines align */
  for (unsigned i = 0; i < prof.nsteps; i++)
    if ((int)strlen(prof.steps[i].id) > idw) idw = (int)strlen(prof.steps[i].id);
  double total = 0;
  for (unsigned i = 0; i < prof.nsteps; i++) {
    const struct review_step *s = &prof.steps[i];
    const char *st = steps ? json_string_value(json_object_get(steps, s->id)) : NULL;
    int skip = o->only_step ? strcmp(s->id, o->only_step) != 0 : (st && !strcmp(st, "complete"));
    double e = s->kind->estimate(&prof, s, cap, REVIEW_BASIS_DEVICE);
    char d[32], what[256];
    bench_review_format_duration(e, d, sizeof d);
    s->kind->describe(&prof, s, cap, what, sizeof what);
    OUT("  %2u. %-*s %8s  %s%s\n", i + 1, idw, s->id, skip ? "-" : d, what,
        skip ? (o->only_step ? "  (not selected)" : "  (complete)") : "");
    if (!skip) total += e;
  }
  char d[32];
  bench_review_format_duration(total, d, sizeof d);
  OUT("estimated total: %s of device time%s\n", d,
      is_sim ? " (simulated: the wall time is much shorter)" : "");
  /* the rule the review itself applies before it starts */
  struct ssdrev_err merr;
  if (!is_sim && !o->fio_client && bench_review_check_memory(&prof, &merr))
    OUT("the review would refuse to start: %s\n", merr.msg);
#undef OUT
  if (used >= len) rc = ssdrev_fail(err, -ENOSPC, "plan: buffer too small");
out:
  archive_free(run);
  bench_review_profile_free(&prof);
  return rc;
}
