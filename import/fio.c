/* fio.c — fio JSON / json+ output (local, or client/server with
 * "client_stats" from several hosts) into a run archive: one test of kind
 * "job" per fio job and host, with the job's per-I/O latency log (from
 * write_lat_log with log_avg_msec=0) converted to an ssdrev binary log. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "import/import_int.h"
#include "log/ssdlog.h"
#include "archive/archive.h"

/* The percentiles computed from json+ bins (analyze's default list). */
static const double fio_pcts[] = {50, 90, 99, 99.9, 99.99, 99.999};
static const char *const fio_ddirs[] = {"read", "write", "trim"};
/* the most per-thread logs merged into one group_reporting test */
#define IMPORT_FIO_MAX_THREAD_LOGS 1024u

/* The offset of the first line at or after off that starts with '{' (len
 * when none); *lines counts the lines skipped. */
static size_t next_doc(const char *text, size_t len, size_t off, int *lines) {
  /* off may sit mid-line (just after a document): its rest is not a start */
  if (off && off < len && text[off - 1] != '\n') {
    const char *nl = memchr(text + off, '\n', len - off);
    if (!nl) return len;
    off = (size_t)(nl - text) + 1;
    (*lines)++;
  }
  while (off < len && text[off] != '{') {
    const char *nl = memchr(text + off, '\n', len - off);
    if (!nl) return len;
    off = (size_t)(nl - text) + 1;
    (*lines)++;
  }
  return off;
}

json_t *import_fio_json_load_all(const char *path, struct ssdrev_err *err) {
  char *text;
  size_t len;
  if (ssdrev_read_file(path, &text, &len, 0, err)) return NULL;
  if (import_text_utf8(&text, &len, path, err)) { /* fio > out.json in Windows PowerShell 5: UTF-16LE */
    free(text);
    return NULL;
  }
  /* fio prints warnings (and "<host>" lines in client mode) before the JSON;
   * a log of several runs (a script's output) holds several documents with
   * shell text between them: every one is read */
  int line = 0; /* lines before off */
  size_t off = next_doc(text, len, 0, &line);
  if (off >= len) {
    free(text);
    ssdrev_fail(err, -EINVAL,
                "no fio JSON in '%s': no line starts with '{' (run fio with --output-format=json+)", path);
    return NULL;
  }
  json_t *docs = json_array();
  size_t prev_end = 0; /* the end of the previous document */
  while (off < len) {
    json_error_t je;
    /* --output-format=normal,json+ puts the text report after the JSON:
     * stop at the end of the JSON value */
    json_t *j = json_loadb(text + off, len - off, JSON_DISABLE_EOF_CHECK, &je);
    if (!j) {
      ssdrev_fail(err, -EINVAL, "cannot parse fio JSON '%s' line %d column %d: %s", path, je.line + line,
                  je.column, je.text);
      break;
    }
    if (!json_is_object(j) || !(json_is_array(json_object_get(j, "jobs")) ||
                                json_is_array(json_object_get(j, "client_stats")))) {
      json_decref(j);
      ssdrev_fail(err, -EINVAL, "'%s' line %d: a JSON value that is not fio output (no \"jobs\" or "
                  "\"client_stats\" array)", path, line + 1);
      break;
    }
    /* fio prints "fio: terminating on signal N" (to stdout, before the
     * JSON) when SIGINT/SIGTERM stopped the run: its figures cover the run
     * up to the stop */
    const char *mark = "terminating on signal ";
    size_t ml = strlen(mark);
    for (size_t k = prev_end; k + ml <= off; k++)
      if (!memcmp(text + k, mark, ml)) {
        json_object_set_new(j, "ssdrev_signal", json_integer(strtol(text + k + ml, NULL, 10)));
        break;
      }
    json_array_append_new(docs, j);
    /* jansson reports the bytes it read with JSON_DISABLE_EOF_CHECK */
    size_t used = je.position > 0 ? (size_t)je.position : len - off;
    for (size_t k = off; k < off + used && k < len; k++) line += text[k] == '\n';
    prev_end = off + used;
    off = next_doc(text, len, off + used, &line);
  }
  /* (stderr merged into the file may put the signal line after the last
   * document) */
  json_t *last = json_array_get(docs, json_array_size(docs) - 1);
  const char *mark = "fio: terminating on signal ";
  size_t ml = strlen(mark);
  for (size_t k = prev_end; off >= len && last && !json_object_get(last, "ssdrev_signal") && k + ml <= len; k++)
    if (!memcmp(text + k, mark, ml)) json_object_set_new(last, "ssdrev_signal", json_integer(strtol(text + k + ml, NULL, 10)));
  free(text);
  if (off < len) {
    json_decref(docs);
    return NULL;
  }
  return docs;
}

json_t *import_fio_json_load(const char *path, struct ssdrev_err *err) {
  json_t *docs = import_fio_json_load_all(path, err);
  if (!docs) return NULL;
  json_t *first = json_incref(json_array_get(docs, 0));
  json_decref(docs);
  return first;
}

struct fio_bin {
  uint64_t lat_ns, count;
};

static int bin_cmp(const void *a, const void *b) {
  const struct fio_bin *x = a, *y = b;
  return x->lat_ns < y->lat_ns ? -1 : x->lat_ns > y->lat_ns;
}

/* A json+ bin's key ("LAT_NS") as *NS: 1 when it is decimal digits only
 * (strtoull would take "-5" as 2^64 - 5, a negative percentile once
 * stored) within 63 bits, else 0. The one rule for the key, where bins are
 * checked and where they are read. */
static int bin_key_ns(const char *key, uint64_t *ns) {
  size_t nd = strspn(key, "0123456789");
  if (!nd || nd > 19 || key[nd]) return 0;
  errno = 0;
  unsigned long long v = strtoull(key, NULL, 10);
  if (errno || v > (unsigned long long)INT64_MAX) return 0;
  *ns = v;
  return 1;
}

json_t *import_fio_bins_percentiles(const json_t *bins, const double *pcts, unsigned npcts) {
  size_t n = json_object_size(bins);
  if (!json_is_object(bins) || !n) return NULL;
  struct fio_bin *b = calloc(n, sizeof *b);
  if (!b) return NULL;
  size_t k = 0;
  uint64_t total = 0;
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)bins, key, v) {
    /* the importer refuses bad bins first (fio_bins_ok), this keeps the
     * function safe on its own */
    uint64_t lat;
    if (!bin_key_ns(key, &lat) || !json_is_integer(v) || json_integer_value(v) < 0 ||
        (uint64_t)json_integer_value(v) > (uint64_t)INT64_MAX - total)
      continue;
    b[k].lat_ns = lat;
    b[k].count = (uint64_t)json_integer_value(v);
    total += b[k++].count;
  }
  if (!total) {
    free(b);
    return NULL;
  }
  qsort(b, k, sizeof *b, bin_cmp);
  json_t *out = json_array();
  for (unsigned i = 0; i < npcts; i++) {
    /* nearest rank, as numpy's inverted_cdf: the first value whose
     * cumulative count reaches p% of the samples */
    double want = pcts[i] / 100.0 * (double)total;
    uint64_t rank = (uint64_t)ceil(want - 1e-9 * want);
    if (rank < 1) rank = 1;
    uint64_t cum = 0;
    size_t j = 0;
    for (; j < k; j++) {
      cum += b[j].count;
      if (cum >= rank) break;
    }
    if (j == k) j = k - 1;
    json_t *e = json_object();
    json_object_set_new(e, "p", json_real(pcts[i]));
    json_object_set_new(e, "lat_ns", json_integer((json_int_t)b[j].lat_ns));
    json_object_set_new(e, "lat_us", json_real((double)b[j].lat_ns / 1e3));
    json_object_set_new(e, "bucketed", json_true());
    json_array_append_new(out, e);
  }
  free(b);
  return out;
}

/* fio's own percentile list ("percentile": {"99.000000": ns}); also bucketed,
 * since fio computes it from the same histogram. */
static json_t *fio_listed_percentiles(const json_t *pct) {
  if (!json_is_object(pct) || !json_object_size(pct)) return NULL;
  json_t *out = json_array();
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)pct, key, v) {
    /* fio pads the list with "0.00": 0 where clat_percentiles is off */
    if (!(strtod(key, NULL) > 0)) continue;
    json_t *e = json_object();
    json_object_set_new(e, "p", json_real(strtod(key, NULL)));
    json_object_set(e, "lat_ns", v);
    json_object_set_new(e, "lat_us", json_real(json_number_value(v) / 1e3));
    json_object_set_new(e, "bucketed", json_true());
    json_array_append_new(out, e);
  }
  return out;
}

static const char *opt(const json_t *opts, const char *key) {
  return json_string_value(json_object_get(opts, key));
}

/* Why a fio option cannot become a job parameter: filled by the option
 * parsers below, which return -1 then; the import refuses the job. */
struct fio_why {
  char msg[256];
};

/* The limits of bench_job_from_json: an imported job must be one ssdrev
 * could run. Compared as doubles before any conversion (a double outside
 * the integer's range cast to it is undefined behaviour: bs=nan gave
 * block_bytes = INT64_MIN). */
#define FIO_MAX_BLOCK 4294967295.0 /* UINT32_MAX */
#define FIO_MAX_I64 9223372036854775807.0 /* rounds to 2^63: also compared with < 2^63 */

/* fio sizes: "4k", "128KiB", "1m", "4096"; k/m/g are binary (kb_base=1024).
 * Only the first of "4k,64k" or "4k-16k" is taken. Text that is no number
 * at all keeps dflt (as before); a number that is not a finite size in
 * [min, max] is refused. */
static int fio_size(const json_t *opts, const char *key, uint64_t dflt, double min, double max,
                    uint64_t *out, struct fio_why *why) {
  const char *s = opt(opts, key);
  *out = dflt;
  if (!s) return 0;
  char *end;
  double v = strtod(s, &end);
  if (end == s) return 0;
  double mult = 1;
  if (*end == '%') {
    /* size=N% / offset=N%: a share of the file (fio), known from filesize;
     * without it unknown (0), never N bytes (a "size=100%" fill used to
     * wrap its rebuilt offsets every 100 bytes) */
    uint64_t file = 0;
    if (strcmp(key, "filesize") && fio_size(opts, "filesize", 0, 0, max, &file, why)) return -1;
    mult = (double)file / 100.0;
  }
  switch (*end) {
  case 'k': case 'K': mult = 1024.0; break;
  case 'm': case 'M': mult = 1048576.0; break;
  case 'g': case 'G': mult = 1073741824.0; break;
  case 't': case 'T': mult = 1099511627776.0; break;
  default: break;
  }
  double b = floor(v * mult + 0.5);
  if (!(b >= min && b <= max && b < 9223372036854775808.0)) {
    snprintf(why->msg, sizeof why->msg, "option %s = '%.40s' is not a size of %.0f to %.0f bytes", key, s, min, max);
    return -1;
  }
  *out = (uint64_t)b;
  return 0;
}

/* An integer option in [min, max], or dflt when absent. */
static int fio_uint(const json_t *opts, const char *key, uint64_t dflt, uint64_t min, uint64_t max, uint64_t *out,
                    struct fio_why *why) {
  const char *s = opt(opts, key);
  *out = dflt;
  if (!s) return 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s) return 0; /* not a number: the default, as fio's own parser would not start */
  if (errno || *s == '-' || v < min || v > max) {
    snprintf(why->msg, sizeof why->msg, "option %s = '%.40s' is not an integer in %llu..%llu", key, s,
             (unsigned long long)min, (unsigned long long)max);
    return -1;
  }
  *out = v;
  return 0;
}

/* A fio time option in ns: seconds unless suffixed (us, ms, s, m, h, d, as
 * fio's parser reads them: "1m" is a minute, "500ms" half a second). */
