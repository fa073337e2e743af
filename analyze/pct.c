/* pct.c — exact percentiles with bounded memory.
 *
 * Values below 2^24 (16.7 ms as ns) are counted exactly, one counter per
 * value, in blocks of 4096 counters allocated when first touched: realistic
 * latencies crowd into a few thousand distinct nanosecond values, so the
 * touched blocks stay in L2 and one pass suffices. Larger values go to a
 * log-linear grid (4096 sub-buckets per power of two). When a requested rank
 * falls in a grid bucket wider than 1, a refinement pass over the same values
 * counts that bucket's range with up to 2^16 sub-buckets, repeating until the
 * width is 1. Memory is bounded by the grids, whatever the value count. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze.h"

#define DENSE_BITS 24
#define DENSE_MAX (UINT64_C(1) << DENSE_BITS)
#define BLK_BITS 12
#define BLK_N (1u << BLK_BITS)
#define NBLK (1u << (DENSE_BITS - BLK_BITS))
#define SUB_BITS 12 /* grid sub-buckets per octave above the dense range */
#define SUB_N (1u << SUB_BITS)
#define NOCT (64 - DENSE_BITS)
#define REFINE_BITS 16
#define REFINE_N (1u << REFINE_BITS)

struct refine {
  uint64_t lo, width;  /* range [lo, lo + width * REFINE_N) */
  uint64_t below;      /* values < lo */
  uint64_t *cnt;       /* REFINE_N counters (NULL when unused) */
};

struct analyze_pct {
  /* dense counters, lazily allocated: 32-bit to halve the cache footprint of
   * the hot loop, spilled into the 64-bit blk[] before any could overflow */
  uint32_t *b32[NBLK];
  uint64_t n32;         /* values added to b32 since the last spill */
  uint64_t *blk[NBLK];  /* dense counters (64-bit totals), after a spill */
  uint64_t *oct[NOCT];  /* grid counters per octave, lazily allocated */
  uint64_t n;
  int enomem;
  /* the current plan */
  unsigned npcts;
  double pcts[ANALYZE_MAX_PCTS];
  struct analyze_pct_result res[ANALYZE_MAX_PCTS];
  int pending[ANALYZE_MAX_PCTS];       /* index into ref[] or -1 when answered */
  struct refine ref[ANALYZE_MAX_PCTS]; /* one per pending rank (deduplicated) */
  unsigned nref;
  uint64_t ref_min, ref_max;           /* union of the refinement ranges */
};

uint64_t analyze_pct_rank(double p, uint64_t n) {
  if (n == 0) return 0;
  /* numpy's inverted_cdf, step by step in IEEE double so that the result is
   * bit-identical: q = p/100; index = n*q - 1; take floor(index) when the
   * fraction is exactly 0, else the next one; clip to [0, n-1]. */
  double q = p / 100.0;
  double idx = (double)n * q;
  idx = idx - 1.0;
  double prev = floor(idx);
  double gamma = idx - prev;
  double r0 = gamma == 0.0 ? prev : prev + 1.0;
  if (r0 < 0) r0 = 0;
  if (r0 > (double)(n - 1)) r0 = (double)(n - 1);
  return (uint64_t)r0 + 1;
}

int analyze_pct_new(struct analyze_pct **p) {
  *p = calloc(1, sizeof **p);
  return *p ? 0 : -ENOMEM;
}

static void refine_clear(struct analyze_pct *p) {
  for (unsigned i = 0; i < p->nref; i++) free(p->ref[i].cnt);
  p->nref = 0;
}

void analyze_pct_free(struct analyze_pct *p) {
  if (!p) return;
  for (unsigned i = 0; i < NBLK; i++) free(p->blk[i]), free(p->b32[i]);
  for (unsigned i = 0; i < NOCT; i++) free(p->oct[i]);
  refine_clear(p);
  free(p);
}

