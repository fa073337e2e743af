/* thermal.c — the thermal step's analysis (docs/method.md "Thermal"): the
 * throughput series of the sustained write and the temperatures sampled on
 * the same time axis, the throughput drops in the first, and which of them
 * are thermal throttling by the evidence of the second. A drop is a
 * throttling point when the drive is near its peak temperature there and
 * its temperature stops rising at the drop (the heat input fell with the
 * speed, or the firmware holds a threshold) or has reached its warning
 * threshold. An SLC cache cliff keeps the NAND as busy as before, so the
 * temperature keeps rising through it: it is reported as a drop, not as
 * throttling. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze_int.h"

/* Reads a JSON number array into a new double array; *n its length. */
static double *nums(const json_t *arr, size_t *n) {
  *n = json_array_size(arr);
  double *v = calloc(*n ? *n : 1, sizeof *v);
  if (!v) {
    *n = 0;
    return NULL;
  }
  for (size_t i = 0; i < *n; i++) v[i] = json_number_value(json_array_get(arr, i));
  return v;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median of v[a..b) (b - a <= ANALYZE_THERMAL_WIN_MAX). */
#define ANALYZE_THERMAL_WIN_MAX 64
static double median(const double *v, size_t a, size_t b) {
  double w[ANALYZE_THERMAL_WIN_MAX];
  size_t n = 0;
  for (size_t i = a; i < b && n < ANALYZE_THERMAL_WIN_MAX; i++) w[n++] = v[i];
  if (!n) return 0;
  qsort(w, n, sizeof *w, cmp_dbl);
  return n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
}

/* The median absolute deviation of v[a, b) from its median. */
static double mad(const double *v, size_t a, size_t b) {
  double m = median(v, a, b), d[ANALYZE_THERMAL_WIN_MAX];
  size_t n = 0;
  for (size_t i = a; i < b && n < ANALYZE_THERMAL_WIN_MAX; i++) d[n++] = fabs(v[i] - m);
  return median(d, 0, n);
}

/* The temperature at time t, linear between samples (held at the ends). */
static double temp_at(const double *ts, const double *c, size_t n, double t) {
  if (!n) return NAN;
  if (t <= ts[0]) return c[0];
  for (size_t i = 1; i < n; i++)
    if (t <= ts[i]) return ts[i] > ts[i - 1] ? c[i - 1] + (c[i] - c[i - 1]) * (t - ts[i - 1]) / (ts[i] - ts[i - 1]) : c[i];
  return c[n - 1];
}

/* Least-squares slope (°C/s) of the samples in [t0, t1]; NAN under 3 samples. */
static double temp_slope(const double *ts, const double *c, size_t n, double t0, double t1) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (ts[i] < t0 || ts[i] > t1) continue;
    sx += ts[i], sy += c[i], sxx += ts[i] * ts[i], sxy += ts[i] * c[i];
    k++;
  }
  if (k < 3) return NAN;
  double d = (double)k * sxx - sx * sx;
  return d > 0 ? ((double)k * sxy - sx * sy) / d : NAN;
}

/* The samples [[t, c], ...] of the test as two arrays. */
static size_t samples_of(const json_t *test, double **ts, double **c) {
  const json_t *s = json_object_get(test, "samples");
  size_t n = json_array_size(s), k = 0;
  *ts = calloc(n ? n : 1, sizeof **ts);
  *c = calloc(n ? n : 1, sizeof **c);
  if (!*ts || !*c) return 0;
  for (size_t i = 0; i < n; i++) {
    const json_t *r = json_array_get(s, i);
    if (!json_is_number(json_array_get(r, 0)) || !json_is_number(json_array_get(r, 1))) continue;
    (*ts)[k] = json_number_value(json_array_get(r, 0));
    (*c)[k] = json_number_value(json_array_get(r, 1));
    if (k && (*ts)[k] < (*ts)[k - 1]) continue; /* out of order: not a time series */
    k++;
  }
  return k;
}

/* The drive's own thermal-management counters over the step (SMART TMT1/TMT2
 * transition counts and seconds, "smart_thermal" {before, after}): 1 with
 * *trans the transitions, *secs_sum the seconds of both counters added and
 * *secs_max the longer of the two (TMT2, the heavier throttle, runs inside
 * a throttle that TMT1 may count too: the time throttled at all is at least
 * the longer), 0 when absent or not usable (a counter missing, negative, or
 * going backwards: a reset or a hostile file), and the series decide. */
