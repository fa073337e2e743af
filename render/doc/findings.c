/* findings.c — sentences computed from the analysis ({{findings}},
 * docs/templates.md "Findings"). Each finding quotes its numbers and the
 * rule behind it, in the review's language from the message catalogue. A
 * finding is made only when every number it quotes is in analysis.json (a
 * missing value drops it, never leaves a hole); one a --short run cannot
 * support is replaced by a sentence saying why it is not made; one whose
 * evidence is weak says so. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "render/msg_int.h"
#include "render/render_int.h"

/* the CrystalDiskMark lead: a gap under this share counts as even */
#define FD_EVEN_PCT 3.0
/* FOB vs 75%: without a spread of passes, a difference must pass this */
#define FD_FOB_NOSPREAD_PCT 5.0
/* a fill under this share of the drive cannot find a cache (short runs) */
#define FD_FILL_MIN_SHARE 0.02
/* an SLC cliff below this confidence is weak evidence */
#define FD_SLC_WEAK_CONF 0.5
/* a tail percentile needs this many I/Os at or beyond it */
#define FD_TAIL_MIN_BEYOND 10.0
#define FD_TAIL_BLOWUP 10.0
/* a QD sweep whose deeper points all fell below this share of its first
 * (the plateau there) is said to fall, not to "stop scaling"; one whose
 * deepest point fell below this share of its most says so */
#define FD_QD_FALL 0.9

static const char *const topics[] = {"cdm", "fob", "slc", "random", "tail", "thermal", "steady", "flags"};
#define NTOPICS (sizeof topics / sizeof topics[0])

int render_findings_topic_ok(const char *topic) {
  if (!topic || !strcmp(topic, "all")) return 1;
  for (size_t i = 0; i < NTOPICS; i++)
    if (!strcmp(topics[i], topic)) return 1;
  return 0;
}

/* A number at PATH under O; 1 when it is one. */
static int num(const json_t *o, const char *path, double *v) {
  const json_t *x = render_data_path((json_t *)o, path);
  if (!json_is_number(x)) return 0;
  *v = json_number_value(x);
  return isfinite(*v);
}

struct fd {
  const struct render_run *const *sel;
  size_t n;
  enum render_lang lang;
  struct render_buf *out;
  size_t count;
  int cdm_rule, tail_rule; /* the rule was stated in an earlier finding of the list */
};

/* One list item: "- [**LABEL:** ]TEXT"; the label only when several runs
 * share the list. */
static void item(struct fd *f, const struct render_run *r, enum render_msg_id id, json_t *params, const char *tail) {
  render_buf_puts(f->out, "- ");
  if (r && f->n > 1) {
    render_buf_puts(f->out, "**");
    render_buf_md(f->out, r->label);
    render_buf_puts(f->out, ":** ");
  }
  render_msg_put(f->out, f->lang, id, params);
  if (tail) render_buf_puts(f->out, tail);
  render_buf_puts(f->out, "\n");
  f->count++;
  json_decref(params);
}

/* S escaped for Markdown (malloc'd): catalogue parameters are put as they
 * are, so data (a label, an imported cell name) is escaped first. */
static char *md_str(const char *s) {
  struct render_buf b = {0};
  render_buf_md(&b, s);
  return b.s ? b.s : strdup("");
}

static char *md_label(const struct render_run *r) { return md_str(r->label); }

static const char *const ops[] = {"read", "write"};

/* ---------------------------------------------------- CrystalDiskMark lead */

/* Which drive leads each FOB cell and op, and by how much (two or more
 * drives with CrystalDiskMark results). */
