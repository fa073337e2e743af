/* test_thermal.c — the simulated drive's thermal throttling (heat from
 * NAND work, cooling toward idle, a light and a heavy level with
 * hysteresis, a link cap while throttled; docs/sim-model.md "Temperature")
 * and the thermal step's analysis (analyze/thermal.c): a throttle found in
 * the two series, an SLC cliff not called one. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "sim/sim_int.h"
#include "analyze/analyze_int.h"
#include "testlib.h"
#include "log/ssdlog.h"
#include "sim/sim.h"

/* A small NAND-bound drive: 4 dies writing 239 MB/s into TLC (no SLC). */
static const char *base_model =
    "capacity_bytes = 64GiB\nlba_bytes = 512\nlink_mb_s = 3500\nchannels = 4\n"
    "dies_per_channel = 1\nplanes = 2\nchannel_mt_s = 800\npage_bytes = 16KiB\n"
    "block_bytes = 4MiB\nt_read_us = 50\nt_prog_slc_us = 150\nt_prog_tlc_us = 1500\n"
    "t_erase_us = 3000\ncontroller_us = 5\nslc_static_only = 1\nslc_min_gib = 0\n"
    "temp_idle_c = 40\ntemp_load_c = 40\n";

static int load_text(const char *name, const char *extra, struct sim_model *m, struct ssdrev_err *err) {
  char text[4096];
  snprintf(text, sizeof text, "%s%s", base_model, extra);
  const char *p = test_path(name);
  FILE *f = fopen(p, "w");
  if (!f) return -EIO;
  fputs(text, f);
  fclose(f);
  return sim_model_load(m, p, err);
}

static struct sim *new_sim(const char *extra, struct sim_model *m) {
  struct ssdrev_err err = {{0}};
  if (load_text("thermal.model", extra, m, &err)) {
    fprintf(stderr, "    %s\n", err.msg);
    return NULL;
  }
  struct sim *s = NULL;
  if (sim_new(&s, m, 7, &err)) fprintf(stderr, "    %s\n", err.msg);
  return s;
}

/* Sequential 128 KiB QD32 writes in a closed loop until virtual time
 * until_ns; returns the bytes completed at or after from_ns, and
 * optionally every completion time summed (a fingerprint of the timing). */
static uint64_t write_until(struct sim *s, uint64_t until_ns, uint64_t from_ns, uint64_t *sum) {
  enum { QD = 32, BS = 128 * 1024 };
  uint64_t done[QD], bytes = 0, nb = sim_get_model(s)->capacity_bytes / BS;
  for (int i = 0; i < QD; i++) done[i] = sim_now_ns(s);
  for (uint64_t i = 0;; i++) {
    uint64_t now = done[i % QD];
    if (now >= until_ns) break;
    int32_t st;
    uint64_t d = sim_io(s, now, SSDLOG_OP_WRITE, (i % nb) * BS, BS, &st);
    sim_advance(s, now);
    done[i % QD] = d;
    if (d >= from_ns && d < until_ns) bytes += BS;
    if (sum) *sum += d;
  }
  return bytes;
}

TEST("A throttle that is never reached leaves every completion time as a model without throttle keys has it") {
  struct sim_model m0, m1;
  struct sim *a = new_sim("", &m0);
  struct sim *b = new_sim("throttle_light_c = 199\nthrottle_light_mb_s = 10\n", &m1);
  REQUIRE(a && b);
  uint64_t sa = 0, sb = 0;
  write_until(a, 20000000000ull, 0, &sa);
  write_until(b, 20000000000ull, 0, &sb);
  CHECK_EQ_U64(sa, sb);
  struct sim_truth ta, tb;
  sim_get_truth(a, &ta);
  sim_get_truth(b, &tb);
  CHECK(ta.temp_c == tb.temp_c);
  CHECK(ta.throttle_level == 0 && tb.throttle_level == 0 && tb.tmt_count[0] == 0 && tb.throttle_first_ns == 0);
  sim_free(a);
  sim_free(b);
}

