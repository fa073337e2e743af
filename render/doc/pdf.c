/* pdf.c — Markdown to PDF with libharu: the generated Markdown is
 * parsed by cmark-gfm and its AST walked into pages (title, headings with
 * outline entries, wrapped paragraphs, lists, quotes, code, GFM tables with
 * borders and alignment, PNG images, page numbers, document info).
 * Text is UTF-8 in embedded TrueType fonts: DejaVu Sans for Latin, Greek and
 * symbols, NanumGothic for Hangul and for any glyph DejaVu lacks. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hpdf.h>
#include <hpdf_font.h>
#include <hpdf_fontdef.h>
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include "render/render_int.h"

#define FONT_DIR_DEJAVU "/usr/share/fonts/truetype/dejavu/"
#define FONT_DIR_NANUM "/usr/share/fonts/truetype/nanum/"

enum { ST_REG, ST_BOLD, ST_ITALIC, ST_MONO, ST_N };
enum { FAM_LATIN, FAM_HANGUL, FAM_N };

static const char *const font_files[ST_N][FAM_N] = {
    {FONT_DIR_DEJAVU "DejaVuSans.ttf", FONT_DIR_NANUM "NanumGothic.ttf"},
    {FONT_DIR_DEJAVU "DejaVuSans-Bold.ttf", FONT_DIR_NANUM "NanumGothicBold.ttf"},
    {FONT_DIR_DEJAVU "DejaVuSans-Oblique.ttf", FONT_DIR_NANUM "NanumGothic.ttf"},
    {FONT_DIR_DEJAVU "DejaVuSansMono.ttf", FONT_DIR_NANUM "NanumGothicCoding.ttf"},
};

/* Page geometry (A4, points). */
#define PAGE_W 595.276
#define PAGE_H 841.89
#define MARGIN_L 56.0
#define MARGIN_R 56.0
#define MARGIN_T 60.0
#define MARGIN_B 64.0
#define BODY_PT 10.0
#define TABLE_PT 8.5

struct glyph {
  uint32_t cp;
  uint8_t style, fam, len, link;
  uint8_t brk;      /* a line may break before this glyph */
  uint8_t space;    /* a space (dropped at a line end) */
  float w;          /* advance in pt at the run's size */
  const char *src;  /* UTF-8 bytes (in the text arena) */
};

struct gvec {
  struct glyph *v;
  size_t n, cap;
  double size;
};

struct pdf {
  HPDF_Doc doc;
  HPDF_Font font[ST_N][FAM_N];
  /* per font, per BMP code point: advance in 1/1000 em, -1 = no glyph,
   * 0x7fff = not looked up yet (libharu's cmap lookup is a linear scan) */
  int16_t *metrics[ST_N][FAM_N];
  HPDF_Page *pages;
  size_t npages, cappages;
  HPDF_Page page;
  double y;              /* baseline cursor, from the page bottom */
  double indent;         /* left indent of the current block */
  HPDF_Outline outline[4];
  int seen_title;
  const char *base_dir;
  double image_dpi;            /* meta->image_dpi: the charts' pixels per inch (0 = 300) */
  struct render_imgcache *imgs; /* chart pixels drawn by this report (may be NULL) */
  const char *title;
  const char *page_note;       /* meta->page_note: on every page's header */
  HPDF_STATUS hpdf_error, hpdf_detail;
  struct render_buf arena;     /* keeps inline text alive while laid out */
  struct ssdrev_err *err;
  int failed;
};

static void on_hpdf_error(HPDF_STATUS e, HPDF_STATUS detail, void *user) {
  struct pdf *p = user;
  if (!p->hpdf_error) {
    p->hpdf_error = e;
    p->hpdf_detail = detail;
  }
}

/* --------------------------------------------------------------- UTF-8 */

static size_t utf8_next(const char *s, uint32_t *cp) {
  const unsigned char *u = (const unsigned char *)s;
  if (u[0] < 0x80) {
    *cp = u[0];
    return 1;
  }
  if ((u[0] & 0xE0) == 0xC0 && (u[1] & 0xC0) == 0x80) {
    *cp = ((uint32_t)(u[0] & 0x1F) << 6) | (u[1] & 0x3F);
    return 2;
  }
  if ((u[0] & 0xF0) == 0xE0 && (u[1] & 0xC0) == 0x80 && (u[2] & 0xC0) == 0x80) {
    *cp = ((uint32_t)(u[0] & 0x0F) << 12) | ((uint32_t)(u[1] & 0x3F) << 6) | (u[2] & 0x3F);
    return 3;
  }
  if ((u[0] & 0xF8) == 0xF0 && (u[1] & 0xC0) == 0x80 && (u[2] & 0xC0) == 0x80 && (u[3] & 0xC0) == 0x80) {
    *cp = ((uint32_t)(u[0] & 0x07) << 18) | ((uint32_t)(u[1] & 0x3F) << 12) | ((uint32_t)(u[2] & 0x3F) << 6) |
          (u[3] & 0x3F);
    return 4;
  }
  *cp = 0xFFFD;
  return 1;
}

/* Hangul (jamo, compatibility jamo, syllables): Korean is written with
 * spaces between words, so a line breaks at those, never inside a word. */
static int is_hangul(uint32_t c) {
  return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x3130 && c <= 0x318F) || (c >= 0xA960 && c <= 0xA97F) ||
         (c >= 0xAC00 && c <= 0xD7FF);
}

static int is_cjk(uint32_t c) {
  return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF);
}

#define METRIC_UNKNOWN 0x7fff

/* Width of cp in font (style, fam) in 1/1000 em, or -1 if it has no glyph. */
static int glyph_metric(struct pdf *p, int style, int fam, uint32_t cp) {
  HPDF_Font f = p->font[style][fam];
  if (!f || cp > 0xFFFF) return -1;
  int16_t *m = p->metrics[style][fam];
  if (!m) {
    m = malloc(65536 * sizeof *m);
    if (!m) return -1;
    for (size_t i = 0; i < 65536; i++) m[i] = METRIC_UNKNOWN;
    p->metrics[style][fam] = m;
  }
  if (m[cp] == METRIC_UNKNOWN) {
    HPDF_FontAttr attr = (HPDF_FontAttr)f->attr;
    if (HPDF_TTFontDef_GetGlyphid(attr->fontdef, (HPDF_UINT16)cp) == 0) m[cp] = -1;
    else {
      HPDF_INT w = HPDF_Font_GetUnicodeWidth(f, (HPDF_UNICODE)cp);
      m[cp] = (int16_t)(w < 0 ? 0 : w > 30000 ? 30000 : w);
    }
  }
  return m[cp];
}