/* Grid position of a value >= DENSE_MAX: octave and sub-bucket. */
static inline void grid_pos(uint64_t v, unsigned *o, unsigned *s) {
  unsigned e = 63u - (unsigned)__builtin_clzll(v);
  *o = e - DENSE_BITS;
  *s = (unsigned)(v >> (e - SUB_BITS)) & (SUB_N - 1);
}
static inline uint64_t grid_lo(unsigned o, unsigned s) {
  unsigned e = o + DENSE_BITS;
  return (UINT64_C(1) << e) + ((uint64_t)s << (e - SUB_BITS));
}
static inline uint64_t grid_width(unsigned o) { return UINT64_C(1) << (o + DENSE_BITS - SUB_BITS); }

/* Moves the 32-bit counts into the 64-bit blocks. */
static int spill(struct analyze_pct *p) {
  for (unsigned b = 0; b < NBLK; b++) {
    uint32_t *c = p->b32[b];
    if (!c) continue;
    if (!p->blk[b] && !(p->blk[b] = calloc(BLK_N, sizeof *p->blk[b]))) return -ENOMEM;
    for (unsigned i = 0; i < BLK_N; i++) p->blk[b][i] += c[i];
    memset(c, 0, BLK_N * sizeof *c);
  }
  p->n32 = 0;
  return 0;
}

static void add_slow(struct analyze_pct *p, uint64_t v) {
  if (v < DENSE_MAX) {
    uint32_t **b = &p->b32[v >> BLK_BITS];
    if (!*b && !(*b = calloc(BLK_N, sizeof **b))) {
      p->enomem = 1;
      return;
    }
    (*b)[v & (BLK_N - 1)]++;
    p->n32++;
  } else {
    unsigned o, s;
    grid_pos(v, &o, &s);
    if (!p->oct[o] && !(p->oct[o] = calloc(SUB_N, sizeof *p->oct[o]))) {
      p->enomem = 1;
      return;
    }
    p->oct[o][s]++;
  }
  p->n++;
}

/* Adds up to 2^31 values between spills, so no 32-bit counter wraps. */
static void add_some(struct analyze_pct *p, const uint64_t *v, size_t n) {
  if (p->n32 + n >= UINT32_MAX && spill(p)) {
    p->enomem = 1;
    return;
  }
  uint64_t added = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t x = v[i];
    uint32_t *b;
    if (x < DENSE_MAX && (b = p->b32[x >> BLK_BITS]) != NULL) {
      b[x & (BLK_N - 1)]++;
      added++;
    } else {
      add_slow(p, x);
    }
  }
  p->n += added;
  p->n32 += added;
}

void analyze_pct_add1(struct analyze_pct *p, uint64_t v) { add_some(p, &v, 1); }

void analyze_pct_add(struct analyze_pct *p, const uint64_t *v, size_t n) {
  const size_t step = (size_t)1 << 31;
  for (size_t i = 0; i < n; i += step) add_some(p, v + i, n - i < step ? n - i : step);
}

uint64_t analyze_pct_count(const struct analyze_pct *p) { return p->n; }

static int merge_arr(uint64_t **dst, const uint64_t *src, unsigned len) {
  if (!src) return 0;
  if (!*dst && !(*dst = calloc(len, sizeof **dst))) return -ENOMEM;
  for (unsigned i = 0; i < len; i++) (*dst)[i] += src[i];
  return 0;
}

int analyze_pct_merge(struct analyze_pct *dst, struct analyze_pct *src) {
  /* 32-bit counts add up in place unless the sum could wrap */
  if (dst->n32 + src->n32 >= UINT32_MAX && (spill(dst) || spill(src))) return -ENOMEM;
  for (unsigned i = 0; i < NBLK; i++) {
    const uint32_t *c = src->b32[i];
    if (c) {
      if (!dst->b32[i] && !(dst->b32[i] = calloc(BLK_N, sizeof *dst->b32[i]))) return -ENOMEM;
      for (unsigned k = 0; k < BLK_N; k++) dst->b32[i][k] += c[k];
    }
    if (merge_arr(&dst->blk[i], src->blk[i], BLK_N)) return -ENOMEM;
  }
  dst->n32 += src->n32;
  for (unsigned i = 0; i < NOCT; i++)
    if (merge_arr(&dst->oct[i], src->oct[i], SUB_N)) return -ENOMEM;
  dst->n += src->n;
  dst->enomem |= src->enomem;
  return 0;
}

