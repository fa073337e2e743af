/* test_recovery.c — writing until the cliff (bench/method/cliff.c) and the
 * cache_recovery analysis (analyze/recovery.c) against the simulator's
 * folding: the SLC room each idle gives back is sim_room_after_idle, the
 * fold sim_idle itself does, taken right before each idle on the drive the
 * writes run on. The sequence is fill_drive's watched fill of the whole
 * drive, then the cache_recovery step's: exhaust from half the capacity,
 * then per idle one write until the cliff where the last one ended. Tolerances (docs/method.md): the
 * recovered cache within max(5%, 1/16 GiB), the in-cache speed within 5%.
 * The later writes judge "nothing came back" against the full drive's own
 * speed (the fill's end, then the exhaust write's), as the step does. */
#include <math.h>
#include "analyze/analyze_int.h"
#include "tests/unit/testlib.h"
#include "tests/unit/simlib.h"

/* 128 KiB QD32 from OFF after IDLE_NS, watched by W. */
static int write_job(struct bench_target *t, uint64_t off, uint64_t bytes, uint64_t idle_ns, struct bench_cliff_watch *w,
                     const char *log, struct bench_job_result *res) {
  struct simlib_write sw = {.off = off, .bytes = bytes, .idle_ns = idle_ns, .block = 128 << 10, .qd = 32, .watch = w};
  return simlib_seq_write(t, &sw, log, res);
}

/* One write of the series as a test of the analysis: its log analyzed as a
 * fill, added to the cache_recovery aggregate as the step's test would be. */
static void add_point(json_t *a, const char *log, const char *name, const char *phase, double idle_s,
                      const struct bench_cliff_watch *w) {
  struct analyze_opts o;
  analyze_opts_defaults(&o);
  json_t *entry = NULL;
  struct ssdrev_err e = {{0}};
  if (analyze_log(log, &o, ANALYZE_WANT_FILL, &entry, &e)) {
    fprintf(stderr, "    %s\n", e.msg);
    return;
  }
  json_t *test = json_pack("{s:s, s:s, s:f, s:s}", "name", name, "phase", phase, "idle_s", idle_s, "stopped",
                           bench_cliff_stop_name(w->stop));
  analyze_recovery_add(a, test, entry);
  json_decref(test);
  json_decref(entry);
}

static const double idles[] = {5, 30, 120, 600};
#define NIDLES (sizeof idles / sizeof idles[0])

/* Runs the series on FILE; returns the analysis (caller decrefs) and the
 * truth per idle (GiB). */