/* ---------------------------------------------------------------- glyphs */

static int gvec_push(struct gvec *g, const struct glyph *x) {
  if (g->n == g->cap) {
    size_t cap = g->cap ? g->cap * 2 : 256;
    struct glyph *v = realloc(g->v, cap * sizeof *v);
    if (!v) return -ENOMEM;
    g->v = v;
    g->cap = cap;
  }
  g->v[g->n++] = *x;
  return 0;
}

/* Appends UTF-8 text in a style: picks the font per character (Hangul and
 * CJK -> Nanum; anything else DejaVu, or Nanum if DejaVu lacks it), measures
 * it and marks break opportunities (after spaces; around Chinese and
 * Japanese characters, not inside Korean words). */
static void add_text(struct pdf *p, struct gvec *g, const char *text, int style, int link) {
  size_t off = p->arena.len;
  render_buf_puts(&p->arena, text);
  render_buf_putn(&p->arena, "", 1); /* keep a NUL between pieces */
  if (p->arena.oom) return;
  (void)off;
  /* glyphs point into the arena, which may move on growth: store offsets
   * now and fix pointers in layout (src holds the offset until then) */
  const char *s = text;
  while (*s) {
    uint32_t cp;
    size_t n = utf8_next(s, &cp);
    if (cp == '\t' || cp == '\n' || cp == '\r') cp = ' ';
    struct glyph gl = {0};
    gl.cp = cp;
    gl.style = (uint8_t)style;
    gl.len = (uint8_t)n;
    gl.link = (uint8_t)link;
    gl.src = (const char *)(uintptr_t)(off + (size_t)(s - text));
    int fam = is_cjk(cp) ? FAM_HANGUL : FAM_LATIN;
    if (glyph_metric(p, style, fam, cp) < 0) fam = fam == FAM_LATIN ? FAM_HANGUL : FAM_LATIN;
    if (glyph_metric(p, style, fam, cp) < 0) {
      /* neither font has it: a visible replacement, never a silent gap */
      fam = FAM_LATIN;
      gl.cp = '?';
      gl.src = (const char *)(uintptr_t)SIZE_MAX;
      gl.len = 1;
    }
    gl.fam = (uint8_t)fam;
    gl.space = cp == ' ';
    int w = glyph_metric(p, style, fam, gl.cp);
    gl.w = (float)((w > 0 ? w : 0) * g->size / 1000.0);
    const struct glyph *prev = g->n ? &g->v[g->n - 1] : NULL;
    /* after a space; around Chinese and Japanese characters (written
     * without spaces), not Hangul; a word too long for a line is still
     * cut where it overflows (line_end) */
    gl.brk = prev && !gl.space &&
             (prev->space || (is_cjk(cp) && !is_hangul(cp)) || (is_cjk(prev->cp) && !is_hangul(prev->cp)));
    if (gvec_push(g, &gl) < 0) {
      p->arena.oom = 1;
      return;
    }
    s += n;
  }
}

static const char *glyph_src(const struct pdf *p, const struct glyph *g) {
  uintptr_t off = (uintptr_t)g->src;
  return off == (uintptr_t)SIZE_MAX ? "?" : p->arena.s + off;
}

/* Flattens the inline children of NODE into glyphs. */
static void add_inlines(struct pdf *p, struct gvec *g, cmark_node *node, int style, int link) {
  for (cmark_node *c = cmark_node_first_child(node); c; c = cmark_node_next(c)) {
    switch (cmark_node_get_type(c)) {
    case CMARK_NODE_TEXT:
      add_text(p, g, cmark_node_get_literal(c), style, link);
      break;
    case CMARK_NODE_CODE:
      add_text(p, g, cmark_node_get_literal(c), ST_MONO, link);
      break;
    case CMARK_NODE_SOFTBREAK:
      add_text(p, g, " ", style, link);
      break;
    case CMARK_NODE_LINEBREAK:
      add_text(p, g, "\n", style, link); /* becomes a space; hard breaks are rare in reviews */
      break;
    case CMARK_NODE_STRONG:
      add_inlines(p, g, c, ST_BOLD, link);
      break;
    case CMARK_NODE_EMPH:
      add_inlines(p, g, c, style == ST_BOLD ? ST_BOLD : ST_ITALIC, link);
      break;
    case CMARK_NODE_LINK:
      add_inlines(p, g, c, style, 1);
      break;
    case CMARK_NODE_IMAGE:
      add_inlines(p, g, c, ST_ITALIC, link);
      break;
    default:
      add_inlines(p, g, c, style, link);
    }
  }
}

/* ----------------------------------------------------------------- pages */

static void new_page(struct pdf *p) {
  HPDF_Page pg = HPDF_AddPage(p->doc);
  if (!pg) {
    /* libharu refuses every call once an error is recorded: stop drawing,
     * keep the previous page so no call sees a NULL page */
    if (!p->failed) p->failed = -EIO;
    if (!p->page) p->page = NULL;
    return;
  }
  p->page = pg;
  HPDF_Page_SetWidth(p->page, PAGE_W);
  HPDF_Page_SetHeight(p->page, PAGE_H);
  if (p->npages == p->cappages) {
    size_t cap = p->cappages ? p->cappages * 2 : 16;
    HPDF_Page *v = realloc(p->pages, cap * sizeof *v);
    if (!v) {
      p->failed = -ENOMEM;
      return;
    }
    p->pages = v;
    p->cappages = cap;
  }
  p->pages[p->npages++] = p->page;
  p->y = PAGE_H - MARGIN_T;
}

