/* dut_step.c — the DUT summary of a new review archive: from the user's
 * JSON files (--dut-json), from the device itself (nvme-cli, smartctl,
 * sysfs), or from the sim model; then the method's and the user's overrides.
 * Raw tool outputs are kept under dut/ in the archive. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "bench/method/review_int.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"

static const struct { const char *key, *file; } raw_files[] = {
    {"id_ctrl", ARCHIVE_DUT "/id-ctrl.json"},
    {"smart_log", ARCHIVE_DUT "/smart-log.json"},
    {"smartctl", ARCHIVE_DUT "/smartctl.json"}};

/* Writes the raw texts of `raw` ({"id_ctrl": text...}) into the archive and
 * records their paths in dut.raw. */
static int keep_raw(struct review_ctx *c, json_t *dut, const char *const texts[3],
                    struct ssdrev_err *err) {
  json_t *paths = json_object();
  int rc = 0;
  for (size_t i = 0; i < 3 && !rc; i++) {
    if (!texts[i]) continue;
    if (!json_object_size(paths) && (rc = ssdrev_mkdirs(archive_path(c->run, ARCHIVE_DUT), err))) break;
    rc = ssdrev_write_file_atomic(archive_path(c->run, raw_files[i].file), texts[i],
                                  strlen(texts[i]), err);
    if (!rc) json_object_set_new(paths, raw_files[i].key, json_string(raw_files[i].file));
  }
  if (!rc && json_object_size(paths)) json_object_set(dut, "raw", paths);
  json_decref(paths);
  return rc;
}

json_t *bench_review_build_dut(struct review_ctx *c, struct ssdrev_err *err) {
  const struct bench_review_opts *o = c->o;
  json_t *dut = NULL, *overrides = NULL;
  int rc = 0;
  if (o->dut_json_dir) {
    char *t[3] = {NULL, NULL, NULL};
    rc = bench_dut_read_files(o->dut_json_dir, &t[0], &t[1], &t[2], &overrides, err);
    if (!rc && (t[0] || t[1] || t[2])) {
      dut = import_dut_parse(t[0], t[1], t[2], o->include_serial, err);
      if (!dut) rc = -EINVAL;
      else rc = keep_raw(c, dut, (const char *const *)t, err);
    }
    for (int i = 0; i < 3; i++) free(t[i]);
    if (rc) goto fail;
  }
  /* a --dut-json with only an overrides.json overrides the named fields of
   * what the target says (model, link, temperatures, power states), it does
   * not replace them (issue 29 item 5) */
  if (!dut && c->t) { /* none for a load host's target (--remote-unchecked) */
    json_t *raw = NULL;
    dut = bench_target_dut(c->t, o->include_serial, &raw, err);
    if (!dut) {
      rc = -EINVAL;
      goto fail;
    }
    const char *texts[3];
    for (int i = 0; i < 3; i++) texts[i] = json_string_value(json_object_get(raw, raw_files[i].key));
    rc = raw ? keep_raw(c, dut, texts, err) : 0;
    json_decref(raw);
    if (rc) goto fail;
  }
  if (!dut) dut = json_object();
  if (!json_object_get(dut, "capacity_bytes"))
    json_object_set_new(dut, "capacity_bytes", json_integer((json_int_t)c->cap_bytes));
  if (!json_object_get(dut, "lba_bytes"))
    json_object_set_new(dut, "lba_bytes", json_integer(c->lba_bytes));
  /* Controller and media are in no tool's output: the method file or the
   * user's overrides.json supply them. */
  json_t *pd = json_object_get(c->prof->json, "dut");
  if (pd && (rc = import_dut_apply_overrides(dut, pd, "the method's \"dut\" object", err))) goto fail;
  if (overrides) {
    char name[PATH_MAX + 64];
    snprintf(name, sizeof name, "overrides.json of --dut-json %s", o->dut_json_dir ? o->dut_json_dir : "");
    if ((rc = import_dut_apply_overrides(dut, overrides, name, err))) goto fail;
  }
  if (!o->include_serial) json_object_del(dut, "serial");
  json_decref(overrides);
  return dut;
fail:
  json_decref(dut);
  json_decref(overrides);
  return NULL;
}
