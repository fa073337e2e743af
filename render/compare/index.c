/* index.c — the batch compare's index in an archive root,
 * ROOT/ssdrev-index.sqlite: per run its identity, the mtime and size of its
 * manifest.json and analysis.json, and its figures. A compare takes an
 * unchanged run from here without opening any of its files, and stores the
 * runs it had to read. The schema (docs/archive.md) is meant to be queried
 * by users too (the `tidy` view). Used from one thread only. */
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "render/compare/compare_int.h"

/* 2: runs gained measured, date_kind, method, engine, tool_version, kernel;
 * pass_values (issue 25). 3: the same schema, more figures per run (the
 * full method's, the fill and steady-state curves): the version also
 * stands for what analyze_compare_figures yields, so that a change there
 * rebuilds the index instead of serving runs without the new figures.
 * 4: the fill curve from fills of 10 bins or more (a short fill has 16).
 * 5: the consistency and thermal time series' steps (t<END>_*).
 * An index of ours at an older version is rebuilt. */
#define CMP_INDEX_VERSION 5
/* The version of the indexes made before the application_id was stamped:
 * ours when their schema is exactly ours, rebuilt (an older version). */
#define CMP_INDEX_PRE_APPID 4
/* PRAGMA application_id of every index ssdrev creates: "SsDr" as a
 * big-endian 32-bit number (docs/archive.md). SQLite's way to say which
 * program a database file belongs to (`file` prints it). */
