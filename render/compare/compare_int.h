/* render/compare/compare_int.h — batch compare internals shared by render/compare/.
 *
 * Memory: a run keeps only its identity and its figures (struct cmp_val,
 * 16 bytes each); its analysis and manifest are freed as soon as the figures
 * are taken out of them, so a compare of 10,000 archives holds a few MB of
 * figures, not 10,000 analyses (docs/perf/compare.md). */
#ifndef SSDREV_RENDER_COMPARE_INT_H
#define SSDREV_RENDER_COMPARE_INT_H

#include <pthread.h>
#include "render/render.h"

/* One figure kind, shared by every run that has it ("cdm", "FOB default
 * SEQ1M Q8T1", "read_mb_s", "MB/s"). */
struct cmp_fig {
  char *family, *key, *metric, *unit; /* owned */
  int headline, higher_better;
  unsigned family_id; /* index into render_cmp_families */
  unsigned ord;       /* the earliest position a run reports it at: the report order, whatever thread saw it first */
};

/* The interned figure kinds (a jansson object maps "family|key|metric" to
 * the index); add is thread-safe. */
struct cmp_figs {
  struct cmp_fig *v;
  size_t n, cap;
  json_t *index;
  pthread_mutex_t lock;
};
/* Index of the figure kind, added if new; -1 on OOM. */
long render_cmp_figs_add(struct cmp_figs *f, const char *family, const char *key, const char *metric,
                  const char *unit, int headline, int higher_better, unsigned ord);
void render_cmp_figs_free(struct cmp_figs *f);

struct cmp_val {
  uint32_t fig; /* index into cmp_figs.v */
  double v;
};

struct cmp_run {
  const char *dir;             /* borrowed from the caller */
  char *err, *warn;            /* malloc'd: why it is skipped / what is unreadable; NULL if none */
  int analyzed;                /* analysis.json was (re)computed now */
  int busy;                    /* err: its lock was still held by another process after the wait */
  int from_index;              /* identity and figures came from the archive root's index */
  int filtered;                /* left out by --where */
  int simulated;
  char model[128], firmware[64], state[64], label[128], source[16], date[24];
  /* what the method and system table and the runs list show (issue 25):
   * when it was measured (a review's start; an import's measured_at, else
   * its import date: date_kind says which), the method (reference, full,
   * short, import), the engine, ssdrev's version and the kernel (an
   * import: the source's OS when it names one) */
  char measured[24];
  int date_kind;               /* CMP_DATE_* */
  char method[32], engine[16], tool_version[32], kernel[96];
  struct cmp_val *vals;        /* malloc'd, sorted by fig */
  size_t nvals;
  /* a CDM cell's per-pass values (passes >= 1), sorted by fig: each is a
   * sample of its figure in place of the run's best-of-passes value */
  struct cmp_val *pvals;       /* malloc'd */
  size_t npvals;
  size_t group;                /* index into cmp_table.groups */
  long index_root;             /* which index the run belongs to; -1 = none */
  int64_t sig[4];              /* manifest and analysis.json mtime (ns) and size: the index's freshness key */
};

enum { CMP_DATE_RUN = 0, CMP_DATE_MEASURED = 1, CMP_DATE_IMPORTED = 2 };

/* The run facts a group names every value of (what it mixes). */
enum { CMP_MIX_MODEL, CMP_MIX_FIRMWARE, CMP_MIX_STATE, CMP_MIX_METHOD, CMP_MIX_ENGINE, CMP_MIX_VERSION,
       CMP_MIX_KERNEL, CMP_NMIX };
#define CMP_MIX_LEN 200

