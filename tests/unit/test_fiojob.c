/* test_fiojob.c — the one writer of fio job files and of shell scripts
 * (bench/fio/jobfile.c, bench/fio/shell.c): what fio would read as another
 * option, section or file is refused naming it, what is written is read
 * back as written (issue 26 items 1-3). */
#include <errno.h>
#include <string.h>
#include "tests/unit/testlib.h"
#include "bench/fio/fio_int.h"
#include "bench/method/review_int.h"

/* The text of a job file written by one call of WRITE, or NULL (err set). */
static char *one_opt(const char *key, const char *value, struct ssdrev_err *err) {
  struct bench_fio_text j;
  if (bench_fio_text_open(&j, "a fio job file", err)) return NULL;
  bench_fio_job_section(&j, "job");
  bench_fio_job_opt(&j, key, "%s", value);
  char *text;
  size_t len;
  return bench_fio_text_close(&j, &text, &len) ? NULL : text;
}

TEST("A value fio would read as another line, a comment or an expansion is refused, naming the option and value") {
  static const char *const bad[] = {"1\nexec_prerun=touch /tmp/PWNED", "1\r[g]", "1;x", "4k#c", "${HOME}",
                                    "$mb_memory", " 1", "1 ", "1\t", "", "a\x7f"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    struct ssdrev_err err = {{0}};
    CHECK(one_opt("bs", bad[i], &err) == NULL);
    CHECK_CONTAINS(err.msg, "fio option bs=");
  }
  struct ssdrev_err err = {{0}};
  char *t = one_opt("bs", "1;x", &err);
  CHECK(t == NULL);
  CHECK_CONTAINS(err.msg, "'1;x' has a character fio's job files cannot hold (';' or '#'");
  t = one_opt("bs", "4k", &err);
  REQUIRE(t != NULL);
  CHECK_STR(t, "[job]\nbs=4k\n");
  free(t);
}

TEST("Options that run a program or read another file are never written, whatever their value") {
  static const char *const keys[] = {"exec_prerun", "exec_postrun", "ioscheduler", "include", "include_x",
                                     "program", "Exec_prerun", "bs\nexec_prerun", "a=b", "filename"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    struct ssdrev_err err = {{0}};
    CHECK(one_opt(keys[i], "true", &err) == NULL);
    CHECK(err.msg[0]);
  }
  struct bench_fio_text j;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_fio_text_open(&j, "a fio job file", &err) == 0);
  bench_fio_job_flag(&j, "exec_postrun");
  char *text;
  size_t len;
  CHECK(bench_fio_text_close(&j, &text, &len) == -EPERM);
  CHECK(text == NULL);
  CHECK_CONTAINS(err.msg, "option 'exec_postrun' runs a program");
}

TEST("A filename is written exactly as given, its ':' escaped as fio documents, or refused naming it") {
  struct bench_fio_text j;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_fio_text_open(&j, "a fio job file", &err) == 0);
  bench_fio_job_global(&j);
  bench_fio_job_filename(&j, "/tmp/d/v:w.img", "target");
  char *text;
  size_t len;
  REQUIRE(bench_fio_text_close(&j, &text, &len) == 0);
  CHECK_STR(text, "[global]\nfilename=/tmp/d/v\\:w.img\n");
  free(text);
  static const char *const bad[] = {"/tmp/d/victim.img;x", "/tmp/d/v#x", "/tmp/$HOME", "/tmp/a\\b", "/tmp/a\nb",
                                    "-", " /tmp/a", "/tmp/a "};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(bench_fio_check_filename(bad[i], "hosts.txt:3: target", &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, "hosts.txt:3: target '");
  }
  CHECK(bench_fio_check_filename("/tmp/d/victim.img;x", "hosts.txt:3: target", &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "hosts.txt:3: target '/tmp/d/victim.img;x' has a character fio's job files cannot hold");
}

