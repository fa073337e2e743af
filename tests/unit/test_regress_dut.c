/* test_regress_dut.c — fuzz findings in the nvme-cli / smartctl parser
 * (import/dut.c). Raw input: tests/fuzz/regress/dut/. */
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

/* fuzz finding: health() multiplies data_units_read by 512000 and casts the
 * double to json_int_t: undefined behaviour (UBSan: "outside the range of
 * representable values") for 1e25 units; gcc builds store INT64_MIN. */
TEST("A SMART log with an absurd data-units count gives no negative or wrapped byte count") {
  const char *sl = "{\"critical_warning\": 0, \"temperature\": 310, \"data_units_read\": 9.2233720368547758e25,"
                   " \"data_units_written\": 1e300, \"percent_used\": 0, \"power_on_hours\": 1}";
  struct ssdrev_err err = {{0}};
  json_t *dut = import_dut_parse(NULL, sl, NULL, 0, &err);
  REQUIRE(dut != NULL);
  json_t *h = json_object_get(dut, "health");
  const char *keys[] = {"data_read_bytes", "data_written_bytes"};
  for (int i = 0; i < 2; i++) {
    json_t *v = json_object_get(h, keys[i]);
    /* absent (refused as implausible) or a real non-negative count */
    CHECK(v == NULL || (json_is_integer(v) && json_integer_value(v) >= 0));
  }
  json_decref(dut);
}

TEST("A SMART log with ordinary data-unit counts still gives the byte counts") {
  const char *sl = "{\"critical_warning\": 0, \"temperature\": 310, \"data_units_read\": 1000,"
                   " \"data_units_written\": 0, \"percent_used\": 0, \"power_on_hours\": 1}";
  struct ssdrev_err err = {{0}};
  json_t *dut = import_dut_parse(NULL, sl, NULL, 0, &err);
  REQUIRE(dut != NULL);
  CHECK_EQ_U64(json_integer_value(json_object_get(json_object_get(dut, "health"), "data_read_bytes")), 512000000ull);
  json_decref(dut);
}
