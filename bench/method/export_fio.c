/* export_fio.c — the method as fio job files (`ssdrev method export --fio`):
 * one file per step, written by the step kind's `fio` hook from the parsed
 * method file, so the files can never drift from profiles/review.json. The
 * jobs are shaped so that `ssdrev import fio` maps each back onto its step by
 * its parameters alone (import/fio.c, docs/interop.md):
 *   CDM cell     time_based, rw=read|write|randread|randwrite (mix: randrw
 *                with the file's --state), bs, iodepth, numjobs of the cell
 *   RW sweep     time_based, rw=randrw, rwmixread 0..100, iodepth per QD
 *   tail         number_ios, 4 KiB random QD1: randread, randrw 70, randwrite
 *   fill         sequential write, size=N% (prefill), size=100% (fill drive),
 *                then an absolute size (the near-full rewrite)
 *   QD scaling   time_based with ramp_time, randread|randwrite, size=100%
 *   steady state rounds_max time_based rounds (fio cannot stop on the PTS
 *                rule), consistency one time_based write, both after their
 *                prepare; thermal a time_based write after startdelay; cache
 *                recovery fixed-size writes after startdelay (no cliff stop):
 *                these import as plain jobs (the notes say what is approximated)
 * Every job logs each I/O (write_lat_log, log_avg_msec=0) and is stonewalled,
 * so the jobs run one after another as the method's do. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "bench/method/review_int.h"
#include "bench/fio/fio_int.h"

/* A size as fio reads it: bytes, or k/m/g multiples when exact. */
static void fio_size_str(uint64_t b, char *out, size_t len) {
  if (b && b % 1073741824ull == 0) snprintf(out, len, "%" PRIu64 "g", b / (uint64_t)1073741824);
  else if (b && b % 1048576ull == 0) snprintf(out, len, "%" PRIu64 "m", b / (uint64_t)1048576);
  else if (b && b % 1024ull == 0) snprintf(out, len, "%" PRIu64 "k", b / (uint64_t)1024);
  else snprintf(out, len, "%" PRIu64, b);
}

/* Seconds as fio's time options take them: whole seconds, else ms. */
static void fio_time_str(double s, char *out, size_t len) {
  if (s == floor(s)) snprintf(out, len, "%.0f", s);
  else snprintf(out, len, "%.0fms", ceil(s * 1000));
}

/* The job's logging and ordering: every job a group of its own. NAME is
 * ssdrev's own ("QD1.R50") or made of a cell's name: a section name only,
 * so written as a token (bench_fio_token: "SEQ1M Q8T1" is SEQ1M_Q8T1). */
static void job_head(struct bench_fio_text *j, const char *name, const struct review_step *s) {
  char sect[BENCH_FIO_TOKEN_MAX + 1];
  bench_fio_token(name, sect, sizeof sect);
  bench_fio_job_section(j, sect);
  bench_fio_job_flag(j, "stonewall");
  bench_fio_job_opt(j, "write_lat_log", "%s", s->id);
  bench_fio_job_opt(j, "log_avg_msec", "0");
}

static uint64_t region_bytes(const struct bench_fio_export_opts *x, const struct review_profile *p) {
  uint64_t r = p->set.region_bytes;
  /* a reduced target: the region is at most a quarter of it, so the 75%
   * state's region (at 75%) still fits */
  if (x->size_bytes && r > x->size_bytes / 4) r = bench_review_align_down(x->size_bytes / 4, 1048576);
  return r ? r : 1048576;
}

static double measure_s(const struct bench_fio_export_opts *x, double method_s) {
  return x->runtime_s > 0 ? x->runtime_s : method_s;
}

const char bench_review_fio_discard_sh[] = "if [ -b \"$SSDREV_TARGET\" ]; then blkdiscard \"$SSDREV_TARGET\"; fi";

