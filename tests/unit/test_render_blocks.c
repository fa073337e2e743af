/* test_render_blocks.c — template blocks ({{if}}, {{else}}, {{end}},
 * {{each drive}}), {{slot}}, {{findings}} and template specializing
 * (issue 27; fixtures: tests/data/analysis). */
#include <errno.h>
#include "render/render_int.h"
#include "tests/unit/testlib.h"

static const char *const fixture_dirs[] = {"tests/data/analysis/pm981", "tests/data/analysis/pm981a"};

static int load(struct render_runs *rs) {
  struct ssdrev_err err = {{0}};
  int rc = render_runs_load(rs, fixture_dirs, 2, &err);
  if (rc < 0) fprintf(stderr, "    %s\n", err.msg);
  return rc;
}

static char *expand(const struct render_runs *rs, const char *text, struct ssdrev_err *err) {
  char *md = NULL;
  struct render_expand_opts x = {.lenient = 1};
  if (render_template_expand_opts(rs, "t.md", text, NULL, "charts", 300, &x, &md, err) < 0) return NULL;
  return md;
}

TEST("An if block keeps its text only when the runs have the data, else its else branch") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = expand(&rs,
                    "{{if has=fill}}\nA\n{{else}}\nB\n{{end}}\n{{if has=steady_state}}\nC\n{{else}}\nD\n{{end}}\n"
                    "{{if drives=2 all=cdm}}\nE\n{{end}}\n{{if drives=3+}}\nF\n{{end}}\n{{if lacks=thermal}}\nG\n{{end}}\n",
                    &err);
  REQUIRE(md);
  CHECK_STR(md, "A\nD\nE\nG\n");
  free(md);
  render_runs_release(&rs);
}

TEST("An each block repeats once per run and its directives default to that run") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = expand(&rs, "{{each drive}}\n- {{label}}{{if has=fill}}\n\n{{end}}\n{{end}}\nend\n", &err);
  CHECK(md == NULL); /* an if must stand alone on its line */
  CHECK_CONTAINS(err.msg, "stand alone");
  md = expand(&rs, "{{each drive}}\n- {{label}}: {{value fill.slc.max_gib fmt=%.1f}}\n{{end}}\nend\n", &err);
  REQUIRE(md);
  CHECK_STR(md, "- PM981 256GB: 11.2\n- PM981a 256GB: 11.0\nend\n");
  free(md);
  render_runs_release(&rs);
}

