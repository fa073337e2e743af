/* sim_int.h — private to bench/sim*.c (and their unit tests): the
 * simulated drive's state and the timing core the sim engine calls.
 *
 * The drive is a reservation model: every command is timed when it is
 * submitted, in submission order, against per-resource "busy until" clocks
 * (dies, channels, the host link, the DRAM write buffer). Because virtual time
 * only moves forward and commands arrive in time order, this is exactly FIFO
 * queueing at each resource, and needs no event loop. */
#ifndef SSDREV_SIM_INTERNAL_H
#define SSDREV_SIM_INTERNAL_H

#include "sim/sim.h"

#define SIM_UNIT_BYTES 4096u /* FTL mapping granularity */
#define SIM_CTRL_MAX_CORES 16u /* ctrl_cores at most */
/* A summary byte per 8 map words (2 MiB): random I/O on a filled or empty
 * region never touches the large bitmap (cache misses dominate otherwise). */
#define SIM_REGION_WORDS 8u
enum { SIM_REGION_EMPTY = 0, SIM_REGION_FULL = 1, SIM_REGION_MIXED = 2 };
/* A second summary level, the same states per SIM_GROUP_REGIONS regions
 * (128 MiB; 15 KB for 2 TB): on a large drive the region bytes (1 MB for
 * 2 TB) missed cache on every random I/O, a third of a write's time. */
#define SIM_GROUP_REGIONS 64u

struct sim_die {
  uint64_t read_until;  /* end of the last read reserved on this die */
  uint64_t prog_from;   /* start of the current program chain */
  uint64_t prog_until;  /* end of the queued programs (pushed by reads) */
  uint64_t erase_from, erase_until; /* last GC step or erase: cannot be suspended */
  uint64_t copy_until;  /* GC: copies run from erase_from to here, then the erase */
  uint64_t block_fill;  /* bytes programmed into the open block */
};

/* A shared transfer resource (host link, NAND channel) as a fluid queue:
 * transfers are timed by their ready time against the backlog, so a
 * transfer reserved for later never blocks one that is ready earlier. */
struct sim_fluid {
  uint64_t t;       /* time of the last update */
  uint64_t backlog; /* ns of transfers still queued at t */
};

/* One program unit handed to the NAND, whose buffer space frees at end_ns. */
struct sim_flush {
  uint64_t end_ns;
  uint64_t bytes;
};

/* Scalar state, saved verbatim by sim_save. */
struct sim_state {
  uint64_t now_ns;
  uint64_t rng;
  struct sim_fluid link_rd;  /* host link, device to host */
  struct sim_fluid link_wr;  /* host link, host to device (full duplex) */
  uint64_t slc_used_bytes;   /* data sitting in SLC, not yet folded */
  uint64_t mapped_units;     /* 4 KiB units holding data */
  uint64_t buf_used_bytes;   /* write buffer: dispatched-unfinished + pending */
  uint64_t pending_bytes;    /* accepted, not yet a full program unit */
  uint64_t pending_ready_ns; /* when the last pending byte arrived */
  uint64_t next_die;         /* write point, round robin over dies */
  uint64_t ring_head, ring_count; /* head: 0 (kept for the saved layout) */
  uint64_t busy_ns_acc;      /* die time used since the last thermal step */
  uint64_t thermal_at_ns;
  double temp_c;
  /* thermal throttling (SSDRSIM3): the level (0, 1 light, 2 heavy) and
   * the SMART-style counters of transitions into and time in each level */
  uint64_t throttle_level;
  uint64_t tmt_count[2], tmt_ns[2];
  /* SSDRSIM4: bytes the host wrote and the NAND programmed since the drive
   * was made; page-mapped FTL: relocation bytes the FTL has moved but the
   * dies have not yet spent time on (paid before the next host programs) */
  uint64_t host_write_bytes, nand_write_bytes;
  uint64_t gc_debt_bytes;
  /* the controller limit: when each core is next free (ctrl_cores used) */
  uint64_t ctrl_until[SIM_CTRL_MAX_CORES];
};

/* Page-mapped FTL geometry (op_pct > 0): user and physical mapping units,
 * blocks of upb units (one die's TLC block, block_bytes x bits_per_cell). */
struct sim_ftl_geom {
  uint64_t unit_bytes;
  uint32_t lunits, punits, nblocks, upb;
};
/* Fills g for model m; NULL, or why the geometry cannot work. */
const char *sim_ftl_geometry(const struct sim_model *m, struct sim_ftl_geom *g);

#define SIM_FTL_NONE UINT32_MAX
#define SIM_FTL_STALE_LOG 4096u /* stale slots logged before their valid bits are cleared */
/* The page-mapped FTL's state (sim/ftl.c). Maps hold index + 1 (0 = none),
 * so calloc'd pages stay untouched (lazy) until written. */
