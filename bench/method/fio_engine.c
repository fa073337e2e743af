/* fio_engine.c — the review's fio engine (`ssdrev review --engine fio`):
 * every job a step kind makes runs as one fio job (ioengine=io_uring,
 * direct=1, every I/O logged with its offset: write_lat_log, log_offset=1,
 * log_avg_msec=0; --output-format=json+), written from the very parameters
 * ssdrev's own engine would run (bench_review_fio_job), and is imported back
 * (import_fio_test) as the test the native engine would have made: same
 * name, kind, keys and log. The job file, fio's JSON and its output stay in
 * RUN/fio/STEP/ (docs/archive.md). With o->fio_client the job runs on a
 * load host through `fio --client` (a campaign, bench/method/campaign.c).
 *
 * One fio run per test keeps the kinds unaware of the engine: a kind gets
 * each test's result back as it does from the native runner. The cost is
 * fio's start (tens of ms) between two back-to-back tests. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bench/method/review_int.h"
#include "bench/target/target_int.h"
#include "bench/fio/fio_int.h"
#include "archive/archive.h"
#include "import/import.h"

#define FIO_ENGINE_DIR "fio"    /* RUN/fio/STEP/: job files and fio's outputs */
#define FIO_MIN_MAJOR 3
#define FIO_MIN_MINOR 13        /* ioengine=io_uring came with fio 3.13 */
/* Time limits (docs/interop.md "The fio engine's time limits"): a job
 * whose length is known (time-based: runtime, the ramp within it) is killed
 * when it runs FIO_LIMIT_SHARE of that plus FIO_LIMIT_MARGIN_S past it; a
 * size-bound job, whose length is only the plan's estimate, when it is past
 * that same limit of its estimate AND fio reported no I/O moving for
 * FIO_LIMIT_MARGIN_S (a slow drive that still writes is never cut), or
 * FIO_LIMIT_BLIND when fio reports nothing.
 * `fio --version` gets FIO_VERSION_LIMIT_S. $SSDREV_FIO_MARGIN_S (seconds,
 * for tests) replaces both the margin and the version check's limit. */
#define FIO_LIMIT_SHARE 0.5
#define FIO_LIMIT_MARGIN_S 120.0
/* A size-bound job whose fio prints no status line (fio --client with
 * JSON output prints none) gives no sign of I/O moving: it is killed only
 * past FIO_LIMIT_BLIND times its estimate plus the margin (a drive 50 times
 * slower than the plan's write_mb_s) */
#define FIO_LIMIT_BLIND 50.0
#define FIO_VERSION_LIMIT_S 10.0
#define FIO_KILL_GRACE_NS 10000000000ull /* SIGTERM, then SIGKILL this much later */
/* fio's console output: streamed to RUN/fio/STEP/TEST.out up to
 * FIO_OUT_FILE_MAX bytes (then only its end is kept there), its last
 * FIO_TAIL_BYTES in memory for messages */
#define FIO_OUT_FILE_MAX (64u << 20)
#define FIO_TAIL_BYTES 4096

/* The margin of the time limits, in seconds (see FIO_LIMIT_MARGIN_S). */
static double limit_margin_s(void) {
  const char *v = getenv("SSDREV_FIO_MARGIN_S");
  char *end;
  double m = v && *v ? strtod(v, &end) : -1;
  return v && *v && !*end && m > 0 && m < 1e7 ? m : FIO_LIMIT_MARGIN_S;
}

/* Starts ARGV (argv[0] looked up in PATH) in DIR with stderr, and stdout
 * unless OUT_FD >= 0 (then stdout goes there), into a pipe (*fd, the read
 * end), as the leader of a process group of its own: fio's job processes
 * share it, so a kill of the group reaches them all. Returns the pid or a
 * negative errno. */
static pid_t spawn(const char *dir, char *const argv[], int out_fd, int *fd, struct ssdrev_err *err) {
  int p[2];
  if (pipe(p)) return ssdrev_fail(err, -errno, "cannot start %s: pipe: %s", argv[0], strerror(errno));
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(p[0]), close(p[1]);
    return ssdrev_fail(err, -e, "cannot start %s: fork: %s", argv[0], strerror(e));
  }
  if (pid == 0) {
    /* fio must not outlive ssdrev (it would go on writing the target) */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() == 1) _exit(125); /* the parent died before prctl took */
    setpgid(0, 0);
    dup2(out_fd >= 0 ? out_fd : p[1], STDOUT_FILENO);
    dup2(p[1], STDERR_FILENO);
    close(p[0]), close(p[1]);
    if (dir && chdir(dir)) _exit(126);
    execvp(argv[0], argv);
    _exit(127); /* not found: the parent names it */
  }
  setpgid(pid, pid); /* also here: a kill before the child's own call must find the group */
  close(p[1]);
  *fd = p[0];
  return pid;
}

/* Signals PID's process group (fio and its job processes), PID alone when
 * the group is gone. */
static void kill_group(pid_t pid, int sig) {
  if (kill(-pid, sig)) kill(pid, sig);
}

/* An exit status from waitpid(): its code, 128 + signal when killed. */
static int exit_code(int st) {
  return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

/* Waits for PID; its exit status, 128 + signal when killed. */
static int wait_exit(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return exit_code(st);
}

/* fio's console output as it comes: into a file (OUT, -1 for none) up to
 * FIO_OUT_FILE_MAX bytes, its last FIO_TAIL_BYTES in memory. */
struct fio_output {
  int fd;                        /* the .out file, -1 when none */
  uint64_t bytes;                /* all fio wrote */
  uint64_t filed;                /* of which in the file */
  char tail[2 * FIO_TAIL_BYTES]; /* the last tail_len bytes (FIO_TAIL_BYTES at least once full) */
  size_t tail_len;
};

static void output_add(struct fio_output *o, const char *buf, size_t n) {
  o->bytes += n;
  if (o->fd >= 0 && o->filed < FIO_OUT_FILE_MAX) {
    size_t w = n < FIO_OUT_FILE_MAX - o->filed ? n : (size_t)(FIO_OUT_FILE_MAX - o->filed);
    for (size_t off = 0; off < w;) {
      ssize_t r = write(o->fd, buf + off, w - off);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) { /* a full disk loses only the text: the tail stays */
        close(o->fd);
        o->fd = -1;
        break;
      }
      off += (size_t)r;
    }
    o->filed += w;
  }
  if (n >= FIO_TAIL_BYTES) {
    memcpy(o->tail, buf + n - FIO_TAIL_BYTES, FIO_TAIL_BYTES);
    o->tail_len = FIO_TAIL_BYTES;
    return;
  }
  if (o->tail_len + n > sizeof o->tail) { /* keep the last FIO_TAIL_BYTES - n, then add */
    size_t keep = FIO_TAIL_BYTES - n;
    memmove(o->tail, o->tail + o->tail_len - keep, keep);
    o->tail_len = keep;
  }
  memcpy(o->tail + o->tail_len, buf, n);
  o->tail_len += n;
}

