/* render.h — ssdrev's renderer: Cairo charts and Markdown / HTML / PDF
 * reviews from templates (docs/templates.md). Reads analyzed run archives
 * (analysis.json + manifest.json, docs/archive.md). Library rules as in
 * bench.h: functions return 0 or a negative errno and fill the optional
 * struct ssdrev_err; they never print or exit. Every output file is written
 * atomically (temporary file + rename). */
#ifndef SSDREV_RENDER_H
#define SSDREV_RENDER_H

#include "analyze/analyze.h"

/* ============================================================ languages */

/* The language of a review's generated text (table headers, chart titles,
 * flag findings, notes), from one message catalogue (render/msg.c). */
enum render_lang { RENDER_LANG_EN = 0, RENDER_LANG_KO = 1 };
#define RENDER_NLANGS 2
/* "en" or "ko" -> *lang; -EINVAL for anything else. */
int render_lang_parse(const char *code, enum render_lang *lang);
const char *render_lang_code(enum render_lang lang); /* "en", "ko" */
/* The language a template is written in: a `{{lang ko}}` directive in TEXT
 * (outside fenced code), else a ".ko." / ".en." in the file NAME
 * (templates/review.ko.md), else English. */
enum render_lang render_template_lang(const char *name, const char *text);
/* A message the CLI prints (a warning or note, English as a library call
 * or the CLI wrote it) in LANG: a form the message catalogue knows (the
 * words "warning" and "note", "T:LINE: not measured: REASON", a missing-data
 * reason, "skipping 'X': REASON", the import warnings of render/msg.c's
 * MSG_W_* rows) is put in LANG; any other text stays as it is (README,
 * "Languages of messages"). OUT gets at most LEN - 1 bytes and a NUL. */
void render_msg_cli(enum render_lang lang, const char *text, char *out, size_t len);
/* A flag of analysis.json (flags[]) in LANG: "[SEVERITY] ID: FINDING", the
 * finding from its id and numbers (its English "message" when the
 * catalogue has no form for it). OUT as for render_msg_cli. */
void render_flag_text(enum render_lang lang, const json_t *flag, char *out, size_t len);

/* ============================================================== the runs */

/* One analyzed run. Run i of a set always gets palette colour i, so the same
 * drive has the same colour in every chart of a report. */
struct render_run {
  char dir[4096];
  char label[128];   /* analysis "label", else manifest "label", else the dir name */
  int simulated;     /* analysis or manifest says "simulated": true */
  int short_review;  /* a `review --short` run (analysis or manifest "short") */
  json_t *analysis;  /* analysis.json (owned) */
  json_t *manifest;  /* manifest.json (owned; NULL when the archive has none) */
  int reanalyzed;    /* analysis.json was missing or stale and render_runs_load made it again (1),
                        or analyzed a read-only archive in memory without writing it (2) */
};

/* A short run's region in GiB (manifest / analysis "short".region_bytes,
 * what `review --short` wrote its fills and states into); -1 for a short
 * run that does not name its region; 0 for a run that is not short. What
 * renders and compares ask before they state a number as the drive's. */
double render_run_short_gib(const struct render_run *r);

struct render_runs {
  struct render_run *v; /* n runs in the order given (owned) */
  size_t n;
};

/* Loads DIR/manifest.json (optional; when present it is opened and checked
 * as archive_open does, and a broken one fails naming its line and column)
 * and DIR/analysis.json for each of the n directories. When a run has a
 * manifest and its analysis.json is missing or stale (analyze_is_fresh),
 * the run is analyzed here and DIR/analysis.json is REWRITTEN (analyze_run
 * with default options; run->reanalyzed is set so the caller can say so).
 * Without a manifest analysis.json is required as it is (the error says to
 * run `ssdrev analyze`). On failure nothing is left allocated. Release with
 * render_runs_release. */
int render_runs_load(struct render_runs *rs, const char *const *dirs, size_t n,
                     struct ssdrev_err *err);
void render_runs_release(struct render_runs *rs);
/* Finds a run by label, or by 1-based index written as "1", "2"...; NULL if none. */
const struct render_run *render_runs_find(const struct render_runs *rs, const char *which);
/* The palette colour of run i (r, g, b in 0..1). */
void render_palette(size_t i, double rgb[3]);

