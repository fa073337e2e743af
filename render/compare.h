/* compare.h — batch comparison of many run archives (`ssdrev compare`):
 * archives are analyzed in parallel when analysis.json is missing, grouped by
 * DUT model, firmware and fill state, and written as a Markdown table, CSV,
 * bar charts (PNG) and PDF. A bad archive is reported and skipped.
 * Library rules as in bench.h. */
#ifndef SSDREV_RENDER_COMPARE_H
#define SSDREV_RENDER_COMPARE_H

#include "render/render.h"

enum render_cmp_format {
  RENDER_CMP_MD = 1u << 0,
  RENDER_CMP_CSV = 1u << 1,
  RENDER_CMP_PDF = 1u << 2,
  RENDER_CMP_CHARTS = 1u << 3, /* PNG bar charts (also linked from the Markdown) */
};

struct render_cmp_opts {
  const char *out_dir;   /* created if needed */
  unsigned formats;      /* RENDER_CMP_* mask; 0 = md, csv, charts */
  unsigned jobs;         /* analysis threads; 0 = 2 */
  const char *baseline;  /* run directory (as given or its base name) or label; NULL = the first run */
  int reanalyze;         /* analyze even when analysis.json exists */
  unsigned max_charts;   /* bar charts to draw; 0 = 12 */
};
void render_cmp_opts_defaults(struct render_cmp_opts *o);

/* Parses "md,csv,pdf,charts" into a RENDER_CMP_* mask. */
int render_cmp_formats_parse(const char *list, unsigned *mask, struct ssdrev_err *err);

/* Expands the inputs: a directory with manifest.json is a run; any other
 * directory is searched one level deep for runs (sorted by name). Returns a
 * malloc'd array of malloc'd paths in *dirs. Entries that are not runs are
 * reported through `skip` (may be NULL) and left out. */
typedef void (*render_cmp_skip_fn)(const char *path, const char *reason, void *arg);
int render_cmp_expand(const char *const *inputs, size_t n, char ***dirs, size_t *ndirs,
                      render_cmp_skip_fn skip, void *arg, struct ssdrev_err *err);
void render_cmp_free_dirs(char **dirs, size_t n);

struct render_cmp_result {
  size_t runs_ok;       /* archives compared */
  size_t runs_skipped;  /* bad archives, reported through skip */
  size_t groups;
  size_t metrics;
  size_t charts;
};

/* Compares the runs in dirs and writes the asked outputs into o->out_dir
 * (compare.md, compare.csv, runs.csv, PNG charts in charts/, compare.pdf). Each bad
 * archive goes to skip(path, reason) and the rest proceed; fails only when no
 * archive is usable or an output cannot be written. */
int render_cmp_run(char *const *dirs, size_t n, const struct render_cmp_opts *o,
                   render_cmp_skip_fn skip, void *arg, struct render_cmp_result *res,
                   struct ssdrev_err *err);

#endif
