/* test_import.c — importers (import/): CrystalDiskMark text, fio
 * latency logs, fio JSON and json+ bins, and a real fio run imported. */
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"
#include "analyze/analyze.h"

static const char cdm8[] =
    "\xEF\xBB\xBF------------------------------------------------------------------------------\r\n"
    "CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo\r\n"
    "                                  Crystal Dew World: https://crystalmark.info/\r\n"
    "------------------------------------------------------------------------------\r\n"
    "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]\r\n"
    "* KB = 1000 bytes, KiB = 1024 bytes\r\n\r\n"
    "[Read]\r\n"
    "  SEQ    1MiB (Q=  8, T= 1):  3531.284 MB/s [   3367.7 IOPS] <  2373.63 us>\r\n"
    "  SEQ    1MiB (Q=  1, T= 1):  2270.405 MB/s [   2165.2 IOPS] <   461.60 us>\r\n"
    "  RND    4KiB (Q= 32, T= 1):   541.950 MB/s [ 132312.0 IOPS] <   241.41 us>\r\n"
    "  RND    4KiB (Q=  1, T= 1):    47.617 MB/s [  11625.2 IOPS] <    85.82 us>\r\n\r\n"
    "[Write]\r\n"
    "  SEQ    1MiB (Q=  8, T= 1):  1455.108 MB/s [   1387.7 IOPS] <  5741.80 us>\r\n"
    "  RND    4KiB (Q=  1, T= 1):   166.021 MB/s [  40532.5 IOPS] <    24.55 us>\r\n\r\n"
    "[Mix] Read 70%/Write 30%\r\n"
    "  RND    4KiB (Q=  1, T= 1):    55.308 MB/s [  13503.0 IOPS] <    73.90 us>\r\n\r\n"
    "Profile: Default\r\n"
    "   Test: 1 GiB (x5) [C: 45% (106/237GiB)]\r\n"
    "   Mode: [Admin]\r\n"
    "   Time: Measure 5 sec / Interval 5 sec \r\n"
    "   Date: 2021/06/05 20:00:18\r\n"
    "     OS: Windows 10 Professional [10.0 Build 19043] (x64)\r\n"
    "Comment: PM981 FOB\r\n";

static const json_t *cell(const json_t *sum, const char *op, const char *name) {
  size_t i;
  json_t *c;
  json_array_foreach(json_object_get(sum, "cells"), i, c) {
    if (!strcmp(json_string_value(json_object_get(c, "op")), op) &&
        !strcmp(json_string_value(json_object_get(c, "cell")), name))
      return c;
  }
  return NULL;
}

TEST("A CrystalDiskMark 8 text with BOM and CRLF yields every cell with MB/s, IOPS and latency") {
  struct ssdrev_err err = {{0}};
  json_t *s = import_cdm_parse(cdm8, sizeof cdm8 - 1, "cdm8.txt", &err);
  REQUIRE(s != NULL);
  CHECK(json_array_size(json_object_get(s, "cells")) == 7);
  const json_t *c = cell(s, "read", "SEQ1M Q8T1");
  REQUIRE(c != NULL);
  CHECK_NEAR(json_number_value(json_object_get(c, "mb_s")), 3531.284, 1e-9);
  CHECK_NEAR(json_number_value(json_object_get(c, "iops")), 3367.7, 1e-9);
  CHECK_NEAR(json_number_value(json_object_get(c, "lat_us")), 2373.63, 1e-9);
  CHECK(json_integer_value(json_object_get(c, "block_bytes")) == 1048576);
  c = cell(s, "read", "RND4K Q32T1");
  REQUIRE(c != NULL);
  CHECK(json_integer_value(json_object_get(c, "qd")) == 32);
  CHECK_STR(json_string_value(json_object_get(c, "pattern")), "rand");
  c = cell(s, "mix", "RND4K Q1T1");
  REQUIRE(c != NULL);
  CHECK_NEAR(json_number_value(json_object_get(c, "mb_s")), 55.308, 1e-9);
  CHECK_STR(json_string_value(json_object_get(s, "version")), "8.0.4 x64");
  CHECK_STR(json_string_value(json_object_get(s, "profile")), "Default");
  CHECK_STR(json_string_value(json_object_get(s, "test")), "1 GiB (x5) [C: 45% (106/237GiB)]");
  CHECK_STR(json_string_value(json_object_get(s, "time")), "Measure 5 sec / Interval 5 sec");
  CHECK_STR(json_string_value(json_object_get(s, "comment")), "PM981 FOB");
  CHECK_STR(json_string_value(json_object_get(s, "mix")), "Read 70%/Write 30%");
  CHECK_STR(json_string_value(json_object_get(s, "os")), "Windows 10 Professional [10.0 Build 19043] (x64)");
  json_decref(s);
}

