/* fill.c — steps that change the drive's fill state: purge (whole
 * device discard), prefill (sequential fill to a share of the capacity, e.g.
 * 75% before the second CDM run) and fill_drive (purge, then one sequential
 * pass over the whole capacity, the SLC-cache trace; optionally a rewrite of
 * a full drive, which sees only the smallest cache). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "bench/method/review_int.h"

/* ------------------------------------------------------------------ purge */

static const char *const purge_keys[] = {"method", NULL};

/* "method": "auto" (discard; an NVMe Format NVM where the namespace has no
 * discard), "discard", or "format" (some drives restore their
 * fresh-out-of-box state only on a format). */
static int purge_parse(struct review_step *s, const json_t *obj, const struct review_profile *p,
                       const char *where, struct ssdrev_err *err) {
  (void)p;
  static const char *const names[] = {"auto", "discard", "format"};
  char how[16] = "auto";
  int rc = bench_review_json_str(obj, "method", how, sizeof how, where, err);
  if (rc) return rc;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(how, names[i])) {
      s->purge_how = (enum bench_purge)i;
      return 0;
    }
  return ssdrev_fail(err, -EINVAL, "%s: 'method' must be \"auto\", \"discard\" or \"format\", not \"%s\"", where, how);
}

static double purge_estimate(const struct review_profile *p, const struct review_step *s,
                             uint64_t cap, enum review_basis basis) {
  (void)s, (void)cap;
  return bench_review_cost(p, basis, &bench_review_purge_load);
}

static void purge_describe(const struct review_profile *p, const struct review_step *s,
                           uint64_t cap, char *buf, size_t len) {
  (void)p, (void)cap;
  snprintf(buf, len, "%s", s->purge_how == BENCH_PURGE_FORMAT ? "purge: NVMe Format NVM (file: recreated; sim: reset)"
                           : s->purge_how == BENCH_PURGE_DISCARD ? "purge: whole-device discard (file: recreated; sim: reset)"
                           : "purge: whole-device discard, else NVMe format (file: recreated; sim: reset)");
}

static int purge_run(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  return bench_review_purge(c, s->purge_how, err);
}

const struct review_kind bench_review_kind_purge = {
    .name = "purge", .keys = purge_keys, .parse = purge_parse, .estimate = purge_estimate,
    .describe = purge_describe, .run = purge_run, .fio_pre_sh = bench_review_fio_discard_sh,
};

/* ------------------------------------------------------- prefill, fill_drive */

static const char *const fill_keys[] = {"fill_pct", "block", "qd", "near_full_bytes", "near_full_idle_s",
                                        "cliff_margin_bytes", NULL};

static int fill_parse(struct review_step *s, const json_t *obj, const struct review_profile *p,
                      const char *where, struct ssdrev_err *err) {
  (void)p;
  uint64_t block = 128 * 1024;
  s->fill_pct = 100;
  /* QD32 as the usual whole-drive fill tools (Iometer 128K QD32): the drive,
   * not the host, sets the pace. */
  s->qds[0] = 32;
  s->nqds = 1;
  int rc = bench_review_json_num(obj, "fill_pct", 0.1, 100, &s->fill_pct, where, err);
  if (!rc) rc = bench_review_json_size(obj, "block", &block, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "qd", 1, 1024, &s->qds[0], where, err);
  if (!rc) rc = bench_review_json_size(obj, "near_full_bytes", &s->near_full_bytes, where, err);
  /* A drive folds its SLC into TLC only when idle: without a pause the
   * rewrite of a just-filled drive would find no cache at all. */
  s->near_full_idle_s = 60;
  if (!rc) rc = bench_review_json_num(obj, "near_full_idle_s", 0, 86400, &s->near_full_idle_s, where, err);
  s->cliff_margin_bytes = BENCH_REVIEW_CLIFF_MARGIN;
  if (!rc) rc = bench_review_json_size(obj, "cliff_margin_bytes", &s->cliff_margin_bytes, where, err);
  if (rc) return rc;
  if (block < 4096 || block > (16u << 20) || block % 4096)
    return ssdrev_fail(err, -EINVAL, "%s: 'block' must be a multiple of 4 KiB up to 16 MiB", where);
  s->block_bytes = (uint32_t)block;
  return 0;
}

