/* cmd_import.c — `ssdrev import fio|cdm FILE --out RUN`: other tools' results
 * into a run archive (import/import.h, docs/interop.md). */
#include <getopt.h>
#include <string.h>
#include "archive/archive.h"
#include "import/import.h"
#include "cli/cli.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: ssdrev import fio RESULT.json --out RUN [options]\n"
          "       ssdrev import cdm RESULT.txt --out RUN [options]\n\n"
          "Imports another tool's results into a new run archive.\n\n"
          "importers:\n");
  for (const struct import_format *i = import_formats; i->name; i++) fprintf(f, "  %-5s %s\n", i->name, i->summary);
  fprintf(f,
          "\noptions:\n"
          "  --out RUN            archive to create (must not exist or be empty)\n"
          "  --label TEXT         drive label for reports (cdm default: the Comment line)\n"
          "  --model TEXT         DUT model to record (groups runs in `ssdrev compare`)\n"
          "  --firmware TEXT      DUT firmware to record\n"
          "  --state TEXT         fill state, e.g. FOB or 75%% (cdm default: from the Comment)\n"
          "fio only:\n"
          "  --logs DIR           where the write_lat_log files are (default: the JSON's\n"
          "                       directory, then the current one); a DIR that does not\n"
          "                       exist or holds none of the logs is an error (exit 1)\n"
          "  --latency KIND       auto (lat, else clat), lat or clat log\n"
          "  --log-offset 0|1     whether the logs have an offset column (default: the\n"
          "                       JSON's log_offset option, fio's default 0 if unset)\n"
          "  --no-logs            import the JSON summary only\n"
          "  -h, --help           this help\n\n"
          "A fio JSON may come from client/server runs (one test per host and job);\n"
          "logs need write_lat_log=PREFIX and log_avg_msec=0. See docs/interop.md.\n");
}

int cmd_import(int argc, char **argv) {
  const char *cmd = "import";
  if (cli_wants_help(argc, argv)) {
    usage(stdout);
    return 0;
  }
  if (argc < 2) return cli_usage_error(cmd, "missing importer (fio or cdm)");
  const struct import_format *imp = import_find(argv[1]);
  if (!imp) return cli_usage_error(cmd, "unknown importer '%s' (fio or cdm)", argv[1]);
  struct import_opts o;
  import_opts_defaults(&o);
  static const struct option longopts[] = {
      {"out", required_argument, NULL, 'o'},      {"label", required_argument, NULL, 'L'},
      {"model", required_argument, NULL, 'm'},    {"firmware", required_argument, NULL, 'f'},
      {"state", required_argument, NULL, 's'},    {"logs", required_argument, NULL, 'l'},
      {"latency", required_argument, NULL, 'a'},  {"log-offset", required_argument, NULL, 'O'},
      {"no-logs", no_argument, NULL, 'n'},        {NULL, 0, NULL, 0},
  };
  int fio = !strcmp(imp->name, "fio");
  optind = 1;
  opterr = 0;
  int c;
  /* argv + 1: the importer name plays argv[0] for getopt */
  while ((c = getopt_long(argc - 1, argv + 1, ":", longopts, NULL)) != -1) {
    /* getopt runs on argv + 1, so argv[optind] is the element it just read */
    const char *bad = argv[optind];
    switch (c) {
    case 'o': o.out_dir = optarg; break;
    case 'L': o.label = optarg; break;
    case 'm': o.model = optarg; break;
    case 'f': o.firmware = optarg; break;
    case 's': o.state = optarg; break;
    case 'l': o.log_dir = optarg; break;
    case 'a':
      if (!strcmp(optarg, "auto")) o.lat = IMPORT_FIO_LAT_AUTO;
      else if (!strcmp(optarg, "lat")) o.lat = IMPORT_FIO_LAT_TOTAL;
      else if (!strcmp(optarg, "clat")) o.lat = IMPORT_FIO_LAT_CLAT;
      else return cli_usage_error(cmd, "--latency: expected auto, lat or clat, got '%s'", optarg);
      break;
    case 'O':
      if (strcmp(optarg, "0") && strcmp(optarg, "1"))
        return cli_usage_error(cmd, "--log-offset: expected 0 or 1, got '%s'", optarg);
      o.log_offset = optarg[0] - '0';
      break;
    case 'n': o.no_logs = 1; break;
    case ':': return cli_usage_error(cmd, "option '%s' needs a value", bad);
    default: return cli_usage_error(cmd, "unknown option '%s'", bad);
    }
    if (!fio && (c == 'l' || c == 'a' || c == 'O' || c == 'n')) {
      const struct option *lo = longopts;
      while (lo->name && lo->val != c) lo++;
      return cli_usage_error(cmd, "option '--%s' applies to fio imports only", lo->name);
    }
  }
  int nargs = argc - 1 - optind;
  if (nargs < 1) return cli_usage_error(cmd, "missing input file");
  if (nargs > 1) return cli_usage_error(cmd, "one input file at a time (got '%s' too)", argv[1 + optind + 1]);
  if (!o.out_dir) return cli_usage_error(cmd, "missing --out RUN");
  const char *input = argv[1 + optind];
  struct ssdrev_err err = {{0}};
  struct import_result res;
  if (imp->import(input, &o, &res, &err)) return cli_error(cmd, "%s", err.msg);
  /* warnings were recorded in the manifest; show them too */
  struct archive *run;
  if (!archive_open(&run, o.out_dir, &err)) {
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(run->manifest, "import_warnings"), i, w) {
      fprintf(stderr, "ssdrev import: warning: %s\n", json_string_value(w));
    }
    archive_free(run);
  }
  printf("imported %u test%s from '%s' into '%s'", res.tests, res.tests == 1 ? "" : "s", input, o.out_dir);
  if (fio) printf(" (%u with per-I/O logs, %llu I/Os)", res.logs, (unsigned long long)res.log_ios);
  printf("\n");
  return 0;
}
