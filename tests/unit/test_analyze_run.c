/* test_analyze_run.c — analyze_run on a synthetic run archive: the CDM
 * table, tail, RW sweep, imported summaries, flags, analysis.json, the
 * compare API and the table / CSV output. */
#include <errno.h>
#include "analyze/analyze.h"
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"
#include "archive/archive.h"

static uint64_t rs = 42;
static uint64_t rnd(void) {
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return rs;
}

/* A QD1-like log: n I/Os of bs bytes, one every spacing_ns, latency
 * lat_ns (+ a tail of `tail_ns` on every 500th), reads with probability
 * read_pct, an error every err_every (0 = none). */
static int write_log(const char *path, size_t n, uint32_t bs, uint64_t spacing_ns, uint64_t lat_ns,
                     uint64_t tail_ns, unsigned read_pct, size_t err_every) {
  struct ssdlog_writer *w;
  struct ssdrev_err e = {{0}};
  if (ssdlog_writer_open(&w, path, SSDLOG_CLOCK_VIRTUAL, 0, "{}", 1, &e)) {
    fprintf(stderr, "    %s\n", e.msg);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    struct ssdlog_rec r = {0};
    r.submit_ns = i * spacing_ns;
    r.lat_ns = lat_ns + rnd() % 1000 + (i % 500 == 3 ? tail_ns : 0);
    r.offset_bytes = (uint64_t)i * bs;
    r.len_bytes = bs;
    r.op = rnd() % 100 < read_pct ? SSDLOG_OP_READ : SSDLOG_OP_WRITE;
    r.status = err_every && i % err_every == 1 ? -EIO : 0;
    ssdlog_append(w, &r, 1, &e);
  }
  return ssdlog_writer_close(w, &e);
}

/* Adds a test with a log and kind keys (a JSON object, stolen). */
static void add_test(struct archive *run, const char *name, const char *kind, json_t *keys, uint32_t bs,
                     size_t n, uint64_t spacing_ns, uint64_t lat_ns, uint64_t tail_ns, unsigned read_pct,
                     size_t err_every) {
  char rel[256];
  snprintf(rel, sizeof rel, "logs/%s.ssdlog", name);
  json_t *t = archive_add_test(run, name, json_pack("{s:i, s:i}", "block_bytes", (int)bs, "qd", 1), rel);
  json_object_set_new(t, "kind", json_string(kind));
  json_object_update(t, keys);
  json_decref(keys);
  write_log(archive_path(run, rel), n, bs, spacing_ns, lat_ns, tail_ns, read_pct, err_every);
  archive_end_test(t, "complete");
}

