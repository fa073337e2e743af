/* model.c — the simulated drive's model file: a documented
 * `key = value` text (docs/sim-model.md) parsed through one table of keys,
 * the DUT summary it carries, and the figures that follow from it. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sim/sim.h"
#include "sim/sim_int.h"

enum key_kind { K_UINT, K_U64, K_SIZE, K_DBL, K_BOOL, K_STR };

struct model_key {
  const char *key;
  enum key_kind kind;
  size_t off;      /* offset in struct sim_model */
  size_t str_len;  /* K_STR: buffer size */
  int required;
  double min, max; /* numeric range, inclusive */
};

#define F(field) offsetof(struct sim_model, field)
#define STR(k, field) {k, K_STR, F(field), sizeof(((struct sim_model *)0)->field), 0, 0, 0}
static const struct model_key keys[] = {
    STR("name", name),
    STR("label", label),
    {"capacity_bytes", K_SIZE, F(capacity_bytes), 0, 1, 1 << 20, 1e15},
    {"lba_bytes", K_UINT, F(lba_bytes), 0, 1, 512, 4096},
    {"link_mb_s", K_DBL, F(link_mb_s), 0, 1, 1, 1e5},
    {"channels", K_UINT, F(channels), 0, 1, 1, 64},
    {"dies_per_channel", K_UINT, F(dies_per_channel), 0, 1, 1, 64},
    {"planes", K_UINT, F(planes), 0, 1, 1, 8},
    {"channel_mt_s", K_DBL, F(channel_mt_s), 0, 1, 1, 1e5},
    {"page_bytes", K_SIZE, F(page_bytes), 0, 1, 4096, 1 << 20},
    {"bits_per_cell", K_UINT, F(bits_per_cell), 0, 0, 1, 4},
    {"block_bytes", K_SIZE, F(block_bytes), 0, 1, 65536, 1e12},
    {"t_read_us", K_DBL, F(t_read_us), 0, 1, 1, 1e5},
    {"t_read_step_us", K_DBL, F(t_read_step_us), 0, 0, 0, 1e5},
    {"read_jitter_us", K_DBL, F(read_jitter_us), 0, 0, 0, 1e5},
    {"read_retry_prob", K_DBL, F(read_retry_prob), 0, 0, 0, 1},
    {"t_prog_slc_us", K_DBL, F(t_prog_slc_us), 0, 1, 1, 1e6},
    {"t_prog_tlc_us", K_DBL, F(t_prog_tlc_us), 0, 1, 1, 1e6},
    {"t_erase_us", K_DBL, F(t_erase_us), 0, 1, 1, 1e6},
    {"erase_jitter_pct", K_DBL, F(erase_jitter_pct), 0, 0, 0, 99},
    {"suspend_us", K_DBL, F(suspend_us), 0, 0, 0, 1e6},
    {"gc_steps_per_gib", K_DBL, F(gc_steps_per_gib), 0, 0, 0, 1e6},
    {"gc_free_pct", K_DBL, F(gc_free_pct), 0, 0, 0.1, 100},
    {"gc_copies", K_UINT, F(gc_copies), 0, 0, 0, 4096},
    {"gc_copy_us", K_DBL, F(gc_copy_us), 0, 0, 0, 1e6},
    {"controller_us", K_DBL, F(controller_us), 0, 1, 0, 1e5},
    {"write_ack_us", K_DBL, F(write_ack_us), 0, 0, 0, 1e5},
    {"write_jitter_us", K_DBL, F(write_jitter_us), 0, 0, 0, 1e5},
    {"write_stall_prob", K_DBL, F(write_stall_prob), 0, 0, 0, 1},
    {"write_stall_min_us", K_DBL, F(write_stall_min_us), 0, 0, 0, 1e6},
    {"write_stall_max_us", K_DBL, F(write_stall_max_us), 0, 0, 0, 1e6},
    {"write_buffer_bytes", K_SIZE, F(write_buffer_bytes), 0, 0, 65536, 1e11},
    {"slc_max_gib", K_DBL, F(slc_max_gib), 0, 0, 0, 1e5},
    {"slc_min_gib", K_DBL, F(slc_min_gib), 0, 1, 0, 1e5},
    {"slc_static_only", K_BOOL, F(slc_static_only), 0, 0, 0, 1},
    {"fold_mb_s", K_DBL, F(fold_mb_s), 0, 0, 0, 1e5},
    {"slc_fold_on_shrink", K_BOOL, F(slc_fold_on_shrink), 0, 0, 0, 1},
    {"error_rate", K_DBL, F(error_rate), 0, 0, 0, 1},
    {"bad_lba_start", K_U64, F(bad_lba_start), 0, 0, 0, 1e18},
    {"bad_lba_count", K_U64, F(bad_lba_count), 0, 0, 0, 1e18},
    {"temp_idle_c", K_DBL, F(temp_idle_c), 0, 0, -40, 200},
    {"temp_load_c", K_DBL, F(temp_load_c), 0, 0, 0, 200},
    {"temp_warn_c", K_DBL, F(temp_warn_c), 0, 0, 0, 200},
    {"temp_crit_c", K_DBL, F(temp_crit_c), 0, 0, 0, 200},
    {"throttle_light_c", K_DBL, F(throttle_light_c), 0, 0, 0, 200},
    {"throttle_heavy_c", K_DBL, F(throttle_heavy_c), 0, 0, 0, 200},
    {"throttle_light_mb_s", K_DBL, F(throttle_light_mb_s), 0, 0, 1, 1e5},
    {"throttle_heavy_mb_s", K_DBL, F(throttle_heavy_mb_s), 0, 0, 1, 1e5},
    {"throttle_hyst_c", K_DBL, F(throttle_hyst_c), 0, 0, 0, 50},
    {"op_pct", K_DBL, F(op_pct), 0, 0, 0, 400},
    {"map_unit_bytes", K_SIZE, F(map_unit_bytes), 0, 0, 4096, 1 << 20},
    {"ctrl_cores", K_UINT, F(ctrl_cores), 0, 0, 0, SIM_CTRL_MAX_CORES},
    {"ctrl_cmd_us", K_DBL, F(ctrl_cmd_us), 0, 0, 0, 1e4},
    STR("dut.model", dut_model),
    STR("dut.firmware", dut_firmware),
    STR("dut.link", dut_link),
    STR("dut.nvme_version", dut_nvme_version),
    STR("dut.controller", dut_controller),
    STR("dut.media", dut_media),
};
#undef F
#undef STR
#define NKEYS (sizeof keys / sizeof keys[0])

