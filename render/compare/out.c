/* out.c — batch compare outputs, one writer per format in a table:
 * bar charts (Cairo PNG), Markdown, CSV (libcsv quoting) and PDF (the
 * renderer's Markdown-to-PDF). Charts come first: the others link them. */
#include <cairo.h>
#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "render/compare/compare_int.h"
#include "render/render_int.h" /* render_buf_md: the one Markdown escaping */

#define CMP_COLS_PER_TABLE 6u

struct cmp_out {
  const struct cmp_table *t;
  const struct render_cmp_opts *o;
  struct render_cmp_result *res;
  json_t *charts; /* [{"row": i, "file": "charts/NN-x.png", "title": ...}] */
};

static void row_title(const json_t *row, char *buf, size_t len) {
  snprintf(buf, len, "%s %s", json_string_value(json_object_get(row, "key")),
           json_string_value(json_object_get(row, "metric")));
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

/* ---------------------------------------------------------------- charts */

static cairo_status_t png_to_file(void *closure, const unsigned char *data, unsigned int length) {
  return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* One horizontal bar per group: the group's median, the baseline in a
 * darker colour, the value and ratio printed after the bar. */
static int draw_bars(const struct cmp_out *c, const json_t *row, const char *title, const char *path,
                     struct ssdrev_err *err) {
  const struct cmp_table *t = c->t;
  const double w = 1200, bar_h = 26, top = 56, left = 420, right = 170;
  const json_t *gs = json_object_get(row, "groups");
  /* only the groups that have this figure get a bar line: in a batch of
   * many kinds of runs most rows concern a few groups */
  size_t shown = 0;
  for (size_t g = 0; g < t->ngroups; g++) shown += json_object_get(json_array_get(gs, g), "median") != NULL;
  double h = top + bar_h * (double)shown + 20;
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
  cairo_t *cr = cairo_create(s);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size(cr, 18);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  cairo_move_to(cr, 12, 30);
  cairo_show_text(cr, title);
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 13);
  double max = 0;
  for (size_t g = 0; g < t->ngroups; g++) {
    double v = json_number_value(json_object_get(json_array_get(gs, g), "median"));
    if (v > max) max = v;
  }
  size_t line = 0;
  for (size_t g = 0; g < t->ngroups; g++) {
    const json_t *m = json_object_get(json_array_get(gs, g), "median");
    if (!m) continue;
    double y = top + bar_h * (double)line++;
    char label[300];
    snprintf(label, sizeof label, "%.60s", t->groups[g].name);
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    cairo_move_to(cr, 12, y + bar_h * 0.68);
    cairo_show_text(cr, label);
    double v = json_number_value(m);
    double bw = max > 0 ? (w - left - right) * v / max : 0;
    if (g == t->baseline_group) cairo_set_source_rgb(cr, 0.13, 0.35, 0.62);
    else cairo_set_source_rgb(cr, 0.45, 0.65, 0.85);
    cairo_rectangle(cr, left, y + 4, bw, bar_h - 8);
    cairo_fill(cr);
    char val[64];
    /* no ratio when the baseline group lacks this figure */
    const json_t *ratio = json_array_get(json_object_get(row, "ratios"), g);
    if (json_is_number(ratio)) snprintf(val, sizeof val, "%.4g (x%.2f)", v, json_number_value(ratio));
    else snprintf(val, sizeof val, "%.4g", v);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_move_to(cr, left + bw + 6, y + bar_h * 0.68);
    cairo_show_text(cr, val);
  }
  cairo_destroy(cr);
  struct ssdrev_atomic a;
  int rc = ssdrev_atomic_open(&a, path, err);
  if (!rc) {
    if (cairo_surface_write_to_png_stream(s, png_to_file, a.f) != CAIRO_STATUS_SUCCESS) {
      ssdrev_atomic_abort(&a);
      rc = ssdrev_fail(err, -EIO, "cannot write chart '%s'", path);
    } else {
      rc = ssdrev_atomic_commit(&a, err);
    }
  }
  cairo_surface_destroy(s);
  return rc;
}

/* Headline figures first: CDM MB/s, tail percentiles, SLC, then job MB/s. */
static int chart_priority(const json_t *row) {
  const char *sec = json_string_value(json_object_get(row, "section"));
  const char *m = json_string_value(json_object_get(row, "metric"));
  if (!strcmp(sec, "cdm") && strstr(m, "mb_s")) return 0;
  if (!strcmp(sec, "tail") && (!strcmp(m, "p99_us") || !strcmp(m, "p99.99_us"))) return 1;
  if (!strcmp(sec, "fill") && strstr(m, "gib")) return 2;
  if (!strcmp(sec, "tests") && !strcmp(m, "mb_s")) return 3;
  return -1;
}

static size_t groups_with_value(const json_t *row) {
  size_t n = 0, g;
  const json_t *x;
  json_array_foreach(json_object_get(row, "groups"), g, x) n += json_object_get(x, "median") != NULL;
  return n;
}

static int write_charts(struct cmp_out *c, struct ssdrev_err *err) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/charts", c->o->out_dir);
  int rc = ssdrev_mkdirs(dir, err);
  unsigned max = c->o->max_charts ? c->o->max_charts : 12;
  /* by priority, then the rows that compare the most groups first */
  for (int prio = 0; prio <= 3 && !rc; prio++) {
    for (size_t want = c->t->ngroups; want >= 1 && !rc; want--) {
      size_t i;
      json_t *row;
      json_array_foreach(c->t->rows, i, row) {
        if (json_array_size(c->charts) >= max || rc) break;
        if (chart_priority(row) != prio || groups_with_value(row) != want) continue;
        char title[256], sl[200], rel[300], path[4600];
        row_title(row, title, sizeof title);
        slug(title, sl, sizeof sl);
        snprintf(rel, sizeof rel, "charts/%02zu-%s.png", json_array_size(c->charts) + 1, sl);
        snprintf(path, sizeof path, "%s/%s", c->o->out_dir, rel);
        rc = draw_bars(c, row, title, path, err);
        if (!rc)
          json_array_append_new(c->charts, json_pack("{s:I, s:s, s:s}", "row", (json_int_t)i, "file", rel,
                                                     "title", title));
      }
    }
  }
  c->res->charts = json_array_size(c->charts);
  return rc;
}