struct cmp_group {
  char name[400];  /* the --group-by fields joined, as shown */
  char short_name[400]; /* name without the parts every group shares (labels in charts and the overview) */
  /* every distinct value of its runs, ", "-joined in run order ("FW100,
   * FW200"); "…" ends a list that did not fit; "-" for an unknown one */
  char mix[CMP_NMIX][CMP_MIX_LEN];
  unsigned nmix[CMP_NMIX];  /* distinct values listed */
  char first_measured[24], last_measured[24]; /* the runs' measured dates, earliest and latest */
  int any_import_date;      /* a run's date is only its import's */
  char model[128], firmware[64], state[64];
  size_t nruns;
  int simulated;   /* every run is simulated */
  int has_short;   /* a run is a --short one (method "short") */
  int unranked;    /* left out of ranks and scores: has_short beside full groups, without --rank-short */
  size_t nfigs;    /* headline figures with a value (the baseline rule) */
  double score;    /* relative score: geometric mean of median ratios to the baseline (better > 1); NaN: none shared */
  size_t score_n;  /* headline figures the score is over */
  size_t score_rank; /* 1 = best score; 0 = unranked (no score) */
};

/* Spread of one figure in one group (stats.c). */
struct cmp_stat {
  double min, median, max;
  double mean;
  double sd;           /* sample standard deviation (n - 1); NaN at n < 2 */
  double ci_lo, ci_hi; /* 95% Student-t interval of the mean; NaN at n < 2 */
  uint32_t n;          /* 0: the group has no value */
};

/* A group's difference to the baseline in one figure (render_cmp_welch). */
struct cmp_diff {
  int ok;                /* both groups have the figure and the baseline's mean is not 0 */
  double pct;            /* (mean - baseline mean) / |baseline mean| x 100 */
  double lo_pct, hi_pct; /* Welch's 95% interval of the mean difference, same scale; NaN at n < 2 */
  double p;              /* Welch's two-sided p; NaN at n < 2 */
  double df;             /* Welch-Satterthwaite degrees of freedom; NaN at n < 2 or no variance */
  int beyond;            /* beyond the noise: p < 0.05 with n >= 2 in both groups; never at n = 1 */
};

/* Fills st from the n sorted values s: min, median, max, mean, sd and the
 * interval mean +- t975 x sd / sqrt(n), where t975 is the caller's
 * render_cmp_t975(n - 1) (a caller of many groups keeps a table by n). */
void render_cmp_summarize(const double *s, size_t n, double t975, struct cmp_stat *st);
/* The coefficient of variation sd / |mean|; NaN at n < 2 or mean 0. */
double render_cmp_cv(const struct cmp_stat *s);
/* Welch's comparison of x against the baseline b (see struct cmp_diff).
 * Two groups that each repeat one value (sd 0) differ exactly: beyond the
 * noise when the values differ, with p 0 and a zero-width interval. */
void render_cmp_welch(const struct cmp_stat *b, const struct cmp_stat *x, struct cmp_diff *d);
/* Student's t distribution: CDF, the two-sided tail P(|T| > |t|), and the
 * 0.975 quantile (the half-width factor of a 95% interval). */
double render_cmp_t_cdf(double t, double df);
double render_cmp_t_sf2(double t, double df);
double render_cmp_t975(double df);

struct cmp_table {
  struct cmp_run **ok;     /* usable runs in input order (borrowed) */
  size_t nok;
  struct cmp_group *groups;
  size_t ngroups;
  size_t baseline_group;
  struct cmp_figs *figs;
  size_t *order;           /* figure kinds in report order (nfig_order of them) */
  size_t nfig_order;
  struct cmp_stat *stats;  /* [fig * ngroups + group] */
  int lang_ko;
  char common[400];        /* the name parts every group shares (render_cmp_describe_groups) */
};

/* Fills every group's mix lists, measured range and short_name
 * (compare.c; linear in runs). common gets the parts every group's name
 * shares (" · "-joined; "" if none). */
void render_cmp_describe_groups(struct cmp_table *t, char *common, size_t len);

/* ------------------------------------------------------------ families */

struct cmp_family {
  const char *id;       /* as in struct analyze_figure */
  const char *sheet;    /* the xlsx sheet name (English) */
  int title;            /* enum render_cmp_msg: its heading and Korean sheet name */
};
extern const struct cmp_family render_cmp_families[];
extern const size_t render_cmp_nfamilies;

