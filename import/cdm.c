/* cdm.c — CrystalDiskMark "Save text" results (CDM 3 to 9) and KDiskMark
 * text reports (1.4 on, the same layout) parsed into a JSON summary: header
 * keys and one entry per result cell. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "import/import_int.h"
#include "archive/archive.h"

enum cdm_section { CDM_NONE, CDM_READ, CDM_WRITE, CDM_MIX };
static const char *const cdm_op_names[] = {NULL, "read", "write", "mix"};

/* Footer keys, as CDM writes them (right-aligned before the colon). */
static const struct {
  const char *key;  /* text before ':' */
  const char *json; /* key in the summary */
} cdm_keys[] = {
    {"Profile", "profile"}, {"Test", "test"}, {"Mode", "mode"},       {"Time", "time"},
    {"Date", "date"},       {"OS", "os"},     {"Comment", "comment"},
    {"Target", "target"}, /* KDiskMark 3.2 on */
};

static const char *skip_ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  return p;
}

static json_t *trimmed_string(const char *p, const char *end) {
  p = skip_ws(p, end);
  while (end > p && (end[-1] == ' ' || end[-1] == '\t')) end--;
  return json_stringn(p, (size_t)(end - p));
}

/* "Key: value" footer lines; 1 when the line was one. */
static int parse_key_line(json_t *out, const char *p, const char *end) {
  p = skip_ws(p, end);
  for (size_t i = 0; i < sizeof cdm_keys / sizeof cdm_keys[0]; i++) {
    size_t kl = strlen(cdm_keys[i].key);
    if ((size_t)(end - p) <= kl || strncmp(p, cdm_keys[i].key, kl)) continue;
    const char *q = skip_ws(p + kl, end);
    if (q >= end || *q != ':') continue;
    json_t *v = trimmed_string(q + 1, end);
    if (v) json_object_set_new(out, cdm_keys[i].json, v);
    return 1;
  }
  return 0;
}

/* Finds character c in [p, end); NULL if absent. */
static const char *find_char(const char *p, const char *end, char c) {
  const void *q = memchr(p, c, (size_t)(end - p));
  return q;
}

/* Parses a number at p (bounded by end); the line is copied to a small buffer
 * so strtod cannot read past the line. */
static int parse_num(const char *p, const char *end, double *v, const char **next) {
  char buf[48];
  p = skip_ws(p, end);
  size_t n = 0;
  while (p + n < end && n < sizeof buf - 1 && (isdigit((unsigned char)p[n]) || p[n] == '.' || p[n] == ','))
    n++;
  if (!n) return -1;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (p[i] != ',') buf[k++] = p[i]; /* some locales group thousands */
  buf[k] = 0;
  char *e;
  errno = 0;
  *v = strtod(buf, &e);
  if (errno || *e || e == buf) return -1;
  *next = p + n;
  return 0;
}

/* Limits of an accepted cell: the same ranges bench_job_from_json accepts for
 * block_bytes, qd and threads, so an imported cell is a job ssdrev could run.
 * Checked on the double, before any conversion: casting a double outside the
 * range of json_int_t is undefined behaviour (T= 1e26 gave INT64_MIN). */
#define CDM_MAX_BLOCK_BYTES 4294967295.0
#define CDM_MAX_QD 65536.0
#define CDM_MAX_THREADS 4096.0

/* NULL when v is a whole number in [1, max]; else why it is not. */
static const char *count_problem(double v, double max) {
  if (!(v >= 1.0)) return "must be at least 1";
  if (v > max) return "is beyond the supported range";
  if (v != (double)(uint64_t)v) return "must be a whole number";
  return NULL;
}

/* Largest measured values accepted: far above any drive (a PCIe 6 x16 link
 * moves ~121,000 MB/s), so only a damaged or forged file exceeds them. */
#define CDM_MAX_MB_S 1e7
#define CDM_MAX_IOPS 1e9
#define CDM_MAX_LAT_US 1e9 /* 1000 s */

/* A measured value at p: a plain non-negative decimal number (CDM writes
 * nothing else) at most max. parse_num stops at the first character that is
 * not a digit, so "1e308" read as 1: the character after the number must end
 * it. Returns NULL, or why not (with the token quoted into why). */
static const char *measured_value(const char *p, const char *end, double max, const char *what, double *v,
                                  const char **next, char *why, size_t why_len) {
  p = skip_ws(p, end);
  const char *tok_end = p;
  while (tok_end < end && *tok_end != ' ' && *tok_end != '\t' && *tok_end != ']' && *tok_end != '>') tok_end++;
  int tl = (int)(tok_end - p > 24 ? 24 : tok_end - p);
  if (p < end && *p == '-') snprintf(why, why_len, "%s '%.*s' is negative", what, tl, p);
  else if (parse_num(p, end, v, next)) snprintf(why, why_len, "%s '%.*s' is not a number", what, tl, p);
  else if (*next < end && (isalnum((unsigned char)**next) || **next == '+' || **next == '-' || **next == '.'))
    snprintf(why, why_len, "%s '%.*s' is not a plain decimal number (no exponents, inf or nan)", what, tl, p);
  else if (!isfinite(*v) || *v > max) snprintf(why, why_len, "%s '%.*s' is beyond any drive (max %g)", what, tl, p, max);
  else return NULL;
  return why;
}

