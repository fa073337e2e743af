/* bench.h — ssdrev's measurement core: the public header of libssdrev's
 * bench stage. It covers
 *   1. errors and atomic output files (shared by every stage),
 *   2. the binary I/O log (writer and streaming reader),
 *   3. the run archive (a directory with a JSON manifest),
 *   4. targets (files, block devices, sim:MODEL) and the destructive-write guard,
 *   5. engines (io_uring, psync, sim) behind one ops struct, and jobs,
 *   6. the simulated drive,
 *   7. the review method (profiles, steps, DUT info).
 *
 * Conventions: functions return 0 (or a count) on success and a negative
 * errno on failure, and fill the optional `struct ssdrev_err` with a message
 * that names the file, line or option at fault. They never print or exit.
 * Units are in names: _ns, _bytes, _mb_s (decimal MB/s). */
#ifndef SSDREV_BENCH_H
#define SSDREV_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#ifndef SSDREV_VERSION
#define SSDREV_VERSION "0.1.0"
#endif

/* ======================================================== 1. errors, files */

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
uint32_t bench_crc32c(uint32_t crc, const void *data, size_t n);

/* Parses a byte size: a number (fractions allowed) and an optional unit,
 * binary for k/M/G/T and KiB..TiB, decimal for KB..TB, case-insensitive:
 * "4k", "1GiB", "1.5 TB", "512". -EINVAL when malformed, -ERANGE when huge. */
int ssdrev_parse_size(const char *s, uint64_t *out);

/* Monotonic clock in ns (CLOCK_MONOTONIC). */
uint64_t bench_clock_ns(void);

/* ============================================================ 2. I/O log */

enum bench_op {
  BENCH_OP_READ = 0,
  BENCH_OP_WRITE = 1,
  BENCH_OP_TRIM = 2,
  BENCH_OP_FLUSH = 3,
};
const char *bench_op_name(unsigned op); /* "read", "write", "trim", "flush" */

enum bench_rec_flag {
  BENCH_REC_RAMP = 1u << 0, /* issued during the ramp: logged, not measured */
};

/* One I/O, as the engine saw it. */
struct bench_rec {
  uint64_t submit_ns;    /* submit time, ns since test start */
  uint64_t lat_ns;       /* completion latency, ns */
  uint64_t offset_bytes; /* byte offset on the target */
  uint32_t len_bytes;    /* transfer length */
  int32_t status;        /* 0 or -errno */
  uint16_t queue_id;     /* queue / thread that issued it */
  uint8_t op;            /* enum bench_op */
  uint8_t flags;         /* enum bench_rec_flag */
};

enum bench_clock_source {
  BENCH_CLOCK_MONOTONIC = 1, /* CLOCK_MONOTONIC of a real run */
  BENCH_CLOCK_VIRTUAL = 2,   /* the simulated drive's virtual clock */
  BENCH_CLOCK_IMPORTED = 3,  /* converted from another tool's log */
};

/* Header of a log file: see docs/log-format.md. */
struct bench_log_header {
  uint32_t version;       /* format version (filled by the writer) */
  uint32_t clock_source;  /* enum bench_clock_source */
  uint64_t start_unix_ns; /* wall-clock time of test start */
  char *params_json;      /* test parameters: a JSON object as UTF-8 text */
};

/* Records kept in memory before a chunk is written: a chunk is also cut when
 * its records span more than one second of submit time. A full chunk goes to
 * the writer's encoder thread while the next fills, so a crash loses at most
 * two chunks (about two seconds or twice this many records). */
#define BENCH_LOG_CHUNK_MAX_RECORDS 8192u

struct bench_log_writer;
/* Creates PATH (O_EXCL unless `overwrite`) and writes the header. Memory use
 * is bounded by one chunk whatever the run length. params_json may be NULL. */
int bench_log_writer_open(struct bench_log_writer **w, const char *path,
                          uint32_t clock_source, uint64_t start_unix_ns,
                          const char *params_json, int overwrite,
                          struct ssdrev_err *err);
/* Appends records; a chunk full or spanning a second is handed to the
 * writer's encoder thread (encoding stays off the I/O path). Thread-safe (an
 * internal mutex), so psync threads may share one writer. A write error of
 * the encoder is returned by the next append, flush or close. */
int bench_log_append(struct bench_log_writer *w, const struct bench_rec *recs,
                     size_t n, struct ssdrev_err *err);
