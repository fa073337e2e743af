/* import.c — the importer table and what every importer shares: creating the
 * archive with its provenance, safe test names and import warnings. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "import/import_int.h"
#include "archive/archive.h"

static const struct import_option fio_options[] = {
    {"logs", 1, "DIR  where the write_lat_log files are (default: the JSON's directory, then the current one)"},
    {"latency", 1, "KIND  auto (lat, else clat), lat or clat log"},
    {"log-offset", 1, "0|1  whether the logs have an offset column (default: the JSON's log_offset)"},
    {"no-logs", 0, "import the JSON summary only"},
    {NULL, 0, NULL},
};

const struct import_format import_formats[] = {
    {.name = "fio",
     .summary = "fio JSON/json+ output (local or client/server) and its per-I/O latency logs",
     .options = fio_options,
     .check_option = import_fio_check_option,
     .add = import_fio_add},
    {.name = "cdm",
     .summary = "CrystalDiskMark \"Save text\" result file (summary per cell, no log)",
     .options = NULL,
     .check_option = NULL,
     .add = import_cdm_add},
    {.name = "kdm",
     .summary = "KDiskMark text report (Save/Copy; every layout since 1.4; summary per cell, no log)",
     .options = NULL,
     .check_option = NULL,
     .add = import_kdm_add},
    {.name = NULL},
};

const struct import_format *import_find(const char *name) {
  for (const struct import_format *i = import_formats; name && i->name; i++)
    if (!strcmp(i->name, name)) return i;
  return NULL;
}

void import_opts_defaults(struct import_opts *o) { memset(o, 0, sizeof *o); }

const char *import_opt(const struct import_opts *o, const char *name) {
  for (unsigned i = 0; i < o->nown; i++)
    if (!strcmp(o->own[i].name, name)) return o->own[i].value;
  return NULL;
}

int import_option_set(const struct import_format *f, struct import_opts *o, const char *name, const char *value,
                      struct ssdrev_err *err) {
  const struct import_option *op = f->options;
  while (op && op->name && strcmp(op->name, name)) op++;
  if (!op || !op->name) return ssdrev_fail(err, -EINVAL, "option '--%s' does not apply to %s imports", name, f->name);
  if (!value) value = "";
  if (f->check_option) {
    int rc = f->check_option(name, value, err);
    if (rc) return rc;
  }
  for (unsigned i = 0; i < o->nown; i++)
    if (!strcmp(o->own[i].name, name)) {
      o->own[i].value = value; /* the last one given wins, as getopt's */
      return 0;
    }
  if (o->nown >= IMPORT_MAX_OPTS) return ssdrev_fail(err, -E2BIG, "too many %s import options", f->name);
  o->own[o->nown].name = op->name;
  o->own[o->nown++].value = value;
  return 0;
}

int import_files(const struct import_format *f, const struct import_input *in, size_t n,
                 const struct import_opts *o, struct import_result *res, struct ssdrev_err *err) {
  memset(res, 0, sizeof *res);
  if (!n) return ssdrev_fail(err, -EINVAL, "no input file given");
  /* an input that cannot be read fails before any archive is made */
  for (size_t i = 0; i < n; i++) {
    /* regular files only: a FIFO would block the open (ssdrev_open_read) */
    int fd = ssdrev_open_read(in[i].path, NULL, err);
    if (fd < 0) return fd;
    close(fd);
  }
  struct archive *run;
  int rc = import_run_create(&run, o, f->name, in[0].path, NULL, err);
  if (rc) return rc;
  json_t *files = json_array();
  for (size_t i = 0; i < n && !rc; i++) {
    struct import_input one = in[i];
    if (!one.state) one.state = o->state;
    char abs[PATH_MAX];
    json_array_append_new(files, json_string(realpath(one.path, abs) ? abs : one.path));
    rc = f->add(run, &one, n > 1, o, res, err);
  }
  if (n > 1) json_object_set_new(json_object_get(run->manifest, "source"), "files", files);
  else json_decref(files);
  if (!rc && !res->tests) rc = ssdrev_fail(err, -EINVAL, "no tests imported from '%s'", in[0].path);
  return import_stage_finish(run, o, rc, err);
}

