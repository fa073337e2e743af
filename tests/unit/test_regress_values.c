/* test_regress_values.c — hostile values in logs (docs/hardening.md,
 * "Hostile values"): a record far in the future, a wrapping submit+lat, a
 * far offset with --fill, latencies whose sum wraps 64 bits, and intervals
 * that would need more bins than BINS_MAX. Each used to loop ~10^10 times
 * (memory without bound) or give a mean below the minimum. */
#include <errno.h>
#include "tests/unit/testlib.h"
#include "analyze/analyze.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

/* Writes PATH with n ordinary 4 KiB reads 1 us apart plus `extra` (if not
 * NULL) appended last, under params `params` (NULL: none). */
static int write_log(const char *path, const char *params, size_t n, const struct ssdlog_rec *extra) {
  struct ssdrev_err e = {{0}};
  struct ssdlog_writer *w;
  if (ssdlog_writer_open(&w, path, SSDLOG_CLOCK_VIRTUAL, 0, params, 1, &e)) {
    fprintf(stderr, "    %s\n", e.msg);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    struct ssdlog_rec r = {.submit_ns = 1000 * i, .lat_ns = 80000, .offset_bytes = 4096 * i, .len_bytes = 4096};
    if (ssdlog_append(w, &r, 1, &e)) return -1;
  }
  if (extra && ssdlog_append(w, extra, 1, &e)) return -1;
  if (ssdlog_writer_close(w, &e)) {
    fprintf(stderr, "    %s\n", e.msg);
    return -1;
  }
  return 0;
}

static const char *tpath(const char *name) {
  static char buf[4][512];
  static unsigned i;
  char *b = buf[i++ & 3];
  snprintf(b, sizeof buf[0], "%s/%s", test_tmpdir(), name);
  return b;
}

/* analyze_log with series and fill; returns its rc and leaves the message. */
static int analyze(const char *path, double interval_s, json_t **out, struct ssdrev_err *e) {
  struct analyze_opts o;
  analyze_opts_defaults(&o);
  if (interval_s > 0) o.interval_s = interval_s;
  e->msg[0] = 0;
  *out = NULL;
  return analyze_log(path, &o, ANALYZE_WANT_SERIES | ANALYZE_WANT_FILL, out, e);
}

TEST("A record whose submit time near 2^63 ns plus its latency passes 2^63 is refused, naming file and record") {
  const char *p = tpath("far.ssdlog");
  struct ssdlog_rec far = {.submit_ns = (1ull << 63) - 1000, .lat_ns = 5000, .len_bytes = 4096};
  REQUIRE(write_log(p, NULL, 100, &far) == 0);
  struct ssdrev_err e;
  json_t *out;
  CHECK(analyze(p, 0, &out, &e) == -EINVAL);
  CHECK(out == NULL);
  CHECK_CONTAINS(e.msg, "far.ssdlog");
  CHECK_CONTAINS(e.msg, "record 100");
  CHECK_CONTAINS(e.msg, "beyond 2^63");
}

TEST("A record whose submit + latency wraps 64 bits is refused") {
  const char *p = tpath("wrap.ssdlog");
  struct ssdlog_rec wrap = {.submit_ns = 5000, .lat_ns = UINT64_MAX - 10, .len_bytes = 4096};
  REQUIRE(write_log(p, NULL, 10, &wrap) == 0);
  struct ssdrev_err e;
  json_t *out;
  CHECK(analyze(p, 0, &out, &e) == -EINVAL);
  CHECK_CONTAINS(e.msg, "record 10 ");
  CHECK_CONTAINS(e.msg, "lat_ns 18446744073709551605");
}

TEST("A record far beyond the test's duration in its params is refused") {
  const char *p = tpath("late.ssdlog");
  /* a 1 s test: 2 x 1 s + 600 s is the limit; this one completes at 1 h */
  struct ssdlog_rec late = {.submit_ns = 3600000000000ull, .lat_ns = 5000, .len_bytes = 4096};
  REQUIRE(write_log(p, "{\"measure_ns\":1000000000}", 10, &late) == 0);
  struct ssdrev_err e;
  json_t *out;
  CHECK(analyze(p, 0, &out, &e) == -EINVAL);
  CHECK_CONTAINS(e.msg, "late.ssdlog");
  CHECK_CONTAINS(e.msg, "far beyond the test's duration");
  /* without a known duration the same record is possible: it analyzes */
  const char *q = tpath("late-noparams.ssdlog");
  REQUIRE(write_log(q, NULL, 10, &late) == 0);
  CHECK(analyze(q, 0, &out, &e) == 0);
  /* interval 0, the long gap as its two ends (1 and 3592), then the last 8 */
  const json_t *t = json_object_get(json_object_get(out, "series"), "t_s");
  CHECK_EQ_U64(json_array_size(t), 11);
  CHECK_NEAR(json_number_value(json_array_get(t, 1)), 1, 1e-9);
  CHECK_NEAR(json_number_value(json_array_get(t, 2)), 3592, 1e-9);
  CHECK_NEAR(json_number_value(json_array_get(t, 10)), 3600, 1e-9);
  json_decref(out);
}

TEST("A record near 2^63 ns that does not wrap costs a few series points, not 10^10") {
  const char *p = tpath("near.ssdlog");
  struct ssdlog_rec far = {.submit_ns = (1ull << 63) - 4096, .lat_ns = 1000, .len_bytes = 4096};
  REQUIRE(write_log(p, NULL, 100, &far) == 0);
  struct ssdrev_err e;
  json_t *out;
  REQUIRE(analyze(p, 0, &out, &e) == 0);
  CHECK(json_array_size(json_object_get(json_object_get(out, "series"), "t_s")) <= 11);
  json_decref(out);
}

