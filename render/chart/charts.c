/* charts.c — the chart kinds, one table of draw functions, and
 * render_chart_file, which picks the runs, opens the canvas and draws. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "render/render_int.h"
#include "log/ssdlog.h"

#define MAX_SEL 16
#define MAX_PTS 4096
/* Log-spaced latency bins: HIST_PER_DECADE per decade from 1 µs to 100 ms. */
#define HIST_PER_DECADE 20
#define HIST_BINS (5 * HIST_PER_DECADE)

/* Per-chart working arrays, too big for the stack and not static so that
 * render_chart_file may run on several threads at once (no shared scratch). */
struct chart_scratch {
  double xs[MAX_SEL][MAX_PTS], ys[MAX_SEL][MAX_PTS], zs[MAX_SEL][MAX_PTS];
  double hist[MAX_SEL][HIST_BINS]; /* hist_check fills, hist_draw reads */
};

struct chart_ctx {
  const struct render_run *run[MAX_SEL]; /* selected runs */
  size_t idx[MAX_SEL];                   /* their index in the set = palette colour */
  size_t n;
  const struct render_chart_opts *o;
  struct render_canvas *c;
  struct ssdrev_err *err;
  struct chart_scratch *s; /* calloc'd by chart_prepare; the caller frees */
};

struct chart_kind {
  const char *name;
  const char *summary;
  int one_drive;    /* draws a single drive (drive=all makes one chart each) */
  double height_in; /* default height */
  /* checks the data is there (before any file is opened) */
  int (*check)(struct chart_ctx *x);
  void (*draw)(struct chart_ctx *x);
  const char *args; /* the options it uses of state, op, workload, test; any other is an error */
};

static void colour(const struct chart_ctx *x, size_t i, double rgb[3]) { render_palette(x->idx[i], rgb); }

static const char *state_of(const struct chart_ctx *x) { return x->o->state ? x->o->state : "FOB"; }

/* ===================================================== CrystalDiskMark panel */

static int cdm_check(struct chart_ctx *x) {
  json_t *cells[16];
  if (!render_data_cdm_cells(x->run[0], state_of(x), cells, 16))
    return ssdrev_fail(x->err, -ENOENT, "run '%s' has no CrystalDiskMark results in state '%s'",
                       x->run[0]->label, state_of(x));
  return 0;
}

static void cdm_box(cairo_t *cr, double bx, double by, double bw, double bh, const json_t *m) {
  cairo_set_source_rgb(cr, 0.97, 0.97, 0.93);
  cairo_rectangle(cr, bx, by, bw, bh);
  cairo_fill_preserve(cr);
  cairo_set_source_rgb(cr, 0.55, 0.55, 0.50);
  cairo_set_line_width(cr, 0.7);
  cairo_stroke(cr);
  char big[32], small[96];
  if (json_is_object(m)) {
    /* an imported CrystalDiskMark value as its file wrote it */
    const json_t *t = json_object_get(m, "text");
    const char *tm = json_string_value(json_object_get(t, "mb_s")), *ti = json_string_value(json_object_get(t, "iops")),
               *tl = json_string_value(json_object_get(t, "lat_us"));
    char iops[40], lat[40];
    if (tm) snprintf(big, sizeof big, "%s", tm);
    else snprintf(big, sizeof big, "%.2f", render_data_num(m, "mb_s", 0));
    if (ti) snprintf(iops, sizeof iops, "%s", ti);
    else snprintf(iops, sizeof iops, "%.1f", render_data_num(m, "iops", 0));
    if (tl) snprintf(lat, sizeof lat, "%s", tl);
    else snprintf(lat, sizeof lat, "%.2f", render_data_num(m, "lat_us", 0));
    snprintf(small, sizeof small, "%s IOPS   %s µs", iops, lat);
  } else {
    snprintf(big, sizeof big, "-");
    small[0] = 0;
  }
  cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
  double fs = bh * 0.46;
  render_canvas_text(cr, bx + bw - 8, by + bh * 0.56, big, fs, 0, RC_RIGHT);
  cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
  render_canvas_text(cr, bx + bw - 8, by + bh - 4, small, bh * 0.16, 0, RC_RIGHT);
}

