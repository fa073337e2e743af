/* slc.c — the SLC cache rule, shared by the analysis (analyze/slc.c) and the
 * method's write-until-the-cliff (bench/method/cliff.c): the estimate: change points in a fill trace (speed per
 * equal step of bytes written) by binary segmentation on the mean, then
 * levels: a change point is a cliff only when the evidence says so
 * (docs/flags.md, "SLC estimate"). No fixed speed ratio: every threshold is
 * in units of the trace's own noise. Speeds of a phase are its bytes over
 * its time, never a mean of per-step MB/s. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/ssdrev.h"

#define MAX_CP 64
/* The segmentation runs on at most this many points: finer traces are
 * merged (bytes and times add), and each cliff is then placed on the fine
 * trace, so the resolution is the fine step however long the fill. */
#define COARSE_MAX 2048
#define MIN_SEG_POINTS 3 /* a segment spans at least this many (coarse) points */
/* Evidence for a cliff (docs/flags.md): the drop between the phase before
 * and everything after, over its standard error, at least SSDREV_SLC_Z_MIN; the
 * step at the boundary at least SLC_SHARP of the way from the level down
 * to the segment after it (the level holds up to the cliff: not a slow
 * decline); no later segment back above before - SLC_SUSTAIN x drop and
 * the level after below every segment of the level before (a sustained,
 * new lower level). */
#define SLC_SHARP 0.5
#define SLC_SUSTAIN 0.25
#define SLC_FLAT 0.25 /* a segment at a cliff declines (first half to second) by at most this x the step */
/* A cliff is a step, not a stretch of a decline that goes on
 * (decline_goes_on: a GC-bound post-cache phase slowing as the drive fills,
 * 1031 -> 857 -> 691 -> 583 MB/s in steps of the segmentation, is one
 * level). A cliff is a step a reviewer would call one: at the boundary the speed
 * falls by at least this share of the level before, and so does the level
 * after (everything past the boundary) against the level before. Smaller steps, however
 * clear against a smooth trace's noise, are GC pressure creeping up as the
 * drive fills (566 -> 554 -> 548 MB/s on the simulated PM981a past 200 GiB)
 * or erase-block alignment (693 -> 684 MB/s), not a new level. */
#define SLC_MIN_STEP 0.05
/* The head of a fill, its first 1/16 GiB, is the DRAM write buffer filling
 * at link speed (16 MiB on a cacheless drive), not an SLC cache: the points
 * written within it are cut off the trace before any segment is judged. A
 * rule that only skipped segments ending within the head left a 0.18 GiB
 * segment holding the buffer's 16 MiB and the TLC speed after it, which
 * placed a 0.07 GiB "cache" on a drive without one. */
#define SLC_MIN_CACHE_GIB (1.0 / 16)
#define BLOCK 8 /* steps per block of the block noise (zsig) */
#define NOISE_FLOOR 0.005 /* sigma >= 0.5% of the median: a smooth simulated trace must not split on rounding */

struct seg_ctx {
  const double *x;
  const double *s1, *s2; /* prefix sums of x and x^2 (n + 1) */
  size_t n, m;           /* points, minimum segment in points */
  double beta;           /* penalty per change point */
  size_t cp[MAX_CP];
  size_t ncp;
};

static double sse(const struct seg_ctx *c, size_t a, size_t b) {
  double n = (double)(b - a), s = c->s1[b] - c->s1[a], q = c->s2[b] - c->s2[a];
  double v = q - s * s / n;
  return v > 0 ? v : 0;
}

