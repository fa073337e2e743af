/* test_review.c — the whole method in short mode on a simulated drive and
 * on a temporary file: every step completes, the archive holds the test
 * kinds and keys of docs/archive.md, an interrupted review resumes from the
 * step it stopped in, --step reruns one step, and the plan has an ETA. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/method/review_int.h"
#include "tests/unit/testlib.h"
#include "bench/bench.h"

static const char *repo(const char *rel) {
  static char bufs[4][512];
  static int i;
  char *b = bufs[i++ & 3];
  const char *root = getenv("SSDREV_ROOT");
  snprintf(b, 512, "%s/%s", root ? root : ".", rel);
  return b;
}

static char sim_spec[600];

static void opts_sim(struct bench_review_opts *o, const char *dir) {
  memset(o, 0, sizeof *o);
  snprintf(sim_spec, sizeof sim_spec, "sim:%s", repo("samples/models/pm981-256.model"));
  o->target_spec = sim_spec;
  o->profile_path = repo("profiles/review.json");
  o->run_dir = dir;
  o->short_mode = 1;
  o->seed = 7;
  o->label = "PM981 256GB";
}

static json_t *manifest(const char *dir) {
  char p[600];
  snprintf(p, sizeof p, "%s/manifest.json", dir);
  return ssdrev_load_json(p, NULL);
}

static size_t count_kind(const json_t *m, const char *kind, const char *key, const char *val) {
  size_t n = 0, i;
  json_t *t;
  json_array_foreach(json_object_get(m, "tests"), i, t) {
    const char *k = json_string_value(json_object_get(t, "kind"));
    if (!k || strcmp(k, kind)) continue;
    if (key) {
      const char *v = json_string_value(json_object_get(t, key));
      if (!v || strcmp(v, val)) continue;
    }
    n++;
  }
  return n;
}

/* Every test complete, and every test with a log has a non-empty log file. */
static int all_complete(const json_t *m, const char *dir) {
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(m, "tests"), i, t) {
    const char *s = json_string_value(json_object_get(t, "status"));
    if (!s || strcmp(s, "complete")) return 0;
    const char *log = json_string_value(json_object_get(t, "log"));
    if (!log) continue;
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, log);
    FILE *f = fopen(p, "rb");
    if (!f) return 0;
    int empty = fgetc(f) == EOF;
    fclose(f);
    if (empty) return 0;
  }
  return 1;
}

TEST("A short review on the PM981 sim completes every step with the archive's kinds and keys") {
  struct bench_review_opts o;
  const char *dir = test_path("sim-run");
  opts_sim(&o, dir);
  struct ssdrev_err err = {{0}};
  int rc = bench_review_run(&o, NULL, NULL, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  json_t *m = manifest(dir);
  REQUIRE(m);
  const char *steps[] = {"purge", "cdm_fob", "fill75", "cdm_75", "fill_drive", "rw_sweep", "tail"};
  for (int i = 0; i < 7; i++)
    CHECK_STR(json_string_value(json_object_get(json_object_get(m, "steps"), steps[i])), "complete");
  CHECK(json_is_true(json_object_get(m, "simulated")));
  CHECK_STR(json_string_value(json_object_get(m, "label")), "PM981 256GB");
  CHECK_STR(json_string_value(json_object_get(json_object_get(m, "profile"), "name")), "review");
  CHECK_EQ_U64(json_integer_value(json_object_get(json_object_get(m, "method"), "passes")), 1);
  CHECK(json_is_object(json_object_get(m, "dut")));
  CHECK(json_integer_value(json_object_get(json_object_get(m, "dut"), "capacity_bytes")) > 0);
  /* 4 cells x 2 ops x (1 preparing + 1 measured pass) per CDM state */
  CHECK_EQ_U64(count_kind(m, "cdm", "state", "FOB"), 16);
  CHECK_EQ_U64(count_kind(m, "cdm", "state", "75%"), 16);
  CHECK_EQ_U64(count_kind(m, "fill_drive", "phase", "empty"), 1);
  CHECK_EQ_U64(count_kind(m, "fill_drive", "phase", "near_full"), 1);
  CHECK_EQ_U64(count_kind(m, "rw_sweep", NULL, NULL), 33);
  CHECK_EQ_U64(count_kind(m, "tail", NULL, NULL), 3);
  CHECK(count_kind(m, "prefill", NULL, NULL) >= 1);
  CHECK(count_kind(m, "temperature", NULL, NULL) >= 1);
  CHECK(all_complete(m, dir));
  /* the tail tests in short mode are too short for p99.999: warned */
  json_t *tail = NULL;
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(m, "tests"), i, t)
    if (!strcmp(json_string_value(json_object_get(t, "name")), "tail.read")) tail = t;
  REQUIRE(tail);
  CHECK_EQ_U64(json_integer_value(json_object_get(json_object_get(tail, "result"), "ios")), 5000);
  CHECK(json_array_size(json_object_get(tail, "warnings")) > 0);
  char logp[700];
  snprintf(logp, sizeof logp, "%s/logs/tail.read.ssdlog", dir);
  CHECK(access(logp, R_OK) == 0);
  /* the simulated drive's state is kept only while a resume needs it */
  snprintf(logp, sizeof logp, "%s/sim-state.bin", dir);
  CHECK(access(logp, F_OK) != 0);
  json_decref(m);
}

