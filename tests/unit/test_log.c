/* test_log.c — the binary I/O log: codec, writer, streaming reader. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"
#include "log/codec.h"
#include "tests/unit/testlib.h"

static uint64_t rng_state = 12345;
static uint64_t rnd(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A record drawn from a mix of typical values and every field's extremes. */
static struct ssdlog_rec rand_rec(uint64_t i) {
  static const uint64_t ext64[] = {0, 1, UINT64_MAX, UINT64_MAX - 1, 1ull << 63, 4096};
  static const int32_t ext_status[] = {0, -5, INT32_MIN, INT32_MAX, -28, 1};
  struct ssdlog_rec r;
  int wild = rnd() % 8 == 0;
  r.submit_ns = wild ? ext64[rnd() % 6] : i * 1000 + rnd() % 100;
  r.lat_ns = wild ? ext64[rnd() % 6] : 50000 + rnd() % 100000;
  r.offset_bytes = wild ? ext64[rnd() % 6] : (rnd() % 262144) * 4096;
  r.len_bytes = wild ? (rnd() & 1 ? UINT32_MAX : 0) : 4096;
  r.status = wild ? ext_status[rnd() % 6] : 0;
  r.queue_id = wild ? (rnd() & 1 ? UINT16_MAX : 0) : (uint16_t)(rnd() % 4);
  r.op = (uint8_t)(wild ? rnd() % 256 : rnd() % 4);
  r.flags = (uint8_t)(wild ? rnd() % 256 : 0);
  return r;
}

static int rec_eq(const struct ssdlog_rec *a, const struct ssdlog_rec *b) {
  return a->submit_ns == b->submit_ns && a->lat_ns == b->lat_ns &&
         a->offset_bytes == b->offset_bytes && a->len_bytes == b->len_bytes &&
         a->status == b->status && a->queue_id == b->queue_id && a->op == b->op &&
         a->flags == b->flags;
}

static int write_log(const char *path, const struct ssdlog_rec *recs, size_t n, size_t batch) {
  struct ssdlog_writer *w;
  struct ssdrev_err err = {{0}};
  if (ssdlog_writer_open(&w, path, SSDLOG_CLOCK_VIRTUAL, 42, "{\"qd\": 32}", 1, &err)) return -1;
  for (size_t i = 0; i < n; i += batch)
    if (ssdlog_append(w, recs + i, n - i < batch ? n - i : batch, &err)) return -1;
  return ssdlog_writer_close(w, &err);
}

/* Reads every record back; returns how many matched recs in order, or -1. */
static long read_back(const char *path, const struct ssdlog_rec *recs, size_t n) {
  struct ssdlog_reader *r;
  struct ssdrev_err err = {{0}};
  if (ssdlog_open(&r, path, 0, &err)) return -1;
  struct ssdlog_rec x;
  long ok = 0;
  size_t i = 0;
  int rc;
  while ((rc = ssdlog_next(r, &x, &err)) == 1) {
    if (i < n && rec_eq(&x, &recs[i])) ok++;
    i++;
  }
  ssdlog_close(r);
  return rc < 0 || i != n ? -1 : ok;
}

static long file_size(const char *path) {
  struct stat sb;
  return stat(path, &sb) ? -1 : (long)sb.st_size;
}

/* Chunk offsets of a log, in order; returns the count. */
static size_t chunk_offsets(const char *path, uint64_t *offs, uint32_t *ns, size_t max) {
  struct ssdlog_reader *r;
  struct ssdrev_err err = {{0}};
  if (ssdlog_open(&r, path, 0, &err)) return 0;
  struct ssdlog_chunk c;
  size_t k = 0;
  while (ssdlog_next_chunk(r, 0, &c, &err) > 0 && k < max) {
    offs[k] = c.file_offset;
    ns[k++] = (uint32_t)c.n;
  }
  ssdlog_close(r);
  return k;
}

