/* t_recovery.c — the cache_recovery table: one row per idle time, per drive
 * the recovered SLC cache (GiB, its share of the most any idle gave) and
 * the in-cache speed (a row of the table kinds, render/doc/tables.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "render/render_int.h"

static const json_t *points_of(const struct render_run *r) {
  return json_object_get(json_object_get(r->analysis, "cache_recovery"), "points");
}

/* "0.75", "11.2", "2": up to two decimals, trailing zeros dropped. */
static void put_gib(struct render_buf *b, double v) {
  char g[32];
  snprintf(g, sizeof g, "%.2f", v);
  size_t l = strlen(g);
  while (l && g[l - 1] == '0') g[--l] = 0;
  if (l && g[l - 1] == '.') g[--l] = 0;
  render_buf_printf(b, "%s GiB", g);
}

int render_run_recovery_measured(const struct render_run *r) {
  const json_t *pts = points_of(r);
  if (!json_array_size(pts)) return 0;
  if (json_is_true(json_object_get(json_object_get(json_object_get(r->analysis, "cache_recovery"), "exhaust"), "found")))
    return 1;
  size_t k;
  json_t *p;
  json_array_foreach((json_t *)pts, k, p) if (json_is_number(json_object_get(p, "recovered_gib"))) return 1;
  return 0;
}

int render_recovery_missing(const struct render_run *const *sel, size_t n, struct ssdrev_err *err) {
  for (size_t i = 0; i < n; i++)
    if (json_array_size(points_of(sel[i])))
      return render_msg_fail(err, -ENOENT, MSG_MISS_RECOVERY_NONE, sel[i]->label, NULL);
  return render_msg_fail(err, -ENOENT, MSG_MISS_RECOVERY, n ? sel[0]->label : "?", NULL);
}

int render_table_recovery(const struct render_run *const *sel, size_t n, const struct render_args *a,
                          struct render_buf *b, struct ssdrev_err *err) {
  size_t have = 0;
  for (size_t i = 0; i < n; i++) have += render_run_recovery_measured(sel[i]);
  if (!have) return render_recovery_missing(sel, n, err);
  if (!b) return 0;
  enum render_lang lang = RENDER_LANG_EN;
  if (a->lang) render_lang_parse(a->lang, &lang);
  /* the idle times: the union over the drives, rising */
  double idles[64];
  size_t ni = 0;
  for (size_t i = 0; i < n; i++) {
    size_t k;
    json_t *p;
    json_array_foreach(points_of(sel[i]), k, p) {
      double t = render_data_num(p, "idle_s", NAN);
      size_t j = 0;
      while (j < ni && idles[j] < t) j++;
      if (!isfinite(t) || (j < ni && idles[j] == t) || ni == 64) continue;
      memmove(idles + j + 1, idles + j, (ni - j) * sizeof *idles);
      idles[j] = t;
      ni++;
    }
  }
  render_buf_printf(b, "| %s |", render_msg(lang, MSG_T_IDLE));
  for (size_t i = 0; i < n; i++) {
    const char *suffix[2] = {render_msg(lang, MSG_T_RECOVERED), render_msg(lang, MSG_T_IN_CACHE)};
    for (int c = 0; c < 2; c++) {
      render_buf_puts(b, " ");
      if (n > 1) {
        render_buf_md(b, sel[i]->label);
        render_buf_puts(b, ": ");
      }
      render_buf_printf(b, "%s |", suffix[c]);
    }
  }
  render_buf_puts(b, "\n| ---: |");
  for (size_t i = 0; i < n; i++) render_buf_puts(b, " ---: | ---: |");
  render_buf_puts(b, "\n");
  for (size_t r = 0; r < ni; r++) {
    int min = idles[r] >= 60 && fmod(idles[r], 60) == 0;
    json_t *params = json_pack("{s:f}", "v", min ? idles[r] / 60 : idles[r]);
    render_buf_puts(b, "| ");
    render_msg_put(b, lang, min ? MSG_T_MINUTES : MSG_T_SECONDS, params);
    json_decref(params);
    render_buf_puts(b, " |");
    for (size_t i = 0; i < n; i++) {
      const json_t *hit = NULL;
      size_t k;
      json_t *p;
      json_array_foreach(points_of(sel[i]), k, p) if (render_data_num(p, "idle_s", NAN) == idles[r]) hit = p;
      if (!hit) {
        render_buf_printf(b, " %s | |", render_msg(lang, MSG_NA));
        continue;
      }
      double g = render_data_num(hit, "recovered_gib", NAN), lb = render_data_num(hit, "at_least_gib", NAN),
             pct = render_data_num(hit, "pct", NAN), v = render_data_num(hit, "cache_mb_s", NAN);
      render_buf_puts(b, " ");
      if (isfinite(g)) put_gib(b, g);
      else if (isfinite(lb)) {
        render_buf_puts(b, "≥ ");
        put_gib(b, lb);
      } else render_buf_puts(b, render_msg(lang, MSG_NA));
      if (isfinite(pct)) render_buf_printf(b, " (%.0f%%)", pct);
      if (isfinite(v)) render_buf_printf(b, " | %.0f MB/s |", v);
      else if (isfinite(g) && g == 0) render_buf_puts(b, " | – |"); /* nothing came back: no write in a cache */
      else render_buf_printf(b, " | %s |", render_msg(lang, MSG_NA));
    }
    render_buf_puts(b, "\n");
  }
  render_buf_puts(b, "\n");
  render_buf_puts(b, render_msg(lang, MSG_T_RECOVERY_NOTE));
  render_buf_puts(b, "\n\n");
  return 0;
}
