/* guard_int.h — private to bench/: the parts of the destructive-write guard
 * (bench/target/guard.c) that live in their own files, and the hooks the unit tests
 * use. Not part of the public API. */
#ifndef SSDREV_GUARD_INT_H
#define SSDREV_GUARD_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "bench/bench.h"

/* ------------------------------------------------ in use (guard_use.c) */

/* Fails with -EBUSY and a message naming the whole chain when the block
 * device DEV (its own node is dev_path, used in the message), one of its
 * partitions, or the whole disk it is a partition of, is in use: mounted in
 * any mount namespace, active swap, held (sysfs holders, or listed as a
 * slave or md member of another device), the backing device of a loop
 * device, the home of a file that backs a loop device, a device of a mounted
 * btrfs, a zram backing device or registered with bcache. A user that is
 * itself in use is followed ("it backs /dev/loop4, which is mounted at
 * /mnt/x"). Read-only: sysfs, /proc and LOOP_GET_STATUS64. 0 when unused. */
int bench_guard_check_in_use(const char *dev_path, dev_t dev, struct ssdrev_err *err);

/* ------------------------------------------- signatures (guard_sig.c) */

/* How bench_guard_find_signatures looks. */
enum guard_probe {
  GUARD_PROBE_AUTO = 0, /* libblkid; the hand list when libblkid fails */
  GUARD_PROBE_BLKID,    /* libblkid only (fails when it cannot probe) */
  GUARD_PROBE_HAND,     /* the hand list only */
};

/* Looks for partition tables and filesystem, RAID, LVM, LUKS and swap
 * signatures on PATH (a block device or an image file), read-only. Writes
 * the names found ("swap", "ext4 filesystem", "md RAID member (metadata
 * 0.90.0)", joined by ", ") to what, and (raw, if not NULL) how they were
 * found: libblkid's names ("blkid TYPE=swap PTTYPE=dos") or "hand list...".
 * Returns the number of signatures found (0: none), or a negative errno
 * when PATH cannot be read (err says why). */
int bench_guard_find_signatures(const char *path, enum guard_probe how, char *what, size_t what_len, char *raw,
                          size_t raw_len, struct ssdrev_err *err);

/* --------------------------------------- the hand list (in guard.c) */

/* Bytes of the device's start and end the hand list needs. */
#define GUARD_HEAD_BYTES (68u * 1024u)  /* btrfs at 64 KiB + 64, swap with 64 KiB pages */
#define GUARD_TAIL_BYTES (128u * 1024u) /* md 0.90: the last 64 KiB-aligned 64 KiB block */

/* The first signature in the device's first n bytes, or NULL. */
const char *bench_guard_hand_head(const unsigned char *b, size_t n);
/* The first signature in the device's last n bytes (tail[n - 1] is the
 * device's last byte; dev_bytes its size), or NULL: md 0.90 and 1.0
 * superblocks, the GPT backup header. */
const char *bench_guard_hand_tail(const unsigned char *tail, size_t n, uint64_t dev_bytes);

#endif