#define CMP_INDEX_APP_ID 0x53734472

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS runs("
    " id INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL UNIQUE,"
    " label TEXT, model TEXT, firmware TEXT, state TEXT, source TEXT, created TEXT,"
    " simulated INTEGER NOT NULL DEFAULT 0, warning TEXT,"
    " manifest_mtime_ns INTEGER, manifest_size INTEGER,"
    " analysis_mtime_ns INTEGER, analysis_size INTEGER,"
    " measured TEXT, date_kind INTEGER NOT NULL DEFAULT 0, method TEXT, engine TEXT, tool_version TEXT, kernel TEXT);"
    "CREATE TABLE IF NOT EXISTS figures("
    " id INTEGER PRIMARY KEY,"
    " family TEXT NOT NULL, test TEXT NOT NULL, metric TEXT NOT NULL, unit TEXT NOT NULL,"
    " headline INTEGER NOT NULL, higher_better INTEGER NOT NULL, ord INTEGER NOT NULL DEFAULT 0,"
    " UNIQUE(family, test, metric));"
    "CREATE TABLE IF NOT EXISTS figure_values("
    " run INTEGER NOT NULL REFERENCES runs(id),"
    " figure INTEGER NOT NULL REFERENCES figures(id),"
    " value REAL NOT NULL,"
    " PRIMARY KEY(run, figure)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS pass_values("
    " run INTEGER NOT NULL REFERENCES runs(id),"
    " figure INTEGER NOT NULL REFERENCES figures(id),"
    " pass INTEGER NOT NULL,"
    " value REAL NOT NULL,"
    " PRIMARY KEY(run, figure, pass)) WITHOUT ROWID;"
    "CREATE VIEW IF NOT EXISTS tidy AS"
    " SELECT r.name AS run, r.label, r.model, r.firmware, r.state, r.source, r.created, r.simulated,"
    "        f.family, f.test, f.metric, f.unit, v.value"
    " FROM figure_values v JOIN runs r ON r.id = v.run JOIN figures f ON f.id = v.figure;";

enum { S_RUN, S_VALS, S_DEL_VALS, S_DEL_RUN, S_INS_RUN, S_INS_FIG, S_FIG_ID, S_INS_VAL, S_NAMES, S_FIGS,
       S_PVALS, S_DEL_PVALS, S_INS_PVAL, S_N };
static const char *const stmts[S_N] = {
    [S_RUN] = "SELECT id, label, model, firmware, state, source, created, simulated, warning, manifest_mtime_ns,"
              " manifest_size, analysis_mtime_ns, analysis_size, measured, date_kind, method, engine, tool_version,"
              " kernel FROM runs WHERE name = ?",
    [S_VALS] = "SELECT figure, value FROM figure_values WHERE run = ?",
    [S_DEL_VALS] = "DELETE FROM figure_values WHERE run IN (SELECT id FROM runs WHERE name = ?)",
    [S_DEL_RUN] = "DELETE FROM runs WHERE name = ?",
    [S_INS_RUN] = "INSERT INTO runs(name, label, model, firmware, state, source, created, simulated, warning,"
                  " manifest_mtime_ns, manifest_size, analysis_mtime_ns, analysis_size, measured, date_kind,"
                  " method, engine, tool_version, kernel)"
                  " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [S_INS_FIG] = "INSERT OR IGNORE INTO figures(family, test, metric, unit, headline, higher_better, ord)"
                  " VALUES(?,?,?,?,?,?,?)",
    [S_FIG_ID] = "SELECT id FROM figures WHERE family = ? AND test = ? AND metric = ?",
    [S_INS_VAL] = "INSERT INTO figure_values(run, figure, value) VALUES(?,?,?)",
    [S_NAMES] = "SELECT name FROM runs",
    [S_FIGS] = "SELECT id, family, test, metric, unit, headline, higher_better, ord FROM figures",
    [S_PVALS] = "SELECT figure, value FROM pass_values WHERE run = ? ORDER BY figure, pass",
    [S_DEL_PVALS] = "DELETE FROM pass_values WHERE run IN (SELECT id FROM runs WHERE name = ?)",
    [S_INS_PVAL] = "INSERT INTO pass_values(run, figure, pass, value) VALUES(?,?,?,?)",
};

struct cmp_index {
  sqlite3 *db;
  sqlite3_stmt *st[S_N];
  long *db2fig;      /* the index's figure id -> cmp_figs index (-1: not yet) */
  size_t ndb2fig;
  int64_t *fig2db;   /* cmp_figs index -> the index's figure id (0: not yet) */
  size_t nfig2db;
  int in_tx;
};

/* SQLite's reason for the last failure, a full disk in the words of
 * every other output ("database or disk is full" named neither) */
static const char *db_why(sqlite3 *db) {
  if (!db) return "out of memory";
  return (sqlite3_errcode(db) & 0xff) == SQLITE_FULL ? strerror(ENOSPC) : sqlite3_errmsg(db);
}

const char *render_cmp_index_why(const struct cmp_index *x) { return db_why(x->db); }

/* One integer PRAGMA's value, or LLONG_MIN on error (an application_id
 * is any signed 32-bit value, -1 included). */
static long long pragma_int(sqlite3 *db, const char *sql) {
  sqlite3_stmt *v;
  long long r = LLONG_MIN;
  if (sqlite3_prepare_v2(db, sql, -1, &v, NULL) == SQLITE_OK && sqlite3_step(v) == SQLITE_ROW)
    r = sqlite3_column_int64(v, 0);
  sqlite3_finalize(v);
  return r;
}

/* The schema of DB as one string: every object's type, name, table and
 * CREATE statement, by name (malloc'd; NULL on error). */
static char *schema_of(sqlite3 *db, int *nobj) {
  sqlite3_stmt *s;
  if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, ifnull(sql, '') FROM sqlite_master ORDER BY name", -1, &s,
                         NULL) != SQLITE_OK)
    return NULL;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  *nobj = 0;
  while (f && sqlite3_step(s) == SQLITE_ROW) {
    for (int c = 0; c < 4; c++) fprintf(f, "%s%c", (const char *)sqlite3_column_text(s, c), c == 3 ? '\n' : '\t');
    (*nobj)++;
  }
  sqlite3_finalize(s);
  if (f && fclose(f)) {
    free(buf);
    return NULL;
  }
  return f ? buf : NULL;
}

/* 1 when DB holds exactly the schema this ssdrev creates (an index made
 * before the application_id was set), 0 when not, -1 on error. */
static int schema_is_ours(sqlite3 *db) {
  sqlite3 *mem;
  if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
    sqlite3_close(mem);
    return -1;
  }
  int n1 = 0, n2 = 0, r = -1;
  char *want = sqlite3_exec(mem, schema, NULL, NULL, NULL) == SQLITE_OK ? schema_of(mem, &n1) : NULL;
  char *have = want ? schema_of(db, &n2) : NULL;
  if (want && have) r = n1 == n2 && !strcmp(want, have);
  free(want), free(have);
  sqlite3_close(mem);
  return r;
}

