/* campaign.c — a review on many load hosts at once (`ssdrev review
 * --engine fio --hosts HOSTS --out CAMPAIGN`): one review per line of HOSTS,
 * each in a child process of its own running the fio engine through `fio
 * --client` to that host's `fio --server`, into CAMPAIGN/HOST_PORT-TARGET/.
 * A host that fails (or whose server goes away) ends its own review as
 * failed; the others go on. CAMPAIGN/campaign.json sums up, and each run's
 * manifest says how its host ended ("campaign"). The guard: the controller
 * opens each target itself before fio starts on it, which it can only do
 * for a target on this machine, so hosts must be loopback addresses
 * (docs/interop.md). */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench/bench.h"
#include "archive/archive.h"
#include "bench/fio/fio_int.h"

#define CAMPAIGN_DEFAULT_PORT 8765 /* fio's */
#define CAMPAIGN_SUMMARY "campaign.json"

/* 1 when ADDR is an IPv4 loopback address (127.0.0.0/8). */
static int is_loopback(const char *addr) {
  struct in_addr a;
  return inet_pton(AF_INET, addr, &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

/* PATH made canonical without needing it to exist: the longest existing
 * prefix through realpath() (every symlink resolved), then the rest with
 * "." dropped and ".." taken lexically (those parts do not exist, so no
 * symlink can be among them); a last component that is a symlink (dangling:
 * it names a file not made yet) is followed, 40 deep at most, as the kernel
 * does. 0, or -1 when PATH is not absolute or too long. */
static int canonical_path(const char *path, char *out, size_t len) {
  char cur[PATH_MAX];
  if (path[0] != '/' || strlen(path) >= sizeof cur) return -1;
  memcpy(cur, path, strlen(path) + 1);
  for (int depth = 0; depth < 40; depth++) {
    /* the longest prefix realpath() takes ("/" at least) */
    size_t cut = strlen(cur);
    char base[PATH_MAX];
    for (;;) {
      char save = cur[cut];
      cur[cut] = 0;
      char *r = realpath(cut ? cur : "/", base);
      cur[cut] = save;
      if (r) break;
      if (cut == 0) return -1;
      while (cut > 0 && cur[cut - 1] == '/') cut--;
      while (cut > 0 && cur[cut - 1] != '/') cut--;
    }
    /* the rest, component by component */
    size_t n = strlen(base);
    if (n == 1) n = 0; /* "/" */
    for (char *q = cur + cut, *e; *q; q = e) {
      while (*q == '/') q++;
      if (!*q) break;
      for (e = q; *e && *e != '/'; e++) {}
      size_t cl = (size_t)(e - q);
      if (cl == 1 && q[0] == '.') continue;
      if (cl == 2 && q[0] == '.' && q[1] == '.') {
        while (n > 0 && base[n - 1] != '/') n--;
        if (n > 0) n--;
        continue;
      }
      if (n + 1 + cl >= sizeof base) return -1;
      base[n++] = '/';
      memcpy(base + n, q, cl);
      n += cl;
    }
    if (!n) base[n++] = '/';
    base[n] = 0;
    /* a dangling symlink: the file it names is the target */
    char link[PATH_MAX];
    ssize_t ll = readlink(base, link, sizeof link - 1);
    if (ll <= 0) {
      if (strlen(base) >= len) return -1;
      snprintf(out, len, "%s", base);
      return 0;
    }
    link[ll] = 0;
    char next[PATH_MAX * 2];
    if (link[0] == '/') snprintf(next, sizeof next, "%s", link);
    else snprintf(next, sizeof next, "%.*s/%s", (int)(strrchr(base, '/') - base), base, link);
    if (strlen(next) >= sizeof cur) return -1;
    memcpy(cur, next, strlen(next) + 1);
  }
  return -1; /* a loop of links */
}

/* Two targets of this machine are one when they name the same device or
 * file (a symlink, "/dev/./loop0"); targets not made yet when their
 * canonical paths are equal ("D/a.img", "D/./a.img", "L/a.img" through a
 * symlink L to D). */
static int same_local_target(const char *a, const char *b) {
  struct stat sa, sb;
  if (!stat(a, &sa) && !stat(b, &sb)) {
    if (S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode)) return sa.st_rdev == sb.st_rdev;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  }
  char ca[PATH_MAX], cb[PATH_MAX];
  if (canonical_path(a, ca, sizeof ca) || canonical_path(b, cb, sizeof cb)) return !strcmp(a, b);
  return !strcmp(ca, cb);
}

/* A host address: an IPv4 address or a host name, in the characters a name
 * may have; what fio's --client=ip:ADDRESS,PORT takes whole. 0, or fails
 * naming WHERE (PATH:LINE). */
static int check_address(const char *a, const char *where, struct ssdrev_err *err) {
  size_t n = strlen(a);
  /* IPv6 ("[::1]:8765", "::1"): fio takes ip6:, but the guard's loopback
   * rule and the run names are IPv4's; refused plainly (docs/interop.md) */
  if (a[0] == '[' || strchr(a, ':'))
    return ssdrev_fail(err, -EINVAL, "%s: IPv6 addresses are not supported (give an IPv4 address or a host name)",
                       where);
  if (!n) return ssdrev_fail(err, -EINVAL, "%s: no host address before the port", where);
  if (n > BENCH_CAMPAIGN_ADDRESS_MAX)
    return ssdrev_fail(err, -EINVAL, "%s: host address of %zu characters is longer than the limit of %d", where, n,
                       BENCH_CAMPAIGN_ADDRESS_MAX);
  for (const char *q = a; *q; q++)
    if (!isalnum((unsigned char)*q) && *q != '.' && *q != '-' && *q != '_')
      return ssdrev_fail(err, -EINVAL, "%s: host address '%s' has a character that is not a letter, digit, '.', '-' "
                         "or '_'", where, a);
  return 0;
}

/* One line of a hosts file (NUL-terminated, its own copy: cut into fields
 * in place) into *x; 1 when it has a host, 0 when blank or a comment. */
static int parse_line(char *buf, const char *path, unsigned line, struct bench_campaign_host *x,
                      struct ssdrev_err *err) {
  char where[PATH_MAX + 32];
  snprintf(where, sizeof where, "%s:%u", path, line);
  char *hash = strchr(buf, '#');
  if (hash) *hash = 0;
  char *f[4] = {0};
  int nf = 0;
  for (char *q = buf; *q;) {
    while (*q == ' ' || *q == '\t') q++;
    if (!*q) break;
    if (nf == 3)
      return ssdrev_fail(err, -EINVAL, "%s: expected 'ADDRESS[:PORT] DEVICE-OR-FILE [SIZE]', got more than three "
                         "fields", where);
    f[nf++] = q;
    while (*q && *q != ' ' && *q != '\t') q++;
    if (*q) *q++ = 0;
  }
  if (nf == 0) return 0;
  if (nf < 2)
    return ssdrev_fail(err, -EINVAL, "%s: expected 'ADDRESS[:PORT] DEVICE-OR-FILE [SIZE]', got one field", where);
  memset(x, 0, sizeof *x);
  x->line = line;
  x->port = CAMPAIGN_DEFAULT_PORT;
  if (f[0][0] == '[' || (strchr(f[0], ':') && strchr(f[0], ':') != strrchr(f[0], ':')))
    return check_address(f[0], where, err); /* IPv6: refused whole, before its colons read as a port */
  char *colon = strchr(f[0], ':');
  if (colon) {
    *colon = 0;
    char *end;
    errno = 0;
    unsigned long port = strtoul(colon + 1, &end, 10);
    if (end == colon + 1 || *end || errno || port < 1 || port > 65535 || !isdigit((unsigned char)colon[1]))
      return ssdrev_fail(err, -EINVAL, "%s: port '%s' is not a number in 1..65535", where, colon + 1);
    x->port = (unsigned)port;
  }
  int rc = check_address(f[0], where, err);
  if (rc) return rc;
  snprintf(x->address, sizeof x->address, "%s", f[0]);
  if (f[1][0] != '/')
    return ssdrev_fail(err, -EINVAL, "%s: target '%s' must be an absolute path (the host's fio server opens it)",
                       where, f[1]);
  if (strlen(f[1]) >= sizeof x->target)
    return ssdrev_fail(err, -EINVAL, "%s: target of %zu bytes is longer than the limit of %zu", where, strlen(f[1]),
                       sizeof x->target - 1);
  snprintf(x->target, sizeof x->target, "%s", f[1]);
  x->loopback = is_loopback(x->address);
  /* a target here is sized here; one on another machine cannot be */
  if (nf == 3 && x->loopback)
    return ssdrev_fail(err, -EINVAL, "%s: a size is only for a host that is not a loopback address (the target "
                       "of this machine is sized here)", where);
  if (nf == 3 && (ssdrev_parse_size(f[2], &x->size_bytes) || x->size_bytes < 1048576))
    return ssdrev_fail(err, -EINVAL, "%s: size '%s' is not a size of at least 1 MiB (e.g. 8G)", where, f[2]);
  /* the run's directory: HOST_PORT-TARGETNAME as a token (bench_fio_token,
   * the one rule for a name made from user data: [A-Za-z0-9._-], never a
   * leading '.' or '-'), so at most BENCH_FIO_TOKEN_MAX bytes, within a
   * file name's 255 */
  const char *base = strrchr(x->target, '/') + 1;
  char raw[sizeof x->run_name];
  snprintf(raw, sizeof raw, "%.64s_%u-%.180s", x->address, x->port, *base ? base : "target");
  bench_fio_token(raw, x->run_name, sizeof x->run_name);
  snprintf(x->fio_client, sizeof x->fio_client, "ip:%s,%u", x->address, x->port);
  return 1;
}

int bench_campaign_hosts_parse(const char *path, const char *text, size_t len, struct bench_campaign_host **out,
                               size_t *nout, struct ssdrev_err *err) {
  *out = NULL;
  *nout = 0;
  struct bench_campaign_host *h = NULL;
  size_t n = 0;
  unsigned line = 0;
  int rc = 0;
  char *buf = NULL;
  size_t cap = 0;
  for (const char *p = text, *next; !rc && p < text + len; p = next) {
    const char *nl = memchr(p, '\n', (size_t)(text + len - p));
    size_t ll = (size_t)((nl ? nl : text + len) - p);
    next = nl ? nl + 1 : text + len;
    line++;
    if (ll && p[ll - 1] == '\r') ll--; /* a CRLF file */
    /* a line of any length, but nothing a reader or a terminal would take
     * otherwise: a NUL would end it in C (what follows unread), a control
     * character hides what follows */
    for (size_t i = 0; i < ll && !rc; i++) {
      unsigned char ch = (unsigned char)p[i];
      if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
        rc = ssdrev_fail(err, -EINVAL, "%s:%u: %s at byte %zu of the line (hosts files are text)", path, line,
                         ch ? "a control character" : "a NUL byte", i + 1);
    }
    if (rc) break;
    if (ll + 1 > cap) {
      char *nb = realloc(buf, ll + 1);
      if (!nb) {
        rc = ssdrev_fail(err, -ENOMEM, "out of memory reading '%s'", path);
        break;
      }
      buf = nb;
      cap = ll + 1;
    }
    memcpy(buf, p, ll);
    buf[ll] = 0;
    struct bench_campaign_host x;
    int got = parse_line(buf, path, line, &x, err);
    if (got < 0) {
      rc = got;
      break;
    }
    if (!got) continue;
    for (size_t i = 0; i < n && !rc; i++) {
      if (!strcmp(h[i].address, x.address) && h[i].port == x.port)
        rc = ssdrev_fail(err, -EINVAL, "%s:%u: host %s:%u is on line %u already (one target per fio server)", path,
                         line, x.address, x.port, h[i].line);
      else if (x.loopback && h[i].loopback && same_local_target(h[i].target, x.target))
        rc = ssdrev_fail(err, -EINVAL, "%s:%u: target '%s' of this machine is on line %u already", path, line,
                         x.target, h[i].line);
      /* the name keeps 64 characters of the address and 180 of the file */
      else if (!strcmp(h[i].run_name, x.run_name))
        rc = ssdrev_fail(err, -EINVAL, "%s:%u: the run directory '%s' is line %u's already (shorten the address or "
                         "the target's name)", path, line, x.run_name, h[i].line);
    }
    if (rc) break;
    if (n >= BENCH_CAMPAIGN_MAX_HOSTS) { /* the report loop polls them all at once */
      rc = ssdrev_fail(err, -E2BIG, "%s:%u: more than %d hosts in one campaign", path, line, BENCH_CAMPAIGN_MAX_HOSTS);
      break;
    }
    struct bench_campaign_host *g = realloc(h, (n + 1) * sizeof *h);
    if (!g) {
      rc = ssdrev_fail(err, -ENOMEM, "out of memory reading '%s'", path);
      break;
    }
    h = g;
    h[n++] = x;
  }
  free(buf);
  if (!rc && !n) rc = ssdrev_fail(err, -EINVAL, "%s: no hosts (one 'ADDRESS[:PORT] DEVICE-OR-FILE' per line)", path);
  if (rc) {
    free(h);
    return rc;
  }
  *out = h;
  *nout = n;
  return 0;
}

int bench_campaign_hosts_load(const char *path, struct bench_campaign_host **out, size_t *nout,
                              struct ssdrev_err *err) {
  *out = NULL;
  *nout = 0;
  char *text;
  size_t len;
  int rc = ssdrev_read_file(path, &text, &len, 1 << 20, err);
  if (rc) return rc;
  rc = bench_campaign_hosts_parse(path, text, len, out, nout, err);
  free(text);
  return rc;
}

int bench_campaign_hosts_check(const struct bench_campaign_host *hosts, size_t n, const char *path,
                               int remote_unchecked, struct ssdrev_err *err) {
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    /* fio reads the target from a job file and the address from its
     * --client=ip:ADDRESS,PORT: the target is refused here, before any host
     * starts, when fio would read it as something else (bench/fio/fio_int.h);
     * the address's characters are the parser's rule (check_address) */
    char what[PATH_MAX + 64];
    snprintf(what, sizeof what, "%s:%u: target", path, hosts[i].line);
    if ((rc = bench_fio_check_filename(hosts[i].target, what, err))) break;
    if (hosts[i].loopback) continue;
    if (!remote_unchecked)
      rc = ssdrev_fail(err, -ENOTSUP, "%s:%u: host '%s' is not a loopback address (127.0.0.0/8; names are not resolved): the controller cannot "
                       "apply the destructive-write guard to a target on another machine (run ssdrev there, or "
                       "give --remote-unchecked to write it unchecked; docs/interop.md)", path,
                       hosts[i].line, hosts[i].address);
    else if (!hosts[i].size_bytes)
      rc = ssdrev_fail(err, -EINVAL, "%s:%u: host '%s' is not a loopback address: give its target's size as a third "
                       "field (the controller cannot size it)", path, hosts[i].line, hosts[i].address);
  }
  return rc;
}

