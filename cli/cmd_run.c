/* cmd_run.c — `ssdrev run`: one fio-like job on a target, every I/O logged
 * into a run archive (created, or appended to when it exists). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "bench/bench.h"

static const char usage_text[] =
    "usage: ssdrev run TARGET --out RUN_DIR [options]\n"
    "\n"
    "Runs one workload on TARGET (a regular file, a block device or sim:MODEL)\n"
    "and logs every I/O to RUN_DIR/logs/NAME.ssdlog. RUN_DIR is created, or the\n"
    "test is appended when it already holds a run of the same target (a run of\n"
    "another target only with --append).\n"
    "\n"
    "workload:\n"
    "  --name N            test name (default job, job.2, ...)\n"
    "  --rw MODE           read|write|randread|randwrite|rw|randrw (default randread)\n"
    "  --rwmixread PCT     read share of rw/randrw, 0..100 (default 50)\n"
    "  --bs SIZE           block size (default 4k)\n"
    "  --iodepth N         queue depth per thread (default 32); psync is synchronous,\n"
    "                      so it runs N threads of depth 1 per thread (as fio's\n"
    "                      psync with numjobs=N; threads x N at most 1024)\n"
    "  --threads N         threads, each with its own queue (default 1)\n"
    "  --offset SIZE       start of the region (default 0)\n"
    "  --size, --span SIZE size of the region (default: to the end)\n"
    "  --runtime TIME      measure time, e.g. 5s (default 5s); 0 = size-based\n"
    "  --ramp TIME         ramp before measuring: logged, flagged, not measured (default 0)\n"
    "  --io-limit SIZE     size-based: bytes to move (implies --runtime 0;\n"
    "                      without it a size-based job makes one pass over the region)\n"
    "  --number-ios N      stop after N measured I/Os (alone: run exactly N I/Os;\n"
    "                      with --runtime: whichever comes first)\n"
    "  --seed S            seed of offsets and buffer contents (default 1)\n"
    "  --zero-buffers      write zeros instead of incompressible random data\n"
    "  --max-errors N      stop after N I/O errors (default 0: never)\n"
    "target:\n"
    "  --engine E          io_uring|psync|sim (default: sim for sim targets,\n"
    "                      io_uring when available, else psync)\n"
    "  --wait MODE         how a thread waits for completions (io_uring): auto\n"
    "                      (default) or sleep: sleep, as fio does; poll: poll up\n"
    "                      to 200 µs before sleeping; iopoll: the kernel polls\n"
    "                      the device (IORING_SETUP_IOPOLL; NVMe poll queues)\n"
    "  --submit MODE       each (default): hand every I/O to the kernel as it is\n"
    "                      prepared, as fio does; batch: a whole refill per call\n"
    "  --buffered          do not use O_DIRECT\n"
    "  --create-size SIZE  create (and preallocate) a regular file of SIZE\n"
    "  --destructive       allow writing a block device (destroys its data)\n"
    "  --force             overwrite a file ssdrev did not create (its data is\n"
    "                      lost; never a sim model file), or a device\n"
    "                      that carries a partition table or filesystem signature;\n"
    "                      a device in use (mounted in any namespace, active\n"
    "                      swap, held by LVM/md/dm, backing a loop device) or\n"
    "                      read-only is refused even with --force\n"
    "  (buffered vs O_DIRECT is recorded as params.direct; with O_DIRECT, --bs and\n"
    "  --offset must be multiples of the target's logical block / the file\n"
    "  system's direct-I/O alignment)\n"
    "output:\n"
    "  -o, --out DIR       run archive (required)\n"
    "  --append            add the test to RUN_DIR even though it holds a run of\n"
    "                      another target (another drive mixed into its results)\n"
    "  --quiet             no progress line\n"
    "  --no-log            do not write the per-I/O log\n"
    "\n"
    "Exit status: 0 complete, 1 failed, 2 bad usage, 130 interrupted (SIGINT/SIGTERM:\n"
    "in-flight I/O is drained, the log finalized and the test marked interrupted).\n"
    "Testing aid: SSDREV_DISABLE_IO_URING=1 makes io_uring look unavailable.\n";

enum {
  OPT_OUT = 256, OPT_NAME, OPT_RW, OPT_MIX, OPT_BS, OPT_QD, OPT_THREADS, OPT_OFFSET, OPT_SPAN,
  OPT_RUNTIME, OPT_RAMP, OPT_IOLIMIT, OPT_NIOS, OPT_ENGINE, OPT_SEED, OPT_ZERO, OPT_BUFFERED,
  OPT_CREATE, OPT_DESTRUCTIVE, OPT_FORCE, OPT_MAXERR, OPT_QUIET, OPT_NOLOG, OPT_WAIT, OPT_SUBMIT, OPT_APPEND,
};

static const struct option long_opts[] = {
    {"out", required_argument, NULL, OPT_OUT},
    {"name", required_argument, NULL, OPT_NAME},
    {"rw", required_argument, NULL, OPT_RW},
    {"rwmixread", required_argument, NULL, OPT_MIX},
    {"bs", required_argument, NULL, OPT_BS},
    {"iodepth", required_argument, NULL, OPT_QD},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"offset", required_argument, NULL, OPT_OFFSET},
    {"size", required_argument, NULL, OPT_SPAN},
    {"span", required_argument, NULL, OPT_SPAN},
    {"runtime", required_argument, NULL, OPT_RUNTIME},
    {"ramp", required_argument, NULL, OPT_RAMP},
    {"io-limit", required_argument, NULL, OPT_IOLIMIT},
    {"number-ios", required_argument, NULL, OPT_NIOS},
    {"engine", required_argument, NULL, OPT_ENGINE},
    {"seed", required_argument, NULL, OPT_SEED},
    {"zero-buffers", no_argument, NULL, OPT_ZERO},
    {"buffered", no_argument, NULL, OPT_BUFFERED},
    {"create-size", required_argument, NULL, OPT_CREATE},
    {"destructive", no_argument, NULL, OPT_DESTRUCTIVE},
    {"force", no_argument, NULL, OPT_FORCE},
    {"max-errors", required_argument, NULL, OPT_MAXERR},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"no-log", no_argument, NULL, OPT_NOLOG},
    {"wait", required_argument, NULL, OPT_WAIT},
    {"submit", required_argument, NULL, OPT_SUBMIT},
    {"append", no_argument, NULL, OPT_APPEND},
    {NULL, 0, NULL, 0},
};

/* --rw values: access pattern and read share (-1 = --rwmixread). */
static const struct { const char *name; enum bench_pattern pattern; int read_pct; } rw_modes[] = {
    {"read", BENCH_SEQ, 100}, {"write", BENCH_SEQ, 0}, {"randread", BENCH_RAND, 100},
    {"randwrite", BENCH_RAND, 0}, {"rw", BENCH_SEQ, -1}, {"randrw", BENCH_RAND, -1},
};