/* Starts a new page unless NEED points fit above the bottom margin. */
static void need(struct pdf *p, double pts) {
  if (p->y - pts < MARGIN_B) new_page(p);
}

static double content_w(const struct pdf *p) { return PAGE_W - MARGIN_L - MARGIN_R - p->indent; }

/* Breaks glyphs [from, n) into lines of at most WIDTH; returns the index
 * one past the last glyph of the first line (skipping leading spaces). */
static size_t line_end(const struct gvec *g, size_t from, double width) {
  double w = 0;
  size_t last_brk = 0;
  for (size_t i = from; i < g->n; i++) {
    if (g->v[i].brk && i > from) last_brk = i;
    /* the slack: a table column is a cell's natural width plus padding, and
     * (natural + 2 pad) - 2 pad may round below natural, which broke the
     * last glyph of the widest cell onto a line of its own */
    if (w + g->v[i].w > width + 1e-6 && i > from && !g->v[i].space) return last_brk > from ? last_brk : i;
    w += g->v[i].w;
  }
  return g->n;
}

static size_t skip_spaces(const struct gvec *g, size_t i) {
  while (i < g->n && g->v[i].space) i++;
  return i;
}

static double span_width(const struct gvec *g, size_t a, size_t b) {
  double w = 0;
  while (b > a && g->v[b - 1].space) b--; /* trailing spaces do not count */
  for (size_t i = a; i < b; i++) w += g->v[i].w;
  return w;
}

/* Draws glyphs [a, b) starting at x on baseline y, one TextOut per font run. */
static void draw_span(struct pdf *p, const struct gvec *g, size_t a, size_t b, double x, double y) {
  while (b > a && g->v[b - 1].space) b--;
  struct render_buf run = {0};
  size_t i = a;
  while (i < b) {
    size_t j = i;
    double w = 0;
    run.len = 0;
    if (run.s) run.s[0] = 0;
    while (j < b && g->v[j].style == g->v[i].style && g->v[j].fam == g->v[i].fam && g->v[j].link == g->v[i].link) {
      render_buf_putn(&run, glyph_src(p, &g->v[j]), g->v[j].len);
      w += g->v[j].w;
      j++;
    }
    if (run.s && !run.oom) {
      if (g->v[i].link) HPDF_Page_SetRGBFill(p->page, 0.0f, 0.30f, 0.65f);
      HPDF_Page_BeginText(p->page);
      HPDF_Page_SetFontAndSize(p->page, p->font[g->v[i].style][g->v[i].fam], (HPDF_REAL)g->size);
      HPDF_Page_TextOut(p->page, (HPDF_REAL)x, (HPDF_REAL)y, run.s);
      HPDF_Page_EndText(p->page);
      if (g->v[i].link) HPDF_Page_SetRGBFill(p->page, 0, 0, 0);
    }
    x += w;
    i = j;
  }
  render_buf_free(&run);
}

/* Lays a glyph vector out as a paragraph at the cursor, page-breaking
 * between lines. align: 0 left, 1 centre. */
static void flow(struct pdf *p, struct gvec *g, double leading, int align) {
  size_t i = skip_spaces(g, 0);
  double x0 = MARGIN_L + p->indent, width = content_w(p);
  while (i < g->n) {
    size_t e = line_end(g, i, width);
    need(p, leading);
    p->y -= leading;
    double lw = span_width(g, i, e);
    draw_span(p, g, i, e, align == 1 ? x0 + (width - lw) / 2 : x0, p->y + leading * 0.25);
    i = skip_spaces(g, e);
  }
}

static void gvec_free(struct gvec *g) {
  free(g->v);
  memset(g, 0, sizeof *g);
}

/* --------------------------------------------------------------- blocks */

static void walk_blocks(struct pdf *p, cmark_node *parent);

static void plain_text(cmark_node *node, struct render_buf *b) {
  for (cmark_node *c = cmark_node_first_child(node); c; c = cmark_node_next(c)) {
    const char *lit = cmark_node_get_literal(c);
    if (cmark_node_get_type(c) == CMARK_NODE_SOFTBREAK) render_buf_puts(b, " ");
    else if (lit && (cmark_node_get_type(c) == CMARK_NODE_TEXT || cmark_node_get_type(c) == CMARK_NODE_CODE))
      render_buf_puts(b, lit);
    else plain_text(c, b);
  }
}

/* A paragraph holding only an image (and whitespace) is a figure. */
static cmark_node *sole_image(cmark_node *para) {
  cmark_node *img = NULL;
  for (cmark_node *c = cmark_node_first_child(para); c; c = cmark_node_next(c)) {
    cmark_node_type t = cmark_node_get_type(c);
    if (t == CMARK_NODE_IMAGE && !img) img = c;
    else if (t == CMARK_NODE_TEXT && strspn(cmark_node_get_literal(c), " ") == strlen(cmark_node_get_literal(c)))
      continue;
    else if (t == CMARK_NODE_SOFTBREAK) continue;
    else return NULL;
  }
  return img;
}

static void image_path(const struct pdf *p, const char *url, char *path, size_t len) {
  if (url[0] == '/' || !p->base_dir) snprintf(path, len, "%s", url);
  else snprintf(path, len, "%s/%s", p->base_dir, url);
}

/* An image of IW x IH pixels as drawn: at the resolution it was drawn at
 * (--dpi 60 printed them at a fifth of their size, taken as 300 dpi), at
 * most the text's width. */
#define IMAGE_NEED_EXTRA 22.0 /* the room kept under an image: its gap and a caption line */
static void image_size_pt(const struct pdf *p, double iw, double ih, double *w, double *h) {
  *w = iw * 72.0 / (p->image_dpi > 0 ? p->image_dpi : 300.0);
  if (*w > content_w(p)) *w = content_w(p);
  *h = ih * *w / iw;
}

/* The page height an image takes with its caption (block_image's need()),
 * from its pixels' size: a chart this report drew (in memory), else its PNG
 * file's IHDR; 0 when neither is known. */
