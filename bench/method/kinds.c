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

/* Every kind of test a run holds; the step kinds above make all but the last two. */
static const struct bench_test_kind test_kinds[] = {
    {"cdm", 0, "state profile cell op pass"},
    {"prefill", BENCH_TK_FILL_TRACE, "fill_pct purpose"},
    {"fill_drive", BENCH_TK_FILL_TRACE, "phase idle_s bound_bytes margin_bytes stopped cache_mb_s_seen post_cache_mb_s_seen"},
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
