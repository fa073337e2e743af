/* fuzz_log.c — the binary I/O log reader (log/reader.c) on arbitrary
 * files: open, stream every chunk with all columns, then again in salvage
 * mode with a column subset, rewind and read record by record. Checks the
 * reader's own accounting: records returned == stats.records, chunk and
 * record passes agree, and a file that reads cleanly reads the same when
 * salvaging. */
#include "tests/fuzz/fuzz.h"
#include "log/ssdlog.h"

/* Reads every chunk; returns the record count, or -1 after an error. */
static int64_t fuzz_log_drain(struct ssdlog_reader *r, unsigned cols) {
  struct ssdrev_err err = {{0}};
  struct ssdlog_chunk c;
  int64_t total = 0;
  volatile uint64_t sink = 0; /* touch every value so ASan sees each read */
  for (;;) {
    int n = ssdlog_next_chunk(r, cols, &c, &err);
    fuzz_check_err(&err);
    if (n < 0) {
      if (!err.msg[0]) abort();
      return -1;
    }
    if (n == 0) break;
    if ((size_t)n != c.n) abort();
    for (size_t i = 0; i < c.n; i++) {
      if (cols & SSDLOG_COL_SUBMIT) sink += c.submit_ns[i];
      if (cols & SSDLOG_COL_LAT) sink += c.lat_ns[i];
      if (cols & SSDLOG_COL_OFFSET) sink += c.offset_bytes[i];
      if (cols & SSDLOG_COL_LEN) sink += c.len_bytes[i];
      if (cols & SSDLOG_COL_STATUS) sink += (uint32_t)c.status[i];
      if (cols & SSDLOG_COL_QUEUE) sink += c.queue_id[i];
      if (cols & SSDLOG_COL_OP) sink += c.op[i];
      if (cols & SSDLOG_COL_FLAGS) sink += c.flags[i];
    }
    if (!(cols & SSDLOG_COL_LAT) && c.lat_ns) abort(); /* not asked, must be NULL */
    total += n;
  }
  (void)sink;
  struct ssdlog_stats st;
  ssdlog_get_stats(r, &st);
  if ((int64_t)st.records != total) abort();
  return total;
}

static int fuzz_log_one(const uint8_t *data, size_t size) {
  struct ssdrev_err err = {{0}};
  const char *path = fuzz_write("in.ssdlog", data, size);
  struct ssdlog_reader *r = NULL;
  int64_t strict = -1, salvaged = -1;
  if (ssdlog_open(&r, path, 0, &err) == 0) {
    const struct ssdlog_header *h = ssdlog_get_header(r);
    if (!h) abort();
    if (h->params_json) (void)strlen(h->params_json);
    strict = fuzz_log_drain(r, SSDLOG_COL_ALL);
    ssdlog_close(r);
  } else {
    fuzz_check_err(&err);
    if (!err.msg[0]) abort();
  }
  r = NULL;
  err.msg[0] = 0;
  if (ssdlog_open(&r, path, SSDLOG_SALVAGE, &err) == 0) {
    /* Only the columns asked for are checksummed, so a subset may keep a
     * chunk whose damage lies in a column it did not ask for: never fewer. */
    int64_t subset = fuzz_log_drain(r, SSDLOG_COL_LAT | SSDLOG_COL_OP | SSDLOG_COL_STATUS);
    if (ssdlog_rewind(r, &err) == 0) {
      salvaged = fuzz_log_drain(r, SSDLOG_COL_ALL);
      if (subset >= 0 && salvaged >= 0 && subset < salvaged) abort();
    }
    if (ssdlog_rewind(r, &err) == 0) {
      struct ssdlog_rec rec;
      int64_t n = 0;
      int rc;
      while ((rc = ssdlog_next(r, &rec, &err)) == 1) n++;
      if (rc == 0 && salvaged >= 0 && n != salvaged) abort(); /* two passes must agree */
    }
    ssdlog_close(r);
  }
  /* A file that reads cleanly must read the same when salvaging. */
  if (strict >= 0 && salvaged >= 0 && salvaged != strict) abort();
  return 0;
}

FUZZ_ENTRY(fuzz_log_one)
