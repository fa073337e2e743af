/* sim.h — the simulated drive: a mechanistic SSD model (docs/sim-model.md)
 * with its FTL state and a virtual clock. It is to ssdrev what the null
 * engine is to fio; bench/engine/sim.c drives it as an engine.
 * Rules as in base/ssdrev.h. */
#ifndef SSDREV_SIM_H
#define SSDREV_SIM_H

#include "base/ssdrev.h"

/* A drive model, loaded from a documented key = value file
 * (samples/models/NAME.model, docs/sim-model.md). Every timing is a mechanism
 * (NAND sense/program/erase, channel and link transfers, program suspend),
 * not a fitted curve: queue-depth scaling, the SLC cliff and the read tail
 * follow from them. */
struct sim_power_state {
  double max_power_w, entry_lat_us, exit_lat_us;
};
#define SIM_MAX_POWER_STATES 8
struct sim_model {
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
  int slc_fold_on_shrink;     /* 1 = when the dynamic cache shrinks below the data it holds, the
                               * drive folds the excess while the host writes (a third,
                               * folding-bound level; QLC drives) */
  double error_rate;          /* injected I/O error probability per command */
  uint64_t bad_lba_start, bad_lba_count; /* reads touching this range fail (-EIO) */
  double temp_idle_c, temp_load_c, temp_warn_c, temp_crit_c;
  /* Thermal throttling (docs/sim-model.md "Temperature"), off when
   * throttle_light_c is 0: at throttle_light_c (NVMe TMT1) the host link is
   * capped at throttle_light_mb_s per direction, at throttle_heavy_c (TMT2,
   * 0 = none) at throttle_heavy_mb_s; a level is left when the temperature
   * falls throttle_hyst_c below its threshold. */
  double throttle_light_c, throttle_heavy_c, throttle_light_mb_s, throttle_heavy_mb_s, throttle_hyst_c;
  /* Page-mapped FTL (docs/sim-model.md "Page-mapped FTL"), on when op_pct > 0:
   * spare NAND as a percentage of the user capacity, mapped in units of
   * map_unit_bytes (default 4 KiB); greedy GC replaces the gc_* steps. */
  double op_pct;
  uint64_t map_unit_bytes;
  /* Controller limit (off when ctrl_cores is 0): every command holds one of
   * ctrl_cores cores for ctrl_cmd_us before its data moves, so small I/O
   * saturates at ctrl_cores / ctrl_cmd_us commands per second. */
  unsigned ctrl_cores;
  double ctrl_cmd_us;
  /* DUT facts for reports (docs/archive.md "DUT summary"); "" = unknown. */
  char dut_model[96], dut_firmware[48], dut_link[32], dut_nvme_version[16];
  char dut_controller[64], dut_media[64];
  struct sim_power_state power_states[SIM_MAX_POWER_STATES];
  unsigned n_power_states;
  char extra_json[1024];      /* the DUT summary as compact JSON text (filled by load) */
};
/* Parses MODEL_FILE; errors name file:line ("unknown key 'foo' at
 * pm981.model:12"), bad numbers and missing required keys. */
int sim_model_load(struct sim_model *m, const char *path, struct ssdrev_err *err);
/* The model's DUT summary object (new reference, caller decrefs); unknown
 * fields are absent. */
json_t *sim_model_dut(const struct sim_model *m);
/* Figures that follow from the parameters (what `ssdrev model show` prints). */
struct sim_derived {
  unsigned dies;
  double read_4k_us;          /* QD1 4 KiB read latency, typical (CSB page) */
  double raw_read_iops;       /* die-parallel 4 KiB random read ceiling */
  double raw_read_mb_s;       /* the same in MB/s */
  double seq_read_mb_s;       /* min(link, dies x page rate, channels) */
  double slc_write_mb_s;      /* sequential write into the SLC cache */
  double post_cache_mb_s;     /* sequential write direct to TLC */
  uint64_t slc_max_bytes, slc_min_bytes;
};
void sim_model_derive(const struct sim_model *m, struct sim_derived *d);
/* Speeds from the timing mechanism itself (a scratch drive of the model,
 * written sequentially 128 KiB at QD32, the fill step's default, on an
 * empty drive), so they include every limit the timing has: the write
 * buffer, erases, channels, the link (docs/sim-model.md, "Ground truth").
 * The formulas of sim_model_derive are NAND ceilings; these are what a fill
 * sees. Fails only for lack of memory. */