/* ============================================================== charts */

struct render_chart_opts {
  const char *drive;   /* a label or 1-based index; NULL or "all" = every run */
  const char *state;   /* CDM state, "FOB" or "75%"; NULL = "FOB" */
  const char *op;      /* bars: "read" (default) or "write" */
  const char *test;    /* latency / hist: test name; NULL = the first tail test */
  const char *workload; /* latency / hist: tail workload ("read", "mix70", "write") */
  double dpi;          /* PNG resolution; 0 = 300 */
  double width_in;     /* 0 = 6.5 in (1950 px at 300 dpi) */
  double height_in;    /* 0 = the kind's default */
  enum render_lang lang; /* titles, axes and legends; default English */
};
void render_chart_opts_defaults(struct render_chart_opts *o);

struct render_chart_kind_info {
  const char *name;
  const char *summary;
};
/* The chart kinds, terminated by a {NULL, NULL} entry (for --help). */
const struct render_chart_kind_info *render_chart_kinds(void);
int render_chart_kind_exists(const char *kind);

/* Draws chart KIND from the runs into PATH; the format follows the
 * extension: .png (at o->dpi) or .svg. Fails naming the kind or the missing
 * analysis section (e.g. "run 'X' has no fill trace"). */
int render_chart_file(const struct render_runs *rs, const char *kind,
                      const struct render_chart_opts *o, const char *path,
                      struct ssdrev_err *err);

/* ============================================================ templates */

/* Expands the template text (TEMPLATE_NAME is used in error messages as
 * "NAME:LINE") into Markdown. Chart directives draw PNG+SVG files into
 * CHART_DIR (created when needed; NULL = charts are not drawn, only linked)
 * and link them as CHART_REL/NAME.png. All directives are checked before
 * any chart is drawn, so a bad template writes nothing. *md_out is malloc'd
 * (caller frees). */
int render_template_expand(const struct render_runs *rs, const char *template_name,
                           const char *text, const char *chart_dir, const char *chart_rel,
                           double dpi, char **md_out, struct ssdrev_err *err);

/* Data a run lacks (a chart, table, value or DUT summary whose section is
 * not in analysis.json, e.g. a CrystalDiskMark import has no fill trace).
 * render_template_expand fails on it with NAME:LINE; with lenient set, the
 * directive instead expands to a visible "*Not measured: ...*" note ("n/a"
 * for a value) and warn() gets "NAME:LINE: not measured: ..." once per
 * directive. Syntax and argument errors always fail. */
struct render_expand_opts {
  int lenient;
  void (*warn)(void *ctx, const char *msg);
  void *warn_ctx;
  /* Made (ssdrev_mkdirs: refused when it is a symbolic link) after the
   * checking pass and before any chart is drawn, e.g. a report's output
   * directory; NULL = none. */
  const char *out_dir;
};
int render_template_expand_opts(const struct render_runs *rs, const char *template_name,
                                const char *text, const char *chart_dir, const char *chart_rel,
                                double dpi, const struct render_expand_opts *x, char **md_out,
                                struct ssdrev_err *err);

/* An editable starting template for the runs (`ssdrev template init`):
 * TEXT with each {{if}} block decided for RS (the branch taken kept, the
 * block lines gone), each {{each drive}} block written once per run with
 * drive=N added to its directives, and everything else (prose, {{slot}}s,
 * the other directives) as written. *out is malloc'd (caller frees);
 * fails as render_template_expand does on a bad block or directive. */
int render_template_specialize(const struct render_runs *rs, const char *template_name, const char *text,
                               char **out, struct ssdrev_err *err);

/* ============================================================== outputs */

enum render_format_bit {
  RENDER_FMT_MD = 1u << 0,
  RENDER_FMT_HTML = 1u << 1,
  RENDER_FMT_PDF = 1u << 2,
};
/* Parses "md,html,pdf" (any subset, any order) into a mask. */
int render_formats_parse(const char *list, unsigned *mask, struct ssdrev_err *err);