TEST("CrystalDiskMark 7 spelling and NVMe cells parse to SEQ128K Q32T1 and RND4K Q32T16") {
  static const char t[] =
      "CrystalDiskMark 7.0.0 x64 (C) 2007-2019 hiyohiyo\n[Read]\n"
      "Sequential 1MiB (Q=  8, T= 1):  3479.532 MB/s [   3318.3 IOPS] <  2407.40 us>\n"
      "  SEQ  128KiB (Q= 32, T= 1):  7429.732 MB/s [  56684.4 IOPS] <   546.67 us>\n"
      "    Random 4KiB (Q= 32, T=16):  4094.649 MB/s [ 999670.2 IOPS] <   494.56 us>\n\n"
      "Profile: Default\n";
  struct ssdrev_err err = {{0}};
  json_t *s = import_cdm_parse(t, sizeof t - 1, "cdm7.txt", &err);
  REQUIRE(s != NULL);
  CHECK(cell(s, "read", "SEQ1M Q8T1") != NULL);
  CHECK(cell(s, "read", "SEQ128K Q32T1") != NULL);
  const json_t *c = cell(s, "read", "RND4K Q32T16");
  REQUIRE(c != NULL);
  CHECK(json_integer_value(json_object_get(c, "threads")) == 16);
  CHECK_NEAR(json_number_value(json_object_get(c, "iops")), 999670.2, 1e-6);
  json_decref(s);
}

TEST("A KDiskMark report parses with its tool, versions, Target and a blank between size and unit") {
  static const char t[] =
      "                        KDiskMark (3.2.0): https://github.com/JonMagon/KDiskMark\n"
      "                    Flexible I/O Tester (fio-3.37): https://github.com/axboe/fio\n[Read]\n"
      "Sequential   1 MiB (Q=  8, T= 1):  6802.514 MB/s [   6487.4 IOPS] <  1232.09 us>\n"
      "    Random   4 KiB (Q= 32, T=16):  4001.776 MB/s [ 976996.2 IOPS] <   523.61 us>\n\n"
      "   Date: 2025-06-21 07:03:44\n Target: /home 41% (380.21/931.51 GiB) [Samsung SSD 990 PRO 1TB]";
  struct ssdrev_err err = {{0}};
  json_t *s = import_cdm_parse(t, sizeof t - 1, "kdm.txt", &err);
  REQUIRE(s != NULL);
  CHECK_STR(json_string_value(json_object_get(s, "tool")), "KDiskMark");
  CHECK_STR(json_string_value(json_object_get(s, "version")), "3.2.0");
  CHECK_STR(json_string_value(json_object_get(s, "fio_version")), "fio-3.37");
  CHECK_STR(json_string_value(json_object_get(s, "date")), "2025-06-21 07:03:44");
  CHECK_STR(json_string_value(json_object_get(s, "target")), "/home 41% (380.21/931.51 GiB) [Samsung SSD 990 PRO 1TB]");
  const json_t *c = cell(s, "read", "RND4K Q32T16");
  REQUIRE(c != NULL);
  CHECK_STR(json_string_value(json_object_get(json_object_get(c, "text"), "lat_us")), "523.61");
  CHECK(cell(s, "read", "SEQ1M Q8T1") != NULL);
  json_decref(s);
}