static int copy_prefix(const char *src, const char *dst, long len) {
  FILE *f = fopen(src, "rb"), *g = fopen(dst, "wb");
  int rc = (f && g) ? 0 : -1;
  for (long i = 0; !rc && i < len; i++) {
    int c = fgetc(f);
    if (c == EOF || fputc(c, g) == EOF) rc = -1;
  }
  if (f) fclose(f);
  if (g && fclose(g)) rc = -1;
  return rc;
}

static void flip_bit(const char *path, uint64_t off, int bit) {
  int fd = open(path, O_RDWR);
  uint8_t b = 0;
  if (fd < 0) return;
  if (pread(fd, &b, 1, (off_t)off) == 1) {
    b ^= (uint8_t)(1u << bit);
    if (pwrite(fd, &b, 1, (off_t)off) != 1) b = 0;
  }
  close(fd);
}

TEST("CRC32C matches the standard check value and is the same in one piece or many") {
  CHECK_EQ_U64(ssdrev_crc32c(0, "123456789", 9), 0xE3069283u);
  static uint8_t buf[100003];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)rnd();
  uint32_t whole = ssdrev_crc32c(0, buf, sizeof buf), part = 0;
  for (size_t i = 0; i < sizeof buf; i += 7)
    part = ssdrev_crc32c(part, buf + i, sizeof buf - i < 7 ? sizeof buf - i : 7);
  CHECK_EQ_U64(whole, part);
}

TEST("Bit packing round-trips every width from 0 to 64 at many lengths") {
  static uint64_t v[203], out[208];
  static uint8_t buf[203 * 8 + 16];
  int bad = 0;
  for (unsigned w = 0; w <= 64; w++)
    for (size_t n = 1; n <= 203; n += (n < 20 ? 1 : 37)) {
      uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
      for (size_t i = 0; i < n; i++) v[i] = rnd() & mask;
      ssdlog_pack(buf, v, n, w);
      ssdlog_unpack(buf, n, w, 7, out);
      for (size_t i = 0; i < n; i++) bad += out[i] != v[i] + 7;
    }
  CHECK(bad == 0);
}

TEST("A column of mostly small values with rare outliers uses exceptions, not a wide frame") {
  enum { N = 8192 };
  static uint64_t v[N], sc[2 * N], out[N];
  static uint8_t buf[LOG_COL_HDR_BYTES + 3 * 8 * N + 16];
  for (size_t i = 0; i < N; i++) v[i] = 50000 + rnd() % 1000;
  v[17] = 90000000000ull;
  v[4000] = UINT64_MAX;
  size_t len = ssdlog_col_encode(buf, v, N, NULL, sc);
  CHECK(len < N * 10 / 8 + 100); /* ~10 bits per value, not 64 */
  const char *why = NULL;
  REQUIRE(ssdlog_col_decode(buf, len, N, out, NULL, sc, &why) == 0);
  CHECK(memcmp(out, v, sizeof v) == 0);
  CHECK(ssdlog_col_decode(buf, len - 1, N, out, NULL, sc, &why) == -EBADMSG);
}

TEST("Random records with every field at its extremes round-trip through many chunks") {
  size_t n = 3 * SSDLOG_CHUNK_MAX_RECORDS + 123;
  struct ssdlog_rec *recs = malloc(n * sizeof *recs);
  REQUIRE(recs);
  for (size_t i = 0; i < n; i++) recs[i] = rand_rec(i);
  const char *p = test_path("extremes.ssdlog");
  REQUIRE(write_log(p, recs, n, 1000) == 0);
  CHECK(read_back(p, recs, n) == (long)n);
  free(recs);
}