static int fio_time_ns(const json_t *opts, const char *key, int *present, uint64_t *out, struct fio_why *why) {
  const char *s = opt(opts, key);
  *present = 0;
  *out = 0;
  if (!s) return 0;
  static const struct { const char *suffix; double ns; } units[] = {
      {"", 1e9}, {"s", 1e9}, {"sec", 1e9}, {"us", 1e3}, {"usec", 1e3}, {"ms", 1e6}, {"msec", 1e6},
      {"m", 60e9}, {"min", 60e9}, {"h", 3600e9}, {"hr", 3600e9}, {"hour", 3600e9}, {"d", 86400e9}, {"day", 86400e9},
  };
  char *end;
  double v = strtod(s, &end);
  double mult = -1;
  for (size_t i = 0; end != s && i < sizeof units / sizeof units[0]; i++)
    if (!strcasecmp(end, units[i].suffix)) mult = units[i].ns;
  double ns = floor(v * mult + 0.5);
  if (end == s || mult < 0 || !(ns >= 0 && ns < FIO_MAX_I64)) {
    snprintf(why->msg, sizeof why->msg, "option %s = '%.40s' is not a time (seconds, or with us/ms/s/m/h/d)", key, s);
    return -1;
  }
  *present = 1;
  *out = (uint64_t)ns;
  return 0;
}

/* fio's clocks and counters in a job entry are non-negative and, in ns,
 * fit 63 bits: 2^43 ms is 278 years. A value beyond (a damaged or edited
 * output) would wrap when scaled to ns, or turn negative in the archive. */
#define FIO_MAX_MS (1ll << 43)
/* A json+ latency histogram ("bins": {"LAT_NS": COUNT}): every key a
 * non-negative integer in decimal digits up to 2^63 - 1 (strtoull took "-5"
 * as 2^64 - 5, a negative percentile once stored), every count a
 * non-negative integer, the total within 63 bits. 1 when fine (or absent). */
static int fio_bins_ok(const json_t *bins, const char *where, struct fio_why *why) {
  const char *key;
  json_t *v;
  uint64_t total = 0;
  json_object_foreach((json_t *)bins, key, v) {
    uint64_t lat;
    if (!bin_key_ns(key, &lat)) {
      snprintf(why->msg, sizeof why->msg, "%s.bins key '%.40s' is not a latency in ns (an integer 0 .. 2^63-1)",
               where, key);
      return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        (uint64_t)json_integer_value(v) > (uint64_t)INT64_MAX - total) {
      snprintf(why->msg, sizeof why->msg, "%s.bins[\"%.40s\"] count is not a non-negative integer (or the counts "
               "sum beyond 2^63)", where, key);
      return 0;
    }
    total += (uint64_t)json_integer_value(v);
  }
  return 1;
}

/* A latency summary {min, max, mean}: finite, non-negative, and the mean in
 * [min, max] (a summed-up mean that wrapped lies below the minimum). */
static int fio_lat_ok(const json_t *lat, const char *where, struct fio_why *why) {
  static const char *const keys[] = {"min", "max", "mean"};
  double v[3];
  for (unsigned i = 0; i < 3; i++) {
    const json_t *x = json_object_get(lat, keys[i]);
    v[i] = json_number_value(x);
    if (x && (!json_is_number(x) || !isfinite(v[i]) || v[i] < 0 || v[i] > FIO_MAX_I64)) {
      snprintf(why->msg, sizeof why->msg, "%s.%s is not a latency in ns (a number 0 .. 2^63)", where, keys[i]);
      return 0;
    }
  }
  /* fio prints the mean with 6 decimals: allow its rounding */
  if (json_object_get(lat, "mean") && json_object_get(lat, "max") && v[1] > 0 &&
      (v[2] < v[0] * (1 - 1e-9) - 1e-6 || v[2] > v[1] * (1 + 1e-9) + 1e-6)) {
    snprintf(why->msg, sizeof why->msg, "%s.mean = %.17g lies outside [min %.17g, max %.17g]", where, v[2], v[0],
             v[1]);
    return 0;
  }
  return 1;
}

static int fio_counts_ok(const json_t *job, struct fio_why *why) {
  static const char *const clocks[] = {"job_runtime", "job_start"};
  for (size_t i = 0; i < 2; i++) {
    json_int_t v = json_integer_value(json_object_get(job, clocks[i]));
    if (v < 0 || v > FIO_MAX_MS) {
      snprintf(why->msg, sizeof why->msg, "%s = %lld ms is out of range", clocks[i], (long long)v);
      return 0;
    }
  }
  for (unsigned d = 0; d < 3; d++) {
    static const char *const counts[] = {"total_ios", "io_bytes"};
    for (size_t i = 0; i < 2; i++) {
      json_int_t v = json_integer_value(json_object_get(json_object_get(job, fio_ddirs[d]), counts[i]));
      if (v < 0) {
        snprintf(why->msg, sizeof why->msg, "%s.%s = %lld is negative", fio_ddirs[d], counts[i], (long long)v);
        return 0;
      }
    }
    static const char *const lats[] = {"clat_ns", "lat_ns", "slat_ns"};
    for (size_t i = 0; i < 3; i++) {
      const json_t *l = json_object_get(json_object_get(job, fio_ddirs[d]), lats[i]);
      char where[64];
      snprintf(where, sizeof where, "%s.%s", fio_ddirs[d], lats[i]);
      if (!fio_lat_ok(l, where, why) || !fio_bins_ok(json_object_get(l, "bins"), where, why)) return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------ older fio JSON eras */

/* A latency in µs (fio before 3.0) as ns; a value too large to scale stays
 * out of range (a real beyond 2^63), so fio_lat_ok refuses it by name. */
static json_t *us_to_ns(const json_t *v) {
  if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= INT64_MAX / 1000)
    return json_integer(json_integer_value(v) * 1000);
  if (json_is_number(v)) return json_real(json_number_value(v) * 1000.0);
  return json_deep_copy(v); /* not a number: fio_lat_ok names it */
}

/* fio 2.x's plat_idx_to_val (stat.c): the mean of bin idx's range, in the
 * histogram's unit (µs before 3.0). */
static uint64_t plat_idx_to_val(uint64_t idx, unsigned bits) {
  uint64_t val = 1ull << bits;
  if (idx < (val << 1)) return idx;
  uint64_t error_bits = (idx >> bits) - 1;
  uint64_t base = 1ull << (error_bits + bits);
  uint64_t k = idx % val;
  return base + (uint64_t)(((double)k + 0.5) * (double)(1ull << error_bits));
}

/* fio 2.x json+ bins: {"0": n, ..., "1215": n, "FIO_IO_U_PLAT_BITS": 6,
 * "FIO_IO_U_PLAT_VAL": 64, "FIO_IO_U_PLAT_NR": 1216}, keyed by bin index in
 * µs; as 3.x's {"LAT_NS": n} (empty bins dropped, as 3.x does). NULL when
 * these are not 2.x bins (then they are checked as 3.x's). */
static json_t *bins_2x(const json_t *bins) {
  const json_t *jb = json_object_get(bins, "FIO_IO_U_PLAT_BITS");
  const json_t *jn = json_object_get(bins, "FIO_IO_U_PLAT_NR");
  if (!json_is_integer(jb) || !json_is_integer(jn)) return NULL;
  json_int_t bits = json_integer_value(jb), nr = json_integer_value(jn);
  /* fio's constants (6 and 1216 in every 2.x); groups of 2^bits bins up
   * to 2^63 ns */
  if (bits < 1 || bits > 16 || nr < 1 || nr > (json_int_t)(40u << bits)) return NULL;
  json_t *out = json_object();
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)bins, key, v) {
    if (!strncmp(key, "FIO_IO_U_PLAT_", 14)) continue;
    size_t nd = strspn(key, "0123456789");
    unsigned long long idx = nd && nd <= 9 && !key[nd] ? strtoull(key, NULL, 10) : ULLONG_MAX;
    if (idx >= (unsigned long long)nr || !json_is_integer(v) || json_integer_value(v) < 0) {
      json_decref(out);
      return NULL; /* not fio's: checked (and refused) as 3.x bins */
    }
    if (!json_integer_value(v)) continue;
    char k[24];
    snprintf(k, sizeof k, "%llu", (unsigned long long)plat_idx_to_val(idx, (unsigned)bits) * 1000ull);
    json_int_t had = json_integer_value(json_object_get(out, k));
    if (had > INT64_MAX - json_integer_value(v)) {
      json_decref(out);
      return NULL;
    }
    json_object_set_new(out, k, json_integer(had + json_integer_value(v)));
  }
  return out;
}

/* fio before 3.0 wrote a µs latency {min, max, mean, stddev[, percentile,
 * bins]} under "clat" / "lat" / "slat": the same in ns under KEY_ns. */
static void lat_us_to_ns(json_t *dir, const char *old, const char *new_key) {
  const json_t *l = json_object_get(dir, old);
  if (!json_is_object(l) || json_object_get(dir, new_key)) return;
  json_t *n = json_object();
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)l, key, v) {
    if (!strcmp(key, "percentile") && json_is_object(v)) {
      json_t *p = json_object();
      const char *pk;
      json_t *pv;
      json_object_foreach(v, pk, pv) {
        /* fio pads its list with "0.00": 0 for unused slots */
        if (strtod(pk, NULL) > 0) json_object_set_new(p, pk, us_to_ns(pv));
      }
      json_object_set_new(n, key, p);
    } else if (!strcmp(key, "bins")) {
      json_t *b = bins_2x(v);
      json_object_set_new(n, key, b ? b : json_deep_copy(v));
    } else if (!strcmp(key, "min") || !strcmp(key, "max") || !strcmp(key, "mean") || !strcmp(key, "stddev")) {
      json_object_set_new(n, key, us_to_ns(v));
    } else {
      json_object_set(n, key, v);
    }
  }
  json_object_set_new(dir, new_key, n);
}

/* Brings one job entry of any fio since 2.0 into the shape of 3.2+ (the one
 * the rest of this file reads), recording in "ssdrev_units" what was
 * converted:
 * - latencies: µs under clat/lat/slat before 3.0, ns under *_ns since;
 * - io_bytes: KiB before 2.21 (which added io_kbytes), bytes since;
 * - bw: KiB/s; bw_bytes (B/s) only since 3.2;
 * - total_ios: since 2.2, else from io_bytes / bs (or iops x runtime);
 * - job_runtime: since 3.5-ish, else the longest direction's runtime.
 * opts are the job's options (global ones under its own), for bs. */
