/* bench.h — ssdrev's measurement core: targets (files, block devices,
 * sim:MODEL) and the destructive-write guard, engines (io_uring, psync, sim)
 * behind one ops struct, the job runner, and the review method (profiles,
 * steps, DUT collection). It builds on base/ (errors, files), log/ (the I/O
 * log), archive/ (run directories), sim/ (the simulated drive) and import/
 * (DUT JSON parsing). Rules as in base/ssdrev.h. */
#ifndef SSDREV_BENCH_H
#define SSDREV_BENCH_H

#include <pthread.h>
#include <stdatomic.h>
#include "base/ssdrev.h"
#include "log/ssdlog.h"

struct sim; /* sim/sim.h */

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
 * when it, a partition or its whole disk is in use (mounted in any mount
 * namespace, swap, held, backing a loop device: bench/target/guard_use.c), is
 * read-only, or carries a partition table or a filesystem, RAID, LVM, LUKS
 * or swap signature (libblkid) unless force. force overrides the signature
 * check only: an in-use or read-only device is always refused. A write to
 * a read-only file or filesystem fails at open (EROFS, EACCES).
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
/* Whole-target discard (block device: BLKDISCARD, or an NVMe Format NVM
 * where the namespace has no discard; file: recreate; sim: reset). */
int bench_target_purge(struct bench_target *t, struct ssdrev_err *err);
/* How a block device is purged: AUTO as bench_target_purge; DISCARD only;
 * FORMAT an NVMe Format NVM (no secure erase), refused on other devices.
 * Files and sims ignore it. */
enum bench_purge { BENCH_PURGE_AUTO = 0, BENCH_PURGE_DISCARD = 1, BENCH_PURGE_FORMAT = 2 };
int bench_target_purge_as(struct bench_target *t, enum bench_purge how, struct ssdrev_err *err);
/* What the last successful purge did: "discard", "format", "recreate",
 * "reset"; NULL before one. Static string. */
const char *bench_target_purge_method(const struct bench_target *t);
/* Checks whether a block device may be written; 0 when allowed, else
 * -EBUSY (in use), -EROFS (read-only) or -EEXIST (a signature, unless force)
 * with the reason and, for a stacked user, the chain ("it backs /dev/loop4,
 * which is mounted at /mnt/x"). Exposed for tests on loop devices. */
int bench_guard_check(const char *dev_path, int force, struct ssdrev_err *err);
/* The simulated drive behind a sim target, or NULL. */
struct sim *bench_target_sim(struct bench_target *t);
/* Temperature in °C if the device reports it, else -1: an NVMe namespace's
 * SMART composite temperature (admin passthrough), else hwmon. */
double bench_target_temp_c(struct bench_target *t);
/* Every temperature the device reports, for the thermal step: the
 * composite (as bench_target_temp_c), NVMe SMART log temperature sensors
 * 1-8 where present, and the log's thermal management counters (TMT1 /
 * TMT2 transition counts and total seconds). A sim target reports its
 * model's temperature and throttle counters the same way. Returns 0, or
 * -ENODATA when the device reports no temperature. */
#define BENCH_TEMP_SENSORS 8
struct bench_temps {
  double composite_c;
  double sensor_c[BENCH_TEMP_SENSORS]; /* < 0: the sensor is absent */
  int have_tmt;                        /* tmt_* are the device's counters */
  uint32_t tmt_count[2], tmt_s[2];     /* transitions into TMT1 / TMT2, seconds spent there */
};
int bench_target_temps(struct bench_target *t, struct bench_temps *out);
/* The drive's own write counters since it was made: bytes the host wrote and
 * bytes the NAND programmed (a vendor log's host / NAND bytes written). A sim
 * target with the page-mapped FTL (op_pct) has both; other targets: -ENODATA
 * (NVMe's standard SMART log has no NAND bytes). */
int bench_target_write_counters(struct bench_target *t, uint64_t *host_bytes, uint64_t *nand_bytes);

/* ==================================================== 5. engines and jobs */

