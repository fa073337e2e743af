/* ssdlog.h — the binary per-I/O log (docs/log-format.md): the record, the
 * writer (columnar chunks encoded off the I/O path) and the streaming reader.
 * Rules as in base/ssdrev.h. */
#ifndef SSDREV_SSDLOG_H
#define SSDREV_SSDLOG_H

#include "base/ssdrev.h"

enum ssdlog_op {
  SSDLOG_OP_READ = 0,
  SSDLOG_OP_WRITE = 1,
  SSDLOG_OP_TRIM = 2,
  SSDLOG_OP_FLUSH = 3,
};
const char *ssdlog_op_name(unsigned op); /* "read", "write", "trim", "flush" */

enum ssdlog_rec_flag {
  SSDLOG_REC_RAMP = 1u << 0, /* issued during the ramp: logged, not measured */
};

/* Whether a record counts in the statistics: issued after the ramp and
 * completed without error. The one definition of a "measured I/O". */
static inline int ssdlog_measured(unsigned flags, int32_t status) {
  return !(flags & SSDLOG_REC_RAMP) && status >= 0;
}

/* One I/O, as the engine saw it. */
struct ssdlog_rec {
  uint64_t submit_ns;    /* submit time, ns since test start */
  uint64_t lat_ns;       /* completion latency, ns */
  uint64_t offset_bytes; /* byte offset on the target */
  uint32_t len_bytes;    /* transfer length */
  int32_t status;        /* 0 or -errno */
  uint16_t queue_id;     /* queue / thread that issued it */
  uint8_t op;            /* enum ssdlog_op */
  uint8_t flags;         /* enum ssdlog_rec_flag */
};

/* The validity rule of a record (log/check.c), one for every reader and
 * converter: analyze refuses a log holding a record that breaks it, and the
 * fio log converter refuses the line that would make one. A record is
 * possible when submit_ns + lat_ns is within 2^63 - 1 ns, when it completes
 * by max_done_ns (0: no limit known), and, when has_offset, when
 * offset_bytes + len_bytes is within 2^63 - 1. Returns 0, or -EINVAL with
 * why filled (what is wrong, with the values; no location: the caller
 * names the file and the record or line). */
int ssdlog_rec_check(uint64_t submit_ns, uint64_t lat_ns, int has_offset, uint64_t offset_bytes,
                     uint64_t len_bytes, uint64_t max_done_ns, char *why, size_t why_len);
/* The latest completion a test can reach, from its params (a JSON object's
 * text, as in the log header): twice its planned duration (ramp_ns,
 * measure_ns and idle_ns) plus 10 minutes for a drive's error recovery; 0
 * (unknown) for size-based tests and without params. */
uint64_t ssdlog_params_max_done_ns(const char *params_json);

enum ssdlog_clock_source {
  SSDLOG_CLOCK_MONOTONIC = 1, /* CLOCK_MONOTONIC of a real run */
  SSDLOG_CLOCK_VIRTUAL = 2,   /* the simulated drive's virtual clock */
  SSDLOG_CLOCK_IMPORTED = 3,  /* converted from another tool's log */
};

/* Header of a log file: see docs/log-format.md. */
struct ssdlog_header {
  uint32_t version;       /* format version (filled by the writer) */
  uint32_t clock_source;  /* enum ssdlog_clock_source */
  uint64_t start_unix_ns; /* wall-clock time of test start */
  char *params_json;      /* test parameters: a JSON object as UTF-8 text */
};

/* Records kept in memory before a chunk is written: a chunk is also cut when
 * its records span more than one second of submit time. A full chunk goes to
 * the writer's encoder thread while the next fills, so a crash loses at most
 * two chunks (about two seconds or twice this many records). */
#define SSDLOG_CHUNK_MAX_RECORDS 8192u

struct ssdlog_writer;
/* Creates PATH (O_EXCL unless `overwrite`) and writes the header. Memory use
 * is bounded by one chunk whatever the run length. params_json may be NULL. */
int ssdlog_writer_open(struct ssdlog_writer **w, const char *path,
                          uint32_t clock_source, uint64_t start_unix_ns,
                          const char *params_json, int overwrite,
                          struct ssdrev_err *err);
/* Appends records; a chunk full or spanning a second is handed to the
 * writer's encoder thread (encoding stays off the I/O path). Thread-safe (an
 * internal mutex), so psync threads may share one writer. A write error of
 * the encoder is returned by the next append, flush or close. */
int ssdlog_append(struct ssdlog_writer *w, const struct ssdlog_rec *recs,
                     size_t n, struct ssdrev_err *err);
