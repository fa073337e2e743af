/* cmd_log.c — `ssdrev log` (not yet implemented). */
#include "cli/cli.h"

int cmd_log(int argc, char **argv) {
  (void)argc;
  return cli_error(argv[0], "not implemented yet");
}
