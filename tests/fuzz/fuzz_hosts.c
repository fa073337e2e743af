/* fuzz_hosts.c — the campaign's hosts file (bench/method/campaign.c:
 * bench_campaign_hosts_parse) on arbitrary bytes. A refusal names the file
 * and leaves nothing allocated; what is taken is what the campaign relies
 * on: every host on a line of its own, in order, with an address fio's
 * --client takes whole (no ',', ':' or blank; 255 characters at most), an
 * absolute target without a control character, a port in 1..65535, a size
 * only for a host that is not loopback, one host per fio server, and a run
 * directory name of safe characters that no other host has. */
#include <ctype.h>
#include "tests/fuzz/fuzz.h"

static int fuzz_hosts_one(const uint8_t *data, size_t size) {
  struct bench_campaign_host *h = (struct bench_campaign_host *)1;
  size_t n = 99;
  struct ssdrev_err err = {{0}};
  int rc = bench_campaign_hosts_parse("hosts", (const char *)data, size, &h, &n, &err);
  fuzz_check_err(&err);
  if (rc) {
    if (h || n || strncmp(err.msg, "hosts", 5)) abort(); /* refused naming the file, nothing kept */
    return 0;
  }
  if (!h || n == 0 || n > BENCH_CAMPAIGN_MAX_HOSTS) abort();
  unsigned lines = 1;
  for (size_t i = 0; i < size; i++) lines += data[i] == '\n';
  for (size_t i = 0; i < n; i++) {
    const struct bench_campaign_host *x = &h[i];
    size_t al = strnlen(x->address, sizeof x->address);
    if (al == 0 || al > BENCH_CAMPAIGN_ADDRESS_MAX) abort();
    for (size_t k = 0; k < al; k++)
      if (!isalnum((unsigned char)x->address[k]) && !strchr(".-_", x->address[k])) abort();
    size_t tl = strnlen(x->target, sizeof x->target);
    if (tl == 0 || tl >= sizeof x->target || x->target[0] != '/') abort();
    for (size_t k = 0; k < tl; k++)
      if ((unsigned char)x->target[k] < 0x20 || x->target[k] == 0x7f) abort();
    if (x->port < 1 || x->port > 65535) abort();
    if (x->line < 1 || x->line > lines || (i && x->line <= h[i - 1].line)) abort();
    if (x->loopback && x->size_bytes) abort();
    if (x->size_bytes && x->size_bytes < 1048576) abort();
    char want[300];
    snprintf(want, sizeof want, "ip:%s,%u", x->address, x->port);
    if (strcmp(want, x->fio_client)) abort();
    if (!x->run_name[0] || strnlen(x->run_name, sizeof x->run_name) > 255) abort();
    for (const char *q = x->run_name; *q; q++)
      if (!isalnum((unsigned char)*q) && *q != '.' && *q != '_' && *q != '-') abort();
    for (size_t j = 0; j < i; j++) {
      if (!strcmp(h[j].address, x->address) && h[j].port == x->port) abort();
      if (!strcmp(h[j].run_name, x->run_name)) abort();
    }
  }
  free(h);
  return 0;
}

FUZZ_ENTRY(fuzz_hosts_one)
