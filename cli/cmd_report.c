/* cmd_report.c — `ssdrev report`: renders a review (Markdown, HTML, PDF)
 * from a template and one or more analyzed runs. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "render/render.h"

#define MAX_RUNS 16

static void usage(FILE *f) {
  fprintf(f,
          "usage: ssdrev report [--template FILE] --out DIR [options] RUN...\n\n"
          "Renders a review from a Markdown template with {{directives}} (docs/templates.md)\n"
          "and analyzed run archives, in the order given (run 1, 2, ...).\n\n"
          "  -t, --template FILE   template, e.g. templates/review.en.md or review.en\n"
          "                        (found here, else in $SSDREV_DATA or the installed\n"
          "                        data directory); default: the generic template\n"
          "                        (templates/generic.LANG.md), which fits any runs\n"
          "      --lang en|ko      the generic template's language (default: SSDREV_LANG,\n"
          "                        else the locale, else English)\n"
          "  -o, --out DIR         output directory: review.md, review.html, review.pdf, charts/\n"
          "  -f, --format LIST     md,html,pdf (default: all three)\n"
          "      --dpi N           chart PNG resolution (default 300)\n"
          "      --strict          data a run lacks is an error (default: a 'Not measured'\n"
          "                        note in the review and a warning naming template:line)\n"
          "      --html-linked     review.html links the chart files in charts/ (default: the\n"
          "                        charts are inside review.html, which stands alone)\n"
          "  -h, --help            this help\n");
}


static void warn_missing(void *ctx, const char *msg) {
  (void)ctx;
  cli_warn("ssdrev report: ", "warning", "%s", msg);
}

int cmd_report(int argc, char **argv) {
  const char *cmd = "report";
  if (cli_wants_help(argc, argv)) {
    usage(stdout);
    return 0;
  }
  const char *tmpl = NULL, *out = NULL, *fmt = "md,html,pdf", *lang = NULL;
  const char *runs[MAX_RUNS];
  size_t nruns = 0;
  uint64_t dpi = 300;
  int strict = 0, html_linked = 0;
  for (int i = 1; i < argc; i++) {
    const char *v = NULL;
    const char *opt = argv[i];
    if ((v = cli_opt_value(argc, argv, &i, "--template", "-t"))) tmpl = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--out", "-o"))) out = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--format", "-f"))) fmt = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--lang", NULL))) lang = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--dpi", NULL))) {
      CLI_NEED_VALUE(cmd, v, opt);
      if (cli_parse_uint(v, 30, 1200, &dpi) < 0) return cli_usage_error(cmd, "--dpi: give 30..1200, not '%s'", v);
    } else if (!strcmp(argv[i], "--strict")) strict = 1;
    else if (!strcmp(argv[i], "--html-linked")) html_linked = 1;
    else if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
    else if (nruns >= MAX_RUNS) return cli_usage_error(cmd, "at most %d runs", MAX_RUNS);
    else runs[nruns++] = argv[i];
    CLI_NEED_VALUE(cmd, v, opt);
  }
  if (lang && strcmp(lang, "en") && strcmp(lang, "ko")) return cli_usage_error(cmd, "--lang: give en or ko, not '%s'", lang);
  if (tmpl && !*tmpl) return cli_usage_error(cmd, "--template: give a file");
  if (tmpl && lang) return cli_usage_error(cmd, "--lang picks the generic template's language: give it without --template (a template names its own)");
  /* no template: the generic one, which fits any runs ({{if}} blocks on
   * what they hold), in the asked language */
  int generic = !tmpl;
  if (!tmpl) tmpl = cli_generic_template(lang);
  char tbuf[4200];
  tmpl = cli_template_path(tmpl, tbuf, sizeof tbuf);
  if (generic && tmpl != tbuf)
    return cli_error(cmd, "the generic template templates/%s.md is not here, in $SSDREV_DATA or the data directory: give --template", cli_generic_template(lang));
  if (!out || !*out) return cli_usage_error(cmd, "--out is required");
  if (!nruns) return cli_usage_error(cmd, "give at least one analyzed run directory");
  struct ssdrev_err err = {{0}};
  unsigned mask;
  if (render_formats_parse(fmt, &mask, &err) < 0) return cli_usage_error(cmd, "--format: %s", err.msg);
  struct render_runs rs;
  if (render_runs_load(&rs, runs, nruns, &err) < 0) return cli_error(cmd, "%s", err.msg);
  cli_note_reanalyzed(cmd, &rs);
  struct render_report_opts o = {.template_path = tmpl, .out_dir = out, .formats = mask, .dpi = (double)dpi,
                                 .strict = strict, .html_linked = html_linked, .warn = warn_missing, .warn_ctx = NULL};
  int rc = render_report(&rs, &o, &err);
  render_runs_release(&rs);
  render_cleanup();
  if (rc < 0) return cli_error(cmd, "%s", err.msg);
  static const char *const names[] = {"review.md", "review.html", "review.pdf"};
  for (int k = 0; k < 3; k++)
    if (mask & (1u << k)) printf("wrote %s/%s\n", out, names[k]);
  printf("charts in %s/charts/ (PNG and SVG)\n", out);
  return 0;
}
