/* record.c — a job as a test of a run archive: the one way `ssdrev run` and
 * the review method describe the target, name the engine, add the test entry,
 * run the job and record its result and status (docs/archive.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "archive/archive.h"
#include "sim/sim.h"
#include "bench/bench.h"
#include "bench/target/target_int.h"

const char *bench_target_kind_name(enum bench_target_kind k) {
  static const char *const names[] = {"unknown", "file", "block", "sim"};
  return k >= BENCH_TARGET_FILE && k <= BENCH_TARGET_SIM ? names[k] : names[0];
}

json_t *bench_job_params(const struct bench_job *job, struct bench_target *t,
                         const struct bench_engine_ops *ops) {
  json_t *params = bench_job_to_json(job);
  /* How the target was opened changes what the latencies mean; a virtual
   * clock does no real I/O, so there it means nothing. */
  if (params && ops && !(ops->flags & BENCH_ENGINE_VIRTUAL_CLOCK))
    json_object_set_new(params, "direct", json_boolean(bench_target_is_direct(t)));
  return params;
}

json_t *bench_target_dut(struct bench_target *t, int include_serial, json_t **raw, struct ssdrev_err *err) {
  if (raw) *raw = NULL;
  json_t *dut = NULL;
  struct sim *s = bench_target_sim(t);
  if (s) {
    const struct sim_model *m = sim_get_model(s);
    dut = sim_model_dut(m);
    /* the model's label names the run unless the user gives one */
    if (dut && m->label[0] && !json_object_get(dut, "label")) json_object_set_new(dut, "label", json_string(m->label));
  }
  else if (bench_target_get_kind(t) == BENCH_TARGET_BLOCK)
    dut = bench_dut_collect(bench_target_spec(t), include_serial, raw, err);
  else dut = json_object();
  if (!dut) return NULL;
  if (!json_object_get(dut, "capacity_bytes"))
    json_object_set_new(dut, "capacity_bytes", json_integer((json_int_t)bench_target_size_bytes(t)));
  if (!json_object_get(dut, "lba_bytes"))
    json_object_set_new(dut, "lba_bytes", json_integer((json_int_t)bench_target_lba_bytes(t)));
  return dut;
}

void bench_record_target(struct archive *run, struct bench_target *t, json_t *dut, const char *label) {
  json_t *m = run->manifest, *tg = json_object_get(m, "target");
  if (json_is_object(tg) && !json_object_get(tg, "kind")) {
    json_object_set_new(tg, "kind", json_string(bench_target_kind_name(bench_target_get_kind(t))));
    json_object_set_new(tg, "size_bytes", json_integer((json_int_t)bench_target_size_bytes(t)));
    json_object_set_new(tg, "lba_bytes", json_integer((json_int_t)bench_target_lba_bytes(t)));
  }
  if (!json_object_get(m, "simulated"))
    json_object_set_new(m, "simulated", json_boolean(bench_target_sim(t) != NULL));
  if (!label && dut) label = json_string_value(json_object_get(dut, "label"));
  if (label && *label && !json_object_get(m, "label")) json_object_set_new(m, "label", json_string(label));
  if (dut) {
    /* the label is the run's, not a DUT fact */
    json_object_del(dut, "label");
    if (!json_object_get(m, "dut")) json_object_set(m, "dut", dut);
    json_decref(dut);
  }
}

int bench_record_job(struct archive *run, struct bench_target *t, const struct bench_job *job_in,
                     const struct bench_record_opts *o, struct bench_job_result *res,
                     struct ssdrev_err *err) {
  struct bench_job_result local;
  if (!res) res = &local;
  memset(res, 0, sizeof *res);
  json_t *extra = o->extra;
  struct bench_job job = *job_in;
  const struct bench_engine_ops *ops = job.engine[0] ? bench_engine_find(job.engine) : bench_engine_default(t);
  if (!ops) {
    json_decref(extra);
    if (job.engine[0])
      return ssdrev_fail(err, -EINVAL, "job '%s': unknown engine '%s' (io_uring, psync, sim)", job.name, job.engine);
    return ssdrev_fail(err, -ENOSYS, "job '%s': no engine can drive '%s'", job.name, bench_target_spec(t));
  }
  /* The engine that runs it, by name, in the manifest and the log header alike. */
  snprintf(job.engine, sizeof job.engine, "%s", ops->name);
  char rel[300];
  archive_log_rel(rel, sizeof rel, job.name);
  json_t *test = archive_add_test(run, job.name, bench_job_params(&job, t, ops), o->no_log ? NULL : rel);
  if (!test) {
    json_decref(extra);
    return ssdrev_fail(err, -ENOMEM, "out of memory");
  }
  json_object_set_new(test, "kind", json_string(o->kind ? o->kind : "job"));
  if (extra) {
    json_object_update(test, extra);
    json_decref(extra);
  }
  int rc = o->save_first ? archive_save(run, err) : 0;
  if (rc) return rc;
  char log_abs[8400];
  snprintf(log_abs, sizeof log_abs, "%s", archive_path(run, rel));
  uint64_t h0, n0, h1, n1;
  int counters = bench_target_write_counters(t, &h0, &n0) == 0;
  rc = bench_job_run(t, &job, o->no_log ? NULL : log_abs, o->progress, o->progress_arg, res, err);
  json_object_set_new(test, "result", bench_job_result_to_json(res));
  if (counters && bench_target_write_counters(t, &h1, &n1) == 0) {
    /* the test's share of the drive's counters, and the DUT's totals after it */
    json_object_set_new(test, "drive_counters",
                        json_pack("{s:I, s:I, s:I, s:I}", "host_write_bytes", (json_int_t)(h1 - h0), "nand_write_bytes",
                                  (json_int_t)(n1 - n0), "host_write_total", (json_int_t)h1, "nand_write_total",
                                  (json_int_t)n1));
    json_t *dut = json_object_get(run->manifest, "dut");
    if (json_is_object(dut)) {
      json_object_set_new(dut, "host_write_bytes", json_integer((json_int_t)h1));
      json_object_set_new(dut, "nand_write_bytes", json_integer((json_int_t)n1));
    }
  }
  if (rc < 0) json_object_set_new(test, "error", json_string(err && err->msg[0] ? err->msg : "failed"));
  archive_end_test(test, rc < 0 ? "failed" : res->interrupted ? "interrupted" : "complete");
  struct ssdrev_err serr = {{0}};
  int src = archive_save(run, &serr);
  if (rc < 0) return rc;
  if (src) {
    if (err) *err = serr;
    return src;
  }
  return 0;
}
