/* reader.c — streaming reader of the binary I/O log (docs/log-format.md).
 * The file is mapped read-only (no copy; the mapped pages are shared page
 * cache, not the reader's memory) and walked chunk by chunk; only the
 * columns a caller asks for are checksummed and decoded, into arrays owned
 * by the reader (bounded by the format's 65536-record chunk limit). Every length
 * read from the file is checked against the file size before use. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "log/ssdlog.h"
#include "log/codec.h"


static const char *const col_names[LOG_NCOLS] = {"submit_ns", "lat_ns",   "offset_bytes",
                                                 "len_bytes", "status",   "queue_id",
                                                 "op",        "flags"};

struct ssdlog_reader {
  int fd;
  char path[4096];
  unsigned flags;
  const uint8_t *map;
  size_t size;
  uint64_t data_start; /* first chunk */
  uint64_t pos;        /* next chunk */
  uint64_t released;   /* map bytes before this were given back (page-aligned) */
  struct ssdlog_header hdr;
  struct ssdlog_stats st;
  size_t cap;                /* capacity of the arrays below (multiple of 8) */
  uint64_t *v[LOG_NCOLS];    /* decoded u64 columns (narrow ones converted below) */
  uint64_t *scratch;         /* 2 * cap, for exceptions */
  uint32_t *len;
  int32_t *status;
  uint16_t *queue;
  uint8_t *op, *fl;
  uint64_t fill_val[LOG_NCOLS]; /* value a narrow array holds throughout ... */
  size_t fill_n[LOG_NCOLS];     /* ... for this many records (0: not constant) */
  struct ssdlog_chunk cur; /* for ssdlog_next */
  size_t cur_i;
};

static int grow(struct ssdlog_reader *r, size_t n) {
  size_t cap = (n + 7) & ~(size_t)7;
  if (cap <= r->cap) return 0;
  for (int c = 0; c < LOG_NCOLS; c++) {
    free(r->v[c]);
    r->v[c] = malloc(cap * sizeof(uint64_t));
  }
  free(r->len), free(r->status), free(r->queue), free(r->op), free(r->fl), free(r->scratch);
  r->scratch = malloc(2 * cap * sizeof *r->scratch);
  r->len = malloc(cap * sizeof *r->len);
  r->status = malloc(cap * sizeof *r->status);
  r->queue = malloc(cap * sizeof *r->queue);
  r->op = malloc(cap);
  r->fl = malloc(cap);
  memset(r->fill_n, 0, sizeof r->fill_n);
  int ok = r->scratch && r->len && r->status && r->queue && r->op && r->fl;
  for (int c = 0; c < LOG_NCOLS; c++) ok = ok && r->v[c];
  r->cap = ok ? cap : 0;
  return ok ? 0 : -ENOMEM;
}

int ssdlog_open(struct ssdlog_reader **rp, const char *path, unsigned flags,
                   struct ssdrev_err *err) {
  *rp = NULL;
  if (strlen(path) >= sizeof((*rp)->path))
    return ssdrev_fail(err, -ENAMETOOLONG, "cannot open I/O log '%s': path too long", path);
  struct stat sb;
  struct ssdrev_err oe = {{0}};
  int fd = ssdrev_open_read(path, &sb, &oe); /* regular files only: a FIFO would block */
  if (fd < 0) {
    if (fd == -EINVAL || fd == -EISDIR) return ssdrev_fail(err, fd, "%s", oe.msg); /* "not a regular file (fifo)" */
    return ssdrev_fail(err, fd, "cannot open I/O log '%s': %s", path, strerror(-fd));
  }
  size_t size = (size_t)sb.st_size;
  if (size < LOG_FILE_FIXED_BYTES + 4) {
    close(fd);
    return ssdrev_fail(err, -EINVAL, "'%s' is not an ssdrev I/O log: %zu bytes, shorter than a header",
                       path, size);
  }
  const uint8_t *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    int e = errno;
    close(fd);
    return ssdrev_fail(err, -e, "cannot map I/O log '%s': %s", path, strerror(e));
  }
  madvise((void *)map, size, MADV_SEQUENTIAL);
  struct ssdlog_reader *r = calloc(1, sizeof *r);
  if (!r) {
    munmap((void *)map, size);
    close(fd);
    return ssdrev_fail(err, -ENOMEM, "cannot open I/O log '%s': out of memory", path);
  }
  r->fd = fd;
  r->map = map;
  r->size = size;
  r->flags = flags;
  snprintf(r->path, sizeof r->path, "%s", path);
  r->st.file_bytes = size;
  int rc = 0;
  uint32_t plen = log_get32(map + LOG_FH_PARAMS_LEN);
  if (memcmp(map, LOG_FILE_MAGIC, 8)) {
    rc = ssdrev_fail(err, -EINVAL, "'%s' is not an ssdrev I/O log: bad magic", path);
  } else if (log_get32(map + LOG_FH_VERSION) != LOG_VERSION) {
    rc = ssdrev_fail(err, -ENOTSUP, "unsupported I/O log version %u in '%s' (this ssdrev reads version %u)",
                     log_get32(map + LOG_FH_VERSION), path, LOG_VERSION);
  } else if (plen > LOG_PARAMS_MAX_BYTES || LOG_FILE_FIXED_BYTES + (uint64_t)plen + 4 > size) {
    rc = ssdrev_fail(err, -EBADMSG, "corrupt header in I/O log '%s': params length %u exceeds the file",
                     path, plen);
  } else if (log_get32(map + LOG_FILE_FIXED_BYTES + plen) !=
             ssdrev_crc32c(0, map, LOG_FILE_FIXED_BYTES + plen)) {
    rc = ssdrev_fail(err, -EBADMSG, "corrupt header in I/O log '%s': CRC32C mismatch", path);
  } else if (!(r->hdr.params_json = malloc(plen + 1u))) {
    rc = ssdrev_fail(err, -ENOMEM, "cannot open I/O log '%s': out of memory", path);
  }
  if (rc) {
    ssdlog_close(r);
    return rc;
  }
  memcpy(r->hdr.params_json, map + LOG_FILE_FIXED_BYTES, plen);
  r->hdr.params_json[plen] = 0;
  r->hdr.version = LOG_VERSION;
  r->hdr.clock_source = log_get32(map + LOG_FH_CLOCK);
  r->hdr.start_unix_ns = log_get64(map + LOG_FH_START);
  r->data_start = r->pos = LOG_FILE_FIXED_BYTES + (uint64_t)plen + 4;
  *rp = r;
  return 0;
}