/* One in-flight I/O, owned by the job runner; engines fill status/done_ns. */
struct bench_io {
  uint64_t offset_bytes;
  uint32_t len_bytes;
  uint8_t op;          /* enum ssdlog_op */
  uint16_t queue_id;
  void *buf;           /* aligned buffer of len_bytes */
  unsigned buf_index;  /* index into the registered buffers */
  uint64_t submit_ns;  /* set by the runner from the engine's clock */
  uint64_t done_ns;    /* set by the engine at completion */
  int32_t status;      /* 0 or -errno, set by the engine */
  uint8_t rec_flags;   /* runner's: enum ssdlog_rec_flag for the log (engines ignore it) */
};

struct bench_engine; /* engine instance: ops + private state */

/* An engine, fio-style: one table of function pointers filled by field name.
 * The runner checks the version and the required hooks once when looking
 * the engine up, and reads what an engine can do from its flags; it never
 * asks which engine or which kind of target it drives. */
#define BENCH_ENGINE_OPS_VERSION 2u /* bumped when the struct's meaning changes */
enum bench_engine_flag {
  /* Honours bench_engine.poll_ns: may poll for completions before sleeping. */
  BENCH_ENGINE_CAN_POLL = 1u << 0,
  /* Synchronous (psync): one I/O in flight per OS thread, so the runner
   * starts qd threads of depth 1 per job thread, as fio's psync with
   * numjobs = qd would. */
  BENCH_ENGINE_ONE_IN_FLIGHT = 1u << 1,
  /* Runs on one virtual clock (sim): the runner folds the job's threads into
   * one queue of qd x threads driven from one OS thread, so the clock stays
   * deterministic; logs carry SSDLOG_CLOCK_VIRTUAL and start at time 0. */
  BENCH_ENGINE_VIRTUAL_CLOCK = 1u << 2,
  /* Never reads or writes buffer contents: the runner does not fill them. */
  BENCH_ENGINE_NO_DATA = 1u << 3,
  /* Can have the kernel poll the device for completions (bench_engine.iopoll;
   * io_uring's IORING_SETUP_IOPOLL). */
  BENCH_ENGINE_CAN_IOPOLL = 1u << 4,
  /* Honours bench_engine.submit_each: hands each I/O to the kernel as it is
   * prepared, or a whole refill in one call (io_uring). */
  BENCH_ENGINE_CAN_BATCH = 1u << 5,
};
struct bench_engine_ops {
  unsigned version;      /* BENCH_ENGINE_OPS_VERSION */
  const char *name;
  unsigned flags;        /* enum bench_engine_flag */
  /* 1 when the engine can drive target t on this machine (io_uring: a file
   * or device and a kernel that allows rings; sim: a simulated drive). The
   * default engine of a target is the first in the table that accepts it. */
  int (*accepts)(struct bench_target *t);
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
};

struct bench_engine {
  const struct bench_engine_ops *ops;
  void *priv;
  /* Set by the runner before setup: how long reap() may poll for
   * completions before it sleeps (0 = sleep at once). Engines that cannot
   * poll ignore it. */
  uint64_t poll_ns;
  /* Set by the runner before setup: hand each I/O to the kernel as submit()
   * prepares it (BENCH_SUBMIT_EACH), stamping its submit time just before;
   * 0: submit() only prepares, reap() hands the batch over. */
  int submit_each;
  /* Set by the runner before setup (engines with BENCH_ENGINE_CAN_IOPOLL): completions
   * are polled from the device by the kernel (BENCH_WAIT_IOPOLL). */
  int iopoll;
};

/* Looks an engine up by name ("io_uring", "psync", "sim"); NULL if unknown. */
const struct bench_engine_ops *bench_engine_find(const char *name);
/* The default engine for a target: the first of io_uring, psync, sim whose
 * accepts hook takes it (sim for sim targets, io_uring when the kernel
 * allows it: io_uring_setup may fail with ENOSYS or EPERM; else psync), or
 * NULL when none does. */
const struct bench_engine_ops *bench_engine_default(struct bench_target *t);

enum bench_pattern { BENCH_SEQ = 0, BENCH_RAND = 1 };

/* How a thread waits for completions (docs/perf/engines.md):
 * AUTO (the default) sleeps, as fio does: polling from user space
 * (POLL: up to BENCH_POLL_NS before sleeping) costs a CPU, and on a shared
 * machine the CPU it takes is the one the kernel's side of the I/O needs,
 * so it changes what the device sees. IOPOLL creates the ring with
 * IORING_SETUP_IOPOLL: the kernel polls the device's completion queues
 * (NVMe poll queues, nvme.poll_queues=N); engines with BENCH_ENGINE_CAN_IOPOLL only,
 * O_DIRECT only. */
