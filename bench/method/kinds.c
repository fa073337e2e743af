/* kinds.c — the table of step kinds a method file may name. */
#include <string.h>
#include "bench/method/review_int.h"

static const struct review_kind *const kinds[] = {
    &bench_review_kind_purge, &bench_review_kind_cdm, &bench_review_kind_prefill, &bench_review_kind_fill_drive,
    &bench_review_kind_rw_sweep, &bench_review_kind_tail, &bench_review_kind_qd_scaling,
};

const struct review_kind *bench_review_kind_find(const char *name) {
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (!strcmp(kinds[i]->name, name)) return kinds[i];
  return NULL;
}
