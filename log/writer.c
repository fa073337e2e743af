/* writer.c — writes the binary I/O log (docs/log-format.md). Records are
 * copied into a pending chunk under a mutex; a full chunk (or one spanning a
 * second of submit time) is handed to an encoder thread, which encodes it and
 * writes it with one write() while the I/O threads fill the other buffer:
 * encoding stays off the I/O path. A crash loses at most the chunk being
 * filled and the one being written, and memory stays bounded by those two
 * chunks whatever the run length. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "log/ssdlog.h"
#include "log/codec.h"

#define CHUNK_SPAN_NS 1000000000ull /* cut a chunk after 1 s of submit time */

struct ssdlog_writer {
  pthread_mutex_t mu;
  int fd;
  char path[4096];
  struct ssdlog_rec *pend; /* pending records, SSDLOG_CHUNK_MAX_RECORDS */
  size_t npend;
  struct ssdlog_rec *full; /* a chunk handed to the encoder thread */
  size_t nfull;           /* its records; 0 once written (the slot is free) */
  pthread_cond_t cv_full; /* the encoder waits for a chunk (or stop) */
  pthread_cond_t cv_free; /* appenders and flush wait for the slot */
  int stop;               /* close: the encoder ends once the slot is empty */
  pthread_t encoder;
  int encoder_started;
  /* used by the encoder thread alone (and by open, before it starts) */
  uint64_t *colv;     /* one column's values: n */
  uint64_t *latv;     /* the latency column, for the submit transform: n */
  uint64_t *scratch;  /* encoder scratch: 2n */
  uint8_t *out;       /* encoded chunk */
  size_t out_cap;
  uint64_t records, bytes;
  int err_code;       /* first write error (sticky), 0 if none */
  struct ssdrev_err sticky; /* its message, repeated by every later call */
};

static void *encoder_main(void *arg);

static void free_buffers(struct ssdlog_writer *w) {
  free(w->pend), free(w->full), free(w->colv), free(w->latv), free(w->scratch), free(w->out);
  free(w);
}

static int fail_sticky(struct ssdlog_writer *w, struct ssdrev_err *err) {
  return ssdrev_fail(err, w->err_code, "%s", w->sticky.msg);
}

/* write() until done; a short write means the disk is full (ENOSPC). */
static int write_all(int fd, const uint8_t *p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return -errno;
    if (k == 0) return -ENOSPC;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

static int record_io_error(struct ssdlog_writer *w, int rc, const char *what,
                           struct ssdrev_err *err) {
  if (!w->err_code) {
    w->err_code = ssdrev_fail(&w->sticky, rc, "cannot %s I/O log '%s': %s", what, w->path,
                              strerror(-rc));
  }
  return fail_sticky(w, err);
}

int ssdlog_writer_open(struct ssdlog_writer **wp, const char *path, uint32_t clock_source,
                          uint64_t start_unix_ns, const char *params_json, int overwrite,
                          struct ssdrev_err *err) {
  *wp = NULL;
  size_t plen = params_json ? strlen(params_json) : 0;
  if (strlen(path) >= sizeof((*wp)->path))
    return ssdrev_fail(err, -ENAMETOOLONG, "cannot create I/O log '%s': path too long", path);
  if (plen > LOG_PARAMS_MAX_BYTES)
    return ssdrev_fail(err, -EINVAL, "cannot create I/O log '%s': params are %zu bytes (max %u)",
                       path, plen, LOG_PARAMS_MAX_BYTES);
  struct ssdlog_writer *w = calloc(1, sizeof *w);
  size_t n = SSDLOG_CHUNK_MAX_RECORDS;
  if (w) {
    w->out_cap = LOG_CHUNK_HDR_BYTES + LOG_NCOLS * log_col_max_bytes(n);
    w->pend = malloc(n * sizeof *w->pend);
    w->full = malloc(n * sizeof *w->full);
    w->colv = malloc(n * sizeof *w->colv);
    w->latv = malloc(n * sizeof *w->latv);
    w->scratch = malloc(2 * n * sizeof *w->scratch);
    w->out = malloc(w->out_cap > LOG_FILE_FIXED_BYTES + plen + 4 ? w->out_cap
                                                                 : LOG_FILE_FIXED_BYTES + plen + 4);
  }
  if (!w || !w->pend || !w->full || !w->colv || !w->latv || !w->scratch || !w->out) {
    if (w) {
      free_buffers(w);
    }
    return ssdrev_fail(err, -ENOMEM, "cannot create I/O log '%s': out of memory", path);
  }
  snprintf(w->path, sizeof w->path, "%s", path);
  /* streamed in place (a crash must leave a readable log at PATH), so not
   * an atomic output; never through a link, never into an old file */
  struct ssdrev_err oerr = {{0}};
  w->fd = ssdrev_open_new(path, overwrite, &oerr);
  if (w->fd < 0) {
    int e = w->fd;
    free_buffers(w);
    if (e == -ELOOP) return ssdrev_fail(err, e, "%s", oerr.msg);
    return ssdrev_fail(err, e, "cannot create I/O log '%s': %s", path, strerror(-e));
  }
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv_full, NULL);
  pthread_cond_init(&w->cv_free, NULL);
  /* the header: one write, its CRC over every byte before it */
  uint8_t *h = w->out;
  memcpy(h, LOG_FILE_MAGIC, 8);
  log_put32(h + LOG_FH_VERSION, LOG_VERSION);
  log_put32(h + LOG_FH_CLOCK, clock_source);
  log_put64(h + LOG_FH_START, start_unix_ns);
  log_put32(h + LOG_FH_PARAMS_LEN, (uint32_t)plen);
  if (plen) memcpy(h + LOG_FILE_FIXED_BYTES, params_json, plen);
  size_t hlen = LOG_FILE_FIXED_BYTES + plen;
  log_put32(h + hlen, ssdrev_crc32c(0, h, hlen));
  int rc = write_all(w->fd, h, hlen + 4);
  if (rc) {
    record_io_error(w, rc, "write", err);
    unlink(path); /* the file this call created (an old one was replaced already) */
    close(w->fd);
    w->fd = -1;
    ssdlog_writer_close(w, NULL);
    return rc;
  }
  w->bytes = hlen + 4;
  if (pthread_create(&w->encoder, NULL, encoder_main, w)) {
    ssdlog_writer_close(w, NULL);
    return ssdrev_fail(err, -EAGAIN, "cannot create I/O log '%s': cannot start its encoder thread", path);
  }
  w->encoder_started = 1;
  *wp = w;
  return 0;
}

