/* xlsx.c — the batch compare as an .xlsx workbook (libxlsxwriter): a Runs
 * sheet, a Groups sheet (one row per group and figure with its spread) and
 * one sheet per metric family with a row per run and a column per figure.
 * Written in libxlsxwriter's constant-memory mode (rows in order, spilled
 * to temporary files), so 10,000 runs do not sit in memory twice. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <xlsxwriter.h>
#include "render/compare/compare_int.h"

struct xl {
  lxw_workbook *wb;
  lxw_format *head, *f2, *f1, *f0;
  int ko; /* sheet names, headers and yes/no in Korean */
};

/* The cell format of a unit: as the report's numbers (strings.c). */
static lxw_format *fmt_of(const struct xl *x, const char *unit) {
  if (!strcmp(unit, "IOPS")) return x->f0;
  if (!strcmp(unit, "GiB")) return x->f1;
  return x->f2;
}

/* A column header: the machine name in English (as the CSV files'), the
 * catalogue's Korean form with --lang ko. */
struct xl_head {
  const char *en;
  enum render_cmp_msg ko;
};

static void header(lxw_worksheet *ws, const struct xl *x, const struct xl_head *h, size_t n) {
  for (size_t i = 0; i < n; i++)
    worksheet_write_string(ws, 0, (lxw_col_t)i, x->ko ? render_cmp_msg(h[i].ko, 1) : h[i].en, x->head);
  worksheet_freeze_panes(ws, 1, 0);
}

static const char *xl_yn(const struct xl *x, int v) {
  return x->ko ? render_cmp_msg(v ? CM_YES : CM_NO, 1) : v ? "yes" : "no";
}

/* A sheet name Excel accepts: at most 31 characters, none of []:*?/\ ('-'
 * for them), cut at a whole UTF-8 character. */
static void sheet_name(const char *in, char *out, size_t len) {
  size_t k = 0, chars = 0;
  for (const char *p = in; *p && k + 4 < len;) {
    unsigned char c = (unsigned char)*p;
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (chars == 31) break;
    if (strchr("[]:*?/\\", (char)c) && c < 0x80) out[k++] = '-', p++;
    else
      for (size_t i = 0; i < n && *p; i++) out[k++] = *p++;
    chars++;
  }
  out[k] = 0;
}

static void num(lxw_worksheet *ws, lxw_row_t r, lxw_col_t c, double v, lxw_format *f) {
  if (isfinite(v)) worksheet_write_number(ws, r, c, v, f);
}

static const char *run_name(const struct cmp_run *r) {
  const char *b = strrchr(r->dir, '/');
  return b ? b + 1 : r->dir;
}

static void sheet_runs(const struct cmp_table *t, const struct xl *x) {
  lxw_worksheet *ws = workbook_add_worksheet(x->wb, render_cmp_msg(CM_SHEET_RUNS, x->ko));
  static const struct xl_head h[] = {
      {"run", CM_XL_RUN},       {"label", CM_COL_LABEL},         {"group", CM_COL_GROUP},
      {"model", CM_COL_MODEL},  {"firmware", CM_COL_FIRMWARE},   {"state", CM_COL_STATE},
      {"source", CM_COL_SOURCE}, {"simulated", CM_COL_SIMULATED}, {"date", CM_COL_DATE},
      {"measured", CM_COL_MEASURED}, {"method", CM_COL_METHOD},  {"engine", CM_COL_ENGINE},
      {"ssdrev_version", CM_COL_VERSION}, {"kernel", CM_COL_KERNEL}};
  header(ws, x, h, sizeof h / sizeof h[0]);
  worksheet_set_column(ws, 0, 2, 28, NULL);
  for (size_t i = 0; i < t->nok; i++) {
    const struct cmp_run *r = t->ok[i];
    const char *v[] = {run_name(r), r->label,  t->groups[r->group].name, r->model,  r->firmware,
                       r->state,    r->source, xl_yn(x, r->simulated),      r->date,   r->measured,
                       r->method,   r->engine, r->tool_version,          r->kernel};
    for (size_t c = 0; c < sizeof v / sizeof v[0]; c++)
      worksheet_write_string(ws, (lxw_row_t)(i + 1), (lxw_col_t)c, v[c], NULL);
  }
}

