/* steady.c — chart kinds of the steady-state and consistency analyses:
 * the SNIA PTS convergence plot (IOPS per round, the measurement window's
 * mean with ±10% and ±20% bands and its best-fit line) and the
 * AnandTech-style consistency scatter (IOPS per second and per 100 ms as
 * dots, linear or log y) with the p99.9 latency per second. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "render/chart/chart_int.h"

/* ============================================================ steady state */

static const json_t *ss_of(const struct render_run *r) { return json_object_get(r->analysis, "steady_state"); }

int render_chart_steady_check(struct chart_ctx *x) {
  if (!json_array_size(json_object_get(ss_of(x->run[0]), "rounds")))
    return render_msg_fail(x->err, -ENOENT, MSG_MISS_STEADY, x->run[0]->label, NULL);
  return 0;
}

void render_chart_steady_draw(struct chart_ctx *x) {
  const json_t *ss = ss_of(x->run[0]), *rounds = json_object_get(ss, "rounds"), *w = json_object_get(ss, "window");
  size_t n = json_array_size(rounds);
  double *xs = calloc(n + 1, sizeof *xs), *ys = calloc(n + 1, sizeof *ys);
  if (!xs || !ys) {
    free(xs), free(ys);
    return;
  }
  double yhi = 0;
  for (size_t i = 0; i < n; i++) {
    xs[i] = render_data_num(json_array_get(rounds, i), "round", (double)i + 1);
    ys[i] = render_data_num(json_array_get(rounds, i), "iops", NAN);
    if (isfinite(ys[i])) yhi = fmax(yhi, ys[i]);
  }
  double mean = render_data_num(w, "mean_iops", NAN);
  if (isfinite(mean)) yhi = fmax(yhi, 1.2 * mean);
  struct render_plot p = {0};
  p.x.lo = 0.5;
  p.x.hi = (double)n + 0.5;
  p.x.label = M(MSG_C_ROUND_AX);
  double yy[2] = {0, yhi * 1.3}; /* headroom for the legend */
  render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  p.y.label = M(MSG_C_IOPS_AX);
  char title[256];
  snprintf(title, sizeof title, "%s — %s", M(MSG_C_SS_TITLE), x->run[0]->label);
  render_canvas_plot_frame(x->c, &p, title);
  double rgb[3], grey[3] = {0.35, 0.35, 0.35}, band[3] = {0.55, 0.55, 0.55}, fit[3] = {0.80, 0.20, 0.15};
  colour(x, 0, rgb);
  struct render_legend_item leg[5] = {0};
  size_t nl = 0;
  if (w) {
    /* the window's mean, its bands and the best-fit line over its rounds */
    double f = render_data_num(w, "first_round", 1), l = render_data_num(w, "last_round", 1);
    double bx[2] = {f - 0.3, l + 0.3};
    double lv[5] = {mean, 0.9 * mean, 1.1 * mean, 0.8 * mean, 1.2 * mean};
    for (int k = 0; k < 5; k++) {
      double by[2] = {lv[k], lv[k]};
      render_canvas_polyline(x->c->cr, &p, bx, by, 2, k ? band : grey, k ? 0.8 : 1.2, k == 0 ? 0 : k < 3 ? 1 : 2);
    }
    snprintf(leg[1].text, sizeof leg[1].text, "%s", M(MSG_C_SS_MEAN));
    memcpy(leg[1].rgb, grey, sizeof grey);
    leg[1].shape = -1;
    snprintf(leg[2].text, sizeof leg[2].text, "%s", M(MSG_C_SS_BAND10));
    memcpy(leg[2].rgb, band, sizeof band);
    leg[2].dashed = 1, leg[2].shape = -1;
    snprintf(leg[3].text, sizeof leg[3].text, "%s", M(MSG_C_SS_BAND20));
    memcpy(leg[3].rgb, band, sizeof band);
    leg[3].dashed = 2, leg[3].shape = -1;
    snprintf(leg[4].text, sizeof leg[4].text, "%s", M(MSG_C_SS_FIT));
    memcpy(leg[4].rgb, fit, sizeof fit);
    leg[4].shape = -1;
    nl = 5;
  }
  render_canvas_polyline(x->c->cr, &p, xs, ys, n, rgb, 1.0, 0);
  for (size_t i = 0; i < n; i++) render_canvas_marker(x->c->cr, &p, xs[i], ys[i], rgb, 0);
  if (w) { /* the best-fit line over the window, on top of the rounds */
    double f = render_data_num(w, "first_round", 1), l = render_data_num(w, "last_round", 1);
    double sl = render_data_num(w, "slope_iops_per_round", 0), ic = render_data_num(w, "intercept", mean);
    double fx[2] = {f, l}, fy[2] = {ic + sl * f, ic + sl * l};
    render_canvas_polyline(x->c->cr, &p, fx, fy, 2, fit, 1.6, 0);
  }
  snprintf(leg[0].text, sizeof leg[0].text, "%s", M(MSG_C_SS_IOPS));
  memcpy(leg[0].rgb, rgb, sizeof rgb);
  if (!nl) nl = 1;
  render_canvas_legend(x->c->cr, &p, leg, nl, 0);
  free(xs), free(ys);
}