/* 1 when DB (application_id 0) is an index of an ssdrev from before the
 * application_id, of any schema version: its objects are ssdrev's only
 * (the tables, their automatic indexes, the view), and runs, figures and
 * figure_values have the columns every version had. A database of another
 * program, even with a table called "runs", is not. 0 when not, -1 on
 * error. */
static int schema_was_ours(sqlite3 *db) {
  static const char q[] =
      "SELECT (SELECT count(*) FROM sqlite_master WHERE name NOT IN"
      "        ('runs', 'figures', 'figure_values', 'pass_values', 'tidy')"
      "        AND name NOT LIKE 'sqlite\\_autoindex\\_%' ESCAPE '\\') = 0"
      " AND (SELECT count(*) FROM pragma_table_info('runs') WHERE name IN"
      "      ('id', 'name', 'manifest_mtime_ns', 'manifest_size', 'analysis_mtime_ns', 'analysis_size')) = 6"
      " AND (SELECT count(*) FROM pragma_table_info('figures') WHERE name IN"
      "      ('id', 'family', 'test', 'metric', 'unit')) = 5"
      " AND (SELECT count(*) FROM pragma_table_info('figure_values') WHERE name IN"
      "      ('run', 'figure', 'value')) = 3";
  sqlite3_stmt *v;
  int r = -1;
  if (sqlite3_prepare_v2(db, q, -1, &v, NULL) == SQLITE_OK && sqlite3_step(v) == SQLITE_ROW)
    r = sqlite3_column_int(v, 0) != 0;
  sqlite3_finalize(v);
  return r;
}

/* Makes DB an index or refuses it, in one write transaction (two compares
 * creating one index: the second waits and then finds the first's):
 *   - application_id ssdrev's: the schema version must be this one's;
 *   - application_id 0 and no object at all: a new file, ssdrev creates the
 *     schema and stamps application_id and user_version;
 *   - application_id 0 and exactly ssdrev's schema at this version: an
 *     index made before application_id was set, stamped now;
 *   - application_id 0, user_version 1 .. this one, ssdrev's tables only
 *     (schema_was_ours): an index of an older ssdrev from before the
 *     application_id. Derived from the archives, so rebuilt (dropped and
 *     made anew in this transaction: all or nothing) with NOTICE saying so;
 *   - anything else is another program's database (or another schema) and
 *     is left as it was: -EINVAL with a message naming the file.
 * Other SQLite errors return an SQLite code (not a negative errno). */
