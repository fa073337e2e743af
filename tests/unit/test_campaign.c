/* test_campaign.c — the campaign's hosts file (bench_campaign_hosts_load)
 * and the engine table (bench_review_runner_find). */
#include <errno.h>
#include "tests/unit/testlib.h"
#include "bench/bench.h"
#include "bench/method/review_int.h"

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
  REQUIRE(bench_campaign_hosts_load(p, &h, &n, &err) == 0);
  CHECK(bench_campaign_hosts_check(h, n, p, 1, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "h-addr:1: host 'lab,1' is not a host name");
  free(h);
}