TEST("A one-record log and an empty log read back exactly") {
  struct ssdlog_rec one = rand_rec(0);
  one.submit_ns = UINT64_MAX;
  one.lat_ns = UINT64_MAX;
  one.status = INT32_MIN;
  REQUIRE(write_log(test_path("one.ssdlog"), &one, 1, 1) == 0);
  CHECK(read_back(test_path("one.ssdlog"), &one, 1) == 1);
  REQUIRE(write_log(test_path("empty.ssdlog"), &one, 0, 1) == 0);
  CHECK(read_back(test_path("empty.ssdlog"), &one, 0) == 0);
  struct ssdlog_reader *r;
  struct ssdrev_err err = {{0}};
  REQUIRE(ssdlog_open(&r, test_path("empty.ssdlog"), 0, &err) == 0);
  struct ssdlog_chunk c;
  CHECK(ssdlog_next_chunk(r, SSDLOG_COL_ALL, &c, &err) == 0);
  struct ssdlog_stats st;
  ssdlog_get_stats(r, &st);
  CHECK(!st.truncated && st.records == 0);
  ssdlog_close(r);
}

TEST("The header keeps version, clock source, start time and params") {
  struct ssdlog_rec one = rand_rec(0);
  REQUIRE(write_log(test_path("hdr.ssdlog"), &one, 1, 1) == 0);
  struct ssdlog_reader *r;
  struct ssdrev_err err = {{0}};
  REQUIRE(ssdlog_open(&r, test_path("hdr.ssdlog"), 0, &err) == 0);
  const struct ssdlog_header *h = ssdlog_get_header(r);
  CHECK(h->version == 1);
  CHECK(h->clock_source == SSDLOG_CLOCK_VIRTUAL);
  CHECK_EQ_U64(h->start_unix_ns, 42);
  CHECK_STR(h->params_json, "{\"qd\": 32}");
  ssdlog_close(r);
}

TEST("Bad magic, unknown version and a corrupt header are refused naming the file") {
  struct ssdlog_rec one = rand_rec(0);
  const char *p = test_path("bad.ssdlog");
  struct ssdlog_reader *r = NULL;
  struct ssdrev_err err = {{0}};
  REQUIRE(write_log(p, &one, 1, 1) == 0);
  flip_bit(p, 0, 0);
  CHECK(ssdlog_open(&r, p, 0, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "bad.ssdlog");
  REQUIRE(write_log(p, &one, 1, 1) == 0);
  flip_bit(p, 8, 1); /* version 1 -> 3 */
  CHECK(ssdlog_open(&r, p, 0, &err) == -ENOTSUP);
  CHECK_CONTAINS(err.msg, "version 3");
  REQUIRE(write_log(p, &one, 1, 1) == 0);
  flip_bit(p, 30, 4); /* inside params */
  CHECK(ssdlog_open(&r, p, 0, &err) == -EBADMSG);
  CHECK_CONTAINS(err.msg, "CRC32C");
  CHECK(ssdlog_open(&r, test_path("missing.ssdlog"), 0, &err) == -ENOENT);
  CHECK_CONTAINS(err.msg, "missing.ssdlog");
}

TEST("Decoding a subset of columns returns those columns only, with the right values") {
  size_t n = 20000;
  struct ssdlog_rec *recs = malloc(n * sizeof *recs);
  REQUIRE(recs);
  for (size_t i = 0; i < n; i++) recs[i] = rand_rec(i);
  const char *p = test_path("subset.ssdlog");
  REQUIRE(write_log(p, recs, n, 64) == 0);
  static const unsigned masks[] = {SSDLOG_COL_LAT, SSDLOG_COL_SUBMIT, SSDLOG_COL_OFFSET | SSDLOG_COL_OP,
                                   SSDLOG_COL_STATUS | SSDLOG_COL_FLAGS, SSDLOG_COL_LEN | SSDLOG_COL_QUEUE};
  for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
    struct ssdlog_reader *r;
    struct ssdrev_err err = {{0}};
    REQUIRE(ssdlog_open(&r, p, 0, &err) == 0);
    struct ssdlog_chunk c;
    size_t i = 0, bad = 0, wrong_null = 0;
    unsigned k = masks[m];
    while (ssdlog_next_chunk(r, k, &c, &err) > 0) {
      wrong_null += !(k & SSDLOG_COL_SUBMIT) != !c.submit_ns;
      wrong_null += !(k & SSDLOG_COL_LAT) != !c.lat_ns;
      wrong_null += !(k & SSDLOG_COL_OFFSET) != !c.offset_bytes;
      wrong_null += !(k & SSDLOG_COL_LEN) != !c.len_bytes;
      wrong_null += !(k & SSDLOG_COL_STATUS) != !c.status;
      wrong_null += !(k & SSDLOG_COL_QUEUE) != !c.queue_id;
      wrong_null += !(k & SSDLOG_COL_OP) != !c.op;
      wrong_null += !(k & SSDLOG_COL_FLAGS) != !c.flags;
      for (size_t j = 0; j < c.n; j++, i++) {
        const struct ssdlog_rec *e = &recs[i];
        bad += c.submit_ns && c.submit_ns[j] != e->submit_ns;
        bad += c.lat_ns && c.lat_ns[j] != e->lat_ns;
        bad += c.offset_bytes && c.offset_bytes[j] != e->offset_bytes;
        bad += c.len_bytes && c.len_bytes[j] != e->len_bytes;
        bad += c.status && c.status[j] != e->status;
        bad += c.queue_id && c.queue_id[j] != e->queue_id;
        bad += c.op && c.op[j] != e->op;
        bad += c.flags && c.flags[j] != e->flags;
      }
    }
    CHECK_EQ_U64(i, n);
    CHECK_EQ_U64(bad, 0);
    CHECK_EQ_U64(wrong_null, 0);
    ssdlog_close(r);
  }
  free(recs);
}