static int claim(sqlite3 *db, const char *path, char *notice, size_t nlen, struct ssdrev_err *err) {
  int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
  /* an index on a read-only mount (or a file this user may not write) is
   * still read: checked in a read transaction, never stamped */
  int readonly = rc == SQLITE_READONLY || sqlite3_db_readonly(db, "main") == 1;
  if (rc == SQLITE_READONLY) rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
  if (rc != SQLITE_OK) return rc;
  long long app = pragma_int(db, "PRAGMA application_id"), version = pragma_int(db, "PRAGMA user_version");
  int nobj = 0;
  char *have = schema_of(db, &nobj);
  if (!have || app == LLONG_MIN || version == LLONG_MIN) {
    free(have);
    rc = sqlite3_errcode(db);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc == SQLITE_OK ? SQLITE_ERROR : rc;
  }
  free(have);
  const char *why = NULL;
  char msg[160];
  int stamp = 0;
  int rebuild = 0;
  if (app == CMP_INDEX_APP_ID && version >= 1 && version < CMP_INDEX_VERSION && !readonly) {
    /* ours, from an older ssdrev: a cache, rebuilt in the new schema */
    rebuild = stamp = 1;
  } else if (app == CMP_INDEX_APP_ID) {
    if (version != CMP_INDEX_VERSION) {
      snprintf(msg, sizeof msg, "schema version %lld, this ssdrev writes %d (delete it)", version, CMP_INDEX_VERSION);
      why = msg;
    }
  } else if (app != 0) {
    snprintf(msg, sizeof msg,
             "it is not an ssdrev index (SQLite application_id 0x%08llx, ssdrev's is 0x%08x); ssdrev leaves it alone",
             app & 0xffffffffll, CMP_INDEX_APP_ID);
    why = msg;
  } else if (nobj == 0 && version == 0) {
    stamp = 1; /* a new file */
  } else if ((version == CMP_INDEX_VERSION || version == CMP_INDEX_PRE_APPID) && schema_is_ours(db) == 1) {
    stamp = 1; /* made before application_id: the same schema */
    rebuild = version != CMP_INDEX_VERSION && !readonly;
  } else if (version >= 1 && version <= CMP_INDEX_VERSION && schema_was_ours(db) == 1) {
    /* an older ssdrev's, before application_id: once refused as a foreign
     * file, left for the user to delete by hand */
    if (readonly) {
      snprintf(msg, sizeof msg, "it is an index of an older ssdrev (schema version %lld) and read-only here, so it "
               "cannot be rebuilt", version);
      why = msg;
    } else {
      rebuild = stamp = 1;
      snprintf(notice, nlen, "rebuilt the index '%s': it was an older ssdrev's (schema version %lld, no "
               "application_id); its runs are read again once", path, version);
    }
  } else {
    snprintf(msg, sizeof msg,
             "it is not an ssdrev index (an SQLite database with another schema, user_version %lld); "
             "ssdrev leaves it alone",
             version);
    why = msg;
  }
  if (!why && stamp && readonly && nobj == 0) why = "it is read-only and empty";
  if (why) {
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return ssdrev_fail(err, -EINVAL, "not using the index '%s': %s", path, why);
  }
  if (readonly) stamp = 0; /* an index from before, read as it is */
  char sql[128];
  snprintf(sql, sizeof sql, "PRAGMA application_id=%d; PRAGMA user_version=%d;", CMP_INDEX_APP_ID, CMP_INDEX_VERSION);
  if (rebuild)
    rc = sqlite3_exec(db, "DROP VIEW IF EXISTS tidy; DROP TABLE IF EXISTS pass_values; DROP TABLE IF EXISTS "
                          "figure_values; DROP TABLE IF EXISTS figures; DROP TABLE IF EXISTS runs;",
                      NULL, NULL, NULL);
  if (stamp && rc == SQLITE_OK) rc = sqlite3_exec(db, schema, NULL, NULL, NULL);
  if (stamp && rc == SQLITE_OK) rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
  if (rc != SQLITE_OK) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  return rc;
}

struct cmp_index *render_cmp_index_open(const char *root, char *notice, size_t nlen, struct ssdrev_err *err) {
  if (nlen) notice[0] = 0;
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", root, CMP_INDEX_NAME);
  struct stat st;
  /* as every ssdrev output: never through a symbolic link */
  if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
    ssdrev_fail(err, -ELOOP, "not using the index '%s': it is a symbolic link", path);
    return NULL;
  }
  struct cmp_index *x = calloc(1, sizeof *x);
  if (!x) {
    ssdrev_fail(err, -ENOMEM, "out of memory");
    return NULL;
  }
  int rc = sqlite3_open_v2(path, &x->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_busy_timeout(x->db, 10000); /* another compare over the same root writes it */
    rc = sqlite3_exec(x->db, "PRAGMA synchronous=NORMAL;", NULL, NULL, NULL);
  }
  if (rc == SQLITE_OK) rc = claim(x->db, path, notice, nlen, err);
  if (rc == -EINVAL) {
    render_cmp_index_close(x);
    return NULL;
  }
  if ((rc & 0xff) == SQLITE_NOTADB) { /* garbage, or a file of another kind: never written */
    ssdrev_fail(err, -EINVAL, "not using the index '%s': it is not an SQLite database, so not an ssdrev index; "
                "ssdrev leaves it alone", path);
    render_cmp_index_close(x);
    return NULL;
  }
  for (int i = 0; i < S_N && rc == SQLITE_OK; i++) rc = sqlite3_prepare_v2(x->db, stmts[i], -1, &x->st[i], NULL);
  if (rc != SQLITE_OK) {
    ssdrev_fail(err, -EIO, "cannot use the index '%s': %s", path, db_why(x->db));
    render_cmp_index_close(x);
    return NULL;
  }
  return x;
}

