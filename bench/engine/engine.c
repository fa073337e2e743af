/* engine.c — the engine registry: a table of ops structs, looked up by name.
 * The runner never asks "which engine is this?"; it calls the hooks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bench/bench.h"
#include "bench/engine/engine_int.h"


/* In the order bench_engine_default tries them. */
static const struct bench_engine_ops *const engines[] = {
    &bench_engine_uring_ops,
    &bench_engine_psync_ops,
    &bench_engine_sim_ops,
};

/* The hooks every engine must fill (idle is optional), at this version. */
static int ops_complete(const struct bench_engine_ops *o) {
  return o->version == BENCH_ENGINE_OPS_VERSION && o->name && o->accepts && o->setup && o->submit &&
         o->reap && o->cleanup && o->now_ns;
}

const struct bench_engine_ops *bench_engine_find(const char *name) {
  if (!name) return NULL;
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
    if (engines[i]->name && !strcmp(engines[i]->name, name))
      return ops_complete(engines[i]) ? engines[i] : NULL;
  return NULL;
}

const struct bench_engine_ops *bench_engine_default(struct bench_target *t) {
  for (size_t i = 0; t && i < sizeof engines / sizeof engines[0]; i++)
    if (ops_complete(engines[i]) && engines[i]->accepts(t)) return engines[i];
  return NULL;
}
