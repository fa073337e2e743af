/* data.c — loading analyzed runs and looking values up in analysis.json. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "render/render_int.h"
#include "archive/archive.h"

/* Colour-blind-safe (Okabe-Ito based), dark enough for white paper. */
static const double palette[][3] = {
    {0.00, 0.45, 0.70}, {0.84, 0.37, 0.00}, {0.00, 0.62, 0.45}, {0.80, 0.47, 0.65},
    {0.35, 0.35, 0.35}, {0.90, 0.62, 0.00}, {0.34, 0.71, 0.91}, {0.60, 0.20, 0.20},
};

void render_palette(size_t i, double rgb[3]) {
  const double *c = palette[i % (sizeof palette / sizeof palette[0])];
  rgb[0] = c[0];
  rgb[1] = c[1];
  rgb[2] = c[2];
}

const struct render_data_workload render_data_workloads[3] = {
    {"read", "RND Read", MSG_T_RND_READ}, {"mix70", "RND Read 70%", MSG_T_RND_MIX70}, {"write", "RND Write", MSG_T_RND_WRITE}};

/* ------------------------------------------------------------ text buffer */

static void render_buf_grow(struct render_buf *b, size_t add) {
  if (b->oom || b->len + add + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 1024;
  while (cap < b->len + add + 1) cap *= 2;
  char *s = realloc(b->s, cap);
  if (!s) {
    b->oom = 1;
    return;
  }
  b->s = s;
  b->cap = cap;
}

void render_buf_putn(struct render_buf *b, const char *s, size_t n) {
  render_buf_grow(b, n);
  if (b->oom) return;
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

void render_buf_puts(struct render_buf *b, const char *s) { render_buf_putn(b, s, strlen(s)); }

void render_buf_base64(struct render_buf *b, const unsigned char *p, size_t n) {
  static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
    char q[4] = {tab[v >> 18 & 63], tab[v >> 12 & 63], i + 1 < n ? tab[v >> 6 & 63] : '=', i + 2 < n ? tab[v & 63] : '='};
    render_buf_putn(b, q, 4);
  }
}

void render_buf_printf(struct render_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  render_buf_grow(b, (size_t)n);
  if (b->oom) return;
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void render_buf_free(struct render_buf *b) {
  free(b->s);
  memset(b, 0, sizeof *b);
}

/* ------------------------------------------------------------------ runs */

static int load_one(struct render_run *r, const char *dir, struct ssdrev_err *err) {
  memset(r, 0, sizeof *r);
  if (strlen(dir) >= sizeof r->dir - 32)
    return ssdrev_fail(err, -ENAMETOOLONG, "run directory name too long: '%s'", dir);
  snprintf(r->dir, sizeof r->dir, "%s", dir);
  char path[4200];
  snprintf(path, sizeof path, "%s/" ARCHIVE_MANIFEST, dir);
  struct stat st;
  /* optional (imported analyses may lack it), but one that is there must
   * open as `ssdrev analyze` opens it: a broken manifest is an error naming
   * its line and column, never a reason to fall back on a stale analysis */
  int have_manifest = lstat(path, &st) == 0;
  uint32_t mcrc = 0;
  if (have_manifest) {
    struct archive *run;
    int rc = archive_open(&run, dir, err);
    if (rc < 0) return rc;
    r->manifest = json_incref(run->manifest);
    mcrc = run->manifest_crc32c;
    archive_free(run);
  }
  snprintf(path, sizeof path, "%s/" ARCHIVE_ANALYSIS, dir);
  struct ssdrev_err e2 = {{0}};
  r->analysis = ssdrev_load_json(path, &e2);
  /* Charts come from the raw logs: a run never analyzed, or changed since
   * (a resumed review, a re-import), is analyzed first (render.h says so). */
  if (have_manifest && !analyze_is_fresh(r->analysis, mcrc)) {
    json_decref(r->analysis);
    r->analysis = NULL;
    struct analyze_opts ao;
    analyze_opts_defaults(&ao);
    int rc = analyze_run(dir, &ao, &r->analysis, err);
    if (rc < 0) return rc;
    r->reanalyzed = rc == ANALYZE_RUN_IN_MEMORY ? 2 : 1; /* 2: a read-only archive, nothing written */
  }
  if (!r->analysis)
    return ssdrev_fail(err, -ENOENT, "run '%s' has no usable analysis.json (run `ssdrev analyze %s` first): %s",
                       dir, dir, e2.msg);
  if (!json_is_object(r->analysis)) {
    json_decref(r->analysis);
    r->analysis = NULL;
    return ssdrev_fail(err, -EINVAL, "'%s' is not a JSON object", path);
  }
  const char *label = render_data_str(r->analysis, "label", NULL);
  if (!label && r->manifest) label = render_data_str(r->manifest, "label", NULL);
  if (!label) {
    const char *slash = strrchr(dir, '/');
    label = slash && slash[1] ? slash + 1 : dir;
  }
  snprintf(r->label, sizeof r->label, "%s", label);
  r->simulated = json_is_true(json_object_get(r->analysis, "simulated")) ||
                 (r->manifest && json_is_true(json_object_get(r->manifest, "simulated")));
  r->short_review = json_object_get(r->analysis, "short") != NULL ||
                    (r->manifest && json_object_get(r->manifest, "short") != NULL);
  return 0;
}

double render_run_short_gib(const struct render_run *r) {
  if (!r || !r->short_review) return 0;
  const json_t *sh = json_object_get(r->analysis, "short");
  if (!json_is_object(sh) && r->manifest) sh = json_object_get(r->manifest, "short");
  double b = render_data_num(sh, "region_bytes", 0);
  /* an archive that says short without its region: a short run all the same */
  return isfinite(b) && b > 0 ? b / 1073741824.0 : -1;
}

int render_runs_load(struct render_runs *rs, const char *const *dirs, size_t n,
                     struct ssdrev_err *err) {
  memset(rs, 0, sizeof *rs);
  if (n == 0) return ssdrev_fail(err, -EINVAL, "no run directories given");
  rs->v = calloc(n, sizeof *rs->v);
  if (!rs->v) return ssdrev_fail(err, -ENOMEM, "out of memory loading %zu runs", n);
  for (size_t i = 0; i < n; i++) {
    int rc = load_one(&rs->v[i], dirs[i], err);
    if (rc < 0) {
      rs->n = i + 1;
      render_runs_release(rs);
      return rc;
    }
    rs->n = i + 1;
  }
  return 0;
}

void render_runs_release(struct render_runs *rs) {
  for (size_t i = 0; i < rs->n; i++) {
    json_decref(rs->v[i].analysis);
    json_decref(rs->v[i].manifest);
  }
  free(rs->v);
  memset(rs, 0, sizeof *rs);
}

const struct render_run *render_runs_find(const struct render_runs *rs, const char *which) {
  if (!which) return NULL;
  for (size_t i = 0; i < rs->n; i++)
    if (!strcmp(rs->v[i].label, which)) return &rs->v[i];
  char *end = NULL;
  errno = 0;
  unsigned long k = strtoul(which, &end, 10);
  if (!errno && end != which && !*end && k >= 1 && k <= rs->n) return &rs->v[k - 1];
  return NULL;
}

/* --------------------------------------------------------------- lookups */

double render_data_num(const json_t *o, const char *key, double dflt) {
  json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : dflt;
}

const char *render_data_str(const json_t *o, const char *key, const char *dflt) {
  json_t *v = json_object_get(o, key);
  return json_is_string(v) ? json_string_value(v) : dflt;
}

json_t *render_data_path(json_t *root, const char *path) {
  json_t *cur = root;
  const char *p = path;
  while (cur && *p) {
    size_t rest = strlen(p), take = 0;
    json_t *next = NULL;
    if (json_is_object(cur)) {
      /* longest prefix of the rest, ending at a dot or the end, that is a key */
      for (size_t k = rest; k > 0; k--) {
        if (k < rest && p[k] != '.') continue;
        char key[256];
        if (k >= sizeof key) continue;
        memcpy(key, p, k);
        key[k] = 0;
        next = json_object_get(cur, key);
        if (next) {
          take = k;
          break;
        }
      }
    } else if (json_is_array(cur)) {
      char *end = NULL;
      unsigned long idx = strtoul(p, &end, 10);
      if (end != p && (*end == '.' || !*end)) {
        next = json_array_get(cur, idx);
        take = (size_t)(end - p);
      }
    }
    if (!next) return NULL;
    cur = next;
    p += take;
    if (*p == '.') p++;
  }
  return cur;
}

json_t *render_data_tail_test(const struct render_run *r, const char *w) {
  json_t *tests = json_object_get(r->analysis, "tests");
  const char *name;
  json_t *t;
  json_object_foreach(tests, name, t) {
    if (!strcmp(render_data_str(t, "kind", ""), "tail") && !strcmp(render_data_str(t, "workload", ""), w)) return t;
  }
  return NULL;
}

/* pct list entries: {"p": 99.9, "lat_us": 281.94} (lat_ns as a fallback) */
static int pct_list_find(const json_t *list, double p, double *out) {
  size_t i;
  json_t *e;
  json_array_foreach(list, i, e) {
    if (fabs(render_data_num(e, "p", -1) - p) < 1e-9) {
      double us = render_data_num(e, "lat_us", -1);
      if (us < 0 && render_data_num(e, "lat_ns", -1) >= 0) us = render_data_num(e, "lat_ns", 0) / 1000.0;
      if (us < 0) return -ENOENT;
      *out = us;
      return 0;
    }
  }
  return -ENOENT;
}

static json_t *test_pct_list(const json_t *test) {
  json_t *ops = json_object_get(test, "ops");
  json_t *all = json_object_get(ops, "all");
  return json_object_get(all, "pct");
}

int render_data_tail_us(const struct render_run *r, const char *w, double p, double *out_us) {
  json_t *tw = json_object_get(json_object_get(r->analysis, "tail"), w);
  if (json_is_object(tw)) {
    char key[64];
    snprintf(key, sizeof key, "p%g_us", p);
    json_t *v = json_object_get(tw, key);
    if (!v) {
      /* "p99_9_us": the same key with '_' for the decimal point */
      for (char *c = key; *c; c++)
        if (*c == '.') *c = '_';
      v = json_object_get(tw, key);
    }
    if (json_is_number(v)) {
      *out_us = json_number_value(v);
      return 0;
    }
    if (json_is_array(json_object_get(tw, "pct")) && !pct_list_find(json_object_get(tw, "pct"), p, out_us))
      return 0;
  }
  json_t *t = render_data_tail_test(r, w);
  if (t && !pct_list_find(test_pct_list(t), p, out_us)) return 0;
  return -ENOENT;
}

static void sort_pairs(double *p, double *v, size_t n) {
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && p[j - 1] > p[j]; j--) {
      double t = p[j];
      p[j] = p[j - 1];
      p[j - 1] = t;
      t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
}

size_t render_data_tail_curve(const struct render_run *r, const char *w, double *p, double *lat_us,
                     size_t max) {
  size_t n = 0;
  /* the tail test's own list is the densest; else the summary's keys */
  json_t *t = render_data_tail_test(r, w);
  json_t *list = t ? test_pct_list(t) : NULL;
  if (!json_array_size(list)) list = json_object_get(json_object_get(json_object_get(r->analysis, "tail"), w), "pct");
  size_t i;
  json_t *e;
  json_array_foreach(list, i, e) {
    if (n >= max) break;
    double pp = render_data_num(e, "p", -1), us;
    if (pp > 0 && pp < 100 && !pct_list_find(list, pp, &us)) {
      p[n] = pp;
      lat_us[n++] = us;
    }
  }
  if (n == 0) {
    json_t *analysis_pcts = json_object_get(r->analysis, "percentiles");
    static const double dflt[] = {50, 90, 99, 99.9, 99.99, 99.999};
    size_t np = json_array_size(analysis_pcts) ? json_array_size(analysis_pcts) : 6;
    for (size_t k = 0; k < np && n < max; k++) {
      double pp = json_array_size(analysis_pcts) ? json_number_value(json_array_get(analysis_pcts, k)) : dflt[k];
      double us;
      if (pp > 0 && pp < 100 && !render_data_tail_us(r, w, pp, &us)) {
        p[n] = pp;
        lat_us[n++] = us;
      }
    }
  }
  sort_pairs(p, lat_us, n);
  return n;
}

/* A cell name's place in CrystalDiskMark's order ("SEQ1M Q8T1",
 * "RND4K Q32T16"): sequential before random, the larger block first, then
 * the deeper load (Q x T, then Q) first -- CDM 8's SEQ1M Q8T1, SEQ1M Q1T1,
 * RND4K Q32T1, RND4K Q1T1, its NVMe profile's SEQ1M Q8T1, SEQ128K Q32T1,
 * RND4K Q32T16, RND4K Q1T1, CDM 6's Q8T8 before Q32T1. 0 when NAME is not
 * of that form (such cells keep their order, after the others). */
static int cdm_cell_key(const char *name, double key[4]) {
  int kind = !strncmp(name, "SEQ", 3) ? 0 : !strncmp(name, "RND", 3) ? 1 : -1;
  if (kind < 0) return 0;
  char *end;
  double blk = strtod(name + 3, &end);
  if (end == name + 3) return 0;
  blk *= *end == 'M' ? 1024 : *end == 'K' ? 1 : 0;
  const char *q = strstr(end, " Q");
  if (!q || !blk) return 0;
  double qd = strtod(q + 2, &end);
  if (end == q + 2 || *end != 'T') return 0;
  const char *tp = end + 1;
  double th = strtod(tp, &end);
  if (end == tp) return 0;
  key[0] = kind, key[1] = -blk, key[2] = -qd * th, key[3] = -qd;
  return 1;
}

static int cdm_cell_before(const json_t *a, const json_t *b) {
  double ka[4], kb[4];
  int ha = cdm_cell_key(render_data_str(a, "cell", ""), ka), hb = cdm_cell_key(render_data_str(b, "cell", ""), kb);
  if (!ha || !hb) return ha && !hb;
  for (int i = 0; i < 4; i++)
    if (ka[i] != kb[i]) return ka[i] < kb[i];
  return 0;
}

void render_data_cdm_sort(json_t **cells, size_t n) {
  /* insertion sort: stable, a few cells */
  for (size_t i = 1; i < n; i++) {
    json_t *c = cells[i];
    size_t j = i;
    for (; j > 0 && cdm_cell_before(c, cells[j - 1]); j--) cells[j] = cells[j - 1];
    cells[j] = c;
  }
}

static double th_num(const json_t *o, const char *k) {
  const json_t *v = json_object_get(o, k);
  double d = json_is_number(v) ? json_number_value(v) : NAN;
  return fabs(d) < 1e12 ? d : NAN;
}

/* a drop that is not the throttle, with its numbers */
static int th_drop_listed(const json_t *p) {
  return !json_is_true(json_object_get(p, "thermal")) && isfinite(th_num(p, "t_s")) && th_num(p, "before_mb_s") > 0 &&
         isfinite(th_num(p, "after_mb_s"));
}

int render_data_thermal_kept(const size_t *keep, size_t nk, size_t j) {
  for (size_t q = 0; q < nk; q++)
    if (keep[q] == j) return 1;
  return 0;
}

size_t render_data_thermal_drops(const json_t *th, size_t keep[RENDER_THERMAL_DROPS_MAX], size_t *listed) {
  const json_t *pts = json_object_get(th, "points"), *p;
  size_t j, np = json_array_size(pts), nk = 0;
  for (size_t pick = 0; pick < RENDER_THERMAL_DROPS_MAX; pick++) {
    size_t best = np;
    double bd = -1;
    json_array_foreach(pts, j, p) {
      if (render_data_thermal_kept(keep, nk, j) || !th_drop_listed(p)) continue;
      double d = (th_num(p, "before_mb_s") - th_num(p, "after_mb_s")) / th_num(p, "before_mb_s");
      if (d > bd) bd = d, best = j;
    }
    if (best == np) break;
    keep[nk++] = best;
  }
  if (listed) {
    *listed = 0;
    json_array_foreach(pts, j, p) * listed += (size_t)th_drop_listed(p);
  }
  return nk;
}

size_t render_data_cdm_cells(const struct render_run *r, const char *state, json_t **cells, size_t max) {
  size_t n = 0, i;
  json_t *c;
  json_array_foreach(json_object_get(r->analysis, "cdm"), i, c) {
    if (n < max && !strcmp(render_data_str(c, "state", ""), state)) cells[n++] = c;
  }
  render_data_cdm_sort(cells, n);
  return n;
}
