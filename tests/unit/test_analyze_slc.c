/* test_analyze_slc.c — the SLC cache estimate on synthetic fill traces with
 * known cliffs, clean and noisy. */
#include <math.h>
#include "analyze/analyze.h"
#include "tests/unit/testlib.h"

static uint64_t rs = 0x9E3779B97F4A7C15ull;
static double urand(void) {
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return (double)(rs >> 11) / 9007199254740992.0;
}
static double gauss(void) {
  double u = urand(), v = urand();
  return sqrt(-2 * log(u + 1e-300)) * cos(2 * M_PI * v);
}

/* A sequential fill of `total` GiB sampled every `step` GiB: cache_gib at
 * v1 MB/s, then v2 (and v3 after fold_gib when > 0); the point holding the
 * cliff gets the time-weighted mix, as a real per-step measurement would.
 * noise: relative sd; spikes: share of points at a third of the speed. */
static size_t trace(double total, double step, double cache_gib, double v1, double v2, double fold_gib, double v3,
                    double noise, double spikes, double *gib, double *mb) {
  size_t n = (size_t)(total / step);
  for (size_t i = 0; i < n; i++) {
    double a = i * step, b = a + step, t = 0;
    /* time = sum over the parts of [a, b) at each speed */
    double edges[3] = {cache_gib, fold_gib > 0 ? fold_gib : 1e9, 1e9};
    double speeds[3] = {v1, v2, v3};
    double lo = a;
    for (int k = 0; k < 3 && lo < b; k++) {
      double hi = b < edges[k] ? b : edges[k];
      if (hi > lo) {
        t += (hi - lo) / speeds[k];
        lo = hi;
      }
    }
    double v = step / t;
    v *= 1 + noise * gauss();
    if (spikes > 0 && urand() < spikes) v /= 3;
    gib[i] = b;
    mb[i] = v;
  }
  return n;
}

static double g[20000], m[20000];
static double g2big[60000], m2big[60000]; /* 1/256 GiB steps of up to 234 GiB */

TEST("A clean cliff at 11.2 GiB is found within 5% with both speeds") {
  size_t n = trace(238, 1.0 / 16, 11.2, 1450, 780, 0, 0, 0, 0, g, m);
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g, m, n, 2.0, &s, NULL) == 0);
  REQUIRE(s.found);
  CHECK_NEAR(s.cache_gib, 11.2, 0.05 * 11.2);
  CHECK_NEAR(s.cache_mb_s, 1450, 0.05 * 1450);
  CHECK_NEAR(s.post_cache_mb_s, 780, 0.05 * 780);
  CHECK(s.confidence > 0.9);
}

TEST("A noisy trace (10% noise, 2% spikes) still gives the cliff within 5%") {
  for (int seed = 1; seed <= 5; seed++) {
    rs = 0x1234567ull * (uint64_t)seed;
    size_t n = trace(238, 1.0 / 16, 11.2, 1450, 780, 0, 0, 0.10, 0.02, g, m);
    struct ssdrev_slc s;
    REQUIRE(analyze_slc_estimate(g, m, n, 2.0, &s, NULL) == 0);
    REQUIRE(s.found);
    CHECK_NEAR(s.cache_gib, 11.2, 0.05 * 11.2);
    CHECK_NEAR(s.post_cache_mb_s, 780, 0.05 * 780 + 1);
  }
}

TEST("A second drop (folding) is listed after the cache cliff") {
  size_t n = trace(238, 1.0 / 16, 30, 3000, 1500, 120, 600, 0.03, 0, g, m);
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g, m, n, 2.0, &s, NULL) == 0);
  REQUIRE(s.found);
  CHECK_NEAR(s.cache_gib, 30, 1.5);
  CHECK(s.ndrops == 2);
  CHECK_NEAR(s.drops[1].at_gib, 120, 6);
  CHECK_NEAR(s.drops[1].to_mb_s, 600, 30);
}

TEST("A flat trace has no cliff and zero confidence") {
  size_t n = trace(100, 1.0 / 16, 1e6, 1000, 1000, 0, 0, 0.05, 0, g, m);
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g, m, n, 2.0, &s, NULL) == 0);
  CHECK(!s.found);
  CHECK(s.confidence == 0);
}

TEST("A small near-full cache of 2 GiB is found with a 0.5 GiB minimum segment") {
  size_t n = trace(20, 1.0 / 16, 2.1, 1400, 800, 0, 0, 0.05, 0, g, m);
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g, m, n, 0.5, &s, NULL) == 0);
  REQUIRE(s.found);
  CHECK_NEAR(s.cache_gib, 2.1, 0.05 * 2.1);
}

