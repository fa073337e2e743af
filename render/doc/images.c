/* images.c — which images a rendered review may show: the charts this
 * report draws (CHART_REL/NAME.png) and files under the template's own
 * directory that the template's prose links. Anything else (an absolute
 * path, "..", a URL with a scheme, a symbolic link out of the template's
 * directory, an image that a value smuggled in) is an error, so a review's
 * HTML and PDF never embed a local file they were not meant to. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "render/render_int.h"

void render_images_free(struct render_images *im) {
  for (size_t i = 0; i < im->n; i++) free(im->url[i]);
  free(im->url);
  free(im->line);
  memset(im, 0, sizeof *im);
}

int render_images_add(struct render_images *im, const char *url) {
  for (size_t i = 0; i < im->n; i++)
    if (!strcmp(im->url[i], url)) return 0;
  char **v = realloc(im->url, (im->n + 1) * sizeof *v);
  if (!v) return -ENOMEM;
  im->url = v;
  if (!(v[im->n] = strdup(url))) return -ENOMEM;
  im->n++;
  return 0;
}

int render_images_has(const struct render_images *im, const char *url) {
  for (size_t i = 0; i < im->n; i++)
    if (!strcmp(im->url[i], url)) return 1;
  return 0;
}

/* The directory part of PATH ("." when none). */
static void dir_of(const char *path, char *out, size_t len) {
  const char *slash = strrchr(path, '/');
  if (!slash) snprintf(out, len, ".");
  else if (slash == path) snprintf(out, len, "/");
  else snprintf(out, len, "%.*s", (int)(slash - path), path);
}

/* NULL when URL may be shown, else why not. */
static const char *url_refused(const char *url) {
  if (!url[0]) return "an empty path";
  if (url[0] == '/') return "an absolute path (give a path relative to the template's directory)";
  size_t pre = strcspn(url, ":/?#");
  if (url[pre] == ':') return "a URL (only files under the template's directory are shown)";
  /* '%' would be decoded by a browser ("%2e%2e"), not by the PDF writer */
  if (strpbrk(url, "%\\?#")) return "a path with '%', '\\', '?' or '#'";
  for (const char *c = url; *c;) {
    size_t n = strcspn(c, "/");
    if (n == 2 && c[0] == '.' && c[1] == '.') return "a path with a \"..\" component";
    c += n;
    if (*c == '/') c++;
  }
  return NULL;
}

/* Calls fn for every image of the Markdown text MD, in document order,
 * until it returns non-zero; -ENOMEM (err set) when MD cannot be parsed;
 * -E2BIG with *deep_line set (nothing else) when MD nests deeper than
 * RENDER_MD_MAX_DEPTH: the caller says where, before any output is made. */
typedef int (*image_fn)(void *ctx, const char *url, int line);
static int each_image(const char *md, const char *what, image_fn fn, void *ctx, int *deep_line,
                      struct ssdrev_err *err) {
  cmark_parser *p = NULL;
  cmark_node *root = render_md_parse(md, &p);
  if (!root) return ssdrev_fail(err, -ENOMEM, "out of memory parsing %s", what);
  int rc = 0;
  if ((*deep_line = render_md_too_deep(root))) {
    cmark_node_free(root);
    cmark_parser_free(p);
    return -E2BIG;
  }
  cmark_iter *it = cmark_iter_new(root);
  cmark_event_type ev;
  while (!rc && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *n = cmark_iter_get_node(it);
    if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_IMAGE) continue;
    const char *url = cmark_node_get_url(n);
    rc = fn(ctx, url ? url : "", cmark_node_get_start_line(n));
  }
  cmark_iter_free(it);
  cmark_node_free(root);
  cmark_parser_free(p);
  return rc;
}

struct template_scan {
  const char *tname, *chart_rel;
  size_t crl;
  char troot[PATH_MAX];
  int have_root;
  struct render_images *im, *charts;
  struct ssdrev_err *err;
};

