/* canvas.c — the chart surface (PNG or SVG, drawn in points), nice ticks,
 * axes, lines, markers and legends shared by every chart kind. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cairo-svg.h>
#include "render/render_int.h"

/* ------------------------------------------------------------- numbers */

double render_canvas_nice_step(double lo, double hi, int max_ticks) {
  double span = hi - lo;
  if (!(span > 0) || max_ticks < 1) return 1;
  double raw = span / max_ticks;
  double mag = pow(10, floor(log10(raw)));
  double f = raw / mag;
  /* the smallest of 1, 2, 5, 10 x mag not below the raw step */
  double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return nice * mag;
}

void render_canvas_fmt_tick(char *buf, size_t len, double v, double step) {
  int dec = 0;
  if (step > 0 && step < 1) dec = (int)ceil(-log10(step) - 1e-9);
  if (dec > 6) dec = 6;
  if (fabs(v) < step * 1e-6) v = 0; /* no "-0" */
  char d[64];
  snprintf(d, sizeof d, "%.*f", dec, v);
  /* thousands separators in the integer part ("1,200,000", issue 27: an
   * axis of "1200000" is read digit by digit), as the tables' counts */
  render_group_digits(d, buf, len, 4);
}

void render_canvas_range(const double *v, size_t n, double *lo, double *hi, int from_zero) {
  double a = INFINITY, b = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(v[i])) continue;
    if (v[i] < a) a = v[i];
    if (v[i] > b) b = v[i];
  }
  if (!isfinite(a)) a = 0, b = 1;
  if (from_zero && a > 0) a = 0;
  if (b <= a) b = a + 1;
  b += (b - a) * 0.05; /* headroom for the top line */
  double step = render_canvas_nice_step(a, b, 6);
  *lo = floor(a / step) * step;
  *hi = ceil(b / step) * step;
}

/* --------------------------------------------------------------- output */

