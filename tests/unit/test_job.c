/* test_job.c — the job runner on regular files: size- and time-based jobs,
 * offsets, ramp flags, limits, threads, buffers, errors and the JSON form. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"
#include "testlib.h"

/* Opens (creating if needed) a scratch file target of `bytes`. */
static struct bench_target *open_file(const char *name, uint64_t bytes, int write) {
  struct bench_target_opts o = {.create_bytes = bytes, .write_intent = write};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  if (bench_target_open(&t, test_path(name), &o, &err)) fprintf(stderr, "    open: %s\n", err.msg);
  return t;
}

/* Reads a whole log into arrays; returns the record count or -1. */
static long read_log(const char *path, struct ssdlog_rec *recs, size_t max) {
  struct ssdlog_reader *r = NULL;
  struct ssdrev_err err = {{0}};
  if (ssdlog_open(&r, path, 0, &err)) {
    fprintf(stderr, "    log: %s\n", err.msg);
    return -1;
  }
  long n = 0;
  struct ssdlog_rec rec;
  int rc;
  while ((rc = ssdlog_next(r, &rec, &err)) == 1)
    if ((size_t)n < max) recs[n++] = rec;
  ssdlog_close(r);
  return rc < 0 ? -1 : n;
}

static struct ssdlog_rec recs[70000];

TEST("A size-based sequential write makes one pass: every block written once, in order") {
  struct bench_target *t = open_file("seq.img", 1 << 20, 1);
  REQUIRE(t);
  struct bench_job j;
  bench_job_defaults(&j);
  j.pattern = BENCH_SEQ, j.read_pct = 0, j.measure_ns = 0, j.qd = 8;
  struct bench_job_result res;
  struct ssdrev_err err = {{0}};
  int rc = bench_job_run(t, &j, test_path("seq.log"), NULL, NULL, &res, &err);
  CHECK(rc == 0);
  CHECK_EQ_U64(res.ios, 256);
  CHECK_EQ_U64(res.bytes, 1 << 20);
  CHECK_EQ_U64(res.errors, 0);
  CHECK(res.iops > 0 && res.mean_lat_ns > 0);
  long n = read_log(test_path("seq.log"), recs, 70000);
  CHECK(n == 256);
  int ok = 1;
  for (long i = 0; i < n; i++) {
    ok &= recs[i].op == SSDLOG_OP_WRITE && recs[i].len_bytes == 4096 && recs[i].status == 0 && !recs[i].flags;
    /* completions may come back out of order, but each offset appears once */
  }
  CHECK(ok);
  static unsigned char seen[256];
  memset(seen, 0, sizeof seen);
  for (long i = 0; i < n; i++) seen[recs[i].offset_bytes / 4096]++;
  int once = 1;
  for (int i = 0; i < 256; i++) once &= seen[i] == 1;
  CHECK(once);
  bench_target_close(t);
}

TEST("Random offsets are aligned to the block size and stay inside offset + span") {
  struct bench_target *t = open_file("rand.img", 4 << 20, 0);
  REQUIRE(t);
  struct bench_job j;
  bench_job_defaults(&j);
  j.block_bytes = 8192, j.offset_bytes = 1 << 20, j.span_bytes = 1 << 20, j.measure_ns = 0, j.size_bytes = 4 << 20;
  struct bench_job_result res;
  struct ssdrev_err err = {{0}};
  CHECK(bench_job_run(t, &j, test_path("rand.log"), NULL, NULL, &res, &err) == 0);
  CHECK_EQ_U64(res.ios, 512);
  long n = read_log(test_path("rand.log"), recs, 70000);
  REQUIRE(n == 512);
  int ok = 1;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (long i = 0; i < n; i++) {
    uint64_t o = recs[i].offset_bytes;
    ok &= o % 8192 == 0 && o >= (1u << 20) && o + 8192 <= (2u << 20) && recs[i].op == SSDLOG_OP_READ;
    if (o < lo) lo = o;
    if (o > hi) hi = o;
  }
  CHECK(ok);
  CHECK(hi > lo); /* not one offset repeated */
  bench_target_close(t);
}

