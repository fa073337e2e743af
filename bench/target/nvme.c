/* nvme.c — NVMe admin commands through the kernel's passthrough ioctl
 * (bench/target/nvme_int.h). Linux UAPI only: no libnvme needed for three
 * commands. Layouts are the NVMe base specification's (2.0, figures for
 * Get Log Page, Get Features, Identify Namespace and Format NVM). */
#include <errno.h>
#include <limits.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "bench/target/nvme_int.h"

#define NVME_ADMIN_GET_LOG_PAGE 0x02
#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_ADMIN_GET_FEATURES 0x0a
#define NVME_ADMIN_FORMAT_NVM 0x80
#define NVME_LOG_SMART 0x02
#define NVME_FEAT_TEMP_THRESH 0x04
#define NVME_NSID_ALL 0xffffffffu

int bench_nvme_is_namespace(int fd) {
  struct stat st;
  if (fstat(fd, &st) || !S_ISBLK(st.st_mode)) return 0;
  char link[64], real[PATH_MAX];
  snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
  if (!realpath(link, real)) return 0;
  const char *name = strrchr(real, '/');
  /* nvme0n1, or nvme0c0n1 / nvme0n1 under nvme-subsystem with multipath;
   * a partition (nvme0n1p1) is not a namespace. */
  return name && !strncmp(name + 1, "nvme", 4) && !strchr(name + 1, 'p');
}

static int admin(int fd, struct nvme_admin_cmd *cmd) {
  int rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);
  if (rc < 0) return -errno;
  return rc > 0 ? -EIO : 0; /* > 0: the controller's status code */
}

static int smart_log(int fd, unsigned char log[512]) {
  memset(log, 0, 512);
  struct nvme_admin_cmd cmd;
  memset(&cmd, 0, sizeof cmd);
  cmd.opcode = NVME_ADMIN_GET_LOG_PAGE;
  cmd.nsid = NVME_NSID_ALL;
  cmd.addr = (uint64_t)(uintptr_t)log;
  cmd.data_len = 512;
  cmd.cdw10 = ((512 / 4 - 1) << 16) | NVME_LOG_SMART; /* NUMDL (0's based dwords), LID */
  return admin(fd, &cmd);
}

static unsigned le16(const unsigned char *p) { return p[0] | (unsigned)p[1] << 8; }
static uint32_t le32(const unsigned char *p) {
  return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int bench_nvme_smart_temp_c(int fd, double *temp_c) {
  unsigned char log[512];
  int rc = smart_log(fd, log);
  if (rc) return rc;
  unsigned kelvin = le16(log + 1); /* bytes 2:1, composite temperature */
  if (!kelvin) return -ENODATA;
  *temp_c = (double)kelvin - 273; /* as nvme-cli and import/dut.c convert */
  return 0;
}

int bench_nvme_smart_temps(int fd, struct bench_temps *out) {
  unsigned char log[512];
  int rc = smart_log(fd, log);
  if (rc) return rc;
  unsigned kelvin = le16(log + 1);
  if (!kelvin) return -ENODATA;
  out->composite_c = (double)kelvin - 273;
  for (int i = 0; i < BENCH_TEMP_SENSORS; i++) {
    unsigned k = le16(log + 200 + 2 * i); /* 0: the sensor is not implemented */
    out->sensor_c[i] = k ? (double)k - 273 : -1;
  }
  out->have_tmt = 1;
  for (int i = 0; i < 2; i++) {
    out->tmt_count[i] = le32(log + 216 + 4 * i);
    out->tmt_s[i] = le32(log + 224 + 4 * i);
  }
  return 0;
}

int bench_nvme_temp_threshold_c(int fd, double *temp_c) {
  struct nvme_admin_cmd cmd;
  memset(&cmd, 0, sizeof cmd);
  cmd.opcode = NVME_ADMIN_GET_FEATURES;
  cmd.cdw10 = NVME_FEAT_TEMP_THRESH; /* SEL 0: current value */
  cmd.cdw11 = 0;                     /* TMPSEL 0: composite, THSEL 0: over */
  int rc = admin(fd, &cmd);
  if (rc) return rc;
  unsigned kelvin = cmd.result & 0xffff;
  if (!kelvin) return -ENODATA;
  *temp_c = (double)kelvin - 273; /* as nvme-cli and import/dut.c convert */
  return 0;
}

int bench_nvme_format(int fd, struct ssdrev_err *err) {
  int nsid = ioctl(fd, NVME_IOCTL_ID);
  if (nsid <= 0) return ssdrev_fail(err, nsid < 0 ? -errno : -EINVAL, "cannot read the NVMe namespace id: %s", strerror(errno));
  unsigned char *id = calloc(1, 4096);
  if (!id) return ssdrev_fail(err, -ENOMEM, "out of memory");
  struct nvme_admin_cmd cmd;
  memset(&cmd, 0, sizeof cmd);
  cmd.opcode = NVME_ADMIN_IDENTIFY;
  cmd.nsid = (uint32_t)nsid;
  cmd.addr = (uint64_t)(uintptr_t)id;
  cmd.data_len = 4096;
  cmd.cdw10 = 0; /* CNS 00h: Identify Namespace */
  int rc = admin(fd, &cmd);
  /* FLBAS (byte 26): format index bits 3:0, and bits 6:5 as its upper bits */
  unsigned flbas = id[26], dps = id[29];
  free(id);
  if (rc) return ssdrev_fail(err, rc, "cannot identify NVMe namespace %d: %s", nsid, strerror(-rc));
  unsigned lbaf = (flbas & 0xf) | ((flbas >> 5) & 0x3) << 4;
  memset(&cmd, 0, sizeof cmd);
  cmd.opcode = NVME_ADMIN_FORMAT_NVM;
  cmd.nsid = (uint32_t)nsid;
  /* LBAF in bits 3:0 and 13:12; metadata (MSET, bit 4) and protection
   * (PI 7:5, PIL 8, from DPS) kept; SES 000b: no secure erase */
  cmd.cdw10 = (lbaf & 0xf) | ((lbaf >> 4) & 0x3) << 12 | (flbas & 0x10) | (dps & 0x7) << 5 | ((dps >> 3) & 1) << 8;
  cmd.timeout_ms = 600000; /* a format may take minutes on a large drive */
  rc = admin(fd, &cmd);
  if (rc) return ssdrev_fail(err, rc, "NVMe Format NVM of namespace %d failed: %s", nsid, strerror(-rc));
  return 0;
}
