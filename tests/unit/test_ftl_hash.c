/* test_ftl_hash.c — the page-mapped FTL's results, pinned: a fixed mix of
 * writes (4 KiB-aligned and 512 B-granular), reads, trims, flushes and idles
 * through the sim engine's ops on ftl-8g and on the same drive with 16 KiB
 * mapping units and without the FTL (the bitmap model, whose summaries the
 * tuning touched too), after a whole-drive fill, folded into a hash of every
 * completion (time, status) and the host/NAND byte counters. The hot path
 * (sim/ftl.c, sim/drive.c) is tuned for speed; a change there must leave
 * these values bit-identical. A change that is meant to alter the simulated
 * results (GC policy, timing) updates the pinned values, and says why.
 * Last update: GC moves go to the die whose queue ends first, folds as the
 * host writes to the write point's next die, writes take buffer space in
 * arrival order and a full buffer frees the program that ends first, not
 * the oldest (timing only: the counters are unchanged). */
#include "sim/sim_int.h"
#include "testlib.h"
#include "bench/bench.h"
#include "log/ssdlog.h"
#include "sim/sim.h"

static uint64_t xs(uint64_t *r) {
  *r ^= *r << 13, *r ^= *r >> 7, *r ^= *r << 17;
  return *r;
}

static inline void fold(uint64_t *h, uint64_t v) { *h = (*h ^ v) * 0x100000001b3ull; }

struct pinned {
  uint64_t hash, host_bytes, nand_bytes, victims;
};

/* One I/O of the mix: mostly 4 KiB random writes (the steady state's GC),
 * some 512 B-granular writes (read-modify-write of partial units), reads,
 * trims of whole and cut units, flushes. */
static void mix_io(struct bench_io *io, uint64_t cap, uint64_t *rng) {
  uint64_t r = xs(rng) % 100;
  io->len_bytes = 4096;
  io->offset_bytes = xs(rng) % (cap / 4096) * 4096;
  if (r < 60) {
    io->op = SSDLOG_OP_WRITE;
  } else if (r < 70) {
    io->op = SSDLOG_OP_WRITE;
    io->len_bytes = 512 * (uint32_t)(1 + xs(rng) % 64);
    io->offset_bytes = xs(rng) % ((cap - io->len_bytes) / 512) * 512;
  } else if (r < 90) {
    io->op = SSDLOG_OP_READ;
  } else if (r < 98) {
    io->op = SSDLOG_OP_TRIM;
    io->len_bytes = (r & 1 ? 4096 : 512) * (uint32_t)(1 + xs(rng) % 32);
    io->offset_bytes = xs(rng) % ((cap - io->len_bytes) / 512) * 512;
  } else {
    io->op = SSDLOG_OP_FLUSH;
    io->len_bytes = 0;
    io->offset_bytes = 0;
  }
}

/* count I/Os at QD 16 over the engine's ops (as the job runner drives it),
 * the sequential 128 KiB fill or the mix, then the queue drained; every
 * completion's time and status folded into *h. */
enum { QD = 16 };
static void run_ios(struct bench_engine *e, uint64_t cap, uint64_t count, int fill, uint64_t *rng, uint64_t *h) {
  struct bench_io ios[QD], *fl[QD], *b[QD], *d[QD];
  memset(ios, 0, sizeof ios);
  unsigned nf = 0;
  for (unsigned i = 0; i < QD; i++) fl[nf++] = &ios[i];
  for (uint64_t sub = 0, fin = 0; fin < count;) {
    unsigned k = 0;
    uint64_t now = e->ops->now_ns(e);
    while (nf && sub < count) {
      struct bench_io *io = fl[--nf];
      if (fill) io->op = SSDLOG_OP_WRITE, io->len_bytes = 131072, io->offset_bytes = sub * 131072;
      else mix_io(io, cap, rng);
      io->submit_ns = now;
      b[k++] = io;
      sub++;
    }
    if (k) e->ops->submit(e, b, k);
    int r = e->ops->reap(e, d, 1, QD);
    for (int i = 0; i < r; i++) {
      fold(h, d[i]->done_ns);
      fold(h, (uint64_t)(int64_t)d[i]->status);
      fl[nf++] = d[i];
    }
    fin += (uint64_t)r;
  }
}

