/* tables.c — the table kinds of {{table KIND}}: GFM pipe tables laid out
 * like the reference review's (DUT summary, CrystalDiskMark results, tail
 * latency, SLC cache, RW sweep, flags). One table of functions. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "render/render_int.h"

#define MAX_RUNS 16

size_t render_select(const struct render_runs *rs, const char *drive, const struct render_run **sel, size_t max) {
  if (drive && strcmp(drive, "all")) {
    const struct render_run *r = render_runs_find(rs, drive);
    if (!r || !max) return 0;
    sel[0] = r;
    return 1;
  }
  size_t n = 0;
  for (size_t i = 0; i < rs->n && n < max; i++) sel[n++] = &rs->v[i];
  return n;
}

static const char *state_arg(const struct render_args *a) { return a->state ? a->state : "FOB"; }

/* The table's language: lang= (the template sets it to its own). */
static enum render_lang lang_arg(const struct render_args *a) {
  enum render_lang l = RENDER_LANG_EN;
  if (a->lang) render_lang_parse(a->lang, &l);
  return l;
}

/* Puts message ID in the table's language. */
#define M(id) render_msg(lang_arg(a), id)

/* A header row from message ids ("| A | B |\n| --- | ---: |\n"); ALIGN
 * holds 'l' or 'r' per column. */
static void head_row(struct render_buf *b, const struct render_args *a, const enum render_msg_id *ids, size_t n,
                     const char *align) {
  render_buf_puts(b, "|");
  for (size_t i = 0; i < n; i++) render_buf_printf(b, " %s |", M(ids[i]));
  render_buf_puts(b, "\n|");
  for (size_t i = 0; i < n; i++) render_buf_puts(b, align[i] == 'r' ? " ---: |" : " --- |");
  render_buf_puts(b, "\n");
}

/* A caption line before each per-drive table when several drives are shown. */
static void drive_caption(struct render_buf *b, const char *text, size_t nsel) {
  if (nsel <= 1) return;
  render_buf_puts(b, "**");
  render_buf_md(b, text);
  render_buf_puts(b, "**\n\n");
}


/* Appends S as Markdown text: the characters Markdown would read as markup
 * are backslash-escaped (a label is text, not emphasis or a link). */
/* An integer with thousands separators: 12,345. */
static void put_thousands(struct render_buf *b, double v) {
  char d[32];
  snprintf(d, sizeof d, "%.0f", v);
  size_t n = strlen(d), lead = d[0] == '-';
  for (size_t i = 0; i < n; i++) {
    if (i > lead && (n - i) % 3 == 0) render_buf_putn(b, ",", 1);
    render_buf_putn(b, d + i, 1);
  }
}

/* ------------------------------------------------------------ DUT summary */

static void put_field(struct render_buf *b, const struct render_args *a, const json_t *dut, const char *key,
                      const char *fmt_num, const char *suffix) {
  json_t *v = json_object_get(dut, key);
  if (json_is_string(v)) render_buf_md(b, json_string_value(v));
  else if (json_is_number(v)) render_buf_printf(b, fmt_num, json_number_value(v));
  else {
    render_buf_puts(b, M(MSG_NA)); /* unknown: said so, never invented */
    return;
  }
  render_buf_puts(b, suffix);
}

