/* compare.c — batch compare: finds run archives, loads or computes their
 * analyses on worker threads, groups runs by model / firmware / fill state
 * and builds the group table that render/compare/out.c writes. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "render/compare/compare_int.h"
#include "archive/archive.h"

void render_cmp_opts_defaults(struct render_cmp_opts *o) {
  memset(o, 0, sizeof *o);
  o->formats = RENDER_CMP_MD | RENDER_CMP_CSV | RENDER_CMP_CHARTS;
  o->jobs = 2;
  o->max_charts = 12;
}

int render_cmp_formats_parse(const char *list, unsigned *mask, struct ssdrev_err *err) {
  static const struct { const char *name; unsigned bit; } fmts[] = {
      {"md", RENDER_CMP_MD}, {"csv", RENDER_CMP_CSV}, {"pdf", RENDER_CMP_PDF}, {"charts", RENDER_CMP_CHARTS},
  };
  *mask = 0;
  const char *p = list;
  while (p && *p) {
    size_t len = strcspn(p, ",");
    unsigned bit = 0;
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
      if (len == strlen(fmts[i].name) && !strncmp(p, fmts[i].name, len)) bit = fmts[i].bit;
    if (!bit) return ssdrev_fail(err, -EINVAL, "unknown format '%.*s' (md, csv, pdf, charts)", (int)len, p);
    *mask |= bit;
    p += len + (p[len] == ',');
  }
  if (!*mask) return ssdrev_fail(err, -EINVAL, "no format given (md, csv, pdf, charts)");
  /* the PDF and Markdown show the charts */
  if (*mask & (RENDER_CMP_PDF | RENDER_CMP_MD)) *mask |= RENDER_CMP_CHARTS;
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

/* Loads a fresh analysis.json, or analyzes the run (and so writes it). */
static void prepare_run(struct cmp_run *r, const struct render_cmp_opts *o) {
  struct ssdrev_err err = {{0}};
  struct archive *run;
  if (archive_open(&run, r->dir, &err)) {
    snprintf(r->err, sizeof r->err, "%s", err.msg);
    return;
  }
  r->manifest = json_incref(run->manifest);
  uint32_t mcrc = run->manifest_crc32c;
  archive_free(run);
  char apath[4200];
  snprintf(apath, sizeof apath, "%s/" ARCHIVE_ANALYSIS, r->dir);
  if (!o->reanalyze) {
    /* the same staleness rule as `ssdrev report` (analyze_is_fresh) */
    r->analysis = ssdrev_load_json(apath, NULL);
    if (analyze_is_fresh(r->analysis, mcrc)) return;
    json_decref(r->analysis);
    r->analysis = NULL; /* missing, stale or broken: analyze again */
  }
  struct analyze_opts ao;
  analyze_opts_defaults(&ao);
  json_t *a = NULL;
  if (analyze_run(r->dir, &ao, &a, &err)) {
    snprintf(r->err, sizeof r->err, "%s", err.msg[0] ? err.msg : "analysis failed");
    return;
  }
  r->analysis = a;
  r->analyzed = 1;
}

/* A run whose every logged test failed to load (all logs missing or
 * corrupt) has no figures: it is a bad archive, not a run to average. */
static void check_usable(struct cmp_run *r) {
  if (r->err[0] || !r->analysis) return;
  size_t logged = 0, failed = 0;
  const char *first = NULL, *k;
  json_t *t;
  json_object_foreach(json_object_get(r->analysis, "tests"), k, t) {
    const char *e = json_string_value(json_object_get(t, "error"));
    if (!e && !json_object_get(t, "log_source") && !json_object_get(t, "log")) continue;
    logged++;
    if (e) {
      failed++;
      if (!first) first = e;
    }
  }
  if (logged && failed == logged) {
    snprintf(r->err, sizeof r->err, "no readable test (%zu of %zu failed; first: %s)", failed, logged, first);
    json_decref(r->analysis);
    r->analysis = NULL;
  } else if (failed) {
    snprintf(r->warn, sizeof r->warn, "%zu of %zu tests unreadable, compared without them (first: %s)", failed,
             logged, first);
  }
}

struct cmp_pool {
  struct cmp_run *runs;
  size_t n;
  atomic_size_t next;
  const struct render_cmp_opts *o;
};