static const char *make_run(const char *name, double scale) {
  const char *dir = test_path(name);
  struct archive *run;
  struct ssdrev_err e = {{0}};
  if (archive_create(&run, dir, "sim:test", &e)) {
    fprintf(stderr, "    %s\n", e.msg);
    return NULL;
  }
  char logs[4200];
  snprintf(logs, sizeof logs, "%s/logs", dir);
  ssdrev_mkdirs(logs, &e);
  json_object_set_new(run->manifest, "label", json_string(name));
  json_object_set_new(run->manifest, "dut",
                      json_pack("{s:I, s:s, s:i}", "capacity_bytes", (json_int_t)256060514304LL, "link", "PCIe 3.0 x4",
                                "warn_temp_c", 81));
  /* RND4K Q32T1 read: pass 0 is fast (must be ignored), passes 1-2 ~548 MB/s */
  const uint64_t sp = (uint64_t)(7474 / scale);
  add_test(run, "cdm.rnd.read.p0", "cdm",
           json_pack("{s:s, s:s, s:s, s:s, s:i}", "state", "FOB", "profile", "default", "cell", "RND4K Q32T1", "op",
                     "read", "pass", 0),
           4096, 20000, sp / 4, 50000, 0, 100, 0);
  add_test(run, "cdm.rnd.read.p1", "cdm",
           json_pack("{s:s, s:s, s:s, s:s, s:i}", "state", "FOB", "profile", "default", "cell", "RND4K Q32T1", "op",
                     "read", "pass", 1),
           4096, 20000, sp + 200, 50000, 0, 100, 0);
  add_test(run, "cdm.rnd.read.p2", "cdm",
           json_pack("{s:s, s:s, s:s, s:s, s:i}", "state", "FOB", "profile", "default", "cell", "RND4K Q32T1", "op",
                     "read", "pass", 2),
           4096, 20000, sp, 49000, 0, 100, 0);
  /* the same cell at 75% full, much slower: fob_vs_full */
  add_test(run, "cdm75.rnd.read.p1", "cdm",
           json_pack("{s:s, s:s, s:s, s:s, s:i}", "state", "75%", "profile", "default", "cell", "RND4K Q32T1", "op",
                     "read", "pass", 1),
           4096, 20000, sp * 2, 50000, 0, 100, 0);
  /* an imported CrystalDiskMark cell without a log */
  json_t *imp = archive_add_test(run, "cdm.seq.read", json_pack("{}"), NULL);
  json_t *keys = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:f, s:f, s:f}}", "kind", "cdm", "state", "FOB", "profile",
                           "default", "cell", "SEQ1M Q8T1", "op", "read", "summary", "mb_s", 3531.2 * scale, "iops",
                           3367.6, "lat_us", 2373.5);
  json_object_update(imp, keys);
  json_decref(keys);
  archive_end_test(imp, "complete");
  /* tail: a mix with a long tail, a clean read with errors */
  add_test(run, "tail.mix70", "tail", json_pack("{s:s}", "workload", "mix70"), 4096, 50000, 120000, 90000,
           3000000, 70, 0);
  add_test(run, "tail.read", "tail", json_pack("{s:s}", "workload", "read"), 4096, 20000, 120000, 90000, 0, 100, 1000);
  /* an RW sweep added out of order, with a dip at 50% */
  static const unsigned pcts[] = {100, 0, 50, 30, 70};
  static const uint64_t spc[] = {100000, 20000, 400000, 100000, 100000};
  for (unsigned i = 0; i < 5; i++) {
    char nm[64];
    snprintf(nm, sizeof nm, "sweep.%u", pcts[i]);
    add_test(run, nm, "rw_sweep", json_pack("{s:i, s:i}", "qd", 1, "read_pct", pcts[i]), 4096, 2000, spc[i], 10000, 0,
             pcts[i], 0);
  }
  json_t *temp = archive_add_test(run, "temperature", json_pack("{}"), NULL);
  json_object_set_new(temp, "kind", json_string("temperature"));
  json_object_set_new(temp, "samples", json_loads("[[0, 40], [10, 55], [20, 60]]", 0, NULL));
  if (archive_save(run, &e)) fprintf(stderr, "    %s\n", e.msg);
  archive_free(run);
  return dir;
}

static const json_t *find_flag(const json_t *a, const char *id) {
  size_t i;
  json_t *f;
  json_array_foreach(json_object_get(a, "flags"), i, f) {
    if (!strcmp(json_string_value(json_object_get(f, "id")), id)) return f;
  }
  return NULL;
}

static double num(const json_t *o, const char *k) {
  const json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : -1;
}

static json_t *analysis;

static const json_t *get_analysis(void) {
  if (analysis) return analysis;
  const char *dir = make_run("run1", 1.0);
  struct ssdrev_err e = {{0}};
  if (!dir || analyze_run(dir, NULL, &analysis, &e)) fprintf(stderr, "    analyze_run: %s\n", e.msg);
  return analysis;
}

TEST("analyze_run writes analysis.json equal to the object it returns") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  struct ssdrev_err e = {{0}};
  json_t *f = ssdrev_load_json(test_path("run1/analysis.json"), &e);
  REQUIRE(f != NULL);
  CHECK(json_equal(f, (json_t *)a));
  CHECK_STR(json_string_value(json_object_get(a, "format")), "ssdrev-analysis");
  CHECK(json_array_size(json_object_get(a, "percentiles")) == 6);
  json_decref(f);
}

TEST("The CDM table ignores pass 0, keeps the best pass and computes IOPS from the block size") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  const json_t *row = json_array_get(json_object_get(a, "cdm"), 0);
  REQUIRE(row != NULL);
  CHECK_STR(json_string_value(json_object_get(row, "cell")), "RND4K Q32T1");
  const json_t *rd = json_object_get(row, "read");
  CHECK(num(rd, "passes") == 2);
  /* pass 2 (one I/O every 7474 ns) is the best: ~548 MB/s, not pass 0's ~2190 */
  CHECK_NEAR(num(rd, "mb_s"), 548.0, 3.0);
  CHECK_NEAR(num(rd, "iops"), num(rd, "mb_s") * 1e6 / 4096, 0.02);
  /* min mean latency over passes 1-2: pass 2's ~49.5 us */
  CHECK_NEAR(num(rd, "lat_us"), 49.5, 0.5);
}

