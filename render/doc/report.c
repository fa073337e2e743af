/* report.c — `ssdrev report`'s engine: expands the template once into
 * Markdown, then hands it to each asked output format (a table). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "render/render_int.h"
#include "render/msg_int.h"

/* What the writers get besides the Markdown: the charts just drawn */
struct out_ctx {
  struct render_imgcache *imgs;        /* their pixels, for the PDF */
  const struct render_html_opts *html; /* their files, for the HTML */
};

struct out_format {
  const char *name;
  unsigned bit;
  const char *file; /* in the output directory */
  int (*write)(const char *md, const struct render_doc_meta *meta, const char *path, const struct out_ctx *ctx,
               struct ssdrev_err *err);
};

static int write_md(const char *md, const struct render_doc_meta *meta, const char *path, const struct out_ctx *ctx,
                    struct ssdrev_err *err) {
  (void)meta;
  (void)ctx;
  return ssdrev_write_file_atomic(path, md, strlen(md), err);
}

static int write_pdf(const char *md, const struct render_doc_meta *meta, const char *path, const struct out_ctx *ctx,
                     struct ssdrev_err *err) {
  return render_pdf_from_md(md, meta, path, ctx->imgs, err);
}

static int write_html(const char *md, const struct render_doc_meta *meta, const char *path, const struct out_ctx *ctx,
                      struct ssdrev_err *err) {
  char *html = NULL;
  int rc = render_html_from_md(md, meta, ctx->html, &html, err);
  if (rc < 0) return rc;
  rc = ssdrev_write_file_atomic(path, html, strlen(html), err);
  free(html);
  return rc;
}

static const struct out_format formats[] = {
    {"md", RENDER_FMT_MD, "review.md", write_md},
    {"html", RENDER_FMT_HTML, "review.html", write_html},
    {"pdf", RENDER_FMT_PDF, "review.pdf", write_pdf},
};
#define NFORMATS (sizeof formats / sizeof formats[0])

int render_formats_parse(const char *list, unsigned *mask, struct ssdrev_err *err) {
  *mask = 0;
  const char *p = list;
  while (*p) {
    size_t len = strcspn(p, ",");
    int found = 0;
    for (size_t i = 0; i < NFORMATS; i++)
      if (strlen(formats[i].name) == len && !strncmp(formats[i].name, p, len)) {
        *mask |= formats[i].bit;
        found = 1;
      }
    if (!found) return ssdrev_fail(err, -EINVAL, "unknown format '%.*s' (give md, html, pdf)", (int)len, p);
    p += len;
    if (*p == ',') p++;
  }
  if (!*mask) return ssdrev_fail(err, -EINVAL, "no format given (give md, html, pdf)");
  return 0;
}

int render_report(const struct render_runs *rs, const struct render_report_opts *o, struct ssdrev_err *err) {
  char *text = NULL;
  size_t len = 0;
  int rc = ssdrev_read_file(o->template_path, &text, &len, 16u << 20, err);
  if (rc < 0) return rc;
  if (memchr(text, 0, len)) {
    free(text);
    return ssdrev_fail(err, -EINVAL, "template '%s' holds a NUL byte: not a text file", o->template_path);
  }
  char charts[4200];
  snprintf(charts, sizeof charts, "%s/charts", o->out_dir);
  /* the documents, charts and images appear together or not at all: a
   * failure (a full disk) puts back what was there (base/ssdrev.h) */
  struct ssdrev_outputs *group = ssdrev_outputs_begin(err);
  if (!group) {
    free(text);
    return -ENOMEM;
  }
  char *md = NULL;
  /* render_expand's checking pass (which warns of data not measured) runs
   * before anything, the output directory included, is made */
  struct render_expand_opts x = {.lenient = !o->strict, .warn = o->warn, .warn_ctx = o->warn_ctx,
                                 .out_dir = o->out_dir};
  /* a report is regenerable: no fsync per chart file (base/ssdrev.h) */
  ssdrev_atomic_defer_sync(1);
  unsigned mask = o->formats ? o->formats : RENDER_FMT_MD | RENDER_FMT_HTML | RENDER_FMT_PDF;
  /* the PDF embeds the chart pixels from memory rather than decoding each
   * PNG again; without a PDF there is nothing to keep them for */
  struct render_imgcache *imgs = NULL;
  if (rc == 0 && (mask & RENDER_FMT_PDF) && !(imgs = render_imgcache_new()))
    rc = ssdrev_fail(err, -ENOMEM, "out of memory rendering '%s'", o->template_path);
  /* charts are drawn here in template order, but their PNG encoding (most
   * of a report's CPU time) runs on one worker, overlapping the drawing
   * and the documents; see pngq.c for why the bytes cannot change */
  struct render_pngq *pngq = NULL;
  if (rc == 0) rc = render_pngq_start(&pngq, 1, err);
  render_imgcache_set_writer(imgs, pngq);
  json_t *drawn = json_object();
  if (!drawn && rc == 0) rc = ssdrev_fail(err, -ENOMEM, "out of memory rendering '%s'", o->template_path);
  struct render_chart_sink keep = {.imgs = imgs, .pngq = pngq, .drawn = drawn};
  if (rc == 0) rc = render_expand(rs, o->template_path, text, charts, "charts", o->dpi, &x, &keep, &md, err);
  /* the template's own images (checked by the expansion) go next to the
   * review, where its HTML and PDF look for them */
  if (rc == 0) {
    struct render_images timgs;
    rc = render_template_images(o->template_path, text, "charts", &timgs, NULL, err);
    if (rc == 0) {
      rc = render_copy_template_images(o->template_path, &timgs, o->out_dir, err);
      render_images_free(&timgs);
    }
  }
  struct render_doc_meta meta = {.title = NULL, .subject = "SSD review", .base_dir = o->out_dir,
                                 .lang = render_template_lang(o->template_path, text), .image_dpi = o->dpi};
  free(text);
  struct render_html_opts ho = {.linked = o->html_linked, .drawn = drawn, .svg_max = o->html_svg_max, .pngq = pngq};
  struct out_ctx ctx = {.imgs = imgs, .html = &ho};
  /* a short review says so on every page, in the template's language */
  for (size_t i = 0; i < rs->n; i++)
    if (rs->v[i].short_review) meta.page_note = render_msg(meta.lang, MSG_SHORT_PAGE_NOTE);
  for (size_t i = 0; i < NFORMATS && rc == 0; i++) {
    if (!(mask & formats[i].bit)) continue;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", o->out_dir, formats[i].file);
    rc = formats[i].write(md, &meta, path, &ctx, err);
  }
  /* joined whatever happened, so no temporary file outlives the call; a
   * failure of ours is reported before the worker's */
  struct ssdrev_err qerr = {{0}};
  int qrc = render_pngq_finish(pngq, &qerr);
  if (rc == 0 && qrc < 0) {
    rc = qrc;
    if (err) *err = qerr;
  }
  render_imgcache_free(imgs);
  free(md);
  ssdrev_atomic_defer_sync(0);
  ssdrev_outputs_end(group, rc == 0); /* after the worker's last commit */
  /* the charts the last rendering wrote and this one did not go (prune.c) */
  if (rc == 0 && drawn) rc = render_charts_prune(charts, "charts", drawn, err);
  json_decref(drawn);
  return rc;
}