/* A sorted walk over the pass-1 counts: finds, for a rank, either the exact
 * value (dense range) or the grid bucket holding it, with the count below. */
struct locate {
  int exact;
  uint64_t value;       /* exact value, or the bucket's low end */
  uint64_t width;       /* bucket width (1 when exact) */
  uint64_t below;       /* values < value (exact) or < bucket low end */
  uint64_t at_or_beyond;/* values >= value (exact only) */
};

static void locate_rank(const struct analyze_pct *p, const uint64_t *bsum, uint64_t rank, struct locate *L) {
  uint64_t cum = 0;
  memset(L, 0, sizeof *L);
  for (unsigned b = 0; b < NBLK; b++) {
    const uint64_t *c = p->blk[b];
    const uint32_t *c32 = p->b32[b];
    if (!bsum[b]) continue;
    if (cum + bsum[b] < rank) { /* the rank is past this whole block */
      cum += bsum[b];
      continue;
    }
    for (unsigned i = 0; i < BLK_N; i++) {
      /* a count is its 32-bit part plus what earlier spills moved out */
      uint64_t ci = (c ? c[i] : 0) + (c32 ? c32[i] : 0);
      if (!ci) continue;
      if (cum + ci >= rank) {
        L->exact = 1;
        L->value = ((uint64_t)b << BLK_BITS) | i;
        L->width = 1;
        L->below = cum;
        L->at_or_beyond = p->n - cum;
        return;
      }
      cum += ci;
    }
  }
  for (unsigned o = 0; o < NOCT; o++) {
    const uint64_t *c = p->oct[o];
    if (!c) continue;
    for (unsigned s = 0; s < SUB_N; s++) {
      if (!c[s]) continue;
      if (cum + c[s] >= rank) {
        L->value = grid_lo(o, s);
        L->width = grid_width(o);
        L->below = cum;
        return;
      }
      cum += c[s];
    }
  }
}

/* Sets up (or reuses) a refinement of [lo, lo + width) with `below` values
 * under lo; returns its index or -1 on allocation failure. */
static int refine_get(struct analyze_pct *p, uint64_t lo, uint64_t width, uint64_t below) {
  for (unsigned i = 0; i < p->nref; i++)
    if (p->ref[i].lo == lo) return (int)i;
  struct refine *r = &p->ref[p->nref];
  r->lo = lo;
  r->below = below;
  /* sub-bucket width so that REFINE_N of them cover the range */
  r->width = width <= REFINE_N ? 1 : width / REFINE_N;
  r->cnt = calloc(REFINE_N, sizeof *r->cnt);
  if (!r->cnt) return -1;
  if (p->nref == 0 || lo < p->ref_min) p->ref_min = lo;
  uint64_t hi = lo + width - 1;
  if (p->nref == 0 || hi > p->ref_max) p->ref_max = hi;
  return (int)p->nref++;
}

int analyze_pct_plan(struct analyze_pct *p, const double *pcts, unsigned npcts,
                     struct ssdrev_err *err) {
  if (npcts > ANALYZE_MAX_PCTS) return ssdrev_fail(err, -EINVAL, "too many percentiles (%u > %d)", npcts, ANALYZE_MAX_PCTS);
  if (p->enomem) return ssdrev_fail(err, -ENOMEM, "out of memory counting percentiles");
  refine_clear(p);
  p->npcts = npcts;
  int need = 0;
  uint64_t *bsum = calloc(NBLK, sizeof *bsum);
  if (!bsum) return ssdrev_fail(err, -ENOMEM, "out of memory counting percentiles");
  for (unsigned b = 0; b < NBLK; b++) {
    const uint64_t *c = p->blk[b];
    const uint32_t *c32 = p->b32[b];
    for (unsigned i = 0; c32 && i < BLK_N; i++) bsum[b] += c32[i];
    for (unsigned i = 0; c && i < BLK_N; i++) bsum[b] += c[i];
  }
  for (unsigned i = 0; i < npcts; i++) {
    if (!(pcts[i] > 0 && pcts[i] <= 100)) {
      free(bsum);
      return ssdrev_fail(err, -EINVAL, "percentile %g is outside (0, 100]", pcts[i]);
    }
    p->pcts[i] = pcts[i];
    struct analyze_pct_result *r = &p->res[i];
    memset(r, 0, sizeof *r);
    r->p = pcts[i];
    p->pending[i] = -1;
    if (p->n == 0) continue;
    r->rank = analyze_pct_rank(pcts[i], p->n);
    struct locate L;
    locate_rank(p, bsum, r->rank, &L);
    if (L.exact) {
      r->value = L.value;
      r->at_or_beyond = L.at_or_beyond;
    } else {
      int k = refine_get(p, L.value, L.width, L.below);
      if (k < 0) {
        free(bsum);
        return ssdrev_fail(err, -ENOMEM, "out of memory refining percentiles");
      }
      p->pending[i] = k;
      need = 1;
    }
    r->warn = r->at_or_beyond < ANALYZE_PCT_MIN_SAMPLES;
  }
  free(bsum);
  return need;
}

