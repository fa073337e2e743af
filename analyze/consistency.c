/* consistency.c — performance consistency (docs/method.md "Performance
 * consistency"): from a sustained random write's series per second and
 * per 100 ms (exact per-interval percentiles, analyze/bins.c), the steady
 * region's IOPS (mean, min, 1% low, stddev / mean), the end of the
 * fresh-drive burst (GC onset) and the p99.9 latency per second; the flag
 * consistency_drops (docs/flags.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze_int.h"

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The series' KEY as doubles, without its last interval: the test's end
 * cuts it (a drain of the queue, not a rate). Returns the count. */
static size_t load(const json_t *ser, const char *key, double *out, size_t max) {
  const json_t *v = json_object_get(ser, key);
  size_t n = json_array_size(v);
  if (n > 2) n--;
  if (n > max) n = max;
  for (size_t i = 0; i < n; i++) out[i] = json_number_value(json_array_get(v, i));
  return n;
}

/* Nearest-rank percentile of v[0..n) (sorted copy in tmp). */
static double pct_of(const double *v, size_t n, double p, double *tmp) {
  if (!n) return NAN;
  memcpy(tmp, v, n * sizeof *v);
  qsort(tmp, n, sizeof *tmp, cmp_dbl);
  return tmp[analyze_pct_rank(p, n) - 1];
}

static json_t *arr_of(const double *v, size_t n, int digits) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) json_array_append_new(a, analyze_json_real(v[i], digits));
  return a;
}

json_t *analyze_consistency_of(const json_t *entry) {
  const json_t *s1 = json_object_get(entry, "series"), *sf = json_object_get(entry, "series_fine");
  size_t cap = json_array_size(json_object_get(s1, "iops")) + json_array_size(json_object_get(sf, "iops")) + 1;
  double *t = calloc(cap, sizeof *t), *io = calloc(cap, sizeof *io), *lat = calloc(cap, sizeof *lat),
         *tmp = calloc(cap, sizeof *tmp), *ft = calloc(cap, sizeof *ft), *fio = calloc(cap, sizeof *fio);
  json_t *o = NULL;
  if (!t || !io || !lat || !tmp || !ft || !fio) goto out;
  size_t n = load(s1, "t_s", t, cap), ni = load(s1, "iops", io, cap), nl = load(s1, "p99_9_us", lat, cap);
  if (ni < n) n = ni;
  size_t nf = load(sf, "t_s", ft, cap), nfi = load(sf, "iops", fio, cap);
  if (nfi < nf) nf = nfi;
  o = json_object();
  json_object_set_new(o, "interval_s", json_real(analyze_json_num(s1, "interval_s", 1)));
  json_object_set_new(o, "fine_interval_s", json_real(analyze_json_num(sf, "interval_s", 0.1)));
  json_object_set_new(o, "per_s", json_pack("{s:o, s:o, s:o}", "t_s", arr_of(t, n, 3), "iops", arr_of(io, n, 1),
                                            "p99_9_us", nl >= n ? arr_of(lat, n, 3) : json_array()));
  json_object_set_new(o, "per_fine", json_pack("{s:o, s:o}", "t_s", arr_of(ft, nf, 3), "iops", arr_of(fio, nf, 1)));
  if (n < 4) goto out;
  /* The burst: the peak of the first tenth of the seconds; the steady level:
   * the median of the last half. The burst ends (GC onset) at the first
   * second below the midpoint of the two, when the peak is 20% above. */
  size_t head = n / 10 ? n / 10 : 1;
  double peak = 0;
  for (size_t i = 0; i < head; i++) peak = fmax(peak, io[i]);
  double level = pct_of(io + n / 2, n - n / 2, 50, tmp);
  double onset = NAN;
  size_t from = n / 2;
  if (peak > ANALYZE_CONS_BURST_RATIO * level) {
    for (size_t i = 0; i < n; i++)
      if (io[i] < (peak + level) / 2) {
        onset = t[i];
        /* the steady region: the second half of what follows the onset */
        from = i + (n - i) / 2;
        break;
      }
  }
  if (from >= n) from = n - 1;
  size_t m = n - from;
  double sum = 0, sq = 0, mn = INFINITY, lsum = 0, lmax = 0;
  for (size_t i = from; i < n; i++) sum += io[i], mn = fmin(mn, io[i]);
  double mean = sum / (double)m;
  size_t below = 0;
  for (size_t i = from; i < n; i++) {
    sq += (io[i] - mean) * (io[i] - mean);
    below += io[i] < ANALYZE_CONS_DROP_RATIO * mean;
    if (nl >= n) lsum += lat[i], lmax = fmax(lmax, lat[i]);
  }
  double sd = m > 1 ? sqrt(sq / (double)(m - 1)) : 0;
  /* the same region in the fine intervals */
  double t0 = t[from], t1 = t[n - 1] + analyze_json_num(s1, "interval_s", 1);
  size_t f0 = 0, f1 = 0, fbelow = 0;
  while (f0 < nf && ft[f0] < t0) f0++;
  for (f1 = f0; f1 < nf && ft[f1] < t1; f1++) fbelow += fio[f1] < ANALYZE_CONS_DROP_RATIO * mean;
  double fmin_ = INFINITY;
  for (size_t i = f0; i < f1; i++) fmin_ = fmin(fmin_, fio[i]);
  json_t *st = json_pack("{s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "from_s", analyze_json_real(t0, 3), "to_s",
                         analyze_json_real(t1, 3), "seconds", (json_int_t)m, "mean_iops", analyze_json_real(mean, 1),
                         "min_iops", analyze_json_real(mn, 1), "p1_iops", analyze_json_real(pct_of(io + from, m, 1, tmp), 1),
                         "stddev_iops", analyze_json_real(sd, 1), "cov_pct",
                         analyze_json_real(mean > 0 ? 100 * sd / mean : 0, 2), "below_pct",
                         analyze_json_real(100.0 * (double)below / (double)m, 2));
  json_object_set_new(st, "drop_ratio", json_real(ANALYZE_CONS_DROP_RATIO));
  if (f1 > f0) {
    json_object_set_new(st, "fine_min_iops", analyze_json_real(fmin_, 1));
    json_object_set_new(st, "fine_p1_iops", analyze_json_real(pct_of(fio + f0, f1 - f0, 1, tmp), 1));
    json_object_set_new(st, "fine_below_pct", analyze_json_real(100.0 * (double)fbelow / (double)(f1 - f0), 2));
  }
  if (nl >= n) {
    json_object_set_new(st, "p99_9_us_mean", analyze_json_real(lsum / (double)m, 3));
    json_object_set_new(st, "p99_9_us_max", analyze_json_real(lmax, 3));
  }
  json_object_set_new(o, "steady", st);
  json_object_set_new(o, "burst", json_pack("{s:o, s:o, s:o}", "peak_iops", analyze_json_real(peak, 1), "level_iops",
                                            analyze_json_real(level, 1), "onset_s",
                                            isfinite(onset) ? analyze_json_real(onset, 3) : json_null()));
out:
  free(t), free(io), free(lat), free(tmp), free(ft), free(fio);
  return o;
}