/* Ends the file: past FIO_OUT_FILE_MAX, a note of what was left out and
 * the tail, so the file ends as fio's output did. */
static void output_close(struct fio_output *o) {
  if (o->fd < 0) return;
  uint64_t dropped = o->bytes - o->filed;
  if (dropped) {
    size_t last = dropped < o->tail_len ? (size_t)dropped : o->tail_len; /* the tail's bytes not in the file */
    char note[200];
    int n = snprintf(note, sizeof note, "\n[ssdrev: %" PRIu64 " bytes of fio's output past its first %u MiB "
                     "are not kept here; its last %zu bytes follow]\n", dropped - last, FIO_OUT_FILE_MAX >> 20, last);
    if (write(o->fd, note, (size_t)n) != n || write(o->fd, o->tail + o->tail_len - last, last) < 0) {
      /* the text only */
    }
  }
  close(o->fd);
  o->fd = -1;
}

/* The last LINES non-empty lines of fio's output, for a message: at most
 * OLEN - 1 bytes, joined by " | ", a control character as '?'. */
static void output_last(const struct fio_output *o, int lines, char *out, size_t olen) {
  const char *t = o->tail;
  size_t len = o->tail_len;
  while (len && (t[len - 1] == '\n' || t[len - 1] == '\r' || t[len - 1] == ' ')) len--;
  size_t s = len;
  for (int k = 0; s > 0; s--)
    if ((t[s - 1] == '\n' || t[s - 1] == '\r') && s < len && t[s] != '\n' && t[s] != '\r' && ++k == lines) break;
  if (len - s > olen - 1) s = len - (olen - 1);
  size_t n = 0;
  for (size_t i = s; i < len && n + 4 < olen; i++) {
    char ch = t[i];
    if (ch == '\n' || ch == '\r') {
      if (n && out[n - 1] != ' ') memcpy(out + n, " | ", 3), n += 3;
      continue;
    }
    out[n++] = (unsigned char)ch < 0x20 || ch == 0x7f ? '?' : ch;
  }
  out[n] = 0;
}

/* ------------------------------------------------------------------ check */

/* `fio --version` is "fio-3.33" (or "fio-3.33-12-gabc"): 1 when at least
 * FIO_MIN_MAJOR.FIO_MIN_MINOR. */
static int version_ok(const char *v) {
  if (strncmp(v, "fio-", 4)) return 0;
  char *end;
  long major = strtol(v + 4, &end, 10);
  long minor = *end == '.' ? strtol(end + 1, NULL, 10) : 0;
  return major > FIO_MIN_MAJOR || (major == FIO_MIN_MAJOR && minor >= FIO_MIN_MINOR);
}

/* Whether fio V has the start-up race of its log-compression worker
 * (fixed in fio 3.42, commit 736c2015 "workqueue: fix threads stall"):
 * start_worker() set the new worker's flags to IDLE after pthread_create,
 * wiping the RUNNING the worker may already have set, and workqueue_init()
 * then waits forever. A load host's jobs carry log_compression (see
 * inflate_client_logs), so now and then one never starts: seen as a host
 * of review_fio_hosts.sh failed after its 120 s margin, the job's process
 * left on the host in workqueue_init (gdb). An unknown version counts as
 * having it. */
static int version_has_log_wq_race(const char *v) {
  if (strncmp(v, "fio-", 4)) return 1;
  char *end;
  long major = strtol(v + 4, &end, 10);
  long minor = *end == '.' ? strtol(end + 1, NULL, 10) : 0;
  return major < 3 || (major == 3 && minor < 42);
}

/* The filename= of a job (written by bench_fio_job_filename). A local
 * target is the very file the guard opened and checked: fio opens it again
 * through /proc/PID/fd/N, which names that open file (the same inode)
 * whatever happens to its path after the check. A load host's target is its
 * path exactly as the guard checked it (fio reads "\:" as its ':'); a path
 * fio would read as anything else (';' or '#' cut the line, '$' expands, a
 * control character ends it) is refused, for both, before fio starts. */
static int fio_filename(const struct review_ctx *c, char *out, size_t len, struct ssdrev_err *err) {
  const char *spec = c->o->target_spec;
  int rc = bench_fio_check_filename(spec, "--engine fio: target", err);
  if (rc) return rc;
  if (!c->o->fio_client && c->t) {
    snprintf(out, len, "/proc/%ld/fd/%d", (long)getpid(), bench_target_fd(c->t));
    return 0;
  }
  if (strlen(spec) >= len) return ssdrev_fail(err, -ENAMETOOLONG, "--engine fio: target '%s' is too long", spec);
  snprintf(out, len, "%s", spec);
  return 0;
}

