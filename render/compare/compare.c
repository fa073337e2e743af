/* compare.c — batch compare: finds run archives, takes each run's figures
 * from the archive root's index when the run is unchanged, else loads or
 * computes its analysis on a worker thread and keeps only the figures;
 * filters (--where), groups (--group-by), picks the baseline and computes
 * each group's spread for render/compare/out.c. */
#include <dirent.h>
#include <fnmatch.h>
#include <math.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "render/compare/compare_int.h"
#include "archive/archive.h"

void render_cmp_opts_defaults(struct render_cmp_opts *o) {
  memset(o, 0, sizeof *o);
  o->formats = RENDER_CMP_MD | RENDER_CMP_CSV | RENDER_CMP_CHARTS;
  o->jobs = 2;
  o->max_charts = 64;
  o->lock_wait_s = RENDER_CMP_LOCK_WAIT_S;
}

int render_cmp_formats_parse(const char *list, unsigned *mask, struct ssdrev_err *err) {
  static const struct { const char *name; unsigned bit; } fmts[] = {
      {"md", RENDER_CMP_MD}, {"csv", RENDER_CMP_CSV}, {"pdf", RENDER_CMP_PDF}, {"charts", RENDER_CMP_CHARTS},
      {"xlsx", RENDER_CMP_XLSX}, {"html", RENDER_CMP_HTML},
  };
  *mask = 0;
  const char *p = list;
  while (p && *p) {
    size_t len = strcspn(p, ",");
    unsigned bit = 0;
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
      if (len == strlen(fmts[i].name) && !strncmp(p, fmts[i].name, len)) bit = fmts[i].bit;
    if (!bit) return ssdrev_fail(err, -EINVAL, "unknown format '%.*s' (md, csv, pdf, charts, xlsx, html)", (int)len, p);
    *mask |= bit;
    p += len + (p[len] == ',');
  }
  if (!*mask) return ssdrev_fail(err, -EINVAL, "no format given (md, csv, pdf, charts, xlsx, html)");
  /* the PDF and Markdown show the charts */
  if (*mask & (RENDER_CMP_PDF | RENDER_CMP_MD | RENDER_CMP_HTML)) *mask |= RENDER_CMP_CHARTS;
  return 0;
}

static int is_run_dir(const char *dir) {
  char path[4200];
  struct stat st;
  if (snprintf(path, sizeof path, "%s/" ARCHIVE_MANIFEST, dir) >= (int)sizeof path) return 0;
  return !stat(path, &st) && S_ISREG(st.st_mode);
}

static int name_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int push_dir(char ***v, size_t *n, size_t *cap, const char *path) {
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 16;
    char **nv = realloc(*v, nc * sizeof *nv);
    if (!nv) return -ENOMEM;
    *v = nv;
    *cap = nc;
  }
  (*v)[*n] = strdup(path);
  if (!(*v)[*n]) return -ENOMEM;
  (*n)++;
  return 0;
}

void render_cmp_free_dirs(char **dirs, size_t n) {
  for (size_t i = 0; i < n; i++) free(dirs[i]);
  free(dirs);
}

int render_cmp_expand(const char *const *inputs, size_t n, char ***dirs, size_t *ndirs,
                      render_cmp_skip_fn skip, void *arg, struct ssdrev_err *err) {
  char **v = NULL;
  size_t nv = 0, cap = 0;
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    struct stat st;
    if (stat(inputs[i], &st) || !S_ISDIR(st.st_mode)) {
      if (skip) skip(inputs[i], "not a directory", arg);
      continue;
    }
    if (is_run_dir(inputs[i])) {
      rc = push_dir(&v, &nv, &cap, inputs[i]);
      continue;
    }
    DIR *d = opendir(inputs[i]);
    if (!d) {
      if (skip) skip(inputs[i], strerror(errno), arg);
      continue;
    }
    size_t first = nv;
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char path[4200];
      snprintf(path, sizeof path, "%s/%s", inputs[i], e->d_name);
      if (stat(path, &st) || !S_ISDIR(st.st_mode)) continue;
      if (is_run_dir(path)) rc = push_dir(&v, &nv, &cap, path);
      else if (skip) skip(path, "no manifest.json (not a run archive)", arg);
    }
    closedir(d);
    /* v is still NULL when nothing was found yet: qsort(NULL, 0) is UB */
    if (nv > first) qsort(v + first, nv - first, sizeof *v, name_cmp);
    else if (skip) skip(inputs[i], "no run archives in this directory", arg);
  }
  if (rc) {
    render_cmp_free_dirs(v, nv);
    return ssdrev_fail(err, rc, "out of memory listing runs");
  }
  if (!nv) {
    if (!n) return ssdrev_fail(err, -ENOENT, "no run archives given");
    if (n == 1) return ssdrev_fail(err, -ENOENT, "no run archives in '%s'", inputs[0]);
    return ssdrev_fail(err, -ENOENT, "no run archives in '%s' or the %zu other input%s", inputs[0], n - 1,
                       n == 2 ? "" : "s");
  }
  *dirs = v;
  *ndirs = nv;
  return 0;
}

/* ------------------------------------------------------------ figures */

long render_cmp_figs_add(struct cmp_figs *f, const char *family, const char *key, const char *metric, const char *unit,
                  int headline, int higher_better, unsigned ord) {
  char id[600];
  snprintf(id, sizeof id, "%s|%s|%s", family, key, metric);
  pthread_mutex_lock(&f->lock);
  long r = -1;
  json_t *have = json_object_get(f->index, id);
  if (have) {
    r = (long)json_integer_value(have);
    if (ord < f->v[r].ord) f->v[r].ord = ord;
    goto out;
  }
  if (f->n == f->cap) {
    size_t nc = f->cap ? f->cap * 2 : 64;
    struct cmp_fig *nv = realloc(f->v, nc * sizeof *nv);
    if (!nv) goto out;
    f->v = nv;
    f->cap = nc;
  }
  struct cmp_fig *x = &f->v[f->n];
  memset(x, 0, sizeof *x);
  x->family = strdup(family);
  x->key = strdup(key);
  x->metric = strdup(metric);
  x->unit = strdup(unit);
  x->headline = headline;
  x->higher_better = higher_better;
  x->ord = ord;
  for (size_t i = 0; i < render_cmp_nfamilies; i++)
    if (!strcmp(render_cmp_families[i].id, family)) x->family_id = (unsigned)i;
  if (!x->family || !x->key || !x->metric || !x->unit ||
      json_object_set_new(f->index, id, json_integer((json_int_t)f->n))) {
    free(x->family), free(x->key), free(x->metric), free(x->unit);
    goto out;
  }
  r = (long)f->n++;
out:
  pthread_mutex_unlock(&f->lock);
  return r;
}

void render_cmp_figs_free(struct cmp_figs *f) {
  for (size_t i = 0; i < f->n; i++) free(f->v[i].family), free(f->v[i].key), free(f->v[i].metric), free(f->v[i].unit);
  free(f->v);
  json_decref(f->index);
}

