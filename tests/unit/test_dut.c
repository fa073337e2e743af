/* test_dut.c — the DUT parser against the shipped nvme-cli 2.x / smartctl 7.x
 * samples of the reference review's two drives, and the sysfs link reader. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "bench/method/review_int.h"
#include "tests/unit/testlib.h"
#include "import/import.h"
#include "bench/bench.h"

static char *slurp(const char *rel) {
  char path[512];
  const char *root = getenv("SSDREV_ROOT");
  snprintf(path, sizeof path, "%s/%s", root ? root : ".", rel);
  char *buf = NULL;
  size_t len;
  if (ssdrev_read_file(path, &buf, &len, 0, NULL)) return NULL;
  return buf;
}

static json_t *parse_sample(const char *drive, int serial) {
  char a[128], b[128], c[128];
  snprintf(a, sizeof a, "samples/dut/%s.id-ctrl.json", drive);
  snprintf(b, sizeof b, "samples/dut/%s.smart-log.json", drive);
  snprintf(c, sizeof c, "samples/dut/%s.smartctl.json", drive);
  char *ic = slurp(a), *sl = slurp(b), *sc = slurp(c);
  json_t *dut = ic && sl && sc ? import_dut_parse(ic, sl, sc, serial, NULL) : NULL;
  free(ic), free(sl), free(sc);
  return dut;
}

static double ps_field(const json_t *dut, size_t i, const char *key) {
  return json_number_value(json_object_get(json_array_get(json_object_get(dut, "power_states"), i), key));
}

TEST("The PM981 samples give the review's DUT summary numbers") {
  json_t *d = parse_sample("pm981-256", 0);
  REQUIRE(d);
  CHECK_STR(json_string_value(json_object_get(d, "model")), "SAMSUNG MZVLB256HAHQ-000L7");
  CHECK_STR(json_string_value(json_object_get(d, "firmware")), "1L2QEXD7");
  CHECK_STR(json_string_value(json_object_get(d, "nvme_version")), "1.2");
  CHECK_EQ_U64(json_integer_value(json_object_get(d, "lba_bytes")), 512);
  CHECK_EQ_U64(json_integer_value(json_object_get(d, "warn_temp_c")), 81);
  CHECK_EQ_U64(json_integer_value(json_object_get(d, "crit_temp_c")), 82);
  CHECK_EQ_U64(json_integer_value(json_object_get(d, "capacity_bytes")), 256060514304ull);
  CHECK_EQ_U64(json_array_size(json_object_get(d, "power_states")), 5);
  CHECK_NEAR(ps_field(d, 0, "max_power_w"), 7.02, 1e-9);
  CHECK_NEAR(ps_field(d, 1, "max_power_w"), 6.30, 1e-9);
  CHECK_NEAR(ps_field(d, 2, "max_power_w"), 3.50, 1e-9);
  CHECK_NEAR(ps_field(d, 3, "max_power_w"), 0.0760, 1e-9);
  CHECK_NEAR(ps_field(d, 3, "entry_lat_us"), 210, 0);
  CHECK_NEAR(ps_field(d, 3, "exit_lat_us"), 1200, 0);
  CHECK_NEAR(ps_field(d, 4, "max_power_w"), 0.0050, 1e-9);
  CHECK_NEAR(ps_field(d, 4, "entry_lat_us"), 2000, 0);
  CHECK_NEAR(ps_field(d, 4, "exit_lat_us"), 8000, 0);
  CHECK(json_object_get(d, "serial") == NULL);
  CHECK_EQ_U64(json_integer_value(json_object_get(json_object_get(d, "health"), "temp_c")), 37);
  json_decref(d);
}

TEST("The PM981a samples give NVMe 1.3, 84/85 C and an 8.00 W PS0") {
  json_t *d = parse_sample("pm981a-256", 0);
  REQUIRE(d);
  CHECK_STR(json_string_value(json_object_get(d, "model")), "SAMSUNG MZVLB256HBHQ-00000");
  CHECK_STR(json_string_value(json_object_get(d, "firmware")), "EXH7201Q");
  CHECK_STR(json_string_value(json_object_get(d, "nvme_version")), "1.3");
  CHECK_EQ_U64(json_integer_value(json_object_get(d, "warn_temp_c")), 84);
  CHECK_EQ_U64(json_integer_value(json_object_get(d, "crit_temp_c")), 85);
  CHECK_NEAR(ps_field(d, 0, "max_power_w"), 8.00, 1e-9);
  json_decref(d);
}

TEST("The serial number is kept only when asked for") {
  json_t *d = parse_sample("pm981-256", 1);
  REQUIRE(d);
  CHECK_STR(json_string_value(json_object_get(d, "serial")), "S4DPNX0M000001");
  json_decref(d);
}

TEST("An old nvme-cli flags field with bit 0 set scales max power by 0.0001 W") {
  const char *ic = "{\"mn\":\"X\",\"ver\":66049,\"psds\":[{\"max_power\":702,\"flags\":0,\"entry_lat\":0,\"exit_lat\":0},"
                   "{\"max_power\":760,\"flags\":3,\"entry_lat\":210,\"exit_lat\":1200}]}";
  json_t *d = import_dut_parse(ic, NULL, NULL, 0, NULL);
  REQUIRE(d);
  CHECK_NEAR(ps_field(d, 0, "max_power_w"), 7.02, 1e-9);
  CHECK_NEAR(ps_field(d, 1, "max_power_w"), 0.076, 1e-9);
  CHECK(json_is_true(json_object_get(json_array_get(json_object_get(d, "power_states"), 1), "non_operational")));
  CHECK_STR(json_string_value(json_object_get(d, "nvme_version")), "1.2.1");
  CHECK(json_object_get(d, "warn_temp_c") == NULL); /* not reported: absent, never invented */
  json_decref(d);
}