static int fio_check(struct review_ctx *c, struct ssdrev_err *err) {
  char fname[PATH_MAX * 2];
  int frc = fio_filename(c, fname, sizeof fname, err);
  if (frc) return frc;
  /* every wait mode but user-space polling has its fio form */
  if (c->prof->set.wait == BENCH_WAIT_POLL)
    return ssdrev_fail(err, -ENOTSUP, "method '%s': settings.wait \"poll\" has no fio equivalent (--engine fio); "
                       "use \"auto\", \"sleep\" or \"iopoll\"", c->prof->source);
  char *argv[] = {"fio", "--version", NULL};
  int fd;
  pid_t pid = spawn(NULL, argv, -1, &fd, err);
  if (pid < 0) return (int)pid;
  /* its first 255 bytes, within its time limit: a fio that hangs or
   * prints forever is killed, not waited for */
  char out[256];
  size_t n = 0;
  double limit_s = limit_margin_s() < FIO_VERSION_LIMIT_S ? limit_margin_s() : FIO_VERSION_LIMIT_S;
  uint64_t end_ns = ssdrev_clock_ns() + (uint64_t)(limit_s * 1e9);
  int late = 0;
  for (;;) {
    uint64_t now = ssdrev_clock_ns();
    if (now >= end_ns) {
      late = 1;
      break;
    }
    struct pollfd pf = {.fd = fd, .events = POLLIN};
    int pr = poll(&pf, 1, (int)((end_ns - now) / 1000000 + 1));
    if (pr < 0 && errno == EINTR) continue;
    if (pr <= 0) continue;
    char buf[512];
    ssize_t r = read(fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    size_t take = (size_t)r < sizeof out - 1 - n ? (size_t)r : sizeof out - 1 - n;
    memcpy(out + n, buf, take);
    n += take;
  }
  close(fd);
  out[n] = 0;
  if (late) kill_group(pid, SIGKILL); /* it printed nothing of use: no grace */
  int st = wait_exit(pid);
  out[strcspn(out, "\r\n")] = 0;
  if (late)
    return ssdrev_fail(err, -ETIMEDOUT, "--engine fio: 'fio --version' did not end within %g s (killed)%s%.*s",
                       limit_s, out[0] ? "; it printed: " : "", 200, out);
  if (st == 127) return ssdrev_fail(err, -ENOENT, "--engine fio: fio is not installed (not in PATH; apt-get install fio)");
  if (st != 0 || !out[0])
    return ssdrev_fail(err, -ENOENT, "--engine fio: 'fio --version' failed (exit status %d): %s", st, out);
  if (!version_ok(out))
    return ssdrev_fail(err, -ENOTSUP, "--engine fio: fio '%s' is too old or not fio: fio %d.%d or later is needed "
                       "(ioengine=io_uring)", out, FIO_MIN_MAJOR, FIO_MIN_MINOR);
  snprintf(c->fio_version, sizeof c->fio_version, "%.31s", out);
  return 0;
}

/* ------------------------------------------------------------- progress */

/* A number with an optional k/M/G suffix ("1337k", "5222"): *p moves past it. */
static double num_suffix(const char **p) {
  char *end;
  double v = strtod(*p, &end);
  if (end == *p) return 0;
  double m = *end == 'k' || *end == 'K' ? 1e3 : *end == 'M' ? 1e6 : *end == 'G' ? 1e9 : 1;
  if (m != 1) end++;
  *p = end;
  return v * m;
}

/* A rate "5222MiB/s" or "1.2GiB/s" or "980KiB/s" or "12.3MB/s" in B/s. */
static double rate_bytes(const char *p) {
  char *end;
  double v = strtod(p, &end);
  if (end == p) return 0;
  double m = 1;
  int bin = end[1] == 'i';
  switch (*end) {
  case 'K': case 'k': m = bin ? 1024.0 : 1e3; break;
  case 'M': m = bin ? 1048576.0 : 1e6; break;
  case 'G': m = bin ? 1073741824.0 : 1e9; break;
  case 'T': m = bin ? 1099511627776.0 : 1e12; break;
  default: break;
  }
  return v * m;
}

/* fio's status line "Jobs: 1 (f=1): [R(1)][45.0%][r=120MiB/s,w=1MiB/s]
 * [r=30.7k,w=256 IOPS][eta 00m:03s]": its rates (summed over directions)
 * and its share done (< 0 when "-.-%"). 1 when LINE is one. */
static int parse_status(const char *line, double *mb_s, double *iops, double *frac) {
  if (!strstr(line, "Jobs:")) return 0;
  *mb_s = *iops = 0;
  *frac = -1;
  for (const char *b = strchr(line, '['); b; b = strchr(b + 1, '[')) {
    const char *e = strchr(b, ']');
    if (!e) break;
    char seg[128];
    snprintf(seg, sizeof seg, "%.*s", (int)(e - b - 1 < 127 ? e - b - 1 : 127), b + 1);
    size_t l = strlen(seg);
    if (l > 1 && seg[l - 1] == '%' && seg[0] >= '0' && seg[0] <= '9') {
      *frac = strtod(seg, NULL) / 100.0;
    } else if (strstr(seg, "IOPS")) {
      for (const char *q = seg; (q = strchr(q, '=')); ) {
        q++;
        *iops += num_suffix(&q);
      }
    } else if (strstr(seg, "B/s")) {
      for (const char *q = seg; (q = strchr(q, '=')); ) *mb_s += rate_bytes(++q) / 1e6;
    }
  }
  return 1;
}

/* --------------------------------------------------------------- one job */

/* RUN/fio/STEP: made on first use. */
static int step_dir(struct review_ctx *c, char *out, size_t len, struct ssdrev_err *err) {
  char rel[300];
  snprintf(rel, sizeof rel, FIO_ENGINE_DIR "/%s", c->step->id);
  snprintf(out, len, "%s", archive_path(c->run, rel));
  return ssdrev_mkdirs(out, err);
}

/* Removes fio's text latency logs of TEST in DIR (TEST_lat.N.log[.HOST],
 * _clat, _slat): their records are in the test's ssdlog now, at a third of
 * the size. */
static void remove_text_logs(const char *dir, const char *test) {
  DIR *d = opendir(dir);
  if (!d) return;
  size_t tl = strlen(test);
  struct dirent *e;
  while ((e = readdir(d))) {
    const char *n = e->d_name;
    if (strncmp(n, test, tl) || n[tl] != '_' || !strstr(n + tl, ".log")) continue;
    if (strncmp(n + tl, "_lat.", 5) && strncmp(n + tl, "_clat.", 6) && strncmp(n + tl, "_slat.", 6)) continue;
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s/%s", dir, n) < (int)sizeof p) unlink(p);
  }
  closedir(d);
}

/* A test entry for a job that did not complete (no log). */
static void add_unfinished(struct review_ctx *c, const struct bench_job *job, const struct bench_record_opts *o,
                           json_t *params, const char *status, const char *msg) {
  json_t *t = archive_add_test(c->run, job->name, params, NULL);
  json_object_set_new(t, "kind", json_string(o->kind ? o->kind : "job"));
  if (o->extra) json_object_update(t, o->extra);
  if (msg) json_object_set_new(t, "error", json_string(msg));
  archive_end_test(t, status);
}

static void sleep_idle(struct review_ctx *c, const struct bench_job *job, const struct bench_record_opts *o) {
  if (!job->idle_ns) return;
  struct bench_progress p = {.phase = job->name, .fraction = 0, .eta_s = -1, .idle = 1};
  if (o->progress) o->progress(&p, o->progress_arg);
  uint64_t end = ssdrev_clock_ns() + job->idle_ns;
  (void)c;
  /* in slices, so a stop request ends the pause */
  for (uint64_t now; !bench_stop_requested && (now = ssdrev_clock_ns()) < end;) {
    uint64_t left = end - now > 100000000ull ? 100000000ull : end - now;
    struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)left};
    nanosleep(&ts, NULL);
  }
}

