/* out.c — batch compare outputs, one writer per format in a table: ranked
 * bar charts with the groups' spread (the chart canvas, PNG), the report
 * (Markdown, and PDF through the renderer's Markdown-to-PDF), tidy CSV
 * (libcsv quoting) and the xlsx workbook (xlsx.c). Charts come first: the
 * documents link them. Every string shown comes from strings.c. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "render/compare/compare_int.h"
#include "render/render_int.h"

/* Groups shown per chart and per table; all of them are in groups.csv. */
#define CMP_TOP 30u
/* Runs listed in the report body; more are only in runs.csv. */
#define CMP_RUNS_LISTED 200u

/* One figure of one group that fails the gate. */
struct cmp_gate_fail {
  size_t f, g;
  struct cmp_diff d;
};

/* Overlays at most (write_overlays), and points on one. */
#define CMP_OV_MAX 16
#define CMP_OV_POINTS 128

struct cmp_out {
  const struct cmp_table *t;
  const struct render_cmp_opts *o;
  struct render_cmp_result *res;
  char **chart_of; /* per figure: its chart's relative path, or NULL */
  struct cmp_gate_fail *fails; /* the gate's failures, report order (o->gate) */
  size_t nfails;
  size_t ntested;              /* the gate's tests: (figure, group) pairs with 2+ samples on both sides */
  unsigned char *g_tested;     /* per group: any of its figures tested (the gate's) */
  char *ov_link[CMP_OV_MAX]; /* the overlays drawn (write_overlays): links, malloc'd */
  char ov_title[CMP_OV_MAX][200];
  size_t nov;
};

/* Groups in the overview's columns (the best-scored, the baseline first):
 * six keep its table, cells wrapped to three lines, on the PDF's first page
 * (tests/cli/compare_overview.sh); the rest are listed after it, and
 * groups.csv has every group. */
#define CMP_OV_COLS 6u
/* Rows of the overview when no group has any of its chosen figures
 * (ov_pick): the first headline figures, enough to fill about a page. */
#define CMP_OV_FALLBACK_ROWS 10u

/* The overview's chosen figures (docs/compare.md): per CrystalDiskMark cell
 * of CDM 8 one read and one write figure at FOB, the fill's speed after the
 * SLC cache and the QD1 read tail -- what a review's summary quotes; every
 * headline figure still has its section, counts in the score and the gate. */
static int ov_pick(const struct cmp_fig *fig) {
  if (!strcmp(fig->family, "cdm")) {
    static const char *const cells[] = {"FOB default SEQ1M Q8T1", "FOB default SEQ1M Q1T1",
                                        "FOB default RND4K Q32T1", "FOB default RND4K Q1T1"};
    if (strcmp(fig->metric, "read_mb_s") && strcmp(fig->metric, "write_mb_s")) return 0;
    for (size_t i = 0; i < sizeof cells / sizeof *cells; i++)
      if (!strcmp(fig->key, cells[i])) return 1;
    return 0;
  }
  if (!strcmp(fig->family, "slc")) return !strcmp(fig->key, "slc") && !strcmp(fig->metric, "post_cache_mb_s");
  if (!strcmp(fig->family, "tail")) return !strcmp(fig->key, "read") && !strcmp(fig->metric, "p99.99_us");
  return 0;
}

static void slug(const char *s, char *out, size_t len) {
  size_t k = 0;
  for (; *s && k + 1 < len; s++) {
    char c = *s;
    int ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a'), ok = 1;
    if (ok) out[k++] = c;
    else if (k && out[k - 1] != '-') out[k++] = '-';
  }
  while (k && out[k - 1] == '-') k--;
  out[k] = 0;
}

static const char *family_title(unsigned fam, int ko) {
  return render_cmp_msg(fam < render_cmp_nfamilies ? (enum render_cmp_msg)render_cmp_families[fam].title : CM_FAM_TESTS,
                        ko);
}

/* The groups that have figure f, best first (by median; ties by name). */
struct rank_ctx {
  const struct cmp_table *t;
  size_t f;
};
static struct rank_ctx rank_ctx_g; /* qsort has no context argument; out.c runs on one thread */

static int rank_cmp(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  const struct cmp_table *t = rank_ctx_g.t;
  /* unranked groups (--short beside full runs) after every ranked one */
  if (t->groups[x].unranked != t->groups[y].unranked) return t->groups[x].unranked ? 1 : -1;
  double mx = cmp_stat_at(t, rank_ctx_g.f, x)->median, my = cmp_stat_at(t, rank_ctx_g.f, y)->median;
  int hb = t->figs->v[rank_ctx_g.f].higher_better;
  if (mx != my) return (hb ? mx > my : mx < my) ? -1 : 1;
  return x < y ? -1 : x > y;
}

static size_t rank_groups(const struct cmp_table *t, size_t f, size_t *out) {
  size_t n = 0;
  for (size_t g = 0; g < t->ngroups; g++)
    if (cmp_stat_at(t, f, g)->n) out[n++] = g;
  rank_ctx_g = (struct rank_ctx){t, f};
  qsort(out, n, sizeof *out, rank_cmp);
  return n;
}

static double ratio_of(const struct cmp_table *t, size_t f, size_t g) {
  const struct cmp_stat *b = cmp_stat_at(t, f, t->baseline_group), *s = cmp_stat_at(t, f, g);
  if (!b->n || !s->n || b->median == 0) return NAN;
  return s->median / b->median;
}

static void group_shown(const struct cmp_table *t, size_t g, char *buf, size_t len) {
  snprintf(buf, len, "%s%s%s%s", t->groups[g].name, t->groups[g].simulated ? " (sim)" : "",
           t->groups[g].has_short ? render_cmp_msg(CM_SHORT_MARK, t->lang_ko) : "",
           g == t->baseline_group ? render_cmp_msg(CM_BASELINE_MARK, t->lang_ko) : "");
}

/* The group as labelled in charts and the overview: its short name (the
 * parts every group shares are said once, CM_COMMON). */
static void group_label(const struct cmp_table *t, size_t g, char *buf, size_t len) {
  snprintf(buf, len, "%s%s%s%s", t->groups[g].short_name, t->groups[g].simulated ? " (sim)" : "",
           t->groups[g].has_short ? render_cmp_msg(CM_SHORT_MARK, t->lang_ko) : "",
           g == t->baseline_group ? render_cmp_msg(CM_BASELINE_MARK, t->lang_ko) : "");
}

/* Cuts a label to fit WIDTH: its first part (the model) loses characters
 * from its front first ("…MZVLB256HAHQ-000L7": models of one maker share
 * their beginning, the variant is at the end), down to 10 characters, so
 * what follows " · " (firmware, state) stays readable; then the " (sim)"
 * mark goes (the groups table beside the chart says it), the model down to
 * 6 characters; then the label's end. */
void render_cmp_fit_label(cairo_t *cr, char *name, size_t size, double width, int bold) {
  static const char ell[] = "…"; /* 3 bytes */
  for (int pass = 0; pass < 3; pass++) {
    size_t keep = pass == 0 ? 10 : 6;
    while (pass < 2 && render_canvas_text_width(cr, name, 8.5, bold) > width) {
      char *sep = strstr(name, " · ");
      char *start = !strncmp(name, ell, 3) ? name + 3 : name;
      if (!sep || (size_t)(sep - start) <= keep) break;
      char *c = start + 1;
      while (c < sep && ((unsigned char)*c & 0xC0) == 0x80) c++; /* whole UTF-8 characters */
      char rest[500];
      snprintf(rest, sizeof rest, "%s%s", ell, c);
      snprintf(name, size, "%s", rest);
    }
    char *sim = strstr(name, " (sim)");
    if (pass == 0 && sim && render_canvas_text_width(cr, name, 8.5, bold) > width)
      memmove(sim, sim + 6, strlen(sim + 6) + 1);
  }
  while (strlen(name) > 4 && render_canvas_text_width(cr, name, 8.5, bold) > width) {
    size_t l = strlen(name);
    if (l >= 3 && !strcmp(name + l - 3, ell)) l -= 3;
    if (!l) break;
    l--;
    while (l && ((unsigned char)name[l] & 0xC0) == 0x80) l--;
    snprintf(name + l, size - l, "%s", ell);
  }
}

/* ---------------------------------------------------------------- charts */

/* Horizontal bars, best first: the group's median as the bar (the
 * baseline darker), a min-max whisker with a median tick for groups of
 * several runs, the value, the ratio and n after the bar. No title: the
 * report's heading above it names the figure and its unit (the chart's own
 * title and a caption under it said it twice more). */