static int t_dut(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                 struct ssdrev_err *err) {
  (void)nsel;
  json_t *dut = json_object_get(r->analysis, "dut");
  if (!dut && r->manifest) dut = json_object_get(r->manifest, "dut");
  if (!json_is_object(dut)) return render_msg_fail(err, -ENOENT, MSG_MISS_DUT, r->label, NULL);
  if (!b) return 0;
  render_buf_puts(b, "| ");
  render_buf_md(b, render_data_str(dut, "model", M(MSG_T_UNKNOWN_MODEL)));
  render_buf_puts(b, " [");
  render_buf_md(b, r->label);
  render_buf_puts(b, "] | | | |\n| --- | --- | --- | --- |\n");
  render_buf_printf(b, "| %s | ", M(MSG_T_LINK));
  put_field(b, a, dut, "link", "%g", "");
  render_buf_printf(b, " | %s | ", M(MSG_T_NVME_VERSION));
  if (json_is_string(json_object_get(dut, "nvme_version"))) render_buf_puts(b, "NVMe ");
  put_field(b, a, dut, "nvme_version", "%g", "");
  render_buf_printf(b, " |\n| %s | ", M(MSG_T_FIRMWARE));
  put_field(b, a, dut, "firmware", "%g", "");
  render_buf_printf(b, " | %s | ", M(MSG_T_LBA_SIZE));
  put_field(b, a, dut, "lba_bytes", "%.0f", "B");
  render_buf_printf(b, " |\n| %s | ", M(MSG_T_CONTROLLER));
  put_field(b, a, dut, "controller", "%g", "");
  render_buf_printf(b, " | %s | ", M(MSG_T_WARN_TEMP));
  put_field(b, a, dut, "warn_temp_c", "%.0f", " °C");
  render_buf_printf(b, " |\n| %s | ", M(MSG_T_STORAGE_MEDIA));
  put_field(b, a, dut, "media", "%g", "");
  render_buf_printf(b, " | %s | ", M(MSG_T_CRIT_TEMP));
  put_field(b, a, dut, "crit_temp_c", "%.0f", " °C");
  render_buf_puts(b, " |\n");
  /* SMART / Health log at the start of the review (import/dut.c health) */
  json_t *h = json_object_get(dut, "health");
  if (json_object_size(h)) {
    static const struct {
      const char *key;
      enum render_msg_id name;
      int unit; /* 0 count, 1 hours, 2 bytes as TB, 3 percent */
    } hf[] = {
        {"power_on_hours", MSG_T_POWER_ON_HOURS, 1},
        {"data_written_bytes", MSG_T_DATA_WRITTEN, 2},
        {"data_read_bytes", MSG_T_DATA_READ, 2},
        {"media_errors", MSG_T_MEDIA_ERRORS, 0},
        {"percent_used", MSG_T_PERCENT_USED, 3},
        {"available_spare_pct", MSG_T_AVAILABLE_SPARE, 3},
        {"power_cycles", MSG_T_POWER_CYCLES, 0},
        {"unsafe_shutdowns", MSG_T_UNSAFE_SHUTDOWNS, 0},
    };
    render_buf_printf(b, "| **%s** | | | |\n", M(MSG_T_SMART_HEAD));
    size_t col = 0;
    for (size_t i = 0; i < sizeof hf / sizeof hf[0]; i++) {
      json_t *v = json_object_get(h, hf[i].key);
      if (!json_is_number(v)) continue; /* unknown: left out, never invented */
      double x = json_number_value(v);
      render_buf_printf(b, "%s%s | ", col ? " " : "| ", M(hf[i].name));
      switch (hf[i].unit) {
      case 1: put_thousands(b, x); render_buf_puts(b, " h"); break;
      case 2: render_buf_printf(b, x >= 1e12 ? "%.2f TB" : "%.1f GB", x >= 1e12 ? x / 1e12 : x / 1e9); break;
      case 3: render_buf_printf(b, "%.0f%%", x); break;
      default: put_thousands(b, x);
      }
      render_buf_puts(b, " |");
      if (++col == 2) {
        render_buf_puts(b, "\n");
        col = 0;
      }
    }
    if (col) render_buf_puts(b, " | |\n");
  }
  json_t *ps = json_object_get(dut, "power_states");
  if (json_array_size(ps)) {
    render_buf_printf(b, "| **%s** | **%s** | **%s** | **%s** |\n", M(MSG_T_POWER_STATE), M(MSG_T_MAX_POWER),
                      M(MSG_T_ENTRY_LAT), M(MSG_T_EXIT_LAT));
    size_t i;
    json_t *p;
    json_array_foreach(ps, i, p) {
      double w = render_data_num(p, "max_power_w", NAN);
      render_buf_printf(b, "| PS%d | ", (int)render_data_num(p, "ps", (double)i));
      /* the review's style: 7.02W, 0.0760W */
      if (isfinite(w)) render_buf_printf(b, w < 1 ? "%.4fW" : "%.2fW", w);
      else render_buf_puts(b, M(MSG_NA));
      render_buf_puts(b, " | ");
      put_field(b, a, p, "entry_lat_us", "%.0f", "µs");
      render_buf_puts(b, " | ");
      put_field(b, a, p, "exit_lat_us", "%.0f", "µs");
      render_buf_puts(b, " |\n");
    }
  }
  render_buf_puts(b, "\n");
  return 0;
}

/* ----------------------------------------------------- CrystalDiskMark */