TEST("Heat follows the NAND work: an idle drive stays at its idle temperature, a full-load write heats toward idle + load") {
  struct sim_model m;
  struct sim *s = new_sim("", &m);
  REQUIRE(s);
  sim_idle(s, 60000000000ull);
  struct sim_truth t;
  sim_get_truth(s, &t);
  CHECK_NEAR(t.temp_c, 40, 1e-9);
  write_until(s, sim_now_ns(s) + 300000000000ull, 0, NULL); /* 5 min: ten time constants */
  sim_get_truth(s, &t);
  CHECK_NEAR(t.temp_c, 80, 0.5); /* NAND-bound: the dies are always busy */
  sim_free(s);
}

TEST("A sustained write throttles at the light threshold when the closed form says, and runs at the cap after") {
  struct sim_model m;
  /* cap 180 MB/s of 239: util ~0.75 keeps it at 40 + 30 = 70 °C, above the exit at 67 */
  struct sim *s = new_sim("throttle_light_c = 70\nthrottle_light_mb_s = 180\nthrottle_hyst_c = 3\n", &m);
  REQUIRE(s);
  uint64_t end = 120000000000ull;
  write_until(s, 60000000000ull, 0, NULL);
  struct sim_truth t;
  sim_get_truth(s, &t);
  REQUIRE(t.throttle_first_ns > 0);
  /* T(t) = 80 - 40 e^(-t/30) at full load: 70 °C at 30 ln 4 = 41.6 s, checked
   * every 100 ms; the dies idle ~1% of the time between programs (measured:
   * 42.2 s), hence 1 s */
  double expect_s = 30 * log(4.0), got_s = (double)t.throttle_first_ns / 1e9;
  CHECK_NEAR(got_s, expect_s, 1.0);
  CHECK_EQ_U64(t.throttle_level, 1);
  CHECK_EQ_U64(t.tmt_count[0], 1);
  uint64_t bytes = write_until(s, end, 70000000000ull, NULL);
  double mb_s = (double)bytes / 50.0 / 1e6;
  CHECK_NEAR(mb_s, 180, 180 * 0.02);
  sim_get_truth(s, &t);
  CHECK_EQ_U64(t.throttle_level, 1); /* still throttled: the equilibrium is above the exit */
  CHECK(t.temp_c > 67 && t.temp_c < 72);
  CHECK(t.tmt_ns[0] > 70000000000ull); /* throttled since ~41.6 s */
  sim_free(s);
}

TEST("The drive leaves its throttle only throttle_hyst_c below the threshold") {
  struct sim_model m;
  struct sim *s = new_sim("throttle_light_c = 70\nthrottle_light_mb_s = 180\nthrottle_hyst_c = 3\n", &m);
  REQUIRE(s);
  write_until(s, 60000000000ull, 0, NULL);
  struct sim_truth t;
  double last = 100;
  unsigned exits = 0;
  for (int i = 0; i < 600; i++) { /* cool in 100 ms steps of idle */
    sim_idle(s, 100000000ull);
    sim_get_truth(s, &t);
    if (t.temp_c >= 67 + 1e-9) CHECK_EQ_U64(t.throttle_level, 1);
    if (!t.throttle_level && !exits++) CHECK(last >= 67 - 0.5 && t.temp_c < 67);
    last = t.temp_c;
  }
  CHECK_EQ_U64(t.throttle_level, 0);
  CHECK(exits > 0);
  sim_free(s);
}