/* Bytes to write: fill_pct of the capacity, capped in short mode. */
static uint64_t fill_bytes(const struct review_profile *p, const struct review_step *s,
                           uint64_t cap) {
  uint64_t b = (uint64_t)((double)cap * s->fill_pct / 100.0);
  if (p->set.fill_max_bytes && b > p->set.fill_max_bytes) b = p->set.fill_max_bytes;
  return bench_review_align_down(b, s->block_bytes);
}

/* The near-full rewrite writes until the cliff is seen (the watch of
 * bench/method/cliff.c stops it cliff_margin_bytes past it), bounded: a
 * quarter of the capacity (the smallest cache is at most the largest, below
 * a quarter of the capacity on every drive we know: a 200 GiB cache on 1 TB
 * is 0.21), at least near_full_bytes. A cache the rewrite does not exhaust
 * is reported as a lower bound (docs/flags.md). */
static uint64_t near_full_bytes(const struct review_profile *p, const struct review_step *s,
                                uint64_t cap) {
  uint64_t b = s->near_full_bytes;
  if (b && b < cap / 4) b = cap / 4;
  if (p->set.fill_max_bytes && b > p->set.fill_max_bytes / 4) b = p->set.fill_max_bytes / 4;
  if (b > cap) b = cap;
  return bench_review_align_down(b, s->block_bytes);
}

/* the idle before the near-full rewrite: none in short mode */
static double near_full_idle_s(const struct review_profile *p, const struct review_step *s) {
  return p->set.fill_max_bytes ? 0 : s->near_full_idle_s;
}

static double fill_estimate(const struct review_profile *p, const struct review_step *s,
                            uint64_t cap, enum review_basis basis) {
  double t = bench_review_seq_write_cost(p, basis, fill_bytes(p, s, cap), s->block_bytes, s->qds[0], 0);
  if (s->kind != &bench_review_kind_fill_drive) return t;
  t += bench_review_cost(p, basis, &bench_review_purge_load);
  uint64_t nf = near_full_bytes(p, s, cap);
  if (nf) t += bench_review_seq_write_cost(p, basis, nf, s->block_bytes, s->qds[0], near_full_idle_s(p, s));
  return t;
}

static void fill_describe(const struct review_profile *p, const struct review_step *s,
                          uint64_t cap, char *buf, size_t len) {
  uint64_t b = fill_bytes(p, s, cap);
  if (s->kind == &bench_review_kind_prefill)
    snprintf(buf, len, "prefill: sequential %u KiB QD%u write of %.1f GiB (%.1f%% of capacity)",
             s->block_bytes / 1024, s->qds[0], (double)b / 1073741824.0,
             100.0 * (double)b / (double)cap);
  else
    snprintf(buf, len, "fill drive: purge, sequential %u KiB QD%u write of %.1f GiB%s",
             s->block_bytes / 1024, s->qds[0], (double)b / 1073741824.0,
             s->near_full_bytes ? ", then a rewrite of the full drive" : "");
}

static void fill_job_init(struct review_ctx *c, const struct review_step *s, struct bench_job *job, char *name,
                          size_t name_len, const char *suffix, uint64_t bytes, uint64_t idle_ns) {
  snprintf(name, name_len, "%s.%s", s->id, suffix);
  bench_review_job_init(c, job, name);
  job->pattern = BENCH_SEQ;
  job->read_pct = 0;
  job->block_bytes = s->block_bytes;
  job->qd = s->qds[0];
  job->offset_bytes = 0;
  job->span_bytes = bytes;
  job->size_bytes = bytes; /* size-based: exactly one pass */
  job->idle_ns = idle_ns;
}

static int fill_job(struct review_ctx *c, const struct review_step *s, const char *suffix,
                    uint64_t bytes, uint64_t idle_ns, json_t *extra, struct ssdrev_err *err) {
  char name[160];
  struct bench_job job;
  struct bench_job_result res;
  fill_job_init(c, s, &job, name, sizeof name, suffix, bytes, idle_ns);
  return bench_review_run_job(c, name, s->kind->name, extra, &job,
                        (double)bytes / (c->prof->set.plan_write_mb_s * 1e6), &res, err);
}

