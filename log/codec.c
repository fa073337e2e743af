/* codec.c — the column codec of the binary I/O log: patched
 * frame-of-reference bit-packing (PFOR) over optional zigzag deltas and a
 * power-of-two scale, chosen per chunk and column by size. The decoder is
 * the hot path of every analysis: whole-word unpacking with the bit width
 * a compile-time constant (one function per width), no per-value branches. */
#include <errno.h>
#include "log/ssdlog.h"
#include "log/codec.h"

/* ------------------------------------------------------------ bit packing */

void ssdlog_pack(uint8_t *p, const uint64_t *v, size_t n, unsigned w) {
  size_t nbytes = (n * w + 7) / 8;
  memset(p, 0, nbytes);
  if (!w) return;
  uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
  uint64_t acc = 0;
  unsigned fill = 0; /* bits used in acc, < 64 */
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t x = v[i] & mask;
    acc |= x << fill;
    if (fill + w >= 64) {
      log_put64(p + o, acc);
      o += 8;
      acc = fill ? x >> (64 - fill) : 0;
      fill = fill + w - 64;
    } else {
      fill += w;
    }
  }
  if (fill) {
    uint8_t t[8];
    log_put64(t, acc);
    memcpy(p + o, t, (fill + 7) / 8);
  }
}

/* One value J of a group of 8 at width W: bits [J*W, J*W + W) of the group,
 * read with one unaligned 64-bit load (plus one byte when W > 56 and the
 * value straddles 9 bytes). W and J are constants, so this folds to
 * load, shift, and, add. */
#define UNPACK_MASK(W) ((W) == 64 ? ~0ull : ((1ull << ((W) & 63)) - 1))
#define UNPACK_ONE(W, J)                                                              \
  out[J] = base + (((log_get64(p + ((J) * (W)) / 8) >> (((J) * (W)) % 8)) |           \
                    ((W) > 56 && ((J) * (W)) % 8                                      \
                         ? (uint64_t)p[((J) * (W)) / 8 + 8] << ((64 - ((J) * (W)) % 8) & 63) \
                         : 0)) &                                                      \
                   UNPACK_MASK(W))
#define UNPACK_FN(W)                                                                     \
  static void unpack_##W(const uint8_t *p, size_t groups, uint64_t base, uint64_t *out) { \
    for (size_t g = 0; g < groups; g++, p += (W), out += 8) {                           \
      UNPACK_ONE(W, 0); UNPACK_ONE(W, 1); UNPACK_ONE(W, 2); UNPACK_ONE(W, 3);            \
      UNPACK_ONE(W, 4); UNPACK_ONE(W, 5); UNPACK_ONE(W, 6); UNPACK_ONE(W, 7);            \
    }                                                                                   \
  }

static void unpack_0(const uint8_t *p, size_t groups, uint64_t base, uint64_t *out) {
  (void)p;
  for (size_t i = 0; i < groups * 8; i++) out[i] = base;
}
UNPACK_FN(1) UNPACK_FN(2) UNPACK_FN(3) UNPACK_FN(4) UNPACK_FN(5) UNPACK_FN(6) UNPACK_FN(7)
UNPACK_FN(8) UNPACK_FN(9) UNPACK_FN(10) UNPACK_FN(11) UNPACK_FN(12) UNPACK_FN(13)
UNPACK_FN(14) UNPACK_FN(15) UNPACK_FN(16) UNPACK_FN(17) UNPACK_FN(18) UNPACK_FN(19)
UNPACK_FN(20) UNPACK_FN(21) UNPACK_FN(22) UNPACK_FN(23) UNPACK_FN(24) UNPACK_FN(25)
UNPACK_FN(26) UNPACK_FN(27) UNPACK_FN(28) UNPACK_FN(29) UNPACK_FN(30) UNPACK_FN(31)
UNPACK_FN(32) UNPACK_FN(33) UNPACK_FN(34) UNPACK_FN(35) UNPACK_FN(36) UNPACK_FN(37)
UNPACK_FN(38) UNPACK_FN(39) UNPACK_FN(40) UNPACK_FN(41) UNPACK_FN(42) UNPACK_FN(43)
UNPACK_FN(44) UNPACK_FN(45) UNPACK_FN(46) UNPACK_FN(47) UNPACK_FN(48) UNPACK_FN(49)
UNPACK_FN(50) UNPACK_FN(51) UNPACK_FN(52) UNPACK_FN(53) UNPACK_FN(54) UNPACK_FN(55)
UNPACK_FN(56) UNPACK_FN(57) UNPACK_FN(58) UNPACK_FN(59) UNPACK_FN(60) UNPACK_FN(61)
UNPACK_FN(62) UNPACK_FN(63) UNPACK_FN(64)