static void cdm_draw(struct chart_ctx *x) {
  cairo_t *cr = x->c->cr;
  json_t *cells[16];
  size_t n = render_data_cdm_cells(x->run[0], state_of(x), cells, 16);
  double W = x->c->w_pt, H = x->c->h_pt, rgb[3];
  colour(x, 0, rgb);
  /* title bar in the drive's colour */
  cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
  cairo_rectangle(cr, 0, 0, W, 26);
  cairo_fill(cr);
  char title[256];
  snprintf(title, sizeof title, "%s — %s", x->run[0]->label, state_of(x));
  cairo_set_source_rgb(cr, 1, 1, 1);
  render_canvas_text(cr, 10, 17.5, title, 12, 1, RC_LEFT);
  const char *prof = render_data_str(cells[0], "profile", "default");
  char sub[96];
  snprintf(sub, sizeof sub, "CrystalDiskMark-style, profile %s", prof);
  render_canvas_text(cr, W - 10, 17, sub, 8, 0, RC_RIGHT);

  const double top = 34, head = 16, pad = 6, labw = 96;
  /* CrystalDiskMark's Mix panel is a third column when the run has it */
  int mix = 0;
  for (size_t i = 0; i < n; i++) mix |= json_is_object(json_object_get(cells[i], "mix"));
  int ncol = mix ? 3 : 2;
  double colw = (W - 2 * pad - labw - ncol * pad) / ncol;
  double rowh = (H - top - head - pad) / (double)n - pad;
  if (rowh > 60) rowh = 60;
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  render_canvas_text(cr, pad + labw + pad + colw / 2, top + 11, "Read [MB/s]", 10, 1, RC_CENTER);
  render_canvas_text(cr, pad + labw + 2 * pad + colw * 1.5, top + 11, "Write [MB/s]", 10, 1, RC_CENTER);
  if (mix) render_canvas_text(cr, pad + labw + 3 * pad + colw * 2.5, top + 11, "Mix [MB/s]", 10, 1, RC_CENTER);
  for (size_t i = 0; i < n; i++) {
    double y = top + head + i * (rowh + pad);
    /* CDM's green test buttons */
    cairo_set_source_rgb(cr, 0.20, 0.55, 0.25);
    cairo_rectangle(cr, pad, y, labw, rowh);
    cairo_fill(cr);
    char a[64], b[64];
    const char *cell = render_data_str(cells[i], "cell", "?");
    const char *sp = strchr(cell, ' ');
    if (sp) {
      snprintf(a, sizeof a, "%.*s", (int)(sp - cell), cell);
      snprintf(b, sizeof b, "%s", sp + 1);
    } else {
      snprintf(a, sizeof a, "%s", cell);
      b[0] = 0;
    }
    cairo_set_source_rgb(cr, 1, 1, 1);
    double fs = rowh * 0.27 > 13 ? 13 : rowh * 0.27;
    render_canvas_text(cr, pad + labw / 2, y + rowh / 2 - 1, a, fs, 1, RC_CENTER);
    render_canvas_text(cr, pad + labw / 2, y + rowh / 2 + fs + 1, b, fs * 0.9, 0, RC_CENTER);
    cdm_box(cr, pad + labw + pad, y, colw, rowh, json_object_get(cells[i], "read"));
    cdm_box(cr, pad + labw + 2 * pad + colw, y, colw, rowh, json_object_get(cells[i], "write"));
    if (mix) cdm_box(cr, pad + labw + 3 * pad + 2 * colw, y, colw, rowh, json_object_get(cells[i], "mix"));
  }
}

/* ============================================================== fill drive */

static json_t *fill_of(const struct render_run *r) { return json_object_get(r->analysis, "fill"); }

/* A chart over several runs is drawn when any run has its data; the others
 * are named "not measured" in its legend (the review notes no more than
 * what is missing). Only when none has it is the chart itself missing. */
static int fill_has(const struct render_run *r, const char *ykey) {
  json_t *pg = json_object_get(fill_of(r), "per_gib");
  return json_array_size(json_object_get(pg, "gib")) && json_array_size(json_object_get(pg, ykey));
}

static int fill_check(struct chart_ctx *x) {
  for (size_t i = 0; i < x->n; i++)
    if (fill_has(x->run[i], "mb_s")) return 0;
  return ssdrev_fail(x->err, -ENOENT, "run '%s' has no fill-drive trace (analysis fill.per_gib)", x->run[0]->label);
}

static size_t load_xy(const json_t *obj, const char *kx, const char *ky, double *xs, double *ys) {
  json_t *ax = json_object_get(obj, kx), *ay = json_object_get(obj, ky);
  size_t n = json_array_size(ax) < json_array_size(ay) ? json_array_size(ax) : json_array_size(ay);
  if (n > MAX_PTS) n = MAX_PTS;
  for (size_t i = 0; i < n; i++) {
    json_t *vx = json_array_get(ax, i), *vy = json_array_get(ay, i);
    xs[i] = json_is_number(vx) ? json_number_value(vx) : NAN;
    ys[i] = json_is_number(vy) ? json_number_value(vy) : NAN;
  }
  return n;
}

