/* digits.c — thousands separators: the one rule the sentences, tables,
 * chart ticks, compare figures and {{value fmt=%'.0f}} group digits by. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "render/render_int.h"

void render_group_digits(const char *in, char *out, size_t len, size_t min_digits) {
  if (!len) return;
  /* the first number of IN: an optional '-' and its integer digits */
  size_t st = strcspn(in, "0123456789"), il = strspn(in + st, "0123456789");
  size_t k = 0;
  for (size_t i = 0; in[i] && k + 1 < len; i++) {
    if (il >= min_digits && i > st && i < st + il && (st + il - i) % 3 == 0) {
      out[k++] = ',';
      if (k + 1 >= len) break;
    }
    out[k++] = in[i];
  }
  out[k] = 0;
}

void render_buf_thousands(struct render_buf *b, double v) {
  if (!isfinite(v)) {
    render_buf_puts(b, "–");
    return;
  }
  char d[48], g[64];
  /* beyond any measured figure (a hostile analysis.json) as %g: "%.0f" of
   * 1e300 would not fit D and print a cut-off number */
  if (fabs(v) >= 1e15) {
    render_buf_printf(b, "%g", v);
    return;
  }
  snprintf(d, sizeof d, "%.0f", v);
  render_group_digits(d, g, sizeof g, 4);
  render_buf_puts(b, g);
}
