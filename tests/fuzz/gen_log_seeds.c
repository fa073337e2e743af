/* gen_log_seeds.c — writes the seed logs of tests/fuzz/corpus/log/ with the
 * real writer (log/writer.c): a fuzzer cannot guess a valid CRC, so it
 * starts from valid files and their damaged variants. Also writes the valid
 * simulated-drive states of tests/fuzz/corpus/simstate/. Regenerate (after a
 * format change) with: sh tests/fuzz/gen_log_seeds.sh BUILD */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

static int write_log(const char *path, size_t n, int chunks, uint64_t seed) {
  struct ssdrev_err err = {{0}};
  struct ssdlog_writer *w;
  if (ssdlog_writer_open(&w, path, SSDLOG_CLOCK_VIRTUAL, 1700000000000000000ull,
                            "{\"name\":\"seed\",\"qd\":4}", 1, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  uint64_t x = seed, t = 0;
  for (int c = 0; c < chunks; c++) {
    for (size_t i = 0; i < n; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      struct ssdlog_rec r = {0};
      t += 1000 + (x >> 54);
      r.submit_ns = t;
      r.lat_ns = 20000 + (x >> 50);
      r.offset_bytes = ((x >> 20) % 4096) * 4096;
      r.len_bytes = (x & 1) ? 4096 : 131072;
      r.status = (x % 97) == 0 ? -5 : 0;
      r.queue_id = (uint16_t)(x >> 60);
      r.op = (uint8_t)((x >> 33) % 3);
      r.flags = i < 3 ? SSDLOG_REC_RAMP : 0;
      if (ssdlog_append(w, &r, 1, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
    }
    if (ssdlog_flush(w, 0, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
  }
  if (ssdlog_writer_close(w, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
  return 0;
}

/* A valid state of tests/fuzz/tiny.model after some writes, for fuzz_simstate. */
static int write_state(const char *path, const char *model_spec, uint64_t io_bytes) {
  struct ssdrev_err err = {{0}};
  struct bench_target_opts to = {.write_intent = 1, .seed = 1};
  struct bench_target *t;
  if (bench_target_open(&t, model_spec, &to, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
  struct bench_job job;
  bench_job_defaults(&job);
  job.pattern = BENCH_RAND;
  job.read_pct = 0;
  job.block_bytes = 131072;
  job.measure_ns = 0;
  job.size_bytes = io_bytes;
  snprintf(job.engine, sizeof job.engine, "sim");
  struct bench_job_result res;
  int rc = io_bytes ? bench_job_run(t, &job, NULL, NULL, NULL, &res, &err) : 0;
  if (!rc) rc = sim_save(bench_target_sim(t), path, &err);
  if (rc) fprintf(stderr, "%s\n", err.msg);
  bench_target_close(t);
  return rc ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc != 4) return fprintf(stderr, "usage: gen_log_seeds LOG_DIR SIMSTATE_DIR sim:TINY_MODEL\n"), 2;
  char p[4096];
  int rc = 0;
  snprintf(p, sizeof p, "%s/one-record.ssdlog", argv[1]);
  rc |= write_log(p, 1, 1, 1);
  snprintf(p, sizeof p, "%s/small.ssdlog", argv[1]);
  rc |= write_log(p, 40, 1, 2);
  snprintf(p, sizeof p, "%s/three-chunks.ssdlog", argv[1]);
  rc |= write_log(p, 20, 3, 3);
  snprintf(p, sizeof p, "%s/empty.ssdlog", argv[1]);
  rc |= write_log(p, 0, 0, 4);
  snprintf(p, sizeof p, "%s/empty.state", argv[2]);
  rc |= write_state(p, argv[3], 0);
  snprintf(p, sizeof p, "%s/written.state", argv[2]);
  rc |= write_state(p, argv[3], 48ull << 20);
  return rc;
}
