/* pts.c — the SNIA PTS steady-state rule over a tracking variable per
 * round (docs/method.md "Steady state"): within a measurement window of
 * `window` rounds (5 in the PTS), the range of the values is within 20% of
 * their mean and the least-squares best-fit line rises or falls across the
 * window by no more than 10% of that mean. */
#include <errno.h>
#include <math.h>
#include "bench/bench.h"

int bench_pts_judge(const double *y, size_t last, unsigned window, struct bench_pts_window *w) {
  if (window < 2 || last + 1 < window) return -EINVAL;
  size_t first = last + 1 - window;
  double sx = 0, sy = 0, sxx = 0, sxy = 0, mn = INFINITY, mx = -INFINITY;
  for (size_t i = first; i <= last; i++) {
    if (!isfinite(y[i])) return -EINVAL;
    double x = (double)(i + 1); /* rounds are numbered from 1, as the PTS plots them */
    sx += x, sy += y[i], sxx += x * x, sxy += x * y[i];
    mn = fmin(mn, y[i]), mx = fmax(mx, y[i]);
  }
  double n = window, mean = sy / n, den = n * sxx - sx * sx;
  w->first = first;
  w->last = last;
  w->mean = mean;
  w->min = mn;
  w->max = mx;
  w->slope = den != 0 ? (n * sxy - sx * sy) / den : 0;
  w->intercept = (sy - w->slope * sx) / n;
  w->range_pct = mean > 0 ? 100 * (mx - mn) / mean : INFINITY;
  w->excursion_pct = mean > 0 ? 100 * fabs(w->slope) * (n - 1) / mean : INFINITY;
  w->steady = mean > 0 && w->range_pct <= BENCH_PTS_RANGE_PCT && w->excursion_pct <= BENCH_PTS_SLOPE_PCT;
  return 0;
}

size_t bench_pts_first_steady(const double *y, size_t n, unsigned window, struct bench_pts_window *w) {
  for (size_t last = window ? window - 1 : 0; last < n; last++) {
    if (bench_pts_judge(y, last, window, w)) return 0;
    if (w->steady) return last + 1;
  }
  return 0;
}