TEST("An imported CrystalDiskMark cell without a log passes through to the CDM table") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  size_t i;
  json_t *row;
  int found = 0;
  json_array_foreach(json_object_get(a, "cdm"), i, row) {
    if (strcmp(json_string_value(json_object_get(row, "cell")), "SEQ1M Q8T1")) continue;
    found = 1;
    CHECK_NEAR(num(json_object_get(row, "read"), "mb_s"), 3531.2, 0.01);
    CHECK_NEAR(num(json_object_get(row, "read"), "lat_us"), 2373.5, 0.01);
  }
  CHECK(found);
}

TEST("Tail tables hold percentiles in us, with read and write split for a mix") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  const json_t *mix = json_object_get(json_object_get(a, "tail"), "mix70");
  REQUIRE(mix != NULL);
  CHECK(num(mix, "p50_us") > 90 && num(mix, "p50_us") < 91.1);
  CHECK(num(mix, "p99.99_us") > 3000);
  CHECK(json_object_get(mix, "read") != NULL && json_object_get(mix, "write") != NULL);
  CHECK(num(mix, "ios") == 50000);
}

TEST("Failed I/Os are counted apart and excluded from the latency stats") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  const json_t *all = json_object_get(json_object_get(json_object_get(json_object_get(a, "tests"), "tail.read"), "ops"), "all");
  CHECK(num(all, "errors") == 20);
  CHECK(num(all, "ios") == 19980);
  const json_t *f = find_flag(a, "io_errors");
  REQUIRE(f != NULL);
  CHECK_STR(json_string_value(json_object_get(f, "severity")), "error");
}

TEST("RW sweep points are grouped by QD and sorted by read share") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  const json_t *g = json_array_get(json_object_get(a, "rw_sweep"), 0);
  REQUIRE(g != NULL);
  const json_t *pts = json_object_get(g, "points");
  REQUIRE(json_array_size(pts) == 5);
  for (size_t i = 1; i < 5; i++)
    CHECK(num(json_array_get(pts, i - 1), "read_pct") < num(json_array_get(pts, i), "read_pct"));
  CHECK(json_is_null(json_object_get(json_array_get(pts, 0), "read_lat_us")));
}

TEST("The review's bottlenecks fire flags that name their numbers") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  const json_t *f = find_flag(a, "rnd_read_plateau");
  REQUIRE(f != NULL);
  CHECK_NEAR(num(json_object_get(f, "numbers"), "mb_s"), 548, 3);
  CHECK_NEAR(num(json_object_get(f, "numbers"), "capacity_gb"), 256, 0.5);
  f = find_flag(a, "fob_vs_full");
  REQUIRE(f != NULL);
  CHECK(num(json_object_get(f, "numbers"), "ratio") < 0.8);
  f = find_flag(a, "tail_blowup");
  REQUIRE(f != NULL);
  CHECK(num(json_object_get(f, "numbers"), "ratio") > 10);
  f = find_flag(a, "rw_sweep_dip");
  REQUIRE(f != NULL);
  CHECK(num(json_object_get(f, "numbers"), "read_pct") == 50);
  CHECK(find_flag(a, "link_bound") == NULL); /* 3531 MB/s < 90% of 3938 */
  CHECK(find_flag(a, "thermal_throttle") == NULL && find_flag(a, "thermal_near_warn") == NULL);
}

TEST("Temperature samples become a series") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  const json_t *t = json_object_get(a, "temperature");
  CHECK(json_array_size(json_object_get(t, "c")) == 3);
  CHECK(json_object_get(json_object_get(a, "tests"), "temperature") == NULL);
}

TEST("Every test has a time series whose MB/s matches its rate") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  const json_t *t = json_object_get(json_object_get(a, "tests"), "cdm.rnd.read.p2");
  const json_t *s = json_object_get(t, "series");
  REQUIRE(s != NULL);
  CHECK(json_array_size(json_object_get(s, "t_s")) >= 1);
  CHECK_NEAR(json_number_value(json_array_get(json_object_get(s, "mb_s"), 0)), 548, 5);
}

