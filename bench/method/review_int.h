/* bench/method/review_int.h — private to bench/method/, bench/profile*.c, bench/dut*.c:
 * the parsed method file (profile), the step kinds table and the runner's
 * context. The public contract is section 7 of bench/bench.h; the method
 * file format is documented in docs/method.md. */
#ifndef SSDREV_REVIEW_INT_H
#define SSDREV_REVIEW_INT_H

#include "archive/archive.h"
#include "bench/bench.h"

#define REVIEW_MAX_STEPS 32
#define REVIEW_MAX_CELLS 16
#define REVIEW_MAX_QDS 8
#define REVIEW_ID_MAX 48
#define REVIEW_MAX_IDLES 16

struct bench_fio_text; /* a fio job file being written (bench/fio/fio_int.h) */

/* Percentiles the tail step checks for enough samples (analysis' default). */
#define REVIEW_TAIL_MIN_BEYOND 10 /* I/Os at or beyond a percentile to trust it */

enum review_op_mask { REVIEW_OP_READ = 1u << 0, REVIEW_OP_WRITE = 1u << 1, REVIEW_OP_MIX = 1u << 2 };

/* One CrystalDiskMark cell, e.g. SEQ1M Q8T1. */
struct review_cell {
  char name[32];              /* "SEQ1M Q8T1" */
  enum bench_pattern pattern;
  uint32_t block_bytes;
  unsigned qd, threads;
};

/* Method-wide settings after short mode and --passes were applied. */
struct review_settings {
  unsigned passes;            /* measured passes per CDM cell and op */
  double measure_s;           /* CDM measure time per pass */
  double interval_s;          /* CDM idle time between passes */
  uint64_t region_bytes;      /* CDM test region */
  int zero_buffers;           /* write zeros (compressible) instead of random data */
  enum bench_wait wait;       /* how the jobs' threads wait for completions */
  double temp_interval_s;     /* temperature sampling interval during long steps */
  uint64_t fill_max_bytes;    /* 0 = no cap; short mode caps fills */
  double sweep_measure_s, sweep_ramp_s; /* < 0 = the step's own */
  uint64_t tail_ios;          /* 0 = the step's own */
  double plan_write_mb_s;     /* planning assumptions for the ETA */
  double plan_read_mb_s;
  double plan_qd1_iops;
};

struct review_kind;
struct review_runner;

/* One step of a method, parsed. Only the fields of its kind are used. */
struct review_step {
  char id[REVIEW_ID_MAX];
  const struct review_kind *kind;
  int temperature;            /* sample temperature during the step */
  /* purge */
  enum bench_purge purge_how; /* "method": auto, discard, format */
  /* cdm */
  char state[16];             /* "FOB", "75%" */
  char cdm_profile[32];       /* "default", "nvme", "peak", "real" */
  struct review_cell cells[REVIEW_MAX_CELLS];
  unsigned ncells;
  unsigned ops;               /* enum review_op_mask */
  unsigned mix_read_pct;
  double region_offset_pct;   /* cdm, rw_sweep, tail: where the test region starts, % of capacity */
  uint64_t region_bytes;      /* rw_sweep, tail: the test region's size, 0 = the whole target
                               * (a cdm step's is the method's region_bytes) */
  /* prefill, fill_drive */
  double fill_pct;
  uint32_t block_bytes;
  uint64_t near_full_bytes;   /* fill_drive: the near-full rewrite's bound; cache_recovery: each write's */
  double near_full_idle_s;    /* fill_drive: idle before that rewrite, so the drive folds its SLC */
  uint64_t cliff_margin_bytes; /* fill_drive, cache_recovery: write this far past the cliff */
  /* cache_recovery: the idle times, seconds, rising */
  double idles_s[REVIEW_MAX_IDLES];
  unsigned nidles;
  /* rw_sweep, tail, qd_scaling */
  unsigned qds[REVIEW_MAX_QDS], nqds;
  unsigned read_pct_step;
  double measure_s, ramp_s;
  uint64_t ios;               /* tail: I/Os per workload */
  unsigned workloads;         /* tail, qd_scaling: enum review_op_mask (MIX = 70/30) */
  /* thermal */
  double duration_s;          /* thermal, consistency: the sustained write time (thermal stops earlier at max_bytes) */
  uint64_t max_bytes;         /* 0 = no byte limit */
  double cool_s;              /* idle before the write, so it starts from a cool drive */
  double sample_s;            /* temperature sampling interval */
  /* steady_state, consistency (bench/method/steady.c, consistency.c) */
  unsigned qd, threads;       /* per thread; threads (a sim folds them into one queue) */
  int prepare;                /* enum review_prepare: what the step does to the drive first */
  double round_s;             /* steady_state: time of one round (of each matrix point) */
  unsigned rounds_max, window; /* steady_state: round limit; rounds in the PTS window */
  int matrix;                 /* steady_state: each round is the PTS IOPS matrix */
};