/* 1 when the text at p (after blanks) starts with word, and then *next is
 * just after it (and the blanks after it). */
static int unit_follows(const char *p, const char *end, const char *word, const char **next) {
  p = skip_ws(p, end);
  size_t n = strlen(word);
  if ((size_t)(end - p) < n || strncmp(p, word, n)) return 0;
  *next = skip_ws(p + n, end);
  return 1;
}

/* One result line, e.g.
 *   "  SEQ    1MiB (Q=  8, T= 1):  3531.284 MB/s [   3367.7 IOPS] <  2373.63 us>"
 *   "Sequential 1MiB (Q=  8, T= 1):  ..."   (CDM 7 spelling)
 * full: the row is of the section layout (CrystalDiskMark 7 to 9, and
 * KDiskMark), which writes MB/s, IOPS and latency on every row: a row
 * without all three (a cut row, "SEQ 1MiB (Q= 8, T= 1):  3371.6") is
 * refused, not imported as a result. CDM 6 rows (parse_legacy_line) have
 * IOPS on random rows only and no latency.
 * Returns 1 and appends a cell, 0 when the line is not a result line, or -1
 * when it looks like one but is malformed; then *why says what is wrong. */
static int parse_result_line(json_t *cells, enum cdm_section sec, int full, const char *p, const char *end,
                             char *why, size_t why_len) {
  static const struct { const char *word, *prefix, *pattern; } kinds[] = {
      {"SEQ", "SEQ", "seq"}, {"Sequential", "SEQ", "seq"},
      {"RND", "RND", "rand"}, {"Random", "RND", "rand"},
  };
  p = skip_ws(p, end);
  const char *w = p;
  while (p < end && isalpha((unsigned char)*p)) p++;
  size_t wl = (size_t)(p - w);
  int kind = -1;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (wl == strlen(kinds[i].word) && !strncmp(w, kinds[i].word, wl)) kind = (int)i;
  if (kind < 0) return 0;
  double size;
  if (parse_num(p, end, &size, &p)) return -1;
  p = skip_ws(p, end); /* KDiskMark: "Sequential   1 MiB" */
  const char *u = p;
  while (p < end && isalpha((unsigned char)*p)) p++;
  size_t ul = (size_t)(p - u);
  char unit = 0;
  double mult = 0;
  if (ul == 3 && !strncmp(u, "KiB", 3)) unit = 'K', mult = 1024.0;
  else if (ul == 3 && !strncmp(u, "MiB", 3)) unit = 'M', mult = 1048576.0;
  else if (ul == 3 && !strncmp(u, "GiB", 3)) unit = 'G', mult = 1073741824.0;
  if (!unit) return -1;
  const char *q = find_char(p, end, 'Q');
  const char *t = q ? find_char(q, end, 'T') : NULL;
  double qd, th, mb_s;
  if (!q || !t || q + 1 >= end || q[1] != '=' || t + 1 >= end || t[1] != '=') return -1;
  if (parse_num(q + 2, end, &qd, &p) || parse_num(t + 2, end, &th, &p)) return -1;
  const char *colon = find_char(p, end, ':');
  if (!colon) return -1;
  const char *mb_text = skip_ws(colon + 1, end);
  if (measured_value(colon + 1, end, CDM_MAX_MB_S, "MB/s value", &mb_s, &p, why, why_len)) return -1;
  const char *after_unit;
  if (!unit_follows(p, end, "MB/s", &after_unit)) {
    snprintf(why, why_len, "no 'MB/s' after the value (a cut row?)");
    return -1;
  }
  /* the values as the file wrote them: a report shows these digits, never
   * a recomputed or re-rounded number */
  json_t *text = json_object();
  json_object_set_new(text, "mb_s", json_stringn(mb_text, (size_t)(p - mb_text)));
  p = after_unit;
  double block = size * mult + 0.5;
  const char *bad = count_problem(floor(block), CDM_MAX_BLOCK_BYTES);
  if (bad) {
    snprintf(why, why_len, "block size %g%ciB %s (1 B to 4 GiB - 1)", size, unit, bad);
    json_decref(text);
    return -1;
  }
  bad = count_problem(qd, CDM_MAX_QD);
  if (bad) {
    snprintf(why, why_len, "queue depth Q=%g %s (1..%g)", qd, bad, CDM_MAX_QD);
    json_decref(text);
    return -1;
  }
  bad = count_problem(th, CDM_MAX_THREADS);
  if (bad) {
    snprintf(why, why_len, "thread count T=%g %s (1..%g)", th, bad, CDM_MAX_THREADS);
    json_decref(text);
    return -1;
  }
  json_t *c = json_object();
  char cell[64];
  snprintf(cell, sizeof cell, "%s%g%c Q%gT%g", kinds[kind].prefix, size, unit, qd, th);
  json_object_set_new(c, "op", json_string(cdm_op_names[sec]));
  json_object_set_new(c, "cell", json_string(cell));
  json_object_set_new(c, "pattern", json_string(kinds[kind].pattern));
  json_object_set_new(c, "block_bytes", json_integer((json_int_t)floor(block)));
  json_object_set_new(c, "qd", json_integer((json_int_t)qd));
  json_object_set_new(c, "threads", json_integer((json_int_t)th));
  json_object_set_new(c, "mb_s", json_real(mb_s));
  json_object_set_new(c, "text", text);
  /* IOPS in [... IOPS] and mean latency in <... us>: on every row from
   * CDM 7 on (full), on CDM 6's random rows only (IOPS) */
  const char *b = find_char(p, end, '[');
  double v;
  const char *after, *close;
  if (full && !b) {
    snprintf(why, why_len, "no '[ N IOPS]' after MB/s, which CrystalDiskMark 7 to 9 write on every row (a cut row?)");
    json_decref(c);
    return -1;
  }
  if (b) {
    if (measured_value(b + 1, end, CDM_MAX_IOPS, "IOPS value", &v, &after, why, why_len)) {
      json_decref(c);
      return -1;
    }
    if (!unit_follows(after, end, "IOPS", &close) || close >= end || *close != ']') {
      snprintf(why, why_len, "the IOPS value is not closed by 'IOPS]' (a cut row?)");
      json_decref(c);
      return -1;
    }
    json_object_set_new(c, "iops", json_real(v));
    const char *it = skip_ws(b + 1, end);
    json_object_set_new(text, "iops", json_stringn(it, (size_t)(after - it)));
    p = close + 1;
  }
  const char *l = find_char(p, end, '<');
  if (full && !l) {
    snprintf(why, why_len, "no '< N us>' latency after IOPS, which CrystalDiskMark 7 to 9 write on every row (a cut row?)");
    json_decref(c);
    return -1;
  }
  if (l) {
    if (measured_value(l + 1, end, CDM_MAX_LAT_US, "latency (us)", &v, &after, why, why_len)) {
      json_decref(c);
      return -1;
    }
    if (!unit_follows(after, end, "us", &close) || close >= end || *close != '>') {
      snprintf(why, why_len, "the latency is not closed by 'us>' (a cut row?)");
      json_decref(c);
      return -1;
    }
    json_object_set_new(c, "lat_us", json_real(v));
    const char *lt = skip_ws(l + 1, end);
    json_object_set_new(text, "lat_us", json_stringn(lt, (size_t)(after - lt)));
  }
  json_array_append_new(cells, c);
  return 1;
}

