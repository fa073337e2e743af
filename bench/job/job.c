/* job.c — the job runner: keeps `qd` I/Os in flight per thread through an
 * engine, stamps times from the engine's clock (one read per submit batch,
 * one per reap batch), logs every completion in batches, reports progress
 * and stops cleanly on a signal, an error limit or the end of the job.
 * Nothing on the hot path allocates or makes a syscall besides the engine's. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "log/ssdlog.h"
#include "bench/bench.h"
#include "bench/job/job_int.h"
#include "bench/target/target_int.h"

volatile int bench_stop_requested;

#define JOB_PROGRESS_NS 250000000ull
/* Synchronous engines start threads x qd OS threads; beyond this, use io_uring. */
#define JOB_MAX_SYNC_THREADS 1024u

/* A barrier that can be broken: when a thread cannot be started, the ones
 * already waiting are released instead of waiting forever. */
struct job_gate {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned need, arrived, generation;
};

static void gate_init(struct job_gate *g, unsigned need) {
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
  g->need = need, g->arrived = 0, g->generation = 0;
}

static void gate_wait(struct job_gate *g) {
  pthread_mutex_lock(&g->mu);
  unsigned gen = g->generation;
  if (++g->arrived >= g->need) {
    g->arrived = 0;
    g->generation++;
    pthread_cond_broadcast(&g->cv);
  } else {
    while (gen == g->generation) pthread_cond_wait(&g->cv, &g->mu);
  }
  pthread_mutex_unlock(&g->mu);
}

/* Lowers the count to the threads that really exist. */
static void gate_shrink(struct job_gate *g, unsigned need) {
  pthread_mutex_lock(&g->mu);
  g->need = need;
  if (g->arrived >= need) {
    g->arrived = 0;
    g->generation++;
    pthread_cond_broadcast(&g->cv);
  }
  pthread_mutex_unlock(&g->mu);
}

static void gate_destroy(struct job_gate *g) {
  pthread_mutex_destroy(&g->mu);
  pthread_cond_destroy(&g->cv);
}

/* State shared by the job's threads. */
struct job_shared {
  const struct bench_job *job;
  struct bench_target *t;
  const struct bench_engine_ops *ops;
  struct ssdlog_writer *log;
  unsigned nworkers;
  unsigned qd;                  /* per worker (qd x threads when folded, 1 for one_in_flight engines) */
  unsigned per_group;           /* workers per job thread (qd for one_in_flight engines, else 1) */
  atomic_uint_fast64_t *seq_cursor; /* per job thread, shared by its workers (one_in_flight) */
  int no_data;                  /* the engine ignores buffer contents (BENCH_ENGINE_NO_DATA) */
  uint64_t region_off, region_len; /* the whole region, aligned */
  uint64_t limit_bytes;         /* size-based: bytes to move in all (0 = time-based) */
  uint64_t t0_ns, ramp_end_ns, end_ns; /* engine clock; end_ns = 0 when size-based */
  uint64_t poll_ns;             /* engine poll budget per wait (bench_engine.poll_ns) */
  int submit_each, iopoll;      /* bench_engine.submit_each, .iopoll */
  struct job_gate gate;
  atomic_int stop;              /* 1: stop submitting (error limit, fatal error) */
  atomic_int setup_failed;
  atomic_uint_fast64_t claimed_bytes; /* size-based claims */
  atomic_uint_fast64_t claimed_ios;   /* max_ios claims */
  atomic_uint_fast64_t errors;
  atomic_int first_status;            /* status (-errno) of the first failed I/O; 0 before */
  atomic_uint_fast64_t done_bytes;    /* all completed bytes, for progress */
  atomic_uint_fast64_t done_ios;
  bench_progress_fn progress;
  void *progress_arg;
  pthread_mutex_t watch_mu;     /* job->watch sees one batch at a time (several workers) */
  int virtual_clock;            /* BENCH_ENGINE_VIRTUAL_CLOCK: judge a due watch at once */
  atomic_int watch_due;         /* the watch asked for its judgment (BENCH_JOB_WATCH_DUE) */
  atomic_uint_fast64_t watch_next_ns; /* no judgment before this engine time */
};

