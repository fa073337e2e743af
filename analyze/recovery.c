/* recovery.c — the cache_recovery analysis: the recovered SLC cache and its
 * in-cache speed against the idle time before each write (the step of
 * bench/method/recovery.c), its flag slow_cache_recovery, and what the
 * series says about the fill's near-full figure (docs/method.md, "Cache
 * recovery after idle"; docs/flags.md). */
#include <math.h>
#include <string.h>
#include "analyze/analyze_int.h"

static json_t *num_or_null(double v, int digits) { return isfinite(v) ? analyze_json_real(v, digits) : json_null(); }

void analyze_recovery_add(json_t *a, const json_t *test, const json_t *entry) {
  const json_t *slc = json_object_get(json_object_get(entry, "fill"), "slc");
  if (!slc) return;
  json_t *r = json_object_get(a, "cache_recovery");
  if (!r) {
    r = json_pack("{s:[]}", "points");
    json_object_set_new(a, "cache_recovery", r);
  }
  const char *phase = analyze_json_str(test, "phase"), *stopped = analyze_json_str(test, "stopped");
  int found = json_is_true(json_object_get(slc, "found"));
  json_t *p = json_object();
  json_object_set_new(p, "test", json_string(analyze_json_str(test, "name") ? analyze_json_str(test, "name") : "?"));
  json_object_set_new(p, "idle_s", analyze_json_real(analyze_json_num(test, "idle_s", 0), 3));
  json_object_set_new(p, "stopped", json_string(stopped ? stopped : "bound"));
  json_object_set(p, "found", json_object_get(slc, "found"));
  json_object_set_new(p, "cache_gib", found ? json_deep_copy(json_object_get(slc, "cache_gib")) : json_null());
  json_object_set(p, "written_gib", json_object_get(slc, "written_gib"));
  /* the first level's speed: the cache's when found, else the whole write's */
  json_object_set(p, "speed_mb_s", json_object_get(slc, found ? "cache_mb_s" : "fill_mb_s"));
  json_object_set(p, "post_cache_mb_s", json_object_get(slc, "post_cache_mb_s"));
  json_object_set(p, "confidence", json_object_get(slc, "confidence"));
  if (phase && !strcmp(phase, "exhaust")) json_object_set_new(r, "exhaust", p);
  else json_array_append_new(json_object_get(r, "points"), p);
}

/* The speeds that tell "in the cache" from "past it": the exhaust write's
 * levels when it found a cliff, else the empty-drive fill's. */
static void references(const json_t *a, const json_t *r, double *vc, double *vp) {
  const json_t *ex = json_object_get(r, "exhaust"), *fs = json_object_get(json_object_get(a, "fill"), "slc");
  *vc = *vp = NAN;
  if (json_is_true(json_object_get(ex, "found"))) {
    *vc = analyze_json_num(ex, "speed_mb_s", NAN);
    *vp = analyze_json_num(ex, "post_cache_mb_s", NAN);
  } else if (json_is_true(json_object_get(fs, "found"))) {
    *vc = analyze_json_num(fs, "cache_mb_s", NAN);
    *vp = analyze_json_num(fs, "post_cache_mb_s", NAN);
  }
}

