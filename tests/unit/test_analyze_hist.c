/* test_analyze_hist.c — the latency histogram analyze_log puts in each test
 * ("hist", docs/archive.md): bins of floor(20 log10(lat_us)), counted over
 * measured I/Os with status 0, the edges exact to the nanosecond. */
#include <errno.h>
#include <math.h>
#include "analyze/analyze.h"
#include "tests/unit/testlib.h"
#include "log/ssdlog.h"

/* The definition the bins must follow (as the renderer drew it from raw logs). */
static int bin_of(uint64_t lat_ns) {
  double us = (double)lat_ns / 1000.0;
  int b = us <= 1 ? 0 : (int)(log10(us) * ANALYZE_HIST_PER_DECADE);
  return b >= ANALYZE_HIST_BINS ? ANALYZE_HIST_BINS - 1 : b;
}

TEST("Each measured I/O lands in the bin floor(20 log10(us)), edges included; ramp and failed I/Os are left out") {
  char path[512];
  snprintf(path, sizeof path, "%s/h.ssdlog", test_tmpdir());
  struct ssdlog_writer *w;
  struct ssdrev_err e = {{0}};
  REQUIRE(ssdlog_writer_open(&w, path, SSDLOG_CLOCK_VIRTUAL, 0, "{}", 1, &e) == 0);
  uint64_t want[ANALYZE_HIST_BINS] = {0}, x = 12345;
  size_t n = 0;
  for (int k = 0; k < 200000; k++) {
    uint64_t lat;
    if (k < 4000) {
      /* around every decimal edge 1000 * 10^(b/20) ns, one ns either side */
      double edge = 1000.0 * pow(10, (double)(k / 40) / ANALYZE_HIST_PER_DECADE);
      lat = (uint64_t)edge + (uint64_t)(k % 40) - 20;
    } else {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      lat = x % (k & 1 ? 200000000ull : 2000000ull); /* up to 200 ms: the last bin too */
    }
    struct ssdlog_rec r = {.submit_ns = (uint64_t)k * 1000, .lat_ns = lat, .len_bytes = 4096, .op = SSDLOG_OP_READ};
    if (k % 97 == 5) r.status = -EIO;
    if (k % 101 == 7) r.flags = SSDLOG_REC_RAMP;
    if (r.status == 0 && !(r.flags & SSDLOG_REC_RAMP)) want[bin_of(lat)]++, n++;
    REQUIRE(ssdlog_append(w, &r, 1, &e) == 0);
  }
  REQUIRE(ssdlog_writer_close(w, &e) == 0);
  json_t *res = NULL;
  REQUIRE(analyze_log(path, NULL, 0, &res, &e) == 0);
  json_t *h = json_object_get(res, "hist");
  CHECK(json_integer_value(json_object_get(h, "per_decade")) == ANALYZE_HIST_PER_DECADE);
  json_int_t first = json_integer_value(json_object_get(h, "first_bin"));
  json_t *counts = json_object_get(h, "counts");
  uint64_t got[ANALYZE_HIST_BINS] = {0}, total = 0;
  for (size_t i = 0; i < json_array_size(counts); i++) {
    REQUIRE((size_t)first + i < ANALYZE_HIST_BINS);
    got[first + (json_int_t)i] = (uint64_t)json_integer_value(json_array_get(counts, i));
    total += got[first + (json_int_t)i];
  }
  CHECK_EQ_U64(total, n);
  int same = 1;
  for (int b = 0; b < ANALYZE_HIST_BINS; b++)
    if (got[b] != want[b]) {
      fprintf(stderr, "    bin %d: %" PRIu64 " != %" PRIu64 "\n", b, got[b], want[b]);
      same = 0;
    }
  CHECK(same);
  CHECK(want[ANALYZE_HIST_BINS - 1] > 0 && want[0] > 0); /* both ends were exercised */
  json_decref(res);
}