static int draw_chart(const struct cmp_out *c, size_t f, const size_t *rank, size_t nrank, const char *path,
                      struct ssdrev_err *err) {
  const struct cmp_table *t = c->t;
  const struct cmp_fig *fig = &t->figs->v[f];
  int ko = t->lang_ko;
  size_t shown = nrank < CMP_TOP ? nrank : CMP_TOP;
  const double row_pt = 18, top_pt = 30, bottom_pt = 28, w_in = 6.5;
  double h_in = (top_pt + row_pt * (double)shown + bottom_pt) / 72;
  struct render_canvas cv;
  /* 300 dpi: the PDF writer places chart PNGs at that resolution */
  int rc = render_canvas_canvas_begin(&cv, path, w_in, h_in, 300, err);
  if (rc) return rc;
  cairo_t *cr = cv.cr;
  char sub[200];
  const char *better = render_cmp_msg(fig->higher_better ? CM_HIGHER_BETTER : CM_LOWER_BETTER, ko);
  if (nrank > shown) {
    char a[32], b[32], top[160];
    snprintf(a, sizeof a, "%zu", shown);
    snprintf(b, sizeof b, "%zu", nrank);
    snprintf(top, sizeof top, render_cmp_msg(CM_CHART_TOP, ko), a, b);
    snprintf(sub, sizeof sub, "%s; %s", better, top);
  } else {
    snprintf(sub, sizeof sub, "%s", better);
  }
  cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
  render_canvas_text(cr, 8, 14, sub, 8.5, 0, RC_LEFT);
  double label_w = 0;
  for (size_t i = 0; i < shown; i++) {
    char g[500];
    group_label(t, rank[i], g, sizeof g);
    double w = render_canvas_text_width(cr, g, 8.5, rank[i] == t->baseline_group);
    if (w > label_w) label_w = w;
  }
  const double W = w_in * 72, x0_max = W * 0.42;
  double x0 = 8 + (label_w < x0_max - 16 ? label_w : x0_max - 16) + 8, x1 = W - 140;
  double max = 0;
  for (size_t i = 0; i < shown; i++) {
    const struct cmp_stat *s = cmp_stat_at(t, f, rank[i]);
    if (s->max > max) max = s->max;
  }
  if (!(max > 0)) max = 1;
  /* as many ticks as their labels leave room for (a narrow bar area of
   * six-digit IOPS ran "200,000400,000" together) */
  char widest[64];
  render_cmp_fmt_num(widest, sizeof widest, max, fig->unit);
  double tick_w = render_canvas_text_width(cr, widest, 7.5, 0) + 10;
  int nticks = (int)((x1 - x0) / (tick_w > 1 ? tick_w : 1));
  if (nticks > 5) nticks = 5;
  if (nticks < 2) nticks = 2;
  double step = render_canvas_nice_step(0, max, nticks), hi = ceil(max / step) * step;
  double y_end = top_pt + row_pt * (double)shown;
  /* grid and ticks */
  cairo_set_line_width(cr, 0.4);
  for (double v = 0; v <= hi * (1 + 1e-9); v += step) {
    double x = x0 + (x1 - x0) * v / hi;
    cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
    cairo_move_to(cr, x, top_pt - 4);
    cairo_line_to(cr, x, y_end);
    cairo_stroke(cr);
    char tick[64];
    render_cmp_fmt_num(tick, sizeof tick, v, fig->unit);
    /* the ticks are round numbers: no decimals shown unless needed */
    if (step >= 1) {
      char *dot = strchr(tick, '.');
      if (dot) *dot = 0;
    }
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    render_canvas_text(cr, x, y_end + 12, tick, 7.5, 0, RC_CENTER);
  }
  for (size_t i = 0; i < shown; i++) {
    size_t g = rank[i];
    const struct cmp_stat *s = cmp_stat_at(t, f, g);
    double y = top_pt + row_pt * (double)i;
    char name[500];
    group_label(t, g, name, sizeof name);
    /* a long group name is cut to the label column, the model first */
    render_cmp_fit_label(cr, name, sizeof name, x0 - 14, g == t->baseline_group);
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    render_canvas_text(cr, x0 - 6, y + row_pt * 0.68, name, 8.5, g == t->baseline_group, RC_RIGHT);
    double bx = x0 + (x1 - x0) * s->median / hi;
    if (g == t->baseline_group) cairo_set_source_rgb(cr, 0.13, 0.35, 0.62);
    else cairo_set_source_rgb(cr, 0.55, 0.72, 0.88);
    cairo_rectangle(cr, x0, y + 3, bx - x0, row_pt - 6);
    cairo_fill(cr);
    if (s->n > 1) {
      double a = x0 + (x1 - x0) * s->min / hi, b = x0 + (x1 - x0) * s->max / hi, ym = y + row_pt / 2;
      cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
      cairo_set_line_width(cr, 0.8);
      cairo_move_to(cr, a, ym);
      cairo_line_to(cr, b, ym);
      cairo_move_to(cr, a, ym - 3);
      cairo_line_to(cr, a, ym + 3);
      cairo_move_to(cr, b, ym - 3);
      cairo_line_to(cr, b, ym + 3);
      cairo_stroke(cr);
      cairo_set_line_width(cr, 1.6);
      cairo_move_to(cr, bx, ym - 4);
      cairo_line_to(cr, bx, ym + 4);
      cairo_stroke(cr);
    }
    char v[64], r[32], lab[160];
    render_cmp_fmt_num(v, sizeof v, s->median, fig->unit);
    render_cmp_fmt_ratio(r, sizeof r, ratio_of(t, f, g));
    if (s->n > 1) snprintf(lab, sizeof lab, "%s  %s  n=%u", v, r, s->n);
    else snprintf(lab, sizeof lab, "%s  %s", v, r);
    double xe = s->n > 1 ? x0 + (x1 - x0) * s->max / hi : bx;
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    render_canvas_text(cr, xe + 4, y + row_pt * 0.68, lab, 8, 0, RC_LEFT);
  }
  return render_canvas_canvas_end(&cv, err);
}

static int write_overlays(struct cmp_out *c, struct ssdrev_err *err);

static int write_charts(struct cmp_out *c, struct ssdrev_err *err) {
  const struct cmp_table *t = c->t;
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/charts", c->o->out_dir);
  int rc = ssdrev_mkdirs(dir, err);
  if (!rc) rc = write_overlays(c, err);
  unsigned max = c->o->max_charts ? c->o->max_charts : 64;
  size_t *rank = malloc((t->ngroups ? t->ngroups : 1) * sizeof *rank);
  if (!rank) return ssdrev_fail(err, -ENOMEM, "out of memory");
  for (size_t k = 0; k < t->nfig_order && !rc && c->res->charts < max; k++) {
    size_t f = t->order[k];
    const struct cmp_fig *fig = &t->figs->v[f];
    if (!fig->headline) continue;
    size_t nr = rank_groups(t, f, rank);
    if (!nr) continue;
    char id[600], sl[300], rel[400], path[4700];
    snprintf(id, sizeof id, "%s %s %s", fig->family, fig->key, fig->metric);
    slug(id, sl, sizeof sl);
    snprintf(rel, sizeof rel, "charts/%02zu-%s.png", c->res->charts + 1, sl);
    snprintf(path, sizeof path, "%s/%s", c->o->out_dir, rel);
    rc = draw_chart(c, f, rank, nr, path, err);
    if (!rc) {
      c->chart_of[f] = strdup(rel);
      c->res->charts++;
    }
  }
  free(rank);
  return rc;
}

/* ---------------------------------------------------------------- overlays */

struct ov_point {
  double x;
  size_t f;
};

/* Whether group g has a median on the curve of np points. */
static int ov_has(const struct cmp_table *t, size_t g, const struct ov_point *pt, size_t np) {
  for (size_t j = 0; j < np; j++) {
    const struct cmp_stat *s = cmp_stat_at(t, pt[j].f, g);
    if (s->n && s->median > 0) return 1;
  }
  return 0;
}

/* The groups in the overview's order (baseline first, then by score, then
 * the unranked: --short beside full runs, no shared figure), at most
 * CMP_OV_COLS: the overview's columns when PT is NULL. With a curve PT of
 * NP points, the groups an overlay draws: those that have the curve, a
 * baseline without it (an import beside full runs) leaving its place to the
 * next group; POS (when not NULL) gets each drawn group's place in the
 * order whether drawn or not, so a group keeps its colour from one overlay
 * to the next. */
static size_t overlay_groups(const struct cmp_table *t, const struct ov_point *pt, size_t np, size_t *cols,
                             size_t *pos) {
  size_t nc = 0, k = 0;
#define OV_TAKE(g)                                                                                                     \
  do {                                                                                                                 \
    if (!pt || ov_has(t, (g), pt, np)) {                                                                               \
      if (pos) pos[nc] = k;                                                                                            \
      cols[nc++] = (g);                                                                                                \
    }                                                                                                                  \
    k++;                                                                                                               \
  } while (0)
  OV_TAKE(t->baseline_group);
  for (size_t r = 1; r <= t->ngroups && nc < CMP_OV_COLS; r++)
    for (size_t g = 0; g < t->ngroups && nc < CMP_OV_COLS; g++)
      if (t->groups[g].score_rank == r && g != t->baseline_group) OV_TAKE(g);
  for (size_t g = 0; g < t->ngroups && nc < CMP_OV_COLS; g++)
    if (!t->groups[g].score_rank && g != t->baseline_group) OV_TAKE(g);
#undef OV_TAKE
  return nc;
}

static int ov_cmp(const void *a, const void *b) {
  double x = ((const struct ov_point *)a)->x, y = ((const struct ov_point *)b)->x;
  return x < y ? -1 : x > y;
}

/* The figures of one curve: family FAM, key KEY, metrics "PREFIX<x>SUFFIX"
 * (qd32_iops: x 32; p99.9_us: x 99.9), sorted by x. */
static size_t ov_points(const struct cmp_table *t, const char *fam, const char *key, const char *prefix,
                        const char *suffix, struct ov_point *pt, size_t max) {
  size_t n = 0, lp = strlen(prefix), ls = strlen(suffix);
  for (size_t f = 0; f < t->figs->n && n < max; f++) {
    const struct cmp_fig *g = &t->figs->v[f];
    size_t lm = strlen(g->metric);
    if (strcmp(g->family, fam) || strcmp(g->key, key) || lm <= lp + ls || strncmp(g->metric, prefix, lp) ||
        strcmp(g->metric + lm - ls, suffix))
      continue;
    char num[32], *end;
    snprintf(num, sizeof num, "%.*s", (int)(lm - lp - ls), g->metric + lp);
    double x = strtod(num, &end);
    if (end == num || *end || !isfinite(x)) continue;
    pt[n++] = (struct ov_point){x, f};
  }
  qsort(pt, n, sizeof *pt, ov_cmp);
  return n;
}

