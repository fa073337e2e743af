/* runner.c — the table of ways the method's jobs run (--engine): ssdrev's
 * own engines (the native runner; io_uring, psync or the sim, per target)
 * and fio (bench/method/fio_engine.c). */
#include <errno.h>
#include <string.h>
#include "bench/method/review_int.h"

static int native_check(struct review_ctx *c, struct ssdrev_err *err) {
  (void)c, (void)err;
  return 0;
}

static int native_run_job(struct review_ctx *c, const struct bench_job *job, const struct bench_record_opts *o,
                          struct bench_job_result *res, struct ssdrev_err *err) {
  struct bench_job j = *job;
  if (c->bench_engine[0]) snprintf(j.engine, sizeof j.engine, "%s", c->bench_engine);
  return bench_record_job(c->run, c->t, &j, o, res, err);
}

const struct review_runner bench_review_runner_native = {
    .name = "native",
    .flags = REVIEW_RUNNER_SIM | REVIEW_RUNNER_WATCH,
    .check = native_check,
    .run_job = native_run_job,
};

static const struct review_runner *const runners[] = {&bench_review_runner_native, &bench_review_runner_fio};

/* Other names of ssdrev's engines on the command line. */
static const struct { const char *alias, *engine; } engine_aliases[] = {{"uring", "io_uring"}};

const struct review_runner *bench_review_runner_find(const char *name, char *bench_engine, size_t len,
                                                     struct ssdrev_err *err) {
  if (len) bench_engine[0] = 0;
  if (!name || !*name) return &bench_review_runner_native;
  for (size_t i = 0; i < sizeof runners / sizeof runners[0]; i++)
    if (!strcmp(runners[i]->name, name)) return runners[i];
  for (size_t i = 0; i < sizeof engine_aliases / sizeof engine_aliases[0]; i++)
    if (!strcmp(engine_aliases[i].alias, name)) name = engine_aliases[i].engine;
  if (bench_engine_find(name)) {
    snprintf(bench_engine, len, "%s", name);
    return &bench_review_runner_native;
  }
  ssdrev_fail(err, -EINVAL, "--engine '%s': not an engine (fio, native, io_uring or uring, psync, sim)", name);
  return NULL;
}
