/* fio_int.h — the one writer of fio job files (bench/fio/jobfile.c) and the
 * one writer of shell scripts (bench/fio/shell.c), private to bench/. The
 * fio engine (bench/method/fio_engine.c, local targets and campaign hosts)
 * and `method export --fio` (bench/method/export_fio.c: the .fio files and
 * run.sh) write through these only, so each format has one quoting rule:
 *
 *   job file  a value fio would read as more than one option, or as anything
 *             but itself, is refused with an error naming it (never written);
 *             names that are only comments are made one safe line, names
 *             that are only section names a safe token (bench_fio_token)
 *   shell     every word single-quoted POSIX-style when it is not a plain
 *             word ('\'' for a quote); control characters refused
 *
 * Both writers are sticky, like a FILE's error flag: the first refusal is
 * kept (its message in the ssdrev_err given to _open) and every later call
 * is a no-op, so a caller writes a whole file and checks once at _close. */
#ifndef SSDREV_BENCH_FIO_INT_H
#define SSDREV_BENCH_FIO_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include "base/ssdrev.h"

/* fio reads a job file with fgets(OPT_LEN_MAX = 8192) (init.c
 * __parse_jobs_ini, parse.h): a longer line is read as two. ssdrev's lines
 * stay far below that; a value that would not is refused. */
#define BENCH_FIO_LINE_MAX 4095
#define BENCH_FIO_TOKEN_MAX 200 /* a section name or file stem (fio takes 255) */

/* ---- the text both writers build (bench/fio/text.c) */

/* A file being written in memory, sticky on its first refusal. */
struct bench_fio_text {
  FILE *f;                /* open_memstream over text/len */
  char *text;
  size_t len;
  int rc;                 /* the first refusal or failure; 0 while none */
  const char *what;       /* "a fio job file", for the out-of-memory message */
  struct ssdrev_err *err; /* receives rc's message */
};

/* Starts an empty WHAT (a static string) in memory. 0, or -ENOMEM (err
 * filled). */
int bench_fio_text_open(struct bench_fio_text *t, const char *what, struct ssdrev_err *err);
/* Ends T. On success (returns 0) *text (NUL-terminated, caller frees) and
 * *len hold the file; else returns the first refusal (its message in the
 * err of _open), frees everything and sets *text = NULL. */
int bench_fio_text_close(struct bench_fio_text *t, char **text, size_t *len);
/* Keeps RC as T's refusal unless one is kept already (its message is in
 * T->err). */
void bench_fio_text_fail(struct bench_fio_text *t, int rc);
/* S as one line into OUT (LEN > 0): every control byte (below 0x20, and
 * 0x7f) as '?', cut at LEN - 1 bytes. The one rule both writers' comments
 * and every message that shows a refused value follow. */