TEST("A chunk is written, without a flush, when the record limit is reached and not before") {
  struct ssdlog_writer *w;
  struct ssdrev_err err = {{0}};
  const char *p = test_path("limit.ssdlog");
  REQUIRE(ssdlog_writer_open(&w, p, SSDLOG_CLOCK_MONOTONIC, 0, NULL, 1, &err) == 0);
  uint64_t hdr_bytes = ssdlog_writer_bytes(w);
  CHECK_EQ_U64(hdr_bytes, (uint64_t)file_size(p));
  struct ssdlog_rec r = rand_rec(0);
  r.submit_ns = 5;
  for (unsigned i = 0; i + 1 < SSDLOG_CHUNK_MAX_RECORDS; i++) REQUIRE(ssdlog_append(w, &r, 1, &err) == 0);
  CHECK_EQ_U64(ssdlog_writer_records(w), 0);
  CHECK_EQ_U64((uint64_t)file_size(p), hdr_bytes);
  REQUIRE(ssdlog_append(w, &r, 1, &err) == 0);
  /* the encoder thread writes the full chunk on its own, with no flush */
  for (int i = 0; i < 5000 && ssdlog_writer_records(w) == 0; i++) usleep(1000);
  CHECK_EQ_U64(ssdlog_writer_records(w), SSDLOG_CHUNK_MAX_RECORDS);
  CHECK((uint64_t)file_size(p) > hdr_bytes);
  CHECK_EQ_U64((uint64_t)file_size(p), ssdlog_writer_bytes(w));
  REQUIRE(ssdlog_append(w, &r, 1, &err) == 0);
  REQUIRE(ssdlog_flush(w, 1, &err) == 0);
  CHECK_EQ_U64(ssdlog_writer_records(w), SSDLOG_CHUNK_MAX_RECORDS + 1);
  CHECK(ssdlog_writer_close(w, &err) == 0);
}

