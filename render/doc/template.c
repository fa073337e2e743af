/* template.c — expands {{directives}} in a Markdown template
 * (docs/templates.md). Prose passes through byte for byte; fenced code
 * blocks are left alone; "\{{" writes a literal "{{". The walk runs twice:
 * a checking pass (nothing written) and the real pass, so a bad directive
 * anywhere leaves no file behind. */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "render/render_int.h"

#define MAX_TOKENS 16
#define DIRECTIVE_MAX 1024

struct expand {
  const struct render_runs *rs;
  const char *tname;       /* template name for messages */
  unsigned line;
  int writing;             /* 0 = checking pass */
  const char *chart_dir;   /* NULL: charts are linked, not drawn */
  const char *chart_rel;
  double dpi;
  struct render_buf *out;
  json_t *used;            /* chart stems already used (keys; values: their template lines), to keep names
                              unique: a hash that grows (a fixed table of 64 let the
                              65th chart overwrite an earlier one's file) */
  struct ssdrev_err *err;
  const struct render_expand_opts *x; /* NULL: missing data is an error */
  const struct render_chart_sink *keep; /* where chart PNGs go besides their files (may be NULL) */
  struct render_images imgs;   /* images the document may link: the template's, then each chart linked */
  enum render_lang lang;   /* the template's (render_template_lang) */
  /* errors of the checking pass: all are reported, not only the first */
  unsigned nerrs, listed;  /* found; listed in errs */
  int first_rc;
  char errs[sizeof ((struct ssdrev_err *)0)->msg];
  size_t errs_len;
  const char *chart_kind;  /* the chart kind being checked (each_drive) */
  char last_why[sizeof ((struct ssdrev_err *)0)->msg]; /* the last note's reason */
  size_t last_note_end;    /* out->len after it */
  int drop_unit;           /* an inline value was missing: its unit after the directive goes too */
  int skip;                /* inside an {{if}} branch not taken: directives are parsed, not run */
  int spec;                /* render_template_specialize: directives are written back as source */
  char cur_drive[24];      /* inside {{each drive}}: the run ("1", "2"...) drive= defaults to; "" outside */
  json_t *has_cache;       /* {{if has=}} answers by "NAME|STATE|DRIVE": a table is rendered once per question,
                              not once per {{if}} (a template of a million {{if has=dut}} stays linear) */
};

/* The expanded review's largest size (docs/templates.md, "Limits"). Every
 * format parses it with cmark, whose tree takes about 40 bytes per byte:
 * a 16 MiB template of {{table dut}} would have asked for 40 GB. Reviews
 * are a few hundred KiB. */
#define EXPANDED_MAX_BYTES ((size_t)32 << 20)

/* The checking pass reports up to this many errors at once. */
#define TEMPLATE_MAX_ERRORS 20

struct directive {
  const char *name;
  const char *arg;         /* what its one positional argument is, for messages; NULL: it takes none */
  const char *keys;        /* allowed keys, space separated */
  int (*run)(struct expand *e, const char *pos, const struct render_args *a);
  const char *usage;       /* its form, for messages (docs/templates.md) */
};

/* ------------------------------------------------------------ messages */

/* The language of a directive's output: its lang= (checked by lang_ok),
 * else the template's. */
static enum render_lang lang_of(const struct expand *e, const struct render_args *a) {
  enum render_lang l = e->lang;
  if (a && a->lang) render_lang_parse(a->lang, &l);
  return l;
}

static int fail_at(struct expand *e, int code, const char *fmt, const char *arg) {
  /* fmt takes exactly one %s */
  char msg[1200];
  snprintf(msg, sizeof msg, fmt, arg);
  return ssdrev_fail(e->err, code, "%s:%u: %s", e->tname, e->line, msg);
}

/* Re-prefixes an error from a table / chart with the template position. */
static int wrap_err(struct expand *e, int rc) {
  char inner[sizeof e->err->msg];
  snprintf(inner, sizeof inner, "%s", e->err ? e->err->msg : "");
  return ssdrev_fail(e->err, rc, "%s:%u: %s", e->tname, e->line, inner);
}

/* Data the run lacks (-ENOENT from a chart, table or value; the reason is in
 * e->err): an error, or with x->lenient a note in the review and one warning
 * from the checking pass. INLINE: the directive sits in prose (a value). */
/* 1 when TEXT is in the output since its last heading: a one-drive chart
 * and the table under it each noted the run they lack, around the other
 * drive's chart (issue 27's mixes), so a note said once a section is enough. */
static int section_has(const struct expand *e, const char *text) {
  if (!e->out->s || !e->out->len) return 0;
  size_t sec = 0;
  for (size_t k = e->out->len; k-- > 1;)
    if (e->out->s[k] == '#' && e->out->s[k - 1] == '\n') {
      sec = k;
      break;
    }
  return strstr(e->out->s + sec, text) != NULL;
}

static int not_measured(struct expand *e, int rc, int inline_value, const struct render_args *a) {
  if (rc != -ENOENT || !e->x || !e->x->lenient) return wrap_err(e, rc);
  const char *why = e->err ? e->err->msg : "";
  if (!e->writing) {
    if (e->x->warn) {
      char msg[sizeof e->err->msg + 300];
      snprintf(msg, sizeof msg, "%s:%u: not measured: %s", e->tname, e->line, why);
      e->x->warn(e->x->warn_ctx, msg);
    }
    return 0;
  }
  enum render_lang lang = lang_of(e, a);
  if (inline_value) {
    render_buf_puts(e->out, render_msg(lang, MSG_NA_INLINE));
    e->drop_unit = 1; /* "about n/a GiB" reads "about n/a" */
    return 0;
  }
  /* a second note with the same reason right after the first (a section's
   * table and chart both missing) says nothing new */
  int blank = e->out->len >= e->last_note_end;
  for (size_t k = e->last_note_end; blank && k < e->out->len; k++) blank = e->out->s[k] == '\n' || e->out->s[k] == ' ';
  if (blank && e->last_why[0] && !strcmp(e->last_why, why)) return 0;
  snprintf(e->last_why, sizeof e->last_why, "%s", why);
  /* the reason in the review's language */
  struct render_buf r = {0}, esc = {0};
  render_msg_put_reason(&r, lang, why);
  render_buf_md(&esc, r.s ? r.s : ""); /* the reason is text (it may quote a label), not Markdown */
  json_t *params = json_pack("{s:s}", "why", esc.s ? esc.s : "");
  struct render_buf note = {0};
  render_buf_puts(&note, "*");
  render_msg_put(&note, lang, MSG_NOT_MEASURED, params);
  render_buf_puts(&note, "*");
  /* nor does the same note again in the same section (section_has) */
  int again = !note.s || section_has(e, note.s);
  if (!again && note.s) render_buf_puts(e->out, note.s);
  render_buf_free(&note);
  if (!again) e->last_note_end = e->out->len;
  json_decref(params);
  render_buf_free(&r);
  render_buf_free(&esc);
  return 0;
}

/* ------------------------------------------------------------ directives */

/* A chart or table over several drives is drawn from the drives that have
 * its data (the others noted in it); here each drive is checked alone, so
 * that a drive's missing data is still a warning (lenient) or an error
 * (--strict). CHECK tests drive I (1-based) alone; returns < 0 to stop. */
