/* recovery.c — cache recovery after idle: the cache is exhausted (a write
 * until the cliff), then for each idle time of a rising series the drive
 * idles and is written until the cliff again (bench/method/cliff.c). The
 * analysis (analyze/recovery.c) gives the recovered cache and its speed
 * against the idle time. The writes go forward through the drive: a rewrite
 * of data still in SLC gives the cache its room back without any folding,
 * so each write starts where the one before ended (docs/method.md). */
#include <errno.h>
#include <string.h>
#include "bench/method/review_int.h"

static const char *const rec_keys[] = {"idles_s", "block", "qd", "bound_bytes", "cliff_margin_bytes", "offset_pct", NULL};

/* Short mode shortens every idle by this factor (a try-out, not a result). */
#define REC_SHORT_IDLE_DIV 100.0

static int rec_parse(struct review_step *s, const json_t *obj, const struct review_profile *p, const char *where,
                     struct ssdrev_err *err) {
  (void)p;
  static const double def[] = {5, 30, 120, 600};
  memcpy(s->idles_s, def, sizeof def);
  s->nidles = sizeof def / sizeof def[0];
  uint64_t block = 128 * 1024;
  s->qds[0] = 32;
  s->nqds = 1;
  s->near_full_bytes = 0; /* the bound: 0 = a quarter of the capacity */
  s->cliff_margin_bytes = BENCH_REVIEW_CLIFF_MARGIN;
  s->region_offset_pct = 50;
  int rc = bench_review_json_size(obj, "block", &block, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "qd", 1, 1024, &s->qds[0], where, err);
  if (!rc) rc = bench_review_json_size(obj, "bound_bytes", &s->near_full_bytes, where, err);
  if (!rc) rc = bench_review_json_size(obj, "cliff_margin_bytes", &s->cliff_margin_bytes, where, err);
  if (!rc) rc = bench_review_json_num(obj, "offset_pct", 0, 99, &s->region_offset_pct, where, err);
  if (rc) return rc;
  if (block < 4096 || block > (16u << 20) || block % 4096)
    return ssdrev_fail(err, -EINVAL, "%s: 'block' must be a multiple of 4 KiB up to 16 MiB", where);
  s->block_bytes = (uint32_t)block;
  const json_t *idles = json_object_get(obj, "idles_s");
  if (idles) {
    if (!json_is_array(idles) || !json_array_size(idles) || json_array_size(idles) > REVIEW_MAX_IDLES)
      return ssdrev_fail(err, -EINVAL, "%s: 'idles_s' must be an array of 1 to %d rising idle times in seconds", where,
                         REVIEW_MAX_IDLES);
    for (size_t i = 0; i < json_array_size(idles); i++) {
      const json_t *v = json_array_get(idles, i);
      double x = json_is_number(v) ? json_number_value(v) : -1;
      if (!(x > 0 && x <= 86400) || (i && x <= s->idles_s[i - 1]))
        return ssdrev_fail(err, -EINVAL, "%s: idles_s[%zu] must be a number of seconds in (0, 86400] above the one before",
                           where, i);
      s->idles_s[i] = x;
    }
    s->nidles = (unsigned)json_array_size(idles);
  }
  return 0;
}

static double rec_idle_s(const struct review_profile *p, const struct review_step *s, unsigned i) {
  return p->short_mode ? s->idles_s[i] / REC_SHORT_IDLE_DIV : s->idles_s[i];
}

/* The bound of each write: bound_bytes, at least a quarter of the capacity
 * (as the near-full rewrite), a quarter of fill_max_bytes in short mode. */
static uint64_t rec_bound(const struct review_profile *p, const struct review_step *s, uint64_t cap) {
  uint64_t b = s->near_full_bytes;
  if (b < cap / 4) b = cap / 4;
  if (p->set.fill_max_bytes && b > p->set.fill_max_bytes / 4) b = p->set.fill_max_bytes / 4;
  if (b > cap) b = cap;
  return bench_review_align_down(b, s->block_bytes);
}

/* The region the step writes in: the whole drive, or fill_max_bytes in
 * short mode (as the other steps). */
static uint64_t rec_region(const struct review_profile *p, const struct review_step *s, uint64_t cap) {
  uint64_t r = p->set.fill_max_bytes && p->set.fill_max_bytes < cap ? p->set.fill_max_bytes : cap;
  return bench_review_align_down(r, s->block_bytes);
}

/* The idles are real time on a real drive: all of them, plus at most the
 * bound per write (exhaust and one per idle; a write stops a margin past its
 * cliff, so usually far less). */
