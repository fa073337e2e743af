/* fuzz_simstate.c — the simulated drive's saved state (sim/drive.c:
 * sim_load_state), read back from RUN/sim-state.bin when a review
 * resumes. A state that loads is then driven: a short mixed random job runs
 * on the drive, so values the loader accepted are used the way a resumed run
 * uses them. Drive: tests/fuzz/tiny.model (64 MiB, so a state is ~3 KiB),
 * or tests/fuzz/tiny-ftl.model (its page-mapped FTL) when the state's header
 * names FTL units (the u64 at offset 64, ftl_lunits). */
#include "tests/fuzz/fuzz.h"
#include "sim/sim.h"
#include "bench/bench.h"

static char fuzz_simstate_model[2][1100];

static int fuzz_simstate_one(const uint8_t *data, size_t size) {
  if (!fuzz_simstate_model[0][0]) {
    const char *root = getenv("SSDREV_ROOT");
    snprintf(fuzz_simstate_model[0], sizeof fuzz_simstate_model[0], "sim:%s/tests/fuzz/tiny.model",
             root && *root ? root : ".");
    snprintf(fuzz_simstate_model[1], sizeof fuzz_simstate_model[1], "sim:%s/tests/fuzz/tiny-ftl.model",
             root && *root ? root : ".");
  }
  uint64_t lunits = 0;
  if (size >= 72) memcpy(&lunits, data + 64, 8);
  const char *model = fuzz_simstate_model[lunits != 0];
  struct ssdrev_err err = {{0}};
  const char *state = fuzz_write("sim-state.bin", data, size);
  struct bench_target_opts to = {.write_intent = 1, .seed = 1};
  struct bench_target *t;
  if (bench_target_open(&t, model, &to, &err)) {
    fprintf(stderr, "fuzz_simstate: cannot open %s: %s\n", model, err.msg);
    abort();
  }
  struct sim *s = bench_target_sim(t);
  if (!s) abort();
  int rc = sim_load_state(s, state, &err);
  fuzz_check_err(&err);
  if (rc) {
    if (!err.msg[0]) abort();
  } else {
    struct bench_job job;
    bench_job_defaults(&job);
    job.pattern = BENCH_RAND;
    job.read_pct = 50;
    job.block_bytes = 4096;
    job.qd = 8;
    job.measure_ns = 2000000; /* 2 ms of virtual time */
    job.max_ios = 2000;
    snprintf(job.engine, sizeof job.engine, "sim");
    struct bench_job_result res;
    rc = bench_job_run(t, &job, NULL, NULL, NULL, &res, &err);
    fuzz_check_err(&err);
    struct sim_truth truth;
    sim_get_truth(s, &truth);
  }
  bench_target_close(t);
  return 0;
}

FUZZ_ENTRY(fuzz_simstate_one)
