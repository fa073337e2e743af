/* fuzz_job.c — job parameters from JSON (bench/job/json.c:
 * bench_job_from_json), as read back from every manifest test's "params".
 * A job that parses must survive bench_job_to_json -> bench_job_from_json
 * unchanged. */
#include "tests/fuzz/fuzz.h"
#include "bench/bench.h"

static int fuzz_job_one(const uint8_t *data, size_t size) {
  json_error_t je;
  json_t *v = json_loadb((const char *)data, size, JSON_ALLOW_NUL, &je);
  if (!v) return 0;
  struct ssdrev_err err = {{0}};
  struct bench_job a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  int rc = bench_job_from_json(&a, v, &err);
  fuzz_check_err(&err);
  json_decref(v);
  if (rc) {
    if (!err.msg[0]) abort();
    return 0;
  }
  json_t *j = bench_job_to_json(&a);
  if (!j) abort();
  if (bench_job_from_json(&b, j, &err)) {
    fprintf(stderr, "fuzz_job: a job's own JSON is refused: %s\n", err.msg);
    abort();
  }
  json_decref(j);
  if (strcmp(a.name, b.name) || a.pattern != b.pattern || a.read_pct != b.read_pct ||
      a.block_bytes != b.block_bytes || a.qd != b.qd || a.threads != b.threads ||
      a.offset_bytes != b.offset_bytes || a.span_bytes != b.span_bytes || a.ramp_ns != b.ramp_ns ||
      a.measure_ns != b.measure_ns || a.size_bytes != b.size_bytes || a.max_ios != b.max_ios ||
      a.seed != b.seed || a.zero_buffers != b.zero_buffers || a.max_errors != b.max_errors ||
      strcmp(a.engine, b.engine)) {
    fprintf(stderr, "fuzz_job: job changed in a JSON round trip\n");
    abort();
  }
  return 0;
}

FUZZ_ENTRY(fuzz_job_one)