enum bench_wait { BENCH_WAIT_AUTO = 0, BENCH_WAIT_SLEEP = 1, BENCH_WAIT_POLL = 2, BENCH_WAIT_IOPOLL = 3 };
#define BENCH_POLL_NS 200000ull
/* "auto", "sleep", "poll", "iopoll" <-> enum; -1 for an unknown name. */
int bench_wait_from_name(const char *name);
const char *bench_wait_name(enum bench_wait w);

/* When prepared I/Os are handed to the kernel (docs/perf/engines.md):
 * EACH (the default) as soon as each is prepared, so the queue is topped up
 * as completions arrive, as fio's defaults (iodepth_batch_submit=1) do;
 * BATCH hands the whole refill over in one call with the wait (one syscall
 * per batch, but the requests reach the device in bursts, which cost a
 * virtio disk 10-30% of its IOPS). Engines that take one I/O at a time
 * (psync) or run on a virtual clock (sim) ignore it. */
enum bench_submit { BENCH_SUBMIT_EACH = 0, BENCH_SUBMIT_BATCH = 1 };
/* "each", "batch" <-> enum; -1 for an unknown name. */
int bench_submit_from_name(const char *name);
const char *bench_submit_name(enum bench_submit s);

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
  uint64_t ramp_ns;       /* logged with SSDLOG_REC_RAMP, not measured */
  uint64_t measure_ns;    /* time-based when > 0 */
  uint64_t size_bytes;    /* size-based when measure_ns == 0: bytes to move (0 = one pass over the span) */
  uint64_t max_ios;       /* stop after this many measured I/Os (0 = no limit) */
  uint64_t seed;          /* offsets and buffer contents */
  int zero_buffers;       /* write zeros instead of incompressible random data */
  uint64_t max_errors;    /* stop after this many I/O errors (0 = never) */
  char engine[32];        /* "" = bench_engine_default */
  enum bench_wait wait;   /* how threads wait for completions */
  enum bench_submit submit; /* when prepared I/Os go to the kernel */
  uint64_t idle_ns;       /* idle this long before the first I/O (sim: ops->idle folds SLC; real: sleep) */
  /* Sees each batch of completions as the log gets them (submit_ns from the
   * job's start); nonzero stops submitting, and the job ends once the I/Os
   * in flight are done (a write until the cliff, bench/method/cliff.c).
   * Called by one thread at a time, on the I/O threads: keep it cheap. A
   * watch with a slow judgment returns BENCH_JOB_WATCH_DUE instead; the job
   * then calls it once with (arg, NULL, 0) for that judgment (nonzero:
   * stop): on a virtual clock right away (no real time to lose, and the
   * stop lands where it always did), else from one thread at most every
   * 250 ms, concurrently with the batch calls (the watch guards its own
   * data). NULL: none. Not a recorded parameter. */
  int (*watch)(void *arg, const struct ssdlog_rec *recs, size_t n);
  void *watch_arg;
};
enum { BENCH_JOB_WATCH_DUE = 2 };
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
  char wait[8];               /* how its threads waited: "poll", "sleep", "iopoll", "" (sim: virtual time) */
  char submit[8];             /* how I/Os were handed over: "each", "batch", "" (engines that ignore it) */
};
/* The result as the manifest's TEST.result object (docs/archive.md). */
json_t *bench_job_result_to_json(const struct bench_job_result *res);
/* The measured I/Os of a job (ssdlog_measured: after the ramp, without
 * error) as they add up to its result: the one computation of a result, from
 * the runner's completions or from a log (bench/job/json.c). */
