/* flags.c — bottleneck flags: a table of rules, each documented in
 * docs/flags.md, each naming the numbers that fired it. A rule reads the
 * analysis object only and appends zero or more flags. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "analyze/analyze_int.h"

/* Thresholds (docs/flags.md). */
#define RND_PLATEAU_MB_S 600.0   /* RND4K Q32 read on a low-capacity SKU */
#define RND_PLATEAU_LINK_SHARE 0.6 /* of the link's rate, the most 4 KiB reads are expected to reach */
#define LOW_CAPACITY_GB 512.0
#define FULL_VS_FOB_MIN 0.8
#define SLOW_POST_CACHE_RATIO 0.25
#define TAIL_BLOWUP_RATIO 10.0
#define SWEEP_DIP_RATIO 0.8
#define THERMAL_MARGIN_C 2.0
#define THERMAL_DROP_RATIO 0.7
#define LINK_BOUND_RATIO 0.9

typedef void (*rule_fn)(const json_t *a, json_t *flags);
struct rule {
  const char *id;
  rule_fn fn;
};

static void add_flag(json_t *flags, const char *id, const char *severity, json_t *numbers, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void add_flag(json_t *flags, const char *id, const char *severity, json_t *numbers, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  json_t *f = json_object();
  json_object_set_new(f, "id", json_string(id));
  json_object_set_new(f, "severity", json_string(severity));
  json_object_set_new(f, "message", json_string(msg));
  json_object_set_new(f, "numbers", numbers);
  json_array_append_new(flags, f);
}

/* The drive's capacity in GB, or 0 when unknown: a regular-file target's
 * size says nothing about the drive under it. */
static double capacity_gb(const json_t *a) {
  double b = analyze_json_num(json_object_get(a, "dut"), "capacity_bytes", 0);
  const json_t *t = json_object_get(a, "target");
  const char *kind = analyze_json_str(t, "kind");
  if (b <= 0 && !(kind && !strcmp(kind, "file"))) b = analyze_json_num(t, "size_bytes", 0);
  return b / 1e9;
}

static double cdm_mb_s(const json_t *row, const char *op) {
  return analyze_json_num(json_object_get(row, op), "mb_s", -1);
}

/* 1 when S holds W, ASCII case ignored. */
static int has_word(const char *s, const char *w) {
  size_t n = strlen(w);
  for (; s && *s; s++)
    if (!strncasecmp(s, w, n)) return 1;
  return 0;
}

/* What the run measured, for the words of a finding (issue 27: "few dies"
 * said of a 2 GB ext4 file): "file" (a regular file: a file system and
 * whatever is under it), "virtual" (a block device a hypervisor presents:
 * QEMU, VirtualBox, VMware, Hyper-V, Xen or virtio by its model or name)
 * or "drive" (a drive, or the simulated one). */
static const char *target_word(const json_t *a) {
  const json_t *t = json_object_get(a, "target");
  const char *kind = analyze_json_str(t, "kind"), *spec = analyze_json_str(t, "spec");
  if (kind && !strcmp(kind, "file")) return "file";
  const char *model = analyze_json_str(json_object_get(a, "dut"), "model");
  static const char *const virt[] = {"QEMU", "VBOX", "VirtualBox", "VMware", "Virtual", "virtio", "Msft", "Xen"};
  for (size_t i = 0; i < sizeof virt / sizeof virt[0]; i++)
    if (has_word(model, virt[i])) return "virtual";
  if (spec && (!strncmp(spec, "/dev/vd", 7) || !strncmp(spec, "/dev/xvd", 8))) return "virtual";
  return "drive";
}

/* Usable host-link bandwidth in MB/s from "PCIe 3.0 x4" (after encoding),
 * or a SATA link's from its generation as the DUT strings write it ("SATA
 * 6Gb/s", "SATA 3.3, 6.0 Gb/s", "SATA/600", "SATA III": 600 MB/s after
 * 8b/10b; 300 and 150 for the older two); 0 when not known. */
static double link_mb_s(const char *link) {
  static const double per_lane[] = {0, 250, 500, 984.6, 1969.2, 3938.5, 7877};
  unsigned gen = 0, lanes = 0;
  const char *p = link ? strstr(link, "PCIe ") : NULL;
  if (!p) {
    const char *sa = link ? strstr(link, "SATA") : NULL;
    if (!sa) return 0;
    /* the current speed when smartctl gives both ("6.0 Gb/s (current: 3.0 Gb/s)") */
    const char *cur = strstr(sa, "current:");
    const char *q = cur ? cur : sa;
    if (strstr(q, "6.0 Gb") || strstr(q, "6Gb") || strstr(q, "6 Gb") || strstr(q, "/600") || strstr(q, "III")) return 600;
    if (strstr(q, "3.0 Gb") || strstr(q, "3Gb") || strstr(q, "3 Gb") || strstr(q, "/300") || strstr(q, " II")) return 300;
    if (strstr(q, "1.5 Gb") || strstr(q, "1.5Gb") || strstr(q, "/150")) return 150;
    return 0;
  }
  p += 5;
  gen = (unsigned)strtoul(p, NULL, 10);
  const char *x = strchr(p, 'x');
  if (x) lanes = (unsigned)strtoul(x + 1, NULL, 10);
  if (gen < 1 || gen > 6 || !lanes) return 0;
  return per_lane[gen] * lanes;
}

static void rule_rnd_plateau(const json_t *a, json_t *flags) {
  double cap = capacity_gb(a);
  /* 4 KiB commands reach well under a link's rate (per-command overhead:
   * SATA's 32 NCQ slots stop near 100K IOPS, ~410 MB/s of 600): on a link
   * that slow the rule's 600 MB/s is no drive's, and 370 MB/s on SATA was
   * called a low ceiling */
  double lk = link_mb_s(analyze_json_str(json_object_get(a, "dut"), "link"));
  if (lk > 0 && RND_PLATEAU_LINK_SHARE * lk < RND_PLATEAU_MB_S) return;
  const char *tw = target_word(a);
  size_t i;
  json_t *row;
  json_array_foreach(json_object_get(a, "cdm"), i, row) {
    const char *cell = analyze_json_str(row, "cell");
    if (!cell || strncmp(cell, "RND4K Q32", 9)) continue;
    double mb = cdm_mb_s(row, "read");
    if (mb < 0 || mb >= RND_PLATEAU_MB_S || cap <= 0 || cap > LOW_CAPACITY_GB) continue;
    const char *st = analyze_json_str(row, "state") ? analyze_json_str(row, "state") : "";
    /* a small drive's capacity to 0.1 GB (8.6 GB, not "9 GB"), a large one to 1 GB */
    json_t *nums = json_pack("{s:f, s:f, s:s, s:s, s:f, s:s}", "mb_s", analyze_json_round(mb, 1), "capacity_gb",
                             analyze_json_round(cap, cap < 100 ? 1 : 0), "cell", cell, "state", st, "limit_mb_s", RND_PLATEAU_MB_S,
                             "target", tw);
    /* the cause named only where it can be: dies are a drive's */
    if (!strcmp(tw, "file"))
      add_flag(flags, "rnd_read_plateau", "warn", nums,
               "%s read %.0f MB/s < %.0f MB/s on a file target (%s): the file system and the storage under it set "
               "this ceiling, queue depth does not help", cell, mb, RND_PLATEAU_MB_S, st);
    else if (!strcmp(tw, "virtual"))
      add_flag(flags, "rnd_read_plateau", "warn", nums,
               "%s read %.0f MB/s < %.0f MB/s on a %.*f GB virtual disk (%s): the host's storage stack sets this "
               "ceiling, queue depth does not help", cell, mb, RND_PLATEAU_MB_S, cap < 100 ? 1 : 0, cap, st);
    else
      add_flag(flags, "rnd_read_plateau", "warn", nums,
               "%s read %.0f MB/s < %.0f MB/s on a %.*f GB drive (%s): few dies, queue depth does not help", cell, mb,
               RND_PLATEAU_MB_S, cap < 100 ? 1 : 0, cap, st);
  }
}

/* A CDM row's profile and cell as one key (the length keeps "a b"+"c" and
 * "a"+"b c" apart); NULL without them. */
static char *cdm_key(const json_t *row) {
  const char *p = analyze_json_str(row, "profile"), *c = analyze_json_str(row, "cell");
  return p && c ? analyze_key("%zu %s %s", strlen(p), p, c) : NULL;
}

static void rule_fob_vs_full(const json_t *a, json_t *flags) {
  static const char *const ops[] = {"read", "write", "mix"};
  const json_t *cdm = json_object_get(a, "cdm");
  size_t i, j;
  json_t *fob, *full;
  /* the filled-state rows per profile and cell, in table order: each FOB
   * row finds its own in O(1) (a scan per row was quadratic in cells) */
  json_t *filled = json_object();
  json_array_foreach(cdm, j, full) {
    const char *st = analyze_json_str(full, "state");
    char *key = cdm_key(full);
    if (!st || !strcmp(st, "FOB") || !key) {
      free(key);
      continue;
    }
    json_t *rows = json_object_get(filled, key);
    if (!rows) json_object_set_new(filled, key, rows = json_array());
    json_array_append(rows, full);
    free(key);
  }
  json_array_foreach(cdm, i, fob) {
    if (strcmp(analyze_json_str(fob, "state") ? analyze_json_str(fob, "state") : "", "FOB")) continue;
    char *key = cdm_key(fob);
    const json_t *rows = key ? json_object_get(filled, key) : NULL;
    free(key);
    json_array_foreach(rows, j, full) {
      const char *st = analyze_json_str(full, "state");
      for (unsigned k = 0; k < 3; k++) {
        double x = cdm_mb_s(fob, ops[k]), y = cdm_mb_s(full, ops[k]);
        if (x <= 0 || y < 0 || y >= FULL_VS_FOB_MIN * x) continue;
        add_flag(flags, "fob_vs_full", "warn",
                 json_pack("{s:s, s:s, s:s, s:f, s:f, s:f, s:f}", "cell", analyze_json_str(fob, "cell"), "op", ops[k], "state", st,
                           "fob_mb_s", analyze_json_round(x, 1), "full_mb_s", analyze_json_round(y, 1), "ratio", analyze_json_round(y / x, 3),
                           "min_ratio", FULL_VS_FOB_MIN),
                 "%s %s at %s: %.0f MB/s is %.2fx of FOB %.0f MB/s (< %.1fx)", analyze_json_str(fob, "cell"), ops[k], st, y,
                 y / x, x, FULL_VS_FOB_MIN);
      }
    }
  }
  json_decref(filled);
}

static void rule_write_cliff(const json_t *a, json_t *flags) {
  const json_t *s = json_object_get(json_object_get(a, "fill"), "slc");
  /* no cache detected (the evidence rules of docs/flags.md failed): no flag */
  if (!s || !json_is_true(json_object_get(s, "found"))) return;
  double at = analyze_json_num(s, "max_gib", 0), v1 = analyze_json_num(s, "cache_mb_s", 0), v2 = analyze_json_num(s, "post_cache_mb_s", 0);
  add_flag(flags, "write_cliff", "info",
           json_pack("{s:f, s:f, s:f, s:f}", "at_gib", at, "cache_mb_s", v1, "post_cache_mb_s", v2, "confidence",
                     analyze_json_num(s, "confidence", 0)),
           "write cliff after %.2f GiB: %.0f MB/s in the SLC cache, %.0f MB/s after", at, v1, v2);
  if (v1 > 0 && v2 < SLOW_POST_CACHE_RATIO * v1)
    add_flag(flags, "slow_post_cache", "warn",
             json_pack("{s:f, s:f, s:f, s:f}", "cache_mb_s", v1, "post_cache_mb_s", v2, "ratio", analyze_json_round(v2 / v1, 3),
                       "min_ratio", SLOW_POST_CACHE_RATIO),
             "post-cache write speed %.0f MB/s is %.2fx of the cached %.0f MB/s (< %.2fx)", v2, v2 / v1, v1,
             SLOW_POST_CACHE_RATIO);
}

/* The value of percentile p in a tail object ("p99.99_us"), or -1. */
static double tail_p(const json_t *t, double p) {
  char key[48];
  snprintf(key, sizeof key, "p%g_us", p);
  return analyze_json_num(t, key, -1);
}

static void rule_tail_blowup(const json_t *a, json_t *flags) {
  const char *w;
  json_t *t;
  json_object_foreach((json_t *)json_object_get(a, "tail"), w, t) {
    if (strncmp(w, "mix", 3)) continue;
    double p50 = tail_p(t, 50), hi = tail_p(t, 99.99), php = 99.99;
    if (hi < 0) hi = tail_p(t, 99.9), php = 99.9;
    if (p50 <= 0 || hi < 0 || hi / p50 <= TAIL_BLOWUP_RATIO) continue;
    add_flag(flags, "tail_blowup", "warn",
             json_pack("{s:s, s:f, s:f, s:f, s:f, s:f}", "workload", w, "p50_us", p50, "p", php, "p_us", hi, "ratio",
                       analyze_json_round(hi / p50, 2), "max_ratio", TAIL_BLOWUP_RATIO),
             "%s tail: p%g %.1f µs is %.1fx the median %.1f µs (> %.0fx)", w, php, hi, hi / p50, p50,
             TAIL_BLOWUP_RATIO);
  }
}

static void rule_sweep_dip(const json_t *a, json_t *flags) {
  size_t i, k;
  json_t *g, *p;
  json_array_foreach(json_object_get(a, "rw_sweep"), i, g) {
    const json_t *pts = json_object_get(g, "points");
    size_t n = json_array_size(pts);
    if (n < 3) continue;
    double e0 = analyze_json_num(json_array_get(pts, 0), "mb_s", 0), e1 = analyze_json_num(json_array_get(pts, n - 1), "mb_s", 0);
    double lo = e0 < e1 ? e0 : e1, worst = -1, at = 0;
    json_array_foreach(pts, k, p) {
      if (k == 0 || k == n - 1) continue;
      double v = analyze_json_num(p, "mb_s", 0);
      if (worst < 0 || v < worst) worst = v, at = analyze_json_num(p, "read_pct", 0);
    }
    if (lo <= 0 || worst >= SWEEP_DIP_RATIO * lo) continue;
    json_int_t qd = json_integer_value(json_object_get(g, "qd"));
    add_flag(flags, "rw_sweep_dip", "warn",
             json_pack("{s:I, s:f, s:f, s:f, s:f}", "qd", qd, "read_pct", at, "mb_s", worst, "ends_min_mb_s", lo,
                       "ratio", analyze_json_round(worst / lo, 3)),
             "RW-ratio sweep QD%lld dips to %.1f MB/s at %.0f%% reads, %.2fx of the slower pure workload (%.1f MB/s)",
             (long long)qd, worst, at, worst / lo, lo);
  }
}

/* Where IOPS stops growing with the queue depth, below the deepest QD run. */
static void rule_qd_plateau(const json_t *a, json_t *flags) {
  size_t i;
  json_t *g;
  json_array_foreach(json_object_get(a, "qd_scaling"), i, g) {
    const json_t *pts = json_object_get(g, "points");
    const json_t *pq = json_object_get(g, "plateau_qd");
    json_int_t top = json_integer_value(json_object_get(json_array_get(pts, json_array_size(pts) - 1), "qd"));
    if (!json_is_integer(pq) || json_integer_value(pq) >= top) continue;
    const char *w = analyze_json_str(g, "workload");
    double iops = analyze_json_num(g, "plateau_iops", 0), best = analyze_json_num(g, "max_iops", 0);
    json_int_t first = json_integer_value(json_object_get(json_array_get(pts, 0), "qd"));
    add_flag(flags, "qd_plateau", "info",
             json_pack("{s:s, s:I, s:f, s:I, s:f, s:f, s:I}", "workload", w ? w : "?", "qd", json_integer_value(pq),
                       "iops", iops, "max_qd", top, "max_iops", best, "gain_pct", 100 * ANALYZE_QD_PLATEAU_GAIN,
                       "first_qd", first),
             "QD scaling %s: IOPS %s QD%lld (%.0f IOPS; up to QD%lld at most %.0f, < +%.0f%%)", w ? w : "?",
             json_integer_value(pq) == first ? "does not grow past" : "stops growing at",
             (long long)json_integer_value(pq), iops, (long long)top, best, 100 * ANALYZE_QD_PLATEAU_GAIN);
  }
}

/* The thermal step found a throttling point (analyze/thermal.c's evidence rule). */
static void rule_thermal_step(const json_t *a, json_t *flags) {
  size_t i;
  json_t *th;
  json_array_foreach(json_object_get(a, "thermal"), i, th) {
    if (!json_is_true(json_object_get(th, "throttled"))) continue;
    const char *test = analyze_json_str(th, "test");
    double ts = analyze_json_num(th, "time_to_throttle_s", 0), tc = analyze_json_num(th, "throttle_temp_c", 0),
           b = analyze_json_num(th, "before_mb_s", 0), v = analyze_json_num(th, "throttled_mb_s", 0),
           pct = analyze_json_num(th, "throttle_pct", 0);
    add_flag(flags, "thermal_step_throttle", "warn",
             json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:f}", "test", test ? test : "?", "time_s", ts, "temp_c", tc,
                       "before_mb_s", b, "throttled_mb_s", v, "throttle_pct", pct, "peak_c",
                       analyze_json_num(th, "peak_temp_c", 0)),
             "thermal step: the drive throttled after %.1f s of sustained writing at %.1f °C, from %.0f MB/s to %.0f "
             "MB/s (-%.0f%%)", ts, tc, b, v, pct);
  }
}

