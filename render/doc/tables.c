/* tables.c — the table kinds of {{table KIND}}: GFM pipe tables laid out
 * like the reference review's (DUT summary, CrystalDiskMark results, tail
 * latency, SLC cache, RW sweep, flags). One table of functions. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "render/render_int.h"
#include "render/doc/t_steady_int.h"

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

/* A run's label as table text, with the short run's † (issue 27: a short
 * run's figures are marked wherever its label heads them). */
static void put_label(struct render_buf *b, const struct render_run *r) {
  render_buf_md(b, r->label);
  if (r->short_review) render_buf_puts(b, " †");
}

/* The table's language: lang= (the template sets it to its own). */
static enum render_lang lang_arg(const struct render_args *a) {
  enum render_lang l = RENDER_LANG_EN;
  if (a->lang) render_lang_parse(a->lang, &l);
  return l;
}

/* Puts message ID in the table's language. */
#define M(id) render_msg(lang_arg(a), id)

/* The language of field names and column headers: labels= when given
 * (the reference post's English fields on its Korean page), else lang=. */
static enum render_lang labels_arg(const struct render_args *a) {
  enum render_lang l = lang_arg(a);
  if (a->labels) render_lang_parse(a->labels, &l);
  return l;
}
#define L(id) render_msg(labels_arg(a), id)

/* A header row from message ids ("| A | B |\n| --- | ---: |\n"); ALIGN
 * holds 'l' or 'r' per column. */
void render_table_drive_cols(struct render_buf *b, const struct render_run *const *sel, size_t n) {
  for (size_t i = 0; i < n; i++) {
    render_buf_puts(b, " ");
    put_label(b, sel[i]);
    render_buf_puts(b, " |");
  }
  render_buf_puts(b, "\n| --- |");
  for (size_t i = 0; i < n; i++) render_buf_puts(b, " ---: |");
  render_buf_puts(b, "\n");
}

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


/* ------------------------------------------------------------ DUT summary */

/* One DUT field: its value as text into B, or 0 when the source gave none. */
static int put_field(struct render_buf *b, const json_t *dut, const char *key, const char *fmt_num,
                     const char *prefix, const char *suffix) {
  json_t *v = json_object_get(dut, key);
  if (!json_is_string(v) && !json_is_number(v)) return 0;
  if (!b) return 1;
  if (json_is_string(v)) render_buf_puts(b, prefix), render_buf_md(b, json_string_value(v));
  else if (!strcmp(key, "capacity_bytes")) render_buf_printf(b, "%.0f GB", json_number_value(v) / 1e9);
  else render_buf_printf(b, fmt_num, json_number_value(v));
  render_buf_puts(b, suffix);
  return 1;
}

/* The DUT table: the fields the source gave, two per row; the fields it
 * did not give (a CrystalDiskMark file names no model, firmware or link:
 * only the capacity in its Test line) in one note under the table, never a
 * row of "n/a". */
