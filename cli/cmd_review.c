/* cmd_review.c — `ssdrev review`: the whole review method (a method file,
 * docs/method.md) on a target into one run archive; prints the plan with an
 * estimated duration, then a progress line (the step's and the whole
 * review's ETA, MB/s and IOPS, "idle" in the gaps). Rerunning the
 * same command resumes an interrupted review. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "archive/archive.h"
#include "bench/bench.h"
#include "analyze/analyze.h"

static const char usage_text[] =
    "usage: ssdrev review TARGET --out RUN_DIR [options]\n"
    "\n"
    "Runs a review method on TARGET (a regular file, a block device or sim:MODEL)\n"
    "into the run archive RUN_DIR: purge, CrystalDiskMark-style profiles at FOB and\n"
    "75% full, whole-drive fill, low-QD RW-ratio sweep and QD1 tail latency, with\n"
    "the DUT info (nvme-cli / smartctl) kept beside the per-I/O logs. If RUN_DIR\n"
    "already holds an interrupted review, the same command resumes it from the\n"
    "first step not complete (with the archive's own method and options).\n"
    "\n"
    "method:\n"
    "  --profile FILE|NAME  method file (default profiles/review.json); a bare NAME\n"
    "                       means profiles/NAME.json (cdm-default, cdm-nvme, ...);\n"
    "                       a relative path is found here, else in $SSDREV_DATA or\n"
    "                       the installed data directory (so is a sim:MODEL file;\n"
    "                       sim:NAME is samples/models/NAME.model there)\n"
    "  --step ID            run only this step (again, if it is complete)\n"
    "  --short              small regions and short measure times, for trying out\n"
    "  --passes N           measured CDM passes: 5 as CrystalDiskMark 8 (default),\n"
    "                       3 as CrystalDiskMark 9\n"
    "  --seed S             seed of offsets and data (default 1)\n"
    "  --plan               print the plan with estimated durations and exit\n"
    "                       (it writes nothing, not even a --create-size file)\n"
    "  --engine NAME        how the jobs run: ssdrev's own engine (default:\n"
    "                       io_uring, else psync; the sim for sim:), 'uring' or\n"
    "                       'psync' to choose it, or 'fio' (every job as a fio job,\n"
    "                       imported into the same archive; job files and fio's\n"
    "                       output kept in RUN_DIR/fio/)\n"
    "  --hosts FILE         with --engine fio: run on every load host of FILE at\n"
    "                       once through fio client/server ('ADDRESS[:PORT] TARGET'\n"
    "                       per line); --out is then the campaign directory,\n"
    "                       one run archive per host and target (--step: that\n"
    "                       step on every host)\n"
    "  --remote-unchecked   with --hosts: also hosts that are not loopback\n"
    "                       addresses ('ADDRESS[:PORT] TARGET SIZE'), whose targets\n"
    "                       the guard CANNOT check from here: written unchecked\n"
    "DUT:\n"
    "  --label TEXT         drive label for reports, e.g. \"PM981 256GB\"\n"
    "  --dut-json DIR|PFX   nvme-cli / smartctl JSON of a run made elsewhere:\n"
    "                       DIR/id-ctrl.json, smart-log.json, smartctl.json and\n"
    "                       overrides.json (any of them), or PFX.id-ctrl.json...;\n"
    "                       overrides.json alone overrides the drive's own DUT\n"
    "  --include-serial     keep the serial number (left out by default)\n"
    "target:\n"
    "  --create-size SIZE   create (and preallocate) a regular file of SIZE\n"
    "  --destructive        allow writing a block device (destroys its data)\n"
    "  --force              overwrite a file ssdrev did not create (its data is\n"
    "                       lost; never a sim model file), or a device\n"
    "                       carrying a partition table or filesystem signature\n"
    "output:\n"
    "  -o, --out DIR        run archive (required)\n"
    "  --quiet              no plan, no progress\n"
    "\n"
    "Exit status: 0 complete, 1 failed, 2 bad usage, 130 interrupted (rerun the\n"
    "same command to resume).\n";

enum {
  OPT_OUT = 256, OPT_PROFILE, OPT_STEP, OPT_SHORT, OPT_PASSES, OPT_LABEL, OPT_DUTJSON,
  OPT_DESTRUCTIVE, OPT_FORCE, OPT_SEED, OPT_QUIET, OPT_PLAN, OPT_SERIAL, OPT_CREATE, OPT_ENGINE, OPT_HOSTS,
  OPT_REMOTE,
};

static const struct option long_opts[] = {
    {"out", required_argument, NULL, OPT_OUT},
    {"profile", required_argument, NULL, OPT_PROFILE},
    {"step", required_argument, NULL, OPT_STEP},
    {"short", no_argument, NULL, OPT_SHORT},
    {"passes", required_argument, NULL, OPT_PASSES},
    {"label", required_argument, NULL, OPT_LABEL},
    {"dut-json", required_argument, NULL, OPT_DUTJSON},
    {"destructive", no_argument, NULL, OPT_DESTRUCTIVE},
    {"force", no_argument, NULL, OPT_FORCE},
    {"seed", required_argument, NULL, OPT_SEED},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"plan", no_argument, NULL, OPT_PLAN},
    {"include-serial", no_argument, NULL, OPT_SERIAL},
    {"create-size", required_argument, NULL, OPT_CREATE},
    {"engine", required_argument, NULL, OPT_ENGINE},
    {"hosts", required_argument, NULL, OPT_HOSTS},
    {"remote-unchecked", no_argument, NULL, OPT_REMOTE},
    {NULL, 0, NULL, 0},
};

struct review_args {
  struct bench_review_opts o;
  int plan_only;
  const char *hosts;
  int remote_unchecked;
  char profile_buf[4200];
  char target_buf[4200];
};

static int parse_args(int argc, char **argv, struct review_args *a) {
  const char *cmd = argv[0];
  const char *profile = NULL;
  uint64_t v;
  a->o.seed = 1;
  opterr = 0;
  optind = 1;
  int c;
  /* -o as report's and chart's short form of --out */
  while ((c = getopt_long(argc, argv, ":o:", long_opts, NULL)) != -1) {
    const char *opt = argv[optind - 1];
    switch (c) {
    case 'o':
    case OPT_OUT: a->o.run_dir = optarg; break;
    case OPT_PROFILE: profile = optarg; break;
    case OPT_STEP: a->o.only_step = optarg; break;
    case OPT_SHORT: a->o.short_mode = 1; break;
    case OPT_PASSES:
      if (cli_parse_uint(optarg, 1, 100, &v)) return cli_usage_error(cmd, "--passes '%s': expected 1..100 (5 or 3)", optarg);
      a->o.passes = (unsigned)v;
      break;
    case OPT_LABEL:
      if (!*optarg) return cli_usage_error(cmd, "--label: expected a non-empty label");
      a->o.label = optarg;
      break;
    case OPT_DUTJSON: a->o.dut_json_dir = optarg; break;
    case OPT_DESTRUCTIVE: a->o.destructive = 1; break;
    case OPT_FORCE: a->o.force = 1; break;
    case OPT_SEED:
      if (cli_parse_uint(optarg, 0, INT64_MAX, &a->o.seed)) return cli_usage_error(cmd, "--seed '%s': expected an integer", optarg);
      break;
    case OPT_QUIET: a->o.quiet = 1; break;
    case OPT_PLAN: a->plan_only = 1; break;
    case OPT_SERIAL: a->o.include_serial = 1; break;
    case OPT_CREATE:
      if (cli_parse_size(optarg, &a->o.create_bytes) || !a->o.create_bytes)
        return cli_usage_error(cmd, "--create-size '%s': expected a size above 0", optarg);
      break;
    case OPT_ENGINE: a->o.engine = optarg; break;
    case OPT_HOSTS: a->hosts = optarg; break;
    case OPT_REMOTE: a->remote_unchecked = 1; break;
    case ':': return cli_usage_error(cmd, "option '%s' needs a value", opt);
    default: return cli_usage_error(cmd, "unknown option '%s'", opt);
    }
  }
  if (a->hosts) {
    /* the targets are the hosts file's */
    if (optind < argc) return cli_usage_error(cmd, "--hosts: the targets are the hosts file's; unexpected argument '%s'", argv[optind]);
    if (!a->o.engine || strcmp(a->o.engine, "fio"))
      return cli_usage_error(cmd, "--hosts needs --engine fio (the hosts run fio --server)");
  } else {
    if (a->remote_unchecked) return cli_usage_error(cmd, "--remote-unchecked is for --hosts");
    if (optind >= argc) return cli_usage_error(cmd, "no TARGET given");
    if (optind + 1 < argc) return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind + 1]);
  }
  if (!a->o.run_dir && !a->plan_only) return cli_usage_error(cmd, "--out RUN_DIR is required");
  int rc = cli_resolve_profile(cmd, profile ? profile : "review", a->profile_buf, sizeof a->profile_buf);
  if (rc) return rc;
  a->o.profile_path = a->profile_buf;
  /* last: usage errors (exit 2) come before a model found nowhere (1) */
  if (!a->hosts) return cli_resolve_target(cmd, argv[optind], a->target_buf, sizeof a->target_buf, &a->o.target_spec);
  return 0;
}

