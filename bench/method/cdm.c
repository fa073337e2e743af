/* cdm.c — the CrystalDiskMark-compatible step: a 1 GiB region written
 * once (CrystalDiskMark's test file), then, as its DiskBench.cpp does, every
 * cell's read test, then every cell's write test (then mix): each test is
 * one discarded preparing pass (pass 0) and N measured passes, all
 * time-based (measure_s) and back to back; the drive idles interval_s
 * between two tests, not between the passes of one. Reporting (max MB/s, min mean latency over the
 * passes, IOPS = MB/s x 10^6 / block) is the analysis' job; every pass is a
 * test entry with its own raw log. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "bench/method/review_int.h"

/* Parses "SEQ1M Q8T1" / "RND4K Q32T16" (CrystalDiskMark's names). */
static int cell_from_name(struct review_cell *c, const char *name) {
  memset(c, 0, sizeof *c);
  if (strlen(name) >= sizeof c->name) return -EINVAL;
  snprintf(c->name, sizeof c->name, "%s", name);
  const char *s = name;
  if (!strncmp(s, "SEQ", 3)) c->pattern = BENCH_SEQ;
  else if (!strncmp(s, "RND", 3)) c->pattern = BENCH_RAND;
  else return -EINVAL;
  s += 3;
  char *end;
  unsigned long n = strtoul(s, &end, 10);
  if (end == s || n == 0) return -EINVAL;
  uint64_t mult = *end == 'K' ? 1024 : *end == 'M' ? 1048576 : 0;
  if (!mult || end[1] != ' ' || end[2] != 'Q') return -EINVAL;
  c->block_bytes = (uint32_t)(n * mult);
  s = end + 3;
  unsigned long qd = strtoul(s, &end, 10);
  if (end == s || *end != 'T' || qd == 0 || qd > 4096) return -EINVAL;
  s = end + 1;
  unsigned long th = strtoul(s, &end, 10);
  if (end == s || *end || th == 0 || th > 256) return -EINVAL;
  c->qd = (unsigned)qd;
  c->threads = (unsigned)th;
  return 0;
}

static const char *const cell_keys[] = {"name", "pattern", "block", "qd", "threads", NULL};

static int parse_cell(struct review_cell *c, const json_t *v, const char *where,
                      struct ssdrev_err *err) {
  if (json_is_string(v)) {
    if (cell_from_name(c, json_string_value(v)))
      return ssdrev_fail(err, -EINVAL,
                         "%s: cell '%s' is not like \"SEQ1M Q8T1\" or \"RND4K Q32T16\"", where,
                         json_string_value(v));
    return 0;
  }
  if (!json_is_object(v))
    return ssdrev_fail(err, -EINVAL, "%s: a cell is a name (\"SEQ1M Q8T1\") or an object", where);
  const char *key;
  json_t *x;
  json_object_foreach((json_t *)v, key, x) {
    int ok = 0;
    for (const char *const *k = cell_keys; *k && !ok; k++) ok = !strcmp(*k, key);
    if (!ok) return ssdrev_fail(err, -EINVAL, "%s: unknown cell key '%s'", where, key);
  }
  memset(c, 0, sizeof *c);
  int rc = bench_review_json_str(v, "name", c->name, sizeof c->name, where, err);
  if (rc) return rc;
  const char *pat = json_string_value(json_object_get(v, "pattern"));
  if (!c->name[0] || !pat || (strcmp(pat, "seq") && strcmp(pat, "rand")))
    return ssdrev_fail(err, -EINVAL, "%s: a cell object needs 'name' and 'pattern' (\"seq\" or \"rand\")", where);
  c->pattern = strcmp(pat, "seq") ? BENCH_RAND : BENCH_SEQ;
  uint64_t block = 0;
  c->qd = c->threads = 1;
  rc = bench_review_json_size(v, "block", &block, where, err);
  if (!rc) rc = bench_review_json_uint(v, "qd", 1, 4096, &c->qd, where, err);
  if (!rc) rc = bench_review_json_uint(v, "threads", 1, 256, &c->threads, where, err);
  if (rc) return rc;
  if (block < 512 || block > (64u << 20) || block % 512)
    return ssdrev_fail(err, -EINVAL, "%s: cell '%s': 'block' must be a multiple of 512 up to 64 MiB",
                       where, c->name);
  c->block_bytes = (uint32_t)block;
  return 0;
}

/* Parses a cell list (a step's "cells" or a cdm_profiles entry, named by
 * WHERE) into S->cells. */
static int parse_cells(struct review_step *s, const json_t *cells, const char *where, struct ssdrev_err *err) {
  if (!json_is_array(cells) || json_array_size(cells) == 0 || json_array_size(cells) > REVIEW_MAX_CELLS)
    return ssdrev_fail(err, -EINVAL, "%s: must be an array of 1 to %d cells", where, REVIEW_MAX_CELLS);
  for (size_t i = 0; i < json_array_size(cells); i++) {
    int rc = parse_cell(&s->cells[i], json_array_get(cells, i), where, err);
    if (rc) return rc;
    s->ncells = (unsigned)i + 1;
  }
  return 0;
}

