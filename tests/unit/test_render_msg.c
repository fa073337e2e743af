/* test_render_msg.c — the message catalogue (render/msg.c): every id has
 * both forms, Korean differs from English where it should, parameters are
 * filled, missing-data reasons come back in Korean, the template's language
 * is found, and a Korean template's tables, flags and notes are Korean
 * (fixtures: tests/data/analysis). */
#include <errno.h>
#include <string.h>
#include "render/render_int.h"
#include "tests/unit/testlib.h"

static int has_hangul(const char *s) {
  /* UTF-8 of U+AC00..U+D7A3 starts with 0xEA..0xED */
  for (; s && *s; s++)
    if ((unsigned char)*s >= 0xEA && (unsigned char)*s <= 0xED) return 1;
  return 0;
}

/* The {parameters} a form names, sorted into one string ("{a}{b:1}"). */
static void params_of(const char *form, char *out, size_t len) {
  out[0] = 0;
  for (const char *p = form; (p = strchr(p, '{'));) {
    const char *c = strchr(p, '}');
    if (!c) break;
    size_t n = (size_t)(strcspn(p, ":}"));
    if (strlen(out) + n + 2 < len) strncat(out, p, n), strcat(out, "}");
    p = c + 1;
  }
}

TEST("Every message id has a non-empty English and Korean form") {
  for (int id = 0; id < MSG_COUNT; id++) {
    const char *en = render_msg(RENDER_LANG_EN, (enum render_msg_id)id);
    const char *ko = render_msg(RENDER_LANG_KO, (enum render_msg_id)id);
    if (!*en || !*ko) fprintf(stderr, "    %s (id %d) lacks a form\n", render_msg_name((enum render_msg_id)id), id);
    CHECK(*en);
    CHECK(*ko);
  }
}

TEST("Korean differs from English unless the row keeps the reference's English term") {
  for (int id = 0; id < MSG_COUNT; id++) {
    const char *en = render_msg(RENDER_LANG_EN, (enum render_msg_id)id);
    const char *ko = render_msg(RENDER_LANG_KO, (enum render_msg_id)id);
    int words = 0;
    for (const char *c = en; *c; c++)
      if (*c == '{') c = strchr(c, '}') ? strchr(c, '}') : c;
      else if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')) words = 1;
    if (!strcmp(en, ko) && !render_msg_same_ok((enum render_msg_id)id) && words) {
      fprintf(stderr, "    %s: Korean form is the English one\n", render_msg_name((enum render_msg_id)id));
      CHECK(0);
    }
    /* a Korean form is Korean (MSG_AND's ", " has no words to translate) */
    if (strcmp(en, ko) && words && id != MSG_AND && !has_hangul(ko)) {
      fprintf(stderr, "    %s: Korean form has no Hangul\n", render_msg_name((enum render_msg_id)id));
      CHECK(0);
    }
  }
  CHECK(render_msg_same_ok(MSG_C_PROF_DEFAULT)); /* CrystalDiskMark's own profile name */
  CHECK(!render_msg_same_ok(MSG_T_PERCENTILE)); /* Korean on a Korean page, though the reference writes it in English */
  CHECK(!render_msg_same_ok(MSG_T_TEST));
}

/* English words a Korean form may hold: units, CrystalDiskMark's cells and
 * terms, names of products, standards and statistics, and the machine text
 * a reader types or opens (options, files, JSON paths are cut out first). */
static const char *const ko_allow[] = {
    "MB", "GB", "TB", "GiB", "MiB", "KiB", "IOPS", "QD", "FOB", "SEQ", "RND", "SLC", "TLC", "QLC", "NAND", "DRAM",
    "NVMe", "PCIe", "SATA", "LBA", "DUT", "SMART", "TMT", "SNIA", "PTS", "CrystalDiskMark", "KDiskMark", "CDM",
    "ssdrev", "fio", "clat", "OS", "RW", "Welch", "Student", "Phoronix", "Test", "Suite", "SPEC", "sim", "p", "x",
    "reference", "full", "short", "AnandTech", "CV", "ms", "GC", NULL};

static int ko_allowed(const char *w, size_t n) {
  for (const char *const *a = ko_allow; *a; a++)
    if (strlen(*a) == n && !strncmp(*a, w, n)) return 1;
  /* a cell's parts (Q8T1, SEQ1M, RND4K), a percentile (p99), a sensor (TMT1) */
  if (n >= 2 && (w[0] == 'Q' || w[0] == 'p' || w[0] == 'T') && w[1] >= '0' && w[1] <= '9') return 1;
  return 0;
}

