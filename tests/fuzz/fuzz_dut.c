/* fuzz_dut.c — DUT info from nvme-cli and smartctl JSON (import/dut.c:
 * import_dut_parse). The input holds up to three texts separated by NUL
 * bytes: nvme id-ctrl, nvme smart-log, smartctl -a -j; an empty part is
 * "not given". The serial switch is the input length's low bit. A summary
 * must never carry the serial unless asked. */
#include "tests/fuzz/fuzz.h"
#include "import/import.h"

static int fuzz_dut_one(const uint8_t *data, size_t size) {
  char *parts[3] = {NULL, NULL, NULL};
  size_t start = 0;
  for (int k = 0; k < 3 && start <= size; k++) {
    const uint8_t *z = k < 2 ? memchr(data + start, 0, size - start) : NULL;
    size_t end = z ? (size_t)(z - data) : size;
    if (end > start) parts[k] = fuzz_strdup(data + start, end - start);
    start = end + 1;
    if (!z) break;
  }
  struct ssdrev_err err = {{0}};
  int serial = (int)(size & 1);
  json_t *dut = import_dut_parse(parts[0], parts[1], parts[2], serial, &err);
  fuzz_check_err(&err);
  if (!dut) {
    if (!err.msg[0]) abort();
  } else {
    if (!json_is_object(dut)) abort();
    if (!serial && json_object_get(dut, "serial")) abort();
    char *s = json_dumps(dut, 0);
    if (!s) abort();
    free(s);
    json_decref(dut);
  }
  for (int k = 0; k < 3; k++) free(parts[k]);
  return 0;
}

FUZZ_ENTRY(fuzz_dut_one)