TEST("CrystalDiskMark 3 to 5 rows map to the nearest cells") {
  static const char t[] =
      "CrystalDiskMark 3.0.3 x64 (C) 2007-2013 hiyohiyo\r\n"
      "           Sequential Read :   505.825 MB/s\r\n"
      "        Random Write 512KB :   441.507 MB/s\r\n"
      "   Random Read 4KB (QD=32) :   351.968 MB/s [ 85929.8 IOPS]\r\n"
      "   Sequential Read (Q= 32,T= 1) :   555.904 MB/s\r\n"
      "        Sequential Write (T= 1) :   499.290 MB/s\r\n";
  struct ssdrev_err err = {{0}};
  json_t *s = import_cdm_parse(t, sizeof t - 1, "old.txt", &err);
  REQUIRE(s != NULL);
  CHECK(json_array_size(json_object_get(s, "cells")) == 5);
  CHECK(cell(s, "read", "SEQ1M Q1T1") != NULL);
  CHECK(cell(s, "write", "RND512K Q1T1") != NULL);
  const json_t *c = cell(s, "read", "RND4K Q32T1");
  REQUIRE(c != NULL);
  CHECK_STR(json_string_value(json_object_get(json_object_get(c, "text"), "iops")), "85929.8");
  CHECK(cell(s, "read", "SEQ128K Q32T1") != NULL);
  c = cell(s, "write", "SEQ1M Q1T1");
  REQUIRE(c != NULL);
  CHECK_STR(json_string_value(json_object_get(json_object_get(c, "text"), "mb_s")), "499.290");
  json_decref(s);
}

TEST("A malformed CrystalDiskMark result line fails naming the file and line") {
  static const char t[] = "[Read]\n  SEQ    1MiB (Q=  8, T= 1):  3531.284 MB/s [   3367.7 IOPS] <  2373.63 us>\n"
                          "  SEQ    1MiB (Q=  x):  fast\n";
  struct ssdrev_err err = {{0}};
  CHECK(import_cdm_parse(t, sizeof t - 1, "bad.txt", &err) == NULL);
  CHECK_CONTAINS(err.msg, "bad.txt");
  CHECK_CONTAINS(err.msg, "line 3");
}

TEST("A text without CrystalDiskMark results is refused") {
  static const char t[] = "hello\r\nProfile: Default\r\n";
  struct ssdrev_err err = {{0}};
  CHECK(import_cdm_parse(t, sizeof t - 1, "empty.txt", &err) == NULL);
  CHECK_CONTAINS(err.msg, "no CrystalDiskMark results in 'empty.txt'");
}

static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

TEST("json+ bins give nearest-rank percentiles marked as bucketed") {
  json_t *bins = json_pack("{s:i, s:i, s:i, s:i}", "1000", 50, "2000", 40, "3000", 9, "9000", 1);
  double p[] = {50, 90, 99, 99.9, 100};
  json_t *pct = import_fio_bins_percentiles(bins, p, 5);
  REQUIRE(pct != NULL);
  CHECK(json_integer_value(json_object_get(json_array_get(pct, 0), "lat_ns")) == 1000);
  CHECK(json_integer_value(json_object_get(json_array_get(pct, 1), "lat_ns")) == 2000);
  CHECK(json_integer_value(json_object_get(json_array_get(pct, 2), "lat_ns")) == 3000);
  CHECK(json_integer_value(json_object_get(json_array_get(pct, 3), "lat_ns")) == 9000);
  CHECK(json_integer_value(json_object_get(json_array_get(pct, 4), "lat_ns")) == 9000);
  CHECK(json_is_true(json_object_get(json_array_get(pct, 0), "bucketed")));
  json_decref(pct);
  json_decref(bins);
  json_t *empty = json_object();
  CHECK(import_fio_bins_percentiles(empty, p, 5) == NULL);
  json_decref(empty);
}

TEST("A json+ bin key is a latency only as decimal digits within 63 bits, where bins are read as where checked") {
  /* "-5" (strtoull: 2^64 - 5), 2^63, a sign, hex, 20 digits: never a bin;
   * 2^63 - 1 is the largest one */
  json_t *bins = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "-5", 7, "9223372036854775808", 7, "+5", 7, "0x10",
                           7, "00000000000000000100", 7, "100", 3, "9223372036854775807", 1);
  double p[] = {50, 100};
  json_t *pct = import_fio_bins_percentiles(bins, p, 2);
  REQUIRE(pct != NULL);
  CHECK(json_integer_value(json_object_get(json_array_get(pct, 0), "lat_ns")) == 100);
  CHECK(json_integer_value(json_object_get(json_array_get(pct, 1), "lat_ns")) == INT64_MAX);
  json_decref(pct);
  json_decref(bins);
}

