/* msg.c — the message catalogue (render/msg_int.h): one row per generated
 * report string, English and Korean. The Korean follows the reference
 * review's wording (SLC캐시, 지연시간, 병목현상, "75% 채움"). Where the
 * reference writes a term in English (the DUT Summary's field names, the
 * tail table's "Percentile | RND Read", "Fill Drive") the Korean form is
 * still Korean (issue 27): a Korean page reads Korean, its notes included;
 * the reference's own template keeps its English headings and captions as
 * its prose. A row keeps the English on purpose (same = 1) only for a name:
 * a CrystalDiskMark profile, a unit. Units stay as the reference writes
 * them: MB/s, µs, GiB. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "render/render_int.h"

struct msg_row {
  const char *name;  /* the id's name, for the unit test's messages */
  const char *form[RENDER_NLANGS];
  int same;          /* the Korean form is the English one on purpose */
};

#define ROW(id, en, ko) [id] = {#id, {en, ko}, 0}
#define SAME(id, en) [id] = {#id, {en, en}, 1}

static const struct msg_row rows[MSG_COUNT] = {
    ROW(MSG_NA, "n/a", "없음"),
    ROW(MSG_NA_INLINE, "n/a", "(측정되지 않음)"),
    ROW(MSG_YES, "yes", "예"),
    ROW(MSG_NO, "no", "아니요"),
    ROW(MSG_TH_COUNTERS_ONLY, "in the counters, no drop in speed", "카운터에만 기록, 속도 저하 없음"),
    /* Korean joins names with 와/과 by the last syllable's sound, which a
     * label ("PM981a 256GB") does not tell: a comma reads right either way */
    ROW(MSG_AND, " and ", ", "),
    SAME(MSG_LIST_SEP, ", "),
    ROW(MSG_READ, "read", "읽기"),
    ROW(MSG_WRITE, "write", "쓰기"),
    ROW(MSG_MIX, "mix", "혼합"),
    ROW(MSG_SEV_INFO, "info", "정보"),
    ROW(MSG_SEV_WARN, "warn", "경고"),
    ROW(MSG_SEV_ERROR, "error", "오류"),

    ROW(MSG_NOT_MEASURED, "Not measured: {why}.", "측정되지 않음: {why}."),
    ROW(MSG_SIMULATED,
        "**Simulated results:** the measurements of {runs} come from ssdrev's simulated drive, not from real hardware.",
        "**시뮬레이션 결과:** {runs}의 측정값은 실제 드라이브가 아니라 ssdrev의 모의 드라이브에서 얻은 것입니다."),
    ROW(MSG_NO_FLAGS, "The analysis raised no flags.", "분석에서 표시된 경고는 없습니다."),

    ROW(MSG_MISS_CDM, "run '{run}' has no CrystalDiskMark results in state '{arg}'",
        "'{run}'에 {arg} 상태의 CrystalDiskMark 결과가 없습니다"),
    ROW(MSG_MISS_FILL, "run '{run}' has no fill-drive trace (analysis fill.per_gib)",
        "'{run}'에 드라이브 채우기 결과가 없습니다 (분석 항목 fill.per_gib)"),
    ROW(MSG_MISS_FILL_LAT, "run '{run}' has no fill latency (fill.per_gib.lat_mean_us)",
        "'{run}'에 드라이브 채우기 지연시간이 없습니다 (분석 항목 fill.per_gib.lat_mean_us)"),
    ROW(MSG_MISS_SWEEP, "run '{run}' has no RW-ratio sweep (analysis rw_sweep)",
        "'{run}'에 RW 비율별 결과가 없습니다 (분석 항목 rw_sweep)"),
    ROW(MSG_MISS_TAIL, "run '{run}' has no tail-latency results (analysis tail)",
        "'{run}'에 꼬리 지연시간 결과가 없습니다 (분석 항목 tail)"),
    ROW(MSG_MISS_TEST, "run '{run}' has no test {arg}", "'{run}'에 {arg} 테스트가 없습니다"),
    ROW(MSG_MISS_TAIL_TEST, "run '{run}' has no test of kind tail with workload {arg}",
        "'{run}'에 {arg} 워크로드의 꼬리 지연시간 테스트가 없습니다"),
    ROW(MSG_MISS_SERIES, "run '{run}': the test has no time series (series.t_s)",
        "'{run}': 테스트에 시간별 기록이 없습니다 (series.t_s)"),
    ROW(MSG_MISS_HIST_LOG, "run '{run}': no logged test to draw a histogram from (manifest tests[].log)",
        "'{run}': 히스토그램을 그릴 로그가 있는 테스트가 없습니다 (manifest.json tests[].log)"),
    ROW(MSG_MISS_DUT, "run '{run}' has no DUT summary (분석 항목 dut)", "'{run}'에 DUT 정보가 없습니다 (분석 항목 dut)"),
    ROW(MSG_MISS_SLC, "run '{run}' has no SLC cache estimate (analysis fill.slc)",
        "'{run}'에 SLC캐시 추정값이 없습니다 (분석 항목 fill.slc)"),
    ROW(MSG_MISS_VALUE, "value '{arg}' is missing in the analysis of run '{run}'",
        "'{run}'의 분석 결과에 '{arg}' 값이 없습니다"),

    ROW(MSG_T_UNKNOWN_MODEL, "(unknown model)", "(모델 불명)"),
    /* the DUT Summary's fields (the Korean reference writes them in English) */
    ROW(MSG_T_LINK, "Link", "링크"),
    ROW(MSG_T_NVME_VERSION, "NVMe Version", "NVMe 버전"),
    ROW(MSG_T_FIRMWARE, "Firmware", "펌웨어"),
    ROW(MSG_T_LBA_SIZE, "LBA Size", "LBA 크기"),
    ROW(MSG_T_CONTROLLER, "Controller", "컨트롤러"),
    ROW(MSG_T_WARN_TEMP, "Warning Temp", "경고 온도"),
    ROW(MSG_T_STORAGE_MEDIA, "Storage Media", "저장 매체"),
    ROW(MSG_T_CRIT_TEMP, "Critical Temp", "임계 온도"),
    ROW(MSG_T_POWER_STATE, "Power State", "전원 상태"),
    ROW(MSG_T_MAX_POWER, "Maximum Power", "최대 전력"),
    ROW(MSG_T_ENTRY_LAT, "Entry Latency", "진입 지연시간"),
    ROW(MSG_T_EXIT_LAT, "Exit Latency", "복귀 지연시간"),
    ROW(MSG_T_TEST, "Test", "테스트"),
    ROW(MSG_T_READ_MB_S, "Read [MB/s]", "읽기 [MB/s]"),
    ROW(MSG_T_WRITE_MB_S, "Write [MB/s]", "쓰기 [MB/s]"),
    ROW(MSG_T_READ_IOPS, "Read [IOPS]", "읽기 [IOPS]"),
    ROW(MSG_T_WRITE_IOPS, "Write [IOPS]", "쓰기 [IOPS]"),
    ROW(MSG_T_READ_US, "Read [µs]", "읽기 [µs]"),
    ROW(MSG_T_WRITE_US, "Write [µs]", "쓰기 [µs]"),
    /* the tail table's header (the Korean reference writes it in English) */
    ROW(MSG_T_PERCENTILE, "Percentile", "백분위"),
    ROW(MSG_T_RND_READ, "RND Read", "랜덤 읽기"),
    ROW(MSG_T_RND_MIX70, "RND Read 70%", "랜덤 읽기 70%"),
    ROW(MSG_T_RND_WRITE, "RND Write", "랜덤 쓰기"),
    ROW(MSG_T_READ_SHARE, "Read share", "읽기 비율"),
    ROW(MSG_T_DRIVE, "Drive", "드라이브"),
    ROW(MSG_T_SLC_EMPTY, "SLC cache, empty", "SLC캐시 (빈 드라이브)"),
    ROW(MSG_T_SLC_FULL, "SLC cache, near full", "SLC캐시 (거의 가득 참)"),
    ROW(MSG_T_IN_CACHE, "In cache", "캐시 안 속도"),
    ROW(MSG_T_AFTER_CACHE, "After cache", "캐시 이후 속도"),
    ROW(MSG_T_CONFIDENCE, "Confidence", "신뢰도"),
    SAME(MSG_T_CMP_HEAD, "{state} {op:op} [MB/s]"), /* words from parameters ({op:op} is translated) */
    ROW(MSG_T_SEVERITY, "Severity", "수준"),
    ROW(MSG_T_FINDING, "Finding", "내용"),

    ROW(MSG_C_CDM, "CrystalDiskMark-style results", "CrystalDiskMark 결과"),
    ROW(MSG_C_FILL, "Fill drive: sequential write, 128 KiB", "드라이브 채우기: 순차 쓰기, 128 KiB"),
    ROW(MSG_C_FILL_LAT, "Fill drive: latency per GiB written", "드라이브 채우기: 기록량에 따른 평균 지연시간"),
    ROW(MSG_C_RW, "Low QD performance by RW ratio", "읽기 비율에 따른 저QD 성능"),
    ROW(MSG_C_TAIL, "Tail latency", "꼬리 지연시간"),
    ROW(MSG_C_LATENCY, "Latency over time", "시간에 따른 지연시간"),
    ROW(MSG_C_HIST, "Latency histogram", "지연시간 히스토그램"),
    ROW(MSG_C_BARS, "CrystalDiskMark-style {op}, {state}", "CrystalDiskMark {op:op} 비교, {state}"),
    ROW(MSG_C_CDM_SUB, "CrystalDiskMark-style, profile {profile}", "CrystalDiskMark 방식, 프로필 {profile}"),
    ROW(MSG_C_DATA_WRITTEN, "Data written [GiB]", "기록량 [GiB]"),
    ROW(MSG_C_WRITE_TPUT, "Write throughput [MB/s]", "쓰기 속도 [MB/s]"),
    ROW(MSG_C_MEAN_WRITE_LAT, "Mean write latency [µs]", "평균 쓰기 지연시간 [µs]"),
    ROW(MSG_C_READ_SHARE_AX, "Read share [%]  (4 KiB random)", "읽기 비율 [%]  (4 KiB 랜덤)"),
    ROW(MSG_C_THROUGHPUT, "Throughput [MB/s]", "속도 [MB/s]"),
    ROW(MSG_C_PERCENTILE_AX, "Percentile [%]  (4 KiB random, QD1)", "백분위 [%]  (4 KiB 랜덤, QD1)"),
    ROW(MSG_C_LATENCY_AX, "Latency [µs]", "지연시간 [µs]"),
    ROW(MSG_C_TIME_AX, "Time [s]", "시간 [s]"),
    ROW(MSG_C_IOS_PER_BIN, "I/Os per bin", "구간별 I/O 수"),
    ROW(MSG_C_QD1_4K, "(4 KiB random, QD1)", "(4 KiB 랜덤, QD1)"),
    ROW(MSG_SHORT_PAGE_NOTE, "Short review (--short): a trial run, not a measurement", "짧은 리뷰(--short): 실제 측정이 아닌 시험 실행"),
    ROW(MSG_C_MIX_MB_S, "Mix [MB/s]", "혼합 [MB/s]"),
    ROW(MSG_C_FILL_LAT_AX, "Write latency [µs], mean and p99", "쓰기 지연시간 [µs], 평균과 p99"),
    ROW(MSG_C_FILL_TIME, "Fill drive: write speed over time", "드라이브 채우기: 시간에 따른 쓰기 속도"),
    ROW(MSG_C_P99_DASHED, "dashed: p99", "점선: p99"),
    ROW(MSG_C_REWRITE_LEG, "light dashed: rewrite of the full drive", "옅은 점선: 가득 찬 드라이브 재기록"),
    ROW(MSG_C_CLIFF, "cliff", "절벽"),
    ROW(MSG_C_NEAR_FULL, "near full", "거의 가득 참"),
    ROW(MSG_C_QD_AX, "Queue depth  (4 KiB random)", "큐 깊이  (4 KiB 랜덤)"),
    SAME(MSG_C_IOPS_AX, "IOPS"),
    ROW(MSG_C_P99_AX, "p99 latency [µs]", "p99 지연시간 [µs]"),
    ROW(MSG_C_QD_IOPS, "QD scaling: IOPS (plateau ringed)", "QD에 따른 IOPS (포화 지점 원 표시)"),
    ROW(MSG_C_QD_LAT, "QD scaling: p99 latency", "QD에 따른 p99 지연시간"),
    ROW(MSG_C_TEMP, "Drive temperature and write speed", "드라이브 온도와 쓰기 속도"),
    ROW(MSG_C_TEMP_TITLE, "Temperature and write speed during the review — {label}", "리뷰 중 온도와 쓰기 속도 — {label}"),
    ROW(MSG_C_TIME_MIN_AX, "Time [min]", "시간 [분]"),
    ROW(MSG_C_TEMP_AX, "Temperature [°C]", "온도 [°C]"),
    ROW(MSG_C_TEMP_LEGEND, "Temperature (°C, left axis)", "온도 (°C, 왼쪽 축)"),
    ROW(MSG_C_WRITE_LEGEND, "Write MB/s (right axis)", "쓰기 속도 (MB/s, 오른쪽 축)"),
    ROW(MSG_T_NOT_MEASURED, "not measured", "측정하지 않음"),
    ROW(MSG_T_NO_CACHE, "no cache detected", "캐시 감지 안 됨"),
    ROW(MSG_T_NOT_BACK, "none seen after the idle", "유휴 후 캐시 없음"),
    ROW(MSG_T_SMART_HEAD, "SMART Health (start of review)", "SMART 상태 (리뷰 시작 시)"),
    ROW(MSG_T_POWER_ON_HOURS, "Power-On Hours", "사용 시간"),
    ROW(MSG_T_DATA_WRITTEN, "Data Written", "총 기록량"),
    ROW(MSG_T_DATA_READ, "Data Read", "총 읽기량"),
    ROW(MSG_T_MEDIA_ERRORS, "Media Errors", "미디어 오류"),
    ROW(MSG_T_PERCENT_USED, "Percentage Used", "수명 사용률"),
    ROW(MSG_T_AVAILABLE_SPARE, "Available Spare", "예비 공간"),
    ROW(MSG_T_POWER_CYCLES, "Power Cycles", "전원 켜짐 횟수"),
    ROW(MSG_T_UNSAFE_SHUTDOWNS, "Unsafe Shutdowns", "비정상 종료"),
    ROW(MSG_T_CDM_CAPTION_FOB, "CrystalDiskMark-style results — {label}, FOB", "CrystalDiskMark 방식 결과 — {label}, FOB"),
    ROW(MSG_T_CDM_CAPTION_75, "CrystalDiskMark-style results — {label}, 75% filled", "CrystalDiskMark 방식 결과 — {label}, 75% 채움"),

    /* flags: the English forms are analyze/flags.c's "message" texts */
    ROW(MSG_F_RND_READ_PLATEAU,
        "{cell} read {mb_s:0} MB/s < {limit_mb_s:0} MB/s on a {capacity_gb} GB drive ({state}): few dies, queue "
        "depth does not help",
        "{cell} 읽기가 {mb_s:0}MB/s로 {limit_mb_s:0}MB/s를 넘지 못합니다 ({capacity_gb}GB, {state}): 저용량 제품이라 다이 수가 "
        "적어 QD를 높여도 성능이 늘지 않는 병목현상입니다"),
    ROW(MSG_F_FOB_VS_FULL, "{cell} {op} at {state}: {full_mb_s:0} MB/s is {ratio:2}x of FOB {fob_mb_s:0} MB/s (< {min_ratio:1}x)",
        "{cell} {op:op}: {state} 상태에서 {full_mb_s:0}MB/s로 FOB상태 {fob_mb_s:0}MB/s의 {ratio:2}배입니다 (< {min_ratio:1}배)"),
    ROW(MSG_F_WRITE_CLIFF,
        "write cliff after {at_gib:1} GiB: {cache_mb_s:0} MB/s in the SLC cache, {post_cache_mb_s:0} MB/s after",
        "{at_gib:1}GiB 기록 후 쓰기 속도가 떨어집니다: SLC캐시 안에서 {cache_mb_s:0}MB/s, 이후 {post_cache_mb_s:0}MB/s"),
    ROW(MSG_F_SLOW_POST_CACHE,
        "post-cache write speed {post_cache_mb_s:0} MB/s is {ratio:2}x of the cached {cache_mb_s:0} MB/s (< {min_ratio:2}x)",
        "SLC캐시 이후 쓰기 속도 {post_cache_mb_s:0}MB/s는 캐시 안 {cache_mb_s:0}MB/s의 {ratio:2}배입니다 (< {min_ratio:2}배)"),
    ROW(MSG_F_TAIL_BLOWUP, "{workload} tail: p{p} {p_us:1} µs is {ratio:1}x the median {p50_us:1} µs (> {max_ratio:0}x)",
        "{workload:wl} 꼬리 지연시간: p{p} {p_us:1} µs로 중앙값 {p50_us:1} µs의 {ratio:1}배입니다 (> {max_ratio:0}배)"),
    ROW(MSG_F_RW_SWEEP_DIP,
        "RW-ratio sweep QD{qd} dips to {mb_s:1} MB/s at {read_pct:0}% reads, {ratio:2}x of the slower pure workload "
        "({ends_min_mb_s:1} MB/s)",
        "RW 비율별 QD{qd}: 읽기 {read_pct:0}%에서 {mb_s:1}MB/s로 떨어져, 순수 읽기와 순수 쓰기 중 느린 쪽({ends_min_mb_s:1}MB/s)의 "
        "{ratio:2}배입니다"),
    ROW(MSG_F_THERMAL_THROTTLE,
        "throughput fell to {drop_ratio:2}x of its median in {test} while the drive reached {max_c:0} °C (warning "
        "{warn_c:0} °C)",
        "{test}에서 드라이브가 {max_c:0} °C(경고 {warn_c:0} °C)에 이르는 동안 속도가 중앙값의 {drop_ratio:2}배로 떨어졌습니다"),
    ROW(MSG_F_THERMAL_NEAR_WARN,
        "the drive peaked at {max_c:1} °C, {gap_c:1} °C short of its warning temperature {warn_c:1} °C (near: within "
        "{margin_c:0} °C), without a throughput drop outside the fills",
        "드라이브 온도가 최고 {max_c:1} °C로 경고 온도 {warn_c:1} °C보다 {gap_c:1} °C 낮았고(가까움: {margin_c:0} °C 이내) "
        "채우기 밖의 테스트에서 속도 저하는 없었습니다"),
    ROW(MSG_F_THERMAL_OVER_WARN,
        "the drive peaked at {max_c:1} °C, at or above its warning temperature {warn_c:1} °C (by {over_c:1} °C), "
        "without a throughput drop outside the fills",
        "드라이브 온도가 최고 {max_c:1} °C로 경고 온도 {warn_c:1} °C 이상이었고({over_c:1} °C 초과) 채우기 밖의 테스트에서 "
        "속도 저하는 없었습니다"),
    ROW(MSG_F_LINK_BOUND,
        "{cell} {op} {mb_s:0} MB/s is {link_pct:0}% of the {link} link ({link_mb_s:0} MB/s): the host link, not the "
        "drive, is the limit",
        "{cell} {op:op} {mb_s:0}MB/s는 {link} 링크({link_mb_s:0}MB/s)의 {link_pct:0}%입니다: 드라이브가 아니라 호스트 링크가 "
        "한계입니다"),
    ROW(MSG_F_IO_ERRORS, "{test}: {errors:0} I/O errors (excluded from the latency figures)",
        "{test}: I/O 오류 {errors:0}건 (지연시간 수치에서 제외)"),
    ROW(MSG_F_LOG_UNREADABLE, "{test}: {error}", "{test}: 로그를 분석할 수 없습니다 ({error})"),
    ROW(MSG_F_QD_PLATEAU,
        "QD scaling {workload}: IOPS stops growing at QD{qd} ({iops:0} IOPS; up to QD{max_qd} at most {max_iops:0}, < +{gain_pct:0}%)",
        "QD 스케일링 {workload:op}: QD{qd}에서 IOPS 증가가 멈춥니다 ({iops:0} IOPS; QD{max_qd}까지 최대 {max_iops:0}, +{gain_pct:0}% 미만)"),

    ROW(MSG_F_QD_FLAT,
        "QD scaling {workload}: IOPS does not grow past QD{qd} ({iops:0} IOPS; up to QD{max_qd} at most {max_iops:0}, "
        "< +{gain_pct:0}%)",
        "QD 스케일링 {workload:op}: QD{qd}보다 깊은 QD에서 IOPS가 늘지 않습니다 ({iops:0} IOPS; QD{max_qd}까지 최대 "
        "{max_iops:0}, +{gain_pct:0}% 미만)"),
    ROW(MSG_C_THERMAL, "Thermal: sustained write speed and temperature", "발열: 지속 쓰기 속도와 온도"),
    ROW(MSG_C_THERMAL_TITLE, "Sustained sequential write and temperature — {label}", "지속 순차 쓰기와 온도 — {label}"),
    ROW(MSG_C_THERMAL_WRITE_LEG, "Write MB/s (left axis)", "쓰기 속도 (MB/s, 왼쪽 축)"),
    ROW(MSG_C_THERMAL_TEMP_LEG, "Temperature (°C, right axis)", "온도 (°C, 오른쪽 축)"),
    ROW(MSG_C_THROTTLE, "throttle", "스로틀링"),
    ROW(MSG_C_DROP, "drop", "속도 저하"),
    ROW(MSG_T_TH_START_TEMP, "Start temperature", "시작 온도"),
    ROW(MSG_T_TH_PEAK_TEMP, "Peak temperature", "최고 온도"),
    ROW(MSG_T_TH_THROTTLED, "Thermal throttling", "발열 스로틀링"),
    ROW(MSG_T_TH_TIME, "Time to throttle", "스로틀링까지 시간"),
    ROW(MSG_T_TH_AT_TEMP, "Temperature at throttle", "스로틀링 시 온도"),
    ROW(MSG_T_TH_BEFORE, "Speed before", "이전 속도"),
    ROW(MSG_T_TH_AFTER, "Throttled speed", "스로틀링 속도"),
    ROW(MSG_T_TH_MEAN, "Mean speed", "평균 속도"),
    ROW(MSG_T_TH_DROPS, "Other drops (not thermal)", "그 밖의 속도 저하 (발열 아님)"),
    ROW(MSG_T_TH_DROPS_MORE, "and {n:0} smaller", "그 밖에 더 작은 저하 {n:0}건"),
    ROW(MSG_T_TH_SMART, "Drive's throttle counters over the step (TMT1/TMT2)", "이 단계 동안 드라이브 스로틀링 카운터 (TMT1/TMT2)"),
    ROW(MSG_T_TH_DURATION, "Write time", "쓰기 시간"),
    ROW(MSG_F_THERMAL_STEP_THROTTLE,
        "thermal step: the drive throttled after {time_s:1} s of sustained writing at {temp_c:1} °C, from {before_mb_s:0} "
        "MB/s to {throttled_mb_s:0} MB/s (-{throttle_pct:0}%)",
        "발열 테스트: 지속 쓰기 {time_s:1}초 후 {temp_c:1} °C에서 스로틀링이 걸려 속도가 {before_mb_s:0}MB/s에서 "
        "{throttled_mb_s:0}MB/s로 떨어졌습니다 (-{throttle_pct:0}%)"),
    ROW(MSG_C_SS_TITLE, "Steady state (SNIA PTS): IOPS per round", "정상 상태 (SNIA PTS): 라운드별 IOPS"),
    ROW(MSG_C_ROUND_AX, "Round", "라운드"),
    ROW(MSG_C_SS_IOPS, "4 KiB random write IOPS", "4 KiB 랜덤 쓰기 IOPS"),
    ROW(MSG_C_SS_MEAN, "window mean", "측정 구간 평균"),
    ROW(MSG_C_SS_BAND10, "mean ±10%", "평균 ±10%"),
    ROW(MSG_C_SS_BAND20, "mean ±20%", "평균 ±20%"),
    ROW(MSG_C_SS_FIT, "best-fit line", "최소제곱 직선"),
    ROW(MSG_C_CONS_TITLE, "Performance consistency: 4 KiB random write", "성능 일관성: 4 KiB 랜덤 쓰기"),
    ROW(MSG_C_CONS_LOG_TITLE, "Performance consistency: 4 KiB random write (log scale)",
        "성능 일관성: 4 KiB 랜덤 쓰기 (로그 눈금)"),
    ROW(MSG_C_CONS_PER_S, "per second", "1초 단위"),
    ROW(MSG_C_CONS_PER_FINE, "per 100 ms", "100 ms 단위"),
    ROW(MSG_C_CONS_LAT_TITLE, "Performance consistency: p99.9 latency per second", "성능 일관성: 초별 p99.9 지연시간"),
    ROW(MSG_C_P999_AX, "p99.9 latency [µs]", "p99.9 지연시간 [µs]"),
    ROW(MSG_C_CONS_STEADY, "steady region", "정상 구간"),
    ROW(MSG_T_ROUND, "Round", "라운드"),
    ROW(MSG_T_SS_IOPS, "4 KiB random write IOPS", "4 KiB 랜덤 쓰기 IOPS"),
    ROW(MSG_T_IN_WINDOW, "In window", "측정 구간"),
    ROW(MSG_T_SS_REACHED,
        "Steady state reached at round {round} (window rounds {first}-{last}): mean {mean:0} IOPS, range {range_pct:1}% "
        "(limit 20%), best-fit excursion {excursion_pct:1}% (limit 10%).",
        "{round}라운드에서 정상 상태에 도달했습니다 (측정 구간 {first}-{last}라운드): 평균 {mean:0} IOPS, 범위 {range_pct:1}% "
        "(한도 20%), 최소제곱 직선 변화폭 {excursion_pct:1}% (한도 10%)."),
    ROW(MSG_T_SS_NOT_REACHED,
        "Steady state not reached in {rounds} rounds: the last window's range is {range_pct:1}% (limit 20%), its "
        "best-fit excursion {excursion_pct:1}% (limit 10%).",
        "{rounds}라운드 안에 정상 상태에 도달하지 못했습니다: 마지막 구간의 범위 {range_pct:1}% (한도 20%), 최소제곱 직선 "
        "변화폭 {excursion_pct:1}% (한도 10%)."),
    ROW(MSG_T_SS_MATRIX, "IOPS matrix (mean over the measurement window)", "IOPS 매트릭스 (측정 구간 평균)"),
    ROW(MSG_T_READ_PCT, "Read %", "읽기 %"),
    ROW(MSG_T_BLOCK, "Block", "블록"),
    ROW(MSG_T_CONS_WHAT, "Steady region", "정상 구간"),
    ROW(MSG_T_CONS_VALUE, "Value", "값"),
    ROW(MSG_T_CONS_REGION, "Seconds", "구간 [s]"),
    ROW(MSG_T_CONS_MEAN, "Mean IOPS", "평균 IOPS"),
    ROW(MSG_T_CONS_MIN, "Lowest second, IOPS", "가장 낮은 1초 IOPS"),
    ROW(MSG_T_CONS_P1, "1% low (per second), IOPS", "하위 1% (1초 단위) IOPS"),
    ROW(MSG_T_CONS_FINE_MIN, "Lowest 100 ms, IOPS", "가장 낮은 100 ms IOPS"),
    ROW(MSG_T_CONS_COV, "Stddev / mean", "표준편차 / 평균"),
    ROW(MSG_T_CONS_BELOW, "Seconds below half the mean", "평균의 절반 미만인 초"),
    ROW(MSG_T_CONS_P999, "p99.9 latency per second, mean / max [µs]", "초별 p99.9 지연시간, 평균 / 최대 [µs]"),
    ROW(MSG_T_CONS_ONSET, "Fresh-drive burst ends (GC onset)", "초기 고속 구간 종료 (GC 시작)"),
    ROW(MSG_T_CONS_NO_BURST, "no burst: GC-bound from the start", "고속 구간 없음: 처음부터 GC 속도"),
    ROW(MSG_F_NOT_STEADY,
        "steady state (SNIA PTS) not reached in {rounds} rounds: the last window's range is {range_pct:1}% (limit "
        "{range_limit_pct:0}%) and its best-fit excursion {excursion_pct:1}% (limit {excursion_limit_pct:0}%) of its mean",
        "{rounds}라운드 안에 정상 상태(SNIA PTS)에 도달하지 못했습니다: 마지막 구간의 범위가 평균의 {range_pct:1}% (한도 "
        "{range_limit_pct:0}%), 최소제곱 직선 변화폭이 {excursion_pct:1}% (한도 {excursion_limit_pct:0}%)입니다"),
    ROW(MSG_F_NOT_STEADY_FEW,
        "steady state (SNIA PTS) not judged: the step ran {rounds} rounds, fewer than its {window_rounds}-round window",
        "정상 상태(SNIA PTS)를 판정하지 못했습니다: 단계가 {rounds}라운드만 실행되어 측정 구간 {window_rounds}라운드보다 "
        "적습니다"),
    ROW(MSG_F_NOT_STEADY_ZERO,
        "steady state (SNIA PTS) not reached in {rounds} rounds: the last window's mean is {mean_iops:0} IOPS, so its "
        "range has no share of it",
        "{rounds}라운드 안에 정상 상태(SNIA PTS)에 도달하지 못했습니다: 마지막 구간의 평균이 {mean_iops:0} IOPS라 범위를 "
        "평균에 대한 비율로 나타낼 수 없습니다"),
    ROW(MSG_F_PRE_STEADY,
        "{section:sec} was measured before the drive was steady: {had_gib:2} GiB of random writes since the last "
        "fill, where the steady-state step needed {needed_gib:2} GiB",
        "{section:sec} 결과는 정상 상태 이전에 측정되었습니다: 마지막 채우기 이후 랜덤 쓰기 {had_gib:2}GiB, 정상 상태 "
        "단계는 {needed_gib:2}GiB가 필요했습니다"),
    ROW(MSG_F_PRE_STEADY_NONE,
        "{section:sec} was measured before the drive was steady: no random writes since the last fill, where the "
        "steady-state step needed {needed_gib:2} GiB",
        "{section:sec} 결과는 정상 상태 이전에 측정되었습니다: 마지막 채우기 이후 랜덤 쓰기가 없었고, 정상 상태 단계는 "
        "{needed_gib:2}GiB가 필요했습니다"),
    ROW(MSG_FD_SEC_CDM_FILL, "the CrystalDiskMark profile at {state} filled", "{state} 채움 상태의 CrystalDiskMark 방식"),
    ROW(MSG_FD_SEC_CDM_STATE, "the CrystalDiskMark profile in the {state} state", "{state} 상태의 CrystalDiskMark 방식"),
    ROW(MSG_FD_SEC_TAIL, "the QD1 tail latency", "QD1 꼬리 지연시간"),
    ROW(MSG_F_CONSISTENCY_DROPS,
        "{test}: in the steady region {below_pct:1}% of the seconds fall below {drop_pct:0}% of the mean {mean_iops:0} "
        "IOPS (more than {share_pct:0}%)",
        "{test}: 정상 구간에서 {below_pct:1}%의 초가 평균 {mean_iops:0} IOPS의 {drop_pct:0}% 아래로 떨어집니다 "
        "({share_pct:0}% 초과)"),
    ROW(MSG_MISS_FILL_TIME, "run '{run}' has no fill series over time (analysis fill.per_sec)",
        "'{run}'에 드라이브 채우기의 시간별 쓰기 속도가 없습니다 (분석 항목 fill.per_sec)"),
    ROW(MSG_MISS_TEMP, "run '{run}' has no temperature samples (analysis temperature)",
        "'{run}'에 온도 기록이 없습니다 (분석 항목 temperature)"),
    ROW(MSG_MISS_QD, "run '{run}' has no queue-depth scaling (analysis qd_scaling)",
        "'{run}'에 QD 스케일링 결과가 없습니다 (분석 항목 qd_scaling)"),
    ROW(MSG_MISS_CDM_OP, "run '{run}' has no CrystalDiskMark {arg:op} results",
        "'{run}'에 CrystalDiskMark {arg:op} 결과가 없습니다"),
    ROW(MSG_T_CAPACITY, "Capacity", "용량"),
    ROW(MSG_T_HOST_OS, "Test OS", "테스트 OS"),
    ROW(MSG_T_NOT_IN_SOURCE, "Not in the source data: {fields}.", "원본 데이터에 없는 항목: {fields}."),
    ROW(MSG_T_CDM_NO_LAT, "(The file gives no latencies: CrystalDiskMark 6 and older write none.)",
        "(원본 파일에 지연시간이 없습니다: CrystalDiskMark 6 이하는 기록하지 않습니다.)"),
    /* product terms: CrystalDiskMark's own names in both languages */
    SAME(MSG_C_PROF_DEFAULT, "Default"),
    SAME(MSG_C_PROF_NVME, "NVMe SSD"),
    SAME(MSG_C_PROF_PEAK, "Peak Performance"),
    SAME(MSG_C_PROF_REAL, "Real World Performance"),
    SAME(MSG_C_PROF_DEMO, "Demo"),

    /* the batch compare report (render/compare/): printf formats, the same
     * conversions in both forms */
    ROW(MSG_CM_TITLE, "Batch comparison",
        "일괄 비교"),
    ROW(MSG_CM_INTRO, "%s runs in %s groups. Each figure is the group's median; the spread (n, min, median, max) is shown for groups of several runs.",
        "실행 %s개, 그룹 %s개. 각 수치는 그룹의 중앙값이며, 실행이 여러 개인 그룹은 분포(n, 최소, 중앙값, 최대)를 함께 보입니다."),
    ROW(MSG_CM_BASELINE_IS, "Ratios (x) are against the baseline group **%s**",
        "비율(x)은 기준 그룹 **%s** 대비입니다"),
    ROW(MSG_CM_BASELINE_RULE_GIVEN, " (chosen with --baseline).",
        " (--baseline으로 지정)."),
    ROW(MSG_CM_BASELINE_RULE_AUTO, " (the group with a known model and the most headline figures, then the most runs).",
        " (모델이 알려진 그룹 중 주요 수치가 가장 많고, 다음으로 실행이 가장 많은 그룹)."),
    ROW(MSG_CM_FILTERS, "Filters: %s.",
        "필터: %s."),
    ROW(MSG_CM_NO_FILTERS, "No filters.",
        "필터 없음."),
    ROW(MSG_CM_GROUPS, "Groups",
        "그룹"),
    ROW(MSG_CM_RUNS, "Runs",
        "실행"),
    ROW(MSG_CM_RUNS_ELIDED, "%s runs: the list is in runs.csv.",
        "실행 %s개: 목록은 runs.csv에 있습니다."),
    ROW(MSG_CM_COL_GROUP, "Group",
        "그룹"),
    ROW(MSG_CM_COL_MODEL, "Model",
        "모델"),
    ROW(MSG_CM_COL_FIRMWARE, "Firmware",
        "펌웨어"),
    ROW(MSG_CM_COL_STATE, "State",
        "상태"),
    ROW(MSG_CM_COL_RUNS, "Runs",
        "실행 수"),
    ROW(MSG_CM_COL_LABEL, "Run",
        "실행"),
    ROW(MSG_CM_COL_SOURCE, "Source",
        "출처"),
    ROW(MSG_CM_COL_DATE, "Date",
        "날짜"),
    ROW(MSG_CM_COL_SIMULATED, "Simulated",
        "시뮬레이션"),
    ROW(MSG_CM_COL_RANK, "#",
        "#"),
    SAME(MSG_CM_COL_N, "n"),
    ROW(MSG_CM_COL_MIN, "Min",
        "최소"),
    ROW(MSG_CM_COL_MEDIAN, "Median",
        "중앙값"),
    ROW(MSG_CM_COL_MAX, "Max",
        "최대"),
    ROW(MSG_CM_COL_RATIO, "vs baseline",
        "기준 대비"),
    ROW(MSG_CM_YES, "yes",
        "예"),
    ROW(MSG_CM_NO, "no",
        "아니요"),
    ROW(MSG_CM_BASELINE_MARK, " (baseline)",
        " (기준)"),
    ROW(MSG_CM_UNKNOWN_MODEL, "%s (model unknown)",
        "%s (모델 미상)"),
    ROW(MSG_CM_UNKNOWN_FIRMWARE, "firmware unknown",
        "펌웨어 미상"),
    SAME(MSG_CM_FAM_CDM, "CrystalDiskMark"),
    ROW(MSG_CM_FAM_SLC, "SLC cache",
        "SLC캐시"),
    ROW(MSG_CM_FAM_RW, "Read/write ratio sweep",
        "읽기/쓰기 비율 스윕"),
    ROW(MSG_CM_FAM_TAIL, "Tail latency",
        "꼬리 지연시간"),
    ROW(MSG_CM_FAM_TESTS, "Tests",
        "개별 테스트"),
    ROW(MSG_CM_READ, "read",
        "읽기"),
    ROW(MSG_CM_WRITE, "write",
        "쓰기"),
    ROW(MSG_CM_MIX, "mix",
        "혼합"),
    ROW(MSG_CM_SLC_MAX, "SLC cache size (largest)",
        "SLC캐시 크기 (최대)"),
    ROW(MSG_CM_SLC_MIN, "SLC cache size (smallest)",
        "SLC캐시 크기 (최소)"),
    ROW(MSG_CM_SLC_CACHE, "Write speed in the SLC cache",
        "SLC캐시 내 쓰기 속도"),
    ROW(MSG_CM_SLC_POST, "Write speed after the SLC cache",
        "SLC캐시 소진 후 쓰기 속도"),
    ROW(MSG_CM_RW_POINT, "4K random %s, %s%% read",
        "4K 랜덤 %s, 읽기 %s%%"),
    ROW(MSG_CM_TAIL_W_READ, "read",
        "읽기"),
    ROW(MSG_CM_TAIL_W_MIX, "70/30 mix",
        "70/30 혼합"),
    ROW(MSG_CM_TAIL_W_WRITE, "write",
        "쓰기"),
    ROW(MSG_CM_MEAN, "mean",
        "평균"),
    ROW(MSG_CM_MAXLAT, "max",
        "최대"),
    ROW(MSG_CM_OTHER_FIGS, "The other %s figures (IOPS, latencies, all sweep points, every percentile) are in compare.csv, groups.csv and compare.xlsx.",
        "나머지 수치 %s개(IOPS, 지연시간, 모든 스윕 지점, 모든 백분위)는 compare.csv, groups.csv, compare.xlsx에 있습니다."),
    ROW(MSG_CM_CHART_TOP, "the best %s of %s groups",
        "그룹 %2$s개 중 상위 %1$s개"),
    ROW(MSG_CM_HIGHER_BETTER, "higher is better",
        "높을수록 좋음"),
    ROW(MSG_CM_LOWER_BETTER, "lower is better",
        "낮을수록 좋음"),
    ROW(MSG_CM_SIMULATED_NOTE, "Groups marked (sim) are simulated drives, not measurements of hardware.",
        "(sim) 표시 그룹은 실제 하드웨어 측정이 아닌 시뮬레이션 드라이브입니다."),
    ROW(MSG_CM_SPREAD_NOTE, "Bars are group medians, ranked best first; whiskers span min to max.",
        "막대는 그룹 중앙값(좋은 순), 수염은 최소~최대 범위입니다."),
    ROW(MSG_CM_NO_BASELINE_VALUE, "-",
        "-"),
    ROW(MSG_CM_SHEET_RUNS, "Runs", "실행"),
    ROW(MSG_CM_SHEET_GROUPS, "Groups", "그룹"),
    ROW(MSG_CM_LATENCY, " latency", " 지연"),
    ROW(MSG_CM_TAIL_LAT, "QD1 %s latency %s", "QD1 %s 지연 %s"),
    /* compare statistics, overview and gate (issue 25) */
    ROW(MSG_CM_OVERVIEW, "Overview", "요약"),
    ROW(MSG_CM_OVERVIEW_NOTE,
        "Each cell: the group's median, its spread (± coefficient of variation; none: one value) and its mean's difference "
        "to the baseline's ± the half-width of Welch's 95% interval. **Bold**: beyond the noise (Welch's t test, p < 0.05); ≈: "
        "within the noise, or a group of one value (never tested).",
        "각 칸: 그룹의 중앙값, 분포(± 변동계수; 없으면 값 하나), 평균의 기준 그룹 대비 차이 ± Welch 95% 구간의 반폭. "
        "**굵게**: 잡음 이상의 차이(Welch t 검정, p < 0.05); ≈: 잡음 이내이거나 값이 하나인 그룹(검정하지 않음)."),
    ROW(MSG_CM_OVERVIEW_TOP, "The overview shows %s of %s groups (the baseline and the best-scored; at most 6, so that it fits one page); "
        "the others follow under “Other groups”, and groups.csv has all.",
        "요약은 그룹 %2$s개 중 %1$s개(기준 그룹과 점수가 높은 그룹; 한 쪽에 들어가도록 최대 6개)를 보입니다. 나머지는 "
        "“나머지 그룹”에, 전체는 groups.csv에 있습니다."),
    ROW(MSG_CM_COL_TEST, "Test", "테스트"),
    ROW(MSG_CM_SCORE, "Relative score", "상대 점수"),
    ROW(MSG_CM_SCORE_NOTE,
        "Relative score: the geometric mean, over %s headline figures, of each group's median divided by the "
        "baseline's (inverted for latency, so above 1 is better), as Phoronix Test Suite and SPEC summarize; a group "
        "scores over the figures it shares with the baseline.",
        "상대 점수: 대표 수치 %s개에 걸친, 그룹 중앙값을 기준 그룹 중앙값으로 나눈 비의 기하평균입니다(지연은 역수: 1보다 "
        "크면 더 좋음). Phoronix Test Suite와 SPEC의 요약 방식이며, 기준 그룹과 공통인 수치만 셉니다."),
    ROW(MSG_CM_COL_MEAN, "Mean", "평균"),
    ROW(MSG_CM_COL_SD, "Std. dev.", "표준편차"),
    ROW(MSG_CM_COL_CV, "CV", "변동계수"),
    ROW(MSG_CM_COL_CI, "95% interval", "95% 구간"),
    ROW(MSG_CM_COL_DIFF, "vs baseline", "기준 대비"),
    ROW(MSG_CM_COL_DIFF_CI, "95% interval of the difference", "차이의 95% 구간"),
    SAME(MSG_CM_COL_P, "p (Welch)"),
    ROW(MSG_CM_STATS_NOTE,
        "Statistics: the 95% interval of a group's mean is Student's t (mean ± t·s/√n); a difference is the mean's, "
        "in % of the baseline's mean, with Welch's 95% interval; it is beyond the noise when Welch's two-sided t test "
        "gives p < 0.05, and never with one value on either side (the values: one per run, or a review's CDM passes).",
        "통계: 그룹 평균의 95% 구간은 Student t 구간(평균 ± t·s/√n)입니다. 차이는 평균의 차이를 기준 그룹 평균의 %로 "
        "나타내며 Welch 95% 구간을 함께 보입니다. Welch 양측 t 검정에서 p < 0.05이면 잡음 이상의 차이이고, 어느 한쪽이 "
        "값이 하나이면 검정하지 않습니다(값: 실행마다 하나, 또는 리뷰의 CDM 패스)."),
    ROW(MSG_CM_GATE, "Gate", "게이트"),
    ROW(MSG_CM_GATE_PASS, "Passed: no headline figure of any group is worse than the baseline's by more than %s%% and beyond the noise.",
        "통과: 어느 그룹의 대표 수치도 기준 그룹보다 %s%% 넘게, 잡음 이상으로 나쁘지 않습니다."),
    ROW(MSG_CM_GATE_FAIL, "Failed: figures worse than the baseline's by more than %2$s%% and beyond the noise: %1$s.",
        "실패: 기준 그룹보다 %2$s%% 넘게, 잡음 이상으로 나쁜 수치: %1$s개."),
    ROW(MSG_CM_WITHIN_NOISE, "within the noise", "잡음 이내"),
    ROW(MSG_CM_BEYOND_NOISE, "beyond the noise", "잡음 이상"),
    ROW(MSG_CM_METHOD_SYSTEM, "Method and system", "방법과 시스템"),
    ROW(MSG_CM_COL_METHOD, "Method", "방법"),
    ROW(MSG_CM_COL_ENGINE, "Engine", "엔진"),
    ROW(MSG_CM_COL_VERSION, "ssdrev version", "ssdrev 버전"),
    ROW(MSG_CM_COL_KERNEL, "Kernel / OS", "커널 / OS"),
    ROW(MSG_CM_COL_MEASURED, "Measured", "측정일"),
    ROW(MSG_CM_IMPORT_DATE, "import date", "가져온 날짜"),
    ROW(MSG_CM_COMMON, "Every group shares: %s.", "모든 그룹 공통: %s."),
    ROW(MSG_CM_METHOD_NOTE,
        "Methods: reference is the reference review's (profiles/review.json), full the full method "
        "(profiles/review-full.json), short a --short run (small regions and short measuring times, not comparable "
        "with full runs); an import is named by its source. A review's date is its start; an import's is when it was "
        "measured where the import recorded it, else the day it was imported (marked \"import date\"). Each cell "
        "lists every value the group's runs have.",
        "방법: reference는 기준 리뷰 방법(profiles/review.json), full은 전체 방법(profiles/review-full.json), short는 "
        "--short 실행(작은 영역과 짧은 측정 시간으로 전체 실행과 비교할 수 없음)이며, 가져온 결과는 출처로 표시합니다. "
        "리뷰의 날짜는 시작 시각이고, 가져온 결과는 기록된 측정 시각, 없으면 가져온 날짜(\"가져온 날짜\" 표시)입니다. "
        "각 칸에는 그룹의 실행이 가진 모든 값을 나열합니다."),
    ROW(MSG_CM_XL_RUN, "run", "실행 디렉터리"),
    ROW(MSG_CM_XL_BASELINE, "baseline", "기준"),
    ROW(MSG_CM_XL_FAMILY, "family", "계열"),
    ROW(MSG_CM_XL_METRIC, "metric", "지표"),
    ROW(MSG_CM_XL_UNIT, "unit", "단위"),
    ROW(MSG_CM_XL_CI_LO, "ci95_lo", "95% 구간 하한"),
    ROW(MSG_CM_XL_CI_HI, "ci95_hi", "95% 구간 상한"),
    ROW(MSG_CM_XL_BEYOND, "beyond_noise", "잡음 이상"),
    ROW(MSG_CM_PROF_DEFAULT, "default", "기본"),
    ROW(MSG_CM_PROF_PEAK, "peak", "최대 성능"),
    ROW(MSG_CM_PROF_REAL, "real", "실사용"),
    ROW(MSG_CM_PROF_DEMO, "demo", "데모"),
    ROW(MSG_CM_SHORT_MARK, " (short)", " (짧은 실행)"),
    ROW(MSG_CM_SHORT_NOTE,
        "Groups marked (short) hold --short runs (small regions, short measuring times): their figures are not those "
        "of a full run; they are shown, but not ranked or scored against full runs (--rank-short ranks them).",
        "(짧은 실행) 표시 그룹은 --short 실행(작은 영역, 짧은 측정 시간)을 포함하므로 수치가 전체 실행의 것이 아닙니다. "
        "표시는 하지만 전체 실행과 함께 순위를 매기지 않습니다(--rank-short로 순위에 넣을 수 있음)."),
    ROW(MSG_CM_FAM_QD, "QD scaling", "QD 스케일링"),
    ROW(MSG_CM_FAM_STEADY, "Steady state", "정상 상태"),
    ROW(MSG_CM_FAM_CONS, "Consistency", "일관성"),
    ROW(MSG_CM_FAM_THERMAL, "Thermal", "발열"),
    ROW(MSG_CM_FAM_RECOVERY, "Cache recovery", "캐시 회복"),
    SAME(MSG_CM_QD_POINT, "%s QD%s"),
    ROW(MSG_CM_M_MEAN_IOPS, "mean IOPS", "평균 IOPS"),
    ROW(MSG_CM_M_RANGE, "range over the window", "창 내 범위"),
    ROW(MSG_CM_M_P1_IOPS, "1st-percentile IOPS", "하위 1% IOPS"),
    ROW(MSG_CM_M_COV, "variation (CV)", "변동(CV)"),
    ROW(MSG_CM_M_P999_MAX, "worst p99.9 latency", "최악 p99.9 지연"),
    ROW(MSG_CM_M_MEAN_MBS, "mean write speed", "평균 쓰기 속도"),
    ROW(MSG_CM_M_PEAK_TEMP, "peak temperature", "최고 온도"),
    ROW(MSG_CM_M_RECOVERED, "Cache recovered after %s idle", "%s 유휴 후 회복된 캐시"),
    ROW(MSG_CM_CURVES, "Curves across groups", "그룹별 곡선"),
    ROW(MSG_CM_CURVES_NOTE,
        "Each line is a group's median at each point (the groups of the overview that have the curve); thin pale "
        "lines are a group's runs (at most 20 a group). Over time, a point is the mean of a step (1 s to 1 h, at most "
        "30 steps a test), at the step's end.",
        "각 선은 지점마다의 그룹 중앙값입니다(요약 표의 그룹 중 그 곡선이 있는 그룹). 가늘고 옅은 선은 그룹의 각 "
        "실행입니다(그룹당 최대 20개). 시간 축의 점은 한 구간(1초~1시간, 시험당 최대 30구간)의 평균이며 구간 끝에 "
        "찍습니다."),
    ROW(MSG_CM_OV_QD, "QD scaling, %s", "QD 스케일링, %s"),
    ROW(MSG_CM_OV_TAIL, "QD1 %s latency by percentile", "QD1 %s 백분위별 지연"),
    ROW(MSG_CM_AX_QD, "queue depth", "큐 깊이"),
    ROW(MSG_CM_AX_PCT, "percentile [%]", "백분위 [%]"),
    ROW(MSG_CM_M_FILL_AT, "Fill: write speed at %s%% written", "채우기: %s%% 기록 시점의 쓰기 속도"),
    ROW(MSG_CM_M_ROUND, "Steady state: round %s", "정상 상태: %s회차"),
    ROW(MSG_CM_OV_FILL, "Whole-drive fill: write speed", "전체 채우기: 쓰기 속도"),
    ROW(MSG_CM_OV_STEADY, "Steady state: IOPS per round", "정상 상태: 회차별 IOPS"),
    ROW(MSG_CM_AX_FILLED, "share of the fill written [%]", "기록한 채우기 비율 [%]"),
    ROW(MSG_CM_AX_ROUND, "round", "회차"),
    ROW(MSG_CM_OV_PICK,
        "Rows: CrystalDiskMark read and write MB/s at FOB, default profile (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1), the "
        "fill's write speed after the SLC cache and the QD1 read p99.99 latency, where measured (without any of them: "
        "the first %s headline figures); every headline figure is in its section below and in the score.",
        "행: FOB 상태, 기본 프로필 CrystalDiskMark 읽기·쓰기 MB/s(SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1), SLC 캐시 "
        "이후 채우기 쓰기 속도, QD1 읽기 p99.99 지연(측정된 경우; 모두 없으면 처음 %s개 대표 수치). 모든 대표 수치는 "
        "아래 각 절과 점수에 있습니다."),
    ROW(MSG_CM_OV_REST, "Other groups", "나머지 그룹"),
    ROW(MSG_CM_OV_CONS, "Consistency: IOPS over time (%s)", "일관성: 시간별 IOPS (%s)"),
    ROW(MSG_CM_OV_TH_MBS, "Thermal: write speed over time (%s)", "발열: 시간별 쓰기 속도 (%s)"),
    ROW(MSG_CM_OV_TH_TEMP, "Thermal: temperature over time (%s)", "발열: 시간별 온도 (%s)"),
    ROW(MSG_CM_AX_TIME, "time [s]", "시간 [s]"),
    ROW(MSG_CM_AX_TIME_MIN, "time [min]", "시간 [분]"),
    ROW(MSG_CM_AX_TEMP, "temperature [°C]", "온도 [°C]"),
    ROW(MSG_CM_M_AT_S, "%s at %s s", "%2$s초 시점 %1$s"),
    ROW(MSG_CM_M_WRITE_SPEED, "write speed", "쓰기 속도"),
    ROW(MSG_CM_M_TEMP, "temperature", "온도"),
    ROW(MSG_CM_GATE_UNTESTED,
        "Not tested: no headline figure could be tested against the baseline (each side needs at least 2 samples of a "
        "figure both have), so the gate of %s%% says nothing.",
        "검정하지 못함: 기준선과 비교해 검정할 수 있는 대표 수치가 없어(양쪽 모두 같은 수치의 표본이 2개 이상 필요) %s%% "
        "게이트는 아무것도 판정하지 않습니다."),
    ROW(MSG_CM_GATE_SOME_UNTESTED, "Not tested (fewer than 2 samples of any figure shared with the baseline): %s.",
        "검정하지 못한 그룹(기준선과 공유하는 수치의 표본이 2개 미만): %s."),

    ROW(MSG_W_WARNING, "warning", "경고"),
    ROW(MSG_W_NOTE, "note", "참고"),
    ROW(MSG_W_NOT_MEASURED, "{where}: not measured: {why}", "{where}: 측정되지 않음: {why}"),
    ROW(MSG_W_SKIPPING, "skipping '{path}': {why}", "'{path}' 건너뜀: {why}"),
    ROW(MSG_W_REANALYZED, "analyzed '{dir}' first (its analysis.json was missing or stale) and wrote '{out}'",
        "'{dir}'의 analysis.json이 없거나 오래되어 먼저 분석했고 '{out}'에 썼습니다"),
    ROW(MSG_W_REANALYZED_MEM,
        "analyzed '{dir}' in memory (its analysis.json was missing or stale, and the archive is read-only: nothing "
        "was written into it)",
        "'{dir}'의 analysis.json이 없거나 오래되어 메모리에서 분석했습니다 (읽기 전용 아카이브라 아무것도 쓰지 않았습니다)"),
    ROW(MSG_W_READ_ONLY, "'{dir}' is read-only ({why}): analyzed in memory, analysis.json not written",
        "'{dir}' 디렉터리는 읽기 전용입니다 ({why}): 메모리에서 분석했고 analysis.json은 쓰지 않았습니다"),
    ROW(MSG_W_CDM_TWICE, "'{input}': cell {cell} appears twice; the second is ignored",
        "'{input}': {cell} 셀이 두 번 나옵니다. 두 번째는 무시합니다"),
    ROW(MSG_W_CDM_ZERO, "'{input}': cell {cell} is 0 MB/s (not run); skipped",
        "'{input}': {cell} 셀이 0 MB/s(실행되지 않음)여서 건너뜁니다"),
    ROW(MSG_W_FIO_SHORT_LOG, "'{input}' job {job}: log {log} holds {n} I/Os, fio counted {m} (fio {ver})",
        "'{input}' 작업 {job}: 로그 {log}에는 I/O가 {n}개이지만 fio는 {m}개로 셌습니다 (fio {ver})"),
    ROW(MSG_W_FIO_NO_LOG, "'{input}' job {job}: no latency log {log} found (see --logs)",
        "'{input}' 작업 {job}: 지연시간 로그 {log}를 찾지 못했습니다 (--logs 참고)"),
    ROW(MSG_W_AN_SUMMARIZED, "{n} of {m} tests are summarized above (their statistics: --verbose)",
        "테스트 {m}개 중 {n}개는 위 표에 요약되어 있습니다 (각 테스트의 통계: --verbose)"),
    ROW(MSG_W_AN_FEW, "{n} percentiles in {m} tests rest on fewer than 10 samples, marked (!) (listed with --verbose)",
        "테스트 {m}개의 백분위수 {n}개는 표본이 10개 미만이라 (!)로 표시했습니다 (목록: --verbose)"),
    ROW(MSG_W_AN_REST, "{what} rests on {k} samples (< {min})", "{what}: 표본 {k}개에 근거한 값입니다 (< {min})"),
    ROW(MSG_MISS_RECOVERY, "run '{run}' has no cache recovery (analysis cache_recovery)",
        "'{run}'에 유휴 후 캐시 회복 결과가 없습니다 (분석 항목 cache_recovery)"),
    ROW(MSG_MISS_RECOVERY_NONE,
        "run '{run}': its cache-recovery writes stayed in the SLC cache (the exhausting write found no cliff), so no "
        "recovery could be measured",
        "'{run}': 캐시 회복 시험의 쓰기가 SLC캐시 안에 머물러(캐시를 소진할 쓰기에서 절벽이 없음) 회복을 측정할 수 "
        "없습니다"),
    ROW(MSG_C_RECOVERY, "Cache recovery after idle: recovered SLC cache", "유휴 후 SLC캐시 회복"),
    ROW(MSG_C_IDLE_AX, "Idle time before the write [s]  (log)", "쓰기 전 유휴 시간 [s]  (로그)"),
    ROW(MSG_C_RECOVERED_AX, "Recovered SLC cache [GiB]", "회복된 SLC캐시 [GiB]"),
    ROW(MSG_C_AT_LEAST_LEG, "open marker: at least (the write ended in the cache)",
        "빈 표시: 최소값 (쓰기가 캐시 안에서 끝남)"),
    ROW(MSG_T_IDLE, "Idle", "유휴 시간"),
    ROW(MSG_T_RECOVERED, "Recovered cache", "회복된 캐시"),
    ROW(MSG_T_RECOVERY_NOTE,
        "Recovered: the SLC cache a sequential write until the cliff found after the idle (the drive's cache exhausted "
        "before each idle); ≥: the write reached its bound still in the cache; 0: it ran at the post-cache speed from "
        "the start (less than the 1/16 GiB the write buffer hides came back). %: of the most any idle gave.",
        "회복된 캐시: 캐시를 소진한 뒤 유휴 시간을 두고 절벽까지 순차 쓰기를 해 찾은 SLC캐시 크기입니다. ≥: 쓰기가 상한에 "
        "이를 때까지 캐시 안이었음; 0: 처음부터 캐시 이후 속도였음(쓰기 버퍼가 가리는 1/16 GiB 미만 회복). %: 가장 많이 "
        "회복된 유휴 시간 대비."),
    ROW(MSG_T_NEAR_FULL_IDLE,
        "{label}: the near-full figure is limited by its idle: after {idle_s:0} s the cache had recovered {gib:2} GiB, "
        "after {later_idle_s:0} s {later_gib:2} GiB (cache recovery).",
        "{label}: 거의 가득 찬 상태의 수치는 유휴 시간의 한계입니다: {idle_s:0}초 후 {gib:2}GiB, {later_idle_s:0}초 후 "
        "{later_gib:2}GiB가 회복되었습니다 (유휴 후 캐시 회복)."),
    ROW(MSG_T_NEAR_FULL_IDLE_NONE,
        "{label}: the near-full figure is limited by its idle: after {idle_s:0} s the cache had recovered nothing, "
        "after {later_idle_s:0} s {later_gib:2} GiB (cache recovery).",
        "{label}: 거의 가득 찬 상태의 수치는 유휴 시간의 한계입니다: {idle_s:0}초 후에는 회복된 캐시가 없었고, "
        "{later_idle_s:0}초 후 {later_gib:2}GiB가 회복되었습니다 (유휴 후 캐시 회복)."),
    ROW(MSG_F_SLOW_RECOVERY,
        "cache recovers slowly: {recovered_gib:2} GiB of {ref_gib:2} GiB ({pct:0}%) after {idle_s:0} s idle (< {min_pct:0}%)",
        "SLC캐시 회복이 느립니다: {idle_s:0}초 유휴 후 {ref_gib:2}GiB 중 {recovered_gib:2}GiB({pct:0}%)만 회복되었습니다 "
        "({min_pct:0}% 미만)"),
    ROW(MSG_T_SECONDS, "{v} s", "{v}초"),
    ROW(MSG_T_MINUTES, "{v} min", "{v}분"),
    ROW(MSG_T_CLAT_NOTE, "Latency: fio's completion latency (clat), without the submission time.",
        "지연시간: fio의 완료 지연시간(clat)이며 제출 시간은 제외됩니다."),
    ROW(MSG_T_FEW_SAMPLES, "Too few samples: fewer than 10 I/Os lie at or beyond this percentile, so the value is a guess.",
        "표본 부족: 이 백분위수 이상인 I/O가 10개 미만이라 값은 추정치일 뿐입니다."),
    ROW(MSG_T_OTHER_WORKLOADS, "{label} — other workloads", "{label} — 그 밖의 작업"),
    ROW(MSG_T_WORKLOAD, "Workload", "워크로드"),
    ROW(MSG_T_MEAN_US, "Mean [µs]", "평균 [µs]"),
    ROW(MSG_T_RANDOM, "random", "랜덤"),
    ROW(MSG_T_SEQUENTIAL, "sequential", "순차"),
    ROW(MSG_T_READ_PCT_OF, "{pct}% read", "읽기 {pct}%"),
    ROW(MSG_T_QD_READ, "Read", "읽기"),
    ROW(MSG_T_QD_WRITE, "Write", "쓰기"),
    ROW(MSG_T_QD_MEAN, "{op} mean [µs]", "{op} 평균 [µs]"),
    ROW(MSG_T_QD_PLATEAU_NOTE, "Bold IOPS: the first QD that no deeper QD beats by more than 10% (the plateau).",
        "굵은 IOPS: 더 깊은 QD에서 10% 넘게 늘지 않는 첫 QD(포화점)."),
    /* ------------------------------------------------ findings (findings.c, issue 27) */
    ROW(MSG_FD_WEAK_SHORT, " Weak evidence: a `--short` trial run.", " `--short` 시험 실행이라 근거가 약합니다."),
    ROW(MSG_FD_CDM_LEAD,
        "{cell} {op:op} ({state}): {lead} leads with {lead_mb_s:0} MB/s, {pct:0}% ahead of {next} ({next_mb_s:0} MB/s; "
        "a gap under 3% counts as even).",
        "{cell} {op:op} ({state}): {lead:이} {lead_mb_s:0}MB/s로 가장 빠르며 {next}({next_mb_s:0}MB/s)보다 {pct:0}% "
        "앞섭니다 (3% 미만의 차이는 비슷한 것으로 봅니다)."),
    ROW(MSG_FD_CDM_LEAD_BARE, "{cell} {op:op} ({state}): {lead} leads with {lead_mb_s:0} MB/s, {pct:0}% ahead of {next} ({next_mb_s:0} MB/s).",
        "{cell} {op:op} ({state}): {lead:이} {lead_mb_s:0}MB/s로 가장 빠르며 {next}({next_mb_s:0}MB/s)보다 {pct:0}% 앞섭니다."),
    ROW(MSG_FD_CDM_EVEN,
        "{cell} {op:op} ({state}): {lead} and {next} are even ({lead_mb_s:0} and {next_mb_s:0} MB/s, under 3% apart).",
        "{cell} {op:op} ({state}): {lead}({lead_mb_s:0}MB/s)와 {next}({next_mb_s:0}MB/s)는 차이가 3% 미만으로 "
        "비슷합니다."),
    ROW(MSG_FD_FOB_DIFF,
        "{cell} {op:op}: {full_mb_s:0} MB/s at 75% filled against {fob_mb_s:0} MB/s at FOB ({diff}%), beyond the "
        "passes' spread of {spread:1}%.",
        "{cell} {op:op}: 75% 채움에서 {full_mb_s:0}MB/s, FOB에서 {fob_mb_s:0}MB/s로 {diff}% 차이이며, 패스 간 편차 "
        "{spread:1}%를 넘습니다."),
    ROW(MSG_FD_FOB_DIFF_TIGHT,
        "{cell} {op:op}: {full_mb_s:0} MB/s at 75% filled against {fob_mb_s:0} MB/s at FOB ({diff}%), beyond the "
        "passes' spread (under 0.1%).",
        "{cell} {op:op}: 75% 채움에서 {full_mb_s:0}MB/s, FOB에서 {fob_mb_s:0}MB/s로 {diff}% 차이이며, 패스 간 편차"
        "(0.1% 미만)를 넘습니다."),
    ROW(MSG_FD_FOB_DIFF_NOSPREAD,
        "{cell} {op:op}: {full_mb_s:0} MB/s at 75% filled against {fob_mb_s:0} MB/s at FOB ({diff}%), more than "
        "5% (with fewer than two measured passes per cell there is no spread of passes).",
        "{cell} {op:op}: 75% 채움에서 {full_mb_s:0}MB/s, FOB에서 {fob_mb_s:0}MB/s로 {diff}% 차이이며 5%를 넘습니다 "
        "(셀마다 측정 패스가 둘 미만이라 패스 간 편차를 알 수 없습니다)."),
    ROW(MSG_FD_FOB_SAME,
        "FOB and 75% filled differ by no more than the passes' spread (5% where it is not known) in all {cells:0} "
        "figures.",
        "FOB와 75% 채움의 차이는 {cells:0}개 수치 모두 패스 간 편차(알 수 없을 때는 5%) 이내입니다."),
    ROW(MSG_FD_FOB_SHORT, " The short run's 75% state fills a small region only: weak evidence.",
        " 짧은 실행의 75% 상태는 작은 영역만 채운 것이라 근거가 약합니다."),
    ROW(MSG_FD_SLC,
        "The SLC cache ends after about {gib:1} GiB written: {cache_mb_s:0} MB/s in it, {post_mb_s:0} MB/s after it "
        "({ratio:2}x; a cliff is a lasting drop the trace's noise cannot explain).",
        "SLC캐시는 약 {gib:1}GiB 기록 후 끝납니다: 캐시 안에서 {cache_mb_s:0}MB/s, 이후 {post_mb_s:0}MB/s입니다 "
        "({ratio:2}배; 측정 잡음으로 설명할 수 없는 지속적인 속도 저하를 캐시의 끝으로 봅니다)."),
    ROW(MSG_FD_SLC_MIN, " Near full the cache is about {gib:1} GiB.", " 거의 가득 찬 상태에서 캐시는 약 {gib:1}GiB입니다."),
    ROW(MSG_FD_SLC_UNTHR,
        " The in-cache speed is from unthrottled writing only: the drive throttled after {onset_gib:1} GiB, and "
        "the {excluded_pct:0}% of the cache written under the throttle is left out ({mixed_mb_s:0} MB/s with it).",
        " 캐시 안 속도는 스로틀링되지 않은 기록만으로 계산했습니다: 드라이브가 {onset_gib:1}GiB 기록 후 스로틀링되었고, "
        "스로틀링 중 기록된 캐시의 {excluded_pct:0}%는 제외했습니다 (포함하면 {mixed_mb_s:0}MB/s)."),
    ROW(MSG_FD_SLC_POSTTHR,
        " The drive throttled after {onset_gib:1} GiB ({how}): {thr_mb_s:0} MB/s from there on, left out of the "
        "post-cache speed ({mixed_mb_s:0} MB/s with it).",
        " 드라이브가 {onset_gib:1}GiB 기록 후 스로틀링되었습니다({how}): 그 뒤 {thr_mb_s:0}MB/s이며, 이는 캐시 이후 "
        "속도에서 제외했습니다 (포함하면 {mixed_mb_s:0}MB/s)."),
    ROW(MSG_FD_THR_BY_SMART, "by its SMART thermal-management counters", "SMART 온도 관리 카운터 기준"),
    ROW(MSG_FD_THR_BY_TEMP, "its temperature reached the thermal step's throttle point",
        "온도가 열 테스트의 스로틀링 온도에 도달"),
    ROW(MSG_FD_SLC_WEAK, " The cliff's evidence is weak (confidence {conf:2}).", " 이 속도 저하의 근거는 약합니다 (신뢰도 {conf:2})."),
    ROW(MSG_FD_SLC_SHORT,
        "The short run wrote only {gib:1} GiB ({share_pct:1}% of this drive's {cap_gb:0} GB): an SLC cache larger "
        "than that cannot show, so no cache size is given.",
        "짧은 실행은 {gib:1}GiB(이 드라이브 용량 {cap_gb:0}GB의 {share_pct:1}%)만 기록했습니다: 그보다 큰 SLC캐시는 "
        "드러날 수 없으므로 캐시 크기를 제시하지 않습니다."),
    ROW(MSG_FD_SLC_NONE,
        "No SLC cache cliff in the fill: {gib:1} GiB written at {mb_s:0} MB/s without a lasting drop.",
        "채우기 동안 SLC캐시가 끝나는 지점이 없습니다: {gib:1}GiB를 지속적인 속도 저하 없이 {mb_s:0}MB/s로 기록했습니다."),
    ROW(MSG_FD_QD,
        "4K random {op:op} stops scaling at QD{qd:0}: {iops:0} IOPS there, at most {max_iops:0} IOPS up to QD{max_qd:0} "
        "(the plateau is the first QD that no deeper QD beats by more than 10%).",
        "4K 랜덤 {op:op}는 QD{qd:0}에서 더 늘지 않습니다: 그 지점 {iops:0} IOPS, QD{max_qd:0}까지 최대 {max_iops:0} IOPS "
        "(더 깊은 QD가 10% 넘게 앞서지 못하는 첫 QD를 포화점으로 봅니다)."),
    ROW(MSG_FD_QD_FLAT,
        "4K random {op:op} gains little from queue depth: {iops:0} IOPS at QD{qd:0}, at most {max_iops:0} IOPS up to "
        "QD{max_qd:0} (no deeper QD beats QD{qd:0} by more than 10%).",
        "4K 랜덤 {op:op}는 QD를 높여도 거의 늘지 않습니다: QD{qd:0}에서 {iops:0} IOPS, QD{max_qd:0}까지 최대 "
        "{max_iops:0} IOPS (더 깊은 QD가 QD{qd:0}보다 10% 넘게 앞서지 못합니다)."),
    ROW(MSG_FD_QD_FALLS,
        "4K random {op:op} does not gain from queue depth: {iops:0} IOPS at QD{qd:0}, the most, then {lo_iops}–"
        "{hi_iops} IOPS from QD{qd2:0} to QD{max_qd:0}.",
        "4K 랜덤 {op:op}는 QD를 높여도 늘지 않습니다: QD{qd:0}에서 가장 많은 {iops:0} IOPS, QD{qd2:0}부터 QD{max_qd:0}까지는 "
        "{lo_iops}–{hi_iops} IOPS입니다."),
    ROW(MSG_FD_QD_DEEP_FALL, " At QD{qd:0} it falls to {iops:0} IOPS.", " QD{qd:0}에서는 {iops:0} IOPS로 떨어집니다."),
    ROW(MSG_FD_QD_FALL_FROM, " From QD{qd:0} on it falls: {iops} IOPS there, {last} IOPS at QD{max_qd:0}.",
        " QD{qd:0}부터는 떨어집니다: 그 지점 {iops} IOPS, QD{max_qd:0}에서 {last} IOPS."),
    ROW(MSG_FD_QD_NONE,
        "4K random {op:op} still scales at QD{max_qd:0}, the deepest measured: {max_iops:0} IOPS (no plateau below it).",
        "4K 랜덤 {op:op}는 측정한 가장 깊은 QD{max_qd:0}까지 계속 늘어납니다: {max_iops:0} IOPS (그 아래에는 포화점이 "
        "없습니다)."),
    ROW(MSG_FD_CDM_QD,
        "RND4K read ({state}) gains {ratio:1}x from Q1T1 to Q32T1 ({q1:0} to {q32:0} MB/s).",
        "RND4K 읽기({state})는 Q1T1에서 Q32T1로 {ratio:1}배 늘어납니다 ({q1:0}MB/s에서 {q32:0}MB/s)."),
    ROW(MSG_FD_TAIL,
        "QD1 4K random {wl}: median {p50:1} µs, p{p} {p_us:1} µs, {ratio:1}x the median (more than 10x counts as a "
        "tail blow-up).",
        "QD1 4K 랜덤 {wl}: 중앙값 {p50:1} µs, p{p} {p_us:1} µs로 중앙값의 {ratio:1}배입니다 (10배를 넘으면 꼬리 "
        "지연이 크게 늘어난 것으로 봅니다)."),
    ROW(MSG_FD_TAIL_BARE, "QD1 4K random {wl}: median {p50:1} µs, p{p} {p_us:1} µs, {ratio:1}x the median.",
        "QD1 4K 랜덤 {wl}: 중앙값 {p50:1} µs, p{p} {p_us:1} µs로 중앙값의 {ratio:1}배입니다."),
    ROW(MSG_FD_TAIL_BLOW,
        "QD1 4K random {wl}: p{p} {p_us:1} µs is {ratio:1}x the median {p50:1} µs, more than 10x: the tail blows up.",
        "QD1 4K 랜덤 {wl}: p{p} {p_us:1} µs로 중앙값 {p50:1} µs의 {ratio:1}배이며, 10배를 넘어 꼬리 지연이 크게 "
        "늘어납니다."),
    ROW(MSG_FD_MIX70, "70/30 mix", "70/30 혼합"),
    ROW(MSG_FD_THROTTLE,
        "In the {dur:0} s sustained write the drive throttled after {t:0} s at {temp:0} °C: from {before:0} MB/s to "
        "{after:0} MB/s (a drop where the temperature stopped rising or sat at the warning threshold).",
        "{dur:0}초 지속 쓰기에서 {t:0}초 후 {temp:0} °C에서 스로틀링이 일어났습니다: {before:0}MB/s에서 {after:0}MB/s로 "
        "떨어졌습니다 (온도 상승이 멈추거나 경고 온도에 머문 상태의 속도 저하를 스로틀링으로 봅니다)."),
    ROW(MSG_FD_THROTTLE_SMART,
        "In the {dur:0} s sustained write the drive throttled after {t:0} s at {temp:0} °C: from {before:0} MB/s to "
        "{after:0} MB/s (placed by the drive's thermal-management counters: {tmt:0} s throttled over the step).",
        "{dur:0}초 지속 쓰기에서 {t:0}초 후 {temp:0} °C에서 스로틀링이 일어났습니다: {before:0}MB/s에서 {after:0}MB/s로 "
        "떨어졌습니다 (드라이브의 온도 관리 카운터 기준: 이 단계에서 {tmt:0}초 스로틀링)."),
    ROW(MSG_FD_NO_THROTTLE,
        "No throttling in the {dur:0} s sustained write: {mean:0} MB/s on average, {start:0} °C rising to a peak of "
        "{peak:0} °C.",
        "{dur:0}초 지속 쓰기에서 스로틀링은 없었습니다: 평균 {mean:0}MB/s, 온도는 {start:0} °C에서 최고 {peak:0} °C까지 "
        "올랐습니다."),
    ROW(MSG_FD_NO_THROTTLE_FLAT,
        "No throttling in the {dur:0} s sustained write: {mean:0} MB/s on average, the temperature within 1 °C of "
        "its start ({start:1} °C, peak {peak:1} °C).",
        "{dur:0}초 지속 쓰기에서 스로틀링은 없었습니다: 평균 {mean:0}MB/s, 온도는 시작 온도에서 1 °C 이내로 유지되었습니다 "
        "(시작 {start:1} °C, 최고 {peak:1} °C)."),
    ROW(MSG_FD_THROTTLE_NO_DROP,
        "In the {dur:0} s sustained write the drive's thermal-management counters record {tmt:0} s throttled, but no "
        "drop in the write's speed matches them: {mean:0} MB/s on average, {start:0} °C rising to a peak of {peak:0} "
        "°C.",
        "{dur:0}초 지속 쓰기에서 드라이브의 온도 관리 카운터는 {tmt:0}초의 스로틀링을 기록했지만, 이에 맞는 쓰기 속도 "
        "저하는 없었습니다: 평균 {mean:0}MB/s, 온도는 {start:0} °C에서 최고 {peak:0} °C까지 올랐습니다."),
    ROW(MSG_FD_STEADY,
        "Steady state at round {round:0}: {iops:0} IOPS on average over rounds {first:0} to {last:0} (SNIA PTS: five "
        "rounds within 20% of their mean, the best-fit line within 10%).",
        "{round:0}번째 라운드에서 정상 상태에 도달했습니다: 라운드 {first:0}~{last:0} 평균 {iops:0} IOPS (SNIA PTS 기준: "
        "다섯 라운드가 평균의 20% 이내, 추세선 변화 10% 이내)."),
    ROW(MSG_FD_NOT_STEADY,
        "No steady state in {rounds:0} rounds (SNIA PTS: five rounds within 20% of their mean, the best-fit line within "
        "10%).",
        "{rounds:0}번의 라운드 동안 정상 상태에 도달하지 않았습니다 (SNIA PTS 기준: 다섯 라운드가 평균의 20% 이내, "
        "추세선 변화 10% 이내)."),
    ROW(MSG_FD_STEADY_SHORT,
        "The short run writes its steady-state and consistency tests over a {gib:1} GiB region, too small to reach "
        "the drive's steady state: none is stated.",
        "짧은 실행은 정상 상태와 일관성 시험을 {gib:1}GiB 영역에만 기록하므로 드라이브의 정상 상태에 이를 수 없습니다: "
        "정상 상태를 제시하지 않습니다."),
    ROW(MSG_FD_CONSISTENCY,
        "In the consistency test's steady region the drive writes {mean:0} IOPS, its 1% low {p1:0} IOPS, its "
        "stddev {cov:1}% of the mean.",
        "일관성 시험의 안정 구간에서 평균 {mean:0} IOPS, 하위 1% {p1:0} IOPS, 표준편차는 평균의 {cov:1}%입니다."),
    ROW(MSG_FD_FLAG_RND_PLATEAU,
        /* the numbers and the rule only: "queue depth does not lift its
         * random reads" stood beside a finding that QD32 read 9.5x QD1 */
        "{cell} read reaches {mb_s:0} MB/s ({state}), under the {limit_mb_s:0} MB/s this rule expects at QD32 of a "
        "drive of {capacity_gb} GB: a low random-read ceiling",
        "{cell} 읽기는 {mb_s:0}MB/s({state})로, 이 규칙이 {capacity_gb}GB 드라이브의 QD32에 기대하는 {limit_mb_s:0}MB/s에 "
        "못 미칩니다: 랜덤 읽기의 상한이 낮습니다"),
    ROW(MSG_FD_NO_FINDINGS, "No rule fired on these runs.", "이 실행들에서 발동한 규칙이 없습니다."),
    /* ---------------- short runs said as such (issue 27, w4-honest) */
    ROW(MSG_SHORT_NOTICE,
        "**Short review:** the results of {runs} come from a `--short` trial run in a small region: fill states are "
        "shares of that region, a cache or a steady state larger than it cannot show, and the highest tail percentiles "
        "rest on too few I/Os. The figures it affects are marked †.",
        "**짧은 리뷰:** {runs}의 결과는 작은 영역에서 `--short`로 측정한 시험 실행입니다. 채움 상태는 그 영역의 비율이고, "
        "그 영역보다 큰 캐시나 정상 상태는 드러날 수 없으며, 꼬리 지연의 높은 백분위수는 표본이 부족합니다. 이에 해당하는 "
        "수치는 †로 표시했습니다."),
    ROW(MSG_SHORT_TABLE_NOTE,
        "† {label}: a short run (`--short`) in a {gib:1} GiB region: these figures show the drive within that region, "
        "not a full measurement.",
        "† {label}: {gib:1}GiB 영역에서 측정한 짧은 실행(`--short`)입니다. 이 수치는 그 영역 안의 동작일 뿐 전체 측정이 "
        "아닙니다."),
    ROW(MSG_T_NO_CACHE_SHORT, "no cache seen within the {gib:1} GiB the short fill wrote †",
        "짧은 채우기가 쓴 {gib:1}GiB 안에서는 캐시가 보이지 않음 †"),
    ROW(MSG_C_SHORT_TAG, "† short run", "† 짧은 실행"),
    ROW(MSG_MISS_STEADY, "run '{run}' has no steady-state rounds (analysis steady_state)",
        "'{run}'에 정상 상태 라운드가 없습니다 (분석 항목 steady_state)"),
    ROW(MSG_MISS_CONSIST_SERIES, "run '{run}' has no performance-consistency series (analysis consistency)",
        "'{run}'에 성능 일관성 시계열이 없습니다 (분석 항목 consistency)"),
    ROW(MSG_MISS_CONSIST, "run '{run}' has no performance-consistency results (analysis consistency)",
        "'{run}'에 성능 일관성 결과가 없습니다 (분석 항목 consistency)"),
    ROW(MSG_MISS_THERMAL, "run '{run}' has no thermal step (analysis thermal)",
        "'{run}'에 발열 시험 결과가 없습니다 (분석 항목 thermal)"),
    ROW(MSG_T_TH_AFTER_MEAN, "Mean speed after the throttle", "스로틀링 이후 평균 속도"),
    ROW(MSG_T_TH_SHARE, "Time throttled after it", "그 이후 스로틀링된 시간"),
    ROW(MSG_F_THERMAL_NEAR_OLD,
        "the drive peaked at {max_c:1} °C, within {margin_c:0} °C of its warning temperature {warn_c:1} °C, without a "
        "throughput drop",
        "드라이브 온도가 최고 {max_c:1} °C로 경고 온도 {warn_c:1} °C에 {margin_c:0} °C 이내로 다가갔지만 속도 저하는 "
        "없었습니다"),
    ROW(MSG_T_SS_REACHED_SHORT,
        "In the {gib:1} GiB region of this short run the rounds met the steady-state test at round {round} (window "
        "rounds {first}-{last}): mean {mean:0} IOPS, range {range_pct:1}% (limit 20%), best-fit excursion "
        "{excursion_pct:1}% (limit 10%). A region this small can stay in the drive's SLC cache: this is not the "
        "drive's steady state †.",
        "이 짧은 실행의 {gib:1}GiB 영역에서는 {round}라운드에 정상 상태 판정을 통과했습니다 (측정 구간 "
        "{first}-{last}라운드): 평균 {mean:0} IOPS, 범위 {range_pct:1}% (한도 20%), 최소제곱 직선 변화폭 "
        "{excursion_pct:1}% (한도 10%). 이렇게 작은 영역은 드라이브의 SLC캐시 안에 머물 수 있으므로 드라이브의 정상 "
        "상태가 아닙니다 †."),
    ROW(MSG_T_SHORT_REGION,
        "A short run writes a {gib:1} GiB region, which can stay in the drive's SLC cache: a flat consistency here is "
        "the region's, not the drive's †.",
        "짧은 실행은 {gib:1}GiB 영역에만 쓰므로 드라이브의 SLC캐시 안에 머물 수 있습니다. 여기서의 평탄한 일관성은 그 "
        "영역의 것이지 드라이브의 것이 아닙니다 †."),
    ROW(MSG_F_RND_PLATEAU_FILE,
        "{cell} read {mb_s:0} MB/s < {limit_mb_s:0} MB/s on a file target ({state}): the file system and the storage "
        "under it set this ceiling, queue depth does not help",
        "{cell} 읽기가 {mb_s:0}MB/s로 {limit_mb_s:0}MB/s를 넘지 못합니다 (파일 대상, {state}): 파일 시스템과 그 아래 "
        "저장장치가 정한 한계라 QD를 높여도 성능이 늘지 않습니다"),
    ROW(MSG_F_RND_PLATEAU_VIRTUAL,
        "{cell} read {mb_s:0} MB/s < {limit_mb_s:0} MB/s on a {capacity_gb} GB virtual disk ({state}): the host's "
        "storage stack sets this ceiling, queue depth does not help",
        "{cell} 읽기가 {mb_s:0}MB/s로 {limit_mb_s:0}MB/s를 넘지 못합니다 ({capacity_gb}GB 가상 디스크, {state}): 호스트의 "
        "저장 스택이 정한 한계라 QD를 높여도 성능이 늘지 않습니다"),
};

