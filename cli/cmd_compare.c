/* cmd_compare.c — `ssdrev compare DIR_OR_RUN... --out OUTDIR`: many run
 * archives side by side, grouped by model, firmware and fill state
 * (render/compare.h). */
#include <cairo.h>
#include <dlfcn.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "render/render.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: ssdrev compare DIR_OR_RUN... --out OUTDIR [options]\n\n"
          "Compares run archives: each argument is a run, or a folder whose\n"
          "subdirectories are runs. Runs without a fresh analysis.json are analyzed\n"
          "first, in parallel. Runs are grouped (default: DUT model, firmware and fill\n"
          "state; a run of unknown model is its own group, named by its label); per\n"
          "headline figure the report ranks the groups in a bar chart with each group's\n"
          "spread (n, min, median, max) and its ratio to the baseline group.\n"
          "A folder keeps an index of its runs' figures (FOLDER/ssdrev-index.sqlite):\n"
          "an unchanged run is taken from it without opening any of its files.\n"
          "A bad archive is reported (\"skipping 'X': reason\") and skipped.\n\n"
          "options:\n"
          "  --out OUTDIR        output directory (compare.md, compare.pdf, charts/*.png,\n"
          "                      compare.csv: one row per run and figure, groups.csv,\n"
          "                      runs.csv, compare.xlsx)\n"
          "  --format LIST       md,csv,pdf,charts,xlsx,html (default md,csv: charts come\n"
          "                      with md/pdf/html; compare.html holds its charts)\n"
          "  --lang en|ko        the report's language (default: SSDREV_LANG, else the\n"
          "                      locale: LANG=ko_KR.UTF-8 is Korean; else en)\n"
          "  --where FILTER      keep runs matching FILTER (repeatable, all must hold):\n"
          "                      model=GLOB, firmware=GLOB, state=GLOB, label=GLOB,\n"
          "                      source=GLOB (FIELD!=GLOB excludes), simulated=yes|no,\n"
          "                      date=YYYY-MM-DD, date>=D, date<=D, date=FROM..TO\n"
          "  --group-by LIST     fields that make a group: model, firmware, state, label,\n"
          "                      source, simulated, date (default model,firmware,state)\n"
          "  --baseline NAME     baseline group: a group name, a model, or a run (its\n"
          "                      directory, base name or label); default: the group with\n"
          "                      a known model and the most headline figures, then the\n"
          "                      most runs, then the first by name\n"
          "  --gate PCT          firmware CI: fail (exit 3) when any headline figure of\n"
          "                      any group is worse than the baseline's by more than PCT\n"
          "                      percent (0..1000; mean difference) and beyond the noise\n"
          "                      (Welch's t test, p < 0.05, at least 2 samples on each\n"
          "                      side: runs, or a review's CDM passes); needs\n"
          "                      --baseline; writes OUTDIR/verdict.json; exit 4 when\n"
          "                      nothing could be tested (verdict \"untested\")\n"
          "  --rank-short        rank and score groups of --short runs beside full\n"
          "                      ones (by default they are marked (short) and unranked)\n"
          "  --jobs N            analysis threads (default 2)\n"
          "  --reanalyze         analyze every run even if analysis.json exists\n"
          "  --lock-wait S       a run to analyze that another process writes is waited\n"
          "                      for up to S seconds (default 30; 0: not at all); one\n"
          "                      still in use then fails the compare (nothing written)\n"
          "  --max-charts N      bar charts to draw (default 64)\n"
          "  --no-index          neither read nor write the folders' index\n"
          "  --verbose           say how many runs came from the index and how many\n"
          "                      were read from their archives\n"
          "  -h, --help          this help\n\n"
          "exit status: 0 when at least one archive was compared (and the --gate\n"
          "passed), 1 when none was usable, a run stayed in use by another process,\n"
          "or an output failed, 2 on bad usage, 3 when the --gate failed, 4 when the\n"
          "--gate could test nothing (no figure with 2 or more samples in both the\n"
          "baseline and another group: verdict \"untested\"; the outputs are written).\n");
}

static void on_skip(const char *path, const char *reason, void *arg) {
  (*(size_t *)arg)++; /* counts folder-level and run-level skips alike */
  cli_warn(NULL, NULL, "skipping '%s': %s", path, reason);
}

static void on_warn(const char *path, const char *what, void *arg) {
  (void)arg;
  cli_warn(NULL, "warning", "'%s': %s", path, what);
}