static double image_need_pt(struct pdf *p, cmark_node *img) {
  const char *url = cmark_node_get_url(img);
  char path[8300];
  image_path(p, url, path, sizeof path);
  int iw = 0, ih = 0;
  if (!render_imgcache_size(p->imgs, path, &iw, &ih)) {
    render_imgcache_settle(p->imgs);
    FILE *f = fopen(path, "rb");
    unsigned char h[24];
    int ok = f && fread(h, 1, sizeof h, f) == sizeof h && !memcmp(h, "\x89PNG\r\n\x1a\n", 8) && !memcmp(h + 12, "IHDR", 4);
    if (f) fclose(f);
    if (!ok) return 0;
    iw = (int)((unsigned)h[16] << 24 | (unsigned)h[17] << 16 | (unsigned)h[18] << 8 | h[19]);
    ih = (int)((unsigned)h[20] << 24 | (unsigned)h[21] << 16 | (unsigned)h[22] << 8 | h[23]);
  }
  if (iw <= 0 || ih <= 0) return 0;
  double w, h;
  image_size_pt(p, iw, ih, &w, &h);
  return h + IMAGE_NEED_EXTRA;
}

static void block_heading(struct pdf *p, cmark_node *n) {
  int level = cmark_node_get_heading_level(n);
  int title = level == 1 && !p->seen_title;
  double size = title ? 22 : level == 1 ? 17 : level == 2 ? 14 : 11.5;
  double before = title ? 0 : level <= 2 ? 14 : 9;
  /* keep a heading with at least three lines of what follows, or with the
   * whole figure when a chart comes next */
  cmark_node *next = cmark_node_next(n);
  double follow = 3 * BODY_PT * 1.45;
  /* a heading right under this one (## A then ### B) must come along too */
  for (; next && cmark_node_get_type(next) == CMARK_NODE_HEADING; next = cmark_node_next(next)) follow += 30;
  /* the figure as tall as it will be drawn (a 260 pt guess left "Fill drive"
   * alone at the foot of a page, its 1950 x 1020 chart needing 257 + 22) */
  cmark_node *fig = next && cmark_node_get_type(next) == CMARK_NODE_PARAGRAPH ? sole_image(next) : NULL;
  if (fig) {
    double ih = image_need_pt(p, fig);
    follow += (ih > 0 ? ih : 260) - 3 * BODY_PT * 1.45;
  }
  /* the heading itself as drawn below: its space before, its line (1.3 x
   * its size), the rule and space after (10 under a ## heading, else 5);
   * size x 1.4 fell 8.6 pt short, and the chart then went to the next page */
  need(p, before + size * 1.3 + (level <= 2 ? 10 : 5) + follow);
  if (p->y < PAGE_H - MARGIN_T - 1) p->y -= before;
  struct gvec g = {.size = size};
  add_inlines(p, &g, n, ST_BOLD, 0);
  if (title) HPDF_Page_SetRGBFill(p->page, 0.0f, 0.30f, 0.55f);
  flow(p, &g, size * 1.3, 0);
  HPDF_Page_SetRGBFill(p->page, 0, 0, 0);
  gvec_free(&g);
  if (level <= 2) {
    HPDF_Page_SetLineWidth(p->page, title ? 1.5f : 0.6f);
    if (title) HPDF_Page_SetRGBStroke(p->page, 0.0f, 0.45f, 0.70f);
    else HPDF_Page_SetRGBStroke(p->page, 0.6f, 0.6f, 0.6f);
    HPDF_Page_MoveTo(p->page, MARGIN_L, (HPDF_REAL)(p->y - 3));
    HPDF_Page_LineTo(p->page, (HPDF_REAL)(PAGE_W - MARGIN_R), (HPDF_REAL)(p->y - 3));
    HPDF_Page_Stroke(p->page);
    HPDF_Page_SetRGBStroke(p->page, 0, 0, 0);
  }
  p->y -= level <= 2 ? 10 : 5;
  /* outline: H1 at the root, H2 under the last H1, H3 under the last H2 */
  struct render_buf t = {0};
  plain_text(n, &t);
  if (t.s && !t.oom) {
    int lv = level > 3 ? 3 : level;
    HPDF_Outline parent = NULL; /* NULL = the outline root */
    for (int k = lv - 1; k >= 1; k--)
      if (p->outline[k]) {
        parent = p->outline[k];
        break;
      }
    HPDF_Outline o = HPDF_CreateOutline(p->doc, parent, t.s, HPDF_GetEncoder(p->doc, "UTF-8"));
    if (o) {
      HPDF_Destination d = HPDF_Page_CreateDestination(p->page);
      HPDF_Destination_SetFitH(d, (HPDF_REAL)(p->y + size * 2 + 14));
      HPDF_Outline_SetDestination(o, d);
      HPDF_Outline_SetOpened(o, HPDF_TRUE);
      p->outline[lv] = o;
      for (int k = lv + 1; k < 4; k++) p->outline[k] = NULL;
    }
    if (title && !p->title) {
      HPDF_SetInfoAttr(p->doc, HPDF_INFO_TITLE, t.s);
    }
  }
  render_buf_free(&t);
  if (title) p->seen_title = 1;
}