/* Variants chosen by the flag's numbers: none written since the fill
 * ("0.00 GiB of random writes"), a QD sweep flat from its first point
 * ("stops growing at QD1"). */
static double flag_num(const json_t *nums, const char *k) {
  const json_t *v = json_object_get(nums, k);
  return json_is_number(v) ? json_number_value(v) : NAN;
}
static int when_none_written(const json_t *nums) { return flag_num(nums, "had_gib") < 0.005; }
static int when_flat_from_first(const json_t *nums) {
  return flag_num(nums, "qd") == flag_num(nums, "first_qd");
}

/* flag id (analysis.json flags[].id) -> its finding; the first row whose
 * words the numbers fill (and whose `when` holds) */
static const struct {
  const char *flag;
  enum render_msg_id msg;
  const char *target; /* only for flags whose numbers say this "target" (NULL: any) */
  int (*when)(const json_t *nums); /* NULL: always */
} flag_msgs[] = {
    /* the words by what was measured (analyze/flags.c target_word) */
    {"rnd_read_plateau", MSG_F_RND_PLATEAU_FILE, "file"},
    {"rnd_read_plateau", MSG_F_RND_PLATEAU_VIRTUAL, "virtual"},
    {"rnd_read_plateau", MSG_F_RND_READ_PLATEAU}, {"fob_vs_full", MSG_F_FOB_VS_FULL},
    {"write_cliff", MSG_F_WRITE_CLIFF},           {"slow_post_cache", MSG_F_SLOW_POST_CACHE},
    {"tail_blowup", MSG_F_TAIL_BLOWUP},           {"rw_sweep_dip", MSG_F_RW_SWEEP_DIP},
    {"thermal_throttle", MSG_F_THERMAL_THROTTLE}, {"thermal_near_warn", MSG_F_THERMAL_NEAR_WARN},
    {"thermal_near_warn", MSG_F_THERMAL_NEAR_OLD}, /* an analysis.json from before gap_c */
    {"thermal_over_warn", MSG_F_THERMAL_OVER_WARN},
    {"link_bound", MSG_F_LINK_BOUND},             {"io_errors", MSG_F_IO_ERRORS},
    {"log_unreadable", MSG_F_LOG_UNREADABLE},
    {"qd_plateau", MSG_F_QD_FLAT, NULL, when_flat_from_first}, {"qd_plateau", MSG_F_QD_PLATEAU},
    {"thermal_step_throttle", MSG_F_THERMAL_STEP_THROTTLE},
    {"not_steady", MSG_F_NOT_STEADY},             {"not_steady", MSG_F_NOT_STEADY_FEW},
    {"not_steady", MSG_F_NOT_STEADY_ZERO},
    {"pre_steady", MSG_F_PRE_STEADY_NONE, NULL, when_none_written}, {"pre_steady", MSG_F_PRE_STEADY},
    {"consistency_drops", MSG_F_CONSISTENCY_DROPS},
    {"slow_cache_recovery", MSG_F_SLOW_RECOVERY},
};

