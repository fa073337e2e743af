/* test_analyze_pct.c — exact percentiles: the accumulator against a sorted
 * reference, over arrays and over logs written with the log writer. */
#include <errno.h>
#include <unistd.h>
#include "analyze/analyze.h"
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"

static const double P[] = {0.001, 1, 25, 50, 90, 99, 99.9, 99.99, 99.999, 100};
#define NP (sizeof P / sizeof P[0])

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Checks analyze_percentiles against sorting: value at the rank and the
 * count of samples >= it. Returns the number of mismatches. */
static int check_against_sort(const uint64_t *v, size_t n) {
  struct analyze_pct_result res[NP];
  if (analyze_percentiles(v, n, P, NP, res, NULL)) return 1000;
  uint64_t *s = malloc(n * sizeof *s);
  memcpy(s, v, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_u64);
  int bad = 0;
  for (unsigned i = 0; i < NP; i++) {
    uint64_t r = analyze_pct_rank(P[i], n);
    uint64_t want = s[r - 1], ge = 0;
    for (size_t k = 0; k < n; k++) ge += s[k] >= want;
    if (res[i].value != want || res[i].at_or_beyond != ge || res[i].rank != r) {
      fprintf(stderr, "    p%g: got %llu (>= %llu) want %llu (>= %llu)\n", P[i], (unsigned long long)res[i].value,
              (unsigned long long)res[i].at_or_beyond, (unsigned long long)want, (unsigned long long)ge);
      bad++;
    }
  }
  free(s);
  return bad;
}

TEST("The nearest rank follows numpy's inverted_cdf in IEEE double and stays within 1..n") {
  CHECK_EQ_U64(analyze_pct_rank(50, 1), 1);
  CHECK_EQ_U64(analyze_pct_rank(100, 7), 7);
  CHECK_EQ_U64(analyze_pct_rank(0.001, 7), 1);
  CHECK_EQ_U64(analyze_pct_rank(50, 10), 5);
  CHECK_EQ_U64(analyze_pct_rank(50, 11), 6);
  CHECK_EQ_U64(analyze_pct_rank(90, 1000000), 900000);
  /* 0.999 * 1e6 is 999000.0000000001 in double: numpy takes 999001 */
  CHECK_EQ_U64(analyze_pct_rank(99.9, 1000000), 999001);
  CHECK_EQ_U64(analyze_pct_rank(99.9, 1000), 1000);
  CHECK_EQ_U64(analyze_pct_rank(50, 0), 0);
}

TEST("Percentiles of small arrays with ties equal the sorted values at the nearest rank") {
  uint64_t one[] = {42};
  CHECK(check_against_sort(one, 1) == 0);
  uint64_t ties[] = {5, 5, 5, 1, 1, 9, 9, 9, 9, 2};
  CHECK(check_against_sort(ties, 10) == 0);
  uint64_t two[] = {7, 3};
  CHECK(check_against_sort(two, 2) == 0);
}

TEST("Percentiles of realistic latencies (dense range) are exact") {
  size_t n = 200000;
  uint64_t *v = malloc(n * sizeof *v);
  for (size_t i = 0; i < n; i++) v[i] = 80000 + rnd() % 20000 + (rnd() % 1000 == 0 ? rnd() % 3000000 : 0);
  CHECK(check_against_sort(v, n) == 0);
  free(v);
}

TEST("Percentiles above 16.7 ms are narrowed to the exact nanosecond by refinement passes") {
  size_t n = 50000;
  uint64_t *v = malloc(n * sizeof *v);
  for (size_t i = 0; i < n; i++) v[i] = (UINT64_C(1) << 24) + rnd() % (UINT64_C(1) << 36);
  CHECK(check_against_sort(v, n) == 0);
  /* huge values: several refinement rounds */
  for (size_t i = 0; i < n; i++) v[i] = rnd() >> (rnd() % 8);
  CHECK(check_against_sort(v, n) == 0);
  /* a mix of both ranges, with ties at the top */
  for (size_t i = 0; i < n; i++) v[i] = i % 3 ? rnd() % 100000 : UINT64_C(40000000000) + i % 5;
  CHECK(check_against_sort(v, n) == 0);
  free(v);
}