static void fio_normalize_job(json_t *job, const json_t *opts) {
  if (!json_is_object(job)) return;
  json_t *units = json_object();
  json_int_t longest = 0;
  int any_dir = 0;
  for (unsigned d = 0; d < 3; d++) {
    json_t *s = json_object_get(job, fio_ddirs[d]);
    if (!json_is_object(s)) continue;
    any_dir = 1;
    if (!json_object_get(s, "clat_ns") && json_is_object(json_object_get(s, "clat"))) {
      lat_us_to_ns(s, "clat", "clat_ns");
      lat_us_to_ns(s, "lat", "lat_ns");
      lat_us_to_ns(s, "slat", "slat_ns");
      json_object_set_new(units, "latency", json_string("us"));
    }
    json_t *ib = json_object_get(s, "io_bytes");
    if (!json_object_get(s, "io_kbytes") && json_is_integer(ib)) {
      json_int_t kib = json_integer_value(ib);
      json_object_set(s, "io_kbytes", ib);
      /* a negative or huge count stays as it is: fio_counts_ok refuses it */
      if (kib >= 0 && kib <= INT64_MAX / 1024) json_object_set_new(s, "io_bytes", json_integer(kib * 1024));
      json_object_set_new(units, "io_bytes", json_string("KiB"));
    }
    const json_t *bw = json_object_get(s, "bw");
    if (!json_object_get(s, "bw_bytes") && json_is_number(bw)) {
      json_object_set_new(s, "bw_bytes", json_real(json_number_value(bw) * 1024.0));
      json_object_set_new(units, "bw", json_string("KiB/s"));
    }
    json_int_t rt = json_integer_value(json_object_get(s, "runtime"));
    if (rt > longest) longest = rt;
    if (!json_object_get(s, "total_ios")) {
      /* fio 2.0/2.1: the count from the bytes when every I/O had one size */
      uint64_t bs = 0;
      struct fio_why why;
      const char *b = opt(opts, "bs") ? opt(opts, "bs") : opt(opts, "blocksize");
      if (b && !strpbrk(b, ",-:") && fio_size(opts, opt(opts, "bs") ? "bs" : "blocksize", 0, 1, FIO_MAX_BLOCK, &bs, &why)) bs = 0;
      if (!b) bs = 4096; /* fio's default */
      json_int_t bytes = json_integer_value(json_object_get(s, "io_bytes"));
      double n = bs && bytes > 0 ? (double)bytes / (double)bs
                 : json_number_value(json_object_get(s, "iops")) * (double)rt / 1000.0;
      json_object_set_new(s, "total_ios", json_integer(n >= 0 && n < 9e18 ? (json_int_t)floor(n + 0.5) : 0));
      json_object_set_new(units, "total_ios", json_string(bs && bytes > 0 ? "io_bytes / bs" : "iops x runtime"));
    }
  }
  if (any_dir && !json_object_get(job, "job_runtime")) {
    json_object_set_new(job, "job_runtime", json_integer(longest));
    json_object_set_new(units, "job_runtime", json_string("longest direction's runtime"));
  }
  if (json_object_size(units)) json_object_set_new(job, "ssdrev_units", units);
  else json_decref(units);
}

/* ---------------------------------------------- numjobs clones, summed */

/* One latency summary {min, max, mean, stddev, N[, bins, percentile]} over
 * n clones, as fio's group_reporting sums them (sum_stat: min of mins, max
 * of maxes, the I/O-weighted mean, the pooled deviation; the json+ bins
 * added). Without bins in every clone the percentiles are the clones'
 * I/O-weighted mean: marked approximate. */
static json_t *agg_lat(json_t *const *clones, size_t n, const char *dir, const char *key, int *approx) {
  double mn = 0, mx = 0, sum = 0, sumsq = 0, total = 0;
  int have = 0, all_bins = 1, any_pct = 0;
  json_t *bins = json_object(), *pct = json_object();
  for (size_t c = 0; c < n; c++) {
    const json_t *s = json_object_get(clones[c], dir);
    const json_t *l = json_object_get(s, key);
    double k = json_number_value(json_object_get(s, "total_ios"));
    if (!json_is_object(l) || k <= 0) continue;
    double m = json_number_value(json_object_get(l, "mean")), sd = json_number_value(json_object_get(l, "stddev"));
    double lo = json_number_value(json_object_get(l, "min")), hi = json_number_value(json_object_get(l, "max"));
    if (!have || lo < mn) mn = lo;
    if (!have || hi > mx) mx = hi;
    have = 1;
    sum += m * k;
    /* the clone's sum of squares from its (sample) deviation and mean */
    sumsq += sd * sd * (k > 1 ? k - 1 : 0) + m * m * k;
    total += k;
    const json_t *b = json_object_get(l, "bins");
    if (json_is_object(b) && json_object_size(b)) {
      const char *bk;
      json_t *bv;
      json_object_foreach((json_t *)b, bk, bv) {
        double had = json_number_value(json_object_get(bins, bk));
        json_object_set_new(bins, bk, json_integer((json_int_t)fmin(had + json_number_value(bv), 9.2e18)));
      }
    } else {
      all_bins = 0;
    }
    const char *pk;
    json_t *pv;
    json_object_foreach(json_object_get(l, "percentile"), pk, pv) {
      if (!(strtod(pk, NULL) > 0)) continue;
      any_pct = 1;
      json_object_set_new(pct, pk, json_real(json_number_value(json_object_get(pct, pk)) + json_number_value(pv) * k));
    }
  }
  json_t *out = json_object();
  double mean = total > 0 ? sum / total : 0;
  double var = total > 1 ? (sumsq - mean * mean * total) / (total - 1) : 0;
  json_object_set_new(out, "min", json_real(mn));
  json_object_set_new(out, "max", json_real(mx));
  /* rounding may put the weighted mean a hair outside [min, max] */
  json_object_set_new(out, "mean", json_real(fmin(fmax(mean, mn), mx)));
  json_object_set_new(out, "stddev", json_real(var > 0 ? sqrt(var) : 0));
  json_object_set_new(out, "N", json_integer((json_int_t)fmin(total, 9.2e18)));
  if (all_bins && json_object_size(bins)) {
    json_object_set_new(out, "bins", bins);
  } else {
    json_decref(bins);
    if (any_pct) {
      const char *pk;
      json_t *pv;
      json_object_foreach(pct, pk, pv) json_object_set_new(pct, pk, json_real(json_real_value(pv) / total));
      json_object_set(out, "percentile", pct);
      *approx = 1;
    }
  }
  json_decref(pct);
  return out;
}

/* The sum over n numjobs clones of one job section (fio without
 * group_reporting writes one entry per clone): one entry in fio's shape, as
 * group_reporting would have written it. IOPS, bandwidth, I/Os and bytes
 * add up; runtimes are the longest; latencies as agg_lat. Marked with
 * "ssdrev_clones": n (and "ssdrev_pct_approximate" when percentiles are
 * averaged, not merged). */
static json_t *fio_clone_aggregate(json_t *const *clones, size_t n) {
  json_t *a = json_object();
  json_object_set(a, "jobname", json_object_get(clones[0], "jobname"));
  json_object_set(a, "groupid", json_object_get(clones[0], "groupid"));
  if (json_object_get(clones[0], "hostname")) json_object_set(a, "hostname", json_object_get(clones[0], "hostname"));
  json_object_set(a, "job options", json_object_get(clones[0], "job options"));
  json_int_t err = 0, rt = 0;
  for (size_t c = 0; c < n; c++) {
    if (!err) err = json_integer_value(json_object_get(clones[c], "error"));
    json_int_t r = json_integer_value(json_object_get(clones[c], "job_runtime"));
    if (r > rt) rt = r;
  }
  json_object_set_new(a, "error", json_integer(err));
  json_object_set_new(a, "job_runtime", json_integer(rt));
  int approx = 0;
  for (unsigned d = 0; d < 3; d++) {
    json_t *s = json_object();
    double ios = 0, bytes = 0, bw = 0, iops = 0;
    json_int_t drt = 0;
    for (size_t c = 0; c < n; c++) {
      const json_t *x = json_object_get(clones[c], fio_ddirs[d]);
      ios += json_number_value(json_object_get(x, "total_ios"));
      bytes += json_number_value(json_object_get(x, "io_bytes"));
      bw += json_number_value(json_object_get(x, "bw_bytes"));
      iops += json_number_value(json_object_get(x, "iops"));
      json_int_t r = json_integer_value(json_object_get(x, "runtime"));
      if (r > drt) drt = r;
    }
    json_object_set_new(s, "total_ios", json_integer((json_int_t)fmin(ios, 9.2e18)));
    json_object_set_new(s, "io_bytes", json_integer((json_int_t)fmin(bytes, 9.2e18)));
    json_object_set_new(s, "bw_bytes", json_real(bw));
    json_object_set_new(s, "iops", json_real(iops));
    json_object_set_new(s, "runtime", json_integer(drt));
    static const char *const lats[] = {"clat_ns", "lat_ns", "slat_ns"};
    for (unsigned k = 0; k < 3; k++) json_object_set_new(s, lats[k], agg_lat(clones, n, fio_ddirs[d], lats[k], &approx));
    json_object_set_new(a, fio_ddirs[d], s);
  }
  json_object_set_new(a, "ssdrev_clones", json_integer((json_int_t)n));
  if (approx) json_object_set_new(a, "ssdrev_pct_approximate", json_true());
  return a;
}

/* fio without group_reporting writes numjobs=N as N entries of one name,
 * one after another: after each such run, an entry of their sum (see
 * fio_clone_aggregate). Entries of group_reporting, or of one clone, stay. */
static void fio_add_clone_sums(json_t *jobs, const json_t *gopts) {
  size_t i = 0;
  while (i < json_array_size(jobs)) {
    json_t *e = json_array_get(jobs, i);
    const char *name = json_string_value(json_object_get(e, "jobname"));
    const json_t *jo = json_object_get(e, "job options");
    const char *nj = opt(jo, "numjobs") ? opt(jo, "numjobs") : opt(gopts, "numjobs");
    const char *g = opt(jo, "group_reporting") ? opt(jo, "group_reporting") : opt(gopts, "group_reporting");
    const char *host = json_string_value(json_object_get(e, "hostname"));
    size_t j = i + 1;
    while (name && j < json_array_size(jobs)) {
      const json_t *f = json_array_get(jobs, j);
      const char *fh = json_string_value(json_object_get(f, "hostname"));
      if (!json_equal(json_object_get(f, "jobname"), json_object_get(e, "jobname")) ||
          !json_equal(json_object_get(f, "job options"), (json_t *)jo) || (!host != !fh) ||
          (host && strcmp(host, fh)))
        break;
      j++;
    }
    /* numjobs named and above 1, and no group_reporting: clones; a bare
     * group_reporting is left out of fio's JSON, so entries that already
     * are sums are known by their count: N clones each */
    if (j - i > 1 && nj && strtol(nj, NULL, 10) > 1 && !(g && strcmp(g, "0")) &&
        (size_t)strtol(nj, NULL, 10) >= j - i && j - i <= IMPORT_FIO_MAX_THREAD_LOGS) {
      json_t *cl[IMPORT_FIO_MAX_THREAD_LOGS];
      for (size_t k = i; k < j; k++) {
        cl[k - i] = json_array_get(jobs, k);
        json_object_set_new(cl[k - i], "ssdrev_clone", json_pack("[I,I]", (json_int_t)(k - i + 1), (json_int_t)(j - i)));
      }
      json_array_insert_new(jobs, j, fio_clone_aggregate(cl, j - i));
      j++;
    }
    i = j;
  }
}

/* fio's error for the job, or no I/O in any direction and no runtime: fio
 * did not run it (it gave up before its first I/O: "file creation
 * disallowed", a missing directory; fio 3.x says so on stderr only, with
 * "error": 0). */
static int fio_failed(const json_t *job) {
  if (json_integer_value(json_object_get(job, "error"))) return 1;
  double ios = 0;
  for (unsigned d = 0; d < 3; d++) ios += json_number_value(json_object_get(json_object_get(job, fio_ddirs[d]), "total_ios"));
  return ios <= 0 && json_integer_value(json_object_get(job, "job_runtime")) <= 0;
}

/* Whether the job ran for its runtime (time_based): "time_based=1" is in
 * the JSON's options, but a bare "time_based" (fio's usual spelling) is left
 * out of them entirely. A job that ran its whole runtime, or moved more than
 * its size, was bounded by time all the same. */
