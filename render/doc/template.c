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
  json_t *used;            /* set of chart stems already used (keys), to keep names
                              unique: a hash that grows (a fixed table of 64 let the
                              65th chart overwrite an earlier one's file) */
  struct ssdrev_err *err;
  const struct render_expand_opts *x; /* NULL: missing data is an error */
  const struct render_chart_sink *keep; /* where chart PNGs go besides their files (may be NULL) */
  const char *chart_kind;  /* the chart kind being checked (each_drive) */
};

struct directive {
  const char *name;
  int positional;          /* 1 = takes one positional argument (kind / path) */
  const char *keys;        /* allowed keys, space separated */
  int (*run)(struct expand *e, const char *pos, const struct render_args *a);
};

/* ------------------------------------------------------------ messages */

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
static int not_measured(struct expand *e, int rc, int inline_value) {
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
  if (inline_value) {
    render_buf_puts(e->out, "n/a");
    return 0;
  }
  render_buf_puts(e->out, "*Not measured: ");
  for (const char *c = why; *c; c++) {
    if (strchr("\\`*_[]<>#|", *c)) render_buf_putn(e->out, "\\", 1); /* the reason is text, not Markdown */
    render_buf_putn(e->out, c, 1);
  }
  render_buf_puts(e->out, ".*");
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
      rc = not_measured(e, rc, 0);
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
  json_object_set_new(e->used, stem, json_true());
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
  if (a->height) {
    char *end = NULL;
    o.height_in = strtod(a->height, &end);
    if (end == a->height || *end || !(o.height_in >= 1 && o.height_in <= 9))
      return fail_at(e, -EINVAL, "height=%s: give inches between 1 and 9", a->height);
  }
  if (!e->writing) {
    int rc = render_chart_check(e->rs, kind, &o, e->err);
    if (rc < 0) return not_measured(e, rc, 0);
    e->chart_kind = kind;
    return each_drive(e, drive, check_chart_drive, &o);
  }
  if (e->x && e->x->lenient) {
    int rc = render_chart_check(e->rs, kind, &o, e->err);
    if (rc < 0) return not_measured(e, rc, 0);
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
      if (rc < 0) return wrap_err(e, rc);
    }
  }
  const char *cap = a->caption;
  char capbuf[300];
  if (!cap) {
    const struct render_run *r = drive ? render_runs_find(e->rs, drive) : NULL;
    snprintf(capbuf, sizeof capbuf, "%s%s%s%s%s", kind, r ? " — " : "", r ? r->label : "", a->state ? " — " : "",
             a->state ? a->state : "");
    cap = capbuf;
  }
  render_buf_puts(e->out, "![");
  for (const char *c = cap; *c; c++) {
    if (*c == '[' || *c == ']') render_buf_putn(e->out, "\\", 1); /* keep the link text intact */
    render_buf_putn(e->out, c, 1);
  }
  render_buf_printf(e->out, "](%s/%s.png)", e->chart_rel ? e->chart_rel : "charts", stem);
  return 0;
}

static int d_chart(struct expand *e, const char *kind, const struct render_args *a) {
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
  if (!render_table_exists(kind)) {
    char msg[400];
    snprintf(msg, sizeof msg, "unknown table kind '%s' (known: %s)", kind, render_table_kind_list());
    return ssdrev_fail(e->err, -EINVAL, "%s:%u: %s", e->tname, e->line, msg);
  }
  if (a->drive && strcmp(a->drive, "all") && !render_runs_find(e->rs, a->drive))
    return fail_at(e, -ENOENT, "drive=%s: no run with that label or number", a->drive);
  struct render_buf tmp = {0};
  int rc = render_table(e->rs, kind, a, e->writing ? &tmp : NULL, e->err);
  if (rc < 0) {
    render_buf_free(&tmp);
    return not_measured(e, rc, 0);
  }
  struct table_check tc = {.kind = kind, .a = a};
  if ((rc = each_drive(e, a->drive, check_table_drive, &tc)) < 0) {
    render_buf_free(&tmp);
    return rc;
  }
  /* a table ends in a blank line; the template's own newline follows */
  if (tmp.len >= 1 && tmp.s[tmp.len - 1] == '\n') tmp.s[--tmp.len] = 0;
  if (tmp.s) render_buf_puts(e->out, tmp.s);
  render_buf_free(&tmp);
  return 0;
}

