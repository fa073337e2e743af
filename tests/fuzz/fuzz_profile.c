/* fuzz_profile.c — the review method file (bench/method/profile.c:
 * bench_review_profile_load) on arbitrary JSON, in normal and short mode; every
 * step of a method that loads is then estimated and described as
 * `ssdrev review --plan` does. A method loads in both modes or in neither.
 */
#include "tests/fuzz/fuzz.h"
#include "bench/method/review_int.h"

static int fuzz_profile_mode(const char *path, int short_mode) {
  struct ssdrev_err err = {{0}};
  static struct review_profile p; /* large (steps, cells): keep it off the stack */
  int rc = bench_review_profile_load(&p, path, short_mode, short_mode ? 2 : 0, &err);
  fuzz_check_err(&err);
  if (rc) {
    if (!err.msg[0] || p.json) abort(); /* refused, said why, freed everything */
    return 0;
  }
  if (p.nsteps == 0 || p.nsteps > REVIEW_MAX_STEPS) abort();
  const uint64_t caps[] = {256060514304ull, 1ull << 30, 512};
  for (unsigned i = 0; i < p.nsteps; i++) {
    const struct review_step *s = &p.steps[i];
    if (!s->kind || bench_review_profile_step(&p, s->id) == NULL) abort();
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
      char buf[1024];
      if (s->kind->estimate) (void)s->kind->estimate(&p, s, caps[c], REVIEW_BASIS_WORK);
      if (s->kind->describe) {
        s->kind->describe(&p, s, caps[c], buf, sizeof buf);
        if (strnlen(buf, sizeof buf) == sizeof buf) abort();
      }
    }
  }
  bench_review_profile_free(&p);
  return 1;
}

static int fuzz_profile_one(const uint8_t *data, size_t size) {
  const char *path = fuzz_write("method.json", data, size);
  /* every block is checked whatever the mode (issue 26): a method valid
   * in one mode and refused in the other would fail the day it is first
   * run the other way */
  if (fuzz_profile_mode(path, 0) != fuzz_profile_mode(path, 1)) abort();
  return 0;
}

FUZZ_ENTRY(fuzz_profile_one)
