/* recovery.c — the cache_recovery chart: recovered SLC cache (GiB) against
 * the idle time before the write, one line per drive, the idle on a log
 * axis (5 s to 10 min by default). A lower bound (the write reached its
 * bound still in the cache) is an open marker with "≥". Called through a
 * row of the chart table (render/chart/charts.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "render/render_int.h"

#define REC_MAX_PTS 16
#define REC_MAX_SEL 16

/* The value of a point: recovered GiB, else its lower bound (*bound = 1). */
static double point_gib(const json_t *p, int *bound) {
  double g = render_data_num(p, "recovered_gib", NAN);
  *bound = 0;
  if (!isfinite(g)) {
    g = render_data_num(p, "at_least_gib", NAN);
    *bound = isfinite(g);
  }
  return g;
}

int render_chart_recovery_check(const struct render_run *const *runs, size_t n, struct ssdrev_err *err) {
  for (size_t i = 0; i < n; i++)
    if (render_run_recovery_measured(runs[i])) return 0;
  return render_recovery_missing(runs, n, err);
}

void render_chart_recovery_draw(struct render_canvas *c, enum render_lang lang, const struct render_run *const *runs,
                                const size_t *idx, size_t n) {
  double lo = INFINITY, hi = 0, ymax = 0;
  for (size_t i = 0; i < n; i++) {
    size_t k;
    json_t *p;
    json_array_foreach(json_object_get(json_object_get(runs[i]->analysis, "cache_recovery"), "points"), k, p) {
      double t = render_data_num(p, "idle_s", NAN);
      int b;
      double g = point_gib(p, &b);
      if (isfinite(t) && t > 0) lo = fmin(lo, t), hi = fmax(hi, t);
      if (isfinite(g)) ymax = fmax(ymax, g);
    }
  }
  if (!(hi > 0)) lo = 1, hi = 10;
  struct render_plot p = {0};
  p.x.scale = RC_LOG;
  p.x.lo = lo / 1.5;
  p.x.hi = hi * 1.5;
  p.x.label = render_msg(lang, MSG_C_IDLE_AX);
  double yy[2] = {0, (ymax > 0 ? ymax : 1) * 1.3}; /* head room: the legend sits above the lines */
  render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  p.y.label = render_msg(lang, MSG_C_RECOVERED_AX);
  char title[200];
  snprintf(title, sizeof title, "%s%s%s", render_msg(lang, MSG_C_RECOVERY), n == 1 ? " — " : "",
           n == 1 ? runs[0]->label : "");
  render_canvas_plot_frame(c, &p, title);
  cairo_t *cr = c->cr;
  struct render_legend_item leg[REC_MAX_SEL + 1] = {0};
  size_t nl = 0;
  int any_bound = 0;
  for (size_t i = 0; i < n && i < REC_MAX_SEL; i++) {
    double rgb[3], xs[REC_MAX_PTS], ys[REC_MAX_PTS];
    int bnd[REC_MAX_PTS];
    render_palette(idx[i], rgb);
    size_t m = 0, k;
    json_t *pt;
    json_array_foreach(json_object_get(json_object_get(runs[i]->analysis, "cache_recovery"), "points"), k, pt) {
      if (m == REC_MAX_PTS) break;
      xs[m] = render_data_num(pt, "idle_s", NAN);
      ys[m] = point_gib(pt, &bnd[m]);
      m++;
    }
    render_canvas_polyline(cr, &p, xs, ys, m, rgb, 1.3, 0);
    for (size_t j = 0; j < m; j++) {
      if (!isfinite(xs[j]) || !isfinite(ys[j])) continue;
      render_canvas_marker(cr, &p, xs[j], ys[j], rgb, 0);
      if (!bnd[j]) continue;
      /* a lower bound: hollowed out, with "≥" beside it */
      any_bound = 1;
      double mx = render_canvas_px(&p, xs[j]), my = render_canvas_py(&p, ys[j]);
      cairo_set_source_rgb(cr, 1, 1, 1);
      cairo_new_path(cr);
      cairo_arc(cr, mx, my, 1.6, 0, 2 * M_PI);
      cairo_fill(cr);
      cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
      render_canvas_text(cr, mx + 4, my - 4, "≥", 8, 0, RC_LEFT);
    }
    snprintf(leg[nl].text, sizeof leg[nl].text, "%s", runs[i]->label);
    memcpy(leg[nl].rgb, rgb, sizeof rgb);
    leg[nl++].shape = 0;
  }
  if (any_bound) {
    snprintf(leg[nl].text, sizeof leg[nl].text, "%s", render_msg(lang, MSG_C_AT_LEAST_LEG));
    leg[nl].rgb[0] = leg[nl].rgb[1] = leg[nl].rgb[2] = 0.35;
    leg[nl++].shape = -1;
  }
  render_canvas_legend(cr, &p, leg, nl, 1);
}
