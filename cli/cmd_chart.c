/* cmd_chart.c — `ssdrev chart`: draws one chart (PNG or SVG) from analyzed runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "render/render.h"

#define MAX_RUNS 16

static void usage(FILE *f) {
  fprintf(f,
          "usage: ssdrev chart KIND RUN... --out FILE.png|FILE.svg [options]\n\n"
          "Draws one chart from analyzed run archives (colours follow the run order).\n\n"
          "  -o, --out FILE      .png (at --dpi) or .svg\n"
          "      --drive D       one run: its label or number (default: all)\n"
          "      --state S       CrystalDiskMark state: FOB (default) or 75%%\n"
          "      --op OP         bars: read (default) or write\n"
          "      --workload W    latency/hist: tail workload read, mix70, write (default read)\n"
          "      --test NAME     latency/hist: a test by name instead\n"
          "      --dpi N         PNG resolution (default 300)\n"
          "      --width IN      width in inches (default 6.5)\n"
          "      --height IN     height in inches (default: the kind's)\n"
          "      --lang L        titles, axes and legends in en (default) or ko\n"
          "  -h, --help          this help\n\nkinds:\n");
  for (const struct render_chart_kind_info *k = render_chart_kinds(); k->name; k++)
    fprintf(f, "  %-13s %s\n", k->name, k->summary);
}


static int parse_inches(const char *s, double *out) {
  char *end = NULL;
  double v = strtod(s, &end);
  if (end == s || *end || !(v >= 1 && v <= 20)) return -1;
  *out = v;
  return 0;
}

int cmd_chart(int argc, char **argv) {
  const char *cmd = "chart";
  if (cli_wants_help(argc, argv)) {
    usage(stdout);
    return 0;
  }
  struct render_chart_opts o;
  render_chart_opts_defaults(&o);
  const char *kind = NULL, *out = NULL;
  const char *runs[MAX_RUNS];
  size_t nruns = 0;
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    const char *opt = argv[i];
    uint64_t u;
    if ((v = cli_opt_value(argc, argv, &i, "--out", "-o"))) out = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--drive", NULL))) o.drive = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--state", NULL))) o.state = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--op", NULL))) o.op = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--workload", NULL))) o.workload = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--test", NULL))) o.test = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--lang", NULL))) {
      CLI_NEED_VALUE(cmd, v, opt);
      if (render_lang_parse(v, &o.lang) < 0) return cli_usage_error(cmd, "--lang: give en or ko, not '%s'", v);
    } else if ((v = cli_opt_value(argc, argv, &i, "--dpi", NULL))) {
      CLI_NEED_VALUE(cmd, v, opt);
      if (cli_parse_uint(v, 30, 1200, &u) < 0) return cli_usage_error(cmd, "--dpi: give 30..1200, not '%s'", v);
      o.dpi = (double)u;
    } else if ((v = cli_opt_value(argc, argv, &i, "--width", NULL))) {
      CLI_NEED_VALUE(cmd, v, opt);
      if (parse_inches(v, &o.width_in) < 0) return cli_usage_error(cmd, "--width: give inches 1..20, not '%s'", v);
    } else if ((v = cli_opt_value(argc, argv, &i, "--height", NULL))) {
      CLI_NEED_VALUE(cmd, v, opt);
      if (parse_inches(v, &o.height_in) < 0) return cli_usage_error(cmd, "--height: give inches 1..20, not '%s'", v);
    } else if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
    else if (!kind) kind = argv[i];
    else if (nruns >= MAX_RUNS) return cli_usage_error(cmd, "at most %d runs", MAX_RUNS);
    else runs[nruns++] = argv[i];
    CLI_NEED_VALUE(cmd, v, opt);
  }
  if (!kind) return cli_usage_error(cmd, "give a chart KIND (see --help)");
  if (!render_chart_kind_exists(kind)) return cli_usage_error(cmd, "unknown chart kind '%s' (see --help)", kind);
  if (!out || !*out) return cli_usage_error(cmd, "--out FILE.png|FILE.svg is required");
  size_t ol = strlen(out);
  if (ol < 5 || (strcmp(out + ol - 4, ".png") && strcmp(out + ol - 4, ".svg")))
    return cli_usage_error(cmd, "--out: name the file .png or .svg, not '%s'", out);
  if (!nruns) return cli_usage_error(cmd, "give at least one analyzed run directory");
  struct ssdrev_err err = {{0}};
  struct render_runs rs;
  if (render_runs_load(&rs, runs, nruns, &err) < 0) return cli_error(cmd, "%s", err.msg);
  cli_note_reanalyzed(cmd, &rs);
  int rc = render_chart_file(&rs, kind, &o, out, &err);
  render_runs_release(&rs);
  render_cleanup();
  if (rc < 0) return cli_error(cmd, "%s", err.msg);
  printf("wrote %s\n", out);
  return 0;
}