static void fill_draw_common(struct chart_ctx *x, const char *ykey, int logy, const char *ylabel,
                             const char *title) {
  double(*xs)[MAX_PTS] = x->s->xs, (*ys)[MAX_PTS] = x->s->ys;
  size_t np[MAX_SEL];
  double allx[2] = {0, 0}, ymin = INFINITY, ymax = 0;
  for (size_t i = 0; i < x->n; i++) {
    np[i] = load_xy(json_object_get(fill_of(x->run[i]), "per_gib"), "gib", ykey, xs[i], ys[i]);
    for (size_t k = 0; k < np[i]; k++) {
      if (xs[i][k] > allx[1]) allx[1] = xs[i][k];
      if (isfinite(ys[i][k]) && ys[i][k] > ymax) ymax = ys[i][k];
      if (isfinite(ys[i][k]) && ys[i][k] > 0 && ys[i][k] < ymin) ymin = ys[i][k];
    }
  }
  struct render_plot p = {0};
  render_canvas_range(allx, 2, &p.x.lo, &p.x.hi, 1);
  p.x.hi = allx[1] > 0 ? allx[1] : 1; /* the drive's end is the axis end */
  p.x.label = "Data written [GiB]";
  if (logy) {
    p.y.scale = RC_LOG;
    p.y.lo = pow(10, floor(log10(isfinite(ymin) ? ymin : 1)));
    p.y.hi = pow(10, ceil(log10(ymax > 0 ? ymax * 1.1 : 10)));
  } else {
    double yy[2] = {0, ymax};
    render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  }
  p.y.label = ylabel;
  render_canvas_plot_frame(x->c, &p, title);
  cairo_t *cr = x->c->cr;
  struct render_legend_item leg[MAX_SEL] = {0};
  for (size_t i = 0; i < x->n; i++) {
    double rgb[3];
    colour(x, i, rgb);
    render_canvas_polyline(cr, &p, xs[i], ys[i], np[i], rgb, 1.2, 0);
    json_t *slc = json_object_get(fill_of(x->run[i]), "slc");
    snprintf(leg[i].text, sizeof leg[i].text, "%s%s", x->run[i]->label, np[i] ? "" : " (not measured)");
    if (np[i] && json_is_number(json_object_get(slc, "max_gib")))
      snprintf(leg[i].text, sizeof leg[i].text, "%s (SLC %.1f / %.1f GiB)", x->run[i]->label,
               render_data_num(slc, "max_gib", 0), render_data_num(slc, "min_gib", 0));
    memcpy(leg[i].rgb, rgb, sizeof rgb);
    leg[i].dashed = 0;
    leg[i].shape = -1;
    /* the SLC cliffs: dashed verticals, labels staggered per drive */
    size_t k;
    json_t *d;
    json_array_foreach(json_object_get(slc, "drops"), k, d) {
      double at = render_data_num(d, "at_gib", NAN);
      if (!isfinite(at) || at < p.x.lo || at > p.x.hi) continue;
      double px = render_canvas_px(&p, at);
      cairo_save(cr);
      static const double dash[] = {3, 2};
      cairo_set_dash(cr, dash, 2, 0);
      cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
      cairo_set_line_width(cr, 0.9);
      cairo_move_to(cr, px, p.y0);
      cairo_line_to(cr, px, p.y1);
      cairo_stroke(cr);
      cairo_restore(cr);
      char lab[64];
      snprintf(lab, sizeof lab, "SLC ≈ %.1f GiB", at);
      double ly = p.y1 - 8 - 11 * (double)(i * 2 + k);
      cairo_set_source_rgb(cr, 1, 1, 1);
      double w = render_canvas_text_width(cr, lab, 8, 1);
      cairo_rectangle(cr, px + 2, ly - 8, w + 4, 10);
      cairo_fill(cr);
      cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
      render_canvas_text(cr, px + 4, ly, lab, 8, 1, RC_LEFT);
    }
  }
  render_canvas_legend(cr, &p, leg, x->n, 0);
}

static void fill_draw(struct chart_ctx *x) {
  fill_draw_common(x, "mb_s", 0, "Write throughput [MB/s]", "Fill drive: sequential write, 128 KiB");
}

static int fill_lat_check(struct chart_ctx *x) {
  for (size_t i = 0; i < x->n; i++)
    if (fill_has(x->run[i], "lat_mean_us")) return 0;
  return ssdrev_fail(x->err, -ENOENT, "run '%s' has no fill latency (fill.per_gib.lat_mean_us)", x->run[0]->label);
}

static void fill_lat_draw(struct chart_ctx *x) {
  fill_draw_common(x, "lat_mean_us", 1, "Mean write latency [µs]", "Fill drive: latency per GiB written");
}

/* ============================================================ RW-ratio sweep */

static int rw_check(struct chart_ctx *x) {
  for (size_t i = 0; i < x->n; i++)
    if (!json_array_size(json_object_get(x->run[i]->analysis, "rw_sweep")))
      return ssdrev_fail(x->err, -ENOENT, "run '%s' has no RW-ratio sweep (analysis rw_sweep)",
                         x->run[i]->label);
  return 0;
}

