/* cmd_model.c — `ssdrev model`: inspect simulated drive models.
 *   ssdrev model list [DIR]            models in samples/models (or DIR;
 *                                      cli_data_path finds the default)
 *   ssdrev model show MODEL_FILE [--json]  parameters and derived figures */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "sim/sim.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: ssdrev model list [DIR]\n"
          "       ssdrev model show MODEL_FILE [--json]\n\n"
          "Inspect simulated drive models (docs/sim-model.md); use one as a target with\n"
          "sim:MODEL_FILE.\n\n"
          "  list [DIR]   list the model files in DIR (default: samples/models here,\n"
          "               else in $SSDREV_DATA or the installed data directory)\n"
          "  show FILE    print the parameters and the figures that follow from them:\n"
          "               raw die-parallel read IOPS ceiling, SLC cache max/min,\n"
          "               cached and post-cache write speed\n"
          "  --json       show: print one JSON object instead of text\n"
          "  -h, --help   this help\n");
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int model_list(int argc, char **argv) {
  char dflt[4096];
  cli_data_path("samples/models", dflt, sizeof dflt);
  if (argc > 3) return cli_usage_error("model", "unexpected argument '%s'", argv[3]);
  if (argc == 3 && argv[2][0] == '-') return cli_usage_error("model", "unknown option '%s'", argv[2]);
  const char *dir = argc == 3 ? argv[2] : dflt;
  DIR *d = opendir(dir);
  if (!d) return cli_error("model", "cannot open model directory '%s'", dir);
  char *names[256] = {0};
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 256) {
    size_t l = strlen(e->d_name);
    if (l > 6 && !strcmp(e->d_name + l - 6, ".model")) names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_str);
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    struct sim_model m;
    struct ssdrev_err err = {{0}};
    if (sim_model_load(&m, path, &err)) {
      fprintf(stderr, "ssdrev model: error: %s\n", err.msg);
      rc = 1;
    } else {
      struct sim_derived dv;
      sim_model_derive(&m, &dv);
      printf("%-16s %-22s %7.1f GB  %u dies  SLC %.0f-%.0f GiB  %s\n", m.name, m.label,
             m.capacity_bytes / 1e9, dv.dies, m.slc_min_gib, m.slc_max_gib, path);
    }
    free(names[i]);
  }
  return rc;
}

static json_t *model_json(const struct sim_model *m, const struct sim_derived *dv, const struct sim_measured *ms,
                          const struct sim_thermal_measured *th) {
  json_t *o = json_pack(
      "{s:s, s:s, s:b, s:I, s:i, s:f, s:{s:i, s:i, s:i, s:i, s:f, s:i, s:i, s:I}, "
      "s:{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}, "
      "s:{s:f, s:f, s:b, s:f}, s:{s:f, s:I, s:I}}",
      "name", m->name, "label", m->label, "simulated", 1, "capacity_bytes", (json_int_t)m->capacity_bytes,
      "lba_bytes", (int)m->lba_bytes, "link_mb_s", m->link_mb_s,
      "nand", "channels", (int)m->channels, "dies_per_channel", (int)m->dies_per_channel, "planes",
      (int)m->planes, "bits_per_cell", (int)m->bits_per_cell, "channel_mt_s", m->channel_mt_s,
      "page_bytes", (int)m->page_bytes, "dies", (int)dv->dies, "block_bytes", (json_int_t)m->block_bytes,
      "timing_us", "t_read", m->t_read_us, "t_read_step", m->t_read_step_us, "read_jitter",
      m->read_jitter_us, "t_prog_slc", m->t_prog_slc_us, "t_prog_tlc", m->t_prog_tlc_us, "t_erase",
      m->t_erase_us, "suspend", m->suspend_us, "controller", m->controller_us, "write_ack", m->write_ack_us,
      "slc", "max_gib", m->slc_max_gib, "min_gib", m->slc_min_gib, "static_only", m->slc_static_only,
      "fold_mb_s", m->fold_mb_s,
      "faults", "error_rate", m->error_rate, "bad_lba_start", (json_int_t)m->bad_lba_start,
      "bad_lba_count", (json_int_t)m->bad_lba_count);
  if (!o) return NULL;
  json_object_set_new(o, "derived",
                      json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I}", "read_4k_qd1_us", dv->read_4k_us,
                                "raw_read_iops", dv->raw_read_iops, "raw_read_mb_s", dv->raw_read_mb_s,
                                "seq_read_mb_s", dv->seq_read_mb_s, "slc_write_mb_s", ms->slc_write_mb_s,
                                "post_cache_mb_s", ms->post_cache_mb_s, "slc_max_bytes",
                                (json_int_t)dv->slc_max_bytes, "slc_min_bytes", (json_int_t)dv->slc_min_bytes));
  json_object_set_new(json_object_get(o, "derived"), "nand_slc_write_mb_s", json_real(dv->slc_write_mb_s));
  json_object_set_new(json_object_get(o, "derived"), "nand_post_cache_mb_s", json_real(dv->post_cache_mb_s));
  json_object_set_new(json_object_get(o, "derived"), "empty_fill_cliff_bytes",
                      json_integer((json_int_t)ms->empty_fill_cliff_bytes));
  json_object_set_new(o, "dut", sim_model_dut(m));
  if (m->throttle_light_c > 0) { /* only a throttling model has the object: older outputs stay as they were */
    json_t *t = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "idle_c", m->temp_idle_c, "load_c", m->temp_load_c,
                          "light_c", m->throttle_light_c, "light_mb_s", m->throttle_light_mb_s, "heavy_c",
                          m->throttle_heavy_c, "heavy_mb_s", m->throttle_heavy_mb_s, "hyst_c", m->throttle_hyst_c);
    json_object_set_new(t, "measured", json_pack("{s:b, s:f, s:i, s:f, s:f, s:f, s:f}", "throttled", th->throttled,
                                                 "throttle_after_s", th->throttle_after_s, "level", (int)th->level,
                                                 "before_mb_s", th->before_mb_s, "throttled_mb_s", th->throttled_mb_s,
                                                 "temp_at_throttle_c", th->temp_at_throttle_c, "peak_temp_c",
                                                 th->peak_temp_c));
    json_object_set_new(o, "thermal", t);
  }
  struct sim_ftl_facts ff;
  if (sim_model_ftl_facts(m, &ff) == 0)
    json_object_set_new(o, "ftl", json_pack("{s:f, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f}", "op_pct", m->op_pct,
                                            "map_unit_bytes", (json_int_t)ff.map_unit_bytes, "blocks",
                                            (json_int_t)ff.blocks, "spare_blocks", (json_int_t)ff.spare_blocks,
                                            "units_per_block", (json_int_t)ff.units_per_block, "map_bytes",
                                            (json_int_t)ff.map_bytes, "alpha", ff.alpha, "wa_random", ff.wa_random,
                                            "steady_4k_iops", ff.steady_4k_iops));
  if (m->ctrl_cores)
    json_object_set_new(o, "controller", json_pack("{s:i, s:f, s:f}", "cores", (int)m->ctrl_cores, "cmd_us",
                                                   m->ctrl_cmd_us, "max_iops", m->ctrl_cores * 1e6 / m->ctrl_cmd_us));
  return o;
}

