/* test_profile.c — method files: the shipped ones load, short mode and
 * --passes apply, mistakes are refused naming the file and key. */
#include <errno.h>
#include <stdlib.h>
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

static int load_text(struct review_profile *p, const char *text, int short_mode, struct ssdrev_err *err) {
  json_error_t je;
  /* as ssdrev_load_json reads method files: "\u0000" reaches the parser */
  json_t *root = json_loads(text, JSON_ALLOW_NUL, &je);
  if (!root) return -999;
  int rc = bench_review_profile_from_json(p, root, "test.json", short_mode, 0, err);
  json_decref(root);
  return rc;
}

TEST("The reference method loads with its seven steps in the review's order") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  int rc = bench_review_profile_load(&p, repo("profiles/review.json"), 0, 0, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  CHECK_EQ_U64(p.nsteps, 7);
  static const char *const ids[] = {"purge", "cdm_fob", "fill75", "cdm_75", "fill_drive", "rw_sweep", "tail"};
  for (unsigned i = 0; i < 7 && i < p.nsteps; i++) CHECK_STR(p.steps[i].id, ids[i]);
  CHECK_EQ_U64(p.set.passes, 5);
  CHECK_NEAR(p.set.measure_s, 5, 0);
  CHECK_NEAR(p.set.interval_s, 5, 0);
  CHECK_EQ_U64(p.set.region_bytes, 1ull << 30);
  const struct review_step *cdm = bench_review_profile_step(&p, "cdm_fob");
  REQUIRE(cdm);
  CHECK_EQ_U64(cdm->ncells, 4);
  CHECK_STR(cdm->cells[0].name, "SEQ1M Q8T1");
  CHECK_EQ_U64(cdm->cells[0].block_bytes, 1048576);
  CHECK_EQ_U64(cdm->cells[0].qd, 8);
  CHECK(cdm->cells[2].pattern == BENCH_RAND);
  CHECK_EQ_U64(cdm->cells[2].qd, 32);
  CHECK_EQ_U64(cdm->cells[3].block_bytes, 4096);
  CHECK_STR(bench_review_profile_step(&p, "cdm_75")->state, "75%");
  const struct review_step *tail = bench_review_profile_step(&p, "tail");
  CHECK_EQ_U64(tail->ios, 1000000);
  const struct review_step *sw = bench_review_profile_step(&p, "rw_sweep");
  CHECK_EQ_U64(sw->nqds, 3);
  CHECK_EQ_U64(sw->qds[2], 4);
  bench_review_profile_free(&p);
}

TEST("The full method extends the reference one: its seven steps, then QD scaling, cache recovery, steady state, consistency and the thermal step, with the reference settings") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  int rc = bench_review_profile_load(&p, repo("profiles/review-full.json"), 1, 0, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  CHECK_EQ_U64(p.nsteps, 12);
  CHECK_STR(p.steps[0].id, "purge");
  CHECK_STR(p.steps[6].id, "tail");
  CHECK_STR(p.steps[7].kind->name, "qd_scaling");
  CHECK_EQ_U64(p.steps[7].nqds, 8);
  CHECK_EQ_U64(p.steps[7].qds[7], 128);
  CHECK_STR(p.name, "review-full");
  CHECK_NEAR(p.set.sweep_measure_s, 0.05, 1e-12); /* the reference method's short block */
  CHECK(json_object_get(p.json, "extends") == NULL && json_array_size(json_object_get(p.json, "steps")) == 12);
  CHECK_STR(p.steps[11].kind->name, "thermal"); /* last: the drive cools first, whatever ran before */
  CHECK_NEAR(p.steps[11].duration_s, 600, 1e-9);
  /* short mode: 30 s of writing, no cooling idle */
  CHECK_NEAR(p.steps[11].kind->estimate(&p, &p.steps[11], 1ull << 30, REVIEW_BASIS_DEVICE), 30, 1e-9);
  /* 2 workloads x 8 QDs x 0.05 s in short mode */
  CHECK_NEAR(p.steps[7].kind->estimate(&p, &p.steps[7], 1ull << 30, REVIEW_BASIS_DEVICE), 0.8, 1e-9);
  /* the new steps last, with their short blocks: the PTS preparation (a purge,
   * 2 s, and two 1 GiB passes at the plan's 1000 MB/s), then 25 rounds x 0.5 s;
   * a purge, one pass and 10 s */
  CHECK_STR(p.steps[9].kind->name, "steady_state");
  CHECK_EQ_U64(p.steps[9].rounds_max, 25);
  CHECK_EQ_U64(p.steps[9].prepare, REVIEW_PREP_PTS);
  CHECK_NEAR(p.steps[9].kind->estimate(&p, &p.steps[9], 1ull << 30, REVIEW_BASIS_DEVICE), 2 + 2 * 1.073741824 + 12.5,
             1e-9);
  CHECK_STR(p.steps[10].kind->name, "consistency");
  CHECK_NEAR(p.steps[10].kind->estimate(&p, &p.steps[10], 1ull << 30, REVIEW_BASIS_DEVICE), 2 + 1.073741824 + 10, 1e-9);
  /* cache recovery: idles of 5 s .. 10 min (short mode: / 100), then the
   * plan counts them all and five writes of at most their bound */
  CHECK_STR(p.steps[8].kind->name, "cache_recovery");
  CHECK_EQ_U64(p.steps[8].nidles, 4);
  CHECK_NEAR(p.steps[8].idles_s[3], 600, 1e-12);
  /* short: 2 GiB region, bound 512 MiB at 1000 MB/s */
  CHECK_NEAR(p.steps[8].kind->estimate(&p, &p.steps[8], 8ull << 30, REVIEW_BASIS_DEVICE), 7.55 + 5.0 * 536870912 / 1e9, 1e-9);
  bench_review_profile_free(&p);
}

