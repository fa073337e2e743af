/* test_steady.c — the steady_state and consistency analyses against the
 * simulator's truth (docs/method.md "Steady state", "Performance
 * consistency": tolerances there), the SNIA PTS rule on hand-made rounds,
 * exact per-interval percentiles against a direct nearest-rank over the
 * log, and the flags not_steady, pre_steady and consistency_drops. Models
 * are PM981-like and GC-heavy drives scaled to 1 GiB so each run is short. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "analyze/analyze.h"
#include "analyze/analyze_int.h"
#include "bench/bench.h"
#include "log/ssdlog.h"
#include "sim/sim.h"
#include "tests/unit/testlib.h"

static const char *root(void) {
  const char *r = getenv("SSDREV_ROOT");
  return r ? r : ".";
}

/* MODEL (under ROOT) with a 1 GiB capacity and a small SLC cache, as a file;
 * without a page-mapped FTL (7.3% of 1 GiB is fewer spare blocks than it
 * needs; the FTL's steady state is tests/cli/review_ftl.sh on ftl-8g). */
static const char *small_model(const char *rel, const char *out) {
  char src[4200];
  snprintf(src, sizeof src, "%s/%s", root(), rel);
  FILE *in = fopen(src, "r"), *o = fopen(out, "w");
  if (!in || !o) {
    if (in) fclose(in);
    if (o) fclose(o);
    return NULL;
  }
  char line[1024];
  while (fgets(line, sizeof line, in)) {
    if (!strncmp(line, "capacity_bytes", 14)) fputs("capacity_bytes = 1GiB\n", o);
    else if (!strncmp(line, "slc_max_gib", 11)) fputs("slc_max_gib = 0.25\n", o);
    else if (!strncmp(line, "slc_min_gib", 11)) fputs("slc_min_gib = 0.0625\n", o);
    else if (strncmp(line, "op_pct", 6) && strncmp(line, "map_unit_bytes", 14)) fputs(line, o);
  }
  fclose(in);
  fclose(o);
  return out;
}

static const json_t *find_flag(const json_t *flags, const char *id) {
  for (size_t i = 0; i < json_array_size(flags); i++)
    if (!strcmp(json_string_value(json_object_get(json_array_get(flags, i), "id")), id)) return json_array_get(flags, i);
  return NULL;
}

