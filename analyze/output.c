/* output.c — an analysis object as text tables or CSV (libcsv quoting). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze_int.h"

/* A figure with 2 decimals, or "n/a" when it was never measured (absent:
 * an imported summary without it, a cell not run), never a made-up 0.00. */
static const char *num_or_na(char *buf, size_t len, const json_t *o, const char *key) {
  const json_t *v = json_object_get(o, key);
  if (!json_is_number(v)) return "n/a";
  snprintf(buf, len, "%.2f", json_number_value(v));
  return buf;
}

static void print_stats(FILE *f, const char *op, const json_t *s) {
  char b[4][40];
  fprintf(f, "  %-6s %10.0f ios %10.2f MB/s %10.0f IOPS  lat µs: min %s mean %s sd %s max %s\n", op,
          analyze_json_num(s, "ios", 0), analyze_json_num(s, "mb_s", 0), analyze_json_num(s, "iops", 0),
          num_or_na(b[0], sizeof b[0], s, "lat_min_us"), num_or_na(b[1], sizeof b[1], s, "lat_mean_us"),
          num_or_na(b[2], sizeof b[2], s, "lat_stddev_us"), num_or_na(b[3], sizeof b[3], s, "lat_max_us"));
  if (analyze_json_num(s, "errors", 0) > 0) fprintf(f, "         %.0f errors\n", analyze_json_num(s, "errors", 0));
  size_t i;
  json_t *p;
  const json_t *pct = json_object_get(s, "pct");
  if (!json_array_size(pct)) return;
  fprintf(f, "        ");
  json_array_foreach(pct, i, p) {
    fprintf(f, " p%g=%.2f%s", analyze_json_num(p, "p", 0), analyze_json_num(p, "lat_us", 0),
            json_is_true(json_object_get(p, "warn")) ? "(!)" : "");
  }
  fprintf(f, " µs\n");
}

/* A percentile resting on fewer than 10 samples (analyze/logstats.c): there
 * is one per short test and percentile, so they are counted, not listed. */
static int is_sample_warning(const char *w) { return w && strstr(w, " rests on ") && strstr(w, " samples (< "); }

/* Tests whose figures a summary table shows (CDM, fill, RW sweep, tail,
 * temperature): their statistics are detail, printed with --verbose. */
static int summarized_kind(const char *kind) {
  static const char *const kinds[] = {"cdm", "prefill", "fill_drive", "rw_sweep", "tail", "temperature", "qd_scaling",
                                      "thermal", "steady_state", "consistency", "cache_recovery"};
  for (size_t i = 0; kind && i < sizeof kinds / sizeof kinds[0]; i++)
    if (!strcmp(kind, kinds[i])) return 1;
  return 0;
}

static void print_cdm(FILE *f, const json_t *cdm) {
  size_t i;
  json_t *s;
  int mix = 0;
  json_array_foreach(cdm, i, s) {
    mix |= json_object_get(s, "mix") != NULL;
  }
  fprintf(f, "\nCDM (max MB/s over passes; IOPS; min mean latency)\n");
  /* "µs" is two bytes and one column: headers that hold it get one more byte */
  fprintf(f, "  %-6s %-8s %-16s %10s %10s %11s %11s%s\n", "state", "profile", "cell", "read MB/s", "write MB/s",
          "read µs", "write µs", mix ? "   mix MB/s     mix µs" : "");
  json_array_foreach(cdm, i, s) {
    const json_t *r = json_object_get(s, "read"), *w = json_object_get(s, "write"), *m = json_object_get(s, "mix");
    char b[6][40];
    fprintf(f, "  %-6s %-8s %-16s %10s %10s %10s %10s", analyze_json_str(s, "state"), analyze_json_str(s, "profile"),
            analyze_json_str(s, "cell"), num_or_na(b[0], sizeof b[0], r, "mb_s"), num_or_na(b[1], sizeof b[1], w, "mb_s"),
            num_or_na(b[2], sizeof b[2], r, "lat_us"), num_or_na(b[3], sizeof b[3], w, "lat_us"));
    if (mix) fprintf(f, " %10s %10s", num_or_na(b[4], sizeof b[4], m, "mb_s"), num_or_na(b[5], sizeof b[5], m, "lat_us"));
    fputc('\n', f);
  }
}

/* The RW-ratio sweep: one row per read share, MB/s and IOPS per queue depth
 * (rw_sweep: [{qd, points: [{read_pct, mb_s, iops, ...}]}], docs/archive.md). */
