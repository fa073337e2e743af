/* sim_ftl.c — the simulated drive's FTL map: which 4 KiB units hold data.
 * One bit per unit (7.6 MB for 256 GB), updated a 64-bit word at a time so
 * a 128 KiB write touches one or two words; the mapped count is kept with
 * popcounts, so fill state and free space cost O(1) to read. */
#include <string.h>
#include "bench/sim_internal.h"

uint64_t sim_map_words(const struct bench_sim *s) { return (s->units + 63) / 64; }

static inline uint64_t range_mask(uint64_t lo_bit, uint64_t hi_bit) {
  /* bits lo_bit..hi_bit-1 of one word, 0 <= lo < hi <= 64 */
  uint64_t hi = hi_bit == 64 ? ~0ull : ((1ull << hi_bit) - 1);
  return hi & ~((1ull << lo_bit) - 1);
}

static void map_update(struct bench_sim *s, uint64_t a, uint64_t b, int set) {
  if (b > s->units) b = s->units;
  while (a < b) {
    uint64_t w = a / 64, lo = a % 64;
    uint64_t hi = (b - w * 64) < 64 ? (b - w * 64) : 64;
    uint64_t mask = range_mask(lo, hi);
    uint64_t old = s->map[w];
    uint64_t neu = set ? (old | mask) : (old & ~mask);
    s->st.mapped_units += (uint64_t)__builtin_popcountll(neu) - (uint64_t)__builtin_popcountll(old);
    s->map[w] = neu;
    a = w * 64 + hi;
  }
}

void sim_map_set(struct bench_sim *s, uint64_t off, uint64_t len) {
  if (!len) return;
  /* A partial unit is written read-modify-write: the whole unit is mapped. */
  map_update(s, off / SIM_UNIT_BYTES, (off + len + SIM_UNIT_BYTES - 1) / SIM_UNIT_BYTES, 1);
}

void sim_map_clear(struct bench_sim *s, uint64_t off, uint64_t len) {
  /* Only whole units inside the range are released (like a real discard). */
  uint64_t a = (off + SIM_UNIT_BYTES - 1) / SIM_UNIT_BYTES, b = (off + len) / SIM_UNIT_BYTES;
  if (a < b) map_update(s, a, b, 0);
}

int sim_map_any(const struct bench_sim *s, uint64_t off, uint64_t len) {
  uint64_t a = off / SIM_UNIT_BYTES, b = (off + len + SIM_UNIT_BYTES - 1) / SIM_UNIT_BYTES;
  if (b > s->units) b = s->units;
  while (a < b) {
    uint64_t w = a / 64, lo = a % 64;
    uint64_t hi = (b - w * 64) < 64 ? (b - w * 64) : 64;
    if (s->map[w] & range_mask(lo, hi)) return 1;
    a = w * 64 + hi;
  }
  return 0;
}

uint64_t sim_slc_cap(const struct bench_sim *s) {
  if (s->m.slc_static_only) return s->slc_min_bytes;
  /* The dynamic part borrows free TLC blocks in SLC mode, where a cell holds
   * one bit instead of bits_per_cell: it shrinks once free space runs short. */
  uint64_t mapped = s->st.mapped_units * SIM_UNIT_BYTES;
  uint64_t free_bytes = mapped < s->m.capacity_bytes ? s->m.capacity_bytes - mapped : 0;
  uint64_t dyn = free_bytes / s->m.bits_per_cell;
  uint64_t room = s->slc_max_bytes - s->slc_min_bytes;
  return s->slc_min_bytes + (dyn < room ? dyn : room);
}
