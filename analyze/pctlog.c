/* pctlog.c — exact latency percentiles of a log, in parallel: each thread
 * opens its own reader on the (memory-mapped) log and decodes every T-th
 * chunk, skipping the others without decoding (cols = 0 checks only the
 * chunk header); the per-thread counts are merged, then refinement passes
 * (rare: only when a rank lies above 16.7 ms) run on one reader. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analyze/analyze_int.h"
#include "log/ssdlog.h"

#define MAX_THREADS 16

struct worker {
  const char *path;
  unsigned flags, tid, nthreads;
  int op;                 /* filter: enum ssdlog_op or -1 */
  struct analyze_pct *acc;
  int refine;             /* 0: pass 1; 1: refinement pass */
  int rc;
  struct ssdrev_err err;
  uint64_t buf[SSDLOG_CHUNK_MAX_RECORDS * 8];
};

/* True when no record of the chunk is ramp or failed: then the latency
 * column is used as is (a vectorizable OR over two narrow columns is much
 * cheaper than copying the kept values). */
static int all_measured_ok(const struct ssdlog_chunk *k) {
  /* word-at-a-time ORs: -O2 does not vectorize byte loops */
  uint64_t f = 0, st = 0, w;
  size_t i = 0, n = k->n;
  for (; i + 8 <= n; i += 8) {
    memcpy(&w, k->flags + i, 8);
    f |= w;
  }
  for (; i < n; i++) f |= k->flags[i];
  for (i = 0; i + 2 <= n; i += 2) {
    memcpy(&w, k->status + i, 8);
    st |= w;
  }
  for (; i < n; i++) st |= (uint32_t)k->status[i];
  /* any flag bit at all sends the chunk through the exact filter */
  return f == 0 && st == 0;
}

/* Keeps the latencies of measured, successful I/Os of the wanted op. */
static size_t filter(const struct ssdlog_chunk *k, int op, uint64_t *buf) {
  size_t m = 0;
  for (size_t i = 0; i < k->n; i++) {
    int keep = ssdlog_measured(k->flags[i], k->status[i]) && (op < 0 || k->op[i] == op);
    buf[m] = k->lat_ns[i];
    m += keep; /* branch-free: most records are kept */
  }
  return m;
}

static void *work(void *arg) {
  struct worker *w = arg;
  struct ssdlog_reader *r;
  w->rc = ssdlog_open(&r, w->path, w->flags, &w->err);
  if (w->rc) return NULL;
  unsigned cols = SSDLOG_COL_LAT | SSDLOG_COL_STATUS | SSDLOG_COL_FLAGS | (w->op >= 0 ? SSDLOG_COL_OP : 0);
  struct ssdlog_chunk k;
  int rc;
  for (uint64_t ci = 0;; ci++) {
    int mine = ci % w->nthreads == w->tid;
    rc = ssdlog_next_chunk(r, mine ? cols : 0, &k, &w->err);
    if (rc <= 0) break;
    if (!mine) continue;
    /* chunks hold at most the format's 65536 records; ours at most 8192 */
    if (k.n > sizeof w->buf / sizeof w->buf[0]) {
      rc = ssdrev_fail(&w->err, -EBADMSG, "chunk of %zu records in '%s' exceeds the reader buffer", k.n, w->path);
      break;
    }
    const uint64_t *v = k.lat_ns;
    size_t m = k.n;
    if (w->op >= 0 || !all_measured_ok(&k)) {
      m = filter(&k, w->op, w->buf);
      v = w->buf;
    }
    if (w->refine) analyze_pct_refine_add(w->acc, v, m);
    else analyze_pct_add(w->acc, v, m);
  }
  w->rc = rc < 0 ? rc : 0;
  ssdlog_close(r);
  return NULL;
}

static int run_workers(struct worker **ws, unsigned n) {
  pthread_t th[MAX_THREADS];
  unsigned started = 0;
  for (unsigned i = 1; i < n; i++) {
    if (pthread_create(&th[i], NULL, work, ws[i])) break;
    started = i;
  }
  /* any thread that failed to start is done inline */
  for (unsigned i = started + 1; i < n; i++) work(ws[i]);
  work(ws[0]);
  for (unsigned i = 1; i <= started; i++) pthread_join(th[i], NULL);
  return 0;
}

int analyze_log_percentiles(const char *path, int op, const struct analyze_opts *o,
                            struct analyze_pct_result *out, uint64_t *n_out,
                            struct ssdrev_err *err) {
  struct analyze_opts dflt;
  if (!o || !o->npcts) {
    analyze_opts_defaults(&dflt);
    if (o) dflt.threads = o->threads, dflt.salvage = o->salvage;
    o = &dflt;
  }
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned nt = o->threads ? o->threads : ncpu > 0 ? (unsigned)ncpu : 2;
  if (nt > MAX_THREADS) nt = MAX_THREADS;
  struct worker *ws[MAX_THREADS] = {0};
  int rc = 0;
  for (unsigned i = 0; i < nt && !rc; i++) {
    ws[i] = calloc(1, sizeof *ws[i]);
    if (!ws[i] || analyze_pct_new(&ws[i]->acc)) rc = -ENOMEM;
    else {
      ws[i]->path = path;
      ws[i]->flags = o->salvage ? SSDLOG_SALVAGE : 0;
      ws[i]->tid = i;
      ws[i]->nthreads = nt;
      ws[i]->op = op;
    }
  }
  if (rc) {
    ssdrev_fail(err, rc, "out of memory");
    goto out;
  }
  run_workers(ws, nt);
  for (unsigned i = 0; i < nt && !rc; i++)
    if (ws[i]->rc) {
      rc = ws[i]->rc;
      if (err) *err = ws[i]->err;
    }
  for (unsigned i = 1; i < nt && !rc; i++)
    if (analyze_pct_merge(ws[0]->acc, ws[i]->acc)) rc = ssdrev_fail(err, -ENOMEM, "out of memory merging percentiles");
  if (rc) goto out;
  rc = analyze_pct_plan(ws[0]->acc, o->pcts, o->npcts, err);
  while (rc > 0) {
    ws[0]->refine = 1;
    ws[0]->nthreads = 1;
    ws[0]->tid = 0;
    work(ws[0]);
    if (ws[0]->rc) {
      rc = ws[0]->rc;
      if (err) *err = ws[0]->err;
      break;
    }
    rc = analyze_pct_refine_end(ws[0]->acc, err);
  }
  if (rc == 0) {
    analyze_pct_results(ws[0]->acc, out);
    if (n_out) *n_out = analyze_pct_count(ws[0]->acc);
  }
out:
  for (unsigned i = 0; i < nt; i++)
    if (ws[i]) {
      analyze_pct_free(ws[i]->acc);
      free(ws[i]);
    }
  return rc;
}
