/* test_regress_fio.c — fuzz findings in the fio importer (import/fio.c,
 * import/import.c) against the manifest check (archive/archive.c). Raw input:
 * tests/fuzz/regress/fio/. */
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

/* fuzz finding: import_safe_name keeps '.', so a fio job named "a..b" gets
 * the log "logs/fio.a..b.1.ssdlog"; archive_open then refuses the whole
 * archive because its check is strstr(log, "..") rather than a ".." path
 * component. An import that succeeds must give an archive that opens. */
TEST("A fio job whose name contains '..' imports into an archive that opens") {
  const char *json =
      "{\"fio version\": \"fio-3.33\", \"timestamp\": 1795975105,\n"
      " \"global options\": {\"write_lat_log\": \"fz\", \"log_avg_msec\": \"0\", \"bs\": \"4k\", \"rw\": \"randread\"},\n"
      " \"jobs\": [{\"jobname\": \"a..b\", \"groupid\": 0, \"error\": 0, \"job options\": {},\n"
      "   \"read\": {\"io_bytes\": 12288, \"total_ios\": 3, \"bw\": 1, \"iops\": 1}, \"job_runtime\": 1}]}\n";
  const char *lat = "1, 52000, 0, 4096, 0\n2, 61000, 0, 4096, 0\n3, 48000, 0, 4096, 0\n";
  struct ssdrev_err err = {{0}};
  REQUIRE(ssdrev_write_file_atomic(test_path("fio.json"), json, strlen(json), &err) == 0);
  REQUIRE(ssdrev_write_file_atomic(test_path("fz_lat.1.log"), lat, strlen(lat), &err) == 0);
  struct import_opts o;
  import_opts_defaults(&o);
  o.out_dir = test_path("run-dotdot");
  import_option_set(import_find("fio"), &o, "logs", test_tmpdir(), NULL);
  struct import_result res;
  const struct import_format *imp = import_find("fio");
  REQUIRE(imp != NULL);
  int rc = import_file(imp, test_path("fio.json"), &o, &res, &err);
  if (rc) fprintf(stderr, "    import: %s\n", err.msg);
  REQUIRE(rc == 0);
  CHECK(res.logs == 1);
  struct archive *run;
  rc = archive_open(&run, o.out_dir, &err);
  if (rc) fprintf(stderr, "    open: %s\n", err.msg);
  CHECK(rc == 0);
  if (!rc) archive_free(run);
}

TEST("A manifest whose log path climbs out of the run is still refused") {
  struct ssdrev_err err = {{0}};
  const char *m = "{\"format\": \"ssdrev-run\", \"format_version\": 1,"
                  " \"tests\": [{\"name\": \"x\", \"log\": \"../../etc/passwd\"}]}";
  REQUIRE(ssdrev_mkdirs(test_path("run-escape"), &err) == 0);
  REQUIRE(ssdrev_write_file_atomic(test_path("run-escape/manifest.json"), m, strlen(m), &err) == 0);
  struct archive *run = NULL;
  CHECK(archive_open(&run, test_path("run-escape"), &err) < 0);
  CHECK_CONTAINS(err.msg, "log");
  archive_free(run);
}

/* fuzz finding: fio_size() in import/fio.c takes strtod's value as is,
 * so "nan", "inf" or "1e30k" as bs/size/offset was cast to uint64_t:
 * undefined behaviour (UBSan), and in gcc builds garbage such as 2^63, which
 * json_integer stores negative. Such a job must be refused or get sane
 * parameters. */
TEST("fio sizes written as nan, inf or 1e30 never become garbage job parameters") {
  const char *vals[] = {"nan", "inf", "1e30k", "-nan"};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    char json[1024];
    snprintf(json, sizeof json,
             "{\"fio version\": \"fio-3.33\", \"timestamp\": 1795975105,\n"
             " \"global options\": {\"bs\": \"%s\", \"size\": \"%s\", \"offset\": \"%s\", \"rw\": \"randread\"},\n"
             " \"jobs\": [{\"jobname\": \"j\", \"groupid\": 0, \"error\": 0, \"job options\": {},\n"
             "   \"read\": {\"io_bytes\": 12288, \"total_ios\": 3, \"bw\": 1, \"iops\": 1}, \"job_runtime\": 1}]}\n",
             vals[i], vals[i], vals[i]);
    struct ssdrev_err err = {{0}};
    char name[64], out[64];
    snprintf(name, sizeof name, "fio-size-%zu.json", i);
    snprintf(out, sizeof out, "run-size-%zu", i);
    REQUIRE(ssdrev_write_file_atomic(test_path(name), json, strlen(json), &err) == 0);
    struct import_opts o;
    import_opts_defaults(&o);
    o.out_dir = test_path(out);
    import_option_set(import_find("fio"), &o, "no-logs", "", NULL);
    struct import_result res;
    if (import_file(import_find("fio"), test_path(name), &o, &res, &err)) continue; /* refused: fine */
    struct archive *run;
    REQUIRE(archive_open(&run, o.out_dir, &err) == 0);
    json_t *p = json_object_get(json_array_get(json_object_get(run->manifest, "tests"), 0), "params");
    const char *keys[] = {"block_bytes", "span_bytes", "offset_bytes"};
    for (size_t k = 0; k < 3; k++) {
      json_t *v = json_object_get(p, keys[k]);
      if (v && !(json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < (1ll << 62)))
        fprintf(stderr, "    %s = \"%s\" gave %s = %lld\n", keys[k], vals[i], keys[k], (long long)json_integer_value(v));
      CHECK(!v || (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < (1ll << 62)));
    }
    struct bench_job job;
    CHECK(bench_job_from_json(&job, p, &err) == 0); /* the params must be a valid job */
    archive_free(run);
  }
}