/* through ssdrev_atomic_write, which keeps the errno cairo's status loses */
static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int len) {
  return ssdrev_atomic_write(closure, data, len) ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

static cairo_status_t write_buf(void *closure, const unsigned char *data, unsigned int len) {
  struct render_buf *b = closure;
  render_buf_putn(b, (const char *)data, len);
  return b->oom ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

static cairo_status_t svg_commit(struct render_canvas *c);

/* cairo_t user data of an SVG chart: where render_canvas_text records text */
static const cairo_user_data_key_t svg_text_key;

int render_canvas_canvas_begin(struct render_canvas *c, const char *path, double w_in, double h_in, double dpi,
                    struct ssdrev_err *err) {
  memset(c, 0, sizeof *c);
  const char *dot = strrchr(path, '.');
  if (!dot || (strcmp(dot, ".png") && strcmp(dot, ".svg")))
    return ssdrev_fail(err, -EINVAL, "cannot tell the chart format of '%s': name it .png or .svg", path);
  c->svg = !strcmp(dot, ".svg");
  c->w_pt = w_in * 72;
  c->h_pt = h_in * 72;
  int rc = ssdrev_atomic_open(&c->out, path, err);
  if (rc < 0) return rc;
  c->out_open = 1;
  if (c->svg) {
    c->surface = cairo_svg_surface_create_for_stream(write_buf, &c->svg_doc, c->w_pt, c->h_pt);
  } else {
    int wpx = (int)lround(w_in * dpi), hpx = (int)lround(h_in * dpi);
    c->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, wpx, hpx);
  }
  if (cairo_surface_status(c->surface) != CAIRO_STATUS_SUCCESS) {
    render_canvas_canvas_abort(c);
    return ssdrev_fail(err, -ENOMEM, "cannot create a chart surface for '%s'", path);
  }
  c->cr = cairo_create(c->surface);
  if (!c->svg) cairo_scale(c->cr, dpi / 72.0, dpi / 72.0);
  else cairo_set_user_data(c->cr, &svg_text_key, &c->svg_text, NULL);
  cairo_set_source_rgb(c->cr, 1, 1, 1);
  cairo_paint(c->cr);
  cairo_set_line_join(c->cr, CAIRO_LINE_JOIN_ROUND);
  return 0;
}

void render_canvas_canvas_abort(struct render_canvas *c) {
  if (c->cr) cairo_destroy(c->cr);
  if (c->surface) {
    cairo_surface_finish(c->surface);
    cairo_surface_destroy(c->surface);
  }
  if (c->out_open) ssdrev_atomic_abort(&c->out);
  render_buf_free(&c->svg_doc);
  render_buf_free(&c->svg_text);
  memset(c, 0, sizeof *c);
}

int render_canvas_canvas_end(struct render_canvas *c, struct ssdrev_err *err) {
  cairo_status_t st = cairo_status(c->cr);
  struct render_imgcache *imgs = c->keep ? c->keep->imgs : NULL;
  struct render_pngq *q = c->keep ? c->keep->pngq : NULL;
  if (st == CAIRO_STATUS_SUCCESS && !c->svg && imgs && render_imgcache_put(imgs, c->out.path, c->surface) < 0)
    st = CAIRO_STATUS_NO_MEMORY;
  if (st == CAIRO_STATUS_SUCCESS && !c->svg && q) {
    /* finished: the worker encodes and commits it; nothing here touches
     * the surface again (our reference goes with it) */
    cairo_destroy(c->cr);
    c->cr = NULL;
    cairo_surface_t *s = c->surface;
    cairo_surface_flush(s); /* all drawing done here, before the worker reads it */
    c->surface = NULL;
    c->out_open = 0;
    return render_pngq_push(q, s, &c->out, err);
  }
  if (st == CAIRO_STATUS_SUCCESS && !c->svg)
    st = cairo_surface_write_to_png_stream(c->surface, write_stream, &c->out);
  cairo_destroy(c->cr);
  c->cr = NULL;
  cairo_surface_finish(c->surface); /* SVG: writes the document now */
  if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(c->surface);
  cairo_surface_destroy(c->surface);
  c->surface = NULL;
  if (st == CAIRO_STATUS_SUCCESS && c->svg) st = svg_commit(c);
  if (st == CAIRO_STATUS_WRITE_ERROR && c->out.write_errno) {
    /* a full disk says so, with the path ("error while writing to output
     * stream" was cairo's whole message) */
    int rc = ssdrev_atomic_fail(&c->out, err);
    c->out_open = 0;
    render_canvas_canvas_abort(c);
    return rc;
  }
  if (st != CAIRO_STATUS_SUCCESS) {
    ssdrev_fail(err, -EIO, "cannot write chart '%s': %s", c->out.path, cairo_status_to_string(st));
    render_canvas_canvas_abort(c);
    return -EIO;
  }
  c->out_open = 0;
  return ssdrev_atomic_commit(&c->out, err);
}

/* Writes the collected SVG document with the chart's text inserted before
 * its closing tag (drawn last, over every shape: text always sits on top of
 * its box in these charts). */
static cairo_status_t svg_commit(struct render_canvas *c) {
  if (c->svg_doc.oom || c->svg_text.oom || !c->svg_doc.s) return CAIRO_STATUS_NO_MEMORY;
  const char *end = NULL;
  for (const char *p = strstr(c->svg_doc.s, "</svg>"); p; p = strstr(p + 1, "</svg>")) end = p;
  if (!end) return CAIRO_STATUS_WRITE_ERROR;
  size_t head = (size_t)(end - c->svg_doc.s), tail = c->svg_doc.len - head;
  if (ssdrev_atomic_write(&c->out, c->svg_doc.s, head) || ssdrev_atomic_write(&c->out, c->svg_text.s, c->svg_text.len) ||
      ssdrev_atomic_write(&c->out, end, tail))
    return CAIRO_STATUS_WRITE_ERROR;
  render_buf_free(&c->svg_doc);
  render_buf_free(&c->svg_text);
  return CAIRO_STATUS_SUCCESS;
}

/* ----------------------------------------------------------------- text */

static int has_hangul(const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  for (; *u; u++) {
    /* U+1100..U+11FF, U+3130..U+318F, U+AC00..U+D7AF start with E1 84-87, E3 84-86, EA-ED */
    if (u[0] == 0xE1 && u[1] >= 0x84 && u[1] <= 0x87) return 1;
    if (u[0] == 0xE3 && u[1] >= 0x84 && u[1] <= 0x86) return 1;
    if (u[0] >= 0xEA && u[0] <= 0xED) return 1;
  }
  return 0;
}

/* NanumGothic, the Hangul face, has no micro sign U+00B5 (KS X 1001 has only
 * the Greek mu, U+03BC): in a Hangul string "µs" is drawn with the Greek mu,
 * which looks the same, instead of a missing-glyph box. Same byte length;
 * BUF holds the copy (S itself when nothing changes or BUF is too small). */
static const char *hangul_glyphs(const char *s, char *buf, size_t len) {
  if (!strstr(s, "\xC2\xB5") || !has_hangul(s) || strlen(s) >= len) return s;
  memcpy(buf, s, strlen(s) + 1);
  for (char *p = buf; (p = strstr(p, "\xC2\xB5")) != NULL; p += 2) p[0] = '\xCE', p[1] = '\xBC';
  return buf;
}

static void set_font(cairo_t *cr, const char *s, double size_pt, int bold) {
  cairo_select_font_face(cr, has_hangul(s) ? "NanumGothic" : "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size_pt);
}

double render_canvas_text_width(cairo_t *cr, const char *s, double size_pt, int bold) {
  cairo_text_extents_t te;
  char buf[512];
  s = hangul_glyphs(s, buf, sizeof buf);
  set_font(cr, s, size_pt, bold);
  cairo_text_extents(cr, s, &te);
  return te.x_advance;
}

/* The fonts the PNG is drawn with first, then the system's nearest: Verdana
 * has DejaVu Sans's widths (both descend from Bitstream Vera), so boxes
 * sized by cairo's measure still fit where DejaVu is not installed. */
static const char svg_font_latin[] = "'DejaVu Sans', 'Bitstream Vera Sans', Verdana, sans-serif";
static const char svg_font_hangul[] = "NanumGothic, 'Apple SD Gothic Neo', 'Malgun Gothic', 'Noto Sans CJK KR', sans-serif";

static void svg_text(struct render_buf *b, cairo_t *cr, double x, double y, const char *s, double size_pt, int bold,
                     enum render_canvas_align align) {
  cairo_matrix_t m;
  cairo_get_matrix(cr, &m);
  double r = 0, g = 0, bl = 0, a = 1;
  cairo_pattern_get_rgba(cairo_get_source(cr), &r, &g, &bl, &a); /* not solid: stays black */
  render_buf_printf(b, "<text xml:space=\"preserve\" x=\"%.2f\" y=\"%.2f\" font-family=\"%s\" font-size=\"%.2f\"",
                    x, y, has_hangul(s) ? svg_font_hangul : svg_font_latin, size_pt);
  if (m.xx != 1 || m.yx != 0 || m.xy != 0 || m.yy != 1 || m.x0 != 0 || m.y0 != 0)
    render_buf_printf(b, " transform=\"matrix(%g %g %g %g %g %g)\"", m.xx, m.yx, m.xy, m.yy, m.x0, m.y0);
  if (bold) render_buf_puts(b, " font-weight=\"bold\"");
  if (align != RC_LEFT) render_buf_puts(b, align == RC_CENTER ? " text-anchor=\"middle\"" : " text-anchor=\"end\"");
  render_buf_printf(b, " fill=\"#%02x%02x%02x\">", (int)lround(r * 255), (int)lround(g * 255), (int)lround(bl * 255));
  for (; *s; s++) {
    switch (*s) {
    case '<': render_buf_puts(b, "&lt;"); break;
    case '>': render_buf_puts(b, "&gt;"); break;
    case '&': render_buf_puts(b, "&amp;"); break;
    default:
      /* XML 1.0 has no other control characters */
      if ((unsigned char)*s >= 0x20 || *s == '\t') render_buf_putn(b, s, 1);
    }
  }
  render_buf_puts(b, "</text>\n");
}

double render_canvas_text(cairo_t *cr, double x, double y, const char *s, double size_pt, int bold,
               enum render_canvas_align align) {
  double w = render_canvas_text_width(cr, s, size_pt, bold);
  struct render_buf *svg = cairo_get_user_data(cr, &svg_text_key);
  if (svg) {
    svg_text(svg, cr, x, y, s, size_pt, bold, align);
    return w;
  }
  double x0 = align == RC_CENTER ? x - w / 2 : align == RC_RIGHT ? x - w : x;
  char buf[512];
  cairo_move_to(cr, x0, y);
  cairo_show_text(cr, hangul_glyphs(s, buf, sizeof buf));
  return w;
}

/* ----------------------------------------------------------------- axes */

static double axis_pos(const struct render_axis *a, double v) {
  switch (a->scale) {
  case RC_LOG:
    return log10(v > 0 ? v : 1e-12);
  case RC_LOG2:
    return log2(v > 0 ? v : 1e-12);
  case RC_NINES:
    return -log10(1 - (v < 99.99999 ? v : 99.99999) / 100);
  default:
    return v;
  }
}

double render_canvas_px(const struct render_plot *p, double v) {
  double a = axis_pos(&p->x, p->x.lo), b = axis_pos(&p->x, p->x.hi);
  return p->x0 + (axis_pos(&p->x, v) - a) / (b - a) * (p->x1 - p->x0);
}

double render_canvas_py(const struct render_plot *p, double v) {
  double a = axis_pos(&p->y, p->y.lo), b = axis_pos(&p->y, p->y.hi);
  return p->y1 - (axis_pos(&p->y, v) - a) / (b - a) * (p->y1 - p->y0);
}

/* Tick values of an axis; returns how many were written (<= max). */
static size_t axis_ticks(const struct render_axis *a, double *t, char (*lab)[32], size_t max, int many) {
  size_t n = 0;
  if (a->scale == RC_NINES) {
    static const double nines[] = {0, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999};
    for (size_t i = 0; i < sizeof nines / sizeof nines[0] && n < max; i++) {
      if (nines[i] < a->lo - 1e-9 || nines[i] > a->hi + 1e-9) continue;
      t[n] = nines[i];
      snprintf(lab[n++], 32, "%g", nines[i]);
    }
    return n;
  }
  if (a->scale == RC_LOG2) {
    /* powers of two, every one while they fit (a QD axis: 1, 2, 4 ... 128,
     * the depths measured), else every other one */
    int k0 = (int)ceil(log2(a->lo) - 1e-9), k1 = (int)floor(log2(a->hi) + 1e-9);
    int every = k1 - k0 >= 12 ? 2 : 1;
    for (int k = k0; k <= k1 && n < max; k += every) {
      double v = ldexp(1, k);
      t[n] = v;
      render_canvas_fmt_tick(lab[n++], 32, v, v >= 1 ? 1 : v);
    }
    return n;
  }
  if (a->scale == RC_LOG) {
    int k0 = (int)floor(log10(a->lo)), k1 = (int)ceil(log10(a->hi));
    /* a few decades: 1-2-5 in each; many: decades only */
    static const double m125[] = {1, 2, 5};
    int per = k1 - k0 <= 3 ? 3 : 1;
    for (int k = k0; k <= k1; k++)
      for (int j = 0; j < per && n < max; j++) {
        double v = m125[j] * pow(10, k);
        if (v < a->lo * 0.999 || v > a->hi * 1.001) continue;
        t[n] = v;
        render_canvas_fmt_tick(lab[n++], 32, v, v >= 1 ? 1 : v);
      }
    return n;
  }
  double step = render_canvas_nice_step(a->lo, a->hi, many ? 10 : 6);
  for (double v = ceil(a->lo / step - 1e-9) * step; v <= a->hi + step * 1e-6 && n < max; v += step) {
    t[n] = v;
    render_canvas_fmt_tick(lab[n++], 32, v, step);
  }
  return n;
}

/* A log axis needs 0 < lo < hi, both finite and representable with their
 * decades: a chart's data of zeros, negatives or denormals (5e-324 us
 * rounds a "nice" lower bound to 0) gave lo = 0, log10(lo) = -inf, and the
 * decade count (int)floor(-inf) overflowed (UBSan: signed overflow in
 * axis_ticks). Repaired here, once, before anything is placed. */
#define RC_LOG_MIN 1e-300
#define RC_LOG_MAX 1e300
static void log_axis_fix(struct render_axis *a) {
  if (a->scale != RC_LOG && a->scale != RC_LOG2) return;
  double hi = a->hi, lo = a->lo;
  if (!(hi >= RC_LOG_MIN * 10)) hi = 10; /* also NaN */
  if (hi > RC_LOG_MAX) hi = RC_LOG_MAX;
  if (!(lo >= RC_LOG_MIN) || !(lo < hi)) lo = hi / 1000 > RC_LOG_MIN ? hi / 1000 : RC_LOG_MIN;
  a->lo = lo;
  a->hi = hi;
}

void render_canvas_plot_frame(struct render_canvas *c, struct render_plot *p, const char *title) {
  cairo_t *cr = c->cr;
  log_axis_fix(&p->x);
  log_axis_fix(&p->y);
  const double tick_pt = 8, lab_pt = 9, title_pt = 11;
  /* y tick labels decide the left margin */
  double yt[64], xt[64];
  char ylab[64][32], xlab[64][32];
  size_t ny = axis_ticks(&p->y, yt, ylab, 64, 0);
  double wmax = 0;
  for (size_t i = 0; i < ny; i++) {
    double w = render_canvas_text_width(cr, ylab[i], tick_pt, 0);
    if (w > wmax) wmax = w;
  }
  p->x0 = 10 + lab_pt + 6 + wmax + 5;
  p->x1 = c->w_pt - 14 - p->right_pt;
  p->y0 = title && *title ? 10 + title_pt + 12 : 12;
  p->y1 = c->h_pt - (10 + lab_pt + 6 + tick_pt + 4) - p->bottom_pt;
  size_t nx = p->no_xticks ? 0 : axis_ticks(&p->x, xt, xlab, 64, p->x1 - p->x0 > 400);

  cairo_set_source_rgb(cr, 0, 0, 0);
  if (title && *title) {
    /* a title wider than the plot is centred on the canvas, and one wider
     * than the canvas set smaller until it fits (issue 27: "... — Hot 512G"
     * lost its end), down to 7 pt */
    double tw = render_canvas_text_width(cr, title, title_pt, 1), avail = c->w_pt - 16, tx = (p->x0 + p->x1) / 2;
    double size = title_pt;
    if (tw > p->x1 - p->x0) tx = c->w_pt / 2;
    /* and clear of the short-run tag in the top right corner (the thermal
     * chart's "... — Generic 1TB" ran under "† short run") */
    double tag_w = c->tag && *c->tag ? render_canvas_text_width(cr, c->tag, 7, 1) + 8 : 0;
    if (tag_w > 0 && tx + tw / 2 > c->w_pt - 4 - tag_w) {
      avail = c->w_pt - 12 - tag_w;
      tx = 8 + avail / 2;
    }
    if (tw > avail && tw > 0) size = fmax(7, title_pt * avail / tw);
    render_canvas_text(cr, tx, 10 + title_pt, title, size, 1, RC_CENTER);
  }
  if (c->tag && *c->tag) {
    cairo_set_source_rgb(cr, 0.70, 0.10, 0.10);
    render_canvas_text(cr, c->w_pt - 4, 9, c->tag, 7, 1, RC_RIGHT);
    cairo_set_source_rgb(cr, 0, 0, 0);
  }

  /* grid */
  cairo_set_line_width(cr, 0.4);
  cairo_set_source_rgb(cr, 0.86, 0.86, 0.86);
  for (size_t i = 0; i < ny; i++) {
    double y = render_canvas_py(p, yt[i]);
    cairo_move_to(cr, p->x0, y);
    cairo_line_to(cr, p->x1, y);
  }
  for (size_t i = 0; i < nx; i++) {
    double x = render_canvas_px(p, xt[i]);
    cairo_move_to(cr, x, p->y0);
    cairo_line_to(cr, x, p->y1);
  }
  cairo_stroke(cr);

  /* frame and tick labels */
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  cairo_set_line_width(cr, 0.8);
  cairo_rectangle(cr, p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0);
  cairo_stroke(cr);
  for (size_t i = 0; i < ny; i++)
    render_canvas_text(cr, p->x0 - 4, render_canvas_py(p, yt[i]) + tick_pt * 0.35, ylab[i], tick_pt, 0, RC_RIGHT);
  for (size_t i = 0; i < nx; i++)
    render_canvas_text(cr, render_canvas_px(p, xt[i]), p->y1 + 4 + tick_pt, xlab[i], tick_pt, 0, RC_CENTER);

  if (p->x.label) render_canvas_text(cr, (p->x0 + p->x1) / 2, c->h_pt - 8 - p->bottom_pt, p->x.label, lab_pt, 0, RC_CENTER);
  if (p->y.label) {
    cairo_save(cr);
    cairo_translate(cr, 8 + lab_pt, (p->y0 + p->y1) / 2);
    cairo_rotate(cr, -M_PI / 2);
    render_canvas_text(cr, 0, 0, p->y.label, lab_pt, 0, RC_CENTER);
    cairo_restore(cr);
  }
}

void render_canvas_polyline(cairo_t *cr, const struct render_plot *p, const double *x, const double *y, size_t n,
                 const double rgb[3], double width_pt, int dashed) {
  cairo_save(cr);
  cairo_rectangle(cr, p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0);
  cairo_clip(cr);
  cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
  cairo_set_line_width(cr, width_pt);
  if (dashed == 1) {
    static const double d[] = {4, 2.5};
    cairo_set_dash(cr, d, 2, 0);
  } else if (dashed == 2) {
    static const double d[] = {1.2, 1.8};
    cairo_set_dash(cr, d, 2, 0);
  }
  int pen = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(x[i]) || !isfinite(y[i])) {
      pen = 0;
      continue;
    }
    double px = render_canvas_px(p, x[i]), py = render_canvas_py(p, y[i]);
    if (pen) cairo_line_to(cr, px, py);
    else cairo_move_to(cr, px, py);
    pen = 1;
  }
  cairo_stroke(cr);
  cairo_restore(cr);
}

