/* msg_int.h — private to render/: the message catalogue. Every string a review
 * shows that ssdrev generates (table headers, chart titles, axes, legends,
 * flag findings, severities, "not measured" notes...) is one entry here,
 * with an English and a Korean form, in ONE table (render/msg.c). Code
 * never spells a report string itself: it asks for a message id in the
 * template's language (docs/templates.md, "Languages").
 *
 * Adding a string: add an id to the enum below (grouped by where it is
 * used), add its row to the table in msg.c with both forms, and use it
 * through render_msg() (plain text) or render_msg_put() (with named
 * parameters). tests/unit/test_render_msg.c fails on an id without both
 * forms, or with the same form in both languages unless the row says so.
 *
 * Parameters: a form may hold {name} (the parameter as text; a number as
 * %g) or {name:N} (a number with N decimals, N = 0..6); {name:op} writes
 * read / write / mix, and {name:wl} a tail workload's id (read, mix70,
 * write), in the form's language. `{{` writes `{`.
 * Parameters come from a JSON object (a flag's "numbers", or one built by
 * the caller); a missing one prints as "?". */
#ifndef SSDREV_RENDER_MSG_INT_H
#define SSDREV_RENDER_MSG_INT_H

#include <jansson.h>
#include "render/render.h"

struct render_buf;