static int each_drive(struct expand *e, const char *drive, int (*check)(struct expand *e, const void *arg, const char *d),
                      const void *arg) {
  if ((drive && strcmp(drive, "all")) || e->rs->n < 2 || e->writing) return 0;
  for (size_t i = 0; i < e->rs->n; i++) {
    char idx[24];
    snprintf(idx, sizeof idx, "%zu", i + 1);
    int rc = check(e, arg, idx);
    if (rc == -ENOENT) {
      rc = not_measured(e, rc, 0, NULL);
      if (rc < 0) return rc;
    } else if (rc < 0) {
      return wrap_err(e, rc);
    }
  }
  return 0;
}

struct table_check {
  const char *kind;
  const struct render_args *a;
};

static int check_table_drive(struct expand *e, const void *arg, const char *d) {
  const struct table_check *t = arg;
  struct render_args one = *t->a;
  one.drive = d;
  return render_table(e->rs, t->kind, &one, NULL, e->err);
}

static int check_chart_drive(struct expand *e, const void *arg, const char *d) {
  const struct render_chart_opts *o = arg;
  struct render_chart_opts one = *o;
  one.drive = d;
  return render_chart_check(e->rs, e->chart_kind, &one, e->err);
}

/* The chart file stem: kind[-state][-op][-workload][-drive n], made unique. */
static void chart_stem(struct expand *e, const char *kind, const struct render_args *a, size_t drive_idx, char *stem,
                       size_t len) {
  if (a->name) snprintf(stem, len, "%s", a->name);
  else {
    snprintf(stem, len, "%s", kind);
    if (a->state) snprintf(stem + strlen(stem), len - strlen(stem), "-%s", strcmp(a->state, "75%") ? "fob" : "75");
    if (a->op) snprintf(stem + strlen(stem), len - strlen(stem), "-%s", a->op);
    if (a->workload) snprintf(stem + strlen(stem), len - strlen(stem), "-%s", a->workload);
    if (drive_idx) snprintf(stem + strlen(stem), len - strlen(stem), "-d%zu", drive_idx);
  }
  /* made a safe file name before the duplicate check: name=a/b and name=a_b
   * must not end up writing the same file */
  for (char *c = stem; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_') *c = '_';
  char base[96];
  snprintf(base, sizeof base, "%s", stem);
  if (!e->used) e->used = json_object();
  for (int k = 2; json_object_get(e->used, stem); k++) snprintf(stem, len, "%.80s-%d", base, k);
  json_object_set_new(e->used, stem, json_integer(e->line)); /* its line: chart_err */
}

/* An error from drawing a chart, prefixed with the line of the chart whose
 * file it names: the PNG worker reports a failed file (a full disk) when
 * the next chart is pushed, by then a later directive's. */
static int chart_err(struct expand *e, int rc) {
  unsigned line = e->line;
  const char *msg = e->err ? e->err->msg : "";
  const char *stem;
  json_t *v;
  json_object_foreach(e->used, stem, v) {
    char pat[120];
    snprintf(pat, sizeof pat, "/%s.png'", stem);
    if (json_is_integer(v) && strstr(msg, pat)) line = (unsigned)json_integer_value(v);
  }
  unsigned here = e->line;
  e->line = line;
  rc = wrap_err(e, rc);
  e->line = here;
  return rc;
}

static int one_chart(struct expand *e, const char *kind, const struct render_args *a, const char *drive,
                     size_t drive_idx) {
  struct render_chart_opts o;
  render_chart_opts_defaults(&o);
  o.drive = drive;
  o.state = a->state;
  o.op = a->op;
  o.workload = a->workload;
  o.test = a->test;
  o.dpi = e->dpi;
  o.lang = lang_of(e, a);
  if (a->height) {
    char *end = NULL;
    o.height_in = strtod(a->height, &end);
    if (end == a->height || *end || !(o.height_in >= 1 && o.height_in <= 9))
      return fail_at(e, -EINVAL, "height=%s: give inches between 1 and 9", a->height);
  }
  if (!e->writing) {
    int rc = render_chart_check(e->rs, kind, &o, e->err);
    if (rc < 0) return not_measured(e, rc, 0, a);
    e->chart_kind = kind;
    rc = each_drive(e, drive, check_chart_drive, &o);
    if (rc < 0) return rc;
    /* the chart's link, known before anything is drawn, so the template's
     * own links to charts/ are checked against it (render_expand) */
    char stem[96], url[300];
    chart_stem(e, kind, a, drive_idx, stem, sizeof stem);
    snprintf(url, sizeof url, "%s/%s.png", e->chart_rel ? e->chart_rel : "charts", stem);
    return render_images_add(&e->imgs, url) ? ssdrev_fail(e->err, -ENOMEM, "out of memory expanding %s", e->tname) : 0;
  }
  if (e->x && e->x->lenient) {
    int rc = render_chart_check(e->rs, kind, &o, e->err);
    if (rc < 0) return not_measured(e, rc, 0, a);
  }
  char stem[96];
  chart_stem(e, kind, a, drive_idx, stem, sizeof stem);
  if (e->chart_dir) {
    char path[8300];
    for (int k = 0; k < 2; k++) {
      snprintf(path, sizeof path, "%s/%s.%s", e->chart_dir, stem, k ? "svg" : "png");
      /* drawn here, in template order: cairo's glyph cache and surface ids
       * are process-wide, so another order (or threads) changes the bytes */
      int rc = render_chart_draw(e->rs, kind, &o, path, e->keep, e->err);
      if (rc < 0) return chart_err(e, rc);
    }
    if (e->keep && e->keep->drawn) {
      snprintf(path, sizeof path, "%s/%s.png", e->chart_rel ? e->chart_rel : "charts", stem);
      json_object_set_new(e->keep->drawn, path, json_true());
    }
  }
  const char *cap = a->caption;
  char capbuf[300];
  if (!cap) {
    const struct render_run *r = drive ? render_runs_find(e->rs, drive) : NULL;
    /* the chart's title in the template's language (the kind for a kind
     * the catalogue has no title for) */
    static const struct {
      const char *kind;
      enum render_msg_id msg;
    } titles[] = {{"cdm", MSG_C_CDM},   {"fill", MSG_C_FILL},       {"fill_latency", MSG_C_FILL_LAT},
                  {"rw_ratio", MSG_C_RW}, {"tail", MSG_C_TAIL},     {"latency", MSG_C_LATENCY},
                  {"hist", MSG_C_HIST},   {"temperature", MSG_C_TEMP},
                  {"qd_scaling", MSG_C_QD_IOPS}, {"qd_latency", MSG_C_QD_LAT},
                  {"fill_time", MSG_C_FILL_TIME}, {"thermal", MSG_C_THERMAL},
                  {"steady_state", MSG_C_SS_TITLE}, {"consistency", MSG_C_CONS_TITLE},
                  {"consistency_log", MSG_C_CONS_LOG_TITLE}, {"consistency_latency", MSG_C_CONS_LAT_TITLE},
                  {"cache_recovery", MSG_C_RECOVERY}};
    struct render_buf t = {0};
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++)
      if (!strcmp(titles[i].kind, kind)) render_buf_puts(&t, render_msg(o.lang, titles[i].msg));
    if (!strcmp(kind, "bars")) {
      json_t *params = json_pack("{s:s, s:s}", "op", a->op ? a->op : "read", "state", a->state ? a->state : "FOB");
      render_msg_put(&t, o.lang, MSG_C_BARS, params);
      json_decref(params);
    }
    snprintf(capbuf, sizeof capbuf, "%s%s%s%s%s", t.len && !t.oom ? t.s : kind, r ? " — " : "", r ? r->label : "",
             a->state && strcmp(kind, "bars") ? " — " : "", a->state && strcmp(kind, "bars") ? a->state : "");
    render_buf_free(&t);
    cap = capbuf;
  }
  render_buf_puts(e->out, "![");
  render_buf_md(e->out, cap); /* a caption (or the label in it) stays alt text */
  char url[300];
  snprintf(url, sizeof url, "%s/%s.png", e->chart_rel ? e->chart_rel : "charts", stem);
  render_buf_printf(e->out, "](%s)", url);
  if (render_images_add(&e->imgs, url)) return ssdrev_fail(e->err, -ENOMEM, "out of memory expanding %s", e->tname);
  return 0;
}

