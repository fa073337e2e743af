/* test_ftl.c — the simulator's page-mapped FTL (op_pct): mapping
 * invariants, greedy victim choice, TRIM, write amplification against the
 * analytic model of greedy GC under uniform random writes, determinism,
 * save/restore of its state, and the model keys; the controller limit
 * (ctrl_cores, ctrl_cmd_us). */
#include <errno.h>
#include <math.h>
#include "sim/sim_int.h"
#include "testlib.h"
#include "log/ssdlog.h"
#include "sim/sim.h"

#define GIB 1073741824ull

/* A small TLC drive without SLC cache (writes go straight to TLC), 12 MiB
 * TLC blocks of 3072 4 KiB units; tests append the capacity and op_pct. */
static const char *base_model =
    "lba_bytes = 512\nlink_mb_s = 3500\nchannels = 2\n"
    "dies_per_channel = 2\nplanes = 2\nchannel_mt_s = 800\npage_bytes = 16KiB\n"
    "block_bytes = 4MiB\nt_read_us = 50\nt_prog_slc_us = 150\nt_prog_tlc_us = 1500\n"
    "t_erase_us = 3000\ncontroller_us = 5\nslc_static_only = 1\nslc_min_gib = 0\n";

static int load_text(const char *name, const char *extra, struct sim_model *m, struct ssdrev_err *err) {
  char text[4096];
  snprintf(text, sizeof text, "%s%s", base_model, extra);
  const char *p = test_path(name);
  FILE *f = fopen(p, "w");
  if (!f) return -EIO;
  fputs(text, f);
  fclose(f);
  return sim_model_load(m, p, err);
}

static struct sim *open_text(const char *extra, uint64_t seed) {
  struct sim_model m;
  struct ssdrev_err err = {{0}};
  if (load_text("ftl.model", extra, &m, &err)) {
    fprintf(stderr, "    %s\n", err.msg);
    return NULL;
  }
  struct sim *s = NULL;
  if (sim_new(&s, &m, seed, &err)) fprintf(stderr, "    %s\n", err.msg);
  return s;
}

static uint64_t xs(uint64_t *r) {
  *r ^= *r << 13, *r ^= *r >> 7, *r ^= *r << 17;
  return *r;
}

/* Closed loop at QD: n writes of bs, sequential from 0 (wrapping) or
 * uniformly random; returns the virtual time they took (ns). Completion
 * times are folded into *hash when given. */
static uint64_t run_writes(struct sim *s, uint64_t n, uint32_t bs, int seq, uint64_t *rng, uint64_t *hash) {
  enum { QD = 32 };
  uint64_t done[QD], t0 = sim_now_ns(s), last = t0, slots = s->m.capacity_bytes / bs;
  for (int i = 0; i < QD; i++) done[i] = t0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t now = done[i % QD];
    int32_t st;
    uint64_t off = seq ? (i % slots) * bs : xs(rng) % slots * bs;
    uint64_t d = sim_io(s, now, SSDLOG_OP_WRITE, off, bs, &st);
    sim_advance(s, now);
    done[i % QD] = d;
    if (d > last) last = d;
    if (hash) *hash = (*hash ^ d) * 0x100000001b3ull;
  }
  return last - t0;
}

static double wa_of(const struct sim *s, uint64_t host0, uint64_t nand0) {
  struct sim_truth t;
  sim_get_truth(s, &t);
  return (double)(t.nand_write_bytes - nand0) / (double)(t.host_write_bytes - host0);
}

TEST("Random writes and trims keep the FTL's invariants: valid counts add up to the mapped units") {
  struct sim *s = open_text("capacity_bytes = 1GiB\nop_pct = 10\n", 1);
  REQUIRE(s && s->ftl);
  uint64_t rng = 7;
  run_writes(s, 262144, 131072 / 4, 1, &rng, NULL); /* a sequential pass */
  CHECK(sim_ftl_check(s->ftl) == NULL);
  CHECK_EQ_U64(sim_ftl_mapped(s->ftl), s->ftl->g.lunits);
  for (int round = 0; round < 4; round++) {
    run_writes(s, 100000, 4096, 0, &rng, NULL);
    for (int k = 0; k < 200; k++) {
      uint64_t off = xs(&rng) % (GIB / 4096) * 4096;
      CHECK(sim_trim(s, off, 4096 * (1 + xs(&rng) % 64)) == 0 || off + 4096 * 64 > GIB);
    }
    const char *why = sim_ftl_check(s->ftl);
    if (why) fprintf(stderr, "    %s\n", why);
    CHECK(why == NULL);
    /* with 4 KiB units the FTL maps exactly the bitmap's units */
    CHECK_EQ_U64(sim_ftl_mapped(s->ftl), s->st.mapped_units);
  }
  sim_free(s);
}