const struct ssdlog_header *ssdlog_get_header(const struct ssdlog_reader *r) {
  return &r->hdr;
}

/* A chunk header at `off` that is whole, has the magic, a good CRC and
 * consistent lengths. Returns 1 if so, 0 if not (with the reason). */
static int header_ok(const struct ssdlog_reader *r, uint64_t off, const char **why) {
  const uint8_t *h = r->map + off;
  if (log_get32(h + LOG_CH_MAGIC) != LOG_CHUNK_MAGIC) return *why = "bad chunk magic", 0;
  if (log_get32(h + LOG_CH_CRC) != ssdrev_crc32c(0, h, LOG_CH_CRC)) return *why = "CRC32C mismatch", 0;
  uint32_t n = log_get32(h + LOG_CH_RECORDS);
  uint64_t sum = 0;
  for (int c = 0; c < LOG_NCOLS; c++) sum += log_get32(h + LOG_CH_COL_LEN(c));
  if (n == 0 || n > LOG_CHUNK_MAX_RECORDS || sum != log_get32(h + LOG_CH_PAYLOAD))
    return *why = "inconsistent chunk header", 0;
  return 1;
}

/* The next offset after `off` holding a valid chunk header, or the file size. */
static uint64_t resync(const struct ssdlog_reader *r, uint64_t off) {
  static const uint8_t magic[4] = {'S', 'R', 'C', 'K'};
  uint64_t q = off + 1;
  while (q + LOG_CHUNK_HDR_BYTES <= r->size) {
    const uint8_t *m = memmem(r->map + q, r->size - q, magic, 4);
    if (!m) break;
    q = (uint64_t)(m - r->map);
    const char *why;
    if (q + LOG_CHUNK_HDR_BYTES <= r->size && header_ok(r, q, &why)) return q;
    q++;
  }
  return r->size;
}

static int all_zero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return 0;
  return 1;
}

/* Reports a corrupt chunk: an error, or with SSDLOG_SALVAGE a skip to
 * `next` (0 = unknown length: scan for the next chunk header). */
static int corrupt(struct ssdlog_reader *r, uint64_t off, uint64_t next, uint32_t n,
                   const char *col, const char *why, struct ssdrev_err *err) {
  if (!(r->flags & SSDLOG_SALVAGE))
    return ssdrev_fail(err, -EBADMSG, "corrupt chunk in '%s' at byte %llu: %s%s%s", r->path,
                       (unsigned long long)off, col ? col : "", col ? ": " : "", why);
  r->st.skipped_chunks++;
  r->st.skipped_records += n;
  r->pos = next ? next : resync(r, off);
  return 1; /* skipped: try the next chunk */
}

/* Hands the mapped pages behind the reader back every 16 MiB: decoded
 * columns live in their own arrays, and without this a streaming pass over a
 * big log would keep the whole file mapped in (the process's RSS would grow
 * with the record count). The pages stay in the page cache. */