int bench_review_cdm_profiles_check(const json_t *profiles, const char *where, struct ssdrev_err *err) {
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)profiles, key, v) {
    char w2[700];
    snprintf(w2, sizeof w2, "%s: cdm_profiles.%s", where, key);
    struct review_step scratch;
    int rc = parse_cells(&scratch, v, w2, err);
    if (rc) return rc;
  }
  return 0;
}

static const char *const cdm_keys[] = {"state", "profile", "cells", "ops", "mix_read_pct",
                                       "region_offset_pct", NULL};

static int cdm_parse(struct review_step *s, const json_t *obj, const struct review_profile *p,
                     const char *where, struct ssdrev_err *err) {
  snprintf(s->state, sizeof s->state, "FOB");
  snprintf(s->cdm_profile, sizeof s->cdm_profile, "custom");
  s->mix_read_pct = 70; /* CrystalDiskMark's Mix default */
  int rc = bench_review_json_str(obj, "state", s->state, sizeof s->state, where, err);
  if (!rc) rc = bench_review_json_str(obj, "profile", s->cdm_profile, sizeof s->cdm_profile, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "mix_read_pct", 0, 100, &s->mix_read_pct, where, err);
  if (!rc) rc = bench_review_json_region(obj, s, 0, where, err);
  if (rc) return rc;
  const json_t *cells = json_object_get(obj, "cells");
  char w2[700];
  if (!cells) {
    cells = json_object_get(json_object_get(p->json, "cdm_profiles"), s->cdm_profile);
    if (!cells)
      return ssdrev_fail(err, -EINVAL, "%s: no 'cells' and no cdm_profiles entry '%s'", where,
                         s->cdm_profile);
    snprintf(w2, sizeof w2, "%s: cdm_profiles.%s", where, s->cdm_profile);
  } else {
    snprintf(w2, sizeof w2, "%s: cells", where);
  }
  if ((rc = parse_cells(s, cells, w2, err))) return rc;
  const json_t *ops = json_object_get(obj, "ops");
  if (!ops) {
    s->ops = REVIEW_OP_READ | REVIEW_OP_WRITE;
    return 0;
  }
  if (!json_is_array(ops) || json_array_size(ops) == 0)
    return ssdrev_fail(err, -EINVAL, "%s: 'ops' must be a non-empty array of \"read\", \"write\", \"mix\"", where);
  for (size_t i = 0; i < json_array_size(ops); i++) {
    const char *op = json_string_value(json_array_get(ops, i));
    unsigned m = !op ? 0 : !strcmp(op, "read") ? REVIEW_OP_READ : !strcmp(op, "write") ? REVIEW_OP_WRITE
               : !strcmp(op, "mix") ? REVIEW_OP_MIX : 0;
    if (!m) return ssdrev_fail(err, -EINVAL, "%s: ops[%zu] must be \"read\", \"write\" or \"mix\"", where, i);
    s->ops |= m;
  }
  return 0;
}

static unsigned nops(unsigned ops) {
  return !!(ops & REVIEW_OP_READ) + !!(ops & REVIEW_OP_WRITE) + !!(ops & REVIEW_OP_MIX);
}

/* The test region: the method's region_bytes at region_offset_pct. */
static void cdm_region(const struct review_profile *p, const struct review_step *s,
                       uint64_t cap, uint64_t *off, uint64_t *len) {
  bench_review_region(cap, s->region_offset_pct, p->set.region_bytes, off, len);
}

/* CrystalDiskMark's order of ops: every cell's read, then write, then mix */
static const struct { unsigned mask; const char *name; } op_table[] = {
    {REVIEW_OP_READ, "read"}, {REVIEW_OP_WRITE, "write"}, {REVIEW_OP_MIX, "mix"}};

static unsigned op_read_pct(const struct review_step *s, unsigned mask) {
  return mask == REVIEW_OP_READ ? 100 : mask == REVIEW_OP_WRITE ? 0 : s->mix_read_pct;
}

/* The region's write, then each test: (1 + passes) passes of measure_s of
 * its cell and op, after the interval (not before the first test). */
static double cdm_estimate(const struct review_profile *p, const struct review_step *s,
                           uint64_t cap, enum review_basis basis) {
  uint64_t off, len;
  cdm_region(p, s, cap, &off, &len);
  double t = bench_review_seq_write_cost(p, basis, len, 1048576, 8, 0);
  unsigned tests = 0;
  for (size_t k = 0; k < sizeof op_table / sizeof op_table[0]; k++) {
    if (!(s->ops & op_table[k].mask)) continue;
    for (unsigned i = 0; i < s->ncells; i++, tests++) {
      const struct review_cell *cell = &s->cells[i];
      struct review_load l = {.pattern = cell->pattern, .read_pct = op_read_pct(s, op_table[k].mask),
                              .block_bytes = cell->block_bytes, .depth = cell->qd * cell->threads,
                              .busy_s = p->set.measure_s};
      t += (p->set.passes + 1) * bench_review_cost(p, basis, &l);
      l.busy_s = 0;
      l.idle_s = tests ? p->set.interval_s : 0;
      t += bench_review_cost(p, basis, &l);
    }
  }
  return t;
}

