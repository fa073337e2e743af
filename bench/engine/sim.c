/* sim.c — the "sim" entry of the engine table: drives a simulated
 * drive on its virtual clock. submit() times each command at the current
 * virtual time (sim_io) and queues it in a min-heap by completion time;
 * reap() advances the clock to the completions it returns. No real I/O, no
 * sleeping, buffers untouched; deterministic for a seed. */
#include <errno.h>
#include <stdlib.h>
#include "bench/bench.h"
#include "sim/sim.h"

struct sim_slot {
  uint64_t done_ns;
  uint64_t seq; /* submission order breaks ties, so equal times reap deterministically */
  struct bench_io *io;
};

struct sim_engine {
  struct sim *sim;
  struct sim_slot *heap;
  unsigned n, cap;
  uint64_t seq;
};

/* Branch-free: which of two completions comes first is data the branch
 * predictor cannot guess, and the pop's mispredictions were most of
 * reap's time (perf, RND4K Q32T1 write). */
static inline int slot_before(const struct sim_slot *a, const struct sim_slot *b) {
  return (a->done_ns < b->done_ns) | ((a->done_ns == b->done_ns) & (a->seq < b->seq));
}

static void heap_push(struct sim_engine *g, struct sim_slot v) {
  unsigned i = g->n++;
  while (i) {
    unsigned p = (i - 1) / 2;
    if (!slot_before(&v, &g->heap[p])) break;
    g->heap[i] = g->heap[p];
    i = p;
  }
  g->heap[i] = v;
}

/* Bottom-up (Floyd's) pop: the hole left by the top goes down to a leaf
 * along the earlier child, a choice made without a branch, and the last
 * entry rises from there (rarely far: it came from the bottom). The keys
 * (done_ns, seq) are unique, so any correct heap pops the same order. */
static struct sim_slot heap_pop(struct sim_engine *g) {
  struct sim_slot *h = g->heap, top = h[0];
  unsigned n = --g->n, i = 0;
  if (!n) return top;
  struct sim_slot last = h[n];
  for (;;) {
    unsigned c = 2 * i + 1;
    if (c + 1 < n) c += (unsigned)slot_before(&h[c + 1], &h[c]);
    else if (c >= n) break;
    h[i] = h[c];
    i = c;
  }
  while (i) {
    unsigned p = (i - 1) / 2;
    if (!slot_before(&last, &h[p])) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = last;
  return top;
}

int bench_engine_sim_attach(struct bench_engine *e, struct sim *s, unsigned qd, struct ssdrev_err *err) {
  struct sim_engine *g = calloc(1, sizeof *g);
  unsigned cap = qd ? qd : 1;
  if (g) g->heap = calloc(cap, sizeof *g->heap);
  if (!g || !g->heap) {
    if (g) free(g);
    return ssdrev_fail(err, -ENOMEM, "cannot set up the sim engine: out of memory");
  }
  g->sim = s;
  g->cap = cap;
  e->priv = g;
  return 0;
}

static int engine_sim_accepts(struct bench_target *t) { return bench_target_sim(t) != NULL; }

static int engine_sim_setup(struct bench_engine *e, struct bench_target *t, unsigned qd, void **bufs,
                     unsigned nbufs, size_t buf_bytes, struct ssdrev_err *err) {
  (void)bufs, (void)nbufs, (void)buf_bytes; /* data is never touched */
  struct sim *s = bench_target_sim(t);
  if (!s)
    return ssdrev_fail(err, -EINVAL, "cannot use engine 'sim' on '%s': not a simulated drive (use sim:MODEL_FILE)",
                       bench_target_spec(t));
  return bench_engine_sim_attach(e, s, qd, err);
}

static int engine_sim_submit(struct bench_engine *e, struct bench_io **ios, unsigned n) {
  struct sim_engine *g = e->priv;
  if (g->n + n > g->cap) { /* the runner asked for more than qd: grow */
    unsigned cap = g->cap * 2 > g->n + n ? g->cap * 2 : g->n + n;
    struct sim_slot *h = realloc(g->heap, cap * sizeof *h);
    if (!h) return -ENOMEM;
    g->heap = h;
    g->cap = cap;
  }
  uint64_t now = sim_now_ns(g->sim);
  for (unsigned i = 0; i < n; i++) {
    struct bench_io *io = ios[i];
    io->done_ns = sim_io(g->sim, now, io->op, io->offset_bytes, io->len_bytes, &io->status);
    heap_push(g, (struct sim_slot){io->done_ns, g->seq++, io});
  }
  return (int)n;
}

static int engine_sim_reap(struct bench_engine *e, struct bench_io **done, unsigned min, unsigned max) {
  struct sim_engine *g = e->priv;
  unsigned k = 0;
  /* Take the `min` earliest completions (advancing the clock to each), then
   * any others already due at the new time. */
  while (k < max && g->n) {
    if (k >= min && g->heap[0].done_ns > sim_now_ns(g->sim)) break;
    struct sim_slot v = heap_pop(g);
    sim_advance(g->sim, v.done_ns);
    done[k++] = v.io;
  }
  return (int)k;
}

static void engine_sim_cleanup(struct bench_engine *e) {
  struct sim_engine *g = e->priv;
  if (!g) return;
  free(g->heap);
  free(g);
  e->priv = NULL;
}

static uint64_t engine_sim_now(struct bench_engine *e) {
  struct sim_engine *g = e->priv;
  return sim_now_ns(g->sim);
}

static void engine_sim_idle(struct bench_engine *e, uint64_t idle_ns) {
  struct sim_engine *g = e->priv;
  sim_idle(g->sim, idle_ns);
}

const struct bench_engine_ops bench_engine_sim_ops = {
    .version = BENCH_ENGINE_OPS_VERSION,
    .name = "sim",
    .flags = BENCH_ENGINE_VIRTUAL_CLOCK | BENCH_ENGINE_NO_DATA,
    .accepts = engine_sim_accepts,
    .setup = engine_sim_setup,
    .submit = engine_sim_submit,
    .reap = engine_sim_reap,
    .cleanup = engine_sim_cleanup,
    .now_ns = engine_sim_now,
    .idle = engine_sim_idle,
};