/* Splits [a, b) at its best point if that pays for the penalty. */
static void binseg(struct seg_ctx *c, size_t a, size_t b, int depth) {
  if (b - a < 2 * c->m || c->ncp >= MAX_CP || depth > 12) return;
  double whole = sse(c, a, b), best = whole;
  size_t bk = 0;
  for (size_t k = a + c->m; k + c->m <= b; k++) {
    double v = sse(c, a, k) + sse(c, k, b);
    if (v < best) {
      best = v;
      bk = k;
    }
  }
  if (!bk || whole - best <= c->beta) return;
  c->cp[c->ncp++] = bk;
  binseg(c, a, bk, depth + 1);
  binseg(c, bk, b, depth + 1);
}

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}
static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, size_t n) {
  qsort(v, n, sizeof *v, cmp_dbl);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A trace as prefix sums of GiB and of time (GiB per MB/s, a unit that
 * cancels in every speed), so any range's speed is bytes over time. */
struct trace {
  size_t n;
  double g0;        /* GiB at the start of point 0 */
  const double *g;  /* GiB at the end of each point */
  double *t;        /* prefix time, n + 1 */
};
static double tr_start(const struct trace *t, size_t i) { return i ? t->g[i - 1] : t->g0; }
static double tr_speed(const struct trace *t, size_t a, size_t b) {
  double dt = t->t[b] - t->t[a], dg = tr_start(t, b) - tr_start(t, a);
  return dt > 0 ? dg / dt : 0;
}

/* A segment [a, b) too short to be a level: under two minimum segments, or
 * under min_level_s seconds (GiB / (MB/s) = 1073.74 s). */
static int seg_short(const struct seg_ctx *c, const struct trace *t, size_t a, size_t b, double min_level_s) {
  return b - a < 2 * c->m || (t->t[b] - t->t[a]) * 1073.741824 < min_level_s;
}

/* How much a segment [a, b) slows down: its first half's speed minus its
 * second half's (0 when too short to tell). */
static double seg_decline(const struct trace *t, size_t a, size_t b) {
  if (b - a < 4) return 0;
  size_t mid = a + (b - a) / 2;
  return tr_speed(t, a, mid) - tr_speed(t, mid, b);
}

/* How much the points [a, b) fall along their least-squares line over
 * their length, in MB/s (0 under 8 points). */
static double trend_decline(const struct trace *t, const double *x, size_t a, size_t b) {
  if (b - a < 8) return 0;
  double n = (double)(b - a), sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = a; i < b; i++) {
    double g = tr_start(t, i + 1);
    sx += g, sy += x[i], sxx += g * g, sxy += g * x[i];
  }
  double d = n * sxx - sx * sx;
  return d > 0 ? -(n * sxy - sx * sy) / d * (tr_start(t, b) - tr_start(t, a)) : 0;
}

/* The boundary before segment k is a stretch of a decline that goes on:
 * past it the speed falls further (segment k down to everything after, B)
 * than at the boundary, and never comes back up to segment k (a phase that
 * swings between two speeds does; a GC-bound phase slowing as the drive
 * fills does not). */
static int decline_goes_on(const double *mean, size_t k, size_t nb, double B, double step) {
  if (!(mean[k] - B > step)) return 0;
  for (size_t j = k + 1; j + 1 < nb; j++)
    if (mean[j] >= mean[k]) return 0;
  return 1;
}

/* The level after holds the drop: its first lasting segment (at least two
 * minimum segments long; shorter ones right after the boundary hold the
 * transition or a GC burst) is below the level before by the evidence too.
 * A short stretch that happened to run faster than the rest of the cache
 * (fewer GC bursts on a full drive: 1171 MB/s for 0.07 GiB, then 1039) is
 * no cliff, however far the trace falls after it. */
static int next_level_clear(const struct seg_ctx *c, const struct trace *t, const size_t *bnd, const double *mean,
                            size_t nb, size_t lstart, size_t k, double sigma) {
  size_t j = k;
  while (j + 2 < nb && bnd[j + 1] - bnd[j] < 2 * c->m) j++;
  double A = tr_speed(t, bnd[lstart], bnd[k]), na = (double)(bnd[k] - bnd[lstart]), nj = (double)(bnd[j + 1] - bnd[j]);
  return (A - mean[j]) / (sigma * sqrt(1 / na + 1 / nj)) >= SSDREV_SLC_Z_MIN;
}

/* The lower quartile of the speeds of blocks [b0, b1) of BLOCK coarse
 * points (tmp: scratch of b1 - b0). */
static double block_quartile(const struct trace *t, size_t b0, size_t b1, double *tmp) {
  size_t n = b1 - b0;
  for (size_t i = 0; i < n; i++) tmp[i] = tr_speed(t, (b0 + i) * BLOCK, (b0 + i + 1) * BLOCK);
  qsort(tmp, n, sizeof *tmp, cmp_dbl);
  return tmp[n / 4];
}

/* Places a cliff from level v1 to v2 inside fine points [a, b): the time
 * adds up, so the bytes x written at v1 satisfy T = x/v1 + (len - x)/v2. */
