/* slc.c — the SLC cache estimate of a fill trace as the analysis reports it.
 * The rule itself (change points, the evidence for a cliff, levels;
 * docs/flags.md, "SLC estimate") is base/slc.c, shared with the method's
 * write-until-the-cliff (bench/method/cliff.c), so both decide alike. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/analyze_int.h"

int analyze_slc_estimate(const double *gib, const double *mb_s, size_t n, double min_seg_gib,
                         struct ssdrev_slc *out, struct ssdrev_err *err) {
  return ssdrev_slc_estimate(gib, mb_s, n, min_seg_gib, 0, out, err);
}

int analyze_slc_estimate_ex(const double *gib, const double *mb_s, size_t n, double min_seg_gib, double min_level_s,
                            struct ssdrev_slc *out, struct ssdrev_err *err) {
  return ssdrev_slc_estimate(gib, mb_s, n, min_seg_gib, min_level_s, out, err);
}

json_t *analyze_slc_to_json(const struct ssdrev_slc *s, double min_seg_gib) {
  json_t *o = json_object(), *d = json_array(), *lv = json_array();
  json_object_set_new(o, "found", json_boolean(s->found));
  json_object_set_new(o, "cache_gib", s->found ? analyze_json_real(s->cache_gib, 3) : json_null());
  /* without a cliff the whole fill ran at one level: its speed, not an
   * "in-cache" speed */
  json_object_set_new(o, s->found ? "cache_mb_s" : "fill_mb_s", analyze_json_real(s->cache_mb_s, 1));
  if (!s->found) json_object_set_new(o, "cache_mb_s", json_null());
  json_object_set_new(o, "post_cache_mb_s", s->found ? analyze_json_real(s->post_cache_mb_s, 1) : json_null());
  json_object_set_new(o, "post_first_mb_s", s->found ? analyze_json_real(s->post_first_mb_s, 1) : json_null());
  json_object_set_new(o, "written_gib", analyze_json_real(s->nlevels ? s->levels[s->nlevels - 1].to_gib : 0, 3));
  for (unsigned i = 0; i < s->ndrops; i++) {
    json_t *e = json_object();
    json_object_set_new(e, "at_gib", analyze_json_real(s->drops[i].at_gib, 3));
    json_object_set_new(e, "from_mb_s", analyze_json_real(s->drops[i].from_mb_s, 1));
    json_object_set_new(e, "to_mb_s", analyze_json_real(s->drops[i].to_mb_s, 1));
    json_array_append_new(d, e);
  }
  for (unsigned i = 0; i < s->nlevels; i++) {
    /* names: the cache, then "post-cache" and further levels numbered */
    char name[32];
    if (!i) snprintf(name, sizeof name, s->found ? "cache" : "whole");
    else if (i == 1) snprintf(name, sizeof name, "post_cache");
    else snprintf(name, sizeof name, "post_cache_%u", i);
    json_array_append_new(lv, json_pack("{s:s, s:o, s:o, s:o}", "name", name, "from_gib",
                                        analyze_json_real(s->levels[i].from_gib, 3), "to_gib",
                                        analyze_json_real(s->levels[i].to_gib, 3), "mb_s",
                                        analyze_json_real(s->levels[i].mb_s, 1)));
  }
  json_object_set_new(o, "drops", d);
  json_object_set_new(o, "levels", lv);
  json_object_set_new(o, "segments", json_integer(s->nsegments));
  json_object_set_new(o, "noise_mb_s", analyze_json_real(s->noise_mb_s, 1));
  json_object_set_new(o, "drop_z", analyze_json_real(s->drop_z, 1));
  json_object_set_new(o, "confidence", analyze_json_real(s->confidence, 2));
  json_object_set_new(o, "resolution_gib", analyze_json_real(s->step_gib, 6));
  json_object_set_new(o, "method",
                      min_seg_gib > 0
                          ? json_sprintf("binary segmentation, BIC penalty, min segment %g GiB; cliff z >= %g", min_seg_gib, SSDREV_SLC_Z_MIN)
                          : json_sprintf("binary segmentation, BIC penalty, segments of %g GiB steps; cliff z >= %g",
                                         analyze_json_round(s->seg_step_gib, 4), SSDREV_SLC_Z_MIN));
  return o;
}
