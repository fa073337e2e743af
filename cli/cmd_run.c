/* cmd_run.c — `ssdrev run` (not yet implemented). */
#include "cli/cli.h"

int cmd_run(int argc, char **argv) {
  (void)argc;
  return cli_error(argv[0], "not implemented yet");
}
