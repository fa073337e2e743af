/* uring.c — the io_uring engine (liburing): one ring per runner
 * thread, the target fd and the I/O buffers registered once, no per-I/O
 * allocation. By default (bench_engine.submit_each) submit() hands each SQE
 * to the kernel as it prepares it, one io_uring_enter per I/O as fio does,
 * so the device's queue is topped up as completions arrive; otherwise the
 * SQEs go over together with the wait in reap(), one io_uring_enter per
 * batch. With a poll budget (bench_engine.poll_ns) reap() first polls for
 * completions from user space; with bench_engine.iopoll the ring is an
 * IOPOLL ring and the kernel polls the device's completion queues. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <liburing.h>
#include "log/ssdlog.h"
#include "bench/bench.h"
#include "bench/engine/engine_int.h"
#include "bench/target/target_int.h"

struct uring_priv {
  struct io_uring ring;
  unsigned pending;   /* SQEs prepared but not yet handed to the kernel */
  int fixed_bufs;     /* buffers registered: use READ_FIXED / WRITE_FIXED */
  int taskrun_flag;   /* the kernel flags pending completion work in the SQ ring */
  int submit_each;    /* bench_engine.submit_each */
};

/* Testing aid: SSDREV_DISABLE_IO_URING=1 makes the probe fail as if the
 * kernel returned ENOSYS, to exercise the psync fallback. */
static int uring_disabled_by_env(void) {
  const char *v = getenv("SSDREV_DISABLE_IO_URING");
  return v && *v && strcmp(v, "0") != 0;
}

/* Creates a ring, preferring the flags that save kernel work for a ring used
 * by one thread: completions are posted when the thread next enters the
 * kernel (COOP_TASKRUN: no interrupt of a running thread), and TASKRUN_FLAG
 * tells a polling thread when that is worth doing. A thread that sleeps for
 * its one I/O in flight (`defer`: QD1 without polling) is woken straight
 * from the completion with DEFER_TASKRUN, as fio does: measured, this brings
 * QD1 latency to fio's (docs/perf/engines.md), while with a queue to keep
 * full COOP_TASKRUN is faster. Older kernels reject flags with EINVAL, so
 * retry with fewer. */
static int ring_init(struct io_uring *ring, unsigned entries, int defer, unsigned must, int *taskrun_flag) {
  const unsigned base = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_TASKRUN_FLAG;
  const unsigned flag_sets[] = {
      base | (defer ? IORING_SETUP_DEFER_TASKRUN : IORING_SETUP_COOP_TASKRUN),
      base | IORING_SETUP_COOP_TASKRUN,
      IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
      0,
  };
  int rc = -EINVAL;
  for (size_t i = 0; i < sizeof flag_sets / sizeof flag_sets[0] && rc == -EINVAL; i++) {
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    /* `must` (IOPOLL) is in every set: without it the job is not the one asked for. */
    p.flags = flag_sets[i] | must;
    rc = io_uring_queue_init_params(entries, ring, &p);
    if (taskrun_flag) *taskrun_flag = rc == 0 && (flag_sets[i] & IORING_SETUP_TASKRUN_FLAG);
  }
  return rc;
}

int bench_engine_uring_available(void) {
  static int cached = -1; /* probing costs a ring setup: do it once */
  if (uring_disabled_by_env()) return 0;
  if (cached >= 0) return cached;
  struct io_uring ring;
  int rc = ring_init(&ring, 4, 0, 0, NULL);
  if (rc == 0) io_uring_queue_exit(&ring);
  return cached = (rc == 0);
}

static int uring_accepts(struct bench_target *t) {
  return bench_target_fd(t) >= 0 && bench_engine_uring_available();
}