struct review_ctx;
struct review_profile;

/* What a review's progress and ETA count (bench/method/cost.c,
 * docs/method.md "Progress and ETA"). On a real target a job's wall time is
 * its device time. On a virtual clock (the sim) the simulated seconds cost
 * no wall time of their own, the simulated I/Os do: a job is priced by the
 * I/Os the plan expects of it, each dearer with its size, and an idle gap
 * costs nothing. */
enum review_basis { REVIEW_BASIS_DEVICE, REVIEW_BASIS_WORK };
/* One job as the plan sees it. */
struct review_load {
  enum bench_pattern pattern;
  unsigned read_pct;
  uint32_t block_bytes;       /* 0: no I/O (a purge) */
  unsigned depth;             /* qd x threads */
  double busy_s;              /* its I/O's device time, the plan's estimate */
  double idle_s;              /* the idle before it */
};
/* L's cost in BASIS: seconds of device time (DEVICE), or units of about a
 * 4 KiB I/O's simulation (WORK). */
double bench_review_cost(const struct review_profile *p, enum review_basis basis, const struct review_load *l);
/* The cost of a sequential write of BYTES at the plan's write speed (a
 * fill, a preparing pass), after IDLE_S idle. */
double bench_review_seq_write_cost(const struct review_profile *p, enum review_basis basis, uint64_t bytes,
                                   uint32_t block_bytes, unsigned qd, double idle_s);

/* What steady_state / consistency do before their writes: nothing, a purge,
 * a purge and one sequential 128 KiB pass (AnandTech), or a purge and two
 * passes (the PTS workload-independent preconditioning). */
enum review_prepare { REVIEW_PREP_NONE, REVIEW_PREP_PURGE, REVIEW_PREP_FILL, REVIEW_PREP_PTS };
/* Parses OBJ's "prepare" into s->prepare (left as it is when absent). */
int bench_review_json_prepare(const json_t *obj, struct review_step *s, const char *where, struct ssdrev_err *err);
/* Runs s->prepare: a purge, then 0, 1 or 2 sequential passes as tests
 * STEP.prepare1, STEP.prepare2 of kind "prefill" (purpose "prepare"). */
int bench_review_prepare(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err);
double bench_review_prepare_estimate(const struct review_profile *p, const struct review_step *s, uint64_t cap,
                                     enum review_basis basis);
const char *bench_review_prepare_text(int prepare);

struct review_profile {
  json_t *json;               /* the method file, verbatim (owned) */
  char name[64];
  char source[512];           /* path, for messages */
  struct review_settings set;
  struct review_step steps[REVIEW_MAX_STEPS];
  unsigned nsteps;
  int short_mode;
};

/* Loads and validates a method file; applies short mode and passes (0 = the
 * file's). Errors name the file and the key at fault. */
int bench_review_profile_load(struct review_profile *p, const char *path, int short_mode,
                        unsigned passes, struct ssdrev_err *err);
