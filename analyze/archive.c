/* archive.c — analyze_run: every test of a run archive through analyze_log,
 * then the review-level aggregates (CDM table, fill/SLC, RW sweep, tail,
 * temperature), the flags, and DIR/analysis.json written atomically. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analyze/analyze_int.h"
#include "archive/archive.h"
#include "bench/bench.h"

/* Manifest test keys that are not copied into the analysis entry. */
static const char *const skip_keys[] = {"name", "params", "log", "result", "start", "end", "samples", "bw_trace",
                                        "sensor_samples", NULL};

static int skipped(const char *k) {
  for (const char *const *s = skip_keys; *s; s++)
    if (!strcmp(*s, k)) return 1;
  return 0;
}

static const json_t *all_stats(const json_t *entry, const char *op) {
  return json_object_get(json_object_get(entry, "ops"), op);
}

/* Block size of a test: params.block_bytes, else parsed from a CDM cell
 * name ("RND4K", "SEQ1M", "SEQ128K"); 0 when unknown. */
static double block_bytes(const json_t *test) {
  double b = analyze_json_num(json_object_get(test, "params"), "block_bytes", 0);
  if (b > 0) return b;
  const char *cell = analyze_json_str(test, "cell");
  if (!cell) return 0;
  const char *p = cell;
  while (*p && (*p < '0' || *p > '9')) p++;
  char *end;
  double v = strtod(p, &end);
  if (end == p) return 0;
  if (*end == 'K') return v * 1024;
  if (*end == 'M') return v * 1048576;
  return 0;
}

/* ------------------------------------------------------------- CDM table */

struct cdm_cell {
  const char *state, *profile, *cell;
  json_t *row;
};

/* Folds one pass into row[op]: max MB/s, min mean latency, pass count. */
static void cdm_fold(json_t *row, const char *op, double mb_s, double lat_us, double bs, double iops_in,
                     const json_t *text) {
  json_t *o = json_object_get(row, op);
  if (!o) {
    o = json_object();
    json_object_set_new(o, "mb_s", json_real(-1));
    json_object_set_new(o, "iops", json_real(0));
    json_object_set_new(o, "lat_us", json_real(-1));
    json_object_set_new(o, "passes", json_integer(0));
    json_object_set_new(row, op, o);
  }
  double cur = analyze_json_num(o, "mb_s", -1), lat = analyze_json_num(o, "lat_us", -1);
  if (mb_s > cur) {
    json_object_set_new(o, "mb_s", analyze_json_real(mb_s, 2));
    /* IOPS as CrystalDiskMark: MB/s * 1e6 / block size; an imported
     * CrystalDiskMark value as its file gave it */
    double iops = iops_in > 0 ? iops_in : bs > 0 ? mb_s * 1e6 / bs : 0;
    json_object_set_new(o, "iops", analyze_json_real(iops, 2));
    if (json_is_object(text)) json_object_set(o, "text", (json_t *)text);
    else json_object_del(o, "text");
  }
  if (lat_us >= 0 && (lat < 0 || lat_us < lat)) json_object_set_new(o, "lat_us", analyze_json_real(lat_us, 2));
  json_object_set_new(o, "passes", json_integer(json_integer_value(json_object_get(o, "passes")) + 1));
}

static void cdm_add(json_t *cdm, json_t *idx, const json_t *test, const json_t *entry) {
  const char *state = analyze_json_str(test, "state"), *profile = analyze_json_str(test, "profile"), *cell = analyze_json_str(test, "cell"),
             *op = analyze_json_str(test, "op");
  if (!cell || !op) return;
  if (!state) state = "FOB";
  if (!profile) profile = "default";
  /* pass 0 is CrystalDiskMark's discarded preparing run */
  const json_t *pass = json_object_get(test, "pass");
  if (json_is_integer(pass) && json_integer_value(pass) < 1) return;
  double mb_s, lat_us, iops = 0;
  const json_t *sum = json_object_get(test, "summary");
  const json_t *st = all_stats(entry, "all");
  if (st) {
    mb_s = analyze_json_num(st, "mb_s", 0);
    lat_us = analyze_json_num(st, "lat_mean_us", -1);
  } else if (sum) {
    mb_s = analyze_json_num(sum, "mb_s", 0);
    lat_us = analyze_json_num(sum, "lat_us", -1);
    iops = analyze_json_num(sum, "iops", 0);
  } else {
    return;
  }
  /* the lengths keep "a b"+"c" and "a"+"b c" apart */
  char *key = analyze_key("cdm %zu %s %zu %s %s", strlen(state), state, strlen(profile), profile, cell);
  if (!key) return;
  json_t *row = json_object_get(idx, key);
  if (!row) {
    row = json_object();
    json_object_set_new(row, "state", json_string(state));
    json_object_set_new(row, "profile", json_string(profile));
    json_object_set_new(row, "cell", json_string(cell));
    json_array_append_new(cdm, row);
    json_object_set(idx, key, row);
  }
  free(key);
  cdm_fold(row, op, mb_s, lat_us, block_bytes(test), iops, sum && !st ? json_object_get(sum, "text") : NULL);
}