static int t_cdm(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                 struct ssdrev_err *err) {
  json_t *cells[32];
  size_t n = render_data_cdm_cells(r, state_arg(a), cells, 32);
  if (!n) return render_msg_fail(err, -ENOENT, MSG_MISS_CDM, r->label, state_arg(a));
  if (!b) return 0;
  (void)nsel; /* every table is captioned below, one drive or several */
  static const enum render_msg_id h[] = {MSG_T_TEST,      MSG_T_READ_MB_S, MSG_T_WRITE_MB_S, MSG_T_READ_IOPS,
                                         MSG_T_WRITE_IOPS, MSG_T_READ_US,   MSG_T_WRITE_US};
  head_row(b, a, h, 7, "lrrrrrr");
  for (size_t i = 0; i < n; i++) {
    json_t *rd = json_object_get(cells[i], "read"), *wr = json_object_get(cells[i], "write");
    render_buf_puts(b, "| ");
    render_buf_md(b, render_data_str(cells[i], "cell", "?"));
    render_buf_printf(b, " | %.2f | %.2f | %.1f | %.1f | %.2f | %.2f |\n", render_data_num(rd, "mb_s", NAN), render_data_num(wr, "mb_s", NAN),
                render_data_num(rd, "iops", NAN), render_data_num(wr, "iops", NAN), render_data_num(rd, "lat_us", NAN),
                render_data_num(wr, "lat_us", NAN));
  }
  /* the caption says whose table and which state: under the FOB and the
   * 75% panels alike, a table is never left to be guessed */
  struct render_buf lab = {0};
  render_buf_md(&lab, r->label); /* a parameter goes in as it is: escaped first */
  json_t *cp = json_pack("{s:s}", "label", lab.s ? lab.s : "");
  render_buf_puts(b, "\n*");
  render_msg_put(b, lang_arg(a), strcmp(state_arg(a), "75%") ? MSG_T_CDM_CAPTION_FOB : MSG_T_CDM_CAPTION_75, cp);
  render_buf_puts(b, "*\n\n");
  json_decref(cp);
  render_buf_free(&lab);
  return 0;
}

/* ---------------------------------------------------------- tail latency */

static size_t tail_pcts(const struct render_run *r, double *p, size_t max) {
  json_t *list = json_object_get(r->analysis, "percentiles");
  static const double dflt[] = {90, 99, 99.9, 99.99, 99.999};
  size_t n = 0;
  if (json_array_size(list)) {
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) {
      /* the review's table starts at p90 */
      if (n < max && json_number_value(v) >= 90) p[n++] = json_number_value(v);
    }
  }
  if (!n)
    for (size_t i = 0; i < 5 && i < max; i++) p[n++] = dflt[i];
  return n;
}

static int t_tail(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                  struct ssdrev_err *err) {
  double p[ANALYZE_MAX_PCTS], us;
  size_t np = tail_pcts(r, p, ANALYZE_MAX_PCTS), found = 0;
  for (size_t i = 0; i < np; i++)
    for (size_t w = 0; w < 3; w++) found += !render_data_tail_us(r, render_data_workloads[w].id, p[i], &us);
  if (!found) return render_msg_fail(err, -ENOENT, MSG_MISS_TAIL, r->label, NULL);
  if (!b) return 0;
  drive_caption(b, r->label, nsel);
  static const enum render_msg_id h[] = {MSG_T_PERCENTILE, MSG_T_RND_READ, MSG_T_RND_MIX70, MSG_T_RND_WRITE};
  head_row(b, a, h, 4, "rrrr");
  for (size_t i = 0; i < np; i++) {
    render_buf_printf(b, "| %g%% |", p[i]);
    for (size_t w = 0; w < 3; w++) {
      if (!render_data_tail_us(r, render_data_workloads[w].id, p[i], &us)) render_buf_printf(b, " %.2f µs |", us);
      else render_buf_printf(b, " %s |", M(MSG_NA));
    }
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, "\n");
  return 0;
}

/* ---------------------------------------------------------------- RW sweep */

