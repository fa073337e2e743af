/* gen.c — the runner's seeded generator and write-buffer contents. */
#include <string.h>
#include "bench/job/job_int.h"

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void bench_job_rng_seed(struct bench_job_rng *r, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

void bench_job_fill_random(struct bench_job_rng *r, void *buf, size_t len) {
  unsigned char *p = buf;
  for (size_t i = 0; i + 8 <= len; i += 8) {
    uint64_t v = bench_job_rng_next(r);
    memcpy(p + i, &v, 8);
  }
}

void bench_job_refresh(struct bench_job_rng *r, void *buf, size_t len, uint64_t counter) {
  unsigned char *p = buf;
  for (size_t i = 0; i + 16 <= len; i += 512) {
    uint64_t v = bench_job_rng_next(r);
    memcpy(p + i, &counter, 8);
    memcpy(p + i + 8, &v, 8);
  }
}