static int fio_timed(const json_t *opts, const json_t *job) {
  const char *tb = opt(opts, "time_based");
  if (tb) return strcmp(tb, "0") != 0;
  /* a count of I/Os bounds it (the method's tail jobs): not by time */
  if (opt(opts, "number_ios")) return 0;
  struct fio_why why;
  int has_rt = 0;
  uint64_t rt_ns = 0, size = 0;
  if (fio_time_ns(opts, "runtime", &has_rt, &rt_ns, &why) || !has_rt || !rt_ns) return 0;
  json_int_t ran_ms = json_integer_value(json_object_get(job, "job_runtime"));
  /* fio stops a time-based job at the first completion past its runtime:
   * within a few ms (allow 2 %, and 50 ms on short runs) */
  double want_ms = (double)rt_ns / 1e6;
  if ((double)ran_ms >= want_ms - fmax(50.0, want_ms * 0.02)) return 1;
  const char *sz = opt(opts, "size");
  if (sz && !strchr(sz, '%') && !fio_size(opts, "size", 0, 0, FIO_MAX_I64, &size, &why) && size) {
    double moved = 0;
    for (unsigned d = 0; d < 3; d++)
      moved += json_number_value(json_object_get(json_object_get(job, fio_ddirs[d]), "io_bytes"));
    if (moved > (double)size) return 1;
  }
  return 0;
}

/* fio before 2.5 wrote no options: the share of reads (0..100) from the
 * I/Os each direction did, -1 when the job has options or did none. */
static int fio_read_share(const json_t *job) {
  if (json_object_get(job, "job options")) return -1;
  double r = json_number_value(json_object_get(json_object_get(job, "read"), "total_ios"));
  double w = json_number_value(json_object_get(json_object_get(job, "write"), "total_ios"));
  return r + w > 0 ? (int)floor(r * 100.0 / (r + w) + 0.5) : -1;
}

/* fio before 2.5 wrote no options: the block size when every direction's
 * bytes are a whole number of its I/Os of one size (fio 2.2+ counts them);
 * 0 when the job has options, or that is not so. */
static uint64_t fio_inferred_block(const json_t *job) {
  if (json_object_get(job, "job options")) return 0;
  uint64_t bs = 0;
  for (unsigned d = 0; d < 3; d++) {
    const json_t *s = json_object_get(job, fio_ddirs[d]);
    /* a count fio did not write (2.0/2.1) was itself made from a block size */
    if (json_object_get(json_object_get(job, "ssdrev_units"), "total_ios")) return 0;
    json_int_t n = json_integer_value(json_object_get(s, "total_ios"));
    json_int_t b = json_integer_value(json_object_get(s, "io_bytes"));
    if (n <= 0) continue;
    if (b <= 0 || b % n || (bs && (uint64_t)(b / n) != bs) || b / n > (json_int_t)FIO_MAX_BLOCK) return 0;
    bs = (uint64_t)(b / n);
  }
  return bs;
}

/* The job's parameters in the shape of bench_job_to_json, from fio options;
 * NULL (and why) when an option is out of range. */
static json_t *fio_params(const json_t *opts, int timed, int read_share, uint64_t inferred_block,
                          struct fio_why *why) {
  const char *rw = opt(opts, "rw");
  if (!rw) rw = opt(opts, "readwrite");
  if (!rw) rw = "read";
  int mixed = !strncmp(rw, "rw", 2) || !strncmp(rw, "readwrite", 9) || !strncmp(rw, "randrw", 6);
  int reads = !strncmp(rw, "read", 4) || !strncmp(rw, "randread", 8);
  uint64_t read_pct = reads ? 100 : 0, write_pct = 50, block, qd, offset, span, measure_ns, ramp_ns;
  int rc = 0, has_measure = 0, has_ramp = 0;
  if (mixed) {
    if (opt(opts, "rwmixread")) rc = fio_uint(opts, "rwmixread", 50, 0, 100, &read_pct, why);
    else if (!(rc = fio_uint(opts, "rwmixwrite", 50, 0, 100, &write_pct, why))) read_pct = 100 - write_pct;
  }
  const char *bs_key = opt(opts, "bs") || !opt(opts, "blocksize") ? "bs" : "blocksize";
  if (!rc) rc = fio_size(opts, bs_key, 4096, 1, FIO_MAX_BLOCK, &block, why);
  if (!rc) rc = fio_uint(opts, "iodepth", 1, 1, 65536, &qd, why);
  if (!rc) rc = fio_size(opts, "offset", 0, 0, FIO_MAX_I64, &offset, why);
  if (!rc) rc = fio_size(opts, "size", 0, 0, FIO_MAX_I64, &span, why);
  /* runtime bounds the job only when time_based; ramp_time always applies */
  if (!rc && timed) rc = fio_time_ns(opts, "runtime", &has_measure, &measure_ns, why);
  if (!rc) rc = fio_time_ns(opts, "ramp_time", &has_ramp, &ramp_ns, why);
  if (rc) return NULL;
  json_t *p = json_object();
  json_object_set_new(p, "pattern", json_string(!strncmp(rw, "rand", 4) ? "rand" : "seq"));
  if (!opt(opts, "rw") && !opt(opts, "readwrite") && read_share >= 0) read_pct = (uint64_t)read_share;
  json_object_set_new(p, "read_pct", json_integer((json_int_t)read_pct));
  /* (no options: the size the I/Os had) */
  json_object_set_new(p, "block_bytes", json_integer((json_int_t)(inferred_block ? inferred_block : block)));
  json_object_set_new(p, "qd", json_integer((json_int_t)qd));
  json_object_set_new(p, "threads", json_integer(1)); /* numjobs clones are separate jobs */
  json_object_set_new(p, "offset_bytes", json_integer((json_int_t)offset));
  json_object_set_new(p, "span_bytes", json_integer((json_int_t)span));
  if (has_measure) json_object_set_new(p, "measure_ns", json_integer((json_int_t)measure_ns));
  if (has_ramp) json_object_set_new(p, "ramp_ns", json_integer((json_int_t)ramp_ns));
  char engine[64];
  snprintf(engine, sizeof engine, "fio:%s", opt(opts, "ioengine") ? opt(opts, "ioengine") : "psync");
  json_object_set_new(p, "engine", json_string(engine));
  return p;
}

/* Summary of one job entry: totals and per-direction stats with bucketed
 * percentiles. Fills the test's "result" and "fio" keys. */
/* One direction (or all) in the shape of analyze's "ops" entries, from fio's
 * completion latencies (clat): what a test without a log is analyzed as. */
static json_t *summary_op(uint64_t ios, double mb_s, double iops, double clat_mean_ns, double clat_max_ns,
                          const json_t *bins, const json_t *clat) {
  json_t *o = json_object();
  json_object_set_new(o, "ios", json_integer((json_int_t)ios));
  json_object_set_new(o, "mb_s", json_real(mb_s));
  json_object_set_new(o, "iops", json_real(iops));
  json_object_set_new(o, "lat_mean_us", json_real(clat_mean_ns / 1e3));
  if (clat_max_ns > 0) json_object_set_new(o, "lat_max_us", json_real(clat_max_ns / 1e3));
  /* fio's own minimum and deviation, where the entry is one direction's
   * (those of all directions together are not fio's figures) */
  if (json_is_number(json_object_get(clat, "min")) && clat_max_ns > 0)
    json_object_set_new(o, "lat_min_us", json_real(json_number_value(json_object_get(clat, "min")) / 1e3));
  if (json_is_number(json_object_get(clat, "stddev")) && clat_max_ns > 0)
    json_object_set_new(o, "lat_stddev_us", json_real(json_number_value(json_object_get(clat, "stddev")) / 1e3));
  json_t *pct = import_fio_bins_percentiles(bins, fio_pcts, sizeof fio_pcts / sizeof fio_pcts[0]);
  if (pct) json_object_set_new(o, "pct", pct);
  return o;
}

static void fio_summarize(json_t *test, const json_t *job, const json_t *opts, uint64_t *ios_out) {
  json_t *ops = json_object();
  json_t *sops = json_object(), *allbins = json_object();
  double clat_sum = 0, clat_max = 0;
  uint64_t ios = 0, bytes = 0;
  double bw = 0, iops = 0, lat_sum = 0;
  unsigned ndirs = 0; /* directions with I/O; one_clat: the last one's clat */
  const json_t *one_clat = NULL;
  for (unsigned d = 0; d < 3; d++) {
    const json_t *s = json_object_get(job, fio_ddirs[d]);
    uint64_t n = (uint64_t)json_integer_value(json_object_get(s, "total_ios"));
    if (!n) continue;
    const json_t *clat = json_object_get(s, "clat_ns");
    const json_t *lat = json_object_get(s, "lat_ns");
    json_t *o = json_object();
    json_object_set_new(o, "ios", json_integer((json_int_t)n));
    json_object_set(o, "bytes", json_object_get(s, "io_bytes"));
    json_object_set_new(o, "mb_s", json_real(json_number_value(json_object_get(s, "bw_bytes")) / 1e6));
    json_object_set(o, "iops", json_object_get(s, "iops"));
    json_object_set(o, "runtime_ms", json_object_get(s, "runtime"));
    json_object_set(o, "lat_mean_ns", json_object_get(lat, "mean"));
    json_object_set(o, "clat_mean_ns", json_object_get(clat, "mean"));
    json_object_set(o, "clat_min_ns", json_object_get(clat, "min"));
    json_object_set(o, "clat_max_ns", json_object_get(clat, "max"));
    json_t *pct = import_fio_bins_percentiles(json_object_get(clat, "bins"), fio_pcts,
                                             sizeof fio_pcts / sizeof fio_pcts[0]);
    const char *src = "json+ bins";
    if (!pct) {
      pct = fio_listed_percentiles(json_object_get(clat, "percentile"));
      /* numjobs clones without bins: their lists cannot be merged */
      src = json_object_get(job, "ssdrev_pct_approximate")
                ? "approximate: the numjobs clones' percentile lists, averaged weighted by I/Os (no json+ bins)"
                : "fio percentile list";
    }
    if (pct) {
      json_object_set_new(o, "clat_pct", pct);
      json_object_set_new(o, "clat_pct_source", json_string(src));
    }
    json_object_set_new(ops, fio_ddirs[d], o);
    ndirs++;
    one_clat = clat;
    const json_t *bins = json_object_get(clat, "bins");
    json_object_set_new(sops, fio_ddirs[d],
                        summary_op(n, json_number_value(json_object_get(s, "bw_bytes")) / 1e6,
                                   json_number_value(json_object_get(s, "iops")),
                                   json_number_value(json_object_get(clat, "mean")),
                                   json_number_value(json_object_get(clat, "max")), bins, clat));
    const char *bk;
    json_t *bv;
    json_object_foreach((json_t *)bins, bk, bv) {
      /* the counts were checked (fio_bins_ok): their sum fits 63 bits */
      json_int_t had = json_integer_value(json_object_get(allbins, bk));
      json_object_set_new(allbins, bk, json_integer(had + json_integer_value(bv)));
    }
    clat_sum += json_number_value(json_object_get(clat, "mean")) * (double)n;
    if (json_number_value(json_object_get(clat, "max")) > clat_max) clat_max = json_number_value(json_object_get(clat, "max"));
    ios += n;
    bytes += (uint64_t)json_integer_value(json_object_get(s, "io_bytes"));
    bw += json_number_value(json_object_get(s, "bw_bytes"));
    iops += json_number_value(json_object_get(s, "iops"));
    double mean = json_number_value(json_object_get(lat, "mean"));
    if (mean <= 0) mean = json_number_value(json_object_get(clat, "mean"));
    lat_sum += mean * (double)n;
  }
  uint64_t runtime_ms = (uint64_t)json_integer_value(json_object_get(job, "job_runtime"));
  json_t *r = json_object();
  json_object_set_new(r, "ios", json_integer((json_int_t)ios));
  json_object_set_new(r, "bytes", json_integer((json_int_t)bytes));
  json_object_set_new(r, "errors", json_integer(0)); /* fio logs completed I/Os only */
  json_object_set_new(r, "elapsed_ns", json_integer((json_int_t)(runtime_ms * 1000000ull)));
  json_object_set_new(r, "mb_s", json_real(bw / 1e6));
  json_object_set_new(r, "iops", json_real(iops));
  json_object_set_new(r, "mean_lat_ns", json_real(ios ? lat_sum / (double)ios : 0));
  json_object_set_new(test, "result", r);
  json_t *f = json_object();
  json_object_set(f, "jobname", json_object_get(job, "jobname"));
  if (json_object_get(job, "hostname")) json_object_set(f, "hostname", json_object_get(job, "hostname"));
  if (json_object_get(job, "port")) json_object_set(f, "port", json_object_get(job, "port"));
  json_object_set(f, "groupid", json_object_get(job, "groupid"));
  json_object_set(f, "error", json_object_get(job, "error"));
  /* what an older fio wrote in other units and was converted on import */
  if (json_object_get(job, "ssdrev_units")) json_object_set(f, "converted", json_object_get(job, "ssdrev_units"));
  json_object_set_new(f, "job_runtime_ms", json_integer((json_int_t)runtime_ms));
  json_object_set(f, "options", (json_t *)opts);
  json_object_set_new(f, "ops", ops);
  json_object_set_new(test, "fio", f);
  /* tests without a log still carry a summary (docs/archive.md) */
  json_t *s = json_object();
  json_object_set_new(s, "mb_s", json_real(bw / 1e6));
  json_object_set_new(s, "iops", json_real(iops));
  json_object_set_new(s, "lat_us", json_real(ios ? clat_sum / (double)ios / 1e3 : 0));
  json_object_set_new(s, "lat_total_us", json_real(ios ? lat_sum / (double)ios / 1e3 : 0)); /* fio's "lat" */
  json_object_set_new(test, "summary", s);
  json_object_set_new(sops, "all", summary_op(ios, bw / 1e6, iops, ios ? clat_sum / (double)ios : 0, clat_max, allbins,
                                                     ndirs == 1 ? one_clat : NULL));
  json_decref(allbins);
  json_object_set_new(test, "summary_ops", sops);
  /* without a log, every figure is fio's completion latency */
  json_object_set_new(test, "latency", json_string("clat"));
  *ios_out = ios;
}