TEST("Greedy GC picks the full block with the fewest valid units") {
  struct sim *s = open_text("capacity_bytes = 1GiB\nop_pct = 10\n", 1);
  REQUIRE(s && s->ftl);
  uint64_t rng = 3, ub = s->ftl->g.upb * 4096ull;
  run_writes(s, GIB / 4096, 4096, 1, &rng, NULL);
  /* block 10 keeps 100 valid units, block 20 keeps 500: trimmed away */
  REQUIRE(sim_trim(s, 10 * ub + 100 * 4096, ub - 100 * 4096) == 0);
  REQUIRE(sim_trim(s, 20 * ub + 500 * 4096, ub - 500 * 4096) == 0);
  CHECK_EQ_U64(s->ftl->valid[10], 100);
  CHECK_EQ_U64(s->ftl->valid[20], 500);
  for (uint64_t i = 0; i < 200000 && !s->ftl->victims; i++) run_writes(s, 1, 4096, 0, &rng, NULL);
  REQUIRE(s->ftl->victims > 0);
  CHECK_EQ_U64(s->ftl->first_victim, 10);
  CHECK(sim_ftl_check(s->ftl) == NULL);
  sim_free(s);
}

TEST("TRIM frees the units: a trimmed drive rewritten sequentially relocates nothing") {
  struct sim *s = open_text("capacity_bytes = 1GiB\nop_pct = 10\n", 1);
  REQUIRE(s && s->ftl);
  uint64_t rng = 5;
  run_writes(s, GIB / 32768, 32768, 1, &rng, NULL);
  run_writes(s, 200000, 4096, 0, &rng, NULL); /* fragment every block */
  REQUIRE(sim_trim(s, 0, GIB) == 0);
  CHECK_EQ_U64(sim_ftl_mapped(s->ftl), 0);
  for (uint32_t b = 0; b < s->ftl->g.nblocks; b++) CHECK(s->ftl->valid[b] == 0);
  struct sim_truth t;
  sim_get_truth(s, &t);
  uint64_t debt0 = s->st.gc_debt_bytes;
  run_writes(s, GIB / 131072, 131072, 1, &rng, NULL);
  /* every victim is empty: no copy debt beyond what was left before */
  CHECK(s->st.gc_debt_bytes <= debt0);
  CHECK(wa_of(s, t.host_write_bytes, t.nand_write_bytes) < 1.0 + (double)debt0 / GIB + 0.01);
  CHECK(sim_ftl_check(s->ftl) == NULL);
  sim_free(s);
}

TEST("Write amplification is about 1 under sequential writes and well above 1 under random overwrites") {
  struct sim *s = open_text("capacity_bytes = 1GiB\nop_pct = 10\n", 1);
  REQUIRE(s && s->ftl);
  uint64_t rng = 11;
  run_writes(s, 2 * GIB / 131072, 131072, 1, &rng, NULL); /* two sequential passes */
  double seq = wa_of(s, 0, 0);
  CHECK(seq > 0.99 && seq < 1.01);
  struct sim_truth t;
  sim_get_truth(s, &t);
  uint64_t t_fob = run_writes(s, 20000, 4096, 0, &rng, NULL);
  run_writes(s, 2 * GIB / 4096, 4096, 0, &rng, NULL);
  sim_get_truth(s, &t);
  uint64_t h0 = t.host_write_bytes, n0 = t.nand_write_bytes;
  uint64_t t_ss = run_writes(s, 20000, 4096, 0, &rng, NULL);
  double wa = wa_of(s, h0, n0);
  if (getenv("SSDREV_PRINT_WA")) fprintf(stderr, "    seq WA %.3f, random WA %.3f, FOB/steady time %.2f\n", seq, wa,
                                         (double)t_ss / (double)t_fob);
  CHECK(wa > 2.0);
  /* the same writes take longer once GC copies: fresh-out-of-box was faster */
  CHECK((double)t_ss > 1.5 * (double)t_fob);
  sim_free(s);
}

/* Desnoyers (SYSTOR 2012), greedy GC under uniform random writes with
 * many pages per block: WA = alpha / (alpha + W0(-alpha e^-alpha)), alpha
 * the physical over the user units (W0: Lambert's W, principal branch). */
