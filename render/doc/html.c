/* html.c — Markdown to a standalone, print-friendly HTML page through
 * cmark-gfm with its table (and strikethrough, autolink) extensions. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include "render/render_int.h"

/* Fonts from the reader's system (no web fonts to fetch): the platform UI
 * fonts, then the Hangul ones, then what the PDF and charts use. Korean
 * wraps between words (keep-all), as Korean typesetting does. */
static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans KR','Apple SD Gothic Neo',"
    "'Malgun Gothic',NanumGothic,'DejaVu Sans',sans-serif;max-width:52em;margin:2em auto;padding:0 1em;"
    "line-height:1.55;color:#222;background:#fff}\n"
    "html:lang(ko) body{word-break:keep-all;overflow-wrap:anywhere}\n"
    /* but a table cell breaks a word only when it must: "anywhere" counts
     * in the table's layout and squeezed compare's first column to
     * "SEQ1 / M Q8 / T1" */
    "html:lang(ko) th,html:lang(ko) td{overflow-wrap:break-word}\n"
    "h1{font-size:1.8em;line-height:1.25;border-bottom:2px solid #0073b3;padding-bottom:.2em}\n"
    "h2{font-size:1.35em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em;font-variant-numeric:tabular-nums}\n"
    "th,td{border:1px solid #999;padding:.25em .6em}\nth{background:#eee}\n"
    /* a date in a cell, with its time or range (nowrap_dates) */
    ".nw{white-space:nowrap}\n"
    "img,svg{max-width:100%;height:auto}\n"
    "figure{margin:1.2em 0}\nfigure svg,figure img{display:block;width:100%;height:auto}\n"
    /* a figure's caption, and the *caption* line tables.c writes under a table */
    "figcaption,table+p:has(>em:only-child){font-size:.9em;color:#444;text-align:center;margin-top:.3em}\n"
    "blockquote{border-left:4px solid #d55e00;background:#fff4ec;margin:1em 0;padding:.4em 1em}\n"
    "code{font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:.9em}\n"
    "pre{overflow-x:auto}\n"
    /* on screen a table wider than the text (compare's overview of six
     * groups, any table on a phone) scrolls inside its box instead of
     * running past the page's edge; print keeps tables as tables */
    "@media screen{table{display:block;overflow-x:auto;max-width:100%}}\n"
    "@media (max-width:40em){body{margin:1em auto;font-size:.95em}}\n"
    "@media print{@page{size:A4;margin:16mm 15mm}body{max-width:none;margin:0;padding:0;font-size:10pt}"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
    "h1,h2,h3{break-after:avoid;page-break-after:avoid}"
    "figure,table,blockquote,pre{break-inside:avoid;page-break-inside:avoid}"
    "a{color:inherit;text-decoration:none}a[href^='http']::after{content:' (' attr(href) ')';font-size:.85em}}\n";

cmark_node *render_md_parse(const char *md, cmark_parser **parser_out) {
  cmark_gfm_core_extensions_ensure_registered();
  cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
  if (!p) return NULL;
  static const char *const exts[] = {"table", "strikethrough", "autolink"};
  for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
    cmark_syntax_extension *x = cmark_find_syntax_extension(exts[i]);
    if (x) cmark_parser_attach_syntax_extension(p, x);
  }
  cmark_parser_feed(p, md, strlen(md));
  cmark_node *root = cmark_parser_finish(p);
  if (!root) {
    cmark_parser_free(p);
    return NULL;
  }
  *parser_out = p;
  return root;
}

/* Counted: containers that nest without bound (a list item, paragraph,
 * heading or table part sits at a fixed place inside its parent). */
static int nests(cmark_node *n) {
  cmark_node_type t = cmark_node_get_type(n);
  if (t == CMARK_NODE_BLOCK_QUOTE || t == CMARK_NODE_LIST) return 1;
  return (t & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE && cmark_node_first_child(n) != NULL;
}

int render_md_too_deep(cmark_node *root) {
  cmark_iter *it = cmark_iter_new(root);
  if (!it) return 0;
  cmark_event_type ev;
  int depth = 0, line = 0;
  while (!line && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *n = cmark_iter_get_node(it);
    if (!nests(n)) continue;
    if (ev == CMARK_EVENT_EXIT) {
      depth--;
      continue;
    }
    if (++depth <= RENDER_MD_MAX_DEPTH) continue;
    /* an inline node may carry no position: its block's line */
    for (cmark_node *a = n; a && !line; a = cmark_node_parent(a)) line = cmark_node_get_start_line(a);
    if (!line) line = 1;
  }
  cmark_iter_free(it);
  return line;
}

static void html_escape(struct render_buf *b, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '<': render_buf_puts(b, "&lt;"); break;
    case '>': render_buf_puts(b, "&gt;"); break;
    case '&': render_buf_puts(b, "&amp;"); break;
    case '"': render_buf_puts(b, "&quot;"); break;
    default: render_buf_putn(b, s, 1);
    }
  }
}