static int val_cmp(const void *a, const void *b) {
  const struct cmp_val *x = a, *y = b;
  return x->fig < y->fig ? -1 : x->fig > y->fig;
}

const struct cmp_val *render_cmp_run_value(const struct cmp_run *r, size_t f) {
  struct cmp_val key = {.fig = (uint32_t)f};
  return r->nvals ? bsearch(&key, r->vals, r->nvals, sizeof key, val_cmp) : NULL;
}

struct take_ctx {
  struct cmp_run *r;
  struct cmp_figs *figs;
  size_t cap;
};

static int take_fig(const struct analyze_figure *f, void *arg) {
  struct take_ctx *c = arg;
  long id = render_cmp_figs_add(c->figs, f->family, f->key, f->metric, f->unit, f->headline, f->higher_better,
                         (unsigned)c->r->nvals);
  if (id < 0) return -ENOMEM;
  if (c->r->nvals == c->cap) {
    size_t nc = c->cap ? c->cap * 2 : 32;
    struct cmp_val *nv = realloc(c->r->vals, nc * sizeof *nv);
    if (!nv) return -ENOMEM;
    c->r->vals = nv;
    c->cap = nc;
  }
  c->r->vals[c->r->nvals++] = (struct cmp_val){(uint32_t)id, f->value};
  return 0;
}

/* ------------------------------------------------------------- a run */

static void set_msg(char **dst, const char *fmt, const char *a) {
  free(*dst);
  size_t n = strlen(fmt) + strlen(a) + 1;
  *dst = malloc(n);
  if (*dst) snprintf(*dst, n, fmt, a);
}

static const char *dut_field(const json_t *an, const json_t *man, const char *key) {
  const char *v = json_string_value(json_object_get(json_object_get(an, "dut"), key));
  if (!v) v = json_string_value(json_object_get(json_object_get(man, "dut"), key));
  return v && *v ? v : NULL;
}

/* 1 when the '+'-joined list holds st as a whole entry ("75%" must not
 * hide "5%", as a substring test did). */
static int has_state(const char *list, const char *st) {
  size_t n = strlen(st);
  for (const char *p = list; *p;) {
    size_t l = strcspn(p, "+");
    if (l == n && !strncmp(p, st, n)) return 1;
    p += l + (p[l] == '+');
  }
  return 0;
}

/* The run's fill state: the manifest's (imports), else the CDM states found
 * in the analysis joined with '+', else "-". */
static void run_state(const json_t *an, const json_t *man, char *out, size_t len) {
  const char *s = json_string_value(json_object_get(man, "state"));
  if (s && *s) {
    snprintf(out, len, "%s", s);
    return;
  }
  out[0] = 0;
  size_t i;
  json_t *row;
  json_array_foreach(json_object_get(an, "cdm"), i, row) {
    const char *st = json_string_value(json_object_get(row, "state"));
    if (!st || has_state(out, st)) continue;
    size_t l = strlen(out);
    snprintf(out + l, len - l, "%s%s", l ? "+" : "", st);
  }
  if (!out[0]) snprintf(out, len, "-");
}

/* 1 when s begins as ISO 8601 does: YYYY-MM-DD, optionally followed by T
 * or ' ' and HH:MM:SS (the rest, a zone or fractions, is not shown). */
