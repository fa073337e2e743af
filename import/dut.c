/* import/dut.c — parses nvme-cli 2.x (`id-ctrl -o json`, `smart-log -o json`) and
 * smartctl 7.x (`-a -j`) JSON into the review's DUT summary (docs/archive.md):
 * model, firmware, NVMe version, LBA size, capacity, warning/critical
 * temperature, power states, health. Fields no input gives stay absent. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "import/import_int.h"

static json_t *parse_text(const char *text, const char *what, struct ssdrev_err *err) {
  json_error_t je;
  json_t *v = json_loads(text, 0, &je);
  if (!v) {
    ssdrev_fail(err, -EINVAL, "cannot parse %s JSON: line %d column %d: %s", what, je.line,
                je.column, je.text);
    return NULL;
  }
  if (!json_is_object(v)) {
    json_decref(v);
    ssdrev_fail(err, -EINVAL, "cannot use %s JSON: not an object", what);
    return NULL;
  }
  return v;
}

/* nvme-cli prints the fixed-width, space-padded identify strings as is. */
static void set_trimmed(json_t *dut, const char *key, const json_t *v) {
  const char *s = json_string_value(v);
  if (!s || json_object_get(dut, key)) return;
  while (*s == ' ') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\0')) n--;
  if (n) json_object_set_new(dut, key, json_stringn(s, n));
}

static void set_if_absent(json_t *dut, const char *key, json_t *v) {
  if (!v) return;
  if (json_object_get(dut, key)) json_decref(v);
  else json_object_set_new(dut, key, v);
}

/* NVMe VER: major in bits 31:16, minor 15:8, tertiary 7:0 ("1.2", "1.2.1"). */
static json_t *nvme_version(json_int_t ver) {
  if (ver <= 0) return NULL;
  unsigned maj = (unsigned)(ver >> 16) & 0xffff, min = (unsigned)(ver >> 8) & 0xff,
           ter = (unsigned)ver & 0xff;
  char b[32];
  if (ter) snprintf(b, sizeof b, "%u.%u.%u", maj, min, ter);
  else snprintf(b, sizeof b, "%u.%u", maj, min);
  return json_string(b);
}

/* V rounded to 1/PER_UNIT: dividing by the exact PER_UNIT (10000) gives the
 * double nearest the decimal (7.02), where multiplying by 1e-4 does not
 * (7.0200000000000005). */
static double round_to(double v, double per_unit) { return round(v * per_unit) / per_unit; }

/* Kelvin from the identify/log pages; 0 means "not reported". */
static json_t *kelvin_to_c(const json_t *v) {
  json_int_t k = json_integer_value(v);
  return k > 0 ? json_integer(k - 273) : NULL;
}

static json_t *power_states(const json_t *psds) {
  json_t *out = json_array();
  size_t i;
  json_t *p;
  json_array_foreach(psds, i, p) {
    json_int_t mp = json_integer_value(json_object_get(p, "max_power"));
    /* MXPS (flags bit 0; nvme-cli 2.x prints it as max_power_scale): the
     * unit of max_power is 0.0001 W instead of 0.01 W. */
    json_int_t flags = json_integer_value(json_object_get(p, "flags"));
    int mxps = (flags & 1) || json_integer_value(json_object_get(p, "max_power_scale")) == 1;
    int nops = (flags & 2) || json_integer_value(json_object_get(p, "non-operational_state")) == 1;
    const json_t *en = json_object_get(p, "entry_lat");
    const json_t *ex = json_object_get(p, "exit_lat");
    if (!en) en = json_object_get(p, "enlat");
    if (!ex) ex = json_object_get(p, "exlat");
    json_t *ps = json_object();
    json_object_set_new(ps, "ps", json_integer((json_int_t)i));
    json_object_set_new(ps, "max_power_w", json_real(round_to((double)mp * (mxps ? 1e-4 : 1e-2), 1e4)));
    json_object_set_new(ps, "entry_lat_us", json_integer(json_integer_value(en)));
    json_object_set_new(ps, "exit_lat_us", json_integer(json_integer_value(ex)));
    json_object_set_new(ps, "non_operational", json_boolean(nops));
    json_array_append_new(out, ps);
  }
  return out;
}

