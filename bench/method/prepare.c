/* prepare.c — what the steady_state and consistency steps may do to the
 * drive before their random writes (key "prepare"): nothing, a purge, a
 * purge and one sequential pass (AnandTech's consistency test: a secure
 * erase, then the drive filled with sequential data), or a purge and two
 * passes (the SNIA PTS workload-independent preconditioning: twice the user
 * capacity in 128 KiB sequential writes). */
#include <errno.h>
#include <string.h>
#include "bench/method/review_int.h"

static const char *const prep_names[] = {"none", "purge", "fill", "pts"};

const char *bench_review_prepare_text(int prepare) {
  static const char *const text[] = {"", "purge, ", "purge + 1x sequential fill, ", "purge + 2x sequential fill (PTS), "};
  return prepare >= 0 && prepare <= REVIEW_PREP_PTS ? text[prepare] : "";
}

int bench_review_json_prepare(const json_t *obj, struct review_step *s, const char *where, struct ssdrev_err *err) {
  const json_t *v = json_object_get(obj, "prepare");
  if (!v) return 0;
  for (size_t i = 0; json_is_string(v) && i < sizeof prep_names / sizeof prep_names[0]; i++)
    if (!strcmp(json_string_value(v), prep_names[i])) {
      s->prepare = (int)i;
      return 0;
    }
  return ssdrev_fail(err, -EINVAL, "%s: 'prepare' must be \"none\", \"purge\", \"fill\" or \"pts\"", where);
}

/* the passes' sequential writes: 128 KiB at QD32 */
#define PREP_BLOCK (128u * 1024)
#define PREP_QD 32u

static unsigned passes_of(int prepare) { return prepare == REVIEW_PREP_PTS ? 2 : prepare == REVIEW_PREP_FILL ? 1 : 0; }

double bench_review_prepare_estimate(const struct review_profile *p, const struct review_step *s, uint64_t cap,
                                     enum review_basis basis) {
  if (s->prepare == REVIEW_PREP_NONE) return 0;
  return bench_review_cost(p, basis, &bench_review_purge_load) +
         passes_of(s->prepare) * bench_review_seq_write_cost(p, basis, bench_review_align_down(cap, PREP_BLOCK),
                                                             PREP_BLOCK, PREP_QD, 0);
}

int bench_review_prepare(struct review_ctx *c, const struct review_step *s, struct ssdrev_err *err) {
  if (s->prepare == REVIEW_PREP_NONE) return 0;
  int rc = bench_review_purge(c, BENCH_PURGE_AUTO, err);
  for (unsigned i = 1; !rc && i <= passes_of(s->prepare); i++) {
    char name[160];
    snprintf(name, sizeof name, "%s.prepare%u", s->id, i);
    struct bench_job job;
    struct bench_job_result res;
    bench_review_job_init(c, &job, name);
    job.pattern = BENCH_SEQ;
    job.read_pct = 0;
    job.block_bytes = PREP_BLOCK;
    job.qd = PREP_QD;
    uint64_t bytes = bench_review_align_down(c->cap_bytes, job.block_bytes);
    job.span_bytes = bytes;
    job.size_bytes = bytes; /* size-based: exactly one pass */
    /* a prefill test: analyze traces it as a fill, and the random-write
     * volume the steady-state evidence counts starts again after it */
    rc = bench_review_run_job(c, name, "prefill", json_pack("{s:f, s:s}", "fill_pct", 100.0, "purpose", "prepare"),
                              &job, (double)bytes / (c->prof->set.plan_write_mb_s * 1e6), &res, err);
  }
  return rc;
}
