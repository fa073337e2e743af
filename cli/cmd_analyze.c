/* cmd_analyze.c — `ssdrev analyze`: a run archive into RUN/analysis.json
 * (printed as tables, JSON or CSV), or a bare log. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze.h"
#include "cli/cli.h"
#include "render/render.h"
#include "log/ssdlog.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: ssdrev analyze RUN_DIR [options]\n"
          "       ssdrev analyze --log FILE.ssdlog [options]\n\n"
          "Analyzes every test of a run archive and writes RUN_DIR/analysis.json:\n"
          "per-op IOPS, MB/s, latency stats and exact percentiles, time series,\n"
          "the CDM table, the fill-drive trace and SLC cache estimate, the\n"
          "RW-ratio sweep, tail latency and bottleneck flags (docs/flags.md).\n\n"
          "options:\n"
          "  --percentiles LIST  percentiles to report (default 50,90,99,99.9,99.99,99.999)\n"
          "  --interval DUR      time-series interval (default 1s; e.g. 250ms)\n"
          "  --salvage           skip corrupt log chunks instead of failing\n"
          "  --threads N         threads: tests analyzed in parallel, or --pct-only\n"
          "                      splitting the log (default: online CPUs)\n"
          "  --table             print tables (the default): the summary (CDM, RW-ratio\n"
          "                      sweep, SLC cache, tail latency, flags), then the tests\n"
          "                      no summary covers; sample-count warnings are counted\n"
          "  --verbose           with the tables: every test's statistics and warnings\n"
          "  --json              print the analysis as JSON\n"
          "  --csv FILE          write one CSV row per test and op (- = stdout)\n"
          "  --quiet             print nothing (still writes analysis.json)\n"
          "  --log FILE          analyze one log instead of a run archive\n"
          "  --fill              with --log: also the per-GiB trace and SLC estimate\n"
          "  --pct-only          with --log: latency percentiles only (fastest)\n"
          "  --export-lat32 FILE with --log: write the measured latencies (ns) as raw\n"
          "                      little-endian uint32 (a benchmarking aid: numpy.fromfile)\n"
          "  -h, --help          show this help\n");
}

enum { O_PCT = 256, O_INTERVAL, O_SALVAGE, O_THREADS, O_TABLE, O_JSON, O_CSV, O_QUIET, O_LOG, O_FILL, O_PCTONLY, O_EXPORT, O_VERBOSE };

static const struct option opts[] = {
    {"percentiles", required_argument, NULL, O_PCT}, {"interval", required_argument, NULL, O_INTERVAL},
    {"salvage", no_argument, NULL, O_SALVAGE},       {"threads", required_argument, NULL, O_THREADS},
    {"table", no_argument, NULL, O_TABLE},           {"json", no_argument, NULL, O_JSON},
    {"csv", required_argument, NULL, O_CSV},         {"quiet", no_argument, NULL, O_QUIET},
    {"log", required_argument, NULL, O_LOG},         {"fill", no_argument, NULL, O_FILL},
    {"pct-only", no_argument, NULL, O_PCTONLY},      {"help", no_argument, NULL, 'h'},
    {"export-lat32", required_argument, NULL, O_EXPORT},
    {"verbose", no_argument, NULL, O_VERBOSE},
    {NULL, 0, NULL, 0},
};

static int write_csv(const char *cmd, const char *path, const json_t *a) {
  if (!strcmp(path, "-")) return analyze_write_csv(stdout, a) ? cli_error(cmd, "cannot write CSV to stdout") : 0;
  struct ssdrev_atomic at;
  struct ssdrev_err err = {{0}};
  if (ssdrev_atomic_open(&at, path, &err)) return cli_error(cmd, "%s", err.msg);
  if (analyze_write_csv(at.f, a)) {
    ssdrev_atomic_abort(&at);
    return cli_error(cmd, "cannot write '%s'", path);
  }
  if (ssdrev_atomic_commit(&at, &err)) return cli_error(cmd, "%s", err.msg);
  return 0;
}

/* Writes the latencies analyze would use (measured, status 0) as uint32. */
static int export_lat32(const char *cmd, const char *log, const char *out, int salvage) {
  struct ssdrev_err err = {{0}};
  struct ssdlog_reader *r;
  if (ssdlog_open(&r, log, salvage ? SSDLOG_SALVAGE : 0, &err)) return cli_error(cmd, "%s", err.msg);
  struct ssdrev_atomic at;
  if (ssdrev_atomic_open(&at, out, &err)) {
    ssdlog_close(r);
    return cli_error(cmd, "%s", err.msg);
  }
  static uint32_t buf[65536];
  struct ssdlog_chunk k;
  int rc;
  while ((rc = ssdlog_next_chunk(r, SSDLOG_COL_LAT | SSDLOG_COL_STATUS | SSDLOG_COL_FLAGS, &k, &err)) > 0) {
    size_t m = 0;
    for (size_t i = 0; i < k.n; i++) {
      if (!ssdlog_measured(k.flags[i], k.status[i])) continue;
      if (k.lat_ns[i] > UINT32_MAX) {
        rc = -ERANGE;
        snprintf(err.msg, sizeof err.msg, "latency %llu ns in '%s' does not fit in uint32", (unsigned long long)k.lat_ns[i], log);
        break;
      }
      buf[m++] = (uint32_t)k.lat_ns[i];
    }
    if (rc < 0) break;
    fwrite(buf, sizeof buf[0], m, at.f);
  }
  ssdlog_close(r);
  if (rc < 0) {
    ssdrev_atomic_abort(&at);
    return cli_error(cmd, "%s", err.msg);
  }
  if (ssdrev_atomic_commit(&at, &err)) return cli_error(cmd, "%s", err.msg);
  return 0;
}