/* Document metadata for HTML <title> and the PDF info dictionary. */
struct render_doc_meta {
  const char *title;    /* NULL = the first heading of the document */
  const char *subject;  /* may be NULL */
  const char *base_dir; /* directory that relative image links resolve against */
  enum render_lang lang; /* the template's language (render_template_lang) */
  const char *page_note; /* printed in every page's header (a short review says so); may be NULL */
  double image_dpi;      /* PDF: the charts' PNG resolution, so they print at their size; 0 = 300 */
};

/* Markdown -> a standalone HTML page (cmark-gfm with the table extension,
 * embedded screen, narrow-screen and print CSS, a viewport, <html lang>);
 * a paragraph that is one image becomes a <figure> captioned by its alt
 * text; images stay links. *html is malloc'd. */
int render_md_to_html(const char *md, const struct render_doc_meta *meta, char **html,
                      struct ssdrev_err *err);
/* Markdown -> PDF written atomically to PATH (libharu; embedded DejaVu Sans
 * and NanumGothic with per-character fallback, outline per heading, page
 * numbers, tables, PNG images). */
int render_md_to_pdf(const char *md, const struct render_doc_meta *meta, const char *path,
                     struct ssdrev_err *err);

struct render_report_opts {
  const char *template_path;
  const char *out_dir;  /* created if needed; gets review.{md,html,pdf}, charts/ */
  unsigned formats;     /* RENDER_FMT_* mask; 0 = all three */
  double dpi;           /* chart PNG resolution; 0 = 300 */
  int strict;           /* missing data is an error, not a "not measured" note */
  int html_linked;      /* review.html links charts/NAME.png; default: charts inline (self-contained) */
  size_t html_svg_max;  /* inline SVG charts up to this many bytes, bigger ones as PNG data: URIs; 0 = 1 MiB */
  void (*warn)(void *ctx, const char *msg); /* "T:LINE: not measured: ..." */
  void *warn_ctx;
};
/* Renders the review: expands the template, then writes each asked format.
 * On a template error nothing is written. */
int render_report(const struct render_runs *rs, const struct render_report_opts *o,
                  struct ssdrev_err *err);

/* Releases the process-wide font caches cairo keeps (and the fontconfig
 * patterns they hold), for leak checkers; call once before exit, after the
 * last render call. */
void render_cleanup(void);

/* ======================================================== batch compare */

/* compare.h — batch comparison of many run archives (`ssdrev compare`):
 * archives are analyzed in parallel when analysis.json is missing or stale
 * (analyze_is_fresh, the rule `ssdrev report` uses), grouped by
 * DUT model, firmware and fill state, and written as a Markdown table, CSV,
 * bar charts (PNG) and PDF. A bad archive is reported and skipped.
 * Library rules as in bench.h. */



enum render_cmp_format {
  RENDER_CMP_MD = 1u << 0,
  RENDER_CMP_CSV = 1u << 1,
  RENDER_CMP_PDF = 1u << 2,
  RENDER_CMP_CHARTS = 1u << 3, /* PNG bar charts (also linked from the Markdown) */
  RENDER_CMP_XLSX = 1u << 4,   /* compare.xlsx (libxlsxwriter) */
  RENDER_CMP_HTML = 1u << 5,   /* compare.html, self-contained: the charts as PNG data: URIs */
};

#define RENDER_CMP_MAX_WHERE 16