TEST("Compare puts runs side by side with ratios to the first") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  const char *dir = make_run("run2", 2.0);
  json_t *b = NULL;
  REQUIRE(dir && analyze_run(dir, NULL, &b, NULL) == 0);
  const json_t *both[2] = {a, b};
  json_t *c = analyze_compare(both, 2, NULL);
  REQUIRE(c != NULL);
  CHECK(json_array_size(json_object_get(c, "labels")) == 2);
  size_t i;
  json_t *row;
  int seen = 0;
  json_array_foreach(json_object_get(c, "rows"), i, row) {
    if (strcmp(json_string_value(json_object_get(row, "key")), "FOB default SEQ1M Q8T1") ||
        strcmp(json_string_value(json_object_get(row, "metric")), "read mb_s"))
      continue;
    seen = 1;
    CHECK_NEAR(json_number_value(json_array_get(json_object_get(row, "ratios"), 1)), 2.0, 0.001);
    CHECK_NEAR(json_number_value(json_array_get(json_object_get(row, "ratios"), 0)), 1.0, 0.001);
  }
  CHECK(seen);
  json_decref(c);
  struct ssdrev_err e = {{0}};
  json_t *bad = json_object();
  const json_t *one[1] = {bad};
  CHECK(analyze_compare(one, 1, &e) == NULL);
  CHECK_CONTAINS(e.msg, "not an ssdrev analysis");
  json_decref(bad);
  json_decref(b);
}

TEST("The table and CSV outputs carry every test and op") {
  const json_t *a = get_analysis();
  REQUIRE(a != NULL);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  REQUIRE(f != NULL);
  CHECK(analyze_write_csv(f, a) == 0);
  fclose(f);
  /* text cells quoted (base's CSV writer), numbers bare */
  CHECK_CONTAINS(buf, "\"test\",\"kind\",\"op\",\"ios\",");
  CHECK_CONTAINS(buf, "\"cdm.rnd.read.p2\",\"cdm\",\"read\",20000,81920000,0,");
  CHECK_CONTAINS(buf, "\"tail.mix70\",\"tail\",\"write\",");
  free(buf);
  f = open_memstream(&buf, &len);
  CHECK(analyze_print_table(f, a, 0) == 0);
  fclose(f);
  CHECK_CONTAINS(buf, "rnd_read_plateau");
  CHECK_CONTAINS(buf, "RND4K Q32T1");
  free(buf);
}

TEST("The table says a drive without an SLC cache has none to recover, not '>= 0.00 GiB' at every idle") {
  json_t *a = json_loads("{\"cache_recovery\": {\"points\": [{\"idle_s\": 5, \"found\": false, \"recovered_gib\": null},"
                         " {\"idle_s\": 30, \"found\": false, \"recovered_gib\": null}],"
                         " \"exhaust\": {\"found\": false, \"speed_mb_s\": 112.8}}}", 0, NULL);
  REQUIRE(a != NULL);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  CHECK(analyze_print_table(f, a, 0) == 0);
  fclose(f);
  CHECK_CONTAINS(buf, "Cache recovery after idle: no SLC cache seen in any of its writes (the exhausting write ran at "
                      "113 MB/s to its bound)");
  CHECK(!strstr(buf, ">= 0.00"));
  free(buf);
  /* one idle gave a cache back: the series as it is */
  json_object_set_new(json_array_get(json_object_get(json_object_get(a, "cache_recovery"), "points"), 1), "recovered_gib",
                      json_real(2));
  f = open_memstream(&buf, &len);
  CHECK(analyze_print_table(f, a, 0) == 0);
  fclose(f);
  CHECK_CONTAINS(buf, "5 s not known, 30 s 2.00 GiB");
  free(buf);
  json_decref(a);
}

TEST("A run whose log is missing still analyzes, with the error in its entry") {
  const char *dir = test_path("run3");
  struct archive *run;
  REQUIRE(archive_create(&run, dir, "sim:test", NULL) == 0);
  json_t *t = archive_add_test(run, "gone", json_pack("{}"), "logs/gone.ssdlog");
  json_object_set_new(t, "kind", json_string("job"));
  REQUIRE(archive_save(run, NULL) == 0);
  archive_free(run);
  json_t *a = NULL;
  REQUIRE(analyze_run(dir, NULL, &a, NULL) == 0);
  CHECK_CONTAINS(json_string_value(json_object_get(json_object_get(json_object_get(a, "tests"), "gone"), "error")),
                 "gone.ssdlog");
  CHECK(find_flag(a, "log_unreadable") != NULL);
  json_decref(a);
  struct ssdrev_err e = {{0}};
  CHECK(analyze_run(test_path("no-such-run"), NULL, NULL, &e) < 0);
  CHECK_CONTAINS(e.msg, "no-such-run");
}

