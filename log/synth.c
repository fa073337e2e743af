/* synth.c — a synthetic I/O log shaped like a real 4 KiB random-read
 * QD32 io_uring run, for tests, fuzz corpora and log-size benchmarks before
 * (and besides) real hardware. It replays the engine loop of bench/job/job.c on a
 * virtual clock: 32 I/Os in flight; one loop iteration (reap with min 1,
 * log, resubmit) takes at least loop_ns, its reap takes every completion due
 * by then and stamps them with one time, and the same number are resubmitted
 * with one submit stamp. Records are appended in
 * completion order, as the engine logs them. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "log/ssdlog.h"

#define SYN_QD 32u
#define SYN_SPAN_BYTES (1ull << 30)
#define SYN_BLOCK_BYTES 4096u

struct syn_io {
  uint64_t submit_ns, due_ns, offset_bytes;
};

static uint64_t syn_next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double syn_unit(uint64_t *s) { return (double)(syn_next(s) >> 11) * (1.0 / 9007199254740992.0); }

/* 50-150 us, skewed low, with 1 in 1000 between 0.2 and 5 ms */
static uint64_t syn_lat_ns(uint64_t *s) {
  double u = syn_unit(s);
  if (syn_unit(s) < 0.001) return 200000 + (uint64_t)(4800000.0 * u * u);
  return 50000 + (uint64_t)(100000.0 * u * u + 2000.0 * syn_unit(s));
}

static void syn_issue(struct syn_io *io, uint64_t now, uint64_t *s) {
  io->submit_ns = now;
  io->due_ns = now + syn_lat_ns(s);
  io->offset_bytes = (syn_next(s) % (SYN_SPAN_BYTES / SYN_BLOCK_BYTES)) * SYN_BLOCK_BYTES;
}

int ssdlog_synth(const char *path, uint64_t records, uint64_t seed, uint32_t loop_ns,
                    int overwrite, struct ssdrev_err *err) {
  if (!loop_ns) loop_ns = SSDLOG_SYNTH_LOOP_NS;
  static const char params[] =
      "{\"synthetic\": true, \"pattern\": \"rand\", \"read_pct\": 100, \"block_bytes\": 4096, "
      "\"qd\": 32, \"threads\": 1, \"span_bytes\": 1073741824, \"engine\": \"synth\"}";
  struct ssdlog_writer *w;
  int rc = ssdlog_writer_open(&w, path, SSDLOG_CLOCK_VIRTUAL, 1767225600000000000ull + seed,
                                 params, overwrite, err);
  if (rc) return rc;
  uint64_t s = seed, now = 0, ramp = records / 20, done = 0;
  struct syn_io io[SYN_QD];
  struct ssdlog_rec batch[SYN_QD];
  for (unsigned i = 0; i < SYN_QD; i++) syn_issue(&io[i], now, &s);
  while (done < records && !rc) {
    uint64_t first = UINT64_MAX;
    for (unsigned i = 0; i < SYN_QD; i++) first = io[i].due_ns < first ? io[i].due_ns : first;
    /* the reap returns what completed by the time it runs */
    uint64_t reap = (first > now + loop_ns ? first : now + loop_ns) + syn_next(&s) % 1000;
    unsigned nb = 0;
    for (unsigned i = 0; i < SYN_QD && done + nb < records; i++) {
      if (io[i].due_ns > reap) continue;
      uint8_t fl = done + nb < ramp ? SSDLOG_REC_RAMP : 0;
      batch[nb++] = (struct ssdlog_rec){
          .submit_ns = io[i].submit_ns, .lat_ns = reap - io[i].submit_ns,
          .offset_bytes = io[i].offset_bytes, .len_bytes = SYN_BLOCK_BYTES,
          .status = 0, .queue_id = 0, .op = SSDLOG_OP_READ,
          .flags = fl};
      syn_issue(&io[i], reap + 500, &s); /* one submit stamp per batch */
    }
    rc = ssdlog_append(w, batch, nb, err);
    done += nb;
    now = reap;
  }
  int rc2 = ssdlog_writer_close(w, rc ? NULL : err);
  return rc ? rc : rc2;
}