TEST("One long idle right after a throttle credits the throttle only until the drive cools out of it, as short steps do") {
  struct sim_model m;
  const char *keys = "throttle_light_c = 70\nthrottle_light_mb_s = 180\nthrottle_hyst_c = 3\n";
  struct sim *a = new_sim(keys, &m), *b = new_sim(keys, &m);
  REQUIRE(a && b);
  write_until(a, 60000000000ull, 0, NULL);
  write_until(b, 60000000000ull, 0, NULL);
  struct sim_truth ta, tb;
  sim_get_truth(a, &ta);
  REQUIRE(ta.throttle_level == 1);
  uint64_t before = ta.tmt_ns[0];
  sim_idle(a, 600000000000ull); /* one 600 s step */
  for (int i = 0; i < 6000; i++) sim_idle(b, 100000000ull);
  sim_get_truth(a, &ta);
  sim_get_truth(b, &tb);
  CHECK_EQ_U64(ta.throttle_level, 0);
  CHECK(ta.tmt_ns[0] - before < 100000000000ull); /* cooled out in seconds, not 600 s */
  double d = fabs((double)ta.tmt_ns[0] - (double)tb.tmt_ns[0]);
  CHECK(d <= 200000000.0); /* within two 100 ms steps */
  fprintf(stderr, "    in throttle: %.3f s (one step) vs %.3f s (100 ms steps)\n", (double)ta.tmt_ns[0] / 1e9,
          (double)tb.tmt_ns[0] / 1e9);
  sim_free(a);
  sim_free(b);
}

TEST("A light throttle that does not cool the drive gives way to the heavy one") {
  struct sim_model m;
  /* the light cap is above the drive's own speed: no relief, the heavy cap at 75 °C */
  struct sim *s = new_sim("throttle_light_c = 65\nthrottle_light_mb_s = 1000\nthrottle_heavy_c = 75\n"
                          "throttle_heavy_mb_s = 50\n", &m);
  REQUIRE(s);
  write_until(s, 120000000000ull, 0, NULL);
  struct sim_truth t;
  sim_get_truth(s, &t);
  CHECK_EQ_U64(t.tmt_count[0], 1);
  CHECK(t.tmt_count[1] >= 1);
  CHECK(t.temp_c < 80);
  sim_free(s);
}

TEST("The throttle level and its counters survive a save and restore") {
  struct sim_model m;
  struct sim *s = new_sim("throttle_light_c = 70\nthrottle_light_mb_s = 180\n", &m);
  REQUIRE(s);
  write_until(s, 60000000000ull, 0, NULL);
  struct ssdrev_err err = {{0}};
  const char *p = test_path("thermal.state");
  REQUIRE(sim_save(s, p, &err) == 0);
  struct sim *r = NULL;
  REQUIRE(sim_new(&r, &m, 7, &err) == 0);
  int rc = sim_load_state(r, p, &err);
  if (rc) fprintf(stderr, "    %s\n", err.msg);
  REQUIRE(rc == 0);
  struct sim_truth a, b;
  sim_get_truth(s, &a);
  sim_get_truth(r, &b);
  CHECK_EQ_U64(b.throttle_level, 1);
  CHECK_EQ_U64(b.tmt_count[0], a.tmt_count[0]);
  CHECK_EQ_U64(b.tmt_ns[0], a.tmt_ns[0]);
  /* the restored drive writes at the cap, as the original does */
  uint64_t sa = 0, sb = 0;
  write_until(s, 70000000000ull, 0, &sa);
  write_until(r, 70000000000ull, 0, &sb);
  CHECK_EQ_U64(sa, sb);
  sim_free(s);
  sim_free(r);
}

