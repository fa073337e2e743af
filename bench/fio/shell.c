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
  va_list ap;
  va_start(ap, fmt);
  bench_fio_text_vcomment(s, fmt, ap);
  va_end(ap);
}

void bench_fio_sh_code(struct bench_fio_text *s, const char *code) {
  if (s->rc) return;
  fputs(code, s->f);
  fputc('\n', s->f);
}

/* 1 when S holds a control byte (as bench_fio_one_line shows as '?'). */
static int has_control(const char *s) {
  for (const unsigned char *q = (const unsigned char *)s; *q; q++)
    if (*q < 0x20 || *q == 0x7f) return 1;
  return 0;
}

/* S between single quotes, each ' as '\''. */
static void put_quoted(FILE *f, const char *s) {
  fputc('\'', f);
  for (const char *q = s; *q; q++) {
    if (*q == '\'') fputs("'\\''", f);
    else fputc(*q, f);
  }
  fputc('\'', f);
}

int bench_fio_sh_word(FILE *f, const char *w, const char *what, struct ssdrev_err *err) {
  if (has_control(w)) {
    char shown[200];
    bench_fio_one_line(w, shown, sizeof shown);
    return ssdrev_fail(err, -EINVAL, "%s '%s' holds a control character (a newline, a tab, ...): a generated "
                       "shell command cannot hold it on one line", what, shown);
  }
  if (*w && strspn(w, SH_PLAIN) == strlen(w)) fputs(w, f);
  else put_quoted(f, w);
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
  if (has_control(text)) {
    bench_fio_text_fail(s, bench_fio_sh_word(s->f, text, "a printed line", s->err)); /* refuses it, writing nothing */
    return;
  }
  /* always quoted, so the text is one argument whatever it holds */
  fputs("printf '%s\\n' ", s->f);
  put_quoted(s->f, text);
  fputc('\n', s->f);
}