/* ---------------------------------------------------------- strings */

/* Every generated string of the compare report: its rows in the message
 * catalogue (render/msg.c, MSG_CM_* in this order). */
enum render_cmp_msg {
  CM_TITLE, CM_INTRO, CM_BASELINE_IS, CM_BASELINE_RULE_GIVEN, CM_BASELINE_RULE_AUTO, CM_FILTERS,
  CM_NO_FILTERS, CM_GROUPS, CM_RUNS, CM_RUNS_ELIDED, CM_COL_GROUP, CM_COL_MODEL, CM_COL_FIRMWARE,
  CM_COL_STATE, CM_COL_RUNS, CM_COL_LABEL, CM_COL_SOURCE, CM_COL_DATE, CM_COL_SIMULATED, CM_COL_RANK,
  CM_COL_N, CM_COL_MIN, CM_COL_MEDIAN, CM_COL_MAX, CM_COL_RATIO, CM_YES, CM_NO, CM_BASELINE_MARK,
  CM_UNKNOWN_MODEL, CM_UNKNOWN_FIRMWARE, CM_FAM_CDM, CM_FAM_SLC, CM_FAM_RW, CM_FAM_TAIL, CM_FAM_TESTS,
  CM_READ, CM_WRITE, CM_MIX, CM_SLC_MAX, CM_SLC_MIN, CM_SLC_CACHE, CM_SLC_POST, CM_RW_POINT,
  CM_TAIL_W_READ, CM_TAIL_W_MIX, CM_TAIL_W_WRITE, CM_MEAN, CM_MAXLAT, CM_OTHER_FIGS, CM_CHART_TOP,
  CM_HIGHER_BETTER, CM_LOWER_BETTER, CM_SIMULATED_NOTE, CM_SPREAD_NOTE, CM_NO_BASELINE_VALUE,
  CM_SHEET_RUNS, CM_SHEET_GROUPS, CM_LATENCY, CM_TAIL_LAT,
  /* issue 25: statistics, overview and gate */
  CM_OVERVIEW, CM_OVERVIEW_NOTE, CM_OVERVIEW_TOP, CM_COL_TEST, CM_SCORE, CM_SCORE_NOTE, CM_COL_MEAN, CM_COL_SD,
  CM_COL_CV, CM_COL_CI, CM_COL_DIFF, CM_COL_DIFF_CI, CM_COL_P, CM_STATS_NOTE, CM_GATE, CM_GATE_PASS, CM_GATE_FAIL,
  CM_WITHIN_NOISE, CM_BEYOND_NOISE, CM_METHOD_SYSTEM, CM_COL_METHOD, CM_COL_ENGINE, CM_COL_VERSION, CM_COL_KERNEL,
  CM_COL_MEASURED, CM_IMPORT_DATE, CM_COMMON, CM_METHOD_NOTE, CM_XL_RUN, CM_XL_BASELINE, CM_XL_FAMILY,
  CM_XL_METRIC, CM_XL_UNIT, CM_XL_CI_LO, CM_XL_CI_HI, CM_XL_BEYOND, CM_PROF_DEFAULT, CM_PROF_PEAK, CM_PROF_REAL,
  CM_PROF_DEMO, CM_SHORT_MARK, CM_SHORT_NOTE, CM_FAM_QD, CM_FAM_STEADY, CM_FAM_CONS, CM_FAM_THERMAL,
  CM_FAM_RECOVERY, CM_QD_POINT, CM_M_MEAN_IOPS, CM_M_RANGE, CM_M_P1_IOPS, CM_M_COV, CM_M_P999_MAX, CM_M_MEAN_MBS,
  CM_M_PEAK_TEMP, CM_M_RECOVERED, CM_CURVES, CM_CURVES_NOTE, CM_OV_QD, CM_OV_TAIL, CM_AX_QD, CM_AX_PCT,
  CM_M_FILL_AT, CM_M_ROUND, CM_OV_FILL, CM_OV_STEADY, CM_AX_FILLED, CM_AX_ROUND, CM_OV_PICK, CM_OV_REST,
  CM_OV_CONS, CM_OV_TH_MBS, CM_OV_TH_TEMP, CM_AX_TIME, CM_AX_TIME_MIN, CM_AX_TEMP, CM_M_AT_S, CM_M_WRITE_SPEED,
  CM_M_TEMP, CM_GATE_UNTESTED, CM_GATE_SOME_UNTESTED, CM_COUNT_
};
const char *render_cmp_msg(enum render_cmp_msg id, int ko);

