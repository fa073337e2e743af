/* cmd_compare.c — `ssdrev compare DIR_OR_RUN... --out OUTDIR`: many run
 * archives side by side, grouped by model, firmware and fill state
 * (render/compare.h). */
#include <cairo.h>
#include <dlfcn.h>
#include <getopt.h>
#include <string.h>
#include "cli/cli.h"
#include "render/render.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: ssdrev compare DIR_OR_RUN... --out OUTDIR [options]\n\n"
          "Compares run archives: each argument is a run, or a folder whose\n"
          "subdirectories are runs. Runs without a fresh analysis.json are analyzed\n"
          "first, in parallel. Runs are grouped by DUT model, firmware and fill state;\n"
          "the table shows group medians and ratios against the baseline group.\n"
          "A bad archive is reported (\"skipping 'X': reason\") and skipped.\n\n"
          "options:\n"
          "  --out OUTDIR        output directory (compare.md, compare.csv, runs.csv,\n"
          "                      charts/*.png, compare.pdf)\n"
          "  --format LIST       md,csv,pdf,charts (default md,csv: charts come with md/pdf)\n"
          "  --jobs N            analysis threads (default 2)\n"
          "  --baseline RUN      baseline run: its directory, base name or label\n"
          "                      (default: the first run)\n"
          "  --reanalyze         analyze every run even if analysis.json exists\n"
          "  --max-charts N      bar charts to draw (default 12)\n"
          "  -h, --help          this help\n\n"
          "exit status: 0 when at least one archive was compared, 1 when none was\n"
          "usable or an output failed, 2 on bad usage.\n");
}

static void on_skip(const char *path, const char *reason, void *arg) {
  (*(size_t *)arg)++; /* counts folder-level and run-level skips alike */
  fprintf(stderr, "skipping '%s': %s\n", path, reason);
}

static void on_warn(const char *path, const char *what, void *arg) {
  (void)arg;
  fprintf(stderr, "warning: '%s': %s\n", path, what);
}

int cmd_compare(int argc, char **argv) {
  const char *cmd = "compare";
  if (cli_wants_help(argc, argv)) {
    usage(stdout);
    return 0;
  }
  struct render_cmp_opts o;
  render_cmp_opts_defaults(&o);
  o.warn = on_warn;
  static const struct option longopts[] = {
      {"out", required_argument, NULL, 'o'},  {"format", required_argument, NULL, 'f'},
      {"jobs", required_argument, NULL, 'j'}, {"baseline", required_argument, NULL, 'b'},
      {"reanalyze", no_argument, NULL, 'r'},  {"max-charts", required_argument, NULL, 'c'},
      {NULL, 0, NULL, 0},
  };
  optind = 1;
  opterr = 0;
  int c;
  struct ssdrev_err err = {{0}};
  uint64_t v;
  while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
    switch (c) {
    case 'o': o.out_dir = optarg; break;
    case 'f':
      if (render_cmp_formats_parse(optarg, &o.formats, &err)) return cli_usage_error(cmd, "--format: %s", err.msg);
      break;
    case 'j':
      if (cli_parse_uint(optarg, 1, 64, &v)) return cli_usage_error(cmd, "--jobs: expected 1..64, got '%s'", optarg);
      o.jobs = (unsigned)v;
      break;
    case 'b': o.baseline = optarg; break;
    case 'r': o.reanalyze = 1; break;
    case 'c':
      if (cli_parse_uint(optarg, 0, 1000, &v))
        return cli_usage_error(cmd, "--max-charts: expected 0..1000, got '%s'", optarg);
      o.max_charts = (unsigned)v;
      break;
    case ':': return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
    default: return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
    }
  }
  if (optind >= argc) return cli_usage_error(cmd, "no run archives or folders given");
  if (!o.out_dir) return cli_usage_error(cmd, "missing --out OUTDIR");
  char **dirs;
  size_t n;
  size_t skipped = 0;
  if (render_cmp_expand((const char *const *)argv + optind, (size_t)(argc - optind), &dirs, &n, on_skip, &skipped,
                        &err))
    return cli_error(cmd, "%s", err.msg);
  struct render_cmp_result res;
  int rc = render_cmp_run(dirs, n, &o, on_skip, &skipped, &res, &err);
  render_cmp_free_dirs(dirs, n);
  /* frees Cairo's and fontconfig's caches so leak checkers see a clean
   * exit; fontconfig is only linked through Cairo, hence the lookup */
  cairo_debug_reset_static_data();
  void *fcfini = dlsym(RTLD_DEFAULT, "FcFini");
  if (fcfini) ((void (*)(void))fcfini)();
  if (rc) return cli_error(cmd, "%s", err.msg);
  printf("compared %zu run%s in %zu group%s (%zu figures, %zu charts) into '%s'", res.runs_ok,
         res.runs_ok == 1 ? "" : "s", res.groups, res.groups == 1 ? "" : "s", res.metrics, res.charts, o.out_dir);
  if (skipped) printf("; %zu skipped", skipped);
  printf("\n");
  return 0;
}