static void f_cdm(struct fd *f) {
  if (f->n < 2) return;
  /* cells in the order of the first run that has them, then any other's */
  const char *cells[64];
  size_t nc = 0;
  for (size_t i = 0; i < f->n; i++) {
    json_t *cs[32];
    size_t k = render_data_cdm_cells(f->sel[i], "FOB", cs, 32);
    for (size_t j = 0; j < k; j++) {
      const char *c = render_data_str(cs[j], "cell", NULL);
      int seen = !c;
      for (size_t m = 0; !seen && m < nc; m++) seen = !strcmp(cells[m], c);
      if (!seen && nc < 64) cells[nc++] = c;
    }
  }
  for (size_t c = 0; c < nc; c++)
    for (int o = 0; o < 2; o++) {
      size_t best = SIZE_MAX, second = SIZE_MAX;
      double bv = 0, sv = 0;
      for (size_t i = 0; i < f->n; i++) {
        json_t *cs[32];
        size_t k = render_data_cdm_cells(f->sel[i], "FOB", cs, 32);
        for (size_t j = 0; j < k; j++) {
          double v;
          char path[32];
          snprintf(path, sizeof path, "%s.mb_s", ops[o]);
          if (strcmp(render_data_str(cs[j], "cell", ""), cells[c]) || !num(cs[j], path, &v) || v <= 0) continue;
          if (best == SIZE_MAX || v > bv) {
            second = best;
            sv = bv;
            best = i;
            bv = v;
          } else if (second == SIZE_MAX || v > sv) {
            second = i;
            sv = v;
          }
        }
      }
      if (best == SIZE_MAX || second == SIZE_MAX) continue; /* one drive has it: no lead to state */
      int any_short = f->sel[best]->short_review || f->sel[second]->short_review;
      double pct = (bv / sv - 1) * 100;
      char *lead = md_label(f->sel[best]), *next = md_label(f->sel[second]), *mc = md_str(cells[c]);
      json_t *p = json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:f, s:f}", "cell", mc, "op", ops[o], "state", "FOB",
                            "lead", lead, "next", next, "lead_mb_s", bv, "next_mb_s", sv, "pct", pct);
      enum render_msg_id id = pct < FD_EVEN_PCT ? MSG_FD_CDM_EVEN : f->cdm_rule ? MSG_FD_CDM_LEAD_BARE : MSG_FD_CDM_LEAD;
      f->cdm_rule |= id == MSG_FD_CDM_LEAD;
      item(f, NULL, id, p,
           any_short ? render_msg(f->lang, MSG_FD_WEAK_SHORT) : NULL);
      free(lead);
      free(mc);
      free(next);
    }
}

/* ---------------------------------------------------- FOB vs 75% */

/* The spread of the measured passes (>= 1) of CELL / OP in both states, as
 * a percentage of their largest; -1 when the run has no passes to read
 * (an import gives one figure per cell). */