static double place_cliff(const struct trace *f, size_t a, size_t b, double v1, double v2) {
  double g0 = tr_start(f, a), len = tr_start(f, b) - g0, T = f->t[b] - f->t[a];
  if (!(v1 > v2) || !(v2 > 0)) return g0;
  double x = (T - len / v2) / (1 / v1 - 1 / v2);
  if (x < 0) x = 0;
  if (x > len) x = len;
  return g0 + x;
}

void ssdrev_slc_ws_free(struct ssdrev_slc_ws *ws) {
  free(ws->buf);
  ws->buf = NULL;
  ws->cap = 0;
}

int ssdrev_slc_estimate(const double *gib, const double *mb_s, size_t n, double min_seg_gib, double min_level_s,
                        struct ssdrev_slc *out, struct ssdrev_err *err) {
  struct ssdrev_slc_ws ws = {0};
  int rc = ssdrev_slc_estimate_ws(gib, mb_s, n, min_seg_gib, min_level_s, &ws, out, err);
  ssdrev_slc_ws_free(&ws);
  return rc;
}

static int estimate(const double *gib, const double *mb_s, size_t n, double min_seg_gib, double min_level_s,
                    struct ssdrev_slc_ws *ws, struct ssdrev_slc *out, struct ssdrev_err *err, size_t cut_f,
                    size_t cut_lead) {
  memset(out, 0, sizeof *out);
  if (n < 4) return ssdrev_fail(err, -EINVAL, "fill trace too short for an SLC estimate (%zu points)", n);
  double step = (gib[n - 1] - gib[0]) / (double)(n - 1);
  if (!(step > 0)) return ssdrev_fail(err, -EINVAL, "fill trace GiB values do not increase");
  /* cut the write buffer's head: the points ending within the first
   * SLC_MIN_CACHE_GIB of the trace (kept when too little would remain) */
  size_t h = 0;
  while (h < n && gib[h] - (gib[0] - step) <= SLC_MIN_CACHE_GIB + 1e-12) h++;
  size_t f = (n + COARSE_MAX - 1) / COARSE_MAX;
  if (!cut_f && h && n - h >= 4) {
    /* the rest keeps the whole trace's grid of coarse points (the first
     * one shortened by the cut), so a cliff falls on the same boundaries
     * as without the head */
    double from = gib[0] - step;
    int rc = estimate(gib + h, mb_s + h, n - h, min_seg_gib, min_level_s, ws, out, err, f, f - h % f);
    if (!rc && out->nlevels) out->levels[0].from_gib = from; /* the first level spans the head too */
    return rc;
  }
  /* coarse point j covers fine points [cs(j), cs(j + 1)): the first has
   * lead points, the others f */
  size_t lead = f;
  if (cut_f) f = cut_f, lead = cut_lead;
  size_t nc = lead >= n ? 1 : 1 + (n - lead + f - 1) / f;
#define CS(j) ((j) ? lead + ((j) - 1) * f : 0)
  /* the seven arrays in one piece of the workspace, zeroed as calloc did */
  size_t need = (n + 1) + 3 * nc + 3 * (nc + 1);
  if (ws->cap < need) {
    double *b = realloc(ws->buf, need * sizeof *b);
    if (!b) return ssdrev_fail(err, -ENOMEM, "out of memory");
    ws->buf = b, ws->cap = need;
  }
  memset(ws->buf, 0, need * sizeof *ws->buf);
  double *ft = ws->buf, *x = ft + n + 1, *cg = x + nc, *ct = cg + nc, *s1 = ct + nc + 1, *s2 = s1 + nc + 1,
         *tmp = s2 + nc + 1;
  struct trace fine = {.n = n, .g0 = gib[0] - step, .g = gib, .t = ft};
  for (size_t i = 0; i < n; i++) {
    double dg = gib[i] - tr_start(&fine, i);
    ft[i + 1] = ft[i] + (mb_s[i] > 0 && dg > 0 ? dg / mb_s[i] : 0); /* 0 MB/s: a step with no time of its own */
  }
  for (size_t j = 0; j < nc; j++) {
    size_t a = CS(j), b = CS(j + 1) < n ? CS(j + 1) : n;
    cg[j] = gib[b - 1];
    ct[j + 1] = ft[b];
    x[j] = tr_speed(&fine, a, b);
  }
  struct trace coarse = {.n = nc, .g0 = fine.g0, .g = cg, .t = ct};
  for (size_t i = 0; i < nc; i++) {
    s1[i + 1] = s1[i] + x[i];
    s2[i + 1] = s2[i] + x[i] * x[i];
  }
  /* noise: median absolute first difference / (0.6745 * sqrt 2), robust to
   * the steps themselves */
  double sigma = 0, level;
  for (size_t i = 0; i + 1 < nc; i++) tmp[i] = fabs(x[i + 1] - x[i]);
  if (nc > 1) sigma = median(tmp, nc - 1) / (0.6745 * sqrt(2.0));
  memcpy(tmp, x, nc * sizeof *tmp);
  level = median(tmp, nc);
  if (sigma < NOISE_FLOOR * level) sigma = NOISE_FLOOR * level;
  /* The standard error of a level's speed, for the z tests: GC bursts on a
   * full drive alternate a stalled step with a fast one that drains the
   * buffer (225, 1780, 133, 446 MB/s), so the noise of a mean over many
   * steps is far below sigma / sqrt(n): the same noise measured on means
   * of BLOCK steps, times sqrt(BLOCK), when that is smaller (on smooth
   * or drifting traces it is not, and sigma stays). */
  double zsig = sigma;
  size_t nbk = nc / BLOCK;
  if (nbk >= 8) {
    for (size_t i = 0; i < nbk; i++) tmp[i] = tr_speed(&coarse, i * BLOCK, (i + 1) * BLOCK);
    for (size_t i = 0; i + 1 < nbk; i++) tmp[i] = fabs(tmp[i + 1] - tmp[i]);
    double sb = median(tmp, nbk - 1) / (0.6745 * sqrt(2.0)) * sqrt((double)BLOCK);
    if (sb < zsig) zsig = sb;
    if (zsig < NOISE_FLOOR * level) zsig = NOISE_FLOOR * level;
  }
  struct seg_ctx c = {.x = x, .s1 = s1, .s2 = s2, .n = nc};
  double cstep = step * (double)f;
  c.m = min_seg_gib > 0 ? (size_t)llround(min_seg_gib / cstep) : 0;
  if (c.m < MIN_SEG_POINTS) c.m = MIN_SEG_POINTS;
  if (2 * c.m > nc) c.m = nc / 2 ? nc / 2 : 1;
  c.beta = 3.0 * sigma * sigma * log((double)nc);
  binseg(&c, 0, nc, 0);
  qsort(c.cp, c.ncp, sizeof c.cp[0], cmp_size);
  out->noise_mb_s = sigma;
  out->step_gib = step;
  out->seg_step_gib = cstep;

  size_t bnd[MAX_CP + 2], nb = 0;
  bnd[nb++] = 0;
  for (size_t i = 0; i < c.ncp; i++) bnd[nb++] = c.cp[i];
  bnd[nb++] = nc;
  out->nsegments = (unsigned)(nb - 1);
  double mean[MAX_CP + 1];
  for (size_t i = 0; i + 1 < nb; i++) mean[i] = tr_speed(&coarse, bnd[i], bnd[i + 1]);

  /* Levels, greedily from the start: boundary k ends the current level when
   * the evidence rules above hold for it. */
  size_t lstart = 0;             /* segment index where the current level starts */
  size_t lstart0 = lstart;
  size_t lvl_bnd[SSDREV_SLC_MAX_DROPS + 1], nl = 0; /* segment indexes starting each later level */
  double first_z = 0;
  for (size_t k = lstart + 1; k + 1 < nb && nl < SSDREV_SLC_MAX_DROPS; k++) {
    double A = tr_speed(&coarse, bnd[lstart], bnd[k]), B = tr_speed(&coarse, bnd[k], nc);
    double na = (double)(bnd[k] - bnd[lstart]), nbp = (double)(nc - bnd[k]);
    double drop = A - B;
    if (!(drop > 0)) continue;
    double z = drop / (zsig * sqrt(1 / na + 1 / nbp));
    /* sustained: no segment after comes back above before - SLC_SUSTAIN
     * x drop (not even a short one: the end of a cache alternating 3521
     * and 3116 MB/s in short segments is still the cache). A new low:
     * the level after is below the level before throughout (a GC phase
     * that swings between two speeds is one level): its lower quartile of
     * blocks of BLOCK steps above B when it has enough of them (a full
     * drive's GC bursts cut a 0.5 GiB cache at 434 MB/s into 20 segments of
     * single bursts and stalls, some as slow as the 296 after), else every
     * segment of it two minimum segments long or more. */
    int sustained = 1;
    for (size_t j = k; j + 1 < nb; j++)
      if (mean[j] > A - SLC_SUSTAIN * drop) sustained = 0;
    size_t kb0 = (bnd[lstart] + BLOCK - 1) / BLOCK, kb1 = bnd[k] / BLOCK;
    if (kb1 >= kb0 + 4) {
      if (!(block_quartile(&coarse, kb0, kb1, tmp) > B)) sustained = 0;
    } else {
      for (size_t j = lstart; j < k; j++)
        if (mean[j] <= B && bnd[j + 1] - bnd[j] >= 2 * c.m) sustained = 0;
    }
    /* a level lasts at least two minimum segments: a short segment right
     * after a cliff holds its transition, not a level */
    /* every level lasts two minimum segments, the cache two of the
     * default's at least (a first "level" of three points past the
     * buffer's head is one GC burst: 1866 MB/s for 12 MiB on a full drive
     * writing 473 after it; a longer minimum segment asked for, 0.125 GiB
     * for a 0.25 GiB cache, already keeps such bursts out) */
    if (bnd[k] - bnd[lstart] < (nl ? 2 * c.m : 2 * MIN_SEG_POINTS)) continue;
    /* a later level (past the first cliff) is a level only when the
     * levels either side hold their speeds over their whole length: GC
     * slowing the end of a fill as free space runs out (525 -> 394 -> 291
     * -> 209 MB/s in steps of the segmentation on a 4 GiB drive) declines
     * within them, along their least-squares line over their length, by
     * more than SLC_FLAT x the drop; a folding-bound level after direct
     * TLC does not */
    if (nl && (trend_decline(&coarse, x, bnd[lstart], bnd[k]) > SLC_FLAT * drop ||
               trend_decline(&coarse, x, bnd[k], nc) > SLC_FLAT * drop))
      continue;
    /* the level after lasts at least the write buffer's 1/16 GiB too: a
     * slower last few MiB of a fill (the drive's last blocks, 1053 -> 827
     * MB/s over its last 23 MiB on a cacheless drive) is no cliff */
    if (gib[n - 1] - tr_start(&coarse, bnd[k]) < SLC_MIN_CACHE_GIB) continue;
    /* a level shorter than the trace's clock (a bandwidth log's window) is
     * the window holding the cliff (GiB / (MB/s) = 1073.74 s) */
    if ((coarse.t[bnd[k]] - coarse.t[bnd[lstart]]) * 1073.741824 < min_level_s) continue;
    /* flat either side: the segments at the boundary are levels, not steps
     * of a staircase that approximates a slow decline (GC pressure growing
     * as the drive fills); a decline is one beyond what the noise gives the
     * difference of two half-segment means (its sigma: 2 sigma / sqrt(len)) */
    double step_d = mean[k - 1] - mean[k];
    double la = (double)(bnd[k] - bnd[k - 1]), lb = (double)(bnd[k + 1] - bnd[k]);
    if (seg_decline(&coarse, bnd[k - 1], bnd[k]) > SLC_FLAT * step_d + 2 * sigma / sqrt(la) ||
        seg_decline(&coarse, bnd[k], bnd[k + 1]) > SLC_FLAT * step_d + 2 * sigma / sqrt(lb))
      continue;
    if (z < SSDREV_SLC_Z_MIN || mean[k - 1] - mean[k] < SLC_SHARP * (A - mean[k]) || step_d < SLC_MIN_STEP * A || drop < SLC_MIN_STEP * A ||
        decline_goes_on(mean, k, nb, B, step_d) || !next_level_clear(&c, &coarse, bnd, mean, nb, lstart, k, zsig) ||
        !sustained)
      continue;
    if (!nl) first_z = z;
    lvl_bnd[nl++] = k;
    lstart = k;
  }
  /* levels and cliffs: each cliff placed on the fine trace within the two
   * coarse points either side of its boundary (inside its two segments) */
  size_t edges[SSDREV_SLC_MAX_DROPS + 2];
  edges[0] = lstart0;
  for (size_t i = 0; i < nl; i++) edges[i + 1] = lvl_bnd[i];
  edges[nl + 1] = nb - 1;
  double at[SSDREV_SLC_MAX_DROPS + 1] = {0};
  for (size_t i = 0; i < nl; i++) {
    size_t lo_seg = bnd[edges[i]], b = bnd[edges[i + 1]], hi_seg = bnd[edges[i + 2]];
    size_t wa = b >= lo_seg + 2 ? b - 2 : lo_seg, wb = b + 2 <= hi_seg ? b + 2 : hi_seg;
    /* the levels from the parts outside the window, when there are any */
    double v1 = wa > lo_seg ? tr_speed(&coarse, lo_seg, wa) : tr_speed(&coarse, lo_seg, b);
    double v2 = hi_seg > wb ? tr_speed(&coarse, wb, hi_seg) : tr_speed(&coarse, b, hi_seg);
    /* a coarse clock (a bandwidth log's windows) spreads the transition
     * over several points: widen the window over points clearly between
     * the two levels, so the time they took places the cliff */
    double margin = fmax(3 * sigma, 0.1 * (v1 - v2));
    /* only over a transition: a segment either side of the boundary that
     * is shorter than a level may be (two minimum segments, or the clock) */
    size_t sb = edges[i + 1], la = b, rb = b;
    for (size_t j = sb; j > edges[i] && seg_short(&c, &coarse, bnd[j - 1], bnd[j], min_level_s); j--) la = bnd[j - 1];
    for (size_t j = sb; j < edges[i + 2] && seg_short(&c, &coarse, bnd[j], bnd[j + 1], min_level_s); j++) rb = bnd[j + 1];
    while (wa > la && wa > lo_seg + 1 && x[wa - 1] < v1 - margin && x[wa - 1] > v2 + margin) wa--;
    while (wb < rb && wb + 1 < hi_seg && x[wb] > v2 + margin && x[wb] < v1 - margin) wb++;
    size_t fa = CS(wa) < n ? CS(wa) : n, fb = CS(wb) < n ? CS(wb) : n;
    at[i] = place_cliff(&fine, fa, fb, v1, v2);
  }
  out->nlevels = (unsigned)nl + 1;
  for (size_t i = 0; i <= nl; i++) {
    struct ssdrev_slc_level *L = &out->levels[i];
    L->from_gib = i ? at[i - 1] : fine.g0;
    L->to_gib = i < nl ? at[i] : gib[n - 1];
    L->mb_s = tr_speed(&coarse, bnd[edges[i]], bnd[edges[i + 1]]);
  }
  for (size_t i = 0; i < nl; i++) {
    struct ssdrev_slc_drop *d = &out->drops[out->ndrops++];
    d->at_gib = at[i];
    d->from_mb_s = out->levels[i].mb_s;
    d->to_mb_s = out->levels[i + 1].mb_s;
  }
  if (nl) {
    size_t k = bnd[lvl_bnd[0]];
    out->found = 1;
    out->cache_gib = at[0];
    out->cache_mb_s = tr_speed(&coarse, bnd[lstart0], k);
    out->post_cache_mb_s = tr_speed(&coarse, k, nc);
    /* the first segment after the cliff, without the points around the
     * boundary (they hold the last of the cache) */
    size_t fs = bnd[lvl_bnd[0]] + 2, fe = bnd[lvl_bnd[0] + 1];
    out->post_first_mb_s = fs < fe ? tr_speed(&coarse, fs, fe) : mean[lvl_bnd[0]];
    out->drop_z = first_z;
    out->confidence = 1 - exp(-first_z / SSDREV_SLC_Z_MIN);
  } else {
    out->cache_mb_s = tr_speed(&coarse, 0, nc); /* the whole fill's speed */
    out->cache_gib = gib[n - 1];
    out->confidence = 0;
  }
  return 0;
}


int ssdrev_slc_estimate_ws(const double *gib, const double *mb_s, size_t n, double min_seg_gib, double min_level_s,
                           struct ssdrev_slc_ws *ws, struct ssdrev_slc *out, struct ssdrev_err *err) {
  return estimate(gib, mb_s, n, min_seg_gib, min_level_s, ws, out, err, 0, 0);
}