/* ------------------------------------------------------------ languages */

static const char *const lang_codes[RENDER_NLANGS] = {"en", "ko"};

int render_lang_parse(const char *code, enum render_lang *lang) {
  for (int i = 0; i < RENDER_NLANGS; i++)
    if (code && !strcmp(code, lang_codes[i])) {
      *lang = (enum render_lang)i;
      return 0;
    }
  return -EINVAL;
}

const char *render_lang_code(enum render_lang lang) {
  return (unsigned)lang < RENDER_NLANGS ? lang_codes[lang] : "en";
}

/* "{{lang ko}}" outside fenced code, else NAME.ko.md / NAME.en.md, else
 * Korean when the text holds Hangul, else English. */
enum render_lang render_template_lang(const char *name, const char *text) {
  enum render_lang l = RENDER_LANG_EN;
  int fence = 0;
  for (const char *p = text; p && *p;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    const char *q = p;
    while (q < p + len && *q == ' ') q++;
    if (!strncmp(q, "```", 3) || !strncmp(q, "~~~", 3)) fence = !fence;
    /* searched within this line only: strstr over the rest of the text
     * made a template of N lines without {{lang}} cost N^2 (issue 26) */
    const char *d = fence ? NULL : memmem(p, len, "{{lang ", 7);
    if (d) {
      char code[8] = {0};
      const char *c = d + 7;
      while (*c == ' ') c++;
      size_t n = strcspn(c, " }");
      if (n < sizeof code) memcpy(code, c, n);
      if (render_lang_parse(code, &l) == 0) return l;
    }
    p += len + (eol ? 1 : 0);
  }
  const char *base = name ? strrchr(name, '/') : NULL;
  base = base ? base + 1 : name;
  for (int i = 0; base && i < RENDER_NLANGS; i++) {
    char infix[8];
    snprintf(infix, sizeof infix, ".%s.", lang_codes[i]);
    if (strstr(base, infix)) return (enum render_lang)i;
  }
  /* a template that names no language but is written in Korean */
  for (const unsigned char *u = (const unsigned char *)text; u && *u; u++)
    if (u[0] >= 0xEA && u[0] <= 0xED && u[1] >= 0x80) return RENDER_LANG_KO; /* Hangul, U+AC00..U+D7FF */
  return l;
}