/* A row of CrystalDiskMark 3 to 6, which names the operation instead of
 * using sections, rewritten in the CDM 7+ shape and parsed by
 * parse_result_line (IOPS on random rows only, no latency). The old tests
 * map to the nearest cells (docs/interop.md):
 *   CDM 3    "          Sequential Read :   512.330 MB/s"          SEQ1M Q1T1
 *            "       Random Read 512KB :   402.517 MB/s"            RND512K Q1T1
 *            "   Random Read 4KB (QD=32) :  300.789 MB/s [ 73434.8 IOPS]"  RND4K Q32T1
 *   CDM 4, 5 "        Sequential Read (T= 1) :   498.338 MB/s"     SEQ1M Q1T1
 *   CDM 4-6  "   Sequential Read (Q= 32,T= 1) :    91.559 MB/s"     SEQ128K Q32T1
 *            " Random Write 4KiB (Q=  8,T= 8) :     3.173 MB/s [    774.7 IOPS]"
 * CDM 3's "Sequential" is 1 MiB blocks at queue depth 1, CDM 4 and 5 kept
 * that test as "(T= 1)"; the Q32 sequential test of CDM 4 to 6 uses 128 KiB
 * blocks (no size is printed). CDM 3 writes "4KB" for 4 KiB.
 * Returns as parse_result_line. */