/* ----------------------------------------------------------------- progress */

struct progress_state {
  int tty;
};

static void fmt_eta(double s, char *buf, size_t len) {
  if (s < 0) {
    snprintf(buf, len, "--");
    return;
  }
  unsigned t = (unsigned)ceil(s);
  if (t >= 3600) snprintf(buf, len, "%uh%02um", t / 3600, t % 3600 / 60);
  else if (t >= 60) snprintf(buf, len, "%um%02us", t / 60, t % 60);
  else snprintf(buf, len, "%us", t);
}

static void on_progress(const struct bench_progress *p, void *arg) {
  struct progress_state *ps = arg;
  if (p->fraction >= 1.0) {
    /* a step ended: keep one line per step */
    if (ps->tty) cli_term_control("\r\033[K");
    fprintf(stderr, "%s\n", p->phase);
    fflush(stderr);
    return;
  }
  if (!ps->tty) return;
  /* "[4/7] cdm_75.RND4K_Q32T1.read.p2": the step number leads the line, with
   * the whole review's share and ETA; then the test, its own and its rates */
  const char *name = p->phase, *close = p->phase[0] == '[' ? strstr(p->phase, "] ") : NULL;
  char num[24] = "";
  if (close && close - p->phase < (long)sizeof num - 1) {
    snprintf(num, sizeof num, "%.*s", (int)(close - p->phase + 1), p->phase);
    name = close + 2;
  }
  char bar[11], eta[32], total[32], rate[64], line[512];
  int fill = (int)(p->fraction * 10 + 0.5);
  for (int i = 0; i < 10; i++) bar[i] = i < fill ? '#' : '.';
  bar[10] = 0;
  fmt_eta(p->eta_s, eta, sizeof eta);
  fmt_eta(p->total_eta_s, total, sizeof total);
  struct winsize ws;
  unsigned cols = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
  /* a rate below 0: nothing measured yet in this test, said as "--" */
  int known = p->mb_s >= 0 && p->iops >= 0;
  if (p->idle) snprintf(rate, sizeof rate, "idle");
  else if (!known) snprintf(rate, sizeof rate, "%8s MB/s %8s IOPS", "--", "--");
  else snprintf(rate, sizeof rate, "%8.1f MB/s %8.0f IOPS", p->mb_s, p->iops);
  int n = snprintf(line, sizeof line, "%s review %3.0f%% ETA %-6s | %-30.30s [%s] %3.0f%% ETA %-6s %s", num,
                   p->total_fraction * 100, total, name, bar, p->fraction * 100, eta, rate);
  if (n > 0 && cols > 1 && (unsigned)n >= cols) {
    /* narrow terminal: no bar, fewer digits */
    if (!p->idle && known) snprintf(rate, sizeof rate, "%5.0f MB/s %6.0f IOPS", p->mb_s, p->iops);
    else if (!p->idle) snprintf(rate, sizeof rate, "%5s MB/s %6s IOPS", "--", "--");
    n = snprintf(line, sizeof line, "%s %3.0f%% %-6s| %-28.28s %3.0f%% %-5s %s", num, p->total_fraction * 100,
                 total, name, p->fraction * 100, eta, rate);
  }
  /* A line wider than the terminal wraps, and "\r\033[K" then clears only
   * its last row: cut it to the width (the text is ASCII). */
  if (n > 0 && cols > 1 && (unsigned)n >= cols && cols < sizeof line) line[cols - 1] = 0;
  cli_term_control("\r\033[K");
  fprintf(stderr, "%s", line);
  fflush(stderr);
}