TEST("The same seed gives the same offsets; another seed gives others") {
  struct bench_target *t = open_file("seed.img", 4 << 20, 0);
  REQUIRE(t);
  struct bench_job j;
  bench_job_defaults(&j);
  j.measure_ns = 0, j.size_bytes = 64 * 4096, j.qd = 1, j.seed = 42;
  struct ssdrev_err err = {{0}};
  static struct ssdlog_rec a[64], b[64], c[64];
  REQUIRE(bench_job_run(t, &j, test_path("s1.log"), NULL, NULL, NULL, &err) == 0);
  REQUIRE(bench_job_run(t, &j, test_path("s2.log"), NULL, NULL, NULL, &err) == 0);
  j.seed = 43;
  REQUIRE(bench_job_run(t, &j, test_path("s3.log"), NULL, NULL, NULL, &err) == 0);
  REQUIRE(read_log(test_path("s1.log"), a, 64) == 64 && read_log(test_path("s2.log"), b, 64) == 64 &&
          read_log(test_path("s3.log"), c, 64) == 64);
  int same = 1, differ = 0;
  for (int i = 0; i < 64; i++) same &= a[i].offset_bytes == b[i].offset_bytes, differ |= a[i].offset_bytes != c[i].offset_bytes;
  CHECK(same);
  CHECK(differ);
  bench_target_close(t);
}

TEST("A time-based job flags its ramp I/Os and measures only the others") {
  struct bench_target *t = open_file("ramp.img", 1 << 20, 0);
  REQUIRE(t);
  struct bench_job j;
  bench_job_defaults(&j);
  j.ramp_ns = 50000000, j.measure_ns = 100000000, j.qd = 4;
  struct bench_job_result res;
  struct ssdrev_err err = {{0}};
  CHECK(bench_job_run(t, &j, test_path("ramp.log"), NULL, NULL, &res, &err) == 0);
  struct ssdlog_reader *r = NULL;
  REQUIRE(ssdlog_open(&r, test_path("ramp.log"), 0, &err) == 0);
  long ramp = 0, measured = 0, order = 1;
  struct ssdlog_rec rec;
  while (ssdlog_next(r, &rec, &err) == 1) {
    if (rec.flags & SSDLOG_REC_RAMP) {
      ramp++;
      order &= rec.submit_ns < 50000000;
    } else {
      measured++;
      order &= rec.submit_ns >= 50000000;
    }
  }
  ssdlog_close(r);
  CHECK(ramp > 0);
  CHECK(measured > 0);
  CHECK(order);
  CHECK_EQ_U64(res.ios, (uint64_t)measured);
  /* time-based: it wraps around the 1 MiB region (256 blocks) instead of
   * stopping after one pass (a count, not a duration: the machine may be busy) */
  CHECK(ramp + measured > 256);
  bench_target_close(t);
}

TEST("max_ios stops a job after exactly that many measured I/Os") {
  struct bench_target *t = open_file("max.img", 1 << 20, 0);
  REQUIRE(t);
  struct bench_job j;
  bench_job_defaults(&j);
  j.max_ios = 1000, j.measure_ns = 60000000000ull;
  struct bench_job_result res;
  struct ssdrev_err err = {{0}};
  CHECK(bench_job_run(t, &j, NULL, NULL, NULL, &res, &err) == 0);
  CHECK_EQ_U64(res.ios, 1000);
  bench_target_close(t);
}