/* ----------------------------------------------------------- other parts */

static json_t *pct_object(const json_t *stats) {
  json_t *o = json_object();
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(stats, "pct"), i, e) {
    char key[48];
    snprintf(key, sizeof key, "p%g_us", analyze_json_num(e, "p", 0));
    json_object_set(o, key, json_object_get(e, "lat_us"));
  }
  json_object_set(o, "ios", json_object_get(stats, "ios"));
  json_object_set(o, "mean_us", json_object_get(stats, "lat_mean_us"));
  json_object_set(o, "max_us", json_object_get(stats, "lat_max_us"));
  return o;
}

static void tail_add(json_t *tail, const json_t *test, const json_t *entry) {
  const char *w = analyze_json_str(test, "workload");
  const json_t *st = all_stats(entry, "all");
  if (!w || !st) return;
  json_t *o = pct_object(st);
  /* which latency the figures are: an imported fio log may be clat */
  if (analyze_json_str(test, "latency")) json_object_set_new(o, "latency", json_string(analyze_json_str(test, "latency")));
  /* a mix also gets its read and write tails */
  const json_t *rd = all_stats(entry, "read"), *wr = all_stats(entry, "write");
  if (rd && wr) {
    json_object_set_new(o, "read", pct_object(rd));
    json_object_set_new(o, "write", pct_object(wr));
  }
  json_object_set_new(tail, w, o);
}

static int cmp_points(const void *a, const void *b) {
  double x = analyze_json_num(*(json_t *const *)a, "read_pct", 0), y = analyze_json_num(*(json_t *const *)b, "read_pct", 0);
  return x < y ? -1 : x > y;
}

static void sweep_add(json_t *sweep, json_t *idx, const json_t *test, const json_t *entry) {
  const json_t *st = all_stats(entry, "all");
  if (!st) return;
  json_int_t qd = (json_int_t)analyze_json_num(test, "qd", analyze_json_num(json_object_get(test, "params"), "qd", 1));
  char key[40];
  snprintf(key, sizeof key, "sweep %lld", (long long)qd);
  json_t *g = json_object_get(idx, key);
  if (!g) {
    g = json_object();
    json_object_set_new(g, "qd", json_integer(qd));
    json_object_set_new(g, "points", json_array());
    json_array_append_new(sweep, g);
    json_object_set(idx, key, g);
  }
  json_t *p = json_object();
  json_object_set_new(p, "read_pct", json_real(analyze_json_num(test, "read_pct", analyze_json_num(json_object_get(test, "params"), "read_pct", 0))));
  json_object_set(p, "mb_s", json_object_get(st, "mb_s"));
  json_object_set(p, "iops", json_object_get(st, "iops"));
  const json_t *rd = all_stats(entry, "read"), *wr = all_stats(entry, "write");
  json_object_set_new(p, "read_lat_us", rd ? json_deep_copy(json_object_get(rd, "lat_mean_us")) : json_null());
  json_object_set_new(p, "write_lat_us", wr ? json_deep_copy(json_object_get(wr, "lat_mean_us")) : json_null());
  json_object_set_new(p, "lat_us", json_deep_copy(json_object_get(st, "lat_mean_us")));
  json_array_append_new(json_object_get(g, "points"), p);
}

/* Sorts a group's "points" array in place by CMP (qsort of json_t *). */
static void sort_points(json_t *pts, int (*cmp)(const void *, const void *)) {
  size_t n = json_array_size(pts);
  json_t **v = calloc(n ? n : 1, sizeof *v);
  if (!v) return; /* out of memory: left in run order */
  for (size_t k = 0; k < n; k++) v[k] = json_incref(json_array_get(pts, k));
  qsort(v, n, sizeof *v, cmp);
  json_array_clear(pts);
  for (size_t k = 0; k < n; k++) json_array_append_new(pts, v[k]);
  free(v);
}

