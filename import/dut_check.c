/* dut_check.c — type and range checks of DUT inputs before they are used
 * (docs/hardening.md, "Hostile values"): nvme-cli id-ctrl values (at most 32
 * power state descriptors, each field an unsigned integer of its NVMe width),
 * the keys a SMART / Health log must have, and the type of every override
 * key. Each failure names the input and the key. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include "import/import_int.h"

/* 1 when v is a JSON integer in [0, max]. */
int import_dut_counter(const json_t *v, double *out) {
  double x = NAN;
  if (json_is_number(v)) x = json_number_value(v);
  else if (json_is_string(v)) {
    /* nvme-cli prints 128-bit fields (tnvmcap, data units, ...) as decimal
     * strings: at most 39 digits, nothing else */
    const char *s = json_string_value(v);
    size_t n = strlen(s);
    if (n && n <= 39 && strspn(s, "0123456789") == n) x = strtod(s, NULL);
  }
  if (!(isfinite(x) && x >= 0)) return 0;
  if (out) *out = x;
  return 1;
}

static int uint_in(const json_t *v, json_int_t max) {
  return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= max;
}

static const char *value_text(const json_t *v, char *buf, size_t len) {
  char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
  snprintf(buf, len, "%.40s%s", s ? s : "(missing)", s && strlen(s) > 40 ? "..." : "");
  free(s);
  return buf;
}

int import_dut_check_id_ctrl(const json_t *c, const char *name, struct ssdrev_err *err) {
  /* identify fields and their NVMe widths; absent ones are simply unknown */
  static const struct { const char *key; json_int_t max; } top[] = {
      {"vid", 0xffff}, {"ssvid", 0xffff}, {"ver", 0xffffffffll}, {"wctemp", 0xffff},
      {"cctemp", 0xffff}, {"npss", 31}, {"tnvmcap", INT64_MAX},
  };
  char buf[64];
  for (size_t i = 0; i < sizeof top / sizeof top[0]; i++) {
    const json_t *v = json_object_get(c, top[i].key);
    double big;
    /* tnvmcap is a 128-bit field: a number or a decimal string */
    if (v && !strcmp(top[i].key, "tnvmcap") && import_dut_counter(v, &big) && big <= (double)INT64_MAX) continue;
    if (v && !uint_in(v, top[i].max))
      return ssdrev_fail(err, -EINVAL, "bad nvme id-ctrl value in %s: key '%s' = %s is not an integer in 0..%lld%s",
                         name, top[i].key, value_text(v, buf, sizeof buf), (long long)top[i].max,
                         !strcmp(top[i].key, "npss") ? " (NVMe: at most 32 power states, npss is 0-based)" : "");
  }
  static const char *const strs[] = {"mn", "fr", "sn"};
  for (size_t i = 0; i < 3; i++) {
    const json_t *v = json_object_get(c, strs[i]);
    if (v && !json_is_string(v))
      return ssdrev_fail(err, -EINVAL, "bad nvme id-ctrl value in %s: key '%s' = %s is not a string", name, strs[i],
                         value_text(v, buf, sizeof buf));
  }
  const json_t *psds = json_object_get(c, "psds");
  if (!psds) return 0;
  if (!json_is_array(psds) || json_array_size(psds) > 32)
    return ssdrev_fail(err, -EINVAL,
                       "bad nvme id-ctrl value in %s: key 'psds' must be an array of at most 32 power state "
                       "descriptors (NVMe psd[0..31]), not %s",
                       name, json_is_array(psds) ? "more" : "this");
  const json_t *npss = json_object_get(c, "npss");
  if (npss && json_array_size(psds) > (size_t)json_integer_value(npss) + 1)
    return ssdrev_fail(err, -EINVAL, "bad nvme id-ctrl value in %s: %zu power states in 'psds', but npss = %lld says %lld",
                       name, json_array_size(psds), (long long)json_integer_value(npss),
                       (long long)json_integer_value(npss) + 1);
  /* descriptor fields: 16-bit powers, 32-bit latencies, small flags */
  static const struct { const char *key; json_int_t max; } pf[] = {
      {"max_power", 0xffff},     {"max_power_scale", 1}, {"non-operational_state", 1}, {"flags", 0xff},
      {"entry_lat", 0xffffffffll}, {"exit_lat", 0xffffffffll}, {"enlat", 0xffffffffll}, {"exlat", 0xffffffffll},
      {"idle_power", 0xffff},    {"active_power", 0xffff},
  };
  size_t i;
  const json_t *p;
  json_array_foreach(psds, i, p) {
    if (!json_is_object(p))
      return ssdrev_fail(err, -EINVAL, "bad nvme id-ctrl value in %s: psds[%zu] is not an object", name, i);
    for (size_t k = 0; k < sizeof pf / sizeof pf[0]; k++) {
      const json_t *v = json_object_get(p, pf[k].key);
      if (v && !uint_in(v, pf[k].max))
        return ssdrev_fail(err, -EINVAL,
                           "bad nvme id-ctrl value in %s: key 'psds[%zu].%s' = %s is not an integer in 0..%lld", name,
                           i, pf[k].key, value_text(v, buf, sizeof buf), (long long)pf[k].max);
    }
  }
  return 0;
}