static int pct_only(const char *cmd, const char *log, const struct analyze_opts *o, int json) {
  struct analyze_pct_result res[ANALYZE_MAX_PCTS];
  struct ssdrev_err err = {{0}};
  uint64_t n = 0;
  if (analyze_log_percentiles(log, -1, o, res, &n, &err)) return cli_error(cmd, "%s", err.msg);
  if (json) {
    json_t *a = json_array();
    for (unsigned i = 0; i < o->npcts; i++)
      json_array_append_new(a, json_pack("{s:f, s:I, s:I, s:I}", "p", res[i].p, "rank", (json_int_t)res[i].rank,
                                         "lat_ns", (json_int_t)res[i].value, "at_or_beyond",
                                         (json_int_t)res[i].at_or_beyond));
    json_t *root = json_pack("{s:I, s:o}", "samples", (json_int_t)n, "pct", a);
    json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
    fputc('\n', stdout);
    json_decref(root);
    return 0;
  }
  printf("%llu samples\n", (unsigned long long)n);
  for (unsigned i = 0; i < o->npcts; i++)
    printf("p%-8g %12llu ns  (%llu at or beyond)%s\n", res[i].p, (unsigned long long)res[i].value,
           (unsigned long long)res[i].at_or_beyond, res[i].warn ? "  warning: fewer than 10" : "");
  return 0;
}

/* The table with its warnings, notes and flag findings in Korean (README,
 * "Languages of messages"): the lines analyze_print_table writes, each
 * "  warning: ..." and closing note through render_msg_cli, each flag line
 * (the K-th after "flags:") from the K-th flag; the rest as printed. */
static void print_table_ko(const json_t *a, unsigned flags) {
  char *buf = NULL;
  size_t n = 0;
  FILE *m = open_memstream(&buf, &n);
  if (!m) {
    analyze_print_table(stdout, a, flags);
    return;
  }
  analyze_print_table(m, a, flags);
  fclose(m);
  const json_t *fl = json_object_get(a, "flags");
  size_t nflag = SIZE_MAX;
  char out[8192], word[64];
  render_msg_cli(RENDER_LANG_KO, "warning", word, sizeof word);
  for (char *line = buf, *eol; line && *line; line = eol ? eol + 1 : NULL) {
    eol = strchr(line, '\n');
    if (eol) *eol = 0;
    if (!strncmp(line, "  warning: ", 11)) {
      render_msg_cli(RENDER_LANG_KO, line + 11, out, sizeof out);
      printf("  %s: %s\n", word, out);
    } else if (!strcmp(line, "flags:")) {
      nflag = 0;
      puts(line);
    } else if (nflag < json_array_size(fl) && !strncmp(line, "  [", 3)) {
      render_flag_text(RENDER_LANG_KO, json_array_get(fl, nflag++), out, sizeof out);
      printf("  %s\n", out);
    } else {
      render_msg_cli(RENDER_LANG_KO, line, out, sizeof out);
      puts(out);
    }
  }
  free(buf);
}