struct sim_ftl {
  struct sim_ftl_geom g;
  unsigned unit_shift;
  uint32_t *l2p;          /* logical unit -> physical slot + 1 */
  uint32_t *p2l;          /* physical slot -> logical unit + 1 (stale slots: left as they were) */
  uint64_t *vbits;        /* per physical slot: holds the unit's newest copy (or is in stale[]) */
  uint64_t upb_magic;     /* 2^64 / upb rounded up: slot / upb by a multiply */
  uint32_t *gc_lu;        /* upb entries: the units of the victim being collected */
  uint32_t stale[SIM_FTL_STALE_LOG]; /* slots gone stale whose vbits are still set */
  uint32_t *hlog;         /* upb entries: units the host wrote whose l2p update is deferred */
  uint32_t nhlog, hlog_slot0; /* how many; the slot of the first (the rest follow it in the open block) */
  uint32_t nstale;
  uint32_t *valid, *wp;   /* per block: valid units, units written (0: erased) */
  uint32_t *prev, *next;  /* full blocks in lists by valid count; free blocks in a list by next */
  uint32_t *bucket;       /* upb + 1 list heads */
  uint32_t min_bucket;    /* no full block has fewer valid units */
  uint32_t free_head, nfree;
  uint32_t bg_free;       /* background GC's high watermark: collects while fewer are erased */
  uint32_t open[2];       /* open block of the host stream, of the GC stream (SIM_FTL_NONE: none) */
  uint64_t victims;       /* blocks collected since the drive was made or restored (not saved) */
  uint32_t first_victim;  /* the first of them (SIM_FTL_NONE: none; for tests) */
};

struct sim {
  struct sim_model m;
  uint64_t seed;
  /* derived constants, in ns and bytes */
  unsigned ndies;
  /* shifts/masks for the hot path when the geometry is a power of two, else 0 */
  unsigned stripe_shift, die_shift, dpc_shift;
  uint64_t die_mask;
  uint64_t ctrl_ns, t_read_ns[3], read_jitter_ns, retry_thresh;
  uint64_t prog_slc_ns, prog_tlc_ns, erase_ns, erase_jitter_ns, suspend_ns;
  uint64_t gc_copy_ns, gc_thresh_slc, gc_thresh_tlc; /* GC step per program unit */
  uint64_t ack_ns, ack_jitter_ns, stall_thresh, stall_min_ns, stall_span_ns;
  uint64_t error_thresh;
  uint64_t ctrl_cmd_ns;      /* controller limit: core time per command (0: none) */
  double ch_ns_per_byte, link_ns_per_byte;
  double link_ns_base;       /* link_ns_per_byte when not throttled */
  uint64_t slc_unit_bytes, tlc_unit_bytes; /* one multi-plane program (SLC is also the read stripe) */
  uint64_t slc_unit_xfer_ns, tlc_unit_xfer_ns;
  uint64_t slc_max_bytes, slc_min_bytes, buf_cap_bytes;
  uint64_t bad_start_bytes, bad_end_bytes;
  uint64_t units;            /* capacity in 4 KiB units */
  /* state */
  struct sim_state st;
  struct sim_die *dies;
  struct sim_fluid *chan;    /* per NAND channel */
  struct sim_flush *ring;    /* program units in flight: a min-heap on end_ns (drive.c) */
  uint64_t ring_cap;
  uint64_t *map;             /* bitmap of mapped 4 KiB units */
  /* 4 KiB units whose newest copy was programmed into SLC and may still be
   * there: rewriting or trimming one invalidates its SLC copy, which gives
   * the cache room back (a 1 GiB CrystalDiskMark region rewritten for
   * minutes stays in SLC, as on a real drive). Cleared once the cache is
   * empty; after a partial fold it over-approximates. */
  uint64_t *slc_map;
  uint64_t *slc_sum;         /* bit w%64 of word w/64: slc_map[w] is not zero */
  uint64_t *slc_sum2;        /* the same over slc_sum (allocated with it, after its words) */
  int slc_map_dirty;         /* any bit may be set (skips clearing a clean map) */
  uint8_t *region;           /* per SIM_REGION_WORDS of map: SIM_REGION_EMPTY/FULL/MIXED */
  uint8_t *group;            /* per SIM_GROUP_REGIONS regions, the same (allocated after region) */
  /* ground truth kept beside the state (not saved), per phase (since the
   * last reset or idle): host bytes written, the first program into TLC
   * (where the cache ran out inside the drive) and the first write after it
   * that waited for the full buffer (where the host sees the cliff) */
  uint64_t phase_host_bytes;
  int tlc_seen, cliff_seen;
  uint64_t gc_first_ns, gc_first_host_bytes; /* truth: this phase's first GC step (0s: none) */
  uint64_t tlc_first_ns, tlc_first_mapped_bytes, tlc_first_host_bytes;
  uint64_t cliff_ns, cliff_host_bytes;
  uint64_t throttle_first_ns; /* first throttle entry of this phase (0: none) */
  uint64_t fold_cursor;      /* map word the next fold's unmarking starts at (not saved: a hint) */
  int fold_seen;
  uint64_t fold_first_ns, fold_first_host_bytes;
  struct sim_ftl *ftl;       /* page-mapped FTL (op_pct > 0), else NULL: the bitmap alone */
  struct sim_measured *measured; /* sim_model_measure's answer, computed on the first sim_get_truth */
};