/* One overlay: a line per group through its medians at each point, and
 * under it each run's own line, thin and pale, for a group of several.
 * OV_NINES: the x axis is the percentile ("nines") axis and y is log;
 * OV_LOG_X: x (QD) is log and y linear from 0; OV_LINEAR: both linear, y
 * from 0, x from its first point (rounds); OV_LINEAR0: x from 0 too (a
 * share written, a time); OV_LINEAR0_FIT: as OV_LINEAR0, y fitted to the
 * data (a temperature). Writes nothing when no group has two points. */
enum { OV_LOG_X = 0, OV_NINES = 1, OV_LINEAR = 2, OV_LINEAR0 = 3, OV_LINEAR0_FIT = 4 };
/* Runs drawn as thin lines under a group's median line (the first of its
 * runs in input order; more would be a grey band). */
#define CMP_OV_RUNS 20u

/* Run R's curve through the points it has: its values, not the group's
 * medians (k of them into xs, ys). */
static size_t run_curve(const struct cmp_run *r, const struct ov_point *pt, size_t np, double *xs, double *ys) {
  size_t k = 0;
  for (size_t j = 0; j < np; j++) {
    const struct cmp_val *v = render_cmp_run_value(r, pt[j].f);
    if (v && v->v > 0) xs[k] = pt[j].x, ys[k++] = v->v;
  }
  return k;
}

static int draw_overlay(const struct cmp_out *c, const struct ov_point *pt, size_t np, int kind, const char *xlabel, const char *ylabel, const char *path, int *drawn,
                        struct ssdrev_err *err) {
  const struct cmp_table *t = c->t;
  size_t cols[CMP_OV_COLS], pos[CMP_OV_COLS], nc = overlay_groups(t, pt, np, cols, pos);
  double lo = INFINITY, hi = 0;
  int any = 0;
  /* the drawn runs' lines fit in the axes too (groups drawn, of 2+ runs;
   * the low end counts on a log axis) */
  for (size_t i = 0; i < t->nok; i++) {
    const struct cmp_run *r = t->ok[i];
    int shown = 0;
    for (size_t q = 0; q < nc && !shown; q++) shown = cols[q] == r->group;
    if (!shown || t->groups[r->group].nruns < 2) continue;
    for (size_t j = 0; j < np; j++) {
      const struct cmp_val *v = render_cmp_run_value(r, pt[j].f);
      if (!v || !(v->v > 0)) continue;
      if (v->v > hi) hi = v->v;
      if (v->v < lo) lo = v->v;
    }
  }
  for (size_t i = 0; i < nc; i++) {
    size_t k = 0;
    for (size_t j = 0; j < np; j++) {
      const struct cmp_stat *s = cmp_stat_at(t, pt[j].f, cols[i]);
      if (!s->n || !(s->median > 0)) continue;
      k++;
      if (s->median < lo) lo = s->median;
      if (s->median > hi) hi = s->median;
    }
    any |= k >= 2;
  }
  *drawn = 0;
  if (!any) return 0;
  struct render_canvas cv;
  /* the legend under the plot: the groups' long names in a corner box
   * would lie over the curves */
  double leg_pt = RENDER_LEGEND_BELOW_PT(nc);
  int rc = render_canvas_canvas_begin(&cv, path, 6.5, 3.6 + leg_pt / 72, 300, err);
  if (rc) return rc;
  struct render_plot p = {0};
  p.bottom_pt = leg_pt;
  p.x.lo = pt[0].x;
  p.x.hi = pt[np - 1].x;
  int nines = kind == OV_NINES;
  p.x.scale = nines ? RC_NINES : kind == OV_LOG_X ? RC_LOG : RC_LINEAR;
  p.x.label = xlabel;
  /* rounds from the first; a share or a time (its steps' ends) from 0 */
  if (kind == OV_LINEAR0 || kind == OV_LINEAR0_FIT) p.x.lo = 0;
  if (nines) {
    p.y.scale = RC_LOG;
    p.y.lo = pow(10, floor(log10(lo)));
    p.y.hi = pow(10, ceil(log10(hi * 1.1)));
  } else if (kind == OV_LINEAR0_FIT) {
    /* headroom above for the legend, as the review's thermal chart */
    double yy[2] = {lo - 0.1 * (hi - lo > 5 ? hi - lo : 5), hi + 0.35 * (hi - lo > 5 ? hi - lo : 5)};
    render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 0);
  } else {
    double yy[2] = {0, hi * 1.15};
    render_canvas_range(yy, 2, &p.y.lo, &p.y.hi, 1);
  }
  p.y.label = ylabel;
  /* no title in the image: the report's caption under it is the title (the
   * figure said it twice), as the per-figure charts carry none either */
  render_canvas_plot_frame(&cv, &p, NULL);
  static const double pal[][3] = {{0.13, 0.35, 0.62}, {0.85, 0.37, 0.01}, {0.17, 0.63, 0.17},
                                             {0.84, 0.15, 0.16}, {0.58, 0.40, 0.74}, {0.55, 0.34, 0.29},
                                             {0.89, 0.47, 0.76}, {0.5, 0.5, 0.5}};
  struct render_legend_item leg[CMP_OV_COLS];
  size_t nleg = 0;
  double *xs = malloc(np * sizeof *xs), *ys = malloc(np * sizeof *ys);
  if (!xs || !ys) {
    free(xs), free(ys);
    render_canvas_canvas_abort(&cv);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  /* a group of several runs: each run's own curve, thin and pale in the
   * group's colour, under the medians' line */
  for (size_t i = 0; i < nc; i++) {
    if (t->groups[cols[i]].nruns < 2) continue;
    double pale[3];
    for (int q = 0; q < 3; q++) pale[q] = 0.45 * pal[pos[i] % 8][q] + 0.55;
    size_t drawn_runs = 0;
    for (size_t r = 0; r < t->nok && drawn_runs < CMP_OV_RUNS; r++) {
      if (t->ok[r]->group != cols[i]) continue;
      size_t k = run_curve(t->ok[r], pt, np, xs, ys);
      if (k >= 2) render_canvas_polyline(cv.cr, &p, xs, ys, k, pale, 0.6, 0), drawn_runs++;
    }
  }
  for (size_t i = 0; i < nc; i++) {
    size_t k = 0;
    for (size_t j = 0; j < np; j++) {
      const struct cmp_stat *s = cmp_stat_at(t, pt[j].f, cols[i]);
      if (!s->n || !(s->median > 0)) continue;
      xs[k] = pt[j].x, ys[k++] = s->median;
    }
    if (!k) continue;
    /* the baseline solid and thicker, the others in turn */
    const double *rgb = pal[pos[i] % 8];
    render_canvas_polyline(cv.cr, &p, xs, ys, k, rgb, cols[i] == t->baseline_group ? 2.0 : 1.2, 0);
    for (size_t j = 0; j < k; j++) render_canvas_marker(cv.cr, &p, xs[j], ys[j], rgb, (int)(pos[i] % 4));
    struct render_legend_item *l = &leg[nleg++];
    memset(l, 0, sizeof *l);
    group_label(t, cols[i], l->text, sizeof l->text);
    memcpy(l->rgb, rgb, sizeof l->rgb);
    l->shape = (int)(pos[i] % 4);
  }
  free(xs), free(ys);
  render_canvas_legend_below(cv.cr, &p, leg, nleg);
  rc = render_canvas_canvas_end(&cv, err);
  if (!rc) *drawn = 1;
  return rc;
}

/* The overlays the runs allow, each drawn from the groups' runs (their
 * medians, and each run's own curve in a group of several), links into
 * c->ov_link ("charts/ov-*.png"): the fill's speed over the share written,
 * QD scaling per workload (IOPS over QD), the steady state's rounds, QD1
 * tail latency per workload (on the nines axis), and the time series of
 * each consistency test (IOPS) and each thermal test (write speed,
 * temperature) from their steps (analyze_compare_figures). */
struct ov_spec {
  const char *fam, *key;  /* key NULL: one overlay per key of fam that has the metrics */
  const char *prefix, *suffix, *slug;
  int kind;
  enum render_cmp_msg title, xlabel;
  const char *ylabel;     /* NULL: the latency label in µs */
};
static const struct ov_spec ov_specs[] = {
    {"slc", "trace", "pct", "_mb_s", "fill-trace", OV_LINEAR0, CM_OV_FILL, CM_AX_FILLED, "MB/s"},
    {"qd", "read", "qd", "_iops", "qd-read", OV_LOG_X, CM_OV_QD, CM_AX_QD, "IOPS"},
    {"qd", "write", "qd", "_iops", "qd-write", OV_LOG_X, CM_OV_QD, CM_AX_QD, "IOPS"},
    {"steady", "rounds", "r", "_iops", "steady-rounds", OV_LINEAR, CM_OV_STEADY, CM_AX_ROUND, "IOPS"},
    {"tail", "read", "p", "_us", "tail-read", OV_NINES, CM_OV_TAIL, CM_AX_PCT, NULL},
    {"tail", "mix70", "p", "_us", "tail-mix70", OV_NINES, CM_OV_TAIL, CM_AX_PCT, NULL},
    {"tail", "write", "p", "_us", "tail-write", OV_NINES, CM_OV_TAIL, CM_AX_PCT, NULL},
    {"consistency", NULL, "t", "_iops", "cons", OV_LINEAR0, CM_OV_CONS, CM_AX_TIME, "IOPS"},
    {"thermal", NULL, "t", "_mb_s", "thermal", OV_LINEAR0, CM_OV_TH_MBS, CM_AX_TIME, "MB/s"},
    {"thermal", NULL, "t", "_temp_c", "temp", OV_LINEAR0_FIT, CM_OV_TH_TEMP, CM_AX_TIME, NULL},
};

