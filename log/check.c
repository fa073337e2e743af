/* check.c — the one validity rule of a per-I/O record, shared by the
 * analysis (which refuses a log holding a record no run can produce) and
 * the converters of other tools' logs (which refuse the line that would
 * make one, naming it), so that an import never accepts what the analysis
 * then refuses. */
#include <errno.h>
#include <stdio.h>
#include "log/ssdlog.h"

uint64_t ssdlog_params_max_done_ns(const char *params_json) {
  json_t *p = params_json ? json_loads(params_json, 0, NULL) : NULL;
  const json_t *m = json_object_get(p, "measure_ns");
  long double lim = 0;
  if (json_is_integer(m) && json_integer_value(m) > 0) {
    lim = (long double)json_integer_value(m);
    const char *more[] = {"ramp_ns", "idle_ns"};
    for (unsigned i = 0; i < 2; i++) {
      const json_t *v = json_object_get(p, more[i]);
      if (json_is_integer(v) && json_integer_value(v) > 0) lim += (long double)json_integer_value(v);
    }
    lim = 2 * lim + 600e9L;
  }
  json_decref(p);
  return lim <= 0 ? 0 : lim >= (long double)INT64_MAX ? (uint64_t)INT64_MAX : (uint64_t)lim;
}

int ssdlog_rec_check(uint64_t submit_ns, uint64_t lat_ns, int has_offset, uint64_t offset_bytes,
                     uint64_t len_bytes, uint64_t max_done_ns, char *why, size_t why_len) {
  if (submit_ns > (uint64_t)INT64_MAX || lat_ns > (uint64_t)INT64_MAX - submit_ns) {
    snprintf(why, why_len, "submit_ns %llu + lat_ns %llu is beyond 2^63 ns", (unsigned long long)submit_ns,
             (unsigned long long)lat_ns);
    return -EINVAL;
  }
  if (max_done_ns && submit_ns + lat_ns > max_done_ns) {
    snprintf(why, why_len,
             "it completes at %.9g s, far beyond the test's duration (limit %.9g s from ramp_ns + measure_ns + "
             "idle_ns in its params)",
             (double)(submit_ns + lat_ns) / 1e9, (double)max_done_ns / 1e9);
    return -EINVAL;
  }
  if (has_offset && (offset_bytes > (uint64_t)INT64_MAX || len_bytes > (uint64_t)INT64_MAX - offset_bytes)) {
    snprintf(why, why_len, "offset_bytes %llu + len_bytes %llu is beyond 2^63", (unsigned long long)offset_bytes,
             (unsigned long long)len_bytes);
    return -EINVAL;
  }
  return 0;
}