TEST("Every wait mode completes the same I/Os with sane latencies (io_uring polls or sleeps)") {
  struct bench_target *t = open_file("wait.img", 1 << 20, 0);
  REQUIRE(t);
  const enum bench_wait modes[] = {BENCH_WAIT_AUTO, BENCH_WAIT_SLEEP, BENCH_WAIT_POLL};
  for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
    struct bench_job j;
    bench_job_defaults(&j);
    j.wait = modes[m];
    j.qd = 8, j.max_ios = 2000, j.measure_ns = 60000000000ull;
    struct bench_job_result res;
    struct ssdrev_err err = {{0}};
    CHECK(bench_job_run(t, &j, test_path("wait.ssdlog"), NULL, NULL, &res, &err) == 0);
    CHECK_EQ_U64(res.ios, 2000);
    CHECK(res.errors == 0);
    CHECK(res.mean_lat_ns > 0 && res.mean_lat_ns < 1e9);
    long n = read_log(test_path("wait.ssdlog"), recs, sizeof recs / sizeof recs[0]);
    CHECK(n == 2000);
    for (long i = 0; i < n; i++)
      if (recs[i].status != 0 || recs[i].lat_ns == 0 || recs[i].lat_ns > 1000000000ull) {
        CHECK(!"a record has an error or an impossible latency");
        break;
      }
  }
  CHECK(bench_wait_from_name("poll") == BENCH_WAIT_POLL);
  CHECK(bench_wait_from_name("iopoll") == BENCH_WAIT_IOPOLL);
  CHECK(bench_wait_from_name("busy") == -1);
  CHECK_STR(bench_wait_name(BENCH_WAIT_SLEEP), "sleep");
  bench_target_close(t);
}

TEST("Both submit modes complete the same I/Os and the result says which one ran") {
  struct bench_target *t = open_file("submit.img", 1 << 20, 1);
  REQUIRE(t);
  const enum bench_submit modes[] = {BENCH_SUBMIT_EACH, BENCH_SUBMIT_BATCH};
  for (size_t m = 0; m < 2; m++) {
    struct bench_job j;
    bench_job_defaults(&j);
    j.submit = modes[m];
    j.read_pct = 50, j.qd = 16, j.max_ios = 3000, j.measure_ns = 60000000000ull;
    struct bench_job_result res;
    struct ssdrev_err err = {{0}};
    CHECK(bench_job_run(t, &j, test_path("submit.ssdlog"), NULL, NULL, &res, &err) == 0);
    CHECK_EQ_U64(res.ios, 3000);
    CHECK(res.errors == 0);
    /* psync takes one I/O at a time, so it records no submit mode */
    CHECK_STR(res.submit, strcmp(res.engine, "io_uring") ? "" : bench_submit_name(modes[m]));
    long n = read_log(test_path("submit.ssdlog"), recs, sizeof recs / sizeof recs[0]);
    CHECK(n == 3000);
    for (long i = 0; i < n; i++)
      if (recs[i].status != 0 || recs[i].lat_ns > 1000000000ull) {
        CHECK(!"a record has an error or an impossible latency");
        break;
      }
  }
  CHECK(bench_submit_from_name("batch") == BENCH_SUBMIT_BATCH);
  CHECK(bench_submit_from_name("lazy") == -1);
  CHECK_STR(bench_submit_name(BENCH_SUBMIT_EACH), "each");
  bench_target_close(t);
}