static void block_image(struct pdf *p, cmark_node *img) {
  const char *url = cmark_node_get_url(img);
  char path[8300];
  image_path(p, url, path, sizeof path);
  size_t ul = strlen(url);
  HPDF_Image im = NULL;
  int iw = 0, ih = 0;
  unsigned char *rgb = ul > 4 && !strcmp(url + ul - 4, ".png") ? render_imgcache_take(p->imgs, path, &iw, &ih) : NULL;
  /* a chart this report drew: its pixels are at hand, no PNG to decode
   * (the same RGB samples, so the same embedded image) */
  if (rgb) im = HPDF_LoadRawImageFromMem(p->doc, rgb, (HPDF_UINT)iw, (HPDF_UINT)ih, HPDF_CS_DEVICE_RGB, 8);
  free(rgb);
  if (!im && ul > 4 && !strcmp(url + ul - 4, ".png")) {
    render_imgcache_settle(p->imgs); /* the file may still be in the PNG worker's hands */
    if (access(path, R_OK) == 0) im = HPDF_LoadPngImageFromFile(p->doc, path);
  }
  if (!im) {
    /* a missing image is an error, not a silent hole in the review */
    if (!p->failed) {
      p->failed = -ENOENT;
      ssdrev_fail(p->err, -ENOENT, "cannot embed image '%s' in the PDF (PNG files only)", path);
    }
    return;
  }
  double w, h;
  image_size_pt(p, HPDF_Image_GetWidth(im), HPDF_Image_GetHeight(im), &w, &h);
  need(p, h + IMAGE_NEED_EXTRA);
  p->y -= h + 4;
  HPDF_Page_DrawImage(p->page, im, (HPDF_REAL)(MARGIN_L + p->indent + (content_w(p) - w) / 2), (HPDF_REAL)p->y,
                      (HPDF_REAL)w, (HPDF_REAL)h);
  struct gvec g = {.size = 8.5};
  add_inlines(p, &g, img, ST_ITALIC, 0);
  HPDF_Page_SetRGBFill(p->page, 0.3f, 0.3f, 0.3f);
  flow(p, &g, 12, 1);
  HPDF_Page_SetRGBFill(p->page, 0, 0, 0);
  gvec_free(&g);
  p->y -= 8;
}

static void block_paragraph(struct pdf *p, cmark_node *n) {
  cmark_node *img = sole_image(n);
  if (img) {
    block_image(p, img);
    return;
  }
  struct gvec g = {.size = BODY_PT};
  add_inlines(p, &g, n, ST_REG, 0);
  flow(p, &g, BODY_PT * 1.45, 0);
  gvec_free(&g);
  p->y -= 6;
}

static void block_code(struct pdf *p, cmark_node *n) {
  const char *lit = cmark_node_get_literal(n);
  const double size = 8, lead = 10.5;
  while (lit && *lit) {
    const char *eol = strchr(lit, '\n');
    size_t len = eol ? (size_t)(eol - lit) : strlen(lit);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), lit);
    need(p, lead);
    p->y -= lead;
    HPDF_Page_SetRGBFill(p->page, 0.95f, 0.95f, 0.95f);
    HPDF_Page_Rectangle(p->page, (HPDF_REAL)(MARGIN_L + p->indent), (HPDF_REAL)(p->y - 2), (HPDF_REAL)content_w(p),
                        (HPDF_REAL)lead);
    HPDF_Page_Fill(p->page);
    HPDF_Page_SetRGBFill(p->page, 0, 0, 0);
    struct gvec g = {.size = size};
    add_text(p, &g, line, ST_MONO, 0);
    draw_span(p, &g, 0, g.n, MARGIN_L + p->indent + 4, p->y + 1);
    gvec_free(&g);
    lit += len + (eol ? 1 : 0);
  }
  p->y -= 8;
}

static void block_list(struct pdf *p, cmark_node *n) {
  int ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
  int k = cmark_node_get_list_start(n);
  for (cmark_node *item = cmark_node_first_child(n); item; item = cmark_node_next(item)) {
    char mark[16];
    if (ordered) snprintf(mark, sizeof mark, "%d.", k++);
    else snprintf(mark, sizeof mark, "•");
    need(p, BODY_PT * 1.45);
    double top = p->y;
    struct gvec g = {.size = BODY_PT};
    add_text(p, &g, mark, ST_REG, 0);
    draw_span(p, &g, 0, g.n, MARGIN_L + p->indent + 2, top - BODY_PT * 1.45 + BODY_PT * 1.45 * 0.25);
    gvec_free(&g);
    p->indent += 16;
    walk_blocks(p, item);
    p->indent -= 16;
  }
  p->y -= 2;
}

static void block_quote(struct pdf *p, cmark_node *n) {
  need(p, BODY_PT * 3);
  HPDF_Page page = p->page;
  double top = p->y;
  p->indent += 12;
  walk_blocks(p, n);
  p->indent -= 12;
  if (p->page == page) {
    HPDF_Page_SetRGBFill(page, 0.84f, 0.37f, 0.0f);
    HPDF_Page_Rectangle(page, (HPDF_REAL)(MARGIN_L + p->indent), (HPDF_REAL)(p->y + 4), 3,
                        (HPDF_REAL)(top - p->y - 4));
    HPDF_Page_Fill(page);
    HPDF_Page_SetRGBFill(page, 0, 0, 0);
  }
}

/* ----------------------------------------------------------------- tables */

#define MAX_COLS 16

struct tcell {
  struct gvec g;
  double natural, minimum; /* width on one line; widest unbreakable piece */
  size_t nlines;
};

static void cell_measure(struct tcell *c) {
  c->natural = span_width(&c->g, 0, c->g.n);
  double w = 0;
  c->minimum = 0;
  for (size_t i = 0; i < c->g.n; i++) {
    if (c->g.v[i].brk) w = 0;
    w += c->g.v[i].w;
    if (w > c->minimum) c->minimum = w;
  }
}

static size_t cell_lines(const struct tcell *c, double width) {
  size_t n = 0, i = skip_spaces(&c->g, 0);
  while (i < c->g.n) {
    i = skip_spaces(&c->g, line_end(&c->g, i, width));
    n++;
  }
  return n ? n : 1;
}

