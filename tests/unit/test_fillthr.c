/* test_fillthr.c — the fill's in-cache speed from unthrottled writing only
 * (analyze/fillthr.c, issue 24): a synthetic fill trace of a drive that
 * throttles inside its SLC cache (20 GiB at 3300 MB/s, 10 GiB under a
 * 1500 MB/s cap, the cliff at 30 GiB, then 1050 MB/s), its temperature on
 * the step's clock and the drive's thermal counters. The simulated models
 * are checked end to end by tests/cli/review_fill_thr.sh. */
#include <math.h>
#include "analyze/analyze_int.h"
#include "tests/unit/testlib.h"

#define MB_PER_GIB (1073741824.0 / 1e6)

/* An analysis (fill trace of 0.25 GiB steps, the estimate's drops at 20 and
 * 30 GiB, the step's temperature rising 1 °C/s from 40 °C) and its manifest
 * with the counters given (trans < 0: none recorded). */
static void make(json_t **a, json_t **man, double trans, double secs, double t0) {
  json_t *g = json_array(), *m = json_array(), *ts = json_array(), *tc = json_array();
  for (int i = 1; i <= 200; i++) {
    double x = 0.25 * i;
    json_array_append_new(g, json_real(x));
    json_array_append_new(m, json_real(x <= 20 ? 3300 : x <= 30 ? 1500 : 1050));
  }
  /* 20 GiB at 3300 MB/s: 6.507 s; the throttle at 52 °C, 12 °C above idle */
  for (int i = 0; i <= 400; i++) {
    double t = t0 + 0.25 * i;
    json_array_append_new(ts, json_real(t));
    json_array_append_new(tc, json_real(40 + (t - t0) * 12 / (20 * MB_PER_GIB / 3300)));
  }
  *a = json_pack("{s:{s:s, s:{s:o, s:o}, s:{s:b, s:f, s:f, s:f, s:f, s:[{s:f, s:f, s:f}, {s:f, s:f, s:f}],"
                 " s:[{s:s, s:f, s:f, s:f}, {s:s, s:f, s:f, s:f}, {s:s, s:f, s:f, s:f}]}},"
                 " s:{s:{s:{s:o, s:o}}}, s:[{s:b, s:f}]}",
                 "fill", "test", "fill.empty", "trace", "gib", g, "mb_s", m, "slc", "found", 1, "max_gib", 20.0,
                 "cache_mb_s", 3300.0, "post_cache_mb_s", 1100.0, "post_first_mb_s", 1500.0, "drops", "at_gib", 20.0,
                 "from_mb_s", 3300.0, "to_mb_s", 1500.0, "at_gib", 30.0, "from_mb_s", 1500.0, "to_mb_s", 1050.0,
                 "levels", "name", "cache", "from_gib", 0.0, "to_gib", 20.0, "mb_s", 3300.0, "name", "post_cache",
                 "from_gib", 20.0, "to_gib", 30.0, "mb_s", 1500.0, "name", "post_cache_2", "from_gib", 30.0, "to_gib",
                 50.0, "mb_s", 1050.0, "temperature", "steps", "fill", "t_s", ts, "c", tc, "thermal", "throttled", 1,
                 "throttle_temp_c", 52.0);
  *man = json_pack("{s:[{s:s, s:s, s:f}]}", "tests", "name", "fill.empty", "step", "fill", "temp_t0_s", t0);
  if (trans >= 0)
    json_object_set_new(json_array_get(json_object_get(*man, "tests"), 0), "smart_thermal",
                        json_pack("{s:{s:i, s:i, s:i, s:i}, s:{s:f, s:i, s:f, s:i}}", "before", "tmt1_count", 0,
                                  "tmt2_count", 0, "tmt1_s", 0, "tmt2_s", 0, "after", "tmt1_count", trans,
                                  "tmt2_count", 0, "tmt1_s", secs, "tmt2_s", 0));
}

static const json_t *slc_of(const json_t *a) { return json_object_get(json_object_get(a, "fill"), "slc"); }
static double n_of(const json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }

/* the whole write's time: 20 GiB at 3300, 10 at 1500, 20 at 1050 */
static double total_s(void) { return MB_PER_GIB * (20 / 3300.0 + 10 / 1500.0 + 20 / 1050.0); }

static void check_corrected(int *testlib_failed, const json_t *a, const char *evidence) {
  const json_t *s = slc_of(a), *thr = json_object_get(s, "throttle");
  CHECK(fabs(n_of(s, "cache_mb_s") - 3300) < 1);
  CHECK(fabs(n_of(s, "max_gib") - 30) < 1e-9);
  CHECK(json_array_size(json_object_get(s, "levels")) == 2);
  CHECK(json_array_size(json_object_get(s, "drops")) == 1);
  CHECK(fabs(n_of(s, "post_cache_mb_s") - 1050) < 1);
  CHECK(json_is_true(json_object_get(thr, "throttled")));
  CHECK(fabs(n_of(thr, "onset_gib") - 20) < 1e-6);
  CHECK(fabs(n_of(thr, "excluded_gib") - 10) < 1e-6);
  CHECK(fabs(n_of(thr, "excluded_pct") - 33.3) < 0.05);
  /* mixed: 30 GiB over 6.507 + 7.158 s */
  CHECK(fabs(n_of(thr, "cache_mb_s_mixed") - 30 * MB_PER_GIB / (MB_PER_GIB * (20 / 3300.0 + 10 / 1500.0))) < 0.1);
  CHECK(!strcmp(json_string_value(json_object_get(thr, "evidence")), evidence));
}