static void from_id_ctrl(json_t *dut, const json_t *c, int include_serial) {
  set_trimmed(dut, "model", json_object_get(c, "mn"));
  set_trimmed(dut, "firmware", json_object_get(c, "fr"));
  if (include_serial) set_trimmed(dut, "serial", json_object_get(c, "sn"));
  set_if_absent(dut, "nvme_version", nvme_version(json_integer_value(json_object_get(c, "ver"))));
  double cap = 0; /* 128-bit: a number, or a decimal string (import_dut_counter) */
  if (import_dut_counter(json_object_get(c, "tnvmcap"), &cap) && cap > 0 && cap < 9223372036854775808.0)
    set_if_absent(dut, "capacity_bytes", json_integer((json_int_t)cap));
  set_if_absent(dut, "warn_temp_c", kelvin_to_c(json_object_get(c, "wctemp")));
  set_if_absent(dut, "crit_temp_c", kelvin_to_c(json_object_get(c, "cctemp")));
  json_int_t vid = json_integer_value(json_object_get(c, "vid"));
  if (vid > 0) {
    char b[16];
    snprintf(b, sizeof b, "0x%04x", (unsigned)vid);
    set_if_absent(dut, "pci_vendor_id", json_string(b));
  }
  const json_t *psds = json_object_get(c, "psds");
  if (json_is_array(psds) && json_array_size(psds))
    set_if_absent(dut, "power_states", power_states(psds));
}

static void from_smartctl(json_t *dut, const json_t *s, int include_serial) {
  set_trimmed(dut, "model", json_object_get(s, "model_name"));
  set_trimmed(dut, "firmware", json_object_get(s, "firmware_version"));
  if (include_serial) set_trimmed(dut, "serial", json_object_get(s, "serial_number"));
  const json_t *ver = json_object_get(s, "nvme_version");
  if (json_string_value(json_object_get(ver, "string")))
    set_if_absent(dut, "nvme_version", json_string(json_string_value(json_object_get(ver, "string"))));
  else
    set_if_absent(dut, "nvme_version", nvme_version(json_integer_value(json_object_get(ver, "value"))));
  json_int_t lba = json_integer_value(json_object_get(s, "logical_block_size"));
  if (lba > 0) set_if_absent(dut, "lba_bytes", json_integer(lba));
  json_int_t cap = json_integer_value(json_object_get(json_object_get(s, "user_capacity"), "bytes"));
  if (cap <= 0) cap = json_integer_value(json_object_get(s, "nvme_total_capacity"));
  if (cap > 0) set_if_absent(dut, "capacity_bytes", json_integer(cap));
  json_int_t vid = json_integer_value(json_object_get(json_object_get(s, "nvme_pci_vendor"), "id"));
  if (vid > 0) {
    char b[16];
    snprintf(b, sizeof b, "0x%04x", (unsigned)vid);
    set_if_absent(dut, "pci_vendor_id", json_string(b));
  }
  const char *proto = json_string_value(json_object_get(json_object_get(s, "device"), "protocol"));
  if (proto) set_if_absent(dut, "protocol", json_string(proto));
}

/* Health from the SMART / Health log: nvme-cli (temperature in Kelvin, data
 * units of 1000 x 512 bytes) or smartctl's copy (Celsius). */
static json_t *health(const json_t *sl, const json_t *sc) {
  json_t *h = json_object();
  const json_t *smart = json_object_get(sc, "nvme_smart_health_information_log");
  struct { const char *key, *nvme, *sctl; double mult; } f[] = {
      {"percent_used", "percent_used", "percentage_used", 1},
      {"available_spare_pct", "avail_spare", "available_spare", 1},
      {"data_read_bytes", "data_units_read", "data_units_read", 512000.0},
      {"data_written_bytes", "data_units_written", "data_units_written", 512000.0},
      {"power_on_hours", "power_on_hours", "power_on_hours", 1},
      {"power_cycles", "power_cycles", "power_cycles", 1},
      {"unsafe_shutdowns", "unsafe_shutdowns", "unsafe_shutdowns", 1},
      {"media_errors", "media_errors", "media_errors", 1},
      {"critical_warning", "critical_warning", "critical_warning", 1},
  };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    double x;
    if (!import_dut_counter(json_object_get(sl, f[i].nvme), &x) &&
        !import_dut_counter(json_object_get(smart, f[i].sctl), &x))
      continue;
    x *= f[i].mult;
    /* Counters are unsigned; one beyond json_int_t (9.2e18: 9 EB of data
     * units) is not a real drive's, and casting it would be undefined
     * behaviour: such a field is left out, as if the log lacked it. */
    if (!(x >= 0 && x < 9223372036854775808.0)) continue;
    json_object_set_new(h, f[i].key, json_integer((json_int_t)x));
  }
  json_int_t t = json_integer_value(json_object_get(sl, "temperature"));
  /* nvme-cli prints Kelvin; a value that cannot be Kelvin is Celsius
   * already (some builds convert). */
  if (t > 200) json_object_set_new(h, "temp_c", json_integer(t - 273));
  else if (t > 0) json_object_set_new(h, "temp_c", json_integer(t));
  else if (json_is_integer(json_object_get(json_object_get(sc, "temperature"), "current")))
    json_object_set_new(h, "temp_c", json_integer(json_integer_value(
                                         json_object_get(json_object_get(sc, "temperature"), "current"))));
  if (json_object_size(h) == 0) {
    json_decref(h);
    return NULL;
  }
  return h;
}