static void draw_row(struct pdf *p, struct tcell *cells, size_t ncols, const double *colw, const uint8_t *align,
                     double row_h, int header, double lead) {
  const double pad = 4;
  double x = MARGIN_L + p->indent;
  double top = p->y;
  if (header) {
    HPDF_Page_SetRGBFill(p->page, 0.90f, 0.91f, 0.93f);
    HPDF_Page_Rectangle(p->page, (HPDF_REAL)x, (HPDF_REAL)(top - row_h), (HPDF_REAL)(colw[ncols]), (HPDF_REAL)row_h);
    HPDF_Page_Fill(p->page);
    HPDF_Page_SetRGBFill(p->page, 0, 0, 0);
  }
  for (size_t c = 0; c < ncols; c++) {
    struct tcell *cell = &cells[c];
    double inner = colw[c] - 2 * pad, y = top - pad;
    size_t i = skip_spaces(&cell->g, 0);
    while (i < cell->g.n) {
      size_t e = line_end(&cell->g, i, inner);
      double lw = span_width(&cell->g, i, e);
      double lx = align[c] == 'r' ? x + colw[c] - pad - lw : align[c] == 'c' ? x + (colw[c] - lw) / 2 : x + pad;
      y -= lead;
      draw_span(p, &cell->g, i, e, lx, y + lead * 0.25);
      i = skip_spaces(&cell->g, e);
    }
    HPDF_Page_SetLineWidth(p->page, 0.5f);
    HPDF_Page_SetRGBStroke(p->page, 0.45f, 0.45f, 0.45f);
    HPDF_Page_Rectangle(p->page, (HPDF_REAL)x, (HPDF_REAL)(top - row_h), (HPDF_REAL)colw[c], (HPDF_REAL)row_h);
    HPDF_Page_Stroke(p->page);
    x += colw[c];
  }
  p->y = top - row_h;
}

/* The largest W with sum(max(FLOOR, min(NAT, W))) <= AVAIL (bisection;
 * 0 when the floors alone are wider). */
static double table_cap(const double *nat, const double *floor, size_t n, double avail) {
  double lo = 0, hi = 0;
  for (size_t c = 0; c < n; c++) hi = nat[c] > hi ? nat[c] : hi;
  for (int it = 0; it < 40; it++) {
    double w = (lo + hi) / 2, sum = 0;
    for (size_t c = 0; c < n; c++) {
      double x = nat[c] < w ? nat[c] : w;
      sum += x < floor[c] ? floor[c] : x;
    }
    if (sum <= avail) lo = w;
    else hi = w;
  }
  return lo;
}

static void block_table(struct pdf *p, cmark_node *t) {
  uint8_t *al = cmark_gfm_extensions_get_table_alignments(t);
  uint16_t ncols = cmark_gfm_extensions_get_table_columns(t);
  if (ncols > MAX_COLS) ncols = MAX_COLS;
  uint8_t align[MAX_COLS] = {0};
  for (size_t c = 0; c < ncols; c++) align[c] = al ? al[c] : 0;
  size_t nrows = 0;
  for (cmark_node *r = cmark_node_first_child(t); r; r = cmark_node_next(r)) nrows++;
  struct tcell *cells = calloc(nrows * ncols + 1, sizeof *cells);
  if (!cells) {
    p->failed = -ENOMEM;
    return;
  }
  const double lead = TABLE_PT * 1.35, pad = 4;
  size_t ri = 0;
  for (cmark_node *r = cmark_node_first_child(t); r; r = cmark_node_next(r), ri++) {
    size_t ci = 0;
    for (cmark_node *c = cmark_node_first_child(r); c && ci < ncols; c = cmark_node_next(c), ci++) {
      struct tcell *cell = &cells[ri * ncols + ci];
      cell->g.size = TABLE_PT;
      add_inlines(p, &cell->g, c, ri == 0 ? ST_BOLD : ST_REG, 0);
      cell_measure(cell);
    }
    for (; ci < ncols; ci++) cells[ri * ncols + ci].g.size = TABLE_PT;
  }
  /* column widths: natural when they fit, else shrink the wide columns
   * toward their widest unbreakable piece */
  double colw[MAX_COLS + 1] = {0}, minw[MAX_COLS] = {0}, total = 0, avail = content_w(p);
  for (size_t c = 0; c < ncols; c++) {
    for (size_t r = 0; r < nrows; r++) {
      struct tcell *cell = &cells[r * ncols + c];
      if (cell->natural + 2 * pad > colw[c]) colw[c] = cell->natural + 2 * pad;
      if (cell->minimum + 2 * pad > minw[c]) minw[c] = cell->minimum + 2 * pad;
    }
    if (colw[c] < 24) colw[c] = 24;
    total += colw[c];
  }
  if (total > avail) {
    /* too wide: cap every column at one width W (never below its widest
     * unbreakable piece), the largest W that fits -- the widest columns give
     * way first, so one long header does not keep its width while the
     * narrow columns wrap their numbers; if the unbreakable pieces alone do
     * not fit, cap those the same way (the widest then break inside words) */
    double nat[MAX_COLS], none[MAX_COLS] = {0};
    for (size_t c = 0; c < ncols; c++) nat[c] = colw[c];
    double w = table_cap(nat, minw, ncols, avail);
    total = 0;
    for (size_t c = 0; c < ncols; c++) {
      double x = nat[c] < w ? nat[c] : w;
      colw[c] = x < minw[c] ? minw[c] : x;
      total += colw[c];
    }
    if (total > avail) {
      w = table_cap(colw, none, ncols, avail);
      for (size_t c = 0; c < ncols; c++) colw[c] = colw[c] < w ? colw[c] : w;
    }
  }
  colw[ncols] = 0;
  for (size_t c = 0; c < ncols; c++) colw[ncols] += colw[c];
  /* rows, page-breaking between them and repeating the header */
  double hdr_h = 0;
  for (size_t r = 0; r < nrows; r++) {
    size_t lines = 1;
    for (size_t c = 0; c < ncols; c++) {
      size_t l = cell_lines(&cells[r * ncols + c], colw[c] - 2 * pad);
      if (l > lines) lines = l;
    }
    double h = lines * lead + 2 * pad - 2;
    if (r == 0) {
      hdr_h = h;
      need(p, hdr_h + h * 2);
    } else if (p->y - h < MARGIN_B) {
      new_page(p);
      draw_row(p, cells, ncols, colw, align, hdr_h, 1, lead);
    }
    draw_row(p, &cells[r * ncols], ncols, colw, align, h, r == 0, lead);
  }
  HPDF_Page_SetRGBStroke(p->page, 0, 0, 0);
  for (size_t i = 0; i < nrows * ncols; i++) gvec_free(&cells[i].g);
  free(cells);
  p->y -= 12;
}