struct bench_tally {
  uint64_t ios, bytes, lat_sum_ns;
  uint64_t first_submit_ns, last_done_ns; /* the measured window (valid when ios) */
};
static inline void bench_tally_io(struct bench_tally *t, uint64_t submit_ns, uint64_t lat_ns, uint32_t len) {
  if (!t->ios || submit_ns < t->first_submit_ns) t->first_submit_ns = submit_ns;
  if (submit_ns + lat_ns > t->last_done_ns) t->last_done_ns = submit_ns + lat_ns;
  t->ios++, t->bytes += len, t->lat_sum_ns += lat_ns;
}
/* Adds FROM (one thread's) to INTO. */
void bench_tally_merge(struct bench_tally *into, const struct bench_tally *from);
/* Sets res's ios, bytes, elapsed_ns (first measured submit to last measured
 * completion), mb_s, iops and mean_lat_ns from T; leaves the rest. */
void bench_tally_result(const struct bench_tally *t, struct bench_job_result *res);
/* The result of the job that wrote the log at PATH, as the runner computes
 * it (errors: the records with status < 0, the ramp's too). For a log
 * converted from another tool (the fio engine), so its result means what the
 * native one does. */
int bench_job_result_from_log(const char *path, struct bench_job_result *res, struct ssdrev_err *err);

/* Progress reported about every 250 ms of engine time. */
struct bench_progress {
  const char *phase;
  double fraction;       /* 0..1, or < 0 when unknown */
  double mb_s, iops;     /* over the last interval; < 0 when nothing was measured yet (a
                            review's test that just began: not 0 MB/s) */
  double eta_s;          /* < 0 when unknown */
  double total_fraction; /* review: 0..1 of the whole plan (0 elsewhere) */
  double total_eta_s;    /* review: the whole plan's ETA; < 0 when unknown or not a review */
  int idle;              /* an idle gap before a test (no I/O; mb_s, iops are 0) */
  double elapsed_s;      /* job runner: engine time since the job's first I/O, the log's time zero */
};
typedef void (*bench_progress_fn)(const struct bench_progress *p, void *arg);

/* Set by the CLI's SIGINT/SIGTERM handler: the runner stops submitting,
 * drains in-flight I/O and finalizes the log. */
extern volatile int bench_stop_requested;

/* Memory: the I/O buffers of a job (queue depth x threads x block, each
 * buffer rounded up to 4 KiB) may take at most 1/BENCH_MEM_FRACTION of the
 * machine's MemAvailable (/proc/meminfo). One rule, checked by
 * bench_job_run before any I/O and by a review for every step before it
 * starts; an engine that never touches the data (the sim) takes one buffer
 * whatever the queue depth. */
#define BENCH_MEM_FRACTION 2
/* The buffer bytes of SLOTS I/O slots of BLOCK_BYTES (one when NO_DATA). */
uint64_t bench_job_buffer_bytes(uint32_t block_bytes, uint64_t slots, int no_data);
/* MemAvailable in bytes; 0 when /proc/meminfo cannot say. */
uint64_t bench_mem_avail_bytes(void);
/* 0 when NEED_BYTES of buffers fit the rule above (or MemAvailable is
 * unknown); else -ENOMEM, the message naming WHAT ("step 'x'", "job 'y'")
 * and the numbers. */
int bench_mem_check(uint64_t need_bytes, const char *what, struct ssdrev_err *err);

/* Runs one job on an open target and logs every I/O to log_path (created or
 * replaced; NULL for no log). Fails before any I/O on bad parameters (naming
 * the field). Each thread runs its own engine instance (a sim target folds
 * the threads into one queue of qd x threads, keeping its clock
 * deterministic); queue_id in the log is the thread. Time-based jobs end by
 * the engine's clock; sequential jobs split the span between threads.
 * On SIGINT (bench_stop_requested) it drains, finalizes the log and returns
 * 0 with res->interrupted set; reaching max_errors returns -EIO; I/O errors
 * with not one measured I/O completed (a read-only or dead device) return
 * the first error's -errno, the message giving the count and that errno;
 * res is filled in every case once I/O started. */
int bench_job_run(struct bench_target *t, const struct bench_job *job, const char *log_path,
                  bench_progress_fn progress, void *progress_arg,
                  struct bench_job_result *res, struct ssdrev_err *err);

/* The engine that drives a sim target on its virtual clock (bench/engine/sim.c):
 * submit() queues commands at the current virtual time, reap() advances the
 * clock to the next completion. No real I/O; buffers are never touched. */
extern const struct bench_engine_ops bench_engine_sim_ops;
/* Drives the simulated drive S directly with engine E (for tools that time
 * the simulator without a target, e.g. perf/bench/sim-speed.c). */