static int iso_date(const char *s) {
  static const char pat[] = "dddd-dd-dd";
  for (size_t i = 0; i < 10; i++)
    if (pat[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != pat[i]) return 0;
  if (!s[10]) return 1;
  if (s[10] != 'T' && s[10] != ' ') return 0;
  static const char tp[] = "dd:dd:dd";
  for (size_t i = 0; i < 8; i++)
    if (tp[i] == 'd' ? !(s[11 + i] >= '0' && s[11 + i] <= '9') : s[11 + i] != tp[i]) return 0;
  return 1;
}

/* The run's measurement date, YYYY-MM-DD: measured_at (the source's own
 * date for an import, the start of a review), else (an archive from before
 * measured_at, an import whose source names no date) the creation date. */
static void run_date(const json_t *man, char *out, size_t len) {
  const char *d = json_string_value(json_object_get(man, "measured_at"));
  if (!d || !iso_date(d)) d = json_string_value(json_object_get(man, "created"));
  snprintf(out, len, "%.10s", d ? d : "");
}

/* Model and firmware stay empty when unknown: grouping and display decide
 * what an unknown one becomes. */
static void fill_identity(struct cmp_run *r, const json_t *an, const json_t *man) {
  const char *m = dut_field(an, man, "model"), *f = dut_field(an, man, "firmware");
  snprintf(r->model, sizeof r->model, "%s", m ? m : "");
  snprintf(r->firmware, sizeof r->firmware, "%s", f ? f : "");
  run_state(an, man, r->state, sizeof r->state);
  const char *l = json_string_value(json_object_get(an, "label"));
  if (!l) l = json_string_value(json_object_get(man, "label"));
  const char *base = strrchr(r->dir, '/');
  snprintf(r->label, sizeof r->label, "%s", l ? l : base ? base + 1 : r->dir);
  const char *src = json_string_value(json_object_get(json_object_get(man, "source"), "kind"));
  snprintf(r->source, sizeof r->source, "%s", src ? src : "ssdrev");
  run_date(man, r->date, sizeof r->date);
  const char *cr = json_string_value(json_object_get(man, "created"));
  r->simulated = json_is_true(json_object_get(an, "simulated")) || json_is_true(json_object_get(man, "simulated"));
  /* when it was measured: a review's manifest is created as it starts; an
   * import's is its import, unless the importer recorded measured_at */
  const json_t *srcj = json_object_get(man, "source");
  int imported = strcmp(r->source, "ssdrev") != 0;
  const char *ma = json_string_value(json_object_get(man, "measured_at"));
  if (!ma) ma = json_string_value(json_object_get(srcj, "measured_at"));
  if (!imported) r->date_kind = CMP_DATE_RUN;
  else if (ma && iso_date(ma)) r->date_kind = CMP_DATE_MEASURED, cr = ma; /* anything else is no date */
  else r->date_kind = CMP_DATE_IMPORTED;
  snprintf(r->measured, sizeof r->measured, "%.19s", cr ? cr : "");
  for (char *p = r->measured; *p; p++)
    if (*p == 'T') *p = ' ';
  const json_t *meth = json_object_get(man, "method");
  const char *mname = json_string_value(json_object_get(meth, "name"));
  if (imported) snprintf(r->method, sizeof r->method, "import (%s)", r->source);
  else if (json_is_true(json_object_get(meth, "short"))) snprintf(r->method, sizeof r->method, "short");
  else if (mname && !strcmp(mname, "review")) snprintf(r->method, sizeof r->method, "reference");
  else if (mname && !strcmp(mname, "review-full")) snprintf(r->method, sizeof r->method, "full");
  else snprintf(r->method, sizeof r->method, "%s", mname ? mname : "-");
  const char *eng = json_string_value(json_object_get(meth, "engine"));
  snprintf(r->engine, sizeof r->engine, "%s", imported ? r->source : eng ? eng : "-");
  const char *ver = json_string_value(json_object_get(json_object_get(man, "tool"), "version"));
  snprintf(r->tool_version, sizeof r->tool_version, "%s", ver ? ver : "-");
  /* an import's host is the importing machine: the source's OS, if any */
  const char *k = imported ? json_string_value(json_object_get(srcj, "os"))
                           : json_string_value(json_object_get(json_object_get(man, "host"), "kernel"));
  snprintf(r->kernel, sizeof r->kernel, "%s", k && *k ? k : "-");
}

/* The per-pass values of the run's CDM cells (a review's passes 1..N as
 * separate tests), as samples of the cells' figures: MB/s, IOPS and mean
 * latency per pass. Kept only where a cell has two passes or more. */
static int take_passes(struct cmp_run *r, const json_t *an, struct cmp_figs *figs) {
  static const char *const ms[] = {"mb_s", "iops", "lat_mean_us"}, *const mn[] = {"mb_s", "iops", "lat_us"};
  size_t cap = 0;
  const char *name;
  json_t *t;
  json_object_foreach((json_t *)json_object_get(an, "tests"), name, t) {
    const char *kind = json_string_value(json_object_get(t, "kind"));
    const json_t *pass = json_object_get(t, "pass");
    if (!kind || strcmp(kind, "cdm") || !json_is_integer(pass) || json_integer_value(pass) < 1) continue;
    if (json_object_get(t, "error")) continue;
    const char *st = json_string_value(json_object_get(t, "state")), *pr = json_string_value(json_object_get(t, "profile")),
               *cell = json_string_value(json_object_get(t, "cell")), *op = json_string_value(json_object_get(t, "op"));
    const json_t *all = json_object_get(json_object_get(t, "ops"), "all");
    if (!cell || !op || !all) continue;
    char key[256];
    snprintf(key, sizeof key, "%s %s %s", st ? st : "FOB", pr ? pr : "default", cell);
    for (int i = 0; i < 3; i++) {
      const json_t *v = json_object_get(all, ms[i]);
      if (!json_is_number(v) || !(json_number_value(v) >= 0)) continue;
      char id[600], metric[64];
      snprintf(metric, sizeof metric, "%s_%s", op, mn[i]);
      snprintf(id, sizeof id, "cdm|%s|%s", key, metric);
      /* only figures the run itself reports (its best-of-passes value) */
      pthread_mutex_lock(&figs->lock);
      json_t *have = json_object_get(figs->index, id);
      long f = have ? (long)json_integer_value(have) : -1;
      pthread_mutex_unlock(&figs->lock);
      if (f < 0 || !render_cmp_run_value(r, (size_t)f)) continue;
      if (r->npvals == cap) {
        size_t nc = cap ? cap * 2 : 64;
        struct cmp_val *nv = realloc(r->pvals, nc * sizeof *nv);
        if (!nv) return -ENOMEM;
        r->pvals = nv;
        cap = nc;
      }
      r->pvals[r->npvals++] = (struct cmp_val){(uint32_t)f, json_number_value(v)};
    }
  }
  if (!r->npvals) return 0;
  qsort(r->pvals, r->npvals, sizeof *r->pvals, val_cmp);
  /* a figure with one pass keeps the run's own value */
  size_t k = 0;
  for (size_t i = 0; i < r->npvals;) {
    size_t j = i;
    while (j < r->npvals && r->pvals[j].fig == r->pvals[i].fig) j++;
    if (j - i >= 2)
      for (size_t m = i; m < j; m++) r->pvals[k++] = r->pvals[m];
    i = j;
  }
  r->npvals = k;
  return 0;
}

/* A run whose every logged test failed to load (all logs missing or
 * corrupt) has no figures: it is a bad archive, not a run to average. */
static int check_usable(struct cmp_run *r, const json_t *an) {
  size_t logged = 0, failed = 0;
  const char *first = NULL, *k;
  json_t *t;
  json_object_foreach(json_object_get(an, "tests"), k, t) {
    const char *e = json_string_value(json_object_get(t, "error"));
    if (!e && !json_object_get(t, "log_source") && !json_object_get(t, "log")) continue;
    logged++;
    if (e) {
      failed++;
      if (!first) first = e;
    }
  }
  char msg[1400];
  if (logged && failed == logged) {
    snprintf(msg, sizeof msg, "no readable test (%zu of %zu failed; first: %s)", failed, logged, first);
    set_msg(&r->err, "%s", msg);
    return 0;
  }
  if (failed) {
    snprintf(msg, sizeof msg, "%zu of %zu tests unreadable, compared without them (first: %s)", failed, logged,
             first);
    set_msg(&r->warn, "%s", msg);
  }
  return 1;
}

/* The freshness key the index stores: mtime (ns) and size of manifest.json
 * and analysis.json (stat only: no file is opened). */
static void run_sig(struct cmp_run *r) {
  static const char *const files[] = {ARCHIVE_MANIFEST, ARCHIVE_ANALYSIS};
  for (int i = 0; i < 2; i++) {
    char p[4200];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", r->dir, files[i]);
    if (stat(p, &st)) {
      r->sig[2 * i] = r->sig[2 * i + 1] = -1;
      continue;
    }
    r->sig[2 * i] = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    r->sig[2 * i + 1] = (int64_t)st.st_size;
  }
}

static void on_lock_wait(const char *dir, const char *msg, void *arg) {
  const struct render_cmp_opts *o = arg;
  o->note(dir, msg, o->note_arg);
}

/* Loads a fresh analysis.json, or analyzes the run (and so writes it), then
 * keeps the identity and the figures and frees the rest. */
static void prepare_run(struct cmp_run *r, const struct render_cmp_opts *o, struct cmp_figs *figs) {
  struct ssdrev_err err = {{0}};
  struct archive *run;
  if (archive_open(&run, r->dir, &err)) {
    set_msg(&r->err, "%s", err.msg);
    return;
  }
  json_t *man = json_incref(run->manifest), *an = NULL;
  uint32_t mcrc = run->manifest_crc32c;
  archive_free(run);
  char apath[4200];
  snprintf(apath, sizeof apath, "%s/" ARCHIVE_ANALYSIS, r->dir);
  if (!o->reanalyze) {
    /* the same staleness rule as `ssdrev report` (analyze_is_fresh); the
     * index's stat signature only decides whether a run is read at all */
    an = ssdrev_load_json(apath, NULL);
    if (!analyze_is_fresh(an, mcrc)) {
      json_decref(an);
      an = NULL; /* missing, stale or broken: analyze again */
    }
  }
  if (!an) {
    struct analyze_opts ao;
    analyze_opts_defaults(&ao);
    ao.lock_wait = (struct archive_lock_wait){.wait_ms = o->lock_wait_s * 1000, .on_wait = o->note ? on_lock_wait : NULL,
                                              .arg = (void *)o};
    /* ANALYZE_RUN_IN_MEMORY (a read-only run) is an analysis as good */
    int arc = analyze_run(r->dir, &ao, &an, &err);
    if (arc < 0) {
      r->busy = arc == -EBUSY;
      set_msg(&r->err, "%s", err.msg[0] ? err.msg : "analysis failed");
      json_decref(man);
      return;
    }
    r->analyzed = 1;
    run_sig(r); /* analysis.json is new */
  }
  if (check_usable(r, an)) {
    fill_identity(r, an, man);
    struct take_ctx c = {.r = r, .figs = figs};
    if (analyze_compare_figures(an, take_fig, &c)) set_msg(&r->err, "%s", "out of memory");
    else if (r->nvals) qsort(r->vals, r->nvals, sizeof *r->vals, val_cmp);
    if (!r->err && take_passes(r, an, figs)) set_msg(&r->err, "%s", "out of memory");
  }
  json_decref(an);
  json_decref(man);
}

struct cmp_pool {
  struct cmp_run *runs;
  size_t n;
  atomic_size_t next;
  const struct render_cmp_opts *o;
  struct cmp_figs *figs;
};

static void *worker(void *arg) {
  struct cmp_pool *p = arg;
  for (;;) {
    size_t i = atomic_fetch_add(&p->next, 1);
    if (i >= p->n) break;
    if (p->runs[i].from_index) continue;
    prepare_run(&p->runs[i], p->o, p->figs);
  }
  return NULL;
}

/* Runs prepare_run over every run not in an index on o->jobs threads (the caller is one). */
static void prepare_all(struct cmp_run *runs, size_t n, const struct render_cmp_opts *o, struct cmp_figs *figs) {
  struct cmp_pool pool = {.runs = runs, .n = n, .o = o, .figs = figs};
  atomic_init(&pool.next, 0);
  unsigned jobs = o->jobs ? o->jobs : 2;
  if (jobs > 64) jobs = 64;
  pthread_t th[64];
  unsigned started = 0;
  for (unsigned i = 1; i < jobs && i < n; i++)
    if (!pthread_create(&th[started], NULL, worker, &pool)) started++;
  worker(&pool);
  for (unsigned i = 0; i < started; i++) pthread_join(th[i], NULL);
}

/* ------------------------------------------------------------- filters */

enum cmp_field { F_MODEL, F_FIRMWARE, F_STATE, F_LABEL, F_SOURCE, F_SIMULATED, F_DATE, F_NFIELDS };
static const char *const field_names[F_NFIELDS] = {"model", "firmware", "state", "label",
                                                   "source", "simulated", "date"};

static int field_of(const char *s, size_t len) {
  for (int i = 0; i < F_NFIELDS; i++)
    if (strlen(field_names[i]) == len && !strncmp(s, field_names[i], len)) return i;
  return -1;
}

struct cmp_where {
  int field;
  int negate;
  const char *pattern;      /* glob (borrowed) */
  char from[11], to[11];    /* date range, inclusive, "" = open */
  int sim;                  /* simulated=yes|no */
};

static int is_date(const char *s, size_t n) {
  if (n != 10) return 0;
  for (size_t i = 0; i < 10; i++)
    if (i == 4 || i == 7 ? s[i] != '-' : (s[i] < '0' || s[i] > '9')) return 0;
  return 1;
}

static int where_parse(const char *w, struct cmp_where *x, struct ssdrev_err *err) {
  memset(x, 0, sizeof *x);
  size_t flen = strcspn(w, "!<>=");
  x->field = field_of(w, flen);
  if (x->field < 0)
    return ssdrev_fail(err, -EINVAL,
                       "--where '%s': unknown field '%.*s' (model, firmware, state, label, source, simulated, date)",
                       w, (int)flen, w);
  const char *op = w + flen, *v;
  if (!strncmp(op, "!=", 2)) x->negate = 1, v = op + 2;
  else if (!strncmp(op, ">=", 2) || !strncmp(op, "<=", 2)) v = op + 2;
  else if (*op == '=') v = op + 1;
  else return ssdrev_fail(err, -EINVAL, "--where '%s': expected FIELD=VALUE", w);
  if (x->field == F_DATE) {
    if (x->negate) return ssdrev_fail(err, -EINVAL, "--where '%s': a date takes =, >= or <=", w);
    const char *dots = strstr(v, "..");
    if (op[0] == '>' || op[0] == '<') {
      if (!is_date(v, strlen(v))) return ssdrev_fail(err, -EINVAL, "--where '%s': expected a date YYYY-MM-DD", w);
      memcpy(op[0] == '>' ? x->from : x->to, v, 10);
    } else if (dots) {
      size_t a = (size_t)(dots - v), b = strlen(dots + 2);
      if ((a && !is_date(v, a)) || (b && !is_date(dots + 2, b)))
        return ssdrev_fail(err, -EINVAL, "--where '%s': expected FROM..TO as YYYY-MM-DD", w);
      if (a) memcpy(x->from, v, 10);
      if (b) memcpy(x->to, dots + 2, 10);
    } else {
      if (!is_date(v, strlen(v))) return ssdrev_fail(err, -EINVAL, "--where '%s': expected a date YYYY-MM-DD", w);
      memcpy(x->from, v, 10);
      memcpy(x->to, v, 10);
    }
    return 0;
  }
  if (op[0] == '>' || op[0] == '<') return ssdrev_fail(err, -EINVAL, "--where '%s': >= and <= are for dates", w);
  if (x->field == F_SIMULATED) {
    if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1")) x->sim = 1;
    else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0")) x->sim = 0;
    else return ssdrev_fail(err, -EINVAL, "--where '%s': simulated is yes or no", w);
    return 0;
  }
  x->pattern = v;
  return 0;
}

int render_cmp_where_check(const char *w, struct ssdrev_err *err) {
  struct cmp_where x;
  return where_parse(w, &x, err);
}

static const char *run_field(const struct cmp_run *r, int f) {
  switch (f) {
  case F_MODEL: return r->model;
  case F_FIRMWARE: return r->firmware;
  case F_STATE: return r->state;
  case F_LABEL: return r->label;
  case F_SOURCE: return r->source;
  case F_DATE: return r->date;
  default: return r->simulated ? "simulated" : "real";
  }
}

static int where_match(const struct cmp_where *x, const struct cmp_run *r) {
  if (x->field == F_SIMULATED) return r->simulated == x->sim;
  if (x->field == F_DATE) {
    /* a run without a creation date never matches a date filter */
    if (!r->date[0]) return 0;
    return (!x->from[0] || strcmp(r->date, x->from) >= 0) && (!x->to[0] || strcmp(r->date, x->to) <= 0);
  }
  /* case-insensitive, so "model=pm981*" finds "PM981a" */
  int m = !fnmatch(x->pattern, run_field(r, x->field), FNM_CASEFOLD);
  return x->negate ? !m : m;
}

/* ------------------------------------------------------------ grouping */

static int group_by_parse(const char *list, int *fields, size_t *n, struct ssdrev_err *err) {
  *n = 0;
  if (!list) list = "model,firmware,state";
  for (const char *p = list; *p;) {
    size_t l = strcspn(p, ",");
    int f = field_of(p, l);
    if (f < 0)
      return ssdrev_fail(err, -EINVAL,
                         "--group-by: unknown field '%.*s' (model, firmware, state, label, source, simulated, date)",
                         (int)l, p);
    if (*n < F_NFIELDS) fields[(*n)++] = f;
    p += l + (p[l] == ',');
  }
  if (!*n) return ssdrev_fail(err, -EINVAL, "--group-by: no field given");
  return 0;
}

int render_cmp_group_by_check(const char *list, struct ssdrev_err *err) {
  int f[F_NFIELDS];
  size_t n;
  return group_by_parse(list, f, &n, err);
}

/* The run's group name: its --group-by fields joined with " · ". A run of
 * unknown model is its own group named by its label (imports without
 * --model are not one "unknown model" group). */
static void group_name(const struct cmp_run *r, const int *fields, size_t nf, int ko, char *out, size_t len) {
  size_t k = 0;
  out[0] = 0;
  for (size_t i = 0; i < nf && k + 1 < len; i++) {
    char part[300];
    const char *v = run_field(r, fields[i]);
    if (fields[i] == F_MODEL && !v[0]) snprintf(part, sizeof part, render_cmp_msg(CM_UNKNOWN_MODEL, ko), r->label);
    else if (fields[i] == F_FIRMWARE && !v[0]) snprintf(part, sizeof part, "%s", render_cmp_msg(CM_UNKNOWN_FIRMWARE, ko));
    else if (fields[i] == F_SIMULATED) snprintf(part, sizeof part, "%s", r->simulated ? "sim" : "real");
    else snprintf(part, sizeof part, "%s", v[0] ? v : "-");
    k += (size_t)snprintf(out + k, len - k, "%s%s", i ? " · " : "", part);
    if (k >= len) k = len - 1;
  }
}

static int dbl_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int group_cmp(const void *a, const void *b) {
  return strcmp(((const struct cmp_group *)a)->name, ((const struct cmp_group *)b)->name);
}

static int build_groups(struct cmp_table *t, const struct render_cmp_opts *o, struct ssdrev_err *err) {
  int fields[F_NFIELDS];
  size_t nf;
  int rc = group_by_parse(o->group_by, fields, &nf, err);
  if (rc) return rc;
  t->groups = calloc(t->nok ? t->nok : 1, sizeof *t->groups);
  if (!t->groups) return ssdrev_fail(err, -ENOMEM, "out of memory");
  /* name -> group index; groups are sorted by name once all are known */
  json_t *idx = json_object();
  for (size_t i = 0; i < t->nok; i++) {
    struct cmp_run *r = t->ok[i];
    char name[400];
    group_name(r, fields, nf, t->lang_ko, name, sizeof name);
    json_t *g = json_object_get(idx, name);
    size_t gi;
    if (g) gi = (size_t)json_integer_value(g);
    else {
      gi = t->ngroups++;
      struct cmp_group *grp = &t->groups[gi];
      snprintf(grp->name, sizeof grp->name, "%s", name);
      snprintf(grp->model, sizeof grp->model, "%s", r->model);
      snprintf(grp->firmware, sizeof grp->firmware, "%s", r->firmware);
      snprintf(grp->state, sizeof grp->state, "%s", r->state);
      grp->simulated = 1;
      json_object_set_new(idx, name, json_integer((json_int_t)gi));
    }
    r->group = gi;
    t->groups[gi].nruns++;
    if (!r->simulated) t->groups[gi].simulated = 0;
    if (!strcmp(r->method, "short")) t->groups[gi].has_short = 1;
  }
  /* room was made for one group per run: give back what is not used (a
   * group is about 2.5 KB, 10,000 runs in 120 groups would keep 24 MB) */
  if (t->ngroups) {
    struct cmp_group *ng = realloc(t->groups, t->ngroups * sizeof *t->groups);
    if (ng) t->groups = ng;
  }
  qsort(t->groups, t->ngroups, sizeof *t->groups, group_cmp);
  json_object_clear(idx);
  for (size_t g = 0; g < t->ngroups; g++) json_object_set_new(idx, t->groups[g].name, json_integer((json_int_t)g));
  for (size_t i = 0; i < t->nok; i++) {
    char name[400];
    group_name(t->ok[i], fields, nf, t->lang_ko, name, sizeof name);
    t->ok[i]->group = (size_t)json_integer_value(json_object_get(idx, name));
  }
  json_decref(idx);
  /* short runs beside full ones: shown, marked, not ranked (issue 27) */
  int any_full = 0, any_short = 0;
  for (size_t g = 0; g < t->ngroups; g++) any_full |= !t->groups[g].has_short, any_short |= t->groups[g].has_short;
  for (size_t g = 0; g < t->ngroups; g++)
    t->groups[g].unranked = any_full && any_short && !o->rank_short && t->groups[g].has_short;
  return 0;
}

/* The run's per-pass values of figure f: how many, *first the first. */
static size_t run_passes(const struct cmp_run *r, size_t f, const struct cmp_val **first) {
  size_t lo = 0, hi = r->npvals;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->pvals[mid].fig < f) lo = mid + 1;
    else hi = mid;
  }
  size_t k = lo;
  while (k < r->npvals && r->pvals[k].fig == f) k++;
  *first = r->pvals + lo;
  return k - lo;
}