enum render_msg_id {
  /* ------------------------------------------------ common words */
  MSG_NA,             /* a value that is not known (in a table) */
  MSG_NA_INLINE,      /* a {{value}} in prose whose data the run lacks */
  MSG_YES,
  MSG_NO,
  MSG_TH_COUNTERS_ONLY, /* the TMT counters throttled, no drop in speed was it */
  MSG_AND,            /* between the last two of several drive labels */
  MSG_LIST_SEP,       /* between drive labels */
  MSG_READ,           /* the read op, in headers and titles */
  MSG_WRITE,
  MSG_MIX,
  MSG_SEV_INFO,       /* flag severities */
  MSG_SEV_WARN,
  MSG_SEV_ERROR,
  /* ------------------------------------------------ notes (template.c) */
  MSG_NOT_MEASURED,   /* {why}: the note for data a run lacks */
  MSG_SIMULATED,      /* {runs}: the simulated-results notice */
  MSG_NO_FLAGS,
  /* ------------------------------------------------ why data is missing:
   * written in English into struct ssdrev_err by render_msg_fail (the CLI's
   * warning), shown in the template's language in the review's note */
  MSG_MISS_CDM,       /* {run} {arg} = the state */
  MSG_MISS_FILL,      /* {run} */
  MSG_MISS_FILL_LAT,  /* {run} */
  MSG_MISS_SWEEP,     /* {run} */
  MSG_MISS_TAIL,      /* {run} */
  MSG_MISS_TEST,      /* {run} {arg} = the test */
  MSG_MISS_TAIL_TEST, /* {run} {arg} = the workload */
  MSG_MISS_SERIES,    /* {run} */
  MSG_MISS_HIST_LOG,  /* {run} */
  MSG_MISS_DUT,       /* {run} */
  MSG_MISS_SLC,       /* {run} */
  MSG_MISS_VALUE,     /* {run} {arg} = the value's path */
  /* ------------------------------------------------ tables (tables.c) */
  MSG_T_UNKNOWN_MODEL,
  MSG_T_LINK,
  MSG_T_NVME_VERSION,
  MSG_T_FIRMWARE,
  MSG_T_LBA_SIZE,
  MSG_T_CONTROLLER,
  MSG_T_WARN_TEMP,
  MSG_T_STORAGE_MEDIA,
  MSG_T_CRIT_TEMP,
  MSG_T_POWER_STATE,
  MSG_T_MAX_POWER,
  MSG_T_ENTRY_LAT,
  MSG_T_EXIT_LAT,
  MSG_T_TEST,
  MSG_T_READ_MB_S,
  MSG_T_WRITE_MB_S,
  MSG_T_READ_IOPS,
  MSG_T_WRITE_IOPS,
  MSG_T_READ_US,
  MSG_T_WRITE_US,
  MSG_T_PERCENTILE,
  MSG_T_RND_READ,     /* tail workloads: table headers and chart legends */
  MSG_T_RND_MIX70,
  MSG_T_RND_WRITE,
  MSG_T_READ_SHARE,
  MSG_T_DRIVE,
  MSG_T_SLC_EMPTY,
  MSG_T_SLC_FULL,
  MSG_T_IN_CACHE,
  MSG_T_AFTER_CACHE,
  MSG_T_CONFIDENCE,
  MSG_T_CMP_HEAD,     /* {state} {op}: cdm_compare's first header */
  MSG_T_SEVERITY,
  MSG_T_FINDING,
  /* ------------------------------------------------ charts (charts.c) */
  MSG_C_CDM,          /* default captions and titles, per chart kind */
  MSG_C_FILL,
  MSG_C_FILL_LAT,
  MSG_C_RW,
  MSG_C_TAIL,
  MSG_C_LATENCY,
  MSG_C_HIST,
  MSG_C_BARS,         /* {op} {state} */
  MSG_C_CDM_SUB,      /* {profile} */
  MSG_C_DATA_WRITTEN,
  MSG_C_WRITE_TPUT,
  MSG_C_MEAN_WRITE_LAT,
  MSG_C_READ_SHARE_AX,
  MSG_C_THROUGHPUT,
  MSG_C_PERCENTILE_AX,
  MSG_C_LATENCY_AX,
  MSG_C_TIME_AX,
  MSG_C_IOS_PER_BIN,
  MSG_C_QD1_4K,       /* what a tail test is, after its workload */
  MSG_SHORT_PAGE_NOTE, /* every page's header of a short review */
  MSG_C_MIX_MB_S,     /* the CDM panel's third column */
  MSG_C_FILL_LAT_AX,  /* the fill charts */
  MSG_C_FILL_TIME,
  MSG_C_P99_DASHED,
  MSG_C_REWRITE_LEG,
  MSG_C_CLIFF,
  MSG_C_NEAR_FULL,
  MSG_C_QD_AX,        /* queue-depth scaling charts */
  MSG_C_IOPS_AX,
  MSG_C_P99_AX,
  MSG_C_QD_IOPS,
  MSG_C_QD_LAT,
  MSG_C_TEMP,         /* the temperature chart: default caption */
  MSG_C_TEMP_TITLE,   /* {label} */
  MSG_C_TIME_MIN_AX,
  MSG_C_TEMP_AX,
  MSG_C_TEMP_LEGEND,
  MSG_C_WRITE_LEGEND,
  MSG_T_NOT_MEASURED, /* a drive's row where it has no such figures */
  MSG_T_NO_CACHE,     /* the SLC table: a fill without a detected cache */
  MSG_T_NOT_BACK,     /* the near-full rewrite found no cache after the idle */
  MSG_T_SMART_HEAD,   /* the DUT table's SMART health block */
  MSG_T_POWER_ON_HOURS,
  MSG_T_DATA_WRITTEN,
  MSG_T_DATA_READ,
  MSG_T_MEDIA_ERRORS,
  MSG_T_PERCENT_USED,
  MSG_T_AVAILABLE_SPARE,
  MSG_T_POWER_CYCLES,
  MSG_T_UNSAFE_SHUTDOWNS,
  MSG_T_CDM_CAPTION_FOB,  /* under a CrystalDiskMark table: {label} */
  MSG_T_CDM_CAPTION_75,
  /* ------------------------------------------------ flags (docs/flags.md):
   * the finding of each flag id, from its "numbers" */
  MSG_F_RND_READ_PLATEAU,
  MSG_F_FOB_VS_FULL,
  MSG_F_WRITE_CLIFF,
  MSG_F_SLOW_POST_CACHE,
  MSG_F_TAIL_BLOWUP,
  MSG_F_RW_SWEEP_DIP,
  MSG_F_THERMAL_THROTTLE,
  MSG_F_THERMAL_NEAR_WARN,
  MSG_F_THERMAL_OVER_WARN,
  MSG_F_LINK_BOUND,
  MSG_F_IO_ERRORS,
  MSG_F_LOG_UNREADABLE,
  MSG_F_QD_PLATEAU,
  MSG_F_QD_FLAT,       /* the plateau at the sweep's first QD */
  /* ------------------------------------------------ thermal step (chart, table, flag) */
  MSG_C_THERMAL,           /* default caption */
  MSG_C_THERMAL_TITLE,     /* {label} */
  MSG_C_THERMAL_WRITE_LEG,
  MSG_C_THERMAL_TEMP_LEG,
  MSG_C_THROTTLE,          /* a throttling point's mark */
  MSG_C_DROP,              /* a drop that is not thermal */
  MSG_T_TH_START_TEMP,
  MSG_T_TH_PEAK_TEMP,
  MSG_T_TH_THROTTLED,
  MSG_T_TH_TIME,
  MSG_T_TH_AT_TEMP,
  MSG_T_TH_BEFORE,
  MSG_T_TH_AFTER,
  MSG_T_TH_MEAN,
  MSG_T_TH_DROPS,          /* drops not thermal */
  MSG_T_TH_DROPS_MORE,     /* {n}: the drops past the largest listed */
  MSG_T_TH_SMART,          /* the drive's own TMT counters */
  MSG_T_TH_DURATION,
  MSG_F_THERMAL_STEP_THROTTLE,
  /* steady state and consistency (render/chart/steady.c, render/doc/t_steady.c) */
  MSG_C_SS_TITLE,
  MSG_C_ROUND_AX,
  MSG_C_SS_IOPS,
  MSG_C_SS_MEAN,
  MSG_C_SS_BAND10,
  MSG_C_SS_BAND20,
  MSG_C_SS_FIT,
  MSG_C_CONS_TITLE,
  MSG_C_CONS_PER_S,
  MSG_C_CONS_PER_FINE,
  MSG_C_CONS_LAT_TITLE,
  MSG_C_P999_AX,
  MSG_C_CONS_STEADY,
  MSG_T_ROUND,
  MSG_T_SS_IOPS,
  MSG_T_IN_WINDOW,
  MSG_T_SS_REACHED,     /* {round} {first} {last} {mean:0} {range_pct:1} {excursion_pct:1} */
  MSG_T_SS_NOT_REACHED, /* {rounds} {range_pct:1} {excursion_pct:1} */
  MSG_T_SS_MATRIX,
  MSG_T_READ_PCT,
  MSG_T_BLOCK,
  MSG_T_CONS_WHAT,
  MSG_T_CONS_VALUE,
  MSG_T_CONS_REGION,
  MSG_T_CONS_MEAN,
  MSG_T_CONS_MIN,
  MSG_T_CONS_P1,
  MSG_T_CONS_FINE_MIN,
  MSG_T_CONS_COV,
  MSG_T_CONS_BELOW,
  MSG_T_CONS_P999,
  MSG_T_CONS_ONSET,
  MSG_T_CONS_NO_BURST,
  MSG_F_NOT_STEADY,
  MSG_F_NOT_STEADY_FEW,
  MSG_F_NOT_STEADY_ZERO,
  MSG_F_PRE_STEADY,
  MSG_F_PRE_STEADY_NONE, /* nothing random written since the fill */
  MSG_F_CONSISTENCY_DROPS,
  MSG_C_CONS_LOG_TITLE,
  /* ------------------------------------------------ more missing-data
   * reasons (render_msg_put_reason knows them too) */
  MSG_MISS_FILL_TIME, /* {run} */
  MSG_MISS_TEMP,      /* {run} */
  MSG_MISS_QD,        /* {run} */
  MSG_MISS_CDM_OP,    /* {run} {arg} = the op (the directive names the state) */
  /* ------------------------------------------------ the DUT table */
  MSG_T_CAPACITY,
  MSG_T_HOST_OS,       /* the OS a CrystalDiskMark file names */
  MSG_T_NOT_IN_SOURCE, /* {fields}: the DUT fields the source did not give */
  MSG_T_CDM_NO_LAT,    /* after a CrystalDiskMark caption: the file has no latencies */
  MSG_C_PROF_DEFAULT,  /* CrystalDiskMark's profile names, as it writes them */
  MSG_C_PROF_NVME,
  MSG_C_PROF_PEAK,
  MSG_C_PROF_REAL,
  MSG_C_PROF_DEMO,
  /* ------------------------------------------------ the batch compare report
   * (render/compare/strings.c: render_cmp_msg, in the order of its enum) */
  MSG_CM_TITLE,
  MSG_CM_INTRO,
  MSG_CM_BASELINE_IS,
  MSG_CM_BASELINE_RULE_GIVEN,
  MSG_CM_BASELINE_RULE_AUTO,
  MSG_CM_FILTERS,
  MSG_CM_NO_FILTERS,
  MSG_CM_GROUPS,
  MSG_CM_RUNS,
  MSG_CM_RUNS_ELIDED,
  MSG_CM_COL_GROUP,
  MSG_CM_COL_MODEL,
  MSG_CM_COL_FIRMWARE,
  MSG_CM_COL_STATE,
  MSG_CM_COL_RUNS,
  MSG_CM_COL_LABEL,
  MSG_CM_COL_SOURCE,
  MSG_CM_COL_DATE,
  MSG_CM_COL_SIMULATED,
  MSG_CM_COL_RANK,
  MSG_CM_COL_N,
  MSG_CM_COL_MIN,
  MSG_CM_COL_MEDIAN,
  MSG_CM_COL_MAX,
  MSG_CM_COL_RATIO,
  MSG_CM_YES,
  MSG_CM_NO,
  MSG_CM_BASELINE_MARK,
  MSG_CM_UNKNOWN_MODEL,
  MSG_CM_UNKNOWN_FIRMWARE,
  MSG_CM_FAM_CDM,
  MSG_CM_FAM_SLC,
  MSG_CM_FAM_RW,
  MSG_CM_FAM_TAIL,
  MSG_CM_FAM_TESTS,
  MSG_CM_READ,
  MSG_CM_WRITE,
  MSG_CM_MIX,
  MSG_CM_SLC_MAX,
  MSG_CM_SLC_MIN,
  MSG_CM_SLC_CACHE,
  MSG_CM_SLC_POST,
  MSG_CM_RW_POINT,
  MSG_CM_TAIL_W_READ,
  MSG_CM_TAIL_W_MIX,
  MSG_CM_TAIL_W_WRITE,
  MSG_CM_MEAN,
  MSG_CM_MAXLAT,
  MSG_CM_OTHER_FIGS,
  MSG_CM_CHART_TOP,
  MSG_CM_HIGHER_BETTER,
  MSG_CM_LOWER_BETTER,
  MSG_CM_SIMULATED_NOTE,
  MSG_CM_SPREAD_NOTE,
  MSG_CM_NO_BASELINE_VALUE,
  MSG_CM_SHEET_RUNS,
  MSG_CM_SHEET_GROUPS,
  MSG_CM_LATENCY,  /* after a CDM cell's op: its latency */
  MSG_CM_TAIL_LAT, /* printf: the workload, the percentile */
  /* ------------------------------------------------ compare statistics, overview and gate (issue 25) */
  MSG_CM_OVERVIEW,
  MSG_CM_OVERVIEW_NOTE,
  MSG_CM_OVERVIEW_TOP,   /* printf: shown, all */
  MSG_CM_COL_TEST,
  MSG_CM_SCORE,
  MSG_CM_SCORE_NOTE,     /* printf: the figures counted */
  MSG_CM_COL_MEAN,
  MSG_CM_COL_SD,
  MSG_CM_COL_CV,
  MSG_CM_COL_CI,
  MSG_CM_COL_DIFF,
  MSG_CM_COL_DIFF_CI,
  MSG_CM_COL_P,
  MSG_CM_STATS_NOTE,
  MSG_CM_GATE,
  MSG_CM_GATE_PASS,      /* printf: the percentage */
  MSG_CM_GATE_FAIL,      /* printf: the count, the percentage */
  MSG_CM_WITHIN_NOISE,
  MSG_CM_BEYOND_NOISE,
  MSG_CM_METHOD_SYSTEM,
  MSG_CM_COL_METHOD,
  MSG_CM_COL_ENGINE,
  MSG_CM_COL_VERSION,
  MSG_CM_COL_KERNEL,
  MSG_CM_COL_MEASURED,
  MSG_CM_IMPORT_DATE,
  MSG_CM_COMMON,         /* printf: the parts every group shares */
  MSG_CM_METHOD_NOTE,
  MSG_CM_XL_RUN,         /* xlsx headers without a report column of their own */
  MSG_CM_XL_BASELINE,
  MSG_CM_XL_FAMILY,
  MSG_CM_XL_METRIC,
  MSG_CM_XL_UNIT,
  MSG_CM_XL_CI_LO,
  MSG_CM_XL_CI_HI,
  MSG_CM_XL_BEYOND,
  MSG_CM_PROF_DEFAULT,   /* a CDM profile in a figure's title */
  MSG_CM_PROF_PEAK,
  MSG_CM_PROF_REAL,
  MSG_CM_PROF_DEMO,
  MSG_CM_SHORT_MARK,     /* after a group holding --short runs */
  MSG_CM_SHORT_NOTE,
  MSG_CM_FAM_QD,         /* the full method's figure families */
  MSG_CM_FAM_STEADY,
  MSG_CM_FAM_CONS,
  MSG_CM_FAM_THERMAL,
  MSG_CM_FAM_RECOVERY,
  MSG_CM_QD_POINT,       /* printf: the workload, the QD */
  MSG_CM_M_MEAN_IOPS,    /* the figures of those families */
  MSG_CM_M_RANGE,
  MSG_CM_M_P1_IOPS,
  MSG_CM_M_COV,
  MSG_CM_M_P999_MAX,
  MSG_CM_M_MEAN_MBS,
  MSG_CM_M_PEAK_TEMP,
  MSG_CM_M_RECOVERED,    /* printf: the idle time */
  MSG_CM_CURVES,         /* overlays across groups */
  MSG_CM_CURVES_NOTE,
  MSG_CM_OV_QD,          /* printf: the workload */
  MSG_CM_OV_TAIL,        /* printf: the workload */
  MSG_CM_AX_QD,
  MSG_CM_AX_PCT,
  MSG_CM_M_FILL_AT,      /* printf: the share written */
  MSG_CM_M_ROUND,        /* printf: the round */
  MSG_CM_OV_FILL,
  MSG_CM_OV_STEADY,
  MSG_CM_AX_FILLED,
  MSG_CM_AX_ROUND,
  MSG_CM_OV_PICK, /* printf: rows of the fallback */
  MSG_CM_OV_REST,
  MSG_CM_OV_CONS,        /* printf: the test */
  MSG_CM_OV_TH_MBS,      /* printf: the test */
  MSG_CM_OV_TH_TEMP,     /* printf: the test */
  MSG_CM_AX_TIME,
  MSG_CM_AX_TIME_MIN,
  MSG_CM_AX_TEMP,
  MSG_CM_M_AT_S,         /* printf: what, the seconds */
  MSG_CM_M_WRITE_SPEED,
  MSG_CM_M_TEMP,
  MSG_CM_GATE_UNTESTED,  /* printf: the percentage */
  MSG_CM_GATE_SOME_UNTESTED, /* printf: the groups */
  /* ------------------------------------------------ the CLI's messages
   * (render_msg_cli; the English forms are exactly what is printed) */
  MSG_W_WARNING,
  MSG_W_NOTE,
  MSG_W_NOT_MEASURED,  /* {where} {why} */
  MSG_W_SKIPPING,      /* {path} {why} */
  MSG_W_REANALYZED,    /* {dir} {out} */
  MSG_W_REANALYZED_MEM, /* {dir}: a read-only archive, analyzed in memory */
  MSG_W_READ_ONLY,     /* {dir} {why} (analyze of a read-only archive) */
  MSG_W_CDM_TWICE,     /* {input} {cell} */
  MSG_W_CDM_ZERO,      /* {input} {cell} */
  MSG_W_FIO_SHORT_LOG, /* {input} {job} {log} {n} {m} {ver} */
  MSG_W_FIO_NO_LOG,    /* {input} {job} {log} */
  MSG_W_AN_SUMMARIZED, /* analyze's closing notes: {n} {m} */
  MSG_W_AN_FEW,        /* {n} {m} (the plural form; the singular ones stay English) */
  MSG_W_AN_REST,       /* a test's warning: {what} {k} {min} */
  /* ------------------------------------------------ cache recovery after idle */
  MSG_MISS_RECOVERY,  /* {run} */
  MSG_MISS_RECOVERY_NONE, /* {run}: a series whose exhaust write never left the cache */
  MSG_C_RECOVERY,     /* chart title */
  MSG_C_IDLE_AX,
  MSG_C_RECOVERED_AX,
  MSG_C_AT_LEAST_LEG, /* the open markers: lower bounds */
  MSG_T_IDLE,
  MSG_T_RECOVERED,
  MSG_T_RECOVERY_NOTE, /* under the table */
  MSG_T_NEAR_FULL_IDLE, /* {label} {idle_s} {gib} {later_idle_s} {later_gib}: the near-full figure is the idle's */
  MSG_T_NEAR_FULL_IDLE_NONE, /* the first idle recovered nothing */
  MSG_F_SLOW_RECOVERY,
  MSG_T_SECONDS,      /* {v}: an idle time */
  MSG_T_MINUTES,      /* {v} */
  /* ------------------------------------------------ jobs, tail and QD tables (tables.c) */
  MSG_T_CLAT_NOTE,    /* under a table of fio clat figures */
  MSG_T_FEW_SAMPLES,  /* the ³ note: a percentile with under 10 I/Os beyond it */
  MSG_T_OTHER_WORKLOADS, /* {label}: the jobs table's caption */
  MSG_T_WORKLOAD,     /* the jobs table's headers (with MSG_T_TEST) */
  MSG_T_MEAN_US,
  MSG_T_RANDOM,       /* a job's access pattern, before its op */
  MSG_T_SEQUENTIAL,
  MSG_T_READ_PCT_OF,  /* {pct}: a mixed job's read share */
  MSG_T_QD_READ,      /* the QD-scaling table's workloads, before IOPS / mean / p99 */
  MSG_T_QD_WRITE,
  MSG_T_QD_MEAN,      /* {op}: the mean-latency column */
  MSG_T_QD_PLATEAU_NOTE,
  /* ------------------------------------------------ findings (findings.c, issue 27) */
  MSG_FD_WEAK_SHORT,
  MSG_FD_CDM_LEAD,
  MSG_FD_CDM_LEAD_BARE, /* the lead after the first: the list stated the rule once */
  MSG_FD_CDM_EVEN,
  MSG_FD_FOB_DIFF,
  MSG_FD_FOB_DIFF_TIGHT, /* the spread rounds to 0.0%: said as under 0.1% */
  MSG_FD_FOB_DIFF_NOSPREAD,
  MSG_FD_FOB_SAME,
  MSG_FD_FOB_SHORT,
  MSG_FD_SLC,
  MSG_FD_SLC_MIN,
  MSG_FD_SLC_WEAK,
  MSG_FD_SLC_UNTHR,
  MSG_FD_SEC_CDM_FILL,  /* {section:sec} of a pre_steady flag: "cdm 75%" */
  MSG_FD_SEC_CDM_STATE, /* "cdm STATE", a state that is no fill share */
  MSG_FD_SEC_TAIL,      /* "tail" */
  MSG_FD_SLC_POSTTHR, /* the throttle came after the cache: {onset_gib} {how} {thr_mb_s} {mixed_mb_s} */
  MSG_FD_THR_BY_SMART, /* {how}: the drive's thermal-management counters said it */
  MSG_FD_THR_BY_TEMP,  /* {how}: the temperature reached the thermal step's throttle point */
  MSG_FD_SLC_SHORT,
  MSG_FD_SLC_NONE,
  MSG_FD_QD,
  MSG_FD_QD_FALLS, /* the first QD the most, the deeper ones lower */
  MSG_FD_QD_FLAT,      /* the plateau at the first QD, no fall after */
  MSG_FD_QD_DEEP_FALL, /* the deepest QD below the plateau's: {iops} {qd} */
  MSG_FD_QD_FALL_FROM, /* the first deeper QD below the fall threshold, before the deepest */
  MSG_FD_QD_NONE,
  MSG_FD_CDM_QD,
  MSG_FD_TAIL,
  MSG_FD_TAIL_BARE,   /* the tail after the first: the rule stated once */
  MSG_FD_TAIL_BLOW,
  MSG_FD_MIX70,
  MSG_FD_THROTTLE,
  MSG_FD_THROTTLE_SMART, /* the counters placed the throttle, not the temperature rule */
  MSG_FD_NO_THROTTLE,
  MSG_FD_NO_THROTTLE_FLAT, /* the peak within 1 °C of the start */
  MSG_FD_THROTTLE_NO_DROP, /* the counters throttled, the speed did not drop for it */
  MSG_FD_STEADY,
  MSG_FD_NOT_STEADY,
  MSG_FD_STEADY_SHORT,
  MSG_FD_CONSISTENCY,
  MSG_FD_FLAG_RND_PLATEAU, /* the rnd_read_plateau flag as a finding: its numbers and rule, no cause it cannot know */
  MSG_FD_NO_FINDINGS,
  /* ------------------------------------------------ short runs said as such (issue 27, w4-honest) */
  MSG_SHORT_NOTICE,     /* {runs}: the banner of {{simulated_notice}} for short runs */
  MSG_SHORT_TABLE_NOTE, /* {label} {gib}: the † note under a table holding a short run */
  MSG_T_NO_CACHE_SHORT, /* {gib}: the SLC table's cell for a short fill that saw no cache */
  MSG_C_SHORT_TAG,      /* after a short run's label in chart titles and legends */
  MSG_MISS_STEADY,      /* {run}: the missing-data reasons that stayed English on Korean pages */
  MSG_MISS_CONSIST_SERIES, /* {run} */
  MSG_MISS_CONSIST,     /* {run} */
  MSG_MISS_THERMAL,     /* {run} */
  MSG_T_TH_AFTER_MEAN,  /* thermal table: the mean speed from the throttle to the end */
  MSG_T_TH_SHARE,       /* thermal table: the share of that time spent throttled */
  MSG_F_RND_PLATEAU_FILE,    /* rnd_read_plateau on a file target (numbers "target": "file") */
  MSG_F_RND_PLATEAU_VIRTUAL, /* on a virtual disk ("target": "virtual") */
  MSG_T_SS_REACHED_SHORT, /* MSG_T_SS_REACHED's parameters and {gib}: a short run's rounds met the test */
  MSG_T_SHORT_REGION,     /* {gib}: under a short run's consistency table */
  MSG_F_THERMAL_NEAR_OLD, /* thermal_near_warn of an analysis before gap_c: {max_c} {warn_c} {margin_c} */
  MSG_COUNT
};