typedef void (*unpack_fn)(const uint8_t *, size_t, uint64_t, uint64_t *);
static const unpack_fn unpackers[65] = {
    unpack_0,  unpack_1,  unpack_2,  unpack_3,  unpack_4,  unpack_5,  unpack_6,  unpack_7,
    unpack_8,  unpack_9,  unpack_10, unpack_11, unpack_12, unpack_13, unpack_14, unpack_15,
    unpack_16, unpack_17, unpack_18, unpack_19, unpack_20, unpack_21, unpack_22, unpack_23,
    unpack_24, unpack_25, unpack_26, unpack_27, unpack_28, unpack_29, unpack_30, unpack_31,
    unpack_32, unpack_33, unpack_34, unpack_35, unpack_36, unpack_37, unpack_38, unpack_39,
    unpack_40, unpack_41, unpack_42, unpack_43, unpack_44, unpack_45, unpack_46, unpack_47,
    unpack_48, unpack_49, unpack_50, unpack_51, unpack_52, unpack_53, unpack_54, unpack_55,
    unpack_56, unpack_57, unpack_58, unpack_59, unpack_60, unpack_61, unpack_62, unpack_63,
    unpack_64};

void ssdlog_unpack(const uint8_t *p, size_t n, unsigned w, uint64_t base, uint64_t *out) {
  size_t groups = (n + 7) / 8;
  size_t len = (n * w + 7) / 8;
  /* A group starting at byte s reads up to s + 7W/8 + 9: groups whose reads
   * stay inside [p, p + len) run in place; the last few run on a zero-padded
   * copy, so no read ever leaves the column. */
  size_t need = (7 * (size_t)w) / 8 + 9;
  size_t fast = 0;
  if (w && len >= need) fast = (len - need) / w + 1;
  if (!w) fast = groups;
  if (fast > groups) fast = groups;
  unpackers[w](p, fast, base, out);
  if (fast == groups) return;
  uint8_t tail[512] = {0};
  size_t from = fast * w, tail_len = len - from;
  /* tail_len < W + 7W/8 + 9 <= 130 bytes and the remaining groups read at
   * most (groups - fast) * W + 9 <= tail_len + W + 9 bytes: 512 is ample */
  memcpy(tail, p + from, tail_len);
  unpackers[w](tail, groups - fast, base, out + fast * 8);
}

/* ------------------------------------------------------------ encoder */

struct col_plan {
  uint64_t base;
  unsigned w, ew, maxlen;
  size_t nexc, bytes;
};

