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
/* Fill trace: the estimate's resolution (o->fill_step_gib overrides it) and
 * the most points the stored trace keeps (docs/archive.md). */
#define FILL_STEP_GIB (1.0 / 256)
#define TRACE_OUT_MAX 2048

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
  uint64_t ios, bytes, errors, lat_min, lat_max;
  unsigned __int128 lat_sum;   /* exact: a u64 sum wraps with latencies near 2^64 / ios */
  unsigned __int128 lat_sumsq; /* exact: sum of squares of ns overflows u64 */
  struct analyze_pct *pct;
};

/* A time series keeps gaps (intervals without a completion) of up to this
 * many intervals as zeros; a longer gap is two zero points, its first and
 * last interval (docs/archive.md), so one record far in the future costs
 * nothing. */
#define SERIES_GAP_MAX 1000u

/* Which bins a pass feeds (bit i: all[i] of rebin_overflowed; 4 was the
 * offset-keyed fine trace, now the fill trace of base/filltrace.c). */
enum { FEED_SERIES = 1, FEED_GIB = 2, FEED_SFINE = 8 };

/* The latency histogram's bin of lat_ns: bin b >= 1 holds latencies with
 * floor(20 * log10(lat_us)) = b, bin 0 those up to 1 µs, the last bin
 * everything from 10^(99/20) µs up. hist_edges gives the exact integer
 * edges of that formula, so a record costs a binary search, not a log10. */
static int hist_bin_formula(uint64_t lat_ns) {
  double us = (double)lat_ns / 1000.0;
  int b = us <= 1 ? 0 : (int)(log10(us) * ANALYZE_HIST_PER_DECADE);
  return b >= ANALYZE_HIST_BINS ? ANALYZE_HIST_BINS - 1 : b;
}

static void hist_edges(uint64_t *edge) {
  edge[0] = 0;
  for (int b = 1; b < ANALYZE_HIST_BINS; b++) {
    uint64_t g = (uint64_t)ceil(1000.0 * pow(10, (double)b / ANALYZE_HIST_PER_DECADE));
    while (g > 0 && hist_bin_formula(g - 1) >= b) g--;
    while (hist_bin_formula(g) < b) g++;
    edge[b] = g;
  }
}

/* The bin of lat_ns by binary search over the edges (used to fill the
 * lookup table below, not per record). */