/* ---------------------------------------------------------------- Markdown */

/* A value as literal Markdown text (render_buf_md: the renderer's one escaping). */
static void md_cell(FILE *f, const char *s) {
  struct render_buf b = {0};
  render_buf_md(&b, s ? s : "");
  if (b.s) fputs(b.s, f);
  render_buf_free(&b);
}

static char *build_md(const struct cmp_out *c) {
  const struct cmp_table *t = c->t;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  const struct cmp_group *bg = &t->groups[t->baseline_group];
  fprintf(f, "# Batch comparison\n\n%zu run%s in %zu group%s (model / firmware / fill state). Values are "
             "group medians; ratios (x) are against the baseline group **",
          t->nok, t->nok == 1 ? "" : "s", t->ngroups, t->ngroups == 1 ? "" : "s");
  md_cell(f, bg->name);
  fprintf(f, "**.\n\n## Groups\n\n| # | model | firmware | state | runs |\n| --- | --- | --- | --- | --- |\n");
  for (size_t g = 0; g < t->ngroups; g++) {
    fprintf(f, "| G%zu%s | ", g + 1, g == t->baseline_group ? " (baseline)" : "");
    md_cell(f, t->groups[g].model);
    fputs(" | ", f);
    md_cell(f, t->groups[g].firmware);
    fputs(" | ", f);
    md_cell(f, t->groups[g].state);
    fprintf(f, " | %zu |\n", t->groups[g].nruns);
  }
  fprintf(f, "\n## Runs\n\n| run | label | group | source | simulated |\n| --- | --- | --- | --- | --- |\n");
  for (size_t i = 0; i < t->nok; i++) {
    const struct cmp_run *r = t->ok[i];
    const char *src = json_string_value(json_object_get(json_object_get(r->manifest, "source"), "kind"));
    fputs("| ", f);
    md_cell(f, r->dir);
    fputs(" | ", f);
    md_cell(f, r->label);
    fprintf(f, " | G%zu | %s | %s |\n", r->group + 1, src ? src : "ssdrev",
            json_is_true(json_object_get(r->manifest, "simulated")) ? "yes" : "no");
  }
  const char *section = NULL;
  for (size_t g0 = 0; g0 < t->ngroups; g0 += CMP_COLS_PER_TABLE) {
    size_t g1 = g0 + CMP_COLS_PER_TABLE < t->ngroups ? g0 + CMP_COLS_PER_TABLE : t->ngroups;
    section = NULL;
    size_t i;
    json_t *row;
    json_array_foreach(t->rows, i, row) {
      const char *sec = json_string_value(json_object_get(row, "section"));
      if (!section || strcmp(section, sec)) {
        section = sec;
        fputs("\n## ", f);
        md_cell(f, sec);
        if (t->ngroups > CMP_COLS_PER_TABLE) fprintf(f, " (groups G%zu-G%zu)", g0 + 1, g1);
        fprintf(f, "\n\n| figure |");
        for (size_t g = g0; g < g1; g++) fprintf(f, " G%zu |", g + 1);
        fprintf(f, "\n| --- |");
        for (size_t g = g0; g < g1; g++) fprintf(f, " ---: |");
        fputc('\n', f);
      }
      char title[256];
      row_title(row, title, sizeof title);
      fputs("| ", f);
      md_cell(f, title);
      fputs(" |", f);
      for (size_t g = g0; g < g1; g++) {
        const json_t *st = json_array_get(json_object_get(row, "groups"), g);
        const json_t *ratio = json_array_get(json_object_get(row, "ratios"), g);
        if (!json_is_object(st)) fputs(" - |", f);
        else if (json_is_number(ratio))
          fprintf(f, " %.4g (x%.2f) |", json_number_value(json_object_get(st, "median")), json_number_value(ratio));
        else fprintf(f, " %.4g |", json_number_value(json_object_get(st, "median")));
      }
      fputc('\n', f);
    }
  }
  if (json_array_size(c->charts)) {
    fprintf(f, "\n## Charts\n");
    size_t i;
    json_t *ch;
    json_array_foreach(c->charts, i, ch) {
      fputs("\n![", f);
      md_cell(f, json_string_value(json_object_get(ch, "title")));
      fprintf(f, "](%s)\n", json_string_value(json_object_get(ch, "file"))); /* charts/SLUG.png, made safe by slug() */
    }
  }
  if (fclose(f)) {
    free(buf);
    return NULL;
  }
  return buf;
}