int bench_review_fio_cdm(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                         const struct bench_fio_export_opts *x) {
  char region[32], t[32];
  uint64_t r = region_bytes(x, p);
  fio_size_str(r, region, sizeof region);
  fio_time_str(measure_s(x, p->set.measure_s), t, sizeof t);
  bench_fio_job_comment(j, "step %s: CrystalDiskMark %s profile, state %s: import with FILE.json:%s", s->id,
                        s->cdm_profile, s->state, s->state);
  /* the region, written once first: reads are of written data, as in
   * CrystalDiskMark's test file */
  bench_fio_job_section(j, "prepare");
  bench_fio_job_opt(j, "write_lat_log", "%s", s->id);
  bench_fio_job_opt(j, "log_avg_msec", "0");
  bench_fio_job_opt(j, "rw", "write");
  bench_fio_job_opt(j, "bs", "1m");
  bench_fio_job_opt(j, "iodepth", "8");
  bench_fio_job_opt(j, "size", "%s", region);
  if (s->region_offset_pct > 0) bench_fio_job_opt(j, "offset", "%g%%", s->region_offset_pct);
  static const struct { unsigned mask; const char *op, *seq, *rnd; } ops[] = {
      {REVIEW_OP_READ, "read", "read", "randread"},
      {REVIEW_OP_WRITE, "write", "write", "randwrite"},
      {REVIEW_OP_MIX, "mix", "rw", "randrw"}};
  unsigned passes = x->passes ? x->passes : p->set.passes;
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    if (!(s->ops & ops[k].mask)) continue;
    for (unsigned i = 0; i < s->ncells; i++) {
      const struct review_cell *c = &s->cells[i];
      for (unsigned pass = 1; pass <= passes; pass++) {
        char name[96], bs[32];
        snprintf(name, sizeof name, "%s.%s.p%u", c->name, ops[k].op, pass);
        job_head(j, name, s);
        fio_size_str(c->block_bytes, bs, sizeof bs);
        bench_fio_job_opt(j, "rw", "%s", c->pattern == BENCH_SEQ ? ops[k].seq : ops[k].rnd);
        bench_fio_job_opt(j, "bs", "%s", bs);
        bench_fio_job_opt(j, "iodepth", "%u", c->qd);
        bench_fio_job_opt(j, "numjobs", "%u", c->threads);
        if (c->threads > 1) bench_fio_job_flag(j, "group_reporting");
        bench_fio_job_opt(j, "size", "%s", region);
        if (ops[k].mask == REVIEW_OP_MIX) bench_fio_job_opt(j, "rwmixread", "%u", s->mix_read_pct);
        if (s->region_offset_pct > 0) bench_fio_job_opt(j, "offset", "%g%%", s->region_offset_pct);
        bench_fio_job_opt(j, "time_based", "1");
        bench_fio_job_opt(j, "runtime", "%s", t);
        /* CrystalDiskMark's discarded preparing pass: the first pass ramps */
        if (pass == 1) bench_fio_job_opt(j, "ramp_time", "%s", t);
      }
    }
  }
  return 0;
}

int bench_review_fio_fill(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                          const struct bench_fio_export_opts *x) {
  char bs[32];
  fio_size_str(s->block_bytes, bs, sizeof bs);
  int whole = s->kind == &bench_review_kind_fill_drive;
  bench_fio_job_comment(j, "step %s: %s", s->id,
                        whole ? "fill drive: the whole target sequentially (run.sh purges it first), then a rewrite"
                              : "prefill: a share of the target, sequentially");
  job_head(j, whole ? "empty" : "fill", s);
  bench_fio_job_opt(j, "rw", "write");
  bench_fio_job_opt(j, "bs", "%s", bs);
  bench_fio_job_opt(j, "iodepth", "%u", s->qds[0]);
  bench_fio_job_opt(j, "size", "%g%%", whole ? 100.0 : s->fill_pct);
  if (!whole || !s->near_full_bytes) return 0;
  uint64_t nf = s->near_full_bytes;
  if (p->set.fill_max_bytes && nf > p->set.fill_max_bytes / 4) nf = p->set.fill_max_bytes / 4;
  if (x->size_bytes && nf > x->size_bytes / 8) nf = x->size_bytes / 8;
  nf = bench_review_align_down(nf, s->block_bytes);
  if (!nf) return 0;
  char nfs[32];
  fio_size_str(nf, nfs, sizeof nfs);
  /* the method idles near_full_idle_s before this rewrite; a job file has
   * no such pause (docs/interop.md) */
  job_head(j, "near_full", s);
  bench_fio_job_opt(j, "rw", "write");
  bench_fio_job_opt(j, "bs", "%s", bs);
  bench_fio_job_opt(j, "iodepth", "%u", s->qds[0]);
  bench_fio_job_opt(j, "size", "%s", nfs);
  return 0;
}

/* An rw_sweep's or tail's test region (bench_review_region): size= and
 * offset= of its jobs, nothing for the whole target. */
static void lowqd_region_opts(struct bench_fio_text *j, const struct review_step *s,
                              const struct bench_fio_export_opts *x) {
  uint64_t r = s->region_bytes, off;
  if (r && x->size_bytes) bench_review_region(x->size_bytes, s->region_offset_pct, r, &off, &r);
  char sz[32];
  fio_size_str(r ? r : 1048576, sz, sizeof sz);
  if (s->region_bytes) bench_fio_job_opt(j, "size", "%s", sz);
  if (s->region_offset_pct > 0) bench_fio_job_opt(j, "offset", "%g%%", s->region_offset_pct);
}

