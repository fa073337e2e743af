/* steady.c — the steady-state analysis (docs/method.md "Steady state"):
 * the random-write volume each test saw since the drive's last sequential
 * fill ("write_volume"), the per-round tracking IOPS of the steady_state
 * step judged by the SNIA PTS rule (bench_pts_first_steady, the rule the
 * step stopped on), and the flags not_steady and pre_steady (docs/flags.md). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze_int.h"
#include "bench/bench.h"

#define GIB 1073741824.0

void analyze_flag_add(json_t *flags, const char *id, const char *severity, json_t *numbers, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  json_array_append_new(flags, json_pack("{s:s, s:s, s:s, s:o}", "id", id, "severity", severity, "message", msg,
                                         "numbers", numbers));
}

/* The capacity the method worked in: a short review's region, else the target. */
static double method_capacity(const json_t *a) {
  double r = analyze_json_num(json_object_get(a, "short"), "region_bytes", 0);
  return r > 0 ? r : analyze_json_num(json_object_get(a, "target"), "size_bytes", 0);
}

/* Is the test one of the filled-state results the pre_steady flag judges:
 * a CrystalDiskMark pass in a state other than FOB, or a tail test? Its
 * section's key goes to key. */
static int judged_section(const json_t *t, const char *kind, char *key, size_t len) {
  const char *st = analyze_json_str(t, "state");
  if (!strcmp(kind, "cdm") && st && strcmp(st, "FOB")) return snprintf(key, len, "cdm %s", st), 1;
  if (!strcmp(kind, "tail")) return snprintf(key, len, "tail"), 1;
  return 0;
}

void analyze_write_volume_add(json_t *a, const json_t *t, const json_t *e) {
  (void)e;
  json_t *wv = json_object_get(a, "write_volume");
  if (!wv) {
    wv = json_pack("{s:I, s:{}}", "since_fill_bytes", (json_int_t)0, "tests");
    json_object_set_new(a, "write_volume", wv);
  }
  const char *kind = analyze_json_str(t, "kind");
  const char *name = analyze_json_str(t, "name");
  if (!kind) kind = "job";
  double before = analyze_json_num(wv, "since_fill_bytes", 0);
  const json_t *p = json_object_get(t, "params");
  double bytes = analyze_json_num(json_object_get(t, "result"), "bytes", 0);
  const char *pat = analyze_json_str(p, "pattern");
  const struct bench_test_kind *tk = bench_test_kind_find(kind);
  char key[64];
  if (name && (judged_section(t, kind, key, sizeof key) || !strcmp(kind, "steady_state")))
    json_object_set_new(json_object_get(wv, "tests"), name,
                        json_pack("{s:s, s:I}", "section", !strcmp(kind, "steady_state") ? "steady_state" : key,
                                  "before_bytes", analyze_json_int_of(before)));
  double cap = method_capacity(a);
  if (tk && (tk->flags & BENCH_TK_FILL_TRACE) && cap > 0 && bytes >= cap / 2) {
    /* a sequential pass over (most of) the drive rewrites it in order:
     * the count of random writes starts again */
    json_object_set_new(wv, "since_fill_bytes", json_integer(0));
    return;
  }
  if (pat && !strcmp(pat, "rand")) {
    double w = bytes * (100 - analyze_json_num(p, "read_pct", 100)) / 100;
    json_object_set_new(wv, "since_fill_bytes", json_integer(analyze_json_int_of(before + w)));
  }
}

/* The judgment from all the rounds (once, by analyze_steady_finish: once
 * per round made a run of many rounds quadratic). */
