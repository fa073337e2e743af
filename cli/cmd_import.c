/* cmd_import.c — `ssdrev import fio|cdm|kdm FILE[:STATE]... --out RUN`: other
 * tools' results into a run archive (import/import.h, docs/interop.md). The
 * generic options are parsed here; each importer lists its own (the
 * importer table) and checks their values. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "archive/archive.h"
#include "bench/bench.h"
#include "import/import.h"
#include "cli/cli.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: ssdrev import fio RESULT.json[:STATE]... --out RUN [options]\n"
          "       ssdrev import cdm RESULT.txt[:STATE]... --out RUN [options]\n"
          "       ssdrev import kdm REPORT.txt[:STATE]... --out RUN [options]\n\n"
          "Imports another tool's results into a new run archive. Several inputs go\n"
          "into one run (a drive's FOB and 75%% CrystalDiskMark files; the files of\n"
          "`ssdrev method export --fio`); FILE:STATE gives one input's fill state.\n\n"
          "importers:\n");
  for (const struct import_format *i = import_formats; i->name; i++) fprintf(f, "  %-5s %s\n", i->name, i->summary);
  fprintf(f,
          "\noptions:\n"
          "  --out RUN            archive to create (must not exist or be empty)\n"
          "  --label TEXT         drive label for reports (cdm default: the Comment line)\n"
          "  --model TEXT         DUT model to record (groups runs in `ssdrev compare`)\n"
          "  --firmware TEXT      DUT firmware to record\n"
          "  --dut-json DIR|PFX   the drive's nvme-cli / smartctl JSON (id-ctrl.json,\n"
          "                       smart-log.json, smartctl.json) and overrides.json, as\n"
          "                       for `ssdrev review --dut-json`; the serial is left out\n"
          "  --state TEXT         fill state of every input, e.g. FOB or 75%% (cdm default:\n"
          "                       from the Comment)\n"
          "  -h, --help           this help\n");
  for (const struct import_format *i = import_formats; i->name; i++) {
    if (!i->options || !i->options->name) continue;
    fprintf(f, "%s only:\n", i->name);
    for (const struct import_option *op = i->options; op->name; op++) {
      const char *h = op->help, *sp = op->has_arg ? strstr(h, "  ") : NULL;
      char left[64];
      if (sp) snprintf(left, sizeof left, "--%s %.*s", op->name, (int)(sp - h), h);
      else snprintf(left, sizeof left, "--%s", op->name);
      fprintf(f, "  %-20s %s\n", left, sp ? sp + 2 : h);
    }
  }
  fprintf(f,
          "\nA fio JSON may come from client/server runs (one test per host and job);\n"
          "logs need write_lat_log=PREFIX and log_avg_msec=0. Jobs become the method's\n"
          "tests by their parameters (CrystalDiskMark cell, RW sweep, tail, fill).\n"
          "See docs/interop.md.\n");
}

/* Splits "FILE:STATE" when the part after the last ':' is a fill state
 * (FOB, or a percentage such as 75%); a colon in a plain path stays. */
static void split_state(char *arg, struct import_input *in) {
  in->path = arg;
  in->state = NULL;
  char *c = strrchr(arg, ':');
  if (!c || c == arg) return;
  const char *s = c + 1;
  size_t n = strlen(s);
  int pct = n >= 2 && s[n - 1] == '%' && strspn(s, "0123456789.") == n - 1;
  if (strcmp(s, "FOB") && !pct) return;
  *c = 0;
  in->state = s;
}

#define MAX_INPUTS 64

/* The DUT summary of --dut-json DIR|PFX, read as `review --dut-json` reads
 * it (bench_dut_read_files): the tools' JSON parsed, then overrides.json's
 * fields over it (alone, it is the whole DUT). New reference, or NULL with
 * err naming the file. The serial is left out (import has no
 * --include-serial). */
static json_t *read_dut_json(const char *where, struct ssdrev_err *err) {
  char *t[3] = {NULL, NULL, NULL};
  json_t *ov = NULL, *dut = NULL;
  if (bench_dut_read_files(where, &t[0], &t[1], &t[2], &ov, err)) return NULL;
  if (t[0] || t[1] || t[2]) dut = import_dut_parse(t[0], t[1], t[2], 0, err);
  else dut = json_object();
  for (int i = 0; i < 3; i++) free(t[i]);
  char name[4200];
  snprintf(name, sizeof name, "overrides.json of --dut-json %s", where);
  if (dut && ov && import_dut_apply_overrides(dut, ov, name, err)) {
    json_decref(dut);
    dut = NULL;
  }
  json_decref(ov);
  if (dut) json_object_del(dut, "serial");
  return dut;
}