void render_cmp_index_close(struct cmp_index *x) {
  if (!x) return;
  if (x->in_tx) sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
  for (int i = 0; i < S_N; i++) sqlite3_finalize(x->st[i]);
  sqlite3_close(x->db);
  free(x->db2fig);
  free(x->fig2db);
  free(x);
}

static void col_str(sqlite3_stmt *s, int c, char *out, size_t len) {
  const unsigned char *v = sqlite3_column_text(s, c);
  snprintf(out, len, "%s", v ? (const char *)v : "");
}

/* The cmp_figs index of the index's figure id, interning it on first use. */
static long map_fig(struct cmp_index *x, int64_t dbid, struct cmp_figs *figs) {
  if (dbid <= 0) return -1;
  if ((size_t)dbid >= x->ndb2fig) {
    /* the figure table is read once, on the first lookup after a change */
    sqlite3_stmt *s = x->st[S_FIGS];
    while (sqlite3_step(s) == SQLITE_ROW) {
      int64_t id = sqlite3_column_int64(s, 0);
      if (id <= 0) continue;
      if ((size_t)id >= x->ndb2fig) {
        size_t nn = (size_t)id * 2 + 16;
        long *nv = realloc(x->db2fig, nn * sizeof *nv);
        if (!nv) break;
        for (size_t k = x->ndb2fig; k < nn; k++) nv[k] = -1;
        x->db2fig = nv;
        x->ndb2fig = nn;
      }
      if (x->db2fig[id] >= 0) continue;
      x->db2fig[id] = render_cmp_figs_add(figs, (const char *)sqlite3_column_text(s, 1),
                                   (const char *)sqlite3_column_text(s, 2), (const char *)sqlite3_column_text(s, 3),
                                   (const char *)sqlite3_column_text(s, 4), sqlite3_column_int(s, 5),
                                   sqlite3_column_int(s, 6), (unsigned)sqlite3_column_int(s, 7));
    }
    sqlite3_reset(s);
    if ((size_t)dbid >= x->ndb2fig) return -1;
  }
  return x->db2fig[dbid];
}