static void sweep_sort(json_t *sweep) {
  size_t i;
  json_t *g;
  json_array_foreach(sweep, i, g) sort_points(json_object_get(g, "points"), cmp_points);
}

/* Queue-depth scaling: one point per workload and QD. */
static void qd_add(json_t *qds, json_t *idx, const json_t *test, const json_t *entry) {
  const char *w = analyze_json_str(test, "workload");
  const json_t *st = all_stats(entry, "all");
  if (!w || !st) return;
  size_t i;
  char *key = analyze_key("qd %s", w);
  if (!key) return;
  json_t *g = json_object_get(idx, key);
  if (!g) {
    g = json_pack("{s:s, s:[]}", "workload", w, "points");
    json_array_append_new(qds, g);
    json_object_set(idx, key, g);
  }
  free(key);
  double p99 = NAN;
  json_t *e;
  json_array_foreach(json_object_get(st, "pct"), i, e) if (analyze_json_num(e, "p", 0) == 99) p99 =
      analyze_json_num(e, "lat_us", NAN);
  json_t *p = json_object();
  json_object_set_new(p, "qd", json_integer((json_int_t)analyze_json_num(test, "qd", 1)));
  json_object_set(p, "iops", json_object_get(st, "iops"));
  json_object_set(p, "mb_s", json_object_get(st, "mb_s"));
  json_object_set(p, "lat_mean_us", json_object_get(st, "lat_mean_us"));
  json_object_set_new(p, "p99_us", isfinite(p99) ? json_real(p99) : json_null());
  json_array_append_new(json_object_get(g, "points"), p);
}

static int cmp_qd(const void *a, const void *b) {
  json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "qd")),
             y = json_integer_value(json_object_get(*(json_t *const *)b, "qd"));
  return x < y ? -1 : x > y;
}

/* Sorts the points by QD and marks the plateau: the lowest QD that every
 * higher QD beats by less than ANALYZE_QD_PLATEAU_GAIN (10%) in IOPS. */
static void qd_finish(json_t *qds) {
  size_t i;
  json_t *g;
  json_array_foreach(qds, i, g) {
    json_t *pts = json_object_get(g, "points");
    size_t n = json_array_size(pts);
    sort_points(pts, cmp_qd);
    double best = 0;
    for (size_t k = 0; k < n; k++) best = fmax(best, analyze_json_num(json_array_get(pts, k), "iops", 0));
    json_object_set_new(g, "max_iops", analyze_json_real(best, 1));
    /* above[k]: the best IOPS at a QD above point k's (suffix maxima: one
     * pass, not one per point) */
    double *above = calloc(n ? n : 1, sizeof *above);
    if (!above) continue;
    for (size_t k = n; k-- > 1;)
      above[k - 1] = fmax(above[k], analyze_json_num(json_array_get(pts, k), "iops", 0));
    for (size_t k = 0; k < n && best > 0; k++) {
      const json_t *pk = json_array_get(pts, k);
      if (above[k] < (1 + ANALYZE_QD_PLATEAU_GAIN) * analyze_json_num(pk, "iops", 0)) {
        json_object_set(g, "plateau_qd", json_object_get(pk, "qd"));
        json_object_set(g, "plateau_iops", json_object_get(pk, "iops"));
        break;
      }
    }
    free(above);
  }
}

