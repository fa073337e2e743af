/* analyze.h — ssdrev's analysis stage: reads run archives and logs as streams
 * and writes results (analysis.json, docs/archive.md) into the archive.
 * Library rules as in bench.h: return 0 or a negative errno, fill the
 * optional struct ssdrev_err, never print or exit.
 *
 * Layers, bottom up:
 *   1. exact percentiles (an accumulator with bounded memory, and helpers
 *      over an array or a log),
 *   2. per-test stats over one log (per op, time series, fill trace),
 *   3. the SLC cache estimate from a fill trace (change points),
 *   4. whole-run analysis (analysis.json), bottleneck flags, compare,
 *   5. table / CSV output of an analysis object. */
#ifndef SSDREV_ANALYZE_H
#define SSDREV_ANALYZE_H

#include "log/ssdlog.h"
#include "archive/archive.h"

/* ============================================================ options */

/* Default percentile list: 50, 90, 99, 99.9, 99.99, 99.999. */
#define ANALYZE_MAX_PCTS 32
/* A percentile resting on fewer samples at or beyond it gets a warning. */
#define ANALYZE_PCT_MIN_SAMPLES 10

struct analyze_opts {
  double pcts[ANALYZE_MAX_PCTS]; /* percentiles to report, each in (0, 100] */
  unsigned npcts;                /* 0 = the default list */
  double interval_s;             /* time-series interval (default 1 s) */
  int salvage;                   /* skip corrupt log chunks */
  unsigned threads;              /* threads: analyze_log_percentiles splits a log, analyze_run
                                    analyzes tests in parallel (0 = online CPUs, max 16) */
  double slc_min_seg_gib;        /* SLC change points: minimum segment (0 = three segmentation points) */
  double fill_step_gib;          /* SLC trace resolution (0 = 1/256 GiB) */
  double fine_interval_s;        /* the fine series' interval (0 = 0.1 s; ANALYZE_WANT_SERIES_FINE) */
  /* analyze_run of a run another process writes: how long to wait for its
   * lock (all zero: fail at once with -EBUSY) */
  struct archive_lock_wait lock_wait;
  /* analyze_run: the analysis is only returned, analysis.json not written
   * and no lock taken (the review's closing summary: the archive stays as
   * the review left it) */
  int no_write;
};
void analyze_opts_defaults(struct analyze_opts *o);
/* Parses "50,90,99.9" into o->pcts; fails naming the bad item. */
int analyze_parse_pcts(struct analyze_opts *o, const char *list, struct ssdrev_err *err);

/* ============================================== 1. exact percentiles */

/* Nearest rank: for p in (0, 100] and n samples, rank = ceil(p/100 * n)
 * (1-based) in the sorted samples, evaluated step by step in IEEE double
 * exactly as numpy.percentile(..., method='inverted_cdf') does, so results
 * are identical to numpy's even where binary rounding makes them differ
 * from exact decimal arithmetic (p = 99.9, n = 10^6 gives rank 999001). */
uint64_t analyze_pct_rank(double p, uint64_t n);

struct analyze_pct_result {
  double p;               /* requested percentile */
  uint64_t rank;          /* 1-based nearest rank (0 when there are no samples) */
  uint64_t value;         /* the sample at that rank (ns for latencies) */
  uint64_t at_or_beyond;  /* samples >= value */
  int warn;               /* at_or_beyond < ANALYZE_PCT_MIN_SAMPLES */
};

/* An exact percentile accumulator over uint64 values. Memory is bounded
 * (at most ~200 MiB however many values; a few MiB for realistic latencies)
 * and independent of the number of values: values below 2^24 are counted
 * exactly in lazily allocated blocks; larger ones on a log-linear grid that
 * a refinement pass over the same values narrows to width 1 when a
 * requested rank falls there. */
struct analyze_pct;
int analyze_pct_new(struct analyze_pct **p);
void analyze_pct_free(struct analyze_pct *p);
/* Adds values (pass 1). Allocation failures are remembered and reported
 * by analyze_pct_plan. */
void analyze_pct_add(struct analyze_pct *p, const uint64_t *v, size_t n);
void analyze_pct_add1(struct analyze_pct *p, uint64_t v);
/* dst += src (both in pass 1; src's internal counters are reorganized). */
int analyze_pct_merge(struct analyze_pct *dst, struct analyze_pct *src);
uint64_t analyze_pct_count(const struct analyze_pct *p);
/* Sets the requested percentiles and finds their ranks. Returns 0 when all
 * answers are exact, 1 when another pass over the same values is needed
 * (feed every value again with analyze_pct_refine_add, then call
 * analyze_pct_refine_end, which again returns 0, 1 or a negative errno),
 * or a negative errno. */
