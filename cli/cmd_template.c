/* cmd_template.c — `ssdrev template init`: an editable starting template
 * for given runs (docs/templates.md, "Starting a template"), and the
 * template look-up `ssdrev report` shares. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "render/render.h"

#define MAX_RUNS 16

const char *cli_generic_template(const char *lang) {
  int ko = lang ? !strcmp(lang, "ko") : cli_msg_ko();
  return ko ? "generic.ko" : "generic.en";
}

const char *cli_template_path(const char *tmpl, char *buf, size_t len) {
  char rel[4200];
  size_t tl = strlen(tmpl);
  int bare = !strchr(tmpl, '/');
  snprintf(rel, sizeof rel, bare ? "templates/%s%s" : "%s%s", tmpl,
           bare && !(tl > 3 && !strcmp(tmpl + tl - 3, ".md")) ? ".md" : "");
  if (cli_data_path(bare && access(tmpl, F_OK) == 0 ? tmpl : rel, buf, len) == 0) return buf;
  return tmpl;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: ssdrev template init --out FILE [options] RUN...\n\n"
          "Writes an editable starting template for the runs: the generic template\n"
          "(or --template) with its {{if}} blocks decided for these runs and its\n"
          "{{each drive}} blocks written out per run, every generated part in place\n"
          "and the author's prose as {{slot \"...\"}} marks, which render nothing until\n"
          "replaced by text (docs/templates.md). Render it with\n"
          "ssdrev report -t FILE -o DIR RUN...\n\n"
          "  -o, --out FILE        the template to write (refused when it exists)\n"
          "      --force           replace FILE when it exists\n"
          "  -t, --template FILE   start from this template (default: the generic one)\n"
          "      --lang en|ko      the generic template's language (default: SSDREV_LANG,\n"
          "                        else the locale, else English)\n"
          "  -h, --help            this help\n");
}

int cmd_template(int argc, char **argv) {
  const char *cmd = "template";
  if (argc < 2 || cli_wants_help(argc, argv)) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (strcmp(argv[1], "init")) return cli_usage_error(cmd, "unknown subcommand '%s' (give init)", argv[1]);
  const char *out = NULL, *tmpl = NULL, *lang = NULL;
  const char *runs[MAX_RUNS];
  size_t nruns = 0;
  int force = 0;
  for (int i = 2; i < argc; i++) {
    const char *v = NULL;
    const char *opt = argv[i];
    if ((v = cli_opt_value(argc, argv, &i, "--out", "-o"))) out = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--template", "-t"))) tmpl = v;
    else if ((v = cli_opt_value(argc, argv, &i, "--lang", NULL))) lang = v;
    else if (!strcmp(argv[i], "--force")) force = 1;
    else if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
    else if (nruns >= MAX_RUNS) return cli_usage_error(cmd, "at most %d runs", MAX_RUNS);
    else runs[nruns++] = argv[i];
    CLI_NEED_VALUE(cmd, v, opt);
  }
  if (!out || !*out) return cli_usage_error(cmd, "--out is required");
  if (lang && strcmp(lang, "en") && strcmp(lang, "ko")) return cli_usage_error(cmd, "--lang: give en or ko, not '%s'", lang);
  if (tmpl && lang) return cli_usage_error(cmd, "--lang picks the generic template's language: give it without --template");
  if (!nruns) return cli_usage_error(cmd, "give at least one analyzed run directory");
  /* an author's edited template is never overwritten by mistake */
  if (!force && access(out, F_OK) == 0) return cli_error(cmd, "'%s' exists: give --force to replace it", out);
  char tbuf[4200];
  const char *path = cli_template_path(tmpl ? tmpl : cli_generic_template(lang), tbuf, sizeof tbuf);
  if (!tmpl && path != tbuf)
    return cli_error(cmd, "the generic template templates/%s.md is not here, in $SSDREV_DATA or the data directory: give --template", cli_generic_template(lang));
  struct ssdrev_err err = {{0}};
  char *text = NULL;
  size_t len = 0;
  if (ssdrev_read_file(path, &text, &len, 16u << 20, &err) < 0) return cli_error(cmd, "%s", err.msg);
  if (strlen(text) != len) {
    free(text);
    return cli_error(cmd, "template '%s' holds a NUL byte", path);
  }
  struct render_runs rs;
  if (render_runs_load(&rs, runs, nruns, &err) < 0) {
    free(text);
    return cli_error(cmd, "%s", err.msg);
  }
  cli_note_reanalyzed(cmd, &rs);
  char *spec = NULL;
  int rc = render_template_specialize(&rs, path, text, &spec, &err);
  render_runs_release(&rs);
  free(text);
  if (rc == 0) {
    struct ssdrev_atomic a;
    rc = ssdrev_atomic_open(&a, out, &err);
    if (rc == 0) {
      rc = ssdrev_atomic_write(&a, spec, strlen(spec));
      rc = rc < 0 ? ssdrev_atomic_fail(&a, &err) : ssdrev_atomic_commit(&a, &err);
    }
  }
  free(spec);
  render_cleanup();
  if (rc < 0) return cli_error(cmd, "%s", err.msg);
  printf("wrote %s (render it with: ssdrev report -t %s -o DIR RUN...)\n", out, out);
  return 0;
}
