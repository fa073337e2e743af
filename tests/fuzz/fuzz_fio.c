/* fuzz_fio.c — the fio JSON importer (import/fio.c, through the
 * importer table as `ssdrev import fio` calls it) on arbitrary JSON: a run
 * archive is created for every input and removed after. The log directory
 * holds two fixed latency logs (prefix "fz", jobs 1 and 2), so inputs that
 * say write_lat_log=fz also go through the log conversion. An archive that
 * imports must then open with archive_open, and every test's params must
 * be a job that bench_job_from_json accepts. */
#include "tests/fuzz/fuzz.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

static int fuzz_fio_one(const uint8_t *data, size_t size) {
  static int ready;
  if (!ready) {
    mkdir(fuzz_path("fiologs"), 0700);
    static const char lat1[] = "1, 52000, 0, 4096, 0\n2, 61000, 1, 4096, 0\n3, 48000, 0, 4096, 0\n";
    static const char clat2[] = "5, 52000, 0, 131072, 1048576, 0\n9, 61000, 1, 131072, 0, 0\n";
    fuzz_write("fiologs/fz_lat.1.log", (const uint8_t *)lat1, sizeof lat1 - 1);
    fuzz_write("fiologs/fz_clat.2.log", (const uint8_t *)clat2, sizeof clat2 - 1);
    ready = 1;
  }
  const char *in = fuzz_write("fio.json", data, size);
  fuzz_rm("out");
  struct import_opts o;
  import_opts_defaults(&o);
  o.out_dir = fuzz_path("out");
  import_option_set(import_find("fio"), &o, "logs", fuzz_path("fiologs"), NULL);
  o.label = "fuzz";
  struct import_result res;
  struct ssdrev_err err = {{0}};
  const struct import_format *imp = import_find("fio");
  if (!imp) abort();
  int rc = import_file(imp, in, &o, &res, &err);
  fuzz_check_err(&err);
  if (rc) {
    if (!err.msg[0]) abort();
    return 0;
  }
  if (res.logs > res.tests) abort();
  struct archive *run;
  if (archive_open(&run, o.out_dir, &err)) {
    fprintf(stderr, "fuzz_fio: imported archive does not open: %s\n", err.msg);
    abort();
  }
  if (json_array_size(json_object_get(run->manifest, "tests")) != res.tests) abort();
  /* every test's params are documented as bench_job_to_json's shape, so
   * they must be a job bench_job_from_json accepts; "engine" is left out:
   * "fio:" + a long external engine path may exceed bench_job.engine
   * (reported, harmless to analysis) */
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(run->manifest, "tests"), i, t) {
    struct bench_job job;
    json_t *p = json_object_get(t, "params");
    if (!p) continue;
    json_t *q = json_copy(p);
    json_object_del(q, "engine");
    if (bench_job_from_json(&job, q, &err)) {
      fprintf(stderr, "fuzz_fio: imported params are not a valid job: %s\n", err.msg);
      abort();
    }
    json_decref(q);
  }
  archive_free(run);
  return 0;
}

FUZZ_ENTRY(fuzz_fio_one)
