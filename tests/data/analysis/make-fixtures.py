#!/usr/bin/python3
"""Writes the renderer's hand-made fixture archives (manifest.json +
analysis.json, schema docs/archive.md) for two simulated drives, PM981 256GB
and PM981a 256GB, with the reference review's tail-latency and DUT numbers
(/work/shared/reference/methodology.md). Deterministic: rerun to regenerate.
Usage: tests/data/analysis/make-fixtures.py [OUTDIR]"""
import json, math, os, random, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
PCTS = [50, 90, 99, 99.9, 99.99, 99.999]

def crc32c(data, crc=0):
    """CRC-32C (Castagnoli), as base/crc32c.c computes it."""
    crc ^= 0xffffffff
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xffffffff

def ps(max_w):
    return [{"ps": 0, "max_power_w": max_w, "entry_lat_us": 0, "exit_lat_us": 0},
            {"ps": 1, "max_power_w": 6.30, "entry_lat_us": 0, "exit_lat_us": 0},
            {"ps": 2, "max_power_w": 3.50, "entry_lat_us": 0, "exit_lat_us": 0},
            {"ps": 3, "max_power_w": 0.0760, "entry_lat_us": 210, "exit_lat_us": 1200},
            {"ps": 4, "max_power_w": 0.0050, "entry_lat_us": 2000, "exit_lat_us": 8000}]

DRIVES = {
  "pm981": dict(label="PM981 256GB",
    dut={"model": "SAMSUNG MZVLB256HAHQ-000L7", "firmware": "1L2QEXD7", "link": "PCIe 3.0 x4",
         "nvme_version": "1.2", "lba_bytes": 512, "capacity_bytes": 256060514304,
         "controller": "Samsung Phoenix", "media": "Samsung V4 TLC", "warn_temp_c": 81, "crit_temp_c": 82,
         "power_states": ps(7.02),
         "health": {"temp_c": 38, "percent_used": 3, "available_spare_pct": 100, "data_read_bytes": 21474836480000,
                    "data_written_bytes": 13510798882816, "power_on_hours": 1873, "power_cycles": 412,
                    "unsafe_shutdowns": 27, "media_errors": 0, "critical_warning": 0}},
    cdm={"SEQ1M Q8T1": (3412.57, 1455.21), "SEQ1M Q1T1": (1986.33, 1402.18),
         "RND4K Q32T1": (548.22, 467.85), "RND4K Q1T1": (44.71, 118.36)},
    slc=(11.2, 2.1, 1450.0, 780.0), seed=1,
    tail={"read": [88.2, 93.50, 98.47, 99.88, 148.68, 174.15],
          "mix70": [85.1, 92.81, 107.02, 281.94, 2285.65, 3095.47],
          "write": [11.9, 13.90, 16.71, 24.43, 25.86, 28.21]}),
  "pm981a": dict(label="PM981a 256GB",
    dut={"model": "SAMSUNG MZVLB256HBHQ-00000", "firmware": "EXH7201Q", "link": "PCIe 3.0 x4",
         "nvme_version": "1.3", "lba_bytes": 512, "capacity_bytes": 256060514304,
         "controller": "Samsung Phoenix", "media": "Samsung V5 TLC", "warn_temp_c": 84, "crit_temp_c": 85,
         "power_states": ps(8.00),
         "health": {"temp_c": 36, "percent_used": 1, "available_spare_pct": 100, "data_read_bytes": 4398046511104,
                    "data_written_bytes": 2199023255552, "power_on_hours": 640, "power_cycles": 88,
                    "unsafe_shutdowns": 5, "media_errors": 0, "critical_warning": 0}},
    cdm={"SEQ1M Q8T1": (3541.08, 1612.44), "SEQ1M Q1T1": (2215.90, 1587.02),
         "RND4K Q32T1": (583.61, 512.37), "RND4K Q1T1": (48.92, 131.25)},
    slc=(11.0, 2.0, 1600.0, 905.0), seed=2,
    tail={"read": [85.9, 90.51, 95.41, 98.95, 159.01, 186.64],
          "mix70": [83.0, 89.96, 101.49, 242.49, 2481.42, 3329.26],
          "write": [11.7, 13.77, 16.49, 24.19, 25.61, 51.92]}),
}

def cdm_entry(mb_s, block, lat_scale):
    iops = mb_s * 1e6 / block
    return {"mb_s": mb_s, "iops": round(iops, 1), "lat_us": round(lat_scale / iops * 1e6, 2), "passes": 5}

def per_sec(gib, mb):
    """The fill's speed over time: each GiB point at the time it ended."""
    t = 0.0; ts = []
    for v in mb:
        t += 2**30 / (v * 1e6); ts.append(round(t, 3))
    return {"t_s": ts, "mb_s": list(mb)}