static int template_image(void *ctx, const char *url, int line) {
  struct template_scan *t = ctx;
  if (!strncmp(url, t->chart_rel, t->crl) && url[t->crl] == '/') {
    /* a second link to a chart of this report: checked against the charts
     * the directives draw (render_expand), never read from the template's side */
    struct render_images *charts = t->charts;
    if (!charts || render_images_has(charts, url)) return 0; /* the first link's line is the one reported */
    int *lines = realloc(charts->line, (charts->n + 1) * sizeof *lines);
    if (lines) charts->line = lines;
    if (!lines || render_images_add(charts, url)) return ssdrev_fail(t->err, -ENOMEM, "out of memory");
    charts->line[charts->n - 1] = line;
    return 0;
  }
  const char *why = url_refused(url);
  char joined[PATH_MAX + 8], real[PATH_MAX];
  if (!why && !t->have_root) why = "in a template directory that cannot be resolved";
  if (!why) {
    snprintf(joined, sizeof joined, "%s/%s", t->troot, url);
    if (!realpath(joined, real)) why = "a file that does not exist";
  }
  if (!why) {
    size_t rl = strlen(t->troot);
    /* a symbolic link under the template's directory pointing out of it */
    if (strncmp(real, t->troot, rl) || (rl > 1 && real[rl] != '/')) why = "outside the template's directory";
  }
  if (!why) {
    struct ssdrev_err oe = {{0}};
    int fd = ssdrev_open_read(real, NULL, &oe);
    if (fd < 0) why = "not a regular file";
    else close(fd);
  }
  if (why) return ssdrev_fail(t->err, -EINVAL, "%s:%d: image '%s' is %s", t->tname, line, url, why);
  if (render_images_add(t->im, url)) return ssdrev_fail(t->err, -ENOMEM, "out of memory");
  return 0;
}

int render_template_images(const char *tname, const char *text, const char *chart_rel, struct render_images *im,
                           struct render_images *charts, struct ssdrev_err *err) {
  memset(im, 0, sizeof *im);
  if (charts) memset(charts, 0, sizeof *charts);
  struct template_scan t = {.tname = tname, .chart_rel = chart_rel, .crl = strlen(chart_rel), .im = im,
                            .charts = charts, .err = err};
  char tdir[PATH_MAX];
  dir_of(tname, tdir, sizeof tdir);
  t.have_root = realpath(tdir, t.troot) != NULL;
  int deep = 0;
  int rc = each_image(text, tname, template_image, &t, &deep, err);
  if (rc == -E2BIG) rc = ssdrev_fail(err, -EINVAL, "%s:%d: %s", tname, deep, RENDER_MD_DEPTH_MSG);
  if (rc) {
    render_images_free(im);
    if (charts) render_images_free(charts);
  }
  return rc;
}

struct doc_scan {
  const char *tname;
  const struct render_images *allowed;
  struct ssdrev_err *err;
};

static int doc_image(void *ctx, const char *url, int line) {
  struct doc_scan *d = ctx;
  (void)line;
  if (render_images_has(d->allowed, url)) return 0;
  return ssdrev_fail(d->err, -EINVAL,
                     "%s: the expanded review links image '%s', which is neither a chart of this report nor an image "
                     "of the template",
                     d->tname, url);
}

int render_check_doc_images(const char *tname, const char *md, const struct render_images *allowed,
                            struct ssdrev_err *err) {
  struct doc_scan d = {.tname = tname, .allowed = allowed, .err = err};
  int deep = 0;
  int rc = each_image(md, "the expanded review", doc_image, &d, &deep, err);
  /* the template passed the same check: a directive's output (a block
   * quote) added the level */
  if (rc == -E2BIG)
    rc = ssdrev_fail(err, -EINVAL, "%s: the expanded review's line %d: %s", tname, deep, RENDER_MD_DEPTH_MSG);
  return rc;
}

int render_copy_template_images(const char *tname, const struct render_images *im, const char *out_dir,
                            struct ssdrev_err *err) {
  char tdir[PATH_MAX];
  dir_of(tname, tdir, sizeof tdir);
  for (size_t i = 0; i < im->n; i++) {
    char src[PATH_MAX + 8], dst[PATH_MAX + 8];
    snprintf(src, sizeof src, "%s/%s", tdir, im->url[i]);
    if (snprintf(dst, sizeof dst, "%s/%s", out_dir, im->url[i]) >= (int)sizeof dst)
      return ssdrev_fail(err, -ENAMETOOLONG, "path too long: '%s/%s'", out_dir, im->url[i]);
    char *data = NULL;
    size_t len = 0;
    int rc = ssdrev_read_file(src, &data, &len, 64u << 20, err); /* regular files, bounded */
    if (rc < 0) return rc;
    char parent[PATH_MAX + 8];
    dir_of(dst, parent, sizeof parent);
    rc = ssdrev_mkdirs(parent, err);
    if (rc == 0) rc = ssdrev_write_file_atomic(dst, data, len, err);
    free(data);
    if (rc < 0) return rc;
  }
  return 0;
}