static int t_rw(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                struct ssdrev_err *err) {
  json_t *sw = json_object_get(r->analysis, "rw_sweep");
  if (!json_array_size(sw)) return render_msg_fail(err, -ENOENT, MSG_MISS_SWEEP, r->label, NULL);
  if (!b) return 0;
  drive_caption(b, r->label, nsel);
  render_buf_printf(b, "| %s |", M(MSG_T_READ_SHARE));
  size_t i, k;
  json_t *q, *pt;
  json_array_foreach(sw, i, q) render_buf_printf(b, " QD%d [MB/s] |", (int)render_data_num(q, "qd", 0));
  render_buf_puts(b, "\n| ---: |");
  json_array_foreach(sw, i, q) render_buf_puts(b, " ---: |");
  render_buf_puts(b, "\n");
  /* rows: the read shares of the first QD */
  json_array_foreach(json_object_get(json_array_get(sw, 0), "points"), k, pt) {
    double pct = render_data_num(pt, "read_pct", NAN);
    render_buf_printf(b, "| %g%% |", pct);
    json_array_foreach(sw, i, q) {
      double v = NAN;
      size_t j;
      json_t *pp;
      json_array_foreach(json_object_get(q, "points"), j, pp) if (render_data_num(pp, "read_pct", -1) == pct) v =
          render_data_num(pp, "mb_s", NAN);
      if (isfinite(v)) render_buf_printf(b, " %.1f |", v);
      else render_buf_printf(b, " %s |", M(MSG_NA));
    }
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, "\n");
  return 0;
}

/* ------------------------------------------------------ QD scaling */

/* Rows QD, per workload IOPS / mean / p99; the plateau QD is marked. */
static int t_qd(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                struct ssdrev_err *err) {
  json_t *qs = json_object_get(r->analysis, "qd_scaling");
  if (!json_array_size(qs))
    return ssdrev_fail(err, -ENOENT, "run '%s' has no queue-depth scaling (analysis qd_scaling)", r->label);
  if (!b) return 0;
  int ko = a->lang && !strcmp(a->lang, "ko");
  drive_caption(b, r->label, nsel);
  render_buf_puts(b, "| QD |");
  size_t i, k;
  json_t *g, *pt;
  json_array_foreach(qs, i, g) {
    const char *w = render_data_str(g, "workload", "?");
    int rd = !strcmp(w, "read");
    if (ko) render_buf_printf(b, " %s IOPS | %s 평균 [µs] | %s p99 [µs] |", rd ? "읽기" : "쓰기", rd ? "읽기" : "쓰기",
                              rd ? "읽기" : "쓰기");
    else render_buf_printf(b, " %s IOPS | %s mean [µs] | %s p99 [µs] |", rd ? "Read" : "Write", rd ? "Read" : "Write",
                           rd ? "Read" : "Write");
  }
  render_buf_puts(b, "\n| ---: |");
  json_array_foreach(qs, i, g) render_buf_puts(b, " ---: | ---: | ---: |");
  render_buf_puts(b, "\n");
  /* rows: the QDs of the first workload */
  json_array_foreach(json_object_get(json_array_get(qs, 0), "points"), k, pt) {
    double qd = render_data_num(pt, "qd", NAN);
    render_buf_printf(b, "| %g |", qd);
    json_array_foreach(qs, i, g) {
      const json_t *hit = NULL;
      size_t j;
      json_t *pp;
      json_array_foreach(json_object_get(g, "points"), j, pp) if (render_data_num(pp, "qd", -1) == qd) hit = pp;
      double v[3] = {render_data_num(hit, "iops", NAN), render_data_num(hit, "lat_mean_us", NAN),
                     render_data_num(hit, "p99_us", NAN)};
      int plateau = render_data_num(g, "plateau_qd", -1) == qd;
      for (int c = 0; c < 3; c++) {
        if (!isfinite(v[c])) render_buf_puts(b, " n/a |");
        else if (c == 0) render_buf_printf(b, plateau ? " **%.0f** |" : " %.0f |", v[c]);
        else render_buf_printf(b, " %.1f |", v[c]);
      }
    }
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, ko ? "\n굵은 IOPS: 더 깊은 QD에서 10% 넘게 늘지 않는 첫 QD(포화점).\n\n"
                        : "\nBold IOPS: the first QD that no deeper QD beats by more than 10% (the plateau).\n\n");
  return 0;
}

/* ------------------------------------------------------- per-set tables */