def build(key, d):
    rnd = random.Random(d["seed"])
    blocks = {"SEQ1M Q8T1": (1 << 20, 8), "SEQ1M Q1T1": (1 << 20, 1), "RND4K Q32T1": (4096, 32), "RND4K Q1T1": (4096, 1)}
    cdm = []
    for state, f in (("FOB", 1.0), ("75%", 0.985)):
        for cell, (r, w) in d["cdm"].items():
            blk, qd = blocks[cell]
            cdm.append({"state": state, "profile": "default", "cell": cell,
                        "read": cdm_entry(round(r * f, 2), blk, qd), "write": cdm_entry(round(w * f, 2), blk, qd)})
    smax, smin, hi, lo = d["slc"]
    cap_gib = 256060514304 / 2**30
    gib = [round(i + 1.0, 3) for i in range(int(cap_gib))]
    mb = []; lat = []; p99 = []
    for g in gib:
        v = hi if g <= smax else lo
        # the near-full part slows a little more as free blocks run out
        if g > cap_gib * 0.85: v *= 0.93
        v *= 1 + rnd.uniform(-0.025, 0.025)
        mb.append(round(v, 1)); lat.append(round(131072 / (v * 1e6) * 1e6, 2)); p99.append(round(lat[-1] * 2.4, 2))
    fill = {"phase": "empty",
            "per_gib": {"gib": gib, "mb_s": mb, "lat_mean_us": lat, "lat_p99_us": p99},
            "per_sec": per_sec(gib, mb),
            "slc": {"found": True, "max_gib": smax, "min_gib": smin, "cache_mb_s": hi, "post_cache_mb_s": lo,
                    "drops": [{"at_gib": smax, "from_mb_s": hi, "to_mb_s": lo}], "confidence": 0.93,
                    "method": "PELT, min segment 2 GiB"}}
    sweep = []
    for qd in (1, 2, 4):
        pts = []
        for rp in range(0, 101, 10):
            base = (d["cdm"]["RND4K Q1T1"][1] * (100 - rp) + d["cdm"]["RND4K Q1T1"][0] * rp) / 100
            v = base * (1 + 0.7 * (qd - 1)) * (1 - 0.25 * math.sin(math.pi * rp / 100))
            pts.append({"read_pct": rp, "mb_s": round(v, 1), "iops": round(v * 1e6 / 4096, 1),
                        "read_lat_us": 90.0 if rp else None, "write_lat_us": 14.0 if rp < 100 else None})
        sweep.append({"qd": qd, "points": pts})
    tail = {}; tests = {}
    for w, vals in d["tail"].items():
        obj = {("p%g_us" % p): v for p, v in zip(PCTS, vals)}
        obj["mean_us"] = round(vals[0] * 1.02, 2); obj["max_us"] = round(vals[-1] * 1.3, 2)
        tail[w] = obj
        pct = [{"p": p, "lat_ns": int(round(v * 1000)), "lat_us": v, "at_or_beyond": int(1e6 * (100 - p) / 100) or 1,
                "warn": False} for p, v in zip(PCTS, vals)]
        n = 30
        series = {"interval_s": 1, "t_s": list(range(1, n + 1)),
                  "mb_s": [round(4096 / (vals[0] * 1e-6) / 1e6 * rnd.uniform(0.97, 1.03), 2) for _ in range(n)],
                  "iops": [], "p50_us": [round(vals[0] * rnd.uniform(0.98, 1.02), 2) for _ in range(n)],
                  "p99_us": [round(vals[2] * rnd.uniform(0.95, 1.1), 2) for _ in range(n)]}
        series["iops"] = [round(m * 1e6 / 4096, 1) for m in series["mb_s"]]
        stats = {"ios": 1000000, "bytes": 4096000000, "errors": 0, "elapsed_s": 30, "iops": 33333.3, "mb_s": 136.5,
                 "mib_s": 130.2, "lat_min_us": round(vals[0] * 0.6, 2), "lat_mean_us": obj["mean_us"],
                 "lat_stddev_us": 12.0, "lat_max_us": obj["max_us"], "pct": pct}
        tests["tail.%s" % w] = {"kind": "tail", "workload": w, "step": "tail", "ops": {"all": stats},
                                "series": series, "warnings": []}
    # the tail step's temperature, sampled every 5 s over its three 30 s tests
    warm = 0.9 if key == "pm981" else 0.7
    temp_t = list(range(0, 91, 5))
    temp_c = [round(40 + warm * 20 * (1 - math.exp(-t / 40.0)), 2) for t in temp_t]
    flags = [{"id": "rnd_read_plateau", "severity": "warn",
              "message": "RND4K Q32T1 read %.0f MB/s < 600 MB/s on a 256 GB drive" % d["cdm"]["RND4K Q32T1"][0],
              "numbers": {"mb_s": d["cdm"]["RND4K Q32T1"][0], "capacity_gb": 256}}]
    analysis = {"format": "ssdrev-analysis", "format_version": 1, "label": d["label"], "simulated": True,
                "dut": d["dut"], "percentiles": PCTS, "tests": tests, "cdm": cdm, "fill": fill,
                "rw_sweep": sweep, "tail": tail, "temperature": {"t_s": temp_t, "c": temp_c, "steps": {"tail": {"t_s": temp_t, "c": temp_c}}},
                "flags": flags}
    manifest = {"format": "ssdrev-run", "format_version": 1, "tool": {"name": "ssdrev", "version": "0.1.0"},
                "host": {"hostname": "fixture", "kernel": "6.1.0", "machine": "x86_64"},
                "created": "2026-11-29T18:00:00Z", "simulated": True,
                "target": {"spec": "sim:samples/models/%s-256.model" % key, "kind": "sim",
                           "size_bytes": 256060514304, "lba_bytes": 512},
                "source": {"kind": "ssdrev"}, "label": d["label"], "dut": d["dut"], "steps": {},
                "tests": [{"name": "tail.%s" % w, "step": "tail", "kind": "tail", "workload": w,
                           "status": "complete"} for w in d["tail"]]}
    os.makedirs(os.path.join(OUT, key), exist_ok=True)
    mtext = (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode()
    with open(os.path.join(OUT, key, "manifest.json"), "wb") as f:
        f.write(mtext)
    # fresh for this manifest (analyze_is_fresh): its CRC32C and the content version
    analysis["manifest_crc32c"] = "%08x" % crc32c(mtext)
    analysis["content_version"] = 3
    with open(os.path.join(OUT, key, "analysis.json"), "w") as f:
        json.dump(analysis, f, indent=1, ensure_ascii=False); f.write("\n")

for k, d in DRIVES.items():
    build(k, d)
