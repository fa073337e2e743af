/* csv.c — the one CSV cell writer (ssdrev.h): RFC 4180 quoting through
 * libcsv and OWASP's CSV-injection rule for text cells. */
#include <csv.h>
#include <stdlib.h>
#include <string.h>
#include "base/ssdrev.h"

/* OWASP "CSV Injection": a spreadsheet evaluates a cell that begins with
 * one of these as a formula (=, + and - start one, @ is Excel's implicit
 * intersection; TAB and CR hide any of them behind white space). */
static int starts_formula(const char *s) { return *s && strchr("=+-@\t\r", *s) != NULL; }

void ssdrev_csv_text(FILE *f, const char *s, int last) {
  if (!s) s = "";
  size_t n = strlen(s);
  if (starts_formula(s)) {
    /* the ' goes inside the quotes: a spreadsheet shows the cell as text
     * and hides the ' (csv_fwrite2 cannot prefix, so the quoted form is
     * built here: "'...", every " doubled) */
    fputs("\"'", f);
    for (const char *c = s; *c; c++) {
      if (*c == '"') fputc('"', f);
      fputc(*c, f);
    }
    fputc('"', f);
  } else {
    csv_fwrite(f, s, n);
  }
  fputc(last ? '\n' : ',', f);
}

/* A number as ssdrev formats one: an optional sign, digits with at most one
 * point, an optional exponent, nothing else (no inf, nan, hex, spaces). */
static int is_number(const char *s) {
  if (*s == '-' || *s == '+') s++;
  size_t digits = 0;
  int point = 0;
  for (; *s; s++) {
    if (*s >= '0' && *s <= '9') digits++;
    else if (*s == '.' && !point) point = 1;
    else break;
  }
  if (!digits) return 0;
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '-' || *s == '+') s++;
    if (*s < '0' || *s > '9') return 0;
    while (*s >= '0' && *s <= '9') s++;
  }
  return *s == 0;
}

void ssdrev_csv_number(FILE *f, const char *num, int last) {
  if (!num) num = "";
  if (*num && !is_number(num)) {
    ssdrev_csv_text(f, num, last); /* not a number after all: text, neutralized */
    return;
  }
  fputs(num, f);
  fputc(last ? '\n' : ',', f);
}