static int t_dut(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                 struct ssdrev_err *err) {
  (void)nsel;
  json_t *dut = json_object_get(r->analysis, "dut");
  if (!dut && r->manifest) dut = json_object_get(r->manifest, "dut");
  /* an import whose file names nothing of the drive (a CrystalDiskMark 7
   * file has no capacity) still has its table: every field "not in the
   * source", with the host facts it gives */
  json_t *src = json_object_get(r->analysis, "source");
  if (!json_is_object(dut) && !json_is_string(json_object_get(src, "os")))
    return render_msg_fail(err, -ENOENT, MSG_MISS_DUT, r->label, NULL);
  if (!b) return 0;
  json_t *none = json_object();
  if (!json_is_object(dut)) dut = none;
  /* the host OS a CrystalDiskMark file names (source.os) */
  json_t *os = json_pack("{s:O?}", "os", json_object_get(src, "os"));
  static const struct {
    enum render_msg_id name;
    const char *key, *fmt, *prefix, *suffix;
    int host; /* from the source's host facts, not the DUT */
  } fields[] = {
      {MSG_T_LINK, "link", "%g", "", "", 0},
      {MSG_T_NVME_VERSION, "nvme_version", "%g", "NVMe ", "", 0},
      {MSG_T_FIRMWARE, "firmware", "%g", "", "", 0},
      {MSG_T_LBA_SIZE, "lba_bytes", "%.0f", "", "B", 0},
      {MSG_T_CONTROLLER, "controller", "%g", "", "", 0},
      {MSG_T_WARN_TEMP, "warn_temp_c", "%.0f", "", " °C", 0},
      {MSG_T_STORAGE_MEDIA, "media", "%g", "", "", 0},
      {MSG_T_CRIT_TEMP, "crit_temp_c", "%.0f", "", " °C", 0},
      {MSG_T_CAPACITY, "capacity_bytes", "%g", "", "", 0},
      {MSG_T_HOST_OS, "os", "%g", "", "", 1},
  };
  render_buf_puts(b, "| ");
  render_buf_md(b, render_data_str(dut, "model", M(MSG_T_UNKNOWN_MODEL)));
  render_buf_puts(b, " [");
  render_buf_md(b, r->label);
  render_buf_puts(b, "] | | | |\n| --- | --- | --- | --- |\n");
  size_t col = 0;
  json_t *absent = json_array();
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    const json_t *o = fields[i].host ? os : dut;
    if (!put_field(NULL, o, fields[i].key, fields[i].fmt, "", "")) {
      /* a host fact is no DUT field: its absence is not worth a note */
      if (!fields[i].host) json_array_append_new(absent, json_string(M(fields[i].name)));
      continue;
    }
    render_buf_printf(b, "%s%s | ", col ? " " : "| ", L(fields[i].name));
    put_field(b, o, fields[i].key, fields[i].fmt, fields[i].prefix, fields[i].suffix);
    render_buf_puts(b, " |");
    if (++col == 2) {
      render_buf_puts(b, "\n");
      col = 0;
    }
  }
  if (col) render_buf_puts(b, " | |\n");
  json_decref(os);
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
    col = 0;
    for (size_t i = 0; i < sizeof hf / sizeof hf[0]; i++) {
      json_t *v = json_object_get(h, hf[i].key);
      if (!json_is_number(v)) continue; /* unknown: left out, never invented */
      double x = json_number_value(v);
      render_buf_printf(b, "%s%s | ", col ? " " : "| ", M(hf[i].name));
      switch (hf[i].unit) {
      case 1: render_buf_thousands(b, x); render_buf_puts(b, " h"); break;
      case 2: render_buf_printf(b, x >= 1e12 ? "%.2f TB" : "%.1f GB", x >= 1e12 ? x / 1e12 : x / 1e9); break;
      case 3: render_buf_printf(b, "%.0f%%", x); break;
      default: render_buf_thousands(b, x);
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
      if (!put_field(b, p, "entry_lat_us", "%.0f", "", "µs")) render_buf_puts(b, M(MSG_NA));
      render_buf_puts(b, " | ");
      if (!put_field(b, p, "exit_lat_us", "%.0f", "", "µs")) render_buf_puts(b, M(MSG_NA));
      render_buf_puts(b, " |\n");
    }
  }
  render_buf_puts(b, "\n");
  if (json_array_size(absent)) {
    struct render_buf names = {0};
    size_t i;
    json_t *v;
    json_array_foreach(absent, i, v) {
      if (i) render_buf_puts(&names, M(MSG_LIST_SEP));
      render_buf_puts(&names, json_string_value(v));
    }
    json_t *params = json_pack("{s:s}", "fields", names.s && !names.oom ? names.s : "");
    render_buf_puts(b, "*");
    render_msg_put(b, lang_arg(a), MSG_T_NOT_IN_SOURCE, params);
    render_buf_puts(b, "*\n\n");
    json_decref(params);
    render_buf_free(&names);
  }
  json_decref(absent);
  json_decref(none);
  return 0;
}

/* ----------------------------------------------------- CrystalDiskMark */

/* A CrystalDiskMark figure by the one rule (RENDER_CDM_*_FMT), whether
 * the run measured it or a file wrote it with more digits; never
 * recomputed (an import's IOPS is the file's, not MB/s / block). */
static void cdm_value(struct render_buf *b, const struct render_args *a, const json_t *m, const char *key,
                      const char *fmt) {
  double v = render_data_num(m, key, NAN);
  if (isfinite(v) && v >= 0) {
    render_buf_puts(b, " ");
    render_buf_printf(b, fmt, v);
    render_buf_puts(b, " |");
  } else render_buf_printf(b, " %s |", M(MSG_NA));
}

static int cdm_has_op(json_t *const *cells, size_t n, const char *op) {
  for (size_t i = 0; i < n; i++)
    if (json_is_object(json_object_get(cells[i], op))) return 1;
  return 0;
}