struct job_worker {
  struct job_shared *sh;
  pthread_t tid;
  unsigned id;
  unsigned group;            /* the job thread this worker belongs to: its queue id */
  struct bench_engine e;
  int engine_ready;
  void *buf_region;          /* one allocation holding every buffer */
  void **bufs;
  struct bench_io *ios;
  struct bench_io **freeq, **batch, **done;
  unsigned nfree;
  uint8_t *read_dirty;       /* buffer last served a read: refill before a write */
  struct ssdlog_rec *recs;
  struct bench_job_rng rng;
  uint64_t reg_off, reg_len, seq_next; /* this worker's region (sequential) */
  atomic_uint_fast64_t *seq_shared;    /* the group's cursor, or NULL: seq_next */
  int seq_pass_done;
  uint64_t write_counter;
  struct bench_tally m; /* measured results */
  int rc;
  struct ssdrev_err err;
};

static void worker_free(struct job_worker *w) {
  if (w->engine_ready) w->sh->ops->cleanup(&w->e);
  w->engine_ready = 0;
  free(w->buf_region);
  free(w->bufs);
  free(w->ios);
  free(w->freeq);
  free(w->batch);
  free(w->done);
  free(w->read_dirty);
  free(w->recs);
}

/* I/O buffers of a worker: one region, each buffer at a 4 KiB boundary
 * (O_DIRECT on every logical block size). A region of 1 MiB or more is
 * aligned to 2 MiB and asked for transparent huge pages: a buffer inside one
 * huge page is physically contiguous, so io_uring registers it as one
 * segment. In 4 KiB pages a 1 MiB buffer is 256 segments, over the 254 a
 * virtio disk takes, and every 1 MiB I/O reached the device as two requests
 * (docs/perf/engines.md). Without THP this is a plain allocation. */
