/* t_thermal.c — the thermal table kind: per drive (a column each) the
 * thermal step's write time, start and peak temperature, whether and when
 * it throttled, at which temperature, the speed before and throttled, the
 * mean, the drops the evidence rule did not call thermal, and the drive's
 * own throttle counters where it reports them (analysis thermal[0],
 * analyze/thermal.c). tables.c holds the table row. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "render/render_int.h"
#include "render/msg_int.h"

static const json_t *th_of(const struct render_run *r) { return render_chart_thermal_of(r->analysis); }

/* o[k] when it is a number a table can print (an analysis.json from
 * anywhere may hold 1e308), else NAN. */
static double num(const json_t *o, const char *k) {
  const json_t *v = json_object_get(o, k);
  double d = json_is_number(v) ? json_number_value(v) : NAN;
  return fabs(d) < 1e12 ? d : NAN;
}

static void cell_num(struct render_buf *b, double v, const char *fmt, enum render_lang l) {
  if (isfinite(v)) render_buf_printf(b, fmt, v);
  else render_buf_printf(b, " %s |", render_msg(l, MSG_NA));
}

/* The drive reported its throttle counters before and after the step. */
static int smart_ok(const json_t *th) {
  const json_t *st = json_object_get(th, "smart_thermal");
  const json_t *b0 = json_object_get(st, "before"), *b1 = json_object_get(st, "after");
  static const char *const ck[] = {"tmt1_count", "tmt2_count", "tmt1_s", "tmt2_s"};
  int ok = b0 && b1;
  for (int q = 0; ok && q < 4; q++) ok = isfinite(num(b0, ck[q])) && isfinite(num(b1, ck[q]));
  return ok;
}

/* A row that describes the throttle itself. */
static int throttle_row(enum render_msg_id h) {
  return h == MSG_T_TH_TIME || h == MSG_T_TH_AT_TEMP || h == MSG_T_TH_BEFORE || h == MSG_T_TH_AFTER ||
         h == MSG_T_TH_AFTER_MEAN || h == MSG_T_TH_SHARE;
}

int render_table_thermal(const struct render_run *const *sel, size_t n, const struct render_args *a,
                         struct render_buf *b, struct ssdrev_err *err) {
  size_t have = 0;
  for (size_t i = 0; i < n; i++) have += th_of(sel[i]) != NULL;
  if (!have) return render_msg_fail(err, -ENOENT, MSG_MISS_THERMAL, n ? sel[0]->label : "?", NULL);
  if (!b) return 0;
  enum render_lang l = RENDER_LANG_EN;
  if (a->lang) render_lang_parse(a->lang, &l);
  render_buf_puts(b, "| |");
  render_table_drive_cols(b, sel, n);
  /* when: a row of the throttle itself is "—" for a drive that did not
   * throttle (nothing to give), n/a where it did and the value is missing */
  static const struct {
    enum render_msg_id head;
    const char *key, *fmt;
  } rows[] = {
      {MSG_T_TH_DURATION, "duration_s", " %.0f s |"},       {MSG_T_TH_START_TEMP, "start_temp_c", " %.1f °C |"},
      {MSG_T_TH_PEAK_TEMP, "peak_temp_c", " %.1f °C |"},    {MSG_T_TH_THROTTLED, NULL, NULL},
      {MSG_T_TH_TIME, "time_to_throttle_s", " **%.1f s** |"}, {MSG_T_TH_AT_TEMP, "throttle_temp_c", " %.1f °C |"},
      {MSG_T_TH_BEFORE, "before_mb_s", " %.0f MB/s |"},     {MSG_T_TH_AFTER, "throttled_mb_s", " **%.0f MB/s** |"},
      /* the speed while throttled (above) and what a long copy sees after it */
      {MSG_T_TH_AFTER_MEAN, "after_throttle_mb_s", " %.0f MB/s |"}, {MSG_T_TH_SHARE, "throttled_share_pct", " %.0f%% |"},
      {MSG_T_TH_MEAN, "mean_mb_s", " %.0f MB/s |"},         {MSG_T_TH_DROPS, NULL, NULL},
      {MSG_T_TH_SMART, NULL, NULL},
  };
  for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
    /* a row no drive has a value for says nothing: left out */
    if (rows[k].key || rows[k].head == MSG_T_TH_SMART) {
      int any = 0;
      for (size_t i = 0; i < n && !any; i++) {
        const json_t *th = th_of(sel[i]);
        any = th && (rows[k].key ? isfinite(num(th, rows[k].key)) : smart_ok(th));
      }
      if (!any) continue;
    }
    render_buf_printf(b, "| %s |", render_msg(l, rows[k].head));
    for (size_t i = 0; i < n; i++) {
      const json_t *th = th_of(sel[i]);
      if (!th) {
        render_buf_printf(b, " %s |", render_msg(l, MSG_T_NOT_MEASURED));
        continue;
      }
      if (rows[k].key && throttle_row(rows[k].head) && !json_is_true(json_object_get(th, "throttled"))) {
        render_buf_puts(b, " — |");
      } else if (rows[k].key) {
        cell_num(b, num(th, rows[k].key), rows[k].fmt, l);
      } else if (rows[k].head == MSG_T_TH_THROTTLED) {
        double tmt = num(th, "smart_throttle_s");
        render_buf_printf(b, " %s |", render_msg(l, json_is_true(json_object_get(th, "throttled")) ? MSG_YES
                                                    : isfinite(tmt) && tmt >= 1                        ? MSG_TH_COUNTERS_ONLY
                                                                                                      : MSG_NO));
      } else if (rows[k].head == MSG_T_TH_DROPS) {
        /* each as "time: before → after MB/s at °C": the largest (by their
         * share of the speed before) in time order, then how many smaller
         * ones; a GC-bound write lists 21 dips of 10-17% */
        size_t j, m = 0, keep[RENDER_THERMAL_DROPS_MAX], listed, nk = render_data_thermal_drops(th, keep, &listed);
        const json_t *p;
        render_buf_puts(b, " ");
        json_array_foreach(json_object_get(th, "points"), j, p) {
          if (!render_data_thermal_kept(keep, nk, j)) continue;
          render_buf_printf(b, "%s%.1f s: %.0f → %.0f MB/s", m++ ? "; " : "", num(p, "t_s"), num(p, "before_mb_s"),
                            num(p, "after_mb_s"));
          if (isfinite(num(p, "temp_c"))) render_buf_printf(b, ", %.1f °C", num(p, "temp_c"));
        }
        if (listed > nk) {
          json_t *pm = json_pack("{s:I}", "n", (json_int_t)(listed - nk));
          render_buf_puts(b, "; ");
          render_msg_put(b, l, MSG_T_TH_DROPS_MORE, pm);
          json_decref(pm);
        }
        render_buf_printf(b, "%s |", m ? "" : "—");
      } else { /* the drive's own counters over the step: after - before */
        const json_t *st = json_object_get(th, "smart_thermal");
        const json_t *b0 = json_object_get(st, "before"), *b1 = json_object_get(st, "after");
        if (!smart_ok(th)) {
          render_buf_printf(b, " %s |", render_msg(l, MSG_NA));
          continue;
        }
        render_buf_printf(b, " +%.0f / +%.0f (%.0f s / %.0f s) |", num(b1, "tmt1_count") - num(b0, "tmt1_count"),
                          num(b1, "tmt2_count") - num(b0, "tmt2_count"), num(b1, "tmt1_s") - num(b0, "tmt1_s"),
                          num(b1, "tmt2_s") - num(b0, "tmt2_s"));
      }
    }
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, "\n");
  return 0;
}