static int prefill_run(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  uint64_t b = fill_bytes(c->prof, s, c->cap_bytes);
  if (b == 0) return ssdrev_fail(err, -ENOSPC, "step '%s': nothing to fill on this target", s->id);
  return fill_job(c, s, "fill", b, 0, json_pack("{s:f}", "fill_pct", s->fill_pct), err);
}

static int fill_drive_run(struct review_ctx *c, const struct review_step *s,
                          struct ssdrev_err *err) {
  int rc = bench_review_purge(c, BENCH_PURGE_AUTO, err);
  if (rc) return rc;
  uint64_t b = fill_bytes(c->prof, s, c->cap_bytes);
  if (b == 0) return ssdrev_fail(err, -ENOSPC, "step '%s': nothing to fill on this target", s->id);
  char name[160];
  struct bench_job job;
  struct bench_job_result res;
  fill_job_init(c, s, &job, name, sizeof name, "empty", b, 0);
  /* the fill is watched, never stopped: its post-cache speed tells the
   * rewrite when nothing came back */
  struct bench_cliff_watch w;
  bench_cliff_watch_init(&w, 0, 0, 0);
  w.observe_only = 1;
  job.watch = bench_cliff_watch_fn;
  job.watch_arg = &w;
  rc = bench_review_run_job(c, name, s->kind->name, json_pack("{s:s}", "phase", "empty"), &job,
                            (double)b / (c->prof->set.plan_write_mb_s * 1e6), &res, err);
  double post = 0, cache = 0, full = 0;
  /* only a post-cache level seen past a cliff: a fill without one may
   * have run in a cache larger than itself (a short review) */
  /* the first post-cache level: a later level (GC-bound, folding-bound)
   * is slower than what a full drive writes past its cache */
  if (!rc && !bench_cliff_watch_finish(&w) && w.est.found) cache = w.est.cache_mb_s, post = w.est.post_first_mb_s;
  /* what the full drive writes past its cache: the fill's end (the
   * near-full rewrite's "nothing came back" compares with it) */
  if (!rc && post > 0) full = bench_cliff_full_mb_s(&w);
  bench_cliff_watch_free(&w);
  if (rc) return rc;
  if (post > 0) {
    bench_review_note_test(c, name, "cache_mb_s_seen", json_real(cache));
    bench_review_note_test(c, name, "post_cache_mb_s_seen", json_real(post));
    if (full > 0) bench_review_note_test(c, name, "full_mb_s_seen", json_real(full));
  }
  uint64_t nf = near_full_bytes(c->prof, s, c->cap_bytes);
  if (!nf) return 0;
  /* The drive is now full: after an idle pause only the static SLC part
   * comes back, so this rewrite shows the smallest cache. */
  uint64_t idle_ns = (uint64_t)(near_full_idle_s(c->prof, s) * 1e9);
  fill_job_init(c, s, &job, name, sizeof name, "near_full", nf, idle_ns);
  bench_cliff_watch_init(&w, bench_review_cliff_margin(c->prof, s), cache, post);
  w.full_mb_s = full;
  rc = bench_review_cliff_job(c, name, s->kind->name,
                              json_pack("{s:s, s:f}", "phase", "near_full", "idle_s", (double)idle_ns / 1e9), &job,
                              &w, (double)nf / (c->prof->set.plan_write_mb_s * 1e6), NULL, err);
  bench_cliff_watch_free(&w);
  return rc;
}

const struct review_kind bench_review_kind_prefill = {
    .name = "prefill", .keys = fill_keys, .parse = fill_parse, .estimate = fill_estimate,
    .describe = fill_describe, .run = prefill_run, .fio = bench_review_fio_fill,
};

const struct review_kind bench_review_kind_fill_drive = {
    .name = "fill_drive", .keys = fill_keys, .parse = fill_parse, .estimate = fill_estimate,
    .describe = fill_describe, .run = fill_drive_run, .fio = bench_review_fio_fill,
    .fio_pre_sh = bench_review_fio_discard_sh, /* the fill drive starts with a purge */
};
