/* notes.c — messages the rendering commands share, and the language of the
 * CLI's warnings and notes. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "render/render.h"

int cli_msg_ko(void) {
  const char *l = getenv("SSDREV_LANG");
  if (l && *l) return !strcmp(l, "ko");
  static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
  for (size_t i = 0; i < 3; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v) return !strncmp(v, "ko", 2);
  }
  return 0;
}

void cli_warn(const char *prefix, const char *kind, const char *fmt, ...) {
  char en[4096], out[8192], k[64] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(en, sizeof en, fmt, ap);
  va_end(ap);
  enum render_lang lang = cli_msg_ko() ? RENDER_LANG_KO : RENDER_LANG_EN;
  render_msg_cli(lang, en, out, sizeof out);
  if (kind) render_msg_cli(lang, kind, k, sizeof k);
  fprintf(stderr, "%s%s%s%s\n", prefix ? prefix : "", k, kind ? ": " : "", out);
}

void cli_note_reanalyzed(const char *cmd, const struct render_runs *rs) {
  char prefix[64];
  snprintf(prefix, sizeof prefix, "ssdrev %s: ", cmd);
  for (size_t i = 0; i < rs->n; i++)
    if (rs->v[i].reanalyzed == 2)
      cli_warn(prefix, "note", "analyzed '%s' in memory (its analysis.json was missing or stale, and the archive is "
               "read-only: nothing was written into it)", rs->v[i].dir);
    else if (rs->v[i].reanalyzed)
      cli_warn(prefix, "note", "analyzed '%s' first (its analysis.json was missing or stale) and wrote '%s/analysis.json'",
               rs->v[i].dir, rs->v[i].dir);
}
