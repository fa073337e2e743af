/* sim-speed.c — how many simulated I/Os per CPU-second the sim engine does,
 * driven straight through its ops (submit / reap / now_ns), as the job runner
 * would, without logging. Built and run by perf/bench/sim-speed.sh.
 * Usage: sim-speed MODEL_FILE [IOS [ONLY]]: ONLY runs only the workloads whose
 * name contains it, after the fill (for callgrind: instructions of one workload
 * are the difference of two IOS counts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim/sim_int.h"
#include "log/ssdlog.h"
#include "sim/sim.h"
#include "bench/bench.h"

static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t xs = 88172645463325252ull;
static inline uint64_t rnd(void) {
  xs ^= xs << 13;
  xs ^= xs >> 7;
  xs ^= xs << 17;
  return xs;
}

/* n I/Os of bs bytes at depth qd; returns I/Os per CPU-second. */
static double bench(struct sim *s, const char *what, unsigned qd, uint64_t n, unsigned read_pct,
                    uint32_t bs, int seq) {
  struct bench_engine e = {&bench_engine_sim_ops, NULL};
  struct ssdrev_err err = {{0}};
  if (bench_engine_sim_attach(&e, s, qd, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    exit(1);
  }
  struct bench_io *ios = calloc(qd, sizeof *ios), **fl = calloc(qd, sizeof *fl), **b = calloc(qd, sizeof *b),
                  **d = calloc(qd, sizeof *d);
  unsigned nf = 0;
  for (unsigned i = 0; i < qd; i++) fl[nf++] = &ios[i];
  uint64_t span = s->m.capacity_bytes / bs, sub = 0, fin = 0, off = 0, v0 = sim_now_ns(s);
  double t0 = cpu_s();
  while (fin < n) {
    unsigned k = 0;
    uint64_t now = e.ops->now_ns(&e);
    while (nf && sub < n) {
      struct bench_io *io = fl[--nf];
      io->op = rnd() % 100 < read_pct ? SSDLOG_OP_READ : SSDLOG_OP_WRITE;
      io->len_bytes = bs;
      io->offset_bytes = seq ? (off++ % span) * bs : rnd() % span * bs;
      io->submit_ns = now;
      b[k++] = io;
      sub++;
    }
    if (k) e.ops->submit(&e, b, k);
    int r = e.ops->reap(&e, d, 1, qd);
    for (int i = 0; i < r; i++) fl[nf++] = d[i];
    fin += (uint64_t)r;
  }
  double cpu = cpu_s() - t0, virt = (sim_now_ns(s) - v0) / 1e9;
  printf("%-28s %9llu I/Os  %6.3f CPU-s  %8.2f M I/Os per CPU-s  (%.1f s virtual, %.0fx real time)\n", what,
         (unsigned long long)n, cpu, n / cpu / 1e6, virt, virt / cpu);
  e.ops->cleanup(&e);
  free(ios), free(fl), free(b), free(d);
  return n / cpu;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: sim-speed MODEL_FILE [IOS]\n");
    return 2;
  }
  uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 5000000;
  const char *only = argc > 3 ? argv[3] : "";
  struct sim_model m;
  struct sim *s;
  struct ssdrev_err err = {{0}};
  if (sim_model_load(&m, argv[1], &err) || sim_new(&s, &m, 1, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  double t0 = cpu_s();
  bench(s, "fill: SEQ 128K QD8 write", 8, m.capacity_bytes / 131072, 0, 131072, 1);
  printf("%-28s %6.3f CPU-s for %.0f GB\n", "  whole-drive fill", cpu_s() - t0, m.capacity_bytes / 1e9);
  if (strstr("RND4K Q32T1 read", only)) bench(s, "RND4K Q32T1 read", 32, n, 100, 4096, 0);
  if (strstr("RND4K Q1T1 read", only)) bench(s, "RND4K Q1T1 read", 1, n, 100, 4096, 0);
  if (strstr("RND4K Q1T1 70/30 mix", only)) bench(s, "RND4K Q1T1 70/30 mix", 1, n, 70, 4096, 0);
  if (strstr("RND4K Q32T1 write", only)) bench(s, "RND4K Q32T1 write", 32, n, 0, 4096, 0);
  sim_free(s);
  return 0;
}