static void *worker(void *arg) {
  struct cmp_pool *p = arg;
  for (;;) {
    size_t i = atomic_fetch_add(&p->next, 1);
    if (i >= p->n) break;
    prepare_run(&p->runs[i], p->o);
    check_usable(&p->runs[i]);
  }
  return NULL;
}

/* Runs prepare_run over every run on o->jobs threads (the caller is one). */
static void prepare_all(struct cmp_run *runs, size_t n, const struct render_cmp_opts *o) {
  struct cmp_pool pool = {.runs = runs, .n = n, .o = o};
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

static const char *dut_field(const struct cmp_run *r, const char *key) {
  const char *v = json_string_value(json_object_get(json_object_get(r->analysis, "dut"), key));
  if (!v) v = json_string_value(json_object_get(json_object_get(r->manifest, "dut"), key));
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
static void run_state(const struct cmp_run *r, char *out, size_t len) {
  const char *s = json_string_value(json_object_get(r->manifest, "state"));
  if (s && *s) {
    snprintf(out, len, "%s", s);
    return;
  }
  out[0] = 0;
  size_t i;
  json_t *row;
  json_array_foreach(json_object_get(r->analysis, "cdm"), i, row) {
    const char *st = json_string_value(json_object_get(row, "state"));
    if (!st || has_state(out, st)) continue;
    size_t l = strlen(out);
    snprintf(out + l, len - l, "%s%s", l ? "+" : "", st);
  }
  if (!out[0]) snprintf(out, len, "-");
}

static void fill_identity(struct cmp_run *r) {
  const char *m = dut_field(r, "model"), *f = dut_field(r, "firmware");
  snprintf(r->model, sizeof r->model, "%s", m ? m : "unknown model");
  snprintf(r->firmware, sizeof r->firmware, "%s", f ? f : "unknown firmware");
  run_state(r, r->state, sizeof r->state);
  const char *l = json_string_value(json_object_get(r->analysis, "label"));
  if (!l) l = json_string_value(json_object_get(r->manifest, "label"));
  const char *base = strrchr(r->dir, '/');
  snprintf(r->label, sizeof r->label, "%s", l ? l : base ? base + 1 : r->dir);
}

static size_t find_or_add_group(struct cmp_table *t, const struct cmp_run *r) {
  for (size_t g = 0; g < t->ngroups; g++)
    if (!strcmp(t->groups[g].model, r->model) && !strcmp(t->groups[g].firmware, r->firmware) &&
        !strcmp(t->groups[g].state, r->state))
      return g;
  struct cmp_group *grp = &t->groups[t->ngroups];
  memset(grp, 0, sizeof *grp);
  snprintf(grp->model, sizeof grp->model, "%s", r->model);
  snprintf(grp->firmware, sizeof grp->firmware, "%s", r->firmware);
  snprintf(grp->state, sizeof grp->state, "%s", r->state);
  snprintf(grp->name, sizeof grp->name, "%s / %s / %s", r->model, r->firmware, r->state);
  return t->ngroups++;
}

static int dbl_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median, min and max of the group's values for one comparison row. */
static json_t *group_stats(const json_t *values, const struct cmp_table *t, size_t g, double *scratch) {
  size_t k = 0;
  for (size_t i = 0; i < t->nok; i++) {
    const json_t *v = json_array_get(values, i);
    /* every compared figure is >= 0; the analysis writes -1 for "not
     * measured" (CDM 6 and imports without latency), which is no value */
    if (t->ok[i]->group == g && json_is_number(v) && json_number_value(v) >= 0) scratch[k++] = json_number_value(v);
  }
  if (!k) return json_null();
  qsort(scratch, k, sizeof *scratch, dbl_cmp);
  double med = k % 2 ? scratch[k / 2] : (scratch[k / 2 - 1] + scratch[k / 2]) / 2;
  return json_pack("{s:f, s:f, s:f, s:I}", "median", med, "min", scratch[0], "max", scratch[k - 1], "n",
                   (json_int_t)k);
}

static int build_table(struct cmp_table *t, const struct render_cmp_opts *o, struct ssdrev_err *err) {
  t->groups = calloc(t->nok ? t->nok : 1, sizeof *t->groups);
  if (!t->groups) return ssdrev_fail(err, -ENOMEM, "out of memory");
  for (size_t i = 0; i < t->nok; i++) {
    fill_identity(t->ok[i]);
    t->ok[i]->group = find_or_add_group(t, t->ok[i]);
    t->groups[t->ok[i]->group].nruns++;
  }
  t->baseline_run = 0;
  if (o->baseline) {
    size_t i = 0;
    for (; i < t->nok; i++) {
      const char *d = t->ok[i]->dir, *b = strrchr(d, '/');
      if (!strcmp(d, o->baseline) || (b && !strcmp(b + 1, o->baseline)) || !strcmp(t->ok[i]->label, o->baseline))
        break;
    }
    if (i == t->nok) return ssdrev_fail(err, -ENOENT, "--baseline '%s' matches no usable run", o->baseline);
    t->baseline_run = i;
  }
  t->baseline_group = t->ok[t->baseline_run]->group;
  const json_t **an = calloc(t->nok, sizeof *an);
  double *scratch = calloc(t->nok, sizeof *scratch);
  if (!an || !scratch) {
    free(an);
    free(scratch);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < t->nok; i++) an[i] = t->ok[i]->analysis;
  json_t *cmp = analyze_compare(an, t->nok, err);
  free(an);
  if (!cmp) {
    free(scratch);
    return -EINVAL;
  }
  t->rows = json_array();
  size_t i;
  json_t *row;
  json_array_foreach(json_object_get(cmp, "rows"), i, row) {
    const json_t *values = json_object_get(row, "values");
    json_t *out = json_object();
    json_object_set(out, "section", json_object_get(row, "section"));
    json_object_set(out, "key", json_object_get(row, "key"));
    json_object_set(out, "metric", json_object_get(row, "metric"));
    json_t *gs = json_array(), *ratios = json_array();
    for (size_t g = 0; g < t->ngroups; g++) json_array_append_new(gs, group_stats(values, t, g, scratch));
    const json_t *base = json_object_get(json_array_get(gs, t->baseline_group), "median");
    for (size_t g = 0; g < t->ngroups; g++) {
      const json_t *m = json_object_get(json_array_get(gs, g), "median");
      double b = json_number_value(base);
      json_array_append_new(ratios, m && base && b != 0 ? json_real(json_number_value(m) / b) : json_null());
    }
    json_object_set_new(out, "groups", gs);
    json_object_set_new(out, "ratios", ratios);
    json_array_append_new(t->rows, out);
  }
  json_decref(cmp);
  free(scratch);
  return 0;
}

int render_cmp_run(char *const *dirs, size_t n, const struct render_cmp_opts *o, render_cmp_skip_fn skip,
                   void *arg, struct render_cmp_result *res, struct ssdrev_err *err) {
  memset(res, 0, sizeof *res);
  if (!o->out_dir) return ssdrev_fail(err, -EINVAL, "no output directory given (--out)");
  struct cmp_run *runs = calloc(n ? n : 1, sizeof *runs);
  struct cmp_table t = {0};
  t.ok = calloc(n ? n : 1, sizeof *t.ok);
  if (!runs || !t.ok) {
    free(runs);
    free(t.ok);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < n; i++) runs[i].dir = dirs[i];
  /* jansson seeds its hash function on first use; do it before the threads */
  json_object_seed(0);
  prepare_all(runs, n, o);
  for (size_t i = 0; i < n; i++) {
    if (runs[i].err[0] || !runs[i].analysis) {
      if (skip) skip(runs[i].dir, runs[i].err[0] ? runs[i].err : "no analysis", arg);
      res->runs_skipped++;
    } else {
      if (runs[i].warn[0] && o->warn) o->warn(runs[i].dir, runs[i].warn, o->warn_arg);
      t.ok[t.nok++] = &runs[i];
    }
  }
  int rc = 0;
  if (!t.nok) rc = ssdrev_fail(err, -ENOENT, "no usable run archive among %zu input%s", n, n == 1 ? "" : "s");
  if (!rc) rc = build_table(&t, o, err);
  if (!rc) rc = ssdrev_mkdirs(o->out_dir, err);
  if (!rc) rc = render_compare_write_outputs(&t, o, res, err);
  res->runs_ok = t.nok;
  res->groups = t.ngroups;
  res->metrics = json_array_size(t.rows);
  json_decref(t.rows);
  free(t.groups);
  free(t.ok);
  for (size_t i = 0; i < n; i++) {
    json_decref(runs[i].analysis);
    json_decref(runs[i].manifest);
  }
  free(runs);
  return rc;
}