TEST("Polling the device (iopoll) is refused without O_DIRECT and by an engine that cannot do it") {
  struct bench_target_opts o = {.create_bytes = 1 << 20, .buffered = 1};
  struct bench_target *t = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_target_open(&t, test_path("iopoll.img"), &o, &err) == 0);
  struct bench_job j;
  bench_job_defaults(&j);
  j.wait = BENCH_WAIT_IOPOLL, j.max_ios = 10, j.measure_ns = 0;
  snprintf(j.engine, sizeof j.engine, "io_uring");
  CHECK(bench_job_run(t, &j, NULL, NULL, NULL, NULL, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "O_DIRECT");
  snprintf(j.engine, sizeof j.engine, "psync");
  CHECK(bench_job_run(t, &j, NULL, NULL, NULL, NULL, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "iopoll");
  CHECK_CONTAINS(err.msg, "psync");
  bench_target_close(t);
}

TEST("Sequential threads split the span and log their thread as queue id") {
  struct bench_target *t = open_file("thr.img", 1 << 20, 1);
  REQUIRE(t);
  struct bench_job j;
  bench_job_defaults(&j);
  j.pattern = BENCH_SEQ, j.read_pct = 0, j.measure_ns = 0, j.threads = 4, j.qd = 2;
  struct bench_job_result res;
  struct ssdrev_err err = {{0}};
  CHECK(bench_job_run(t, &j, test_path("thr.log"), NULL, NULL, &res, &err) == 0);
  CHECK_EQ_U64(res.ios, 256);
  long n = read_log(test_path("thr.log"), recs, 70000);
  REQUIRE(n == 256);
  int ok = 1;
  unsigned per_q[4] = {0};
  for (long i = 0; i < n; i++) {
    unsigned q = recs[i].queue_id;
    ok &= q < 4 && recs[i].offset_bytes / (256 * 1024) == q;
    if (q < 4) per_q[q]++;
  }
  CHECK(ok);
  CHECK(per_q[0] == 64 && per_q[1] == 64 && per_q[2] == 64 && per_q[3] == 64);
  bench_target_close(t);
}

TEST("Written data is random and differs from block to block; zero_buffers writes zeros") {
  struct bench_target *t = open_file("data.img", 64 * 1024, 1);
  REQUIRE(t);
  struct bench_job j;
  bench_job_defaults(&j);
  j.pattern = BENCH_SEQ, j.read_pct = 0, j.measure_ns = 0, j.qd = 2;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_job_run(t, &j, NULL, NULL, NULL, NULL, &err) == 0);
  static unsigned char buf[64 * 1024];
  int fd = open(test_path("data.img"), O_RDONLY);
  REQUIRE(fd >= 0);
  CHECK(pread(fd, buf, sizeof buf, 0) == (ssize_t)sizeof buf);
  int zeros = 0;
  for (size_t i = 0; i < 4096; i++) zeros += buf[i] == 0;
  CHECK(zeros < 100);
  int all_differ = 1;
  for (int b = 1; b < 16; b++) all_differ &= memcmp(buf, buf + b * 4096, 4096) != 0;
  CHECK(all_differ);
  j.zero_buffers = 1;
  REQUIRE(bench_job_run(t, &j, NULL, NULL, NULL, NULL, &err) == 0);
  CHECK(pread(fd, buf, sizeof buf, 0) == (ssize_t)sizeof buf);
  int nonzero = 0;
  for (size_t i = 0; i < sizeof buf; i++) nonzero += buf[i] != 0;
  CHECK(nonzero == 0);
  close(fd);
  bench_target_close(t);
}

TEST("A mixed job issues reads and writes in about the asked share") {
  struct bench_target *t = open_file("mix.img", 1 << 20, 1);
  REQUIRE(t);
  struct bench_job j;
  bench_job_defaults(&j);
  j.read_pct = 70, j.measure_ns = 0, j.size_bytes = 4000 * 4096;
  struct ssdrev_err err = {{0}};
  REQUIRE(bench_job_run(t, &j, test_path("mix.log"), NULL, NULL, NULL, &err) == 0);
  long n = read_log(test_path("mix.log"), recs, 70000);
  REQUIRE(n == 4000);
  long reads = 0;
  for (long i = 0; i < n; i++) reads += recs[i].op == SSDLOG_OP_READ;
  CHECK(reads > 2600 && reads < 3000); /* 2800 expected; binomial sd ~29 */
  bench_target_close(t);
}

TEST("Every I/O error is logged with its status and max_errors stops the job") {
  struct bench_target *t = open_file("err.img", 1 << 20, 0);
  REQUIRE(t);
  /* Shrink the file under the open target: every read now hits EOF. */
  REQUIRE(truncate(test_path("err.img"), 0) == 0);
  struct bench_job j;
  bench_job_defaults(&j);
  j.max_errors = 10, j.measure_ns = 60000000000ull, j.qd = 4;
  struct bench_job_result res;
  struct ssdrev_err err = {{0}};
  int rc = bench_job_run(t, &j, test_path("err.log"), NULL, NULL, &res, &err);
  CHECK(rc == -EIO);
  CHECK_CONTAINS(err.msg, "I/O errors");
  CHECK(res.errors >= 10);
  CHECK_EQ_U64(res.ios, 0);
  long n = read_log(test_path("err.log"), recs, 70000);
  CHECK(n >= 10);
  int all_err = 1;
  for (long i = 0; i < n && i < 70000; i++) all_err &= recs[i].status < 0;
  CHECK(all_err);
  bench_target_close(t);
}