/* The cells' table of one op (CrystalDiskMark's own panel: MB/s, IOPS, µs). */
static void cdm_op_table(struct render_buf *b, const struct render_args *a, json_t *const *cells, size_t n,
                         const char *op) {
  /* the op's name as a column title: "Mix" in English, "혼합" in Korean */
  char title[64];
  snprintf(title, sizeof title, "%s", M(!strcmp(op, "mix") ? MSG_MIX : !strcmp(op, "read") ? MSG_READ : MSG_WRITE));
  if (title[0] >= 'a' && title[0] <= 'z') title[0] = (char)(title[0] - 'a' + 'A');
  render_buf_printf(b, "| %s | %s [MB/s] | %s [IOPS] | %s [µs] |\n| --- | ---: | ---: | ---: |\n", M(MSG_T_TEST), title,
                    title, title);
  for (size_t i = 0; i < n; i++) {
    const json_t *m = json_object_get(cells[i], op);
    if (!json_is_object(m)) continue;
    render_buf_puts(b, "| ");
    render_buf_md(b, render_data_str(cells[i], "cell", "?"));
    render_buf_puts(b, " |");
    cdm_value(b, a, m, "mb_s", RENDER_CDM_MB_S_FMT);
    cdm_value(b, a, m, "iops", RENDER_CDM_IOPS_FMT);
    cdm_value(b, a, m, "lat_us", RENDER_CDM_US_FMT);
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, "\n");
}

