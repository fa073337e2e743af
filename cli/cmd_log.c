/* cmd_log.c — `ssdrev log`: inspect a binary I/O log (info, dump), plus two
 * testing aids not listed in the main help: `synth` writes a synthetic log
 * and `scan` times decoding (docs/log-format.md, docs/perf/log.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli/cli.h"
#include "log/ssdlog.h"

static const char log_usage[] =
    "usage: ssdrev log info FILE [--salvage] [--json]\n"
    "       ssdrev log dump FILE [--csv] [--salvage] [--limit N]\n"
    "\n"
    "Inspects a binary I/O log (RUN/logs/*.ssdlog, docs/log-format.md).\n"
    "\n"
    "  info    header (version, clock, start time, params), chunks, records,\n"
    "          bytes per record, bytes per column, op counts, integrity\n"
    "  dump    one line per record; --csv writes CSV with a header row:\n"
    "          submit_ns,lat_ns,offset_bytes,len_bytes,op,status,queue_id,ramp\n"
    "\n"
    "  --salvage   skip chunks whose CRC32C fails instead of failing\n"
    "  --json      info as a JSON object\n"
    "  --limit N   dump at most N records\n"
    "\n"
    "Testing aids:\n"
    "  ssdrev log synth OUT [--records N] [--seed S] [--loop-ns NS] [--force]\n"
    "          write a synthetic 4 KiB random-read QD32 log\n"
    "  ssdrev log scan FILE [--cols LIST] [--passes N] [--salvage]\n"
    "          decode columns (lat,submit,offset,len,status,queue,op,flags or\n"
    "          all; default lat) and print records, the median pass's seconds\n"
    "          and records/s\n"
    "\n"
    "A truncated tail (a crash) ends the log with a warning (exit 0); a\n"
    "corrupt chunk is an error naming the file and byte offset (exit 1)\n"
    "unless --salvage.\n";

static const char *const col_names[8] = {"submit_ns", "lat_ns", "offset_bytes", "len_bytes",
                                         "status",    "queue_id", "op",         "flags"};

struct log_opts {
  const char *file;
  int salvage, json, csv, force;
  uint64_t limit, records, seed, loop_ns, passes;
  unsigned cols;
};

/* Parses "lat,submit" into a column mask. */
static int parse_cols(const char *s, unsigned *out) {
  static const struct { const char *name; unsigned bit; } t[] = {
      {"submit", SSDLOG_COL_SUBMIT}, {"lat", SSDLOG_COL_LAT},     {"offset", SSDLOG_COL_OFFSET},
      {"len", SSDLOG_COL_LEN},       {"status", SSDLOG_COL_STATUS}, {"queue", SSDLOG_COL_QUEUE},
      {"op", SSDLOG_COL_OP},         {"flags", SSDLOG_COL_FLAGS}, {"all", SSDLOG_COL_ALL},
      {"none", 0}};
  unsigned m = 0;
  const char *p = s;
  while (*p) {
    size_t n = strcspn(p, ",");
    size_t i = 0;
    for (; i < sizeof t / sizeof t[0]; i++)
      if (strlen(t[i].name) == n && !strncmp(p, t[i].name, n)) break;
    if (i == sizeof t / sizeof t[0]) return -EINVAL;
    m |= t[i].bit;
    p += n + (p[n] == ',');
  }
  *out = m;
  return 0;
}