json_t *import_dut_parse(const char *id_ctrl_json, const char *smart_log_json,
                        const char *smartctl_json, int include_serial, struct ssdrev_err *err) {
  return import_dut_parse_named(id_ctrl_json, smart_log_json, smartctl_json, NULL, include_serial, err);
}

json_t *import_dut_parse_named(const char *id_ctrl_json, const char *smart_log_json, const char *smartctl_json,
                              const char *const names[3], int include_serial, struct ssdrev_err *err) {
  static const char *const dflt[3] = {"the id-ctrl text", "the smart-log text", "the smartctl text"};
  char nm[3][600];
  for (int i = 0; i < 3; i++) {
    if (names && names[i]) snprintf(nm[i], sizeof nm[i], "'%s'", names[i]);
    else snprintf(nm[i], sizeof nm[i], "%s", dflt[i]);
  }
  if (!id_ctrl_json && !smart_log_json && !smartctl_json) {
    ssdrev_fail(err, -EINVAL, "no DUT input: give nvme id-ctrl, smart-log or smartctl JSON");
    return NULL;
  }
  json_t *c = NULL, *sl = NULL, *sc = NULL, *dut = NULL;
  if (id_ctrl_json && !(c = parse_text(id_ctrl_json, "nvme id-ctrl", err))) goto out;
  if (smart_log_json && !(sl = parse_text(smart_log_json, "nvme smart-log", err))) goto out;
  if (smartctl_json && !(sc = parse_text(smartctl_json, "smartctl", err))) goto out;
  if (c && !json_object_get(c, "mn") && !json_object_get(c, "psds")) {
    ssdrev_fail(err, -EINVAL, "cannot use nvme id-ctrl JSON %s: no 'mn' or 'psds' (is it `nvme id-ctrl -o json` output?)",
                nm[0]);
    goto out;
  }
  if (c && import_dut_check_id_ctrl(c, nm[0], err)) goto out;
  if (sl && import_dut_check_smart_log(sl, nm[1], err)) goto out;
  if (sc && !json_object_get(sc, "smartctl") && !json_object_get(sc, "model_name")) {
    ssdrev_fail(err, -EINVAL, "cannot use smartctl JSON: no 'smartctl' or 'model_name' (is it `smartctl -a -j` output?)");
    goto out;
  }
  dut = json_object();
  /* nvme-cli first: it has the power states and thresholds smartctl's JSON
   * leaves out; smartctl fills LBA size and the rest. */
  if (c) from_id_ctrl(dut, c, include_serial);
  if (sc) from_smartctl(dut, sc, include_serial);
  json_t *h = health(sl, sc);
  if (h) json_object_set_new(dut, "health", h);
out:
  json_decref(c);
  json_decref(sl);
  json_decref(sc);
  return dut;
}

int import_dut_apply_overrides(json_t *dut, const json_t *overrides, const char *name, struct ssdrev_err *err) {
  char nm[600];
  snprintf(nm, sizeof nm, "'%s'", name ? name : "overrides");
  /* all keys checked before any is applied: a bad file changes nothing */
  int rc = import_dut_check_overrides(overrides, nm, err);
  if (rc) return rc;
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)overrides, key, v) json_object_set(dut, key, v);
  return 0;
}
