/* fuzz_fiojob.c — the fio job-file and shell writers (bench/fio/) on any
 * method file: `method export --fio` (bench_method_export_fio) writes its
 * job files and run.sh into the scratch directory, twice (the defaults, then
 * with --filename and --ioengine taken from the method's name, which the
 * fuzzer controls), and the fio engine's job of each CDM cell
 * (bench_review_fio_job) is written too. Every file is read back with a
 * small model of fio's job-file reader (axboe/fio init.c __parse_jobs_ini:
 * lines, ';'/'#' comments and cuts, "[section]", "include", key=value;
 * options.c ${VAR}/$keyword expansion and get_next_str's filename list) and
 * run.sh with a model of sh's words (single quotes, '\'' escapes). Aborts
 * when the options read back differ from the ones meant (a cut line, a
 * second file, another section, a step's state or name that became a word
 * or a command) or a forbidden option (exec_*, ioscheduler, include) or
 * expansion appears; a refused export must say why and write nothing. */
#include "tests/fuzz/fuzz.h"
#include <ctype.h>
#include "bench/fio/fio_int.h"
#include "bench/method/review_int.h"

#define FJ_MAX_SECT 4096

/* What one job file must hold, and what the model read from it. */
struct fj_want {
  const char *filename;    /* the one file filename= must name (NULL: ${SSDREV_TARGET}) */
  const char *ioengine;    /* NULL: any engine name */
  const char *log_prefix;  /* every write_lat_log= (NULL: any) */
};

static const char *const fj_keys[] = {
    "filename", "ioengine", "direct", "filesize", "refill_buffers", "zero_buffers", "stonewall", "write_lat_log",
    "log_avg_msec", "rw", "bs", "iodepth", "size", "offset", "numjobs", "group_reporting", "rwmixread",
    "time_based", "runtime", "ramp_time", "number_ios", "norandommap", "startdelay", "allow_file_create",
    "offset_increment", "io_size", "hipri", "randseed", "log_offset", "iomem", NULL};

static int fj_is_blank(int c) { return isspace(c) || iscntrl(c); }

/* fio's get_next_str over a filename= value: the number of files and the
 * first one (its "\:" unescaped) into FIRST. */
static int fj_files(const char *v, char *first, size_t len) {
  char *s = strdup(v), *str = s, *start;
  if (!s) abort();
  int n = 0;
  first[0] = 0;
  while (str && *str) {
    start = str;
    char *p;
    for (;;) {
      p = strchr(str, ':');
      if (!p) {
        str = NULL;
        break;
      }
      if (p == start) {
        str = ++start;
        continue;
      }
      if (p[-1] != '\\') {
        *p = 0;
        str = p + 1;
        break;
      }
      memmove(p - 1, p, strlen(p) + 1);
      str = p;
    }
    if (!*start) break;
    if (!n++) snprintf(first, len, "%s", start);
  }
  free(s);
  return n;
}

/* Reads TEXT as fio would; aborts on anything but W's options. Fills the
 * section names (up to FJ_MAX_SECT) into SECT; returns their number. */
