/* cmd_chart.c — `ssdrev chart` (not yet implemented). */
#include "cli/cli.h"

int cmd_chart(int argc, char **argv) {
  (void)argc;
  return cli_error(argv[0], "not implemented yet");
}
