/* test_guard.c — the destructive-write guard's signature checks, on buffers
 * and image files: libblkid, and the hand list it falls back to. (What needs
 * a block device — in use, read-only — is tests/cli/guard_matrix.sh.) */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"
#include "bench/target/guard_int.h"
#include "testlib.h"

#define IMG_BYTES (8u << 20)

static void put_le32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
  p[3] = (unsigned char)(v >> 24);
}

/* A swap header as mkswap -p PAGE writes it: version 1 and the last page at
 * 1024, the magic in the last 10 bytes of the first page. */
static void put_swap(unsigned char *b, size_t page) {
  put_le32(b + 1024, 1);
  put_le32(b + 1028, (uint32_t)(IMG_BYTES / page - 1));
  memcpy(b + page - 10, "SWAPSPACE2", 10);
}

/* An md 0.90 superblock: magic, version 0.90.0, set uuid, level 1, 2 disks. */
static void put_md090(unsigned char *sb) {
  static const uint32_t words[] = {0xa92b4efc, 0, 90, 0, 0, 0x12345678, 1700000000, 1, 1024, 2, 2};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) put_le32(sb + 4 * i, words[i]);
}

/* Writes an IMG_BYTES image whose bytes [off, off + len) are data. */
static const char *write_image(const char *name, const unsigned char *data, size_t len, uint64_t off,
                               uint64_t size) {
  const char *path = test_path(name);
  int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
  if (fd < 0) return NULL;
  int ok = ftruncate(fd, (off_t)size) == 0 && (!len || pwrite(fd, data, len, (off_t)off) == (ssize_t)len);
  close(fd);
  return ok ? path : NULL;
}

TEST("The hand list finds swap with 4, 16 and 64 KiB pages, the magic at the page's end") {
  static const size_t pages[] = {4096, 8192, 16384, 32768, 65536};
  for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
    unsigned char *b = calloc(1, GUARD_HEAD_BYTES);
    REQUIRE(b);
    put_swap(b, pages[i]);
    CHECK_STR(bench_guard_hand_head(b, GUARD_HEAD_BYTES), "swap");
    /* a probe that read less than the page does not see it (and must not read past n) */
    CHECK(pages[i] == 4096 || bench_guard_hand_head(b, pages[i] - 1) == NULL);
    free(b);
  }
}

TEST("The hand list finds an md 0.90 superblock in the last 64 KiB-aligned 64 KiB of the device") {
  /* an unaligned size: the superblock is at (size & ~0xffff) - 0x10000 */
  uint64_t size = (64ull << 20) + 12345;
  uint64_t at = (size & ~(uint64_t)0xffff) - 0x10000;
  unsigned char *tail = calloc(1, GUARD_TAIL_BYTES);
  REQUIRE(tail);
  uint64_t base = size - GUARD_TAIL_BYTES;
  CHECK(bench_guard_hand_tail(tail, GUARD_TAIL_BYTES, size) == NULL);
  put_md090(tail + (at - base));
  CHECK_STR(bench_guard_hand_tail(tail, GUARD_TAIL_BYTES, size), "md RAID member (metadata 0.90)");
  /* the same magic 4 KiB off is not a 0.90 superblock */
  memset(tail, 0, GUARD_TAIL_BYTES);
  put_md090(tail + (at - base) + 4096);
  CHECK(bench_guard_hand_tail(tail, GUARD_TAIL_BYTES, size) == NULL);
  free(tail);
}

TEST("The hand list finds md 1.0 at the end, md 1.1 and 1.2 at the start, minix and bfs") {
  uint64_t size = 32ull << 20;
  unsigned char *tail = calloc(1, GUARD_TAIL_BYTES);
  REQUIRE(tail);
  put_md090(tail + GUARD_TAIL_BYTES - 8192); /* 1.0: 8 KiB from the end, 4 KiB aligned */
  CHECK_STR(bench_guard_hand_tail(tail, GUARD_TAIL_BYTES, size), "md RAID member (metadata 1.0)");
  free(tail);
  unsigned char *b = calloc(1, GUARD_HEAD_BYTES);
  REQUIRE(b);
  put_md090(b + 4096);
  CHECK_STR(bench_guard_hand_head(b, GUARD_HEAD_BYTES), "md RAID member (metadata 1.2)");
  memset(b, 0, GUARD_HEAD_BYTES);
  put_md090(b);
  CHECK_STR(bench_guard_hand_head(b, GUARD_HEAD_BYTES), "md RAID member (metadata 1.1)");
  memset(b, 0, GUARD_HEAD_BYTES);
  b[1024 + 16] = 0x68, b[1024 + 17] = 0x24; /* minix v2 */
  CHECK_STR(bench_guard_hand_head(b, GUARD_HEAD_BYTES), "minix filesystem");
  memset(b, 0, GUARD_HEAD_BYTES);
  put_le32(b, 0x1badface);
  CHECK_STR(bench_guard_hand_head(b, GUARD_HEAD_BYTES), "bfs filesystem");
  memset(b, 0, GUARD_HEAD_BYTES);
  CHECK(bench_guard_hand_head(b, GUARD_HEAD_BYTES) == NULL);
  free(b);
}