static unsigned fj_read(const char *text, const struct fj_want *w, char (*sect)[BENCH_FIO_TOKEN_MAX + 2]) {
  unsigned nsect = 0, nglobal = 0;
  char *copy = strdup(text), *next = copy;
  if (!copy) abort();
  while (next && *next) {
    char *line = next;
    char *nl = strchr(line, '\n');
    if (!nl) abort(); /* every line ends: fio would join it with nothing, but ours always end */
    *nl = 0;
    next = nl + 1;
    if (strlen(line) >= 8191) abort(); /* fgets(OPT_LEN_MAX) would read it as two lines */
    /* is_empty_or_comment: ';' or '#' before anything else */
    const char *q = line;
    while (*q && fj_is_blank((unsigned char)*q)) q++;
    if (!*q || *q == ';' || *q == '#') continue;
    /* what fio keeps of the line must be the whole line as written */
    if (q != line || strchr(line, ';') || strchr(line, '#')) abort();
    size_t n = strlen(line);
    if (fj_is_blank((unsigned char)line[n - 1])) abort();
    if (!strncmp(line, "include", 7)) abort();
    if (line[0] == '[') {
      if (line[n - 1] != ']' || n < 3) abort();
      line[n - 1] = 0;
      const char *name = line + 1;
      if (!strncmp(name, "global", 6)) {
        if (strcmp(name, "global") || nsect) abort(); /* one [global], first */
        nglobal++;
      } else if (!bench_fio_token_ok(name)) {
        abort();
      }
      if (nsect < FJ_MAX_SECT) snprintf(sect[nsect], sizeof sect[0], "%s", name);
      nsect++;
      continue;
    }
    if (!nsect) abort(); /* "option outside of [] job section" */
    char *eq = strchr(line, '=');
    const char *val = eq ? eq + 1 : NULL;
    if (eq) *eq = 0;
    const char *key = line;
    if (!strncmp(key, "exec_", 5) || !strcmp(key, "ioscheduler") || !strcmp(key, "program")) abort();
    int known = 0;
    for (size_t k = 0; fj_keys[k] && !known; k++) known = !strcmp(fj_keys[k], key);
    if (!known) abort();
    if (val && strchr(val, '$') && !(!strcmp(key, "filename") && !w->filename && !strcmp(val, "${SSDREV_TARGET}")))
      abort();
    if (val && (val[0] == ' ' || val[0] == '\t' || !val[0])) abort();
    if (!strcmp(key, "filename")) {
      if (!val || nsect != 1) abort();
      if (w->filename) {
        char first[4200];
        if (fj_files(val, first, sizeof first) != 1 || strcmp(first, w->filename)) abort();
      } else if (strcmp(val, "${SSDREV_TARGET}") && strncmp(val, "/proc/", 6)) {
        abort();
      }
    }
    if (!strcmp(key, "ioengine")) {
      if (!val) abort();
      if (w->ioengine && strcmp(val, w->ioengine)) abort();
      if (strspn(val, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(val)) abort();
    }
    if (!strcmp(key, "write_lat_log") && (!val || (w->log_prefix && strcmp(val, w->log_prefix)))) abort();
  }
  free(copy);
  if (nglobal != 1) abort();
  return nsect;
}

/* sh's words of LINE (single quotes, a backslash outside them escapes the
 * next byte); aborts on an unquoted byte that is not a plain word's. */
static unsigned fj_words(const char *line, char (*w)[4200], unsigned max) {
  unsigned n = 0;
  const char *p = line;
  for (;;) {
    while (*p == ' ') p++;
    if (!*p) break;
    if (n >= max) abort();
    size_t k = 0;
    while (*p && *p != ' ') {
      if (*p == '\'') {
        const char *e = strchr(p + 1, '\'');
        if (!e) abort();
        for (p++; p < e; p++)
          if (k + 1 < sizeof w[0]) w[n][k++] = *p;
        p++;
      } else if (*p == '\\') {
        if (!p[1]) abort();
        if (k + 1 < sizeof w[0]) w[n][k++] = p[1];
        p += 2;
      } else if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=%@+,-", *p)) {
        if (k + 1 < sizeof w[0]) w[n][k++] = *p;
        p++;
      } else {
        abort(); /* ; & | $ ` " ( ) < > * ? [ ~ # or a control byte: shell syntax */
      }
    }
    w[n++][k] = 0;
  }
  return n;
}

/* run.sh's own lines: constants of the program, no user data. */
static int fj_sh_constant(const char *line) {
  static const char *const lines[] = {
      "#!/bin/sh", "set -e", "cd \"$(dirname \"$0\")\"", "export SSDREV_TARGET",
      ": \"${SSDREV_TARGET:?set SSDREV_TARGET to the device or file to test}\"",
      "case \"$SSDREV_TARGET\" in",
      "*[:\\;#\\$\\\\]* | *[[:cntrl:]]* | [[:space:]]* | *[[:space:]] | -)", "  exit 2 ;;", "esac", NULL};
  for (size_t i = 0; lines[i]; i++)
    if (!strcmp(line, lines[i])) return 1;
  if (!strcmp(line, bench_review_fio_discard_sh)) return 1;
  static const char echo[] = "  echo \"run.sh: SSDREV_TARGET='$SSDREV_TARGET' has a character";
  return !strncmp(line, echo, sizeof echo - 1);
}

static char *fj_slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) abort();
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  char chunk[4096];
  size_t r;
  while ((r = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, r, m);
  fclose(f);
  fclose(m);
  return buf;
}