static void marker_path(cairo_t *cr, double x, double y, int shape) {
  const double r = 2.3;
  switch (shape % 3) {
  case 0:
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, r, 0, 2 * M_PI);
    break;
  case 1:
    cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
    break;
  default:
    cairo_move_to(cr, x, y - r * 1.2);
    cairo_line_to(cr, x + r * 1.1, y + r * 0.9);
    cairo_line_to(cr, x - r * 1.1, y + r * 0.9);
    cairo_close_path(cr);
  }
}

void render_canvas_marker(cairo_t *cr, const struct render_plot *p, double x, double y, const double rgb[3],
               int shape) {
  if (shape < 0) return;
  cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
  marker_path(cr, render_canvas_px(p, x), render_canvas_py(p, y), shape);
  cairo_fill(cr);
}

static const double leg_fs = 8, leg_row = 11, leg_sw = 18;

static double legend_width(cairo_t *cr, const struct render_legend_item *it, size_t n) {
  double wmax = 0;
  for (size_t i = 0; i < n; i++) {
    double w = render_canvas_text_width(cr, it[i].text, leg_fs, 0);
    if (w > wmax) wmax = w;
  }
  return 6 + leg_sw + 4 + wmax + 6;
}

static void legend_box(cairo_t *cr, double bx, double by, const struct render_legend_item *it, size_t n, double bw);

