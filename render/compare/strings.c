/* strings.c — the batch compare report's strings (rows of the message
 * catalogue, render/msg.c), the number formats and the figure titles built
 * from them. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "render/compare/compare_int.h"
#include "render/msg_int.h"
#include "render/render_int.h"

/* In report order: the reference method's, the full method's, then tail
 * latency and job tests. */
const struct cmp_family render_cmp_families[] = {
    {"cdm", "CrystalDiskMark", CM_FAM_CDM},        {"slc", "SLC cache", CM_FAM_SLC},
    {"rw_sweep", "RW sweep", CM_FAM_RW},           {"qd", "QD scaling", CM_FAM_QD},
    {"steady", "Steady state", CM_FAM_STEADY},     {"consistency", "Consistency", CM_FAM_CONS},
    {"thermal", "Thermal", CM_FAM_THERMAL},        {"recovery", "Cache recovery", CM_FAM_RECOVERY},
    {"tail", "Tail latency", CM_FAM_TAIL},         {"tests", "Tests", CM_FAM_TESTS},
};
const size_t render_cmp_nfamilies = sizeof render_cmp_families / sizeof render_cmp_families[0];

/* The compare report's strings are rows of the one message catalogue
 * (render/msg.c), MSG_CM_* in the order of enum render_cmp_msg. */
_Static_assert(MSG_CM_GATE_SOME_UNTESTED - MSG_CM_TITLE + 1 == CM_COUNT_, "render_cmp_msg and MSG_CM_* differ");

const char *render_cmp_msg(enum render_cmp_msg id, int ko) {
  if ((unsigned)id >= CM_COUNT_) return "";
  return render_msg(ko ? RENDER_LANG_KO : RENDER_LANG_EN, (enum render_msg_id)(MSG_CM_TITLE + (int)id));
}

const char *render_cmp_unit_shown(const char *unit) {
  return !strcmp(unit, "us") ? "µs" : unit;
}

static int unit_decimals(const char *unit, double v) {
  if (!strcmp(unit, "IOPS")) return 0;
  if (!strcmp(unit, "GiB")) return 1;
  /* MB/s and µs: two decimals as in the review's tables, none once the
   * value is so large that the decimals say nothing */
  return fabs(v) >= 100000 ? 0 : 2;
}

void render_cmp_fmt_num(char *buf, size_t len, double v, const char *unit) {
  if (!isfinite(v)) {
    snprintf(buf, len, "-");
    return;
  }
  char raw[64];
  /* %f never switches to e-notation; figures are bounded far below 1e60 */
  snprintf(raw, sizeof raw, "%.*f", unit_decimals(unit, v), v);
  render_group_digits(raw, buf, len, 4);
}

void render_cmp_fmt_ratio(char *buf, size_t len, double r) {
  if (!isfinite(r)) snprintf(buf, len, "-");
  else snprintf(buf, len, "x%.2f", r);
}

/* "read" / "write" / "mix" from the metric's first word. */
static const char *op_word(const char *metric, int ko) {
  if (!strncmp(metric, "read", 4)) return render_cmp_msg(CM_READ, ko);
  if (!strncmp(metric, "write", 5)) return render_cmp_msg(CM_WRITE, ko);
  return render_cmp_msg(CM_MIX, ko);
}