TEST("Korean forms hold no English words outside units, names and machine text (no 'Fill Drive', 'Tail Latency')") {
  for (int id = 0; id < MSG_COUNT; id++) {
    if (render_msg_same_ok((enum render_msg_id)id)) continue;
    const char *ko = render_msg(RENDER_LANG_KO, (enum render_msg_id)id);
    char t[2048];
    size_t n = 0;
    /* cut {params}, `code`, (분석 항목 PATH), --options and words.with.dots (files, JSON paths) */
    for (const char *c = ko; *c && n + 1 < sizeof t; c++) {
      const char *end = NULL;
      if (*c == '{') end = strchr(c, '}');
      else if (*c == '`') end = strchr(c + 1, '`');
      else if (!strncmp(c, "(분석 항목 ", strlen("(분석 항목 "))) end = strchr(c, ')');
      else if (c[0] == '-' && c[1] == '-') {
        end = c;
        while (end[1] && end[1] != ' ' && end[1] != ')' && end[1] != ',') end++;
      }
      if (end) {
        c = end;
        t[n++] = ' ';
        continue;
      }
      t[n++] = *c;
    }
    t[n] = 0;
    for (const char *c = t; *c;) {
      if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))) {
        c++;
        continue;
      }
      const char *w = c;
      while ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
             *c == '[' || *c == ']' || ((*c == '.' || *c == '/') && c[1] && c[1] != ' ') ||
             (*c == '-' && c[1] && c[1] != ' ' && c[1] != '-')) /* profiles/review-full.json whole */
        c++;
      size_t len = (size_t)(c - w);
      if (memchr(w, '.', len) || memchr(w, '_', len)) continue; /* a file, a JSON path */
      /* words joined by '/' are words each: I/O and MB/s pass as units,
       * "Read/Write" does not (the whole was let through as a path) */
      for (const char *part = w, *wend = w + len; part < wend;) {
        const char *sl = memchr(part, '/', (size_t)(wend - part));
        size_t plen = (size_t)((sl ? sl : wend) - part), letters = 0;
        while (letters < plen &&
               ((part[letters] >= 'a' && part[letters] <= 'z') || (part[letters] >= 'A' && part[letters] <= 'Z')))
          letters++;
        /* a unit (s, C), a name, or no word at all (a "/" between numbers) */
        if (!(letters <= 1 || ko_allowed(part, plen) || ko_allowed(part, letters))) {
          fprintf(stderr, "    %s: English word '%.*s' in the Korean form\n", render_msg_name((enum render_msg_id)id),
                  (int)plen, part);
          CHECK(0);
        }
        part += plen + (sl ? 1 : 0);
      }
    }
  }
}

TEST("A Korean tail flag names its workload in Korean (as the findings do), the English one by its id") {
  /* a parameter's value is no catalogue form: "mix70 꼬리 지연시간" passed the scan above */
  json_t *p = json_pack("{s:s, s:f, s:f, s:f, s:f, s:f}", "workload", "mix70", "p50_us", 80.0, "p", 99.99, "p_us",
                        1200.0, "ratio", 15.0, "max_ratio", 10.0);
  struct render_buf ko = {0}, en = {0};
  render_msg_put(&ko, RENDER_LANG_KO, MSG_F_TAIL_BLOWUP, p);
  render_msg_put(&en, RENDER_LANG_EN, MSG_F_TAIL_BLOWUP, p);
  CHECK(ko.s && !strncmp(ko.s, "70/30 혼합 꼬리 지연시간: p99.99 1200.0 µs", strlen("70/30 혼합 꼬리 지연시간: p99.99 1200.0 µs")));
  CHECK(ko.s && !strstr(ko.s, "mix70"));
  CHECK(en.s && !strncmp(en.s, "mix70 tail: p99.99", strlen("mix70 tail: p99.99")));
  render_buf_free(&ko);
  render_buf_free(&en);
  json_decref(p);
}

TEST("Both forms of a message name the same parameters") {
  for (int id = 0; id < MSG_COUNT; id++) {
    char a[512], b[512];
    params_of(render_msg(RENDER_LANG_EN, (enum render_msg_id)id), a, sizeof a);
    params_of(render_msg(RENDER_LANG_KO, (enum render_msg_id)id), b, sizeof b);
    /* same multiset is enough for our forms: compare lengths and each name */
    for (char *p = a; (p = strchr(p, '{')); p++) {
      char name[64];
      size_t n = strcspn(p, "}") + 1;
      if (n >= sizeof name) continue;
      memcpy(name, p, n);
      name[n] = 0;
      if (!strstr(b, name)) {
        fprintf(stderr, "    %s: Korean lacks %s\n", render_msg_name((enum render_msg_id)id), name);
        CHECK(0);
      }
    }
  }
}