/* 1 when the ", "-joined list holds v as a whole entry. */
static int mix_has(const char *list, const char *v) {
  size_t n = strlen(v);
  for (const char *p = list; *p;) {
    const char *e = strstr(p, ", ");
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == n && !strncmp(p, v, n)) return 1;
    if (!e) break;
    p = e + 2;
  }
  return 0;
}

static void mix_add(struct cmp_group *g, int k, const char *v) {
  char *list = g->mix[k];
  size_t l = strlen(list);
  if (!v || !*v) v = "-";
  if ((l >= 3 && !strcmp(list + l - 3, "…")) || mix_has(list, v)) return;
  /* a list that would not fit ends in "…": more values than shown */
  if (l + strlen(v) + 2 + 4 >= CMP_MIX_LEN || g->nmix[k] >= 6) {
    snprintf(list + l, CMP_MIX_LEN - l, "%s…", l ? ", " : "");
    return;
  }
  snprintf(list + l, CMP_MIX_LEN - l, "%s%s", l ? ", " : "", v);
  g->nmix[k]++;
}

/* Splits a group name at " · " into at most 16 parts (pointers into buf). */
static size_t name_parts(const char *name, char *buf, size_t len, char **part) {
  snprintf(buf, len, "%s", name);
  size_t n = 0;
  char *p = buf;
  while (n < 16) {
    part[n++] = p;
    char *e = strstr(p, " · ");
    if (!e) break;
    *e = 0;
    p = e + strlen(" · ");
  }
  return n;
}