void analyze_consistency_add(json_t *a, const json_t *t, const json_t *e) {
  json_t *c = analyze_consistency_of(e);
  if (!c) return;
  const char *name = analyze_json_str(t, "name");
  json_object_set_new(c, "test", json_string(name ? name : "?"));
  json_t *all = json_object_get(a, "consistency");
  if (!all) json_object_set_new(a, "consistency", all = json_array());
  json_array_append_new(all, c);
}

void analyze_flag_consistency(const json_t *a, json_t *flags) {
  size_t i;
  json_t *c;
  json_array_foreach(json_object_get(a, "consistency"), i, c) {
    const json_t *st = json_object_get(c, "steady");
    double below = analyze_json_num(st, "below_pct", 0);
    if (!st || below <= ANALYZE_CONS_DROP_SHARE_PCT) continue;
    const char *test = analyze_json_str(c, "test");
    analyze_flag_add(flags, "consistency_drops", "warn",
                     json_pack("{s:s, s:f, s:f, s:f, s:f}", "test", test ? test : "?", "below_pct", below, "mean_iops",
                               analyze_json_num(st, "mean_iops", 0), "drop_pct", 100 * ANALYZE_CONS_DROP_RATIO,
                               "share_pct", ANALYZE_CONS_DROP_SHARE_PCT),
                     "%s: in the steady region %.1f%% of the seconds fall below %.0f%% of the mean %.0f IOPS "
                     "(more than %.0f%%)",
                     test ? test : "?", below, 100 * ANALYZE_CONS_DROP_RATIO, analyze_json_num(st, "mean_iops", 0),
                     ANALYZE_CONS_DROP_SHARE_PCT);
  }
}