static void walk_blocks(struct pdf *p, cmark_node *parent) {
  for (cmark_node *n = cmark_node_first_child(parent); n && !p->failed; n = cmark_node_next(n)) {
    const char *tname = cmark_node_get_type_string(n);
    switch (cmark_node_get_type(n)) {
    case CMARK_NODE_HEADING: block_heading(p, n); break;
    case CMARK_NODE_PARAGRAPH: block_paragraph(p, n); break;
    case CMARK_NODE_CODE_BLOCK: block_code(p, n); break;
    case CMARK_NODE_LIST: block_list(p, n); break;
    case CMARK_NODE_ITEM: walk_blocks(p, n); break;
    case CMARK_NODE_BLOCK_QUOTE: block_quote(p, n); break;
    case CMARK_NODE_THEMATIC_BREAK:
      need(p, 12);
      p->y -= 6;
      HPDF_Page_SetLineWidth(p->page, 0.5f);
      HPDF_Page_MoveTo(p->page, MARGIN_L, (HPDF_REAL)p->y);
      HPDF_Page_LineTo(p->page, (HPDF_REAL)(PAGE_W - MARGIN_R), (HPDF_REAL)p->y);
      HPDF_Page_Stroke(p->page);
      p->y -= 8;
      break;
    default:
      if (tname && !strcmp(tname, "table")) block_table(p, n);
      /* raw HTML and the like have no PDF form: skipped */
      break;
    }
  }
}

/* ------------------------------------------------------------ the document */

static void page_numbers(struct pdf *p) {
  for (size_t i = 0; i < p->npages; i++) {
    char num[64];
    snprintf(num, sizeof num, "%zu / %zu", i + 1, p->npages);
    struct gvec g = {.size = 8};
    p->page = p->pages[i];
    add_text(p, &g, num, ST_REG, 0);
    double w = span_width(&g, 0, g.n);
    HPDF_Page_SetRGBFill(p->page, 0.35f, 0.35f, 0.35f);
    draw_span(p, &g, 0, g.n, (PAGE_W - w) / 2, MARGIN_B / 2);
    gvec_free(&g);
    if (p->page_note) {
      struct gvec h = {.size = 7.5};
      add_text(p, &h, p->page_note, ST_BOLD, 0);
      double nw = span_width(&h, 0, h.n);
      HPDF_Page_SetRGBFill(p->page, 0.70f, 0.10f, 0.10f);
      draw_span(p, &h, 0, h.n, PAGE_W - MARGIN_R - nw, PAGE_H - MARGIN_T / 2);
      HPDF_Page_SetRGBFill(p->page, 0.35f, 0.35f, 0.35f);
      gvec_free(&h);
    }
    if (p->title && i > 0) {
      struct gvec h = {.size = 7.5};
      add_text(p, &h, p->title, ST_REG, 0);
      draw_span(p, &h, 0, h.n, MARGIN_L, PAGE_H - MARGIN_T / 2);
      gvec_free(&h);
    }
    HPDF_Page_SetRGBFill(p->page, 0, 0, 0);
  }
}

/* libharu 2.3.0 gives every UTF-8 TrueType font a /ToUnicode stream that is
   really an encoding CMap ("begincidrange <0000> <FFFF> 0"): poppler warns
   "Invalid 'begincidrange' operator in ToUnicode CMap" and other readers may
   not map copied text back. With its UTF-8 encoder the codes in our content
   streams are the characters' UTF-16 (BMP) values (the CIDToGIDMap maps them
   to glyphs), so the right ToUnicode is the identity: rewrite the stream
   libharu made (same object, so nothing dangles) with bfrange entries. */