static json_t *series(const char *file, double truth[NIDLES], struct sim_truth *t0, int *testlib_failed) {
  struct bench_target *t;
  /* issue 24's models (est-*) have their own directory */
  if (simlib_open(&t, strncmp(file, "est-", 4) ? "tests/data/models" : "tests/data/est", file, 5)) {
    CHECK(0);
    return NULL;
  }
  struct sim *sim = bench_target_sim(t);
  uint64_t cap = bench_target_size_bytes(t) / (128 << 10) * (128 << 10), bound = cap / 4 / (128 << 10) * (128 << 10);
  sim_get_truth(sim, t0);
  struct bench_job_result res;
  json_t *a = json_object();
  /* the whole-drive fill, watched as fill_drive watches it: its in-cache
   * and post-cache speeds tell the later writes when nothing came back */
  struct bench_cliff_watch w;
  bench_cliff_watch_init(&w, 0, 0, 0);
  w.observe_only = 1;
  if (write_job(t, 0, cap, 0, &w, NULL, &res)) goto out;
  double cache = 0, post = 0, full = 0;
  if (!bench_cliff_watch_finish(&w) && w.est.found) cache = w.est.cache_mb_s, post = w.est.post_first_mb_s;
  full = bench_cliff_full_mb_s(&w); /* the full drive's speed, as fill_drive records it */
  bench_cliff_watch_free(&w);
  CHECK(post > 0 && cache > post);
  /* exhaust from half the capacity, as the step does */
  bench_cliff_watch_init(&w, UINT64_C(1) << 30, cache, post);
  w.full_mb_s = full;
  const char *log = test_path("rec.ssdlog");
  remove(log);
  uint64_t cursor = cap / 2;
  if (write_job(t, cursor, bound, 0, &w, log, &res)) goto out;
  if (w.stop != BENCH_CLIFF_STOP_NONE && !bench_cliff_watch_finish(&w) && w.est.found)
    cache = w.est.cache_mb_s, post = full = w.est.post_first_mb_s;
  add_point(a, log, "exhaust", "exhaust", 0, &w);
  bench_cliff_watch_free(&w);
  cursor += res.bytes;
  for (size_t i = 0; i < NIDLES; i++) {
    if (cap - cursor < (UINT64_C(2) << 30) + (128 << 10)) cursor = 0; /* as the step: two margins left */
    uint64_t span = cap - cursor < bound ? (cap - cursor) / (128 << 10) * (128 << 10) : bound;
    uint64_t idle_ns = (uint64_t)(idles[i] * 1e9);
    truth[i] = (double)sim_room_after_idle(sim, idle_ns) / GIB; /* before the idle: what it will fold */
    bench_cliff_watch_init(&w, UINT64_C(1) << 30, cache, post);
    w.full_mb_s = full;
    remove(log);
    char name[32];
    snprintf(name, sizeof name, "idle%gs", idles[i]);
    if (write_job(t, cursor, span, idle_ns, &w, log, &res)) goto out;
    add_point(a, log, name, "recovery", idles[i], &w);
    /* the write goes a margin past its cliff, never to its bound (but for
     * less than the write buffer's 1/16 GiB: no cliff to see) */
    CHECK(w.stop == BENCH_CLIFF_STOP_CLIFF || w.stop == BENCH_CLIFF_STOP_NONE || truth[i] < 1.0 / 16);
    bench_cliff_watch_free(&w);
    cursor += res.bytes;
  }
  analyze_recovery_finish(a);
out:
  bench_target_close(t);
  return a;
}

static void check_series(const char *file, int recovers, int *testlib_failed) {
  double truth[NIDLES];
  struct sim_truth t0;
  json_t *a = series(file, truth, &t0, testlib_failed);
  REQUIRE(a != NULL);
  const json_t *pts = json_object_get(json_object_get(a, "cache_recovery"), "points");
  REQUIRE(json_array_size(pts) == NIDLES);
  double best = 0;
  for (size_t i = 0; i < NIDLES; i++) {
    const json_t *p = json_array_get(pts, i);
    double g = analyze_json_num(p, "recovered_gib", NAN), v = analyze_json_num(p, "cache_mb_s", NAN);
    fprintf(stderr, "    %-15s idle %4.0f s: recovered %.3f GiB (truth %.3f), in cache %.0f MB/s (truth %.0f), %s\n", file,
            idles[i], g, truth[i], v, t0.slc_write_mb_s, analyze_json_str(p, "stopped"));
    CHECK_NEAR(g, truth[i], fmax(0.05 * truth[i], 1.0 / 16));
    if (truth[i] >= 1) CHECK_NEAR(v, t0.slc_write_mb_s, 0.05 * t0.slc_write_mb_s);
    best = fmax(best, truth[i]);
  }
  /* full by 10 min, or not: the drive's static cache against the last point */
  CHECK(recovers == (truth[NIDLES - 1] >= 0.95 * (double)t0.slc_cache_bytes_min / GIB));
  json_t *flags = json_array();
  analyze_rule_slow_recovery(a, flags);
  /* slow: less than half of the most any idle gave, after 2 min */
  CHECK_EQ_U64(json_array_size(flags), truth[2] < 0.5 * best);
  CHECK_EQ_U64(json_array_size(flags), !recovers);
  json_decref(flags);
  json_decref(a);
}

TEST("A drive that folds fast has its cache back after 30 s, as the simulator's fold says, and raises no flag") {
  check_series("fam-small.model", 1, testlib_failed);
}

TEST("A QLC drive folding at 10 MB/s has not recovered after 10 min, as the simulator's fold says, and is flagged") {
  check_series("fam-fold.model", 0, testlib_failed);
}

TEST("A drive folding at 50 MB/s gives back only 0.23 GiB after 5 s, then its whole 2 GiB, as the simulator's fold says") {
  check_series("est-foldslow.model", 1, testlib_failed);
}