static void steady_judge(json_t *ss) {
  json_t *rounds = json_object_get(ss, "rounds");
  size_t n = json_array_size(rounds);
  unsigned win = (unsigned)analyze_json_num(ss, "window_rounds", 5);
  double *y = calloc(n ? n : 1, sizeof *y);
  if (!y) return;
  for (size_t i = 0; i < n; i++) y[i] = analyze_json_num(json_array_get(rounds, i), "iops", 0);
  struct bench_pts_window w;
  memset(&w, 0, sizeof w);
  size_t at = bench_pts_first_steady(y, n, win, &w);
  free(y);
  json_object_set_new(ss, "steady", json_boolean(at > 0));
  json_object_set_new(ss, "steady_round", at ? json_integer((json_int_t)at) : json_null());
  if (n < win) {
    json_object_del(ss, "window");
    return;
  }
  json_object_set_new(
      ss, "window",
      json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "first_round", (json_int_t)w.first + 1, "last_round",
                (json_int_t)w.last + 1, "mean_iops", analyze_json_real(w.mean, 1), "min_iops",
                analyze_json_real(w.min, 1), "max_iops", analyze_json_real(w.max, 1), "range_pct",
                analyze_json_real_or_null(w.range_pct, 2), "slope_iops_per_round", analyze_json_real_or_null(w.slope, 2),
                "intercept", analyze_json_real_or_null(w.intercept, 2), "excursion_pct",
                analyze_json_real_or_null(w.excursion_pct, 2)));
  /* the evidence pre_steady uses: random writes since the last fill before
   * the window's first round (steady), or after the last round (not) */
  const json_t *r0 = json_array_get(rounds, at ? w.first : n - 1);
  double need = analyze_json_num(r0, "before_bytes", 0) + (at ? 0 : analyze_json_num(r0, "write_bytes", 0));
  json_object_set_new(ss, "needed_gib", analyze_json_real(need / GIB, 3));
  json_object_set_new(ss, "needed_reached", json_boolean(at > 0));
  /* steady from the step's first round: the drive may have been steady
   * long before it, so the step tells nothing about earlier tests */
  json_object_set_new(ss, "needed_known", json_boolean(!at || w.first > 0));
}

/* The matrix' points: mean IOPS over the rounds of the window per mix and block. */
static void steady_matrix(json_t *ss) {
  json_t *pts = json_object_get(ss, "matrix_points");
  const json_t *w = json_object_get(ss, "window");
  if (!json_array_size(pts) || !w) return;
  double f = analyze_json_num(w, "first_round", 0), l = analyze_json_num(w, "last_round", 0);
  json_t *out = json_array();
  json_t *cells = json_object(); /* "READ_PCT BLOCK" -> the cell of out: found in O(1) */
  size_t i;
  json_t *p;
  json_array_foreach(pts, i, p) {
    double r = analyze_json_num(p, "round", 0);
    if (r < f || r > l) continue;
    double rp = analyze_json_num(p, "read_pct", 0), bs = analyze_json_num(p, "block_bytes", 0);
    char key[64];
    snprintf(key, sizeof key, "%.17g %.17g", rp, bs); /* %.17g: distinct doubles, distinct keys */
    json_t *cell = json_object_get(cells, key);
    if (!cell) {
      cell = json_pack("{s:f, s:f, s:f, s:i}", "read_pct", rp, "block_bytes", bs, "sum", 0.0, "n", 0);
      json_array_append_new(out, cell);
      json_object_set(cells, key, cell);
    }
    json_object_set_new(cell, "sum", json_real(analyze_json_num(cell, "sum", 0) + analyze_json_num(p, "iops", 0)));
    json_object_set_new(cell, "n", json_integer(json_integer_value(json_object_get(cell, "n")) + 1));
  }
  json_decref(cells);
  if (json_array_size(out) < 2) { /* one point per round: no matrix, the rounds say it all */
    json_decref(out);
    return;
  }
  json_array_foreach(out, i, p) {
    double n = analyze_json_num(p, "n", 1);
    json_object_set_new(p, "iops", analyze_json_real(analyze_json_num(p, "sum", 0) / n, 1));
    json_object_del(p, "sum");
    json_object_set_new(p, "rounds", json_integer((json_int_t)n));
    json_object_del(p, "n");
  }
  json_object_set_new(ss, "matrix", out);
}