/* ------------------------------------------------------------ catalogue */

const char *render_msg(enum render_lang lang, enum render_msg_id id) {
  if ((unsigned)id >= MSG_COUNT || (unsigned)lang >= RENDER_NLANGS || !rows[id].form[lang]) return "";
  return rows[id].form[lang];
}

int render_msg_same_ok(enum render_msg_id id) { return (unsigned)id < MSG_COUNT && rows[id].same; }

const char *render_msg_name(enum render_msg_id id) {
  return (unsigned)id < MSG_COUNT && rows[id].name ? rows[id].name : "(no row)";
}

int render_msg_flag(const char *flag_id) {
  for (size_t i = 0; flag_id && i < sizeof flag_msgs / sizeof flag_msgs[0]; i++)
    if (!strcmp(flag_msgs[i].flag, flag_id)) return (int)flag_msgs[i].msg;
  return -1;
}

int render_msg_flag_for(enum render_lang lang, const char *flag_id, const json_t *nums) {
  for (size_t i = 0; flag_id && i < sizeof flag_msgs / sizeof flag_msgs[0]; i++)
    if (!strcmp(flag_msgs[i].flag, flag_id) && render_msg_params_ok(lang, flag_msgs[i].msg, nums) &&
        (!flag_msgs[i].when || flag_msgs[i].when(nums)) &&
        (!flag_msgs[i].target || !strcmp(flag_msgs[i].target, json_string_value(json_object_get(nums, "target"))
                                                                   ? json_string_value(json_object_get(nums, "target"))
                                                                   : "")))
      return (int)flag_msgs[i].msg;
  return -1;
}