struct render_cmp_opts {
  const char *out_dir;   /* created if needed */
  unsigned formats;      /* RENDER_CMP_* mask; 0 = md, csv, charts */
  unsigned jobs;         /* analysis threads; 0 = 2 */
  /* a group name, a model, or a run (directory as given, its base name, or
   * label: its group); NULL = the rule of docs/perf/compare.md: the group
   * with a known model and the most headline figures, then the most runs,
   * then the first by name */
  const char *baseline;
  int reanalyze;         /* analyze even when analysis.json exists */
  unsigned max_charts;   /* bar charts to draw; 0 = 64 */
  int lang_ko;           /* the report in Korean */
  /* --where filters, each "FIELD=GLOB", "FIELD!=GLOB", "date>=YYYY-MM-DD",
   * "date<=...", "date=FROM..TO" or "simulated=yes|no" (all must hold) */
  const char *where[RENDER_CMP_MAX_WHERE];
  size_t nwhere;
  const char *group_by;  /* "model,firmware,state" (NULL) or any of model, firmware, state, label, source, simulated, date */
  /* folder inputs (as given to render_cmp_expand): each gets an index
   * ROOT/ssdrev-index.sqlite of its runs' figures; none when no_index */
  const char *const *roots;
  size_t nroots;
  int no_index;
  /* a usable run with some unreadable tests: warn(path, what, warn_arg); NULL = silent */
  void (*warn)(const char *path, const char *what, void *arg);
  void *warn_arg;
  /* a run to analyze that another process writes (its lock is held) is
   * waited for up to lock_wait_s seconds (default RENDER_CMP_LOCK_WAIT_S; 0:
   * not at all); note(path, "archive ... is in use by process N: waiting up
   * to S s for it", note_arg) says so when the wait starts (from any
   * analysis thread; NULL = silent). A run still in use after the wait
   * fails the whole compare (-EBUSY, nothing written): a comparison never
   * leaves out a run only because it was busy. */
  unsigned lock_wait_s;
  void (*note)(const char *path, const char *what, void *arg);
  void *note_arg;
  /* the firmware gate (--gate PCT): with gate set, every headline figure of
   * every group is checked against the baseline; one worse by more than
   * gate_pct percent (mean difference, in % of the baseline's mean) and
   * beyond the noise (Welch, p < 0.05, n >= 2 on both sides) fails it.
   * res->gate_failures counts them; compare.md has a Gate section and
   * verdict.json the machine-readable verdict (docs/perf/compare.md). */
  int gate;
  double gate_pct;
  /* groups holding --short runs are marked and, beside groups of full runs
   * only, left out of ranks and scores; rank_short ranks them too */
  int rank_short;
};
#define RENDER_CMP_LOCK_WAIT_S 30
void render_cmp_opts_defaults(struct render_cmp_opts *o);

/* Parses "md,csv,pdf,charts" into a RENDER_CMP_* mask. */
int render_cmp_formats_parse(const char *list, unsigned *mask, struct ssdrev_err *err);

/* Expands the inputs: a directory with manifest.json is a run; any other
 * directory is searched one level deep for runs (sorted by name). Returns a
 * malloc'd array of malloc'd paths in *dirs. Entries that are not runs are
 * reported through `skip` (may be NULL) and left out. Fails with -ENOENT
 * ("no run archives in 'DIR'") when no input holds a run. */
typedef void (*render_cmp_skip_fn)(const char *path, const char *reason, void *arg);
int render_cmp_expand(const char *const *inputs, size_t n, char ***dirs, size_t *ndirs,
                      render_cmp_skip_fn skip, void *arg, struct ssdrev_err *err);
void render_cmp_free_dirs(char **dirs, size_t n);

struct render_cmp_result {
  size_t runs_ok;       /* archives compared */
  size_t runs_skipped;  /* bad archives, reported through skip */
  size_t runs_filtered; /* left out by --where */
  size_t from_index;    /* runs whose figures came from an index, no archive file opened */
  size_t read_archives; /* runs whose manifest / analysis were read */
  size_t analyzed_now;  /* runs analyzed now */
  size_t groups;
  size_t metrics;
  size_t charts;
  size_t gate_failures; /* figures that failed the gate (opts.gate) */
  size_t gate_tested;   /* (figure, group) pairs the gate could test: 0 with no failure is "not tested" */
  char index_warning[1600]; /* why an index was not used or not updated; "" if fine */
  char index_notice[1600];  /* what was done to an index a user should hear of (an old one rebuilt); "" if none */
};

/* Checks one --where filter ("unknown field 'x'" etc.) without running. */
int render_cmp_where_check(const char *w, struct ssdrev_err *err);
/* Checks a --group-by list. */
int render_cmp_group_by_check(const char *list, struct ssdrev_err *err);

/* Compares the runs in dirs and writes the asked outputs into o->out_dir
 * (compare.md, compare.csv (one row per run and figure), groups.csv, runs.csv,
 * PNG charts in charts/, compare.pdf, compare.xlsx). Each bad
 * archive goes to skip(path, reason) and the rest proceed; fails only when no
 * archive is usable or an output cannot be written. */
int render_cmp_run(char *const *dirs, size_t n, const struct render_cmp_opts *o,
                   render_cmp_skip_fn skip, void *arg, struct render_cmp_result *res,
                   struct ssdrev_err *err);

#endif