/* ----------------------------------------------------------------- summary */

static void print_warnings(const json_t *m) {
  size_t i, k;
  json_t *t, *w;
  json_array_foreach(json_object_get(m, "tests"), i, t) {
    json_array_foreach(json_object_get(t, "warnings"), k, w)
        fprintf(stderr, "warning: %s: %s\n", json_string_value(json_object_get(t, "name")),
                json_string_value(w));
  }
}

/* The one rule for CrystalDiskMark figures, the review tables' (render/doc/
 * tables.c, t_cdm): MB/s with two decimals, IOPS with one. */
static void print_cdm_row(const char *state, const char *cell, const char *op, double mb_s, double iops) {
  printf("  %-4s %-14s %-5s %10.2f MB/s %12.1f IOPS\n", state, cell, op, mb_s, iops);
}

/* The CrystalDiskMark-style table of the analysis (analysis.json "cdm"):
 * the figures the review and analysis.json show (issue 27: this summary
 * printed the bench's counters, 13734.25 IOPS beside the review's 13734.1). */
static int print_cdm_analysis(const json_t *an) {
  const json_t *cdm = json_object_get(an, "cdm");
  if (!json_array_size(cdm)) return 0;
  printf("\nCrystalDiskMark-style results (max over passes, as ssdrev analyze gives them):\n");
  static const char *const ops[] = {"read", "write", "mix"};
  size_t i, k;
  const json_t *c, *c0;
  /* per state (in the analysis' order), per op, the cells */
  json_array_foreach(cdm, i, c0) {
    const char *st = json_string_value(json_object_get(c0, "state"));
    if (!st) continue;
    int first = 1;
    for (k = 0; k < i && first; k++)
      first = !json_equal(json_object_get(json_array_get(cdm, k), "state"), json_object_get(c0, "state"));
    if (!first) continue;
    for (size_t o = 0; o < 3; o++)
      json_array_foreach(cdm, k, c) {
        const json_t *v = json_object_get(c, ops[o]);
        const char *cell = json_string_value(json_object_get(c, "cell"));
        if (!json_is_object(v) || !cell || !json_equal(json_object_get(c, "state"), json_object_get(c0, "state"))) continue;
        print_cdm_row(st, cell, ops[o], json_number_value(json_object_get(v, "mb_s")),
                      json_number_value(json_object_get(v, "iops")));
      }
  }
  return 1;
}