void analyze_recovery_finish(json_t *a) {
  json_t *r = json_object_get(a, "cache_recovery");
  if (!r) return;
  double vc, vp, best = 0;
  references(a, r, &vc, &vp);
  json_object_set_new(r, "ref_cache_mb_s", num_or_null(vc, 1));
  json_object_set_new(r, "ref_post_cache_mb_s", num_or_null(vp, 1));
  size_t i;
  json_t *p;
  json_array_foreach(json_object_get(r, "points"), i, p) {
    double v = analyze_json_num(p, "speed_mb_s", NAN);
    if (json_is_true(json_object_get(p, "found"))) {
      double g = analyze_json_num(p, "cache_gib", 0);
      json_object_set_new(p, "recovered_gib", analyze_json_real(g, 3));
      json_object_set_new(p, "cache_mb_s", num_or_null(v, 1));
      best = fmax(best, g);
    } else if (strcmp(analyze_json_str(p, "stopped"), "none") && !(isfinite(vc) && isfinite(vp))) {
      /* no cliff, and no speeds to tell a cache from the post-cache
       * phase (a short review's fill inside its cache): unknown */
      json_object_set_new(p, "recovered_gib", json_null());
      json_object_set_new(p, "cache_mb_s", json_null());
    } else if (strcmp(analyze_json_str(p, "stopped"), "none") && v > (vc + vp) / 2) {
      /* the write ended at its bound still in the cache: a lower bound */
      double g = analyze_json_num(p, "written_gib", 0);
      json_object_set_new(p, "recovered_gib", json_null());
      json_object_set_new(p, "at_least_gib", analyze_json_real(g, 3));
      json_object_set_new(p, "cache_mb_s", num_or_null(v, 1));
      best = fmax(best, g);
    } else {
      /* no cliff and the post-cache speed from the start: nothing had come
       * back (or less than the 1/16 GiB the write buffer hides) */
      json_object_set_new(p, "recovered_gib", json_real(0));
      json_object_set_new(p, "cache_mb_s", json_null());
    }
  }
  /* the full cache: the most any point (or the near-full rewrite) saw */
  const json_t *fs = json_object_get(json_object_get(a, "fill"), "slc");
  double ref = fmax(best, analyze_json_num(fs, "min_gib", 0));
  json_object_set_new(r, "max_gib", analyze_json_real(best, 3));
  json_object_set_new(r, "ref_gib", analyze_json_real(ref, 3));
  json_t *full = json_null();
  json_array_foreach(json_object_get(r, "points"), i, p) {
    double g = analyze_json_num(p, "recovered_gib", NAN);
    if (!isfinite(g)) g = analyze_json_num(p, "at_least_gib", NAN);
    json_object_set_new(p, "pct", ref > 0 && isfinite(g) ? analyze_json_real(100 * g / ref, 1) : json_null());
    if (json_is_null(full) && ref > 0 && g >= ANALYZE_RECOVERY_FULL * ref) full = json_deep_copy(json_object_get(p, "idle_s"));
  }
  json_object_set_new(r, "full_after_s", full);

  /* the near-full figure of the fill: when a longer idle of this series
   * gave more, the cache had not recovered in the fill's idle */
  const json_t *nf = json_object_get(json_object_get(a, "fill"), "near_full");
  const json_t *nft = json_object_get(json_object_get(a, "tests"), analyze_json_str(nf, "test") ? analyze_json_str(nf, "test") : "");
  double nidle = analyze_json_num(nft, "idle_s", NAN), ngib = analyze_json_num(fs, "min_gib", NAN);
  if (!isfinite(ngib) && json_is_number(json_object_get(fs, "min_gib_recovered"))) ngib = 0;
  if (fs && isfinite(nidle) && isfinite(ngib)) {
    double later = -1, later_s = 0;
    json_array_foreach(json_object_get(r, "points"), i, p) {
      double g = analyze_json_num(p, "recovered_gib", NAN);
      if (!isfinite(g)) g = analyze_json_num(p, "at_least_gib", 0);
      if (analyze_json_num(p, "idle_s", 0) > nidle && g > later) later = g, later_s = analyze_json_num(p, "idle_s", 0);
    }
    if (later > ngib + fmax(0.05 * later, 1.0 / 16))
      json_object_set_new((json_t *)fs, "near_full_recovery",
                          json_pack("{s:b, s:o, s:o, s:o, s:o}", "recovered", 0, "idle_s", analyze_json_real(nidle, 3),
                                    "gib", analyze_json_real(ngib, 3), "later_idle_s", analyze_json_real(later_s, 3),
                                    "later_gib", analyze_json_real(later, 3)));
  }
}

void analyze_rule_slow_recovery(const json_t *a, json_t *flags) {
  const json_t *r = json_object_get(a, "cache_recovery");
  const json_t *pts = json_object_get(r, "points");
  double ref = analyze_json_num(r, "ref_gib", 0);
  if (!json_array_size(pts) || !(ref > 0)) return;
  /* the first idle of at least ANALYZE_RECOVERY_AT_S, else the longest */
  const json_t *p = json_array_get(pts, json_array_size(pts) - 1);
  size_t i;
  json_t *q;
  json_array_foreach(pts, i, q) if (analyze_json_num(q, "idle_s", 0) >= ANALYZE_RECOVERY_AT_S) {
    p = q;
    break;
  }
  if (!json_is_number(json_object_get(p, "pct"))) return; /* unknown: nothing to flag */
  double pct = analyze_json_num(p, "pct", 100), idle = analyze_json_num(p, "idle_s", 0);
  double g = analyze_json_num(p, "recovered_gib", NAN);
  if (!isfinite(g)) g = analyze_json_num(p, "at_least_gib", 0);
  if (pct >= 100 * ANALYZE_RECOVERY_MIN_SHARE) return;
  char msg[256];
  snprintf(msg, sizeof msg, "cache recovers slowly: %.2f GiB of %.2f GiB (%.0f%%) after %.0f s idle (< %.0f%%)", g, ref,
           pct, idle, 100 * ANALYZE_RECOVERY_MIN_SHARE);
  json_array_append_new(flags, json_pack("{s:s, s:s, s:s, s:{s:f, s:f, s:f, s:f, s:f}}", "id", "slow_cache_recovery",
                                         "severity", "warn", "message", msg, "numbers", "idle_s", idle,
                                         "recovered_gib", g, "ref_gib", ref, "pct", pct, "min_pct",
                                         100 * ANALYZE_RECOVERY_MIN_SHARE));
}
