/* bench/target/nvme_int.h — private to bench/: the few NVMe admin commands
 * ssdrev issues itself through the kernel's passthrough ioctl
 * (NVME_IOCTL_ADMIN_CMD, CAP_SYS_ADMIN) on an open namespace: the SMART
 * composite temperature during a run (without hwmon, and without starting
 * nvme-cli once a second), the controller's current over-temperature
 * threshold, and Format NVM for a purge where discard is unsupported. All
 * read-only but the format. Each returns 0 or a negative errno. */
#ifndef SSDREV_NVME_INT_H
#define SSDREV_NVME_INT_H

#include "bench/bench.h"

/* 1 when fd is an NVMe namespace block device (its sysfs name is nvme*). */
int bench_nvme_is_namespace(int fd);
/* Composite temperature from the SMART / Health log (LID 02h), in °C. */
int bench_nvme_smart_temp_c(int fd, double *temp_c);
/* The same log's composite, sensors 1-8 (bytes 200-215) and thermal
 * management counters (bytes 216-231), NVMe base spec 1.3+. */
int bench_nvme_smart_temps(int fd, struct bench_temps *out);
/* The composite temperature's over-temperature threshold (Get Features
 * 04h): WCTEMP unless the host changed it, in °C. */
int bench_nvme_temp_threshold_c(int fd, double *temp_c);
/* Format NVM of the namespace in its current LBA format, no secure erase:
 * every block deallocated. Destroys all data. */
int bench_nvme_format(int fd, struct ssdrev_err *err);

#endif
