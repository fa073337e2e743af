/* fuzz_manifest.c — the run manifest (archive/archive.c: archive_open) on
 * arbitrary manifest.json contents, then the calls every later stage makes on
 * an opened run: find a test, add and end one, save it again. */
#include "tests/fuzz/fuzz.h"
#include "archive/archive.h"

static int fuzz_manifest_one(const uint8_t *data, size_t size) {
  struct ssdrev_err err = {{0}};
  const char *dir = fuzz_path("run");
  mkdir(dir, 0700);
  fuzz_write("run/manifest.json", data, size);
  struct archive *run = NULL;
  int rc = archive_open(&run, dir, &err);
  fuzz_check_err(&err);
  if (rc) {
    if (run) abort(); /* a failed open must leave nothing allocated */
    if (!err.msg[0]) abort(); /* and must say why */
    return 0;
  }
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(run->manifest, "tests"), i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    if (!name || archive_find_test(run, name) == NULL) abort(); /* open validated names */
  }
  json_t *nt = archive_add_test(run, "fuzz.added", NULL, "logs/fuzz.ssdlog");
  archive_end_test(nt, "interrupted");
  rc = archive_save(run, &err);
  fuzz_check_err(&err);
  archive_free(run);
  /* A manifest that opened and was saved must open again. */
  if (rc == 0) {
    rc = archive_open(&run, dir, &err);
    if (rc) {
      fprintf(stderr, "fuzz_manifest: saved manifest does not reopen: %s\n", err.msg);
      abort();
    }
    if (!archive_find_test(run, "fuzz.added")) abort();
    archive_free(run);
  }
  return 0;
}

FUZZ_ENTRY(fuzz_manifest_one)
