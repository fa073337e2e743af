/* test_campaign.c — the campaign's hosts file (bench_campaign_hosts_load)
 * and the engine table (bench_review_runner_find). */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/unit/testlib.h"
#include "bench/bench.h"
#include "bench/method/review_int.h"
#include "bench/fio/fio_int.h"

static const char *write_hosts(const char *name, const char *text) {
  const char *p = test_path(name);
  FILE *f = fopen(p, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return p;
}

TEST("A hosts file gives each host its address, port (8765 when left out), target, line and run name") {
  const char *p = write_hosts("h1", "# load hosts\n\n127.0.0.2:9001 /var/tmp/a.img   # first\n"
                                     "  127.0.0.3\t/dev/loop7\n127.0.0.2:9002 /var/tmp/b c.img\n");
  struct bench_campaign_host *h = NULL;
  size_t n = 0;
  struct ssdrev_err err = {{0}};
  /* "b c.img" is two fields: a size, which a loopback host does not take */
  CHECK(bench_campaign_hosts_load(p, &h, &n, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "h1:5: a size is only for a host that is not a loopback address");
  p = write_hosts("h2", "# load hosts\n\n127.0.0.2:9001 /var/tmp/a.img   # first\n  127.0.0.3\t/dev/loop7\n"
                        "lab-07:9000 /dev/nvme-of-lab7 2T\nlab-08 /dev/x");
  REQUIRE(bench_campaign_hosts_load(p, &h, &n, &err) == 0);
  REQUIRE(n == 4);
  CHECK_STR(h[0].address, "127.0.0.2");
  CHECK_EQ_U64(h[0].port, 9001);
  CHECK_STR(h[0].target, "/var/tmp/a.img");
  CHECK_EQ_U64(h[0].line, 3);
  CHECK(h[0].loopback);
  CHECK_STR(h[0].fio_client, "ip:127.0.0.2,9001");
  CHECK_STR(h[0].run_name, "127.0.0.2_9001-a.img");
  CHECK_EQ_U64(h[1].port, 8765);
  CHECK_EQ_U64(h[1].line, 4);
  CHECK_STR(h[1].run_name, "127.0.0.3_8765-loop7");
  /* a name is never taken for loopback, whatever it resolves to */
  CHECK(!h[2].loopback);
  CHECK_EQ_U64(h[2].line, 5);
  CHECK_EQ_U64(h[2].size_bytes, 2ull << 40);
  /* such a host runs only when asked for, and with its size */
  CHECK(bench_campaign_hosts_check(h, 3, p, 0, &err) == -ENOTSUP);
  CHECK_CONTAINS(err.msg, "h2:5: host 'lab-07' is not a loopback address");
  CHECK(bench_campaign_hosts_check(h, 3, p, 1, &err) == 0);
  CHECK(bench_campaign_hosts_check(h, 4, p, 1, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "h2:6: host 'lab-08' is not a loopback address: give its target's size");
  free(h);
}

TEST("A bad hosts file is refused naming the file and line") {
  static const struct { const char *text, *want; } cases[] = {
      {"127.0.0.1:0 /a\n", "hx:1: port '0'"},
      {"127.0.0.1:70000 /a\n", "hx:1: port '70000'"},
      {"\n127.0.0.1:12x /a\n", "hx:2: port '12x'"},
      {"127.0.0.1 a.img\n", "hx:1: target 'a.img' must be an absolute path"},
      {"127.0.0.1\n", "hx:1: expected"},
      {"10.0.0.1 /dev/x 8G extra\n", "hx:1: expected"},
      {"10.0.0.1 /dev/x 8Q\n", "hx:1: size '8Q'"},
      {":8765 /a\n", "hx:1: no host address"},
      {"127.0.0.1 /a\n127.0.0.1:8765 /b\n", "hx:2: host 127.0.0.1:8765 is on line 1"},
      {"127.0.0.1:1 /a\n127.0.0.2:2 /a\n", "hx:2: target '/a' of this machine is on line 1"},
      /* one file under two names (only stat()ed): one target */
      {"127.0.0.1:1 /dev/null\n127.0.0.2:2 /dev/./null\n", "hx:2: target '/dev/./null' of this machine is on line 1"},
      {"# nothing\n\n", "no hosts"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *p = write_hosts("hx", cases[i].text);
    struct bench_campaign_host *h = NULL;
    size_t n = 0;
    struct ssdrev_err err = {{0}};
    CHECK(bench_campaign_hosts_load(p, &h, &n, &err) == -EINVAL);
    CHECK_CONTAINS(err.msg, cases[i].want);
    CHECK(h == NULL);
  }
}

/* Parses LEN bytes of TEXT as hosts file "hy"; the error or "" in MSG. */
static int parse_text(const char *text, size_t len, struct bench_campaign_host **h, size_t *n, char *msg, size_t ml) {
  struct ssdrev_err err = {{0}};
  int rc = bench_campaign_hosts_parse("hy", text, len, h, n, &err);
  snprintf(msg, ml, "%s", rc ? err.msg : "");
  return rc;
}

TEST("A hosts line is read whole whatever its length, so a field past 4,400 bytes is not lost") {
  /* the old reader cut each line at 4,400 bytes and ran the host without
   * its third field */
  static char text[6000];
  int k = snprintf(text, sizeof text, "127.0.0.1 /%0*d%*s", 3000, 0, 1500, "");
  snprintf(text + k, sizeof text - k, "8G\n");
  struct bench_campaign_host *h = NULL;
  size_t n = 0;
  char msg[600];
  CHECK(parse_text(text, strlen(text), &h, &n, msg, sizeof msg) == -EINVAL);
  CHECK_CONTAINS(msg, "hy:1: a size is only for a host that is not a loopback address");
  k = snprintf(text, sizeof text, "127.0.0.1 /a%*s b c\n", 4390, "");
  CHECK(parse_text(text, (size_t)k, &h, &n, msg, sizeof msg) == -EINVAL);
  CHECK_CONTAINS(msg, "hy:1: expected 'ADDRESS[:PORT] DEVICE-OR-FILE [SIZE]', got more than three fields");
  /* a target longer than a path can be is refused, not cut */
  static char big[6000];
  k = snprintf(big, sizeof big, "127.0.0.1 /%0*d\n", 5000, 0);
  CHECK(parse_text(big, (size_t)k, &h, &n, msg, sizeof msg) == -EINVAL);
  CHECK_CONTAINS(msg, "hy:1: target of 5001 bytes is longer than the limit of 4095");
  CHECK(h == NULL);
}

TEST("A NUL byte or a control character in a hosts file is refused naming the line") {
  static const char nul[] = "127.0.0.1:9001 /var/tmp/a.img\0\n127.0.0.2:9002 /var/tmp/b.img\n";
  struct bench_campaign_host *h = NULL;
  size_t n = 0;
  char msg[600];
  CHECK(parse_text(nul, sizeof nul - 1, &h, &n, msg, sizeof msg) == -EINVAL);
  CHECK_CONTAINS(msg, "hy:1: a NUL byte at byte 30 of the line");
  static const char nul2[] = "127.0.0.1:9001 /var/tmp/a.img\n127.0.0.2:9002 /var/tmp/b\0.img\n";
  CHECK(parse_text(nul2, sizeof nul2 - 1, &h, &n, msg, sizeof msg) == -EINVAL);
  CHECK_CONTAINS(msg, "hy:2: a NUL byte");
  static const char esc[] = "127.0.0.1:9001 /var/tmp/a\033[2K.img\n";
  CHECK(parse_text(esc, sizeof esc - 1, &h, &n, msg, sizeof msg) == -EINVAL);
  CHECK_CONTAINS(msg, "hy:1: a control character");
  static const char cr[] = "127.0.0.1:9001 /var/tmp/a\r.img\n";
  CHECK(parse_text(cr, sizeof cr - 1, &h, &n, msg, sizeof msg) == -EINVAL);
  CHECK_CONTAINS(msg, "hy:1: a control character");
  CHECK(h == NULL);
  /* a CRLF file and tabs between fields are text */
  static const char crlf[] = "127.0.0.1:9001\t/var/tmp/a.img\r\n127.0.0.2:9002 /var/tmp/b.img\r\n";
  REQUIRE(parse_text(crlf, sizeof crlf - 1, &h, &n, msg, sizeof msg) == 0);
  REQUIRE(n == 2);
  CHECK_STR(h[0].target, "/var/tmp/a.img");
  CHECK_STR(h[1].target, "/var/tmp/b.img");
  free(h);
}

TEST("A host address too long or IPv6 is refused with what is wrong with it") {
  static char text[800];
  int k = snprintf(text, sizeof text, "%0*d:8911 /a\n", 309, 0);
  struct bench_campaign_host *h = NULL;
  size_t n = 0;
  char msg[800];
  CHECK(parse_text(text, (size_t)k, &h, &n, msg, sizeof msg) == -EINVAL);
  CHECK_CONTAINS(msg, "hy:1: host address of 309 characters is longer than the limit of 255");
  k = snprintf(text, sizeof text, "a%0*d /a\n", 254, 0); /* 255: the longest taken */
  REQUIRE(parse_text(text, (size_t)k, &h, &n, msg, sizeof msg) == 0);
  CHECK_EQ_U64(strlen(h[0].address), 255);
  free(h);
  h = NULL;
  static const char *const v6[] = {"[::1]:8911 /a\n", "[::1] /a\n", "::1 /a\n", "fe80::1:8765 /a\n"};
  for (size_t i = 0; i < sizeof v6 / sizeof v6[0]; i++) {
    CHECK(parse_text(v6[i], strlen(v6[i]), &h, &n, msg, sizeof msg) == -EINVAL);
    CHECK_CONTAINS(msg, "hy:1: IPv6 addresses are not supported");
  }
  static const char comma[] = "127.0.0.1,9 /a\n";
  CHECK(parse_text(comma, sizeof comma - 1, &h, &n, msg, sizeof msg) == -EINVAL);
  CHECK_CONTAINS(msg, "hy:1: host address '127.0.0.1,9' has a character");
  static const char plus[] = "127.0.0.1:+80 /a\n";
  CHECK(parse_text(plus, sizeof plus - 1, &h, &n, msg, sizeof msg) == -EINVAL);
  CHECK_CONTAINS(msg, "hy:1: port '+80' is not a number");
  CHECK(h == NULL);
}

TEST("A run name is a token: no leading '.' or '-', other bytes '_', at most BENCH_FIO_TOKEN_MAX bytes") {
  static char text[800];
  /* a host name beginning with '-' once made a run directory "-lab_..."
   * (an option to every command given it); a target name of 180 bytes made
   * one of 251, past the fio token's limit */
  struct bench_campaign_host *h = NULL;
  size_t n = 0;
  char msg[800];
  int k = snprintf(text, sizeof text, "-lab:9000 /dev/x%%y 8G\n.hid /t 1G\nlab-1234567890.example.org /v/%0*d 1G\n", 180, 7);
  REQUIRE(parse_text(text, (size_t)k, &h, &n, msg, sizeof msg) == 0);
  REQUIRE(n == 3);
  CHECK_STR(h[0].run_name, "_-lab_9000-x_y");
  CHECK_STR(h[1].run_name, "_.hid_8765-t");
  CHECK_EQ_U64(strlen(h[2].run_name), BENCH_FIO_TOKEN_MAX);
  CHECK(!strncmp(h[2].run_name, "lab-1234567890.example.org_8765-000", 35));
  free(h);
}

TEST("Two spellings of one file not made yet are one target") {
  const char *d = test_path("same");
  mkdir(d, 0700);
  char link[600], text[4000];
  snprintf(link, sizeof link, "%s/ln", d);
  unlink(link);
  REQUIRE(symlink(d, link) == 0);
  char dangling[600];
  snprintf(dangling, sizeof dangling, "%s/dl", d);
  unlink(dangling);
  REQUIRE(symlink("a.img", dangling) == 0);
  /* a.img does not exist: each second spelling names it all the same */
  const char *second[] = {"%s/./a.img", "%s//a.img", "%s/ln/a.img", "%s/x/../a.img", "%s/dl", "%s/ln/./dl"};
  for (size_t i = 0; i < sizeof second / sizeof second[0]; i++) {
    char two[700];
    snprintf(two, sizeof two, second[i], d);
    snprintf(text, sizeof text, "127.0.0.1:1 %s/a.img\n127.0.0.2:2 %s\n", d, two);
    struct bench_campaign_host *h = NULL;
    size_t n = 0;
    char msg[5000];
    CHECK(parse_text(text, strlen(text), &h, &n, msg, sizeof msg) == -EINVAL);
    CHECK_CONTAINS(msg, "of this machine is on line 1");
    CHECK(h == NULL);
  }
  /* other files are other targets */
  snprintf(text, sizeof text, "127.0.0.1:1 %s/a.img\n127.0.0.2:2 %s/b.img\n127.0.0.3:3 %s/ln/sub/a.img\n", d, d, d);
  struct bench_campaign_host *h = NULL;
  size_t n = 0;
  char msg[5000];
  CHECK(parse_text(text, strlen(text), &h, &n, msg, sizeof msg) == 0);
  CHECK_EQ_U64(n, 3);
  free(h);
  unlink(link);
  unlink(dangling);
  rmdir(d);
}

TEST("--engine names a runner of the table or one of ssdrev's engines") {
  char eng[32];
  struct ssdrev_err err = {{0}};
  CHECK(bench_review_runner_find("fio", eng, sizeof eng, &err) == &bench_review_runner_fio);
  CHECK_STR(eng, "");
  CHECK(bench_review_runner_find("uring", eng, sizeof eng, &err) == &bench_review_runner_native);
  CHECK_STR(eng, "io_uring");
  CHECK(bench_review_runner_find("psync", eng, sizeof eng, &err) == &bench_review_runner_native);
  CHECK_STR(eng, "psync");
  CHECK(bench_review_runner_find(NULL, eng, sizeof eng, &err) == &bench_review_runner_native);
  CHECK(bench_review_runner_find("spdk", eng, sizeof eng, &err) == NULL);
  CHECK_CONTAINS(err.msg, "--engine 'spdk'");
  /* what each can do is a flag of the table, not a check of the name */
  CHECK(bench_review_runner_native.flags & REVIEW_RUNNER_SIM);
  CHECK(!(bench_review_runner_fio.flags & REVIEW_RUNNER_SIM));
  CHECK(bench_review_runner_fio.flags & REVIEW_RUNNER_CLIENT);
}

TEST("A hosts line whose target or address fio would read as something else is refused, naming the line") {
  struct bench_campaign_host *h = NULL;
  size_t n = 0;
  struct ssdrev_err err = {{0}};
  /* fio cuts a job file line at ';' and '#': filename=/tmp/d/victim.img;x
   * wrote victim.img, a file the guard never checked (issue 26 item 1) */
  const char *p = write_hosts("h-semi", "127.0.0.2:8931 /tmp/d/a.img\n127.0.0.3:8931 /tmp/d/victim.img;x\n");
  REQUIRE(bench_campaign_hosts_load(p, &h, &n, &err) == 0);
  CHECK(bench_campaign_hosts_check(h, n, p, 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "h-semi:2: target '/tmp/d/victim.img;x' has a character fio's job files cannot hold");
  free(h);
  p = write_hosts("h-dollar", "127.0.0.2 /tmp/${HOME}x\n");
  REQUIRE(bench_campaign_hosts_load(p, &h, &n, &err) == 0);
  CHECK(bench_campaign_hosts_check(h, n, p, 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "h-dollar:1: target");
  free(h);
  p = write_hosts("h-addr", "lab,1:9000 /dev/x 2T\n");
  CHECK(bench_campaign_hosts_load(p, &h, &n, &err) == -EINVAL); /* fio's --client=ip:ADDR,PORT would split it */
  CHECK_CONTAINS(err.msg, "h-addr:1");
  CHECK_CONTAINS(err.msg, "host address 'lab,1' has a character");
}