/* Writes the pending chunk now (and fdatasyncs if `sync`). */
int bench_log_flush(struct bench_log_writer *w, int sync, struct ssdrev_err *err);
/* Flushes, fsyncs, closes and frees. Safe on NULL. Returns the first error. */
int bench_log_writer_close(struct bench_log_writer *w, struct ssdrev_err *err);
/* Records and bytes written so far. */
uint64_t bench_log_writer_records(const struct bench_log_writer *w);
uint64_t bench_log_writer_bytes(const struct bench_log_writer *w);

/* Columns a reader may decode; decoding fewer is faster. */
enum bench_col {
  BENCH_COL_SUBMIT = 1u << 0,
  BENCH_COL_LAT = 1u << 1,
  BENCH_COL_OFFSET = 1u << 2,
  BENCH_COL_LEN = 1u << 3,
  BENCH_COL_STATUS = 1u << 4,
  BENCH_COL_QUEUE = 1u << 5,
  BENCH_COL_OP = 1u << 6,
  BENCH_COL_FLAGS = 1u << 7,
  BENCH_COL_ALL = 0xffu,
};

/* A decoded chunk: column arrays of length n, owned by the reader and valid
 * until the next call. Columns not asked for are NULL. */
struct bench_log_chunk {
  size_t n;
  const uint64_t *submit_ns;
  const uint64_t *lat_ns;
  const uint64_t *offset_bytes;
  const uint32_t *len_bytes;
  const int32_t *status;
  const uint16_t *queue_id;
  const uint8_t *op;
  const uint8_t *flags;
  uint64_t file_offset; /* byte offset of this chunk in the file */
  uint32_t chunk_bytes; /* header + payload bytes of this chunk on disk */
  uint32_t col_bytes[8]; /* encoded bytes per column, in enum bench_col bit order */
  uint64_t min_submit_ns, max_submit_ns; /* chunk summary from its header */
  uint64_t min_lat_ns, max_lat_ns;
};

enum bench_log_open_flag {
  BENCH_LOG_SALVAGE = 1u << 0, /* skip chunks whose CRC fails instead of failing */
};

struct bench_log_reader;
/* Opens a log and reads its header. Fails (naming the file) on a bad magic,
 * an unsupported version or a corrupt header. */
int bench_log_open(struct bench_log_reader **r, const char *path, unsigned flags,
                   struct ssdrev_err *err);
const struct bench_log_header *bench_log_get_header(const struct bench_log_reader *r);
/* Decodes the next chunk's requested columns (enum bench_col mask); only
 * those columns are checksummed. cols = 0 reads the chunk header alone (n
 * and the summary: cheap, e.g. to split chunks among threads).
 * Returns n > 0, 0 at the end, or a negative errno: a CRC mismatch is -EBADMSG
 * with a message naming the file and byte offset (unless BENCH_LOG_SALVAGE).
 * A truncated tail is not an error: it ends the stream and is reported by
 * bench_log_get_stats. */
int bench_log_next_chunk(struct bench_log_reader *r, unsigned cols,
                         struct bench_log_chunk *out, struct ssdrev_err *err);
/* Record-at-a-time convenience over next_chunk: 1, 0 at end, or <0. */
int bench_log_next(struct bench_log_reader *r, struct bench_rec *rec, struct ssdrev_err *err);
struct bench_log_stats {
  uint64_t records;         /* records returned so far */
  uint64_t chunks;          /* chunks returned so far */
  uint64_t skipped_chunks;  /* chunks skipped by BENCH_LOG_SALVAGE */
  uint64_t skipped_records; /* records in those chunks, where known */
  int truncated;            /* the file ended inside a chunk */
  uint64_t truncated_at;    /* byte offset where the incomplete chunk starts */
  uint64_t file_bytes;
};
void bench_log_get_stats(const struct bench_log_reader *r, struct bench_log_stats *st);
/* Writes a synthetic log that mimics the io_uring engine on a 4 KiB random
 * read at QD32 over 1 GiB (batched submit and reap stamps, 50-150 us
 * latencies with a long tail, the first 5% flagged ramp), deterministic in
 * `seed`: a testing and benchmarking aid (`ssdrev log synth`). loop_ns is
 * the engine's time per reap/resubmit iteration (0 = the default): longer
 * loops reap bigger batches. */
#define BENCH_LOG_SYNTH_LOOP_NS 10000u /* default engine loop time (batches of ~4) */
int bench_log_synth(const char *path, uint64_t records, uint64_t seed, uint32_t loop_ns,
                    int overwrite, struct ssdrev_err *err);