TEST("A percentile resting on fewer than 10 samples is flagged") {
  uint64_t v[1000];
  for (unsigned i = 0; i < 1000; i++) v[i] = i + 1;
  double p[] = {50, 99.5, 99.9};
  struct analyze_pct_result r[3];
  REQUIRE(analyze_percentiles(v, 1000, p, 3, r, NULL) == 0);
  CHECK_EQ_U64(r[0].value, 500);
  CHECK(!r[0].warn);
  CHECK_EQ_U64(r[1].at_or_beyond, 6);
  CHECK(r[1].warn);
  CHECK_EQ_U64(r[2].value, 1000); /* numpy: 0.999 * 1000 rounds above 999 */
  CHECK_EQ_U64(r[2].at_or_beyond, 1);
}

TEST("Percentiles outside (0, 100] are refused with a message") {
  uint64_t v[] = {1, 2, 3};
  double p[] = {0};
  struct analyze_pct_result r[1];
  struct ssdrev_err e = {{0}};
  CHECK(analyze_percentiles(v, 3, p, 1, r, &e) == -EINVAL);
  CHECK_CONTAINS(e.msg, "outside (0, 100]");
  struct analyze_opts o;
  analyze_opts_defaults(&o);
  CHECK(analyze_parse_pcts(&o, "50,abc", &e) == -EINVAL);
  CHECK_CONTAINS(e.msg, "abc");
  CHECK(analyze_parse_pcts(&o, "50,99.9,100", &e) == 0);
  CHECK(o.npcts == 3 && o.pcts[1] == 99.9);
}

TEST("Two merged accumulators give the percentiles of the union") {
  struct analyze_pct *a, *b;
  REQUIRE(analyze_pct_new(&a) == 0 && analyze_pct_new(&b) == 0);
  uint64_t v[4000];
  for (unsigned i = 0; i < 4000; i++) v[i] = rnd() % 50000;
  analyze_pct_add(a, v, 2000);
  analyze_pct_add(b, v + 2000, 2000);
  REQUIRE(analyze_pct_merge(a, b) == 0);
  CHECK_EQ_U64(analyze_pct_count(a), 4000);
  REQUIRE(analyze_pct_plan(a, P, NP, NULL) == 0);
  struct analyze_pct_result r[NP], want[NP];
  analyze_pct_results(a, r);
  REQUIRE(analyze_percentiles(v, 4000, P, NP, want, NULL) == 0);
  for (unsigned i = 0; i < NP; i++) CHECK_EQ_U64(r[i].value, want[i].value);
  analyze_pct_free(a);
  analyze_pct_free(b);
}

/* Writes a log of n records: ops alternate read/write by `mix`, a ramp of
 * `ramp` records, every 97th record an error; lat_out gets the latencies of
 * measured successful I/Os of `op` (-1 = all). */
static size_t make_log(const char *path, size_t n, size_t ramp, int mix, int op, uint64_t big, uint64_t *lat_out) {
  struct ssdlog_writer *w;
  struct ssdrev_err e = {{0}};
  if (ssdlog_writer_open(&w, path, SSDLOG_CLOCK_VIRTUAL, 0, "{}", 1, &e)) {
    fprintf(stderr, "    %s\n", e.msg);
    return 0;
  }
  size_t m = 0;
  uint64_t t = 0;
  for (size_t i = 0; i < n; i++) {
    struct ssdlog_rec r = {0};
    t += 1000 + rnd() % 500;
    r.submit_ns = t;
    r.lat_ns = 20000 + rnd() % 80000 + (i % 1000 == 7 ? rnd() % big : 0);
    r.offset_bytes = (rnd() % 1000) * 4096;
    r.len_bytes = 4096;
    r.op = mix && rnd() % 10 < 3 ? SSDLOG_OP_WRITE : SSDLOG_OP_READ;
    r.flags = i < ramp ? SSDLOG_REC_RAMP : 0;
    r.status = i % 97 == 5 ? -EIO : 0;
    if (i >= ramp && r.status == 0 && (op < 0 || r.op == op)) lat_out[m++] = r.lat_ns;
    ssdlog_append(w, &r, 1, &e);
  }
  if (ssdlog_writer_close(w, &e)) return 0;
  return m;
}

