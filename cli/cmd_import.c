/* cmd_import.c — `ssdrev import` (not yet implemented). */
#include "cli/cli.h"

int cmd_import(int argc, char **argv) {
  (void)argc;
  return cli_error(argv[0], "not implemented yet");
}