static int lang_ok(struct expand *e, const struct render_args *a);

static int d_chart(struct expand *e, const char *kind, const struct render_args *a) {
  if (lang_ok(e, a) < 0) return -EINVAL;
  if (!render_chart_kind_exists(kind)) {
    struct render_buf names = {0};
    for (const struct render_chart_kind_info *k = render_chart_kinds(); k->name; k++) {
      if (names.len) render_buf_puts(&names, ", ");
      render_buf_puts(&names, k->name);
    }
    char msg[600];
    snprintf(msg, sizeof msg, "unknown chart kind '%s' (known: %s)", kind, names.s ? names.s : "");
    render_buf_free(&names);
    return ssdrev_fail(e->err, -EINVAL, "%s:%u: %s", e->tname, e->line, msg);
  }
  /* one-drive kinds over several drives: one chart per drive, a paragraph each */
  if (render_chart_kind_one_drive(kind) && (!a->drive || !strcmp(a->drive, "all")) && e->rs->n > 1) {
    for (size_t i = 0; i < e->rs->n; i++) {
      char idx[24];
      snprintf(idx, sizeof idx, "%zu", i + 1);
      if (i && e->writing) render_buf_puts(e->out, "\n\n");
      int rc = one_chart(e, kind, a, idx, i + 1);
      if (rc < 0) return rc;
    }
    return 0;
  }
  size_t idx = 0;
  if (a->drive && strcmp(a->drive, "all")) {
    const struct render_run *r = render_runs_find(e->rs, a->drive);
    if (!r) return fail_at(e, -ENOENT, "drive=%s: no run with that label or number", a->drive);
    idx = (size_t)(r - e->rs->v) + 1;
  }
  return one_chart(e, kind, a, a->drive, idx);
}

static int d_table(struct expand *e, const char *kind, const struct render_args *a) {
  if (lang_ok(e, a) < 0) return -EINVAL;
  if (!render_table_exists(kind)) {
    char msg[400];
    snprintf(msg, sizeof msg, "unknown table kind '%s' (known: %s)", kind, render_table_kind_list());
    return ssdrev_fail(e->err, -EINVAL, "%s:%u: %s", e->tname, e->line, msg);
  }
  if (a->labels && strcmp(kind, "tail") && strcmp(kind, "dut"))
    return fail_at(e, -EINVAL, "labels= is for {{dut}} and {{table tail}}, not {{table %s}}", kind);
  if (a->drive && strcmp(a->drive, "all") && !render_runs_find(e->rs, a->drive))
    return fail_at(e, -ENOENT, "drive=%s: no run with that label or number", a->drive);
  struct render_buf tmp = {0};
  struct render_args ta = *a;
  ta.lang = render_lang_code(lang_of(e, a)); /* tables read the language from their args */
  int rc = render_table(e->rs, kind, &ta, e->writing ? &tmp : NULL, e->err);
  if (rc < 0) {
    render_buf_free(&tmp);
    return not_measured(e, rc, 0, a);
  }
  struct table_check tc = {.kind = kind, .a = a};
  if ((rc = each_drive(e, a->drive, check_table_drive, &tc)) < 0) {
    render_buf_free(&tmp);
    return rc;
  }
  /* a table ends in a blank line; the template's own newline follows */
  if (tmp.len >= 1 && tmp.s[tmp.len - 1] == '\n') tmp.s[--tmp.len] = 0;
  /* a drive's not-measured note the section already holds is left out */
  const char *na = render_msg(lang_of(e, a), MSG_NOT_MEASURED);
  size_t na_len = strchr(na, '{') ? (size_t)(strchr(na, '{') - na) : strlen(na);
  for (const char *l = tmp.s; l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);
    int skip = 0;
    if (l[0] == '*' && !strncmp(l + 1, na, na_len)) {
      char *line = strndup(l, nl ? (size_t)(nl - l) : len);
      skip = line && section_has(e, line);
      free(line);
      if (skip && nl && nl[1] == '\n') len++; /* and its blank line */
    }
    if (!skip) render_buf_printf(e->out, "%.*s", (int)len, l);
    l += len;
  }
  render_buf_free(&tmp);
  return 0;
}

static int lang_ok(struct expand *e, const struct render_args *a);

static int d_dut(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  int rc = lang_ok(e, a);
  return rc < 0 ? rc : d_table(e, "dut", a);
}

static int d_flags(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  return d_table(e, "flags", a);
}

/* fmt= must be one floating conversion (%[flags][width][.prec]f|e|g) with
 * optional literal text around it: never a caller-chosen format string.
 * The flag ',' groups the integer part by thousands (as Python's "{:,.0f}";
 * printf's own ' needs a locale and quotes an argument here). */
static int fmt_ok(const char *f) {
  int conv = 0;
  for (const char *c = f; *c; c++) {
    if (*c != '%') continue;
    if (c[1] == '%') {
      c++;
      continue;
    }
    if (conv++) return 0;
    c++;
    while (*c && strchr("-+ 0#,", *c)) c++;
    for (int k = 0; k < 2 && isdigit((unsigned char)*c); k++) c++;
    if (*c == '.') {
      c++;
      for (int k = 0; k < 2 && isdigit((unsigned char)*c); k++) c++;
    }
    if (!*c || !strchr("feg", *c)) return 0;
  }
  return conv == 1;
}

