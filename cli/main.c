/* main.c — ssdrev's entry point: dispatches to a subcommand from the table. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"

const struct cli_cmd cli_cmds[] = {
    {"review", "run the whole review method on a target into a run archive", cmd_review},
    {"run", "run one workload (fio-like job) and log every I/O", cmd_run},
    {"analyze", "analyze a run archive: stats, percentiles, SLC cache, flags", cmd_analyze},
    {"report", "render a review (Markdown, HTML, PDF) from a template and runs", cmd_report},
    {"template", "write an editable starting template for given runs (template init)", cmd_template},
    {"chart", "draw one chart (PNG or SVG) from analyzed runs", cmd_chart},
    {"compare", "compare many run archives side by side", cmd_compare},
    {"import", "import fio, CrystalDiskMark or KDiskMark results into a run archive", cmd_import},
    {"method", "export the review method as fio job files", cmd_method},
    {"dut", "read DUT info (nvme-cli / smartctl JSON) into a summary", cmd_dut},
    {"log", "inspect a binary I/O log (info, dump)", cmd_log},
    {"model", "inspect a simulated drive model", cmd_model},
    {NULL, NULL, NULL},
};

/* A command's output that could not be written (a full disk, a closed pipe)
 * is a failure, not a success: flush stdout and check before exiting. */
static int finish_stdout(const char *cmd, int rc) {
  if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
  fprintf(stderr, "ssdrev %s: error: cannot write to standard output: %s\n", cmd,
          errno ? strerror(errno) : "write error");
  return rc ? rc : 1;
}

static void usage(FILE *f) {
  fprintf(f, "usage: ssdrev <command> [options]   (ssdrev <command> --help for details)\n\n"
             "ssdrev %s: measure an SSD, keep the raw I/O logs, render the review.\n\ncommands:\n",
          SSDREV_VERSION);
  for (const struct cli_cmd *c = cli_cmds; c->name; c++) fprintf(f, "  %-9s %s\n", c->name, c->summary);
}

int main(int argc, char **argv) {
  cli_sanitize_std_streams(); /* before anything is printed */
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return finish_stdout("help", 0);
  }
  if (!strcmp(argv[1], "--version")) {
    printf("ssdrev %s\n", SSDREV_VERSION);
    return finish_stdout("--version", 0);
  }
  for (const struct cli_cmd *c = cli_cmds; c->name; c++)
    if (!strcmp(c->name, argv[1])) return finish_stdout(c->name, c->run(argc - 1, argv + 1));
  fprintf(stderr, "ssdrev: error: unknown command '%s' (see ssdrev --help)\n", argv[1]);
  return 2;
}