static int hist_bin_search(const uint64_t *edge, uint64_t lat_ns) {
  int lo = 0, hi = ANALYZE_HIST_BINS - 1; /* edge[lo] <= lat_ns */
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (edge[mid] <= lat_ns) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* Per record: the octave of lat_ns and its next 4 bits pick a sixteenth of
 * an octave (a ratio of at most 2^(1/16) = 1.044, less than a bin's
 * 10^(1/20) = 1.122), so at most one edge lies inside it: a table lookup and
 * one comparison instead of a 7-step search (which cost analyze ~40%). */
#define HIST_SUB 16
static void hist_table(const uint64_t *edge, uint8_t *tab) {
  for (int e = 0; e < 64; e++)
    for (int m = 0; m < HIST_SUB; m++) {
      /* octaves below 16 ns are searched directly (hist_bin) */
      uint64_t lo = e >= 4 ? (1ull << e) | ((uint64_t)m << (e - 4)) : 0;
      tab[e * HIST_SUB + m] = (uint8_t)hist_bin_search(edge, lo);
    }
}

static int hist_bin(const uint64_t *edge, const uint8_t *tab, uint64_t lat_ns) {
  if (lat_ns < HIST_SUB) return hist_bin_search(edge, lat_ns);
  int e = 63 - __builtin_clzll(lat_ns);
  int b = tab[e * HIST_SUB + (int)((lat_ns >> (e - 4)) & (HIST_SUB - 1))];
  if (b + 1 < ANALYZE_HIST_BINS && lat_ns >= edge[b + 1]) b++;
  return b;
}

struct log_ctx {
  const struct analyze_opts *o;
  const char *path;
  uint64_t hist_edge[ANALYZE_HIST_BINS];
  uint8_t hist_tab[64 * HIST_SUB];  /* hist_table */
  uint64_t hist[ANALYZE_HIST_BINS]; /* measured I/Os with status 0, every op */
  unsigned want;
  struct op_acc op[NOPS];
  struct analyze_pct *all;
  uint64_t first_submit, last_done, measured, ramp, bad_op;
  int any;
  uint64_t rec_no;        /* records read by pass 1 (0-based index of the next one) */
  uint64_t max_done_ns;   /* completion times beyond this are impossible (0 = unknown) */
  uint64_t interval_ns, gib_step_bytes, fine_step_bytes; /* units of the bins and of the fill trace */
  uint64_t sfine_ns;      /* unit of the fine time series (WANT_SERIES_FINE) */
  int binned;             /* some record reached the bins: the key spans below are set */
  uint64_t done_lo, done_hi, off_lo, off_hi; /* span of the binned keys' values */
  int narrowed; /* a short fill's series got a finer interval (narrow_unit) */
  struct analyze_bins *series, *gib, *sfine;
  /* the fill trace the SLC estimate runs on, in completion order as the
   * online watch builds it (base/filltrace.c) */
  struct ssdrev_fill_trace ft;
  uint64_t lat_buf[NOPS][SSDLOG_CHUNK_MAX_RECORDS];
};

static void ctx_free(struct log_ctx *c) {
  if (!c) return;
  for (unsigned i = 0; i < NOPS; i++) analyze_pct_free(c->op[i].pct);
  analyze_pct_free(c->all);
  if (c->series) analyze_bins_release(c->series);
  if (c->gib) analyze_bins_release(c->gib);
  ssdrev_fill_trace_free(&c->ft);
  if (c->sfine) analyze_bins_release(c->sfine);
  free(c->sfine);
  free(c->series);
  free(c->gib);
  free(c);
}

/* Sets err for a record no run can produce (ssdlog_rec_check, the rule the
 * fio log converter applies too), naming the file, the record (0-based, in
 * reading order) and the chunk; the analysis is refused rather than binned
 * over a span of centuries. */
static int check_record(struct log_ctx *c, const struct ssdlog_chunk *k, size_t i,
                        struct ssdrev_err *err) {
  char why[256];
  if (!ssdlog_rec_check(k->submit_ns[i], k->lat_ns[i], k->offset_bytes != NULL,
                        k->offset_bytes ? k->offset_bytes[i] : 0, k->len_bytes[i], c->max_done_ns, why, sizeof why))
    return 0;
  return ssdrev_fail(err, -EINVAL, "impossible record %llu in '%s' (chunk at byte %llu): %s",
                     (unsigned long long)(c->rec_no + i), c->path, (unsigned long long)k->file_offset, why);
}

/* Adds one measured record to the bins in `mask`. */
static void feed_bins(struct log_ctx *c, unsigned mask, const struct ssdlog_chunk *k, size_t i) {
  uint64_t sub = k->submit_ns[i], lat = k->lat_ns[i], done = sub + lat, len = k->len_bytes[i];
  if ((mask & FEED_SERIES) && c->series) analyze_bins_add(c->series, done / c->interval_ns, lat, len, sub, done);
  if ((mask & FEED_SFINE) && c->sfine) analyze_bins_add(c->sfine, done / c->sfine_ns, lat, len, sub, done);
  if (c->gib) {
    uint64_t off = k->offset_bytes[i];
    if (mask & FEED_GIB) analyze_bins_add(c->gib, off / c->gib_step_bytes, lat, len, sub, done);
  }
}

static int pass1_chunk(struct log_ctx *c, const struct ssdlog_chunk *k, struct ssdrev_err *err) {
  size_t nb[NOPS] = {0};
  for (size_t i = 0; i < k->n; i++) {
    int rc = check_record(c, k, i, err);
    if (rc) return rc;
  }
  c->rec_no += k->n;
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
    c->hist[hist_bin(c->hist_edge, c->hist_tab, lat)]++;
    uint64_t off = k->offset_bytes ? k->offset_bytes[i] : 0;
    if (!c->binned || done < c->done_lo) c->done_lo = done;
    if (!c->binned || off < c->off_lo) c->off_lo = off;
    if (done > c->done_hi) c->done_hi = done;
    if (off > c->off_hi) c->off_hi = off;
    c->binned = 1;
    feed_bins(c, FEED_SERIES | FEED_GIB | FEED_SFINE, k, i);
    if (c->gib) ssdrev_fill_trace_add(&c->ft, len, sub, done); /* out of memory: seen in fill_json */
  }
  for (unsigned op = 0; op < NOPS; op++)
    if (nb[op]) analyze_pct_add(c->op[op].pct, c->lat_buf[op], nb[op]);
  return 0;
}

