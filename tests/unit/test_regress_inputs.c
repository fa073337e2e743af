/* test_regress_inputs.c — hostile values in other tools' files and in
 * user files (docs/hardening.md, "Hostile values"): CrystalDiskMark values
 * that are not plain numbers, fio json+ latency bins with negative or 2^64
 * keys and a mean outside [min, max], fio latency logs with latencies or
 * offsets beyond 63 bits, absurd nvme id-ctrl power states, SMART logs
 * without SMART keys, and wrongly typed DUT overrides. */
#include <errno.h>
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

static void put(const char *path, const char *text) {
  struct ssdrev_err err = {{0}};
  if (ssdrev_write_file_atomic(path, text, strlen(text), &err)) fprintf(stderr, "    %s\n", err.msg);
}

/* ---------------------------------------------------------------- CDM */

static json_t *cdm_row(const char *values, struct ssdrev_err *err) {
  char text[512];
  snprintf(text, sizeof text, "[Read]\n  SEQ    1MiB (Q=  8, T= 1):  %s\n", values);
  err->msg[0] = 0;
  return import_cdm_parse(text, strlen(text), "hostile.txt", err);
}

TEST("A CrystalDiskMark MB/s of 1e308 is refused, not read as 1.0, naming file and line") {
  struct ssdrev_err err;
  CHECK(cdm_row("1e308 MB/s [ 1.0 IOPS] < 5.00 us>", &err) == NULL);
  CHECK_CONTAINS(err.msg, "'hostile.txt' line 2");
  CHECK_CONTAINS(err.msg, "MB/s value '1e308'");
}

TEST("CrystalDiskMark values beyond any drive, negative or not numbers are refused") {
  static const char *const rows[][2] = {
      {"99999999 MB/s", "beyond any drive"},
      {"12.5 MB/s [ 2000000000 IOPS]", "IOPS value '2000000000' is beyond"},
      {"12.5 MB/s [ 1.0 IOPS] < -5.00 us>", "latency (us) '-5.00' is negative"},
      {"12.5 MB/s [ nan IOPS]", "IOPS value 'nan' is not a number"},
      {"12.5 MB/s [ 1.0 IOPS] < inf us>", "latency (us) 'inf' is not a number"},
      {"12.5e3 MB/s", "not a plain decimal number"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    struct ssdrev_err err;
    json_t *j = cdm_row(rows[i][0], &err);
    CHECK(j == NULL);
    CHECK_CONTAINS(err.msg, rows[i][1]);
    json_decref(j);
  }
  /* an ordinary row still parses with all three values */
  struct ssdrev_err err;
  json_t *ok = cdm_row("3531.284 MB/s [   3367.7 IOPS] <  2373.63 us>", &err);
  REQUIRE(ok != NULL);
  const json_t *c = json_array_get(json_object_get(ok, "cells"), 0);
  CHECK_NEAR(json_number_value(json_object_get(c, "lat_us")), 2373.63, 1e-9);
  json_decref(ok);
}

/* ---------------------------------------------------------------- fio */

/* A one-job fio json+ output whose read clat_ns has `bins` and min/max/mean. */
static int fio_import_with(const char *name, const char *clat, struct ssdrev_err *err) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"fio version\": \"fio-3.33\", \"timestamp\": 1795975105,\n"
           " \"global options\": {\"bs\": \"4k\", \"rw\": \"randread\"},\n"
           " \"jobs\": [{\"jobname\": \"j1\", \"groupid\": 0, \"error\": 0, \"job options\": {},\n"
           "   \"read\": {\"io_bytes\": 12288, \"total_ios\": 3, \"bw_bytes\": 1, \"iops\": 1,\n"
           "     \"clat_ns\": %s}, \"job_runtime\": 1}]}\n",
           clat);
  put(test_path(name), json);
  struct import_opts o;
  import_opts_defaults(&o);
  char out[600];
  snprintf(out, sizeof out, "%s.run", test_path(name));
  o.out_dir = out;
  struct import_result res;
  err->msg[0] = 0;
  return import_file(import_find("fio"), test_path(name), &o, &res, err);
}

