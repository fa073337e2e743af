/* fillthr.c — the fill's in-cache speed from unthrottled writing only
 * (issue 24, docs/method.md "Fill"): a drive that throttles while still
 * writing into its SLC cache writes the rest of the cache under the cap,
 * and the cache level's speed mixed the two. The fill's test records
 * where its log starts on its step's temperature clock (temp_t0_s) and the
 * drive's thermal counters around it (smart_thermal); the throttle's onset
 * on the fill's trace comes from the counters when present (no change: no
 * throttle; one transition: a throttle that lasted to the write's end, its
 * seconds counted back from there), else from the temperature reaching the
 * throttle temperature the thermal step judged (analyze/thermal.c). A drop
 * of the trace at that onset is the throttle, not the cliff: the cache
 * ends at the next drop, and its speed is that of the writing before the
 * onset. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze_int.h"

/* A drop within this of the evidence's onset is the throttle itself: the
 * counters count whole seconds, the simulator's samples tick 0.25 s. */
#define FILLTHR_MATCH_S 1.5

static const json_t *test_named(const json_t *man, const char *name) {
  size_t i;
  const json_t *t;
  json_array_foreach(json_object_get(man, "tests"), i, t) {
    const char *n = analyze_json_str(t, "name");
    if (n && name && !strcmp(n, name)) return t;
  }
  return NULL;
}

/* The first throttle temperature the thermal step judged, or NAN. */
static double thermal_throttle_c(const json_t *a) {
  size_t i;
  const json_t *th;
  json_array_foreach(json_object_get(a, "thermal"), i, th) {
    if (!json_is_true(json_object_get(th, "throttled"))) continue;
    double c = analyze_json_num(th, "throttle_temp_c", NAN);
    if (isfinite(c)) return c;
  }
  return NAN;
}

