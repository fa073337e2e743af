/* chartpool.c — the charts a template asks for, queued by the expander and
 * drawn on a few threads. Each job owns its options and its own surface, so
 * every file's bytes depend only on its job, never on the scheduling. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "render/render_int.h"

static char *dup_opt(const char *s, int *oom) {
  if (!s) return NULL;
  char *d = strdup(s);
  if (!d) *oom = 1;
  return d;
}

int rc_jobs_add(struct rc_jobs *q, const char *kind, const struct render_chart_opts *o, const char *path,
                unsigned line) {
  if (q->n == q->cap) {
    size_t cap = q->cap ? q->cap * 2 : 16;
    struct rc_job *v = realloc(q->v, cap * sizeof *v);
    if (!v) return -ENOMEM;
    q->v = v;
    q->cap = cap;
  }
  struct rc_job *j = &q->v[q->n];
  memset(j, 0, sizeof *j);
  int oom = 0;
  /* the directive's strings live only while its line is parsed: copy them */
  j->kind = dup_opt(kind, &oom);
  j->path = dup_opt(path, &oom);
  j->drive = dup_opt(o->drive, &oom);
  j->state = dup_opt(o->state, &oom);
  j->op = dup_opt(o->op, &oom);
  j->test = dup_opt(o->test, &oom);
  j->workload = dup_opt(o->workload, &oom);
  j->o = *o;
  j->o.drive = j->drive;
  j->o.state = j->state;
  j->o.op = j->op;
  j->o.test = j->test;
  j->o.workload = j->workload;
  j->line = line;
  q->n++; /* counted even on OOM so rc_jobs_free releases the copies made */
  return oom ? -ENOMEM : 0;
}

void rc_jobs_free(struct rc_jobs *q) {
  for (size_t i = 0; i < q->n; i++) {
    struct rc_job *j = &q->v[i];
    free(j->kind);
    free(j->path);
    free(j->drive);
    free(j->state);
    free(j->op);
    free(j->test);
    free(j->workload);
  }
  free(q->v);
  memset(q, 0, sizeof *q);
}

struct pool {
  struct rc_jobs *q;
  const struct render_runs *rs;
  const struct rt_draw *d;
  size_t next;
  pthread_mutex_t lock;
};

static void work(struct pool *pl) {
  for (;;) {
    pthread_mutex_lock(&pl->lock);
    size_t i = pl->next++;
    pthread_mutex_unlock(&pl->lock);
    if (i >= pl->q->n) return;
    struct rc_job *j = &pl->q->v[i];
    j->rc = rc_chart_draw(pl->rs, j->kind, &j->o, j->path, pl->d->keep, &j->err);
  }
}

static void *worker(void *arg) {
  struct pool *pl = arg;
  /* the no-fsync setting is per thread: carry the caller's over */
  ssdrev_atomic_defer_sync(pl->d->defer_sync);
  work(pl);
  return NULL;
}

void rc_jobs_run(struct rc_jobs *q, const struct render_runs *rs, const struct rt_draw *d) {
  struct pool pl = {.q = q, .rs = rs, .d = d};
  unsigned threads = d->threads;
  if (!threads) {
    /* two are enough: a review has ~20 files and most machines that
     * render one have at least two cores */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cpus >= 2 ? 2 : 1;
  }
  if (threads > 8) threads = 8;
  if ((size_t)threads > q->n) threads = q->n ? (unsigned)q->n : 1;
  pthread_t th[8];
  unsigned started = 0;
  pthread_mutex_init(&pl.lock, NULL); /* default attributes: cannot fail */
  for (unsigned i = 1; i < threads; i++)
    if (!pthread_create(&th[started], NULL, worker, &pl)) started++;
  work(&pl); /* this thread draws too; a failed pthread_create only slows things */
  for (unsigned i = 0; i < started; i++) pthread_join(th[i], NULL);
  pthread_mutex_destroy(&pl.lock);
}