static void rw_draw(struct chart_ctx *x) {
  double ymax = 0;
  for (size_t i = 0; i < x->n; i++) {
    size_t a, b;
    json_t *q, *pt;
    json_array_foreach(json_object_get(x->run[i]->analysis, "rw_sweep"), a, q)
      json_array_foreach(json_object_get(q, "points"), b, pt) if (render_data_num(pt, "mb_s", 0) > ymax) ymax =
          render_data_num(pt, "mb_s", 0);
  }
  struct render_plot p = {0};
  p.x.lo = 0;
  p.x.hi = 100;
  p.x.label = "Read share [%]  (4 KiB random)";
  double yy[2] = {0, ymax};
  render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  p.y.label = "Throughput [MB/s]";
  char title[200];
  snprintf(title, sizeof title, "Low QD performance by RW ratio%s%s", x->n == 1 ? " — " : "",
           x->n == 1 ? x->run[0]->label : "");
  render_canvas_plot_frame(x->c, &p, title);
  struct render_legend_item leg[MAX_SEL * 4] = {0};
  size_t nl = 0;
  for (size_t i = 0; i < x->n; i++) {
    double rgb[3];
    colour(x, i, rgb);
    size_t a;
    json_t *q;
    json_array_foreach(json_object_get(x->run[i]->analysis, "rw_sweep"), a, q) {
      double xs[64], ys[64];
      size_t n = 0, b;
      json_t *pt;
      json_array_foreach(json_object_get(q, "points"), b, pt) {
        if (n < 64) {
          xs[n] = render_data_num(pt, "read_pct", NAN);
          ys[n++] = render_data_num(pt, "mb_s", NAN);
        }
      }
      int style = (int)(a % 3);
      render_canvas_polyline(x->c->cr, &p, xs, ys, n, rgb, 1.3, style);
      for (size_t k = 0; k < n; k++) render_canvas_marker(x->c->cr, &p, xs[k], ys[k], rgb, style);
      if (nl < MAX_SEL * 4) {
        if (x->n == 1) snprintf(leg[nl].text, sizeof leg[nl].text, "QD%d", (int)render_data_num(q, "qd", 0));
        else snprintf(leg[nl].text, sizeof leg[nl].text, "%s QD%d", x->run[i]->label, (int)render_data_num(q, "qd", 0));
        memcpy(leg[nl].rgb, rgb, sizeof rgb);
        leg[nl].dashed = style;
        leg[nl++].shape = style;
      }
    }
  }
  /* the legend goes to the side where the lines are lower */
  double left = 0, right = 0;
  for (size_t i = 0; i < x->n; i++) {
    size_t a;
    json_t *q;
    json_array_foreach(json_object_get(x->run[i]->analysis, "rw_sweep"), a, q) {
      json_t *pts = json_object_get(q, "points");
      double l = render_data_num(json_array_get(pts, 0), "mb_s", 0);
      double r = render_data_num(json_array_get(pts, json_array_size(pts) - 1), "mb_s", 0);
      if (l > left) left = l;
      if (r > right) right = r;
    }
  }
  render_canvas_legend(x->c->cr, &p, leg, nl, left < right);
}

/* ============================================================ tail latency */

static int tail_check(struct chart_ctx *x) {
  /* drawn when any run has tail results (see fill_check) */
  for (size_t i = 0; i < x->n; i++) {
    double p[2], l[2];
    for (size_t w = 0; w < 3; w++)
      if (render_data_tail_curve(x->run[i], render_data_workloads[w].id, p, l, 2) > 0) return 0;
  }
  return ssdrev_fail(x->err, -ENOENT, "run '%s' has no tail-latency results (analysis tail)", x->run[0]->label);
}

static void tail_draw(struct chart_ctx *x) {
  double ps[MAX_SEL][3][64], ls[MAX_SEL][3][64]; /* 48 KiB: fits any thread's stack */
  size_t np[MAX_SEL][3];
  double pmin = 99, pmax = 99.9, lmin = INFINITY, lmax = 0;
  for (size_t i = 0; i < x->n; i++)
    for (size_t w = 0; w < 3; w++) {
      np[i][w] = render_data_tail_curve(x->run[i], render_data_workloads[w].id, ps[i][w], ls[i][w], 64);
      for (size_t k = 0; k < np[i][w]; k++) {
        if (ps[i][w][k] < 50) continue; /* the nines axis starts at the median */
        if (ps[i][w][k] < pmin) pmin = ps[i][w][k];
        if (ps[i][w][k] > pmax) pmax = ps[i][w][k];
        if (ls[i][w][k] > 0 && ls[i][w][k] < lmin) lmin = ls[i][w][k];
        if (ls[i][w][k] > lmax) lmax = ls[i][w][k];
      }
    }
  struct render_plot p = {0};
  p.x.scale = RC_NINES;
  p.x.lo = pmin >= 90 ? 90 : 50;
  p.x.hi = pmax;
  p.x.label = "Percentile [%]  (4 KiB random, QD1)";
  p.y.scale = RC_LOG;
  if (!isfinite(lmin)) lmin = 1, lmax = 10;
  p.y.lo = pow(10, floor(log10(lmin * 0.9)));
  p.y.hi = pow(10, ceil(log10(lmax * 1.1)));
  p.y.label = "Latency [µs]";
  render_canvas_plot_frame(x->c, &p, "Tail latency");
  struct render_legend_item leg[MAX_SEL * 3] = {0};
  size_t nl = 0;
  for (size_t i = 0; i < x->n; i++) {
    double rgb[3];
    colour(x, i, rgb);
    if (!np[i][0] && !np[i][1] && !np[i][2]) {
      snprintf(leg[nl].text, sizeof leg[nl].text, "%s (not measured)", x->run[i]->label);
      memcpy(leg[nl].rgb, rgb, sizeof rgb);
      leg[nl++].shape = -1;
      continue;
    }
    for (size_t w = 0; w < 3; w++) {
      if (!np[i][w]) continue;
      double xs[64], ys[64];
      size_t n = 0;
      for (size_t k = 0; k < np[i][w]; k++)
        if (ps[i][w][k] >= p.x.lo - 1e-9) {
          xs[n] = ps[i][w][k];
          ys[n++] = ls[i][w][k];
        }
      render_canvas_polyline(x->c->cr, &p, xs, ys, n, rgb, 1.3, (int)w);
      for (size_t k = 0; k < n; k++) render_canvas_marker(x->c->cr, &p, xs[k], ys[k], rgb, (int)w);
      snprintf(leg[nl].text, sizeof leg[nl].text, "%s %s", x->run[i]->label, render_data_workloads[w].title);
      memcpy(leg[nl].rgb, rgb, sizeof rgb);
      leg[nl].dashed = (int)w;
      leg[nl++].shape = (int)w;
    }
  }
  render_canvas_legend(x->c->cr, &p, leg, nl, 1);
}

