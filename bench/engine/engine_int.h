/* engine_int.h — what the engine table (bench/engine/engine.c) needs from the
 * engines themselves (private to bench/engine/). */
#ifndef SSDREV_ENGINE_INT_H
#define SSDREV_ENGINE_INT_H

/* 1 when this kernel lets the process set up an io_uring (io_uring_setup may
 * fail with ENOSYS, or EPERM under a seccomp policy or sysctl), else 0. */
int bench_engine_uring_available(void);

#endif