static int fix_tounicode(HPDF_Font font) {
  HPDF_Dict tu = HPDF_Dict_GetItem(font, "ToUnicode", HPDF_OCLASS_DICT);
  if (!tu || !tu->stream) return -1;
  HPDF_MemStream_FreeData(tu->stream);
  HPDF_STATUS st = HPDF_Stream_WriteStr(tu->stream,
                                        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
                                        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
                                        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
                                        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n");
  /* one bfrange per high byte (a range may not cross it), surrogates
     D800-DFFF left out, at most 100 entries per block */
  unsigned hi = 0;
  while (st == HPDF_OK && hi < 256) {
    unsigned his[100], n = 0;
    for (; hi < 256 && n < 100; hi++)
      if (hi < 0xD8 || hi > 0xDF) his[n++] = hi;
    char line[64];
    snprintf(line, sizeof line, "%u beginbfrange\n", n);
    st = HPDF_Stream_WriteStr(tu->stream, line);
    for (unsigned i = 0; i < n && st == HPDF_OK; i++) {
      snprintf(line, sizeof line, "<%02X00> <%02XFF> <%02X00>\n", his[i], his[i], his[i]);
      st = HPDF_Stream_WriteStr(tu->stream, line);
    }
    if (st == HPDF_OK) st = HPDF_Stream_WriteStr(tu->stream, "endbfrange\n");
  }
  if (st == HPDF_OK)
    st = HPDF_Stream_WriteStr(tu->stream, "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
  return st == HPDF_OK ? 0 : -1;
}

static int load_fonts(struct pdf *p) {
  const char *loaded_path[ST_N * FAM_N] = {0}, *loaded_name[ST_N * FAM_N] = {0};
  size_t nloaded = 0;
  for (int s = 0; s < ST_N; s++)
    for (int f = 0; f < FAM_N; f++) {
      const char *path = font_files[s][f], *name = NULL;
      /* a file used twice (Nanum has no italic) is embedded once */
      for (size_t i = 0; i < nloaded; i++)
        if (!strcmp(loaded_path[i], path)) name = loaded_name[i];
      if (!name) {
        if (access(path, R_OK) != 0)
          return ssdrev_fail(p->err, -ENOENT,
                             "cannot read font '%s' (Debian packages fonts-dejavu-core, fonts-nanum)", path);
        name = HPDF_LoadTTFontFromFile(p->doc, path, HPDF_TRUE);
        if (name) {
          loaded_path[nloaded] = path;
          loaded_name[nloaded++] = name;
        }
      }
      p->font[s][f] = name ? HPDF_GetFont(p->doc, name, "UTF-8") : NULL;
      if (!p->font[s][f])
        return ssdrev_fail(p->err, -EIO, "cannot load font '%s' into the PDF (libharu error 0x%04X)", path,
                           (unsigned)p->hpdf_error);
      if (fix_tounicode(p->font[s][f]) < 0)
        return ssdrev_fail(p->err, -EIO, "cannot write the ToUnicode map of font '%s' (libharu error 0x%04X)", path,
                           (unsigned)p->hpdf_error);
    }
  return 0;
}

/* through ssdrev_atomic_write, which keeps the errno libharu's status
 * loses ("libharu error 0x0000" was all a full disk said) */
static HPDF_STATUS write_stream(HPDF_Doc doc, struct ssdrev_atomic *a) {
  HPDF_STATUS st = HPDF_SaveToStream(doc);
  if (st != HPDF_OK) return st;
  HPDF_ResetStream(doc);
  for (;;) {
    HPDF_BYTE buf[65536];
    HPDF_UINT32 n = sizeof buf;
    st = HPDF_ReadFromStream(doc, buf, &n);
    if (ssdrev_atomic_write(a, buf, n)) return HPDF_FILE_IO_ERROR;
    if (st == HPDF_STREAM_EOF) return HPDF_OK;
    if (st != HPDF_OK) return st;
  }
}

int render_md_to_pdf(const char *md, const struct render_doc_meta *meta, const char *path, struct ssdrev_err *err) {
  return render_pdf_from_md(md, meta, path, NULL, err);
}

int render_pdf_from_md(const char *md, const struct render_doc_meta *meta, const char *path, struct render_imgcache *imgs,
                 struct ssdrev_err *err) {
  struct pdf p = {0};
  p.err = err;
  p.base_dir = meta ? meta->base_dir : NULL;
  p.image_dpi = meta ? meta->image_dpi : 0;
  p.imgs = imgs;
  p.doc = HPDF_New(on_hpdf_error, &p);
  if (!p.doc) return ssdrev_fail(err, -ENOMEM, "cannot create a PDF document");
  int rc = 0;
  cmark_parser *parser = NULL;
  cmark_node *root = NULL;
  HPDF_SetCompressionMode(p.doc, HPDF_COMP_ALL);
  HPDF_UseUTFEncodings(p.doc);
  HPDF_SetCurrentEncoder(p.doc, "UTF-8");
  rc = load_fonts(&p);
  if (rc < 0) goto out;
  root = render_md_parse(md, &parser);
  if (!root) {
    rc = ssdrev_fail(err, -ENOMEM, "cannot parse the Markdown document");
    goto out;
  }
  /* the layout below recurses once per level (walk_blocks, add_inlines) */
  int deep = render_md_too_deep(root);
  if (deep) {
    rc = ssdrev_fail(err, -EINVAL, "cannot lay out the PDF '%s': line %d of its Markdown: %s", path, deep,
                     RENDER_MD_DEPTH_MSG);
    goto out;
  }
  /* title for the running header: meta, else the first heading */
  struct render_buf title = {0};
  if (meta && meta->title) render_buf_puts(&title, meta->title);
  else
    for (cmark_node *n = cmark_node_first_child(root); n; n = cmark_node_next(n))
      if (cmark_node_get_type(n) == CMARK_NODE_HEADING) {
        plain_text(n, &title);
        break;
      }
  p.title = title.s;
  p.page_note = meta ? meta->page_note : NULL;
  HPDF_SetInfoAttr(p.doc, HPDF_INFO_CREATOR, "ssdrev " SSDREV_VERSION);
  HPDF_SetInfoAttr(p.doc, HPDF_INFO_PRODUCER, "ssdrev " SSDREV_VERSION " (libharu)");
  if (p.title) HPDF_SetInfoAttr(p.doc, HPDF_INFO_TITLE, p.title);
  if (meta && meta->subject) HPDF_SetInfoAttr(p.doc, HPDF_INFO_SUBJECT, meta->subject);
  HPDF_SetPageMode(p.doc, HPDF_PAGE_MODE_USE_OUTLINE);
  new_page(&p);
  if (p.page) walk_blocks(&p, root);
  else p.failed = -EIO;
  if (!p.failed) page_numbers(&p);
  if (p.hpdf_error) {
    rc = ssdrev_fail(err, -EIO, "cannot build the PDF '%s': libharu error 0x%04X (detail %u)", path,
                     (unsigned)p.hpdf_error, (unsigned)p.hpdf_detail);
    render_buf_free(&title);
    goto out;
  }
  if (p.failed || p.arena.oom) {
    rc = p.failed ? p.failed : -ENOMEM;
    if (!err || !err->msg[0]) ssdrev_fail(err, rc, "cannot lay out the PDF '%s': out of memory", path);
    render_buf_free(&title);
    goto out;
  }
  if (p.hpdf_error) {
    rc = ssdrev_fail(err, -EIO, "cannot build the PDF '%s': libharu error 0x%04X (detail %u)", path,
                     (unsigned)p.hpdf_error, (unsigned)p.hpdf_detail);
    render_buf_free(&title);
    goto out;
  }
  struct ssdrev_atomic a;
  rc = ssdrev_atomic_open(&a, path, err);
  if (rc == 0) {
    if (write_stream(p.doc, &a) != HPDF_OK || p.hpdf_error) {
      if (a.write_errno) {
        rc = ssdrev_atomic_fail(&a, err);
      } else {
        ssdrev_atomic_abort(&a);
        rc = ssdrev_fail(err, -EIO, "cannot write the PDF '%s': libharu error 0x%04X (detail %u)", path,
                         (unsigned)p.hpdf_error, (unsigned)p.hpdf_detail);
      }
    } else {
      rc = ssdrev_atomic_commit(&a, err);
    }
  }
  render_buf_free(&title);
out:
  if (root) cmark_node_free(root);
  if (parser) cmark_parser_free(parser);
  HPDF_Free(p.doc);
  for (int st = 0; st < ST_N; st++)
    for (int f = 0; f < FAM_N; f++) free(p.metrics[st][f]);
  free(p.pages);
  render_buf_free(&p.arena);
  return rc;
}