TEST("A form's parameters are filled from a JSON object, numbers with their decimals") {
  json_t *p = json_pack("{s:s, s:f, s:f, s:f, s:s, s:s, s:f}", "cell", "RND4K Q32T1", "mb_s", 403.2, "capacity_gb", 256.0,
                        "limit_mb_s", 600.0, "state", "FOB", "op", "write", "ratio", 0.5);
  struct render_buf b = {0};
  render_msg_put(&b, RENDER_LANG_EN, MSG_F_RND_READ_PLATEAU, p);
  CHECK_STR(b.s, "RND4K Q32T1 read 403 MB/s < 600 MB/s on a 256 GB drive (FOB): few dies, queue depth does not help");
  render_buf_free(&b);
  render_msg_put(&b, RENDER_LANG_KO, MSG_F_RND_READ_PLATEAU, p);
  CHECK_CONTAINS(b.s, "403MB/s");
  CHECK_CONTAINS(b.s, "병목현상");
  render_buf_free(&b);
  render_msg_put(&b, RENDER_LANG_KO, MSG_T_CMP_HEAD, p); /* {op:op} translates the op */
  CHECK_STR(b.s, "FOB 쓰기 [MB/s]");
  render_buf_free(&b);
  json_object_del(p, "limit_mb_s");
  CHECK(!render_msg_params_ok(RENDER_LANG_KO, MSG_F_RND_READ_PLATEAU, p)); /* an older analysis */
  CHECK(render_msg_params_ok(RENDER_LANG_KO, MSG_T_CMP_HEAD, p));
  json_decref(p);
}

TEST("Every flag id of docs/flags.md and every severity has a message") {
  static const char *const ids[] = {"rnd_read_plateau", "fob_vs_full",      "write_cliff",       "slow_post_cache",
                                    "tail_blowup",      "rw_sweep_dip",     "thermal_throttle",  "thermal_near_warn",
                                    "thermal_over_warn", "link_bound",      "io_errors",        "log_unreadable"};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) CHECK(render_msg_flag(ids[i]) >= 0);
  CHECK(render_msg_flag("no_such_flag") == -1);
  CHECK(render_msg_severity("warn") == MSG_SEV_WARN);
  CHECK_STR(render_msg(RENDER_LANG_KO, MSG_SEV_WARN), "경고");
}

TEST("A missing-data reason written in English comes back in Korean with its parameters") {
  struct ssdrev_err err = {{0}};
  CHECK(render_msg_fail(&err, -ENOENT, MSG_MISS_CDM, "PM981 256GB", "75%") == -ENOENT);
  CHECK_STR(err.msg, "run 'PM981 256GB' has no CrystalDiskMark results in state '75%'");
  struct render_buf b = {0};
  render_msg_put_reason(&b, RENDER_LANG_KO, err.msg);
  CHECK_STR(b.s, "'PM981 256GB'에 75% 상태의 CrystalDiskMark 결과가 없습니다");
  render_buf_free(&b);
  render_msg_put_reason(&b, RENDER_LANG_KO, "something else entirely");
  CHECK_STR(b.s, "something else entirely");
  render_buf_free(&b);
}

TEST("The template's language comes from a lang directive, else the file name") {
  CHECK(render_template_lang("templates/review.ko.md", "# x\n") == RENDER_LANG_KO);
  CHECK(render_template_lang("templates/single.en.md", "# x\n") == RENDER_LANG_EN);
  CHECK(render_template_lang("my.md", "# x\n\n{{lang ko}}\n") == RENDER_LANG_KO);
  CHECK(render_template_lang("a.ko.md", "{{lang en}}\n") == RENDER_LANG_EN);
  CHECK(render_template_lang("my.md", "```\n{{lang ko}}\n```\n") == RENDER_LANG_EN); /* code is not a directive */
  CHECK(render_template_lang(NULL, NULL) == RENDER_LANG_EN);
}

TEST("A lang directive is found on its own line only, after many lines or in a last line without a newline") {
  /* the search is per line (it was a strstr over the rest of the text for
   * every line: quadratic, issue 26) */
  struct render_buf b = {0};
  for (int i = 0; i < 100000; i++) render_buf_puts(&b, "{{version}} {{lang}}\n");
  render_buf_puts(&b, "```\n{{lang en}}\n```\ntext {{lang ko}}");
  REQUIRE(!b.oom);
  CHECK(render_template_lang("a.en.md", b.s) == RENDER_LANG_KO);
  CHECK(render_template_lang("a.md", "x\n{{lang fr}}\n{{lang ko}}\n") == RENDER_LANG_KO);
  CHECK(render_template_lang("a.ko.md", "{{lang\nen}}\n") == RENDER_LANG_KO); /* not a directive across lines */
  render_buf_free(&b);
}

static const char *const fixture_dirs[] = {"tests/data/analysis/pm981", "tests/data/analysis/pm981a"};