void render_cmp_fig_title(const struct cmp_fig *f, int ko, char *buf, size_t len) {
  if (!strcmp(f->family, "cdm")) {
    /* key is "STATE PROFILE CELL": shown as "CELL op, STATE (PROFILE)" */
    char st[64] = "", pr[64] = "";
    const char *cell = f->key;
    const char *sp = strchr(cell, ' ');
    if (sp) {
      snprintf(st, sizeof st, "%.*s", (int)(sp - cell), cell);
      cell = sp + 1;
      sp = strchr(cell, ' ');
      if (sp) {
        snprintf(pr, sizeof pr, "%.*s", (int)(sp - cell), cell);
        cell = sp + 1;
      }
    }
    const char *kind = strstr(f->metric, "_lat_us") ? render_cmp_msg(CM_LATENCY, ko)
                       : strstr(f->metric, "_iops") ? " IOPS" : "";
    /* the profile in the report's language ("nvme" is a product name) */
    static const struct { const char *id; enum render_cmp_msg m; } profs[] = {
        {"default", CM_PROF_DEFAULT}, {"peak", CM_PROF_PEAK}, {"real", CM_PROF_REAL}, {"demo", CM_PROF_DEMO}};
    const char *prs = pr;
    for (size_t i = 0; i < sizeof profs / sizeof profs[0]; i++)
      if (!strcmp(pr, profs[i].id)) prs = render_cmp_msg(profs[i].m, ko);
    snprintf(buf, len, "%s %s%s, %s (%s)", cell, op_word(f->metric, ko), kind, st, prs);
  } else if (!strcmp(f->family, "slc") && !strcmp(f->key, "trace")) {
    char pct[16];
    snprintf(pct, sizeof pct, "%.*s", (int)strcspn(f->metric + 3, "_"), f->metric + 3);
    snprintf(buf, len, render_cmp_msg(CM_M_FILL_AT, ko), pct);
  } else if (!strcmp(f->family, "steady") && !strcmp(f->key, "rounds")) {
    char rd[16];
    snprintf(rd, sizeof rd, "%.*s", (int)strcspn(f->metric + 1, "_"), f->metric + 1);
    snprintf(buf, len, render_cmp_msg(CM_M_ROUND, ko), rd);
  } else if (!strcmp(f->family, "slc")) {
    enum render_cmp_msg m = !strcmp(f->metric, "max_gib")     ? CM_SLC_MAX
                     : !strcmp(f->metric, "min_gib")   ? CM_SLC_MIN
                     : !strcmp(f->metric, "cache_mb_s") ? CM_SLC_CACHE
                                                        : CM_SLC_POST;
    snprintf(buf, len, "%s", render_cmp_msg(m, ko));
  } else if (!strcmp(f->family, "rw_sweep")) {
    char pct[16];
    snprintf(pct, sizeof pct, "%.*s", (int)strcspn(f->metric + 4, "_"), f->metric + 4);
    char head[128];
    snprintf(head, sizeof head, render_cmp_msg(CM_RW_POINT, ko), f->key, pct);
    snprintf(buf, len, "%s%s", head, strstr(f->metric, "_iops") ? " (IOPS)" : "");
  } else if (!strcmp(f->family, "tail")) {
    enum render_cmp_msg w = !strcmp(f->key, "read")    ? CM_TAIL_W_READ
                     : !strcmp(f->key, "write") ? CM_TAIL_W_WRITE
                                                : CM_TAIL_W_MIX;
    const char *wk = strncmp(f->key, "mix", 3) && strcmp(f->key, "read") && strcmp(f->key, "write")
                         ? f->key
                         : render_cmp_msg(w, ko);
    char p[32];
    if (!strcmp(f->metric, "mean_us")) snprintf(p, sizeof p, "%s", render_cmp_msg(CM_MEAN, ko));
    else if (!strcmp(f->metric, "max_us")) snprintf(p, sizeof p, "%s", render_cmp_msg(CM_MAXLAT, ko));
    else snprintf(p, sizeof p, "%.*s", (int)strcspn(f->metric, "_"), f->metric);
    snprintf(buf, len, render_cmp_msg(CM_TAIL_LAT, ko), wk, p); /* the catalogue's row takes two %s */
  } else if (!strcmp(f->family, "qd")) {
    /* key: the workload; metric "qdN_iops" / "qdN_p99_us" */
    char qd[16];
    snprintf(qd, sizeof qd, "%.*s", (int)strcspn(f->metric + 2, "_"), f->metric + 2);
    char head[160];
    snprintf(head, sizeof head, render_cmp_msg(CM_QD_POINT, ko), op_word(f->key, ko), qd);
    snprintf(buf, len, "%s%s", head, strstr(f->metric, "_p99_us") ? " p99" : "");
  } else if (!strcmp(f->family, "recovery")) {
    snprintf(buf, len, render_cmp_msg(CM_M_RECOVERED, ko), f->key + (strncmp(f->key, "idle ", 5) ? 0 : 5));
  } else if (!strcmp(f->family, "steady") || !strcmp(f->family, "consistency") || !strcmp(f->family, "thermal")) {
    static const struct { const char *metric; enum render_cmp_msg m; } ms[] = {
        {"mean_iops", CM_M_MEAN_IOPS}, {"range_pct", CM_M_RANGE},     {"p1_iops", CM_M_P1_IOPS},
        {"cov_pct", CM_M_COV},         {"p99_9_us_max", CM_M_P999_MAX}, {"mean_mb_s", CM_M_MEAN_MBS},
        {"peak_temp_c", CM_M_PEAK_TEMP}};
    const char *what = f->metric;
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
      if (!strcmp(f->metric, ms[i].metric)) what = render_cmp_msg(ms[i].m, ko);
    /* a time series' step (analyze_compare_figures): "t30_iops" */
    char at[96];
    if (f->metric[0] == 't' && f->metric[1] >= '0' && f->metric[1] <= '9') {
      char sec[16];
      const char *u = strchr(f->metric, '_');
      snprintf(sec, sizeof sec, "%.*s", (int)strcspn(f->metric + 1, "_"), f->metric + 1);
      const char *q = !u ? f->metric : !strcmp(u, "_iops") ? "IOPS"
                      : !strcmp(u, "_mb_s") ? render_cmp_msg(CM_M_WRITE_SPEED, ko)
                      : !strcmp(u, "_temp_c") ? render_cmp_msg(CM_M_TEMP, ko) : u + 1;
      snprintf(at, sizeof at, render_cmp_msg(CM_M_AT_S, ko), q, sec);
      what = at;
    }
    enum render_cmp_msg fam = !strcmp(f->family, "steady") ? CM_FAM_STEADY
                              : !strcmp(f->family, "thermal") ? CM_FAM_THERMAL : CM_FAM_CONS;
    /* a family of one test per run says only what; more say which test */
    if (!strcmp(f->family, "steady")) snprintf(buf, len, "%s: %s", render_cmp_msg(fam, ko), what);
    else snprintf(buf, len, "%s: %s (%s)", render_cmp_msg(fam, ko), what, f->key);
  } else {
    snprintf(buf, len, "%s %s", f->key, f->metric);
  }
}