/* How a fio run ended, beside its exit status. */
struct fio_run {
  int stopped;        /* a stop request (SIGINT) ended it */
  int timed_out;      /* it outlived its time limit and was killed */
  int blind;          /* that limit was FIO_LIMIT_BLIND's (no status line came) */
  double limit_s;     /* that limit */
  int server_lost;    /* a load host's fio server went away: its client was killed */
  char lost_why[96];  /* how the server's port failed ("Connection refused") */
  char lost_host[272]; /* HOST:PORT of that server */
  uint64_t out_bytes; /* console output it wrote */
  char tail[400];     /* its last lines, for a message */
};

/* Runs fio on DIR/NAME.fio (JSON to DIR/NAME.json, its console output
 * streamed into DIR/NAME.out), through c->o->fio_client when set, in DIR:
 * its logs (a client's come back from the server named .HOST) land there.
 * Its status lines drive PROGRESS (when set); a stop request stops it
 * (r->stopped). WANT_S is the job's length, known when TIMED (time-based),
 * else the plan's estimate (0: none); past its limit (FIO_LIMIT_SHARE,
 * FIO_LIMIT_MARGIN_S) fio is killed (r->timed_out). Returns fio's exit
 * status, or a negative errno when it could not start. */
static int run_fio(struct review_ctx *c, const char *dir, const char *name, double want_s, int timed,
                   bench_progress_fn progress, void *parg, struct fio_run *r, struct ssdrev_err *err) {
  memset(r, 0, sizeof *r);
  char out_arg[360], client_arg[300], jf[300];
  snprintf(out_arg, sizeof out_arg, "--output=%s.json", name);
  snprintf(jf, sizeof jf, "%s.fio", name);
  char *argv[10];
  int k = 0;
  argv[k++] = "fio";
  argv[k++] = "--output-format=json+";
  argv[k++] = out_arg;
  /* a status line a second, on stdout although it is a pipe: the progress
   * and the proof of I/O moving that a size-bound job's limit needs */
  argv[k++] = "--eta=always";
  argv[k++] = "--eta-newline=1";
  if (c->o->fio_client) {
    snprintf(client_arg, sizeof client_arg, "--client=%s", c->o->fio_client);
    argv[k++] = client_arg;
  }
  argv[k++] = jf;
  argv[k] = NULL;
  char outp[PATH_MAX + 200];
  snprintf(outp, sizeof outp, "%s/%s.out", dir, name);
  struct ssdrev_err oerr;
  static struct fio_output out; /* 8 KiB: off the stack; one fio at a time per process */
  memset(&out, 0, sizeof out);
  out.fd = ssdrev_open_new(outp, 1, &oerr); /* none: only the text is lost, the tail stays */
  int fd;
  pid_t pid = spawn(dir, argv, -1, &fd, err);
  if (pid < 0) {
    if (out.fd >= 0) close(out.fd);
    return (int)pid;
  }
  /* a load host's server: gone, its client may wait for ever (server.c) */
  struct bench_fio_server_probe probe;
  if (!c->o->fio_client || bench_fio_server_probe_init(&probe, c->o->fio_client)) memset(&probe, 0, sizeof probe);
  double margin = limit_margin_s();
  r->limit_s = (want_s > 0 ? want_s * (1 + FIO_LIMIT_SHARE) : 0) + margin;
  uint64_t t0 = ssdrev_clock_ns(), moved_ns = t0;
  uint64_t limit_ns = t0 + (uint64_t)(r->limit_s * 1e9), margin_ns = (uint64_t)(margin * 1e9);
  uint64_t blind_ns = t0 + (uint64_t)(((want_s > 0 ? want_s * FIO_LIMIT_BLIND : 0) + margin) * 1e9);
  int seen_status = 0; /* a status line came: the size-bound rule can see I/O moving */
  char line[1024];
  size_t ll = 0;
  uint64_t sig_ns = 0;
  int sent = 0; /* signals sent: 1 SIGINT (a stop), 2 SIGTERM, 3 SIGKILL */
  int st = -1, reaped = 0;
  uint64_t reaped_ns = 0;
  for (;;) {
    uint64_t now = ssdrev_clock_ns();
    if (bench_stop_requested && !sent && !reaped) {
      kill(pid, SIGINT); /* fio stops its jobs and exits */
      r->stopped = sent = 1;
      sig_ns = now;
    }
    /* past its limit: a time-based job at once, a size-bound one once no
     * status line has shown I/O moving for the margin (without any status
     * line, at the blind limit) */
    if (!sent && !reaped &&
        (timed ? now > limit_ns : seen_status ? now > limit_ns && now - moved_ns > margin_ns : now > blind_ns)) {
      kill_group(pid, SIGTERM);
      r->timed_out = 1;
      r->blind = !timed && !seen_status;
      if (r->blind) r->limit_s = (double)(blind_ns - t0) / 1e9;
      sent = 2;
      sig_ns = now;
    }
    if (!sent && !reaped && bench_fio_server_probe_step(&probe, now)) {
      kill_group(pid, SIGKILL); /* the client: nothing of use is to come */
      r->server_lost = 1;
      snprintf(r->lost_why, sizeof r->lost_why, "%s", probe.why);
      snprintf(r->lost_host, sizeof r->lost_host, "%s:%s", probe.host, probe.port);
      sent = 3;
      sig_ns = now;
    }
    /* a fio that does not exit (a client still connecting, a hung server)
     * must not hang the review: SIGTERM 10 s after SIGINT, SIGKILL 10 s
     * after SIGTERM */
    if (sent && sent < 3 && !reaped && now - sig_ns > FIO_KILL_GRACE_NS) {
      sent++;
      kill_group(pid, sent == 2 ? SIGTERM : SIGKILL);
      sig_ns = now;
    }
    if (!reaped) {
      int ws;
      pid_t w = waitpid(pid, &ws, WNOHANG);
      if (w == pid) {
        st = exit_code(ws);
        reaped = 1;
        reaped_ns = now;
      }
    }
    /* fio is gone but something it started holds the pipe: 2 s more, then
     * its group is killed and the rest of the output left unread (the
     * group only: PID itself is reaped, its number free for reuse) */
    if (reaped && now - reaped_ns > 2000000000ull) {
      kill(-pid, SIGKILL);
      break;
    }
    struct pollfd pf = {.fd = fd, .events = POLLIN};
    int pr = poll(&pf, 1, 250);
    if (pr < 0 && errno == EINTR) continue;
    char buf[4096];
    ssize_t n = pr > 0 ? read(fd, buf, sizeof buf) : 0;
    if (pr > 0 && n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      break; /* EOF: fio is done */
    }
    if (n > 0) output_add(&out, buf, (size_t)n);
    for (ssize_t i = 0; i < n; i++) {
      if (buf[i] != '\n' && buf[i] != '\r') {
        if (ll + 1 < sizeof line) line[ll++] = buf[i];
        continue;
      }
      line[ll] = 0;
      ll = 0;
      double mb_s, iops, frac;
      if (!parse_status(line, &mb_s, &iops, &frac)) continue;
      seen_status = 1;
      if (mb_s > 0 || iops > 0) moved_ns = ssdrev_clock_ns();
      if (!progress) continue;
      double el = (double)(ssdrev_clock_ns() - t0) / 1e9;
      if (frac < 0) frac = want_s > 0 ? el / want_s : -1;
      if (frac > 0.99) frac = 0.99;
      /* elapsed_s drives the time-based hooks (the thermal step's samples) */
      struct bench_progress p = {.phase = name, .fraction = frac, .mb_s = mb_s, .iops = iops, .eta_s = -1,
                                 .elapsed_s = el};
      progress(&p, parg);
    }
  }
  close(fd);
  if (!reaped) st = wait_exit(pid);
  if (st < 0) ssdrev_fail(err, -ECHILD, "fio (test %s): cannot wait for it: %s", name, strerror(errno));
  output_close(&out);
  r->out_bytes = out.bytes;
  output_last(&out, 3, r->tail, sizeof r->tail);
  return st;
}