static int t_cdm(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                 struct ssdrev_err *err) {
  json_t *cells[32];
  size_t n = render_data_cdm_cells(r, state_arg(a), cells, 32);
  if (!n) return render_msg_fail(err, -ENOENT, MSG_MISS_CDM, r->label, state_arg(a));
  if (a->op && !cdm_has_op(cells, n, a->op))
    return render_msg_fail(err, -ENOENT, MSG_MISS_CDM_OP, r->label, a->op);
  if (!b) return 0;
  (void)nsel; /* every table is captioned below, one drive or several */
  if (a->op) {
    cdm_op_table(b, a, cells, n, a->op);
    return 0;
  }
  static const enum render_msg_id h[] = {MSG_T_TEST,      MSG_T_READ_MB_S, MSG_T_WRITE_MB_S, MSG_T_READ_IOPS,
                                         MSG_T_WRITE_IOPS, MSG_T_READ_US,   MSG_T_WRITE_US};
  /* a file without latencies (CrystalDiskMark 6) gets no latency columns
   * of "n/a", and a line saying why */
  int lat = 0;
  for (size_t i = 0; i < n; i++)
    lat |= render_data_num(json_object_get(cells[i], "read"), "lat_us", -1) >= 0 ||
           render_data_num(json_object_get(cells[i], "write"), "lat_us", -1) >= 0;
  head_row(b, a, h, lat ? 7 : 5, "lrrrrrr");
  for (size_t i = 0; i < n; i++) {
    json_t *rd = json_object_get(cells[i], "read"), *wr = json_object_get(cells[i], "write");
    render_buf_puts(b, "| ");
    render_buf_md(b, render_data_str(cells[i], "cell", "?"));
    render_buf_puts(b, " |");
    cdm_value(b, a, rd, "mb_s", RENDER_CDM_MB_S_FMT);
    cdm_value(b, a, wr, "mb_s", RENDER_CDM_MB_S_FMT);
    cdm_value(b, a, rd, "iops", RENDER_CDM_IOPS_FMT);
    cdm_value(b, a, wr, "iops", RENDER_CDM_IOPS_FMT);
    if (lat) cdm_value(b, a, rd, "lat_us", RENDER_CDM_US_FMT);
    if (lat) cdm_value(b, a, wr, "lat_us", RENDER_CDM_US_FMT);
    render_buf_puts(b, "\n");
  }
  /* the caption says whose table and which state: under the FOB and the
   * 75% panels alike, a table is never left to be guessed */
  struct render_buf lab = {0};
  render_buf_md(&lab, r->label); /* a parameter goes in as it is: escaped first */
  json_t *cp = json_pack("{s:s}", "label", lab.s ? lab.s : "");
  render_buf_puts(b, "\n*");
  render_msg_put(b, lang_arg(a), strcmp(state_arg(a), "75%") ? MSG_T_CDM_CAPTION_FOB : MSG_T_CDM_CAPTION_75, cp);
  if (!lat) render_buf_printf(b, " %s", M(MSG_T_CDM_NO_LAT));
  render_buf_puts(b, "*\n\n");
  json_decref(cp);
  render_buf_free(&lab);
  /* CrystalDiskMark's third panel, when the run has it */
  if (cdm_has_op(cells, n, "mix")) cdm_op_table(b, a, cells, n, "mix");
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

/* Which latency a figure is: "lat" (submission to completion, what ssdrev
 * measures and fio's total) or "clat" (fio's completion latency). */
static const char *lat_kind_of(const json_t *o) {
  const char *k = render_data_str(o, "latency", "lat");
  return strcmp(k, "clat") ? "lat" : "clat";
}

/* A line under a table of clat figures saying so (lat needs none: it is
 * what every other table shows). */
static void lat_note(struct render_buf *b, const char *kind, const struct render_args *a) {
  if (strcmp(kind, "clat")) return;
  render_buf_printf(b, "*%s*\n\n", M(MSG_T_CLAT_NOTE));
}

/* The ³ note under a table with a percentile too few I/Os lie beyond. */
static void few_note(struct render_buf *b, const struct render_args *a) {
  render_buf_printf(b, "*³ %s*\n\n", M(MSG_T_FEW_SAMPLES));
}

static int t_tail(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                  struct ssdrev_err *err) {
  /* the columns' titles, in render_data_workloads' order */
  static const enum render_msg_id wl_title[3] = {MSG_T_RND_READ, MSG_T_RND_MIX70, MSG_T_RND_WRITE};
  double p[ANALYZE_MAX_PCTS], us;
  size_t np = tail_pcts(r, p, ANALYZE_MAX_PCTS), found = 0;
  for (size_t i = 0; i < np; i++)
    for (size_t w = 0; w < 3; w++) found += !render_data_tail_us(r, render_data_workloads[w].id, p[i], &us);
  if (!found) return render_msg_fail(err, -ENOENT, MSG_MISS_TAIL, r->label, NULL);
  if (!b) return 0;
  drive_caption(b, r->label, nsel);
  json_t *tail = json_object_get(r->analysis, "tail");
  /* one table per kind of latency: lat and clat are never mixed in one */
  static const char *const lat_kinds[] = {"lat", "clat"};
  for (size_t k = 0; k < 2; k++) {
    /* lat: every workload not of clat (a missing one shows n/a); clat:
     * the workloads measured so */
    int cols[3], nc = 0, present = 0;
    for (int w = 0; w < 3; w++) {
      json_t *tw = json_object_get(tail, render_data_workloads[w].id);
      if (strcmp(lat_kind_of(tw), lat_kinds[k]) || (k && !tw)) continue;
      cols[nc++] = w;
      present += tw != NULL;
    }
    if (!present && (k || json_object_size(tail))) continue;
    render_buf_printf(b, "| %s |", L(MSG_T_PERCENTILE));
    for (int c = 0; c < nc; c++) render_buf_printf(b, " %s |", L(wl_title[cols[c]]));
    render_buf_puts(b, "\n| ---: |");
    for (int c = 0; c < nc; c++) render_buf_puts(b, " ---: |");
    render_buf_puts(b, "\n");
    for (size_t i = 0; i < np; i++) {
      render_buf_printf(b, "| %g%% |", p[i]);
      for (int c = 0; c < nc; c++) {
        const char *w = render_data_workloads[cols[c]].id;
        json_t *tw = json_object_get(tail, w);
        double ios = render_data_num(tw, "ios", NAN);
        /* nearest rank: fewer than 10 I/Os at or beyond p make it a guess */
        double beyond = isfinite(ios) ? floor(ios * (100.0 - p[i]) / 100.0 + 1e-9) : NAN;
        if (render_data_tail_us(r, w, p[i], &us)) render_buf_printf(b, " %s |", M(MSG_NA));
        else if (isfinite(beyond) && beyond < 10)
          render_buf_printf(b, " (%.2f µs)³ |", us);
        else render_buf_printf(b, " %.2f µs |", us);
      }
      render_buf_puts(b, "\n");
    }
    render_buf_puts(b, "\n");
    lat_note(b, lat_kinds[k], a);
  }
  int thin = 0;
  for (size_t i = 0; i < np; i++)
    for (int w = 0; w < 3; w++) {
      double ios = render_data_num(json_object_get(tail, render_data_workloads[w].id), "ios", NAN);
      thin |= isfinite(ios) && floor(ios * (100.0 - p[i]) / 100.0 + 1e-9) < 10 && !render_data_tail_us(r, render_data_workloads[w].id, p[i], &us);
    }
  if (thin) few_note(b, a);
  return 0;
}

/* ------------------------------------------------------------ plain jobs */

/* Tests the method's sections cannot use (analysis jobs): what each ran,
 * IOPS, MB/s, mean and percentiles; one table per kind of latency. */
static int t_jobs(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                  struct ssdrev_err *err) {
  (void)err;
  json_t *jobs = json_object_get(r->analysis, "jobs");
  /* nothing outside the method's sections is nothing to show, not data
   * that is missing: every template can place this table */
  if (!b || !json_array_size(jobs)) return 0;
  struct render_buf lab = {0};
  render_buf_md(&lab, r->label); /* a parameter goes in as it is: escaped first */
  json_t *cp = json_pack("{s:s}", "label", lab.s ? lab.s : "");
  render_buf_puts(b, "**");
  render_msg_put(b, lang_arg(a), MSG_T_OTHER_WORKLOADS, cp);
  render_buf_puts(b, "**\n\n");
  json_decref(cp);
  render_buf_free(&lab);
  (void)nsel;
  static const double pcts[] = {50, 99, 99.9, 99.99};
  static const char *const lat_kinds[] = {"lat", "clat"};
  int thin = 0;
  for (size_t k = 0; k < 2; k++) {
    size_t i, rows = 0;
    json_t *j;
    json_array_foreach(jobs, i, j) rows += !strcmp(lat_kind_of(j), lat_kinds[k]);
    if (!rows) continue;
    render_buf_printf(b, "| %s | %s | IOPS | MB/s | %s |", M(MSG_T_TEST), M(MSG_T_WORKLOAD), M(MSG_T_MEAN_US));
    for (size_t q = 0; q < sizeof pcts / sizeof pcts[0]; q++) render_buf_printf(b, " p%g [µs] |", pcts[q]);
    render_buf_puts(b, "\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    json_array_foreach(jobs, i, j) {
      if (strcmp(lat_kind_of(j), lat_kinds[k])) continue;
      json_t *all = json_object_get(j, "all");
      render_buf_puts(b, "| ");
      render_buf_md(b, render_data_str(j, "test", "?"));
      double rp = render_data_num(j, "read_pct", NAN), bs = render_data_num(j, "block_bytes", NAN);
      const char *pat = render_data_str(j, "pattern", "?");
      render_buf_printf(b, " | %s %s", M(!strcmp(pat, "rand") ? MSG_T_RANDOM : MSG_T_SEQUENTIAL),
                        M(rp >= 100 ? MSG_READ : rp <= 0 ? MSG_WRITE : MSG_MIX));
      if (rp > 0 && rp < 100) {
        json_t *pp = json_pack("{s:f}", "pct", rp);
        render_buf_puts(b, " ");
        render_msg_put(b, lang_arg(a), MSG_T_READ_PCT_OF, pp);
        json_decref(pp);
      }
      if (isfinite(bs)) render_buf_printf(b, bs >= 1048576 && fmod(bs, 1048576) == 0 ? ", %.0f MiB" : ", %.0f KiB",
                                          bs >= 1048576 && fmod(bs, 1048576) == 0 ? bs / 1048576 : bs / 1024);
      render_buf_printf(b, ", QD%.0f T%.0f |", render_data_num(j, "qd", 1), render_data_num(j, "threads", 1));
      render_buf_printf(b, " %.0f | %.2f | %.2f |", render_data_num(all, "iops", NAN), render_data_num(all, "mb_s", NAN),
                        render_data_num(all, "mean_us", NAN));
      double ios = render_data_num(all, "ios", NAN);
      for (size_t q = 0; q < sizeof pcts / sizeof pcts[0]; q++) {
        char key[32];
        snprintf(key, sizeof key, "p%g_us", pcts[q]);
        double v = render_data_num(all, key, NAN);
        int few = isfinite(ios) && floor(ios * (100.0 - pcts[q]) / 100.0 + 1e-9) < 10;
        if (!isfinite(v)) render_buf_printf(b, " %s |", M(MSG_NA));
        else if (few) {
          render_buf_printf(b, " (%.2f)³ |", v);
          thin = 1;
        } else render_buf_printf(b, " %.2f |", v);
      }
      render_buf_puts(b, "\n");
    }
    render_buf_puts(b, "\n");
    lat_note(b, lat_kinds[k], a);
  }
  if (thin) few_note(b, a);
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
    return render_msg_fail(err, -ENOENT, MSG_MISS_QD, r->label, NULL);
  if (!b) return 0;
  drive_caption(b, r->label, nsel);
  render_buf_puts(b, "| QD |");
  size_t i, k;
  json_t *g, *pt;
  json_array_foreach(qs, i, g) {
    const char *w = render_data_str(g, "workload", "?");
    const char *op = M(strcmp(w, "read") ? MSG_T_QD_WRITE : MSG_T_QD_READ);
    json_t *op_p = json_pack("{s:s}", "op", op);
    render_buf_printf(b, " %s IOPS | ", op);
    render_msg_put(b, lang_arg(a), MSG_T_QD_MEAN, op_p);
    render_buf_printf(b, " | %s p99 [µs] |", op);
    json_decref(op_p);
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
        if (!isfinite(v[c])) render_buf_printf(b, " %s |", M(MSG_NA));
        else if (c == 0) {
          render_buf_puts(b, plateau ? " **" : " ");
          render_buf_thousands(b, v[c]);
          render_buf_puts(b, plateau ? "** |" : " |");
        }
        else render_buf_printf(b, " %.1f |", v[c]);
      }
    }
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, "\n");
  return 0;
}