struct run_args {
  const char *target, *out;
  const char *name;
  struct bench_job job;
  struct bench_target_opts topts;
  int mix, rw_mixed, quiet, no_log, io_limit_set, runtime_set, append;
  char target_buf[4200];
};

static int name_ok(const char *s) {
  if (!*s || !strcmp(s, ".") || !strcmp(s, "..")) return 0;
  for (; *s; s++)
    if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9') || strchr("._-", *s)))
      return 0;
  return 1;
}

static int parse_args(int argc, char **argv, struct run_args *a) {
  const char *cmd = argv[0];
  uint64_t v;
  bench_job_defaults(&a->job);
  a->mix = 50;
  opterr = 0;
  optind = 1;
  int c;
  /* -o as report's and chart's short form of --out */
  while ((c = getopt_long(argc, argv, ":o:", long_opts, NULL)) != -1) {
    const char *opt = argv[optind - 1];
    switch (c) {
    case 'o':
    case OPT_OUT: a->out = optarg; break;
    case OPT_NAME:
      if (!name_ok(optarg) || strlen(optarg) >= sizeof a->job.name)
        return cli_usage_error(cmd, "--name '%s': use letters, digits, '.', '_' and '-' only", optarg);
      a->name = optarg;
      break;
    case OPT_RW: {
      size_t i, n = sizeof rw_modes / sizeof rw_modes[0];
      for (i = 0; i < n && strcmp(rw_modes[i].name, optarg); i++) {
      }
      if (i == n) return cli_usage_error(cmd, "--rw '%s': expected read, write, randread, randwrite, rw or randrw", optarg);
      a->job.pattern = rw_modes[i].pattern;
      a->rw_mixed = rw_modes[i].read_pct < 0;
      a->job.read_pct = rw_modes[i].read_pct < 0 ? 0 : (unsigned)rw_modes[i].read_pct;
      break;
    }
    case OPT_MIX:
      if (cli_parse_uint(optarg, 0, 100, &v)) return cli_usage_error(cmd, "--rwmixread '%s': expected 0..100", optarg);
      a->mix = (int)v;
      break;
    case OPT_BS:
      if (cli_parse_size(optarg, &v) || !v || v > (64u << 20))
        return cli_usage_error(cmd, "--bs '%s': expected a size from 1 to 64M, e.g. 4k", optarg);
      a->job.block_bytes = (uint32_t)v;
      break;
    case OPT_QD:
      if (cli_parse_uint(optarg, 1, 4096, &v)) return cli_usage_error(cmd, "--iodepth '%s': expected 1..4096", optarg);
      a->job.qd = (unsigned)v;
      break;
    case OPT_THREADS:
      if (cli_parse_uint(optarg, 1, 256, &v)) return cli_usage_error(cmd, "--threads '%s': expected 1..256", optarg);
      a->job.threads = (unsigned)v;
      break;
    case OPT_OFFSET:
      if (cli_parse_size(optarg, &a->job.offset_bytes)) return cli_usage_error(cmd, "--offset '%s': expected a size", optarg);
      break;
    case OPT_SPAN:
      if (cli_parse_size(optarg, &a->job.span_bytes)) return cli_usage_error(cmd, "%s '%s': expected a size", opt, optarg);
      break;
    case OPT_RUNTIME:
      if (cli_parse_duration(optarg, &a->job.measure_ns)) return cli_usage_error(cmd, "--runtime '%s': expected a time, e.g. 5s", optarg);
      a->runtime_set = 1;
      break;
    case OPT_RAMP:
      if (cli_parse_duration(optarg, &a->job.ramp_ns)) return cli_usage_error(cmd, "--ramp '%s': expected a time, e.g. 1s", optarg);
      break;
    case OPT_IOLIMIT:
      if (cli_parse_size(optarg, &a->job.size_bytes) || !a->job.size_bytes)
        return cli_usage_error(cmd, "--io-limit '%s': expected a size above 0", optarg);
      a->io_limit_set = 1;
      break;
    case OPT_NIOS:
      if (cli_parse_uint(optarg, 1, UINT64_MAX, &a->job.max_ios)) return cli_usage_error(cmd, "--number-ios '%s': expected a count above 0", optarg);
      break;
    case OPT_ENGINE:
      if (!bench_engine_find(optarg)) return cli_usage_error(cmd, "--engine '%s': expected io_uring, psync or sim", optarg);
      snprintf(a->job.engine, sizeof a->job.engine, "%s", optarg);
      break;
    case OPT_SEED:
      if (cli_parse_uint(optarg, 0, INT64_MAX, &a->job.seed)) return cli_usage_error(cmd, "--seed '%s': expected an integer", optarg);
      break;
    case OPT_ZERO: a->job.zero_buffers = 1; break;
    case OPT_BUFFERED: a->topts.buffered = 1; break;
    case OPT_CREATE:
      if (cli_parse_size(optarg, &a->topts.create_bytes) || !a->topts.create_bytes)
        return cli_usage_error(cmd, "--create-size '%s': expected a size above 0", optarg);
      break;
    case OPT_DESTRUCTIVE: a->topts.destructive = 1; break;
    case OPT_FORCE: a->topts.force = 1; break;
    case OPT_MAXERR:
      if (cli_parse_uint(optarg, 0, INT64_MAX, &a->job.max_errors)) return cli_usage_error(cmd, "--max-errors '%s': expected a count", optarg);
      break;
    case OPT_QUIET: a->quiet = 1; break;
    case OPT_NOLOG: a->no_log = 1; break;
    case OPT_APPEND: a->append = 1; break;
    case OPT_WAIT: {
      int w = bench_wait_from_name(optarg);
      if (w < 0) return cli_usage_error(cmd, "--wait '%s': expected auto, sleep, poll or iopoll", optarg);
      a->job.wait = (enum bench_wait)w;
      break;
    }
    case OPT_SUBMIT: {
      int m = bench_submit_from_name(optarg);
      if (m < 0) return cli_usage_error(cmd, "--submit '%s': expected each or batch", optarg);
      a->job.submit = (enum bench_submit)m;
      break;
    }
    case ':': return cli_usage_error(cmd, "option '%s' needs a value", opt);
    default: return cli_usage_error(cmd, "unknown option '%s'", opt);
    }
  }
  if (optind >= argc) return cli_usage_error(cmd, "no TARGET given");
  if (optind + 1 < argc) return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind + 1]);
  if (!a->out) return cli_usage_error(cmd, "--out RUN_DIR is required");
  if (a->rw_mixed) a->job.read_pct = (unsigned)a->mix;
  if (a->io_limit_set) {
    if (a->runtime_set && a->job.measure_ns) return cli_usage_error(cmd, "--io-limit and --runtime exclude each other");
    a->job.measure_ns = 0;
  } else if (a->job.max_ios && !a->runtime_set) {
    /* --number-ios alone: exactly N I/Os, not "N or 5 s, whichever first" */
    if (a->job.max_ios > UINT64_MAX / a->job.block_bytes) return cli_usage_error(cmd, "--number-ios: too many I/Os");
    a->job.measure_ns = 0;
    a->job.size_bytes = a->job.max_ios * a->job.block_bytes;
  }
  a->topts.seed = a->job.seed;
  a->topts.write_intent = a->job.read_pct < 100;
  /* last: usage errors (exit 2) come before a model found nowhere (1) */
  return cli_resolve_target(cmd, argv[optind], a->target_buf, sizeof a->target_buf, &a->target);
}