/* Runs ARGV in DIR with stdout into OUT_FD, its stderr's end into TAIL,
 * killed past LIMIT_S. Its exit status, -ETIMEDOUT when killed, or a
 * negative errno when it could not start. */
static int run_to_fd(const char *dir, char *const argv[], int out_fd, double limit_s, char *tail, size_t tlen,
                     struct ssdrev_err *err) {
  int fd;
  pid_t pid = spawn(dir, argv, out_fd, &fd, err);
  if (pid < 0) return (int)pid;
  static struct fio_output eo;
  memset(&eo, 0, sizeof eo);
  eo.fd = -1;
  uint64_t end_ns = ssdrev_clock_ns() + (uint64_t)(limit_s * 1e9);
  int late = 0;
  for (;;) {
    uint64_t now = ssdrev_clock_ns();
    if (now >= end_ns || bench_stop_requested) {
      late = 1;
      break;
    }
    struct pollfd pf = {.fd = fd, .events = POLLIN};
    int pr = poll(&pf, 1, 250);
    if (pr <= 0) continue;
    char buf[4096];
    ssize_t r = read(fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    output_add(&eo, buf, (size_t)r);
  }
  close(fd);
  if (late) kill_group(pid, SIGKILL);
  int st = wait_exit(pid);
  output_last(&eo, 2, tail, tlen);
  return late ? -ETIMEDOUT : st;
}

/* fio --client writes a job's per-I/O logs itself, from the samples the
 * server sends after the job, and with log_offset=1 it writes only the
 * first 4/5 of them: client.c hands flush_samples() nr_samples x
 * sizeof(struct io_sample) bytes, which it divides by the entry with the
 * offset (8 bytes more), so 1,000 I/Os logged 800 and a test of one slow
 * I/O logged none ("fio wrote no per-I/O latency log", a flaky campaign:
 * it took a 1 MiB write slower than the test's 100 ms). Checked with fio
 * 3.33 and in fio's master. With log_compression (FIO_CLIENT_LOG_CHUNK)
 * the server sends its compressed chunks, which the client stores whole,
 * and `fio --inflate-log` writes every sample back as the text log. This
 * inflates each compressed DIR/NAME_{lat,clat}.N.log.HOST in place
 * (through a temporary file). 0, or fails naming the test and the log. */
#define FIO_CLIENT_LOG_CHUNK "4m" /* log_compression= of a load host's jobs: its chunk */
static int inflate_client_logs(const char *dir, const char *name, struct ssdrev_err *err) {
  DIR *d = opendir(dir);
  if (!d) return 0; /* no logs: the import says so */
  size_t nl = strlen(name);
  int rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(d))) {
    const char *n = e->d_name;
    if (strncmp(n, name, nl) || n[nl] != '_' || !strstr(n + nl, ".log.")) continue;
    if (!strncmp(n + nl, "_slat.", 6)) continue; /* never imported: removed with the others */
    char path[PATH_MAX + 300];
    if (snprintf(path, sizeof path, "%s/%s", dir, n) >= (int)sizeof path) continue;
    /* a zlib stream (RFC 1950: deflate, header check a multiple of 31);
     * a text log starts with a digit */
    unsigned char h[2];
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    size_t got = fread(h, 1, 2, f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    if (got != 2 || (h[0] & 0x0f) != 8 || ((h[0] << 8) | h[1]) % 31) continue;
    struct ssdrev_atomic a;
    if ((rc = ssdrev_atomic_open(&a, path, err))) break;
    char arg[PATH_MAX + 32];
    snprintf(arg, sizeof arg, "--inflate-log=%s", n);
    char *argv[] = {"fio", arg, NULL};
    char tail[300];
    fflush(a.f);
    /* a few seconds for a log of any size */
    double limit_s = limit_margin_s() + (double)size / 1e6;
    int st = run_to_fd(dir, argv, fileno(a.f), limit_s, tail, sizeof tail, err);
    if (st < 0 && st != -ETIMEDOUT) {
      ssdrev_atomic_abort(&a);
      rc = st;
    } else if (st) {
      ssdrev_atomic_abort(&a);
      rc = ssdrev_fail(err, -EIO, "test '%s': 'fio --inflate-log=%s' (the load host's compressed latency log) %s%s%s",
                       name, n, st == -ETIMEDOUT ? "did not end in time" : "failed", tail[0] ? ": " : "", tail);
    } else {
      /* no fsync: the text is read once and removed after the import,
       * and a crash reruns the whole step */
      ssdrev_atomic_defer_sync(1);
      rc = ssdrev_atomic_commit(&a, err);
      ssdrev_atomic_defer_sync(0);
    }
  }
  closedir(d);
  return rc;
}