static int flags_cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* A sustained drop in a test's series: some 5-interval mean below 0.7x the
 * median interval. Returns the ratio (or 1). */
static double series_drop(const json_t *ser) {
  const json_t *mb = json_object_get(ser, "mb_s");
  size_t n = json_array_size(mb);
  /* a drop is judged over 5 s, whatever the interval: a short test's series
   * is finer (1-2-5 ms steps, analyze/logstats.c), and 5 of its points are a
   * few ms of noise, not throttling */
  double iv = analyze_json_num(ser, "interval_s", 1.0);
  if (!(iv > 0) || iv > 5) iv = 1;
  size_t w = (size_t)ceil(5.0 / iv - 1e-9);
  if (w < 5) w = 5;
  if (n < 10 || n < 2 * w) return 1;
  double *v = calloc(n, sizeof *v);
  if (!v) return 1;
  for (size_t i = 0; i < n; i++) v[i] = json_number_value(json_array_get(mb, i));
  double *s = calloc(n, sizeof *s);
  if (!s) {
    free(v);
    return 1;
  }
  memcpy(s, v, n * sizeof *s);
  /* qsort, not an insertion sort: a series may hold up to BINS_MAX points */
  qsort(s, n, sizeof *s, flags_cmp_dbl);
  double med = s[n / 2], worst = 1, sum = 0;
  /* the last interval is partial and excluded */
  for (size_t i = 0; i + 1 < n; i++) {
    sum += v[i];
    if (i >= w) sum -= v[i - w];
    if (i + 1 >= w && med > 0 && sum / (double)w / med < worst) worst = sum / (double)w / med;
  }
  free(v);
  free(s);
  return worst;
}