static int d_dut(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  return d_table(e, "dut", a);
}

static int d_flags(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  return d_table(e, "flags", a);
}

/* fmt= must be one floating conversion (%[flags][width][.prec]f|e|g) with
 * optional literal text around it: never a caller-chosen format string. */
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
    while (*c && strchr("-+ 0#", *c)) c++;
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
  json_t *v = render_data_path(r->analysis, path);
  if (!v || json_is_object(v) || json_is_array(v) || json_is_null(v)) {
    char msg[700];
    snprintf(msg, sizeof msg, "value '%s' is %s in the analysis of run '%s'", path,
             !v || json_is_null(v) ? "missing" : "not a single value", r->label);
    if (v && !json_is_null(v)) return ssdrev_fail(e->err, -EINVAL, "%s:%u: %s", e->tname, e->line, msg);
    ssdrev_fail(e->err, -ENOENT, "%s", msg);
    return not_measured(e, -ENOENT, 1);
  }
  if (!e->writing) return 0;
  if (json_is_string(v)) render_buf_puts(e->out, json_string_value(v));
  else if (json_is_boolean(v)) render_buf_puts(e->out, json_is_true(v) ? "yes" : "no");
  else {
    char buf[128];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    /* fmt_ok() allowed exactly one double conversion */
    snprintf(buf, sizeof buf, a->fmt ? a->fmt : "%g", json_number_value(v));
#pragma GCC diagnostic pop
    render_buf_puts(e->out, buf);
  }
  return 0;
}

static int d_label(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  const struct render_run *r = render_runs_find(e->rs, a->drive ? a->drive : "1");
  if (!r) return fail_at(e, -ENOENT, "drive=%s: no run with that label or number", a->drive ? a->drive : "1");
  if (e->writing) render_buf_puts(e->out, r->label);
  return 0;
}

static int d_drives(struct expand *e, const char *pos, const struct render_args *a) {
  (void)pos;
  (void)a;
  if (!e->writing) return 0;
  for (size_t i = 0; i < e->rs->n; i++) {
    if (i) render_buf_puts(e->out, i + 1 == e->rs->n ? (e->rs->n > 2 ? ", and " : " and ") : ", ");
    render_buf_puts(e->out, e->rs->v[i].label);
  }
  return 0;
}

