/* test_render_escape.c — render_buf_md, the renderer's one Markdown escaping of
 * generated values: hostile labels stay text in Markdown, HTML and PDF. */
#include "render/render_int.h"
#include "tests/unit/testlib.h"

static char *esc(const char *s) {
  struct render_buf b = {0};
  render_buf_md(&b, s);
  if (!b.s) render_buf_puts(&b, "");
  return b.s;
}

/* The HTML cmark-gfm makes of MD (the renderer's own conversion). */
static char *html_of(const char *md) {
  char *html = NULL;
  struct ssdrev_err err = {{0}};
  if (render_md_to_html(md, NULL, &html, &err) < 0) return NULL;
  return html;
}

TEST("Plain labels, model names and firmware versions pass through unchanged") {
  const char *plain[] = {"PM981 256GB", "SAMSUNG MZVLB256HAHQ-000L7", "1L2QEXD7", "NVMe 1.2", "1.2", "75%",
                         "PCIe 3.0 x4", "드라이브 1", "Samsung (OEM)"};
  for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
    char *e = esc(plain[i]);
    CHECK_STR(e, plain[i]);
    free(e);
  }
}

TEST("Markdown punctuation is backslash-escaped and control characters become spaces") {
  char *e = esc("a*b_c`d[e]f<g>h&i|j~k\\l http://x www.y");
  CHECK_STR(e, "a\\*b\\_c\\`d\\[e\\]f\\<g\\>h\\&i\\|j\\~k\\\\l http\\://x www\\.y");
  free(e);
  e = esc("x\ny\rz\tw\033[31m\x7f" "\xc2\x9b" "q");
  CHECK_STR(e, "x y z w \\[31m  q");
  free(e);
  e = esc("drive (FOB): few; mailto:a xmpp:b");
  CHECK_STR(e, "drive (FOB): few; mailto\\:a xmpp\\:b");
  free(e);
}

TEST("Markers that only count at a line start are escaped when they open the value") {
  const char *in[] = {"# Heading", "- item", "+ item", "=== ", "1. first", "12) x", "   # indented"};
  const char *want[] = {"\\# Heading", "\\- item", "\\+ item", "\\=== ", "1\\. first", "12\\) x", "\\# indented"};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    char *e = esc(in[i]);
    CHECK_STR(e, want[i]);
    free(e);
  }
  char *e = esc("a - b # c");
  CHECK_STR(e, "a - b # c");
  free(e);
}

TEST("A hostile label stays one line of text in the HTML: no heading, image, link or raw HTML") {
  const char *label = "PM\n# Owned\n![p](/etc/passwd.png) <script>alert(1)</script> [l](http://x) www.x.org | cell &amp;";
  struct render_buf md = {0};
  render_buf_puts(&md, "# Review of ");
  render_buf_md(&md, label);
  render_buf_puts(&md, "\n\n| Drive | x |\n| --- | --- |\n| ");
  render_buf_md(&md, label);
  render_buf_puts(&md, " | 1 |\n\n");
  render_buf_md(&md, label);
  render_buf_puts(&md, "\n");
  REQUIRE(md.s);
  char *html = html_of(md.s);
  REQUIRE(html);
  CHECK(!strstr(html, "<img"));
  CHECK(!strstr(html, "<script"));
  CHECK(!strstr(html, "<a "));
  CHECK(!strstr(html, "<h1>Owned"));
  CHECK(strstr(html, "&lt;script&gt;") != NULL);
  CHECK(strstr(html, "&amp;amp;") != NULL);
  /* one heading, one table whose body row has exactly two cells */
  const char *h = strstr(html, "<h1");
  REQUIRE(h);
  CHECK(!strstr(h + 1, "<h1"));
  CHECK(!strstr(html, "<h2"));
  const char *row = strstr(html, "<tbody>");
  REQUIRE(row);
  size_t cells = 0;
  for (const char *c = row; (c = strstr(c, "<td")); c++) cells++;
  CHECK_EQ_U64(cells, 2);
  free(html);
  render_buf_free(&md);
}