/* A watch that asks to stop once it has seen `after` completions. */
struct stop_after {
  uint64_t seen, after, calls, last_batch;
};
static int watch_stop_after(void *arg, const struct ssdlog_rec *r, size_t n) {
  struct stop_after *w = arg;
  (void)r;
  w->seen += n, w->calls++, w->last_batch = n;
  return w->seen >= w->after;
}

TEST("A watch sees every completion as the log gets it, and asking to stop ends the job once in-flight I/O is done") {
  struct bench_target *t = open_file("watch.img", 64 << 20, 1);
  REQUIRE(t);
  for (unsigned threads = 1; threads <= 2; threads++) {
    struct bench_job j;
    bench_job_defaults(&j);
    j.pattern = BENCH_SEQ, j.read_pct = 0, j.block_bytes = 128 << 10, j.qd = 8, j.threads = threads;
    j.measure_ns = 0, j.size_bytes = 64 << 20; /* 512 I/Os if nothing stops it */
    struct stop_after w = {.after = 100};
    j.watch = watch_stop_after, j.watch_arg = &w;
    struct bench_job_result res;
    struct ssdrev_err err = {{0}};
    const char *log = test_path("watch.ssdlog");
    CHECK(bench_job_run(t, &j, log, NULL, NULL, &res, &err) == 0);
    CHECK(!res.interrupted);
    /* it stopped early: no more than the queue's worth past the 100th */
    CHECK(res.ios >= 100 && res.ios < 100 + 2 * 8 * threads);
    /* every logged completion went through the watch */
    CHECK_EQ_U64((uint64_t)read_log(log, recs, 70000), w.seen);
    CHECK_EQ_U64(w.seen, res.ios);
  }
  bench_target_close(t);
}

TEST("A stop request drains, finalizes the log and reports the job interrupted") {
  struct bench_target *t = open_file("stop.img", 1 << 20, 0);
  REQUIRE(t);
  struct bench_job j;
  bench_job_defaults(&j);
  j.measure_ns = 60000000000ull;
  struct bench_job_result res;
  struct ssdrev_err err = {{0}};
  bench_stop_requested = 1;
  int rc = bench_job_run(t, &j, test_path("stop.log"), NULL, NULL, &res, &err);
  bench_stop_requested = 0;
  CHECK(rc == 0);
  CHECK(res.interrupted);
  CHECK(read_log(test_path("stop.log"), recs, 10) == 0); /* a valid, empty log */
  bench_target_close(t);
}