static int parse_legacy_line(json_t *cells, const char *p, const char *end, char *why, size_t why_len) {
  p = skip_ws(p, end);
  const char *w = p;
  while (p < end && isalpha((unsigned char)*p)) p++;
  int seq = p - w == 10 && !strncmp(w, "Sequential", 10);
  if (!seq && !(p - w == 6 && !strncmp(w, "Random", 6))) return 0;
  p = skip_ws(p, end);
  const char *o = p;
  while (p < end && isalpha((unsigned char)*p)) p++;
  enum cdm_section op = p - o == 4 && !strncmp(o, "Read", 4)    ? CDM_READ
                        : p - o == 5 && !strncmp(o, "Write", 5) ? CDM_WRITE
                                                                : CDM_NONE;
  if (op == CDM_NONE) return 0;
  const char *colon = find_char(p, end, ':');
  if (!colon) {
    snprintf(why, why_len, "no ':' before the value");
    return -1;
  }
  const char *paren = find_char(p, colon, '(');
  const char *close = paren ? find_char(paren, colon, ')') : NULL;
  if (paren && !close) {
    snprintf(why, why_len, "'(' without ')' before the value");
    return -1;
  }
  /* the size between the operation and "(" or ":" */
  const char *sz = skip_ws(p, paren ? paren : colon), *sz_end = paren ? paren : colon;
  while (sz_end > sz && sz_end[-1] == ' ') sz_end--;
  char size[32];
  size_t sl = (size_t)(sz_end - sz);
  if (sl >= 2 && sl < sizeof size && !strncmp(sz_end - 2, "KB", 2)) /* CDM 3: "4KB", "512KB" */
    snprintf(size, sizeof size, "%.*sKiB", (int)(sl - 2), sz);
  else if (sl && sl < sizeof size) snprintf(size, sizeof size, "%.*s", (int)sl, sz);
  else if (!sl && seq) snprintf(size, sizeof size, "%s", "1MiB"); /* replaced below for Q32 */
  else {
    snprintf(why, why_len, "no block size in a random row");
    return -1;
  }
  /* queue depth and threads from "(Q= 32,T= 1)", "(T= 1)", "(QD=32)" or nothing */
  char qt[96];
  if (!paren) snprintf(qt, sizeof qt, "(Q=1, T=1)");
  else {
    const char *in = skip_ws(paren + 1, close);
    if (close - in > 3 && !strncmp(in, "QD=", 3))
      snprintf(qt, sizeof qt, "(Q=%.*s, T=1)", (int)(close - in - 3), in + 3);
    else if (find_char(in, close, 'Q')) {
      snprintf(qt, sizeof qt, "%.*s", (int)(close - paren + 1), paren);
      if (!sl && seq) snprintf(size, sizeof size, "%s", "128KiB");
    } else if (in < close && *in == 'T')
      snprintf(qt, sizeof qt, "(Q=1, %.*s", (int)(close - in + 1), in);
    else {
      snprintf(why, why_len, "unknown test parameters '%.*s'", (int)(close - paren + 1 > 40 ? 40 : close - paren + 1),
               paren);
      return -1;
    }
  }
  char buf[256];
  int n = snprintf(buf, sizeof buf, "%s %s %s%.*s", seq ? "SEQ" : "RND", size, qt, (int)(end - colon), colon);
  if (n < 0 || (size_t)n >= sizeof buf) return -1;
  return parse_result_line(cells, op, 0, buf, buf + n, why, why_len);
}