struct sim_measured {
  double slc_write_mb_s;       /* sequential write into the SLC cache */
  double post_cache_mb_s;      /* sequential write direct to TLC */
  uint64_t empty_fill_cliff_bytes; /* where a whole-drive fill of an empty drive
                                      leaves the cache (the cache shrinks as it fills) */
  double fold_bound_mb_s;      /* slc_fold_on_shrink: sequential write while the shrinking
                                * cache is folded (0 without it) */
  uint64_t empty_fill_fold_bytes; /* slc_fold_on_shrink: where that fill starts folding (0: never) */
};
int sim_model_measure(const struct sim_model *m, struct sim_measured *out, struct ssdrev_err *err);
/* Thermal throttling from the timing itself: a scratch drive of the model
 * (no faults, empty, its own capacity), starting at temp_idle_c, written
 * sequentially 128 KiB at QD32 in a closed loop (the thermal step's
 * default) until SIM_THERMAL_MEASURE_AFTER_S after the first throttle or
 * SIM_THERMAL_MEASURE_MAX_S in all. A model without throttle keys gives
 * throttled = 0 (nothing else is computed). Fails only for lack of memory. */
#define SIM_THERMAL_MEASURE_AFTER_S 60.0
#define SIM_THERMAL_MEASURE_MAX_S 1800.0
struct sim_thermal_measured {
  int throttled;               /* 1 when the write reached throttle_light_c */
  double throttle_after_s;     /* first throttle, seconds after the write began */
  unsigned level;              /* the deepest level reached (1 light, 2 heavy) */
  double before_mb_s;          /* write speed over the 10 s before the throttle */
  double throttled_mb_s;       /* speed from 5 s after the throttle to the end */
  double temp_at_throttle_c;   /* the temperature that triggered it */
  double peak_temp_c;          /* the highest temperature of the write */
};
int sim_model_measure_thermal(const struct sim_model *m, struct sim_thermal_measured *out, struct ssdrev_err *err);
/* The GC-bound steady state of random writes by the timing itself
 * (sim/steady.c): a scratch drive of the model (no faults) is filled with
 * one sequential 128 KiB QD32 pass, then written with BLOCK-sized random
 * writes at QD in a closed loop, twice its capacity; *iops is the rate of
 * the second capacity. Fails only for lack of memory. */
int sim_model_measure_rand_write(const struct sim_model *m, uint32_t block, unsigned qd, double *iops,
                                 struct ssdrev_err *err);

/* The page-mapped FTL's figures (docs/sim-model.md "Page-mapped FTL"):
 * blocks, the maps' bytes, greedy GC's write amplification under uniform
 * random writes (Desnoyers' model at the FTL's spare) and the steady 4 KiB
 * random-write rate the die timing gives at it (NAND-bound: the controller
 * limit and the link not counted). -EINVAL for a model without op_pct. */
struct sim_ftl_facts {
  uint64_t blocks, spare_blocks, units_per_block, map_unit_bytes, map_bytes;
  double alpha, wa_random, steady_4k_iops;
};
int sim_model_ftl_facts(const struct sim_model *m, struct sim_ftl_facts *out);

struct sim; /* a simulated drive instance with its FTL state and virtual clock */
/* Copies the model; the same model and seed give the same behaviour. */
int sim_new(struct sim **s, const struct sim_model *m, uint64_t seed,
                  struct ssdrev_err *err);
void sim_free(struct sim *s);
const struct sim_model *sim_get_model(const struct sim *s);
/* Virtual time in ns since the drive was created (never goes back). */
uint64_t sim_now_ns(const struct sim *s);
/* Whole-drive discard (format): unmaps every LBA and empties the SLC
 * cache; the virtual clock keeps running. */
