/* gen_log_seeds.c — writes the seed logs of tests/fuzz/corpus/log/ with the
 * real writer (bench/log_writer.c): a fuzzer cannot guess a valid CRC, so it
 * starts from valid files and their damaged variants. Regenerate (after a
 * format change) with: sh tests/fuzz/gen_log_seeds.sh BUILD */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"

static int write_log(const char *path, size_t n, int chunks, uint64_t seed) {
  struct ssdrev_err err = {{0}};
  struct bench_log_writer *w;
  if (bench_log_writer_open(&w, path, BENCH_CLOCK_VIRTUAL, 1700000000000000000ull,
                            "{\"name\":\"seed\",\"qd\":4}", 1, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  uint64_t x = seed, t = 0;
  for (int c = 0; c < chunks; c++) {
    for (size_t i = 0; i < n; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      struct bench_rec r = {0};
      t += 1000 + (x >> 54);
      r.submit_ns = t;
      r.lat_ns = 20000 + (x >> 50);
      r.offset_bytes = ((x >> 20) % 4096) * 4096;
      r.len_bytes = (x & 1) ? 4096 : 131072;
      r.status = (x % 97) == 0 ? -5 : 0;
      r.queue_id = (uint16_t)(x >> 60);
      r.op = (uint8_t)((x >> 33) % 3);
      r.flags = i < 3 ? BENCH_REC_RAMP : 0;
      if (bench_log_append(w, &r, 1, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
    }
    if (bench_log_flush(w, 0, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
  }
  if (bench_log_writer_close(w, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) return fprintf(stderr, "usage: gen_log_seeds DIR\n"), 2;
  char p[4096];
  int rc = 0;
  snprintf(p, sizeof p, "%s/one-record.ssdlog", argv[1]);
  rc |= write_log(p, 1, 1, 1);
  snprintf(p, sizeof p, "%s/small.ssdlog", argv[1]);
  rc |= write_log(p, 40, 1, 2);
  snprintf(p, sizeof p, "%s/three-chunks.ssdlog", argv[1]);
  rc |= write_log(p, 20, 3, 3);
  snprintf(p, sizeof p, "%s/empty.ssdlog", argv[1]);
  rc |= write_log(p, 0, 0, 4);
  return rc;
}
