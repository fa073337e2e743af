/* cmd_report.c — `ssdrev report` (not yet implemented). */
#include "cli/cli.h"

int cmd_report(int argc, char **argv) {
  (void)argc;
  return cli_error(argv[0], "not implemented yet");
}
