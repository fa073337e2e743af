/* fiolog.c — fio per-I/O latency logs (write_lat_log with
 * log_avg_msec=0) into ssdrev binary logs, streamed through libcsv so memory
 * stays bounded whatever the log length. */
#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "log/ssdlog.h"
#include "import/import.h"

#define FIOLOG_BATCH 4096u
#define FIOLOG_MAX_COLS 16u

struct fiolog_state {
  const char *path;
  const struct import_fio_log_fmt *fmt;
  struct ssdlog_writer *w;
  struct import_fio_log_stats *st;
  struct ssdrev_err *err;
  int rc;                        /* first error; parsing stops on it */
  int has_offset;                /* resolved on the first record */
  unsigned ncols;                /* fields in the current record */
  uint64_t col[FIOLOG_MAX_COLS]; /* parsed fields of the current record */
  int col_ok[FIOLOG_MAX_COLS];   /* field parsed as a number */
  int col_hex[FIOLOG_MAX_COLS];  /* field was written as 0x... (log_prio=1) */
  uint64_t line;                 /* the file line (1-based) where the current record began */
  uint64_t next_line;            /* the file line where the next record begins */
  uint64_t nl_in_fields;         /* newlines inside the current record's (quoted) fields */
  int last_term;                 /* the character that ended the last record (CR of a CR LF) */
  uint64_t seq_cursor[4];        /* seq_rebuild: bytes logged so far per direction */
  struct ssdlog_rec batch[FIOLOG_BATCH];
  size_t nbatch;
};

static int fiolog_flush(struct fiolog_state *s) {
  if (!s->nbatch || s->rc) return s->rc;
  int rc = ssdlog_append(s->w, s->batch, s->nbatch, s->err);
  s->nbatch = 0;
  if (rc) s->rc = rc;
  return rc;
}

/* Field callback: parse the number now so only integers are kept per row. */
static void fiolog_field(void *data, size_t len, void *arg) {
  struct fiolog_state *s = arg;
  if (s->rc) return;
  /* a quoted field may hold line breaks: the next records' lines move on */
  for (const char *q = data, *e = q + len; q && (q = memchr(q, '\n', (size_t)(e - q))); q++) s->nl_in_fields++;
  unsigned i = s->ncols++;
  if (i >= FIOLOG_MAX_COLS) return; /* extra columns of future fio versions */
  char buf[32];
  s->col_ok[i] = 0;
  s->col_hex[i] = 0;
  if (len == 0 || len >= sizeof buf) return;
  memcpy(buf, data, len);
  buf[len] = 0;
  if (buf[0] == '-' || buf[0] == '+') return;
  char *end;
  errno = 0;
  /* base 0: log_prio=1 writes the priority as 0x%04x */
  unsigned long long v = strtoull(buf, &end, 0);
  if (errno || *end) return;
  s->col[i] = v;
  s->col_ok[i] = 1;
  s->col_hex[i] = len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
}

/* Record callback, also for every line break outside a record
 * (CSV_REPALL_NL), so that blank lines count and messages name the file's
 * own line: libcsv skipped them, and a bad line after a blank one was named
 * a line too early. The LF of a CR LF ends no line of its own. */