static void cdm_describe(const struct review_profile *p, const struct review_step *s,
                         uint64_t cap, char *buf, size_t len) {
  uint64_t off, rlen;
  cdm_region(p, s, cap, &off, &rlen);
  snprintf(buf, len, "CDM %s at %s: %u cells x %u ops x (1+%u) passes of %gs, %gs between tests, %" PRIu64 " MiB region",
           s->cdm_profile, s->state, s->ncells, nops(s->ops), p->set.passes, p->set.measure_s,
           p->set.interval_s, rlen >> 20);
}

static void cell_slug(const char *name, char *out, size_t len) {
  size_t i = 0;
  for (; name[i] && i + 1 < len; i++) out[i] = name[i] == ' ' ? '_' : name[i];
  out[i] = 0;
}

static int cdm_run(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  const struct review_settings *set = &c->prof->set;
  uint64_t off, len;
  cdm_region(c->prof, s, c->cap_bytes, &off, &len);
  uint32_t max_block = 0;
  for (unsigned i = 0; i < s->ncells; i++)
    if (s->cells[i].block_bytes > max_block) max_block = s->cells[i].block_bytes;
  if (len < max_block || len < 1048576)
    return ssdrev_fail(err, -ENOSPC, "step '%s': the target (%" PRIu64 " bytes) is too small for a "
                       "CDM region at %g%%", s->id, c->cap_bytes, s->region_offset_pct);

  /* Preparing: CrystalDiskMark writes its test file before measuring, so the
   * reads hit mapped LBAs (an SSD answers unmapped reads without NAND). */
  char name[192];
  struct bench_job job;
  struct bench_job_result res;
  snprintf(name, sizeof name, "%s.prepare", s->id);
  bench_review_job_init(c, &job, name);
  job.pattern = BENCH_SEQ;
  job.read_pct = 0;
  job.block_bytes = 1048576;
  job.qd = 8;
  job.offset_bytes = off;
  job.span_bytes = len;
  json_t *extra = json_pack("{s:f, s:s}", "fill_pct", 100.0 * (double)len / (double)c->cap_bytes,
                            "purpose", "cdm_region");
  int rc = bench_review_run_job(c, name, "prefill", extra, &job,
                          (double)len / (set->plan_write_mb_s * 1e6), &res, err);
  if (rc) return rc;

  unsigned tests_run = 0;
  for (size_t k = 0; k < sizeof op_table / sizeof op_table[0]; k++) {
    if (!(s->ops & op_table[k].mask)) continue;
    for (unsigned i = 0; i < s->ncells; i++) {
      const struct review_cell *cell = &s->cells[i];
      char slug[48];
      cell_slug(cell->name, slug, sizeof slug);
      for (unsigned pass = 0; pass <= set->passes; pass++) {
        snprintf(name, sizeof name, "%s.%s.%s.p%u", s->id, slug, op_table[k].name, pass);
        bench_review_job_init(c, &job, name);
        job.pattern = cell->pattern;
        job.read_pct = op_read_pct(s, op_table[k].mask);
        job.block_bytes = cell->block_bytes;
        job.qd = cell->qd;
        job.threads = cell->threads;
        job.offset_bytes = off;
        job.span_bytes = bench_review_align_down(len, cell->block_bytes);
        /* Time-based: the pass lasts measure_s whatever the region size. */
        job.measure_ns = (uint64_t)(set->measure_s * 1e9);
        job.size_bytes = 0;
        /* CrystalDiskMark's interval: the drive idles between two tests
         * (a sim folds its SLC cache meanwhile); the passes of one test
         * follow each other at once. */
        job.idle_ns = pass == 0 && tests_run > 0 ? (uint64_t)(set->interval_s * 1e9) : 0;
        extra = json_pack("{s:s, s:s, s:s, s:s, s:i}", "state", s->state, "profile",
                          s->cdm_profile, "cell", cell->name, "op", op_table[k].name, "pass",
                          (int)pass);
        rc = bench_review_run_job(c, name, "cdm", extra, &job, set->measure_s, &res, err);
        if (rc) return rc;
      }
      tests_run++;
    }
  }
  return 0;
}

const struct review_kind bench_review_kind_cdm = {
    .name = "cdm",
    .keys = cdm_keys,
    .parse = cdm_parse,
    .estimate = cdm_estimate,
    .describe = cdm_describe,
    .run = cdm_run,
    .fio = bench_review_fio_cdm,
};