static void sheet_groups(const struct cmp_table *t, const struct xl *x) {
  lxw_worksheet *ws = workbook_add_worksheet(x->wb, render_cmp_msg(CM_SHEET_GROUPS, x->ko));
  static const struct xl_head h[] = {
      {"group", CM_COL_GROUP}, {"baseline", CM_XL_BASELINE}, {"family", CM_XL_FAMILY}, {"test", CM_COL_TEST},
      {"metric", CM_XL_METRIC}, {"unit", CM_XL_UNIT},       {"n", CM_COL_N},          {"min", CM_COL_MIN},
      {"median", CM_COL_MEDIAN}, {"max", CM_COL_MAX},       {"ratio", CM_COL_RATIO},  {"mean", CM_COL_MEAN},
      {"stddev", CM_COL_SD},   {"cv", CM_COL_CV},           {"ci95_lo", CM_XL_CI_LO}, {"ci95_hi", CM_XL_CI_HI},
      {"diff_pct", CM_COL_DIFF}, {"p_welch", CM_COL_P},     {"beyond_noise", CM_XL_BEYOND}};
  header(ws, x, h, sizeof h / sizeof h[0]);
  worksheet_set_column(ws, 0, 0, 36, NULL);
  lxw_row_t row = 1;
  for (size_t k = 0; k < t->nfig_order; k++) {
    size_t f = t->order[k];
    const struct cmp_fig *fig = &t->figs->v[f];
    const struct cmp_stat *b = cmp_stat_at(t, f, t->baseline_group);
    for (size_t g = 0; g < t->ngroups; g++) {
      const struct cmp_stat *s = cmp_stat_at(t, f, g);
      if (!s->n) continue;
      const char *v[] = {t->groups[g].name, xl_yn(x, g == t->baseline_group), fig->family, fig->key,
                         fig->metric, fig->unit};
      for (size_t c = 0; c < 6; c++) worksheet_write_string(ws, row, (lxw_col_t)c, v[c], NULL);
      worksheet_write_number(ws, row, 6, s->n, NULL);
      lxw_format *nf = fmt_of(x, fig->unit);
      num(ws, row, 7, s->min, nf);
      num(ws, row, 8, s->median, nf);
      num(ws, row, 9, s->max, nf);
      if (b->n && b->median != 0) num(ws, row, 10, s->median / b->median, x->f2);
      num(ws, row, 11, s->mean, nf);
      num(ws, row, 12, s->sd, nf);
      num(ws, row, 13, render_cmp_cv(s), NULL);
      num(ws, row, 14, s->ci_lo, nf);
      num(ws, row, 15, s->ci_hi, nf);
      if (g != t->baseline_group) {
        struct cmp_diff d;
        render_cmp_welch(b, s, &d);
        num(ws, row, 16, d.pct, x->f2);
        num(ws, row, 17, d.p, NULL);
        if (d.ok) worksheet_write_string(ws, row, 18, xl_yn(x, d.beyond), NULL);
      }
      row++;
    }
  }
}