static void model_defaults(struct sim_model *m) {
  memset(m, 0, sizeof *m);
  m->bits_per_cell = 3;
  m->erase_jitter_pct = 0;
  m->write_ack_us = 10;
  m->write_buffer_bytes = 8u << 20;
  m->fold_mb_s = 500;
  m->gc_free_pct = 15;
  m->temp_idle_c = 35;
  m->temp_load_c = 20;
  m->throttle_hyst_c = 2;
  m->map_unit_bytes = SIM_UNIT_BYTES;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
  return s;
}

/* A byte size, as everywhere in ssdrev (ssdrev_parse_size). */
static int parse_size(const char *v, double *out) {
  uint64_t b;
  int rc = ssdrev_parse_size(v, &b);
  if (rc == 0) *out = (double)b;
  return rc;
}

static int parse_number(const struct model_key *k, const char *v, double *out) {
  char *end;
  if (k->kind == K_SIZE) return parse_size(v, out);
  if (k->kind == K_BOOL) {
    if (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true")) *out = 1;
    else if (!strcmp(v, "0") || !strcasecmp(v, "no") || !strcasecmp(v, "false")) *out = 0;
    else return -EINVAL;
    return 0;
  }
  errno = 0;
  if (k->kind == K_DBL) {
    double d = strtod(v, &end);
    if (errno || end == v || *end || !isfinite(d)) return -EINVAL;
    *out = d;
    return 0;
  }
  if (!isdigit((unsigned char)*v)) return -EINVAL;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno || *end) return -EINVAL;
  *out = (double)n;
  return 0;
}

