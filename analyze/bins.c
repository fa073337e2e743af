/* bins.c — windowed bins: records keyed by time interval or by offset step,
 * accumulated in a small window of open bins that close in key order, so
 * memory holds the window plus one small summary per closed bin. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze_int.h"

static inline unsigned hist_idx(uint64_t v) {
  if (v < 32) return (unsigned)v;
  unsigned e = 63u - (unsigned)__builtin_clzll(v);
  return 32u + (e - 5u) * 32u + ((unsigned)(v >> (e - 5u)) & 31u);
}
/* Midpoint of a bucket. */
static double hist_mid(unsigned i) {
  if (i < 32) return i;
  unsigned e = (i - 32u) / 32u + 5u, s = (i - 32u) % 32u;
  double lo = ldexp(1.0, (int)e) + (double)s * ldexp(1.0, (int)e - 5);
  return lo + ldexp(1.0, (int)e - 5) / 2.0 - 0.5;
}
static double hist_pct(const uint32_t *h, uint64_t n, double p) {
  uint64_t rank = analyze_pct_rank(p, n), cum = 0;
  if (!n) return 0;
  for (unsigned i = 0; i < BINS_HIST_N; i++) {
    cum += h[i];
    if (cum >= rank) return hist_mid(i);
  }
  return 0;
}

/* The k-th smallest (0-based) of v[0..n), k < n; v is reordered so that
 * v[0..k) <= v[k] <= v[k+1..n) (quickselect, median of three). */