static void stop_in_cdm_75(const struct bench_progress *p, void *arg) {
  int *seen = arg;
  if (strstr(p->phase, "cdm_75.RND4K")) {
    (*seen)++;
    bench_stop_requested = 1;
  }
}

TEST("An interrupted review resumes from the interrupted step and keeps the completed ones") {
  struct bench_review_opts o;
  const char *dir = test_path("sim-resume");
  opts_sim(&o, dir);
  int seen = 0;
  struct ssdrev_err err = {{0}};
  int rc = bench_review_run(&o, stop_in_cdm_75, &seen, &err);
  bench_stop_requested = 0;
  CHECK(rc == -EINTR);
  CHECK(seen > 0);
  json_t *m = manifest(dir);
  REQUIRE(m);
  CHECK_STR(json_string_value(json_object_get(json_object_get(m, "steps"), "cdm_75")), "interrupted");
  CHECK_STR(json_string_value(json_object_get(json_object_get(m, "steps"), "fill75")), "complete");
  CHECK(json_object_get(json_object_get(m, "steps"), "tail") == NULL);
  const char *fob_end = json_string_value(json_object_get(json_array_get(json_object_get(m, "tests"), 0), "end"));
  char fob_end_copy[64];
  snprintf(fob_end_copy, sizeof fob_end_copy, "%s", fob_end ? fob_end : "");
  size_t fob_tests = count_kind(m, "cdm", "state", "FOB");
  json_decref(m);
  /* other options than the run's are refused, nothing run or changed */
  o.short_mode = 0;
  rc = bench_review_run(&o, NULL, NULL, &err);
  CHECK(rc == BENCH_REVIEW_OPTIONS_DIFFER);
  CHECK_CONTAINS(err.msg, "no --short (the run was made with it)");
  m = manifest(dir);
  REQUIRE(m);
  CHECK_STR(json_string_value(json_object_get(json_object_get(m, "steps"), "cdm_75")), "interrupted");
  json_decref(m);
  /* the same options resume */
  o.short_mode = 1;
  rc = bench_review_run(&o, NULL, NULL, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  m = manifest(dir);
  REQUIRE(m);
  CHECK_STR(json_string_value(json_object_get(json_object_get(m, "steps"), "cdm_75")), "complete");
  CHECK_STR(json_string_value(json_object_get(json_object_get(m, "steps"), "tail")), "complete");
  CHECK_EQ_U64(count_kind(m, "cdm", "state", "FOB"), fob_tests);
  CHECK_EQ_U64(count_kind(m, "cdm", "state", "75%"), 16); /* no duplicates of the interrupted try */
  CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(m, "tests"), 0), "end")), fob_end_copy);
  CHECK(all_complete(m, dir));
  json_decref(m);
}

