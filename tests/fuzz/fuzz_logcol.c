/* fuzz_logcol.c — the log's column codec (log/codec.c), the part of
 * the log reader that does the bit arithmetic, fuzzed directly (a whole-file
 * fuzzer rarely gets a chunk's CRC right, so it seldom reaches here).
 * Byte 0 picks the mode:
 *   even: decode — bytes 1-2 are the record count n (1..4096), the rest is
 *         one column; ssdlog_col_decode must validate every length and index.
 *   odd:  round trip — the rest is n little-endian u64 values (bit 1 of
 *         byte 0: with a latency column for LOG_TR_DELTA_DONE); encoding
 *         then decoding must give the values back exactly. */
#include "tests/fuzz/fuzz.h"
#include "log/codec.h"

#define FUZZ_LOGCOL_MAX 4096u

static int fuzz_logcol_one(const uint8_t *data, size_t size) {
  if (size < 3) return 0;
  /* Every buffer is malloc'd at exactly the size the codec's contract
   * names (log/codec.h), so a write one element past it is an ASan error. */
  static uint64_t lat[FUZZ_LOGCOL_MAX], v[FUZZ_LOGCOL_MAX];
  if (!(data[0] & 1)) {
    size_t n = 1 + ((size_t)data[1] | (size_t)data[2] << 8) % FUZZ_LOGCOL_MAX;
    for (size_t i = 0; i < n; i++) lat[i] = i * 7919u;
    size_t len = size - 3;
    /* an exact-size copy, so any read past the column is an ASan error */
    uint8_t *col = malloc(len ? len : 1);
    if (!col) abort();
    memcpy(col, data + 3, len);
    size_t n8 = (n + 7) & ~(size_t)7;
    uint64_t *out = malloc(n8 * sizeof *out), *dscratch = malloc(2 * n8 * sizeof *dscratch);
    if (!out || !dscratch) abort();
    const char *why = NULL;
    int rc = ssdlog_col_decode(col, len, n, out, (data[0] & 2) ? lat : NULL, dscratch, &why);
    if (rc && (rc != -EBADMSG || !why)) abort();
    (void)ssdlog_col_transform(col, len);
    free(col);
    free(out);
    free(dscratch);
    return 0;
  }
  size_t n = (size - 1) / 8;
  if (n == 0) return 0;
  if (n > FUZZ_LOGCOL_MAX) n = FUZZ_LOGCOL_MAX;
  for (size_t i = 0; i < n; i++) {
    memcpy(&v[i], data + 1 + 8 * i, 8);
    lat[i] = v[(i * 31) % n] >> (data[0] >> 2 & 63); /* some latency column, fuzz-shaped */
  }
  const uint64_t *l = (data[0] & 2) ? lat : NULL;
  size_t cap = log_col_max_bytes(n), n8 = (n + 7) & ~(size_t)7;
  uint8_t *buf = malloc(cap);
  uint64_t *scratch = malloc(2 * n * sizeof *scratch), *out = malloc(n8 * sizeof *out),
           *dscratch = malloc(2 * n8 * sizeof *dscratch);
  if (!buf || !scratch || !out || !dscratch) abort();
  size_t len = ssdlog_col_encode(buf, v, n, l, scratch);
  if (len == 0 || len > cap) abort();
  const char *why = NULL;
  if (ssdlog_col_decode(buf, len, n, out, l, dscratch, &why)) {
    fprintf(stderr, "fuzz_logcol: own encoding does not decode: %s\n", why);
    abort();
  }
  for (size_t i = 0; i < n; i++)
    if (out[i] != v[i]) {
      fprintf(stderr, "fuzz_logcol: value %zu of %zu: wrote %llu, read %llu\n", i, n,
              (unsigned long long)v[i], (unsigned long long)out[i]);
      abort();
    }
  free(buf);
  free(scratch);
  free(out);
  free(dscratch);
  return 0;
}

FUZZ_ENTRY(fuzz_logcol_one)
