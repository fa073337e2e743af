/* testlib.h — a tiny unit-test harness: one binary per tests/unit/test_*.c.
 *
 *   TEST("A log written and read back yields the same records") { ... CHECK(x == y); }
 *
 * Each test is a sentence. CHECK records a failure and carries on; REQUIRE
 * stops the test; TEST_SKIP("no writable /dev/full") ends a test that cannot
 * run here, which then counts as skipped (not passed), unless a check had
 * already failed. main() (defined here, so include this header once per
 * binary) runs every test, prints one line per test ("ok   NAME",
 * "FAIL NAME" or "skip NAME: REASON") and a closing line
 * "N passed, N failed, N skipped" that tests/run.sh adds up. */
#ifndef SSDREV_TESTLIB_H
#define SSDREV_TESTLIB_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <inttypes.h>

typedef void (*testlib_fn)(int *failed);
struct testlib_case { const char *name; testlib_fn fn; const char *file; };
static struct testlib_case testlib_cases[512];
static int testlib_ncases;

#define TESTLIB_CAT2(a, b) a##b
#define TESTLIB_CAT(a, b) TESTLIB_CAT2(a, b)
#define TEST(sentence) TESTLIB_BODY(sentence, TESTLIB_CAT(testlib_fn_, __LINE__))
#define TESTLIB_BODY(sentence, tfn) \
  static void tfn(int *testlib_failed); \
  __attribute__((constructor)) static void TESTLIB_CAT(tfn, _reg)(void) { \
    testlib_cases[testlib_ncases].name = sentence; \
    testlib_cases[testlib_ncases].fn = tfn; \
    testlib_cases[testlib_ncases++].file = __FILE__; } \
  static void tfn(int *testlib_failed)

/* The reason the running test skipped itself, or NULL. */
static const char *testlib_skip_reason;
#define TEST_SKIP(reason) do { testlib_skip_reason = (reason); return; } while (0)

#define CHECK(cond) do { if (!(cond)) { *testlib_failed = 1; \
  fprintf(stderr, "    %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define REQUIRE(cond) do { if (!(cond)) { *testlib_failed = 1; \
  fprintf(stderr, "    %s:%d: required: %s\n", __FILE__, __LINE__, #cond); return; } } while (0)
#define CHECK_EQ_U64(a, b) do { uint64_t testlib_a = (a), testlib_b = (b); if (testlib_a != testlib_b) { \
  *testlib_failed = 1; fprintf(stderr, "    %s:%d: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n", \
  __FILE__, __LINE__, #a, #b, testlib_a, testlib_b); } } while (0)
#define CHECK_NEAR(a, b, tol) do { double testlib_a = (a), testlib_b = (b); \
  if (!(testlib_a - testlib_b <= (tol) && testlib_b - testlib_a <= (tol))) { *testlib_failed = 1; \
  fprintf(stderr, "    %s:%d: %s ~ %s failed: %.9g vs %.9g\n", __FILE__, __LINE__, #a, #b, testlib_a, testlib_b); } } while (0)
#define CHECK_STR(a, b) do { const char *testlib_a = (a), *testlib_b = (b); \
  if (!testlib_a || !testlib_b || strcmp(testlib_a, testlib_b)) { *testlib_failed = 1; \
  fprintf(stderr, "    %s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__, testlib_a ? testlib_a : "(null)", testlib_b ? testlib_b : "(null)"); } } while (0)
#define CHECK_CONTAINS(hay, needle) do { const char *testlib_h = (hay); \
  if (!testlib_h || !strstr(testlib_h, (needle))) { *testlib_failed = 1; \
  fprintf(stderr, "    %s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, testlib_h ? testlib_h : "(null)", (needle)); } } while (0)

/* A scratch directory unique to this test binary, created on first use and
 * removed (with everything in it) at exit. */
static char testlib_tmp[256];
static void testlib_rmtmp(void) {
  char cmd[300];
  if (testlib_tmp[0] && strncmp(testlib_tmp, "/tmp/ssdrev-test.", 17) == 0) {
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", testlib_tmp);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", testlib_tmp);
  }
}
static inline const char *test_tmpdir(void) {
  if (!testlib_tmp[0]) {
    snprintf(testlib_tmp, sizeof testlib_tmp, "/tmp/ssdrev-test.XXXXXX");
    if (!mkdtemp(testlib_tmp)) { perror("mkdtemp"); exit(2); }
    atexit(testlib_rmtmp);
  }
  return testlib_tmp;
}
/* Path of NAME inside the scratch directory, in a rotating static buffer. */
static inline const char *test_path(const char *name) {
  static char bufs[8][512]; static int i;
  char *b = bufs[i++ & 7];
  snprintf(b, 512, "%s/%s", test_tmpdir(), name);
  return b;
}

int main(int argc, char **argv) {
  int passed = 0, failed = 0, skipped = 0;
  const char *only = argc > 1 ? argv[1] : NULL;
  for (int i = 0; i < testlib_ncases; i++) {
    if (only && !strstr(testlib_cases[i].name, only)) continue;
    int f = 0;
    testlib_skip_reason = NULL;
    testlib_cases[i].fn(&f);
    if (f) { printf("FAIL %s\n", testlib_cases[i].name); failed++; }
    else if (testlib_skip_reason) { printf("skip %s: %s\n", testlib_cases[i].name, testlib_skip_reason); skipped++; }
    else { printf("ok   %s\n", testlib_cases[i].name); passed++; }
    fflush(stdout);
  }
  printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? 1 : 0;
}
#endif