int bench_engine_sim_attach(struct bench_engine *e, struct sim *s, unsigned qd,
                            struct ssdrev_err *err);

/* ---- a job as a test of a run archive (bench/job/record.c): the one way
 * `ssdrev run` and the review method record what they run. */

struct archive; /* archive/archive.h */
/* "file", "block", "sim" ("unknown" otherwise): the manifest's target.kind. */
const char *bench_target_kind_name(enum bench_target_kind k);
/* The job's parameters as the manifest and the log header record them:
 * bench_job_to_json plus, where the engine does real I/O, "direct". */
json_t *bench_job_params(const struct bench_job *job, struct bench_target *t,
                         const struct bench_engine_ops *ops);
/* The DUT summary of a target (docs/archive.md): a simulated drive's model
 * facts, a block device's nvme-cli / smartctl / sysfs facts (read-only
 * commands; *raw as bench_dut_collect gives it), an empty object for a file;
 * capacity and LBA size from the target where the facts lack them. New
 * reference, or NULL with err set. */
json_t *bench_target_dut(struct bench_target *t, int include_serial, json_t **raw,
                         struct ssdrev_err *err);
/* Describes the target in RUN's manifest where the manifest says nothing yet:
 * target kind, size_bytes and lba_bytes, "simulated", the DUT summary (dut
 * is stolen; NULL = none) and the label (NULL = the DUT's label, if any). */
void bench_record_target(struct archive *run, struct bench_target *t, json_t *dut, const char *label);

struct bench_record_opts {
  const char *kind;            /* the test's kind: "job", "cdm", "tail", ... */
  json_t *extra;               /* keys merged into the test entry (stolen), or NULL */
  int no_log;                  /* keep no per-I/O log */
  int save_first;              /* save the manifest with the test "running" before any I/O */
  bench_progress_fn progress;  /* may be NULL */
  void *progress_arg;
};
/* Runs JOB on T as test job->name of RUN: a test entry with the job's
 * parameters (naming the engine that runs it), its kind and its log
 * logs/NAME.ssdlog; then its result, status ("complete", "interrupted",
 * "failed") and error; saves the manifest. Returns bench_job_run's code (res
 * as it fills it), or the save's error when the job itself succeeded. */
int bench_record_job(struct archive *run, struct bench_target *t, const struct bench_job *job,
                     const struct bench_record_opts *o, struct bench_job_result *res,
                     struct ssdrev_err *err);

/* ---- write until the cliff (bench/method/cliff.c): a job's watch that bins
 * its completions as the analysis bins a fill (4 MiB steps, bytes over the
 * time since the previous step) and runs the SLC rule of the analysis
 * (ssdrev_slc_estimate, docs/flags.md) on them as they come, so a write
 * stops a margin past the cliff instead of at its bound (docs/method.md). */
#define BENCH_CLIFF_BIN_BYTES (UINT64_C(4) << 20)
/* "Nothing came back": the write ran no faster than this x what the full
 * drive writes past its cache (full_mb_s; without it the empty drive's
 * first post-cache level, which a full drive's writes past the cache beat
 * by up to 18%: fam-fold 664 vs 565 MB/s). */