TEST("A Korean template's tables, flags and not-measured notes are Korean") {
  struct render_runs rs = {0};
  struct ssdrev_err err = {{0}};
  REQUIRE(render_runs_load(&rs, fixture_dirs, 2, &err) == 0);
  const char *t = "{{table cdm drive=1 state=FOB}}\n\n{{table slc}}\n\n{{flags}}\n\n{{table rw_sweep drive=1}}\n\n"
                  "{{value cdm.read.mb_s state=FOB cell=\"RND4K Q32T1\" fmt=%.0f}}\n\n{{value no.such.value}}\n\n"
                  "{{chart hist drive=1 test=nope}}\n";
  struct render_expand_opts x = {.lenient = 1};
  char *md = NULL;
  REQUIRE(render_template_expand_opts(&rs, "t.ko.md", t, NULL, "charts", 300, &x, &md, &err) == 0);
  CHECK_CONTAINS(md, "| 테스트 | 읽기 [MB/s] | 쓰기 [MB/s] |");
  CHECK_CONTAINS(md, "| 드라이브 | SLC캐시 (빈 드라이브) |");
  CHECK_CONTAINS(md, "| 드라이브 | 수준 | 내용 |");
  CHECK_CONTAINS(md, "| 경고 |");
  CHECK_CONTAINS(md, "| 읽기 비율 |");
  CHECK_CONTAINS(md, "측정되지 않음:");
  CHECK(!strstr(md, "Not measured"));
  CHECK(!strstr(md, "| warn |"));
  CHECK(!strstr(md, "| Test |"));
  /* the fixtures' flags predate the numbers the finding quotes: their
   * English message is shown rather than a finding with holes */
  CHECK_CONTAINS(md, "| 경고 | RND4K Q32T1 read 548 MB/s \\< 600 MB/s on a 256 GB drive |");
  CHECK(!strstr(md, "?MB/s"));
  free(md);
  /* the same template as English keeps the English forms */
  REQUIRE(render_template_expand_opts(&rs, "t.en.md", t, NULL, "charts", 300, &x, &md, &err) == 0);
  CHECK_CONTAINS(md, "| Test | Read [MB/s] | Write [MB/s] |");
  CHECK_CONTAINS(md, "| warn |");
  CHECK_CONTAINS(md, "*Not measured: ");
  free(md);
  render_runs_release(&rs);
}

/* 1 when MD holds WORD as a whole ASCII word (not inside a longer one). */
static int has_word(const char *md, const char *word) {
  size_t n = strlen(word);
  for (const char *p = md; (p = strstr(p, word)); p++) {
    int before = p > md && ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z');
    int after = (p[n] | 32) >= 'a' && (p[n] | 32) <= 'z';
    if (!before && !after) return 1;
  }
  return 0;
}

