/* fuzz_fiolog.c — the fio latency-log converter (import/fiolog.c:
 * import_fio_log_import, libcsv underneath) on arbitrary text, writing a real
 * ssdrev log; the log is then read back and must hold exactly the records
 * the converter counted. */
#include "tests/fuzz/fuzz.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

static int fuzz_fiolog_one(const uint8_t *data, size_t size) {
  struct ssdrev_err err = {{0}};
  const char *in = fuzz_write("job_lat.1.log", data, size);
  const char *out = fuzz_path("out.ssdlog");
  struct ssdlog_writer *w;
  if (ssdlog_writer_open(&w, out, SSDLOG_CLOCK_IMPORTED, 0, "{}", 1, &err)) {
    fprintf(stderr, "fuzz_fiolog: cannot open the writer: %s\n", err.msg);
    abort();
  }
  /* half the inputs with a duration limit (a time-based job of 1 s) */
  struct import_fio_log_fmt fmt = {.has_offset = -1, .queue_id = 3, .max_done_ns = size & 1 ? 602000000000ull : 0};
  struct import_fio_log_stats st;
  int rc = import_fio_log_import(in, &fmt, w, &st, &err);
  fuzz_check_err(&err);
  if (rc && !err.msg[0]) {
    fprintf(stderr, "fuzz_fiolog: failed (%d) without a message\n", rc);
    abort();
  }
  if (ssdlog_writer_close(w, &err)) abort();
  if (rc) return 0;
  if (st.by_op[0] + st.by_op[1] + st.by_op[2] > st.lines) abort(); /* flushes (ddir 3) are not in by_op */
  struct ssdlog_reader *r;
  if (ssdlog_open(&r, out, 0, &err)) {
    fprintf(stderr, "fuzz_fiolog: converted log does not open: %s\n", err.msg);
    abort();
  }
  struct ssdlog_rec rec;
  uint64_t n = 0, bytes = 0;
  while ((rc = ssdlog_next(r, &rec, &err)) == 1) {
    n++;
    bytes += rec.len_bytes;
    if (rec.queue_id != 3 || rec.op > SSDLOG_OP_FLUSH) abort();
    /* every converted record passes the analysis' rule (issue 26 item 18) */
    char why[256];
    if (ssdlog_rec_check(rec.submit_ns, rec.lat_ns, 1, rec.offset_bytes, rec.len_bytes, fmt.max_done_ns, why,
                         sizeof why)) {
      fprintf(stderr, "fuzz_fiolog: converted a record the analysis refuses: %s\n", why);
      abort();
    }
  }
  if (rc < 0) {
    fprintf(stderr, "fuzz_fiolog: converted log does not read: %s\n", err.msg);
    abort();
  }
  ssdlog_close(r);
  if (n != st.lines || bytes != st.bytes) {
    fprintf(stderr, "fuzz_fiolog: %llu records read back, %llu converted\n",
            (unsigned long long)n, (unsigned long long)st.lines);
    abort();
  }
  return 0;
}

FUZZ_ENTRY(fuzz_fiolog_one)