static void progress_line(const struct bench_progress *p, void *arg) {
  (void)arg;
  char eta[32] = "--";
  if (p->eta_s >= 0) snprintf(eta, sizeof eta, "%.0fs", ceil(p->eta_s));
  cli_term_control("\r");
  fprintf(stderr, "%-7s %5.1f%%  %9.1f MB/s  %10.0f IOPS  ETA %-6s", p->phase,
          p->fraction >= 0 ? p->fraction * 100 : 0.0, p->mb_s, p->iops, eta);
  fflush(stderr);
}

/* Opens the archive when DIR holds one, else creates it. */
static int open_run(const struct run_args *a, struct bench_target *t, struct archive **run, struct ssdrev_err *err) {
  /* decided under the archive's lock: a concurrent run appends after us */
  int rc = archive_open_or_create(run, a->out, a->target, err);
  if (rc) return rc;
  /* Tests of two drives in one archive would be analyzed and reported as one
   * drive's: that takes an explicit --append. */
  const char *spec = json_string_value(json_object_get(json_object_get((*run)->manifest, "target"), "spec"));
  if (spec && *spec && strcmp(spec, a->target) && !a->append) {
    rc = ssdrev_fail(err, -EINVAL, "run '%s' holds tests of '%s', not '%s' (another --out, or --append to add this target's test to it)",
                     a->out, spec, a->target);
    archive_free(*run);
    *run = NULL;
    return rc;
  }
  json_t *dut = NULL;
  struct ssdrev_err derr = {{0}};
  /* the DUT describes the job, it is not needed to run it: a device whose
   * nvme-cli output cannot be read still runs (the review, whose report
   * rests on the DUT, fails instead) */
  if (!json_object_get((*run)->manifest, "dut") && !(dut = bench_target_dut(t, 0, NULL, &derr)))
    fprintf(stderr, "ssdrev run: warning: no DUT summary recorded: %s\n", derr.msg);
  bench_record_target(*run, t, dut, NULL);
  return 0;
}

