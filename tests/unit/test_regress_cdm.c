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

/* issue 26 item 23: "SEQ 1MiB (Q= 8, T= 1):  3371.6" and nothing after it
 * imported as a result. CrystalDiskMark 7 to 9 write MB/s, IOPS and
 * latency on every row of their [Read]/[Write]/[Mix] sections (as the raw
 * files in tests/fuzz/regress/cdm/cut-*.txt). */
TEST("A CDM 8 row cut after its value, its MB/s, its IOPS or its latency is refused, naming the line") {
  static const char *const rows[] = {
      "[Read]\r\n  SEQ    1MiB (Q=  8, T= 1):  3371.6\r\n",
      "[Read]\r\n  SEQ    1MiB (Q=  8, T= 1):  3371.6 MB/s\r\n",
      "[Read]\r\n  SEQ    1MiB (Q=  8, T= 1):  3371.6 MB/s [   3215.5\r\n",
      "[Read]\r\n  SEQ    1MiB (Q=  8, T= 1):  3371.6 MB/s [   3215.5 IOPS]\r\n",
      "[Read]\r\n  SEQ    1MiB (Q=  8, T= 1):  3371.6 MB/s [   3215.5 IOPS] <  2486.1\r\n",
      "[Read]\r\nSequential 1MiB (Q=  8, T= 1):  3477.305 MB/s\r\n", /* CDM 7 spelling */
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    CHECK(refused_naming_line(rows[i]));
    struct ssdrev_err err = {{0}};
    json_t *v = import_cdm_parse(rows[i], strlen(rows[i]), "r.txt", &err);
    CHECK(v == NULL);
    CHECK_CONTAINS(err.msg, "(a cut row?)");
    json_decref(v);
  }
}

TEST("A CDM 6 row keeps importing without latency, and its sequential rows without IOPS") {
  static const char t[] = "   Sequential Read (Q= 32,T= 1) :   562.114 MB/s\r\n"
                          "  Random Read 4KiB (Q=  8,T= 8) :   402.517 MB/s [  98270.8 IOPS]\r\n";
  struct ssdrev_err err = {{0}};
  json_t *v = import_cdm_parse(t, strlen(t), "six.txt", &err);
  REQUIRE(v != NULL);
  CHECK_EQ_U64(json_array_size(json_object_get(v, "cells")), 2);
  json_decref(v);
  /* but a CDM 6 row cut inside its IOPS is refused too */
  static const char cut[] = "x\r\n  Random Read 4KiB (Q=  8,T= 8) :   402.517 MB/s [  98270.8\r\n";
  CHECK(refused_naming_line(cut));
}
