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

/* 40 ordinary records then `bad`: the hostile values of docs/hardening.md
 * ("Hostile values"), the past findings of the logstats target. */
static int write_hostile(const char *dir, const char *name, const char *params, struct ssdlog_rec bad) {
  char path[4096];
  struct ssdrev_err err = {{0}};
  struct ssdlog_writer *w;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (ssdlog_writer_open(&w, path, SSDLOG_CLOCK_VIRTUAL, 0, params, 1, &err))
    return fprintf(stderr, "%s\n", err.msg), 1;
  for (unsigned i = 0; i < 40; i++) {
    struct ssdlog_rec r = {.submit_ns = 2000ull * i, .lat_ns = 90000 + 37 * i, .offset_bytes = 131072ull * i,
                          .len_bytes = 131072, .op = 1};
    if (ssdlog_append(w, &r, 1, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
  }
  if (ssdlog_append(w, &bad, 1, &err) || ssdlog_writer_close(w, &err))
    return fprintf(stderr, "%s\n", err.msg), 1;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5)
    return fprintf(stderr, "usage: gen_log_seeds LOG_DIR SIMSTATE_DIR sim:TINY_MODEL [LOGSTATS_REGRESS_DIR]\n"), 2;
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
  if (argc == 5) {
    const char *d = argv[4];
    rc |= write_hostile(d, "submit-near-2p63.ssdlog", NULL,
                        (struct ssdlog_rec){.submit_ns = (1ull << 63) - 4096, .lat_ns = 1000, .len_bytes = 4096});
    rc |= write_hostile(d, "submit-lat-wraps.ssdlog", NULL,
                        (struct ssdlog_rec){.submit_ns = 1u << 20, .lat_ns = UINT64_MAX - 100, .len_bytes = 4096});
    rc |= write_hostile(d, "beyond-duration.ssdlog", "{\"measure_ns\":100000}",
                        (struct ssdlog_rec){.submit_ns = 1ull << 50, .lat_ns = 1000, .len_bytes = 4096});
    rc |= write_hostile(d, "offset-beyond-2p63.ssdlog", NULL,
                        (struct ssdlog_rec){.submit_ns = 9000, .lat_ns = 1000, .offset_bytes = UINT64_MAX - 100,
                                           .len_bytes = 4096, .op = 1});
    rc |= write_hostile(d, "far-offset.ssdlog", NULL,
                        (struct ssdlog_rec){.submit_ns = 9000, .lat_ns = 1000, .offset_bytes = 1ull << 62,
                                           .len_bytes = 4096, .op = 1});
    rc |= write_hostile(d, "far-submit-no-params.ssdlog", NULL,
                        (struct ssdlog_rec){.submit_ns = 1ull << 52, .lat_ns = 1000, .len_bytes = 4096});
  }
  return rc;
}
