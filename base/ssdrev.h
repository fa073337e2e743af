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

/* Output files. Every file ssdrev writes (logs, manifests, analysis.json,
 * charts, reviews, compare outputs, CSV, sim state) is created through
 * ssdrev_atomic_open or ssdrev_open_new, which share one contract:
 *   - PATH's directory is opened once with O_NOFOLLOW and everything else
 *     happens relative to it: when that directory or PATH itself is a
 *     symbolic link the call fails with -ELOOP and "refusing to write
 *     'PATH': it is a symbolic link" (or "its directory 'D' is ..."), and
 *     nothing is written. Directories above PATH's own are followed (a
 *     home directory may be a link); ssdrev_mkdirs refuses a link as the
 *     directory it is asked for, so each level an output creates is checked.
 *   - New bytes only ever go into a file this call creates (O_CREAT |
 *     O_EXCL | O_NOFOLLOW): an existing file is never opened for writing or
 *     truncated. An existing regular file at PATH is replaced only by
 *     rename(2), so its inode (and any other hard link to it) keeps its old
 *     bytes.
 *
 * An atomic output is written to PATH.tmp.XXXXXX in the same directory and
 * renamed over PATH only by ssdrev_atomic_commit, so a crash, a full disk or
 * an error never leaves PATH half-written. The struct owns the FILE and the
 * directory descriptor until commit or abort; it may be copied (moved) to
 * another thread before either. */
struct ssdrev_atomic {
  FILE *f;          /* write through this */
  char path[4096];  /* final name */
  char tmp[4096];   /* temporary name; empty when not open */
  int dir_fd;       /* PATH's directory, opened without following a link */
  int write_errno;  /* the first failed ssdrev_atomic_write's errno, 0 if none */
};
int ssdrev_atomic_open(struct ssdrev_atomic *a, const char *path, struct ssdrev_err *err);
/* fwrite to a->f that keeps the errno of the first failure for the
 * message ("No space left on device"): writers whose library reports only
 * "write error" (cairo, libharu) write through it. 0 or a negative errno. */
int ssdrev_atomic_write(struct ssdrev_atomic *a, const void *data, size_t n);
/* Flushes, fsyncs, closes and renames into place; on any write error
 * (ENOSPC included), or a link found at PATH by then, removes the temporary
 * file and fails with "cannot write 'PATH': ERRNO TEXT". */
int ssdrev_atomic_commit(struct ssdrev_atomic *a, struct ssdrev_err *err);
/* After a failed write: removes the temporary file (PATH untouched) and
 * fails as commit does, with the errno ssdrev_atomic_write kept (EIO when
 * none was). */
int ssdrev_atomic_fail(struct ssdrev_atomic *a, struct ssdrev_err *err);
/* Closes and removes the temporary file; PATH is untouched. */
void ssdrev_atomic_abort(struct ssdrev_atomic *a);
/* A group of outputs that appear together or not at all (a report: its
 * documents, charts and images). While the calling thread is in a group
 * (begin, or join from a worker thread), each commit still renames its
 * file into place (it can be read back at its name) but first keeps the
 * file it replaces under a temporary name (a hard link: no space), and
 * ssdrev_mkdirs notes the directories it creates. ssdrev_outputs_end with
 * KEEP removes the kept files; without it puts back every file as it was
 * (new ones removed, replaced ones renamed back, newest first) and removes
 * the directories the group created, so a failed command leaves nothing
 * partial behind. Groups do not nest; end frees G and takes the calling
 * thread out of it (join(NULL) takes a worker out). */
struct ssdrev_outputs;
struct ssdrev_outputs *ssdrev_outputs_begin(struct ssdrev_err *err); /* NULL (err set) on OOM */
struct ssdrev_outputs *ssdrev_outputs_current(void);                  /* this thread's, or NULL */
void ssdrev_outputs_join(struct ssdrev_outputs *g);
void ssdrev_outputs_end(struct ssdrev_outputs *g, int keep);
/* For regenerable outputs (a report and its charts): while on, commits in
 * this thread skip the fsync. The rename still makes each file appear whole
 * or not at all after a crash of the process; only a power loss can lose
 * one, and it is made again by rerunning the command. */
