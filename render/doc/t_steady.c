/* t_steady.c — {{table steady_state}} (IOPS per round, the measurement
 * window marked, the verdict; the PTS IOPS matrix when the step ran it)
 * and {{table consistency}} (the steady region's figures). */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "render/doc/t_steady_int.h"

static enum render_lang lang_of(const struct render_args *a) {
  enum render_lang l = RENDER_LANG_EN;
  if (a->lang) render_lang_parse(a->lang, &l);
  return l;
}
#define M(id) render_msg(lang_of(a), id)

static void caption(struct render_buf *b, const char *label, size_t nsel) {
  if (nsel <= 1) return;
  render_buf_puts(b, "**");
  render_buf_md(b, label);
  render_buf_puts(b, "**\n\n");
}

int render_table_steady(const struct render_run *r, const struct render_args *a, struct render_buf *b, size_t nsel,
                        struct ssdrev_err *err) {
  const json_t *ss = json_object_get(r->analysis, "steady_state"), *rounds = json_object_get(ss, "rounds");
  if (!json_array_size(rounds))
    return render_msg_fail(err, -ENOENT, MSG_MISS_STEADY, r->label, NULL);
  if (!b) return 0;
  caption(b, r->label, nsel);
  const json_t *w = json_object_get(ss, "window");
  double f = render_data_num(w, "first_round", -1), l = render_data_num(w, "last_round", -1);
  int steady = json_is_true(json_object_get(ss, "steady"));
  render_buf_printf(b, "| %s | %s | %s |\n| ---: | ---: | :---: |\n", M(MSG_T_ROUND), M(MSG_T_SS_IOPS), M(MSG_T_IN_WINDOW));
  size_t i;
  json_t *x;
  json_array_foreach(rounds, i, x) {
    double rd = render_data_num(x, "round", (double)i + 1);
    int in = rd >= f && rd <= l;
    render_buf_printf(b, in && steady ? "| %.0f | **" : "| %.0f | ", rd);
    render_buf_thousands(b, render_data_num(x, "iops", NAN));
    render_buf_puts(b, in && steady ? "** | ✓ |\n" : in ? " | ✓ |\n" : " |  |\n");
  }
  render_buf_puts(b, "\n");
  json_t *pm = json_pack("{s:O?, s:f, s:f, s:f, s:f, s:f, s:I}", "round", json_object_get(ss, "steady_round"), "first", f,
                         "last", l, "mean", render_data_num(w, "mean_iops", NAN), "range_pct",
                         render_data_num(w, "range_pct", NAN), "excursion_pct", render_data_num(w, "excursion_pct", NAN),
                         "rounds", (json_int_t)json_array_size(rounds));
  /* a short run's region may sit in the SLC cache: not the drive's steady state (issue 27) */
  double sg = render_run_short_gib(r);
  if (sg > 0) json_object_set_new(pm, "gib", json_real(sg));
  if (w)
    render_msg_put(b, lang_of(a), steady && sg > 0 ? MSG_T_SS_REACHED_SHORT : steady ? MSG_T_SS_REACHED : MSG_T_SS_NOT_REACHED,
                   pm);
  json_decref(pm);
  render_buf_puts(b, "\n\n");
  /* the PTS IOPS matrix: read shares as columns, blocks as rows */
  const json_t *mx = json_object_get(ss, "matrix");
  if (!json_array_size(mx)) return 0;
  static const unsigned rp[] = {100, 95, 65, 50, 35, 5, 0};
  static const double bs[] = {1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512};
  render_buf_printf(b, "%s\n\n| %s |", M(MSG_T_SS_MATRIX), M(MSG_T_BLOCK));
  for (size_t k = 0; k < 7; k++) render_buf_printf(b, " %s %u |", M(MSG_T_READ_PCT), rp[k]);
  render_buf_puts(b, "\n| ---: |");
  for (size_t k = 0; k < 7; k++) render_buf_puts(b, " ---: |");
  render_buf_puts(b, "\n");
  for (size_t j = 0; j < 8; j++) {
    if (bs[j] >= 1024) render_buf_printf(b, "| %.0f KiB |", bs[j] / 1024);
    else render_buf_printf(b, "| %.1f KiB |", bs[j] / 1024);
    for (size_t k = 0; k < 7; k++) {
      double v = NAN;
      json_array_foreach(mx, i, x) if (render_data_num(x, "read_pct", -1) == rp[k] && render_data_num(x, "block_bytes", -1) == bs[j])
          v = render_data_num(x, "iops", NAN);
      render_buf_puts(b, " ");
      render_buf_thousands(b, v); /* "–": a cell the step did not run */
      render_buf_puts(b, " |");
    }
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, "\n");
  return 0;
}

int render_table_consistency(const struct render_run *r, const struct render_args *a, struct render_buf *b,
                             size_t nsel, struct ssdrev_err *err) {
  const json_t *c = json_array_get(json_object_get(r->analysis, "consistency"), 0), *st = json_object_get(c, "steady");
  if (!st)
    return render_msg_fail(err, -ENOENT, MSG_MISS_CONSIST, r->label, NULL);
  if (!b) return 0;
  caption(b, r->label, nsel);
  render_buf_printf(b, "| %s | %s |\n| --- | ---: |\n", M(MSG_T_CONS_WHAT), M(MSG_T_CONS_VALUE));
  render_buf_printf(b, "| %s | %.0f – %.0f |\n", M(MSG_T_CONS_REGION), render_data_num(st, "from_s", NAN),
                    render_data_num(st, "to_s", NAN));
  static const struct {
    enum render_msg_id head;
    const char *key;
  } iops_rows[] = {{MSG_T_CONS_MEAN, "mean_iops"}, {MSG_T_CONS_P1, "p1_iops"}, {MSG_T_CONS_MIN, "min_iops"},
                   {MSG_T_CONS_FINE_MIN, "fine_min_iops"}};
  for (size_t k = 0; k < sizeof iops_rows / sizeof iops_rows[0]; k++) {
    render_buf_printf(b, "| %s | ", M(iops_rows[k].head));
    render_buf_thousands(b, render_data_num(st, iops_rows[k].key, NAN));
    render_buf_puts(b, " |\n");
  }
  render_buf_printf(b, "| %s | %.2f%% |\n", M(MSG_T_CONS_COV), render_data_num(st, "cov_pct", NAN));
  render_buf_printf(b, "| %s | %.1f%% |\n", M(MSG_T_CONS_BELOW), render_data_num(st, "below_pct", NAN));
  render_buf_printf(b, "| %s | ", M(MSG_T_CONS_P999));
  render_buf_thousands(b, render_data_num(st, "p99_9_us_mean", NAN));
  render_buf_puts(b, " / ");
  render_buf_thousands(b, render_data_num(st, "p99_9_us_max", NAN));
  render_buf_puts(b, " |\n");
  double on = render_data_num(json_object_get(c, "burst"), "onset_s", NAN);
  if (isfinite(on)) render_buf_printf(b, "| %s | %.0f s |\n", M(MSG_T_CONS_ONSET), on);
  else render_buf_printf(b, "| %s | %s |\n", M(MSG_T_CONS_ONSET), M(MSG_T_CONS_NO_BURST));
  render_buf_puts(b, "\n");
  if (render_run_short_gib(r) > 0) {
    json_t *pm = json_pack("{s:f}", "gib", render_run_short_gib(r));
    render_msg_put(b, lang_of(a), MSG_T_SHORT_REGION, pm);
    json_decref(pm);
    render_buf_puts(b, "\n\n");
  }
  return 0;
}
