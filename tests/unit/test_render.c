/* test_render.c — the renderer: ticks, lookups, template directives and
 * their errors, tables, HTML and PDF outputs (fixtures: tests/data/analysis). */
#include <errno.h>
#include <math.h>
#include <sys/stat.h>
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
  if (render_template_expand(rs, "t.md", text, NULL, "charts", 300, &md, err) < 0) return NULL;
  return md;
}

static int file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && st.st_size > 0;
}

TEST("Nice tick steps are 1, 2 or 5 times a power of ten") {
  CHECK_NEAR(render_canvas_nice_step(0, 100, 5), 20, 1e-9);
  CHECK_NEAR(render_canvas_nice_step(0, 3600, 6), 1000, 1e-9);
  CHECK_NEAR(render_canvas_nice_step(0, 1, 5), 0.2, 1e-12);
  CHECK_NEAR(render_canvas_nice_step(0, 238, 6), 50, 1e-9);
  char b[32];
  render_canvas_fmt_tick(b, sizeof b, 2.5, 0.5);
  CHECK_STR(b, "2.5");
  render_canvas_fmt_tick(b, sizeof b, 1500, 500);
  CHECK_STR(b, "1,500");
}

TEST("Tick labels carry thousands separators from 1,000 up, decimals and signs kept") {
  char b[32];
  render_canvas_fmt_tick(b, sizeof b, 1200000, 200000);
  CHECK_STR(b, "1,200,000");
  render_canvas_fmt_tick(b, sizeof b, 999, 1);
  CHECK_STR(b, "999");
  render_canvas_fmt_tick(b, sizeof b, -12345, 5);
  CHECK_STR(b, "-12,345");
  render_canvas_fmt_tick(b, sizeof b, 1234.5, 0.5);
  CHECK_STR(b, "1,234.5");
  render_canvas_fmt_tick(b, sizeof b, 100000, 100000);
  CHECK_STR(b, "100,000");
  char small[6];
  render_canvas_fmt_tick(small, sizeof small, 1200000, 1); /* cut, never overrun */
  CHECK(strlen(small) == 5);
}

TEST("A table's integer: separators from 1,000 up, a dash for NaN, %g beyond any measured figure (never cut off)") {
  const struct {
    double v;
    const char *want;
  } cases[] = {{999, "999"}, {11035, "11,035"}, {-27347.4, "-27,347"}, {1e300, "1e+300"}, {NAN, "–"}, {INFINITY, "–"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct render_buf b = {0};
    render_buf_thousands(&b, cases[i].v);
    CHECK_STR(b.s ? b.s : "", cases[i].want);
    render_buf_free(&b);
  }
}

TEST("CrystalDiskMark cells sort into CrystalDiskMark's order whatever the runs listed first") {
  json_t *c[6];
  static const char *const in[] = {"RND4K Q1T1", "SEQ1M Q1T1", "RND4K Q32T16", "Other", "SEQ128K Q32T1", "SEQ1M Q8T1"};
  static const char *const want[] = {"SEQ1M Q8T1", "SEQ1M Q1T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1", "Other"};
  for (int i = 0; i < 6; i++) c[i] = json_pack("{s:s}", "cell", in[i]);
  render_data_cdm_sort(c, 6);
  for (int i = 0; i < 6; i++) CHECK_STR(json_string_value(json_object_get(c[i], "cell")), want[i]);
  for (int i = 0; i < 6; i++) json_decref(c[i]);
}

TEST("A dotted path finds keys that contain dots themselves") {
  json_error_t je;
  json_t *j = json_loads("{\"tail\":{\"read\":{\"p99.9_us\":99.88}},\"cdm\":[{\"x\":1},{\"x\":2}]}", 0, &je);
  REQUIRE(j);
  CHECK_NEAR(json_number_value(render_data_path(j, "tail.read.p99.9_us")), 99.88, 1e-9);
  CHECK_NEAR(json_number_value(render_data_path(j, "cdm.1.x")), 2, 1e-9);
  CHECK(render_data_path(j, "tail.read.p99.99_us") == NULL);
  CHECK(render_data_path(j, "cdm.7.x") == NULL);
  json_decref(j);
}

TEST("Runs load with labels from the analysis and are found by label or number") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  CHECK_STR(rs.v[0].label, "PM981 256GB");
  CHECK(rs.v[1].simulated);
  CHECK(render_runs_find(&rs, "PM981a 256GB") == &rs.v[1]);
  CHECK(render_runs_find(&rs, "1") == &rs.v[0]);
  CHECK(render_runs_find(&rs, "3") == NULL);
  double us = 0;
  CHECK(render_data_tail_us(&rs.v[0], "mix70", 99.99, &us) == 0);
  CHECK_NEAR(us, 2285.65, 1e-9);
  render_runs_release(&rs);
}