json_t *import_cdm_parse(const char *text, size_t len, const char *name, struct ssdrev_err *err) {
  const char *p = text, *end = text + len;
  /* UTF-8 BOMs from Notepad (or a UTF-16 file's, converted): a file saved
   * twice over can carry two */
  while (end - p >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3)) p += 3;
  json_t *out = json_object();
  json_t *cells = json_array();
  enum cdm_section sec = CDM_NONE;
  int legacy = 0, legacy_comment = 0; /* CDM 6 layout seen; the next line is its comment */
  unsigned line = 0;
  while (p < end) {
    const char *nl = find_char(p, end, '\n');
    const char *le = nl ? nl : end;
    line++;
    if (le > p && le[-1] == '\r') le--;
    const char *s = skip_ws(p, le);
    static const char cdm_name[] = "CrystalDiskMark ";
    static const char kdm_name[] = "KDiskMark", fio_name[] = "Flexible I/O Tester (";
    if ((size_t)(le - s) > sizeof cdm_name - 1 && !strncmp(s, cdm_name, sizeof cdm_name - 1)) {
      const char *v = s + sizeof cdm_name - 1;
      const char *c = v;
      while (c + 3 < le && strncmp(c, " (C)", 4)) c++;
      json_object_set_new(out, "version", trimmed_string(v, c + 3 < le ? c : le));
      json_object_set_new(out, "tool", json_string("CrystalDiskMark"));
    } else if ((size_t)(le - s) >= sizeof kdm_name - 1 && !strncmp(s, kdm_name, sizeof kdm_name - 1) &&
               !json_object_get(out, "tool")) {
      /* "KDiskMark (3.1.4): https://..." (1.6 on), "KDiskMark: https://..." (1.4, 1.5) */
      json_object_set_new(out, "tool", json_string("KDiskMark"));
      const char *v = skip_ws(s + sizeof kdm_name - 1, le), *c = find_char(v, le, ')');
      if (v < le && *v == '(' && c) json_object_set_new(out, "version", trimmed_string(v + 1, c));
    } else if ((size_t)(le - s) > sizeof fio_name - 1 && !strncmp(s, fio_name, sizeof fio_name - 1)) {
      /* KDiskMark 1.6 on: "Flexible I/O Tester (fio-3.33): https://github.com/axboe/fio" */
      const char *v = s + sizeof fio_name - 1, *c = find_char(v, le, ')');
      if (c) json_object_set_new(out, "fio_version", trimmed_string(v, c));
    } else if (s < le && *s == '[') {
      if (le - s >= 6 && !strncmp(s, "[Read]", 6)) sec = CDM_READ;
      else if (le - s >= 7 && !strncmp(s, "[Write]", 7)) sec = CDM_WRITE;
      else if (le - s >= 5 && !strncmp(s, "[Mix]", 5)) {
        sec = CDM_MIX;
        json_object_set_new(out, "mix", trimmed_string(s + 5, le));
      }
    } else if (parse_key_line(out, s, le)) {
      sec = CDM_NONE;
      /* CDM 6 writes the comment unlabelled on the line after "OS :" */
      legacy_comment = legacy && le - s >= 2 && !strncmp(s, "OS", 2);
    } else if (sec == CDM_NONE && s < le && legacy_comment) {
      json_object_set_new(out, "comment", trimmed_string(s, le));
      legacy_comment = 0;
    } else if (sec == CDM_NONE && s < le) {
      char why[128] = "";
      int rc = parse_legacy_line(cells, s, le, why, sizeof why);
      if (rc < 0) {
        ssdrev_fail(err, -EINVAL, "bad CrystalDiskMark result in '%s' line %u: %s%s'%.*s'", name, line,
                    why, why[0] ? " in " : "", (int)(le - s > 120 ? 120 : le - s), s);
        json_decref(cells);
        json_decref(out);
        return NULL;
      }
      if (rc > 0) legacy = 1;
    } else if (sec != CDM_NONE && s < le) {
      char why[160] = "";
      int rc = parse_result_line(cells, sec, 1, s, le, why, sizeof why);
      if (rc < 0) {
        ssdrev_fail(err, -EINVAL, "bad CrystalDiskMark result in '%s' line %u: %s%s'%.*s'", name, line,
                    why, why[0] ? " in " : "", (int)(le - s > 120 ? 120 : le - s), s);
        json_decref(cells);
        json_decref(out);
        return NULL;
      }
    }
    p = nl ? nl + 1 : end;
  }
  if (!json_array_size(cells)) {
    ssdrev_fail(err, -EINVAL,
                "no CrystalDiskMark results in '%s': expected [Read]/[Write] sections with lines "
                "like 'SEQ    1MiB (Q=  8, T= 1):  3531.284 MB/s'", name);
    json_decref(cells);
    json_decref(out);
    return NULL;
  }
  json_object_set_new(out, "cells", cells);
  return out;
}

/* The number before "%" in s (e.g. "Read 70%/Write 30%" -> 70), or dflt. */
static unsigned first_percent(const char *s, unsigned dflt) {
  const char *pct = s ? strchr(s, '%') : NULL;
  if (!pct) return dflt;
  const char *b = pct;
  while (b > s && isdigit((unsigned char)b[-1])) b--;
  if (b == pct || pct - b > 3) return dflt; /* more digits cannot be a share (and would wrap) */
  unsigned v = 0;
  for (; b < pct; b++) v = v * 10 + (unsigned)(*b - '0');
  return v > 100 ? dflt : v;
}

/* A fill state from the comment when the user gave none: "FOB" or "75%". */
static void guess_state(const char *comment, char *out, size_t len) {
  out[0] = 0;
  if (!comment) return;
  if (strstr(comment, "FOB") || strstr(comment, "fob")) {
    snprintf(out, len, "FOB");
    return;
  }
  unsigned v = first_percent(comment, 1000);
  if (v <= 100) snprintf(out, len, "%u%%", v);
}

/* "default", "peak", "real", "demo" from "Profile: Peak Performance"; the
 * NVMe SSD setting keeps "Default" in the text but changes the cells. */