static int d_value(struct expand *e, const char *path, const struct render_args *a) {
  if (a->fmt && !fmt_ok(a->fmt))
    return fail_at(e, -EINVAL, "fmt=%s: give one number format such as %%.1f or %%.2f GiB", a->fmt);
  const struct render_run *r = render_runs_find(e->rs, a->drive ? a->drive : "1");
  if (!r) return fail_at(e, -ENOENT, "drive=%s: no run with that label or number", a->drive ? a->drive : "1");
  json_t *v;
  if (a->state || a->cell) {
    /* cdm.KEY... state=S cell=C: the row of that state and cell, whatever
     * its place in the list (an import may hold 75% before FOB) */
    if (strncmp(path, "cdm.", 4) || !a->cell)
      return fail_at(e, -EINVAL, "value %s: state= and cell= select a CrystalDiskMark row: give both cell= and a path cdm.OP.KEY", path);
    if (a->state && strcmp(a->state, "FOB") && strcmp(a->state, "75%"))
      return fail_at(e, -EINVAL, "state=%s: give FOB or 75%%", a->state);
    const char *st = a->state ? a->state : "FOB";
    json_t *cells[32], *row = NULL;
    size_t n = render_data_cdm_cells(r, st, cells, 32);
    if (!n) {
      render_msg_fail(e->err, -ENOENT, MSG_MISS_CDM, r->label, st);
      return not_measured(e, -ENOENT, 1, a);
    }
    for (size_t i = 0; i < n; i++)
      if (!strcmp(render_data_str(cells[i], "cell", ""), a->cell)) row = cells[i];
    v = row ? render_data_path(row, path + 4) : NULL;
  } else {
    v = render_data_path(r->analysis, path);
  }
  if (!v || json_is_object(v) || json_is_array(v) || json_is_null(v)) {
    if (v && !json_is_null(v)) {
      char msg[700];
      snprintf(msg, sizeof msg, "value '%s' is not a single value in the analysis of run '%s'", path, r->label);
      return ssdrev_fail(e->err, -EINVAL, "%s:%u: %s", e->tname, e->line, msg);
    }
    render_msg_fail(e->err, -ENOENT, MSG_MISS_VALUE, r->label, path);
    return not_measured(e, -ENOENT, 1, a);
  }
  if (!e->writing) return 0;
  if (json_is_string(v)) render_buf_md(e->out, json_string_value(v));
  else if (json_is_boolean(v)) render_buf_puts(e->out, render_msg(e->lang, json_is_true(v) ? MSG_YES : MSG_NO));
  else {
    char f[128], buf[128], g[192];
    snprintf(f, sizeof f, "%s", a->fmt ? a->fmt : "%g");
    /* the grouping flag is ours, not the C library's */
    char *q = strchr(f, '%');
    while (q && q[1] == '%') q = strchr(q + 2, '%');
    int group = 0;
    for (char *c = q ? q + 1 : NULL; c && *c && strchr("-+ 0#,", *c);)
      if (*c == ',') memmove(c, c + 1, strlen(c)), group = 1;
      else c++;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    /* fmt_ok() allowed exactly one double conversion */
    snprintf(buf, sizeof buf, f, json_number_value(v));
#pragma GCC diagnostic pop
    if (group) {
      /* the number's digits, not the literal text before it */
      size_t pre = 0;
      for (const char *c = f; q && c < q; c++, pre++)
        if (c[0] == '%' && c[1] == '%') c++; /* "%%" printed one '%' */
      memcpy(g, buf, pre);
      render_group_digits(buf + pre, g + pre, sizeof g - pre, 4);
      render_buf_puts(e->out, g);
    } else {
      render_buf_puts(e->out, buf);
    }
  }
  return 0;
}

static int d_label(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  const struct render_run *r = render_runs_find(e->rs, a->drive ? a->drive : "1");
  if (!r) return fail_at(e, -ENOENT, "drive=%s: no run with that label or number", a->drive ? a->drive : "1");
  if (e->writing) render_buf_md(e->out, r->label);
  return 0;
}

/* The labels of the runs PICK keeps (all when NULL), escaped and joined as
 * a list in LANG: "A and B", "A, B, and C" (Korean: "A, B"). */
static void put_labels(struct render_buf *out, const struct render_runs *rs, enum render_lang lang,
                       int (*pick)(const struct render_run *)) {
  size_t n = 0, k = 0;
  for (size_t i = 0; i < rs->n; i++) n += !pick || pick(&rs->v[i]);
  for (size_t i = 0; i < rs->n; i++) {
    if (pick && !pick(&rs->v[i])) continue;
    if (k && k + 1 == n && n > 2 && lang == RENDER_LANG_EN) render_buf_puts(out, ",");
    if (k) render_buf_puts(out, render_msg(lang, k + 1 == n ? MSG_AND : MSG_LIST_SEP));
    render_buf_md(out, rs->v[i].label);
    k++;
  }
}

static int run_simulated(const struct render_run *r) { return r->simulated; }
static int run_short(const struct render_run *r) { return r->short_review; }

static int d_drives(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  (void)a;
  if (e->writing) put_labels(e->out, e->rs, e->lang, NULL);
  return 0;
}

static int lang_ok(struct expand *e, const struct render_args *a) {
  if (a->lang && strcmp(a->lang, "en") && strcmp(a->lang, "ko"))
    return fail_at(e, -EINVAL, "lang=%s: give en or ko", a->lang);
  if (a->labels && strcmp(a->labels, "en") && strcmp(a->labels, "ko"))
    return fail_at(e, -EINVAL, "labels=%s: give en or ko", a->labels);
  return 0;
}

static int d_flags_checked(struct expand *e, const char *pos, const struct render_args *a) {
  int rc = lang_ok(e, a);
  return rc < 0 ? rc : d_flags(e, pos, a);
}

static int d_notice(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  int rc = lang_ok(e, a);
  if (rc < 0 || !e->writing) return rc;
  /* the runs named as {{drives}} names them ("A and B", not "A, B") */
  struct render_buf names = {0};
  put_labels(&names, e->rs, lang_of(e, a), run_simulated);
  if (names.len) {
    json_t *params = json_pack("{s:s}", "runs", names.s ? names.s : "");
    render_buf_puts(e->out, "> ");
    render_msg_put(e->out, lang_of(e, a), MSG_SIMULATED, params);
    json_decref(params);
  }
  render_buf_free(&names);
  /* a short review is a trial: its fills and tails are small */
  struct render_buf sn = {0};
  put_labels(&sn, e->rs, lang_of(e, a), run_short); /* a label is text, escaped as the notice above */
  if (sn.len) {
    /* the template's language, as the notice above; the catalogue's form */
    if (e->out->len && e->out->s[e->out->len - 1] != '\n') render_buf_puts(e->out, "\n>\n");
    json_t *params = json_pack("{s:s}", "runs", sn.s ? sn.s : "");
    render_buf_puts(e->out, "> ");
    render_msg_put(e->out, lang_of(e, a), MSG_SHORT_NOTICE, params);
    json_decref(params);
  }
  render_buf_free(&sn);
  return 0;
}

static int d_version(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  (void)a;
  if (e->writing) render_buf_puts(e->out, SSDREV_VERSION);
  return 0;
}

/* {{lang CODE}}: the template's language (render_template_lang read it
 * before the walk); writes nothing. */
static int d_lang(struct expand *e, const char *code, const struct render_args *a) {
  (void)a;
  enum render_lang l;
  if (render_lang_parse(code, &l) < 0) return fail_at(e, -EINVAL, "lang %s: give en or ko", code);
  /* render_template_lang took the first {{lang}}: a later one must agree */
  if (l != e->lang) return fail_at(e, -EINVAL, "lang %s: the template named another language before", code);
  return 0;
}

static int d_chart_entry(struct expand *e, const char *pos, const struct render_args *a) { return d_chart(e, pos, a); }

/* {{findings}}: the sentences of findings.c for the selected runs, as a
 * list; nothing when no run has the data a topic needs. */
static int d_findings(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  int rc = lang_ok(e, a);
  if (rc < 0) return rc;
  if (a->topic && !render_findings_topic_ok(a->topic))
    return fail_at(e, -EINVAL, "topic=%s: give cdm, fob, slc, random, tail, thermal, steady, flags or all", a->topic);
  const struct render_run *sel[64];
  if (a->drive && strcmp(a->drive, "all") && !render_runs_find(e->rs, a->drive))
    return fail_at(e, -ENOENT, "drive=%s: no run with that label or number", a->drive);
  size_t n = render_select(e->rs, a->drive, sel, 64);
  if (!e->writing) return 0;
  struct render_buf tmp = {0};
  render_findings(sel, n, a->topic, lang_of(e, a), &tmp);
  /* the list ends in a newline; the template's own follows */
  if (tmp.len && tmp.s[tmp.len - 1] == '\n') tmp.s[--tmp.len] = 0;
  if (tmp.s) render_buf_puts(e->out, tmp.s);
  int oom = tmp.oom; /* render_buf_free clears it */
  render_buf_free(&tmp);
  return oom ? ssdrev_fail(e->err, -ENOMEM, "out of memory expanding %s", e->tname) : 0;
}