/* Imports a log text into a fresh ssdlog and reads the records back. */
static int roundtrip(const char *name, const char *text, int has_offset, struct ssdlog_rec *out, size_t max,
                     struct import_fio_log_stats *st, struct ssdrev_err *err) {
  char src[600], dst[620];
  snprintf(src, sizeof src, "%s", test_path(name));
  snprintf(dst, sizeof dst, "%s.ssdlog", src);
  if (write_text(src, text)) return -EIO;
  unlink(dst);
  struct ssdlog_writer *w;
  int rc = ssdlog_writer_open(&w, dst, SSDLOG_CLOCK_IMPORTED, 0, NULL, 0, err);
  if (rc) return rc;
  struct import_fio_log_fmt fmt = {.has_offset = has_offset};
  rc = import_fio_log_import(src, &fmt, w, st, err);
  int crc = ssdlog_writer_close(w, err);
  if (rc || crc) return rc ? rc : crc;
  struct ssdlog_reader *r;
  rc = ssdlog_open(&r, dst, 0, err);
  if (rc) return rc;
  if (ssdlog_get_header(r)->clock_source != SSDLOG_CLOCK_IMPORTED) {
    ssdlog_close(r);
    return -EPROTO; /* fails the caller's count check */
  }
  size_t n = 0;
  while (n < max && (rc = ssdlog_next(r, &out[n], err)) == 1) n++;
  ssdlog_close(r);
  return rc < 0 ? rc : (int)n;
}

TEST("A fio 3.33 log with offsets converts to records with submit = time - latency") {
  struct ssdrev_err err = {{0}};
  struct ssdlog_rec r[8];
  struct import_fio_log_stats st;
  int n = roundtrip("off.log",
                    "1, 382731, 0, 4096, 1011712, 0\n"
                    "5, 2000, 1, 8192, 4096, 0\n"
                    "7, 1500, 2, 4096, 0, 0\n",
                    -1, r, 8, &st, &err);
  REQUIRE(n == 3);
  CHECK_EQ_U64(st.columns, 6);
  CHECK_EQ_U64(r[0].lat_ns, 382731);
  CHECK_EQ_U64(r[0].submit_ns, 1000000 - 382731);
  CHECK_EQ_U64(r[0].offset_bytes, 1011712);
  CHECK_EQ_U64(r[1].op, SSDLOG_OP_WRITE);
  CHECK_EQ_U64(r[1].len_bytes, 8192);
  CHECK_EQ_U64(r[1].submit_ns, 5000000 - 2000);
  CHECK_EQ_U64(r[2].op, SSDLOG_OP_TRIM);
  CHECK_EQ_U64(st.by_op[0], 1);
  CHECK_EQ_U64(st.bytes, 4096 + 8192 + 4096);
}

TEST("A 5-column fio log's last column is the priority, hex or not, never an offset") {
  struct ssdrev_err err = {{0}};
  struct ssdlog_rec r[4];
  struct import_fio_log_stats st;
  int n = roundtrip("prio.log", "0, 226027, 0, 4096, 0x0000\n10, 88322, 0, 4096, 0x0004\n", -1, r, 4, &st, &err);
  REQUIRE(n == 2);
  CHECK_EQ_U64(r[1].offset_bytes, 0);
  /* time 0 ms with a 226 us latency: the submit time cannot be negative */
  CHECK_EQ_U64(r[0].submit_ns, 0);
  CHECK_EQ_U64(st.clamped, 1);
  CHECK_EQ_U64(r[1].submit_ns, 10000000 - 88322);
}

TEST("A fio log with a bad line fails naming the file and the line") {
  struct ssdrev_err err = {{0}};
  struct ssdlog_rec r[4];
  struct import_fio_log_stats st;
  int n = roundtrip("bad.log", "1, 100, 0, 4096, 0\n2, fast, 0, 4096, 0\n", -1, r, 4, &st, &err);
  CHECK(n == -EINVAL);
  CHECK_CONTAINS(err.msg, "bad.log");
  CHECK_CONTAINS(err.msg, "line 2");
  n = roundtrip("short.log", "1, 100\n", -1, r, 4, &st, &err);
  CHECK(n == -EINVAL);
  CHECK_CONTAINS(err.msg, "line 1");
  n = roundtrip("ddir.log", "1, 100, 7, 4096, 0\n", -1, r, 4, &st, &err);
  CHECK(n == -EINVAL);
  CHECK_CONTAINS(err.msg, "ddir");
}