static void fill_add(json_t *out, const json_t *test, const json_t *entry) {
  const json_t *f = json_object_get(entry, "fill");
  if (!f) return;
  const char *phase = analyze_json_str(test, "phase");
  if (!phase) phase = "empty";
  json_t *fill = json_object_get(out, "fill");
  if (!fill) {
    fill = json_object();
    json_object_set_new(out, "fill", fill);
  }
  const json_t *slc = json_object_get(f, "slc");
  json_t *s = json_object_get(fill, "slc");
  if (!s) {
    s = json_object();
    json_object_set_new(fill, "slc", s);
  }
  if (!strcmp(phase, "near_full")) {
    if (json_object_get(fill, "near_full")) return;
    json_t *nf = json_object();
    json_object_set_new(nf, "test", json_string(analyze_json_str(test, "name") ? analyze_json_str(test, "name") : ""));
    json_object_set(nf, "per_gib", json_object_get(f, "per_gib"));
    json_object_set(nf, "trace", json_object_get(f, "trace"));
    json_object_set(nf, "slc", json_object_get(f, "slc"));
    json_object_set_new(fill, "near_full", nf);
    if (slc && json_is_true(json_object_get(slc, "found"))) {
      json_object_set(s, "min_gib", json_object_get(slc, "cache_gib"));
      json_object_set(s, "min_confidence", json_object_get(slc, "confidence"));
    } else if (slc) {
      /* no cliff in the rewrite: either the cache lasted the whole rewrite
       * (a lower bound: at least the GiB written, when it ran at the empty
       * drive's in-cache speed) or nothing had come back after the idle */
      double v = analyze_json_num(slc, "fill_mb_s", 0), vc = analyze_json_num(s, "cache_mb_s", 0),
             vp = analyze_json_num(s, "post_cache_mb_s", 0);
      if (vc > 0 && vp > 0 && v > (vc + vp) / 2)
        json_object_set(s, "min_gib_at_least", json_object_get(slc, "written_gib"));
      else if (vc > 0 && vp > 0)
        json_object_set_new(s, "min_gib_recovered", json_real(0));
    }
    return;
  }
  if (json_object_get(fill, "phase")) return; /* the first empty-drive fill wins */
  json_object_set_new(fill, "phase", json_string(phase));
  json_object_set_new(fill, "test", json_string(analyze_json_str(test, "name") ? analyze_json_str(test, "name") : ""));
  json_object_set(fill, "per_gib", json_object_get(f, "per_gib"));
  json_object_set(fill, "trace", json_object_get(f, "trace"));
  const json_t *ser = json_object_get(entry, "series");
  json_t *ps = json_object();
  json_object_set(ps, "t_s", json_object_get(ser, "t_s"));
  json_object_set(ps, "mb_s", json_object_get(ser, "mb_s"));
  json_object_set_new(fill, "per_sec", ps);
  if (slc) {
    json_object_set_new(s, "found", json_deep_copy(json_object_get(slc, "found")));
    json_object_set(s, "max_gib", json_object_get(slc, "cache_gib"));
    json_object_set(s, "cache_mb_s", json_object_get(slc, "cache_mb_s"));
    json_object_set(s, "post_cache_mb_s", json_object_get(slc, "post_cache_mb_s"));
    json_object_set(s, "post_first_mb_s", json_object_get(slc, "post_first_mb_s"));
    if (json_object_get(slc, "fill_mb_s")) json_object_set(s, "fill_mb_s", json_object_get(slc, "fill_mb_s"));
    json_object_set(s, "drops", json_object_get(slc, "drops"));
    json_object_set(s, "levels", json_object_get(slc, "levels"));
    json_object_set(s, "drop_z", json_object_get(slc, "drop_z"));
    json_object_set(s, "resolution_gib", json_object_get(slc, "resolution_gib"));
    json_object_set(s, "confidence", json_object_get(slc, "confidence"));
    json_object_set(s, "method", json_object_get(slc, "method"));
  }
}

/* A test the method's sections cannot use (kind "job"): one row of the
 * generic jobs table, with which latency its figures are. */
static void job_add(json_t *jobs, const json_t *test, const json_t *entry) {
  const json_t *st = all_stats(entry, "all");
  if (!st) return;
  const json_t *p = json_object_get(test, "params");
  json_t *row = json_object();
  json_object_set_new(row, "test", json_string(analyze_json_str(test, "name") ? analyze_json_str(test, "name") : "?"));
  static const char *const pkeys[] = {"pattern", "read_pct", "block_bytes", "qd", "threads"};
  for (size_t k = 0; k < sizeof pkeys / sizeof pkeys[0]; k++)
    if (json_object_get(p, pkeys[k])) json_object_set(row, pkeys[k], json_object_get(p, pkeys[k]));
  json_object_set_new(row, "latency", json_string(analyze_json_str(test, "latency") ? analyze_json_str(test, "latency") : "lat"));
  json_object_set_new(row, "all", pct_object(st));
  json_object_set(json_object_get(row, "all"), "mb_s", json_object_get(st, "mb_s"));
  json_object_set(json_object_get(row, "all"), "iops", json_object_get(st, "iops"));
  json_array_append_new(jobs, row);
}

