/* logstats.c — per-test stats over one log, streamed chunk by chunk:
 * per-op counts, bytes, latency moments and exact percentiles, the time
 * series and (for whole-drive fills) the per-GiB trace and SLC estimate. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze_int.h"
#include "log/ssdlog.h"

#define NOPS 4 /* read, write, trim, flush */
#define GIB (1024.0 * 1024.0 * 1024.0)

void analyze_opts_defaults(struct analyze_opts *o) {
  static const double dflt[] = {50, 90, 99, 99.9, 99.99, 99.999};
  memset(o, 0, sizeof *o);
  memcpy(o->pcts, dflt, sizeof dflt);
  o->npcts = 6;
  o->interval_s = 1.0;
}

int analyze_parse_pcts(struct analyze_opts *o, const char *list, struct ssdrev_err *err) {
  unsigned n = 0;
  const char *s = list;
  while (*s) {
    char *end;
    errno = 0;
    double p = strtod(s, &end);
    if (end == s || errno || !(p > 0 && p <= 100) || (*end && *end != ','))
      return ssdrev_fail(err, -EINVAL, "bad percentile '%.*s' in '%s' (want numbers in (0, 100] separated by commas)",
                         (int)strcspn(s, ","), s, list);
    if (n == ANALYZE_MAX_PCTS) return ssdrev_fail(err, -EINVAL, "too many percentiles in '%s' (max %d)", list, ANALYZE_MAX_PCTS);
    o->pcts[n++] = p;
    s = *end ? end + 1 : end;
  }
  if (!n) return ssdrev_fail(err, -EINVAL, "empty percentile list");
  o->npcts = n;
  return 0;
}

static const double *opt_pcts(const struct analyze_opts *o, unsigned *n) {
  *n = o->npcts;
  return o->pcts;
}

struct op_acc {
  uint64_t ios, bytes, errors, lat_sum, lat_min, lat_max;
  unsigned __int128 lat_sumsq; /* exact: sum of squares of ns overflows u64 */
  struct analyze_pct *pct;
};

struct log_ctx {
  const struct analyze_opts *o;
  unsigned want;
  struct op_acc op[NOPS];
  struct analyze_pct *all;
  uint64_t first_submit, last_done, measured, ramp, bad_op;
  int any;
  uint64_t interval_ns, fine_step_bytes;
  struct analyze_bins *series, *gib, *fine;
  uint64_t lat_buf[NOPS][SSDLOG_CHUNK_MAX_RECORDS];
};

static void ctx_free(struct log_ctx *c) {
  if (!c) return;
  for (unsigned i = 0; i < NOPS; i++) analyze_pct_free(c->op[i].pct);
  analyze_pct_free(c->all);
  if (c->series) analyze_bins_release(c->series);
  if (c->gib) analyze_bins_release(c->gib);
  if (c->fine) analyze_bins_release(c->fine);
  free(c->series);
  free(c->gib);
  free(c->fine);
  free(c);
}

static void pass1_chunk(struct log_ctx *c, const struct ssdlog_chunk *k) {
  size_t nb[NOPS] = {0};
  for (size_t i = 0; i < k->n; i++) {
    if (k->flags[i] & SSDLOG_REC_RAMP) {
      c->ramp++;
      continue;
    }
    unsigned op = k->op[i];
    if (op >= NOPS) {
      c->bad_op++;
      continue;
    }
    uint64_t sub = k->submit_ns[i], lat = k->lat_ns[i], done = sub + lat;
    if (!c->any || sub < c->first_submit) c->first_submit = sub;
    if (done > c->last_done) c->last_done = done;
    c->any = 1;
    c->measured++;
    struct op_acc *a = &c->op[op];
    if (k->status[i] < 0) {
      a->errors++;
      continue;
    }
    uint64_t len = k->len_bytes[i];
    if (!a->ios || lat < a->lat_min) a->lat_min = lat;
    if (lat > a->lat_max) a->lat_max = lat;
    a->ios++;
    a->bytes += len;
    a->lat_sum += lat;
    a->lat_sumsq += (unsigned __int128)lat * lat;
    c->lat_buf[op][nb[op]++] = lat;
    if (c->series) analyze_bins_add(c->series, done / c->interval_ns, lat, len, sub, done);
    if (c->gib) {
      uint64_t off = k->offset_bytes[i];
      analyze_bins_add(c->gib, off >> 30, lat, len, sub, done);
      analyze_bins_add(c->fine, off / c->fine_step_bytes, lat, len, sub, done);
    }
  }
  for (unsigned op = 0; op < NOPS; op++)
    if (nb[op]) analyze_pct_add(c->op[op].pct, c->lat_buf[op], nb[op]);
}