static void release_behind(struct ssdlog_reader *r) {
  const uint64_t step = 16u << 20;
  if (r->pos < r->released + 2 * step) return;
  uint64_t upto = (r->pos - step) & ~(uint64_t)4095;
  madvise((void *)(r->map + r->released), (size_t)(upto - r->released), MADV_DONTNEED);
  r->released = upto;
}

int ssdlog_next_chunk(struct ssdlog_reader *r, unsigned cols, struct ssdlog_chunk *out,
                         struct ssdrev_err *err) {
  memset(out, 0, sizeof *out);
  for (;;) {
    uint64_t off = r->pos;
    if (off >= r->size) return 0;
    uint64_t left = r->size - off;
    const char *why;
    if (left < LOG_CHUNK_HDR_BYTES || !header_ok(r, off, &why)) {
      /* a short or zero-filled tail is what a crash leaves behind */
      if (left < LOG_CHUNK_HDR_BYTES || all_zero(r->map + off, (size_t)left)) {
        r->st.truncated = 1;
        r->st.truncated_at = off;
        r->pos = r->size;
        return 0;
      }
      int rc = corrupt(r, off, 0, 0, NULL, why, err);
      if (rc < 0) return rc;
      continue;
    }
    const uint8_t *h = r->map + off;
    uint32_t n = log_get32(h + LOG_CH_RECORDS);
    uint64_t payload = log_get32(h + LOG_CH_PAYLOAD), next = off + LOG_CHUNK_HDR_BYTES + payload;
    if (next > r->size) {
      r->st.truncated = 1;
      r->st.truncated_at = off;
      r->pos = r->size;
      return 0;
    }
    const uint8_t *cp[LOG_NCOLS];
    uint32_t cl[LOG_NCOLS];
    const uint8_t *p = h + LOG_CHUNK_HDR_BYTES;
    for (int c = 0; c < LOG_NCOLS; c++) {
      cp[c] = p;
      cl[c] = log_get32(h + LOG_CH_COL_LEN(c));
      out->col_bytes[c] = cl[c];
      p += cl[c];
    }
    /* which columns to check and decode: the submit column may be stored
     * relative to completion times and then needs the latency column */
    unsigned want = cols & SSDLOG_COL_ALL, need = want;
    int bad = -1;
    if (want & SSDLOG_COL_SUBMIT) {
      if (log_get32(h + LOG_CH_COL_CRC(LC_SUBMIT)) != ssdrev_crc32c(0, cp[LC_SUBMIT], cl[LC_SUBMIT])) bad = LC_SUBMIT;
      else if (ssdlog_col_transform(cp[LC_SUBMIT], cl[LC_SUBMIT]) == LOG_TR_DELTA_DONE)
        need |= SSDLOG_COL_LAT;
    }
    for (int c = 1; c < LOG_NCOLS && bad < 0; c++)
      if ((need >> c & 1u) && log_get32(h + LOG_CH_COL_CRC(c)) != ssdrev_crc32c(0, cp[c], cl[c])) bad = c;
    if (bad >= 0) {
      int rc = corrupt(r, off, next, n, col_names[bad], "CRC32C mismatch", err);
      if (rc < 0) return rc;
      continue;
    }
    if (grow(r, n)) return ssdrev_fail(err, -ENOMEM, "cannot read I/O log '%s': out of memory", r->path);
    /* latency first: the submit column may depend on it */
    static const int order[LOG_NCOLS] = {LC_LAT, LC_SUBMIT, LC_OFFSET, LC_LEN,
                                         LC_STATUS, LC_QUEUE, LC_OP, LC_FLAGS};
    unsigned narrow_const = 0; /* narrow columns filled directly below */
    uint64_t cval[LOG_NCOLS];
    for (int c = LC_LEN; c < LOG_NCOLS; c++)
      if ((need >> c & 1u) && log_col_const(cp[c], cl[c], &cval[c])) narrow_const |= 1u << c;
    for (int k = 0; k < LOG_NCOLS && bad < 0; k++) {
      int c = order[k];
      if (!(need >> c & 1u) || (narrow_const >> c & 1u)) continue;
      if (ssdlog_col_decode(cp[c], cl[c], n, r->v[c], c == LC_SUBMIT ? r->v[LC_LAT] : NULL,
                         r->scratch, &why))
        bad = c;
    }
    if (bad >= 0) {
      int rc = corrupt(r, off, next, n, col_names[bad], why, err);
      if (rc < 0) return rc;
      continue;
    }
    /* narrow columns: a constant one (the usual case: one block size, no
     * errors, one queue, one op) is filled directly, and not again while
     * the next chunks hold the same constant; others are converted */
#define NARROW(bit, col, arr, conv)                                              \
  if (need & (bit)) {                                                          \
    if (narrow_const >> (col) & 1u) {                                          \
      if (r->fill_n[col] < n || r->fill_val[col] != cval[col]) {               \
        for (size_t i = 0; i < n; i++) arr[i] = conv(cval[col]);                \
        r->fill_n[col] = n;                                                    \
        r->fill_val[col] = cval[col];                                          \
      }                                                                        \
    } else {                                                                   \
      for (size_t i = 0; i < n; i++) arr[i] = conv(r->v[col][i]);               \
      r->fill_n[col] = 0;                                                      \
    }                                                                          \
  }
#define TO_U32(x) ((uint32_t)(x))
#define TO_U16(x) ((uint16_t)(x))
#define TO_U8(x) ((uint8_t)(x))
    NARROW(SSDLOG_COL_LEN, LC_LEN, r->len, TO_U32)
    NARROW(SSDLOG_COL_STATUS, LC_STATUS, r->status, log_status_from_u64)
    NARROW(SSDLOG_COL_QUEUE, LC_QUEUE, r->queue, TO_U16)
    NARROW(SSDLOG_COL_OP, LC_OP, r->op, TO_U8)
    NARROW(SSDLOG_COL_FLAGS, LC_FLAGS, r->fl, TO_U8)
#undef NARROW
    out->n = n;
    out->submit_ns = want & SSDLOG_COL_SUBMIT ? r->v[LC_SUBMIT] : NULL;
    out->lat_ns = want & SSDLOG_COL_LAT ? r->v[LC_LAT] : NULL;
    out->offset_bytes = want & SSDLOG_COL_OFFSET ? r->v[LC_OFFSET] : NULL;
    out->len_bytes = want & SSDLOG_COL_LEN ? r->len : NULL;
    out->status = want & SSDLOG_COL_STATUS ? r->status : NULL;
    out->queue_id = want & SSDLOG_COL_QUEUE ? r->queue : NULL;
    out->op = want & SSDLOG_COL_OP ? r->op : NULL;
    out->flags = want & SSDLOG_COL_FLAGS ? r->fl : NULL;
    out->file_offset = off;
    out->chunk_bytes = (uint32_t)(LOG_CHUNK_HDR_BYTES + payload);
    out->min_submit_ns = log_get64(h + LOG_CH_MIN_SUBMIT);
    out->max_submit_ns = log_get64(h + LOG_CH_MAX_SUBMIT);
    out->min_lat_ns = log_get64(h + LOG_CH_MIN_LAT);
    out->max_lat_ns = log_get64(h + LOG_CH_MAX_LAT);
    r->pos = next;
    release_behind(r);
    r->st.chunks++;
    r->st.records += n;
    return (int)n;
  }
}