TEST("128-bit fields printed as decimal strings (tnvmcap, data units), as nvme-cli does, are read") {
  /* QEMU's controller through Debian's nvme-cli: "tnvmcap":"0"; a real one a capacity */
  const char *ic = "{\"mn\":\"X\",\"tnvmcap\":\"256060514304\",\"unvmcap\":\"0\"}";
  const char *sl = "{\"critical_warning\":0,\"temperature\":310,\"percent_used\":1,"
                   "\"data_units_read\":\"1000\",\"data_units_written\":\"2000\",\"power_on_hours\":\"5\"}";
  struct ssdrev_err err = {{0}};
  json_t *d = import_dut_parse(ic, sl, NULL, 0, &err);
  REQUIRE(d);
  CHECK(json_integer_value(json_object_get(d, "capacity_bytes")) == 256060514304);
  json_t *h = json_object_get(d, "health");
  CHECK(json_integer_value(json_object_get(h, "data_written_bytes")) == 2000 * 512000ll);
  CHECK(json_integer_value(json_object_get(h, "power_on_hours")) == 5);
  json_decref(d);
  d = import_dut_parse("{\"mn\":\"X\",\"tnvmcap\":\"0\"}", NULL, NULL, 0, &err);
  CHECK(d && !json_object_get(d, "capacity_bytes")); /* 0: unknown, not a size */
  json_decref(d);
  /* anything but digits is still refused, naming the key */
  CHECK(import_dut_parse("{\"mn\":\"X\",\"tnvmcap\":\"12ab\"}", NULL, NULL, 0, &err) == NULL);
  CHECK_CONTAINS(err.msg, "tnvmcap");
}

TEST("smartctl JSON alone gives model, firmware, NVMe version and LBA size") {
  char *sc = slurp("samples/dut/pm981-256.smartctl.json");
  REQUIRE(sc);
  json_t *d = import_dut_parse(NULL, NULL, sc, 0, NULL);
  free(sc);
  REQUIRE(d);
  CHECK_STR(json_string_value(json_object_get(d, "model")), "SAMSUNG MZVLB256HAHQ-000L7");
  CHECK_STR(json_string_value(json_object_get(d, "nvme_version")), "1.2");
  CHECK_EQ_U64(json_integer_value(json_object_get(d, "lba_bytes")), 512);
  CHECK(json_object_get(d, "power_states") == NULL);
  json_decref(d);
}

TEST("Broken or foreign JSON is refused with a message naming the input") {
  struct ssdrev_err err = {{0}};
  CHECK(import_dut_parse("{\"mn\": ", NULL, NULL, 0, &err) == NULL);
  CHECK_CONTAINS(err.msg, "nvme id-ctrl");
  CHECK(import_dut_parse(NULL, NULL, "{\"foo\": 1}", 0, &err) == NULL);
  CHECK_CONTAINS(err.msg, "smartctl");
  CHECK(import_dut_parse(NULL, NULL, NULL, 0, &err) == NULL);
}

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

