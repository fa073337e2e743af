/* drive.c — the simulated drive: instance lifetime, the timing of one
 * command (reads on dies and channels, writes through the DRAM buffer into
 * SLC or TLC programs, erases), idle folding, ground truth, save/restore.
 * See sim/sim_int.h for the reservation model and docs/sim-model.md. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "sim/sim_int.h"
#include "log/ssdlog.h"

#define SIM_STATE_MAGIC "SSDRSIM4" /* 2: adds the SLC residency map; 3: the throttle level and counters;
                                      * 4: host/NAND bytes written, GC debt, the page-mapped FTL */
#define SIM_STATE_MAGIC_V3 "SSDRSIM3"
#define SIM_THERMAL_STEP_NS 100000000ull /* temperature updated every 100 ms */
#define SIM_THERMAL_TAU_S 30.0           /* heat-up / cool-down time constant */
#define SIM_BAD_READ_RETRIES 8           /* an unreadable LBA costs a full retry ladder */

/* splitmix64: tiny, fast, and good enough for timing noise. */
static inline uint64_t rnd(struct sim *s) {
  uint64_t z = (s->st.rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* Uniform in [0, n]. */
static inline uint64_t rnd_upto(struct sim *s, uint64_t n) {
  return n ? (uint64_t)(((unsigned __int128)rnd(s) * (n + 1)) >> 64) : 0;
}
static uint64_t prob_thresh(double p) {
  if (p <= 0) return 0;
  if (p >= 1) return UINT64_MAX;
  return (uint64_t)(p * 18446744073709551616.0);
}
static inline uint64_t us_ns(double us) { return (uint64_t)llround(us * 1000.0); }
static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Queues a transfer of x ns that is ready at r; returns when it ends. */
static inline uint64_t fluid_take(struct sim_fluid *f, uint64_t r, uint64_t x) {
  if (r > f->t) {
    uint64_t gone = r - f->t;
    f->backlog = f->backlog > gone ? f->backlog - gone : 0;
    f->t = r;
  }
  f->backlog += x;
  return r + f->backlog;
}

/* log2(v) when v is a power of two > 1, else 0 (the slow path divides). */
static unsigned pow2_shift(uint64_t v) {
  return v > 1 && !(v & (v - 1)) ? (unsigned)__builtin_ctzll(v) : 0;
}

static void derive_constants(struct sim *s) {
  const struct sim_model *m = &s->m;
  s->ndies = m->channels * m->dies_per_channel;
  s->ctrl_ns = us_ns(m->controller_us);
  for (int i = 0; i < 3; i++) s->t_read_ns[i] = us_ns(m->t_read_us + i * m->t_read_step_us);
  s->read_jitter_ns = us_ns(m->read_jitter_us);
  s->retry_thresh = prob_thresh(m->read_retry_prob);
  s->prog_slc_ns = us_ns(m->t_prog_slc_us);
  s->prog_tlc_ns = us_ns(m->t_prog_tlc_us);
  s->erase_ns = us_ns(m->t_erase_us);
  s->erase_jitter_ns = us_ns(m->t_erase_us * m->erase_jitter_pct / 100.0);
  s->suspend_ns = us_ns(m->suspend_us);
  s->gc_copy_ns = us_ns(m->gc_copy_us);
  s->ack_ns = us_ns(m->write_ack_us);
  s->ack_jitter_ns = us_ns(m->write_jitter_us);
  s->stall_thresh = prob_thresh(m->write_stall_prob);
  s->stall_min_ns = us_ns(m->write_stall_min_us);
  s->stall_span_ns = us_ns(m->write_stall_max_us) - s->stall_min_ns;
  s->error_thresh = prob_thresh(m->error_rate);
  s->ctrl_cmd_ns = m->ctrl_cores ? us_ns(m->ctrl_cmd_us) : 0;
  s->ch_ns_per_byte = 1000.0 / m->channel_mt_s;
  s->link_ns_per_byte = 1000.0 / m->link_mb_s;
  s->link_ns_base = s->link_ns_per_byte;
  s->slc_unit_bytes = (uint64_t)m->page_bytes * m->planes;
  s->tlc_unit_bytes = s->slc_unit_bytes * m->bits_per_cell;
  s->slc_unit_xfer_ns = (uint64_t)(s->slc_unit_bytes * s->ch_ns_per_byte);
  s->tlc_unit_xfer_ns = (uint64_t)(s->tlc_unit_bytes * s->ch_ns_per_byte);
  s->slc_max_bytes = (uint64_t)(m->slc_max_gib * 1073741824.0);
  s->slc_min_bytes = (uint64_t)(m->slc_min_gib * 1073741824.0);
  s->buf_cap_bytes = m->write_buffer_bytes;
  s->bad_start_bytes = m->bad_lba_start * m->lba_bytes;
  s->bad_end_bytes = s->bad_start_bytes + m->bad_lba_count * m->lba_bytes;
  s->units = m->capacity_bytes / SIM_UNIT_BYTES;
  s->ring_cap = s->buf_cap_bytes / s->slc_unit_bytes + 2;
  s->stripe_shift = pow2_shift(s->slc_unit_bytes);
  s->die_shift = pow2_shift(s->ndies);
  s->die_mask = s->die_shift || s->ndies == 1 ? s->ndies - 1 : 0;
  s->dpc_shift = pow2_shift(m->dies_per_channel);
  s->gc_thresh_slc = prob_thresh(m->gc_steps_per_gib * (double)s->slc_unit_bytes / 1073741824.0);
  s->gc_thresh_tlc = prob_thresh(m->gc_steps_per_gib * (double)s->tlc_unit_bytes / 1073741824.0);
}

static void state_init(struct sim *s) {
  memset(&s->st, 0, sizeof s->st);
  s->st.rng = s->seed ^ 0x5353445253494dull; /* "SSDRSIM": seed 0 still mixes */
  s->st.temp_c = s->m.temp_idle_c;
}

int sim_new(struct sim **out, const struct sim_model *m, uint64_t seed,
                  struct ssdrev_err *err) {
  *out = NULL;
  if (!m->channels || !m->dies_per_channel || !m->planes || !m->page_bytes || !m->bits_per_cell ||
      m->channel_mt_s <= 0 || m->link_mb_s <= 0 || m->capacity_bytes < SIM_UNIT_BYTES)
    return ssdrev_fail(err, -EINVAL, "cannot create simulated drive '%s': incomplete model", m->name);
  struct sim *s = calloc(1, sizeof *s);
  if (!s) return ssdrev_fail(err, -ENOMEM, "cannot create simulated drive '%s': out of memory", m->name);
  s->m = *m;
  s->seed = seed;
  derive_constants(s);
  s->dies = calloc(s->ndies, sizeof *s->dies);
  s->chan = calloc(m->channels, sizeof *s->chan);
  s->ring = calloc(s->ring_cap, sizeof *s->ring);
  /* calloc of a large bitmap maps zero pages lazily: an empty drive costs
   * no memory until written. */
  s->map = calloc(sim_map_words(s), sizeof *s->map);
  s->slc_map = calloc(sim_map_words(s), sizeof *s->slc_map);
  s->slc_sum = calloc(sim_slc_summary_words(s), sizeof *s->slc_sum);
  s->region = calloc(sim_map_summary_bytes(s), 1);
  if (s->slc_sum) s->slc_sum2 = s->slc_sum + sim_slc_sum_words(s);
  if (s->region) s->group = s->region + sim_map_regions(s);
  int frc = !s->dies || !s->chan || !s->ring || !s->map || !s->slc_map || !s->slc_sum || !s->region ? -ENOMEM
            : m->op_pct > 0 ? sim_ftl_new(s) : 0;
  if (frc == -EINVAL) {
    sim_free(s);
    return ssdrev_fail(err, -EINVAL, "cannot create simulated drive '%s': its op_pct leaves too few spare blocks", m->name);
  }
  if (frc) {
    sim_free(s);
    return ssdrev_fail(err, -ENOMEM, "cannot create simulated drive '%s': out of memory for the FTL map",
                       m->name);
  }
  state_init(s);
  *out = s;
  return 0;
}

void sim_free(struct sim *s) {
  if (!s) return;
  free(s->dies);
  free(s->chan);
  free(s->ring);
  free(s->map);
  free(s->slc_map);
  free(s->slc_sum);
  free(s->region);
  sim_ftl_free(s);
  free(s->measured);
  free(s);
}

const struct sim_model *sim_get_model(const struct sim *s) { return &s->m; }
uint64_t sim_now_ns(const struct sim *s) { return s->st.now_ns; }

/* The host link's rate at a throttle level: the cap, unless the link is
 * slower anyway. Level 0 restores the exact unthrottled constant, so a
 * model without throttle keys times every command as before. */
static void throttle_apply(struct sim *s) {
  double cap = s->st.throttle_level == 2 ? s->m.throttle_heavy_mb_s
               : s->st.throttle_level == 1 ? s->m.throttle_light_mb_s
                                            : 0;
  s->link_ns_per_byte = cap > 0 && cap < s->m.link_mb_s ? 1000.0 / cap : s->link_ns_base;
}

/* The throttle level the temperature asks for, with hysteresis: a level is
 * entered at its threshold and left throttle_hyst_c below it. */
static unsigned throttle_want(const struct sim *s) {
  const struct sim_model *m = &s->m;
  double t = s->st.temp_c, h = m->throttle_hyst_c;
  unsigned lv = (unsigned)s->st.throttle_level;
  if (m->throttle_heavy_c > 0 && (t >= m->throttle_heavy_c || (lv == 2 && t >= m->throttle_heavy_c - h))) return 2;
  if (t >= m->throttle_light_c || (lv >= 1 && t >= m->throttle_light_c - h)) return 1;
  return 0;
}

/* Heat input is the NAND work since the last step (the die time every
 * sense, program, erase and GC copy took: proportional to the pages read
 * and programmed), cooling is toward temp_idle_c: a first-order model whose
 * equilibrium is temp_idle_c + temp_load_c x die utilisation. A throttled
 * link lets the host send less, the dies work less, and the drive cools. */
/* Seconds until a temperature at T0 heading for TARGET (time constant
 * SIM_THERMAL_TAU_S) reaches X; INFINITY when X is not on the way. */
static double thermal_cross_s(double t0, double target, double x) {
  if (t0 == target) return INFINITY;
  double r = (x - target) / (t0 - target);
  return r > 0 && r <= 1 ? -SIM_THERMAL_TAU_S * log(r) : INFINITY;
}

/* Credits DT_NS (at utilisation target TARGET, from temperature T0) to the
 * throttle levels the temperature passes through: each level gets the
 * time until the temperature crosses the threshold that ends it (a level's
 * exit lies throttle_hyst_c below its entry). One long step (an idle right
 * after a throttle) is so not all credited to the level it began at. The
 * level the walk ends at is throttle_want's at the end temperature (the
 * curve is monotonic): the level itself is still set by thermal_step. */
static void thermal_account(struct sim *s, double t0, double target, uint64_t dt_ns) {
  const struct sim_model *m = &s->m;
  double h = m->throttle_hyst_c, t = t0;
  unsigned lv = (unsigned)s->st.throttle_level;
  uint64_t left = dt_ns;
  for (int guard = 0; left && guard < 4; guard++) { /* at most 0 -> 1 -> 2 or 2 -> 1 -> 0 */
    double down = lv == 2 ? m->throttle_heavy_c - h : m->throttle_light_c - h;
    double up = lv == 0 ? m->throttle_light_c : lv == 1 && m->throttle_heavy_c > 0 ? m->throttle_heavy_c : NAN;
    double td = lv ? thermal_cross_s(t, target, down) : INFINITY;
    double tu = isnan(up) ? INFINITY : thermal_cross_s(t, target, up);
    double next = td < tu ? td : tu;
    if (!(next * 1e9 < (double)left)) { /* the rest of the step at this level */
      if (lv) s->st.tmt_ns[lv - 1] += left;
      return;
    }
    uint64_t ns = (uint64_t)(next * 1e9);
    if (lv) s->st.tmt_ns[lv - 1] += ns;
    left -= ns;
    t = target + (t - target) * exp(-next / SIM_THERMAL_TAU_S);
    lv = td < tu ? lv - 1 : lv + 1;
  }
}

static void thermal_step(struct sim *s) {
  uint64_t dt = s->st.now_ns - s->st.thermal_at_ns;
  double util = (double)s->st.busy_ns_acc / ((double)dt * s->ndies);
  if (util > 1) util = 1;
  double target = s->m.temp_idle_c + s->m.temp_load_c * util, t0 = s->st.temp_c;
  s->st.temp_c += (target - s->st.temp_c) * (1 - exp(-(double)dt / 1e9 / SIM_THERMAL_TAU_S));
  s->st.busy_ns_acc = 0;
  s->st.thermal_at_ns = s->st.now_ns;
  if (!(s->m.throttle_light_c > 0)) return;
  thermal_account(s, t0, target, dt);
  unsigned want = throttle_want(s);
  if (want != s->st.throttle_level) {
    if (want > s->st.throttle_level) {
      s->st.tmt_count[want - 1]++;
      if (!s->throttle_first_ns) s->throttle_first_ns = s->st.now_ns;
    }
    s->st.throttle_level = want;
    throttle_apply(s);
  }
}

void sim_advance(struct sim *s, uint64_t now_ns) {
  if (now_ns <= s->st.now_ns) return;
  s->st.now_ns = now_ns;
  if (now_ns - s->st.thermal_at_ns >= SIM_THERMAL_STEP_NS) thermal_step(s);
}

/* A new phase of the ground truth (after a reset or an idle). */
static void truth_phase_start(struct sim *s) {
  s->phase_host_bytes = 0;
  s->tlc_seen = s->cliff_seen = 0;
  s->tlc_first_ns = s->tlc_first_mapped_bytes = s->tlc_first_host_bytes = 0;
  s->cliff_ns = s->cliff_host_bytes = 0;
  s->throttle_first_ns = 0;
  s->gc_first_ns = s->gc_first_host_bytes = 0;
  s->fold_seen = 0;
  s->fold_first_ns = s->fold_first_host_bytes = 0;
}

/* The data left in SLC after idle_ns of folding: folding rewrites SLC
 * blocks into TLC at fold_mb_s while the host is away. */
static uint64_t slc_after_idle(const struct sim *s, uint64_t idle_ns) {
  double folded = s->m.fold_mb_s * 1e6 * ((double)idle_ns / 1e9);
  return folded >= (double)s->st.slc_used_bytes ? 0 : s->st.slc_used_bytes - (uint64_t)folded;
}

static void gc_background(struct sim *s, uint64_t now);

void sim_idle(struct sim *s, uint64_t idle_ns) {
  truth_phase_start(s);
  sim_advance(s, s->st.now_ns + idle_ns);
  uint64_t before = s->st.slc_used_bytes;
  s->st.slc_used_bytes = slc_after_idle(s, idle_ns);
  s->st.nand_write_bytes += before - s->st.slc_used_bytes; /* folded into TLC */
  if (!s->st.slc_used_bytes) sim_slc_clear_all(s); /* everything is in TLC now */
  else sim_slc_unmark_oldest(s, (before - s->st.slc_used_bytes) / SIM_UNIT_BYTES);
  if (s->ftl) gc_background(s, s->st.now_ns); /* the dies collect while the host is away */
}

uint64_t sim_room_after_idle(const struct sim *s, uint64_t idle_ns) {
  uint64_t cap = sim_slc_cap(s), used = slc_after_idle(s, idle_ns);
  return cap > used ? cap - used : 0;
}

/* Units whose SLC copy became invalid give their room back: the cache
 * reclaims blocks of stale pages by erasing them, without folding. */
static void sim_slc_release(struct sim *s, uint64_t units) {
  uint64_t b = units * SIM_UNIT_BYTES;
  s->st.slc_used_bytes = b >= s->st.slc_used_bytes ? 0 : s->st.slc_used_bytes - b;
}

void sim_reset(struct sim *s) {
  memset(s->map, 0, sim_map_words(s) * sizeof *s->map);
  memset(s->region, SIM_REGION_EMPTY, sim_map_summary_bytes(s)); /* and the groups */
  sim_slc_clear_all(s);
  s->st.mapped_units = 0;
  s->st.slc_used_bytes = 0;
  s->st.pending_bytes = 0;
  s->st.buf_used_bytes = 0;
  s->st.ring_head = s->st.ring_count = 0;
  for (unsigned i = 0; i < s->ndies; i++) s->dies[i].block_fill = 0;
  if (s->ftl) sim_ftl_reset(s->ftl);
  s->st.gc_debt_bytes = 0;
  truth_phase_start(s);
}

int sim_trim(struct sim *s, uint64_t off, uint64_t len) {
  if (off > s->m.capacity_bytes || len > s->m.capacity_bytes - off) return -EINVAL;
  sim_slc_release(s, sim_slc_unmark_trim(s, off, len));
  sim_map_clear(s, off, len);
  if (s->ftl) sim_ftl_trim(s, off, len);
  return 0;
}

/* ------------------------------------------------------------------ reads */

/* Senses one stripe unit's worth of an I/O (one multi-plane read of
 * page_bytes x planes) on its die, then moves it over the channel. The die
 * is free again once the data is in its cache register (cache read), so the
 * next sense overlaps this transfer. Returns when the data is in the
 * controller. */
static uint64_t read_unit(struct sim *s, uint64_t t0, uint64_t unit, uint64_t bytes) {
  /* Divisions are slow on the hot path: shift when the geometry allows. */
  int p2 = s->die_mask || s->ndies == 1;
  unsigned die = (unsigned)(p2 ? unit & s->die_mask : unit % s->ndies);
  struct sim_die *d = &s->dies[die];
  /* Page type (LSB/CSB/MSB) sets how many read levels are sensed. */
  unsigned type = (unsigned)((p2 ? unit >> s->die_shift : unit / s->ndies) % 3);
  uint64_t sense = s->t_read_ns[type] + rnd_upto(s, s->read_jitter_ns);
  if (s->retry_thresh && rnd(s) < s->retry_thresh) /* ECC failed: re-sense with shifted levels */
    sense += s->t_read_ns[type] + rnd_upto(s, s->read_jitter_ns);
  uint64_t st = max64(t0, d->read_until);
  if (st >= d->erase_from && st < d->erase_until) {
    if (st < d->copy_until && s->gc_copy_ns) {
      /* GC copy phase: wait for the current copy, slip in, push the rest. */
      uint64_t wait = s->gc_copy_ns - (st - d->erase_from) % s->gc_copy_ns;
      st += wait;
      d->copy_until += sense;
      d->erase_until += sense;
      d->prog_until += sense;
    } else {
      st = d->erase_until; /* erases cannot be suspended */
    }
  }
  int collided = st >= d->prog_from && st < d->prog_until;
  if (collided) { /* suspend the program, read, resume */
    uint64_t rem = d->prog_until - st;
    st += rem < s->suspend_ns ? rem : s->suspend_ns;
  }
  uint64_t se = st + sense;
  d->read_until = se;
  if (collided) d->prog_until += se - st;
  s->st.busy_ns_acc += sense;
  unsigned ch = s->m.dies_per_channel == 1 ? die : s->dpc_shift ? die >> s->dpc_shift : die / s->m.dies_per_channel;
  return fluid_take(&s->chan[ch], se, (uint64_t)(bytes * s->ch_ns_per_byte));
}

static uint64_t do_read(struct sim *s, uint64_t now, uint64_t off, uint32_t len, int32_t *status) {
  uint64_t t0 = now + s->ctrl_ns, ready = t0;
  if (off < s->bad_end_bytes && off + len > s->bad_start_bytes) {
    *status = -EIO;
    return t0 + SIM_BAD_READ_RETRIES * s->t_read_ns[2];
  }
  uint64_t ub = s->slc_unit_bytes;
  uint64_t first = s->stripe_shift ? off >> s->stripe_shift : off / ub;
  uint64_t last = s->stripe_shift ? (off + len - 1) >> s->stripe_shift : (off + len - 1) / ub;
  for (uint64_t u = first; u <= last; u++) {
    uint64_t a = max64(off, u * ub), b = off + len < (u + 1) * ub ? off + len : (u + 1) * ub;
    /* Unmapped LBAs read as zeros from the controller, without the NAND. */
    if (!sim_map_any(s, a, b - a)) continue;
    ready = max64(ready, read_unit(s, t0, u, b - a));
  }
  return fluid_take(&s->st.link_rd, ready, (uint64_t)(len * s->link_ns_per_byte));
}

/* ----------------------------------------------------------------- writes */

/* The program units in flight hold their buffer space until each ends; a
 * binary min-heap on end_ns in ring[0..ring_count) (ring_head stays 0), so
 * a full buffer frees the program that ends first. Freed in program order
 * (a FIFO), one die held up by a long GC move or a burst of GC steps kept
 * the space of every later program on the other dies, so every write waited
 * for the die furthest behind (docs/sim-model.md, "Write latency in the
 * steady state"). A die's programs end in order, so this is also what a
 * buffer freed per die would do. */
static void ring_sift_down(struct sim_flush *h, uint64_t n, uint64_t i) {
  for (;;) {
    uint64_t c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && h[c + 1].end_ns < h[c].end_ns) c++;
    if (h[i].end_ns <= h[c].end_ns) return;
    struct sim_flush t = h[i];
    h[i] = h[c], h[c] = t, i = c;
  }
}

static void ring_push(struct sim *s, uint64_t end_ns, uint64_t bytes) {
  struct sim_flush *h = s->ring;
  uint64_t i = s->st.ring_count++;
  for (; i && h[(i - 1) / 2].end_ns > end_ns; i = (i - 1) / 2) h[i] = h[(i - 1) / 2];
  h[i].end_ns = end_ns;
  h[i].bytes = bytes;
}

/* Frees the buffer space of the program unit that ends first; returns when
 * it is free. Bottom-up: the hole at the top goes down to a leaf along the
 * earlier child (picked without a branch: which program ends first is
 * data the predictor cannot guess), and the last entry rises from there
 * over every parent not later than it, which leaves the same heap as a
 * sift-down from the top, ties included (the order of equal ends decides
 * how much space a full buffer frees). */
static uint64_t ring_pop(struct sim *s) {
  struct sim_flush *h = s->ring, f = h[0];
  uint64_t n = --s->st.ring_count, i = 0;
  if (n) {
    struct sim_flush last = h[n];
    for (;;) {
      uint64_t c = 2 * i + 1;
      if (c + 1 < n) c += (uint64_t)(h[c + 1].end_ns < h[c].end_ns);
      else if (c >= n) break;
      h[i] = h[c];
      i = c;
    }
    while (i) {
      uint64_t p = (i - 1) / 2;
      if (last.end_ns > h[p].end_ns) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = last;
  }
  s->st.buf_used_bytes -= f.bytes;
  return f.end_ns;
}

static void ring_reverse(struct sim_flush *h, uint64_t a, uint64_t b) { /* [a, b) */
  for (; a + 1 < b; a++, b--) {
    struct sim_flush t = h[a];
    h[a] = h[b - 1], h[b - 1] = t;
  }
}

/* A loaded state's programs in flight as the heap: states saved before it
 * hold them in program order from any head, rotated here to 0 (three
 * reversals) before the heap is built. */
static void ring_rebuild(struct sim *s) {
  uint64_t n = s->st.ring_count, head = s->st.ring_head;
  if (head) {
    ring_reverse(s->ring, 0, head);
    ring_reverse(s->ring, head, s->ring_cap);
    ring_reverse(s->ring, 0, s->ring_cap);
    s->st.ring_head = 0;
  }
  for (uint64_t i = n / 2; i-- > 0;) ring_sift_down(s->ring, n, i);
}

/* 0..1: how hard GC works. It starts when free space falls below
 * gc_free_pct (erased blocks run short) and grows as free space shrinks;
 * an empty or 75%-full drive has nothing urgent to collect. */
static double gc_pressure(const struct sim *s) {
  double free_frac = 1.0 - (double)s->st.mapped_units / (double)s->units;
  double start = s->m.gc_free_pct / 100.0;
  return free_frac >= start ? 0 : (start - free_frac) / start;
}

/* The next die of the write point, a round robin (next_die stays a die
 * index, not a running count, so a saved state can be checked against the
 * drive it is loaded into). */
static unsigned next_write_die(struct sim *s) {
  unsigned die = (unsigned)(s->st.next_die % s->ndies);
  s->st.next_die = die + 1 < s->ndies ? die + 1 : 0;
  return die;
}

/* The die a GC move goes to: the first, from the write point on,
 * whose queue ends first, as firmware gives relocation work to the dies
 * that can take it. Placed round robin as the host's programs are, the
 * queues drifted apart (a move takes longer than a host program, and n
 * moves per host program put the host's programs on the same dies for long
 * runs) until one die ran 200 ms behind the others and every write waited
 * for it (docs/sim-model.md, "Page-mapped FTL"). The host's programs stay
 * round robin: the moves, most of the die time, keep the queues level. */
static unsigned move_die(const struct sim *s) {
  unsigned die = (unsigned)(s->st.next_die % s->ndies), best = die;
  uint64_t best_t = UINT64_MAX;
  for (unsigned i = 0; i < s->ndies; i++, die = die + 1 < s->ndies ? die + 1 : 0) {
    const struct sim_die *d = &s->dies[die];
    uint64_t t = max64(s->st.pending_ready_ns, max64(d->prog_until, d->read_until));
    if (t < best_t) best_t = t, best = die;
  }
  return best;
}

/* Takes SLC_EQUIV bytes of die D's open block for a program starting at
 * START, erasing a fresh block first when the open one is full; returns
 * when the program can start. */
static uint64_t take_block_room(struct sim *s, struct sim_die *d, uint64_t start, uint64_t slc_equiv) {
  if (d->block_fill + slc_equiv > s->m.block_bytes) {
    uint64_t e = s->erase_ns - s->erase_jitter_ns + rnd_upto(s, 2 * s->erase_jitter_ns);
    d->erase_from = start;
    d->copy_until = start;
    d->erase_until = start + e;
    d->block_fill = 0;
    s->st.busy_ns_acc += e;
    start += e;
  }
  d->block_fill += slc_equiv;
  return start;
}

/* Programs one multi-plane unit (SLC) or one-shot TLC unit on the next die
 * of the write point, erasing a fresh block first when the open one is full. */
static void program_unit(struct sim *s, int slc) {
  uint64_t unit = slc ? s->slc_unit_bytes : s->tlc_unit_bytes;
  unsigned die = next_write_die(s);
  struct sim_die *d = &s->dies[die];
  unsigned ch = die / s->m.dies_per_channel;
  uint64_t start = max64(s->st.pending_ready_ns, max64(d->prog_until, d->read_until));
  int idle = d->prog_until <= start;
  uint64_t slc_equiv = slc ? unit : unit / s->m.bits_per_cell;
  start = take_block_room(s, d, start, slc_equiv);
  /* A GC step relocates a victim's valid pages (copies that cannot be
   * suspended, though a read may slip in between two) and erases it (which
   * a read must wait out). */
  /* With the page-mapped FTL (which collects its TLC blocks itself) a model
   * that sets gc_steps_per_gib keeps them as the controller's housekeeping
   * the FTL does not model (SLC compaction, folding); their copies are NAND
   * writes there (docs/sim-model.md, "Page-mapped FTL"). */
  uint64_t gc_thresh = slc ? s->gc_thresh_slc : s->gc_thresh_tlc;
  if (gc_thresh && rnd(s) < (uint64_t)((double)gc_thresh * gc_pressure(s))) {
    uint64_t copies = (uint64_t)s->m.gc_copies * s->gc_copy_ns;
    if (s->ftl) s->st.nand_write_bytes += (uint64_t)s->m.gc_copies * s->m.page_bytes;
    uint64_t g = copies + s->erase_ns - s->erase_jitter_ns + rnd_upto(s, 2 * s->erase_jitter_ns);
    d->erase_from = start;
    d->copy_until = start + copies;
    d->erase_until = start + g;
    s->st.busy_ns_acc += g;
    if (!s->gc_first_ns) s->gc_first_ns = start, s->gc_first_host_bytes = s->phase_host_bytes;
    start += g;
  }
  uint64_t xe = fluid_take(&s->chan[ch], start, slc ? s->slc_unit_xfer_ns : s->tlc_unit_xfer_ns);
  uint64_t xs = xe - (slc ? s->slc_unit_xfer_ns : s->tlc_unit_xfer_ns);
  uint64_t pe = xe + (slc ? s->prog_slc_ns : s->prog_tlc_ns);
  if (idle) d->prog_from = xs;
  d->prog_until = pe;
  s->st.busy_ns_acc += pe - xs;
  ring_push(s, pe, unit);
  s->st.nand_write_bytes += unit;
  s->st.pending_bytes -= unit;
  if (slc) s->st.slc_used_bytes += unit;
  if (!slc && !s->tlc_seen) {
    s->tlc_seen = 1;
    s->tlc_first_ns = s->st.pending_ready_ns;
    s->tlc_first_mapped_bytes = s->st.mapped_units * SIM_UNIT_BYTES;
    s->tlc_first_host_bytes = s->phase_host_bytes;
  }
}

/* Moves one TLC unit of data to die DIE (a fold of SLC data, or a GC
 * relocation): the source pages are sensed (bits_per_cell multi-plane reads),
 * moved out over the channel and back in, and programmed as one TLC unit.
 * The host's next programs on that die wait for it: past the buffer, the
 * host sees the folding-bound speed. */
static void move_unit(struct sim *s, unsigned die) {
  struct sim_die *d = &s->dies[die];
  unsigned ch = die / s->m.dies_per_channel;
  uint64_t start = max64(s->st.pending_ready_ns, max64(d->prog_until, d->read_until));
  uint64_t slc_equiv = s->tlc_unit_bytes / s->m.bits_per_cell;
  start = take_block_room(s, d, start, slc_equiv);
  uint64_t sense = (uint64_t)s->m.bits_per_cell * s->t_read_ns[0];
  uint64_t out = fluid_take(&s->chan[ch], start + sense, s->tlc_unit_xfer_ns);
  uint64_t xe = fluid_take(&s->chan[ch], out, s->tlc_unit_xfer_ns);
  uint64_t pe = xe + s->prog_tlc_ns;
  d->read_until = start + sense;
  d->prog_from = xe - s->tlc_unit_xfer_ns;
  d->prog_until = pe;
  s->st.busy_ns_acc += sense + (pe - d->prog_from);
  s->st.nand_write_bytes += s->tlc_unit_bytes;
}

static void fold_unit(struct sim *s) {
  /* a fold as the host writes takes the write point's next die, as its
   * programs do: on the least-loaded die (the host's next) it held up every
   * host program behind it (test_recovery's fam-fold after a 120 s idle:
   * in-cache 2802 MB/s against the simulator's 3374; here 3309) */
  move_unit(s, next_write_die(s));
  s->st.slc_used_bytes -= s->tlc_unit_bytes;
  sim_slc_unmark_oldest(s, s->tlc_unit_bytes / SIM_UNIT_BYTES);
  if (!s->fold_seen) {
    s->fold_seen = 1;
    s->fold_first_ns = s->st.pending_ready_ns;
    s->fold_first_host_bytes = s->phase_host_bytes;
  }
}

/* Page-mapped FTL: the dies spend time on the units GC has relocated (and
 * on the rest of partially written mapping units), a TLC unit at a time as
 * a fold is timed (sense, out and back over the channel, one program), on
 * the dies of the write point before the host's next program of
 * HOST_BYTES. The debt is spread evenly over the room the host has before
 * the next collection (a share of it per host program), as firmware
 * interleaves GC with host writes: a victim's copies neither stall one
 * write nor fall behind the next victim. */
static void gc_pay(struct sim *s, uint64_t host_bytes) {
  uint64_t units = s->st.gc_debt_bytes / s->tlc_unit_bytes;
  if (!units) return;
  uint64_t room = sim_ftl_host_room(s->ftl), hp = host_bytes / s->ftl->g.unit_bytes;
  uint64_t n = room ? (units * (hp ? hp : 1) + room - 1) / room : units;
  if (n > units) n = units;
  if (n && !s->gc_first_ns) s->gc_first_ns = s->st.pending_ready_ns, s->gc_first_host_bytes = s->phase_host_bytes;
  for (uint64_t i = 0; i < n; i++) move_unit(s, move_die(s));
  s->st.gc_debt_bytes -= n * s->tlc_unit_bytes;
}

/* The debt SLC programs leave to the background: up to two victims' worth
 * (a TLC block each) waits for die time the host leaves free; past it the
 * collection is behind and SLC programs pay their share too. */
static int gc_urgent(const struct sim *s) {
  return s->st.gc_debt_bytes > 2 * (uint64_t)s->ftl->g.upb * s->ftl->g.unit_bytes;
}

/* Background GC, before each host command and at the end of an idle: while
 * the die of the write point has been free since before NOW it pays the
 * relocation debt a TLC unit at a time (timed as gc_pay's, on the dies
 * move_die picks), and with none left collects the next victim while
 * erased blocks are below the high watermark (sim_ftl_collect_bg). A die busy at NOW stops it, so under a
 * sustained load (the dies never free) it does nothing and the steady state
 * is the foreground GC's. A move begun before NOW may run past it: a read
 * meets it as any program. */
static void gc_background(struct sim *s, uint64_t now) {
  for (;;) {
    const struct sim_die *d = &s->dies[s->st.next_die % s->ndies];
    if (max64(s->st.pending_ready_ns, max64(d->prog_until, d->read_until)) >= now) return;
    while (s->st.gc_debt_bytes < s->tlc_unit_bytes)
      if (!sim_ftl_collect_bg(s)) return;
    if (!s->gc_first_ns) s->gc_first_ns = max64(s->st.pending_ready_ns, d->prog_until), s->gc_first_host_bytes = s->phase_host_bytes;
    move_unit(s, move_die(s));
    s->st.gc_debt_bytes -= s->tlc_unit_bytes;
  }
}

static void dispatch_pending(struct sim *s) {
  while (s->st.pending_bytes >= s->slc_unit_bytes) {
    int slc = s->st.slc_used_bytes + s->slc_unit_bytes <= sim_slc_cap(s);
    if (!slc && s->st.pending_bytes < s->tlc_unit_bytes) break;
    /* an SLC program is taken at once while the collection keeps up (its
     * debt is paid in the background); a TLC one pays its share first */
    if (s->ftl && (!slc || gc_urgent(s))) gc_pay(s, slc ? s->slc_unit_bytes : s->tlc_unit_bytes);
    program_unit(s, slc);
    /* the cache holds more than the free space now allows: fold the excess
     * as the host writes (the oldest SLC data, as an idle fold) */
    if (!slc && s->m.slc_fold_on_shrink && s->st.slc_used_bytes >= s->tlc_unit_bytes &&
        s->st.slc_used_bytes > sim_slc_cap(s))
      fold_unit(s);
  }
}

static uint64_t do_write(struct sim *s, uint64_t now, uint64_t off, uint32_t len) {
  uint64_t in = fluid_take(&s->st.link_wr, now, (uint64_t)(len * s->link_ns_per_byte));
  /* Writes take buffer space in arrival order: the space a waiting write
   * freed is not free before then, and without this the writes behind it
   * got that space at once, so one write per program unit (96 KiB) took the
   * whole wait and the others none (docs/sim-model.md). */
  in = max64(in, s->st.pending_ready_ns);
  s->phase_host_bytes += len;
  s->st.host_write_bytes += len;
  sim_map_set(s, off, len);
  if (s->ftl) sim_ftl_write(s, off, len);
  /* The old copies of rewritten units that sit in SLC become stale; the new
   * ones land in SLC while it has room (dispatch_pending decides the same
   * way per program unit). */
  sim_slc_release(s, sim_slc_mark(s, off, len, s->st.slc_used_bytes + s->slc_unit_bytes <= sim_slc_cap(s)));
  /* A write larger than the buffer streams through it in pieces. A piece
   * leaves room for the partial TLC unit still pending (< tlc_unit_bytes; the
   * model makes the buffer hold two), so the buffer never holds more than
   * buf_cap_bytes and the ring never more than buf_cap / slc_unit units:
   * one 64 MiB write used to push 2048 units into a 258-entry ring. */
  uint64_t piece_max = s->buf_cap_bytes > s->tlc_unit_bytes ? s->buf_cap_bytes - s->tlc_unit_bytes : 0;
  if (!piece_max) piece_max = len; /* a model sim_model_load would refuse: no buffer to stream through */
  for (uint64_t left = len; left;) {
    uint64_t piece = left < piece_max ? left : piece_max;
    left -= piece;
    /* Units already programmed give their buffer space back. */
    while (s->st.ring_count && s->ring[0].end_ns <= in) ring_pop(s);
    /* A full buffer makes the write wait for the program in flight that
     * ends first: past the buffer, the host sees the NAND's speed. */
    while (s->st.buf_used_bytes + piece > s->buf_cap_bytes && s->st.ring_count) {
      uint64_t freed = ring_pop(s);
      if (freed > in && s->tlc_seen && !s->cliff_seen) { /* truth: the host now waits at NAND speed */
        s->cliff_seen = 1;
        s->cliff_ns = in;
        s->cliff_host_bytes = s->phase_host_bytes;
      }
      in = max64(in, freed);
    }
    s->st.buf_used_bytes += piece;
    s->st.pending_bytes += piece;
    s->st.pending_ready_ns = in;
    dispatch_pending(s);
  }
  uint64_t done = in + s->ack_ns + rnd_upto(s, s->ack_jitter_ns);
  if (s->stall_thresh && rnd(s) < s->stall_thresh) /* the L2P journal is being flushed */
    done += s->stall_min_ns + rnd_upto(s, s->stall_span_ns);
  return done;
}

static uint64_t do_flush(struct sim *s, uint64_t now) {
  uint64_t done = now + s->ctrl_ns;
  for (uint64_t i = 0; i < s->st.ring_count; i++)
    done = max64(done, s->ring[i].end_ns);
  return done;
}

/* The controller limit: the command takes the core free first (commands
 * arrive in time order, so this is exact FIFO over ctrl_cores servers) and
 * goes on once its ctrl_cmd_us there are done. */
static uint64_t ctrl_take(struct sim *s, uint64_t now) {
  unsigned best = 0;
  for (unsigned i = 1; i < s->m.ctrl_cores; i++)
    if (s->st.ctrl_until[i] < s->st.ctrl_until[best]) best = i;
  uint64_t end = max64(now, s->st.ctrl_until[best]) + s->ctrl_cmd_ns;
  s->st.ctrl_until[best] = end;
  return end;
}

uint64_t sim_io(struct sim *s, uint64_t now, unsigned op, uint64_t off, uint32_t len,
                int32_t *status) {
  *status = 0;
  if (s->ctrl_cmd_ns) now = ctrl_take(s, now);
  if (!len && op != SSDLOG_OP_FLUSH) return now + s->ctrl_ns;
  if (op != SSDLOG_OP_FLUSH && (off > s->m.capacity_bytes || len > s->m.capacity_bytes - off)) {
    *status = -EINVAL;
    return now + s->ctrl_ns;
  }
  if (s->error_thresh && rnd(s) < s->error_thresh) { /* injected media error */
    *status = -EIO;
    return now + s->ctrl_ns + s->t_read_ns[0];
  }
  /* the write's SLC residency word, random in a map that misses cache on a
   * large drive: fetched while the background GC check and the FTL run */
  if (op == SSDLOG_OP_WRITE && s->slc_map_dirty) __builtin_prefetch(&s->slc_map[off / SIM_UNIT_BYTES / 64], 1);
  if (s->ftl && (op == SSDLOG_OP_READ || op == SSDLOG_OP_WRITE)) gc_background(s, now);
  switch (op) {
  case SSDLOG_OP_READ: return do_read(s, now, off, len, status);
  case SSDLOG_OP_WRITE: return do_write(s, now, off, len);
  case SSDLOG_OP_TRIM:
    sim_slc_release(s, sim_slc_unmark_trim(s, off, len));
    sim_map_clear(s, off, len);
    if (s->ftl) sim_ftl_trim(s, off, len);
    return now + s->ctrl_ns;
  case SSDLOG_OP_FLUSH: return do_flush(s, now);
  default: *status = -EOPNOTSUPP; return now + s->ctrl_ns;
  }
}

/* ------------------------------------------------------------ ground truth */

/* MB/s of a sequential 128 KiB QD32 write of `bytes` from offset 0 on a
 * fresh drive of model m, over its bytes [from, to). */
static int measure_seq_window(const struct sim_model *m, uint64_t bytes, uint64_t from, uint64_t to, double *mb_s,
                              struct ssdrev_err *err) {
  struct sim *s;
  int rc = sim_new(&s, m, 1, err);
  if (rc) return rc;
  enum { QD = 32, BS = 128 * 1024 };
  uint64_t done[QD] = {0}, n = bytes / BS, t_q = 0, b_q = 0, t_e = 0, b_e = 0, last = 0;
  uint64_t i_from = from / BS, i_to = to / BS < n ? to / BS : n;
  for (uint64_t i = 0; i < n; i++) {
    /* closed loop: I/O i is submitted when I/O i - QD has completed */
    uint64_t now = done[i % QD];
    int32_t st;
    uint64_t d = sim_io(s, now, SSDLOG_OP_WRITE, i * BS, BS, &st);
    sim_advance(s, now);
    done[i % QD] = d;
    if (d > last) last = d;
    if (i + 1 == i_from) t_q = last, b_q = (i + 1) * BS;
    if (i + 1 == i_to) t_e = last, b_e = (i + 1) * BS;
  }
  *mb_s = t_e > t_q ? (double)(b_e - b_q) / ((double)(t_e - t_q) / 1e9) / 1e6 : 0;
  sim_free(s);
  return 0;
}

/* The same over the part after the first quarter (the DRAM buffer first
 * fills at link speed). */
static int measure_seq(const struct sim_model *m, uint64_t bytes, double *mb_s, struct ssdrev_err *err) {
  return measure_seq_window(m, bytes, bytes / (128 * 1024) / 4 * (128 * 1024), bytes, mb_s, err);
}

int sim_model_measure(const struct sim_model *m, struct sim_measured *out, struct ssdrev_err *err) {
  memset(out, 0, sizeof *out);
  /* a scratch model: no faults, 8 GiB (the map is lazy; 512 MiB written
   * keep GC pressure at zero, as on an empty drive) */
  struct sim_model x = *m;
  x.error_rate = 0;
  x.bad_lba_count = 0;
  x.capacity_bytes = UINT64_C(8) << 30;
  x.op_pct = 0; /* an empty drive has nothing to collect: the bitmap does (and 8 GiB may not hold the spare) */
  x.map_unit_bytes = SIM_UNIT_BYTES;
  x.slc_static_only = 1;
  x.slc_min_gib = x.slc_max_gib = 1;
  uint64_t bytes = UINT64_C(512) << 20;
  int rc = measure_seq(&x, bytes, &out->slc_write_mb_s, err);
  if (rc) return rc;
  x.slc_min_gib = x.slc_max_gib = 0;
  rc = measure_seq(&x, bytes, &out->post_cache_mb_s, err);
  if (rc) return rc;
  /* sim_slc_cap on an empty drive being filled: cap(x) = min + min(room,
   * (C - x) / bits); the cache runs out where the data written meets it */
  double C = (double)m->capacity_bytes, b = m->bits_per_cell;
  double mn = m->slc_min_gib * 1073741824.0, mx = m->slc_static_only ? mn : m->slc_max_gib * 1073741824.0;
  double xc = (C - mx) / b >= mx - mn ? mx : (b * mn + C) / (b + 1);
  if (xc > C) xc = C;
  out->empty_fill_cliff_bytes = (uint64_t)xc;
  if (m->slc_fold_on_shrink && !m->slc_static_only) {
    /* the fold starts where the shrinking cache meets the data it holds:
     * cap(x) = min + (C - x) / bits = xc */
    double xf = C - b * (xc - mn);
    out->empty_fill_fold_bytes = xf > xc && xf < C ? (uint64_t)xf : 0;
    /* its speed: a scratch 8 GiB drive whose 1 GiB cache starts folding at
     * 8 - bits GiB, measured from half a GiB later to half a GiB before
     * the end (the folding keeps pace with the shrinking cache there) */
    x.slc_static_only = 0;
    x.slc_min_gib = 0;
    x.slc_max_gib = 1;
    uint64_t G = UINT64_C(1) << 30, from = (uint64_t)(8 - m->bits_per_cell) * G + G / 2;
    rc = measure_seq_window(&x, 8 * G, from, 8 * G - G / 2, &out->fold_bound_mb_s, err);
    if (rc) return rc;
  }
  return 0;
}

int sim_model_measure_thermal(const struct sim_model *m, struct sim_thermal_measured *out, struct ssdrev_err *err) {
  memset(out, 0, sizeof *out);
  if (!(m->throttle_light_c > 0)) return 0;
  struct sim_model x = *m;
  x.error_rate = 0;
  x.bad_lba_count = 0;
  enum { QD = 32, BS = 128 * 1024 };
  const uint64_t bin_ns = 100000000ull, max_ns = (uint64_t)(SIM_THERMAL_MEASURE_MAX_S * 1e9);
  size_t nbins = (size_t)(max_ns / bin_ns) + 64;
  uint64_t *bins = calloc(nbins, sizeof *bins); /* bytes completed per 100 ms */
  if (!bins) return ssdrev_fail(err, -ENOMEM, "out of memory");
  struct sim *s;
  int rc = sim_new(&s, &x, 1, err);
  if (rc) {
    free(bins);
    return rc;
  }
  uint64_t done[QD] = {0}, nblocks = x.capacity_bytes / BS, last = 0, thr_ns = 0, end_ns = max_ns;
  out->peak_temp_c = s->st.temp_c;
  for (uint64_t i = 0; last < end_ns; i++) {
    uint64_t now = done[i % QD]; /* closed loop: I/O i follows I/O i - QD */
    int32_t st;
    uint64_t d = sim_io(s, now, SSDLOG_OP_WRITE, (i % nblocks) * BS, BS, &st); /* wraps at the end */
    sim_advance(s, now);
    done[i % QD] = d;
    if (d > last) last = d;
    if (d / bin_ns < nbins) bins[d / bin_ns] += BS;
    if (s->st.temp_c > out->peak_temp_c) out->peak_temp_c = s->st.temp_c;
    if (s->st.throttle_level > out->level) out->level = (unsigned)s->st.throttle_level;
    if (!thr_ns && s->throttle_first_ns) {
      thr_ns = s->throttle_first_ns;
      out->temp_at_throttle_c = s->st.temp_c;
      end_ns = thr_ns + (uint64_t)(SIM_THERMAL_MEASURE_AFTER_S * 1e9);
      if (end_ns > max_ns) end_ns = max_ns;
    }
  }
  sim_free(s);
  if (thr_ns) {
    out->throttled = 1;
    out->throttle_after_s = (double)thr_ns / 1e9;
    /* whole bins only: the 10 s before the throttle, and from 5 s after it
     * (the write buffer drains at the old speed first) to the end */
    uint64_t tb = thr_ns / bin_ns, b0 = tb > 100 ? tb - 100 : 0, a0 = tb + 50, a1 = end_ns / bin_ns;
    uint64_t before = 0, after = 0;
    for (uint64_t k = b0; k < tb; k++) before += bins[k];
    for (uint64_t k = a0; k < a1 && k < nbins; k++) after += bins[k];
    if (tb > b0) out->before_mb_s = (double)before / ((double)(tb - b0) * bin_ns / 1e9) / 1e6;
    if (a1 > a0) out->throttled_mb_s = (double)after / ((double)(a1 - a0) * bin_ns / 1e9) / 1e6;
  }
  free(bins);
  return 0;
}

void sim_get_truth(const struct sim *s, struct sim_truth *t) {
  memset(t, 0, sizeof *t);
  /* measured once per drive: the truth is what the timing does */
  struct sim *w = (struct sim *)s; /* the cache only: no state the timing reads */
  if (!w->measured && (w->measured = calloc(1, sizeof *w->measured)) != NULL &&
      sim_model_measure(&s->m, w->measured, NULL)) {
    free(w->measured);
    w->measured = NULL;
  }
  uint64_t cap = sim_slc_cap(s);
  t->slc_cache_bytes_cap = cap;
  t->slc_used_bytes = s->st.slc_used_bytes;
  t->slc_cache_bytes_now = cap > s->st.slc_used_bytes ? cap - s->st.slc_used_bytes : 0;
  t->slc_cache_bytes_max = s->slc_max_bytes;
  t->slc_cache_bytes_min = s->slc_min_bytes;
  if (s->measured) {
    t->post_cache_mb_s = s->measured->post_cache_mb_s;
    t->slc_write_mb_s = s->measured->slc_write_mb_s;
    t->empty_fill_cliff_bytes = s->measured->empty_fill_cliff_bytes;
    t->fold_bound_mb_s = s->measured->fold_bound_mb_s;
    t->empty_fill_fold_bytes = s->measured->empty_fill_fold_bytes;
  }
  t->fold_first_ns = s->fold_first_ns;
  t->fold_first_host_bytes = s->fold_first_host_bytes;
  t->phase_host_bytes = s->phase_host_bytes;
  t->tlc_first_ns = s->tlc_first_ns;
  t->tlc_first_mapped_bytes = s->tlc_first_mapped_bytes;
  t->tlc_first_host_bytes = s->tlc_first_host_bytes;
  t->cliff_ns = s->cliff_ns;
  t->cliff_host_bytes = s->cliff_host_bytes;
  t->gc_first_ns = s->gc_first_ns;
  t->gc_first_host_bytes = s->gc_first_host_bytes;
  t->mapped_bytes = s->st.mapped_units * SIM_UNIT_BYTES;
  t->temp_c = s->st.temp_c;
  t->now_ns = s->st.now_ns;
  t->throttle_level = (unsigned)s->st.throttle_level;
  for (int i = 0; i < 2; i++) t->tmt_count[i] = s->st.tmt_count[i], t->tmt_ns[i] = s->st.tmt_ns[i];
  t->throttle_first_ns = s->throttle_first_ns;
  t->ftl = s->ftl != NULL;
  t->host_write_bytes = s->st.host_write_bytes;
  t->nand_write_bytes = s->st.nand_write_bytes;
  if (s->ftl) t->ftl_free_blocks = s->ftl->nfree, t->ftl_blocks = s->ftl->g.nblocks;
}

/* ------------------------------------------------------------ save / load */

struct sim_file_header {
  char magic[8];
  uint64_t capacity_bytes, units, seed, ndies, channels, ring_cap, map_words;
  uint64_t ftl_lunits, ftl_nblocks, ftl_upb; /* SSDRSIM4: 0s without a page-mapped FTL */
};

static void header_of(const struct sim *s, struct sim_file_header *h) {
  memset(h, 0, sizeof *h);
  memcpy(h->magic, SIM_STATE_MAGIC, 8);
  h->capacity_bytes = s->m.capacity_bytes;
  h->units = s->units;
  h->seed = s->seed;
  h->ndies = s->ndies;
  h->channels = s->m.channels;
  h->ring_cap = s->ring_cap;
  h->map_words = sim_map_words(s);
  if (s->ftl) h->ftl_lunits = s->ftl->g.lunits, h->ftl_nblocks = s->ftl->g.nblocks, h->ftl_upb = s->ftl->g.upb;
}

void sim_write_sparse(const void *p, uint64_t n, FILE *out) {
  enum { CHUNK = 65536 };
  const unsigned char *b = p;
  for (uint64_t at = 0; at < n;) {
    size_t len = n - at < CHUNK ? (size_t)(n - at) : CHUNK;
    const uint64_t *w = (const uint64_t *)(const void *)(b + at);
    size_t i = 0, nw = len / 8;
    while (i < nw && !w[i]) i++;
    int zero = i == nw;
    for (size_t j = nw * 8; zero && j < len; j++) zero = !b[at + j];
    /* a seek that fails writes the zeros instead; a short write is the commit's error */
    if (zero && !fseeko(out, (off_t)len, SEEK_CUR)) at += len;
    else if (fwrite(b + at, 1, len, out) == len) at += len;
    else return;
  }
}

int sim_save(const struct sim *s, const char *path, struct ssdrev_err *err) {
  struct ssdrev_atomic a;
  int rc = ssdrev_atomic_open(&a, path, err);
  if (rc) return rc;
  struct sim_file_header h;
  header_of(s, &h);
  fwrite(&h, sizeof h, 1, a.f);
  fwrite(&s->st, sizeof s->st, 1, a.f);
  fwrite(s->dies, sizeof *s->dies, s->ndies, a.f);
  fwrite(s->chan, sizeof *s->chan, s->m.channels, a.f);
  fwrite(s->ring, sizeof *s->ring, s->ring_cap, a.f);
  fwrite(s->map, sizeof *s->map, h.map_words, a.f);
  fwrite(s->slc_map, sizeof *s->slc_map, h.map_words, a.f);
  if (s->ftl) sim_ftl_save(s->ftl, a.f);
  return ssdrev_atomic_commit(&a, err); /* reports any short write */
}

/* Every clock in a state (now, reservations, backlogs) stays below this:
 * 2^62 ns is 146 years of virtual time, far past any review, and the head
 * room keeps sums of a few clocks from wrapping. */
#define SIM_MAX_CLOCK_NS (1ull << 62)

static int fluid_ok(const struct sim_fluid *f) {
  return f->t < SIM_MAX_CLOCK_NS && f->backlog < SIM_MAX_CLOCK_NS;
}

/* Checks a loaded state against the drive it is loaded into, before any of
 * it is used: the timing code trusts these invariants (ring indices, the die
 * of the write point, buffer accounting, mapped count = bits set in the map),
 * and a damaged value indexes the ring out of bounds or turns GC pressure
 * into an absurd integer. Returns NULL when consistent, else what is wrong
 * (written to why). The arrays are read from the file buffer unaligned. */
static const char *state_problem(const struct sim *s, const struct sim_state *st, const char *dies,
                                 const char *chan, const char *ring, const char *map, char *why, size_t len) {
  if (st->ring_head >= s->ring_cap || st->ring_count > s->ring_cap) {
    snprintf(why, len, "program ring head %llu / count %llu outside a ring of %llu entries",
             (unsigned long long)st->ring_head, (unsigned long long)st->ring_count,
             (unsigned long long)s->ring_cap);
    return why;
  }
  if (st->next_die >= s->ndies) {
    snprintf(why, len, "write point names die %llu of a drive with %u dies", (unsigned long long)st->next_die,
             s->ndies);
    return why;
  }
  if (st->now_ns >= SIM_MAX_CLOCK_NS || st->pending_ready_ns >= SIM_MAX_CLOCK_NS ||
      st->thermal_at_ns > st->now_ns || st->busy_ns_acc >= SIM_MAX_CLOCK_NS || !fluid_ok(&st->link_rd) ||
      !fluid_ok(&st->link_wr))
    return "a clock is out of range";
  if (!isfinite(st->temp_c) || fabs(st->temp_c) > 1000)
    return "temperature is not a number of degrees";
  if (st->throttle_level > (s->m.throttle_heavy_c > 0 ? 2u : s->m.throttle_light_c > 0 ? 1u : 0u))
    return "a throttle level the model does not have";
  if (st->tmt_ns[0] >= SIM_MAX_CLOCK_NS || st->tmt_ns[1] >= SIM_MAX_CLOCK_NS) return "a throttle time is out of range";
  for (unsigned i = 0; i < SIM_CTRL_MAX_CORES; i++)
    if (st->ctrl_until[i] >= SIM_MAX_CLOCK_NS || (i >= s->m.ctrl_cores && st->ctrl_until[i]))
      return "a controller core's clock is out of range";
  if (st->gc_debt_bytes > (s->ftl ? (uint64_t)s->ftl->g.punits * s->ftl->g.unit_bytes : 0))
    return "GC relocation debt beyond the NAND";
  if (st->mapped_units > s->units) {
    snprintf(why, len, "%llu mapped units on a drive of %llu", (unsigned long long)st->mapped_units,
             (unsigned long long)s->units);
    return why;
  }
  if (st->slc_used_bytes > s->slc_max_bytes) {
    snprintf(why, len, "%llu bytes in an SLC cache of at most %llu", (unsigned long long)st->slc_used_bytes,
             (unsigned long long)s->slc_max_bytes);
    return why;
  }
  if (st->pending_bytes >= s->tlc_unit_bytes || st->buf_used_bytes > s->buf_cap_bytes)
    return "write buffer holds more than it can";
  /* buf_used = pending + the program units in flight (do_write/ring_pop keep it so) */
  uint64_t in_flight = 0;
  for (uint64_t i = 0; i < st->ring_count; i++) {
    struct sim_flush f;
    memcpy(&f, ring + ((st->ring_head + i) % s->ring_cap) * sizeof f, sizeof f);
    if ((f.bytes != s->slc_unit_bytes && f.bytes != s->tlc_unit_bytes) || f.end_ns >= SIM_MAX_CLOCK_NS)
      return "a program in flight is not a program unit";
    in_flight += f.bytes; /* at most ring_cap x tlc_unit_bytes: cannot wrap */
  }
  if (st->pending_bytes + in_flight != st->buf_used_bytes)
    return "write buffer accounting does not add up";
  for (unsigned i = 0; i < s->ndies; i++) {
    struct sim_die d;
    memcpy(&d, dies + i * sizeof d, sizeof d);
    if (d.read_until >= SIM_MAX_CLOCK_NS || d.prog_from >= SIM_MAX_CLOCK_NS || d.prog_until >= SIM_MAX_CLOCK_NS ||
        d.erase_from >= SIM_MAX_CLOCK_NS || d.erase_until >= SIM_MAX_CLOCK_NS || d.copy_until >= SIM_MAX_CLOCK_NS ||
        d.block_fill > s->m.block_bytes) {
      snprintf(why, len, "die %u has a clock or block fill out of range", i);
      return why;
    }
  }
  for (unsigned i = 0; i < s->m.channels; i++) {
    struct sim_fluid f;
    memcpy(&f, chan + i * sizeof f, sizeof f);
    if (!fluid_ok(&f)) return "a channel clock is out of range";
  }
  uint64_t words = sim_map_words(s), bits = 0;
  for (uint64_t w = 0; w < words; w++) {
    uint64_t v;
    memcpy(&v, map + w * sizeof v, sizeof v);
    bits += (uint64_t)__builtin_popcountll(v);
    if (w + 1 == words && s->units % 64 && v >> (s->units % 64))
      return "the map marks units past the end of the drive";
  }
  if (bits != st->mapped_units) {
    snprintf(why, len, "%llu mapped units, but the map holds %llu", (unsigned long long)st->mapped_units,
             (unsigned long long)bits);
    return why;
  }
  return NULL;
}

int sim_load_state(struct sim *s, const char *path, struct ssdrev_err *err) {
  char *buf = NULL;
  size_t len = 0;
  struct sim_file_header h, want;
  header_of(s, &want);
  size_t need = sizeof h + sizeof s->st + s->ndies * sizeof *s->dies +
                s->m.channels * sizeof *s->chan + s->ring_cap * sizeof *s->ring +
                2 * want.map_words * sizeof *s->map + /* FTL map, then SLC residency map */
                (s->ftl ? sim_ftl_saved_bytes(s->ftl) : 0);
  int rc = ssdrev_read_file(path, &buf, &len, need + 1, err);
  /* larger than this drive's state (a model with a bigger FTL map): another model's */
  if (rc == -EFBIG)
    return ssdrev_fail(err, -EBADMSG, "cannot load sim state '%s': not a state of model '%s' (larger than its state)",
                       path, s->m.name);
  if (rc) return rc;
  if (len < sizeof h) {
    free(buf);
    return ssdrev_fail(err, -EBADMSG, "cannot load sim state '%s': file too short", path);
  }
  memcpy(&h, buf, sizeof h);
  want.seed = h.seed; /* a state may be restored under another seed */
  if (!memcmp(h.magic, SIM_STATE_MAGIC_V3, 8)) {
    free(buf);
    return ssdrev_fail(err, -EBADMSG, "cannot load sim state '%s': saved by an older ssdrev (%s, this one reads %s); "
                       "start the review again in a new --out", path, SIM_STATE_MAGIC_V3, SIM_STATE_MAGIC);
  }
  if (memcmp(&h, &want, sizeof h) || len != need) {
    free(buf);
    return ssdrev_fail(err, -EBADMSG, "cannot load sim state '%s': not a state of model '%s' (%s)", path,
                       s->m.name, memcmp(h.magic, SIM_STATE_MAGIC, 8) ? "bad magic" : "geometry differs");
  }
  struct sim_state st;
  const char *p = buf + sizeof h;
  memcpy(&st, p, sizeof st);
  const char *dies = p + sizeof st;
  const char *chan = dies + s->ndies * sizeof *s->dies;
  const char *ring = chan + s->m.channels * sizeof *s->chan;
  const char *map = ring + s->ring_cap * sizeof *s->ring;
  char why[160];
  const char *bad = state_problem(s, &st, dies, chan, ring, map, why, sizeof why);
  /* the FTL's part is checked and loaded last: nothing else is copied if it fails */
  if (!bad && s->ftl) bad = sim_ftl_restore(s->ftl, map + 2 * want.map_words * sizeof *s->map);
  if (bad) {
    free(buf);
    /* nothing was copied: the drive keeps the state it had */
    return ssdrev_fail(err, -EBADMSG, "cannot load sim state '%s': damaged state for model '%s': %s", path,
                       s->m.name, bad);
  }
  s->st = st;
  memcpy(s->dies, dies, s->ndies * sizeof *s->dies);
  memcpy(s->chan, chan, s->m.channels * sizeof *s->chan);
  memcpy(s->ring, ring, s->ring_cap * sizeof *s->ring);
  ring_rebuild(s);
  memcpy(s->map, map, want.map_words * sizeof *s->map);
  memcpy(s->slc_map, map + want.map_words * sizeof *s->map, want.map_words * sizeof *s->slc_map);
  s->slc_map_dirty = 1;
  free(buf);
  throttle_apply(s);
  sim_map_rebuild_regions(s);
  sim_slc_rebuild_sum(s);
  return 0;
}