/* {{slot "..."}}: a place for the author's prose (ssdrev template init
 * writes them); it renders nothing, so an unwritten slot leaves no hole. */
static int d_slot(struct expand *e, const char *pos, const struct render_args *a) {
  (void)e;
  (void)pos;
  (void)a;
  return 0;
}
static int d_table_entry(struct expand *e, const char *pos, const struct render_args *a) { return d_table(e, pos, a); }

static const struct directive directives[] = {
    {"chart", "a chart kind", "drive state op workload test caption name height lang", d_chart_entry,
     "{{chart KIND [drive=] [state=] [op=] [workload=] [test=] [caption=] [name=] [height=] [lang=]}}"},
    {"table", "a table kind", "drive state op lang labels", d_table_entry,
     "{{table KIND [drive=] [state=] [op=] [lang=] [labels=]}}"},
    {"value", "a path in analysis.json", "drive fmt state cell", d_value, "{{value PATH [drive=] [fmt=] [state=] [cell=]}}, e.g. {{value fill.slc.max_gib}}"},
    {"dut", NULL, "drive lang labels", d_dut, "{{dut [drive=] [lang=] [labels=]}}"},
    {"flags", NULL, "drive lang", d_flags_checked, "{{flags [drive=] [lang=]}}"},
    {"label", NULL, "drive", d_label, "{{label [drive=]}}"},
    {"drives", NULL, "", d_drives, "{{drives}}"},
    {"simulated_notice", NULL, "lang", d_notice, "{{simulated_notice [lang=]}}"},
    {"version", NULL, "", d_version, "{{version}}"},
    {"lang", "a language", "", d_lang, "{{lang ko}} or {{lang en}}"},
    {"findings", NULL, "drive topic lang", d_findings, "{{findings [topic=] [drive=] [lang=]}}"},
    {"slot", "the prose to write there, quoted", "", d_slot, "{{slot \"what to write here\"}}"},
};
#define NDIRECTIVES (sizeof directives / sizeof directives[0])

/* --------------------------------------------------------------- parsing */

/* Splits the directive body into tokens in place; "quoted values" keep
 * their spaces. Returns the count or -1 on an unterminated quote. */
static int tokenize(char *s, char **tok, int max) {
  int n = 0;
  while (*s) {
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) break;
    if (n >= max) return -2;
    char *w = s, *start = s;
    tok[n++] = start;
    while (*s && *s != ' ' && *s != '\t') {
      if (*s == '"') {
        s++;
        while (*s && *s != '"') *w++ = *s++;
        if (*s != '"') return -1;
        s++;
      } else {
        *w++ = *s++;
      }
    }
    if (*s) s++;
    *w = 0;
  }
  return n;
}

static int key_allowed(const char *keys, const char *k) {
  size_t kl = strlen(k);
  for (const char *p = keys; *p;) {
    const char *sp = strchr(p, ' ');
    size_t l = sp ? (size_t)(sp - p) : strlen(p);
    if (l == kl && !strncmp(p, k, l)) return 1;
    p += l;
    while (*p == ' ') p++;
  }
  return 0;
}

static int set_arg(struct render_args *a, const char *k, const char *v) {
  static const struct {
    const char *k;
    size_t off;
  } map[] = {{"drive", offsetof(struct render_args, drive)}, {"state", offsetof(struct render_args, state)},
             {"op", offsetof(struct render_args, op)},       {"workload", offsetof(struct render_args, workload)},
             {"test", offsetof(struct render_args, test)},   {"lang", offsetof(struct render_args, lang)},
             {"fmt", offsetof(struct render_args, fmt)},     {"caption", offsetof(struct render_args, caption)},
             {"name", offsetof(struct render_args, name)},   {"height", offsetof(struct render_args, height)},
             {"cell", offsetof(struct render_args, cell)},   {"topic", offsetof(struct render_args, topic)},
             {"labels", offsetof(struct render_args, labels)}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(map[i].k, k)) {
      *(const char **)((char *)a + map[i].off) = v;
      return 0;
    }
  return -1;
}

static int run_directive(struct expand *e, const char *body, size_t len) {
  char buf[DIRECTIVE_MAX];
  if (len >= sizeof buf) return fail_at(e, -EINVAL, "directive longer than %s bytes", "1023");
  memcpy(buf, body, len);
  buf[len] = 0;
  char *tok[MAX_TOKENS];
  int n = tokenize(buf, tok, MAX_TOKENS);
  if (n == -1) return fail_at(e, -EINVAL, "unterminated quote in {{%s}}", buf);
  if (n == -2) return fail_at(e, -EINVAL, "too many arguments in directive '%s'", tok[0]);
  if (n == 0) return fail_at(e, -EINVAL, "empty directive {{%s}}", "");
  if (!strcmp(tok[0], "if") || !strcmp(tok[0], "else") || !strcmp(tok[0], "end") || !strcmp(tok[0], "each"))
    return fail_at(e, -EINVAL, "{{%s}} must stand alone on its line (docs/templates.md, \"Blocks\")", tok[0]);
  const struct directive *d = NULL;
  for (size_t i = 0; i < NDIRECTIVES; i++)
    if (!strcmp(directives[i].name, tok[0])) d = &directives[i];
  if (!d) {
    return fail_at(e, -EINVAL,
                   "unknown directive '%s' (known: chart, table, value, dut, flags, label, drives, "
                   "simulated_notice, version, lang, findings, slot, if, else, end, each)",
                   tok[0]);
  }
  struct render_args a = {0};
  const char *pos = NULL;
  for (int i = 1; i < n; i++) {
    char *eq = strchr(tok[i], '=');
    if (!eq) {
      if (!d->arg || pos) {
        /* each directive's own form, never another's (issue 26: {{lang}}
         * was told to give "a kind or a path") */
        char msg[400];
        snprintf(msg, sizeof msg, "unexpected argument '%s' to %s (give %s)", tok[i], d->name, d->usage);
        return ssdrev_fail(e->err, -EINVAL, "%s:%u: %s", e->tname, e->line, msg);
      }
      pos = tok[i];
      continue;
    }
    *eq = 0;
    if (!key_allowed(d->keys, tok[i]) || set_arg(&a, tok[i], eq + 1) < 0) {
      char msg[300];
      snprintf(msg, sizeof msg, "%s does not take %s= (give %s)", d->name, tok[i], d->usage);
      return ssdrev_fail(e->err, -EINVAL, "%s:%u: %s", e->tname, e->line, msg);
    }
    if (!eq[1]) return fail_at(e, -EINVAL, "empty value for %s=", tok[i]);
  }
  if (d->arg && !pos) {
    char msg[400];
    snprintf(msg, sizeof msg, "{{%s}} needs %s: give %s", d->name, d->arg, d->usage);
    return ssdrev_fail(e->err, -EINVAL, "%s:%u: %s", e->tname, e->line, msg);
  }
  /* inside {{each drive}} a directive that takes drive= is about that run */
  int add_drive = e->cur_drive[0] && !a.drive && key_allowed(d->keys, "drive");
  if (add_drive) a.drive = e->cur_drive;
  if (e->skip) return 0; /* a branch not taken: checked above, not run */
  if (e->spec) {
    /* template init: the directive as written, tied to its run */
    if (e->writing) {
      render_buf_puts(e->out, "{{");
      render_buf_putn(e->out, body, len);
      if (add_drive) render_buf_printf(e->out, " drive=%s", e->cur_drive);
      render_buf_puts(e->out, "}}");
    }
    return 0;
  }
  return d->run(e, pos, &a);
}