static void on_note(const char *path, const char *what, void *arg) {
  (void)path, (void)arg; /* what names the run */
  cli_warn("ssdrev compare: ", "note", "%s", what);
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
  o.note = on_note;
  o.lang_ko = cli_msg_ko(); /* the CLI's language unless --lang says otherwise */
  static const struct option longopts[] = {
      {"out", required_argument, NULL, 'o'},  {"format", required_argument, NULL, 'f'},
      {"jobs", required_argument, NULL, 'j'}, {"baseline", required_argument, NULL, 'b'},
      {"reanalyze", no_argument, NULL, 'r'},  {"max-charts", required_argument, NULL, 'c'},
      {"lang", required_argument, NULL, 'l'}, {"where", required_argument, NULL, 'w'},
      {"group-by", required_argument, NULL, 'g'}, {"no-index", no_argument, NULL, 'n'},
      {"verbose", no_argument, NULL, 'v'},    {"lock-wait", required_argument, NULL, 'L'},
      {"gate", required_argument, NULL, 'G'},  {"rank-short", no_argument, NULL, 'S'},
      {NULL, 0, NULL, 0},
  };
  optind = 1;
  opterr = 0;
  int c;
  struct ssdrev_err err = {{0}};
  uint64_t v;
  int verbose = 0;
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
    case 'L':
      if (cli_parse_uint(optarg, 0, 3600, &v))
        return cli_usage_error(cmd, "--lock-wait: expected 0..3600 seconds, got '%s'", optarg);
      o.lock_wait_s = (unsigned)v;
      break;
    case 'c':
      if (cli_parse_uint(optarg, 0, 1000, &v))
        return cli_usage_error(cmd, "--max-charts: expected 0..1000, got '%s'", optarg);
      o.max_charts = (unsigned)v;
      break;
    case 'l':
      if (strcmp(optarg, "en") && strcmp(optarg, "ko")) return cli_usage_error(cmd, "--lang: expected en or ko, got '%s'", optarg);
      o.lang_ko = !strcmp(optarg, "ko");
      break;
    case 'w':
      if (o.nwhere == RENDER_CMP_MAX_WHERE) return cli_usage_error(cmd, "--where: at most %d filters", RENDER_CMP_MAX_WHERE);
      if (render_cmp_where_check(optarg, &err)) return cli_usage_error(cmd, "%s", err.msg);
      o.where[o.nwhere++] = optarg;
      break;
    case 'g':
      if (render_cmp_group_by_check(optarg, &err)) return cli_usage_error(cmd, "%s", err.msg);
      o.group_by = optarg;
      break;
    case 'G': {
      char *end = NULL;
      double g = strtod(optarg, &end);
      if (end == optarg || *end || !(g >= 0 && g <= 1000))
        return cli_usage_error(cmd, "--gate: expected a percentage 0..1000, got '%s'", optarg);
      o.gate = 1;
      o.gate_pct = g;
      break;
    }
    case 'S': o.rank_short = 1; break;
    case 'n': o.no_index = 1; break;
    case 'v': verbose = 1; break;
    case ':': return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
    default: return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
    }
  }
  if (optind >= argc) return cli_usage_error(cmd, "no run archives or folders given");
  if (!o.out_dir) return cli_usage_error(cmd, "missing --out OUTDIR");
  /* a gate against "the group with the most figures" would move with the set */
  if (o.gate && !o.baseline) return cli_usage_error(cmd, "--gate needs --baseline GROUP");
  char **dirs;
  size_t n;
  size_t skipped = 0;
  if (render_cmp_expand((const char *const *)argv + optind, (size_t)(argc - optind), &dirs, &n, on_skip, &skipped,
                        &err))
    return cli_error(cmd, "%s", err.msg);
  /* every input that is a folder (not a run itself) keeps an index */
  o.roots = (const char *const *)argv + optind;
  o.nroots = (size_t)(argc - optind);
  struct render_cmp_result res;
  int rc = render_cmp_run(dirs, n, &o, on_skip, &skipped, &res, &err);
  render_cmp_free_dirs(dirs, n);
  /* frees Cairo's and fontconfig's caches so leak checkers see a clean
   * exit; fontconfig is only linked through Cairo, hence the lookup */
  cairo_debug_reset_static_data();
  void *fcfini = dlsym(RTLD_DEFAULT, "FcFini");
  if (fcfini) ((void (*)(void))fcfini)();
  if (res.index_notice[0]) cli_warn(NULL, "note", "%s", res.index_notice);
  if (res.index_warning[0]) cli_warn(NULL, "warning", "%s", res.index_warning);
  if (rc) return cli_error(cmd, "%s", err.msg);
  printf("compared %zu run%s in %zu group%s (%zu figures, %zu charts) into '%s'", res.runs_ok,
         res.runs_ok == 1 ? "" : "s", res.groups, res.groups == 1 ? "" : "s", res.metrics, res.charts, o.out_dir);
  if (res.runs_filtered) printf("; %zu filtered out", res.runs_filtered);
  if (skipped) printf("; %zu skipped", skipped);
  printf("\n");
  if (verbose)
    printf("runs: %zu from the index, %zu read from their archives (%zu analyzed now)\n", res.from_index,
           res.read_archives, res.analyzed_now);
  if (o.gate && res.gate_failures) {
    cli_warn(NULL, NULL, "gate failed: %zu figure%s worse than the baseline by more than %g%% beyond the noise (see '%s/verdict.json')",
             res.gate_failures, res.gate_failures == 1 ? "" : "s", o.gate_pct, o.out_dir);
    return 3;
  }
  if (o.gate && !res.gate_tested) {
    /* nothing to judge (groups of one sample, no figure shared): no pass */
    cli_warn(NULL, NULL, "gate not tested: no headline figure has 2 or more samples in both the baseline and another group (see '%s/verdict.json')",
             o.out_dir);
    return 4;
  }
  if (o.gate) printf("gate passed: no headline figure worse than the baseline by more than %g%% beyond the noise\n", o.gate_pct);
  return 0;
}