void analyze_fill_throttle(json_t *a, const json_t *man) {
  json_t *fill = json_object_get(a, "fill"), *slc = json_object_get(fill, "slc");
  const json_t *test = test_named(man, analyze_json_str(fill, "test"));
  const json_t *tr = json_object_get(fill, "trace");
  size_t n = json_array_size(json_object_get(tr, "gib"));
  if (!test || !json_is_true(json_object_get(slc, "found")) || n < 2 ||
      json_array_size(json_object_get(tr, "mb_s")) != n)
    return;
  double *g = calloc(n, sizeof *g), *m = calloc(n, sizeof *m), *te = calloc(n, sizeof *te);
  if (!g || !m || !te) goto out;
  /* each trace step's end time on the log's clock: its bytes over its speed add up */
  double t = 0;
  for (size_t i = 0; i < n; i++) {
    g[i] = json_number_value(json_array_get(json_object_get(tr, "gib"), i));
    m[i] = json_number_value(json_array_get(json_object_get(tr, "mb_s"), i));
    double dg = g[i] - (i ? g[i - 1] : 0);
    if (m[i] > 0) t += dg * 1073741824.0 / 1e6 / m[i];
    te[i] = t;
  }
  double trans = 0, secs = 0, onset = NAN, thr_c = thermal_throttle_c(a);
  double secs_sum;
  /* the time throttled at all: the longer counter (analyze_tmt_delta) */
  int have_tmt = analyze_tmt_delta(test, &trans, &secs_sum, &secs);
  const char *evidence = NULL;
  if (have_tmt && trans == 0 && secs == 0) {
    json_object_set_new(slc, "throttle", json_pack("{s:s, s:b}", "evidence", "smart", "throttled", 0));
    goto out;
  }
  /* the temperature route: the step's samples, the log's start on their clock */
  double t0 = analyze_json_num(test, "temp_t0_s", NAN);
  const json_t *st = json_object_get(json_object_get(json_object_get(a, "temperature"), "steps"),
                                     analyze_json_str(test, "step") ? analyze_json_str(test, "step") : "");
  const json_t *ts = json_object_get(st, "t_s"), *tc = json_object_get(st, "c");
  if (isfinite(t0) && isfinite(thr_c))
    for (size_t i = 0; i < json_array_size(ts) && i < json_array_size(tc); i++) {
      double x = json_number_value(json_array_get(ts, i)) - t0;
      if (x < 0 || x > t) continue;
      if (json_number_value(json_array_get(tc, i)) >= thr_c) {
        onset = x;
        evidence = have_tmt ? "smart, temperature" : "thermal step's throttle temperature";
        break;
      }
    }
  if (isnan(onset) && have_tmt && trans == 1 && secs > 0 && secs < t) {
    onset = t - secs;
    evidence = "smart";
  }
  if (isnan(onset)) goto out;
  /* a drop at the onset is the throttle: its position is where the speed shows it */
  json_t *drops = json_object_get(slc, "drops");
  size_t nd = json_array_size(drops), thr_drop = nd;
  for (size_t d = 0; d < nd; d++) {
    double at = analyze_json_num(json_array_get(drops, d), "at_gib", NAN);
    size_t i = 0;
    while (i + 1 < n && g[i] < at) i++;
    if (fabs(te[i] - onset) <= FILLTHR_MATCH_S) {
      thr_drop = d;
      onset = te[i];
      break;
    }
  }
  double cache_end = analyze_json_num(slc, "max_gib", NAN);
  if (thr_drop >= 1 && thr_drop < nd) {
    /* the throttle came after the cache's end: the post-cache speed is the
     * writing between the two (the mean over the rest, throttled part and
     * all, made a drive that throttles read as QLC-like: hot-512, 1053
     * then 750 MB/s, was "760 MB/s after the cache") */
    double at = analyze_json_num(json_array_get(drops, thr_drop), "at_gib", NAN);
    double gp = 0, tp = 0, gt = 0, tt = 0;
    for (size_t i = 0; i < n; i++) {
      double g0 = i ? g[i - 1] : 0, dt = te[i] - (i ? te[i - 1] : 0);
      if (g0 < cache_end - 1e-9) continue;
      if (g[i] <= at + 1e-9) gp += g[i] - g0, tp += dt;
      else gt += g[i] - g0, tt += dt;
    }
    if (!(gp > 0 && tp > 0 && gt > 0 && tt > 0)) goto out;
    json_t *mixed = json_object_get(slc, "post_cache_mb_s");
    json_object_set_new(slc, "throttle",
                        json_pack("{s:s, s:b, s:b, s:o, s:o, s:o, s:O}", "evidence", evidence, "throttled", 1,
                                  "after_cache", 1, "onset_s", analyze_json_real(onset, 3), "onset_gib",
                                  analyze_json_real(at, 3), "throttled_mb_s",
                                  analyze_json_real(gt * 1073741824.0 / 1e6 / tt, 1), "post_cache_mb_s_mixed",
                                  mixed ? mixed : json_null()));
    json_object_set_new(slc, "post_cache_mb_s", analyze_json_real(gp * 1073741824.0 / 1e6 / tp, 1));
    json_object_set_new(slc, "post_cache_mb_s_from", json_string("unthrottled"));
    goto out;
  }
  if (thr_drop == 0 && nd >= 2) cache_end = analyze_json_num(json_array_get(drops, 1), "at_gib", cache_end);
  else if (thr_drop == 0) goto out; /* the throttle is the only drop: no cliff seen past it */
  /* the cache's own level starts where the estimate's does (past a DRAM-buffer head) */
  double from = analyze_json_num(json_array_get(json_object_get(slc, "levels"), 0), "from_gib", 0);
  double gu = 0, tu = 0, gx = 0, tx = 0, tpost = 0, gpost = 0;
  for (size_t i = 0; i < n; i++) {
    double g0 = i ? g[i - 1] : 0, dt = te[i] - (i ? te[i - 1] : 0);
    if (g0 < from - 1e-9) continue;
    if (g[i] <= cache_end + 1e-9) {
      if (te[i] <= onset + 1e-9) gu += g[i] - g0, tu += dt;
      else gx += g[i] - g0, tx += dt;
    } else
      gpost += g[i] - g0, tpost += dt;
  }
  if (!(gu > 0 && tu > 0) || !(gx > 0)) goto out;
  /* what the cache's speed was with the throttled writing in it */
  double mixed = (gu + gx) * 1073741824.0 / 1e6 / (tu + tx);
  double v = gu * 1073741824.0 / 1e6 / tu;
  json_object_set_new(slc, "throttle",
                      json_pack("{s:s, s:b, s:o, s:o, s:o, s:o, s:o}", "evidence", evidence, "throttled", 1, "onset_s",
                                analyze_json_real(onset, 3), "onset_gib", analyze_json_real(gu + from, 3),
                                "excluded_gib", analyze_json_real(gx, 3), "excluded_pct",
                                analyze_json_real(100 * gx / (gu + gx), 1), "cache_mb_s_mixed",
                                analyze_json_real_or_null(mixed, 1)));
  json_object_set_new(slc, "cache_mb_s", analyze_json_real(v, 1));
  json_object_set_new(slc, "cache_mb_s_from", json_string("unthrottled"));
  if (thr_drop == 0) {
    /* the first drop was the throttle: the cliff is the next one */
    json_object_set_new(slc, "max_gib", analyze_json_real(cache_end, 3));
    json_array_remove(drops, 0);
    json_t *lv = json_object_get(slc, "levels");
    if (json_array_size(lv) >= 2) {
      json_object_set(json_array_get(lv, 0), "to_gib", json_object_get(json_array_get(lv, 1), "to_gib"));
      json_object_set_new(json_array_get(lv, 0), "mb_s", analyze_json_real(v, 1));
      json_array_remove(lv, 1);
      if (json_array_size(lv) >= 2) {
        json_object_set_new(json_array_get(lv, 1), "name", json_string("post_cache"));
        json_object_set(slc, "post_first_mb_s", json_object_get(json_array_get(lv, 1), "mb_s"));
      }
      for (size_t i = 2; i < json_array_size(lv); i++)
        json_object_set_new(json_array_get(lv, i), "name", json_sprintf("post_cache_%zu", i));
    }
    if (tpost > 0) json_object_set_new(slc, "post_cache_mb_s", analyze_json_real(gpost * 1073741824.0 / 1e6 / tpost, 1));
  }
out:
  free(g), free(m), free(te);
}