/* The review-level aggregates a test of each kind feeds. */
struct aggs {
  json_t *a, *cdm, *sweep, *tail, *jobs, *qds;
  /* the groups by key ("cdm ...", "sweep QD", "qd WORKLOAD"), so that each
   * test finds its row or group in O(1): a scan of them per test made a
   * manifest of 100,000 tests take minutes (quadratic) */
  json_t *idx;
};
static void agg_cdm(struct aggs *g, const json_t *t, const json_t *e) { cdm_add(g->cdm, g->idx, t, e); }
static void agg_tail(struct aggs *g, const json_t *t, const json_t *e) { tail_add(g->tail, t, e); }
static void agg_sweep(struct aggs *g, const json_t *t, const json_t *e) { sweep_add(g->sweep, g->idx, t, e); }
static void agg_fill(struct aggs *g, const json_t *t, const json_t *e) { fill_add(g->a, t, e); }
static void agg_job(struct aggs *g, const json_t *t, const json_t *e) { job_add(g->jobs, t, e); }
static void agg_qd(struct aggs *g, const json_t *t, const json_t *e) { qd_add(g->qds, g->idx, t, e); }
static void agg_thermal(struct aggs *g, const json_t *t, const json_t *e) {
  json_t *th = json_object_get(g->a, "thermal");
  if (!th) json_object_set_new(g->a, "thermal", th = json_array());
  json_array_append_new(th, analyze_thermal(t, e, json_object_get(g->a, "dut")));
}
static void agg_write_volume(struct aggs *g, const json_t *t, const json_t *e) { analyze_write_volume_add(g->a, t, e); }
static void agg_steady(struct aggs *g, const json_t *t, const json_t *e) { analyze_steady_add(g->a, t, e); }
static void agg_consistency(struct aggs *g, const json_t *t, const json_t *e) { analyze_consistency_add(g->a, t, e); }
static void agg_recovery(struct aggs *g, const json_t *t, const json_t *e) { analyze_recovery_add(g->a, t, e); }

static const struct {
  const char *kind; /* a row of bench_test_kind_find's table */
  void (*add)(struct aggs *g, const json_t *test, const json_t *entry);
} aggregators[] = {
    {"cdm", agg_cdm}, {"tail", agg_tail}, {"rw_sweep", agg_sweep}, {"fill_drive", agg_fill}, {"job", agg_job},
    {"qd_scaling", agg_qd},
    {"thermal", agg_thermal},
    {"*", agg_write_volume}, /* every test, in run order (analyze/steady.c) */
    {"steady_state", agg_steady}, {"consistency", agg_consistency},
    {"cache_recovery", agg_recovery},
};

/* Temperature tests (one per review step) are joined into one series, each
 * step's samples shifted to start where the previous step's ended; the
 * per-step series are kept under "steps". */
static void temperature_add(json_t *out, const json_t *test) {
  json_t *o = json_object_get(out, "temperature");
  if (!o) {
    o = json_pack("{s:[], s:[], s:{}}", "t_s", "c", "steps");
    json_object_set_new(out, "temperature", o);
  }
  json_t *t = json_object_get(o, "t_s"), *c = json_object_get(o, "c");
  size_t nt = json_array_size(t);
  double off = nt ? json_number_value(json_array_get(t, nt - 1)) : 0;
  json_t *st = json_pack("{s:[], s:[]}", "t_s", "c");
  size_t i;
  json_t *s;
  json_array_foreach(json_object_get(test, "samples"), i, s) {
    if (json_array_size(s) < 2 || !json_is_number(json_array_get(s, 0)) || !json_is_number(json_array_get(s, 1)))
      continue;
    double ts = json_number_value(json_array_get(s, 0));
    json_array_append_new(t, analyze_json_real(off + ts, 3));
    json_array_append(c, json_array_get(s, 1));
    json_array_append_new(json_object_get(st, "t_s"), analyze_json_real(ts, 3));
    json_array_append(json_object_get(st, "c"), json_array_get(s, 1));
  }
  const char *key = analyze_json_str(test, "step") ? analyze_json_str(test, "step") : analyze_json_str(test, "name");
  json_object_set_new(json_object_get(o, "steps"), key ? key : "?", st);
}

/* A test with a rate trace and no log (an imported fio bandwidth log
 * averaged over windows): its fill and series from the trace. */
