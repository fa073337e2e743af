/* cmd_method.c — `ssdrev method export --fio DIR`: the review method as fio
 * job files (bench/method/export_fio.c, docs/interop.md). */
#include <getopt.h>
#include <string.h>
#include "cli/cli.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: ssdrev method export --fio DIR [options]\n\n"
          "Writes the review method as fio job files, one per step (DIR/NN-STEP.fio),\n"
          "and DIR/run.sh, which runs them in order on $SSDREV_TARGET (destroying its\n"
          "data) and prints the `ssdrev import fio` command for the results.\n\n"
          "options:\n"
          "  --fio DIR            output directory (created)\n"
          "  --profile FILE|NAME  method file (default profiles/review.json)\n"
          "  --filename PATH      fio filename= (default ${SSDREV_TARGET})\n"
          "  --ioengine NAME      fio ioengine= (default libaio)\n"
          "  --buffered           direct=0 (files on tmpfs; a trial run)\n"
          "  --size SIZE          a reduced target: filesize=SIZE, the CrystalDiskMark\n"
          "                       region at most SIZE/4 and the near-full rewrite SIZE/8\n"
          "  --runtime DURATION   every time-based job's runtime (and ramp) instead of\n"
          "                       the method's\n"
          "  --ios N              I/Os per tail-latency workload instead of the method's\n"
          "  --passes N           CrystalDiskMark passes per cell instead of the method's\n"
          "  -h, --help           this help\n");
}

int cmd_method(int argc, char **argv) {
  const char *cmd = "method";
  if (cli_wants_help(argc, argv)) {
    usage(stdout);
    return 0;
  }
  if (argc < 2) return cli_usage_error(cmd, "missing action (export)");
  if (strcmp(argv[1], "export")) return cli_usage_error(cmd, "unknown action '%s' (export)", argv[1]);
  struct bench_fio_export_opts x = {0};
  const char *profile = "review";
  char profile_buf[4200];
  static const struct option longopts[] = {
      {"fio", required_argument, NULL, 'd'},      {"profile", required_argument, NULL, 'p'},
      {"filename", required_argument, NULL, 'f'}, {"ioengine", required_argument, NULL, 'e'},
      {"buffered", no_argument, NULL, 'b'},       {"size", required_argument, NULL, 's'},
      {"runtime", required_argument, NULL, 'r'},  {"ios", required_argument, NULL, 'i'},
      {"passes", required_argument, NULL, 'P'},   {NULL, 0, NULL, 0},
  };
  optind = 1;
  opterr = 0;
  int c;
  uint64_t v;
  /* argv + 1: the action plays argv[0] for getopt */
  while ((c = getopt_long(argc - 1, argv + 1, ":", longopts, NULL)) != -1) {
    const char *bad = argv[optind];
    switch (c) {
    case 'd': x.dir = optarg; break;
    case 'p': profile = optarg; break;
    case 'f': x.filename = optarg; break;
    case 'e': x.ioengine = optarg; break;
    case 'b': x.buffered = 1; break;
    case 's':
      if (cli_parse_size(optarg, &x.size_bytes) || x.size_bytes < (4u << 20))
        return cli_usage_error(cmd, "--size: expected a size of at least 4M, got '%s'", optarg);
      break;
    case 'r':
      if (cli_parse_duration(optarg, &v) || v < 1000000)
        return cli_usage_error(cmd, "--runtime: expected a duration of at least 1ms, got '%s'", optarg);
      x.runtime_s = (double)v / 1e9;
      break;
    case 'i':
      if (cli_parse_uint(optarg, 1, 1000000000ull, &v)) return cli_usage_error(cmd, "--ios: expected 1 or more, got '%s'", optarg);
      x.ios = v;
      break;
    case 'P':
      if (cli_parse_uint(optarg, 1, 100, &v)) return cli_usage_error(cmd, "--passes: expected 1..100, got '%s'", optarg);
      x.passes = (unsigned)v;
      break;
    case ':': return cli_usage_error(cmd, "option '%s' needs a value", bad);
    default: return cli_usage_error(cmd, "unknown option '%s'", bad);
    }
  }
  if (optind < argc - 1) return cli_usage_error(cmd, "unexpected argument '%s'", argv[1 + optind]);
  if (!x.dir) return cli_usage_error(cmd, "missing --fio DIR (the only export format)");
  struct ssdrev_err cerr = {{0}};
  if (bench_method_export_fio_check(&x, &cerr)) return cli_usage_error(cmd, "%s", cerr.msg);
  int rc = cli_resolve_profile(cmd, profile, profile_buf, sizeof profile_buf);
  if (rc) return rc;
  x.profile_path = profile_buf;
  struct ssdrev_err err = {{0}};
  char summary[2048], notes[4096];
  x.notes = notes;
  x.notes_len = sizeof notes;
  if (bench_method_export_fio(&x, summary, sizeof summary, &err)) return cli_error(cmd, "%s", err.msg);
  /* what fio cannot express, before the summary: a warning per step */
  for (const char *l = notes; *l;) {
    const char *e = strchr(l, '\n');
    int n = e ? (int)(e - l) : (int)strlen(l);
    cli_warn("ssdrev method: ", "note", "%.*s", n, l);
    l += n + (e != NULL);
  }
  printf("wrote %s\n", summary);
  return 0;
}
