/* filltrace.c — the one construction of a fill trace, used by the online
 * watch of a write-until-the-cliff (bench/method/cliff.c) and by the
 * analysis of the fill's log (analyze/logstats.c), so both judge the same
 * points (issue 24): the completions in the order they come, binned into
 * equal steps of bytes; a step's speed is its bytes over the time from the
 * previous step's last completion to its own last completion. Binning by
 * LBA offset and timing each bin from the previous bin's last completion
 * was 1.5-2.7x noisier at QD32 with GC bursts (a request that completes
 * late drags its offset bin's end, and the next bin's start, with it). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "base/ssdrev.h"

#define GIB 1073741824.0

void ssdrev_fill_trace_init(struct ssdrev_fill_trace *t, uint64_t step_bytes) {
  memset(t, 0, sizeof *t);
  t->step_bytes = step_bytes ? step_bytes : 1;
}

void ssdrev_fill_trace_free(struct ssdrev_fill_trace *t) {
  free(t->gib);
  free(t->mb_s);
  t->gib = t->mb_s = NULL;
  t->n = t->cap = 0;
}

/* At most this many points: a longer trace (a tiny --fill-step, a huge
 * fill) merges its points in pairs (bytes and times add) and doubles its
 * step, so memory stays bounded whatever the log holds. */
#define TRACE_MAX (UINT64_C(1) << 22)

static void halve(struct ssdrev_fill_trace *t) { /* n is even: TRACE_MAX */
  size_t k = 0;
  for (size_t i = 0; i + 1 < t->n; i += 2, k++) {
    double g0 = i ? t->gib[i - 1] : 0, tt = 0;
    for (size_t j = i; j < i + 2; j++)
      if (t->mb_s[j] > 0) tt += (t->gib[j] - (j ? t->gib[j - 1] : 0)) / t->mb_s[j];
    t->mb_s[k] = tt > 0 ? (t->gib[i + 1] - g0) / tt : 0;
    t->gib[k] = t->gib[i + 1];
  }
  t->n = k;
  t->step_bytes *= 2;
}

static int push(struct ssdrev_fill_trace *t, uint64_t end_ns) {
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 1024;
    double *g = realloc(t->gib, cap * sizeof *g);
    if (g) t->gib = g;
    double *m = g ? realloc(t->mb_s, cap * sizeof *m) : NULL;
    if (m) t->mb_s = m;
    if (!g || !m) {
      t->oom = 1;
      return -ENOMEM;
    }
    t->cap = cap;
  }
  double dt = (double)(end_ns - t->prev_end_ns) / 1e9;
  t->bytes += t->acc_bytes;
  t->gib[t->n] = (double)t->bytes / GIB;
  t->mb_s[t->n] = dt > 0 ? (double)t->acc_bytes / dt / 1e6 : 0; /* 0: a step with no time of its own */
  t->n++;
  t->prev_end_ns = end_ns;
  t->acc_bytes = 0;
  if (t->n >= TRACE_MAX) halve(t);
  return 1;
}

int ssdrev_fill_trace_add(struct ssdrev_fill_trace *t, uint64_t len_bytes, uint64_t submit_ns, uint64_t done_ns) {
  if (t->oom) return -ENOMEM;
  if (!t->started) {
    t->started = 1;
    t->prev_end_ns = t->first_submit_ns = submit_ns; /* the first step's clock starts at the first submit */
  }
  if (done_ns > t->last_done_ns) t->last_done_ns = done_ns;
  t->acc_bytes += len_bytes;
  if (t->acc_bytes < t->step_bytes) return 0;
  return push(t, t->last_done_ns > t->prev_end_ns ? t->last_done_ns : t->prev_end_ns);
}
