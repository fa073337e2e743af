/* ftl.c — the simulated drive's FTL map: which 4 KiB units hold data.
 * One bit per unit (7.6 MB for 256 GB), updated a 64-bit word at a time so
 * a 128 KiB write touches one or two words; the mapped count is kept with
 * popcounts, so fill state and free space cost O(1) to read. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "sim/sim_int.h"

uint64_t sim_map_words(const struct sim *s) { return (s->units + 63) / 64; }
uint64_t sim_map_regions(const struct sim *s) {
  return (sim_map_words(s) + SIM_REGION_WORDS - 1) / SIM_REGION_WORDS;
}
static uint64_t map_groups(const struct sim *s) { return (sim_map_regions(s) + SIM_GROUP_REGIONS - 1) / SIM_GROUP_REGIONS; }
uint64_t sim_map_summary_bytes(const struct sim *s) { return sim_map_regions(s) + map_groups(s); }

/* Group g's state from its regions (one cache line of them). */
static void group_update(struct sim *s, uint64_t g) {
  uint64_t r0 = g * SIM_GROUP_REGIONS, r1 = r0 + SIM_GROUP_REGIONS, nr = sim_map_regions(s);
  if (r1 > nr) r1 = nr;
  int st = s->region[r0];
  for (uint64_t r = r0 + 1; r < r1 && st != SIM_REGION_MIXED; r++)
    if (s->region[r] != st) st = SIM_REGION_MIXED;
  s->group[g] = (uint8_t)st;
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
  uint8_t st = all ? SIM_REGION_FULL : any ? SIM_REGION_MIXED : SIM_REGION_EMPTY;
  if (s->region[r] != st) s->region[r] = st, group_update(s, r / SIM_GROUP_REGIONS);
}

void sim_map_rebuild_regions(struct sim *s) {
  for (uint64_t r = 0; r < sim_map_regions(s); r++) region_update(s, r);
  for (uint64_t g = 0; g < map_groups(s); g++) group_update(s, g);
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
    uint64_t w = a / 64, lo = a % 64, r = w / SIM_REGION_WORDS, g = r / SIM_GROUP_REGIONS;
    if (s->group[g] == (set ? SIM_REGION_FULL : SIM_REGION_EMPTY)) { /* nothing changes in the group */
      a = (g + 1) * SIM_GROUP_REGIONS * SIM_REGION_WORDS * 64;
      continue;
    }
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
    uint64_t w = a / 64, lo = a % 64, r = w / SIM_REGION_WORDS, g = r / SIM_GROUP_REGIONS;
    if (s->group[g] != SIM_REGION_MIXED) {
      if (s->group[g] == SIM_REGION_FULL) return 1;
      a = (g + 1) * SIM_GROUP_REGIONS * SIM_REGION_WORDS * 64;
      continue;
    }
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
uint64_t sim_slc_summary_words(const struct sim *s) { return sim_slc_sum_words(s) + (sim_slc_sum_words(s) + 63) / 64; }

/* Summary word sw of slc_map was set or cleared: its bit in slc_sum2 (on a
 * large drive slc_sum, 1 MB for 2 TB, missed cache on every write). */
static inline void slc_sum2_note(struct sim *s, uint64_t sw) {
  uint64_t bit = 1ull << (sw % 64);
  s->slc_sum2[sw / 64] = s->slc_sum[sw] ? s->slc_sum2[sw / 64] | bit : s->slc_sum2[sw / 64] & ~bit;
}

void sim_slc_rebuild_sum(struct sim *s) {
  memset(s->slc_sum, 0, sim_slc_summary_words(s) * sizeof *s->slc_sum);
  for (uint64_t w = 0; w < sim_map_words(s); w++)
    if (s->slc_map[w]) s->slc_sum[w / 64] |= 1ull << (w % 64);
  for (uint64_t sw = 0; sw < sim_slc_sum_words(s); sw++) slc_sum2_note(s, sw);
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
    uint64_t sw = w / 64, bit = 1ull << (w % 64), *sum = &s->slc_sum[sw];
    if (!set && (!(s->slc_sum2[sw / 64] >> (sw % 64) & 1) || !(*sum & bit))) {
      a = w * 64 + hi; /* no mark in this word: nothing to count or clear */
      continue;
    }
    uint64_t mask = range_mask(lo, hi);
    had += (uint64_t)__builtin_popcountll(s->slc_map[w] & mask);
    s->slc_map[w] = set ? s->slc_map[w] | mask : s->slc_map[w] & ~mask;
    uint64_t was = *sum;
    *sum = s->slc_map[w] ? *sum | bit : *sum & ~bit;
    if (!was != !*sum) slc_sum2_note(s, sw);
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
      if (!v) {
        s->slc_sum[sw] &= ~bit, w++, scanned++;
        if (!s->slc_sum[sw]) slc_sum2_note(s, sw);
      }
    }
    if (w >= nw) w = 0;
  }
  s->fold_cursor = w;
  return done;
}