TEST("Cache-recovery idles must rise and be positive; the plan counts every idle in full") {
  const char *bad[] = {"[]", "[5, 5]", "[30, 5]", "[0, 5]", "[-1]", "[\"5\"]", "5"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[512];
    snprintf(text, sizeof text,
             "{\"format\": \"ssdrev-method\", \"format_version\": 1, \"name\": \"x\", \"steps\": "
             "[{\"id\": \"rec\", \"kind\": \"cache_recovery\", \"idles_s\": %s}]}", bad[i]);
    struct review_profile p;
    struct ssdrev_err err = {{0}};
    json_t *j = json_loads(text, 0, NULL);
    REQUIRE(j != NULL);
    CHECK(bench_review_profile_from_json(&p, j, "x.json", 0, 0, &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, "idles_s");
    json_decref(j);
  }
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  json_t *j = json_loads("{\"format\": \"ssdrev-method\", \"format_version\": 1, \"name\": \"x\", \"plan\": "
                         "{\"write_mb_s\": 1000, \"read_mb_s\": 2000, \"qd1_iops\": 15000}, \"steps\": "
                         "[{\"id\": \"rec\", \"kind\": \"cache_recovery\", \"idles_s\": [10, 3600]}]}", 0, NULL);
  REQUIRE(j != NULL);
  int rc = bench_review_profile_from_json(&p, j, "x.json", 0, 0, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  /* a 64 GiB drive: 3610 s of idle and three writes of at most 16 GiB */
  CHECK_NEAR(p.steps[0].kind->estimate(&p, &p.steps[0], 64ull << 30, REVIEW_BASIS_DEVICE), 3610 + 3.0 * 17179869184 / 1e9, 1e-6);
  bench_review_profile_free(&p);
  json_decref(j);
}

TEST("QD-scaling depths must rise; extends must name a sibling method") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  json_t *j = json_loads("{\"format\": \"ssdrev-method\", \"format_version\": 1, \"name\": \"x\","
                         " \"steps\": [{\"id\": \"q\", \"kind\": \"qd_scaling\", \"qds\": [1, 4, 2]}]}", 0, NULL);
  REQUIRE(j != NULL);
  CHECK(bench_review_profile_from_json(&p, j, "t.json", 0, 0, &err) == -EINVAL);
  CHECK(strstr(err.msg, "qds[2]") != NULL);
  json_decref(j);
  char dir[] = "/tmp/ssdrev-prof.XXXXXX", path[64];
  REQUIRE(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/m.json", dir);
  FILE *f = fopen(path, "w");
  REQUIRE(f != NULL);
  fputs("{\"format\": \"ssdrev-method\", \"format_version\": 1, \"name\": \"m\", \"extends\": \"../x\"}", f);
  fclose(f);
  CHECK(bench_review_profile_load(&p, path, 0, 0, &err) == -EINVAL);
  CHECK(strstr(err.msg, "'extends'") != NULL);
  unlink(path);
  rmdir(dir);
}

TEST("The CDM NVMe profile has RND4K Q32T16 with 16 threads") {
  struct review_profile p;
  REQUIRE(bench_review_profile_load(&p, repo("profiles/cdm-nvme.json"), 0, 0, NULL) == 0);
  const struct review_step *s = bench_review_profile_step(&p, "cdm");
  REQUIRE(s);
  CHECK_EQ_U64(s->ncells, 4);
  CHECK_STR(s->cells[1].name, "SEQ128K Q32T1");
  CHECK_EQ_U64(s->cells[1].block_bytes, 131072);
  CHECK_EQ_U64(s->cells[2].threads, 16);
  CHECK_EQ_U64(s->cells[2].qd, 32);
  bench_review_profile_free(&p);
  const char *others[] = {"profiles/cdm-default.json", "profiles/cdm-peak.json", "profiles/cdm-real.json"};
  for (int i = 0; i < 3; i++) {
    struct ssdrev_err err = {{0}};
    int rc = bench_review_profile_load(&p, repo(others[i]), 0, 0, &err);
    if (rc) fprintf(stderr, "    %s\n", err.msg);
    CHECK(rc == 0);
    bench_review_profile_free(&p);
  }
}

TEST("Short mode and --passes 3 override the method's settings") {
  struct review_profile p;
  REQUIRE(bench_review_profile_load(&p, repo("profiles/review.json"), 1, 3, NULL) == 0);
  CHECK_EQ_U64(p.set.passes, 3);
  CHECK(p.set.measure_s < 1);
  CHECK(p.set.region_bytes < (1ull << 30));
  CHECK(p.set.fill_max_bytes > 0);
  CHECK(p.set.tail_ios > 0 && p.set.tail_ios < 1000000);
  bench_review_profile_free(&p);
}

TEST("A mistyped key is refused naming the file, the step and the key") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  const char *t = "{\"format\":\"ssdrev-method\",\"format_version\":1,\"steps\":["
                  "{\"id\":\"a\",\"kind\":\"tail\",\"iox\":5}]}";
  CHECK(load_text(&p, t, 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "test.json");
  CHECK_CONTAINS(err.msg, "step 'a'");
  CHECK_CONTAINS(err.msg, "'iox'");
}

TEST("The step kinds' names are listed from the kinds table, cut short safely in a small buffer") {
  char all[512], small[12];
  size_t need = bench_review_kind_names(all, sizeof all);
  CHECK(need == strlen(all));
  CHECK(strncmp(all, "purge, cdm, ", 12) == 0);
  CHECK_CONTAINS(all, ", thermal, ");
  CHECK_CONTAINS(all, ", cache_recovery");
  /* every name the list holds is a kind the table finds */
  for (const char *k = all; *k;) {
    char name[64];
    size_t len = strcspn(k, ",");
    snprintf(name, sizeof name, "%.*s", (int)len, k);
    CHECK(bench_review_kind_find(name) != NULL);
    k += len;
    if (*k) k += 2; /* ", " */
  }
  CHECK(bench_review_kind_names(small, sizeof small) == need);
  CHECK_STR(small, "purge, cdm,");
  CHECK(bench_review_kind_names(NULL, 0) == need);
}

TEST("Unknown kinds, bad cells, duplicate ids and a wrong format are refused") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  CHECK(load_text(&p, "{\"format\":\"ssdrev-method\",\"format_version\":1,\"steps\":[{\"id\":\"a\",\"kind\":\"dance\"}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "unknown kind 'dance' (purge, cdm, prefill, fill_drive, rw_sweep, tail, ");
  /* the list is the kinds table's, the newer kinds included */
  CHECK_CONTAINS(err.msg, "thermal");
  CHECK_CONTAINS(err.msg, "cache_recovery)");
  CHECK(load_text(&p, "{\"format\":\"ssdrev-method\",\"format_version\":1,\"steps\":[{\"id\":\"a\",\"kind\":\"cdm\",\"cells\":[\"SEQ1X Q8T1\"]}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "SEQ1X Q8T1");
  CHECK(load_text(&p, "{\"format\":\"ssdrev-method\",\"format_version\":1,\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"},{\"id\":\"a\",\"kind\":\"purge\"}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "duplicate");
  CHECK(load_text(&p, "{\"format\":\"ssdrev-method\",\"format_version\":1,\"steps\":[{\"id\":\"a\",\"kind\":\"purge\",\"method\":\"shred\"}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "'method'");
  CHECK_CONTAINS(err.msg, "shred");
  CHECK(load_text(&p, "{\"format\":\"fio\",\"format_version\":1,\"steps\":[]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "ssdrev-method");
  CHECK(load_text(&p, "{\"format\":\"ssdrev-method\",\"format_version\":1,\"steps\":[{\"id\":\"a\",\"kind\":\"rw_sweep\",\"read_pct_step\":7}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "divide 100");
}

TEST("Sizes parse as binary units and plain bytes") {
  uint64_t v = 0;
  CHECK(ssdrev_parse_size("1GiB", &v) == 0 && v == (1ull << 30));
  CHECK(ssdrev_parse_size("128KiB", &v) == 0 && v == 131072);
  CHECK(ssdrev_parse_size("4k", &v) == 0 && v == 4096);
  CHECK(ssdrev_parse_size("512", &v) == 0 && v == 512);
  CHECK(ssdrev_parse_size("12 parsecs", &v) != 0);
  CHECK(ssdrev_parse_size("-1", &v) != 0);
}

TEST("Estimates follow the method: a CDM step at 5 passes is 8 tests x 6 passes x 5 s, 7 intervals of 5 s, plus the region") {
  struct review_profile p;
  REQUIRE(bench_review_profile_load(&p, repo("profiles/review.json"), 0, 0, NULL) == 0);
  const struct review_step *s = bench_review_profile_step(&p, "cdm_fob");
  double e = s->kind->estimate(&p, s, 256060514304ull, REVIEW_BASIS_DEVICE);
  CHECK_NEAR(e, 8 * 6 * 5 + 7 * 5 + 1073741824.0 / 1e9, 0.01);
  const struct review_step *t = bench_review_profile_step(&p, "tail");
  CHECK_NEAR(t->kind->estimate(&p, t, 256060514304ull, REVIEW_BASIS_DEVICE), 3e6 / 15000, 0.01);
  bench_review_profile_free(&p);
}

TEST("settings.wait picks how the jobs wait for completions; other values are refused") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  CHECK(load_text(&p, "{\"format\":\"ssdrev-method\",\"format_version\":1,\"settings\":{\"wait\":\"sleep\"},"
                      "\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"}]}", 0, &err) == 0);
  CHECK(p.set.wait == BENCH_WAIT_SLEEP);
  bench_review_profile_free(&p);
  CHECK(load_text(&p, "{\"format\":\"ssdrev-method\",\"format_version\":1,"
                      "\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"}]}", 0, &err) == 0);
  CHECK(p.set.wait == BENCH_WAIT_AUTO);
  bench_review_profile_free(&p);
  CHECK(load_text(&p, "{\"format\":\"ssdrev-method\",\"format_version\":1,\"settings\":{\"wait\":\"spin\"},"
                      "\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "'wait'");
}

TEST("A purge step takes its method (auto, discard, format); auto is the default") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  REQUIRE(load_text(&p, "{\"format\":\"ssdrev-method\",\"format_version\":1,\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"},"
                        "{\"id\":\"b\",\"kind\":\"purge\",\"method\":\"format\"},{\"id\":\"c\",\"kind\":\"purge\",\"method\":\"discard\"}]}",
                    0, &err) == 0);
  CHECK(p.steps[0].purge_how == BENCH_PURGE_AUTO);
  CHECK(p.steps[1].purge_how == BENCH_PURGE_FORMAT);
  CHECK(p.steps[2].purge_how == BENCH_PURGE_DISCARD);
  char d[256];
  p.steps[1].kind->describe(&p, &p.steps[1], 1ull << 30, d, sizeof d);
  CHECK_CONTAINS(d, "Format NVM");
  bench_review_profile_free(&p);
}

#define MHEAD "{\"format\":\"ssdrev-method\",\"format_version\":1,"

TEST("The method's short block is checked without --short too: an unknown key or a bad value is refused") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  for (int sm = 0; sm < 2; sm++) {
    CHECK(load_text(&p, MHEAD "\"short\":{\"measure_s\":0.2,\"bogus\":1},\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"}]}", sm,
                    &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, "test.json");
    CHECK_CONTAINS(err.msg, "short: unknown key 'bogus'");
    CHECK(load_text(&p, MHEAD "\"short\":{\"measure_s\":-5},\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"}]}", sm, &err) ==
          -EINVAL);
    CHECK_CONTAINS(err.msg, "short: 'measure_s'");
  }
  /* a valid block changes nothing without --short, everything with it */
  REQUIRE(load_text(&p, MHEAD "\"short\":{\"measure_s\":0.2},\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"}]}", 0, &err) == 0);
  CHECK_NEAR(p.set.measure_s, 5, 0);
  bench_review_profile_free(&p);
  REQUIRE(load_text(&p, MHEAD "\"short\":{\"measure_s\":0.2},\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"}]}", 1, &err) == 0);
  CHECK_NEAR(p.set.measure_s, 0.2, 0);
  CHECK_EQ_U64(p.set.passes, 1);
  bench_review_profile_free(&p);
}

TEST("A step's short object refuses unknown keys and bad values in either mode, naming the step") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  for (int sm = 0; sm < 2; sm++) {
    CHECK(load_text(&p, MHEAD "\"steps\":[{\"id\":\"ss\",\"kind\":\"steady_state\",\"short\":{\"round_s\":0.1,\"bogus\":1}}]}",
                    sm, &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, "step 'ss': short: unknown key 'bogus'");
    CHECK(load_text(&p, MHEAD "\"steps\":[{\"id\":\"ss\",\"kind\":\"steady_state\",\"short\":{\"round_s\":-1}}]}", sm,
                    &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, "step 'ss': short: 'round_s'");
    CHECK(load_text(&p, MHEAD "\"steps\":[{\"id\":\"cs\",\"kind\":\"consistency\",\"short\":{\"duration\":5}}]}", sm,
                    &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, "step 'cs': short: unknown key 'duration'");
    CHECK(load_text(&p, MHEAD "\"steps\":[{\"id\":\"cs\",\"kind\":\"consistency\",\"short\":{\"duration_s\":0}}]}", sm,
                    &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, "step 'cs': short: 'duration_s'");
  }
  REQUIRE(load_text(&p, MHEAD "\"steps\":[{\"id\":\"cs\",\"kind\":\"consistency\",\"short\":{\"duration_s\":3}}]}", 0,
                    &err) == 0);
  CHECK_NEAR(p.steps[0].duration_s, 1800, 0);
  bench_review_profile_free(&p);
  REQUIRE(load_text(&p, MHEAD "\"steps\":[{\"id\":\"cs\",\"kind\":\"consistency\",\"short\":{\"duration_s\":3}}]}", 1,
                    &err) == 0);
  CHECK_NEAR(p.steps[0].duration_s, 3, 0);
  bench_review_profile_free(&p);
}

TEST("Every cdm_profiles entry is checked, whether a step uses it or not") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  CHECK(load_text(&p, MHEAD "\"cdm_profiles\":{\"spare\":[{\"name\":\"X\",\"pattern\":\"seq\",\"block\":4096,\"bogus\":1}]},"
                      "\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "cdm_profiles.spare");
  CHECK_CONTAINS(err.msg, "'bogus'");
}

TEST("A string holding a NUL byte is refused wherever it is in a method, naming its place") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  CHECK(load_text(&p, MHEAD "\"name\":\"review\\u0000x\",\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "'name' holds a NUL byte");
  CHECK(load_text(&p, MHEAD "\"steps\":[{\"id\":\"c\",\"kind\":\"cdm\",\"state\":\"FOB\\u0000x\",\"cells\":[\"SEQ1M Q8T1\"]}]}",
                  0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "'steps[0].state' holds a NUL byte");
  CHECK(load_text(&p, MHEAD "\"steps\":[{\"id\":\"a\",\"kind\":\"purge\",\"comment\":\"\\u0000\"}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "steps[0].comment");
}

TEST("extends with a NUL byte in the name is refused, not cut at the NUL") {
  char dir[] = "/tmp/ssdrev-test-profile.XXXXXX";
  REQUIRE(mkdtemp(dir));
  char path[600], base[600];
  snprintf(path, sizeof path, "%s/m.json", dir);
  snprintf(base, sizeof base, "%s/review.json", dir);
  FILE *f = fopen(base, "w");
  REQUIRE(f);
  fputs(MHEAD "\"steps\":[{\"id\":\"a\",\"kind\":\"purge\"}]}", f);
  fclose(f);
  f = fopen(path, "w");
  REQUIRE(f);
  fputs(MHEAD "\"extends\":\"review\\u0000x\",\"steps\":[]}", f);
  fclose(f);
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  CHECK(bench_review_profile_load(&p, path, 0, 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "NUL byte");
  unlink(path);
  unlink(base);
  rmdir(dir);
}

TEST("A step's buffer need is its largest job's queue depth x threads x block, and one over the machine's memory is refused naming it") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  REQUIRE(load_text(&p, MHEAD "\"steps\":[{\"id\":\"q\",\"kind\":\"qd_scaling\",\"block\":\"16MiB\",\"qds\":[512,1024]},"
                        "{\"id\":\"ss\",\"kind\":\"steady_state\",\"matrix\":true,\"qd\":32,\"threads\":2},"
                        "{\"id\":\"c\",\"kind\":\"cdm\",\"cells\":[\"SEQ1M Q8T1\",\"RND4K Q32T16\"]},"
                        "{\"id\":\"p\",\"kind\":\"purge\"}]}", 0, &err) == 0);
  CHECK_EQ_U64(bench_review_step_buffer_bytes(&p.steps[0]), 1024ull << 24);
  CHECK_EQ_U64(bench_review_step_buffer_bytes(&p.steps[1]), 64ull << 20); /* the matrix's 1 MiB blocks */
  CHECK_EQ_U64(bench_review_step_buffer_bytes(&p.steps[2]), 8ull << 20);
  CHECK_EQ_U64(bench_review_step_buffer_bytes(&p.steps[3]), 0);
  CHECK_EQ_U64(bench_job_buffer_bytes(16u << 20, 1024, 1), 16u << 20); /* the sim: one buffer */
  CHECK_EQ_U64(bench_job_buffer_bytes(512, 4, 0), 4 * 4096);
  if (bench_mem_avail_bytes()) {
    CHECK(bench_mem_check(4096, "x", &err) == 0);
    CHECK(bench_mem_check(UINT64_C(1) << 60, "step 'big'", &err) == -ENOMEM);
    CHECK_CONTAINS(err.msg, "step 'big' needs");
    CHECK_CONTAINS(err.msg, "available");
  }
  bench_review_profile_free(&p);
}

TEST("rw_sweep and tail take a test region: the reference method's 1 GiB at 0%, CrystalDiskMark's rule, bad sizes refused") {
  struct review_profile p;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_review_profile_load(&p, repo("profiles/review.json"), 0, 0, &err) == 0);
  for (unsigned i = 5; i < 7; i++) {
    CHECK_EQ_U64(p.steps[i].region_bytes, 1ull << 30);
    CHECK_NEAR(p.steps[i].region_offset_pct, 0, 0);
  }
  char d[300];
  p.steps[6].kind->describe(&p, &p.steps[6], 256060514304ull, d, sizeof d);
  CHECK_CONTAINS(d, ", 1024 MiB region at 0%");
  bench_review_profile_free(&p);
  /* one rule for every region: 1 MiB aligned, clamped to the target, an offset past it is 0 */
  uint64_t off, len;
  bench_review_region(256060514304ull, 75, 1ull << 30, &off, &len);
  CHECK_EQ_U64(off, 192045121536ull / 1048576 * 1048576);
  CHECK_EQ_U64(len, 1ull << 30);
  bench_review_region(3ull << 30, 90, 1ull << 30, &off, &len);
  CHECK_EQ_U64(len, (3ull << 30) - off);
  bench_review_region(3ull << 30, 0, 0, &off, &len);
  CHECK(off == 0 && len == 3ull << 30);
  /* without the keys the whole target, as before */
  REQUIRE(load_text(&p, MHEAD "\"steps\":[{\"id\":\"t\",\"kind\":\"tail\"},{\"id\":\"s\",\"kind\":\"rw_sweep\"}]}", 0, &err) == 0);
  CHECK(p.steps[0].region_bytes == 0 && p.steps[1].region_bytes == 0);
  p.steps[1].kind->describe(&p, &p.steps[1], 1ull << 30, d, sizeof d);
  CHECK(strstr(d, "region") == NULL);
  bench_review_profile_free(&p);
  CHECK(load_text(&p, MHEAD "\"steps\":[{\"id\":\"t\",\"kind\":\"tail\",\"region_bytes\":\"4KiB\"}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "step 't'");
  CHECK_CONTAINS(err.msg, "'region_bytes' must be at least 1 MiB");
  CHECK(load_text(&p, MHEAD "\"steps\":[{\"id\":\"s\",\"kind\":\"rw_sweep\",\"region_offset_pct\":100}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "region_offset_pct");
  CHECK(load_text(&p, MHEAD "\"steps\":[{\"id\":\"q\",\"kind\":\"qd_scaling\",\"region_bytes\":\"1GiB\"}]}", 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "region_bytes");
}