static void store(struct sim_model *m, const struct model_key *k, double d, const char *v) {
  char *p = (char *)m + k->off;
  switch (k->kind) {
  case K_UINT:
    if (k->off == offsetof(struct sim_model, lba_bytes) ||
        k->off == offsetof(struct sim_model, page_bytes))
      *(uint32_t *)p = (uint32_t)d;
    else *(unsigned *)p = (unsigned)d;
    break;
  case K_U64: *(uint64_t *)p = (uint64_t)d; break;
  case K_SIZE:
    if (k->off == offsetof(struct sim_model, page_bytes)) *(uint32_t *)p = (uint32_t)d;
    else *(uint64_t *)p = (uint64_t)d;
    break;
  case K_DBL: *(double *)p = d; break;
  case K_BOOL: *(int *)p = (int)d; break;
  case K_STR: snprintf(p, k->str_len, "%s", v); break;
  }
}

/* power_state = MAX_POWER_W ENTRY_LAT_US EXIT_LAT_US, once per state, PS0 first. */
static int parse_power_state(struct sim_model *m, char *v) {
  if (m->n_power_states >= SIM_MAX_POWER_STATES) return -E2BIG;
  double f[3];
  char *p = v;
  for (int i = 0; i < 3; i++) {
    char *end;
    errno = 0;
    f[i] = strtod(p, &end);
    if (errno || end == p || !isfinite(f[i]) || f[i] < 0) return -EINVAL;
    p = end;
  }
  if (*trim(p)) return -EINVAL;
  m->power_states[m->n_power_states].max_power_w = f[0];
  m->power_states[m->n_power_states].entry_lat_us = f[1];
  m->power_states[m->n_power_states].exit_lat_us = f[2];
  m->n_power_states++;
  return 0;
}

