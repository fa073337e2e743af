/* ftl.c — the simulated drive's FTL map: which 4 KiB units hold data.
 * One bit per unit (7.6 MB for 256 GB), updated a 64-bit word at a time so
 * a 128 KiB write touches one or two words; the mapped count is kept with
 * popcounts, so fill state and free space cost O(1) to read. */
#include <string.h>
#include "sim/sim_int.h"

uint64_t sim_map_words(const struct sim *s) { return (s->units + 63) / 64; }
uint64_t sim_map_regions(const struct sim *s) {
  return (sim_map_words(s) + SIM_REGION_WORDS - 1) / SIM_REGION_WORDS;
}

/* The bits a word holds when full (the last word may be partial). */
static inline uint64_t word_full(const struct sim *s, uint64_t w) {
  uint64_t rem = s->units - w * 64;
  return rem >= 64 ? ~0ull : ((1ull << rem) - 1);
}

static void region_update(struct sim *s, uint64_t r) {
  uint64_t w0 = r * SIM_REGION_WORDS, w1 = w0 + SIM_REGION_WORDS, nw = sim_map_words(s);
  if (w1 > nw) w1 = nw;
  int any = 0, all = 1;
  for (uint64_t w = w0; w < w1; w++) {
    any |= s->map[w] != 0;
    all &= s->map[w] == word_full(s, w);
  }
  s->region[r] = all ? SIM_REGION_FULL : any ? SIM_REGION_MIXED : SIM_REGION_EMPTY;
}

void sim_map_rebuild_regions(struct sim *s) {
  for (uint64_t r = 0; r < sim_map_regions(s); r++) region_update(s, r);
}

static inline uint64_t range_mask(uint64_t lo_bit, uint64_t hi_bit) {
  /* bits lo_bit..hi_bit-1 of one word, 0 <= lo < hi <= 64 */
  uint64_t hi = hi_bit == 64 ? ~0ull : ((1ull << hi_bit) - 1);
  return hi & ~((1ull << lo_bit) - 1);
}

static void map_update(struct sim *s, uint64_t a, uint64_t b, int set) {
  if (b > s->units) b = s->units;
  uint64_t last_region = UINT64_MAX;
  while (a < b) {
    uint64_t w = a / 64, lo = a % 64, r = w / SIM_REGION_WORDS;
    if (s->region[r] == (set ? SIM_REGION_FULL : SIM_REGION_EMPTY)) { /* nothing changes here */
      a = (r + 1) * SIM_REGION_WORDS * 64;
      continue;
    }
    if (r != last_region && last_region != UINT64_MAX) region_update(s, last_region);
    last_region = r;
    uint64_t hi = (b - w * 64) < 64 ? (b - w * 64) : 64;
    uint64_t mask = range_mask(lo, hi);
    uint64_t old = s->map[w];
    uint64_t neu = set ? (old | mask) : (old & ~mask);
    s->st.mapped_units += (uint64_t)__builtin_popcountll(neu) - (uint64_t)__builtin_popcountll(old);
    s->map[w] = neu;
    a = w * 64 + hi;
  }
  if (last_region != UINT64_MAX) region_update(s, last_region);
}

void sim_map_set(struct sim *s, uint64_t off, uint64_t len) {
  if (!len) return;
  /* A partial unit is written read-modify-write: the whole unit is mapped. */
  map_update(s, off / SIM_UNIT_BYTES, (off + len + SIM_UNIT_BYTES - 1) / SIM_UNIT_BYTES, 1);
}

void sim_map_clear(struct sim *s, uint64_t off, uint64_t len) {
  /* Only whole units inside the range are released (like a real discard). */
  uint64_t a = (off + SIM_UNIT_BYTES - 1) / SIM_UNIT_BYTES, b = (off + len) / SIM_UNIT_BYTES;
  if (a < b) map_update(s, a, b, 0);
}

int sim_map_any(const struct sim *s, uint64_t off, uint64_t len) {
  uint64_t a = off / SIM_UNIT_BYTES, b = (off + len + SIM_UNIT_BYTES - 1) / SIM_UNIT_BYTES;
  if (b > s->units) b = s->units;
  while (a < b) {
    uint64_t w = a / 64, lo = a % 64, r = w / SIM_REGION_WORDS;
    if (s->region[r] != SIM_REGION_MIXED) {
      if (s->region[r] == SIM_REGION_FULL) return 1;
      a = (r + 1) * SIM_REGION_WORDS * 64;
      continue;
    }
    uint64_t hi = (b - w * 64) < 64 ? (b - w * 64) : 64;
    if (s->map[w] & range_mask(lo, hi)) return 1;
    a = w * 64 + hi;
  }
  return 0;
}