TEST("A trace too short or not increasing is refused with a message") {
  double gg[3] = {1, 2, 3}, mm[3] = {1, 1, 1};
  struct ssdrev_slc s;
  struct ssdrev_err e = {{0}};
  CHECK(analyze_slc_estimate(gg, mm, 3, 2.0, &s, &e) < 0);
  CHECK_CONTAINS(e.msg, "too short");
  double g2[5] = {1, 1, 1, 1, 1}, m2[5] = {1, 1, 1, 1, 1};
  CHECK(analyze_slc_estimate(g2, m2, 5, 2.0, &s, &e) < 0);
  CHECK_CONTAINS(e.msg, "increase");
}

TEST("A mild 0.89x cliff at 40 GiB is found from the noise, not a fixed ratio") {
  rs = 0xABCDEFull;
  size_t n = trace(200, 1.0 / 256, 40, 1000, 890, 0, 0, 0.02, 0, g2big, m2big);
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g2big, m2big, n, 0, &s, NULL) == 0);
  REQUIRE(s.found);
  CHECK_NEAR(s.cache_gib, 40, 0.05 * 40);
  CHECK_NEAR(s.post_cache_mb_s, 890, 0.05 * 890);
}

TEST("A post-cache phase oscillating with GC is reported as its time-weighted whole and its first segment") {
  /* 1500 MB/s for 10 GiB, then alternating 20 GiB stretches at 985 and 150 MB/s */
  size_t n = 0;
  for (double a = 0; a < 250; a += 1.0 / 16, n++) {
    double v = a < 10 ? 1500 : ((int)((a - 10) / 20) % 2 ? 150 : 985);
    g[n] = a + 1.0 / 16;
    m[n] = v;
  }
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g, m, n, 0, &s, NULL) == 0);
  REQUIRE(s.found);
  CHECK_NEAR(s.cache_gib, 10, 0.5);
  /* 240 GiB: 6 stretches at 985, 6 at 150: bytes over time */
  double want = 240.0 / (120.0 / 985 + 120.0 / 150);
  CHECK_NEAR(s.post_cache_mb_s, want, 0.05 * want);
  CHECK_NEAR(s.post_first_mb_s, 985, 0.05 * 985);
  CHECK(s.ndrops == 1); /* the oscillation is one phase, not a cascade of cliffs */
}

TEST("A noisy fill without a cliff says no cache and never reports a faster post-cache phase") {
  for (int seed = 1; seed <= 5; seed++) {
    rs = 0x51DEull * (uint64_t)seed;
    size_t n = trace(64, 1.0 / 256, 1e6, 1000, 1000, 0, 0, 0.15, 0.01, g2big, m2big);
    struct ssdrev_slc s;
    REQUIRE(analyze_slc_estimate(g2big, m2big, n, 0, &s, NULL) == 0);
    CHECK(!s.found);
    CHECK(s.confidence == 0);
    CHECK(s.ndrops == 0);
  }
}

TEST("A cache of 0.25 GiB is found at 1/256 GiB resolution") {
  size_t n = trace(16, 1.0 / 256, 0.25, 1600, 520, 0, 0, 0.03, 0, g2big, m2big);
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g2big, m2big, n, 0, &s, NULL) == 0);
  REQUIRE(s.found);
  CHECK_NEAR(s.cache_gib, 0.25, 1.0 / 16);
  CHECK_NEAR(s.cache_mb_s, 1600, 0.05 * 1600);
}

TEST("Three levels (SLC, direct TLC, folding-bound) are named in order") {
  size_t n = trace(500, 1.0 / 64, 140, 6000, 1500, 230, 600, 0.02, 0, g2big, m2big);
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g2big, m2big, n, 0, &s, NULL) == 0);
  REQUIRE(s.found);
  CHECK(s.nlevels == 3);
  CHECK_NEAR(s.levels[1].mb_s, 1500, 75);
  CHECK_NEAR(s.levels[2].mb_s, 600, 30);
  CHECK_NEAR(s.drops[1].at_gib, 230, 230 * 0.05);
}