/* Same from a parsed object (a reference is taken); `source` names it. */
int bench_review_profile_from_json(struct review_profile *p, json_t *root, const char *source,
                             int short_mode, unsigned passes, struct ssdrev_err *err);
void bench_review_profile_free(struct review_profile *p);
const struct review_step *bench_review_profile_step(const struct review_profile *p, const char *id);

/* JSON helpers shared by the step parsers: missing keys keep *out. Sizes are
 * integers (bytes) or strings such as "128KiB", "1GiB", "4k". */
int bench_review_json_size(const json_t *obj, const char *key, uint64_t *out, const char *where,
                     struct ssdrev_err *err);
/* "block": a multiple of 512 up to 16 MiB (a random-I/O step's block);
 * missing keeps s->block_bytes. */
int bench_review_json_block(const json_t *obj, struct review_step *s, const char *where, struct ssdrev_err *err);
int bench_review_json_uint(const json_t *obj, const char *key, unsigned min, unsigned max,
                     unsigned *out, const char *where, struct ssdrev_err *err);
int bench_review_json_num(const json_t *obj, const char *key, double min, double max, double *out,
                    const char *where, struct ssdrev_err *err);
/* A workload a step may name in its "workloads" (tail: read, mix70, write). */
struct review_workload {
  unsigned mask;     /* enum review_op_mask */
  const char *name;
  unsigned read_pct;
};
/* OBJ's optional "workloads": a non-empty array of names of TAB's n rows,
 * OR-ed into *mask (which is replaced; left as it is when the key is absent).
 * Errors name `where`, the index and the names allowed. */
int bench_review_json_workloads(const json_t *obj, const struct review_workload *tab, size_t n, unsigned *mask,
                                const char *where, struct ssdrev_err *err);
int bench_review_json_str(const json_t *obj, const char *key, char *out, size_t len,
                    const char *where, struct ssdrev_err *err);
/* Rejects a key of OBJ in neither NULL-terminated list A nor B (either may
 * be NULL), so a typo in a method file fails loudly instead of silently
 * using a default: "WHERE: unknown key 'K'". */
int bench_review_json_keys(const json_t *obj, const char *const *a, const char *const *b,
                           const char *where, struct ssdrev_err *err);
/* Checks every entry of a method's "cdm_profiles" object, used by a step or
 * not, as a cell list (bench/method/cdm.c): errors name WHERE and the entry. */
int bench_review_cdm_profiles_check(const json_t *profiles, const char *where, struct ssdrev_err *err);
/* Rejects any string anywhere in ROOT that holds a NUL byte ("\u0000"),
 * naming WHERE and the string's place ("steps[1].state"). */
int bench_review_json_no_nul(const json_t *root, const char *where, struct ssdrev_err *err);

/* The runner's state while a method runs. */
struct review_ctx {
  const struct bench_review_opts *o;
  struct review_profile *prof;
  struct archive *run;
  struct bench_target *t;     /* NULL: the target is on a load host, unchecked here (o->remote_bytes) */
  uint64_t cap_bytes;
  uint32_t lba_bytes;
  int is_sim;
  const struct review_runner *runner; /* how the jobs run: ssdrev's engines or fio */
  char bench_engine[32];      /* native runner: the engine asked for ("" = the target's default) */
  char fio_version[32];       /* fio runner: "fio-3.33" */
  bench_progress_fn progress;
  void *progress_arg;
  /* progress of the step running now */
  const struct review_step *step;
  unsigned step_no, nsteps_run; /* the step's number in the method, of all its steps:
                                 * the same after a resume */
  /* progress of the whole run, in costs of `basis` (bench/method/cost.c):
   * the estimates of the steps this run does */
  enum review_basis basis;    /* WORK on a virtual clock, else DEVICE */
  double review_est;          /* all of them */
  double review_done;         /* those finished */
  uint64_t review_wall0_ns;
  double step_est;            /* estimated cost of the step */
  double step_done;           /* cost of the jobs finished in the step */
  double job_cost;            /* cost of the job running now */
  double job_est_s;           /* estimated device time of the job running now, its idle not counted
                               * (fio's time limit of a size-bound job) */
  uint64_t step_wall0_ns;
  char phase[256];
  /* temperature samples of the step (NULL when not sampling) */
  json_t *temp_samples;
  uint64_t temp_wall0_ns;
  double temp_engine_s;       /* engine time of finished jobs (sim clock) */
  double temp_job_s;          /* engine time of the running job so far */
  double temp_last_s;
  /* a step kind's own look at each progress report of its jobs (NULL:
   * none); the thermal step samples temperatures on the log's time axis */
  void (*job_hook)(struct review_ctx *c, const struct bench_progress *p);
  void *hook_arg;
};