/* A CrystalDiskMark-style table from the measured passes (when the run
 * could not be analyzed): the best MB/s (decimal) over the passes, IOPS =
 * MB/s x 10^6 / block, as CDM reports. */
static void print_cdm(const json_t *m) {
  json_t *best = json_object(); /* "state|cell|op" -> [mb_s, block] */
  json_t *order = json_array();
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(m, "tests"), i, t) {
    const char *kind = json_string_value(json_object_get(t, "kind"));
    if (!kind || strcmp(kind, "cdm") || json_integer_value(json_object_get(t, "pass")) < 1) continue;
    char key[160];
    snprintf(key, sizeof key, "%s|%s|%s", json_string_value(json_object_get(t, "state")),
             json_string_value(json_object_get(t, "cell")), json_string_value(json_object_get(t, "op")));
    double mb = json_number_value(json_object_get(json_object_get(t, "result"), "mb_s"));
    double blk = json_number_value(json_object_get(json_object_get(t, "params"), "block_bytes"));
    json_t *cur = json_object_get(best, key);
    if (!cur) {
      json_object_set_new(best, key, json_pack("[f, f]", mb, blk));
      json_array_append_new(order, json_string(key));
    } else if (mb > json_real_value(json_array_get(cur, 0))) {
      json_array_set_new(cur, 0, json_real(mb));
    }
  }
  if (json_array_size(order)) printf("\nCrystalDiskMark-style results (max over passes):\n");
  json_array_foreach(order, i, t) {
    const char *key = json_string_value(t);
    json_t *v = json_object_get(best, key);
    char state[32], cell[48], op[16];
    const char *a = strchr(key, '|'), *b = a ? strchr(a + 1, '|') : NULL;
    if (!a || !b) continue;
    snprintf(state, sizeof state, "%.*s", (int)(a - key), key);
    snprintf(cell, sizeof cell, "%.*s", (int)(b - a - 1), a + 1);
    snprintf(op, sizeof op, "%s", b + 1);
    double mb = json_real_value(json_array_get(v, 0)), blk = json_real_value(json_array_get(v, 1));
    print_cdm_row(state, cell, op, mb, blk > 0 ? mb * 1e6 / blk : 0.0);
  }
  json_decref(best);
  json_decref(order);
}