TEST("--step reruns one step alone and leaves the others as they were") {
  struct bench_review_opts o;
  const char *dir = test_path("sim-step");
  opts_sim(&o, dir);
  o.only_step = "tail";
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_review_run(&o, NULL, NULL, &err) == 0);
  json_t *m = manifest(dir);
  REQUIRE(m);
  CHECK_EQ_U64(json_object_size(json_object_get(m, "steps")), 1);
  CHECK_EQ_U64(count_kind(m, "tail", NULL, NULL), 3);
  json_decref(m);
  REQUIRE(bench_review_run(&o, NULL, NULL, &err) == 0); /* again: replaced, not appended */
  m = manifest(dir);
  CHECK_EQ_U64(count_kind(m, "tail", NULL, NULL), 3);
  json_decref(m);
  o.only_step = "nope";
  CHECK(bench_review_run(&o, NULL, NULL, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "no step 'nope'");
}

TEST("The plan lists every step with an estimate and a total") {
  struct bench_review_opts o;
  opts_sim(&o, test_path("never-created"));
  o.short_mode = 0;
  char buf[8192];
  struct ssdrev_err err = {{0}};
  int rc = bench_review_plan(&o, buf, sizeof buf, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  CHECK_CONTAINS(buf, "cdm_fob");
  CHECK_CONTAINS(buf, "fill_drive");
  CHECK_CONTAINS(buf, "estimated total");
  CHECK_CONTAINS(buf, "CrystalDiskMark 8");
  CHECK(access(test_path("never-created"), F_OK) != 0);
}

TEST("A short review runs end to end on a temporary file and records the DUT JSON given") {
  struct bench_review_opts o;
  memset(&o, 0, sizeof o);
  const char *dir = test_path("file-run");
  o.target_spec = test_path("disk.img");
  o.create_bytes = 96ull << 20;
  o.profile_path = repo("profiles/review.json");
  o.run_dir = dir;
  o.short_mode = 1;
  o.seed = 3;
  o.dut_json_dir = repo("samples/dut/pm981-256");
  struct ssdrev_err err = {{0}};
  int rc = bench_review_run(&o, NULL, NULL, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  json_t *m = manifest(dir);
  REQUIRE(m);
  CHECK(json_is_false(json_object_get(m, "simulated")));
  CHECK_STR(json_string_value(json_object_get(json_object_get(m, "steps"), "tail")), "complete");
  json_t *dut = json_object_get(m, "dut");
  CHECK_STR(json_string_value(json_object_get(dut, "model")), "SAMSUNG MZVLB256HAHQ-000L7");
  CHECK_STR(json_string_value(json_object_get(json_object_get(dut, "raw"), "id_ctrl")), "dut/id-ctrl.json");
  char p[700];
  snprintf(p, sizeof p, "%s/dut/smartctl.json", dir);
  CHECK(access(p, R_OK) == 0);
  CHECK(all_complete(m, dir));
  json_decref(m);
}

/* params.idle_ns of test `name` in the manifest, or -1 when absent. */
static long long idle_of(const json_t *m, const char *name) {
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(m, "tests"), i, t) {
    const char *n = json_string_value(json_object_get(t, "name"));
    if (n && !strcmp(n, name)) return (long long)json_integer_value(json_object_get(json_object_get(t, "params"), "idle_ns"));
  }
  return -1;
}

static long long index_of(const json_t *m, const char *name) {
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(m, "tests"), i, t) {
    const char *n = json_string_value(json_object_get(t, "name"));
    if (n && !strcmp(n, name)) return (long long)i;
  }
  return -1;
}

