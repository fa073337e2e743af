/* cli.h — the ssdrev front end: git-style subcommands, each in cli/cmd_*.c.
 * Commands only parse options, call the libraries and print; exit codes:
 * 0 success, 1 failure, 2 bad usage. Private to cli/. */
#ifndef SSDREV_CLI_H
#define SSDREV_CLI_H

#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

struct cli_cmd {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

/* The command table, in help order (cli/main.c). */
extern const struct cli_cmd cli_cmds[];

/* Prints "ssdrev CMD: error: MSG" to stderr; returns 1 (or 2 for usage). */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses a size like 4k, 1M, 1GiB, 512 (bytes; k/M/G/T are binary). */
int cli_parse_size(const char *s, uint64_t *out);
/* Parses a duration like 5s, 250ms, 2m, 1h (to ns); plain numbers are seconds. */
int cli_parse_duration(const char *s, uint64_t *out_ns);
/* Parses an unsigned integer in [min, max]. */
int cli_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* argv[*i] as "--name VALUE", "--name=VALUE" or "ALIAS VALUE": returns the
 * value ("" when it is missing) and advances *i past it, or NULL when
 * argv[*i] is another option. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name, const char *alias);
/* A method file argument: a path, or a bare NAME looked up as
 * profiles/NAME.json here, then under $SSDREV_ROOT (usage error if absent). */
int cli_resolve_profile(const char *cmd, const char *arg, char *out, size_t len);
/* True when --help / -h is among the arguments. */
int cli_wants_help(int argc, char **argv);
/* Installs SIGINT/SIGTERM handlers that set bench_stop_requested. */
void cli_install_signal_handlers(void);

int cmd_log(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_review(int argc, char **argv);
int cmd_dut(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_chart(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_method(int argc, char **argv);

#endif
