/* render/chart/chart_int.h — private to render/chart/: the context a chart
 * kind's check and draw functions get, so kinds may live in files of their
 * own (render/chart/steady.c) and be rows of charts.c's table. */
#ifndef SSDREV_CHART_INT_H
#define SSDREV_CHART_INT_H

#include "render/render_int.h"

#define MAX_SEL 16

struct chart_scratch; /* charts.c's working arrays */

struct chart_ctx {
  const struct render_run *run[MAX_SEL]; /* selected runs */
  size_t idx[MAX_SEL];                   /* their index in the set = palette colour */
  size_t n;
  const struct render_chart_opts *o;
  struct render_canvas *c;
  struct ssdrev_err *err;
  struct chart_scratch *s; /* calloc'd by chart_prepare; the caller frees */
};

static inline void colour(const struct chart_ctx *x, size_t i, double rgb[3]) { render_palette(x->idx[i], rgb); }

/* Message ID in the chart's language. */
#define M(id) render_msg(x->o->lang, id)

/* Steady state and consistency (render/chart/steady.c). */
int render_chart_steady_check(struct chart_ctx *x);
void render_chart_steady_draw(struct chart_ctx *x);
int render_chart_cons_check(struct chart_ctx *x);
void render_chart_cons_draw(struct chart_ctx *x);
void render_chart_cons_log_draw(struct chart_ctx *x);
void render_chart_cons_lat_draw(struct chart_ctx *x);

#endif