static double num(const json_t *o, const char *k) {
  const json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

TEST("The PTS rule holds a flat window and refuses a 3%-per-round decline or a 25% spread") {
  double flat[8] = {100, 100, 101, 99, 100, 100, 100, 100};
  struct bench_pts_window w;
  CHECK(bench_pts_first_steady(flat, 8, 5, &w) == 5);
  CHECK(w.first == 0 && w.last == 4 && w.steady);
  CHECK_NEAR(w.mean, 100, 1e-9);
  /* -3 per round over 5 rounds: the line falls 12 across the window, > 10% of ~94 */
  double slope[6] = {100, 97, 94, 91, 88, 85};
  CHECK(bench_pts_first_steady(slope, 6, 5, &w) == 0);
  CHECK(!w.steady && w.range_pct <= 20);
  CHECK(w.excursion_pct > 10);
  /* within the slope but a 25% range (one outlier) */
  double spread[5] = {100, 125, 100, 100, 100};
  CHECK(bench_pts_judge(spread, 4, 5, &w) == 0);
  CHECK(!w.steady && w.range_pct > 20 && w.excursion_pct < 10);
  /* reaching it later: the first steady window ends at round 8 */
  double conv[9] = {200, 160, 130, 110, 101, 100, 100, 100, 100};
  CHECK(bench_pts_first_steady(conv, 9, 5, &w) == 8);
  CHECK(bench_pts_judge(conv, 3, 5, &w) == -EINVAL);
}

/* 4 KiB random writes at QD32 on a fresh sim target for SECS (logged). */
static struct bench_target *rand_write(const char *model, double secs, const char *log) {
  char spec[4400];
  snprintf(spec, sizeof spec, "sim:%s", model);
  struct bench_target_opts to = {0};
  to.write_intent = 1;
  to.seed = 5;
  struct bench_target *t;
  struct ssdrev_err e = {{0}};
  if (bench_target_open(&t, spec, &to, &e)) return NULL;
  struct bench_job job;
  struct bench_job_result res;
  bench_job_defaults(&job);
  snprintf(job.name, sizeof job.name, "cons");
  job.pattern = BENCH_RAND;
  job.read_pct = 0;
  job.block_bytes = 4096;
  job.qd = 32;
  job.threads = 1;
  job.measure_ns = (uint64_t)(secs * 1e9);
  if (bench_job_run(t, &job, log, NULL, NULL, &res, &e)) {
    fprintf(stderr, "    %s\n", e.msg);
    bench_target_close(t);
    return NULL;
  }
  return t;
}

TEST("An exact bin that lost latencies to a failed allocation takes p99.9 from its histogram, not 0") {
  struct analyze_bins b;
  analyze_bins_init(&b);
  b.exact = 1;
  for (uint64_t i = 1; i <= 2000; i++) analyze_bins_add(&b, 0, i * 1000, 4096, i, i + i * 1000);
  /* the state a failed realloc leaves: counted, latency not kept */
  b.win[0].nlat--;
  REQUIRE(analyze_bins_finish(&b) == 0);
  REQUIRE(b.nout == 1);
  CHECK(b.out[0].p99_ns > 0);
  CHECK(b.out[0].p999_ns >= b.out[0].p99_ns); /* near 1999 us; 0 before */
  CHECK(fabs(b.out[0].p999_ns - 1998000) < 0.15 * 1998000);
  analyze_bins_release(&b);
}

TEST("Per-interval p99.9 of an exact series equals the nearest rank over that interval's latencies") {
  const char *model = small_model("samples/models/pm981-256.model", test_path("p.model"));
  REQUIRE(model);
  const char *log = test_path("p.ssdlog");
  struct bench_target *t = rand_write(model, 3, log);
  REQUIRE(t);
  bench_target_close(t);
  json_t *res = NULL;
  struct ssdrev_err e = {{0}};
  REQUIRE(analyze_log(log, NULL, ANALYZE_WANT_SERIES | ANALYZE_WANT_SERIES_FINE | ANALYZE_WANT_SERIES_EXACT, &res, &e) == 0);
  const json_t *s = json_object_get(res, "series"), *f = json_object_get(res, "series_fine");
  REQUIRE(json_array_size(json_object_get(s, "p99_9_us")) >= 3);
  CHECK(json_array_size(json_object_get(f, "iops")) >= 30);
  CHECK_NEAR(num(f, "interval_s"), 0.1, 1e-12);
  /* every latency of the second interval [1 s, 2 s) and of fine interval 5 */
  size_t cap = 1 << 20, n1 = 0, n5 = 0;
  uint64_t *v1 = malloc(cap * sizeof *v1), *v5 = malloc(cap * sizeof *v5);
  REQUIRE(v1 && v5);
  struct ssdlog_reader *r;
  REQUIRE(ssdlog_open(&r, log, 0, &e) == 0);
  struct ssdlog_rec rec;
  while (ssdlog_next(r, &rec, &e) > 0) {
    if (!ssdlog_measured(rec.flags, rec.status)) continue;
    uint64_t done = rec.submit_ns + rec.lat_ns;
    if (done / 1000000000u == 1 && n1 < cap) v1[n1++] = rec.lat_ns;
    if (done / 100000000u == 5 && n5 < cap) v5[n5++] = rec.lat_ns;
  }
  ssdlog_close(r);
  REQUIRE(n1 > 1000 && n5 > 100);
  double p[3] = {50, 99, 99.9};
  struct analyze_pct_result r1[3], r5[3];
  REQUIRE(analyze_percentiles(v1, n1, p, 3, r1, &e) == 0);
  REQUIRE(analyze_percentiles(v5, n5, p, 3, r5, &e) == 0);
  CHECK_NEAR(json_number_value(json_array_get(json_object_get(s, "p99_9_us"), 1)), analyze_json_round(r1[2].value / 1e3, 3), 1e-9);
  CHECK_NEAR(json_number_value(json_array_get(json_object_get(s, "p99_us"), 1)), analyze_json_round(r1[1].value / 1e3, 3), 1e-9);
  CHECK_NEAR(json_number_value(json_array_get(json_object_get(s, "p50_us"), 1)), analyze_json_round(r1[0].value / 1e3, 3), 1e-9);
  CHECK_NEAR(json_number_value(json_array_get(json_object_get(f, "p99_9_us"), 5)), analyze_json_round(r5[2].value / 1e3, 3), 1e-9);
  CHECK_CONTAINS(json_string_value(json_object_get(s, "p_note")), "exact");
  free(v1), free(v5);
  json_decref(res);
}

TEST("Consistency on a GC-heavy fresh drive: steady IOPS within 5% of the simulator's full-drive rate, onset after its first GC step") {
  const char *model = small_model("tests/data/models/fam-gc.model", test_path("gc.model"));
  REQUIRE(model);
  const char *log = test_path("gc.ssdlog");
  struct bench_target *t = rand_write(model, 30, log);
  REQUIRE(t);
  struct sim_truth tr;
  sim_get_truth(bench_target_sim(t), &tr);
  struct sim_model m = *sim_get_model(bench_target_sim(t));
  bench_target_close(t);
  double truth = 0;
  struct ssdrev_err e = {{0}};
  REQUIRE(sim_model_measure_rand_write(&m, 4096, 32, &truth, &e) == 0);
  json_t *res = NULL;
  REQUIRE(analyze_log(log, NULL, ANALYZE_WANT_SERIES | ANALYZE_WANT_SERIES_FINE | ANALYZE_WANT_SERIES_EXACT, &res, &e) == 0);
  json_t *c = analyze_consistency_of(res);
  REQUIRE(c);
  const json_t *st = json_object_get(c, "steady"), *b = json_object_get(c, "burst");
  double mean = num(st, "mean_iops"), onset = num(b, "onset_s"), gc_s = (double)tr.gc_first_ns / 1e9;
  fprintf(stderr, "    steady %.0f IOPS, truth %.0f (%.3f); onset %.1f s, first GC step %.3f s; cov %.2f%%\n", mean, truth,
          mean / truth, onset, gc_s, num(st, "cov_pct"));
  CHECK(fabs(mean / truth - 1) <= 0.05);
  REQUIRE(tr.gc_first_ns > 0);
  /* the burst ends in the first second at or after the first GC step, within 3 s */
  CHECK(onset >= floor(gc_s) && onset <= gc_s + 3);
  CHECK(num(st, "min_iops") <= mean && num(st, "p1_iops") <= mean && num(st, "fine_min_iops") <= num(st, "min_iops"));
  CHECK(json_array_size(json_object_get(json_object_get(c, "per_s"), "p99_9_us")) ==
        json_array_size(json_object_get(json_object_get(c, "per_s"), "iops")));
  json_decref(c);
  json_decref(res);
}

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

TEST("Steady state from a purged drive: reached, window mean within -5%..+15% of the full-drive rate, the tail flagged as before it") {
  const char *model = small_model("samples/models/pm981-256.model", test_path("s.model"));
  REQUIRE(model);
  const char *meth = test_path("m.json");
  REQUIRE(write_file(meth,
                     "{\"format\": \"ssdrev-method\", \"format_version\": 1, \"name\": \"ss\",\n"
                     " \"settings\": {\"passes\": 1, \"measure_s\": 0.1, \"interval_s\": 0, \"region_bytes\": \"64MiB\"},\n"
                     " \"steps\": [{\"id\": \"purge\", \"kind\": \"purge\"},\n"
                     "  {\"id\": \"tail\", \"kind\": \"tail\", \"ios\": 2000, \"workloads\": [\"write\"]},\n"
                     "  {\"id\": \"ss\", \"kind\": \"steady_state\", \"round_s\": 1, \"rounds_max\": 25}]}\n") == 0);
  char spec[4400], dir[4400];
  snprintf(spec, sizeof spec, "sim:%s", model);
  snprintf(dir, sizeof dir, "%s", test_path("run"));
  struct bench_review_opts o = {.target_spec = spec, .profile_path = meth, .run_dir = dir, .quiet = 1, .seed = 2};
  struct ssdrev_err e = {{0}};
  int rc = bench_review_run(&o, NULL, NULL, &e);
  if (rc) fprintf(stderr, "    %s\n", e.msg);
  REQUIRE(rc == 0);
  json_t *a = NULL;
  REQUIRE(analyze_run(dir, NULL, &a, &e) == 0);
  struct sim_model m;
  REQUIRE(sim_model_load(&m, model, &e) == 0);
  double truth = 0;
  REQUIRE(sim_model_measure_rand_write(&m, 4096, 32, &truth, &e) == 0);
  const json_t *ss = json_object_get(a, "steady_state"), *w = json_object_get(ss, "window");
  REQUIRE(ss && w);
  double mean = num(w, "mean_iops");
  fprintf(stderr, "    steady at round %.0f, window mean %.0f IOPS, truth %.0f (%.3f), needed %.2f GiB\n",
          num(ss, "steady_round"), mean, truth, mean / truth, num(ss, "needed_gib"));
  CHECK(json_is_true(json_object_get(ss, "steady")));
  CHECK(mean / truth >= 0.95 && mean / truth <= 1.15);
  /* the run stopped where the analysis finds steady state */
  CHECK(num(ss, "steady_round") == (double)json_array_size(json_object_get(ss, "rounds")));
  CHECK(num(w, "range_pct") <= 20 && num(w, "excursion_pct") <= 10);
  const json_t *f = find_flag(json_object_get(a, "flags"), "pre_steady");
  REQUIRE(f);
  CHECK_STR(json_string_value(json_object_get(json_object_get(f, "numbers"), "section")), "tail");
  CHECK(num(json_object_get(f, "numbers"), "had_gib") < num(json_object_get(f, "numbers"), "needed_gib"));
  CHECK(!find_flag(json_object_get(a, "flags"), "not_steady"));
  json_decref(a);
}

TEST("pre_steady judges each section by its first test, and says nothing when the drive was steady from the first round") {
  json_t *a = json_pack("{s:{s:[{s:i}], s:b, s:f, s:b, s:b}, s:{s:{s:{s:s, s:I}, s:{s:s, s:I}, s:{s:s, s:I}}}}",
                        "steady_state", "rounds", "round", 1, "steady", 1, "needed_gib", 2.0, "needed_reached", 1,
                        "needed_known", 1, "write_volume", "tests", "cdm_75.a", "section", "cdm 75%", "before_bytes",
                        (json_int_t)0, "cdm_75.b", "section", "cdm 75%", "before_bytes", (json_int_t)(3ll << 30),
                        "tail.write", "section", "tail", "before_bytes", (json_int_t)(3ll << 30));
  json_t *flags = json_array();
  analyze_flag_pre_steady(a, flags);
  REQUIRE(json_array_size(flags) == 1); /* cdm 75% (its first test had 0 GiB); the tail had 3 > 2 */
  CHECK_STR(json_string_value(json_object_get(json_object_get(json_array_get(flags, 0), "numbers"), "section")), "cdm 75%");
  /* its message says none was written, not "0.00 GiB of random writes" */
  CHECK(strstr(json_string_value(json_object_get(json_array_get(flags, 0), "message")),
               "no random writes since the last fill") != NULL);
  json_object_set_new(json_object_get(a, "steady_state"), "needed_known", json_false());
  json_array_clear(flags);
  analyze_flag_pre_steady(a, flags);
  CHECK(json_array_size(flags) == 0);
  json_decref(a);
  json_decref(flags);
}

TEST("not_steady survives an interrupted step without a window and a window of mean 0 IOPS, and packs no NaN") {
  json_t *a = json_pack("{s:{s:[{s:i},{s:i}], s:b, s:i}}", "steady_state", "rounds", "round", 1, "round", 2, "steady",
                        0, "window_rounds", 5);
  json_t *flags = json_array();
  analyze_flag_not_steady(a, flags);
  const json_t *f = find_flag(flags, "not_steady");
  REQUIRE(f);
  const json_t *nums = json_object_get(f, "numbers");
  CHECK(json_integer_value(json_object_get(nums, "window_rounds")) == 5);
  CHECK(!json_object_get(nums, "range_pct"));
  CHECK(strstr(json_string_value(json_object_get(f, "message")), "fewer than its 5-round window") != NULL);
  json_decref(a);
  /* five rounds of 0 IOPS: the window's range is infinite; the window and
   * the flag must still be written */
  a = json_object();
  for (int r = 1; r <= 5; r++) {
    json_t *t = json_pack("{s:s, s:s, s:i, s:b, s:i, s:{s:i, s:i}}", "step", "steady_state", "name", "ss.w", "round",
                          r, "tracking", 1, "window", 5, "params", "read_pct", 0, "block_bytes", 4096);
    json_t *e = json_pack("{s:{s:{s:f, s:f}}}", "ops", "all", "iops", 0.0, "mb_s", 0.0);
    analyze_steady_add(a, t, e);
    json_decref(t);
    json_decref(e);
  }
  analyze_steady_finish(a); /* the judgment, once after the last round */
  const json_t *w = json_object_get(json_object_get(a, "steady_state"), "window");
  REQUIRE(w);
  CHECK(json_is_null(json_object_get(w, "range_pct")));
  json_array_clear(flags);
  analyze_flag_not_steady(a, flags);
  f = find_flag(flags, "not_steady");
  REQUIRE(f);
  CHECK(json_number_value(json_object_get(json_object_get(f, "numbers"), "mean_iops")) == 0);
  json_decref(a);
  json_decref(flags);
}

TEST("Hostile round and byte counts (1e300, -1e300) in test.json are clamped, not cast out of range") {
  json_t *a = json_object();
  json_t *t = json_pack("{s:s, s:s, s:s, s:f, s:b, s:{s:f, s:s}, s:{s:f}}", "step", "steady_state", "kind",
                        "steady_state", "name", "ss.w", "round", 1e300, "tracking", 1, "params", "read_pct", -1e300,
                        "pattern", "rand", "result", "bytes", 1e300);
  json_t *e = json_pack("{s:{s:{s:f, s:f}}}", "ops", "all", "iops", 1000.0, "mb_s", 4.0);
  analyze_write_volume_add(a, t, e);
  analyze_write_volume_add(a, t, e);
  analyze_steady_add(a, t, e);
  const json_t *r = json_array_get(json_object_get(json_object_get(a, "steady_state"), "rounds"), 0);
  REQUIRE(r);
  CHECK(json_integer_value(json_object_get(r, "round")) == 0);
  CHECK(json_integer_value(json_object_get(r, "write_bytes")) > 0);
  CHECK(json_integer_value(json_object_get(json_object_get(a, "write_volume"), "since_fill_bytes")) > 0);
  json_decref(a), json_decref(t), json_decref(e);
}

TEST("not_steady fires at the round limit, consistency_drops above 1% of seconds below half the mean, and neither just inside") {
  json_t *a = json_pack("{s:{s:[{s:i},{s:i}], s:b, s:{s:f, s:f}}}", "steady_state", "rounds", "round", 1, "round", 2,
                        "steady", 0, "window", "range_pct", 30.0, "excursion_pct", 12.0);
  json_t *flags = json_array();
  analyze_flag_not_steady(a, flags);
  CHECK(find_flag(flags, "not_steady") != NULL);
  json_object_set_new(json_object_get(a, "steady_state"), "steady", json_true());
  json_array_clear(flags);
  analyze_flag_not_steady(a, flags);
  CHECK(json_array_size(flags) == 0);
  json_decref(a);
  a = json_pack("{s:[{s:s, s:{s:f, s:f}}]}", "consistency", "test", "c.write", "steady", "below_pct", 1.5, "mean_iops",
                1000.0);
  analyze_flag_consistency(a, flags);
  const json_t *f = find_flag(flags, "consistency_drops");
  REQUIRE(f);
  CHECK_NEAR(num(json_object_get(f, "numbers"), "share_pct"), 1.0, 1e-12);
  json_object_set_new(json_object_get(json_array_get(json_object_get(a, "consistency"), 0), "steady"), "below_pct",
                      json_real(1.0));
  json_array_clear(flags);
  analyze_flag_consistency(a, flags);
  CHECK(json_array_size(flags) == 0);
  json_decref(a);
  json_decref(flags);
}