static int thermal_step_throttled(const json_t *a) {
  size_t i;
  json_t *th;
  json_array_foreach(json_object_get(a, "thermal"), i, th) if (json_is_true(json_object_get(th, "throttled"))) return 1;
  return 0;
}

static void rule_thermal(const json_t *a, json_t *flags) {
  const json_t *temp = json_object_get(json_object_get(a, "temperature"), "c");
  double warn = analyze_json_num(json_object_get(a, "dut"), "warn_temp_c", 0), maxc = -1000;
  /* A threshold the host set below WCTEMP is what the drive now warns at. */
  double thresh = analyze_json_num(json_object_get(a, "dut"), "temp_thresh_c", 0);
  if (thresh > 0 && (warn <= 0 || thresh < warn)) warn = thresh;
  size_t i;
  json_t *v;
  json_array_foreach(temp, i, v) {
    if (json_number_value(v) > maxc) maxc = json_number_value(v);
  }
  if (warn <= 0 || maxc < warn - THERMAL_MARGIN_C) return;
  const char *name, *worst_name = NULL;
  json_t *t;
  double worst = 1;
  json_object_foreach((json_t *)json_object_get(a, "tests"), name, t) {
    const char *kind = analyze_json_str(t, "kind");
    /* a drop these make by design is not thermal: a fill's, a prefill's and
     * a cache-recovery write's is the SLC cliff, a consistency or
     * steady-state write's the GC onset ("fell to 0.44x of its median in
     * consistency.prepare1 while the drive reached 91 °C": a prefill's
     * cliff on a Gen5 model) */
    static const char *const by_design[] = {"fill_drive", "prefill", "cache_recovery", "consistency", "steady_state"};
    int skip = 0;
    for (size_t k = 0; kind && k < sizeof by_design / sizeof by_design[0]; k++) skip |= !strcmp(kind, by_design[k]);
    if (skip) continue;
    if (kind && !strcmp(kind, "thermal")) continue;    /* judged by its own evidence (thermal_step_throttle) */
    double d = series_drop(json_object_get(t, "series"));
    if (d < worst) worst = d, worst_name = name;
  }
  if (worst < THERMAL_DROP_RATIO)
    add_flag(flags, "thermal_throttle", "warn",
             json_pack("{s:f, s:f, s:s, s:f}", "max_c", maxc, "warn_c", warn, "test", worst_name, "drop_ratio",
                       analyze_json_round(worst, 3)),
             "throughput fell to %.2fx of its median in %s while the drive reached %.0f °C (warning %.0f °C)", worst,
             worst_name, maxc, warn);
  else if (!thermal_step_throttled(a)) /* else the thermal step found the drop: its flag says more */
  {
    /* near: the peak within THERMAL_MARGIN_C below the threshold, said with
     * the gap to a tenth (issue 27: "reached 75 C ... warning 75 C" for a
     * 74.9 °C peak read as having reached it). A peak at or above it is
     * no "near" ("78.3 C, 0.0 C short of 75.0 C" was printed): its own
     * finding. Both looked for a drop where the rule above did: in every
     * test but the fills and thermal steps. */
    double gap = analyze_json_round(warn - maxc, 1);
    if (gap > 0)
      add_flag(flags, "thermal_near_warn", "info",
               json_pack("{s:f, s:f, s:f, s:f}", "max_c", maxc, "warn_c", warn, "margin_c", THERMAL_MARGIN_C, "gap_c",
                         gap),
               "the drive peaked at %.1f C, %.1f C short of its warning temperature %.1f C (near: within %.0f C), "
               "without a throughput drop outside the fills",
               maxc, gap, warn, THERMAL_MARGIN_C);
    else {
      double over = gap < 0 ? -gap : 0; /* not -0.0 */
      add_flag(flags, "thermal_over_warn", "info",
               json_pack("{s:f, s:f, s:f}", "max_c", maxc, "warn_c", warn, "over_c", over),
               "the drive peaked at %.1f C, at or above its warning temperature %.1f C (by %.1f C), without a "
               "throughput drop outside the fills",
               maxc, warn, over);
    }
  }
}