static void profile_key(const char *profile, const json_t *cells, char *out, size_t len) {
  size_t i = 0;
  for (; profile && isalpha((unsigned char)profile[i]) && i + 1 < len; i++)
    out[i] = (char)tolower((unsigned char)profile[i]);
  out[i] = 0;
  if (!i) snprintf(out, len, "default");
  /* CDM 7's Default set already had RND4K Q32T16; the NVMe SSD set of CDM
   * 8 and 9 is the one with SEQ128K Q32T1 (CDM 6, with no Profile line,
   * has that row in its only set) */
  size_t k;
  json_t *c;
  json_array_foreach(cells, k, c) {
    const char *cell = json_string_value(json_object_get(c, "cell"));
    if (profile && !strcmp(out, "default") && cell && !strcmp(cell, "SEQ128K Q32T1")) snprintf(out, len, "nvme");
  }
}

/* "1 GiB (x5) [C: 45% ...]" -> region bytes and passes. */
static void parse_test_line(const char *test, uint64_t *span_bytes, unsigned *passes) {
  *span_bytes = 0;
  *passes = 0;
  if (!test) return;
  char *end;
  double v = strtod(test, &end);
  if (end != test && v > 0) {
    while (*end == ' ') end++;
    double mult = !strncmp(end, "GiB", 3) ? 1073741824.0 : !strncmp(end, "MiB", 3) ? 1048576.0 : 0;
    if (v * mult < 0x1p62) *span_bytes = (uint64_t)(v * mult + 0.5); /* a hostile size stays 0: unknown */
  }
  const char *x = strstr(test, "(x");
  if (x) {
    unsigned long n = strtoul(x + 2, &end, 10);
    if (end != x + 2 && *end == ')' && n < 1000) *passes = (unsigned)n;
  }
}

/* "[C: 77% (182/237GiB)]" in the Test line -> the drive's capacity (bytes)
 * and how full it was (%); 0 / -1 when absent. */
static void parse_test_capacity(const char *test, double *cap_bytes, double *used_pct) {
  *cap_bytes = 0;
  *used_pct = -1;
  const char *br = test ? strchr(test, '[') : NULL;
  const char *colon = br ? strchr(br, ':') : NULL;
  if (!colon) return;
  char *end;
  double pct = strtod(colon + 1, &end);
  if (end == colon + 1 || *end != '%') return;
  const char *par = strchr(end, '(');
  const char *slash = par ? strchr(par, '/') : NULL;
  if (!slash) return;
  double total = strtod(slash + 1, &end);
  if (end == slash + 1 || !(total > 0 && total < 1e9)) return;
  while (*end == ' ') end++; /* CDM 6: "(88.9/232.8 GiB)" */
  double mult = !strncmp(end, "GiB", 3) ? 1073741824.0 : !strncmp(end, "TiB", 3) ? 1099511627776.0
              : !strncmp(end, "MiB", 3) ? 1048576.0 : 0;
  if (!mult) return;
  *cap_bytes = total * mult;
  if (pct >= 0 && pct <= 100) *used_pct = pct;
}

/* CrystalDiskMark's "Date: 2021/06/05 21:12:44" (every version; "9:05:41"
 * before 7), KDiskMark's "2021/06/05 21:12:44" (before 2.2.1) or
 * "2021-06-05 21:12:44": local time of the tested machine, no zone. Returns
 * ns since the epoch, taking it as UTC (0: no date), and fills iso with it
 * as ISO 8601 local time without an offset ("2021-06-05T21:12:44"): the
 * file names no zone, so none is invented (docs/archive.md, measured_at). */
static uint64_t parse_date_ns(const char *d, char *iso, size_t iso_len) {
  iso[0] = 0;
  if (!d) return 0;
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  int y, mo, da, h, mi, se, n = 0;
  char s1, s2;
  if (sscanf(d, "%4d%c%2d%c%2d %2d:%2d:%2d%n", &y, &s1, &mo, &s2, &da, &h, &mi, &se, &n) != 8) return 0;
  if (s1 != s2 || (s1 != '/' && s1 != '-') || d[n]) return 0;
  if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || da < 1 || da > 31 || h > 23 || mi > 59 || se > 60) return 0;
  tm.tm_year = y - 1900, tm.tm_mon = mo - 1, tm.tm_mday = da, tm.tm_hour = h, tm.tm_min = mi, tm.tm_sec = se;
  time_t t = timegm(&tm);
  if (t <= 0) return 0;
  snprintf(iso, iso_len, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, da, h, mi, se);
  return (uint64_t)t * 1000000000ull;
}

/* KDiskMark's "Test: 1 GiB (x5) [Measure: 5 sec / Interval: 5 sec]" (3.0
 * on) -> the measuring time in seconds, 0 when absent. */
static double kdm_measure_s(const char *test) {
  const char *m = test ? strstr(test, "[Measure: ") : NULL;
  if (!m) return 0;
  char *e;
  double v = strtod(m + 10, &e);
  if (e == m + 10 || !(v > 0 && v < 1e6)) return 0;
  return !strncmp(e, " min", 4) ? v * 60 : !strncmp(e, " sec", 4) ? v : 0;
}