/* Free huge pages (HugePages_Free x Hugepagesize), in bytes; 0 when none. */
static uint64_t huge_free_bytes(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return 0;
  char line[256];
  unsigned long long pages = 0, kib = 0;
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "HugePages_Free:", 15)) pages = strtoull(line + 15, NULL, 10);
    else if (!strncmp(line, "Hugepagesize:", 13)) kib = strtoull(line + 13, NULL, 10);
  }
  fclose(f);
  return (uint64_t)pages * kib * 1024;
}

/* Whether the job's I/O buffers go into huge pages (fio's iomem=mmaphuge),
 * as ssdrev's own are (transparent huge pages): in 4 KiB pages a 1 MiB
 * buffer is 256 segments, and a disk taking 254 per request gets it split in
 * two (docs/performance.md). Only when the system has enough free (reserved)
 * huge pages for every thread's buffers: fio fails otherwise. */
static int use_huge(const struct bench_job *job) {
  uint64_t per = (uint64_t)(job->qd ? job->qd : 1) * job->block_bytes;
  uint64_t need = (job->threads ? job->threads : 1) * ((per + (2u << 20) - 1) / (2u << 20) + 1) * (2u << 20);
  return huge_free_bytes() >= need;
}

/* 1 when DIR holds a file of STEM: its job file, fio's JSON or output. */
static int stem_taken(const char *dir, const char *stem) {
  static const char *const ext[] = {".fio", ".json", ".out"};
  for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
    char p[PATH_MAX + BENCH_FIO_TOKEN_MAX + 8];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s%s", dir, stem, ext[i]);
    if (!lstat(p, &st)) return 1; /* one that cannot be looked at fails its own write, naming it */
  }
  return 0;
}

/* The stem of NAME's files in DIR (LEN > BENCH_FIO_TOKEN_MAX): its token,
 * or TOKEN-2, TOKEN-3, ... (the token cut to make room) when an earlier
 * test of the step took it. Two names that differ only in bytes the token
 * replaces ("a b" and "a;b" are both a_b) once shared one .fio, .json and
 * .out, the later test's overwriting the earlier's. DIR holds this step's
 * files only: drop_step empties it before the step runs, so a stem there is
 * an earlier test's of this very run. */
static void unique_stem(const char *dir, const char *name, char *stem, size_t len) {
  char tok[BENCH_FIO_TOKEN_MAX + 1];
  bench_fio_token(name, tok, sizeof tok);
  snprintf(stem, len, "%s", tok);
  for (unsigned n = 2; stem_taken(dir, stem) && n < 100000; n++) {
    char suf[16];
    int sl = snprintf(suf, sizeof suf, "-%u", n);
    snprintf(stem, len, "%.*s%s", (int)(BENCH_FIO_TOKEN_MAX - (size_t)sl), tok, suf);
  }
}