/* ============================================================= consistency */

static const json_t *cons_of(const struct render_run *r) {
  return json_array_get(json_object_get(r->analysis, "consistency"), 0);
}

int render_chart_cons_check(struct chart_ctx *x) {
  if (!json_array_size(json_object_get(json_object_get(cons_of(x->run[0]), "per_s"), "iops")))
    return render_msg_fail(x->err, -ENOENT, MSG_MISS_CONSIST_SERIES, x->run[0]->label, NULL);
  return 0;
}

static size_t load(const json_t *ser, const char *ky, double **xs, double **ys) {
  const json_t *t = json_object_get(ser, "t_s"), *v = json_object_get(ser, ky);
  size_t n = json_array_size(t) < json_array_size(v) ? json_array_size(t) : json_array_size(v);
  *xs = calloc(n + 1, sizeof **xs);
  *ys = calloc(n + 1, sizeof **ys);
  if (!*xs || !*ys) return 0;
  for (size_t i = 0; i < n; i++) {
    (*xs)[i] = json_number_value(json_array_get(t, i));
    (*ys)[i] = json_number_value(json_array_get(v, i));
  }
  return n;
}

/* A dot: a small filled square (thousands of them: markers would be a blur). */
static void dot(cairo_t *cr, const struct render_plot *p, double xv, double yv, double r) {
  if (!isfinite(yv) || yv < p->y.lo || yv > p->y.hi || xv < p->x.lo || xv > p->x.hi) return;
  cairo_rectangle(cr, render_canvas_px(p, xv) - r, render_canvas_py(p, yv) - r, 2 * r, 2 * r);
}