TEST("Unbalanced blocks and unknown conditions are errors naming the line") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  CHECK(expand(&rs, "x\n{{if has=fill}}\ny\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "t.md:2:");
  CHECK_CONTAINS(err.msg, "without its {{end}}");
  CHECK(expand(&rs, "{{end}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "{{end}} without");
  CHECK(expand(&rs, "{{if has=bogus}}\n{{end}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "has=bogus");
  CHECK(expand(&rs, "{{if color=red}}\n{{end}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "does not take color=");
  CHECK(expand(&rs, "{{each drive}}\nx\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "without its {{end}}");
  CHECK(expand(&rs, "{{if has=fill}}\n{{else}}\n{{else}}\n{{end}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "second {{else}}");
  render_runs_release(&rs);
}

TEST("A branch not taken checks its directives but runs none of them") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  CHECK(expand(&rs, "{{if drives=5}}\n{{bogus}}\n{{end}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "t.md:2:");
  char *md = expand(&rs, "{{if drives=5}}\nabout {{value no.such.path}} GiB\n{{end}}\nok\n", &err);
  REQUIRE(md);
  CHECK_STR(md, "ok\n");
  free(md);
  render_runs_release(&rs);
}

TEST("A slot renders nothing") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = expand(&rs, "a{{slot \"write the appearance here\"}}b\n", &err);
  REQUIRE(md);
  CHECK_STR(md, "ab\n");
  free(md);
  render_runs_release(&rs);
}

TEST("Findings quote the analysis numbers in both languages and never a missing value") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = expand(&rs, "{{findings topic=slc}}\n{{findings topic=cdm}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "- **PM981 256GB:** The SLC cache ends after about 11.2 GiB");
  CHECK_CONTAINS(md, "SEQ1M Q8T1 read (FOB): ");
  CHECK(!strstr(md, "n/a"));
  free(md);
  md = expand(&rs, "{{lang ko}}\n{{findings topic=slc}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "SLC캐시는 약 11.2GiB 기록 후 끝납니다");
  CHECK(!strstr(md, "측정되지"));
  free(md);
  CHECK(expand(&rs, "{{findings topic=weather}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "topic=weather");
  render_runs_release(&rs);
}

TEST("A short run's fill gives no cache size but says why") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  /* the first run as a short review whose 2 GiB fill found no cliff */
  json_t *slc = render_data_path(rs.v[0].analysis, "fill.slc");
  REQUIRE(json_is_object(slc));
  json_object_set_new(slc, "found", json_false());
  json_object_set_new(slc, "levels", json_pack("[{s:s, s:f, s:f, s:f}]", "name", "whole", "from_gib", 0.0, "to_gib", 2.0,
                                               "mb_s", 1540.0));
  rs.v[0].short_review = 1;
  char *md = expand(&rs, "{{findings topic=slc drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "The short run wrote only 2.0 GiB (0.8% of this drive's 256 GB): an SLC cache larger than that cannot show");
  CHECK(!strstr(md, "cache ends"));
  free(md);
  render_runs_release(&rs);
}

TEST("Specializing a template decides its blocks and ties each block to its run") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *out = NULL;
  REQUIRE(render_template_specialize(&rs, "t.md",
                                     "# {{drives}}\n{{each drive}}\n## {{label}}\n{{slot \"x\"}}\n{{end}}\n"
                                     "{{if drives=3}}\nX\n{{else}}\n{{chart bars}}\n{{end}}\n",
                                     &out, &err) == 0);
  CHECK_STR(out, "# {{drives}}\n## {{label drive=1}}\n{{slot \"x\"}}\n## {{label drive=2}}\n{{slot \"x\"}}\n{{chart bars}}\n");
  free(out);
  render_runs_release(&rs);
}

TEST("A 75% figure beyond the passes' spread is a finding, one within it is not") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = expand(&rs, "{{findings topic=fob drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "FOB and 75% filled differ by no more than the passes' spread");
  free(md);
  /* halve one 75% cell's write speed */
  json_t *cells[32];
  size_t n = render_data_cdm_cells(&rs.v[0], "75%", cells, 32);
  REQUIRE(n > 0);
  json_t *w = json_object_get(cells[0], "write");
  double fob_w = json_number_value(json_object_get(w, "mb_s"));
  json_object_set_new(w, "mb_s", json_real(fob_w / 2));
  md = expand(&rs, "{{findings topic=fob drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, " write: ");
  CHECK_CONTAINS(md, "at 75% filled against");
  CHECK(strstr(md, "beyond the passes' spread") || strstr(md, "more than 5%"));
  CHECK(!strstr(md, "differ by no more than"));
  free(md);
  /* passes that agree to the last digit: "(under 0.1%)", not "of 0.0%" */
  const char *cell = json_string_value(json_object_get(cells[0], "cell"));
  REQUIRE(cell);
  char stem[64];
  size_t k = 0;
  for (const char *c = cell; *c && k + 1 < sizeof stem; c++) stem[k++] = *c == ' ' ? '_' : *c;
  stem[k] = 0;
  json_t *tests = json_object_get(rs.v[0].analysis, "tests");
  for (int st = 0; st < 2; st++)
    for (int pass = 1; pass <= 2; pass++) {
      char name[128];
      snprintf(name, sizeof name, "%s.%s.write.p%d", st ? "cdm_75" : "cdm_fob", stem, pass);
      json_object_set_new(tests, name, json_pack("{s:{s:{s:f}}}", "ops", "all", "mb_s", st ? fob_w / 2 : fob_w));
    }
  md = expand(&rs, "{{findings topic=fob drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "beyond the passes' spread (under 0.1%).");
  CHECK(!strstr(md, "spread of 0.0%"));
  free(md);
  md = expand(&rs, "{{lang ko}}\n{{findings topic=fob drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "패스 간 편차(0.1% 미만)를 넘습니다.");
  free(md);
  render_runs_release(&rs);
}

TEST("The lead rule is stated once per list and a tail workload reads in the review's words") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = expand(&rs, "{{findings topic=cdm}}\n", &err);
  REQUIRE(md);
  const char *rule = "a gap under 3% counts as even";
  const char *first = strstr(md, rule);
  CHECK(!first || !strstr(first + 1, rule));
  free(md);
  json_array_append_new(json_object_get(rs.v[0].analysis, "flags"),
                        json_pack("{s:s, s:s, s:s, s:{s:s, s:f, s:f, s:f, s:f, s:f}}", "id", "tail_blowup", "severity", "warn",
                                  "message", "mix70 tail", "numbers", "workload", "mix70", "p50_us", 76.7, "p", 99.99,
                                  "p_us", 2174.6, "ratio", 28.4, "max_ratio", 10.0));
  md = expand(&rs, "{{lang ko}}\n{{findings topic=flags}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "70/30 혼합 꼬리 지연시간: p99.99 2174.6 µs");
  CHECK(!strstr(md, "mix70"));
  CHECK(!strstr(md, "Die 수"));
  free(md);
  render_runs_release(&rs);
}

TEST("Blocks nested past 32 and an each inside an each are refused") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  struct render_buf b = {0};
  for (int i = 0; i < 33; i++) render_buf_puts(&b, "{{if has=fill}}\n");
  for (int i = 0; i < 33; i++) render_buf_puts(&b, "{{end}}\n");
  CHECK(expand(&rs, b.s, &err) == NULL);
  CHECK_CONTAINS(err.msg, "nested more than 32 deep");
  render_buf_free(&b);
  CHECK(expand(&rs, "{{each drive}}\n{{each drive}}\n{{end}}\n{{end}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "inside {{each drive}}");
  render_runs_release(&rs);
}

/* a QD sweep on a drive in GC: the first point the most, the deeper ones
 * lower (ftl-8g's review-full: 17,867 at QD1, then 8,355-12,713) */
TEST("A QD sweep whose first point is the most says so, not that it 'stops scaling at QD1'") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  json_t *pts = json_array();
  const double q[] = {1, 2, 4, 8, 16, 32, 64, 128}, v[] = {17867, 8355, 10550, 12713, 10442, 10942, 11203, 11026};
  for (int i = 0; i < 8; i++) json_array_append_new(pts, json_pack("{s:f, s:f}", "qd", q[i], "iops", v[i]));
  json_object_set_new(rs.v[0].analysis, "qd_scaling",
                      json_pack("[{s:s, s:f, s:f, s:f, s:o}]", "workload", "write", "plateau_qd", 1.0, "plateau_iops",
                                17867.0, "max_iops", 17867.0, "points", pts));
  char *md = expand(&rs, "{{findings topic=random drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "4K random write does not gain from queue depth: 17,867 IOPS at QD1, the most, then 8,355–12,713 "
                     "IOPS from QD2 to QD128.");
  CHECK(!strstr(md, "stops scaling"));
  free(md);
  md = expand(&rs, "{{lang ko}}\n{{findings topic=random drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "QD1에서 가장 많은 17,867 IOPS, QD2부터 QD128까지는 8,355–12,713 IOPS입니다.");
  free(md);
  /* a sweep that rises to its plateau keeps its sentence */
  json_t *w = json_array_get(json_object_get(rs.v[0].analysis, "qd_scaling"), 0);
  const double up[] = {12009, 22851, 41004, 64996, 86348, 99513, 106178, 109327};
  for (int i = 0; i < 8; i++) json_object_set_new(json_array_get(pts, i), "iops", json_real(up[i]));
  json_object_set_new(w, "workload", json_string("read"));
  json_object_set_new(w, "plateau_qd", json_real(32));
  json_object_set_new(w, "plateau_iops", json_real(99513));
  json_object_set_new(w, "max_iops", json_real(109327));
  md = expand(&rs, "{{findings topic=random drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "4K random read stops scaling at QD32: 99,513 IOPS there, at most 109,327 IOPS up to QD128");
  CHECK(!strstr(md, "falls to"));
  free(md);
  /* past the plateau the deepest QD fell (the demo PM981's write, GC at QD128) */
  const double pm[] = {78683, 103591, 102852, 102982, 103408, 103464, 98942, 61185};
  for (int i = 0; i < 8; i++) json_object_set_new(json_array_get(pts, i), "iops", json_real(pm[i]));
  json_object_set_new(w, "workload", json_string("write"));
  json_object_set_new(w, "plateau_qd", json_real(2));
  json_object_set_new(w, "plateau_iops", json_real(103591));
  json_object_set_new(w, "max_iops", json_real(103591));
  md = expand(&rs, "{{findings topic=random drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "4K random write stops scaling at QD2: 103,591 IOPS there, at most 103,591 IOPS up to QD128 (the "
                     "plateau is the first QD that no deeper QD beats by more than 10%). At QD128 it falls to 61,185 IOPS.");
  free(md);
  md = expand(&rs, "{{lang ko}}\n{{findings topic=random drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "QD128에서는 61,185 IOPS로 떨어집니다.");
  free(md);
  /* a fall from QD32 on is said from where it began */
  const double g5[] = {74768, 149503, 298802, 596763, 1083838, 234594, 118107, 122277};
  for (int i = 0; i < 8; i++) json_object_set_new(json_array_get(pts, i), "iops", json_real(g5[i]));
  json_object_set_new(w, "plateau_qd", json_real(16));
  json_object_set_new(w, "plateau_iops", json_real(1083838));
  json_object_set_new(w, "max_iops", json_real(1083838));
  md = expand(&rs, "{{findings topic=random drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "From QD32 on it falls: 234,594 IOPS there, 122,277 IOPS at QD128.");
  CHECK(!strstr(md, "At QD128 it falls"));
  free(md);
  md = expand(&rs, "{{lang ko}}\n{{findings topic=random drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "QD32부터는 떨어집니다: 그 지점 234,594 IOPS, QD128에서 122,277 IOPS.");
  free(md);
  /* the two figures grouped alike when one is past 10,000 */
  const double sa[] = {25033, 49968, 57667, 40868, 7846, 4378, 4370, 4388};
  for (int i = 0; i < 8; i++) json_object_set_new(json_array_get(pts, i), "iops", json_real(sa[i]));
  json_object_set_new(w, "plateau_qd", json_real(4));
  json_object_set_new(w, "plateau_iops", json_real(57667));
  json_object_set_new(w, "max_iops", json_real(57667));
  md = expand(&rs, "{{findings topic=random drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "From QD8 on it falls: 40,868 IOPS there, 4,388 IOPS at QD128.");
  free(md);
  render_runs_release(&rs);
}

/* a GC-bound thermal write lists many small dips: the table gives the three
 * largest and counts the rest */
TEST("The thermal table lists the three largest other drops and how many smaller, in both languages") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  json_t *pts = json_array();
  for (int i = 0; i < 21; i++) {
    double before = 110, after = i == 4 ? 70 : i == 9 ? 80 : i == 15 ? 90 : 98; /* 36%, 27%, 18%, else 11% */
    json_array_append_new(pts, json_pack("{s:f, s:f, s:f, s:f, s:b, s:s}", "t_s", 10.0 * i + 3, "before_mb_s", before,
                                         "after_mb_s", after, "temp_c", 60.0, "thermal", 0, "evidence", "x"));
  }
  json_object_set_new(rs.v[0].analysis, "thermal",
                      json_pack("[{s:s, s:f, s:f, s:f, s:b, s:f, s:f, s:o, s:[f, f, f], s:[f, f, f]}]", "test",
                                "thermal.write", "duration_s", 600.0, "start_temp_c", 38.6, "peak_temp_c", 60.9, "throttled",
                                0, "mean_mb_s", 108.0, "interval_s", 1.0, "points", pts, "t_s", 0.0, 1.0, 2.0, "mb_s",
                                110.0, 110.0, 110.0));
  char *md = expand(&rs, "{{table thermal drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "| Other drops (not thermal) | 43.0 s: 110 → 70 MB/s, 60.0 °C; 93.0 s: 110 → 80 MB/s, 60.0 °C; "
                     "153.0 s: 110 → 90 MB/s, 60.0 °C; and 18 smaller |");
  free(md);
  md = expand(&rs, "{{lang ko}}\n{{table thermal drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "153.0 s: 110 → 90 MB/s, 60.0 °C; 그 밖에 더 작은 저하 18건 |");
  free(md);
  /* the finding: a rise, or a temperature that held within 1 °C */
  md = expand(&rs, "{{findings topic=thermal drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "No throttling in the 600 s sustained write: 108 MB/s on average, 39 °C rising to a peak of 61 °C.");
  free(md);
  json_object_set_new(json_array_get(json_object_get(rs.v[0].analysis, "thermal"), 0), "peak_temp_c", json_real(39.2));
  md = expand(&rs, "{{findings topic=thermal drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "the temperature within 1 °C of its start (38.6 °C, peak 39.2 °C).");
  CHECK(!strstr(md, "rising to a peak"));
  free(md);
  md = expand(&rs, "{{lang ko}}\n{{findings topic=thermal drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "온도는 시작 온도에서 1 °C 이내로 유지되었습니다 (시작 38.6 °C, 최고 39.2 °C).");
  free(md);
  /* the drive's counters throttled, but no drop was the throttle (its cap
   * above the speed the drive wrote at): not "no throttling" */
  json_t *th = json_array_get(json_object_get(rs.v[0].analysis, "thermal"), 0);
  json_object_set_new(th, "peak_temp_c", json_real(77.5));
  json_object_set_new(th, "smart_throttle_s", json_real(562));
  md = expand(&rs, "{{findings topic=thermal drive=1}}\n{{table thermal drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "In the 600 s sustained write the drive's thermal-management counters record 562 s throttled, but "
                     "no drop in the write's speed matches them: 108 MB/s on average, 39 °C rising to a peak of 78 °C.");
  CHECK_CONTAINS(md, "| Thermal throttling | in the counters, no drop in speed |");
  CHECK(!strstr(md, "No throttling"));
  free(md);
  md = expand(&rs, "{{lang ko}}\n{{findings topic=thermal drive=1}}\n{{table thermal drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "드라이브의 온도 관리 카운터는 562초의 스로틀링을 기록했지만, 이에 맞는 쓰기 속도 저하는 없었습니다");
  CHECK_CONTAINS(md, "| 발열 스로틀링 | 카운터에만 기록, 속도 저하 없음 |");
  free(md);
  /* a throttle the counters placed is said as theirs, not by the temperature rule */
  json_object_set_new(th, "throttled", json_true());
  json_object_set_new(th, "throttle_evidence", json_string("smart"));
  json_object_set_new(th, "time_to_throttle_s", json_real(48));
  json_object_set_new(th, "throttle_temp_c", json_real(70.1));
  json_object_set_new(th, "before_mb_s", json_real(110));
  json_object_set_new(th, "throttled_mb_s", json_real(60));
  md = expand(&rs, "{{findings topic=thermal drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "throttled after 48 s at 70 °C: from 110 MB/s to 60 MB/s (placed by the drive's thermal-management "
                     "counters: 562 s throttled over the step).");
  CHECK(!strstr(md, "stopped rising"));
  free(md);
  json_object_set_new(th, "throttle_evidence", json_string("series"));
  md = expand(&rs, "{{lang ko}}\n{{findings topic=thermal drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "온도 상승이 멈추거나 경고 온도에 머문 상태의 속도 저하를 스로틀링으로 봅니다");
  free(md);
  render_runs_release(&rs);
}

TEST("The thermal chart and table pick the same few largest other drops, the throttle never among them") {
  json_t *pts = json_array();
  for (int i = 0; i < 21; i++) {
    double after = i == 4 ? 70 : i == 9 ? 80 : i == 15 ? 90 : i == 2 ? 10 : 98;
    json_array_append_new(pts, json_pack("{s:f, s:f, s:f, s:b}", "t_s", 10.0 * i + 3, "before_mb_s", 110.0,
                                         "after_mb_s", after, "thermal", i == 2)); /* the deepest is the throttle */
  }
  json_t *th = json_pack("{s:o}", "points", pts);
  size_t keep[RENDER_THERMAL_DROPS_MAX], listed = 0, nk = render_data_thermal_drops(th, keep, &listed);
  CHECK(nk == 3 && listed == 20);
  CHECK(render_data_thermal_kept(keep, nk, 4) && render_data_thermal_kept(keep, nk, 9) &&
        render_data_thermal_kept(keep, nk, 15));
  CHECK(!render_data_thermal_kept(keep, nk, 2) && !render_data_thermal_kept(keep, nk, 0));
  json_decref(th);
}

TEST("A fill without a cache fills its row: dashes for the cache's cells, the fill's speed after them") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  json_object_set_new(json_object_get(rs.v[0].analysis, "fill"), "slc",
                      json_pack("{s:b, s:n, s:f, s:f}", "found", 0, "max_gib", "fill_mb_s", 263.7, "confidence", 0.0));
  char *md = expand(&rs, "{{table slc drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, " | no cache detected | – | – | 264 MB/s | – |");
  free(md);
  render_runs_release(&rs);
}

TEST("A QD sweep flat from its first point 'gains little from queue depth', not 'stops scaling at QD1'") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  json_t *pts = json_array();
  /* a QLC model's write: 30,016 at QD1, 31,873 at most, a slight fall at QD128 */
  const double q[] = {1, 2, 4, 8, 16, 32, 64, 128}, v[] = {30016, 31873, 31859, 31820, 31747, 31596, 31361, 30953};
  for (int i = 0; i < 8; i++) json_array_append_new(pts, json_pack("{s:f, s:f}", "qd", q[i], "iops", v[i]));
  json_object_set_new(rs.v[0].analysis, "qd_scaling",
                      json_pack("[{s:s, s:f, s:f, s:f, s:o}]", "workload", "write", "plateau_qd", 1.0, "plateau_iops",
                                30016.0, "max_iops", 31873.0, "points", pts));
  char *md = expand(&rs, "{{findings topic=random drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "4K random write gains little from queue depth: 30,016 IOPS at QD1, at most 31,873 IOPS up to "
                     "QD128 (no deeper QD beats QD1 by more than 10%).");
  CHECK(!strstr(md, "stops scaling"));
  free(md);
  md = expand(&rs, "{{lang ko}}\n{{findings topic=random drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "4K 랜덤 쓰기는 QD를 높여도 거의 늘지 않습니다: QD1에서 30,016 IOPS, QD128까지 최대 31,873 IOPS");
  free(md);
  render_runs_release(&rs);
}

TEST("A cache that recovered nothing: 'recovered nothing' in the near-full note, a dash for its in-cache speed") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  json_t *slc = json_object_get(json_object_get(rs.v[0].analysis, "fill"), "slc");
  REQUIRE(json_is_object(slc));
  json_object_set_new(slc, "near_full_recovery", json_pack("{s:b, s:f, s:f, s:f, s:f}", "recovered", 0, "idle_s", 60.0,
                                                           "gib", 0.0, "later_idle_s", 120.0, "later_gib", 2.0));
  json_object_set_new(rs.v[0].analysis, "cache_recovery",
                      json_loads("{\"points\": [{\"idle_s\": 5, \"recovered_gib\": 0, \"pct\": 0}, {\"idle_s\": 120, "
                                 "\"recovered_gib\": 2, \"pct\": 100, \"cache_mb_s\": 563}]}", 0, NULL));
  char *md = expand(&rs, "{{table slc drive=1}}\n{{table cache_recovery drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "after 60 s the cache had recovered nothing, after 120 s 2.00 GiB (cache recovery).");
  CHECK_CONTAINS(md, "| 5 s | 0 GiB (0%) | – |");
  CHECK_CONTAINS(md, "| 2 min | 2 GiB (100%) | 563 MB/s |");
  CHECK(!strstr(md, "0.00 GiB"));
  free(md);
  md = expand(&rs, "{{lang ko}}\n{{table slc drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "60초 후에는 회복된 캐시가 없었고, 120초 후 2.00GiB가 회복되었습니다");
  free(md);
  render_runs_release(&rs);
}

TEST("The QD table's legend stands once under the drives' tables, not under each") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  for (int d = 0; d < 2; d++)
    json_object_set_new(rs.v[d].analysis, "qd_scaling",
                        json_pack("[{s:s, s:f, s:f, s:f, s:[{s:f, s:f}, {s:f, s:f}]}]", "workload", "read", "plateau_qd",
                                  2.0, "plateau_iops", 22851.0, "max_iops", 22851.0, "points", "qd", 1.0, "iops", 12009.0,
                                  "qd", 2.0, "iops", 22851.0));
  char *md = expand(&rs, "{{table qd_scaling}}\n", &err);
  REQUIRE(md);
  const char *legend = "Bold IOPS: the first QD that no deeper QD beats by more than 10% (the plateau).";
  const char *first = strstr(md, legend);
  REQUIRE(first != NULL);
  CHECK(strstr(first + 1, legend) == NULL);
  CHECK(strstr(md, "PM981a 256GB") < first); /* under both tables */
  CHECK_CONTAINS(md, "| 2 | **22,851** |");
  free(md);
  render_runs_release(&rs);
}
