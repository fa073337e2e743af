/* output.c — an analysis object as text tables or CSV (libcsv quoting). */
#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "analyze/analyze_int.h"

static void print_stats(FILE *f, const char *op, const json_t *s) {
  fprintf(f, "  %-6s %10.0f ios %10.2f MB/s %10.0f IOPS  lat us: min %.2f mean %.2f sd %.2f max %.2f\n", op,
          analyze_json_num(s, "ios", 0), analyze_json_num(s, "mb_s", 0), analyze_json_num(s, "iops", 0), analyze_json_num(s, "lat_min_us", 0),
          analyze_json_num(s, "lat_mean_us", 0), analyze_json_num(s, "lat_stddev_us", 0), analyze_json_num(s, "lat_max_us", 0));
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
  fprintf(f, " us\n");
}

int analyze_print_table(FILE *f, const json_t *a) {
  const char *name, *op;
  json_t *t, *s, *e;
  size_t i;
  if (analyze_json_str(a, "label")) fprintf(f, "%s%s\n", analyze_json_str(a, "label"), json_is_true(json_object_get(a, "simulated")) ? " (simulated)" : "");
  const json_t *sh = json_object_get(a, "short");
  if (sh)
    fprintf(f, "SHORT REVIEW (--short): a trial run in a %.1f GB region of the target; fill states are shares of "
               "it and the highest percentiles rest on few I/Os\n",
            analyze_json_num(sh, "region_bytes", 0) / 1e9);
  json_object_foreach((json_t *)json_object_get(a, "tests"), name, t) {
    fprintf(f, "%s [%s]\n", name, analyze_json_str(t, "kind") ? analyze_json_str(t, "kind") : "job");
    if (analyze_json_str(t, "error")) fprintf(f, "  error: %s\n", analyze_json_str(t, "error"));
    const json_t *sum = json_object_get(t, "summary");
    if (sum)
      fprintf(f, "  imported: %.2f MB/s %.2f IOPS %.2f us\n", analyze_json_num(sum, "mb_s", 0), analyze_json_num(sum, "iops", 0),
              analyze_json_num(sum, "lat_us", 0));
    json_object_foreach(json_object_get(t, "ops"), op, s) {
      print_stats(f, op, s);
    }
    json_array_foreach(json_object_get(t, "warnings"), i, e) {
      fprintf(f, "  warning: %s\n", json_string_value(e));
    }
  }
  const json_t *cdm = json_object_get(a, "cdm");
  if (json_array_size(cdm)) {
    int mix = 0;
    json_array_foreach(cdm, i, s) {
      mix |= json_object_get(s, "mix") != NULL;
    }
    fprintf(f, "\nCDM (max MB/s over passes; IOPS; min mean latency)\n");
    fprintf(f, "  %-6s %-8s %-16s %10s %10s %10s %10s%s\n", "state", "profile", "cell", "read MB/s", "write MB/s",
            "read us", "write us", mix ? "   mix MB/s     mix us" : "");
    json_array_foreach(cdm, i, s) {
      const json_t *r = json_object_get(s, "read"), *w = json_object_get(s, "write"), *m = json_object_get(s, "mix");
      fprintf(f, "  %-6s %-8s %-16s %10.2f %10.2f %10.2f %10.2f", analyze_json_str(s, "state"), analyze_json_str(s, "profile"),
              analyze_json_str(s, "cell"), analyze_json_num(r, "mb_s", 0), analyze_json_num(w, "mb_s", 0), analyze_json_num(r, "lat_us", 0),
              analyze_json_num(w, "lat_us", 0));
      if (mix) fprintf(f, " %10.2f %10.2f", analyze_json_num(m, "mb_s", 0), analyze_json_num(m, "lat_us", 0));
      fputc('\n', f);
    }
  }
  const json_t *slc = json_object_get(json_object_get(a, "fill"), "slc");
  if (slc) {
    fprintf(f, "\nSLC cache: ");
    if (json_is_true(json_object_get(slc, "found")))
      fprintf(f, "%.2f GiB at %.0f MB/s, then %.0f MB/s (confidence %.2f)", analyze_json_num(slc, "max_gib", 0),
              analyze_json_num(slc, "cache_mb_s", 0), analyze_json_num(slc, "post_cache_mb_s", 0), analyze_json_num(slc, "confidence", 0));
    else
      fprintf(f, "no sustained drop found");
    if (json_is_number(json_object_get(slc, "min_gib"))) fprintf(f, "; near full %.2f GiB", analyze_json_num(slc, "min_gib", 0));
    fprintf(f, "\n");
  }
  const char *w;
  json_object_foreach((json_t *)json_object_get(a, "tail"), w, t) {
    fprintf(f, "tail %-6s", w);
    const char *k;
    json_object_foreach(t, k, e) {
      if (k[0] == 'p' && json_is_number(e)) fprintf(f, " %s=%.2f", k, json_number_value(e));
    }
    fprintf(f, "\n");
  }
  const json_t *flags = json_object_get(a, "flags");
  if (json_array_size(flags)) fprintf(f, "\nflags:\n");
  json_array_foreach(flags, i, e) {
    fprintf(f, "  [%s] %s: %s\n", analyze_json_str(e, "severity"), analyze_json_str(e, "id"), analyze_json_str(e, "message"));
  }
  return ferror(f) ? -EIO : 0;
}

/* Quotes (libcsv) only fields that need it, so numbers stay bare. */
static void csv_field(FILE *f, const char *s, int last) {
  if (strpbrk(s, ",\"\r\n") || (*s == ' ' || (*s && s[strlen(s) - 1] == ' '))) csv_fwrite(f, s, strlen(s));
  else fputs(s, f);
  fputc(last ? '\n' : ',', f);
}
static void csv_num(FILE *f, double v, int last) {
  char b[64];
  snprintf(b, sizeof b, "%.12g", v);
  csv_field(f, b, last);
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
        else csv_field(f, "", i + 1 == json_array_size(pl));
      }
      if (!json_array_size(pl)) fputc('\n', f);
    }
  }
  return ferror(f) ? -EIO : 0;
}