static double rec_estimate(const struct review_profile *p, const struct review_step *s, uint64_t cap,
                           enum review_basis basis) {
  uint64_t bound = rec_bound(p, s, cap);
  double t = bench_review_seq_write_cost(p, basis, bound, s->block_bytes, s->qds[0], 0);
  for (unsigned i = 0; i < s->nidles; i++)
    t += bench_review_seq_write_cost(p, basis, bound, s->block_bytes, s->qds[0], rec_idle_s(p, s, i));
  return t;
}

static void rec_describe(const struct review_profile *p, const struct review_step *s, uint64_t cap, char *buf,
                         size_t len) {
  char idles[96] = "";
  size_t n = 0;
  for (unsigned i = 0; i < s->nidles && n < sizeof idles; i++) {
    char d[24];
    bench_review_format_duration(rec_idle_s(p, s, i), d, sizeof d);
    n += (size_t)snprintf(idles + n, sizeof idles - n, "%s%s", i ? ", " : "", d);
  }
  snprintf(buf, len,
           "cache recovery: write until the cliff (exhausts the cache), then idle %s, each followed by a %u KiB QD%u "
           "write until the cliff (at most %.1f GiB each)",
           idles, s->block_bytes / 1024, s->qds[0], (double)rec_bound(p, s, cap) / 1073741824.0);
}

static int rec_run(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  uint64_t region = rec_region(c->prof, s, c->cap_bytes), bound = rec_bound(c->prof, s, c->cap_bytes);
  uint64_t margin = bench_review_cliff_margin(c->prof, s);
  if (bound < s->block_bytes || region < 2 * bound)
    return ssdrev_fail(err, -ENOSPC, "step '%s': the target is too small for a cache recovery series", s->id);
  uint64_t cursor = bench_review_align_down((uint64_t)((double)region * s->region_offset_pct / 100), s->block_bytes);
  /* the exhaust write knows the post-cache speed when the run's fill saw
   * one: a drive the steps before left exhausted then costs it a margin,
   * not its bound */
  double cache, post, full;
  bench_review_seen_speeds(c, &cache, &post, &full);
  for (unsigned i = 0; i <= s->nidles; i++) {
    /* the write starts where the last ended, its bound cut to the region
     * left; only when less than two margins are left does it wrap to the
     * start, whose data may still be in SLC (docs/method.md) */
    if (region - cursor < 2 * margin + s->block_bytes) cursor = 0;
    uint64_t span = region - cursor < bound ? bench_review_align_down(region - cursor, s->block_bytes) : bound;
    char name[160];
    double idle_s = i ? rec_idle_s(c->prof, s, i - 1) : 0;
    if (i) snprintf(name, sizeof name, "%s.idle%gs", s->id, idle_s);
    else snprintf(name, sizeof name, "%s.exhaust", s->id);
    struct bench_job job;
    struct bench_job_result res;
    bench_review_job_init(c, &job, name);
    job.pattern = BENCH_SEQ;
    job.read_pct = 0;
    job.block_bytes = s->block_bytes;
    job.qd = s->qds[0];
    job.offset_bytes = cursor;
    job.span_bytes = span;
    job.size_bytes = span;
    job.idle_ns = (uint64_t)(idle_s * 1e9);
    struct bench_cliff_watch w;
    /* after the exhaust, a write that runs at its post-cache speed for a
     * margin has recovered nothing: it stops there */
    bench_cliff_watch_init(&w, margin, cache, post);
    w.full_mb_s = full;
    json_t *extra = i ? json_pack("{s:s, s:f}", "phase", "recovery", "idle_s", idle_s)
                      : json_pack("{s:s, s:f}", "phase", "exhaust", "idle_s", 0.0);
    int rc = bench_review_cliff_job(c, name, "cache_recovery", extra, &job, &w,
                                    (double)bound / (c->prof->set.plan_write_mb_s * 1e6), &res, err);
    /* a post-cache level it saw past its cliff; without a cliff its speed
     * may be a cache's larger than the bound, so it is no reference */
    if (!rc && !i && w.stop != BENCH_CLIFF_STOP_NONE && !bench_cliff_watch_finish(&w) && w.est.found)
      cache = w.est.cache_mb_s, post = full = w.est.post_first_mb_s; /* this drive, full, now */
    bench_cliff_watch_free(&w);
    if (rc) return rc;
    cursor += bench_review_align_down(res.bytes, s->block_bytes);
  }
  return 0;
}

const struct review_kind bench_review_kind_cache_recovery = {
    .name = "cache_recovery", .keys = rec_keys, .parse = rec_parse, .estimate = rec_estimate,
    .describe = rec_describe, .run = rec_run,
    .fio = bench_review_fio_recovery,
};
