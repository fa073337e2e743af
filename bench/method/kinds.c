/* kinds.c — the table of step kinds a method file may name. */
#include <stdio.h>
#include <string.h>
#include "bench/method/review_int.h"

static const struct review_kind *const kinds[] = {
    &bench_review_kind_purge, &bench_review_kind_cdm, &bench_review_kind_prefill, &bench_review_kind_fill_drive,
    &bench_review_kind_rw_sweep, &bench_review_kind_tail, &bench_review_kind_qd_scaling,
    &bench_review_kind_thermal,
    &bench_review_kind_steady_state, &bench_review_kind_consistency,
    &bench_review_kind_cache_recovery,
};

const struct review_kind *bench_review_kind_find(const char *name) {
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (!strcmp(kinds[i]->name, name)) return kinds[i];
  return NULL;
}

size_t bench_review_kind_names(char *buf, size_t len) {
  size_t need = 0;
  if (len) buf[0] = 0;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    const char *sep = i ? ", " : "";
    int n = snprintf(len > need ? buf + need : NULL, len > need ? len - need : 0, "%s%s", sep, kinds[i]->name);
    if (n > 0) need += (size_t)n;
  }
  return need;
}

uint64_t bench_review_step_buffer_bytes(const struct review_step *s) {
  /* the largest job of the step, from the fields the kinds make jobs of:
   * CDM cells, qd or the qds list, threads and block (the PTS matrix goes
   * up to 1 MiB blocks); the 128 KiB QD32 preparing pass and the CDM
   * region's 1 MiB QD8 write are below any limit that matters */
  uint64_t best = 0;
  for (unsigned i = 0; i < s->ncells; i++) {
    const struct review_cell *c = &s->cells[i];
    uint64_t b = bench_job_buffer_bytes(c->block_bytes, (uint64_t)c->qd * c->threads, 0);
    if (b > best) best = b;
  }
  uint64_t qd = s->qd;
  for (unsigned i = 0; i < s->nqds; i++)
    if (s->qds[i] > qd) qd = s->qds[i];
  uint32_t block = s->block_bytes;
  if (s->matrix && block < 1048576) block = 1048576;
  if (qd && block) {
    uint64_t b = bench_job_buffer_bytes(block, qd * (s->threads ? s->threads : 1), 0);
    if (b > best) best = b;
  }
  return best;
}

int bench_review_check_memory(const struct review_profile *p, struct ssdrev_err *err) {
  for (unsigned i = 0; i < p->nsteps; i++) {
    char what[640];
    snprintf(what, sizeof what, "method '%s': step '%s'", p->source, p->steps[i].id);
    int rc = bench_mem_check(bench_review_step_buffer_bytes(&p->steps[i]), what, err);
    if (rc) return rc;
  }
  return 0;
}

/* Every kind of test a run holds; the step kinds above make all but the last two. */
static const struct bench_test_kind test_kinds[] = {
    {"cdm", 0, "state profile cell op pass"},
    {"prefill", BENCH_TK_FILL_TRACE, "fill_pct purpose"},
    {"fill_drive", BENCH_TK_FILL_TRACE, "phase idle_s bound_bytes margin_bytes stopped cache_mb_s_seen post_cache_mb_s_seen full_mb_s_seen"},
    {"rw_sweep", 0, "qd read_pct"},
    {"tail", 0, "workload"},
    {"qd_scaling", 0, "workload qd"},
    {"thermal", 0, "samples sensor_samples smart_thermal"},
    {"cache_recovery", BENCH_TK_FILL_TRACE, "phase idle_s bound_bytes margin_bytes stopped"},
    {"temperature", BENCH_TK_NO_LOG, "samples"},
    {"steady_state", 0, "round tracking read_pct window"},
    {"consistency", BENCH_TK_FINE_SERIES, ""},
    {"job", 0, ""},
};

const struct bench_test_kind *bench_test_kind_find(const char *name) {
  if (!name) name = "job"; /* a test that names no kind is a plain job */
  for (size_t i = 0; i < sizeof test_kinds / sizeof test_kinds[0]; i++)
    if (!strcmp(test_kinds[i].name, name)) return &test_kinds[i];
  return NULL;
}