/* Rewinds to the first chunk (for multi-pass readers). */
int bench_log_rewind(struct bench_log_reader *r, struct ssdrev_err *err);
void bench_log_close(struct bench_log_reader *r);

/* ========================================================= 3. run archive */

/* A run is a directory holding manifest.json, logs/ and, after analysis,
 * analysis.json. See docs/archive.md for every key. The manifest is a jansson
 * object owned by the run; every save is atomic (temporary file + rename). */
struct bench_run {
  char dir[4096];
  json_t *manifest;
  uint32_t manifest_crc32c; /* of manifest.json as bench_run_open read it: analysis.json
                             * records it, so a report can tell a stale analysis */
};
/* Creates DIR (must not exist or be empty) with a fresh manifest: format,
 * tool version, host, creation time, the given target description. */
int bench_run_create(struct bench_run **run, const char *dir, const char *target_spec,
                     struct ssdrev_err *err);
/* Opens an existing archive and validates the manifest's shape. */
int bench_run_open(struct bench_run **run, const char *dir, struct ssdrev_err *err);
int bench_run_save(struct bench_run *run, struct ssdrev_err *err);
void bench_run_free(struct bench_run *run);
/* Appends a test entry {name, params (stolen reference), status "running",
 * start time, log path relative to the run dir} and returns it (borrowed). */
json_t *bench_run_add_test(struct bench_run *run, const char *name, json_t *params,
                           const char *log_rel);
/* Finds a test entry by name (borrowed) or NULL. */
json_t *bench_run_find_test(struct bench_run *run, const char *name);
/* Sets status ("complete", "interrupted", "failed") and the end time. */
void bench_run_end_test(json_t *test, const char *status);
/* Absolute path of a file inside the run (static rotating buffer). */
const char *bench_run_path(const struct bench_run *run, const char *rel);
/* Removes temporary files ("*.tmp.XXXXXX" from ssdrev_atomic_open) that a
 * killed writer left in the run (top level and two directory levels down).
 * Only for the one process that resumes writing the run: a concurrent
 * writer's temporary would be removed too. Returns how many were removed,
 * or a negative errno (err names the file). */
int bench_run_remove_temps(struct bench_run *run, struct ssdrev_err *err);

/* ======================================================= 4. targets, guard */

enum bench_target_kind {
  BENCH_TARGET_FILE = 1,
  BENCH_TARGET_BLOCK = 2,
  BENCH_TARGET_SIM = 3,
};

struct bench_target_opts {
  uint64_t create_bytes; /* regular file: create and preallocate this size if absent */
  int write_intent;      /* the caller will write: the safety guard applies */
  int destructive;       /* user said --destructive (required to write a block device) */
  int force;             /* user said --force (overrides the guard's refusals) */
  int buffered;          /* do not use O_DIRECT */
  uint64_t seed;         /* sim: seed of the model's randomness */
};

struct bench_target; /* opaque */
/* Opens "PATH" (file or block device) or "sim:MODEL_FILE". A write to a block
 * device is refused unless destructive, and then still refused (naming why)
 * when it or a partition is mounted, is swap, has holders, or carries a
 * partition table or filesystem signature, unless force. force overrides the
 * signature check only: a mounted, swap or held device is always refused.
 * A regular file that ssdrev did not create (marked with the xattr
 * user.ssdrev.created, or a PATH.ssdrev-created sidecar where xattrs are
 * unsupported) is never overwritten without force. Files and block devices
 * are opened with O_DIRECT unless buffered. */
int bench_target_open(struct bench_target **t, const char *spec,
                      const struct bench_target_opts *opts, struct ssdrev_err *err);
void bench_target_close(struct bench_target *t);
enum bench_target_kind bench_target_get_kind(const struct bench_target *t);
uint64_t bench_target_size_bytes(const struct bench_target *t);
uint32_t bench_target_lba_bytes(const struct bench_target *t);
const char *bench_target_spec(const struct bench_target *t);
/* Whole-target discard (block device: BLKDISCARD; file: recreate; sim: reset). */
int bench_target_purge(struct bench_target *t, struct ssdrev_err *err);
/* Checks whether a block device may be written; 0 when allowed, else
 * -EBUSY/-EEXIST with the reason. Exposed for tests on loop devices. */
int bench_guard_check(const char *dev_path, int force, struct ssdrev_err *err);
/* The simulated drive behind a sim target, or NULL. */
struct bench_sim *bench_target_sim(struct bench_target *t);
/* Temperature in °C if the device reports it (NVMe hwmon/smart), else -1. */
double bench_target_temp_c(struct bench_target *t);

