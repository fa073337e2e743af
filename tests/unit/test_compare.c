/* test_compare.c — the batch compare's pieces: the figures an analysis
 * yields (analyze_compare_figures) and the review-style number formats. */
#include <string.h>
#include "render/compare/compare_int.h"
#include "render/render_int.h"
#include "tests/unit/testlib.h"

struct seen {
  char ids[128][160];
  int headline[128], higher[128];
  double v[128];
  char unit[128][8];
  size_t n;
  size_t stop_at; /* return 1 at this call (0 = never) */
};

static int collect(const struct analyze_figure *f, void *arg) {
  struct seen *s = arg;
  if (s->n < 128) {
    snprintf(s->ids[s->n], sizeof s->ids[0], "%s|%s|%s", f->family, f->key, f->metric);
    snprintf(s->unit[s->n], sizeof s->unit[0], "%s", f->unit);
    s->headline[s->n] = f->headline;
    s->higher[s->n] = f->higher_better;
    s->v[s->n] = f->value;
  }
  s->n++;
  return s->stop_at && s->n == s->stop_at;
}

static long find(const struct seen *s, const char *id) {
  for (size_t i = 0; i < s->n && i < 128; i++)
    if (!strcmp(s->ids[i], id)) return (long)i;
  return -1;
}

static json_t *sample(void) {
  return json_loads("{\"format\": \"ssdrev-analysis\","
                    " \"cdm\": [{\"state\": \"FOB\", \"profile\": \"default\", \"cell\": \"SEQ1M Q8T1\","
                    "   \"read\": {\"mb_s\": 3531.28, \"iops\": 3367.7, \"lat_us\": -1},"
                    "   \"write\": {\"mb_s\": 1455.1, \"iops\": 1387.0, \"lat_us\": 5764.5}}],"
                    " \"fill\": {\"slc\": {\"max_gib\": 11.2, \"post_cache_mb_s\": 780}},"
                    " \"rw_sweep\": [{\"qd\": 1, \"points\": [{\"read_pct\": 70, \"mb_s\": 53.3, \"iops\": 13000},"
                    "   {\"read_pct\": 40, \"mb_s\": 67.8}]}],"
                    " \"tail\": {\"read\": {\"p99_us\": 98.47, \"p99.9_us\": 99.9, \"mean_us\": 89.9}}}",
                    0, NULL);
}

TEST("Every comparable figure is reported with its unit, and -1 never") {
  json_t *a = sample();
  REQUIRE(a != NULL);
  struct seen s = {0};
  CHECK(analyze_compare_figures(a, collect, &s) == 0);
  long i = find(&s, "cdm|FOB default SEQ1M Q8T1|read_mb_s");
  CHECK(i >= 0 && s.headline[i] && s.higher[i] && !strcmp(s.unit[i], "MB/s") && s.v[i] == 3531.28);
  CHECK(find(&s, "cdm|FOB default SEQ1M Q8T1|read_lat_us") < 0); /* -1: not measured */
  i = find(&s, "cdm|FOB default SEQ1M Q8T1|write_lat_us");
  CHECK(i >= 0 && !s.headline[i] && !s.higher[i] && !strcmp(s.unit[i], "us"));
  i = find(&s, "slc|slc|post_cache_mb_s");
  CHECK(i >= 0 && s.headline[i]);
  CHECK(find(&s, "slc|slc|min_gib") < 0); /* absent: not reported */
  i = find(&s, "rw_sweep|QD1|read70_mb_s");
  CHECK(i >= 0 && s.headline[i]);
  i = find(&s, "rw_sweep|QD1|read40_mb_s");
  CHECK(i >= 0 && !s.headline[i]);
  i = find(&s, "tail|read|p99_us");
  CHECK(i >= 0 && s.headline[i] && !s.higher[i]);
  i = find(&s, "tail|read|p99.9_us");
  CHECK(i >= 0 && !s.headline[i]);
  json_decref(a);
}

