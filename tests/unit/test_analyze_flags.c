/* test_analyze_flags.c — the rules of docs/flags.md on hand-built analysis
 * objects: each fires on its condition, names its numbers, and stays quiet
 * just the other side of its threshold. */
#include "analyze/analyze.h"
#include <math.h>
#include "tests/unit/testlib.h"

static const json_t *find(const json_t *flags, const char *id) {
  for (size_t i = 0; i < json_array_size(flags); i++) {
    const json_t *f = json_array_get(flags, i);
    if (!strcmp(json_string_value(json_object_get(f, "id")), id)) return f;
  }
  return NULL;
}
static double num(const json_t *f, const char *k) {
  return json_number_value(json_object_get(json_object_get(f, "numbers"), k));
}

static json_t *load(const char *text) {
  json_error_t e;
  json_t *a = json_loads(text, 0, &e);
  if (!a) fprintf(stderr, "    bad test JSON: %s (col %d)\n", e.text, e.column);
  return a;
}

TEST("The host-link rule fires at 90% of the PCIe link and not below") {
  json_t *a = load("{\"dut\": {\"link\": \"PCIe 3.0 x4\"}, \"cdm\": [{\"state\": \"FOB\", \"profile\": \"default\","
                   " \"cell\": \"SEQ1M Q8T1\", \"read\": {\"mb_s\": 3560}, \"write\": {\"mb_s\": 1500}}]}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  const json_t *x = find(f, "link_bound");
  REQUIRE(x != NULL);
  CHECK_NEAR(num(x, "link_mb_s"), 3938.4, 0.1);
  CHECK_NEAR(num(x, "mb_s"), 3560, 0.01);
  json_decref(f);
  json_object_set_new(json_object_get(json_array_get(json_object_get(a, "cdm"), 0), "read"), "mb_s", json_real(3500));
  f = analyze_flags(a);
  CHECK(find(f, "link_bound") == NULL);
  json_decref(f);
  json_decref(a);
}

TEST("A SATA link is known by the ways DUT strings write it; its 4K reads are not held to NVMe's 600 MB/s") {
  static const struct { const char *link; double mb_s; } links[] = {
      {"SATA 6Gb/s", 600}, {"SATA 3.3, 6.0 Gb/s (current: 6.0 Gb/s)", 600}, {"SATA/600", 600}, {"SATA III", 600},
      {"SATA 3.2, 6.0 Gb/s (current: 3.0 Gb/s)", 300}, {"SATA II", 300}, {"SATA/150", 150}};
  for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
    char text[512];
    snprintf(text, sizeof text, "{\"dut\": {\"link\": \"%s\"}, \"cdm\": [{\"state\": \"FOB\", \"profile\": "
             "\"default\", \"cell\": \"SEQ1M Q8T1\", \"read\": {\"mb_s\": %.1f}}]}", links[i].link, 0.92 * links[i].mb_s);
    json_t *a = load(text);
    REQUIRE(a != NULL);
    json_t *f = analyze_flags(a);
    const json_t *x = find(f, "link_bound");
    CHECK(x != NULL && fabs(num(x, "link_mb_s") - links[i].mb_s) < 1e-9);
    if (!x) fprintf(stderr, "    %s: no link_bound\n", links[i].link);
    json_decref(f), json_decref(a);
  }
  /* a 64 GB SATA drive's 370 MB/s at RND4K Q32T1 is what SATA allows (its
   * NCQ stops near 100K IOPS): no low-ceiling flag; the same on NVMe is one */
  json_t *a = load("{\"dut\": {\"link\": \"SATA 6Gb/s\"}, \"target\": {\"size_bytes\": 64000000000},"
                   " \"cdm\": [{\"state\": \"FOB\", \"profile\": \"default\", \"cell\": \"RND4K Q32T1\","
                   " \"read\": {\"mb_s\": 370}}]}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  CHECK(find(f, "rnd_read_plateau") == NULL);
  json_decref(f);
  json_object_set_new(json_object_get(a, "dut"), "link", json_string("PCIe 3.0 x4"));
  f = analyze_flags(a);
  CHECK(find(f, "rnd_read_plateau") != NULL);
  json_decref(f);
  json_object_set_new(json_object_get(a, "dut"), "link", json_string("USB 3.0")); /* not known: the rule as before */
  f = analyze_flags(a);
  CHECK(find(f, "rnd_read_plateau") != NULL);
  json_decref(f), json_decref(a);
}

TEST("The write-cliff rules report the cliff and flag a post-cache speed under 0.25x") {
  json_t *a = load("{\"fill\": {\"slc\": {\"found\": true, \"max_gib\": 42, \"cache_mb_s\": 2000,"
                   " \"post_cache_mb_s\": 400, \"confidence\": 0.99}}}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  CHECK(find(f, "write_cliff") != NULL);
  const json_t *x = find(f, "slow_post_cache");
  REQUIRE(x != NULL);
  CHECK_NEAR(num(x, "ratio"), 0.2, 1e-9);
  json_decref(f);
  json_object_set_new(json_object_get(json_object_get(a, "fill"), "slc"), "post_cache_mb_s", json_real(600));
  f = analyze_flags(a);
  CHECK(find(f, "write_cliff") != NULL && find(f, "slow_post_cache") == NULL);
  json_decref(f);
  json_object_set_new(json_object_get(json_object_get(a, "fill"), "slc"), "found", json_false());
  f = analyze_flags(a);
  CHECK(find(f, "write_cliff") == NULL);
  json_decref(f);
  json_decref(a);
}

TEST("Thermal throttling needs both a temperature near the warning threshold and a throughput drop") {
  json_t *a = load("{\"dut\": {\"warn_temp_c\": 81}, \"temperature\": {\"t_s\": [0, 1, 2], \"c\": [60, 75, 80]},"
                   " \"tests\": {\"hot\": {\"kind\": \"job\", \"series\": {\"mb_s\":"
                   " [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 500, 500, 500, 500, 500, 500, 1000]}}}}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  const json_t *x = find(f, "thermal_throttle");
  REQUIRE(x != NULL);
  CHECK_NEAR(num(x, "max_c"), 80, 1e-9);
  CHECK(num(x, "drop_ratio") <= 0.5 + 1e-9);
  json_decref(f);
  /* the same drop in a test that drops by design (a prefill's SLC cliff, a
   * consistency write's GC onset) is no thermal throttle */
  static const char *const by_design[] = {"prefill", "fill_drive", "cache_recovery", "consistency", "steady_state"};
  for (size_t k = 0; k < sizeof by_design / sizeof by_design[0]; k++) {
    json_object_set_new(json_object_get(json_object_get(a, "tests"), "hot"), "kind", json_string(by_design[k]));
    f = analyze_flags(a);
    CHECK(find(f, "thermal_throttle") == NULL);
    json_decref(f);
  }
  json_object_set_new(json_object_get(json_object_get(a, "tests"), "hot"), "kind", json_string("cdm"));
  f = analyze_flags(a);
  CHECK(find(f, "thermal_throttle") != NULL);
  json_decref(f);
  /* cooler: nothing */
  json_array_set_new(json_object_get(json_object_get(a, "temperature"), "c"), 2, json_integer(70));
  f = analyze_flags(a);
  CHECK(find(f, "thermal_throttle") == NULL && find(f, "thermal_near_warn") == NULL);
  json_decref(f);
  json_decref(a);
  /* hot but steady: only the info flag */
  a = load("{\"dut\": {\"warn_temp_c\": 81}, \"temperature\": {\"t_s\": [0], \"c\": [80]},"
           " \"tests\": {\"steady\": {\"kind\": \"job\", \"series\": {\"mb_s\": [1,1,1,1,1,1,1,1,1,1,1,1]}}}}");
  REQUIRE(a != NULL);
  f = analyze_flags(a);
  CHECK(find(f, "thermal_throttle") == NULL && find(f, "thermal_near_warn") != NULL);
  json_decref(f);
  json_decref(a);
  /* a short test's finer series (2 ms intervals): a few ms of dip is noise,
   * a drop is judged over 5 s (a QEMU guest's 0.4 s fill showed one) */
  a = load("{\"dut\": {\"warn_temp_c\": 81}, \"temperature\": {\"t_s\": [0], \"c\": [80]},"
           " \"tests\": {\"short\": {\"kind\": \"job\", \"series\": {\"interval_s\": 0.002, \"mb_s\":"
           " [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 100, 100, 100, 100, 100, 100, 1000, 1000, 1000, 1000, 1000]}}}}");
  REQUIRE(a != NULL);
  f = analyze_flags(a);
  CHECK(find(f, "thermal_throttle") == NULL && find(f, "thermal_near_warn") != NULL);
  json_decref(f);
  json_decref(a);
}

TEST("The random-read plateau rule spares large drives and fast ones") {
  json_t *a = load("{\"target\": {\"size_bytes\": 1000204886016}, \"cdm\": [{\"state\": \"FOB\", \"profile\":"
                   " \"default\", \"cell\": \"RND4K Q32T1\", \"read\": {\"mb_s\": 500}}]}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  CHECK(find(f, "rnd_read_plateau") == NULL); /* 1 TB */
  json_decref(f);
  json_object_set_new(json_object_get(a, "target"), "size_bytes", json_integer(256060514304LL));
  f = analyze_flags(a);
  CHECK(find(f, "rnd_read_plateau") != NULL);
  CHECK_NEAR(json_number_value(json_object_get(json_object_get(find(f, "rnd_read_plateau"), "numbers"), "capacity_gb")),
             256, 1e-9);
  json_decref(f);
  /* a small drive's capacity keeps its tenth: 8.6 GB, not "9 GB" */
  json_object_set_new(json_object_get(a, "target"), "size_bytes", json_integer(8589934592LL));
  f = analyze_flags(a);
  CHECK_NEAR(json_number_value(json_object_get(json_object_get(find(f, "rnd_read_plateau"), "numbers"), "capacity_gb")),
             8.6, 1e-9);
  json_decref(f);
  /* a 128 MB regular file says nothing about the drive under it */
  json_object_set_new(json_object_get(a, "target"), "kind", json_string("file"));
  json_object_set_new(json_object_get(a, "target"), "size_bytes", json_integer(128000000));
  f = analyze_flags(a);
  CHECK(find(f, "rnd_read_plateau") == NULL);
  json_decref(f);
  json_object_set_new(json_object_get(a, "target"), "kind", json_string("block"));
  json_object_set_new(json_object_get(a, "target"), "size_bytes", json_integer(256060514304LL));
  json_object_set_new(json_object_get(json_array_get(json_object_get(a, "cdm"), 0), "read"), "mb_s", json_real(650));
  f = analyze_flags(a);
  CHECK(find(f, "rnd_read_plateau") == NULL);
  json_decref(f);
  json_decref(a);
}

TEST("An empty analysis fires no flag") {
  json_t *a = json_object();
  json_t *f = analyze_flags(a);
  CHECK(json_array_size(f) == 0);
  json_decref(f);
  json_decref(a);
}

TEST("The tail blow-up rule fires above 10x the median in a mix and not at 10x or in a pure workload") {
  json_t *a = load("{\"tail\": {\"mix70\": {\"p50_us\": 80, \"p99.99_us\": 1940},"
                   " \"read\": {\"p50_us\": 80, \"p99.99_us\": 5000}}}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  const json_t *x = find(f, "tail_blowup");
  REQUIRE(x != NULL);
  CHECK_NEAR(num(x, "ratio"), 24.25, 0.01);
  CHECK(strstr(json_string_value(json_object_get(x, "message")), "µs") != NULL);
  CHECK(json_array_size(f) == 1); /* the pure read workload is not a mix */
  json_decref(f);
  json_object_set_new(json_object_get(json_object_get(a, "tail"), "mix70"), "p99.99_us", json_real(800));
  f = analyze_flags(a);
  CHECK(find(f, "tail_blowup") == NULL);
  json_decref(f);
  json_decref(a);
}

TEST("The FOB-vs-75% rule fires below 0.8x of the FOB cell and not at 0.8x") {
  json_t *a = load("{\"cdm\": [{\"state\": \"FOB\", \"profile\": \"default\", \"cell\": \"SEQ1M Q8T1\","
                   " \"read\": {\"mb_s\": 3000}, \"write\": {\"mb_s\": 1000}},"
                   " {\"state\": \"75%\", \"profile\": \"default\", \"cell\": \"SEQ1M Q8T1\","
                   " \"read\": {\"mb_s\": 3000}, \"write\": {\"mb_s\": 790}}]}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  const json_t *x = find(f, "fob_vs_full");
  REQUIRE(x != NULL);
  CHECK_NEAR(num(x, "ratio"), 0.79, 1e-6);
  CHECK(!strcmp(json_string_value(json_object_get(json_object_get(x, "numbers"), "op")), "write"));
  json_decref(f);
  json_object_set_new(json_object_get(json_array_get(json_object_get(a, "cdm"), 1), "write"), "mb_s", json_real(800));
  f = analyze_flags(a);
  CHECK(find(f, "fob_vs_full") == NULL);
  json_decref(f);
  json_decref(a);
}

TEST("The QD-plateau rule fires when a QD below the deepest one is the plateau, and not at the deepest") {
  json_t *a = load("{\"qd_scaling\": [{\"workload\": \"read\", \"points\": [{\"qd\": 1, \"iops\": 10000},"
                   " {\"qd\": 32, \"iops\": 97000}, {\"qd\": 128, \"iops\": 105000}], \"max_iops\": 105000,"
                   " \"plateau_qd\": 32, \"plateau_iops\": 97000}]}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  const json_t *x = find(f, "qd_plateau");
  REQUIRE(x != NULL);
  CHECK_NEAR(num(x, "qd"), 32, 0);
  CHECK_NEAR(num(x, "max_qd"), 128, 0);
  CHECK_NEAR(num(x, "iops"), 97000, 0.01);
  json_decref(f);
  json_object_set_new(json_array_get(json_object_get(a, "qd_scaling"), 0), "plateau_qd", json_integer(128));
  f = analyze_flags(a);
  CHECK(find(f, "qd_plateau") == NULL);
  json_decref(f);
  json_decref(a);
}

TEST("The random-read plateau names dies only for a drive: a file target and a virtual disk get their own words") {
  json_t *a = load("{\"dut\": {\"capacity_bytes\": 256060514304, \"model\": \"SAMSUNG MZVLB256HAHQ\"},"
                   " \"target\": {\"kind\": \"block\", \"spec\": \"/dev/nvme0n1\"}, \"cdm\": [{\"state\": \"FOB\","
                   " \"profile\": \"default\", \"cell\": \"RND4K Q32T1\", \"read\": {\"mb_s\": 400}}]}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  const json_t *x = find(f, "rnd_read_plateau");
  REQUIRE(x != NULL);
  CHECK(strstr(json_string_value(json_object_get(x, "message")), "few dies") != NULL);
  CHECK(!strcmp(json_string_value(json_object_get(json_object_get(x, "numbers"), "target")), "drive"));
  json_decref(f);
  /* a 2 GB ext4 file whose DUT JSON gave a capacity: no dies blamed */
  json_object_set_new(json_object_get(a, "target"), "kind", json_string("file"));
  f = analyze_flags(a);
  x = find(f, "rnd_read_plateau");
  REQUIRE(x != NULL);
  CHECK(strstr(json_string_value(json_object_get(x, "message")), "dies") == NULL);
  CHECK(strstr(json_string_value(json_object_get(x, "message")), "file target") != NULL);
  json_decref(f);
  /* a QEMU disk */
  json_object_set_new(json_object_get(a, "target"), "kind", json_string("block"));
  json_object_set_new(json_object_get(a, "dut"), "model", json_string("QEMU HARDDISK"));
  f = analyze_flags(a);
  x = find(f, "rnd_read_plateau");
  REQUIRE(x != NULL);
  CHECK(strstr(json_string_value(json_object_get(x, "message")), "virtual disk") != NULL);
  CHECK(strstr(json_string_value(json_object_get(x, "message")), "dies") == NULL);
  json_decref(f);
  json_decref(a);
}

TEST("A peak at or above the warning temperature without a drop is its own finding, never '0.0 C short'") {
  const char *peaks[] = {"78.3", "75.0", "74.96"};
  const double over[] = {3.3, 0, 0};
  for (int i = 0; i < 3; i++) {
    char doc[512];
    snprintf(doc, sizeof doc,
             "{\"dut\": {\"warn_temp_c\": 75}, \"temperature\": {\"t_s\": [0, 1], \"c\": [60, %s]},"
             " \"tests\": {\"steady\": {\"kind\": \"job\", \"series\": {\"mb_s\": [1,1,1,1,1,1,1,1,1,1,1,1]}}}}",
             peaks[i]);
    json_t *a = load(doc);
    REQUIRE(a != NULL);
    json_t *f = analyze_flags(a);
    const json_t *x = find(f, "thermal_over_warn");
    REQUIRE(x != NULL);
    CHECK(find(f, "thermal_near_warn") == NULL && find(f, "thermal_throttle") == NULL);
    CHECK_NEAR(num(x, "over_c"), over[i], 1e-9);
    const char *m = json_string_value(json_object_get(x, "message"));
    CHECK(strstr(m, "at or above its warning temperature 75.0 C") != NULL && strstr(m, "short") == NULL);
    CHECK(strstr(m, "-0.0") == NULL);
    json_decref(f);
    json_decref(a);
  }
}

TEST("The slow post-cache flag prints its threshold as 0.25x, not a rounded 0.2x") {
  json_t *a = load("{\"fill\": {\"slc\": {\"found\": true, \"max_gib\": 22, \"cache_mb_s\": 3266,"
                   " \"post_cache_mb_s\": 760, \"confidence\": 1}}}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  const json_t *x = find(f, "slow_post_cache");
  REQUIRE(x != NULL);
  CHECK_CONTAINS(json_string_value(json_object_get(x, "message")), "is 0.23x of the cached 3266 MB/s (< 0.25x)");
  json_decref(f);
  json_decref(a);
}

TEST("Near the warning temperature says the peak and its gap to a tenth: 74.9 under 75 is not 'reached 75'") {
  json_t *a = load("{\"dut\": {\"warn_temp_c\": 75}, \"temperature\": {\"t_s\": [0, 1], \"c\": [60, 74.9]},"
                   " \"tests\": {\"steady\": {\"kind\": \"job\", \"series\": {\"mb_s\": [1,1,1,1,1,1,1,1,1,1,1,1]}}}}");
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  const json_t *x = find(f, "thermal_near_warn");
  REQUIRE(x != NULL);
  CHECK_NEAR(num(x, "gap_c"), 0.1, 1e-9);
  CHECK(strstr(json_string_value(json_object_get(x, "message")), "peaked at 74.9 C, 0.1 C short of") != NULL);
  json_decref(f);
  json_decref(a);
}