TEST("Throttle keys are checked together: a threshold needs its speed, heavy lies above light") {
  struct sim_model m;
  struct ssdrev_err err = {{0}};
  CHECK(load_text("bad1.model", "throttle_light_c = 70\n", &m, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "throttle_light_mb_s");
  CHECK(load_text("bad2.model", "throttle_light_c = 70\nthrottle_light_mb_s = 100\nthrottle_heavy_c = 60\n"
                  "throttle_heavy_mb_s = 50\n", &m, &err) == -EINVAL);
  CHECK_CONTAINS(err.msg, "throttle_heavy_c");
  CHECK(load_text("bad3.model", "throttle_light_c = 42\nthrottle_light_mb_s = 100\nthrottle_hyst_c = 5\n", &m, &err) ==
        -EINVAL);
  CHECK_CONTAINS(err.msg, "throttle_hyst_c");
}

TEST("The thermal truth of a model: the scratch write throttles as the closed form says, at the cap") {
  struct sim_model m;
  struct ssdrev_err err = {{0}};
  REQUIRE(load_text("truth.model", "throttle_light_c = 70\nthrottle_light_mb_s = 180\nthrottle_hyst_c = 3\n", &m, &err) == 0);
  struct sim_thermal_measured th;
  REQUIRE(sim_model_measure_thermal(&m, &th, &err) == 0);
  CHECK(th.throttled);
  CHECK_NEAR(th.throttle_after_s, 30 * log(4.0), 1.0);
  CHECK_NEAR(th.throttled_mb_s, 180, 180 * 0.02);
  CHECK(th.before_mb_s > 230);
  CHECK_EQ_U64(th.level, 1);
  struct sim_model none;
  REQUIRE(load_text("none.model", "", &none, &err) == 0);
  REQUIRE(sim_model_measure_thermal(&none, &th, &err) == 0);
  CHECK(!th.throttled && th.throttle_after_s == 0);
}

/* ------------------------------------------------------------ the analysis */

/* A test and its analyzed entry from generated series: speed v(t) per 1 s
 * bin and temperature c(t) sampled every second. */
static void synth(json_t **test, json_t **entry, double (*v)(double), double (*c)(double), int n) {
  json_t *ts = json_array(), *mb = json_array(), *smp = json_array();
  for (int i = 0; i < n; i++) {
    json_array_append_new(ts, json_real(i));
    json_array_append_new(mb, json_real(v(i)));
    if (c) json_array_append_new(smp, json_pack("[f, f]", i + 0.25, c(i + 0.25)));
  }
  *test = json_pack("{s:s, s:o}", "name", "thermal.write", "samples", smp);
  *entry = json_pack("{s:{s:f, s:o, s:o}}", "series", "interval_s", 1.0, "t_s", ts, "mb_s", mb);
}

/* an SLC cliff at 7.25 s, the drive heating through it at full NAND load */
static double v_cliff(double t) { return t < 7 ? 3000 : t < 8 ? 3000 * 0.25 + 1000 * 0.75 : 1000; }
static double c_rising(double t) { return 80 - 40 * exp(-t / 30); }
/* and then a throttle at 36.5 s after which the temperature holds */
static double v_throttle(double t) { return t < 36 ? v_cliff(t) : t < 37 ? 1000 * 0.5 + 700 * 0.5 : 700; }
static double c_throttle(double t) { return t < 36.5 ? 40 + 35 * (1 - exp(-t / 15)) * 1.04 : c_throttle(36.4999) + 0.01 * (t - 36.5); }

TEST("The analysis calls a drop thermal where the temperature stops rising, and an SLC cliff with rising temperature not") {
  json_t *test, *entry;
  synth(&test, &entry, v_throttle, c_throttle, 90);
  json_t *o = analyze_thermal(test, entry, NULL);
  CHECK(json_is_true(json_object_get(o, "throttled")));
  CHECK_NEAR(analyze_json_num(o, "time_to_throttle_s", 0), 36.5, 0.1);
  CHECK_NEAR(analyze_json_num(o, "throttled_mb_s", 0), 700, 1);
  CHECK_NEAR(analyze_json_num(o, "before_mb_s", 0), 1000, 1);
  const json_t *pts = json_object_get(o, "points");
  REQUIRE(json_array_size(pts) == 2);
  CHECK(!json_is_true(json_object_get(json_array_get(pts, 0), "thermal"))); /* the cliff */
  CHECK_NEAR(analyze_json_num(json_array_get(pts, 0), "t_s", 0), 7.25, 0.05);
  CHECK(json_is_true(json_object_get(json_array_get(pts, 1), "thermal")));
  json_t *a = json_pack("{s:[O]}", "thermal", o);
  json_t *flags = analyze_flags(a);
  CHECK(json_array_size(flags) == 1);
  CHECK_STR(analyze_json_str(json_array_get(flags, 0), "id"), "thermal_step_throttle");
  json_decref(flags), json_decref(a), json_decref(o), json_decref(test), json_decref(entry);

  synth(&test, &entry, v_cliff, c_rising, 90);
  o = analyze_thermal(test, entry, NULL);
  CHECK(!json_is_true(json_object_get(o, "throttled")));
  CHECK(json_array_size(json_object_get(o, "points")) == 1);
  CHECK_STR(analyze_json_str(json_array_get(json_object_get(o, "points"), 0), "evidence"),
            "far below the peak temperature");
  a = json_pack("{s:[O]}", "thermal", o);
  flags = analyze_flags(a);
  CHECK(json_array_size(flags) == 0);
  json_decref(flags), json_decref(a), json_decref(o), json_decref(test), json_decref(entry);
}

/* the PM981 after its steady state: a sequential write held by GC to ~110
 * MB/s, a 10 s dip to 88 at 100 s, back at once, while the temperature
 * nears its equilibrium, its rise bending from 0.05 to 0.02 °C/s there (as
 * the review-full's thermal step showed: 58.7, 59.7, 60.2 °C at 80, 100,
 * 120 s) */
static double v_gc_dip(double t) { return t >= 100 && t < 110 ? 88 : 110; }
static double c_equilibrium(double t) { return t < 100 ? 54.7 + 0.05 * t : 59.7 + 0.02 * (t - 100); }
/* the same temperature with a throttle that holds from 100 s */
static double v_gc_throttle(double t) { return t >= 100 ? 88 : 110; }

TEST("A dip the speed comes back from is no throttle though the temperature bends there; one that holds is") {
  json_t *test, *entry;
  synth(&test, &entry, v_gc_dip, c_equilibrium, 300);
  json_t *o = analyze_thermal(test, entry, NULL);
  CHECK(!json_is_true(json_object_get(o, "throttled")));
  const json_t *pts = json_object_get(o, "points");
  REQUIRE(json_array_size(pts) == 1);
  CHECK_STR(analyze_json_str(json_array_get(pts, 0), "evidence"), "speed came back: no lasting throttle");
  CHECK(analyze_json_num(json_array_get(pts, 0), "hold_pct", 100) < 100 * ANALYZE_THERMAL_HOLD_SHARE);
  json_decref(o), json_decref(test), json_decref(entry);
  synth(&test, &entry, v_gc_throttle, c_equilibrium, 300);
  o = analyze_thermal(test, entry, NULL);
  CHECK(json_is_true(json_object_get(o, "throttled")));
  CHECK_NEAR(analyze_json_num(o, "time_to_throttle_s", 0), 100, 1);
  CHECK_NEAR(analyze_json_num(json_array_get(json_object_get(o, "points"), 0), "hold_pct", 0), 100, 1e-9);
  json_decref(o), json_decref(test), json_decref(entry);
}

/* a cliff when the drive is already near its peak, still heating at the same rate */
static double c_hot_rising(double t) { return 70 + 0.1 * t; }
/* held at 70.5 °C, cooling from the drop at 7.25 s on */
static double c_held_cooling(double t) { return t < 7.25 ? 70.5 : 70.5 - 0.2 * (t - 7.25); }

TEST("A tiny or denormal interval_s (a hostile analysis) clamps the drop window instead of casting an infinite count") {
  static const double dts[] = {1e-320, 1e-300, 5e-324};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) {
    json_t *test, *entry;
    synth(&test, &entry, v_throttle, c_throttle, 90);
    json_object_set_new(json_object_get(entry, "series"), "interval_s", json_real(dts[i]));
    json_t *o = analyze_thermal(test, entry, NULL);
    REQUIRE(o != NULL);
    CHECK(json_is_number(json_object_get(o, "interval_s")));
    json_decref(o), json_decref(test), json_decref(entry);
  }
}