void ssdrev_atomic_defer_sync(int on);
/* A file that is written in place as it streams (an I/O log must be
 * readable at its final name after a crash): creates PATH and returns its
 * descriptor (write-only, close-on-exec; the caller closes it), or a
 * negative errno. Without `replace` an existing PATH fails with -EEXIST;
 * with it, an existing regular file is replaced at once by a new empty one
 * (created under a temporary name and renamed over it, never truncated).
 * Links are refused as for ssdrev_atomic_open. */
int ssdrev_open_new(const char *path, int replace, struct ssdrev_err *err);
/* Writes a whole buffer to PATH atomically. */
int ssdrev_write_file_atomic(const char *path, const void *data, size_t len, struct ssdrev_err *err);
/* Writes a JSON value to PATH atomically (indented, keys in insertion order). */
int ssdrev_write_json_atomic(const char *path, const json_t *v, struct ssdrev_err *err);

/* CSV cells. Every CSV ssdrev writes (analyze --csv, compare's compare.csv,
 * groups.csv and runs.csv, log dump --csv) is written cell by cell through
 * these two, so one rule holds everywhere (docs/hardening.md):
 *   - a text cell (any string from a file or the command line: a label, a
 *     model, a test or group name) is always quoted as RFC 4180 says, with
 *     libcsv's csv_fwrite (in double quotes, an inner quote doubled); one
 *     that begins with '=', '+', '-', '@', TAB or CR gets a leading ' inside
 *     the quotes (OWASP's CSV-injection rule), so a spreadsheet shows it as
 *     text instead of evaluating it as a formula ("=1+2" is written "'=1+2");
 *   - a number cell is a number ssdrev formatted itself (optional sign,
 *     digits, one point, an exponent), written bare so that -3.5 stays a
 *     number; anything else passed as a number is written as a text cell.
 *     An empty number is an empty (missing) cell.
 * LAST ends the row ("\n"), else a ',' follows. NULL is an empty cell.
 * Write errors show in ferror(f). */
void ssdrev_csv_text(FILE *f, const char *s, int last);
void ssdrev_csv_number(FILE *f, const char *num, int last);
/* Opens PATH for reading, refusing anything but a regular file (a FIFO,
 * directory or device: "cannot read 'X': not a regular file (fifo)") without
 * blocking on it (O_NONBLOCK until fstat, then cleared; O_CLOEXEC). Returns
 * the fd (caller closes) and fills *st (may be NULL), or a negative errno.
 * Every reader of an input file goes through it (docs/hardening.md). */
struct stat;
int ssdrev_open_read(const char *path, struct stat *st, struct ssdrev_err *err);
/* Reads a whole file into a NUL-terminated malloc'd buffer (caller frees).
 * Fails with a message naming the file. max_bytes = 0 means 256 MiB.
 * Regular files only (ssdrev_open_read). */
int ssdrev_read_file(const char *path, char **out, size_t *len, size_t max_bytes, struct ssdrev_err *err);
/* Loads a JSON file; the error names the file, line and column. */
json_t *ssdrev_load_json(const char *path, struct ssdrev_err *err);
/* The same, also giving the CRC32C of the file's bytes (crc may be NULL). */
json_t *ssdrev_load_json_crc(const char *path, uint32_t *crc, struct ssdrev_err *err);
/* mkdir -p; fails (-ELOOP, naming it) when PATH itself is a symbolic link
 * (its ancestors may be links). */
int ssdrev_mkdirs(const char *path, struct ssdrev_err *err);

/* CRC32C (Castagnoli) of n bytes, continuing from crc (0 to start). */
uint32_t ssdrev_crc32c(uint32_t crc, const void *data, size_t n);

/* Parses a byte size: a number (fractions allowed) and an optional unit,
 * binary for k/M/G/T and KiB..TiB, decimal for KB..TB, case-insensitive:
 * "4k", "1GiB", "1.5 TB", "512". -EINVAL when malformed, -ERANGE when huge. */
int ssdrev_parse_size(const char *s, uint64_t *out);

/* Monotonic clock in ns (CLOCK_MONOTONIC). */
uint64_t ssdrev_clock_ns(void);


/* ---- the SLC cache rule (base/slc.c), shared by the analysis of a fill
 * (analyze/slc.c) and the method's write-until-the-cliff (bench/method/):
 * change points of a fill trace and the evidence for a cliff
 * (docs/flags.md, "SLC estimate"). */
