/* engine_uring.c — the io_uring engine (liburing): one ring per runner
 * thread, the target fd and the I/O buffers registered once, SQEs prepared in
 * submit() and handed to the kernel together with the wait in reap(), so a
 * steady QD32 loop costs one io_uring_enter per batch and no per-I/O syscall
 * or allocation. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <liburing.h>
#include "bench/bench.h"
#include "bench/target_int.h"

struct uring_priv {
  struct io_uring ring;
  unsigned pending;   /* SQEs prepared but not yet handed to the kernel */
  int fixed_bufs;     /* buffers registered: use READ_FIXED / WRITE_FIXED */
};

/* Testing aid: SSDREV_DISABLE_IO_URING=1 makes the probe fail as if the
 * kernel returned ENOSYS, to exercise the psync fallback. */
static int uring_disabled_by_env(void) {
  const char *v = getenv("SSDREV_DISABLE_IO_URING");
  return v && *v && strcmp(v, "0") != 0;
}

/* Creates a ring, preferring the flags that save kernel work for a ring used
 * by one thread; older kernels reject them with EINVAL, so retry plain. */
static int ring_init(struct io_uring *ring, unsigned entries) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN;
  int rc = io_uring_queue_init_params(entries, ring, &p);
  if (rc == -EINVAL) {
    memset(&p, 0, sizeof p);
    rc = io_uring_queue_init_params(entries, ring, &p);
  }
  return rc;
}

int bench_engine_uring_available(void) {
  static int cached = -1; /* probing costs a ring setup: do it once */
  if (uring_disabled_by_env()) return 0;
  if (cached >= 0) return cached;
  struct io_uring ring;
  int rc = ring_init(&ring, 4);
  if (rc == 0) io_uring_queue_exit(&ring);
  return cached = (rc == 0);
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
  int rc = ring_init(&p->ring, entries);
  if (rc < 0) {
    free(p);
    return ssdrev_fail(err, rc, "cannot create an io_uring of %u entries: %s", entries, strerror(-rc));
  }
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

static int uring_submit(struct bench_engine *e, struct bench_io **ios, unsigned n) {
  struct uring_priv *p = e->priv;
  unsigned i;
  for (i = 0; i < n; i++) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
    if (!sqe) break; /* the ring is full: the caller reaps and retries */
    struct bench_io *io = ios[i];
    switch (io->op) {
    case BENCH_OP_READ:
      if (p->fixed_bufs) io_uring_prep_read_fixed(sqe, 0, io->buf, io->len_bytes, io->offset_bytes, (int)io->buf_index);
      else io_uring_prep_read(sqe, 0, io->buf, io->len_bytes, io->offset_bytes);
      break;
    case BENCH_OP_WRITE:
      if (p->fixed_bufs) io_uring_prep_write_fixed(sqe, 0, io->buf, io->len_bytes, io->offset_bytes, (int)io->buf_index);
      else io_uring_prep_write(sqe, 0, io->buf, io->len_bytes, io->offset_bytes);
      break;
    case BENCH_OP_FLUSH:
      io_uring_prep_fsync(sqe, 0, IORING_FSYNC_DATASYNC);
      break;
    default: /* trims go through bench_target_purge, not the ring */
      io_uring_prep_nop(sqe);
      break;
    }
    sqe->flags |= IOSQE_FIXED_FILE; /* index 0 of the registered files */
    io_uring_sqe_set_data(sqe, io);
  }
  p->pending += i;
  return (int)i;
}

static int uring_reap(struct bench_engine *e, struct bench_io **done, unsigned min, unsigned max) {
  struct uring_priv *p = e->priv;
  unsigned ready = io_uring_cq_ready(&p->ring);
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
  uint64_t now = got ? bench_clock_ns() : 0;
  for (unsigned i = 0; i < got; i++) {
    struct bench_io *io = io_uring_cqe_get_data(cqes[i]);
    int res = cqes[i]->res;
    io->done_ns = now;
    if (res < 0) io->status = res;
    else if (io->op <= BENCH_OP_WRITE && (uint32_t)res != io->len_bytes) io->status = -EIO; /* short transfer */
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
  return bench_clock_ns();
}

const struct bench_engine_ops bench_engine_uring_ops = {
    .name = "io_uring",
    .setup = uring_setup,
    .submit = uring_submit,
    .reap = uring_reap,
    .cleanup = uring_cleanup,
    .now_ns = uring_now_ns,
};
