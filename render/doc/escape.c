/* escape.c — the one Markdown escaping of generated text: every value the
 * renderer puts into a document (labels, DUT strings, test and cell names,
 * flag messages, template values, file names) goes through render_buf_md, so no
 * value can add a heading, a table row, a link, an image or raw HTML. */
#include <string.h>
#include <strings.h>
#include "render/render_int.h"

/* Punctuation that means something anywhere in a line: emphasis, code,
 * links and images (no "](" or "![" without a bracket), raw HTML and
 * entities, table cells, strikethrough, and the backslash itself. */
static const char always[] = "\\`*_[]<>&|~";
/* Punctuation that means something only at the start of a line (lists,
 * ATX headings, setext underlines, thematic breaks): escaped when it opens
 * the value, since a template may put the value at a line start. */
static const char leading[] = "#+-=";

void render_buf_md(struct render_buf *b, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  int at_start = 1; /* no visible character written yet */
  while (*p) {
    unsigned char c = *p;
    /* control characters (C0, DEL, and C1 as UTF-8 0xC2 0x80..0x9F) become
     * spaces: a newline would end the table row or start a block */
    if (c < 0x20 || c == 0x7f) {
      render_buf_putn(b, " ", 1);
      p++;
      continue;
    }
    if (c == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
      render_buf_putn(b, " ", 1);
      p += 2;
      continue;
    }
    if (at_start && c == ' ') {
      /* leading spaces would make an indented code block or hide a marker */
      p++;
      continue;
    }
    if (c < 0x80 && (strchr(always, c) || (at_start && strchr(leading, c)))) {
      render_buf_putn(b, "\\", 1);
      render_buf_putn(b, (const char *)p, 1);
      p++;
      at_start = 0;
      continue;
    }
    if (at_start && c >= '0' && c <= '9') {
      /* "1. x" or "1) x" at a line start is an ordered list item ("1.2" is not) */
      const unsigned char *q = p;
      while (*q >= '0' && *q <= '9') q++;
      render_buf_putn(b, (const char *)p, (size_t)(q - p));
      if ((*q == '.' || *q == ')') && (q[1] == 0 || q[1] <= ' ')) {
        render_buf_putn(b, "\\", 1);
        render_buf_putn(b, (const char *)q, 1);
        q++;
      }
      p = q;
      at_start = 0;
      continue;
    }
    /* GFM's extended autolinks: "http://x" (and any "scheme:/"), "mailto:",
     * "xmpp:" and "www.x" would become links; their ':' or dot is escaped */
    if (c == ':' && (p[1] == '/' || (p - (const unsigned char *)s >= 6 && !strncasecmp((const char *)p - 6, "mailto", 6)) ||
                     (p - (const unsigned char *)s >= 4 && !strncasecmp((const char *)p - 4, "xmpp", 4))))
      render_buf_putn(b, "\\", 1);
    /* "www.x" is an extended autolink too: its dot is escaped */
    if (c == '.' && p - (const unsigned char *)s >= 3 && !strncasecmp((const char *)p - 3, "www", 3))
      render_buf_putn(b, "\\", 1);
    render_buf_putn(b, (const char *)p, 1);
    p++;
    at_start = 0;
  }
}