int cmd_import(int argc, char **argv) {
  const char *cmd = "import";
  if (cli_wants_help(argc, argv)) {
    usage(stdout);
    return 0;
  }
  if (argc < 2) return cli_usage_error(cmd, "missing importer (fio, cdm or kdm)");
  const struct import_format *imp = import_find(argv[1]);
  if (!imp) return cli_usage_error(cmd, "unknown importer '%s' (fio, cdm or kdm)", argv[1]);
  struct import_opts o;
  import_opts_defaults(&o);
  enum { O_OUT = 1000, O_LABEL, O_MODEL, O_FIRMWARE, O_STATE, O_DUTJSON, O_OWN };
  enum { NGEN = 6 }; /* generic options before the importers' own */
  /* the generic options, then every importer's own (so that another
   * importer's option is named as such, not as unknown) */
  struct option longopts[NGEN + 32 + 1] = {
      {"out", required_argument, NULL, O_OUT},         {"label", required_argument, NULL, O_LABEL},
      {"model", required_argument, NULL, O_MODEL},     {"firmware", required_argument, NULL, O_FIRMWARE},
      {"state", required_argument, NULL, O_STATE},     {"dut-json", required_argument, NULL, O_DUTJSON},
  };
  const char *dut_json = NULL;
  const struct import_format *owner[32];
  size_t nl = NGEN;
  for (const struct import_format *i = import_formats; i->name; i++)
    for (const struct import_option *op = i->options; op && op->name && nl < NGEN + 32; op++) {
      int dup = 0;
      for (size_t k = NGEN; k < nl; k++) dup |= !strcmp(longopts[k].name, op->name);
      if (dup && i != imp) continue;
      owner[nl - NGEN] = i;
      longopts[nl] = (struct option){op->name, op->has_arg ? required_argument : no_argument, NULL,
                                     O_OWN + (int)(nl - NGEN)};
      nl++;
    }
  longopts[nl] = (struct option){NULL, 0, NULL, 0};
  optind = 1;
  opterr = 0;
  int c;
  /* argv + 1: the importer name plays argv[0] for getopt */
  while ((c = getopt_long(argc - 1, argv + 1, ":", longopts, NULL)) != -1) {
    /* getopt runs on argv + 1, so argv[optind] is the element it just read */
    const char *bad = argv[optind];
    switch (c) {
    case O_OUT: o.out_dir = optarg; break;
    case O_LABEL: o.label = optarg; break;
    case O_MODEL: o.model = optarg; break;
    case O_FIRMWARE: o.firmware = optarg; break;
    case O_STATE: o.state = optarg; break;
    case O_DUTJSON: dut_json = optarg; break;
    case ':': return cli_usage_error(cmd, "option '%s' needs a value", bad);
    case '?': return cli_usage_error(cmd, "unknown option '%s'", bad);
    default: {
      size_t k = (size_t)(c - O_OWN);
      if (c < O_OWN || k >= nl - NGEN) return cli_usage_error(cmd, "unknown option '%s'", bad);
      const char *name = longopts[NGEN + k].name;
      if (owner[k] != imp) return cli_usage_error(cmd, "option '--%s' applies to %s imports only", name, owner[k]->name);
      struct ssdrev_err e = {{0}};
      if (import_option_set(imp, &o, name, optarg, &e)) return cli_usage_error(cmd, "%s", e.msg);
    }
    }
  }
  int nargs = argc - 1 - optind;
  if (nargs < 1) return cli_usage_error(cmd, "missing input file");
  if (nargs > MAX_INPUTS) return cli_usage_error(cmd, "at most %d input files", MAX_INPUTS);
  if (!o.out_dir) return cli_usage_error(cmd, "missing --out RUN");
  struct import_input in[MAX_INPUTS];
  for (int k = 0; k < nargs; k++) {
    split_state(argv[1 + optind + k], &in[k]);
    if (in[k].state && o.state)
      return cli_usage_error(cmd, "'%s:%s': a state per file and --state exclude each other", in[k].path, in[k].state);
  }
  struct ssdrev_err err = {{0}};
  json_t *dut = NULL;
  if (dut_json && !(dut = read_dut_json(dut_json, &err))) return cli_error(cmd, "%s", err.msg);
  o.dut = dut;
  struct import_result res;
  int rc = import_files(imp, in, (size_t)nargs, &o, &res, &err);
  json_decref(dut);
  if (rc) return cli_error(cmd, "%s", err.msg);
  /* warnings were recorded in the manifest; show them too (reread only
   * when there are some: a 20,000-job manifest is 400 MB of JSON) */
  struct archive *run;
  if (res.warnings && !archive_open(&run, o.out_dir, &err)) {
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(run->manifest, "import_warnings"), i, w) {
      cli_warn("ssdrev import: ", "warning", "%s", json_string_value(w) ? json_string_value(w) : "");
    }
    archive_free(run);
  }
  if (nargs == 1) printf("imported %u test%s from '%s' into '%s'", res.tests, res.tests == 1 ? "" : "s", in[0].path, o.out_dir);
  else printf("imported %u test%s from %d files into '%s'", res.tests, res.tests == 1 ? "" : "s", nargs, o.out_dir);
  if (res.logs || imp->options) printf(" (%u with per-I/O logs, %llu I/Os)", res.logs, (unsigned long long)res.log_ios);
  printf("\n");
  return 0;
}