#define BENCH_CLIFF_NONE_RATIO 1.25
struct bench_cliff_watch {
  uint64_t margin_bytes;  /* stop this far past a cliff the rule found */
  double cache_mb_s, post_mb_s; /* the empty drive's: cache > BENCH_CLIFF_NONE_RATIO x post > 0
                           * says it has a cache to come back; then a write that ran
                           * margin_bytes past the write buffer with no cliff found, no
                           * faster than BENCH_CLIFF_NONE_RATIO x the reference, stops:
                           * no cache came back */
  double full_mb_s;       /* the reference: what the FULL drive writes past its cache (the end
                           * of its fill, bench_cliff_full_mb_s; a recovery's exhaust write);
                           * 0: post_mb_s. On a full drive GC slows the cache writes too (a
                           * 0.5 GiB cache at 204 MB/s where the empty drive wrote 526 past
                           * its cache), so the empty drive's speeds stopped every rewrite. */
  int observe_only;       /* never stop (a whole-drive fill: its estimate at the end) */
  /* the trace so far (the batch calls' own; mu guards the arrays and n
   * against the judgment's copy, which may run on another thread) */
  struct ssdrev_fill_trace tr; /* the one construction the analysis uses too (base/filltrace.c) */
  size_t next_check;
  pthread_mutex_t mu;
  atomic_int halted;      /* the judgment said stop: the batch calls see it */
  /* the judgment's copy of the trace and the estimate's scratch, reused */
  double *snap_gib, *snap_mb_s;
  size_t snap_cap;
  struct ssdrev_slc_ws ws;
  /* the outcome */
  int stop;               /* BENCH_CLIFF_STOP_* once it asked the job to stop (read it after the job) */
  int have_est;           /* est holds the last estimate */
  struct ssdrev_slc est;
};
enum { BENCH_CLIFF_RUNNING = 0, BENCH_CLIFF_STOP_CLIFF = 1, BENCH_CLIFF_STOP_NONE = 2 };
void bench_cliff_watch_init(struct bench_cliff_watch *w, uint64_t margin_bytes, double cache_mb_s, double post_mb_s);
void bench_cliff_watch_free(struct bench_cliff_watch *w);
/* The job's watch (struct bench_job.watch, arg = the bench_cliff_watch). */
int bench_cliff_watch_fn(void *arg, const struct ssdlog_rec *recs, size_t n);
/* The estimate on everything seen (the last partial step included); 0 when
 * there is one, -ENODATA when the trace is too short. */
int bench_cliff_watch_finish(struct bench_cliff_watch *w);
/* What a whole-drive fill's watch saw the drive write once full: the
 * speed (bytes over time) of the trace's last BENCH_CLIFF_FULL_GIB (at most
 * its last quarter), where every LBA is mapped and GC runs as on the full
 * drive; the first post-cache level when its last estimate (finish) found
 * a later level (folding-bound, gone after an idle); 0 when the trace is
 * too short. */
#define BENCH_CLIFF_FULL_GIB 0.5
double bench_cliff_full_mb_s(const struct bench_cliff_watch *w);
/* "cliff", "none" (no cache came back) or "bound" (ran to its end). */
const char *bench_cliff_stop_name(int stop);

/* ======================================================= 7. review method */

/* Runs a method (profile file, docs/method.md) on a target into a run archive.
 * Steps already complete in the archive are skipped, so an interrupted review
 * resumes. See bench/method/.
 * A review's steps all run with the options it was made with: a resume (or
 * its plan) whose method (the file's content, after "extends"), --short,
 * --passes, --seed or --include-serial differ from those recorded in the
 * manifest, or whose --label (when given) differs, fails with
 * BENCH_REVIEW_OPTIONS_DIFFER and a message naming each option, before
 * anything is opened or written (docs/archive.md, "Resuming a review"). */
#define BENCH_REVIEW_OPTIONS_DIFFER (-ECANCELED)
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
  const char *engine;          /* --engine: "fio", or one of ssdrev's engines ("io_uring" or
                                * "uring", "psync", "sim"); NULL = the target's default, or
                                * on a resume the archive's own */
  const char *fio_client;      /* --engine fio on a load host: fio's --client=ARG
                                * ("ip:127.0.0.2,8765"); NULL = fio runs here */
  uint64_t remote_bytes;       /* > 0: the target is on the load host (fio_client) and is
                                * NOT opened here, so NOT checked by the guard
                                * (--remote-unchecked); this is its size */
};
int bench_review_run(const struct bench_review_opts *o, bench_progress_fn progress,
                     void *arg, struct ssdrev_err *err);
/* The plan: steps with estimated duration, as text lines into buf. */
int bench_review_plan(const struct bench_review_opts *o, char *buf, size_t len,
                      struct ssdrev_err *err);

/* A campaign: the review on many load hosts at once through fio's
 * client/server mode (bench/method/campaign.c, docs/interop.md). HOSTS has
 * one 'ADDRESS[:PORT] DEVICE-OR-FILE [SIZE]' per line (# comments, blank
 * lines; SIZE only, and then required, for a host that is not loopback);
 * each host runs `fio --server` (port 8765 by default), this machine runs
 * one `fio --client` per host and test. */