TEST("A fio log names a bad line by the file's own number after blank lines, LF or CR LF") {
  struct ssdrev_err err = {{0}};
  struct ssdlog_rec r[8];
  struct import_fio_log_stats st;
  int n = roundtrip("blank.log", "1, 100, 0, 4096, 0\n\n\n2, 100, 0, 4096, 0\n3, fast, 0, 4096, 0\n", -1, r, 8, &st,
                    &err);
  CHECK(n == -EINVAL);
  CHECK_CONTAINS(err.msg, "line 5:");
  n = roundtrip("crlf.log", "1, 100, 0, 4096, 0\r\n\r\n2, 100, 0, 4096, 0\r\n3, fast, 0, 4096, 0\r\n", -1, r, 8,
                &st, &err);
  CHECK(n == -EINVAL);
  CHECK_CONTAINS(err.msg, "line 4:");
  /* the blank lines hold no record: the good lines convert */
  n = roundtrip("blank-ok.log", "1, 100, 0, 4096, 0\r\n\r\n\r\n2, 200, 0, 4096, 0\r\n", -1, r, 8, &st, &err);
  CHECK(n == 2);
}

/* 1 when analyze_log refuses a log of the one record (submit, lat, offset,
 * 4 KiB) with these params, 0 when it accepts it, -1 on a setup failure. */
static int analysis_refuses(const char *params, uint64_t submit_ns, uint64_t lat_ns, uint64_t offset) {
  const char *path = test_path("one.ssdlog");
  unlink(path);
  struct ssdrev_err err = {{0}};
  struct ssdlog_writer *w;
  if (ssdlog_writer_open(&w, path, SSDLOG_CLOCK_IMPORTED, 0, params, 0, &err)) return -1;
  struct ssdlog_rec rec = {.submit_ns = submit_ns, .lat_ns = lat_ns, .offset_bytes = offset, .len_bytes = 4096};
  if (ssdlog_append(w, &rec, 1, &err) || ssdlog_writer_close(w, &err)) return -1;
  struct analyze_opts o;
  analyze_opts_defaults(&o);
  json_t *res = NULL;
  int rc = analyze_log(path, &o, ANALYZE_WANT_SERIES | ANALYZE_WANT_FILL, &res, &err);
  json_decref(res);
  return rc != 0;
}

TEST("A fio log line is refused at import exactly when the analysis would refuse its record (one rule)") {
  static const char params[] = "{\"measure_ns\": 1000000000}"; /* a time-based job of 1 s: limit 602 s */
  static const struct {
    uint64_t t_ms, lat_ns, offset;
  } cases[] = {
      {5, 9223372036854775807ull, 0},        /* 2^63-1 ns: review --engine fio completed, analyze refused */
      {5, 1000, 0},                          /* an ordinary I/O */
      {601000, 900000000, 0},                /* completes at 601 s: within the limit */
      {603000, 1000, 0},                     /* completes at 603 s: beyond */
      {5, 1000, 9223372036854775807ull - 4095}, /* offset + len = 2^63: beyond */
      {5, 1000, 9223372036854775807ull - 4096}, /* offset + len = 2^63-1: within */
  };
  uint64_t max_done = ssdlog_params_max_done_ns(params);
  CHECK_EQ_U64(max_done, 602000000000ull);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char text[160], name[32];
    snprintf(text, sizeof text, "1, 100, 0, 4096, 0, 0\n%llu, %llu, 0, 4096, %llu, 0\n",
             (unsigned long long)cases[i].t_ms, (unsigned long long)cases[i].lat_ns,
             (unsigned long long)cases[i].offset);
    snprintf(name, sizeof name, "rule%zu.log", i);
    const char *src = test_path(name);
    REQUIRE(write_text(src, text) == 0);
    const char *dst = test_path("rule.ssdlog");
    unlink(dst);
    struct ssdrev_err err = {{0}};
    struct ssdlog_writer *w;
    REQUIRE(ssdlog_writer_open(&w, dst, SSDLOG_CLOCK_IMPORTED, 0, params, 0, &err) == 0);
    struct import_fio_log_fmt fmt = {.has_offset = 1, .max_done_ns = max_done};
    struct import_fio_log_stats st;
    int rc = import_fio_log_import(src, &fmt, w, &st, &err);
    struct ssdrev_err cerr = {{0}};
    ssdlog_writer_close(w, &cerr);
    /* the record as the converter makes it: submit = completion - latency, at least 0 */
    uint64_t done = cases[i].t_ms * 1000000ull;
    uint64_t submit = cases[i].lat_ns > done ? 0 : done - cases[i].lat_ns;
    int refused = analysis_refuses(params, submit, cases[i].lat_ns, cases[i].offset);
    REQUIRE(refused >= 0);
    if ((rc != 0) != refused) printf("    case %zu: import rc %d, analysis refuses %d (%s)\n", i, rc, refused, err.msg);
    CHECK((rc != 0) == refused);
    if (rc) {
      CHECK_CONTAINS(err.msg, name);
      CHECK_CONTAINS(err.msg, "line 2:");
    }
  }
}