/* ==================================================== 5. engines and jobs */

/* One in-flight I/O, owned by the job runner; engines fill status/done_ns. */
struct bench_io {
  uint64_t offset_bytes;
  uint32_t len_bytes;
  uint8_t op;          /* enum bench_op */
  uint16_t queue_id;
  void *buf;           /* aligned buffer of len_bytes */
  unsigned buf_index;  /* index into the registered buffers */
  uint64_t submit_ns;  /* set by the runner from the engine's clock */
  uint64_t done_ns;    /* set by the engine at completion */
  int32_t status;      /* 0 or -errno, set by the engine */
  uint8_t rec_flags;   /* runner's: enum bench_rec_flag for the log (engines ignore it) */
};

struct bench_engine; /* engine instance: ops + private state */

/* An engine, fio-style: one table of function pointers filled by field name.
 * The runner checks the required hooks once when looking the engine up. */
struct bench_engine_ops {
  const char *name;
  /* Prepares for `qd` in-flight I/Os on the target using `bufs` (nbufs
   * aligned buffers of buf_bytes each, for buffer registration). */
  int (*setup)(struct bench_engine *e, struct bench_target *t, unsigned qd,
               void **bufs, unsigned nbufs, size_t buf_bytes, struct ssdrev_err *err);
  /* Queues n I/Os; returns how many were accepted or a negative errno. */
  int (*submit)(struct bench_engine *e, struct bench_io **ios, unsigned n);
  /* Waits for at least min completions, returns up to max in `done`. */
  int (*reap)(struct bench_engine *e, struct bench_io **done, unsigned min, unsigned max);
  void (*cleanup)(struct bench_engine *e);
  /* The engine's clock in ns (the sim's is virtual). */
  uint64_t (*now_ns)(struct bench_engine *e);
  /* Optional: called when the target is idle for idle_ns (sim folds SLC). */
  void (*idle)(struct bench_engine *e, uint64_t idle_ns);
  /* The engine honours bench_engine.poll_ns (io_uring). */
  int can_poll;
  /* Synchronous engine (psync): one I/O in flight per OS thread, so the
   * runner starts qd threads of depth 1 per job thread, as fio's psync with
   * numjobs = qd would. */
  int one_in_flight;
};

struct bench_engine {
  const struct bench_engine_ops *ops;
  void *priv;
  /* Set by the runner before setup: how long reap() may poll for
   * completions before it sleeps (0 = sleep at once). Engines that cannot
   * poll ignore it. */
  uint64_t poll_ns;
};

/* Looks an engine up by name ("io_uring", "psync", "sim"); NULL if unknown. */
const struct bench_engine_ops *bench_engine_find(const char *name);
/* The default engine for a target: sim for sim targets, io_uring when the
 * kernel allows it (io_uring_setup may fail with ENOSYS or EPERM), else psync. */
const struct bench_engine_ops *bench_engine_default(struct bench_target *t);

enum bench_pattern { BENCH_SEQ = 0, BENCH_RAND = 1 };

/* How a thread waits for completions (docs/perf/engines.md):
 * AUTO polls for up to BENCH_POLL_NS when the job has a queue (qd > 1) and
 * fewer threads than online CPUs, else sleeps, as fio does. */
enum bench_wait { BENCH_WAIT_AUTO = 0, BENCH_WAIT_SLEEP = 1, BENCH_WAIT_POLL = 2 };
#define BENCH_POLL_NS 200000ull
/* "auto", "sleep", "poll" <-> enum; -1 for an unknown name. */
int bench_wait_from_name(const char *name);
const char *bench_wait_name(enum bench_wait w);

