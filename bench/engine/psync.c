/* psync.c — the portable engine: pread/pwrite from the runner's
 * threads, as fio's psync. Each call is synchronous, so submit() accepts one
 * I/O, performs it and queues it as complete; reap() hands the completions
 * back. One I/O is in flight per thread, so for a queue depth above 1 the
 * runner starts qd threads per job thread (BENCH_ENGINE_ONE_IN_FLIGHT). Used when
 * io_uring is unavailable (ENOSYS/EPERM in some containers) or on request. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "log/ssdlog.h"
#include "bench/bench.h"
#include "bench/engine/engine_int.h"
#include "bench/target/target_int.h"

struct psync_priv {
  int fd;
  unsigned cap, n;        /* completed I/Os waiting to be reaped */
  struct bench_io **done; /* capacity = queue depth */
};

static int psync_accepts(struct bench_target *t) { return bench_target_fd(t) >= 0; }

static int psync_setup(struct bench_engine *e, struct bench_target *t, unsigned qd, void **bufs,
                       unsigned nbufs, size_t buf_bytes, struct ssdrev_err *err) {
  (void)bufs, (void)nbufs, (void)buf_bytes;
  int fd = bench_target_fd(t);
  if (fd < 0) return ssdrev_fail(err, -EINVAL, "engine psync cannot drive target '%s'", bench_target_spec(t));
  struct psync_priv *p = calloc(1, sizeof *p);
  if (!p) return ssdrev_fail(err, -ENOMEM, "out of memory");
  p->fd = fd;
  p->cap = qd ? qd : 1;
  p->done = calloc(p->cap, sizeof *p->done);
  if (!p->done) {
    free(p);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  e->priv = p;
  return 0;
}

/* A full transfer, retried after EINTR and short counts. */
static int32_t do_io(int fd, struct bench_io *io) {
  char *b = io->buf;
  uint64_t off = io->offset_bytes;
  size_t left = io->len_bytes;
  if (io->op == SSDLOG_OP_FLUSH) return fdatasync(fd) ? -errno : 0;
  if (io->op != SSDLOG_OP_READ && io->op != SSDLOG_OP_WRITE) return 0;
  while (left) {
    ssize_t r = io->op == SSDLOG_OP_READ ? pread(fd, b, left, (off_t)off) : pwrite(fd, b, left, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -errno;
    if (r == 0) return -EIO; /* past the end */
    b += r, off += (uint64_t)r, left -= (size_t)r;
  }
  return 0;
}

static int psync_submit(struct bench_engine *e, struct bench_io **ios, unsigned n) {
  struct psync_priv *p = e->priv;
  if (!n || p->n >= p->cap) return 0;
  /* Only one: the runner stamps submit_ns before each call, so every
   * synchronous I/O gets its own start time. */
  struct bench_io *io = ios[0];
  io->status = do_io(p->fd, io);
  io->done_ns = ssdrev_clock_ns();
  p->done[p->n++] = io;
  return 1;
}

static int psync_reap(struct bench_engine *e, struct bench_io **done, unsigned min, unsigned max) {
  (void)min; /* everything submitted is already complete */
  struct psync_priv *p = e->priv;
  unsigned k = p->n < max ? p->n : max;
  memcpy(done, p->done, k * sizeof *done);
  memmove(p->done, p->done + k, (p->n - k) * sizeof *p->done);
  p->n -= k;
  return (int)k;
}

static void psync_cleanup(struct bench_engine *e) {
  struct psync_priv *p = e->priv;
  if (!p) return;
  free(p->done);
  free(p);
  e->priv = NULL;
}

static uint64_t psync_now_ns(struct bench_engine *e) {
  (void)e;
  return ssdrev_clock_ns();
}

const struct bench_engine_ops bench_engine_psync_ops = {
    .version = BENCH_ENGINE_OPS_VERSION,
    .name = "psync",
    .flags = BENCH_ENGINE_ONE_IN_FLIGHT,
    .accepts = psync_accepts,
    .setup = psync_setup,
    .submit = psync_submit,
    .reap = psync_reap,
    .cleanup = psync_cleanup,
    .now_ns = psync_now_ns,
};
