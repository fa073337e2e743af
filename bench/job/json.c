/* json.c — job defaults and the job <-> JSON mapping used by the
 * manifest and the log header (docs/archive.md, TEST.params). */
#include <errno.h>
#include <string.h>
#include "bench/bench.h"
#include "log/ssdlog.h"

void bench_job_defaults(struct bench_job *job) {
  memset(job, 0, sizeof *job);
  snprintf(job->name, sizeof job->name, "job");
  job->pattern = BENCH_RAND;
  job->read_pct = 100;
  job->block_bytes = 4096;
  job->qd = 32;
  job->threads = 1;
  job->measure_ns = 5000000000ull;
  job->seed = 1;
}

static const char *const wait_names[] = {"auto", "sleep", "poll", "iopoll"};
static const char *const submit_names[] = {"each", "batch"};

int bench_submit_from_name(const char *name) {
  for (int i = 0; i < (int)(sizeof submit_names / sizeof submit_names[0]); i++)
    if (!strcmp(name, submit_names[i])) return i;
  return -1;
}

const char *bench_submit_name(enum bench_submit s) {
  return (unsigned)s < sizeof submit_names / sizeof submit_names[0] ? submit_names[s] : "each";
}

int bench_wait_from_name(const char *name) {
  for (int i = 0; i < (int)(sizeof wait_names / sizeof wait_names[0]); i++)
    if (!strcmp(name, wait_names[i])) return i;
  return -1;
}

const char *bench_wait_name(enum bench_wait w) {
  return (unsigned)w < sizeof wait_names / sizeof wait_names[0] ? wait_names[w] : "auto";
}

json_t *bench_job_to_json(const struct bench_job *job) {
  return json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:I, s:s, s:s, s:s, s:I}",
                   "name", job->name,
                   "pattern", job->pattern == BENCH_SEQ ? "seq" : "rand",
                   "read_pct", (json_int_t)job->read_pct,
                   "block_bytes", (json_int_t)job->block_bytes,
                   "qd", (json_int_t)job->qd,
                   "threads", (json_int_t)job->threads,
                   "offset_bytes", (json_int_t)job->offset_bytes,
                   "span_bytes", (json_int_t)job->span_bytes,
                   "ramp_ns", (json_int_t)job->ramp_ns,
                   "measure_ns", (json_int_t)job->measure_ns,
                   "size_bytes", (json_int_t)job->size_bytes,
                   "max_ios", (json_int_t)job->max_ios,
                   "seed", (json_int_t)job->seed,
                   "zero_buffers", job->zero_buffers != 0,
                   "max_errors", (json_int_t)job->max_errors,
                   "engine", job->engine,
                   "wait", bench_wait_name(job->wait),
                   "submit", bench_submit_name(job->submit),
                   "idle_ns", (json_int_t)job->idle_ns);
}

/* Reads an optional non-negative integer key. */
static int get_u64(const json_t *obj, const char *key, uint64_t max, uint64_t *out, struct ssdrev_err *err) {
  json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) > max)
    return ssdrev_fail(err, -EINVAL, "job parameter '%s' must be an integer in 0..%llu", key, (unsigned long long)max);
  *out = (uint64_t)json_integer_value(v);
  return 0;
}

static int get_str(const json_t *obj, const char *key, char *buf, size_t len, struct ssdrev_err *err) {
  json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (!json_is_string(v) || json_string_length(v) >= len)
    return ssdrev_fail(err, -EINVAL, "job parameter '%s' must be a string of under %zu bytes", key, len);
  snprintf(buf, len, "%s", json_string_value(v));
  return 0;
}