static double pass_spread(const struct render_run *r, const char *cell, const char *op) {
  char stem[64];
  size_t k = 0;
  for (const char *c = cell; *c && k + 1 < sizeof stem; c++) stem[k++] = *c == ' ' ? '_' : *c;
  stem[k] = 0;
  /* within each state: the states themselves differ by what is measured */
  double worst = -1;
  static const char *const steps[] = {"cdm_fob", "cdm_75"};
  for (int s = 0; s < 2; s++) {
    double lo = INFINITY, hi = 0;
    int n = 0;
    for (int p = 1; p < 16; p++) {
      char name[160];
      snprintf(name, sizeof name, "%s.%s.%s.p%d", steps[s], stem, op, p);
      const json_t *t = json_object_get(json_object_get(r->analysis, "tests"), name);
      double v;
      if (!t || !num(t, "ops.all.mb_s", &v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
      n++;
    }
    if (n >= 2 && hi > 0 && (hi - lo) / hi * 100 > worst) worst = (hi - lo) / hi * 100;
  }
  return worst;
}

static void f_fob(struct fd *f) {
  for (size_t i = 0; i < f->n; i++) {
    const struct render_run *r = f->sel[i];
    json_t *fob[32], *full[32];
    size_t nf = render_data_cdm_cells(r, "FOB", fob, 32), nl = render_data_cdm_cells(r, "75%", full, 32);
    if (!nf || !nl) continue;
    size_t compared = 0, said = 0;
    for (size_t a = 0; a < nf; a++)
      for (size_t b = 0; b < nl; b++) {
        const char *cell = render_data_str(fob[a], "cell", "");
        if (strcmp(cell, render_data_str(full[b], "cell", ""))) continue;
        for (int o = 0; o < 2; o++) {
          double vf, vl;
          char path[32];
          snprintf(path, sizeof path, "%s.mb_s", ops[o]);
          if (!num(fob[a], path, &vf) || !num(full[b], path, &vl) || vf <= 0) continue;
          compared++;
          double diff = (vl / vf - 1) * 100, spread = pass_spread(r, cell, ops[o]);
          double limit = spread >= 0 ? spread : FD_FOB_NOSPREAD_PCT;
          if (fabs(diff) <= limit || fabs(diff) < 1) continue;
          char d[32];
          snprintf(d, sizeof d, "%+.0f", diff);
          char *mc = md_str(cell);
          json_t *p = json_pack("{s:s, s:s, s:f, s:f, s:s, s:f}", "cell", mc, "op", ops[o], "fob_mb_s", vf,
                                "full_mb_s", vl, "diff", d, "spread", spread);
          free(mc);
          /* a spread that rounds to 0.0% is said as under 0.1% ("beyond the
           * passes' spread of 0.0%" on a drive whose passes agreed) */
          item(f, r, spread < 0 ? MSG_FD_FOB_DIFF_NOSPREAD : spread < 0.05 ? MSG_FD_FOB_DIFF_TIGHT : MSG_FD_FOB_DIFF, p,
               r->short_review ? render_msg(f->lang, MSG_FD_FOB_SHORT) : NULL);
          said++;
        }
      }
    if (compared && !said)
      item(f, r, MSG_FD_FOB_SAME, json_pack("{s:i}", "cells", (int)compared),
           r->short_review ? render_msg(f->lang, MSG_FD_FOB_SHORT) : NULL);
  }
}

/* ---------------------------------------------------- SLC cache */

/* The drive's size in GB (the DUT's, else the target's); 0 when unknown. */
static double capacity_gb(const struct render_run *r) {
  double b;
  if (num(r->analysis, "dut.capacity_bytes", &b) || num(r->analysis, "target.size_bytes", &b)) return b / 1e9;
  return 0;
}

static void f_slc(struct fd *f) {
  for (size_t i = 0; i < f->n; i++) {
    const struct render_run *r = f->sel[i];
    const json_t *slc = render_data_path(r->analysis, "fill.slc");
    if (!json_is_object(slc)) continue;
    /* the GiB the fill wrote: the end of its last level */
    const json_t *lv = json_object_get(slc, "levels");
    double written = 0, cap = capacity_gb(r);
    if (json_array_size(lv)) num(json_array_get(lv, json_array_size(lv) - 1), "to_gib", &written);
    if (json_is_true(json_object_get(slc, "found"))) {
      double gib, in, post, conf = 1, mn;
      if (!num(slc, "max_gib", &gib) || !num(slc, "cache_mb_s", &in) || !num(slc, "post_cache_mb_s", &post) || in <= 0)
        continue;
      num(slc, "confidence", &conf);
      struct render_buf t = {0};
      if (num(slc, "min_gib", &mn)) {
        json_t *p = json_pack("{s:f}", "gib", mn);
        render_msg_put(&t, f->lang, MSG_FD_SLC_MIN, p);
        json_decref(p);
      }
      /* the cache's speed left out its throttled part (analyze/fillthr.c): said so */
      const json_t *thr = json_object_get(slc, "throttle");
      double og, xp, mx;
      if (json_is_true(json_object_get(thr, "throttled")) && num(thr, "onset_gib", &og) &&
          num(thr, "excluded_pct", &xp) && xp > 0 && num(thr, "cache_mb_s_mixed", &mx)) {
        json_t *p = json_pack("{s:f, s:f, s:f}", "onset_gib", og, "excluded_pct", xp, "mixed_mb_s", mx);
        render_msg_put(&t, f->lang, MSG_FD_SLC_UNTHR, p);
        json_decref(p);
      }
      /* ... or its post-cache speed, the throttle coming after the cache */
      double tm, pm;
      if (json_is_true(json_object_get(thr, "throttled")) && json_is_true(json_object_get(thr, "after_cache")) &&
          num(thr, "onset_gib", &og) && num(thr, "throttled_mb_s", &tm) && num(thr, "post_cache_mb_s_mixed", &pm)) {
        /* the evidence analyze/fillthr.c used: "smart" (and temperature) or the temperature alone */
        const char *ev = render_data_str(thr, "evidence", "");
        const char *how = render_msg(f->lang, !strncmp(ev, "smart", 5) ? MSG_FD_THR_BY_SMART : MSG_FD_THR_BY_TEMP);
        json_t *p = json_pack("{s:f, s:s, s:f, s:f}", "onset_gib", og, "how", how, "thr_mb_s", tm, "mixed_mb_s", pm);
        render_msg_put(&t, f->lang, MSG_FD_SLC_POSTTHR, p);
        json_decref(p);
      }
      if (conf < FD_SLC_WEAK_CONF) {
        json_t *p = json_pack("{s:f}", "conf", conf);
        render_msg_put(&t, f->lang, MSG_FD_SLC_WEAK, p);
        json_decref(p);
      }
      if (r->short_review) render_buf_puts(&t, render_msg(f->lang, MSG_FD_WEAK_SHORT));
      item(f, r, MSG_FD_SLC,
           json_pack("{s:f, s:f, s:f, s:f}", "gib", gib, "cache_mb_s", in, "post_mb_s", post, "ratio", post / in),
           t.s);
      render_buf_free(&t);
      continue;
    }
    /* no cliff: a fill too small to tell is said to be so, not "no cache" */
    if (written > 0 && (r->short_review || (cap > 0 && written * 1.073741824 < cap * FD_FILL_MIN_SHARE))) {
      /* its share of the drive, not "under 2%": a short run on a small
       * drive writes more (2 GiB of 8.6 GB is 25%) */
      if (cap > 0)
        item(f, r, MSG_FD_SLC_SHORT,
             json_pack("{s:f, s:f, s:f}", "gib", written, "cap_gb", cap, "share_pct", 100 * written * 1.073741824 / cap),
             NULL);
      continue;
    }
    double mb_s;
    if (written > 0 && num(slc, "fill_mb_s", &mb_s))
      item(f, r, MSG_FD_SLC_NONE, json_pack("{s:f, s:f}", "gib", written, "mb_s", mb_s), NULL);
  }
}

/* ---------------------------------------------------- random reads */

/* A and B as integers grouped alike ("8,355–12,713", "40,868 ... 4,388":
 * from 10,000 up a sentence groups, so a pair with one figure past it
 * groups both). */
static void group_pair(double a, double b, char ga[48], char gb[48]) {
  char a1[32], b1[32];
  snprintf(a1, sizeof a1, "%.0f", a), snprintf(b1, sizeof b1, "%.0f", b);
  size_t min = fmax(a, b) >= 10000 ? 4 : 5;
  render_group_digits(a1, ga, 48, min);
  render_group_digits(b1, gb, 48, min);
}

static void f_random(struct fd *f) {
  for (size_t i = 0; i < f->n; i++) {
    const struct render_run *r = f->sel[i];
    const json_t *qs = json_object_get(r->analysis, "qd_scaling");
    const char *weak = r->short_review ? render_msg(f->lang, MSG_FD_WEAK_SHORT) : NULL;
    if (json_array_size(qs)) {
      size_t k;
      const json_t *w;
      json_array_foreach(qs, k, w) {
        const char *wl = render_data_str(w, "workload", "");
        const json_t *pts = json_object_get(w, "points");
        double qd, iops, mx, maxqd;
        if ((strcmp(wl, "read") && strcmp(wl, "write")) || !json_array_size(pts)) continue;
        if (!num(w, "plateau_qd", &qd) || !num(w, "plateau_iops", &iops) || !num(w, "max_iops", &mx) ||
            !num(json_array_get(pts, json_array_size(pts) - 1), "qd", &maxqd))
          continue;
        /* the deeper QDs below the plateau's: the first point was the
         * most ("stops scaling at QD1 ... at most 17,867" on a drive whose
         * GC held QD2-QD128 to 8,355-12,713): said as it is */
        double lo = INFINITY, hi = 0, q2 = 0, pq;
        for (size_t j = 0; j < json_array_size(pts); j++) {
          double v, pqd;
          if (!num(json_array_get(pts, j), "qd", &pqd) || pqd <= qd || !num(json_array_get(pts, j), "iops", &v)) continue;
          if (!q2) q2 = pqd;
          lo = fmin(lo, v), hi = fmax(hi, v);
        }
        /* the plateau at the sweep's first QD: it never scaled */
        int flat = num(json_array_get(pts, 0), "qd", &pq) && pq == qd;
        if (qd < maxqd && q2 > 0 && hi < FD_QD_FALL * iops && flat) {
          char g1[48], g2[48];
          group_pair(lo, hi, g1, g2);
          item(f, r, MSG_FD_QD_FALLS,
               json_pack("{s:s, s:f, s:f, s:s, s:s, s:f, s:f}", "op", wl, "qd", qd, "iops", iops, "lo_iops", g1,
                         "hi_iops", g2, "qd2", q2, "max_qd", maxqd),
               weak);
        }
        else if (qd < maxqd) {
          /* past its plateau the deepest QD fell (GC under QD128 on the
           * demo PM981: 103,591 then 61,185 IOPS): said, not left out */
          double last = 0;
          struct render_buf t = {0};
          if (num(json_array_get(pts, json_array_size(pts) - 1), "iops", &last) && last < FD_QD_FALL * mx) {
            /* where it fell first: a fall from QD32 on (a Gen5 model's SLC
             * cache running out mid-sweep: 1,083,838 at QD16, 234,594 at
             * QD32) was said as "at QD128 it falls" */
            double fq = maxqd, fv = last;
            for (size_t j = 0; j < json_array_size(pts); j++) {
              double v, pqd;
              if (num(json_array_get(pts, j), "qd", &pqd) && pqd > qd && num(json_array_get(pts, j), "iops", &v) &&
                  v < FD_QD_FALL * mx) {
                fq = pqd, fv = v;
                break;
              }
            }
            char g1[48], g2[48];
            group_pair(fv, last, g1, g2);
            json_t *p = fq < maxqd ? json_pack("{s:s, s:f, s:s, s:f}", "iops", g1, "qd", fq, "last", g2, "max_qd", maxqd)
                                   : json_pack("{s:f, s:f}", "iops", last, "qd", maxqd);
            render_msg_put(&t, f->lang, fq < maxqd ? MSG_FD_QD_FALL_FROM : MSG_FD_QD_DEEP_FALL, p);
            json_decref(p);
          }
          if (weak) render_buf_puts(&t, weak);
          /* flat from the first QD: "stops scaling at QD1" read as if it had scaled */
          item(f, r, flat ? MSG_FD_QD_FLAT : MSG_FD_QD, json_pack("{s:s, s:f, s:f, s:f, s:f}", "op", wl, "qd", qd, "iops", iops, "max_iops", mx,
                                          "max_qd", maxqd), t.s);
          render_buf_free(&t);
        }
        else
          item(f, r, MSG_FD_QD_NONE, json_pack("{s:s, s:f, s:f}", "op", wl, "max_iops", mx, "max_qd", maxqd), weak);
      }
      continue;
    }
    /* no QD sweep: CrystalDiskMark's two 4K read cells */
    json_t *cs[32];
    size_t n = render_data_cdm_cells(r, "FOB", cs, 32);
    double q1 = 0, q32 = 0;
    for (size_t j = 0; j < n; j++) {
      const char *c = render_data_str(cs[j], "cell", "");
      if (!strcmp(c, "RND4K Q1T1")) num(cs[j], "read.mb_s", &q1);
      if (!strcmp(c, "RND4K Q32T1")) num(cs[j], "read.mb_s", &q32);
    }
    if (q1 > 0 && q32 > 0)
      item(f, r, MSG_FD_CDM_QD, json_pack("{s:s, s:f, s:f, s:f}", "state", "FOB", "ratio", q32 / q1, "q1", q1, "q32", q32),
           weak);
  }
}

/* ---------------------------------------------------- tail latency */

static void f_tail(struct fd *f) {
  static const struct {
    const char *key;
    int msg;
  } wls[] = {{"read", MSG_READ}, {"mix70", MSG_FD_MIX70}, {"write", MSG_WRITE}};
  static const double pcts[] = {99.99, 99.9, 99};
  for (size_t i = 0; i < f->n; i++) {
    const struct render_run *r = f->sel[i];
    for (size_t w = 0; w < 3; w++) {
      const json_t *t = json_object_get(json_object_get(r->analysis, "tail"), wls[w].key);
      double p50, ios;
      if (!json_is_object(t) || !num(t, "p50_us", &p50) || !num(t, "ios", &ios) || p50 <= 0) continue;
      /* the highest percentile that enough I/Os support */
      for (size_t k = 0; k < 3; k++) {
        char key[32];
        double v;
        snprintf(key, sizeof key, "p%g_us", pcts[k]);
        const json_t *x = json_object_get(t, key);
        if (!json_is_number(x) || ios * (1 - pcts[k] / 100) < FD_TAIL_MIN_BEYOND) continue;
        v = json_number_value(x);
        char p[16];
        snprintf(p, sizeof p, "%g", pcts[k]);
        double ratio = v / p50;
        enum render_msg_id id = ratio > FD_TAIL_BLOWUP ? MSG_FD_TAIL_BLOW : f->tail_rule ? MSG_FD_TAIL_BARE : MSG_FD_TAIL;
        f->tail_rule |= id == MSG_FD_TAIL;
        item(f, r, id,
             json_pack("{s:s, s:f, s:s, s:f, s:f}", "wl", render_msg(f->lang, (enum render_msg_id)wls[w].msg), "p50", p50,
                       "p", p, "p_us", v, "ratio", ratio),
             r->short_review ? render_msg(f->lang, MSG_FD_WEAK_SHORT) : NULL);
        break;
      }
    }
  }
}

/* ---------------------------------------------------- thermal */

static void f_thermal(struct fd *f) {
  for (size_t i = 0; i < f->n; i++) {
    const struct render_run *r = f->sel[i];
    const json_t *th = render_chart_thermal_of(r->analysis);
    double dur;
    if (!th || !num(th, "duration_s", &dur)) continue;
    const char *weak = r->short_review ? render_msg(f->lang, MSG_FD_WEAK_SHORT) : NULL;
    if (json_is_true(json_object_get(th, "throttled"))) {
      double t, temp, before, after, tmt = 0;
      /* the rule that placed it: the drive's counters, or the temperature */
      int smart = !strcmp(render_data_str(th, "throttle_evidence", ""), "smart") && num(th, "smart_throttle_s", &tmt);
      if (num(th, "time_to_throttle_s", &t) && num(th, "throttle_temp_c", &temp) && num(th, "before_mb_s", &before) &&
          num(th, "throttled_mb_s", &after))
        item(f, r, smart ? MSG_FD_THROTTLE_SMART : MSG_FD_THROTTLE,
             json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "dur", dur, "t", t, "temp", temp, "before", before, "after",
                       after, "tmt", tmt),
             weak);
      continue;
    }
    double mean, start, peak, tmt;
    if (!num(th, "mean_mb_s", &mean) || !num(th, "start_temp_c", &start) || !num(th, "peak_temp_c", &peak)) continue;
    /* the counters throttled but no drop was it (a cap above the speed the
     * drive wrote at): not "no throttling" */
    if (num(th, "smart_throttle_s", &tmt) && tmt >= 1)
      item(f, r, MSG_FD_THROTTLE_NO_DROP,
           json_pack("{s:f, s:f, s:f, s:f, s:f}", "dur", dur, "tmt", tmt, "mean", mean, "start", start, "peak", peak),
           weak);
    /* a rise that rounds to nothing is no rise ("44 °C rising to a peak of
     * 44 °C" on a 30 s short step): said as held */
    else
      item(f, r, peak - start >= 1 ? MSG_FD_NO_THROTTLE : MSG_FD_NO_THROTTLE_FLAT,
           json_pack("{s:f, s:f, s:f, s:f}", "dur", dur, "mean", mean, "start", start, "peak", peak), weak);
  }
}

/* ---------------------------------------------------- steady state */

static void f_steady(struct fd *f) {
  for (size_t i = 0; i < f->n; i++) {
    const struct render_run *r = f->sel[i];
    const json_t *ss = json_object_get(r->analysis, "steady_state");
    const json_t *cons = json_array_get(json_object_get(r->analysis, "consistency"), 0);
    if (!json_is_object(ss) && !json_is_object(cons)) continue;
    if (r->short_review) {
      /* a small region never leaves the fresh drive's state: not made */
      double region;
      if (num(r->analysis, "short.region_bytes", &region))
        item(f, r, MSG_FD_STEADY_SHORT, json_pack("{s:f}", "gib", region / 1073741824.0), NULL);
      continue;
    }
    if (json_is_object(ss)) {
      double round, iops, first, last;
      size_t rounds = json_array_size(json_object_get(ss, "rounds"));
      if (json_is_true(json_object_get(ss, "steady")) && num(ss, "steady_round", &round) &&
          num(ss, "window.mean_iops", &iops) && num(ss, "window.first_round", &first) && num(ss, "window.last_round", &last))
        item(f, r, MSG_FD_STEADY,
             json_pack("{s:f, s:f, s:f, s:f}", "round", round, "iops", iops, "first", first, "last", last), NULL);
      else if (json_is_false(json_object_get(ss, "steady")) && rounds)
        item(f, r, MSG_FD_NOT_STEADY, json_pack("{s:i}", "rounds", (int)rounds), NULL);
    }
    double mean, p1, cov;
    if (json_is_object(cons) && num(cons, "steady.mean_iops", &mean) && num(cons, "steady.p1_iops", &p1) &&
        num(cons, "steady.cov_pct", &cov))
      item(f, r, MSG_FD_CONSISTENCY, json_pack("{s:f, s:f, s:f}", "mean", mean, "p1", p1, "cov", cov), NULL);
  }
}

/* ---------------------------------------------------- flags as prose */

static void f_flags(struct fd *f) {
  for (size_t i = 0; i < f->n; i++) {
    const struct render_run *r = f->sel[i];
    size_t k;
    const json_t *fl;
    json_array_foreach(json_object_get(r->analysis, "flags"), k, fl) {
      const json_t *nums = json_object_get(fl, "numbers");
      const char *fid = json_string_value(json_object_get(fl, "id"));
      int id = render_msg_flag_for(f->lang, fid, nums);
      /* the flags table's text names a cause (few dies) the numbers cannot
       * show for every target: the finding states the numbers and rule */
      if (id >= 0 && fid && !strcmp(fid, "rnd_read_plateau") && render_msg_params_ok(f->lang, MSG_FD_FLAG_RND_PLATEAU, nums))
        id = MSG_FD_FLAG_RND_PLATEAU;
      if (id < 0) continue; /* a flag the catalogue cannot word in full is in the flags table */
      /* a tail workload's key (mix70) as the review's words */
      json_t *local = json_deep_copy(nums);
      const char *wl = json_string_value(json_object_get(local, "workload"));
      if (wl && id != MSG_F_QD_PLATEAU) {
        int w = !strcmp(wl, "read") ? MSG_READ : !strcmp(wl, "write") ? MSG_WRITE : !strcmp(wl, "mix70") ? MSG_FD_MIX70 : -1;
        if (w >= 0) json_object_set_new(local, "workload", json_string(render_msg(f->lang, (enum render_msg_id)w)));
      }
      struct render_buf t = {0};
      render_msg_put(&t, f->lang, (enum render_msg_id)id, local);
      json_decref(local);
      if (!t.s || t.oom) {
        render_buf_free(&t);
        continue;
      }
      /* a sentence: a capital first letter (English) and a full stop */
      if (f->lang == RENDER_LANG_EN && t.s[0] >= 'a' && t.s[0] <= 'z') t.s[0] = (char)(t.s[0] - 'a' + 'A');
      render_buf_puts(f->out, "- ");
      if (f->n > 1) {
        render_buf_puts(f->out, "**");
        render_buf_md(f->out, r->label);
        render_buf_puts(f->out, ":** ");
      }
      render_buf_md(f->out, t.s); /* the flag's strings (a test name) are data */
      render_buf_puts(f->out, t.len && t.s[t.len - 1] == '.' ? "\n" : ".\n");
      f->count++;
      render_buf_free(&t);
    }
  }
}

size_t render_findings(const struct render_run *const *sel, size_t n, const char *topic, enum render_lang lang,
                       struct render_buf *out) {
  struct fd f = {.sel = sel, .n = n, .lang = lang, .out = out};
  static void (*const fns[NTOPICS])(struct fd *) = {f_cdm, f_fob, f_slc, f_random, f_tail, f_thermal, f_steady, f_flags};
  int all = !topic || !strcmp(topic, "all");
  for (size_t t = 0; t < NTOPICS; t++)
    if (all || !strcmp(topic, topics[t])) fns[t](&f);
  /* said once for the whole list or the rules' own (flags): a topic of a
   * section says nothing when it has nothing, for the next topic's findings
   * may follow it (issue 27: "No rule fired" in the CrystalDiskMark section
   * above its FOB/75% sentence, and above flags the Findings listed) */
  if (!f.count && (all || !strcmp(topic, "flags"))) item(&f, NULL, MSG_FD_NO_FINDINGS, NULL, NULL);
  return f.count;
}