/* Encodes n records into w->out and writes them: the encoder thread's work
 * (no lock held: it alone uses the encoding buffers and writes chunks). */
static int encode_write(struct ssdlog_writer *w, const struct ssdlog_rec *r, size_t n) {
  uint8_t *h = w->out, *p = w->out + LOG_CHUNK_HDR_BYTES;
  uint64_t smin = UINT64_MAX, smax = 0, lmin = UINT64_MAX, lmax = 0;
  for (size_t i = 0; i < n; i++) {
    w->latv[i] = r[i].lat_ns;
    smin = r[i].submit_ns < smin ? r[i].submit_ns : smin;
    smax = r[i].submit_ns > smax ? r[i].submit_ns : smax;
    lmin = r[i].lat_ns < lmin ? r[i].lat_ns : lmin;
    lmax = r[i].lat_ns > lmax ? r[i].lat_ns : lmax;
  }
  for (int c = 0; c < LOG_NCOLS; c++) {
    uint64_t *v = w->colv;
    /* the column as u64 values, field by field (a table of extractors would
     * cost an indirect call per record on the hot path) */
    switch (c) {
    case LC_SUBMIT: for (size_t i = 0; i < n; i++) v[i] = r[i].submit_ns; break;
    case LC_LAT: v = w->latv; break;
    case LC_OFFSET: for (size_t i = 0; i < n; i++) v[i] = r[i].offset_bytes; break;
    case LC_LEN: for (size_t i = 0; i < n; i++) v[i] = r[i].len_bytes; break;
    case LC_STATUS: for (size_t i = 0; i < n; i++) v[i] = log_status_to_u64(r[i].status); break;
    case LC_QUEUE: for (size_t i = 0; i < n; i++) v[i] = r[i].queue_id; break;
    case LC_OP: for (size_t i = 0; i < n; i++) v[i] = r[i].op; break;
    default: for (size_t i = 0; i < n; i++) v[i] = r[i].flags; break;
    }
    size_t len = ssdlog_col_encode(p, v, n, c == LC_SUBMIT ? w->latv : NULL, w->scratch);
    log_put32(h + LOG_CH_COL_LEN(c), (uint32_t)len);
    log_put32(h + LOG_CH_COL_CRC(c), ssdrev_crc32c(0, p, len));
    p += len;
  }
  size_t payload = (size_t)(p - w->out) - LOG_CHUNK_HDR_BYTES;
  log_put32(h + LOG_CH_MAGIC, LOG_CHUNK_MAGIC);
  log_put32(h + LOG_CH_PAYLOAD, (uint32_t)payload);
  log_put32(h + LOG_CH_RECORDS, (uint32_t)n);
  log_put32(h + LOG_CH_RESERVED, 0);
  log_put64(h + LOG_CH_MIN_SUBMIT, smin);
  log_put64(h + LOG_CH_MAX_SUBMIT, smax);
  log_put64(h + LOG_CH_MIN_LAT, lmin);
  log_put64(h + LOG_CH_MAX_LAT, lmax);
  log_put32(h + LOG_CH_CRC, ssdrev_crc32c(0, h, LOG_CH_CRC));
  int rc = write_all(w->fd, w->out, LOG_CHUNK_HDR_BYTES + payload);
  if (rc) return rc;
  __atomic_add_fetch(&w->records, n, __ATOMIC_RELAXED);
  __atomic_add_fetch(&w->bytes, LOG_CHUNK_HDR_BYTES + payload, __ATOMIC_RELAXED);
  return 0;
}

