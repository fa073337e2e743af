/* fresh.c — the one rule for "is analysis.json stale", shared by
 * `ssdrev report`, `ssdrev chart` (render/doc/data.c) and `ssdrev compare`
 * (render/compare/compare.c), so they never disagree about the same archive. */
#include <stdio.h>
#include <string.h>
#include "analyze/analyze_int.h"

int analyze_is_fresh(const json_t *analysis, uint32_t manifest_crc32c) {
  if (!json_is_object(analysis)) return 0;
  const char *fmt = json_string_value(json_object_get(analysis, "format"));
  if (!fmt || strcmp(fmt, "ssdrev-analysis")) return 0;
  /* the manifest's bytes, not mtimes: a copy or a checkout changes mtimes
   * without changing the run, a resumed review changes the run */
  const char *had = json_string_value(json_object_get(analysis, "manifest_crc32c"));
  char hex[16];
  snprintf(hex, sizeof hex, "%08x", manifest_crc32c);
  if (!had || strcmp(had, hex)) return 0;
  /* an analysis from an older ssdrev lacks sections readers now rely on
   * (e.g. the latency histograms of content version 2) */
  json_t *cv = json_object_get(analysis, "content_version");
  return json_is_integer(cv) && json_integer_value(cv) >= ANALYZE_CONTENT_VERSION;
}
