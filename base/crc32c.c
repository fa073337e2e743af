/* crc32c.c — CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the
 * checksum of the binary I/O log. No Debian library ships CRC-32C (zlib's
 * crc32 uses the other polynomial), so this file provides it: the SSE4.2
 * crc32 instruction when the CPU has it (checked once at run time, so the
 * build needs no -msse4.2), else a portable slicing-by-8 table. */
#include <stdint.h>
#include <string.h>
#include "base/ssdrev.h"

static uint32_t crc_table[8][256];
static int crc_ready; /* 0 = not set up; 1 = tables; 2 = tables + SSE4.2 */

static void crc_init(void) {
  for (unsigned i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
    crc_table[0][i] = c;
  }
  for (unsigned i = 0; i < 256; i++)
    for (int t = 1; t < 8; t++)
      crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
  int hw = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  hw = __builtin_cpu_supports("sse4.2") ? 1 : 0;
#endif
  /* Benign race: every thread computes identical tables and the same flag. */
  __atomic_store_n(&crc_ready, 1 + hw, __ATOMIC_RELEASE);
}

static uint32_t crc_sw(uint32_t c, const uint8_t *p, size_t n) {
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    w ^= c; /* little-endian hosts only, as the whole log code */
    c = crc_table[7][w & 0xff] ^ crc_table[6][(w >> 8) & 0xff] ^ crc_table[5][(w >> 16) & 0xff] ^
        crc_table[4][(w >> 24) & 0xff] ^ crc_table[3][(w >> 32) & 0xff] ^
        crc_table[2][(w >> 40) & 0xff] ^ crc_table[1][(w >> 48) & 0xff] ^ crc_table[0][w >> 56];
    p += 8;
    n -= 8;
  }
  while (n--) c = (c >> 8) ^ crc_table[0][(c ^ *p++) & 0xff];
  return c;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* Three independent streams hide the instruction's 3-cycle latency; their
 * CRCs are joined with the table method (shifting a CRC over `len` zero
 * bytes), which costs little next to the blocks of BLK bytes. */
#define BLK 1024u
__attribute__((target("sse4.2"))) static uint32_t crc_hw_1(uint32_t c, const uint8_t *p, size_t n) {
  uint64_t c64 = c;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    c64 = __builtin_ia32_crc32di(c64, w);
    p += 8;
    n -= 8;
  }
  c = (uint32_t)c64;
  while (n--) c = __builtin_ia32_crc32qi(c, *p++);
  return c;
}

/* crc of `c` followed by len zero bytes, by the crc32 instruction itself
 * (len is a multiple of 8 and small: BLK). */
static uint32_t shift_tab[4][256]; /* x^(8*BLK*8..) operator tables, built lazily */
static int shift_ready;

/* Multiplies polynomial a by b modulo the CRC polynomial (reflected). */
static uint32_t gf_mul(uint32_t a, uint32_t b) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i++) {
    r ^= (0u - ((b >> 31) & 1u)) & a;
    b <<= 1;
    a = (a >> 1) ^ (0x82F63B78u & (0u - (a & 1u)));
  }
  return r;
}

static void shift_init(void) {
  /* x^(8*BLK) mod P in the reflected domain: start from x^0 = 0x80000000
   * and multiply by x^8 (0x00800000) BLK times. */
  uint32_t m = 0x80000000u;
  for (unsigned i = 0; i < BLK; i++) m = gf_mul(m, 0x00800000u);
  for (unsigned k = 0; k < 4; k++)
    for (unsigned v = 0; v < 256; v++) shift_tab[k][v] = gf_mul((uint32_t)v << (8 * k), m);
  __atomic_store_n(&shift_ready, 1, __ATOMIC_RELEASE);
}

static inline uint32_t shift_blk(uint32_t c) {
  return shift_tab[0][c & 0xff] ^ shift_tab[1][(c >> 8) & 0xff] ^ shift_tab[2][(c >> 16) & 0xff] ^
         shift_tab[3][c >> 24];
}

__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t c, const uint8_t *p, size_t n) {
  if (n >= 3 * BLK) {
    if (!__atomic_load_n(&shift_ready, __ATOMIC_ACQUIRE)) shift_init();
    while (n >= 3 * BLK) {
      uint64_t a = c, b = 0, d = 0;
      for (size_t i = 0; i < BLK; i += 8) {
        uint64_t wa, wb, wd;
        memcpy(&wa, p + i, 8);
        memcpy(&wb, p + BLK + i, 8);
        memcpy(&wd, p + 2 * BLK + i, 8);
        a = __builtin_ia32_crc32di(a, wa);
        b = __builtin_ia32_crc32di(b, wb);
        d = __builtin_ia32_crc32di(d, wd);
      }
      /* crc(A|B|D) = shift(shift(crcA) ^ crcB) ^ crcD, with zero-initial B, D */
      c = shift_blk(shift_blk((uint32_t)a) ^ (uint32_t)b) ^ (uint32_t)d;
      p += 3 * BLK;
      n -= 3 * BLK;
    }
  }
  return crc_hw_1(c, p, n);
}
#endif

uint32_t ssdrev_crc32c(uint32_t crc, const void *data, size_t n) {
  int ready = __atomic_load_n(&crc_ready, __ATOMIC_ACQUIRE);
  if (!ready) {
    crc_init();
    ready = crc_ready;
  }
  uint32_t c = ~crc;
#if defined(__x86_64__) && defined(__GNUC__)
  if (ready == 2) return ~crc_hw(c, data, n);
#endif
  return ~crc_sw(c, data, n);
}