int analyze_pct_plan(struct analyze_pct *p, const double *pcts, unsigned npcts,
                     struct ssdrev_err *err);
void analyze_pct_refine_add(struct analyze_pct *p, const uint64_t *v, size_t n);
int analyze_pct_refine_end(struct analyze_pct *p, struct ssdrev_err *err);
/* After plan returned 0: the answers, in the requested order (npcts items). */
void analyze_pct_results(const struct analyze_pct *p, struct analyze_pct_result *out);

/* Exact percentiles of an array (not modified). */
int analyze_percentiles(const uint64_t *v, size_t n, const double *pcts, unsigned npcts,
                        struct analyze_pct_result *out, struct ssdrev_err *err);

/* Latency percentiles of a log: measured (non-ramp) I/Os with status 0 of
 * op `op` (enum ssdlog_op) or of every op when op < 0. *n_out (optional)
 * receives the sample count. Reads only the columns it needs, in parallel
 * (o->threads), with as many passes as needed (one for realistic logs). */
int analyze_log_percentiles(const char *path, int op, const struct analyze_opts *o,
                            struct analyze_pct_result *out, uint64_t *n_out,
                            struct ssdrev_err *err);

/* =========================================== 2. per-test stats, series */

enum analyze_log_want {
  ANALYZE_WANT_SERIES = 1u << 0, /* per-interval series */
  ANALYZE_WANT_FILL = 1u << 1,   /* per-GiB-of-offset trace + SLC estimate */
  ANALYZE_WANT_SERIES_FINE = 1u << 2, /* a second series ("series_fine") at fine_interval_s */
  ANALYZE_WANT_SERIES_EXACT = 1u << 3, /* the series' per-interval p50 / p99 exact, and p99.9 */
};

/* The latency histogram of each test ("hist"): log-spaced bins,
 * ANALYZE_HIST_PER_DECADE per decade from 1 µs; bin 0 holds everything up
 * to 1 µs, the last everything from 10^(99/20) µs (about 89 ms) up. */
#define ANALYZE_HIST_PER_DECADE 20
#define ANALYZE_HIST_BINS (5 * ANALYZE_HIST_PER_DECADE)

/* Analyzes one log in one pass (plus a refinement pass only when a requested
 * percentile lies above 16.7 ms): *out receives (new reference, caller
 * json_decref's it) an object shaped like one entry of analysis.json "tests"
 * without the kind keys (docs/archive.md):
 *   {"ops": {"all": STATS, "read": STATS, "write": STATS},
 *    "hist": {"per_decade", "lo_us", "first_bin", "counts": [...]},
 *    "series": {...} (WANT_SERIES), "warnings": [...],
 *    "fill": {"per_gib": {...}, "trace": {...}, "slc": {...}} (WANT_FILL),
 *    "log": {"records", "measured", "ramp", "chunks", "skipped_chunks", "truncated"}}
 * Ops without I/O are left out ("all" is always there). o may be NULL
 * (defaults). Fails, naming the file, when the log cannot be read. */
int analyze_log(const char *path, const struct analyze_opts *o, unsigned want, json_t **out,
                struct ssdrev_err *err);

/* A fill from a rate trace instead of a log (a fio bandwidth log averaged
 * over windows): t_s[i] ends window i (the first is first_s long), mb_s[i]
 * its speed. The windows are resampled into equal steps of bytes (time
 * interpolated inside each window) and *out receives a new "fill" object as
 * analyze_log makes one (per_gib and trace without latencies, slc). Fails
 * when the times go back or a speed is negative. */
int analyze_rate_fill(const double *t_s, const double *mb_s, size_t n, double first_s, const struct analyze_opts *o,
                      json_t **out, struct ssdrev_err *err);

/* ====================================================== 3. SLC cache */

/* struct ssdrev_slc and its rule: base/ssdrev.h (base/slc.c). */
/* Estimates the SLC cache from a trace: gib[i] is the GiB written at the end
 * of point i (increasing, equal steps), mb_s[i] the speed over that point.
 * Change points by binary segmentation on the mean (fine points merged to
 * at most 2048) with a BIC-style penalty from a robust noise estimate and a
 * minimum segment of min_seg_gib (0: three points); levels and cliffs by the
 * evidence rules of docs/flags.md; each cliff placed on the fine trace by
 * the time the points around it took. */
int analyze_slc_estimate(const double *gib, const double *mb_s, size_t n, double min_seg_gib,
                         struct ssdrev_slc *out, struct ssdrev_err *err);
/* The same for a trace whose clock is coarse: no level (the cache included)
 * shorter than min_level_s seconds (1.5 windows of a bandwidth log: the
 * window holding a cliff is at most one window long). */
int analyze_slc_estimate_ex(const double *gib, const double *mb_s, size_t n, double min_seg_gib, double min_level_s,
                            struct ssdrev_slc *out, struct ssdrev_err *err);
