/* lock.c — the writer's lock of a run archive (docs/archive.md): an
 * advisory flock(2) on RUN/.lock, which holds the PID of its holder. Every
 * command that writes an archive (run, review, import, analyze, report's
 * auto-analyze) holds it from before it reads the manifest until it exits,
 * so two writers can never interleave their manifest saves. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "archive/archive.h"

/* The holder's PID from the lock file, or 0 when it is not there. The
 * holder writes it just after taking the lock, so an empty file is read
 * again for up to 2 s (of wall time: a busy machine may not run the holder
 * for a while) before giving up. */
static long lock_holder(int fd) {
  uint64_t until = ssdrev_clock_ns() + 2000000000ull;
  while (ssdrev_clock_ns() < until) {
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n > 0) {
      buf[n] = 0;
      char *end;
      long pid = strtol(buf, &end, 10);
      if (end != buf && pid > 0 && *end == '\n') return pid;
    }
    nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
  }
  return 0;
}

int archive_lock(const char *dir, struct ssdrev_err *err) { return archive_lock_wait(dir, NULL, err); }

int archive_lock_wait(const char *dir, const struct archive_lock_wait *w, struct ssdrev_err *err) {
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0) {
    int e = errno;
    struct stat st;
    if ((e == ELOOP || e == ENOTDIR) && !lstat(dir, &st) && S_ISLNK(st.st_mode))
      return ssdrev_fail(err, -ELOOP, "refusing to write '%s': it is a symbolic link", dir);
    return ssdrev_fail(err, -e, "cannot open run '%s': %s", dir, strerror(e));
  }
  int fd = openat(dfd, ARCHIVE_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
  int e = errno;
  close(dfd);
  if (fd < 0) {
    if (e == ELOOP) return ssdrev_fail(err, -ELOOP, "refusing to write '%s/.lock': it is a symbolic link", dir);
    return ssdrev_fail(err, -e, "cannot create '%s/.lock': %s", dir, strerror(e));
  }
  /* the PID is written into it: a hard link to some other file would be
   * written through, so only a file of its own is accepted */
  struct stat st;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
    close(fd);
    return ssdrev_fail(err, -EPERM, "refusing to write '%s/.lock': not a regular file of its own", dir);
  }
  /* polled, not a blocking flock: the wait is bounded, and a caller may
   * wait in several threads at once (each on its own run) */
  uint64_t wait_ns = w ? (uint64_t)w->wait_ms * 1000000ull : 0, start = ssdrev_clock_ns();
  long pid = 0;
  int waited = 0;
  while (flock(fd, LOCK_EX | LOCK_NB)) {
    e = errno;
    if (e == EINTR) continue;
    if (e != EWOULDBLOCK) {
      close(fd);
      return ssdrev_fail(err, -e, "cannot lock '%s/.lock': %s", dir, strerror(e));
    }
    if (!waited || !pid) pid = lock_holder(fd); /* the holder may change while we wait */
    char who[64];
    if (pid) snprintf(who, sizeof who, "process %ld", pid);
    else snprintf(who, sizeof who, "another process");
    if (ssdrev_clock_ns() - start >= wait_ns) {
      close(fd);
      if (waited)
        return ssdrev_fail(err, -EBUSY, "archive '%s' is still in use by %s after waiting %u s", dir, who,
                           w->wait_ms / 1000);
      return ssdrev_fail(err, -EBUSY, "archive '%s' is in use by %s", dir, who);
    }
    if (!waited && w->on_wait) {
      char msg[4300];
      snprintf(msg, sizeof msg, "archive '%s' is in use by %s: waiting up to %u s for it", dir, who, w->wait_ms / 1000);
      w->on_wait(dir, msg, w->arg);
    }
    waited = 1;
    nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL); /* 100 ms */
  }
  char mine[32];
  int n = snprintf(mine, sizeof mine, "%ld\n", (long)getpid());
  /* the PID only names the holder in the message above: the lock holds
   * without it, so a full disk here is not an error (the next save says) */
  /* written over the old PID, then cut to length, so a reader never sees
   * an empty file once a first holder has written it */
  if (pwrite(fd, mine, (size_t)n, 0) == n) {
    int r = ftruncate(fd, n);
    (void)r;
  }
  return fd;
}