void bench_fio_one_line(const char *s, char *out, size_t len);
/* FMT formatted (malloc'd), or NULL with T failed (out of memory). */
char *bench_fio_text_vformat(struct bench_fio_text *t, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* "# TEXT", TEXT formatted from FMT as one line (bench_fio_one_line) cut at
 * BENCH_FIO_LINE_MAX: both writers' comments. */
void bench_fio_text_vcomment(struct bench_fio_text *t, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* ---- fio job files (bench/fio/jobfile.c) */

/* "# TEXT": one comment line whatever TEXT holds (a control character
 * becomes '?', the line is cut at BENCH_FIO_LINE_MAX). */
void bench_fio_job_comment(struct bench_fio_text *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "[global]", after a blank line when not the first section. */
void bench_fio_job_global(struct bench_fio_text *j);
/* "[NAME]" (a job), after a blank line. NAME must be a token
 * (bench_fio_token_ok): refused otherwise, naming it. */
void bench_fio_job_section(struct bench_fio_text *j, const char *name);
/* "KEY=VALUE", VALUE formatted from FMT. Refused (naming KEY and VALUE): a
 * KEY that is not [a-z0-9_]+ or names an option that runs a program or
 * reads another job file (exec_prerun, exec_postrun, ioscheduler, include,
 * ...), a VALUE that bench_fio_value_check refuses, an ioengine that is not
 * an engine name (bench_fio_check_ioengine), and "filename" (use
 * bench_fio_job_filename). */
void bench_fio_job_opt(struct bench_fio_text *j, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A bare option ("stonewall"), KEY as in bench_fio_job_opt. */
void bench_fio_job_flag(struct bench_fio_text *j, const char *key);
/* "filename=PATH": PATH exactly, ':' escaped as "\:" (fio's file-list
 * separator); refused when bench_fio_check_filename refuses it. WHAT names
 * PATH in the message ("--filename", "hosts.txt:3: target"). */
void bench_fio_job_filename(struct bench_fio_text *j, const char *path, const char *what);
/* "KEY=${VAR}": the one expansion ssdrev writes on purpose (the export's
 * filename=${SSDREV_TARGET}, checked by run.sh). VAR must be [A-Z_]+. */
void bench_fio_job_env(struct bench_fio_text *j, const char *key, const char *var);

/* 0 when VALUE is one option value to fio; else -EINVAL with a message
 * "WHAT 'VALUE' has a character fio's job files cannot hold (...)". */
int bench_fio_value_check(const char *value, const char *what, struct ssdrev_err *err);
/* As bench_fio_value_check, plus what a filename may not be ('\\', "-"). */
int bench_fio_check_filename(const char *path, const char *what, struct ssdrev_err *err);
/* 0 when NAME is a fio engine name ([a-z0-9_]+, at most 32 bytes, not
 * "external" or "exec"): fio dlopen()s any other ioengine value as a
 * library (ioengines.c load_ioengine) and "exec" runs a program. */
int bench_fio_check_ioengine(const char *name, const char *what, struct ssdrev_err *err);
/* 1 when NAME is a token: [A-Za-z0-9._-]+, at most BENCH_FIO_TOKEN_MAX
 * bytes, not beginning with "global" (fio takes any such section for
 * [global]) or '.'. */
int bench_fio_token_ok(const char *name);
/* NAME as a token into OUT (LEN > 1): every other byte becomes '_', a
 * leading "global" or '.' gets a '_' before it, cut at LEN - 1 bytes and at
 * BENCH_FIO_TOKEN_MAX. A token comes out as it went in. */
void bench_fio_token(const char *name, char *out, size_t len);

/* ---- shell scripts (bench/fio/shell.c) */

/* "# TEXT": one comment line (control characters become '?', the line is
 * cut at BENCH_FIO_LINE_MAX). */
void bench_fio_sh_comment(struct bench_fio_text *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* CODE as it is, then a newline: ssdrev's own script text, a constant of
 * the program. Never a string from a file or the command line. */
void bench_fio_sh_code(struct bench_fio_text *s, const char *code);
/* A command line: ARGV's words (NULL-terminated) each as bench_fio_sh_word. */
void bench_fio_sh_cmd(struct bench_fio_text *s, const char *const argv[]);
/* printf '%s\n' 'TEXT': prints TEXT as it is (echo would read backslashes
 * in dash). TEXT may not hold a control character (refused). */
void bench_fio_sh_print(struct bench_fio_text *s, const char *text);
/* Writes W to F as one shell word: as it is when it is a plain word
 * ([A-Za-z0-9_./:=%@+,-]+), else single-quoted, a quote as '\''. Refuses a
 * control character (a word that would span lines) with -EINVAL naming
 * WHAT. An empty word is ''. */
int bench_fio_sh_word(FILE *f, const char *w, const char *what, struct ssdrev_err *err);

/* A load host's fio server (`--client=ip:HOST,PORT`), probed while its
 * client runs (bench/fio/server.c): a connect to its port a second; one
 * that refuses or gives no answer for BENCH_FIO_SERVER_LOST_S in a row
 * means the server is gone. */
#define BENCH_FIO_SERVER_LOST_S 3.0
struct bench_fio_server_probe {
  struct sockaddr_storage addr; /* the server's port; addr_len 0: not probed */
  socklen_t addr_len;
  char host[256], port[8];      /* as the client names them, for messages */
  uint64_t next_ns;             /* the next probe's time (ssdrev_clock_ns) */
  uint64_t failing_ns;          /* since when every probe failed, 0: it answers */
  char why[96];                 /* the last failed probe's error ("Connection refused") */
};
/* Reads CLIENT ("ip:ADDRESS,PORT"; a name is looked up here). 0, or a
 * negative errno when it names no address to probe (P then probes nothing). */
int bench_fio_server_probe_init(struct bench_fio_server_probe *p, const char *client);
/* Probes when one is due (the first a second after NOW_NS of the first
 * call). 1 when the server has been gone for BENCH_FIO_SERVER_LOST_S (p->why
 * says how it failed), else 0. Blocks at most half a second. */
int bench_fio_server_probe_step(struct bench_fio_server_probe *p, uint64_t now_ns);

#endif