TEST("A Korean jobs, clat tail and QD-scaling table has no English words; the English one reads as before") {
  struct render_runs rs = {0};
  struct ssdrev_err err = {{0}};
  REQUIRE(render_runs_load(&rs, fixture_dirs, 1, &err) == 0);
  json_t *an = rs.v[0].analysis;
  /* jobs: a random mix of clat figures with too few I/Os for its tail, a
   * sequential write and a random read without a p99.99 */
  json_object_set_new(an, "jobs",
                      json_loads("[{\"test\": \"j1\", \"pattern\": \"rand\", \"read_pct\": 70, \"block_bytes\": 8192,"
                                 " \"qd\": 3, \"threads\": 1, \"latency\": \"clat\", \"all\": {\"iops\": 1000, \"mb_s\": 8,"
                                 " \"mean_us\": 90, \"ios\": 500, \"p50_us\": 80, \"p99_us\": 120, \"p99.9_us\": 300,"
                                 " \"p99.99_us\": 400}},"
                                 " {\"test\": \"j2\", \"pattern\": \"seq\", \"read_pct\": 0, \"block_bytes\": 1048576,"
                                 " \"qd\": 8, \"threads\": 1, \"all\": {\"iops\": 2000, \"mb_s\": 2000, \"mean_us\": 4000,"
                                 " \"ios\": 100000, \"p50_us\": 3900, \"p99_us\": 5000, \"p99.9_us\": 6000, \"p99.99_us\": 7000}},"
                                 " {\"test\": \"j3\", \"pattern\": \"rand\", \"read_pct\": 100, \"block_bytes\": 4096,"
                                 " \"qd\": 1, \"threads\": 1, \"all\": {\"iops\": 10000, \"mb_s\": 40, \"mean_us\": 95,"
                                 " \"ios\": 100000, \"p50_us\": 90, \"p99_us\": 100, \"p99.9_us\": 110}}]",
                                 0, NULL));
  json_object_set_new(json_object_get(json_object_get(an, "tail"), "read"), "latency", json_string("clat"));
  json_object_set_new(an, "qd_scaling",
                      json_loads("[{\"workload\": \"read\", \"plateau_qd\": 32, \"points\": [{\"qd\": 1, \"iops\": 12000,"
                                 " \"lat_mean_us\": 80, \"p99_us\": 114}, {\"qd\": 32, \"iops\": 97000, \"lat_mean_us\": 320,"
                                 " \"p99_us\": 1207}]}, {\"workload\": \"write\", \"points\": [{\"qd\": 1, \"iops\": 50000,"
                                 " \"lat_mean_us\": 12, \"p99_us\": 20}]}]",
                                 0, NULL));
  const char *t = "{{table jobs}}\n\n{{table tail}}\n\n{{table qd_scaling}}\n";
  char *md = NULL;
  REQUIRE(render_template_expand(&rs, "t.ko.md", t, NULL, "charts", 300, &md, &err) == 0);
  CHECK_CONTAINS(md, "그 밖의 작업");
  CHECK_CONTAINS(md, "| 테스트 | 워크로드 | IOPS | MB/s | 평균 [µs] |");
  CHECK_CONTAINS(md, "| j1 | 랜덤 혼합 읽기 70%, 8 KiB, QD3 T1 |");
  CHECK_CONTAINS(md, "| j2 | 순차 쓰기, 1 MiB, QD8 T1 |");
  CHECK_CONTAINS(md, "| j3 | 랜덤 읽기, 4 KiB, QD1 T1 |");
  CHECK_CONTAINS(md, "| 읽기 IOPS | 읽기 평균 [µs] | 읽기 p99 [µs] | 쓰기 IOPS | 쓰기 평균 [µs] |");
  CHECK_CONTAINS(md, "굵은 IOPS");
  CHECK_CONTAINS(md, "*³ 표본 부족");
  CHECK_CONTAINS(md, "(clat)");
  /* "Read" and "Write" stay out: the tail table's "RND Read" is the reference's own term (SAME rows) */
  static const char *const english[] = {"random", "sequential", "read", "write", "mix", "Test",
                                        "Workload", "Mean", "mean", "other", "workloads", "Latency", "Too",
                                        "samples", "Bold", "plateau", "n/a", "without"};
  for (size_t i = 0; i < sizeof english / sizeof english[0]; i++)
    if (has_word(md, english[i])) {
      fprintf(stderr, "    an English word in the Korean tables: %s\n%s\n", english[i], md);
      CHECK(0);
    }
  free(md);
  /* English: word for word what the tables wrote before the catalogue had them */
  REQUIRE(render_template_expand(&rs, "t.en.md", t, NULL, "charts", 300, &md, &err) == 0);
  CHECK_CONTAINS(md, "**PM981 256GB — other workloads**\n\n");
  CHECK_CONTAINS(md, "| Test | Workload | IOPS | MB/s | Mean [µs] | p50 [µs] | p99 [µs] | p99.9 [µs] | p99.99 [µs] |");
  CHECK_CONTAINS(md, "| j1 | random mix 70% read, 8 KiB, QD3 T1 | 1000 | 8.00 | 90.00 | 80.00 | (120.00)³ | (300.00)³ |");
  CHECK_CONTAINS(md, "| j2 | sequential write, 1 MiB, QD8 T1 |");
  CHECK_CONTAINS(md, "| j3 | random read, 4 KiB, QD1 T1 | 10000 | 40.00 | 95.00 | 90.00 | 100.00 | 110.00 | n/a |");
  CHECK_CONTAINS(md, "\n*Latency: fio's completion latency (clat), without the submission time.*\n\n");
  CHECK_CONTAINS(md, "\n*³ Too few samples: fewer than 10 I/Os lie at or beyond this percentile, so the value is a "
                     "guess.*\n\n");
  CHECK_CONTAINS(md, "| QD | Read IOPS | Read mean [µs] | Read p99 [µs] | Write IOPS | Write mean [µs] | Write p99 [µs] |");
  /* IOPS grouped as the QD findings beside the table say them (12,000) */
  CHECK_CONTAINS(md, "| 1 | 12,000 | 80.0 | 114.0 | 50,000 | 12.0 | 20.0 |");
  CHECK_CONTAINS(md, "| 32 | **97,000** | 320.0 | 1207.0 | n/a | n/a | n/a |");
  CHECK_CONTAINS(md, "\nBold IOPS: the first QD that no deeper QD beats by more than 10% (the plateau).\n\n");
  free(md);
  render_runs_release(&rs);
}

