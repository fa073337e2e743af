/* cmd_compare.c — `ssdrev compare` (not yet implemented). */
#include "cli/cli.h"

int cmd_compare(int argc, char **argv) {
  (void)argc;
  return cli_error(argv[0], "not implemented yet");
}