/* A kind of step: parse its keys, estimate, describe and run it. */
struct review_kind {
  const char *name;
  const char *const *keys;    /* keys allowed besides id, kind, temperature */
  int (*parse)(struct review_step *s, const json_t *obj, const struct review_profile *p,
               const char *where, struct ssdrev_err *err);
  /* the step's cost in BASIS: its device time (the plan) or its work (a
   * virtual clock's progress), the sum of what its jobs are charged */
  double (*estimate)(const struct review_profile *p, const struct review_step *s,
                     uint64_t cap_bytes, enum review_basis basis);
  void (*describe)(const struct review_profile *p, const struct review_step *s,
                   uint64_t cap_bytes, char *buf, size_t len);
  int (*run)(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err);
  /* `ssdrev method export --fio` (bench/method/export_fio.c): writes the
   * step's fio jobs to J (NULL: the step has no fio jobs); fio_pre_sh is a
   * shell line run.sh runs before them (NULL: none) */
  int (*fio)(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
             const struct bench_fio_export_opts *x);
  const char *fio_pre_sh;
  const char *(*fio_pre_sh_of)(const struct review_step *s); /* the line per step (NULL: fio_pre_sh) */
};
/* The fio hooks of the step kinds (bench/method/export_fio.c). */
int bench_review_fio_cdm(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                         const struct bench_fio_export_opts *x);
int bench_review_fio_fill(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                          const struct bench_fio_export_opts *x);
int bench_review_fio_sweep(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                           const struct bench_fio_export_opts *x);
int bench_review_fio_tail(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                          const struct bench_fio_export_opts *x);
int bench_review_fio_qd_scaling(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                                const struct bench_fio_export_opts *x);
int bench_review_fio_steady(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                            const struct bench_fio_export_opts *x);
int bench_review_fio_consistency(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                                 const struct bench_fio_export_opts *x);
int bench_review_fio_thermal(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                             const struct bench_fio_export_opts *x);
int bench_review_fio_recovery(struct bench_fio_text *j, const struct review_profile *p, const struct review_step *s,
                              const struct bench_fio_export_opts *x);
/* steady_state, consistency: run.sh's purge when the step's prepare has one */
const char *bench_review_fio_pre_sh(const struct review_step *s);
/* Discards the target when it is a block device (run.sh's purge). */
extern const char bench_review_fio_discard_sh[];
const struct review_kind *bench_review_kind_find(const char *name);
/* Writes the step kinds' names, in the table's order and joined by ", ",
 * into BUF (always NUL-terminated when LEN > 0, cut short when it is too
 * small); returns the length the whole list needs, like snprintf. */
size_t bench_review_kind_names(char *buf, size_t len);
extern const struct review_kind bench_review_kind_purge, bench_review_kind_cdm, bench_review_kind_prefill,
    bench_review_kind_fill_drive, bench_review_kind_rw_sweep, bench_review_kind_tail,
    bench_review_kind_qd_scaling, bench_review_kind_thermal, bench_review_kind_steady_state,
    bench_review_kind_consistency, bench_review_kind_cache_recovery;

/* The I/O buffer bytes of the step's largest job on an engine that uses
 * its buffers (bench_job_buffer_bytes; bench/method/kinds.c). */
