/* analyze.h — ssdrev's analysis stage: reads run archives and logs as streams
 * and writes results (analysis.json, docs/archive.md) into the archive.
 * Library rules as in bench.h: return 0 or a negative errno, fill the
 * optional struct ssdrev_err, never print or exit. */
#ifndef SSDREV_ANALYZE_H
#define SSDREV_ANALYZE_H

#include "bench/bench.h"

/* Default percentile list: 50, 90, 99, 99.9, 99.99, 99.999. */
#define ANALYZE_MAX_PCTS 32

struct analyze_opts {
  double pcts[ANALYZE_MAX_PCTS]; /* percentiles to report */
  unsigned npcts;                /* 0 = the default list */
  double interval_s;             /* time-series interval (default 1 s) */
  int salvage;                   /* skip corrupt log chunks */
};
void analyze_opts_defaults(struct analyze_opts *o);

/* Analyzes every test of the run in DIR and writes DIR/analysis.json
 * atomically. *out (if non-NULL) receives the analysis object (caller
 * json_decref's it). */
int analyze_run(const char *dir, const struct analyze_opts *o, json_t **out,
                struct ssdrev_err *err);

#endif