TEST("A consistency and a thermal test's time series are figures of their steps (the overlays')") {
  /* consistency: 60 per-second samples (t 0..59): 2 s steps, the mean of
   * each pair; IOPS 1000 + t. thermal: 0..900 s at 10 s (91 samples): 60 s
   * steps (900 / 30 s would need 31 steps); temperature 40 + t / 100 */
  json_t *a = json_pack("{s:[{s:s, s:{s:f}, s:{s:[], s:[]}}], s:[{s:s, s:[], s:[], s:[], s:[]}]}", "consistency",
                        "test", "consistency.write", "steady", "mean_iops", 1000.0, "per_s", "t_s", "iops", "thermal",
                        "test", "thermal.write", "t_s", "mb_s", "temp_t_s", "temp_c");
  REQUIRE(a != NULL);
  json_t *ps = json_object_get(json_array_get(json_object_get(a, "consistency"), 0), "per_s");
  for (int t = 0; t < 60; t++) {
    json_array_append_new(json_object_get(ps, "t_s"), json_real(t));
    json_array_append_new(json_object_get(ps, "iops"), json_real(1000 + t));
  }
  json_t *th = json_array_get(json_object_get(a, "thermal"), 0);
  for (int t = 0; t <= 900; t += 10) {
    json_array_append_new(json_object_get(th, "t_s"), json_real(t));
    json_array_append_new(json_object_get(th, "mb_s"), json_real(t < 450 ? 2000 : 800));
    json_array_append_new(json_object_get(th, "temp_t_s"), json_real(t));
    json_array_append_new(json_object_get(th, "temp_c"), json_real(40 + t / 100.0));
  }
  struct seen s = {0};
  CHECK(analyze_compare_figures(a, collect, &s) == 0);
  long i = find(&s, "consistency|consistency.write|t2_iops");
  CHECK(i >= 0 && s.v[i] == 1000.5 && !s.headline[i] && s.higher[i] && !strcmp(s.unit[i], "IOPS"));
  i = find(&s, "consistency|consistency.write|t60_iops");
  CHECK(i >= 0 && s.v[i] == 1058.5);
  CHECK(find(&s, "consistency|consistency.write|t1_iops") < 0 && find(&s, "consistency|consistency.write|t62_iops") < 0);
  i = find(&s, "thermal|thermal.write|t60_mb_s"); /* 0..50 s */
  CHECK(i >= 0 && s.v[i] == 2000 && s.higher[i]);
  i = find(&s, "thermal|thermal.write|t480_mb_s"); /* 420..470 s: 420, 430, 440 at 2000, 450..470 at 800 */
  CHECK(i >= 0 && s.v[i] == 1400);
  i = find(&s, "thermal|thermal.write|t960_temp_c"); /* 900 s alone */
  CHECK(i >= 0 && s.v[i] == 49 && !s.higher[i] && !strcmp(s.unit[i], "°C"));
  CHECK(find(&s, "thermal|thermal.write|t30_mb_s") < 0);
  /* the steps' titles, in both languages */
  struct cmp_fig f = {.family = "thermal", .key = "thermal.write", .metric = "t480_mb_s"};
  char b[200];
  render_cmp_fig_title(&f, 0, b, sizeof b);
  CHECK_STR(b, "Thermal: write speed at 480 s (thermal.write)");
  render_cmp_fig_title(&f, 1, b, sizeof b);
  CHECK_STR(b, "발열: 480초 시점 쓰기 속도 (thermal.write)");
  f = (struct cmp_fig){.family = "consistency", .key = "consistency.write", .metric = "t2_iops"};
  render_cmp_fig_title(&f, 0, b, sizeof b);
  CHECK_STR(b, "Consistency: IOPS at 2 s (consistency.write)");
  json_decref(a);
}

TEST("A callback's non-zero return stops the walk and is returned") {
  json_t *a = sample();
  REQUIRE(a != NULL);
  struct seen s = {.stop_at = 2};
  CHECK(analyze_compare_figures(a, collect, &s) == 1);
  CHECK(s.n == 2);
  json_decref(a);
}

TEST("Numbers are formatted as in the reviews, never in e-notation") {
  char b[64];
  render_cmp_fmt_num(b, sizeof b, 64600.4, "IOPS");
  CHECK_STR(b, "64,600");
  render_cmp_fmt_num(b, sizeof b, 3531.284, "MB/s");
  CHECK_STR(b, "3,531.28");
  render_cmp_fmt_num(b, sizeof b, 1234567.891, "us");
  CHECK_STR(b, "1,234,568");
  render_cmp_fmt_num(b, sizeof b, 0.0123, "us");
  CHECK_STR(b, "0.01");
  render_cmp_fmt_num(b, sizeof b, 11.25, "GiB");
  CHECK_STR(b, "11.2");
  render_cmp_fmt_num(b, sizeof b, 1e21, "IOPS");
  CHECK(!strchr(b, 'e') && !strncmp(b, "1,000,000,000,000,000,000,000", 29));
  render_cmp_fmt_ratio(b, sizeof b, 1.0347);
  CHECK_STR(b, "x1.03");
}

TEST("A bar chart's label keeps firmware and state: the model's front goes first, then (sim), then the end") {
  cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 10, 10);
  cairo_t *cr = cairo_create(sf);
  char a[200] = "SAMSUNG MZVLB256HAHQ-000L7 · FW200 · FOB+75% (sim) (short)";
  double full = render_canvas_text_width(cr, a, 8.5, 0);
  render_cmp_fit_label(cr, a, sizeof a, full, 0); /* fits: unchanged */
  CHECK_STR(a, "SAMSUNG MZVLB256HAHQ-000L7 · FW200 · FOB+75% (sim) (short)");
  /* room for the model's last 10 characters and the rest without (sim) */
  char want[200] = "…HAHQ-000L7 · FW200 · FOB+75% (short)";
  render_cmp_fit_label(cr, a, sizeof a, render_canvas_text_width(cr, want, 8.5, 0) + 0.5, 0);
  CHECK_STR(a, want);
  /* tighter: the model down to 6 characters, the state and marks kept */
  snprintf(a, sizeof a, "%s", "SAMSUNG MZVLB256HAHQ-000L7 · FW200 · FOB+75% (sim) (short)");
  snprintf(want, sizeof want, "%s", "…Q-000L7 · FW200 · FOB+75% (short)");
  render_cmp_fit_label(cr, a, sizeof a, render_canvas_text_width(cr, want, 8.5, 0) + 0.5, 0);
  CHECK_STR(a, want);
  /* tighter still: the model at 6 characters, then the end */
  double w = render_canvas_text_width(cr, "…-000L7 · FW200 · FOB", 8.5, 0) + 0.5;
  render_cmp_fit_label(cr, a, sizeof a, w, 0);
  size_t l = strlen(a);
  CHECK(!strncmp(a, "…-000L7 · FW200 · F", strlen("…-000L7 · FW200 · F")) && l > 3 && !strcmp(a + l - 3, "…"));
  CHECK(render_canvas_text_width(cr, a, 8.5, 0) <= w);
  cairo_destroy(cr);
  cairo_surface_destroy(sf);
}

TEST("Every report string has an English and a Korean form") {
  for (int id = 0; id < CM_COUNT_; id++) {
    const char *en = render_cmp_msg((enum render_cmp_msg)id, 0), *ko = render_cmp_msg((enum render_cmp_msg)id, 1);
    CHECK(en && *en);
    CHECK(ko && *ko);
  }
  CHECK_STR(render_cmp_msg(CM_TITLE, 1), "일괄 비교");
}