TEST("A drop without temperature evidence is no throttle: no samples, or a temperature still climbing as fast") {
  json_t *test, *entry;
  synth(&test, &entry, v_cliff, NULL, 60);
  json_t *o = analyze_thermal(test, entry, NULL);
  CHECK(!json_is_true(json_object_get(o, "throttled")));
  CHECK_STR(analyze_json_str(json_array_get(json_object_get(o, "points"), 0), "evidence"), "no temperature samples");
  json_decref(o), json_decref(test), json_decref(entry);
  synth(&test, &entry, v_cliff, c_hot_rising, 12);
  o = analyze_thermal(test, entry, NULL);
  CHECK(!json_is_true(json_object_get(o, "throttled")));
  json_decref(o), json_decref(test), json_decref(entry);
  /* the same drop at the drive's warning threshold is no throttle either
   * (issue 24: an SLC cliff at the threshold, the NAND as busy as before
   * and the temperature rising on, was called the throttle) */
  synth(&test, &entry, v_cliff, c_hot_rising, 12);
  json_t *dut = json_pack("{s:f}", "warn_temp_c", 70.5);
  o = analyze_thermal(test, entry, dut);
  CHECK(!json_is_true(json_object_get(o, "throttled")));
  CHECK_STR(analyze_json_str(json_array_get(json_object_get(o, "points"), 0), "evidence"), "temperature kept rising");
  json_decref(o), json_decref(test), json_decref(entry);
  /* at the threshold, held there, the drop that makes it cool is one */
  synth(&test, &entry, v_cliff, c_held_cooling, 20);
  o = analyze_thermal(test, entry, dut);
  CHECK(json_is_true(json_object_get(o, "throttled")));
  CHECK_NEAR(analyze_json_num(o, "time_to_throttle_s", 0), 7.25, 0.05);
  CHECK_STR(analyze_json_str(json_array_get(json_object_get(o, "points"), 0), "evidence"), "cooling, threshold");
  json_decref(o), json_decref(test), json_decref(entry), json_decref(dut);
}

