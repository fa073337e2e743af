/* steady.c — the simulator's truth for the GC-bound steady state of random
 * writes, measured by the timing itself (docs/sim-model.md "Ground truth"):
 * GC pressure follows the free space (sim/drive.c gc_pressure), so a drive
 * whose every LBA is mapped runs at full pressure from its first random
 * write; what it then sustains is the steady state the steady_state and
 * consistency steps should find. On a model with the page-mapped FTL
 * (op_pct) GC follows the blocks' valid counts instead; two capacities of
 * random writes after the fill bring greedy GC close to its steady WA, so
 * the second capacity's rate is that drive's steady state too (within a few
 * per cent of sim_model_ftl_facts' formula: 11039 vs 10808 IOPS on ftl-8g). */
#include <errno.h>
#include <stdlib.h>
#include "sim/sim.h"
#include "log/ssdlog.h"

int sim_model_measure_rand_write(const struct sim_model *m, uint32_t block, unsigned qd, double *iops,
                                 struct ssdrev_err *err) {
  *iops = 0;
  if (!block || !qd || qd > 4096) return ssdrev_fail(err, -EINVAL, "measure: block and qd (1..4096) must be set");
  struct sim_model x = *m;
  x.error_rate = 0;
  x.bad_lba_count = 0;
  struct sim *s;
  int rc = sim_new(&s, &x, 1, err);
  if (rc) return rc;
  uint64_t *done = calloc(qd, sizeof *done);
  if (!done) {
    sim_free(s);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  /* closed loops: I/O i is submitted when I/O i - qd has completed */
  enum { SEQ_QD = 32, SEQ_BS = 128 * 1024 };
  uint64_t seq_done[SEQ_QD] = {0}, now = 0, last = 0;
  uint64_t nseq = x.capacity_bytes / SEQ_BS;
  for (uint64_t i = 0; i < nseq; i++) {
    now = seq_done[i % SEQ_QD];
    int32_t st;
    uint64_t d = sim_io(s, now, SSDLOG_OP_WRITE, i * SEQ_BS, SEQ_BS, &st);
    sim_advance(s, now);
    seq_done[i % SEQ_QD] = d;
    if (d > last) last = d;
  }
  for (unsigned k = 0; k < qd; k++) done[k] = last;
  uint64_t slots = x.capacity_bytes / block, n = 2 * (x.capacity_bytes / block), rng = 0x9e3779b97f4a7c15ull;
  uint64_t t_half = 0;
  for (uint64_t i = 0; i < n && slots; i++) {
    now = done[i % qd];
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17; /* xorshift64 */
    int32_t st;
    uint64_t d = sim_io(s, now, SSDLOG_OP_WRITE, (rng % slots) * block, block, &st);
    sim_advance(s, now);
    done[i % qd] = d;
    if (d > last) last = d;
    if (i + 1 == n / 2) t_half = last;
  }
  *iops = last > t_half ? (double)(n - n / 2) / ((double)(last - t_half) / 1e9) : 0;
  free(done);
  sim_free(s);
  return 0;
}