static void fiolog_record(int c, void *arg) {
  struct fiolog_state *s = arg;
  unsigned n = s->ncols;
  s->ncols = 0;
  int crlf_tail = n == 0 && c == '\n' && s->last_term == '\r';
  s->last_term = c;
  s->line = s->next_line;
  if (!crlf_tail) s->next_line += 1 + s->nl_in_fields;
  s->nl_in_fields = 0;
  if (s->rc || n == 0) return;
  if (n < 4) {
    s->rc = ssdrev_fail(s->err, -EINVAL,
                        "bad fio log '%s' line %llu: %u columns, expected at least 4 "
                        "(time_ms, value, ddir, bs)",
                        s->path, (unsigned long long)s->line, n);
    return;
  }
  if (!s->st->columns) {
    s->st->columns = n;
    /* fio 3.x writes "t, v, ddir, bs, prio" or "t, v, ddir, bs, offset, prio";
     * fio 2.x's 5-column offset logs need has_offset = 1 from the caller. */
    s->has_offset = s->fmt->has_offset >= 0 ? s->fmt->has_offset : n >= 6;
  }
  unsigned need = s->has_offset ? 5 : 4;
  for (unsigned i = 0; i < need && i < FIOLOG_MAX_COLS; i++) {
    if (i >= n || !s->col_ok[i] || (i == 4 && s->col_hex[i])) {
      s->rc = ssdrev_fail(s->err, -EINVAL,
                          "bad fio log '%s' line %llu: column %u is not a non-negative integer%s",
                          s->path, (unsigned long long)s->line, i + 1,
                          i == 4 ? " (is it a log_offset=1 log? see --log-offset)" : "");
      return;
    }
  }
  uint64_t t_ms = s->col[0], lat_ns = s->col[1], ddir = s->col[2], bs = s->col[3];
  if (s->fmt->bw_log) {
    /* KiB/s of one I/O: its time is bs over that rate */
    if (!s->col[1]) {
      s->rc = ssdrev_fail(s->err, -EINVAL, "bad fio bandwidth log '%s' line %llu: bandwidth 0 KiB/s", s->path,
                          (unsigned long long)s->line);
      return;
    }
    long double l = (long double)bs * 1e9L / ((long double)s->col[1] * 1024.0L);
    lat_ns = l >= (long double)INT64_MAX ? (uint64_t)INT64_MAX + 1 : (uint64_t)(l + 0.5L);
  }
  if (!bs) {
    /* fio's averaged logs (log_avg_msec > 0) write one mean per window and
     * direction with bs 0: no I/O of them can become a record */
    s->rc = ssdrev_fail(s->err, -EINVAL,
                        "fio log '%s' line %llu has bs 0: it is an averaged log (log_avg_msec > 0: one mean per "
                        "window), not a per-I/O log; rerun fio with log_avg_msec=0 for per-I/O latencies",
                        s->path, (unsigned long long)s->line);
    return;
  }
  if (ddir > 3 || bs > UINT32_MAX) {
    s->rc = ssdrev_fail(s->err, -EINVAL, "bad fio log '%s' line %llu: %s %llu out of range", s->path,
                        (unsigned long long)s->line, ddir > 3 ? "ddir" : "bs",
                        (unsigned long long)(ddir > 3 ? ddir : bs));
    return;
  }
  /* t_ms in ns must fit a signed 64-bit clock: 2^43 ms (278 years) x 10^6
   * is 8.8e18 ns. Beyond, t_ms * 10^6 wrapped and gave a garbage submit
   * time. */
  if (t_ms > (1ull << 43)) {
    s->rc = ssdrev_fail(s->err, -EINVAL, "bad fio log '%s' line %llu: time %llu ms out of range", s->path,
                        (unsigned long long)s->line, (unsigned long long)t_ms);
    return;
  }
  struct ssdlog_rec *r = &s->batch[s->nbatch];
  memset(r, 0, sizeof *r);
  /* fio stamps the sample at completion with a millisecond clock, so the
   * submit time is completion - latency, good to about 1 ms. */
  uint64_t done_ns = t_ms * 1000000ull;
  if (lat_ns > done_ns) {
    r->submit_ns = 0;
    s->st->clamped++;
  } else {
    r->submit_ns = done_ns - lat_ns;
  }
  r->lat_ns = lat_ns;
  r->offset_bytes = s->has_offset ? s->col[4] : 0;
  if (!s->has_offset && s->fmt->seq_rebuild && ddir < 3) {
    uint64_t cur = s->seq_cursor[ddir], span = s->fmt->seq_span_bytes;
    r->offset_bytes = s->fmt->seq_start_bytes + (span ? cur % span : cur);
    if (r->offset_bytes > (uint64_t)INT64_MAX - bs || cur > (uint64_t)INT64_MAX - bs) {
      s->rc = ssdrev_fail(s->err, -EINVAL, "bad fio log '%s' line %llu: rebuilt offset %llu + bs %llu is beyond 2^63",
                          s->path, (unsigned long long)s->line, (unsigned long long)r->offset_bytes,
                          (unsigned long long)bs);
      return;
    }
    s->seq_cursor[ddir] = cur + bs;
    s->st->rebuilt++;
  }
  r->len_bytes = (uint32_t)bs;
  /* a record the analysis would refuse (a latency or an offset + length
   * beyond 63 bits, a completion far past the test's duration) is refused
   * here, by the same rule, where the line is known */
  char why[256];
  if (ssdlog_rec_check(r->submit_ns, r->lat_ns, 1, r->offset_bytes, r->len_bytes, s->fmt->max_done_ns, why,
                       sizeof why)) {
    s->rc = ssdrev_fail(s->err, -EINVAL, "bad fio log '%s' line %llu: %s", s->path, (unsigned long long)s->line, why);
    return;
  }
  s->nbatch++;
  if (s->fmt->ramp_ns && r->submit_ns < s->fmt->ramp_ns) r->flags |= SSDLOG_REC_RAMP;
  r->queue_id = s->fmt->queue_id;
  r->op = ddir == 3 ? SSDLOG_OP_FLUSH : (uint8_t)ddir; /* fio's DDIR_SYNC is 3 */
  s->st->lines++;
  if (ddir < 3) s->st->by_op[ddir]++;
  s->st->bytes += bs;
  if (t_ms > s->st->max_time_ms) s->st->max_time_ms = t_ms;
  if (s->nbatch == FIOLOG_BATCH) fiolog_flush(s);
}