/* Formats v as the reviews do: fixed decimals for the unit (MB/s 2, IOPS 0,
 * us 2, GiB 1), thousands separators, never e-notation. */
void render_cmp_fmt_num(char *buf, size_t len, double v, const char *unit);
/* "x1.23" with a fixed two decimals. */
void render_cmp_fmt_ratio(char *buf, size_t len, double r);
/* The figure's title for readers ("SEQ1M Q8T1 read, FOB (default)"). */
void render_cmp_fig_title(const struct cmp_fig *f, int ko, char *buf, size_t len);
/* The unit as shown ("µs" for "us"). */
const char *render_cmp_unit_shown(const char *unit);

/* -------------------------------------------------------------- index */

/* The SQLite index in an archive root (index.c; schema in docs/archive.md). */
#define CMP_INDEX_NAME "ssdrev-index.sqlite"
struct cmp_index;
/* Opens or creates ROOT/ssdrev-index.sqlite; NULL with err filled when it
 * cannot (the compare then goes on without it). NOTICE (NLEN bytes) gets
 * what the open did that a user should hear of (an old index rebuilt), ""
 * when nothing. */
struct cmp_index *render_cmp_index_open(const char *root, char *notice, size_t nlen, struct ssdrev_err *err);
void render_cmp_index_close(struct cmp_index *x);
/* Fills r's identity and figures from the index when its entry matches
 * r->sig; returns 1 if it did, 0 if the run must be read, <0 on error. */
int render_cmp_index_load(struct cmp_index *x, const char *name, struct cmp_run *r, struct cmp_figs *figs);
/* Stores (replaces) r under name; call between begin and commit. */
int render_cmp_index_begin(struct cmp_index *x);
int render_cmp_index_store(struct cmp_index *x, const char *name, const struct cmp_run *r, const struct cmp_figs *figs);
/* Removes the entries whose names are not in keep (sorted array of n). */
int render_cmp_index_prune(struct cmp_index *x, const char *const *keep, size_t n);
int render_cmp_index_commit(struct cmp_index *x, struct ssdrev_err *err);
/* Why the index's last statement failed ("No space left on device" for a
 * full disk), for the warning of a failed update. */
const char *render_cmp_index_why(const struct cmp_index *x);

/* ------------------------------------------------------------- outputs */

/* Writes the asked formats (render/compare/out.c). */
int render_compare_write_outputs(const struct cmp_table *t, const struct render_cmp_opts *o,
                                 struct render_cmp_result *res, struct ssdrev_err *err);
/* Cuts a bar chart's group label NAME (of SIZE bytes) to WIDTH pt at 8.5 pt
 * (bold: the baseline's), the model's front first (out.c). */
struct _cairo;
void render_cmp_fit_label(struct _cairo *cr, char *name, size_t size, double width, int bold);
/* The xlsx workbook (xlsx.c): Runs, Groups, then one sheet per family. */
int render_cmp_write_xlsx(const struct cmp_table *t, const char *path, struct ssdrev_err *err);

/* The stat of figure f in group g. */
static inline const struct cmp_stat *cmp_stat_at(const struct cmp_table *t, size_t f, size_t g) {
  return &t->stats[f * t->ngroups + g];
}
/* The value of figure f in run r, or NULL. */
const struct cmp_val *render_cmp_run_value(const struct cmp_run *r, size_t f);

#endif