int analyze_tmt_delta(const json_t *test, double *trans, double *secs_sum, double *secs_max) {
  const json_t *st = json_object_get(test, "smart_thermal");
  const json_t *b = json_object_get(st, "before"), *a = json_object_get(st, "after");
  static const char *const cnt[2] = {"tmt1_count", "tmt2_count"}, *const sec[2] = {"tmt1_s", "tmt2_s"};
  *trans = *secs_sum = *secs_max = 0;
  for (int i = 0; i < 2; i++) {
    const json_t *k[4] = {json_object_get(b, cnt[i]), json_object_get(a, cnt[i]), json_object_get(b, sec[i]),
                          json_object_get(a, sec[i])};
    double x[4];
    for (int j = 0; j < 4; j++) {
      if (!json_is_number(k[j])) return 0;
      x[j] = json_number_value(k[j]);
      if (!(x[j] >= 0 && x[j] < 1e15)) return 0;
    }
    if (x[1] < x[0] || x[3] < x[2]) return 0;
    *trans += x[1] - x[0];
    *secs_sum += x[3] - x[2];
    *secs_max = fmax(*secs_max, x[3] - x[2]);
  }
  return 1;
}

json_t *analyze_thermal(const json_t *test, const json_t *entry, const json_t *dut) {
  const json_t *ser = json_object_get(entry, "series");
  size_t n = 0, nt = 0, nm = 0;
  double *t = nums(json_object_get(ser, "t_s"), &nt), *v = nums(json_object_get(ser, "mb_s"), &nm);
  n = nt < nm ? nt : nm;
  double *ts = NULL, *c = NULL;
  size_t ns = samples_of(test, &ts, &c);
  double dt = analyze_json_num(ser, "interval_s", 1);
  if (!(dt > 0)) dt = 1;
  json_t *o = json_object();
  json_object_set_new(o, "test", json_string(analyze_json_str(test, "name") ? analyze_json_str(test, "name") : ""));
  json_object_set_new(o, "interval_s", json_real(dt));
  json_t *jt = json_array(), *jm = json_array(), *jst = json_array(), *jsc = json_array();
  for (size_t i = 0; i < n; i++) {
    json_array_append_new(jt, analyze_json_real(t[i], 3));
    json_array_append_new(jm, analyze_json_real(v[i], 1));
  }
  double peak = -INFINITY;
  for (size_t i = 0; i < ns; i++) {
    json_array_append_new(jst, analyze_json_real(ts[i], 3));
    json_array_append_new(jsc, analyze_json_real(c[i], 2));
    if (c[i] > peak) peak = c[i];
  }
  json_object_set_new(o, "t_s", jt);
  json_object_set_new(o, "mb_s", jm);
  json_object_set_new(o, "temp_t_s", jst);
  json_object_set_new(o, "temp_c", jsc);
  double warn = analyze_json_num(dut, "temp_thresh_c", analyze_json_num(dut, "warn_temp_c", 0));
  if (warn > 0) json_object_set_new(o, "warn_temp_c", json_real(warn));
  if (json_object_get(test, "smart_thermal")) json_object_set(o, "smart_thermal", json_object_get(test, "smart_thermal"));
  if (ns) {
    json_object_set_new(o, "peak_temp_c", analyze_json_real(peak, 2));
    json_object_set_new(o, "start_temp_c", analyze_json_real(c[0], 2));
  }
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += v[i];
  if (n) json_object_set_new(o, "mean_mb_s", analyze_json_real(sum / (double)n, 1));
  /* the write's own run time (its last bin is usually partial) */
  double el = analyze_json_num(json_object_get(json_object_get(entry, "ops"), "all"), "elapsed_s", NAN);
  json_object_set_new(o, "duration_s", analyze_json_real(isfinite(el) ? el : n ? t[n - 1] + dt : 0, 3));

  /* Throughput drops: where the median of the W bins after a bin is below
   * (1 - DROP) x the median of the W bins before it; of a run of such bins,
   * the one with the largest difference is the drop. */
  /* clamped in double: a tiny interval_s (a hostile analysis) makes the
   * quotient huge or infinite, and casting that is undefined */
  double wd = ceil(ANALYZE_THERMAL_WINDOW_S / dt);
  if (!(wd >= 2)) wd = 2;
  if (wd > ANALYZE_THERMAL_WIN_MAX) wd = ANALYZE_THERMAL_WIN_MAX;
  size_t w = (size_t)wd;
  json_t *points = json_array();
  double first_t = NAN, first_c = NAN, first_before = NAN;
  /* The counters, when the step recorded them, are the evidence: no
   * transition and no time throttled is no throttle, whatever the series
   * look like (GC slowing the heat rise passes the plateau test); a change
   * makes one drop the throttle, the series giving its time: the drop
   * whose own slow time (the write below that drop's threshold from it to
   * the end) is nearest the counters' seconds. The throttle's counts all
   * of its cycles; an SLC cliff before it counts the TLC writing too, one
   * after it only the writing after the cliff. Counters that changed with
   * no drop in the series: a throttle that did not slow the write
   * (throttled false, the counters' seconds recorded). */
  double tmt_n = 0, tmt_s = 0;
  double tmt_max;
  int have_tmt = analyze_tmt_delta(test, &tmt_n, &tmt_s, &tmt_max), tmt_thr = have_tmt && (tmt_n > 0 || tmt_s > 0);
  double end_s = isfinite(el) ? el : n ? t[n - 1] + dt : 0;
  if (have_tmt) {
    json_object_set_new(o, "smart_throttle_transitions", analyze_json_real(tmt_n, 0));
    json_object_set_new(o, "smart_throttle_s", analyze_json_real(tmt_s, 0));
  }
  for (size_t k = w; k + w <= n;) {
    double b = median(v, k - w, k), a = median(v, k, k + w);
    if (!(b > 0 && a < (1 - ANALYZE_THERMAL_DROP) * b)) {
      k++;
      continue;
    }
    size_t best = k;
    double bd = b - a;
    size_t j = k + 1;
    for (; j + w <= n; j++) {
      double bj = median(v, j - w, j), aj = median(v, j, j + w);
      if (!(bj > 0 && aj < (1 - ANALYZE_THERMAL_DROP) * bj)) break;
      if (bj - aj > bd) bd = bj - aj, best = j;
    }
    double before = median(v, best - w, best), after = median(v, best, best + w);
    /* the drop's time inside its bin: the first bin clearly below the old
     * level is a mix of the two speeds, and its share of the old one is
     * the part of the bin before the drop */
    size_t kb = best;
    for (size_t q = best >= w ? best - w : 0; q < best + w && q < n; q++)
      if (v[q] < before - 0.1 * (before - after)) {
        kb = q;
        break;
      }
    double frac = (v[kb] - after) / (before - after);
    double td = t[kb] + dt * (frac < 0 ? 0 : frac > 1 ? 1 : frac);
    double cd = temp_at(ts, c, ns, td);
    double win = ANALYZE_THERMAL_SLOPE_S;
    double sb = temp_slope(ts, c, ns, td - win, td), sa = temp_slope(ts, c, ns, td, td + win);
    /* Speed and temperature together (issue 24): the heat is the NAND
     * work, so a throttle, which makes the dies work less, bends the
     * temperature down at the drop, while an SLC cliff or GC onset keeps
     * the dies busy and the temperature on its way. "Hot" is against the
     * hottest the drive had been by then (up to a slope window after the
     * drop), not the step's peak: a throttle inside the cache, after
     * which the drive keeps heating writing TLC under the cap, peaks far
     * above its 52 °C. The warning threshold alone is no evidence: an SLC
     * cliff at the threshold with the temperature rising on (or held)
     * is still a cliff. */
    double peak_by = -INFINITY;
    for (size_t q = 0; q < ns && ts[q] <= td + win; q++)
      if (c[q] > peak_by) peak_by = c[q];
    int hot = ns && isfinite(cd) && cd - c[0] >= ANALYZE_THERMAL_HOT_SHARE * (peak_by - c[0]);
    int plateau = isfinite(sb) && isfinite(sa) && sb >= ANALYZE_THERMAL_MIN_RISE && sa <= sb / 2;
    /* cooling: from a held temperature (a drive at its threshold) the
     * temperature falls after the drop */
    int cooling = isfinite(sb) && isfinite(sa) && sb < ANALYZE_THERMAL_MIN_RISE && sa <= -ANALYZE_THERMAL_MIN_RISE;
    int at_thr = warn > 0 && isfinite(cd) && cd >= warn - 1;
    /* the share of the whole intervals after the drop (HOLD_S of them at
     * most) below its threshold: 1 when the step ends first */
    size_t hn = 0, hb = 0;
    for (size_t q = 0; q + 1 < n; q++)
      if (t[q] >= td - 1e-9 && t[q] < td + ANALYZE_THERMAL_HOLD_S) hn++, hb += v[q] < (1 - ANALYZE_THERMAL_DROP) * before;
    double hold = hn ? (double)hb / (double)hn : 1;
    int held = hold >= ANALYZE_THERMAL_HOLD_SHARE;
    int thermal = hot && (plateau || cooling) && held;
    const char *why = thermal ? (at_thr ? (plateau ? "plateau, threshold" : "cooling, threshold")
                                        : plateau ? "plateau" : "cooling")
                      : !ns        ? "no temperature samples"
                      : !hot       ? "far below the peak temperature"
                      : !(plateau || cooling) ? "temperature kept rising"
                                              : "speed came back: no lasting throttle";
    json_t *p = json_object();
    json_object_set_new(p, "t_s", analyze_json_real(td, 3));
    json_object_set_new(p, "before_mb_s", analyze_json_real(before, 1));
    json_object_set_new(p, "after_mb_s", analyze_json_real(after, 1));
    json_object_set_new(p, "temp_c", isfinite(cd) ? analyze_json_real(cd, 2) : json_null());
    json_object_set_new(p, "slope_before_c_s", isfinite(sb) ? analyze_json_real(sb, 4) : json_null());
    json_object_set_new(p, "slope_after_c_s", isfinite(sa) ? analyze_json_real(sa, 4) : json_null());
    json_object_set_new(p, "hold_pct", analyze_json_real(100 * hold, 1));
    json_object_set_new(p, "thermal", json_boolean(thermal));
    json_object_set_new(p, "evidence", json_string(why));
    json_array_append_new(points, p);
    if (!have_tmt && thermal && isnan(first_t)) first_t = td, first_c = cd, first_before = before;
    k = j + 1; /* past this run of candidates */
  }
  if (have_tmt) {
    /* the counters' judgment replaces the series' on every point */
    size_t np = json_array_size(points), pick = np;
    double best = INFINITY;
    /* A drop is the throttle only where the counters allow it. Its slow
     * time is at most their seconds (within a quarter, or the drop's
     * resolution): a throttle can slow the write for less than its time (a
     * level whose cap lies above the speed the drive writes at slows
     * nothing: a Gen5 model's light throttle and its heavy one while GC
     * held the write under the heavy cap), never for more. A throttle the
     * temperature never left (it never fell more than LEFT_C below the
     * drop's) ran from the drop to the end, so one that would have begun
     * earlier than the counters' seconds before the end did not begin
     * there; and a drop within the write's own scatter is none. Without
     * these, a throttle that never slowed the write made the nearest of
     * the GC dips "the throttle": 8 s into the write, at 49 °C, where the
     * counters' 562 s of a single throttle began at ~48 s and 70 °C (a QLC
     * model). */
    double eps = ANALYZE_THERMAL_WINDOW_S + dt, tol = fmax(eps, ANALYZE_THERMAL_TMT_MISS * tmt_s);
    for (size_t i = 0; i < np && tmt_thr; i++) {
      const json_t *p = json_array_get(points, i);
      double ti = analyze_json_num(p, "t_s", NAN), lim = (1 - ANALYZE_THERMAL_DROP) * analyze_json_num(p, "before_mb_s", 0);
      double slow = 0; /* the time the write ran below this drop's threshold from it on */
      for (size_t j = 0; j < n; j++)
        if (t[j] + dt > ti && v[j] < lim) slow += fmin(t[j] + dt, end_s) - fmax(t[j], ti);
      double miss = fabs(slow - tmt_s), ci = analyze_json_num(p, "temp_c", NAN), low = INFINITY;
      for (size_t q = 0; q < ns; q++)
        if (ts[q] > ti && c[q] < low) low = c[q];
      int never_left = isfinite(ci) && isfinite(low) && low >= ci - ANALYZE_THERMAL_LEFT_C;
      /* and a drop the speed's own scatter explains (less than twice the
       * median deviation of the window before it) is no throttle's: on a
       * write in GC, 30-50 MB/s a second, a 16% dip near the counters'
       * start would be taken for one that never slowed the write */
      size_t kb = 0;
      while (kb + 1 < n && t[kb + 1] <= ti) kb++;
      double drop = analyze_json_num(p, "before_mb_s", 0) - analyze_json_num(p, "after_mb_s", 0);
      int scatter = kb >= w && drop < 2 * mad(v, kb - w, kb);
      if (slow > tmt_s + tol || (never_left && end_s - ti > tmt_s + eps) || scatter) continue;
      if (miss < best) best = miss, pick = i;
    }
    for (size_t i = 0; i < np; i++) {
      json_t *p = json_array_get(points, i);
      json_object_set_new(p, "thermal", json_boolean(i == pick));
      json_object_set_new(p, "evidence", json_string(i == pick ? "SMART throttle counters"
                                                      : tmt_thr     ? "not the throttle the SMART counters time"
                                                                    : "SMART counters: no throttle"));
    }
    if (pick < np) {
      const json_t *p = json_array_get(points, pick);
      first_t = analyze_json_num(p, "t_s", NAN);
      first_c = analyze_json_num(p, "temp_c", NAN);
      first_before = analyze_json_num(p, "before_mb_s", NAN);
    }
  }
  json_object_set_new(o, "points", points);
  json_object_set_new(o, "throttle_evidence", json_string(have_tmt ? "smart" : "series"));
  json_object_set_new(o, "throttled", json_boolean(!isnan(first_t)));
  if (!isnan(first_t)) {
    /* after_throttle_mb_s: the mean from SETTLE after the first throttle to
     * the end (a drive that cycles in and out of its throttle gets the
     * average of the cycles, what a long copy sees). throttled_mb_s: the
     * speed WHILE throttled, the median of the whole intervals after the
     * throttle below the drop threshold under the speed before (the median:
     * an interval the throttle enters or leaves is a mix of two speeds) --
     * issue 27: a drive that throttled for a while and ran at full speed
     * after showed its mean as its throttled speed; throttled_share_pct:
     * the share of the intervals after the throttle that were throttled. */
    double s2 = 0, *thr_v = malloc((n ? n : 1) * sizeof *thr_v);
    size_t k2 = 0, k3 = 0, kall = 0;
    for (size_t i = 0; i < n; i++) {
      if (t[i] >= first_t + ANALYZE_THERMAL_SETTLE_S) s2 += v[i], k2++;
      /* whole intervals after the throttle, the last (cut short) one left out */
      if (t[i] >= first_t && i + 1 < n) {
        kall++;
        if (thr_v && v[i] < (1 - ANALYZE_THERMAL_DROP) * first_before) thr_v[k3++] = v[i];
      }
    }
    double thr_med = NAN;
    if (k3) {
      qsort(thr_v, k3, sizeof *thr_v, cmp_dbl);
      thr_med = k3 % 2 ? thr_v[k3 / 2] : (thr_v[k3 / 2 - 1] + thr_v[k3 / 2]) / 2;
    }
    free(thr_v);
    json_object_set_new(o, "time_to_throttle_s", analyze_json_real(first_t, 3));
    json_object_set_new(o, "throttle_temp_c", analyze_json_real_or_null(first_c, 2));
    json_object_set_new(o, "before_mb_s", analyze_json_real(first_before, 1));
    if (k2) {
      double thr = isfinite(thr_med) ? thr_med : s2 / (double)k2;
      json_object_set_new(o, "throttled_mb_s", analyze_json_real(thr, 1));
      json_object_set_new(o, "throttle_pct", analyze_json_real(100.0 * (1 - thr / first_before), 1));
      json_object_set_new(o, "after_throttle_mb_s", analyze_json_real(s2 / (double)k2, 1));
      json_object_set_new(o, "throttled_share_pct", analyze_json_real(kall ? 100.0 * (double)k3 / (double)kall : 0, 1));
    }
  }
  free(t), free(v), free(ts), free(c);
  return o;
}