/* Writes the pending chunk now (and fdatasyncs if `sync`). */
int ssdlog_flush(struct ssdlog_writer *w, int sync, struct ssdrev_err *err);
/* Flushes, fsyncs, closes and frees. Safe on NULL. Returns the first error. */
int ssdlog_writer_close(struct ssdlog_writer *w, struct ssdrev_err *err);
/* Records and bytes written so far. */
uint64_t ssdlog_writer_records(const struct ssdlog_writer *w);
uint64_t ssdlog_writer_bytes(const struct ssdlog_writer *w);

/* Columns a reader may decode; decoding fewer is faster. */
enum ssdlog_col {
  SSDLOG_COL_SUBMIT = 1u << 0,
  SSDLOG_COL_LAT = 1u << 1,
  SSDLOG_COL_OFFSET = 1u << 2,
  SSDLOG_COL_LEN = 1u << 3,
  SSDLOG_COL_STATUS = 1u << 4,
  SSDLOG_COL_QUEUE = 1u << 5,
  SSDLOG_COL_OP = 1u << 6,
  SSDLOG_COL_FLAGS = 1u << 7,
  SSDLOG_COL_ALL = 0xffu,
};

/* A decoded chunk: column arrays of length n, owned by the reader and valid
 * until the next call. Columns not asked for are NULL. */
struct ssdlog_chunk {
  size_t n;
  const uint64_t *submit_ns;
  const uint64_t *lat_ns;
  const uint64_t *offset_bytes;
  const uint32_t *len_bytes;
  const int32_t *status;
  const uint16_t *queue_id;
  const uint8_t *op;
  const uint8_t *flags;
  uint64_t file_offset; /* byte offset of this chunk in the file */
  uint32_t chunk_bytes; /* header + payload bytes of this chunk on disk */
  uint32_t col_bytes[8]; /* encoded bytes per column, in enum ssdlog_col bit order */
  uint64_t min_submit_ns, max_submit_ns; /* chunk summary from its header */
  uint64_t min_lat_ns, max_lat_ns;
};

enum ssdlog_open_flag {
  SSDLOG_SALVAGE = 1u << 0, /* skip chunks whose CRC fails instead of failing */
};

struct ssdlog_reader;
/* Opens a log and reads its header. Fails (naming the file) on a bad magic,
 * an unsupported version or a corrupt header. */
int ssdlog_open(struct ssdlog_reader **r, const char *path, unsigned flags,
                   struct ssdrev_err *err);
const struct ssdlog_header *ssdlog_get_header(const struct ssdlog_reader *r);
/* Decodes the next chunk's requested columns (enum ssdlog_col mask); only
 * those columns are checksummed. cols = 0 reads the chunk header alone (n
 * and the summary: cheap, e.g. to split chunks among threads).
 * Returns n > 0, 0 at the end, or a negative errno: a CRC mismatch is -EBADMSG
 * with a message naming the file and byte offset (unless SSDLOG_SALVAGE).
 * A truncated tail is not an error: it ends the stream and is reported by
 * ssdlog_get_stats. */
int ssdlog_next_chunk(struct ssdlog_reader *r, unsigned cols,
                         struct ssdlog_chunk *out, struct ssdrev_err *err);
/* Record-at-a-time convenience over next_chunk: 1, 0 at end, or <0. */
int ssdlog_next(struct ssdlog_reader *r, struct ssdlog_rec *rec, struct ssdrev_err *err);
struct ssdlog_stats {
  uint64_t records;         /* records returned so far */
  uint64_t chunks;          /* chunks returned so far */
  uint64_t skipped_chunks;  /* chunks skipped by SSDLOG_SALVAGE */
  uint64_t skipped_records; /* records in those chunks, where known */
  int truncated;            /* the file ended inside a chunk */
  uint64_t truncated_at;    /* byte offset where the incomplete chunk starts */
  uint64_t file_bytes;
};
void ssdlog_get_stats(const struct ssdlog_reader *r, struct ssdlog_stats *st);
/* Writes a synthetic log that mimics the io_uring engine on a 4 KiB random
 * read at QD32 over 1 GiB (batched submit and reap stamps, 50-150 us
 * latencies with a long tail, the first 5% flagged ramp), deterministic in
 * `seed`: a testing and benchmarking aid (`ssdrev log synth`). loop_ns is
 * the engine's time per reap/resubmit iteration (0 = the default): longer
 * loops reap bigger batches. */
#define SSDLOG_SYNTH_LOOP_NS 10000u /* default engine loop time (batches of ~4) */
int ssdlog_synth(const char *path, uint64_t records, uint64_t seed, uint32_t loop_ns,
                    int overwrite, struct ssdrev_err *err);
/* Rewinds to the first chunk (for multi-pass readers). */
int ssdlog_rewind(struct ssdlog_reader *r, struct ssdrev_err *err);
void ssdlog_close(struct ssdlog_reader *r);

#endif
