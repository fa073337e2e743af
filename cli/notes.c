/* notes.c — messages the rendering commands share. */
#include "cli/cli.h"
#include "render/render.h"

void cli_note_reanalyzed(const char *cmd, const struct render_runs *rs) {
  for (size_t i = 0; i < rs->n; i++)
    if (rs->v[i].reanalyzed)
      fprintf(stderr, "ssdrev %s: note: analyzed '%s' first (its analysis.json was missing or stale) and wrote '%s/analysis.json'\n",
              cmd, rs->v[i].dir, rs->v[i].dir);
}