/* A job's parameters; bench_job_defaults fills sensible ones. */
struct bench_job {
  char name[128];
  enum bench_pattern pattern;
  unsigned read_pct;      /* share of reads, 0..100 (100 = read, 0 = write) */
  uint32_t block_bytes;
  unsigned qd;            /* queue depth per thread */
  unsigned threads;       /* threads (psync) or queues (io_uring) */
  uint64_t offset_bytes;  /* start of the region */
  uint64_t span_bytes;    /* size of the region; 0 = to the end of the target */
  uint64_t ramp_ns;       /* logged with BENCH_REC_RAMP, not measured */
  uint64_t measure_ns;    /* time-based when > 0 */
  uint64_t size_bytes;    /* size-based when measure_ns == 0: bytes to move (0 = one pass over the span) */
  uint64_t max_ios;       /* stop after this many measured I/Os (0 = no limit) */
  uint64_t seed;          /* offsets and buffer contents */
  int zero_buffers;       /* write zeros instead of incompressible random data */
  uint64_t max_errors;    /* stop after this many I/O errors (0 = never) */
  char engine[32];        /* "" = bench_engine_default */
  enum bench_wait wait;   /* how threads wait for completions */
  uint64_t idle_ns;       /* idle this long before the first I/O (sim: ops->idle folds SLC; real: sleep) */
};
void bench_job_defaults(struct bench_job *job);
/* Parameters as a JSON object (for the manifest and the log header). */
json_t *bench_job_to_json(const struct bench_job *job);
int bench_job_from_json(struct bench_job *job, const json_t *obj, struct ssdrev_err *err);

struct bench_job_result {
  uint64_t ios, bytes;        /* measured (non-ramp) I/Os and bytes */
  uint64_t errors;            /* I/Os that completed with status < 0 */
  uint64_t elapsed_ns;        /* measured time */
  double mb_s, iops, mean_lat_ns;
  int interrupted;            /* stopped by a signal */
  char engine[32];            /* engine actually used */
  char wait[8];               /* how its threads waited: "poll", "sleep", "" (sim: virtual time) */
};
/* The result as the manifest's TEST.result object (docs/archive.md). */
json_t *bench_job_result_to_json(const struct bench_job_result *res);

/* Progress reported about every 250 ms of engine time. */
struct bench_progress {
  const char *phase;
  double fraction;       /* 0..1, or < 0 when unknown */
  double mb_s, iops;     /* over the last interval */
  double eta_s;          /* < 0 when unknown */
};
typedef void (*bench_progress_fn)(const struct bench_progress *p, void *arg);

/* Set by the CLI's SIGINT/SIGTERM handler: the runner stops submitting,
 * drains in-flight I/O and finalizes the log. */
extern volatile int bench_stop_requested;

/* Runs one job on an open target and logs every I/O to log_path (created or
 * replaced; NULL for no log). Fails before any I/O on bad parameters (naming
 * the field). Each thread runs its own engine instance (a sim target folds
 * the threads into one queue of qd x threads, keeping its clock
 * deterministic); queue_id in the log is the thread. Time-based jobs end by
 * the engine's clock; sequential jobs split the span between threads.
 * On SIGINT (bench_stop_requested) it drains, finalizes the log and returns
 * 0 with res->interrupted set; reaching max_errors returns -EIO; res is
 * filled in every case once I/O started. */
int bench_job_run(struct bench_target *t, const struct bench_job *job, const char *log_path,
                  bench_progress_fn progress, void *progress_arg,
                  struct bench_job_result *res, struct ssdrev_err *err);

/* ================================================== 6. the simulated drive */

/* A drive model, loaded from a documented key = value file
 * (samples/models/NAME.model, docs/sim-model.md). Every timing is a mechanism
 * (NAND sense/program/erase, channel and link transfers, program suspend),
 * not a fitted curve: queue-depth scaling, the SLC cliff and the read tail
 * follow from them. */