static int file_nonempty(const char *path) {
  struct stat st;
  return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0;
}

int import_fio_check_option(const char *name, const char *value, struct ssdrev_err *err) {
  if (!strcmp(name, "latency") && strcmp(value, "auto") && strcmp(value, "lat") && strcmp(value, "clat"))
    return ssdrev_fail(err, -EINVAL, "--latency: expected auto, lat or clat, got '%s'", value);
  if (!strcmp(name, "log-offset") && strcmp(value, "0") && strcmp(value, "1"))
    return ssdrev_fail(err, -EINVAL, "--log-offset: expected 0 or 1, got '%s'", value);
  if (!strcmp(name, "logs") && !*value) return ssdrev_fail(err, -EINVAL, "--logs: needs a directory");
  return 0;
}

static enum import_fio_lat lat_choice(const struct import_opts *o) {
  const char *v = import_opt(o, "latency");
  return !v || !strcmp(v, "auto") ? IMPORT_FIO_LAT_AUTO : !strcmp(v, "lat") ? IMPORT_FIO_LAT_TOTAL : IMPORT_FIO_LAT_CLAT;
}

/* Finds the job's latency log: PREFIX_{lat,clat}.N.log (or PREFIX_lat.log with
 * per_job_logs=0), with ".HOST" appended for client/server runs. */
static int find_log(const struct import_opts *o, const char *json_dir, const json_t *opts,
                    unsigned thread_no, const char *host, char *out, size_t len, const char **kind) {
  const char *prefix = opt(opts, "write_lat_log");
  if (!prefix) return 0;
  static const char *const kinds_auto[] = {"lat", "clat"};
  const char *const *kinds = kinds_auto;
  size_t nkinds = 2;
  if (lat_choice(o) == IMPORT_FIO_LAT_TOTAL) nkinds = 1;
  if (lat_choice(o) == IMPORT_FIO_LAT_CLAT) kinds = kinds_auto + 1, nkinds = 1;
  const char *log_dir = import_opt(o, "logs");
  const char *dirs[2] = {log_dir ? log_dir : json_dir, log_dir ? NULL : "."};
  int per_job = !opt(opts, "per_job_logs") || strcmp(opt(opts, "per_job_logs"), "0");
  for (size_t k = 0; k < nkinds; k++) {
    for (size_t d = 0; d < 2; d++) {
      if (!dirs[d] || (prefix[0] == '/' && d > 0)) continue;
      char num[24] = "";
      if (per_job) snprintf(num, sizeof num, ".%u", thread_no);
      int n = snprintf(out, len, "%s%s%s_%s%s.log%s%s", prefix[0] == '/' ? "" : dirs[d],
                       prefix[0] == '/' ? "" : "/", prefix, kinds[k], num, host ? "." : "",
                       host ? host : "");
      if (n > 0 && (size_t)n < len && file_nonempty(out)) {
        *kind = kinds[k];
        return 1;
      }
    }
  }
  return 0;
}

/* The job's bandwidth log (write_bw_log): PREFIX_bw.N.log[.HOST], looked for
 * where the latency logs are. */
static int find_bw_log(const struct import_opts *o, const char *json_dir, const json_t *opts, unsigned thread_no,
                       const char *host, char *out, size_t len) {
  const char *prefix = opt(opts, "write_bw_log");
  if (!prefix) return 0;
  const char *log_dir = import_opt(o, "logs");
  const char *dirs[2] = {log_dir ? log_dir : json_dir, log_dir ? NULL : "."};
  int per_job = !opt(opts, "per_job_logs") || strcmp(opt(opts, "per_job_logs"), "0");
  for (size_t d = 0; d < 2; d++) {
    if (!dirs[d] || (prefix[0] == '/' && d > 0)) continue;
    char num[24] = "";
    if (per_job) snprintf(num, sizeof num, ".%u", thread_no);
    int n = snprintf(out, len, "%s%s%s_bw%s.log%s%s", prefix[0] == '/' ? "" : dirs[d], prefix[0] == '/' ? "" : "/",
                     prefix, num, host ? "." : "", host ? host : "");
    if (n > 0 && (size_t)n < len && file_nonempty(out)) return 1;
  }
  return 0;
}

#define FIO_BW_TRACE_MAX 1000000 /* points of an averaged bandwidth log (a week at 1 s) */
/* The longest line of an averaged bandwidth log: fio writes about 30 bytes
 * ("time, KiB/s, ddir, bs, offset, prio[, issue time]"); a longer line is
 * refused, naming it, rather than cut (fgets of 512 bytes read the rest of
 * a long line as another window: 99,999,999 KiB/s was accepted) */
#define FIO_BW_LINE_MAX 4096

/* One line of f into buf (cap bytes, the newline dropped, a CR before it
 * too): 1, 0 at the end of the file, -E2BIG for a line of cap bytes or more,
 * -EINVAL for a NUL byte in it (the line's end is not read then). */
static int bw_line(FILE *f, char *buf, size_t cap, size_t *len) {
  size_t n = 0;
  int c;
  while ((c = getc_unlocked(f)) != EOF && c != '\n') { /* f is this thread's own */
    if (!c) return -EINVAL;
    if (n + 1 >= cap) return -E2BIG;
    buf[n++] = (char)c;
  }
  if (c == EOF && !n) return 0;
  if (n && buf[n - 1] == '\r') n--;
  buf[n] = 0;
  *len = n;
  return 1;
}

/* An averaged bandwidth log (log_avg_msec > 0) as a fill trace: the write
 * direction's "time_ms, KiB/s, ddir, bs[, ...]" lines as {"file",
 * "interval_ms", "t_s", "mb_s"} (t_s: the end of each window). Every field
 * is a non-negative integer (the priority may be hex); fails naming the file
 * and line on a malformed, overlong or NUL-holding line. */
static json_t *bw_trace_read(const char *path, double interval_ms, int lat, struct ssdrev_err *err) {
  /* a regular file only (a FIFO would block the import) */
  int fd = ssdrev_open_read(path, NULL, err);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "r");
  if (!f) {
    int e = errno;
    close(fd);
    ssdrev_fail(err, -e, "cannot open fio bandwidth log '%s': %s", path, strerror(e));
    return NULL;
  }
  json_t *t = json_array(), *m = json_array(), *dd = json_array();
  char line[FIO_BW_LINE_MAX];
  size_t len;
  unsigned long long no = 0;
  int bad = 0, got;
  while (!bad && (got = bw_line(f, line, sizeof line, &len)) != 0) {
    no++;
    if (got < 0) {
      bad = 1;
      ssdrev_fail(err, -EINVAL, "bad fio bandwidth log '%s' line %llu: %s", path, no,
                  got == -E2BIG ? "longer than 4095 bytes" : "a NUL byte");
      break;
    }
    /* time_ms, KiB/s, ddir, bs, then fio's further integer columns */
    unsigned long long v[4];
    const char *c = line;
    int nf = 0;
    while (!bad) {
      char *end;
      while (*c == ' ' || *c == '\t') c++;
      errno = 0;
      unsigned long long x = strtoull(c, &end, nf < 4 ? 10 : 0); /* the priority: 0x%04x with log_prio=1 */
      if (end == c || errno || *c == '-' || *c == '+') bad = 1;
      while (*end == ' ' || *end == '\t') end++;
      if (*end && *end != ',') bad = 1;
      if (nf < 4) v[nf] = x;
      nf++;
      if (!*end) break;
      c = end + 1;
    }
    if (bad || nf < 4 || v[0] > (1ull << 43)) {
      bad = 1;
      ssdrev_fail(err, -EINVAL, "bad fio bandwidth log '%s' line %llu: expected 'time_ms, KiB/s, ddir, bs' "
                  "(non-negative integers)", path, no);
      break;
    }
    if (!lat && v[2] != 1) continue; /* the write direction is the fill */
    if (json_array_size(t) == FIO_BW_TRACE_MAX) {
      bad = 1;
      ssdrev_fail(err, -E2BIG, "fio bandwidth log '%s' has more than %d write windows", path, FIO_BW_TRACE_MAX);
      break;
    }
    json_array_append_new(t, json_real((double)v[0] / 1e3));
    /* a latency log's mean per window is in ns (fio 3.x) */
    json_array_append_new(m, json_real(lat ? (double)v[1] / 1e3 : (double)v[1] * 1024.0 / 1e6));
    if (lat) json_array_append_new(dd, json_string(v[2] < 3 ? fio_ddirs[v[2]] : "?"));
  }
  if (!bad && ferror(f)) {
    int e = errno ? errno : EIO;
    bad = 1;
    ssdrev_fail(err, -e, "cannot read fio bandwidth log '%s': %s", path, strerror(e));
  }
  fclose(f);
  if (bad) {
    json_decref(t);
    json_decref(m);
    json_decref(dd);
    return NULL;
  }
  char abs[PATH_MAX];
  if (lat)
    return json_pack("{s:s, s:f, s:o, s:o, s:o}", "file", realpath(path, abs) ? abs : path, "interval_ms",
                     interval_ms, "t_s", t, "lat_us", m, "ddir", dd);
  json_decref(dd);
  return json_pack("{s:s, s:f, s:o, s:o}", "file", realpath(path, abs) ? abs : path, "interval_ms", interval_ms,
                   "t_s", t, "mb_s", m);
}

/* Converts the job's log(s) into one ssdrev log. Several paths are the
 * threads of a group_reporting entry; each keeps its thread in queue_id. */
