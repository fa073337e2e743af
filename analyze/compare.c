/* compare.c — N analysis objects side by side: one row per comparable
 * figure, its value in each run and the ratio to the first (baseline). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analyze/analyze_int.h"

struct cmp {
  size_t n;      /* runs */
  json_t *rows;  /* array of rows, in first-seen order */
  json_t *index; /* "section|key|metric" -> row (borrowed) */
};

static void put(struct cmp *c, size_t run, const char *section, const char *key, const char *metric,
                const json_t *v) {
  if (!json_is_number(v)) return;
  char id[512];
  snprintf(id, sizeof id, "%s|%s|%s", section, key, metric);
  json_t *row = json_object_get(c->index, id);
  if (!row) {
    row = json_object();
    json_object_set_new(row, "section", json_string(section));
    json_object_set_new(row, "key", json_string(key));
    json_object_set_new(row, "metric", json_string(metric));
    json_t *vals = json_array();
    for (size_t i = 0; i < c->n; i++) json_array_append_new(vals, json_null());
    json_object_set_new(row, "values", vals);
    json_array_append_new(c->rows, row);
    json_object_set(c->index, id, row);
  }
  json_array_set(json_object_get(row, "values"), run, (json_t *)v);
}

static void add_run(struct cmp *c, size_t r, const json_t *a) {
  static const char *const ops[] = {"read", "write", "mix"};
  size_t i, k;
  json_t *row, *g, *p;
  json_array_foreach(json_object_get(a, "cdm"), i, row) {
    char key[256];
    snprintf(key, sizeof key, "%s %s %s", analyze_json_str(row, "state") ? analyze_json_str(row, "state") : "",
             analyze_json_str(row, "profile") ? analyze_json_str(row, "profile") : "", analyze_json_str(row, "cell") ? analyze_json_str(row, "cell") : "");
    for (unsigned o = 0; o < 3; o++) {
      const json_t *x = json_object_get(row, ops[o]);
      if (!x) continue;
      char m[64];
      snprintf(m, sizeof m, "%s mb_s", ops[o]);
      put(c, r, "cdm", key, m, json_object_get(x, "mb_s"));
      snprintf(m, sizeof m, "%s lat_us", ops[o]);
      put(c, r, "cdm", key, m, json_object_get(x, "lat_us"));
    }
  }
  const char *w, *mk;
  json_t *t, *v;
  json_object_foreach((json_t *)json_object_get(a, "tail"), w, t) {
    json_object_foreach(t, mk, v) {
      if (mk[0] == 'p' && json_is_number(v)) put(c, r, "tail", w, mk, v);
    }
  }
  const json_t *slc = json_object_get(json_object_get(a, "fill"), "slc");
  static const char *const sk[] = {"max_gib", "min_gib", "cache_mb_s", "post_cache_mb_s"};
  for (unsigned s = 0; s < 4; s++) put(c, r, "fill", "slc", sk[s], json_object_get(slc, sk[s]));
  json_array_foreach(json_object_get(a, "rw_sweep"), i, g) {
    char key[64];
    snprintf(key, sizeof key, "QD%lld", (long long)json_integer_value(json_object_get(g, "qd")));
    json_array_foreach(json_object_get(g, "points"), k, p) {
      char m[64];
      snprintf(m, sizeof m, "read %g%% mb_s", analyze_json_num(p, "read_pct", 0));
      put(c, r, "rw_sweep", key, m, json_object_get(p, "mb_s"));
    }
  }
  const char *name;
  json_object_foreach((json_t *)json_object_get(a, "tests"), name, t) {
    const char *kind = analyze_json_str(t, "kind");
    if (kind && strcmp(kind, "job")) continue; /* review tests are in the sections above */
    const json_t *all = json_object_get(json_object_get(t, "ops"), "all");
    put(c, r, "tests", name, "mb_s", json_object_get(all, "mb_s"));
    put(c, r, "tests", name, "iops", json_object_get(all, "iops"));
    put(c, r, "tests", name, "lat_mean_us", json_object_get(all, "lat_mean_us"));
  }
}