/* FTL map (sim/ftl.c): a bitmap of mapped 4 KiB units, word-at-a-time. */
void sim_map_set(struct sim *s, uint64_t off, uint64_t len);
void sim_map_clear(struct sim *s, uint64_t off, uint64_t len);
int sim_map_any(const struct sim *s, uint64_t off, uint64_t len);
uint64_t sim_map_words(const struct sim *s);
uint64_t sim_map_regions(const struct sim *s);
/* Region summaries and their groups: sim_map_summary_bytes bytes from
 * s->region (the groups follow the regions). */
uint64_t sim_map_summary_bytes(const struct sim *s);
/* Recomputes every region summary from the bitmap (after a restore). */
void sim_map_rebuild_regions(struct sim *s);
/* SLC residency (sim/ftl.c): returns how many of the units a write of
 * [off, off+len) covers were marked in SLC, then marks them (in_slc) or
 * unmarks them. sim_slc_unmark_trim does the same for the whole units a
 * discard releases. sim_slc_clear_all forgets every mark. */
uint64_t sim_slc_mark(struct sim *s, uint64_t off, uint64_t len, int in_slc);
uint64_t sim_slc_unmark_trim(struct sim *s, uint64_t off, uint64_t len);
void sim_slc_clear_all(struct sim *s);
/* A fold of `units` 4 KiB units of SLC data: the oldest marks go, taken in
 * LBA order from where the last fold stopped (exactly the oldest for the
 * sequential writes that fill a cache). Returns the marks cleared. */
uint64_t sim_slc_unmark_oldest(struct sim *s, uint64_t units);
/* The summary of slc_map (sim_slc_sum_words words); rebuilt after a restore. */
uint64_t sim_slc_sum_words(const struct sim *s);
/* Words of slc_sum and slc_sum2 together (one allocation). */
uint64_t sim_slc_summary_words(const struct sim *s);
void sim_slc_rebuild_sum(struct sim *s);
/* The SLC room the free space allows now (dynamic part shrinks as it fills). */
uint64_t sim_slc_cap(const struct sim *s);

/* Page-mapped FTL (sim/ftl.c). new/free allocate it for s->m (lazily
 * zeroed maps); reset erases every block. write maps the units a host write
 * of [off, off+len) covers to the host stream (garbage-collecting greedily
 * when erased blocks run short) and adds the bytes to relocate (GC copies
 * and the read-modify-write rest of partial units) to st.gc_debt_bytes.
 * trim unmaps the units of [off, off+len) the bitmap no longer maps. */
int sim_ftl_new(struct sim *s);
void sim_ftl_free(struct sim *s);
void sim_ftl_reset(struct sim_ftl *f);
void sim_ftl_write(struct sim *s, uint64_t off, uint64_t len);
void sim_ftl_trim(struct sim *s, uint64_t off, uint64_t len);
/* Mapped logical units: the sum of the blocks' valid counts (O(blocks), for
 * tests and checks; nothing on the I/O path needs it). */
uint64_t sim_ftl_mapped(struct sim_ftl *f);
/* Background GC: collects one victim when fewer than bg_free blocks are
 * erased and the best victim frees a 32nd of a block or more; returns
 * whether it did (its relocation is added to st.gc_debt_bytes). */
int sim_ftl_collect_bg(struct sim *s);
/* Units the host stream can still write before it must collect again. */
uint64_t sim_ftl_host_room(const struct sim_ftl *f);
/* Save/restore: the saved part is l2p, wp and open; the rest is rebuilt.
 * sim_ftl_restore checks the arrays first (NULL: consistent and loaded,
 * else what is wrong; nothing changes then). */
uint64_t sim_ftl_saved_bytes(const struct sim_ftl *f);
void sim_ftl_save(struct sim_ftl *f, FILE *out);
/* fwrite of N bytes at P that seeks over each all-zero 64 KiB instead of
 * writing it (a hole reads back as zeros): a map touched only where written
 * is saved in the time of its written part. Something must be written after
 * it, so the file reaches its full length. */
void sim_write_sparse(const void *p, uint64_t n, FILE *out);
const char *sim_ftl_restore(struct sim_ftl *f, const char *p);
/* Invariant check for tests: NULL or what is wrong (valid counts against
 * the maps, the bucket lists, the free list). */
const char *sim_ftl_check(struct sim_ftl *f);
/* Replays the host writes' deferred l2p updates (every reader of l2p, the
 * valid counts or the lists outside sim/ftl.c calls it first). */
void sim_ftl_flush(struct sim_ftl *f);


#endif
