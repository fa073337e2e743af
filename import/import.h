/* import.h — other tools' results into ssdrev run archives (docs/interop.md).
 * An importer is a row in a table of function pointers (import/import.c);
 * `ssdrev import KIND` looks it up by name.
 *
 *   fio  fio --output-format=json or json+ (local or client/server), plus the
 *        per-I/O latency logs of write_lat_log with log_avg_msec=0, converted
 *        to ssdrev binary logs (clock source SSDLOG_CLOCK_IMPORTED).
 *   cdm  CrystalDiskMark "Save text" result files: a summary per cell, no log.
 *   DUT  nvme-cli and smartctl JSON into the review's DUT summary.
 *
 * Rules as in base/ssdrev.h. */
#ifndef SSDREV_IMPORT_H
#define SSDREV_IMPORT_H

#include "log/ssdlog.h"

/* Which fio latency log to take per-I/O records from. */
enum import_fio_lat {
  IMPORT_FIO_LAT_AUTO = 0, /* "lat" when present, else "clat" */
  IMPORT_FIO_LAT_TOTAL = 1, /* *_lat.N.log: submission to completion */
  IMPORT_FIO_LAT_CLAT = 2,  /* *_clat.N.log: issue to completion */
};

#define IMPORT_MAX_OPTS 8

/* Options every importer takes; an importer's own options (fio's --logs,
 * --latency, ...) are in `own`, set through import_option_set, which has
 * the importer check them. */
struct import_opts {
  const char *out_dir;   /* run archive to create (must not exist or be empty) */
  const char *label;     /* drive label for reports; NULL = none (cdm: the Comment) */
  const char *model;     /* DUT model / firmware to record (fio and CDM know neither) */
  const char *firmware;
  const json_t *dut;     /* DUT summary of --dut-json (the caller's; NULL = none):
                          * the run's dut, --model/--firmware over it; what the
                          * source names (CDM capacity, KDiskMark model) only
                          * fills the fields it lacks */
  const char *state;     /* fill state of every input, e.g. "FOB" or "75%"; NULL =
                          * per input (FILE:STATE), else guessed (cdm) or none */
  struct {
    const char *name, *value; /* value "" for a flag */
  } own[IMPORT_MAX_OPTS];
  unsigned nown;
};
void import_opts_defaults(struct import_opts *o);
/* The value of the importer's own option NAME, or NULL when not given. */
const char *import_opt(const struct import_opts *o, const char *name);

struct import_result {
  unsigned tests;     /* test entries written */
  unsigned logs;      /* of which with a per-I/O log */
  uint64_t log_ios;   /* records written to logs */
  unsigned warnings;  /* also stored in the manifest under "import_warnings" */
};

/* One input file and the fill state its results were measured in (NULL:
 * o->state, else none / guessed). */
struct import_input {
  const char *path;
  const char *state;
};

/* An option of one importer, for the CLI's parser and --help. */
struct import_option {
  const char *name;      /* long option without "--" */
  int has_arg;
  const char *help;      /* one line; "ARG  text" */
};

struct archive;
struct import_format {
  const char *name;    /* "fio", "cdm" */
  const char *summary; /* one line for --help */
  const struct import_option *options; /* the importer's own, ending with name NULL */
  /* Checks VALUE of its option NAME (0, or -EINVAL naming the option). */
  int (*check_option)(const char *name, const char *value, struct ssdrev_err *err);
  /* Adds the tests of one input to the open run; `multi`: several inputs go
   * into the run, so test names carry the input's file stem. */
  int (*add)(struct archive *run, const struct import_input *in, int multi, const struct import_opts *o,
             struct import_result *res, struct ssdrev_err *err);
};
/* Looks an importer up by name; NULL if unknown. */
const struct import_format *import_find(const char *name);
/* The table, ending with a row whose name is NULL. */
extern const struct import_format import_formats[];
/* Sets the importer's own option NAME (checked by the importer; -EINVAL
 * when it has no such option or the value is bad). VALUE is borrowed. */