int render_cmp_index_load(struct cmp_index *x, const char *name, struct cmp_run *r, struct cmp_figs *figs) {
  sqlite3_stmt *s = x->st[S_RUN];
  sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
  int got = 0;
  int64_t id = 0;
  if (sqlite3_step(s) == SQLITE_ROW) {
    int64_t sig[4];
    for (int k = 0; k < 4; k++) sig[k] = sqlite3_column_int64(s, 9 + k);
    /* no analysis.json, or any change to either file: read the run */
    if (r->sig[2] >= 0 && !memcmp(sig, r->sig, sizeof sig)) {
      id = sqlite3_column_int64(s, 0);
      col_str(s, 1, r->label, sizeof r->label);
      col_str(s, 2, r->model, sizeof r->model);
      col_str(s, 3, r->firmware, sizeof r->firmware);
      col_str(s, 4, r->state, sizeof r->state);
      col_str(s, 5, r->source, sizeof r->source);
      col_str(s, 6, r->date, sizeof r->date);
      r->simulated = sqlite3_column_int(s, 7);
      const unsigned char *w = sqlite3_column_text(s, 8);
      if (w) r->warn = strdup((const char *)w);
      col_str(s, 13, r->measured, sizeof r->measured);
      r->date_kind = sqlite3_column_int(s, 14);
      col_str(s, 15, r->method, sizeof r->method);
      col_str(s, 16, r->engine, sizeof r->engine);
      col_str(s, 17, r->tool_version, sizeof r->tool_version);
      col_str(s, 18, r->kernel, sizeof r->kernel);
      got = 1;
    }
  }
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
  if (!got) return 0;
  s = x->st[S_VALS];
  sqlite3_bind_int64(s, 1, id);
  size_t cap = 0;
  int rc = 1;
  while (sqlite3_step(s) == SQLITE_ROW) {
    long f = map_fig(x, sqlite3_column_int64(s, 0), figs);
    if (f < 0) {
      rc = 0; /* an inconsistent entry: read the run instead */
      break;
    }
    if (r->nvals == cap) {
      cap = cap ? cap * 2 : 64;
      struct cmp_val *nv = realloc(r->vals, cap * sizeof *nv);
      if (!nv) {
        rc = -ENOMEM;
        break;
      }
      r->vals = nv;
    }
    r->vals[r->nvals++] = (struct cmp_val){(uint32_t)f, sqlite3_column_double(s, 1)};
  }
  sqlite3_reset(s);
  if (rc == 1) {
    s = x->st[S_PVALS];
    sqlite3_bind_int64(s, 1, id);
    size_t pcap = 0;
    while (sqlite3_step(s) == SQLITE_ROW) {
      long f = map_fig(x, sqlite3_column_int64(s, 0), figs);
      if (f < 0) {
        rc = 0;
        break;
      }
      if (r->npvals == pcap) {
        pcap = pcap ? pcap * 2 : 64;
        struct cmp_val *nv = realloc(r->pvals, pcap * sizeof *nv);
        if (!nv) {
          rc = -ENOMEM;
          break;
        }
        r->pvals = nv;
      }
      r->pvals[r->npvals++] = (struct cmp_val){(uint32_t)f, sqlite3_column_double(s, 1)};
    }
    sqlite3_reset(s);
  }
  if (rc != 1) {
    free(r->vals), r->vals = NULL, r->nvals = 0;
    free(r->pvals), r->pvals = NULL, r->npvals = 0;
    free(r->warn), r->warn = NULL;
    return rc;
  }
  /* by cmp_figs index, as run_passes searches them (stable: pass order kept) */
  for (size_t i = 1; i < r->npvals; i++) {
    struct cmp_val v = r->pvals[i];
    size_t j = i;
    for (; j > 0 && r->pvals[j - 1].fig > v.fig; j--) r->pvals[j] = r->pvals[j - 1];
    r->pvals[j] = v;
  }
  /* the figures must be sorted by cmp_figs index for render_cmp_run_value */
  for (size_t i = 1; i < r->nvals; i++) {
    struct cmp_val v = r->vals[i];
    size_t j = i;
    for (; j > 0 && r->vals[j - 1].fig > v.fig; j--) r->vals[j] = r->vals[j - 1];
    r->vals[j] = v;
  }
  return 1;
}

