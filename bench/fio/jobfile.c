/* jobfile.c — the one writer of fio job files (bench/fio/fio_int.h).
 *
 * What fio does with a job file line, from its parser (axboe/fio, init.c
 * __parse_jobs_ini and is_empty_or_comment, parse.c strip_blank_end,
 * get_option and handle_option, options.c fio_option_dup_subs,
 * fio_keyword_replace, bc_calc, get_next_str and str_filename_cb,
 * ioengines.c load_ioengine), and so what this writer refuses in a value:
 *   - a line is read up to '\n' by fgets(8192): a newline starts another
 *     option or a "[section]"; a longer line is read as two
 *   - strip_blank_end cuts every line at its first ';' and at its first '#'
 *     (comments), then strips trailing blanks and control characters; the
 *     front is stripped of blanks too
 *   - a line beginning with "include" reads another file as options
 *   - a section named "global..." (strncmp 6) is [global]
 *   - in every value "${VAR}" is replaced by the environment's VAR, then
 *     "$pagesize", "$mb_memory", "$ncpus" by numbers, and a value so
 *     replaced that holds + - * / is handed to `echo '...' | bc` by popen
 *   - filename= is a ':'-separated list ("\:" is a ':' of the name) and "-"
 *     is stdin/stdout
 *   - ioengine= that is not a built-in engine is dlopen()ed as a library
 *     (a path, or "external:PATH"); "exec" runs the program= option
 *   - exec_prerun= and exec_postrun= run a shell command, ioscheduler=
 *     switches the device's scheduler: never written from user data (no key
 *     of that kind is accepted at all) */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bench/fio/fio_int.h"

/* Options this writer never writes, whatever their value: they run a
 * program, change the system or read another job file. */
static const char *const denied_keys[] = {"exec_prerun", "exec_postrun", "ioscheduler", "program",
                                          "arguments", "include", NULL};

void bench_fio_job_comment(struct bench_fio_text *j, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  bench_fio_text_vcomment(j, fmt, ap);
  va_end(ap);
}