/* Options shared by the subcommands; `allowed` lists the ones this one takes. */
static int parse_opts(const char *cmd, int argc, char **argv, const char *allowed,
                      struct log_opts *o) {
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (a[0] != '-' || !a[1]) {
      if (o->file) return cli_usage_error(cmd, "unexpected argument '%s'", a);
      o->file = a;
      continue;
    }
    if (!strstr(allowed, a)) return cli_usage_error(cmd, "unknown option '%s' for '%s'", a, argv[1]);
    if (!strcmp(a, "--salvage")) o->salvage = 1;
    else if (!strcmp(a, "--json")) o->json = 1;
    else if (!strcmp(a, "--csv")) o->csv = 1;
    else if (!strcmp(a, "--force")) o->force = 1;
    else {
      if (!val) return cli_usage_error(cmd, "option '%s' needs a value", a);
      int rc = 0;
      if (!strcmp(a, "--limit")) rc = cli_parse_uint(val, 0, UINT64_MAX, &o->limit);
      else if (!strcmp(a, "--records")) rc = cli_parse_uint(val, 0, UINT64_MAX, &o->records);
      else if (!strcmp(a, "--seed")) rc = cli_parse_uint(val, 0, UINT64_MAX, &o->seed);
      else if (!strcmp(a, "--loop-ns")) rc = cli_parse_uint(val, 1, UINT32_MAX, &o->loop_ns);
      else if (!strcmp(a, "--passes")) rc = cli_parse_uint(val, 1, 1000, &o->passes);
      else if (!strcmp(a, "--cols")) rc = parse_cols(val, &o->cols);
      else return cli_usage_error(cmd, "unknown option '%s' for '%s'", a, argv[1]);
      if (rc) return cli_usage_error(cmd, "bad value '%s' for option '%s'", val, a);
      i++;
    }
  }
  if (!o->file) return cli_usage_error(cmd, "'%s' needs a file", argv[1]);
  return 0;
}

static const char *clock_name(uint32_t c) {
  static const char *const names[] = {"unknown", "monotonic", "virtual", "imported"};
  return c < 4 ? names[c] : "unknown";
}

static void iso_time(uint64_t unix_ns, char *buf, size_t len) {
  time_t t = (time_t)(unix_ns / 1000000000ull);
  struct tm tm;
  if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
    snprintf(buf, len, "(invalid)");
}

/* Warns about a truncated tail or skipped chunks (stderr). */
static void report_damage(const char *cmd, const char *file, const struct ssdlog_stats *st) {
  if (st->truncated)
    fprintf(stderr, "ssdrev %s: warning: '%s' ends inside a chunk at byte %" PRIu64
                    " (truncated, e.g. by a crash); %" PRIu64 " records recovered\n",
            cmd, file, st->truncated_at, st->records);
  if (st->skipped_chunks)
    fprintf(stderr, "ssdrev %s: warning: skipped %" PRIu64 " corrupt chunk(s) in '%s' (%" PRIu64
                    " records)\n", cmd, st->skipped_chunks, file, st->skipped_records);
}

/* The status of the test that owns FILE when it sits in a run archive
 * (RUN/logs/NAME.ssdlog beside RUN/manifest.json), in buf; "" otherwise.
 * A log can end cleanly on a chunk boundary and still be incomplete: only
 * the manifest knows that the run was killed ("running"). */
static void run_status_of_log(const char *file, char *buf, size_t len) {
  buf[0] = 0;
  const char *slash = strrchr(file, '/');
  const char *base = slash ? slash + 1 : file;
  size_t dlen = slash ? (size_t)(slash - file) : 0;
  char mpath[4200], want[600];
  const size_t ll = sizeof ARCHIVE_LOGS - 1;
  if (dlen < ll || strncmp(file + dlen - ll, ARCHIVE_LOGS, ll) || (dlen > ll && file[dlen - ll - 1] != '/')) return;
  snprintf(mpath, sizeof mpath, "%.*s" ARCHIVE_MANIFEST, (int)(dlen - ll), file);
  snprintf(want, sizeof want, ARCHIVE_LOGS "/%.500s", base);
  json_t *m = ssdrev_load_json(mpath, NULL); /* bounded, regular files only */
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(m, "tests"), i, t) {
    const char *lg = json_string_value(json_object_get(t, "log"));
    const char *st = json_string_value(json_object_get(t, "status"));
    if (lg && st && !strcmp(lg, want)) {
      snprintf(buf, len, "%s", st);
      break;
    }
  }
  json_decref(m);
}

static void report_status(const char *cmd, const char *file, const char *status) {
  if (!strcmp(status, "running"))
    fprintf(stderr, "ssdrev %s: warning: '%s' is incomplete: its test never finished (manifest status "
                    "\"running\": the run was killed or crashed); I/Os after the last written chunk are lost\n",
            cmd, file);
}