#define JOB_HUGE_BYTES (2u << 20)
static void *buffers_alloc(size_t stride, unsigned n) {
  size_t bytes = stride * n, align = 4096;
  if (bytes >= (1u << 20)) {
    align = JOB_HUGE_BYTES;
    bytes = (bytes + JOB_HUGE_BYTES - 1) / JOB_HUGE_BYTES * JOB_HUGE_BYTES;
  }
  void *p = NULL;
  if (posix_memalign(&p, align, bytes)) return NULL;
#ifdef MADV_HUGEPAGE
  /* Before the first touch, so the pages are faulted in huge; a kernel
   * without THP says EINVAL, which changes nothing. */
  if (align == JOB_HUGE_BYTES) (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return p;
}

static int worker_alloc(struct job_worker *w) {
  const struct job_shared *sh = w->sh;
  unsigned qd = sh->qd;
  size_t bs = sh->job->block_bytes;
  w->bufs = calloc(qd, sizeof *w->bufs);
  w->ios = calloc(qd, sizeof *w->ios);
  w->freeq = calloc(qd, sizeof *w->freeq);
  w->batch = calloc(qd, sizeof *w->batch);
  w->done = calloc(qd, sizeof *w->done);
  w->read_dirty = calloc(qd, 1);
  w->recs = calloc(qd, sizeof *w->recs);
  if (!w->bufs || !w->ios || !w->freeq || !w->batch || !w->done || !w->read_dirty || !w->recs)
    return ssdrev_fail(&w->err, -ENOMEM, "out of memory for %u I/O slots", qd);
  size_t stride = (bs + 4095) / 4096 * 4096;
  /* An engine that never touches the data (the sim) gets one buffer for
   * every slot: QD 1024 x 16 MiB would otherwise be 16 GiB of zeros. */
  unsigned nbufs = sh->no_data ? 1 : qd;
  w->buf_region = buffers_alloc(stride, nbufs);
  if (!w->buf_region) return ssdrev_fail(&w->err, -ENOMEM, "out of memory for %u buffers of %zu bytes", nbufs, bs);
  if (sh->no_data) memset(w->buf_region, 0, bs);
  for (unsigned i = 0; i < qd; i++) {
    w->bufs[i] = (char *)w->buf_region + (sh->no_data ? 0 : stride * i);
    if (sh->no_data) {
      /* zeroed once above */
    } else if (sh->job->zero_buffers) memset(w->bufs[i], 0, bs);
    else bench_job_fill_random(&w->rng, w->bufs[i], bs);
    w->ios[i].buf = w->bufs[i];
    w->ios[i].buf_index = i;
    w->ios[i].len_bytes = (uint32_t)bs;
    /* The queue id is the job thread: folded threads (sim) keep theirs, and
     * the depth-1 workers of a synchronous engine share their group's. */
    w->ios[i].queue_id = (uint16_t)(sh->nworkers == 1 && sh->job->threads > 1 ? i / sh->job->qd : w->group);
    w->freeq[i] = &w->ios[i];
  }
  w->nfree = qd;
  return 0;
}

/* Decides whether one more I/O may start; fills its op and offset. */
static int next_io(struct job_worker *w, struct bench_io *io, uint64_t now, int *ramp) {
  struct job_shared *sh = w->sh;
  const struct bench_job *job = sh->job;
  uint64_t bs = job->block_bytes;
  *ramp = 0;
  if (sh->end_ns) {
    if (now >= sh->end_ns) return 0;
    *ramp = now < sh->ramp_end_ns;
  } else if (job->pattern == BENCH_SEQ && !job->size_bytes) {
    /* one pass over this worker's part: checked when the offset is claimed */
  } else if (atomic_fetch_add_explicit(&sh->claimed_bytes, bs, memory_order_relaxed) >= sh->limit_bytes) {
    return 0;
  }
  if (job->max_ios && !*ramp &&
      atomic_fetch_add_explicit(&sh->claimed_ios, 1, memory_order_relaxed) >= job->max_ios)
    return 0;
  if (job->pattern == BENCH_SEQ) {
    /* The depth-1 workers of one job thread share its cursor, so together
     * they keep qd consecutive blocks in flight like one queue would. */
    uint64_t pos = w->seq_shared ? atomic_fetch_add_explicit(w->seq_shared, bs, memory_order_relaxed) : w->seq_next;
    w->seq_next = pos + bs;
    if (pos + bs > w->reg_len) {
      if (!sh->end_ns && !job->size_bytes) return 0; /* one pass done */
      pos %= w->reg_len;                            /* time- or size-based: wrap */
    }
    io->offset_bytes = w->reg_off + pos;
  } else {
    io->offset_bytes = w->reg_off + bench_job_rng_below(&w->rng, w->reg_len / bs) * bs;
  }
  if (job->read_pct >= 100) io->op = SSDLOG_OP_READ;
  else if (job->read_pct == 0) io->op = SSDLOG_OP_WRITE;
  else io->op = bench_job_rng_below(&w->rng, 100) < job->read_pct ? SSDLOG_OP_READ : SSDLOG_OP_WRITE;
  if (io->op == SSDLOG_OP_WRITE && !job->zero_buffers && !sh->no_data) {
    if (w->read_dirty[io->buf_index]) bench_job_fill_random(&w->rng, io->buf, io->len_bytes);
    bench_job_refresh(&w->rng, io->buf, io->len_bytes, ++w->write_counter);
  }
  w->read_dirty[io->buf_index] = io->op == SSDLOG_OP_READ;
  return 1;
}

static void report_progress(struct job_worker *w, uint64_t now, uint64_t *last_ns, uint64_t *last_bytes,
                            uint64_t *last_ios) {
  struct job_shared *sh = w->sh;
  uint64_t bytes = atomic_load_explicit(&sh->done_bytes, memory_order_relaxed);
  uint64_t ios = atomic_load_explicit(&sh->done_ios, memory_order_relaxed);
  double dt = (double)(now - *last_ns) / 1e9;
  struct bench_progress p = {.phase = "measure", .fraction = -1, .eta_s = -1, .total_eta_s = -1,
                             .elapsed_s = (double)(now - sh->t0_ns) / 1e9};
  if (dt > 0) {
    p.mb_s = (double)(bytes - *last_bytes) / dt / 1e6;
    p.iops = (double)(ios - *last_ios) / dt;
  }
  if (sh->end_ns) {
    if (now < sh->ramp_end_ns) p.phase = "ramp";
    p.fraction = (double)(now - sh->t0_ns) / (double)(sh->end_ns - sh->t0_ns);
    p.eta_s = now < sh->end_ns ? (double)(sh->end_ns - now) / 1e9 : 0;
  } else {
    uint64_t total = sh->limit_bytes ? sh->limit_bytes : sh->region_len;
    p.phase = "run";
    p.fraction = total ? (double)bytes / (double)total : -1;
    double rate = (double)bytes / ((double)(now - sh->t0_ns) / 1e9);
    if (rate > 0 && total > bytes) p.eta_s = (double)(total - bytes) / rate;
  }
  if (p.fraction > 1) p.fraction = 1;
  sh->progress(&p, sh->progress_arg);
  *last_ns = now, *last_bytes = bytes, *last_ios = ios;
}

static void job_loop(struct job_worker *w) {
  struct job_shared *sh = w->sh;
  const struct bench_job *job = sh->job;
  struct bench_engine *e = &w->e;
  const struct bench_engine_ops *ops = sh->ops;
  unsigned qd = sh->qd, inflight = 0;
  int submitting = 1;
  uint64_t next_progress = sh->t0_ns + JOB_PROGRESS_NS, pr_ns = sh->t0_ns, pr_bytes = 0, pr_ios = 0;
  uint64_t now = sh->t0_ns;
  while (1) {
    if (submitting && (bench_stop_requested || atomic_load_explicit(&sh->stop, memory_order_relaxed)))
      submitting = 0;
    /* Each I/O on its own (submit_each): its own clock read, so its stamp
     * and its ramp flag are taken when it goes to the kernel, after the
     * syscalls of the I/Os before it; else one clock read per batch. */
    unsigned per = sh->submit_each ? 1 : qd;
    int accepted_all = 1;
    while (submitting && w->nfree && accepted_all) {
      now = ops->now_ns(e);
      unsigned n = 0;
      while (w->nfree && n < per) {
        struct bench_io *io = w->freeq[w->nfree - 1];
        int ramp;
        if (!next_io(w, io, now, &ramp)) {
          submitting = 0;
          break;
        }
        io->submit_ns = now;
        io->status = 0;
        io->rec_flags = ramp ? SSDLOG_REC_RAMP : 0;
        w->batch[n++] = io;
        w->nfree--;
      }
      unsigned off = 0;
      while (off < n) {
        int got = ops->submit(e, w->batch + off, n - off);
        if (got < 0) {
          w->rc = ssdrev_fail(&w->err, got, "cannot submit I/O to '%s': %s", bench_target_spec(sh->t), strerror(-got));
          atomic_store(&sh->stop, 1);
          /* Slots not accepted go back to the free list. */
          for (unsigned i = off; i < n; i++) w->freeq[w->nfree++] = w->batch[i];
          n = off;
          submitting = 0;
          break;
        }
        off += (unsigned)got;
        inflight += (unsigned)got;
        if (off < n) {
          if (got == 0) break; /* engine full: reap first, resubmit below */
          /* Synchronous engines take one at a time: restamp the rest. */
          now = ops->now_ns(e);
          for (unsigned i = off; i < n; i++) w->batch[i]->submit_ns = now;
        }
      }
      accepted_all = off == n;
      for (unsigned i = off; i < n; i++) {
        /* Not accepted: give the slot back; the next batch retries. */
        w->freeq[w->nfree++] = w->batch[i];
      }
    }
    if (!inflight) break;
    int got = ops->reap(e, w->done, 1, qd);
    if (got < 0) {
      w->rc = ssdrev_fail(&w->err, got, "cannot reap I/O from '%s': %s", bench_target_spec(sh->t), strerror(-got));
      atomic_store(&sh->stop, 1);
      break;
    }
    uint64_t errs = 0, bytes = 0;
    for (int i = 0; i < got; i++) {
      struct bench_io *io = w->done[i];
      int ramp = io->rec_flags & SSDLOG_REC_RAMP;
      uint64_t lat = io->done_ns > io->submit_ns ? io->done_ns - io->submit_ns : 0;
      struct ssdlog_rec *r = &w->recs[i];
      r->submit_ns = io->submit_ns - sh->t0_ns;
      r->lat_ns = lat;
      r->offset_bytes = io->offset_bytes;
      r->len_bytes = io->len_bytes;
      r->status = io->status;
      r->queue_id = io->queue_id;
      r->op = io->op;
      r->flags = io->rec_flags;
      if (io->status < 0) {
        if (!errs++) {
          int none = 0;
          atomic_compare_exchange_strong(&sh->first_status, &none, io->status);
        }
      } else {
        bytes += io->len_bytes;
        if (!ramp) bench_tally_io(&w->m, io->submit_ns, lat, io->len_bytes);
      }
      w->freeq[w->nfree++] = io;
    }
    inflight -= (unsigned)got;
    if (sh->log && got > 0) {
      int rc = ssdlog_append(sh->log, w->recs, (size_t)got, &w->err);
      if (rc < 0) {
        w->rc = rc;
        atomic_store(&sh->stop, 1);
      }
    }
    if (job->watch && got > 0) {
      /* the lock only orders the batches of several workers: one worker
       * (always so on a virtual clock) has nothing to order */
      int locked = sh->nworkers > 1;
      if (locked) pthread_mutex_lock(&sh->watch_mu);
      int v = job->watch(job->watch_arg, w->recs, (size_t)got);
      if (v == BENCH_JOB_WATCH_DUE && sh->virtual_clock) v = job->watch(job->watch_arg, NULL, 0) != 0;
      if (locked) pthread_mutex_unlock(&sh->watch_mu);
      if (v == BENCH_JOB_WATCH_DUE) atomic_store(&sh->watch_due, 1);
      else if (v) atomic_store(&sh->stop, 1);
    }
    /* A due judgment on a real clock: by whichever worker takes the flag,
     * outside the batch lock, at most every JOB_PROGRESS_NS (the watch's
     * slow part stalls only this worker, and only this often). */
    if (atomic_load_explicit(&sh->watch_due, memory_order_relaxed) &&
        now >= atomic_load_explicit(&sh->watch_next_ns, memory_order_relaxed) && atomic_exchange(&sh->watch_due, 0)) {
      atomic_store_explicit(&sh->watch_next_ns, now + JOB_PROGRESS_NS, memory_order_relaxed);
      if (job->watch(job->watch_arg, NULL, 0)) atomic_store(&sh->stop, 1);
    }
    atomic_fetch_add_explicit(&sh->done_bytes, bytes, memory_order_relaxed);
    atomic_fetch_add_explicit(&sh->done_ios, (uint64_t)got, memory_order_relaxed);
    if (errs) {
      uint64_t total = atomic_fetch_add(&sh->errors, errs) + errs;
      if (job->max_errors && total >= job->max_errors) atomic_store(&sh->stop, 1);
    }
    if (w->id == 0 && sh->progress && now >= next_progress) {
      report_progress(w, now, &pr_ns, &pr_bytes, &pr_ios);
      next_progress = now + JOB_PROGRESS_NS;
    }
  }
}

static void idle_before(struct job_worker *w) {
  uint64_t ns = w->sh->job->idle_ns;
  if (!ns) return;
  if (w->sh->progress) {
    /* the gap shows as "idle", not as a stalled test */
    struct bench_progress p = {.phase = "idle", .fraction = 0, .eta_s = (double)ns / 1e9, .total_eta_s = -1, .idle = 1};
    w->sh->progress(&p, w->sh->progress_arg);
  }
  if (w->sh->ops->idle) {
    w->sh->ops->idle(&w->e, ns);
    return;
  }
  struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
  while (nanosleep(&ts, &ts) && errno == EINTR && !bench_stop_requested) {
  }
}

static void *worker_main(void *arg) {
  struct job_worker *w = arg;
  struct job_shared *sh = w->sh;
  w->rc = worker_alloc(w);
  if (!w->rc) {
    w->e.ops = sh->ops;
    w->e.poll_ns = sh->poll_ns;
    w->e.submit_each = sh->submit_each;
    w->e.iopoll = sh->iopoll;
    w->rc = sh->ops->setup(&w->e, sh->t, sh->qd, w->bufs, sh->qd, sh->job->block_bytes, &w->err);
    w->engine_ready = w->rc == 0;
  }
  if (w->rc) atomic_store(&sh->setup_failed, 1);
  /* All engines ready before the clock starts, so threads share one t0. */
  if (sh->nworkers > 1) gate_wait(&sh->gate);
  if (w->id == 0 && !atomic_load(&sh->setup_failed)) {
    idle_before(w);
    sh->t0_ns = sh->ops->now_ns(&w->e);
    if (sh->job->measure_ns) {
      sh->ramp_end_ns = sh->t0_ns + sh->job->ramp_ns;
      sh->end_ns = sh->ramp_end_ns + sh->job->measure_ns;
    }
  }
  if (sh->nworkers > 1) gate_wait(&sh->gate);
  if (!atomic_load(&sh->setup_failed)) job_loop(w);
  if (w->engine_ready) sh->ops->cleanup(&w->e);
  w->engine_ready = 0;
  return NULL;
}

/* Checks the job against the target before any I/O; names the bad field. */
static int validate(const struct bench_job *job, struct bench_target *t, struct ssdrev_err *err) {
  uint64_t size = bench_target_size_bytes(t);
  if (!job->block_bytes || job->block_bytes > (64u << 20))
    return ssdrev_fail(err, -EINVAL, "job '%s': block size %u is out of range (1 B .. 64 MiB)", job->name, job->block_bytes);
  const char *why = NULL;
  uint32_t align = bench_target_io_align(t, &why);
  if (align && job->block_bytes % align)
    return ssdrev_fail(err, -EINVAL, "job '%s': block size (--bs) %u is not a multiple of the %u-byte logical block of '%s' (%s)",
                       job->name, job->block_bytes, align, bench_target_spec(t), why);
  if (align && job->offset_bytes % align)
    return ssdrev_fail(err, -EINVAL, "job '%s': offset (--offset) %llu is not a multiple of the %u-byte logical block of '%s' (%s)",
                       job->name, (unsigned long long)job->offset_bytes, align, bench_target_spec(t), why);
  if (!job->qd || job->qd > 4096) return ssdrev_fail(err, -EINVAL, "job '%s': queue depth %u is out of range (1..4096)", job->name, job->qd);
  if (!job->threads || job->threads > 256) return ssdrev_fail(err, -EINVAL, "job '%s': threads %u is out of range (1..256)", job->name, job->threads);
  if (job->read_pct > 100) return ssdrev_fail(err, -EINVAL, "job '%s': read percentage %u is over 100", job->name, job->read_pct);
  if (job->offset_bytes >= size)
    return ssdrev_fail(err, -EINVAL, "job '%s': offset %llu is beyond the target's %llu bytes", job->name,
                       (unsigned long long)job->offset_bytes, (unsigned long long)size);
  uint64_t span = job->span_bytes ? job->span_bytes : size - job->offset_bytes;
  if (span > size - job->offset_bytes)
    return ssdrev_fail(err, -EINVAL, "job '%s': offset + span (%llu + %llu) is beyond the target's %llu bytes", job->name,
                       (unsigned long long)job->offset_bytes, (unsigned long long)span, (unsigned long long)size);
  uint64_t per_thread = job->pattern == BENCH_SEQ ? span / job->threads : span;
  if (per_thread < job->block_bytes)
    return ssdrev_fail(err, -EINVAL, "job '%s': span %llu is smaller than one block per thread", job->name, (unsigned long long)span);
  if (job->read_pct < 100 && !bench_target_writable(t))
    return ssdrev_fail(err, -EPERM, "job '%s' writes, but target '%s' was opened read-only", job->name, bench_target_spec(t));
  return 0;
}

/* The poll budget for a job's waits: only when asked for (--wait poll).
 * Polling keeps a thread on its CPU between completions, which on an idle
 * machine and a RAM-backed device reaches more IOPS than fio; on a shared
 * machine the polling thread is preempted or takes the CPU the kernel's
 * completion work needs, and a virtio disk lost a third of its IOPS to it
 * (docs/perf/engines.md). So AUTO sleeps, as fio does. */
static uint64_t job_poll_ns(const struct bench_job *job) {
  return job->wait == BENCH_WAIT_POLL ? BENCH_POLL_NS : 0;
}

uint64_t bench_job_buffer_bytes(uint32_t block_bytes, uint64_t slots, int no_data) {
  uint64_t stride = ((uint64_t)block_bytes + 4095) / 4096 * 4096;
  return no_data ? stride : stride * slots;
}

/* "12.0 GiB": a buffer size for the memory message. */
static void gib_text(uint64_t b, char *buf, size_t len) {
  if (b >= (1ull << 30)) snprintf(buf, len, "%.1f GiB", (double)b / 1073741824.0);
  else snprintf(buf, len, "%.1f MiB", (double)b / 1048576.0);
}

uint64_t bench_mem_avail_bytes(void) {
  FILE *f = fopen("/proc/meminfo", "re");
  if (!f) return 0;
  char line[256];
  unsigned long long kib = 0;
  int found = 0;
  while (!found && fgets(line, sizeof line, f)) found = sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
  fclose(f);
  return found ? (uint64_t)kib * 1024 : 0;
}

int bench_mem_check(uint64_t need_bytes, const char *what, struct ssdrev_err *err) {
  uint64_t avail = bench_mem_avail_bytes();
  /* unknown (no /proc): the allocation itself still fails cleanly */
  if (!avail || need_bytes <= avail / BENCH_MEM_FRACTION) return 0;
  char need[32], have[32], lim[32];
  gib_text(need_bytes, need, sizeof need);
  gib_text(avail, have, sizeof have);
  gib_text(avail / BENCH_MEM_FRACTION, lim, sizeof lim);
  return ssdrev_fail(err, -ENOMEM,
                     "%s needs %s of I/O buffers (%llu bytes: queue depth x threads x block), over the %s it may "
                     "take (1/%d of the %s this machine has available); lower its qd, threads or block",
                     what, need, (unsigned long long)need_bytes, lim, BENCH_MEM_FRACTION, have);
}

int bench_job_run(struct bench_target *t, const struct bench_job *job, const char *log_path,
                  bench_progress_fn progress, void *progress_arg, struct bench_job_result *res,
                  struct ssdrev_err *err) {
  struct bench_job_result local;
  if (!res) res = &local;
  memset(res, 0, sizeof *res);
  int rc = validate(job, t, err);
  if (rc) return rc;
  const struct bench_engine_ops *ops = job->engine[0] ? bench_engine_find(job->engine) : bench_engine_default(t);
  if (!ops && job->engine[0])
    return ssdrev_fail(err, -EINVAL, "job '%s': unknown engine '%s' (io_uring, psync, sim)", job->name, job->engine);
  if (!ops) return ssdrev_fail(err, -ENOSYS, "job '%s': no engine can drive '%s'", job->name, bench_target_spec(t));
  snprintf(res->engine, sizeof res->engine, "%s", ops->name);

  struct job_shared *sh = calloc(1, sizeof *sh);
  if (!sh) return ssdrev_fail(err, -ENOMEM, "out of memory");
  sh->job = job, sh->t = t, sh->ops = ops, sh->progress = progress, sh->progress_arg = progress_arg;
  pthread_mutex_init(&sh->watch_mu, NULL);
  /* One virtual clock: drive it from one thread (BENCH_ENGINE_VIRTUAL_CLOCK). */
  int fold = (ops->flags & BENCH_ENGINE_VIRTUAL_CLOCK) != 0;
  sh->virtual_clock = fold;
  if (job->wait == BENCH_WAIT_IOPOLL && !fold) {
    if (!(ops->flags & BENCH_ENGINE_CAN_IOPOLL)) {
      pthread_mutex_destroy(&sh->watch_mu);
      free(sh);
      return ssdrev_fail(err, -EINVAL, "job '%s': --wait iopoll needs an engine that polls the device (io_uring), not %s",
                         job->name, ops->name);
    }
    if (!bench_target_is_direct(t)) {
      pthread_mutex_destroy(&sh->watch_mu);
      free(sh);
      return ssdrev_fail(err, -EINVAL, "job '%s': --wait iopoll needs O_DIRECT (drop --buffered)", job->name);
    }
    sh->iopoll = 1;
  }
  sh->poll_ns = (ops->flags & BENCH_ENGINE_CAN_POLL) && !sh->iopoll ? job_poll_ns(job) : 0;
  /* Engines without BENCH_ENGINE_CAN_BATCH take one I/O at a time (psync) or run on a
   * virtual clock (sim): the batch loop is theirs as before. */
  sh->submit_each = job->submit == BENCH_SUBMIT_EACH && (ops->flags & BENCH_ENGINE_CAN_BATCH) && !fold;
  snprintf(res->wait, sizeof res->wait, "%s", fold ? "" : sh->iopoll ? "iopoll" : sh->poll_ns ? "poll" : "sleep");
  snprintf(res->submit, sizeof res->submit, "%s", fold || !(ops->flags & BENCH_ENGINE_CAN_BATCH) ? "" : bench_submit_name(job->submit));
  /* A synchronous engine has one I/O in flight per OS thread: a queue depth
   * of qd becomes qd threads of depth 1 per job thread. */
  int spread = !fold && (ops->flags & BENCH_ENGINE_ONE_IN_FLIGHT) && job->qd > 1;
  if (spread && (uint64_t)job->qd * job->threads > JOB_MAX_SYNC_THREADS) {
    pthread_mutex_destroy(&sh->watch_mu);
    free(sh);
    return ssdrev_fail(err, -EINVAL,
                       "job '%s': engine %s runs one thread per queue slot, and %u threads x queue depth %u is over %u "
                       "(lower --iodepth or --threads, or use io_uring)",
                       job->name, ops->name, job->threads, job->qd, JOB_MAX_SYNC_THREADS);
  }
  sh->per_group = spread ? job->qd : 1;
  sh->nworkers = fold ? 1 : job->threads * sh->per_group;
  sh->qd = fold ? job->qd * job->threads : spread ? 1 : job->qd;
  sh->no_data = (ops->flags & BENCH_ENGINE_NO_DATA) != 0;
  /* the one memory rule (bench_mem_check), before any thread or I/O */
  char what[200];
  snprintf(what, sizeof what, "job '%s'", job->name);
  rc = bench_mem_check(bench_job_buffer_bytes(job->block_bytes, (uint64_t)job->qd * job->threads, sh->no_data),
                       what, err);
  if (rc) {
    pthread_mutex_destroy(&sh->watch_mu);
    free(sh);
    return rc;
  }
  uint64_t bs = job->block_bytes;
  sh->region_off = job->offset_bytes;
  sh->region_len = (job->span_bytes ? job->span_bytes : bench_target_size_bytes(t) - job->offset_bytes) / bs * bs;
  if (!job->measure_ns) sh->limit_bytes = job->size_bytes ? job->size_bytes : sh->region_len;

  struct job_worker *ws = calloc(sh->nworkers, sizeof *ws);
  unsigned ngroups = sh->nworkers / sh->per_group;
  if (spread) sh->seq_cursor = calloc(ngroups, sizeof *sh->seq_cursor);
  if (!ws || (spread && !sh->seq_cursor)) {
    free(ws);
    free(sh->seq_cursor);
    pthread_mutex_destroy(&sh->watch_mu);
    free(sh);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  uint64_t part = job->pattern == BENCH_SEQ ? sh->region_len / bs / ngroups * bs : sh->region_len;
  for (unsigned i = 0; i < sh->nworkers; i++) {
    unsigned g = i / sh->per_group;
    ws[i].sh = sh;
    ws[i].id = i;
    ws[i].group = g;
    bench_job_rng_seed(&ws[i].rng, job->seed * 0x100000001b3ull + i);
    ws[i].reg_off = sh->region_off + (job->pattern == BENCH_SEQ ? part * g : 0);
    ws[i].reg_len = part;
    if (spread) {
      atomic_init(&sh->seq_cursor[g], 0);
      ws[i].seq_shared = &sh->seq_cursor[g];
    }
  }

  if (log_path) {
    json_t *params = bench_job_params(job, t, ops);
    char *pj = params ? json_dumps(params, JSON_COMPACT) : NULL;
    json_decref(params);
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    /* A virtual-clock run has no wall-clock start: 0 keeps logs of the same
     * seed byte-identical (the manifest still records when it ran). */
    uint64_t start_ns = fold ? 0 : (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
    rc = ssdlog_writer_open(&sh->log, log_path, fold ? SSDLOG_CLOCK_VIRTUAL : SSDLOG_CLOCK_MONOTONIC,
                               start_ns, pj, 1, err);
    free(pj);
    if (rc) {
      free(ws);
      free(sh->seq_cursor);
      pthread_mutex_destroy(&sh->watch_mu);
      free(sh);
      return rc;
    }
  }

  if (sh->nworkers > 1) gate_init(&sh->gate, sh->nworkers);
  unsigned started = 1;
  for (unsigned i = 1; i < sh->nworkers; i++) {
    if (pthread_create(&ws[i].tid, NULL, worker_main, &ws[i])) break;
    started++;
  }
  if (started < sh->nworkers) {
    /* Cannot start every thread: fail the job before any I/O and release
     * the threads already waiting at the gate. */
    atomic_store(&sh->setup_failed, 1);
    rc = ssdrev_fail(err, -EAGAIN, "job '%s': cannot start %u threads", job->name, sh->nworkers);
    gate_shrink(&sh->gate, started);
  }
  worker_main(&ws[0]);
  for (unsigned i = 1; i < started; i++) pthread_join(ws[i].tid, NULL);
  if (sh->nworkers > 1) gate_destroy(&sh->gate);

  /* Results: the measured window runs from the first measured submit to the
   * last measured completion over all threads. */
  struct bench_tally all = {0};
  for (unsigned i = 0; i < sh->nworkers; i++) {
    struct job_worker *w = &ws[i];
    if (!rc && w->rc) {
      rc = w->rc;
      if (err) *err = w->err;
    }
    bench_tally_merge(&all, &w->m);
    worker_free(w);
  }
  bench_tally_result(&all, res);
  res->errors = atomic_load(&sh->errors);
  res->interrupted = bench_stop_requested != 0;
  if (sh->log) {
    struct ssdrev_err lerr = {{0}};
    int lrc = ssdlog_writer_close(sh->log, &lerr);
    if (lrc && !rc) {
      rc = lrc;
      if (err) *err = lerr;
    }
  }
  /* The first error's errno goes into the message: it is usually the
   * reason (EROFS, EPERM, EIO), while the count alone is not. */
  int first_st = atomic_load(&sh->first_status);
  const char *first_msg = strerror(first_st < 0 ? -first_st : EIO);
  if (!rc && job->max_errors && res->errors >= job->max_errors)
    rc = ssdrev_fail(err, -EIO, "job '%s': stopped after %llu I/O errors (max errors %llu; first error: %s)",
                     job->name, (unsigned long long)res->errors, (unsigned long long)job->max_errors, first_msg);
  /* Errors and not one measured I/O done (a read-only device, a dead
   * drive): there is nothing to report, so the job failed. */
  if (!rc && res->errors && !res->ios)
    rc = ssdrev_fail(err, first_st < 0 ? first_st : -EIO, "job '%s': no I/O completed: %llu I/O errors (first error: %s)",
                     job->name, (unsigned long long)res->errors, first_msg);
  free(ws);
  free(sh->seq_cursor);
  pthread_mutex_destroy(&sh->watch_mu);
  free(sh);
  return rc;
}
