/* test_analyze_sim.c — the SLC estimate against the simulated drive's ground
 * truth: a whole-drive sequential fill on every shipped model, then a
 * rewrite of the full drive for the smallest cache. */
#include <dirent.h>
#include <errno.h>
#include "analyze/analyze.h"
#include "tests/unit/testlib.h"
#include "tests/unit/simlib.h"

#define SIM_DIR "samples/models"

/* Writes `bytes` sequentially (128 KiB, QD8) from offset 0 into log. */
static int seq_fill(struct bench_target *t, uint64_t bytes, const char *log) {
  struct simlib_write sw = {.bytes = bytes, .block = 128 * 1024, .qd = 8};
  return simlib_seq_write(t, &sw, log, NULL);
}

static double an_num_test(const json_t *o, const char *k) {
  const json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : -1;
}

static const json_t *slc_of(const json_t *res) { return json_object_get(json_object_get(res, "fill"), "slc"); }

static void check_model(const char *file, int *testlib_failed) {
  struct bench_target *t;
  struct ssdrev_err e = {{0}};
  if (simlib_open(&t, SIM_DIR, file, 7)) {
    CHECK(0);
    return;
  }
  struct sim *sim = bench_target_sim(t);
  REQUIRE(sim != NULL);
  struct sim_truth tr;
  sim_get_truth(sim, &tr);
  uint64_t cap = bench_target_size_bytes(t) / (128 * 1024) * (128 * 1024);
  const char *log1 = test_path("empty.ssdlog"), *log2 = test_path("near_full.ssdlog");
  remove(log1);
  remove(log2);
  REQUIRE(seq_fill(t, cap, log1) == 0);
  struct sim_truth tr2;
  sim_get_truth(sim, &tr2);
  /* a rewrite of a full drive after a minute idle (the static cache folds
   * free): only the static cache is left */
  sim_idle(sim, UINT64_C(60000000000));
  uint64_t nf = (uint64_t)(tr.slc_cache_bytes_min * 6) / (128 * 1024) * (128 * 1024);
  REQUIRE(seq_fill(t, nf, log2) == 0);
  /* a throttling model spends nearly all of a whole-drive fill's post-cache
   * phase throttled: its truth there is the throttled speed */
  double want_post = tr.post_cache_mb_s;
  struct sim_thermal_measured th;
  if (sim_model_measure_thermal(sim_get_model(sim), &th, NULL) == 0 && th.throttled && th.throttled_mb_s < want_post)
    want_post = th.throttled_mb_s;
  bench_target_close(t);

  struct analyze_opts o;
  analyze_opts_defaults(&o);
  json_t *r1 = NULL, *r2 = NULL;
  /* segments no longer than half the cache looked for (a 0.25 GiB cache
   * of a small model is not found with 2 GiB segments) */
  double gmax = (double)tr.slc_cache_bytes_max / GIB, gmin = (double)tr.slc_cache_bytes_min / GIB;
  o.slc_min_seg_gib = gmax / 2 < 2.0 ? gmax / 2 : 2.0;
  REQUIRE(analyze_log(log1, &o, ANALYZE_WANT_FILL, &r1, &e) == 0);
  o.slc_min_seg_gib = gmin / 2 < 0.5 ? gmin / 2 : 0.5;
  REQUIRE(analyze_log(log2, &o, ANALYZE_WANT_FILL, &r2, &e) == 0);
  const json_t *s1 = slc_of(r1), *s2 = slc_of(r2);
  if (getenv("AN_DEBUG")) {
    json_dumpf(json_object_get(json_object_get(r2, "fill"), "trace"), stderr, JSON_COMPACT);
    json_dumpf(s2, stderr, JSON_COMPACT);
  }
  double want_max = (double)tr.slc_cache_bytes_max / GIB, want_min = (double)tr.slc_cache_bytes_min / GIB;
  double got_max = an_num_test(s1, "cache_gib"), got_min = an_num_test(s2, "cache_gib");
  double got_post = an_num_test(s1, "post_cache_mb_s");
  fprintf(stderr, "    %s: max %.3f GiB (truth %.3f), min %.3f GiB (truth %.3f), post %.1f MB/s (truth %.1f)\n",
          file, got_max, want_max, got_min, want_min, got_post, want_post);
  if (tr.post_cache_mb_s >= 0.95 * tr.slc_write_mb_s) {
    /* a cache the host cannot see: writing to TLC is as fast as the link
     * lets SLC be (ftl-2t), so a fill shows no cliff and none is claimed */
    fprintf(stderr, "    %s: post-cache %.0f MB/s ~ in-cache %.0f MB/s: no visible cache\n", file, tr.post_cache_mb_s,
            tr.slc_write_mb_s);
    CHECK(!json_is_true(json_object_get(s1, "found")));
    json_decref(r1);
    json_decref(r2);
    return;
  }
  CHECK(json_is_true(json_object_get(s1, "found")));
  CHECK_NEAR(got_max, want_max, 0.05 * want_max);
  CHECK_NEAR(got_min, want_min, 0.05 * want_min);
  CHECK_NEAR(got_post, want_post, 0.05 * want_post);
  /* the per-GiB trace covers the whole drive, every point with a speed */
  const json_t *pg = json_object_get(json_object_get(r1, "fill"), "per_gib");
  const json_t *g = json_object_get(pg, "gib"), *m = json_object_get(pg, "mb_s");
  size_t n = json_array_size(g);
  REQUIRE(n > 0 && n == json_array_size(m));
  CHECK_NEAR(json_number_value(json_array_get(g, n - 1)), (double)cap / GIB, 0.001);
  for (size_t i = 0; i < n; i++) CHECK(json_number_value(json_array_get(m, i)) > 0);
  json_decref(r1);
  json_decref(r2);
}

TEST("The SLC estimate is within 5% of the ground truth on every shipped model") {
  DIR *d = opendir(simlib_dir(SIM_DIR));
  REQUIRE(d != NULL);
  struct dirent *de;
  int n = 0;
  while ((de = readdir(d)) != NULL) {
    size_t l = strlen(de->d_name);
    if (l < 7 || strcmp(de->d_name + l - 6, ".model")) continue;
    check_model(de->d_name, testlib_failed);
    n++;
  }
  closedir(d);
  CHECK(n >= 1);
}