/* A whole-drive fill, then n I/Os of the mix in eight parts, each followed
 * by a 20 ms idle (background GC, SLC fold). unit_bytes: the mapping unit
 * (0: the model's); -1: the model without its FTL (the bitmap alone). */
static int run_mix(const char *model, int64_t unit_bytes, uint64_t n, struct pinned *out) {
  struct sim_model m;
  struct sim *s = NULL;
  struct ssdrev_err err = {{0}};
  char path[1024];
  const char *root = getenv("SSDREV_ROOT");
  snprintf(path, sizeof path, "%s/samples/models/%s.model", root ? root : ".", model);
  if (sim_model_load(&m, path, &err)) return fprintf(stderr, "    %s\n", err.msg), -1;
  if (unit_bytes > 0) m.map_unit_bytes = (uint64_t)unit_bytes;
  if (unit_bytes < 0) m.op_pct = 0, m.map_unit_bytes = 4096;
  if (sim_new(&s, &m, 11, &err)) return fprintf(stderr, "    %s\n", err.msg), -1;
  struct bench_engine e = {&bench_engine_sim_ops, NULL};
  if (bench_engine_sim_attach(&e, s, QD, &err)) return sim_free(s), -1;
  uint64_t h = 1469598103934665603ull, rng = 5;
  run_ios(&e, m.capacity_bytes, m.capacity_bytes / 131072, 1, &rng, &h);
  for (int part = 0; part < 8; part++) {
    run_ios(&e, m.capacity_bytes, n / 8, 0, &rng, &h);
    e.ops->idle(&e, 20000000);
  }
  struct sim_truth t;
  sim_get_truth(s, &t);
  fold(&h, sim_now_ns(s));
  fold(&h, t.host_write_bytes);
  fold(&h, t.nand_write_bytes);
  fold(&h, s->st.gc_debt_bytes);
  fold(&h, s->st.mapped_units);
  const char *why = NULL;
  if (s->ftl) {
    fold(&h, sim_ftl_mapped(s->ftl));
    fold(&h, s->ftl->nfree);
    if ((why = sim_ftl_check(s->ftl))) fprintf(stderr, "    %s\n", why);
  }
  out->hash = h, out->host_bytes = t.host_write_bytes, out->nand_bytes = t.nand_write_bytes;
  out->victims = s->ftl ? s->ftl->victims : 0;
  fprintf(stderr, "    %s unit %llu: hash %016llx host %llu nand %llu victims %llu\n", model,
          (unsigned long long)(s->ftl ? s->ftl->g.unit_bytes : 0), (unsigned long long)h, (unsigned long long)out->host_bytes,
          (unsigned long long)out->nand_bytes, (unsigned long long)out->victims);
  e.ops->cleanup(&e);
  sim_free(s);
  return why ? -1 : 0;
}

TEST("ftl-8g after a fill: a mix of writes, reads, trims, flushes and idles gives the pinned completions and counters") {
  struct pinned p;
  REQUIRE(run_mix("ftl-8g", 0, 800000, &p) == 0);
  CHECK(p.victims > 400); /* the mix reaches the steady state's GC */
  CHECK_EQ_U64(p.hash, 0x352c4d6de054916bull);
  CHECK_EQ_U64(p.host_bytes, 11887390208ull);
  CHECK_EQ_U64(p.nand_bytes, 21168857600ull);
}

TEST("ftl-8g with 16 KiB mapping units: the same mix gives the pinned completions and counters") {
  struct pinned p;
  REQUIRE(run_mix("ftl-8g", 16384, 800000, &p) == 0);
  CHECK(p.victims > 1000);
  CHECK_EQ_U64(p.hash, 0xb58c9797e08f0861ull);
  CHECK_EQ_U64(p.host_bytes, 11887390208ull);
  CHECK_EQ_U64(p.nand_bytes, 55484031488ull);
}

TEST("ftl-8g without its FTL (the bitmap alone): the same mix gives the pinned completions and counters") {
  struct pinned p;
  REQUIRE(run_mix("ftl-8g", -1, 800000, &p) == 0);
  CHECK_EQ_U64(p.hash, 0xa86010d571149ce0ull);
  CHECK_EQ_U64(p.host_bytes, 11887390208ull);
  CHECK_EQ_U64(p.nand_bytes, 11959345664ull);
}
