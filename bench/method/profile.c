/* profile.c — loads a method file (docs/method.md) into struct
 * review_profile: settings, short-mode overrides, CrystalDiskMark cell
 * lists and steps. Each step's keys are parsed by its kind (review_kinds). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "bench/method/review_int.h"

int bench_review_json_size(const json_t *obj, const char *key, uint64_t *out, const char *where,
                     struct ssdrev_err *err) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (json_is_integer(v) && json_integer_value(v) >= 0) {
    *out = (uint64_t)json_integer_value(v);
    return 0;
  }
  if (json_is_string(v) && ssdrev_parse_size(json_string_value(v), out) == 0) return 0;
  return ssdrev_fail(err, -EINVAL, "%s: '%s' must be a size in bytes or a string like \"1GiB\"",
                     where, key);
}

int bench_review_json_block(const json_t *obj, struct review_step *s, const char *where, struct ssdrev_err *err) {
  uint64_t block = s->block_bytes;
  int rc = bench_review_json_size(obj, "block", &block, where, err);
  if (rc) return rc;
  if (block < 512 || block > (16u << 20) || block % 512)
    return ssdrev_fail(err, -EINVAL, "%s: 'block' must be a multiple of 512 up to 16 MiB", where);
  s->block_bytes = (uint32_t)block;
  return 0;
}

int bench_review_json_uint(const json_t *obj, const char *key, unsigned min, unsigned max,
                     unsigned *out, const char *where, struct ssdrev_err *err) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (!json_is_integer(v) || json_integer_value(v) < (json_int_t)min ||
      json_integer_value(v) > (json_int_t)max)
    return ssdrev_fail(err, -EINVAL, "%s: '%s' must be an integer in [%u, %u]", where, key, min, max);
  *out = (unsigned)json_integer_value(v);
  return 0;
}

int bench_review_json_num(const json_t *obj, const char *key, double min, double max, double *out,
                    const char *where, struct ssdrev_err *err) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (!json_is_number(v) || json_number_value(v) < min || json_number_value(v) > max)
    return ssdrev_fail(err, -EINVAL, "%s: '%s' must be a number in [%g, %g]", where, key, min, max);
  *out = json_number_value(v);
  return 0;
}

int bench_review_json_str(const json_t *obj, const char *key, char *out, size_t len,
                    const char *where, struct ssdrev_err *err) {
  const json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= len)
    return ssdrev_fail(err, -EINVAL, "%s: '%s' must be a non-empty string shorter than %zu",
                       where, key, len);
  snprintf(out, len, "%s", json_string_value(v));
  return 0;
}

int bench_review_json_keys(const json_t *obj, const char *const *a, const char *const *b,
                           const char *where, struct ssdrev_err *err) {
  const char *key;
  const json_t *v;
  json_object_foreach((json_t *)obj, key, v) {
    int ok = 0;
    for (const char *const *k = a; k && *k && !ok; k++) ok = !strcmp(*k, key);
    for (const char *const *k = b; k && *k && !ok; k++) ok = !strcmp(*k, key);
    if (!ok) return ssdrev_fail(err, -EINVAL, "%s: unknown key '%s'", where, key);
  }
  return 0;
}

/* Refuses a string holding a NUL byte anywhere in V (JSON "\u0000"): C
 * code reads such a string only up to the NUL, so "review\u0000x" would
 * be taken for "review" (jansson gives the whole length; strlen does not).
 * PATH is V's place in the file ("steps[2].id") for the message. */
static int check_nul(const json_t *v, char *path, size_t len, size_t used, const char *where,
                     struct ssdrev_err *err) {
  if (json_is_string(v)) {
    if (strlen(json_string_value(v)) != json_string_length(v))
      return ssdrev_fail(err, -EINVAL, "%s: '%s' holds a NUL byte (\\u0000), which no value of a method may hold",
                         where, used ? path : "(the whole file)");
    return 0;
  }
  if (json_is_array(v)) {
    for (size_t i = 0; i < json_array_size(v); i++) {
      int n = snprintf(path + used, len - used, "[%zu]", i);
      size_t u = n > 0 && (size_t)n < len - used ? used + (size_t)n : used;
      int rc = check_nul(json_array_get(v, i), path, len, u, where, err);
      path[used] = 0;
      if (rc) return rc;
    }
  } else if (json_is_object(v)) {
    const char *key;
    json_t *x;
    json_object_foreach((json_t *)v, key, x) {
      int n = snprintf(path + used, len - used, "%s%s", used ? "." : "", key);
      size_t u = n > 0 && (size_t)n < len - used ? used + (size_t)n : used;
      int rc = check_nul(x, path, len, u, where, err);
      path[used] = 0;
      if (rc) return rc;
    }
  }
  return 0;
}

