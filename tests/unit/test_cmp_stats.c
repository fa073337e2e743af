/* test_cmp_stats.c — the compare's statistics (render/compare/stats.c)
 * against values computed independently with numpy 1.24 / scipy 1.10
 * (numpy.median, mean, std(ddof=1); scipy.stats.t.ppf / t.cdf;
 * scipy.stats.ttest_ind(equal_var=False)). tests/cli/compare_stats.sh
 * checks a whole compare's groups.csv against scipy live. */
#include <math.h>
#include "render/compare/compare_int.h"
#include "tests/unit/testlib.h"

static int near(double a, double b, double rel) {
  return fabs(a - b) <= rel * fabs(b) + 1e-12;
}

static void summarize(double *v, size_t n, struct cmp_stat *st) {
  for (size_t i = 1; i < n; i++) /* sorted, as build_stats hands them */
    for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
      double x = v[j];
      v[j] = v[j - 1], v[j - 1] = x;
    }
  render_cmp_summarize(v, n, n >= 2 ? render_cmp_t975((double)(n - 1)) : NAN, st);
}

TEST("The t distribution's CDF and 0.975 quantile match scipy's at integer and fractional df") {
  static const struct { double df, q975, cdf_m25, cdf_07; } want[] = {
      {1, 12.7062047364321, 0.121118941590843, 0.694400112214215},
      {2, 4.30265272991127, 0.0648058601107554, 0.721803487683567},
      {3.5, 2.94008863798278, 0.037847321904745, 0.73618292882716},
      {10, 2.22813885196494, 0.0157234221183044, 0.750056214913558},
      {29, 2.0452296421327, 0.00916267216921303, 0.755247425692758},
      {1000, 1.96233908082641, 0.0062892839005454, 0.757954943003699},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    CHECK(near(render_cmp_t975(want[i].df), want[i].q975, 1e-10));
    CHECK(near(render_cmp_t_cdf(-2.5, want[i].df), want[i].cdf_m25, 1e-10));
    CHECK(near(render_cmp_t_cdf(0.7, want[i].df), want[i].cdf_07, 1e-10));
  }
}

TEST("A group's median, mean, sd, CV and 95% t interval match numpy and scipy") {
  double a[] = {3531.28, 3512.9, 3544.1, 3520.7, 3538.05};
  struct cmp_stat s;
  summarize(a, 5, &s);
  CHECK(s.n == 5);
  CHECK(near(s.median, 3531.28, 1e-12));
  CHECK(near(s.mean, 3529.406, 1e-12));
  CHECK(near(s.sd, 12.6726745401, 1e-10));
  CHECK(near(render_cmp_cv(&s), 0.00359059698434, 1e-9));
  CHECK(near(s.ci_lo, 3513.67079626, 1e-10));
  CHECK(near(s.ci_hi, 3545.14120374, 1e-10));
  double b[] = {3402.5, 3460.0, 3390.2, 3471.9};
  summarize(b, 4, &s);
  CHECK(near(s.median, 3431.25, 1e-12)); /* even n: the mean of the middle two */
  CHECK(near(s.sd, 40.7864765169, 1e-10));
  CHECK(near(s.ci_lo, 3366.24961425, 1e-10));
}

TEST("One value has a median and a mean but no spread and no interval") {
  double a[] = {42};
  struct cmp_stat s;
  summarize(a, 1, &s);
  CHECK(s.n == 1 && s.median == 42 && s.mean == 42);
  CHECK(isnan(s.sd) && isnan(s.ci_lo) && isnan(s.ci_hi) && isnan(render_cmp_cv(&s)));
}

TEST("Welch's test finds a 2.8% regression beyond the noise as scipy does, with its interval") {
  double a[] = {3531.28, 3512.9, 3544.1, 3520.7, 3538.05}, b[] = {3402.5, 3460.0, 3390.2, 3471.9};
  struct cmp_stat sa, sb;
  summarize(a, 5, &sa);
  summarize(b, 4, &sb);
  struct cmp_diff d;
  render_cmp_welch(&sa, &sb, &d);
  CHECK(d.ok && d.beyond);
  CHECK(near(d.p, 0.0136078561321, 1e-8));
  CHECK(near(d.df, 3.46577853399, 1e-9));
  CHECK(near(d.pct, -2.78392454708, 1e-9));
  CHECK(near(d.lo_pct, -4.5552499456, 1e-8));
  CHECK(near(d.hi_pct, -1.01259914855, 1e-8));
}

TEST("Overlapping groups are within the noise") {
  double c[] = {100, 104, 98}, e[] = {101, 97, 105};
  struct cmp_stat sc, se;
  summarize(c, 3, &sc);
  summarize(e, 3, &se);
  struct cmp_diff d;
  render_cmp_welch(&sc, &se, &d);
  CHECK(d.ok && !d.beyond);
  CHECK(near(d.p, 0.914566832369, 1e-8));
  CHECK(d.lo_pct < 0 && d.hi_pct > 0);
}

TEST("At n = 1 a difference is never beyond the noise, however large") {
  double a[] = {100}, b[] = {50, 51, 49};
  struct cmp_stat sa, sb;
  summarize(a, 1, &sa);
  summarize(b, 3, &sb);
  struct cmp_diff d;
  render_cmp_welch(&sa, &sb, &d);
  CHECK(d.ok && !d.beyond && near(d.pct, -50, 1e-12) && isnan(d.p) && isnan(d.lo_pct));
  render_cmp_welch(&sb, &sa, &d);
  CHECK(d.ok && !d.beyond);
}

TEST("Groups that each repeat one value differ exactly, and equal ones not at all") {
  double a[] = {10, 10}, b[] = {12, 12, 12}, c[] = {10, 10, 10};
  struct cmp_stat sa, sb, sc;
  summarize(a, 2, &sa);
  summarize(b, 3, &sb);
  summarize(c, 3, &sc);
  struct cmp_diff d;
  render_cmp_welch(&sa, &sb, &d);
  CHECK(d.beyond && d.p == 0 && near(d.pct, 20, 1e-12) && d.lo_pct == d.hi_pct);
  render_cmp_welch(&sa, &sc, &d);
  CHECK(!d.beyond && d.p == 1 && d.pct == 0);
}
