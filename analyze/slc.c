/* slc.c — the SLC cache estimate: change points in a fill trace (speed per
 * step of GiB written) by binary segmentation on the mean, then the first
 * sustained drop. No fixed speed threshold: a split is kept when it lowers
 * the squared error by more than a BIC-style penalty scaled by the trace's
 * own noise. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze_int.h"

#define MAX_CP 64
#define DROP_RATIO 0.85 /* a segment below 85% of the previous one is a drop */

struct seg_ctx {
  const double *x;
  const double *s1, *s2; /* prefix sums of x and x^2 (n + 1) */
  size_t n, m;           /* points, minimum segment in points */
  double beta;           /* penalty per change point */
  size_t cp[MAX_CP];
  size_t ncp;
};

static double sse(const struct seg_ctx *c, size_t a, size_t b) {
  double n = (double)(b - a), s = c->s1[b] - c->s1[a], q = c->s2[b] - c->s2[a];
  double v = q - s * s / n;
  return v > 0 ? v : 0;
}

/* Splits [a, b) at its best point if that pays for the penalty. */
static void binseg(struct seg_ctx *c, size_t a, size_t b, int depth) {
  if (b - a < 2 * c->m || c->ncp >= MAX_CP || depth > 12) return;
  double whole = sse(c, a, b), best = whole;
  size_t bk = 0;
  for (size_t k = a + c->m; k + c->m <= b; k++) {
    double v = sse(c, a, k) + sse(c, k, b);
    if (v < best) {
      best = v;
      bk = k;
    }
  }
  if (!bk || whole - best <= c->beta) return;
  c->cp[c->ncp++] = bk;
  binseg(c, a, bk, depth + 1);
  binseg(c, bk, b, depth + 1);
}

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}
static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, size_t n) {
  qsort(v, n, sizeof *v, cmp_dbl);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* GiB at the start of point i. */
static double gib_start(const double *gib, size_t i, double step) { return i ? gib[i - 1] : gib[0] - step; }

/* Where the cliff lies: inside point j when its speed is a mix of v1 and v2
 * (time adds up, so the written fraction f at v1 satisfies
 * 1/v = f/v1 + (1-f)/v2), else at the boundary before point k. */
static double cliff_gib(const double *gib, const double *x, size_t k, double v1, double v2, double step) {
  for (size_t j = k ? k - 1 : 0; j <= k; j++) {
    double v = x[j], margin = 0.05 * (v1 - v2);
    if (v > v2 + margin && v < v1 - margin && v > 0) {
      double f = (1 / v - 1 / v2) / (1 / v1 - 1 / v2);
      if (f < 0) f = 0;
      if (f > 1) f = 1;
      return gib_start(gib, j, step) + f * (gib[j] - gib_start(gib, j, step));
    }
  }
  return gib_start(gib, k, step);
}

int analyze_slc_estimate(const double *gib, const double *mb_s, size_t n, double min_seg_gib,
                         struct analyze_slc *out, struct ssdrev_err *err) {
  memset(out, 0, sizeof *out);
  if (n < 4) return ssdrev_fail(err, -EINVAL, "fill trace too short for an SLC estimate (%zu points)", n);
  double step = (gib[n - 1] - gib[0]) / (double)(n - 1);
  if (!(step > 0)) return ssdrev_fail(err, -EINVAL, "fill trace GiB values do not increase");
  double *s1 = calloc(n + 1, sizeof *s1), *s2 = calloc(n + 1, sizeof *s2), *tmp = calloc(n, sizeof *tmp);
  if (!s1 || !s2 || !tmp) {
    free(s1), free(s2), free(tmp);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < n; i++) {
    s1[i + 1] = s1[i] + mb_s[i];
    s2[i + 1] = s2[i] + mb_s[i] * mb_s[i];
  }
  /* noise: median absolute first difference / (0.6745 * sqrt 2), robust to
   * the steps themselves; floored at 1% of the median level so a smooth
   * simulated trace does not split on rounding */
  for (size_t i = 0; i + 1 < n; i++) tmp[i] = fabs(mb_s[i + 1] - mb_s[i]);
  double sigma = median(tmp, n - 1) / (0.6745 * sqrt(2.0));
  memcpy(tmp, mb_s, n * sizeof *tmp);
  double level = median(tmp, n);
  if (sigma < 0.01 * level) sigma = 0.01 * level;
  struct seg_ctx c = {.x = mb_s, .s1 = s1, .s2 = s2, .n = n};
  c.m = (size_t)llround(min_seg_gib / step);
  if (c.m < 1) c.m = 1;
  if (2 * c.m > n) c.m = n / 2;
  c.beta = 3.0 * sigma * sigma * log((double)n);
  binseg(&c, 0, n, 0);
  qsort(c.cp, c.ncp, sizeof c.cp[0], cmp_size);

  /* segments: boundaries 0, cp..., n */
  size_t bnd[MAX_CP + 2], nb = 0;
  bnd[nb++] = 0;
  for (size_t i = 0; i < c.ncp; i++) bnd[nb++] = c.cp[i];
  bnd[nb++] = n;
  out->nsegments = (unsigned)(nb - 1);
  double mean[MAX_CP + 1];
  for (size_t i = 0; i + 1 < nb; i++) mean[i] = (s1[bnd[i + 1]] - s1[bnd[i]]) / (double)(bnd[i + 1] - bnd[i]);

  size_t first = 0; /* segment index after the first drop, 0 = none */
  for (size_t i = 0; i + 2 < nb; i++) {
    if (mean[i + 1] < DROP_RATIO * mean[i]) {
      if (out->ndrops < ANALYZE_SLC_MAX_DROPS) {
        struct analyze_slc_drop *d = &out->drops[out->ndrops++];
        d->at_gib = cliff_gib(gib, mb_s, bnd[i + 1], mean[i], mean[i + 1], step);
        d->from_mb_s = mean[i];
        d->to_mb_s = mean[i + 1];
      }
      if (!first) first = i + 1;
    }
  }
  if (first) {
    out->found = 1;
    size_t k = bnd[first];
    out->cache_mb_s = s1[k] / (double)k;
    out->post_cache_mb_s = mean[first];
    out->cache_gib = out->drops[0].at_gib;
    /* confidence: the drop against the within-segment noise, halved when
     * the segment after the cliff is shorter than the minimum */
    double ss = sse(&c, 0, k) + sse(&c, k, bnd[first + 1]);
    double sd = sqrt(ss / (double)bnd[first + 1]);
    double z = (out->cache_mb_s - out->post_cache_mb_s) / (sd > 0 ? sd : 1e-9);
    double conf = 1 - exp(-z / 3);
    if (bnd[first + 1] - k < c.m) conf *= 0.5;
    out->confidence = conf < 0 ? 0 : conf;
  } else {
    out->cache_mb_s = level;
    out->cache_gib = gib[n - 1];
    out->post_cache_mb_s = 0;
    out->confidence = 0;
  }
  free(s1), free(s2), free(tmp);
  return 0;
}

json_t *analyze_slc_to_json(const struct analyze_slc *s, double min_seg_gib) {
  json_t *o = json_object(), *d = json_array();
  json_object_set_new(o, "found", json_boolean(s->found));
  json_object_set_new(o, "cache_gib", s->found ? analyze_json_real(s->cache_gib, 3) : json_null());
  json_object_set_new(o, "cache_mb_s", analyze_json_real(s->cache_mb_s, 1));
  json_object_set_new(o, "post_cache_mb_s", s->found ? analyze_json_real(s->post_cache_mb_s, 1) : json_null());
  for (unsigned i = 0; i < s->ndrops; i++) {
    json_t *e = json_object();
    json_object_set_new(e, "at_gib", analyze_json_real(s->drops[i].at_gib, 3));
    json_object_set_new(e, "from_mb_s", analyze_json_real(s->drops[i].from_mb_s, 1));
    json_object_set_new(e, "to_mb_s", analyze_json_real(s->drops[i].to_mb_s, 1));
    json_array_append_new(d, e);
  }
  json_object_set_new(o, "drops", d);
  json_object_set_new(o, "segments", json_integer(s->nsegments));
  json_object_set_new(o, "confidence", analyze_json_real(s->confidence, 2));
  json_object_set_new(o, "method", json_sprintf("binary segmentation, BIC penalty, min segment %g GiB", min_seg_gib));
  return o;
}