struct bench_sim_power_state {
  double max_power_w, entry_lat_us, exit_lat_us;
};
#define BENCH_SIM_MAX_POWER_STATES 8
struct bench_sim_model {
  char name[64];              /* file name without ".model" unless `name` is set */
  char label[128];            /* e.g. "PM981 256GB" */
  uint64_t capacity_bytes;
  uint32_t lba_bytes;
  double link_mb_s;           /* usable host link rate, e.g. PCIe 3.0 x4 ~ 3500 */
  unsigned channels, dies_per_channel, planes;
  double channel_mt_s;        /* NAND interface, MT/s (bytes per transfer = 1) */
  uint32_t page_bytes;        /* one plane's page */
  unsigned bits_per_cell;     /* 3 = TLC: a block in SLC mode holds a third */
  uint64_t block_bytes;       /* SLC-mode erase block of one die (all planes) */
  double t_read_us;           /* sense time of the fastest page type (LSB) */
  double t_read_step_us;      /* extra sense time per page type (CSB, MSB) */
  double read_jitter_us;      /* ECC decode time, uniform 0..this */
  double read_retry_prob;     /* chance a read needs a retry (re-sense + decode) */
  double t_prog_slc_us, t_prog_tlc_us, t_erase_us;
  double erase_jitter_pct;    /* erase time varies by +-this % */
  double suspend_us;          /* program suspend latency seen by a read */
  double gc_steps_per_gib;    /* GC steps per GiB written on a full drive */
  double gc_free_pct;         /* GC starts when free space falls below this % (default 15) */
  unsigned gc_copies;         /* a GC step: this many page copies (a read slips in between) */
  double gc_copy_us;          /* one copy, not suspendable; then the victim's erase */
  double controller_us;       /* fixed controller/firmware overhead per command */
  double write_ack_us;        /* a write acknowledged from the DRAM buffer */
  double write_jitter_us;     /* uniform 0..this added to write_ack_us */
  double write_stall_prob;    /* chance a write waits for an L2P journal flush */
  double write_stall_min_us, write_stall_max_us;
  uint64_t write_buffer_bytes; /* DRAM write buffer: beyond it writes wait for NAND */
  double slc_max_gib, slc_min_gib;   /* dynamic SLC cache at empty / near-full */
  int slc_static_only;        /* 1 = only the static minimum exists */
  double fold_mb_s;           /* idle folding rate SLC -> TLC */
  double error_rate;          /* injected I/O error probability per command */
  uint64_t bad_lba_start, bad_lba_count; /* reads touching this range fail (-EIO) */
  double temp_idle_c, temp_load_c, temp_warn_c, temp_crit_c;
  /* DUT facts for reports (docs/archive.md "DUT summary"); "" = unknown. */
  char dut_model[96], dut_firmware[48], dut_link[32], dut_nvme_version[16];
  char dut_controller[64], dut_media[64];
  struct bench_sim_power_state power_states[BENCH_SIM_MAX_POWER_STATES];
  unsigned n_power_states;
  char extra_json[1024];      /* the DUT summary as compact JSON text (filled by load) */
};
/* Parses MODEL_FILE; errors name file:line ("unknown key 'foo' at
 * pm981.model:12"), bad numbers and missing required keys. */
int bench_sim_model_load(struct bench_sim_model *m, const char *path, struct ssdrev_err *err);
/* The model's DUT summary object (new reference, caller decrefs); unknown
 * fields are absent. */
json_t *bench_sim_model_dut(const struct bench_sim_model *m);
/* Figures that follow from the parameters (what `ssdrev model show` prints). */
struct bench_sim_derived {
  unsigned dies;
  double read_4k_us;          /* QD1 4 KiB read latency, typical (CSB page) */
  double raw_read_iops;       /* die-parallel 4 KiB random read ceiling */
  double raw_read_mb_s;       /* the same in MB/s */
  double seq_read_mb_s;       /* min(link, dies x page rate, channels) */
  double slc_write_mb_s;      /* sequential write into the SLC cache */
  double post_cache_mb_s;     /* sequential write direct to TLC */
  uint64_t slc_max_bytes, slc_min_bytes;
};
void bench_sim_model_derive(const struct bench_sim_model *m, struct bench_sim_derived *d);

struct bench_sim; /* a simulated drive instance with its FTL state and virtual clock */
/* Copies the model; the same model and seed give the same behaviour. */
int bench_sim_new(struct bench_sim **s, const struct bench_sim_model *m, uint64_t seed,
                  struct ssdrev_err *err);
void bench_sim_free(struct bench_sim *s);
const struct bench_sim_model *bench_sim_get_model(const struct bench_sim *s);
/* Virtual time in ns since the drive was created (never goes back). */
uint64_t bench_sim_now_ns(const struct bench_sim *s);
/* Whole-drive discard (format): unmaps every LBA and empties the SLC
 * cache; the virtual clock keeps running. */
void bench_sim_reset(struct bench_sim *s);
/* Discards [off, off+len): whole 4 KiB units inside it are unmapped. */
int bench_sim_trim(struct bench_sim *s, uint64_t off, uint64_t len);
/* The host leaves the drive idle for idle_ns: virtual time advances and the
 * SLC cache folds into TLC at fold_mb_s. */
