/* stats.c — the compare's statistics (docs/perf/compare.md, "Statistics"):
 * each group's n, median, mean, sample standard deviation, CV and the 95%
 * Student-t interval of its mean; a group's difference to the baseline as a
 * percentage of the baseline's mean with Welch's 95% interval, and whether
 * it is beyond the noise (Welch's two-sided t test, p < 0.05, both groups
 * n >= 2). The t distribution comes from the regularized incomplete beta
 * function (continued fraction, Lentz's method), so nothing is linked in. */
#include <math.h>
#include <string.h>
#include "render/compare/compare_int.h"

/* Continued fraction of I_x(a, b) (Numerical Recipes' betacf, modified
 * Lentz); converges fast for x < (a + 1) / (a + b + 2). */
static double betacf(double a, double b, double x) {
  const double tiny = 1e-300, eps = 1e-15;
  double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d = 1 - qab * x / qap;
  if (fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; m++) {
    double m2 = 2.0 * m, aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1) < eps) break;
  }
  return h;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double ibeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return exp(lbt) * betacf(a, b, x) / a;
  return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double render_cmp_t_sf2(double t, double df) {
  if (!(df > 0) || isnan(t)) return NAN;
  if (isinf(t)) return 0;
  return ibeta(df / 2, 0.5, df / (df + t * t));
}

double render_cmp_t_cdf(double t, double df) {
  double p = render_cmp_t_sf2(t, df);
  if (isnan(p)) return NAN;
  return t > 0 ? 1 - p / 2 : p / 2;
}

static double t_pdf(double t, double df) {
  return exp(lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI) - (df + 1) / 2 * log1p(t * t / df));
}

double render_cmp_t975(double df) {
  if (!(df > 0)) return NAN;
  /* Cornish-Fisher start from the normal quantile, then Newton on the CDF
   * (a few steps to 1e-12); bisection guards the small df where Newton
   * could overshoot */
  const double z = 1.959963984540054;
  double x = z + (z * z * z + z) / (4 * df) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * df * df);
  double lo = 0, hi = x > 1 ? x * 64 : 64;
  if (df < 1) hi = 1e6;
  for (int i = 0; i < 200; i++) {
    double f = render_cmp_t_cdf(x, df) - 0.975;
    if (fabs(f) < 1e-14) break;
    if (f > 0) hi = x;
    else lo = x;
    double nx = x - f / t_pdf(x, df);
    x = nx > lo && nx < hi ? nx : (lo + hi) / 2;
    if (hi - lo < 1e-13 * hi) break;
  }
  return x;
}

void render_cmp_summarize(const double *s, size_t n, double t975, struct cmp_stat *st) {
  memset(st, 0, sizeof *st);
  st->ci_lo = st->ci_hi = st->sd = NAN;
  if (!n) return;
  st->n = (uint32_t)n;
  st->min = s[0];
  st->max = s[n - 1];
  st->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  /* two passes: the mean, then squared deviations from it (no
   * cancellation as in sum-of-squares minus square-of-sum) */
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += s[i];
  st->mean = sum / (double)n;
  if (n < 2) return; /* one value has no spread and no interval */
  double ss = 0;
  for (size_t i = 0; i < n; i++) ss += (s[i] - st->mean) * (s[i] - st->mean);
  st->sd = sqrt(ss / (double)(n - 1));
  double h = t975 * st->sd / sqrt((double)n);
  st->ci_lo = st->mean - h;
  st->ci_hi = st->mean + h;
}

double render_cmp_cv(const struct cmp_stat *s) {
  return s->n >= 2 && s->mean != 0 ? s->sd / fabs(s->mean) : NAN;
}

void render_cmp_welch(const struct cmp_stat *b, const struct cmp_stat *x, struct cmp_diff *d) {
  d->pct = d->lo_pct = d->hi_pct = d->p = d->df = NAN;
  d->beyond = 0;
  d->ok = b->n && x->n && b->mean != 0;
  if (!d->ok) return;
  double scale = 100 / fabs(b->mean);
  d->pct = (x->mean - b->mean) * scale;
  /* at n = 1 on either side there is no variance to test against: never
   * beyond the noise, and no interval */
  if (b->n < 2 || x->n < 2) return;
  double vb = b->sd * b->sd / b->n, vx = x->sd * x->sd / x->n, se2 = vb + vx;
  double diff = x->mean - b->mean;
  if (!(se2 > 0)) {
    /* both groups repeat one value each: the difference is exact */
    d->lo_pct = d->hi_pct = d->pct;
    d->p = diff == 0 ? 1 : 0;
    d->beyond = diff != 0;
    return;
  }
  /* Welch-Satterthwaite degrees of freedom */
  d->df = se2 * se2 / (vb * vb / (b->n - 1) + vx * vx / (x->n - 1));
  double se = sqrt(se2), h = render_cmp_t975(d->df) * se;
  d->lo_pct = (diff - h) * scale;
  d->hi_pct = (diff + h) * scale;
  d->p = render_cmp_t_sf2(diff / se, d->df);
  d->beyond = d->p < 0.05;
}
