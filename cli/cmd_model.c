/* cmd_model.c — `ssdrev model` (not yet implemented). */
#include "cli/cli.h"

int cmd_model(int argc, char **argv) {
  (void)argc;
  return cli_error(argv[0], "not implemented yet");
}