TEST("A fill shorter than 50 s gets a finer series, never below 1 ms; a longer one keeps 1 s") {
  static const struct {
    size_t n;
    uint64_t spacing_ns;
    double interval_s;
    size_t min_points;
  } c[] = {{2000, 10000, 0.001, 19}, {20000, 500000, 0.1, 49}, {100000, 1000000, 1, 99}};
  for (unsigned k = 0; k < 3; k++) {
    char nm[64];
    snprintf(nm, sizeof nm, "shortfill%u.ssdlog", k);
    const char *p = test_path(nm);
    REQUIRE(write_log(p, c[k].n, 131072, c[k].spacing_ns, 8000, 0, 0, 0) == 0);
    json_t *res = NULL;
    struct ssdrev_err e = {{0}};
    REQUIRE(analyze_log(p, NULL, ANALYZE_WANT_SERIES | ANALYZE_WANT_FILL, &res, &e) == 0);
    const json_t *s = json_object_get(res, "series");
    CHECK_NEAR(num(s, "interval_s"), c[k].interval_s, 1e-9);
    CHECK(json_array_size(json_object_get(s, "t_s")) >= c[k].min_points);
    /* the rate of an inner point is the log's: 128 KiB per spacing */
    CHECK_NEAR(json_number_value(json_array_get(json_object_get(s, "mb_s"), 5)), 131072.0 / c[k].spacing_ns * 1e3,
               131072.0 / c[k].spacing_ns * 1e3 * 0.01);
    if (c[k].interval_s < 1) CHECK_NEAR(num(s, "interval_requested_s"), 1, 1e-9);
    json_decref(res);
  }
}

TEST("A fill of less than 16 GiB gets per-GiB points at a finer power-of-two step, never below the trace's") {
  const char *p = test_path("smallfill.ssdlog");
  /* 512 x 128 KiB = 64 MiB: 16 points of 4 MiB (the trace's 1/256 GiB) */
  REQUIRE(write_log(p, 512, 131072, 40000, 8000, 0, 0, 0) == 0);
  json_t *res = NULL;
  struct ssdrev_err e = {{0}};
  REQUIRE(analyze_log(p, NULL, ANALYZE_WANT_SERIES | ANALYZE_WANT_FILL, &res, &e) == 0);
  const json_t *pg = json_object_get(json_object_get(res, "fill"), "per_gib");
  CHECK_EQ_U64(json_array_size(json_object_get(pg, "gib")), 16);
  CHECK_NEAR(num(pg, "step_gib"), 1.0 / 256, 1e-6);
  CHECK_NEAR(json_number_value(json_array_get(json_object_get(pg, "gib"), 15)), 1.0 / 16, 1e-4);
  /* 128 KiB per 40 us */
  CHECK_NEAR(json_number_value(json_array_get(json_object_get(pg, "mb_s"), 3)), 3276.8, 3276.8 * 0.02);
  /* narrowed, not widened: no warning */
  size_t i;
  json_t *w;
  json_array_foreach(json_object_get(res, "warnings"), i, w) CHECK(!strstr(json_string_value(w), "widened"));
  json_decref(res);
}

TEST("A fill of 1 GiB or more gets per-GiB bins of at least 128 MiB: a p99 resting on 1,024 writes, not a handful") {
  const char *p = test_path("shortfill.ssdlog");
  /* 16,000 x 128 KiB = 1.95 GiB, a short review's fill: 1/16 GiB bins (512
   * writes, a p99 on 5 of them) drew a false sawtooth (issue 27) */
  REQUIRE(write_log(p, 16000, 131072, 40000, 8000, 0, 0, 0) == 0);
  json_t *res = NULL;
  struct ssdrev_err e = {{0}};
  REQUIRE(analyze_log(p, NULL, ANALYZE_WANT_SERIES | ANALYZE_WANT_FILL, &res, &e) == 0);
  const json_t *pg = json_object_get(json_object_get(res, "fill"), "per_gib");
  CHECK_NEAR(num(pg, "step_gib"), 1.0 / 8, 1e-6);
  CHECK(json_array_size(json_object_get(pg, "gib")) >= 8 && json_array_size(json_object_get(pg, "gib")) <= 16);
  json_decref(res);
}