static json_t *rate_entry(json_t *entry, const json_t *test, const struct analyze_opts *o) {
  const json_t *bt = json_object_get(test, "bw_trace"), *jt = json_object_get(bt, "t_s"), *jm = json_object_get(bt, "mb_s");
  size_t n = json_array_size(jt) < json_array_size(jm) ? json_array_size(jt) : json_array_size(jm);
  double *t = calloc(n ? n : 1, sizeof *t), *m = calloc(n ? n : 1, sizeof *m);
  json_t *fill = NULL;
  struct ssdrev_err e = {{0}};
  int rc = t && m ? 0 : ssdrev_fail(&e, -ENOMEM, "out of memory");
  for (size_t i = 0; !rc && i < n; i++) {
    t[i] = json_number_value(json_array_get(jt, i));
    m[i] = json_number_value(json_array_get(jm, i));
  }
  if (!rc) rc = analyze_rate_fill(t, m, n, analyze_json_num(bt, "interval_ms", 1000) / 1e3, o, &fill, &e);
  free(t), free(m);
  if (rc) {
    json_object_set_new(entry, "error", json_sprintf("cannot analyze the bandwidth trace: %s", e.msg));
    return entry;
  }
  json_object_set_new(fill, "source", json_string("bandwidth log (windows of interval_ms): no per-I/O latency"));
  json_object_set_new(entry, "fill", fill);
  json_object_set_new(entry, "series", json_pack("{s:O, s:O}", "t_s", jt, "mb_s", jm));
  return entry;
}

/* The drive's write amplification over a test (NAND over host bytes
 * written, its own counters, docs/sim-model.md): only where the record has
 * both and the host wrote something; imports and drives without them get
 * none. */
static void write_amp_add(json_t *entry, const json_t *test) {
  const json_t *c = json_object_get(test, "drive_counters");
  const json_t *h = json_object_get(c, "host_write_bytes"), *n = json_object_get(c, "nand_write_bytes");
  if (!json_is_number(h) || !json_is_number(n)) return;
  double hb = json_number_value(h), nb = json_number_value(n);
  if (!(hb > 0) || !(nb >= 0) || !isfinite(nb / hb)) return;
  json_object_set_new(entry, "write_amplification", analyze_json_real(nb / hb, 3));
}

/* Analyzes one test into a new entry (never fails the run: a missing or
 * unreadable log becomes an "error" in the entry). */
static json_t *test_entry(const struct archive *run, const json_t *test, const struct analyze_opts *o) {
  json_t *entry = json_object();
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)test, k, v) {
    if (!skipped(k)) json_object_set(entry, k, v);
  }
  write_amp_add(entry, test);
  double bs = block_bytes(test);
  if (bs > 0) json_object_set_new(entry, "block_bytes", json_integer((json_int_t)bs));
  const char *log = analyze_json_str(test, "log");
  const struct bench_test_kind *tk = bench_test_kind_find(analyze_json_str(test, "kind"));
  if (!log && json_is_object(json_object_get(test, "bw_trace"))) return rate_entry(entry, test, o);
  if (!log) {
    /* an imported summary (fio without a log) in the shape of a log's ops */
    const json_t *so = json_object_get(test, "summary_ops");
    if (json_is_object(so)) {
      json_object_set(entry, "ops", (json_t *)so);
      json_object_del(entry, "summary_ops");
    }
    return entry;
  }
  struct analyze_opts lo = *o;
  unsigned want = ANALYZE_WANT_SERIES;
  if (tk && (tk->flags & BENCH_TK_FILL_TRACE)) {
    /* sequential too: a per-GiB trace. No minimum segment in GiB: the
     * estimate's resolution follows the trace (analyze/slc.c), so a
     * near-full cache of 0.25 GiB is seen */
    want |= ANALYZE_WANT_FILL;
  }
  if (tk && (tk->flags & BENCH_TK_FINE_SERIES)) want |= ANALYZE_WANT_SERIES_FINE | ANALYZE_WANT_SERIES_EXACT;
  json_t *res = NULL;
  struct ssdrev_err e = {{0}};
  char path[PATH_MAX];
  int rc = archive_file(run->dir, log, path, sizeof path, &e); /* inside the run, a regular file */
  if (!rc) rc = analyze_log(path, &lo, want, &res, &e);
  if (rc) {
    json_object_set_new(entry, "error", json_string(e.msg[0] ? e.msg : "cannot analyze the log"));
    return entry;
  }
  json_object_update(entry, res);
  json_decref(res);
  return entry;
}

/* Tests are analyzed in parallel (each log is independent); the aggregates
 * are then built in manifest order on the calling thread. Each worker only
 * creates new JSON values or reads its own tests' values. */