TEST("A chunk is cut after one second of submit time") {
  size_t n = 5000; /* 1000 records per second over 5 s: 5 chunks */
  struct ssdlog_rec *recs = malloc(n * sizeof *recs);
  REQUIRE(recs);
  for (size_t i = 0; i < n; i++) {
    recs[i] = rand_rec(i);
    recs[i].submit_ns = i * 1000000ull;
  }
  const char *p = test_path("timecut.ssdlog");
  REQUIRE(write_log(p, recs, n, 7) == 0);
  uint64_t offs[64];
  uint32_t ns[64];
  size_t k = chunk_offsets(p, offs, ns, 64);
  CHECK_EQ_U64(k, 5);
  for (size_t i = 0; i < k; i++) CHECK_EQ_U64(ns[i], 1000);
  CHECK(read_back(p, recs, n) == (long)n);
  free(recs);
}

TEST("Truncation at every byte of the last chunk recovers all earlier chunks and reports it") {
  size_t n = 2 * SSDLOG_CHUNK_MAX_RECORDS + 40;
  struct ssdlog_rec *recs = malloc(n * sizeof *recs);
  REQUIRE(recs);
  for (size_t i = 0; i < n; i++) {
    recs[i] = rand_rec(i);
    recs[i].submit_ns = i * 10; /* no time cuts: chunks of exactly the limit */
  }
  const char *p = test_path("trunc.ssdlog"), *q = test_path("trunc-cut.ssdlog");
  REQUIRE(write_log(p, recs, n, 500) == 0);
  uint64_t offs[8];
  uint32_t ns[8];
  REQUIRE(chunk_offsets(p, offs, ns, 8) == 3);
  long size = file_size(p);
  int bad = 0;
  for (long cut = (long)offs[2]; cut < size; cut++) {
    REQUIRE(copy_prefix(p, q, cut) == 0);
    struct ssdlog_reader *r;
    struct ssdrev_err err = {{0}};
    REQUIRE(ssdlog_open(&r, q, 0, &err) == 0);
    struct ssdlog_chunk c;
    int rc;
    while ((rc = ssdlog_next_chunk(r, SSDLOG_COL_ALL, &c, &err)) > 0) {
    }
    struct ssdlog_stats st;
    ssdlog_get_stats(r, &st);
    bad += rc != 0 || st.records != 2 * SSDLOG_CHUNK_MAX_RECORDS ||
           (cut > (long)offs[2] && (!st.truncated || st.truncated_at != offs[2]));
    ssdlog_close(r);
  }
  CHECK(bad == 0);
  free(recs);
}

TEST("A zero-filled tail after the last chunk is reported as truncation, not corruption") {
  struct ssdlog_rec recs[10];
  for (int i = 0; i < 10; i++) recs[i] = rand_rec((uint64_t)i);
  const char *p = test_path("zeros.ssdlog");
  REQUIRE(write_log(p, recs, 10, 10) == 0);
  long size = file_size(p);
  REQUIRE(truncate(p, size + 4096) == 0);
  struct ssdlog_reader *r;
  struct ssdrev_err err = {{0}};
  REQUIRE(ssdlog_open(&r, p, 0, &err) == 0);
  struct ssdlog_rec x;
  int k = 0;
  while (ssdlog_next(r, &x, &err) == 1) k++;
  struct ssdlog_stats st;
  ssdlog_get_stats(r, &st);
  CHECK(k == 10);
  CHECK(st.truncated && st.truncated_at == (uint64_t)size);
  ssdlog_close(r);
}