/* The text of the first heading, for <title> (malloc'd) or NULL. */
static char *first_heading(cmark_node *root) {
  cmark_iter *it = cmark_iter_new(root);
  char *title = NULL;
  cmark_event_type ev;
  int in_h = 0;
  struct render_buf b = {0};
  while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *n = cmark_iter_get_node(it);
    if (cmark_node_get_type(n) == CMARK_NODE_HEADING) {
      if (ev == CMARK_EVENT_ENTER) in_h = 1;
      else break;
    } else if (in_h && ev == CMARK_EVENT_ENTER && cmark_node_get_literal(n) &&
               (cmark_node_get_type(n) == CMARK_NODE_TEXT || cmark_node_get_type(n) == CMARK_NODE_CODE)) {
      render_buf_puts(&b, cmark_node_get_literal(n));
    }
  }
  cmark_iter_free(it);
  if (b.s && !b.oom) title = b.s;
  else render_buf_free(&b);
  return title;
}

/* ---------------------------------------------------- dates in tables */

/* Where LIT holds an ISO date (YYYY-MM-DD), its offset; else -1. */
static long iso_date_at(const char *lit) {
  for (const char *q = lit; *q; q++) {
    int ok = 1;
    for (int k = 0; k < 10 && ok; k++) ok = k == 4 || k == 7 ? q[k] == '-' : q[k] >= '0' && q[k] <= '9';
    if (ok) return (long)(q - lit);
  }
  return -1;
}

/* A date in a table cell never breaks: a browser breaks "2019-03-11" after
 * a hyphen in a narrow column (compare's Measured: "2019-03-" / "11"),
 * where the PDF breaks at ' ' only. Each such date, with what is joined
 * to it by no-break spaces (a time, a range "D .. D"), is put between
 * MARK "O" and MARK "C" in its text node, which nowrap_spans turns into
 * <span class="nw"> and </span> once rendered (the safe renderer drops
 * raw HTML, and a table cell takes no custom node). Returns 0 or -ENOMEM. */
static int nowrap_dates(cmark_node *root, const char *mark) {
  cmark_iter *it = cmark_iter_new(root);
  if (!it) return -ENOMEM;
  cmark_event_type ev;
  int rc = 0;
  while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *t = cmark_iter_get_node(it);
    if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(t) != CMARK_NODE_TEXT) continue;
    const char *lit = cmark_node_get_literal(t);
    if (!lit || iso_date_at(lit) < 0) continue;
    int in_cell = 0;
    for (cmark_node *a = cmark_node_parent(t); a && !in_cell; a = cmark_node_parent(a)) {
      const char *ts = cmark_node_get_type_string(a);
      in_cell = ts && !strcmp(ts, "table_cell");
    }
    if (!in_cell) continue;
    struct render_buf b = {0};
    const char *q = lit;
    long at;
    while ((at = iso_date_at(q)) >= 0) {
      size_t len = 10;
      while (q[at + len] && q[at + len] != ' ') len++; /* up to an ordinary space */
      render_buf_putn(&b, q, (size_t)at);
      render_buf_printf(&b, "%sO", mark);
      render_buf_putn(&b, q + at, len);
      render_buf_printf(&b, "%sC", mark);
      q += at + len;
    }
    render_buf_puts(&b, q);
    /* the literal is copied in: setting it while the iterator stands on the
     * node is safe (the walk follows links, not the text) */
    if (b.oom || !b.s || !cmark_node_set_literal(t, b.s)) rc = -ENOMEM;
    render_buf_free(&b);
  }
  cmark_iter_free(it);
  return rc;
}

/* The rendered BODY with nowrap_dates' marks as spans, into OUT. */
static void nowrap_spans(struct render_buf *out, const char *body, const char *mark) {
  size_t ml = strlen(mark);
  for (const char *q = body;;) {
    const char *m = strstr(q, mark);
    if (!m || (m[ml] != 'O' && m[ml] != 'C')) {
      render_buf_puts(out, q);
      return;
    }
    render_buf_putn(out, q, (size_t)(m - q));
    render_buf_puts(out, m[ml] == 'O' ? "<span class=\"nw\">" : "</span>");
    q = m + ml + 1;
  }
}

/* ------------------------------------------------------------- figures */

/* The text of an image's alt (its caption), malloc'd ("" when none). */
static char *alt_text(cmark_node *img) {
  struct render_buf b = {0};
  cmark_iter *it = cmark_iter_new(img);
  cmark_event_type ev;
  while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *n = cmark_iter_get_node(it);
    if (ev == CMARK_EVENT_ENTER && n != img && cmark_node_get_literal(n)) render_buf_puts(&b, cmark_node_get_literal(n));
  }
  cmark_iter_free(it);
  render_buf_puts(&b, "");
  if (b.oom) {
    render_buf_free(&b);
    return NULL;
  }
  return b.s;
}