/* Refinement pass: the same filter, feeding every accumulator that asked. */
static void refine_chunk(struct log_ctx *c, const struct ssdlog_chunk *k, const int *need,
                         int need_all) {
  size_t nb[NOPS] = {0};
  for (size_t i = 0; i < k->n; i++) {
    unsigned op = k->op[i];
    if ((k->flags[i] & SSDLOG_REC_RAMP) || op >= NOPS || k->status[i] < 0) continue;
    c->lat_buf[op][nb[op]++] = k->lat_ns[i];
  }
  for (unsigned op = 0; op < NOPS; op++) {
    if (!nb[op]) continue;
    if (need[op]) analyze_pct_refine_add(c->op[op].pct, c->lat_buf[op], nb[op]);
    if (need_all) analyze_pct_refine_add(c->all, c->lat_buf[op], nb[op]);
  }
}

static int read_all(struct ssdlog_reader *r, unsigned cols, struct log_ctx *c, int pass,
                    const int *need, int need_all, struct ssdrev_err *err) {
  struct ssdlog_chunk k;
  int rc;
  while ((rc = ssdlog_next_chunk(r, cols, &k, err)) > 0) {
    if (pass == 1) pass1_chunk(c, &k);
    else refine_chunk(c, &k, need, need_all);
  }
  return rc;
}

/* Plans every accumulator and runs refinement passes until all answers
 * are exact. */
static int solve_pcts(struct ssdlog_reader *r, struct log_ctx *c, struct ssdrev_err *err) {
  unsigned np;
  const double *pcts = opt_pcts(c->o, &np);
  int need[NOPS] = {0}, need_all, rc;
  for (unsigned op = 0; op < NOPS; op++) {
    rc = analyze_pct_merge(c->all, c->op[op].pct);
    if (rc) return ssdrev_fail(err, rc, "out of memory merging percentiles");
  }
  for (unsigned op = 0; op < NOPS; op++) {
    rc = analyze_pct_plan(c->op[op].pct, pcts, np, err);
    if (rc < 0) return rc;
    need[op] = rc;
  }
  rc = analyze_pct_plan(c->all, pcts, np, err);
  if (rc < 0) return rc;
  need_all = rc;
  for (;;) {
    int any = need_all;
    for (unsigned op = 0; op < NOPS; op++) any |= need[op];
    if (!any) return 0;
    rc = ssdlog_rewind(r, err);
    if (rc) return rc;
    rc = read_all(r, SSDLOG_COL_LAT | SSDLOG_COL_STATUS | SSDLOG_COL_OP | SSDLOG_COL_FLAGS, c, 2, need,
                  need_all, err);
    if (rc < 0) return rc;
    for (unsigned op = 0; op < NOPS; op++) {
      if (!need[op]) continue;
      rc = analyze_pct_refine_end(c->op[op].pct, err);
      if (rc < 0) return rc;
      need[op] = rc;
    }
    if (need_all) {
      rc = analyze_pct_refine_end(c->all, err);
      if (rc < 0) return rc;
      need_all = rc;
    }
  }
}