static void print_summary(const char *dir) {
  struct archive *run = NULL;
  struct ssdrev_err err = {{0}};
  if (archive_open(&run, dir, &err)) return;
  print_warnings(run->manifest);
  size_t ntests = json_array_size(json_object_get(run->manifest, "tests"));
  /* a short run says so beside its figures (issue 27) */
  const json_t *sh = json_object_get(run->manifest, "short");
  double region = json_number_value(json_object_get(sh, "region_bytes"));
  char short_note[160] = "";
  if (sh)
    snprintf(short_note, sizeof short_note,
             "\nshort review (--short): a trial run in a %.1f GiB region, not the drive's full behaviour\n",
             region / 1073741824.0);
  archive_free(run);
  /* analyzed here (in memory: the archive stays as the review left it), so
   * the summary's figures are those analysis.json will hold; a run that
   * cannot be analyzed now gets the bench's own counters */
  struct analyze_opts ao;
  analyze_opts_defaults(&ao);
  ao.no_write = 1;
  json_t *an = NULL;
  int rc = analyze_run(dir, &ao, &an, &err);
  if (rc == 0 && an && print_cdm_analysis(an)) {
    json_decref(an);
    printf("%s\nrun archive: %s (%zu tests); next: ssdrev analyze %s (or ssdrev report, which analyzes it)\n", short_note,
           dir, ntests, dir);
    return;
  }
  json_decref(an);
  if (archive_open(&run, dir, &err)) return;
  print_cdm(run->manifest);
  printf("%s", short_note);
  printf("\nrun archive: %s (%zu tests); next: ssdrev analyze %s\n", dir, ntests, dir);
  archive_free(run);
}

/* ----------------------------------------------------------------- campaign */

struct campaign_view {
  int tty;
  size_t n;
  char (*line)[400]; /* per host: its short state for the one status line */
};

static void on_host_progress(unsigned i, const struct bench_campaign_host *h, const struct bench_progress *p,
                             void *arg) {
  struct campaign_view *v = arg;
  if (i >= v->n) return;
  if (p->fraction >= 1.0) {
    /* a step or the host ended: one line each, named by the host */
    if (v->tty) cli_term_control("\r\033[K");
    fprintf(stderr, "%s:%u %s: %s\n", h->address, h->port, h->target, p->phase);
    fflush(stderr);
    const char *sp = strchr(p->phase, ' ');
    if (!strncmp(p->phase, "failed", 6) || !strcmp(p->phase, "complete") || !strcmp(p->phase, "interrupted"))
      snprintf(v->line[i], sizeof v->line[i], "%s %.20s", h->address, p->phase);
    else if (sp) snprintf(v->line[i], sizeof v->line[i], "%s %.*s", h->address, (int)(sp - p->phase), p->phase);
    return;
  }
  const char *close = p->phase && p->phase[0] == '[' ? strchr(p->phase, ']') : NULL;
  snprintf(v->line[i], sizeof v->line[i], "%s %.*s %3.0f%%", h->address, close ? (int)(close - p->phase + 1) : 0,
           p->phase, p->total_fraction * 100);
  if (!v->tty) return;
  char all[1024];
  size_t used = 0;
  for (size_t k = 0; k < v->n && used < sizeof all; k++) {
    int w = snprintf(all + used, sizeof all - used, "%s%s", k ? " | " : "", v->line[k][0] ? v->line[k] : "...");
    if (w > 0) used += (size_t)w;
  }
  struct winsize ws;
  unsigned cols = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
  if (cols > 1 && cols < sizeof all && strlen(all) >= cols) all[cols - 1] = 0;
  cli_term_control("\r\033[K");
  fprintf(stderr, "%s", all);
  fflush(stderr);
}