TEST("A run without analysis.json fails with a message naming the directory") {
  struct render_runs rs;
  struct ssdrev_err err = {{0}};
  const char *dirs[] = {test_tmpdir()};
  CHECK(render_runs_load(&rs, dirs, 1, &err) < 0);
  CHECK_CONTAINS(err.msg, test_tmpdir());
  CHECK_CONTAINS(err.msg, "ssdrev analyze");
}

TEST("Prose around directives passes through byte for byte") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  const char *t = "# Title  with  spaces\n\nSLC: **{{value fill.slc.max_gib fmt=%.1f}} GiB** — 끝.\n"
                  "Drive: {{label drive=2}}; literal \\{{value x}}.\n```\n{{not a directive}}\n```\n";
  char *md = expand(&rs, t, &err);
  REQUIRE(md);
  CHECK_STR(md, "# Title  with  spaces\n\nSLC: **11.2 GiB** — 끝.\nDrive: PM981a 256GB; literal {{value x}}.\n"
                "```\n{{not a directive}}\n```\n");
  free(md);
  render_runs_release(&rs);
}

TEST("fmt= with the ',' flag groups the number's integer digits, not the text around it") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  /* cdm.0.read.iops of the fixture: 3254.5 */
  char *md = expand(&rs,
                    "{{value cdm.0.read.iops fmt=%,.1f}} / {{value cdm.0.read.iops fmt=\"QD1000%% %,.0f x\"}} / "
                    "{{value cdm.0.read.iops fmt=%.0f}} / {{value fill.slc.max_gib fmt=%,.1f}}\n",
                    &err);
  REQUIRE(md);
  CHECK_STR(md, "3,254.5 / QD1000% 3,254 x / 3254 / 11.2\n");
  free(md);
  render_runs_release(&rs);
}