/* STATS of one op (or of all ops summed into `a`). */
static json_t *stats_json(const struct op_acc *a, const struct analyze_pct *pct, double elapsed_s,
                          unsigned np, const char *opname, json_t *warnings) {
  json_t *s = json_object();
  double n = (double)a->ios;
  double mean = a->ios ? (double)a->lat_sum / n : 0;
  double var = 0;
  if (a->ios) {
    /* population variance from exact integer sums, in long double */
    long double ln = (long double)a->ios, ls = (long double)a->lat_sum;
    long double v = ((long double)a->lat_sumsq - ls * ls / ln) / ln;
    var = v > 0 ? (double)v : 0;
  }
  json_object_set_new(s, "ios", json_integer((json_int_t)a->ios));
  json_object_set_new(s, "bytes", json_integer((json_int_t)a->bytes));
  json_object_set_new(s, "errors", json_integer((json_int_t)a->errors));
  json_object_set_new(s, "elapsed_s", analyze_json_real(elapsed_s, 6));
  json_object_set_new(s, "iops", analyze_json_real(elapsed_s > 0 ? n / elapsed_s : 0, 2));
  json_object_set_new(s, "mb_s", analyze_json_real(elapsed_s > 0 ? (double)a->bytes / elapsed_s / 1e6 : 0, 3));
  json_object_set_new(s, "mib_s", analyze_json_real(elapsed_s > 0 ? (double)a->bytes / elapsed_s / 1048576.0 : 0, 3));
  json_object_set_new(s, "lat_min_us", analyze_json_real((double)a->lat_min / 1e3, 3));
  json_object_set_new(s, "lat_mean_us", analyze_json_real(mean / 1e3, 3));
  json_object_set_new(s, "lat_stddev_us", analyze_json_real(sqrt(var) / 1e3, 3));
  json_object_set_new(s, "lat_max_us", analyze_json_real((double)a->lat_max / 1e3, 3));
  struct analyze_pct_result res[ANALYZE_MAX_PCTS];
  json_t *arr = json_array();
  if (a->ios) analyze_pct_results(pct, res);
  for (unsigned i = 0; a->ios && i < np; i++) {
    json_t *e = json_object();
    json_object_set_new(e, "p", json_real(res[i].p));
    json_object_set_new(e, "lat_ns", json_integer((json_int_t)res[i].value));
    json_object_set_new(e, "lat_us", analyze_json_real((double)res[i].value / 1e3, 3));
    json_object_set_new(e, "at_or_beyond", json_integer((json_int_t)res[i].at_or_beyond));
    json_object_set_new(e, "warn", json_boolean(res[i].warn));
    json_array_append_new(arr, e);
    if (res[i].warn && warnings)
      json_array_append_new(warnings, json_sprintf("%s p%g rests on %llu samples (< %d)", opname, res[i].p,
                                                   (unsigned long long)res[i].at_or_beyond,
                                                   ANALYZE_PCT_MIN_SAMPLES));
  }
  json_object_set_new(s, "pct", arr);
  return s;
}

static json_t *series_json(const struct analyze_bins *b, double interval_s, uint64_t first_submit,
                           uint64_t last_done) {
  json_t *o = json_object(), *t = json_array(), *mb = json_array(), *io = json_array(),
         *lm = json_array(), *p50 = json_array(), *p99 = json_array();
  uint64_t ins = (uint64_t)(interval_s * 1e9);
  for (size_t i = 0; i < b->nout; i++) {
    const struct bin_out *x = &b->out[i];
    double start = (double)x->key * (double)ins, end = start + (double)ins;
    /* the first and last intervals may be partial: use their real span */
    if ((double)first_submit > start && (double)first_submit < end) start = (double)first_submit;
    if (i + 1 == b->nout && (double)last_done < end && (double)last_done > start) end = (double)last_done;
    double dur_s = (end - start) / 1e9;
    json_array_append_new(t, analyze_json_real((double)x->key * interval_s, 6));
    json_array_append_new(mb, analyze_json_real(dur_s > 0 ? (double)x->bytes / dur_s / 1e6 : 0, 3));
    json_array_append_new(io, analyze_json_real(dur_s > 0 ? (double)x->ios / dur_s : 0, 2));
    json_array_append_new(lm, analyze_json_real(x->lat_mean_ns / 1e3, 3));
    json_array_append_new(p50, analyze_json_real(x->p50_ns / 1e3, 3));
    json_array_append_new(p99, analyze_json_real(x->p99_ns / 1e3, 3));
  }
  json_object_set_new(o, "interval_s", json_real(interval_s));
  json_object_set_new(o, "t_s", t);
  json_object_set_new(o, "mb_s", mb);
  json_object_set_new(o, "iops", io);
  json_object_set_new(o, "lat_mean_us", lm);
  json_object_set_new(o, "p50_us", p50);
  json_object_set_new(o, "p99_us", p99);
  json_object_set_new(o, "p_note", json_string("interval percentiles from a log-linear histogram, within 1.6%"));
  return o;
}

/* Speed of each offset bin: its bytes over the time since the previous bin
 * completed (sequential fills complete bins in order). gib[] is the GiB
 * written at the end of each bin. Returns the number of points. */
static size_t trace_points(const struct analyze_bins *b, uint64_t first_submit, double *gib, double *mb_s,
                           double *lat_mean_us, double *lat_p99_us) {
  double cum = 0;
  uint64_t prev = first_submit;
  for (size_t i = 0; i < b->nout; i++) {
    const struct bin_out *x = &b->out[i];
    uint64_t end = x->last_done_ns > prev ? x->last_done_ns : prev;
    double dur_s = (double)(end - prev) / 1e9;
    cum += (double)x->bytes;
    gib[i] = cum / GIB;
    mb_s[i] = dur_s > 0 ? (double)x->bytes / dur_s / 1e6 : 0;
    if (lat_mean_us) lat_mean_us[i] = x->lat_mean_ns / 1e3;
    if (lat_p99_us) lat_p99_us[i] = x->p99_ns / 1e3;
    if (x->ios) prev = end;
  }
  return b->nout;
}

