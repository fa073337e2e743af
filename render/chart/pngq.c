/* pngq.c — one worker thread that PNG-encodes and commits finished chart
 * surfaces while the calling thread draws the next chart and writes the
 * documents (PNG encoding, zlib + libpng, was ~60% of a report's CPU time).
 * Only the encoding moves: drawing stays on the caller's thread in template
 * order, because cairo's glyph cache and surface ids are process-wide and
 * the pixels depend on the drawing order. Encoding a finished surface is a
 * pure function of its pixels, so the files are byte-identical either way. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "render/render_int.h"

/* Drawing a chart takes a few ms, encoding it ~30 ms: with a small queue
 * the drawer would wait for the encoder and the PDF, the other long job,
 * would start late. So the queue is bounded by the pixels it holds (a
 * 300-dpi chart is ~8 MB: 16 of them), not by a few slots. */
#define PNGQ_MAX 64
#define PNGQ_MAX_BYTES ((size_t)128 << 20)

struct pngq_job {
  cairo_surface_t *surface; /* owned by the queue from render_pngq_push on */
  size_t bytes;             /* its pixel buffer */
  struct ssdrev_atomic out; /* open temporary file, committed by the worker */
};

struct render_pngq {
  pthread_mutex_t lock;
  pthread_cond_t changed;        /* a job was pushed or popped, or stop was set */
  struct pngq_job jobs[PNGQ_MAX]; /* ring buffer */
  size_t head, count;
  size_t bytes;                  /* pixels held by queued jobs */
  int busy;                      /* the worker holds a popped job */
  int stop;                      /* no more pushes; the worker exits when empty */
  int defer_sync;                /* the caller's ssdrev_atomic_defer_sync, per thread */
  struct ssdrev_outputs *outputs; /* the caller's output group: the worker's commits join it */
  int rc;                        /* first error (0 = none) ... */
  struct ssdrev_err err;         /* ... and its message, naming the file */
  pthread_t thread;
};

/* through ssdrev_atomic_write, which keeps the errno cairo's status loses */
static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int len) {
  return ssdrev_atomic_write(closure, data, len) ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

/* Encodes and commits one job (or only discards it after an earlier error,
 * so the first error is the one reported and no temporary file is left). */
static void run_job(struct render_pngq *q, struct pngq_job *j, int failed) {
  struct ssdrev_err err = {0};
  int rc = 0;
  if (failed) {
    ssdrev_atomic_abort(&j->out);
  } else {
    cairo_status_t st = cairo_surface_write_to_png_stream(j->surface, write_stream, &j->out);
    if (st == CAIRO_STATUS_WRITE_ERROR && j->out.write_errno) {
      rc = ssdrev_atomic_fail(&j->out, &err); /* "No space left on device" and the path */
    } else if (st != CAIRO_STATUS_SUCCESS) {
      rc = ssdrev_fail(&err, -EIO, "cannot write chart '%s': %s", j->out.path, cairo_status_to_string(st));
      ssdrev_atomic_abort(&j->out);
    } else {
      rc = ssdrev_atomic_commit(&j->out, &err);
    }
  }
  cairo_surface_destroy(j->surface);
  if (rc < 0) {
    pthread_mutex_lock(&q->lock);
    if (!q->rc) {
      q->rc = rc;
      q->err = err;
    }
    pthread_mutex_unlock(&q->lock);
  }
}

static void *worker(void *arg) {
  struct render_pngq *q = arg;
  /* the fsync policy is per thread (bench.h): follow the caller's */
  ssdrev_atomic_defer_sync(q->defer_sync);
  ssdrev_outputs_join(q->outputs);
  pthread_mutex_lock(&q->lock);
  for (;;) {
    while (!q->count && !q->stop) pthread_cond_wait(&q->changed, &q->lock);
    if (!q->count) break; /* stopped and drained */
    struct pngq_job j = q->jobs[q->head];
    q->head = (q->head + 1) % PNGQ_MAX;
    q->count--;
    q->bytes -= j.bytes;
    int failed = q->rc != 0;
    q->busy = 1;
    pthread_cond_broadcast(&q->changed);
    pthread_mutex_unlock(&q->lock);
    run_job(q, &j, failed);
    pthread_mutex_lock(&q->lock);
    q->busy = 0;
    pthread_cond_broadcast(&q->changed);
  }
  pthread_mutex_unlock(&q->lock);
  return NULL;
}

int render_pngq_start(struct render_pngq **out, int defer_sync, struct ssdrev_err *err) {
  *out = NULL;
  struct render_pngq *q = calloc(1, sizeof *q);
  if (!q) return ssdrev_fail(err, -ENOMEM, "out of memory starting the chart PNG writer");
  q->defer_sync = defer_sync;
  q->outputs = ssdrev_outputs_current();
  int e = pthread_mutex_init(&q->lock, NULL);
  if (e) {
    free(q);
    return ssdrev_fail(err, -e, "cannot start the chart PNG writer: %s", strerror(e));
  }
  e = pthread_cond_init(&q->changed, NULL);
  if (!e) {
    e = pthread_create(&q->thread, NULL, worker, q);
    if (e) pthread_cond_destroy(&q->changed);
  }
  if (e) {
    pthread_mutex_destroy(&q->lock);
    free(q);
    return ssdrev_fail(err, -e, "cannot start the chart PNG writer: %s", strerror(e));
  }
  *out = q;
  return 0;
}

int render_pngq_push(struct render_pngq *q, cairo_surface_t *s, struct ssdrev_atomic *out, struct ssdrev_err *err) {
  size_t bytes = (size_t)cairo_image_surface_get_stride(s) * (size_t)cairo_image_surface_get_height(s);
  pthread_mutex_lock(&q->lock);
  /* an empty queue takes any surface, however large */
  while (q->count && (q->count == PNGQ_MAX || q->bytes + bytes > PNGQ_MAX_BYTES) && !q->rc)
    pthread_cond_wait(&q->changed, &q->lock);
  int rc = q->rc;
  if (rc < 0) {
    /* the worker failed already: stop the drawer with that error */
    if (err) *err = q->err;
  } else {
    struct pngq_job *j = &q->jobs[(q->head + q->count) % PNGQ_MAX];
    j->surface = s;
    j->out = *out;
    j->bytes = bytes;
    q->count++;
    q->bytes += bytes;
    pthread_cond_broadcast(&q->changed);
  }
  pthread_mutex_unlock(&q->lock);
  if (rc < 0) {
    ssdrev_atomic_abort(out);
    cairo_surface_destroy(s);
    return rc;
  }
  /* the temporary file is the worker's now: the caller must not abort it */
  out->f = NULL;
  out->tmp[0] = 0;
  return 0;
}

void render_pngq_drain(struct render_pngq *q) {
  if (!q) return;
  pthread_mutex_lock(&q->lock);
  while (q->count || q->busy) pthread_cond_wait(&q->changed, &q->lock);
  pthread_mutex_unlock(&q->lock);
}

int render_pngq_finish(struct render_pngq *q, struct ssdrev_err *err) {
  if (!q) return 0;
  pthread_mutex_lock(&q->lock);
  q->stop = 1;
  pthread_cond_broadcast(&q->changed);
  pthread_mutex_unlock(&q->lock);
  pthread_join(q->thread, NULL);
  int rc = q->rc;
  if (rc < 0 && err) *err = q->err;
  pthread_cond_destroy(&q->changed);
  pthread_mutex_destroy(&q->lock);
  free(q);
  return rc;
}