/* Rebinning pass: the bins in `mask` again, after their unit was widened. */
static void rebin_chunk(struct log_ctx *c, const struct ssdlog_chunk *k, unsigned mask) {
  for (size_t i = 0; i < k->n; i++) {
    unsigned op = k->op[i];
    if (op >= NOPS || !ssdlog_measured(k->flags[i], k->status[i])) continue;
    feed_bins(c, mask, k, i);
  }
}

/* Refinement pass: the same filter, feeding every accumulator that asked. */
static void refine_chunk(struct log_ctx *c, const struct ssdlog_chunk *k, const int *need,
                         int need_all) {
  size_t nb[NOPS] = {0};
  for (size_t i = 0; i < k->n; i++) {
    unsigned op = k->op[i];
    if (op >= NOPS || !ssdlog_measured(k->flags[i], k->status[i])) continue;
    c->lat_buf[op][nb[op]++] = k->lat_ns[i];
  }
  for (unsigned op = 0; op < NOPS; op++) {
    if (!nb[op]) continue;
    if (need[op]) analyze_pct_refine_add(c->op[op].pct, c->lat_buf[op], nb[op]);
    if (need_all) analyze_pct_refine_add(c->all, c->lat_buf[op], nb[op]);
  }
}

/* pass 1: stats and bins; 2: percentile refinement (need, need_all);
 * 3: rebinning (need[0] = the FEED_* mask). */