void render_cmp_describe_groups(struct cmp_table *t, char *common, size_t len) {
  for (size_t g = 0; g < t->ngroups; g++) {
    struct cmp_group *x = &t->groups[g];
    memset(x->mix, 0, sizeof x->mix);
    memset(x->nmix, 0, sizeof x->nmix);
    x->first_measured[0] = x->last_measured[0] = 0;
    x->any_import_date = 0;
  }
  for (size_t i = 0; i < t->nok; i++) {
    const struct cmp_run *r = t->ok[i];
    struct cmp_group *x = &t->groups[r->group];
    const char *v[CMP_NMIX] = {r->model, r->firmware, r->state, r->method, r->engine, r->tool_version, r->kernel};
    for (int k = 0; k < CMP_NMIX; k++) mix_add(x, k, v[k]);
    if (r->measured[0]) {
      if (!x->first_measured[0] || strcmp(r->measured, x->first_measured) < 0)
        snprintf(x->first_measured, sizeof x->first_measured, "%s", r->measured);
      if (strcmp(r->measured, x->last_measured) > 0) snprintf(x->last_measured, sizeof x->last_measured, "%s", r->measured);
    }
    if (r->date_kind == CMP_DATE_IMPORTED) x->any_import_date = 1;
  }
  /* short names: the parts at a position every group shares go; what
   * tells groups apart stays (one group keeps its whole name) */
  common[0] = 0;
  char b0[400], *p0[16];
  size_t n0 = t->ngroups ? name_parts(t->groups[0].name, b0, sizeof b0, p0) : 0;
  int same[16];
  for (size_t k = 0; k < 16; k++) same[k] = t->ngroups > 1 && k < n0;
  for (size_t g = 1; g < t->ngroups; g++) {
    char b[400], *p[16];
    size_t n = name_parts(t->groups[g].name, b, sizeof b, p);
    if (n != n0) memset(same, 0, sizeof same);
    for (size_t k = 0; k < n && k < n0; k++)
      if (strcmp(p[k], p0[k])) same[k] = 0;
  }
  size_t kept = 0;
  for (size_t k = 0; k < n0; k++) kept += !same[k];
  if (!kept) memset(same, 0, sizeof same);
  for (size_t k = 0, l = 0; k < n0 && t->ngroups > 1; k++)
    if (same[k]) l += (size_t)snprintf(common + l, l < len ? len - l : 0, "%s%s", l ? " · " : "", p0[k]);
  for (size_t g = 0; g < t->ngroups; g++) {
    struct cmp_group *x = &t->groups[g];
    char b[400], *p[16];
    size_t n = name_parts(x->name, b, sizeof b, p), l = 0;
    x->short_name[0] = 0;
    for (size_t k = 0; k < n; k++) {
      if (k < 16 && same[k]) continue;
      l += (size_t)snprintf(x->short_name + l, l < sizeof x->short_name ? sizeof x->short_name - l : 0, "%s%s",
                            l ? " · " : "", p[k]);
    }
    if (!x->short_name[0]) snprintf(x->short_name, sizeof x->short_name, "%s", x->name);
  }
}

