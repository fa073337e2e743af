/* fuzz_analysis.c — the renderer's reading of an archive's analysis.json
 * (render/doc/data.c: render_runs_load, then render/doc/template.c and
 * render/chart/charts.c walking it), which `ssdrev report`, `chart` and `compare`
 * do on archives from anywhere. Each input is DIR/analysis.json; the English
 * review template is expanded against it (charts linked, not drawn) and one
 * chart kind, chosen by the input length, is drawn as SVG. */
#include "tests/fuzz/fuzz.h"
#include "render/render.h"

static char *fuzz_analysis_tmpl;

static void fuzz_analysis_free(void) { free(fuzz_analysis_tmpl); }

static int fuzz_analysis_one(const uint8_t *data, size_t size) {
  struct ssdrev_err err = {{0}};
  if (!fuzz_analysis_tmpl) {
    const char *root = getenv("SSDREV_ROOT");
    char p[1024];
    snprintf(p, sizeof p, "%s/templates/review.en.md", root && *root ? root : ".");
    if (ssdrev_read_file(p, &fuzz_analysis_tmpl, NULL, 0, &err)) {
      fprintf(stderr, "fuzz_analysis: %s\n", err.msg);
      abort();
    }
    atexit(fuzz_analysis_free);
    mkdir(fuzz_path("arun"), 0700);
  }
  fuzz_write("arun/analysis.json", data, size);
  const char *dirs[1] = {fuzz_path("arun")};
  struct render_runs rs;
  int rc = render_runs_load(&rs, dirs, 1, &err);
  fuzz_check_err(&err);
  if (rc) {
    if (!err.msg[0]) abort();
    return 0;
  }
  char *md = NULL;
  rc = render_template_expand(&rs, "review.en.md", fuzz_analysis_tmpl, NULL, "charts", 72, &md, &err);
  fuzz_check_err(&err);
  if (rc ? (md != NULL || !err.msg[0]) : md == NULL) abort();
  free(md);
  const struct render_chart_kind_info *kinds = render_chart_kinds();
  size_t nk = 0;
  while (kinds[nk].name) nk++;
  if (nk) {
    struct render_chart_opts o;
    render_chart_opts_defaults(&o);
    err.msg[0] = 0;
    rc = render_chart_file(&rs, kinds[size % nk].name, &o, fuzz_path("c.svg"), &err);
    fuzz_check_err(&err);
    if (rc && !err.msg[0]) abort();
  }
  render_runs_release(&rs);
  return 0;
}

FUZZ_ENTRY(fuzz_analysis_one)