/* Checking pass: keeps the error of a directive (in e->err) and goes on, so
 * that a template with several mistakes shows them all in one run. Returns
 * rc when the walk must stop (writing, no memory, too many errors). */
static int note_error(struct expand *e, int rc) {
  if (e->writing || rc == -ENOMEM) return rc;
  if (!e->nerrs++) e->first_rc = rc;
  const char *m = e->err ? e->err->msg : "";
  size_t n = strlen(m);
  /* a line that does not fit is left for the "and N more" count */
  if (e->errs_len + n + 4 < sizeof e->errs - 40) {
    e->errs_len += (size_t)snprintf(e->errs + e->errs_len, sizeof e->errs - e->errs_len, "\n  %s", m);
    e->listed++;
  }
  return e->nerrs >= TEMPLATE_MAX_ERRORS ? rc : 0;
}

/* After the checking pass: one error as it is; several as a count and a list. */
static int report_errors(struct expand *e) {
  if (!e->nerrs) return 0;
  /* e->err may have been overwritten since (a lenient "not measured" note
   * reads its reason from there), so the message comes from the list */
  if (e->nerrs == 1) return e->listed ? ssdrev_fail(e->err, e->first_rc, "%s", e->errs + 3) : e->first_rc;
  char more[64] = "";
  if (e->nerrs > e->listed) snprintf(more, sizeof more, "\n  (and %u more)", e->nerrs - e->listed);
  return ssdrev_fail(e->err, e->first_rc, "%u%s errors in template %s:%s%s", e->nerrs,
                     e->nerrs >= TEMPLATE_MAX_ERRORS ? " or more" : "", e->tname, e->errs, more);
}

/* After a missing inline value: the unit the template wrote after it (" GiB",
 * "MB/s", ...), so a sentence never reads "n/a GiB"; C itself when none. */
static const char *skip_unit(const char *c, const char *end) {
  static const char *const units[] = {"GiB", "GB", "MiB", "MB/s", "µs", "us", "ms", "IOPS", "°C", "%", NULL};
  const char *u0 = c < end && *c == ' ' ? c + 1 : c;
  for (const char *const *u = units; *u; u++) {
    size_t n = strlen(*u);
    if ((size_t)(end - u0) >= n && !memcmp(u0, *u, n)) {
      const char *after = u0 + n;
      /* a whole unit, not the start of a word ("GBs", "usually") */
      if (after < end && (isalnum((unsigned char)*after) || *after == '_')) continue;
      return after;
    }
  }
  return c;
}

/* ------------------------------------------------------------ blocks */

/* Block directives ({{if}}, {{else}}, {{end}}, {{each}}) stand alone on
 * their line, which they take whole: a skipped section leaves no blank
 * line of its own. Returns the block's kind (1 if, 2 else, 3 end, 4 each)
 * with its body in BODY (NUL-terminated), 0 for any other line. */
enum { BLK_NONE, BLK_IF, BLK_ELSE, BLK_END, BLK_EACH };

static int block_line(const char *p, size_t len, char *body, size_t cap) {
  const char *a = p, *z = p + len;
  while (a < z && (*a == ' ' || *a == '\t')) a++;
  while (z > a && (z[-1] == '\n' || z[-1] == '\r' || z[-1] == ' ' || z[-1] == '\t')) z--;
  if (z - a < 4 || strncmp(a, "{{", 2) || strncmp(z - 2, "}}", 2)) return BLK_NONE;
  const char *in = a + 2;
  size_t n = (size_t)(z - 2 - in);
  if (memmem(in, n, "}}", 2) || memmem(in, n, "{{", 2)) return BLK_NONE; /* two directives on the line */
  static const struct {
    const char *w;
    int kind;
  } words[] = {{"if", BLK_IF}, {"else", BLK_ELSE}, {"end", BLK_END}, {"each", BLK_EACH}};
  for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
    size_t wl = strlen(words[k].w);
    if (n >= wl && !strncmp(in, words[k].w, wl) && (n == wl || in[wl] == ' ' || in[wl] == '\t')) {
      if (n >= cap) n = cap - 1;
      memcpy(body, in, n);
      body[n] = 0;
      return words[k].kind;
    }
  }
  return BLK_NONE;
}

static int has_kind(struct expand *e, const char *name, const char *state, const char *drive);

/* Whether run R (or, for R NULL, any run) has the data NAME stands for: a
 * chart kind that can be drawn, a table kind that writes something, or one
 * of slc (a cache cliff found), flags, short, simulated. -EINVAL for an
 * unknown NAME. */
static int has_data(struct expand *e, const char *name, const char *state, const char *drive) {
  const struct render_run *sel[64];
  size_t n = render_select(e->rs, drive, sel, 64);
  if (!strcmp(name, "slc") || !strcmp(name, "flags") || !strcmp(name, "short") || !strcmp(name, "simulated")) {
    for (size_t i = 0; i < n; i++) {
      const json_t *an = sel[i]->analysis;
      if (!strcmp(name, "slc") ? json_is_true(render_data_path((json_t *)an, "fill.slc.found"))
          : !strcmp(name, "flags") ? json_array_size(json_object_get(an, "flags")) > 0
          : !strcmp(name, "short") ? sel[i]->short_review
                                   : sel[i]->simulated)
        return 1;
    }
    return 0;
  }
  if (!drive && e->rs->n > 1) {
    /* any run: each alone (a one-drive chart kind checks one run) */
    for (size_t i = 0; i < e->rs->n; i++) {
      char idx[24];
      snprintf(idx, sizeof idx, "%zu", i + 1);
      int r = has_data(e, name, state, idx);
      if (r) return r;
    }
    return 0;
  }
  char key[200];
  snprintf(key, sizeof key, "%.100s|%s|%s", name, state ? state : "", drive ? drive : "");
  if (!e->has_cache) e->has_cache = json_object();
  json_t *known = json_object_get(e->has_cache, key);
  if (known) return json_is_true(known);
  int r = has_kind(e, name, state, drive);
  if (r >= 0) json_object_set_new(e->has_cache, key, json_boolean(r));
  return r;
}

/* has_data's answer for a chart or table kind, computed. */
static int has_kind(struct expand *e, const char *name, const char *state, const char *drive) {
  struct ssdrev_err quiet = {{0}};
  if (render_chart_kind_exists(name)) {
    struct render_chart_opts o;
    render_chart_opts_defaults(&o);
    o.drive = drive;
    o.state = state;
    return render_chart_check(e->rs, name, &o, &quiet) == 0;
  }
  if (render_table_exists(name)) {
    struct render_args a = {.drive = drive, .state = state, .lang = render_lang_code(e->lang)};
    struct render_buf b = {0};
    int rc = render_table(e->rs, name, &a, &b, &quiet);
    int has = rc == 0 && b.len > 0;
    render_buf_free(&b);
    return has;
  }
  return fail_at(e, -EINVAL, "if: has=%s names no data: give a chart or table kind, or slc, flags, short, simulated", name);
}

/* {{if has=X [all=X] [lacks=X] [value=PATH] [drives=N|N+] [state=S] [drive=D]}}:
 * every key must hold. has=: some run (inside {{each}} or with drive=:
 * that run) has X; all=: every run has it; lacks=: no run has it; value=:
 * analysis.json of run 1 (inside {{each}} or with drive=: that run) holds
 * a number, string or boolean at PATH ({{value}}'s paths); drives=: the
 * number of runs. Returns 1, 0, or < 0 on a bad condition. */