static int fio_run_job(struct review_ctx *c, const struct bench_job *job, const struct bench_record_opts *o,
                       struct bench_job_result *res, struct ssdrev_err *err) {
  memset(res, 0, sizeof *res);
  snprintf(res->engine, sizeof res->engine, "fio");
  char dir[PATH_MAX];
  int rc = step_dir(c, dir, sizeof dir, err);
  if (rc) {
    json_decref(o->extra);
    return rc;
  }
  /* the parameters as the native engine records them, naming fio */
  json_t *params = bench_job_to_json(job);
  json_object_set_new(params, "engine", json_string("fio:io_uring"));
  json_object_set_new(params, "direct", json_true());
  if (c->o->fio_client) json_object_set_new(params, "fio_client", json_string(c->o->fio_client));
  /* the job file. The test's name holds the method's cell names: fio and
   * the files in DIR get it as a token (its bytes but [A-Za-z0-9._-] as
   * '_'), which is the name itself for every name the shipped methods make,
   * numbered when an earlier test of the step has that token (unique_stem) */
  char stem[BENCH_FIO_TOKEN_MAX + 1];
  unique_stem(dir, job->name, stem, sizeof stem);
  char fname[PATH_MAX * 2];
  struct bench_fio_text j;
  rc = fio_filename(c, fname, sizeof fname, err);
  if (!rc) rc = bench_fio_text_open(&j, "a fio job file", err);
  if (rc) {
    json_decref(params);
    json_decref(o->extra);
    return rc;
  }
  bench_fio_job_comment(&j, "test %s of step %s (method '%s'), generated by ssdrev %s for --engine fio", job->name,
                        c->step->id, c->prof->name, SSDREV_VERSION);
  if (!c->o->fio_client && c->t)
    bench_fio_job_comment(&j, "the target, %s, as ssdrev opened and checked it", c->o->target_spec);
  bench_fio_job_global(&j);
  bench_fio_job_filename(&j, fname, "--engine fio: target");
  bench_fio_job_opt(&j, "ioengine", "io_uring");
  bench_fio_job_opt(&j, "direct", "1");
  bench_fio_job_opt(&j, "allow_file_create", "0");
  bench_review_fio_job(&j, stem, job, c->cap_bytes, stem);
  if (!c->o->fio_client && use_huge(job)) { /* this machine's huge pages say nothing of a load host's */
    bench_fio_job_opt(&j, "iomem", "mmaphuge");
    json_object_set_new(params, "fio_iomem", json_string("mmaphuge"));
  }
  /* a load host's logs come back compressed, else fio's client loses a
   * fifth of them (inflate_client_logs) */
  if (c->o->fio_client) bench_fio_job_opt(&j, "log_compression", "%s", FIO_CLIENT_LOG_CHUNK);
  char *text;
  size_t tlen;
  rc = bench_fio_text_close(&j, &text, &tlen);
  char path[PATH_MAX + 400], jf[300], js[300];
  snprintf(jf, sizeof jf, "%s.fio", stem);
  snprintf(js, sizeof js, "%s.json", stem);
  snprintf(path, sizeof path, "%s/%s", dir, jf);
  if (!rc) rc = ssdrev_write_file_atomic(path, text, tlen, err);
  free(text);
  if (rc) {
    json_decref(params);
    json_decref(o->extra);
    return rc;
  }
  snprintf(path, sizeof path, "%s/%s", dir, js);
  unlink(path); /* a rerun's fio must not leave an older JSON to import */
  sleep_idle(c, job, o);
  if (bench_stop_requested) {
    add_unfinished(c, job, o, params, "interrupted", NULL);
    json_decref(o->extra);
    res->interrupted = 1;
    return archive_save(c->run, err);
  }
  char outp[PATH_MAX + BENCH_FIO_TOKEN_MAX + 8];
  snprintf(outp, sizeof outp, "%s/%s.out", dir, stem);
  /* a time-based job's length is known (fio ends it at runtime); a
   * size-bound one's is the plan's estimate */
  int timed = job->measure_ns > 0;
  double want_s = timed ? (double)(job->ramp_ns + job->measure_ns) / 1e9 : c->job_est_s;
  struct fio_run fr;
  int st = run_fio(c, dir, stem, want_s, timed, o->progress, o->progress_arg, &fr, err);
  /* a load host's job killed at its limit with fio's start-up race in its
   * version is run once more (its first run's outputs gone): the race stalls
   * a job before its first I/O, and nothing else it did is kept */
  if (st >= 0 && fr.timed_out && !fr.server_lost && !fr.stopped && !bench_stop_requested && c->o->fio_client &&
      version_has_log_wq_race(c->fio_version)) {
    char first[320];
    snprintf(first, sizeof first, "killed at its time limit of %.3g s; run again once (%s: fio before 3.42 can "
             "stall a job with log_compression at its start)", fr.limit_s, c->fio_version[0] ? c->fio_version : "fio");
    json_object_set_new(params, "fio_retry", json_string(first));
    unlink(path);
    remove_text_logs(dir, stem);
    st = run_fio(c, dir, stem, want_s, timed, o->progress, o->progress_arg, &fr, err);
  }
  if (st < 0) {
    json_decref(params);
    json_decref(o->extra);
    return st;
  }
  if (!fr.timed_out && (fr.stopped || bench_stop_requested)) {
    add_unfinished(c, job, o, params, "interrupted", NULL);
    json_decref(o->extra);
    res->interrupted = 1;
    return archive_save(c->run, err);
  }
  if (fr.server_lost || fr.timed_out || st != 0) {
    char msg[800];
    char how[32];
    if (fr.blind) snprintf(how, sizeof how, "x %g +", FIO_LIMIT_BLIND);
    else snprintf(how, sizeof how, "+ %g%% +", FIO_LIMIT_SHARE * 100);
    if (fr.server_lost)
      snprintf(msg, sizeof msg, "the fio server of load host %s is gone (its port: %s for %g s), so its client "
               "was stopped; a job the server had started may still run there", fr.lost_host, fr.lost_why,
               BENCH_FIO_SERVER_LOST_S);
    else if (fr.timed_out)
      snprintf(msg, sizeof msg, "fio ran past its time limit of %.3g s (%s %.3g s %s %.3g s margin%s) and "
               "was killed (exit status %d)%s%s", fr.limit_s, timed ? "runtime" : "estimate", want_s, how,
               limit_margin_s(),
               timed ? "" : fr.blind ? "; fio showed no status line" : ", then no I/O for the margin", st,
               fr.tail[0] ? "; its output ended: " : "", fr.tail);
    else
      snprintf(msg, sizeof msg, "fio exited with status %d%s%s", st, fr.tail[0] ? ": " : "", fr.tail);
    rc = ssdrev_fail(err, fr.server_lost ? -EHOSTDOWN : fr.timed_out ? -ETIMEDOUT : -EIO, "step '%s', test '%s': %s (see %s)", c->step->id,
                     job->name, msg, outp);
    add_unfinished(c, job, o, params, "failed", msg);
    json_decref(o->extra);
    struct ssdrev_err serr;
    archive_save(c->run, &serr);
    return rc;
  }
  if (c->o->fio_client && (rc = inflate_client_logs(dir, stem, err))) {
    add_unfinished(c, job, o, params, "failed", err->msg);
    json_decref(o->extra);
    struct ssdrev_err serr;
    archive_save(c->run, &serr);
    return rc;
  }
  struct import_fio_test as = {.name = job->name, .step = c->step->id, .kind = o->kind ? o->kind : "job",
                               .extra = o->extra, .params = params, .ramp_ns = job->ramp_ns};
  json_t *test = NULL;
  rc = import_fio_test(c->run, path, &as, &test, err);
  json_decref(o->extra);
  if (rc) {
    /* what fio did, beside what its outputs lack */
    char m[sizeof err->msg];
    memcpy(m, err->msg, sizeof m);
    ssdrev_fail(err, rc, "%s (fio exited with status 0 after %" PRIu64 " bytes of output%s%s; see %s.out)", m,
                fr.out_bytes, fr.tail[0] ? ", ending: " : "", fr.tail, stem);
    struct bench_record_opts bare = {.kind = o->kind}; /* its extra keys are gone with o->extra */
    add_unfinished(c, job, &bare, params, "failed", err->msg);
    struct ssdrev_err serr;
    archive_save(c->run, &serr);
    return rc;
  }
  json_decref(params);
  remove_text_logs(dir, stem);
  json_t *ls = json_object_get(test, "log_source");
  if (ls) json_object_set_new(ls, "text_removed", json_true()); /* its records are the ssdlog's */
  /* The result as the native engine computes it, from the converted log:
   * fio's totals count the ramp's I/Os too (they stay in test.fio.ops). */
  char log_abs[8400];
  snprintf(log_abs, sizeof log_abs, "%s", archive_path(c->run, json_string_value(json_object_get(test, "log"))));
  rc = bench_job_result_from_log(log_abs, res, err);
  if (rc) {
    json_object_set_new(test, "error", json_string(err->msg));
    archive_end_test(test, "failed");
    struct ssdrev_err serr;
    archive_save(c->run, &serr);
    return rc;
  }
  json_object_set_new(test, "result", bench_job_result_to_json(res));
  if (o->progress) {
    struct bench_progress p = {.phase = job->name, .fraction = 1.0 - 1e-9, .mb_s = res->mb_s, .iops = res->iops,
                               .eta_s = 0};
    o->progress(&p, o->progress_arg);
  }
  return archive_save(c->run, err);
}