static void cons_scatter(struct chart_ctx *x, int log_y) {
  const json_t *c = cons_of(x->run[0]);
  double *sx = NULL, *sy = NULL, *fx = NULL, *fy = NULL;
  size_t ns = load(json_object_get(c, "per_s"), "iops", &sx, &sy);
  size_t nf = load(json_object_get(c, "per_fine"), "iops", &fx, &fy);
  double ylo = INFINITY, yhi = 0, xhi = 1;
  for (size_t i = 0; i < nf; i++)
    if (fy[i] > 0) ylo = fmin(ylo, fy[i]), yhi = fmax(yhi, fy[i]);
  for (size_t i = 0; i < ns; i++) {
    if (sy[i] > 0) ylo = fmin(ylo, sy[i]), yhi = fmax(yhi, sy[i]);
    xhi = fmax(xhi, sx[i] + 1);
  }
  if (!(yhi > 0)) ylo = 1, yhi = 10;
  struct render_plot p = {0};
  p.x.lo = 0;
  p.x.hi = xhi;
  p.x.label = M(MSG_C_TIME_AX);
  if (log_y) {
    p.y.scale = RC_LOG;
    p.y.lo = pow(10, floor(log10(ylo)));
    p.y.hi = pow(10, ceil(log10(yhi * 2)));
  } else {
    double yy[2] = {0, yhi * 1.25};
    render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  }
  p.y.label = M(MSG_C_IOPS_AX);
  char title[256];
  snprintf(title, sizeof title, "%s — %s", M(log_y ? MSG_C_CONS_LOG_TITLE : MSG_C_CONS_TITLE), x->run[0]->label);
  render_canvas_plot_frame(x->c, &p, title);
  cairo_t *cr = x->c->cr;
  double rgb[3], light[3];
  colour(x, 0, rgb);
  for (int k = 0; k < 3; k++) light[k] = 0.55 + 0.45 * rgb[k] * 0.6;
  /* the steady region, shaded */
  const json_t *st = json_object_get(c, "steady");
  if (st) {
    double a = render_canvas_px(&p, render_data_num(st, "from_s", 0)), b = render_canvas_px(&p, render_data_num(st, "to_s", 0));
    cairo_set_source_rgba(cr, 0.5, 0.5, 0.5, 0.10);
    cairo_rectangle(cr, a, p.y0, b - a, p.y1 - p.y0);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, light[0], light[1], light[2]);
  for (size_t i = 0; i < nf; i++) dot(cr, &p, fx[i], fy[i], 0.7);
  cairo_fill(cr);
  cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
  for (size_t i = 0; i < ns; i++) dot(cr, &p, sx[i] + 0.5, sy[i], 1.3); /* a second's dot at its middle */
  cairo_fill(cr);
  struct render_legend_item leg[3] = {0};
  snprintf(leg[0].text, sizeof leg[0].text, "%s", M(MSG_C_CONS_PER_S));
  memcpy(leg[0].rgb, rgb, sizeof rgb);
  leg[0].shape = 0;
  snprintf(leg[1].text, sizeof leg[1].text, "%s", M(MSG_C_CONS_PER_FINE));
  memcpy(leg[1].rgb, light, sizeof light);
  leg[1].shape = 0;
  size_t nl = 2;
  if (st) {
    snprintf(leg[2].text, sizeof leg[2].text, "%s", M(MSG_C_CONS_STEADY));
    leg[2].rgb[0] = leg[2].rgb[1] = leg[2].rgb[2] = 0.8;
    leg[2].shape = -1;
    nl = 3;
  }
  render_canvas_legend(cr, &p, leg, nl, 0);
  free(sx), free(sy), free(fx), free(fy);
}

void render_chart_cons_draw(struct chart_ctx *x) { cons_scatter(x, 0); }
void render_chart_cons_log_draw(struct chart_ctx *x) { cons_scatter(x, 1); }

void render_chart_cons_lat_draw(struct chart_ctx *x) {
  const json_t *c = cons_of(x->run[0]);
  double *sx = NULL, *sy = NULL;
  size_t n = load(json_object_get(c, "per_s"), "p99_9_us", &sx, &sy);
  double ylo = INFINITY, yhi = 0, xhi = 1;
  for (size_t i = 0; i < n; i++) {
    if (sy[i] > 0) ylo = fmin(ylo, sy[i]), yhi = fmax(yhi, sy[i]);
    xhi = fmax(xhi, sx[i] + 1);
  }
  if (!(yhi > 0)) ylo = 1, yhi = 10;
  struct render_plot p = {0};
  p.x.lo = 0;
  p.x.hi = xhi;
  p.x.label = M(MSG_C_TIME_AX);
  p.y.scale = RC_LOG;
  p.y.lo = pow(10, floor(log10(ylo)));
  p.y.hi = pow(10, ceil(log10(yhi * 1.5)));
  p.y.label = M(MSG_C_P999_AX);
  char title[256];
  snprintf(title, sizeof title, "%s — %s", M(MSG_C_CONS_LAT_TITLE), x->run[0]->label);
  render_canvas_plot_frame(x->c, &p, title);
  double rgb[3];
  colour(x, 0, rgb);
  cairo_set_source_rgb(x->c->cr, rgb[0], rgb[1], rgb[2]);
  for (size_t i = 0; i < n; i++) dot(x->c->cr, &p, sx[i] + 0.5, sy[i], 1.3);
  cairo_fill(x->c->cr);
  free(sx), free(sy);
}