/* A throttle inside the cache (3000 -> 1500 MB/s at 6.25 s, the dies half
 * as busy: the rise bends) and the cliff to TLC under the cap at 14.25 s
 * (1500 -> 1000, the dies as busy as before: the temperature rises on, to
 * a peak far above the throttle's 52 °C). Issue 24: the throttle was
 * "far below the peak temperature". */
static double v_thr_in_cache(double t) {
  return t < 6 ? 3000 : t < 7 ? 3000 * 0.25 + 1500 * 0.75 : t < 14 ? 1500 : t < 15 ? 1500 * 0.25 + 1000 * 0.75 : 1000;
}
static double c_thr_in_cache(double t) {
  /* first order, 30 s: toward 100 °C at full load, 70 °C at half load */
  double T = 40, dt = 0.05;
  for (double x = 0; x < t; x += dt) T += ((x < 6.25 ? 100 : x < 14.25 ? 70 : 100) - T) * dt / 30;
  return T;
}

TEST("A throttle inside the cache is the throttle though the drive heats on after its cliff; the cliff is not") {
  json_t *test, *entry;
  synth(&test, &entry, v_thr_in_cache, c_thr_in_cache, 60);
  json_t *o = analyze_thermal(test, entry, NULL);
  CHECK(json_is_true(json_object_get(o, "throttled")));
  CHECK_NEAR(analyze_json_num(o, "time_to_throttle_s", 0), 6.25, 0.1);
  const json_t *pts = json_object_get(o, "points");
  REQUIRE(json_array_size(pts) == 2);
  CHECK(json_is_true(json_object_get(json_array_get(pts, 0), "thermal")));
  CHECK(!json_is_true(json_object_get(json_array_get(pts, 1), "thermal")));
  CHECK_STR(analyze_json_str(json_array_get(pts, 1), "evidence"), "temperature kept rising");
  json_decref(o), json_decref(test), json_decref(entry);
}