/* ========================================================= latency over time */

static json_t *lat_test(struct chart_ctx *x, size_t i) {
  if (x->o->test) return json_object_get(json_object_get(x->run[i]->analysis, "tests"), x->o->test);
  return render_data_tail_test(x->run[i], x->o->workload ? x->o->workload : "read");
}

/* "BASE — RND Read 70% (4 KiB random, QD1)" or "BASE — TEST": which test it is */
static void lat_title(const struct chart_ctx *x, const char *base, char *buf, size_t len) {
  if (x->o->test) {
    snprintf(buf, len, "%s — %s", base, x->o->test);
    return;
  }
  const char *w = x->o->workload ? x->o->workload : "read", *t = w;
  for (size_t i = 0; i < sizeof render_data_workloads / sizeof render_data_workloads[0]; i++)
    if (!strcmp(render_data_workloads[i].id, w)) t = render_data_workloads[i].title;
  snprintf(buf, len, "%s — %s (4 KiB random, QD1)", base, t);
}

/* log-axis bounds on the 1-2-5 steps around the data (not whole decades,
   which squash a flat latency line into a sliver) */
static double nice125(double v, int up) {
  double d = pow(10, floor(log10(v))), m = v / d;
  static const double steps[] = {1, 2, 5, 10};
  if (up) {
    for (int i = 0; i < 4; i++)
      if (m <= steps[i] * (1 + 1e-9)) return steps[i] * d;
    return 10 * d;
  }
  for (int i = 3; i >= 0; i--)
    if (m >= steps[i] * (1 - 1e-9)) return steps[i] * d;
  return d;
}

static int lat_check(struct chart_ctx *x) {
  for (size_t i = 0; i < x->n; i++) {
    json_t *t = lat_test(x, i);
    if (!t)
      return ssdrev_fail(x->err, -ENOENT, "run '%s' has no test %s%s", x->run[i]->label,
                         x->o->test ? x->o->test : "of kind tail with workload ",
                         x->o->test ? "" : (x->o->workload ? x->o->workload : "read"));
    if (!json_array_size(json_object_get(json_object_get(t, "series"), "t_s")))
      return ssdrev_fail(x->err, -ENOENT, "run '%s': the test has no time series (series.t_s)", x->run[i]->label);
  }
  return 0;
}

static void lat_draw(struct chart_ctx *x) {
  double(*ts)[MAX_PTS] = x->s->xs, (*p50)[MAX_PTS] = x->s->ys, (*p99)[MAX_PTS] = x->s->zs;
  size_t n50[MAX_SEL], n99[MAX_SEL];
  double tmax = 1, lmin = INFINITY, lmax = 0;
  for (size_t i = 0; i < x->n; i++) {
    json_t *s = json_object_get(lat_test(x, i), "series");
    n50[i] = load_xy(s, "t_s", "p50_us", ts[i], p50[i]);
    n99[i] = load_xy(s, "t_s", "p99_us", ts[i], p99[i]);
    for (size_t k = 0; k < n50[i] || k < n99[i]; k++) {
      if (ts[i][k] > tmax) tmax = ts[i][k];
      if (k < n50[i] && p50[i][k] > 0 && p50[i][k] < lmin) lmin = p50[i][k];
      if (k < n99[i] && p99[i][k] > lmax) lmax = p99[i][k];
    }
  }
  struct render_plot p = {0};
  double xx[2] = {0, tmax};
  render_canvas_range(xx, 2, &p.x.lo, &p.x.hi, 1);
  p.x.hi = tmax;
  p.x.label = "Time [s]";
  p.y.scale = RC_LOG;
  if (!isfinite(lmin)) lmin = 1, lmax = 10;
  p.y.lo = nice125(lmin * 0.9, 0);
  p.y.hi = nice125(lmax * 1.1, 1);
  if (p.y.hi < p.y.lo * 5) p.y.hi = nice125(p.y.lo * 5, 1); /* room for the legend above flat lines */
  p.y.label = "Latency [µs]";
  char title[300];
  lat_title(x, "Latency over time", title, sizeof title);
  render_canvas_plot_frame(x->c, &p, title);
  struct render_legend_item leg[MAX_SEL * 2] = {0};
  size_t nl = 0;
  for (size_t i = 0; i < x->n; i++) {
    double rgb[3];
    colour(x, i, rgb);
    render_canvas_polyline(x->c->cr, &p, ts[i], p50[i], n50[i], rgb, 1.1, 0);
    render_canvas_polyline(x->c->cr, &p, ts[i], p99[i], n99[i], rgb, 1.1, 1);
    snprintf(leg[nl].text, sizeof leg[nl].text, "%s p50", x->run[i]->label);
    memcpy(leg[nl].rgb, rgb, sizeof rgb);
    leg[nl].dashed = 0;
    leg[nl++].shape = -1;
    snprintf(leg[nl].text, sizeof leg[nl].text, "%s p99", x->run[i]->label);
    memcpy(leg[nl].rgb, rgb, sizeof rgb);
    leg[nl].dashed = 1;
    leg[nl++].shape = -1;
  }
  render_canvas_legend(x->c->cr, &p, leg, nl, 0);
}

