/* thermal.c — the thermal chart kind: one drive's sustained write speed
 * (left axis) and controller temperature (right axis) on the thermal
 * step's time axis (analysis thermal[], analyze/thermal.c), the throttling
 * points as dashed verticals and the other throughput drops (an SLC cliff)
 * as dotted ones. charts.c holds the table row and calls this. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "render/render_int.h"
#include "render/msg_int.h"

#define TH_MAX_PTS 8192

/* Reads o[kx], o[ky] into new arrays (at most TH_MAX_PTS pairs). */
static size_t th_xy(const json_t *o, const char *kx, const char *ky, double **xs, double **ys) {
  const json_t *a = json_object_get(o, kx), *b = json_object_get(o, ky);
  size_t n = json_array_size(a) < json_array_size(b) ? json_array_size(a) : json_array_size(b);
  if (n > TH_MAX_PTS) n = TH_MAX_PTS;
  *xs = calloc(n ? n : 1, sizeof **xs);
  *ys = calloc(n ? n : 1, sizeof **ys);
  if (!*xs || !*ys) return 0;
  for (size_t i = 0; i < n; i++) {
    const json_t *x = json_array_get(a, i), *y = json_array_get(b, i);
    (*xs)[i] = json_is_number(x) ? json_number_value(x) : NAN;
    (*ys)[i] = json_is_number(y) ? json_number_value(y) : NAN;
  }
  return n;
}

/* A vertical at t (seconds, already scaled) with a label at its top. */
/* *END: where the last label of the mark's row ends; a label that would
 * start before it is left out (the line stays), so two close marks do not
 * print "dropdrop". */
static void th_mark(cairo_t *cr, const struct render_plot *p, double t, const char *label, int thermal, double *end) {
  double px = render_canvas_px(p, t);
  if (!(px >= p->x0 && px <= p->x1)) return;
  static const double dash[] = {3, 2}, dot[] = {1, 2};
  cairo_save(cr);
  cairo_set_dash(cr, thermal ? dash : dot, 2, 0);
  cairo_set_line_width(cr, thermal ? 1.0 : 0.7);
  if (thermal) cairo_set_source_rgb(cr, 0.80, 0.15, 0.10);
  else cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
  cairo_move_to(cr, px, p->y0);
  cairo_line_to(cr, px, p->y1);
  cairo_stroke(cr);
  cairo_restore(cr);
  /* throttles labelled at the top, other drops at the bottom: a cliff a
   * few seconds before a throttle would otherwise print over it */
  if (px + 2 < *end + 3) return;
  render_canvas_text(cr, px + 2, thermal ? p->y0 + 9 : p->y1 - 4, label, 7, thermal, RC_LEFT);
  *end = px + 2 + render_canvas_text_width(cr, label, 7, thermal);
}

const json_t *render_chart_thermal_of(const json_t *analysis) {
  const json_t *th = json_object_get(analysis, "thermal");
  const json_t *t = json_array_get(th, 0);
  return json_array_size(json_object_get(t, "mb_s")) ? t : NULL;
}