/* The form of ID in LANG (never NULL; an out-of-range id or language gives
 * ""). Borrowed from a static table. */
const char *render_msg(enum render_lang lang, enum render_msg_id id);
/* 1 when the catalogue row says the Korean form is the English one on
 * purpose (the reference review writes that term in English: "Link",
 * "Percentile", "RND Read"). For the catalogue's unit test. */
int render_msg_same_ok(enum render_msg_id id);
/* The catalogue's name of ID ("MSG_T_LINK"), for the unit test. */
const char *render_msg_name(enum render_msg_id id);
/* 1 when WORD read in Korean ends in a final consonant, 0 when not, -1
 * when it cannot tell (render/msg.c says how letters and digits read). */
int render_msg_has_final(const char *word);

/* Appends the form of ID in LANG to B with its {parameters} taken from
 * PARAMS (may be NULL). A string parameter {name:이} (also 은, 을, 과) is
 * followed by the Korean particle its last sound takes: 이/가, 은/는, 을/를,
 * 과/와 (render_msg_has_final). */
void render_msg_put(struct render_buf *b, enum render_lang lang, enum render_msg_id id, const json_t *params);

/* 1 when PARAMS holds every {parameter} the form of ID in LANG names (an
 * older analysis.json may lack one: show its English "message" instead). */
