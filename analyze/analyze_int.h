/* analyze_int.h — private to analyze/: windowed bins for series and the
 * fill trace, small JSON helpers. */
#ifndef SSDREV_ANALYZE_INT_H
#define SSDREV_ANALYZE_INT_H

#include "analyze/analyze.h"

/* ---------------------------------------------------------------- bins */

/* A coarse log-linear latency histogram: 32 sub-buckets per power of two,
 * exact below 32; the midpoint of a bucket is within 1.6% of any value in
 * it. Used for per-interval percentiles only (the STATS percentiles are
 * exact, pct.c). */
#define BINS_HIST_N 1920u
/* Bins open at once: a record keyed further back than this is counted in
 * the oldest open bin (logs are written in completion order, so this only
 * happens to stragglers). */
#define BINS_WINDOW 8u
/* Most bins one series may hold (docs/archive.md): a log whose keys span
 * more (a 1 ns interval, a hostile far-off time or offset) sets `overflow`
 * and the caller widens its unit and bins again, so memory and the output
 * stay bounded by this, not by the keys' span. */
#define BINS_MAX 1000000u

struct bin_acc {
  uint64_t ios, bytes;
  unsigned __int128 lat_sum_ns; /* exact: a u64 sum wraps with latencies near 2^64 / ios */
  uint64_t first_submit_ns, last_done_ns;
  uint32_t hist[BINS_HIST_N];
};

/* One closed bin. */
struct bin_out {
  uint64_t key;
  uint64_t ios, bytes;
  double lat_mean_ns, p50_ns, p99_ns;
  uint64_t first_submit_ns, last_done_ns;
};

struct analyze_bins {
  int started;
  int sparse;             /* set before the first add: empty bins are not emitted */
  uint64_t gap_max;       /* if > 0 (and not sparse): an empty stretch longer than this
                             is emitted as its first and last key only */
  int overflow;           /* the keys needed more than BINS_MAX bins: adds stopped */
  uint64_t key0;          /* first key (dense bins: out[i].key = key0 + i) */
  uint64_t base, max_key; /* oldest open key; largest key seen */
  unsigned open;          /* open bins holding records */
  struct bin_acc win[BINS_WINDOW];
  struct bin_out *out;    /* closed bins in key order (dense: every key from key0) */
  size_t nout, capout;
  uint64_t late;          /* records counted in a later bin than their key */
  int enomem;
};

/* Zeroes b: dense bins (every key from the first to the last is emitted,
 * empty ones too; at most BINS_MAX keys). Set b->sparse after init for bins
 * where an empty key means nothing (the fill trace): empty stretches then
 * cost nothing and at most BINS_MAX non-empty bins are kept. Set b->gap_max
 * instead for a time series: gaps up to gap_max keys stay dense (zeros), a
 * longer one costs two empty bins (its ends), so a record centuries away
 * costs nothing either; at most BINS_MAX bins in all. */
void analyze_bins_init(struct analyze_bins *b);
void analyze_bins_release(struct analyze_bins *b);
void analyze_bins_add(struct analyze_bins *b, uint64_t key, uint64_t lat_ns, uint64_t bytes, uint64_t submit_ns,
              uint64_t done_ns);
/* Closes every open bin; returns -ENOMEM if an allocation ever failed.
 * b->overflow may be set: the result is then incomplete (see BINS_MAX). */
int analyze_bins_finish(struct analyze_bins *b);

/* ---------------------------------------------------------------- json */
/* Rounds to `digits` decimals so analysis.json stays readable. */
double analyze_json_round(double v, int digits);
json_t *analyze_json_real(double v, int digits);
/* Number (integer or real) of o[key] or `dflt`. */
double analyze_json_num(const json_t *o, const char *key, double dflt);
const char *analyze_json_str(const json_t *o, const char *key);

/* Queue-depth scaling: a QD is the plateau when no higher QD gains this share
 * of IOPS over it (docs/flags.md qd_plateau). */
#define ANALYZE_QD_PLATEAU_GAIN 0.10

/* Cache recovery (analyze/recovery.c, docs/flags.md slow_cache_recovery):
 * the flag fires when the first idle of at least ANALYZE_RECOVERY_AT_S
 * gave back less than ANALYZE_RECOVERY_MIN_SHARE of the full cache (the
 * most the series or the near-full rewrite saw); "full" is at least
 * ANALYZE_RECOVERY_FULL of it. */
#define ANALYZE_RECOVERY_AT_S 120.0
#define ANALYZE_RECOVERY_MIN_SHARE 0.5
#define ANALYZE_RECOVERY_FULL 0.95
void analyze_recovery_add(json_t *a, const json_t *test, const json_t *entry);
void analyze_recovery_finish(json_t *a);
void analyze_rule_slow_recovery(const json_t *a, json_t *flags);

#endif