static double greedy_wa(double alpha) {
  double x = -alpha * exp(-alpha), w = -0.5;
  for (int i = 0; i < 200; i++) w -= (w * exp(w) - x) / (exp(w) * (w + 1)); /* Newton */
  return alpha / (alpha + w);
}

TEST("The FTL's write amplification under uniform random writes is within 10% of greedy GC's analytic model at 7, 14 and 28% spare") {
  const double ops[] = {7, 14, 28};
  for (int i = 0; i < 3; i++) {
    char extra[128];
    snprintf(extra, sizeof extra, "capacity_bytes = 4GiB\nop_pct = %g\n", ops[i]);
    struct sim *s = open_text(extra, 1);
    REQUIRE(s && s->ftl);
    struct sim_ftl *f = s->ftl;
    /* the FTL alone (no timing): relocated units over host units */
    for (uint32_t u = 0; u < f->g.lunits; u++) sim_ftl_write(s, (uint64_t)u * 4096, 4096);
    uint64_t rng = 99, n = 2ull * f->g.lunits;
    for (uint64_t k = 0; k < n; k++) sim_ftl_write(s, xs(&rng) % f->g.lunits * 4096, 4096); /* warm up */
    uint64_t d0 = s->st.gc_debt_bytes;
    for (uint64_t k = 0; k < n; k++) sim_ftl_write(s, xs(&rng) % f->g.lunits * 4096, 4096);
    double wa = 1.0 + (double)(s->st.gc_debt_bytes - d0) / 4096.0 / (double)n;
    /* the blocks the FTL keeps erased or open are not spare for GC */
    double alpha = (double)(f->g.nblocks - 3) * f->g.upb / f->g.lunits, want = greedy_wa(alpha);
    if (getenv("SSDREV_PRINT_WA"))
      fprintf(stderr, "    op %g%%: WA %.3f, greedy model %.3f (alpha %.4f)\n", ops[i], wa, want, alpha);
    CHECK(fabs(wa - want) <= 0.10 * want);
    CHECK(sim_ftl_check(f) == NULL);
    sim_free(s);
  }
}

TEST("The same seed gives the same completions and counters on an FTL model") {
  uint64_t h[2] = {1, 1}, nand[2];
  for (int k = 0; k < 2; k++) {
    struct sim *s = open_text("capacity_bytes = 1GiB\nop_pct = 7\nwrite_jitter_us = 3\n", 42);
    REQUIRE(s);
    uint64_t rng = 1;
    run_writes(s, GIB / 131072, 131072, 1, &rng, &h[k]);
    run_writes(s, 300000, 4096, 0, &rng, &h[k]);
    struct sim_truth t;
    sim_get_truth(s, &t);
    nand[k] = t.nand_write_bytes;
    sim_free(s);
  }
  CHECK_EQ_U64(h[0], h[1]);
  CHECK_EQ_U64(nand[0], nand[1]);
}

TEST("A saved FTL state restores the same map and future timing; damaged or old state files are refused") {
  struct sim *s = open_text("capacity_bytes = 1GiB\nop_pct = 10\n", 3), *r = open_text("capacity_bytes = 1GiB\nop_pct = 10\n", 3);
  REQUIRE(s && r);
  uint64_t rng = 9;
  run_writes(s, GIB / 131072, 131072, 1, &rng, NULL);
  run_writes(s, 200000, 4096, 0, &rng, NULL);
  struct ssdrev_err err = {{0}};
  const char *p = test_path("ftl-state.bin");
  REQUIRE(sim_save(s, p, &err) == 0);
  REQUIRE(sim_load_state(r, p, &err) == 0);
  CHECK(sim_ftl_check(r->ftl) == NULL);
  CHECK(memcmp(s->ftl->l2p, r->ftl->l2p, s->ftl->g.lunits * 4ull) == 0);
  CHECK(memcmp(s->ftl->valid, r->ftl->valid, s->ftl->g.nblocks * 4ull) == 0);
  CHECK_EQ_U64(s->ftl->nfree, r->ftl->nfree);
  CHECK_EQ_U64(s->st.nand_write_bytes, r->st.nand_write_bytes);
  uint64_t ra = 77, rb = 77, ha = 1, hb = 1;
  run_writes(s, 50000, 4096, 0, &ra, &ha);
  run_writes(r, 50000, 4096, 0, &rb, &hb);
  CHECK_EQ_U64(ha, hb);
  /* damage: a unit mapped past the NAND (the first l2p entry) */
  char *buf = NULL;
  size_t len = 0;
  REQUIRE(ssdrev_read_file(p, &buf, &len, 1u << 30, &err) == 0);
  size_t l2p_at = len - sim_ftl_saved_bytes(s->ftl);
  uint32_t bad = UINT32_MAX - 5;
  memcpy(buf + l2p_at, &bad, 4);
  const char *q = test_path("ftl-bad.bin");
  FILE *f = fopen(q, "wb");
  REQUIRE(f);
  fwrite(buf, 1, len, f);
  fclose(f);
  CHECK(sim_load_state(r, q, &err) == -EBADMSG);
  CHECK_CONTAINS(err.msg, "past the NAND");
  CHECK(sim_ftl_check(r->ftl) == NULL); /* the drive kept its state */
  CHECK_EQ_U64(ha, hb);
  /* a state of an older ssdrev (SSDRSIM3) is refused, saying so */
  memcpy(buf, "SSDRSIM3", 8);
  f = fopen(q, "wb");
  REQUIRE(f);
  fwrite(buf, 1, len, f);
  fclose(f);
  CHECK(sim_load_state(r, q, &err) == -EBADMSG);
  CHECK_CONTAINS(err.msg, "older ssdrev");
  free(buf);
  sim_free(s);
  sim_free(r);
}