TEST("An unknown directive is an error naming the template file and line") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  CHECK(expand(&rs, "a\nb\nc {{frobnicate}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "t.md:3:");
  CHECK_CONTAINS(err.msg, "frobnicate");
  render_runs_release(&rs);
}

TEST("Bad directive arguments are errors naming file, line and argument") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  CHECK(expand(&rs, "{{chart nosuchkind}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "t.md:1: unknown chart kind 'nosuchkind'");
  CHECK(expand(&rs, "\n{{table tail colour=red}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "t.md:2:");
  CHECK_CONTAINS(err.msg, "colour=");
  CHECK(expand(&rs, "{{value fill.slc.max_gib fmt=%s}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "fmt=%s");
  CHECK(expand(&rs, "{{value fill.slc.max_gib fmt=%f%f}}\n", &err) == NULL);
  CHECK(expand(&rs, "{{value fill.nothing}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "fill.nothing");
  CHECK(expand(&rs, "{{table cdm drive=9}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "drive=9");
  CHECK(expand(&rs, "{{chart cdm state=50%}}\n", &err) == NULL);
  CHECK(expand(&rs, "x {{label\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "t.md:1:");
  render_runs_release(&rs);
}

TEST("The tail table holds the reference review's values with units") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = expand(&rs, "{{table tail drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "| Percentile | RND Read | RND Read 70% | RND Write |");
  CHECK_CONTAINS(md, "| 90% | 93.50 µs | 92.81 µs | 13.90 µs |");
  CHECK_CONTAINS(md, "| 99.999% | 174.15 µs | 3095.47 µs | 28.21 µs |");
  free(md);
  md = expand(&rs, "{{table tail}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "**PM981a 256GB**");
  CHECK_CONTAINS(md, "| 99.999% | 186.64 µs | 3329.26 µs | 51.92 µs |");
  free(md);
  render_runs_release(&rs);
}

TEST("The DUT summary table follows the review's layout, power states included") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = expand(&rs, "{{dut drive=1}}\n", &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "| SAMSUNG MZVLB256HAHQ-000L7 [PM981 256GB] | | | |");
  CHECK_CONTAINS(md, "| Link | PCIe 3.0 x4 | NVMe Version | NVMe 1.2 |");
  CHECK_CONTAINS(md, "| Controller | Samsung Phoenix | Warning Temp | 81 °C |");
  CHECK_CONTAINS(md, "| PS3 | 0.0760W | 210µs | 1200µs |");
  CHECK_CONTAINS(md, "| PS0 | 7.02W | 0µs | 0µs |");
  free(md);
  render_runs_release(&rs);
}

TEST("CDM, SLC, sweep and flag tables carry the analysis numbers") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = expand(&rs, "{{table cdm drive=2 state=FOB}}\n{{table slc}}\n{{table rw_sweep drive=1}}\n"
                         "{{flags}}\n{{table cdm_compare op=write}}\n{{simulated_notice}}\n",
                    &err);
  REQUIRE(md);
  CHECK_CONTAINS(md, "| SEQ1M Q8T1 | 3541.08 | 1612.44 |");
  CHECK_CONTAINS(md, "| PM981 256GB | 11.2 GiB | 2.1 GiB | 1450 MB/s | 780 MB/s | 0.93 |");
  CHECK_CONTAINS(md, "| Read share | QD1 [MB/s] | QD2 [MB/s] | QD4 [MB/s] |");
  CHECK_CONTAINS(md, "RND4K Q32T1 read 548 MB/s \\< 600 MB/s"); /* a flag's text is escaped (render_buf_md) */
  CHECK_CONTAINS(md, "| RND4K Q1T1 | 118.36 | 131.25 |");
  CHECK_CONTAINS(md, "> **Simulated results:**");
  free(md);
  render_runs_release(&rs);
}

TEST("A chart directive over a one-drive kind draws one chart per drive") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = NULL;
  const char *dir = test_path("charts-a");
  REQUIRE(render_template_expand(&rs, "t.md", "{{chart cdm state=75%}}\n{{chart fill caption=\"Fill [all]\"}}\n",
                                 dir, "charts", 72, &md, &err) == 0);
  CHECK_CONTAINS(md, "](charts/cdm-75-d1.png)");
  CHECK_CONTAINS(md, "](charts/cdm-75-d2.png)");
  CHECK_CONTAINS(md, "![Fill \\[all\\]](charts/fill.png)");
  char p[600];
  snprintf(p, sizeof p, "%s/cdm-75-d2.svg", dir);
  CHECK(file_exists(p));
  snprintf(p, sizeof p, "%s/fill.png", dir);
  CHECK(file_exists(p));
  free(md);
  render_runs_release(&rs);
}

TEST("A template error draws no chart at all") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = NULL;
  const char *dir = test_path("charts-b");
  CHECK(render_template_expand(&rs, "t.md", "{{chart fill}}\n{{bogus}}\n", dir, "charts", 72, &md, &err) < 0);
  CHECK_CONTAINS(err.msg, "t.md:2:");
  struct stat st;
  CHECK(stat(dir, &st) != 0);
  render_runs_release(&rs);
}

TEST("Every chart kind draws a PNG of the asked size and an SVG") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  /* The fixtures predate queue-depth scaling: give both runs one. */
  for (size_t i = 0; i < rs.n; i++)
    json_object_set_new(rs.v[i].analysis, "qd_scaling",
                        json_loads("[{\"workload\": \"read\", \"plateau_qd\": 32, \"points\": [{\"qd\": 1, \"iops\": 12000,"
                                   " \"p99_us\": 114}, {\"qd\": 32, \"iops\": 97000, \"p99_us\": 1207},"
                                   " {\"qd\": 128, \"iops\": 99000, \"p99_us\": 4653}]}]", 0, NULL));
  /* ... nor a thermal step */
  for (size_t i = 0; i < rs.n; i++)
    json_object_set_new(rs.v[i].analysis, "thermal",
                        json_loads("[{\"t_s\": [0, 1, 2, 3], \"mb_s\": [1000, 1000, 700, 700], \"temp_t_s\": [0.25, 1.25, 2.25],"
                                   " \"temp_c\": [60, 70, 71], \"warn_temp_c\": 70, \"points\": [{\"t_s\": 1.5,"
                                   " \"thermal\": true}]}]", 0, NULL));
  /* ... and steady-state rounds and a consistency test */
  for (size_t i = 0; i < rs.n; i++) {
    json_object_set_new(rs.v[i].analysis, "steady_state",
                        json_loads("{\"steady\": true, \"rounds\": [{\"round\": 1, \"iops\": 150000}, {\"round\": 2, \"iops\": 101000},"
                                   " {\"round\": 3, \"iops\": 100000}], \"window\": {\"first_round\": 2, \"last_round\": 3,"
                                   " \"mean_iops\": 100500, \"slope_iops_per_round\": -1000, \"intercept\": 103000}}", 0, NULL));
    json_object_set_new(rs.v[i].analysis, "consistency",
                        json_loads("[{\"per_s\": {\"t_s\": [0, 1, 2], \"iops\": [200000, 90000, 88000], \"p99_9_us\": [900, 4000, 3800]},"
                                   " \"per_fine\": {\"t_s\": [0, 0.1, 0.2], \"iops\": [210000, 190000, 95000]},"
                                   " \"steady\": {\"from_s\": 1, \"to_s\": 3}}]", 0, NULL));
  }
  /* ... and cache recovery: a lower bound among the points */
  for (size_t i = 0; i < rs.n; i++)
    json_object_set_new(rs.v[i].analysis, "cache_recovery",
                        json_loads("{\"points\": [{\"idle_s\": 5, \"recovered_gib\": 0.5}, {\"idle_s\": 30, "
                                   "\"recovered_gib\": 2}, {\"idle_s\": 600, \"recovered_gib\": null, \"at_least_gib\": 4}]}",
                                   0, NULL));
  for (const struct render_chart_kind_info *k = render_chart_kinds(); k->name; k++) {
    if (!strcmp(k->name, "hist")) continue; /* needs a raw log; see the CLI test */
    struct render_chart_opts o;
    render_chart_opts_defaults(&o);
    o.drive = render_chart_kind_one_drive(k->name) ? "2" : NULL;
    o.dpi = 100;
    struct ssdrev_err err = {{0}};
    char png[300], svg[300];
    snprintf(png, sizeof png, "%s", test_path(k->name));
    snprintf(svg, sizeof svg, "%.280s.svg", png);
    strncat(png, ".png", sizeof png - strlen(png) - 1);
    int rc = render_chart_file(&rs, k->name, &o, png, &err);
    if (rc < 0) fprintf(stderr, "    %s: %s\n", k->name, err.msg);
    CHECK(rc == 0);
    CHECK(render_chart_file(&rs, k->name, &o, svg, &err) == 0);
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
    CHECK(cairo_image_surface_get_width(s) == 650);
    cairo_surface_destroy(s);
  }
  render_runs_release(&rs);
}

TEST("A chart no run has the data of fails naming a run and writes no file; one run's data is drawn") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  json_object_del(rs.v[1].analysis, "fill");
  struct ssdrev_err err = {{0}};
  /* drive 2 has no fill: drive 1's trace is drawn, drive 2 named "not measured" */
  const char *one = test_path("onefill.png");
  CHECK(render_chart_file(&rs, "fill", NULL, one, &err) == 0);
  CHECK(file_exists(one));
  json_object_del(rs.v[0].analysis, "fill");
  const char *out = test_path("nofill.png");
  CHECK(render_chart_file(&rs, "fill", NULL, out, &err) == -ENOENT);
  CHECK_CONTAINS(err.msg, "PM981 256GB");
  CHECK(!file_exists(out));
  CHECK(render_chart_file(&rs, "cdm", NULL, test_path("x.png"), &err) == -EINVAL); /* which drive? */
  CHECK(render_chart_file(&rs, "tail", NULL, test_path("x.jpg"), &err) == -EINVAL);
  render_runs_release(&rs);
}

TEST("Output formats parse from a list and reject unknown names") {
  unsigned m = 0;
  struct ssdrev_err err = {{0}};
  CHECK(render_formats_parse("pdf,md", &m, &err) == 0);
  CHECK(m == (RENDER_FMT_PDF | RENDER_FMT_MD));
  CHECK(render_formats_parse("md,docx", &m, &err) < 0);
  CHECK_CONTAINS(err.msg, "docx");
}

TEST("HTML renders GFM tables and a title from the first heading") {
  char *html = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(render_md_to_html("# Rev <1>\n\n| a | b |\n| --- | ---: |\n| 1 | 93.50 µs |\n", NULL, &html, &err) == 0);
  CHECK_CONTAINS(html, "<title>Rev &lt;1&gt;</title>");
  CHECK_CONTAINS(html, "<table>");
  CHECK_CONTAINS(html, "<td align=\"right\">93.50 µs</td>");
  CHECK_CONTAINS(html, "charset=\"utf-8\"");
  free(html);
}

TEST("A PDF is written with Hangul, µ and ° text and a missing image fails cleanly") {
  struct ssdrev_err err = {{0}};
  const char *out = test_path("t.pdf");
  const char *md = "# 제목 Title\n\n본문 93.50 µs at 81 °C ≥ 1.\n\n## Two\n\n| a | b |\n| --- | --- |\n| 가 | 2 |\n\n"
                   "- item\n- 항목\n\n> quote\n\n```\ncode\n```\n";
  REQUIRE(render_md_to_pdf(md, NULL, out, &err) == 0);
  char *buf = NULL;
  size_t len = 0;
  REQUIRE(ssdrev_read_file(out, &buf, &len, 0, &err) == 0);
  CHECK(len > 1000 && !memcmp(buf, "%PDF-", 5));
  CHECK(memmem(buf, len, "/Outlines", 9) != NULL);
  CHECK(memmem(buf, len, "FontFile2", 9) != NULL); /* embedded TrueType */
  free(buf);
  const char *out2 = test_path("t2.pdf");
  CHECK(render_md_to_pdf("# x\n\n![c](nope/missing.png)\n", NULL, out2, &err) < 0);
  CHECK_CONTAINS(err.msg, "missing.png");
  CHECK(!file_exists(out2));
}

/* Renders TEMPLATE over the fixtures into a fresh directory with O's HTML
 * settings; returns review.html (malloc'd) or NULL. */
static char *report_html(const char *name, const char *tmpl, int linked, size_t svg_max, struct ssdrev_err *err) {
  struct render_runs rs;
  if (load(&rs) < 0) return NULL;
  char tpath[600], dir[620], hp[700];
  snprintf(tpath, sizeof tpath, "%s", test_path(name));
  snprintf(dir, sizeof dir, "%s.out", tpath);
  char *html = NULL;
  if (ssdrev_write_file_atomic(tpath, tmpl, strlen(tmpl), err) == 0) {
    struct render_report_opts o = {.template_path = tpath, .out_dir = dir, .formats = RENDER_FMT_HTML, .dpi = 40,
                                   .html_linked = linked, .html_svg_max = svg_max};
    snprintf(hp, sizeof hp, "%s/review.html", dir);
    if (render_report(&rs, &o, err) == 0) ssdrev_read_file(hp, &html, NULL, 0, err);
  }
  render_runs_release(&rs);
  return html;
}

static size_t count(const char *s, const char *what) {
  size_t n = 0;
  for (const char *p = s ? strstr(s, what) : NULL; p; p = strstr(p + 1, what)) n++;
  return n;
}

TEST("The HTML review carries its charts inline as SVG figures with captions") {
  struct ssdrev_err err = {{0}};
  /* the author's photo lies beside the template, as the image rule wants */
  REQUIRE(ssdrev_write_file_atomic(test_path("pcb.jpg"), "JPEG", 4, &err) == 0);
  char *html = report_html("inline.md",
                           "# T\n\n{{chart fill caption=\"Fill <both>\"}}\n\n{{chart tail}}\n\n![photo](pcb.jpg)\n", 0, 0,
                           &err);
  REQUIRE(html != NULL);
  CHECK_CONTAINS(html, "<html lang=\"en\">");
  CHECK_CONTAINS(html, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
  CHECK_CONTAINS(html, "@media print");
  CHECK(count(html, "<figure>") == 3);
  CHECK(count(html, "<svg role=\"img\"") == 2);
  CHECK_CONTAINS(html, "<figcaption>Fill &lt;both&gt;</figcaption>");
  CHECK_CONTAINS(html, ">Fill drive: sequential write, 128 KiB</text>"); /* chart text is text */
  CHECK(strstr(html, "src=\"charts/") == NULL);
  /* the author's own image stays a link, captioned all the same */
  CHECK_CONTAINS(html, "<img src=\"pcb.jpg\" alt=\"photo\" />");
  CHECK_CONTAINS(html, "<figcaption>photo</figcaption>");
  /* two charts, no shared ids: each figure's are prefixed */
  CHECK(strstr(html, "id=\"clip") == NULL);
  CHECK_CONTAINS(html, "id=\"f1-");
  CHECK_CONTAINS(html, "url(#f2-");
  CHECK(strstr(html, "<?xml") == NULL);
  free(html);
}

TEST("A chart SVG over the size limit goes into the HTML as a PNG data URI") {
  struct ssdrev_err err = {{0}};
  char *html = report_html("png.md", "# T\n\n{{chart fill caption=F}}\n", 0, 100, &err);
  REQUIRE(html != NULL);
  CHECK_CONTAINS(html, "<img alt=\"F\" src=\"data:image/png;base64,iVBORw0KGgo");
  CHECK(strstr(html, "<svg") == NULL);
  free(html);
}

TEST("Linked HTML keeps the chart files and {{lang ko}} sets the page language") {
  struct ssdrev_err err = {{0}};
  char *html = report_html("linked.md", "{{lang ko}}\n# 제목\n\n{{chart tail caption=꼬리}}\n", 1, 0, &err);
  REQUIRE(html != NULL);
  CHECK_CONTAINS(html, "<html lang=\"ko\">");
  CHECK_CONTAINS(html, "<img src=\"charts/tail.png\" alt=\"꼬리\" />");
  CHECK_CONTAINS(html, "<figcaption>꼬리</figcaption>");
  CHECK(strstr(html, "<svg") == NULL);
  free(html);
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  CHECK(expand(&rs, "{{lang ko}}\n{{lang en}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "t.md:2: lang en");
  CHECK(expand(&rs, "{{lang fr}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "give en or ko");
  CHECK(expand(&rs, "{{chart tail lang=fr}}\n", &err) == NULL);
  CHECK_CONTAINS(err.msg, "t.md:1: lang=fr");
  char *en = expand(&rs, "{{lang ko}}\n{{dut drive=1 lang=en}}\n", &err);
  CHECK(en && strstr(en, "| Power-On Hours | 1,873 h |"));
  free(en);
  /* the template's language is the default lang= of every directive */
  char *md = expand(&rs, "{{lang ko}}\n{{table cdm drive=1 state=75%}}\n{{dut drive=2}}\n", &err);
  REQUIRE(md != NULL);
  CHECK_CONTAINS(md, "*CrystalDiskMark 방식 결과 — PM981 256GB, 75% 채움*");
  CHECK_CONTAINS(md, "| 사용 시간 | 640 h | 총 기록량 | 2.20 TB |");
  free(md);
  render_runs_release(&rs);
}

TEST("The DUT table shows the SMART health and each CDM table its caption") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  char *md = expand(&rs, "{{dut drive=1}}\n{{table cdm state=FOB}}\n", &err);
  REQUIRE(md != NULL);
  CHECK_CONTAINS(md, "| **SMART Health (start of review)** | | | |\n");
  CHECK_CONTAINS(md, "| Power-On Hours | 1,873 h | Data Written | 13.51 TB |\n");
  CHECK_CONTAINS(md, "| Data Read | 21.47 TB | Media Errors | 0 |\n");
  CHECK_CONTAINS(md, "| Percentage Used | 3% | Available Spare | 100% |\n");
  CHECK_CONTAINS(md, "\n*CrystalDiskMark-style results — PM981 256GB, FOB*\n");
  CHECK_CONTAINS(md, "\n*CrystalDiskMark-style results — PM981a 256GB, FOB*\n");
  free(md);
  render_runs_release(&rs);
}

TEST("The temperature chart draws temperature and write speed, in Korean with lang=ko") {
  struct render_runs rs;
  REQUIRE(load(&rs) == 0);
  struct ssdrev_err err = {{0}};
  struct render_chart_opts o;
  render_chart_opts_defaults(&o);
  o.drive = "1";
  o.lang = RENDER_LANG_KO;
  const char *svg = test_path("temp.svg");
  REQUIRE(render_chart_file(&rs, "temperature", &o, svg, &err) == 0);
  char *buf = NULL;
  REQUIRE(ssdrev_read_file(svg, &buf, NULL, 0, &err) == 0);
  CHECK_CONTAINS(buf, ">리뷰 중 온도와 쓰기 속도 — PM981 256GB</text>");
  CHECK_CONTAINS(buf, ">쓰기 속도 [MB/s]</text>");
  CHECK_CONTAINS(buf, ">온도 [°C]</text>");
  free(buf);
  o.lang = RENDER_LANG_EN;
  REQUIRE(render_chart_file(&rs, "temperature", &o, svg, &err) == 0);
  REQUIRE(ssdrev_read_file(svg, &buf, NULL, 0, &err) == 0);
  CHECK_CONTAINS(buf, ">Temperature and write speed during the review — PM981 256GB</text>");
  CHECK_CONTAINS(buf, ">Write throughput [MB/s]</text>");
  free(buf);
  /* a run without samples: said so, nothing written */
  json_object_set_new(rs.v[1].analysis, "temperature", json_pack("{s:[], s:[]}", "t_s", "c"));
  o.drive = "2";
  CHECK(render_chart_file(&rs, "temperature", &o, test_path("none.svg"), &err) == -ENOENT);
  CHECK_CONTAINS(err.msg, "no temperature samples");
  CHECK(!file_exists(test_path("none.svg")));
  render_runs_release(&rs);
}

TEST("A run says whether it is short and its region: 0 for a full run, the GiB of a short one, -1 without a region") {
  struct render_run r = {0};
  CHECK(render_run_short_gib(&r) == 0);
  r.analysis = json_pack("{s:{s:I, s:I}}", "short", "region_bytes", (json_int_t)2147483648LL, "target_bytes",
                         (json_int_t)256060514304LL);
  r.short_review = 1;
  CHECK_NEAR(render_run_short_gib(&r), 2.0, 1e-12);
  json_decref(r.analysis);
  r.analysis = json_pack("{s:{}}", "short");
  CHECK(render_run_short_gib(&r) == -1);
  json_decref(r.analysis);
  CHECK(render_run_short_gib(NULL) == 0);
}