static int uring_setup(struct bench_engine *e, struct bench_target *t, unsigned qd, void **bufs,
                       unsigned nbufs, size_t buf_bytes, struct ssdrev_err *err) {
  if (uring_disabled_by_env())
    return ssdrev_fail(err, -ENOSYS, "io_uring is disabled (SSDREV_DISABLE_IO_URING is set)");
  int fd = bench_target_fd(t);
  if (fd < 0) return ssdrev_fail(err, -EINVAL, "engine io_uring cannot drive target '%s'", bench_target_spec(t));
  struct uring_priv *p = calloc(1, sizeof *p);
  if (!p) return ssdrev_fail(err, -ENOMEM, "out of memory");
  unsigned entries = 1;
  while (entries < qd) entries <<= 1;
  int rc = ring_init(&p->ring, entries, qd == 1 && !e->poll_ns, e->iopoll ? IORING_SETUP_IOPOLL : 0, &p->taskrun_flag);
  if (rc < 0) {
    free(p);
    if (e->iopoll)
      return ssdrev_fail(err, rc, "cannot create a polled (IOPOLL) io_uring for '%s': %s", bench_target_spec(t), strerror(-rc));
    return ssdrev_fail(err, rc, "cannot create an io_uring of %u entries: %s", entries, strerror(-rc));
  }
  p->submit_each = e->submit_each;
  rc = io_uring_register_files(&p->ring, &fd, 1);
  if (rc < 0) {
    io_uring_queue_exit(&p->ring);
    free(p);
    return ssdrev_fail(err, rc, "cannot register '%s' with io_uring: %s", bench_target_spec(t), strerror(-rc));
  }
  if (nbufs) {
    struct iovec *iov = calloc(nbufs, sizeof *iov);
    if (!iov) {
      io_uring_queue_exit(&p->ring);
      free(p);
      return ssdrev_fail(err, -ENOMEM, "out of memory");
    }
    for (unsigned i = 0; i < nbufs; i++) {
      iov[i].iov_base = bufs[i];
      iov[i].iov_len = buf_bytes;
    }
    /* Registration can fail under a low RLIMIT_MEMLOCK; plain READ/WRITE
     * still work then, only a little slower. */
    p->fixed_bufs = io_uring_register_buffers(&p->ring, iov, nbufs) == 0;
    free(iov);
  }
  e->priv = p;
  return 0;
}

static int submit_nowait(struct uring_priv *p);

static int uring_submit(struct bench_engine *e, struct bench_io **ios, unsigned n) {
  struct uring_priv *p = e->priv;
  unsigned i;
  for (i = 0; i < n; i++) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
    if (!sqe) break; /* the ring is full: the caller reaps and retries */
    struct bench_io *io = ios[i];
    switch (io->op) {
    case SSDLOG_OP_READ:
      if (p->fixed_bufs) io_uring_prep_read_fixed(sqe, 0, io->buf, io->len_bytes, io->offset_bytes, (int)io->buf_index);
      else io_uring_prep_read(sqe, 0, io->buf, io->len_bytes, io->offset_bytes);
      break;
    case SSDLOG_OP_WRITE:
      if (p->fixed_bufs) io_uring_prep_write_fixed(sqe, 0, io->buf, io->len_bytes, io->offset_bytes, (int)io->buf_index);
      else io_uring_prep_write(sqe, 0, io->buf, io->len_bytes, io->offset_bytes);
      break;
    case SSDLOG_OP_FLUSH:
      io_uring_prep_fsync(sqe, 0, IORING_FSYNC_DATASYNC);
      break;
    default: /* trims go through bench_target_purge, not the ring */
      io_uring_prep_nop(sqe);
      break;
    }
    sqe->flags |= IOSQE_FIXED_FILE; /* index 0 of the registered files */
    io_uring_sqe_set_data(sqe, io);
    p->pending++;
    if (p->submit_each) {
      /* On failure the SQE stays in the ring, counted pending: reap()
       * hands it over again and reports the error if that fails too. */
      if (submit_nowait(p) < 0) return (int)i + 1;
    }
  }
  return (int)i;
}

/* Hands prepared SQEs to the kernel without waiting; the return to user
 * space also posts the completions that are ready. */
static int submit_nowait(struct uring_priv *p) {
  int rc = io_uring_submit_and_get_events(&p->ring);
  while (rc == -EINTR) rc = io_uring_submit_and_get_events(&p->ring);
  if (rc < 0) return rc;
  p->pending = rc >= (int)p->pending ? 0 : p->pending - (unsigned)rc;
  return 0;
}