int import_fio_log_import(const char *path, const struct import_fio_log_fmt *fmt,
                         struct ssdlog_writer *w, struct import_fio_log_stats *st,
                         struct ssdrev_err *err) {
  memset(st, 0, sizeof *st);
  /* a regular file only (a FIFO would block, /dev/zero never end) */
  int fd = ssdrev_open_read(path, NULL, err);
  if (fd < 0) return fd;
  FILE *f = fdopen(fd, "r");
  if (!f) {
    int e = errno;
    close(fd);
    return ssdrev_fail(err, -e, "cannot open fio log '%s': %s", path, strerror(e));
  }
  struct fiolog_state *s = calloc(1, sizeof *s);
  if (!s) {
    fclose(f);
    return ssdrev_fail(err, -ENOMEM, "out of memory reading '%s'", path);
  }
  s->path = path;
  s->fmt = fmt;
  s->w = w;
  s->st = st;
  s->err = err;
  s->next_line = 1;
  struct csv_parser p;
  if (csv_init(&p, CSV_REPALL_NL)) {
    free(s);
    fclose(f);
    return ssdrev_fail(err, -ENOMEM, "cannot set up the CSV parser for '%s'", path);
  }
  char buf[65536];
  size_t n;
  while (!s->rc && (n = fread(buf, 1, sizeof buf, f)) > 0) {
    if (csv_parse(&p, buf, n, fiolog_field, fiolog_record, s) != n && !s->rc)
      s->rc = ssdrev_fail(err, -EINVAL, "bad fio log '%s' near line %llu: %s", path,
                          (unsigned long long)s->next_line, csv_strerror(csv_error(&p)));
  }
  if (!s->rc && ferror(f)) {
    int e = errno ? errno : EIO;
    s->rc = ssdrev_fail(err, -e, "cannot read fio log '%s': %s", path, strerror(e));
  }
  if (!s->rc) csv_fini(&p, fiolog_field, fiolog_record, s);
  fiolog_flush(s);
  int rc = s->rc;
  csv_free(&p);
  fclose(f);
  free(s);
  return rc;
}