int render_msg_severity(const char *sev) {
  static const char *const sevs[] = {"info", "warn", "error"};
  for (int i = 0; sev && i < 3; i++)
    if (!strcmp(sevs[i], sev)) return MSG_SEV_INFO + i;
  return -1;
}

/* One {name[:spec]} at P (after the '{'): its name, spec and end. */
struct ph {
  char name[48], spec[8];
  const char *end; /* after the '}' */
};

static int parse_ph(const char *p, struct ph *ph) {
  const char *close = strchr(p, '}');
  if (!close) return -1;
  size_t n = strcspn(p, ":}");
  if (n == 0 || n >= sizeof ph->name) return -1;
  memcpy(ph->name, p, n);
  ph->name[n] = 0;
  ph->spec[0] = 0;
  if (p[n] == ':') {
    size_t s = (size_t)(close - (p + n + 1));
    if (s >= sizeof ph->spec) return -1;
    memcpy(ph->spec, p + n + 1, s);
    ph->spec[s] = 0;
  }
  ph->end = close + 1;
  return 0;
}

/* Whether WORD, read aloud in Korean, ends in a final consonant (받침):
 * 1 yes, 0 no, -1 unknown (empty, or a script we do not read). A Hangul
 * syllable has one when (code - 0xAC00) % 28 != 0. Trailing spaces and
 * ASCII punctuation (a label "Drive (A)", a quote) are skipped. A digit is
 * read the Sino-Korean way: 0 영, 1 일, 3 삼, 6 육, 7 칠, 8 팔 end in a
 * consonant, 2 이, 4 사, 5 오, 9 구 do not. A Latin letter by the common
 * reading of its name: L 엘, M 엠, N 엔, R 알 end in a consonant, the others
 * (A 에이, B 비, ..., Z 지) do not. */
