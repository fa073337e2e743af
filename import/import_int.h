/* import/import_int.h — helpers shared by the importers (private to import/). */
#ifndef SSDREV_BENCH_IMPORT_INT_H
#define SSDREV_BENCH_IMPORT_INT_H

#include "archive/archive.h"
#include "import/import.h"

/* Copies s into out, replacing every byte outside [A-Za-z0-9._-] with '_',
 * so it can name a log file. */
void import_safe_name(char *out, size_t len, const char *s);
/* Creates the archive and records source (kind, absolute file), label, DUT
 * model/firmware and fill state from the options. target_spec may be NULL. */
int import_run_create(struct archive **run, const struct import_opts *o,
                      const char *kind, const char *input, const char *target_spec,
                      struct ssdrev_err *err);
/* Appends a warning to the manifest's "import_warnings" and counts it. */
void import_warn(struct archive *run, struct import_result *res, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The importers of the table in import/import.c (import/fio.c, import/cdm.c). */
int import_fio(const char *input, const struct import_opts *o, struct import_result *res,
               struct ssdrev_err *err);
int import_cdm(const char *input, const struct import_opts *o, struct import_result *res,
               struct ssdrev_err *err);

#endif
