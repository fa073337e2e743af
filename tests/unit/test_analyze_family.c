/* test_analyze_family.c — the SLC estimate against the simulator's truth on
 * a family of drive models built for it (tests/data/models/fam-*.model:
 * caches of 0.25 to 200 GiB, static only, none, QLC, DRAM-less, GC-bound
 * post-cache, a mild cliff, a folding-bound third level). Each model: purge, a whole-drive sequential
 * fill, a 60 s idle, then the near-full rewrite of the fill_drive step.
 * Tolerances (docs/flags.md, "SLC estimate"): sizes within
 * max(5%, 1/16 GiB), speeds within 5%. Capacities are scaled down (16-640
 * GiB; the 640 GiB one writes 4 MiB blocks) so the suite stays fast. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include "analyze/analyze.h"
#include "tests/unit/testlib.h"
#include "tests/unit/simlib.h"

#define FAM_DIR "tests/data/models"

/* BYTES from 0 in BLOCK-byte I/Os at QD32. */
static int seq_write(struct bench_target *t, uint64_t bytes, uint32_t block, const char *log) {
  struct simlib_write sw = {.bytes = bytes, .block = block, .qd = 32};
  return simlib_seq_write(t, &sw, log, NULL);
}

static void check_model(const char *file, int *testlib_failed) {
  struct bench_target *t;
  struct ssdrev_err e = {{0}};
  if (simlib_open(&t, FAM_DIR, file, 11)) {
    CHECK(0);
    return;
  }
  struct sim *sim = bench_target_sim(t);
  REQUIRE(sim != NULL);
  uint64_t cap = bench_target_size_bytes(t);
  uint32_t block = cap > (UINT64_C(128) << 30) ? 4u << 20 : 128u << 10;
  cap = cap / block * block;
  const char *log1 = test_path("empty.ssdlog"), *log2 = test_path("near_full.ssdlog");
  remove(log1);
  remove(log2);
  struct sim_truth t0, t1, t2;
  sim_get_truth(sim, &t0);
  REQUIRE(seq_write(t, cap, block, log1) == 0);
  sim_get_truth(sim, &t1);
  sim_idle(sim, UINT64_C(60000000000));
  struct sim_truth t1b;
  sim_get_truth(sim, &t1b);
  /* the fill_drive step's default rewrite: a quarter of the capacity */
  uint64_t nf = cap / 4 / block * block;
  REQUIRE(seq_write(t, nf, block, log2) == 0);

  /* truth: where the host saw the cache run out (the first write after the
   * first TLC program that waited for the full buffer), checked against the
   * formula for where the drive ran out; the speeds the timing gives; the
   * whole post-cache phase as bytes over time */
  /* no cache: the first TLC program comes within the write buffer's worth */
  uint64_t buf = sim_get_model(sim)->write_buffer_bytes;
  int has_cache = t1.tlc_first_host_bytes > buf;
  double want_gib = (double)t1.cliff_host_bytes / GIB;
  CHECK(has_cache == (t0.empty_fill_cliff_bytes > 0));
  if (has_cache) CHECK_NEAR((double)t1.tlc_first_mapped_bytes, (double)t0.empty_fill_cliff_bytes, 4 << 20);
  double phase_mb_s = has_cache ? (double)(cap - t1.cliff_host_bytes) / ((double)(t1.now_ns - t1.cliff_ns) / 1e9) / 1e6 : NAN;
  sim_get_truth(sim, &t2);
  double nf_gib = !t2.tlc_first_ns ? NAN /* never ran out: a lower bound */
                  : t2.tlc_first_host_bytes > buf ? (double)t2.cliff_host_bytes / GIB : 0;
  double nf_room = (double)t1b.slc_cache_bytes_now / GIB;
  struct analyze_opts o;
  analyze_opts_defaults(&o);
  json_t *r1 = NULL, *r2 = NULL;
  REQUIRE(analyze_log(log1, &o, ANALYZE_WANT_FILL, &r1, &e) == 0);
  REQUIRE(analyze_log(log2, &o, ANALYZE_WANT_FILL, &r2, &e) == 0);
  const json_t *s1 = json_object_get(json_object_get(r1, "fill"), "slc");
  const json_t *s2 = json_object_get(json_object_get(r2, "fill"), "slc");
  int f1 = json_is_true(json_object_get(s1, "found")), f2 = json_is_true(json_object_get(s2, "found"));
  fprintf(stderr,
          "    %-18s empty: %s %.3f GiB (truth %.3f) %.0f MB/s (truth %.0f), post %.0f (truth %.0f) first %.0f "
          "(truth %.0f); near full: %s %.3f GiB (truth %.3f; room after idle %.3f)\n",
          file, f1 ? "found" : "none", simlib_num(s1, "cache_gib"), want_gib, simlib_num(s1, "cache_mb_s"), t0.slc_write_mb_s,
          simlib_num(s1, "post_cache_mb_s"), phase_mb_s, simlib_num(s1, "post_first_mb_s"), t0.post_cache_mb_s,
          f2 ? "found" : "none", simlib_num(s2, "cache_gib"), nf_gib, nf_room);
  CHECK(f1 == has_cache);
  if (has_cache && f1) {
    CHECK_NEAR(simlib_num(s1, "cache_gib"), want_gib, simlib_size_tol(want_gib));
    /* one cliff: the simulator has SLC and TLC only (on the GC model the
     * onset of GC, where the TLC speed gives way to a GC-bound one, may be
     * a second level; its slow decline after is no cascade of cliffs) */
    size_t nd = json_array_size(json_object_get(s1, "drops"));
    if (strstr(file, "gc")) CHECK(nd >= 1 && nd <= 2);
    else if (t1.fold_first_ns) {
      /* a third, folding-bound level (slc_fold_on_shrink): SLC -> direct
       * TLC -> folding-bound, each level where and as fast as the timing
       * makes it */
      CHECK_EQ_U64(nd, 2);
      const json_t *lv = json_object_get(s1, "levels");
      double fold_gib = (double)t1.fold_first_host_bytes / GIB;
      fprintf(stderr, "    %-18s levels: direct %.0f MB/s (truth %.0f), folding-bound from %.3f GiB (truth %.3f, formula %.3f) %.0f MB/s (truth %.0f)\n",
              file, simlib_num(json_array_get(lv, 1), "mb_s"), t0.post_cache_mb_s, simlib_num(json_array_get(lv, 2), "from_gib"),
              fold_gib, (double)t0.empty_fill_fold_bytes / GIB, simlib_num(json_array_get(lv, 2), "mb_s"), t0.fold_bound_mb_s);
      CHECK_NEAR((double)t1.fold_first_host_bytes, (double)t0.empty_fill_fold_bytes, 4 << 20);
      CHECK_NEAR(simlib_num(json_array_get(lv, 1), "mb_s"), t0.post_cache_mb_s, 0.05 * t0.post_cache_mb_s);
      CHECK_NEAR(simlib_num(json_array_get(lv, 2), "from_gib"), fold_gib, simlib_size_tol(fold_gib));
      CHECK_NEAR(simlib_num(json_array_get(lv, 2), "mb_s"), t0.fold_bound_mb_s, 0.05 * t0.fold_bound_mb_s);
    } else CHECK_EQ_U64(nd, 1);
    CHECK_NEAR(simlib_num(s1, "cache_mb_s"), t0.slc_write_mb_s, 0.05 * t0.slc_write_mb_s);
    CHECK_NEAR(simlib_num(s1, "post_cache_mb_s"), phase_mb_s, 0.05 * phase_mb_s);
    /* without GC the post-cache speed is the TLC program rate throughout */
    if (!strstr(file, "gc")) CHECK_NEAR(simlib_num(s1, "post_first_mb_s"), t0.post_cache_mb_s, 0.05 * t0.post_cache_mb_s);
  }
  if (!has_cache) {
    CHECK(json_is_null(json_object_get(s1, "cache_mb_s")));
    CHECK_NEAR(simlib_num(s1, "fill_mb_s"), t0.post_cache_mb_s, 0.05 * t0.post_cache_mb_s);
  }
  /* near full: found where the drive ran out, else nothing (a lower bound) */
  if (strstr(file, "gc")) {
    /* at full GC pressure the SLC writes pay the same GC steps per byte as
     * TLC ones: the host sees no near-full cliff (docs/flags.md) */
  } else if (nf_gib == 0) {
    CHECK(!f2);
  } else if (isfinite(nf_gib)) {
    CHECK(f2);
    CHECK_NEAR(simlib_num(s2, "cache_gib"), nf_gib, simlib_size_tol(nf_gib));
  } else {
    CHECK(!f2);
  }
  json_decref(r1);
  json_decref(r2);
  bench_target_close(t);
}

TEST("The SLC estimate matches the simulator's truth on every model of the family") {
  DIR *d = opendir(simlib_dir(FAM_DIR));
  REQUIRE(d != NULL);
  struct dirent *de;
  int n = 0;
  while ((de = readdir(d)) != NULL) {
    size_t l = strlen(de->d_name);
    if (l < 7 || strcmp(de->d_name + l - 6, ".model")) continue;
    check_model(de->d_name, testlib_failed);
    n++;
  }
  closedir(d);
  CHECK(n >= 10);
}