int ssdlog_next(struct ssdlog_reader *r, struct ssdlog_rec *rec, struct ssdrev_err *err) {
  while (r->cur_i >= r->cur.n) {
    int rc = ssdlog_next_chunk(r, SSDLOG_COL_ALL, &r->cur, err);
    if (rc <= 0) {
      r->cur.n = 0;
      return rc;
    }
    r->cur_i = 0;
  }
  size_t i = r->cur_i++;
  rec->submit_ns = r->cur.submit_ns[i];
  rec->lat_ns = r->cur.lat_ns[i];
  rec->offset_bytes = r->cur.offset_bytes[i];
  rec->len_bytes = r->cur.len_bytes[i];
  rec->status = r->cur.status[i];
  rec->queue_id = r->cur.queue_id[i];
  rec->op = r->cur.op[i];
  rec->flags = r->cur.flags[i];
  return 1;
}

void ssdlog_get_stats(const struct ssdlog_reader *r, struct ssdlog_stats *st) {
  *st = r->st;
}

int ssdlog_rewind(struct ssdlog_reader *r, struct ssdrev_err *err) {
  (void)err;
  r->pos = r->data_start;
  r->released = 0;
  memset(&r->cur, 0, sizeof r->cur);
  r->cur_i = 0;
  uint64_t fb = r->st.file_bytes;
  memset(&r->st, 0, sizeof r->st);
  r->st.file_bytes = fb;
  return 0;
}

void ssdlog_close(struct ssdlog_reader *r) {
  if (!r) return;
  if (r->map) munmap((void *)r->map, r->size);
  if (r->fd >= 0) close(r->fd);
  free(r->hdr.params_json);
  for (int c = 0; c < LOG_NCOLS; c++) free(r->v[c]);
  free(r->len), free(r->status), free(r->queue), free(r->op), free(r->fl), free(r->scratch);
  free(r);
}
