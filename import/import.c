/* import.c — the importer table and what every importer shares: creating the
 * archive with its provenance, safe test names and import warnings. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "import/import_int.h"
#include "archive/archive.h"

const struct import_format import_formats[] = {
    {.name = "fio",
     .summary = "fio JSON/json+ output (local or client/server) and its per-I/O latency logs",
     .import = import_fio},
    {.name = "cdm",
     .summary = "CrystalDiskMark \"Save text\" result file (summary per cell, no log)",
     .import = import_cdm},
    {.name = NULL},
};

const struct import_format *import_find(const char *name) {
  for (const struct import_format *i = import_formats; name && i->name; i++)
    if (!strcmp(i->name, name)) return i;
  return NULL;
}

void import_opts_defaults(struct import_opts *o) {
  memset(o, 0, sizeof *o);
  o->lat = IMPORT_FIO_LAT_AUTO;
  o->log_offset = -1;
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
  /* an imported run was not measured by ssdrev: the target is a description */
  json_object_set_new(json_object_get(m, "target"), "kind", json_string("imported"));
  if (o->label) json_object_set_new(m, "label", json_string(o->label));
  if (o->model || o->firmware) {
    json_t *dut = json_object();
    if (o->model) json_object_set_new(dut, "model", json_string(o->model));
    if (o->firmware) json_object_set_new(dut, "firmware", json_string(o->firmware));
    json_object_set_new(m, "dut", dut);
  }
  if (o->state) json_object_set_new(m, "state", json_string(o->state));
  return 0;
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