/* Spread of every figure in every group. Runs are walked once per figure
 * with a scratch array, so memory is figures x groups stats, not runs.
 * A run's samples of a figure are its per-pass values where it holds
 * them (a CDM cell's passes), else its one value. */
static int build_stats(struct cmp_table *t, struct ssdrev_err *err) {
  size_t nf = t->figs->n, ng = t->ngroups;
  size_t cells = nf * ng;
  if (!cells) cells = 1;
  t->stats = calloc(cells, sizeof *t->stats);
  /* per group: the offset of its values in one scratch array */
  size_t *off = calloc(ng + 1, sizeof *off), *fill = calloc(ng, sizeof *fill);
  size_t *cnt = calloc(cells, sizeof *cnt);
  double *scratch = NULL;
  enum { T_CACHE = 512 };
  double tcache[T_CACHE] = {0};
  int rc = 0;
  if (!t->stats || !off || !fill || !cnt) {
    rc = ssdrev_fail(err, -ENOMEM, "out of memory");
    goto out;
  }
  /* one pass: how many samples each (figure, group) has */
  for (size_t i = 0; i < t->nok; i++) {
    const struct cmp_run *r = t->ok[i];
    for (size_t k = 0; k < r->nvals; k++) {
      const struct cmp_val *p;
      size_t np = run_passes(r, r->vals[k].fig, &p);
      cnt[r->vals[k].fig * ng + r->group] += np ? np : 1;
    }
  }
  size_t most = 1; /* the most samples one figure has: the scratch array */
  for (size_t f = 0; f < nf; f++) {
    size_t sum = 0;
    for (size_t g = 0; g < ng; g++) sum += cnt[f * ng + g];
    if (sum > most) most = sum;
  }
  scratch = calloc(most, sizeof *scratch);
  if (!scratch) {
    rc = ssdrev_fail(err, -ENOMEM, "out of memory");
    goto out;
  }
  /* figures in turn; each needs all its values at once for the median */
  for (size_t f = 0; f < nf; f++) {
    off[0] = 0;
    for (size_t g = 0; g < ng; g++) off[g + 1] = off[g] + cnt[f * ng + g], fill[g] = 0;
    if (!off[ng]) continue;
    for (size_t i = 0; i < t->nok; i++) {
      const struct cmp_run *r = t->ok[i];
      const struct cmp_val *v = render_cmp_run_value(r, f), *p;
      if (!v) continue;
      size_t np = run_passes(r, f, &p);
      if (!np) scratch[off[r->group] + fill[r->group]++] = v->v;
      for (size_t k = 0; k < np; k++) scratch[off[r->group] + fill[r->group]++] = p[k].v;
    }
    for (size_t g = 0; g < ng; g++) {
      size_t k = fill[g];
      if (!k) continue;
      double *s = scratch + off[g];
      qsort(s, k, sizeof *s, dbl_cmp);
      /* t at df = n - 1, solved once per n below T_CACHE */
      double tq = NAN;
      if (k >= 2 && k - 1 < T_CACHE) {
        if (!(tcache[k - 1] > 0)) tcache[k - 1] = render_cmp_t975((double)(k - 1));
        tq = tcache[k - 1];
      } else if (k >= 2) {
        tq = render_cmp_t975((double)(k - 1));
      }
      render_cmp_summarize(s, k, tq, &t->stats[f * ng + g]);
      if (t->figs->v[f].headline) t->groups[g].nfigs++;
    }
  }
out:
  free(off);
  free(fill);
  free(scratch);
  free(cnt);
  return rc;
}

/* --baseline: a group name, a model (its first group), or a run (its
 * group); without it the documented rule (render.h). */