TEST("An offset + length beyond 2^63 is refused by the fill analysis") {
  const char *p = tpath("faroff.ssdlog");
  struct ssdlog_rec far = {.submit_ns = 5000, .lat_ns = 5000, .offset_bytes = UINT64_MAX - 4095, .len_bytes = 4096};
  REQUIRE(write_log(p, NULL, 10, &far) == 0);
  struct ssdrev_err e;
  json_t *out;
  CHECK(analyze(p, 0, &out, &e) == -EINVAL);
  CHECK_CONTAINS(e.msg, "offset_bytes 18446744073709547520");
  CHECK_CONTAINS(e.msg, "record 10 ");
}

TEST("A far but possible offset costs nothing in the fill trace (sparse bins)") {
  const char *p = tpath("gap.ssdlog");
  /* 2^62: 2^32 GiB and 2^36 trace steps away from the others */
  struct ssdlog_rec far = {.submit_ns = 5000, .lat_ns = 5000, .offset_bytes = 1ull << 62, .len_bytes = 4096};
  REQUIRE(write_log(p, NULL, 1000, &far) == 0);
  struct ssdrev_err e;
  json_t *out;
  REQUIRE(analyze(p, 0, &out, &e) == 0);
  const json_t *fill = json_object_get(out, "fill");
  /* 1000 x 4 KiB lie in GiB 0; the far one is one more */
  CHECK_EQ_U64(json_array_size(json_object_get(json_object_get(fill, "per_gib"), "gib")), 2);
  /* the trace counts bytes written, in completion order (base/filltrace.c),
   * not offsets: 1001 x 4 KiB are less than one 4 MiB step, wherever they lie */
  CHECK_EQ_U64(json_array_size(json_object_get(json_object_get(fill, "trace"), "gib")), 0);
  json_decref(out);
}

TEST("Latencies whose sum wraps 64 bits still give a mean between min and max") {
  const char *p = tpath("bigsum.ssdlog");
  struct ssdrev_err e = {{0}};
  struct ssdlog_writer *w;
  REQUIRE(ssdlog_writer_open(&w, p, SSDLOG_CLOCK_VIRTUAL, 0, NULL, 1, &e) == 0);
  /* four latencies of 2^62 + i: the u64 sum wraps to about 0 */
  for (unsigned i = 0; i < 4; i++) {
    struct ssdlog_rec r = {.submit_ns = i, .lat_ns = (1ull << 62) + i, .len_bytes = 4096};
    REQUIRE(ssdlog_append(w, &r, 1, &e) == 0);
  }
  REQUIRE(ssdlog_writer_close(w, &e) == 0);
  json_t *out;
  REQUIRE(analyze(p, 0, &out, &e) == 0);
  const json_t *all = json_object_get(json_object_get(out, "ops"), "all");
  double mn = json_number_value(json_object_get(all, "lat_min_us"));
  double mean = json_number_value(json_object_get(all, "lat_mean_us"));
  double mx = json_number_value(json_object_get(all, "lat_max_us"));
  CHECK(mean >= mn && mean <= mx);
  CHECK_NEAR(mean, 4611686018427387.904 + 0.0015, 1);
  /* the series' interval mean too (it is widened: 2^62 ns / 1 s is too many) */
  const json_t *lm = json_object_get(json_object_get(out, "series"), "lat_mean_us");
  REQUIRE(json_array_size(lm) >= 1);
  size_t i;
  json_t *v;
  int positive = 0;
  json_array_foreach(lm, i, v) positive |= json_number_value(v) > mn / 2;
  CHECK(positive);
  json_decref(out);
}

TEST("A 1 ns interval over 1.25 ms of I/O every 500 ns is widened to 2 ns with a warning") {
  const char *p = tpath("fine.ssdlog");
  struct ssdrev_err e = {{0}};
  struct ssdlog_writer *w;
  REQUIRE(ssdlog_writer_open(&w, p, SSDLOG_CLOCK_VIRTUAL, 0, NULL, 1, &e) == 0);
  /* 500 ns apart: gaps shorter than 1000 intervals stay dense, so 1.25e6
   * intervals of 1 ns are too many (BINS_MAX = 1e6) */
  for (unsigned i = 0; i < 2500; i++) {
    struct ssdlog_rec r = {.submit_ns = 500ull * i, .lat_ns = 5000 + i % 7, .len_bytes = 4096};
    REQUIRE(ssdlog_append(w, &r, 1, &e) == 0);
  }
  REQUIRE(ssdlog_writer_close(w, &e) == 0);
  json_t *out;
  REQUIRE(analyze(p, 1e-9, &out, &e) == 0);
  const json_t *ser = json_object_get(out, "series");
  size_t n = json_array_size(json_object_get(ser, "t_s"));
  CHECK(n > 600000 && n <= 1000000);
  CHECK_NEAR(json_number_value(json_object_get(ser, "interval_s")), 2e-9, 1e-15); /* 1.2495 ms / 999998, 1-2-5 rounded */
  const char *warn = json_string_value(json_array_get(json_object_get(out, "warnings"), 0));
  CHECK_CONTAINS(warn, "series interval widened from 1e-09 s to 2e-09 s");
  /* the series still carries every I/O: 500 ns apart, each in its own bin */
  size_t i, busy = 0;
  json_t *v;
  json_array_foreach(json_object_get(ser, "iops"), i, v) busy += json_number_value(v) > 0;
  CHECK_EQ_U64(busy, 2500);
  json_decref(out);
}