/* Picks the PFOR width minimising the encoded size of u[0..n). */
static void plan_pfor(const uint64_t *u, size_t n, struct col_plan *pl) {
  uint64_t mn = u[0];
  for (size_t i = 1; i < n; i++) mn = u[i] < mn ? u[i] : mn;
  /* Four histograms, summed after: most values fall in one or two bins, and
   * one table would chain every increment on the last (store-to-load) */
  size_t h4[4][65] = {{0}}, hist[65];
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    h4[0][log_bitlen(u[i] - mn)]++;
    h4[1][log_bitlen(u[i + 1] - mn)]++;
    h4[2][log_bitlen(u[i + 2] - mn)]++;
    h4[3][log_bitlen(u[i + 3] - mn)]++;
  }
  for (; i < n; i++) h4[0][log_bitlen(u[i] - mn)]++;
  for (unsigned b = 0; b <= 64; b++) hist[b] = h4[0][b] + h4[1][b] + h4[2][b] + h4[3][b];
  unsigned maxlen = 0;
  for (unsigned b = 0; b <= 64; b++)
    if (hist[b]) maxlen = b;
  unsigned iw = log_bitlen(n - 1);
  size_t above = 0; /* values wider than w */
  pl->base = mn;
  pl->maxlen = maxlen;
  pl->bytes = SIZE_MAX;
  /* From the widest down, so ties keep fewer exceptions (faster decode). */
  for (int w = (int)maxlen; w >= 0; w--) {
    if (w < 64) above += hist[w + 1];
    unsigned ew = maxlen - (unsigned)w;
    size_t bytes = LOG_COL_HDR_BYTES + (n * (size_t)w + 7) / 8 + (above * iw + 7) / 8 +
                   (above * ew + 7) / 8;
    if (bytes < pl->bytes) {
      pl->bytes = bytes;
      pl->w = (unsigned)w;
      pl->ew = ew;
      pl->nexc = above;
    }
  }
}

/* Fills u with the transform of v (scaled down by the common power of two)
 * and returns the shift; *ref gets the delta start. */
static unsigned apply_transform(int tr, const uint64_t *v, const uint64_t *lat, size_t n,
                                uint64_t *u, uint64_t *ref) {
  uint64_t any = 0;
  for (size_t i = 0; i < n; i++) {
    u[i] = tr == LOG_TR_DELTA_DONE ? v[i] + lat[i] : v[i]; /* wraps mod 2^64 */
    any |= u[i];
  }
  unsigned shift = any ? (unsigned)__builtin_ctzll(any) : 0;
  if (shift)
    for (size_t i = 0; i < n; i++) u[i] >>= shift;
  *ref = 0;
  if (tr != LOG_TR_RAW) {
    *ref = u[0];
    uint64_t prev = u[0];
    for (size_t i = 1; i < n; i++) {
      uint64_t x = u[i];
      u[i] = log_zigzag(x - prev);
      prev = x;
    }
    /* u[0] is not decoded; copying u[1] keeps it from widening the frame */
    u[0] = n > 1 ? u[1] : 0;
  }
  return shift;
}

size_t ssdlog_col_encode(uint8_t *out, const uint64_t *v, size_t n, const uint64_t *lat,
                      uint64_t *scratch) {
  uint64_t *cand = scratch, *best = scratch + n;
  struct col_plan bp = {0}, pl;
  int btr = -1;
  unsigned bshift = 0;
  uint64_t bref = 0;
  int ntr = lat ? 3 : 2;
  /* A constant column (most are, in a plain job: length, op, status, queue,
   * flags) encodes to the bare header under every transform, and ties keep
   * the first: try only that one (same bytes, less work). */
  size_t same = 1;
  while (same < n && v[same] == v[0]) same++;
  if (same == n) ntr = 1;
  for (int tr = 0; tr < ntr; tr++) {
    uint64_t ref;
    unsigned shift = apply_transform(tr, v, lat, n, cand, &ref);
    plan_pfor(cand, n, &pl);
    if (btr < 0 || pl.bytes < bp.bytes) { /* ties keep the cheaper transform */
      bp = pl;
      btr = tr;
      bshift = shift;
      bref = ref;
      uint64_t *t = best;
      best = cand;
      cand = t;
    }
  }
  out[0] = LOG_ENC_PFOR;
  out[1] = (uint8_t)btr;
  out[2] = (uint8_t)bshift;
  out[3] = (uint8_t)bp.w;
  out[4] = (uint8_t)bp.ew;
  log_put32(out + 5, (uint32_t)bp.nexc);
  log_put64(out + 9, bp.base);
  log_put64(out + 17, bref);
  uint8_t *p = out + LOG_COL_HDR_BYTES;
  for (size_t i = 0; i < n; i++) best[i] -= bp.base;
  ssdlog_pack(p, best, n, bp.w);
  p += (n * bp.w + 7) / 8;
  if (bp.nexc) {
    /* exceptions: indices then high parts, each gathered into cand (free
     * now; it holds n values, and there may be up to n exceptions) */
    unsigned iw = log_bitlen(n - 1);
    size_t k = 0;
    for (size_t i = 0; i < n && k < bp.nexc; i++)
      if (log_bitlen(best[i]) > bp.w) cand[k++] = i;
    ssdlog_pack(p, cand, bp.nexc, iw);
    p += (bp.nexc * iw + 7) / 8;
    k = 0;
    for (size_t i = 0; i < n && k < bp.nexc; i++)
      if (log_bitlen(best[i]) > bp.w) cand[k++] = best[i] >> bp.w; /* w < 64 whenever there are exceptions */
    ssdlog_pack(p, cand, bp.nexc, bp.ew);
    p += (bp.nexc * bp.ew + 7) / 8;
  }
  return (size_t)(p - out);
}