void sim_slc_clear_all(struct sim *s) {
  if (!s->slc_map_dirty) return;
  memset(s->slc_map, 0, sim_map_words(s) * sizeof *s->slc_map);
  memset(s->slc_sum, 0, sim_slc_summary_words(s) * sizeof *s->slc_sum); /* and slc_sum2 */
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

/* ------------------------------------------------------ page-mapped FTL */

/* Free blocks the host stream leaves to GC: below this many, a host block
 * is taken only after greedy GC has erased enough victims. The GC stream
 * needs at most one new block per victim (a victim holds fewer valid units
 * than a block), so it never runs dry. */
#define FTL_GC_RESERVE 2u

/* The maps: anonymous memory, zero and untouched until written (an empty
 * drive costs nothing), in transparent huge pages where the kernel allows
 * (madvise mode): a random write reads one random l2p entry, and with 4 KiB
 * pages the TLB miss cost as much as the rest of the write. */
static void *map_alloc(uint64_t bytes) {
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without it, plain pages */
#endif
  return p;
}

/* Zeroes a map by giving its pages back (they read as zeros again, untouched
 * until written): a purge of a 2 TB drive neither writes nor keeps 1 GB. */
static void map_zero(void *p, uint64_t bytes) {
  if (madvise(p, bytes, MADV_DONTNEED)) memset(p, 0, bytes);
}

static void map_free(void *p, uint64_t bytes) {
  if (p) munmap(p, bytes);
}

static uint64_t vbits_bytes(const struct sim_ftl *f) { return ((uint64_t)f->g.punits + 63) / 64 * 8; }

/* slot / upb without a division (upb is not a power of two with TLC's three
 * bits a cell; a hardware divide was a tenth of a relocation's time): Lemire's
 * multiply-high, exact for every 32-bit slot and divisor. */
static inline uint32_t block_of(const struct sim_ftl *f, uint32_t slot) {
  __extension__ typedef unsigned __int128 u128;
  return (uint32_t)(((u128)f->upb_magic * slot) >> 64);
}

static inline void vbit_set(struct sim_ftl *f, uint32_t slot) { f->vbits[slot / 64] |= 1ull << (slot % 64); }
static inline void vbit_clear(struct sim_ftl *f, uint32_t slot) { f->vbits[slot / 64] &= ~(1ull << (slot % 64)); }

/* Sets the valid bits of slots [slot, slot + n), a word at a time. */
static void vbits_set_run(struct sim_ftl *f, uint32_t slot, uint32_t n) {
  for (uint32_t end = slot + n; slot < end;) {
    uint32_t lo = slot % 64, k = end - slot < 64 - lo ? end - slot : 64 - lo;
    f->vbits[slot / 64] |= (k == 64 ? ~0ull : ((1ull << k) - 1)) << lo;
    slot += k;
  }
}

const char *sim_ftl_geometry(const struct sim_model *m, struct sim_ftl_geom *g) {
  memset(g, 0, sizeof *g);
  g->unit_bytes = m->map_unit_bytes ? m->map_unit_bytes : SIM_UNIT_BYTES;
  uint64_t tlc_block = m->block_bytes * m->bits_per_cell;
  uint64_t upb = tlc_block / g->unit_bytes;
  if (upb < 4) return "a TLC block (block_bytes x bits_per_cell) must hold at least four mapping units";
  if (upb > (1u << 24)) return "a TLC block holds more than 2^24 mapping units";
  uint64_t lunits = (m->capacity_bytes + g->unit_bytes - 1) / g->unit_bytes;
  uint64_t user_blocks = (lunits + upb - 1) / upb;
  uint64_t spare = (uint64_t)((double)lunits * m->op_pct / 100.0) / upb;
  /* two open blocks, the GC reserve and one to collect into */
  if (spare < FTL_GC_RESERVE + 3) return "the spare area must hold at least five blocks (raise op_pct)";
  uint64_t nblocks = user_blocks + spare;
  if (nblocks * upb >= UINT32_MAX - 1) return "too many mapping units for the map (raise map_unit_bytes)";
  g->lunits = (uint32_t)lunits;
  g->upb = (uint32_t)upb;
  g->nblocks = (uint32_t)nblocks;
  g->punits = (uint32_t)(nblocks * upb);
  return NULL;
}

/* Inlined: a stale slot moves its block between lists, once per host write
 * and per trimmed unit; as calls they were 8% of a random write (perf). */
static inline __attribute__((always_inline)) void bucket_unlink(struct sim_ftl *f, uint32_t b) {
  uint32_t p = f->prev[b], n = f->next[b];
  if (p != SIM_FTL_NONE) f->next[p] = n;
  else f->bucket[f->valid[b]] = n;
  if (n != SIM_FTL_NONE) f->prev[n] = p;
}

static inline __attribute__((always_inline)) void bucket_link(struct sim_ftl *f, uint32_t b) {
  uint32_t v = f->valid[b], h = f->bucket[v];
  f->prev[b] = SIM_FTL_NONE;
  f->next[b] = h;
  if (h != SIM_FTL_NONE) f->prev[h] = b;
  f->bucket[v] = b;
  if (v < f->min_bucket) f->min_bucket = v;
}

static inline int is_open(const struct sim_ftl *f, uint32_t b) { return b == f->open[0] || b == f->open[1]; }

/* Clears the valid bits of the slots logged stale (collect does first). */
static void stale_flush(struct sim_ftl *f) {
  for (uint32_t i = 0; i < f->nstale; i++) {
    if (i + 16 < f->nstale) __builtin_prefetch(&f->vbits[f->stale[i + 16] / 64], 1);
    vbit_clear(f, f->stale[i]);
  }
  f->nstale = 0;
}

/* Physical slot `slot` goes stale: its block loses a valid unit and, when
 * full, moves to the head of the next lower list. Its valid bit is cleared
 * later, from a log: on a random write the bit's word missed cache right
 * after the l2p entry's miss, and the two in a row held the write for a
 * sixth of its time; a collection clears a log's worth together, the
 * misses overlapped. */
static inline void slot_stale(struct sim_ftl *f, uint32_t slot) {
  uint32_t b = block_of(f, slot);
  if (f->nstale == SIM_FTL_STALE_LOG) stale_flush(f);
  f->stale[f->nstale++] = slot;
  int full = !is_open(f, b);
  if (full) bucket_unlink(f, b);
  f->valid[b]--;
  if (full) bucket_link(f, b);
}

static void free_push(struct sim_ftl *f, uint32_t b) {
  f->wp[b] = 0;
  f->valid[b] = 0;
  f->next[b] = f->free_head;
  f->prev[b] = SIM_FTL_NONE;
  f->free_head = b;
  f->nfree++;
}

static uint32_t free_pop(struct sim_ftl *f) {
  uint32_t b = f->free_head;
  f->free_head = f->next[b];
  f->nfree--;
  return b;
}

/* Every block erased and in the free list, the lowest first (so a fresh
 * drive fills them in order); the maps are zeroed by the caller. */
static void blocks_reset(struct sim_ftl *f) {
  for (uint32_t v = 0; v <= f->g.upb; v++) f->bucket[v] = SIM_FTL_NONE;
  f->min_bucket = f->g.upb + 1;
  f->free_head = SIM_FTL_NONE;
  f->nfree = 0;
  for (uint32_t b = f->g.nblocks; b-- > 0;) free_push(f, b);
  f->open[0] = f->open[1] = SIM_FTL_NONE;
}

void sim_ftl_reset(struct sim_ftl *f) {
  map_zero(f->l2p, (uint64_t)f->g.lunits * sizeof *f->l2p);
  map_zero(f->p2l, (uint64_t)f->g.punits * sizeof *f->p2l);
  map_zero(f->vbits, vbits_bytes(f));
  f->nstale = 0;
  f->nhlog = 0;
  blocks_reset(f);
}

int sim_ftl_new(struct sim *s) {
  struct sim_ftl *f = calloc(1, sizeof *f);
  if (!f) return -ENOMEM;
  s->ftl = f;
  if (sim_ftl_geometry(&s->m, &f->g)) return -EINVAL;
  f->unit_shift = (unsigned)__builtin_ctzll(f->g.unit_bytes);
  f->upb_magic = UINT64_MAX / f->g.upb + 1;
  f->l2p = map_alloc((uint64_t)f->g.lunits * sizeof *f->l2p);
  f->p2l = map_alloc((uint64_t)f->g.punits * sizeof *f->p2l);
  f->vbits = map_alloc(vbits_bytes(f));
  f->valid = calloc(f->g.nblocks, sizeof *f->valid);
  f->wp = calloc(f->g.nblocks, sizeof *f->wp);
  f->prev = calloc(f->g.nblocks, sizeof *f->prev);
  f->next = calloc(f->g.nblocks, sizeof *f->next);
  f->bucket = calloc((size_t)f->g.upb + 1, sizeof *f->bucket);
  f->gc_lu = calloc(f->g.upb, sizeof *f->gc_lu);
  f->hlog = calloc(f->g.upb, sizeof *f->hlog);
  if (!f->l2p || !f->p2l || !f->vbits || !f->valid || !f->wp || !f->prev || !f->next || !f->bucket || !f->gc_lu ||
      !f->hlog)
    return -ENOMEM;
  f->first_victim = SIM_FTL_NONE;
  /* the high watermark: a block per die above the low one, at most a
   * quarter of the spare (the erased blocks hold no data, so they are not
   * spare for the greedy victims: kept few, the WA barely moves) */
  uint32_t spare = f->g.nblocks - (f->g.lunits + f->g.upb - 1) / f->g.upb, extra = s->ndies;
  if (extra > spare / 4) extra = spare / 4;
  f->bg_free = FTL_GC_RESERVE + 1 + extra;
  blocks_reset(f); /* the fresh (lazy, zeroed) maps stay untouched */
  return 0;
}

void sim_ftl_free(struct sim *s) {
  struct sim_ftl *f = s->ftl;
  if (!f) return;
  map_free(f->l2p, (uint64_t)f->g.lunits * sizeof *f->l2p);
  map_free(f->p2l, (uint64_t)f->g.punits * sizeof *f->p2l);
  map_free(f->vbits, vbits_bytes(f));
  free(f->valid);
  free(f->wp);
  free(f->prev);
  free(f->next);
  free(f->bucket);
  free(f->gc_lu);
  free(f->hlog);
  free(f);
  s->ftl = NULL;
}

uint64_t sim_ftl_mapped(struct sim_ftl *f) {
  sim_ftl_flush(f);
  uint64_t n = 0;
  for (uint32_t b = 0; b < f->g.nblocks; b++) n += f->valid[b];
  return n;
}

static void collect(struct sim *s);

/* Appends the n units lu[0..n) (a victim's valid units) to the GC stream,
 * a run at a time: as many as its open block takes (opening one first),
 * whose slots follow each other, so only the random l2p store is per unit
 * (prefetched FTL_GC_AHEAD units ahead); the valid bits, counts and write
 * point move per run. A block that fills goes into the list of its valid
 * count, once. */
#define FTL_GC_AHEAD 48u /* 16 (about 0.2 us of moves) measured ~10% slower under load */

static void gc_append(struct sim_ftl *f, const uint32_t *lu, uint32_t n) {
  uint32_t *restrict l2p = f->l2p, *restrict p2l = f->p2l;
  for (uint32_t i = 0; i < n;) {
    if (f->open[1] == SIM_FTL_NONE) f->open[1] = free_pop(f);
    uint32_t b = f->open[1], slot = b * f->g.upb + f->wp[b], run = f->g.upb - f->wp[b];
    if (run > n - i) run = n - i;
    for (uint32_t j = i, end = i + run; j < end; j++, slot++) {
      if (j + FTL_GC_AHEAD < n) __builtin_prefetch(&l2p[lu[j + FTL_GC_AHEAD]], 1);
      l2p[lu[j]] = slot + 1;
      p2l[slot] = lu[j] + 1;
    }
    vbits_set_run(f, slot - run, run);
    i += run;
    f->valid[b] += run;
    if ((f->wp[b] += run) == f->g.upb) {
      f->open[1] = SIM_FTL_NONE;
      bucket_link(f, b);
    }
  }
}

/* The host writes' l2p updates, deferred: a host write appends its unit to
 * the open host block at once (p2l, valid bit, counts) and logs it; its old
 * copy goes stale and its l2p entry is set when the log is replayed, in
 * order, with each entry prefetched ahead. On a random write that entry is
 * a cache (and TLB) miss, and taken one command at a time the misses did
 * not overlap: ~40% of the time. Nothing reads the l2p entries or the
 * victims' counts before a replay: the log is replayed when the host block
 * fills (before it is listed), before any collection, trim, check, save or
 * restore. Within a log the open blocks do not change (a new host block
 * opens only after the old one filled, GC only after a replay), so each
 * stale slot meets the same open blocks and lists, in the same order, as
 * when it went stale at once: the results are bit-identical. */
#define FTL_HLOG_AHEAD 16u

void sim_ftl_flush(struct sim_ftl *f) {
  uint32_t n = f->nhlog, slot = f->hlog_slot0 + 1;
  for (uint32_t i = 0; i < n; i++) {
    /* two stages: the l2p entry, then (its line arrived) the old block's
     * count and list links, which on a large drive miss as well */
    if (i + 2 * FTL_HLOG_AHEAD < n) __builtin_prefetch(&f->l2p[f->hlog[i + 2 * FTL_HLOG_AHEAD]], 1);
    if (i + FTL_HLOG_AHEAD < n) {
      uint32_t o = f->l2p[f->hlog[i + FTL_HLOG_AHEAD]];
      if (o) {
        uint32_t b = block_of(f, o - 1);
        __builtin_prefetch(&f->valid[b], 1);
        __builtin_prefetch(&f->prev[b], 1);
        __builtin_prefetch(&f->next[b], 1);
      }
    }
    uint32_t lu = f->hlog[i], old = f->l2p[lu];
    if (old) slot_stale(f, old - 1);
    f->l2p[lu] = slot + i;
  }
  f->nhlog = 0;
}

/* A host write of logical unit lu. When it opens a block, its old copy goes
 * stale first (the GC that opening may run must not take it for a valid
 * one; the log is empty then: it was replayed when the last block filled). */
static inline void host_place(struct sim *s, uint32_t lu) {
  struct sim_ftl *f = s->ftl;
  if (f->open[0] == SIM_FTL_NONE) {
    sim_ftl_flush(f); /* empty here; kept so the order never depends on it */
    uint32_t old = f->l2p[lu];
    if (old) slot_stale(f, old - 1), f->l2p[lu] = 0;
    collect(s);
    f->open[0] = free_pop(f);
  }
  uint32_t b = f->open[0], slot = b * f->g.upb + f->wp[b]++;
  if (!f->nhlog) f->hlog_slot0 = slot;
  f->hlog[f->nhlog++] = lu;
  f->p2l[slot] = lu + 1;
  vbit_set(f, slot);
  f->valid[b]++;
  if (f->wp[b] == f->g.upb) {
    sim_ftl_flush(f); /* with the block still open, as its units went stale */
    f->open[0] = SIM_FTL_NONE;
    bucket_link(f, b);
  }
}

/* Greedy GC, one victim: the full block with the fewest valid units; its
 * valid units move, in slot order, to the GC stream and it is erased. The
 * moved bytes become relocation debt the dies pay in time (sim/drive.c);
 * the erase is timed as every block's (take_block_room). The valid slots
 * come from the block's bits of vbits (a word covers 64 slots; stale ones
 * are never read), their units into gc_lu first, so each unit's random l2p
 * entry is prefetched well before it is rewritten. A victim of more than
 * max_valid units is left alone (returns 0). */
static int collect_one(struct sim *s, uint32_t max_valid) {
  struct sim_ftl *f = s->ftl;
  const uint32_t upb = f->g.upb;
  while (f->min_bucket <= upb && f->bucket[f->min_bucket] == SIM_FTL_NONE) f->min_bucket++;
  if (f->min_bucket >= upb || f->min_bucket > max_valid) return 0;
  uint32_t v = f->bucket[f->min_bucket];
  bucket_unlink(f, v);
  if (!f->victims++) f->first_victim = v;
  uint32_t lo = v * upb, hi = lo + upb, moved = 0;
  for (uint32_t w = lo / 64; w * 64 < hi; w++) {
    uint64_t bits = f->vbits[w], mask = ~0ull;
    if (w * 64 < lo) mask &= ~0ull << (lo - w * 64);
    if (hi - w * 64 < 64) mask &= (1ull << (hi - w * 64)) - 1;
    bits &= mask;
    f->vbits[w] &= ~mask;
    for (; bits; bits &= bits - 1) f->gc_lu[moved++] = f->p2l[w * 64 + (uint32_t)__builtin_ctzll(bits)] - 1;
  }
  f->valid[v] = 0; /* every valid unit is about to move */
  gc_append(f, f->gc_lu, moved);
  free_push(f, v);
  s->st.gc_debt_bytes += (uint64_t)moved * f->g.unit_bytes;
  return 1;
}

/* Foreground GC: the host stream needs a block and erased blocks are below
 * the low watermark (the reserve and one to collect into): victims are
 * collected until they are not. */
static void collect(struct sim *s) {
  struct sim_ftl *f = s->ftl;
  sim_ftl_flush(f);
  stale_flush(f); /* the victims' valid bits are read below */
  for (uint32_t guard = 0; f->nfree < FTL_GC_RESERVE + 1 && guard < f->g.nblocks; guard++)
    if (!collect_one(s, f->g.upb)) return; /* nothing to gain (cannot happen with the spare the geometry asks) */
}

int sim_ftl_collect_bg(struct sim *s) {
  struct sim_ftl *f = s->ftl;
  if (f->nfree >= f->bg_free) return 0;
  sim_ftl_flush(f);
  stale_flush(f);
  /* a victim of nearly all valid units frees little for its copies: a
   * freshly filled drive is not rewritten in the background */
  return collect_one(s, f->g.upb - f->g.upb / 32);
}

void sim_ftl_write(struct sim *s, uint64_t off, uint64_t len) {
  struct sim_ftl *f = s->ftl;
  if (!len) return;
  uint64_t a = off >> f->unit_shift, b = (off + len + f->g.unit_bytes - 1) >> f->unit_shift;
  if (b > f->g.lunits) b = f->g.lunits;
  for (uint64_t u = a; u < b; u++) host_place(s, (uint32_t)u);
  /* a partial unit is read, merged and programmed whole */
  uint64_t whole = (b - a) << f->unit_shift;
  if (whole > len) s->st.gc_debt_bytes += whole - len;
}

uint64_t sim_ftl_host_room(const struct sim_ftl *f) {
  uint64_t room = f->open[0] != SIM_FTL_NONE ? f->g.upb - f->wp[f->open[0]] : 0;
  /* a new host block is taken without collecting while more than the reserve is erased */
  if (f->nfree > FTL_GC_RESERVE + 1) room += (uint64_t)(f->nfree - FTL_GC_RESERVE - 1) * f->g.upb;
  return room;
}

/* Unmaps logical unit u (mapped or not). */
static inline void unit_trim(struct sim_ftl *f, uint64_t u) {
  uint32_t old = f->l2p[u];
  if (old) slot_stale(f, old - 1), f->l2p[u] = 0;
}

void sim_ftl_trim(struct sim *s, uint64_t off, uint64_t len) {
  struct sim_ftl *f = s->ftl;
  if (!len) return;
  uint64_t ub = f->g.unit_bytes, a = off >> f->unit_shift, b = (off + len + ub - 1) >> f->unit_shift;
  if (b > f->g.lunits) b = f->g.lunits;
  if (a >= b) return;
  sim_ftl_flush(f);
  /* The bitmap has just dropped every 4 KiB part inside the range, so a unit
   * the range covers whole goes without asking it; a unit the range only
   * cuts (the first, the last) goes once none of its parts is mapped. */
  uint64_t whole_a = a, whole_b = b;
  if (off & (ub - 1)) {
    if (!sim_map_any(s, a << f->unit_shift, ub)) unit_trim(f, a);
    whole_a = a + 1;
  }
  if (((off + len) & (ub - 1)) && b - 1 >= whole_a) {
    if (!sim_map_any(s, (b - 1) << f->unit_shift, ub)) unit_trim(f, b - 1);
    whole_b = b - 1;
  }
  for (uint64_t u = whole_a; u < whole_b; u++) unit_trim(f, u);
}

const char *sim_ftl_check(struct sim_ftl *f) {
  sim_ftl_flush(f);
  uint64_t sum = 0, mapped = 0, nfree = 0, listed = 0, bits = 0;
  for (uint32_t b = 0; b < f->g.nblocks; b++) sum += f->valid[b];
  for (uint32_t u = 0; u < f->g.lunits; u++)
    if (f->l2p[u]) {
      uint32_t slot = f->l2p[u] - 1;
      if (slot >= f->g.punits || f->p2l[slot] != u + 1) return "l2p and p2l disagree";
      if (!(f->vbits[slot / 64] >> (slot % 64) & 1)) return "a mapped slot's valid bit is clear";
      mapped++;
    }
  for (uint64_t w = 0; w < vbits_bytes(f) / 8; w++) bits += (uint64_t)__builtin_popcountll(f->vbits[w]);
  /* a slot goes stale once before its block is erased: each logged slot
   * still has its bit */
  for (uint32_t i = 0; i < f->nstale; i++)
    if (!(f->vbits[f->stale[i] / 64] >> (f->stale[i] % 64) & 1)) return "a logged stale slot's bit is clear";
  if (bits - f->nstale != mapped) return "valid bits set on stale slots";
  if (sum != mapped) return "sum of valid counts differs from the mapped units";
  for (uint32_t b = f->free_head; b != SIM_FTL_NONE && nfree <= f->g.nblocks; b = f->next[b]) {
    if (f->wp[b] || f->valid[b]) return "a free block holds data";
    nfree++;
  }
  if (nfree != f->nfree) return "free list length differs from nfree";
  for (uint32_t v = 0; v <= f->g.upb; v++)
    for (uint32_t b = f->bucket[v]; b != SIM_FTL_NONE && listed <= f->g.nblocks; b = f->next[b]) {
      if (f->valid[b] != v || f->wp[b] != f->g.upb || is_open(f, b)) return "a block in the wrong list";
      if (v < f->min_bucket) return "min_bucket above a listed block";
      listed++;
    }
  uint64_t open = (f->open[0] != SIM_FTL_NONE) + (f->open[1] != SIM_FTL_NONE);
  if (listed + nfree + open != f->g.nblocks) return "a block is neither free, open nor listed";
  return NULL;
}

uint64_t sim_ftl_saved_bytes(const struct sim_ftl *f) {
  return ((uint64_t)f->g.lunits + f->g.nblocks + 2) * sizeof(uint32_t);
}

void sim_ftl_save(struct sim_ftl *f, FILE *out) {
  sim_ftl_flush(f);
  sim_write_sparse(f->l2p, (uint64_t)f->g.lunits * sizeof *f->l2p, out); /* wp follows: the full length */
  fwrite(f->wp, sizeof *f->wp, f->g.nblocks, out);
  fwrite(f->open, sizeof *f->open, 2, out);
}

/* Rebuilds p2l, valid counts, lists and the free list from l2p, wp and the
 * open blocks, after checking them (read unaligned from the file buffer):
 * every slot a unit maps to lies below its block's write point and belongs
 * to one unit only; a block not open is erased (wp 0) or full. */
const char *sim_ftl_restore(struct sim_ftl *f, const char *p) {
  const struct sim_ftl_geom *g = &f->g;
  sim_ftl_flush(f); /* a refused state leaves the drive's own, whole */
  const char *l2p = p, *wp = p + (size_t)g->lunits * 4, *open = wp + (size_t)g->nblocks * 4;
  uint32_t op[2];
  memcpy(op, open, sizeof op);
  for (int i = 0; i < 2; i++)
    if (op[i] != SIM_FTL_NONE && op[i] >= g->nblocks) return "an open FTL block outside the drive";
  if (op[0] != SIM_FTL_NONE && op[0] == op[1]) return "one FTL block open for two streams";
  uint32_t erased = 0;
  for (uint32_t b = 0; b < g->nblocks; b++) {
    uint32_t w;
    memcpy(&w, wp + (size_t)b * 4, 4);
    int o = b == op[0] || b == op[1];
    if (o ? w >= g->upb : (w && w != g->upb)) return "an FTL block's write point is out of range";
    erased += !o && !w;
  }
  /* at rest the host stream leaves GC its reserve: at least two erased */
  if (erased < FTL_GC_RESERVE) return "the FTL has too few erased blocks";
  memset(f->p2l, 0, (size_t)g->punits * sizeof *f->p2l);
  const char *why = NULL;
  for (uint32_t u = 0; u < g->lunits && !why; u++) {
    uint32_t e, w;
    memcpy(&e, l2p + (size_t)u * 4, 4);
    if (!e) continue;
    if (e > g->punits) why = "the FTL maps a unit past the NAND";
    else if (memcpy(&w, wp + (size_t)((e - 1) / g->upb) * 4, 4), (e - 1) % g->upb >= w)
      why = "the FTL maps a unit to a page not yet written";
    else if (f->p2l[e - 1]) why = "the FTL maps two units to one page";
    else f->p2l[e - 1] = u + 1;
  }
  if (why) { /* the drive keeps its state: p2l is rebuilt from its own l2p */
    memset(f->p2l, 0, (size_t)g->punits * sizeof *f->p2l);
    for (uint32_t u = 0; u < g->lunits; u++)
      if (f->l2p[u]) f->p2l[f->l2p[u] - 1] = u + 1;
    return why;
  }
  memcpy(f->l2p, l2p, (size_t)g->lunits * 4);
  memcpy(f->wp, wp, (size_t)g->nblocks * 4);
  f->open[0] = op[0], f->open[1] = op[1];
  memset(f->valid, 0, (size_t)g->nblocks * sizeof *f->valid);
  memset(f->vbits, 0, vbits_bytes(f));
  f->nstale = 0;
  for (uint32_t u = 0; u < g->lunits; u++)
    if (f->l2p[u]) f->valid[block_of(f, f->l2p[u] - 1)]++, vbit_set(f, f->l2p[u] - 1);
  for (uint32_t v = 0; v <= g->upb; v++) f->bucket[v] = SIM_FTL_NONE;
  f->min_bucket = g->upb + 1;
  f->free_head = SIM_FTL_NONE;
  f->nfree = 0;
  for (uint32_t b = g->nblocks; b-- > 0;) {
    if (is_open(f, b)) continue;
    if (f->wp[b]) bucket_link(f, b);
    else f->next[b] = f->free_head, f->prev[b] = SIM_FTL_NONE, f->free_head = b, f->nfree++;
  }
  return NULL;
}

/* Desnoyers (SYSTOR 2012), greedy GC, uniform random writes, many units per
 * block: WA = a / (a + W0(-a e^-a)), W0 Lambert's W (principal branch, by
 * Newton from -0.5: the root lies in (-1, 0) for a > 1). */
static double greedy_wa(double a) {
  double x = -a * exp(-a), w = -0.5;
  for (int i = 0; i < 100; i++) {
    double d = (w * exp(w) - x) / (exp(w) * (w + 1));
    w -= d;
    if (w <= -1) w = -1 + 1e-12;
    if (fabs(d) < 1e-15) break;
  }
  return a / (a + w);
}

int sim_model_ftl_facts(const struct sim_model *m, struct sim_ftl_facts *out) {
  memset(out, 0, sizeof *out);
  struct sim_ftl_geom g;
  if (!(m->op_pct > 0) || sim_ftl_geometry(m, &g)) return -EINVAL;
  out->blocks = g.nblocks;
  out->units_per_block = g.upb;
  out->spare_blocks = g.nblocks - (g.lunits + g.upb - 1) / g.upb;
  out->map_unit_bytes = g.unit_bytes;
  out->map_bytes = ((uint64_t)g.lunits + g.punits) * sizeof(uint32_t);
  /* the blocks the FTL keeps erased or open are not spare for GC */
  out->alpha = (double)(g.nblocks - (FTL_GC_RESERVE + 1)) * g.upb / g.lunits;
  out->wa_random = out->alpha > 1 ? greedy_wa(out->alpha) : INFINITY;
  double tlc = (double)m->page_bytes * m->planes * m->bits_per_cell, xfer = tlc / m->channel_mt_s;
  double t_h = xfer + m->t_prog_tlc_us, t_m = m->bits_per_cell * m->t_read_us + 2 * xfer + m->t_prog_tlc_us;
  double t_e = m->t_erase_us * (tlc / m->bits_per_cell) / (double)m->block_bytes;
  double unit = g.unit_bytes > 4096 ? (double)g.unit_bytes : 4096.0; /* a 4 KiB write programs a whole unit */
  double us = 4096 * (t_h + t_e) + (unit * out->wa_random - 4096) * (t_m + t_e); /* die-us x bytes per unit */
  out->steady_4k_iops = isfinite(us) && us > 0 ? m->channels * m->dies_per_channel * tlc / us * 1e6 : 0;
  return 0;
}