int bench_review_json_no_nul(const json_t *root, const char *where, struct ssdrev_err *err) {
  char path[512] = "";
  return check_nul(root, path, sizeof path, 0, where, err);
}

static const char *const settings_keys[] = {
    "passes", "measure_s", "interval_s", "region_bytes", "zero_buffers", "wait", "temp_interval_s",
    "fill_max_bytes", "sweep_measure_s", "sweep_ramp_s", "tail_ios", NULL};

static int parse_settings(struct review_settings *s, const json_t *obj, const char *where,
                          struct ssdrev_err *err) {
  if (!obj) return 0;
  if (!json_is_object(obj)) return ssdrev_fail(err, -EINVAL, "%s: must be an object", where);
  int rc = bench_review_json_keys(obj, settings_keys, NULL, where, err);
  if (!rc) rc = bench_review_json_uint(obj, "passes", 1, 100, &s->passes, where, err);
  if (!rc) rc = bench_review_json_num(obj, "measure_s", 0.001, 86400, &s->measure_s, where, err);
  if (!rc) rc = bench_review_json_num(obj, "interval_s", 0, 86400, &s->interval_s, where, err);
  if (!rc) rc = bench_review_json_size(obj, "region_bytes", &s->region_bytes, where, err);
  if (!rc) rc = bench_review_json_num(obj, "temp_interval_s", 0.01, 3600, &s->temp_interval_s, where, err);
  if (!rc) rc = bench_review_json_size(obj, "fill_max_bytes", &s->fill_max_bytes, where, err);
  if (!rc) rc = bench_review_json_num(obj, "sweep_measure_s", 0.001, 86400, &s->sweep_measure_s, where, err);
  if (!rc) rc = bench_review_json_num(obj, "sweep_ramp_s", 0, 86400, &s->sweep_ramp_s, where, err);
  if (!rc) {
    uint64_t ios = s->tail_ios;
    rc = bench_review_json_size(obj, "tail_ios", &ios, where, err);
    s->tail_ios = ios;
  }
  if (rc) return rc;
  const json_t *z = json_object_get(obj, "zero_buffers");
  if (z && !json_is_boolean(z))
    return ssdrev_fail(err, -EINVAL, "%s: 'zero_buffers' must be true or false", where);
  if (z) s->zero_buffers = json_is_true(z);
  const json_t *w = json_object_get(obj, "wait");
  if (w) {
    int mode = json_is_string(w) ? bench_wait_from_name(json_string_value(w)) : -1;
    if (mode < 0) return ssdrev_fail(err, -EINVAL, "%s: 'wait' must be \"auto\", \"sleep\", \"poll\" or \"iopoll\"", where);
    s->wait = (enum bench_wait)mode;
  }
  if (s->region_bytes && s->region_bytes < 1048576)
    return ssdrev_fail(err, -EINVAL, "%s: 'region_bytes' must be at least 1 MiB", where);
  return 0;
}

static const char *const plan_keys[] = {"write_mb_s", "read_mb_s", "qd1_iops", NULL};

static int parse_plan(struct review_settings *s, const json_t *obj, const char *where,
                      struct ssdrev_err *err) {
  if (!obj) return 0;
  if (!json_is_object(obj)) return ssdrev_fail(err, -EINVAL, "%s: must be an object", where);
  int rc = bench_review_json_keys(obj, plan_keys, NULL, where, err);
  if (!rc) rc = bench_review_json_num(obj, "write_mb_s", 1, 1e6, &s->plan_write_mb_s, where, err);
  if (!rc) rc = bench_review_json_num(obj, "read_mb_s", 1, 1e6, &s->plan_read_mb_s, where, err);
  if (!rc) rc = bench_review_json_num(obj, "qd1_iops", 1, 1e8, &s->plan_qd1_iops, where, err);
  return rc;
}

static const char *const common_step_keys[] = {"id", "kind", "temperature", "comment", NULL};