void bench_sim_idle(struct bench_sim *s, uint64_t idle_ns);
/* Ground truth for tests and for judging the analysis. */
struct bench_sim_truth {
  uint64_t slc_cache_bytes_now;  /* free SLC room right now */
  uint64_t slc_cache_bytes_max;  /* dynamic cache size on an empty drive */
  uint64_t slc_cache_bytes_min;  /* static minimum near full */
  double post_cache_mb_s;        /* sequential write speed direct to TLC */
  uint64_t mapped_bytes;         /* LBAs currently holding data */
  double temp_c;
  uint64_t slc_used_bytes;       /* data in SLC not yet folded */
  uint64_t slc_cache_bytes_cap;  /* cache size allowed by the free space now */
  uint64_t now_ns;               /* virtual clock */
};
void bench_sim_get_truth(const struct bench_sim *s, struct bench_sim_truth *t);
/* Saves / restores the drive state (for resuming a review). The state file
 * names its model's capacity; loading onto another model fails. */
int bench_sim_save(const struct bench_sim *s, const char *path, struct ssdrev_err *err);
int bench_sim_load_state(struct bench_sim *s, const char *path, struct ssdrev_err *err);

/* The engine that drives a sim target on its virtual clock (bench/sim_engine.c):
 * submit() queues commands at the current virtual time, reap() advances the
 * clock to the next completion. No real I/O; buffers are never touched. */
extern const struct bench_engine_ops bench_engine_sim_ops;

/* ======================================================= 7. review method */

/* Runs a method (profile file, docs/method.md) on a target into a run archive.
 * Steps already complete in the archive are skipped, so an interrupted review
 * resumes. See bench/review*.c. */
struct bench_review_opts {
  const char *target_spec;
  const char *profile_path;    /* method file, e.g. profiles/review.json */
  const char *run_dir;
  const char *only_step;       /* run one step alone, or NULL */
  const char *dut_json_dir;    /* nvme/smartctl JSON files for a run made elsewhere */
  const char *label;           /* drive label for reports, e.g. "PM981 256GB" */
  int short_mode;              /* smaller regions, shorter measure times */
  int destructive, force, quiet, include_serial;
  uint64_t seed;
  unsigned passes;             /* 0 = the profile's */
  uint64_t create_bytes;       /* file target: create it with this size if absent */
};
int bench_review_run(const struct bench_review_opts *o, bench_progress_fn progress,
                     void *arg, struct ssdrev_err *err);
/* The plan: steps with estimated duration, as text lines into buf. */
int bench_review_plan(const struct bench_review_opts *o, char *buf, size_t len,
                      struct ssdrev_err *err);

/* DUT info from nvme-cli (id-ctrl -o json, smart-log -o json) and smartctl -j
 * JSON text, merged into the review's DUT summary object (docs/archive.md). */
json_t *bench_dut_parse(const char *id_ctrl_json, const char *smart_log_json,
                        const char *smartctl_json, int include_serial, struct ssdrev_err *err);
/* Collects DUT info from a block device without writing to it: for NVMe it
 * runs `nvme id-ctrl -o json`, `nvme smart-log -o json` and `smartctl -a -j`
 * (those installed) and reads sysfs (model, firmware, PCIe link). *raw (if
 * non-NULL) receives {"id_ctrl": text, "smart_log": text, "smartctl": text}
 * with what was collected (caller decrefs both). */
json_t *bench_dut_collect(const char *dev, int include_serial, json_t **raw,
                          struct ssdrev_err *err);
/* Copies the fields of a user's overrides object (e.g. "controller",
 * "media", which no tool reports) into dut. */
void bench_dut_apply_overrides(json_t *dut, const json_t *overrides);

/* ============================================================ 8. importers */

/* import.h — importers: other tools' results into ssdrev run archives
 * (docs/interop.md). An importer is a row in a table of function pointers
 * (bench/import.c); `ssdrev import KIND` looks it up by name.
 *
 *   fio  fio --output-format=json or json+ (local or client/server), plus the
 *        per-I/O latency logs of write_lat_log with log_avg_msec=0, converted
 *        to ssdrev binary logs (clock source BENCH_CLOCK_IMPORTED).
 *   cdm  CrystalDiskMark "Save text" result files: a summary per cell, no log.
 *
 * Library rules as in bench.h: 0 or a negative errno, messages in the
 * optional struct ssdrev_err naming the file and line, never print or exit. */



/* Which fio latency log to take per-I/O records from. */
enum bench_fio_lat {
  BENCH_FIO_LAT_AUTO = 0, /* "lat" when present, else "clat" */
  BENCH_FIO_LAT_TOTAL = 1, /* *_lat.N.log: submission to completion */
  BENCH_FIO_LAT_CLAT = 2,  /* *_clat.N.log: issue to completion */
};

