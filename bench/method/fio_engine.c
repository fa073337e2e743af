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

/* Starts ARGV (argv[0] looked up in PATH) in DIR with stdout and stderr
 * into a pipe (*fd, the read end). Returns the pid or a negative errno. */
static pid_t spawn(const char *dir, char *const argv[], int *fd, struct ssdrev_err *err) {
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
    dup2(p[1], STDOUT_FILENO);
    dup2(p[1], STDERR_FILENO);
    close(p[0]), close(p[1]);
    if (dir && chdir(dir)) _exit(126);
    execvp(argv[0], argv);
    _exit(127); /* not found: the parent names it */
  }
  close(p[1]);
  *fd = p[0];
  return pid;
}

/* Waits for PID; its exit status, 128 + signal when killed. */
static int wait_exit(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
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
  pid_t pid = spawn(NULL, argv, &fd, err);
  if (pid < 0) return (int)pid;
  char out[256];
  size_t n = 0;
  ssize_t r;
  while (n + 1 < sizeof out && ((r = read(fd, out + n, sizeof out - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
    if (r > 0) n += (size_t)r;
  close(fd);
  out[n] = 0;
  int st = wait_exit(pid);
  out[strcspn(out, "\r\n")] = 0;
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

/* The last non-empty line of fio's output, for a message. */
static void last_line(const char *text, size_t len, char *out, size_t olen) {
  while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' ')) len--;
  size_t s = len;
  while (s && text[s - 1] != '\n' && text[s - 1] != '\r') s--;
  snprintf(out, olen, "%.*s", (int)(len - s), text + s);
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

/* Runs fio on DIR/NAME.fio (JSON to DIR/NAME.json, its console output kept
 * as DIR/NAME.out), through c->o->fio_client when set, in DIR: its logs (a
 * client's come back from the server named .HOST) land there. Its status
 * lines drive PROGRESS; a stop request stops it (*stopped). Returns fio's
 * exit status, or a negative errno when it could not start; LAST gets the
 * last line of its output. */
static int run_fio(struct review_ctx *c, const char *dir, const char *name, double want_s, bench_progress_fn progress,
                   void *parg, int *stopped, char *last, size_t lastlen, struct ssdrev_err *err) {
  char out_arg[360], client_arg[300], jf[300];
  snprintf(out_arg, sizeof out_arg, "--output=%s.json", name);
  snprintf(jf, sizeof jf, "%s.fio", name);
  char *argv[10];
  int k = 0;
  argv[k++] = "fio";
  argv[k++] = "--output-format=json+";
  argv[k++] = out_arg;
  if (progress) {
    /* a status line a second, on stdout although it is a pipe */
    argv[k++] = "--eta=always";
    argv[k++] = "--eta-newline=1";
  }
  if (c->o->fio_client) {
    snprintf(client_arg, sizeof client_arg, "--client=%s", c->o->fio_client);
    argv[k++] = client_arg;
  }
  argv[k++] = jf;
  argv[k] = NULL;
  int fd;
  pid_t pid = spawn(dir, argv, &fd, err);
  if (pid < 0) return (int)pid;
  char *outbuf = NULL;
  size_t outlen = 0;
  FILE *ob = open_memstream(&outbuf, &outlen);
  uint64_t t0 = ssdrev_clock_ns();
  char line[1024];
  size_t ll = 0;
  *stopped = 0;
  uint64_t stop_ns = 0;
  int sent = 0; /* after the stop: 1 SIGINT, 2 SIGTERM, 3 SIGKILL */
  for (;;) {
    if (bench_stop_requested && !*stopped) {
      kill(pid, SIGINT); /* fio stops its jobs and exits */
      *stopped = sent = 1;
      stop_ns = ssdrev_clock_ns();
    }
    /* a fio that does not exit (a client still connecting, a hung server)
     * must not hang the review: SIGTERM after 10 s, SIGKILL after 20 s */
    if (sent && sent < 3 && ssdrev_clock_ns() - stop_ns > (uint64_t)sent * 10000000000ull) {
      kill(pid, sent == 1 ? SIGTERM : SIGKILL);
      sent++;
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
    if (n > 0 && ob) fwrite(buf, 1, (size_t)n, ob);
    for (ssize_t i = 0; i < n; i++) {
      if (buf[i] != '\n' && buf[i] != '\r') {
        if (ll + 1 < sizeof line) line[ll++] = buf[i];
        continue;
      }
      line[ll] = 0;
      ll = 0;
      double mb_s, iops, frac;
      if (!progress || !parse_status(line, &mb_s, &iops, &frac)) continue;
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
  int st = wait_exit(pid);
  if (st < 0) ssdrev_fail(err, -ECHILD, "fio (test %s): cannot wait for it: %s", name, strerror(errno));
  if (ob) fclose(ob);
  char outp[PATH_MAX + 200];
  snprintf(outp, sizeof outp, "%s/%s.out", dir, name);
  struct ssdrev_err oerr;
  if (outbuf) ssdrev_write_file_atomic(outp, outbuf, outlen, &oerr); /* a failure here loses only the text */
  last[0] = 0;
  if (outbuf) last_line(outbuf, outlen, last, lastlen);
  free(outbuf);
  return st;
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
   * '_'), which is the name itself for every name the shipped methods make */
  char stem[BENCH_FIO_TOKEN_MAX + 1];
  bench_fio_token(job->name, stem, sizeof stem);
  char fname[PATH_MAX * 2];
  struct bench_fio_job j;
  rc = fio_filename(c, fname, sizeof fname, err);
  if (!rc) rc = bench_fio_job_open(&j, err);
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
  char *text;
  size_t tlen;
  rc = bench_fio_job_close(&j, &text, &tlen);
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
  int stopped = 0;
  char last[400] = "", outp[PATH_MAX + BENCH_FIO_TOKEN_MAX + 8];
  snprintf(outp, sizeof outp, "%s/%s.out", dir, stem);
  double want_s = job->measure_ns ? (double)(job->ramp_ns + job->measure_ns) / 1e9 : c->job_est_s;
  int st = run_fio(c, dir, stem, want_s, o->progress, o->progress_arg, &stopped, last, sizeof last, err);
  if (st < 0) {
    json_decref(params);
    json_decref(o->extra);
    return st;
  }
  if (stopped || bench_stop_requested) {
    add_unfinished(c, job, o, params, "interrupted", NULL);
    json_decref(o->extra);
    res->interrupted = 1;
    return archive_save(c->run, err);
  }
  if (st != 0) {
    char msg[600];
    snprintf(msg, sizeof msg, "fio exited with status %d%s%s", st, last[0] ? ": " : "", last);
    rc = ssdrev_fail(err, -EIO, "step '%s', test '%s': %s (see %s)", c->step->id, job->name, msg, outp);
    add_unfinished(c, job, o, params, "failed", msg);
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
  struct bench_fio_job j;
  if ((rc = bench_fio_job_open(&j, err))) return rc;
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
  if ((rc = bench_fio_job_close(&j, &text, &tlen))) return rc;
  snprintf(path, sizeof path, "%s/%s.fio", dir, name);
  rc = ssdrev_write_file_atomic(path, text, tlen, err);
  free(text);
  if (rc) return rc;
  int stopped;
  char last[400];
  int st = run_fio(c, dir, name, 0, NULL, NULL, &stopped, last, sizeof last, err);
  if (st < 0) return st;
  if (stopped) return ssdrev_fail(err, -EINTR, "interrupted during the purge of step '%s'", c->step->id);
  if (st) return ssdrev_fail(err, -EIO, "step '%s': the purge (fio trim) exited with status %d: %s", c->step->id, st, last);
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
