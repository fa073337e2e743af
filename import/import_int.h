/* import/import_int.h — helpers shared by the importers (private to import/). */
#ifndef SSDREV_BENCH_IMPORT_INT_H
#define SSDREV_BENCH_IMPORT_INT_H

#include "archive/archive.h"
#include "import/import.h"

/* Copies s into out, replacing every byte outside [A-Za-z0-9._-] with '_',
 * so it can name a log file. */
void import_safe_name(char *out, size_t len, const char *s);
/* The test-name prefix of one of several inputs: its file name without
 * directory and extension, made safe, and a dot ("02-cdm_fob.json" ->
 * "02-cdm_fob."). */
void import_input_stem(char *out, size_t len, const char *input);
/* Creates the archive and records source (kind, absolute file), label, DUT
 * model/firmware and fill state from the options. target_spec may be NULL.
 * The archive is made in a staging directory next to o->out_dir (run->dir
 * is that directory): the importer ends with import_stage_finish. */
int import_run_create(struct archive **run, const struct import_opts *o,
                      const char *kind, const char *input, const char *target_spec,
                      struct ssdrev_err *err);
/* Makes the staging directory OUT.tmp.XXXXXX for o->out_dir into stage.
 * OUT must not exist or be an empty directory (which is removed: the
 * finished archive takes its place); a link at OUT is refused. */
int import_stage_create(char *stage, size_t len, const char *out_dir, struct ssdrev_err *err);
/* Removes a staging directory this process made, with what is in it
 * (FTW_PHYS: links inside are removed, never followed). */
void import_stage_remove(const char *stage);
/* Ends an import: when rc is 0, saves the manifest and renames the staging
 * directory to o->out_dir; otherwise (or when that fails) removes the
 * staging directory. Frees run in every case. Returns the first error. */
int import_stage_finish(struct archive *run, const struct import_opts *o, int rc,
                        struct ssdrev_err *err);
/* The run's test names as a set (a JSON object NAME -> true; the caller
 * decrefs it), built once so that an importer checks each new name in O(1):
 * archive_find_test scans the manifest, and once per job that made a
 * 20,000-job fio file take minutes (quadratic). Add each name it takes. */
json_t *import_names_taken(const struct archive *run);
/* Appends a warning to the manifest's "import_warnings" and counts it. */
void import_warn(struct archive *run, struct import_result *res, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets the test's start and end to the source's own times (ns since the
 * epoch, UTC; call after archive_end_test); start 0 = unknown, kept. */
void import_test_times(json_t *test, uint64_t start_unix_ns, uint64_t end_unix_ns);

/* The importers of the table in import/import.c (import/fio.c, import/cdm.c). */
/* TEXT (LEN bytes, NUL-terminated, malloc'd) as UTF-8, in place: UTF-16
 * (LE or BE, by its BOM or, without one, by the NULs of ASCII text in every
 * second byte) converted with iconv -- CrystalDiskMark 7 and before saved
 * its text as UTF-16LE with a BOM (`_wfopen_s(..., L"wb,ccs=UNICODE")`, FF
 * FE written ahead; CDM 8 writes UTF-8), as Notepad's "Unicode" and
 * Windows PowerShell 5's `>` do -- and leading UTF-8 BOMs dropped. 0, or an
 * error naming NAME (a cut or broken UTF-16 file: its byte). */
int import_text_utf8(char **text, size_t *len, const char *name, struct ssdrev_err *err);
int import_fio_add(struct archive *run, const struct import_input *in, int multi, const struct import_opts *o,
                   struct import_result *res, struct ssdrev_err *err);
int import_fio_check_option(const char *name, const char *value, struct ssdrev_err *err);
int import_cdm_add(struct archive *run, const struct import_input *in, int multi, const struct import_opts *o,
                   struct import_result *res, struct ssdrev_err *err);
/* KDiskMark text reports (import/cdm.c: the CrystalDiskMark parser and cells). */
int import_kdm_add(struct archive *run, const struct import_input *in, int multi, const struct import_opts *o,
                   struct import_result *res, struct ssdrev_err *err);

/* DUT input checks (import/dut_check.c): 0, or -EINVAL with a message
 * naming `name` (a file, or what the text is) and the key. id-ctrl: known
 * identify fields are unsigned integers of their NVMe width, at most 32
 * power state descriptors (npss <= 31). smart-log: the keys every nvme-cli
 * SMART log has, typed. overrides: known DUT keys typed, others scalars,
 * no null. */
/* A non-negative counter as nvme-cli and smartctl print it: a JSON number, or
 * (128-bit fields: tnvmcap, data units) a string of up to 39 decimal
 * digits. 1 and *out (may be NULL) when it is one, else 0. */
int import_dut_counter(const json_t *v, double *out);
int import_dut_check_id_ctrl(const json_t *c, const char *name, struct ssdrev_err *err);
int import_dut_check_smart_log(const json_t *sl, const char *name, struct ssdrev_err *err);
int import_dut_check_overrides(const json_t *ov, const char *name, struct ssdrev_err *err);

#endif