int render_cmp_index_begin(struct cmp_index *x) {
  if (sqlite3_exec(x->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return -EIO;
  x->in_tx = 1;
  return 0;
}

static int step_done(sqlite3_stmt *s) {
  int rc = sqlite3_step(s);
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
  return rc == SQLITE_DONE ? 0 : -EIO;
}

static int delete_run(struct cmp_index *x, const char *name) {
  sqlite3_bind_text(x->st[S_DEL_PVALS], 1, name, -1, SQLITE_STATIC);
  int rc = step_done(x->st[S_DEL_PVALS]);
  if (rc) return rc;
  sqlite3_bind_text(x->st[S_DEL_VALS], 1, name, -1, SQLITE_STATIC);
  rc = step_done(x->st[S_DEL_VALS]);
  sqlite3_bind_text(x->st[S_DEL_RUN], 1, name, -1, SQLITE_STATIC);
  return rc ? rc : step_done(x->st[S_DEL_RUN]);
}

/* The index's id of figure f, adding the row if new. */
static int64_t fig_id(struct cmp_index *x, const struct cmp_figs *figs, uint32_t f) {
  if (f >= x->nfig2db) {
    size_t nn = (size_t)f * 2 + 64;
    int64_t *nv = realloc(x->fig2db, nn * sizeof *nv);
    if (!nv) return -1;
    memset(nv + x->nfig2db, 0, (nn - x->nfig2db) * sizeof *nv);
    x->fig2db = nv;
    x->nfig2db = nn;
  }
  if (x->fig2db[f]) return x->fig2db[f];
  const struct cmp_fig *g = &figs->v[f];
  sqlite3_stmt *s = x->st[S_INS_FIG];
  sqlite3_bind_text(s, 1, g->family, -1, SQLITE_STATIC);
  sqlite3_bind_text(s, 2, g->key, -1, SQLITE_STATIC);
  sqlite3_bind_text(s, 3, g->metric, -1, SQLITE_STATIC);
  sqlite3_bind_text(s, 4, g->unit, -1, SQLITE_STATIC);
  sqlite3_bind_int(s, 5, g->headline);
  sqlite3_bind_int(s, 6, g->higher_better);
  sqlite3_bind_int(s, 7, (int)g->ord);
  if (step_done(s)) return -1;
  s = x->st[S_FIG_ID];
  sqlite3_bind_text(s, 1, g->family, -1, SQLITE_STATIC);
  sqlite3_bind_text(s, 2, g->key, -1, SQLITE_STATIC);
  sqlite3_bind_text(s, 3, g->metric, -1, SQLITE_STATIC);
  int64_t id = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
  if (id > 0) x->fig2db[f] = id;
  return id;
}

int render_cmp_index_store(struct cmp_index *x, const char *name, const struct cmp_run *r, const struct cmp_figs *figs) {
  int rc = delete_run(x, name);
  if (rc) return rc;
  sqlite3_stmt *s = x->st[S_INS_RUN];
  const char *txt[] = {name, r->label, r->model, r->firmware, r->state, r->source, r->date};
  for (int i = 0; i < 7; i++) sqlite3_bind_text(s, i + 1, txt[i], -1, SQLITE_STATIC);
  sqlite3_bind_int(s, 8, r->simulated);
  if (r->warn) sqlite3_bind_text(s, 9, r->warn, -1, SQLITE_STATIC);
  else sqlite3_bind_null(s, 9);
  for (int k = 0; k < 4; k++) sqlite3_bind_int64(s, 10 + k, r->sig[k]);
  sqlite3_bind_text(s, 14, r->measured, -1, SQLITE_STATIC);
  sqlite3_bind_int(s, 15, r->date_kind);
  const char *meta[] = {r->method, r->engine, r->tool_version, r->kernel};
  for (int i = 0; i < 4; i++) sqlite3_bind_text(s, 16 + i, meta[i], -1, SQLITE_STATIC);
  rc = step_done(s);
  if (rc) return rc;
  int64_t id = sqlite3_last_insert_rowid(x->db);
  s = x->st[S_INS_VAL];
  for (size_t i = 0; i < r->nvals && !rc; i++) {
    int64_t f = fig_id(x, figs, r->vals[i].fig);
    if (f < 0) return -EIO;
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int64(s, 2, f);
    sqlite3_bind_double(s, 3, r->vals[i].v);
    rc = step_done(s);
  }
  s = x->st[S_INS_PVAL];
  for (size_t i = 0; i < r->npvals && !rc; i++) {
    int64_t f = fig_id(x, figs, r->pvals[i].fig);
    if (f < 0) return -EIO;
    /* the pass number is the value's position among its figure's */
    size_t pass = 1;
    for (size_t k = i; k > 0 && r->pvals[k - 1].fig == r->pvals[i].fig; k--) pass++;
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int64(s, 2, f);
    sqlite3_bind_int64(s, 3, (int64_t)pass);
    sqlite3_bind_double(s, 4, r->pvals[i].v);
    rc = step_done(s);
  }
  return rc;
}

static int str_cmp_p(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int render_cmp_index_prune(struct cmp_index *x, const char *const *keep, size_t n) {
  /* names first, deletes after: no statement runs while another iterates */
  json_t *gone = json_array();
  sqlite3_stmt *s = x->st[S_NAMES];
  while (sqlite3_step(s) == SQLITE_ROW) {
    const char *name = (const char *)sqlite3_column_text(s, 0);
    if (name && !(n && bsearch(&name, keep, n, sizeof *keep, str_cmp_p))) json_array_append_new(gone, json_string(name));
  }
  sqlite3_reset(s);
  int rc = 0;
  size_t i;
  json_t *v;
  json_array_foreach(gone, i, v) {
    if (!rc) rc = delete_run(x, json_string_value(v));
  }
  json_decref(gone);
  return rc;
}

int render_cmp_index_commit(struct cmp_index *x, struct ssdrev_err *err) {
  if (!x->in_tx) return 0;
  x->in_tx = 0;
  if (sqlite3_exec(x->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
    ssdrev_fail(err, -EIO, "cannot commit the index: %s", db_why(x->db));
    sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
    return -EIO;
  }
  return 0;
}