/* Tells the CPU this is a spin-wait (saves power, yields to a sibling
 * hyperthread). */
static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/* Polls for `min` completions for up to poll_ns. Without TASKRUN_FLAG each
 * round is a non-blocking io_uring_enter; with it, the thread only enters
 * when the kernel says completions wait to be posted. */
static int poll_completions(struct uring_priv *p, unsigned min, uint64_t poll_ns) {
  int rc = submit_nowait(p);
  if (rc < 0) return rc;
  uint64_t deadline = 0;
  for (unsigned round = 0; io_uring_cq_ready(&p->ring) < min; round++) {
    int entered = !p->taskrun_flag || (IO_URING_READ_ONCE(*p->ring.sq.kflags) & IORING_SQ_TASKRUN);
    if (entered && (rc = submit_nowait(p)) < 0) return rc;
    /* A clock read bounds the poll: after each syscall, else now and then. */
    if (!entered) cpu_relax();
    if (!entered && round % 32) continue;
    uint64_t now = ssdrev_clock_ns();
    if (!deadline) deadline = now + poll_ns;
    else if (now >= deadline) break;
  }
  return 0;
}

static int uring_reap(struct bench_engine *e, struct bench_io **done, unsigned min, unsigned max) {
  struct uring_priv *p = e->priv;
  unsigned ready = io_uring_cq_ready(&p->ring);
  if (e->poll_ns && ready < min) {
    int rc = poll_completions(p, min, e->poll_ns);
    if (rc < 0) return rc;
    ready = io_uring_cq_ready(&p->ring);
  }
  if (p->pending || ready < min) {
    /* One syscall both submits the prepared SQEs and waits. */
    unsigned wait = ready >= min ? 0 : min;
    int rc = io_uring_submit_and_wait(&p->ring, wait);
    while (rc == -EINTR) rc = io_uring_submit_and_wait(&p->ring, wait);
    if (rc < 0) return rc;
    /* io_uring_enter may consume fewer SQEs than prepared only on error;
     * liburing keeps the rest queued for the next call. */
    p->pending = rc >= (int)p->pending ? 0 : p->pending - (unsigned)rc;
  }
  struct io_uring_cqe *cqes[256];
  unsigned want = max < 256 ? max : 256;
  unsigned got = io_uring_peek_batch_cqe(&p->ring, cqes, want);
  /* One clock read per reap batch: cheap and, for a batch reaped together,
   * as precise as the wakeup allows. */
  uint64_t now = got ? ssdrev_clock_ns() : 0;
  for (unsigned i = 0; i < got; i++) {
    struct bench_io *io = io_uring_cqe_get_data(cqes[i]);
    int res = cqes[i]->res;
    io->done_ns = now;
    if (res < 0) io->status = res;
    else if (io->op <= SSDLOG_OP_WRITE && (uint32_t)res != io->len_bytes) io->status = -EIO; /* short transfer */
    else io->status = 0;
    done[i] = io;
  }
  io_uring_cq_advance(&p->ring, got);
  return (int)got;
}

static void uring_cleanup(struct bench_engine *e) {
  struct uring_priv *p = e->priv;
  if (!p) return;
  io_uring_queue_exit(&p->ring);
  free(p);
  e->priv = NULL;
}

static uint64_t uring_now_ns(struct bench_engine *e) {
  (void)e;
  return ssdrev_clock_ns();
}

const struct bench_engine_ops bench_engine_uring_ops = {
    .version = BENCH_ENGINE_OPS_VERSION,
    .name = "io_uring",
    .flags = BENCH_ENGINE_CAN_POLL | BENCH_ENGINE_CAN_IOPOLL | BENCH_ENGINE_CAN_BATCH,
    .accepts = uring_accepts,
    .setup = uring_setup,
    .submit = uring_submit,
    .reap = uring_reap,
    .cleanup = uring_cleanup,
    .now_ns = uring_now_ns,
};