TEST("A flipped bit in any chunk is detected with its offset, and salvage skips exactly that chunk") {
  size_t n = 4 * SSDLOG_CHUNK_MAX_RECORDS;
  struct ssdlog_rec *recs = malloc(n * sizeof *recs);
  REQUIRE(recs);
  for (size_t i = 0; i < n; i++) {
    recs[i] = rand_rec(i);
    recs[i].submit_ns = i * 10; /* no time cuts: chunks of exactly the limit */
  }
  const char *p = test_path("flip.ssdlog");
  uint64_t offs[8];
  uint32_t ns[8];
  REQUIRE(write_log(p, recs, n, 4096) == 0);
  REQUIRE(chunk_offsets(p, offs, ns, 8) == 4);
  for (int k = 0; k < 4; k++) {
    /* one flip in the chunk header, one in the payload */
    for (int where = 0; where < 2; where++) {
      REQUIRE(write_log(p, recs, n, 4096) == 0);
      uint64_t at = offs[k] + (where ? 116 + rnd() % 20000 : rnd() % 116);
      flip_bit(p, at, (int)(rnd() % 8));
      struct ssdlog_reader *r;
      struct ssdrev_err err = {{0}};
      REQUIRE(ssdlog_open(&r, p, 0, &err) == 0);
      struct ssdlog_chunk c;
      int rc, got = 0;
      while ((rc = ssdlog_next_chunk(r, SSDLOG_COL_ALL, &c, &err)) > 0) got++;
      CHECK(rc == -EBADMSG);
      CHECK(got == k);
      char want[64];
      snprintf(want, sizeof want, "at byte %llu", (unsigned long long)offs[k]);
      CHECK_CONTAINS(err.msg, want);
      CHECK_CONTAINS(err.msg, "flip.ssdlog");
      ssdlog_close(r);
      REQUIRE(ssdlog_open(&r, p, SSDLOG_SALVAGE, &err) == 0);
      size_t i = 0, bad = 0;
      while ((rc = ssdlog_next_chunk(r, SSDLOG_COL_ALL, &c, &err)) > 0)
        for (size_t j = 0; j < c.n; j++, i++) {
          size_t e = i + (i >= (size_t)k * SSDLOG_CHUNK_MAX_RECORDS ? SSDLOG_CHUNK_MAX_RECORDS : 0);
          bad += c.lat_ns[j] != recs[e].lat_ns || c.offset_bytes[j] != recs[e].offset_bytes;
        }
      struct ssdlog_stats st;
      ssdlog_get_stats(r, &st);
      CHECK(rc == 0);
      CHECK_EQ_U64(st.skipped_chunks, 1);
      CHECK_EQ_U64(st.records, 3 * SSDLOG_CHUNK_MAX_RECORDS);
      CHECK_EQ_U64(bad, 0);
      if (where) CHECK_EQ_U64(st.skipped_records, SSDLOG_CHUNK_MAX_RECORDS);
      ssdlog_close(r);
    }
  }
  free(recs);
}

struct thr_arg {
  struct ssdlog_writer *w;
  uint16_t q;
  int rc;
};
#define THR_RECS 30000u
static void *thr_main(void *a) {
  struct thr_arg *t = a;
  struct ssdrev_err err = {{0}};
  for (uint32_t i = 0; i < THR_RECS && !t->rc; i += 3) {
    struct ssdlog_rec r[3];
    for (int j = 0; j < 3; j++)
      r[j] = (struct ssdlog_rec){.submit_ns = i + (uint32_t)j, .lat_ns = 1, .offset_bytes = i + (uint32_t)j,
                                .len_bytes = 512, .queue_id = t->q};
    t->rc = ssdlog_append(t->w, r, 3, &err);
  }
  return NULL;
}

TEST("Concurrent appends from several threads lose no record") {
  struct ssdlog_writer *w;
  struct ssdrev_err err = {{0}};
  const char *p = test_path("threads.ssdlog");
  REQUIRE(ssdlog_writer_open(&w, p, SSDLOG_CLOCK_MONOTONIC, 0, NULL, 1, &err) == 0);
  pthread_t th[4];
  struct thr_arg a[4];
  for (int i = 0; i < 4; i++) {
    a[i] = (struct thr_arg){w, (uint16_t)i, 0};
    REQUIRE(pthread_create(&th[i], NULL, thr_main, &a[i]) == 0);
  }
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  REQUIRE(ssdlog_writer_close(w, &err) == 0);
  static uint8_t seen[4][THR_RECS];
  memset(seen, 0, sizeof seen);
  struct ssdlog_reader *r;
  REQUIRE(ssdlog_open(&r, p, 0, &err) == 0);
  struct ssdlog_rec x;
  size_t total = 0, bad = 0;
  while (ssdlog_next(r, &x, &err) == 1) {
    total++;
    if (x.queue_id < 4 && x.offset_bytes < THR_RECS) seen[x.queue_id][x.offset_bytes]++;
    else bad++;
  }
  ssdlog_close(r);
  for (int q = 0; q < 4; q++)
    for (uint32_t i = 0; i < THR_RECS; i++) bad += seen[q][i] != 1;
  CHECK_EQ_U64(total, 4 * THR_RECS);
  CHECK_EQ_U64(bad, 0);
  for (int i = 0; i < 4; i++) CHECK(a[i].rc == 0);
}