int import_file(const struct import_format *f, const char *path, const struct import_opts *o,
                struct import_result *res, struct ssdrev_err *err) {
  struct import_input in = {.path = path, .state = NULL};
  return import_files(f, &in, 1, o, res, err);
}

void import_safe_name(char *out, size_t len, const char *s) {
  size_t i = 0;
  for (; s && s[i] && i + 1 < len; i++) {
    char c = s[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '.' || c == '_' || c == '-';
    out[i] = ok ? c : '_';
  }
  if (len) out[i] = 0;
  /* a name of dots only would be "." or ".." */
  if (len > 1 && out[0] == '.') out[0] = '_';
}

void import_input_stem(char *out, size_t len, const char *input) {
  char base[PATH_MAX];
  snprintf(base, sizeof base, "%s", input);
  const char *b = strrchr(base, '/') ? strrchr(base, '/') + 1 : base;
  char *dot = strrchr(base, '.');
  if (dot && dot > b) *dot = 0;
  char safe[120];
  import_safe_name(safe, sizeof safe, b);
  snprintf(out, len, "%s.", safe);
}

int import_run_create(struct archive **run, const struct import_opts *o,
                      const char *kind, const char *input, const char *target_spec,
                      struct ssdrev_err *err) {
  if (!o->out_dir || !*o->out_dir) return ssdrev_fail(err, -EINVAL, "no output archive given (--out)");
  char stage[4200];
  int rc = import_stage_create(stage, sizeof stage, o->out_dir, err);
  if (rc) return rc;
  rc = archive_create(run, stage, target_spec ? target_spec : kind, err);
  if (rc) {
    import_stage_remove(stage);
    return rc;
  }
  json_t *m = (*run)->manifest;
  json_t *src = json_object();
  char abs[PATH_MAX];
  json_object_set_new(src, "kind", json_string(kind));
  json_object_set_new(src, "file", json_string(realpath(input, abs) ? abs : input));
  json_object_set_new(m, "source", src);
  /* not measured now: the importer sets the date its source names, if any */
  json_object_del(m, "measured_at");
  /* an imported run was not measured by ssdrev: the target is a description */
  json_object_set_new(json_object_get(m, "target"), "kind", json_string("imported"));
  if (o->label) json_object_set_new(m, "label", json_string(o->label));
  if (o->dut) json_object_set_new(m, "dut", json_deep_copy(o->dut));
  if (o->model || o->firmware) {
    json_t *dut = json_object_get(m, "dut");
    if (!json_is_object(dut)) json_object_set_new(m, "dut", dut = json_object());
    if (o->model) json_object_set_new(dut, "model", json_string(o->model));
    if (o->firmware) json_object_set_new(dut, "firmware", json_string(o->firmware));
  }
  if (o->state) json_object_set_new(m, "state", json_string(o->state));
  return 0;
}

/* ISO 8601 UTC, as the archive stamps its own tests. */
static void iso8601(uint64_t unix_ns, char *buf, size_t len) {
  time_t t = (time_t)(unix_ns / 1000000000ull);
  struct tm tm;
  if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm)) snprintf(buf, len, "?");
}

void import_test_times(json_t *test, uint64_t start_unix_ns, uint64_t end_unix_ns) {
  /* the source's own clock: when the tool measured, not when we imported */
  if (!start_unix_ns) return;
  char buf[64];
  iso8601(start_unix_ns, buf, sizeof buf);
  json_object_set_new(test, "start", json_string(buf));
  if (end_unix_ns < start_unix_ns) end_unix_ns = start_unix_ns;
  iso8601(end_unix_ns, buf, sizeof buf);
  json_object_set_new(test, "end", json_string(buf));
  json_object_set_new(test, "time_source", json_string("imported"));
}

json_t *import_names_taken(const struct archive *run) {
  json_t *names = json_object();
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(run->manifest, "tests"), i, t) {
    const char *n = json_string_value(json_object_get(t, "name"));
    if (n) json_object_set_new(names, n, json_true());
  }
  return names;
}

void import_warn(struct archive *run, struct import_result *res, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  json_t *w = json_object_get(run->manifest, "import_warnings");
  if (!json_is_array(w)) {
    w = json_array();
    json_object_set_new(run->manifest, "import_warnings", w);
  }
  json_array_append_new(w, json_string(msg));
  res->warnings++;
}