uint64_t sim_slc_sum_words(const struct sim *s) { return (sim_map_words(s) + 63) / 64; }

void sim_slc_rebuild_sum(struct sim *s) {
  memset(s->slc_sum, 0, sim_slc_sum_words(s) * sizeof *s->slc_sum);
  for (uint64_t w = 0; w < sim_map_words(s); w++)
    if (s->slc_map[w]) s->slc_sum[w / 64] |= 1ull << (w % 64);
}

/* Units [a, b) of the SLC residency map: counts the marked ones, then sets
 * or clears them all. A write that lands in TLC over words holding no mark
 * (most random writes over a full drive) reads only the summary, which stays
 * in cache: the map itself (7.6 MB for 256 GB) missed on nearly every write.
 * The counts are exactly the map's, so the timing is unchanged. */
static uint64_t slc_update(struct sim *s, uint64_t a, uint64_t b, int set) {
  if (b > s->units) b = s->units;
  uint64_t had = 0;
  if (!set && !s->slc_map_dirty) return 0;
  while (a < b) {
    uint64_t w = a / 64, lo = a % 64;
    uint64_t hi = (b - w * 64) < 64 ? (b - w * 64) : 64;
    uint64_t bit = 1ull << (w % 64), *sum = &s->slc_sum[w / 64];
    if (!set && !(*sum & bit)) { /* no mark in this word: nothing to count or clear */
      a = w * 64 + hi;
      continue;
    }
    uint64_t mask = range_mask(lo, hi);
    had += (uint64_t)__builtin_popcountll(s->slc_map[w] & mask);
    s->slc_map[w] = set ? s->slc_map[w] | mask : s->slc_map[w] & ~mask;
    *sum = s->slc_map[w] ? *sum | bit : *sum & ~bit;
    a = w * 64 + hi;
  }
  if (set) s->slc_map_dirty = 1;
  return had;
}

uint64_t sim_slc_mark(struct sim *s, uint64_t off, uint64_t len, int in_slc) {
  if (!len) return 0;
  return slc_update(s, off / SIM_UNIT_BYTES, (off + len + SIM_UNIT_BYTES - 1) / SIM_UNIT_BYTES, in_slc);
}

uint64_t sim_slc_unmark_trim(struct sim *s, uint64_t off, uint64_t len) {
  uint64_t a = (off + SIM_UNIT_BYTES - 1) / SIM_UNIT_BYTES, b = (off + len) / SIM_UNIT_BYTES;
  return a < b ? slc_update(s, a, b, 0) : 0;
}

uint64_t sim_slc_unmark_oldest(struct sim *s, uint64_t units) {
  uint64_t nw = sim_map_words(s), done = 0, scanned = 0;
  if (!s->slc_map_dirty || !units || !nw) return 0;
  uint64_t w = s->fold_cursor < nw ? s->fold_cursor : 0;
  while (done < units && scanned < nw) {
    uint64_t sw = w / 64, bit = 1ull << (w % 64);
    if (!s->slc_sum[sw]) { /* 64 words without a mark */
      uint64_t skip = 64 - w % 64;
      w += skip, scanned += skip;
    } else if (!(s->slc_sum[sw] & bit)) {
      w++, scanned++;
    } else {
      uint64_t v = s->slc_map[w], n = (uint64_t)__builtin_popcountll(v);
      if (n <= units - done) {
        v = 0;
        done += n;
      } else {
        while (done < units) v &= v - 1, done++; /* the lowest LBAs first */
      }
      s->slc_map[w] = v;
      if (!v) s->slc_sum[sw] &= ~bit, w++, scanned++;
    }
    if (w >= nw) w = 0;
  }
  s->fold_cursor = w;
  return done;
}

void sim_slc_clear_all(struct sim *s) {
  if (!s->slc_map_dirty) return;
  memset(s->slc_map, 0, sim_map_words(s) * sizeof *s->slc_map);
  memset(s->slc_sum, 0, sim_slc_sum_words(s) * sizeof *s->slc_sum);
  s->slc_map_dirty = 0;
}

uint64_t sim_slc_cap(const struct sim *s) {
  if (s->m.slc_static_only) return s->slc_min_bytes;
  /* The dynamic part borrows free TLC blocks in SLC mode, where a cell holds
   * one bit instead of bits_per_cell: it shrinks once free space runs short. */
  uint64_t mapped = s->st.mapped_units * SIM_UNIT_BYTES;
  uint64_t free_bytes = mapped < s->m.capacity_bytes ? s->m.capacity_bytes - mapped : 0;
  uint64_t dyn = free_bytes / s->m.bits_per_cell;
  uint64_t room = s->slc_max_bytes - s->slc_min_bytes;
  return s->slc_min_bytes + (dyn < room ? dyn : room);
}
