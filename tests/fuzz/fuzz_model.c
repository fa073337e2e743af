/* fuzz_model.c — the simulated drive's model file (sim/model.c:
 * sim_model_load) on arbitrary text; a model that loads is then used
 * the way the sim and `ssdrev model` use it (DUT summary, derived speeds). */
#include "tests/fuzz/fuzz.h"
#include "sim/sim.h"

static int fuzz_model_one(const uint8_t *data, size_t size) {
  struct ssdrev_err err = {{0}};
  const char *path = fuzz_write("fuzz.model", data, size);
  struct sim_model m;
  int rc = sim_model_load(&m, path, &err);
  fuzz_check_err(&err);
  if (rc) {
    if (!err.msg[0]) abort();
    return 0;
  }
  if (strnlen(m.name, sizeof m.name) == sizeof m.name || strnlen(m.label, sizeof m.label) == sizeof m.label)
    abort(); /* strings must stay terminated */
  json_t *dut = sim_model_dut(&m);
  if (dut) {
    char *s = json_dumps(dut, 0);
    if (!s) abort();
    free(s);
    json_decref(dut);
  }
  struct sim_derived d;
  sim_model_derive(&m, &d);
  return 0;
}

FUZZ_ENTRY(fuzz_model_one)