static void print_rw_sweep(FILE *f, const json_t *sweep) {
  size_t q, i;
  json_t *e, *p;
  fprintf(f, "\nRW-ratio sweep (4 KiB random; MB/s and IOPS by read share)\n  %5s", "read%");
  json_array_foreach(sweep, q, e) {
    char h[32];
    snprintf(h, sizeof h, "QD%.0f MB/s", analyze_json_num(e, "qd", 0));
    fprintf(f, " %10s", h);
    snprintf(h, sizeof h, "QD%.0f IOPS", analyze_json_num(e, "qd", 0));
    fprintf(f, " %10s", h);
  }
  fputc('\n', f);
  /* rows by the read shares of the first QD; another QD's point is matched
   * by its read share, so a missing point leaves a gap, not a shifted row */
  json_array_foreach(json_object_get(json_array_get(sweep, 0), "points"), i, p) {
    double pct = analyze_json_num(p, "read_pct", -1);
    fprintf(f, "  %5.0f", pct);
    json_array_foreach(sweep, q, e) {
      const json_t *hit = NULL, *x;
      size_t k;
      json_array_foreach(json_object_get(e, "points"), k, x) {
        if (analyze_json_num(x, "read_pct", -2) == pct) hit = x;
      }
      if (hit) fprintf(f, " %10.2f %10.0f", analyze_json_num(hit, "mb_s", 0), analyze_json_num(hit, "iops", 0));
      else fprintf(f, " %10s %10s", "-", "-");
    }
    fputc('\n', f);
  }
}

/* Per test, the write amplification from the drive's counters; nothing
 * at all when no test has one (imports, drives without the counters). */
static void print_write_amp(FILE *f, const json_t *a) {
  const char *name;
  const json_t *t;
  int heading = 0;
  json_object_foreach((json_t *)json_object_get(a, "tests"), name, t) {
    const json_t *wa = json_object_get(t, "write_amplification"), *c = json_object_get(t, "drive_counters");
    if (!json_is_number(wa)) continue;
    if (!heading) fprintf(f, "\nwrite amplification (NAND / host bytes written, the drive's counters):\n");
    heading = 1;
    fprintf(f, "  %s: %.2f (host %.2f GB, NAND %.2f GB)\n", name, json_number_value(wa),
            analyze_json_num(c, "host_write_bytes", 0) / 1e9, analyze_json_num(c, "nand_write_bytes", 0) / 1e9);
  }
}

