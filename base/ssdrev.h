/* ssdrev.h — shared plumbing of every ssdrev part: errors with a message,
 * atomic output files, whole-file and JSON reads, byte sizes, CRC32C and
 * the monotonic clock.
 *
 * Conventions for every part: functions return 0 (or a count) on success and
 * a negative errno on failure, and fill the optional `struct ssdrev_err` with
 * a message that names the file, line or option at fault. They never print
 * or exit. Units are in names: _ns, _bytes, _mb_s (decimal MB/s). */
#ifndef SSDREV_BASE_H
#define SSDREV_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#ifndef SSDREV_VERSION
#define SSDREV_VERSION "0.1.0"
#endif

struct ssdrev_err {
  char msg[1024]; /* NUL-terminated; empty when no error was recorded */
};

/* Formats a message into err (if non-NULL) and returns `code` (a negative
 * errno), so callers can write `return ssdrev_fail(err, -EINVAL, "...")`. */
int ssdrev_fail(struct ssdrev_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* An output file written to PATH.tmp.XXXXXX in the same directory and renamed
 * over PATH only by ssdrev_atomic_commit, so a crash, a full disk or an error
 * never leaves PATH half-written. */
struct ssdrev_atomic {
  FILE *f;          /* write through this */
  char path[4096];  /* final name */
  char tmp[4096];   /* temporary name */
};
int ssdrev_atomic_open(struct ssdrev_atomic *a, const char *path, struct ssdrev_err *err);
/* Flushes, fsyncs, closes and renames into place; on any write error
 * (ENOSPC included) removes the temporary file and fails. */
int ssdrev_atomic_commit(struct ssdrev_atomic *a, struct ssdrev_err *err);
/* Closes and removes the temporary file; PATH is untouched. */
void ssdrev_atomic_abort(struct ssdrev_atomic *a);
/* For regenerable outputs (a report and its charts): while on, commits in
 * this thread skip the fsync. The rename still makes each file appear whole
 * or not at all after a crash of the process; only a power loss can lose
 * one, and it is made again by rerunning the command. */
void ssdrev_atomic_defer_sync(int on);
/* Writes a whole buffer to PATH atomically. */
int ssdrev_write_file_atomic(const char *path, const void *data, size_t len, struct ssdrev_err *err);
/* Writes a JSON value to PATH atomically (indented, keys in insertion order). */
int ssdrev_write_json_atomic(const char *path, const json_t *v, struct ssdrev_err *err);
/* Reads a whole file into a NUL-terminated malloc'd buffer (caller frees).
 * Fails with a message naming the file. max_bytes = 0 means 256 MiB. */
int ssdrev_read_file(const char *path, char **out, size_t *len, size_t max_bytes, struct ssdrev_err *err);
/* Loads a JSON file; the error names the file, line and column. */
json_t *ssdrev_load_json(const char *path, struct ssdrev_err *err);
/* The same, also giving the CRC32C of the file's bytes (crc may be NULL). */
json_t *ssdrev_load_json_crc(const char *path, uint32_t *crc, struct ssdrev_err *err);
/* mkdir -p. */
int ssdrev_mkdirs(const char *path, struct ssdrev_err *err);

/* CRC32C (Castagnoli) of n bytes, continuing from crc (0 to start). */
uint32_t ssdrev_crc32c(uint32_t crc, const void *data, size_t n);

/* Parses a byte size: a number (fractions allowed) and an optional unit,
 * binary for k/M/G/T and KiB..TiB, decimal for KB..TB, case-insensitive:
 * "4k", "1GiB", "1.5 TB", "512". -EINVAL when malformed, -ERANGE when huge. */
int ssdrev_parse_size(const char *s, uint64_t *out);

/* Monotonic clock in ns (CLOCK_MONOTONIC). */
uint64_t ssdrev_clock_ns(void);

#endif