static int write_md(struct cmp_out *c, struct ssdrev_err *err) {
  char *md = build_md(c);
  if (!md) return ssdrev_fail(err, -ENOMEM, "out of memory building the comparison");
  char path[4200];
  snprintf(path, sizeof path, "%s/compare.md", c->o->out_dir);
  int rc = ssdrev_write_file_atomic(path, md, strlen(md), err);
  free(md);
  return rc;
}

static int write_pdf(struct cmp_out *c, struct ssdrev_err *err) {
  char *md = build_md(c);
  if (!md) return ssdrev_fail(err, -ENOMEM, "out of memory building the comparison");
  char path[4200];
  snprintf(path, sizeof path, "%s/compare.pdf", c->o->out_dir);
  struct render_doc_meta meta = {.title = "Batch comparison", .subject = "ssdrev compare",
                                 .base_dir = c->o->out_dir};
  int rc = render_md_to_pdf(md, &meta, path, err);
  free(md);
  return rc;
}

/* ---------------------------------------------------------------- CSV */

static void csv_field(FILE *f, const char *s, int last) {
  if (!s) s = ""; /* a row key the analysis left out is an empty field */
  csv_fwrite(f, s, strlen(s));
  fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, const json_t *v, int last) {
  char b[64] = "";
  if (json_is_number(v)) snprintf(b, sizeof b, "%.10g", json_number_value(v));
  csv_field(f, b, last);
}