void analyze_steady_add(json_t *a, const json_t *t, const json_t *e) {
  const json_t *st = json_object_get(json_object_get(e, "ops"), "all");
  if (!st) return;
  json_t *ss = json_object_get(a, "steady_state");
  if (!ss) {
    const char *step = analyze_json_str(t, "step");
    ss = json_pack("{s:s, s:i, s:{s:f, s:f}, s:[], s:[]}", "step", step ? step : "?", "window_rounds", 5, "limits",
                   "range_pct", BENCH_PTS_RANGE_PCT, "excursion_pct", BENCH_PTS_SLOPE_PCT, "rounds", "matrix_points");
    json_object_set_new(a, "steady_state", ss);
  }
  double win = analyze_json_num(t, "window", 0); /* the step's window (older runs: the PTS's 5) */
  if (win >= 2 && win <= 100) json_object_set_new(ss, "window_rounds", json_integer((json_int_t)win));
  const json_t *p = json_object_get(t, "params");
  double iops = analyze_json_num(st, "iops", 0);
  /* round from test.json: clamped before the cast (a hostile 1e300) */
  double rd = analyze_json_num(t, "round", 0);
  int round = rd > 0 && rd < 1e9 ? (int)rd : 0;
  json_array_append_new(json_object_get(ss, "matrix_points"),
                        json_pack("{s:i, s:f, s:f, s:f}", "round", round, "read_pct", analyze_json_num(t, "read_pct", 0),
                                  "block_bytes", analyze_json_num(p, "block_bytes", 0), "iops", iops));
  if (!json_is_true(json_object_get(t, "tracking"))) return;
  const char *name = analyze_json_str(t, "name");
  const json_t *wv = json_object_get(json_object_get(json_object_get(a, "write_volume"), "tests"), name ? name : "");
  double bytes = analyze_json_num(json_object_get(t, "result"), "bytes", 0);
  json_array_append_new(json_object_get(ss, "rounds"),
                        json_pack("{s:i, s:s, s:o, s:o, s:I, s:I}", "round", round, "test", name ? name : "?", "iops",
                                  analyze_json_real(iops, 1), "mb_s", json_deep_copy(json_object_get(st, "mb_s")),
                                  "before_bytes", analyze_json_int_of(analyze_json_num(wv, "before_bytes", 0)),
                                  "write_bytes",
                                  analyze_json_int_of(bytes * (100 - analyze_json_num(p, "read_pct", 0)) / 100)));
}

void analyze_steady_finish(json_t *a) {
  json_t *ss = json_object_get(a, "steady_state");
  if (!ss) return;
  if (json_array_size(json_object_get(ss, "rounds"))) steady_judge(ss);
  steady_matrix(ss);
}

/* ------------------------------------------------------------------ flags */

void analyze_flag_not_steady(const json_t *a, json_t *flags) {
  const json_t *ss = json_object_get(a, "steady_state");
  size_t n = json_array_size(json_object_get(ss, "rounds"));
  if (!n || json_is_true(json_object_get(ss, "steady"))) return;
  const json_t *w = json_object_get(ss, "window");
  json_t *nums = json_pack("{s:I, s:f, s:f}", "rounds", (json_int_t)n, "range_limit_pct", BENCH_PTS_RANGE_PCT,
                           "excursion_limit_pct", BENCH_PTS_SLOPE_PCT);
  /* No NaN in the numbers (jansson refuses it and the flag would vanish):
   * an interrupted step has no window, a window of mean 0 no range share.
   * The catalogue tells the three cases apart by the numbers present. */
  if (!w) {
    double win = analyze_json_num(ss, "window_rounds", 5);
    json_object_set_new(nums, "window_rounds", json_integer((json_int_t)win));
    analyze_flag_add(flags, "not_steady", "warn", nums,
                     "steady state (SNIA PTS) not judged: the step ran %zu rounds, fewer than its %.0f-round window", n,
                     win);
    return;
  }
  double rp = analyze_json_num(w, "range_pct", NAN), ep = analyze_json_num(w, "excursion_pct", NAN);
  if (!isfinite(rp) || !isfinite(ep)) {
    double mean = analyze_json_num(w, "mean_iops", 0);
    json_object_set_new(nums, "mean_iops", analyze_json_real_or_null(mean, 1));
    analyze_flag_add(flags, "not_steady", "warn", nums,
                     "steady state (SNIA PTS) not reached in %zu rounds: the last window's mean is %.0f IOPS, so its "
                     "range has no share of it",
                     n, mean);
    return;
  }
  json_object_set_new(nums, "range_pct", json_real(rp));
  json_object_set_new(nums, "excursion_pct", json_real(ep));
  analyze_flag_add(flags, "not_steady", "warn", nums,
                   "steady state (SNIA PTS) not reached in %zu rounds: the last window's range is %.1f%% "
                   "(limit %.0f%%) and its best-fit excursion %.1f%% (limit %.0f%%) of its mean",
                   n, rp, BENCH_PTS_RANGE_PCT, ep, BENCH_PTS_SLOPE_PCT);
}

