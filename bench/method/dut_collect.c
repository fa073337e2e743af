/* bench/method/dut_collect.c — gathers DUT facts: JSON files from a run made elsewhere,
 * the read-only nvme-cli / smartctl commands on a live device, and sysfs
 * (model, firmware, PCIe link speed and width). Parsing is in import/dut.c. */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench/method/review_int.h"
#include "bench/target/nvme_int.h"
#include "import/import.h"

#define DUT_MAX_OUTPUT (4u << 20)

static int read_optional(const char *path, char **out, struct ssdrev_err *err) {
  *out = NULL;
  if (access(path, F_OK) != 0) return 0;
  size_t len;
  return ssdrev_read_file(path, out, &len, DUT_MAX_OUTPUT, err);
}

int bench_dut_read_files(const char *dir_or_prefix, char **id_ctrl, char **smart_log,
                         char **smartctl, json_t **overrides, struct ssdrev_err *err) {
  *id_ctrl = *smart_log = *smartctl = NULL;
  *overrides = NULL;
  struct stat st;
  /* DIR/id-ctrl.json or PREFIX.id-ctrl.json (samples/dut/pm981-256.id-ctrl.json) */
  const char *sep = stat(dir_or_prefix, &st) == 0 && S_ISDIR(st.st_mode) ? "/" : ".";
  static const char *const names[] = {"id-ctrl.json", "smart-log.json", "smartctl.json"};
  char **outs[] = {id_ctrl, smart_log, smartctl};
  char path[4300];
  int rc = 0, found = 0;
  for (size_t i = 0; i < 3 && !rc; i++) {
    snprintf(path, sizeof path, "%s%s%s", dir_or_prefix, sep, names[i]);
    rc = read_optional(path, outs[i], err);
    found += *outs[i] != NULL;
  }
  if (!rc) {
    snprintf(path, sizeof path, "%s%soverrides.json", dir_or_prefix, sep);
    if (access(path, F_OK) == 0) {
      *overrides = ssdrev_load_json(path, err);
      if (!*overrides) rc = -EINVAL;
      else if (!json_is_object(*overrides))
        rc = ssdrev_fail(err, -EINVAL, "cannot use overrides '%s': not a JSON object", path);
      else found++;
    }
  }
  if (!rc && !found)
    rc = ssdrev_fail(err, -ENOENT, "no DUT JSON at '%s' (looked for %s%sid-ctrl.json, smart-log.json, "
                     "smartctl.json, overrides.json)", dir_or_prefix, dir_or_prefix, sep);
  if (rc) {
    for (size_t i = 0; i < 3; i++) {
      free(*outs[i]);
      *outs[i] = NULL;
    }
    json_decref(*overrides);
    *overrides = NULL;
  }
  return rc;
}

/* Runs argv (no shell) and returns its stdout, or NULL when the program is
 * missing, fails or prints nothing. stderr goes to /dev/null. */
static char *capture(char *const argv[], int accept_nonzero) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC)) return NULL;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return NULL;
  }
  if (pid == 0) {
    int devnull = open("/dev/null", O_RDWR);
    dup2(fds[1], STDOUT_FILENO);
    if (devnull >= 0) {
      dup2(devnull, STDERR_FILENO);
      dup2(devnull, STDIN_FILENO);
    }
    execvp(argv[0], argv);
    _exit(127);
  }
  close(fds[1]);
  size_t cap = 65536, len = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (buf && len + 1 >= cap && cap < DUT_MAX_OUTPUT) {
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        buf = NULL;
      } else {
        buf = nb;
        cap *= 2;
      }
    }
    char scratch[4096];
    char *dst = buf && len + 1 < cap ? buf + len : scratch;
    size_t room = buf && len + 1 < cap ? cap - len - 1 : sizeof scratch;
    ssize_t n = read(fds[0], dst, room);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (dst != scratch) len += (size_t)n; /* beyond the cap: drained, dropped */
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  int ok = WIFEXITED(status) && WEXITSTATUS(status) != 127 &&
           (WEXITSTATUS(status) == 0 || accept_nonzero);
  if (!buf || !ok || len == 0) {
    free(buf);
    return NULL;
  }
  buf[len] = 0;
  return buf;
}

int bench_dut_collect_nvme(const char *dev, char **id_ctrl, char **smart_log, char **smartctl,
                           struct ssdrev_err *err) {
  (void)err;
  char *d = (char *)dev;
  char *a1[] = {"nvme", "id-ctrl", "-o", "json", d, NULL};
  char *a2[] = {"nvme", "smart-log", "-o", "json", d, NULL};
  char *a3[] = {"smartctl", "-a", "-j", d, NULL};
  *id_ctrl = capture(a1, 0);
  *smart_log = capture(a2, 0);
  /* smartctl's exit status is a bit mask that is non-zero for mere
   * warnings (e.g. old errors in the log); its JSON is still whole. */
  *smartctl = capture(a3, 1);
  return 0;
}