struct bench_campaign_host {
  char address[256];
  unsigned port;
  char target[4096];         /* absolute path on the host */
  unsigned line;             /* in HOSTS */
  int loopback;              /* 127.0.0.0/8: the target is on this machine */
  uint64_t size_bytes;       /* the third field (a host that is not loopback): the target's size */
  char fio_client[300];      /* fio's --client=ARG: "ip:127.0.0.2,8765" */
  char run_name[300];        /* the run's directory in the campaign (255 bytes at most): "127.0.0.2_8765-t.img" */
};
#define BENCH_CAMPAIGN_MAX_HOSTS 256   /* hosts of one campaign, polled at once */
#define BENCH_CAMPAIGN_ADDRESS_MAX 255 /* characters of a host address (address[] less its NUL) */
/* Reads HOSTS (1 MiB at most); errors name PATH:LINE. *hosts is malloc'd
 * (free it). Lines of any length; a NUL byte, a control character other
 * than TAB (a CR only before the newline), a fourth field, an IPv6 address
 * or an address of more than BENCH_CAMPAIGN_ADDRESS_MAX characters is
 * refused. */
int bench_campaign_hosts_load(const char *path, struct bench_campaign_host **hosts, size_t *n,
                              struct ssdrev_err *err);
/* The same from LEN bytes of TEXT (need not be NUL-terminated), errors
 * naming PATH: what bench_campaign_hosts_load does after reading. */
int bench_campaign_hosts_parse(const char *path, const char *text, size_t len, struct bench_campaign_host **hosts,
                               size_t *n, struct ssdrev_err *err);
/* Refuses (naming PATH:LINE) a target that fio's job files cannot hold as
 * it is (';', '#', '$', '\\', a control character: fio would read another
 * file) or an address that is not a host name or IPv4 address, a host that
 * is not a loopback address unless remote_unchecked, and then one without
 * its target's size. */
int bench_campaign_hosts_check(const struct bench_campaign_host *hosts, size_t n, const char *path,
                               int remote_unchecked, struct ssdrev_err *err);
struct bench_campaign_opts {
  const char *hosts_path;
  const char *dir;                  /* the campaign directory (made) */
  struct bench_review_opts review;  /* every host's review; target, run_dir, engine and
                                     * fio_client are set per host */
  int remote_unchecked;             /* run on hosts that are not loopback addresses, whose
                                     * targets the guard cannot check (their size from HOSTS) */
};
struct bench_campaign_result {
  unsigned complete, failed, interrupted;
};
/* Progress of host I (phase "complete", "failed: why" or "interrupted" once
 * it ended, with fraction 1). */
typedef void (*bench_campaign_progress_fn)(unsigned i, const struct bench_campaign_host *h,
                                           const struct bench_progress *p, void *arg);
/* Runs the review on every host at once, one child process each, into
 * DIR/RUN_NAME; a host that fails does not stop the others. Writes
 * DIR/campaign.json and each run's manifest "campaign" (how it ended).
 * Refuses (before anything starts) a host that is not a loopback address
 * unless remote_unchecked: the destructive-write guard needs the target on
 * this machine, and such a host's target is written unchecked. Returns 0
 * when the campaign ran (res says how each host ended). */
int bench_campaign_run(const struct bench_campaign_opts *o, bench_campaign_progress_fn progress, void *arg,
                       struct bench_campaign_result *res, struct ssdrev_err *err);

/* The kinds of test a run archive holds (a manifest test's "kind"), what
 * the analysis needs of each, one table for the method's runner, the
 * importers' mapping and analyze/archive.c (bench/method/kinds.c). */
enum bench_test_kind_flags {
  BENCH_TK_FILL_TRACE = 1u << 0, /* a fill: analyze the per-GiB trace and SLC cache */
  BENCH_TK_NO_LOG = 1u << 1,     /* no I/O log (temperature samples) */
  BENCH_TK_FINE_SERIES = 1u << 2, /* also a 100 ms series; exact per-interval percentiles with p99.9 */
};
struct bench_test_kind {
  const char *name;   /* "cdm", "prefill", "fill_drive", "rw_sweep", "tail", "temperature", "job" */
  unsigned flags;     /* enum bench_test_kind_flags */
  const char *keys;   /* keys a test of this kind carries, space separated (docs/archive.md) */
};
/* The kind named NAME; NULL (or the "job" row for NULL) when unknown. */
const struct bench_test_kind *bench_test_kind_find(const char *name);