TEST("A rate trace (bandwidth windows) gives the cliff, and a hostile one is refused") {
  /* 1 s windows: 4 at 2000 MB/s, the fifth mixed, then 40 at 500 MB/s */
  double t[64], v[64];
  size_t n = 0;
  for (int i = 0; i < 45; i++, n++) {
    t[n] = i + 1;
    v[n] = i < 4 ? 2000 : i == 4 ? 1250 : 500;
  }
  json_t *fill = NULL;
  struct ssdrev_err e = {{0}};
  REQUIRE(analyze_rate_fill(t, v, n, 1.0, NULL, &fill, &e) == 0);
  const json_t *s = json_object_get(fill, "slc");
  REQUIRE(json_is_true(json_object_get(s, "found")));
  /* 8 GB at 2000 MB/s, then the mixed window's 1.25 GB: half of its second
   * at each speed gives 1 GB more in the cache */
  double want = 9e9 / 1073741824.0;
  CHECK_NEAR(json_number_value(json_object_get(s, "cache_gib")), want, fmax(0.05 * want, 1.0 / 16));
  json_decref(fill);
  t[3] = 1e300;
  CHECK(analyze_rate_fill(t, v, n, 1.0, NULL, &fill, &e) < 0);
  v[3] = 1e300;
  t[3] = 4;
  CHECK(analyze_rate_fill(t, v, n, 1.0, NULL, &fill, &e) < 0);
  CHECK_CONTAINS(e.msg, "beyond");
}

TEST("GC pressure creeping up near full (a staircase of 1-2% steps) adds no levels after the cliff") {
  /* the simulated PM981a: 11 GiB at 1923 MB/s, 561 MB/s to 206 GiB, then
   * 554, 548, 542, 532, 519 MB/s every few GiB: once five "cliffs" */
  const double at[] = {11, 206, 211, 216, 218.5, 225, 1e9}, v[] = {1923, 566, 554, 548, 542, 532, 519};
  size_t n = 0;
  double step = 1.0 / 64, lo = 0;
  for (size_t k = 0; k < 7 && lo < 238; k++) {
    double hi = at[k] < 238 ? at[k] : 238;
    for (; lo + step <= hi + 1e-9; lo += step, n++) {
      g[n] = lo + step;
      m[n] = v[k] * (1 + 0.002 * gauss());
    }
  }
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g, m, n, 0, &s, NULL) == 0);
  REQUIRE(s.found);
  CHECK_NEAR(s.cache_gib, 11, 1.0 / 16);
  CHECK_EQ_U64(s.ndrops, 1);
  CHECK_EQ_U64(s.nlevels, 2);
}

TEST("Short GC dips inside the cache do not hide the cliff to a level as slow as the dips") {
  /* a full drive's rewrite: 1609 MB/s with a 3-point dip to 400 every
   * 0.3 GiB (a burst of GC erases), the cliff at 2 GiB to 487 MB/s with dips too */
  size_t n = 0;
  double step = 1.0 / 256;
  for (; n < 860; n++) {
    double x = (double)(n + 1) * step;
    int dip = n % 77 < 3;
    m[n] = x <= 2 ? (dip ? 400 : 1609) : (dip ? 280 : 487);
    m[n] *= 1 + 0.01 * gauss();
    g[n] = x;
  }
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g, m, n, 0, &s, NULL) == 0);
  REQUIRE(s.found);
  CHECK_NEAR(s.cache_gib, 2, 1.0 / 16);
}

TEST("A 1% step on a smooth trace (erase-block alignment) is no cliff, however clear against the noise") {
  size_t n = 0;
  for (; n < 2000; n++) {
    g[n] = (double)(n + 1) / 256;
    m[n] = (n < 48 ? 693 : 684) * (1 + 0.001 * gauss());
  }
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g, m, n, 0, &s, NULL) == 0);
  CHECK(!s.found);
}

TEST("A cacheless 119 GiB fill whose first 16 MiB go into the DRAM buffer at link speed reports no cache") {
  /* issue 24: the buffer's head inside the first 0.18 GiB segment gave a
   * 0.07 GiB "cache" */
  size_t n = trace(119, 1.0 / 256, 16.0 / 1024, 3500, 450, 0, 0, 0.01, 0, g2big, m2big);
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g2big, m2big, n, 0, &s, NULL) == 0);
  CHECK(!s.found);
  CHECK(s.ndrops == 0);
  CHECK_NEAR(s.cache_mb_s, 450, 0.05 * 450); /* the fill's speed, not the buffer's */
  CHECK_NEAR(s.levels[0].from_gib, 0, 1e-9);  /* the one level spans the head too */
}

TEST("A 0.25 GiB cache behind a 16 MiB buffer head is still found") {
  size_t n = trace(16, 1.0 / 256, 0.25, 1600, 520, 0, 0, 0.02, 0, g2big, m2big);
  for (size_t i = 0; i < 4; i++) m2big[i] = 3400; /* the first 16 MiB at link speed */
  struct ssdrev_slc s;
  REQUIRE(analyze_slc_estimate(g2big, m2big, n, 0, &s, NULL) == 0);
  REQUIRE(s.found);
  CHECK_NEAR(s.cache_gib, 0.25, 1.0 / 16);
  CHECK_NEAR(s.cache_mb_s, 1600, 0.05 * 1600);
}
