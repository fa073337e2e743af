/* archive.h — the run archive: a directory with manifest.json, logs/ and
 * analysis.json (docs/archive.md). Rules as in base/ssdrev.h. */
#ifndef SSDREV_ARCHIVE_H
#define SSDREV_ARCHIVE_H

#include "base/ssdrev.h"

/* A run is a directory holding manifest.json, logs/ and, after analysis,
 * analysis.json. See docs/archive.md for every key. The manifest is a jansson
 * object owned by the run; every save is atomic (temporary file + rename). */
struct archive {
  char dir[4096];
  json_t *manifest;
  uint32_t manifest_crc32c; /* of manifest.json as archive_open read it: analysis.json
                             * records it, so a report can tell a stale analysis */
};
/* Creates DIR (must not exist or be empty) with a fresh manifest: format,
 * tool version, host, creation time, the given target description. */
int archive_create(struct archive **run, const char *dir, const char *target_spec,
                     struct ssdrev_err *err);
/* Opens an existing archive and validates the manifest's shape. */
int archive_open(struct archive **run, const char *dir, struct ssdrev_err *err);
int archive_save(struct archive *run, struct ssdrev_err *err);
void archive_free(struct archive *run);
/* Appends a test entry {name, params (stolen reference), status "running",
 * start time, log path relative to the run dir} and returns it (borrowed). */
json_t *archive_add_test(struct archive *run, const char *name, json_t *params,
                           const char *log_rel);
/* Finds a test entry by name (borrowed) or NULL. */
json_t *archive_find_test(struct archive *run, const char *name);
/* Sets status ("complete", "interrupted", "failed") and the end time. */
void archive_end_test(json_t *test, const char *status);
/* Absolute path of a file inside the run (static rotating buffer). */
const char *archive_path(const struct archive *run, const char *rel);
/* Removes temporary files ("*.tmp.XXXXXX" from ssdrev_atomic_open) that a
 * killed writer left in the run (top level and two directory levels down).
 * Only for the one process that resumes writing the run: a concurrent
 * writer's temporary would be removed too. Returns how many were removed,
 * or a negative errno (err names the file). */
int archive_remove_temps(struct archive *run, struct ssdrev_err *err);

#endif