void render_canvas_legend(cairo_t *cr, const struct render_plot *p, const struct render_legend_item *it, size_t n,
               int left) {
  if (!n) return;
  double bw = legend_width(cr, it, n);
  legend_box(cr, left ? p->x0 + 6 : p->x1 - 6 - bw, p->y0 + 6, it, n, bw);
}

void render_canvas_legend_below(cairo_t *cr, const struct render_plot *p, const struct render_legend_item *it,
                                size_t n) {
  if (!n) return;
  /* under the x axis's label (plot_frame: 10 + 9 + 6 + 8 + 4 pt below y1) */
  legend_box(cr, p->x0, p->y1 + 37 + 4, it, n, legend_width(cr, it, n));
}

static void legend_box(cairo_t *cr, double bx, double by, const struct render_legend_item *it, size_t n, double bw) {
  const double fs = leg_fs, row = leg_row, sw = leg_sw;
  double bh = 4 + row * n + 2;
  cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
  cairo_rectangle(cr, bx, by, bw, bh);
  cairo_fill_preserve(cr);
  cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
  cairo_set_line_width(cr, 0.5);
  cairo_stroke(cr);
  for (size_t i = 0; i < n; i++) {
    double y = by + 4 + row * i + row / 2;
    cairo_save(cr);
    cairo_set_source_rgb(cr, it[i].rgb[0], it[i].rgb[1], it[i].rgb[2]);
    cairo_set_line_width(cr, 1.6);
    if (it[i].dashed == 1) {
      static const double d[] = {4, 2.5};
      cairo_set_dash(cr, d, 2, 0);
    } else if (it[i].dashed == 2) {
      static const double d[] = {1.2, 1.8};
      cairo_set_dash(cr, d, 2, 0);
    }
    cairo_move_to(cr, bx + 6, y);
    cairo_line_to(cr, bx + 6 + sw, y);
    cairo_stroke(cr);
    cairo_restore(cr);
    if (it[i].shape >= 0) {
      cairo_set_source_rgb(cr, it[i].rgb[0], it[i].rgb[1], it[i].rgb[2]);
      marker_path(cr, bx + 6 + sw / 2, y, it[i].shape);
      cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    render_canvas_text(cr, bx + 6 + sw + 4, y + fs * 0.35, it[i].text, fs, 0, RC_LEFT);
  }
}

void render_cleanup(void) {
  cairo_debug_reset_static_data();
}
