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
  uint64_t *lat;                /* exact bins: every latency of the bin (kept across bins) */
  size_t nlat, caplat;
};

/* One closed bin. */
struct bin_out {
  uint64_t key;
  uint64_t ios, bytes;
  double lat_mean_ns, p50_ns, p99_ns;
  double p999_ns;         /* exact bins: exact (the histogram's when a bin lost latencies
                             to an allocation failure); written only for exact bins */
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
  int exact;              /* set before the first add: p50, p99 and p99.9 of each bin are exact
                             (nearest rank over its latencies, kept while the bin is open) */
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
/* The same, or JSON null for a NaN or infinity (which jansson refuses: a
 * NULL in json_pack's "o" drops the whole object). */
json_t *analyze_json_real_or_null(double v, int digits);
/* V (a double from a possibly hostile analysis or test.json) as an
 * integer: NaN is 0, the rest clamped to +-2^62 in double first (a cast of
 * an out-of-range double is undefined). */
json_int_t analyze_json_int_of(double v);
/* Number (integer or real) of o[key] or `dflt`. */
double analyze_json_num(const json_t *o, const char *key, double dflt);
const char *analyze_json_str(const json_t *o, const char *key);
/* A lookup key of any length, printf-formatted (a fixed buffer would cut
 * two long names to one key), for the JSON-object indexes that let the
 * aggregates and flags find a group in O(1) instead of scanning (a scan
 * per test was quadratic). NULL when out of memory; the caller frees it. */
char *analyze_key(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Queue-depth scaling: a QD is the plateau when no higher QD gains this share
 * of IOPS over it (docs/flags.md qd_plateau). */
#define ANALYZE_QD_PLATEAU_GAIN 0.10

/* Thermal step (analyze/thermal.c, docs/method.md "Thermal"): a drop is a
 * fall of the median speed of the WINDOW_S after a time below (1 - DROP)
 * x the median of the WINDOW_S before it; it is thermal throttling when
 * the temperature there has risen at least HOT_SHARE of the way from the
 * test's first sample to its peak and either its
 * least-squares slope over the SLOPE_S after the drop is at most half the
 * slope over the SLOPE_S before (which was at least MIN_RISE °C/s), or it
 * is at the drive's warning threshold (within 1 °C). The throttled speed
 * is the mean from SETTLE_S after the first throttle to the end. */
#define ANALYZE_THERMAL_WINDOW_S 5.0
#define ANALYZE_THERMAL_DROP 0.10
#define ANALYZE_THERMAL_HOT_SHARE 0.5
#define ANALYZE_THERMAL_SLOPE_S 10.0
#define ANALYZE_THERMAL_MIN_RISE 0.02
#define ANALYZE_THERMAL_SETTLE_S 5.0
/* A throttle holds: of the whole intervals in the HOLD_S after a drop, at
 * least HOLD_SHARE run below its threshold. A sequential write on a drive
 * in GC (the PM981 after its steady state: 87-130 MB/s a second) dips 10%
 * for a few seconds as the temperature nears its equilibrium, which the
 * plateau test alone took for a throttle at 60 °C (27% of the next 30 s
 * below the threshold; the simulated throttles hold 100%). */
#define ANALYZE_THERMAL_HOLD_S 30.0
#define ANALYZE_THERMAL_HOLD_SHARE 0.5
/* A drop the TMT counters make the throttle: its time below the drop's
 * threshold at most TMT_MISS above their seconds; a throttle is taken as never
 * left when the temperature after it stays within LEFT_C of the drop's
 * (a throttle ends only as the drive cools; real drives report whole °C). */
#define ANALYZE_THERMAL_TMT_MISS 0.25
#define ANALYZE_THERMAL_LEFT_C 1.0
/* The thermal step's analysis of one test (manifest entry with its
 * "samples") from its analyzed entry (the "series"); dut may be NULL (its
 * warn_temp_c / temp_thresh_c is the threshold). New reference. */
/* The fill's in-cache speed from unthrottled writing only (analyze/fillthr.c):
 * a.fill.slc corrected and its "throttle" object added, by the fill test's
 * temperature clock and counters in the manifest MAN. */
void analyze_fill_throttle(json_t *a, const json_t *man);
json_t *analyze_thermal(const json_t *test, const json_t *entry, const json_t *dut);
/* SMART TMT1/TMT2 counters over a test (thermal.c): 1 when usable. */
int analyze_tmt_delta(const json_t *test, double *trans, double *secs_sum, double *secs_max);
/* Steady state and consistency (analyze/steady.c, analyze/consistency.c;
 * docs/method.md, docs/flags.md). */
#define ANALYZE_CONS_BURST_RATIO 1.2   /* a burst: the first tenth's peak 20% above the steady level */
#define ANALYZE_CONS_DROP_RATIO 0.5    /* a drop: a second below half the steady mean */
#define ANALYZE_CONS_DROP_SHARE_PCT 1.0 /* consistency_drops: more than 1% of the steady seconds drop */
/* A flag as flags.c makes them: {id, severity, message, numbers (stolen)}. */
void analyze_flag_add(json_t *flags, const char *id, const char *severity, json_t *numbers, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Aggregators (analyze/archive.c's table) and flag rules (analyze/flags.c's). */
void analyze_write_volume_add(json_t *a, const json_t *test, const json_t *entry);
void analyze_steady_add(json_t *a, const json_t *test, const json_t *entry);
/* The steady-state judgment and matrix from every round added (after the
 * last analyze_steady_add; nothing without a steady-state step). */
void analyze_steady_finish(json_t *a);
void analyze_consistency_add(json_t *a, const json_t *test, const json_t *entry);
/* The consistency analysis of one test's entry (its series and series_fine): new object, or NULL. */
json_t *analyze_consistency_of(const json_t *entry);
void analyze_flag_not_steady(const json_t *a, json_t *flags);
void analyze_flag_pre_steady(const json_t *a, json_t *flags);
void analyze_flag_consistency(const json_t *a, json_t *flags);
/* The summary lines of both analyses (`ssdrev analyze`, analyze/output.c). */
void analyze_print_steady(FILE *f, const json_t *a);
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