TEST("A value is chosen by state and cell, not by its place in the list") {
  struct render_runs rs = {0};
  struct ssdrev_err err = {{0}};
  REQUIRE(render_runs_load(&rs, fixture_dirs, 1, &err) == 0);
  json_t *cdm = json_object_get(rs.v[0].analysis, "cdm");
  double fob = -1, full = -1;
  size_t i;
  json_t *row;
  json_array_foreach(cdm, i, row) {
    const char *st = json_string_value(json_object_get(row, "state")), *cell = json_string_value(json_object_get(row, "cell"));
    double v = json_number_value(json_object_get(json_object_get(row, "read"), "mb_s"));
    if (cell && !strcmp(cell, "RND4K Q32T1")) *(st && !strcmp(st, "FOB") ? &fob : &full) = v;
  }
  REQUIRE(fob > 0 && full > 0);
  /* the 75% rows first, as an import may list them */
  json_t *rev = json_array();
  for (size_t k = json_array_size(cdm); k-- > 0;) json_array_append(rev, json_array_get(cdm, k));
  json_object_set_new(rs.v[0].analysis, "cdm", rev);
  char *md = NULL, want[64];
  REQUIRE(render_template_expand(&rs, "t.md", "{{value cdm.read.mb_s state=FOB cell=\"RND4K Q32T1\" fmt=%.3f}}", NULL,
                                 "charts", 300, &md, &err) == 0);
  snprintf(want, sizeof want, "%.3f", fob);
  CHECK_STR(md, want);
  free(md);
  REQUIRE(render_template_expand(&rs, "t.md", "{{value cdm.read.mb_s state=75% cell=\"RND4K Q32T1\" fmt=%.3f}}", NULL,
                                 "charts", 300, &md, &err) == 0);
  snprintf(want, sizeof want, "%.3f", full);
  CHECK_STR(md, want);
  free(md);
  /* state= without cell= is an argument error */
  CHECK(render_template_expand(&rs, "t.md", "{{value cdm.read.mb_s state=FOB}}", NULL, "charts", 300, &md, &err) ==
        -EINVAL);
  render_runs_release(&rs);
}

TEST("The CLI's warnings are put in the language, reasons inside them too; other texts and English stay as they are") {
  char out[1024];
  render_msg_cli(RENDER_LANG_KO, "t.md:9: not measured: run 'PM981' has no tail-latency results (analysis tail)", out,
                 sizeof out);
  CHECK_STR(out, "t.md:9: 측정되지 않음: 'PM981'에 꼬리 지연시간 결과가 없습니다 (분석 항목 tail)");
  render_msg_cli(RENDER_LANG_KO, "warning", out, sizeof out);
  CHECK_STR(out, "경고");
  render_msg_cli(RENDER_LANG_KO, "'a.txt': cell RND4K Q1T1 read is 0 MB/s (not run); skipped", out, sizeof out);
  CHECK_STR(out, "'a.txt': RND4K Q1T1 read 셀이 0 MB/s(실행되지 않음)여서 건너뜁니다");
  render_msg_cli(RENDER_LANG_KO, "skipping 'runs/x': no manifest.json", out, sizeof out);
  CHECK_STR(out, "'runs/x' 건너뜀: no manifest.json");
  /* a text the catalogue has no form for, and English, are the text itself */
  render_msg_cli(RENDER_LANG_KO, "something else entirely", out, sizeof out);
  CHECK_STR(out, "something else entirely");
  render_msg_cli(RENDER_LANG_EN, "t.md:9: not measured: run 'PM981' has no tail-latency results (analysis tail)", out,
                 sizeof out);
  CHECK_STR(out, "t.md:9: not measured: run 'PM981' has no tail-latency results (analysis tail)");
  /* the compare report's strings are catalogue rows */
  CHECK_STR(render_msg(RENDER_LANG_KO, MSG_CM_TITLE), "일괄 비교");
}

TEST("A not_steady flag without a window or of mean 0 IOPS reads as its own case in English and Korean") {
  json_t *f = json_pack("{s:s, s:s, s:s, s:{s:i, s:i, s:f, s:f}}", "id", "not_steady", "severity", "warn", "message",
                        "x", "numbers", "rounds", 2, "window_rounds", 5, "range_limit_pct", 20.0,
                        "excursion_limit_pct", 10.0);
  char out[512];
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK(strstr(out, "ran 2 rounds, fewer than its 5-round window") != NULL);
  render_flag_text(RENDER_LANG_KO, f, out, sizeof out);
  CHECK(strstr(out, "2라운드만") != NULL);
  json_t *nums = json_object_get(f, "numbers");
  json_object_del(nums, "window_rounds");
  json_object_set_new(nums, "mean_iops", json_real(0));
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK(strstr(out, "mean is 0 IOPS") != NULL);
  json_object_set_new(nums, "range_pct", json_real(30));
  json_object_set_new(nums, "excursion_pct", json_real(12));
  render_flag_text(RENDER_LANG_KO, f, out, sizeof out);
  CHECK(strstr(out, "범위가 평균의 30.0%") != NULL);
  json_decref(f);
}