/* The keys of family FAM with a "PREFIX<x>SUFFIX" metric, in report order
 * (at most max; borrowed from the figures). */
static size_t ov_keys(const struct cmp_table *t, const struct ov_spec *s, const char **keys, size_t max) {
  size_t n = 0, lp = strlen(s->prefix), ls = strlen(s->suffix);
  for (size_t k = 0; k < t->nfig_order && n < max; k++) {
    const struct cmp_fig *g = &t->figs->v[t->order[k]];
    size_t lm = strlen(g->metric);
    if (strcmp(g->family, s->fam) || lm <= lp + ls || strncmp(g->metric, s->prefix, lp) ||
        strcmp(g->metric + lm - ls, s->suffix) || !(g->metric[lp] >= '0' && g->metric[lp] <= '9'))
      continue;
    size_t j = 0;
    while (j < n && strcmp(keys[j], g->key)) j++;
    if (j == n) keys[n++] = g->key;
  }
  return n;
}

static int write_overlays(struct cmp_out *c, struct ssdrev_err *err) {
  const struct cmp_table *t = c->t;
  int ko = t->lang_ko;
  struct ov_point pt[CMP_OV_POINTS];
  int rc = 0;
  for (size_t w = 0; w < sizeof ov_specs / sizeof *ov_specs && !rc && c->nov < CMP_OV_MAX; w++) {
    const struct ov_spec *s = &ov_specs[w];
    const char *keys[4] = {s->key};
    size_t nk = s->key ? 1 : ov_keys(t, s, keys, 4);
    for (size_t q = 0; q < nk && !rc && c->nov < CMP_OV_MAX; q++) {
      size_t np = ov_points(t, s->fam, keys[q], s->prefix, s->suffix, pt, CMP_OV_POINTS);
      if (np < 2) continue;
      char title[200], rel[300], path[4400], sl[200], ylab[64];
      const char *key = keys[q];
      if (s->title == CM_OV_QD) {
        key = !strcmp(keys[q], "read") ? render_cmp_msg(CM_READ, ko)
              : !strcmp(keys[q], "write") ? render_cmp_msg(CM_WRITE, ko) : render_cmp_msg(CM_MIX, ko);
      } else if (s->title == CM_OV_TAIL) {
        /* the workloads as the tail sections name them ("70/30 mix") */
        key = !strcmp(keys[q], "read") ? render_cmp_msg(CM_TAIL_W_READ, ko)
              : !strcmp(keys[q], "write") ? render_cmp_msg(CM_TAIL_W_WRITE, ko) : render_cmp_msg(CM_TAIL_W_MIX, ko);
      }
      /* every title row takes one %s (the workload or test) or none */
      snprintf(title, sizeof title, render_cmp_msg(s->title, ko), key);
      if (s->key) snprintf(rel, sizeof rel, "charts/ov-%s.png", s->slug);
      else {
        slug(keys[q], sl, sizeof sl);
        snprintf(rel, sizeof rel, "charts/ov-%s-%s.png", s->slug, sl);
      }
      snprintf(path, sizeof path, "%s/%s", c->o->out_dir, rel);
      if (s->ylabel) snprintf(ylab, sizeof ylab, "%s", s->ylabel);
      else if (s->kind == OV_LINEAR0_FIT) snprintf(ylab, sizeof ylab, "%s", render_cmp_msg(CM_AX_TEMP, ko));
      else snprintf(ylab, sizeof ylab, "%s [µs]", render_cmp_msg(CM_LATENCY, ko) + 1); /* " latency": no space */
      enum render_cmp_msg xl = s->xlabel;
      /* a time axis in minutes once it is longer than ten of them */
      if (s->xlabel == CM_AX_TIME && pt[np - 1].x > 600) {
        for (size_t j = 0; j < np; j++) pt[j].x /= 60;
        xl = CM_AX_TIME_MIN;
      }
      int drawn = 0;
      rc = draw_overlay(c, pt, np, s->kind, render_cmp_msg(xl, ko), ylab, path, &drawn, err);
      if (!rc && drawn) {
        snprintf(c->ov_title[c->nov], sizeof c->ov_title[0], "%s", title);
        c->ov_link[c->nov] = strdup(rel);
        if (!c->ov_link[c->nov]) return ssdrev_fail(err, -ENOMEM, "out of memory");
        c->nov++;
      }
    }
  }
  return rc;
}

/* ---------------------------------------------------------------- report */

static void cell(struct render_buf *b, const char *s) {
  render_buf_md(b, s);
}

static void num_cell(struct render_buf *b, double v, const char *unit) {
  char s[64];
  render_cmp_fmt_num(s, sizeof s, v, unit);
  render_buf_printf(b, " %s |", s);
}

static void figure_table(struct render_buf *b, const struct cmp_table *t, size_t f, const size_t *rank, size_t nr) {
  int ko = t->lang_ko;
  const struct cmp_fig *fig = &t->figs->v[f];
  render_buf_printf(b, "| %s | %s | %s | %s | %s | %s | %s |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: |\n",
                    render_cmp_msg(CM_COL_RANK, ko), render_cmp_msg(CM_COL_GROUP, ko), render_cmp_msg(CM_COL_N, ko),
                    render_cmp_msg(CM_COL_MIN, ko), render_cmp_msg(CM_COL_MEDIAN, ko), render_cmp_msg(CM_COL_MAX, ko),
                    render_cmp_msg(CM_COL_RATIO, ko));
  for (size_t i = 0; i < nr && i < CMP_TOP; i++) {
    size_t g = rank[i];
    const struct cmp_stat *s = cmp_stat_at(t, f, g);
    char name[500], r[32];
    group_shown(t, g, name, sizeof name);
    if (t->groups[g].unranked) render_buf_puts(b, "| - | ");
    else render_buf_printf(b, "| %zu | ", i + 1);
    cell(b, name);
    render_buf_printf(b, " | %u |", s->n);
    /* a single run has no spread: min and max would only repeat it */
    if (s->n > 1) num_cell(b, s->min, fig->unit);
    else render_buf_puts(b, " |");
    num_cell(b, s->median, fig->unit);
    if (s->n > 1) num_cell(b, s->max, fig->unit);
    else render_buf_puts(b, " |");
    render_cmp_fmt_ratio(r, sizeof r, ratio_of(t, f, g));
    render_buf_printf(b, " %s |\n", r);
  }
  render_buf_puts(b, "\n");
}

/* "+1.2" / "-3.4" (a real minus sign) with one decimal, two under 1. */
static void fmt_pct(char *buf, size_t len, double v, int sign) {
  if (!isfinite(v)) {
    snprintf(buf, len, "-");
    return;
  }
  double a = fabs(v);
  int dec = a < 1 ? 2 : 1;
  snprintf(buf, len, "%s%.*f", v < 0 && a >= 0.005 ? "\u2212" : sign && a >= 0.005 ? "+" : "", dec, a);
}

/* One overview cell: median, ± CV, and for a group other than the
 * baseline its difference with Welch's interval (bold beyond the noise,
 * "≈" within it or untested). */
static void overview_cell(struct render_buf *b, const struct cmp_table *t, size_t f, size_t g) {
  const struct cmp_fig *fig = &t->figs->v[f];
  const struct cmp_stat *s = cmp_stat_at(t, f, g);
  if (!s->n) {
    render_buf_puts(b, " - |");
    return;
  }
  char v[64], cv[32];
  render_cmp_fmt_num(v, sizeof v, s->median, fig->unit);
  render_buf_printf(b, " %s", v);
  double c = render_cmp_cv(s);
  if (s->n >= 2 && isfinite(c)) {
    fmt_pct(cv, sizeof cv, c * 100, 0);
    render_buf_printf(b, " ±%s%%", cv);
  }
  /* n = 1 shows no ± (the note says so): "(n=1)" in every cell of a set of
   * single runs would wrap the overview past its page */
  if (g != t->baseline_group) {
    struct cmp_diff d;
    render_cmp_welch(cmp_stat_at(t, f, t->baseline_group), s, &d);
    char p[32], hi[32];
    fmt_pct(p, sizeof p, d.pct, 1);
    /* no difference where the baseline lacks the figure (its cell says "-") */
    if (!d.ok) {
    } else if (d.beyond) {
      /* Welch's interval is symmetric about the difference: its half-width
       * says it in fewer characters than [lo, hi], so rows stay one line */
      fmt_pct(hi, sizeof hi, (d.hi_pct - d.lo_pct) / 2, 0);
      render_buf_printf(b, " · **%s%%** ±%s", p, hi);
    } else {
      render_buf_printf(b, " · ≈%s%%", p);
    }
  }
  render_buf_puts(b, " |");
}

/* The groups the overview has no column for: their score and rank, best
 * first, then the unranked (at most CMP_TOP; groups.csv has all). */
static void build_overview_rest(struct render_buf *b, const struct cmp_table *t, const size_t *cols, size_t nc) {
  int ko = t->lang_ko;
  render_buf_printf(b, "### %s\n\n| %s | %s | %s |\n| --- | ---: | ---: |\n", render_cmp_msg(CM_OV_REST, ko),
                    render_cmp_msg(CM_COL_GROUP, ko), render_cmp_msg(CM_SCORE, ko), render_cmp_msg(CM_COL_RANK, ko));
  size_t *byrank = calloc(t->ngroups ? t->ngroups : 1, sizeof *byrank), nr = 0, listed = 0;
  if (!byrank) {
    b->oom = 1;
    return;
  }
  for (size_t g = 0; g < t->ngroups; g++)
    if (t->groups[g].score_rank) byrank[t->groups[g].score_rank - 1] = g, nr++;
  /* then the unranked, in group order */
  for (size_t g = 0; g < t->ngroups; g++)
    if (!t->groups[g].score_rank) byrank[nr++] = g;
  for (size_t r = 0; r < nr && listed < CMP_TOP; r++) {
    size_t g = byrank[r];
    const struct cmp_group *x = &t->groups[g];
    int shown = 0;
    for (size_t i = 0; i < nc && !shown; i++) shown = cols[i] == g;
    if (shown) continue;
    char name[500];
    group_label(t, g, name, sizeof name);
    render_buf_puts(b, "| ");
    cell(b, name);
    if (isnan(x->score)) render_buf_puts(b, " | - |");
    else render_buf_printf(b, " | %.3f |", x->score);
    if (x->score_rank) render_buf_printf(b, " %zu |\n", x->score_rank);
    else render_buf_puts(b, " - |\n");
    listed++;
  }
  free(byrank);
  render_buf_puts(b, "\n");
}