int render_msg_has_final(const char *word) {
  size_t n = word ? strlen(word) : 0;
  while (n > 0 && (word[n - 1] == ' ' || (ispunct((unsigned char)word[n - 1]) && word[n - 1] != '%'))) n--;
  if (n == 0) return -1;
  unsigned char c = (unsigned char)word[n - 1];
  if (isdigit(c)) return strchr("013678", c) != NULL;
  if (isalpha(c)) return strchr("LMNR", toupper(c)) != NULL;
  if (c == '%') return 0; /* 퍼센트 */
  size_t i = n - 1;
  while (i > 0 && ((unsigned char)word[i] & 0xC0) == 0x80) i--;
  const unsigned char *u = (const unsigned char *)word + i;
  if (n - i != 3 || (u[0] & 0xF0) != 0xE0) return -1;
  unsigned cp = (unsigned)(u[0] & 0x0F) << 12 | (unsigned)(u[1] & 0x3F) << 6 | (unsigned)(u[2] & 0x3F);
  if (cp < 0xAC00 || cp > 0xD7A3) return -1;
  return (cp - 0xAC00) % 28 != 0;
}

/* The Korean particle spec {name:이} (이/가), {name:은} (은/는), {name:을}
 * (을/를), {name:과} (과/와): the consonant form and the vowel form, or
 * NULL when SPEC is no particle. */