static int import_job_log(struct archive *run, json_t *test, const char *name, char **log_paths,
                          unsigned npaths, const char *lat_kind, int bw, const json_t *opts,
                          const struct import_opts *o, uint64_t start_unix_ns, uint64_t fio_ios,
                          uint64_t ramp_ns, const char *input, struct import_result *res, struct ssdrev_err *err) {
  char rel[600];
  archive_log_rel(rel, sizeof rel, name);
  char *params = json_dumps(json_object_get(test, "params"), JSON_COMPACT);
  struct ssdlog_writer *w;
  int rc = ssdlog_writer_open(&w, archive_path(run, rel), SSDLOG_CLOCK_IMPORTED, start_unix_ns,
                                 params, 0, err);
  /* the analysis' duration limit, from the params it will read */
  uint64_t max_done_ns = ssdlog_params_max_done_ns(params);
  free(params);
  if (rc) return rc;
  const char *lo = import_opt(o, "log-offset");
  struct import_fio_log_fmt fmt = {.has_offset = lo ? lo[0] - '0' : -1, .queue_id = 0, .max_done_ns = max_done_ns};
  /* the JSON lists every option set, so no log_offset means fio's default 0;
   * guessing by column count would take fio 3.36's issue-time column (or
   * the prio) of a 6-column log for an offset */
  if (fmt.has_offset < 0) fmt.has_offset = opt(opts, "log_offset") && strcmp(opt(opts, "log_offset"), "0") != 0;
  fmt.bw_log = bw;
  fmt.ramp_ns = ramp_ns;
  /* no offsets: a sequential job's positions follow from its pattern, so
   * its fill trace can still be drawn (docs/interop.md) */
  const json_t *pr = json_object_get(test, "params");
  const char *pat = json_string_value(json_object_get(pr, "pattern"));
  if (!fmt.has_offset && pat && !strcmp(pat, "seq")) {
    fmt.seq_rebuild = 1;
    fmt.seq_start_bytes = (uint64_t)json_integer_value(json_object_get(pr, "offset_bytes"));
    fmt.seq_span_bytes = (uint64_t)json_integer_value(json_object_get(pr, "span_bytes"));
  }
  struct import_fio_log_stats st, all = {0};
  json_t *files = json_array();
  for (unsigned i = 0; i < npaths && !rc; i++) {
    fmt.queue_id = (uint16_t)i;
    rc = import_fio_log_import(log_paths[i], &fmt, w, &st, err);
    all.lines += st.lines;
    all.clamped += st.clamped;
    all.rebuilt += st.rebuilt;
    if (!all.columns) all.columns = st.columns;
    char abs[PATH_MAX];
    json_array_append_new(files, json_string(realpath(log_paths[i], abs) ? abs : log_paths[i]));
  }
  struct ssdrev_err cerr = {{0}};
  int crc = ssdlog_writer_close(w, rc ? &cerr : err);
  if (!rc) rc = crc;
  if (rc) {
    json_decref(files);
    remove(archive_path(run, rel));
    return rc;
  }
  json_object_set_new(test, "log", json_string(rel));
  json_t *ls = json_object();
  json_object_set(ls, "file", json_array_get(files, 0));
  if (npaths > 1) json_object_set(ls, "files", files); /* one per thread: queue_id 0, 1, ... */
  json_decref(files);
  json_object_set_new(ls, "kind", json_string(lat_kind));
  /* which latency every figure of this test is: fio's total (lat) or its
   * completion latency (clat, without the submission) */
  json_object_set_new(test, "latency", json_string(lat_kind));
  json_object_set_new(ls, "columns", json_integer(all.columns));
  json_object_set_new(ls, "records", json_integer((json_int_t)all.lines));
  json_object_set_new(ls, "submit_clamped", json_integer((json_int_t)all.clamped));
  json_object_set_new(ls, "time_resolution_ns", json_integer(1000000));
  if (all.rebuilt)
    json_object_set_new(ls, "offsets", json_string("rebuilt from the sequential pattern (no log_offset): "
                                                   "within iodepth x bs of the real ones"));
  json_object_set_new(test, "log_source", ls);
  json_object_del(test, "summary"); /* the log is the source of truth now */
  json_object_del(test, "summary_ops");
  res->logs++;
  res->log_ios += all.lines;
  /* fio counts an I/O when it submits it (total_io_u, reset when ramp_time
   * ends) but logs it when it completes: the up to iodepth I/Os in flight
   * at the ramp's end are logged and not counted, those in flight at the
   * end may be counted and not logged. A difference of at most iodepth per
   * thread is what fio does, recorded, not warned about. */
  uint64_t edge = (uint64_t)json_integer_value(json_object_get(pr, "qd")) * (npaths ? npaths : 1);
  uint64_t diff = all.lines > fio_ios ? all.lines - fio_ios : fio_ios - all.lines;
  if (diff) json_object_set_new(ls, "fio_total_ios", json_integer((json_int_t)fio_ios));
  if (diff > edge)
    import_warn(run, res, "'%s' job %s: log '%s'%s holds %llu I/Os, fio counted %llu (fio %s)", input, name,
                log_paths[0], npaths > 1 ? " and the other threads' logs" : "",
                (unsigned long long)all.lines, (unsigned long long)fio_ios,
                all.lines < fio_ios ? "dropped samples; client/server runs may lose the log's tail"
                                    : "counted fewer than it logged");
  return 0;
}

/* group_reporting set and not 0 */
static int grouped(const json_t *opts) {
  const char *g = opt(opts, "group_reporting");
  return g && strcmp(g, "0");
}

/* ---------------------------------------------------- the method's kinds */

/* CrystalDiskMark's cells (versions 6 to 9, every profile): a time-based fio
 * job of one of these shapes is that cell. */
static const char *const cdm_cells[] = {
    "SEQ1M Q8T1", "SEQ1M Q32T1", "SEQ1M Q1T1", "SEQ128K Q32T1", "SEQ128K Q32T2",
    "RND4K Q32T16", "RND4K Q32T1", "RND4K Q8T8", "RND4K Q16T16", "RND4K Q1T1", NULL,
};

struct fio_map_ctx {
  int saw_fill; /* a whole-target fill came earlier in this file */
};


/* Gives the test the kind and keys of the method step its parameters make
 * it (docs/interop.md): a QD-scaling point, a CrystalDiskMark cell, an
 * RW-sweep point, a tail workload or a fill; anything else stays a plain
 * "job". */
static void fio_map(json_t *test, const json_t *opts, int timed, const char *state, struct fio_map_ctx *m) {
  const json_t *p = json_object_get(test, "params");
  const char *rw = opt(opts, "rw") ? opt(opts, "rw") : opt(opts, "readwrite") ? opt(opts, "readwrite") : "read";
  int mixed = !strncmp(rw, "rw", 2) || !strncmp(rw, "readwrite", 9) || !strncmp(rw, "randrw", 6);
  int rand = !strcmp(json_string_value(json_object_get(p, "pattern")), "rand");
  json_int_t read_pct = json_integer_value(json_object_get(p, "read_pct"));
  json_int_t bs = json_integer_value(json_object_get(p, "block_bytes"));
  json_int_t qd = json_integer_value(json_object_get(p, "qd"));
  json_int_t threads = json_integer_value(json_object_get(p, "threads"));
  uint64_t numjobs = 1;
  struct fio_why why;
  if (fio_uint(opts, "numjobs", 1, 1, 4096, &numjobs, &why)) numjobs = 1;
  if ((json_int_t)numjobs > threads) threads = (json_int_t)numjobs;
  const char *size = opt(opts, "size");
  size_t sl = size ? strlen(size) : 0;
  double size_pct = sl && size[sl - 1] == '%' ? strtod(size, NULL) : -1;
  char cell[48] = "";
  if (bs >= 1024 && bs % 1024 == 0) {
    json_int_t kb = bs / 1024;
    if (kb % 1024 == 0) snprintf(cell, sizeof cell, "%s%lldM Q%lldT%lld", rand ? "RND" : "SEQ", (long long)(kb / 1024),
                                 (long long)qd, (long long)threads);
    else snprintf(cell, sizeof cell, "%s%lldK Q%lldT%lld", rand ? "RND" : "SEQ", (long long)kb, (long long)qd,
                  (long long)threads);
  }
  int known = 0;
  for (const char *const *c = cdm_cells; *c && !known; c++) known = !strcmp(*c, cell);
  const char *kind = "job";
  int whole = !size || size_pct >= 100;
  if (timed && rand && !mixed && whole && opt(opts, "ramp_time") && threads == 1 && (read_pct == 100 || read_pct == 0)) {
    /* a ramped pure random read or write over the whole target: a
     * QD-scaling point (a CrystalDiskMark cell has its region's size; a
     * steady-state round or consistency write has no ramp) */
    kind = "qd_scaling";
    json_object_set_new(test, "workload", json_string(read_pct ? "read" : "write"));
    json_object_set_new(test, "qd", json_integer(qd));
  } else if (timed && known && (!mixed || state) && size_pct < 100) {
    /* (size=100%: the whole target, as the method's steady-state,
     * consistency and thermal writes; CrystalDiskMark tests a region) */
    /* a mixed cell only when the file names its fill state: without one a
     * time-based random mix is an RW-sweep point */
    kind = "cdm";
    json_object_set_new(test, "state", json_string(state ? state : "FOB"));
    json_object_set_new(test, "profile", json_string("default"));
    json_object_set_new(test, "cell", json_string(cell));
    json_object_set_new(test, "op", json_string(mixed ? "mix" : read_pct ? "read" : "write"));
    json_object_set_new(test, "pass", json_integer(1));
  } else if (timed && mixed && rand && threads == 1) {
    kind = "rw_sweep";
    json_object_set_new(test, "qd", json_integer(qd));
    json_object_set_new(test, "read_pct", json_integer(read_pct));
  } else if (!timed && rand && qd == 1 && threads == 1 && (read_pct == 100 || read_pct == 70 || read_pct == 0) &&
             (mixed || read_pct != 70)) {
    kind = "tail";
    json_object_set_new(test, "workload", json_string(read_pct == 100 ? "read" : read_pct ? "mix70" : "write"));
  } else if (!timed && !rand && read_pct == 0 && !mixed && !opt(opts, "startdelay")) {
    /* (a sequential write after an idle, startdelay, is no fill: a cache
     * recovery write stays a plain job) */
    if (size_pct > 0 && size_pct < 100) {
      kind = "prefill";
      json_object_set_new(test, "fill_pct", json_real(size_pct));
    } else if (size_pct >= 100 || !size) {
      kind = "fill_drive";
      json_object_set_new(test, "phase", json_string("empty"));
      m->saw_fill = 1;
    } else if (m->saw_fill) {
      /* an absolute size after the whole-target fill: the near-full rewrite */
      kind = "fill_drive";
      json_object_set_new(test, "phase", json_string("near_full"));
    } else {
      kind = "prefill"; /* a region written before it is measured */
    }
  }
  json_object_set_new(test, "kind", json_string(kind));
  if (strcmp(kind, "cdm") && state) json_object_set_new(test, "state", json_string(state));
}

/* AS (NULL for `ssdrev import fio`): the one job of the input is that test
 * of the method, named and keyed as ssdrev's own engine would (the review's
 * fio engine); the run's target and source are the review's, left alone. */