static void *encoder_main(void *arg) {
  struct ssdlog_writer *w = arg;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->nfull && !w->stop) pthread_cond_wait(&w->cv_full, &w->mu);
    if (!w->nfull) break; /* stop, nothing left */
    size_t n = w->nfull;
    pthread_mutex_unlock(&w->mu);
    int rc = w->err_code ? 0 : encode_write(w, w->full, n); /* after an error, drop */
    pthread_mutex_lock(&w->mu);
    if (rc) record_io_error(w, rc, "write", NULL);
    w->nfull = 0;
    pthread_cond_broadcast(&w->cv_free);
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

/* Hands the pending chunk to the encoder (mutex held): waits for the slot,
 * which is free again long before the next chunk fills. */
static void hand_off(struct ssdlog_writer *w) {
  /* the wait lets other appenders in: they may fill or hand off meanwhile */
  while (w->nfull) pthread_cond_wait(&w->cv_free, &w->mu);
  if (!w->npend) return;
  struct ssdlog_rec *t = w->full;
  w->full = w->pend;
  w->pend = t;
  w->nfull = w->npend;
  w->npend = 0;
  pthread_cond_signal(&w->cv_full);
}

int ssdlog_append(struct ssdlog_writer *w, const struct ssdlog_rec *recs, size_t n,
                     struct ssdrev_err *err) {
  int rc = 0;
  pthread_mutex_lock(&w->mu);
  if (w->err_code) {
    rc = fail_sticky(w, err);
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    /* cut before a record that would make the chunk span a second; the
     * comparison is both ways since completion order may run backwards */
    if (w->npend) {
      uint64_t first = w->pend[0].submit_ns, s = recs[i].submit_ns;
      if ((s >= first ? s - first : first - s) >= CHUNK_SPAN_NS) hand_off(w);
    }
    /* full again if another appender filled it while this one waited */
    while (w->npend == SSDLOG_CHUNK_MAX_RECORDS) hand_off(w);
    w->pend[w->npend++] = recs[i];
    if (w->npend == SSDLOG_CHUNK_MAX_RECORDS) hand_off(w);
  }
  if (w->err_code) rc = fail_sticky(w, err);
out:
  pthread_mutex_unlock(&w->mu);
  return rc;
}

int ssdlog_flush(struct ssdlog_writer *w, int sync, struct ssdrev_err *err) {
  pthread_mutex_lock(&w->mu);
  hand_off(w);
  while (w->nfull) pthread_cond_wait(&w->cv_free, &w->mu);
  int rc = w->err_code ? fail_sticky(w, err) : 0;
  if (!rc && sync && fdatasync(w->fd)) rc = record_io_error(w, -errno, "sync", err);
  pthread_mutex_unlock(&w->mu);
  return rc;
}

int ssdlog_writer_close(struct ssdlog_writer *w, struct ssdrev_err *err) {
  if (!w) return 0;
  int rc = 0;
  if (w->encoder_started) {
    rc = ssdlog_flush(w, 0, err);
    pthread_mutex_lock(&w->mu);
    w->stop = 1;
    pthread_cond_signal(&w->cv_full);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->encoder, NULL);
  }
  if (w->fd >= 0) {
    if (fsync(w->fd) && !rc) rc = record_io_error(w, -errno, "sync", err);
    if (close(w->fd) && !rc) rc = record_io_error(w, -errno, "close", err);
  }
  pthread_cond_destroy(&w->cv_full);
  pthread_cond_destroy(&w->cv_free);
  pthread_mutex_destroy(&w->mu);
  free_buffers(w);
  return rc;
}

uint64_t ssdlog_writer_records(const struct ssdlog_writer *w) {
  return __atomic_load_n(&w->records, __ATOMIC_RELAXED);
}
uint64_t ssdlog_writer_bytes(const struct ssdlog_writer *w) {
  return __atomic_load_n(&w->bytes, __ATOMIC_RELAXED);
}