/* KDiskMark's "Target: /home 45% (100.00/465.76 GiB) [Samsung SSD 860]":
 * the model in the last brackets (3.2 on, when the drive is known). */
static json_t *kdm_target_model(const char *target) {
  size_t n = target ? strlen(target) : 0;
  if (n < 3 || target[n - 1] != ']') return NULL;
  const char *b = strrchr(target, '[');
  if (!b || b + 1 >= target + n - 1) return NULL;
  return json_stringn(b + 1, (size_t)(target + n - 1 - (b + 1)));
}

/* Both importers: CrystalDiskMark and KDiskMark write the same report (cells,
 * sections, footer keys), so one parser and one cell model serve both;
 * `kdm` is the importer the user chose, the header says which tool wrote it. */
static int cdm_import(struct archive *run, const struct import_input *in, int multi, const struct import_opts *o,
                      struct import_result *res, int kdm, struct ssdrev_err *err) {
  const char *input = in->path;
  char *text;
  size_t len;
  int rc = ssdrev_read_file(input, &text, &len, 16u << 20, err);
  if (rc) return rc;
  if ((rc = import_text_utf8(&text, &len, input, err))) {
    free(text);
    return rc;
  }
  json_t *sum = import_cdm_parse(text, len, input, err);
  free(text);
  if (!sum) return -EINVAL;
  const char *tool = json_string_value(json_object_get(sum, "tool"));
  int is_kdm = tool && !strcmp(tool, "KDiskMark");
  if (kdm && !is_kdm) {
    json_decref(sum);
    return ssdrev_fail(err, -EINVAL, "'%s' is not a KDiskMark report (no 'KDiskMark' header line)%s", input,
                       tool ? "; it is CrystalDiskMark's: import it with 'ssdrev import cdm'" : "");
  }
  const char *comment = json_string_value(json_object_get(sum, "comment"));
  char state[32], profile[32];
  if (in->state) snprintf(state, sizeof state, "%s", in->state);
  else guess_state(comment, state, sizeof state);
  json_t *cells = json_object_get(sum, "cells");
  profile_key(json_string_value(json_object_get(sum, "profile")), cells, profile, sizeof profile);
  json_t *m = run->manifest;
  if (!o->label && comment && *comment && !json_object_get(m, "label"))
    json_object_set_new(m, "label", json_string(comment));
  /* one input: its state is the run's; several: each test has its own */
  if (!multi && state[0] && !json_object_get(m, "state")) json_object_set_new(m, "state", json_string(state));
  double cap_bytes, used_pct;
  parse_test_capacity(json_string_value(json_object_get(sum, "test")), &cap_bytes, &used_pct);
  if (cap_bytes > 0) {
    json_t *dut = json_object_get(m, "dut");
    if (!json_is_object(dut)) json_object_set_new(m, "dut", dut = json_object());
    if (!json_object_get(dut, "capacity_bytes"))
      json_object_set_new(dut, "capacity_bytes", json_integer((json_int_t)cap_bytes));
  }
  if (is_kdm && !o->model) {
    json_t *model = kdm_target_model(json_string_value(json_object_get(sum, "target")));
    json_t *dut = json_object_get(m, "dut");
    if (model && !json_is_object(dut)) json_object_set_new(m, "dut", dut = json_object());
    if (model && !json_object_get(dut, "model")) json_object_set_new(dut, "model", model);
    else json_decref(model);
  }
  char measured_at[32];
  uint64_t date_ns = parse_date_ns(json_string_value(json_object_get(sum, "date")), measured_at, sizeof measured_at);
  /* several inputs: the run was measured when its first dated file was */
  if (measured_at[0] && !json_object_get(m, "measured_at"))
    json_object_set_new(m, "measured_at", json_string(measured_at));
  char stem[128] = "";
  if (multi) import_input_stem(stem, sizeof stem, input);
  json_t *src = json_object_get(run->manifest, "source");
  const char *k;
  json_t *v;
  json_object_foreach(sum, k, v) {
    if (strcmp(k, "cells")) json_object_set(src, k, v);
  }
  uint64_t span_bytes;
  unsigned passes;
  parse_test_line(json_string_value(json_object_get(sum, "test")), &span_bytes, &passes);
  const char *time_s = json_string_value(json_object_get(sum, "time"));
  double measure_s = 0;
  if (time_s && !strncmp(time_s, "Measure ", 8)) measure_s = strtod(time_s + 8, NULL);
  if (!(measure_s > 0 && measure_s < 1e6)) measure_s = 0; /* as kdm_measure_s: no cast of 1e300 to ns */
  if (is_kdm) measure_s = kdm_measure_s(json_string_value(json_object_get(sum, "test")));
  unsigned mix_read_pct = first_percent(json_string_value(json_object_get(sum, "mix")), 70);
  /* names taken so far (by earlier inputs too), hashed */
  json_t *seen = import_names_taken(run);
  unsigned added = 0;
  size_t i;
  json_t *c;
  json_array_foreach(cells, i, c) {
    const char *cell = json_string_value(json_object_get(c, "cell"));
    const char *op = json_string_value(json_object_get(c, "op"));
    char cname[64], name[320];
    import_safe_name(cname, sizeof cname, cell);
    snprintf(name, sizeof name, "%scdm.%s.%s", stem, cname, op);
    if (json_object_get(seen, name)) {
      import_warn(run, res, "'%s': cell %s %s appears twice; the second is ignored", input, cell, op);
      continue;
    }
    json_object_set_new(seen, name, json_true());
    /* CDM saves a test it did not run (a single test button, an abort) as
     * 0.000 MB/s; a zero is no measurement and must not enter a median */
    if (json_number_value(json_object_get(c, "mb_s")) <= 0 && json_number_value(json_object_get(c, "iops")) <= 0) {
      import_warn(run, res, "'%s': cell %s %s is 0 MB/s (not run); skipped", input, cell, op);
      continue;
    }
    json_t *params = json_object();
    json_object_set(params, "pattern", json_object_get(c, "pattern"));
    json_object_set_new(params, "read_pct",
                        json_integer(!strcmp(op, "read") ? 100 : !strcmp(op, "write") ? 0 : mix_read_pct));
    json_object_set(params, "block_bytes", json_object_get(c, "block_bytes"));
    json_object_set(params, "qd", json_object_get(c, "qd"));
    json_object_set(params, "threads", json_object_get(c, "threads"));
    if (span_bytes) json_object_set_new(params, "span_bytes", json_integer((json_int_t)span_bytes));
    if (measure_s > 0) json_object_set_new(params, "measure_ns", json_integer((json_int_t)(measure_s * 1e9)));
    json_object_set_new(params, "engine", json_string(is_kdm ? "kdiskmark" : "crystaldiskmark"));
    json_t *t = archive_add_test(run, name, params, NULL);
    json_object_set_new(t, "step", json_string("cdm"));
    json_object_set_new(t, "kind", json_string("cdm"));
    if (state[0]) json_object_set_new(t, "state", json_string(state));
    json_object_set_new(t, "profile", json_string(profile));
    json_object_set_new(t, "cell", json_string(cell));
    json_object_set_new(t, "op", json_string(op));
    /* CDM saves only the best of its passes: one summary stands for them all */
    json_object_set_new(t, "pass", json_integer(1));
    if (passes) json_object_set_new(t, "cdm_passes", json_integer(passes));
    json_t *s = json_object();
    json_object_set(s, "mb_s", json_object_get(c, "mb_s"));
    if (json_object_get(c, "iops")) json_object_set(s, "iops", json_object_get(c, "iops"));
    if (json_object_get(c, "lat_us")) json_object_set(s, "lat_us", json_object_get(c, "lat_us"));
    json_object_set(s, "text", json_object_get(c, "text"));
    json_object_set_new(t, "summary", s);
    json_t *r = json_object();
    json_object_set_new(r, "ios", json_integer(0));
    json_object_set_new(r, "bytes", json_integer(0));
    json_object_set_new(r, "errors", json_integer(0));
    json_object_set_new(r, "elapsed_ns", json_integer(0));
    json_object_set(r, "mb_s", json_object_get(c, "mb_s"));
    json_object_set_new(r, "iops", json_real(json_number_value(json_object_get(c, "iops"))));
    json_object_set_new(r, "mean_lat_ns", json_real(json_number_value(json_object_get(c, "lat_us")) * 1e3));
    json_object_set_new(t, "result", r);
    if (used_pct >= 0) json_object_set_new(t, "used_pct", json_real(used_pct));
    json_object_set_new(t, "source_file", json_string(input));
    archive_end_test(t, "complete");
    /* CrystalDiskMark dates its result once, at the end */
    import_test_times(t, date_ns, date_ns);
    res->tests++;
    added++;
  }
  json_decref(seen);
  json_decref(sum);
  if (!added)
    return ssdrev_fail(err, -EINVAL, "no measured %s results in '%s': every cell is 0 MB/s",
                       is_kdm ? "KDiskMark" : "CrystalDiskMark", input);
  json_object_set_new(json_object_get(run->manifest, "steps"), "cdm", json_string("complete"));
  return 0;
}

int import_cdm_add(struct archive *run, const struct import_input *in, int multi, const struct import_opts *o,
                   struct import_result *res, struct ssdrev_err *err) {
  return cdm_import(run, in, multi, o, res, 0, err);
}

int import_kdm_add(struct archive *run, const struct import_input *in, int multi, const struct import_opts *o,
                   struct import_result *res, struct ssdrev_err *err) {
  return cdm_import(run, in, multi, o, res, 1, err);
}