json_t *analyze_compare(const json_t *const *analyses, size_t n, struct ssdrev_err *err) {
  if (n < 1) {
    ssdrev_fail(err, -EINVAL, "nothing to compare (no analyses)");
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    const char *f = analyze_json_str(analyses[i], "format");
    if (!f || strcmp(f, "ssdrev-analysis")) {
      ssdrev_fail(err, -EINVAL, "input %zu is not an ssdrev analysis (\"format\" is not \"ssdrev-analysis\")", i + 1);
      return NULL;
    }
  }
  struct cmp c = {.n = n, .rows = json_array(), .index = json_object()};
  json_t *labels = json_array();
  for (size_t i = 0; i < n; i++) {
    const char *l = analyze_json_str(analyses[i], "label");
    json_array_append_new(labels, l ? json_string(l) : json_sprintf("run %zu", i + 1));
    add_run(&c, i, analyses[i]);
  }
  size_t i;
  json_t *row;
  json_array_foreach(c.rows, i, row) {
    const json_t *vals = json_object_get(row, "values");
    double base = json_is_number(json_array_get(vals, 0)) ? json_number_value(json_array_get(vals, 0)) : 0;
    json_t *ratios = json_array();
    for (size_t k = 0; k < n; k++) {
      const json_t *v = json_array_get(vals, k);
      if (base != 0 && json_is_number(v)) json_array_append_new(ratios, analyze_json_real(json_number_value(v) / base, 4));
      else json_array_append_new(ratios, json_null());
    }
    json_object_set_new(row, "ratios", ratios);
  }
  json_decref(c.index);
  json_t *out = json_object();
  json_object_set_new(out, "labels", labels);
  json_object_set_new(out, "rows", c.rows);
  return out;
}

/* ------------------------------------------------- figures for a batch */

static int fig(analyze_figure_fn fn, void *arg, const char *family, const char *key, const char *metric,
               const char *unit, int headline, int higher_better, const json_t *v) {
  /* -1 is the analysis's "not measured" (CDM 6 latency, imports) */
  if (!json_is_number(v) || !(json_number_value(v) >= 0)) return 0;
  struct analyze_figure f = {family, key, metric, unit, headline, higher_better, json_number_value(v)};
  return fn(&f, arg);
}

/* A time series as figures, for curves across drives (compare's
 * overlays): the mean of its samples in each step of a width that gives at
 * most ANALYZE_SERIES_STEPS steps (1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15,
 * 30, 60 min: runs of one length share their steps, and steps of other
 * widths still fall on round seconds), metric "t<END><SUFFIX>" with END the
 * step's end in seconds (t30_iops: the mean over 28-30 s at 2 s steps). A
 * step with no sample of its own is left out. */
#define ANALYZE_SERIES_STEPS 30
static int series_figs(analyze_figure_fn fn, void *arg, const char *family, const char *key, const json_t *ts,
                       const json_t *vs, const char *suffix, const char *unit, int higher_better) {
  static const double widths[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600};
  size_t n = json_array_size(ts) < json_array_size(vs) ? json_array_size(ts) : json_array_size(vs);
  double tmax = 0;
  for (size_t j = 0; j < n; j++) {
    double t = json_number_value(json_array_get(ts, j));
    if (json_is_number(json_array_get(ts, j)) && t > tmax) tmax = t;
  }
  if (n < 2 || !(tmax > 0) || tmax > 1e7) return 0;
  double w = widths[sizeof widths / sizeof *widths - 1];
  for (size_t k = 0; k < sizeof widths / sizeof *widths; k++)
    if (floor(tmax / widths[k]) + 1 <= ANALYZE_SERIES_STEPS) {
      w = widths[k];
      break;
    }
  size_t nb = (size_t)floor(tmax / w) + 1;
  if (nb > 4 * ANALYZE_SERIES_STEPS) nb = 4 * ANALYZE_SERIES_STEPS; /* over 120 hours: the rest left out */
  double sum[4 * ANALYZE_SERIES_STEPS] = {0};
  size_t cnt[4 * ANALYZE_SERIES_STEPS] = {0};
  for (size_t j = 0; j < n; j++) {
    const json_t *t = json_array_get(ts, j), *v = json_array_get(vs, j);
    if (!json_is_number(t) || !json_is_number(v) || !(json_number_value(t) >= 0)) continue;
    size_t b = (size_t)floor(json_number_value(t) / w);
    if (b < nb && isfinite(json_number_value(v))) sum[b] += json_number_value(v), cnt[b]++;
  }
  int rc = 0;
  for (size_t b = 0; b < nb && !rc; b++) {
    if (!cnt[b]) continue;
    char m[48];
    snprintf(m, sizeof m, "t%.0f%s", (double)(b + 1) * w, suffix);
    json_t *mv = json_real(sum[b] / (double)cnt[b]);
    rc = mv ? fig(fn, arg, family, key, m, unit, 0, higher_better, mv) : -ENOMEM;
    json_decref(mv);
  }
  return rc;
}