static int lang_ok(struct expand *e, const struct render_args *a) {
  if (a->lang && strcmp(a->lang, "en") && strcmp(a->lang, "ko"))
    return fail_at(e, -EINVAL, "lang=%s: give en or ko", a->lang);
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
  struct render_buf names = {0};
  for (size_t i = 0; i < e->rs->n; i++)
    if (e->rs->v[i].simulated) {
      if (names.len) render_buf_puts(&names, ", ");
      render_buf_puts(&names, e->rs->v[i].label);
    }
  if (names.len) {
    if (a->lang && !strcmp(a->lang, "ko"))
      render_buf_printf(e->out, "> **시뮬레이션 결과:** %s의 측정값은 실제 드라이브가 아니라 ssdrev의 모의 드라이브에서 얻은 것입니다.",
                  names.s);
    else
      render_buf_printf(e->out, "> **Simulated results:** the measurements of %s come from ssdrev's simulated drive, "
                          "not from real hardware.",
                  names.s);
  }
  render_buf_free(&names);
  /* a short review is a trial: its fills and tails are small */
  struct render_buf sn = {0};
  for (size_t i = 0; i < e->rs->n; i++)
    if (e->rs->v[i].short_review) {
      if (sn.len) render_buf_puts(&sn, ", ");
      render_buf_puts(&sn, e->rs->v[i].label);
    }
  if (sn.len) {
    if (e->out->len && e->out->s[e->out->len - 1] != '\n') render_buf_puts(e->out, "\n>\n");
    if (a->lang && !strcmp(a->lang, "ko"))
      render_buf_printf(e->out, "> **짧은 리뷰:** %s은(는) `--short`로 측정한 시험 실행입니다. 채움 상태는 작은 영역의 비율이고, "
                                "꼬리 지연의 높은 백분위수는 표본이 부족합니다.", sn.s);
    else
      render_buf_printf(e->out, "> **Short review:** %s %s a `--short` trial run: fill states are shares of a small region "
                                "and the highest tail percentiles rest on too few I/Os.", sn.s, strchr(sn.s, ',') ? "are" : "is");
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

static int d_chart_entry(struct expand *e, const char *pos, const struct render_args *a) { return d_chart(e, pos, a); }
static int d_table_entry(struct expand *e, const char *pos, const struct render_args *a) { return d_table(e, pos, a); }

static const struct directive directives[] = {
    {"chart", 1, "drive state op workload test caption name height", d_chart_entry},
    {"table", 1, "drive state op lang", d_table_entry},
    {"value", 1, "drive fmt", d_value},
    {"dut", 0, "drive", d_dut},
    {"flags", 0, "drive lang", d_flags_checked},
    {"label", 0, "drive", d_label},
    {"drives", 0, "", d_drives},
    {"simulated_notice", 0, "lang", d_notice},
    {"version", 0, "", d_version},
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
             {"name", offsetof(struct render_args, name)},   {"height", offsetof(struct render_args, height)}};
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
  const struct directive *d = NULL;
  for (size_t i = 0; i < NDIRECTIVES; i++)
    if (!strcmp(directives[i].name, tok[0])) d = &directives[i];
  if (!d) {
    return fail_at(e, -EINVAL,
                   "unknown directive '%s' (known: chart, table, value, dut, flags, label, drives, "
                   "simulated_notice, version)",
                   tok[0]);
  }
  struct render_args a = {0};
  const char *pos = NULL;
  for (int i = 1; i < n; i++) {
    char *eq = strchr(tok[i], '=');
    if (!eq) {
      if (!d->positional || pos) return fail_at(e, -EINVAL, "unexpected argument '%s'", tok[i]);
      pos = tok[i];
      continue;
    }
    *eq = 0;
    if (!key_allowed(d->keys, tok[i]) || set_arg(&a, tok[i], eq + 1) < 0) {
      char msg[300];
      snprintf(msg, sizeof msg, "%s does not take %s= (it takes: %s)", d->name, tok[i], *d->keys ? d->keys : "nothing");
      return ssdrev_fail(e->err, -EINVAL, "%s:%u: %s", e->tname, e->line, msg);
    }
    if (!eq[1]) return fail_at(e, -EINVAL, "empty value for %s=", tok[i]);
  }
  if (d->positional && !pos) return fail_at(e, -EINVAL, "%s needs an argument (a kind or a path)", d->name);
  return d->run(e, pos, &a);
}

static int walk(struct expand *e, const char *text) {
  const char *p = text;
  e->line = 1;
  int fence = 0;
  while (*p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) + 1 : strlen(p);
    const char *q = p;
    while (q < p + len && *q == ' ') q++;
    if (!strncmp(q, "```", 3) || !strncmp(q, "~~~", 3)) fence = !fence;
    if (fence || !memchr(p, '{', len)) {
      if (e->writing) render_buf_putn(e->out, p, len);
    } else {
      const char *end = p + len;
      for (const char *c = p; c < end;) {
        if (c[0] == '\\' && c + 2 < end && c[1] == '{' && c[2] == '{') {
          if (e->writing) render_buf_puts(e->out, "{{");
          c += 3;
        } else if (c[0] == '{' && c + 1 < end && c[1] == '{') {
          const char *close = NULL;
          for (const char *k = c + 2; k + 1 < end; k++)
            if (k[0] == '}' && k[1] == '}') {
              close = k;
              break;
            }
          if (!close) return fail_at(e, -EINVAL, "'{{' without '}}' on the same line%s", "");
          int rc = run_directive(e, c + 2, (size_t)(close - c - 2));
          if (rc < 0) return rc;
          c = close + 2;
        } else {
          if (e->writing) render_buf_putn(e->out, c, 1);
          c++;
        }
      }
    }
    p += len;
    if (eol) e->line++;
  }
  return 0;
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
                     .chart_rel = chart_rel, .dpi = dpi, .out = &out, .err = err, .x = x, .keep = keep};
  int rc = walk(&e, text);
  if (rc < 0) return rc;
  if (chart_dir) {
    rc = ssdrev_mkdirs(chart_dir, err);
    if (rc < 0) return rc;
  }
  e.writing = 1;
  rc = walk(&e, text);
  json_decref(e.used);
  if (rc < 0 || out.oom) {
    render_buf_free(&out);
    return rc < 0 ? rc : ssdrev_fail(err, -ENOMEM, "out of memory expanding %s", e.tname);
  }
  if (!out.s) render_buf_puts(&out, "");
  *md_out = out.s;
  return 0;
}