TEST("A section name must be a token; any name becomes one with its other bytes as '_'") {
  char tok[BENCH_FIO_TOKEN_MAX + 1];
  bench_fio_token("]\n[g]\nexec_prerun=touch x", tok, sizeof tok);
  CHECK_STR(tok, "___g__exec_prerun_touch_x");
  bench_fio_token("cdm.SEQ1M_Q8T1.read.p1", tok, sizeof tok);
  CHECK_STR(tok, "cdm.SEQ1M_Q8T1.read.p1"); /* a token comes out as it went in */
  bench_fio_token("global.read", tok, sizeof tok); /* fio: any "global..." section is [global] */
  CHECK_STR(tok, "_global.read");
  bench_fio_token("", tok, sizeof tok);
  CHECK_STR(tok, "_");
  CHECK(bench_fio_token_ok("cdm.SEQ1M_Q8T1.read.p1"));
  CHECK(!bench_fio_token_ok("globalx"));
  CHECK(!bench_fio_token_ok("a]b"));
  CHECK(!bench_fio_token_ok("a b"));
  /* a stem "-S" would make its job file "-S.fio" an option of fio's */
  bench_fio_token("-S", tok, sizeof tok);
  CHECK_STR(tok, "_-S");
  CHECK(!bench_fio_token_ok("-S"));
  struct bench_fio_text j;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_fio_text_open(&j, "a fio job file", &err) == 0);
  bench_fio_job_section(&j, "]\n[g]");
  bench_fio_job_opt(&j, "bs", "4k"); /* sticky: nothing after the refusal */
  char *text;
  size_t len;
  CHECK(bench_fio_text_close(&j, &text, &len) == -EINVAL);
  CHECK_CONTAINS(err.msg, "section name '___g_' is not a token");
}

TEST("A comment stays one comment line whatever the name in it holds") {
  struct bench_fio_text j;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_fio_text_open(&j, "a fio job file", &err) == 0);
  bench_fio_job_comment(&j, "method '%s'", "x\n[global]\nexec_prerun=touch /tmp/PWNED\n#");
  char *text;
  size_t len;
  REQUIRE(bench_fio_text_close(&j, &text, &len) == 0);
  CHECK_STR(text, "# method 'x?[global]?exec_prerun=touch /tmp/PWNED?#'\n");
  free(text);
}

TEST("Both writers' comments are one line of at most BENCH_FIO_LINE_MAX bytes, every control byte as '?'") {
  /* one rule (bench_fio_one_line): the script's comments had no limit, so a
   * long method name made a line no reader takes as one */
  static char name[3 * BENCH_FIO_LINE_MAX];
  memset(name, 'n', sizeof name - 1);
  name[0] = 0x7f, name[1] = '\t';
  for (int sh = 0; sh < 2; sh++) {
    struct bench_fio_text t;
    struct ssdrev_err err = {{0}};
    REQUIRE(bench_fio_text_open(&t, "a file", &err) == 0);
    if (sh) bench_fio_sh_comment(&t, "%s", name);
    else bench_fio_job_comment(&t, "%s", name);
    char *text;
    size_t len;
    REQUIRE(bench_fio_text_close(&t, &text, &len) == 0);
    CHECK_EQ_U64(len, BENCH_FIO_LINE_MAX + 1); /* the line and its newline */
    CHECK(!strncmp(text, "# ??nnn", 7));
    CHECK(strchr(text, '\n') == text + len - 1);
    free(text);
  }
  char shown[5];
  bench_fio_one_line("a\r\x1b" "bcdef", shown, sizeof shown);
  CHECK_STR(shown, "a??b");
}

TEST("An ioengine is a fio engine name only: a path, external: and exec are refused") {
  struct ssdrev_err err = {{0}};
  CHECK(bench_fio_check_ioengine("libaio", "--ioengine", &err) == 0);
  CHECK(bench_fio_check_ioengine("io_uring", "--ioengine", &err) == 0);
  static const char *const bad[] = {"/tmp/evil.so", "external:/tmp/evil.so", "exec", "libaio\nexec_prerun=x",
                                    "psync;x", "", "LIBAIO"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(bench_fio_check_ioengine(bad[i], "--ioengine", &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, "--ioengine '");
  }
  CHECK(one_opt("ioengine", "external:/tmp/e.so", &err) == NULL);
}

TEST("The export's one expansion, ${SSDREV_TARGET}, is written only for a variable name") {
  struct bench_fio_text j;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_fio_text_open(&j, "a fio job file", &err) == 0);
  bench_fio_job_env(&j, "filename", "SSDREV_TARGET");
  char *text;
  size_t len;
  REQUIRE(bench_fio_text_close(&j, &text, &len) == 0);
  CHECK_STR(text, "filename=${SSDREV_TARGET}\n");
  free(text);
  REQUIRE(bench_fio_text_open(&j, "a fio job file", &err) == 0);
  bench_fio_job_env(&j, "filename", "X}\nexec_prerun=id");
  CHECK(bench_fio_text_close(&j, &text, &len) == -EINVAL);
}