int import_option_set(const struct import_format *f, struct import_opts *o, const char *name, const char *value,
                      struct ssdrev_err *err);
/* Imports N inputs into one new run archive o->out_dir (staged: all or
 * nothing), e.g. CrystalDiskMark's FOB and 75% files of one drive. */
int import_files(const struct import_format *f, const struct import_input *in, size_t n,
                 const struct import_opts *o, struct import_result *res, struct ssdrev_err *err);
/* import_files with one input in o->state. */
int import_file(const struct import_format *f, const char *path, const struct import_opts *o,
                struct import_result *res, struct ssdrev_err *err);

/* ---- fio latency logs (import/fiolog.c) */

/* How to read one log's columns. Lines are "time_ms, value, ddir, bs[, offset]
 * [, prio][, more]": fio 3.x always appends prio (decimal, or hex with
 * log_prio=1); the offset is there only with log_offset=1; later columns (fio
 * 3.36's issue time) are ignored. */
struct import_fio_log_fmt {
  int has_offset;         /* -1 = decide by the column count: 6+ columns => offset */
  uint16_t queue_id;      /* stored in every record */
  /* Without an offset column: a sequential job's offsets rebuilt from its
   * pattern, seq_start_bytes + bytes logged before in that direction
   * (wrapping at seq_span_bytes when > 0). fio logs in completion order, so
   * a rebuilt offset is within iodepth x bs of the real one. */
  int seq_rebuild;
  uint64_t seq_start_bytes, seq_span_bytes;
  /* A write_bw_log of log_avg_msec=0: value is the I/O's KiB/s, so its
   * latency is bs / value (1 KiB/s = 1024 B/s) instead of value ns. */
  int bw_log;
  /* > 0: records submitted before this time (ns since the job's start) are
   * flagged SSDLOG_REC_RAMP: logged, not measured (the review's fio engine
   * runs ramp and measurement as one job, so the ramp is in the log as the
   * native engine keeps it) */
  uint64_t ramp_ns;
  /* > 0: the latest completion the test can reach, ssdlog_params_max_done_ns
   * of the params the log's header gets; a line completing later is refused
   * (ssdlog_rec_check: the analysis' rule) */
  uint64_t max_done_ns;
};
struct import_fio_log_stats {
  uint64_t lines;         /* records converted */
  uint64_t clamped;       /* records whose derived submit time was < 0, set to 0 */
  uint64_t by_op[3];      /* read, write, trim */
  uint64_t bytes;
  uint64_t max_time_ms;   /* largest time column */
  unsigned columns;       /* column count of the first line */
  uint64_t rebuilt;       /* records whose offset was rebuilt (seq_rebuild) */
};
/* Streams the fio latency log at PATH through libcsv into the open writer W.
 * Each record: lat_ns = value (ns), submit_ns = time_ms * 1e6 - value (fio
 * stamps a sample when the I/O completes; so submit times are good to about
 * 1 ms), op = ddir, len = bs, offset if present, status 0. Fails naming the
 * file and line on a malformed line. */
int import_fio_log_import(const char *path, const struct import_fio_log_fmt *fmt,
                         struct ssdlog_writer *w, struct import_fio_log_stats *st,
                         struct ssdrev_err *err);

/* ---- fio JSON (import/fio.c) */

/* Loads fio JSON output, skipping any text before the first line that starts
 * with '{' (fio prints warnings, and client/server prefixes, before it). */
json_t *import_fio_json_load(const char *path, struct ssdrev_err *err);
/* Every fio JSON document in PATH, in order, as a non-empty array (a script's
 * log of several fio runs holds several, with other text between them).
 * Fails naming the line of a document that does not parse or is not fio's;
 * the caller owns the array. */