/* An SVG chart as inline markup: the XML prolog dropped, every id (cairo
 * names its clip paths clip1, clip2, ... in each file) prefixed with PFX so
 * that two charts in one page do not share them. Only markup inside tags is
 * rewritten: the text of the chart is escaped and never holds '<'. */
static int put_inline_svg(struct render_buf *b, const char *svg, const char *pfx, const char *label) {
  const char *p = strstr(svg, "<svg");
  if (!p) return -EINVAL;
  render_buf_puts(b, "<svg role=\"img\" aria-label=\"");
  html_escape(b, label);
  render_buf_puts(b, "\"");
  p += 4;
  static const char *const refs[] = {"id=\"", "url(#", "href=\"#"};
  int in_tag = 1;
  while (*p) {
    if (*p == '<') in_tag = 1;
    else if (*p == '>') in_tag = 0;
    size_t k = 0;
    if (in_tag)
      for (; k < 3; k++)
        if (!strncmp(p, refs[k], strlen(refs[k]))) break;
    if (in_tag && k < 3) {
      render_buf_puts(b, refs[k]);
      render_buf_puts(b, pfx);
      p += strlen(refs[k]);
    } else {
      render_buf_putn(b, p, 1);
      p++;
    }
  }
  return 0;
}

/* The chart drawn at link URL ("charts/NAME.png") inside a <figure>: its
 * SVG inline, or the PNG as a data: URI when the SVG is bigger than
 * ho->svg_max bytes. Only links the report drew itself come here. */
static int put_chart(struct render_buf *b, const char *url, const char *alt, unsigned idx,
                     const struct render_doc_meta *meta, const struct render_html_opts *ho, struct ssdrev_err *err) {
  char path[8400];
  const char *dir = meta && meta->base_dir ? meta->base_dir : ".";
  size_t ul = strlen(url);
  if (ul < 4 || strcmp(url + ul - 4, ".png"))
    return ssdrev_fail(err, -EINVAL, "chart link '%s' is not a .png", url);
  snprintf(path, sizeof path, "%s/%.*s.svg", dir, (int)(ul - 4), url);
  char *data = NULL;
  size_t len = 0;
  size_t max = ho->svg_max ? ho->svg_max : RENDER_HTML_SVG_MAX;
  int rc = ssdrev_read_file(path, &data, &len, max, err);
  if (rc == 0) {
    char pfx[24];
    snprintf(pfx, sizeof pfx, "f%u-", idx);
    rc = put_inline_svg(b, data, pfx, alt);
    free(data);
    if (rc < 0) return ssdrev_fail(err, rc, "chart '%s' is not an SVG document", path);
    return 0;
  }
  free(data);
  if (rc < 0 && rc != -EFBIG) return rc;
  /* too heavy as markup: the PNG, once its worker has written it */
  render_pngq_drain(ho->pngq);
  snprintf(path, sizeof path, "%s/%s", dir, url);
  rc = ssdrev_read_file(path, &data, &len, 256u << 20, err);
  if (rc < 0) return rc;
  render_buf_puts(b, "<img alt=\"");
  html_escape(b, alt);
  render_buf_puts(b, "\" src=\"data:image/png;base64,");
  render_buf_base64(b, (const unsigned char *)data, len);
  render_buf_puts(b, "\">");
  free(data);
  return 0;
}

struct figure {
  char *url, *alt; /* malloc'd */
};