static json_t *darr(const double *v, size_t n, int digits) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) json_array_append_new(a, analyze_json_real(v[i], digits));
  return a;
}

static int fill_json(struct log_ctx *c, json_t *res, struct ssdrev_err *err) {
  size_t n = c->gib->nout > c->fine->nout ? c->gib->nout : c->fine->nout;
  double *g = calloc(n + 1, sizeof *g), *m = calloc(n + 1, sizeof *m), *lm = calloc(n + 1, sizeof *lm),
         *lp = calloc(n + 1, sizeof *lp);
  if (!g || !m || !lm || !lp) {
    free(g), free(m), free(lm), free(lp);
    return ssdrev_fail(err, -ENOMEM, "out of memory building the fill trace");
  }
  json_t *fill = json_object(), *pg = json_object();
  size_t k = trace_points(c->gib, c->first_submit, g, m, lm, lp);
  json_object_set_new(pg, "gib", darr(g, k, 4));
  json_object_set_new(pg, "mb_s", darr(m, k, 2));
  json_object_set_new(pg, "lat_mean_us", darr(lm, k, 2));
  json_object_set_new(pg, "lat_p99_us", darr(lp, k, 2));
  json_object_set_new(fill, "per_gib", pg);
  k = trace_points(c->fine, c->first_submit, g, m, NULL, NULL);
  json_t *fine = json_object();
  json_object_set_new(fine, "step_gib", analyze_json_real((double)c->fine_step_bytes / GIB, 6));
  json_object_set_new(fine, "gib", darr(g, k, 4));
  json_object_set_new(fine, "mb_s", darr(m, k, 2));
  json_object_set_new(fill, "trace", fine);
  double seg = c->o->slc_min_seg_gib > 0 ? c->o->slc_min_seg_gib : 2.0;
  struct analyze_slc slc;
  struct ssdrev_err e2;
  if (k >= 2 && analyze_slc_estimate(g, m, k, seg, &slc, &e2) == 0)
    json_object_set_new(fill, "slc", analyze_slc_to_json(&slc, seg));
  free(g), free(m), free(lm), free(lp);
  json_object_set_new(res, "fill", fill);
  return 0;
}