static int pick_baseline(struct cmp_table *t, const struct render_cmp_opts *o, struct ssdrev_err *err) {
  if (o->baseline) {
    const char *b = o->baseline;
    for (size_t g = 0; g < t->ngroups; g++)
      if (!strcasecmp(t->groups[g].name, b)) {
        t->baseline_group = g;
        return 0;
      }
    for (size_t g = 0; g < t->ngroups; g++)
      if (!strcasecmp(t->groups[g].model, b)) {
        t->baseline_group = g;
        return 0;
      }
    for (size_t i = 0; i < t->nok; i++) {
      const char *d = t->ok[i]->dir, *base = strrchr(d, '/');
      if (!strcmp(d, b) || (base && !strcmp(base + 1, b)) || !strcmp(t->ok[i]->label, b)) {
        t->baseline_group = t->ok[i]->group;
        return 0;
      }
    }
    return ssdrev_fail(err, -ENOENT, "--baseline '%s' matches no group, model or usable run", b);
  }
  int any_known = 0;
  for (size_t g = 0; g < t->ngroups; g++) any_known |= t->groups[g].model[0] != 0;
  size_t best = SIZE_MAX;
  /* a --short group is no baseline for full ones; when only short groups
   * have a known model, the rule without that (pass 1) */
  for (int pass = 0; pass < 2 && best == SIZE_MAX; pass++)
    for (size_t g = 0; g < t->ngroups; g++) {
      const struct cmp_group *x = &t->groups[g];
      if (any_known && !x->model[0]) continue;
      if (!pass && x->unranked) continue;
      /* groups are sorted by name, so a tie keeps the first */
      if (best == SIZE_MAX || x->nfigs > t->groups[best].nfigs ||
          (x->nfigs == t->groups[best].nfigs && x->nruns > t->groups[best].nruns))
        best = g;
    }
  t->baseline_group = best;
  return 0;
}

/* Each group's relative score over the headline figures it shares with
 * the baseline: exp(mean(log(ratio))) of the medians, a latency's ratio
 * inverted so that above 1 is better; then the rank by score. Linear in
 * figures x groups. */
static const struct cmp_group *score_groups_g; /* qsort has no context; set just before it */