/* One flag per filled-state section (CDM state other than FOB, the tails)
 * whose first test came after less random-write volume since the last fill
 * than the steady-state step needed to reach steady state (or than it wrote
 * in all, when it never did). Nothing when the step was steady from its
 * first round: it saw no convergence to measure the volume by. */
void analyze_flag_pre_steady(const json_t *a, json_t *flags) {
  const json_t *ss = json_object_get(a, "steady_state");
  if (!json_array_size(json_object_get(ss, "rounds")) || !json_object_get(ss, "needed_gib") ||
      !json_is_true(json_object_get(ss, "needed_known")))
    return;
  double need = analyze_json_num(ss, "needed_gib", 0);
  int reached = json_is_true(json_object_get(ss, "needed_reached"));
  json_t *seen = json_object();
  const char *name;
  json_t *v;
  json_object_foreach(json_object_get(json_object_get(a, "write_volume"), "tests"), name, v) {
    const char *sec = analyze_json_str(v, "section");
    if (!sec || !strcmp(sec, "steady_state") || json_object_get(seen, sec)) continue;
    json_object_set_new(seen, sec, json_true()); /* a section's first test: the least written */
    double had = analyze_json_num(v, "before_bytes", 0) / GIB;
    if (had >= need) continue;
    char hw[48]; /* "no random writes", not "0.00 GiB of random writes" */
    if (had < 0.005) snprintf(hw, sizeof hw, "no random writes");
    else snprintf(hw, sizeof hw, "%.2f GiB of random writes", had);
    analyze_flag_add(flags, "pre_steady", "info",
                     json_pack("{s:s, s:s, s:f, s:f, s:b}", "section", sec, "test", name, "had_gib",
                               analyze_json_round(had, 3), "needed_gib", need, "reached", reached),
                     "%s was measured before the drive was in steady state: %s since the last fill, where steady "
                     "state %s %.2f GiB",
                     sec, hw, reached ? "took" : "was not reached after", need);
  }
  json_decref(seen);
}

/* -------------------------------------------------------------- summary */

void analyze_print_steady(FILE *f, const json_t *a) {
  const json_t *ss = json_object_get(a, "steady_state"), *w = json_object_get(ss, "window");
  size_t n = json_array_size(json_object_get(ss, "rounds"));
  if (n && w) {
    if (json_is_true(json_object_get(ss, "steady")))
      fprintf(f, "\nSteady state (SNIA PTS): reached at round %.0f (window %.0f-%.0f: %.0f IOPS, range %.1f%%, excursion %.1f%%)\n",
              analyze_json_num(ss, "steady_round", 0), analyze_json_num(w, "first_round", 0),
              analyze_json_num(w, "last_round", 0), analyze_json_num(w, "mean_iops", 0),
              analyze_json_num(w, "range_pct", 0), analyze_json_num(w, "excursion_pct", 0));
    else
      fprintf(f, "\nSteady state (SNIA PTS): not reached in %zu rounds (last window %.0f IOPS, range %.1f%%, excursion %.1f%%)\n",
              n, analyze_json_num(w, "mean_iops", 0), analyze_json_num(w, "range_pct", 0),
              analyze_json_num(w, "excursion_pct", 0));
  }
  size_t i;
  const json_t *c;
  json_array_foreach(json_object_get(a, "consistency"), i, c) {
    const json_t *st = json_object_get(c, "steady");
    if (!st) continue;
    double on = analyze_json_num(json_object_get(c, "burst"), "onset_s", NAN);
    fprintf(f, "\nConsistency (%s): %.0f IOPS from %.0f s, 1%% low %.0f, stddev/mean %.2f%%, p99.9 %.0f µs mean; ",
            analyze_json_str(c, "test") ? analyze_json_str(c, "test") : "?", analyze_json_num(st, "mean_iops", 0),
            analyze_json_num(st, "from_s", 0), analyze_json_num(st, "p1_iops", 0), analyze_json_num(st, "cov_pct", 0),
            analyze_json_num(st, "p99_9_us_mean", 0));
    if (isfinite(on)) fprintf(f, "GC onset %.0f s\n", on);
    else fprintf(f, "no burst\n");
  }
}