/* ------------------------------------------------------------ the children */

struct child_report {
  int fd;
};

/* A progress report on the pipe: "P frac total idle mb_s iops\tphase". */
static void child_progress(const struct bench_progress *p, void *arg) {
  struct child_report *r = arg;
  char line[600];
  int n = snprintf(line, sizeof line, "P %.4f %.4f %d %.3f %.1f %.1f %.1f\t%s\n", p->fraction, p->total_fraction,
                   p->idle, p->mb_s, p->iops, p->eta_s, p->total_eta_s, p->phase ? p->phase : "");
  if (n > 0) {
    if ((size_t)n >= sizeof line) line[sizeof line - 2] = '\n', n = (int)sizeof line - 1;
    ssize_t w = write(r->fd, line, (size_t)n);
    (void)w; /* the parent may be gone; the review goes on */
  }
}

/* The child: one host's review; ends with "E rc\tmessage". Never returns. */
static void child_main(const struct bench_campaign_opts *o, const struct bench_campaign_host *h, int fd) {
  struct bench_review_opts r = o->review;
  char run_dir[PATH_MAX];
  snprintf(run_dir, sizeof run_dir, "%s/%s", o->dir, h->run_name);
  r.target_spec = h->target;
  r.run_dir = run_dir;
  r.engine = "fio";
  r.fio_client = h->fio_client;
  if (!h->loopback) {
    /* --remote-unchecked: nothing of the target is opened here */
    r.remote_bytes = h->size_bytes;
    r.create_bytes = 0;
  }
  struct child_report rep = {.fd = fd};
  struct ssdrev_err e = {{0}};
  int rc = bench_review_run(&r, child_progress, &rep, &e);
  char line[sizeof e.msg + 32];
  for (char *q = e.msg; *q; q++)
    if (*q == '\n' || *q == '\t') *q = ' ';
  int n = snprintf(line, sizeof line, "E %d\t%s\n", rc, rc ? e.msg : "");
  if (n > 0) {
    ssize_t w = write(fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    (void)w;
  }
  close(fd);
  _exit(rc == 0 ? 0 : rc == -EINTR ? 3 : 1);
}

struct host_state {
  pid_t pid;
  int fd;
  char buf[4096];
  size_t blen;
  int rc_seen, rc;
  char msg[600];
  const char *status;
};

static void handle_line(const struct bench_campaign_opts *o, unsigned i, const struct bench_campaign_host *h,
                        struct host_state *s, char *line, bench_campaign_progress_fn progress, void *arg) {
  if (line[0] == 'E' && line[1] == ' ') {
    char *tab = strchr(line, '\t');
    s->rc = (int)strtol(line + 2, NULL, 10);
    s->rc_seen = 1;
    snprintf(s->msg, sizeof s->msg, "%s", tab ? tab + 1 : "");
    return;
  }
  if (line[0] != 'P' || !progress) return;
  (void)o;
  struct bench_progress p = {0};
  char *tab = strchr(line, '\t');
  if (!tab) return;
  *tab = 0;
  if (sscanf(line + 2, "%lf %lf %d %lf %lf %lf %lf", &p.fraction, &p.total_fraction, &p.idle, &p.mb_s, &p.iops,
             &p.eta_s, &p.total_eta_s) != 7)
    return;
  p.phase = tab + 1;
  progress(i, h, &p, arg);
}

/* Records how the host ended in its run's manifest (when the run exists). */
static void mark_run(const struct bench_campaign_opts *o, const struct bench_campaign_host *h, const char *status,
                     const char *msg) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/%s", o->dir, h->run_name);
  char man[PATH_MAX + 32];
  snprintf(man, sizeof man, "%s/" ARCHIVE_MANIFEST, dir);
  if (access(man, F_OK)) return;
  struct archive *run = NULL;
  struct ssdrev_err e;
  if (archive_open_write(&run, dir, &e)) return;
  json_t *c = json_pack("{s:s, s:s, s:i, s:s, s:s}", "hosts_file", o->hosts_path, "address", h->address, "port",
                        (int)h->port, "target", h->target, "status", status);
  if (msg && *msg) json_object_set_new(c, "error", json_string(msg));
  json_object_set_new(run->manifest, "campaign", c);
  archive_save(run, &e);
  archive_free(run);
}