static const char *const josa[][2] = {{"이", "가"}, {"은", "는"}, {"을", "를"}, {"과", "와"}};

/* X with DEC decimals, its integer part grouped by thousands from 10,000
 * up ("27,347.4 µs", "2,160x"; "3500 MB/s" stays as CrystalDiskMark and
 * the tables write it): a sentence's number, read at a glance. */
static void put_grouped(struct render_buf *b, double x, int dec) {
  char s[64], g[96];
  int n = snprintf(s, sizeof s, "%.*f", dec, x);
  if (n <= 0 || (size_t)n >= sizeof s) {
    render_buf_puts(b, "?");
    return;
  }
  render_group_digits(s, g, sizeof g, isfinite(x) ? 5 : (size_t)-1);
  render_buf_puts(b, g);
}

static void put_param(struct render_buf *b, enum render_lang lang, const json_t *v, const char *spec) {
  for (size_t j = 0; json_is_string(v) && j < sizeof josa / sizeof josa[0]; j++) {
    if (strcmp(spec, josa[j][0])) continue;
    const char *s = json_string_value(v);
    int fin = render_msg_has_final(s);
    render_buf_puts(b, s);
    /* a word we cannot read keeps both forms, "이(가)" */
    if (fin < 0) render_buf_printf(b, "%s(%s)", josa[j][0], josa[j][1]);
    else render_buf_puts(b, josa[j][fin ? 0 : 1]);
    return;
  }
  if (json_is_string(v)) {
    const char *s = json_string_value(v);
    int op = !strcmp(spec, "op") ? (!strcmp(s, "read") ? MSG_READ : !strcmp(s, "write") ? MSG_WRITE
                                                                  : !strcmp(s, "mix")    ? MSG_MIX
                                                                                         : -1)
                                 : -1;
    /* {x:wl}: a tail workload's id (mix70) in the words of the findings
     * (render/doc/findings.c), for the flags table's rows */
    if (!strcmp(spec, "wl"))
      op = !strcmp(s, "read") ? MSG_READ : !strcmp(s, "write") ? MSG_WRITE : !strcmp(s, "mix70") ? MSG_FD_MIX70 : -1;
    /* {x:sec}: a pre_steady section (analyze/steady.c: "cdm STATE",
     * "tail") in words, not its key ("Cdm 75% was measured ...") */
    if (!strcmp(spec, "sec") && (!strncmp(s, "cdm ", 4) || !strcmp(s, "tail"))) {
      json_t *p = json_pack("{s:s}", "state", s[0] == 'c' ? s + 4 : "");
      size_t sl = strlen(s);
      render_msg_put(b, lang, !strcmp(s, "tail") ? MSG_FD_SEC_TAIL
                              : s[sl - 1] == '%' ? MSG_FD_SEC_CDM_FILL
                                                 : MSG_FD_SEC_CDM_STATE,
                     p);
      json_decref(p);
      return;
    }
    render_buf_puts(b, op >= 0 ? render_msg(lang, (enum render_msg_id)op) : s);
  } else if (json_is_number(v)) {
    double x = json_number_value(v);
    if (spec[0] >= '0' && spec[0] <= '6' && !spec[1]) put_grouped(b, x, spec[0] - '0');
    else render_buf_printf(b, "%g", x);
  } else if (json_is_boolean(v)) {
    render_buf_puts(b, render_msg(lang, json_is_true(v) ? MSG_YES : MSG_NO));
  } else {
    render_buf_puts(b, "?");
  }
}