int render_msg_params_ok(enum render_lang lang, enum render_msg_id id, const json_t *params);

/* The message id of flag FLAG_ID ("rnd_read_plateau"), or -1 for an id the
 * catalogue does not know (a newer analysis: show its "message"). */
int render_msg_flag(const char *flag_id);
/* The message id of flag FLAG_ID whose form in LANG finds all its
 * {parameters} in NUMS: a flag may have variants (not_steady: a judged
 * window, too few rounds for one, a window of mean 0), told apart by the
 * numbers analyze wrote; -1 when none fits (show its "message"). */
int render_msg_flag_for(enum render_lang lang, const char *flag_id, const json_t *nums);
/* The id of severity SEV ("info", "warn", "error"), or -1. */
int render_msg_severity(const char *sev);

/* Missing data: formats the English form of ID with parameters RUN and ARG
 * (named as in the enum's comment; ARG may be NULL) into ERR and returns
 * CODE, like ssdrev_fail. */
int render_msg_fail(struct ssdrev_err *err, int code, enum render_msg_id id, const char *run, const char *arg);
/* Puts the text of an error message from render_msg_fail into B in LANG
 * (its MSG_MISS_* form with the same parameters); any other text is put as
 * it is. */
void render_msg_put_reason(struct render_buf *b, enum render_lang lang, const char *en_text);

#endif