static int eval_if(struct expand *e, char *body) {
  char *tok[MAX_TOKENS];
  int n = tokenize(body, tok, MAX_TOKENS);
  if (n < 0) return fail_at(e, -EINVAL, "bad {{%s}}: give {{if has=KIND}} (docs/templates.md)", body);
  if (n < 2) return fail_at(e, -EINVAL, "{{if}} needs a condition: give {{if has=KIND}}, all=, lacks=, value= or drives=%s", "");
  const char *state = NULL, *drive = e->cur_drive[0] ? e->cur_drive : NULL;
  for (int i = 1; i < n; i++) {
    if (!strncmp(tok[i], "state=", 6)) {
      state = tok[i] + 6;
      if (strcmp(state, "FOB") && strcmp(state, "75%")) return fail_at(e, -EINVAL, "state=%s: give FOB or 75%%", state);
    }
    if (!strncmp(tok[i], "drive=", 6)) {
      drive = tok[i] + 6;
      if (!strcmp(drive, "all")) drive = NULL;
      else if (!render_runs_find(e->rs, drive)) return fail_at(e, -ENOENT, "drive=%s: no run with that label or number", drive);
    }
  }
  int ok = 1;
  for (int i = 1; i < n; i++) {
    char *eq = strchr(tok[i], '=');
    if (!eq || !eq[1])
      return fail_at(e, -EINVAL, "if: '%s' is no condition (give has=, all=, lacks=, value=, drives=, state= or drive=)", tok[i]);
    *eq = 0;
    const char *k = tok[i], *v = eq + 1;
    int r;
    if (!strcmp(k, "state") || !strcmp(k, "drive")) continue;
    if (!strcmp(k, "has")) {
      r = has_data(e, v, state, drive);
    } else if (!strcmp(k, "lacks")) {
      r = has_data(e, v, state, drive);
      if (r >= 0) r = !r;
    } else if (!strcmp(k, "value")) {
      const struct render_run *run = render_runs_find(e->rs, drive ? drive : "1");
      json_t *x = run ? render_data_path(run->analysis, v) : NULL;
      r = json_is_number(x) || json_is_string(x) || json_is_boolean(x);
    } else if (!strcmp(k, "all")) {
      r = 1;
      for (size_t d = 0; r == 1 && d < e->rs->n; d++) {
        char idx[24];
        snprintf(idx, sizeof idx, "%zu", d + 1);
        r = has_data(e, v, state, idx);
      }
    } else if (!strcmp(k, "drives")) {
      char *end = NULL;
      unsigned long want = strtoul(v, &end, 10);
      int plus = end && *end == '+';
      if (end == v || (*end && strcmp(end, "+"))) return fail_at(e, -EINVAL, "drives=%s: give a number, or N+ for N or more", v);
      r = plus ? e->rs->n >= want : e->rs->n == want;
    } else {
      char msg[200];
      snprintf(msg, sizeof msg, "if does not take %s= (give has=, all=, lacks=, value=, drives=, state= or drive=)", k);
      return ssdrev_fail(e->err, -EINVAL, "%s:%u: %s", e->tname, e->line, msg);
    }
    if (r < 0) return r;
    ok = ok && r;
  }
  return ok;
}

/* The end of the {{each}} block whose body starts at P: the start of its
 * {{end}} line in *END_LINE and its line number in *LINE; -1 when none. */
static int find_end(const char *p, const char *stop, unsigned line, const char **end_line, unsigned *end_no) {
  int depth = 0, fence = 0;
  char body[DIRECTIVE_MAX];
  while (p < stop && *p) {
    const char *eol = memchr(p, '\n', (size_t)(stop - p));
    size_t len = eol ? (size_t)(eol - p) + 1 : (size_t)(stop - p);
    const char *q = p;
    while (q < p + len && *q == ' ') q++;
    if (!strncmp(q, "```", 3) || !strncmp(q, "~~~", 3)) fence = !fence;
    int k = fence ? BLK_NONE : block_line(p, len, body, sizeof body);
    if (k == BLK_IF || k == BLK_EACH) depth++;
    else if (k == BLK_END && depth-- == 0) {
      *end_line = p;
      *end_no = line;
      return 0;
    }
    p += len;
    line++;
  }
  return -1;
}

/* An open {{if}} ({{each}} recurses instead of using the stack). */
struct blk {
  int outer_skip;  /* e->skip before the {{if}} */
  int taken;       /* a branch of it was taken (an {{else}} after it is skipped) */
  int had_else;
  unsigned line;
};

static int walk_range(struct expand *e, const char *p, const char *stop, unsigned line0);

/* One block line of kind K (body BODY) at P..P+LEN: updates the stack, or
 * runs an {{each}} body once per run; *NEXT is where the walk goes on. */
static int do_block(struct expand *e, int k, char *body, struct blk *st, int *nst, const char *p, size_t len,
                    const char *stop, const char **next) {
  *next = p + len;
  if (k == BLK_IF) {
    if (*nst >= 32) return fail_at(e, -EINVAL, "{{if}} blocks nested more than 32 deep%s", "");
    struct blk b = {.outer_skip = e->skip, .taken = 1, .line = e->line};
    if (!e->skip) {
      int c = eval_if(e, body);
      if (c < 0) {
        e->skip = 1; /* the block's own directives are still checked, not run */
        st[(*nst)++] = b;
        return c;
      }
      b.taken = c;
      e->skip = !c;
    }
    st[(*nst)++] = b;
    return 0;
  }
  if (k == BLK_ELSE || k == BLK_END) {
    if (strcmp(body, k == BLK_ELSE ? "else" : "end"))
      return fail_at(e, -EINVAL, "{{%s}} takes nothing", k == BLK_ELSE ? "else" : "end");
    if (!*nst) return fail_at(e, -EINVAL, k == BLK_ELSE ? "{{else}} without {{if}}%s" : "{{end}} without {{if}} or {{each}}%s", "");
    struct blk *b = &st[*nst - 1];
    if (k == BLK_END) {
      e->skip = b->outer_skip;
      --*nst;
      return 0;
    }
    if (b->had_else) return fail_at(e, -EINVAL, "a second {{else}} in one {{if}}%s", "");
    b->had_else = 1;
    e->skip = b->outer_skip || b->taken;
    return 0;
  }
  /* {{each drive}}: the body once per run, drive= defaulting to it */
  const char *end_line;
  unsigned end_no;
  if (strcmp(body, "each drive")) return fail_at(e, -EINVAL, "{{%s}}: give {{each drive}}", body);
  if (e->cur_drive[0]) return fail_at(e, -EINVAL, "{{each drive}} inside {{each drive}}%s", "");
  if (find_end(p + len, stop, e->line + 1, &end_line, &end_no) < 0)
    return fail_at(e, -EINVAL, "{{each drive}} without its {{end}}%s", "");
  unsigned here = e->line;
  int rc = 0;
  size_t runs = e->skip ? 1 : e->rs->n; /* skipped: checked once */
  for (size_t i = 0; rc == 0 && i < runs; i++) {
    snprintf(e->cur_drive, sizeof e->cur_drive, "%zu", i + 1);
    rc = walk_range(e, p + len, end_line, here + 1);
  }
  e->cur_drive[0] = 0;
  const char *eol = memchr(end_line, '\n', (size_t)(stop - end_line));
  *next = eol ? eol + 1 : stop;
  e->line = end_no;
  return rc;
}