TEST("CDM step as CrystalDiskMark: all reads then all writes, passes back to back, the interval only between tests") {
  const char *prof = test_path("cdm-seq.json");
  FILE *f = fopen(prof, "w");
  REQUIRE(f);
  fputs("{\"format\": \"ssdrev-method\", \"format_version\": 1, \"name\": \"cdm-seq\",\n"
        " \"settings\": {\"passes\": 2, \"measure_s\": 0.05, \"interval_s\": 0.5, \"region_bytes\": \"16MiB\"},\n"
        " \"steps\": [{\"id\": \"cdm\", \"kind\": \"cdm\", \"cells\": [\"SEQ1M Q8T1\", \"RND4K Q1T1\"]}]}\n", f);
  fclose(f);
  struct bench_review_opts o;
  const char *dir = test_path("cdm-seq-run");
  opts_sim(&o, dir);
  o.profile_path = prof;
  o.short_mode = 0;
  struct ssdrev_err err = {{0}};
  int rc = bench_review_run(&o, NULL, NULL, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  json_t *m = manifest(dir);
  REQUIRE(m);
  /* order: preparing write of the region, then reads of every cell, then writes */
  CHECK(index_of(m, "cdm.prepare") >= 0);
  CHECK(index_of(m, "cdm.prepare") < index_of(m, "cdm.SEQ1M_Q8T1.read.p0"));
  CHECK(index_of(m, "cdm.SEQ1M_Q8T1.read.p2") < index_of(m, "cdm.RND4K_Q1T1.read.p0"));
  CHECK(index_of(m, "cdm.RND4K_Q1T1.read.p2") < index_of(m, "cdm.SEQ1M_Q8T1.write.p0"));
  CHECK(index_of(m, "cdm.SEQ1M_Q8T1.write.p2") < index_of(m, "cdm.RND4K_Q1T1.write.p0"));
  CHECK(index_of(m, "cdm.RND4K_Q1T1.write.p2") >= 0);
  CHECK(index_of(m, "cdm.RND4K_Q1T1.write.p3") < 0);
  /* the interval before each test but the first; none between passes */
  CHECK_EQ_U64(idle_of(m, "cdm.SEQ1M_Q8T1.read.p0"), 0);
  CHECK_EQ_U64(idle_of(m, "cdm.SEQ1M_Q8T1.read.p1"), 0);
  CHECK_EQ_U64(idle_of(m, "cdm.RND4K_Q1T1.read.p0"), 500000000);
  CHECK_EQ_U64(idle_of(m, "cdm.RND4K_Q1T1.read.p2"), 0);
  CHECK_EQ_U64(idle_of(m, "cdm.SEQ1M_Q8T1.write.p0"), 500000000);
  CHECK_EQ_U64(idle_of(m, "cdm.SEQ1M_Q8T1.write.p1"), 0);
  CHECK_EQ_U64(idle_of(m, "cdm.RND4K_Q1T1.write.p0"), 500000000);
  /* time-based passes: a 16 MiB region is read far more than once in 50 ms */
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(m, "tests"), i, t) {
    const char *n = json_string_value(json_object_get(t, "name"));
    if (n && !strcmp(n, "cdm.SEQ1M_Q8T1.read.p1"))
      CHECK(json_integer_value(json_object_get(json_object_get(t, "result"), "bytes")) > 3 * (16 << 20));
  }
  json_decref(m);
}

/* What the progress line showed during a review, report by report. */
struct eta_trace {
  size_t n, cdm_reports, cdm_rated, cdm_zero;
  double t_s[4096], end_s[4096]; /* wall time of a report; that plus the review's ETA */
  uint64_t t0_ns;
};

static void trace_eta(const struct bench_progress *p, void *arg) {
  struct eta_trace *tr = arg;
  double t = (double)(ssdrev_clock_ns() - tr->t0_ns) / 1e9;
  if (strstr(p->phase, "cdm.") && !strstr(p->phase, "prepare") && !p->idle && p->fraction < 1) {
    tr->cdm_reports++;
    if (p->mb_s > 0 && p->iops > 0) tr->cdm_rated++;
    if (p->mb_s == 0 || p->iops == 0) tr->cdm_zero++;
  }
  /* the review's ETA once it has one, and before the last few percent,
   * where a second's rounding is all there is */
  if (p->total_eta_s < 0 || p->total_fraction < 0.1 || p->total_fraction > 0.9 || tr->n >= 4096) return;
  tr->t_s[tr->n] = t;
  tr->end_s[tr->n++] = t + p->total_eta_s;
}