static int read_all(struct ssdlog_reader *r, unsigned cols, struct log_ctx *c, int pass,
                    const int *need, int need_all, struct ssdrev_err *err) {
  struct ssdlog_chunk k;
  int rc;
  while ((rc = ssdlog_next_chunk(r, cols, &k, err)) > 0) {
    if (pass == 1) {
      int e = pass1_chunk(c, &k, err);
      if (e) return e;
    } else if (pass == 2) {
      refine_chunk(c, &k, need, need_all);
    } else {
      rebin_chunk(c, &k, (unsigned)need[0]);
    }
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
  /* the exact sum over the count: the mean lies in [min, max] whatever the values */
  double mean = a->ios ? (double)((long double)a->lat_sum / (long double)a->ios) : 0;
  if (a->ios && mean < (double)a->lat_min) mean = (double)a->lat_min; /* rounding of the last digit */
  if (a->ios && mean > (double)a->lat_max) mean = (double)a->lat_max;
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

static json_t *series_json(const struct analyze_bins *b, uint64_t ins, double requested_s, uint64_t first_submit,
                           uint64_t last_done) {
  json_t *o = json_object(), *t = json_array(), *mb = json_array(), *io = json_array(),
         *lm = json_array(), *p50 = json_array(), *p99 = json_array(), *p999 = b->exact ? json_array() : NULL;
  double interval_s = (double)ins / 1e9;
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
    if (p999) json_array_append_new(p999, analyze_json_real(x->p999_ns / 1e3, 3));
  }
  json_object_set_new(o, "interval_s", json_real(interval_s));
  if (requested_s > 0) json_object_set_new(o, "interval_requested_s", json_real(requested_s));
  json_object_set_new(o, "t_s", t);
  json_object_set_new(o, "mb_s", mb);
  json_object_set_new(o, "iops", io);
  json_object_set_new(o, "lat_mean_us", lm);
  json_object_set_new(o, "p50_us", p50);
  json_object_set_new(o, "p99_us", p99);
  if (p999) json_object_set_new(o, "p99_9_us", p999);
  json_object_set_new(o, "p_note", json_string(b->exact ? "interval percentiles exact (nearest rank, as numpy's inverted_cdf)"
                                                        : "interval percentiles from a log-linear histogram, within 1.6%"));
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
  if (c->ft.oom) return ssdrev_fail(err, -ENOMEM, "out of memory building the fill trace");
  size_t n = c->gib->nout > c->ft.n ? c->gib->nout : c->ft.n;
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
  /* widened (more than BINS_MAX GiB steps) or narrowed (a fill of less
   * than FILL_GIB_MIN_POINTS GiB) */
  if (c->gib_step_bytes != (1ull << 30))
    json_object_set_new(pg, "step_gib", analyze_json_real((double)c->gib_step_bytes / GIB, 6));
  json_object_set_new(fill, "per_gib", pg);
  k = c->ft.n;
  if (k) {
    memcpy(g, c->ft.gib, k * sizeof *g);
    memcpy(m, c->ft.mb_s, k * sizeof *m);
  }
  /* the estimate runs on the fill trace (its resolution follows the data:
   * 4 MiB steps are 32 I/Os of a 128 KiB fill); the stored trace merges
   * them into at most TRACE_OUT_MAX points (bytes and times add) */
  double seg = c->o->slc_min_seg_gib > 0 ? c->o->slc_min_seg_gib : 0;
  struct ssdrev_slc slc;
  struct ssdrev_err e2;
  int have_slc = k >= 2 && analyze_slc_estimate(g, m, k, seg, &slc, &e2) == 0;
  size_t merge = 1;
  while ((k + merge - 1) / merge > TRACE_OUT_MAX) merge *= 2;
  size_t ko = 0;
  for (size_t a = 0; a < k; a += merge, ko++) {
    size_t b = a + merge < k ? a + merge : k;
    double g0 = a ? g[a - 1] : 0, t = 0;
    for (size_t i = a; i < b; i++) {
      double dg = g[i] - (i ? g[i - 1] : g0);
      if (m[i] > 0) t += dg / m[i];
    }
    double gend = g[b - 1];
    m[ko] = t > 0 ? (gend - g0) / t : 0;
    g[ko] = gend;
  }
  json_t *fine = json_object();
  json_object_set_new(fine, "step_gib", analyze_json_real((double)c->ft.step_bytes * (double)merge / GIB, 6));
  json_object_set_new(fine, "gib", darr(g, ko, 4));
  json_object_set_new(fine, "mb_s", darr(m, ko, 2));
  json_object_set_new(fill, "trace", fine);
  if (have_slc) json_object_set_new(fill, "slc", analyze_slc_to_json(&slc, seg));
  free(g), free(m), free(lm), free(lp);
  json_object_set_new(res, "fill", fill);
  return 0;
}

/* Times at which the cumulative bytes reach k x step (k = 1..), by linear
 * interpolation inside each window of a rate trace; returns the count. */
static size_t rate_resample(const double *t_s, const double *mb_s, size_t n, double first_s, double step_bytes,
                            double *gib, double *out_mb_s, size_t max) {
  double b0 = 0, t0 = n ? t_s[0] - first_s : 0, next = step_bytes, tprev = t0;
  size_t k = 0;
  for (size_t i = 0; i < n && k < max; i++) {
    double ts = i ? t_s[i - 1] : t0, dt = t_s[i] - ts, b1 = b0 + (mb_s[i] > 0 && dt > 0 ? mb_s[i] * 1e6 * dt : 0);
    while (b1 >= next && k < max) {
      double tn = ts + (b1 > b0 ? (next - b0) / (b1 - b0) : 1) * dt;
      gib[k] = next / GIB;
      out_mb_s[k] = tn > tprev ? step_bytes / (tn - tprev) / 1e6 : 0;
      tprev = tn;
      next += step_bytes;
      k++;
    }
    b0 = b1;
  }
  return k;
}

int analyze_rate_fill(const double *t_s, const double *mb_s, size_t n, double first_s, const struct analyze_opts *o,
                      json_t **out, struct ssdrev_err *err) {
  *out = NULL;
  double total = 0;
  for (size_t i = 0; i < n; i++) {
    double dt = t_s[i] - (i ? t_s[i - 1] : t_s[0] - first_s);
    if (!isfinite(t_s[i]) || !isfinite(mb_s[i]) || mb_s[i] < 0 || dt < 0)
      return ssdrev_fail(err, -EINVAL, "bad rate trace at point %zu: times must increase, speeds be >= 0", i);
    total += mb_s[i] * 1e6 * dt;
  }
  /* 2^62 bytes (4 EiB) is no fill: a hostile trace must not size the arrays */
  if (!(total < 4.6e18)) return ssdrev_fail(err, -EINVAL, "bad rate trace: %g bytes written is beyond 2^62", total);
  double step = (o && o->fill_step_gib > 0 ? o->fill_step_gib : FILL_STEP_GIB) * GIB;
  if (total / step > BINS_MAX) step = total / BINS_MAX;
  size_t max = (size_t)(total / step) + 2;
  double *g = calloc(max, sizeof *g), *m = calloc(max, sizeof *m);
  if (!g || !m) {
    free(g), free(m);
    return ssdrev_fail(err, -ENOMEM, "out of memory building the fill trace");
  }
  json_t *fill = json_object();
  size_t k = rate_resample(t_s, mb_s, n, first_s, GIB, g, m, max);
  json_object_set_new(fill, "per_gib", json_pack("{s:o, s:o}", "gib", darr(g, k, 4), "mb_s", darr(m, k, 2)));
  k = rate_resample(t_s, mb_s, n, first_s, step, g, m, max);
  struct ssdrev_slc slc;
  struct ssdrev_err e2;
  double seg = o && o->slc_min_seg_gib > 0 ? o->slc_min_seg_gib : 0;
  int have_slc = k >= 4 && analyze_slc_estimate_ex(g, m, k, seg, 1.5 * first_s, &slc, &e2) == 0;
  size_t merge = 1;
  while ((k + merge - 1) / merge > TRACE_OUT_MAX) merge *= 2;
  size_t ko = 0;
  for (size_t a = 0; a < k; a += merge, ko++) { /* as fill_json: bytes and times add */
    size_t b = a + merge < k ? a + merge : k;
    double g0 = a ? g[a - 1] : 0, t = 0;
    for (size_t i = a; i < b; i++)
      if (m[i] > 0) t += (g[i] - (i ? g[i - 1] : 0)) / m[i];
    m[ko] = t > 0 ? (g[b - 1] - g0) / t : 0;
    g[ko] = g[b - 1];
  }
  json_object_set_new(fill, "trace", json_pack("{s:o, s:o, s:o}", "step_gib",
                                               analyze_json_real(step * (double)merge / GIB, 6), "gib",
                                               darr(g, ko, 4), "mb_s", darr(m, ko, 2)));
  if (have_slc) json_object_set_new(fill, "slc", analyze_slc_to_json(&slc, seg));
  free(g), free(m);
  *out = fill;
  return 0;
}

/* The smallest unit above `unit` (at least twice it) that keeps values in
 * [lo, hi] within BINS_MAX bins, rounded up to a power of two (`pow2`, for
 * byte steps) or to 1, 2 or 5 times a power of ten (nanoseconds). */
static uint64_t widen_unit(uint64_t unit, uint64_t lo, uint64_t hi, int pow2) {
  uint64_t need = (hi - lo) / (BINS_MAX - 2) + 1;
  if (unit <= UINT64_MAX / 2 && need < unit * 2) need = unit * 2;
  if (pow2) {
    uint64_t u = 1;
    while (u < need && u <= (1ull << 62)) u <<= 1;
    return u < need ? need : u;
  }
  for (uint64_t dec = 1; dec <= UINT64_MAX / 10; dec *= 10) {
    static const uint64_t mult[] = {1, 2, 5};
    for (unsigned i = 0; i < 3; i++)
      if (dec * mult[i] >= need) return dec * mult[i];
  }
  return need;
}

/* A fill shorter than FILL_SERIES_MIN_POINTS intervals (a small file, a
 * short region, a fast drive) would draw its speed over time as one or two
 * points: its series gets the 1, 2 or 5 x 10^k ns interval that makes at
 * least that many, never finer than FILL_SERIES_MIN_NS (1 ms, the clock of
 * an imported fio log). 0 when the unit stays. */
#define FILL_SERIES_MIN_POINTS 50
#define FILL_SERIES_MIN_NS 1000000ull
static uint64_t narrow_unit(uint64_t unit, uint64_t lo, uint64_t hi) {
  uint64_t span = hi - lo, want = span / FILL_SERIES_MIN_POINTS;
  if (span / unit >= FILL_SERIES_MIN_POINTS || want < FILL_SERIES_MIN_NS) want = FILL_SERIES_MIN_NS;
  uint64_t best = 0;
  for (uint64_t dec = 1; dec <= UINT64_MAX / 10 && dec <= want; dec *= 10) {
    static const uint64_t mult[] = {1, 2, 5};
    for (unsigned i = 0; i < 3; i++)
      if (dec * mult[i] <= want) best = dec * mult[i];
  }
  return best >= FILL_SERIES_MIN_NS && best < unit && span / unit < FILL_SERIES_MIN_POINTS ? best : 0;
}

/* The same for the per-GiB trace of a fill smaller than FILL_GIB_MIN_POINTS
 * GiB (a short region, a small file): the power-of-two step that gives at
 * least that many points, never finer than the fine trace's step. 0 when
 * the step stays. */
#define FILL_GIB_MIN_POINTS 16
/* ...and, for a fill of 1 GiB or more, never below 128 MiB (issue 27; 8 to
 * 16 points then): a bin's p99 latency needs enough
 * writes (at 128 KiB per write, 1,024 of them, so the p99 rests on at least
 * 10 writes beyond it, ANALYZE_PCT_MIN_SAMPLES); a narrower bin's p99 rests
 * on a handful and beats against anything periodic in the drive (1/16 GiB
 * bins of a short fill drew a false p99 sawtooth, bins with a stall and
 * bins without one). The SLC estimate keeps its fine trace. */
#define FILL_GIB_MIN_STEP (128ull << 20)
static uint64_t narrow_step(uint64_t step, uint64_t floor_step, uint64_t lo, uint64_t hi) {
  uint64_t span = hi - lo;
  if (span / step >= FILL_GIB_MIN_POINTS) return 0;
  uint64_t u = step;
  while (u > floor_step && span / u < FILL_GIB_MIN_POINTS) u >>= 1;
  if (u < floor_step) u = floor_step;
  return u < step ? u : 0;
}

static void bins_reset(struct analyze_bins *b) {
  int sparse = b->sparse, exact = b->exact;
  uint64_t gap = b->gap_max;
  analyze_bins_release(b);
  analyze_bins_init(b);
  b->sparse = sparse;
  b->gap_max = gap;
  b->exact = exact;
}

/* Bins that overflowed (more than BINS_MAX bins) get a wider unit and one
 * more pass over the log; `widened` says which (FEED_* bits). */
static int rebin_overflowed(struct ssdlog_reader *r, struct log_ctx *c, unsigned cols, unsigned *widened,
                            struct ssdrev_err *err) {
  unsigned mask = 0;
  uint64_t fine = c->series && c->gib && c->binned ? narrow_unit(c->interval_ns, c->done_lo, c->done_hi) : 0;
  if (c->series && c->series->overflow) {
    c->interval_ns = widen_unit(c->interval_ns, c->done_lo, c->done_hi, 0);
    bins_reset(c->series);
    mask |= FEED_SERIES;
  } else if (fine) {
    c->interval_ns = fine;
    bins_reset(c->series);
    mask |= FEED_SERIES;
    c->narrowed = 1;
  }
  uint64_t gfloor = c->fine_step_bytes;
  if (c->off_hi - c->off_lo >= 8 * FILL_GIB_MIN_STEP && gfloor < FILL_GIB_MIN_STEP) gfloor = FILL_GIB_MIN_STEP;
  uint64_t gstep = c->gib && c->binned ? narrow_step(c->gib_step_bytes, gfloor, c->off_lo, c->off_hi) : 0;
  if (c->gib && c->gib->overflow) {
    c->gib_step_bytes = widen_unit(c->gib_step_bytes, c->off_lo, c->off_hi, 1);
    bins_reset(c->gib);
    mask |= FEED_GIB;
  } else if (gstep) {
    c->gib_step_bytes = gstep;
    bins_reset(c->gib);
    mask |= FEED_GIB;
  }
  if (c->sfine && c->sfine->overflow) {
    c->sfine_ns = widen_unit(c->sfine_ns, c->done_lo, c->done_hi, 0);
    bins_reset(c->sfine);
    mask |= FEED_SFINE;
  }
  *widened = mask;
  if (!mask) return 0;
  int rc = ssdlog_rewind(r, err);
  if (rc) return rc;
  int need[NOPS] = {(int)mask};
  rc = read_all(r, cols, c, 3, need, 0, err);
  if (rc < 0) return rc;
  struct analyze_bins *all[] = {c->series, c->gib, NULL, c->sfine};
  for (unsigned i = 0; i < 4; i++) {
    if (!all[i] || !(mask & (1u << i))) continue;
    rc = analyze_bins_finish(all[i]);
    if (rc) return rc;
    if (all[i]->overflow) /* cannot happen: the unit was chosen from the span */
      return ssdrev_fail(err, -E2BIG, "too many bins analyzing '%s' even after widening", c->path);
  }
  return 0;
}

/* {"per_decade": 20, "lo_us": 1, "first_bin": F, "counts": [...]}: the
 * bins from the first to the last non-empty one (docs/archive.md). */
static json_t *hist_json(const uint64_t *h) {
  int first = 0, last = -1;
  for (int b = 0; b < ANALYZE_HIST_BINS; b++)
    if (h[b]) {
      if (last < 0) first = b;
      last = b;
    }
  json_t *counts = json_array();
  for (int b = first; b <= last; b++) json_array_append_new(counts, json_integer((json_int_t)h[b]));
  return json_pack("{s:i, s:i, s:i, s:o}", "per_decade", ANALYZE_HIST_PER_DECADE, "lo_us", 1, "first_bin", first,
                   "counts", counts);
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
  c->path = path;
  c->want = want;
  c->gib_step_bytes = 1ull << 30;
  hist_edges(c->hist_edge);
  hist_table(c->hist_edge, c->hist_tab);
  int rc = 0;
  for (unsigned i = 0; i < NOPS && !rc; i++) rc = analyze_pct_new(&c->op[i].pct);
  if (!rc) rc = analyze_pct_new(&c->all);
  /* units are clamped below 2^63 before the casts (a hostile --interval 1e30) */
  double ins = (o->interval_s > 0 ? o->interval_s : 1.0) * 1e9;
  c->interval_ns = ins < 9e18 ? (uint64_t)ins : (uint64_t)9e18;
  if (c->interval_ns == 0) c->interval_ns = 1;
  double step = (o->fill_step_gib > 0 ? o->fill_step_gib : FILL_STEP_GIB) * GIB;
  c->fine_step_bytes = step < 9e18 ? (uint64_t)step : (uint64_t)9e18;
  if (!c->fine_step_bytes) c->fine_step_bytes = 1;
  if (!rc && (want & ANALYZE_WANT_SERIES) && !(c->series = calloc(1, sizeof *c->series))) rc = -ENOMEM;
  if (!rc && (want & ANALYZE_WANT_SERIES_FINE) && !(c->sfine = calloc(1, sizeof *c->sfine))) rc = -ENOMEM;
  double fins = (o->fine_interval_s > 0 ? o->fine_interval_s : 0.1) * 1e9;
  c->sfine_ns = fins < 9e18 ? (uint64_t)fins : (uint64_t)9e18;
  if (c->sfine_ns == 0) c->sfine_ns = 1;
  if (!rc && (want & ANALYZE_WANT_FILL) &&
      !(c->gib = calloc(1, sizeof *c->gib)))
    rc = -ENOMEM;
  if (rc) {
    ctx_free(c);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  /* the fill trace is keyed by offset: an empty stretch (a far offset) is
   * nothing to plot, so it costs nothing */
  if (c->gib) c->gib->sparse = 1;
  ssdrev_fill_trace_init(&c->ft, c->fine_step_bytes);
  if (c->series) c->series->gap_max = SERIES_GAP_MAX;
  if (c->sfine) c->sfine->gap_max = SERIES_GAP_MAX;
  if (c->series) c->series->exact = !!(want & ANALYZE_WANT_SERIES_EXACT);
  if (c->sfine) c->sfine->exact = !!(want & ANALYZE_WANT_SERIES_EXACT);
  struct ssdlog_reader *r = NULL;
  rc = ssdlog_open(&r, path, o->salvage ? SSDLOG_SALVAGE : 0, err);
  if (rc) {
    ctx_free(c);
    return rc;
  }
  unsigned cols = SSDLOG_COL_SUBMIT | SSDLOG_COL_LAT | SSDLOG_COL_LEN | SSDLOG_COL_STATUS | SSDLOG_COL_OP |
                  SSDLOG_COL_FLAGS;
  if (want & ANALYZE_WANT_FILL) cols |= SSDLOG_COL_OFFSET;
  const struct ssdlog_header *hdr = ssdlog_get_header(r);
  c->max_done_ns = ssdlog_params_max_done_ns(hdr ? hdr->params_json : NULL);
  unsigned widened = 0;
  rc = read_all(r, cols, c, 1, NULL, 0, err);
  if (rc >= 0) rc = solve_pcts(r, c, err);
  if (rc >= 0 && c->series) rc = analyze_bins_finish(c->series);
  if (rc >= 0 && c->gib) rc = analyze_bins_finish(c->gib);
  if (rc >= 0 && c->sfine) rc = analyze_bins_finish(c->sfine);
  if (rc >= 0) rc = rebin_overflowed(r, c, cols, &widened, err);
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
  json_object_set_new(res, "hist", hist_json(c->hist));
  if (c->series) {
    double req_s = o->interval_s > 0 ? o->interval_s : 1.0;
    json_object_set_new(res, "series", series_json(c->series, c->interval_ns,
                                                   (widened & FEED_SERIES) || c->narrowed ? req_s : 0, c->first_submit,
                                                   c->last_done));
    if ((widened & FEED_SERIES) && !c->narrowed)
      json_array_append_new(warnings, json_sprintf("series interval widened from %g s to %g s: the data's %.9g s "
                                                   "would need more than %u intervals",
                                                   req_s, (double)c->interval_ns / 1e9,
                                                   (double)(c->done_hi - c->done_lo) / 1e9, BINS_MAX));
    if (c->sfine) {
      double fq = o->fine_interval_s > 0 ? o->fine_interval_s : 0.1;
      json_object_set_new(res, "series_fine", series_json(c->sfine, c->sfine_ns, (widened & FEED_SFINE) ? fq : 0,
                                                          c->first_submit, c->last_done));
    }
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
  if (c->gib && c->measured > 1 && c->off_hi == c->off_lo) {
    /* every I/O at one offset: nothing to plot against GiB written */
    const char *why = "no fill trace: every I/O of the log is at one offset (a fio log without log_offset of a "
                      "job that is not sequential?)";
    json_array_append_new(warnings, json_string(why));
    json_object_set_new(json_object_get(res, "fill"), "why_no_trace", json_string(why));
    json_object_del(json_object_get(res, "fill"), "slc");
  }
  if (c->gib && (c->ft.step_bytes != c->fine_step_bytes || ((widened & FEED_GIB) && c->gib_step_bytes > (1ull << 30))))
    json_array_append_new(warnings, json_sprintf("fill trace steps widened to %g GiB (per-GiB points) and %g GiB "
                                                 "(trace): the offsets span more than %u steps, or the trace more "
                                                 "than 2^22",
                                                 (double)c->gib_step_bytes / GIB, (double)c->ft.step_bytes / GIB,
                                                 BINS_MAX));
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