/* ================================================================ histogram */

static int hist_load(struct chart_ctx *x, size_t i, double *counts, struct ssdrev_err *err) {
  json_t *t = lat_test(x, i);
  const char *log_rel = NULL;
  json_t *tests = x->run[i]->manifest ? json_object_get(x->run[i]->manifest, "tests") : NULL;
  size_t k;
  json_t *mt;
  const char *want = x->o->test;
  json_array_foreach(tests, k, mt) {
    int match = want ? !strcmp(render_data_str(mt, "name", ""), want)
                     : !strcmp(render_data_str(mt, "kind", ""), "tail") &&
                           !strcmp(render_data_str(mt, "workload", ""), x->o->workload ? x->o->workload : "read");
    if (match) log_rel = render_data_str(mt, "log", NULL);
  }
  (void)t;
  if (!log_rel)
    return ssdrev_fail(err, -ENOENT, "run '%s': no logged test to draw a histogram from (manifest tests[].log)",
                       x->run[i]->label);
  char path[8300];
  snprintf(path, sizeof path, "%s/%s", x->run[i]->dir, log_rel);
  struct ssdlog_reader *r = NULL;
  int rc = ssdlog_open(&r, path, 0, err);
  if (rc < 0) return rc;
  struct ssdlog_chunk ch;
  while ((rc = ssdlog_next_chunk(r, SSDLOG_COL_LAT | SSDLOG_COL_STATUS | SSDLOG_COL_FLAGS, &ch, err)) > 0) {
    for (size_t j = 0; j < ch.n; j++) {
      if (ch.status[j] != 0 || (ch.flags[j] & SSDLOG_REC_RAMP)) continue;
      double us = (double)ch.lat_ns[j] / 1000.0;
      int b = us <= 1 ? 0 : (int)(log10(us) * HIST_PER_DECADE);
      if (b >= HIST_BINS) b = HIST_BINS - 1;
      counts[b] += 1;
    }
  }
  ssdlog_close(r);
  return rc < 0 ? rc : 0;
}

static int hist_check(struct chart_ctx *x) {
  double(*hist_counts)[HIST_BINS] = x->s->hist;
  for (size_t i = 0; i < x->n; i++) {
    int rc = hist_load(x, i, hist_counts[i], x->err);
    if (rc < 0) return rc;
  }
  return 0;
}

static void hist_draw(struct chart_ctx *x) {
  double(*hist_counts)[HIST_BINS] = x->s->hist;
  double cmax = 1;
  int bmin = HIST_BINS, bmax = 0;
  for (size_t i = 0; i < x->n; i++)
    for (int b = 0; b < HIST_BINS; b++)
      if (hist_counts[i][b] > 0) {
        if (hist_counts[i][b] > cmax) cmax = hist_counts[i][b];
        if (b < bmin) bmin = b;
        if (b > bmax) bmax = b;
      }
  if (bmin > bmax) bmin = 0, bmax = HIST_BINS - 1;
  struct render_plot p = {0};
  p.x.scale = RC_LOG;
  p.x.lo = pow(10, floor((double)bmin / HIST_PER_DECADE));
  p.x.hi = pow(10, ceil((double)(bmax + 1) / HIST_PER_DECADE));
  p.x.label = "Latency [µs]";
  p.y.scale = RC_LOG;
  p.y.lo = 1;
  p.y.hi = pow(10, ceil(log10(cmax * 1.5)));
  p.y.label = "I/Os per bin";
  char title[300];
  lat_title(x, "Latency histogram", title, sizeof title);
  render_canvas_plot_frame(x->c, &p, title);
  struct render_legend_item leg[MAX_SEL] = {0};
  for (size_t i = 0; i < x->n; i++) {
    double rgb[3], xs[2 * HIST_BINS + 2], ys[2 * HIST_BINS + 2];
    colour(x, i, rgb);
    size_t n = 0;
    /* a step outline: each bin is a flat segment over its width */
    for (int b = bmin; b <= bmax; b++) {
      double c = hist_counts[i][b] > 0 ? hist_counts[i][b] : 0.5;
      xs[n] = pow(10, (double)b / HIST_PER_DECADE);
      ys[n++] = c;
      xs[n] = pow(10, (double)(b + 1) / HIST_PER_DECADE);
      ys[n++] = c;
    }
    render_canvas_polyline(x->c->cr, &p, xs, ys, n, rgb, 1.1, 0);
    snprintf(leg[i].text, sizeof leg[i].text, "%s", x->run[i]->label);
    memcpy(leg[i].rgb, rgb, sizeof rgb);
    leg[i].dashed = 0;
    leg[i].shape = -1;
  }
  render_canvas_legend(x->c->cr, &p, leg, x->n, 0);
}

/* ================================================================ N-run bars */

static const char *op_of(const struct chart_ctx *x) { return x->o->op ? x->o->op : "read"; }

