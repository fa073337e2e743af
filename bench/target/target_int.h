/* bench/target/target_int.h — private to bench/: what engines need from an open target.
 * Not part of the public API (bench.h keeps struct bench_target opaque). */
#ifndef SSDREV_TARGET_INT_H
#define SSDREV_TARGET_INT_H

#include "bench/bench.h"

/* The file descriptor engines submit to (-1 for sim targets). Borrowed: the
 * target keeps ownership and closes it in bench_target_close. */
int bench_target_fd(const struct bench_target *t);
/* 1 when the fd was opened with O_DIRECT. */
int bench_target_is_direct(const struct bench_target *t);
/* 1 when the target was opened for writing. */
int bench_target_writable(const struct bench_target *t);
/* The alignment offsets and lengths need on this target (0 = none), and in
 * *why (if non-NULL) the reason, for messages. */
uint32_t bench_target_io_align(const struct bench_target *t, const char **why);

#endif
