/* bench/job/job_int.h — private to the job runner: the seeded generator and the I/O
 * buffers (bench/job/gen.c). */
#ifndef SSDREV_JOB_INT_H
#define SSDREV_JOB_INT_H

#include <stdint.h>
#include <stddef.h>

/* xoshiro256** seeded through splitmix64: fast, good enough for offsets and
 * incompressible data, reproducible from one 64-bit seed. */
struct bench_job_rng {
  uint64_t s[4];
};
void bench_job_rng_seed(struct bench_job_rng *r, uint64_t seed);
static inline uint64_t bench_job_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t bench_job_rng_next(struct bench_job_rng *r) {
  uint64_t *s = r->s;
  uint64_t out = bench_job_rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t;
  s[3] = bench_job_rng_rotl(s[3], 45);
  return out;
}
/* Uniform in [0, n) without a division (Lemire's multiply-shift). */
static inline uint64_t bench_job_rng_below(struct bench_job_rng *r, uint64_t n) {
  return (uint64_t)(((unsigned __int128)bench_job_rng_next(r) * n) >> 64);
}

/* Fills a buffer with random bytes (len a multiple of 8). */
void bench_job_fill_random(struct bench_job_rng *r, void *buf, size_t len);
/* Makes a write buffer unique again cheaply: a counter and a random word at
 * the start of every 512-byte sector, so no two written sectors are equal
 * (a deduplicating drive gains nothing) while the rest stays random. */
void bench_job_refresh(struct bench_job_rng *r, void *buf, size_t len, uint64_t counter);

#endif
