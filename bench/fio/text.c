/* text.c — the in-memory file both writers build (bench/fio/fio_int.h):
 * an open_memstream that keeps its first refusal, so that a caller writes a
 * whole job file or script and checks once at close. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/fio/fio_int.h"

int bench_fio_text_open(struct bench_fio_text *t, const char *what, struct ssdrev_err *err) {
  memset(t, 0, sizeof *t);
  t->err = err;
  t->what = what;
  t->f = open_memstream(&t->text, &t->len);
  if (!t->f) return t->rc = ssdrev_fail(err, -ENOMEM, "out of memory writing %s", what);
  return 0;
}

void bench_fio_text_fail(struct bench_fio_text *t, int rc) {
  if (!t->rc) t->rc = rc;
}

int bench_fio_text_close(struct bench_fio_text *t, char **text, size_t *len) {
  if (t->f && fclose(t->f) && !t->rc) t->rc = ssdrev_fail(t->err, -ENOMEM, "out of memory writing %s", t->what);
  t->f = NULL;
  if (t->rc) {
    free(t->text);
    t->text = NULL;
  }
  *text = t->text;
  *len = t->rc ? 0 : t->len;
  t->text = NULL;
  return t->rc;
}

void bench_fio_one_line(const char *s, char *out, size_t len) {
  size_t k = 0;
  for (const unsigned char *q = (const unsigned char *)s; *q && k + 1 < len; q++)
    out[k++] = *q < 0x20 || *q == 0x7f ? '?' : (char)*q;
  out[k] = 0;
}

char *bench_fio_text_vformat(struct bench_fio_text *t, const char *fmt, va_list ap) {
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) {
    bench_fio_text_fail(t, ssdrev_fail(t->err, -ENOMEM, "out of memory writing %s", t->what));
    return NULL;
  }
  return s;
}

void bench_fio_text_vcomment(struct bench_fio_text *t, const char *fmt, va_list ap) {
  if (t->rc) return;
  char *s = bench_fio_text_vformat(t, fmt, ap);
  if (!s) return;
  char line[BENCH_FIO_LINE_MAX - 1]; /* with "# ", BENCH_FIO_LINE_MAX */
  bench_fio_one_line(s, line, sizeof line);
  fprintf(t->f, "# %s\n", line);
  free(s);
}