static int log_info(int argc, char **argv) {
  struct log_opts o = {0};
  int rc = parse_opts("log", argc, argv, "--salvage --json", &o);
  if (rc) return rc;
  struct ssdlog_reader *r;
  struct ssdrev_err err = {{0}};
  if (ssdlog_open(&r, o.file, o.salvage ? SSDLOG_SALVAGE : 0, &err))
    return cli_error("log", "%s", err.msg);
  uint64_t col_bytes[8] = {0}, ops[5] = {0}, ramp = 0, errors = 0, hdr_bytes = 0;
  uint64_t smin = UINT64_MAX, smax = 0, lmin = UINT64_MAX, lmax = 0;
  struct ssdlog_chunk c;
  int n;
  while ((n = ssdlog_next_chunk(r, SSDLOG_COL_ALL, &c, &err)) > 0) {
    for (int k = 0; k < 8; k++) col_bytes[k] += c.col_bytes[k];
    hdr_bytes += c.chunk_bytes;
    for (size_t i = 0; i < c.n; i++) {
      ops[c.op[i] < 4 ? c.op[i] : 4]++;
      ramp += c.flags[i] & SSDLOG_REC_RAMP;
      errors += c.status[i] != 0;
    }
    smin = c.min_submit_ns < smin ? c.min_submit_ns : smin;
    smax = c.max_submit_ns > smax ? c.max_submit_ns : smax;
    lmin = c.min_lat_ns < lmin ? c.min_lat_ns : lmin;
    lmax = c.max_lat_ns > lmax ? c.max_lat_ns : lmax;
  }
  if (n < 0) {
    ssdlog_close(r);
    return cli_error("log", "%s", err.msg);
  }
  struct ssdlog_stats st;
  ssdlog_get_stats(r, &st);
  const struct ssdlog_header *h = ssdlog_get_header(r);
  for (int k = 0; k < 8; k++) hdr_bytes -= col_bytes[k];
  char tstatus[32];
  run_status_of_log(o.file, tstatus, sizeof tstatus);
  char when[64];
  iso_time(h->start_unix_ns, when, sizeof when);
  double bpr = st.records ? (double)st.file_bytes / (double)st.records : 0;
  if (o.json) {
    json_error_t je;
    json_t *params = json_loads(h->params_json, JSON_DECODE_ANY, &je);
    if (!params) params = json_string(h->params_json);
    json_t *cols = json_object(), *jops = json_object();
    for (int k = 0; k < 8; k++) json_object_set_new(cols, col_names[k], json_integer((json_int_t)col_bytes[k]));
    for (unsigned k = 0; k < 4; k++) json_object_set_new(jops, ssdlog_op_name(k), json_integer((json_int_t)ops[k]));
    if (ops[4]) json_object_set_new(jops, "unknown", json_integer((json_int_t)ops[4]));
    json_t *j = json_pack("{s:s, s:i, s:s, s:I, s:s, s:o, s:I, s:I, s:I, s:f, s:I, s:o, s:o, s:I, s:I}",
        "file", o.file, "version", (int)h->version, "clock_source", clock_name(h->clock_source),
        "start_unix_ns", (json_int_t)h->start_unix_ns, "start", when, "params", params,
        "chunks", (json_int_t)st.chunks, "records", (json_int_t)st.records,
        "file_bytes", (json_int_t)st.file_bytes, "bytes_per_record", bpr,
        "chunk_header_bytes", (json_int_t)hdr_bytes, "column_bytes", cols, "ops", jops,
        "ramp_records", (json_int_t)ramp, "error_records", (json_int_t)errors);
    if (st.records) {
      json_object_set_new(j, "submit_ns_range", json_pack("[I, I]", (json_int_t)smin, (json_int_t)smax));
      json_object_set_new(j, "lat_ns_range", json_pack("[I, I]", (json_int_t)lmin, (json_int_t)lmax));
    }
    json_object_set_new(j, "truncated", json_boolean(st.truncated));
    if (st.truncated) json_object_set_new(j, "truncated_at", json_integer((json_int_t)st.truncated_at));
    json_object_set_new(j, "skipped_chunks", json_integer((json_int_t)st.skipped_chunks));
    json_object_set_new(j, "skipped_records", json_integer((json_int_t)st.skipped_records));
    if (tstatus[0]) json_object_set_new(j, "test_status", json_string(tstatus));
    json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
    fputc('\n', stdout);
    json_decref(j);
  } else {
    printf("file             %s\n", o.file);
    printf("version          %u\n", h->version);
    printf("clock source     %s\n", clock_name(h->clock_source));
    printf("start            %s (%" PRIu64 " ns)\n", when, h->start_unix_ns);
    printf("params           %s\n", h->params_json[0] ? h->params_json : "(none)");
    printf("chunks           %" PRIu64 "\n", st.chunks);
    printf("records          %" PRIu64 "\n", st.records);
    printf("bytes            %" PRIu64 "\n", st.file_bytes);
    printf("bytes/record     %.3f\n", bpr);
    if (st.records) {
      printf("submit_ns        %" PRIu64 " .. %" PRIu64 "\n", smin, smax);
      printf("lat_ns           %" PRIu64 " .. %" PRIu64 "\n", lmin, lmax);
    }
    printf("ops              read %" PRIu64 ", write %" PRIu64 ", trim %" PRIu64 ", flush %" PRIu64,
           ops[0], ops[1], ops[2], ops[3]);
    if (ops[4]) printf(", unknown %" PRIu64, ops[4]);
    printf("\nramp records     %" PRIu64 "\nerror records    %" PRIu64 "\n", ramp, errors);
    printf("column bytes     (bytes, bytes/record)\n");
    for (int k = 0; k < 8; k++)
      printf("  %-14s %12" PRIu64 "  %.3f\n", col_names[k], col_bytes[k],
             st.records ? (double)col_bytes[k] / (double)st.records : 0.0);
    printf("  %-14s %12" PRIu64 "  %.3f\n", "(chunk headers)", hdr_bytes,
           st.records ? (double)hdr_bytes / (double)st.records : 0.0);
    if (st.truncated)
      printf("status           truncated at byte %" PRIu64 "\n", st.truncated_at);
    else if (st.skipped_chunks)
      printf("status           %" PRIu64 " corrupt chunk(s) skipped\n", st.skipped_chunks);
    else
      printf("status           ok\n");
    if (tstatus[0])
      printf("test status      %s%s\n", tstatus,
             !strcmp(tstatus, "running") ? " (incomplete: the run never finished)" : "");
  }
  report_damage("log", o.file, &st);
  if (tstatus[0]) report_status("log", o.file, tstatus);
  ssdlog_close(r);
  return 0;
}

