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

/* A caption line before each per-drive table when several drives are shown. */
static void drive_caption(struct render_buf *b, const char *text, size_t nsel) {
  if (nsel > 1) render_buf_printf(b, "**%s**\n\n", text);
}

/* ------------------------------------------------------------ DUT summary */

static void put_field(struct render_buf *b, const json_t *dut, const char *key, const char *fmt_num,
                      const char *suffix) {
  json_t *v = json_object_get(dut, key);
  if (json_is_string(v)) render_buf_cell(b, json_string_value(v));
  else if (json_is_number(v)) render_buf_printf(b, fmt_num, json_number_value(v));
  else {
    render_buf_puts(b, "n/a"); /* unknown: said so, never invented */
    return;
  }
  render_buf_puts(b, suffix);
}

static int t_dut(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                 struct ssdrev_err *err) {
  (void)a;
  (void)nsel;
  json_t *dut = json_object_get(r->analysis, "dut");
  if (!dut && r->manifest) dut = json_object_get(r->manifest, "dut");
  if (!json_is_object(dut))
    return ssdrev_fail(err, -ENOENT, "run '%s' has no DUT summary (analysis dut)", r->label);
  if (!b) return 0;
  render_buf_puts(b, "| ");
  render_buf_cell(b, render_data_str(dut, "model", "(unknown model)"));
  render_buf_puts(b, " [");
  render_buf_cell(b, r->label);
  render_buf_puts(b, "] | | | |\n| --- | --- | --- | --- |\n");
  render_buf_puts(b, "| Link | ");
  put_field(b, dut, "link", "%g", "");
  render_buf_puts(b, " | NVMe Version | ");
  if (json_is_string(json_object_get(dut, "nvme_version"))) render_buf_puts(b, "NVMe ");
  put_field(b, dut, "nvme_version", "%g", "");
  render_buf_puts(b, " |\n| Firmware | ");
  put_field(b, dut, "firmware", "%g", "");
  render_buf_puts(b, " | LBA Size | ");
  put_field(b, dut, "lba_bytes", "%.0f", "B");
  render_buf_puts(b, " |\n| Controller | ");
  put_field(b, dut, "controller", "%g", "");
  render_buf_puts(b, " | Warning Temp | ");
  put_field(b, dut, "warn_temp_c", "%.0f", " °C");
  render_buf_puts(b, " |\n| Storage Media | ");
  put_field(b, dut, "media", "%g", "");
  render_buf_puts(b, " | Critical Temp | ");
  put_field(b, dut, "crit_temp_c", "%.0f", " °C");
  render_buf_puts(b, " |\n");
  json_t *ps = json_object_get(dut, "power_states");
  if (json_array_size(ps)) {
    render_buf_puts(b, "| **Power State** | **Maximum Power** | **Entry Latency** | **Exit Latency** |\n");
    size_t i;
    json_t *p;
    json_array_foreach(ps, i, p) {
      double w = render_data_num(p, "max_power_w", NAN);
      render_buf_printf(b, "| PS%d | ", (int)render_data_num(p, "ps", (double)i));
      /* the review's style: 7.02W, 0.0760W */
      if (isfinite(w)) render_buf_printf(b, w < 1 ? "%.4fW" : "%.2fW", w);
      else render_buf_puts(b, "n/a");
      render_buf_puts(b, " | ");
      put_field(b, p, "entry_lat_us", "%.0f", "µs");
      render_buf_puts(b, " | ");
      put_field(b, p, "exit_lat_us", "%.0f", "µs");
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
  if (!n)
    return ssdrev_fail(err, -ENOENT, "run '%s' has no CrystalDiskMark results in state '%s'", r->label,
                       state_arg(a));
  if (!b) return 0;
  char cap[256];
  snprintf(cap, sizeof cap, "%s — %s", r->label, state_arg(a));
  drive_caption(b, cap, nsel);
  render_buf_puts(b, "| Test | Read [MB/s] | Write [MB/s] | Read [IOPS] | Write [IOPS] | Read [µs] | Write [µs] |\n"
               "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (size_t i = 0; i < n; i++) {
    json_t *rd = json_object_get(cells[i], "read"), *wr = json_object_get(cells[i], "write");
    render_buf_puts(b, "| ");
    render_buf_cell(b, render_data_str(cells[i], "cell", "?"));
    render_buf_printf(b, " | %.2f | %.2f | %.1f | %.1f | %.2f | %.2f |\n", render_data_num(rd, "mb_s", NAN), render_data_num(wr, "mb_s", NAN),
                render_data_num(rd, "iops", NAN), render_data_num(wr, "iops", NAN), render_data_num(rd, "lat_us", NAN),
                render_data_num(wr, "lat_us", NAN));
  }
  render_buf_puts(b, "\n");
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
  (void)a;
  double p[ANALYZE_MAX_PCTS], us;
  size_t np = tail_pcts(r, p, ANALYZE_MAX_PCTS), found = 0;
  for (size_t i = 0; i < np; i++)
    for (size_t w = 0; w < 3; w++) found += !render_data_tail_us(r, render_data_workloads[w].id, p[i], &us);
  if (!found) return ssdrev_fail(err, -ENOENT, "run '%s' has no tail-latency results (analysis tail)", r->label);
  if (!b) return 0;
  drive_caption(b, r->label, nsel);
  render_buf_puts(b, "| Percentile | RND Read | RND Read 70% | RND Write |\n| ---: | ---: | ---: | ---: |\n");
  for (size_t i = 0; i < np; i++) {
    render_buf_printf(b, "| %g%% |", p[i]);
    for (size_t w = 0; w < 3; w++) {
      if (!render_data_tail_us(r, render_data_workloads[w].id, p[i], &us)) render_buf_printf(b, " %.2f µs |", us);
      else render_buf_puts(b, " n/a |");
    }
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, "\n");
  return 0;
}

/* ---------------------------------------------------------------- RW sweep */

static int t_rw(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                struct ssdrev_err *err) {
  (void)a;
  json_t *sw = json_object_get(r->analysis, "rw_sweep");
  if (!json_array_size(sw)) return ssdrev_fail(err, -ENOENT, "run '%s' has no RW-ratio sweep (analysis rw_sweep)", r->label);
  if (!b) return 0;
  drive_caption(b, r->label, nsel);
  render_buf_puts(b, "| Read share |");
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
      else render_buf_puts(b, " n/a |");
    }
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, "\n");
  return 0;
}