uint64_t bench_review_step_buffer_bytes(const struct review_step *s);
/* bench_mem_check for every step of P, before the review starts: the
 * message names the method, the step and the numbers. */
int bench_review_check_memory(const struct review_profile *p, struct ssdrev_err *err);

/* How the method's jobs run (bench/method/runner.c): a table of runners
 * with what each can do, looked up by --engine. Every step kind makes its
 * tests through bench_review_run_job, which hands each job to the runner,
 * so a kind runs on any runner without knowing which. */
enum review_runner_flag {
  REVIEW_RUNNER_SIM = 1u << 0,    /* drives simulated drives (sim:MODEL) */
  REVIEW_RUNNER_CLIENT = 1u << 1, /* runs on another host (o->fio_client: fio client/server) */
  REVIEW_RUNNER_WATCH = 1u << 2,  /* calls a job's watch on its completions (stops a write at the cliff) */
};
struct review_runner {
  const char *name;           /* "native", "fio" */
  unsigned flags;             /* enum review_runner_flag */
  /* Checks, before the archive is made or the target written, that the
   * method can run this way (the tool is there, every setting has its
   * equivalent); fills c->fio_version etc. Errors name the step or option. */
  int (*check)(struct review_ctx *c, struct ssdrev_err *err);
  /* Runs JOB as test job->name of c->run with o's kind, extra keys (stolen)
   * and progress: bench_record_job's contract (the test's entry, its log
   * logs/NAME.ssdlog, its result and status; res filled). */
  int (*run_job)(struct review_ctx *c, const struct bench_job *job, const struct bench_record_opts *o,
                 struct bench_job_result *res, struct ssdrev_err *err);
  /* Purges a target that is not on this machine (c->t is NULL: a load
   * host under --remote-unchecked); *used says how ("trim"). NULL: cannot. */
  int (*purge_remote)(struct review_ctx *c, enum bench_purge how, const char **used, struct ssdrev_err *err);
  /* Removes what the runner keeps of step ID (a rerun starts clean); may be NULL. */
  void (*drop_step)(struct review_ctx *c, const char *step_id);
};
/* The runner --engine NAME names: a runner of the table ("fio"), else one of
 * ssdrev's engines ("io_uring" or "uring", "psync", "sim"), which the
 * native runner runs with (*bench_engine = its name); NULL or "" = native
 * with the target's default engine. NULL with err set when unknown. */
const struct review_runner *bench_review_runner_find(const char *name, char *bench_engine, size_t len,
                                                     struct ssdrev_err *err);
extern const struct review_runner bench_review_runner_native, bench_review_runner_fio;
/* Writes JOB as one fio job section [NAME] to J (bench/method/export_fio.c):
 * the same positions, sizes, times and seed ssdrev's engine would run it
 * with, on a target of CAP_BYTES, logging each I/O with its offset to
 * LOG_PREFIX_lat.1.log. Ramp and measure are one time-based run (the ramp's
 * I/Os are flagged on import, as the native engine logs them). */
void bench_review_fio_job(struct bench_fio_text *j, const char *name, const struct bench_job *job, uint64_t cap_bytes,
                          const char *log_prefix);

/* The drive's own thermal-management counters (SMART TMT1/TMT2 transition
 * counts and seconds) as a test records them, or NULL without them. */
json_t *bench_review_tmt_json(struct review_ctx *c);
/* Runs one job as a test entry of the run: logs to logs/NAME.ssdlog, adds
 * {step, kind, extra keys (stolen)} and the result, saves the manifest.
 * EST_S is the plan's device time of its I/O, without the job's idle_ns;
 * the progress charges it bench_review_cost of both, which the step kind's
 * estimate counts the same way. 
 * Returns -EINTR when stopped by a signal (the test is "interrupted"). */
int bench_review_run_job(struct review_ctx *c, const char *test_name, const char *kind,
                   json_t *extra, const struct bench_job *job, double est_s,
                   struct bench_job_result *res, struct ssdrev_err *err);