json_t *import_fio_json_load_all(const char *path, struct ssdrev_err *err);
/* Percentiles from a json+ "bins" object (latency ns -> count): nearest rank
 * over the buckets, each value the bucket's representative value as fio
 * prints it. Returns [{"p":..,"lat_ns":..,"bucketed":true}, ...] or NULL
 * when bins is not a non-empty object. */
json_t *import_fio_bins_percentiles(const json_t *bins, const double *pcts, unsigned npcts);

/* One fio run of a job the review's fio engine generated
 * (bench/method/fio_engine.c): the method's test it is, so the import gives
 * it the name, kind and keys ssdrev's own engine gives that test, instead of
 * mapping the job by its parameters. */
struct import_fio_test {
  const char *name;     /* test name, e.g. "cdm_fob.SEQ1M_Q8T1.read.p1" */
  const char *step;     /* the step's id */
  const char *kind;     /* test kind: "cdm", "prefill", "rw_sweep", ... */
  const json_t *extra;  /* keys merged into the test entry (borrowed) */
  const json_t *params; /* the job's parameters as ssdrev records them; they
                         * replace what fio's options give (borrowed) */
  uint64_t ramp_ns;     /* I/Os submitted before: flagged ramp (0: none) */
};
/* Imports the fio JSON at JSON_PATH (one job, its latency log beside it) as
 * test T of the open run; *test (may be NULL) is the new entry. Fails naming
 * the file when it holds not exactly one job or the log is missing. */
int import_fio_test(struct archive *run, const char *json_path, const struct import_fio_test *t,
                    json_t **test, struct ssdrev_err *err);

/* ---- CrystalDiskMark text (import/cdm.c) */

/* Parses CrystalDiskMark "Save text" output (CDM 6-9 section layout; UTF-8 with
 * or without BOM, CRLF or LF, spacing lenient) into
 *   {"version": "8.0.4 x64", "profile": "Default", "test": "1 GiB (x5) [...]",
 *    "mode": .., "time": .., "date": .., "os": .., "comment": ..,
 *    "mix": "Read 70%/Write 30%",
 *    "cells": [{"op": "read", "cell": "SEQ1M Q8T1", "pattern": "seq",
 *               "block_bytes": 1048576, "qd": 8, "threads": 1,
 *               "mb_s": .., "iops": .., "lat_us": ..}, ...]}
 * Keys the text lacks are absent. Fails naming the line when no result line
 * is found or a result line is malformed. `name` is used in messages. */
json_t *import_cdm_parse(const char *text, size_t len, const char *name, struct ssdrev_err *err);

/* ---- DUT info (import/dut.c) */

/* DUT info from nvme-cli (id-ctrl -o json, smart-log -o json) and smartctl -j
 * JSON text, merged into the review's DUT summary object (docs/archive.md). */
json_t *import_dut_parse(const char *id_ctrl_json, const char *smart_log_json,
                        const char *smartctl_json, int include_serial, struct ssdrev_err *err);
/* As import_dut_parse, with the inputs' file names (names[i] may be NULL) in
 * its messages. Values are checked first (import/dut_check.c): id-ctrl
 * fields of their NVMe width and at most 32 power states; a smart-log must
 * have critical_warning, temperature, percent_used (or percentage_used),
 * data_units_read, data_units_written and power_on_hours, typed. */
json_t *import_dut_parse_named(const char *id_ctrl_json, const char *smart_log_json, const char *smartctl_json,
                              const char *const names[3], int include_serial, struct ssdrev_err *err);
/* Copies the fields of a user's overrides object (e.g. "controller",
 * "media", which no tool reports) into dut, after checking every key's type
 * (a string for "model", a positive integer for "capacity_bytes", ...; no
 * null): on a bad key it returns -EINVAL naming `name` (the file) and the
 * key, and dut is unchanged. */
int import_dut_apply_overrides(json_t *dut, const json_t *overrides, const char *name, struct ssdrev_err *err);

#endif
