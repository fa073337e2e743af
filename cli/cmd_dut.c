/* cmd_dut.c — `ssdrev dut`: the review's DUT summary from nvme-cli / smartctl
 * JSON files, or read-only from a device (nvme id-ctrl, smart-log, smartctl
 * and sysfs). Prints the review's DUT table, or the summary as JSON. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "import/import.h"
#include "bench/bench.h"

static const char usage_text[] =
    "usage: ssdrev dut [--id-ctrl F] [--smart-log F] [--smartctl F] [options]\n"
    "       ssdrev dut /dev/nvmeXnY [options]\n"
    "\n"
    "Prints the review's DUT summary (model, link, NVMe version, firmware, LBA\n"
    "size, warning / critical temperature, power states) from the JSON output of\n"
    "`nvme id-ctrl -o json`, `nvme smart-log -o json` and `smartctl -a -j`, or by\n"
    "running those read-only commands on a device (and reading its sysfs link).\n"
    "\n"
    "options:\n"
    "  --id-ctrl F         nvme-cli id-ctrl JSON\n"
    "  --smart-log F       nvme-cli smart-log JSON\n"
    "  --smartctl F        smartctl -a -j JSON\n"
    "  --overrides F       JSON object of fields no tool reports, e.g.\n"
    "                      {\"controller\": \"Samsung Phoenix\", \"media\": \"Samsung V4 TLC\"}\n"
    "  --label TEXT        drive label shown in the title, e.g. \"PM981 256GB\"\n"
    "  --include-serial    show the serial number (left out by default)\n"
    "  --json              print the summary as JSON (docs/archive.md \"dut\")\n";

enum { OPT_IDCTRL = 256, OPT_SMARTLOG, OPT_SMARTCTL, OPT_OVERRIDES, OPT_LABEL, OPT_SERIAL, OPT_JSON };

static const struct option long_opts[] = {
    {"id-ctrl", required_argument, NULL, OPT_IDCTRL},
    {"smart-log", required_argument, NULL, OPT_SMARTLOG},
    {"smartctl", required_argument, NULL, OPT_SMARTCTL},
    {"overrides", required_argument, NULL, OPT_OVERRIDES},
    {"label", required_argument, NULL, OPT_LABEL},
    {"include-serial", no_argument, NULL, OPT_SERIAL},
    {"json", no_argument, NULL, OPT_JSON},
    {NULL, 0, NULL, 0},
};

static const char *str(const json_t *dut, const char *key) {
  const char *s = json_string_value(json_object_get(dut, key));
  return s ? s : "-";
}

/* "7.02W" as the review writes power; small powers keep four decimals. */
static void fmt_power(double w, char *buf, size_t len) {
  snprintf(buf, len, w >= 1 ? "%.2fW" : "%.4fW", w);
}

static void print_table(const json_t *dut, const char *label) {
  printf("%s", str(dut, "model"));
  if (label) printf(" [%s]", label);
  printf("\n");
  char v[64], lba[32], wt[32], ct[32];
  snprintf(v, sizeof v, "%s%s", json_object_get(dut, "nvme_version") ? "NVMe " : "", str(dut, "nvme_version"));
  if (json_is_integer(json_object_get(dut, "lba_bytes")))
    snprintf(lba, sizeof lba, "%lldB", (long long)json_integer_value(json_object_get(dut, "lba_bytes")));
  else snprintf(lba, sizeof lba, "-");
  if (json_is_integer(json_object_get(dut, "warn_temp_c")))
    snprintf(wt, sizeof wt, "%lld °C", (long long)json_integer_value(json_object_get(dut, "warn_temp_c")));
  else snprintf(wt, sizeof wt, "-");
  if (json_is_integer(json_object_get(dut, "crit_temp_c")))
    snprintf(ct, sizeof ct, "%lld °C", (long long)json_integer_value(json_object_get(dut, "crit_temp_c")));
  else snprintf(ct, sizeof ct, "-");
  printf("  %-15s %-22s %-15s %s\n", "Link", str(dut, "link"), "NVMe Version", v);
  printf("  %-15s %-22s %-15s %s\n", "Firmware", str(dut, "firmware"), "LBA Size", lba);
  printf("  %-15s %-22s %-15s %s\n", "Controller", str(dut, "controller"), "Warning Temp", wt);
  printf("  %-15s %-22s %-15s %s\n", "Storage Media", str(dut, "media"), "Critical Temp", ct);
  if (json_object_get(dut, "serial")) printf("  %-15s %s\n", "Serial", str(dut, "serial"));
  const json_t *ps = json_object_get(dut, "power_states");
  if (json_array_size(ps)) {
    printf("  %-15s %-22s %-15s %s\n", "Power State", "Maximum Power", "Entry Latency", "Exit Latency");
    size_t i;
    json_t *p;
    json_array_foreach(ps, i, p) {
      char name[16], pw[32], en[32], ex[32];
      snprintf(name, sizeof name, "PS%lld", (long long)json_integer_value(json_object_get(p, "ps")));
      fmt_power(json_number_value(json_object_get(p, "max_power_w")), pw, sizeof pw);
      snprintf(en, sizeof en, "%lldµs", (long long)json_integer_value(json_object_get(p, "entry_lat_us")));
      snprintf(ex, sizeof ex, "%lldµs", (long long)json_integer_value(json_object_get(p, "exit_lat_us")));
      printf("  %-15s %-22s %-16s %s\n", name, pw, en, ex);
    }
  }
}