TEST("psync at queue depth 4 runs four depth-1 threads per job thread that share one sequential pass") {
  struct bench_target *t = open_file("psq.img", 1 << 20, 1);
  REQUIRE(t);
  struct bench_job j;
  bench_job_defaults(&j);
  j.pattern = BENCH_SEQ, j.read_pct = 0, j.measure_ns = 0, j.threads = 2, j.qd = 4;
  snprintf(j.engine, sizeof j.engine, "psync");
  struct bench_job_result res;
  struct ssdrev_err err = {{0}};
  CHECK(bench_job_run(t, &j, test_path("psq.log"), NULL, NULL, &res, &err) == 0);
  CHECK_EQ_U64(res.ios, 256);
  long n = read_log(test_path("psq.log"), recs, 70000);
  REQUIRE(n == 256);
  /* every block exactly once; queue id = job thread, each in its own half */
  static unsigned char seen[256];
  memset(seen, 0, sizeof seen);
  int ok = 1;
  for (long i = 0; i < n; i++) {
    seen[recs[i].offset_bytes / 4096]++;
    ok &= recs[i].queue_id < 2 && recs[i].offset_bytes / (512 * 1024) == recs[i].queue_id;
  }
  for (int i = 0; i < 256; i++) ok &= seen[i] == 1;
  CHECK(ok);
  /* too many OS threads is refused before any I/O, naming the engine */
  j.qd = 1024, j.threads = 2;
  CHECK(bench_job_run(t, &j, NULL, NULL, NULL, NULL, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "one thread per queue slot");
  bench_target_close(t);
}

TEST("Bad parameters fail before any I/O, naming the field") {
  struct bench_target *t = open_file("bad.img", 1 << 20, 0);
  REQUIRE(t);
  struct bench_job j;
  struct ssdrev_err err = {{0}};
  bench_job_defaults(&j);
  j.block_bytes = 1000;
  CHECK(bench_job_run(t, &j, NULL, NULL, NULL, NULL, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "block size");
  bench_job_defaults(&j);
  j.offset_bytes = 2 << 20;
  CHECK(bench_job_run(t, &j, NULL, NULL, NULL, NULL, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "offset");
  bench_job_defaults(&j);
  j.read_pct = 0;
  CHECK(bench_job_run(t, &j, NULL, NULL, NULL, NULL, &err) == -EPERM);
  CHECK_CONTAINS(err.msg, "read-only");
  bench_job_defaults(&j);
  snprintf(j.engine, sizeof j.engine, "nosuch");
  CHECK(bench_job_run(t, &j, NULL, NULL, NULL, NULL, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "nosuch");
  bench_target_close(t);
}

TEST("A job survives the trip through JSON unchanged") {
  struct bench_job a, b;
  bench_job_defaults(&a);
  snprintf(a.name, sizeof a.name, "cdm.SEQ1M");
  a.pattern = BENCH_SEQ, a.read_pct = 70, a.block_bytes = 1 << 20, a.qd = 8, a.threads = 16;
  a.offset_bytes = 4096, a.span_bytes = 1ull << 33, a.ramp_ns = 1, a.measure_ns = 2, a.size_bytes = 3;
  a.max_ios = 4, a.seed = 5, a.zero_buffers = 1, a.max_errors = 6, a.idle_ns = 7;
  a.wait = BENCH_WAIT_POLL;
  a.submit = BENCH_SUBMIT_BATCH;
  snprintf(a.engine, sizeof a.engine, "psync");
  json_t *o = bench_job_to_json(&a);
  REQUIRE(o);
  CHECK_STR(json_string_value(json_object_get(o, "pattern")), "seq");
  CHECK_STR(json_string_value(json_object_get(o, "wait")), "poll");
  CHECK_STR(json_string_value(json_object_get(o, "submit")), "batch");
  struct ssdrev_err err = {{0}};
  CHECK(bench_job_from_json(&b, o, &err) == 0);
  CHECK(memcmp(&a, &b, sizeof a) == 0);
  json_object_set_new(o, "pattern", json_string("zigzag"));
  CHECK(bench_job_from_json(&b, o, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "pattern");
  json_object_set_new(o, "pattern", json_string("rand"));
  json_object_set_new(o, "wait", json_string("spin"));
  CHECK(bench_job_from_json(&b, o, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "'wait'");
  json_object_set_new(o, "wait", json_string("sleep"));
  CHECK(bench_job_from_json(&b, o, &err) == 0);
  CHECK(b.wait == BENCH_WAIT_SLEEP);
  json_object_del(o, "wait"); /* logs written before the key existed */
  CHECK(bench_job_from_json(&b, o, &err) == 0);
  CHECK(b.wait == BENCH_WAIT_AUTO);
  json_object_set_new(o, "submit", json_string("lazy"));
  CHECK(bench_job_from_json(&b, o, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "'submit'");
  json_object_del(o, "submit");
  CHECK(bench_job_from_json(&b, o, &err) == 0);
  CHECK(b.submit == BENCH_SUBMIT_EACH);
  json_object_set_new(o, "qd", json_string("32"));
  CHECK(bench_job_from_json(&b, o, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "'qd'");
  json_decref(o);
}