/* The first free name among N, N.2, N.3, ... (only when --name was not given). */
static void pick_name(struct archive *run, const char *base, char *out, size_t len) {
  snprintf(out, len, "%s", base);
  for (unsigned i = 2; archive_find_test(run, out); i++) snprintf(out, len, "%.100s.%u", base, i);
}

static void print_summary(const struct bench_job *job, const struct bench_job_result *r, const char *status) {
  printf("%s: engine=%s %s read%%=%u bs=%u qd=%u threads=%u: %s\n", job->name, r->engine,
         job->pattern == BENCH_SEQ ? "seq" : "rand", job->read_pct, job->block_bytes, job->qd, job->threads, status);
  printf("  IOPS=%.0f, BW=%.1f MB/s (%.1f MiB/s), lat mean=%.2f µs\n", r->iops, r->mb_s,
         r->mb_s * 1e6 / 1048576.0, r->mean_lat_ns / 1000.0);
  printf("  ios=%llu bytes=%llu errors=%llu elapsed=%.3f s\n", (unsigned long long)r->ios,
         (unsigned long long)r->bytes, (unsigned long long)r->errors, (double)r->elapsed_ns / 1e9);
}

int cmd_run(int argc, char **argv) {
  const char *cmd = argv[0];
  if (cli_wants_help(argc, argv)) {
    fputs(usage_text, stdout);
    return 0;
  }
  struct run_args a;
  memset(&a, 0, sizeof a);
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc;

  struct ssdrev_err err = {{0}};
  struct bench_target *t = NULL;
  if (bench_target_open(&t, a.target, &a.topts, &err)) return cli_error(cmd, "%s", err.msg);
  /* An unknown engine or a target no engine drives fails before the archive is made. */
  if (!(a.job.engine[0] ? bench_engine_find(a.job.engine) : bench_engine_default(t))) {
    bench_target_close(t);
    return cli_error(cmd, a.job.engine[0] ? "unknown engine '%s' (io_uring, psync, sim)" : "no engine can drive '%s'",
                     a.job.engine[0] ? a.job.engine : a.target);
  }
  struct archive *run = NULL;
  if (open_run(&a, t, &run, &err)) {
    bench_target_close(t);
    return cli_error(cmd, "%s", err.msg);
  }
  if (a.name && archive_find_test(run, a.name)) {
    archive_free(run);
    bench_target_close(t);
    return cli_error(cmd, "test '%s' already exists in run '%s' (choose another --name)", a.name, a.out);
  }
  pick_name(run, a.name ? a.name : "job", a.job.name, sizeof a.job.name);

  cli_install_signal_handlers();
  int show = !a.quiet && isatty(STDERR_FILENO);
  struct bench_job_result res;
  /* Saved "running" before any I/O, so a run killed outright shows as incomplete. */
  struct bench_record_opts ro = {.kind = "job", .no_log = a.no_log, .save_first = 1,
                                 .progress = show ? progress_line : NULL};
  rc = bench_record_job(run, t, &a.job, &ro, &res, &err);
  if (show) cli_term_control("\r\033[K");
  json_t *test = archive_find_test(run, a.job.name);
  char status[32];
  snprintf(status, sizeof status, "%s", test ? json_string_value(json_object_get(test, "status")) : "failed");
  archive_free(run);
  bench_target_close(t);
  if (res.engine[0]) print_summary(&a.job, &res, status);
  if (rc) return cli_error(cmd, "%s", err.msg);
  if (res.interrupted) {
    fprintf(stderr, "ssdrev %s: interrupted: the log and manifest are complete up to the stop\n", cmd);
    return 130;
  }
  return 0;
}