static int bars_check(struct chart_ctx *x) {
  if (strcmp(op_of(x), "read") && strcmp(op_of(x), "write") && strcmp(op_of(x), "mix"))
    return ssdrev_fail(x->err, -EINVAL, "bars: op must be read, write or mix, not '%s'", op_of(x));
  /* drawn when any run has the state; a run without it is labelled so */
  json_t *cells[16];
  for (size_t i = 0; i < x->n; i++)
    if (render_data_cdm_cells(x->run[i], state_of(x), cells, 16)) return 0;
  return ssdrev_fail(x->err, -ENOENT, "no run has CrystalDiskMark results in state '%s'", state_of(x));
}

static void bars_draw(struct chart_ctx *x) {
  json_t *cells[16];
  size_t nc = 0;
  for (size_t i = 0; i < x->n && !nc; i++) nc = render_data_cdm_cells(x->run[i], state_of(x), cells, 16);
  double ymax = 0;
  for (size_t i = 0; i < x->n; i++) {
    json_t *ci[16];
    size_t m = render_data_cdm_cells(x->run[i], state_of(x), ci, 16);
    for (size_t k = 0; k < m; k++) {
      double v = render_data_num(json_object_get(ci[k], op_of(x)), "mb_s", 0);
      if (v > ymax) ymax = v;
    }
  }
  struct render_plot p = {0};
  p.x.lo = 0;
  p.x.hi = 1;
  double yy[2] = {0, ymax * 1.08};
  render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  p.y.label = "Throughput [MB/s]";
  char title[128];
  snprintf(title, sizeof title, "CrystalDiskMark-style %s, %s", op_of(x), state_of(x));
  p.no_xticks = 1; /* categories are labelled below each group */
  render_canvas_plot_frame(x->c, &p, title);
  cairo_t *cr = x->c->cr;
  double gw = (p.x1 - p.x0) / (double)nc, bw = gw * 0.8 / (double)x->n;
  for (size_t k = 0; k < nc; k++) {
    const char *cell = render_data_str(cells[k], "cell", "?");
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    render_canvas_text(cr, p.x0 + gw * (k + 0.5), p.y1 + 12, cell, 8, 0, RC_CENTER);
    for (size_t i = 0; i < x->n; i++) {
      json_t *ci[16];
      size_t m = render_data_cdm_cells(x->run[i], state_of(x), ci, 16);
      double v = NAN;
      for (size_t j = 0; j < m; j++)
        if (!strcmp(render_data_str(ci[j], "cell", ""), cell)) v = render_data_num(json_object_get(ci[j], op_of(x)), "mb_s", NAN);
      double rgb[3];
      colour(x, i, rgb);
      double bx = p.x0 + gw * k + gw * 0.1 + bw * i;
      if (!isfinite(v)) {
        /* no bar of height 0 that reads as 0 MB/s: the value is absent */
        cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
        cairo_save(cr);
        cairo_translate(cr, bx + bw * 0.46, p.y1 - 3);
        cairo_rotate(cr, -M_PI / 2);
        render_canvas_text(cr, 0, 2, "not measured", bw > 40 ? 7 : 5.5, 0, RC_LEFT);
        cairo_restore(cr);
        continue;
      }
      double by = render_canvas_py(&p, v);
      cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle(cr, bx, by, bw * 0.92, p.y1 - by);
      cairo_fill(cr);
      char lab[32];
      snprintf(lab, sizeof lab, "%.0f", v);
      cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
      render_canvas_text(cr, bx + bw * 0.46, by - 2, lab, bw > 40 ? 7 : 5.5, 0, RC_CENTER);
    }
  }
  struct render_legend_item leg[MAX_SEL] = {0};
  for (size_t i = 0; i < x->n; i++) {
    json_t *ci[16];
    int absent = !render_data_cdm_cells(x->run[i], state_of(x), ci, 16);
    snprintf(leg[i].text, sizeof leg[i].text, "%s%s", x->run[i]->label, absent ? " (not measured)" : "");
    colour(x, i, leg[i].rgb);
    leg[i].dashed = 0;
    leg[i].shape = 1;
  }
  render_canvas_legend(cr, &p, leg, x->n, 0);
}

/* =================================================================== table */