struct pool {
  const struct archive *run;
  const struct analyze_opts *o;
  json_t *const *tests; /* the manifest's test objects (borrowed) */
  json_t **entries;     /* results, one per test (NULL for temperature) */
  size_t n;
  size_t next;          /* next test to take (atomic) */
};

static void *pool_work(void *arg) {
  struct pool *p = arg;
  for (;;) {
    size_t i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
    if (i >= p->n) return NULL;
    const struct bench_test_kind *tk = bench_test_kind_find(analyze_json_str(p->tests[i], "kind"));
    if (tk && (tk->flags & BENCH_TK_NO_LOG)) continue;
    p->entries[i] = test_entry(p->run, p->tests[i], p->o);
  }
}

static int analyze_tests(struct pool *p, unsigned nthreads) {
  pthread_t th[16];
  unsigned started = 0;
  if (nthreads > 16) nthreads = 16;
  for (unsigned i = 1; i < nthreads; i++) {
    if (pthread_create(&th[started], NULL, pool_work, p)) break;
    started++;
  }
  pool_work(p);
  for (unsigned i = 0; i < started; i++) pthread_join(th[i], NULL);
  return 0;
}

int analyze_run(const char *dir, const struct analyze_opts *o, json_t **out, struct ssdrev_err *err) {
  struct analyze_opts dflt;
  if (!o || !o->npcts) {
    if (o) dflt = *o;
    else memset(&dflt, 0, sizeof dflt);
    struct analyze_opts d;
    analyze_opts_defaults(&d);
    memcpy(dflt.pcts, d.pcts, sizeof d.pcts);
    dflt.npcts = d.npcts;
    if (!(dflt.interval_s > 0)) dflt.interval_s = 1;
    o = &dflt;
  }
  if (out) *out = NULL;
  struct archive *run;
  /* analysis.json is written: as any writer of the archive, under its lock */
  int rc = o->no_write ? archive_open(&run, dir, err) : archive_open_write_wait(&run, dir, &o->lock_wait, err);
  char ro_why[1100] = ""; /* set: a read-only archive, analyzed in memory */
  if (!o->no_write && (rc == -EROFS || rc == -EACCES)) {
    /* no lock can be taken where no file can be made; nobody else can
     * write there either (or, with other rights, only through atomic
     * renames), so the reader's view of the manifest is consistent */
    snprintf(ro_why, sizeof ro_why, "%s", strerror(-rc));
    rc = archive_open(&run, dir, err);
  }
  if (rc) return rc;
  const json_t *m = run->manifest;
  json_t *a = json_object();
  json_object_set_new(a, "format", json_string("ssdrev-analysis"));
  json_object_set_new(a, "format_version", json_integer(1));
  json_object_set_new(a, "tool", json_pack("{s:s, s:s}", "name", "ssdrev", "version", SSDREV_VERSION));
  char hex[16];
  snprintf(hex, sizeof hex, "%08x", run->manifest_crc32c);
  json_object_set_new(a, "manifest_crc32c", json_string(hex));
  json_object_set_new(a, "content_version", json_integer(ANALYZE_CONTENT_VERSION));
  if (analyze_json_str(m, "label")) json_object_set(a, "label", json_object_get(m, "label"));
  json_object_set_new(a, "simulated", json_boolean(json_is_true(json_object_get(m, "simulated"))));
  if (json_object_get(m, "dut")) json_object_set(a, "dut", json_object_get(m, "dut"));
  if (json_object_get(m, "target")) json_object_set(a, "target", json_object_get(m, "target"));
  if (json_object_get(m, "source")) json_object_set(a, "source", json_object_get(m, "source"));
  /* a short review says so in every output made from it */
  if (json_object_get(m, "short")) json_object_set(a, "short", json_object_get(m, "short"));
  json_t *pl = json_array();
  for (unsigned i = 0; i < o->npcts; i++) json_array_append_new(pl, json_real(o->pcts[i]));
  json_object_set_new(a, "percentiles", pl);
  json_t *tests = json_object(), *cdm = json_array(), *sweep = json_array(), *tail = json_object(), *jobs = json_array(),
         *qds = json_array();
  struct aggs g = {.a = a, .cdm = cdm, .sweep = sweep, .tail = tail, .jobs = jobs, .qds = qds, .idx = json_object()};
  size_t i;
  json_t *t;
  const json_t *mt = json_object_get(m, "tests");
  struct pool pool = {.run = run, .o = o, .n = json_array_size(mt)};
  json_t **tv = calloc(pool.n + 1, sizeof *tv), **entries = calloc(pool.n + 1, sizeof *entries);
  if (!tv || !entries) {
    free(tv), free(entries);
    json_decref(a), json_decref(tests), json_decref(cdm), json_decref(sweep), json_decref(tail), json_decref(jobs),
        json_decref(qds), json_decref(g.idx);
    archive_free(run);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  for (size_t k = 0; k < pool.n; k++) tv[k] = json_array_get(mt, k);
  pool.tests = tv;
  pool.entries = entries;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  analyze_tests(&pool, o->threads ? o->threads : ncpu > 0 ? (unsigned)ncpu : 2);
  json_array_foreach(mt, i, t) {
    const char *name = analyze_json_str(t, "name"), *kind = analyze_json_str(t, "kind"), *status = analyze_json_str(t, "status");
    if (!kind) kind = "job";
    const struct bench_test_kind *tk = bench_test_kind_find(kind);
    if (tk && (tk->flags & BENCH_TK_NO_LOG)) { /* temperature samples, joined */
      temperature_add(a, t);
      continue;
    }
    json_t *entry = entries[i];
    entries[i] = NULL;
    if (!entry) entry = json_object(); /* a worker found no memory */
    if (!json_object_get(entry, "kind")) json_object_set_new(entry, "kind", json_string(kind));
    /* "running" in a saved manifest means the run was killed or crashed:
     * its log stops at the last written chunk. Report it, keep it out of
     * the aggregates. */
    int killed = status && !strcmp(status, "running");
    if (killed || (status && !strcmp(status, "interrupted"))) {
      json_object_set_new(entry, "incomplete", json_true());
      json_t *w = json_object_get(entry, "warnings");
      if (!json_is_array(w)) json_object_set_new(entry, "warnings", w = json_array());
      json_array_append_new(w, json_string(killed ? "incomplete: the test never finished (manifest status running: the "
                                                    "run was killed or crashed); its log ends at the last written chunk"
                                                  : "interrupted (SIGINT/SIGTERM): results cover the run up to the stop"));
    }
    int usable = !killed && !json_object_get(entry, "error") && !(status && !strcmp(status, "failed"));
    /* fio's numjobs clones (import/fio.c) and their sum: the sum is the
     * section's row, the clones' I/O is what was written (counted once) */
    int clone = json_object_get(t, "clone_of") != NULL, clone_sum = json_object_get(t, "clones") != NULL;
    for (size_t k = 0; usable && k < sizeof aggregators / sizeof aggregators[0]; k++) {
      int every = !strcmp(aggregators[k].kind, "*");
      if ((clone && !every) || (clone_sum && every)) continue;
      if (!strcmp(aggregators[k].kind, kind) || every) aggregators[k].add(&g, t, entry);
    }
    json_object_set_new(tests, name, entry);
  }
  free(tv);
  free(entries);
  json_decref(g.idx);
  sweep_sort(sweep);
  analyze_steady_finish(a);
  json_object_set_new(a, "tests", tests);
  json_object_set_new(a, "cdm", cdm);
  json_object_set_new(a, "rw_sweep", sweep);
  json_object_set_new(a, "tail", tail);
  qd_finish(qds);
  if (json_array_size(qds)) json_object_set_new(a, "qd_scaling", qds);
  else json_decref(qds);
  json_object_set_new(a, "jobs", jobs);
  analyze_recovery_finish(a);
  analyze_fill_throttle(a, m); /* after the temperature and thermal tests, wherever they ran */
  json_object_set_new(a, "flags", analyze_flags(a));
  if (!ro_why[0] && !o->no_write) {
    struct ssdrev_err werr = {{0}};
    rc = ssdrev_write_json_atomic(archive_path(run, ARCHIVE_ANALYSIS), a, &werr);
    /* the lock file was there and ours to lock, the directory is not ours
     * to write (a non-root user, a lock left by another one) */
    if (rc == -EROFS || rc == -EACCES) snprintf(ro_why, sizeof ro_why, "%s", strerror(-rc));
    else if (rc && err) *err = werr;
  }
  archive_free(run);
  if (ro_why[0]) {
    rc = ANALYZE_RUN_IN_MEMORY;
    ssdrev_fail(err, rc, "'%s' is read-only (%s): analyzed in memory, analysis.json not written", dir, ro_why);
  }
  if (rc < 0) {
    json_decref(a);
    return rc;
  }
  if (out) *out = a;
  else json_decref(a);
  return rc;
}