/* The one-page overview: tests x groups (best score first, the baseline
 * leading), then the relative score and the rank. */
static void build_overview(struct render_buf *b, const struct cmp_table *t) {
  int ko = t->lang_ko;
  /* the overlays' groups, in their order: a chart's legend and the
   * table's columns are the same groups */
  size_t cols[CMP_OV_COLS], nc = overlay_groups(t, NULL, 0, cols, NULL);
  size_t nscored = t->groups[t->baseline_group].score_n;
  render_buf_printf(b, "## %s\n\n", render_cmp_msg(CM_OVERVIEW, ko));
  render_buf_printf(b, "| %s |", render_cmp_msg(CM_COL_TEST, ko));
  for (size_t i = 0; i < nc; i++) {
    char name[500];
    group_label(t, cols[i], name, sizeof name);
    render_buf_puts(b, " ");
    cell(b, name);
    render_buf_puts(b, " |");
  }
  render_buf_puts(b, "\n| --- |");
  for (size_t i = 0; i < nc; i++) render_buf_puts(b, " ---: |");
  render_buf_puts(b, "\n");
  /* the chosen figures any shown group has; none: the first headline ones */
  int picked = 0;
  for (size_t k = 0; k < t->nfig_order && !picked; k++) {
    size_t f = t->order[k];
    if (!ov_pick(&t->figs->v[f])) continue;
    for (size_t i = 0; i < nc && !picked; i++) picked = cmp_stat_at(t, f, cols[i])->n != 0;
  }
  size_t nrows = 0;
  for (size_t k = 0; k < t->nfig_order; k++) {
    size_t f = t->order[k];
    const struct cmp_fig *fig = &t->figs->v[f];
    if (picked ? !ov_pick(fig) : !fig->headline || nrows >= CMP_OV_FALLBACK_ROWS) continue;
    int any = 0;
    for (size_t i = 0; i < nc && !any; i++) any = cmp_stat_at(t, f, cols[i])->n != 0;
    if (!any) continue;
    nrows++;
    char tt[300], row[700];
    render_cmp_fig_title(fig, ko, tt, sizeof tt);
    /* every chosen CDM row is FOB, default profile (the note says so): the
     * title without them leaves the groups' columns the page's width */
    char *st = picked && !strcmp(fig->family, "cdm") ? strstr(tt, ", ") : NULL;
    if (st) *st = 0;
    /* the row's title breaks only between its words' pairs (no-break
     * spaces elsewhere): the PDF's columns share the page's width evenly
     * (render/doc/pdf.c), and a title cut to a word a line reads badly */
    size_t rl = 0, nsp = 0;
    for (const char *q = tt; *q && rl + 3 < sizeof row; q++) {
      if (*q == ' ' && ++nsp % 2) row[rl++] = (char)0xC2, row[rl++] = (char)0xA0;
      else row[rl++] = *q;
    }
    row[rl] = 0;
    render_buf_puts(b, "| ");
    cell(b, row);
    render_buf_printf(b, "\u00a0[%s] |", render_cmp_unit_shown(fig->unit));
    for (size_t i = 0; i < nc; i++) overview_cell(b, t, f, cols[i]);
    render_buf_puts(b, "\n");
  }
  render_buf_printf(b, "| **%s** |", render_cmp_msg(CM_SCORE, ko));
  for (size_t i = 0; i < nc; i++) {
    const struct cmp_group *x = &t->groups[cols[i]];
    if (isnan(x->score)) render_buf_puts(b, " - |");
    else render_buf_printf(b, " **%.3f** |", x->score);
  }
  render_buf_printf(b, "\n| **%s** |", render_cmp_msg(CM_COL_RANK, ko));
  for (size_t i = 0; i < nc; i++) {
    const struct cmp_group *x = &t->groups[cols[i]];
    if (!x->score_rank) render_buf_puts(b, " - |");
    else render_buf_printf(b, " **%zu** |", x->score_rank);
  }
  render_buf_puts(b, "\n\n");
  char n1[32];
  snprintf(n1, sizeof n1, "%u", CMP_OV_FALLBACK_ROWS);
  render_buf_printf(b, render_cmp_msg(CM_OV_PICK, ko), n1);
  render_buf_puts(b, " ");
  render_buf_puts(b, render_cmp_msg(CM_OVERVIEW_NOTE, ko));
  render_buf_puts(b, " ");
  snprintf(n1, sizeof n1, "%zu", nscored);
  render_buf_printf(b, render_cmp_msg(CM_SCORE_NOTE, ko), n1);
  if (t->ngroups > nc) {
    char a[32], c2[32];
    snprintf(a, sizeof a, "%zu", nc);
    snprintf(c2, sizeof c2, "%zu", t->ngroups);
    render_buf_puts(b, " ");
    render_buf_printf(b, render_cmp_msg(CM_OVERVIEW_TOP, ko), a, c2);
  }
  render_buf_puts(b, "\n\n");
  render_buf_puts(b, render_cmp_msg(CM_STATS_NOTE, ko));
  render_buf_puts(b, "\n\n");
  if (t->ngroups > nc) build_overview_rest(b, t, cols, nc);
}

/* The gate's section: passed, or the failing figures with their
 * differences, intervals and p. */
static void build_gate(struct render_buf *b, const struct cmp_out *c) {
  const struct cmp_table *t = c->t;
  int ko = t->lang_ko;
  char pct[32], n[32];
  snprintf(pct, sizeof pct, "%g", c->o->gate_pct);
  snprintf(n, sizeof n, "%zu", c->nfails);
  render_buf_printf(b, "## %s\n\n", render_cmp_msg(CM_GATE, ko));
  if (!c->nfails && !c->ntested) {
    render_buf_printf(b, render_cmp_msg(CM_GATE_UNTESTED, ko), pct);
    render_buf_puts(b, "\n\n");
    return;
  }
  if (c->nfails) render_buf_printf(b, render_cmp_msg(CM_GATE_FAIL, ko), n, pct);
  else render_buf_printf(b, render_cmp_msg(CM_GATE_PASS, ko), pct);
  /* the groups none of whose figures could be tested, by name (at most CMP_TOP) */
  struct render_buf names = {0};
  size_t nu = 0;
  for (size_t g = 0; g < t->ngroups; g++) {
    if (g == t->baseline_group || c->g_tested[g]) continue;
    if (nu++ >= CMP_TOP) continue;
    char name[500];
    group_shown(t, g, name, sizeof name);
    if (nu > 1) render_buf_puts(&names, ", ");
    render_buf_md(&names, name);
  }
  if (nu > CMP_TOP) render_buf_puts(&names, ", …");
  if (nu) {
    render_buf_puts(b, " ");
    render_buf_printf(b, render_cmp_msg(CM_GATE_SOME_UNTESTED, ko), names.s ? names.s : "");
  }
  render_buf_free(&names);
  if (!c->nfails) {
    render_buf_puts(b, "\n\n");
    return;
  }
  render_buf_printf(b, "\n\n| %s | %s | %s | %s | %s | %s |\n| --- | --- | ---: | ---: | ---: | ---: |\n",
                    render_cmp_msg(CM_COL_GROUP, ko), render_cmp_msg(CM_COL_TEST, ko), render_cmp_msg(CM_COL_N, ko),
                    render_cmp_msg(CM_COL_DIFF, ko), render_cmp_msg(CM_COL_DIFF_CI, ko), render_cmp_msg(CM_COL_P, ko));
  for (size_t i = 0; i < c->nfails; i++) {
    const struct cmp_gate_fail *x = &c->fails[i];
    const struct cmp_fig *fig = &t->figs->v[x->f];
    char name[500], tt[300], p[32], lo[32], hi[32];
    group_shown(t, x->g, name, sizeof name);
    render_cmp_fig_title(fig, ko, tt, sizeof tt);
    fmt_pct(p, sizeof p, x->d.pct, 1);
    fmt_pct(lo, sizeof lo, x->d.lo_pct, 1);
    fmt_pct(hi, sizeof hi, x->d.hi_pct, 1);
    render_buf_puts(b, "| ");
    cell(b, name);
    render_buf_puts(b, " | ");
    cell(b, tt);
    char pv[32];
    if (x->d.p < 0.0001) snprintf(pv, sizeof pv, "< 0.0001");
    else snprintf(pv, sizeof pv, "%.4f", x->d.p);
    render_buf_printf(b, " [%s] | %u | %s%% | [%s, %s]%% | %s |\n", render_cmp_unit_shown(fig->unit),
                      cmp_stat_at(t, x->f, x->g)->n, p, lo, hi, pv);
  }
  render_buf_puts(b, "\n");
}

/* A date cell is never broken inside a date, a date and its time or a
 * range: the spaces there are no-break spaces (U+00A0; the PDF breaks at
 * ' ' only, a browser not at a hyphen before a digit), so a narrow
 * Measured column wraps only before the "(import date)" mark. */
