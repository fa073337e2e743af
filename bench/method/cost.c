/* cost.c — what a job of a review costs its progress line: the device time
 * it takes, or on a virtual clock the work of simulating it (docs/method.md
 * "Progress and ETA"). The step kinds sum these for their estimates and the
 * runner charges each job the same, so a step's share done is one measure
 * from its first job to its last. */
#include "bench/method/review_int.h"

/* The plan's ceiling for random IOPS at any depth: without it a deep queue
 * of 4 KiB reads would be priced at qd1_iops x depth (480,000 at QD32). */
#define REVIEW_PLAN_RAND_IOPS_MAX 250000.0
/* A random write is acknowledged from the drive's write cache: at QD1 an
 * NVMe drive writes 4 KiB about four times as often as it reads (60,000
 * IOPS against 15,000; the PM981 model 79,000 against 12,000). */
#define REVIEW_PLAN_WRITE_QD1_FACTOR 4.0
/* On a virtual clock an I/O costs about 0.8 us of wall time plus about
 * 0.03 us per 4 KiB it moves (measured on the PM981 model: 0.8 us a 4 KiB
 * I/O at QD1 or QD32, 2-10 us a 1 MiB one); in units of a 4 KiB I/O. */
#define REVIEW_WORK_BYTES_PER_UNIT 131072.0

/* The I/Os per second the plan expects of L. */
static double plan_iops(const struct review_profile *p, const struct review_load *l) {
  double r = l->read_pct / 100.0;
  double mb_s = r * p->set.plan_read_mb_s + (1 - r) * p->set.plan_write_mb_s;
  double iops = mb_s * 1e6 / l->block_bytes;
  if (l->pattern == BENCH_RAND) {
    double qd1 = p->set.plan_qd1_iops * (r + (1 - r) * REVIEW_PLAN_WRITE_QD1_FACTOR);
    double q = qd1 * (l->depth ? l->depth : 1);
    if (q > REVIEW_PLAN_RAND_IOPS_MAX) q = REVIEW_PLAN_RAND_IOPS_MAX;
    if (q < iops) iops = q;
  }
  return iops;
}

double bench_review_cost(const struct review_profile *p, enum review_basis basis, const struct review_load *l) {
  if (basis == REVIEW_BASIS_DEVICE) return l->busy_s + l->idle_s;
  /* work: the simulated seconds and the idle gaps cost no wall time; a
   * load that moves no data (a purge) costs nothing either */
  if (!l->block_bytes || l->busy_s <= 0) return 0;
  double ios = l->busy_s * plan_iops(p, l);
  return ios * (1 + l->block_bytes / REVIEW_WORK_BYTES_PER_UNIT);
}

double bench_review_seq_write_cost(const struct review_profile *p, enum review_basis basis, uint64_t bytes,
                                   uint32_t block_bytes, unsigned qd, double idle_s) {
  struct review_load l = {.pattern = BENCH_SEQ, .read_pct = 0, .block_bytes = block_bytes, .depth = qd,
                          .busy_s = (double)bytes / (p->set.plan_write_mb_s * 1e6), .idle_s = idle_s};
  return bench_review_cost(p, basis, &l);
}