TEST("On a simulated drive the review's predicted end holds steady through a CrystalDiskMark step, with its MB/s shown") {
  /* issue 27: the ETA counted device time while the sim's wall time follows
   * its I/Os, so RND4K Q32T1 (100,000s of I/Os a second) after SEQ1M (a
   * few thousand) pushed the predicted end later and later */
  const char *prof = test_path("cdm-eta.json");
  FILE *f = fopen(prof, "w");
  REQUIRE(f);
  fputs("{\"format\": \"ssdrev-method\", \"format_version\": 1, \"name\": \"cdm-eta\",\n"
        " \"settings\": {\"passes\": 1, \"measure_s\": 1, \"interval_s\": 1, \"region_bytes\": \"64MiB\"},\n"
        " \"cdm_profiles\": {\"default\": [\"SEQ1M Q8T1\", \"SEQ1M Q1T1\", \"RND4K Q32T1\", \"RND4K Q1T1\"]},\n"
        " \"steps\": [{\"id\": \"cdm\", \"kind\": \"cdm\", \"profile\": \"default\"}]}\n", f);
  fclose(f);
  /* the PM981 without its page-mapped FTL: the plan prices a simulated I/O
   * at the bitmap drive's work (bench/method/cost.c), and the FTL's random
   * writes cost more of it (with the FTL the ETA grew 1.38-1.56x here, the
   * limit below 1.5); this test is about the plan's rates across the cells */
  static char spec[600];
  const char *model = test_path("pm981-bitmap.model");
  FILE *in = fopen(repo("samples/models/pm981-256.model"), "r"), *out = fopen(model, "w");
  REQUIRE(in && out);
  char line[512];
  while (fgets(line, sizeof line, in))
    if (strncmp(line, "op_pct", 6) && strncmp(line, "map_unit_bytes", 14)) fputs(line, out);
  fclose(in);
  REQUIRE(fclose(out) == 0);
  snprintf(spec, sizeof spec, "sim:%s", model);
  struct bench_review_opts o;
  const char *dir = test_path("cdm-eta-run");
  opts_sim(&o, dir);
  o.target_spec = spec;
  o.profile_path = prof;
  o.short_mode = 0;
  static struct eta_trace tr;
  memset(&tr, 0, sizeof tr);
  tr.t0_ns = ssdrev_clock_ns();
  struct ssdrev_err err = {{0}};
  int rc = bench_review_run(&o, trace_eta, &tr, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  double total_s = (double)(ssdrev_clock_ns() - tr.t0_ns) / 1e9;
  REQUIRE(tr.n >= 10);
  /* the most an ETA grew over any earlier one, and the range of the end it predicted */
  double grow = 1, lo = tr.end_s[0], hi = tr.end_s[0], least = tr.end_s[0] - tr.t_s[0];
  for (size_t i = 1; i < tr.n; i++) {
    double eta = tr.end_s[i] - tr.t_s[i];
    if (least > 0 && eta / least > grow) grow = eta / least;
    if (eta < least) least = eta;
    if (tr.end_s[i] < lo) lo = tr.end_s[i];
    if (tr.end_s[i] > hi) hi = tr.end_s[i];
  }
  fprintf(stderr, "    %zu ETAs, grew at most %.2fx; predicted end %.2f..%.2f s, took %.2f s; CDM reports %zu, rated %zu\n",
          tr.n, grow, lo, hi, total_s, tr.cdm_reports, tr.cdm_rated);
  /* counted in device time the ETA grew 2.6x and the end it predicted was
   * a third of the time the step took */
  CHECK(grow < 1.5);
  CHECK(hi < 3 * total_s && lo > total_s / 3);
  /* every CDM pass report with a rate shows a real one, never 0 MB/s */
  CHECK(tr.cdm_reports > 16);
  CHECK(tr.cdm_zero == 0);
  CHECK(tr.cdm_rated * 2 > tr.cdm_reports);
}