void sim_reset(struct sim *s);
/* Discards [off, off+len): whole 4 KiB units inside it are unmapped. */
int sim_trim(struct sim *s, uint64_t off, uint64_t len);
/* The host leaves the drive idle for idle_ns: virtual time advances and the
 * SLC cache folds into TLC at fold_mb_s. */
void sim_idle(struct sim *s, uint64_t idle_ns);
/* Ground truth for tests and for judging the analysis. */
struct sim_truth {
  uint64_t slc_cache_bytes_now;  /* free SLC room right now */
  uint64_t slc_cache_bytes_max;  /* dynamic cache size on an empty drive */
  uint64_t slc_cache_bytes_min;  /* static minimum near full */
  double post_cache_mb_s;        /* sequential write direct to TLC (sim_model_measure) */
  uint64_t mapped_bytes;         /* LBAs currently holding data */
  double temp_c;
  uint64_t slc_used_bytes;       /* data in SLC not yet folded */
  uint64_t slc_cache_bytes_cap;  /* cache size allowed by the free space now */
  uint64_t now_ns;               /* virtual clock */
  double slc_write_mb_s;         /* sim_model_measure: into SLC, 128 KiB QD32 */
  uint64_t empty_fill_cliff_bytes; /* sim_model_measure: the cliff of an empty-drive fill */
  /* this phase (since the last reset or idle): host bytes written; the
   * first program into TLC (0s: none yet); the cliff the host sees, the
   * first write after it that waited for the full write buffer (0s: none) */
  uint64_t phase_host_bytes;
  uint64_t tlc_first_ns, tlc_first_mapped_bytes, tlc_first_host_bytes;
  uint64_t cliff_ns, cliff_host_bytes;
  /* thermal throttling: the level now (0 none, 1 light, 2 heavy), the
   * transitions into each level and the time spent in it since the drive
   * was created (as an NVMe SMART log's TMT1/TMT2 counters), the first
   * entry into any level of this phase (0: none) */
  unsigned throttle_level;
  uint64_t tmt_count[2], tmt_ns[2];
  uint64_t throttle_first_ns;
  /* this phase: the first GC step (when it began; host bytes then; 0s: none) */
  uint64_t gc_first_ns, gc_first_host_bytes;
  /* slc_fold_on_shrink: the first fold while the host writes (0s: none) */
  uint64_t fold_first_ns, fold_first_host_bytes;
  double fold_bound_mb_s;        /* sim_model_measure */
  uint64_t empty_fill_fold_bytes; /* sim_model_measure */
  /* since the drive was made (as a vendor log's host and NAND bytes
   * written): bytes the host wrote, bytes programmed into the NAND (host
   * programs, SLC folds, GC relocations); ftl = 1 for a page-mapped FTL
   * model (op_pct), the only models that report them */
  int ftl;
  uint64_t host_write_bytes, nand_write_bytes;
  uint64_t ftl_free_blocks, ftl_blocks; /* page-mapped FTL: erased blocks now, all blocks */
};
void sim_get_truth(const struct sim *s, struct sim_truth *t);
/* Ground truth of cache recovery: the free SLC room this drive will have
 * after idling idle_ns from its state now, by the fold sim_idle does (the
 * same code). */
uint64_t sim_room_after_idle(const struct sim *s, uint64_t idle_ns);
/* Saves / restores the drive state (for resuming a review). The state file
 * names its model's capacity; loading onto another model fails. */
int sim_save(const struct sim *s, const char *path, struct ssdrev_err *err);
int sim_load_state(struct sim *s, const char *path, struct ssdrev_err *err);

/* ---- the command interface (driven by bench/engine/sim.c) */

/* Times one command arriving at virtual time now_ns; returns its completion
 * time and sets *status (0 or -EIO). Never touches data. */
uint64_t sim_io(struct sim *s, uint64_t now_ns, unsigned op, uint64_t off,
                uint32_t len, int32_t *status);
/* Advances the virtual clock (never backwards). */
void sim_advance(struct sim *s, uint64_t now_ns);

#endif