#define SSDREV_SLC_Z_MIN 8.0 /* a cliff's drop over its standard error, at least */
struct ssdrev_slc_drop {
  double at_gib, from_mb_s, to_mb_s; /* from/to: the speeds of the levels either side */
};
/* A level: a phase of the fill at one sustained speed (bytes over time). */
struct ssdrev_slc_level {
  double from_gib, to_gib, mb_s;
};
#define SSDREV_SLC_MAX_DROPS 8
struct ssdrev_slc {
  int found;              /* the evidence rules of docs/flags.md hold for a cliff */
  double cache_gib;       /* GiB written before the first cliff (found), else the GiB written */
  double cache_mb_s;      /* speed before it (found), else the whole fill's speed */
  double post_cache_mb_s; /* the whole phase after the cliff: its bytes over its time */
  double post_first_mb_s; /* the first segment after the cliff */
  double confidence;      /* 0..1 from drop_z (docs/flags.md, "SLC estimate"), 0 when !found */
  double drop_z;          /* the first cliff's drop over its standard error */
  double noise_mb_s;      /* sigma of one segmentation point */
  double step_gib;        /* resolution: the fine trace's step (cliffs are placed on it) */
  double seg_step_gib;    /* the segmentation's step (fine steps merged to <= 2048 points) */
  unsigned ndrops;        /* cliffs: level boundaries */
  struct ssdrev_slc_drop drops[SSDREV_SLC_MAX_DROPS];
  unsigned nlevels;       /* ndrops + 1 */
  struct ssdrev_slc_level levels[SSDREV_SLC_MAX_DROPS + 1];
  unsigned nsegments;
};
/* Estimates the SLC cache from a trace: gib[i] is the GiB written at the end
 * of point i (increasing, equal steps), mb_s[i] the speed over that point.
 * Change points by binary segmentation on the mean (fine points merged to
 * at most 2048) with a BIC-style penalty from a robust noise estimate and a
 * minimum segment of min_seg_gib (0: three points); levels and cliffs by the
 * evidence rules of docs/flags.md; each cliff placed on the fine trace by
 * the time the points around it took. No level (the cache included) shorter
 * than min_level_s seconds (0: any; a coarse clock's windows otherwise). */
int ssdrev_slc_estimate(const double *gib, const double *mb_s, size_t n, double min_seg_gib, double min_level_s,
                        struct ssdrev_slc *out, struct ssdrev_err *err);
/* Scratch memory of ssdrev_slc_estimate_ws, kept between calls (zeroed
 * to start; ssdrev_slc_ws_free to end): a watch that estimates again and
 * again allocates only when the trace outgrows it. */
struct ssdrev_slc_ws {
  double *buf;
  size_t cap;
};
int ssdrev_slc_estimate_ws(const double *gib, const double *mb_s, size_t n, double min_seg_gib, double min_level_s,
                           struct ssdrev_slc_ws *ws, struct ssdrev_slc *out, struct ssdrev_err *err);
void ssdrev_slc_ws_free(struct ssdrev_slc_ws *ws);

/* ---- the fill trace (base/filltrace.c): one construction for the online
 * watch (bench/method/cliff.c) and the analysis of a fill's log
 * (analyze/logstats.c). Measured completions in the order they come, in
 * steps of step_bytes: gib[i] the GiB written at the end of step i, mb_s[i]
 * its bytes over the time from the previous step's last completion (the
 * first: from the first submit) to the latest completion seen. A last
 * partial step stays out (the SLC rule wants equal steps). Past 2^22 points
 * the points merge in pairs and step_bytes doubles. */
struct ssdrev_fill_trace {
  uint64_t step_bytes;
  double *gib, *mb_s;
  size_t n, cap;
  uint64_t acc_bytes, bytes, prev_end_ns, last_done_ns, first_submit_ns;
  int started, oom;
};
void ssdrev_fill_trace_init(struct ssdrev_fill_trace *t, uint64_t step_bytes);
/* One completion (call in completion order); 1 when it closed a step, 0
 * when not, -ENOMEM (and every later call) when the arrays could not grow. */
int ssdrev_fill_trace_add(struct ssdrev_fill_trace *t, uint64_t len_bytes, uint64_t submit_ns, uint64_t done_ns);
void ssdrev_fill_trace_free(struct ssdrev_fill_trace *t);

#endif
