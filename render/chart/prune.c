/* prune.c — a report re-rendered into the same output directory removes the
 * chart files its last rendering wrote and this one did not (issue 27: the
 * old charts stayed beside the new). Only files ssdrev made are removed: the
 * names a report wrote are listed in CHART_DIR/.ssdrev-charts, and a name
 * is removed only when that list holds it, it is a plain chart name
 * ("STEM.png" / "STEM.svg", no '/', no leading '.') and the file is a
 * regular file (not a link). A charts directory without the list (made by
 * an older ssdrev, or by hand) is left as it is. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "render/render_int.h"

#define PRUNE_LIST ".ssdrev-charts"
#define PRUNE_LIST_MAX (1u << 20)

/* A name this code may have written: STEM.png or STEM.svg, STEM of
 * letters, digits, '-', '_', '%', '.' (not first), at most 255 bytes. */
static int chart_name_ok(const char *s, size_t n) {
  if (n < 5 || n > 255 || s[0] == '.') return 0;
  if (memcmp(s + n - 4, ".png", 4) && memcmp(s + n - 4, ".svg", 4)) return 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '/' || c < 0x20 || c == 0x7f) return 0;
  }
  return 1;
}

static int list_has(const char *list, const char *name, size_t n) {
  for (const char *p = list; p && *p;) {
    const char *nl = strchr(p, '\n');
    size_t l = nl ? (size_t)(nl - p) : strlen(p);
    if (l == n && !memcmp(p, name, n)) return 1;
    p = nl ? nl + 1 : p + l;
  }
  return 0;
}

int render_charts_prune(const char *chart_dir, const char *chart_rel, const json_t *drawn, struct ssdrev_err *err) {
  /* the names drawn now: each chart's PNG and its SVG */
  struct render_buf now = {0};
  const char *key;
  json_t *v;
  size_t rel = strlen(chart_rel);
  json_object_foreach((json_t *)drawn, key, v) {
    if (strncmp(key, chart_rel, rel) || key[rel] != '/') continue;
    const char *name = key + rel + 1;
    size_t n = strlen(name);
    if (!chart_name_ok(name, n)) continue;
    render_buf_printf(&now, "%s\n%.*s.svg\n", name, (int)(n - 4), name);
  }
  if (now.oom) {
    render_buf_free(&now);
    return ssdrev_fail(err, -ENOMEM, "out of memory listing the charts of '%s'", chart_dir);
  }
  /* no charts directory (or a link where it should be): nothing to prune, no list */
  struct stat ds;
  if (lstat(chart_dir, &ds) != 0 || !S_ISDIR(ds.st_mode)) {
    render_buf_free(&now);
    return 0;
  }
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", chart_dir, PRUNE_LIST);
  char *old = NULL;
  size_t len = 0;
  struct ssdrev_err e2 = {{0}};
  if (ssdrev_read_file(path, &old, &len, PRUNE_LIST_MAX, &e2) == 0) {
    for (const char *p = old; *p;) {
      const char *nl = strchr(p, '\n');
      size_t l = nl ? (size_t)(nl - p) : strlen(p);
      if (chart_name_ok(p, l) && !list_has(now.s, p, l)) {
        char f[4400];
        struct stat st;
        snprintf(f, sizeof f, "%s/%.*s", chart_dir, (int)l, p);
        /* a regular file only: a link or a directory someone put there stays */
        if (lstat(f, &st) == 0 && S_ISREG(st.st_mode)) unlink(f);
      }
      p = nl ? nl + 1 : p + l;
    }
  }
  free(old);
  int rc = ssdrev_write_file_atomic(path, now.s ? now.s : "", now.len, err);
  render_buf_free(&now);
  return rc;
}