TEST("The FTL keys are checked: too little spare, a mapping unit without op_pct or not a power of two") {
  struct sim_model m;
  struct ssdrev_err err = {{0}};
  CHECK(load_text("a.model", "capacity_bytes = 1GiB\nop_pct = 1\n", &m, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "five blocks");
  CHECK(load_text("b.model", "capacity_bytes = 1GiB\nmap_unit_bytes = 16KiB\n", &m, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "op_pct");
  CHECK(load_text("c.model", "capacity_bytes = 1GiB\nop_pct = 10\nmap_unit_bytes = 12KiB\n", &m, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "power of two");
  CHECK(load_text("d.model", "capacity_bytes = 1GiB\nop_pct = 10\nmap_unit_bytes = 16KiB\n", &m, &err) == 0);
  CHECK(m.op_pct == 10 && m.map_unit_bytes == 16384);
  /* a model without op_pct has no FTL: the bitmap alone, as before */
  CHECK(load_text("e.model", "capacity_bytes = 1GiB\n", &m, &err) == 0);
  struct sim *s = NULL;
  REQUIRE(sim_new(&s, &m, 1, &err) == 0);
  CHECK(s->ftl == NULL);
  struct sim_truth t;
  sim_get_truth(s, &t);
  CHECK(t.ftl == 0);
  sim_free(s);
}

TEST("A TRIM unmaps the 16 KiB units it covers whole and a cut unit only once none of its 4 KiB parts is mapped") {
  struct sim *s = open_text("capacity_bytes = 1GiB\nop_pct = 28\nmap_unit_bytes = 16KiB\n", 1);
  REQUIRE(s && s->ftl);
  uint64_t rng = 6;
  run_writes(s, GIB / 131072, 131072, 1, &rng, NULL);
  uint64_t n0 = sim_ftl_mapped(s->ftl);
  CHECK_EQ_U64(n0, GIB / 16384);
  /* units 10..19 span [160 KiB, 320 KiB); the trim cuts 10 and 19 (4 KiB in, 4 KiB short) */
  REQUIRE(sim_trim(s, 10 * 16384 + 4096, 10 * 16384 - 8192) == 0);
  CHECK_EQ_U64(sim_ftl_mapped(s->ftl), n0 - 8);
  CHECK(s->ftl->l2p[10] != 0 && s->ftl->l2p[19] != 0);
  CHECK(s->ftl->l2p[11] == 0 && s->ftl->l2p[18] == 0);
  /* the rest of each cut unit: now no part of 10 or 19 is mapped */
  REQUIRE(sim_trim(s, 10 * 16384, 4096) == 0);
  REQUIRE(sim_trim(s, 19 * 16384 + 12288, 4096) == 0);
  CHECK(s->ftl->l2p[10] == 0 && s->ftl->l2p[19] == 0);
  CHECK_EQ_U64(sim_ftl_mapped(s->ftl), n0 - 10);
  /* a trim inside one unit (first and last the same cut unit) leaves it mapped */
  REQUIRE(sim_trim(s, 30 * 16384 + 4096, 8192) == 0);
  CHECK(s->ftl->l2p[30] != 0);
  CHECK_EQ_U64(sim_ftl_mapped(s->ftl), n0 - 10);
  CHECK(sim_ftl_check(s->ftl) == NULL);
  sim_free(s);
}

TEST("A 16 KiB mapping unit writes a 4 KiB random write as a whole unit (read-modify-write)") {
  struct sim *s = open_text("capacity_bytes = 1GiB\nop_pct = 28\nmap_unit_bytes = 16KiB\n", 1);
  REQUIRE(s && s->ftl);
  uint64_t rng = 4;
  run_writes(s, GIB / 131072, 131072, 1, &rng, NULL);
  struct sim_truth t;
  sim_get_truth(s, &t);
  run_writes(s, 100000, 4096, 0, &rng, NULL);
  CHECK(wa_of(s, t.host_write_bytes, t.nand_write_bytes) > 3.5); /* 4 x, less what is still owed */
  CHECK(sim_ftl_check(s->ftl) == NULL);
  sim_free(s);
}

TEST("The controller limit (ctrl_cores x ctrl_cmd_us) caps 4 KiB QD32 random writes; without the keys nothing changes") {
  struct sim *a = open_text("capacity_bytes = 1GiB\n", 1);
  struct sim *b = open_text("capacity_bytes = 1GiB\nctrl_cores = 2\nctrl_cmd_us = 5\n", 1);
  REQUIRE(a && b);
  uint64_t ra = 1, rb = 1, n = 1500; /* 6 MB: all taken by the 8 MiB write buffer */
  double ia = (double)n / ((double)run_writes(a, n, 4096, 0, &ra, NULL) / 1e9);
  double ib = (double)n / ((double)run_writes(b, n, 4096, 0, &rb, NULL) / 1e9);
  if (getenv("SSDREV_PRINT_WA")) fprintf(stderr, "    4K QD32 random write: %.0f IOPS, limited %.0f\n", ia, ib);
  CHECK(ia > 500000);                 /* the buffer and the link alone */
  CHECK(ib <= 400000 * 1.001);        /* 2 cores / 5 us */
  CHECK(ib > 400000 * 0.98);
  sim_free(a);
  sim_free(b);
  struct sim_model m;
  struct ssdrev_err err = {{0}};
  CHECK(load_text("ctl.model", "capacity_bytes = 1GiB\nctrl_cores = 2\n", &m, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "ctrl_cmd_us");
  CHECK(load_text("ctl2.model", "capacity_bytes = 1GiB\nctrl_cores = 17\nctrl_cmd_us = 5\n", &m, &err) == -ERANGE);
}

TEST("The FTL's figures: blocks, maps' bytes and greedy WA follow from the model; a model without op_pct has none") {
  struct sim_model m;
  struct ssdrev_err err = {{0}};
  REQUIRE(load_text("f.model", "capacity_bytes = 4GiB\nop_pct = 14\n", &m, &err) == 0);
  struct sim_ftl_facts f;
  REQUIRE(sim_model_ftl_facts(&m, &f) == 0);
  CHECK_EQ_U64(f.units_per_block, 3072);
  CHECK_EQ_U64(f.blocks, 342 + 47); /* ceil(1048576 / 3072) user blocks, floor(14% / 3072) spare */
  CHECK_EQ_U64(f.map_bytes, (1048576ull + f.blocks * 3072) * 4);
  CHECK_NEAR(f.wa_random, 4.502, 0.01); /* the value the measured 4.459 is checked against above */
  CHECK(f.steady_4k_iops > 0);
  REQUIRE(load_text("g.model", "capacity_bytes = 4GiB\n", &m, &err) == 0);
  CHECK(sim_model_ftl_facts(&m, &f) == -EINVAL);
}

TEST("Background GC: an idle drive pays its relocation debt and collects up to the high watermark") {
  struct sim *s = open_text("capacity_bytes = 1GiB\nop_pct = 7\n", 5);
  REQUIRE(s != NULL);
  uint64_t rng = 11;
  run_writes(s, GIB / 4096, 4096, 1, &rng, NULL); /* a sequential fill */
  run_writes(s, 3 * GIB / 4096, 4096, 0, &rng, NULL); /* three capacities of random overwrites: GC at its steady victims */
  CHECK(s->ftl->victims > 0);
  CHECK(s->ftl->nfree < s->ftl->bg_free);
  sim_idle(s, 10000000000ull);
  CHECK(s->ftl->nfree >= s->ftl->bg_free);
  CHECK(s->st.gc_debt_bytes < s->tlc_unit_bytes);
  CHECK(sim_ftl_check(s->ftl) == NULL);
  sim_free(s);
}