static const struct chart_kind kinds[] = {
    {"cdm", "CrystalDiskMark-style results panel of one drive in one state", 1, 3.3, cdm_check, cdm_draw, "state"},
    {"fill", "fill drive: write MB/s vs GiB written, SLC cliffs marked", 0, 3.4, fill_check, fill_draw, ""},
    {"fill_latency", "fill drive: mean write latency vs GiB written (log)", 0, 3.4, fill_lat_check,
     fill_lat_draw, ""},
    {"rw_ratio", "low-QD 4K random MB/s vs read share, one line per QD", 0, 3.4, rw_check, rw_draw, ""},
    {"tail", "tail latency vs percentile on a nines axis (log µs)", 0, 3.6, tail_check, tail_draw, ""},
    {"latency", "p50 / p99 latency over time of a tail test (series)", 0, 3.2, lat_check, lat_draw,
     "workload test"},
    {"hist", "latency histogram of a tail test, from its raw log", 0, 3.2, hist_check, hist_draw, "workload test"},
    {"bars", "CrystalDiskMark-style MB/s of N runs side by side (op=read|write|mix)", 0, 3.4, bars_check,
     bars_draw, "state op"},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

const struct render_chart_kind_info *render_chart_kinds(void) {
  static struct render_chart_kind_info info[NKINDS + 1];
  for (size_t i = 0; i < NKINDS; i++) {
    info[i].name = kinds[i].name;
    info[i].summary = kinds[i].summary;
  }
  return info;
}

static const struct chart_kind *find_kind(const char *name) {
  for (size_t i = 0; i < NKINDS; i++)
    if (!strcmp(kinds[i].name, name)) return &kinds[i];
  return NULL;
}

int render_chart_kind_exists(const char *kind) { return find_kind(kind) != NULL; }

int render_chart_kind_one_drive(const char *kind) {
  const struct chart_kind *k = find_kind(kind);
  return k && k->one_drive;
}

void render_chart_opts_defaults(struct render_chart_opts *o) {
  memset(o, 0, sizeof *o);
  o->dpi = 300;
  o->width_in = 6.5;
}

/* Picks the runs, validates the options and checks the data. */
static int chart_prepare(const struct render_runs *rs, const char *kind, const struct render_chart_opts *o,
                         struct chart_ctx *x, const struct chart_kind **kp, struct ssdrev_err *err) {
  const struct chart_kind *k = find_kind(kind);
  if (!k) return ssdrev_fail(err, -EINVAL, "unknown chart kind '%s'", kind);
  *kp = k;
  memset(x, 0, sizeof *x);
  x->o = o;
  x->err = err;
  if (o->drive && strcmp(o->drive, "all")) {
    const struct render_run *r = render_runs_find(rs, o->drive);
    if (!r) return ssdrev_fail(err, -ENOENT, "chart %s: no run with label or number '%s'", kind, o->drive);
    x->run[0] = r;
    x->idx[0] = (size_t)(r - rs->v);
    x->n = 1;
  } else {
    if (k->one_drive && rs->n > 1)
      return ssdrev_fail(err, -EINVAL, "chart %s draws one drive: say which (drive=LABEL or a number)", kind);
    for (size_t i = 0; i < rs->n && i < MAX_SEL; i++) {
      x->run[i] = &rs->v[i];
      x->idx[i] = i;
    }
    x->n = rs->n < MAX_SEL ? rs->n : MAX_SEL;
  }
  if (x->n == 0) return ssdrev_fail(err, -EINVAL, "chart %s: no runs", kind);
  if (o->dpi != 0 && (o->dpi < 30 || o->dpi > 1200))
    return ssdrev_fail(err, -EINVAL, "chart dpi %g out of range 30..1200", o->dpi);
  if (o->state && strcmp(o->state, "FOB") && strcmp(o->state, "75%"))
    return ssdrev_fail(err, -EINVAL, "chart %s: state must be FOB or 75%%, not '%s'", kind, o->state);
  /* an option the kind does not use would be silently ignored */
  const struct { const char *name, *v; } used[] = {
      {"state", o->state}, {"op", o->op}, {"workload", o->workload}, {"test", o->test}};
  for (size_t i = 0; i < sizeof used / sizeof used[0]; i++) {
    if (!used[i].v) continue;
    const char *hit = strstr(k->args, used[i].name);
    size_t l = strlen(used[i].name);
    if (!hit || (hit != k->args && hit[-1] != ' ') || (hit[l] && hit[l] != ' '))
      return ssdrev_fail(err, -EINVAL, "chart %s does not use %s= (it takes: %s)", kind, used[i].name,
                         *k->args ? k->args : "none of state, op, workload, test");
  }
  x->s = calloc(1, sizeof *x->s);
  if (!x->s) return ssdrev_fail(err, -ENOMEM, "chart %s: out of memory", kind);
  return k->check(x);
}

int render_chart_check(const struct render_runs *rs, const char *kind, const struct render_chart_opts *o,
                       struct ssdrev_err *err) {
  struct chart_ctx x = {0};
  const struct chart_kind *k;
  struct render_chart_opts dflt;
  render_chart_opts_defaults(&dflt);
  int rc = chart_prepare(rs, kind, o ? o : &dflt, &x, &k, err);
  free(x.s);
  return rc;
}

int render_chart_file(const struct render_runs *rs, const char *kind, const struct render_chart_opts *o,
                      const char *path, struct ssdrev_err *err) {
  return render_chart_draw(rs, kind, o, path, NULL, err);
}

int render_chart_draw(const struct render_runs *rs, const char *kind, const struct render_chart_opts *o,
                  const char *path, const struct render_chart_sink *keep, struct ssdrev_err *err) {
  struct render_chart_opts dflt;
  render_chart_opts_defaults(&dflt);
  if (!o) o = &dflt;
  struct chart_ctx x = {0};
  const struct chart_kind *k;
  int rc = chart_prepare(rs, kind, o, &x, &k, err);
  if (rc == 0) {
    struct render_canvas c;
    rc = render_canvas_canvas_begin(&c, path, o->width_in > 0 ? o->width_in : 6.5,
                         o->height_in > 0 ? o->height_in : k->height_in, o->dpi > 0 ? o->dpi : 300, err);
    if (rc == 0) {
      c.keep = keep;
      x.c = &c;
      k->draw(&x);
      rc = render_canvas_canvas_end(&c, err);
    }
  }
  free(x.s);
  return rc;
}