int bench_review_fio_sweep(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                           const struct bench_fio_export_opts *x) {
  char bs[32], m[32], r[32];
  fio_size_str(s->block_bytes, bs, sizeof bs);
  double ms = p->set.sweep_measure_s >= 0 ? p->set.sweep_measure_s : s->measure_s;
  double rs = p->set.sweep_ramp_s >= 0 ? p->set.sweep_ramp_s : s->ramp_s;
  fio_time_str(measure_s(x, ms), m, sizeof m);
  fio_time_str(x->runtime_s > 0 ? (rs > 0 ? x->runtime_s : 0) : rs, r, sizeof r);
  bench_fio_job_comment(j, "step %s: RW-ratio sweep", s->id);
  for (unsigned qi = 0; qi < s->nqds; qi++)
    for (unsigned rp = 0; rp <= 100; rp += s->read_pct_step) {
      char name[64];
      snprintf(name, sizeof name, "QD%u.R%u", s->qds[qi], rp);
      job_head(j, name, s);
      /* randrw even at 0% and 100%: a mixed job is how the import tells a
       * sweep point from a CrystalDiskMark cell */
      bench_fio_job_opt(j, "rw", "randrw");
      bench_fio_job_opt(j, "rwmixread", "%u", rp);
      bench_fio_job_opt(j, "bs", "%s", bs);
      bench_fio_job_opt(j, "iodepth", "%u", s->qds[qi]);
      lowqd_region_opts(j, s, x);
      bench_fio_job_opt(j, "time_based", "1");
      bench_fio_job_opt(j, "runtime", "%s", m);
      if (strcmp(r, "0")) bench_fio_job_opt(j, "ramp_time", "%s", r);
    }
  return 0;
}

int bench_review_fio_tail(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                          const struct bench_fio_export_opts *x) {
  char bs[32];
  fio_size_str(s->block_bytes, bs, sizeof bs);
  uint64_t ios = x->ios ? x->ios : p->set.tail_ios && p->set.tail_ios < s->ios ? p->set.tail_ios : s->ios;
  bench_fio_job_comment(j, "step %s: QD%u tail latency, %" PRIu64 " I/Os per workload", s->id, s->qds[0], ios);
  static const struct { unsigned mask; const char *name, *rw; int mix; } w[] = {
      {REVIEW_OP_READ, "read", "randread", 0}, {REVIEW_OP_MIX, "mix70", "randrw", 70},
      {REVIEW_OP_WRITE, "write", "randwrite", 0}};
  for (size_t k = 0; k < sizeof w / sizeof w[0]; k++) {
    if (!(s->workloads & w[k].mask)) continue;
    job_head(j, w[k].name, s);
    bench_fio_job_opt(j, "rw", "%s", w[k].rw);
    bench_fio_job_opt(j, "bs", "%s", bs);
    bench_fio_job_opt(j, "iodepth", "%u", s->qds[0]);
    lowqd_region_opts(j, s, x);
    bench_fio_job_opt(j, "number_ios", "%" PRIu64, ios);
    if (w[k].mix) bench_fio_job_opt(j, "rwmixread", "%d", w[k].mix);
  }
  return 0;
}

/* A note on what the export could not express, formatted from FMT: into
 * the job file J (a comment) and x->notes (the CLI prints them on stderr). */