TEST("A random-read plateau on a file or a virtual disk reads without dies in English and Korean") {
  json_t *f = json_pack("{s:s, s:s, s:s, s:{s:f, s:f, s:s, s:s, s:f, s:s}}", "id", "rnd_read_plateau", "severity",
                        "warn", "message", "x", "numbers", "mb_s", 167.0, "capacity_gb", 2.0, "cell", "RND4K Q32T1",
                        "state", "FOB", "limit_mb_s", 600.0, "target", "file");
  char out[512];
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK(strstr(out, "file target") != NULL && strstr(out, "dies") == NULL);
  render_flag_text(RENDER_LANG_KO, f, out, sizeof out);
  CHECK(strstr(out, "파일 대상") != NULL && strstr(out, "Die") == NULL);
  json_object_set_new(json_object_get(f, "numbers"), "target", json_string("virtual"));
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK(strstr(out, "virtual disk") != NULL && strstr(out, "dies") == NULL);
  render_flag_text(RENDER_LANG_KO, f, out, sizeof out);
  CHECK(strstr(out, "가상 디스크") != NULL);
  /* a drive, or an older analysis without "target": the dies */
  json_object_del(json_object_get(f, "numbers"), "target");
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK(strstr(out, "few dies") != NULL);
  json_decref(f);
}

TEST("Short runs' words: the SLC cell within the fill's region, the table note and the chart tag in both languages") {
  for (int l = 0; l < RENDER_NLANGS; l++) {
    struct render_buf b = {0};
    json_t *p = json_pack("{s:f, s:s}", "gib", 2.0, "label", "X");
    render_msg_put(&b, (enum render_lang)l, MSG_T_NO_CACHE_SHORT, p);
    /* the size as each language writes it (the Korean reference: "2.0GiB") */
    const char *size = l == RENDER_LANG_KO ? "2.0GiB" : "2.0 GiB";
    CHECK(b.s && strstr(b.s, size) != NULL && strstr(b.s, "†") != NULL);
    render_buf_free(&b);
    render_msg_put(&b, (enum render_lang)l, MSG_SHORT_TABLE_NOTE, p);
    CHECK(b.s && strstr(b.s, size) != NULL && strstr(b.s, "--short") != NULL);
    if (l == RENDER_LANG_KO) CHECK(has_hangul(b.s));
    render_buf_free(&b);
    json_decref(p);
  }
  CHECK(strstr(render_msg(RENDER_LANG_EN, MSG_T_NO_CACHE_SHORT), "no cache detected") == NULL);
}

TEST("A near-warning flag of an older analysis (no gap_c) still reads in Korean, the new one with its gap") {
  json_t *f = json_pack("{s:s, s:s, s:s, s:{s:f, s:f, s:f}}", "id", "thermal_near_warn", "severity", "info", "message",
                        "english", "numbers", "max_c", 74.9, "warn_c", 75.0, "margin_c", 2.0);
  char out[512];
  render_flag_text(RENDER_LANG_KO, f, out, sizeof out);
  CHECK(strstr(out, "74.9 °C") != NULL && strstr(out, "english") == NULL);
  json_object_set_new(json_object_get(f, "numbers"), "gap_c", json_real(0.1));
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK(strstr(out, "peaked at 74.9 °C, 0.1 °C short of its warning temperature 75.0 °C") != NULL);
  json_decref(f);
}

TEST("A peak over the warning temperature reads as over it in both languages, and the post-cache threshold as 0.25x") {
  json_t *f = json_pack("{s:s, s:s, s:s, s:{s:f, s:f, s:f}}", "id", "thermal_over_warn", "severity", "info", "message",
                        "english", "numbers", "max_c", 78.3, "warn_c", 75.0, "over_c", 3.3);
  char out[512];
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK_CONTAINS(out, "peaked at 78.3 °C, at or above its warning temperature 75.0 °C (by 3.3 °C)");
  render_flag_text(RENDER_LANG_KO, f, out, sizeof out);
  CHECK(strstr(out, "78.3 °C") != NULL && strstr(out, "3.3 °C 초과") != NULL && strstr(out, "english") == NULL);
  json_decref(f);
  f = json_pack("{s:s, s:s, s:s, s:{s:f, s:f, s:f, s:f}}", "id", "slow_post_cache", "severity", "warn", "message",
                "english", "numbers", "cache_mb_s", 3266.0, "post_cache_mb_s", 760.0, "ratio", 0.233, "min_ratio", 0.25);
  for (int l = 0; l < RENDER_NLANGS; l++) {
    render_flag_text((enum render_lang)l, f, out, sizeof out);
    CHECK_CONTAINS(out, "0.25");
  }
  json_decref(f);
}

