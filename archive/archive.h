/* archive.h — the run archive: a directory with manifest.json, logs/ and
 * analysis.json (docs/archive.md). Rules as in base/ssdrev.h. */
#ifndef SSDREV_ARCHIVE_H
#define SSDREV_ARCHIVE_H

#include "base/ssdrev.h"

/* The archive's own file names, relative to its directory (docs/archive.md):
 * the one place they are spelled. */
#define ARCHIVE_MANIFEST "manifest.json"
#define ARCHIVE_ANALYSIS "analysis.json"
#define ARCHIVE_LOGS "logs"            /* per-I/O logs: logs/TEST.ssdlog */
#define ARCHIVE_LOG_SUFFIX ".ssdlog"
#define ARCHIVE_SIM_STATE "sim-state.bin" /* a simulated drive's state while a review may resume */
#define ARCHIVE_LOCK ".lock"           /* the writer's lock, holding its PID */
#define ARCHIVE_DUT "dut"              /* raw nvme-cli / smartctl outputs */
/* The log path of test NAME relative to the run ("logs/NAME.ssdlog") into
 * buf; -ENAMETOOLONG when it does not fit. */
int archive_log_rel(char *buf, size_t len, const char *test_name);

/* A run is a directory holding manifest.json, logs/ and, after analysis,
 * analysis.json. See docs/archive.md for every key. The manifest is a jansson
 * object owned by the run; every save is atomic (temporary file + rename). */
struct archive {
  char dir[4096];
  json_t *manifest;
  uint32_t manifest_crc32c; /* of manifest.json as archive_open read it: analysis.json
                             * records it, so a report can tell a stale analysis */
  int lock_fd;              /* RUN/.lock, locked while this process writes the run; -1 for a reader */
};
/* The writer's lock of an archive: opens RUN/.lock (created if missing,
 * O_NOFOLLOW, a regular file with one link) and takes an exclusive flock
 * without waiting, then writes this process's PID into it. Returns the
 * descriptor (closing it releases the lock; so does the process's death),
 * or -EBUSY with "archive 'RUN' is in use by process PID", or -ELOOP when
 * RUN or RUN/.lock is a symbolic link. */
int archive_lock(const char *dir, struct ssdrev_err *err);
/* How long archive_lock_wait waits for a lock another process holds. */
struct archive_lock_wait {
  unsigned wait_ms; /* the longest wait (polled every 100 ms); 0: fail at once */
  /* called once when the wait starts, with "archive 'RUN' is in use by
   * process PID: waiting up to N s for it"; NULL: wait silently */
  void (*on_wait)(const char *dir, const char *msg, void *arg);
  void *arg;
};
/* archive_lock, but a lock held by another process is waited for up to
 * w->wait_ms (W NULL: not at all); after that -EBUSY with "archive 'RUN' is
 * still in use by process PID after waiting N s". */
int archive_lock_wait(const char *dir, const struct archive_lock_wait *w, struct ssdrev_err *err);
/* Creates DIR (must not exist, or be empty but for a .lock) with a fresh
 * manifest: format, tool version, host, creation time, the given target
 * description. The run holds DIR's lock until archive_free; DIR or
 * DIR/logs being a symbolic link is refused. */
int archive_create(struct archive **run, const char *dir, const char *target_spec,
                     struct ssdrev_err *err);
/* Opens an existing archive for writing: takes its lock first (failing at
 * once when another process holds it), then reads the manifest as
 * archive_open does, so what is saved later builds on the latest one. */
int archive_open_write(struct archive **run, const char *dir, struct ssdrev_err *err);
/* archive_open_write, waiting for the lock as archive_lock_wait does. */
int archive_open_write_wait(struct archive **run, const char *dir, const struct archive_lock_wait *w,
                            struct ssdrev_err *err);
/* archive_open_write when DIR holds a manifest, else archive_create,
 * decided under the lock (two processes creating one DIR: one creates, the
 * other finds it in use or, later, appends to it). */
int archive_open_or_create(struct archive **run, const char *dir, const char *target_spec,
                             struct ssdrev_err *err);
/* Opens an existing archive and validates the manifest's shape: for
 * reading (no lock; a save through it may race a writer). */
int archive_open(struct archive **run, const char *dir, struct ssdrev_err *err);
int archive_save(struct archive *run, struct ssdrev_err *err);
void archive_free(struct archive *run);
/* Appends a test entry {name, params (stolen reference), status "running",
 * start time, log path relative to the run dir} and returns it (borrowed). */
json_t *archive_add_test(struct archive *run, const char *name, json_t *params,
                           const char *log_rel);
/* Finds a test entry by name (borrowed) or NULL; of two with that name
 * (an archive appended to by hand, an imported file), the newer: the one
 * lookup every writer uses for the test it has just run. */
json_t *archive_find_test(struct archive *run, const char *name);
/* Sets status ("complete", "interrupted", "failed") and the end time. */
void archive_end_test(json_t *test, const char *status);
/* Absolute path of a file inside the run (static rotating buffer). */
const char *archive_path(const struct archive *run, const char *rel);
/* The one check for a path read from a manifest or analysis.json (a test's
 * "log", ...): REL must be relative, without a ".." component, and name a
 * regular file that is inside RUN_DIR once every symbolic link is resolved
 * (no link escaping the run). On success OUT (LEN bytes) holds the resolved
 * path to open. Fails (-EINVAL, -EACCES, -ENOENT, ...) with a message naming
 * the run and REL. Analyze, render and the CLI all call it before reading. */
int archive_file(const char *run_dir, const char *rel, char *out, size_t len, struct ssdrev_err *err);
/* Removes temporary files ("*.tmp.XXXXXX" from ssdrev_atomic_open) that a
 * killed writer left in the run (top level and two directory levels down).
 * Only for the one process that resumes writing the run: a concurrent
 * writer's temporary would be removed too. Returns how many were removed,
 * or a negative errno (err names the file). */
int archive_remove_temps(struct archive *run, struct ssdrev_err *err);

#endif
