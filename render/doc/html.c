/* html.c — Markdown to a standalone, print-friendly HTML page through
 * cmark-gfm with its table (and strikethrough, autolink) extensions. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include "render/render_int.h"

static const char css[] =
    "body{font-family:'DejaVu Sans','NanumGothic',sans-serif;max-width:52em;margin:2em auto;padding:0 1em;"
    "line-height:1.5;color:#222}\n"
    "h1{font-size:1.8em;border-bottom:2px solid #0073b3;padding-bottom:.2em}\n"
    "h2{font-size:1.35em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}\n"
    "th,td{border:1px solid #999;padding:.25em .6em}\nth{background:#eee}\n"
    "img{max-width:100%;height:auto}\n"
    "blockquote{border-left:4px solid #d55e00;background:#fff4ec;margin:1em 0;padding:.4em 1em}\n"
    "code{font-family:'DejaVu Sans Mono',monospace;font-size:.9em}\n"
    "@media print{body{max-width:none;margin:0}h2{page-break-after:avoid}img,table{page-break-inside:avoid}}\n";

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

int render_md_to_html(const char *md, const struct render_doc_meta *meta, char **html, struct ssdrev_err *err) {
  *html = NULL;
  cmark_parser *p = NULL;
  cmark_node *root = render_md_parse(md, &p);
  if (!root) return ssdrev_fail(err, -ENOMEM, "cannot parse the Markdown document");
  char *body = cmark_render_html(root, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(p));
  char *h1 = first_heading(root);
  const char *title = meta && meta->title ? meta->title : h1 ? h1 : "ssdrev review";
  struct render_buf b = {0};
  render_buf_puts(&b, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>");
  html_escape(&b, title);
  render_buf_printf(&b, "</title>\n<meta name=\"generator\" content=\"ssdrev %s\">\n<style>\n%s</style>\n</head>\n<body>\n",
              SSDREV_VERSION, css);
  if (body) render_buf_puts(&b, body);
  render_buf_puts(&b, "</body>\n</html>\n");
  free(body);
  free(h1);
  cmark_node_free(root);
  cmark_parser_free(p);
  if (b.oom || !body) {
    render_buf_free(&b);
    return ssdrev_fail(err, -ENOMEM, "out of memory rendering HTML");
  }
  *html = b.s;
  return 0;
}