static int load_text(const char *cmd, const char *path, char **out) {
  struct ssdrev_err err = {{0}};
  size_t len;
  if (!path) return 0;
  if (ssdrev_read_file(path, out, &len, 16u << 20, &err)) return cli_error(cmd, "%s", err.msg);
  return 0;
}

int cmd_dut(int argc, char **argv) {
  const char *cmd = argv[0];
  if (cli_wants_help(argc, argv)) {
    fputs(usage_text, stdout);
    return 0;
  }
  const char *files[3] = {NULL, NULL, NULL}, *overrides = NULL, *label = NULL;
  int serial = 0, as_json = 0, c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":", long_opts, NULL)) != -1) {
    const char *opt = argv[optind - 1];
    switch (c) {
    case OPT_IDCTRL: files[0] = optarg; break;
    case OPT_SMARTLOG: files[1] = optarg; break;
    case OPT_SMARTCTL: files[2] = optarg; break;
    case OPT_OVERRIDES: overrides = optarg; break;
    case OPT_LABEL: label = optarg; break;
    case OPT_SERIAL: serial = 1; break;
    case OPT_JSON: as_json = 1; break;
    case ':': return cli_usage_error(cmd, "option '%s' needs a value", opt);
    default: return cli_usage_error(cmd, "unknown option '%s'", opt);
    }
  }
  const char *dev = optind < argc ? argv[optind] : NULL;
  if (optind + 1 < argc) return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind + 1]);
  int have_files = files[0] || files[1] || files[2];
  if (dev && have_files) return cli_usage_error(cmd, "give a DEVICE or --id-ctrl/--smart-log/--smartctl files, not both");
  if (!dev && !have_files) return cli_usage_error(cmd, "give a DEVICE or at least one of --id-ctrl, --smart-log, --smartctl");

  struct ssdrev_err err = {{0}};
  json_t *dut = NULL;
  if (dev) {
    dut = bench_dut_collect(dev, serial, NULL, &err);
    if (!dut) return cli_error(cmd, "%s", err.msg);
    if (json_object_size(dut) == 0) {
      json_decref(dut);
      return cli_error(cmd, "no DUT info for '%s' (nvme-cli / smartctl missing or not an NVMe device?)", dev);
    }
  } else {
    char *text[3] = {NULL, NULL, NULL};
    int rc = 0;
    for (int i = 0; i < 3 && !rc; i++) rc = load_text(cmd, files[i], &text[i]);
    if (!rc && !(dut = import_dut_parse_named(text[0], text[1], text[2], files, serial, &err)))
      rc = cli_error(cmd, "%s", err.msg);
    for (int i = 0; i < 3; i++) free(text[i]);
    if (rc) return rc;
  }
  if (overrides) {
    json_t *ov = ssdrev_load_json(overrides, &err);
    if (!ov || !json_is_object(ov)) {
      json_decref(ov);
      json_decref(dut);
      return cli_error(cmd, "%s", err.msg[0] ? err.msg : "--overrides: not a JSON object");
    }
    int rc = import_dut_apply_overrides(dut, ov, overrides, &err);
    json_decref(ov);
    if (rc) {
      json_decref(dut);
      return cli_error(cmd, "%s", err.msg);
    }
  }
  if (as_json) {
    if (label) json_object_set_new(dut, "label", json_string(label));
    /* 10 significant digits, as the files ssdrev saves (base/common.c): a
     * power of 7.02 W prints as 7.02, not 7.0199999999999996 */
    char *s = json_dumps(dut, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (s) puts(s);
    free(s);
  } else {
    print_table(dut, label);
  }
  json_decref(dut);
  return 0;
}