static uint64_t select_k(uint64_t *v, size_t n, size_t k) {
  size_t lo = 0, hi = n - 1;
  while (hi > lo) {
    size_t mid = lo + (hi - lo) / 2;
    uint64_t a = v[lo], b = v[mid], c = v[hi];
    uint64_t piv = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
    size_t i = lo, j = hi;
    while (i <= j) { /* Hoare partition around piv */
      while (v[i] < piv) i++;
      while (v[j] > piv) j--;
      if (i <= j) {
        uint64_t t = v[i];
        v[i] = v[j], v[j] = t;
        i++;
        if (j == 0) break;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return v[k];
  }
  return v[k];
}

/* Exact p50, p99, p99.9 of an open bin's latencies (ascending ranks, so each
 * selection searches only above the one before). */
static void exact_pcts(uint64_t *v, size_t n, double out[3]) {
  static const double p[3] = {50, 99, 99.9};
  size_t base = 0;
  for (int i = 0; i < 3; i++) {
    size_t k = (size_t)analyze_pct_rank(p[i], n) - 1;
    out[i] = (double)(k >= base ? (select_k(v + base, n - base, k - base), v[k]) : v[k]);
    base = k;
  }
}

void analyze_bins_init(struct analyze_bins *b) { memset(b, 0, sizeof *b); }
void analyze_bins_release(struct analyze_bins *b) {
  for (unsigned i = 0; i < BINS_WINDOW; i++) {
    free(b->win[i].lat);
    b->win[i].lat = NULL;
    b->win[i].nlat = b->win[i].caplat = 0;
  }
  free(b->out);
  b->out = NULL;
  b->nout = b->capout = 0;
}

/* Appends a closed bin (a = NULL: an empty one) at key; sets overflow at
 * BINS_MAX. */
static void push_out(struct analyze_bins *b, uint64_t key, const struct bin_acc *a) {
  if (b->nout == BINS_MAX) {
    b->overflow = 1;
    return;
  }
  if (b->nout == b->capout) {
    size_t cap = b->capout ? b->capout * 2 : 256;
    struct bin_out *o = realloc(b->out, cap * sizeof *o);
    if (!o) {
      b->enomem = 1;
      return;
    }
    b->out = o;
    b->capout = cap;
  }
  struct bin_out *o = &b->out[b->nout++];
  memset(o, 0, sizeof *o);
  o->key = key;
  if (!a || !a->ios) return;
  o->ios = a->ios;
  o->bytes = a->bytes;
  o->lat_mean_ns = (double)((long double)a->lat_sum_ns / (long double)a->ios);
  if (b->exact && a->nlat == a->ios) {
    double e[3];
    exact_pcts(a->lat, a->nlat, e);
    o->p50_ns = e[0], o->p99_ns = e[1], o->p999_ns = e[2];
  } else {
    o->p50_ns = hist_pct(a->hist, a->ios, 50);
    o->p99_ns = hist_pct(a->hist, a->ios, 99);
    /* exact mode without every latency (an allocation failed): the
     * histogram's p99.9 too, not a plausible-looking 0 */
    o->p999_ns = hist_pct(a->hist, a->ios, 99.9);
  }
  o->first_submit_ns = a->first_submit_ns;
  o->last_done_ns = a->last_done_ns;
}

static void close_one(struct analyze_bins *b) {
  struct bin_acc *a = &b->win[b->base % BINS_WINDOW];
  if (a->ios) b->open--;
  if (!b->sparse || a->ios) push_out(b, b->base, a); /* sparse: an empty stretch costs nothing */
  uint64_t *lat = a->lat; /* the buffer serves the slot's next bin */
  size_t cap = a->caplat;
  memset(a, 0, sizeof *a);
  a->lat = lat, a->caplat = cap;
  b->base++;
}

void analyze_bins_add(struct analyze_bins *b, uint64_t key, uint64_t lat_ns, uint64_t bytes, uint64_t submit_ns,
              uint64_t done_ns) {
  if (b->overflow) return;
  if (!b->started) {
    b->started = 1;
    b->base = b->key0 = key;
    b->max_key = key;
  }
  if (key < b->base) {
    key = b->base;
    b->late++;
  }
  /* Dense bins emit every key from key0: refuse a key that would need more
   * than BINS_MAX of them before closing a single one. */
  if (!b->sparse && !b->gap_max && key - b->key0 >= BINS_MAX) {
    b->overflow = 1;
    return;
  }
  while (key >= b->base + BINS_WINDOW) {
    /* nothing open: the keys base .. key - BINS_WINDOW are all empty */
    uint64_t stretch = key - BINS_WINDOW - b->base + 1;
    if (!b->open && (b->sparse || (b->gap_max && stretch > b->gap_max))) {
      if (!b->sparse) { /* a long gap: its first and last key only */
        push_out(b, b->base, NULL);
        push_out(b, key - BINS_WINDOW, NULL);
      }
      b->base = key - (BINS_WINDOW - 1);
      break;
    }
    close_one(b);
  }
  if (b->overflow) return;
  if (key > b->max_key) b->max_key = key;
  struct bin_acc *a = &b->win[key % BINS_WINDOW];
  if (!a->ios) b->open++;
  if (!a->ios || submit_ns < a->first_submit_ns) a->first_submit_ns = submit_ns;
  if (done_ns > a->last_done_ns) a->last_done_ns = done_ns;
  a->ios++;
  a->bytes += bytes;
  a->lat_sum_ns += lat_ns;
  a->hist[hist_idx(lat_ns)]++;
  if (b->exact) {
    if (a->nlat == a->caplat) {
      size_t cap = a->caplat ? a->caplat * 2 : 4096;
      uint64_t *l = realloc(a->lat, cap * sizeof *l);
      if (!l) {
        b->enomem = 1;
        return;
      }
      a->lat = l, a->caplat = cap;
    }
    a->lat[a->nlat++] = lat_ns;
  }
}

int analyze_bins_finish(struct analyze_bins *b) {
  /* at most BINS_WINDOW steps: the keys past the window were never added */
  if (b->started)
    while (b->base <= b->max_key && !b->overflow) close_one(b);
  return b->enomem ? -ENOMEM : 0;
}

double analyze_json_round(double v, int digits) {
  double m = pow(10, digits);
  if (!isfinite(v)) return 0;
  return round(v * m) / m;
}
json_t *analyze_json_real(double v, int digits) { return json_real(analyze_json_round(v, digits)); }
json_t *analyze_json_real_or_null(double v, int digits) {
  return isfinite(v) ? analyze_json_real(v, digits) : json_null();
}
json_int_t analyze_json_int_of(double v) {
  const double lim = 4611686018427387904.0; /* 2^62 */
  if (!(v == v)) return 0;
  return (json_int_t)(v > lim ? lim : v < -lim ? -lim : v);
}
double analyze_json_num(const json_t *o, const char *key, double dflt) {
  const json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : dflt;
}
const char *analyze_json_str(const json_t *o, const char *key) {
  const json_t *v = json_object_get(o, key);
  return json_is_string(v) ? json_string_value(v) : NULL;
}
char *analyze_key(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *key = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!key) return NULL;
  va_start(ap, fmt);
  vsnprintf(key, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return key;
}
