/* server.c — is a load host's fio server still there? `fio --client`
 * with JSON output prints nothing while its job runs, and a client whose
 * server went away may never end: the server's job process goes on
 * (`kill -9` of `fio --server` leaves its per-connection child running)
 * or the host is gone without closing the connection. The review's fio
 * engine (bench/method/fio_engine.c) probes the server's listening port
 * while the client runs: a server that refuses or does not answer for
 * BENCH_FIO_SERVER_LOST_S is gone, and the test fails in seconds, not at
 * its time limit (docs/interop.md). */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "bench/fio/fio_int.h"

#define PROBE_EVERY_NS 1000000000ull /* one connect a second */
#define PROBE_WAIT_MS 500            /* an answer within this, else "no answer" */

int bench_fio_server_probe_init(struct bench_fio_server_probe *p, const char *client) {
  memset(p, 0, sizeof *p);
  /* "ip:ADDRESS,PORT" as the campaign writes it (bench/method/campaign.c) */
  const char *a = !strncmp(client, "ip:", 3) ? client + 3 : client;
  const char *comma = strrchr(a, ',');
  if (!comma || (size_t)(comma - a) >= sizeof p->host) return -EINVAL;
  snprintf(p->host, sizeof p->host, "%.*s", (int)(comma - a), a);
  snprintf(p->port, sizeof p->port, "%.7s", comma + 1);
  struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV}, *ai;
  /* a name (--remote-unchecked) is looked up once, here: fio looks it up too */
  if (getaddrinfo(p->host, p->port, &hints, &ai) || !ai) return -EHOSTUNREACH;
  if (ai->ai_addrlen <= sizeof p->addr) {
    memcpy(&p->addr, ai->ai_addr, ai->ai_addrlen);
    p->addr_len = ai->ai_addrlen;
  }
  freeaddrinfo(ai);
  return p->addr_len ? 0 : -EINVAL;
}

/* One connect: 0 when the server accepted it, else what went wrong in WHY. */
static int probe_once(const struct bench_fio_server_probe *p, char *why, size_t wlen) {
  int s = socket(p->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (s < 0) return 0; /* this machine's trouble, not the server's */
  int rc = connect(s, (const struct sockaddr *)&p->addr, p->addr_len) ? errno : 0;
  if (rc == EINPROGRESS) {
    struct pollfd pf = {.fd = s, .events = POLLOUT};
    int n = poll(&pf, 1, PROBE_WAIT_MS);
    socklen_t l = sizeof rc;
    if (n == 0) rc = ETIMEDOUT;
    else if (n < 0 || getsockopt(s, SOL_SOCKET, SO_ERROR, &rc, &l)) rc = 0;
  }
  close(s); /* the server's child for this connection sees EOF and ends */
  if (rc == ETIMEDOUT) snprintf(why, wlen, "no answer in %d ms", PROBE_WAIT_MS);
  else if (rc) snprintf(why, wlen, "%s", strerror(rc));
  return rc;
}

int bench_fio_server_probe_step(struct bench_fio_server_probe *p, uint64_t now_ns) {
  if (!p->addr_len) return 0;
  if (!p->next_ns) p->next_ns = now_ns + PROBE_EVERY_NS; /* the client connects first */
  if (now_ns < p->next_ns) return 0;
  p->next_ns = now_ns + PROBE_EVERY_NS;
  if (!probe_once(p, p->why, sizeof p->why)) {
    p->failing_ns = 0;
    return 0;
  }
  if (!p->failing_ns) p->failing_ns = now_ns;
  return now_ns - p->failing_ns >= (uint64_t)(BENCH_FIO_SERVER_LOST_S * 1e9);
}