TEST("Log percentiles skip ramp and failed I/Os and equal the array's, with 1 and 2 threads") {
  size_t n = 60000;
  uint64_t *lat = malloc(n * sizeof *lat);
  size_t m = make_log(test_path("a.ssdlog"), n, 1000, 1, -1, 50000000, lat);
  REQUIRE(m > 0);
  struct analyze_pct_result want[NP], got[NP];
  REQUIRE(analyze_percentiles(lat, m, P, NP, want, NULL) == 0);
  struct analyze_opts o;
  analyze_opts_defaults(&o);
  memcpy(o.pcts, P, sizeof P);
  o.npcts = NP;
  for (unsigned th = 1; th <= 3; th++) {
    o.threads = th;
    uint64_t cnt = 0;
    struct ssdrev_err e = {{0}};
    REQUIRE(analyze_log_percentiles(test_path("a.ssdlog"), -1, &o, got, &cnt, &e) == 0);
    CHECK_EQ_U64(cnt, m);
    for (unsigned i = 0; i < NP; i++) {
      CHECK_EQ_U64(got[i].value, want[i].value);
      CHECK_EQ_U64(got[i].at_or_beyond, want[i].at_or_beyond);
    }
  }
  free(lat);
}

TEST("Per-op log percentiles of a mix equal those of the op's own samples") {
  size_t n = 30000;
  uint64_t *lat = malloc(n * sizeof *lat);
  rng_state = 1234567;
  size_t m = make_log(test_path("w.ssdlog"), n, 0, 1, SSDLOG_OP_WRITE, 30000000, lat);
  REQUIRE(m > 0);
  struct analyze_pct_result want[NP], got[NP];
  REQUIRE(analyze_percentiles(lat, m, P, NP, want, NULL) == 0);
  struct analyze_opts o;
  analyze_opts_defaults(&o);
  memcpy(o.pcts, P, sizeof P);
  o.npcts = NP;
  REQUIRE(analyze_log_percentiles(test_path("w.ssdlog"), SSDLOG_OP_WRITE, &o, got, NULL, NULL) == 0);
  for (unsigned i = 0; i < NP; i++) CHECK_EQ_U64(got[i].value, want[i].value);

  /* analyze_log's STATS for "write" carry the same percentiles */
  json_t *res = NULL;
  struct ssdrev_err e = {{0}};
  REQUIRE(analyze_log(test_path("w.ssdlog"), &o, ANALYZE_WANT_SERIES, &res, &e) == 0);
  const json_t *pct = json_object_get(json_object_get(json_object_get(res, "ops"), "write"), "pct");
  REQUIRE(json_array_size(pct) == NP);
  for (unsigned i = 0; i < NP; i++)
    CHECK_EQ_U64((uint64_t)json_integer_value(json_object_get(json_array_get(pct, i), "lat_ns")), want[i].value);
  json_decref(res);
  free(lat);
}

TEST("A missing log fails with a message naming the file") {
  struct analyze_pct_result r[NP];
  struct ssdrev_err e = {{0}};
  struct analyze_opts o;
  analyze_opts_defaults(&o);
  CHECK(analyze_log_percentiles(test_path("nope.ssdlog"), -1, &o, r, NULL, &e) < 0);
  CHECK_CONTAINS(e.msg, "nope.ssdlog");
  json_t *res = NULL;
  CHECK(analyze_log(test_path("nope.ssdlog"), &o, 0, &res, &e) < 0);
  CHECK(res == NULL);
}

TEST("A truncated log is analyzed up to the cut, with a warning naming the byte offset") {
  size_t n = 40000;
  uint64_t *lat = malloc(n * sizeof *lat);
  REQUIRE(make_log(test_path("t.ssdlog"), n, 0, 0, -1, 1000, lat) > 0);
  FILE *f = fopen(test_path("t.ssdlog"), "r+");
  REQUIRE(f != NULL);
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fclose(f);
  REQUIRE(truncate(test_path("t.ssdlog"), sz - 100) == 0);
  json_t *res = NULL;
  struct ssdrev_err e = {{0}};
  REQUIRE(analyze_log(test_path("t.ssdlog"), NULL, 0, &res, &e) == 0);
  const json_t *lg = json_object_get(res, "log");
  CHECK(json_is_true(json_object_get(lg, "truncated")));
  uint64_t rec = (uint64_t)json_integer_value(json_object_get(lg, "records"));
  CHECK(rec > 0 && rec < n);
  const json_t *w = json_object_get(res, "warnings");
  int found = 0;
  for (size_t i = 0; i < json_array_size(w); i++)
    found |= strstr(json_string_value(json_array_get(w, i)), "log truncated at byte") != NULL;
  CHECK(found);
  json_decref(res);
  free(lat);
}