/* ------------------------------------------------------- per-set tables */

/* Tables over all selected drives at once (one row or column per drive). */
static int t_slc(const struct render_run *const *sel, size_t n, const struct render_args *a, struct render_buf *b,
                 struct ssdrev_err *err) {
  for (size_t i = 0; i < n; i++)
    if (!json_is_object(json_object_get(json_object_get(sel[i]->analysis, "fill"), "slc")))
      return ssdrev_fail(err, -ENOENT, "run '%s' has no SLC cache estimate (analysis fill.slc)", sel[i]->label);
  if (!b) return 0;
  int ko = a && a->lang && !strcmp(a->lang, "ko");
  /* the SLC table's strings (Korean, English) */
  const char *const hdr = ko ? "| 드라이브 | SLC 캐시, 빈 드라이브 | SLC 캐시, 거의 가득 참 | 캐시 안 | 캐시 후 | 신뢰도 |\n"
                             : "| Drive | SLC cache, empty | SLC cache, near full | In cache | After cache | Confidence |\n";
  const char *const none = ko ? "캐시 감지 안 됨" : "no cache detected";
  const char *const at_least = ko ? " | ≥ %.2f GiB" : " | ≥ %.2f GiB";
  const char *const not_back = ko ? " | 유휴 후 캐시 없음" : " | none seen after the idle";
  render_buf_puts(b, hdr);
  render_buf_puts(b, "| --- | ---: | ---: | ---: | ---: | ---: |\n");
  for (size_t i = 0; i < n; i++) {
    json_t *s = json_object_get(json_object_get(sel[i]->analysis, "fill"), "slc");
    render_buf_puts(b, "| ");
    render_buf_cell(b, sel[i]->label);
    /* older analyses have no "found": a cache size means one was found */
    const json_t *fo = json_object_get(s, "found");
    if (fo ? !json_is_true(fo) : !json_is_number(json_object_get(s, "max_gib"))) {
      render_buf_printf(b, " | %s | | | | |\n", none);
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
        render_buf_printf(b, at_least, render_data_num(s, "min_gib_at_least", NAN));
      else if (k == 1 && isfinite(render_data_num(s, "min_gib_recovered", NAN)))
        render_buf_puts(b, not_back);
      else render_buf_puts(b, " | n/a");
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
      return ssdrev_fail(err, -ENOENT, "run '%s' has no CrystalDiskMark results in state '%s'", sel[i]->label,
                         state_arg(a));
  }
  if (!b) return 0;
  render_buf_printf(b, "| %s %s [MB/s] |", state_arg(a), op);
  for (size_t i = 0; i < n; i++) {
    render_buf_puts(b, " ");
    render_buf_cell(b, sel[i]->label);
    render_buf_puts(b, " |");
  }
  render_buf_puts(b, "\n| --- |");
  for (size_t i = 0; i < n; i++) render_buf_puts(b, " ---: |");
  render_buf_puts(b, "\n");
  for (size_t k = 0; k < nc; k++) {
    const char *cell = render_data_str(cells[k], "cell", "?");
    render_buf_puts(b, "| ");
    render_buf_cell(b, cell);
    render_buf_puts(b, " |");
    for (size_t i = 0; i < n; i++) {
      json_t *c2[32];
      size_t m = render_data_cdm_cells(sel[i], state_arg(a), c2, 32);
      double v = NAN;
      for (size_t j = 0; j < m; j++)
        if (!strcmp(render_data_str(c2[j], "cell", ""), cell)) v = render_data_num(json_object_get(c2[j], op), "mb_s", NAN);
      if (isfinite(v)) render_buf_printf(b, " %.2f |", v);
      else render_buf_puts(b, " n/a |");
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
  int ko = a->lang && !strcmp(a->lang, "ko");
  size_t total = 0;
  for (size_t i = 0; i < n; i++) total += json_array_size(json_object_get(sel[i]->analysis, "flags"));
  if (!total) {
    render_buf_puts(b, ko ? "분석에서 표시된 경고는 없습니다.\n\n" : "The analysis raised no flags.\n\n");
    return 0;
  }
  render_buf_puts(b, ko ? "| 드라이브 | 수준 | 내용 |\n| --- | --- | --- |\n" : "| Drive | Severity | Finding |\n| --- | --- | --- |\n");
  for (size_t i = 0; i < n; i++) {
    size_t k;
    json_t *f;
    json_array_foreach(json_object_get(sel[i]->analysis, "flags"), k, f) {
      render_buf_puts(b, "| ");
      render_buf_cell(b, sel[i]->label);
      render_buf_puts(b, " | ");
      render_buf_cell(b, render_data_str(f, "severity", "info"));
      render_buf_puts(b, " | ");
      render_buf_cell(b, render_data_str(f, "message", render_data_str(f, "id", "?")));
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
    {"flags", NULL, t_flags},
};
#define NTABLES (sizeof tables / sizeof tables[0])

int render_table_exists(const char *kind) {
  for (size_t i = 0; i < NTABLES; i++)
    if (!strcmp(tables[i].name, kind)) return 1;
  return 0;
}

const char *render_table_kind_list(void) { return "dut, cdm, tail, rw_sweep, slc, cdm_compare, flags"; }

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