static int write_csv(struct cmp_out *c, struct ssdrev_err *err) {
  const struct cmp_table *t = c->t;
  char path[4200];
  snprintf(path, sizeof path, "%s/compare.csv", c->o->out_dir);
  struct ssdrev_atomic a;
  int rc = ssdrev_atomic_open(&a, path, err);
  if (rc) return rc;
  static const char *const hdr[] = {"section", "key", "metric", "group", "model", "firmware", "state",
                                    "runs", "n", "median", "min", "max", "ratio"};
  for (size_t i = 0; i < sizeof hdr / sizeof hdr[0]; i++) csv_field(a.f, hdr[i], i + 1 == sizeof hdr / sizeof hdr[0]);
  size_t i;
  json_t *row;
  json_array_foreach(t->rows, i, row) {
    for (size_t g = 0; g < t->ngroups; g++) {
      const json_t *st = json_array_get(json_object_get(row, "groups"), g);
      if (!json_is_object(st)) continue;
      char gid[32], runs[32];
      snprintf(gid, sizeof gid, "G%zu", g + 1);
      snprintf(runs, sizeof runs, "%zu", t->groups[g].nruns);
      csv_field(a.f, json_string_value(json_object_get(row, "section")), 0);
      csv_field(a.f, json_string_value(json_object_get(row, "key")), 0);
      csv_field(a.f, json_string_value(json_object_get(row, "metric")), 0);
      csv_field(a.f, gid, 0);
      csv_field(a.f, t->groups[g].model, 0);
      csv_field(a.f, t->groups[g].firmware, 0);
      csv_field(a.f, t->groups[g].state, 0);
      csv_field(a.f, runs, 0);
      csv_num(a.f, json_object_get(st, "n"), 0);
      csv_num(a.f, json_object_get(st, "median"), 0);
      csv_num(a.f, json_object_get(st, "min"), 0);
      csv_num(a.f, json_object_get(st, "max"), 0);
      csv_num(a.f, json_array_get(json_object_get(row, "ratios"), g), 1);
    }
  }
  rc = ssdrev_atomic_commit(&a, err);
  if (rc) return rc;
  snprintf(path, sizeof path, "%s/runs.csv", c->o->out_dir);
  rc = ssdrev_atomic_open(&a, path, err);
  if (rc) return rc;
  static const char *const rhdr[] = {"run", "label", "group", "model", "firmware", "state", "source", "analyzed_now"};
  for (size_t k = 0; k < 8; k++) csv_field(a.f, rhdr[k], k == 7);
  for (size_t k = 0; k < t->nok; k++) {
    const struct cmp_run *r = t->ok[k];
    char gid[32];
    snprintf(gid, sizeof gid, "G%zu", r->group + 1);
    const char *src = json_string_value(json_object_get(json_object_get(r->manifest, "source"), "kind"));
    csv_field(a.f, r->dir, 0);
    csv_field(a.f, r->label, 0);
    csv_field(a.f, gid, 0);
    csv_field(a.f, r->model, 0);
    csv_field(a.f, r->firmware, 0);
    csv_field(a.f, r->state, 0);
    csv_field(a.f, src ? src : "ssdrev", 0);
    csv_field(a.f, r->analyzed ? "yes" : "no", 1);
  }
  return ssdrev_atomic_commit(&a, err);
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
};

int render_compare_write_outputs(const struct cmp_table *t, const struct render_cmp_opts *o, struct render_cmp_result *res,
                      struct ssdrev_err *err) {
  struct cmp_out c = {.t = t, .o = o, .res = res, .charts = json_array()};
  unsigned mask = o->formats ? o->formats : (RENDER_CMP_MD | RENDER_CMP_CSV | RENDER_CMP_CHARTS);
  int rc = 0;
  for (size_t i = 0; i < sizeof cmp_formats / sizeof cmp_formats[0] && !rc; i++)
    if (mask & cmp_formats[i].bit) rc = cmp_formats[i].write(&c, err);
  json_decref(c.charts);
  return rc;
}