static inline void refine_one(struct analyze_pct *p, uint64_t x) {
  for (unsigned k = 0; k < p->nref; k++) {
    struct refine *r = &p->ref[k];
    if (x >= r->lo) {
      uint64_t j = (x - r->lo) / r->width;
      if (j < REFINE_N) r->cnt[j]++;
    }
  }
}

void analyze_pct_refine_add(struct analyze_pct *p, const uint64_t *v, size_t n) {
  uint64_t lo = p->ref_min, hi = p->ref_max;
  if (!p->nref) return;
  for (size_t i = 0; i < n; i++)
    if (v[i] >= lo && v[i] <= hi) refine_one(p, v[i]);
}

/* Narrows each pending answer: when the sub-bucket holding the rank has
 * width 1 the answer is exact; otherwise that sub-bucket becomes the range
 * of the next pass. */
int analyze_pct_refine_end(struct analyze_pct *p, struct ssdrev_err *err) {
  struct { uint64_t lo, width, below; } next[ANALYZE_MAX_PCTS];
  int again[ANALYZE_MAX_PCTS] = {0};
  for (unsigned i = 0; i < p->npcts; i++) {
    int k = p->pending[i];
    if (k < 0) continue;
    const struct refine *r = &p->ref[k];
    struct analyze_pct_result *res = &p->res[i];
    uint64_t cum = r->below;
    for (unsigned j = 0; j < REFINE_N; j++) {
      if (cum + r->cnt[j] >= res->rank) {
        uint64_t lo = r->lo + (uint64_t)j * r->width;
        if (r->width == 1) {
          res->value = lo;
          res->at_or_beyond = p->n - cum;
          res->warn = res->at_or_beyond < ANALYZE_PCT_MIN_SAMPLES;
        } else {
          again[i] = 1;
          next[i].lo = lo;
          next[i].width = r->width;
          next[i].below = cum;
        }
        break;
      }
      cum += r->cnt[j];
    }
    p->pending[i] = -1;
  }
  refine_clear(p);
  int need = 0;
  for (unsigned i = 0; i < p->npcts; i++) {
    if (!again[i]) continue;
    int k = refine_get(p, next[i].lo, next[i].width, next[i].below);
    if (k < 0) return ssdrev_fail(err, -ENOMEM, "out of memory refining percentiles");
    p->pending[i] = k;
    need = 1;
  }
  return need;
}

void analyze_pct_results(const struct analyze_pct *p, struct analyze_pct_result *out) {
  memcpy(out, p->res, p->npcts * sizeof *out);
}

int analyze_percentiles(const uint64_t *v, size_t n, const double *pcts, unsigned npcts,
                        struct analyze_pct_result *out, struct ssdrev_err *err) {
  struct analyze_pct *p;
  int rc = analyze_pct_new(&p);
  if (rc) return ssdrev_fail(err, rc, "out of memory");
  analyze_pct_add(p, v, n);
  rc = analyze_pct_plan(p, pcts, npcts, err);
  while (rc > 0) {
    analyze_pct_refine_add(p, v, n);
    rc = analyze_pct_refine_end(p, err);
  }
  if (rc == 0) analyze_pct_results(p, out);
  analyze_pct_free(p);
  return rc;
}
