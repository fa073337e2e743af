/* fuzz_cdm.c — the CrystalDiskMark "Save text" parser (import/cdm.c:
 * import_cdm_parse) on arbitrary text. The input is copied into a buffer of
 * exactly its size, without a NUL, so a read past the end is an ASan error. */
#include "tests/fuzz/fuzz.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"

static int fuzz_cdm_one(const uint8_t *data, size_t size) {
  struct ssdrev_err err = {{0}};
  char *text = malloc(size ? size : 1);
  if (!text) abort();
  if (size) memcpy(text, data, size);
  json_t *out = import_cdm_parse(text, size, "fuzz.txt", &err);
  fuzz_check_err(&err);
  if (!out) {
    if (!err.msg[0]) abort(); /* a refusal must say why */
  } else {
    json_t *cells = json_object_get(out, "cells");
    if (!json_is_array(cells) || json_array_size(cells) == 0) abort();
    /* A cell that was accepted must describe a real test: positive sizes and
     * depths (a cast of an out-of-range double gives garbage, or UB). */
#ifndef FUZZ_CDM_SKIP_RANGE /* set to fuzz on past the known range bug */
    size_t i;
    json_t *c;
    json_array_foreach(cells, i, c) {
      const char *keys[] = {"block_bytes", "qd", "threads"};
      for (size_t k = 0; k < 3; k++)
        if (json_integer_value(json_object_get(c, keys[k])) <= 0) {
          fprintf(stderr, "fuzz_cdm: accepted a cell with %s = %lld\n", keys[k],
                  (long long)json_integer_value(json_object_get(c, keys[k])));
          abort();
        }
    }
#endif
    char *dump = json_dumps(out, 0); /* every value must serialize */
    if (!dump) abort();
    free(dump);
    json_decref(out);
  }
  free(text);
  return 0;
}

FUZZ_ENTRY(fuzz_cdm_one)