static char fj_sect[FJ_MAX_SECT][BENCH_FIO_TOKEN_MAX + 2];
static char fj_w[64][4200];
static char fj_w2[REVIEW_MAX_STEPS + 16][4200];

/* Checks the export in DIR of method P against what was meant. */
static void fj_check_export(const char *dir, const struct review_profile *p, const struct fj_want *w) {
  char path[1200];
  /* the job files, one per step with jobs */
  unsigned nfio = 0;
  char stems[REVIEW_MAX_STEPS][96];
  for (unsigned i = 0; i < p->nsteps; i++) {
    const struct review_step *s = &p->steps[i];
    if (!s->kind->fio) continue;
    snprintf(stems[nfio], sizeof stems[0], "%02u-%s", i + 1, s->id);
    snprintf(path, sizeof path, "%s/%s.fio", dir, stems[nfio]);
    char *text = fj_slurp(path);
    struct fj_want ws = *w;
    ws.log_prefix = s->id;
    unsigned ns = fj_read(text, &ws, fj_sect);
    free(text);
    /* every CDM cell's job, under its token, for every op and pass */
    if (s->kind == &bench_review_kind_cdm) {
      unsigned passes = p->set.passes, want = 2; /* [global], [prepare] */
      static const struct { unsigned mask; const char *op; } ops[] = {
          {REVIEW_OP_READ, "read"}, {REVIEW_OP_WRITE, "write"}, {REVIEW_OP_MIX, "mix"}};
      for (size_t k = 0; k < 3; k++) {
        if (!(s->ops & ops[k].mask)) continue;
        for (unsigned c = 0; c < s->ncells; c++)
          for (unsigned pass = 1; pass <= passes; pass++) {
            char name[96], tok[BENCH_FIO_TOKEN_MAX + 1];
            snprintf(name, sizeof name, "%s.%s.p%u", s->cells[c].name, ops[k].op, pass);
            bench_fio_token(name, tok, sizeof tok);
            if (want < ns && want < FJ_MAX_SECT && strcmp(fj_sect[want], tok)) abort();
            want++;
          }
      }
      if (want != ns) abort();
    }
    nfio++;
  }
  /* run.sh: its constant lines, one fio command per job file, the printed
   * import command giving back every step's state as one word */
  snprintf(path, sizeof path, "%s/run.sh", dir);
  char *sh = fj_slurp(path);
  unsigned nrun = 0, nprint = 0;
  for (char *line = sh, *nl; *line; line = nl + 1) {
    nl = strchr(line, '\n');
    if (!nl) abort();
    *nl = 0;
    if (line[0] == '#' && line[1] != '!') continue; /* a comment: one line, whatever it says */
    if (fj_sh_constant(line)) continue;
    unsigned n = fj_words(line, fj_w, 64);
    if (n == 4 && !strcmp(fj_w[0], "fio")) {
      char out[120], job[120];
      if (nrun >= nfio) abort();
      snprintf(out, sizeof out, "--output=%s.json", stems[nrun]);
      snprintf(job, sizeof job, "%s.fio", stems[nrun]);
      if (strcmp(fj_w[1], "--output-format=json+") || strcmp(fj_w[2], out) || strcmp(fj_w[3], job)) abort();
      nrun++;
    } else if (n == 3 && !strcmp(fj_w[0], "printf") && !strcmp(fj_w[1], "%s\\n")) {
      if (nprint++ == 0) {
        if (strcmp(fj_w[2], "done; import with:")) abort();
        continue;
      }
      if (strncmp(fj_w[2], "  ", 2)) abort();
      unsigned m = fj_words(fj_w[2] + 2, fj_w2, REVIEW_MAX_STEPS + 16);
      if (m != 3 + nfio + 4 || strcmp(fj_w2[0], "ssdrev") || strcmp(fj_w2[1], "import") || strcmp(fj_w2[2], "fio"))
        abort();
      unsigned k = 0;
      for (unsigned i = 0; i < p->nsteps; i++) {
        const struct review_step *s = &p->steps[i];
        if (!s->kind->fio) continue;
        char want[300];
        snprintf(want, sizeof want, "%s.json%s%s", stems[k], s->state[0] ? ":" : "", s->state);
        if (strcmp(fj_w2[3 + k], want)) abort();
        k++;
      }
      if (strcmp(fj_w2[3 + k], "--out") || strcmp(fj_w2[4 + k], "RUN") || strcmp(fj_w2[5 + k], "--label") ||
          strcmp(fj_w2[6 + k], "MY SSD"))
        abort();
    } else {
      abort(); /* a line that is none of run.sh's: a name became a command */
    }
  }
  if (nrun != nfio || nprint != 2) abort();
  free(sh);
}