TEST("A throttle the thermal step found replaces the review-wide 'near the warning temperature, no drop' note") {
  const char *base = "{\"dut\": {\"warn_temp_c\": 81}, \"temperature\": {\"t_s\": [0], \"c\": [80]},"
                     " \"tests\": {\"steady\": {\"kind\": \"job\", \"series\": {\"mb_s\": [1,1,1,1,1,1,1,1,1,1,1,1]}}},"
                     " \"thermal\": [{\"test\": \"thermal.write\", \"throttled\": %s, \"time_to_throttle_s\": 40}]}";
  char text[512];
  snprintf(text, sizeof text, base, "false");
  json_t *a = json_loads(text, 0, NULL);
  REQUIRE(a != NULL);
  json_t *f = analyze_flags(a);
  int near = 0, step = 0;
  size_t i;
  json_t *x;
  json_array_foreach(f, i, x) near += !strcmp(analyze_json_str(x, "id"), "thermal_near_warn"),
      step += !strcmp(analyze_json_str(x, "id"), "thermal_step_throttle");
  CHECK(near == 1 && step == 0);
  json_decref(f), json_decref(a);
  snprintf(text, sizeof text, base, "true");
  a = json_loads(text, 0, NULL);
  REQUIRE(a != NULL);
  f = analyze_flags(a);
  near = step = 0;
  json_array_foreach(f, i, x) near += !strcmp(analyze_json_str(x, "id"), "thermal_near_warn"),
      step += !strcmp(analyze_json_str(x, "id"), "thermal_step_throttle");
  CHECK(near == 0 && step == 1);
  json_decref(f), json_decref(a);
}

/* The step's SMART thermal-management counters before and after the write. */
static void set_tmt(json_t *test, int n1, int s1, int n2, int s2) {
  json_object_set_new(test, "smart_thermal",
                      json_pack("{s:{s:i, s:i, s:i, s:i}, s:{s:i, s:i, s:i, s:i}}", "before", "tmt1_count", 3,
                                "tmt2_count", 1, "tmt1_s", 100, "tmt2_s", 10, "after", "tmt1_count", 3 + n1,
                                "tmt2_count", 1 + n2, "tmt1_s", 100 + s1, "tmt2_s", 10 + s2));
}

TEST("The drive's TMT counters decide: unchanged counters are no throttle, whatever plateau the temperature shows") {
  json_t *test, *entry;
  synth(&test, &entry, v_throttle, c_throttle, 90); /* the series alone call 36.5 s a throttle */
  set_tmt(test, 0, 0, 0, 0);
  json_t *o = analyze_thermal(test, entry, NULL);
  CHECK(!json_is_true(json_object_get(o, "throttled")));
  CHECK_STR(analyze_json_str(o, "throttle_evidence"), "smart");
  const json_t *pts = json_object_get(o, "points");
  REQUIRE(json_array_size(pts) == 2);
  for (size_t i = 0; i < 2; i++) {
    CHECK(!json_is_true(json_object_get(json_array_get(pts, i), "thermal")));
    CHECK_STR(analyze_json_str(json_array_get(pts, i), "evidence"), "SMART counters: no throttle");
  }
  json_t *a = json_pack("{s:[O]}", "thermal", o);
  json_t *flags = analyze_flags(a);
  CHECK(json_array_size(flags) == 0);
  json_decref(flags), json_decref(a), json_decref(o), json_decref(test), json_decref(entry);
}