void render_msg_put(struct render_buf *b, enum render_lang lang, enum render_msg_id id, const json_t *params) {
  for (const char *p = render_msg(lang, id); *p;) {
    struct ph ph;
    if (p[0] == '{' && p[1] == '{') {
      render_buf_putn(b, "{", 1);
      p += 2;
    } else if (p[0] == '{' && parse_ph(p + 1, &ph) == 0) {
      put_param(b, lang, json_object_get(params, ph.name), ph.spec);
      p = ph.end;
    } else {
      render_buf_putn(b, p, 1);
      p++;
    }
  }
}

int render_msg_params_ok(enum render_lang lang, enum render_msg_id id, const json_t *params) {
  for (const char *p = render_msg(lang, id); (p = strchr(p, '{'));) {
    struct ph ph;
    if (p[1] == '{') {
      p += 2;
      continue;
    }
    if (parse_ph(p + 1, &ph) < 0) return 0;
    if (!json_object_get(params, ph.name)) return 0;
    p = ph.end;
  }
  return 1;
}

int render_msg_fail(struct ssdrev_err *err, int code, enum render_msg_id id, const char *run, const char *arg) {
  json_t *params = json_object();
  json_object_set_new(params, "run", json_string(run ? run : ""));
  if (arg) json_object_set_new(params, "arg", json_string(arg));
  struct render_buf b = {0};
  render_msg_put(&b, RENDER_LANG_EN, id, params);
  json_decref(params);
  code = ssdrev_fail(err, code, "%s", b.s && !b.oom ? b.s : render_msg(RENDER_LANG_EN, id));
  render_buf_free(&b);
  return code;
}

/* Matches TEXT against the English form of ID, capturing its {parameters}
 * (each as text, up to the next literal piece) into PARAMS. 1 on a match. */
static int match_form(enum render_msg_id id, const char *text, json_t *params) {
  const char *f = render_msg(RENDER_LANG_EN, id), *t = text;
  while (*f) {
    struct ph ph;
    if (f[0] == '{' && parse_ph(f + 1, &ph) == 0) {
      /* the literal after the placeholder, up to the next one */
      const char *lit = ph.end;
      size_t ln = strcspn(lit, "{");
      const char *at;
      if (!ln) at = t + strlen(t); /* last piece: the rest */
      else {
        char piece[256];
        if (ln >= sizeof piece) return 0;
        memcpy(piece, lit, ln);
        piece[ln] = 0;
        at = strstr(t, piece);
        if (!at) return 0;
      }
      json_object_set_new(params, ph.name, json_stringn(t, (size_t)(at - t)));
      t = at;
      f = ph.end;
    } else {
      if (*t != *f) return 0;
      t++;
      f++;
    }
  }
  return *t == 0;
}

/* The missing-data reasons, most specific first where two forms overlap
 * (MSG_MISS_CDM_OP's {arg} would swallow MSG_MISS_CDM's text). */
static const enum render_msg_id reasons[] = {
    MSG_MISS_CDM,       MSG_MISS_FILL,   MSG_MISS_FILL_LAT, MSG_MISS_SWEEP, MSG_MISS_TAIL,
    MSG_MISS_TEST,      MSG_MISS_TAIL_TEST, MSG_MISS_SERIES, MSG_MISS_HIST_LOG, MSG_MISS_DUT,
    MSG_MISS_SLC,       MSG_MISS_VALUE,  MSG_MISS_FILL_TIME, MSG_MISS_TEMP, MSG_MISS_QD,
    MSG_MISS_CDM_OP,    MSG_MISS_RECOVERY, MSG_MISS_RECOVERY_NONE, MSG_MISS_STEADY, MSG_MISS_CONSIST_SERIES, MSG_MISS_CONSIST,
    MSG_MISS_THERMAL,
};

void render_msg_put_reason(struct render_buf *b, enum render_lang lang, const char *en_text) {
  for (size_t k = 0; k < sizeof reasons / sizeof reasons[0]; k++) {
    enum render_msg_id id = reasons[k];
    json_t *params = json_object();
    if (match_form((enum render_msg_id)id, en_text, params)) {
      render_msg_put(b, lang, (enum render_msg_id)id, params);
      json_decref(params);
      return;
    }
    json_decref(params);
  }
  render_buf_puts(b, en_text);
}

/* The CLI's message forms with a sentence inside: {why} is itself a
 * missing-data reason, put in the language too. */
static const enum render_msg_id cli_forms[] = {
    MSG_W_NOT_MEASURED, MSG_W_SKIPPING,   MSG_W_REANALYZED,    MSG_W_REANALYZED_MEM, MSG_W_READ_ONLY, MSG_W_CDM_TWICE,
    MSG_W_CDM_ZERO,     MSG_W_FIO_SHORT_LOG, MSG_W_FIO_NO_LOG, MSG_W_AN_SUMMARIZED,
    MSG_W_AN_FEW,       MSG_W_AN_REST,
};

void render_msg_cli(enum render_lang lang, const char *text, char *out, size_t len) {
  if (!len) return;
  struct render_buf b = {0};
  if (!strcmp(text, "warning")) render_buf_puts(&b, render_msg(lang, MSG_W_WARNING));
  else if (!strcmp(text, "note")) render_buf_puts(&b, render_msg(lang, MSG_W_NOTE));
  else {
    int done = 0;
    for (size_t k = 0; !done && k < sizeof cli_forms / sizeof cli_forms[0]; k++) {
      json_t *params = json_object();
      if (match_form(cli_forms[k], text, params)) {
        const char *why = json_string_value(json_object_get(params, "why"));
        if (why) {
          struct render_buf r = {0};
          render_msg_put_reason(&r, lang, why);
          if (r.s && !r.oom) json_object_set_new(params, "why", json_string(r.s));
          render_buf_free(&r);
        }
        render_msg_put(&b, lang, cli_forms[k], params);
        done = 1;
      }
      json_decref(params);
    }
    if (!done) render_msg_put_reason(&b, lang, text);
  }
  snprintf(out, len, "%s", b.s && !b.oom ? b.s : text);
  render_buf_free(&b);
}

void render_flag_text(enum render_lang lang, const json_t *flag, char *out, size_t len) {
  if (!len) return;
  const char *sev = json_string_value(json_object_get(flag, "severity")),
             *id = json_string_value(json_object_get(flag, "id")),
             *msg = json_string_value(json_object_get(flag, "message"));
  const json_t *nums = json_object_get(flag, "numbers");
  int sid = render_msg_severity(sev ? sev : "info"), fid = render_msg_flag_for(lang, id, nums);
  struct render_buf b = {0};
  if (fid >= 0)
    render_msg_put(&b, lang, (enum render_msg_id)fid, nums);
  snprintf(out, len, "[%s] %s: %s", sid >= 0 ? render_msg(lang, (enum render_msg_id)sid) : sev ? sev : "info",
           id ? id : "?", b.s && !b.oom ? b.s : msg ? msg : "");
  render_buf_free(&b);
}
