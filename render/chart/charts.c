/* charts.c — the chart kinds, one table of draw functions, and
 * render_chart_file, which picks the runs, opens the canvas and draws. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "render/render_int.h"
#include "render/chart/chart_int.h"

#define MAX_PTS 4096
/* Log-spaced latency bins: HIST_PER_DECADE per decade from 1 µs to 100 ms. */
#define HIST_PER_DECADE ANALYZE_HIST_PER_DECADE
#define HIST_BINS ANALYZE_HIST_BINS

/* Per-chart working arrays, too big for the stack and not static so that
 * render_chart_file may run on several threads at once (no shared scratch). */
struct chart_scratch {
  double xs[MAX_SEL][MAX_PTS], ys[MAX_SEL][MAX_PTS], zs[MAX_SEL][MAX_PTS];
  double nfx[MAX_SEL][MAX_PTS];    /* the fill chart: x of the near-full rewrites (label placement) */
  double hist[MAX_SEL][HIST_BINS]; /* hist_check fills, hist_draw reads */
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


static const char *state_of(const struct chart_ctx *x) { return x->o->state ? x->o->state : "FOB"; }


/* ===================================================== CrystalDiskMark panel */

static int cdm_check(struct chart_ctx *x) {
  json_t *cells[16];
  if (!render_data_cdm_cells(x->run[0], state_of(x), cells, 16))
    return render_msg_fail(x->err, -ENOENT, MSG_MISS_CDM, x->run[0]->label, state_of(x));
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
    /* by the tables' rule (RENDER_CDM_*_FMT), an import's figures too */
    char iops[40], lat[40];
    double lv = render_data_num(m, "lat_us", -1);
    snprintf(big, sizeof big, RENDER_CDM_MB_S_FMT, render_data_num(m, "mb_s", 0));
    snprintf(iops, sizeof iops, RENDER_CDM_IOPS_FMT, render_data_num(m, "iops", 0));
    snprintf(lat, sizeof lat, RENDER_CDM_US_FMT, lv);
    /* a file without latencies (CrystalDiskMark 6): IOPS alone, no "-1 µs" */
    if (lv >= 0) snprintf(small, sizeof small, "%s IOPS   %s µs", iops, lat);
    else snprintf(small, sizeof small, "%s IOPS", iops);
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
  /* the profile as CrystalDiskMark names it (its Profile line, its menu) */
  const char *prof = render_data_str(cells[0], "profile", "default");
  static const struct {
    const char *id;
    enum render_msg_id name;
  } profs[] = {{"default", MSG_C_PROF_DEFAULT}, {"nvme", MSG_C_PROF_NVME}, {"peak", MSG_C_PROF_PEAK},
               {"real", MSG_C_PROF_REAL},       {"demo", MSG_C_PROF_DEMO}};
  for (size_t k = 0; k < sizeof profs / sizeof profs[0]; k++)
    if (!strcmp(prof, profs[k].id)) prof = M(profs[k].name);
  struct render_buf sub = {0};
  json_t *params = json_pack("{s:s}", "profile", prof);
  render_msg_put(&sub, x->o->lang, MSG_C_CDM_SUB, params);
  json_decref(params);
  render_canvas_text(cr, W - 10, 17, sub.s && !sub.oom ? sub.s : "", 8, 0, RC_RIGHT);
  render_buf_free(&sub);

  const double top = 34, head = 16, pad = 6, labw = 96;
  /* CrystalDiskMark's Mix panel is a third column when the run has it */
  int mix = 0;
  for (size_t i = 0; i < n; i++) mix |= json_is_object(json_object_get(cells[i], "mix"));
  int ncol = mix ? 3 : 2;
  double colw = (W - 2 * pad - labw - ncol * pad) / ncol;
  double rowh = (H - top - head - pad) / (double)n - pad;
  if (rowh > 60) rowh = 60;
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  render_canvas_text(cr, pad + labw + pad + colw / 2, top + 11, M(MSG_T_READ_MB_S), 10, 1, RC_CENTER);
  render_canvas_text(cr, pad + labw + 2 * pad + colw * 1.5, top + 11, M(MSG_T_WRITE_MB_S), 10, 1, RC_CENTER);
  if (mix) render_canvas_text(cr, pad + labw + 3 * pad + colw * 2.5, top + 11, M(MSG_C_MIX_MB_S), 10, 1, RC_CENTER);
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
  return render_msg_fail(x->err, -ENOENT, MSG_MISS_FILL, x->run[0]->label, NULL);
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

/* Label boxes already placed on a chart, so that no label covers another,
 * and the lines drawn, so that no label sits on any drive's line. */
struct label_boxes {
  double x0[64], y0[64], x1[64], y1[64];
  size_t n;
  const double *lx[2 * MAX_SEL], *ly[2 * MAX_SEL]; /* the series drawn (data units) */
  size_t ln[2 * MAX_SEL], nl;
};
static int boxes_hit(const struct render_plot *p, const struct label_boxes *b, double x0, double y0, double x1,
                     double y1) {
  for (size_t i = 0; i < b->n; i++)
    if (x0 < b->x1[i] && x1 > b->x0[i] && y0 < b->y1[i] && y1 > b->y0[i]) return 1;
  /* a line through the box (one pixel of slack either side) */
  for (size_t s = 0; s < b->nl; s++)
    for (size_t k = 0; k < b->ln[s]; k++) {
      if (!isfinite(b->ly[s][k])) continue;
      double px = render_canvas_px(p, b->lx[s][k]), py = render_canvas_py(p, b->ly[s][k]);
      if (px >= x0 - 1 && px <= x1 + 1 && py >= y0 - 1 && py <= y1 + 1) return 1;
    }
  return 0;
}

/* A cliff mark: a dashed (near full: dotted) vertical at `at` GiB and its
 * label. All lines are drawn and registered as obstacles first, so that no
 * label is cut by another drive's mark. */
struct cliff_mark {
  double at, rgb[3];
  int near_full;
  char lab[96];
};

static void cliff_line(cairo_t *cr, const struct render_plot *p, struct label_boxes *bx, const struct cliff_mark *m) {
  double px = render_canvas_px(p, m->at);
  cairo_save(cr);
  static const double dash[] = {3, 2}, dot[] = {1, 2};
  cairo_set_dash(cr, m->near_full ? dot : dash, 2, 0);
  cairo_set_source_rgb(cr, m->rgb[0], m->rgb[1], m->rgb[2]);
  cairo_set_line_width(cr, 0.9);
  cairo_move_to(cr, px, p->y0);
  cairo_line_to(cr, px, p->y1);
  cairo_stroke(cr);
  cairo_restore(cr);
  if (bx->n < 64) {
    bx->x0[bx->n] = px - 0.5, bx->y0[bx->n] = p->y0, bx->x1[bx->n] = px + 0.5, bx->y1[bx->n] = p->y1;
    bx->n++;
  }
}

/* The label goes in the first free row from the top of the plot: right of
 * its line, else left of it, else right of the next marks to its right
 * (nearest first). It has no background: it never hides a line. */
static void cliff_label(cairo_t *cr, const struct render_plot *p, struct label_boxes *bx, const struct cliff_mark *m,
                        const struct cliff_mark *all, size_t nall) {
  double px = render_canvas_px(p, m->at);
  double w = render_canvas_text_width(cr, m->lab, 7.5, 0) + 4;
  double cand[2 + 2 * MAX_SEL];
  size_t nc = 0;
  cand[nc++] = px + 3;
  cand[nc++] = px - 3 - w;
  for (size_t j = 0; j < nall && nc < sizeof cand / sizeof *cand; j++) {
    /* the marks right of this one, in order of distance (nall is tiny) */
    double best = INFINITY;
    for (size_t k = 0; k < nall; k++) {
      double qx = render_canvas_px(p, all[k].at) + 3;
      int used = 0;
      for (size_t c = 2; c < nc; c++) used |= cand[c] == qx;
      if (qx > px + 3 && qx < best && !used) best = qx;
    }
    if (!isfinite(best)) break;
    cand[nc++] = best;
  }
  double lx = NAN, ly = NAN;
  for (int row = 0; row < 24 && !isfinite(lx); row++) {
    double y = p->y0 + 10 + 10 * row;
    if (y > p->y1 - 2) break;
    for (size_t c = 0; c < nc; c++) {
      if (cand[c] < p->x0 || cand[c] + w > p->x1) continue;
      if (boxes_hit(p, bx, cand[c], y - 8, cand[c] + w, y + 2)) continue;
      lx = cand[c], ly = y;
      break;
    }
  }
  /* crowded: the first row right of (or at the right edge, left of) its line */
  if (!isfinite(lx)) lx = px + 3 + w > p->x1 ? px - 3 - w : px + 3, ly = p->y0 + 10;
  if (bx->n < 64) {
    bx->x0[bx->n] = lx, bx->y0[bx->n] = ly - 8, bx->x1[bx->n] = lx + w, bx->y1[bx->n] = ly + 2;
    bx->n++;
  }
  cairo_set_source_rgb(cr, m->rgb[0], m->rgb[1], m->rgb[2]);
  render_canvas_text(cr, lx + 2, ly, m->lab, 7.5, 0, RC_LEFT);
}

/* The points of one phase's trace: the fine trace when there is one (its
 * resolution shows a cache of 0.25 GiB), else the per-GiB points. */
static size_t fill_points(const json_t *f, const char *ykey, double *xs, double *ys) {
  const json_t *tr = json_object_get(f, "trace");
  if (!strcmp(ykey, "mb_s") && json_array_size(json_object_get(tr, "gib")) > 1) return load_xy(tr, "gib", ykey, xs, ys);
  return load_xy(json_object_get(f, "per_gib"), "gib", ykey, xs, ys);
}

/* The near-full rewrite's points at no finer a step than the main trace's:
 * a rewrite that stops a margin past its cliff is a few GiB of 4 MiB steps,
 * whose bunched completions (a full drive's GC) swing each step's MB/s far
 * above the link; merged (bytes over time) to the main trace's step they
 * are what the chart's scale can show. */
static size_t near_full_points(const json_t *f, const char *ykey, double *xs, double *ys) {
  const json_t *nf = json_object_get(f, "near_full");
  size_t n = fill_points(nf, ykey, xs, ys);
  double step = render_data_num(json_object_get(f, "trace"), "step_gib", 0);
  double nstep = render_data_num(json_object_get(nf, "trace"), "step_gib", 0);
  if (strcmp(ykey, "mb_s") || !(step > nstep) || !(nstep > 0) || n < 2) return n;
  size_t m = 0;
  double g0 = xs[0] - nstep, gsum = 0, tsum = 0;
  for (size_t i = 0; i < n; i++) {
    double dg = xs[i] - (i ? xs[i - 1] : g0);
    if (isfinite(ys[i]) && ys[i] > 0 && dg > 0) gsum += dg, tsum += dg / ys[i];
    if (xs[i] - g0 >= step || i + 1 == n) {
      xs[m] = xs[i];
      ys[m++] = tsum > 0 ? gsum / tsum : NAN;
      g0 = xs[i], gsum = tsum = 0;
    }
  }
  return m;
}

/* The fill chart and its latency twin: each drive's empty-drive trace
 * (solid), its near-full rewrite (dotted, from the rewrite's start), and for
 * MB/s every level's cliff marked. ykey2 (optional): a second series drawn
 * dashed (p99 beside the mean). */
static void fill_draw_common(struct chart_ctx *x, const char *ykey, const char *ykey2, int logy, const char *ylabel,
                             const char *title) {
  double(*xs)[MAX_PTS] = x->s->xs, (*ys)[MAX_PTS] = x->s->ys, (*zs)[MAX_PTS] = x->s->zs;
  size_t np[MAX_SEL];
  double allx[2] = {0, 0}, ymin = INFINITY, ymax = 0;
  /* the axes: over every series drawn (loaded once for the scale, again to draw) */
  for (size_t i = 0; i < x->n; i++) {
    const json_t *f = fill_of(x->run[i]);
    for (int pass = 0; pass < 3; pass++) {
      size_t m = pass == 0   ? fill_points(f, ykey, xs[i], ys[i])
                 : pass == 1 ? (ykey2 ? load_xy(json_object_get(f, "per_gib"), "gib", ykey2, xs[i], ys[i]) : 0)
                             : near_full_points(f, ykey, xs[i], ys[i]);
      for (size_t k = 0; k < m; k++) {
        if (xs[i][k] > allx[1]) allx[1] = xs[i][k];
        if (isfinite(ys[i][k]) && ys[i][k] > ymax) ymax = ys[i][k];
        if (isfinite(ys[i][k]) && ys[i][k] > 0 && ys[i][k] < ymin) ymin = ys[i][k];
      }
    }
  }
  struct render_plot p = {0};
  render_canvas_range(allx, 2, &p.x.lo, &p.x.hi, 1);
  p.x.hi = allx[1] > 0 ? allx[1] : 1; /* the drive's end is the axis end */
  p.x.label = M(MSG_C_DATA_WRITTEN);
  if (logy) {
    p.y.scale = RC_LOG;
    p.y.lo = pow(10, floor(log10(isfinite(ymin) ? ymin : 1)));
    p.y.hi = pow(10, ceil(log10(ymax > 0 ? ymax * 1.1 : 10)));
  } else {
    /* head room for the cliff labels: one 10 pt row each above the data
     * (the plot is about 0.6 of the chart's height) */
    size_t nlab = 0;
    for (size_t i = 0; i < x->n; i++) {
      const json_t *slc = json_object_get(fill_of(x->run[i]), "slc");
      nlab += json_array_size(json_object_get(slc, "drops")) + json_is_number(json_object_get(slc, "min_gib"));
    }
    double plot_pt = x->c->h_pt * 0.6, frac = plot_pt > 0 ? (double)(nlab + 1) * 10 / plot_pt : 0.2;
    if (frac > 0.6) frac = 0.6;
    double yy[2] = {0, ymax / (1 - frac)};
    render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  }
  p.y.label = ylabel;
  render_canvas_plot_frame(x->c, &p, title);
  cairo_t *cr = x->c->cr;
  /* the legend first: its box is where no cliff label may go */
  struct render_legend_item leg[MAX_SEL + 3] = {0};
  size_t nleg = 0;
  int any_nf = 0;
  for (size_t i = 0; i < x->n; i++) {
    const json_t *f = fill_of(x->run[i]), *slc = json_object_get(f, "slc");
    if (json_array_size(json_object_get(json_object_get(json_object_get(f, "near_full"), "per_gib"), "gib")))
      any_nf = 1;
    struct render_legend_item *l = &leg[nleg++];
    snprintf(l->text, sizeof l->text, "%s", x->run[i]->label);
    if (json_is_number(json_object_get(slc, "max_gib")) && json_is_number(json_object_get(slc, "min_gib")))
      snprintf(l->text, sizeof l->text, "%s (SLC %.2f / %.2f GiB)", x->run[i]->label,
               render_data_num(slc, "max_gib", 0), render_data_num(slc, "min_gib", 0));
    else if (json_is_number(json_object_get(slc, "max_gib")) && json_is_number(json_object_get(slc, "min_gib_at_least")))
      /* the near-full rewrite reached its bound in the cache: a lower bound */
      snprintf(l->text, sizeof l->text, "%s (SLC %.2f / ≥ %.2f GiB)", x->run[i]->label,
               render_data_num(slc, "max_gib", 0), render_data_num(slc, "min_gib_at_least", 0));
    else if (json_is_number(json_object_get(slc, "max_gib")))
      snprintf(l->text, sizeof l->text, "%s (SLC %.2f GiB)", x->run[i]->label, render_data_num(slc, "max_gib", 0));
    else if (slc && render_run_short_gib(x->run[i]) > 0) {
      /* a short fill wrote its region only: no cache within it, not none */
      struct render_buf nc = {0};
      json_t *params = json_pack("{s:f}", "gib", render_run_short_gib(x->run[i]));
      render_msg_put(&nc, x->o->lang, MSG_T_NO_CACHE_SHORT, params);
      json_decref(params);
      snprintf(l->text, sizeof l->text, "%s (%s)", x->run[i]->label, nc.s ? nc.s : "");
      render_buf_free(&nc);
    } else if (slc)
      snprintf(l->text, sizeof l->text, "%s (%s)", x->run[i]->label, M(MSG_T_NO_CACHE));
    if (!fill_has(x->run[i], ykey)) /* drawn beside a run that has it: say so */
      snprintf(l->text, sizeof l->text, "%s (%s)", x->run[i]->label, M(MSG_T_NOT_MEASURED));
    colour(x, i, l->rgb);
    l->shape = -1;
  }
  if (ykey2) {
    struct render_legend_item *l = &leg[nleg++];
    snprintf(l->text, sizeof l->text, "%s", M(MSG_C_P99_DASHED));
    l->rgb[0] = l->rgb[1] = l->rgb[2] = 0.35;
    l->dashed = 1;
    l->shape = -1;
  }
  if (any_nf) {
    struct render_legend_item *l = &leg[nleg++];
    snprintf(l->text, sizeof l->text, "%s", M(MSG_C_REWRITE_LEG));
    l->rgb[0] = l->rgb[1] = l->rgb[2] = 0.6;
    l->dashed = 1;
    l->shape = -1;
  }
  struct label_boxes bx = {.n = 1};
  {
    /* the box render_canvas_legend draws (top right, 8 pt text, 11 pt rows) */
    double wmax = 0;
    for (size_t i = 0; i < nleg; i++) {
      double w = render_canvas_text_width(cr, leg[i].text, 8, 0);
      if (w > wmax) wmax = w;
    }
    double bw = 6 + 18 + 4 + wmax + 6, bh = 4 + 11 * (double)nleg + 2;
    bx.x0[0] = p.x1 - 6 - bw, bx.y0[0] = p.y0 + 6, bx.x1[0] = p.x1 - 6, bx.y1[0] = p.y0 + 6 + bh;
  }
  /* the near-full rewrites first (the source of the smallest cache), light,
   * so that no drive's rewrite covers another drive's main line */
  for (size_t i = 0; i < x->n; i++) {
    double rgb[3];
    colour(x, i, rgb);
    const json_t *nf = json_object_get(fill_of(x->run[i]), "near_full");
    size_t mn = nf ? near_full_points(fill_of(x->run[i]), ykey, xs[i], zs[i]) : 0;
    double light[3] = {rgb[0] + (1 - rgb[0]) * 0.45, rgb[1] + (1 - rgb[1]) * 0.45, rgb[2] + (1 - rgb[2]) * 0.45};
    if (mn) render_canvas_polyline(cr, &p, xs[i], zs[i], mn, light, 1.0, 1);
    /* its x: the rewrite's own (xs[i] is reloaded for the main line below) */
    if (mn && !logy && bx.nl < 2 * MAX_SEL) {
      double *cx = x->s->nfx[i];
      memcpy(cx, xs[i], mn * sizeof *cx);
      bx.lx[bx.nl] = cx, bx.ly[bx.nl] = zs[i], bx.ln[bx.nl++] = mn;
    }
  }
  for (size_t i = 0; i < x->n; i++) {
    double rgb[3];
    colour(x, i, rgb);
    const json_t *f = fill_of(x->run[i]);
    np[i] = fill_points(f, ykey, xs[i], ys[i]);
    render_canvas_polyline(cr, &p, xs[i], ys[i], np[i], rgb, 1.2, 0);
    if (!logy && bx.nl < 2 * MAX_SEL) bx.lx[bx.nl] = xs[i], bx.ly[bx.nl] = ys[i], bx.ln[bx.nl++] = np[i];
    if (ykey2) {
      size_t m = load_xy(json_object_get(f, "per_gib"), "gib", ykey2, xs[i], zs[i]);
      render_canvas_polyline(cr, &p, xs[i], zs[i], m, rgb, 0.9, 1);
    }
  }
  /* marks after every line, so that no drive's line covers another's label */
  struct cliff_mark mk[2 * MAX_SEL + 8];
  size_t nm = 0;
  for (size_t i = 0; i < x->n && !logy; i++) {
    double rgb[3];
    colour(x, i, rgb);
    json_t *slc = json_object_get(fill_of(x->run[i]), "slc");
    size_t k;
    json_t *d;
    json_array_foreach(json_object_get(slc, "drops"), k, d) {
      double at = render_data_num(d, "at_gib", NAN);
      if (!isfinite(at) || at < p.x.lo || at > p.x.hi || nm >= sizeof mk / sizeof *mk) continue;
      struct cliff_mark *m = &mk[nm++];
      *m = (struct cliff_mark){.at = at, .rgb = {rgb[0], rgb[1], rgb[2]}};
      snprintf(m->lab, sizeof m->lab, "%s %.2f GiB: %.0f → %.0f MB/s", k ? M(MSG_C_CLIFF) : "SLC", at,
               render_data_num(d, "from_mb_s", 0), render_data_num(d, "to_mb_s", 0));
    }
    double mg = render_data_num(slc, "min_gib", NAN);
    if (isfinite(mg) && mg >= p.x.lo && mg <= p.x.hi && nm < sizeof mk / sizeof *mk) {
      struct cliff_mark *m = &mk[nm++];
      *m = (struct cliff_mark){.at = mg, .rgb = {rgb[0], rgb[1], rgb[2]}, .near_full = 1};
      snprintf(m->lab, sizeof m->lab, "%s %.2f GiB", M(MSG_C_NEAR_FULL), mg);
    }
  }
  for (size_t i = 0; i < nm; i++) cliff_line(cr, &p, &bx, &mk[i]);
  for (size_t i = 0; i < nm; i++) cliff_label(cr, &p, &bx, &mk[i], mk, nm);
  render_canvas_legend(cr, &p, leg, nleg, 0);
}

static void fill_draw(struct chart_ctx *x) {
  fill_draw_common(x, "mb_s", NULL, 0, M(MSG_C_WRITE_TPUT), M(MSG_C_FILL));
}

static int fill_lat_check(struct chart_ctx *x) {
  for (size_t i = 0; i < x->n; i++)
    if (fill_has(x->run[i], "lat_mean_us")) return 0;
  return render_msg_fail(x->err, -ENOENT, MSG_MISS_FILL_LAT, x->run[0]->label, NULL);
}

static void fill_lat_draw(struct chart_ctx *x) {
  fill_draw_common(x, "lat_mean_us", "lat_p99_us", 1, M(MSG_C_FILL_LAT_AX), M(MSG_C_FILL_LAT));
}

/* Write speed over time, as reviews show it beside speed over GiB; drawn
 * when any run has it (see fill_has), the others named in the legend. */
static int fill_time_has(const struct render_run *r) {
  return json_array_size(json_object_get(json_object_get(fill_of(r), "per_sec"), "t_s")) >= 2;
}

static int fill_time_check(struct chart_ctx *x) {
  for (size_t i = 0; i < x->n; i++)
    if (fill_time_has(x->run[i])) return 0;
  return render_msg_fail(x->err, -ENOENT, MSG_MISS_FILL_TIME, x->run[0]->label, NULL);
}

static void fill_time_draw(struct chart_ctx *x) {
  double(*xs)[MAX_PTS] = x->s->xs, (*ys)[MAX_PTS] = x->s->ys;
  size_t np[MAX_SEL];
  double xmax = 0, ymax = 0;
  for (size_t i = 0; i < x->n; i++) {
    np[i] = fill_time_has(x->run[i]) ? load_xy(json_object_get(fill_of(x->run[i]), "per_sec"), "t_s", "mb_s", xs[i], ys[i]) : 0;
    for (size_t k = 0; k < np[i]; k++) {
      if (xs[i][k] > xmax) xmax = xs[i][k];
      if (isfinite(ys[i][k]) && ys[i][k] > ymax) ymax = ys[i][k];
    }
  }
  struct render_plot p = {0};
  double xx[2] = {0, xmax > 0 ? xmax : 1}, yy[2] = {0, ymax};
  render_canvas_range(xx, 2, &p.x.lo, &p.x.hi, 1);
  render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  p.x.label = M(MSG_C_TIME_AX);
  p.y.label = M(MSG_C_WRITE_TPUT);
  render_canvas_plot_frame(x->c, &p, M(MSG_C_FILL_TIME));
  cairo_t *cr = x->c->cr;
  struct render_legend_item leg[MAX_SEL] = {0};
  for (size_t i = 0; i < x->n; i++) {
    double rgb[3];
    colour(x, i, rgb);
    if (np[i]) render_canvas_polyline(cr, &p, xs[i], ys[i], np[i], rgb, 1.1, 0);
    if (np[i]) snprintf(leg[i].text, sizeof leg[i].text, "%s", x->run[i]->label);
    else snprintf(leg[i].text, sizeof leg[i].text, "%s (%s)", x->run[i]->label, M(MSG_T_NOT_MEASURED));
    memcpy(leg[i].rgb, rgb, sizeof rgb);
    leg[i].shape = -1;
  }
  render_canvas_legend(cr, &p, leg, x->n, 0);
}

/* ============================================================ RW-ratio sweep */

/* as the fill chart: drawn when any run swept, the others have no line (a
 * mix of a review and a CrystalDiskMark import showed only "not measured"
 * for the import and no chart of the review's sweep) */
static int rw_check(struct chart_ctx *x) {
  for (size_t i = 0; i < x->n; i++)
    if (json_array_size(json_object_get(x->run[i]->analysis, "rw_sweep"))) return 0;
  return render_msg_fail(x->err, -ENOENT, MSG_MISS_SWEEP, x->run[0]->label, NULL);
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
  p.x.label = M(MSG_C_READ_SHARE_AX);
  double yy[2] = {0, ymax};
  render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  p.y.label = M(MSG_C_THROUGHPUT);
  char title[200];
  snprintf(title, sizeof title, "%s%s%s", M(MSG_C_RW), x->n == 1 ? " — " : "",
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

/* ======================================================= queue-depth scaling */

static int qd_check(struct chart_ctx *x) {
  for (size_t i = 0; i < x->n; i++)
    if (!json_array_size(json_object_get(x->run[i]->analysis, "qd_scaling")))
      return render_msg_fail(x->err, -ENOENT, MSG_MISS_QD, x->run[i]->label, NULL);
  return 0;
}

/* One line per drive and workload over a log2-spaced QD axis; KEY is the
 * y value (iops, or a latency on a log axis). The plateau QD is ringed. */
static void qd_draw_common(struct chart_ctx *x, const char *key, int log_y, enum render_msg_id ylabel_id,
                           enum render_msg_id title_id) {
  const char *ylabel = M(ylabel_id), *title0 = M(title_id);
  double ylo = INFINITY, yhi = 0, qmax = 1;
  for (size_t i = 0; i < x->n; i++) {
    size_t a, b;
    json_t *g, *pt;
    json_array_foreach(json_object_get(x->run[i]->analysis, "qd_scaling"), a, g)
      json_array_foreach(json_object_get(g, "points"), b, pt) {
      double v = render_data_num(pt, key, NAN);
      if (isfinite(v) && v > 0) ylo = fmin(ylo, v), yhi = fmax(yhi, v);
      qmax = fmax(qmax, render_data_num(pt, "qd", 1));
    }
  }
  if (!(yhi > 0)) ylo = 1, yhi = 10;
  struct render_plot p = {0};
  p.x.lo = 1;
  p.x.hi = qmax > 1 ? qmax : 2;
  p.x.scale = RC_LOG2; /* the QDs measured are powers of two: a tick on each */
  p.x.label = M(MSG_C_QD_AX);
  if (log_y) {
    p.y.scale = RC_LOG;
    p.y.lo = ylo / 1.5;
    p.y.hi = yhi * 1.5;
  } else {
    double yy[2] = {0, yhi * 1.25}; /* headroom: the legend sits above the lines */
    render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  }
  p.y.label = ylabel;
  char title[200];
  snprintf(title, sizeof title, "%s%s%s", title0, x->n == 1 ? " — " : "", x->n == 1 ? x->run[0]->label : "");
  render_canvas_plot_frame(x->c, &p, title);
  struct render_legend_item leg[MAX_SEL * 2] = {0};
  size_t nl = 0;
  for (size_t i = 0; i < x->n; i++) {
    double rgb[3];
    colour(x, i, rgb);
    size_t a;
    json_t *g;
    json_array_foreach(json_object_get(x->run[i]->analysis, "qd_scaling"), a, g) {
      double xs[16], ys[16];
      size_t n = 0, b;
      json_t *pt;
      json_array_foreach(json_object_get(g, "points"), b, pt) if (n < 16) {
        xs[n] = render_data_num(pt, "qd", NAN);
        ys[n++] = render_data_num(pt, key, NAN);
      }
      const char *w = render_data_str(g, "workload", "?");
      int style = !strcmp(w, "write");
      /* the legend in the chart's language (issue 27: "read/write" on a
       * Korean page), a workload the catalogue does not know as it is */
      const char *wl = !strcmp(w, "write") ? M(MSG_WRITE) : !strcmp(w, "read") ? M(MSG_READ) : w;
      render_canvas_polyline(x->c->cr, &p, xs, ys, n, rgb, 1.3, style);
      for (size_t k = 0; k < n; k++) render_canvas_marker(x->c->cr, &p, xs[k], ys[k], rgb, style);
      double pq = render_data_num(g, "plateau_qd", NAN);
      for (size_t k = 0; k < n && !log_y; k++)
        if (xs[k] == pq && isfinite(ys[k])) { /* ring the plateau point */
          cairo_set_source_rgb(x->c->cr, rgb[0], rgb[1], rgb[2]);
          cairo_set_line_width(x->c->cr, 1.0);
          cairo_new_path(x->c->cr);
          cairo_arc(x->c->cr, render_canvas_px(&p, xs[k]), render_canvas_py(&p, ys[k]), 6, 0, 2 * M_PI);
          cairo_stroke(x->c->cr);
        }
      if (nl < MAX_SEL * 2) {
        if (x->n == 1) snprintf(leg[nl].text, sizeof leg[nl].text, "%s", wl);
        else snprintf(leg[nl].text, sizeof leg[nl].text, "%s %s", x->run[i]->label, wl);
        memcpy(leg[nl].rgb, rgb, sizeof rgb);
        leg[nl].dashed = style;
        leg[nl++].shape = style;
      }
    }
  }
  render_canvas_legend(x->c->cr, &p, leg, nl, !log_y ? 0 : 1);
}

static void qd_draw(struct chart_ctx *x) {
  qd_draw_common(x, "iops", 0, MSG_C_IOPS_AX, MSG_C_QD_IOPS);
}

static void qd_lat_draw(struct chart_ctx *x) {
  qd_draw_common(x, "p99_us", 1, MSG_C_P99_AX, MSG_C_QD_LAT);
}

/* ============================================================ tail latency */

static int tail_check(struct chart_ctx *x) {
  /* drawn when any run has tail results (see fill_check) */
  for (size_t i = 0; i < x->n; i++) {
    double p[2], l[2];
    for (size_t w = 0; w < 3; w++)
      if (render_data_tail_curve(x->run[i], render_data_workloads[w].id, p, l, 2) > 0) return 0;
  }
  return render_msg_fail(x->err, -ENOENT, MSG_MISS_TAIL, x->run[0]->label, NULL);
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
  p.x.label = M(MSG_C_PERCENTILE_AX);
  p.y.scale = RC_LOG;
  if (!isfinite(lmin)) lmin = 1, lmax = 10;
  p.y.lo = pow(10, floor(log10(lmin * 0.9)));
  p.y.hi = pow(10, ceil(log10(lmax * 1.1)));
  p.y.label = M(MSG_C_LATENCY_AX);
  render_canvas_plot_frame(x->c, &p, M(MSG_C_TAIL));
  struct render_legend_item leg[MAX_SEL * 3] = {0};
  size_t nl = 0;
  for (size_t i = 0; i < x->n; i++) {
    double rgb[3];
    colour(x, i, rgb);
    if (!np[i][0] && !np[i][1] && !np[i][2]) {
      snprintf(leg[nl].text, sizeof leg[nl].text, "%s (%s)", x->run[i]->label, M(MSG_T_NOT_MEASURED));
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
      snprintf(leg[nl].text, sizeof leg[nl].text, "%s %s", x->run[i]->label, M(render_data_workloads[w].msg));
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
    if (!strcmp(render_data_workloads[i].id, w)) t = M(render_data_workloads[i].msg);
  snprintf(buf, len, "%s — %s %s", base, t, M(MSG_C_QD1_4K));
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
      return x->o->test ? render_msg_fail(x->err, -ENOENT, MSG_MISS_TEST, x->run[i]->label, x->o->test)
                        : render_msg_fail(x->err, -ENOENT, MSG_MISS_TAIL_TEST, x->run[i]->label,
                                          x->o->workload ? x->o->workload : "read");
    if (!json_array_size(json_object_get(json_object_get(t, "series"), "t_s")))
      return render_msg_fail(x->err, -ENOENT, MSG_MISS_SERIES, x->run[i]->label, NULL);
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
  p.x.label = M(MSG_C_TIME_AX);
  p.y.scale = RC_LOG;
  if (!isfinite(lmin)) lmin = 1, lmax = 10;
  p.y.lo = nice125(lmin * 0.9, 0);
  p.y.hi = nice125(lmax * 1.1, 1);
  if (p.y.hi < p.y.lo * 5) p.y.hi = nice125(p.y.lo * 5, 1); /* room for the legend above flat lines */
  p.y.label = M(MSG_C_LATENCY_AX);
  char title[300];
  lat_title(x, M(MSG_C_LATENCY), title, sizeof title);
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

/* The histogram comes from the analysis (analyze_log's "hist"), made when
 * the log was analyzed: drawing (and checking, up to six times per template
 * directive) never decodes a raw log. */
static int hist_load(struct chart_ctx *x, size_t i, double *counts, struct ssdrev_err *err) {
  json_t *t = lat_test(x, i);
  json_t *h = json_object_get(t, "hist");
  json_t *c = json_object_get(h, "counts");
  json_int_t first = json_integer_value(json_object_get(h, "first_bin"));
  if (!t || !json_is_array(c) || render_data_num(h, "per_decade", 0) != HIST_PER_DECADE || first < 0) {
    const char *why = render_data_str(t, "error", NULL); /* the log could not be analyzed: say why */
    return ssdrev_fail(err, -ENOENT, "run '%s': no latency histogram for test %s in analysis.json (%s%s)",
                       x->run[i]->label, x->o->test ? x->o->test : (x->o->workload ? x->o->workload : "read"),
                       why ? "its log was not analyzed: " : "a test with a log: tests.NAME.hist", why ? why : "");
  }
  memset(counts, 0, HIST_BINS * sizeof *counts);
  size_t k;
  json_t *v;
  json_array_foreach(c, k, v) {
    if ((size_t)first + k >= HIST_BINS) break;
    counts[(size_t)first + k] = json_is_number(v) ? json_number_value(v) : 0;
  }
  return 0;
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
  p.x.label = M(MSG_C_LATENCY_AX);
  p.y.scale = RC_LOG;
  p.y.lo = 1;
  p.y.hi = pow(10, ceil(log10(cmax * 1.5)));
  p.y.label = M(MSG_C_IOS_PER_BIN);
  char title[300];
  lat_title(x, M(MSG_C_HIST), title, sizeof title);
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
  /* every drive's cells (a CrystalDiskMark 6 drive's SEQ128K beside a
   * CDM 8 drive's SEQ1M) */
  json_t *cells[16];
  size_t nc = 0;
  for (size_t i = 0; i < x->n; i++) {
    json_t *ci[16];
    size_t m = render_data_cdm_cells(x->run[i], state_of(x), ci, 16);
    for (size_t j = 0; j < m; j++) {
      int seen = 0;
      for (size_t k = 0; k < nc; k++)
        seen |= !strcmp(render_data_str(cells[k], "cell", ""), render_data_str(ci[j], "cell", ""));
      if (!seen && nc < 16) cells[nc++] = ci[j];
    }
  }
  /* the union in CrystalDiskMark's order, not the first drive's (issue 27) */
  render_data_cdm_sort(cells, nc);
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
  p.y.label = M(MSG_C_THROUGHPUT);
  struct render_buf title = {0};
  json_t *params = json_pack("{s:s, s:s}", "op", op_of(x), "state", state_of(x));
  render_msg_put(&title, x->o->lang, MSG_C_BARS, params);
  json_decref(params);
  p.no_xticks = 1; /* categories are labelled below each group */
  render_canvas_plot_frame(x->c, &p, title.s && !title.oom ? title.s : "");
  render_buf_free(&title);
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
        render_canvas_text(cr, 0, 2, M(MSG_T_NOT_MEASURED), bw > 40 ? 7 : 5.5, 0, RC_LEFT);
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
    if (absent) snprintf(leg[i].text, sizeof leg[i].text, "%s (%s)", x->run[i]->label, M(MSG_T_NOT_MEASURED));
    else snprintf(leg[i].text, sizeof leg[i].text, "%s", x->run[i]->label);
    colour(x, i, leg[i].rgb);
    leg[i].dashed = 0;
    leg[i].shape = 1;
  }
  render_canvas_legend(cr, &p, leg, x->n, 0);
}

/* ============================================== temperature and write speed */

/* The review's temperature series (analysis temperature: the steps that
 * sampled it joined end to end, docs/archive.md) against time, with the
 * write MB/s of those steps' write-only tests placed on the same clock:
 * each step starts where the previous one ended, as the samples do, and
 * its tests run back to back from the step's start. */

static int is_write_test(const json_t *t) {
  const char *k = render_data_str(t, "kind", "");
  if (!strcmp(k, "prefill") || !strcmp(k, "fill_drive")) return 1;
  if (!strcmp(k, "tail")) return !strcmp(render_data_str(t, "workload", ""), "write");
  if (!strcmp(k, "rw_sweep")) return render_data_num(t, "read_pct", -1) == 0;
  return 0;
}

static int temp_check(struct chart_ctx *x) {
  json_t *tp = json_object_get(x->run[0]->analysis, "temperature");
  if (!json_array_size(json_object_get(tp, "c")) || !json_array_size(json_object_get(tp, "t_s")))
    return render_msg_fail(x->err, -ENOENT, MSG_MISS_TEMP, x->run[0]->label, NULL);
  return 0;
}

/* Write MB/s on the joined clock into xs/ys (at most MAX_PTS points). */
static size_t temp_write_series(const struct render_run *r, double *xs, double *ys) {
  json_t *tp = json_object_get(r->analysis, "temperature"), *tests = json_object_get(r->analysis, "tests");
  size_t n = 0;
  double off = 0;
  const char *step;
  json_t *st;
  json_object_foreach(json_object_get(tp, "steps"), step, st) {
    double at = 0; /* seconds into the step */
    const char *name;
    json_t *t;
    json_object_foreach(tests, name, t) {
      if (strcmp(render_data_str(t, "step", ""), step)) continue;
      json_t *s = json_object_get(t, "series");
      json_t *ts = json_object_get(s, "t_s"), *mb = json_object_get(s, "mb_s");
      size_t m = json_array_size(ts) < json_array_size(mb) ? json_array_size(ts) : json_array_size(mb);
      double last = 0, iv = render_data_num(s, "interval_s", 0);
      int w = is_write_test(t);
      for (size_t k = 0; k < m; k++) {
        double tk = json_number_value(json_array_get(ts, k)), v = json_number_value(json_array_get(mb, k));
        if (w && n < MAX_PTS && isfinite(tk) && isfinite(v)) {
          xs[n] = off + at + tk;
          ys[n++] = v;
        }
        if (tk > last) last = tk;
      }
      /* the test's own run time when the analysis has it (a short test
       * ends inside its first interval) */
      double el = render_data_num(json_object_get(json_object_get(t, "ops"), "all"), "elapsed_s", NAN);
      at += isfinite(el) && el > 0 ? el : last + (m ? iv : 0);
      if (w && n < MAX_PTS && n && isfinite(ys[n - 1])) {
        xs[n] = NAN; /* a gap between tests: the polyline breaks here */
        ys[n++] = NAN;
      }
    }
    /* the next step's samples start where this one's last sample is */
    json_t *sts = json_object_get(st, "t_s");
    if (json_array_size(sts)) off += json_number_value(json_array_get(sts, json_array_size(sts) - 1));
  }
  return n;
}

static void temp_draw(struct chart_ctx *x) {
  json_t *tp = json_object_get(x->run[0]->analysis, "temperature");
  double(*tx)[MAX_PTS] = x->s->xs, (*tc)[MAX_PTS] = x->s->ys, *wx = x->s->zs[0], *wy = x->s->zs[1];
  size_t nt = load_xy(tp, "t_s", "c", tx[0], tc[0]);
  size_t nw = temp_write_series(x->run[0], wx, wy);
  double tmax = 0, wmax = 0, cv[MAX_PTS];
  size_t ncv = 0;
  for (size_t k = 0; k < nt; k++) {
    if (isfinite(tx[0][k]) && tx[0][k] > tmax) tmax = tx[0][k];
    if (isfinite(tc[0][k])) cv[ncv++] = tc[0][k];
  }
  for (size_t k = 0; k < nw; k++) {
    if (isfinite(wx[k]) && wx[k] > tmax) tmax = wx[k];
    if (isfinite(wy[k]) && wy[k] > wmax) wmax = wy[k];
  }
  /* minutes once the review is longer than ten of them */
  double scale = tmax > 600 ? 60 : 1;
  for (size_t k = 0; k < nt; k++) tx[0][k] /= scale;
  for (size_t k = 0; k < nw; k++) wx[k] /= scale;
  struct render_plot p = {0};
  double xx[2] = {0, tmax / scale};
  render_canvas_range(xx, 2, &p.x.lo, &p.x.hi, 1);
  p.x.hi = tmax > 0 ? tmax / scale : 1;
  p.x.label = M(scale > 1 ? MSG_C_TIME_MIN_AX : MSG_C_TIME_AX);
  render_canvas_range(cv, ncv, &p.y.lo, &p.y.hi, 0);
  p.y.label = M(MSG_C_TEMP_AX);
  /* the write axis on the right: its tick labels and its name */
  double wlo = 0, whi = 1, wstep = 1;
  double wyy[2] = {0, wmax};
  render_canvas_range(wyy, 2, &wlo, &whi, 1);
  wstep = render_canvas_nice_step(wlo, whi, 6);
  char wl[32];
  render_canvas_fmt_tick(wl, sizeof wl, whi, wstep);
  p.right_pt = nw ? 4 + render_canvas_text_width(x->c->cr, wl, 8, 0) + 6 + 9 + 4 : 0;
  struct render_buf title = {0};
  json_t *tparams = json_pack("{s:s}", "label", x->run[0]->label);
  render_msg_put(&title, x->o->lang, MSG_C_TEMP_TITLE, tparams);
  json_decref(tparams);
  render_canvas_plot_frame(x->c, &p, title.s ? title.s : "");
  render_buf_free(&title);
  cairo_t *cr = x->c->cr;
  double tc_rgb[3] = {0.80, 0.15, 0.10}, w_rgb[3];
  colour(x, 0, w_rgb);
  if (nw) {
    /* write MB/s drawn on the temperature plot's pixels through its own range */
    struct render_plot q = p;
    q.y.lo = wlo;
    q.y.hi = whi;
    q.y.scale = RC_LINEAR;
    render_canvas_polyline(cr, &q, wx, wy, nw, w_rgb, 0.9, 0);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    for (double v = wlo; v <= whi + wstep * 1e-6; v += wstep) {
      char lab[32];
      render_canvas_fmt_tick(lab, sizeof lab, v, wstep);
      render_canvas_text(cr, p.x1 + 4, render_canvas_py(&q, v) + 8 * 0.35, lab, 8, 0, RC_LEFT);
    }
    cairo_save(cr);
    cairo_translate(cr, x->c->w_pt - 8, (p.y0 + p.y1) / 2);
    cairo_rotate(cr, -M_PI / 2);
    render_canvas_text(cr, 0, 0, M(MSG_C_WRITE_TPUT), 9, 0, RC_CENTER);
    cairo_restore(cr);
  }
  render_canvas_polyline(cr, &p, tx[0], tc[0], nt, tc_rgb, 1.6, 0);
  struct render_legend_item leg[2] = {0};
  snprintf(leg[0].text, sizeof leg[0].text, "%s", M(MSG_C_TEMP_LEGEND));
  memcpy(leg[0].rgb, tc_rgb, sizeof tc_rgb);
  leg[0].shape = -1;
  snprintf(leg[1].text, sizeof leg[1].text, "%s", M(MSG_C_WRITE_LEGEND));
  memcpy(leg[1].rgb, w_rgb, sizeof w_rgb);
  leg[1].shape = -1;
  render_canvas_legend(cr, &p, leg, nw ? 2 : 1, 0);
}

/* ============================================ thermal step (chart/thermal.c) */

static int thermal_check(struct chart_ctx *x) {
  if (!render_chart_thermal_of(x->run[0]->analysis))
    return render_msg_fail(x->err, -ENOENT, MSG_MISS_THERMAL, x->run[0]->label, NULL);
  return 0;
}

static void thermal_draw(struct chart_ctx *x) {
  double rgb[3];
  colour(x, 0, rgb);
  render_chart_thermal_draw(x->c, render_chart_thermal_of(x->run[0]->analysis), x->o->lang, x->run[0]->label, rgb);
}

/* =================================================================== table */

/* cache_recovery: render/chart/recovery.c */
static int recovery_check(struct chart_ctx *x) { return render_chart_recovery_check(x->run, x->n, x->err); }
static void recovery_draw(struct chart_ctx *x) { render_chart_recovery_draw(x->c, x->o->lang, x->run, x->idx, x->n); }

static const struct chart_kind kinds[] = {
    {"cdm", "CrystalDiskMark-style results panel of one drive in one state", 1, 3.3, cdm_check, cdm_draw, "state"},
    {"fill", "fill drive: write MB/s vs GiB written, SLC cliffs marked", 0, 3.4, fill_check, fill_draw, ""},
    {"fill_latency", "fill drive: mean and p99 write latency vs GiB written (log)", 0, 3.4, fill_lat_check,
     fill_lat_draw, ""},
    {"fill_time", "fill drive: write MB/s vs time (s)", 0, 3.4, fill_time_check, fill_time_draw, ""},
    {"rw_ratio", "low-QD 4K random MB/s vs read share, one line per QD", 0, 3.4, rw_check, rw_draw, ""},
    {"tail", "tail latency vs percentile on a nines axis (log µs)", 0, 3.6, tail_check, tail_draw, ""},
    {"latency", "p50 / p99 latency over time of a tail test (series)", 0, 3.2, lat_check, lat_draw,
     "workload test"},
    {"hist", "latency histogram of a tail test (analysis tests.NAME.hist)", 0, 3.2, hist_check, hist_draw,
     "workload test"},
    {"qd_scaling", "4K random IOPS vs queue depth per workload, plateau ringed", 0, 3.4, qd_check, qd_draw, ""},
    {"qd_latency", "4K random p99 latency vs queue depth per workload (log)", 0, 3.4, qd_check, qd_lat_draw, ""},
    {"bars", "CrystalDiskMark-style MB/s of N runs side by side (op=read|write|mix)", 0, 3.4, bars_check,
     bars_draw, "state op"},
    {"temperature", "drive temperature and write MB/s over the review's time", 1, 3.2,
     temp_check, temp_draw, ""},
    {"thermal", "thermal step: sustained write MB/s and temperature on one time axis, throttling marked", 1,
     3.3 + RENDER_CHART_THERMAL_LEG_PT / 72, thermal_check, thermal_draw, ""},
    {"steady_state", "SNIA PTS convergence: IOPS per round, the window's mean, +-10% / +-20% bands, best-fit line", 1, 3.4,
     render_chart_steady_check, render_chart_steady_draw, ""},
    {"consistency", "IOPS per second and per 100 ms of a sustained random write (dots, linear y)", 1, 3.4,
     render_chart_cons_check, render_chart_cons_draw, ""},
    {"consistency_log", "the consistency scatter on a log IOPS axis", 1, 3.4, render_chart_cons_check,
     render_chart_cons_log_draw, ""},
    {"consistency_latency", "p99.9 latency per second of the sustained random write (log)", 1, 3.2,
     render_chart_cons_check, render_chart_cons_lat_draw, ""},
    {"cache_recovery", "recovered SLC cache (GiB) vs idle time before the write (log), one line per drive", 0, 3.4,
     recovery_check, recovery_draw, ""},
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
      /* a chart of a short run says so in its corner (issue 27), whatever
       * the kind: its curves are the small region's */
      for (size_t i = 0; i < x.n; i++)
        if (x.run[i]->short_review) c.tag = render_msg(o->lang, MSG_C_SHORT_TAG);
      x.c = &c;
      k->draw(&x);
      rc = render_canvas_canvas_end(&c, err);
    }
  }
  free(x.s);
  return rc;
}