static int run_campaign(const char *cmd, struct review_args *a) {
  struct ssdrev_err err = {{0}};
  struct bench_campaign_host *hosts;
  size_t n;
  if (bench_campaign_hosts_load(a->hosts, &hosts, &n, &err)) return cli_usage_error(cmd, "%s", err.msg);
  if (bench_campaign_hosts_check(hosts, n, a->hosts, a->remote_unchecked, &err)) {
    free(hosts);
    return cli_error(cmd, "%s", err.msg);
  }
  int show = !a->o.quiet || a->plan_only;
  /* the plan of every host's review; with --step made quietly too, so a
   * step a host's method lacks is refused before any host starts */
  if (show || a->o.only_step) {
    for (size_t i = 0; i < n; i++) {
      static char plan[16384];
      struct bench_review_opts o = a->o;
      char run_dir[8400];
      snprintf(run_dir, sizeof run_dir, "%s/%s", a->o.run_dir ? a->o.run_dir : ".", hosts[i].run_name);
      o.target_spec = hosts[i].target;
      o.fio_client = hosts[i].fio_client;
      o.run_dir = a->o.run_dir ? run_dir : NULL;
      if (!hosts[i].loopback) {
        o.remote_bytes = hosts[i].size_bytes; /* not opened here */
        o.create_bytes = 0;
      }
      if (bench_review_plan(&o, plan, sizeof plan, &err)) {
        unsigned line = hosts[i].line; /* read before the free */
        free(hosts);
        return cli_error(cmd, "%s:%u: %s", a->hosts, line, err.msg);
      }
      if (!show) continue;
      printf("host %s:%u (%s:%u):\n", hosts[i].address, hosts[i].port, a->hosts, hosts[i].line);
      fputs(plan, stdout);
    }
    fflush(stdout);
  }
  if (a->plan_only) {
    free(hosts);
    return 0;
  }
  struct campaign_view v = {.tty = isatty(STDERR_FILENO), .n = n, .line = calloc(n, sizeof *v.line)};
  free(hosts);
  if (!v.line) return cli_error(cmd, "out of memory");
  cli_install_signal_handlers();
  struct bench_campaign_opts co = {.hosts_path = a->hosts, .dir = a->o.run_dir, .review = a->o,
                                   .remote_unchecked = a->remote_unchecked};
  struct bench_campaign_result res;
  int rc = bench_campaign_run(&co, a->o.quiet ? NULL : on_host_progress, &v, &res, &err);
  if (v.tty && !a->o.quiet) cli_term_control("\r\033[K");
  free(v.line);
  if (rc) return cli_error(cmd, "%s", err.msg);
  printf("campaign %s: %u complete, %u failed, %u interrupted (%s/campaign.json); next: ssdrev compare %s\n",
         a->o.run_dir, res.complete, res.failed, res.interrupted, a->o.run_dir, a->o.run_dir);
  if (res.interrupted || bench_stop_requested) return 130;
  return res.failed ? 1 : 0;
}

int cmd_review(int argc, char **argv) {
  const char *cmd = argv[0];
  if (cli_wants_help(argc, argv)) {
    fputs(usage_text, stdout);
    return 0;
  }
  struct review_args a;
  memset(&a, 0, sizeof a);
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc;
  if (a.hosts) return run_campaign(cmd, &a);
  struct ssdrev_err err = {{0}};
  if (!a.o.quiet || a.plan_only) {
    static char plan[16384];
    rc = bench_review_plan(&a.o, plan, sizeof plan, &err);
    if (rc == BENCH_REVIEW_OPTIONS_DIFFER) return cli_usage_error(cmd, "%s", err.msg); /* exit 2 */
    if (rc) return cli_error(cmd, "%s", err.msg);
    fputs(plan, stdout);
    fflush(stdout);
    if (a.plan_only) return 0;
  }
  cli_install_signal_handlers();
  struct progress_state ps = {.tty = isatty(STDERR_FILENO)};
  rc = bench_review_run(&a.o, a.o.quiet ? NULL : on_progress, &ps, &err);
  if (ps.tty && !a.o.quiet) cli_term_control("\r\033[K");
  if (rc == -EINTR || bench_stop_requested) {
    fprintf(stderr, "ssdrev %s: interrupted: %s; rerun the same command to resume\n", cmd,
            err.msg[0] ? err.msg : "stopped");
    return 130;
  }
  if (rc == BENCH_REVIEW_OPTIONS_DIFFER) return cli_usage_error(cmd, "%s", err.msg); /* exit 2 */
  if (rc) return cli_error(cmd, "%s", err.msg);
  if (!a.o.quiet) print_summary(a.o.run_dir);
  return 0;
}