static void print_summary(FILE *f, const json_t *a) {
  size_t i;
  json_t *t, *e;
  const json_t *cdm = json_object_get(a, "cdm");
  if (json_array_size(cdm)) print_cdm(f, cdm);
  const json_t *sweep = json_object_get(a, "rw_sweep");
  if (json_array_size(sweep)) print_rw_sweep(f, sweep);
  const json_t *slc = json_object_get(json_object_get(a, "fill"), "slc");
  if (slc) {
    fprintf(f, "\nSLC cache: ");
    if (json_is_true(json_object_get(slc, "found")))
      fprintf(f, "%.2f GiB at %.0f MB/s, then %.0f MB/s (confidence %.2f)", analyze_json_num(slc, "max_gib", 0),
              analyze_json_num(slc, "cache_mb_s", 0), analyze_json_num(slc, "post_cache_mb_s", 0), analyze_json_num(slc, "confidence", 0));
    else if (analyze_json_num(json_object_get(a, "short"), "region_bytes", 0) > 0)
      /* a short fill wrote its region only (issue 27): no cache within it, not none */
      fprintf(f, "no cache seen within the %.1f GiB the short fill wrote",
              analyze_json_num(json_object_get(a, "short"), "region_bytes", 0) / 1073741824.0);
    else
      fprintf(f, "no cache detected");
    if (json_is_number(json_object_get(slc, "min_gib")))
      fprintf(f, "; near full %.2f GiB (confidence %.2f)", analyze_json_num(slc, "min_gib", 0),
              analyze_json_num(slc, "min_confidence", 0));
    else if (json_is_number(json_object_get(slc, "min_gib_at_least")))
      fprintf(f, "; near full at least %.2f GiB (the rewrite ended in the cache)", analyze_json_num(slc, "min_gib_at_least", 0));
    else if (json_is_number(json_object_get(slc, "min_gib_recovered")))
      fprintf(f, "; near full: no cache seen after the idle (the rewrite ran at the post-cache speed)");
    fprintf(f, "\n");
    const json_t *nr = json_object_get(slc, "near_full_recovery");
    if (nr)
      fprintf(f, "  near full is its idle's: %.2f GiB after %.0f s, %.2f GiB after %.0f s (cache recovery)\n",
              analyze_json_num(nr, "gib", 0), analyze_json_num(nr, "idle_s", 0), analyze_json_num(nr, "later_gib", 0),
              analyze_json_num(nr, "later_idle_s", 0));
  }
  const json_t *rec = json_object_get(json_object_get(a, "cache_recovery"), "points");
  const json_t *exh = json_object_get(json_object_get(a, "cache_recovery"), "exhaust");
  size_t known = 0;
  json_array_foreach(rec, i, e) known += json_is_number(json_object_get(e, "recovered_gib")) ||
                                         json_is_number(json_object_get(e, "at_least_gib"));
  if (json_array_size(rec) && !known) {
    /* no write of the series found a cache, none a bound in one: a drive
     * without an SLC cache (">= 0.00 GiB" at every idle was printed) */
    fprintf(f, "\nCache recovery after idle: no SLC cache seen in any of its writes");
    if (exh) fprintf(f, " (the exhausting write ran at %.0f MB/s to its bound)", analyze_json_num(exh, "speed_mb_s", 0));
    fprintf(f, "\n");
  } else if (json_array_size(rec)) {
    fprintf(f, "\nCache recovery after idle (recovered SLC cache):");
    json_array_foreach(rec, i, e) {
      double g = analyze_json_num(e, "recovered_gib", -1), lb = analyze_json_num(e, "at_least_gib", -1);
      if (g >= 0) fprintf(f, "%s %g s %.2f GiB", i ? "," : "", analyze_json_num(e, "idle_s", 0), g);
      else if (lb >= 0) fprintf(f, "%s %g s >= %.2f GiB", i ? "," : "", analyze_json_num(e, "idle_s", 0), lb);
      else fprintf(f, "%s %g s not known", i ? "," : "", analyze_json_num(e, "idle_s", 0));
    }
    fprintf(f, "\n");
  }
  const char *w;
  int first = 1;
  json_object_foreach((json_t *)json_object_get(a, "tail"), w, t) {
    if (first) fprintf(f, "\nQD1 tail latency (µs)\n");
    first = 0;
    fprintf(f, "  %-6s", w);
    const char *k;
    json_object_foreach(t, k, e) {
      /* keys are p<N>_us: the unit is in the heading */
      size_t n = strlen(k);
      if (k[0] == 'p' && json_is_number(e))
        fprintf(f, " %.*s=%.2f", (int)(n > 3 && !strcmp(k + n - 3, "_us") ? n - 3 : n), k, json_number_value(e));
    }
    fprintf(f, "\n");
  }
  json_array_foreach(json_object_get(a, "thermal"), i, t) {
    fprintf(f, "\nthermal %s: %.0f s, %.1f -> %.1f °C (peak), mean %.0f MB/s; ", analyze_json_str(t, "test"),
            analyze_json_num(t, "duration_s", 0), analyze_json_num(t, "start_temp_c", 0),
            analyze_json_num(t, "peak_temp_c", 0), analyze_json_num(t, "mean_mb_s", 0));
    if (json_is_true(json_object_get(t, "throttled")))
      fprintf(f, "throttled after %.1f s at %.1f °C, %.0f -> %.0f MB/s\n", analyze_json_num(t, "time_to_throttle_s", 0),
              analyze_json_num(t, "throttle_temp_c", 0), analyze_json_num(t, "before_mb_s", 0),
              analyze_json_num(t, "throttled_mb_s", 0));
    else
      fprintf(f, "no thermal throttling (%zu other drops)\n", json_array_size(json_object_get(t, "points")));
  }
  analyze_print_steady(f, a);
  const json_t *flags = json_object_get(a, "flags");
  if (json_array_size(flags)) fprintf(f, "\nflags:\n");
  json_array_foreach(flags, i, e) {
    fprintf(f, "  [%s] %s: %s\n", analyze_json_str(e, "severity"), analyze_json_str(e, "id"), analyze_json_str(e, "message"));
  }
}

static void print_table(FILE *f, const json_t *a, unsigned flags);

int analyze_print_table(FILE *out, const json_t *a, unsigned flags) {
  /* Every section opens with a blank line; the text goes through a buffer so
   * that one without a label above it does not start the output with one. */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return -ENOMEM;
  print_table(f, a, flags);
  int bad = ferror(f);
  if (fclose(f) || bad || !buf) {
    free(buf);
    return -ENOMEM;
  }
  size_t skip = len && buf[0] == '\n';
  if (len > skip) fwrite(buf + skip, 1, len - skip, out);
  free(buf);
  return ferror(out) ? -EIO : 0;
}