int bench_job_from_json(struct bench_job *job, const json_t *obj, struct ssdrev_err *err) {
  if (!json_is_object(obj)) return ssdrev_fail(err, -EINVAL, "job parameters must be a JSON object");
  bench_job_defaults(job);
  int rc = get_str(obj, "name", job->name, sizeof job->name, err);
  if (rc) return rc;
  char pattern[8] = "";
  if ((rc = get_str(obj, "pattern", pattern, sizeof pattern, err))) return rc;
  if (pattern[0]) {
    if (!strcmp(pattern, "seq")) job->pattern = BENCH_SEQ;
    else if (!strcmp(pattern, "rand")) job->pattern = BENCH_RAND;
    else return ssdrev_fail(err, -EINVAL, "job parameter 'pattern' must be \"seq\" or \"rand\", not \"%s\"", pattern);
  }
  uint64_t v = 0;
  struct { const char *key; uint64_t max; int width; void *dst; } const ints[] = {
      {"read_pct", 100, 4, &job->read_pct},
      {"block_bytes", UINT32_MAX, 4, &job->block_bytes},
      {"qd", 65536, 4, &job->qd},
      {"threads", 4096, 4, &job->threads},
      {"offset_bytes", INT64_MAX, 8, &job->offset_bytes},
      {"span_bytes", INT64_MAX, 8, &job->span_bytes},
      {"ramp_ns", INT64_MAX, 8, &job->ramp_ns},
      {"measure_ns", INT64_MAX, 8, &job->measure_ns},
      {"size_bytes", INT64_MAX, 8, &job->size_bytes},
      {"max_ios", INT64_MAX, 8, &job->max_ios},
      {"seed", INT64_MAX, 8, &job->seed},
      {"max_errors", INT64_MAX, 8, &job->max_errors},
      {"idle_ns", INT64_MAX, 8, &job->idle_ns},
  };
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    if (!json_object_get(obj, ints[i].key)) continue;
    if ((rc = get_u64(obj, ints[i].key, ints[i].max, &v, err))) return rc;
    if (ints[i].width == 4) {
      uint32_t v32 = (uint32_t)v;
      memcpy(ints[i].dst, &v32, 4);
    } else {
      memcpy(ints[i].dst, &v, 8);
    }
  }
  /* each time fits 63 bits, but the run adds them to its start: a sum
   * beyond 2^63 ns wrapped the end time and the job ended at once */
  if ((unsigned __int128)job->ramp_ns + job->measure_ns + job->idle_ns > (unsigned __int128)INT64_MAX)
    return ssdrev_fail(err, -EINVAL, "job parameters ramp_ns + measure_ns + idle_ns = %llu + %llu + %llu ns are beyond 2^63 ns",
                       (unsigned long long)job->ramp_ns, (unsigned long long)job->measure_ns,
                       (unsigned long long)job->idle_ns);
  json_t *z = json_object_get(obj, "zero_buffers");
  if (z && !json_is_boolean(z)) return ssdrev_fail(err, -EINVAL, "job parameter 'zero_buffers' must be true or false");
  if (z) job->zero_buffers = json_is_true(z);
  char wait[8] = "";
  if ((rc = get_str(obj, "wait", wait, sizeof wait, err))) return rc;
  if (wait[0]) {
    int w = bench_wait_from_name(wait);
    if (w < 0)
      return ssdrev_fail(err, -EINVAL, "job parameter 'wait' must be \"auto\", \"sleep\", \"poll\" or \"iopoll\", not \"%s\"", wait);
    job->wait = (enum bench_wait)w;
  }
  /* Absent in logs written before the key existed (those runs handed I/Os
   * over in batches; their result has no "submit" either). */
  char submit[8] = "";
  if ((rc = get_str(obj, "submit", submit, sizeof submit, err))) return rc;
  if (submit[0]) {
    int m = bench_submit_from_name(submit);
    if (m < 0) return ssdrev_fail(err, -EINVAL, "job parameter 'submit' must be \"each\" or \"batch\", not \"%s\"", submit);
    job->submit = (enum bench_submit)m;
  }
  return get_str(obj, "engine", job->engine, sizeof job->engine, err);
}

json_t *bench_job_result_to_json(const struct bench_job_result *res) {
  json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:f}", "ios", (json_int_t)res->ios, "bytes",
                        (json_int_t)res->bytes, "errors", (json_int_t)res->errors, "elapsed_ns",
                        (json_int_t)res->elapsed_ns, "mb_s", res->mb_s, "iops", res->iops, "mean_lat_ns",
                        res->mean_lat_ns);
  if (o && res->engine[0]) json_object_set_new(o, "engine", json_string(res->engine));
  if (o && res->wait[0]) json_object_set_new(o, "wait", json_string(res->wait));
  if (o && res->submit[0]) json_object_set_new(o, "submit", json_string(res->submit));
  return o;
}

void bench_tally_merge(struct bench_tally *into, const struct bench_tally *from) {
  if (!from->ios) return;
  if (!into->ios || from->first_submit_ns < into->first_submit_ns) into->first_submit_ns = from->first_submit_ns;
  if (from->last_done_ns > into->last_done_ns) into->last_done_ns = from->last_done_ns;
  into->ios += from->ios, into->bytes += from->bytes, into->lat_sum_ns += from->lat_sum_ns;
}

void bench_tally_result(const struct bench_tally *t, struct bench_job_result *res) {
  res->ios = t->ios, res->bytes = t->bytes;
  res->elapsed_ns = t->ios && t->last_done_ns > t->first_submit_ns ? t->last_done_ns - t->first_submit_ns : 0;
  res->mb_s = res->iops = 0;
  if (res->elapsed_ns) {
    res->mb_s = (double)res->bytes / ((double)res->elapsed_ns / 1e9) / 1e6;
    res->iops = (double)res->ios / ((double)res->elapsed_ns / 1e9);
  }
  res->mean_lat_ns = res->ios ? (double)t->lat_sum_ns / (double)res->ios : 0;
}

int bench_job_result_from_log(const char *path, struct bench_job_result *res, struct ssdrev_err *err) {
  struct ssdlog_reader *r = NULL;
  int rc = ssdlog_open(&r, path, 0, err);
  if (rc) return rc;
  struct bench_tally t = {0};
  uint64_t errors = 0;
  struct ssdlog_chunk c;
  unsigned cols = SSDLOG_COL_SUBMIT | SSDLOG_COL_LAT | SSDLOG_COL_LEN | SSDLOG_COL_STATUS | SSDLOG_COL_FLAGS;
  while ((rc = ssdlog_next_chunk(r, cols, &c, err)) > 0) {
    for (size_t i = 0; i < c.n; i++) {
      if (c.status[i] < 0) errors++;
      if (ssdlog_measured(c.flags[i], c.status[i])) bench_tally_io(&t, c.submit_ns[i], c.lat_ns[i], c.len_bytes[i]);
    }
  }
  ssdlog_close(r);
  if (rc < 0) return rc;
  bench_tally_result(&t, res);
  res->errors = errors;
  return 0;
}