/* --remote-unchecked: the purge as a fio job on the load host: a trim of
 * the whole target (a block device: BLKDISCARD through psync; a file: its
 * blocks punched out through the falloc engine, as a recreated file is
 * empty). An NVMe format has no fio form. */
static int fio_purge_remote(struct review_ctx *c, enum bench_purge how, const char **used, struct ssdrev_err *err) {
  if (how == BENCH_PURGE_FORMAT)
    return ssdrev_fail(err, -ENOTSUP, "step '%s': an NVMe Format cannot be sent through fio to a load host; "
                       "use \"method\": \"discard\"", c->step->id);
  char dir[PATH_MAX];
  int rc = step_dir(c, dir, sizeof dir, err);
  if (rc) return rc;
  int blk = !strncmp(c->o->target_spec, "/dev/", 5);
  uint64_t size = c->o->remote_bytes, bs = 1048576;
  while (bs < (1ull << 30) && bs * 2 <= size) bs *= 2;
  size = bench_review_align_down(size, bs);
  char id[REVIEW_ID_MAX + 16], name[REVIEW_ID_MAX + 16], path[PATH_MAX + 400], fname[PATH_MAX * 2];
  if ((rc = fio_filename(c, fname, sizeof fname, err))) return rc;
  snprintf(id, sizeof id, "%s.purge", c->step->id);
  bench_fio_token(id, name, sizeof name); /* an id "global..." would be fio's [global] */
  struct bench_fio_text j;
  if ((rc = bench_fio_text_open(&j, "a fio job file", err))) return rc;
  bench_fio_job_comment(&j, "purge of step %s, generated by ssdrev %s for --engine fio", c->step->id, SSDREV_VERSION);
  bench_fio_job_global(&j);
  bench_fio_job_filename(&j, fname, "--engine fio: target");
  bench_fio_job_opt(&j, "allow_file_create", "0");
  bench_fio_job_section(&j, name);
  bench_fio_job_opt(&j, "ioengine", "%s", blk ? "psync" : "falloc");
  bench_fio_job_opt(&j, "rw", "trim");
  bench_fio_job_opt(&j, "bs", "%" PRIu64, bs);
  bench_fio_job_opt(&j, "size", "%" PRIu64, size);
  char *text;
  size_t tlen;
  if ((rc = bench_fio_text_close(&j, &text, &tlen))) return rc;
  snprintf(path, sizeof path, "%s/%s.fio", dir, name);
  rc = ssdrev_write_file_atomic(path, text, tlen, err);
  free(text);
  if (rc) return rc;
  struct fio_run fr;
  /* its estimate for the time limit: the target written at the plan's rate
   * (a trim is rarely slower) */
  double est_s = (double)size / (c->prof->set.plan_write_mb_s * 1e6);
  int st = run_fio(c, dir, name, est_s, 0, NULL, NULL, &fr, err);
  if (st < 0) return st;
  if (fr.timed_out)
    return ssdrev_fail(err, -ETIMEDOUT, "step '%s': the purge (fio trim, job %s) ran past its time limit of %.3g s "
                       "and was killed%s%s", c->step->id, name, fr.limit_s, fr.tail[0] ? ": " : "", fr.tail);
  if (fr.stopped) return ssdrev_fail(err, -EINTR, "interrupted during the purge of step '%s'", c->step->id);
  if (st) return ssdrev_fail(err, -EIO, "step '%s': the purge (fio trim) exited with status %d: %s", c->step->id, st, fr.tail);
  *used = blk ? "discard (fio trim)" : "punch (fio trim, falloc)";
  return 0;
}

/* A rerun of a step starts without the step's earlier fio files. */
static void fio_drop_step(struct review_ctx *c, const char *step_id) {
  char rel[300];
  snprintf(rel, sizeof rel, FIO_ENGINE_DIR "/%s", step_id);
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", archive_path(c->run, rel));
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s/%s", dir, e->d_name) < (int)sizeof p) unlink(p);
  }
  closedir(d);
}

const struct review_runner bench_review_runner_fio = {
    .name = "fio",
    .flags = REVIEW_RUNNER_CLIENT,
    .check = fio_check,
    .run_job = fio_run_job,
    .purge_remote = fio_purge_remote,
    .drop_step = fio_drop_step,
};
