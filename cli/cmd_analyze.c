/* cmd_analyze.c — `ssdrev analyze` (not yet implemented). */
#include "cli/cli.h"

int cmd_analyze(int argc, char **argv) {
  (void)argc;
  return cli_error(argv[0], "not implemented yet");
}