#define CMP_NBSP "\u00a0"

/* A run's measured date as shown: "2026-12-03 11:50:13" (one piece), an
 * import's import date marked. */
static void run_date(const struct cmp_run *r, int ko, char *buf, size_t len) {
  if (!r->measured[0]) snprintf(buf, len, "%s", r->date[0] ? r->date : "-");
  else if (r->date_kind == CMP_DATE_IMPORTED) snprintf(buf, len, "%.10s (%s)", r->measured, render_cmp_msg(CM_IMPORT_DATE, ko));
  else if (strlen(r->measured) > 11 && r->measured[10] == ' ')
    snprintf(buf, len, "%.10s" CMP_NBSP "%s", r->measured, r->measured + 11);
  else snprintf(buf, len, "%s", r->measured);
}

static void group_dates(const struct cmp_group *x, int ko, char *buf, size_t len) {
  if (!x->first_measured[0]) snprintf(buf, len, "-");
  else if (!strncmp(x->first_measured, x->last_measured, 10)) snprintf(buf, len, "%.10s", x->first_measured);
  else snprintf(buf, len, "%.10s" CMP_NBSP ".." CMP_NBSP "%.10s", x->first_measured, x->last_measured);
  if (x->any_import_date) {
    size_t l = strlen(buf);
    snprintf(buf + l, len - l, " (%s)", render_cmp_msg(CM_IMPORT_DATE, ko));
  }
}

/* What was compared: per group its methods, engines, ssdrev versions,
 * kernels and measured dates (every value its runs have). */
static void build_method_table(struct render_buf *b, const struct cmp_table *t) {
  int ko = t->lang_ko;
  render_buf_printf(b, "## %s\n\n| %s | %s | %s | %s | %s | %s |\n| --- | --- | --- | --- | --- | --- |\n",
                    render_cmp_msg(CM_METHOD_SYSTEM, ko), render_cmp_msg(CM_COL_GROUP, ko),
                    render_cmp_msg(CM_COL_METHOD, ko), render_cmp_msg(CM_COL_ENGINE, ko),
                    render_cmp_msg(CM_COL_VERSION, ko), render_cmp_msg(CM_COL_KERNEL, ko),
                    render_cmp_msg(CM_COL_MEASURED, ko));
  for (size_t g = 0; g < t->ngroups && g < CMP_RUNS_LISTED; g++) {
    const struct cmp_group *x = &t->groups[g];
    char name[500], d[80];
    group_shown(t, g, name, sizeof name);
    render_buf_puts(b, "| ");
    cell(b, name);
    static const int cols[] = {CMP_MIX_METHOD, CMP_MIX_ENGINE, CMP_MIX_VERSION, CMP_MIX_KERNEL};
    for (size_t k = 0; k < 4; k++) {
      render_buf_puts(b, " | ");
      cell(b, x->mix[cols[k]]);
    }
    group_dates(x, ko, d, sizeof d);
    render_buf_puts(b, " | ");
    cell(b, d);
    render_buf_puts(b, " |\n");
  }
  render_buf_puts(b, "\n");
  render_buf_puts(b, render_cmp_msg(CM_METHOD_NOTE, ko));
  render_buf_puts(b, "\n\n");
}

/* "![TITLE](REL)": REL is a chart of this compare; with INLINE, the PNG
 * itself as a data: URI (compare.html is one file), or the link when it
 * cannot be read back. */
static void put_chart(struct render_buf *b, const struct render_cmp_opts *o, const char *title, const char *rel,
                      int inline_charts) {
  render_buf_puts(b, "![");
  render_buf_md(b, title);
  render_buf_puts(b, "](");
  char path[4600], *data = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/%s", o->out_dir, rel);
  if (inline_charts && !ssdrev_read_file(path, &data, &len, 64u << 20, NULL)) {
    render_buf_puts(b, "data:image/png;base64,");
    render_buf_base64(b, (const unsigned char *)data, len);
  } else {
    render_buf_puts(b, rel);
  }
  free(data);
  render_buf_puts(b, ")\n\n");
}

/* The report as Markdown. inline_charts: each chart as a PNG data: URI
 * (compare.html is one file), else a link to charts/NN-*.png. */
static char *build_md(const struct cmp_out *c, int inline_charts) {
  const struct cmp_table *t = c->t;
  const struct render_cmp_opts *o = c->o;
  int ko = t->lang_ko;
  struct render_buf b = {0};
  char n1[32], n2[32];
  render_cmp_fmt_num(n1, sizeof n1, (double)t->nok, "IOPS");
  render_cmp_fmt_num(n2, sizeof n2, (double)t->ngroups, "IOPS");
  render_buf_printf(&b, "# %s\n\n", render_cmp_msg(CM_TITLE, ko));
  render_buf_printf(&b, render_cmp_msg(CM_INTRO, ko), n1, n2);
  render_buf_puts(&b, " ");
  char bname[500];
  group_shown(t, t->baseline_group, bname, sizeof bname);
  /* the name is bold in the sentence: escape what Markdown would read */
  struct render_buf esc = {0};
  render_buf_md(&esc, bname);
  render_buf_printf(&b, render_cmp_msg(CM_BASELINE_IS, ko), esc.s ? esc.s : "");
  render_buf_free(&esc);
  render_buf_puts(&b, render_cmp_msg(o->baseline ? CM_BASELINE_RULE_GIVEN : CM_BASELINE_RULE_AUTO, ko));
  render_buf_puts(&b, " ");
  if (o->nwhere) {
    struct render_buf w = {0};
    for (size_t i = 0; i < o->nwhere; i++) {
      if (i) render_buf_puts(&w, ", ");
      render_buf_puts(&w, "`");
      render_buf_puts(&w, o->where[i]);
      render_buf_puts(&w, "`");
    }
    render_buf_printf(&b, render_cmp_msg(CM_FILTERS, ko), w.s ? w.s : "");
    render_buf_free(&w);
  } else {
    render_buf_puts(&b, render_cmp_msg(CM_NO_FILTERS, ko));
  }
  int any_sim = 0;
  for (size_t g = 0; g < t->ngroups; g++) any_sim |= t->groups[g].simulated;
  if (any_sim) render_buf_printf(&b, " %s", render_cmp_msg(CM_SIMULATED_NOTE, ko));
  int any_unranked = 0;
  for (size_t g = 0; g < t->ngroups; g++) any_unranked |= t->groups[g].unranked;
  if (any_unranked) render_buf_printf(&b, " %s", render_cmp_msg(CM_SHORT_NOTE, ko));
  if (t->common[0]) {
    struct render_buf cm = {0};
    render_buf_md(&cm, t->common);
    render_buf_puts(&b, " ");
    render_buf_printf(&b, render_cmp_msg(CM_COMMON, ko), cm.s ? cm.s : "");
    render_buf_free(&cm);
  }
  render_buf_puts(&b, "\n\n");

  /* the one-page overview first, then the gate's verdict */
  build_overview(&b, t);
  if (o->gate) build_gate(&b, c);
  build_method_table(&b, t);
  if (c->nov) {
    render_buf_printf(&b, "## %s\n\n%s\n\n", render_cmp_msg(CM_CURVES, ko), render_cmp_msg(CM_CURVES_NOTE, ko));
    for (size_t i = 0; i < c->nov; i++) put_chart(&b, o, c->ov_title[i], c->ov_link[i], inline_charts);
  }

  /* groups */
  render_buf_printf(&b, "## %s\n\n| %s | %s | %s | %s | %s |\n| --- | --- | --- | --- | ---: |\n",
                    render_cmp_msg(CM_GROUPS, ko), render_cmp_msg(CM_COL_GROUP, ko), render_cmp_msg(CM_COL_MODEL, ko),
                    render_cmp_msg(CM_COL_FIRMWARE, ko), render_cmp_msg(CM_COL_STATE, ko), render_cmp_msg(CM_COL_RUNS, ko));
  for (size_t g = 0; g < t->ngroups; g++) {
    const struct cmp_group *x = &t->groups[g];
    char name[500];
    group_shown(t, g, name, sizeof name);
    render_buf_puts(&b, "| ");
    cell(&b, name);
    /* every value the group mixes (a model group of two firmware lists both) */
    for (int k = CMP_MIX_MODEL; k <= CMP_MIX_STATE; k++) {
      render_buf_puts(&b, " | ");
      cell(&b, x->mix[k]);
    }
    render_buf_printf(&b, " | %zu |\n", x->nruns);
  }
  render_buf_puts(&b, "\n");

  /* runs, by label: no machine paths in the report */
  render_buf_printf(&b, "## %s\n\n", render_cmp_msg(CM_RUNS, ko));
  if (t->nok > CMP_RUNS_LISTED) {
    render_buf_printf(&b, render_cmp_msg(CM_RUNS_ELIDED, ko), n1);
    render_buf_puts(&b, "\n\n");
  } else {
    render_buf_printf(&b, "| %s | %s | %s | %s | %s | %s |\n| --- | --- | --- | --- | --- | --- |\n",
                      render_cmp_msg(CM_COL_LABEL, ko), render_cmp_msg(CM_COL_GROUP, ko),
                      render_cmp_msg(CM_COL_SOURCE, ko), render_cmp_msg(CM_COL_METHOD, ko),
                      render_cmp_msg(CM_COL_MEASURED, ko), render_cmp_msg(CM_COL_SIMULATED, ko));
    for (size_t i = 0; i < t->nok; i++) {
      const struct cmp_run *r = t->ok[i];
      render_buf_puts(&b, "| ");
      cell(&b, r->label);
      render_buf_puts(&b, " | ");
      cell(&b, t->groups[r->group].name);
      render_buf_puts(&b, " | ");
      cell(&b, r->source);
      char d[80];
      run_date(r, ko, d, sizeof d);
      render_buf_puts(&b, " | ");
      cell(&b, r->method);
      render_buf_puts(&b, " | ");
      cell(&b, d);
      render_buf_printf(&b, " | %s |\n", render_cmp_msg(r->simulated ? CM_YES : CM_NO, ko));
    }
    render_buf_puts(&b, "\n");
  }

  /* headline figures, family by family: chart, then the ranked table */
  size_t *rank = malloc((t->ngroups ? t->ngroups : 1) * sizeof *rank);
  if (!rank) b.oom = 1;
  size_t others = 0;
  unsigned fam_open = (unsigned)-1;
  for (size_t k = 0; rank && k < t->nfig_order; k++) {
    size_t f = t->order[k];
    const struct cmp_fig *fig = &t->figs->v[f];
    if (!fig->headline) {
      others++;
      continue;
    }
    size_t nr = rank_groups(t, f, rank);
    if (!nr) continue;
    if (fig->family_id != fam_open) {
      fam_open = fig->family_id;
      render_buf_printf(&b, "## %s\n\n", family_title(fam_open, ko));
    }
    char tt[300];
    render_cmp_fig_title(fig, ko, tt, sizeof tt);
    render_buf_puts(&b, "### ");
    render_buf_puts(&b, tt);
    render_buf_printf(&b, " [%s]\n\n", render_cmp_unit_shown(fig->unit));
    /* no caption: the heading just written is the chart's one title */
    if (c->chart_of[f]) put_chart(&b, o, "", c->chart_of[f], inline_charts);
    figure_table(&b, t, f, rank, nr);
  }
  free(rank);
  if (others) {
    char n3[32];
    render_cmp_fmt_num(n3, sizeof n3, (double)others, "IOPS");
    render_buf_printf(&b, render_cmp_msg(CM_OTHER_FIGS, ko), n3);
    render_buf_puts(&b, "\n");
  }
  if (b.oom) {
    render_buf_free(&b);
    return NULL;
  }
  return b.s;
}

