/* engine_int.h — what the engine table (bench/engine/engine.c) needs from the
 * engines themselves (private to bench/engine/). */
#ifndef SSDREV_ENGINE_INT_H
#define SSDREV_ENGINE_INT_H

#include "bench/bench.h"

/* 1 when this kernel lets the process set up an io_uring (io_uring_setup may
 * fail with ENOSYS, or EPERM under a seccomp policy or sysctl), else 0. */
int bench_engine_uring_available(void);

/* The engines of the table (bench/engine/uring.c, psync.c; the sim engine
 * is public in bench/bench.h, for tools that drive a drive directly). */
extern const struct bench_engine_ops bench_engine_uring_ops;
extern const struct bench_engine_ops bench_engine_psync_ops;

#endif