static int parse_step(struct review_profile *p, struct review_step *s, const json_t *obj,
                      unsigned idx, struct ssdrev_err *err) {
  char where[640];
  snprintf(where, sizeof where, "method '%s': steps[%u]", p->source, idx);
  if (!json_is_object(obj)) return ssdrev_fail(err, -EINVAL, "%s: must be an object", where);
  memset(s, 0, sizeof *s);
  int rc = bench_review_json_str(obj, "id", s->id, sizeof s->id, where, err);
  if (rc) return rc;
  if (!s->id[0]) return ssdrev_fail(err, -EINVAL, "%s: missing 'id'", where);
  for (const char *c = s->id; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
      return ssdrev_fail(err, -EINVAL, "%s: id '%s' may hold only letters, digits, '_' and '-'",
                         where, s->id);
  snprintf(where, sizeof where, "method '%s': step '%s'", p->source, s->id);
  const char *kind = json_string_value(json_object_get(obj, "kind"));
  if (!kind) return ssdrev_fail(err, -EINVAL, "%s: missing 'kind'", where);
  s->kind = bench_review_kind_find(kind);
  if (!s->kind) {
    /* the list comes from the kinds table, so a new kind is named too */
    char names[512];
    bench_review_kind_names(names, sizeof names);
    return ssdrev_fail(err, -EINVAL, "%s: unknown kind '%s' (%s)", where, kind, names);
  }
  rc = bench_review_json_keys(obj, common_step_keys, s->kind->keys, where, err);
  if (rc) return rc;
  const json_t *t = json_object_get(obj, "temperature");
  if (t && !json_is_boolean(t))
    return ssdrev_fail(err, -EINVAL, "%s: 'temperature' must be true or false", where);
  s->temperature = json_is_true(t);
  for (unsigned i = 0; i < p->nsteps; i++)
    if (&p->steps[i] != s && !strcmp(p->steps[i].id, s->id))
      return ssdrev_fail(err, -EINVAL, "%s: duplicate step id", where);
  return s->kind->parse(s, obj, p, where, err);
}

static const char *const top_keys[] = {"format", "format_version", "name", "description",
                                       "settings", "short", "plan", "cdm_profiles", "dut",
                                       "steps", NULL};

int bench_review_profile_from_json(struct review_profile *p, json_t *root, const char *source,
                             int short_mode, unsigned passes, struct ssdrev_err *err) {
  memset(p, 0, sizeof *p);
  snprintf(p->source, sizeof p->source, "%s", source);
  char where[600];
  snprintf(where, sizeof where, "method '%s'", source);
  if (!json_is_object(root)) return ssdrev_fail(err, -EINVAL, "%s: must be a JSON object", where);
  const char *fmt = json_string_value(json_object_get(root, "format"));
  if (!fmt || strcmp(fmt, "ssdrev-method"))
    return ssdrev_fail(err, -EINVAL, "%s: 'format' must be \"ssdrev-method\"", where);
  json_t *ver = json_object_get(root, "format_version");
  if (!json_is_integer(ver) || json_integer_value(ver) != 1)
    return ssdrev_fail(err, -EINVAL, "%s: unsupported 'format_version' (this ssdrev reads 1)", where);
  int rc = bench_review_json_keys(root, top_keys, NULL, where, err);
  if (!rc) rc = bench_review_json_no_nul(root, where, err);
  if (rc) return rc;
  p->json = json_incref(root);
  p->short_mode = short_mode;
  snprintf(p->name, sizeof p->name, "method");
  if ((rc = bench_review_json_str(root, "name", p->name, sizeof p->name, where, err))) goto fail;

  /* The reference method's values: CrystalDiskMark 8 (5 passes of 5 s with
   * 5 s between them over a 1 GiB region); the ETA assumes a mid-range
   * NVMe drive until the file says otherwise. */
  struct review_settings *s = &p->set;
  s->passes = 5;
  s->measure_s = 5;
  s->interval_s = 5;
  s->region_bytes = 1ull << 30;
  s->temp_interval_s = 1;
  s->sweep_measure_s = -1;
  s->sweep_ramp_s = -1;
  s->plan_write_mb_s = 1000;
  s->plan_read_mb_s = 2000;
  s->plan_qd1_iops = 15000;
  char w2[640];
  snprintf(w2, sizeof w2, "%s: settings", where);
  if ((rc = parse_settings(s, json_object_get(root, "settings"), w2, err))) goto fail;
  snprintf(w2, sizeof w2, "%s: plan", where);
  if ((rc = parse_plan(s, json_object_get(root, "plan"), w2, err))) goto fail;
  /* Short mode: the file's "short" block, else small built-in values so
   * any method can be tried out in seconds. Without --short the block is
   * checked all the same (into a copy): a method that passes a full run
   * must not fail the day it is first tried with --short. */
  struct review_settings sh = *s;
  sh.passes = 1;
  sh.measure_s = 0.1;
  sh.interval_s = 0;
  sh.region_bytes = 64ull << 20;
  sh.fill_max_bytes = 2ull << 30;
  sh.sweep_measure_s = 0.05;
  sh.sweep_ramp_s = 0;
  sh.tail_ios = 5000;
  snprintf(w2, sizeof w2, "%s: short", where);
  if ((rc = parse_settings(&sh, json_object_get(root, "short"), w2, err))) goto fail;
  if (short_mode) *s = sh;
  if (passes) s->passes = passes;

  json_t *dut = json_object_get(root, "dut");
  if (dut && !json_is_object(dut)) {
    rc = ssdrev_fail(err, -EINVAL, "%s: 'dut' must be an object of DUT summary fields", where);
    goto fail;
  }
  json_t *cp = json_object_get(root, "cdm_profiles");
  if (cp && !json_is_object(cp)) {
    rc = ssdrev_fail(err, -EINVAL, "%s: 'cdm_profiles' must be an object of cell lists", where);
    goto fail;
  }
  if (cp && (rc = bench_review_cdm_profiles_check(cp, where, err))) goto fail;
  json_t *steps = json_object_get(root, "steps");
  if (!json_is_array(steps) || json_array_size(steps) == 0) {
    rc = ssdrev_fail(err, -EINVAL, "%s: 'steps' must be a non-empty array", where);
    goto fail;
  }
  if (json_array_size(steps) > REVIEW_MAX_STEPS) {
    rc = ssdrev_fail(err, -E2BIG, "%s: more than %d steps", where, REVIEW_MAX_STEPS);
    goto fail;
  }
  for (size_t i = 0; i < json_array_size(steps); i++) {
    p->nsteps = (unsigned)i + 1;
    if ((rc = parse_step(p, &p->steps[i], json_array_get(steps, i), (unsigned)i, err))) goto fail;
  }
  return 0;
fail:
  bench_review_profile_free(p);
  return rc;
}

/* "extends": "NAME" takes NAME.json beside the file as the base: its steps
 * come first, then the file's own; settings, short, plan, cdm_profiles and
 * dut are the base's with the file's keys on top. The result is one
 * self-contained method (what the manifest records). One level only. */
static json_t *extend_method(json_t *root, const char *path, struct ssdrev_err *err) {
  const json_t *ext = json_object_get(root, "extends");
  if (!ext) return root;
  const char *name = json_string_value(ext);
  /* a NUL would end the name early: "review\u0000x" is not "review" */
  if (!name || !*name || strlen(name) != json_string_length(ext) || strchr(name, '/') || strchr(name, '.')) {
    json_decref(root);
    ssdrev_fail(err, -EINVAL, "%s: 'extends' must name a method file beside it, without '/', '.' or a NUL byte", path);
    return NULL;
  }
  const char *slash = strrchr(path, '/');
  char base_path[1024];
  int n = snprintf(base_path, sizeof base_path, "%.*s%s.json", slash ? (int)(slash - path + 1) : 0, path, name);
  if (n < 0 || (size_t)n >= sizeof base_path) {
    json_decref(root);
    ssdrev_fail(err, -ENAMETOOLONG, "%s: 'extends': path too long", path);
    return NULL;
  }
  json_t *base = ssdrev_load_json(base_path, err);
  if (!base) {
    json_decref(root);
    return NULL;
  }
  if (json_object_get(base, "extends")) {
    json_decref(base), json_decref(root);
    ssdrev_fail(err, -EINVAL, "%s: 'extends' names %s, which extends another method (one level only)", path,
                base_path);
    return NULL;
  }
  static const char *const merged[] = {"settings", "short", "plan", "cdm_profiles", "dut", NULL};
  for (const char *const *k = merged; *k; k++) {
    json_t *b = json_object_get(base, *k), *own = json_object_get(root, *k);
    if (json_is_object(b) && json_is_object(own)) {
      json_t *m = json_deep_copy(b);
      json_object_update(m, own);
      json_object_set_new(root, *k, m);
    } else if (b && !own) {
      json_object_set(root, *k, b);
    }
  }
  json_t *steps = json_deep_copy(json_object_get(base, "steps")), *own = json_object_get(root, "steps");
  if (!json_is_array(steps) || (own && !json_is_array(own))) {
    json_decref(steps), json_decref(base), json_decref(root);
    ssdrev_fail(err, -EINVAL, "%s: 'steps' of the method and of the one it extends (%s) must be arrays", path,
                base_path);
    return NULL;
  }
  if (own) json_array_extend(steps, own);
  json_object_set_new(root, "steps", steps);
  json_object_del(root, "extends");
  json_decref(base);
  return root;
}

int bench_review_profile_load(struct review_profile *p, const char *path, int short_mode,
                        unsigned passes, struct ssdrev_err *err) {
  json_t *root = ssdrev_load_json(path, err);
  if (root) root = extend_method(root, path, err);
  if (!root) {
    memset(p, 0, sizeof *p);
    return -EINVAL;
  }
  int rc = bench_review_profile_from_json(p, root, path, short_mode, passes, err);
  json_decref(root);
  return rc;
}

void bench_review_profile_free(struct review_profile *p) {
  if (!p) return;
  json_decref(p->json);
  p->json = NULL;
  p->nsteps = 0;
}

const struct review_step *bench_review_profile_step(const struct review_profile *p, const char *id) {
  for (unsigned i = 0; i < p->nsteps; i++)
    if (!strcmp(p->steps[i].id, id)) return &p->steps[i];
  return NULL;
}

uint64_t bench_review_align_down(uint64_t v, uint64_t align) {
  return align ? v - v % align : v;
}

void bench_review_region(uint64_t cap, double offset_pct, uint64_t bytes, uint64_t *off, uint64_t *len) {
  const uint64_t mib = 1048576;
  uint64_t o = bench_review_align_down((uint64_t)((double)cap * offset_pct / 100.0), mib);
  if (o >= cap) o = 0;
  uint64_t l = bytes && bytes < cap - o ? bytes : cap - o;
  *off = o;
  *len = bench_review_align_down(l, mib);
}

int bench_review_json_region(const json_t *obj, struct review_step *s, int with_size, const char *where,
                             struct ssdrev_err *err) {
  int rc = bench_review_json_num(obj, "region_offset_pct", 0, 99.9, &s->region_offset_pct, where, err);
  if (rc || !with_size) return rc;
  if ((rc = bench_review_json_size(obj, "region_bytes", &s->region_bytes, where, err))) return rc;
  if (s->region_bytes && s->region_bytes < 1048576)
    return ssdrev_fail(err, -EINVAL, "%s: 'region_bytes' must be at least 1 MiB", where);
  return 0;
}

void bench_review_format_duration(double s, char *buf, size_t len) {
  if (!(s >= 0)) s = 0;
  if (s > 1e15) s = 1e15; /* llround of a value beyond long long is unspecified */
  uint64_t t = (uint64_t)llround(s);
  if (t >= 3600)
    snprintf(buf, len, "%lluh%02um", (unsigned long long)(t / 3600), (unsigned)(t % 3600 / 60));
  else if (t >= 60)
    snprintf(buf, len, "%um%02us", (unsigned)(t / 60), (unsigned)(t % 60));
  else if (s >= 1 || s == 0)
    snprintf(buf, len, "%us", (unsigned)t);
  else
    snprintf(buf, len, "%.1fs", s);
}

int bench_review_json_workloads(const json_t *obj, const struct review_workload *tab, size_t n, unsigned *mask,
                                const char *where, struct ssdrev_err *err) {
  const json_t *w = json_object_get(obj, "workloads");
  if (!w) return 0;
  char names[128] = "";
  for (size_t k = 0; k < n; k++)
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s\"%s\"", k ? ", " : "", tab[k].name);
  if (!json_is_array(w) || json_array_size(w) == 0)
    return ssdrev_fail(err, -EINVAL, "%s: 'workloads' must be a non-empty array of %s", where, names);
  unsigned all = 0;
  for (size_t i = 0; i < json_array_size(w); i++) {
    const char *nm = json_string_value(json_array_get(w, i));
    unsigned m = 0;
    for (size_t k = 0; nm && k < n; k++)
      if (!strcmp(nm, tab[k].name)) m = tab[k].mask;
    if (!m) return ssdrev_fail(err, -EINVAL, "%s: workloads[%zu] must be one of %s", where, i, names);
    all |= m;
  }
  *mask = all;
  return 0;
}