static int log_dump(int argc, char **argv) {
  struct log_opts o = {.limit = UINT64_MAX};
  int rc = parse_opts("log", argc, argv, "--salvage --csv --limit", &o);
  if (rc) return rc;
  struct ssdlog_reader *r;
  struct ssdrev_err err = {{0}};
  if (ssdlog_open(&r, o.file, o.salvage ? SSDLOG_SALVAGE : 0, &err))
    return cli_error("log", "%s", err.msg);
  static const char *const hdr[] = {"submit_ns", "lat_ns",   "offset_bytes", "len_bytes",
                                    "op",        "status",   "queue_id",     "ramp"};
  if (o.csv) {
    for (int k = 0; k < 8; k++) ssdrev_csv_text(stdout, hdr[k], k == 7);
  } else {
    printf("%20s %14s %20s %10s %-6s %7s %5s %4s\n", "submit_ns", "lat_ns", "offset_bytes",
           "len_bytes", "op", "status", "queue", "ramp");
  }
  struct ssdlog_rec x;
  uint64_t k = 0;
  int n = 0;
  while (k < o.limit && (n = ssdlog_next(r, &x, &err)) == 1) {
    k++;
    unsigned ramp = x.flags & SSDLOG_REC_RAMP ? 1 : 0;
    if (o.csv) {
      printf("%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu32 ",", x.submit_ns, x.lat_ns,
             x.offset_bytes, x.len_bytes);
      /* the integers are printed bare by printf (numbers ssdrev formats:
       * nothing to neutralize); the one text cell goes through the writer */
      ssdrev_csv_text(stdout, ssdlog_op_name(x.op), 0);
      printf("%" PRId32 ",%u,%u\n", x.status, (unsigned)x.queue_id, ramp);
    } else {
      printf("%20" PRIu64 " %14" PRIu64 " %20" PRIu64 " %10" PRIu32 " %-6s %7" PRId32 " %5u %4u\n",
             x.submit_ns, x.lat_ns, x.offset_bytes, x.len_bytes, ssdlog_op_name(x.op), x.status,
             (unsigned)x.queue_id, ramp);
    }
  }
  if (fflush(stdout) || ferror(stdout)) {
    ssdlog_close(r);
    return cli_error("log", "cannot write the dump to stdout: %s", strerror(errno));
  }
  if (n < 0) {
    ssdlog_close(r);
    return cli_error("log", "%s", err.msg);
  }
  struct ssdlog_stats st;
  ssdlog_get_stats(r, &st);
  report_damage("log", o.file, &st);
  ssdlog_close(r);
  return 0;
}