static int fio_add_doc(struct archive *run, const struct import_input *in, int multi, const struct import_opts *o,
                       const struct import_fio_test *as, json_t **test_out, struct import_result *res,
                       struct ssdrev_err *err, json_t *root, size_t docno) {
  const char *input = in->path;
  const char *log_dir = import_opt(o, "logs");
  json_t *jobs = json_object_get(root, "client_stats");
  int client_mode = json_is_array(jobs);
  if (!client_mode) jobs = json_object_get(root, "jobs");
  const json_t *gopts = json_object_get(root, "global options");
  char dirbuf[PATH_MAX];
  snprintf(dirbuf, sizeof dirbuf, "%s", input);
  const char *json_dir = dirname(dirbuf);
  /* names of several inputs carry the file's stem: 02-cdm_fob.json -> "02-cdm_fob." */
  char stem[128] = "";
  if (multi) import_input_stem(stem, sizeof stem, input);
  /* the second and later documents of one file: "doc2.", ... */
  if (docno > 1) {
    size_t sl = strlen(stem);
    snprintf(stem + sl, sizeof stem - sl, "doc%zu.", docno);
  }
  /* every entry in the shape of fio 3.2+ (older eras converted) */
  {
    size_t k;
    json_t *e;
    json_array_foreach(jobs, k, e) {
      json_t *eo = json_is_object(gopts) ? json_deep_copy(gopts) : json_object();
      json_object_update(eo, json_object_get(e, "job options"));
      fio_normalize_job(e, eo);
      json_decref(eo);
    }
  }
  /* the measurement's date (docs/archive.md): fio stamps the output's end;
   * of several documents the earliest */
  json_int_t stamp = json_integer_value(json_object_get(root, "timestamp"));
  if (!as && stamp > 0 && stamp <= FIO_MAX_MS / 1000) {
    char iso[32];
    time_t t = (time_t)stamp;
    struct tm tm;
    const char *had = json_string_value(json_object_get(run->manifest, "measured_at"));
    if (gmtime_r(&t, &tm) && strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm) && (!had || strcmp(iso, had) < 0))
      json_object_set_new(run->manifest, "measured_at", json_string(iso));
  }
  /* the target: what the first job ran on */
  json_t *first = json_array_get(jobs, 0);
  const char *fname = opt(json_object_get(first, "job options"), "filename");
  if (!fname) fname = opt(gopts, "filename");
  json_t *target = json_object_get(run->manifest, "target");
  const char *spec = json_string_value(json_object_get(target, "spec"));
  if (!as && fname && (!spec || !strcmp(spec, "fio"))) {
    char sp[600];
    snprintf(sp, sizeof sp, "fio:%s", fname);
    json_object_set_new(target, "spec", json_string(sp));
  }
  unsigned logs_missing = 0; /* jobs that wrote a latency log not found */
  json_t *src = as ? NULL : json_object_get(run->manifest, "source");
  if (src) {
    if (docno == 1) {
      json_object_set(src, "fio_version", json_object_get(root, "fio version"));
      json_object_set_new(src, "client_server", json_boolean(client_mode));
    }
    if (docno > 1 && json_is_array(json_object_get(src, "fio_versions")))
      json_array_append(json_object_get(src, "fio_versions"), json_object_get(root, "fio version"));
    else if (docno > 1)
      json_object_set_new(src, "fio_versions", json_pack("[OO]", json_object_get(src, "fio_version"),
                                                         json_object_get(root, "fio version")));
  }
  json_t *hosts = json_object(); /* hostname -> fio threads seen */
  json_t *used_logs = json_object(); /* log paths already imported */
  json_int_t ts_raw = json_integer_value(json_object_get(root, "timestamp_ms"));
  if (!json_object_get(root, "timestamp_ms")) {
    json_int_t ts_s = json_integer_value(json_object_get(root, "timestamp"));
    ts_raw = ts_s > 0 && ts_s <= FIO_MAX_MS / 1000 ? ts_s * 1000 : 0;
  }
  /* the output's end time only dates the logs: one out of range is unknown */
  uint64_t ts_ms = ts_raw > 0 && ts_raw <= FIO_MAX_MS ? (uint64_t)ts_raw : 0;
  size_t i;
  json_t *job;
  int rc = 0;
  /* Per host: report entries and whether any is a group_reporting entry. A
   * grouped entry stands for several fio threads (each with its own log,
   * numbered by thread). */
  json_t *entries = json_object();
  /* fio stamps only the end of the output (before 3.36's job_start): jobs of
   * one file run one after another (stonewall), so each started the sum of
   * its and the later jobs' runtimes before that end */
  uint64_t later_ms = 0;
  if (!as) fio_add_clone_sums(jobs, gopts);
  json_t *names = json_object(); /* HOST\nJOBNAME -> entries of that name */
  json_array_foreach(jobs, i, job) {
    const char *jobname = json_string_value(json_object_get(job, "jobname"));
    if (!jobname || (client_mode && !json_object_get(job, "job options") && !strcmp(jobname, "All clients")))
      continue;
    if (json_object_get(job, "ssdrev_clones")) {
      /* numjobs clones run at once: their slot of the file's time is the
       * longest clone's, their sum's job_runtime */
      json_int_t art = json_integer_value(json_object_get(job, "job_runtime"));
      if (!client_mode && art > 0 && art <= FIO_MAX_MS) later_ms += (uint64_t)art;
      continue;
    }
    {
      const char *hn = client_mode ? json_string_value(json_object_get(job, "hostname")) : NULL;
      char nk[600];
      snprintf(nk, sizeof nk, "%s\n%s", hn ? hn : "", jobname);
      json_object_set_new(names, nk, json_integer(json_integer_value(json_object_get(names, nk)) + 1));
    }
    const char *h = client_mode ? json_string_value(json_object_get(job, "hostname")) : NULL;
    const char *hk = h ? h : "";
    json_object_set_new(entries, hk, json_integer(json_integer_value(json_object_get(entries, hk)) + 1));
    if (as && json_integer_value(json_object_get(entries, hk)) > 1) {
      json_decref(entries);
      json_decref(hosts);
      json_decref(used_logs);
      json_decref(names);
      return ssdrev_fail(err, -EINVAL, "'%s' holds more than one fio job; test '%s' is one", input, as->name);
    }
    json_int_t rt = json_integer_value(json_object_get(job, "job_runtime"));
    if (!client_mode && !json_object_get(job, "ssdrev_clone") && rt > 0 && rt <= FIO_MAX_MS) later_ms += (uint64_t)rt;
  }
  struct fio_map_ctx map = {0};
  unsigned added = 0;
  json_t *taken = import_names_taken(run); /* test names in the run */
  json_array_foreach(jobs, i, job) {
    const char *jobname = json_string_value(json_object_get(job, "jobname"));
    /* client mode appends an aggregate over hosts; it has no options */
    if (!jobname || (client_mode && !json_object_get(job, "job options") && !strcmp(jobname, "All clients")))
      continue;
    const char *host = client_mode ? json_string_value(json_object_get(job, "hostname")) : NULL;
    const char *hkey = host ? host : "";
    json_t *opts = json_is_object(gopts) ? json_deep_copy(gopts) : json_object();
    json_object_update(opts, json_object_get(job, "job options"));
    /* the sum of numjobs clones (fio_add_clone_sums), and a clone: [k, n] */
    json_int_t agg = json_integer_value(json_object_get(job, "ssdrev_clones"));
    const json_t *clone = json_object_get(job, "ssdrev_clone");
    /* a group_reporting entry: one for several fio threads. A bare
     * "group_reporting" is left out of fio's JSON: numjobs=N above 1 with one
     * entry of that name is one all the same. */
    uint64_t nj_opt = 1;
    struct fio_why nwhy;
    if (fio_uint(opts, "numjobs", 1, 1, IMPORT_FIO_MAX_THREAD_LOGS, &nj_opt, &nwhy)) nj_opt = 1;
    char nk[600];
    snprintf(nk, sizeof nk, "%s\n%s", hkey, jobname);
    int host_grouped = agg || grouped(gopts) || grouped(json_object_get(job, "job options")) ||
                       (nj_opt > 1 && json_integer_value(json_object_get(names, nk)) == 1);
    int single = !agg && json_integer_value(json_object_get(entries, hkey)) == 1;
    /* fio numbers threads (and so their logs) across the file: a grouped
     * entry of numjobs=N stands for N of them; the clones' sum for the
     * clones before it */
    uint64_t numjobs = agg ? (uint64_t)agg : host_grouped ? nj_opt : 1;
    json_int_t thread_no = json_integer_value(json_object_get(hosts, hkey)) + 1;
    if (agg) thread_no -= agg;
    else json_object_set_new(hosts, hkey, json_integer(thread_no + (json_int_t)numjobs - 1));
    char raw[520], name[540], range[48];
    if (agg) snprintf(range, sizeof range, "%lld-%lld", (long long)thread_no, (long long)(thread_no + agg - 1));
    else snprintf(range, sizeof range, "%lld", (long long)thread_no);
    if (host) snprintf(raw, sizeof raw, "%sfio.%s.%s.%s", stem, host, jobname, range);
    else snprintf(raw, sizeof raw, "%sfio.%s.%s", stem, jobname, range);
    import_safe_name(name, sizeof name, raw);
    if (as) snprintf(name, sizeof name, "%s", as->name);
    struct fio_why why;
    json_t *params = fio_counts_ok(job, &why) ? fio_params(opts, fio_timed(opts, job), fio_read_share(job), fio_inferred_block(job), &why) : NULL;
    if (!params) {
      /* a value of an older fio is named as converted: say from what */
      const json_t *cv = json_object_get(job, "ssdrev_units");
      rc = ssdrev_fail(err, -EINVAL, "cannot import '%s' job %s: %s%s", input, name, why.msg,
                       json_object_get(cv, "latency") ? " (fio before 3.0: latencies in us under clat/lat/slat, "
                                                        "read as ns)" : "");
      json_decref(opts);
      break;
    }
    if (json_object_get(taken, name)) {
      rc = ssdrev_fail(err, -EEXIST, "cannot import '%s' job %s: a test of that name is already in the run "
                       "(give each input its own file name)", input, name);
      json_decref(params);
      json_decref(opts);
      break;
    }
    /* the parameters ssdrev ran the job with, not fio's reading of them */
    if (as && as->params) json_object_update(params, (json_t *)as->params);
    json_t *test = archive_add_test(run, name, params, NULL);
    json_object_set_new(taken, name, json_true());
    json_object_set_new(test, "step", json_string(as ? as->step : "fio"));
    if (!as && host_grouped && numjobs > 1)
      json_object_set_new(json_object_get(test, "params"), "threads", json_integer((json_int_t)numjobs));
    if (as) {
      json_object_set_new(test, "kind", json_string(as->kind));
      if (as->extra) json_object_update(test, (json_t *)as->extra);
    } else if (clone) {
      /* one of numjobs clones: kept as it is, a plain job; their sum (the
       * test after them) is the job section's result */
      json_int_t k = json_integer_value(json_array_get(clone, 0)), n = json_integer_value(json_array_get(clone, 1));
      char sum_raw[520], sum_name[540];
      if (host) snprintf(sum_raw, sizeof sum_raw, "%sfio.%s.%s.%lld-%lld", stem, host, jobname,
                         (long long)(thread_no - k + 1), (long long)(thread_no - k + n));
      else snprintf(sum_raw, sizeof sum_raw, "%sfio.%s.%lld-%lld", stem, jobname, (long long)(thread_no - k + 1),
                    (long long)(thread_no - k + n));
      import_safe_name(sum_name, sizeof sum_name, sum_raw);
      json_object_set_new(test, "kind", json_string("job"));
      json_object_set_new(test, "clone", json_integer(k));
      json_object_set_new(test, "clone_of", json_string(sum_name));
    } else if (fio_failed(job)) {
      /* a failed job is no step of the method (it becomes no fill, no cell) */
      json_object_set_new(test, "kind", json_string("job"));
    } else {
      fio_map(test, opts, fio_timed(opts, job), in->state, &map);
    }
    if (agg) {
      json_t *cl = json_array();
      for (json_int_t k = 0; k < agg; k++) {
        char c_raw[520], c_name[540];
        if (host) snprintf(c_raw, sizeof c_raw, "%sfio.%s.%s.%lld", stem, host, jobname, (long long)(thread_no + k));
        else snprintf(c_raw, sizeof c_raw, "%sfio.%s.%lld", stem, jobname, (long long)(thread_no + k));
        import_safe_name(c_name, sizeof c_name, c_raw);
        json_array_append_new(cl, json_string(c_name));
      }
      json_object_set_new(test, "clones", cl);
    }
    uint64_t fio_ios;
    fio_summarize(test, job, opts, &fio_ios);
    /* a sequential pure write of 8 GiB or more is a fill: analyzed for its
     * SLC cache like a review's fill_drive step (docs/interop.md) */
    if (!as && !strcmp(json_string_value(json_object_get(params, "pattern")), "seq") &&
        json_integer_value(json_object_get(params, "read_pct")) == 0 &&
        json_number_value(json_object_get(json_object_get(job, "write"), "io_bytes")) >= 8.0 * 1073741824.0) {
      json_object_set_new(test, "kind", json_string("fill_drive"));
      json_object_set_new(test, "phase", json_string("empty"));
    }
    uint64_t runtime_ms = (uint64_t)json_integer_value(json_object_get(job, "job_runtime"));
    /* fio 3.36+ records the job's start ("job_start", ms); older versions
     * stamp only the output's end */
    json_int_t job_start_ms = json_integer_value(json_object_get(job, "job_start"));
    /* (clones and their sum share one slot: the sum, last, ends it) */
    uint64_t slot_ms = agg || !clone ? runtime_ms : 0;
    uint64_t start_ms = job_start_ms > 0 ? (uint64_t)job_start_ms
                        : !client_mode && ts_ms > later_ms ? ts_ms - later_ms
                        : ts_ms > runtime_ms ? ts_ms - runtime_ms : 0;
    if (!client_mode && later_ms >= slot_ms) later_ms -= slot_ms;
    uint64_t start_unix_ns = start_ms * 1000000ull;
    char *paths[IMPORT_FIO_MAX_THREAD_LOGS];
    unsigned npaths = 0;
    char log_path[PATH_MAX];
    const char *lat_kind = NULL;
    const char *avg = opt(opts, "log_avg_msec");
    if (import_opt(o, "no-logs") || !opt(opts, "write_lat_log")) {
      /* summary only, by request or for want of a log */
    } else if (avg && strcmp(avg, "0")) {
      /* log_avg_msec > 0: one mean per window, no single I/O: kept as a
       * latency-over-time series ("lat_trace"), no per-I/O log */
      char *end;
      double ms = strtod(avg, &end);
      json_t *tr = NULL;
      if (find_log(o, json_dir, opts, (unsigned)thread_no, host, log_path, sizeof log_path, &lat_kind)) {
        tr = bw_trace_read(log_path, ms, 1, err);
        if (!tr) rc = -EINVAL;
        else json_object_set_new(tr, "kind", json_string(lat_kind));
      }
      if (tr) json_object_set_new(test, "lat_trace", tr);
      if (!rc)
        import_warn(run, res, "'%s' job %s: log_avg_msec=%s logs a mean per window, not single I/Os: %s", input,
                    name, avg, tr ? "kept as a latency-over-time series (lat_trace), no per-I/O log"
                                  : "no latency log found either");
    } else if (host_grouped && !single && !opt(opts, "numjobs")) {
      import_warn(run, res, "'%s' job %s: group_reporting merges several jobs into each report entry, so the "
                  "per-thread logs cannot be matched to entries; log not imported (run without "
                  "group_reporting)", input, name);
    } else if (!find_log(o, json_dir, opts, (unsigned)thread_no, host, log_path, sizeof log_path, &lat_kind)) {
      logs_missing++;
      import_warn(run, res, "'%s' job %s: no latency log %s_lat.%lld.log%s%s found (see --logs)", input, name,
                  opt(opts, "write_lat_log"), (long long)thread_no, host ? "." : "", host ? host : "");
    } else if (!agg && json_object_get(used_logs, log_path)) {
      /* per_job_logs=0: one log for every job, kept by the first */
      import_warn(run, res, "'%s' job %s: log '%s' is shared (per_job_logs=0) and was imported into an "
                  "earlier job", input, name, log_path);
    } else {
      paths[npaths++] = strdup(log_path);
      /* a group_reporting entry owns its threads' logs: PREFIX_lat.N.log,
       * PREFIX_lat.N+1.log, ... (one file when per_job_logs=0); the only
       * entry of a host owns every thread's */
      const char *first_kind = lat_kind;
      /* (the clones' sum: the clones' logs, each also in its clone's test) */
      unsigned want = single ? IMPORT_FIO_MAX_THREAD_LOGS : (unsigned)numjobs;
      while (host_grouped && npaths < want &&
             find_log(o, json_dir, opts, (unsigned)thread_no + npaths, host, log_path, sizeof log_path, &lat_kind) &&
             lat_kind == first_kind && (agg || !json_object_get(used_logs, log_path)) && strcmp(log_path, paths[0]))
        paths[npaths++] = strdup(log_path);
      for (unsigned k = 0; k < npaths; k++) {
        if (!paths[k]) rc = ssdrev_fail(err, -ENOMEM, "out of memory importing '%s'", input);
        else json_object_set_new(used_logs, paths[k], json_true());
      }
      if (!rc && host_grouped && !as) json_object_set_new(json_object_get(test, "params"), "threads", json_integer(npaths));
      if (!rc)
        rc = import_job_log(run, test, name, paths, npaths, first_kind, 0, opts, o, start_unix_ns, fio_ios,
                            as ? as->ramp_ns : 0, input, res, err);
      for (unsigned k = 0; k < npaths; k++) free(paths[k]);
    }
    /* no per-I/O latency log: a bandwidth log is the fill trace (per I/O
     * with log_avg_msec=0, else per window) */
    if (!rc && !import_opt(o, "no-logs") && !json_object_get(test, "log") && opt(opts, "write_bw_log")) {
      if (!find_bw_log(o, json_dir, opts, (unsigned)thread_no, host, log_path, sizeof log_path)) {
        import_warn(run, res, "'%s' job %s: no bandwidth log %s_bw.%lld.log%s%s found (see --logs)", input, name,
                    opt(opts, "write_bw_log"), (long long)thread_no, host ? "." : "", host ? host : "");
      } else if (!avg || !strcmp(avg, "0")) {
        char *one = strdup(log_path);
        rc = one ? import_job_log(run, test, name, &one, 1, "bw", 1, opts, o, start_unix_ns, fio_ios, 0, input, res, err)
                 : ssdrev_fail(err, -ENOMEM, "out of memory importing '%s'", input);
        free(one);
      } else {
        char *end;
        double ms = strtod(avg, &end);
        json_t *tr = bw_trace_read(log_path, ms, 0, err);
        if (!tr) rc = -EINVAL;
        else json_object_set_new(test, "bw_trace", tr);
      }
    }
    json_decref(opts);
    if (!rc && as && !json_object_get(test, "log"))
      rc = ssdrev_fail(err, -ENOENT, "test '%s': fio wrote no per-I/O latency log beside '%s'", as->name, input);
    if (rc) break;
    const json_t *jerr = json_object_get(job, "error");
    json_int_t sig = json_integer_value(json_object_get(root, "ssdrev_signal"));
    json_int_t fio_errno = json_integer_value(jerr);
    int ran_nothing = !fio_errno && fio_failed(job);
    if (fio_errno || ran_nothing) {
      /* kept, marked failed, used by no review */
      char msg[200];
      if (fio_errno) snprintf(msg, sizeof msg, "fio reported error %lld (%s)", (long long)fio_errno,
                              fio_errno > 0 && fio_errno < 4096 ? strerror((int)fio_errno) : "unknown errno");
      else snprintf(msg, sizeof msg, "fio ran no I/O (job_runtime 0): the job did not start");
      import_warn(run, res, "'%s' job %s: %s; imported as a failed test", input, name, msg);
      json_object_set_new(test, "error", json_string(msg));
    }
    if (sig) json_object_set_new(json_object_get(test, "fio"), "signal", json_integer(sig));
    archive_end_test(test, fio_errno || ran_nothing ? "failed" : sig ? "interrupted" : "complete");
    import_test_times(test, start_unix_ns, start_unix_ns + runtime_ms * 1000000ull);
    res->tests++;
    added++;
    if (test_out) *test_out = test;
  }
  json_t *hl = json_array();
  const char *hk;
  json_t *hv;
  json_object_foreach(hosts, hk, hv) {
    if (*hk) json_array_append_new(hl, json_string(hk));
  }
  if (src) json_object_set_new(src, "hosts", hl);
  else json_decref(hl);
  json_decref(hosts);
  json_decref(used_logs);
  json_decref(entries);
  json_decref(names);
  json_decref(taken);
  if (!rc && !added) rc = ssdrev_fail(err, -EINVAL, "no fio jobs in '%s'", input);
  /* --logs given and none of the logs the jobs wrote is there */
  if (!rc && log_dir && logs_missing && !res->logs)
    rc = ssdrev_fail(err, -ENOENT, "--logs '%s': none of the %u latency logs '%s' wrote is there "
                     "(give the directory holding PREFIX_lat.N.log, or --no-logs for the summary only)",
                     log_dir, logs_missing, input);
  json_int_t sig = json_integer_value(json_object_get(root, "ssdrev_signal"));
  if (!rc && sig)
    import_warn(run, res, "'%s'%s: fio was terminated on signal %lld: its jobs are imported as interrupted "
                "(figures up to the stop)", input, docno > 1 ? " (a later document)" : "", (long long)sig);
  if (!rc && !as) json_object_set_new(json_object_get(run->manifest, "steps"), "fio", json_string(sig ? "interrupted" : "complete"));
  return rc;
}