static int score_cmp(const void *a, const void *b) {
  const struct cmp_group *x = &score_groups_g[*(const size_t *)a], *y = &score_groups_g[*(const size_t *)b];
  int nx = isnan(x->score), ny = isnan(y->score);
  if (nx != ny) return nx ? 1 : -1;
  if (!nx && x->score != y->score) return x->score > y->score ? -1 : 1;
  return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int build_scores(struct cmp_table *t, struct ssdrev_err *err) {
  size_t ng = t->ngroups, bg = t->baseline_group;
  double *sum = calloc(ng ? ng : 1, sizeof *sum);
  size_t *order = malloc((ng ? ng : 1) * sizeof *order);
  if (!sum || !order) {
    free(sum), free(order);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  for (size_t g = 0; g < ng; g++) t->groups[g].score_n = 0;
  for (size_t f = 0; f < t->figs->n; f++) {
    const struct cmp_fig *fig = &t->figs->v[f];
    if (!fig->headline) continue;
    const struct cmp_stat *b = cmp_stat_at(t, f, bg);
    if (!b->n || !(b->median > 0)) continue;
    for (size_t g = 0; g < ng; g++) {
      const struct cmp_stat *s = cmp_stat_at(t, f, g);
      if (!s->n || !(s->median > 0)) continue;
      double r = fig->higher_better ? s->median / b->median : b->median / s->median;
      sum[g] += log(r);
      t->groups[g].score_n++;
    }
  }
  for (size_t g = 0; g < ng; g++) {
    struct cmp_group *x = &t->groups[g];
    x->score = x->score_n ? exp(sum[g] / (double)x->score_n) : NAN;
    order[g] = g;
  }
  score_groups_g = t->groups;
  qsort(order, ng, sizeof *order, score_cmp);
  size_t rk = 0;
  for (size_t i = 0; i < ng; i++) {
    struct cmp_group *x = &t->groups[order[i]];
    x->score_rank = isnan(x->score) || x->unranked ? 0 : ++rk;
  }
  free(sum);
  free(order);
  return 0;
}

/* Report order: family, then the order the analyses report figures in
 * (cmp_fig.ord), then by name: the same for the same runs, whichever
 * thread or index saw a figure first. */
static const struct cmp_figs *order_figs_g; /* qsort has no context; set just before it */

static int cdm_panel_cmp(const char *a, const char *b) {
  size_t sa = strcspn(a, " "), sb = strcspn(b, " ");
  int fa = sa == 3 && !strncmp(a, "FOB", 3), fb = sb == 3 && !strncmp(b, "FOB", 3);
  if (fa != fb) return fa ? -1 : 1;
  int c = strncmp(a, b, sa < sb ? sa : sb);
  if (c || sa != sb) return c ? c : sa < sb ? -1 : 1;
  a += sa + (a[sa] == ' ');
  b += sb + (b[sb] == ' ');
  size_t pa = strcspn(a, " "), pb = strcspn(b, " ");
  c = strncmp(a, b, pa < pb ? pa : pb);
  return c ? c : pa < pb ? -1 : pa > pb;
}

static int order_cmp(const void *a, const void *b) {
  const struct cmp_fig *x = &order_figs_g->v[*(const size_t *)a], *y = &order_figs_g->v[*(const size_t *)b];
  if (x->family_id != y->family_id) return x->family_id < y->family_id ? -1 : 1;
  /* CDM keys are "STATE PROFILE CELL": runs of different profiles or states
   * report their cells at the same positions, so state (FOB first) and
   * profile come before the position, keeping each panel together */
  if (!strcmp(x->family, "cdm")) {
    int c = cdm_panel_cmp(x->key, y->key);
    if (c) return c;
  }
  if (x->ord != y->ord) return x->ord < y->ord ? -1 : 1;
  int c = strcmp(x->key, y->key);
  return c ? c : strcmp(x->metric, y->metric);
}

static int build_order(struct cmp_table *t, struct ssdrev_err *err) {
  t->order = malloc((t->figs->n ? t->figs->n : 1) * sizeof *t->order);
  if (!t->order) return ssdrev_fail(err, -ENOMEM, "out of memory");
  for (size_t f = 0; f < t->figs->n; f++) t->order[f] = f;
  t->nfig_order = t->figs->n;
  order_figs_g = t->figs;
  qsort(t->order, t->nfig_order, sizeof *t->order, order_cmp);
  return 0;
}

/* ---------------------------------------------------------------- index */

/* Which root (index) run dir belongs to: dir is ROOT/NAME for a folder
 * input ROOT, as render_cmp_expand builds it. */
static long root_of(const struct render_cmp_opts *o, const char *dir) {
  for (size_t i = 0; i < o->nroots; i++) {
    size_t l = strlen(o->roots[i]);
    if (!strncmp(dir, o->roots[i], l) && dir[l] == '/' && dir[l + 1] && !strchr(dir + l + 1, '/')) return (long)i;
  }
  return -1;
}

static const char *run_name(const struct cmp_run *r) {
  return strrchr(r->dir, '/') + 1;
}

static int name_cmp_p(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Stores the runs read now into their roots' indexes and prunes the
 * entries of runs that are gone. A failure is a warning: the comparison
 * stands without the index. */
static void update_indexes(struct cmp_index **ix, const struct render_cmp_opts *o, struct cmp_run *runs, size_t n,
                           struct cmp_figs *figs, struct render_cmp_result *res) {
  const char **names = malloc((n ? n : 1) * sizeof *names);
  if (!names) return;
  for (size_t k = 0; k < o->nroots; k++) {
    if (!ix[k]) continue;
    struct ssdrev_err err = {{0}};
    size_t nn = 0;
    int rc = render_cmp_index_begin(ix[k]);
    for (size_t i = 0; i < n && !rc; i++) {
      if (runs[i].index_root != (long)k) continue;
      names[nn++] = run_name(&runs[i]);
      if (runs[i].from_index || runs[i].err) continue;
      rc = render_cmp_index_store(ix[k], run_name(&runs[i]), &runs[i], figs);
    }
    qsort(names, nn, sizeof *names, name_cmp_p);
    if (!rc) rc = render_cmp_index_prune(ix[k], names, nn);
    /* a failed write's reason before the commit's ("no transaction is
     * active": SQLite rolled back at the failure) */
    if (rc)
      snprintf(err.msg, sizeof err.msg, "cannot write '%s/%s': %s", o->roots[k], CMP_INDEX_NAME,
               render_cmp_index_why(ix[k]));
    if (render_cmp_index_commit(ix[k], rc ? NULL : &err) || rc)
      snprintf(res->index_warning, sizeof res->index_warning, "index of '%s' not updated: %s", o->roots[k],
               err.msg[0] ? err.msg : "write failed");
  }
  free(names);
}

/* ---------------------------------------------------------------- run */

int render_cmp_run(char *const *dirs, size_t n, const struct render_cmp_opts *o, render_cmp_skip_fn skip,
                   void *arg, struct render_cmp_result *res, struct ssdrev_err *err) {
  memset(res, 0, sizeof *res);
  if (!o->out_dir) return ssdrev_fail(err, -EINVAL, "no output directory given (--out)");
  struct cmp_where where[RENDER_CMP_MAX_WHERE];
  for (size_t i = 0; i < o->nwhere && i < RENDER_CMP_MAX_WHERE; i++) {
    int rc = where_parse(o->where[i], &where[i], err);
    if (rc) return rc;
  }
  int rc = render_cmp_group_by_check(o->group_by, err);
  if (rc) return rc;
  struct cmp_run *runs = calloc(n ? n : 1, sizeof *runs);
  struct cmp_index **ix = calloc(o->nroots ? o->nroots : 1, sizeof *ix);
  struct cmp_figs figs = {.index = json_object()};
  pthread_mutex_init(&figs.lock, NULL);
  struct cmp_table t = {.figs = &figs, .lang_ko = o->lang_ko};
  t.ok = calloc(n ? n : 1, sizeof *t.ok);
  if (!runs || !t.ok || !ix) {
    rc = ssdrev_fail(err, -ENOMEM, "out of memory");
    goto out;
  }
  /* jansson seeds its hash function on first use; do it before the threads */
  json_object_seed(0);
  for (size_t i = 0; i < n; i++) {
    runs[i].dir = dirs[i];
    runs[i].index_root = o->no_index ? -1 : root_of(o, dirs[i]);
  }
  /* only a folder that holds runs gets an index (a run given itself never) */
  for (size_t k = 0; k < o->nroots && !o->no_index; k++) {
    int used = 0;
    for (size_t i = 0; i < n && !used; i++) used = runs[i].index_root == (long)k;
    if (!used) continue;
    struct ssdrev_err ie = {{0}};
    ix[k] = render_cmp_index_open(o->roots[k], res->index_notice, sizeof res->index_notice, &ie);
    if (!ix[k]) snprintf(res->index_warning, sizeof res->index_warning, "%s", ie.msg);
  }
  for (size_t i = 0; i < n; i++) {
    struct cmp_run *r = &runs[i];
    run_sig(r);
    /* an unchanged run comes from its root's index: no archive file is opened */
    if (!o->reanalyze && r->index_root >= 0 && ix[r->index_root]) {
      int got = render_cmp_index_load(ix[r->index_root], run_name(r), r, &figs);
      if (got > 0) r->from_index = 1;
    }
  }
  prepare_all(runs, n, o, &figs);
  /* a run another process still writes is not a bad archive: comparing
   * the others would present part of the set as the set */
  size_t nbusy = 0, first_busy = 0;
  for (size_t i = n; i-- > 0;) {
    if (!runs[i].busy) continue;
    nbusy++;
    first_busy = i;
  }
  if (nbusy) {
    rc = ssdrev_fail(err, -EBUSY, "%zu of %zu runs could not be analyzed: %s%s; nothing was written (compare again "
                     "when %s done, or leave %s out)", nbusy, n, runs[first_busy].err,
                     nbusy > 1 ? " (and others)" : "", nbusy > 1 ? "they are" : "it is", nbusy > 1 ? "them" : "it");
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    struct cmp_run *r = &runs[i];
    if (r->err) {
      if (skip) skip(r->dir, r->err, arg);
      res->runs_skipped++;
      continue;
    }
    res->from_index += r->from_index;
    res->read_archives += !r->from_index;
    res->analyzed_now += r->analyzed;
    for (size_t k = 0; k < o->nwhere && !r->filtered; k++) r->filtered = !where_match(&where[k], r);
    if (r->filtered) {
      res->runs_filtered++;
      continue;
    }
    if (r->warn && o->warn) o->warn(r->dir, r->warn, o->warn_arg);
    t.ok[t.nok++] = r;
  }
  update_indexes(ix, o, runs, n, &figs, res);
  if (!t.nok) {
    if (res->runs_filtered)
      rc = ssdrev_fail(err, -ENOENT, "no run matches the --where filters (%zu usable run%s filtered out)",
                       res->runs_filtered, res->runs_filtered == 1 ? "" : "s");
    else rc = ssdrev_fail(err, -ENOENT, "no usable run archive among %zu input%s", n, n == 1 ? "" : "s");
  }
  if (!rc) rc = build_groups(&t, o, err);
  if (!rc) rc = build_stats(&t, err);
  if (!rc) rc = pick_baseline(&t, o, err);
  if (!rc) rc = build_scores(&t, err);
  if (!rc) render_cmp_describe_groups(&t, t.common, sizeof t.common);
  if (!rc) rc = build_order(&t, err);
  /* the outputs appear together or not at all: a failed one (a full disk)
   * takes back the others and the directories made (base/ssdrev.h); the
   * runs' own analysis.json, written above, is not part of it */
  struct ssdrev_outputs *group = NULL;
  if (!rc && !(group = ssdrev_outputs_begin(err))) rc = -ENOMEM;
  if (!rc) rc = ssdrev_mkdirs(o->out_dir, err);
  if (!rc) rc = render_compare_write_outputs(&t, o, res, err);
  ssdrev_outputs_end(group, rc == 0);
  res->runs_ok = t.nok;
  res->groups = t.ngroups;
  res->metrics = figs.n;
out:
  for (size_t k = 0; ix && k < o->nroots; k++) render_cmp_index_close(ix[k]);
  free(ix);
  free(t.groups);
  free(t.stats);
  free(t.order);
  free(t.ok);
  for (size_t i = 0; runs && i < n; i++)
    free(runs[i].vals), free(runs[i].pvals), free(runs[i].err), free(runs[i].warn);
  free(runs);
  render_cmp_figs_free(&figs);
  pthread_mutex_destroy(&figs.lock);
  return rc;
}