/* Tables over all selected drives at once (one row or column per drive). */
static int t_slc(const struct render_run *const *sel, size_t n, const struct render_args *a, struct render_buf *b,
                 struct ssdrev_err *err) {
  for (size_t i = 0; i < n; i++)
    if (!json_is_object(json_object_get(json_object_get(sel[i]->analysis, "fill"), "slc")))
      return render_msg_fail(err, -ENOENT, MSG_MISS_SLC, sel[i]->label, NULL);
  if (!b) return 0;
  static const enum render_msg_id h[] = {MSG_T_DRIVE,    MSG_T_SLC_EMPTY,   MSG_T_SLC_FULL,
                                         MSG_T_IN_CACHE, MSG_T_AFTER_CACHE, MSG_T_CONFIDENCE};
  head_row(b, a, h, 6, "lrrrrr");
  for (size_t i = 0; i < n; i++) {
    json_t *s = json_object_get(json_object_get(sel[i]->analysis, "fill"), "slc");
    render_buf_puts(b, "| ");
    render_buf_md(b, sel[i]->label);
    /* older analyses have no "found": a cache size means one was found */
    const json_t *fo = json_object_get(s, "found");
    if (fo ? !json_is_true(fo) : !json_is_number(json_object_get(s, "max_gib"))) {
      render_buf_printf(b, " | %s | | | | |\n", M(MSG_T_NO_CACHE));
      continue;
    }
    double v[5] = {render_data_num(s, "max_gib", NAN), render_data_num(s, "min_gib", NAN), render_data_num(s, "cache_mb_s", NAN),
                   render_data_num(s, "post_cache_mb_s", NAN), render_data_num(s, "confidence", NAN)};
    static const char *const fmt[5] = {NULL, NULL, " | %.0f MB/s", " | %.0f MB/s", " | %.2f"};
    for (int k = 0; k < 5; k++) {
      if (isfinite(v[k]) && k < 2) {
        /* up to two decimals, trailing zeros dropped: 0.75 GiB is 0.75 (not
         * 0.8), 11.2 stays 11.2 */
        char g[32];
        snprintf(g, sizeof g, "%.2f", v[k]);
        size_t l = strlen(g);
        while (l && g[l - 1] == '0') g[--l] = 0;
        if (l && g[l - 1] == '.') g[--l] = 0;
        render_buf_printf(b, " | %s GiB", g);
      } else if (isfinite(v[k])) render_buf_printf(b, fmt[k], v[k]);
      else if (k == 1 && isfinite(render_data_num(s, "min_gib_at_least", NAN)))
        render_buf_printf(b, " | ≥ %.2f GiB", render_data_num(s, "min_gib_at_least", NAN));
      else if (k == 1 && isfinite(render_data_num(s, "min_gib_recovered", NAN)))
        render_buf_printf(b, " | %s", M(MSG_T_NOT_BACK));
      else render_buf_printf(b, " | %s", M(MSG_NA));
    }
    render_buf_puts(b, " |\n");
  }
  render_buf_puts(b, "\n");
  return 0;
}

static int t_cdm_compare(const struct render_run *const *sel, size_t n, const struct render_args *a, struct render_buf *b,
                         struct ssdrev_err *err) {
  const char *op = a->op ? a->op : "read";
  if (strcmp(op, "read") && strcmp(op, "write"))
    return ssdrev_fail(err, -EINVAL, "table cdm_compare: op must be read or write, not '%s'", op);
  json_t *cells[32];
  size_t nc = render_data_cdm_cells(sel[0], state_arg(a), cells, 32);
  for (size_t i = 0; i < n; i++) {
    json_t *c2[32];
    if (!render_data_cdm_cells(sel[i], state_arg(a), c2, 32))
      return render_msg_fail(err, -ENOENT, MSG_MISS_CDM, sel[i]->label, state_arg(a));
  }
  if (!b) return 0;
  json_t *params = json_pack("{s:s, s:s}", "state", state_arg(a), "op", op);
  render_buf_puts(b, "| ");
  render_msg_put(b, lang_arg(a), MSG_T_CMP_HEAD, params);
  json_decref(params);
  render_buf_puts(b, " |");
  for (size_t i = 0; i < n; i++) {
    render_buf_puts(b, " ");
    render_buf_md(b, sel[i]->label);
    render_buf_puts(b, " |");
  }
  render_buf_puts(b, "\n| --- |");
  for (size_t i = 0; i < n; i++) render_buf_puts(b, " ---: |");
  render_buf_puts(b, "\n");
  for (size_t k = 0; k < nc; k++) {
    const char *cell = render_data_str(cells[k], "cell", "?");
    render_buf_puts(b, "| ");
    render_buf_md(b, cell);
    render_buf_puts(b, " |");
    for (size_t i = 0; i < n; i++) {
      json_t *c2[32];
      size_t m = render_data_cdm_cells(sel[i], state_arg(a), c2, 32);
      double v = NAN;
      for (size_t j = 0; j < m; j++)
        if (!strcmp(render_data_str(c2[j], "cell", ""), cell)) v = render_data_num(json_object_get(c2[j], op), "mb_s", NAN);
      if (isfinite(v)) render_buf_printf(b, " %.2f |", v);
      else render_buf_printf(b, " %s |", M(MSG_NA));
    }
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, "\n");
  return 0;
}