TEST("sysfs link speed 8.0 GT/s and width 4 read as PCIe 3.0 x4") {
  char d[512];
  snprintf(d, sizeof d, "%s/sys/class/block/nvme0n1/device/device", test_tmpdir());
  char cmd[600];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", d);
  REQUIRE(system(cmd) == 0);
  put(test_path("sys/class/block/nvme0n1/device/model"), "SAMSUNG MZVLB256HAHQ-000L7              \n");
  put(test_path("sys/class/block/nvme0n1/device/firmware_rev"), "1L2QEXD7\n");
  put(test_path("sys/class/block/nvme0n1/device/device/current_link_speed"), "8.0 GT/s PCIe\n");
  put(test_path("sys/class/block/nvme0n1/device/device/current_link_width"), "4\n");
  json_t *dut = json_object();
  bench_dut_add_sysfs(dut, "nvme0n1" /* a name only: read under the fake sysfs root */, test_path("sys"));
  CHECK_STR(json_string_value(json_object_get(dut, "link")), "PCIe 3.0 x4");
  CHECK_STR(json_string_value(json_object_get(dut, "model")), "SAMSUNG MZVLB256HAHQ-000L7");
  CHECK_STR(json_string_value(json_object_get(dut, "firmware")), "1L2QEXD7");
  json_decref(dut);
}

TEST("sysfs link speeds of PCIe 1.0 to 5.0, old and new kernel spellings, map to generations") {
  static const struct { const char *speed, *width, *want; } cases[] = {
      {"2.5 GT/s PCIe\n", "1\n", "PCIe 1.0 x1"}, {"5 GT/s\n", "2\n", "PCIe 2.0 x2"},
      {"5.0 GT/s PCIe\n", "4\n", "PCIe 2.0 x4"}, {"8 GT/s\n", "4\n", "PCIe 3.0 x4"},
      {"16.0 GT/s PCIe\n", "4\n", "PCIe 4.0 x4"}, {"32.0 GT/s PCIe\n", "4\n", "PCIe 5.0 x4"},
      {"Unknown\n", "4\n", "Unknown x4"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char d[512], cmd[600];
    snprintf(d, sizeof d, "%s/sys%zu/class/block/nvme0n1/device/device", test_tmpdir(), i);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", d);
    REQUIRE(system(cmd) == 0);
    char p[700], root[600];
    snprintf(p, sizeof p, "%s/current_link_speed", d);
    put(p, cases[i].speed);
    snprintf(p, sizeof p, "%s/current_link_width", d);
    put(p, cases[i].width);
    snprintf(root, sizeof root, "%s/sys%zu", test_tmpdir(), i);
    json_t *dut = json_object();
    bench_dut_add_sysfs(dut, "nvme0n1" /* a name only: read under the fake sysfs root */, root);
    CHECK_STR(json_string_value(json_object_get(dut, "link")), cases[i].want);
    CHECK(json_object_get(dut, "model") == NULL); /* absent, not invented */
    json_decref(dut);
  }
}

TEST("DUT files are found by prefix, and overrides fill controller and media") {
  char *ic, *sl, *sc;
  json_t *ov;
  const char *root = getenv("SSDREV_ROOT");
  char prefix[512];
  snprintf(prefix, sizeof prefix, "%s/samples/dut/pm981-256", root ? root : ".");
  REQUIRE(bench_dut_read_files(prefix, &ic, &sl, &sc, &ov, NULL) == 0);
  CHECK(ic && sl && sc);
  CHECK(ov == NULL);
  free(ic), free(sl), free(sc);
  put(test_path("overrides.json"), "{\"controller\": \"Samsung Phoenix\", \"media\": \"Samsung V4 TLC\"}");
  REQUIRE(bench_dut_read_files(test_tmpdir(), &ic, &sl, &sc, &ov, NULL) == 0);
  CHECK(ic == NULL && ov != NULL);
  json_t *dut = json_object();
  CHECK(import_dut_apply_overrides(dut, ov, "overrides.json", NULL) == 0);
  CHECK_STR(json_string_value(json_object_get(dut, "media")), "Samsung V4 TLC");
  json_decref(dut);
  json_decref(ov);
  struct ssdrev_err err = {{0}};
  CHECK(bench_dut_read_files(test_path("nothing-here"), &ic, &sl, &sc, &ov, &err) == -ENOENT);
  CHECK_CONTAINS(err.msg, "no DUT JSON");
}