TEST("fio json+ bins with a negative, a 2^64 or a non-numeric key are refused naming file, job and key") {
  static const char *const bad[][2] = {
      {"{\"min\": 1, \"max\": 9, \"mean\": 5, \"bins\": {\"-5\": 3}}", "key '-5'"},
      {"{\"min\": 1, \"max\": 9, \"mean\": 5, \"bins\": {\"18446744073709551616\": 3}}", "key '18446744073709551616'"},
      {"{\"min\": 1, \"max\": 9, \"mean\": 5, \"bins\": {\"9223372036854775808\": 3}}", "key '9223372036854775808'"},
      {"{\"min\": 1, \"max\": 9, \"mean\": 5, \"bins\": {\"5x\": 3}}", "key '5x'"},
      {"{\"min\": 1, \"max\": 9, \"mean\": 5, \"bins\": {\"5\": -3}}", "bins[\"5\"] count"},
      {"{\"min\": 1, \"max\": 9, \"mean\": 5, \"bins\": {\"5\": 1.5}}", "bins[\"5\"] count"},
      {"{\"min\": 1, \"max\": 9, \"mean\": 5, \"bins\": {\"5\": 9223372036854775807, \"6\": 2}}", "count"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "bins%zu.json", i);
    struct ssdrev_err err;
    CHECK(fio_import_with(name, bad[i][0], &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, name);
    CHECK_CONTAINS(err.msg, "job fio.j1");
    CHECK_CONTAINS(err.msg, "read.clat_ns.bins");
    CHECK_CONTAINS(err.msg, bad[i][1]);
  }
  struct ssdrev_err err;
  CHECK(fio_import_with("bins-ok.json", "{\"min\": 1, \"max\": 9, \"mean\": 5, \"bins\": {\"1\": 1, \"9\": 2}}", &err) == 0);
}

TEST("A fio latency mean outside [min, max] (a wrapped sum) is refused") {
  struct ssdrev_err err;
  CHECK(fio_import_with("mean.json", "{\"min\": 1000, \"max\": 9000, \"mean\": 3.5}", &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "read.clat_ns.mean");
  CHECK_CONTAINS(err.msg, "outside [min");
  CHECK(fio_import_with("neg.json", "{\"min\": -1, \"max\": 9000, \"mean\": 30}", &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "read.clat_ns.min");
}

TEST("Percentiles from json+ bins skip keys that are not latencies and are never negative") {
  json_t *bins = json_pack("{s:i, s:i, s:i, s:i}", "-5", 100, "18446744073709551615", 100, "1000", 1, "2000", 1);
  double p[] = {50, 99};
  json_t *pct = import_fio_bins_percentiles(bins, p, 2);
  REQUIRE(pct != NULL);
  size_t i;
  json_t *e;
  json_array_foreach(pct, i, e) {
    CHECK(json_integer_value(json_object_get(e, "lat_ns")) >= 1000);
    CHECK(json_integer_value(json_object_get(e, "lat_ns")) <= 2000);
  }
  json_decref(pct);
  json_decref(bins);
}

TEST("A fio latency log line with a latency or offset beyond 63 bits is refused naming file and line") {
  static const char *const bad[][2] = {
      {"1, 52000, 0, 4096, 0\n2, 18446744073709551615, 0, 4096, 0\n", "line 2: submit_ns 0 + lat_ns 18446744073709551615 is beyond 2^63 ns"},
      {"1, 52000, 0, 4096, 0, 0\n2, 5000, 0, 4096, 18446744073709547520, 0\n", "line 2: offset_bytes 18446744073709547520 + len_bytes 4096 is beyond 2^63"},
  };
  for (size_t i = 0; i < 2; i++) {
    char name[32], out[600];
    snprintf(name, sizeof name, "lat%zu.log", i);
    put(test_path(name), bad[i][0]);
    snprintf(out, sizeof out, "%s.ssdlog", test_path(name));
    struct ssdrev_err err = {{0}};
    struct ssdlog_writer *w;
    REQUIRE(ssdlog_writer_open(&w, out, SSDLOG_CLOCK_IMPORTED, 0, NULL, 1, &err) == 0);
    struct import_fio_log_fmt fmt = {.has_offset = -1};
    struct import_fio_log_stats st;
    CHECK(import_fio_log_import(test_path(name), &fmt, w, &st, &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, name);
    CHECK_CONTAINS(err.msg, bad[i][1]);
    ssdlog_writer_close(w, NULL);
  }
}

/* ---------------------------------------------------------------- DUT */

static const char smart_ok[] = "{\"critical_warning\": 0, \"temperature\": 310, \"percent_used\": 1,"
                               " \"data_units_read\": 10, \"data_units_written\": 20, \"power_on_hours\": 3}";

TEST("id-ctrl with 100,000 or 33 power states, npss 40 or negative values is refused naming the key") {
  static const char *const bad[][2] = {
      {"{\"mn\": \"X\", \"npss\": 40}", "'npss' = 40"},
      {"{\"mn\": \"X\", \"wctemp\": -5}", "'wctemp' = -5"},
      {"{\"mn\": \"X\", \"vid\": 70000}", "'vid' = 70000"},
      {"{\"mn\": 7}", "'mn' = 7 is not a string"},
      {"{\"mn\": \"X\", \"psds\": [{\"max_power\": -702}]}", "'psds[0].max_power' = -702"},
      {"{\"mn\": \"X\", \"psds\": [{\"max_power\": 1}, {\"entry_lat\": 1.5}]}", "'psds[1].entry_lat' = 1.5"},
      {"{\"mn\": \"X\", \"npss\": 0, \"psds\": [{\"max_power\": 1}, {\"max_power\": 2}]}", "npss = 0"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    struct ssdrev_err err = {{0}};
    const char *names[3] = {"idc.json", NULL, NULL};
    json_t *d = import_dut_parse_named(bad[i][0], NULL, NULL, names, 0, &err);
    CHECK(d == NULL);
    CHECK_CONTAINS(err.msg, "'idc.json'");
    CHECK_CONTAINS(err.msg, bad[i][1]);
    json_decref(d);
  }
  /* 33 and 100,000 descriptors: NVMe has psd[0..31] */
  size_t counts[] = {33, 100000};
  for (size_t k = 0; k < 2; k++) {
    json_t *c = json_pack("{s:s, s:o}", "mn", "X", "psds", json_array());
    for (size_t i = 0; i < counts[k]; i++)
      json_array_append_new(json_object_get(c, "psds"), json_pack("{s:i}", "max_power", 100));
    char *text = json_dumps(c, JSON_COMPACT);
    struct ssdrev_err err = {{0}};
    json_t *d = import_dut_parse(text, NULL, NULL, 0, &err);
    CHECK(d == NULL);
    CHECK_CONTAINS(err.msg, "at most 32 power state descriptors");
    json_decref(d);
    free(text);
    json_decref(c);
  }
}

TEST("A smart-log that is any JSON object but a SMART log is refused naming file and key") {
  static const char *const bad[][2] = {
      {"{\"foo\": 1}", "no key 'critical_warning'"},
      {"{\"critical_warning\": 0, \"temperature\": 310, \"data_units_read\": 1, \"data_units_written\": 1,"
       " \"power_on_hours\": 1}", "no key 'percent_used'"},
      {"{\"critical_warning\": \"0\", \"temperature\": 310, \"percent_used\": 1, \"data_units_read\": 1,"
       " \"data_units_written\": 1, \"power_on_hours\": 1}", "'critical_warning' = \"0\""},
      {"{\"critical_warning\": 0, \"temperature\": -3, \"percent_used\": 1, \"data_units_read\": 1,"
       " \"data_units_written\": 1, \"power_on_hours\": 1}", "'temperature' = -3"},
      {"{\"critical_warning\": 0, \"temperature\": 310, \"percentage_used\": 1, \"data_units_read\": 1,"
       " \"data_units_written\": -1, \"power_on_hours\": 1}", "'data_units_written' = -1"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    struct ssdrev_err err = {{0}};
    const char *names[3] = {NULL, "sl.json", NULL};
    json_t *d = import_dut_parse_named(NULL, bad[i][0], NULL, names, 0, &err);
    CHECK(d == NULL);
    CHECK_CONTAINS(err.msg, "'sl.json'");
    CHECK_CONTAINS(err.msg, bad[i][1]);
    json_decref(d);
  }
  struct ssdrev_err err = {{0}};
  json_t *d = import_dut_parse(NULL, smart_ok, NULL, 0, &err);
  CHECK(d != NULL);
  json_decref(d);
}

TEST("A wrongly typed override is refused naming file and key, and the DUT model is kept") {
  static const char *const bad[][2] = {
      {"{\"model\": 5}", "'model' = 5 must be a string"},
      {"{\"controller\": \"C\", \"model\": null}", "'model' is null"},
      {"{\"capacity_bytes\": \"1TB\"}", "'capacity_bytes' = \"1TB\" must be a positive integer"},
      {"{\"warn_temp_c\": 1e9}", "'warn_temp_c'"},
      {"{\"power_states\": 3}", "'power_states' = 3"},
      {"{\"note\": {\"a\": 1}}", "'note'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    json_t *dut = json_pack("{s:s}", "model", "SAMSUNG MZVLB256HAHQ");
    json_t *ov = json_loads(bad[i][0], 0, NULL);
    REQUIRE(ov != NULL);
    struct ssdrev_err err = {{0}};
    CHECK(import_dut_apply_overrides(dut, ov, "ov.json", &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, "'ov.json'");
    CHECK_CONTAINS(err.msg, bad[i][1]);
    CHECK_STR(json_string_value(json_object_get(dut, "model")), "SAMSUNG MZVLB256HAHQ");
    CHECK(json_object_get(dut, "controller") == NULL); /* nothing applied */
    json_decref(ov);
    json_decref(dut);
  }
}

/* ---------------------------------------------------------------- job */

TEST("Job times that each fit 63 bits but sum beyond 2^63 ns are refused naming the keys") {
  json_t *j = json_pack("{s:I, s:I}", "ramp_ns", (json_int_t)INT64_MAX, "measure_ns", (json_int_t)INT64_MAX);
  struct bench_job job;
  bench_job_defaults(&job);
  struct ssdrev_err err = {{0}};
  CHECK(bench_job_from_json(&job, j, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "ramp_ns + measure_ns + idle_ns");
  json_decref(j);
  j = json_pack("{s:I, s:I}", "ramp_ns", (json_int_t)1000000000, "measure_ns", (json_int_t)5000000000);
  bench_job_defaults(&job);
  CHECK(bench_job_from_json(&job, j, &err) == 0);
  json_decref(j);
}