static void fj_export(const char *method, const struct review_profile *p, const char *filename, const char *ioengine) {
  fuzz_rm("out");
  char dir[700]; /* fuzz_path's buffers rotate: keep a copy */
  snprintf(dir, sizeof dir, "%s", fuzz_path("out"));
  struct bench_fio_export_opts x = {.profile_path = method, .dir = dir, .filename = filename,
                                    .ioengine = ioengine, .size_bytes = 64u << 20};
  char notes[4096], summary[2048];
  x.notes = notes;
  x.notes_len = sizeof notes;
  struct ssdrev_err err = {{0}};
  int rc = bench_method_export_fio(&x, summary, sizeof summary, &err);
  fuzz_check_err(&err);
  struct stat st;
  if (rc) {
    if (!err.msg[0] || stat(x.dir, &st) == 0) abort(); /* refused: said why, wrote nothing */
    /* only a value fio or sh cannot take is refused: the method loaded */
    if (!strstr(err.msg, "cannot hold") && !strstr(err.msg, "not a fio engine name") &&
        !strstr(err.msg, "holds a control character") && !strstr(err.msg, "is stdin or stdout"))
      abort();
    return;
  }
  struct fj_want w = {.filename = filename, .ioengine = ioengine ? ioengine : "libaio"};
  fj_check_export(x.dir, p, &w);
}

/* The fio engine's job of every CDM cell, as fio_engine.c writes it. */
static void fj_engine_jobs(const struct review_profile *p) {
  for (unsigned i = 0; i < p->nsteps; i++) {
    const struct review_step *s = &p->steps[i];
    for (unsigned c = 0; s->kind == &bench_review_kind_cdm && c < s->ncells; c++) {
      char name[192], stem[BENCH_FIO_TOKEN_MAX + 1];
      snprintf(name, sizeof name, "%s.%s.read.p1", s->id, s->cells[c].name);
      bench_fio_token(name, stem, sizeof stem);
      struct bench_job job = {.pattern = s->cells[c].pattern, .read_pct = 100, .block_bytes = s->cells[c].block_bytes,
                              .qd = s->cells[c].qd, .threads = s->cells[c].threads, .span_bytes = 1u << 30,
                              .measure_ns = 1000000000, .seed = 1};
      struct bench_fio_text j;
      struct ssdrev_err err = {{0}};
      if (bench_fio_text_open(&j, "a fio job file", &err)) abort();
      bench_fio_job_comment(&j, "test %s of step %s (method '%s')", name, s->id, p->name);
      bench_fio_job_global(&j);
      bench_fio_job_filename(&j, "/proc/1/fd/3", "target");
      bench_review_fio_job(&j, stem, &job, 1ull << 30, stem);
      char *text;
      size_t len;
      if (bench_fio_text_close(&j, &text, &len)) abort(); /* a token section never fails */
      struct fj_want w = {.filename = "/proc/1/fd/3", .log_prefix = stem};
      if (fj_read(text, &w, fj_sect) != 2 || strcmp(fj_sect[1], stem)) abort();
      free(text);
    }
  }
}

static int fuzz_fiojob_one(const uint8_t *data, size_t size) {
  char method[700]; /* fuzz_path's buffers rotate: keep a copy */
  snprintf(method, sizeof method, "%s", fuzz_write("method.json", data, size));
  static struct review_profile p; /* large: off the stack */
  struct ssdrev_err err = {{0}};
  if (bench_review_profile_load(&p, method, 0, 0, &err)) return 0; /* fuzz_profile's business */
  fj_export(method, &p, NULL, NULL);
  /* --filename and --ioengine from the method's name: refused or exact */
  fj_export(method, &p, p.name, "psync");
  fj_export(method, &p, "/tmp/t.img", p.name);
  fj_engine_jobs(&p);
  bench_review_profile_free(&p);
  return 0;
}

FUZZ_ENTRY(fuzz_fiojob_one)
