/* cmd_dut.c — `ssdrev dut` (not yet implemented). */
#include "cli/cli.h"

int cmd_dut(int argc, char **argv) {
  (void)argc;
  return cli_error(argv[0], "not implemented yet");
}