static const char *base_name(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* Cross-field rules that a single key's range cannot express. */
static int model_validate(struct sim_model *m, const char *file, struct ssdrev_err *err) {
  if (m->capacity_bytes % m->lba_bytes || (m->lba_bytes != 512 && m->lba_bytes != 4096))
    return ssdrev_fail(err, -EINVAL, "bad lba_bytes %u in %s: must be 512 or 4096 and divide capacity_bytes",
                       m->lba_bytes, file);
  if (m->page_bytes % SIM_UNIT_BYTES)
    return ssdrev_fail(err, -EINVAL, "bad page_bytes %u in %s: must be a multiple of 4096", m->page_bytes, file);
  if (m->slc_static_only) m->slc_max_gib = m->slc_min_gib;
  if (m->slc_max_gib < m->slc_min_gib)
    return ssdrev_fail(err, -EINVAL, "bad slc_max_gib %g in %s: smaller than slc_min_gib %g",
                       m->slc_max_gib, file, m->slc_min_gib);
  if (m->slc_max_gib * 1073741824.0 * m->bits_per_cell > (double)m->capacity_bytes)
    return ssdrev_fail(err, -EINVAL, "bad slc_max_gib %g in %s: the cache cannot hold more than capacity / bits_per_cell",
                       m->slc_max_gib, file);
  if (m->write_stall_max_us < m->write_stall_min_us)
    return ssdrev_fail(err, -EINVAL, "bad write_stall_max_us %g in %s: smaller than write_stall_min_us",
                       m->write_stall_max_us, file);
  uint64_t unit = (uint64_t)m->page_bytes * m->planes * m->bits_per_cell;
  if (m->write_buffer_bytes < 2 * unit)
    return ssdrev_fail(err, -EINVAL, "bad write_buffer_bytes %llu in %s: must hold two TLC program units (%llu bytes)",
                       (unsigned long long)m->write_buffer_bytes, file, (unsigned long long)(2 * unit));
  if (m->block_bytes < (uint64_t)m->page_bytes * m->planes)
    return ssdrev_fail(err, -EINVAL, "bad block_bytes in %s: smaller than one program unit", file);
  if (m->bad_lba_count && (m->bad_lba_start + m->bad_lba_count) > m->capacity_bytes / m->lba_bytes)
    return ssdrev_fail(err, -EINVAL, "bad bad_lba_start/bad_lba_count in %s: range beyond the capacity", file);
  /* No bad range without a count: the drive's check is "off < end && off +
   * len > start", which an empty range [start, start) still meets for a read
   * that straddles start (bad_lba_start = 100 alone failed reads at 0). */
  if (!m->bad_lba_count) m->bad_lba_start = 0;
  if (m->throttle_light_c > 0 && !(m->throttle_light_mb_s > 0))
    return ssdrev_fail(err, -EINVAL, "missing throttle_light_mb_s in %s: throttle_light_c needs the throttled speed", file);
  if (m->throttle_heavy_c > 0 && (!(m->throttle_light_c > 0) || m->throttle_heavy_c <= m->throttle_light_c ||
                                  !(m->throttle_heavy_mb_s > 0) || m->throttle_heavy_mb_s > m->throttle_light_mb_s))
    return ssdrev_fail(err, -EINVAL,
                       "bad throttle_heavy_c %g in %s: needs throttle_light_c below it and throttle_heavy_mb_s "
                       "no faster than throttle_light_mb_s", m->throttle_heavy_c, file);
  if (m->throttle_light_c > 0 && m->throttle_hyst_c >= m->throttle_light_c - m->temp_idle_c)
    return ssdrev_fail(err, -EINVAL, "bad throttle_hyst_c %g in %s: the drive must cool below the light threshold's exit "
                       "(throttle_light_c - throttle_hyst_c) above temp_idle_c", m->throttle_hyst_c, file);
  if (m->map_unit_bytes & (m->map_unit_bytes - 1))
    return ssdrev_fail(err, -EINVAL, "bad map_unit_bytes %llu in %s: must be a power of two",
                       (unsigned long long)m->map_unit_bytes, file);
  if ((m->ctrl_cores > 0) != (m->ctrl_cmd_us > 0))
    return ssdrev_fail(err, -EINVAL, "bad ctrl_cores / ctrl_cmd_us in %s: the controller limit needs both", file);
  if (m->map_unit_bytes != SIM_UNIT_BYTES && !(m->op_pct > 0))
    return ssdrev_fail(err, -EINVAL, "bad map_unit_bytes in %s: only a page-mapped FTL (op_pct > 0) has one", file);
  if (m->op_pct > 0) {
    struct sim_ftl_geom g;
    const char *why = sim_ftl_geometry(m, &g);
    if (why) return ssdrev_fail(err, -EINVAL, "bad op_pct %g in %s: %s", m->op_pct, file, why);
  }
  if (!m->label[0]) snprintf(m->label, sizeof m->label, "%s", m->name);
  json_t *dut = sim_model_dut(m);
  char *txt = dut ? json_dumps(dut, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
  json_decref(dut);
  if (!txt || strlen(txt) >= sizeof m->extra_json) {
    free(txt);
    return ssdrev_fail(err, -E2BIG, "DUT facts in %s too long (max %zu bytes as JSON)", file,
                       sizeof m->extra_json - 1);
  }
  memcpy(m->extra_json, txt, strlen(txt) + 1);
  free(txt);
  return 0;
}

int sim_model_load(struct sim_model *m, const char *path, struct ssdrev_err *err) {
  char *text = NULL;
  size_t len = 0;
  int rc = ssdrev_read_file(path, &text, &len, 1 << 20, err);
  if (rc) return rc;
  model_defaults(m);
  const char *file = base_name(path);
  snprintf(m->name, sizeof m->name, "%s", file);
  char *dot = strstr(m->name, ".model");
  if (dot && dot[6] == 0) *dot = 0;
  unsigned char seen[NKEYS] = {0};
  int lineno = 0;
  char *save = NULL;
  rc = 0;
  /* Split by hand (strtok_r would merge empty lines and skew line numbers). */
  for (char *line = text; line && !rc; line = save) {
    char *nl = strchr(line, '\n');
    save = nl ? nl + 1 : NULL;
    if (nl) *nl = 0;
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0; /* a comment runs to the end of the line */
    char *s = trim(line);
    if (!*s) continue;
    char *eq = strchr(s, '=');
    if (!eq) {
      rc = ssdrev_fail(err, -EINVAL, "expected 'key = value' at %s:%d", file, lineno);
      break;
    }
    *eq = 0;
    char *key = trim(s), *val = trim(eq + 1);
    if (!strcmp(key, "power_state")) {
      int prc = parse_power_state(m, val);
      if (prc)
        rc = ssdrev_fail(err, prc, "bad power_state '%s' at %s:%d: expected MAX_POWER_W ENTRY_LAT_US EXIT_LAT_US%s",
                         val, file, lineno, prc == -E2BIG ? " (too many states)" : "");
      continue;
    }
    size_t i = 0;
    while (i < NKEYS && strcmp(keys[i].key, key)) i++;
    if (i == NKEYS) {
      rc = ssdrev_fail(err, -EINVAL, "unknown key '%s' at %s:%d", key, file, lineno);
      break;
    }
    if (seen[i]) {
      rc = ssdrev_fail(err, -EINVAL, "duplicate key '%s' at %s:%d", key, file, lineno);
      break;
    }
    seen[i] = 1;
    double d = 0;
    if (keys[i].kind != K_STR) {
      if (parse_number(&keys[i], val, &d)) {
        rc = ssdrev_fail(err, -EINVAL, "bad number '%s' for '%s' at %s:%d", val, key, file, lineno);
        break;
      }
      if (d < keys[i].min || d > keys[i].max) {
        rc = ssdrev_fail(err, -ERANGE, "'%s' = %s out of range [%g, %g] at %s:%d", key, val,
                         keys[i].min, keys[i].max, file, lineno);
        break;
      }
    } else if (strlen(val) >= keys[i].str_len) {
      rc = ssdrev_fail(err, -EINVAL, "value of '%s' too long (max %zu) at %s:%d", key,
                       keys[i].str_len - 1, file, lineno);
      break;
    }
    store(m, &keys[i], d, val);
  }
  free(text);
  if (rc) return rc;
  for (size_t i = 0; i < NKEYS; i++) {
    /* slc_max_gib is required unless the cache is static-only. */
    int req = keys[i].required || (!strcmp(keys[i].key, "slc_max_gib") && !m->slc_static_only);
    if (req && !seen[i])
      return ssdrev_fail(err, -EINVAL, "missing required key '%s' in %s", keys[i].key, file);
  }
  return model_validate(m, file, err);
}

json_t *sim_model_dut(const struct sim_model *m) {
  json_t *o = json_object();
  if (!o) return NULL;
  const struct { const char *k; const char *v; } strs[] = {
      {"model", m->dut_model}, {"firmware", m->dut_firmware}, {"link", m->dut_link},
      {"nvme_version", m->dut_nvme_version},
  };
  for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
    if (strs[i].v[0]) json_object_set_new(o, strs[i].k, json_string(strs[i].v));
  json_object_set_new(o, "lba_bytes", json_integer(m->lba_bytes));
  json_object_set_new(o, "capacity_bytes", json_integer((json_int_t)m->capacity_bytes));
  if (m->dut_controller[0]) json_object_set_new(o, "controller", json_string(m->dut_controller));
  if (m->dut_media[0]) json_object_set_new(o, "media", json_string(m->dut_media));
  if (m->temp_warn_c > 0) json_object_set_new(o, "warn_temp_c", json_real(m->temp_warn_c));
  if (m->temp_crit_c > 0) json_object_set_new(o, "crit_temp_c", json_real(m->temp_crit_c));
  if (m->n_power_states) {
    json_t *ps = json_array();
    for (unsigned i = 0; i < m->n_power_states; i++)
      json_array_append_new(ps, json_pack("{s:i, s:f, s:f, s:f}", "ps", (int)i, "max_power_w",
                                          m->power_states[i].max_power_w, "entry_lat_us",
                                          m->power_states[i].entry_lat_us, "exit_lat_us",
                                          m->power_states[i].exit_lat_us));
    json_object_set_new(o, "power_states", ps);
  }
  return o;
}

void sim_model_derive(const struct sim_model *m, struct sim_derived *d) {
  memset(d, 0, sizeof *d);
  d->dies = m->channels * m->dies_per_channel;
  double ch_us_per_byte = 1.0 / m->channel_mt_s; /* MT/s = bytes per us */
  double link_us_per_byte = 1.0 / m->link_mb_s;
  double sense_avg_us = m->t_read_us + m->t_read_step_us + m->read_jitter_us / 2 +
                        m->read_retry_prob * (m->t_read_us + m->t_read_step_us);
  double xfer4k_us = 4096 * ch_us_per_byte;
  /* a command holds a controller core (the limit) and then its fixed latency */
  d->read_4k_us =
      m->controller_us + (m->ctrl_cores ? m->ctrl_cmd_us : 0) + sense_avg_us + xfer4k_us + 4096 * link_us_per_byte;
  /* Cache reads: a die is held for the sense only, its transfer overlaps
   * the next sense; channels and the link cap the total. */
  double iops = d->dies * 1e6 / sense_avg_us;
  double ch_iops = m->channels * 1e6 / xfer4k_us, link_iops = m->link_mb_s * 1e6 / 4096;
  if (ch_iops < iops) iops = ch_iops;
  if (link_iops < iops) iops = link_iops;
  d->raw_read_iops = iops;
  d->raw_read_mb_s = iops * 4096 / 1e6;
  /* Sequential: one multi-plane sense yields page_bytes x planes. */
  double seq = d->dies * (double)m->page_bytes * m->planes / sense_avg_us; /* bytes/us = MB/s */
  if (seq > m->channels * m->channel_mt_s) seq = m->channels * m->channel_mt_s;
  d->seq_read_mb_s = seq < m->link_mb_s ? seq : m->link_mb_s;
  /* Writes: a die holds a multi-plane unit for transfer + program, and erases
   * one block per block_bytes (SLC-mode bytes) written. */
  double unit = (double)m->page_bytes * m->planes;
  /* derived speeds are for an empty drive, where GC has nothing to collect */
  double gc_us_per_byte = 0;
  double slc_die = unit / (unit * ch_us_per_byte + m->t_prog_slc_us + m->t_erase_us * unit / m->block_bytes +
                           gc_us_per_byte * unit);
  double tlc_unit = unit * m->bits_per_cell;
  double tlc_die = tlc_unit / (tlc_unit * ch_us_per_byte + m->t_prog_tlc_us +
                               m->t_erase_us * unit / m->block_bytes + gc_us_per_byte * tlc_unit);
  double chan = m->channels * m->channel_mt_s;
  d->slc_write_mb_s = fmin(fmin(d->dies * slc_die, chan), m->link_mb_s);
  d->post_cache_mb_s = fmin(fmin(d->dies * tlc_die, chan), m->link_mb_s);
  d->slc_max_bytes = (uint64_t)(m->slc_max_gib * 1073741824.0);
  d->slc_min_bytes = (uint64_t)(m->slc_min_gib * 1073741824.0);
}