json_t *analyze_slc_to_json(const struct ssdrev_slc *s, double min_seg_gib);

/* ========================================= 4. run, flags, compare */

/* Analyzes every test of the run in DIR and writes DIR/analysis.json
 * atomically, holding the archive's writer lock (archive_open_write_wait
 * with o->lock_wait: fails with -EBUSY while another process writes the
 * run, at once or after the wait). *out (if non-NULL) receives the analysis
 * object (caller json_decref's it). Returns 0 when analysis.json was
 * written, or ANALYZE_RUN_IN_MEMORY for a read-only archive (a read-only
 * mount, a directory this user may not write: the lock file or
 * analysis.json cannot be made, EROFS or EACCES): the run is analyzed
 * without the lock (no writer can change it), *out is the analysis,
 * nothing is written, and err says why ("'DIR' is read-only (...): analyzed
 * in memory, analysis.json not written"). Otherwise a negative errno. */
#define ANALYZE_RUN_IN_MEMORY 1
int analyze_run(const char *dir, const struct analyze_opts *o, json_t **out,
                struct ssdrev_err *err);

/* What an analysis holds beyond format_version 1's keys, recorded in
 * analysis.json as "content_version": 2 added the per-test latency
 * histogram ("hist"); 3: finer series and per-GiB steps for short fills,
 * the per-interval p99.9 and 100 ms series, the levels' evidence rules and
 * the new steps' analyses (cache_recovery, steady_state, consistency,
 * thermal). */
#define ANALYZE_CONTENT_VERSION 3
/* The one staleness rule: 1 when ANALYSIS (may be NULL) is an ssdrev
 * analysis made from the manifest whose CRC32C is MANIFEST_CRC32C (as
 * archive_open read it) by an analyzer of the current content version;
 * 0 when it must be made again (analyze_run). */
int analyze_is_fresh(const json_t *analysis, uint32_t manifest_crc32c);

/* Evaluates every rule of docs/flags.md on an analysis object (cdm, fill,
 * rw_sweep, tail, qd_scaling, temperature, tests, dut) and returns a new array of
 * {"id", "severity", "message", "numbers"}. */
json_t *analyze_flags(const json_t *analysis);

/* Compares N analysis objects (the first is the baseline): returns a new
 * object {"labels": [...], "rows": [{"section", "key", "metric",
 * "values": [...], "ratios": [...]}]} with one row per CDM cell and op,
 * tail percentile, SLC figure and test MB/s; ratios are value / baseline
 * (null when either is missing or the baseline is 0). */
json_t *analyze_compare(const json_t *const *analyses, size_t n, struct ssdrev_err *err);

/* One comparable figure of a run, as analyze_compare_figures reports it.
 * The strings are valid during the callback only. */
struct analyze_figure {
  const char *family; /* "cdm", "slc", "rw_sweep", "qd", "steady", "consistency", "thermal", "recovery", "tail", "tests" */
  const char *key;    /* "FOB default SEQ1M Q8T1", "QD1", "read", a test name */
  const char *metric; /* "read_mb_s", "p99_us", "max_gib", "read70_mb_s", ... */
  const char *unit;   /* "MB/s", "IOPS", "us", "GiB", "%", "°C" */
  int headline;       /* a figure a comparison charts */
  int higher_better;  /* 1: more is better (MB/s, IOPS, GiB); 0: less (latency) */
  double value;       /* >= 0: the analysis's -1 ("not measured") is never reported */
};
/* Calls fn for every comparable figure of one analysis object (CDM cells
 * and ops, SLC sizes and speeds, RW-sweep points, tail percentiles, job
 * tests), in a fixed order. Stops at fn's first non-zero return and returns
 * it; 0 otherwise. Keeps nothing: a caller may free the analysis after. */
typedef int (*analyze_figure_fn)(const struct analyze_figure *f, void *arg);
int analyze_compare_figures(const json_t *analysis, analyze_figure_fn fn, void *arg);

/* ======================================================== 5. output */

/* Prints an analysis object as text, summary first: the CDM table, the
 * RW-ratio sweep, the SLC cache, tail latency and flags; then the per-test
 * statistics of tests no summary table covers (kind "job", imports) and the
 * warnings other than sample counts, which are counted in one line.
 * ANALYZE_TABLE_VERBOSE prints every test's statistics and every warning. */
enum { ANALYZE_TABLE_VERBOSE = 1 };
int analyze_print_table(FILE *f, const json_t *analysis, unsigned flags);
/* Writes one CSV row per test and op (test, kind, op, ios, ..., p<N>_us)
 * with libcsv quoting. */
int analyze_write_csv(FILE *f, const json_t *analysis);

#endif
