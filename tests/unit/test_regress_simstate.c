/* test_regress_simstate.c — fuzz findings in the simulated drive's state
 * loader (sim/drive.c: sim_load_state). The loader checks the
 * header (magic, geometry) but copies struct sim_state verbatim, so a damaged
 * RUN/sim-state.bin makes a resumed review index the program ring out of
 * bounds (SEGV in do_write) or cast an absurd GC pressure to an integer
 * (UB in program_unit). Each test saves a real state, damages one field and
 * expects the load to be refused with a message naming the file. The raw
 * fuzz inputs are in tests/fuzz/regress/simstate/. */
#include <stddef.h>
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"
#include "sim/sim_int.h"

/* Opens the tiny fuzz model as a sim target. */
static struct bench_target *open_tiny(void) {
  const char *root = getenv("SSDREV_ROOT");
  char spec[1024];
  snprintf(spec, sizeof spec, "sim:%s/tests/fuzz/tiny.model", root && *root ? root : ".");
  struct bench_target_opts to = {.write_intent = 1, .seed = 1};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  if (bench_target_open(&t, spec, &to, &err)) fprintf(stderr, "    %s\n", err.msg);
  return t;
}

/* Saves a fresh state, overwrites 8 bytes of struct sim_state at `field_off`
 * with v, and returns what loading it gives (0 = accepted). */
static int load_damaged(size_t field_off, uint64_t v, char *msg, size_t msglen) {
  struct bench_target *t = open_tiny();
  if (!t) return -999;
  struct ssdrev_err err = {{0}};
  const char *path = test_path("damaged.state");
  int rc = sim_save(bench_target_sim(t), path, &err);
  if (rc) {
    bench_target_close(t);
    return -998;
  }
  char *buf;
  size_t len;
  rc = ssdrev_read_file(path, &buf, &len, 0, &err);
  /* the file is an 88-byte header (magic + 10 u64, SSDRSIM4) and then struct sim_state */
  if (!rc && 88 + field_off + 8 <= len) {
    memcpy(buf + 88 + field_off, &v, 8);
    rc = ssdrev_write_file_atomic(path, buf, len, &err);
  }
  free(buf);
  if (!rc) rc = sim_load_state(bench_target_sim(t), path, &err);
  snprintf(msg, msglen, "%s", err.msg);
  bench_target_close(t);
  return rc;
}

TEST("A sim state whose program-ring head lies outside the ring is refused, naming the file") {
  char msg[1024];
  int rc = load_damaged(offsetof(struct sim_state, ring_head), 1000000000ull, msg, sizeof msg);
  CHECK(rc < 0 && rc > -998);
  CHECK_CONTAINS(msg, "damaged.state");
}

TEST("A sim state with more programs in flight than the ring holds is refused") {
  char msg[1024];
  int rc = load_damaged(offsetof(struct sim_state, ring_count), 1ull << 40, msg, sizeof msg);
  CHECK(rc < 0 && rc > -998);
}

TEST("A sim state whose write point names a die the drive lacks is refused") {
  char msg[1024];
  int rc = load_damaged(offsetof(struct sim_state, next_die), 1ull << 33, msg, sizeof msg);
  CHECK(rc < 0 && rc > -998);
}

TEST("A sim state claiming more mapped or SLC data than the drive holds is refused") {
  char msg[1024];
  CHECK(load_damaged(offsetof(struct sim_state, mapped_units), 1ull << 50, msg, sizeof msg) < 0);
  CHECK(load_damaged(offsetof(struct sim_state, slc_used_bytes), 1ull << 62, msg, sizeof msg) < 0);
}

TEST("An undamaged saved sim state still loads") {
  char msg[1024];
  /* rewriting now_ns with a plausible value must be accepted */
  CHECK_EQ_U64(load_damaged(offsetof(struct sim_state, now_ns), 1000000, msg, sizeof msg), 0);
}
