/* cmd_review.c — `ssdrev review` (not yet implemented). */
#include "cli/cli.h"

int cmd_review(int argc, char **argv) {
  (void)argc;
  return cli_error(argv[0], "not implemented yet");
}
