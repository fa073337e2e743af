/* log_decode_bench.c — in-cache decode speed of one 8192-value latency
 * column (17-bit PFOR with an outlier) and CRC32C speed; built and run by
 * perf/bench/log-size.sh. */
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"
#include "log/codec.h"
#include <stdlib.h>
#include <stdio.h>
int main(void) {
  enum { N = 8192 };
  static uint64_t v[N], sc[2*N], out[N+8]; static uint8_t buf[LOG_COL_HDR_BYTES + 3*8*N + 16];
  uint64_t s = 1;
  for (int i = 0; i < N; i++) { s = s * 6364136223846793005ull + 1442695040888963407ull; v[i] = 50000 + (s >> 40) % 100000; }
  v[5] = 3000000;
  size_t len = ssdlog_col_encode(buf, v, N, NULL, sc);
  printf("w=%u len=%zu\n", buf[3], len);
  const char *why; uint64_t t0 = ssdrev_clock_ns(), sum = 0;
  int reps = 20000;
  for (int r = 0; r < reps; r++) { ssdlog_col_decode(buf, len, N, out, NULL, sc, &why); sum += out[r % N]; }
  uint64_t dt = ssdrev_clock_ns() - t0;
  printf("decode %.3g values/s (%llu)\n", (double)N * reps / (dt / 1e9), (unsigned long long)sum);
  t0 = ssdrev_clock_ns(); uint32_t c = 0;
  for (int r = 0; r < reps; r++) c ^= ssdrev_crc32c(0, buf, len);
  dt = ssdrev_clock_ns() - t0;
  printf("crc %.3g bytes/s (%u)\n", (double)len * reps / (dt / 1e9), c);
  return 0;
}