int analyze_log(const char *path, const struct analyze_opts *o, unsigned want, json_t **out,
                struct ssdrev_err *err) {
  struct analyze_opts dflt;
  if (!o) {
    analyze_opts_defaults(&dflt);
    o = &dflt;
  }
  *out = NULL;
  struct log_ctx *c = calloc(1, sizeof *c);
  if (!c) return ssdrev_fail(err, -ENOMEM, "out of memory");
  c->o = o;
  c->want = want;
  int rc = 0;
  for (unsigned i = 0; i < NOPS && !rc; i++) rc = analyze_pct_new(&c->op[i].pct);
  if (!rc) rc = analyze_pct_new(&c->all);
  c->interval_ns = (uint64_t)((o->interval_s > 0 ? o->interval_s : 1.0) * 1e9);
  if (c->interval_ns == 0) c->interval_ns = 1;
  double step = o->fill_step_gib > 0 ? o->fill_step_gib : 1.0 / 16;
  c->fine_step_bytes = (uint64_t)(step * GIB);
  if (!c->fine_step_bytes) c->fine_step_bytes = 1;
  if (!rc && (want & ANALYZE_WANT_SERIES) && !(c->series = calloc(1, sizeof *c->series))) rc = -ENOMEM;
  if (!rc && (want & ANALYZE_WANT_FILL) &&
      (!(c->gib = calloc(1, sizeof *c->gib)) || !(c->fine = calloc(1, sizeof *c->fine))))
    rc = -ENOMEM;
  if (rc) {
    ctx_free(c);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  struct ssdlog_reader *r = NULL;
  rc = ssdlog_open(&r, path, o->salvage ? SSDLOG_SALVAGE : 0, err);
  if (rc) {
    ctx_free(c);
    return rc;
  }
  unsigned cols = SSDLOG_COL_SUBMIT | SSDLOG_COL_LAT | SSDLOG_COL_LEN | SSDLOG_COL_STATUS | SSDLOG_COL_OP |
                  SSDLOG_COL_FLAGS;
  if (want & ANALYZE_WANT_FILL) cols |= SSDLOG_COL_OFFSET;
  rc = read_all(r, cols, c, 1, NULL, 0, err);
  if (rc >= 0) rc = solve_pcts(r, c, err);
  if (rc >= 0 && c->series) rc = analyze_bins_finish(c->series);
  if (rc >= 0 && c->gib) rc = analyze_bins_finish(c->gib);
  if (rc >= 0 && c->fine) rc = analyze_bins_finish(c->fine);
  if (rc < 0) {
    if (rc == -ENOMEM) ssdrev_fail(err, rc, "out of memory analyzing '%s'", path);
    ssdlog_close(r);
    ctx_free(c);
    return rc;
  }
  struct ssdlog_stats st;
  ssdlog_get_stats(r, &st);
  ssdlog_close(r);

  json_t *res = json_object(), *ops = json_object(), *warnings = json_array();
  double elapsed_s = c->any ? (double)(c->last_done - c->first_submit) / 1e9 : 0;
  unsigned np = o->npcts;
  struct op_acc all = {0};
  for (unsigned i = 0; i < NOPS; i++) {
    const struct op_acc *a = &c->op[i];
    if (a->ios && (!all.ios || a->lat_min < all.lat_min)) all.lat_min = a->lat_min;
    if (a->lat_max > all.lat_max) all.lat_max = a->lat_max;
    all.ios += a->ios;
    all.bytes += a->bytes;
    all.errors += a->errors;
    all.lat_sum += a->lat_sum;
    all.lat_sumsq += a->lat_sumsq;
  }
  json_object_set_new(ops, "all", stats_json(&all, c->all, elapsed_s, np, "all", warnings));
  unsigned nops = 0;
  for (unsigned i = 0; i < NOPS; i++) nops += c->op[i].ios > 0;
  for (unsigned i = 0; i < NOPS; i++) {
    const struct op_acc *a = &c->op[i];
    /* per-op warnings only in mixes: otherwise they repeat "all" */
    if (a->ios || a->errors)
      json_object_set_new(ops, ssdlog_op_name(i), stats_json(a, a->pct, elapsed_s, np, ssdlog_op_name(i),
                                                            nops > 1 ? warnings : NULL));
  }
  json_object_set_new(res, "ops", ops);
  if (c->series) {
    json_object_set_new(res, "series", series_json(c->series, o->interval_s > 0 ? o->interval_s : 1.0,
                                                   c->first_submit, c->last_done));
    if (c->series->late)
      json_array_append_new(warnings, json_sprintf("%llu records completed out of order by more than %u intervals",
                                                   (unsigned long long)c->series->late, BINS_WINDOW));
  }
  if (c->gib && (rc = fill_json(c, res, err)) < 0) {
    json_decref(res);
    json_decref(warnings);
    ctx_free(c);
    return rc;
  }
  if (all.errors)
    json_array_append_new(warnings, json_sprintf("%llu I/O errors (excluded from latency stats)",
                                                 (unsigned long long)all.errors));
  if (c->bad_op)
    json_array_append_new(warnings, json_sprintf("%llu records with an unknown op skipped",
                                                 (unsigned long long)c->bad_op));
  if (st.truncated)
    json_array_append_new(warnings, json_sprintf("log truncated at byte %llu (the run was cut short)",
                                                 (unsigned long long)st.truncated_at));
  if (st.skipped_chunks)
    json_array_append_new(warnings, json_sprintf("%llu corrupt chunks (%llu records) skipped (--salvage)",
                                                 (unsigned long long)st.skipped_chunks,
                                                 (unsigned long long)st.skipped_records));
  json_t *lg = json_object();
  json_object_set_new(lg, "records", json_integer((json_int_t)st.records));
  json_object_set_new(lg, "measured", json_integer((json_int_t)c->measured));
  json_object_set_new(lg, "ramp", json_integer((json_int_t)c->ramp));
  json_object_set_new(lg, "chunks", json_integer((json_int_t)st.chunks));
  json_object_set_new(lg, "skipped_chunks", json_integer((json_int_t)st.skipped_chunks));
  json_object_set_new(lg, "truncated", json_boolean(st.truncated));
  json_object_set_new(res, "log", lg);
  json_object_set_new(res, "warnings", warnings);
  ctx_free(c);
  *out = res;
  return 0;
}