static int write_md(struct cmp_out *c, struct ssdrev_err *err) {
  char *md = build_md(c, 0);
  if (!md) return ssdrev_fail(err, -ENOMEM, "out of memory building the comparison");
  char path[4200];
  snprintf(path, sizeof path, "%s/compare.md", c->o->out_dir);
  int rc = ssdrev_write_file_atomic(path, md, strlen(md), err);
  free(md);
  return rc;
}

static int write_pdf(struct cmp_out *c, struct ssdrev_err *err) {
  char *md = build_md(c, 0);
  if (!md) return ssdrev_fail(err, -ENOMEM, "out of memory building the comparison");
  char path[4200];
  snprintf(path, sizeof path, "%s/compare.pdf", c->o->out_dir);
  struct render_doc_meta meta = {.title = render_cmp_msg(CM_TITLE, c->t->lang_ko), .subject = "ssdrev compare",
                                 .base_dir = c->o->out_dir};
  int rc = render_md_to_pdf(md, &meta, path, err);
  free(md);
  return rc;
}

/* compare.html: the report through the renderer's Markdown-to-HTML (its
 * CSS, viewport, <html lang>), every chart inside it: one file to mail. */
static int write_html(struct cmp_out *c, struct ssdrev_err *err) {
  char *md = build_md(c, 1);
  if (!md) return ssdrev_fail(err, -ENOMEM, "out of memory building the comparison");
  char path[4200], *html = NULL;
  snprintf(path, sizeof path, "%s/compare.html", c->o->out_dir);
  struct render_doc_meta meta = {.title = render_cmp_msg(CM_TITLE, c->t->lang_ko), .subject = "ssdrev compare",
                                 .base_dir = c->o->out_dir, .lang = c->t->lang_ko ? RENDER_LANG_KO : RENDER_LANG_EN};
  int rc = render_md_to_html(md, &meta, &html, err);
  free(md);
  if (!rc) rc = ssdrev_write_file_atomic(path, html, strlen(html), err);
  free(html);
  return rc;
}

/* ---------------------------------------------------------------- CSV */

/* Every cell goes through base's one CSV writer (ssdrev_csv_text,
 * ssdrev_csv_number): labels, models, firmware and group names come from
 * the archives and are neutralized there; numbers stay numbers. */
static void csv_field(FILE *f, const char *s, int last) {
  ssdrev_csv_text(f, s, last); /* NULL: a key the analysis left out is an empty field */
}

/* Numbers in the CSV are plain (no separators) with enough digits to
 * round-trip what the analysis wrote; %.17g could print e-notation, so
 * fixed decimals are used and trailing zeros dropped. */
static void csv_num(FILE *f, double v, int last) {
  char b[64] = "";
  if (isfinite(v)) {
    snprintf(b, sizeof b, "%.6f", v);
    char *dot = strchr(b, '.');
    if (dot) {
      char *e = b + strlen(b) - 1;
      while (e > dot && *e == '0') *e-- = 0;
      if (e == dot) *e = 0;
    }
  }
  ssdrev_csv_number(f, b, last);
}

static void csv_header(FILE *f, const char *const *h, size_t n) {
  for (size_t i = 0; i < n; i++) csv_field(f, h[i], i + 1 == n);
}

static const char *yes_no(int v) { return v ? "yes" : "no"; }