int render_html_from_md(const char *md, const struct render_doc_meta *meta, const struct render_html_opts *ho,
                        char **html, struct ssdrev_err *err) {
  *html = NULL;
  static const struct render_html_opts linked = {.linked = 1};
  if (!ho) ho = &linked;
  cmark_parser *p = NULL;
  cmark_node *root = render_md_parse(md, &p);
  if (!root) return ssdrev_fail(err, -ENOMEM, "cannot parse the Markdown document");
  char nwmark[40] = "SSDREVNOWRAP"; /* as the figures' mark below: in no line of MD */
  for (size_t l = strlen(nwmark); strstr(md, nwmark) && l + 2 < sizeof nwmark; l++) {
    nwmark[l] = 'Q';
    nwmark[l + 1] = 0;
  }
  if (nowrap_dates(root, nwmark)) {
    cmark_node_free(root);
    cmark_parser_free(p);
    return ssdrev_fail(err, -ENOMEM, "out of memory rendering the HTML");
  }
  /* A paragraph that is one image becomes a <figure> with its alt text as
   * <figcaption>. cmark-gfm (safe mode: the author's raw HTML is dropped)
   * renders no figures, so each such paragraph gets a marker text that no
   * document line holds, and the rendered "<p><img ...>MARK</p>" is
   * replaced afterwards. */
  char mark[40] = "SSDREVFIGURE";
  for (size_t l = strlen(mark); strstr(md, mark) && l + 2 < sizeof mark; l++) {
    mark[l] = 'Q';
    mark[l + 1] = 0;
  }
  struct figure *figs = NULL;
  unsigned nfig = 0, capfig = 0;
  int rc = 0;
  for (cmark_node *n = cmark_node_first_child(root); n && rc == 0; n = cmark_node_next(n)) {
    cmark_node *img = cmark_node_first_child(n);
    if (cmark_node_get_type(n) != CMARK_NODE_PARAGRAPH || !img || cmark_node_get_type(img) != CMARK_NODE_IMAGE ||
        cmark_node_next(img))
      continue;
    if (nfig == capfig) {
      capfig = capfig ? capfig * 2 : 16;
      struct figure *nf = realloc(figs, capfig * sizeof *figs);
      if (!nf) {
        rc = -ENOMEM;
        break;
      }
      figs = nf;
    }
    const char *u = cmark_node_get_url(img);
    figs[nfig].url = strdup(u ? u : "");
    figs[nfig].alt = alt_text(img);
    char txt[64];
    snprintf(txt, sizeof txt, "%s%uE", mark, nfig);
    cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
    nfig++;
    if (!figs[nfig - 1].url || !figs[nfig - 1].alt || !t || !cmark_node_set_literal(t, txt) ||
        !cmark_node_append_child(n, t)) {
      if (t && !cmark_node_parent(t)) cmark_node_free(t);
      rc = -ENOMEM;
    }
  }
  char *body = rc == 0 ? cmark_render_html(root, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(p)) : NULL;
  if (body && strstr(body, nwmark)) {
    struct render_buf nb = {0};
    nowrap_spans(&nb, body, nwmark);
    free(body);
    body = nb.oom ? NULL : nb.s;
    if (!body) render_buf_free(&nb);
  }
  char *h1 = first_heading(root);
  const char *title = meta && meta->title ? meta->title : h1 ? h1 : "ssdrev review";
  const char *lang = render_lang_code(meta ? meta->lang : RENDER_LANG_EN);
  struct render_buf b = {0};
  render_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"");
  html_escape(&b, lang);
  render_buf_puts(&b, "\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
  html_escape(&b, title);
  render_buf_printf(&b, "</title>\n<meta name=\"generator\" content=\"ssdrev %s\">\n<style>\n%s</style>\n</head>\n<body>\n",
              SSDREV_VERSION, css);
  const char *cur = body ? body : "";
  for (unsigned i = 0; i < nfig && rc == 0; i++) {
    char want[64];
    snprintf(want, sizeof want, "%s%uE</p>", mark, i);
    const char *at = strstr(cur, want), *open = NULL;
    for (const char *q = at ? strstr(cur, "<p>") : NULL; q && q < at; q = strstr(q + 1, "<p>")) open = q;
    if (!at || !open) {
      rc = ssdrev_fail(err, -EINVAL, "HTML figure %u lost its place (marker %s)", i, mark);
      break;
    }
    render_buf_putn(&b, cur, (size_t)(open - cur));
    render_buf_puts(&b, "<figure>\n");
    if (!ho->linked && ho->drawn && json_object_get(ho->drawn, figs[i].url)) {
      rc = put_chart(&b, figs[i].url, figs[i].alt, i + 1, meta, ho, err);
    } else {
      render_buf_putn(&b, open + 3, (size_t)(at - open - 3)); /* cmark's <img>: its URL checks kept */
    }
    render_buf_puts(&b, "\n");
    if (figs[i].alt[0]) {
      render_buf_puts(&b, "<figcaption>");
      html_escape(&b, figs[i].alt);
      render_buf_puts(&b, "</figcaption>\n");
    }
    render_buf_puts(&b, "</figure>");
    cur = at + strlen(want);
  }
  if (rc == 0) render_buf_puts(&b, cur);
  render_buf_puts(&b, "</body>\n</html>\n");
  for (unsigned i = 0; i < nfig; i++) {
    free(figs[i].url);
    free(figs[i].alt);
  }
  free(figs);
  int oom = b.oom || !body;
  free(body);
  free(h1);
  cmark_node_free(root);
  cmark_parser_free(p);
  if (rc < 0 || oom) {
    render_buf_free(&b);
    return rc < 0 && rc != -ENOMEM ? rc : ssdrev_fail(err, -ENOMEM, "out of memory rendering HTML");
  }
  *html = b.s;
  return 0;
}

int render_md_to_html(const char *md, const struct render_doc_meta *meta, char **html, struct ssdrev_err *err) {
  return render_html_from_md(md, meta, NULL, html, err);
}