/* One family: a row per run that has any of its figures, a column per figure. */
static int sheet_family(const struct cmp_table *t, const struct xl *x, unsigned fam) {
  size_t *cols = malloc((t->nfig_order ? t->nfig_order : 1) * sizeof *cols), nc = 0;
  if (!cols) return -ENOMEM;
  for (size_t k = 0; k < t->nfig_order; k++)
    if (t->figs->v[t->order[k]].family_id == fam) cols[nc++] = t->order[k];
  if (!nc) {
    free(cols);
    return 0;
  }
  char sn[128];
  sheet_name(x->ko ? render_cmp_msg((enum render_cmp_msg)render_cmp_families[fam].title, 1) : render_cmp_families[fam].sheet,
             sn, sizeof sn);
  lxw_worksheet *ws = workbook_add_worksheet(x->wb, sn);
  static const struct xl_head h3[] = {{"run", CM_XL_RUN}, {"label", CM_COL_LABEL}, {"group", CM_COL_GROUP}};
  for (lxw_col_t c = 0; c < 3; c++)
    worksheet_write_string(ws, 0, c, x->ko ? render_cmp_msg(h3[c].ko, 1) : h3[c].en, x->head);
  for (size_t c = 0; c < nc; c++) {
    const struct cmp_fig *fig = &t->figs->v[cols[c]];
    char h[600], tt[300];
    /* English: the machine key (as compare.csv); Korean: the report's title */
    if (x->ko) {
      render_cmp_fig_title(fig, 1, tt, sizeof tt);
      snprintf(h, sizeof h, "%s [%s]", tt, render_cmp_unit_shown(fig->unit));
    } else {
      snprintf(h, sizeof h, "%s %s [%s]", fig->key, fig->metric, fig->unit);
    }
    worksheet_write_string(ws, 0, (lxw_col_t)(c + 3), h, x->head);
  }
  worksheet_freeze_panes(ws, 1, 3);
  worksheet_set_column(ws, 0, 2, 24, NULL);
  lxw_row_t row = 1;
  for (size_t i = 0; i < t->nok; i++) {
    const struct cmp_run *r = t->ok[i];
    int any = 0;
    for (size_t c = 0; c < nc && !any; c++) any = render_cmp_run_value(r, cols[c]) != NULL;
    if (!any) continue;
    worksheet_write_string(ws, row, 0, run_name(r), NULL);
    worksheet_write_string(ws, row, 1, r->label, NULL);
    worksheet_write_string(ws, row, 2, t->groups[r->group].name, NULL);
    for (size_t c = 0; c < nc; c++) {
      const struct cmp_val *v = render_cmp_run_value(r, cols[c]);
      if (v) num(ws, row, (lxw_col_t)(c + 3), v->v, fmt_of(x, t->figs->v[cols[c]].unit));
    }
    row++;
  }
  free(cols);
  return 0;
}

int render_cmp_write_xlsx(const struct cmp_table *t, const char *path, struct ssdrev_err *err) {
  struct ssdrev_atomic a;
  int rc = ssdrev_atomic_open(&a, path, err);
  if (rc) return rc;
  /* libxlsxwriter writes a file by name: our freshly created temporary one,
   * renamed into place by the commit as every other output */
  lxw_workbook_options opt = {.constant_memory = LXW_TRUE};
  struct xl x = {.wb = workbook_new_opt(a.tmp, &opt), .ko = t->lang_ko};
  if (!x.wb) {
    ssdrev_atomic_abort(&a);
    return ssdrev_fail(err, -ENOMEM, "cannot start the workbook '%s'", path);
  }
  x.head = workbook_add_format(x.wb);
  format_set_bold(x.head);
  x.f2 = workbook_add_format(x.wb);
  format_set_num_format(x.f2, "#,##0.00");
  x.f1 = workbook_add_format(x.wb);
  format_set_num_format(x.f1, "#,##0.0");
  x.f0 = workbook_add_format(x.wb);
  format_set_num_format(x.f0, "#,##0");
  sheet_runs(t, &x);
  sheet_groups(t, &x);
  for (unsigned fam = 0; fam < render_cmp_nfamilies && !rc; fam++) rc = sheet_family(t, &x, fam);
  errno = 0;
  lxw_error e = workbook_close(x.wb);
  int sys = errno; /* libxlsxwriter's ZIP_ERRNO: the errno of its failed write */
  if (rc || e != LXW_NO_ERROR) {
    ssdrev_atomic_abort(&a);
    if (!rc && sys && (e == LXW_ERROR_ZIP_FILE_OPERATION || e == LXW_ERROR_ZIP_FILE_ADD || e == LXW_ERROR_ZIP_CLOSE ||
                       e == LXW_ERROR_CREATING_XLSX_FILE || e == LXW_ERROR_CREATING_TMPFILE))
      return ssdrev_fail(err, -sys, "cannot write '%s': %s", path, strerror(sys));
    return ssdrev_fail(err, rc ? rc : -EIO, "cannot write the workbook '%s': %s", path,
                       rc ? "out of memory" : lxw_strerror(e));
  }
  return ssdrev_atomic_commit(&a, err);
}