static int write_csv(struct cmp_out *c, struct ssdrev_err *err) {
  const struct cmp_table *t = c->t;
  char path[4200];
  struct ssdrev_atomic a;
  /* compare.csv: tidy, one row per run and figure */
  snprintf(path, sizeof path, "%s/compare.csv", c->o->out_dir);
  int rc = ssdrev_atomic_open(&a, path, err);
  if (rc) return rc;
  static const char *const th[] = {"run",    "label",  "group", "model", "firmware", "state", "source",
                                   "simulated", "date", "family", "test", "metric", "unit", "value"};
  csv_header(a.f, th, sizeof th / sizeof th[0]);
  for (size_t i = 0; i < t->nok; i++) {
    const struct cmp_run *r = t->ok[i];
    for (size_t k = 0; k < r->nvals; k++) {
      const struct cmp_fig *fig = &t->figs->v[r->vals[k].fig];
      const char *row[] = {strrchr(r->dir, '/') ? strrchr(r->dir, '/') + 1 : r->dir, r->label,
                           t->groups[r->group].name, r->model, r->firmware, r->state, r->source,
                           yes_no(r->simulated), r->date, fig->family, fig->key, fig->metric, fig->unit};
      for (size_t j = 0; j < sizeof row / sizeof row[0]; j++) csv_field(a.f, row[j], 0);
      csv_num(a.f, r->vals[k].v, 1);
    }
  }
  rc = ssdrev_atomic_commit(&a, err);
  if (rc) return rc;
  /* groups.csv: one row per group and figure */
  snprintf(path, sizeof path, "%s/groups.csv", c->o->out_dir);
  rc = ssdrev_atomic_open(&a, path, err);
  if (rc) return rc;
  static const char *const gh[] = {"group", "model", "firmware", "state", "baseline", "family", "test", "metric",
                                   "unit", "n", "min", "median", "max", "ratio", "rank", "mean", "stddev", "cv",
                                   "ci95_lo", "ci95_hi", "diff_pct", "diff_ci95_lo_pct", "diff_ci95_hi_pct",
                                   "p_welch", "beyond_noise"};
  csv_header(a.f, gh, sizeof gh / sizeof gh[0]);
  size_t *rank = malloc((t->ngroups ? t->ngroups : 1) * sizeof *rank);
  size_t *pos = malloc((t->ngroups ? t->ngroups : 1) * sizeof *pos);
  if (!rank || !pos) {
    free(rank), free(pos);
    ssdrev_atomic_abort(&a);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  for (size_t k = 0; k < t->nfig_order; k++) {
    size_t f = t->order[k];
    const struct cmp_fig *fig = &t->figs->v[f];
    size_t nr = rank_groups(t, f, rank);
    for (size_t i = 0; i < nr; i++) pos[rank[i]] = t->groups[rank[i]].unranked ? 0 : i + 1;
    for (size_t g = 0; g < t->ngroups; g++) {
      const struct cmp_stat *s = cmp_stat_at(t, f, g);
      if (!s->n) continue;
      const struct cmp_group *x = &t->groups[g];
      const char *row[] = {x->name, x->mix[CMP_MIX_MODEL], x->mix[CMP_MIX_FIRMWARE], x->mix[CMP_MIX_STATE],
                           yes_no(g == t->baseline_group),
                           fig->family, fig->key, fig->metric, fig->unit};
      for (size_t j = 0; j < sizeof row / sizeof row[0]; j++) csv_field(a.f, row[j], 0);
      char n[32], rk[32];
      snprintf(n, sizeof n, "%u", s->n);
      if (pos[g]) snprintf(rk, sizeof rk, "%zu", pos[g]);
      else rk[0] = 0; /* unranked */
      ssdrev_csv_number(a.f, n, 0);
      csv_num(a.f, s->min, 0);
      csv_num(a.f, s->median, 0);
      csv_num(a.f, s->max, 0);
      csv_num(a.f, ratio_of(t, f, g), 0);
      ssdrev_csv_number(a.f, rk, 0);
      /* the statistics (stats.c); empty where undefined (n < 2) */
      struct cmp_diff d;
      render_cmp_welch(cmp_stat_at(t, f, t->baseline_group), s, &d);
      csv_num(a.f, s->mean, 0);
      csv_num(a.f, s->sd, 0);
      csv_num(a.f, render_cmp_cv(s), 0);
      csv_num(a.f, s->ci_lo, 0);
      csv_num(a.f, s->ci_hi, 0);
      csv_num(a.f, g == t->baseline_group ? NAN : d.pct, 0);
      csv_num(a.f, g == t->baseline_group ? NAN : d.lo_pct, 0);
      csv_num(a.f, g == t->baseline_group ? NAN : d.hi_pct, 0);
      csv_num(a.f, g == t->baseline_group ? NAN : d.p, 0);
      ssdrev_csv_text(a.f, g == t->baseline_group || !d.ok ? "" : yes_no(d.beyond), 1);
    }
  }
  free(rank);
  free(pos);
  rc = ssdrev_atomic_commit(&a, err);
  if (rc) return rc;
  /* runs.csv: one row per run */
  snprintf(path, sizeof path, "%s/runs.csv", c->o->out_dir);
  rc = ssdrev_atomic_open(&a, path, err);
  if (rc) return rc;
  static const char *const rh[] = {"run",       "label", "group",        "model",      "firmware", "state",
                                   "source",    "simulated", "date", "analyzed_now", "from_index", "figures",
                                   "measured", "date_kind", "method", "engine", "ssdrev_version", "kernel"};
  csv_header(a.f, rh, sizeof rh / sizeof rh[0]);
  for (size_t k = 0; k < t->nok; k++) {
    const struct cmp_run *r = t->ok[k];
    char nf[32];
    snprintf(nf, sizeof nf, "%zu", r->nvals);
    const char *row[] = {strrchr(r->dir, '/') ? strrchr(r->dir, '/') + 1 : r->dir,
                         r->label, t->groups[r->group].name, r->model, r->firmware, r->state, r->source,
                         yes_no(r->simulated), r->date, yes_no(r->analyzed), yes_no(r->from_index)};
    for (size_t j = 0; j < sizeof row / sizeof row[0]; j++) csv_field(a.f, row[j], 0);
    ssdrev_csv_number(a.f, nf, 0);
    static const char *const kinds[] = {"run", "measured_at", "import"};
    const char *meta[] = {r->measured, kinds[r->date_kind >= 0 && r->date_kind <= 2 ? r->date_kind : 0], r->method,
                          r->engine, r->tool_version, r->kernel};
    for (size_t j = 0; j < 6; j++) csv_field(a.f, meta[j], j == 5);
  }
  return ssdrev_atomic_commit(&a, err);
}

static int write_xlsx(struct cmp_out *c, struct ssdrev_err *err) {
  char path[4200];
  snprintf(path, sizeof path, "%s/compare.xlsx", c->o->out_dir);
  return render_cmp_write_xlsx(c->t, path, err);
}

/* ---------------------------------------------------------------- gate */

/* Every headline figure of every group worse than the baseline's by more
 * than gate_pct and beyond the noise, in report order. */
static int gate_check(struct cmp_out *c, struct ssdrev_err *err) {
  const struct cmp_table *t = c->t;
  size_t cap = 0;
  c->g_tested = calloc(t->ngroups ? t->ngroups : 1, 1);
  if (!c->g_tested) return ssdrev_fail(err, -ENOMEM, "out of memory");
  for (size_t k = 0; k < t->nfig_order; k++) {
    size_t f = t->order[k];
    const struct cmp_fig *fig = &t->figs->v[f];
    if (!fig->headline) continue;
    const struct cmp_stat *b = cmp_stat_at(t, f, t->baseline_group);
    if (b->n < 2) continue; /* no test at n = 1 */
    for (size_t g = 0; g < t->ngroups; g++) {
      if (g == t->baseline_group) continue;
      struct cmp_diff d;
      render_cmp_welch(b, cmp_stat_at(t, f, g), &d);
      /* tested: a p of its own (two samples on each side, a baseline mean not 0) */
      if (d.ok && cmp_stat_at(t, f, g)->n >= 2) c->ntested++, c->g_tested[g] = 1;
      if (!d.ok || !d.beyond) continue;
      double worse = fig->higher_better ? -d.pct : d.pct;
      if (!(worse > c->o->gate_pct)) continue;
      if (c->nfails == cap) {
        size_t nc = cap ? cap * 2 : 16;
        struct cmp_gate_fail *nv = realloc(c->fails, nc * sizeof *nv);
        if (!nv) return ssdrev_fail(err, -ENOMEM, "out of memory");
        c->fails = nv;
        cap = nc;
      }
      c->fails[c->nfails++] = (struct cmp_gate_fail){f, g, d};
    }
  }
  c->res->gate_failures = c->nfails;
  c->res->gate_tested = c->ntested;
  return 0;
}

static json_t *jnum(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* verdict.json (docs/perf/compare.md): the gate's verdict for CI. */
static int write_verdict(struct cmp_out *c, struct ssdrev_err *err) {
  const struct cmp_table *t = c->t;
  json_t *v = json_object(), *list = json_array();
  json_object_set_new(v, "format", json_string("ssdrev-compare-verdict"));
  /* 2: verdict "untested", tested, untested_groups */
  json_object_set_new(v, "format_version", json_integer(2));
  /* "untested": nothing could be tested (n = 1, no figure shared), which
   * is no pass (the CLI's exit status 4) */
  json_object_set_new(v, "verdict", json_string(c->nfails ? "fail" : c->ntested ? "pass" : "untested"));
  json_object_set_new(v, "baseline", json_string(t->groups[t->baseline_group].name));
  json_object_set_new(v, "gate_pct", json_real(c->o->gate_pct));
  json_object_set_new(v, "test", json_string("welch-t two-sided"));
  json_object_set_new(v, "alpha", json_real(0.05));
  json_object_set_new(v, "metrics", json_string("headline"));
  json_object_set_new(v, "groups", json_integer((json_int_t)t->ngroups));
  json_object_set_new(v, "tested", json_integer((json_int_t)c->ntested));
  json_t *un = json_array();
  for (size_t g = 0; g < t->ngroups; g++)
    if (g != t->baseline_group && !c->g_tested[g]) json_array_append_new(un, json_string(t->groups[g].name));
  json_object_set_new(v, "untested_groups", un);
  for (size_t i = 0; i < c->nfails; i++) {
    const struct cmp_gate_fail *x = &c->fails[i];
    const struct cmp_fig *fig = &t->figs->v[x->f];
    const struct cmp_stat *s = cmp_stat_at(t, x->f, x->g), *b = cmp_stat_at(t, x->f, t->baseline_group);
    json_t *e = json_object();
    json_object_set_new(e, "group", json_string(t->groups[x->g].name));
    json_object_set_new(e, "family", json_string(fig->family));
    json_object_set_new(e, "test", json_string(fig->key));
    json_object_set_new(e, "metric", json_string(fig->metric));
    json_object_set_new(e, "unit", json_string(fig->unit));
    json_object_set_new(e, "higher_better", json_boolean(fig->higher_better));
    json_object_set_new(e, "n", json_integer(s->n));
    json_object_set_new(e, "baseline_n", json_integer(b->n));
    json_object_set_new(e, "mean", jnum(s->mean));
    json_object_set_new(e, "baseline_mean", jnum(b->mean));
    json_object_set_new(e, "diff_pct", jnum(x->d.pct));
    json_object_set_new(e, "diff_ci95_lo_pct", jnum(x->d.lo_pct));
    json_object_set_new(e, "diff_ci95_hi_pct", jnum(x->d.hi_pct));
    json_object_set_new(e, "p_welch", jnum(x->d.p));
    json_array_append_new(list, e);
  }
  json_object_set_new(v, "regressions", list);
  /* group names come from archives: jansson escapes them as JSON strings;
   * one not valid UTF-8 makes json_string NULL, dropped by set_new */
  char *txt = json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
  json_decref(v);
  if (!txt) return ssdrev_fail(err, -ENOMEM, "out of memory writing verdict.json");
  char path[4200];
  snprintf(path, sizeof path, "%s/verdict.json", c->o->out_dir);
  size_t len = strlen(txt);
  int rc = ssdrev_write_file_atomic(path, txt, len, err);
  free(txt);
  return rc;
}

/* ---------------------------------------------------------------- table */

static const struct {
  unsigned bit;
  int (*write)(struct cmp_out *c, struct ssdrev_err *err);
} cmp_formats[] = {
    {RENDER_CMP_CHARTS, write_charts}, /* first: the documents link the charts */
    {RENDER_CMP_MD, write_md},
    {RENDER_CMP_CSV, write_csv},
    {RENDER_CMP_PDF, write_pdf},
    {RENDER_CMP_XLSX, write_xlsx},
    {RENDER_CMP_HTML, write_html},
};

int render_compare_write_outputs(const struct cmp_table *t, const struct render_cmp_opts *o,
                                 struct render_cmp_result *res, struct ssdrev_err *err) {
  struct cmp_out c = {.t = t, .o = o, .res = res, .chart_of = calloc(t->figs->n ? t->figs->n : 1, sizeof(char *))};
  if (!c.chart_of) return ssdrev_fail(err, -ENOMEM, "out of memory");
  unsigned mask = o->formats ? o->formats : (RENDER_CMP_MD | RENDER_CMP_CSV | RENDER_CMP_CHARTS);
  int rc = o->gate ? gate_check(&c, err) : 0;
  for (size_t i = 0; i < sizeof cmp_formats / sizeof cmp_formats[0] && !rc; i++)
    if (mask & cmp_formats[i].bit) rc = cmp_formats[i].write(&c, err);
  /* the verdict is written whatever the formats: it is what CI reads */
  if (!rc && o->gate) rc = write_verdict(&c, err);
  for (size_t f = 0; f < t->figs->n; f++) free(c.chart_of[f]);
  free(c.chart_of);
  free(c.fails);
  free(c.g_tested);
  for (size_t i = 0; i < c.nov; i++) free(c.ov_link[i]);
  return rc;
}