int cmd_analyze(int argc, char **argv) {
  const char *cmd = "analyze";
  struct analyze_opts o;
  analyze_opts_defaults(&o);
  struct ssdrev_err err = {{0}};
  int json = 0, quiet = 0, fill = 0, pctonly = 0, verbose = 0, c;
  const char *csv = NULL, *log = NULL, *export = NULL;
  uint64_t v;
  if (cli_wants_help(argc, argv)) {
    usage(stdout);
    return 0;
  }
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
    switch (c) {
    case O_PCT:
      if (analyze_parse_pcts(&o, optarg, &err)) return cli_usage_error(cmd, "--percentiles: %s", err.msg);
      break;
    case O_INTERVAL:
      if (cli_parse_duration(optarg, &v) || v == 0)
        return cli_usage_error(cmd, "--interval: bad duration '%s' (e.g. 1s, 250ms)", optarg);
      o.interval_s = (double)v / 1e9;
      break;
    case O_SALVAGE: o.salvage = 1; break;
    case O_THREADS:
      if (cli_parse_uint(optarg, 1, 16, &v)) return cli_usage_error(cmd, "--threads: want 1..16, not '%s'", optarg);
      o.threads = (unsigned)v;
      break;
    case O_TABLE: json = 0; break;
    case O_JSON: json = 1; break;
    case O_CSV: csv = optarg; break;
    case O_QUIET: quiet = 1; break;
    case O_VERBOSE: verbose = 1; break;
    case O_LOG: log = optarg; break;
    case O_FILL: fill = 1; break;
    case O_PCTONLY: pctonly = 1; break;
    case O_EXPORT: export = optarg; break;
    case 'h': usage(stdout); return 0;
    default:
      if (optopt) return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
      return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
    }
  }
  if (log && optind < argc) return cli_usage_error(cmd, "give either RUN_DIR or --log, not both");
  if (!log && optind + 1 != argc)
    return cli_usage_error(cmd, optind >= argc ? "missing RUN_DIR" : "too many arguments ('%s')", argv[optind < argc ? optind + 1 : 0]);
  if ((fill || pctonly || export) && !log) return cli_usage_error(cmd, "--fill, --pct-only and --export-lat32 need --log");
  if (export) return export_lat32(cmd, log, export, o.salvage);
  if (pctonly) return pct_only(cmd, log, &o, json);

  json_t *a = NULL;
  if (log) {
    json_t *entry;
    if (analyze_log(log, &o, ANALYZE_WANT_SERIES | (fill ? ANALYZE_WANT_FILL : 0), &entry, &err))
      return cli_error(cmd, "%s", err.msg);
    json_object_set_new(entry, "kind", json_string("job"));
    a = json_pack("{s:s, s:i, s:[], s:{s:o}}", "format", "ssdrev-analysis", "format_version", 1, "percentiles",
                  "tests", log, entry);
    for (unsigned i = 0; i < o.npcts; i++) json_array_append_new(json_object_get(a, "percentiles"), json_real(o.pcts[i]));
    const json_t *slc = json_object_get(json_object_get(entry, "fill"), "slc");
    if (slc) {
      /* the same shape as a run's fill.slc, so tables and flags read it */
      json_t *s2 = json_deep_copy(slc);
      json_object_set(s2, "max_gib", json_object_get(slc, "cache_gib"));
      json_object_set_new(a, "fill", json_pack("{s:o}", "slc", s2));
    }
    json_object_set_new(a, "flags", analyze_flags(a));
  } else {
    int arc = analyze_run(argv[optind], &o, &a, &err);
    if (arc < 0) return cli_error(cmd, "%s", err.msg);
    if (arc == ANALYZE_RUN_IN_MEMORY) cli_warn("ssdrev analyze: ", "note", "%s", err.msg); /* a read-only archive */
  }
  int rc = 0;
  if (csv) rc = write_csv(cmd, csv, a);
  if (!quiet && !(csv && !strcmp(csv, "-"))) {
    if (json) {
      json_dumpf(a, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
      fputc('\n', stdout);
    } else if (cli_msg_ko()) {
      print_table_ko(a, verbose ? ANALYZE_TABLE_VERBOSE : 0);
    } else {
      analyze_print_table(stdout, a, verbose ? ANALYZE_TABLE_VERBOSE : 0);
    }
  }
  json_decref(a);
  if (fflush(stdout)) return cli_error(cmd, "cannot write to stdout");
  return rc;
}