TEST("fio JSON after warning lines loads; garbage fails naming the file") {
  struct ssdrev_err err = {{0}};
  REQUIRE(write_text(test_path("w.json"), "fio: warning: something\n<host> note\n{\"jobs\": []}\n") == 0);
  json_t *j = import_fio_json_load(test_path("w.json"), &err);
  CHECK(j != NULL);
  json_decref(j);
  REQUIRE(write_text(test_path("g.json"), "no json here\n") == 0);
  CHECK(import_fio_json_load(test_path("g.json"), &err) == NULL);
  CHECK_CONTAINS(err.msg, "g.json");
  REQUIRE(write_text(test_path("t.json"), "warn\n{\"jobs\": [1,\n") == 0);
  CHECK(import_fio_json_load(test_path("t.json"), &err) == NULL);
  CHECK_CONTAINS(err.msg, "line 3");
}

TEST("Every fio JSON document of a file loads, with the text between them skipped") {
  struct ssdrev_err err = {{0}};
  REQUIRE(write_text(test_path("two.txt"), "$ fio a.fio\n{\"jobs\": [{\"jobname\": \"a\"}]}\n$ date\nThu Dec 3\n"
                                           "fio: terminating on signal 2\n{\"jobs\": [{\"jobname\": \"b\"}]} trailing\n"
                                           "normal text report\n") == 0);
  json_t *docs = import_fio_json_load_all(test_path("two.txt"), &err);
  REQUIRE(docs != NULL);
  CHECK(json_array_size(docs) == 2);
  CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(json_array_get(docs, 1), "jobs"), 0),
                                              "jobname")), "b");
  /* the signal line before the second document marks it interrupted */
  CHECK(json_object_get(json_array_get(docs, 0), "ssdrev_signal") == NULL);
  CHECK(json_integer_value(json_object_get(json_array_get(docs, 1), "ssdrev_signal")) == 2);
  json_decref(docs);
  /* stderr merged after the JSON: the signal line follows the last document */
  REQUIRE(write_text(test_path("sig.txt"), "{\"jobs\": []}\nfio: terminating on signal 15\n") == 0);
  docs = import_fio_json_load_all(test_path("sig.txt"), &err);
  REQUIRE(docs != NULL);
  CHECK(json_integer_value(json_object_get(json_array_get(docs, 0), "ssdrev_signal")) == 15);
  json_decref(docs);
  /* the first document alone, as before */
  json_t *one = import_fio_json_load(test_path("two.txt"), &err);
  REQUIRE(one != NULL);
  CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(one, "jobs"), 0), "jobname")), "a");
  json_decref(one);
}

TEST("A later fio JSON document that is broken or not fio's fails naming its line") {
  struct ssdrev_err err = {{0}};
  REQUIRE(write_text(test_path("bad2.txt"), "{\"jobs\": []}\ntext\n{\"jobs\": [1,\n") == 0);
  CHECK(import_fio_json_load_all(test_path("bad2.txt"), &err) == NULL);
  CHECK_CONTAINS(err.msg, "bad2.txt");
  CHECK_CONTAINS(err.msg, "line 4");
  REQUIRE(write_text(test_path("other.txt"), "{\"jobs\": []}\n\n{\"other\": 1}\n") == 0);
  CHECK(import_fio_json_load_all(test_path("other.txt"), &err) == NULL);
  CHECK_CONTAINS(err.msg, "line 3");
  CHECK_CONTAINS(err.msg, "not fio output");
}