TEST("A device too small for a tail check finds nothing there, and never reads outside the buffer") {
  unsigned char tail[4096] = {0};
  CHECK(bench_guard_hand_tail(tail, sizeof tail, 4096) == NULL);
  CHECK(bench_guard_hand_tail(tail, sizeof tail, 100) == NULL); /* n > size */
  memcpy(tail + 4096 - 512, "EFI PART", 8);
  CHECK_STR(bench_guard_hand_tail(tail, sizeof tail, 4096), "GPT partition table (backup header)");
}

TEST("libblkid and the hand list both find swap with 16 and 64 KiB pages in an image") {
  static const size_t pages[] = {4096, 16384, 65536};
  for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
    unsigned char *b = calloc(1, GUARD_HEAD_BYTES);
    REQUIRE(b);
    put_swap(b, pages[i]);
    const char *img = write_image("swap.img", b, GUARD_HEAD_BYTES, 0, IMG_BYTES);
    free(b);
    REQUIRE(img);
    char what[256];
    struct ssdrev_err err = {{0}};
    CHECK(bench_guard_find_signatures(img, GUARD_PROBE_BLKID, what, sizeof what, NULL, 0, &err) == 1);
    CHECK_STR(what, "swap");
    CHECK(bench_guard_find_signatures(img, GUARD_PROBE_HAND, what, sizeof what, NULL, 0, &err) == 1);
    CHECK_STR(what, "swap");
  }
}

TEST("libblkid names an md 0.90 member at the end of an image with its metadata version") {
  unsigned char sb[4096] = {0};
  put_md090(sb);
  uint64_t size = IMG_BYTES + 4096; /* not 64 KiB aligned */
  const char *img = write_image("md.img", sb, sizeof sb, (size & ~(uint64_t)0xffff) - 0x10000, size);
  REQUIRE(img);
  char what[256];
  struct ssdrev_err err = {{0}};
  CHECK(bench_guard_find_signatures(img, GUARD_PROBE_BLKID, what, sizeof what, NULL, 0, &err) == 1);
  CHECK_CONTAINS(what, "md RAID member (metadata 0.90");
  CHECK(bench_guard_find_signatures(img, GUARD_PROBE_HAND, what, sizeof what, NULL, 0, &err) == 1);
  CHECK_STR(what, "md RAID member (metadata 0.90)");
  char raw[128];
  CHECK(bench_guard_find_signatures(img, GUARD_PROBE_AUTO, what, sizeof what, raw, sizeof raw, &err) == 1);
  CHECK_STR(raw, "blkid TYPE=linux_raid_member");
  CHECK(bench_guard_find_signatures(img, GUARD_PROBE_HAND, what, sizeof what, raw, sizeof raw, &err) == 1);
  CHECK_STR(raw, "hand list");
}

TEST("A blank image has no signature by either probe; a missing one is an error naming it") {
  const char *img = write_image("blank.img", NULL, 0, 0, IMG_BYTES);
  REQUIRE(img);
  char what[256] = "x";
  struct ssdrev_err err = {{0}};
  CHECK(bench_guard_find_signatures(img, GUARD_PROBE_BLKID, what, sizeof what, NULL, 0, &err) == 0);
  CHECK_STR(what, "");
  CHECK(bench_guard_find_signatures(img, GUARD_PROBE_HAND, what, sizeof what, NULL, 0, &err) == 0);
  CHECK(bench_guard_find_signatures(img, GUARD_PROBE_AUTO, what, sizeof what, NULL, 0, &err) == 0);
  CHECK(bench_guard_find_signatures(test_path("absent.img"), GUARD_PROBE_BLKID, what, sizeof what, NULL, 0, &err) < 0);
  CHECK_CONTAINS(err.msg, "absent.img");
  CHECK(bench_guard_find_signatures(test_path("absent.img"), GUARD_PROBE_AUTO, what, sizeof what, NULL, 0, &err) == -ENOENT);
  CHECK_CONTAINS(err.msg, "absent.img");
}

TEST("Two signatures on one image are both named, each once") {
  unsigned char *b = calloc(1, GUARD_HEAD_BYTES);
  REQUIRE(b);
  put_swap(b, 65536);
  const char *img = write_image("two.img", b, GUARD_HEAD_BYTES, 0, IMG_BYTES);
  REQUIRE(img);
  unsigned char sb[4096] = {0};
  put_md090(sb);
  int fd = open(img, O_WRONLY);
  REQUIRE(fd >= 0);
  REQUIRE(pwrite(fd, sb, sizeof sb, IMG_BYTES - 0x10000) == (ssize_t)sizeof sb);
  close(fd);
  free(b);
  char what[256];
  struct ssdrev_err err = {{0}};
  /* the hand list: one from the start, one from the end */
  CHECK(bench_guard_find_signatures(img, GUARD_PROBE_HAND, what, sizeof what, NULL, 0, &err) == 2);
  CHECK_STR(what, "swap, md RAID member (metadata 0.90)");
  CHECK(bench_guard_find_signatures(img, GUARD_PROBE_BLKID, what, sizeof what, NULL, 0, &err) == 2);
  CHECK_CONTAINS(what, "swap");
  CHECK_CONTAINS(what, "md RAID member (metadata 0.90");
}