struct bench_import_opts {
  const char *out_dir;   /* run archive to create (must not exist or be empty) */
  const char *log_dir;   /* fio: directory holding the latency logs; NULL = the
                          * JSON file's directory, then the current directory */
  const char *label;     /* drive label for reports; NULL = none (cdm: the Comment) */
  const char *model;     /* DUT model / firmware to record (fio and CDM know neither) */
  const char *firmware;
  const char *state;     /* fill state, e.g. "FOB" or "75%"; NULL = guessed (cdm) */
  enum bench_fio_lat lat;
  int log_offset;        /* fio logs carry an offset column: -1 = from the JSON
                          * job options, else 0 or 1 */
  int no_logs;           /* fio: import the summary only, even if logs exist */
};
void bench_import_opts_defaults(struct bench_import_opts *o);

struct bench_import_result {
  unsigned tests;     /* test entries written */
  unsigned logs;      /* of which with a per-I/O log */
  uint64_t log_ios;   /* records written to logs */
  unsigned warnings;  /* also stored in the manifest under "import_warnings" */
};

struct bench_importer {
  const char *name;    /* "fio", "cdm" */
  const char *summary; /* one line for --help */
  int (*import)(const char *input, const struct bench_import_opts *o,
                struct bench_import_result *res, struct ssdrev_err *err);
};
/* Looks an importer up by name; NULL if unknown. */
const struct bench_importer *bench_importer_find(const char *name);
/* The table, ending with a row whose name is NULL. */
extern const struct bench_importer bench_importers[];

/* ---- fio latency logs (bench/import_fiolog.c) */

/* How to read one log's columns. Lines are "time_ms, value, ddir, bs[, offset]
 * [, prio][, more]": fio 3.x always appends prio (decimal, or hex with
 * log_prio=1); the offset is there only with log_offset=1; later columns (fio
 * 3.36's issue time) are ignored. */
struct bench_fio_log_fmt {
  int has_offset;         /* -1 = decide by the column count: 6+ columns => offset */
  uint16_t queue_id;      /* stored in every record */
};
struct bench_fio_log_stats {
  uint64_t lines;         /* records converted */
  uint64_t clamped;       /* records whose derived submit time was < 0, set to 0 */
  uint64_t by_op[3];      /* read, write, trim */
  uint64_t bytes;
  uint64_t max_time_ms;   /* largest time column */
  unsigned columns;       /* column count of the first line */
};
/* Streams the fio latency log at PATH through libcsv into the open writer W.
 * Each record: lat_ns = value (ns), submit_ns = time_ms * 1e6 - value (fio
 * stamps a sample when the I/O completes; so submit times are good to about
 * 1 ms), op = ddir, len = bs, offset if present, status 0. Fails naming the
 * file and line on a malformed line. */
int bench_fio_log_import(const char *path, const struct bench_fio_log_fmt *fmt,
                         struct bench_log_writer *w, struct bench_fio_log_stats *st,
                         struct ssdrev_err *err);

/* ---- fio JSON (bench/import_fio.c) */

/* Loads fio JSON output, skipping any text before the first line that starts
 * with '{' (fio prints warnings, and client/server prefixes, before it). */
json_t *bench_fio_json_load(const char *path, struct ssdrev_err *err);
/* Percentiles from a json+ "bins" object (latency ns -> count): nearest rank
 * over the buckets, each value the bucket's representative value as fio
 * prints it. Returns [{"p":..,"lat_ns":..,"bucketed":true}, ...] or NULL
 * when bins is not a non-empty object. */
json_t *bench_fio_bins_percentiles(const json_t *bins, const double *pcts, unsigned npcts);

/* ---- CrystalDiskMark text (bench/import_cdm.c) */

/* Parses CrystalDiskMark "Save text" output (CDM 6-9 section layout; UTF-8 with
 * or without BOM, CRLF or LF, spacing lenient) into
 *   {"version": "8.0.4 x64", "profile": "Default", "test": "1 GiB (x5) [...]",
 *    "mode": .., "time": .., "date": .., "os": .., "comment": ..,
 *    "mix": "Read 70%/Write 30%",
 *    "cells": [{"op": "read", "cell": "SEQ1M Q8T1", "pattern": "seq",
 *               "block_bytes": 1048576, "qd": 8, "threads": 1,
 *               "mb_s": .., "iops": .., "lat_us": ..}, ...]}
 * Keys the text lacks are absent. Fails naming the line when no result line
 * is found or a result line is malformed. `name` is used in messages. */
json_t *bench_cdm_parse(const char *text, size_t len, const char *name, struct ssdrev_err *err);

#endif
