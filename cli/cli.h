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
 * value and advances *i past it, cli_missing_value (an empty string) when
 * the option is the last argument, or NULL when argv[*i] is another option. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name, const char *alias);
extern const char cli_missing_value[];
/* Returns 2 from the calling command when V is cli_missing_value, naming OPT. */
#define CLI_NEED_VALUE(cmd, v, opt) \
  do { \
    if ((v) == cli_missing_value) return cli_usage_error(cmd, "option '%s' needs a value", opt); \
  } while (0)
/* A method file argument: a path, or a bare NAME looked up as
 * profiles/NAME.json here, then under $SSDREV_ROOT (usage error if absent). */
int cli_resolve_profile(const char *cmd, const char *arg, char *out, size_t len);
/* True when --help / -h is among the arguments. */
int cli_wants_help(int argc, char **argv);
/* Finds a data file (profiles/, templates/, samples/) by its path REL
 * relative to the data directory: REL itself when it exists (the source
 * tree, or the user's own file), else under $SSDREV_DATA, $SSDREV_ROOT (the
 * source tree, as the tests set it) and the data directory compiled in
 * (SSDREV_DATADIR, PREFIX/share/ssdrev), in that order. Writes the first that
 * exists to out and returns 0; -ENOENT (out = REL) when none does. An
 * absolute REL is only checked itself. */
int cli_data_path(const char *rel, char *out, size_t len);
/* The directories cli_data_path searches after the working directory, as
 * "'A', 'B'" for messages. */
const char *cli_data_dirs(char *buf, size_t len);
/* A "sim:MODEL" target whose model file is not found as given is looked up
 * with cli_data_path (sim:samples/models/pm981-256.model works from any
 * directory once installed), and a bare name (sim:pm981-256, with or
 * without ".model") as samples/models/NAME.model there. *OUT is the path
 * found (in BUF) or SPEC itself for any other target; returns 0. A model
 * found nowhere is an error (exit code 1 returned, printed for CMD) that
 * lists the close names (edit distance) from the directory typed and the
 * data directories, or the models there when none is close. */
int cli_resolve_target(const char *cmd, const char *spec, char *buf, size_t len, const char **out);
/* Installs SIGINT/SIGTERM handlers that set bench_stop_requested. */
void cli_install_signal_handlers(void);

/* Replaces the process's stdout and stderr by streams that pass everything
 * through cli_sanitize (called once, first thing in main): data from files
 * never reaches a terminal as a control sequence. */
void cli_sanitize_std_streams(void);
/* The one sanitizer: copies N bytes of IN to OUT (room for N + 4 bytes) with C0
 * controls other than \t and \n, and DEL, replaced by '?'; when TTY, also
 * C1 controls (UTF-8 U+0080..U+009F) and malformed UTF-8 bytes. NEED, LEAD,
 * NLEAD carry an incomplete UTF-8 sequence between calls (start at 0).
 * Returns the bytes written to OUT. */
size_t cli_sanitize(char *out, const char *in, size_t n, int tty, unsigned *need, unsigned char *lead,
                    unsigned *nlead);
/* Writes a terminal control sequence (the progress line's "\r\033[K") to
 * stderr unfiltered, after flushing the sanitized stream. */
void cli_term_control(const char *seq);

struct render_runs;
/* Says on stderr which runs render_runs_load analyzed (and so rewrote
 * RUN/analysis.json) because their analysis was missing or stale. */
void cli_note_reanalyzed(const char *cmd, const struct render_runs *rs);
/* 1 when the CLI's warnings and notes are Korean: SSDREV_LANG=ko, else
 * (SSDREV_LANG unset or empty) the first set of LC_ALL, LC_MESSAGES, LANG
 * starting with "ko" (README, "Languages of messages"). */
int cli_msg_ko(void);
/* Prints PREFIX, then KIND ("warning", "note"; NULL: none) and ": ", then the
 * message FMT in the CLI's language (render_msg_cli: a text the catalogue
 * has no form for stays English), and a newline, to stderr. */
void cli_warn(const char *prefix, const char *kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

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
int cmd_template(int argc, char **argv);
/* The generic template's name for LANG ("en", "ko"; NULL: the CLI's
 * language, cli_msg_ko): "generic.en" or "generic.ko" (cmd_template.c). */
const char *cli_generic_template(const char *lang);
/* A --template argument as a path: templates/review.en.md, or a bare
 * review.en(.md) from the working directory or the data directories
 * (cli_data_path); BUF holds it (LEN bytes), TMPL itself when none is found. */
const char *cli_template_path(const char *tmpl, char *buf, size_t len);

#endif