static void qd_legend(struct render_buf *b, const struct render_args *a) {
  render_buf_printf(b, "%s\n\n", M(MSG_T_QD_PLATEAU_NOTE));
}

/* ------------------------------------------------------- per-set tables */

/* Tables over all selected drives at once (one row or column per drive). */
static int t_slc(const struct render_run *const *sel, size_t n, const struct render_args *a, struct render_buf *b,
                 struct ssdrev_err *err) {
  size_t have = 0;
  for (size_t i = 0; i < n; i++)
    have += json_is_object(json_object_get(json_object_get(sel[i]->analysis, "fill"), "slc"));
  if (!have) return render_msg_fail(err, -ENOENT, MSG_MISS_SLC, sel[0]->label, NULL);
  if (!b) return 0;
  static const enum render_msg_id h[] = {MSG_T_DRIVE,    MSG_T_SLC_EMPTY,   MSG_T_SLC_FULL,
                                         MSG_T_IN_CACHE, MSG_T_AFTER_CACHE, MSG_T_CONFIDENCE};
  head_row(b, a, h, 6, "lrrrrr");
  for (size_t i = 0; i < n; i++) {
    json_t *s = json_object_get(json_object_get(sel[i]->analysis, "fill"), "slc");
    render_buf_puts(b, "| ");
    put_label(b, sel[i]);
    if (!json_is_object(s)) { /* a drive without a fill: said so in its row */
      render_buf_printf(b, " | %s | | | | |\n", M(MSG_T_NOT_MEASURED));
      continue;
    }
    /* older analyses have no "found": a cache size means one was found */
    const json_t *fo = json_object_get(s, "found");
    if (fo ? !json_is_true(fo) : !json_is_number(json_object_get(s, "max_gib"))) {
      double g = render_run_short_gib(sel[i]);
      if (g > 0) {
        /* a short fill wrote its region only: no cache within it, not none */
        json_t *params = json_pack("{s:f}", "gib", g);
        render_buf_puts(b, " | ");
        render_msg_put(b, lang_arg(a), MSG_T_NO_CACHE_SHORT, params);
        render_buf_puts(b, " | – | – | – | – |\n");
        json_decref(params);
      } else {
        /* no cache: its cells a dash, the fill's one speed the speed
         * without it (blank cells read as a table cut short) */
        double fm = render_data_num(s, "fill_mb_s", NAN);
        render_buf_printf(b, " | %s%s | – | – |", M(MSG_T_NO_CACHE), sel[i]->short_review ? " †" : "");
        if (isfinite(fm)) render_buf_printf(b, " %.0f MB/s | – |\n", fm);
        else render_buf_puts(b, " – | – |\n");
      }
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
  /* a near-full figure a longer idle of the cache recovery beat: the cache
   * had not recovered in the fill's idle (analyze/recovery.c) */
  for (size_t i = 0; i < n; i++) {
    const json_t *nr = json_object_get(json_object_get(json_object_get(sel[i]->analysis, "fill"), "slc"), "near_full_recovery");
    if (!json_is_object(nr)) continue;
    json_t *params = json_deep_copy(nr);
    json_object_set_new(params, "label", json_string(sel[i]->label));
    double gib = render_data_num(nr, "gib", NAN);
    render_msg_put(b, lang_arg(a), isfinite(gib) && gib < 0.005 ? MSG_T_NEAR_FULL_IDLE_NONE : MSG_T_NEAR_FULL_IDLE, params);
    json_decref(params);
    render_buf_puts(b, "\n\n");
  }
  return 0;
}

static int t_cdm_compare(const struct render_run *const *sel, size_t n, const struct render_args *a, struct render_buf *b,
                         struct ssdrev_err *err) {
  const char *op = a->op ? a->op : "read";
  /* the rows: every drive's cells (a CrystalDiskMark 6 drive's SEQ128K
   * beside a CDM 8 drive's SEQ1M) */
  json_t *cells[32];
  size_t nc = 0;
  for (size_t i = 0; i < n; i++) {
    json_t *c2[32];
    size_t m = render_data_cdm_cells(sel[i], state_arg(a), c2, 32);
    if (!m) return render_msg_fail(err, -ENOENT, MSG_MISS_CDM, sel[i]->label, state_arg(a));
    for (size_t j = 0; j < m; j++) {
      int seen = 0;
      for (size_t k = 0; k < nc; k++)
        seen |= !strcmp(render_data_str(cells[k], "cell", ""), render_data_str(c2[j], "cell", ""));
      if (!seen && nc < 32) cells[nc++] = c2[j];
    }
  }
  render_data_cdm_sort(cells, nc); /* CrystalDiskMark's order, not the first drive's */
  if (!b) return 0;
  json_t *params = json_pack("{s:s, s:s}", "state", state_arg(a), "op", op);
  render_buf_puts(b, "| ");
  render_msg_put(b, lang_arg(a), MSG_T_CMP_HEAD, params);
  json_decref(params);
  render_buf_puts(b, " |");
  render_table_drive_cols(b, sel, n);
  for (size_t k = 0; k < nc; k++) {
    const char *cell = render_data_str(cells[k], "cell", "?");
    render_buf_puts(b, "| ");
    render_buf_md(b, cell);
    render_buf_puts(b, " |");
    for (size_t i = 0; i < n; i++) {
      json_t *c2[32];
      size_t m = render_data_cdm_cells(sel[i], state_arg(a), c2, 32);
      const json_t *v = NULL;
      for (size_t j = 0; j < m; j++)
        if (!strcmp(render_data_str(c2[j], "cell", ""), cell)) v = json_object_get(c2[j], op);
      /* every figure by one rule (issue 27: 5103.562 from a CrystalDiskMark
       * file beside 353.54); a cell the drive's profile has not: said so */
      if (json_is_object(v)) cdm_value(b, a, v, "mb_s", RENDER_CDM_MB_S_FMT);
      else render_buf_printf(b, " %s |", M(MSG_T_NOT_MEASURED));
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
      put_label(b, sel[i]);
      render_buf_puts(b, " | ");
      const char *sev = render_data_str(f, "severity", "info");
      int sid = render_msg_severity(sev);
      render_buf_md(b, sid >= 0 ? render_msg(lang, (enum render_msg_id)sid) : sev);
      render_buf_puts(b, " | ");
      /* the finding from the flag's id and numbers in the review's
       * language; a flag the catalogue does not know, or whose numbers
       * predate its form, shows analyze's English message */
      const json_t *nums = json_object_get(f, "numbers");
      int fid = render_msg_flag_for(lang, render_data_str(f, "id", NULL), nums);
      if (fid >= 0) {
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
  const char *args;  /* the directive arguments this kind uses; any other is an error */
  const char *ops;   /* op= values it takes (NULL: none) */
  /* per drive: called once for each selected run */
  int (*per_run)(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                 struct ssdrev_err *err);
  /* per set: called once with every selected run */
  int (*per_set)(const struct render_run *const *sel, size_t n, const struct render_args *a, struct render_buf *b,
                 struct ssdrev_err *err);
  /* a per-drive kind's legend, once under all the drives' tables (NULL:
   * none); under each table it was said once per drive */
  void (*legend)(struct render_buf *b, const struct render_args *a);
};

static const struct table_kind tables[] = {
    {"dut", "drive", NULL, t_dut, NULL},
    {"cdm", "drive state op", "read write mix", t_cdm, NULL},
    {"tail", "drive lang", NULL, t_tail, NULL},
    {"rw_sweep", "drive", NULL, t_rw, NULL},
    {"jobs", "drive lang", NULL, t_jobs, NULL},
    {"slc", "drive lang", NULL, NULL, t_slc},
    {"cdm_compare", "drive state op", "read write mix", NULL, t_cdm_compare},
    {"flags", "drive lang", NULL, NULL, t_flags},
    {"qd_scaling", "drive lang", NULL, t_qd, NULL, qd_legend},
    {"thermal", "drive lang", NULL, NULL, render_table_thermal},
    {"steady_state", "drive lang", NULL, render_table_steady, NULL},
    {"consistency", "drive lang", NULL, render_table_consistency, NULL},
    {"cache_recovery", "drive lang", NULL, NULL, render_table_recovery},
};
#define NTABLES (sizeof tables / sizeof tables[0])

int render_table_exists(const char *kind) {
  for (size_t i = 0; i < NTABLES; i++)
    if (!strcmp(tables[i].name, kind)) return 1;
  return 0;
}

const char *render_table_kind_list(void) { return "dut, cdm, tail, rw_sweep, jobs, slc, cdm_compare, flags, qd_scaling, thermal, steady_state, consistency, cache_recovery"; }

/* 1 when WORD is one of the space-separated LIST. */
static int word_in(const char *list, const char *word) {
  size_t n = strlen(word);
  for (const char *p = list; p && *p;) {
    const char *sp = strchr(p, ' ');
    size_t l = sp ? (size_t)(sp - p) : strlen(p);
    if (l == n && !strncmp(p, word, n)) return 1;
    p = sp ? sp + 1 : p + l;
  }
  return 0;
}

/* The † notes under a table holding short runs' figures, one per short run
 * (its region); none under the DUT summary, which a short run does not change. */
static void short_notes(struct render_buf *out, const char *kind, const struct render_args *a,
                        const struct render_run *const *sel, size_t n) {
  if (!out || !strcmp(kind, "dut")) return;
  for (size_t i = 0; i < n; i++) {
    if (!sel[i]->short_review) continue;
    struct render_buf lab = {0};
    render_buf_md(&lab, sel[i]->label);
    double g = render_run_short_gib(sel[i]);
    json_t *params = json_pack("{s:s}", "label", lab.s ? lab.s : "");
    if (g > 0) json_object_set_new(params, "gib", json_real(g));
    render_buf_puts(out, "*");
    render_msg_put(out, lang_arg(a), MSG_SHORT_TABLE_NOTE, params);
    render_buf_puts(out, "*\n\n");
    json_decref(params);
    render_buf_free(&lab);
  }
}

static int render_table_body(const struct render_runs *rs, const struct table_kind *t, const struct render_args *a,
                             const struct render_run *const *sel, size_t n, struct render_buf *out,
                             struct ssdrev_err *err);

int render_table(const struct render_runs *rs, const char *kind, const struct render_args *a, struct render_buf *out,
             struct ssdrev_err *err) {
  const struct table_kind *t = NULL;
  for (size_t i = 0; i < NTABLES; i++)
    if (!strcmp(tables[i].name, kind)) t = &tables[i];
  if (!t) return ssdrev_fail(err, -EINVAL, "unknown table kind '%s' (known: %s)", kind, render_table_kind_list());
  /* an argument the kind does not use would be silently ignored (every
   * table is written in a language: lang= is everyone's) */
  static const struct { const char *name; size_t off; } args[] = {
      {"state", offsetof(struct render_args, state)}, {"op", offsetof(struct render_args, op)}};
  for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
    const char *v = *(const char *const *)((const char *)a + args[i].off);
    if (v && !word_in(t->args, args[i].name))
      return ssdrev_fail(err, -EINVAL, "table %s does not use %s= (it takes: %s)", kind, args[i].name, t->args);
  }
  if (a->op && !word_in(t->ops, a->op))
    return ssdrev_fail(err, -EINVAL, "table %s: op must be one of %s, not '%s'", kind, t->ops, a->op);
  if (a->lang && strcmp(a->lang, "en") && strcmp(a->lang, "ko"))
    return ssdrev_fail(err, -EINVAL, "table %s: lang must be en or ko, not '%s'", kind, a->lang);
  if (a->state && strcmp(a->state, "FOB") && strcmp(a->state, "75%"))
    return ssdrev_fail(err, -EINVAL, "state must be FOB or 75%%, not '%s'", a->state);
  const struct render_run *sel[MAX_RUNS];
  size_t n = render_select(rs, a->drive, sel, MAX_RUNS);
  if (!n) return ssdrev_fail(err, -ENOENT, "no run with label or number '%s'", a->drive ? a->drive : "");
  size_t before = out ? out->len : 0;
  int rc = render_table_body(rs, t, a, sel, n, out, err);
  /* only under a table: one with nothing to show (jobs of a review that ran
   * none) gets no note, or a section of nothing but the note came out */
  if (rc == 0 && out && out->len > before) short_notes(out, kind, a, sel, n);
  return rc;
}

static int render_table_body(const struct render_runs *rs, const struct table_kind *t, const struct render_args *a,
                             const struct render_run *const *sel, size_t n, struct render_buf *out,
                             struct ssdrev_err *err) {
  (void)rs;
  if (t->per_set) return t->per_set(sel, n, a, out, err);
  /* per drive: a drive without the data gets a note of its own, the others
   * their tables; only when no drive has it is the whole table missing */
  int have = 0, first_rc = 0;
  char first_msg[sizeof err->msg];
  first_msg[0] = 0;
  for (size_t i = 0; i < n; i++) {
    int rc = t->per_run(sel[i], a, NULL, n, err);
    if (rc == -ENOENT) {
      if (!first_rc) {
        first_rc = rc;
        snprintf(first_msg, sizeof first_msg, "%s", err ? err->msg : "");
      }
      continue;
    }
    if (rc < 0) return rc;
    have = 1;
  }
  if (!have) {
    if (err) snprintf(err->msg, sizeof err->msg, "%s", first_msg);
    return first_rc;
  }
  for (size_t i = 0; out && i < n; i++) {
    struct ssdrev_err e2 = {{0}};
    int rc = t->per_run(sel[i], a, NULL, n, &e2);
    if (rc == -ENOENT) {
      /* the drive's note as the template's notes: the reason in the page's
       * language (render_msg_put_reason), as text, not Markdown */
      struct render_buf r = {0}, esc = {0};
      render_msg_put_reason(&r, lang_arg(a), e2.msg);
      render_buf_md(&esc, r.s ? r.s : "");
      json_t *params = json_pack("{s:s}", "why", esc.s ? esc.s : "");
      render_buf_puts(out, "*");
      render_msg_put(out, lang_arg(a), MSG_NOT_MEASURED, params);
      render_buf_puts(out, "*\n\n");
      json_decref(params);
      render_buf_free(&r);
      render_buf_free(&esc);
      continue;
    }
    if ((rc = t->per_run(sel[i], a, out, n, err)) < 0) return rc;
  }
  if (out && t->legend) t->legend(out, a);
  return 0;
}
