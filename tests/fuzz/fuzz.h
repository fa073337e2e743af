/* fuzz.h — shared helpers for the libFuzzer targets in tests/fuzz/fuzz_*.c.
 *
 * Every target defines one static function `int fuzz_NAME_one(const uint8_t *,
 * size_t)` and ends with FUZZ_ENTRY(fuzz_NAME_one). Built by tests/fuzz/run.sh
 * that becomes LLVMFuzzerTestOneInput; built with FUZZ_NO_MAIN (as
 * tests/unit/test_regress_fuzz.c does, including every target) it becomes
 * nothing, so the seed corpora and every past finding are replayed by
 * `make test` under ASan and UBSan.
 *
 * Most parsers take a path, not a buffer, so the input is written to a file in
 * a private scratch directory (tmpfs when /dev/shm exists: the write costs
 * microseconds), created on first use and removed at exit. */
#ifndef SSDREV_FUZZ_H
#define SSDREV_FUZZ_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

#ifdef FUZZ_NO_MAIN
#define FUZZ_ENTRY(fn)
#else
#define FUZZ_ENTRY(fn) \
  int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); \
  int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fn(data, size); }
#endif

static char fuzz_dir[512];

static __attribute__((unused)) void fuzz_rmdir(void) {
  char cmd[600];
  /* Only ever remove the directory this process made (its prefix is fixed). */
  if (fuzz_dir[0] && strstr(fuzz_dir, "/ssdrev-fuzz.")) {
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir);
    if (system(cmd) != 0) fprintf(stderr, "fuzz: could not remove %s\n", fuzz_dir);
  }
}

/* The scratch directory: $FUZZ_TMPDIR, else /dev/shm, else /tmp. */
static __attribute__((unused)) const char *fuzz_tmpdir(void) {
  if (fuzz_dir[0]) return fuzz_dir;
  const char *base = getenv("FUZZ_TMPDIR");
  struct stat st;
  if (!base || !*base) base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
  snprintf(fuzz_dir, sizeof fuzz_dir, "%s/ssdrev-fuzz.XXXXXX", base);
  if (!mkdtemp(fuzz_dir)) {
    perror("fuzz: mkdtemp");
    abort();
  }
  atexit(fuzz_rmdir);
  return fuzz_dir;
}

/* Path of NAME in the scratch directory (rotating static buffers). */
static __attribute__((unused)) const char *fuzz_path(const char *name) {
  static char bufs[4][700];
  static unsigned i;
  char *b = bufs[i++ & 3];
  snprintf(b, sizeof bufs[0], "%s/%s", fuzz_tmpdir(), name);
  return b;
}

/* Writes the input to NAME in the scratch directory and returns its path. */
static __attribute__((unused)) const char *fuzz_write(const char *name, const uint8_t *data, size_t size) {
  const char *p = fuzz_path(name);
  int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    perror("fuzz: open");
    abort();
  }
  size_t off = 0;
  while (off < size) {
    ssize_t w = write(fd, data + off, size - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      perror("fuzz: write");
      abort();
    }
    off += (size_t)w;
  }
  close(fd);
  return p;
}

static int fuzz_rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(p) ? -1 : 0;
}

/* Removes NAME (a file or a tree) from the scratch directory, in-process:
 * spawning rm for every input would cap a target at a few hundred runs/s. */
static __attribute__((unused)) void fuzz_rm(const char *name) {
  const char *p = fuzz_path(name);
  struct stat st;
  if (lstat(p, &st)) return;
  if (nftw(p, fuzz_rm_one, 16, FTW_DEPTH | FTW_PHYS)) {
    perror("fuzz: nftw");
    abort();
  }
}

/* A NUL-terminated malloc'd copy of the input (parsers of text take C strings). */
static __attribute__((unused)) char *fuzz_strdup(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) abort();
  memcpy(s, data, size);
  s[size] = 0;
  return s;
}

/* An error message must be NUL-terminated within its buffer: reading it all
 * makes ASan catch a message that was never terminated. */
static __attribute__((unused)) void fuzz_check_err(const struct ssdrev_err *err) {
  if (strnlen(err->msg, sizeof err->msg) >= sizeof err->msg) abort();
}

#endif