static void model_text(const struct sim_model *m, const struct sim_derived *dv, const struct sim_measured *ms,
                       const struct sim_thermal_measured *th) {
  printf("model      %s (%s), simulated\n", m->name, m->label);
  printf("capacity   %llu bytes (%.1f GB), LBA %u B, link %.0f MB/s\n", (unsigned long long)m->capacity_bytes,
         m->capacity_bytes / 1e9, m->lba_bytes, m->link_mb_s);
  printf("NAND       %u channels x %u dies x %u planes = %u dies, %.0f MT/s, %u KiB pages, %u bits/cell\n",
         m->channels, m->dies_per_channel, m->planes, dv->dies, m->channel_mt_s, m->page_bytes / 1024,
         m->bits_per_cell);
  printf("timings    tR %.0f+%.0f/type µs (+0..%.0f ECC), tPROG SLC %.0f / TLC %.0f µs, tBERS %.0f µs,"
         " suspend %.0f µs, controller %.1f µs\n",
         m->t_read_us, m->t_read_step_us, m->read_jitter_us, m->t_prog_slc_us, m->t_prog_tlc_us,
         m->t_erase_us, m->suspend_us, m->controller_us);
  printf("SLC cache  %s, %.1f GiB max (empty drive), %.1f GiB min (near full), folds at %.0f MB/s when idle\n",
         m->slc_static_only ? "static only" : "dynamic", m->slc_max_gib, m->slc_min_gib, m->fold_mb_s);
  if (m->error_rate > 0 || m->bad_lba_count)
    printf("faults     error rate %g, bad LBAs %llu+%llu\n", m->error_rate, (unsigned long long)m->bad_lba_start,
           (unsigned long long)m->bad_lba_count);
  printf("\nderived figures\n");
  printf("  QD1 4K read latency (typical)   %8.1f µs\n", dv->read_4k_us);
  printf("  raw die-parallel 4K read ceiling %7.0f IOPS = %.0f MB/s\n", dv->raw_read_iops, dv->raw_read_mb_s);
  printf("  sequential read                  %7.0f MB/s\n", dv->seq_read_mb_s);
  printf("  SLC cache max / min              %7.1f / %.1f GiB\n", dv->slc_max_bytes / 1073741824.0,
         dv->slc_min_bytes / 1073741824.0);
  printf("  sequential write into SLC        %7.0f MB/s (NAND ceiling %.0f)\n", ms->slc_write_mb_s,
         dv->slc_write_mb_s);
  printf("  post-cache write (direct to TLC) %7.0f MB/s (NAND ceiling %.0f)\n", ms->post_cache_mb_s,
         dv->post_cache_mb_s);
  printf("  cliff of an empty-drive fill     %7.3f GiB\n", ms->empty_fill_cliff_bytes / 1073741824.0);
  if (m->slc_fold_on_shrink)
    printf("  folding-bound write (from %.3f GiB) %5.0f MB/s (the shrinking cache folded as the host writes)\n",
           ms->empty_fill_fold_bytes / 1073741824.0, ms->fold_bound_mb_s);
  printf("  (write speeds: the timing itself, 128 KiB QD32 on an empty drive, incl. the write buffer)\n");
  if (m->throttle_light_c > 0) {
    printf("\nthermal    %.0f °C idle, +%.0f °C at full NAND load; throttles at %.0f °C to %.0f MB/s", m->temp_idle_c,
           m->temp_load_c, m->throttle_light_c, m->throttle_light_mb_s);
    if (m->throttle_heavy_c > 0) printf(", at %.0f °C to %.0f MB/s", m->throttle_heavy_c, m->throttle_heavy_mb_s);
    printf(" (hysteresis %.1f °C)\n", m->throttle_hyst_c);
    if (th->throttled)
      printf("  sustained write from idle: throttles after %.1f s at %.1f °C, %.0f MB/s before, %.0f MB/s "
             "throttled (level %u), peak %.1f °C\n",
             th->throttle_after_s, th->temp_at_throttle_c, th->before_mb_s, th->throttled_mb_s, th->level,
             th->peak_temp_c);
    else
      printf("  sustained write from idle: no throttle within %.0f s (peak %.1f °C)\n", SIM_THERMAL_MEASURE_MAX_S,
             th->peak_temp_c);
  }
  struct sim_ftl_facts ff;
  if (sim_model_ftl_facts(m, &ff) == 0) { /* only an FTL model prints these: older outputs stay as they were */
    printf("\nFTL        page-mapped, %llu KiB units, %.1f%% spare: %llu blocks of %llu units (%llu spare), maps %.1f MiB\n",
           (unsigned long long)(ff.map_unit_bytes / 1024), m->op_pct, (unsigned long long)ff.blocks,
           (unsigned long long)ff.units_per_block, (unsigned long long)ff.spare_blocks, ff.map_bytes / 1048576.0);
    printf("  greedy GC, uniform random writes: WA %.2f (physical / user units %.4f), steady 4K random write %.0f IOPS "
           "(NAND-bound)\n", ff.wa_random, ff.alpha, ff.steady_4k_iops);
  }
  if (m->ctrl_cores)
    printf("controller %u cores x %.1f µs per command: at most %.0f commands per second\n", m->ctrl_cores, m->ctrl_cmd_us,
           m->ctrl_cores * 1e6 / m->ctrl_cmd_us);
  if (m->dut_model[0]) printf("\nDUT        %s, firmware %s, NVMe %s, %s\n", m->dut_model,
                              m->dut_firmware[0] ? m->dut_firmware : "?",
                              m->dut_nvme_version[0] ? m->dut_nvme_version : "?",
                              m->dut_controller[0] ? m->dut_controller : "controller ?");
}