int analyze_compare_figures(const json_t *a, analyze_figure_fn fn, void *arg) {
  static const char *const ops[] = {"read", "write", "mix"};
  size_t i, k;
  json_t *row, *g, *p, *t, *v;
  int rc = 0;
  json_array_foreach(json_object_get(a, "cdm"), i, row) {
    const char *st = analyze_json_str(row, "state"), *pr = analyze_json_str(row, "profile"),
               *cell = analyze_json_str(row, "cell");
    char key[256], m[64];
    snprintf(key, sizeof key, "%s %s %s", st ? st : "", pr ? pr : "", cell ? cell : "");
    for (unsigned o = 0; o < 3 && !rc; o++) {
      const json_t *x = json_object_get(row, ops[o]);
      if (!x) continue;
      snprintf(m, sizeof m, "%s_mb_s", ops[o]);
      rc = fig(fn, arg, "cdm", key, m, "MB/s", 1, 1, json_object_get(x, "mb_s"));
      snprintf(m, sizeof m, "%s_iops", ops[o]);
      if (!rc) rc = fig(fn, arg, "cdm", key, m, "IOPS", 0, 1, json_object_get(x, "iops"));
      snprintf(m, sizeof m, "%s_lat_us", ops[o]);
      if (!rc) rc = fig(fn, arg, "cdm", key, m, "us", 0, 0, json_object_get(x, "lat_us"));
    }
    if (rc) return rc;
  }
  const json_t *slc = json_object_get(json_object_get(a, "fill"), "slc");
  static const struct { const char *k, *unit; int headline; } sk[] = {
      {"max_gib", "GiB", 1}, {"min_gib", "GiB", 1}, {"cache_mb_s", "MB/s", 0}, {"post_cache_mb_s", "MB/s", 1}};
  for (unsigned s = 0; s < 4 && !rc; s++)
    rc = fig(fn, arg, "slc", "slc", sk[s].k, sk[s].unit, sk[s].headline, 1, json_object_get(slc, sk[s].k));
  json_array_foreach(json_object_get(a, "rw_sweep"), i, g) {
    char key[64];
    snprintf(key, sizeof key, "QD%lld", (long long)json_integer_value(json_object_get(g, "qd")));
    json_array_foreach(json_object_get(g, "points"), k, p) {
      double pct = analyze_json_num(p, "read_pct", -1);
      if (pct < 0 || rc) continue;
      char m[64];
      snprintf(m, sizeof m, "read%.0f_mb_s", pct);
      /* write only, 70/30 and read only: the points a review quotes */
      int head = pct == 0 || pct == 70 || pct == 100;
      rc = fig(fn, arg, "rw_sweep", key, m, "MB/s", head, 1, json_object_get(p, "mb_s"));
      snprintf(m, sizeof m, "read%.0f_iops", pct);
      if (!rc) rc = fig(fn, arg, "rw_sweep", key, m, "IOPS", 0, 1, json_object_get(p, "iops"));
    }
    if (rc) return rc;
  }
  /* the full method's figures (docs/method.md): QD scaling per workload and
   * QD, the steady state's window, each consistency test's steady part,
   * each thermal test, the SLC cache recovered after each idle */
  json_array_foreach(json_object_get(a, "qd_scaling"), i, g) {
    const char *wk = analyze_json_str(g, "workload");
    if (!wk) continue;
    json_array_foreach(json_object_get(g, "points"), k, p) {
      if (rc) break;
      long long qd = (long long)analyze_json_num(p, "qd", 0);
      if (qd < 1) continue;
      char m[64];
      snprintf(m, sizeof m, "qd%lld_iops", qd);
      rc = fig(fn, arg, "qd", wk, m, "IOPS", qd == 1 || qd == 32, 1, json_object_get(p, "iops"));
      snprintf(m, sizeof m, "qd%lld_p99_us", qd);
      if (!rc) rc = fig(fn, arg, "qd", wk, m, "us", 0, 0, json_object_get(p, "p99_us"));
    }
    if (rc) return rc;
  }
  /* the fill's write speed at 5% steps of what it wrote (the mean of the
   * per-GiB speeds in each step; a step with no point of its own is left
   * out), for curves across drives: a short fill's 2 GiB in 1/8 GiB bins
   * has 16 points */
  const json_t *pg = json_object_get(json_object_get(a, "fill"), "per_gib");
  const json_t *gx = json_object_get(pg, "gib"), *gy = json_object_get(pg, "mb_s");
  size_t ng = json_array_size(gx);
  if (ng >= 10 && json_array_size(gy) == ng) {
    double top = json_number_value(json_array_get(gx, ng - 1));
    for (int b = 1; b <= 20 && !rc && top > 0; b++) {
      double sum = 0, lo = top * (b - 1) / 20, hi = top * b / 20;
      size_t n = 0;
      for (size_t j = 0; j < ng; j++) {
        double x = json_number_value(json_array_get(gx, j));
        if (x > lo && x <= hi) sum += json_number_value(json_array_get(gy, j)), n++;
      }
      if (!n) continue;
      char m[32];
      snprintf(m, sizeof m, "pct%d_mb_s", b * 5);
      json_t *mv = json_real(sum / (double)n);
      rc = fig(fn, arg, "slc", "trace", m, "MB/s", 0, 1, mv);
      json_decref(mv);
    }
    if (rc) return rc;
  }
  json_t *ssr;
  json_array_foreach(json_object_get(json_object_get(a, "steady_state"), "rounds"), i, ssr) {
    long long rd = (long long)analyze_json_num(ssr, "round", 0);
    if (rd < 1 || rc) continue;
    char m[32];
    snprintf(m, sizeof m, "r%lld_iops", rd);
    rc = fig(fn, arg, "steady", "rounds", m, "IOPS", 0, 1, json_object_get(ssr, "iops"));
  }
  if (rc) return rc;
  const json_t *win = json_object_get(json_object_get(a, "steady_state"), "window");
  if (win) {
    rc = fig(fn, arg, "steady", "window", "mean_iops", "IOPS", 1, 1, json_object_get(win, "mean_iops"));
    if (!rc) rc = fig(fn, arg, "steady", "window", "range_pct", "%", 0, 0, json_object_get(win, "range_pct"));
    if (rc) return rc;
  }
  json_array_foreach(json_object_get(a, "consistency"), i, g) {
    const char *tn = analyze_json_str(g, "test");
    const json_t *st = json_object_get(g, "steady");
    if (!tn || !st) continue;
    rc = fig(fn, arg, "consistency", tn, "mean_iops", "IOPS", 1, 1, json_object_get(st, "mean_iops"));
    if (!rc) rc = fig(fn, arg, "consistency", tn, "p1_iops", "IOPS", 1, 1, json_object_get(st, "p1_iops"));
    if (!rc) rc = fig(fn, arg, "consistency", tn, "cov_pct", "%", 0, 0, json_object_get(st, "cov_pct"));
    if (!rc) rc = fig(fn, arg, "consistency", tn, "p99_9_us_max", "us", 0, 0, json_object_get(st, "p99_9_us_max"));
    /* its IOPS over time, for compare's time-series overlay */
    const json_t *ps = json_object_get(g, "per_s");
    if (!rc) rc = series_figs(fn, arg, "consistency", tn, json_object_get(ps, "t_s"), json_object_get(ps, "iops"), "_iops", "IOPS", 1);
    if (rc) return rc;
  }
  json_array_foreach(json_object_get(a, "thermal"), i, g) {
    const char *tn = analyze_json_str(g, "test");
    if (!tn) continue;
    rc = fig(fn, arg, "thermal", tn, "mean_mb_s", "MB/s", 1, 1, json_object_get(g, "mean_mb_s"));
    if (!rc) rc = fig(fn, arg, "thermal", tn, "peak_temp_c", "°C", 0, 0, json_object_get(g, "peak_temp_c"));
    /* its write speed and temperature over time (the overlays) */
    if (!rc) rc = series_figs(fn, arg, "thermal", tn, json_object_get(g, "t_s"), json_object_get(g, "mb_s"), "_mb_s", "MB/s", 1);
    if (!rc) rc = series_figs(fn, arg, "thermal", tn, json_object_get(g, "temp_t_s"), json_object_get(g, "temp_c"), "_temp_c", "°C", 0);
    if (rc) return rc;
  }
  json_array_foreach(json_object_get(json_object_get(a, "cache_recovery"), "points"), i, p) {
    double idle = analyze_json_num(p, "idle_s", -1);
    if (idle < 0 || !json_is_true(json_object_get(p, "found"))) continue;
    char key[64];
    snprintf(key, sizeof key, "idle %gs", idle);
    rc = fig(fn, arg, "recovery", key, "recovered_gib", "GiB", 1, 1, json_object_get(p, "recovered_gib"));
    if (rc) return rc;
  }
  const char *w, *mk;
  json_object_foreach((json_t *)json_object_get(a, "tail"), w, t) {
    json_object_foreach(t, mk, v) {
      if (rc) break;
      if (mk[0] != 'p' && strcmp(mk, "mean_us") && strcmp(mk, "max_us")) continue;
      int head = !strcmp(mk, "p99_us") || !strcmp(mk, "p99.99_us");
      rc = fig(fn, arg, "tail", w, mk, "us", head, 0, v);
    }
    if (rc) return rc;
  }
  const char *name;
  json_object_foreach((json_t *)json_object_get(a, "tests"), name, t) {
    const char *kind = analyze_json_str(t, "kind");
    if (kind && strcmp(kind, "job")) continue; /* review tests are in the sections above */
    const json_t *all = json_object_get(json_object_get(t, "ops"), "all");
    rc = fig(fn, arg, "tests", name, "mb_s", "MB/s", 1, 1, json_object_get(all, "mb_s"));
    if (!rc) rc = fig(fn, arg, "tests", name, "iops", "IOPS", 0, 1, json_object_get(all, "iops"));
    if (!rc) rc = fig(fn, arg, "tests", name, "lat_mean_us", "us", 0, 0, json_object_get(all, "lat_mean_us"));
    if (rc) return rc;
  }
  return 0;
}
