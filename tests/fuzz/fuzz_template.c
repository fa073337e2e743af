/* fuzz_template.c — review templates (render/doc/template.c:
 * render_template_expand) on arbitrary text, against one analyzed run (the
 * CrystalDiskMark sample, imported and analyzed once at start-up). Charts
 * are linked, not drawn (chart_dir NULL), so each input costs microseconds.
 * Each input also goes through render_template_specialize (template init). */
#include "tests/fuzz/fuzz.h"
#include "log/ssdlog.h"
#include "archive/archive.h"
#include "sim/sim.h"
#include "import/import.h"
#include "bench/bench.h"
#include "render/render.h"

static struct render_runs fuzz_template_rs;

static void fuzz_template_release(void) { render_runs_release(&fuzz_template_rs); }

/* Imports and analyzes samples/cdm/pm981-fob-cdm8.txt (under $SSDREV_ROOT
 * when set) into the scratch directory and loads it. */
static void fuzz_template_init(void) {
  const char *root = getenv("SSDREV_ROOT");
  char cdm[1024];
  snprintf(cdm, sizeof cdm, "%s/samples/cdm/pm981-fob-cdm8.txt", root && *root ? root : ".");
  struct import_opts o;
  import_opts_defaults(&o);
  o.out_dir = fuzz_path("trun");
  struct import_result res;
  struct ssdrev_err err = {{0}};
  const struct import_format *imp = import_find("cdm");
  struct analyze_opts ao;
  analyze_opts_defaults(&ao);
  const char *dirs[1] = {o.out_dir};
  if (!imp || import_file(imp, cdm, &o, &res, &err) || analyze_run(o.out_dir, &ao, NULL, &err) ||
      render_runs_load(&fuzz_template_rs, dirs, 1, &err)) {
    fprintf(stderr, "fuzz_template: cannot prepare the run from %s: %s\n", cdm, err.msg);
    abort();
  }
  atexit(fuzz_template_release);
}

static int fuzz_template_one(const uint8_t *data, size_t size) {
  if (!fuzz_template_rs.n) fuzz_template_init();
  char *text = fuzz_strdup(data, size);
  char *md = NULL;
  struct ssdrev_err err = {{0}};
  int rc = render_template_expand(&fuzz_template_rs, "fuzz.md", text, NULL, "charts", 72, &md, &err);
  fuzz_check_err(&err);
  if (rc) {
    if (!err.msg[0] || md) abort(); /* refused: said why, returned nothing */
  } else {
    if (!md) abort();
    (void)strlen(md);
    free(md);
  }
  /* template init's walk over the same text (issue 27): the same contract */
  char *spec = NULL;
  struct ssdrev_err err2 = {{0}};
  rc = render_template_specialize(&fuzz_template_rs, "fuzz.md", text, &spec, &err2);
  fuzz_check_err(&err2);
  if (rc) {
    if (!err2.msg[0] || spec) abort();
  } else {
    if (!spec) abort();
    free(spec);
  }
  free(text);
  return 0;
}

FUZZ_ENTRY(fuzz_template_one)