/* The method as fio job files (bench/method/export_fio.c): DIR/NN-STEP.fio
 * per step and DIR/run.sh that runs them in order, from the parsed method
 * file. `ssdrev import fio` maps the jobs back onto the steps by their
 * parameters. summary (may be NULL) gets one line with the import command. */
struct bench_fio_export_opts {
  const char *profile_path;   /* method file */
  const char *dir;            /* output directory (created) */
  const char *filename;       /* fio filename=; NULL = ${SSDREV_TARGET} */
  const char *ioengine;       /* NULL = libaio */
  int buffered;               /* direct=0 (a file on tmpfs, a test) */
  uint64_t size_bytes;        /* 0 = the target's own size; else filesize= and
                               * regions and rewrites scaled to it */
  double runtime_s;           /* > 0: every time-based job's runtime and ramp */
  uint64_t ios;               /* > 0: I/Os per tail workload */
  unsigned passes;            /* > 0: CrystalDiskMark passes per cell */
  char *notes;                /* out (may be NULL): what the export approximates
                               * or leaves out, one line per note, naming the step */
  size_t notes_len;
};
int bench_method_export_fio(const struct bench_fio_export_opts *x, char *summary, size_t len,
                            struct ssdrev_err *err);
/* Checks x->filename and x->ioengine as bench_method_export_fio does first:
 * -EINVAL (naming --filename or --ioengine) for a value fio would read as
 * more than one option, another file or a library to load. */
int bench_method_export_fio_check(const struct bench_fio_export_opts *x, struct ssdrev_err *err);

/* Reads nvme/smartctl JSON files from DIR (DIR/id-ctrl.json...) or PREFIX
 * (PREFIX.id-ctrl.json...); any may be missing. Outputs are malloc'd text
 * or NULL; overrides (DIR/overrides.json, PREFIX.overrides.json) is a new
 * reference or NULL. Fails only when none is found or one is unreadable
 * (`review --dut-json`, bench/method/dut_collect.c; `import --dut-json`). */
int bench_dut_read_files(const char *dir_or_prefix, char **id_ctrl, char **smart_log,
                         char **smartctl, json_t **overrides, struct ssdrev_err *err);

/* Collects DUT info from a block device without writing to it: for NVMe it
 * runs `nvme id-ctrl -o json`, `nvme smart-log -o json` and `smartctl -a -j`
 * (those installed) and reads sysfs (model, firmware, PCIe link). *raw (if
 * non-NULL) receives {"id_ctrl": text, "smart_log": text, "smartctl": text}
 * with what was collected (caller decrefs both). */
json_t *bench_dut_collect(const char *dev, int include_serial, json_t **raw,
                          struct ssdrev_err *err);

/* ---- the SNIA PTS steady-state rule (bench/method/pts.c; docs/method.md
 * "Steady state"), shared by the steady_state step (which stops on it) and
 * its analysis (which judges the logs by it). */
#define BENCH_PTS_RANGE_PCT 20.0 /* max - min of the window within 20% of its mean */
#define BENCH_PTS_SLOPE_PCT 10.0 /* the best-fit line's excursion within 10% of it */
struct bench_pts_window {
  size_t first, last;      /* 0-based rounds of the window */
  double mean, min, max;
  double range_pct;        /* (max - min) / mean, % */
  double slope, intercept; /* least-squares line y = intercept + slope * round (1-based) */
  double excursion_pct;    /* |slope| * (rounds - 1) / mean, %: the line's rise across the window */
  int steady;              /* both within their limits */
};
/* Judges the window of the `window` values of y ending at index `last`.
 * Returns 0, or -EINVAL when the window does not fit (last + 1 < window,
 * window < 2) or a value is not finite. */
int bench_pts_judge(const double *y, size_t last, unsigned window, struct bench_pts_window *w);
/* The first window of y[0..n) that is steady: returns its last index + 1
 * (the round at which steady state was reached) and fills *w, or 0 when no
 * window is (then *w is the last window, when one fits). */
size_t bench_pts_first_steady(const double *y, size_t n, unsigned window, struct bench_pts_window *w);

#endif