static void rule_link_bound(const json_t *a, json_t *flags) {
  const char *link = analyze_json_str(json_object_get(a, "dut"), "link");
  double lim = link_mb_s(link), best = 0;
  const char *cell = NULL, *op = NULL;
  if (lim <= 0) return;
  size_t i;
  json_t *row;
  json_array_foreach(json_object_get(a, "cdm"), i, row) {
    static const char *const ops[] = {"read", "write"};
    for (unsigned k = 0; k < 2; k++)
      if (cdm_mb_s(row, ops[k]) > best) best = cdm_mb_s(row, ops[k]), cell = analyze_json_str(row, "cell"), op = ops[k];
  }
  if (best < LINK_BOUND_RATIO * lim) return;
  add_flag(flags, "link_bound", "info",
           json_pack("{s:f, s:f, s:s, s:s, s:s, s:f}", "mb_s", best, "link_mb_s", analyze_json_round(lim, 1), "link", link, "cell",
                     cell, "op", op, "link_pct", analyze_json_round(100 * best / lim, 1)),
           "%s %s %.0f MB/s is %.0f%% of the %s link (%.0f MB/s): the host link, not the drive, is the limit", cell,
           op, best, 100 * best / lim, link, lim);
}

static void rule_io_errors(const json_t *a, json_t *flags) {
  const char *name;
  json_t *t;
  json_object_foreach((json_t *)json_object_get(a, "tests"), name, t) {
    double e = analyze_json_num(json_object_get(json_object_get(t, "ops"), "all"), "errors", 0);
    if (e > 0)
      add_flag(flags, "io_errors", "error", json_pack("{s:s, s:f}", "test", name, "errors", e),
               "%s: %.0f I/O errors (excluded from the latency figures)", name, e);
    if (analyze_json_str(t, "error"))
      add_flag(flags, "log_unreadable", "error", json_pack("{s:s, s:s}", "test", name, "error", analyze_json_str(t, "error")),
               "%s: %s", name, analyze_json_str(t, "error"));
  }
}

static const struct rule rules[] = {
    {"rnd_read_plateau", rule_rnd_plateau}, {"fob_vs_full", rule_fob_vs_full},
    {"write_cliff", rule_write_cliff},      {"tail_blowup", rule_tail_blowup},
    {"rw_sweep_dip", rule_sweep_dip},       {"thermal_throttle", rule_thermal},
    {"link_bound", rule_link_bound},        {"io_errors", rule_io_errors},
    {"qd_plateau", rule_qd_plateau},
    {"thermal_step_throttle", rule_thermal_step},
    {"not_steady", analyze_flag_not_steady}, {"pre_steady", analyze_flag_pre_steady},
    {"consistency_drops", analyze_flag_consistency},
    {"slow_cache_recovery", analyze_rule_slow_recovery},
    {NULL, NULL},
};

json_t *analyze_flags(const json_t *analysis) {
  json_t *flags = json_array();
  for (const struct rule *r = rules; r->fn; r++) r->fn(analysis, flags);
  return flags;
}
