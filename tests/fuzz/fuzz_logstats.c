/* fuzz_logstats.c — the per-log analysis (analyze/logstats.c, bins.c,
 * slc.c, pct.c through analyze_log) on arbitrary log files: stats,
 * percentiles, the time series and the fill trace with its SLC estimate,
 * at the default 1 s interval and at a 1 us interval with a 1 MiB fill step.
 * Beyond memory safety and bounded time and memory (a record near 2^63 ns
 * used to make the bins loop ~10^10 times), it checks: a refusal has a
 * message; every op's mean lies in [min, max] and its percentiles rise within
 * [min, max]; series and trace arrays have equal lengths of at most
 * 1,000,000 points (BINS_MAX). */
#include <math.h>
#include "tests/fuzz/fuzz.h"
#include "analyze/analyze.h"

static double fuzz_ls_num(const json_t *o, const char *k) {
  const json_t *v = json_object_get(o, k);
  if (!json_is_number(v)) abort();
  return json_number_value(v);
}

/* Same length (<= 1,000,000) for every listed array of o; returns it. */
static size_t fuzz_ls_arrays(const json_t *o, const char *const *keys, unsigned n) {
  size_t len = json_array_size(json_object_get(o, keys[0]));
  for (unsigned i = 0; i < n; i++) {
    const json_t *a = json_object_get(o, keys[i]);
    if (!json_is_array(a) || json_array_size(a) != len) abort();
  }
  if (len > 1000000) abort();
  return len;
}

static void fuzz_ls_check(const json_t *res) {
  const char *k;
  const json_t *s;
  json_object_foreach((json_t *)json_object_get(res, "ops"), k, s) {
    if (fuzz_ls_num(s, "ios") == 0) continue;
    double mn = fuzz_ls_num(s, "lat_min_us"), mean = fuzz_ls_num(s, "lat_mean_us"),
           mx = fuzz_ls_num(s, "lat_max_us");
    /* values are rounded to 3 decimals of us: compare with that slack */
    if (!(mean >= mn - 0.001 && mean <= mx + 0.001)) abort();
    double prev = -1;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(s, "pct"), i, p) {
      double v = fuzz_ls_num(p, "lat_us");
      if (v < prev || v < mn - 0.001 || v > mx + 0.001) abort();
      prev = v;
    }
  }
  static const char *const ser[] = {"t_s", "mb_s", "iops", "lat_mean_us", "p50_us", "p99_us"};
  const json_t *series = json_object_get(res, "series");
  if (series) fuzz_ls_arrays(series, ser, 6);
  const json_t *fill = json_object_get(res, "fill");
  if (fill) {
    static const char *const pg[] = {"gib", "mb_s", "lat_mean_us", "lat_p99_us"};
    static const char *const tr[] = {"gib", "mb_s"};
    fuzz_ls_arrays(json_object_get(fill, "per_gib"), pg, 4);
    fuzz_ls_arrays(json_object_get(fill, "trace"), tr, 2);
  }
}

static int fuzz_logstats_one(const uint8_t *data, size_t size) {
  const char *path = fuzz_write("in.ssdlog", data, size);
  for (int variant = 0; variant < 2; variant++) {
    struct analyze_opts o;
    analyze_opts_defaults(&o);
    o.salvage = variant;
    if (variant) {
      o.interval_s = 1e-6;
      o.fill_step_gib = 1.0 / 1024;
    }
    struct ssdrev_err err = {{0}};
    json_t *res = NULL;
    int rc = analyze_log(path, &o, ANALYZE_WANT_SERIES | ANALYZE_WANT_FILL, &res, &err);
    fuzz_check_err(&err);
    if (rc) {
      if (!err.msg[0] || res) abort();
      continue;
    }
    if (!res) abort();
    fuzz_ls_check(res);
    json_decref(res);
  }
  return 0;
}

FUZZ_ENTRY(fuzz_logstats_one)
