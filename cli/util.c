/* util.c — option parsing and error printing shared by the subcommands. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

/* ------------------------------------------------ sanitized stdout/stderr */

/* Text from files (labels, params, DUT strings, test names, flag texts,
 * file names) reaches the terminal only through these streams: a label
 * holding ESC ] or ESC [ ... could otherwise retitle the window, hide text
 * or worse. One filter for everything the CLI prints, so no printf of file
 * data can forget it. */
struct san_stream {
  int fd;
  int tty;          /* also C1 controls and malformed UTF-8 are replaced */
  unsigned need;    /* UTF-8 continuation bytes still expected */
  unsigned char lead[4]; /* the sequence so far, held back until complete */
  unsigned nlead;
};

static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Bytes a non-terminal stream must change: C0 but \t \n, and DEL. */
static int needs_change(unsigned char c) { return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f; }

size_t cli_sanitize(char *out, const char *in, size_t n, int tty, unsigned *need, unsigned char *lead,
                    unsigned *nlead) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)in[i];
    if (*need) {
      if (c >= 0x80 && c <= 0xbf) {
        lead[(*nlead)++] = c;
        if (--*need == 0) {
          /* C1 controls U+0080..U+009F are 0xC2 0x80..0x9F */
          if (*nlead == 2 && lead[0] == 0xc2 && lead[1] <= 0x9f) out[k++] = '?';
          else for (unsigned j = 0; j < *nlead; j++) out[k++] = (char)lead[j];
          *nlead = 0;
        }
        continue;
      }
      out[k++] = '?'; /* a sequence cut short: its lead is replaced, c is read afresh */
      *need = 0;
      *nlead = 0;
    }
    if (needs_change(c)) {
      out[k++] = '?';
    } else if (c < 0x80 || !tty) {
      out[k++] = (char)c;
    } else if (c >= 0xc2 && c <= 0xf4) {
      *need = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
      lead[0] = c;
      *nlead = 1;
    } else {
      out[k++] = '?'; /* a stray continuation byte (0x9B is CSI in 8-bit terminals) or 0xC0/0xC1/0xF5.. */
    }
  }
  return k;
}

static ssize_t san_write(void *cookie, const char *buf, size_t n) {
  struct san_stream *s = cookie;
  if (!s->tty) {
    /* the common case (`log dump` into a file): clean text goes out as it
     * is, without a copy; only a chunk holding a control byte is filtered */
    size_t i = 0;
    while (i < n && !needs_change((unsigned char)buf[i])) i++;
    if (i == n) return write_all(s->fd, buf, n) ? -1 : (ssize_t)n;
  }
  char out[4096 + 8];
  for (size_t off = 0; off < n;) {
    size_t take = n - off < 4096 ? n - off : 4096;
    size_t k = cli_sanitize(out, buf + off, take, s->tty, &s->need, s->lead, &s->nlead);
    if (write_all(s->fd, out, k)) return -1;
    off += take;
  }
  return (ssize_t)n;
}

static FILE *san_open(int fd, int mode) {
  static struct san_stream st[3];
  struct san_stream *s = &st[fd];
  s->fd = fd;
  s->tty = isatty(fd);
  cookie_io_functions_t io = {.write = san_write};
  FILE *f = fopencookie(s, "w", io);
  /* a file or pipe gets a 64 KiB buffer (fewer writes); a terminal sees lines at once */
  if (f) setvbuf(f, NULL, s->tty ? (fd == 2 ? _IONBF : _IOLBF) : mode, mode == _IOFBF && !s->tty ? 65536 : 0);
  return f;
}

void cli_sanitize_std_streams(void) {
  fflush(stdout);
  fflush(stderr);
  FILE *o = san_open(1, _IOFBF), *e = san_open(2, _IONBF);
  /* glibc's stdout and stderr are ordinary variables meant to be set */
  if (o) stdout = o;
  if (e) stderr = e;
}

void cli_term_control(const char *seq) {
  fflush(stderr);
  if (write_all(2, seq, strlen(seq))) return; /* a lost progress refresh is harmless */
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

/* Levenshtein distance of A and B (each at most 255 bytes, longer ones
 * compared by their first 255): how far a mistyped model name is. */
static unsigned edit_distance(const char *a, const char *b) {
  size_t na = strnlen(a, 255), nb = strnlen(b, 255);
  unsigned row[256];
  for (size_t j = 0; j <= nb; j++) row[j] = (unsigned)j;
  for (size_t i = 1; i <= na; i++) {
    unsigned diag = row[0];
    row[0] = (unsigned)i;
    for (size_t j = 1; j <= nb; j++) {
      unsigned up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[nb];
}

/* A model name without its directory and ".model". */
static void model_stem(const char *path, char *out, size_t len) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  size_t n = strlen(b);
  if (n > 6 && !strcmp(b + n - 6, ".model")) n -= 6;
  snprintf(out, len, "%.*s", (int)n, b);
}

#define CLOSE_MAX 5

struct close_models {
  char name[CLOSE_MAX][300]; /* as the user would type it after "sim:" */
  unsigned dist[CLOSE_MAX];
  size_t n;
  size_t seen;               /* model files looked at */
  char any[3][256];          /* the first few names, for "models here: ..." */
};

/* Adds the *.model files of DIR close to WANT (a stem) to C; PREFIX is
 * what the user would type before a file name of DIR ("" for a data
 * directory's models: the bare name resolves there). */
static void close_models_in(struct close_models *c, const char *dir, const char *prefix, const char *want) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  unsigned limit = (unsigned)strlen(want) / 3 + 1; /* pm981-265 vs pm981-256: 2 */
  if (limit < 2) limit = 2;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l <= 6 || strcmp(e->d_name + l - 6, ".model")) continue;
    char stem[256], name[300];
    model_stem(e->d_name, stem, sizeof stem);
    if (c->seen < 3) snprintf(c->any[c->seen], sizeof c->any[0], "%s", stem);
    c->seen++;
    unsigned dd = edit_distance(stem, want);
    if (dd > limit) continue;
    if (*prefix) snprintf(name, sizeof name, "%s%s", prefix, e->d_name);
    else snprintf(name, sizeof name, "%s", stem);
    /* one name per model: the typed directory is usually a data one */
    int dup = 0;
    for (size_t i = 0; i < c->n && !dup; i++) {
      char st[256];
      model_stem(c->name[i], st, sizeof st);
      dup = !strcmp(st, stem);
    }
    if (dup) continue;
    /* keep the CLOSE_MAX closest, closest first */
    size_t at = c->n;
    while (at > 0 && c->dist[at - 1] > dd) at--;
    if (at >= CLOSE_MAX) continue;
    size_t last = c->n < CLOSE_MAX ? c->n : CLOSE_MAX - 1;
    for (size_t i = last; i > at; i--) {
      memcpy(c->name[i], c->name[i - 1], sizeof c->name[0]);
      c->dist[i] = c->dist[i - 1];
    }
    snprintf(c->name[at], sizeof c->name[0], "%s", name);
    c->dist[at] = dd;
    if (c->n < CLOSE_MAX) c->n++;
  }
  closedir(d);
}