static int log_synth(int argc, char **argv) {
  struct log_opts o = {.records = 100000, .seed = 1};
  int rc = parse_opts("log", argc, argv, "--records --seed --loop-ns --force", &o);
  if (rc) return rc;
  struct ssdrev_err err = {{0}};
  if (ssdlog_synth(o.file, o.records, o.seed, (uint32_t)o.loop_ns, o.force, &err))
    return cli_error("log", "%s", err.msg);
  return 0;
}

static int log_scan(int argc, char **argv) {
  struct log_opts o = {.cols = SSDLOG_COL_LAT, .passes = 1};
  int rc = parse_opts("log", argc, argv, "--cols --passes --salvage", &o);
  if (rc) return rc;
  struct ssdlog_reader *r;
  struct ssdrev_err err = {{0}};
  if (ssdlog_open(&r, o.file, o.salvage ? SSDLOG_SALVAGE : 0, &err))
    return cli_error("log", "%s", err.msg);
  uint64_t times_ns[1000], sum = 0, recs = 0, done = 0;
  for (uint64_t p = 0; p < o.passes; p++) {
    if (ssdlog_rewind(r, &err)) break;
    uint64_t t0 = ssdrev_clock_ns();
    struct ssdlog_chunk c;
    int n;
    recs = 0;
    /* the sum keeps the decode from being optimised away and is a checksum */
    while ((n = ssdlog_next_chunk(r, o.cols, &c, &err)) > 0) {
      recs += c.n;
      if (c.lat_ns)
        for (size_t i = 0; i < c.n; i++) sum += c.lat_ns[i];
      else if (c.submit_ns)
        for (size_t i = 0; i < c.n; i++) sum += c.submit_ns[i];
    }
    if (n < 0) {
      ssdlog_close(r);
      return cli_error("log", "%s", err.msg);
    }
    times_ns[done++] = ssdrev_clock_ns() - t0;
  }
  ssdlog_close(r);
  /* the median pass: robust to a noisy neighbour on a shared machine */
  for (uint64_t i = 1; i < done; i++)
    for (uint64_t j = i; j > 0 && times_ns[j - 1] > times_ns[j]; j--) {
      uint64_t t = times_ns[j];
      times_ns[j] = times_ns[j - 1];
      times_ns[j - 1] = t;
    }
  double s = done ? (double)times_ns[done / 2] / 1e9 : 0;
  printf("records %" PRIu64 " seconds %.4f records_per_s %.4g checksum %" PRIu64 "\n", recs, s,
         s > 0 ? (double)recs / s : 0.0, sum);
  return 0;
}

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
} log_subs[] = {
    {"info", log_info}, {"dump", log_dump}, {"synth", log_synth}, {"scan", log_scan},
};

int cmd_log(int argc, char **argv) {
  if (cli_wants_help(argc, argv) || (argc >= 2 && !strcmp(argv[1], "help"))) {
    fputs(log_usage, stdout);
    return 0;
  }
  if (argc < 2) return cli_usage_error("log", "missing subcommand (info or dump)");
  for (size_t i = 0; i < sizeof log_subs / sizeof log_subs[0]; i++)
    if (!strcmp(argv[1], log_subs[i].name)) return log_subs[i].run(argc, argv);
  return cli_usage_error("log", "unknown subcommand '%s' (info or dump)", argv[1]);
}
