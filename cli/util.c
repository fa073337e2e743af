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

const char *cli_opt_value(int argc, char **argv, int *i, const char *name, const char *alias) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (!strncmp(a, name, n) && a[n] == '=') return a + n + 1;
  if (!strcmp(a, name) || (alias && !strcmp(a, alias))) {
    if (*i + 1 >= argc) return "";
    return argv[++*i];
  }
  return NULL;
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* A bare name (no '/', no ".json") is looked up as profiles/NAME.json in the
 * working directory, then under $SSDREV_ROOT. */
int cli_resolve_profile(const char *cmd, const char *arg, char *out, size_t len) {
  size_t n = strlen(arg);
  int bare = !strchr(arg, '/') && !(n > 5 && !strcmp(arg + n - 5, ".json"));
  if (!bare) {
    snprintf(out, len, "%s", arg);
    return 0;
  }
  snprintf(out, len, "profiles/%s.json", arg);
  if (file_exists(out)) return 0;
  const char *root = getenv("SSDREV_ROOT");
  if (root && *root) {
    snprintf(out, len, "%s/profiles/%s.json", root, arg);
    if (file_exists(out)) return 0;
  }
  return cli_usage_error(cmd, "--profile '%s': no profiles/%s.json here%s", arg, arg,
                         root ? " nor under $SSDREV_ROOT" : "");
}