static void fio_note(struct bench_fio_text *j, const struct bench_fio_export_opts *x, const struct review_step *s,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void fio_note(struct bench_fio_text *j, const struct bench_fio_export_opts *x, const struct review_step *s,
                     const char *fmt, ...) {
  char line[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  bench_fio_job_comment(j, "NOTE: %s", line);
  if (!x->notes || !x->notes_len) return;
  size_t n = strlen(x->notes);
  if (n + 1 >= x->notes_len) return;
  snprintf(x->notes + n, x->notes_len - n, "step '%s' (%s): %s\n", s->id, s->kind->name, line);
}

/* A random job over the whole target, as the method's whole-drive random
 * steps: size=100% says so to the import (a CrystalDiskMark cell of the same
 * shape tests a region). */
static void rand_job(struct bench_fio_text *j, const char *rw, uint32_t block, unsigned qd, unsigned threads) {
  char bs[32];
  fio_size_str(block, bs, sizeof bs);
  bench_fio_job_opt(j, "rw", "%s", rw);
  bench_fio_job_opt(j, "bs", "%s", bs);
  bench_fio_job_opt(j, "iodepth", "%u", qd);
  bench_fio_job_opt(j, "size", "100%%");
  bench_fio_job_opt(j, "norandommap", "1");
  if (threads > 1) {
    bench_fio_job_opt(j, "numjobs", "%u", threads);
    bench_fio_job_opt(j, "group_reporting", "1");
  }
}

int bench_review_fio_qd_scaling(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                                const struct bench_fio_export_opts *x) {
  /* the sweep's short-mode times apply here too, as in qdscale.c */
  double ms = p->set.sweep_measure_s >= 0 ? p->set.sweep_measure_s : s->measure_s;
  double rs = p->set.sweep_ramp_s >= 0 ? p->set.sweep_ramp_s : s->ramp_s;
  char m[32], r[32];
  fio_time_str(measure_s(x, ms), m, sizeof m);
  fio_time_str(x->runtime_s > 0 ? (rs > 0 ? x->runtime_s : 0) : rs, r, sizeof r);
  bench_fio_job_comment(j, "step %s: QD scaling, %u KiB random over the whole target, one job per workload and QD",
                        s->id, s->block_bytes / 1024);
  static const struct { unsigned mask; const char *name, *rw; } w[] = {
      {REVIEW_OP_READ, "read", "randread"}, {REVIEW_OP_WRITE, "write", "randwrite"}};
  for (size_t k = 0; k < sizeof w / sizeof w[0]; k++) {
    if (!(s->workloads & w[k].mask)) continue;
    for (unsigned qi = 0; qi < s->nqds; qi++) {
      char name[64];
      snprintf(name, sizeof name, "%s.QD%u", w[k].name, s->qds[qi]);
      job_head(j, name, s);
      rand_job(j, w[k].rw, s->block_bytes, s->qds[qi], 1);
      /* the ramp is how the import tells a QD point from a whole-drive
       * random write (steady state, consistency): keep one even if 0 */
      bench_fio_job_opt(j, "time_based", "1");
      bench_fio_job_opt(j, "runtime", "%s", m);
      bench_fio_job_opt(j, "ramp_time", "%s", strcmp(r, "0") ? r : "1ms");
    }
  }
  return 0;
}

/* steady_state, consistency: what "prepare" does first. The purge is
 * run.sh's (bench_review_fio_pre_sh); the sequential passes are jobs. */
static void prepare_jobs(struct bench_fio_text *j, const struct review_step *s) {
  unsigned passes = s->prepare == REVIEW_PREP_PTS ? 2 : s->prepare == REVIEW_PREP_FILL ? 1 : 0;
  if (s->prepare != REVIEW_PREP_NONE)
    bench_fio_job_comment(j, "prepare: %sthe purge by run.sh", bench_review_prepare_text(s->prepare));
  for (unsigned i = 1; i <= passes; i++) {
    char name[32];
    snprintf(name, sizeof name, "prepare%u", i);
    job_head(j, name, s);
    bench_fio_job_opt(j, "rw", "write");
    bench_fio_job_opt(j, "bs", "128k");
    bench_fio_job_opt(j, "iodepth", "32");
    bench_fio_job_opt(j, "size", "100%%");
  }
}

const char *bench_review_fio_pre_sh(const struct review_step *s) {
  return s->prepare == REVIEW_PREP_NONE ? NULL : bench_review_fio_discard_sh;
}

int bench_review_fio_steady(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                            const struct bench_fio_export_opts *x) {
  (void)p;
  /* the PTS matrix (steady.c), 512 B left out: a 4 KiB-sector drive refuses it */
  static const unsigned mix_read[] = {100, 95, 65, 50, 35, 5, 0};
  static const uint32_t mix_block[] = {1048576, 131072, 65536, 32768, 16384, 8192, 4096};
  char t[32];
  fio_time_str(measure_s(x, s->round_s), t, sizeof t);
  bench_fio_job_comment(j, "step %s: steady state (SNIA PTS), %u rounds of %s, %s each, QD%u T%u", s->id,
                        s->rounds_max, s->matrix ? "the IOPS matrix" : "random write", t, s->qd, s->threads);
  fio_note(j, x, s, "fio cannot stop on the PTS steady-state rule: all %u rounds (rounds_max) are exported; "
           "the analysis judges the window from the logs", s->rounds_max);
  if (s->matrix) fio_note(j, x, s, "the matrix's 512 B points are left out");
  prepare_jobs(j, s);
  for (unsigned r = 1; r <= s->rounds_max; r++) {
    size_t nm = s->matrix ? sizeof mix_read / sizeof mix_read[0] : 1;
    size_t nb = s->matrix ? sizeof mix_block / sizeof mix_block[0] : 1;
    for (size_t m = 0; m < nm; m++)
      for (size_t b = 0; b < nb; b++) {
        char name[64];
        uint32_t block = s->matrix ? mix_block[b] : s->block_bytes;
        unsigned rp = s->matrix ? mix_read[m] : 0;
        if (s->matrix) snprintf(name, sizeof name, "r%02u.R%u.%uK", r, rp, block / 1024);
        else snprintf(name, sizeof name, "r%02u", r);
        job_head(j, name, s);
        rand_job(j, rp == 100 ? "randread" : rp ? "randrw" : "randwrite", block, s->qd, s->threads);
        if (rp && rp < 100) bench_fio_job_opt(j, "rwmixread", "%u", rp);
        bench_fio_job_opt(j, "time_based", "1");
        bench_fio_job_opt(j, "runtime", "%s", t);
      }
  }
  return 0;
}

int bench_review_fio_consistency(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                                 const struct bench_fio_export_opts *x) {
  (void)p;
  char t[32];
  fio_time_str(measure_s(x, s->duration_s), t, sizeof t);
  bench_fio_job_comment(j, "step %s: performance consistency, %s of %u KiB random write, QD%u T%u", s->id, t,
                        s->block_bytes / 1024, s->qd, s->threads);
  prepare_jobs(j, s);
  job_head(j, "write", s);
  rand_job(j, "randwrite", s->block_bytes, s->qd, s->threads);
  bench_fio_job_opt(j, "time_based", "1");
  bench_fio_job_opt(j, "runtime", "%s", t);
  return 0;
}

int bench_review_fio_thermal(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                             const struct bench_fio_export_opts *x) {
  (void)p;
  char bs[32], t[32], cool[32];
  fio_size_str(s->block_bytes, bs, sizeof bs);
  fio_time_str(measure_s(x, s->duration_s), t, sizeof t);
  fio_time_str(s->cool_s, cool, sizeof cool);
  bench_fio_job_comment(j, "step %s: thermal, %gs idle (startdelay), then a sustained sequential write", s->id,
                        s->cool_s);
  fio_note(j, x, s, "fio records no temperature: the write is exported, the temperature series is not "
           "(sample it beside the run, e.g. nvme smart-log)");
  job_head(j, "write", s);
  bench_fio_job_opt(j, "rw", "write");
  bench_fio_job_opt(j, "bs", "%s", bs);
  bench_fio_job_opt(j, "iodepth", "%u", s->qds[0]);
  bench_fio_job_opt(j, "size", "100%%");
  if (s->cool_s > 0) bench_fio_job_opt(j, "startdelay", "%s", cool);
  bench_fio_job_opt(j, "time_based", "1");
  bench_fio_job_opt(j, "runtime", "%s", t);
  if (s->max_bytes)
    bench_fio_job_opt(j, "number_ios", "%" PRIu64,
                      s->max_bytes / s->block_bytes ? s->max_bytes / s->block_bytes : 1);
  return 0;
}

int bench_review_fio_recovery(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                              const struct bench_fio_export_opts *x) {
  char bs[32];
  fio_size_str(s->block_bytes, bs, sizeof bs);
  bench_fio_job_comment(j, "step %s: cache recovery after idle, %u KiB QD%u sequential writes, each after its idle "
                        "(startdelay)", s->id, s->block_bytes / 1024, s->qds[0]);
  fio_note(j, x, s, "approximated: fio cannot stop a write at the SLC cliff, so each write (the exhaust and "
           "one per idle) runs to its bound in full (at least a quarter of the target), going forward through it");
  /* the bound and the forward cursor as recovery.c's, in bytes when the
   * size is known, else in % of the target (the bound: its quarter) */
  uint64_t cap = x->size_bytes, region = 100, bound = 25, cursor;
  if (cap) {
    region = p->set.fill_max_bytes && p->set.fill_max_bytes < cap ? p->set.fill_max_bytes : cap;
    region = bench_review_align_down(region, s->block_bytes);
    bound = s->near_full_bytes > cap / 4 ? s->near_full_bytes : cap / 4;
    if (p->set.fill_max_bytes && bound > p->set.fill_max_bytes / 4) bound = p->set.fill_max_bytes / 4;
    bound = bench_review_align_down(bound > cap ? cap : bound, s->block_bytes);
  } else if (s->near_full_bytes) {
    fio_note(j, x, s, "bound_bytes is not applied without --size (the bound is a quarter of the target)");
  }
  cursor = cap ? bench_review_align_down((uint64_t)((double)region * s->region_offset_pct / 100), s->block_bytes)
               : (uint64_t)s->region_offset_pct;
  for (unsigned i = 0; i <= s->nidles; i++) {
    if (region - cursor < bound) cursor = 0;
    char name[64], off[32], size[32], idle[32];
    if (i) snprintf(name, sizeof name, "idle%gs", s->idles_s[i - 1]);
    else snprintf(name, sizeof name, "exhaust");
    job_head(j, name, s);
    if (cap) {
      fio_size_str(cursor, off, sizeof off);
      fio_size_str(bound, size, sizeof size);
    } else {
      snprintf(off, sizeof off, "%" PRIu64 "%%", cursor);
      snprintf(size, sizeof size, "%" PRIu64 "%%", bound);
    }
    fio_time_str(i ? s->idles_s[i - 1] : 0, idle, sizeof idle);
    /* startdelay even at 0: an idle before it is how the import tells
     * these writes from a fill */
    bench_fio_job_opt(j, "rw", "write");
    bench_fio_job_opt(j, "bs", "%s", bs);
    bench_fio_job_opt(j, "iodepth", "%u", s->qds[0]);
    bench_fio_job_opt(j, "offset", "%s", off);
    bench_fio_job_opt(j, "size", "%s", size);
    bench_fio_job_opt(j, "startdelay", "%s", idle);
    cursor += bound;
  }
  return 0;
}

/* Writes TEXT (LEN bytes) to DIR/NAME atomically. */
static int put_file(const char *dir, const char *name, const char *text, size_t len, struct ssdrev_err *err) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return ssdrev_write_file_atomic(path, text, len, err);
}

/* run.sh's check of $SSDREV_TARGET before fio reads it in filename=${...}:
 * fio expands the variable before it splits the value at ':' and cuts it at
 * ';' or '#' (options.c fio_option_dup_subs, then str_filename_cb), and
 * expands $mb_memory etc. in what it got, so a target holding one of those
 * would have fio write other files than the one named. */
static const char target_check_sh[] =
    "case \"$SSDREV_TARGET\" in\n"
    "*[:\\;#\\$\\\\]* | *[[:cntrl:]]* | [[:space:]]* | *[[:space:]] | -)\n"
    "  echo \"run.sh: SSDREV_TARGET='$SSDREV_TARGET' has a character fio's filename= reads as syntax"
    " (':', ';', '#', '$', '\\\\', a control character, a leading or trailing blank)\" >&2\n"
    "  exit 2 ;;\n"
    "esac";

int bench_method_export_fio_check(const struct bench_fio_export_opts *x, struct ssdrev_err *err) {
  int rc = x->filename ? bench_fio_check_filename(x->filename, "--filename", err) : 0;
  if (!rc && x->ioengine) rc = bench_fio_check_ioengine(x->ioengine, "--ioengine", err);
  return rc;
}

int bench_method_export_fio(const struct bench_fio_export_opts *x, char *summary, size_t slen,
                            struct ssdrev_err *err) {
  if (!x->dir || !*x->dir) return ssdrev_fail(err, -EINVAL, "no output directory given");
  if (x->notes && x->notes_len) x->notes[0] = 0;
  /* the options first: nothing is written for a value fio cannot take */
  int rc = bench_method_export_fio_check(x, err);
  if (rc) return rc;
  struct review_profile p;
  rc = bench_review_profile_load(&p, x->profile_path, 0, x->passes, err);
  if (rc) return rc;
  /* the import command run.sh prints (and the summary): each word quoted
   * for the shell it is pasted into */
  char *imp = NULL;
  size_t implen = 0;
  FILE *cmd = open_memstream(&imp, &implen);
  struct bench_fio_text run;
  if (!cmd) rc = ssdrev_fail(err, -ENOMEM, "out of memory exporting '%s'", x->profile_path);
  if (!rc) rc = bench_fio_text_open(&run, "a shell script", err);
  if (rc) {
    if (cmd) fclose(cmd);
    free(imp);
    bench_review_profile_free(&p);
    return rc;
  }
  bench_fio_sh_code(&run, "#!/bin/sh");
  bench_fio_sh_comment(&run, "Runs the method '%s' (%s) with fio, one job file per step, in order.", p.name,
                       x->profile_path);
  bench_fio_sh_code(&run, "# Generated by `ssdrev method export --fio`; regenerate rather than edit.\n"
                          "# DESTROYS the data on $SSDREV_TARGET. Then import the results with the\n"
                          "# command printed at the end.\nset -e\ncd \"$(dirname \"$0\")\"\n"
                          ": \"${SSDREV_TARGET:?set SSDREV_TARGET to the device or file to test}\"");
  if (!x->filename) bench_fio_sh_code(&run, target_check_sh);
  bench_fio_sh_code(&run, "export SSDREV_TARGET");
  fputs("ssdrev import fio", cmd);
  /* the job files: made in memory first, written once all are made */
  struct { char name[96]; char *text; size_t len; } files[REVIEW_MAX_STEPS] = {{{0}}};
  unsigned nfiles = 0;
  for (unsigned i = 0; !rc && i < p.nsteps; i++) {
    const struct review_step *s = &p.steps[i];
    /* fio cannot discard a device: run.sh does, before the step's jobs */
    const char *pre = s->kind->fio_pre_sh_of ? s->kind->fio_pre_sh_of(s) : s->kind->fio_pre_sh;
    if (pre) {
      bench_fio_sh_comment(&run, "step %s", s->id);
      bench_fio_sh_code(&run, pre); /* a constant of the step kind */
    }
    if (!s->kind->fio) continue;
    struct bench_fio_text j;
    if ((rc = bench_fio_text_open(&j, "a fio job file", err))) break;
    char *fname = files[nfiles].name;
    snprintf(fname, sizeof files[nfiles].name, "%02u-%s.fio", i + 1, s->id); /* ids are [A-Za-z0-9_-] */
    bench_fio_job_comment(&j, "%s: step %s of the method '%s' (%s), generated by ssdrev %s.", fname, s->id, p.name,
                          x->profile_path, SSDREV_VERSION);
    bench_fio_job_global(&j);
    if (x->filename) bench_fio_job_filename(&j, x->filename, "--filename");
    else bench_fio_job_env(&j, "filename", "SSDREV_TARGET");
    bench_fio_job_opt(&j, "ioengine", "%s", x->ioengine ? x->ioengine : "libaio");
    bench_fio_job_opt(&j, "direct", "%d", x->buffered ? 0 : 1);
    if (x->size_bytes) {
      char sz[32];
      fio_size_str(x->size_bytes, sz, sizeof sz);
      bench_fio_job_opt(&j, "filesize", "%s", sz);
    }
    /* random data, as the method writes unless zero_buffers */
    bench_fio_job_flag(&j, p.set.zero_buffers ? "zero_buffers" : "refill_buffers");
    s->kind->fio(&j, &p, s, x);
    rc = bench_fio_text_close(&j, &files[nfiles].text, &files[nfiles].len);
    if (rc) {
      /* the message names the value; say which step and file too */
      char m[sizeof err->msg];
      snprintf(m, sizeof m, "%s", err->msg);
      rc = ssdrev_fail(err, rc, "method '%s': step '%s' (%s): %s", x->profile_path, s->id, fname, m);
      break;
    }
    nfiles++;
    char stem[96], out[120];
    snprintf(stem, sizeof stem, "%.*s", (int)(strlen(fname) - 4), fname);
    snprintf(out, sizeof out, "--output=%s.json", stem);
    const char *argv[] = {"fio", "--output-format=json+", out, fname, NULL};
    bench_fio_sh_cmd(&run, argv);
    /* a step measured in a fill state names it for the import */
    char word[200];
    snprintf(word, sizeof word, "%s.json%s%s", stem, s->state[0] ? ":" : "", s->state);
    fputc(' ', cmd);
    if ((rc = bench_fio_sh_word(cmd, word, "the import argument of a step's state", err))) {
      char m[sizeof err->msg];
      snprintf(m, sizeof m, "%s", err->msg);
      rc = ssdrev_fail(err, rc, "method '%s': step '%s': 'state': %s", x->profile_path, s->id, m);
    }
  }
  fputs(" --out RUN", cmd);
  int cerr = fclose(cmd);
  if (!rc && (cerr || !imp)) rc = ssdrev_fail(err, -ENOMEM, "out of memory exporting '%s'", x->profile_path);
  char *sh = NULL;
  size_t shlen = 0;
  if (!rc) {
    bench_fio_sh_print(&run, "done; import with:");
    char line[4200];
    snprintf(line, sizeof line, "  %s --label 'MY SSD'", imp);
    bench_fio_sh_print(&run, line);
  }
  int src = bench_fio_text_close(&run, &sh, &shlen);
  if (!rc) rc = src;
  if (!rc) rc = ssdrev_mkdirs(x->dir, err);
  for (unsigned i = 0; !rc && i < nfiles; i++) rc = put_file(x->dir, files[i].name, files[i].text, files[i].len, err);
  if (!rc) {
    /* executable before it is renamed into place: a chmod of the path after
     * the rename would follow whatever stands there by then */
    char path[4200];
    snprintf(path, sizeof path, "%s/run.sh", x->dir);
    struct ssdrev_atomic a;
    rc = ssdrev_atomic_open(&a, path, err);
    if (!rc && fchmod(fileno(a.f), 0755)) rc = ssdrev_fail(err, -errno, "cannot make '%s' executable", path);
    if (!rc && ssdrev_atomic_write(&a, sh, shlen)) rc = ssdrev_atomic_fail(&a, err);
    else if (!rc) rc = ssdrev_atomic_commit(&a, err);
    else ssdrev_atomic_abort(&a);
  }
  if (!rc && summary) snprintf(summary, slen, "%u job files and run.sh in '%s'; import with: %s", nfiles, x->dir, imp);
  for (unsigned i = 0; i < nfiles; i++) free(files[i].text);
  free(sh);
  free(imp);
  bench_review_profile_free(&p);
  return rc;
}

/* ------------------------------------------- one job, as the engine runs it */

void bench_review_fio_job(struct bench_fio_text *j, const char *name, const struct bench_job *job, uint64_t cap_bytes,
                          const char *log_prefix) {
  static const char *const rw[2][3] = {{"write", "read", "rw"}, {"randwrite", "randread", "randrw"}};
  int mix = job->read_pct > 0 && job->read_pct < 100;
  char bs[32], off[32], size[32];
  uint64_t span = job->span_bytes ? job->span_bytes
                  : cap_bytes > job->offset_bytes ? cap_bytes - job->offset_bytes : 0;
  unsigned threads = job->threads ? job->threads : 1;
  /* a sequential job splits its span between its threads, as the native
   * runner does: clone k starts k spans/threads in */
  uint64_t per = job->pattern == BENCH_SEQ && threads > 1
                     ? bench_review_align_down(span / threads, job->block_bytes ? job->block_bytes : 1)
                     : span;
  fio_size_str(job->block_bytes, bs, sizeof bs);
  fio_size_str(job->offset_bytes, off, sizeof off);
  fio_size_str(per, size, sizeof size);
  bench_fio_job_section(j, name);
  bench_fio_job_opt(j, "rw", "%s", rw[job->pattern == BENCH_RAND][mix ? 2 : job->read_pct == 100]);
  if (mix) bench_fio_job_opt(j, "rwmixread", "%u", job->read_pct);
  bench_fio_job_opt(j, "bs", "%s", bs);
  bench_fio_job_opt(j, "iodepth", "%u", job->qd ? job->qd : 1);
  bench_fio_job_opt(j, "offset", "%s", off);
  bench_fio_job_opt(j, "size", "%s", size);
  if (threads > 1) {
    bench_fio_job_opt(j, "numjobs", "%u", threads);
    bench_fio_job_opt(j, "group_reporting", "1");
    if (per != span) {
      char inc[32];
      fio_size_str(per, inc, sizeof inc);
      bench_fio_job_opt(j, "offset_increment", "%s", inc);
    }
  }
  if (job->pattern == BENCH_RAND) bench_fio_job_opt(j, "norandommap", "1"); /* offsets drawn independently, as ssdrev's */
  if (job->measure_ns) {
    /* the ramp is the run's start: its I/Os are logged and flagged on
     * import (fio's ramp_time would log none of them) */
    uint64_t ms = (job->ramp_ns + job->measure_ns + 999999) / 1000000;
    bench_fio_job_opt(j, "time_based", "1");
    bench_fio_job_opt(j, "runtime", "%" PRIu64 "ms", ms ? ms : 1);
  } else if (job->size_bytes && job->size_bytes != span) {
    /* fio's io_size and number_ios are per clone (numjobs), ssdrev's
     * size and I/O count are the job's, shared by its threads */
    char io[32];
    fio_size_str(job->size_bytes / threads, io, sizeof io);
    bench_fio_job_opt(j, "io_size", "%s", io);
  }
  /* a time-based job may stop earlier at its I/O count (thermal's max_bytes) */
  if (job->max_ios) bench_fio_job_opt(j, "number_ios", "%" PRIu64, (job->max_ios + threads - 1) / threads);
  if (job->zero_buffers) bench_fio_job_opt(j, "zero_buffers", "1");
  if (job->wait == BENCH_WAIT_IOPOLL) bench_fio_job_opt(j, "hipri", "1");
  bench_fio_job_opt(j, "randseed", "%" PRIu64, job->seed);
  bench_fio_job_opt(j, "write_lat_log", "%s", log_prefix);
  bench_fio_job_opt(j, "log_avg_msec", "0");
  bench_fio_job_opt(j, "log_offset", "1");
}