TEST("With the counters' one throttle the cache's speed is its unthrottled writing and the throttle is no cliff") {
  json_t *a, *man;
  make(&a, &man, 1, floor(total_s() - MB_PER_GIB * 20 / 3300.0), 12.5);
  json_object_del(a, "thermal"); /* the counters alone: their seconds counted back from the end */
  analyze_fill_throttle(a, man);
  check_corrected(testlib_failed, a, "smart");
  json_decref(a), json_decref(man);
}

TEST("Without counters the thermal step's throttle temperature on the fill's own clock gives the onset") {
  json_t *a, *man;
  make(&a, &man, -1, 0, 37.25);
  analyze_fill_throttle(a, man);
  check_corrected(testlib_failed, a, "thermal step's throttle temperature");
  json_decref(a), json_decref(man);
}

TEST("Counters that did not change leave the estimate as it was") {
  json_t *a, *man;
  make(&a, &man, 0, 0, 0);
  analyze_fill_throttle(a, man);
  const json_t *s = slc_of(a);
  CHECK(fabs(n_of(s, "cache_mb_s") - 3300) < 1e-9 && fabs(n_of(s, "max_gib") - 20) < 1e-9);
  CHECK(json_is_false(json_object_get(json_object_get(s, "throttle"), "throttled")));
  json_decref(a), json_decref(man);
}

TEST("Without a start on the temperature clock nor counters nothing is excluded") {
  json_t *a, *man;
  make(&a, &man, -1, 0, 0);
  json_object_del(json_array_get(json_object_get(man, "tests"), 0), "temp_t0_s");
  analyze_fill_throttle(a, man);
  CHECK(json_object_get(slc_of(a), "throttle") == NULL && fabs(n_of(slc_of(a), "max_gib") - 20) < 1e-9);
  json_decref(a), json_decref(man);
}

/* A drive that throttles after its cache: 20 GiB at 3300 MB/s (the cache),
 * 10 GiB at 1050 MB/s, then 20 GiB throttled to 750 MB/s, the estimate's
 * drops at 20 and 30 GiB; the counters' one throttle from 30 GiB on. */
TEST("A throttle after the cache is no part of the post-cache speed: that is the writing before it") {
  json_t *g = json_array(), *m = json_array();
  for (int i = 1; i <= 200; i++) {
    double x = 0.25 * i;
    json_array_append_new(g, json_real(x));
    json_array_append_new(m, json_real(x <= 20 ? 3300 : x <= 30 ? 1050 : 750));
  }
  double mixed = 30 * MB_PER_GIB / (MB_PER_GIB * (10 / 1050.0 + 20 / 750.0));
  json_t *a = json_pack("{s:{s:s, s:{s:o, s:o}, s:{s:b, s:f, s:f, s:f, s:f, s:[{s:f, s:f, s:f}, {s:f, s:f, s:f}],"
                        " s:[{s:s, s:f, s:f, s:f}, {s:s, s:f, s:f, s:f}, {s:s, s:f, s:f, s:f}]}}}",
                        "fill", "test", "fill.empty", "trace", "gib", g, "mb_s", m, "slc", "found", 1, "max_gib", 20.0,
                        "cache_mb_s", 3300.0, "post_cache_mb_s", mixed, "post_first_mb_s", 1050.0, "drops", "at_gib",
                        20.0, "from_mb_s", 3300.0, "to_mb_s", 1050.0, "at_gib", 30.0, "from_mb_s", 1050.0, "to_mb_s",
                        750.0, "levels", "name", "cache", "from_gib", 0.0, "to_gib", 20.0, "mb_s", 3300.0, "name",
                        "post_cache", "from_gib", 20.0, "to_gib", 30.0, "mb_s", 1050.0, "name", "post_cache_2",
                        "from_gib", 30.0, "to_gib", 50.0, "mb_s", 750.0);
  double thr_s = floor(MB_PER_GIB * 20 / 750.0);
  json_t *man = json_pack("{s:[{s:s, s:s, s:f, s:{s:{s:i, s:i, s:i, s:i}, s:{s:i, s:i, s:f, s:i}}}]}", "tests", "name",
                          "fill.empty", "step", "fill", "temp_t0_s", 0.0, "smart_thermal", "before", "tmt1_count", 0,
                          "tmt2_count", 0, "tmt1_s", 0, "tmt2_s", 0, "after", "tmt1_count", 1, "tmt2_count", 0,
                          "tmt1_s", thr_s, "tmt2_s", 0);
  REQUIRE(a && man);
  analyze_fill_throttle(a, man);
  const json_t *s = slc_of(a), *thr = json_object_get(s, "throttle");
  CHECK(json_is_true(json_object_get(thr, "throttled")) && json_is_true(json_object_get(thr, "after_cache")));
  CHECK(fabs(n_of(thr, "onset_gib") - 30) < 1e-6);
  CHECK(fabs(n_of(thr, "throttled_mb_s") - 750) < 1);
  CHECK(fabs(n_of(thr, "post_cache_mb_s_mixed") - mixed) < 1e-6);
  CHECK(fabs(n_of(s, "post_cache_mb_s") - 1050) < 1);
  /* the cache itself is as it was */
  CHECK(fabs(n_of(s, "cache_mb_s") - 3300) < 1e-9 && fabs(n_of(s, "max_gib") - 20) < 1e-9);
  CHECK(json_array_size(json_object_get(s, "drops")) == 2);
  json_decref(a), json_decref(man);
}
