/* strings.c — every string the batch compare report generates, English and
 * Korean, in one table (so it can move into the message catalogue whole),
 * plus the number formats and figure titles built from them. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "render/compare/compare_int.h"

const struct cmp_family render_cmp_families[] = {
    {"cdm", "CrystalDiskMark"}, {"slc", "SLC cache"}, {"rw_sweep", "RW sweep"},
    {"tail", "Tail latency"},   {"tests", "Tests"},
};
const size_t render_cmp_nfamilies = sizeof render_cmp_families / sizeof render_cmp_families[0];

/* [id] = {English, Korean}; printf formats keep the same conversions in both. */
static const char *const msgs[CM_COUNT_][2] = {
    [CM_TITLE] = {"Batch comparison", "일괄 비교"},
    [CM_INTRO] = {"%s runs in %s groups. Each figure is the group's median; the spread (n, min, median, max) "
                  "is shown for groups of several runs.",
                  "실행 %s개, 그룹 %s개. 각 수치는 그룹의 중앙값이며, 실행이 여러 개인 그룹은 분포(n, 최소, 중앙값, "
                  "최대)를 함께 보입니다."},
    [CM_BASELINE_IS] = {"Ratios (x) are against the baseline group **%s**", "비율(x)은 기준 그룹 **%s** 대비입니다"},
    [CM_BASELINE_RULE_GIVEN] = {" (chosen with --baseline).", " (--baseline으로 지정)."},
    [CM_BASELINE_RULE_AUTO] = {" (the group with a known model and the most headline figures, then the most runs).",
                               " (모델이 알려진 그룹 중 주요 수치가 가장 많고, 다음으로 실행이 가장 많은 그룹)."},
    [CM_FILTERS] = {"Filters: %s.", "필터: %s."},
    [CM_NO_FILTERS] = {"No filters.", "필터 없음."},
    [CM_GROUPS] = {"Groups", "그룹"},
    [CM_RUNS] = {"Runs", "실행"},
    [CM_RUNS_ELIDED] = {"%s runs: the list is in runs.csv.", "실행 %s개: 목록은 runs.csv에 있습니다."},
    [CM_COL_GROUP] = {"Group", "그룹"},
    [CM_COL_MODEL] = {"Model", "모델"},
    [CM_COL_FIRMWARE] = {"Firmware", "펌웨어"},
    [CM_COL_STATE] = {"State", "상태"},
    [CM_COL_RUNS] = {"Runs", "실행 수"},
    [CM_COL_LABEL] = {"Run", "실행"},
    [CM_COL_SOURCE] = {"Source", "출처"},
    [CM_COL_DATE] = {"Date", "날짜"},
    [CM_COL_SIMULATED] = {"Simulated", "시뮬레이션"},
    [CM_COL_RANK] = {"#", "#"},
    [CM_COL_N] = {"n", "n"},
    [CM_COL_MIN] = {"Min", "최소"},
    [CM_COL_MEDIAN] = {"Median", "중앙값"},
    [CM_COL_MAX] = {"Max", "최대"},
    [CM_COL_RATIO] = {"vs baseline", "기준 대비"},
    [CM_YES] = {"yes", "예"},
    [CM_NO] = {"no", "아니요"},
    [CM_BASELINE_MARK] = {" (baseline)", " (기준)"},
    [CM_UNKNOWN_MODEL] = {"%s (model unknown)", "%s (모델 미상)"},
    [CM_UNKNOWN_FIRMWARE] = {"firmware unknown", "펌웨어 미상"},
    [CM_FAM_CDM] = {"CrystalDiskMark", "CrystalDiskMark"},
    [CM_FAM_SLC] = {"SLC cache", "SLC 캐시"},
    [CM_FAM_RW] = {"Read/write ratio sweep", "읽기/쓰기 비율 스윕"},
    [CM_FAM_TAIL] = {"Tail latency", "꼬리 지연"},
    [CM_FAM_TESTS] = {"Tests", "개별 테스트"},
    [CM_READ] = {"read", "읽기"},
    [CM_WRITE] = {"write", "쓰기"},
    [CM_MIX] = {"mix", "혼합"},
    [CM_SLC_MAX] = {"SLC cache size (largest)", "SLC 캐시 크기 (최대)"},
    [CM_SLC_MIN] = {"SLC cache size (smallest)", "SLC 캐시 크기 (최소)"},
    [CM_SLC_CACHE] = {"Write speed in the SLC cache", "SLC 캐시 내 쓰기 속도"},
    [CM_SLC_POST] = {"Write speed after the SLC cache", "SLC 캐시 소진 후 쓰기 속도"},
    [CM_RW_POINT] = {"4K random %s, %s%% read", "4K 랜덤 %s, 읽기 %s%%"},
    [CM_TAIL_W_READ] = {"read", "읽기"},
    [CM_TAIL_W_MIX] = {"70/30 mix", "70/30 혼합"},
    [CM_TAIL_W_WRITE] = {"write", "쓰기"},
    [CM_MEAN] = {"mean", "평균"},
    [CM_MAXLAT] = {"max", "최대"},
    [CM_OTHER_FIGS] = {"The other %s figures (IOPS, latencies, all sweep points, every percentile) are in "
                       "compare.csv, groups.csv and compare.xlsx.",
                       "나머지 수치 %s개(IOPS, 지연, 모든 스윕 지점, 모든 백분위)는 compare.csv, groups.csv, "
                       "compare.xlsx에 있습니다."},
    [CM_CHART_TOP] = {"the best %s of %s groups", "그룹 %2$s개 중 상위 %1$s개"},
    [CM_HIGHER_BETTER] = {"higher is better", "높을수록 좋음"},
    [CM_LOWER_BETTER] = {"lower is better", "낮을수록 좋음"},
    [CM_SIMULATED_NOTE] = {"Groups marked (sim) are simulated drives, not measurements of hardware.",
                           "(sim) 표시 그룹은 실제 하드웨어 측정이 아닌 시뮬레이션 드라이브입니다."},
    [CM_SPREAD_NOTE] = {"Bars are group medians, ranked best first; whiskers span min to max.",
                        "막대는 그룹 중앙값(좋은 순), 수염은 최소~최대 범위입니다."},
    [CM_NO_BASELINE_VALUE] = {"-", "-"},
    [CM_SHEET_RUNS] = {"Runs", "Runs"},
    [CM_SHEET_GROUPS] = {"Groups", "Groups"},
};