void render_chart_thermal_draw(struct render_canvas *c, const json_t *th, enum render_lang lang, const char *label,
                               const double w_rgb[3]) {
  double *tx = NULL, *tv = NULL, *sx = NULL, *sc = NULL;
  size_t nt = th_xy(th, "t_s", "mb_s", &tx, &tv), ns = th_xy(th, "temp_t_s", "temp_c", &sx, &sc);
  double tmax = 0, wmax = 0, clo = INFINITY, chi = -INFINITY;
  for (size_t k = 0; k < nt; k++) {
    if (isfinite(tx[k]) && tx[k] > tmax) tmax = tx[k];
    if (isfinite(tv[k]) && tv[k] > wmax) wmax = tv[k];
  }
  for (size_t k = 0; k < ns; k++) {
    if (isfinite(sx[k]) && sx[k] > tmax) tmax = sx[k];
    if (isfinite(sc[k])) clo = fmin(clo, sc[k]), chi = fmax(chi, sc[k]);
  }
  double warn = json_number_value(json_object_get(th, "warn_temp_c"));
  if (warn > 0 && isfinite(chi)) chi = fmax(chi, warn);
  /* minutes once the write is longer than ten of them */
  double scale = tmax > 600 ? 60 : 1;
  for (size_t k = 0; k < nt; k++) tx[k] /= scale;
  for (size_t k = 0; k < ns; k++) sx[k] /= scale;
  struct render_plot p = {0};
  p.bottom_pt = RENDER_CHART_THERMAL_LEG_PT;
  p.x.lo = 0;
  p.x.hi = tmax > 0 ? tmax / scale : 1;
  p.x.label = render_msg(lang, scale > 1 ? MSG_C_TIME_MIN_AX : MSG_C_TIME_AX);
  double wyy[2] = {0, wmax > 0 ? wmax : 1};
  render_canvas_range(wyy, 2, &p.y.lo, &p.y.hi, 1);
  p.y.label = render_msg(lang, MSG_C_WRITE_TPUT);
  /* the temperature axis on the right: its own range, ticks and name */
  /* headroom above the hottest sample keeps the curve clear of the
   * throttle marks' labels at the top */
  if (isfinite(clo) && isfinite(chi)) chi += 0.3 * (chi - clo > 5 ? chi - clo : 5);
  double clh[2] = {isfinite(clo) ? clo : 20, isfinite(chi) ? chi : 80}, tlo, thi;
  render_canvas_range(clh, 2, &tlo, &thi, 0);
  double tstep = render_canvas_nice_step(tlo, thi, 6);
  char wl[32];
  render_canvas_fmt_tick(wl, sizeof wl, thi, tstep);
  p.right_pt = ns ? 4 + render_canvas_text_width(c->cr, wl, 8, 0) + 6 + 9 + 4 : 0;
  struct render_buf title = {0};
  json_t *tparams = json_pack("{s:s}", "label", label ? label : "");
  render_msg_put(&title, lang, MSG_C_THERMAL_TITLE, tparams);
  json_decref(tparams);
  render_canvas_plot_frame(c, &p, title.s ? title.s : "");
  render_buf_free(&title);
  cairo_t *cr = c->cr;
  double tc_rgb[3] = {0.80, 0.15, 0.10};
  render_canvas_polyline(cr, &p, tx, tv, nt, w_rgb, 1.0, 0);
  if (ns) {
    struct render_plot q = p;
    q.y.lo = tlo;
    q.y.hi = thi;
    q.y.scale = RC_LINEAR;
    render_canvas_polyline(cr, &q, sx, sc, ns, tc_rgb, 1.6, 0);
    if (warn > 0) { /* the drive's warning threshold, thin, on the temperature axis */
      double wx[2] = {p.x.lo, p.x.hi}, wy[2] = {warn, warn};
      render_canvas_polyline(cr, &q, wx, wy, 2, tc_rgb, 0.5, 1);
    }
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    for (double v = tlo; v <= thi + tstep * 1e-6; v += tstep) {
      char lab[32];
      render_canvas_fmt_tick(lab, sizeof lab, v, tstep);
      render_canvas_text(cr, p.x1 + 4, render_canvas_py(&q, v) + 8 * 0.35, lab, 8, 0, RC_LEFT);
    }
    cairo_save(cr);
    cairo_translate(cr, c->w_pt - 8, (p.y0 + p.y1) / 2);
    cairo_rotate(cr, -M_PI / 2);
    render_canvas_text(cr, 0, 0, render_msg(lang, MSG_C_TEMP_AX), 9, 0, RC_CENTER);
    cairo_restore(cr);
  }
  size_t i;
  const json_t *pt;
  /* the legend below the plot, in the room kept for it: in a corner it
   * lay over the end of the write line (a write still in its SLC cache at
   * the top right) or over a throttle mark's label (issue 27) */
  struct render_legend_item leg[2] = {0};
  snprintf(leg[0].text, sizeof leg[0].text, "%s", render_msg(lang, MSG_C_THERMAL_WRITE_LEG));
  memcpy(leg[0].rgb, w_rgb, sizeof leg[0].rgb);
  leg[0].shape = -1;
  snprintf(leg[1].text, sizeof leg[1].text, "%s", render_msg(lang, MSG_C_THERMAL_TEMP_LEG));
  memcpy(leg[1].rgb, tc_rgb, sizeof tc_rgb);
  leg[1].shape = -1;
  render_canvas_legend_below(cr, &p, leg, ns ? 2 : 1);
  /* the throttle and the drops the table lists (the largest few): every
   * dip of a GC-bound write marked ran its labels into one smear */
  size_t keep[RENDER_THERMAL_DROPS_MAX], nk = render_data_thermal_drops(th, keep, NULL);
  double end[2] = {-INFINITY, -INFINITY}; /* the rows: drops at the bottom, throttles at the top */
  json_array_foreach(json_object_get(th, "points"), i, pt) {
    int thermal = json_is_true(json_object_get(pt, "thermal"));
    if (!thermal && !render_data_thermal_kept(keep, nk, i)) continue;
    double t = json_number_value(json_object_get(pt, "t_s")) / scale;
    th_mark(cr, &p, t, render_msg(lang, thermal ? MSG_C_THROTTLE : MSG_C_DROP), thermal, &end[thermal]);
  }
  free(tx), free(tv), free(sx), free(sc);
}
