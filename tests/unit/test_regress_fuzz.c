/* test_regress_fuzz.c — replays every fuzz seed (tests/fuzz/corpus/T/) and
 * every past fuzz finding (tests/fuzz/regress/T/) through the same harness
 * the fuzzer runs (tests/fuzz/fuzz_T.c), under ASan and UBSan: a finding that
 * comes back fails `make test` without any fuzzing. The harnesses abort() on
 * a broken contract (a failed parse without a message, a saved manifest that
 * does not reopen...), which ends this binary and counts as a failure. */
#define FUZZ_NO_MAIN
#include <dirent.h>
#include <sys/wait.h>
#include "tests/unit/testlib.h"
#include "tests/fuzz/fuzz_manifest.c"
#include "tests/fuzz/fuzz_cdm.c"
#include "tests/fuzz/fuzz_log.c"
#include "tests/fuzz/fuzz_logcol.c"
#include "tests/fuzz/fuzz_model.c"
#include "tests/fuzz/fuzz_job.c"
#include "tests/fuzz/fuzz_fio.c"
#include "tests/fuzz/fuzz_fiolog.c"
#include "tests/fuzz/fuzz_profile.c"
#include "tests/fuzz/fuzz_dut.c"
#include "tests/fuzz/fuzz_template.c"
#include "tests/fuzz/fuzz_simstate.c"
#include "tests/fuzz/fuzz_analysis.c"
#include "tests/fuzz/fuzz_logstats.c"
#include "tests/fuzz/fuzz_fiojob.c"
#include "tests/fuzz/fuzz_hosts.c"
#include "log/ssdlog.h"
#include "sim/sim.h"
#include "bench/bench.h"

/* Feeds every regular file in ROOT/tests/fuzz/KIND/TARGET to fn; returns the
 * number of files, or -1 when the directory cannot be read. */
static int replay_dir(const char *kind, const char *target, int (*fn)(const uint8_t *, size_t)) {
  const char *root = getenv("SSDREV_ROOT");
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/tests/fuzz/%s/%s", root && *root ? root : ".", kind, target);
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    char *buf;
    size_t len;
    if (ssdrev_read_file(path, &buf, &len, 1u << 20, NULL)) continue;
    fn((const uint8_t *)buf, len);
    free(buf);
    n++;
  }
  closedir(d);
  return n;
}

/* Replays a target's seeds and findings in a child process, so a sanitizer
 * abort in one target fails that test only. Every target must have seeds;
 * regress/ exists once something was found. Returns the child's status. */
static int replay_target(const char *target, int (*fn)(const uint8_t *, size_t)) {
  /* scratch files go under this binary's test directory, which testlib
   * removes at exit even when a child died of a sanitizer report */
  setenv("FUZZ_TMPDIR", test_tmpdir(), 1);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    /* the child inherits testlib's atexit cleanup: leave the directory to
     * the parent (exit(), not _exit(), so LeakSanitizer still runs) */
    testlib_tmp[0] = 0;
    int n = replay_dir("corpus", target, fn);
    replay_dir("regress", target, fn);
    fflush(NULL);
    exit(n > 0 ? 0 : 3);
  }
  int st;
  if (waitpid(pid, &st, 0) != pid) return -1;
  if (!WIFEXITED(st) || WEXITSTATUS(st))
    fprintf(stderr, "    replaying tests/fuzz/*/%s failed (status 0x%x; 3 = no seeds)\n", target, st);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
#define REPLAY(target, fn) CHECK(replay_target(target, fn) == 0)

TEST("Every manifest seed and past manifest finding opens or fails cleanly") {
  REPLAY("manifest", fuzz_manifest_one);
}

TEST("Every CrystalDiskMark seed and past CDM finding parses or fails cleanly") {
  REPLAY("cdm", fuzz_cdm_one);
}

TEST("Every binary-log seed and past log finding reads or fails cleanly") {
  REPLAY("log", fuzz_log_one);
}

TEST("Every log-column seed decodes or is refused, and every round trip is exact") {
  REPLAY("logcol", fuzz_logcol_one);
}

TEST("Every sim model seed and past model finding loads or fails cleanly") {
  REPLAY("model", fuzz_model_one);
}

TEST("Every job-parameter seed parses and survives a JSON round trip, or fails cleanly") {
  REPLAY("job", fuzz_job_one);
}

TEST("Every fio JSON seed and past fio finding imports into an archive that opens, or fails cleanly") {
  REPLAY("fio", fuzz_fio_one);
}

TEST("Every fio latency-log seed converts to a log that reads back whole, or fails cleanly") {
  REPLAY("fiolog", fuzz_fiolog_one);
}

TEST("Every method-file seed and past method finding loads and plans, or fails cleanly") {
  REPLAY("profile", fuzz_profile_one);
}

TEST("Every method-file seed exports fio job files and a run.sh that read back as meant, or is refused cleanly") {
  REPLAY("fiojob", fuzz_fiojob_one);
}

TEST("Every nvme-cli/smartctl seed and past DUT finding gives a summary or fails cleanly") {
  REPLAY("dut", fuzz_dut_one);
}

TEST("Every template seed and past template finding expands or fails cleanly") {
  REPLAY("template", fuzz_template_one);
}

TEST("Every sim-state seed and past sim-state finding loads and runs, or is refused cleanly") {
  REPLAY("simstate", fuzz_simstate_one);
}

TEST("Every analysis.json seed and past finding renders a template and a chart, or fails cleanly") {
  REPLAY("analysis", fuzz_analysis_one);
}

TEST("Every log seed and past hostile-value finding analyzes with bounded bins, or is refused cleanly") {
  REPLAY("logstats", fuzz_logstats_one);
}

TEST("Every hosts-file seed and past hosts finding is taken with its invariants, or refused naming the file") {
  REPLAY("hosts", fuzz_hosts_one);
}

/* Seeds written by tests/fuzz/gen_log_seeds.sh go stale when a format
 * changes; stale seeds would leave the fuzzer only the refusal paths. */
TEST("The generated log and sim-state seeds are still valid for this build (else rerun gen_log_seeds.sh)") {
  const char *root = getenv("SSDREV_ROOT");
  if (!root || !*root) root = ".";
  char p[1024];
  struct ssdrev_err err = {{0}};
  const char *logs[] = {"one-record", "small", "three-chunks", "empty"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s/tests/fuzz/corpus/log/%s.ssdlog", root, logs[i]);
    struct ssdlog_reader *r;
    int rc = ssdlog_open(&r, p, 0, &err);
    if (rc) fprintf(stderr, "    %s\n", err.msg);
    CHECK(rc == 0);
    if (!rc) ssdlog_close(r);
  }
  snprintf(p, sizeof p, "sim:%s/tests/fuzz/tiny.model", root);
  struct bench_target_opts to = {.write_intent = 1, .seed = 1};
  struct bench_target *t;
  REQUIRE(bench_target_open(&t, p, &to, &err) == 0);
  const char *states[] = {"empty", "written"};
  for (size_t i = 0; i < 2; i++) {
    snprintf(p, sizeof p, "%s/tests/fuzz/corpus/simstate/%s.state", root, states[i]);
    int rc = sim_load_state(bench_target_sim(t), p, &err);
    if (rc) fprintf(stderr, "    %s\n", err.msg);
    CHECK(rc == 0);
  }
  bench_target_close(t);
}