static int t_flags(const struct render_run *const *sel, size_t n, const struct render_args *a, struct render_buf *b,
                   struct ssdrev_err *err) {
  (void)err;
  if (!b) return 0;
  enum render_lang lang = lang_arg(a);
  size_t total = 0;
  for (size_t i = 0; i < n; i++) total += json_array_size(json_object_get(sel[i]->analysis, "flags"));
  if (!total) {
    render_buf_printf(b, "%s\n\n", M(MSG_NO_FLAGS));
    return 0;
  }
  static const enum render_msg_id h[] = {MSG_T_DRIVE, MSG_T_SEVERITY, MSG_T_FINDING};
  head_row(b, a, h, 3, "lll");
  for (size_t i = 0; i < n; i++) {
    size_t k;
    json_t *f;
    json_array_foreach(json_object_get(sel[i]->analysis, "flags"), k, f) {
      render_buf_puts(b, "| ");
      render_buf_md(b, sel[i]->label);
      render_buf_puts(b, " | ");
      const char *sev = render_data_str(f, "severity", "info");
      int sid = render_msg_severity(sev);
      render_buf_md(b, sid >= 0 ? render_msg(lang, (enum render_msg_id)sid) : sev);
      render_buf_puts(b, " | ");
      /* the finding from the flag's id and numbers in the review's
       * language; a flag the catalogue does not know, or whose numbers
       * predate its form, shows analyze's English message */
      int fid = render_msg_flag(render_data_str(f, "id", NULL));
      const json_t *nums = json_object_get(f, "numbers");
      if (fid >= 0 && render_msg_params_ok(lang, (enum render_msg_id)fid, nums)) {
        struct render_buf m = {0};
        render_msg_put(&m, lang, (enum render_msg_id)fid, nums);
        render_buf_md(b, m.s ? m.s : "");
        if (m.oom) b->oom = 1;
        render_buf_free(&m);
      } else {
        render_buf_md(b, render_data_str(f, "message", render_data_str(f, "id", "?")));
      }
      render_buf_puts(b, " |\n");
    }
  }
  render_buf_puts(b, "\n");
  return 0;
}

/* ----------------------------------------------------------------- table */

struct table_kind {
  const char *name;
  /* per drive: called once for each selected run */
  int (*per_run)(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                 struct ssdrev_err *err);
  /* per set: called once with every selected run */
  int (*per_set)(const struct render_run *const *sel, size_t n, const struct render_args *a, struct render_buf *b,
                 struct ssdrev_err *err);
};

static const struct table_kind tables[] = {
    {"dut", t_dut, NULL},      {"cdm", t_cdm, NULL},
    {"tail", t_tail, NULL},    {"rw_sweep", t_rw, NULL},
    {"slc", NULL, t_slc},      {"cdm_compare", NULL, t_cdm_compare},
    {"flags", NULL, t_flags},  {"qd_scaling", t_qd, NULL},
};
#define NTABLES (sizeof tables / sizeof tables[0])

int render_table_exists(const char *kind) {
  for (size_t i = 0; i < NTABLES; i++)
    if (!strcmp(tables[i].name, kind)) return 1;
  return 0;
}

const char *render_table_kind_list(void) { return "dut, cdm, tail, rw_sweep, slc, cdm_compare, flags, qd_scaling"; }

int render_table(const struct render_runs *rs, const char *kind, const struct render_args *a, struct render_buf *out,
             struct ssdrev_err *err) {
  const struct table_kind *t = NULL;
  for (size_t i = 0; i < NTABLES; i++)
    if (!strcmp(tables[i].name, kind)) t = &tables[i];
  if (!t) return ssdrev_fail(err, -EINVAL, "unknown table kind '%s' (known: %s)", kind, render_table_kind_list());
  if (a->state && strcmp(a->state, "FOB") && strcmp(a->state, "75%"))
    return ssdrev_fail(err, -EINVAL, "state must be FOB or 75%%, not '%s'", a->state);
  const struct render_run *sel[MAX_RUNS];
  size_t n = render_select(rs, a->drive, sel, MAX_RUNS);
  if (!n) return ssdrev_fail(err, -ENOENT, "no run with label or number '%s'", a->drive ? a->drive : "");
  if (t->per_set) return t->per_set(sel, n, a, out, err);
  for (size_t i = 0; i < n; i++) {
    int rc = t->per_run(sel[i], a, out, n, err);
    if (rc < 0) return rc;
  }
  return 0;
}