int bench_fio_token_ok(const char *name) {
  size_t n = strlen(name);
  if (!n || n > BENCH_FIO_TOKEN_MAX || name[0] == '.' || name[0] == '-' || !strncmp(name, "global", 6)) return 0;
  return strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

void bench_fio_token(const char *name, char *out, size_t len) {
  size_t k = 0, max = len - 1 < BENCH_FIO_TOKEN_MAX ? len - 1 : BENCH_FIO_TOKEN_MAX;
  /* a leading '-' would make the stem's job file "-S.fio" an option on
   * fio's command line */
  if ((name[0] == '.' || name[0] == '-' || !strncmp(name, "global", 6) || !name[0]) && k < max) out[k++] = '_';
  for (const char *q = name; *q && k < max; q++) {
    unsigned char ch = (unsigned char)*q;
    out[k++] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
                       ch == '_' || ch == '-'
                   ? (char)ch
                   : '_';
  }
  out[k] = 0;
}

static void section(struct bench_fio_text *j, const char *name) {
  if (ftell(j->f) > 0) fputc('\n', j->f);
  fprintf(j->f, "[%s]\n", name);
}

void bench_fio_job_global(struct bench_fio_text *j) {
  if (!j->rc) section(j, "global");
}

void bench_fio_job_section(struct bench_fio_text *j, const char *name) {
  if (j->rc) return;
  if (!bench_fio_token_ok(name)) {
    char shown[BENCH_FIO_TOKEN_MAX + 1];
    bench_fio_token(name, shown, sizeof shown);
    bench_fio_text_fail(j, ssdrev_fail(j->err, -EINVAL, "fio job file: section name '%s' is not a token of letters, digits, "
                            "'.', '_' and '-' (or begins with \"global\" or '.')", shown));
    return;
  }
  section(j, name);
}

int bench_fio_value_check(const char *value, const char *what, struct ssdrev_err *err) {
  const char *why = NULL;
  size_t n = strlen(value);
  if (!n) why = "it is empty";
  else if (n > BENCH_FIO_LINE_MAX - 64) why = "it is longer than a job file line fio reads";
  else if (value[0] == ' ' || value[0] == '\t' || value[n - 1] == ' ' || value[n - 1] == '\t')
    why = "a leading or trailing blank, which fio strips";
  for (const unsigned char *q = (const unsigned char *)value; !why && *q; q++) {
    if (*q < 0x20 || *q == 0x7f) why = "a control character, which ends or cuts fio's line";
    else if (*q == ';' || *q == '#') why = "';' or '#', where fio's job file comments begin";
    else if (*q == '$') why = "'$', where fio expands ${VAR} and $mb_memory, $ncpus, $pagesize";
  }
  if (!why) return 0;
  /* the value in the message on one line */
  char shown[320];
  bench_fio_one_line(value, shown, sizeof shown);
  return ssdrev_fail(err, -EINVAL, "%s '%s' has a character fio's job files cannot hold (%s)", what, shown, why);
}

int bench_fio_check_filename(const char *path, const char *what, struct ssdrev_err *err) {
  int rc = bench_fio_value_check(path, what, err);
  if (rc) return rc;
  if (strchr(path, '\\'))
    return ssdrev_fail(err, -EINVAL, "%s '%s' has a character fio's job files cannot hold ('\\', fio's escape in "
                       "file names)", what, path);
  if (!strcmp(path, "-"))
    return ssdrev_fail(err, -EINVAL, "%s '-' is stdin or stdout to fio, not a file", what);
  return 0;
}

int bench_fio_check_ioengine(const char *name, const char *what, struct ssdrev_err *err) {
  size_t n = strlen(name);
  int ok = n > 0 && n <= 32 && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == n &&
           strncmp(name, "external", 8) && strcmp(name, "exec");
  if (ok) return 0;
  char shown[40];
  bench_fio_token(name, shown, sizeof shown);
  return ssdrev_fail(err, -EINVAL, "%s '%s' is not a fio engine name (lower-case letters, digits and '_', e.g. "
                     "libaio, io_uring, psync; fio loads any other value as a library, and \"exec\" runs a program)",
                     what, n <= 32 ? name : shown);
}

/* 0 when KEY may be written: [a-z0-9_]+ and not a denied option. */
static int key_ok(struct bench_fio_text *j, const char *key) {
  size_t n = strlen(key);
  if (!n || strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_") != n) {
    bench_fio_text_fail(j, ssdrev_fail(j->err, -EINVAL, "fio job file: option name '%.64s' is not [a-z0-9_]+", key));
    return -1;
  }
  for (size_t i = 0; denied_keys[i]; i++)
    if (!strncmp(key, denied_keys[i], strlen(denied_keys[i]))) {
      bench_fio_text_fail(j, ssdrev_fail(j->err, -EPERM, "fio job file: option '%s' runs a program or reads another file; "
                              "ssdrev never writes it", key));
      return -1;
    }
  return 0;
}

void bench_fio_job_opt(struct bench_fio_text *j, const char *key, const char *fmt, ...) {
  if (j->rc || key_ok(j, key)) return;
  if (!strcmp(key, "filename")) {
    bench_fio_text_fail(j, ssdrev_fail(j->err, -EINVAL, "fio job file: filename= is written by bench_fio_job_filename"));
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  char *v = bench_fio_text_vformat(j, fmt, ap);
  va_end(ap);
  if (!v) return;
  char what[96];
  snprintf(what, sizeof what, "fio option %s=", key);
  int rc = !strcmp(key, "ioengine") ? bench_fio_check_ioengine(v, "ioengine", j->err)
                                    : bench_fio_value_check(v, what, j->err);
  if (rc) bench_fio_text_fail(j, rc);
  else fprintf(j->f, "%s=%s\n", key, v);
  free(v);
}

void bench_fio_job_flag(struct bench_fio_text *j, const char *key) {
  if (j->rc || key_ok(j, key)) return;
  fprintf(j->f, "%s\n", key);
}

void bench_fio_job_filename(struct bench_fio_text *j, const char *path, const char *what) {
  if (j->rc) return;
  int rc = bench_fio_check_filename(path, what, j->err);
  if (rc) {
    bench_fio_text_fail(j, rc);
    return;
  }
  fputs("filename=", j->f);
  for (const char *q = path; *q; q++) {
    if (*q == ':') fputc('\\', j->f); /* get_next_str: "\:" is a ':' of the name */
    fputc(*q, j->f);
  }
  fputc('\n', j->f);
}

void bench_fio_job_env(struct bench_fio_text *j, const char *key, const char *var) {
  if (j->rc || key_ok(j, key)) return;
  size_t n = strlen(var);
  if (!n || strspn(var, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != n) {
    bench_fio_text_fail(j, ssdrev_fail(j->err, -EINVAL, "fio job file: '%.64s' is not an environment variable name", var));
    return;
  }
  fprintf(j->f, "%s=${%s}\n", key, var);
}
