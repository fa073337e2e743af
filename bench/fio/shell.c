/* shell.c — the one writer of shell scripts (bench/fio/fio_int.h): run.sh of
 * `method export --fio` and the import command it prints.
 *
 * The quoting rule is POSIX's (XCU 2.2.2 Single-Quotes): between single
 * quotes every byte is itself and only a quote ends them, so a word is
 * written '...' with each ' as '\'' (end, an escaped quote, begin again).
 * Plain words (letters, digits and _./:=%@+,-) are written as they are, so
 * the usual command reads as typed. A control character is refused: a
 * quoted newline is valid shell, but the script's comments, the printed
 * command and a reader's eye all take lines as units. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bench/fio/fio_int.h"

#define SH_PLAIN "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=%@+,-"

void bench_fio_sh_comment(struct bench_fio_text *s, const char *fmt, ...) {
  if (s->rc) return;
  char *t = NULL;
  va_list ap;
  va_start(ap, fmt);
  int n = vasprintf(&t, fmt, ap);
  va_end(ap);
  if (n < 0) {
    bench_fio_text_fail(s, ssdrev_fail(s->err, -ENOMEM, "out of memory writing a shell script"));
    return;
  }
  fputs("# ", s->f);
  for (const unsigned char *q = (const unsigned char *)t; *q; q++) fputc(*q < 0x20 || *q == 0x7f ? '?' : *q, s->f);
  fputc('\n', s->f);
  free(t);
}

void bench_fio_sh_code(struct bench_fio_text *s, const char *code) {
  if (s->rc) return;
  fputs(code, s->f);
  fputc('\n', s->f);
}

int bench_fio_sh_word(FILE *f, const char *w, const char *what, struct ssdrev_err *err) {
  for (const unsigned char *q = (const unsigned char *)w; *q; q++)
    if (*q < 0x20 || *q == 0x7f) {
      char shown[200];
      size_t k = 0;
      for (const unsigned char *p = (const unsigned char *)w; *p && k + 1 < sizeof shown; p++)
        shown[k++] = *p < 0x20 || *p == 0x7f ? '?' : (char)*p;
      shown[k] = 0;
      return ssdrev_fail(err, -EINVAL, "%s '%s' holds a control character (a newline, a tab, ...): a generated "
                         "shell command cannot hold it on one line", what, shown);
    }
  if (*w && strspn(w, SH_PLAIN) == strlen(w)) {
    fputs(w, f);
    return 0;
  }
  fputc('\'', f);
  for (const char *q = w; *q; q++) {
    if (*q == '\'') fputs("'\\''", f);
    else fputc(*q, f);
  }
  fputc('\'', f);
  return 0;
}

void bench_fio_sh_cmd(struct bench_fio_text *s, const char *const argv[]) {
  for (size_t i = 0; !s->rc && argv[i]; i++) {
    if (i) fputc(' ', s->f);
    int rc = bench_fio_sh_word(s->f, argv[i], "a shell word", s->err);
    if (rc) bench_fio_text_fail(s, rc);
  }
  if (!s->rc) fputc('\n', s->f);
}

void bench_fio_sh_print(struct bench_fio_text *s, const char *text) {
  if (s->rc) return;
  for (const unsigned char *q = (const unsigned char *)text; *q; q++)
    if (*q < 0x20 || *q == 0x7f) {
      bench_fio_text_fail(s, bench_fio_sh_word(s->f, text, "a printed line", s->err)); /* refuses it, writing nothing */
      return;
    }
  /* always quoted, so the text is one argument whatever it holds */
  fputs("printf '%s\\n' '", s->f);
  for (const char *q = text; *q; q++) {
    if (*q == '\'') fputs("'\\''", s->f);
    else fputc(*q, s->f);
  }
  fputs("'\n", s->f);
}