static void print_table(FILE *f, const json_t *a, unsigned flags) {
  int verbose = (flags & ANALYZE_TABLE_VERBOSE) != 0;
  const char *name, *op;
  json_t *t, *s, *e;
  size_t i;
  if (analyze_json_str(a, "label")) fprintf(f, "%s%s\n", analyze_json_str(a, "label"), json_is_true(json_object_get(a, "simulated")) ? " (simulated)" : "");
  const json_t *sh = json_object_get(a, "short");
  if (sh)
    fprintf(f, "SHORT REVIEW (--short): a trial run in a %.1f GB region of the target; fill states are shares of "
               "it and the highest percentiles rest on few I/Os\n",
            analyze_json_num(sh, "region_bytes", 0) / 1e9);
  print_summary(f, a);
  print_write_amp(f, a);
  size_t hidden = 0, nsample = 0, sample_tests = 0, ntests = 0;
  int heading = 0;
  json_object_foreach((json_t *)json_object_get(a, "tests"), name, t) {
    ntests++;
    const char *kind = analyze_json_str(t, "kind");
    int show = verbose || !summarized_kind(kind);
    size_t ns = 0;
    json_array_foreach(json_object_get(t, "warnings"), i, e) {
      ns += is_sample_warning(json_string_value(e));
    }
    nsample += ns;
    sample_tests += ns > 0;
    const char *error = analyze_json_str(t, "error");
    /* a test's error and its other warnings are always shown */
    size_t other = json_array_size(json_object_get(t, "warnings")) - ns;
    if (!show && !error && !other) {
      hidden++;
      continue;
    }
    if (!heading) fprintf(f, "\ntests:\n");
    heading = 1;
    fprintf(f, "%s [%s]\n", name, kind ? kind : "job");
    if (error) fprintf(f, "  error: %s\n", error);
    if (show) {
      const json_t *sum = json_object_get(t, "summary");
      if (sum)
        fprintf(f, "  imported: %.2f MB/s %.2f IOPS %.2f µs\n", analyze_json_num(sum, "mb_s", 0), analyze_json_num(sum, "iops", 0),
                analyze_json_num(sum, "lat_us", 0));
      json_object_foreach(json_object_get(t, "ops"), op, s) {
        print_stats(f, op, s);
      }
    }
    json_array_foreach(json_object_get(t, "warnings"), i, e) {
      const char *w = json_string_value(e);
      if (verbose || !is_sample_warning(w)) fprintf(f, "  warning: %s\n", w ? w : "");
    }
  }
  if (hidden || (nsample && !verbose)) fputc('\n', f);
  if (hidden) fprintf(f, "%zu of %zu tests are summarized above (their statistics: --verbose)\n", hidden, ntests);
  if (nsample && !verbose)
    fprintf(f, "%zu percentile%s in %zu test%s rest%s on fewer than 10 samples, marked (!) (listed with --verbose)\n",
            nsample, nsample == 1 ? "" : "s", sample_tests, sample_tests == 1 ? "" : "s", nsample == 1 ? "s" : "");
}

/* Through base's one CSV writer: test names come from the manifest and
 * are neutralized there (ssdrev_csv_text); numbers stay bare. */
static void csv_field(FILE *f, const char *s, int last) { ssdrev_csv_text(f, s, last); }
static void csv_num(FILE *f, double v, int last) {
  char b[64] = "";
  if (isfinite(v)) snprintf(b, sizeof b, "%.12g", v);
  ssdrev_csv_number(f, b, last);
}

int analyze_write_csv(FILE *f, const json_t *a) {
  static const char *const cols[] = {"ios", "bytes", "errors", "elapsed_s", "iops", "mb_s", "mib_s",
                                     "lat_min_us", "lat_mean_us", "lat_stddev_us", "lat_max_us"};
  const json_t *pl = json_object_get(a, "percentiles");
  size_t i;
  json_t *p;
  csv_field(f, "test", 0);
  csv_field(f, "kind", 0);
  csv_field(f, "op", 0);
  for (unsigned c = 0; c < 11; c++) csv_field(f, cols[c], 0);
  json_array_foreach(pl, i, p) {
    char h[48];
    snprintf(h, sizeof h, "p%g_us", json_number_value(p));
    csv_field(f, h, i + 1 == json_array_size(pl));
  }
  if (!json_array_size(pl)) fputc('\n', f);
  const char *name, *op;
  json_t *t, *s;
  json_object_foreach((json_t *)json_object_get(a, "tests"), name, t) {
    json_object_foreach(json_object_get(t, "ops"), op, s) {
      csv_field(f, name, 0);
      csv_field(f, analyze_json_str(t, "kind") ? analyze_json_str(t, "kind") : "", 0);
      csv_field(f, op, 0);
      for (unsigned c = 0; c < 11; c++) csv_num(f, analyze_json_num(s, cols[c], 0), 0);
      const json_t *pct = json_object_get(s, "pct");
      for (i = 0; i < json_array_size(pl); i++) {
        const json_t *e = json_array_get(pct, i);
        if (e) csv_num(f, analyze_json_num(e, "lat_us", 0), i + 1 == json_array_size(pl));
        else ssdrev_csv_number(f, "", i + 1 == json_array_size(pl));
      }
      if (!json_array_size(pl)) fputc('\n', f);
    }
  }
  return ferror(f) ? -EIO : 0;
}
