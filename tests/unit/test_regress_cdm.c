/* test_regress_cdm.c — fuzz findings in the CrystalDiskMark parser
 * (import/cdm.c), as plain unit tests. The raw inputs are also in
 * tests/fuzz/regress/cdm/ for the fuzzer. */
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

static int refused_naming_line(const char *text) {
  struct ssdrev_err err = {{0}};
  json_t *v = import_cdm_parse(text, strlen(text), "r.txt", &err);
  if (v) {
    json_decref(v);
    return 0;
  }
  return strstr(err.msg, "r.txt") && strstr(err.msg, "line 2");
}

/* fuzz finding: (json_int_t)th in parse_result_line is undefined behaviour
 * (UBSan: "outside the range of representable values") for T= 1e26. */
TEST("A CDM result line with a thread count beyond any integer is refused, naming the line") {
  CHECK(refused_naming_line("[Read]\n  SEQ    1MiB (Q=  8, T= 99999999999999999999999992):  3531.284 MB/s\n"));
}

TEST("A CDM result line with a queue depth beyond any integer is refused, naming the line") {
  CHECK(refused_naming_line("[Read]\n  SEQ    1MiB (Q= 99999999999999999999999998, T= 1):  3531.284 MB/s\n"));
}

TEST("A CDM result line with a block size beyond any integer is refused, naming the line") {
  CHECK(refused_naming_line("[Write]\n  RND 99999999999999999999999999GiB (Q=  1, T= 1):  1.0 MB/s\n"));
}

TEST("A CDM result line with ordinary values still parses after the range checks") {
  struct ssdrev_err err = {{0}};
  const char *t = "[Read]\n  SEQ    1MiB (Q=  8, T= 1):  3531.284 MB/s [   3367.7 IOPS] <  2373.63 us>\n";
  json_t *v = import_cdm_parse(t, strlen(t), "ok.txt", &err);
  REQUIRE(v != NULL);
  json_t *c = json_array_get(json_object_get(v, "cells"), 0);
  CHECK_EQ_U64(json_integer_value(json_object_get(c, "qd")), 8);
  CHECK_EQ_U64(json_integer_value(json_object_get(c, "block_bytes")), 1048576);
  json_decref(v);
}