TEST("A pre-steady finding names its section in words, not by its key ('Cdm 75% was measured')") {
  static const char *const cases[][3] = {
      {"cdm 75%", "the CrystalDiskMark profile at 75% filled was measured before", "75% 채움 상태의 CrystalDiskMark 방식 결과는"},
      {"cdm full", "the CrystalDiskMark profile in the full state was", "full 상태의 CrystalDiskMark 방식 결과는"},
      {"tail", "the QD1 tail latency was measured before", "QD1 꼬리 지연시간 결과는"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    json_t *f = json_pack("{s:s, s:s, s:s, s:{s:s, s:s, s:f, s:f, s:b}}", "id", "pre_steady", "severity", "info",
                          "message", "english", "numbers", "section", cases[i][0], "test", "x", "had_gib", 0.0,
                          "needed_gib", 2.86, "reached", 1);
    char out[512];
    render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
    CHECK_CONTAINS(out, cases[i][1]);
    CHECK(strstr(out, "cdm") == NULL);
    render_flag_text(RENDER_LANG_KO, f, out, sizeof out);
    CHECK_CONTAINS(out, cases[i][2]);
    json_decref(f);
  }
}

TEST("Flag findings by their numbers: no random writes said as none, a plateau at the first QD as no growth, °C") {
  char out[512];
  json_t *f = json_pack("{s:s, s:s, s:s, s:{s:s, s:s, s:f, s:f, s:b}}", "id", "pre_steady", "severity", "info",
                        "message", "english", "numbers", "section", "cdm 75%", "test", "x", "had_gib", 0.0,
                        "needed_gib", 18.1, "reached", 1);
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK_CONTAINS(out, "no random writes since the last fill, where the steady-state step needed 18.10 GiB");
  CHECK(!strstr(out, "0.00 GiB"));
  render_flag_text(RENDER_LANG_KO, f, out, sizeof out);
  CHECK_CONTAINS(out, "마지막 채우기 이후 랜덤 쓰기가 없었고");
  json_object_set_new(json_object_get(f, "numbers"), "had_gib", json_real(8.35));
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK_CONTAINS(out, "8.35 GiB of random writes since the last fill");
  json_decref(f);
  f = json_pack("{s:s, s:s, s:s, s:{s:s, s:i, s:f, s:i, s:f, s:f, s:i}}", "id", "qd_plateau", "severity", "info",
                "message", "english", "numbers", "workload", "write", "qd", 1, "iops", 30016.0, "max_qd", 128, "max_iops",
                31873.0, "gain_pct", 10.0, "first_qd", 1);
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK_CONTAINS(out, "QD scaling write: IOPS does not grow past QD1 (30,016 IOPS; up to QD128 at most 31,873, < +10%)");
  render_flag_text(RENDER_LANG_KO, f, out, sizeof out);
  CHECK_CONTAINS(out, "QD1보다 깊은 QD에서 IOPS가 늘지 않습니다");
  json_object_set_new(json_object_get(f, "numbers"), "qd", json_integer(16));
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK_CONTAINS(out, "IOPS stops growing at QD16");
  json_object_del(json_object_get(f, "numbers"), "first_qd"); /* an analysis.json from before first_qd */
  json_object_set_new(json_object_get(f, "numbers"), "qd", json_integer(1));
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK_CONTAINS(out, "IOPS stops growing at QD1");
  json_decref(f);
  f = json_pack("{s:s, s:s, s:s, s:{s:f, s:f, s:s, s:f}}", "id", "thermal_throttle", "severity", "warn", "message", "x",
                "numbers", "max_c", 80.0, "warn_c", 70.0, "test", "consistency.write", "drop_ratio", 0.58);
  render_flag_text(RENDER_LANG_EN, f, out, sizeof out);
  CHECK_CONTAINS(out, "while the drive reached 80 °C (warning 70 °C)");
  json_decref(f);
}

TEST("A Korean particle after a drive label follows the label's last sound: Hangul, digits and letters") {
  CHECK(render_msg_has_final("삼성") == 1);  /* 성: final ㅇ */
  CHECK(render_msg_has_final("하이닉스") == 0);
  CHECK(render_msg_has_final("SN770") == 1); /* 영 */
  CHECK(render_msg_has_final("PM9A1 2") == 0); /* 이 */
  CHECK(render_msg_has_final("PM981 256GB") == 0); /* 비 */
  CHECK(render_msg_has_final("Drive (M)") == 1); /* 엠, the parenthesis skipped */
  CHECK(render_msg_has_final("SSD_R") == 1);
  CHECK(render_msg_has_final("") == -1 && render_msg_has_final("ドライブ") == -1);
  const char *cases[][2] = {{"SN770", "SN770이 3500MB/s로"}, {"PM981 256GB", "PM981 256GB가 3500MB/s로"},
                            {"삼성", "삼성이 3500MB/s로"}, {"하이닉스", "하이닉스가 3500MB/s로"},
                            {"ドライブ", "ドライブ이(가) 3500MB/s로"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    json_t *p = json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:f, s:f}", "cell", "SEQ1M Q8T1", "op", "read", "state", "FOB",
                          "lead", cases[i][0], "next", "B", "lead_mb_s", 3500.0, "next_mb_s", 3000.0, "pct", 16.7);
    struct render_buf b = {0};
    render_msg_put(&b, RENDER_LANG_KO, MSG_FD_CDM_LEAD_BARE, p);
    CHECK(b.s && strstr(b.s, cases[i][1]) != NULL);
    CHECK(b.s && (i == 4 || strstr(b.s, "이(가)") == NULL));
    render_buf_free(&b);
    json_decref(p);
  }
}