static int model_show(int argc, char **argv) {
  const char *path = NULL;
  int as_json = 0;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) as_json = 1;
    else if (argv[i][0] == '-') return cli_usage_error("model", "unknown option '%s'", argv[i]);
    else if (!path) path = argv[i];
    else return cli_usage_error("model", "unexpected argument '%s'", argv[i]);
  }
  if (!path) return cli_usage_error("model", "show needs a MODEL_FILE");
  char pbuf[4200];
  if (cli_data_path(path, pbuf, sizeof pbuf) == 0) path = pbuf;
  struct sim_model m;
  struct ssdrev_err err = {{0}};
  if (sim_model_load(&m, path, &err)) return cli_error("model", "%s", err.msg);
  struct sim_derived dv;
  sim_model_derive(&m, &dv);
  struct sim_measured ms;
  if (sim_model_measure(&m, &ms, &err)) return cli_error("model", "%s", err.msg);
  struct sim_thermal_measured th;
  if (sim_model_measure_thermal(&m, &th, &err)) return cli_error("model", "%s", err.msg);
  if (!as_json) {
    model_text(&m, &dv, &ms, &th);
    return 0;
  }
  json_t *o = model_json(&m, &dv, &ms, &th);
  if (!o) return cli_error("model", "cannot build JSON for '%s'", path);
  char *txt = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
  json_decref(o);
  if (!txt) return cli_error("model", "cannot build JSON for '%s'", path);
  puts(txt);
  free(txt);
  return 0;
}

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
} subs[] = {{"list", model_list}, {"show", model_show}};

int cmd_model(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) {
    usage(stdout);
    return 0;
  }
  if (argc < 2) return cli_usage_error("model", "missing subcommand (list or show)");
  for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
    if (!strcmp(argv[1], subs[i].name)) return subs[i].run(argc, argv);
  return cli_usage_error("model", "unknown subcommand '%s' (list or show)", argv[1]);
}