const char *render_cmp_msg(enum render_cmp_msg id, int ko) {
  if ((unsigned)id >= CM_COUNT_) return "";
  const char *s = msgs[id][ko ? 1 : 0];
  return s ? s : msgs[id][0];
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

/* Inserts ',' every three digits of the integer part of a plain decimal. */
static void group_thousands(const char *in, char *out, size_t len) {
  const char *dot = strchr(in, '.');
  size_t ilen = dot ? (size_t)(dot - in) : strlen(in);
  size_t k = 0, start = 0;
  if (in[0] == '-') {
    if (k + 1 < len) out[k++] = '-';
    start = 1;
  }
  for (size_t i = start; i < ilen && k + 1 < len; i++) {
    out[k++] = in[i];
    size_t left = ilen - i - 1;
    if (left && left % 3 == 0 && k + 1 < len) out[k++] = ',';
  }
  if (dot)
    for (const char *p = dot; *p && k + 1 < len; p++) out[k++] = *p;
  out[k] = 0;
}

void render_cmp_fmt_num(char *buf, size_t len, double v, const char *unit) {
  if (!isfinite(v)) {
    snprintf(buf, len, "-");
    return;
  }
  char raw[64];
  /* %f never switches to e-notation; figures are bounded far below 1e60 */
  snprintf(raw, sizeof raw, "%.*f", unit_decimals(unit, v), v);
  group_thousands(raw, buf, len);
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
    const char *kind = strstr(f->metric, "_lat_us") ? (ko ? " 지연" : " latency")
                       : strstr(f->metric, "_iops") ? " IOPS" : "";
    snprintf(buf, len, "%s %s%s, %s (%s)", cell, op_word(f->metric, ko), kind, st, pr);
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
    snprintf(buf, len, ko ? "QD1 %s 지연 %s" : "QD1 %s latency %s", wk, p);
  } else {
    snprintf(buf, len, "%s %s", f->key, f->metric);
  }
}
