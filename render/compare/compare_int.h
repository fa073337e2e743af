/* render/compare/compare_int.h — batch compare internals shared by render/compare/. */
#ifndef SSDREV_RENDER_COMPARE_INT_H
#define SSDREV_RENDER_COMPARE_INT_H

#include "render/render.h"

struct cmp_run {
  const char *dir;
  json_t *analysis, *manifest; /* owned; NULL when the run is skipped */
  char err[1024];              /* why the run is skipped; empty if usable */
  char warn[1024];             /* some tests unreadable; empty if none */
  int analyzed;                /* analysis.json was (re)computed now */
  char model[128], firmware[64], state[64], label[128];
  size_t group;                /* index into cmp_table.groups */
};

struct cmp_group {
  char model[128], firmware[64], state[64];
  char name[280]; /* "model / firmware / state" */
  size_t nruns;
};

struct cmp_table {
  struct cmp_run **ok;     /* usable runs in input order (borrowed) */
  size_t nok;
  struct cmp_group *groups;
  size_t ngroups;
  size_t baseline_run, baseline_group;
  /* [{"section","key","metric","groups":[{median,min,max,n}|null],"ratios":[x|null]}] */
  json_t *rows;
};

/* Writes the asked formats (render/compare/out.c). */
int render_compare_write_outputs(const struct cmp_table *t, const struct render_cmp_opts *o,
                      struct render_cmp_result *res, struct ssdrev_err *err);

#endif