TEST("A shell word is left as it is when plain and single-quoted otherwise, a quote as '\\''") {
  struct ssdrev_err err = {{0}};
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  REQUIRE(f != NULL);
  CHECK(bench_fio_sh_word(f, "04-cdm_75.json:75%", "w", &err) == 0);
  fputc(' ', f);
  CHECK(bench_fio_sh_word(f, "01-cdm.json:';touch Z;'", "w", &err) == 0);
  fputc(' ', f);
  CHECK(bench_fio_sh_word(f, "", "w", &err) == 0);
  fputc(' ', f);
  CHECK(bench_fio_sh_word(f, "$(touch Z) `x` \\", "w", &err) == 0);
  CHECK(bench_fio_sh_word(f, "a\nb", "the state", &err) == -EINVAL);
  fclose(f);
  CHECK_STR(buf, "04-cdm_75.json:75% '01-cdm.json:'\\'';touch Z;'\\''' '' '$(touch Z) `x` \\'");
  CHECK_CONTAINS(err.msg, "the state 'a?b' holds a control character");
  free(buf);
}

TEST("A script prints its lines with printf, quoted, and refuses a line holding a control character") {
  struct bench_fio_text s;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_fio_text_open(&s, "a shell script", &err) == 0);
  bench_fio_sh_comment(&s, "method '%s'", "x\ntouch Z");
  bench_fio_sh_print(&s, "it's \\c done");
  const char *argv[] = {"fio", "--output=a b.json", NULL};
  bench_fio_sh_cmd(&s, argv);
  char *text;
  size_t len;
  REQUIRE(bench_fio_text_close(&s, &text, &len) == 0);
  CHECK_STR(text, "# method 'x?touch Z'\nprintf '%s\\n' 'it'\\''s \\c done'\nfio '--output=a b.json'\n");
  free(text);
  REQUIRE(bench_fio_text_open(&s, "a shell script", &err) == 0);
  bench_fio_sh_print(&s, "a\nb");
  CHECK(bench_fio_text_close(&s, &text, &len) == -EINVAL);
  CHECK(text == NULL);
}

TEST("The fio engine's job for a test is one section named by its token, every value checked") {
  struct bench_job job = {0};
  job.pattern = BENCH_RAND;
  job.read_pct = 70;
  job.block_bytes = 4096;
  job.qd = 4;
  job.span_bytes = 1 << 20;
  job.measure_ns = 100000000;
  job.seed = 7;
  struct bench_fio_text j;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_fio_text_open(&j, "a fio job file", &err) == 0);
  bench_review_fio_job(&j, "cdm.RND4K_Q4T1.mix.p1", &job, 1 << 30, "cdm.RND4K_Q4T1.mix.p1");
  char *text;
  size_t len;
  REQUIRE(bench_fio_text_close(&j, &text, &len) == 0);
  CHECK(!strncmp(text, "[cdm.RND4K_Q4T1.mix.p1]\nrw=randrw\nrwmixread=70\nbs=4k\n", 52));
  CHECK_CONTAINS(text, "\nwrite_lat_log=cdm.RND4K_Q4T1.mix.p1\n");
  free(text);
  REQUIRE(bench_fio_text_open(&j, "a fio job file", &err) == 0);
  bench_review_fio_job(&j, "x]\n[g]\nexec_prerun=id", &job, 1 << 30, "x");
  CHECK(bench_fio_text_close(&j, &text, &len) == -EINVAL);
}