TEST("Changed TMT counters make the drop at the throttle's start the throttle, one the temperature alone rejects") {
  json_t *test, *entry;
  /* a drop at 7.25 s far below the peak temperature (the series: no
   * throttle); the counters: one light throttle for the 83 s after it */
  synth(&test, &entry, v_cliff, c_rising, 90);
  set_tmt(test, 1, 83, 0, 0);
  json_t *o = analyze_thermal(test, entry, NULL);
  CHECK(json_is_true(json_object_get(o, "throttled")));
  CHECK_NEAR(analyze_json_num(o, "time_to_throttle_s", 0), 7.25, 0.05);
  CHECK_NEAR(analyze_json_num(o, "smart_throttle_s", 0), 83, 1e-9);
  CHECK_STR(analyze_json_str(json_array_get(json_object_get(o, "points"), 0), "evidence"), "SMART throttle counters");
  json_decref(o), json_decref(test), json_decref(entry);
  /* an SLC cliff at 7.25 s and a throttle at 36.5 s for the 53 s after it:
   * the cliff is not the throttle */
  synth(&test, &entry, v_throttle, c_throttle, 90);
  set_tmt(test, 1, 50, 1, 3);
  o = analyze_thermal(test, entry, NULL);
  CHECK(json_is_true(json_object_get(o, "throttled")));
  CHECK_NEAR(analyze_json_num(o, "time_to_throttle_s", 0), 36.5, 0.1);
  CHECK_NEAR(analyze_json_num(o, "throttled_mb_s", 0), 700, 1);
  const json_t *pts = json_object_get(o, "points");
  REQUIRE(json_array_size(pts) == 2);
  CHECK(!json_is_true(json_object_get(json_array_get(pts, 0), "thermal")));
  CHECK(json_is_true(json_object_get(json_array_get(pts, 1), "thermal")));
  json_decref(o), json_decref(test), json_decref(entry);
}

TEST("Changed TMT counters that no drop matches make none the throttle: not the nearest dip long before them") {
  json_t *test, *entry;
  /* a drop at 7.25 s with the temperature rising on to the end: a throttle
   * begun there would have run ~83 s, the counters' single one 40 s (a
   * throttle whose cap never slowed the write; a QLC model's was taken 8 s
   * into its write at 49 °C where the counters' began at ~48 s) */
  synth(&test, &entry, v_cliff, c_rising, 90);
  set_tmt(test, 1, 40, 0, 0);
  json_t *o = analyze_thermal(test, entry, NULL);
  CHECK(!json_is_true(json_object_get(o, "throttled")));
  CHECK_NEAR(analyze_json_num(o, "smart_throttle_s", 0), 40, 1e-9);
  const json_t *pts = json_object_get(o, "points");
  REQUIRE(json_array_size(pts) >= 1);
  CHECK(!json_is_true(json_object_get(json_array_get(pts, 0), "thermal")));
  CHECK_STR(analyze_json_str(json_array_get(pts, 0), "evidence"), "not the throttle the SMART counters time");
  CHECK(!json_object_get(o, "time_to_throttle_s"));
  json_decref(o), json_decref(test), json_decref(entry);
}

TEST("TMT counters longer than the drop's slow time (a level whose cap never bound) still place the drop") {
  json_t *test, *entry;
  /* the drop at 7.25 s slows the write for the ~83 s after it; the counters
   * say 143 s: a light level before it whose cap lay above the speed (a
   * Gen5 model's light throttle at 6000 MB/s under a 4400 MB/s write) */
  synth(&test, &entry, v_cliff, c_rising, 90);
  set_tmt(test, 1, 83, 1, 60);
  json_t *o = analyze_thermal(test, entry, NULL);
  CHECK(json_is_true(json_object_get(o, "throttled")));
  CHECK_NEAR(analyze_json_num(o, "time_to_throttle_s", 0), 7.25, 0.05);
  CHECK_NEAR(analyze_json_num(o, "smart_throttle_s", 0), 143, 1e-9);
  json_decref(o), json_decref(test), json_decref(entry);
}

TEST("TMT counters that go backwards (a reset, a hostile file) leave the judgment to the series") {
  json_t *test, *entry;
  synth(&test, &entry, v_throttle, c_throttle, 90);
  set_tmt(test, -1, 0, 0, 0);
  json_t *o = analyze_thermal(test, entry, NULL);
  CHECK_STR(analyze_json_str(o, "throttle_evidence"), "series");
  CHECK(json_is_true(json_object_get(o, "throttled")));
  CHECK_NEAR(analyze_json_num(o, "time_to_throttle_s", 0), 36.5, 0.1);
  CHECK(!json_object_get(o, "smart_throttle_s"));
  json_decref(o), json_decref(test), json_decref(entry);
}