/* ------------------------------------------------------------ decoder */

int ssdlog_col_transform(const uint8_t *p, size_t len) {
  if (len < LOG_COL_HDR_BYTES || p[0] != LOG_ENC_PFOR || p[1] > LOG_TR_DELTA_DONE) return -1;
  return p[1];
}

int ssdlog_col_decode(const uint8_t *p, size_t len, size_t n, uint64_t *out, const uint64_t *lat,
                   uint64_t *scratch, const char **why) {
  if (len < LOG_COL_HDR_BYTES) return *why = "column shorter than its header", -EBADMSG;
  unsigned enc = p[0], tr = p[1], shift = p[2], w = p[3], ew = p[4];
  uint64_t nexc = log_get32(p + 5), base = log_get64(p + 9), ref = log_get64(p + 17);
  if (enc != LOG_ENC_PFOR) return *why = "unknown column encoding", -EBADMSG;
  if (tr > LOG_TR_DELTA_DONE || (tr == LOG_TR_DELTA_DONE && !lat))
    return *why = "bad column transform", -EBADMSG;
  if (shift > 63 || w > 64 || ew > 64 - w) return *why = "bad column bit widths", -EBADMSG;
  if (nexc > n) return *why = "more exceptions than records", -EBADMSG;
  unsigned iw = log_bitlen(n - 1);
  uint64_t packed = ((uint64_t)n * w + 7) / 8, ib = (nexc * iw + 7) / 8, hb = (nexc * ew + 7) / 8;
  if (LOG_COL_HDR_BYTES + packed + ib + hb != len) return *why = "column length does not match its header", -EBADMSG;
  const uint8_t *d = p + LOG_COL_HDR_BYTES;
  ssdlog_unpack(d, n, w, base, out);
  if (nexc) {
    /* exceptions are unpacked in bulk too: delta-coded submit times of small
     * reap batches can make a quarter of a column exceptions */
    uint64_t *idx = scratch, *hi = scratch + ((n + 7) & ~(size_t)7);
    ssdlog_unpack(d + packed, (size_t)nexc, iw, 0, idx);
    ssdlog_unpack(d + packed + ib, (size_t)nexc, ew, 0, hi);
    uint64_t badidx = 0;
    for (uint64_t k = 0; k < nexc; k++) badidx |= idx[k] >= n;
    if (badidx) return *why = "exception index out of range", -EBADMSG;
    for (uint64_t k = 0; k < nexc; k++) out[idx[k]] += hi[k] << (w & 63); /* ew > 0 implies w < 64 */
  }
  if (tr == LOG_TR_RAW) {
    if (shift)
      for (size_t i = 0; i < n; i++) out[i] <<= shift;
    return 0;
  }
  uint64_t x = ref;
  out[0] = x << shift;
  for (size_t i = 1; i < n; i++) {
    x += log_unzigzag(out[i]);
    out[i] = x << shift;
  }
  if (tr == LOG_TR_DELTA_DONE)
    for (size_t i = 0; i < n; i++) out[i] -= lat[i];
  return 0;
}

const char *ssdlog_op_name(unsigned op) {
  static const char *const names[] = {"read", "write", "trim", "flush"};
  return op < 4 ? names[op] : "unknown";
}