/* Every fio document of the input, one after another. */
static int fio_add(struct archive *run, const struct import_input *in, int multi, const struct import_opts *o,
                   const struct import_fio_test *as, json_t **test_out, struct import_result *res,
                   struct ssdrev_err *err) {
  /* --logs names where the logs are: a directory that is not there is an
   * error, not a summary-only import that looks like success */
  const char *log_dir = import_opt(o, "logs");
  struct stat lst;
  if (log_dir && !import_opt(o, "no-logs") && (stat(log_dir, &lst) || !S_ISDIR(lst.st_mode))) {
    int e = errno;
    return ssdrev_fail(err, -ENOENT, "--logs '%s': %s (give the directory holding the write_lat_log files, or --no-logs)",
                       log_dir, e == ENOENT ? "no such directory" : "not a directory");
  }
  json_t *docs = import_fio_json_load_all(in->path, err);
  if (!docs) return -EINVAL;
  int rc = 0;
  if (as && json_array_size(docs) > 1)
    rc = ssdrev_fail(err, -EINVAL, "'%s' holds %zu fio JSON documents; test '%s' is one", in->path,
                     json_array_size(docs), as->name);
  for (size_t k = 0; !rc && k < json_array_size(docs); k++)
    rc = fio_add_doc(run, in, multi, o, as, test_out, res, err, json_array_get(docs, k), k + 1);
  json_decref(docs);
  return rc;
}

int import_fio_add(struct archive *run, const struct import_input *in, int multi, const struct import_opts *o,
                   struct import_result *res, struct ssdrev_err *err) {
  return fio_add(run, in, multi, o, NULL, NULL, res, err);
}

int import_fio_test(struct archive *run, const char *json_path, const struct import_fio_test *t, json_t **test,
                    struct ssdrev_err *err) {
  struct import_opts o;
  import_opts_defaults(&o);
  struct import_input in = {.path = json_path, .state = NULL};
  struct import_result res = {0};
  if (test) *test = NULL;
  return fio_add(run, &in, 0, &o, t, test, &res, err);
}