static int read_attr(const char *path, char *buf, size_t len) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(buf, 1, len - 1, f);
  fclose(f);
  buf[n] = 0;
  while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = 0;
  size_t s = 0;
  while (buf[s] == ' ') s++;
  if (s) memmove(buf, buf + s, n - s + 1);
  return buf[0] ? 0 : -1;
}

/* "8.0 GT/s PCIe" (kernels since 4.17) or "8 GT/s" (older) -> "3.0":
 * PCIe generations by transfer rate; NULL for "Unknown" and odd rates. */
static const char *pcie_gen(const char *speed) {
  static const struct { double gts; const char *gen; } gens[] = {
      {2.5, "1.0"}, {5.0, "2.0"}, {8.0, "3.0"}, {16.0, "4.0"}, {32.0, "5.0"}, {64.0, "6.0"}};
  char *end;
  double v = strtod(speed, &end);
  if (end == speed || strncmp(end, " GT/s", 5)) return NULL;
  for (size_t i = 0; i < sizeof gens / sizeof gens[0]; i++)
    if (fabs(v - gens[i].gts) < 0.01) return gens[i].gen;
  return NULL;
}

int bench_dut_add_sysfs(json_t *dut, const char *dev, const char *sysfs_root) {
  const char *name = strrchr(dev, '/');
  name = name ? name + 1 : dev;
  if (!*name || strstr(name, "..")) return 0;
  char base[4200], path[4400], v[256];
  /* /sys/class/block/nvme0n1/device is the controller (nvme0: model,
   * firmware_rev), whose device is the PCI function (link). */
  snprintf(base, sizeof base, "%s/class/block/%s/device", sysfs_root, name);
  snprintf(path, sizeof path, "%s/model", base);
  if (!json_object_get(dut, "model") && read_attr(path, v, sizeof v) == 0)
    json_object_set_new(dut, "model", json_string(v));
  snprintf(path, sizeof path, "%s/firmware_rev", base);
  if (read_attr(path, v, sizeof v) != 0) {
    snprintf(path, sizeof path, "%s/rev", base);
    if (read_attr(path, v, sizeof v) != 0) v[0] = 0;
  }
  if (v[0] && !json_object_get(dut, "firmware")) json_object_set_new(dut, "firmware", json_string(v));
  char speed[128], width[32];
  snprintf(path, sizeof path, "%s/device/current_link_speed", base);
  int have_speed = read_attr(path, speed, sizeof speed) == 0;
  snprintf(path, sizeof path, "%s/device/current_link_width", base);
  int have_width = read_attr(path, width, sizeof width) == 0;
  if (have_speed && have_width && !json_object_get(dut, "link")) {
    const char *gen = pcie_gen(speed);
    char link[200];
    if (gen) snprintf(link, sizeof link, "PCIe %s x%s", gen, width);
    else snprintf(link, sizeof link, "%s x%s", speed, width);
    json_object_set_new(dut, "link", json_string(link));
  }
  return 0;
}

/* The controller's current over-temperature threshold, when the host has set
 * it below WCTEMP (Set Features 04h; hwmon's temp1_max): the temperature the
 * drive now warns at (docs/flags.md thermal_*). */
static void add_temp_threshold(json_t *dut, const char *dev) {
  int fd = open(dev, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  double thr;
  if (bench_nvme_is_namespace(fd) && bench_nvme_temp_threshold_c(fd, &thr) == 0) {
    const json_t *w = json_object_get(dut, "warn_temp_c");
    if (!json_is_number(w) || thr < json_number_value(w) - 0.5)
      json_object_set_new(dut, "temp_thresh_c", json_integer((json_int_t)thr));
  }
  close(fd);
}

json_t *bench_dut_collect(const char *dev, int include_serial, json_t **raw,
                          struct ssdrev_err *err) {
  if (raw) *raw = NULL;
  char *ic = NULL, *sl = NULL, *sc = NULL;
  const char *name = strrchr(dev, '/');
  name = name ? name + 1 : dev;
  if (!strncmp(name, "nvme", 4)) bench_dut_collect_nvme(dev, &ic, &sl, &sc, err);
  json_t *dut = NULL;
  if (ic || sl || sc) {
    dut = import_dut_parse(ic, sl, sc, include_serial, err);
    if (!dut) goto out;
  } else {
    dut = json_object();
  }
  bench_dut_add_sysfs(dut, dev, "/sys");
  add_temp_threshold(dut, dev);
  if (raw) {
    *raw = json_object();
    if (ic) json_object_set_new(*raw, "id_ctrl", json_string(ic));
    if (sl) json_object_set_new(*raw, "smart_log", json_string(sl));
    if (sc) json_object_set_new(*raw, "smartctl", json_string(sc));
  }
out:
  free(ic);
  free(sl);
  free(sc);
  return dut;
}