/* A non-negative finite number (nvme-cli prints 128-bit counters, which
 * jansson may read as reals). */
static int counter_ok(const json_t *v) { return import_dut_counter(v, NULL); }

int import_dut_check_smart_log(const json_t *sl, const char *name, struct ssdrev_err *err) {
  /* what `nvme smart-log -o json` prints for every drive: the health keys
   * the review uses (max 0: a counter, any non-negative number); some
   * versions spell percent_used percentage_used */
  static const struct { const char *key, *alias, *what; json_int_t max; } need[] = {
      {"critical_warning", NULL, "a byte (integer 0..255)", 0xff},
      {"temperature", NULL, "a temperature in Kelvin (integer 0..65535)", 0xffff},
      {"percent_used", "percentage_used", "a percentage (integer 0..255)", 255},
      {"data_units_read", NULL, "a non-negative number", 0},
      {"data_units_written", NULL, "a non-negative number", 0},
      {"power_on_hours", NULL, "a non-negative number", 0},
  };
  char buf[64];
  for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
    const char *key = need[i].key;
    const json_t *v = json_object_get(sl, key);
    if (!v && need[i].alias && (v = json_object_get(sl, need[i].alias))) key = need[i].alias;
    if (!v)
      return ssdrev_fail(err, -EINVAL,
                         "cannot use nvme smart-log JSON %s: no key '%s' (is it `nvme smart-log -o json` output?)",
                         name, need[i].key);
    if (need[i].max ? !uint_in(v, need[i].max) : !counter_ok(v))
      return ssdrev_fail(err, -EINVAL, "bad nvme smart-log value in %s: key '%s' = %s is not %s", name, key,
                         value_text(v, buf, sizeof buf), need[i].what);
  }
  return 0;
}

/* What each known DUT summary key holds (docs/archive.md). */
enum ov_type { OV_STRING, OV_UINT, OV_TEMP, OV_ARRAY, OV_OBJECT };
static const struct { const char *key; enum ov_type type; } ov_keys[] = {
    {"model", OV_STRING},         {"firmware", OV_STRING},       {"serial", OV_STRING},
    {"link", OV_STRING},          {"nvme_version", OV_STRING},   {"controller", OV_STRING},
    {"media", OV_STRING},         {"protocol", OV_STRING},       {"pci_vendor_id", OV_STRING},
    {"label", OV_STRING},         {"lba_bytes", OV_UINT},        {"capacity_bytes", OV_UINT},
    {"warn_temp_c", OV_TEMP},     {"crit_temp_c", OV_TEMP},      {"power_states", OV_ARRAY},
    {"health", OV_OBJECT},        {"raw", OV_OBJECT},
};

int import_dut_check_overrides(const json_t *ov, const char *name, struct ssdrev_err *err) {
  if (!json_is_object(ov)) return ssdrev_fail(err, -EINVAL, "bad DUT overrides in %s: not a JSON object", name);
  const char *key;
  json_t *v;
  char buf[64];
  json_object_foreach((json_t *)ov, key, v) {
    if (json_is_null(v))
      return ssdrev_fail(err, -EINVAL, "bad DUT override in %s: key '%s' is null (overrides set fields, never erase)",
                         name, key);
    enum ov_type t = OV_STRING;
    int known = 0;
    for (size_t i = 0; i < sizeof ov_keys / sizeof ov_keys[0]; i++)
      if (!strcmp(key, ov_keys[i].key)) t = ov_keys[i].type, known = 1;
    /* other keys are free-form facts (a note, a price): scalars only */
    int ok = !known ? json_is_string(v) || json_is_number(v) || json_is_boolean(v)
             : t == OV_STRING ? json_is_string(v)
             : t == OV_UINT   ? json_is_integer(v) && json_integer_value(v) > 0
             : t == OV_TEMP   ? json_is_integer(v) && json_integer_value(v) >= -273 && json_integer_value(v) <= 1000
             : t == OV_ARRAY  ? json_is_array(v) && json_array_size(v) <= 32
                              : json_is_object(v);
    if (!ok)
      return ssdrev_fail(err, -EINVAL, "bad DUT override in %s: key '%s' = %s must be %s", name, key,
                         value_text(v, buf, sizeof buf),
                         !known             ? "a string, number or boolean"
                         : t == OV_STRING   ? "a string"
                         : t == OV_UINT     ? "a positive integer"
                         : t == OV_TEMP     ? "an integer in -273..1000 (degrees C)"
                         : t == OV_ARRAY    ? "an array of at most 32 power states"
                                            : "an object");
  }
  return 0;
}
