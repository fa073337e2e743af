/* cliff.c — write until the cliff: a job's watch that turns completions into
 * the analysis' fill trace (BENCH_CLIFF_BIN_BYTES steps: a step's bytes over
 * the time since the previous step completed) and asks the SLC rule of the
 * analysis (ssdrev_slc_estimate, base/slc.c: the same code, not a copy)
 * whether a cliff is there. It stops the job a margin past the cliff, or
 * when a margin's worth ran at the post-cache speed (nothing came back);
 * otherwise the job runs to its bound (docs/method.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bench/method/review_int.h"

#define GIB 1073741824.0
#define CHECK_MIN_BINS 16    /* the rule runs every 64 MiB at first ... */
#define CHECK_SHARE 32       /* ... then every 1/32 of the trace: O(n log n) in all */
#define BUFFER_GIB (1.0 / 16) /* the first 1/16 GiB is the DRAM buffer at link speed (docs/flags.md) */

void bench_cliff_watch_init(struct bench_cliff_watch *w, uint64_t margin_bytes, double cache_mb_s, double post_mb_s) {
  memset(w, 0, sizeof *w);
  w->margin_bytes = margin_bytes;
  w->cache_mb_s = cache_mb_s;
  w->post_mb_s = post_mb_s;
  w->next_check = CHECK_MIN_BINS;
  ssdrev_fill_trace_init(&w->tr, BENCH_CLIFF_BIN_BYTES);
  pthread_mutex_init(&w->mu, NULL);
  atomic_init(&w->halted, 0);
}

void bench_cliff_watch_free(struct bench_cliff_watch *w) {
  ssdrev_fill_trace_free(&w->tr);
  free(w->snap_gib);
  free(w->snap_mb_s);
  ssdrev_slc_ws_free(&w->ws);
  w->snap_gib = w->snap_mb_s = NULL;
  w->snap_cap = 0;
  pthread_mutex_destroy(&w->mu);
}

static int estimate(struct bench_cliff_watch *w, const double *gib, const double *mb_s, size_t n) {
  if (n < 4) return -ENODATA;
  struct ssdrev_err e;
  if (ssdrev_slc_estimate_ws(gib, mb_s, n, 0, 0, &w->ws, &w->est, &e)) return -ENODATA;
  w->have_est = 1;
  return 0;
}

/* Bytes over time of steps [a, n). */
static double speed_from(const double *gib, const double *mb_s, size_t n, size_t a) {
  double t = 0;
  for (size_t i = a; i < n; i++) {
    double dg = gib[i] - (i ? gib[i - 1] : 0);
    if (mb_s[i] > 0) t += dg / mb_s[i];
  }
  double g = gib[n - 1] - (a ? gib[a - 1] : 0);
  return t > 0 ? g / t : 0;
}

/* The judgment on a copy of the trace (taken under mu, into buffers kept
 * between calls), so the batch calls can go on appending meanwhile. */
static int check(struct bench_cliff_watch *w) {
  pthread_mutex_lock(&w->mu);
  size_t n = w->tr.oom ? 0 : w->tr.n; /* out of memory: no watch, the job runs to its bound */
  if (n > w->snap_cap) {
    size_t cap = n > 2 * w->snap_cap ? n : 2 * w->snap_cap;
    double *g = realloc(w->snap_gib, cap * sizeof *g);
    if (g) w->snap_gib = g;
    double *m = g ? realloc(w->snap_mb_s, cap * sizeof *m) : NULL;
    if (m) w->snap_mb_s = m;
    if (!g || !m) {
      pthread_mutex_unlock(&w->mu);
      return 0; /* no judgment this time */
    }
    w->snap_cap = cap;
  }
  if (n) {
    memcpy(w->snap_gib, w->tr.gib, n * sizeof *w->tr.gib);
    memcpy(w->snap_mb_s, w->tr.mb_s, n * sizeof *w->tr.mb_s);
  }
  pthread_mutex_unlock(&w->mu);
  const double *gib = w->snap_gib, *mb_s = w->snap_mb_s;
  if (estimate(w, gib, mb_s, n)) return 0;
  double written = gib[n - 1], margin = (double)w->margin_bytes / GIB;
  if (w->est.found && written >= w->est.cache_gib + margin) return BENCH_CLIFF_STOP_CLIFF;
  /* a cliff found (not yet a margin behind) is evidence a cache came
   * back: the write goes on to its margin */
  double ref = w->full_mb_s > 0 ? w->full_mb_s : w->post_mb_s;
  if (!w->est.found && w->post_mb_s > 0 && w->cache_mb_s > BENCH_CLIFF_NONE_RATIO * w->post_mb_s &&
      written >= BUFFER_GIB + margin) {
    size_t a = 0;
    while (a + 1 < n && gib[a] <= BUFFER_GIB) a++;
    /* the first quarter of the write past the buffer, where a recovered
     * cache would be: over the whole write a 0.38 GiB cache at 602 MB/s
     * and 0.69 GiB at 435 after it average 480, under 1.25 x 435, and the
     * write stopped before the rule had its evidence */
    size_t q = a + 1;
    while (q < n && gib[q - 1] - gib[a] < (written - gib[a]) / 4) q++;
    if (speed_from(gib, mb_s, q, a) <= BENCH_CLIFF_NONE_RATIO * ref) return BENCH_CLIFF_STOP_NONE;
  }
  return 0;
}

/* Batch calls (n > 0) only bin the completions and say when a judgment is
 * due (BENCH_JOB_WATCH_DUE, struct bench_job.watch); the call with n = 0 is
 * the judgment: the estimate, which the job runs off the batch path. */
