/* render_int.h — private to render/: analysis lookups, the chart canvas and
 * the small text buffer shared by the template, table and output code. */
#ifndef SSDREV_RENDER_INT_H
#define SSDREV_RENDER_INT_H

#include <cairo.h>
#include <cmark-gfm.h>
#include "render/render.h"
#include "render/msg_int.h"

/* ------------------------------------------------------------ text buffer */

/* A growable NUL-terminated string; a failed allocation sets `oom` and
 * later appends do nothing, so callers check once at the end. */
struct render_buf {
  char *s;
  size_t len, cap;
  int oom;
};
void render_buf_puts(struct render_buf *b, const char *s);
void render_buf_putn(struct render_buf *b, const char *s, size_t n);
/* N bytes of P as base64 (RFC 4648, padded), for data: URIs. */
void render_buf_base64(struct render_buf *b, const unsigned char *p, size_t n);
void render_buf_printf(struct render_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends S as literal text wherever it lands in a Markdown document (a
 * table cell, a heading, prose, an image's alt text): the one escaping of
 * generated values (escape.c). Markdown punctuation is backslash-escaped
 * ('\\', '`', '*', '_', '[', ']', '<', '>', '&', '|', '~' always; '#', '+',
 * '-', '=' and "1." when they open the value; the ':' of "x:/", "mailto:",
 * "xmpp:" and the dot of "www." against GFM autolinks), control characters (C0, DEL,
 * C1) become spaces and leading spaces are dropped, so a value never ends
 * a table row, starts a block, links, embeds an image or carries raw HTML. */
void render_buf_md(struct render_buf *b, const char *s);
void render_buf_free(struct render_buf *b);

/* ---------------------------------------------------------- data lookups */

/* Number at KEY of object O, or dflt when absent / not a number. */
double render_data_num(const json_t *o, const char *key, double dflt);
const char *render_data_str(const json_t *o, const char *key, const char *dflt);
/* Dotted path into ROOT; keys may themselves contain dots ("p99.9_us"): at
 * each level the longest key that matches wins. Array elements by number. */
json_t *render_data_path(json_t *root, const char *path);
/* Latency in µs of tail workload W ("read", "mix70", "write") at percentile
 * P for run R: from analysis.tail.W ("p99.9_us" style keys or a "pct" list),
 * else from the tail test's ops.all.pct. 0 on success, -ENOENT if absent. */
int render_data_tail_us(const struct render_run *r, const char *w, double p, double *out_us);
/* Every percentile known for tail workload W of run R, sorted ascending.
 * Returns the count (<= max). */
size_t render_data_tail_curve(const struct render_run *r, const char *w, double *p, double *lat_us,
                     size_t max);
/* The analysis test object of kind "tail" whose workload is W, or NULL. */
json_t *render_data_tail_test(const struct render_run *r, const char *w);
/* The one rule for a CrystalDiskMark figure in a table or panel, whatever
 * the source (a measured run or an imported file, CDM 3 to 9): MB/s to 2
 * decimals (a file's "562.114" is 562.11, beside a run's 353.54), IOPS to
 * 1, mean latency in µs to 2; the file's own digits stay in the archive
 * (summary.text). */
#define RENDER_CDM_MB_S_FMT "%.2f"
#define RENDER_CDM_IOPS_FMT "%.1f"
#define RENDER_CDM_US_FMT "%.2f"
/* CDM cells of run R in STATE in CrystalDiskMark's order (render_data_cdm_sort;
 * borrowed array items). */
size_t render_data_cdm_cells(const struct render_run *r, const char *state, json_t **cells, size_t max);
/* The thermal step's drops that are not its throttle, as the table lists
 * them and the chart marks them: the RENDER_THERMAL_DROPS_MAX largest by
 * their share of the speed before, their indices in TH's "points" into
 * KEEP; returns how many. *LISTED (when not NULL): all such drops. A
 * GC-bound write has dozens of 10-17% dips: all marked, their labels ran
 * into one smear. */
#define RENDER_THERMAL_DROPS_MAX 3
size_t render_data_thermal_drops(const json_t *th, size_t keep[RENDER_THERMAL_DROPS_MAX], size_t *listed);
/* Whether point index J of TH is among KEEP[0..NK). */
int render_data_thermal_kept(const size_t *keep, size_t nk, size_t j);
/* Sorts cells (objects with a "cell" name) into CrystalDiskMark's order:
 * SEQ before RND, larger blocks first, deeper Q x T first; cells of another
 * form after them, in their order. Stable. */
void render_data_cdm_sort(json_t **cells, size_t n);

/* The three tail workloads, their table headers and chart legends. */
struct render_data_workload {
  const char *id;
  const char *title;        /* English */
  enum render_msg_id msg;   /* the title in the catalogue */
};
extern const struct render_data_workload render_data_workloads[3];

/* -------------------------------------------------------------- numbers */

/* A "nice" tick step (1, 2 or 5 x 10^k) giving at most about max_ticks
 * ticks over [lo, hi]. */
double render_canvas_nice_step(double lo, double hi, int max_ticks);
/* Formats v with just enough decimals for step (e.g. 0.5 -> "2.5") and
 * thousands separators from 1,000 up ("1,200,000"). */
void render_canvas_fmt_tick(char *buf, size_t len, double v, double step);
/* IN into OUT (LEN bytes) with ',' every three digits of the integer part
 * of its first number, when that part has MIN_DIGITS digits or more
 * ("1200000" -> "1,200,000"; "-27347.4 us" -> "-27,347.4 us"). */
void render_group_digits(const char *in, char *out, size_t len, size_t min_digits);
/* V as an integer with the tables' thousands separators (from 1,000 up:
 * "12,345"); NaN as "–". */
void render_buf_thousands(struct render_buf *b, double v);

/* --------------------------------------------------------------- canvas */

/* Where `ssdrev report` sends each finished chart PNG: its pixels to IMGS
 * for the PDF writer, its encoding and commit to the PNGQ worker thread.
 * Either may be NULL (pixels not kept / encoded on the drawing thread). */
struct render_chart_sink {
  struct render_imgcache *imgs;
  struct render_pngq *pngq;
  json_t *drawn; /* the chart links drawn ("charts/NAME.png": true), for the HTML writer; may be NULL */
};

/* A chart surface measured in points (1/72 in) whatever the output. */
struct render_canvas {
  cairo_surface_t *surface;
  cairo_t *cr;
  double w_pt, h_pt;
  int svg;             /* else PNG */
  struct ssdrev_atomic out;
  int out_open;
  const struct render_chart_sink *keep; /* where a finished PNG goes besides its file (may be NULL) */
  const char *tag; /* drawn small in the top-right corner by the plot frame (a short run's mark); may be NULL */
  /* SVG only: cairo's document is collected here, and the chart's text as
   * <text> elements (real text: searchable, selectable, read by screen
   * readers and pdftotext, where cairo would draw glyph outlines) goes in
   * before its closing tag */
  struct render_buf svg_doc, svg_text;
};
int render_canvas_canvas_begin(struct render_canvas *c, const char *path, double w_in, double h_in,
                    double dpi, struct ssdrev_err *err);
/* Chart pixels kept in memory for the PDF writer (imgcache.c), keyed by
 * the PNG's path as written; thread-safe. put copies an RGB24 image surface
 * to 8-bit RGB; take hands the malloc'd w*h*3 bytes over (NULL if absent). */
struct render_imgcache;
struct render_imgcache *render_imgcache_new(void);
void render_imgcache_free(struct render_imgcache *c);
int render_imgcache_put(struct render_imgcache *c, const char *path, cairo_surface_t *s);
unsigned char *render_imgcache_take(struct render_imgcache *c, const char *path, int *w, int *h);
/* The size of PATH's pixels when C holds them (1), else 0; nothing taken. */
int render_imgcache_size(struct render_imgcache *c, const char *path, int *w, int *h);
/* The PNG files of the charts whose pixels C holds are written by worker Q
 * (may be NULL). render_imgcache_settle (C may be NULL) waits for it, so that a
 * reader falling back to a chart's file (a second link to it, after its
 * pixels were taken) finds the file whole and current. */
void render_imgcache_set_writer(struct render_imgcache *c, struct render_pngq *q);
void render_imgcache_settle(struct render_imgcache *c);

/* One worker thread that PNG-encodes finished chart surfaces and commits
 * their files (pngq.c); pixels are drawn by the caller, in order, so the
 * files are the same bytes as when encoded in place. start: DEFER_SYNC is
 * the caller's ssdrev_atomic_defer_sync, applied on the worker. push takes
 * over S and the open OUT (OUT is left closed either way); it blocks while
 * the queue is full (128 MiB of pixels) and fails with the worker's first error, if any
 * (then S and OUT are discarded). finish drains the queue, joins the thread,
 * frees Q (NULL is a no-op) and returns the worker's first error, its
 * message (naming the file) in ERR; queued files are committed even when
 * the caller failed, as if each had been written in place. */
struct render_pngq;
int render_pngq_start(struct render_pngq **q, int defer_sync, struct ssdrev_err *err);
int render_pngq_push(struct render_pngq *q, cairo_surface_t *s, struct ssdrev_atomic *out, struct ssdrev_err *err);
int render_pngq_finish(struct render_pngq *q, struct ssdrev_err *err);
/* Waits until every pushed file is committed (or failed); NULL: no-op. */
void render_pngq_drain(struct render_pngq *q);

/* Writes the file (atomically) and frees the canvas; a PNG goes to
 * c->keep (pixels kept, encoding handed to the worker) when set. */
int render_canvas_canvas_end(struct render_canvas *c, struct ssdrev_err *err);
void render_canvas_canvas_abort(struct render_canvas *c);

enum render_canvas_align { RC_LEFT = 0, RC_CENTER = 1, RC_RIGHT = 2 };
/* Draws UTF-8 text with its baseline at y, aligned on x; NanumGothic when
 * the text holds Hangul, else DejaVu Sans. Returns the width drawn. */
double render_canvas_text(cairo_t *cr, double x, double y, const char *s, double size_pt, int bold,
               enum render_canvas_align align);
double render_canvas_text_width(cairo_t *cr, const char *s, double size_pt, int bold);

/* An axis: linear or log10, or the "nines" percentile axis (values are
 * percentiles; position = -log10(1 - p/100)). */
/* RC_LOG2: log2 positions with a tick at each power of two (queue depths). */
enum render_canvas_scale { RC_LINEAR = 0, RC_LOG = 1, RC_NINES = 2, RC_LOG2 = 3 };
struct render_axis {
  double lo, hi;
  enum render_canvas_scale scale;
  const char *label;
};
struct render_plot {
  double x0, y0, x1, y1; /* plot area in pt: left, top, right, bottom */
  struct render_axis x, y;
  int no_xticks;         /* categories: the chart labels x itself */
  double right_pt;       /* room right of the plot for a second axis, in pt (0: none) */
  double bottom_pt;      /* room below the x axis's label for a legend, in pt (0: none) */
};
/* After a report: removes from CHART_DIR the chart files the previous
 * report listed in CHART_DIR/.ssdrev-charts and DRAWN (the links drawn,
 * "CHART_REL/NAME.png": true) does not hold -- regular files of chart
 * names only -- and writes the new list there (render/chart/prune.c). */
int render_charts_prune(const char *chart_dir, const char *chart_rel, const json_t *drawn, struct ssdrev_err *err);
/* Lays out the plot area in a canvas below a title and draws title, grid,
 * ticks and axis labels. */
void render_canvas_plot_frame(struct render_canvas *c, struct render_plot *p, const char *title);
double render_canvas_px(const struct render_plot *p, double v);
double render_canvas_py(const struct render_plot *p, double v);
/* Polyline of n points in data units, clipped to the plot area. */
void render_canvas_polyline(cairo_t *cr, const struct render_plot *p, const double *x, const double *y, size_t n,
                 const double rgb[3], double width_pt, int dashed);
void render_canvas_marker(cairo_t *cr, const struct render_plot *p, double x, double y, const double rgb[3],
               int shape);

struct render_legend_item {
  char text[160];
  double rgb[3];
  int dashed;
  int shape; /* marker shape, -1 = none */
};
/* A legend box in the plot's upper-right (or upper-left) corner. */
void render_canvas_legend(cairo_t *cr, const struct render_plot *p, const struct render_legend_item *it, size_t n,
               int left);
/* The legend below the plot, in the room its bottom_pt keeps (at least
 * RENDER_LEGEND_BELOW_PT(n)): for charts of many long labels, which a box
 * in a corner would lay over the curves. The box is 6 + 11 n pt tall and
 * starts 4 pt under the room's top; 6 pt more keep its frame off the
 * canvas's edge (with 10 + 11 n the bottom line was cut). */
#define RENDER_LEGEND_BELOW_PT(n) (16.0 + 11.0 * (double)(n))
void render_canvas_legend_below(cairo_t *cr, const struct render_plot *p, const struct render_legend_item *it,
                                size_t n);

/* The chart kind draws one drive per chart (drive=all makes one each). */
int render_chart_kind_one_drive(const char *kind);

/* Computes [lo, hi] of data, padded and rounded to the nice step. */
void render_canvas_range(const double *v, size_t n, double *lo, double *hi, int from_zero);

/* Parses MD with the GFM extensions (table, strikethrough, autolink). The
 * caller frees the root (cmark_node_free) and *parser_out. NULL on OOM. */
cmark_node *render_md_parse(const char *md, cmark_parser **parser_out);
/* The deepest nesting a review's Markdown may have (docs/templates.md,
 * "Limits"): each block quote, list, emphasis, link or image inside
 * another is one level. The PDF writer lays the tree out by recursion, so
 * 100,000 '>' overflowed its stack (issue 26); cmark itself sets no bound. */
#define RENDER_MD_MAX_DEPTH 64
#define RENDER_MD_DEPTH_MSG "Markdown nested more than 64 levels deep (block quotes, lists, emphasis, links)"
/* The source line of the first node of ROOT nested deeper than
 * RENDER_MD_MAX_DEPTH (at least 1), or 0 when none is. Iterative. */
int render_md_too_deep(cmark_node *root);

/* ------------------------------------------------------- directive args */

/* The key=value arguments a directive may carry (NULL = not given). */
struct render_args {
  const char *drive, *state, *op, *workload, *test, *lang, *fmt, *caption, *name, *height;
  const char *cell; /* value: the CrystalDiskMark cell ("RND4K Q32T1") a cdm.* path reads */
  const char *topic; /* findings: which findings (render_findings_topic_ok) */
  /* dut, table tail: the language of the field names and column headers
   * only (the reference post writes them in English on its Korean page;
   * the SMART rows, which the post has not, stay in lang=);
   * notes and values stay in lang= */
  const char *labels;
};

/* Findings (findings.c): sentences computed from the analysis, each with
 * its numbers and the rule behind it (docs/templates.md, "Findings").
 * TOPIC is one of cdm, fob, slc, random, tail, thermal, steady, flags, or
 * NULL / "all" for every one; render_findings_topic_ok says whether it is
 * known. Appends a Markdown list ("- ...\n" per finding) to OUT for the
 * N selected runs (SEL) and returns how many it wrote; nothing when no run
 * holds the data a topic needs (a finding never has a hole); topic all or
 * flags with nothing to say writes the one sentence "No rule fired". */
int render_findings_topic_ok(const char *topic);
size_t render_findings(const struct render_run *const *sel, size_t n, const char *topic, enum render_lang lang,
                       struct render_buf *out);

/* Checks that chart KIND can be drawn from the runs with O (the same checks
 * as render_chart_file, without writing anything). */
int render_chart_check(const struct render_runs *rs, const char *kind, const struct render_chart_opts *o,
                       struct ssdrev_err *err);

/* render_chart_file that also sends a PNG to KEEP (may be NULL). */
int render_chart_draw(const struct render_runs *rs, const char *kind, const struct render_chart_opts *o,
                  const char *path, const struct render_chart_sink *keep, struct ssdrev_err *err);

/* render_template_expand_opts that also sends each chart PNG it draws to
 * KEEP (may be NULL): pixels for the PDF writer, encoding to the worker. */
int render_expand(const struct render_runs *rs, const char *template_name, const char *text, const char *chart_dir,
              const char *chart_rel, double dpi, const struct render_expand_opts *x, const struct render_chart_sink *keep,
              char **md_out, struct ssdrev_err *err);

/* The images a review may show (images.c): the URLs of the charts the
 * expansion linked and of the template's own images. */
struct render_images {
  char **url; /* n malloc'd strings (owned) */
  int *line;  /* template line of each, or NULL (owned) */
  size_t n;
};
void render_images_free(struct render_images *im);
int render_images_add(struct render_images *im, const char *url); /* 0 or -ENOMEM; duplicates are kept once */
int render_images_has(const struct render_images *im, const char *url);
/* Lists the images the template TEXT (file TNAME) links in its prose. A
 * link under CHART_REL/ ("charts/tail.png", a second link to a chart) goes
 * to *CHARTS with its line (may be NULL: then it is skipped), to be matched
 * against the charts the directives draw. Every other one goes to *IM once
 * checked: a relative path without "..", a scheme, '%', '\\', '?' or '#',
 * naming a regular file inside TNAME's directory once symbolic links are
 * resolved. Fails with "TNAME:LINE: image 'URL' is ..." on the first that
 * breaks the rule. Free both with render_images_free. */
int render_template_images(const char *tname, const char *text, const char *chart_rel, struct render_images *im,
                       struct render_images *charts, struct ssdrev_err *err);
/* Fails when the expanded document MD links an image not in ALLOWED: the
 * check that no value, however escaped, brought in an image of its own. */
int render_check_doc_images(const char *tname, const char *md, const struct render_images *allowed, struct ssdrev_err *err);
/* Copies each template image (relative to TNAME's directory) to the same
 * relative path under OUT_DIR, so the review's HTML and PDF find it there;
 * reads are bounded (64 MiB) and regular files only. */
int render_copy_template_images(const char *tname, const struct render_images *im, const char *out_dir,
                            struct ssdrev_err *err);
/* How the HTML writer shows the charts a report drew (render_html_from_md). */
#define RENDER_HTML_SVG_MAX (1u << 20) /* bytes: a bigger SVG goes in as its PNG */
struct render_html_opts {
  int linked;            /* <img src="charts/NAME.png"> as written in the Markdown */
  const json_t *drawn;   /* links of the charts drawn (only these are inlined); NULL = none */
  size_t svg_max;        /* inline an SVG up to this size, else a PNG data: URI; 0 = RENDER_HTML_SVG_MAX */
  struct render_pngq *pngq; /* the worker writing the PNGs (drained before one is read); may be NULL */
};
/* render_md_to_html with chart images self-contained unless HO->linked
 * (HO NULL = linked): each paragraph that is one image becomes a <figure>
 * with its alt text as <figcaption>; a chart in HO->drawn is read from
 * META->base_dir as inline SVG (ids prefixed per figure) or a PNG data:
 * URI. Other images stay links. */
int render_html_from_md(const char *md, const struct render_doc_meta *meta, const struct render_html_opts *ho,
                        char **html, struct ssdrev_err *err);

/* render_md_to_pdf that embeds images found in IMGS from memory (may be NULL). */
int render_pdf_from_md(const char *md, const struct render_doc_meta *meta, const char *path, struct render_imgcache *imgs,
                 struct ssdrev_err *err);

/* Table kinds (tables.c): appends a GFM table (or several, one per drive) to
 * OUT, or when OUT is NULL only checks the data. */
int render_table_exists(const char *kind);
const char *render_table_kind_list(void);
int render_table(const struct render_runs *rs, const char *kind, const struct render_args *a, struct render_buf *out,
             struct ssdrev_err *err);
/* The runs a drive= argument selects: one, or all for NULL / "all". */
size_t render_select(const struct render_runs *rs, const char *drive, const struct render_run **sel, size_t max);

/* The thermal chart kind (render/chart/thermal.c): the first thermal step
 * analysis of ANALYSIS with a throughput series, or NULL; and its drawing
 * (write MB/s in W_RGB on the left axis, temperature on the right, the
 * throttling points marked, the legend below the plot in the
 * RENDER_CHART_THERMAL_LEG_PT the kind's height keeps for it) into a begun
 * canvas. */
#define RENDER_CHART_THERMAL_LEG_PT RENDER_LEGEND_BELOW_PT(2)
const json_t *render_chart_thermal_of(const json_t *analysis);
void render_chart_thermal_draw(struct render_canvas *c, const json_t *thermal, enum render_lang lang, const char *label,
                               const double w_rgb[3]);
/* The thermal table kind (render/doc/t_thermal.c), a column per selected
 * run; B NULL only checks the data. */
/* Ends a header row whose first cell the caller wrote ("| what |") with a
 * column per selected run (its label) and writes the alignment row: the
 * first column left, the runs' right. */
void render_table_drive_cols(struct render_buf *b, const struct render_run *const *sel, size_t n);
int render_table_thermal(const struct render_run *const *sel, size_t n, const struct render_args *a,
                         struct render_buf *b, struct ssdrev_err *err);
/* The cache_recovery chart and table (render/chart/recovery.c,
 * render/doc/t_recovery.c), rows of the chart and table kinds. */
int render_chart_recovery_check(const struct render_run *const *runs, size_t n, struct ssdrev_err *err);
void render_chart_recovery_draw(struct render_canvas *c, enum render_lang lang, const struct render_run *const *runs,
                                const size_t *idx, size_t n);
int render_table_recovery(const struct render_run *const *sel, size_t n, const struct render_args *a,
                          struct render_buf *b, struct ssdrev_err *err);
/* 1 when R's cache recovery measured something: its exhaust write found
 * the cliff, or an idle's write a recovered size. A series whose exhaust
 * ran within the cache to its bound (a --short run) recovered nothing
 * measurable: an empty chart over a table of n/a (issue 27), so neither
 * is drawn. */
int render_run_recovery_measured(const struct render_run *r);
/* The not-measured error of SEL's cache recovery: a series that measured
 * nothing says so (MSG_MISS_RECOVERY_NONE), else none ran. */
int render_recovery_missing(const struct render_run *const *sel, size_t n, struct ssdrev_err *err);

#endif