TEST("A fio 2.x job (usec, KiB, bucket-index bins, no total_ios) imports in ns and bytes") {
  struct ssdrev_err err = {{0}};
  /* fio 2.19 json+ shape: io_bytes in KiB, bw KiB/s, clat in usec, bins by
   * index (bucket 384 of 64-wide groups is 2048..2079 us: 2064) */
  REQUIRE(write_text(test_path("f2.json"),
                     "{\"fio version\": \"fio-2.19\", \"timestamp\": 1493000000, \"jobs\": [{\"jobname\": \"j\", "
                     "\"error\": 0, \"job options\": {\"rw\": \"randread\", \"bs\": \"4k\"}, \"read\": {\"io_bytes\": 8, "
                     "\"bw\": 8, \"iops\": 2.0, \"runtime\": 1000, \"clat\": {\"min\": 80, \"max\": 2048, "
                     "\"mean\": 1064.0, \"stddev\": 1391.4, \"bins\": {\"80\": 1, \"384\": 1, \"FIO_IO_U_PLAT_BITS\": 6, "
                     "\"FIO_IO_U_PLAT_VAL\": 64, \"FIO_IO_U_PLAT_NR\": 1216}}, \"lat\": {\"min\": 81, \"max\": 2049, "
                     "\"mean\": 1065.0, \"stddev\": 1391.4}}}]}\n") == 0);
  struct import_opts o;
  import_opts_defaults(&o);
  o.out_dir = test_path("f2run");
  struct import_result res = {0};
  REQUIRE(import_file(import_find("fio"), test_path("f2.json"), &o, &res, &err) == 0);
  json_error_t je;
  char mp[600];
  snprintf(mp, sizeof mp, "%s/manifest.json", test_path("f2run"));
  json_t *m = json_load_file(mp, 0, &je);
  REQUIRE(m != NULL);
  CHECK_STR(json_string_value(json_object_get(m, "measured_at")), "2017-04-24T02:13:20Z");
  const json_t *rd = json_object_get(json_object_get(json_object_get(json_array_get(json_object_get(m, "tests"), 0),
                                                                     "fio"), "ops"), "read");
  CHECK(json_integer_value(json_object_get(rd, "ios")) == 2); /* 8 KiB / 4 KiB */
  CHECK(json_integer_value(json_object_get(rd, "bytes")) == 8192);
  CHECK(json_number_value(json_object_get(rd, "mb_s")) == 8192 / 1e6);
  CHECK(json_number_value(json_object_get(rd, "clat_min_ns")) == 80000);
  CHECK(json_number_value(json_object_get(rd, "clat_mean_ns")) == 1064000);
  const json_t *pct = json_object_get(rd, "clat_pct");
  REQUIRE(json_array_size(pct) > 0);
  /* p50 is the first sample's bucket (80 us), p99 the second's (2064 us) */
  CHECK(json_integer_value(json_object_get(json_array_get(pct, 0), "lat_ns")) == 80000);
  CHECK(json_integer_value(json_object_get(json_array_get(pct, 2), "lat_ns")) == 2064000);
  json_decref(m);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

TEST("A real fio json+ run with per-I/O logs imports every I/O with exact latencies") {
  char cmd[2048];
  const char *d = test_tmpdir();
  snprintf(cmd, sizeof cmd,
           "cd '%s' && fio --name=rr --filename=fio.dat --size=16M --ioengine=psync --rw=randrw "
           "--rwmixread=70 --bs=4k --number_ios=2000 --output-format=json+ --output=fio.json "
           "--write_lat_log=lg --log_avg_msec=0 --log_offset=1 >/dev/null 2>&1",
           d);
  REQUIRE(system(cmd) == 0);
  struct ssdrev_err err = {{0}};
  struct import_opts o;
  import_opts_defaults(&o);
  o.out_dir = test_path("fiorun");
  o.state = "FOB";
  struct import_result res;
  int rc = import_file(import_find("fio"), test_path("fio.json"), &o, &res, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  CHECK(res.tests == 1 && res.logs == 1);
  CHECK(res.warnings == 0);
  json_t *fj = import_fio_json_load(test_path("fio.json"), &err);
  REQUIRE(fj != NULL);
  json_t *job = json_array_get(json_object_get(fj, "jobs"), 0);
  uint64_t total = (uint64_t)(json_integer_value(json_object_get(json_object_get(job, "read"), "total_ios")) +
                              json_integer_value(json_object_get(json_object_get(job, "write"), "total_ios")));
  json_decref(fj);
  CHECK_EQ_U64(res.log_ios, total);
  struct archive *run;
  REQUIRE(archive_open(&run, o.out_dir, &err) == 0);
  json_t *t = archive_find_test(run, "fio.rr.1");
  REQUIRE(t != NULL);
  /* 4 KiB random 70/30 at QD1, I/O-count based: the method's mix70 tail */
  CHECK_STR(json_string_value(json_object_get(t, "kind")), "tail");
  CHECK_STR(json_string_value(json_object_get(t, "workload")), "mix70");
  CHECK_STR(json_string_value(json_object_get(t, "latency")), "lat");
  CHECK_STR(json_string_value(json_object_get(json_object_get(run->manifest, "source"), "kind")), "fio");
  CHECK(json_integer_value(json_object_get(json_object_get(t, "params"), "read_pct")) == 70);
  json_t *pct = json_object_get(json_object_get(json_object_get(json_object_get(t, "fio"), "ops"), "read"), "clat_pct");
  CHECK(json_is_true(json_object_get(json_array_get(pct, 0), "bucketed")));
  /* the log's latencies, sorted, equal the fio lat log's values, sorted */
  struct ssdlog_reader *r;
  REQUIRE(ssdlog_open(&r, archive_path(run, json_string_value(json_object_get(t, "log"))), 0, &err) == 0);
  uint64_t *a = calloc(total + 1, sizeof *a), *b = calloc(total + 1, sizeof *b);
  REQUIRE(a && b);
  size_t na = 0, nb = 0;
  struct ssdlog_rec rec;
  while (na <= total && ssdlog_next(r, &rec, &err) == 1) a[na++] = rec.lat_ns;
  ssdlog_close(r);
  FILE *f = fopen(test_path("lg_lat.1.log"), "r");
  REQUIRE(f != NULL);
  char line[256];
  while (nb <= total && fgets(line, sizeof line, f)) {
    char *p = strchr(line, ',');
    if (p) b[nb++] = strtoull(p + 1, NULL, 10);
  }
  fclose(f);
  CHECK_EQ_U64(na, total);
  CHECK_EQ_U64(nb, total);
  qsort(a, na, sizeof *a, cmp_u64);
  qsort(b, nb, sizeof *b, cmp_u64);
  CHECK(na == nb && !memcmp(a, b, na * sizeof *a));
  free(a);
  free(b);
  archive_free(run);
}

TEST("A CrystalDiskMark import makes a cdm test per cell with a summary and no log") {
  struct ssdrev_err err = {{0}};
  REQUIRE(write_text(test_path("cdm.txt"), cdm8) == 0);
  struct import_opts o;
  import_opts_defaults(&o);
  o.out_dir = test_path("cdmrun");
  o.model = "SAMSUNG MZVLB256HAHQ-000L7";
  struct import_result res;
  REQUIRE(import_file(import_find("cdm"), test_path("cdm.txt"), &o, &res, &err) == 0);
  CHECK(res.tests == 7);
  struct archive *run;
  REQUIRE(archive_open(&run, o.out_dir, &err) == 0);
  json_t *t = archive_find_test(run, "cdm.SEQ1M_Q8T1.read");
  REQUIRE(t != NULL);
  CHECK_STR(json_string_value(json_object_get(t, "kind")), "cdm");
  CHECK_STR(json_string_value(json_object_get(t, "cell")), "SEQ1M Q8T1");
  CHECK_STR(json_string_value(json_object_get(t, "state")), "FOB");
  CHECK_STR(json_string_value(json_object_get(t, "profile")), "default");
  CHECK(json_object_get(t, "log") == NULL);
  CHECK_NEAR(json_number_value(json_object_get(json_object_get(t, "summary"), "mb_s")), 3531.284, 1e-9);
  t = archive_find_test(run, "cdm.RND4K_Q1T1.mix");
  REQUIRE(t != NULL);
  CHECK(json_integer_value(json_object_get(json_object_get(t, "params"), "read_pct")) == 70);
  CHECK_STR(json_string_value(json_object_get(run->manifest, "label")), "PM981 FOB");
  CHECK_STR(json_string_value(json_object_get(json_object_get(run->manifest, "dut"), "model")),
            "SAMSUNG MZVLB256HAHQ-000L7");
  CHECK_STR(json_string_value(json_object_get(json_object_get(run->manifest, "source"), "kind")), "cdm");
  archive_free(run);
}