int bench_campaign_run(const struct bench_campaign_opts *o, bench_campaign_progress_fn progress, void *arg,
                       struct bench_campaign_result *res, struct ssdrev_err *err) {
  memset(res, 0, sizeof *res);
  struct bench_campaign_host *hosts;
  size_t n;
  int rc = bench_campaign_hosts_load(o->hosts_path, &hosts, &n, err);
  if (rc) return rc;
  /* the guard needs the target on this machine: a remote host is refused
   * before anything starts (docs/interop.md) */
  rc = bench_campaign_hosts_check(hosts, n, o->hosts_path, o->remote_unchecked, err);
  if (rc) {
    free(hosts);
    return rc;
  }
  if ((rc = ssdrev_mkdirs(o->dir, err))) {
    free(hosts);
    return rc;
  }
  struct host_state *st = calloc(n, sizeof *st);
  if (!st) {
    free(hosts);
    return ssdrev_fail(err, -ENOMEM, "out of memory starting the campaign");
  }
  fflush(NULL); /* a child must not write the parent's buffered output again */
  for (size_t i = 0; i < n; i++) {
    int p[2];
    st[i].fd = -1;
    st[i].pid = -1;
    if (pipe(p)) {
      snprintf(st[i].msg, sizeof st[i].msg, "cannot start: pipe: %s", strerror(errno));
      continue;
    }
    pid_t pid = fork();
    if (pid < 0) {
      snprintf(st[i].msg, sizeof st[i].msg, "cannot start: fork: %s", strerror(errno));
      close(p[0]), close(p[1]);
      continue;
    }
    if (pid == 0) {
      close(p[0]);
      for (size_t k = 0; k < i; k++)
        if (st[k].fd >= 0) close(st[k].fd); /* the other hosts' pipes are the parent's */
      child_main(o, &hosts[i], p[1]);
    }
    close(p[1]);
    st[i].pid = pid;
    st[i].fd = p[0];
  }
  /* every host's reports, as they come */
  for (;;) {
    struct pollfd pf[BENCH_CAMPAIGN_MAX_HOSTS];
    size_t idx[BENCH_CAMPAIGN_MAX_HOSTS], np = 0;
    for (size_t i = 0; i < n && np < BENCH_CAMPAIGN_MAX_HOSTS; i++)
      if (st[i].fd >= 0) pf[np] = (struct pollfd){.fd = st[i].fd, .events = POLLIN}, idx[np++] = i;
    if (!np) break;
    if (poll(pf, np, 500) < 0 && errno != EINTR) break;
    for (size_t k = 0; k < np; k++) {
      if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      struct host_state *s = &st[idx[k]];
      ssize_t r = read(s->fd, s->buf + s->blen, sizeof s->buf - 1 - s->blen);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        close(s->fd);
        s->fd = -1;
        continue;
      }
      s->blen += (size_t)r;
      s->buf[s->blen] = 0;
      char *start = s->buf, *nl;
      while ((nl = strchr(start, '\n'))) {
        *nl = 0;
        handle_line(o, (unsigned)idx[k], &hosts[idx[k]], s, start, progress, arg);
        start = nl + 1;
      }
      s->blen = strlen(start);
      memmove(s->buf, start, s->blen + 1);
      if (s->blen == sizeof s->buf - 1) s->blen = 0; /* a line longer than the buffer: dropped */
    }
  }
  json_t *list = json_array();
  for (size_t i = 0; i < n; i++) {
    struct host_state *s = &st[i];
    int code = -1;
    if (s->pid > 0) {
      int ws = 0, wr;
      while ((wr = (int)waitpid(s->pid, &ws, 0)) < 0 && errno == EINTR) {}
      code = wr < 0 ? -1 : WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
      if (!s->rc_seen && !s->msg[0])
        snprintf(s->msg, sizeof s->msg, "the host's review ended without a result (%s %d)",
                 WIFSIGNALED(ws) ? "signal" : "exit status", WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws));
    }
    s->status = code == 0 ? "complete" : code == 3 ? "interrupted" : "failed";
    if (code == 0) res->complete++;
    else if (code == 3) res->interrupted++;
    else res->failed++;
    mark_run(o, &hosts[i], s->status, s->msg);
    json_t *e = json_pack("{s:i, s:s, s:i, s:s, s:s, s:s}", "line", (int)hosts[i].line, "address", hosts[i].address,
                          "port", (int)hosts[i].port, "target", hosts[i].target, "run", hosts[i].run_name, "status",
                          s->status);
    if (s->msg[0] && code != 0) json_object_set_new(e, "error", json_string(s->msg));
    json_array_append_new(list, e);
    if (progress) {
      struct bench_progress p = {.phase = s->status, .fraction = 1.0, .total_fraction = 1.0, .eta_s = 0,
                                 .total_eta_s = 0};
      char ph[700];
      snprintf(ph, sizeof ph, "%s%s%s", s->status, code != 0 && s->msg[0] ? ": " : "", code != 0 ? s->msg : "");
      p.phase = ph;
      progress((unsigned)i, &hosts[i], &p, arg);
    }
  }
  json_t *sum = json_pack("{s:s, s:i, s:s, s:o, s:i, s:i, s:i}", "format", "ssdrev-campaign", "format_version", 1,
                          "hosts_file", o->hosts_path, "hosts", list, "complete", (int)res->complete, "failed",
                          (int)res->failed, "interrupted", (int)res->interrupted);
  char sp[PATH_MAX + 32];
  snprintf(sp, sizeof sp, "%s/" CAMPAIGN_SUMMARY, o->dir);
  rc = ssdrev_write_json_atomic(sp, sum, err);
  json_decref(sum);
  free(st);
  free(hosts);
  return rc;
}
