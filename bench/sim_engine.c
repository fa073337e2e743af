/* sim_engine.c — the "sim" entry of the engine table: drives a simulated
 * drive on its virtual clock. submit() times each command at the current
 * virtual time (sim_io) and queues it in a min-heap by completion time;
 * reap() advances the clock to the completions it returns. No real I/O, no
 * sleeping, buffers untouched; deterministic for a seed. */
#include <errno.h>
#include <stdlib.h>
#include "bench/sim_internal.h"

struct sim_slot {
  uint64_t done_ns;
  uint64_t seq; /* submission order breaks ties, so equal times reap deterministically */
  struct bench_io *io;
};

struct sim_engine {
  struct bench_sim *sim;
  struct sim_slot *heap;
  unsigned n, cap;
  uint64_t seq;
};

static inline int slot_before(const struct sim_slot *a, const struct sim_slot *b) {
  return a->done_ns < b->done_ns || (a->done_ns == b->done_ns && a->seq < b->seq);
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

static struct sim_slot heap_pop(struct sim_engine *g) {
  struct sim_slot top = g->heap[0], last = g->heap[--g->n];
  unsigned i = 0;
  for (;;) {
    unsigned c = 2 * i + 1;
    if (c >= g->n) break;
    if (c + 1 < g->n && slot_before(&g->heap[c + 1], &g->heap[c])) c++;
    if (!slot_before(&g->heap[c], &last)) break;
    g->heap[i] = g->heap[c];
    i = c;
  }
  if (g->n) g->heap[i] = last;
  return top;
}

int sim_engine_attach(struct bench_engine *e, struct bench_sim *s, unsigned qd, struct ssdrev_err *err) {
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

static int sim_setup(struct bench_engine *e, struct bench_target *t, unsigned qd, void **bufs,
                     unsigned nbufs, size_t buf_bytes, struct ssdrev_err *err) {
  (void)bufs, (void)nbufs, (void)buf_bytes; /* data is never touched */
  struct bench_sim *s = bench_target_sim(t);
  if (!s)
    return ssdrev_fail(err, -EINVAL, "cannot use engine 'sim' on '%s': not a simulated drive (use sim:MODEL_FILE)",
                       bench_target_spec(t));
  return sim_engine_attach(e, s, qd, err);
}

static int sim_submit(struct bench_engine *e, struct bench_io **ios, unsigned n) {
  struct sim_engine *g = e->priv;
  if (g->n + n > g->cap) { /* the runner asked for more than qd: grow */
    unsigned cap = g->cap * 2 > g->n + n ? g->cap * 2 : g->n + n;
    struct sim_slot *h = realloc(g->heap, cap * sizeof *h);
    if (!h) return -ENOMEM;
    g->heap = h;
    g->cap = cap;
  }
  uint64_t now = g->sim->st.now_ns;
  for (unsigned i = 0; i < n; i++) {
    struct bench_io *io = ios[i];
    io->done_ns = sim_io(g->sim, now, io->op, io->offset_bytes, io->len_bytes, &io->status);
    heap_push(g, (struct sim_slot){io->done_ns, g->seq++, io});
  }
  return (int)n;
}

static int sim_reap(struct bench_engine *e, struct bench_io **done, unsigned min, unsigned max) {
  struct sim_engine *g = e->priv;
  unsigned k = 0;
  /* Take the `min` earliest completions (advancing the clock to each), then
   * any others already due at the new time. */
  while (k < max && g->n) {
    if (k >= min && g->heap[0].done_ns > g->sim->st.now_ns) break;
    struct sim_slot v = heap_pop(g);
    sim_advance(g->sim, v.done_ns);
    done[k++] = v.io;
  }
  return (int)k;
}

static void sim_cleanup(struct bench_engine *e) {
  struct sim_engine *g = e->priv;
  if (!g) return;
  free(g->heap);
  free(g);
  e->priv = NULL;
}

static uint64_t sim_now(struct bench_engine *e) {
  struct sim_engine *g = e->priv;
  return g->sim->st.now_ns;
}

static void sim_idle(struct bench_engine *e, uint64_t idle_ns) {
  struct sim_engine *g = e->priv;
  bench_sim_idle(g->sim, idle_ns);
}

const struct bench_engine_ops bench_engine_sim_ops = {
    .name = "sim",
    .setup = sim_setup,
    .submit = sim_submit,
    .reap = sim_reap,
    .cleanup = sim_cleanup,
    .now_ns = sim_now,
    .idle = sim_idle,
};