static int walk_range(struct expand *e, const char *p, const char *stop, unsigned line0) {
  e->line = line0;
  int fence = 0, nst = 0;
  struct blk st[32];
  char bbody[DIRECTIVE_MAX];
  while (p < stop && *p) {
    const char *eol = memchr(p, '\n', (size_t)(stop - p));
    size_t len = eol ? (size_t)(eol - p) + 1 : (size_t)(stop - p);
    const char *q = p;
    while (q < p + len && *q == ' ') q++;
    if (!strncmp(q, "```", 3) || !strncmp(q, "~~~", 3)) fence = !fence;
    int bk = fence ? BLK_NONE : block_line(p, len, bbody, sizeof bbody);
    if (bk != BLK_NONE) {
      const char *next;
      int rc = do_block(e, bk, bbody, st, &nst, p, len, stop, &next);
      if (rc < 0 && (rc = note_error(e, rc)) < 0) return rc;
      if (next != p + len) { /* an {{each}}: the walk goes on after its {{end}} */
        p = next;
        e->line++;
        continue;
      }
    } else if (fence || !memchr(p, '{', len)) {
      if (e->writing && !e->skip) render_buf_putn(e->out, p, len);
    } else {
      const char *end = p + len;
      for (const char *c = p; c < end;) {
        if (c[0] == '\\' && c + 2 < end && c[1] == '{' && c[2] == '{') {
          if (e->writing && !e->skip) render_buf_puts(e->out, "{{");
          c += 3;
        } else if (c[0] == '{' && c + 1 < end && c[1] == '{') {
          const char *close = NULL;
          for (const char *k = c + 2; k + 1 < end; k++)
            if (k[0] == '}' && k[1] == '}') {
              close = k;
              break;
            }
          if (!close) {
            int rc = note_error(e, fail_at(e, -EINVAL, "'{{' without '}}' on the same line%s", ""));
            if (rc < 0) return rc;
            break; /* the rest of the line is the unclosed directive */
          }
          e->drop_unit = 0;
          int rc = run_directive(e, c + 2, (size_t)(close - c - 2));
          if (rc < 0 && (rc = note_error(e, rc)) < 0) return rc;
          c = close + 2;
          if (e->drop_unit) c = skip_unit(c, end);
        } else {
          if (e->writing && !e->skip) render_buf_putn(e->out, c, 1);
          c++;
        }
      }
    }
    /* checked as it is written: the checking pass knows no sizes; charts
     * drawn before it are taken back with the report's other outputs */
    if (e->writing && e->out->len > EXPANDED_MAX_BYTES)
      return ssdrev_fail(e->err, -EFBIG, "%s:%u: the expanded review passes 32 MiB here (the limit of docs/templates.md)",
                         e->tname, e->line);
    p += len;
    if (eol) e->line++;
  }
  if (nst) {
    unsigned here = e->line;
    e->line = st[nst - 1].line;
    int rc = note_error(e, fail_at(e, -EINVAL, "{{if}} without its {{end}}%s", ""));
    e->line = here;
    e->skip = st[0].outer_skip;
    if (rc < 0) return rc;
  }
  return 0;
}

static int walk(struct expand *e, const char *text) {
  e->skip = 0;
  e->cur_drive[0] = 0;
  return walk_range(e, text, text + strlen(text), 1);
}

int render_template_expand(const struct render_runs *rs, const char *template_name, const char *text,
                           const char *chart_dir, const char *chart_rel, double dpi, char **md_out,
                           struct ssdrev_err *err) {
  return render_template_expand_opts(rs, template_name, text, chart_dir, chart_rel, dpi, NULL, md_out, err);
}

int render_template_expand_opts(const struct render_runs *rs, const char *template_name, const char *text,
                                const char *chart_dir, const char *chart_rel, double dpi,
                                const struct render_expand_opts *x, char **md_out, struct ssdrev_err *err) {
  return render_expand(rs, template_name, text, chart_dir, chart_rel, dpi, x, NULL, md_out, err);
}

int render_expand(const struct render_runs *rs, const char *template_name, const char *text, const char *chart_dir,
              const char *chart_rel, double dpi, const struct render_expand_opts *x, const struct render_chart_sink *keep,
              char **md_out, struct ssdrev_err *err) {
  *md_out = NULL;
  struct render_buf out = {0};
  struct expand e = {.rs = rs, .tname = template_name ? template_name : "(template)", .chart_dir = chart_dir,
                     .chart_rel = chart_rel, .dpi = dpi, .out = &out, .err = err, .x = x, .keep = keep,
                     .lang = render_template_lang(template_name, text)};
  /* the template's own images are checked with the directives, before
   * anything is written */
  struct render_images chart_links;
  int rc = render_template_images(e.tname, text, chart_rel ? chart_rel : "charts", &e.imgs, &chart_links, err);
  if (rc < 0) return rc;
  rc = walk(&e, text);
  if (rc == 0) rc = report_errors(&e);
  else if (e.nerrs > 1) report_errors(&e); /* stopped at the limit: list what was found */
  for (size_t i = 0; rc == 0 && i < chart_links.n; i++)
    if (!render_images_has(&e.imgs, chart_links.url[i]))
      rc = ssdrev_fail(err, -EINVAL, "%s:%d: image '%s' is not a chart this template draws (a {{chart}} directive)",
                       e.tname, chart_links.line[i], chart_links.url[i]);
  render_images_free(&chart_links);
  if (rc == 0 && x && x->out_dir) rc = ssdrev_mkdirs(x->out_dir, err);
  if (rc == 0 && chart_dir) rc = ssdrev_mkdirs(chart_dir, err);
  if (rc < 0) {
    render_images_free(&e.imgs);
    json_decref(e.used);
    json_decref(e.has_cache);
    render_buf_free(&out);
    return rc;
  }
  e.writing = 1;
  if (e.used) json_object_clear(e.used); /* the writing pass names the charts again, the same way */
  rc = walk(&e, text);
  json_decref(e.used);
  json_decref(e.has_cache);
  if (rc == 0 && !out.oom) rc = render_check_doc_images(e.tname, out.s ? out.s : "", &e.imgs, err);
  render_images_free(&e.imgs);
  if (rc < 0 || out.oom) {
    render_buf_free(&out);
    return rc < 0 ? rc : ssdrev_fail(err, -ENOMEM, "out of memory expanding %s", e.tname);
  }
  if (!out.s) render_buf_puts(&out, "");
  *md_out = out.s;
  return 0;
}

int render_template_specialize(const struct render_runs *rs, const char *template_name, const char *text, char **out,
                               struct ssdrev_err *err) {
  *out = NULL;
  struct render_buf b = {0};
  struct expand e = {.rs = rs, .tname = template_name ? template_name : "(template)", .out = &b, .err = err,
                     .spec = 1, .lang = render_template_lang(template_name, text)};
  int rc = walk(&e, text);
  if (rc == 0) rc = report_errors(&e);
  if (rc == 0) {
    e.writing = 1;
    rc = walk(&e, text);
  }
  json_decref(e.has_cache);
  if (rc == 0 && b.oom) rc = ssdrev_fail(err, -ENOMEM, "out of memory writing a template from %s", e.tname);
  if (rc < 0) {
    render_buf_free(&b);
    return rc;
  }
  if (!b.s) render_buf_puts(&b, "");
  *out = b.s;
  return 0;
}