int cli_resolve_target(const char *cmd, const char *spec, char *buf, size_t len, const char **out) {
  *out = spec;
  if (strncmp(spec, "sim:", 4) || len < 5) return 0;
  const char *model = spec + 4;
  if (!*model) return cli_usage_error(cmd, "target 'sim:': expected sim:MODEL (ssdrev model list names them)");
  memcpy(buf, "sim:", 4);
  if (cli_data_path(model, buf + 4, len - 4) == 0) {
    *out = buf;
    return 0;
  }
  /* a bare name ("sim:hot-512", "sim:hot-512.model") is one of the data
   * directory's models */
  size_t n = strlen(model);
  int bare = !strchr(model, '/');
  if (bare) {
    char rel[4200];
    int has_ext = n > 6 && !strcmp(model + n - 6, ".model");
    snprintf(rel, sizeof rel, "samples/models/%s%s", model, has_ext ? "" : ".model");
    if (cli_data_path(rel, buf + 4, len - 4) == 0) {
      *out = buf;
      return 0;
    }
  }
  /* not found: the close names, from the directory typed (as typed) and
   * from the data directories' models (as bare names, which resolve) */
  char want[256];
  model_stem(model, want, sizeof want);
  struct close_models c;
  memset(&c, 0, sizeof c);
  const char *slash = strrchr(model, '/');
  if (slash) {
    char dir[4200], rdir[4200], prefix[4200];
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - model), model);
    snprintf(prefix, sizeof prefix, "%.*s", (int)(slash - model + 1), model);
    if (cli_data_path(dir[0] ? dir : "/", rdir, sizeof rdir) == 0) close_models_in(&c, rdir, prefix, want);
  }
  const char *dirs[3];
  size_t nd = data_dirs(dirs);
  char here[4200];
  if (cli_data_path("samples/models", here, sizeof here) == 0) close_models_in(&c, here, "", want);
  for (size_t i = 0; i < nd; i++) {
    char dm[4200];
    snprintf(dm, sizeof dm, "%s/samples/models", dirs[i]);
    close_models_in(&c, dm, "", want);
  }
  char list[2048] = "", dd[1024];
  size_t used = 0;
  for (size_t i = 0; i < c.n && used < sizeof list; i++) {
    int w = snprintf(list + used, sizeof list - used, "%ssim:%s", i ? ", " : "", c.name[i]);
    if (w > 0) used += (size_t)w;
  }
  if (c.n)
    return cli_error(cmd, "target '%s': no such model; did you mean %s? (ssdrev model list names them all)", spec,
                     list);
  for (size_t i = 0; i < c.seen && i < 3; i++) {
    int w = snprintf(list + used, sizeof list - used, "%ssim:%s", i ? ", " : "", c.any[i]);
    if (w > 0 && used + (size_t)w < sizeof list) used += (size_t)w;
  }
  return cli_error(cmd, "target '%s': no such model file here nor under samples/models in %s%s%s%s", spec,
                   cli_data_dirs(dd, sizeof dd), c.seen ? " (models there: " : "", list,
                   c.seen ? (c.seen > 3 ? ", ...; ssdrev model list names them all)" : ")") : "");
}

/* A bare name (no '/', no ".json") means profiles/NAME.json; either form is
 * looked up in the working directory, then in the data directories
 * (cli_data_path), so an installed ssdrev finds its methods anywhere. */
int cli_resolve_profile(const char *cmd, const char *arg, char *out, size_t len) {
  size_t n = strlen(arg);
  int bare = !strchr(arg, '/') && !(n > 5 && !strcmp(arg + n - 5, ".json"));
  char rel[4200];
  snprintf(rel, sizeof rel, bare ? "profiles/%s.json" : "%s", arg);
  if (cli_data_path(rel, out, len) == 0) return 0;
  char dirs[1024];
  return cli_usage_error(cmd, "--profile '%s': no %s here nor in %s (set $SSDREV_DATA to the data directory)",
                         arg, rel, cli_data_dirs(dirs, sizeof dirs));
}