TEST("A write error (file size limit) fails with the file name, and keeps failing") {
  const char *p = test_path("full.ssdlog");
  struct rlimit old, lim;
  REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
  void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
  lim = old;
  lim.rlim_cur = 100000;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
  struct ssdlog_writer *w;
  struct ssdrev_err err = {{0}};
  int rc = ssdlog_writer_open(&w, p, SSDLOG_CLOCK_MONOTONIC, 0, NULL, 1, &err);
  int rc1 = 0, rc2 = 0;
  for (uint64_t i = 0; !rc && !rc1 && i < 10000000; i++) {
    struct ssdlog_rec r = rand_rec(i);
    rc1 = ssdlog_append(w, &r, 1, &err);
  }
  if (!rc) {
    struct ssdlog_rec r = rand_rec(0);
    struct ssdrev_err err2 = {{0}};
    rc2 = ssdlog_append(w, &r, 1, &err2);
    CHECK_CONTAINS(err2.msg, "full.ssdlog");
    ssdlog_writer_close(w, NULL);
  }
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, prev);
  CHECK(rc == 0);
  CHECK(rc1 == -EFBIG);
  CHECK(rc2 == -EFBIG);
  CHECK_CONTAINS(err.msg, "cannot write I/O log");
  CHECK_CONTAINS(err.msg, "full.ssdlog");
}

TEST("A synthetic 4 KiB random-read QD32 log takes at most 6 bytes per I/O") {
  const char *p = test_path("synth.ssdlog");
  struct ssdrev_err err = {{0}};
  uint64_t n = 300000;
  REQUIRE(ssdlog_synth(p, n, 1, 0, 1, &err) == 0);
  struct ssdlog_reader *r;
  REQUIRE(ssdlog_open(&r, p, 0, &err) == 0);
  struct ssdlog_rec x, prev = {0};
  uint64_t k = 0, ramp = 0, batched = 0;
  while (ssdlog_next(r, &x, &err) == 1) {
    k++;
    ramp += x.flags & SSDLOG_REC_RAMP;
    batched += k > 1 && x.submit_ns + x.lat_ns == prev.submit_ns + prev.lat_ns;
    prev = x;
  }
  ssdlog_close(r);
  CHECK_EQ_U64(k, n);
  CHECK_EQ_U64(ramp, n / 20);
  CHECK(batched > n / 2); /* most completions share a reap stamp, like the engine */
  double bpr = (double)file_size(p) / (double)n;
  printf("    synthetic QD32 4K random read: %.3f bytes per I/O\n", bpr);
  CHECK(bpr <= 6.0);
}

TEST("Opening for writing refuses an existing file unless told to overwrite") {
  const char *p = test_path("excl.ssdlog");
  struct ssdlog_rec one = rand_rec(0);
  REQUIRE(write_log(p, &one, 1, 1) == 0);
  struct ssdlog_writer *w = NULL;
  struct ssdrev_err err = {{0}};
  CHECK(ssdlog_writer_open(&w, p, SSDLOG_CLOCK_MONOTONIC, 0, NULL, 0, &err) == -EEXIST);
  CHECK_CONTAINS(err.msg, "excl.ssdlog");
  CHECK(read_back(p, &one, 1) == 1);
}
