/* codec.h — private to bench/: the on-disk layout of the binary I/O log
 * (docs/log-format.md) and the column codec shared by log/writer.c and
 * log/reader.c. Little-endian hosts only (checked at compile time). */
#ifndef SSDREV_LOG_CODEC_H
#define SSDREV_LOG_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the I/O log code assumes a little-endian host"
#endif

/* File header: magic, u32 version, u32 clock, u64 start, u32 params_len,
 * params, u32 crc32c. */
#define LOG_FILE_MAGIC "SSDRVLOG"
#define LOG_VERSION 1u
#define LOG_FILE_FIXED_BYTES 28u           /* magic .. params_len */
#define LOG_PARAMS_MAX_BYTES (16u << 20)   /* readers refuse larger params */
/* Byte offsets of the file header's fields (docs/log-format.md). */
enum log_file_field {
  LOG_FH_MAGIC = 0,       /* 8 bytes LOG_FILE_MAGIC */
  LOG_FH_VERSION = 8,     /* u32 */
  LOG_FH_CLOCK = 12,      /* u32 enum ssdlog_clock_source */
  LOG_FH_START = 16,      /* u64 start_unix_ns */
  LOG_FH_PARAMS_LEN = 24, /* u32; params follow, then a u32 CRC32C of all before it */
};

/* Chunk header (fixed size, then the payload: the 8 columns in order). */
#define LOG_CHUNK_MAGIC 0x4B435253u /* bytes "SRCK" */
#define LOG_CHUNK_HDR_BYTES 116u
#define LOG_CHUNK_MAX_RECORDS 65536u /* format limit; the writer uses 8192 */
#define LOG_NCOLS 8
/* Byte offsets of the chunk header's fields: the one description the writer
 * and the reader share (docs/log-format.md). */
enum log_chunk_field {
  LOG_CH_MAGIC = 0,      /* u32 LOG_CHUNK_MAGIC */
  LOG_CH_PAYLOAD = 4,    /* u32 payload bytes after the header (sum of the column lengths) */
  LOG_CH_RECORDS = 8,    /* u32 records, 1..LOG_CHUNK_MAX_RECORDS */
  LOG_CH_RESERVED = 12,  /* u32, 0 */
  LOG_CH_MIN_SUBMIT = 16, LOG_CH_MAX_SUBMIT = 24, /* u64 each: summary of the chunk */
  LOG_CH_MIN_LAT = 32, LOG_CH_MAX_LAT = 40,
  LOG_CH_COLS = 48,      /* per column c: u32 encoded bytes at +8c, u32 CRC32C at +8c+4 */
  LOG_CH_CRC = 112,      /* u32 CRC32C of the header bytes before it */
};
_Static_assert(LOG_CH_COLS + 8 * LOG_NCOLS == LOG_CH_CRC, "column table fills the header");
_Static_assert(LOG_CH_CRC + 4 == LOG_CHUNK_HDR_BYTES, "the CRC ends the chunk header");
#define LOG_CH_COL_LEN(c) (LOG_CH_COLS + 8 * (c))
#define LOG_CH_COL_CRC(c) (LOG_CH_COLS + 8 * (c) + 4)

/* Column header: enc, transform, shift, width, exc_width, u32 n_exc,
 * u64 base, u64 ref; then packed values, exception indices, exception highs. */
#define LOG_COL_HDR_BYTES 25u
#define LOG_ENC_PFOR 1u
enum log_transform {
  LOG_TR_RAW = 0,        /* x = u */
  LOG_TR_DELTA = 1,      /* x[0] = ref, x[i] = x[i-1] + unzigzag(u[i]) */
  LOG_TR_DELTA_DONE = 2, /* submit column only: as DELTA over submit+lat */
};

/* Column order in the payload = bit order of enum ssdlog_col. */
enum log_col { LC_SUBMIT, LC_LAT, LC_OFFSET, LC_LEN, LC_STATUS, LC_QUEUE, LC_OP, LC_FLAGS };

static inline uint32_t log_get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t log_get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline void log_put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void log_put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static inline uint64_t log_zigzag(uint64_t d) { return (d << 1) ^ (0 - (d >> 63)); }
static inline uint64_t log_unzigzag(uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }
/* status (int32) is stored zigzagged so 0 and small -errno stay narrow */
static inline uint64_t log_status_to_u64(int32_t s) {
  uint32_t u = (uint32_t)s;
  return (uint32_t)((u << 1) ^ (0u - (u >> 31)));
}
static inline int32_t log_status_from_u64(uint64_t v) {
  uint32_t z = (uint32_t)v;
  return (int32_t)((z >> 1) ^ (0u - (z & 1u)));
}
/* Bits needed to hold v (0 for 0). */
static inline unsigned log_bitlen(uint64_t v) { return v ? 64u - (unsigned)__builtin_clzll(v) : 0u; }

/* CRC-32C (crc32c.c); crc = 0 to start, chainable. */

/* Encodes n values (1 <= n <= LOG_CHUNK_MAX_RECORDS) as one column into out,
 * trying the transforms allowed for the column and keeping the smallest.
 * `lat` (may be NULL) enables LOG_TR_DELTA_DONE. `scratch` holds 2*n u64s.
 * out must have room for log_col_max_bytes(n). Returns the bytes written. */
size_t ssdlog_col_encode(uint8_t *out, const uint64_t *v, size_t n, const uint64_t *lat,
                      uint64_t *scratch);
static inline size_t log_col_max_bytes(size_t n) { return LOG_COL_HDR_BYTES + 3 * 8 * n + 16; }

/* Decodes one column of n values from [p, p + len) into out, which has room
 * for n rounded up to 8. `lat` must be the decoded latency column when the
 * column uses LOG_TR_DELTA_DONE (else may be NULL). scratch holds 2 * (n
 * rounded up to 8) u64s, for the exceptions. Every length and index
 * is validated: returns 0, or -EBADMSG with a static reason in *why. */
int ssdlog_col_decode(const uint8_t *p, size_t len, size_t n, uint64_t *out, const uint64_t *lat,
                   uint64_t *scratch, const char **why);
/* 1 and the value if the column is one repeated value (RAW, w = 0, no
 * exceptions, exact length), else 0: lets readers fill narrow columns
 * directly. */
static inline int log_col_const(const uint8_t *p, size_t len, uint64_t *val) {
  if (len != LOG_COL_HDR_BYTES || p[0] != LOG_ENC_PFOR || p[1] != LOG_TR_RAW || p[2] > 63 ||
      p[3] != 0 || log_get32(p + 5) != 0)
    return 0;
  *val = log_get64(p + 9) << p[2];
  return 1;
}
/* The transform a column uses (after validating its header length), or -1. */
int ssdlog_col_transform(const uint8_t *p, size_t len);

/* Bit-packing: n values of w bits LSB-first. pack writes ceil(n*w/8) bytes.
 * unpack adds `base` to each value and writes n rounded up to 8 outputs; it
 * reads only [p, p + ceil(n*w/8)). */
void ssdlog_pack(uint8_t *p, const uint64_t *v, size_t n, unsigned w);
void ssdlog_unpack(const uint8_t *p, size_t n, unsigned w, uint64_t base, uint64_t *out);

#endif