int bench_cliff_watch_fn(void *arg, const struct ssdlog_rec *recs, size_t n) {
  struct bench_cliff_watch *w = arg;
  if (!n) {
    if (atomic_load(&w->halted)) return 1;
    int stop = check(w);
    if (stop) {
      w->stop = stop;
      atomic_store(&w->halted, 1);
    }
    return stop != 0;
  }
  if (w->tr.oom || atomic_load_explicit(&w->halted, memory_order_relaxed)) return atomic_load(&w->halted);
  /* under mu, as a judgment may be copying the arrays */
  pthread_mutex_lock(&w->mu);
  for (size_t i = 0; i < n; i++) {
    const struct ssdlog_rec *r = &recs[i];
    if (r->status < 0 || (r->flags & SSDLOG_REC_RAMP)) continue;
    /* out of memory: no watch then, the job runs to its bound */
    if (ssdrev_fill_trace_add(&w->tr, r->len_bytes, r->submit_ns, r->submit_ns + r->lat_ns) < 0) break;
  }
  size_t nb = w->tr.n;
  pthread_mutex_unlock(&w->mu);
  if (w->observe_only || w->tr.oom || nb < w->next_check) return 0;
  size_t step = nb / CHECK_SHARE;
  w->next_check = nb + (step > CHECK_MIN_BINS ? step : CHECK_MIN_BINS);
  return BENCH_JOB_WATCH_DUE;
}

int bench_cliff_watch_finish(struct bench_cliff_watch *w) {
  /* a last partial step is left out: the rule wants equal steps */
  return w->tr.oom ? -ENOMEM : estimate(w, w->tr.gib, w->tr.mb_s, w->tr.n);
}

double bench_cliff_full_mb_s(const struct bench_cliff_watch *w) {
  size_t n = w->tr.n;
  /* a later level (folding-bound: the cache held more than the free space
   * allowed) ends the fill slower than a full drive writes past its cache
   * once an idle folded the excess (fam-fold: 398 vs 565 MB/s): then the
   * first post-cache level is the reference */
  if (w->have_est && w->est.found && w->est.nlevels > 2) return w->est.post_first_mb_s;
  if (n < 8) return 0;
  double end = w->tr.gib[n - 1], from = end - BENCH_CLIFF_FULL_GIB;
  if (from < 0.75 * end) from = 0.75 * end;
  size_t a = n - 1;
  while (a > 0 && w->tr.gib[a - 1] > from) a--;
  return speed_from(w->tr.gib, w->tr.mb_s, n, a);
}

const char *bench_cliff_stop_name(int stop) {
  return stop == BENCH_CLIFF_STOP_CLIFF ? "cliff" : stop == BENCH_CLIFF_STOP_NONE ? "none" : "bound";
}

int bench_review_cliff_job(struct review_ctx *c, const char *test_name, const char *kind, json_t *extra,
                           struct bench_job *job, struct bench_cliff_watch *w, double est_s,
                           struct bench_job_result *res, struct ssdrev_err *err) {
  if (!extra) extra = json_object();
  json_object_set_new(extra, "bound_bytes", json_integer((json_int_t)job->size_bytes));
  json_object_set_new(extra, "margin_bytes", json_integer((json_int_t)w->margin_bytes));
  job->watch = bench_cliff_watch_fn;
  job->watch_arg = w;
  struct bench_job_result local;
  int rc = bench_review_run_job(c, test_name, kind, extra, job, est_s, res ? res : &local, err);
  job->watch = NULL;
  job->watch_arg = NULL;
  if (rc) return rc;
  /* how it ended, on the test entry just recorded (saved with the step); a
   * runner that cannot watch (fio) wrote the whole bound: the analysis
   * still finds the cliff in the log, the write was only longer */
  int watched = !!(c->runner->flags & REVIEW_RUNNER_WATCH);
  bench_review_note_test(c, test_name, "stopped", json_string(watched ? bench_cliff_stop_name(w->stop) : "bound"));
  if (!watched) bench_review_note_test(c, test_name, "stop_online", json_false());
  return 0;
}

void bench_review_note_test(struct review_ctx *c, const char *test_name, const char *key, json_t *value) {
  json_t *t = archive_find_test(c->run, test_name);
  if (t) json_object_set(t, key, value);
  json_decref(value);
}

void bench_review_seen_speeds(const struct review_ctx *c, double *cache_mb_s, double *post_mb_s, double *full_mb_s) {
  const json_t *tests = json_object_get(c->run->manifest, "tests");
  *cache_mb_s = *post_mb_s = *full_mb_s = 0;
  for (size_t i = json_array_size(tests); i-- > 0;) {
    const json_t *t = json_array_get(tests, i), *v = json_object_get(t, "post_cache_mb_s_seen"),
                 *u = json_object_get(t, "cache_mb_s_seen");
    if (json_is_number(v) && json_number_value(v) > 0 && json_is_number(u) && json_number_value(u) > 0) {
      *cache_mb_s = json_number_value(u);
      *post_mb_s = json_number_value(v);
      const json_t *f = json_object_get(t, "full_mb_s_seen");
      if (json_is_number(f) && json_number_value(f) > 0) *full_mb_s = json_number_value(f);
      return;
    }
  }
}

uint64_t bench_review_cliff_margin(const struct review_profile *p, const struct review_step *s) {
  uint64_t m = s->cliff_margin_bytes;
  if (p->set.fill_max_bytes && m > p->set.fill_max_bytes / 16) m = p->set.fill_max_bytes / 16;
  return m;
}