/* Runs JOB, a sequential write bounded by its size_bytes, until the cliff
 * (bench/method/cliff.c): W (initialised by the caller) watches it; the test
 * entry records bound_bytes, margin_bytes and how it ended ("stopped":
 * "cliff", "none" or "bound"). */
int bench_review_cliff_job(struct review_ctx *c, const char *test_name, const char *kind, json_t *extra,
                           struct bench_job *job, struct bench_cliff_watch *w, double est_s,
                           struct bench_job_result *res, struct ssdrev_err *err);
/* Sets KEY (VALUE stolen) on the run's test TEST_NAME (the last of that
 * name); saved with the step. */
void bench_review_note_test(struct review_ctx *c, const char *test_name, const char *key, json_t *value);
/* The in-cache and post-cache speeds a whole-drive fill of this run saw as
 * it ran (its test's "cache_mb_s_seen", "post_cache_mb_s_seen") and what it
 * wrote once full ("full_mb_s_seen", 0 when not recorded), 0s when none
 * did: what a later write until the cliff compares with to tell that no
 * cache came back. */
void bench_review_seen_speeds(const struct review_ctx *c, double *cache_mb_s, double *post_mb_s, double *full_mb_s);
/* The margin past a cliff a write until the cliff goes on (docs/method.md):
 * the step's cliff_margin_bytes, in short mode at most 1/16 of
 * fill_max_bytes. */
#define BENCH_REVIEW_CLIFF_MARGIN (UINT64_C(1) << 30)
uint64_t bench_review_cliff_margin(const struct review_profile *p, const struct review_step *s);
/* Whole-target discard, reported as progress; it costs the progress
 * bench_review_purge_load. */
extern const struct review_load bench_review_purge_load;
int bench_review_purge(struct review_ctx *c, enum bench_purge how, struct ssdrev_err *err);
/* A job with the method's common defaults and a seed derived from the name. */
void bench_review_job_init(struct review_ctx *c, struct bench_job *job, const char *name);
/* Rounds down to a multiple of `align` (a power of two or not). */
uint64_t bench_review_align_down(uint64_t v, uint64_t align);
/* A step's test region on a target of `cap` bytes: `bytes` (0 = all that is
 * left) from offset_pct of it, both 1 MiB aligned, clamped to the target
 * (an offset past it is 0). CrystalDiskMark's region and the rw_sweep's and
 * tail's (docs/method.md). */
void bench_review_region(uint64_t cap, double offset_pct, uint64_t bytes, uint64_t *off, uint64_t *len);
/* The optional "region_offset_pct" (0..99.9) and, when `with_size`, the
 * "region_bytes" of a step into s (both left as they are when absent). */
int bench_review_json_region(const json_t *obj, struct review_step *s, int with_size, const char *where,
                             struct ssdrev_err *err);
/* "1h02m", "35s", ... */
void bench_review_format_duration(double s, char *buf, size_t len);

/* DUT helpers (bench/method/dut_collect.c). */
/* bench_dut_read_files: bench/bench.h (`import --dut-json` reads them too). */
/* For /dev/nvmeXnY: runs nvme id-ctrl/smart-log -o json and smartctl -a -j
 * (read-only commands) when installed; outputs as above (NULL if absent). */
int bench_dut_collect_nvme(const char *dev, char **id_ctrl, char **smart_log, char **smartctl,
                           struct ssdrev_err *err);
/* Adds sysfs facts of a block device (model, firmware, link) to dut where
 * absent. Returns 0 even when nothing was found. */
int bench_dut_add_sysfs(json_t *dut, const char *dev, const char *sysfs_root);

/* The DUT summary for the review's target (bench/method/dut_step.c): sim model
 * facts, --dut-json files or what collection read from the device, with the
 * user's overrides applied. New reference, or NULL with err set. */
json_t *bench_review_build_dut(struct review_ctx *c, struct ssdrev_err *err);

#endif
