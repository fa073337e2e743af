/* util.c — option parsing and error printing shared by the subcommands. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "bench/bench.h"

static int vreport(const char *cmd, int code, const char *fmt, va_list ap) {
  fprintf(stderr, "ssdrev %s: error: ", cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  return code;
}

int cli_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vreport(cmd, 1, fmt, ap);
  va_end(ap);
  return rc;
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vreport(cmd, 2, fmt, ap);
  va_end(ap);
  fprintf(stderr, "(see ssdrev %s --help)\n", cmd);
  return rc;
}

int cli_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out) {
  if (!s || !*s || !isdigit((unsigned char)*s)) return -EINVAL;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v < min || v > max) return -EINVAL;
  *out = v;
  return 0;
}

/* Splits "12.5GiB" into a number and a unit; the number may be fractional. */
static int split_number(const char *s, double *num, const char **unit) {
  if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '.')) return -EINVAL;
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (errno || end == s || v < 0) return -EINVAL;
  *num = v;
  *unit = end;
  return 0;
}

int cli_parse_size(const char *s, uint64_t *out) { return ssdrev_parse_size(s, out); }

int cli_parse_duration(const char *s, uint64_t *out_ns) {
  double v;
  const char *u;
  if (split_number(s, &v, &u)) return -EINVAL;
  static const struct { const char *suffix; double mult; } units[] = {
      {"", 1e9}, {"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}, {"m", 60e9}, {"h", 3600e9},
  };
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    if (strcmp(u, units[i].suffix)) continue;
    double ns = v * units[i].mult;
    if (ns > 1.8e19) return -ERANGE;
    *out_ns = (uint64_t)(ns + 0.5);
    return 0;
  }
  return -EINVAL;
}

int cli_wants_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
  return 0;
}

static void on_stop_signal(int sig) {
  (void)sig;
  bench_stop_requested = 1;
}

void cli_install_signal_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

const char cli_missing_value[] = "";

const char *cli_opt_value(int argc, char **argv, int *i, const char *name, const char *alias) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (!strncmp(a, name, n) && a[n] == '=') return a + n + 1;
  if (!strcmp(a, name) || (alias && !strcmp(a, alias))) {
    if (*i + 1 >= argc) return cli_missing_value;
    return argv[++*i];
  }
  return NULL;
}

#ifndef SSDREV_DATADIR
#define SSDREV_DATADIR "/usr/local/share/ssdrev"
#endif

/* The data directories after the working directory, in search order. */
static size_t data_dirs(const char *dirs[3]) {
  size_t n = 0;
  const char *e = getenv("SSDREV_DATA");
  if (e && *e) dirs[n++] = e;
  e = getenv("SSDREV_ROOT");
  if (e && *e) dirs[n++] = e;
  dirs[n++] = SSDREV_DATADIR;
  return n;
}

int cli_data_path(const char *rel, char *out, size_t len) {
  struct stat st;
  snprintf(out, len, "%s", rel);
  if (stat(rel, &st) == 0 || rel[0] == '/') return stat(rel, &st) == 0 ? 0 : -ENOENT;
  /* "./x" and "x" name the same file under a data directory */
  while (rel[0] == '.' && rel[1] == '/') rel += 2;
  const char *dirs[3];
  size_t n = data_dirs(dirs);
  for (size_t i = 0; i < n; i++) {
    int w = snprintf(out, len, "%s/%s", dirs[i], rel);
    if (w > 0 && (size_t)w < len && stat(out, &st) == 0) return 0;
  }
  snprintf(out, len, "%s", rel);
  return -ENOENT;
}

const char *cli_data_dirs(char *buf, size_t len) {
  const char *dirs[3];
  size_t n = data_dirs(dirs), used = 0;
  buf[0] = 0;
  for (size_t i = 0; i < n && used < len; i++) {
    int w = snprintf(buf + used, len - used, "%s'%s'", i ? ", " : "", dirs[i]);
    if (w > 0) used += (size_t)w;
  }
  return buf;
}

const char *cli_resolve_target(const char *spec, char *buf, size_t len) {
  if (strncmp(spec, "sim:", 4) || len < 5) return spec;
  memcpy(buf, "sim:", 4);
  if (cli_data_path(spec + 4, buf + 4, len - 4)) return spec;
  return buf;
}
